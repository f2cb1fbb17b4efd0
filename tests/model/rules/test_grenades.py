"""Grenades 7.10, blast circles, rocket launchers 7.10.5 and buildings 8.4."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import BandType, Status
from crdesk.options import RulesOptions
from crdesk.rules.grenades import (
    BlastFigure,
    blast,
    missed_blast,
    ready_grenade,
    rocket_shot,
    rocket_vs_building,
    throw_grenade,
)
from crdesk.rules.shooting import TargetSpec


@pytest.mark.parametrize(("face", "code"), [(4, "readied_throw_now"), (5, "readied_throw_later")])
def test_ready(face, code):
    result = ready_grenade(ScriptedDice([face]), 4, band=BandType.MILITARY)
    assert result.result == code and result.section == "7.10.1"


def test_ready_refused_for_bands_without_grenades():
    with pytest.raises(IllegalActionError, match="no grenades"):
        ready_grenade(ScriptedDice([1]), 4, band=BandType.POLICE)


@pytest.mark.parametrize(
    ("faces", "in_los", "code"),
    [
        ((1, 2), False, "on_spot"),
        ((1, 6), True, "on_spot"),
        ((1, 6), False, "miss"),
        ((5, 6), True, "oops"),
    ],
)
def test_throw(faces, in_los, code):
    result = throw_grenade(ScriptedDice(faces), 4, distance=5, spot_in_los=in_los)
    assert result.result == code


def test_throw_range():
    with pytest.raises(IllegalActionError, match="6"):
        throw_grenade(ScriptedDice([1, 1]), 4, distance=6.5, spot_in_los=True)


def test_blast_cover_and_prone_escape_and_take_received_fire():
    dice = ScriptedDice([6, 2])
    figures = [
        BlastFigure("open", 4),
        BlastFigure("behind", 4, cover_between=True),
        BlastFigure("prone", 4, prone=True),
        BlastFigure("open2", 4),
    ]
    result = blast(dice, figures)
    assert [v.result for v in result.figures] == [
        "obviously_dead",
        "received_fire",
        "received_fire",
        "duck_back",
    ]
    assert result.figures[1].received_fire and not result.figures[0].received_fire
    assert result.result == "obviously_dead"
    assert dice.remaining == 0


def test_blast_old_school_uses_grenade_impact_2():
    result = blast(
        ScriptedDice([2, 3]),
        [BlastFigure("a", 5), BlastFigure("b", 5)],
        options=RulesOptions(old_school=True),
    )
    assert [v.damage.status for v in result.figures] == [Status.OUT_OF_THE_FIGHT, Status.DUCK_BACK]


def test_missed_grenade_everyone_takes_received_fire():
    result = missed_blast([BlastFigure("a", 4), BlastFigure("b", 3)])
    assert [v.result for v in result.figures] == ["received_fire", "received_fire"]


def test_rocket_shot_uses_ranged_combat_and_is_out_of_ammo():
    hit = rocket_shot(ScriptedDice([4]), 4)
    assert hit.on_target and hit.out_of_ammo and hit.result == "hit"
    assert not rocket_shot(ScriptedDice([3]), 4).on_target
    assert not rocket_shot(ScriptedDice([4]), 4, target=TargetSpec(in_cover=True)).on_target
    assert rocket_shot(ScriptedDice([5]), 4, target=TargetSpec(prone=True)).on_target


def test_building_area_collapses_occupants_roll_damage():
    dice = ScriptedDice([6, 3])
    result = rocket_vs_building(dice, [("a", 4), ("b", 4)])
    assert [o.status for o in result.lower] == [Status.OBVIOUSLY_DEAD, Status.DUCK_BACK]
    assert result.result == "area_collapses" and result.upper_die is None


def test_upper_area_collapses_on_1_to_3():
    dice = ScriptedDice([2, 5])  # upper die 2: collapses; lower OD, upper rolls 5
    result = rocket_vs_building(dice, [("low", 4)], upper_occupants=[("up", 4)])
    assert result.upper_collapsed and result.upper_die == 2
    assert result.lower[0].status is Status.OBVIOUSLY_DEAD
    assert result.upper[0].status is Status.OUT_OF_THE_FIGHT


def test_upper_area_stays_on_4_to_6_occupants_received_fire():
    dice = ScriptedDice([4, 4])
    result = rocket_vs_building(dice, [("low", 4)], upper_occupants=[("up", 4)])
    assert not result.upper_collapsed
    assert result.lower[0].status is Status.OUT_OF_THE_FIGHT
    assert result.upper[0].result == "received_fire"


def test_last_area_of_a_level_brings_the_upper_down_without_a_roll():
    dice = ScriptedDice([1])
    result = rocket_vs_building(
        dice, [("low", 4)], upper_occupants=[("up", 4)], last_area_of_level=True
    )
    assert result.upper_collapsed and result.upper_die is None
    assert result.upper[0].status is Status.DUCK_BACK
    assert "last area" in result.explain()
