"""Activation 7.1 and Fast Move 7.4.2."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import DiceScriptExhaustedError, IllegalActionError
from crdesk.rules.activation import (
    FastMover,
    activation_order,
    fast_move,
    may_activate,
    roll_activation,
)


def test_higher_die_activates_first():
    result = roll_activation(ScriptedDice([2, 5]))
    assert result.first == "enemy" and result.scores == (2, 5)
    assert result.result == "enemy_activates_first"
    assert result.score("player") == 2


def test_doubles_are_rerolled():
    dice = ScriptedDice([3, 3, 6, 6, 4, 1])
    result = roll_activation(dice, ("blue", "red"))
    assert result.rerolled == ((3, 3), (6, 6))
    assert result.scores == (4, 1) and result.first == "blue"
    assert "rerolling doubles" in result.explain()
    assert [e.outcome for e in dice.log] == [
        "doubles: reroll",
        "doubles: reroll",
        "blue activates first",
    ]


def test_endless_doubles_exhaust_a_script():
    with pytest.raises(DiceScriptExhaustedError):
        roll_activation(ScriptedDice([2, 2]))


def test_activation_needs_two_distinct_sides():
    with pytest.raises(IllegalActionError):
        roll_activation(ScriptedDice([1, 2]), ("a", "a"))


def test_which_groups_may_activate_and_order():
    assert may_activate(4, 4) and may_activate(5, 4) and not may_activate(3, 4)
    groups = [("g3", 3), ("g5", 5), ("g4a", 4), ("g4b", 4)]
    assert activation_order(groups, 4) == ("g5", "g4a", "g4b")
    assert activation_order(groups, 6) == ()
    assert activation_order(groups, 1) == ("g5", "g4a", "g4b", "g3")


def test_fast_move_one_roll_per_group_each_rep():
    dice = ScriptedDice([4, 5])
    result = fast_move(dice, [FastMover("R5", 5), FastMover("R4", 4), FastMover("R3", 3)])
    assert [f.distance for f in result.figures] == [16, 12, 8]
    assert result.distance("R4") == 12
    assert dice.remaining == 0 and len(dice.log) == 1


def test_fast_move_carrying_wounded_passes_at_most_one():
    result = fast_move(ScriptedDice([1, 1]), [FastMover("C", 4, carrying_wounded=True)])
    assert result.figures[0].passed == 1 and result.figures[0].distance == 12
    with pytest.raises(IllegalActionError):
        fast_move(ScriptedDice([1, 1]), [])
