"""Distances and shapes: base-to-base distance, range, charge direction, arc of fire, blasts.

All distances are inches, measured base edge to base edge (digest 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from crdesk.geometry.terrain_index import GRAZE, Role, TerrainIndex, build_index
from crdesk.model import Battlefield, Figure
from crdesk.options import RulesOptions

Point2 = tuple[float, float]


def bearing(a: Point2, b: Point2) -> float:
    """Facing from a to b: 0 towards the far edge (-y), 90 to the right, clockwise."""
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0


def nearest_on_path(path: Sequence[Point2], point: Point2) -> tuple[int, float]:
    """Where ``path`` passes nearest ``point``: the number of its leg there and how far
    along the whole path that is (the first such leg on a tie).  A move an In Sight
    stops (7.6) ends on its path: this finds how much of it was walked."""
    best, best_along, best_d, done = max(len(path) - 2, 0), 0.0, math.inf, 0.0
    for k in range(len(path) - 1):
        (x0, y0), (x1, y1) = path[k], path[k + 1]
        seg = math.hypot(x1 - x0, y1 - y0)
        u = 0.0
        if seg > 0:
            u = ((point[0] - x0) * (x1 - x0) + (point[1] - y0) * (y1 - y0)) / (seg * seg)
            u = min(1.0, max(0.0, u))
        d = math.hypot(x0 + u * (x1 - x0) - point[0], y0 + u * (y1 - y0) - point[1])
        if d < best_d - 1e-9:
            best, best_along, best_d = k, done + u * seg, d
        done += seg
    return best, best_along


def walked_to(path: Sequence[Point2], end: Point2) -> list[Point2]:
    """The corners of ``path`` up to ``end`` (a point on it, where the move stopped) and
    ``end`` itself: the way a figure walked (straight from the start without a path)."""
    if len(path) < 2:
        return [*path[:1], end]
    leg, _along = nearest_on_path(path, end)
    return [*path[: leg + 1], end]


def base_distance(a: Figure, b: Figure) -> float:
    """Distance between two bases, edge to edge; 0 when they touch or overlap (digest 1)."""
    return max(math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius, 0.0)


def distance_to_point(fig: Figure, point: Point2) -> float:
    """Distance from the edge of a base to a spot on the table."""
    return max(math.hypot(fig.x - point[0], fig.y - point[1]) - fig.radius, 0.0)


def in_range(shooter: Figure, target: Figure, weapon_range: float) -> bool:
    """Is the target within the weapon's range (table 7.9), base to base?"""
    return base_distance(shooter, target) <= weapon_range


def _front(fig: Figure, point: Point2) -> float:
    fx, fy = fig.facing_vector()
    return fx * (point[0] - fig.x) + fy * (point[1] - fig.y)


def in_front(fig: Figure, point: Point2) -> bool:
    """Is the point in the figure's front 180° (digest 1)?  Points on the side line are not."""
    return _front(fig, point) > 0.0


def out_of_arc(viewer: Figure, point: Point2, radius: float = 0.0) -> bool:
    """Does a base of ``radius`` at ``point`` stand wholly behind the viewer (7.9.4)?

    LOS is only to a figure's front, a 180° arc: the sight engine's test
    (:mod:`crdesk.geometry.los`), no part of the base more than :data:`GRAZE`
    ahead of the line across the viewer's facing.  ``radius`` 0 is a spot on
    the table (a PEF, 11.3).  Out of arc is never seen, whatever the terrain; in
    arc may still be hidden by it.
    """
    return _front(viewer, point) <= GRAZE - radius


COMPASS = (
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
)
"""The eight points by facing: north is the far edge (facing 0), east the right (90)."""


def compass(facing: float) -> str:
    """A facing in words, to the nearest of eight points ("north" is towards the far edge).

    A player reads "faces north-east" at a glance where 47° needs a protractor;
    the table's far edge is north as on a map (digest 1: facing 0 is -y).
    """
    return COMPASS[round((facing % 360.0) / 45.0) % 8]


class ChargeDirection(StrEnum):
    """Where a charge comes from, for the Charge into Melee test 7.11.2."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


def charge_direction(
    target: Figure, start: Point2, end: Point2, rules: RulesOptions
) -> ChargeDirection:
    """Front, flank or rear (digest 1 and its Interpretation).

    Rear only if the charger starts *and* ends behind the target's front;
    flank if it starts outside the front cone (±``flank_half_angle`` of the
    facing) but not to the rear, when the ``flank_is_outside_front_cone``
    option is on.
    """
    if _front(target, start) < 0 and _front(target, end) < 0:
        return ChargeDirection.REAR
    interp = rules.interpretations
    if interp.flank_is_outside_front_cone:
        fx, fy = target.facing_vector()
        dx, dy = start[0] - target.x, start[1] - target.y
        norm = math.hypot(dx, dy)
        if norm > 0:
            cos = (fx * dx + fy * dy) / norm
            angle = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
            if angle > interp.flank_half_angle + 1e-9:
                return ChargeDirection.FLANK
    return ChargeDirection.FRONT


def arc_of_fire(
    shooter: Figure,
    first: Figure,
    candidates: Sequence[Figure],
    width: float,
    side: Literal["left", "right"],
    eligible: Callable[[Figure], bool] | None = None,
) -> list[Figure]:
    """Figures that may be targeted inside an arc ``width`` inches wide (7.9.7), in order.

    The first target fixes one end of the arc; the arc is a band ``width``
    inches wide (1" per point of Target), parallel to the line from the
    shooter to the first target and extending to its ``left`` or ``right`` as
    the shooter sees it.  A figure is inside when any part of its base is, and
    it is in front of the shooter.  The first target comes first, then the
    others by how far across the arc they stand, nearest first.
    ``eligible`` (e.g. "in sight and an enemy") filters the candidates.
    """
    ux, uy = first.x - shooter.x, first.y - shooter.y
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    nx, ny = (-uy, ux) if side == "right" else (uy, -ux)
    picked: list[tuple[float, float, Figure]] = []
    for fig in candidates:
        if fig.id in (shooter.id, first.id):
            continue
        if eligible is not None and not eligible(fig):
            continue
        ahead = (fig.x - shooter.x) * ux + (fig.y - shooter.y) * uy
        across = (fig.x - first.x) * nx + (fig.y - first.y) * ny
        if ahead <= 0 or across + fig.radius <= 0 or across - fig.radius >= width:
            continue
        picked.append((across, ahead, fig))
    picked.sort(key=lambda t: (t[0], t[1]))
    return [first] + [f for _, _, f in picked]


def blast_members(centre: Point2, figures: Sequence[Figure], rules: RulesOptions) -> list[Figure]:
    """Figures whose base is wholly or partly inside the blast circle (7.10.5).

    The radius follows the scale and the blast-size interpretation
    (:attr:`RulesOptions.blast_radius`); a base merely touching the circle is
    not inside (grazing rule).
    """
    r = rules.blast_radius
    if not figures:
        return []
    xs = np.array([f.x for f in figures])
    ys = np.array([f.y for f in figures])
    rad = np.array([f.radius for f in figures])
    inside = np.hypot(xs - centre[0], ys - centre[1]) < r + rad - GRAZE
    return [f for f, ok in zip(figures, inside, strict=True) if ok]


@dataclass(frozen=True, slots=True)
class BlastCover:
    """Whether Cover lies between a blast centre and a figure (7.10.6), and what."""

    covered: bool
    by: str | None = None


def cover_from_blast(
    battlefield: Battlefield,
    centre: Point2,
    figure: Figure,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
) -> BlastCover:
    """Is there Cover between the blast centre and this figure (7.10.6)?

    The segment from the centre to the figure's centre is checked against
    everything that gives Cover: walls, rubble and vehicles; building walls
    and woods (unless centre and figure share that building or woods); hill
    crests; impassable ground; and any other standing figure whose base it
    crosses ("a figure standing between counts as Cover").  Grazing contacts
    do not count.
    """
    index = index or build_index(battlefield, rules, raster=False)
    seg = LineString([centre, (figure.x, figure.y)])
    c_pt, f_pt = Point(centre), Point(figure.x, figure.y)
    hits = index.tree.query(seg, predicate="intersects")
    for g in sorted(hits.tolist(), key=lambda g: float(shapely.distance(index.geoms[g], c_pt))):
        n = int(index.geom_feature[g])
        role = int(index.geom_role[g])
        if role in (Role.WOODS, Role.BUILDING):
            outline = index.outlines[n]
            if outline.contains(c_pt) and outline.contains(f_pt):
                continue
        return BlastCover(True, index.features[n])
    for other in battlefield.figures():
        if other.id == figure.id or other.prone or not other.status.can_act:
            continue
        crossed = shapely.distance(seg, Point(other.x, other.y)) < other.radius - GRAZE
        # a figure standing on the blast centre is not "between"
        if crossed and math.hypot(other.x - centre[0], other.y - centre[1]) >= other.radius:
            return BlastCover(True, other.id)
    return BlastCover(False)
