"""Turn sequence 7.1: activation dice, who may activate and in which order; Fast Move 7.4.2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from crdesk.dice import DiceSource, count_passes
from crdesk.errors import IllegalActionError
from crdesk.rules.common import RuleResult, check_rep, faces_text, figure_id

NORMAL_MOVE = 8
"""A normal move is 8" (7.4)."""
FAST_MOVE_STEP = 4
"""Fast Move 7.4.2: +4" per d6 passed."""


@dataclass(frozen=True, slots=True)
class ActivationResult(RuleResult):
    """Both sides' activation dice (7.1); doubles are rerolled."""

    sides: tuple[str, ...]
    scores: tuple[int, ...]
    rerolled: tuple[tuple[int, ...], ...]
    """Earlier rolls that were doubles."""
    section: str = "7.1"

    @property
    def first(self) -> str:
        """The side that activates first: the higher score."""
        return self.sides[self.scores.index(max(self.scores))]

    @property
    def result(self) -> str:
        return f"{self.first}_activates_first"

    def score(self, side: str) -> int:
        return self.scores[self.sides.index(side)]

    def explain(self) -> str:
        rolls = ", ".join(f"{s} {v}" for s, v in zip(self.sides, self.scores, strict=True))
        again = (
            f" after rerolling doubles {'; '.join(faces_text(r) for r in self.rerolled)}"
            if self.rerolled
            else ""
        )
        return f"Activation: {rolls}{again}; {self.first} activates first (7.1)."


def roll_activation(
    dice: DiceSource, sides: Sequence[str] = ("player", "enemy")
) -> ActivationResult:
    """Each side rolls its own d6; doubles are rerolled; higher goes first (7.1)."""
    if len(sides) != 2 or sides[0] == sides[1]:
        raise IllegalActionError("activation is rolled by exactly two sides")
    rerolled: list[tuple[int, ...]] = []
    while True:
        roll = dice.roll(2, section="7.1", table="Activation", who=" and ".join(sides))
        if roll.faces[0] != roll.faces[1]:
            break
        dice.note(roll, "doubles: reroll")
        rerolled.append(roll.faces)
    result = ActivationResult(tuple(sides), roll.faces, tuple(rerolled))
    dice.note(roll, f"{result.first} activates first")
    return result


def may_activate(leader_rep: int, die: int) -> bool:
    """A group may activate if its Leader's Rep is equal to or higher than the die (7.1)."""
    return leader_rep >= die


def activation_order(groups: Sequence[tuple[str, int]], die: int) -> tuple[str, ...]:
    """Groups (name, Leader Rep) that may activate on ``die``, highest Leader Rep first.

    Ties keep the given order (the player's choice, 7.1).
    """
    eligible = [(name, rep) for name, rep in groups if may_activate(rep, die)]
    return tuple(name for name, _ in sorted(eligible, key=lambda g: -g[1]))


@dataclass(frozen=True, slots=True)
class FastMover:
    """A figure declared as fast moving (7.4.2)."""

    name: str
    rep: int
    carrying_wounded: bool = False
    """Carriers may Fast Move but pass at most 1d6 (7.12)."""
    id: str = ""
    """The figure's id; defaults to the name when empty.  Results are keyed by it."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)


@dataclass(frozen=True, slots=True)
class FastMoveFigure(RuleResult):
    """How far one fast mover may go (``id``: its id, or its name when it had none)."""

    name: str
    rep: int
    passed: int
    distance: int
    reason: str
    section: str = "7.4.2"
    id: str = ""

    @property
    def result(self) -> str:
        return f"move_{self.distance}"


@dataclass(frozen=True, slots=True)
class FastMoveResult(RuleResult):
    """One 2d6 roll for the group, read against each fast mover's Rep (7.4.2)."""

    PARTS: ClassVar[tuple[str, ...]] = ("figures",)

    faces: tuple[int, ...]
    figures: tuple[FastMoveFigure, ...]
    section: str = "7.4.2"

    @property
    def result(self) -> str:
        return "fast_move"

    def explain(self) -> str:
        return " ".join(f.reason for f in self.figures)

    def figure(self, id_: str) -> FastMoveFigure:
        """The fast mover with this id (its name when it was given no id)."""
        for f in self.figures:
            if figure_id(f.name, f.id) == id_:
                return f
        raise KeyError(id_)

    def distance(self, id_: str) -> int:
        """How far the fast mover with this id may move."""
        return self.figure(id_).distance


def fast_move(dice: DiceSource, movers: Sequence[FastMover]) -> FastMoveResult:
    """Fast Move 7.4.2: 2d6 once for the group; +4" per d6 passed by each figure.

    Declared fast movers count as Fast Moving whatever distance they move.
    """
    if not movers:
        raise IllegalActionError("declare at least one fast mover")
    for m in movers:
        check_rep(m.rep)
    roll = dice.roll(
        2,
        section="7.4.2",
        table="Fast Move",
        who=", ".join(m.name for m in movers),
        figures=tuple(m.key for m in movers),
    )
    figures = []
    for m in movers:
        passed = count_passes(roll.faces, m.rep, cap=1 if m.carrying_wounded else 2)
        distance = NORMAL_MOVE + FAST_MOVE_STEP * passed
        carry = " (carrying wounded: at most 1d6, 7.12)" if m.carrying_wounded else ""
        figures.append(
            FastMoveFigure(
                m.name,
                m.rep,
                passed,
                distance,
                f'{m.name} passed {passed} vs Rep {m.rep}{carry}: may move {distance}" '
                f"and counts as Fast Moving (7.4.2).",
                id=m.key,
            )
        )
    dice.note(roll, "; ".join(f'{f.name} {f.distance}"' for f in figures))
    return FastMoveResult(roll.faces, tuple(figures))
