"""The active group's actions (7.2-7.4): move or Fast Move, fire once each, charge,
go prone or stand, reload (not with a Fast Move, 7.9.2), ready and throw a grenade,
change floors, pick up or drop a wounded friend, capture, leave the table, and in a
solo game the non-player group's table 11.4 -- each judged and handed to the
procedure that plays it.
"""

from __future__ import annotations

from crdesk.errors import IllegalActionError
from crdesk.game import buildings as building_rules
from crdesk.game import capture as capture_rules
from crdesk.game import exits as exit_rules
from crdesk.game import fire, firearms, grenades
from crdesk.game import melee as melee_rules
from crdesk.game import moving as walking
from crdesk.game import np_move as np_rules
from crdesk.game import wounded as wounds
from crdesk.game.actions import (
    Action,
    Capture,
    ChangeFloor,
    Charge,
    Dispatch,
    Drop,
    End,
    Exit,
    FastMove,
    Fire,
    Move,
    NpMove,
    Pickup,
    Prone,
    Ready,
    Reload,
    Stand,
    Throw,
    fmt_num,
)
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.rules import activation as act_rules


def run_activation(t: Table, frame: Frame) -> bool:
    if t.check_over():
        return True
    if not t.members(frame):
        finish_activation(t, frame, "no figure of the group can act any more")
        return True
    return False


def finish_activation(t: Table, frame: Frame, why: str = "") -> None:
    d = frame.data
    t.state["activated"] = sorted(set(t.state["activated"]) | set(d["members"]))
    t.vis.set_moving(())
    for module in t.modules:  # the encounter's objectives (12.1, 12.2)
        if module.activation_end is not None:
            module.activation_end(t, d["side"], d["members"])
    t.emit(
        "activation_end",
        f"{t.fig(d['leader']).name}'s group ends its activation"
        + (f": {why}" if why else "")
        + ".",
        section="7.1",
        figures=d["members"],
    )
    t.pop(frame)


def decide_activation(t: Table, frame: Frame) -> Decision:
    d = frame.data
    options: list[Action] = [End()]
    members = t.members(frame)
    if not d["fast"] and not d["moved"]:
        movers = tuple(f.id for f in members if walking.fast_problem(t, frame, f) is None)
        if movers:
            options.append(FastMove(movers))
    for f in members:
        if f.prone:
            if t.movement_left(frame, f.id) > 0:
                options.append(Stand(f.id))
        else:
            options.append(Prone(f.id))
        if (
            f.out_of_ammo
            and f.id not in d["fired"]
            and f.id not in d["reloading"]
            and f.id not in d.get("emptied", ())
            and not f.fast_moving
            and firearms.may_reload(t, f)
        ):
            options.append(Reload(f.id))
        if grenades.can_ready(t, frame, f) is None:
            options.append(Ready(f.id))
        if f.id in t.state["carrying"]:
            options.append(Drop(f.id))
        if exit_rules.exit_edge(t, frame, f) is not None:
            options.append(Exit(f.id))
    if np_rules.np_move_why(t, frame) is None:
        options.append(NpMove(d["leader"]))
    options.extend(firearms.activation_options(t, frame, members))
    for f in members:
        for target in fire.auto_targets(t, f, active=True, frame=frame):
            options.append(target)
            break
    leader = t.fig(d["leader"]).name
    return Decision(
        0,
        d["side"],
        "act",
        f"{leader}'s group is active: move, fire (once each), charge, go prone, "
        "reload, or end the activation.",
        "7.2",
        tuple(options),
        accepts=(
            *("move", "fire", "charge", "throw", "pickup", "floor", "capture", "dispatch"),
            *firearms.accepts(t),
        ),
    )


def check_activation(t: Table, frame: Frame, act: Action) -> None:
    d = frame.data
    fid = act.who
    if isinstance(act, FastMove):
        walking.check_fast(t, frame, act)
        return
    if isinstance(act, NpMove):
        why = np_rules.np_move_why(t, frame)
        if why is None and act.figure != d["leader"]:
            why = f"{act.figure} does not lead the active group"
        if why is not None:
            raise IllegalActionError(why)
        return
    if fid is None:
        raise IllegalActionError(t.not_now())
    fig = t.member(frame, fid)
    if firearms.handles(act):  # indirect fire, readying a weapon (FD §4, §10)
        firearms.check_action(t, frame, fig, act)
    elif isinstance(act, Move):
        walking.check_move(t, frame, fig, act, free=False)
    elif isinstance(act, Fire):
        if fid in d["fired"]:
            raise IllegalActionError(f"{fig.name} has already fired this activation (7.2)")
        if fid in d["reloading"]:
            raise IllegalActionError(f"{fig.name} is reloading and cannot fire (7.9.2)")
        fire.check_fire(t, fig, act, reaction=False)
    elif isinstance(act, Charge):
        melee_rules.check_charge(t, frame, fig, act)
    elif isinstance(act, Prone):
        if fig.prone:
            raise IllegalActionError(f"{fig.name} is already prone")
    elif isinstance(act, Stand):
        if not fig.prone:
            raise IllegalActionError(f"{fig.name} is not prone")
    elif isinstance(act, Ready):
        why = grenades.can_ready(t, frame, fig)
        if why is not None:
            raise IllegalActionError(why)
    elif isinstance(act, Throw):
        grenades.check_throw(t, frame, fig, act)
    elif isinstance(act, Pickup):
        wounds.check_pickup(t, frame, fig, act)
    elif isinstance(act, Drop):
        if fid not in t.state["carrying"]:
            raise IllegalActionError(f"{fig.name} is carrying nobody")
    elif isinstance(act, ChangeFloor):
        building_rules.check_floor(t, frame, fig, act)
    elif isinstance(act, Capture):
        capture_rules.check_capture(t, fig, act)
    elif isinstance(act, Exit):
        if exit_rules.exit_edge(t, frame, fig) is None:
            raise IllegalActionError(exit_rules.no_exit(t, frame, fig))
    elif isinstance(act, Reload):
        why = firearms.reload_problem(t, fig) if t.rules.firearms_detail else None
        if why is not None:
            raise IllegalActionError(why)
        if not fig.out_of_ammo and not t.rules.firearms_detail:
            raise IllegalActionError(f"{fig.name}'s weapon is not out of ammo")
        if fid in d["fired"]:
            raise IllegalActionError(
                f"{fig.name} fired this activation: it reloads at its next (7.9.2)"
            )
        if fid in d.get("emptied", ()):
            raise IllegalActionError(
                f"{fig.name} ran out of ammo this activation: it reloads at its next (7.9.2)"
            )
        if fig.fast_moving:
            raise IllegalActionError(
                f"{fig.name} was declared a Fast Mover this activation: a reloading "
                "figure moves no more than its normal move (7.9.2)"
            )
    else:
        raise IllegalActionError(t.not_now())


def apply_activation(t: Table, frame: Frame, act: Action) -> None:
    d = frame.data
    bf = t.battlefield
    if firearms.handles(act):  # indirect fire, readying a weapon (FD §4, §10)
        firearms.apply_action(t, frame, act)
    elif isinstance(act, End):
        finish_activation(t, frame)
    elif isinstance(act, FastMove):
        walking.fast_move(t, frame, act)
    elif isinstance(act, Move):
        walking.walk(t, frame, t.fig(act.figure), act)
    elif isinstance(act, Fire):
        d["fired"].append(act.figure)
        fire.volley(t, t.fig(act.figure), act, rush=False, cause_of_reaction=None)
    elif isinstance(act, Charge):
        melee_rules.start_charge(t, frame, act)
    elif isinstance(act, Prone):
        d["used"][act.figure] = d["allow"][act.figure]
        bf.update_figure(act.figure, prone=True)
        t.emit(
            "prone",
            f"{t.fig(act.figure).name} goes prone: no more movement until next active (7.4.3).",
            section="7.4.3",
            figures=[act.figure],
        )
    elif isinstance(act, Stand):
        half = d["allow"][act.figure] / 2
        d["used"][act.figure] = min(d["allow"][act.figure], d["used"][act.figure] + half)
        bf.update_figure(act.figure, prone=False)
        t.emit(
            "stand",
            f'{t.fig(act.figure).name} stands up, using half its movement ({fmt_num(half)}"'
            ", 7.4.3).",
            section="7.4.3",
            figures=[act.figure],
        )
    elif isinstance(act, Ready):
        grenades.ready(t, frame, t.fig(act.figure))
    elif isinstance(act, Throw):
        grenades.throw(t, frame, t.fig(act.figure), act.point)
    elif isinstance(act, Pickup):
        wounds.pickup(t, frame, t.fig(act.figure), t.fig(act.wounded))
    elif isinstance(act, Drop):
        wounds.drop(t, act.figure, "puts down")
    elif isinstance(act, ChangeFloor):
        building_rules.change_floor(t, frame, t.fig(act.figure), act.floor)
    elif isinstance(act, Capture):
        capture_rules.capture(t, t.fig(act.figure), t.fig(act.target), isinstance(act, Dispatch))
    elif isinstance(act, Exit):
        exit_rules.exit_table(t, frame, t.fig(act.figure))
    elif isinstance(act, NpMove):
        np_rules.np_move(t, frame)
    elif isinstance(act, Reload):
        d["reloading"].append(act.figure)
        normal = float(act_rules.NORMAL_MOVE)
        d["allow"][act.figure] = min(d["allow"][act.figure], normal)
        bf.update_figure(act.figure, out_of_ammo=False)
        t.emit(
            "reload",
            f"{t.fig(act.figure).name} reloads: cannot fire this activation and moves "
            "no more than normal (7.9.2).",
            section="7.9.2",
            figures=[act.figure],
        )
        if t.rules.firearms_detail:
            firearms.do_reload(t, act.figure)


PROCEDURE = Procedure(
    "activation", run_activation, decide_activation, check_activation, apply_activation
)
