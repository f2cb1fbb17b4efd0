"""Reaction tests (7.7, 7.8): Received Fire and Man Down, taken by each group at once
with the Leader Die and a Star's Free Will, and their results carried out -- Duck
Back, Leave the Battlefield, Return Fire and Rush Shot at the cause (7.4.4, 7.7.3).
Who is Outgunned is :func:`crdesk.game.adapter.outgunned`'s to say (7.9.1).
"""

from __future__ import annotations

from typing import Any

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, fire, firearms, grenades, wounded
from crdesk.game.actions import Action, Fire, FreeWill, Roll
from crdesk.game.records import Decision, Frame
from crdesk.game.table import Procedure, Table
from crdesk.model import Figure, Status
from crdesk.rules.common import words
from crdesk.rules.reaction import Losses, ReactionTest, reaction_test

EXCHANGE_LIMIT = 40
"""Volleys in one chain of fire after which it breaks off (a guard, never met in play)."""


def run_reaction(t: Table, frame: Frame) -> bool:
    d = frame.data
    if d["groups"] is None:
        d["groups"] = reaction_groups(t, d["tests"])
    while d["todo"]:
        item = d["todo"].pop(0)
        carry_out(t, item, d["cause"])
        return True
    while d["groups"]:
        group = d["groups"][0]
        for fid in group:
            fig = t.fig(fid)
            if fig.is_star and fig.status.can_act and fid not in d["free_will"]:
                return False  # the Star's Free Will
        d["groups"].pop(0)
        take_reaction(t, d, [f for f in group if t.fig(f).status.can_act])
        return True
    t.pop(frame)
    return True


def reaction_groups(t: Table, tests: dict[str, list[str]]) -> list[list[str]]:
    t.cohesion.update()
    out: list[list[str]] = []
    placed: set[str] = set()
    for side in t.sides:
        for group in t.cohesion.groups(t.rules, side):
            members = [m for m in group.members if m in tests]
            if members:
                out.append(members)
                placed.update(members)
    roster = t.battlefield.figure_ids()
    out += [[f] for f in roster if f in tests and f not in placed]
    return out


def decide_reaction(t: Table, frame: Frame) -> Decision:
    d = frame.data
    group = d["groups"][0]
    star = next(
        t.fig(f)
        for f in group
        if t.fig(f).is_star and t.fig(f).status.can_act and f not in d["free_will"]
    )
    tests = " and ".join(ReactionTest(tgt).label for tgt in d["tests"][star.id])
    return Decision(
        0,
        star.side,
        "free_will",
        f"{star.name} takes {tests}: choose to pass 2, 1 or 0 d6 (Free Will), or roll (5.2).",
        "5.2",
        (FreeWill(star.id, 2), FreeWill(star.id, 1), FreeWill(star.id, 0), Roll()),
        figure=star.id,
    )


def apply_reaction(t: Table, frame: Frame, act: Action) -> None:
    d = frame.data
    decision = decide_reaction(t, frame)
    assert decision.figure is not None
    d["free_will"][decision.figure] = act.passes if isinstance(act, FreeWill) else None


def take_reaction(t: Table, d: dict[str, Any], group: list[str]) -> None:
    if not group:
        return
    cause = t.fig(d["cause"])
    sight = t.sight()
    tests_of = {f: [ReactionTest(tgt) for tgt in d["tests"][f]] for f in group}
    union = tuple(
        tgt
        for tgt in (ReactionTest.RECEIVED_FIRE, ReactionTest.MAN_DOWN)
        if any(tgt in ts for ts in tests_of.values())
    )
    # what fired on them: a blast weapon ranks 5 whoever threw it (7.9.1, 7.10);
    # Full Auto counts the shooter's Outgunned Ranking +1 (FD §5)
    rank = adapter.BLAST_RANK if d.get("blast") else None
    if rank is None and t.rules.firearms_detail:
        rank = firearms.full_auto_rank(t, cause)
    testers = [
        adapter.reacting_figure(
            t.fig(f),
            cause,
            sight,
            t.rules,
            free_will=d["free_will"].get(f),
            cause_rank=rank,
            shoots_back=shoots_back(t, t.fig(f), cause),
            tests=tuple(tests_of[f]),
            still=adapter.carrying_out(t, t.fig(f)),
            # 7.12: a carrier fired on counts as in Cover -- for the shot, and for the
            # Received Fire test the shot causes (its Cover die, 7.7)
            counts_in_cover=ReactionTest.RECEIVED_FIRE in tests_of[f]
            and wounded.carried(t, f) is not None,
        )
        for f in group
    ]
    leader_rep = leader_die_rep(t, group)
    side = t.fig(group[0]).side
    losses = Losses(
        side_friends=side_losses(t, side), side_enemies=side_losses(t, t.enemy_of(side))
    )
    res = reaction_test(
        t.roll(),
        testers,
        union,
        leader_rep=leader_rep,
        losses=losses,
        options=t.rules,
    )
    t.emit("reaction", res.explain(), result=res, figures=group)
    todo: list[dict[str, Any]] = []
    for fr in res.figures:
        # each figure read only the tests it takes (its own rows of the one roll)
        status = max((s for _, _, s in fr.by_test), key=lambda s: s.rank)
        fig = t.fig(fr.id)
        if adapter.carrying_out(t, fig) and fig.status.rank > status.rank:
            status = fig.status
        todo.append({"figure": fr.id, "status": status.value})
    d["todo"].extend(todo)


def leader_die_rep(t: Table, group: list[str]) -> int | None:
    """The Star Leader's Rep for the Leader Die, if the group has one and it is not
    alone (6.3.2)."""
    first = t.fig(group[0])
    for g in t.cohesion.groups(t.rules, first.side):
        if group[0] in g.members:
            if g.star_led and len(g.members) > 1:
                return t.fig(g.leader).rep
            return None
    return None


def side_losses(t: Table, side: str) -> int:
    return sum(
        1
        for f in t.battlefield.figures()
        if f.side == side and f.status in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)
    )


_WORSE_THAN_FIRING = frozenset({Status.OUTGUNNED, Status.DUCK_BACK})
"""Reaction results a figure waiting to Return Fire or Rush Shot may be given by a later
test before its turn to fire comes (7.7.3); leaving the battlefield takes it off the
table, so it cannot act at all."""


def carry_out(t: Table, item: dict[str, Any], cause_id: str) -> None:
    """A reaction result takes effect at once (7.4.4, 7.7)."""
    fig = t.fig(item["figure"])
    status = Status(item["status"])
    bf = t.battlefield
    if not fig.status.can_act:
        return
    worse_now = fig.status in _WORSE_THAN_FIRING and adapter.carrying_out(t, fig)
    if status in (Status.RETURN_FIRE, Status.RUSH_SHOT) and worse_now:
        # a later test in the chain this result waited behind gave it a worse one (7.7.3:
        # "cannot score better than its current result, but can score worse"): it ducked
        # back, and "may not fire until ... a later reaction test tells it to" (7.4.4)
        t.emit(
            "no_fire",
            f"{fig.name} does not {words(status)} after all: a later test made it "
            f"{words(fig.status)} (7.7.3).",
            section="7.7.3",
            figures=[fig.id],
        )
        return
    if status is Status.LEAVE_THE_BATTLEFIELD:
        bf.update_figure(fig.id, status=status)
        t.emit(
            "leave",
            f"{fig.name} leaves the battlefield (7.4.4).",
            section="7.4.4",
            figures=[fig.id],
        )
        # removed from the table, it can carry nobody (7.12): the wounded stays where
        # it was, for a friend to retrieve
        wounded.drop(t, fig.id, "leaves behind")
        return
    if status in (Status.DUCK_BACK, Status.OUTGUNNED):
        bf.update_figure(fig.id, status=status)
        own = None if cause_id == fig.id else cause_id  # its own blast: no one to hide from
        t.push("duck_back", figure=fig.id, cause=own, auto=True, why="reaction")
        return
    if status in (Status.RETURN_FIRE, Status.RUSH_SHOT):
        bf.update_figure(fig.id, status=status)
        cause = t.fig(cause_id)
        shot = Fire(fig.id, ((cause_id, 0),))
        try:
            if not cause.status.can_act:
                raise IllegalActionError(f"{cause.name} is already down")
            if t.state["volleys"] >= EXCHANGE_LIMIT:
                raise IllegalActionError("the exchange of fire breaks off")
            fire.check_fire(t, fig, shot, reaction=True)
        except IllegalActionError as exc:
            if cause.status.can_act and grenades.reaction_throw(t, fig, cause):
                return
            t.emit(
                "no_fire",
                f"{fig.name} would {words(status)} but cannot fire at {cause.name}: {exc}.",
                section="7.7",
                figures=[fig.id],
            )
            return
        dice = adapter.target_dice(fig, t.rules)
        fire.volley(
            t,
            fig,
            Fire(fig.id, ((cause_id, dice),)),
            rush=status is Status.RUSH_SHOT,
            cause_of_reaction=cause_id,
        )
        return
    if fig.status is not Status.CARRY_ON and fig.status not in adapter.STILL_REACTING:
        bf.update_figure(fig.id, status=Status.CARRY_ON)


def shoots_back(t: Table, fig: Figure, cause: Figure) -> bool:
    """Whether the figure can shoot back at the cause of its test: fire at it, or
    throw a readied grenade at it (7.9.1's "cannot shoot back for any reason").  A
    figure barred from firing (8.5's two a window, reloading: :func:`fire.barred`)
    cannot fire back, though it sees the cause with a loaded weapon."""
    sight = t.sight()
    fires = not fire.barred(t, fig) and adapter.can_shoot_back(fig, cause, sight, t.rules)
    return fires or grenades.can_throw_at(t, fig, cause)


PROCEDURE = Procedure("reaction", run_reaction, decide_reaction, None, apply_reaction)
