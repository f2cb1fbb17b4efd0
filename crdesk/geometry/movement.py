"""Movement geometry: path cost, how far a figure gets, paths around obstacles, Duck Back.

Digest 7 (7.4): woods (and rough ground) halve movement, so every inch inside
costs 2"; passing a door costs 2" and a window 4" (8.2); impassable ground
cannot be entered; a path may not pass through a building wall elsewhere.
PEFs ignore terrain penalties (11.2): for them only impassable ground counts.
Paths are followed by the figure's centre; a base may not overlap impassable
ground.
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from crdesk.geometry import kernels, los
from crdesk.geometry.los import CODE, CoverKind, Reason, Viewpoints, cover_reasons, evaluate
from crdesk.geometry.terrain_index import (
    GRAZE,
    NOWHERE,
    Bools,
    Floats,
    Ints,
    Place,
    TerrainIndex,
    build_index,
    locate,
    locate_many,
    locate_reach,
)
from crdesk.model import Battlefield, Figure, OpeningKind
from crdesk.model import TerrainKind as K
from crdesk.options import Interpretations, RulesOptions, Weather

Point2 = tuple[float, float]

OPENING_COST = {OpeningKind.DOOR: 2.0, OpeningKind.WINDOW: 4.0}
"""Extra movement to pass an opening (8.2)."""
WOODS_FACTOR = 2.0
"""Half speed in woods: each inch costs two (7.4)."""
DUCK_BACK_DISTANCE = 6.0
"""Duck Back: nearest Cover within 6" (7.4.4)."""


@dataclass(frozen=True, slots=True)
class PathCost:
    """The movement a path costs, or why it cannot be taken."""

    cost: float
    length: float
    forbidden: str | None = None
    """``"impassable"``, ``"wall"`` (and the feature id) or ``"edge"`` (the base would
    leave the table) when the path cannot be taken."""
    feature_id: str | None = None

    @property
    def allowed(self) -> bool:
        return self.forbidden is None


@dataclass(frozen=True, slots=True)
class _Piece:
    start: float
    end: float
    rate: float


def _obstacles(index: TerrainIndex, radius: float) -> BaseGeometry | None:
    """Impassable ground grown by the base radius: the centre may not enter it."""
    if index.impassable_union is None:
        return None
    grown = index.impassable_union.buffer(max(radius - GRAZE, 0.0), quad_segs=4)
    shapely.prepare(grown)
    return grown


def _grown_impassable(index: TerrainIndex, n: int, radius: float) -> tuple[Polygon, Polygon]:
    """Impassable feature ``n`` grown by the base radius, and that shrunk by the graze
    margin: made once per terrain index and radius (every move and ray asks)."""
    cache = index.cache.setdefault("grown_impassable", {})
    assert isinstance(cache, dict)
    key = (n, radius)
    got = cache.get(key)
    if got is None:
        grown = index.outlines[n].buffer(max(radius - GRAZE, 0.0), quad_segs=4)
        core = grown.buffer(-GRAZE)
        shapely.prepare(core)
        got = cache[key] = (grown, core)
    return got


def _segment_events(
    index: TerrainIndex, seg: LineString, ignore_terrain: bool, radius: float, walls: bool = False
) -> tuple[list[_Piece], list[tuple[float, float, str | None, str]]]:
    """Rate pieces along one segment and the crossings (distance, cost, forbidden, feature).

    ``ignore_terrain``: no woods, doors or windows cost anything, and (unless ``walls``)
    buildings' walls are not there either; impassable ground still stops the base."""
    length = seg.length
    events: list[tuple[float, float, str | None, str]] = []
    cuts = {0.0, length}
    woods_polys: list[Polygon] = []
    for n in index.outline_tree.query(seg).tolist():
        kind = index.kinds[n]
        outline = index.outlines[n]
        fid = index.features[n]
        if kind is K.IMPASSABLE:
            grown, core = _grown_impassable(index, n, radius)
            if seg.intersects(core):
                inside = shapely.get_coordinates(seg.intersection(grown))
                # a move of no length meeting the rock has no crossing: it is there already
                d = min((seg.project(Point(c)) for c in inside), default=0.0)
                events.append((d, math.inf, "impassable", fid))
        elif ignore_terrain and not (walls and kind is K.BUILDING):
            continue
        elif kind in (K.WOODS, K.WOODED_HILL):
            if seg.intersects(outline):
                woods_polys.append(outline)
                # the edges of its clearings too: each piece is costed at its middle, so
                # a piece running from the woods into a clearing took one rate for both
                # (7.4: woods halve movement, a clearing does not)
                for p in _points(seg.intersection(outline.boundary)):
                    cuts.add(seg.project(p))
        elif kind is K.BUILDING:
            for p in _points(seg.intersection(outline.exterior)):
                d = seg.project(p)
                feat = index.features[n]
                cost: float = math.inf
                forbidden: str | None = "wall"
                for _k, okind, oseg in index.building_openings.get(n, []):
                    if oseg.distance(p) <= GRAZE:
                        cost, forbidden = 0.0 if ignore_terrain else OPENING_COST[okind], None
                        break
                events.append((d, cost, forbidden, feat))
    cuts.update(min(max(e[0], 0.0), length) for e in events)
    ordered = sorted(cuts)
    pieces: list[_Piece] = []
    for s, e in itertools.pairwise(ordered):
        if e - s <= 1e-12:
            continue
        mid = seg.interpolate((s + e) / 2)
        in_woods = any(w.contains(mid) for w in woods_polys)
        pieces.append(_Piece(s, e, WOODS_FACTOR if in_woods else 1.0))
    events.sort()
    return pieces, events


def leaves_table(battlefield: Battlefield, p: Point2, q: Point2, radius: float) -> float | None:
    """How far along the segment p-q a base of ``radius`` first leaves the table, or
    None if it stays on it (bases stay wholly on the table; leaving by an edge is an
    action of its own).  A base that already hangs over an edge may move along or
    back, not further out."""
    table = battlefield.table
    (x0, y0), (x1, y1) = p, q
    # a base already over an edge may move, but not further out
    lo_x, hi_x = min(radius, x0) - 1e-9, max(table.width - radius, x0) + 1e-9
    lo_y, hi_y = min(radius, y0) - 1e-9, max(table.height - radius, y0) + 1e-9
    length = math.hypot(x1 - x0, y1 - y0)
    if lo_x <= x1 <= hi_x and lo_y <= y1 <= hi_y:
        return None
    t_out = 1.0
    for start, delta, lo, hi in ((x0, x1 - x0, lo_x, hi_x), (y0, y1 - y0, lo_y, hi_y)):
        if delta > 0:
            t_out = min(t_out, (hi - start) / delta)
        elif delta < 0:
            t_out = min(t_out, (lo - start) / delta)
    return max(0.0, t_out) * length


def _with_edge(
    events: list[tuple[float, float, str | None, str]],
    battlefield: Battlefield,
    p: Point2,
    q: Point2,
    radius: float,
) -> list[tuple[float, float, str | None, str]]:
    """The segment's crossings plus, where the base would leave the table, an edge."""
    d = leaves_table(battlefield, p, q, radius)
    if d is None:
        return events
    return sorted([*events, (d, math.inf, "edge", "")])


def _cut(pieces: list[_Piece], at: list[float]) -> list[_Piece]:
    """Split the rate pieces at these distances (so a walk stops exactly there)."""
    for d in at:
        out: list[_Piece] = []
        for pc in pieces:
            if pc.start < d < pc.end:
                out += [_Piece(pc.start, d, pc.rate), _Piece(d, pc.end, pc.rate)]
            else:
                out.append(pc)
        pieces = out
    return pieces


def _start_walls(index: TerrainIndex, path: Sequence[Point2]) -> set[str]:
    """:func:`_walls_at` for a path's start, towards its next point."""
    if not path:
        return set()
    return _walls_at(index, path[0], path[1] if len(path) > 1 else None)


def _walls_at(
    index: TerrainIndex, spot: Sequence[float], towards: Sequence[float] | None = None
) -> set[str]:
    """The buildings whose wall a figure's centre stands on (within GRAZE) and which the
    move towards ``towards`` steps off without crossing (issue 31: a figure pushed
    against a wall, by Duck Back or a knockdown, is never stuck for standing where it
    was put).

    A centre exactly on the wall's line steps off either way; one a hair off it has a
    side, and leaves on that side only: a move stopped by a wall ends a hair short of
    it, and the next move went on through it, no door paid (7.4, 8.2; kept games)."""
    x, y = float(spot[0]), float(spot[1])
    here = Point(x, y)
    out: set[str] = set()
    # the box round the GRAZE disc (a disc's bounds, without building the disc)
    near = shapely.box(x - GRAZE, y - GRAZE, x + GRAZE, y + GRAZE)
    for n in index.outline_tree.query(near).tolist():
        if index.kinds[n] is not K.BUILDING:
            continue
        outline = index.outlines[n]
        off = outline.exterior.distance(here)
        if off > GRAZE:
            continue
        if towards is not None and off > 1e-9:
            dx, dy = float(towards[0]) - x, float(towards[1]) - y
            step = math.hypot(dx, dy)
            if step > 0:
                # a little way along the move (past the wall if it goes through)
                k = min(4 * GRAZE, step) / step
                probe = Point(x + dx * k, y + dy * k)
                if outline.contains(probe) != outline.contains(here):
                    continue  # through the wall, not off it
        out.add(index.features[n])
    return out


def _off_the_wall(
    events: list[tuple[float, float, str | None, str]], walls: set[str]
) -> list[tuple[float, float, str | None, str]]:
    """A move that starts with the centre on a wall (:func:`_walls_at`) steps off it: the
    wall "crossed" where it stands is not a crossing (an opening there is still paid)."""
    if not walls:
        return events
    return [e for e in events if not (e[0] <= GRAZE and e[2] == "wall" and e[3] in walls)]


def _one_crossing(
    events: list[tuple[float, float, str | None, str]], on_wall: set[str], length: float
) -> tuple[list[tuple[float, float, str | None, str]], set[str]]:
    """A path whose corner lies on a door or wall crosses it once, not once per segment.

    Drops a crossing at the very start of a segment when the previous segment
    ended on that building's outline; returns the buildings this segment ends on.
    """
    kept = [e for e in events if not (e[0] <= GRAZE and e[3] in on_wall and e[2] != "impassable")]
    ends = {e[3] for e in kept if e[0] >= length - GRAZE and e[2] != "impassable"}
    return kept, ends


def _points(geom: BaseGeometry) -> list[Point]:
    if geom.is_empty:
        return []
    if isinstance(geom, Point):
        return [geom]
    if isinstance(geom, MultiPoint):
        return list(geom.geoms)
    # a segment running along an outline: take its end points
    return [Point(c) for c in shapely.get_coordinates(geom)]


def path_cost(
    battlefield: Battlefield,
    path: Sequence[Point2],
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    ignore_terrain: bool = False,
    radius: float = 0.0,
    walls: bool = False,
) -> PathCost:
    """What moving along ``path`` (a polyline of the figure's centre) costs (7.4, 8.2).

    ``ignore_terrain``: nothing slows the base, only impassable ground (and, with
    ``walls``, a building's walls away from its doors and windows) stops it -- a PEF's
    move (11.2: PEFs ignore terrain's movement penalties, not its barriers).

    A straight move's answer is remembered on the terrain index (it depends on the
    terrain and the table's edge only): the controller asks it again and again for
    figures that have not moved (can it still reach the edge? is this spot reachable?)."""
    memo: dict[tuple[object, ...], PathCost] | None = None
    key: tuple[object, ...] = ()
    if index is not None and len(path) == 2:
        found = index.cache.get("path_costs")
        if not isinstance(found, dict) or len(found) > PATH_COST_MEMO:
            found = {}
            index.cache["path_costs"] = found
        memo = found
        table = battlefield.table
        (px, py), (qx, qy) = path
        key = (px, py, qx, qy, ignore_terrain, walls, radius, table.width, table.height)
        known = memo.get(key)
        if known is not None:
            return known
    cost = _path_cost(battlefield, path, rules, index, ignore_terrain, radius, walls)
    if memo is not None:
        memo[key] = cost
    return cost


PATH_COST_MEMO = 20_000
"""Straight moves remembered per terrain index."""


def _path_cost(
    battlefield: Battlefield,
    path: Sequence[Point2],
    rules: RulesOptions,
    index: TerrainIndex | None,
    ignore_terrain: bool,
    radius: float,
    walls: bool = False,
) -> PathCost:
    index = index or build_index(battlefield, rules, raster=False)
    total = 0.0
    length = 0.0
    on_wall: set[str] = set()
    start_walls = _start_walls(index, path)
    for p, q in itertools.pairwise(path):
        seg = LineString([p, q])
        pieces, events = _segment_events(index, seg, ignore_terrain, radius, walls)
        events, start_walls = _off_the_wall(events, start_walls), set()
        events, on_wall = _one_crossing(events, on_wall, seg.length)
        events = _with_edge(events, battlefield, p, q, radius)
        for d, cost, forbidden, fid in events:
            if forbidden is not None:
                return PathCost(math.inf, length + d, forbidden, fid)
            total += cost
        total += sum((pc.end - pc.start) * pc.rate for pc in pieces)
        length += seg.length
    return PathCost(total, length)


@dataclass(frozen=True, slots=True)
class Reach:
    """How far a figure gets along a path with the movement it has."""

    point: Point2
    cost: float
    stopped_by: str | None = None
    """None when the whole allowance (or the path) was used; else what stopped it."""
    feature_id: str | None = None


def farthest_along(
    battlefield: Battlefield,
    path: Sequence[Point2],
    allowance: float,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    ignore_terrain: bool = False,
    radius: float = 0.0,
    walls: bool = False,
) -> Reach:
    """The farthest point along ``path`` the figure reaches with ``allowance`` inches (7.4).

    It stops before an opening it cannot pay for, and before impassable ground
    or a wall (``ignore_terrain`` and ``walls`` as for :func:`path_cost`).
    """
    index = index or build_index(battlefield, rules, raster=False)
    left = allowance
    here: Point2 = tuple(path[0])  # type: ignore[assignment]
    on_wall: set[str] = set()
    start_walls = _start_walls(index, path)
    for p, q in itertools.pairwise(path):
        seg = LineString([p, q])
        pieces, events = _segment_events(index, seg, ignore_terrain, radius, walls)
        events, start_walls = _off_the_wall(events, start_walls), set()
        events, on_wall = _one_crossing(events, on_wall, seg.length)
        reach, left = _walk_segment(battlefield, seg, p, q, radius, pieces, events, left, allowance)
        if reach is not None:
            return reach
        here = (float(q[0]), float(q[1]))
    return Reach(here, allowance - left, None)


def _walk_segment(
    battlefield: Battlefield,
    seg: LineString,
    p: Point2,
    q: Point2,
    radius: float,
    pieces: list[_Piece],
    events: list[tuple[float, float, str | None, str]],
    left: float,
    allowance: float,
) -> tuple[Reach | None, float]:
    """Walk one segment of a path with ``left`` inches of movement: where it stops (or
    None when the whole segment was paid for) and the movement still left."""
    events = _with_edge(events, battlefield, p, q, radius)
    pieces = _cut(pieces, [e[0] for e in events if e[2] == "edge"])
    # walk the segment in order; at the same spot pay a crossing before moving on
    marks: list[tuple[float, int, _Piece | None, tuple[float, float, str | None, str]]] = [
        (pc.start, 1, pc, (0.0, 0.0, None, "")) for pc in pieces
    ] + [(e[0], 0, None, e) for e in events]
    marks.sort(key=lambda t: (t[0], t[1]))
    for _at, _order, piece, (d, cost, forbidden, fid) in marks:
        if piece is None:
            if forbidden is not None:
                pt = seg.interpolate(max(d - GRAZE, 0.0))
                return Reach((pt.x, pt.y), allowance - left, forbidden, fid), left
            if cost > left:
                pt = seg.interpolate(max(d - GRAZE, 0.0))
                return Reach((pt.x, pt.y), allowance - left, "allowance", fid), left
            left -= cost
            continue
        need = (piece.end - piece.start) * piece.rate
        if need >= left:
            pt = seg.interpolate(piece.start + left / piece.rate)
            return Reach((pt.x, pt.y), allowance, None), left
        left -= need
    return None, left


def rays_reach(
    battlefield: Battlefield,
    origin: Point2,
    ends: Sequence[Point2],
    allowance: float,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    radius: float = 0.0,
) -> list[Reach]:
    """:func:`farthest_along` for many straight moves out of one spot (``origin`` to
    each of ``ends``), the same answers, with the terrain of all of them found in
    bulk: the AI's spot search sends 32 rays from each figure it plans for."""
    index = index or build_index(battlefield, rules, raster=False)
    if not len(ends):
        return []
    lines = shapely.linestrings([[origin, e] for e in ends])
    if los.compiled_route():
        return _rays_reach_compiled(battlefield, index, origin, ends, lines, allowance, radius)
    return _rays_reach_walked(battlefield, index, origin, ends, lines, allowance, radius)


def _rays_reach_walked(
    battlefield: Battlefield,
    index: TerrainIndex,
    origin: Point2,
    ends: Sequence[Point2],
    lines: npt.NDArray[Any],
    allowance: float,
    radius: float,
) -> list[Reach]:
    """:func:`rays_reach` by GEOS: each ray's events found in bulk, then walked."""
    out: list[Reach] = []
    for k, (pieces, events) in enumerate(_rays_events(index, lines, radius)):
        seg = lines[k]
        q = ends[k]
        events, _ = _one_crossing(events, set(), float(shapely.length(seg)))
        reach, left = _walk_segment(
            battlefield, seg, origin, q, radius, pieces, events, allowance, allowance
        )
        if reach is None:
            reach = Reach((float(q[0]), float(q[1])), allowance - left, None)
        out.append(reach)
    return out


_STOPPED_BY: tuple[str | None, ...] = (None, "wall", "impassable", "edge", "allowance")
"""Reach.stopped_by for the kernels' STOP_* codes."""


def exercise_kernels() -> None:
    """Walk two rays through the compiled ray kernel on a small table with a wood, so
    the AIs' straight moves never wait for a compile
    (:func:`crdesk.geometry.warmup.warm_up` runs this after the sight kernels')."""
    bf = los.sample_battlefield()
    index = build_index(bf, RulesOptions())
    ends = [(9.0, 9.0), (2.0, 11.0)]
    rays = shapely.linestrings([[(2.0, 2.0), e] for e in ends])
    _rays_reach_compiled(bf, index, (2.0, 2.0), ends, rays, 6.0, 0.5)


def _rays_reach_compiled(
    battlefield: Battlefield,
    index: TerrainIndex,
    origin: Point2,
    ends: Sequence[Point2],
    lines: npt.NDArray[Any],
    allowance: float,
    radius: float,
) -> list[Reach]:
    """:func:`rays_reach` by :func:`kernels.ray_walks`: the same walk in compiled code,
    the crossings found edge by edge (the spot searches of both AIs send thousands of
    rays a game, and GEOS costs some 30 µs a ray).  A ray the kernel cannot settle --
    a touch, a tie, a value within a hair of a limit -- is walked by GEOS; the rest
    agree with GEOS to within rounding (1e-9"), and the AI rounds its spots to 0.001".
    """
    n = len(ends)
    ray_ix, feat_ix = index.outline_tree.query(lines)
    order = np.argsort(ray_ix, kind="stable")
    pair_feat = np.ascontiguousarray(feat_ix[order], dtype=np.int64)
    pair_start = np.searchsorted(ray_ix[order], np.arange(n + 1)).astype(np.int64)
    kind, rings, grown, core, openings = _ray_tables(index, radius)
    end_xy = np.ascontiguousarray(np.array(ends, dtype=np.float64).reshape(-1, 2))
    lengths = np.ascontiguousarray(shapely.length(lines), dtype=np.float64)
    table = battlefield.table
    sizes = np.array([table.width, table.height, radius], dtype=np.float64)
    status = np.empty(n, dtype=np.int64)
    stop_d = np.empty(n, dtype=np.float64)
    cost = np.empty(n, dtype=np.float64)
    code = np.empty(n, dtype=np.int64)
    feat = np.empty(n, dtype=np.int64)
    kernels.ray_walks(
        float(origin[0]),
        float(origin[1]),
        end_xy,
        lengths,
        float(allowance),
        pair_start,
        pair_feat,
        kind,
        rings,
        grown,
        core,
        openings,
        sizes,
        GRAZE,
        WOODS_FACTOR,
        RAY_TOLERANCE,
        status,
        stop_d,
        cost,
        code,
        feat,
    )
    out: list[Reach | None] = [None] * n
    short = np.flatnonzero(status == 1)
    if len(short):
        points = shapely.get_coordinates(
            shapely.line_interpolate_point(lines[short], stop_d[short])
        )
        for k, (x, y) in zip(short.tolist(), points.tolist(), strict=True):
            f = int(feat[k])
            stopped = _STOPPED_BY[int(code[k])]
            fid = "" if stopped == "edge" else (index.features[f] if f >= 0 else None)
            out[k] = Reach((x, y), float(cost[k]), stopped, fid)
    for k in np.flatnonzero(status == 2).tolist():
        q = ends[k]
        out[k] = Reach((float(q[0]), float(q[1])), float(cost[k]), None)
    doubt = np.flatnonzero(status == 0)
    if len(doubt):
        walked = _rays_reach_walked(
            battlefield,
            index,
            origin,
            [ends[k] for k in doubt.tolist()],
            lines[doubt],
            allowance,
            radius,
        )
        for k, reach in zip(doubt.tolist(), walked, strict=True):
            out[k] = reach
    return out  # type: ignore[return-value]


RAY_TOLERANCE = 1e-9
"""Inches: a distance this close to a limit or another crossing is left to GEOS."""


def _ray_tables(index: TerrainIndex, radius: float) -> tuple[Any, ...]:
    """The terrain of :func:`kernels.ray_walks` for bases of ``radius``, made once per
    terrain index: each feature's kind, the rings of woods and buildings, impassable
    ground grown by the base and its core (less the graze margin), and the buildings'
    openings."""
    cache = index.cache.setdefault("ray_tables", {})
    assert isinstance(cache, dict)
    got = cache.get(radius)
    if got is not None:
        return got  # type: ignore[no-any-return]
    n = len(index.features)
    kind = np.zeros(n, dtype=np.int64)
    rings: list[BaseGeometry | None] = [None] * n
    grown: list[BaseGeometry | None] = [None] * n
    core: list[BaseGeometry | None] = [None] * n
    o_geoms: list[BaseGeometry] = []
    o_cost: list[float] = []
    b_first = np.zeros(n, dtype=np.int64)
    b_count = np.zeros(n, dtype=np.int64)
    for f in range(n):
        what = index.kinds[f]
        outline = index.outlines[f]
        if what is K.IMPASSABLE:
            kind[f] = kernels.R_IMPASSABLE
            grown[f], core[f] = _grown_impassable(index, f, radius)
        elif what in (K.WOODS, K.WOODED_HILL, K.BUILDING):
            kind[f] = kernels.R_BUILDING if what is K.BUILDING else kernels.R_WOODS
            rings[f] = outline
        if what is K.BUILDING:
            found = index.building_openings.get(f, [])
            b_first[f] = len(o_geoms)
            b_count[f] = len(found)
            for _k, okind, oseg in found:
                o_geoms.append(oseg)
                o_cost.append(OPENING_COST[okind])

    def edges(geoms: Sequence[BaseGeometry | None]) -> tuple[Floats, Ints, Ints, Ints]:
        """Edges, first edge, edge count, and how many of them are the exterior's (the
        boundary lists the exterior ring first)."""
        _box, seg, start, count = los.edge_table(geoms)
        ext = [
            len(g.exterior.coords) - 1 if isinstance(g, Polygon) and not g.is_empty else 0
            for g in geoms
        ]
        return (
            np.ascontiguousarray(seg, dtype=np.float64).reshape(-1, 4),
            np.ascontiguousarray(start, dtype=np.int64),
            np.ascontiguousarray(count, dtype=np.int64),
            np.array(ext, dtype=np.int64),
        )

    o_seg, o_start, o_count, _ext = edges(o_geoms)
    got = cache[radius] = (
        kind,
        edges(rings),
        edges(grown),
        edges(core),
        (o_seg, o_start, o_count, np.array(o_cost, dtype=np.float64), b_first, b_count),
    )
    return got


def _rays_events(
    index: TerrainIndex, lines: npt.NDArray[Any], radius: float
) -> list[tuple[list[_Piece], list[tuple[float, float, str | None, str]]]]:
    """:func:`_segment_events` for many segments, its geometry tests made in bulk."""
    n_rays = len(lines)
    lengths = shapely.length(lines).tolist()
    events: list[list[tuple[float, float, str | None, str]]] = [[] for _ in range(n_rays)]
    cuts: list[set[float]] = [{0.0, lengths[k]} for k in range(n_rays)]
    woods: list[list[Polygon]] = [[] for _ in range(n_rays)]
    ray_ix, feat_ix = index.outline_tree.query(lines)
    kinds = [index.kinds[n] for n in feat_ix.tolist()]

    def crossings(pairs: list[int], shapes: list[BaseGeometry]) -> list[list[tuple[float, Any]]]:
        """For each pair, the points where its ray meets the shape (``_points`` of the
        intersection) with their distances along the ray."""
        if not pairs:
            return []
        rays = lines[ray_ix[pairs]]
        inter = shapely.intersection(rays, np.array(shapes, dtype=object))
        coords, which = shapely.get_coordinates(inter, return_index=True)
        out: list[list[tuple[float, Any]]] = [[] for _ in pairs]
        if len(coords):
            pts = shapely.points(coords)
            d = shapely.line_locate_point(rays[which], pts).tolist()
            for w, dist, pt in zip(which.tolist(), d, pts.tolist(), strict=True):
                out[w].append((dist, pt))
        return out

    # impassable ground: stops the base where its grown outline is first met
    imp = [j for j, kind in enumerate(kinds) if kind is K.IMPASSABLE]
    if imp:
        grown = [_grown_impassable(index, int(feat_ix[j]), radius) for j in imp]
        touch = shapely.intersects(lines[ray_ix[imp]], np.array([g[1] for g in grown], object))
        hit = [j for j, t in zip(imp, touch.tolist(), strict=True) if t]
        shapes = [g[0] for g, t in zip(grown, touch.tolist(), strict=True) if t]
        for j, ds in zip(hit, crossings(hit, shapes), strict=True):
            n = int(feat_ix[j])
            d = min(c[0] for c in ds)
            events[int(ray_ix[j])].append((d, math.inf, "impassable", index.features[n]))
    # woods: cut the ray where it crosses the edge; the pieces inside cost double
    wood = [j for j, kind in enumerate(kinds) if kind in (K.WOODS, K.WOODED_HILL)]
    if wood:
        outlines = np.array([index.outlines[int(feat_ix[j])] for j in wood], dtype=object)
        touch = shapely.intersects(lines[ray_ix[wood]], outlines).tolist()
        hit = [j for j, t in zip(wood, touch, strict=True) if t]
        for j in hit:
            woods[int(ray_ix[j])].append(index.outlines[int(feat_ix[j])])
        # the edges of its clearings too (see _segment_events)
        shapes = [index.outlines[int(feat_ix[j])].boundary for j in hit]
        for j, ds in zip(hit, crossings(hit, shapes), strict=True):
            cuts[int(ray_ix[j])].update(c[0] for c in ds)
    # buildings: each crossing of the outline is an opening paid for, or a wall
    house = [j for j, kind in enumerate(kinds) if kind is K.BUILDING]
    if house:
        shapes = [index.outlines[int(feat_ix[j])].exterior for j in house]
        for j, ds in zip(house, crossings(house, shapes), strict=True):
            n = int(feat_ix[j])
            for d, p in ds:
                cost: float = math.inf
                forbidden: str | None = "wall"
                for _k, okind, oseg in index.building_openings.get(n, []):
                    if oseg.distance(p) <= GRAZE:
                        cost, forbidden = OPENING_COST[okind], None
                        break
                events[int(ray_ix[j])].append((d, cost, forbidden, index.features[n]))
    out: list[tuple[list[_Piece], list[tuple[float, float, str | None, str]]]] = []
    for k in range(n_rays):
        length = lengths[k]
        cuts[k].update(min(max(e[0], 0.0), length) for e in events[k])
        ordered = sorted(cuts[k])
        pieces: list[_Piece] = []
        for s, e in itertools.pairwise(ordered):
            if e - s <= 1e-12:
                continue
            in_woods = False
            if woods[k]:
                mid = lines[k].interpolate((s + e) / 2)
                in_woods = any(w.contains(mid) for w in woods[k])
            pieces.append(_Piece(s, e, WOODS_FACTOR if in_woods else 1.0))
        events[k].sort()
        out.append((pieces, events[k]))
    return out


def _blockers(index: TerrainIndex, radius: float) -> list[Polygon]:
    """Impassable ground and buildings grown by the base radius (paths go around them)."""
    out: list[Polygon] = []
    for n, kind in enumerate(index.kinds):
        if kind in (K.IMPASSABLE, K.BUILDING):
            grown = index.outlines[n].buffer(radius + GRAZE, join_style="mitre")
            out.append(grown)
    return out


def shortest_path(
    battlefield: Battlefield,
    start: Point2,
    goal: Point2,
    rules: RulesOptions,
    *,
    radius: float = 0.5,
    index: TerrainIndex | None = None,
    margin: float = 8.0,
) -> list[Point2] | None:
    """The shortest path around impassable ground and buildings (a visibility graph).

    Nodes are the corners of the obstacles (grown by the base radius, so the
    base never overlaps them) near the start and goal, plus the two ends;
    edges join nodes that see each other past the obstacles; networkx finds
    the shortest route, weighted by movement cost (woods count double).
    Returns None if the goal is inside an obstacle or cannot be reached.
    """
    index = index or build_index(battlefield, rules, raster=False)
    window = LineString([start, goal]).buffer(margin)
    polys = [p for p in _blockers(index, radius) if p.intersects(window)]
    union = shapely.union_all(polys) if polys else Polygon()
    inner = union.buffer(-GRAZE / 2, join_style="mitre") if polys else Polygon()
    shapely.prepare(inner)
    if inner.contains(Point(goal)):
        return None
    nodes: list[Point2] = [tuple(start), tuple(goal)]  # type: ignore[list-item]
    for part in getattr(union, "geoms", [union]):
        if isinstance(part, Polygon) and not part.is_empty:
            nodes.extend((float(x), float(y)) for x, y in part.exterior.coords[:-1])
            for ring in part.interiors:
                nodes.extend((float(x), float(y)) for x, y in ring.coords[:-1])
    pts = np.array(nodes)
    ii, jj = np.triu_indices(len(pts), 1)
    segs = shapely.linestrings(np.stack([pts[ii], pts[jj]], axis=1))
    ok = ~shapely.intersects(segs, inner) if not inner.is_empty else np.ones(len(ii), bool)
    lengths = np.hypot(*(pts[jj] - pts[ii]).T)
    woods = [index.outlines[n] for n, k in enumerate(index.kinds) if k in (K.WOODS, K.WOODED_HILL)]
    extra = np.zeros(len(ii))
    if woods:
        wu = shapely.union_all(woods)
        sel = np.flatnonzero(ok)
        extra[sel] = shapely.length(shapely.intersection(segs[sel], wu)) * (WOODS_FACTOR - 1)
    g = nx.Graph()
    g.add_nodes_from(range(len(pts)))
    for i, j, w in zip(ii[ok], jj[ok], (lengths + extra)[ok], strict=True):
        g.add_edge(int(i), int(j), weight=float(w))
    try:
        route = nx.shortest_path(g, 0, 1, weight="weight")
    except nx.NetworkXNoPath:
        return None
    return [(float(pts[k][0]), float(pts[k][1])) for k in route]


def reachable_area(
    battlefield: Battlefield,
    figure: Figure,
    allowance: float,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    rays: int = 72,
    ignore_terrain: bool = False,
) -> Polygon:
    """The outline of where the figure's centre can get in one straight move (for the GUI).

    Rays in ``rays`` directions are walked with :func:`farthest_along`; the
    polygon of their ends, less impassable ground grown by the base radius,
    is returned.  Moves around obstacles are not included (the book measures
    a move as straight runs; use :func:`shortest_path` for detours).
    """
    index = index or build_index(battlefield, rules, raster=False)
    ends: list[Point2] = []
    for k in range(rays):
        ang = 2 * math.pi * k / rays
        far = (figure.x + allowance * math.sin(ang), figure.y - allowance * math.cos(ang))
        reach = farthest_along(
            battlefield,
            [(figure.x, figure.y), far],
            allowance,
            rules,
            index=index,
            ignore_terrain=ignore_terrain,
            radius=figure.radius,
        )
        ends.append(reach.point)
    area = Polygon(ends).buffer(0)
    grown = _obstacles(index, figure.radius)
    if grown is not None:
        area = area.difference(grown)
    area = area.intersection(battlefield.table.bounds)
    if not isinstance(area, Polygon):
        parts = [g for g in getattr(area, "geoms", []) if isinstance(g, Polygon)]
        here = Point(figure.x, figure.y)
        area = next(
            (p for p in parts if p.intersects(here)),
            max(parts, key=lambda p: p.area, default=Polygon()),
        )
    return area


@dataclass(frozen=True, slots=True)
class DuckBack:
    """Where a figure ducks back to (7.4.4), or that it drops prone in place."""

    point: Point2
    distance: float
    prone_in_place: bool
    reason: str
    """What makes the spot Cover: ``"cover"`` (in Cover, still seen) or ``"hidden"``."""


DUCK_BACK_KNOWN = 4096
"""Duck Backs remembered per terrain index (:func:`nearest_cover`)."""

_HIDDEN = {
    CODE[r]
    for r in (
        Reason.WOODS,
        Reason.WOODS_DEEP,
        Reason.BUILDING,
        Reason.BUILDING_INTERIOR,
        Reason.BUILDING_WALL,
        Reason.IMPASSABLE,
        Reason.HILL,
    )
}
_HIDDEN_CODES = np.array(sorted(_HIDDEN), dtype=np.int8)


DUCK_BACK_BATCHES = (1, 64, 512)
"""How many spots (nearest first) Duck Back judges by the end of each batch; then the rest."""


def _duck_offsets(max_distance: float, spacing: float) -> tuple[Floats, Floats]:
    """The grid of Duck Back spots around the figure: (0, 0) first, then the grid points
    within ``max_distance``, row by row (cached per distance and spacing)."""
    key = (max_distance, spacing)
    cached = _OFFSETS.get(key)
    if cached is None:
        ax = np.arange(-max_distance, max_distance + 1e-9, spacing)
        gx, gy = np.meshgrid(ax, ax)
        keep = np.hypot(gx, gy) <= max_distance
        cached = (np.concatenate([[0.0], gx[keep]]), np.concatenate([[0.0], gy[keep]]))
        if len(_OFFSETS) > 16:
            _OFFSETS.clear()
        _OFFSETS[key] = cached
    return cached


_OFFSETS: dict[tuple[float, float], tuple[Floats, Floats]] = {}


def _duck_solids(
    index: TerrainIndex, radius: float
) -> tuple[BaseGeometry | None, BaseGeometry | None]:
    """Impassable ground, and the walls and vehicles, grown by the base radius: where a
    base's centre may not stand (kept on the index per radius)."""
    key = f"duck-solids-{radius!r}"
    cached = index.cache.get(key)
    if cached is None:
        solid = [index.outlines[n] for n in index.obstacle_ids]
        walls_grown = None
        if solid:
            walls_grown = shapely.union_all(solid).buffer(max(radius - GRAZE, 0.0), quad_segs=4)
            shapely.prepare(walls_grown)
        cached = (_obstacles(index, radius), walls_grown)
        index.cache[key] = cached
    return cached  # type: ignore[return-value]


_REACH_CHUNKS = (2, 16, 128, 1 << 30)
"""How many good spots (nearest first) are tried at a time for a straight way there."""


def _duck_reach(index: TerrainIndex, radius: float, features: Ints) -> Any:
    """Impassable ground ``features`` grown by the base radius and eroded by GRAZE: what
    :func:`path_cost` forbids a segment to meet (kept on the index per radius, each built
    on first use)."""
    key = f"duck-reach-{radius!r}"
    cached = index.cache.get(key)
    if not isinstance(cached, np.ndarray):
        cached = np.full(len(index.features), None, dtype=object)
        index.cache[key] = cached
    for n in np.unique(features).tolist():
        if cached[n] is None:
            grown = index.outlines[n].buffer(max(radius - GRAZE, 0.0), quad_segs=4)
            cached[n] = grown.buffer(-GRAZE)
    return cached[features]


def _duck_walls(index: TerrainIndex) -> tuple[Any, Bools, Bools, Ints, Ints, Any]:
    """For :func:`_reachable` (cached): each feature's outline ring, whether it is
    impassable, whether it is a building, and each building's openings (first, count,
    segments)."""
    cached = index.cache.get("duck-walls")
    if cached is None:
        f = len(index.features)
        rings = shapely.get_exterior_ring(index.outline_array)
        impassable = np.array([k is K.IMPASSABLE for k in index.kinds], dtype=bool)
        building = np.array([k is K.BUILDING for k in index.kinds], dtype=bool)
        first = np.zeros(f, dtype=np.int64)
        count = np.zeros(f, dtype=np.int64)
        segs: list[LineString] = []
        for n in range(f):
            ops = index.building_openings.get(n, []) if building[n] else []
            first[n], count[n] = len(segs), len(ops)
            segs.extend(o for _k, _o, o in ops)
        seg_arr = np.empty(len(segs), dtype=object)
        seg_arr[:] = segs
        cached = (rings, impassable, building, first, count, seg_arr)
        index.cache["duck-walls"] = cached
    return cached  # type: ignore[return-value]


def _reachable(
    index: TerrainIndex, x0: float, y0: float, xs: Floats, ys: Floats, radius: float
) -> Bools:
    """Whether the straight move from (x0, y0) to each spot is allowed: :func:`path_cost`
    with ``ignore_terrain`` (no impassable ground), and every crossing of a building's
    outline at a door or window (8.2), vectorised."""
    m = len(xs)
    coords = np.empty((m, 2, 2), dtype=np.float64)
    coords[:, 0, 0], coords[:, 0, 1] = x0, y0
    coords[:, 1, 0], coords[:, 1, 1] = xs, ys
    segs = shapely.linestrings(coords)
    ok = np.ones(m, dtype=bool)
    si, fi = index.outline_tree.query(segs)
    if not len(si):
        return ok
    rings, impassable, building, first, count, openings = _duck_walls(index)
    imp = impassable[fi]
    if imp.any():
        hit = shapely.intersects(segs[si[imp]], _duck_reach(index, radius, fi[imp]))
        ok[si[imp][hit]] = False
    wall = building[fi] & ok[si]
    if wall.any():
        ws, wf = si[wall], fi[wall]
        # where each segment crosses the building's outline; each crossing must be at
        # a door or window
        pts, at = shapely.get_coordinates(
            shapely.intersection(segs[ws], rings[wf]), return_index=True
        )
        if len(pts):
            pb = wf[at]
            cnt = count[pb]
            of = np.repeat(np.arange(len(pts)), cnt)
            op = first[pb][of] + np.arange(len(of)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            near = np.zeros(len(pts), dtype=bool)
            if len(of):
                d = shapely.distance(openings[op], shapely.points(pts[of]))
                np.logical_or.at(near, of, d <= GRAZE)
            ok[ws[at[~near]]] = False
    return ok


def _locate_spots(
    index: TerrainIndex, xs: Floats, ys: Floats, radii: Floats, rules: RulesOptions
) -> list[Place]:
    """:func:`locate_many`, called only for the spots with a feature within its reach (the
    others are nowhere): most Duck Back spots on open ground cost nothing then."""
    n = len(xs)
    if not n or not index.features:
        return locate_many(index, xs, ys, radii, rules)
    reach = locate_reach(radii, rules)
    hits, _f = index.outline_tree.query(shapely.points(xs, ys), predicate="dwithin", distance=reach)
    near = np.unique(hits)
    if len(near) * 4 >= n * 3:
        return locate_many(index, xs, ys, radii, rules, reach=reach)
    out = [NOWHERE] * n
    found = locate_many(index, xs[near], ys[near], radii[near], rules, reach=reach)
    for k, place in zip(near.tolist(), found, strict=True):
        out[k] = place
    return out


_CALM_INDEXES: weakref.WeakKeyDictionary[
    Battlefield, tuple[tuple[int, Interpretations], TerrainIndex]
] = weakref.WeakKeyDictionary()
"""Per battlefield, the terrain index Duck Back builds when it is given none (night, bad
weather), with the terrain revision and interpretations it was built for."""


def _calm_index(battlefield: Battlefield, calm: RulesOptions) -> TerrainIndex:
    """``build_index(battlefield, calm, raster=False)``, kept until the terrain changes."""
    key = (battlefield.terrain_revision, calm.interpretations)
    kept = _CALM_INDEXES.get(battlefield)
    if kept is not None and kept[0] == key:
        return kept[1]
    index = build_index(battlefield, calm, raster=False)
    _CALM_INDEXES[battlefield] = (key, index)
    return index


def nearest_cover(
    battlefield: Battlefield,
    figure: Figure,
    threat: Point2,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    max_distance: float = DUCK_BACK_DISTANCE,
    spacing: float = 0.25,
) -> DuckBack:
    """The nearest reachable spot within 6" in Cover from the threat (7.4.4 Interpretation).

    A spot counts when, seen from the threat, the figure standing there
    (stationary) is in Cover, or terrain hides it entirely (a figure that
    ducked back into Cover "can neither see nor be seen").  Facing, night and
    other figures do not make Cover.  Building interiors count unless the
    ``duck_back_interiors_count`` option is off.  Without such a spot the
    figure drops prone in place.

    Spots lie on a ``spacing`` grid; the figure's own spot comes first, and ties
    of distance go in grid order.  They are judged nearest first, in batches
    (:data:`DUCK_BACK_BATCHES`), until one is good and can be reached -- the
    same answer as judging them all and taking the nearest good one.
    """
    calm = replace(rules, night=False, weather=Weather.CLEAR)
    index = index or _calm_index(battlefield, calm)
    # the answer depends on the terrain (the index's), the spot, the base, the threat
    # and the route sight is judged on: a game asks the same Duck Back again (a move
    # checked, then played; a decision shown, then taken), so it is remembered
    known = index.cache.setdefault("duck_back", {})
    assert isinstance(known, dict)
    key = (
        figure.x, figure.y, figure.radius, float(threat[0]), float(threat[1]),
        max_distance, spacing, calm, los.compiled_route(),
    )  # fmt: skip
    found = known.get(key)
    if isinstance(found, DuckBack):
        return found
    if len(known) > DUCK_BACK_KNOWN:
        known.clear()
    known[key] = found = _nearest_cover(
        battlefield, figure, threat, calm, index, max_distance, spacing
    )
    return found


def _nearest_cover(
    battlefield: Battlefield,
    figure: Figure,
    threat: Point2,
    calm: RulesOptions,
    index: TerrainIndex,
    max_distance: float,
    spacing: float,
) -> DuckBack:
    """:func:`nearest_cover`'s search itself (``calm``: the rules without night or weather)."""
    r = figure.radius
    ox, oy = _duck_offsets(max_distance, spacing)
    xs = ox + figure.x
    ys = oy + figure.y
    table = battlefield.table
    on = (xs >= r) & (xs <= table.width - r) & (ys >= r) & (ys <= table.height - r)
    on[0] = True
    # nearest first (a stable sort: ties in grid order); spots on rock or walls are
    # dropped batch by batch, which keeps the order of the others
    cand = np.flatnonzero(on)
    dist_all = np.hypot(xs[cand] - figure.x, ys[cand] - figure.y)
    rank = np.argsort(dist_all, kind="stable")
    order, dist_sorted = cand[rank], dist_all[rank]
    grown, walls_grown = _duck_solids(index, r)
    compiled = los.compiled_route()
    locate_all = los.locate_compiled if compiled else _locate_spots
    threat_place = locate_all(
        index, np.array([threat[0]], dtype=np.float64), np.array([threat[1]]), np.zeros(1), calm
    )[0]
    interiors = calm.interpretations.duck_back_interiors_count
    ends = [e for e in DUCK_BACK_BATCHES if e < len(order)] + [len(order)]
    begin = 0
    for end in ends:
        sel, dist = order[begin:end], dist_sorted[begin:end]
        begin = end
        sx, sy = xs[sel], ys[sel]
        ok = np.ones(len(sel), dtype=bool)
        if grown is not None:
            ok &= ~shapely.contains_xy(grown, sx, sy)
        # a base may not stand on a wall or in a vehicle
        if walls_grown is not None:
            ok &= (sel == 0) | ~shapely.contains_xy(walls_grown, sx, sy)
        if not ok.all():
            sx, sy, dist = sx[ok], sy[ok], dist[ok]
        n = len(sx)
        if not n:
            continue
        places = locate_all(index, sx, sy, np.full(n, r), calm)
        vp = Viewpoints(
            ids=["@threat", *[f"@{k}" for k in range(n)]],
            x=np.concatenate([[threat[0]], sx]),
            y=np.concatenate([[threat[1]], sy]),
            r=np.concatenate([[0.0], np.full(n, r)]),
            fx=np.zeros(n + 1),
            fy=np.zeros(n + 1),
            blocks=np.zeros(n + 1, dtype=bool),
            moving=np.zeros(n + 1, dtype=bool),
            lit=np.zeros(n + 1, dtype=bool),
            present=np.ones(n + 1, dtype=bool),
            places=[threat_place, *places],
        )
        res = evaluate(index, vp, np.zeros(n, dtype=np.int64), np.arange(1, n + 1), calm)
        hidden = np.isin(res.ab, _HIDDEN_CODES)
        good = hidden | ((res.ab == 0) & res.cover_ab)
        if not interiors:
            good &= np.array([p.building < 0 for p in places], dtype=bool)
        picks = np.flatnonzero(good)
        if not len(picks):
            continue
        if dist[picks[0]] == 0:
            k = int(picks[0])
            spot = (float(sx[k]), float(sy[k]))
            return DuckBack(spot, 0.0, False, "hidden" if hidden[k] else "cover")
        # the nearest good spot the figure can get to in a straight line (as
        # straight_way_open judges it), a few spots at a time
        start = 0
        for size in _REACH_CHUNKS:
            some = picks[start : start + size]
            start += size
            if not len(some):
                break
            ok = np.flatnonzero(_reachable(index, figure.x, figure.y, sx[some], sy[some], r))
            for j in ok.tolist():
                k = int(some[j])
                spot = (float(sx[k]), float(sy[k]))
                # a door costs 2", a window 4", active or inactive (8.2): the way in
                # must fit the Duck Back's 6"
                if dist[k] + opening_cost(index, (figure.x, figure.y), spot) > max_distance + 1e-9:
                    continue
                return DuckBack(spot, float(dist[k]), False, "hidden" if hidden[k] else "cover")
    return DuckBack((figure.x, figure.y), 0.0, True, "prone")


def opening_cost(index: TerrainIndex, start: Point2, end: Point2) -> float:
    """The doors (2") and windows (4") a straight way from ``start`` to ``end`` goes
    through (8.2: "active or inactive"): what a Duck Back or another involuntary move
    pays for them on top of its length."""
    line = LineString([start, end])
    total = 0.0
    for n, ops in index.building_openings.items():
        if not ops:
            continue
        ring = index.outlines[n].exterior
        if not line.intersects(ring):
            continue
        cut = line.intersection(ring)
        points = [g for g in getattr(cut, "geoms", [cut]) if isinstance(g, Point)]
        for p in points:
            for _k, kind, seg in ops:
                if seg.distance(p) <= GRAZE + 1e-9:
                    total += OPENING_COST[kind]
                    break
    return total


def sees_points(
    battlefield: Battlefield,
    figures: Sequence[Figure],
    spots: Sequence[Point2],
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    behind_cover_hides: bool = False,
    in_the_dark: bool = False,
) -> npt.NDArray[np.bool_]:
    """(F, S): :func:`sees_point` for every figure and spot, judged in one pass.

    The PEF checks (11.1, 11.3) ask it after every step for every player figure and
    every PEF; one call costs about what two single ones do.  ``in_the_dark``: the
    spots are not well lit, so night and bad weather limit the sight of them (7.9.4:
    a PEF, a building's outside); by default only terrain hides a spot (placing a PEF
    "hidden ... by blocking terrain", 11).
    """
    n, m = len(figures), len(spots)
    if not n or not m:
        return np.zeros((n, m), dtype=bool)
    index = index or build_index(battlefield, rules, raster=False)
    vp, a, b, seen = _spot_sight(index, figures, spots, rules, lit=not in_the_dark)
    if behind_cover_hides:
        for k in np.flatnonzero(seen).tolist():
            if _cover_between(index, vp, int(a[k]), int(b[k])):
                seen[k] = False
    return seen.reshape(n, m)


def first_unseen(
    battlefield: Battlefield,
    figures: Sequence[Figure],
    spots: Sequence[Point2],
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    usable: Sequence[bool] | None = None,
) -> int | None:
    """The first of the ``usable`` spots none of the figures sees, a spot behind Cover
    counting as unseen (11.3's PEF rule), or None.

    Same verdicts as :func:`sees_points` with ``behind_cover_hides``, but the Cover
    between is worked out only for the spots tried in turn (placing a PEF tries up
    to 17 spots and takes the first hidden one).
    """
    m = len(spots)
    ok = [True] * m if usable is None else list(usable)
    if not figures:
        return next((k for k in range(m) if ok[k]), None)
    index = index or build_index(battlefield, rules, raster=False)
    vp, a, b, seen = _spot_sight(index, figures, spots, rules)
    grid = seen.reshape(len(figures), m)
    for k in range(m):
        if not ok[k]:
            continue
        rows = np.flatnonzero(grid[:, k]).tolist()
        if all(_cover_between(index, vp, int(a[i * m + k]), int(b[i * m + k])) for i in rows):
            return k
    return None


def _spot_sight(
    index: TerrainIndex,
    figures: Sequence[Figure],
    spots: Sequence[Point2],
    rules: RulesOptions,
    *,
    lit: bool = True,
) -> tuple[Viewpoints, npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Each figure (rows) against each spot (a point on the ground, the viewer's front
    180°; terrain only while the spots are ``lit``, else night and weather limit it
    too): the viewpoints, the pair arrays and LOS (F*S, figure-major)."""
    n, m = len(figures), len(spots)
    facing = np.array([f.facing_vector() for f in figures], dtype=np.float64).reshape(n, 2)
    x = np.array([f.x for f in figures] + [p[0] for p in spots], dtype=np.float64)
    y = np.array([f.y for f in figures] + [p[1] for p in spots], dtype=np.float64)
    r = np.array([f.radius for f in figures] + [0.0] * m, dtype=np.float64)
    # one batched lookup, remembered on the index: the same figures and PEF spots are
    # asked about after every step
    places = los.locate_places(index, x, y, r, rules)
    vp = Viewpoints(
        ids=[f.id for f in figures] + [f"@spot{k}" for k in range(m)],
        x=x,
        y=y,
        r=r,
        fx=np.concatenate([facing[:, 0], np.zeros(m)]),
        fy=np.concatenate([facing[:, 1], np.zeros(m)]),
        blocks=np.zeros(n + m, dtype=bool),
        moving=np.zeros(n + m, dtype=bool),
        lit=np.full(n + m, lit, dtype=bool),
        present=np.ones(n + m, dtype=bool),
        places=places,
    )
    a = np.repeat(np.arange(n, dtype=np.int64), m)
    b = np.tile(np.arange(n, n + m, dtype=np.int64), n)
    res = evaluate(index, vp, a, b, rules)
    return vp, a, b, np.asarray(res.ab == 0)


def _cover_between(index: TerrainIndex, vp: Viewpoints, a: int, b: int) -> bool:
    """A wall, rock or crest between viewer ``a`` and spot ``b`` (not woods or a
    building the spot stands in): behind Cover, a PEF is not seen (11.3)."""
    _cover, _conc, why = cover_reasons(index, vp, a, b)
    return any(r.kind in (CoverKind.OBSTACLE, CoverKind.CREST) for r in why)


def sees_point(
    battlefield: Battlefield,
    figure: Figure,
    spot: Point2,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    behind_cover_hides: bool = False,
) -> bool:
    """Whether the figure has LOS to a spot on the table (grenade throws 7.10.3, Rocket
    Launcher spots 7.10.5): its front 180°, terrain only (figures do not hide a spot).

    ``behind_cover_hides`` is the PEF's rule (11.3): a spot *in* Cover (woods, a
    building) can be seen, one with Cover *between* it and the viewer (a wall,
    a crest on the line) cannot."""
    index = index or build_index(battlefield, rules, raster=False)
    fx, fy = figure.facing_vector()
    vp = Viewpoints(
        ids=[figure.id, "@spot"],
        x=np.array([figure.x, spot[0]]),
        y=np.array([figure.y, spot[1]]),
        r=np.array([figure.radius, 0.0]),
        fx=np.array([fx, 0.0]),
        fy=np.array([fy, 0.0]),
        blocks=np.zeros(2, dtype=bool),
        moving=np.zeros(2, dtype=bool),
        lit=np.ones(2, dtype=bool),
        present=np.ones(2, dtype=bool),
        places=[
            locate(index, figure.x, figure.y, figure.radius, rules),
            locate(index, spot[0], spot[1], 0.0, rules),
        ],
    )
    res = evaluate(index, vp, np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64), rules)
    if res.ab[0] != 0:
        return False
    if behind_cover_hides:
        _cover, _conc, why = cover_reasons(index, vp, 0, 1)
        return not any(r.kind in (CoverKind.OBSTACLE, CoverKind.CREST) for r in why)
    return True


def straight_way_open(
    battlefield: Battlefield, start: Point2, spot: Point2, radius: float, *, index: TerrainIndex
) -> bool:
    """Whether a base of ``radius`` may go straight from ``start`` to ``spot`` as a Duck
    Back goes (7.4.4): clear of impassable ground, and into or out of a building only by
    a door or window (7.4, 8.2) -- the test :func:`nearest_cover` makes of its spots."""
    ok = _reachable(index, start[0], start[1], np.array([spot[0]]), np.array([spot[1]]), radius)
    return bool(ok[0])


__all__ = [
    "DuckBack",
    "PathCost",
    "Reach",
    "farthest_along",
    "nearest_cover",
    "opening_cost",
    "path_cost",
    "reachable_area",
    "sees_point",
    "sees_points",
    "shortest_path",
    "straight_way_open",
]
