"""Every constant of the Firearms Detail module in one place, so a group can tune it.

The module's sections (``FD §n``) are those of ``rules/firearms-detail.md``;
the Chain Reaction sections they build on (7.9.10, 7.9.11, 7.10.6) keep their
own numbers.  Distances are table inches after the §1 conversion (1" = 2 m).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from crdesk.rules.common import RuleResult


def fd(section: int | str) -> str:
    """The section label of this module: ``FD §5``."""
    return f"FD §{section}"


# --------------------------------------------------------------------------
# §1 Conversions


@dataclass(frozen=True, slots=True)
class Conversions(RuleResult):
    """The module settings of FD §1: how the chapter's units read on the table."""

    metres_per_inch: float = 2.0
    square_inches: float = 1.0
    step: int = 1
    """One step = this much on each die's total (d6 + Rep) on 7.9.10."""
    step_cap: int = 3
    """The net steps on one die are capped at +cap / -cap."""
    section: str = fd(1)

    @property
    def result(self) -> str:
        return "settings"

    def explain(self) -> str:
        return (
            f'1" = {self.metres_per_inch:g} m, a square = {self.square_inches:g}", '
            f"a step = ±{self.step} on a die's total, capped at ±{self.step_cap} ({self.section})."
        )

    def inches(self, metres: float) -> float:
        """The chapter's metres as table inches (10 m = 5")."""
        return metres / self.metres_per_inch

    def squares(self, n: float) -> float:
        """The chapter's grid squares as table inches."""
        return n * self.square_inches


DEFAULT_CONVERSIONS = Conversions()


# --------------------------------------------------------------------------
# §2 Fire modes and ammo types


class FireMode(StrEnum):
    """The chapter's fire modes (FD §2)."""

    SEMI = "semi"
    SA = "SA"
    DA = "DA"
    PUMP = "pump"
    BA = "BA"
    RB2 = "2RB"
    RB3 = "3RB"
    FA = "FA"
    SINGLE = "single"
    """A one-shot launcher (the RL card): one die, one round."""

    @property
    def label(self) -> str:
        return MODE_LABELS[self]


MODE_LABELS: dict[FireMode, str] = {
    FireMode.SEMI: "Semi",
    FireMode.SA: "Single Action",
    FireMode.DA: "Double Action",
    FireMode.PUMP: "Pump",
    FireMode.BA: "Bolt Action",
    FireMode.RB2: "2-round burst",
    FireMode.RB3: "3-round burst",
    FireMode.FA: "Full Auto",
    FireMode.SINGLE: "single shot",
}

SINGLE_SHOT_MODES = frozenset(
    {FireMode.SEMI, FireMode.SA, FireMode.DA, FireMode.PUMP, FireMode.BA, FireMode.SINGLE}
)
"""Normal Chain Reaction fire, one round per die (FD §5)."""
BURST_MODES = frozenset({FireMode.RB2, FireMode.RB3})

ROUNDS_PER_DIE: dict[FireMode, int] = {
    FireMode.SEMI: 1,
    FireMode.SA: 1,
    FireMode.DA: 1,
    FireMode.PUMP: 1,
    FireMode.BA: 1,
    FireMode.SINGLE: 1,
    FireMode.RB2: 2,
    FireMode.RB3: 3,
}
"""Rounds spent per die rolled (FD §3); Full Auto spends :data:`FA_ROUNDS` per volley."""
FA_ROUNDS = 10
FA_DICE = 10

UNREADY_AFTER_FIRING = frozenset({FireMode.BA, FireMode.PUMP, FireMode.SA})
"""Modes that leave the weapon unready after firing (FD §4)."""
READY_MOVEMENT_COST = 2.0
"""Inches of movement given up to ready a weapon while active (FD §4)."""
SA_MAX_DICE = 1


class AmmoType(StrEnum):
    """Ammunition types of FD §2; only buckshot changes the rules (FD §6)."""

    FMJ = "FMJ"
    JHP = "JHP"
    BUCKSHOT = "buckshot"
    SLUG = "slug"
    AP = "AP"
    HE = "HE"


DEFAULT_SPARE_MAGAZINES = 3


# --------------------------------------------------------------------------
# §5 Bursts and Full Auto

BURST_STEPS = 3
"""Each burst die is +3 steps to hit (the cap)."""
BURST_MISS_REACH = 1.0
"""A missed burst checks the nearest other figure within this many inches."""

FA_PAIR_STEPS: tuple[int, ...] = (0, -1, -2, -3, -4)
"""Steps of Full Auto dice 1-2, 3-4, 5-6, 7-8, 9-10 (FD §5)."""
AIMED_PAIR_STEPS: tuple[int, ...] = (2, 1, 0, -1, -2)
"""Steps of aimed Full Auto pairs, instead of :data:`FA_PAIR_STEPS` (FD §5.1)."""
FA_RANK_BONUS = 1
"""Full Auto counts Outgunned Ranking +1 (FD §5)."""
WALK_MAX_STEPS = 4
"""Walking the target: +1 step per pair sacrificed, up to +4 (FD §5.2)."""


@dataclass(frozen=True, slots=True)
class SpreadRow(RuleResult):
    """One row of the Full Auto spread table (FD §5): range up to ``up_to`` inches."""

    up_to: float | None
    spread: float
    primary_dice: int
    section: str = fd(5)

    @property
    def result(self) -> str:
        return "spread_row"

    def explain(self) -> str:
        return (
            f'spread {self.spread:g}", {self.primary_dice} dice on the primary, '
            f"{self.other_dice} on others ({self.section})"
        )

    @property
    def other_dice(self) -> int:
        return FA_DICE - self.primary_dice

    def range_words(self, previous: SpreadRow | None) -> str:
        if self.up_to is None:
            return f'over {previous.up_to:g}"' if previous and previous.up_to else "any range"
        if previous is None or previous.up_to is None:
            return f'up to {self.up_to:g}"'
        return f'{previous.up_to:g}"-{self.up_to:g}"'


FA_SPREAD: tuple[SpreadRow, ...] = (
    SpreadRow(10.0, 1.0, 5),
    SpreadRow(20.0, 2.0, 4),
    SpreadRow(30.0, 3.0, 3),
    SpreadRow(40.0, 4.0, 2),
    SpreadRow(None, 5.0, 1),
)
"""Range to the primary target → spread inches and dice on primary / others (FD §5).

A range exactly on a boundary reads on the closer row ("up to 10"" includes 10")."""


def spread_row_index(distance: float) -> int:
    """The FD §5 spread row for a range in inches."""
    for i, row in enumerate(FA_SPREAD):
        if row.up_to is not None and distance <= row.up_to:
            return i
    return len(FA_SPREAD) - 1


# --------------------------------------------------------------------------
# §6 Buckshot


class BuckshotDamage(StrEnum):
    DEADLY = "deadly"
    """A damage roll at +1 (FD §9 Deadly)."""
    SEVERE = "severe"
    """A damage roll each."""
    SEVERE_LATER_DUCK_BACK = "severe_later_duck_back"
    """A damage roll each; Out of the Fight counts as Duck Back for the second and later."""
    DUCK_BACK = "duck_back"
    """A hit is a Duck Back, no damage roll."""
    RECEIVED_FIRE = "received_fire"
    """No hit roll: every figure of the spread takes Received Fire."""


@dataclass(frozen=True, slots=True)
class BuckshotBand(RuleResult):
    """One range band of buckshot (FD §6)."""

    up_to: float | None
    steps: int
    figures: int
    damage: BuckshotDamage
    words: str
    section: str = fd(6)

    @property
    def result(self) -> str:
        return self.damage.value

    def explain(self) -> str:
        return f"{self.words}, {self.steps:+d} steps, {self.figures} figures ({self.section})"


BUCKSHOT_BANDS: tuple[BuckshotBand, ...] = (
    BuckshotBand(2.5, 0, 1, BuckshotDamage.DEADLY, "full: damage roll at +1"),
    BuckshotBand(7.5, 1, 2, BuckshotDamage.SEVERE, "a damage roll each"),
    BuckshotBand(
        12.5,
        2,
        3,
        BuckshotDamage.SEVERE_LATER_DUCK_BACK,
        "a damage roll each, OOF counts as Duck Back for the second and later",
    ),
    BuckshotBand(17.5, 3, 4, BuckshotDamage.DUCK_BACK, "Duck Back only (no damage)"),
    BuckshotBand(None, 3, 5, BuckshotDamage.RECEIVED_FIRE, "Received Fire only"),
)
"""Buckshot by range band (FD §6); a range on a boundary reads on the closer band."""


def buckshot_band(distance: float) -> BuckshotBand:
    for band in BUCKSHOT_BANDS:
        if band.up_to is not None and distance <= band.up_to:
            return band
    return BUCKSHOT_BANDS[-1]


# --------------------------------------------------------------------------
# §7 Supported fire


class Support(StrEnum):
    """How a stationary shooter steadies the weapon (FD §7)."""

    NONE = "none"
    BRACED = "braced"
    """Prone, at a wall or window, or on a bipod."""
    BIPOD = "bipod"
    TRIPOD = "tripod"


SUPPORT_STEPS: dict[Support, int] = {
    Support.NONE: 0,
    Support.BRACED: 1,
    Support.BIPOD: 1,
    Support.TRIPOD: 3,
}
SUPPORTED_SPREAD_SHIFT = 1
"""Supported Full Auto reads its spread one row closer (FD §7)."""


# --------------------------------------------------------------------------
# §9 Damage classes and explosive rings


class DamageClass(StrEnum):
    """The chapter's damage grades mapped onto 7.9.11 (FD §9)."""

    DEADLY = "deadly"
    SEVERE = "severe"
    WOUND = "wound"
    FATIGUE = "fatigue"

    @property
    def label(self) -> str:
        return self.value.title()


DAMAGE_CLASS_MODIFIER: dict[DamageClass, int] = {
    DamageClass.DEADLY: 1,
    DamageClass.SEVERE: 0,
    DamageClass.WOUND: 0,
}
"""Added to the damage die before reading 7.9.11 (Fatigue rolls no die)."""


@dataclass(frozen=True, slots=True)
class Ring:
    up_to: float
    damage: DamageClass


EXPLOSIVE_RINGS: tuple[Ring, ...] = (
    Ring(2.5, DamageClass.DEADLY),
    Ring(5.0, DamageClass.SEVERE),
    Ring(7.5, DamageClass.WOUND),
)
"""Distance from the burst point → damage class (FD §9); a boundary reads inward."""
EXPLOSIVE_RECEIVED_FIRE = 10.0
"""Beyond the rings, figures within this many inches take Received Fire."""


# --------------------------------------------------------------------------
# §8 Knockdown, §10 Indirect fire

KNOCKDOWN_PUSH = 1.0
"""Inches a knocked-down figure is pushed directly away from the shooter (FD §8)."""
PUSH_PROBE = 0.05
"""The push is tested against terrain in steps of this many inches."""

INDIRECT_STEPS = -3
INDIRECT_SPOTTER_STEPS = -2
SPOTTER_REACH = 4.0
"""A spotter within this many inches of the shooter (or on the radio) helps (FD §10)."""
