"""The In Sight test 7.6.3 (and adding to it, 7.6.5).

Each involved group's Leader rolls 1d6 per point of Rep, -1d6 if the enemy is
concealed, counting successes.  The moving side wins only with **more**
successes; equal means the non-moving side wins.  With several groups, a group
acts only if it beats every enemy group it is compared with.  Winners act in
order of successes, highest first; the others only react.  Free Will does not
apply (5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from crdesk.dice import DiceSource, dice_count
from crdesk.errors import IllegalActionError
from crdesk.rules.common import RuleResult, check_rep, faces_text, figure_id, plural, success_roll
from crdesk.tables import IN_SIGHT_CONCEALED_DICE

SECTION = "7.6.3"


@dataclass(frozen=True, slots=True)
class InSightGroup:
    """A group taking the In Sight test, rolled by its (possibly temporary) Leader."""

    name: str
    leader_rep: int
    moving: bool
    """True for the active, moving side (it must score more to win)."""
    enemy_concealed: bool = False
    successes: int | None = None
    """Already rolled earlier in this In Sight (7.6.5): not rolled again."""
    id: str = ""
    """The id the caller keys the group by (its Leader's figure id, say); defaults to
    the name when empty.  Results are keyed by it and the dice log lists it."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)


def beats(successes: int, moving: bool, enemy_successes: int) -> bool:
    """Moving side needs more successes; the non-moving side wins ties (7.6.3)."""
    return successes > enemy_successes if moving else successes >= enemy_successes


@dataclass(frozen=True, slots=True)
class GroupSight(RuleResult):
    """One group's In Sight roll (``id``: its id, or its name when it had none)."""

    name: str
    moving: bool
    dice: int
    faces: tuple[int, ...]
    successes: int
    wins: bool
    reason: str
    section: str = SECTION
    id: str = ""

    @property
    def result(self) -> str:
        return "acts" if self.wins else "reacts"


@dataclass(frozen=True, slots=True)
class InSightResult(RuleResult):
    """Who acts, in which order, and who only reacts."""

    PARTS: ClassVar[tuple[str, ...]] = ("groups",)

    groups: tuple[GroupSight, ...]
    order: tuple[str, ...]
    """Winning groups' names in acting order (most successes first)."""
    section: str = SECTION

    @property
    def order_ids(self) -> tuple[str, ...]:
        """Winning groups' ids in acting order (most successes first), like :attr:`order`."""
        winners = sorted((g for g in self.groups if g.wins), key=lambda g: -g.successes)
        return tuple(figure_id(g.name, g.id) for g in winners)

    @property
    def result(self) -> str:
        movers = [g for g in self.groups if g.moving and g.wins]
        others = [g for g in self.groups if not g.moving and g.wins]
        if movers and not others:
            return "mover_acts"
        if others and not movers:
            return "non_mover_acts"
        return "both_act" if movers else "nobody_acts"

    def explain(self) -> str:
        return " ".join(g.reason for g in self.groups) + (
            f" Acting order: {', '.join(self.order)}." if self.order else ""
        )

    def group(self, id_: str) -> GroupSight:
        """The group with this id (its name when it was given no id)."""
        for g in self.groups:
            if figure_id(g.name, g.id) == id_:
                return g
        raise KeyError(id_)


def in_sight(dice: DiceSource, groups: Sequence[InSightGroup]) -> InSightResult:
    """Take the In Sight test for every involved group (7.6.3, 7.6.5)."""
    if not any(g.moving for g in groups) or all(g.moving for g in groups):
        raise IllegalActionError("In Sight needs at least one moving and one non-moving group")
    rolled: list[tuple[InSightGroup, int, tuple[int, ...], int]] = []
    for g in groups:
        check_rep(g.leader_rep, "Leader Rep")
        n = dice_count(g.leader_rep, IN_SIGHT_CONCEALED_DICE if g.enemy_concealed else 0)
        if g.successes is not None:
            rolled.append((g, n, (), g.successes))
            continue
        roll, s = success_roll(
            dice, n, section=SECTION, table="In Sight", who=g.name, figures=(g.key,)
        )
        rolled.append((g, n, roll.faces, s))
    sights: list[GroupSight] = []
    for g, n, faces, s in rolled:
        enemies = [(e, es) for e, _, _, es in rolled if e.moving != g.moving]
        wins = all(beats(s, g.moving, es) for _, es in enemies)
        vs = ", ".join(f"{e.name} {es}" for e, es in enemies)
        how = (
            f"already scored {s}"
            if g.successes is not None
            else f"rolled {faces_text(faces)} ({n}d6"
            + (", enemy concealed -1d6" if g.enemy_concealed else "")
            + f"): {plural(s, 'success', 'successes')}"
        )
        need = "more than" if g.moving else "at least as many as"
        verdict = "acts" if wins else "only reacts"
        said = f"{g.name} ({'moving' if g.moving else 'not moving'}) {how}"
        if g.successes is None:
            said += f"; needs {need} {vs}: {verdict} ({SECTION})."
        else:
            # the score a joiner is measured against (7.6.5): whether its group acts was
            # settled by the test it was rolled in, so this comparison says nothing of it
            said += " (7.6.5)."
        sights.append(GroupSight(g.name, g.moving, n, faces, s, wins, said, id=g.key))
    fresh = [
        g for (given, *_rest), g in zip(rolled, sights, strict=True) if given.successes is None
    ]
    order = tuple(g.name for g in sorted((g for g in fresh if g.wins), key=lambda g: -g.successes))
    return InSightResult(tuple(sights), order)
