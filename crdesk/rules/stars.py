"""Star advantages 5.2: Star Power, Larger Than Life, Cheating Death (Free Will is in
:mod:`crdesk.rules.reaction`).

Star Power: roll all current Star Power dice when the Star takes damage; each
1-3 reduces the damage one level, 4-5 does nothing and is kept, 6 does nothing
and is lost for the encounter.  Levels from worst: Obviously Dead → Out of the
Fight → Duck Back (fired on) or -1 to Rep (melee).  With several results, each
reduction goes to the currently worst result.  Larger Than Life and Cheating
Death apply after Star Power.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import REP_MIN, Status
from crdesk.rules.common import RuleResult, faces_text, plural, words

SECTION = "5.2"

_FIRE_LEVELS = (Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)
_MELEE_LEVELS = (Status.MINUS_ONE_REP, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)


def damage_levels(melee: bool) -> tuple[Status, ...]:
    """Damage levels from least to worst (5.2): the bottom one is the floor."""
    return _MELEE_LEVELS if melee else _FIRE_LEVELS


def reduce_damage(
    damage: Sequence[Status], reductions: int, *, melee: bool = False
) -> tuple[Status, ...]:
    """Apply Star Power reductions, one at a time, each to the currently worst result.

    >>> reduce_damage([Status.OBVIOUSLY_DEAD, Status.OUT_OF_THE_FIGHT], 2)
    (<Status.DUCK_BACK: 'duck_back'>, <Status.OUT_OF_THE_FIGHT: 'out_of_the_fight'>)
    """
    levels = damage_levels(melee)
    for status in damage:
        if status not in levels:
            raise IllegalActionError(
                f"{words(status)} is not a damage result ({', '.join(words(s) for s in levels)})"
            )
    current = list(damage)
    for _ in range(reductions):
        if not current:
            break
        worst = max(range(len(current)), key=lambda i: (current[i].rank, -i))
        level = levels.index(current[worst])
        if level == 0:
            break  # everything is already at the floor
        current[worst] = levels[level - 1]
    return tuple(current)


@dataclass(frozen=True, slots=True)
class StarPowerResult(RuleResult):
    """Star Power dice rolled against damage (5.2)."""

    faces: tuple[int, ...]
    reductions: int
    lost: int
    remaining: int
    before: tuple[Status, ...]
    after: tuple[Status, ...]
    section: str = SECTION

    @property
    def status(self) -> Status | None:
        return max(self.after, key=lambda s: s.rank) if self.after else None

    @property
    def result(self) -> str:
        status = self.status
        return status.value if status is not None else "no_damage"

    def explain(self) -> str:
        before = ", ".join(words(s) for s in self.before)
        after = ", ".join(words(s) for s in self.after)
        return (
            f"Star Power rolled {faces_text(self.faces)}: "
            f"{plural(self.reductions, 'reduction')}, {plural(self.lost, 'die', 'dice')} lost, "
            f"{self.remaining} left; {before} → {after} ({SECTION})."
        )


def star_power(
    dice: DiceSource,
    star_power_dice: int,
    damage: Sequence[Status],
    *,
    melee: bool = False,
    who: str = "Star",
) -> StarPowerResult:
    """Roll all current Star Power dice against the damage of one volley or melee (5.2)."""
    if star_power_dice < 0:
        raise IllegalActionError("Star Power dice cannot be negative")
    if not damage:
        raise IllegalActionError("Star Power is rolled when the Star takes damage")
    reduce_damage(damage, 0, melee=melee)  # validates
    roll = dice.roll(star_power_dice, section=SECTION, table="Star Power", who=who)
    reductions = sum(1 for f in roll.faces if f <= 3)
    lost = sum(1 for f in roll.faces if f == 6)
    after = reduce_damage(damage, reductions, melee=melee)
    result = StarPowerResult(
        faces=roll.faces,
        reductions=reductions,
        lost=lost,
        remaining=star_power_dice - lost,
        before=tuple(damage),
        after=after,
    )
    dice.note(roll, f"{plural(reductions, 'reduction')}, {lost} lost", successes=reductions)
    return result


@dataclass(frozen=True, slots=True)
class StarFate(RuleResult):
    """What finally happens to a Star after Star Power, Larger Than Life, Cheating Death."""

    status: Status
    cheated_death: bool
    rep_change: int
    reason: str
    star_power: StarPowerResult | None = None
    section: str = SECTION

    @property
    def result(self) -> str:
        return "cheating_death" if self.cheated_death else self.status.value

    def explain(self) -> str:
        head = self.star_power.explain() + " " if self.star_power is not None else ""
        return head + self.reason


def star_fate(
    status: Status,
    *,
    star_rep: int,
    attacker_rep: int | None,
    cheat_death: bool = False,
    star_power_result: StarPowerResult | None = None,
) -> StarFate:
    """Larger Than Life and Cheating Death (5.2), applied after Star Power.

    Larger Than Life: a Star cannot be killed by a lower-Rep figure — Obviously
    Dead becomes Out of the Fight.  Cheating Death: killed by equal or higher
    Rep, the player may remove the Star to safety at -1 Rep permanently.
    ``attacker_rep`` None (a dropped grenade, a collapse) allows only Cheating Death.
    """
    if status is not Status.OBVIOUSLY_DEAD:
        return StarFate(status, False, 0, f"{words(status)} ({SECTION}).", star_power_result)
    if attacker_rep is not None and attacker_rep < star_rep:
        return StarFate(
            Status.OUT_OF_THE_FIGHT,
            False,
            0,
            f"Larger Than Life: a Rep {attacker_rep} cannot kill a Rep {star_rep} Star; "
            f"Out of the Fight instead ({SECTION}).",
            star_power_result,
        )
    if cheat_death:
        # Rep never drops below 2 (5, 13.3): a Rep 2 Star cheats death at no cost
        loss = -1 if star_rep > REP_MIN else 0
        cost = (
            "loses 1 Rep permanently"
            if loss
            else f"keeps Rep {star_rep}, as Rep never drops below {REP_MIN} (13.3)"
        )
        return StarFate(
            Status.LEAVE_THE_BATTLEFIELD,
            True,
            loss,
            f"Cheating Death: the Star is removed to safety and {cost} ({SECTION}).",
            star_power_result,
        )
    return StarFate(status, False, 0, f"Obviously Dead ({SECTION}).", star_power_result)


def star_takes_damage(
    dice: DiceSource,
    damage: Sequence[Status],
    *,
    star_rep: int,
    star_power_dice: int,
    attacker_rep: int | None,
    melee: bool = False,
    cheat_death: bool = False,
    who: str = "Star",
) -> StarFate:
    """The whole of 5.2 for one volley or melee result: Star Power, then LTL / Cheating Death."""
    sp = star_power(dice, star_power_dice, damage, melee=melee, who=who)
    worst = sp.status
    assert worst is not None
    return star_fate(
        worst,
        star_rep=star_rep,
        attacker_rep=attacker_rep,
        cheat_death=cheat_death,
        star_power_result=sp,
    )
