"""Issue 16, item 2: rules readings corrected against the book's text.

Each test says what the book says and checks the engine does it.  The charge
reading, an option, is tested in both settings in test_interpretations.py,
test_melee.py and tests/game/test_charge_missed_charger.py.
"""

from __future__ import annotations

import pytest
from shapely.geometry import box

from crdesk.dice import ScriptedDice
from crdesk.errors import DiceScriptExhaustedError
from crdesk.model import (
    REP_MAX,
    Battlefield,
    Figure,
    Force,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.rules.campaign import EncounterRecord, rep_change
from crdesk.rules.shooting import TargetSpec, fire
from crdesk.rules.stars import star_fate
from crdesk.tables import TABLES

IN_COVER = [TargetSpec("T", 4, in_cover=True)]


@pytest.mark.parametrize("rep", [2, 3])
def test_pitiful_shot_is_for_rep_3_and_2(rep: int) -> None:
    # 6 + Rep 2/3 = 8/9 against a target in Cover misses; the Pitiful die 1 hits (7.9.14)
    shot = fire(ScriptedDice([6, 1]), rep, "P", IN_COVER, roll_damage_dice=False)
    assert shot.targets[0].shots[0].pitiful_die == 1 and shot.targets[0].hits == 1


def test_a_rep_1_figure_gets_no_pitiful_shot() -> None:
    dice = ScriptedDice([6, 1])
    shot = fire(dice, 1, "P", IN_COVER, roll_damage_dice=False)
    assert shot.targets[0].shots[0].pitiful_die is None and shot.targets[0].hits == 0
    assert dice.remaining == 1  # the second die was never rolled


def test_cheating_death_never_takes_a_star_below_rep_2() -> None:
    low = star_fate(Status.OBVIOUSLY_DEAD, star_rep=2, attacker_rep=4, cheat_death=True)
    assert low.cheated_death and low.rep_change == 0 and "never drops below 2" in low.reason
    high = star_fate(Status.OBVIOUSLY_DEAD, star_rep=5, attacker_rep=5, cheat_death=True)
    assert high.cheated_death and high.rep_change == -1


def test_the_7_7_reference_reads_outgunned_as_the_book() -> None:
    rows = dict(TABLES["7.7"].rows)
    assert "(Outgunned: Duck Back)" in rows["Pass 2"]
    assert "(Outgunned: Duck Back)" in rows["Pass 1"]
    assert "(Outgunned: Leave the Battlefield)" in rows["Pass 0"]
    assert not any("Outgunned: Outgunned" in text for text in rows.values())


def test_rep_has_no_maximum_of_9() -> None:
    # a Rep 9 figure that gains a point (13.2: a 6) is a Rep 10 figure, usable everywhere
    won = EncounterRecord(scored_hit_or_meleed=True)
    assert rep_change(ScriptedDice([6]), 9, won).value == 10
    assert REP_MAX > 10
    force = Force("a", "A", figures=[Figure("a1", "Al", 9, x=1, y=1)])
    bf = Battlefield(
        Table(), [TerrainFeature("w", TerrainKind.WOODS, "W", box(0, 0, 2, 2))], [force]
    )
    bf.update_figure("a1", rep=10)
    assert bf.figure("a1").rep == 10
    with pytest.raises(DiceScriptExhaustedError):
        fire(ScriptedDice([]), 10, "P", IN_COVER)  # a Rep 10 shooter is a legal shooter
