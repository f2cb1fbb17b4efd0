"""Routes (7.4, 8.2): the cheapest legal way for a figure from where it stands to a spot.

The book measures a move along the way the figure goes; it need not be straight.  A
wargamer moving a figure "behind that building" means the way round the corner, or in
through the door and out of the window, whichever costs less.  This module finds that
way on a visibility graph (Lozano-Pérez and Wesley's roadmap, searched with networkx's
A*): its nodes are the corners of impassable ground and of buildings grown by the base
(outside and inside the walls), each door and window with a spot either side of it,
and, when a route would pass through another figure's base, that base's corners.  Two
nodes are joined when the straight run between them crosses no wall (a building's
outline away from its openings) and no impassable ground; its weight is what
:func:`crdesk.geometry.movement.path_cost` charges: its length, woods at double (7.4),
2" for a door and 4" for a window passed (8.2).  The route found is then costed by
``path_cost`` itself, the one rule, so a route never costs other than the move it
plays.

The terrain part of the graph (nodes and the runs between them) depends on the terrain
and the base's size only, so it is built once per terrain index and radius and kept on
the index.  Routes are deterministic: the nodes are made in the terrain's order and
networkx breaks ties by it, so a replay finds the same route.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from crdesk.geometry.movement import OPENING_COST, WOODS_FACTOR, PathCost, path_cost, rays_reach
from crdesk.geometry.terrain_index import GRAZE, TerrainIndex, build_index
from crdesk.model import Battlefield, OpeningKind
from crdesk.model import TerrainKind as K
from crdesk.options import RulesOptions

Point2 = tuple[float, float]
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

CLEARANCE = 0.05
"""Inches a route's corners keep beyond the base's touching distance from a wall, rock or
another base: the base passes them, it does not scrape them."""
DENSE_RUNS = 2048
"""Roadmaps of at most this many spots remember their runs' costs in one N x N array
(32 MB at most; a generated 72" x 48" table has a few hundred spots)."""
KNOWN_REACHES = 4096
"""At most this many reaches are remembered per terrain (:func:`reach_costs`)."""
BASE_SIDES = 8
"""A base another figure stands on is passed round as this many corners."""
MAX_DETOURS = 6
"""Rounds of "this route runs through a base: go round it" before giving up."""
STATIC_CACHE = "routing_static"
MAX_RUN = 24.0
"""Inches: the longest run between two corners the roadmap keeps.  No move goes that far
in one activation (a Fast Move of a Rep 6 is 16" at most, 7.4.2), so a longer run could
only shorten a route beyond reach; dropping them makes the roadmap some times cheaper.
The route's own ends are joined to every corner whatever the distance."""


@dataclass(frozen=True, slots=True)
class Route:
    """A way for a figure's centre from ``points[0]`` to ``points[-1]`` and what it costs."""

    points: tuple[Point2, ...]
    cost: PathCost

    @property
    def legs(self) -> int:
        return len(self.points) - 1


@dataclass(slots=True)
class _Terrain:
    """The terrain part of the roadmap for one base radius."""

    nodes: Floats
    """(N, 2) corners and opening spots."""
    rings: Floats
    """(N, 4) each corner's neighbours on its outline (x0, y0, x1, y1); a spot that is no
    corner (an opening's, the route's ends) has itself twice."""
    graph: nx.Graph
    solid: STRtree
    """Walls away from openings and impassable ground grown by the base: no run crosses."""
    solid_parts: list[BaseGeometry]
    doors: STRtree
    windows: STRtree
    woods: STRtree
    woods_parts: list[BaseGeometry]
    joined: bool = False
    """Whether ``graph`` holds the runs between the spots yet (:func:`_terrain` makes
    them when a route first needs them: a reach needs only the spots near a figure)."""
    runs: Floats | None = None
    """(N, N) what the run between spots ``i < j`` costs at ``[i, j]`` (NaN: not costed
    yet), as :func:`reach_costs` costed it: the reaches of one game ask the same runs
    again and again as its figures move about (a run's cost depends only on the
    terrain, made once per index).  Looked up as one array, not pair by pair."""
    reached: dict[tuple[float, float, float], tuple[ReachedSpot, ...]] = field(default_factory=dict)
    """:func:`reach_costs` by start and allowance: a figure that has not moved is asked
    its reach again (the program's players plan it more than once: in simulated Patrols
    about one reach in four had been asked before)."""

    def blocks(self, point: Point2) -> bool:
        """Whether a centre at ``point`` stands in solid ground or on a wall."""
        return bool(len(self.solid.query(Point(point), predicate="intersects")))


def _rings(poly: BaseGeometry, distance: float) -> list[list[Point2]]:
    """The corner rings of ``poly`` grown (or shrunk, distance < 0) by ``distance``."""
    grown = poly.buffer(distance, join_style="mitre", mitre_limit=3.0)
    out: list[list[Point2]] = []
    for part in getattr(grown, "geoms", [grown]):
        if isinstance(part, Polygon) and not part.is_empty:
            for ring in (part.exterior, *part.interiors):
                out.append([(float(x), float(y)) for x, y in ring.coords[:-1]])
    return out


class _Nodes:
    """The roadmap's spots as they are made, with each corner's outline neighbours."""

    def __init__(self) -> None:
        self.points: list[Point2] = []
        self.rings: list[tuple[float, float, float, float]] = []

    def ring(self, corners: Sequence[Point2]) -> None:
        n = len(corners)
        for k, p in enumerate(corners):
            (ax, ay), (bx, by) = corners[k - 1], corners[(k + 1) % n]
            self.points.append(p)
            self.rings.append((ax, ay, bx, by))

    def spot(self, p: Point2) -> None:
        self.points.append(p)
        self.rings.append((p[0], p[1], p[0], p[1]))

    def arrays(self) -> tuple[Floats, Floats]:
        return (
            np.array(self.points, dtype=float).reshape(-1, 2),
            np.array(self.rings, dtype=float).reshape(-1, 4),
        )


def _tangent(nodes: Floats, rings: Floats, ii: Any, jj: Any) -> Any:
    """Which runs i -> j leave both ends' outlines tangentially (both neighbours of a
    corner on one side of the run): a shortest way round obstacles bends only at such
    corners (the reduced visibility graph), so the others need no test."""
    d = nodes[jj] - nodes[ii]
    ok = np.ones(len(ii), dtype=bool)
    for ends in (ii, jj):
        at = nodes[ends]
        ring = rings[ends]
        a = d[:, 0] * (ring[:, 1] - at[:, 1]) - d[:, 1] * (ring[:, 0] - at[:, 0])
        b = d[:, 0] * (ring[:, 3] - at[:, 1]) - d[:, 1] * (ring[:, 2] - at[:, 0])
        ok &= a * b >= -1e-9
    return ok


def _hugs(terrain: _Terrain, point: Point2, radius: float) -> bool:
    """Whether a centre at ``point`` stands in the band the roadmap's corners keep off
    rock and walls (closer than they do: a base against a rock's side, in a notch).

    There the runs out of it to the corners do not look tangent (a corner's neighbours
    lie on both sides of a run that leaves along the band), so :func:`_tangent` would
    prune the only ways out: such a start or goal is joined to every corner it sees."""
    here = Point(point)
    reach = radius + CLEARANCE + 2 * GRAZE
    near = terrain.solid.query(here, predicate="dwithin", distance=reach)
    for part in near.tolist():
        piece = terrain.solid_parts[part]
        # rock's solid is grown by radius - 2 GRAZE, its corners kept away + GRAZE off it
        band = CLEARANCE + 4 * GRAZE if isinstance(piece, Polygon) else reach
        if piece.distance(here) <= band:
            return True
    return False


def _opening_spots(poly: Polygon, seg: LineString, distance: float) -> list[Point2]:
    """The spots just outside and just inside an opening's middle, ``distance`` off it."""
    (x0, y0), (x1, y1) = seg.coords[0], seg.coords[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= 1e-9:
        return []
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    nx_, ny = -(y1 - y0) / length, (x1 - x0) / length
    return [(mx + nx_ * distance, my + ny * distance), (mx - nx_ * distance, my - ny * distance)]


def _terrain(
    index: TerrainIndex,
    width: float,
    height: float,
    radius: float,
    ignore_terrain: bool,
    *,
    joined: bool = True,
    walls: bool = False,
) -> _Terrain:
    """The terrain's roadmap for a base of ``radius`` on a table of ``width`` x ``height``,
    made once per index, table and radius; ``joined=False``: its spots only (the runs
    between them are the costly part, made the first time a route wants them)."""
    cache = index.cache.setdefault(STATIC_CACHE, {})
    assert isinstance(cache, dict)
    key = (round(radius, 6), ignore_terrain, walls, width, height)
    found = cache.get(key)
    if isinstance(found, _Terrain):
        if joined and not found.joined:
            _join_all(found)
        return found
    away = radius + CLEARANCE
    made = _Nodes()
    solids: list[BaseGeometry] = []
    doors: list[BaseGeometry] = []
    windows: list[BaseGeometry] = []
    woods: list[BaseGeometry] = []
    for n, kind in enumerate(index.kinds):
        outline = index.outlines[n]
        if kind is K.IMPASSABLE:
            # movement's own test: the centre may not come within radius - GRAZE of it
            solids.append(outline.buffer(max(radius - 2 * GRAZE, 0.0), quad_segs=4))
            for ring in _rings(outline, away + GRAZE):
                made.ring(ring)
        elif ignore_terrain and not (walls and kind is K.BUILDING):
            continue
        elif kind is K.BUILDING:
            openings = index.building_openings.get(n, [])
            wall: BaseGeometry = outline.exterior
            if openings:
                gaps = shapely.union_all([seg.buffer(GRAZE) for _k, _o, seg in openings])
                wall = wall.difference(gaps)
            # each stretch of wall its own straight piece: the tree's boxes fit them tightly
            coords = [np.asarray(g.coords) for g in getattr(wall, "geoms", [wall])]
            solids += [LineString(c[k : k + 2]) for c in coords for k in range(len(c) - 1)]
            for ring in _rings(outline, away):
                made.ring(ring)
            # inside the walls the free space is the ring's inside, the walls round it: a
            # way bends there round a wall's end as well as along the ring, so these
            # corners join every run (no pruning by tangents)
            for ring in _rings(outline, -away):
                for spot in ring:
                    made.spot(spot)
            for _k, okind, seg in openings:
                # a crossing within GRAZE of the opening passes by it, as path_cost has it
                # (free when terrain is ignored: a PEF's move, 11.2)
                if not ignore_terrain:
                    (doors if okind is OpeningKind.DOOR else windows).append(seg.buffer(GRAZE))
                for spot in _opening_spots(outline, seg, away):
                    made.spot(spot)
        elif kind in (K.WOODS, K.WOODED_HILL):
            woods.append(outline)
    for geom in (*solids, *woods):
        shapely.prepare(geom)
    points, rings = made.arrays()
    terrain = _Terrain(
        points,
        rings,
        nx.Graph(),
        STRtree(solids),
        solids,
        STRtree(doors),
        STRtree(windows),
        STRtree(woods),
        woods,
    )
    # drop the corners inside solid ground (a grown rock's corner in another rock) and
    # those where the base would hang off the table
    if len(terrain.nodes):
        keep = _on_table_mask(terrain.nodes, width, height, radius)
        inside, _parts = terrain.solid.query(shapely.points(terrain.nodes), predicate="intersects")
        keep[inside] = False
        terrain.nodes = terrain.nodes[keep]
        terrain.rings = terrain.rings[keep]
    terrain.graph.add_nodes_from(range(len(terrain.nodes)))
    if joined:
        _join_all(terrain)
    cache[key] = terrain
    return terrain


def _join_all(terrain: _Terrain) -> None:
    """The roadmap's runs: every clear, tangent run of at most :data:`MAX_RUN` between
    two of its spots, with what it costs."""
    count = len(terrain.nodes)
    if count > 1:
        ii, jj = np.triu_indices(count, 1)
        near = np.hypot(*(terrain.nodes[jj] - terrain.nodes[ii]).T) <= MAX_RUN
        ii, jj = ii[near], jj[near]
        taut = _tangent(terrain.nodes, terrain.rings, ii, jj)
        ii, jj = ii[taut], jj[taut]
        weights = _run_costs(terrain, terrain.nodes[ii], terrain.nodes[jj])
        ok = np.isfinite(weights)
        terrain.graph.add_weighted_edges_from(
            zip(ii[ok].tolist(), jj[ok].tolist(), weights[ok].tolist(), strict=True)
        )
    terrain.joined = True


def _run_costs(
    terrain: _Terrain, a: Floats, b: Floats, *, spare: tuple[Point2, float] | None = None
) -> Floats:
    """What each straight run a[k] -> b[k] costs (inf: it crosses a wall or rock).

    ``spare``: (centre, radius) of a disc whose walls and rock do not count (where a
    base stands against them); a run crossing them further on is still refused."""
    if not len(a):
        empty: Floats = np.zeros(0)
        return empty
    segs = shapely.linestrings(np.stack([a, b], axis=1))
    cost: Floats = np.asarray(np.hypot(*(b - a).T), dtype=float)
    hit, parts = terrain.solid.query(segs, predicate="intersects")
    if spare is not None and len(hit):
        # rock under the base, or the wall the centre stands on (not one it only faces:
        # going through that is still a wall crossed)
        under = Point(spare[0]).buffer(spare[1], quad_segs=8)
        on = Point(spare[0]).buffer(2 * GRAZE, quad_segs=8)
        kept = np.ones(len(hit), dtype=bool)
        for n, (run, part) in enumerate(zip(hit.tolist(), parts.tolist(), strict=True)):
            piece = terrain.solid_parts[part]
            disc = under if isinstance(piece, Polygon) else on
            if piece.intersects(disc):
                seg = segs[run]
                # a wall the centre touches is left on its own side: a run that crosses
                # it there goes through it (the controller says "runs into the wall")
                kept[n] = seg.intersects(piece.difference(disc)) or (
                    disc is on and seg.crosses(piece)
                )
        hit = hit[kept]
    cost[hit] = math.inf
    live = np.flatnonzero(np.isfinite(cost))
    if not len(live):
        return cost
    segs = segs[live]
    if terrain.woods_parts:
        runs, parts = terrain.woods.query(segs, predicate="intersects")
        if len(runs):
            polys = np.array(terrain.woods_parts, dtype=object)[parts]
            inside = shapely.length(shapely.intersection(segs[runs], polys))
            np.add.at(cost, live[runs], inside * (WOODS_FACTOR - 1))
    for tree, extra in (
        (terrain.doors, OPENING_COST[OpeningKind.DOOR]),
        (terrain.windows, OPENING_COST[OpeningKind.WINDOW]),
    ):
        runs, _parts = tree.query(segs, predicate="intersects")
        if len(runs):
            np.add.at(cost, live[runs], extra)  # one per opening crossed
    return cost


def _base_corners(x: float, y: float, reach: float) -> list[Point2]:
    """An octagon round a base that a centre keeping ``reach`` from it may go round."""
    out_r = reach / math.cos(math.pi / BASE_SIDES)
    return [
        (
            x + out_r * math.cos(2 * math.pi * (k + 0.5) / BASE_SIDES),
            y + out_r * math.sin(2 * math.pi * (k + 0.5) / BASE_SIDES),
        )
        for k in range(BASE_SIDES)
    ]


def route(
    battlefield: Battlefield,
    start: Point2,
    goal: Point2,
    rules: RulesOptions,
    *,
    radius: float = 0.5,
    index: TerrainIndex | None = None,
    bases: Sequence[tuple[float, float, float]] = (),
    ignore_terrain: bool = False,
    limit: float | None = None,
    walls: bool = False,
) -> Route | None:
    """The cheapest legal route from ``start`` to ``goal`` for a base of ``radius``, or
    None when there is none (the goal is in rock or a wall, shut in, or on a base).

    ``limit``: the route is wanted only if it costs no more than that (a figure's
    movement left): the search keeps to the corners within that length of both ends, so a
    short move on a big table is quick.  A route costing more may still come back (or
    None where a dearer one exists); a route within the limit is always the cheapest.

    ``bases``: (x, y, radius) of the other figures standing; the route passes round
    them, never through.  The route's cost is :func:`path_cost`'s (``ignore_terrain`` and
    ``walls`` as for it).  A straight run that
    is legal is the route when nothing cheaper exists (no detour is ever longer than it
    needs to be)."""
    index = index or build_index(battlefield, rules, raster=False)
    start = (float(start[0]), float(start[1]))
    goal = (float(goal[0]), float(goal[1]))
    if math.dist(start, goal) <= 1e-9:
        return Route((start, start), PathCost(0.0, 0.0))
    table = battlefield.table
    terrain = _terrain(index, table.width, table.height, radius, ignore_terrain, walls=walls)
    others = [
        (float(x), float(y), float(r))
        for x, y, r in bases
        if math.dist((x, y), start) >= r + radius - 1e-6  # not the one it stands against
    ]
    for x, y, r in others:
        if math.dist((x, y), goal) < r + radius - 1e-6:
            return None  # ends on a base: no route makes that legal
    off = not _on_table_mask(np.array([goal]), table.width, table.height, radius)[0]
    if off or terrain.blocks(goal):
        return None  # ends in rock, on a wall or off the table: no search finds a way
    straight: Route | None = None
    if _first_base_hit([start, goal], others, radius, ()) is None:
        cost = path_cost(
            battlefield,
            [start, goal],
            rules,
            index=index,
            ignore_terrain=ignore_terrain,
            radius=radius,
            walls=walls,
        )
        if cost.allowed:  # the straight-line tool's move: the route never costs more
            straight = Route((start, goal), cost)
            if cost.cost <= cost.length + 1e-9:
                return straight  # nothing on the way slows it: no detour can be cheaper
    graph = terrain.graph  # the terrain's roadmap, borrowed: the nodes added go again
    first = len(terrain.nodes)
    nodes = np.vstack([terrain.nodes, [start, goal]])
    rings = np.vstack([terrain.rings, [[*start, *start], [*goal, *goal]]])
    start_id, goal_id = first, first + 1
    cut: set[tuple[int, int]] = set()
    """Runs of the roadmap through a base this route must go round."""

    def weight(u: int, v: int, data: dict[str, Any]) -> float | None:
        if cut and ((u, v) in cut or (v, u) in cut):
            return None  # networkx: no such run for this search
        return float(data["weight"])

    graph.add_nodes_from([start_id, goal_id])
    try:
        # a base standing against a wall or over a rock's edge steps off it: what lies
        # under the base does not stop the runs out of where it stands
        ellipse = None if limit is None else (start, goal, limit)
        _join(
            graph,
            terrain,
            nodes,
            rings,
            [start_id],
            spare=(start, radius + GRAZE),
            ellipse=ellipse,
            taut=not _hugs(terrain, start, radius),
        )
        _join(
            graph,
            terrain,
            nodes,
            rings,
            [goal_id],
            ellipse=ellipse,
            taut=not _hugs(terrain, goal, radius),
        )
        round_bases: list[int] = []
        for _ in range(MAX_DETOURS + 1):
            try:
                ids = nx.astar_path(
                    graph,
                    start_id,
                    goal_id,
                    heuristic=_straight(nodes),
                    weight=weight,
                    cutoff=None if limit is None else limit + 0.01,  # none dearer searched
                )
            except nx.NetworkXNoPath:
                return straight
            points = [(float(nodes[k][0]), float(nodes[k][1])) for k in ids]
            hit = _first_base_hit(points, others, radius, round_bases)
            if hit is None:
                cost = path_cost(
                    battlefield,
                    points,
                    rules,
                    index=index,
                    ignore_terrain=ignore_terrain,
                    radius=radius,
                    walls=walls,
                )
                if not cost.allowed:
                    return straight
                if straight is not None and straight.cost.cost <= cost.cost:
                    return straight  # the roadmap keeps a graze off walls a straight run need not
                return Route(tuple(points), cost)
            # go round that base: runs through it are cut, its corners join the roadmap
            round_bases.append(hit)
            x, y, r = others[hit]
            disc = Point(x, y).buffer(r + radius - GRAZE, quad_segs=8)
            edges = np.array(list(graph.edges()), dtype=np.int64).reshape(-1, 2)
            segs = shapely.linestrings(np.stack([nodes[edges[:, 0]], nodes[edges[:, 1]]], axis=1))
            for u, v in edges[shapely.intersects(segs, disc)].tolist():
                cut.add((u, v))
            corners = [
                c
                for c in _base_corners(x, y, r + radius + CLEARANCE)
                if _on_table_mask(np.array([c]), table.width, table.height, radius)[0]
                and not terrain.blocks(c)
            ]
            at = len(nodes)
            if corners:
                made = _Nodes()
                made.ring(corners)
                more, more_rings = made.arrays()
                nodes = np.vstack([nodes, more])
                rings = np.vstack([rings, more_rings])
            new = list(range(at, len(nodes)))
            graph.add_nodes_from(new)
            discs = [others[b] for b in round_bases]
            _join(graph, terrain, nodes, rings, new, discs=discs, radius=radius, ellipse=ellipse)
        return straight
    finally:
        graph.remove_nodes_from(range(first, len(nodes)))


def _straight(nodes: Floats) -> Any:
    """A* 's heuristic: the straight distance (no move costs less than its length)."""

    def distance(u: int, v: int) -> float:
        return float(math.dist(nodes[u], nodes[v]))

    return distance


def _join(
    graph: nx.Graph,
    terrain: _Terrain,
    nodes: Floats,
    rings: Floats,
    new: list[int],
    *,
    discs: Sequence[tuple[float, float, float]] = (),
    radius: float = 0.0,
    spare: tuple[Point2, float] | None = None,
    ellipse: tuple[Point2, Point2, float] | None = None,
    taut: bool = True,
) -> None:
    """Join each of the ``new`` nodes to every node it has a clear, tangent run to
    (``taut=False``: every clear run, for a node hugging rock or a wall, see :func:`_hugs`).

    ``ellipse`` (a, b, limit): only nodes whose way a -> node -> b is no longer than
    ``limit`` are joined; no route of that length or less passes any other (a route
    costs at least its length), and the fewer runs the fewer crossings to test."""
    candidates: Any = range(len(nodes))
    if ellipse is not None:
        (ax, ay), (bx, by), limit = ellipse
        lengths = np.hypot(nodes[:, 0] - ax, nodes[:, 1] - ay)
        lengths += np.hypot(nodes[:, 0] - bx, nodes[:, 1] - by)
        candidates = np.flatnonzero(lengths <= limit + 1e-9)
    for k in new:
        others = np.array(
            [j for j in candidates if j != k and not graph.has_edge(k, j)], dtype=np.int64
        )
        if not len(others):
            continue
        if taut:
            others = others[_tangent(nodes, rings, np.full(len(others), k), others)]
        if not len(others):
            continue
        here = np.repeat(nodes[k : k + 1], len(others), axis=0)
        weights = _run_costs(terrain, here, nodes[others], spare=spare)
        if discs:
            blocked = shapely.union_all(
                [Point(x, y).buffer(r + radius - GRAZE, quad_segs=8) for x, y, r in discs]
            )
            segs = shapely.linestrings(np.stack([here, nodes[others]], axis=1))
            weights[shapely.intersects(segs, blocked)] = math.inf
        ok = np.isfinite(weights)
        graph.add_weighted_edges_from(
            (k, int(j), float(w)) for j, w in zip(others[ok], weights[ok], strict=True)
        )


def _first_base_hit(
    points: Sequence[Point2],
    bases: Sequence[tuple[float, float, float]],
    radius: float,
    done: Sequence[int],
) -> int | None:
    """The first base (by its number) the route's centre line comes within touching of."""
    if not bases or len(points) < 2:
        return None
    line = LineString(points)
    for k, (x, y, r) in enumerate(bases):
        if k in done:
            continue
        if line.distance(Point(x, y)) < r + radius - GRAZE:
            return k
    return None


def _on_table_mask(points: Floats, width: float, height: float, radius: float) -> Any:
    """Which points a base of ``radius`` can stand on, wholly on the table."""
    x, y = points[:, 0], points[:, 1]
    lo = radius - 1e-9
    return (x >= lo) & (x <= width - lo) & (y >= lo) & (y <= height - lo)


REACH_RAYS = 40
"""Straight runs fanned out from each spot the roadmap reaches (the true reach area)."""
REACH_MIN_LEFT = 0.25
"""Inches of movement a roadmap spot must still have to fan out from."""


@dataclass(frozen=True, slots=True)
class ReachArea:
    """Where a figure's centre can get this activation by any route (7.4, 8.2)."""

    area: BaseGeometry
    """Within the whole allowance."""
    near: BaseGeometry
    """Within half of it: the table shades the two by cost."""
    allowance: float


@dataclass(frozen=True, slots=True)
class ReachedSpot:
    """A spot of the roadmap (a corner, a door's or window's side) a figure reaches."""

    point: Point2
    cost: float
    """What the cheapest way there costs (7.4: woods double, doors 2", windows 4")."""
    way: tuple[Point2, ...]
    """That way, from where the figure stands; two points: a straight run."""


def _known_run_costs(terrain: _Terrain, a: Ints, b: Ints) -> Floats:
    """:func:`_run_costs` of the runs between the roadmap's spots ``a[k]`` and ``b[k]``
    (``a < b``), each costed once per terrain and then remembered."""
    count = len(terrain.nodes)
    if count > DENSE_RUNS:  # a huge roadmap: not remembered (N x N would not fit)
        return _run_costs(terrain, terrain.nodes[a], terrain.nodes[b])
    if terrain.runs is None:
        terrain.runs = np.full((count, count), math.nan)
    known = terrain.runs
    cost: Floats = known[a, b]
    todo = np.flatnonzero(np.isnan(cost))
    if len(todo):
        fresh = _run_costs(terrain, terrain.nodes[a[todo]], terrain.nodes[b[todo]])
        cost[todo] = fresh
        known[a[todo], b[todo]] = fresh
    return cost


def reach_costs(
    battlefield: Battlefield,
    start: Point2,
    allowance: float,
    rules: RulesOptions,
    *,
    radius: float = 0.5,
    index: TerrainIndex | None = None,
) -> list[ReachedSpot]:
    """Where a figure standing at ``start`` gets with ``allowance`` inches among the
    roadmap's spots, by the cheapest ways (Dijkstra), the figure's own spot first.

    Only the spots within ``allowance`` of ``start`` can be reached, so only the runs
    among them are costed (a few dozen on a busy table, not the whole roadmap): what a
    figure's reach needs, quickly, for the table's reach area (:func:`reach_area`) and
    the program's players' candidate spots alike (one engine, issue 31)."""
    index = index or build_index(battlefield, rules, raster=False)
    table = battlefield.table
    terrain = _terrain(index, table.width, table.height, radius, False, joined=False)
    start = (float(start[0]), float(start[1]))
    key = (start[0], start[1], float(allowance))
    known = terrain.reached.get(key)
    if known is None:
        known = tuple(_reach_costs(terrain, start, float(allowance), radius))
        if len(terrain.reached) >= KNOWN_REACHES:
            terrain.reached.clear()
        terrain.reached[key] = known
    return list(known)


def _reach_costs(
    terrain: _Terrain, start: Point2, allowance: float, radius: float
) -> list[ReachedSpot]:
    """:func:`reach_costs` worked out."""
    if not len(terrain.nodes):
        return [ReachedSpot(start, 0.0, (start,))]
    near = np.flatnonzero(
        np.hypot(terrain.nodes[:, 0] - start[0], terrain.nodes[:, 1] - start[1]) <= allowance + 1e-9
    )
    nodes = np.vstack([[start], terrain.nodes[near]])
    rings = np.vstack([[[*start, *start]], terrain.rings[near]])
    count = len(nodes)
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    if count > 1:
        ii, jj = np.triu_indices(count, 1)
        taut = _tangent(nodes, rings, ii, jj)
        if _hugs(terrain, start, radius):
            taut[ii == 0] = True  # every run out of a notch or off a wall (see _hugs)
        ii, jj = ii[taut], jj[taut]
        spare = (start, radius + GRAZE)  # a base against a wall steps off it (as route)
        weights = np.empty(len(ii))
        first = ii == 0
        weights[first] = _run_costs(terrain, nodes[ii[first]], nodes[jj[first]], spare=spare)
        weights[~first] = _known_run_costs(terrain, near[ii[~first] - 1], near[jj[~first] - 1])
        ok = np.isfinite(weights) & (weights <= allowance + 1e-9)
        graph.add_weighted_edges_from(
            zip(ii[ok].tolist(), jj[ok].tolist(), weights[ok].tolist(), strict=True)
        )
    costs, paths = nx.single_source_dijkstra(graph, 0, cutoff=allowance, weight="weight")
    out = []
    for k in sorted(costs):  # the figure's own spot first, then the roadmap's order
        way = tuple((float(nodes[n][0]), float(nodes[n][1])) for n in paths[k])
        out.append(ReachedSpot(way[-1], float(costs[k]), way))
    return out


def reach_area(
    battlefield: Battlefield,
    start: Point2,
    allowance: float,
    rules: RulesOptions,
    *,
    radius: float = 0.5,
    index: TerrainIndex | None = None,
    bases: Sequence[tuple[float, float, float]] = (),
    rays: int = REACH_RAYS,
) -> ReachArea:
    """The area the centre reaches by any route with ``allowance`` inches (issue 31,
    Deliver 2): the roadmap's spots are costed from ``start`` (Dijkstra, cut off at the
    allowance), and from ``start`` and each spot reached straight runs fan out with the
    movement left (:func:`crdesk.geometry.movement.rays_reach`: woods, doors, windows,
    walls and rock as a move meets them).  Round a corner, through a door: all of it."""
    index = index or build_index(battlefield, rules, raster=False)
    table = battlefield.table
    start = (float(start[0]), float(start[1]))
    reached = reach_costs(battlefield, start, allowance, rules, radius=radius, index=index)
    fans: list[tuple[Point2, float]] = sorted(
        (spot.point, allowance - spot.cost)
        for spot in reached
        if allowance - spot.cost >= REACH_MIN_LEFT
    )
    whole: list[BaseGeometry] = []
    half: list[BaseGeometry] = []
    for origin, left in fans:
        for part, budget in ((whole, left), (half, left - allowance / 2)):
            if budget < REACH_MIN_LEFT:
                continue
            ends = [
                (
                    origin[0] + budget * math.sin(2 * math.pi * k / rays),
                    origin[1] - budget * math.cos(2 * math.pi * k / rays),
                )
                for k in range(rays)
            ]
            got = rays_reach(battlefield, origin, ends, budget, rules, index=index, radius=radius)
            fan = _fan(origin, [r.point for r in got])
            if not fan.is_empty:
                part.append(fan)
    area = shapely.union_all(whole) if whole else Polygon()
    near = shapely.union_all(half) if half else Polygon()
    for x, y, r in bases:  # no base stands on another
        disc = Point(x, y).buffer(r + radius, quad_segs=8)
        area, near = area.difference(disc), near.difference(disc)
    bounds = Polygon(
        [
            (radius, radius),
            (table.width - radius, radius),
            (table.width - radius, table.height - radius),
            (radius, table.height - radius),
        ]
    )
    return ReachArea(area.intersection(bounds), near.intersection(bounds), allowance)


def _fan(origin: Point2, ends: Sequence[Point2]) -> BaseGeometry:
    """The area swept by rays from ``origin`` to ``ends`` (in order round it), kept on the
    safe side: each sector between two neighbouring rays reaches only as far as the
    shorter of them, so no sector cuts across the wall that stopped one of them."""
    ox, oy = origin
    count = len(ends)
    lengths = [math.dist(origin, e) for e in ends]
    units = [
        ((ex - ox) / d, (ey - oy) / d) if d > 1e-9 else (0.0, 0.0)
        for (ex, ey), d in zip(ends, lengths, strict=True)
    ]
    ring: list[Point2] = []
    for k in range(count):
        nxt = (k + 1) % count
        reach = min(lengths[k], lengths[nxt])
        (ux, uy), (vx, vy) = units[k], units[nxt]
        ring.append((ox + ux * reach, oy + uy * reach))
        ring.append((ox + vx * reach, oy + vy * reach))
    return Polygon(ring).buffer(0)


def prepare(
    battlefield: Battlefield,
    rules: RulesOptions,
    index: TerrainIndex,
    radii: Sequence[float] = (0.5,),
) -> None:
    """Build the terrain's roadmap for bases of ``radii`` now (the play mode does it on a
    background thread when a game starts, so the first drag does not wait for it)."""
    table = battlefield.table
    for radius in sorted(set(radii)):
        _terrain(index, table.width, table.height, radius, False)
