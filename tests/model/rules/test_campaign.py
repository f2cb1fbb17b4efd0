"""7.12 retrieving wounded, 7.14 Challenge, 7.13 recovery, 6.1.1, 13.1, 13.2/13.3."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import BandType, Status
from crdesk.rules.campaign import (
    EncounterRecord,
    challenge,
    new_recruits,
    recovery,
    recruit,
    rep_change,
    retrieve_wounded,
)


def test_retrieve_wounded():
    assert retrieve_wounded(ScriptedDice([4]), 4).result == "will_retrieve"
    assert retrieve_wounded(ScriptedDice([5]), 4).result == "will_not_retrieve"
    dice = ScriptedDice([])
    assert retrieve_wounded(dice, 5, is_star=True).result == "may_retrieve"
    assert len(dice.log) == 0


@pytest.mark.parametrize(
    ("faces", "kw", "code"),
    [
        ((1, 4), {}, "success"),
        ((5, 6), {}, "failure"),
        ((6, 6), {"very_easy": True, "helpful_tool": True}, "failure"),  # 6 always fails
        ((5, 5), {"very_easy": True}, "success"),  # Rep 4 +1
        ((4, 4), {"very_difficult": True}, "failure"),  # Rep 4 -1
        ((1, 6, 1, 2), {}, "success"),  # pass 1, reroll pass 2
        ((1, 6, 1, 6), {}, "failure"),  # pass 1 on the reroll counts as 0
        ((1, 6), {"reroll": False}, "gave_up"),
    ],
)
def test_challenge(faces, kw, code):
    dice = ScriptedDice(faces)
    result = challenge(dice, 4, **kw)
    assert result.result == code
    assert dice.remaining == 0


def test_challenge_six_fails_even_at_high_rep():
    assert challenge(ScriptedDice([6, 1, 1, 1]), 7).faces == (6, 1, 1, 1)
    with pytest.raises(IllegalActionError):
        challenge(ScriptedDice([1, 1]), 4, very_easy=True, very_difficult=True)


@pytest.mark.parametrize(
    ("faces", "left", "code"),
    [
        ((1, 2), False, "returns"),
        ((1, 2), True, "returns"),
        ((1, 6), False, "returns"),
        ((1, 6), True, "does_not_return"),
        ((5, 6), False, "does_not_return"),
    ],
)
def test_recovery(faces, left, code):
    assert recovery(ScriptedDice(faces), 4, left_battlefield=left).result == code


def test_recruit_capped_at_the_stars_rep():
    assert recruit(ScriptedDice([6]), BandType.MILITARY).value == 5
    assert recruit(ScriptedDice([6]), BandType.MILITARY, star_rep=4).value == 4
    assert "capped" in recruit(ScriptedDice([6]), BandType.POLICE, star_rep=4).explain()
    assert recruit(ScriptedDice([2]), BandType.GANGER).value == 3


@pytest.mark.parametrize(
    ("faces", "size", "code", "count"),
    [
        ((1, 2), 2, "recruit_to_full_strength", 3),
        ((1, 6), 2, "recruit_one", 1),
        ((6, 6), 2, "no_recruits", 0),
        ((1, 2), 5, "recruit_to_full_strength", 0),
        ((1, 6), 5, "recruit_one", 0),
    ],
)
def test_new_recruits(faces, size, code, count):
    result = new_recruits(ScriptedDice(faces), 5, size)
    assert (result.result, result.value) == (code, count)


def test_new_recruits_six_always_fails_even_above_rep_6():
    assert new_recruits(ScriptedDice([6, 6]), 7, 1).result == "no_recruits"


SUCCESS = EncounterRecord(scored_hit_or_meleed=True)
FAILURE = EncounterRecord(scored_hit_or_meleed=True, end_status=Status.OUT_OF_THE_FIGHT)


@pytest.mark.parametrize(
    ("record", "face", "rep", "new"),
    [
        (SUCCESS, 5, 4, 5),
        (SUCCESS, 4, 4, 4),
        (SUCCESS, 6, 6, 7),
        (FAILURE, 1, 4, 3),
        (FAILURE, 2, 4, 4),
        (FAILURE, 1, 2, 2),
        (EncounterRecord(left_oof_member_behind=True), 1, 5, 4),
        (EncounterRecord(end_status=Status.LEAVE_THE_BATTLEFIELD), 1, 5, 4),
    ],
)
def test_rep_change(record, face, rep, new):
    assert rep_change(ScriptedDice([face]), rep, record).value == new


def test_no_rep_change_roll_when_neither_success_nor_failure():
    dice = ScriptedDice([])
    result = rep_change(dice, 4, EncounterRecord())
    assert result.result == "no_change" and result.value == 4 and len(dice.log) == 0
