"""Melee (7.11): declaring a charge, the Charge into Melee test with the target's
fire, moving into contact, and the rounds of melee with their damage (7.11.2-7.11.5).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from crdesk.errors import CrdeskError, IllegalActionError
from crdesk.game import adapter, aftermath, fire
from crdesk.game import wounded as wounds
from crdesk.game.actions import Charge, Fire, Point2
from crdesk.game.records import Frame
from crdesk.game.table import Procedure, Table
from crdesk.geometry import movement
from crdesk.geometry.measure import bearing, charge_direction
from crdesk.model import Figure, WeaponCode
from crdesk.rules.common import words
from crdesk.rules.melee import Approach, melee
from crdesk.rules.melee import charge as charge_test
from crdesk.rules.shooting import default_allocation


def check_charge(t: Table, frame: Frame, fig: Figure, act: Charge) -> None:
    from crdesk.rules.melee import can_declare_charge, check_attackers

    try:
        target = t.fig(act.target)
    except CrdeskError:
        raise IllegalActionError(f"there is no figure {act.target!r}") from None
    if target.side == fig.side:
        raise IllegalActionError(f"{target.name} is a friend")
    if not target.status.can_act:
        raise IllegalActionError(f"{target.name} is {words(target.status)}")
    chargers = act.chargers
    if len(set(chargers)) != len(chargers):
        raise IllegalActionError("name each charger once")
    try:
        check_attackers(len(chargers))
    except IllegalActionError as exc:
        raise IllegalActionError(f"{exc} (7.11.6)") from None
    sight = t.sight()
    for cid in chargers:
        charger = t.member(frame, cid) if frame.kind == "activation" else t.fig(cid)
        if charger.prone:
            raise IllegalActionError(f"{charger.name} is prone: stand up first (7.4.3)")
        if frame.kind == "activation" and cid in frame.data["moved"]:
            raise IllegalActionError(f"{charger.name} has already moved this activation")
        left = t.movement_left(frame, cid) if frame.kind == "activation" else 8.0
        decl = can_declare_charge(
            distance=sight.distance(cid, target.id),
            remaining_move=left,
            has_los=sight.sees(cid, target.id),
            options=t.rules,
            cost_of=charge_cost(t, charger, target),
        )
        if not decl.allowed:
            raise IllegalActionError(f"{charger.name} may not charge {target.name}: {decl.reason}")
        if not charge_way_open(t, charger, target):
            raise IllegalActionError(
                f"{charger.name} may not charge {target.name}: a wall or rock stands on the "
                "way to him; a charge goes into or out of a building only by a door or "
                "window (7.11.2, 7.4, 8.2)"
            )


def charge_cost(t: Table, charger: Figure, target: Figure) -> Callable[[float], float]:
    """What going ``n`` inches straight towards ``target`` costs ``charger`` in movement
    (7.4: woods halve it; 8.2: a door 2", a window 4"): the reach a charge needs is
    movement (7.11.2's Interpretation, "with its remaining movement")."""

    def cost(n: float) -> float:
        dx, dy = target.x - charger.x, target.y - charger.y
        norm = math.hypot(dx, dy)
        if n <= 0 or norm <= 0:
            return max(n, 0.0)
        end = (charger.x + dx / norm * n, charger.y + dy / norm * n)
        way = movement.path_cost(
            t.battlefield,
            [(charger.x, charger.y), end],
            t.rules,
            index=t.vis.index,
            radius=charger.radius,
        )
        return way.cost if way.allowed else n  # a wall or rock: charge_way_open says so

    return cost


def charge_way_open(t: Table, charger: Figure, target: Figure) -> bool:
    """Whether the charger may go straight into contact with ``target`` (7.11.2): clear of
    impassable ground, and into or out of a building only by a door or window (7.4,
    8.2), as a Duck Back goes.  Seeing the target is not enough: a line base to base can
    pass a window that the charger's own way, centre to contact, misses -- kept games
    had chargers land on the far side of a building's wall."""
    return movement.straight_way_open(
        t.battlefield,
        (charger.x, charger.y),
        contact_point(charger, target),
        charger.radius,
        index=t.vis.index,
    )


def start_charge(t: Table, frame: Frame, act: Charge) -> None:
    for cid in act.chargers:
        frame.data["used"][cid] = frame.data["allow"][cid]
        if cid not in frame.data["moved"]:
            frame.data["moved"].append(cid)
    charge(t, [t.fig(c) for c in act.chargers], t.fig(act.target))


def charge(t: Table, chargers: list[Figure], target: Figure) -> None:
    """Charge into Melee 7.11.2: every charger rolls against one target roll; the
    target may fire; those not stopped fight it one on one in turn (7.11.4, 7.11.6)."""
    from crdesk.rules.melee import single_shot_target
    from crdesk.tables import ChargeResult

    if target.id in t.state["carrying"]:
        wounds.drop(t, target.id, "is charged and drops")
    contacts = contact_points(t, chargers, target)
    # flank and rear are judged by where the charge starts and ends (7.11.2, 7.9.7)
    approaches = [
        Approach(charge_direction(target, (c.x, c.y), contacts[c.id], t.rules).value)
        for c in chargers
    ]
    # "Move the charger to 1" from the target, then both roll" (7.11.2): the test, its
    # Cover and the target's fire are judged there, the charger moving (7.9.5)
    in_cover = any(target_in_cover(t, c, target, contacts[c.id]) for c in chargers)
    for c in chargers:
        close_in(t, c, target, contacts[c.id])
    worst = {Approach.FRONT: 0, Approach.FLANK: 1, Approach.REAR: 2}
    approach = max(approaches, key=worst.__getitem__)
    test = charge_test(
        t.roll(),
        [(c.name, c.rep, c.id) for c in chargers],
        (target.name, target.rep, target.id),
        in_cover=in_cover,
        approach=approach,
        options=t.rules,
    )
    t.emit(
        "charge",
        test.explain(),
        result=test,
        figures=[*(c.id for c in chargers), target.id],
    )
    outcomes = {c.id: c.outcome for c in test.chargers}
    may = [c for c in chargers if outcomes[c.id] is not ChargeResult.CHARGER_MOVES_IN]
    fire_at: list[str] = []
    rush = mixed = False
    rush_at: list[bool] = []
    if may and not adapter.can_fire(target):
        # the charge test says it fires (7.11.2); it cannot: say so, the melee follows
        why = (
            "it has no ranged weapon"
            if target.weapon is WeaponCode.NONE
            else ("it is out of ammo (7.9.2)")
        )
        t.emit(
            "charge",
            f"{target.name} does not fire at the charging {', '.join(c.name for c in may)}: {why}.",
            section="7.11.2",
            figures=[target.id, *(c.id for c in may)],
        )
    if may and adapter.can_fire(target):
        dice = adapter.target_dice(target, t.rules)
        if dice >= 2 or dice >= len(may):
            # "enough Target for all chargers it fires at" (7.11.2): as many chargers as
            # its Target, those that passed fewest first (the single-shot reading's
            # choice, widened), in the order they were declared
            passed = {c.id: c.passed for c in test.chargers}
            ranked = sorted(may, key=lambda c: passed[c.id])  # stable: ties as declared
            chosen = {c.id for c in ranked[:dice]}
            fire_at = [c.id for c in may if c.id in chosen]
            # the target's one roll is compared with each charger separately (7.11.2):
            # it may Rush Shot at one and fire at another
            rush_at = [outcomes[c] is ChargeResult.TARGET_RUSH_SHOTS for c in fire_at]
            rush = all(rush_at)
            mixed = any(rush_at) and not rush
        else:
            choice = single_shot_target(test)
            if choice.charger_id is not None:
                fire_at, rush = [choice.charger_id], choice.rush_shot
    melee = t.push(
        "melee",
        chargers=[c.id for c in chargers],
        target=target.id,
        fire_at=fire_at,
        rush=rush,
        stage="fire",
        index=0,
        contacts={k: list(v) for k, v in contacts.items()},
    )
    if mixed:
        melee.data["rush_at"] = rush_at
    t.sync_moving()


def one_inch_spot(charger: Figure, target: Figure, contact: Point2) -> Point2 | None:
    """Where the charger stands 1" from the target (7.11.2), on its straight way from
    where it is to its contact spot; None when it starts nearer (it stays put)."""
    cx, cy = contact
    length = math.hypot(charger.x - cx, charger.y - cy)
    if length <= 1e-9:
        return None
    dx, dy = (charger.x - cx) / length, (charger.y - cy) / length
    # the point (contact + u along the way back) whose base is 1" from the target's
    wx, wy = cx - target.x, cy - target.y
    reach = charger.radius + target.radius + 1.0
    along = wx * dx + wy * dy
    u = -along + math.sqrt(max(along * along - (wx * wx + wy * wy) + reach * reach, 0.0))
    if u >= length - 1e-9:
        return None
    return (cx + dx * u, cy + dy * u)


def target_in_cover(t: Table, charger: Figure, target: Figure, contact: Point2) -> bool:
    """The charge test's "target in Cover" (+1d6, 7.11.2), judged as the test is taken:
    from the charger moved to 1" from the target, facing it and moving (7.9.5).  The
    charge preview asks the same (:func:`crdesk.game.adapter.charge_spec`)."""
    spot = one_inch_spot(charger, target, contact) or (charger.x, charger.y)
    facing = bearing(spot, (target.x, target.y))
    v = t.vis.spots(charger.id, [spot], [target.id], moving=True, facings=[facing])
    return bool(v.viewer_cover[0, 0])


def close_in(t: Table, charger: Figure, target: Figure, contact: Point2) -> None:
    """Move the charger to 1" from the target (7.11.2), on its way to its contact
    spot, facing the target; one that starts nearer stays where it is.  The target's
    fire meets it there, a moving figure (7.9.5): a Pistol reaches it, the woods it
    crosses give it no Cover (judged where the charge started, it was out of range or
    in Cover there)."""
    spot = one_inch_spot(charger, target, contact)
    if spot is None:
        return
    x, y = spot
    _advance(t, charger, target, spot)
    t.emit(
        "charge_move",
        f'{charger.name} charges to 1" from {target.name}, at ({x:.1f}, {y:.1f}) (7.11.2).',
        section="7.11.2",
        figures=[charger.id, target.id],
        extra={"to": [x, y]},  # the table shows the charge stop there for the fire
    )


def contact_points(t: Table, chargers: list[Figure], target: Figure) -> dict[str, Point2]:
    """Where each charger's base touches the target's, on its line to the target,
    turned round the target when another base is already there."""
    taken = [
        (o.x, o.y, o.radius)
        for o in t.battlefield.figures()
        if o.status.can_act and o.id != target.id and o not in chargers
    ]
    table = t.battlefield.table
    out: dict[str, Point2] = {}
    for c in chargers:
        base = math.atan2(c.x - target.x, -(c.y - target.y))
        reach = c.radius + target.radius
        spot = contact_point(c, target)
        for turn in (0, 25, -25, 50, -50, 75, -75, 100, -100, 135, -135, 180):
            ang = base + math.radians(turn)
            x, y = target.x + reach * math.sin(ang), target.y - reach * math.cos(ang)
            on = (
                c.radius <= x <= table.width - c.radius and c.radius <= y <= table.height - c.radius
            )
            if (
                on
                and all(math.hypot(x - ox, y - oy) >= r + c.radius - 1e-6 for ox, oy, r in taken)
                and (
                    turn == 0
                    or movement.straight_way_open(
                        t.battlefield, (c.x, c.y), (x, y), c.radius, index=t.vis.index
                    )
                )
            ):
                spot = (x, y)
                break
        out[c.id] = spot
        taken.append((spot[0], spot[1], c.radius))
    return out


def melee_rep(t: Table, fig: Figure) -> int:
    """The Rep a figure fights with: less this turn's -1 to Rep results (7.8)."""
    return max(0, fig.rep - int(t.state["rep_lost"].get(fig.id, 0)))


def run_melee(t: Table, frame: Frame) -> bool:
    d = frame.data
    target = t.fig(d["target"])
    if d["stage"] == "again":
        # the round after a -1 to Rep Star Power made of a worse result (aftermath)
        t.pop(frame)
        t.sync_moving()
        fight_on(t, t.fig(d["chargers"][0]), target)
        return True
    if d["stage"] == "fire":
        d["stage"] = "melee"
        fire_at = [c for c in d["fire_at"] if t.fig(c).status.can_act]
        if fire_at and target.status.can_act:
            shot = Fire(target.id, tuple((c, 0) for c in fire_at))
            try:
                fire.check_fire(t, target, shot, reaction=True)
            except IllegalActionError as exc:
                # the charge test said it fires (7.11.2): say why it does not
                t.emit(
                    "charge",
                    f"{target.name} does not fire at the charging "
                    f"{', '.join(t.fig(c).name for c in fire_at)}: {exc}",
                    section="7.11.2",
                    figures=[target.id, *fire_at],
                )
                return True
            dice = adapter.target_dice(target, t.rules)
            alloc = default_allocation(dice, len(fire_at))
            fire.volley(
                t,
                target,
                Fire(target.id, tuple(zip(fire_at, alloc, strict=True))),
                rush=bool(d["rush"]),
                rush_at=d.get("rush_at"),
                cause_of_reaction=fire_at[0],
                verb="Rush Shots at the charging" if d["rush"] else "fires at the charging",
                # "No Reaction Tests taken" (7.11.2): a missed charger carries on
                missed_carry_on=not t.rules.interpretations.charge_missed_charger_tests,
            )
        return True
    while d["index"] < len(d["chargers"]):
        charger = t.fig(d["chargers"][d["index"]])
        d["index"] += 1
        if not target.status.can_act:
            break
        if not charger.status.can_act or charger.status in adapter.STILL_REACTING:
            t.emit(
                "charge_stopped",
                f"{charger.name}'s charge is stopped (7.11.2).",
                section="7.11.2",
                figures=[charger.id],
            )
            continue
        fight(t, charger, target, d["contacts"][charger.id])
        return True
    t.pop(frame)
    t.sync_moving()  # the chargers stop moving with their charge (unless they moved before)
    return True


def _advance(t: Table, charger: Figure, target: Figure, spot: Point2) -> None:
    """The charger to ``spot``, facing its target, a wounded it carries with it (7.12)."""
    x, y = spot
    t.battlefield.move_figure(charger.id, x, y, bearing((x, y), (target.x, target.y)))
    wounds.carry_along(t, charger)


def fight(t: Table, charger: Figure, target: Figure, contact: list[float]) -> None:
    """Into contact, then one melee to the end (7.11.4, 7.11.5)."""
    _advance(t, charger, target, (contact[0], contact[1]))
    t.emit(
        "contact",
        f"{charger.name} charges into contact with {target.name} (7.11.2).",
        section="7.11.2",
        figures=[charger.id, target.id],
    )
    fight_on(t, charger, target)


def fight_on(t: Table, first: Figure, second: Figure) -> None:
    """A melee between two figures in contact, to its end or to a result the aftermath
    settles (7.11.4, 7.11.5): each rolls with its Rep less this turn's -1 to Rep (7.8).
    Also the round that follows at once a -1 to Rep a Star's Star Power made of a worse
    result (5.2.1, 7.11.5: "Loser -1 to Rep; immediately fight another round")."""
    rep_lost = t.state["rep_lost"]
    a = replace(adapter.fighter(first, second), rep=melee_rep(t, first))
    b = replace(adapter.fighter(second, first), rep=melee_rep(t, second))
    res = melee(t.roll(), a, b)
    t.emit("melee", res.explain(), result=res, figures=[first.id, second.id])
    for fid, lost in res.rep_lost.items():
        if lost:
            rep_lost[fid] = int(rep_lost.get(fid, 0)) + int(lost)
    loser = t.fig(res.loser_id)
    winner = t.fig(res.winner_id)
    # the winner's Rep as it is now, less the rounds it lost this turn (7.8): a Star
    # cannot be killed by a lower Rep (Larger Than Life, 5.2)
    aftermath.push_aftermath(
        t,
        winner.id,
        melee_rep(t, winner),
        {loser.id: [res.loser_status.value]},
        [],
        melee=True,
    )


def contact_point(charger: Figure, target: Figure) -> Point2:
    """Where the charger's base touches the target's, on the line between them."""
    dx, dy = charger.x - target.x, charger.y - target.y
    norm = math.hypot(dx, dy) or 1.0
    reach = charger.radius + target.radius
    return (target.x + dx / norm * reach, target.y + dy / norm * reach)


PROCEDURE = Procedure("melee", run_melee)
