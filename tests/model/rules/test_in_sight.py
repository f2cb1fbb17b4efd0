"""In Sight 7.6.3 and 7.6.5."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.rules.in_sight import InSightGroup, beats, in_sight


def test_mover_needs_more_successes():
    assert beats(3, True, 2) and not beats(2, True, 2)
    assert beats(2, False, 2) and not beats(1, False, 2)


def test_mover_wins_with_more():
    dice = ScriptedDice([1, 2, 4, 5, 1, 5, 6, 6])  # mover Rep 4: 2; other Rep 4: 1
    result = in_sight(dice, [InSightGroup("A", 4, True), InSightGroup("B", 4, False)])
    assert result.group("A").successes == 2 and result.group("B").successes == 1
    assert result.order == ("A",) and result.result == "mover_acts"
    assert result.group("B").result == "reacts"


def test_tie_goes_to_the_non_moving_side():
    dice = ScriptedDice([1, 6, 6, 6, 2, 6, 6, 6])
    result = in_sight(dice, [InSightGroup("A", 4, True), InSightGroup("B", 4, False)])
    assert result.order == ("B",) and result.result == "non_mover_acts"
    assert "needs more than" in result.group("A").reason


def test_concealed_enemy_costs_a_die_and_zero_dice_score_zero():
    dice = ScriptedDice([1, 1, 1, 6])  # A Rep 4 -1 concealed = 3 dice; B Rep 1 -1 = 0 dice
    result = in_sight(
        dice,
        [
            InSightGroup("A", 4, True, enemy_concealed=True),
            InSightGroup("B", 1, False, enemy_concealed=True),
        ],
    )
    assert result.group("A").dice == 3 and result.group("A").successes == 3
    assert result.group("B").dice == 0 and result.group("B").successes == 0
    assert dice.remaining == 1
    assert result.order == ("A",)


def test_several_groups_must_beat_every_opponent_order_by_successes():
    # A (moving) 3; C (moving) 1; B (not moving) 2
    dice = ScriptedDice([1, 1, 1, 6, 1, 6, 6, 6, 1, 1, 6, 6])
    groups = [InSightGroup("A", 4, True), InSightGroup("C", 4, True), InSightGroup("B", 4, False)]
    result = in_sight(dice, groups)
    assert [g.wins for g in result.groups] == [True, False, False]
    assert result.order == ("A",)
    # B beats C but loses to A: it only reacts


def test_winners_act_in_order_of_successes():
    dice = ScriptedDice([1, 1, 6, 6, 1, 1, 1, 6, 6, 6, 6, 6])
    groups = [InSightGroup("A", 4, True), InSightGroup("C", 4, True), InSightGroup("B", 4, False)]
    result = in_sight(dice, groups)
    assert result.order == ("C", "A")


def test_joining_an_ongoing_in_sight_reuses_the_opponents_score():
    dice = ScriptedDice([1, 1, 6])
    result = in_sight(
        dice, [InSightGroup("B", 4, False, successes=2), InSightGroup("New", 3, True)]
    )
    assert result.group("B").faces == () and result.group("New").successes == 2
    # New (moving) needed more than B's 2: it only reacts.  Whether B acts was settled
    # by the test it rolled in, so the joiner's result names no acting order for it
    assert result.order == () and not result.group("New").wins
    assert "B (not moving) already scored 2 (7.6.5)." in result.explain()
    assert "Acting order" not in result.explain()
    assert dice.remaining == 0


def test_needs_both_sides():
    with pytest.raises(IllegalActionError):
        in_sight(ScriptedDice([]), [InSightGroup("A", 4, True)])
