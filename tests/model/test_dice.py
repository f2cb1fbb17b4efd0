"""The dice service (digest 2, book 4.1): seeding, scripts, log, reading helpers."""

import hashlib
import pickle
import random
from collections import Counter

import pytest

from crdesk.dice import (
    CounterDice,
    Dice,
    DiceLog,
    DiceSource,
    ScriptedDice,
    ScriptedDiceExhaustedError,
    count_passes,
    count_successes,
    counter_face,
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


# --------------------------------------------------------------------------
# Counter dice: recorded chance, the same faces on any Python version

SEED_1_FACES = (4, 6, 4, 5, 4, 5, 6, 6, 5, 3)


def _sha_face(seed: int, k: int) -> int:
    digest = hashlib.sha256(f"crdesk-dice-v1:{seed}:{k}".encode("ascii")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


def test_counter_face_is_the_documented_hash_scheme():
    assert tuple(counter_face(1, k) for k in range(10)) == SEED_1_FACES
    for seed in (0, 1, 7, -3, 2**70):
        for k in (0, 1, 5, 999, 10**9):
            assert counter_face(seed, k) == _sha_face(seed, k)


def test_counter_face_is_a_fair_die_over_many_positions():
    counts = Counter(counter_face(42, k) for k in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


@pytest.mark.parametrize(("seed", "k"), [(1, -1), (True, 0), (1, False), (1.0, 0), ("1", 0)])
def test_counter_face_rejects_bad_arguments(seed, k):
    with pytest.raises((TypeError, ValueError)):
        counter_face(seed, k)


def test_counter_dice_number_dice_over_the_whole_game():
    dice = CounterDice(1)
    assert dice.seed == 1 and dice.position == 0
    a = dice.roll(3, section="7.7", table="Reaction Tests")
    assert a.faces == SEED_1_FACES[:3] and dice.position == 3
    dice.roll(0, section="4.1", table="nothing")
    assert dice.position == 3
    b = dice.roll(4, section="7.9.10", table="Ranged Combat")
    assert b.faces == SEED_1_FACES[3:7] and dice.position == 7
    assert [e.first_die for e in dice.log] == [0, 3, 3]
    # a second source on the same seed reads the same faces in one go
    assert CounterDice(1).roll(7, section="4.1", table="t").faces == SEED_1_FACES[:7]


def test_counter_dice_seek_replays_and_undo_truncates_the_log():
    dice = CounterDice(1)
    for n in (2, 3, 1):
        dice.roll(n, section="4.1", table="t")
    # undo the last two rolls: back to the first die of entry 1
    entry = dice.log[1]
    dice.seek(entry.first_die)
    dice.log.truncate(1)
    assert dice.position == 2 and len(dice.log) == 1
    again = dice.roll(3, section="4.1", table="t")
    assert again.faces == SEED_1_FACES[2:5] and again.log_index == 1
    assert dice.log[1].first_die == 2
    dice.seek(9)
    assert dice.roll(1, section="4.1", table="t").faces == (SEED_1_FACES[9],)
    dice.seek(0)
    assert dice.roll(2, section="4.1", table="t").faces == SEED_1_FACES[:2]
    with pytest.raises(ValueError):
        dice.seek(-1)


def test_counter_dice_start_position_and_seed_checks():
    dice = CounterDice(1, position=5)
    assert dice.roll(2, section="4.1", table="t").faces == SEED_1_FACES[5:7]
    with pytest.raises(TypeError):
        CounterDice("1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CounterDice(1, position=-2)


def test_every_source_reports_its_position():
    scripted = ScriptedDice([1, 2, 3, 4])
    assert scripted.position == scripted.used == 0
    scripted.roll(3, section="4.1", table="t")
    assert scripted.position == scripted.used == 3 and scripted.remaining == 1
    seeded = Dice.seeded(5)
    seeded.roll(2, section="4.1", table="t")
    seeded.roll(4, section="4.1", table="t")
    assert seeded.position == 6
    assert [e.first_die for e in seeded.log] == [0, 2]


def test_a_failed_roll_does_not_move_the_position_or_log():
    dice = ScriptedDice([1, 2])
    dice.roll(1, section="4.1", table="t")
    with pytest.raises(DiceScriptExhaustedError):
        dice.roll(2, section="4.1", table="t")
    assert dice.position == 1 and len(dice.log) == 1
    assert dice.roll(1, section="4.1", table="t").faces == (2,)


# --------------------------------------------------------------------------
# The log: first die, figures, truncate


def test_log_entries_carry_first_die_and_figures_into_to_dict():
    dice = ScriptedDice([1, 2, 3, 4, 5])
    dice.roll(2, section="7.7", table="Reaction Tests", who="Bob, Bob", figures=["f1", "f2"])
    dice.roll(3, section="7.9.10", table="Ranged Combat", who="shooter")
    first, second = dice.log
    assert (first.first_die, first.figures) == (0, ("f1", "f2"))
    assert (second.first_die, second.figures) == (2, ())
    d = first.to_dict()
    assert d["first_die"] == 0 and d["figures"] == ["f1", "f2"]
    assert second.to_dict()["first_die"] == 2 and second.to_dict()["figures"] == []
    # the printed line stays as it was
    assert str(first) == "[7.7 Reaction Tests] Bob, Bob rolled 1,2"


def test_figures_must_be_a_sequence_of_ids_not_one_string():
    with pytest.raises(TypeError, match="figures"):
        ScriptedDice([1]).roll(1, section="4.1", table="t", figures="abc")  # type: ignore[arg-type]


def test_log_truncate_drops_entries_from_index_n_on():
    log = DiceLog()
    dice = ScriptedDice([1, 2, 3, 4], log=log)
    for _ in range(4):
        dice.roll(1, section="4.1", table="t")
    log.truncate(2)
    assert [e.faces for e in log] == [(1,), (2,)]
    log.truncate(5)  # past the end: nothing to drop
    assert len(log) == 2
    log.truncate(0)
    assert len(log) == 0
    with pytest.raises(ValueError):
        log.truncate(-1)


# --------------------------------------------------------------------------
# Running out of scripted dice, as data


def test_script_exhausted_error_says_what_to_ask_the_player_for():
    dice = ScriptedDice([1, 2, 3])
    dice.roll(2, section="4.1", table="t")
    with pytest.raises(DiceScriptExhaustedError) as info:
        dice.roll(3, section="7.7", table="Reaction Tests", who="Bob", figures=("bob-1",), target=4)
    err = info.value
    assert isinstance(err, ScriptedDiceExhaustedError)
    assert (err.needed, err.available) == (3, 1)
    assert (err.section, err.table, err.who, err.figures) == (
        "7.7",
        "Reaction Tests",
        "Bob",
        ("bob-1",),
    )
    assert str(err) == (
        "7.7 Reaction Tests for Bob needs 3 d6 but the dice script has only 1 left (used 2 of 3)"
    )


def test_script_exhausted_error_survives_pickling():
    err = ScriptedDiceExhaustedError(
        "msg", needed=2, available=0, section="7.7", table="t", who="A", figures=("a",)
    )
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == "msg" and (back.needed, back.available, back.figures) == (2, 0, ("a",))


def test_a_source_keeping_its_count_elsewhere_logs_first_die_from_its_position():
    state = {"die": 40}

    class GameDice(DiceSource):
        @property
        def position(self) -> int:
            return state["die"]

        def _faces(self, count: int, context: str) -> tuple[int, ...]:
            faces = tuple(counter_face(1, state["die"] + i) for i in range(count))
            state["die"] += count
            return faces

    dice = GameDice()
    dice.roll(2, section="4.1", table="t")
    dice.roll(1, section="4.1", table="t")
    assert [e.first_die for e in dice.log] == [40, 42] and dice.position == 43
