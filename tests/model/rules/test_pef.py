"""PEFs 11, 11.2, 11.3, NP Force Movement 11.4, objectives 12.2.6 and 12.3.6, terrain 9."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import BandType
from crdesk.rules.pef import (
    defend_objective,
    enemy_reps,
    np_move,
    pef_move,
    pef_resolve,
    place_pef,
    raid_objective,
)
from crdesk.rules.terrain import (
    building_type,
    buildings_in_section,
    overall_terrain,
    section_terrain,
)
from crdesk.tables import TableType


def test_place_pef():
    assert place_pef(ScriptedDice([6])).value == 6


@pytest.mark.parametrize(("faces", "inches"), [((1, 4), 8), ((4, 5), 4), ((5, 6), 0)])
def test_pef_move(faces, inches):
    assert pef_move(ScriptedDice(faces)).value == inches


@pytest.mark.parametrize(
    ("size_die", "group", "enemies"),
    [(1, 4, 1), (1, 3, 1), (2, 4, 2), (3, 4, 3), (4, 4, 5), (5, 4, 6), (6, 4, 7), (1, 1, 1)],
)
def test_contact_size(size_die, group, enemies):
    result = pef_resolve(ScriptedDice([1, 2, size_die]), player_group_size=group)
    assert result.result == "contact" and result.enemy_size == enemies


def test_somethings_out_there_then_next_pef_lowest_two():
    first = pef_resolve(ScriptedDice([1, 6]), player_group_size=4)
    assert first.result == "somethings_out_there" and first.next_lowest_two
    nxt = pef_resolve(ScriptedDice([6, 2, 5, 3]), player_group_size=4, lowest_two=True)
    assert nxt.counted == (2, 5) and nxt.passed == 1
    nxt2 = pef_resolve(ScriptedDice([6, 2, 3, 4]), player_group_size=4, lowest_two=True)
    assert nxt2.counted == (2, 3) and nxt2.result == "contact" and nxt2.enemy_size == 5


def test_false_alarm_and_the_last_pef_rule():
    assert pef_resolve(ScriptedDice([5, 6]), player_group_size=4).result == "false_alarm"
    last = pef_resolve(ScriptedDice([5, 6, 4]), player_group_size=4, last_pef=True)
    assert last.result == "contact" and last.enemy_size == 5 and "counts as pass 2" in last.reason
    contacted = pef_resolve(
        ScriptedDice([5, 6]), player_group_size=4, last_pef=True, enemy_contacted=True
    )
    assert contacted.result == "false_alarm"
    with pytest.raises(IllegalActionError):
        pef_resolve(ScriptedDice([1, 1]), player_group_size=0)


def test_enemy_reps_from_the_recruiting_column():
    assert enemy_reps(ScriptedDice([1, 2, 5, 6]), BandType.MILITARY, 4) == (3, 4, 5, 5)


@pytest.mark.parametrize(
    ("faces", "outnumbers", "code", "flank"),
    [
        ((1, 2, 3), True, "split_and_encircle", "left"),
        ((1, 2, 4), True, "split_and_encircle", "right"),
        ((1, 6), True, "move_to_cover_to_fire", None),
        ((5, 6), True, "remain_or_move_to_nearest_cover", None),
        ((1, 2), False, "move_to_cover_to_fire", None),
        ((1, 6), False, "remain_or_move_to_nearest_cover", None),
        ((5, 6), False, "remain_or_move_to_nearest_cover", None),
    ],
)
def test_np_force_movement(faces, outnumbers, code, flank):
    dice = ScriptedDice(faces)
    result = np_move(dice, 4, outnumbers=outnumbers)
    assert result.result == code and result.get("flank") == flank
    assert dice.remaining == 0


@pytest.mark.parametrize(
    ("face", "resolved", "found"), [(1, 1, True), (2, 1, False), (3, 3, True), (4, 3, False)]
)
def test_raid_objective(face, resolved, found):
    result = raid_objective(ScriptedDice([face]), pefs_resolved=resolved)
    assert (result.result == "objective_found") is found


def test_raid_objective_with_the_last_pef():
    dice = ScriptedDice([])
    assert raid_objective(dice, pefs_resolved=3, all_resolved=True).result == "objective_found"


@pytest.mark.parametrize(
    ("face", "code"),
    [(1, "kill_or_capture"), (3, "kill_or_capture"), (4, "recover"), (6, "recover")],
)
def test_defend_objective(face, code):
    assert defend_objective(ScriptedDice([face])).result == code


def test_terrain_rolls():
    assert overall_terrain(ScriptedDice([4])).result == "urban"
    sec = section_terrain(ScriptedDice([5]), TableType.URBAN, 2)
    assert sec.result == "hill" and sec.get("buildings") is True
    assert buildings_in_section(ScriptedDice([6]), TableType.URBAN).value == 6
    assert buildings_in_section(ScriptedDice([1]), TableType.CLEAR).value == 1
    b = building_type(ScriptedDice([6]), TableType.CLEAR)
    assert (b.value, b.get("floors")) == (2, 2)
