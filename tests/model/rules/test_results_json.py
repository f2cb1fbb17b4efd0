"""Every result object explains itself and turns into one JSON object with a snake_case
``result`` code and a ``section`` (what ``crdesk resolve --json`` prints)."""

import json
import re

import pytest

from crdesk.dice import DiceLog, ScriptedDice
from crdesk.model import BandType, Status
from crdesk.odds import charge_odds, fire_odds, in_sight_odds, melee_odds, reaction_odds
from crdesk.rules import activation, campaign, grenades, in_sight, melee, pef, shooting, stars
from crdesk.rules.damage import roll_damage
from crdesk.rules.reaction import ReactingFigure, reaction_test
from crdesk.rules.terrain import overall_terrain
from crdesk.tables import ChargeResult

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
LOGS: list[DiceLog] = []


def D(faces):
    """Scripted dice whose log the tests below inspect."""
    dice = ScriptedDice(faces)
    LOGS.append(dice.log)
    return dice


CASES = {
    "reaction": lambda: reaction_test(D([4, 5]), [ReactingFigure("A", 4)]),
    "fire": lambda: shooting.fire(D([6, 4, 2, 6, 3]), 4, "AR", [shooting.TargetSpec("B")]),
    "two_weapons": lambda: shooting.fire_two_weapons(
        D([6, 6, 6, 6]), 5, [("P", [shooting.TargetSpec()]), ("P", [shooting.TargetSpec()])]
    ),
    "damage": lambda: roll_damage(D([5]), 4),
    "star_power": lambda: stars.star_power(D([1, 6]), 2, [Status.OBVIOUSLY_DEAD]),
    "star_fate": lambda: stars.star_fate(
        Status.OBVIOUSLY_DEAD, star_rep=5, attacker_rep=6, cheat_death=True
    ),
    "activation": lambda: activation.roll_activation(D([1, 2])),
    "fast_move": lambda: activation.fast_move(D([1, 2]), [activation.FastMover("A", 4)]),
    "in_sight": lambda: in_sight.in_sight(
        D([1] * 8), [in_sight.InSightGroup("A", 4, True), in_sight.InSightGroup("B", 4, False)]
    ),
    "ready": lambda: grenades.ready_grenade(D([1]), 4),
    "throw": lambda: grenades.throw_grenade(D([1, 1]), 4, distance=3, spot_in_los=True),
    "blast": lambda: grenades.blast(
        D([6]), [grenades.BlastFigure("a", 4), grenades.BlastFigure("b", 4, prone=True)]
    ),
    "rocket": lambda: grenades.rocket_shot(D([6]), 4),
    "building": lambda: grenades.rocket_vs_building(
        D([2, 3]), [("a", 4)], upper_occupants=[("b", 4)]
    ),
    "charge": lambda: melee.charge(D([1, 1, 6, 6]), [("C", 4)], ("T", 4)),
    "charger_fate": lambda: melee.charger_after_fire(ChargeResult.TARGET_FIRES, hit=True),
    "melee": lambda: melee.melee(
        D([1, 2, 5, 6, 1, 6, 6, 6, 4]), melee.Fighter("A", 4), melee.Fighter("B", 4)
    ),
    "declare": lambda: melee.can_declare_charge(distance=8, remaining_move=8, has_los=True),
    "retrieve": lambda: campaign.retrieve_wounded(D([1]), 4),
    "challenge": lambda: campaign.challenge(D([1, 6, 1, 1]), 4),
    "recovery": lambda: campaign.recovery(D([1, 1]), 4),
    "recruit": lambda: campaign.recruit(D([6]), BandType.POLICE, star_rep=5),
    "new_recruits": lambda: campaign.new_recruits(D([1, 1]), 5, 2),
    "rep_change": lambda: campaign.rep_change(
        D([6]), 4, campaign.EncounterRecord(scored_hit_or_meleed=True)
    ),
    "pef_move": lambda: pef.pef_move(D([1, 1])),
    "pef_resolve": lambda: pef.pef_resolve(D([1, 1, 4]), player_group_size=3),
    "np_move": lambda: pef.np_move(D([1, 1, 1]), 4, outnumbers=True),
    "raid": lambda: pef.raid_objective(D([1]), pefs_resolved=1),
    "defend": lambda: pef.defend_objective(D([5])),
    "terrain": lambda: overall_terrain(D([6])),
    "odds_fire": lambda: fire_odds(4, "AR", [shooting.TargetSpec()]),
    "odds_in_sight": lambda: in_sight_odds(4, 4),
    "odds_reaction": lambda: reaction_odds([ReactingFigure("A", 4)]),
    "odds_charge": lambda: charge_odds(4, 4),
    "odds_melee": lambda: melee_odds(melee.Fighter("A", 3), melee.Fighter("B", 3)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_result_to_json(case):
    result = CASES[case]()
    data = json.loads(json.dumps(result.to_dict()))
    assert SNAKE.match(data["result"]), data["result"]
    assert re.match(r"^\d+(\.\d+)*(/\d+\.\d+)?$", data["section"]), data["section"]
    assert result.explain() and data["explain"] == result.explain()
    for part in data.get("results", []):
        assert SNAKE.match(part["result"]), part["result"]


def test_fire_json_has_numbers_behind_each_result():
    data = CASES["fire"]().to_dict()
    shots = data["results"][0]["results"]
    assert [s["total"] for s in shots] == [10, 8, 6]
    assert [s["result"] for s in shots] == ["hit", "hit", "miss"]
    assert data["results"][0]["hits"] == 2


def test_reaction_json_has_passed():
    data = CASES["reaction"]().to_dict()
    assert data["results"][0]["passed"] == 1 and data["results"][0]["result"] == "rush_shot"


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("odds_")])
def test_every_roll_is_logged_with_its_outcome_in_words(case):
    LOGS.clear()
    CASES[case]()
    entries = [e for log in LOGS for e in log]
    for entry in entries:
        assert entry.section and entry.table, entry
        assert entry.outcome, f"{case}: roll without an outcome: {entry}"
