"""Duck Back (7.4.4, 7.8): to the nearest Cover within 6" of the cause of the test,
or prone in place without it; and the figure that ducked back into Cover, which
neither sees nor is seen by the cause until it is next active or moves, or the
Cover no longer holds (option ``ducked_back_unseen_while_in_cover``).  A Duck Back
into the sight of an enemy not seen in this activation phase starts an In Sight
test (7.6.2, the table's ``involuntary_in_sight``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from crdesk.errors import IllegalActionError
from crdesk.game import adapter
from crdesk.game import wounded as wounds
from crdesk.game.actions import Action, DuckBack, Point2
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.geometry import movement
from crdesk.model import Figure, Status
from crdesk.options import Weather


def set_hidden(t: Table, pairs: Iterable[tuple[str, str]]) -> None:
    """The (figure, cause) pairs where the figure ducked back into Cover from the
    cause; kept in the state only while there is one, so that games without
    any keep their state hashes."""
    rows = sorted({(f, c) for f, c in pairs})
    if rows:
        t.state["hidden"] = [list(r) for r in rows]
    else:
        t.state.pop("hidden", None)
    t.vis.set_hidden(rows)


def hidden_pairs(t: Table) -> list[tuple[str, str]]:
    return [(f, c) for f, c in t.state.get("hidden", [])]


def unhide_figure(t: Table, fids: Iterable[str]) -> None:
    """A ducked-back figure is seen again once it is next active or moves (7.4.4)."""
    gone = set(fids)
    pairs = hidden_pairs(t)
    if any(f in gone for f, _ in pairs):
        set_hidden(t, [(f, c) for f, c in pairs if f not in gone])


def unhide_cause(t: Table, cause: str, only: Iterable[str] | None = None) -> None:
    """The cause sees again the figures that ducked back from it (all, or ``only``)."""
    keep = None if only is None else set(only)
    pairs = hidden_pairs(t)
    if any(c == cause and (keep is None or f in keep) for f, c in pairs):
        set_hidden(
            t, [(f, c) for f, c in pairs if not (c == cause and (keep is None or f in keep))]
        )


def unhide_after_cause_moved(t: Table, cause: Figure) -> None:
    """The cause of a Duck Back has moved: from now on it sees each figure that is no
    longer in Cover from it (7.4.4; while it walked the sight engine already let it
    see them wherever the Cover did not hold, so a walk into view is an In Sight)."""
    mine = [f for f, c in hidden_pairs(t) if c == cause.id]
    lifted = [f for f in mine if not covered_at(t, t.fig(f), (t.fig(f).x, t.fig(f).y), cause.id)]
    if lifted:
        unhide_cause(t, cause.id, lifted)


def run_duck_back(t: Table, frame: Frame) -> bool:
    fig = t.fig(frame.data["figure"])
    if not fig.status.can_act:
        t.pop(frame)
        return True
    return False


def decide_duck_back(t: Table, frame: Frame) -> Decision:
    fig = t.fig(frame.data["figure"])
    cause = frame.data["cause"]
    by = f" from {t.fig(cause).name}" if cause else ""
    plain = DuckBack(fig.id)
    carry = tuple(DuckBack(fig.id, None, w.id) for w in retrievable(t, fig))
    also = " or retrieve a wounded friend on the way (7.12)," if carry else ""
    return Decision(
        0,
        fig.side,
        "duck_back",
        f'{fig.name} ducks back{by}: to the nearest Cover within 6" (auto),{also} or '
        "name another spot in Cover (7.4.4).",
        "7.4.4",
        (plain, *carry),
        accepts=("duckback",),
        figure=fig.id,
        default=plain,
    )


def retrievable(t: Table, fig: Figure) -> list[Figure]:
    """The wounded friends ``fig`` could retrieve as it ducks back (7.12: "when active or
    when ducking back in reaction"): Out of the Fight, carried by no one, and near
    enough to reach, pick up (2") and still be within the Duck Back's 6" ("a Duck Back
    while carrying is limited to 6" total"), by a way open to it; nearest first."""
    if fig.id in t.state["carrying"] or not fig.status.can_act:
        return []
    carried = set(t.state["carrying"].values())
    out = []
    for w in t.battlefield.figures():
        if w.side != fig.side or w.status is not Status.OUT_OF_THE_FIGHT or w.id in carried:
            continue
        spot = wounds.contact_spot(fig, w)
        way = math.hypot(spot[0] - fig.x, spot[1] - fig.y)
        if way + wounds.PICKUP_COST > movement.DUCK_BACK_DISTANCE + 1e-9:
            continue
        if way > 1e-9 and not spot_reachable(
            t, fig, spot, movement.DUCK_BACK_DISTANCE - wounds.PICKUP_COST
        ):
            continue
        out.append((way, w.id, w))
    return [w for _, _, w in sorted(out, key=lambda r: (r[0], r[1]))]


def check_duck_back(t: Table, frame: Frame, act: Action) -> None:
    if not isinstance(act, DuckBack) or act.figure != frame.data["figure"]:
        raise IllegalActionError(f"{t.fig(frame.data['figure']).name} must duck back now")
    if act.carry is not None:
        fig = t.fig(act.figure)
        if act.point is not None:
            raise IllegalActionError(
                "a Duck Back carrying a wounded friend goes to the nearest Cover (7.12)"
            )
        if act.carry not in {w.id for w in retrievable(t, fig)}:
            raise IllegalActionError(
                f"{fig.name} cannot retrieve {act.carry!r} as it ducks back: only an Out of "
                'the Fight friend no one carries, reached, picked up (2") and carried '
                "within the Duck Back's 6\" (7.12)"
            )
        return
    if act.point is None:
        return
    fig = t.fig(act.figure)
    x, y = act.point
    if math.hypot(x - fig.x, y - fig.y) > movement.DUCK_BACK_DISTANCE + 1e-9:
        raise IllegalActionError('a Duck Back goes at most 6" (7.4.4)')
    check_spot(t, fig, act.point, movement.DUCK_BACK_DISTANCE)
    cause = frame.data["cause"]
    if cause is not None:
        ok = covered_at(t, fig, act.point, cause)
        if not ok:
            raise IllegalActionError(
                f"{fig.name} would not be in Cover from {t.fig(cause).name} there (7.4.4)"
            )


def check_spot(t: Table, fig: Figure, point: Point2, reach: float | None = None) -> None:
    """Whether a Duck Back may end at ``point``: on the table, by an open way, on no
    base, and (``reach``) with a door's 2" or a window's 4" within the move (8.2)."""
    table = t.battlefield.table
    x, y = point
    r = fig.radius
    if not (r <= x <= table.width - r and r <= y <= table.height - r):
        raise IllegalActionError("the spot is off the table")
    # a Duck Back is a move (7.4.4): not through rock, into or out of a building only
    # by a door or window (7.4, 8.2); the terrain does not slow it
    if not movement.straight_way_open(t.battlefield, (fig.x, fig.y), point, r, index=t.vis.index):
        raise IllegalActionError("the way there is blocked (impassable ground or a wall)")
    if reach is not None:
        way = math.hypot(x - fig.x, y - fig.y)
        extra = movement.opening_cost(t.vis.index, (fig.x, fig.y), point)
        if extra and way + extra > reach + 1e-9:
            raise IllegalActionError(
                f'the way there is {way:.1f}" and goes through a door or window ({extra:g}" '
                f"more, 8.2): more than the Duck Back's {reach:g}\" (7.4.4)"
            )
    for other in t.battlefield.figures():
        touching = math.hypot(other.x - x, other.y - y) < other.radius + r - 1e-6
        if other.id != fig.id and other.status.can_act and touching:
            raise IllegalActionError(f"the spot is on {other.name}'s base")


def covered_at(t: Table, fig: Figure, point: Point2, cause: str) -> bool:
    return bool(t.vis.spots(fig.id, [point], [cause]).safe[0, 0])


def good_duck_spot(
    t: Table, fig: Figure, point: Point2, cause: str | None, reach: float | None = None
) -> bool:
    """On the table, reachable (within ``reach``, doors and windows paid), on no base,
    and out of sight or in Cover of the cause as the sight engine judges it (base to
    base, 7.4.4)."""
    return spot_reachable(t, fig, point, reach) and (
        cause is None or covered_at(t, fig, point, cause)
    )


def spot_reachable(t: Table, fig: Figure, point: Point2, reach: float | None = None) -> bool:
    try:
        check_spot(t, fig, point, reach)
    except IllegalActionError:
        return False
    return True


def other_bases(t: Table, fig: Figure) -> list[tuple[float, float, float]]:
    """The standing bases ``fig``'s may not overlap (7.4), as (x, y, least distance
    between the centres)."""
    return [
        (o.x, o.y, o.radius + fig.radius - 1e-6)
        for o in t.battlefield.figures()
        if o.id != fig.id and o.status.can_act
    ]


def ring_search(
    t: Table, fig: Figure, cause: str | None, reach: float = movement.DUCK_BACK_DISTANCE
) -> Point2 | None:
    """The nearest good spot on rings 1"-6" out (at most ``reach``), when the
    geometry's nearest Cover (judged from the cause's centre) is still seen from the
    cause's base."""
    rings = [
        (
            fig.x + radius * math.sin(math.radians(30 * k)),
            fig.y - radius * math.cos(math.radians(30 * k)),
        )
        for radius in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
        if radius <= reach + 1e-9
        for k in range(12)
    ]
    # the cheap tests of _check_spot first (on the table, on no base); the way there
    # is walked only for the spots that would do, nearest first
    table = t.battlefield.table
    r = fig.radius
    bases = other_bases(t, fig)
    placed = [
        (x, y)
        for x, y in rings
        if r <= x <= table.width - r
        and r <= y <= table.height - r
        and all(math.hypot(ox - x, oy - y) >= gap for ox, oy, gap in bases)
    ]
    if cause is None or not placed:
        return next((spot for spot in placed if spot_reachable(t, fig, spot, reach)), None)
    safe = t.vis.spots(fig.id, placed, [cause]).safe[:, 0].tolist()
    return next(
        (
            spot
            for spot, ok in zip(placed, safe, strict=True)
            if ok and spot_reachable(t, fig, spot, reach)
        ),
        None,
    )


def apply_duck_back(t: Table, frame: Frame, act: Action) -> None:
    assert isinstance(act, DuckBack)
    d = frame.data
    fig = t.fig(d["figure"])
    cause = t.fig(d["cause"]) if d["cause"] else None
    bf = t.battlefield
    t.pop(frame)
    point = act.point
    prone = False
    before = t.sighted_by(fig.id)
    reach = movement.DUCK_BACK_DISTANCE
    went = 0.0
    if act.carry is not None:
        went = retrieve_on_the_way(t, fig, t.fig(act.carry))
        if went:
            reach = max(reach - went, 0.0)
            fig = t.fig(fig.id)
    if point is None:
        threat = (cause.x, cause.y) if cause else (fig.x, fig.y)
        calm = not t.rules.night and t.rules.weather is Weather.CLEAR
        spot = movement.nearest_cover(
            bf, fig, threat, t.rules, index=t.vis.index if calm else None, max_distance=reach
        )
        point, prone = spot.point, spot.prone_in_place
        if not prone and not good_duck_spot(t, fig, point, d["cause"], reach):
            found = ring_search(t, fig, d["cause"], reach)
            point, prone = (found, False) if found else ((fig.x, fig.y), True)
    status = fig.status if fig.status in adapter.STILL_REACTING else Status.DUCK_BACK
    dist = math.hypot(point[0] - fig.x, point[1] - fig.y)
    if dist > 1e-6 or went:
        # it moves: seen again by the causes of its earlier Duck Backs (7.4.4).  One
        # that stays where it is (already in Cover from this cause) neither moved nor is
        # active: those still do not see it, and nothing has come into anyone's sight
        unhide_figure(t, [fig.id])
    if not prone and dist > 1e-6:
        stop = sighted_on_the_way(t, t.fig(fig.id), point, before)
        if stop is not None:
            point = stop
            dist = math.hypot(point[0] - fig.x, point[1] - fig.y)
    bf.update_figure(fig.id, x=point[0], y=point[1], status=status, prone=prone or fig.prone)
    wounds.carry_along(t, fig)
    if cause is not None and not prone and covered_at(t, t.fig(fig.id), point, cause.id):
        # neither sees the other now (7.4.4): until it is next active or moves,
        # or the cause moves (ducked_back_unseen_while_in_cover)
        set_hidden(t, [*hidden_pairs(t), (fig.id, cause.id)])
    ducked = set(t.state["ducked"]) | {fig.id}
    t.state["ducked"] = sorted(ducked)
    where = (
        f'drops prone in place: no Cover within {round(reach, 1):g}"'
        if prone
        else f'ducks back {dist:.1f}" to ({point[0]:.1f}, {point[1]:.1f})'
    )
    t.emit(
        "duck_back",
        f"{fig.name} {where} (7.4.4).",
        section="7.4.4",
        figures=[fig.id],
    )
    if not prone:
        t.involuntary_in_sight(fig.id, before, "ducks back")


SIGHT_STEP = 1.0
"""A Duck Back's way is looked along in steps of this many inches (as a walk, 7.6)."""
SIGHT_REFINE = 3
"""Halvings of the step on which an enemy first comes into sight: stop within 1/8"."""


def sighted_on_the_way(t: Table, fig: Figure, point: Point2, before: set[str]) -> Point2 | None:
    """Where a Duck Back's straight way to ``point`` first brings an enemy into sight
    that would trigger In Sight (7.6.2: "involuntary movement too ... the test is
    triggered the moment the first figure comes into sight; stop the movement
    there", the 7.7.3 example of a figure that ducks back into another enemy's
    sight), on free ground; None when nothing new comes into sight before the end
    (the end itself is judged once it stands there).  It keeps its facing."""
    unseen = sorted(t.involuntary_watch(fig.id) - before)
    length = math.hypot(point[0] - fig.x, point[1] - fig.y)
    steps = max(1, math.ceil(length / SIGHT_STEP - 1e-9))
    dists = [length * k / steps for k in range(1, steps)]
    if not unseen or not dists:
        return None

    def at(d: float) -> Point2:
        k = d / length
        return (fig.x + (point[0] - fig.x) * k, fig.y + (point[1] - fig.y) * k)

    def seen(ds: list[float]) -> list[bool]:
        pts = [at(d) for d in ds]
        v = t.vis.spots(fig.id, pts, unseen, facings=[fig.facing] * len(pts))
        hits: list[bool] = np.asarray((v.sees | v.seen).any(axis=1)).tolist()
        return hits

    first = next((k for k, hit in enumerate(seen(dists)) if hit), None)
    if first is None:
        return None
    lo, hi = (dists[first - 1] if first else 0.0), dists[first]
    for _ in range(SIGHT_REFINE):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if seen([mid])[0] else (mid, hi)
    bases = other_bases(t, fig)
    d = hi
    while d < length - 1e-9:  # on no other base (7.4): else on, to the first free ground
        x, y = at(d)
        if all(math.hypot(x - ox, y - oy) >= gap for ox, oy, gap in bases):
            return (round(x, 3), round(y, 3))
        d += 0.125
    return None


def retrieve_on_the_way(t: Table, fig: Figure, wounded: Figure) -> float:
    """7.12 as a figure ducks back: one that will retrieve the wounded friend (a Grunt's
    1d6 vs Rep, a Star's choice) goes into contact with it and picks it up (2").
    Returns the inches used, 0 when it will not retrieve."""
    if not wounds.will_retrieve(t, fig, wounded):
        return 0.0
    x, y = wounds.contact_spot(fig, wounded)
    way = math.hypot(x - fig.x, y - fig.y)
    if way > 1e-9:
        t.battlefield.move_figure(fig.id, x, y)
    wounds.take_up(t, t.fig(fig.id), wounded)
    how = (
        f'goes {way:.1f}" to {wounded.name} and picks them up'
        if way > 1e-9
        else f"picks up {wounded.name}"
    )
    t.emit(
        "pickup",
        f'{fig.name} {how} (2" of movement); it ducks back carrying them, 6" in all (7.12).',
        section="7.12",
        figures=[fig.id, wounded.id],
    )
    return way + wounds.PICKUP_COST


PROCEDURE = Procedure(
    "duck_back", run_duck_back, decide_duck_back, check_duck_back, apply_duck_back
)
