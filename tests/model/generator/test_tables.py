"""The generator's rolling step against the book's tables (digest 15.1, 15.3, 17).

The tables are transcribed here a second time, straight from the digest, so a
slip in ``crdesk.generator``'s copy shows up as a failing test rather than a
quietly wrong map.  The statistical tests roll thousands of tables with a fixed
seed (so they never flake) and compare what came up with the exact odds.
"""

from __future__ import annotations

import functools
import random
import zlib
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from crdesk.dice import Dice, ScriptedDice
from crdesk.generator import (
    GeneratorError,
    TablePlan,
    building_label,
    footprint_areas,
    roll_table,
)
from crdesk.tables import (
    BUILDING_TYPE,
    OVERALL_TERRAIN,
    TERRAIN_GENERATOR,
    BuildingType,
    Ground,
    TableType,
)

C, W, H, WH, X = Ground.CLEAR, Ground.WOODS, Ground.HILL, Ground.WOODED_HILL, Ground.IMPASSABLE

# Table 9.3.1 as the digest prints it: (terrain, has buildings) for faces 1..6.
DIGEST_9_3_1 = {
    TableType.CLEAR: [(C, False), (C, False), (C, False), (C, True), (H, False), (W, False)],
    TableType.URBAN: [(C, False), (C, False), (C, True), (C, True), (H, True), (W, False)],
    TableType.WOODED: [(C, False), (C, False), (W, False), (W, False), (W, True), (WH, False)],
    TableType.MOUNTAIN: [(X, False), (C, False), (X, False), (W, False), (W, False), (X, False)],
}
ONE, TWO, TALL = BuildingType(1, 1), BuildingType(2, 1), BuildingType(2, 2)
# Table 9.5: (areas, floors) for faces 1..6; Mountain tables use the first column.
CLEAR_OR_WOODED = [ONE, ONE, ONE, TWO, TWO, TALL]
DIGEST_9_5 = {
    TableType.CLEAR: CLEAR_OR_WOODED,
    TableType.WOODED: CLEAR_OR_WOODED,
    TableType.MOUNTAIN: CLEAR_OR_WOODED,
    TableType.URBAN: [ONE, ONE, TWO, TWO, TALL, TALL],
}
# 9.2: 1-3 Clear, 4 Urban, 5 Wooded, 6 Mountainous.
DIGEST_9_2 = [TableType.CLEAR] * 3 + [TableType.URBAN, TableType.WOODED, TableType.MOUNTAIN]

# Chi-square critical values at p = 0.001 by degrees of freedom (no scipy here).
CHI2_CRIT = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458}


def chi_square(observed: Counter[Any], odds: dict[Any, Fraction]) -> tuple[float, int]:
    """Pearson's statistic of observed counts against exact odds, and its degrees of freedom."""
    assert set(observed) <= set(odds), (
        f"outcomes the table cannot give: {set(observed) - set(odds)}"
    )
    n = sum(observed.values())
    stat = sum((observed[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in odds.items() if p)
    return stat, sum(1 for p in odds.values() if p) - 1


def odds_of(faces: Sequence[object]) -> dict[Any, Fraction]:
    counts = Counter(faces)
    return {k: Fraction(v, 6) for k, v in counts.items()}


# -- the data matches the digest ---------------------------------------------


def test_overall_type_table_is_9_2() -> None:
    assert list(OVERALL_TERRAIN) == DIGEST_9_2


@pytest.mark.parametrize("terrain_type", list(TableType))
def test_terrain_generator_table_is_9_3_1(terrain_type: TableType) -> None:
    rows = TERRAIN_GENERATOR[terrain_type]
    assert [(row.ground, row.buildings) for row in rows] == DIGEST_9_3_1[terrain_type]


def test_building_type_table_is_9_5() -> None:
    for table_type, faces in DIGEST_9_5.items():
        assert list(BUILDING_TYPE[table_type]) == faces


def test_building_type_labels_read_like_the_book() -> None:
    assert building_label(ONE) == "One area, one floor"
    assert building_label(TWO) == "Two areas, one floor"
    assert building_label(TALL) == "Two areas, two floors"
    # Interpretation (8.1: each floor above the ground adds areas): the areas are
    # the building's total, so a two-area, two-floor building stands on one area.
    assert [footprint_areas(b) for b in (ONE, TWO, TALL)] == [1, 2, 1]


# -- scripted rolls give exactly the book's results ---------------------------


def test_scripted_rolls_follow_the_book_step_by_step() -> None:
    # 9.2 face 4 -> Urban.  Sections 1..9: faces 3 (Clear B), then 1,2,6,1,2,6,1,2.
    # Section 1 is (B): urban count 3 + 1/2d6, face 5 -> 3 + 3 = 6 buildings,
    # typed by faces 1,3,5,6,2,4 on the Urban column.
    faces = [4, 3, 5, 1, 3, 5, 6, 2, 4, 1, 2, 6, 1, 2, 6, 1, 2]
    dice = ScriptedDice(faces)
    plan = roll_table(dice, terrain_type="roll", encounter="none")
    assert dice.remaining == 0
    assert plan.terrain_type is TableType.URBAN
    first = plan.sections[0]
    assert (first.number, first.terrain, first.has_buildings) == (1, C, True)
    assert [b.type for b in first.buildings] == [ONE, TWO, TALL, TALL, ONE, TWO]
    assert [s.terrain for s in plan.sections[1:]] == [C, C, W, C, C, W, C, C]
    assert all(not s.buildings for s in plan.sections[1:])
    # Every roll is in the log with its section, die, row and result.
    rolls = [e for e in plan.log if "roll" in e]
    assert [e["roll"] for e in rolls] == faces
    assert rolls[0] == {
        "step": "9.2",
        "table": "Overall Terrain Type",
        "section": None,
        "die": "1d6",
        "roll": 4,
        "row": "4",
        "result": "Urban",
    }
    assert rolls[1]["step"] == "9.3.1" and rolls[1]["section"] == 1
    assert rolls[1]["column"] == "Urban" and rolls[1]["result"] == "Clear (B)"
    assert rolls[2]["die"] == "1/2d6" and rolls[2]["result"] == 6 and rolls[2]["row"] == "5-6"
    assert rolls[3]["step"] == "9.5" and rolls[3]["result"] == "One area, one floor"


def test_a_given_type_is_logged_without_a_roll() -> None:
    dice = ScriptedDice([2] * 9)
    plan = roll_table(dice, terrain_type="wooded", encounter="none")
    assert plan.terrain_type is TableType.WOODED
    assert plan.log[0]["step"] == "9.2" and "roll" not in plan.log[0]
    assert plan.log[0]["result"] == "Wooded"
    assert dice.remaining == 0


@pytest.mark.parametrize(("encounter", "section"), [("raid", 2), ("defend", 8)])
def test_encounter_extras_add_buildings_in_their_section(encounter: str, section: int) -> None:
    # Mountain table, every section Clear (face 2), then 1/2d6 = 2 (face 3), types 6 and 1.
    dice = ScriptedDice([2] * 9 + [3, 6, 1])
    plan = roll_table(dice, terrain_type="mountain", encounter=encounter)
    assert dice.remaining == 0
    extras = plan.sections[section - 1].buildings
    # Mountain tables use the Clear-or-Wooded column of 9.5.
    assert [b.type for b in extras] == [TALL, ONE]
    step = "12.2" if encounter == "raid" else "12.3"
    assert {b.source for b in extras} == {step}
    assert sum(len(s.buildings) for s in plan.sections) == 2


def test_bad_inputs_are_refused_with_a_reason() -> None:
    with pytest.raises(GeneratorError, match="terrain type"):
        roll_table(ScriptedDice([1] * 20), terrain_type="swamp")
    with pytest.raises(GeneratorError, match="encounter"):
        roll_table(ScriptedDice([1] * 20), terrain_type="clear", encounter="siege")


# -- statistics over thousands of tables --------------------------------------

TABLES = 600


@functools.cache
def _plans(terrain_type: str, encounter: str = "none", n: int = TABLES) -> list[TablePlan]:
    """``n`` tables rolled with seeds 0..n-1 (shared by the tests: rolling is the slow part)."""
    salt = zlib.crc32(f"{terrain_type}/{encounter}".encode())
    return [
        roll_table(Dice(random.Random(salt * 1_000_003 + i)), terrain_type, encounter)
        for i in range(n)
    ]


def test_overall_type_distribution_matches_9_2() -> None:
    seen = Counter(p.terrain_type for p in _plans("roll", n=1500))
    stat, df = chi_square(seen, odds_of(DIGEST_9_2))
    assert stat < CHI2_CRIT[df], (seen, stat)


@pytest.mark.parametrize("terrain_type", list(TableType))
def test_section_results_match_9_3_1(terrain_type: TableType) -> None:
    plans = _plans(terrain_type.value)
    seen = Counter((s.terrain, s.has_buildings) for p in plans for s in p.sections)
    stat, df = chi_square(seen, odds_of(DIGEST_9_3_1[terrain_type]))
    assert stat < CHI2_CRIT[df], (seen, stat)


@pytest.mark.parametrize(
    ("terrain_type", "counts"),
    [
        (TableType.URBAN, [4, 5, 6]),
        (TableType.CLEAR, [1, 2, 3]),
        (TableType.WOODED, [1, 2, 3]),
    ],
)
def test_building_counts_match_9_4_4(terrain_type: TableType, counts: list[int]) -> None:
    plans = _plans(terrain_type.value)
    seen = Counter(len(s.buildings) for p in plans for s in p.sections if s.has_buildings)
    stat, df = chi_square(seen, {c: Fraction(1, 3) for c in counts})
    assert stat < CHI2_CRIT[df], (seen, stat)
    # Sections without (B) never get buildings when there is no encounter extra.
    assert all(not s.buildings for p in plans for s in p.sections if not s.has_buildings)


@pytest.mark.parametrize(
    ("terrain_type", "encounter"),
    [("urban", "none"), ("clear", "none"), ("wooded", "none"), ("mountain", "raid")],
)
def test_building_types_match_9_5(terrain_type: str, encounter: str) -> None:
    plans = _plans(terrain_type, encounter)
    seen = Counter(b.type for p in plans for s in p.sections for b in s.buildings)
    assert sum(seen.values()) > 1000
    stat, df = chi_square(seen, odds_of(DIGEST_9_5[TableType(terrain_type)]))
    assert stat < CHI2_CRIT[df], (seen, stat)


@pytest.mark.parametrize(
    ("terrain_type", "encounter", "expected"),
    [
        # 9 sections x P(B) x mean count (+ the encounter's mean 1/2d6 = 2).
        ("clear", "none", Fraction(9, 6) * 2),
        ("urban", "none", Fraction(9, 2) * 5),
        ("wooded", "none", Fraction(9, 6) * 2),
        ("mountain", "none", Fraction(0)),
        ("mountain", "defend", Fraction(2)),
        ("clear", "raid", Fraction(9, 6) * 2 + 2),
    ],
)
def test_mean_buildings_per_table(terrain_type: str, encounter: str, expected: Fraction) -> None:
    plans = _plans(terrain_type, encounter)
    totals = [sum(len(s.buildings) for s in p.sections) for p in plans]
    mean = sum(totals) / len(totals)
    var = sum((t - mean) ** 2 for t in totals) / (len(totals) - 1)
    tolerance = 4 * (var / len(totals)) ** 0.5 + 1e-9
    assert abs(mean - float(expected)) <= tolerance, (mean, float(expected), tolerance)


def test_encounter_extras_are_half_d6() -> None:
    plans = _plans("clear", "raid")
    seen = Counter(sum(1 for b in p.sections[1].buildings if b.source == "12.2") for p in plans)
    stat, df = chi_square(seen, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)})
    assert stat < CHI2_CRIT[df], (seen, stat)
