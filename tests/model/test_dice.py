"""The dice service (digest 2, book 4.1): seeding, scripts, log, reading helpers."""

import random

import pytest

from crdesk.dice import (
    Dice,
    DiceLog,
    ScriptedDice,
    count_passes,
    count_successes,
    dice_count,
    half_d6,
    possible,
)
from crdesk.errors import DiceScriptExhaustedError


def test_seeded_dice_are_reproducible_and_use_the_injected_rng():
    a = Dice(random.Random(42))
    b = Dice.seeded(42)
    fa = [a.roll(3, section="4.1", table="t").faces for _ in range(20)]
    fb = [b.roll(3, section="4.1", table="t").faces for _ in range(20)]
    assert fa == fb
    assert all(1 <= f <= 6 for faces in fa for f in faces)
    # the module-global generator is not consumed
    random.seed(1)
    before = random.random()
    random.seed(1)
    Dice.seeded(3).roll(10, section="4.1", table="t")
    assert random.random() == before


def test_dice_rejects_a_non_random_source():
    with pytest.raises(TypeError):
        Dice(42)  # type: ignore[arg-type]


def test_scripted_dice_replay_in_order_and_fail_clearly_past_the_end():
    dice = ScriptedDice([1, 2, 3])
    assert dice.roll(2, section="7.7", table="Reaction Tests").faces == (1, 2)
    assert dice.remaining == 1
    with pytest.raises(DiceScriptExhaustedError, match=r"7\.7 Reaction Tests for Bob needs 2"):
        dice.roll(2, section="7.7", table="Reaction Tests", who="Bob")


@pytest.mark.parametrize("bad", [0, 7, -1])
def test_scripted_dice_reject_impossible_faces(bad):
    with pytest.raises(ValueError, match="1-6"):
        ScriptedDice([3, bad])


def test_zero_dice_roll_nothing_and_use_no_script():
    dice = ScriptedDice([])
    assert dice.roll(0, section="4.1", table="t").faces == ()
    assert dice.roll(-2, section="4.1", table="t").faces == ()


def test_every_roll_is_logged_and_completed_by_note():
    log = DiceLog()
    dice = ScriptedDice([4, 5, 6], log=log)
    roll = dice.roll(2, section="7.7", table="Reaction Tests", who="Bob", target=4)
    assert len(log) == 1
    assert log[0].faces == (4, 5) and log[0].target == 4 and log[0].outcome == ""
    dice.note(roll, "Rush Shot", passed=1)
    entry = log[0]
    assert (entry.section, entry.table, entry.who, entry.passed, entry.outcome) == (
        "7.7",
        "Reaction Tests",
        "Bob",
        1,
        "Rush Shot",
    )
    assert str(entry) == "[7.7 Reaction Tests] Bob rolled 4,5 vs 4 (passed 1): Rush Shot"
    assert entry.to_dict()["faces"] == [4, 5]
    dice.roll(1, section="7.9.11", table="Ranged Combat Damage")
    assert [e.index for e in log] == [0, 1]
    assert log.entries[1].faces == (6,)


@pytest.mark.parametrize(
    ("faces", "target", "kwargs", "expected"),
    [
        ([1, 2], 4, {}, 2),
        ([5, 6], 4, {}, 0),
        ([4, 5], 4, {}, 1),  # equal to the target passes
        ([1, 1, 1], 4, {}, 2),  # capped at 2 on pass tests
        ([1, 1, 1], 4, {"cap": None}, 3),
        ([6, 6], 6, {}, 2),
        ([6, 6], 6, {"six_fails": True}, 0),  # "a 6 always fails"
        ([6, 1], 9, {"six_fails": True}, 1),
        ([], 4, {}, 0),  # zero dice, zero passes
    ],
)
def test_count_passes(faces, target, kwargs, expected):
    assert count_passes(faces, target, **kwargs) == expected


def test_count_successes_has_no_cap():
    assert count_successes([1, 2, 3, 1, 2, 3]) == 6
    assert count_successes([4, 5, 6]) == 0
    assert count_successes([]) == 0


def test_half_d6_and_possibilities():
    assert [half_d6(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [possible(f, 1, 2) for f in range(1, 7)] == [True, True] + [False] * 4
    with pytest.raises(ValueError):
        half_d6(7)


def test_dice_count_never_negative():
    assert dice_count(2, 1) == 3
    assert dice_count(2, -2) == 0
    assert dice_count(1, -3) == 0


def test_check_used_up_catches_too_many_faces():
    dice = ScriptedDice([1, 2, 3])
    dice.roll(2, section="7.7", table="t")
    with pytest.raises(ValueError, match="3 dice given but only 2 were needed"):
        dice.check_used_up()
    dice.roll(1, section="7.7", table="t")
    dice.check_used_up()
