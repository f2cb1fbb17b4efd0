"""How far a group is from where it is going, on foot: the tactical player's field of
walking cost over the table (7.4: woods and wooded hills at half speed, buildings
slow, impassable ground a long way round), relaxed cell by cell from the goal
(the compiled :func:`crdesk.geometry.kernels.nav_relax`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import shapely

from crdesk.game.controller import Game
from crdesk.geometry import kernels
from crdesk.model import Figure, TerrainKind

Point2 = tuple[float, float]
Rect = tuple[float, float, float, float]
Floats = npt.NDArray[np.float64]

NAV_CELL = 1.0
"""Inches a side of the navigation grid's cells (:func:`way_to`)."""
NAV_COST = {TerrainKind.WOODS: 2.0, TerrainKind.WOODED_HILL: 2.0, TerrainKind.BUILDING: 6.0}
"""Cost of crossing a cell of the terrain, per inch (woods half speed, 7.4; buildings only
by their doors and windows, so best gone round)."""
NAV_IMPASSABLE = 50.0
"""Cost per inch of impassable ground (a base's margin round it included): not infinite,
so that a figure pressed against rock still finds the way out of it the cheapest."""
NAV_MARGIN = 0.5
"""Half a base: how near impassable ground a figure's centre can stand."""
NAV_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _nav_costs(game: Game) -> Floats:
    """(rows, cols) cost per inch of each grid cell (impassable ground, with a base's
    margin, :data:`NAV_IMPASSABLE`); cached per terrain index."""
    index = game.vis.index
    found = index.cache.get("tactical_nav_costs")
    if isinstance(found, np.ndarray):
        return found
    table = game.battlefield.table
    cols, rows = math.ceil(table.width / NAV_CELL), math.ceil(table.height / NAV_CELL)
    xs = (np.arange(cols) + 0.5) * NAV_CELL
    ys = (np.arange(rows) + 0.5) * NAV_CELL
    gx, gy = np.meshgrid(xs, ys)
    cost = np.ones((rows, cols), dtype=np.float64)
    for n, kind in enumerate(index.kinds):
        if kind in NAV_COST:
            inside = shapely.contains_xy(index.outlines[n], gx, gy)
            cost[inside] = np.maximum(cost[inside], NAV_COST[kind])
    union = index.impassable_union
    if union is not None:
        # a cell is rock when no base's centre fits anywhere in it (all of it within half
        # a base of impassable ground), not when its centre alone does not: a pass a base
        # walks through (7.4) stays open however it falls across the cells
        shut = union.buffer(NAV_MARGIN)
        shapely.prepare(shut)
        boxes = shapely.box(
            gx - NAV_CELL / 2, gy - NAV_CELL / 2, gx + NAV_CELL / 2, gy + NAV_CELL / 2
        )
        cost[shapely.covered_by(boxes, shut)] = NAV_IMPASSABLE
    index.cache["tactical_nav_costs"] = cost
    return cost


def _nav_field(game: Game, area: Rect) -> Floats:
    """(rows, cols) inches of travel from each cell's centre to ``area``, round impassable
    ground and through woods at double cost: the grid's eight neighbours relaxed until
    nothing changes (compiled sweeps once the kernels are ready, else whole arrays at a
    time: the same field either way); cached per terrain index and goal."""
    index = game.vis.index
    cache = index.cache.get("tactical_nav")
    if not isinstance(cache, dict):
        cache = {}
        index.cache["tactical_nav"] = cache
    key = tuple(round(v, 3) for v in area)
    found = cache.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    cost = _nav_costs(game)
    rows, cols = cost.shape
    xs = (np.arange(cols) + 0.5) * NAV_CELL
    ys = (np.arange(rows) + 0.5) * NAV_CELL
    gx, gy = np.meshgrid(xs, ys)
    centres = np.column_stack([gx.ravel(), gy.ravel()])
    start = rect_distance(centres, area).reshape(rows, cols)
    field = np.where((start <= NAV_CELL) & np.isfinite(cost), start, np.inf)
    if kernels.usable():
        kernels.nav_relax(field, cost, NAV_CELL)  # the same field, in a few compiled sweeps
    else:
        field = _relax(field, cost)
    if len(cache) > 64:
        cache.clear()
    cache[key] = field
    return field


def _relax(field: Floats, cost: Floats) -> Floats:
    """The numpy route of :func:`crdesk.geometry.kernels.nav_relax`: every cell's eight
    neighbours relaxed at once, whole arrays at a time, until nothing changes."""
    rows, cols = field.shape
    for _ in range(rows * cols):
        before = field
        field = field.copy()
        for dr, dc in NAV_STEPS:
            step = math.hypot(dr, dc) * NAV_CELL
            src = before[max(0, -dr) : rows - max(0, dr), max(0, -dc) : cols - max(0, dc)]
            there = cost[max(0, dr) : rows - max(0, -dr), max(0, dc) : cols - max(0, -dc)]
            here = cost[max(0, -dr) : rows - max(0, dr), max(0, -dc) : cols - max(0, dc)]
            via = src + step * (there + here) / 2
            view = field[max(0, dr) : rows - max(0, -dr), max(0, dc) : cols - max(0, -dc)]
            np.minimum(view, via, out=view)
        if np.array_equal(field, before):
            break
    return field


def blocked_way(game: Game, fig: Figure, area: Rect) -> bool:
    """Whether impassable ground lies on the straight line from the figure to its goal."""
    union = game.vis.index.impassable_union
    if union is None:
        return False
    goal = nearest_in(area, (fig.x, fig.y))
    if math.hypot(goal[0] - fig.x, goal[1] - fig.y) < 1e-6:
        return False
    return bool(union.intersects(shapely.LineString([(fig.x, fig.y), goal])))


def way_to(game: Game, area: Rect, points: Floats) -> Floats:
    """(P,) inches of travel from each point to ``area`` by the navigation grid (round
    what a straight line would run into), 0 inside it; where the grid knows no way, the
    straight distance."""
    straight = rect_distance(points, area)
    if not len(points):
        return straight
    field = _nav_field(game, area)
    rows, cols = field.shape
    best = np.full(len(points), np.inf)
    fx = points[:, 0] / NAV_CELL - 0.5
    fy = points[:, 1] / NAV_CELL - 0.5
    for ox in (0, 1):
        for oy in (0, 1):
            c = np.clip(np.floor(fx).astype(np.int64) + ox, 0, cols - 1)
            r = np.clip(np.floor(fy).astype(np.int64) + oy, 0, rows - 1)
            cx = (c + 0.5) * NAV_CELL
            cy = (r + 0.5) * NAV_CELL
            best = np.minimum(best, field[r, c] + np.hypot(points[:, 0] - cx, points[:, 1] - cy))
    out = np.where(np.isfinite(best), np.maximum(best, straight), straight)
    return np.where(straight <= 1e-9, 0.0, out)


def rect_distance(points: npt.NDArray[np.float64], area: Rect) -> npt.NDArray[np.float64]:
    """Each point's distance to the area (0 inside it)."""
    x0, y0, x1, y1 = area
    dx = np.maximum(np.maximum(x0 - points[:, 0], points[:, 0] - x1), 0.0)
    dy = np.maximum(np.maximum(y0 - points[:, 1], points[:, 1] - y1), 0.0)
    return np.hypot(dx, dy)


def nearest_in(area: Rect, p: Point2) -> Point2:
    """The point of the area nearest ``p``."""
    return (min(max(p[0], area[0]), area[2]), min(max(p[1], area[1]), area[3]))
