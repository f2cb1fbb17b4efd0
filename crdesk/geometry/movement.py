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
from collections.abc import Sequence
from dataclasses import dataclass, replace

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from crdesk.geometry.los import CODE, Reason, Viewpoints, evaluate
from crdesk.geometry.terrain_index import GRAZE, TerrainIndex, build_index, locate, locate_many
from crdesk.model import Battlefield, Figure, OpeningKind
from crdesk.model import TerrainKind as K
from crdesk.options import RulesOptions, Weather

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
    """``"impassable"`` or ``"wall"`` (and the feature id) when the path cannot be taken."""
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


def _segment_events(
    index: TerrainIndex, seg: LineString, ignore_terrain: bool, radius: float
) -> tuple[list[_Piece], list[tuple[float, float, str | None, str]]]:
    """Rate pieces along one segment and the crossings (distance, cost, forbidden, feature)."""
    length = seg.length
    events: list[tuple[float, float, str | None, str]] = []
    cuts = {0.0, length}
    woods_polys: list[Polygon] = []
    for n in index.outline_tree.query(seg).tolist():
        kind = index.kinds[n]
        outline = index.outlines[n]
        fid = index.features[n]
        if kind is K.IMPASSABLE:
            grown = outline.buffer(max(radius - GRAZE, 0.0), quad_segs=4)
            if seg.intersects(grown.buffer(-GRAZE)):
                inside = seg.intersection(grown)
                d = min(seg.project(Point(c)) for c in shapely.get_coordinates(inside))
                events.append((d, math.inf, "impassable", fid))
        elif ignore_terrain:
            continue
        elif kind in (K.WOODS, K.WOODED_HILL):
            if seg.intersects(outline):
                woods_polys.append(outline)
                for p in _points(seg.intersection(outline.exterior)):
                    cuts.add(seg.project(p))
        elif kind is K.BUILDING:
            for p in _points(seg.intersection(outline.exterior)):
                d = seg.project(p)
                feat = index.features[n]
                cost: float = math.inf
                forbidden: str | None = "wall"
                for _k, okind, oseg in index.building_openings.get(n, []):
                    if oseg.distance(p) <= GRAZE:
                        cost, forbidden = OPENING_COST[okind], None
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
) -> PathCost:
    """What moving along ``path`` (a polyline of the figure's centre) costs (7.4, 8.2)."""
    index = index or build_index(battlefield, rules, raster=False)
    total = 0.0
    length = 0.0
    on_wall: set[str] = set()
    for p, q in itertools.pairwise(path):
        seg = LineString([p, q])
        pieces, events = _segment_events(index, seg, ignore_terrain, radius)
        events, on_wall = _one_crossing(events, on_wall, seg.length)
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
) -> Reach:
    """The farthest point along ``path`` the figure reaches with ``allowance`` inches (7.4).

    It stops before an opening it cannot pay for, and before impassable ground
    or a wall.
    """
    index = index or build_index(battlefield, rules, raster=False)
    left = allowance
    here: Point2 = tuple(path[0])  # type: ignore[assignment]
    on_wall: set[str] = set()
    for p, q in itertools.pairwise(path):
        seg = LineString([p, q])
        pieces, events = _segment_events(index, seg, ignore_terrain, radius)
        events, on_wall = _one_crossing(events, on_wall, seg.length)
        # walk the segment in order; at the same spot pay a crossing before moving on
        marks: list[tuple[float, int, _Piece | None, tuple[float, float, str | None, str]]] = [
            (pc.start, 1, pc, (0.0, 0.0, None, "")) for pc in pieces
        ] + [(e[0], 0, None, e) for e in events]
        marks.sort(key=lambda t: (t[0], t[1]))
        for _at, _order, piece, (d, cost, forbidden, fid) in marks:
            if piece is None:
                if forbidden is not None:
                    pt = seg.interpolate(max(d - GRAZE, 0.0))
                    return Reach((pt.x, pt.y), allowance - left, forbidden, fid)
                if cost > left:
                    pt = seg.interpolate(max(d - GRAZE, 0.0))
                    return Reach((pt.x, pt.y), allowance - left, "allowance", fid)
                left -= cost
                continue
            need = (piece.end - piece.start) * piece.rate
            if need >= left:
                pt = seg.interpolate(piece.start + left / piece.rate)
                return Reach((pt.x, pt.y), allowance, None)
            left -= need
        here = (float(q[0]), float(q[1]))
    return Reach(here, allowance - left, None)


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
    """
    calm = replace(rules, night=False, weather=Weather.CLEAR)
    index = index or build_index(battlefield, calm, raster=False)
    r = figure.radius
    ax = np.arange(-max_distance, max_distance + 1e-9, spacing)
    gx, gy = np.meshgrid(ax, ax)
    keep = np.hypot(gx, gy) <= max_distance
    xs = np.concatenate([[0.0], gx[keep]]) + figure.x
    ys = np.concatenate([[0.0], gy[keep]]) + figure.y
    table = battlefield.table
    on = (xs >= r) & (xs <= table.width - r) & (ys >= r) & (ys <= table.height - r)
    on[0] = True
    grown = _obstacles(index, r)
    if grown is not None:
        on &= ~shapely.contains_xy(grown, xs, ys)
    # a base may not stand on a wall or in a vehicle
    solid = [index.outlines[n] for n in index.obstacle_ids]
    if solid:
        walls_grown = shapely.union_all(solid).buffer(max(r - GRAZE, 0.0), quad_segs=4)
        on[1:] &= ~shapely.contains_xy(walls_grown, xs[1:], ys[1:])
    xs, ys = xs[on], ys[on]
    dist = np.hypot(xs - figure.x, ys - figure.y)
    places = locate_many(index, xs, ys, np.full(len(xs), r), calm)
    n = len(xs)
    vp = Viewpoints(
        ids=["@threat", *[f"@{k}" for k in range(n)]],
        x=np.concatenate([[threat[0]], xs]),
        y=np.concatenate([[threat[1]], ys]),
        r=np.concatenate([[0.0], np.full(n, r)]),
        fx=np.zeros(n + 1),
        fy=np.zeros(n + 1),
        blocks=np.zeros(n + 1, dtype=bool),
        moving=np.zeros(n + 1, dtype=bool),
        lit=np.zeros(n + 1, dtype=bool),
        present=np.ones(n + 1, dtype=bool),
        places=[locate(index, threat[0], threat[1], 0.0, calm), *places],
    )
    res = evaluate(index, vp, np.zeros(n, dtype=np.int64), np.arange(1, n + 1), calm)
    hidden = np.isin(res.ab, list(_HIDDEN))
    covered = (res.ab == 0) & res.cover_ab
    good = hidden | covered
    if not rules.interpretations.duck_back_interiors_count:
        good &= np.array([p.building < 0 for p in places], dtype=bool)
    here = Point(figure.x, figure.y)
    for k in np.argsort(dist, kind="stable"):
        if not good[k]:
            continue
        spot = (float(xs[k]), float(ys[k]))
        if dist[k] == 0:
            return DuckBack(spot, 0.0, False, "hidden" if hidden[k] else "cover")
        cost = path_cost(
            battlefield, [(here.x, here.y), spot], calm, index=index, radius=r, ignore_terrain=True
        )
        if not cost.allowed or _crosses_wall(index, here, spot, places[k]):
            continue
        return DuckBack(spot, float(dist[k]), False, "hidden" if hidden[k] else "cover")
    return DuckBack((figure.x, figure.y), 0.0, True, "prone")


def sees_point(
    battlefield: Battlefield,
    figure: Figure,
    spot: Point2,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
) -> bool:
    """Whether the figure has LOS to a spot on the table (grenade throws 7.10.3, Rocket
    Launcher spots 7.10.5): its front 180°, terrain only (figures do not hide a spot)."""
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
    return bool(res.ab[0] == 0)


def _crosses_wall(index: TerrainIndex, start: Point, spot: Point2, place: object) -> bool:
    """A Duck Back into a building must pass a door or window (8.2)."""
    seg = LineString([(start.x, start.y), spot])
    for n in index.outline_tree.query(seg).tolist():
        if index.kinds[n] is not K.BUILDING:
            continue
        for p in _points(seg.intersection(index.outlines[n].exterior)):
            if not any(o.distance(p) <= GRAZE for _k, _o, o in index.building_openings.get(n, [])):
                return True
    return False


__all__ = [
    "DuckBack",
    "PathCost",
    "Reach",
    "farthest_along",
    "nearest_cover",
    "path_cost",
    "reachable_area",
    "sees_point",
    "shortest_path",
]
