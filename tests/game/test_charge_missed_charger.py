"""Issue 16, item 2: a charger the target's fire misses takes no Received Fire test
by default (7.11.2: "Target fires. Charger moves into melee. No Reaction Tests
taken."); the house reading ``charge_missed_charger_tests`` makes it test.

The game is tests/data/games/charge_and_melee.json: Brute charges Dice, Dice
passes more and fires its pistol (2+4=6: a miss).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from crdesk.model import Status
from tests.game.test_game_data import play_case

CASE = Path(__file__).resolve().parents[1] / "data" / "games" / "charge_and_melee.json"


def _case(reading: bool | None) -> dict[str, Any]:
    case: dict[str, Any] = copy.deepcopy(json.loads(CASE.read_text(encoding="utf-8")))
    if reading is None:
        del case["scenario"]["rules"]  # the default options
    else:
        case["scenario"]["rules"]["interpretations"]["charge_missed_charger_tests"] = reading
    return case


def test_by_default_the_missed_charger_takes_no_test_and_fights() -> None:
    game = play_case(_case(None))
    kinds = [e.kind for e in game.events]
    assert "reaction" not in kinds
    assert kinds.index("fire") < kinds.index("contact") < kinds.index("melee")
    fire = next(e for e in game.events if e.kind == "fire")
    assert "Missed: no Reaction Test, the charge goes on (7.11.2)." in fire.text
    assert "takes Received Fire" not in fire.text
    assert game.fig("e1").status is Status.OBVIOUSLY_DEAD


def test_the_house_reading_tests_the_missed_charger_and_duck_back_stops_it() -> None:
    case = _case(True)
    # the same charge and miss, then the Received Fire test: 5,6 vs Rep 4 passes 0
    case["steps"][-1]["dice"] = [*case["steps"][-1]["dice"][:5], 5, 6]
    game = play_case(case)
    reactions = [e for e in game.events if e.kind == "reaction"]
    assert len(reactions) == 1 and "p1" in reactions[0].figures
    fire = next(e for e in game.events if e.kind == "fire")
    assert "Missed: takes Received Fire (7.9.10)." in fire.text
    assert "Received Fire: Duck Back" in reactions[0].text
    assert "contact" not in [e.kind for e in game.events]
    assert game.fig("p1").status is Status.DUCK_BACK
    assert game.fig("e1").status.can_act
