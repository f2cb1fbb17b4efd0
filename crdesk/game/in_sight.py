"""In Sight (7.6): the test every group involved takes when an enemy comes into
sight (7.6.2, 7.6.3), its winners' actions -- fire, charge, duck back or carry on
(7.6.4) -- and the figures that join an In Sight under way (7.6.5).  A move that
brings an enemy into sight is the walk's to notice (:mod:`crdesk.game.controller`);
an involuntary one is :func:`involuntary_in_sight`'s.
"""

from __future__ import annotations

from typing import Any

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, fire
from crdesk.game import melee as melee_rules
from crdesk.game.actions import Action, CarryOn, Charge, DuckBack, Fire
from crdesk.game.adapter import Sight
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.geometry.measure import base_distance
from crdesk.model import Figure
from crdesk.rules.in_sight import InSightGroup, in_sight

CHARGE_REACH = 6.0
"""In Sight: a figure that cannot fire charges an enemy within 6" (7.6.4)."""


def sighted_by(t: Table, fid: str) -> set[str]:
    """The enemies able to act that are in sight of the figure, either way (7.6)."""
    sight = t.sight()
    fig = t.fig(fid)
    return {e.id for e in t.alive(t.enemy_of(fig.side)) if sight.either(fid, e.id)}


def seen_groups(t: Table, seen: set[str], side: str) -> set[str]:
    """The figures of ``side`` whose group was seen in this activation phase: ``seen``
    and everyone in a group with one of them (6.2).  7.6.2 triggers In Sight when "a
    group has an opposing group enter into its Line of Sight ... and the opposing
    group was not seen previously during this activation phase": a figure of a group
    already seen coming into sight is no new test (each one stopped the move for a
    test and a free move of its own: 108 of 719 walk stops in kept games).  The
    groups are those on the table now, when the sighting is judged: a figure whose
    seen group-mate has since been knocked out is a group of its own (6.2), and
    unseen -- keeping the groups as they were when seen would need the activation's
    ``seen`` to hold them, a change to every game's state."""
    if not seen:
        return set()
    out = set(seen)
    for g in t.cohesion.groups(t.rules, side):
        if not out.isdisjoint(g.members):
            out.update(g.members)
    return out


def activation_frame(t: Table) -> Frame | None:
    return next((f for f in reversed(t.frame_stack) if f.kind == "activation"), None)


def involuntary_watch(t: Table, fid: str) -> set[str]:
    """The enemies whose coming into sight of the figure, moved against its will, would
    trigger an In Sight test now (7.6.2): none within an In Sight under way (it joins
    that instead, 7.6.5) or when it cannot act; never a group seen in this activation
    phase -- by the moving group, or the moving group having seen the figure's."""
    fig = t.fig(fid)
    if not fig.status.can_act or t.state["outcome"] is not None:
        return set()
    if any(f.kind == "in_sight" for f in t.frame_stack):
        return set()
    act = activation_frame(t)
    seen_by_active: set[str] = set()
    active: set[str] = set()
    if act is not None:
        seen_by_active = set(act.data["seen"])
        active = set(act.data["members"])
    seen_by_mover = seen_groups(t, seen_by_active, t.enemy_of(fig.side)) if fid in active else set()
    fid_seen = fid in seen_groups(t, seen_by_active, fig.side)
    out = set()
    for e in t.alive(t.enemy_of(fig.side)):
        if fid in active and e.id in seen_by_mover:
            continue  # the moving group had seen its group this activation
        if e.id in active and fid_seen:
            continue  # the active group had seen the figure's group already
        out.add(e.id)
    return out


def involuntary_in_sight(t: Table, fid: str, before: set[str], how: str) -> None:
    """7.6.2: an In Sight test is triggered whenever an opposing group enters a
    group's LOS that was not seen previously in this activation phase -- by any
    move, the involuntary ones too (the 7.7.3 example: a figure that ducks back
    "into the sight of another enemy figure").  ``before``: the enemies in sight
    of the figure before it was moved.  Within an In Sight under way the figure
    joins it instead (7.6.5, :meth:`_join_in_sight`).  The moved figure's group
    is the moving side, with no free move: the move was not its own."""
    fig = t.fig(fid)
    watch = involuntary_watch(t, fid)
    new = sorted((sighted_by(t, fid) - before) & watch)
    if not new:
        return
    act = activation_frame(t)
    seen_by_active = set(act.data["seen"]) if act is not None else set()
    active = set(act.data["members"]) if act is not None else set()
    names = ", ".join(t.fig(e).name for e in new)
    t.emit(
        "in_sight_trigger",
        f"{fig.name} {how} into the sight of {names}, not seen before in this activation "
        "phase: In Sight test (7.6.2).",
        section="7.6.2",
        figures=[fid, *new],
    )
    if act is not None:
        if fig.side == act.data["side"]:
            act.data["seen"] = sorted(seen_by_active | set(new))
        elif any(e in active for e in new):
            act.data["seen"] = sorted(seen_by_active | {fid})
    t.cohesion.update()
    group = next(
        (list(g.members) for g in t.cohesion.groups(t.rules, fig.side) if fid in g.members),
        [fid],
    )
    hold_in_sight(t, fig.side, group, [fid], new)


def in_sight_test(t: Table, frame: Frame) -> None:
    """7.6.3: every involved group rolls; winners act in order of successes."""
    side = frame.data["side"]
    movers = [m for m in frame.data["movers"] if t.fig(m).status.can_act]
    t.pop(frame)
    activation = t.frame_stack[-1]
    sight = t.sight()
    enemies = t.alive(t.enemy_of(side))
    involved_movers = [m for m in movers if any(sight.either(m, e.id) for e in enemies)]
    involved_enemies = [e.id for e in enemies if any(sight.either(m, e.id) for m in movers)]
    if "seen" in activation.data:  # not below a PEF contact's In Sight (the side frame)
        activation.data["seen"] = sorted(set(activation.data["seen"]) | set(involved_enemies))
    if not involved_movers or not involved_enemies:
        t.emit(
            "in_sight",
            "Nobody is in sight any more after the free moves: no In Sight test (7.6).",
            section="7.6",
        )
        return
    t.cohesion.update()
    hold_in_sight(t, side, movers, involved_movers, involved_enemies)


def hold_in_sight(
    t: Table, side: str, movers: list[str], involved_movers: list[str], involved_enemies: list[str]
) -> None:
    """The In Sight test between the moving group (``side``'s ``movers``) and the
    enemy groups of ``involved_enemies`` (7.6.3), and its frame of actions."""
    sight = t.sight()
    enemy_groups = sight_groups(t, t.enemy_of(side), involved_enemies)
    sides = [(movers, involved_movers, True, involved_enemies)] + [
        (members, involved, False, involved_movers) for members, involved in enemy_groups
    ]
    groups: list[tuple[InSightGroup, list[str]]] = []
    for members, involved, moving, foes in sides:
        roller = t.fig(sight_roller(t, members, involved, foes, sight))
        concealed = all_concealed(t, sight, involved, foes)
        group = InSightGroup(roller.name, roller.rep, moving, concealed, id=roller.id)
        groups.append((group, involved))
    res = in_sight(t.roll(), [g for g, _ in groups])
    t.emit(
        "in_sight",
        res.explain(),
        result=res,
        figures=[*involved_movers, *involved_enemies],
    )
    by_id = {g.id: members for g, members in groups}
    order = [fid for gid in res.order_ids for fid in by_id[gid]]
    best: dict[str, list[Any]] = {}
    for g, members in groups:
        got = res.group(g.id).successes
        gside = t.fig(members[0]).side
        if gside not in best or got > best[gside][0]:
            best[gside] = [got, g.name, g.leader_rep, g.id]
    t.push(
        "in_sight",
        side=side,
        order=order,
        index=0,
        involved=[*involved_movers, *involved_enemies],
        best=best,
    )


def sight_groups(t: Table, side: str, involved: list[str]) -> list[tuple[list[str], list[str]]]:
    out = []
    for group in t.cohesion.groups(t.rules, side):
        inv = [m for m in group.members if m in involved]
        if inv:
            out.append((list(group.members), inv))
    return out


def sight_roller(
    t: Table, members: list[str], involved: list[str], foes: list[str], sight: Sight
) -> str:
    """The Leader if it has LOS to an enemy, else the highest-Rep figure with LOS, the
    Temporary Leader (7.6.3).  LOS is the figure's own, to its front (7.9.4): a Leader
    facing away that the enemy merely sees does not roll for a Grunt that sees the
    enemy.  When no figure of the group has LOS (all only seen), the involved Leader,
    else the highest-Rep figure involved (the digest is silent)."""
    figs = [t.fig(m) for m in members]
    stars = [f for f in figs if f.is_star]
    leader = stars[0] if stars else max(figs, key=lambda f: f.rep)
    looking = [m for m in involved if any(sight.sees(m, e) for e in foes)]
    for chosen in (looking, involved):
        if not chosen:
            continue
        if leader.id in chosen:
            return leader.id
        return max((t.fig(m) for m in chosen), key=lambda f: f.rep).id
    return leader.id


def all_concealed(t: Table, sight: Sight, viewers: list[str], enemies: list[str]) -> bool:
    """-1d6 when every enemy the group sees is concealed from it (7.6.3)."""
    pairs = [(v, e) for v in viewers for e in enemies if sight.sees(v, e)]
    return bool(pairs) and all(sight.concealed(v, e) for v, e in pairs)


def run_in_sight(t: Table, frame: Frame) -> bool:
    """Winners act one at a time (7.6.4); Grunts by the book, Stars choose."""
    d = frame.data
    if join_in_sight(t, d):
        return True
    while d["index"] < len(d["order"]):
        fid = d["order"][d["index"]]
        fig = t.fig(fid)
        if not fig.status.can_act or fig.status in adapter.STILL_REACTING:
            d["index"] += 1
            continue
        if fig.is_star:
            return False
        d["index"] += 1
        in_sight_action(t, fig, book_in_sight_action(t, fig))
        return True
    t.pop(frame)
    return True


def join_in_sight(t: Table, d: dict[str, Any]) -> bool:
    """7.6.5: a figure that becomes involved takes its own test against the original
    opponent's score, and acts (after those already acting) if it beats it."""
    sight = t.sight()
    involved = set(d["involved"])
    newcomers = [
        f
        for f in t.alive()
        if f.id not in involved
        and any(
            t.fig(e).side != f.side and t.fig(e).status.can_act and sight.either(f.id, e)
            for e in involved
        )
    ]
    if not newcomers:
        return False
    for fig in newcomers:
        involved.add(fig.id)
        other = t.enemy_of(fig.side)
        if other not in d["best"]:
            continue
        score, name, rep, gid = d["best"][other]
        moving = fig.side == d["side"]
        foes = [e for e in involved if t.fig(e).side == other]
        res = in_sight(
            t.roll(),
            [
                InSightGroup(
                    fig.name,
                    fig.rep,
                    moving,
                    all_concealed(t, sight, [fig.id], foes),
                    id=fig.id,
                ),
                InSightGroup(name, rep, not moving, successes=score, id=gid),
            ],
        )
        wins = res.group(fig.id).wins
        t.emit(
            "in_sight",
            f"{fig.name} joins the In Sight (7.6.5): {res.explain()}",
            result=res,
            figures=[fig.id],
        )
        if wins:
            d["order"].append(fig.id)
    d["involved"] = sorted(involved)
    return True


def book_in_sight_action(t: Table, fig: Figure) -> Action:
    """7.6.4 for a Grunt: fire, else charge within 6", else Duck Back if in range."""
    for shot in fire.auto_targets(t, fig, active=False):
        return shot
    sight = t.sight()
    near = _chargeable(t, fig)
    if near:
        target = min(near, key=lambda e: sight.distance(fig.id, e.id))
        return Charge(fig.id, target.id)
    for e in t.alive(t.enemy_of(fig.side)):
        threatens = sight.sees(e.id, fig.id) and adapter.can_fire(e)
        if threatens and sight.distance(e.id, fig.id) <= adapter.weapon_range(e, t.rules):
            return DuckBack(fig.id)
    return CarryOn(fig.id)


def decide_in_sight(t: Table, frame: Frame) -> Decision:
    d = frame.data
    fig = t.fig(d["order"][d["index"]])
    options: list[Action] = list(fire.auto_targets(t, fig, active=False))
    options += [Charge(fig.id, e.id) for e in _chargeable(t, fig)]
    options += [DuckBack(fig.id), CarryOn(fig.id)]
    return Decision(
        0,
        fig.side,
        "in_sight_action",
        f"{fig.name} won the In Sight test: fire, charge, duck back or carry on (7.6.4)."
        + _why_not(t, fig, options),
        "7.6.4",
        tuple(options),
        accepts=("fire",),
        figure=fig.id,
    )


def _why_not(t: Table, fig: Figure, options: list[Action]) -> str:
    """Why an In Sight winner's choice lacks fire or a charge (7.6.4), so a decision of
    fewer buttons says why: " It cannot fire: ...; no enemy within 6" to charge." """
    fires = any(isinstance(o, Fire) for o in options)
    charges = any(isinstance(o, Charge) for o in options)
    if fires and charges:
        return ""
    sight = t.sight()
    seen = [e for e in t.alive(t.enemy_of(fig.side)) if sight.sees(fig.id, e.id)]
    parts: list[str] = []
    if not fires:
        if not adapter.can_fire(fig):
            parts.append("it cannot fire: no loaded weapon (7.9.2)")
        elif not seen:
            parts.append("it cannot fire: no enemy in its front arc and line of sight (7.9.7)")
        else:
            parts.append("it cannot fire: no enemy it sees is in its weapon's range")
    if not charges:
        near = [e for e in seen if sight.distance(fig.id, e.id) <= CHARGE_REACH]
        if near:
            # seen and near, yet no charge: a wall or rock stands on the way (7.11.2)
            parts.append(
                f'no enemy within {CHARGE_REACH:g}" it can reach to charge: a wall or rock '
                "is in the way"
            )
        else:
            parts.append(f'no enemy it sees within {CHARGE_REACH:g}" to charge')
    return " " + "; ".join(parts).capitalize() + "."


def _chargeable(t: Table, fig: Figure) -> list[Figure]:
    """The enemies an In Sight winner may charge (7.6.4): seen, within 6", and reached
    without going through a wall or rock (:func:`melee.charge_way_open`)."""
    sight = t.sight()
    return [
        e
        for e in t.alive(t.enemy_of(fig.side))
        if sight.sees(fig.id, e.id)
        and sight.distance(fig.id, e.id) <= CHARGE_REACH
        and melee_rules.charge_way_open(t, fig, e)
    ]


def check_in_sight(t: Table, frame: Frame, act: Action) -> None:
    d = frame.data
    fid = d["order"][d["index"]]
    if act.who != fid:
        raise IllegalActionError(f"it is {t.fig(fid).name}'s In Sight action")
    if isinstance(act, Fire):
        fire.check_fire(t, t.fig(fid), act, reaction=False)
    elif isinstance(act, Charge) and all(e.id != act.target for e in _chargeable(t, t.fig(fid))):
        target = next((f.name for f in t.battlefield.figures() if f.id == act.target), act.target)
        raise IllegalActionError(
            f"{t.fig(fid).name} may not charge {target}: an In Sight charge is at an "
            'enemy it sees within 6", reached without going through a wall or rock (7.6.4, '
            "7.11.2)"
        )
    elif not isinstance(act, (CarryOn, DuckBack, Charge)):
        raise IllegalActionError(f"{act} is not an In Sight action (7.6.4)")


def apply_in_sight(t: Table, frame: Frame, act: Action) -> None:
    frame.data["index"] += 1
    fid = act.who
    assert fid is not None
    in_sight_action(t, t.fig(fid), act)


def in_sight_action(t: Table, fig: Figure, act: Action) -> None:
    if isinstance(act, Fire):
        fire.volley(t, fig, act, rush=False, cause_of_reaction=None)
    elif isinstance(act, Charge):
        melee_rules.charge(t, [fig], t.fig(act.target))
    elif isinstance(act, DuckBack):
        threat = nearest_threat(t, fig)
        t.push("duck_back", figure=fig.id, cause=threat, auto=True, why="in_sight")
    else:
        t.emit(
            "carry_on",
            f"{fig.name} carries on (7.6.4).",
            section="7.6.4",
            figures=[fig.id],
        )


def nearest_threat(t: Table, fig: Figure) -> str | None:
    sight = t.sight()
    foes = [e for e in t.alive(t.enemy_of(fig.side)) if sight.either(fig.id, e.id)]
    if not foes:
        foes = t.alive(t.enemy_of(fig.side))
    if not foes:
        return None
    return min(foes, key=lambda e: base_distance(fig, e)).id


PROCEDURE = Procedure("in_sight", run_in_sight, decide_in_sight, check_in_sight, apply_in_sight)
