"""Moving (7.4): a move walked step by step until an enemy comes into sight (7.6.2),
Fast Move (7.4.2), the free move of the group that triggered an In Sight test, and
what a move sees on its way -- PEFs and buildings in a solo game (11).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from crdesk.errors import IllegalActionError
from crdesk.game import buildings as building_rules
from crdesk.game import duck_back
from crdesk.game import in_sight as sighting
from crdesk.game import pefs as pef_rules
from crdesk.game import wounded as wounds
from crdesk.game.actions import Action, FastMove, Move, MoveTo, Pass, Point2
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.geometry import movement, routing
from crdesk.geometry.measure import bearing, nearest_on_path
from crdesk.model import Battlefield, Building, Figure, normal_facing
from crdesk.rules import activation as act_rules

WALK_STEP = 1.0
"""A move is walked in steps of this many inches, checking In Sight after each (7.6)."""
QUIET_WALKS = True
"""Judge the steps of a walk on which nothing can happen in one pass (the same play as
step by step; False walks every step, as a check)."""
WALK_REFINE = 3
"""Halvings of the last step once something comes into sight: stop within 1/8"."""
MAX_PATH_POINTS = 64
"""A move's path is a few corners round obstacles; a longer list is refused, not walked."""
FARTHEST_SLACK = 0.05
"""Inches short of the whole allowance the farthest point of a route beyond reach is put:
a move there, routed afresh from where the figure stands, is then surely paid for."""
FREE_MOVE = 2.0
"""The moving group's free move after In Sight is triggered (7.6)."""


def check_fast(t: Table, frame: Frame, act: FastMove) -> None:
    d = frame.data
    if d["fast"]:
        raise IllegalActionError("the group has already rolled its Fast Move (7.4.2)")
    if d["moved"]:
        raise IllegalActionError("Fast Move is declared before the group moves (7.4.2)")
    if len(set(act.figures)) != len(act.figures):
        raise IllegalActionError("name each fast mover once")
    for fid in act.figures:
        why = fast_problem(t, frame, t.member(frame, fid))
        if why is not None:
            raise IllegalActionError(why)


def fast_problem(t: Table, frame: Frame, fig: Figure) -> str | None:
    """Why the figure may not be named a Fast Mover now, or None: prone, or
    reloading this activation (Reload and Fast Move exclude each other, 7.9.2)."""
    if fig.prone:
        return f"{fig.name} is prone and cannot Fast Move"
    if fig.id in frame.data["reloading"]:
        return (
            f"{fig.name} is reloading this activation: it moves no more than its normal "
            "move, so it cannot Fast Move (7.9.2)"
        )
    return None


def fast_move(t: Table, frame: Frame, act: FastMove) -> None:
    d = frame.data
    carrying = t.state["carrying"]
    movers = [
        act_rules.FastMover(t.fig(f).name, t.fig(f).rep, f in carrying, id=f) for f in act.figures
    ]
    res = act_rules.fast_move(t.roll(), movers)
    d["fast"] = True
    for f in res.figures:
        d["allow"][f.id] = float(f.distance)
        t.battlefield.update_figure(f.id, fast_moving=True)
    t.emit("fast_move", res.explain(), result=res, figures=act.figures)


def path_of(t: Table, fig: Figure, act: Move) -> list[Point2]:
    path = [(fig.x, fig.y), *act.path]
    if len(path) >= 2 and path[1] == path[0]:
        path.pop(0)
    return path


@dataclass(frozen=True, slots=True)
class RoutePlan:
    """What a move "to" a spot would do (7.4, 8.2): the :class:`Move` to play, or why
    not, with the way there and how far the figure gets along it."""

    move: Move | None
    why: str | None
    route: tuple[Point2, ...] = ()
    """The way to the spot (from where the figure stands), when there is one."""
    cost: float = 0.0
    allowance: float = 0.0
    farthest: Point2 | None = None
    """Where the figure gets along the route with the movement it has (beyond reach)."""
    routed: bool = False
    """False: the straight run (legal and paid for), as a tape measure moves it."""


Search = Literal["reach", "near", "table"]
"""How far a plan looks for a route beyond the figure's reach (:func:`plan_route`)."""


def plan_route(
    t: Table, frame: Frame, fig: Figure, act: MoveTo, *, search: Search = "table"
) -> RoutePlan:
    """The move to ``act.goal`` (issue 31).  **Interpretation** (crdesk's): a straight
    run that is legal and paid for is the move, as the tape measure goes; otherwise the
    cheapest legal route (:func:`crdesk.geometry.routing.route`: round walls, rock and
    bases, in and out by doors and windows).  Beyond reach nothing is played: the plan
    says how far along the route the figure gets.  Either way the move is checked by
    :func:`check_move` like any other.

    ``search``: "table" seeks the way however long (to say how far along it the figure
    gets); "near" only within about twice the reach (a group member's place, whose
    farthest point is worth having when it is near); "reach" only within reach (is it
    there or not).  A way not sought is "costs more"."""
    free = frame.kind != "activation"
    straight = Move(fig.id, (act.goal,), act.facing)
    try:
        check_move(t, frame, fig, straight, free=free)
        cost = movement.path_cost(
            t.battlefield, [(fig.x, fig.y), act.goal], t.rules, index=t.vis.index, radius=fig.radius
        )
        return RoutePlan(straight, None, ((fig.x, fig.y), act.goal), cost.cost)
    except IllegalActionError as exc:
        refused = str(exc)
    if fig.prone or "no movement left" in refused or "already made its free move" in refused:
        return RoutePlan(None, refused)
    if building_rules.upstairs_problem(t, fig, [(fig.x, fig.y), act.goal]) is not None:
        return RoutePlan(None, refused)  # out of the building: no route, by any door
    allowance = FREE_MOVE if free else t.movement_left(frame, fig.id)
    bases = standing_bases(t.battlefield, fig.id)

    def way_to(limit: float | None) -> routing.Route | None:
        return routing.route(
            t.battlefield,
            (fig.x, fig.y),
            act.goal,
            t.rules,
            radius=fig.radius,
            index=t.vis.index,
            bases=bases,
            limit=limit,
        )

    # the routes it can pay for first (quick); beyond that, the way to say how far along
    # it the figure gets: within a wider reach, and only then over the whole table
    way: routing.Route | None = None
    wider = max(2 * allowance, 1.5 * math.dist((fig.x, fig.y), act.goal) + allowance)
    limits: dict[str, tuple[float | None, ...]] = {
        "reach": (allowance,),
        "near": (allowance, wider),
        "table": (allowance, wider, None),
    }
    for limit in limits[search]:
        way = way_to(limit)
        if way is not None and (limit is None or way.cost.cost <= limit + 1e-6):
            break
    spot = f"({act.goal[0]:.1f}, {act.goal[1]:.1f})"
    longest = limits[search][-1]
    if longest is not None and way is not None and way.cost.cost > longest + 1e-6:
        return RoutePlan(
            None,
            f'{fig.name} has {allowance:.1f}" of movement left; the way to {spot} costs '
            f'more than {longest:.1f}"',
        )
    if way is None:
        why = refused[len(fig.name) + 1 :] if refused.startswith(fig.name + " ") else refused
        return RoutePlan(None, f"{fig.name} has no way to {spot}: {why}")
    spend = way.cost.length if free else way.cost.cost
    if spend > allowance + 1e-6:
        reach = movement.farthest_along(
            t.battlefield,
            way.points,
            max(0.0, allowance - FARTHEST_SLACK),
            t.rules,
            index=t.vis.index,
            radius=fig.radius,
        )
        along = prefix_length(way.points, reach.point)
        at = point_at(way.points, free_spot(t, fig, way.points, along, 0.0))
        return RoutePlan(
            None,
            f'{fig.name} has {allowance:.1f}" of movement left; the way to {spot} costs '
            f'{spend:.1f}": it gets as far as ({at[0]:.1f}, {at[1]:.1f})',
            way.points,
            spend,
            allowance,
            at,
            routed=True,
        )
    move = Move(fig.id, way.points[1:], act.facing)
    try:
        check_move(t, frame, fig, move, free=free)
    except IllegalActionError as exc:
        return RoutePlan(None, str(exc), way.points, spend, allowance, routed=True)
    return RoutePlan(move, None, way.points, spend, allowance, routed=True)


def standing_bases(battlefield: Battlefield, fid: str) -> list[tuple[float, float, float]]:
    """(x, y, radius) of every standing figure but ``fid``: the bases a move of ``fid``
    goes round and may not end on (7.4)."""
    return [(o.x, o.y, o.radius) for o in battlefield.figures() if o.id != fid and o.status.can_act]


def prefix_length(path: Sequence[Point2], point: Point2) -> float:
    """How far along ``path`` its point nearest ``point`` lies."""
    return nearest_on_path(path, point)[1]


def _obstacle(t: Table, cost: movement.PathCost) -> str:
    """What stopped a path, named as a player names it: "the wall of the Garage",
    "impassable ground (the Rock)", "the table's edge"."""
    if cost.forbidden == "edge":
        return "the table's edge"
    feature = next((f for f in t.battlefield.terrain if f.id == cost.feature_id), None)
    name = (feature.name or "").strip() if feature is not None else ""
    if cost.forbidden == "impassable":
        return f"impassable ground (the {name})" if name else "impassable ground"
    return f"the wall of the {name}" if name else "a building's wall"


def check_move(t: Table, frame: Frame, fig: Figure, act: Move, *, free: bool) -> None:
    d = frame.data
    if fig.prone:
        raise IllegalActionError(f"{fig.name} is prone: stand up first (7.4.3)")
    path = path_of(t, fig, act)
    if len(path) > MAX_PATH_POINTS + 1:
        raise IllegalActionError(f"a move's path has at most {MAX_PATH_POINTS} points")
    if free:
        if fig.id in d["free_moved"]:
            raise IllegalActionError(f"{fig.name} has already made its free move (7.6)")
        left = FREE_MOVE
    else:
        left = t.movement_left(frame, fig.id)
        if left <= 1e-9:
            raise IllegalActionError(f"{fig.name} has no movement left this activation")
    table = t.battlefield.table
    r = fig.radius
    for x, y in path:
        on_x = r - 1e-9 <= x <= table.width - r + 1e-9
        if not (on_x and r - 1e-9 <= y <= table.height - r + 1e-9):
            raise IllegalActionError(
                f"the path leaves the table at ({x:.1f}, {y:.1f}): the base must stay on the table"
            )
    upstairs = building_rules.upstairs_problem(t, fig, path)
    if upstairs is not None:
        raise IllegalActionError(upstairs)
    cost = movement.path_cost(
        t.battlefield,
        path,
        t.rules,
        index=t.vis.index,
        radius=r,
    )
    if not cost.allowed:
        raise IllegalActionError(
            f"{fig.name}'s path runs into {_obstacle(t, cost)} after {cost.length:.1f}\" (7.4)"
        )
    spend = cost.length if free else cost.cost
    if spend > left + 1e-6:
        extra = ' (woods count double, doors 2", windows 4")' if cost.cost > cost.length else ""
        raise IllegalActionError(
            f'{fig.name} has {left:.1f}" of movement left; the path costs {spend:.1f}"{extra}'
        )
    end = path[-1]
    for other in t.battlefield.figures():
        if other.id == fig.id or not other.status.can_act:
            continue
        if math.hypot(other.x - end[0], other.y - end[1]) < other.radius + r - 1e-6:
            raise IllegalActionError(
                f"{fig.name} would end on {other.name}'s base: bases may not overlap"
            )


def _still_or_moving(d: dict[str, Any], fid: str, *, went: bool) -> bool:
    """A figure that only turned (a move of 0", "ending facing as desired", 7.2) or was
    stopped by In Sight where it stood has not moved: it stays stationary, in Cover in
    woods and buildings (7.9.5: "stationary figures are in Cover and Concealment.
    Moving figures are concealed").  ``d["still"]``, kept only while one is, lists the
    figures of the frame's ``moved`` that have gone nowhere yet.  ``went``: take the
    figure off the list (it is walking); else put it on.  Whether it was on it."""
    still: list[str] = d.get("still", [])
    was = fid in still
    if went and was:
        still.remove(fid)
    elif not went and not was:
        still.append(fid)
    if still:
        d["still"] = still
    else:
        d.pop("still", None)
    return was


def walk(t: Table, frame: Frame, fig: Figure, act: Move, *, free: bool = False) -> None:
    """Walk the path in small steps, stopping when a new enemy comes into sight (7.6)."""
    d = frame.data
    path = path_of(t, fig, act)
    side = fig.side
    group = d["members"] if frame.kind == "activation" else d["movers"]
    seen = set(d["seen"]) if frame.kind == "activation" else set(d["seen_all"])
    seen = sighting.seen_groups(t, seen, t.enemy_of(fig.side))  # by group (7.6.2)
    # moving while it walks; afterwards stationary again if it went nowhere (below)
    stood = fig.id not in d["moved"] or _still_or_moving(d, fig.id, went=True)
    if fig.id not in d["moved"]:
        d["moved"].append(fig.id)
    duck_back.unhide_figure(t, [fig.id])
    if not t.rules.interpretations.ducked_back_unseen_while_in_cover:
        duck_back.unhide_cause(t, fig.id)  # any move of the cause: it sees them as it goes
    t.sync_moving()
    bf = t.battlefield
    enemies = {e.id for e in t.alive(t.enemy_of(side))}
    start = (fig.x, fig.y)
    points = sample_path(path, WALK_STEP)
    prev = start
    prev_dist = 0.0
    spotted: list[str] = []
    stop_at: float | None = None
    walked = 0.0
    # a player figure resolves a PEF (and a building's, 11.1) the moment it sees
    # it; enemies a contact puts in its sight stop it like any others (7.6)
    watch = t.settings.solo and side == t.player_side()
    # the steps on which nothing can happen are judged in one pass and skipped
    quiet = 0
    if QUIET_WALKS and not free:
        quiet = quiet_steps(t, fig, points, enemies, seen, watch)
    passed = -1.0  # walked on past a fleeting sighting to here
    for k, (p, dist) in enumerate(points):
        if dist <= passed:
            continue
        if k < quiet:
            prev, prev_dist = p, dist
            walked = dist
            continue
        if p != prev:
            facing = bearing(prev, p)
        else:  # the facing it has after the steps skipped (it has not moved yet)
            facing = facing_at(t, fig, points, k) if k == quiet else fig.facing
        bf.move_figure(fig.id, p[0], p[1], facing)
        if watch and pef_rules.watch_pefs(t, only=t.fig(fig.id)):
            enemies = {e.id for e in t.alive(t.enemy_of(side))}
        new = new_sightings(t, fig.id, enemies, seen) if not free else []
        if new:
            lo, hi = prev_dist, dist
            for _ in range(WALK_REFINE):
                mid = (lo + hi) / 2
                q = point_at(path, mid)
                bf.move_figure(fig.id, q[0], q[1], facing)
                if new_sightings(t, fig.id, enemies, seen):
                    hi = mid
                else:
                    lo = mid
            # on free ground where they are in sight: back along the path as far as
            # the last step with no one new in sight, else (its base is on another's
            # all that way: a friend passed, an enemy met round a corner) on to the
            # first free ground past it (7.4, 7.6.2)
            stop_at = free_spot(t, fig, path, hi, lo)
            if stop_at <= lo + 1e-9:
                stop_at = free_spot_ahead(t, fig, path, hi)
            q = point_at(path, stop_at)
            bf.move_figure(fig.id, q[0], q[1], facing)
            spotted = new_sightings(t, fig.id, enemies, seen)
            if spotted:
                break
            # seen only while its base was on another's, and out of sight again where it
            # can stand: it walks on (stopped there, it spent its move for an In Sight
            # that was gone, turn after turn in a kept Raid)
            passed, stop_at = stop_at, None
            prev, prev_dist, walked = q, passed, passed
            continue
        prev, prev_dist = p, dist
        walked = dist
    if points and quiet >= len(points):  # the whole walk was quiet: to its end
        last = points[-1][0]
        bf.move_figure(fig.id, last[0], last[1], facing_at(t, fig, points, len(points)))
    if stop_at is not None:
        walked = stop_at
    travelled = prefix(path, walked)
    how = "stops"
    if act.facing is not None and stop_at is None:
        bf.move_figure(fig.id, fig.x, fig.y, act.facing)
        # turning is movement too (7.6.2 "any movement", 7.4 "ending facing as desired"):
        # an enemy group it brings into its front 180 degrees (7.9.4) triggers In Sight
        if watch and pef_rules.watch_pefs(t, only=t.fig(fig.id)):
            enemies = {e.id for e in t.alive(t.enemy_of(side))}
        if not free:
            spotted = new_sightings(t, fig.id, enemies, seen)
            how = f"turns to face {normal_facing(act.facing):.0f} degrees"
    if stood and not (walked > 1e-9 or math.dist(start, (fig.x, fig.y)) > 1e-9):
        _still_or_moving(d, fig.id, went=False)
        t.sync_moving()
    wounds.carry_along(t, fig)
    duck_back.unhide_after_cause_moved(t, t.fig(fig.id))
    if free:
        d["free_moved"].append(fig.id)
        cost_text = "free"
    else:
        cost = movement.path_cost(bf, travelled, t.rules, index=t.vis.index, radius=fig.radius).cost
        d["used"][fig.id] = float(d["used"][fig.id]) + cost
        cost_text = f'{cost:.1f}" of movement, {t.movement_left(frame, fig.id):.1f}" left'
    end = f"({fig.x:.1f}, {fig.y:.1f})"
    if spotted:
        names = ", ".join(t.fig(e).name for e in spotted)
        t.emit(
            "move",
            f'{fig.name} moves {walked:.1f}" to {end} ({cost_text}) and {how}: '
            f"{names} in sight (7.6).",
            section="7.6",
            figures=[fig.id, *spotted],
        )
        start_in_sight(t, frame, fig.side, group)
    else:
        t.emit(
            "move",
            f'{fig.name} moves {walked:.1f}" to {end} ({cost_text}).',
            section="7.4",
            figures=[fig.id],
        )


def walk_facings(fig: Figure, points: Sequence[tuple[Point2, float]]) -> list[float]:
    """The facing the walker has on each step (along its path), as stored."""
    out: list[float] = []
    prev, facing = (fig.x, fig.y), fig.facing
    for p, _dist in points:
        if p != prev:
            facing = normal_facing(bearing(prev, p))
        out.append(facing)
        prev = p
    return out


def facing_at(t: Table, fig: Figure, points: Sequence[tuple[Point2, float]], k: int) -> float:
    """The facing after step ``k - 1`` of a walk whose first ``k`` steps were skipped
    (the figure's own facing when none was taken)."""
    if k <= 0:
        return fig.facing
    return walk_facings(fig, points[:k])[-1]


def quiet_steps(
    t: Table,
    fig: Figure,
    points: Sequence[tuple[Point2, float]],
    enemies: set[str],
    seen: set[str],
    watch: bool,
) -> int:
    """How many of the walk's first steps nothing can happen on: no enemy not yet
    seen comes into sight (7.6) and, in a solo game, the walker sees no PEF and
    notices or enters no building (11.1, 11.3) -- judged for every step in one pass
    instead of one sight row per step.  The walk plays step by step from there."""
    if not points:
        return 0
    pts = [p for p, _d in points]
    facings = walk_facings(fig, points)
    first = len(points)
    unseen = [e for e in sorted(enemies) if e not in seen and e != fig.id]
    if unseen:
        v = t.vis.spots(fig.id, pts, unseen, facings=facings)
        hit = np.flatnonzero((v.sees | v.seen).any(axis=1))
        if len(hit):
            first = int(hit[0])
    if watch and t.settings.solo and t.state["outcome"] is None:
        first = min(first, first_watch_step(t, fig, pts[:first], facings[:first]))
    return first


def first_watch_step(t: Table, fig: Figure, pts: Sequence[Point2], facings: list[float]) -> int:
    """The first of the steps on which the walker would resolve a PEF or a building's
    (what :meth:`_watch_pefs` with ``only`` would do there), else ``len(pts)``."""
    walkers = [
        replace(fig, x=float(x), y=float(y), facing=f)
        for (x, y), f in zip(pts, facings, strict=True)
    ]
    first = len(pts)
    pefs = [(p["x"], p["y"]) for p in t.state["pefs"] if not p["resolved"]]
    if pefs and walkers:
        seen = movement.sees_points(
            t.battlefield,
            walkers,
            pefs,
            t.rules,
            index=t.vis.index,
            behind_cover_hides=True,
            in_the_dark=True,  # as pefs.pef_viewers judges them (7.9.4, 11.3)
        )
        hit = np.flatnonzero(seen.any(axis=1))
        if len(hit):
            first = int(hit[0])
    if t.rules.interpretations.pef_buildings and t.state["pef"]["placed"]:
        done: dict[str, str] = t.state["pef"].get("buildings", {})
        for b in t.battlefield.terrain:
            if not isinstance(b, Building) or done.get(b.id) == "noticed":
                continue
            entering = done.get(b.id) == "enter"
            for k in range(first):
                w = walkers[k]
                if (
                    (building_rules.building_of(t, w) is b)
                    if entering
                    else pef_rules.notices(t, w, b)
                ):
                    first = k
                    break
    return first


def free_spot(t: Table, fig: Figure, path: Sequence[Point2], at: float, floor: float) -> float:
    """The distance along the path, at or before ``at``, where the base overlaps no
    other standing base (a move stopped by In Sight must still end on free ground)."""
    free = _free_ground(t, fig)
    d = at
    while d > floor + 1e-9:
        if free(point_at(path, d)):
            return d
        d -= 0.125
    return floor


def free_spot_ahead(t: Table, fig: Figure, path: Sequence[Point2], at: float) -> float:
    """The distance along the path, at or after ``at``, where the base first overlaps no
    other standing base (the path's end, which a legal move has free, at the latest)."""
    free = _free_ground(t, fig)
    total = sum(math.dist(a, b) for a, b in itertools.pairwise(path))
    d = at
    while d < total:
        if free(point_at(path, d)):
            return d
        d += 0.125
    return total


def _free_ground(t: Table, fig: Figure) -> Callable[[Point2], bool]:
    """Whether ``fig``'s base at a point overlaps no other standing base."""
    others = [
        (o.x, o.y, o.radius + fig.radius - 1e-6)
        for o in t.battlefield.figures()
        if o.id != fig.id and o.status.can_act
    ]

    def free(p: Point2) -> bool:
        return all(math.hypot(x - p[0], y - p[1]) >= gap for x, y, gap in others)

    return free


def new_sightings(t: Table, fid: str, enemies: set[str], seen: set[str]) -> list[str]:
    row = t.vis.row(fid)
    found = []
    for j, other in enumerate(row.ids):
        if other in enemies and other not in seen and (row.sees[j] or row.seen_by[j]):
            found.append(other)
    return found


def start_in_sight(t: Table, frame: Frame, side: str, group: list[str]) -> None:
    if frame.kind == "free_move":
        return  # the test is taken once the free moves are done
    t.push(
        "free_move",
        side=side,
        movers=list(group),
        free_moved=[],
        moved=[],
        seen_all=list(frame.data["seen"]),
    )


def run_free_move(t: Table, frame: Frame) -> bool:
    movers = [m for m in frame.data["movers"] if t.fig(m).status.can_act]
    if not any(m not in frame.data["free_moved"] and not t.fig(m).prone for m in movers):
        sighting.in_sight_test(t, frame)
        return True
    return False


def decide_free_move(t: Table, frame: Frame) -> Decision:
    return Decision(
        0,
        frame.data["side"],
        "free_move",
        'In Sight! The moving group may move each figure up to 2" more (free), '
        "then the In Sight test is taken; pass to take it now.",
        "7.6",
        (Pass(),),
        accepts=("move",),
    )


def check_free_move(t: Table, frame: Frame, act: Action) -> None:
    if not isinstance(act, Move):
        raise IllegalActionError(f'{act} is not a choice now: move up to 2" or pass')
    if act.figure not in frame.data["movers"]:
        raise IllegalActionError(f"{act.figure} is not in the moving group")
    fig = t.fig(act.figure)
    if not fig.status.can_act:
        raise IllegalActionError(f"{fig.name} cannot act")
    check_move(t, frame, fig, act, free=True)


def apply_free_move(t: Table, frame: Frame, act: Action) -> None:
    if isinstance(act, Pass):
        sighting.in_sight_test(t, frame)
        return
    assert isinstance(act, Move)
    walk(t, frame, t.fig(act.figure), act, free=True)


def sample_path(path: Sequence[Point2], step: float) -> list[tuple[Point2, float]]:
    """Points every ``step`` inches along the path (and its end), with their distance."""
    out: list[tuple[Point2, float]] = []
    done = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg <= 0:
            continue
        n = max(1, math.ceil(seg / step - 1e-9))
        for k in range(1, n + 1):
            t = k / n
            out.append(((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), done + seg * t))
        done += seg
    return out


def point_at(path: Sequence[Point2], dist: float) -> Point2:
    done = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg > 0 and done + seg >= dist:
            t = (dist - done) / seg
            return (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        done += seg
    return path[-1]


def prefix(path: Sequence[Point2], dist: float) -> list[Point2]:
    """The path up to ``dist`` inches along it."""
    out = [path[0]]
    done = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if done + seg >= dist - 1e-12:
            out.append(point_at(path, dist))
            return out
        out.append((x1, y1))
        done += seg
    return out


PROCEDURE = Procedure(
    "free_move", run_free_move, decide_free_move, check_free_move, apply_free_move
)
