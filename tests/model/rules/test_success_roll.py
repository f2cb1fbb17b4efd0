"""``success_roll``: the one roll of In Sight (7.6.3) and Melee Combat (7.11.4)."""

from crdesk.dice import ScriptedDice
from crdesk.rules.common import success_roll
from crdesk.rules.in_sight import InSightGroup, in_sight
from crdesk.rules.melee import Fighter, melee


def test_success_roll_counts_ones_to_threes_and_notes_them() -> None:
    dice = ScriptedDice([1, 3, 4, 6, 2])
    roll, successes = success_roll(dice, 5, section="7.6.3", table="In Sight", who="mover")
    assert (roll.faces, successes) == ((1, 3, 4, 6, 2), 3)
    entry = dice.log[-1]
    assert (entry.outcome, entry.successes) == ("3 successes", 3)


def test_in_sight_and_melee_log_their_successes_the_same_way() -> None:
    dice = ScriptedDice([1, 2, 5, 6, 4, 4, 6, 6])
    in_sight(dice, [InSightGroup("mover", 4, True), InSightGroup("other", 4, False)])
    assert [(e.who, e.outcome, e.successes) for e in dice.log] == [
        ("mover", "2 successes", 2),
        ("other", "0 successes", 0),
    ]
    dice = ScriptedDice([1, 2, 3, 5, 4, 5, 6, 6, 4])
    melee(dice, Fighter("a", 4), Fighter("b", 4))
    first = [(e.who, e.successes) for e in dice.log if e.table == "Melee Combat"][:2]
    assert first == [("a", 3), ("b", 0)]
