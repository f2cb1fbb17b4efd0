"""Received Fire and Man Down, the reaction tests of 7.7 (with 6.3.2 Leader Die, 7.9.1, 5.2).

One roll of 2d6 serves every figure taking the test (+1d6 when in Cover, + the
Leader Die on Received Fire); each figure compares it with its own Rep, so one
group can react in several ways.  Passes are capped at 2 (4.1).  When one event
causes both tests, the dice are read on both rows and the worse result applies
(7.7.2); a figure still carrying out a reaction cannot score better than it
(7.7.3).  Stars may use Free Will and are never Outgunned (5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from crdesk.dice import DiceSource, count_passes
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, check_rep, faces_text, figure_id, words, worse
from crdesk.tables import reaction_row

SECTION = "7.7"


class ReactionTest(StrEnum):
    """The two reaction tests of 7.7."""

    RECEIVED_FIRE = "received_fire"
    MAN_DOWN = "man_down"

    @property
    def label(self) -> str:
        return "Received Fire" if self is ReactionTest.RECEIVED_FIRE else "Man Down"


@dataclass(frozen=True, slots=True)
class ReactingFigure:
    """One figure taking a reaction test."""

    name: str
    rep: int
    in_cover: bool = False
    outgunned: bool = False
    """Outgunned by the cause of the test (7.9.1); ignored for Stars."""
    is_star: bool = False
    current: Status | None = None
    """A reaction the figure is still carrying out (7.7.3): it cannot score better."""
    free_will: int | None = None
    """A Star's chosen passes (2, 1 or 0) instead of rolling (5.2 Free Will)."""
    id: str = ""
    """The figure's id; defaults to the name when empty.  Results are keyed by it."""
    tests: tuple[ReactionTest, ...] = ()
    """The tests this figure takes, when not all of the roll's: in one group one figure
    may be missed (Received Fire) and another only see a friend fall (Man Down); each
    reads its own rows of the one roll (7.7).  Empty: every test of the roll."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)


@dataclass(frozen=True, slots=True)
class Losses:
    """Figures Out of the Fight or Obviously Dead, for Man Down pass 1 (7.7)."""

    side_friends: int = 0
    side_enemies: int = 0
    group_friends: int | None = None
    group_enemies: int | None = None

    def twice_as_many(self, options: RulesOptions) -> bool:
        """At least twice as many friends down as enemies, and at least 2.

        Interpretation ``man_down_compare_sides``: count whole sides (default) or
        only the figure's group against the enemy group.
        """
        if options.interpretations.man_down_compare_sides:
            friends, enemies = self.side_friends, self.side_enemies
        else:
            friends = self.group_friends if self.group_friends is not None else self.side_friends
            enemies = self.group_enemies if self.group_enemies is not None else self.side_enemies
        return friends >= 2 and friends >= 2 * enemies


@dataclass(frozen=True, slots=True)
class FigureReaction(RuleResult):
    """How one figure reacted: its passes per test and the status that applies.

    ``id`` is the tester's id (its name when it was given none); ``name`` is what
    the sentence prints.
    """

    name: str
    rep: int
    passed: int
    """Passes on the Received Fire row (with the Leader Die) or else the Man Down row."""
    by_test: tuple[tuple[ReactionTest, int, Status], ...]
    status: Status
    reason: str
    section: str = SECTION
    id: str = ""

    @property
    def result(self) -> str:
        return self.status.value

    def explain(self) -> str:
        return self.reason


@dataclass(frozen=True, slots=True)
class ReactionResult(RuleResult):
    """One reaction roll and what it meant for every figure that took it."""

    PARTS: ClassVar[tuple[str, ...]] = ("figures",)

    tests: tuple[ReactionTest, ...]
    faces: tuple[int, ...]
    cover_die: int | None
    leader_die: int | None
    leader_passed: bool
    figures: tuple[FigureReaction, ...]
    section: str = SECTION

    @property
    def result(self) -> str:
        """The worst status among the figures (a summary for one-figure tests)."""
        return max((f.status for f in self.figures), key=lambda s: s.rank).value

    def explain(self) -> str:
        return " ".join(f.explain() for f in self.figures)

    def for_figure(self, id_: str) -> FigureReaction:
        """The reaction of the figure with this id (its name when it was given no id)."""
        for fig in self.figures:
            if figure_id(fig.name, fig.id) == id_:
                return fig
        raise KeyError(id_)


def reaction_test(
    dice: DiceSource,
    testers: Sequence[ReactingFigure],
    tests: Sequence[ReactionTest] = (ReactionTest.RECEIVED_FIRE,),
    *,
    leader_rep: int | Sequence[int] | None = None,
    losses: Losses | None = None,
    options: RulesOptions | None = None,
) -> ReactionResult:
    """Take Received Fire and/or Man Down (7.7) for figures of one group with one roll.

    ``leader_rep`` is the Rep of the group's Star Leader for the Leader Die
    (6.3.2): pass None when there is no Star Leader or the Leader is alone.  With
    several Leaders pass all their Reps: only the highest-Rep Leader's die is
    rolled.  ``tests`` with both tests reads both rows and applies the worse (7.7.2);
    a tester's own ``tests`` narrow that to the tests it takes.
    """
    options = options or RulesOptions()
    losses = losses or Losses()
    if leader_rep is not None and not isinstance(leader_rep, int):
        leader_rep = max(leader_rep) if leader_rep else None
    interp = options.interpretations
    if not testers:
        raise IllegalActionError("a reaction test needs at least one figure")
    if not tests:
        raise IllegalActionError("name the reaction test: Received Fire and/or Man Down")
    tests = tuple(dict.fromkeys(tests))
    for t in testers:
        check_rep(t.rep)
        if t.tests and not set(t.tests) <= set(tests):
            raise IllegalActionError(f"{t.name} takes a test the roll is not for")
        if t.free_will is not None:
            if not t.is_star:
                raise IllegalActionError(f"{t.name} is not a Star: only Stars have Free Will")
            if t.free_will not in (0, 1, 2):
                raise IllegalActionError("Free Will chooses to pass 2, 1 or 0 d6")

    rolling = [t for t in testers if t.free_will is None]
    rolling_ids = tuple(t.key for t in rolling)
    cover_flags = [t.in_cover for t in rolling]
    if interp.cover_die_mixed_group:
        use_cover_die = any(cover_flags)
    else:
        use_cover_die = bool(cover_flags) and all(cover_flags)
    faces: tuple[int, ...] = ()
    roll = None
    if rolling:
        count = 2 + (1 if use_cover_die else 0)
        who = ", ".join(t.name for t in rolling)
        roll = dice.roll(
            count, section=SECTION, table="Reaction Tests", who=who, figures=rolling_ids
        )
        faces = roll.faces
    cover_die = faces[2] if use_cover_die and len(faces) > 2 else None

    leader_die: int | None = None
    leader_passed = False
    leader_roll = None
    if ReactionTest.RECEIVED_FIRE in tests and leader_rep is not None and rolling:
        leader_roll = dice.roll(
            1,
            section="6.3.2",
            table="Leader Die",
            who="Star Leader",
            target=leader_rep,
            figures=rolling_ids,
        )
        leader_die = leader_roll.faces[0]
        leader_passed = leader_die <= leader_rep
        dice.note(
            leader_roll,
            "passed: +1 passed d6 for every figure" if leader_passed else "failed",
            passed=int(leader_passed),
        )

    twice = losses.twice_as_many(options)
    figures: list[FigureReaction] = []
    for t in testers:
        figures.append(
            _react(t, tests, faces, cover_die, leader_passed, leader_die, twice, options)
        )
    if roll is not None:
        dice.note(roll, "; ".join(f"{f.name}: {words(f.status)}" for f in figures))
    return ReactionResult(
        tests=tests,
        faces=faces,
        cover_die=cover_die,
        leader_die=leader_die,
        leader_passed=leader_passed,
        figures=tuple(figures),
    )


def _react(
    t: ReactingFigure,
    tests: tuple[ReactionTest, ...],
    faces: tuple[int, ...],
    cover_die: int | None,
    leader_passed: bool,
    leader_die: int | None,
    twice: bool,
    options: RulesOptions,
) -> FigureReaction:
    outgunned = t.outgunned and not t.is_star
    if t.free_will is not None:
        base = t.free_will
        how = f"chose to pass {base} (Free Will, 5.2)"
    else:
        own = faces[:2] + ((cover_die,) if cover_die is not None and t.in_cover else ())
        base = count_passes(own, t.rep)
        how = f"rolled {faces_text(own)} vs Rep {t.rep}: passed {base}"
        if cover_die is not None and not t.in_cover:
            how += f" (Cover die {cover_die} ignored: not in Cover)"
    by_test: list[tuple[ReactionTest, int, Status]] = []
    parts: list[str] = []
    for test in tuple(x for x in tests if x in t.tests) if t.tests else tests:
        passed = base
        qualifiers: list[str] = []
        if test is ReactionTest.RECEIVED_FIRE and leader_passed and t.free_will is None:
            passed = base + 1
            if options.interpretations.leader_die_capped:
                passed = min(2, passed)
            qualifiers.append(f"Leader Die {leader_die} passed, {passed} passed")
        row = reaction_row(passed)
        if test is ReactionTest.RECEIVED_FIRE:
            status = row.received_fire_outgunned if outgunned else row.received_fire
            if outgunned:
                qualifiers.append("Outgunned")
        else:
            status = row.man_down_twice_as_many if twice else row.man_down
            if twice and passed == 1:
                qualifiers.append("twice as many friends down")
        by_test.append((test, passed, status))
        label = "Outgunned, Duck Back" if status is Status.OUTGUNNED else words(status)
        quals = f" ({'; '.join(qualifiers)})" if qualifiers else ""
        parts.append(f"{test.label}{quals}: {label}")
    status = max((s for _, _, s in by_test), key=lambda s: s.rank)
    reason = f"{t.name} {how}; " + "; ".join(parts)
    if len(by_test) > 1:
        reason += f"; the worse applies (7.7.2): {words(status)}"
    if t.current is not None and t.current.rank > status.rank:
        reason += (
            f"; still carrying out {words(t.current)}, it cannot score better (7.7.3): "
            f"{words(t.current)}"
        )
        status = worse(status, t.current)
    reason += f" ({SECTION})."
    return FigureReaction(
        name=t.name,
        rep=t.rep,
        passed=by_test[0][1],
        by_test=tuple(by_test),
        status=status,
        reason=reason,
        id=t.key,
    )
