"""Spots for the non-player AI: candidate places a figure can reach, judged by the sight engine.

Table 11.4 orders NP groups to "move to Cover from which it can fire at the
closest player group", "remain in Cover or move to the nearest Cover" or to
encircle a flank "staying in Cover if possible".  Those orders are made real
here, Killzone-style: generate candidate spots, drop the ones the figure cannot
reach, judge every candidate against every player figure with the same sight
engine the game uses (:meth:`crdesk.visibility.VisibilityService.spots`), and let the caller
score them.

Candidates (:func:`candidates`) lie on :data:`RAYS` straight rays out from the
figure, every :data:`RING_STEP` inches up to where
:func:`~crdesk.geometry.movement.farthest_along` says the figure's movement runs
out (woods cost double, doors 2", windows 4"; walls, impassable ground and the
table edge stop it), plus the ray's end and the figure's own spot.  Along a
straight ray the cost only grows, so every candidate is reachable by a straight
move within the movement left; a candidate on another standing figure's base is
dropped.  After them come the spots reached only by bending the way -- round a
rock's end, in by a door -- at that way's cost, found by the same engine as the
table's reach area (:func:`crdesk.geometry.routing.reach_costs`, issue 31), and
moved to along it (:func:`move_there`).

Judging (:func:`judge`): each candidate is the figure itself (its base, Rep,
weapon) standing there, the other figures where they stand (blocking sight as
the rules options say), all facings ignored -- the figure turns to face its
target when it gets there, and "in Cover from" a player figure is judged as if
that figure looked at the spot (the Cover the spot gives does not depend on
where the viewer happens to face).  The figure is judged stationary: the
7.9.5 "moving" concealment lasts only while its activation lasts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely

from crdesk.game import duck_back
from crdesk.game.actions import Move
from crdesk.game.controller import Game
from crdesk.geometry import kernels, movement, routing
from crdesk.geometry.terrain_index import GRAZE, TerrainIndex
from crdesk.model import Figure, TerrainKind

Point2 = tuple[float, float]

RAYS = 32
"""Directions searched around the figure (every 11.25°)."""
RING_STEP = 1.0
"""Inches between candidates along a ray."""
MIN_MOVE = 0.5
"""A spot nearer than this to where the figure stands counts as staying put."""


@dataclass(frozen=True, slots=True)
class Spots:
    """Candidate spots of one figure judged against every player figure that can act.

    Row ``i`` is a candidate, column ``j`` the player figure ``targets[j]``.
    Row 0 is the figure's own spot.
    """

    figure: str
    points: npt.NDArray[np.float64]
    """(P, 2) candidate centres."""
    travel: npt.NDArray[np.float64]
    """(P,) what the move there costs: a straight run's length, or a routed way's cost
    (round a corner, through a door: :func:`candidates`)."""
    targets: tuple[str, ...]
    sees: npt.NDArray[np.bool_]
    """(P, T) the figure at the spot has LOS to the target (7.9.4)."""
    seen: npt.NDArray[np.bool_]
    """(P, T) the target has LOS to the figure at the spot."""
    cover: npt.NDArray[np.bool_]
    """(P, T) the figure at the spot is in Cover from the target (where it is seen)."""
    distance: npt.NDArray[np.float64]
    """(P, T) base to base, inches."""

    def __len__(self) -> int:
        return len(self.travel)

    @property
    def exposed(self) -> npt.NDArray[np.int64]:
        """(P,) how many player figures would see the figure there *not* in Cover."""
        return (self.seen & ~self.cover).sum(axis=1)  # type: ignore[no-any-return]

    def columns(self, ids: set[str] | frozenset[str]) -> npt.NDArray[np.int64]:
        return np.array([j for j, t in enumerate(self.targets) if t in ids], dtype=np.int64)

    def point(self, i: int) -> Point2:
        return (float(self.points[i, 0]), float(self.points[i, 1]))


def candidates(game: Game, fig: Figure, allowance: float) -> tuple[list[Point2], list[float]]:
    """Spots the figure can reach with a straight move of at most ``allowance`` inches
    of movement (its own spot first), and the length of each move."""
    bf = game.battlefield
    index = game.vis.index
    here = (fig.x, fig.y)
    points: list[Point2] = [here]
    travel: list[float] = [0.0]
    if allowance < MIN_MOVE:
        return points, travel
    others = np.array(
        [
            (o.x, o.y, o.radius + fig.radius)
            for o in bf.figures()
            if o.id != fig.id and o.status.can_act
        ],
        dtype=np.float64,
    ).reshape(-1, 3)
    rays = _ray_cache(index)
    keys = [(fig.x, fig.y, fig.radius, allowance, k) for k in range(RAYS)]
    todo = [k for k in range(RAYS) if keys[k] not in rays]
    plain: list[float | None] = [None] * RAYS
    if todo:
        ends = _ray_ends(fig, allowance)
        plain = _plain_rays(game, fig, allowance, ends)
        walk = [k for k in todo if plain[k] is None]
        reached = movement.rays_reach(
            bf, here, [ends[k] for k in walk], allowance, game.rules, index=index, radius=fig.radius
        )
        for k, reach in zip(walk, reached, strict=True):
            plain[k] = math.hypot(reach.point[0] - fig.x, reach.point[1] - fig.y)
        for k in todo:
            if len(rays) < RAY_CACHE_LIMIT:
                rays[keys[k]] = float(plain[k])  # type: ignore[arg-type]
    got = np.empty(RAYS, dtype=np.float64)
    for k in range(RAYS):
        known = rays.get(keys[k])
        got[k] = float(plain[k]) if known is None else known  # type: ignore[arg-type]
    found = _ray_spots(fig, got)
    found = [p for p, good in zip(found, _off_bases(found, others), strict=True) if good]
    for p in found:
        points.append(p)
        travel.append(math.hypot(p[0] - fig.x, p[1] - fig.y))
    if ROUTED_SPOTS:
        points, travel = _round_the_corner(game, fig, allowance, points, travel, others)
    return points, travel


ROUTED_SPOTS = True
"""Whether the candidates include the spots reached round a corner or through a door
(issue 31: the table's reach area and the program's players share one engine,
:func:`crdesk.geometry.routing.reach_costs`); off, only straight moves (as before)."""


def move_there(game: Game, fid: str, spot: Point2, facing: float) -> Move | None:
    """The move that takes ``fid`` to a candidate ``spot`` (turning to ``facing``), or
    None when the controller refuses it: the straight run, else (a spot round a corner,
    :data:`ROUTED_SPOTS`) along the way :func:`candidates` found to it."""
    straight = Move(fid, (spot,), facing)
    if game.legal(straight) is None:
        return straight
    if not ROUTED_SPOTS:
        return None
    fig = game.fig(fid)
    way = _way_cache(game.vis.index).get((fig.x, fig.y, fig.radius, spot[0], spot[1]))
    if way is None:
        return None
    bent = Move(fid, way[1:], facing)
    return bent if game.legal(bent) is None else None


def _way_cache(
    index: TerrainIndex,
) -> dict[tuple[float, float, float, float, float], tuple[Point2, ...]]:
    """The ways to the spots round a corner, by where the figure stands and the spot
    (per terrain index, like the rays: the terrain alone decides them)."""
    cache = index.cache.get("solo_ways")
    if not isinstance(cache, dict):
        cache = {}
        index.cache["solo_ways"] = cache
    return cache


def _off_bases(spots: list[Point2], others: npt.NDArray[np.float64]) -> list[bool]:
    """Which spots lie on no other standing figure's base (``others``: x, y and the two
    radii added), all at once."""
    if not spots or not len(others):
        return [True] * len(spots)
    at = np.array(spots, dtype=np.float64)
    gaps = np.hypot(at[:, None, 0] - others[None, :, 0], at[:, None, 1] - others[None, :, 1])
    return np.asarray((gaps >= others[None, :, 2] - 1e-6).all(axis=1), dtype=bool).tolist()  # type: ignore[no-any-return]


def _round_the_corner(
    game: Game,
    fig: Figure,
    allowance: float,
    points: list[Point2],
    travel: list[float],
    others: npt.NDArray[np.float64],
) -> tuple[list[Point2], list[float]]:
    """The straight rays' candidates and, after them, the roadmap's spots (a corner, a
    door's or window's side) the figure reaches only by bending its way (7.4, 8.2), at
    what that way costs; the way is kept for :func:`move_there`."""
    reached = routing.reach_costs(
        game.battlefield,
        (fig.x, fig.y),
        allowance,
        game.rules,
        radius=fig.radius,
        index=game.vis.index,
    )
    bent = [
        spot
        for spot in reached
        # a straight run's spot: the rays have those
        if len(spot.way) > 2 and MIN_MOVE <= spot.cost <= allowance
    ]
    spots = [(round(spot.point[0], 3), round(spot.point[1], 3)) for spot in bent]
    for spot, p, good in zip(bent, spots, _off_bases(spots, others), strict=True):
        if not good:
            continue
        points.append(p)
        travel.append(spot.cost)
        ways = _way_cache(game.vis.index)
        if len(ways) < RAY_CACHE_LIMIT:
            ways[(fig.x, fig.y, fig.radius, p[0], p[1])] = (*spot.way[:-1], p)
    return points, travel


def _ray_spots(fig: Figure, reach: npt.NDArray[np.float64]) -> list[Point2]:
    """The candidates along each ray, ray by ray, nearest first: every :data:`RING_STEP`
    inches and the ray's end (``reach[k]`` inches out), none nearer than :data:`MIN_MOVE`,
    rounded to 0.001"."""
    # stop a hair short of what stopped the ray, so the move's cost stays within it
    got = np.maximum(reach - 1e-3, 0.0)
    steps = np.floor(got / RING_STEP).astype(np.int64)
    width = int(steps.max()) + 1 if len(steps) else 1
    # row k: the whole steps out to steps[k], then the ray's end if it is a real move on
    d = np.empty((RAYS, width + 1), dtype=np.float64)
    d[:, :width] = RING_STEP * np.arange(1, width + 1, dtype=np.float64)
    d[:, width] = got
    keep = np.zeros((RAYS, width + 1), dtype=bool)
    keep[:, :width] = np.arange(1, width + 1)[None, :] <= steps[:, None]
    keep[:, width] = got - RING_STEP * steps >= MIN_MOVE
    keep &= d >= MIN_MOVE
    ux, uy = _UNITS[:, 0:1], _UNITS[:, 1:2]
    xs = _round3((fig.x + d * ux)[keep])
    ys = _round3((fig.y + d * uy)[keep])
    return list(zip(xs, ys, strict=True))


def _round3(values: npt.NDArray[np.float64]) -> list[float]:
    """``round(v, 3)`` of each value, exactly: numpy's rounding (scale, round to an
    integer, divide) is the same except where the scaled value lies a hair from a half,
    and those few are rounded by Python."""
    scaled = values * 1000.0
    out = np.rint(scaled) / 1000.0
    near = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)
    for i in near.tolist():
        out[i] = round(float(values[i]), 3)
    return out.tolist()  # type: ignore[no-any-return]


def _ray_units() -> list[Point2]:
    """The rays' directions, every 360/RAYS degrees from the far edge, clockwise."""
    return [
        (math.sin(2.0 * math.pi * k / RAYS), -math.cos(2.0 * math.pi * k / RAYS))
        for k in range(RAYS)
    ]


_UNIT_LIST = _ray_units()
_UNITS = np.array(_UNIT_LIST, dtype=np.float64)
"""The rays' directions as a (RAYS, 2) array."""


def _ray_ends(fig: Figure, allowance: float) -> list[Point2]:
    """Where each ray would end with the whole allowance."""
    return [(fig.x + allowance * ux, fig.y + allowance * uy) for ux, uy in _UNIT_LIST]


def _plain_rays(
    game: Game, fig: Figure, allowance: float, ends: list[Point2]
) -> list[float | None]:
    """How far each ray goes when nothing on it costs or stops movement (None where
    something might): what :func:`~crdesk.geometry.movement.farthest_along` says for a
    ray whose segment meets no woods, building or impassable ground, found for all
    rays with one bulk query of the terrain tree instead of one walk per ray.

    Only the table edge can stop such a ray, where the base would leave the table."""
    index = game.vis.index
    lines = shapely.linestrings([[(fig.x, fig.y), end] for end in ends])
    hits = index.outline_tree.query(lines)
    costly = np.zeros(RAYS, dtype=bool)
    if hits.shape[1]:
        kinds = [index.kinds[n] for n in hits[1].tolist()]
        # impassable ground stops a base within its radius: its box is enough to doubt;
        # woods and buildings matter only where the ray meets their outline
        near = np.array([k is TerrainKind.IMPASSABLE for k in kinds], dtype=bool)
        meets = np.array(
            [k in _MOVE_KINDS and not n for k, n in zip(kinds, near, strict=True)], bool
        )
        if meets.any():
            outlines = np.array(index.outlines, dtype=object)
            pairs = np.flatnonzero(meets)
            meets[pairs] = shapely.intersects(lines[hits[0][pairs]], outlines[hits[1][pairs]])
        costly[hits[0][near | meets]] = True
    out: list[float | None] = []
    bf = game.battlefield
    for k in range(RAYS):
        if costly[k]:
            out.append(None)
            continue
        edge = movement.leaves_table(bf, (fig.x, fig.y), ends[k], fig.radius)
        out.append(allowance if edge is None else max(edge - GRAZE, 0.0))
    return out


_MOVE_KINDS = frozenset(
    {TerrainKind.IMPASSABLE, TerrainKind.WOODS, TerrainKind.WOODED_HILL, TerrainKind.BUILDING}
)
"""Terrain a straight move pays for or stops at (movement's ``_segment_events``)."""


RAY_CACHE_LIMIT = 50_000
"""Rays remembered per terrain index (figures stand on the same spots turn after turn)."""


def _ray_cache(index: TerrainIndex) -> dict[tuple[float, float, float, float, int], float]:
    """How far each ray goes, per terrain index: it depends on the terrain and the table
    edge only (other figures are checked per candidate), so a spot searched again -- a
    figure that did not move, the same figure planned twice -- costs no geometry."""
    cache = index.cache.get("solo_rays")
    if not isinstance(cache, dict):
        cache = {}
        index.cache["solo_rays"] = cache
    return cache


def judge(game: Game, fig: Figure, points: list[Point2], travel: list[float]) -> Spots:
    """Judge each spot (the figure standing there) against every player-side figure that
    can act, with the game's sight engine on the game's own route."""
    foe_side = game.enemy_of(fig.side)
    targets = tuple(
        o.id
        for o in game.battlefield.figures()
        if o.id != fig.id and o.side == foe_side and o.status.can_act
    )
    with kernels.pinned(game.sight_route):
        v = game.vis.spots(
            fig.id, points, targets, all_round=True, moving=False, friends_block=False
        )
    sees, seen = _unhidden(game, fig, targets, v.points, v.sees, v.seen, v.viewer_cover)
    return Spots(
        fig.id,
        v.points,
        np.array(travel, dtype=np.float64),
        targets,
        sees,
        seen,
        v.cover & seen,
        v.distance,
    )


def _unhidden(
    game: Game,
    fig: Figure,
    targets: tuple[str, ...],
    points: npt.NDArray[np.float64],
    sees: npt.NDArray[np.bool_],
    seen: npt.NDArray[np.bool_],
    viewer_cover: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The sight of each spot as the game will have it, Duck Back's hidden pairs
    included (7.4.4): a target that ducked back into Cover from the figure stays out of
    sight of it, both ways, from every spot where that Cover still holds (the game
    lifts the pair once the figure has moved where it does not); a figure that ducked
    back from a target stays hidden from it where it stands.  Judged on the bare
    geometry, the spot search saw a shot it would not have (kept Defends: enemies in
    Cover "with a shot" ended their activations without one)."""
    hidden = duck_back.hidden_pairs(game)
    if not hidden:
        return sees, seen
    sees, seen = sees.copy(), seen.copy()
    for j, tid in enumerate(targets):
        if (tid, fig.id) in hidden:  # the target ducked back from the figure
            still = ~sees[:, j] | viewer_cover[:, j]
            sees[still, j] = False
            seen[still, j] = False
        elif (fig.id, tid) in hidden:  # the figure ducked back from the target
            here = np.hypot(points[:, 0] - fig.x, points[:, 1] - fig.y) <= 1e-9
            sees[here, j] = False
            seen[here, j] = False
    return sees, seen


def spots_for(game: Game, fig: Figure, allowance: float) -> Spots:
    """:func:`candidates` judged by :func:`judge`."""
    points, travel = candidates(game, fig, allowance)
    return judge(game, fig, points, travel)
