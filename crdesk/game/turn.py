"""The turn (7.1): both sides roll activation dice (doubles again), the higher goes
first; each side then activates its groups one at a time, highest Leader Rep first,
those whose Leader's Rep is at least the side's die; the turn ends (Rep lost in
melee restored, 7.8) and the next begins, or the turn limit ends the encounter.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from crdesk.game import adapter, duck_back, firearms
from crdesk.game import pefs as pef_rules
from crdesk.game.actions import Action, Activate, Pass
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.model import Status
from crdesk.rules import activation as act_rules
from crdesk.tables import PEF_REP


def apply_turn(t: Table, frame: Frame, act: Action) -> None:
    """Only the opening ``start`` step reaches the turn frame: it rolls activation.

    First every Star the scenario gives no Star Power gets its encounter's dice,
    1d6 per point of Rep (5.2.1); a value the scenario gives is kept."""
    for fig in list(t.battlefield.figures()):
        if fig.is_star and fig.star_power is None:
            t.battlefield.update_figure(fig.id, star_power=fig.rep)
            t.emit(
                "star_power",
                f"{fig.name} starts the encounter with {fig.rep} Star Power dice, "
                "1d6 per point of Rep (5.2.1).",
                section="5.2.1",
                figures=[fig.id],
            )


def run_turn(t: Table, frame: Frame) -> bool:
    d = frame.data
    if d["phase"] == "roll":
        if t.check_over():
            return True
        res = act_rules.roll_activation(t.roll(), t.sides)
        scores = {s: res.score(s) for s in t.sides}
        t.state["scores"] = scores
        first = res.first
        order = [first, t.enemy_of(first)]
        d.update(phase="sides", order=order, index=0)
        names = {s: t.battlefield.force(s).name for s in t.sides}
        text = (
            f"Turn {d['turn']}: activation dice "
            + ", ".join(f"{names[s]} {scores[s]}" for s in t.sides)
            + (" after rerolling doubles" if res.rerolled else "")
            + f"; {names[first]} activates first (7.1)."
        )
        t.emit("activation_roll", text, result=res, section="7.1")
        if t.settings.solo and not t.state["pef"]["placed"]:
            pef_rules.place_pefs(t)
        t.push("side", side=first, die=scores[first])
        return True
    if d["phase"] == "sides":
        if d["index"] == 0:
            d["index"] = 1
            second = d["order"][1]
            t.push("side", side=second, die=t.state["scores"][second])
            return True
        end_turn(t, frame)
        return True
    raise AssertionError(d["phase"])


def end_turn(t: Table, frame: Frame) -> None:
    bf = t.battlefield
    restore = t.state["rep_lost"]
    for fig in list(bf.figures()):
        values: dict[str, Any] = {}
        if fig.fast_moving:
            values["fast_moving"] = False
        if fig.status in (Status.RETURN_FIRE, Status.RUSH_SHOT, Status.MINUS_ONE_REP):
            values["status"] = Status.CARRY_ON
        if values:
            bf.update_figure(fig.id, **values)
    if restore:
        t.emit(
            "rep_restored",
            "Rep lost in this turn's melees is restored (7.8).",
            section="7.8",
            figures=sorted(restore),
        )
    turn = t.turn
    t.emit("turn_end", f"Turn {turn} ends (7.1).", section="7.1")
    t.state.update(
        turn=turn + 1,
        activated=[],
        ducked=[],
        rep_lost={},
        volleys=0,
        thrown=[],
        fired_from={},
    )
    if t.settings.max_turns is not None and turn >= t.settings.max_turns:
        ender = next((m.time_up for m in t.modules if m.time_up is not None), None)
        if ender is not None:
            ender(t, turn)  # an encounter not won: the campaign goes on as after a loss
        else:
            played = f"{turn} turn{'' if turn == 1 else 's'} played"
            t.end(None, f"{played}, the turn limit")
        return
    frame.data.update(turn=turn + 1, phase="roll")
    frame.data.pop("order", None)
    frame.data.pop("index", None)


def groups(t: Table, side: str) -> list[tuple[str, int, list[str]]]:
    """(leader, leader Rep, members) of the side's groups that have yet to activate."""
    key = (
        t.battlefield.revision,
        side,
        tuple(t.state["activated"]),
        tuple(t.state["ducked"]),
    )
    memo = t.memo.get("groups")
    if memo is not None and memo[0] == key:
        return memo[1]  # type: ignore[no-any-return]
    t.cohesion.update()
    done = set(t.state["activated"]) | set(t.state["ducked"])
    out = []
    graph: nx.Graph = t.cohesion.graph
    mine = [
        n
        for n in graph.nodes
        if graph.nodes[n].get("side") == side and n not in done and t.fig(n).status.can_act
    ]
    sub = graph.subgraph(mine)
    roster = {fid: k for k, fid in enumerate(t.battlefield.figure_ids())}
    for comp in nx.connected_components(sub):
        members = sorted(comp, key=roster.__getitem__)
        figs = [t.fig(m) for m in members]
        stars = [f for f in figs if f.is_star]
        leader = max(stars or figs, key=lambda f: (f.rep, -roster[f.id]))
        out.append((leader.id, leader.rep, members))
    out.sort(key=lambda g: roster[g[2][0]])
    t.memo["groups"] = (key, out)
    return out


def eligible(t: Table, frame: Frame) -> list[tuple[str, int, list[str]]]:
    die = frame.data["die"]
    return [g for g in groups(t, frame.data["side"]) if act_rules.may_activate(g[1], die)]


def run_side(t: Table, frame: Frame) -> bool:
    if t.check_over():
        return True
    if t.settings.solo and frame.data["side"] == t.np_side() and frame.data.get("pefs") != "moved":
        if "pefs" not in frame.data:
            die = int(frame.data["die"])
            if t.rules.interpretations.pef_moves_on_any_die or die <= PEF_REP:
                frame.data["pefs"] = pef_rules.pef_order(t)
                return True
            frame.data["pefs"] = "moved"
            if any(not p["resolved"] for p in t.state["pefs"]):
                t.emit(
                    "pef_move",
                    f"The PEFs do not move: the activation die {die} is above their Rep "
                    f"{PEF_REP} (11.2, as the rules settings read it).",
                    section="11.2",
                )
            return True
        # one PEF at a time: a contact found on the way is an In Sight first (7.6)
        queue: list[str] = frame.data["pefs"]
        if not queue:
            frame.data["pefs"] = "moved"
            return True
        contact = pef_rules.move_pef(t, queue.pop(0))
        if contact and t.rules.interpretations.pef_contact_in_sight:
            pef_rules.contact_in_sight(t, contact)
        return True
    if not eligible(t, frame):
        side = frame.data["side"]
        name = t.battlefield.force(side).name
        t.emit(
            "side_done",
            f"{name}: none of its groups still to act has a Leader of Rep {frame.data['die']} "
            "or more (7.1)."
            if groups(t, side)
            else f"{name}: every group has acted this turn (7.1).",
            section="7.1",
        )
        t.pop(frame)
        return True
    return False


def decide_side(t: Table, frame: Frame) -> Decision:
    side = frame.data["side"]
    groups = eligible(t, frame)
    top = max(g[1] for g in groups)
    options: list[Action] = [Activate(g[0]) for g in groups if g[1] == top]
    options.append(Pass())
    names = ", ".join(t.fig(g[0]).name for g in groups if g[1] == top)
    return Decision(
        0,
        side,
        "activate",
        f"{t.battlefield.force(side).name} (die {frame.data['die']}): activate a group, "
        f"highest Leader Rep first ({names}), or pass.",
        "7.1",
        tuple(options),
    )


def apply_side(t: Table, frame: Frame, act: Action) -> None:
    if isinstance(act, Pass):
        t.emit(
            "side_done",
            f"{t.battlefield.force(frame.data['side']).name} activates no more groups "
            "this turn (7.1).",
            section="7.1",
        )
        t.pop(frame)
        return
    assert isinstance(act, Activate)
    group = next(g for g in eligible(t, frame) if g[0] == act.leader)
    start_activation(t, frame.data["side"], group)


def start_activation(t: Table, side: str, group: tuple[str, int, list[str]]) -> None:
    leader, rep, members = group
    bf = t.battlefield
    duck_back.unhide_figure(t, [m for m in members if m not in t.state["ducked"]])
    for fid in members:
        fig = t.fig(fid)
        if fig.status in adapter.STILL_REACTING:
            bf.update_figure(fid, status=Status.CARRY_ON)
    sight = t.sight()
    seen = sorted(
        {e.id for e in t.alive(t.enemy_of(side)) for m in members if sight.either(m, e.id)}
    )
    allow = {m: float(act_rules.NORMAL_MOVE) for m in members}
    t.state["activations"] += 1
    t.push(
        "activation",
        number=t.state["activations"],
        unwilling=[],
        side=side,
        leader=leader,
        members=members,
        seen=seen,
        fired=[],
        used={m: 0.0 for m in members},
        allow=allow,
        moved=[],
        reloading=[],
        fast=False,
    )
    names = ", ".join(t.fig(m).name for m in members)
    t.emit(
        "activate",
        f"{t.fig(leader).name} (Rep {rep}) activates with {len(members)} figure(s): {names} (7.1).",
        section="7.1",
        figures=members,
    )
    if t.rules.firearms_detail:
        firearms.start_activation(t, members)


PROCEDURE = Procedure("turn", run_turn, None, None, apply_turn)
SIDE = Procedure("side", run_side, decide_side, None, apply_side)
