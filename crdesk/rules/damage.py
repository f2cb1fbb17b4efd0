"""Ranged Combat Damage 7.9.11, and Old School Ranged Combat Damage 16.1.

One d6 per hit, read as rolled.  With Old School the die is compared with the
weapon's Impact (16.0) instead of the target's Rep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import Status, WeaponCode
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, words
from crdesk.tables import old_school_damage, ranged_damage, weapon_stats


@dataclass(frozen=True, slots=True)
class DamageResult(RuleResult):
    """The damage one hit did."""

    face: int
    target_rep: int
    status: Status
    section: str
    impact: int | None = None

    @property
    def result(self) -> str:
        return self.status.value

    def explain(self) -> str:
        if self.impact is not None:
            rule = (
                "1 is Obviously Dead"
                if self.face == 1
                else f"{self.face} {'≤' if self.face <= self.impact else '>'} Impact {self.impact}"
            )
        elif self.face == 6:
            rule = "6 is Obviously Dead"
        else:
            rule = (
                f"{self.face} {'≥' if self.face >= self.target_rep else '<'} Rep {self.target_rep}"
            )
        return f"Damage {self.face}: {rule}: {words(self.status)} ({self.section})."


def damage_for_face(
    face: int,
    target_rep: int,
    *,
    weapon: WeaponCode | str | None = None,
    options: RulesOptions | None = None,
) -> DamageResult:
    """Read one damage die on 7.9.11 (or 16.1 when Old School: needs the weapon's Impact)."""
    options = options or RulesOptions()
    if not 1 <= face <= 6:
        raise IllegalActionError(f"a d6 face must be 1-6, got {face}")
    if options.old_school:
        if weapon is None:
            raise IllegalActionError("Old School damage (16.1) needs the weapon for its Impact")
        impact = weapon_stats(weapon, old_school=True).impact
        assert impact is not None
        return DamageResult(face, target_rep, old_school_damage(face, impact), "16.1", impact)
    return DamageResult(face, target_rep, ranged_damage(face, target_rep), "7.9.11")


def roll_damage(
    dice: DiceSource,
    target_rep: int,
    *,
    weapon: WeaponCode | str | None = None,
    options: RulesOptions | None = None,
    who: str = "",
    figures: Sequence[str] = (),
) -> DamageResult:
    """Roll 1d6 for one hit and read it on 7.9.11 (or 16.1).

    ``figures``: the id of the figure hit, for the dice log.
    """
    options = options or RulesOptions()
    section = "16.1" if options.old_school else "7.9.11"
    title = "Old School Ranged Combat Damage" if options.old_school else "Ranged Combat Damage"
    roll = dice.roll(1, section=section, table=title, who=who, figures=figures)
    result = damage_for_face(roll.faces[0], target_rep, weapon=weapon, options=options)
    dice.note(roll, words(result.status))
    return result
