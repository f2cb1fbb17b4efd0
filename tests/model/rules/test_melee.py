"""Charge into Melee 7.11.2, Melee Combat 7.11.4, Melee Damage 7.11.5, 7.11.6, 7.8."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import DiceScriptExhaustedError, IllegalActionError
from crdesk.model import MeleeWeapon, Status
from crdesk.rules.melee import (
    Approach,
    Fighter,
    MeleeRepLosses,
    charge,
    charger_after_fire,
    check_attackers,
    melee,
    target_charge_dice,
)
from crdesk.tables import ChargeResult
from tests.model.rules.helpers import opts


@pytest.mark.parametrize(
    ("charger", "target", "code"),
    [
        ((5, 6), (1, 2), "target_fires"),
        ((1, 6), (1, 6), "target_rush_shots"),
        ((5, 6), (5, 6), "target_rush_shots"),
        ((1, 2), (1, 6), "charger_moves_in"),
    ],
)
def test_charge_compare_passes(charger, target, code):
    result = charge(ScriptedDice(charger + target), [("C", 4)], ("T", 4))
    assert result.result == code


def test_target_circumstance_dice():
    assert target_charge_dice(in_cover=True, approach=Approach.FRONT) == 3
    assert target_charge_dice(in_cover=False, approach=Approach.FLANK) == 1
    assert target_charge_dice(in_cover=False, approach=Approach.REAR) == 0
    assert target_charge_dice(in_cover=True, approach=Approach.REAR) == 1


def test_target_in_cover_rolls_three_dice_but_passes_cap_at_two():
    dice = ScriptedDice([1, 1, 1, 1, 1])
    result = charge(dice, [("C", 4)], ("T", 4), in_cover=True)
    assert result.target_dice == 3 and result.target_passed == 2
    assert result.result == "target_rush_shots"


def test_rear_charge_target_rolls_nothing_scores_zero():
    dice = ScriptedDice([6, 6])
    result = charge(dice, [("C", 4)], ("T", 4), approach=Approach.REAR)
    assert result.target_faces == () and result.target_passed == 0
    assert result.result == "target_rush_shots"  # 0 vs 0


def test_flank_interpretation_both_readings():
    dice = ScriptedDice([6, 6, 1])
    assert charge(dice, [("C", 4)], ("T", 4), approach=Approach.FLANK).target_dice == 1
    o = opts(flank_is_outside_front_cone=False)
    assert target_charge_dice(in_cover=False, approach=Approach.FLANK, options=o) == 2


def test_several_chargers_target_rolls_once():
    dice = ScriptedDice([1, 1, 5, 6, 1, 6, 1, 5])  # C1 2, C2 0, C3 1; target 1
    result = charge(dice, [("C1", 4), ("C2", 4), ("C3", 4)], ("T", 4))
    assert [c.result for c in result.chargers] == [
        "charger_moves_in",
        "target_fires",
        "target_rush_shots",
    ]
    assert result.result == "several_chargers"
    with pytest.raises(IllegalActionError, match="at most 3"):
        charge(dice, [("a", 4)] * 4, ("T", 4))
    with pytest.raises(IllegalActionError):
        check_attackers(4)
    check_attackers(3)


def test_charger_fate_and_the_missed_charger_interpretation():
    fires = ChargeResult.TARGET_FIRES
    assert not charger_after_fire(fires, hit=True).goes_on
    # the book's table: "No Reaction Tests taken" — a missed charger just goes on
    book = charger_after_fire(fires, hit=False)
    assert book.goes_on and not book.received_fire and book.result == "charger_moves_in"
    house = opts(charge_missed_charger_tests=True)
    assert charger_after_fire(fires, hit=False, reaction=Status.RUSH_SHOT, options=house).goes_on
    fate = charger_after_fire(fires, hit=False, reaction=Status.DUCK_BACK, options=house)
    assert not fate.goes_on and fate.received_fire and fate.result == "charger_stopped"
    with pytest.raises(IllegalActionError):
        charger_after_fire(fires, hit=False, options=house)
    rush = charger_after_fire(ChargeResult.TARGET_RUSH_SHOTS, hit=False)
    assert rush.goes_on and not rush.received_fire
    assert charger_after_fire(ChargeResult.CHARGER_MOVES_IN, hit=False).goes_on


def test_melee_one_round_win_and_damage():
    # A Rep 4: 1,2,5,6 → 2; B Rep 4: 1,6,6,6 → 1; damage 4+1=5 ≥ 4: OOF
    dice = ScriptedDice([1, 2, 5, 6, 1, 6, 6, 6, 4])
    result = melee(dice, Fighter("A", 4), Fighter("B", 4))
    assert result.winner == "A" and result.loser_status is Status.OUT_OF_THE_FIGHT
    assert result.result == "out_of_the_fight" and len(result.rounds) == 1
    assert dice.remaining == 0


def test_melee_ties_are_refought():
    dice = ScriptedDice([1, 6, 6, 6, 1, 6, 6, 6, 1, 1, 6, 6, 1, 6, 6, 6, 6])
    result = melee(dice, Fighter("A", 4), Fighter("B", 4))
    assert [r.winner for r in result.rounds] == [None, "A"]
    assert result.loser_status is Status.OBVIOUSLY_DEAD


def test_melee_minus_one_rep_then_fight_again_with_current_rep():
    # round 1: A 1 success, B 0: damage 1+1=2 < 4: B -1 Rep (now 3)
    # round 2: A Rep 4 dice 1,1,1,6 = 3; B Rep 3 dice 6,6,6 = 0: damage 3+3 = 6: OD
    dice = ScriptedDice([1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 6, 3])
    result = melee(dice, Fighter("A", 4), Fighter("B", 4))
    assert [r.damage for r in result.rounds] == [Status.MINUS_ONE_REP, Status.OBVIOUSLY_DEAD]
    assert result.rounds[1].b_rep == 3 and len(result.rounds[1].b_faces) == 3
    assert dict(result.rep_lost) == {"A": 0, "B": 1}


def test_melee_weapon_and_prone_dice():
    assert Fighter("a", 4, MeleeWeapon.TWO_HAND).dice(4) == 6
    assert Fighter("a", 4, MeleeWeapon.ONE_HAND, opponent_prone=True).dice(4) == 6
    assert Fighter("a", 3).dice(3) == 3
    dice = ScriptedDice([6] * 5 + [1] + [6] * 4 + [6])  # A one-hand 5 dice vs B prone-attacker
    result = melee(
        dice, Fighter("A", 4, MeleeWeapon.ONE_HAND), Fighter("B", 4, opponent_prone=True)
    )
    assert len(result.rounds[0].a_faces) == 5 and len(result.rounds[0].b_faces) == 5
    assert result.winner == "B"


def test_melee_endless_ties_exhaust_the_script():
    with pytest.raises(DiceScriptExhaustedError):
        melee(ScriptedDice([6] * 8), Fighter("A", 4), Fighter("B", 4))
    with pytest.raises(IllegalActionError):
        melee(ScriptedDice([]), Fighter("A", 4), Fighter("A", 4))


def test_rep_losses_restored_after_the_turns_melees():
    dice = ScriptedDice([1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 6, 3])
    result = melee(dice, Fighter("A", 4), Fighter("B", 4))
    ledger = MeleeRepLosses().add(result)
    assert ledger.current_rep("B", 4) == 3 and ledger.current_rep("A", 4) == 4
    ledger = ledger.add(result)  # a second melee the same turn keeps adding
    assert ledger.current_rep("B", 4) == 2
    assert ledger.restore({"A": 4, "B": 2}) == {"A": 4, "B": 4}


def test_damage_hook_lets_star_power_keep_a_star_fighting():
    # round 1: A wins by 3, damage 3+3 = 6: Obviously Dead, but the hook reduces it to -1 Rep
    # round 2: A 0 successes, B (Rep 3 now) 1: damage 4+1 = 5 ≥ 4: A Out of the Fight
    dice = ScriptedDice([1, 1, 1, 6, 6, 6, 6, 6, 3, 6, 6, 6, 6, 1, 6, 6, 4])
    seen = []

    def hook(name, status):
        seen.append((name, status))
        return Status.MINUS_ONE_REP if name == "Star" else status

    result = melee(dice, Fighter("A", 4), Fighter("Star", 4), adjust_damage=hook)
    assert seen[0] == ("Star", Status.OBVIOUSLY_DEAD)
    assert result.rounds[0].damage is Status.MINUS_ONE_REP
    assert "becomes -1 to Rep" in result.rounds[0].reason.replace("Minus One Rep", "-1 to Rep")
    assert result.winner == "Star" and result.loser_status is Status.OUT_OF_THE_FIGHT
    assert dict(result.rep_lost) == {"A": 0, "Star": 1}


def test_melee_to_dict_lists_rounds_as_results():
    dice = ScriptedDice([1, 2, 5, 6, 1, 6, 6, 6, 4])
    d = melee(dice, Fighter("A", 4), Fighter("B", 4)).to_dict()
    assert d["result"] == "out_of_the_fight" and d["winner"] == "A"
    assert d["results"][0]["a_successes"] == 2 and d["results"][0]["result"] == "out_of_the_fight"


def test_single_shot_weapon_fires_at_the_charger_that_passed_fewer():
    from crdesk.rules.melee import single_shot_target

    # A passes 2 (1,2), B passes 0 (6,6), target passes 2 (1,3): fires at both allowed.
    t = charge(ScriptedDice([1, 2, 6, 6, 1, 3]), [("A", 4), ("B", 4)], ("T", 4))
    choice = single_shot_target(t)
    assert choice.charger == "B" and not choice.rush_shot and choice.result == "target_fires"
    other = single_shot_target(t, "A")
    assert other.charger == "A" and other.rush_shot and other.result == "rush_shot"
    # Target passes 0: it may fire at no one.
    t0 = charge(ScriptedDice([1, 2, 1, 1, 6, 6]), [("A", 4), ("B", 4)], ("T", 4))
    assert single_shot_target(t0).result == "may_not_fire"
    with pytest.raises(IllegalActionError):
        single_shot_target(t, "Nobody")
