"""Every digest Interpretation the rules engine reads, tested in both readings.

The geometry interpretations (cohesion_chain, duck_back_interiors_count,
impassable_blocks_los, figures_block_los, downed_figures_block_los,
cover_obstacle_distance) are read by crdesk.geometry / cohesion, not here; the
last test checks this file covers every other option.
"""

import dataclasses

import pytest

from crdesk.dice import ScriptedDice
from crdesk.model import Status
from crdesk.options import Interpretations, RulesOptions, Scale
from crdesk.rules.melee import (
    Approach,
    can_declare_charge,
    charge_approach,
    charger_after_fire,
    target_charge_dice,
)
from crdesk.rules.reaction import Losses, ReactingFigure, ReactionTest, reaction_test
from crdesk.tables import ChargeResult
from tests.model.rules.helpers import opts

GEOMETRY = {
    "cohesion_chain",
    "duck_back_interiors_count",
    "impassable_blocks_los",
    "figures_block_los",
    "downed_figures_block_los",
    "cover_obstacle_distance",
}
COVERED = {
    "leader_die_capped",
    "cover_die_mixed_group",
    "man_down_compare_sides",
    "charge_missed_charger_tests",
    "charge_reach_within_six",
    "flank_is_outside_front_cone",
    "flank_half_angle",
    "blast_size_is_diameter",
}


GAME = {
    # read by the game controller; both readings are played in tests/game
    "ducked_back_unseen_while_in_cover",  # data games duck_back_unseen*.json
    "outgunned_cannot_shoot_back",  # test_rules_corrections.py
    "pef_buildings",  # test_pef_options.py, data game pef_building.json
    "pef_buildings_held_at_set_up",  # data games defend_set_up_in_a_building*.json
    "pef_cover_fan",  # test_pef_options.py, data games pef_move_*.json
    "pef_moves_on_any_die",  # test_pef_options.py
    "np_outnumbers_by_group",  # test_pef_options.py
    "pef_contact_in_sight",  # test_pef_options.py
    "raid_objective_taken_on_reach",  # test_encounter.py
    "defend_item_stays_put",  # test_encounter.py
    "fd_keep_tight_ammo",  # test_firearms_game.py (the module's jam, FD §3)
    "fd_spotter_by_radio",  # test_firearms_game.py, data game firearms_indirect_spotter.json
}


def test_every_interpretation_is_covered_here_or_by_geometry():
    names = {f.name for f in dataclasses.fields(Interpretations)}
    assert names == GEOMETRY | COVERED | GAME


@pytest.mark.parametrize(("capped", "passed"), [(True, 2), (False, 3)])
def test_leader_die_capped(capped, passed):
    result = reaction_test(
        ScriptedDice([1, 1, 1]),
        [ReactingFigure("A", 4)],
        leader_rep=5,
        options=opts(leader_die_capped=capped),
    )
    assert result.figures[0].passed == passed
    assert result.figures[0].status is Status.RETURN_FIRE


@pytest.mark.parametrize(("mixed", "dice_used"), [(True, 3), (False, 2)])
def test_cover_die_mixed_group(mixed, dice_used):
    dice = ScriptedDice([5, 6, 1])
    group = [ReactingFigure("in", 4, in_cover=True), ReactingFigure("out", 4)]
    result = reaction_test(dice, group, options=opts(cover_die_mixed_group=mixed))
    assert dice.used == dice_used
    assert result.for_figure("in").status is (Status.RUSH_SHOT if mixed else Status.DUCK_BACK)
    assert result.for_figure("out").status is Status.DUCK_BACK


@pytest.mark.parametrize(
    ("sides", "status"), [(True, Status.DUCK_BACK), (False, Status.LEAVE_THE_BATTLEFIELD)]
)
def test_man_down_compare_sides(sides, status):
    losses = Losses(side_friends=3, side_enemies=2, group_friends=2, group_enemies=1)
    result = reaction_test(
        ScriptedDice([1, 6]),
        [ReactingFigure("A", 4)],
        (ReactionTest.MAN_DOWN,),
        losses=losses,
        options=opts(man_down_compare_sides=sides),
    )
    assert result.figures[0].status is status


@pytest.mark.parametrize(("tests", "goes_on"), [(True, False), (False, True)])
def test_charge_missed_charger_tests(tests, goes_on):
    fate = charger_after_fire(
        ChargeResult.TARGET_FIRES,
        hit=False,
        reaction=Status.DUCK_BACK,
        options=opts(charge_missed_charger_tests=tests),
    )
    assert fate.goes_on is goes_on and fate.received_fire is tests


def test_a_missed_charger_takes_no_test_by_default():
    assert not RulesOptions().interpretations.charge_missed_charger_tests
    fate = charger_after_fire(ChargeResult.TARGET_FIRES, hit=False, options=RulesOptions())
    assert fate.goes_on and not fate.received_fire


@pytest.mark.parametrize(
    ("within_six", "allowed", "needed"), [(True, True, 4.0), (False, False, 10.0)]
)
def test_charge_reach_within_six(within_six, allowed, needed):
    decl = can_declare_charge(
        distance=10,
        remaining_move=8,
        has_los=True,
        options=opts(charge_reach_within_six=within_six),
    )
    assert decl.allowed is allowed and decl.reach_needed == needed


def test_charge_declaration_needs_los_and_activity():
    assert not can_declare_charge(distance=3, remaining_move=8, has_los=False).allowed
    assert not can_declare_charge(distance=3, remaining_move=8, has_los=True, active=False).allowed
    ok = can_declare_charge(distance=3, remaining_move=0, has_los=True)
    assert ok.allowed and ok.result == "charge_allowed"


@pytest.mark.parametrize(
    ("start", "end", "flank_on", "half", "approach"),
    [
        (0, 0, True, 45, Approach.FRONT),
        (30, 10, True, 45, Approach.FRONT),
        (60, 10, True, 45, Approach.FLANK),
        (60, 10, False, 45, Approach.FRONT),  # other reading: no flank charges
        (60, 10, True, 70, Approach.FRONT),  # a wider front cone
        (120, 170, True, 45, Approach.REAR),
        (120, 170, False, 45, Approach.REAR),
        (-150, 200, True, 45, Approach.REAR),  # wraps: 200° is -160°
        (150, 60, True, 45, Approach.FLANK),  # starts behind, ends in front: not rear
    ],
)
def test_flank_interpretations(start, end, flank_on, half, approach):
    o = opts(flank_is_outside_front_cone=flank_on, flank_half_angle=half)
    assert charge_approach(start, end, o) is approach


def test_flank_reading_changes_the_targets_dice():
    on = target_charge_dice(in_cover=False, approach=Approach.FLANK)
    off = target_charge_dice(
        in_cover=False, approach=Approach.FLANK, options=opts(flank_is_outside_front_cone=False)
    )
    assert (on, off) == (1, 2)


@pytest.mark.parametrize(
    ("diameter", "scale", "radius"),
    [
        (True, Scale.MM28, 2.5),
        (False, Scale.MM28, 5.0),
        (True, Scale.MM15, 1.5),
        (False, Scale.MM15, 3.0),
    ],
)
def test_blast_size_is_diameter(diameter, scale, radius):
    o = RulesOptions(
        scale=scale,
        interpretations=dataclasses.replace(Interpretations(), blast_size_is_diameter=diameter),
    )
    assert o.blast_radius == radius
