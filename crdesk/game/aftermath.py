"""What follows fire, a blast or a melee round: damage, Star Power, Cheating Death,
then the Man Down and Received Fire tests (7.9.11, 7.11.5, 5.2, 7.7).

One ``aftermath`` frame per volley, blast or round: the Stars hit decide on their
Star Power (5.2.1) and, about to be killed by an equal or higher Rep, on Cheating
Death (5.2.3); then the damage takes effect (:func:`apply_damage`) and the tests it
causes are pushed as a ``reaction`` frame, with the Duck Backs the damage table
gave.
"""

from __future__ import annotations

import functools
from typing import Any

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, wounded
from crdesk.game.actions import Action, CheatDeath, StarPower
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.geometry.measure import base_distance
from crdesk.model import Status
from crdesk.rules.common import words
from crdesk.rules.firearms.effects import knockdown
from crdesk.rules.firearms.tables import fd
from crdesk.rules.reaction import ReactionTest
from crdesk.rules.stars import star_fate, star_power


def push_aftermath(
    t: Table,
    cause: str,
    cause_rep: int | None,
    hits: dict[str, list[str]],
    missed: list[str],
    *,
    melee: bool = False,
    blast: bool = False,
) -> None:
    """What follows fire, a blast or a melee round: damage for ``hits`` (figure ->
    statuses), Star Power for the Stars among them, then the tests of ``missed``.
    ``blast``: a blast weapon did it, which outguns those it misses (7.9.1, 7.10)."""
    frame = t.push(
        "aftermath",
        cause=cause,
        cause_rep=cause_rep,
        hits=hits,
        missed=missed,
        stars=[fid for fid in hits if t.fig(fid).is_star],
        fates={},
        melee=melee,
    )
    if blast:  # only then, so the frames of other games stay as they were
        frame.data["blast"] = True


def run_aftermath(t: Table, frame: Frame) -> bool:
    d = frame.data
    while d["stars"]:
        fid = d["stars"][0]
        star = t.fig(fid)
        # Larger Than Life compares Reps as they stand: in melee both less the rounds
        # they lost this turn, the killer's as the Star's (7.8, 7.11.4, 5.2.2)
        own = star.rep - int(t.state["rep_lost"].get(fid, 0)) if d["melee"] else star.rep
        if star.star_power and d.get("use_power") is None:
            return False  # use or decline Star Power
        if d.get("fate") is None:
            damage = [Status(s) for s in d["hits"][fid]]
            sp = None
            if star.star_power and d.get("use_power"):
                sp = star_power(t.roll(), star.star_power, damage, melee=d["melee"], who=star.name)
                t.battlefield.update_figure(fid, star_power=sp.remaining)
                t.emit("star_power", sp.explain(), result=sp, figures=[fid])
                worst = sp.status
            else:
                worst = max(damage, key=lambda s: s.rank)
            assert worst is not None
            d["fate"] = {"status": worst.value}
            attacker = d["cause_rep"]
            if worst is Status.OBVIOUSLY_DEAD and (attacker is None or attacker >= own):
                return False  # Cheating Death?
        fate = star_fate(
            Status(d["fate"]["status"]),
            star_rep=own,
            attacker_rep=d["cause_rep"],
            cheat_death=bool(d["fate"].get("cheat")),
        )
        t.emit("star_fate", f"{star.name}: {fate.explain()}", result=fate, figures=[fid])
        late = d.get("knockdown", {}).get(fid)
        if late is not None and fate.status not in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD):
            # hit but, by Star Power, not put Out of the Fight: its knockdown now (FD §8)
            late_knockdown(t, fid, late)
        d["fates"][fid] = {
            "status": fate.status.value,
            "cheated": fate.cheated_death,
            "rep_change": fate.rep_change,
        }
        d["stars"].pop(0)
        d.pop("use_power", None)
        d.pop("fate", None)
    t.pop(frame)
    apply_damage(t, d)
    return True


def late_knockdown(game: Table, fid: str, data: dict[str, Any]) -> None:
    """A Star's knockdown roll once Star Power has made its damage less than Out of the
    Fight (FD §8, 5.2.1): prone and pushed 1" away from the shooter on a knockdown."""
    fig = game.fig(fid)
    kd = knockdown(
        game.roll(),
        fig.name,
        int(data["number"]),
        prone=fig.prone,
        shooter_at=(float(data["from"][0]), float(data["from"][1])),
        target_at=(fig.x, fig.y),
        can_enter=functools.partial(adapter.can_be_pushed, game, fid),
        id=fid,
    )
    if not kd.knocked_down:
        if kd.reason:
            game.emit("knockdown", kd.reason, result=kd, section=fd(8), figures=[fid])
        return
    before = adapter.knock_down(game, fid, kd)
    if before is not None:  # pushed into an enemy's sight (7.6.2)
        game.involuntary_in_sight(fid, before, "is pushed")


def decide_aftermath(t: Table, frame: Frame) -> Decision:
    d = frame.data
    fid = d["stars"][0]
    star = t.fig(fid)
    if d.get("fate") is None:  # Star Power first, only with dice to roll (5.2.1)
        return Decision(
            0,
            star.side,
            "star_power",
            f"{star.name} is hit ({', '.join(words(Status(s)) for s in d['hits'][fid])}): "
            f"roll {star.star_power} Star Power dice (each 1-3 reduces the damage one "
            "level) or decline (5.2)?",
            "5.2",
            (StarPower(fid, True), StarPower(fid, False)),
            figure=fid,
        )
    return Decision(
        0,
        star.side,
        "cheat_death",
        f"{star.name} would be killed: declare Cheating Death (removed to safety, -1 Rep "
        "for good) or not (5.2)?",
        "5.2",
        (CheatDeath(fid, True), CheatDeath(fid, False)),
        figure=fid,
    )


def check_aftermath(t: Table, frame: Frame, act: Action) -> None:
    """Only the awaited choice is legal (see :meth:`_legal`); a Star Power answer
    once the damage is settled, or with no dice, is refused with the reason: with
    none left a Star goes straight to Larger Than Life and Cheating Death (5.2.3)."""
    d = frame.data
    star = t.fig(d["stars"][0])
    if isinstance(act, StarPower) and act.figure == star.id:
        if not star.star_power:
            raise IllegalActionError(
                f"{star.name} has no Star Power dice left: Cheating Death needs none (5.2.3)"
            )
        raise IllegalActionError(f"{star.name}'s Star Power is already settled (5.2.1)")
    raise IllegalActionError(t.not_now())


def apply_aftermath(t: Table, frame: Frame, act: Action) -> None:
    d = frame.data
    if isinstance(act, StarPower):
        d["use_power"] = act.use
    elif isinstance(act, CheatDeath):
        d["fate"]["cheat"] = act.cheat


def apply_damage(t: Table, d: dict[str, Any]) -> None:
    """Damage takes effect; Man Down and Received Fire tests follow (7.9.11, 7.7)."""
    bf = t.battlefield
    cause = d["cause"]
    down: list[str] = []
    duck: list[str] = []
    again: list[str] = []
    for fid, damage in d["hits"].items():
        fig = t.fig(fid)
        if fid in d["fates"]:
            fate = d["fates"][fid]
            status = Status(fate["status"])
            if fate["cheated"]:
                bf.update_figure(
                    fid,
                    status=Status.LEAVE_THE_BATTLEFIELD,
                    rep=max(2, fig.rep + int(fate["rep_change"])),
                )
                t.emit(
                    "cheat_death",
                    f"{fig.name} cheats death: removed to safety, Rep now {t.fig(fid).rep} (5.2).",
                    section="5.2",
                    figures=[fid],
                )
                # as one that goes down, it drops the wounded it carried (7.12)
                wounded.drop(t, fid, "is removed to safety and leaves behind")
                continue
        else:
            status = max((Status(s) for s in damage), key=lambda s: s.rank)
        if status in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD):
            if fig.status in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD):
                # a wounded figure hit again (carried, or in a blast)
                if status.rank > fig.status.rank:
                    bf.update_figure(fid, status=status)
                if status is Status.OBVIOUSLY_DEAD:
                    # 7.12 carries an Out of the Fight friend; the dead are removed
                    # from play (7.8): its carrier no longer has Cover, Rush Shots or caps
                    carrier = wounded.carrier_of(t, fid)
                    if carrier is not None:
                        wounded.drop(t, carrier, "lays down the dead")
                continue
            bf.update_figure(fid, status=status, prone=True)
            down.append(fid)
            t.emit(
                "casualty",
                f"{fig.name} is {words(status)}.",
                section="7.9.11" if not d["melee"] else "7.11.5",
                figures=[fid],
            )
        elif status is Status.DUCK_BACK:
            duck.append(fid)
        elif status is Status.MINUS_ONE_REP and d["melee"]:
            # a Star's Star Power made this of a worse result (5.2.1): -1 to Rep until
            # the turn's melees are over (7.8), and another round at once (7.11.5)
            rep_lost = t.state["rep_lost"]
            rep_lost[fid] = int(rep_lost.get(fid, 0)) + 1
            again.append(fid)
    tests: dict[str, list[str]] = {}
    for fid in d["missed"]:
        if t.fig(fid).status.can_act:
            tests.setdefault(fid, []).append(ReactionTest.RECEIVED_FIRE.value)
    if down:
        sight = t.sight()
        for casualty in down:
            cas = t.fig(casualty)
            for friend in t.alive(cas.side):
                if friend.id in duck:
                    continue
                near = base_distance(friend, cas) <= 4.0
                if near and sight.either(friend.id, casualty):
                    mine = tests.setdefault(friend.id, [])
                    if ReactionTest.MAN_DOWN.value not in mine:
                        mine.append(ReactionTest.MAN_DOWN.value)
    if tests:
        reaction = t.push("reaction", cause=cause, tests=tests, groups=None, free_will={}, todo=[])
        if d.get("blast"):
            reaction.data["blast"] = True
    for fid in reversed(duck):
        # caught in its own blast (7.10.3): nobody else to duck back from, the nearest Cover
        own = None if cause == fid else cause
        t.push("duck_back", figure=fid, cause=own, auto=True, why="damage")
    for fid in again:
        # pushed last, so fought first: "immediately fight another round" (7.11.5)
        first, second = cause, fid
        if t.fig(first).status.can_act and t.fig(second).status.can_act:
            # the charger rolls first, as in the rounds before
            bout = next((f for f in reversed(t.frame_stack) if f.kind == "melee"), None)
            if bout is not None and bout.data["target"] == first:
                first, second = second, first
            t.push("melee", chargers=[first], target=second, stage="again")
    for fid in down:
        if fid in t.state["carrying"]:
            wounded.drop(t, fid, "goes down and drops")
        if t.state["grenades"].pop(fid, None) is not None:
            fig = t.fig(fid)
            t.emit(
                "grenade_dropped",
                f"{fig.name} drops a readied grenade: it explodes on the spot (7.10.1).",
                section="7.10.1",
                figures=[fid],
            )
            t.blast((fig.x, fig.y), fid, attacker_rep=None)


PROCEDURE = Procedure(
    "aftermath", run_aftermath, decide_aftermath, check_aftermath, apply_aftermath
)
