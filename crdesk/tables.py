"""Every rules table of the digest as data, keyed by the book's section number.

Rules are tables plus small functions (STYLE 3): the functions in
:mod:`crdesk.rules` look results up here, the odds module reads the same rows,
and the in-app rules reference prints :data:`TABLES`.  Each table is typed data
(frozen dataclasses, tuples, read-only mappings) plus one :class:`RulesTable`
entry in the registry with its section, title, dice and rows in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TypeVar

from crdesk.model import BandType, MeleeWeapon, Status, WeaponCode


@dataclass(frozen=True, slots=True)
class RulesTable:
    """A table as the rules reference shows it: section, title, dice, rows in words."""

    section: str
    title: str
    dice: str
    rows: tuple[tuple[str, str], ...]


_K = TypeVar("_K")
_V = TypeVar("_V")


def _ro(d: dict[_K, _V]) -> Mapping[_K, _V]:
    return MappingProxyType(d)


# --------------------------------------------------------------------------
# 6.1.1 Recruiting

RECRUITING: Mapping[BandType, tuple[int, ...]] = _ro(
    {
        BandType.GANGER: (3, 3, 4, 4, 4, 5),
        BandType.GUERILLA: (3, 3, 4, 4, 4, 5),
        BandType.MILITIA: (3, 3, 4, 4, 4, 5),
        BandType.MILITARY: (3, 4, 4, 4, 5, 5),
        BandType.POLICE: (3, 4, 4, 4, 4, 5),
    }
)
"""Recruiting 6.1.1: the recruit's Rep for 1d6 = 1..6 (index face - 1), per band type."""

BAND_WEAPONS: Mapping[BandType, tuple[WeaponCode, ...]] = _ro(
    {
        BandType.MILITARY: (WeaponCode.AR, WeaponCode.AR, WeaponCode.AR, WeaponCode.SAW),
        BandType.GUERILLA: (WeaponCode.AR,),
        BandType.MILITIA: (WeaponCode.AR, WeaponCode.BAR),
        BandType.GANGER: (WeaponCode.P, WeaponCode.SG),
        BandType.POLICE: (WeaponCode.P, WeaponCode.SG, WeaponCode.SMG),
    }
)
"""Weapons by band type (6.1.1's defaults), cycled through a group in order, so a
Military group has one Squad Auto Weapon per four: a recruited Band (Star first),
the quick games' default Band and the enemies a PEF turns into (11.3)."""

GRENADE_BANDS = frozenset({BandType.MILITARY, BandType.GUERILLA, BandType.MILITIA})
"""Band types that may use hand grenades (6.1, 7.10)."""


def recruit_rep(band: BandType, face: int) -> int:
    """Recruiting 6.1.1: the Rep a 1d6 gives for this band type (before the Star cap)."""
    return RECRUITING[band][face - 1]


# --------------------------------------------------------------------------
# 7.6.3 In Sight

IN_SIGHT_CONCEALED_DICE = -1
"""In Sight 7.6.3: the Leader rolls Rep d6, -1d6 if the enemy is concealed; counts successes."""


# --------------------------------------------------------------------------
# 7.7 Reaction tests


@dataclass(frozen=True, slots=True)
class ReactionRow:
    """One row of the Reaction Tests table 7.7 (by d6 passed)."""

    passed: int
    received_fire: Status
    received_fire_outgunned: Status
    man_down: Status
    man_down_twice_as_many: Status


REACTION_TESTS: tuple[ReactionRow, ...] = (
    ReactionRow(
        0,
        Status.DUCK_BACK,
        Status.LEAVE_THE_BATTLEFIELD,
        Status.LEAVE_THE_BATTLEFIELD,
        Status.LEAVE_THE_BATTLEFIELD,
    ),
    ReactionRow(
        1, Status.RUSH_SHOT, Status.OUTGUNNED, Status.DUCK_BACK, Status.LEAVE_THE_BATTLEFIELD
    ),
    ReactionRow(2, Status.RETURN_FIRE, Status.OUTGUNNED, Status.CARRY_ON, Status.CARRY_ON),
)
"""Reaction Tests 7.7, indexed by d6 passed (0, 1, 2).  Outgunned behaves as Duck Back."""


def _count(n: int, noun: str) -> str:
    """``1 area``, ``2 areas``: the reference's counts in words."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _outgunned_words(status: Status) -> str:
    """An Outgunned row as the book prints it: Outgunned behaves as Duck Back (7.7)."""
    return "Duck Back" if status is Status.OUTGUNNED else status.label


def reaction_row(passed: int) -> ReactionRow:
    """The 7.7 row for a number of passes (more than 2 reads as 2)."""
    return REACTION_TESTS[max(0, min(2, passed))]


# --------------------------------------------------------------------------
# 7.9 Weapons, 7.9.1 Outgunned Rankings, 16.0 Old School weapons

GRENADE = "G"
"""The grenade's code on the weapons tables (it is not a figure's carried weapon)."""


@dataclass(frozen=True, slots=True)
class WeaponStats:
    """One row of the Weapons table 7.9 (or Old School 16.0, which adds Impact)."""

    code: str
    name: str
    range: int
    target: int
    """Dice rolled and arc width in inches; 0 for blast weapons."""
    blast: bool = False
    dice_rolled: int | None = None
    """Dice rolled when different from Target (the shotgun rolls 6, keeps 3)."""
    impact: int | None = None
    always_out_of_ammo: bool = False
    notes: str = ""

    @property
    def rolls(self) -> int:
        """How many d6 a shot rolls: Target, 6 for the shotgun, 1 for a rocket launcher."""
        if self.dice_rolled is not None:
            return self.dice_rolled
        return 1 if self.blast else self.target


_SG_NOTE = "Rolls 6d6 and keeps the best three for hits; all six count for Tight Ammo."
_RL_NOTE = "After firing it is out of ammo (Tight Ammo) and must be reloaded."

WEAPONS: Mapping[str, WeaponStats] = _ro(
    {
        "AR": WeaponStats("AR", "Assault Rifle", 48, 3),
        "BAR": WeaponStats("BAR", "Bolt Action Rifle", 48, 1),
        GRENADE: WeaponStats(GRENADE, "Grenade", 6, 0, blast=True, notes='5" blast circle.'),
        "MP": WeaponStats("MP", "Machine Pistol", 12, 3),
        "P": WeaponStats("P", "Pistol", 12, 1),
        "RL": WeaponStats(
            "RL", "Rocket Launcher", 48, 0, blast=True, always_out_of_ammo=True, notes=_RL_NOTE
        ),
        "SAR": WeaponStats("SAR", "Semi-Auto Rifle", 48, 2),
        "SG": WeaponStats("SG", "Shotgun", 12, 3, dice_rolled=6, notes=_SG_NOTE),
        "SAW": WeaponStats("SAW", "Squad Auto Weapon", 48, 4),
        "SMG": WeaponStats("SMG", "Submachine Gun", 24, 3),
    }
)
"""Weapons 7.9, by abbreviation."""

OLD_SCHOOL_WEAPONS: Mapping[str, WeaponStats] = _ro(
    {
        "AR": WeaponStats("AR", "Assault Rifle", 48, 3, impact=3),
        "BAP": WeaponStats("BAP", "Big-Ass Pistol", 12, 2, impact=2),
        "BAR": WeaponStats("BAR", "Bolt Action Rifle", 48, 1, impact=3),
        GRENADE: WeaponStats(GRENADE, "Grenade", 6, 0, blast=True, impact=2),
        "MP": WeaponStats("MP", "Machine Pistol", 12, 3, impact=1),
        "P": WeaponStats("P", "Pistol", 12, 2, impact=1),
        "RL": WeaponStats(
            "RL",
            "Rocket Launcher",
            48,
            0,
            blast=True,
            impact=5,
            always_out_of_ammo=True,
            notes=_RL_NOTE,
        ),
        "SAR": WeaponStats("SAR", "Semi-Auto Rifle", 48, 2, impact=3),
        "SG": WeaponStats("SG", "Shotgun", 12, 3, dice_rolled=6, impact=2, notes=_SG_NOTE),
        "SAW": WeaponStats("SAW", "Squad Auto Weapon", 48, 4, impact=3),
        "SMG": WeaponStats("SMG", "Submachine Gun", 24, 3, impact=1),
    }
)
"""Old School Weapons 16.0 (adds Impact and the Big-Ass Pistol; the Pistol is Target 2)."""


def weapon_stats(code: WeaponCode | str, old_school: bool = False) -> WeaponStats:
    """The weapon's row on 7.9, or 16.0 with Old School.  BAP outside Old School reads as P."""
    key = str(code.value if isinstance(code, WeaponCode) else code)
    table = OLD_SCHOOL_WEAPONS if old_school else WEAPONS
    if key == "BAP" and not old_school:
        # 5.4.1: a weapon not listed uses the closest category.
        key = "P"
    try:
        return table[key]
    except KeyError:
        raise KeyError(f"no weapon {key!r} on table {'16.0' if old_school else '7.9'}") from None


OUTGUNNED_RANKS: tuple[tuple[str, int], ...] = (
    ("Blast circle weapons", 5),
    ("Target 4 weapons", 4),
    ("Target 3 weapons", 3),
    ("Target 2 weapons", 2),
    ("Target 1 weapons", 1),
    ("Cannot return fire (out of ammo, unarmed, melee only)", 0),
)
"""Outgunned Rankings 7.9.1 in words."""


def outgunned_rank(stats: WeaponStats | None) -> int:
    """Outgunned Ranking 7.9.1: blast 5, else the weapon's Target; no usable weapon 0."""
    if stats is None:
        return 0
    return 5 if stats.blast else stats.target


# --------------------------------------------------------------------------
# 7.9.5 Cover or concealment


@dataclass(frozen=True, slots=True)
class CoverRow:
    """One row of Cover or Concealment 7.9.5."""

    terrain: str
    stationary_cover: bool
    stationary_concealed: bool
    moving_cover: bool
    moving_concealed: bool
    behind_cover: bool = False


COVER_CONCEALMENT: tuple[CoverRow, ...] = (
    CoverRow("buildings or woods", True, True, False, True),
    CoverRow("vehicles", False, True, False, True, behind_cover=True),
)
"""Cover or Concealment 7.9.5: inside buildings/woods, or inside/behind vehicles."""


# --------------------------------------------------------------------------
# 7.9.10 Ranged Combat


class Shot(StrEnum):
    """Circumstances of the Ranged Combat table 7.9.10."""

    FAST_MOVING = "fast_moving"
    RUSH_SHOT = "rush_shot"
    TARGET_IN_COVER = "target_in_cover"
    TARGET_PRONE = "target_prone"
    TARGET_FAST_MOVING = "target_fast_moving"
    SECOND_TARGET = "second_or_later_target"
    THIRD_TARGET = "third_or_later_target"


@dataclass(frozen=True, slots=True)
class RangedCombatRow:
    """A row of Ranged Combat 7.9.10: totals low..high (None = and up) and when it misses."""

    low: int
    high: int | None
    always_miss: bool
    shooter_misses_if: frozenset[Shot] = frozenset()
    target_missed_if: frozenset[Shot] = frozenset()

    def hits(self, circumstances: frozenset[Shot]) -> bool:
        """Whether this total hits under the given circumstances."""
        return not self.always_miss and self.miss_cause(circumstances) is None

    def miss_cause(self, circumstances: frozenset[Shot]) -> Shot | None:
        """The first circumstance (in table order) that turns this row into a miss."""
        for shot in Shot:
            if shot in circumstances and (
                shot in self.shooter_misses_if or shot in self.target_missed_if
            ):
                return shot
        return None


RANGED_COMBAT: tuple[RangedCombatRow, ...] = (
    RangedCombatRow(3, 7, True),
    RangedCombatRow(
        8,
        8,
        False,
        frozenset({Shot.FAST_MOVING, Shot.RUSH_SHOT}),
        frozenset(
            {
                Shot.TARGET_IN_COVER,
                Shot.TARGET_PRONE,
                Shot.TARGET_FAST_MOVING,
                Shot.SECOND_TARGET,
                Shot.THIRD_TARGET,
            }
        ),
    ),
    RangedCombatRow(
        9,
        9,
        False,
        frozenset({Shot.FAST_MOVING, Shot.RUSH_SHOT}),
        frozenset({Shot.TARGET_IN_COVER, Shot.THIRD_TARGET}),
    ),
    RangedCombatRow(10, None, False),
)
"""Ranged Combat 7.9.10 (1d6 per Target, each + Rep).  "Second or later" includes third."""


def ranged_combat_row(total: int) -> RangedCombatRow:
    """The 7.9.10 row for a die + Rep total (totals under 3 read as the miss row)."""
    if total <= 7:
        return RANGED_COMBAT[0]
    return RANGED_COMBAT[min(total, 10) - 7]


# --------------------------------------------------------------------------
# 7.9.11 Ranged Combat Damage, 16.1 Old School damage


def ranged_damage(face: int, target_rep: int) -> Status:
    """Ranged Combat Damage 7.9.11: 6 Obviously Dead; ≥ Rep Out of the Fight; else Duck Back."""
    if face == 6:
        return Status.OBVIOUSLY_DEAD
    if face >= target_rep:
        return Status.OUT_OF_THE_FIGHT
    return Status.DUCK_BACK


def old_school_damage(face: int, impact: int) -> Status:
    """Old School Ranged Combat Damage 16.1: 1 Obviously Dead; ≤ Impact OOF; else Duck Back."""
    if face == 1:
        return Status.OBVIOUSLY_DEAD
    if face <= impact:
        return Status.OUT_OF_THE_FIGHT
    return Status.DUCK_BACK


# --------------------------------------------------------------------------
# 7.10 Grenades, 8.4 Rocket launcher vs buildings


class GrenadeReady(StrEnum):
    """Ready a Grenade 7.10.1 results."""

    THROW_NOW = "readied_throw_now"
    THROW_LATER = "readied_throw_later"


GRENADE_READY: tuple[GrenadeReady, ...] = (GrenadeReady.THROW_LATER, GrenadeReady.THROW_NOW)
"""Ready 7.10.1 (1d6 vs Rep), indexed by passed 0, 1."""


class GrenadeThrow(StrEnum):
    """Throw a Grenade 7.10.3 results."""

    ON_SPOT = "on_spot"
    ON_SPOT_IF_IN_LOS = "on_spot_if_in_los"
    MISS = "miss"
    OOPS = "oops"


GRENADE_THROW: tuple[GrenadeThrow, ...] = (
    GrenadeThrow.OOPS,
    GrenadeThrow.ON_SPOT_IF_IN_LOS,
    GrenadeThrow.ON_SPOT,
)
"""Throw 7.10.3 (2d6 vs Rep), indexed by passed 0, 1, 2.  Pass 1 out of LOS is a miss."""

UPPER_AREA_COLLAPSES = (1, 3)
"""Firing at buildings 8.4: the area above a collapsed one also collapses on 1-3."""


# --------------------------------------------------------------------------
# 7.11 Melee


class ChargeResult(StrEnum):
    """Charge into Melee 7.11.2 outcomes, one per charger."""

    TARGET_FIRES = "target_fires"
    TARGET_RUSH_SHOTS = "target_rush_shots"
    CHARGER_MOVES_IN = "charger_moves_in"


CHARGE_TARGET_DICE: Mapping[str, int] = _ro({"cover": 1, "flank": -1, "rear": -2})
"""Charge into Melee 7.11.2 circumstances: dice for the target."""

CHARGE_INTO_MELEE: tuple[tuple[str, ChargeResult], ...] = (
    ("more", ChargeResult.TARGET_FIRES),
    ("same", ChargeResult.TARGET_RUSH_SHOTS),
    ("fewer", ChargeResult.CHARGER_MOVES_IN),
)
"""Charge into Melee 7.11.2: target passes more / same / fewer d6 than the charger."""


def charge_result(target_passed: int, charger_passed: int) -> ChargeResult:
    """Look up 7.11.2 by comparing the target's passes with one charger's."""
    if target_passed > charger_passed:
        return ChargeResult.TARGET_FIRES
    if target_passed == charger_passed:
        return ChargeResult.TARGET_RUSH_SHOTS
    return ChargeResult.CHARGER_MOVES_IN


MELEE_WEAPON_DICE: Mapping[MeleeWeapon, int] = _ro(
    {MeleeWeapon.NONE: 0, MeleeWeapon.ONE_HAND: 1, MeleeWeapon.TWO_HAND: 2}
)
"""Melee Combat 7.11.4 (and 7.11.1): extra d6 for the melee weapon."""

MELEE_VS_PRONE_DICE = 1
"""Melee Combat 7.11.4: +1d6 attacking a prone opponent."""


def melee_damage(score: int, loser_rep: int) -> Status:
    """Melee Damage 7.11.5: 1d6 + margin; ≥6 OD; ≥ loser's Rep OOF; else -1 to Rep."""
    if score >= 6:
        return Status.OBVIOUSLY_DEAD
    if score >= loser_rep:
        return Status.OUT_OF_THE_FIGHT
    return Status.MINUS_ONE_REP


MAX_MELEE_ATTACKERS = 3
"""Multiple figure melees 7.11.6: up to three figures may melee one figure."""


# --------------------------------------------------------------------------
# 7.12-7.14, 13 Campaign


class Recovery(StrEnum):
    """After the Battle Recovery 7.13 results."""

    RETURNS = "returns"
    OOF_RETURNS = "out_of_the_fight_returns"
    DOES_NOT_RETURN = "does_not_return"


AFTER_BATTLE_RECOVERY: tuple[Recovery, ...] = (
    Recovery.DOES_NOT_RETURN,
    Recovery.OOF_RETURNS,
    Recovery.RETURNS,
)
"""After the Battle Recovery 7.13 (2d6 vs Rep), indexed by passed."""


class ChallengeRow(StrEnum):
    """Challenge 7.14 results."""

    SUCCESS = "success"
    MAY_REROLL = "may_reroll"
    FAILURE = "failure"


CHALLENGE: tuple[ChallengeRow, ...] = (
    ChallengeRow.FAILURE,
    ChallengeRow.MAY_REROLL,
    ChallengeRow.SUCCESS,
)
"""Challenge 7.14 (2d6 vs modified Rep, a 6 always fails), indexed by passed."""

CHALLENGE_MODIFIERS: Mapping[str, int] = _ro(
    {"very_easy": 1, "very_difficult": -1, "helpful_tool": 1}
)
"""Challenge 7.14 Rep modifiers."""


class NewRecruits(StrEnum):
    """New Recruits 13.1 results."""

    FULL_STRENGTH = "recruit_to_full_strength"
    ONE = "recruit_one"
    NONE = "no_recruits"


NEW_RECRUITS: tuple[NewRecruits, ...] = (
    NewRecruits.NONE,
    NewRecruits.ONE,
    NewRecruits.FULL_STRENGTH,
)
"""New Recruits 13.1 (2d6 vs the Star's Rep, a 6 always fails), indexed by passed."""

REP_MIN = 2
"""Rep never drops below 2 between encounters (5, 13)."""


def rep_increase(face: int, rep: int) -> bool:
    """Rep changes 13.2 (success): 1d6 higher than current Rep, or a 6 → Rep +1."""
    return face == 6 or face > rep


def rep_decrease(face: int, rep: int) -> bool:
    """Rep changes 13.3 (failure): a 1 → Rep -1, never below 2."""
    return face == 1 and rep > REP_MIN


# --------------------------------------------------------------------------
# 9 Terrain


class TableType(StrEnum):
    """Overall terrain type 9.2."""

    CLEAR = "clear"
    URBAN = "urban"
    WOODED = "wooded"
    MOUNTAIN = "mountain"


OVERALL_TERRAIN: tuple[TableType, ...] = (
    TableType.CLEAR,
    TableType.CLEAR,
    TableType.CLEAR,
    TableType.URBAN,
    TableType.WOODED,
    TableType.MOUNTAIN,
)
"""Overall terrain type 9.2 for 1d6 = 1..6."""


class Ground(StrEnum):
    """Section terrain on the Terrain Generator 9.3.1."""

    CLEAR = "clear"
    HILL = "hill"
    WOODS = "woods"
    WOODED_HILL = "wooded_hill"
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True)
class SectionTerrain:
    """A Terrain Generator result: the ground covering ≥75% of the section, and (B)."""

    ground: Ground
    buildings: bool = False


_C, _CB = SectionTerrain(Ground.CLEAR), SectionTerrain(Ground.CLEAR, True)
_W, _WB = SectionTerrain(Ground.WOODS), SectionTerrain(Ground.WOODS, True)
_H, _HB = SectionTerrain(Ground.HILL), SectionTerrain(Ground.HILL, True)
_WH, _IM = SectionTerrain(Ground.WOODED_HILL), SectionTerrain(Ground.IMPASSABLE)

TERRAIN_GENERATOR: Mapping[TableType, tuple[SectionTerrain, ...]] = _ro(
    {
        TableType.CLEAR: (_C, _C, _C, _CB, _H, _W),
        TableType.URBAN: (_C, _C, _CB, _CB, _HB, _W),
        TableType.WOODED: (_C, _C, _W, _W, _WB, _WH),
        TableType.MOUNTAIN: (_IM, _C, _IM, _W, _W, _IM),
    }
)
"""Terrain Generator 9.3.1: per table type, the result for 1d6 = 1..6."""


def building_count(table_type: TableType, half_d6_score: int) -> int:
    """Buildings in a (B) section 9.4.4: 3 + 1/2d6 on an Urban table, else 1/2d6."""
    return half_d6_score + (3 if table_type is TableType.URBAN else 0)


@dataclass(frozen=True, slots=True)
class BuildingType:
    """A Building Type 9.5 result."""

    areas: int
    floors: int


_B11, _B21, _B22 = BuildingType(1, 1), BuildingType(2, 1), BuildingType(2, 2)

BUILDING_TYPE: Mapping[TableType, tuple[BuildingType, ...]] = _ro(
    {
        TableType.CLEAR: (_B11, _B11, _B11, _B21, _B21, _B22),
        TableType.WOODED: (_B11, _B11, _B11, _B21, _B21, _B22),
        TableType.MOUNTAIN: (_B11, _B11, _B11, _B21, _B21, _B22),
        TableType.URBAN: (_B11, _B11, _B21, _B21, _B22, _B22),
    }
)
"""Building Type 9.5 for 1d6 = 1..6 (Mountain uses the Clear or Wooded column)."""


# --------------------------------------------------------------------------
# 11 PEFs and the non-player force


PEF_REP = 4
"""PEFs have Rep 4 (11)."""

PEF_MOVEMENT: tuple[int, ...] = (0, 4, 8)
"""PEF Movement 11.2 (2d6 vs Rep 4): inches moved for passed 0, 1, 2."""


class PefResolution(StrEnum):
    """PEF Resolution 11.3 results."""

    CONTACT = "contact"
    SOMETHINGS_OUT_THERE = "somethings_out_there"
    FALSE_ALARM = "false_alarm"


PEF_RESOLUTION: tuple[PefResolution, ...] = (
    PefResolution.FALSE_ALARM,
    PefResolution.SOMETHINGS_OUT_THERE,
    PefResolution.CONTACT,
)
"""PEF Resolution 11.3 (2d6 vs Rep 4), indexed by passed."""

CONTACT_SIZE: tuple[int, ...] = (-3, -2, -1, 1, 2, 3)
"""Contact! 11.3: enemy figures relative to the player group, for 1d6 = 1..6 (at least 1)."""


class NpMove(StrEnum):
    """NP Force Movement 11.4 results."""

    SPLIT_AND_ENCIRCLE = "split_and_encircle"
    MOVE_TO_FIRING_COVER = "move_to_cover_to_fire"
    HOLD_OR_NEAREST_COVER = "remain_or_move_to_nearest_cover"


NP_FORCE_MOVEMENT: tuple[tuple[NpMove, NpMove], ...] = (
    (NpMove.HOLD_OR_NEAREST_COVER, NpMove.HOLD_OR_NEAREST_COVER),
    (NpMove.MOVE_TO_FIRING_COVER, NpMove.HOLD_OR_NEAREST_COVER),
    (NpMove.SPLIT_AND_ENCIRCLE, NpMove.MOVE_TO_FIRING_COVER),
)
"""NP Force Movement 11.4 (2d6 vs Leader's Rep), by passed: (outnumbers 2:1, otherwise)."""

ENCIRCLE_LEFT = (1, 3)
"""11.4: the encircling half goes by the left flank on 1-3, right on 4-6."""


# --------------------------------------------------------------------------
# 12 Encounters


class DefendObjective(StrEnum):
    """Their objective 12.3.6."""

    KILL_OR_CAPTURE = "kill_or_capture"
    RECOVER = "recover"


DEFEND_OBJECTIVE: tuple[DefendObjective, ...] = (
    DefendObjective.KILL_OR_CAPTURE,
    DefendObjective.KILL_OR_CAPTURE,
    DefendObjective.KILL_OR_CAPTURE,
    DefendObjective.RECOVER,
    DefendObjective.RECOVER,
    DefendObjective.RECOVER,
)
"""Their objective 12.3.6 for 1d6 = 1..6."""


# --------------------------------------------------------------------------
# The registry


def _rows(*rows: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return rows


TABLES: Mapping[str, RulesTable] = _ro(
    {
        t.section: t
        for t in (
            RulesTable(
                "6.1.1",
                "Recruiting",
                "1d6 read as rolled",
                tuple(
                    (str(face), ", ".join(f"{b.value} {RECRUITING[b][face - 1]}" for b in BandType))
                    for face in range(1, 7)
                ),
            ),
            RulesTable(
                "7.6.3",
                "In Sight",
                "Rep d6, counting successes (1-3)",
                _rows(
                    ("Enemy concealed", "-1d6"),
                    ("Moving side scores more", "moving side acts"),
                    ("Equal or fewer", "non-moving side acts"),
                ),
            ),
            RulesTable(
                "7.7",
                "Reaction Tests",
                "2d6 vs Rep (+1d6 in Cover, + Leader Die)",
                tuple(
                    (
                        f"Pass {r.passed}",
                        f"Received Fire: {r.received_fire.label} "
                        f"(Outgunned: {_outgunned_words(r.received_fire_outgunned)}); "
                        f"Man Down: {r.man_down.label} "
                        f"(twice as many down: {r.man_down_twice_as_many.label})",
                    )
                    for r in reversed(REACTION_TESTS)
                ),
            ),
            RulesTable(
                "7.9",
                "Weapons",
                "Target = d6 rolled",
                tuple(
                    (
                        w.code,
                        f"{w.name}: range {w.range}, "
                        + ("blast" if w.blast else f"target {w.target}"),
                    )
                    for w in WEAPONS.values()
                ),
            ),
            RulesTable(
                "7.9.1",
                "Outgunned Rankings",
                "none",
                tuple((n, str(r)) for n, r in OUTGUNNED_RANKS),
            ),
            RulesTable(
                "7.9.5",
                "Cover or Concealment",
                "none",
                _rows(
                    ("Buildings or Woods", "Stationary: Cover and Concealment. Moving: Concealed."),
                    ("Vehicles", "Inside: Concealment. Behind: Cover."),
                ),
            ),
            RulesTable(
                "7.9.10",
                "Ranged Combat",
                "1d6 per Target, each + Rep",
                _rows(
                    ("3-7", "Shooter missed."),
                    (
                        "8",
                        "Shooter missed if Fast Moving, Rush Shot. Target missed if in "
                        "Cover, Prone, Fast Moving, second or later target. Else hit.",
                    ),
                    (
                        "9",
                        "Shooter missed if Fast Moving, Rush Shot. Target missed if in "
                        "Cover, third or later target. Else hit.",
                    ),
                    ("10+", "Hit."),
                ),
            ),
            RulesTable(
                "7.9.11",
                "Ranged Combat Damage",
                "1d6 per hit, read as rolled",
                _rows(
                    ("6", "Obviously Dead."),
                    ("Target's Rep or higher, not 6", "Out of the Fight."),
                    ("Lower than target's Rep", "Duck Back, no reaction test."),
                ),
            ),
            RulesTable(
                "7.10.1",
                "Ready a Grenade",
                "1d6 vs Rep",
                _rows(
                    ("1", "Readied; may be thrown immediately."),
                    ("0", "Readied; thrown next active or in reaction."),
                ),
            ),
            RulesTable(
                "7.10.3",
                "Throw a Grenade",
                "2d6 vs Rep",
                _rows(
                    ("2", "Lands on the spot."),
                    (
                        "1",
                        "Spot in LOS: on the spot. Not in LOS: miss, Received "
                        "Fire for those in the circle.",
                    ),
                    ("0", "Oops! Centred on the thrower."),
                ),
            ),
            RulesTable(
                "7.11.2",
                "Charge into Melee",
                "2d6 vs Rep (target +1 Cover, -1 flank, -2 rear)",
                _rows(
                    ("Target passes more", "Target fires."),
                    ("Same", "Target Rush Shots."),
                    ("Fewer", "Charger moves into melee."),
                ),
            ),
            RulesTable(
                "7.11.4",
                "Melee Combat",
                "Rep d6, counting successes",
                _rows(
                    ("One-hand weapon", "+1d6"),
                    ("Two-hand weapon", "+2d6"),
                    ("Attacking a prone opponent", "+1d6"),
                    ("Equal successes", "fight again"),
                ),
            ),
            RulesTable(
                "7.11.5",
                "Melee Damage",
                "1d6 + successes more than the loser",
                _rows(
                    ("6+", "Obviously Dead."),
                    ("Loser's Rep or higher, under 6", "Out of the Fight."),
                    ("Lower than loser's Rep", "Loser -1 to Rep; fight again."),
                ),
            ),
            RulesTable(
                "7.13",
                "After the Battle Recovery",
                "2d6 vs Rep",
                _rows(
                    ("2", "Returns."),
                    ("1", "Out of the Fight returns; left the battlefield does not."),
                    ("0", "Does not return."),
                ),
            ),
            RulesTable(
                "7.14",
                "Challenge",
                "2d6 vs Rep (very easy +1, very difficult -1, tool +1); a 6 always fails",
                _rows(
                    ("2", "Success."),
                    ("1", "May reroll (pass 1 then counts as 0) or give up."),
                    ("0", "Fails with the consequences."),
                ),
            ),
            RulesTable(
                "8.4",
                "Firing at Buildings",
                "1d6 for the area above",
                _rows(
                    ("1-3", "Upper area also collapses."),
                    ("4-6", "Upper area stays; occupants take Received Fire."),
                ),
            ),
            RulesTable(
                "9.2",
                "Overall Terrain Type",
                "1d6",
                _rows(("1-3", "Clear"), ("4", "Urban"), ("5", "Wooded"), ("6", "Mountainous")),
            ),
            RulesTable(
                "9.3.1",
                "Terrain Generator",
                "1d6 read as rolled",
                tuple(
                    (
                        str(face),
                        ", ".join(
                            f"{t.value}: {TERRAIN_GENERATOR[t][face - 1].ground.value}"
                            + (" (B)" if TERRAIN_GENERATOR[t][face - 1].buildings else "")
                            for t in TableType
                        ),
                    )
                    for face in range(1, 7)
                ),
            ),
            RulesTable(
                "9.4.4",
                "Number of Buildings",
                "1/2d6",
                _rows(("Urban table", "3 + 1/2d6"), ("Otherwise", "1/2d6")),
            ),
            RulesTable(
                "9.5",
                "Building Type",
                "1d6 read as rolled",
                tuple(
                    (
                        str(face),
                        ", ".join(
                            f"{t.value}: {_count(BUILDING_TYPE[t][face - 1].areas, 'area')}, "
                            f"{_count(BUILDING_TYPE[t][face - 1].floors, 'floor')}"
                            for t in (TableType.CLEAR, TableType.URBAN)
                        ),
                    )
                    for face in range(1, 7)
                ),
            ),
            RulesTable(
                "11.2",
                "PEF Movement",
                "2d6 vs Rep 4",
                _rows(
                    ("2", 'Moves 8" towards the player.'),
                    ("1", 'Moves 4" towards the player.'),
                    ("0", "Does not move."),
                ),
            ),
            RulesTable(
                "11.3",
                "PEF Resolution",
                "2d6 vs Rep 4",
                _rows(
                    ("2", "Contact! 1d6 size: 1 three fewer ... 6 three more."),
                    ("1", "Something's out there: next PEF 3d6, lowest two."),
                    ("0", "False alarm (last PEF, no contact yet: pass 2)."),
                ),
            ),
            RulesTable(
                "11.4",
                "NP Force Movement",
                "2d6 vs Leader's Rep",
                tuple(
                    (str(p), f"outnumbers 2:1: {a.value}; otherwise: {b.value}")
                    for p, (a, b) in reversed(list(enumerate(NP_FORCE_MOVEMENT)))
                ),
            ),
            RulesTable(
                "12.3.6",
                "Their Objective",
                "1d6",
                _rows(("1-3", "Kill or capture."), ("4-6", "Recover something.")),
            ),
            RulesTable(
                "13.1",
                "New Recruits",
                "2d6 vs Star's Rep; a 6 always fails",
                _rows(
                    ("2", "Recruit up to full strength."),
                    ("1", "One new Grunt."),
                    ("0", "No recruits."),
                ),
            ),
            RulesTable(
                "13.2/13.3",
                "Rep Changes",
                "1d6",
                _rows(
                    ("Success", "Higher than Rep, or a 6: Rep +1."),
                    ("Failure", "A 1: Rep -1 (never below 2)."),
                ),
            ),
            RulesTable(
                "16.0",
                "Old School Weapons",
                "Target = d6 rolled",
                tuple(
                    (
                        w.code,
                        f"{w.name}: range {w.range}, "
                        + ("blast" if w.blast else f"target {w.target}")
                        + f", impact {w.impact}",
                    )
                    for w in OLD_SCHOOL_WEAPONS.values()
                ),
            ),
            RulesTable(
                "16.1",
                "Old School Ranged Combat Damage",
                "1d6 per hit vs Impact",
                _rows(
                    ("1", "Obviously Dead."),
                    ("Impact or less, not 1", "Out of the Fight."),
                    ("Higher than Impact", "Duck Back."),
                ),
            ),
        )
    }
)
"""Every table by section id, for the rules reference and dice-log links."""
