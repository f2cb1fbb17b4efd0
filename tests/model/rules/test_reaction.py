"""Received Fire and Man Down (7.7), Leader Die (6.3.2), Free Will (5.2), 7.7.2, 7.7.3."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import DiceScriptExhaustedError, IllegalActionError
from crdesk.model import Status
from crdesk.rules.reaction import Losses, ReactingFigure, ReactionTest, reaction_test
from tests.model.rules.helpers import opts

RF = (ReactionTest.RECEIVED_FIRE,)
MD = (ReactionTest.MAN_DOWN,)
BOTH = (ReactionTest.RECEIVED_FIRE, ReactionTest.MAN_DOWN)


def one(faces, tester, tests=RF, **kw):
    result = reaction_test(ScriptedDice(faces), [tester], tests, **kw)
    return result.figures[0]


@pytest.mark.parametrize(
    ("faces", "outgunned", "status"),
    [
        ((1, 4), False, Status.RETURN_FIRE),
        ((4, 5), False, Status.RUSH_SHOT),
        ((5, 6), False, Status.DUCK_BACK),
        ((1, 4), True, Status.OUTGUNNED),
        ((4, 5), True, Status.OUTGUNNED),
        ((5, 6), True, Status.LEAVE_THE_BATTLEFIELD),
    ],
)
def test_received_fire_rows(faces, outgunned, status):
    fig = one(faces, ReactingFigure("A", 4, outgunned=outgunned))
    assert fig.status is status
    assert fig.result == status.value
    assert "7.7" in fig.explain()


@pytest.mark.parametrize(
    ("faces", "losses", "status"),
    [
        ((1, 2), Losses(5, 0), Status.CARRY_ON),
        ((3, 6), Losses(), Status.DUCK_BACK),
        ((3, 6), Losses(2, 1), Status.LEAVE_THE_BATTLEFIELD),  # twice as many, and 2
        ((3, 6), Losses(2, 0), Status.LEAVE_THE_BATTLEFIELD),
        ((3, 6), Losses(1, 0), Status.DUCK_BACK),  # twice as many but fewer than 2
        ((3, 6), Losses(3, 2), Status.DUCK_BACK),
        ((5, 6), Losses(), Status.LEAVE_THE_BATTLEFIELD),
    ],
)
def test_man_down_rows(faces, losses, status):
    assert one(faces, ReactingFigure("A", 4), MD, losses=losses).status is status


def test_man_down_compare_sides_interpretation_both_readings():
    losses = Losses(side_friends=2, side_enemies=2, group_friends=2, group_enemies=0)
    sides = one((3, 6), ReactingFigure("A", 4), MD, losses=losses)
    assert sides.status is Status.DUCK_BACK  # side 2 vs 2
    groups = one(
        (3, 6),
        ReactingFigure("A", 4),
        MD,
        losses=losses,
        options=opts(man_down_compare_sides=False),
    )
    assert groups.status is Status.LEAVE_THE_BATTLEFIELD  # group 2 vs 0


def test_one_roll_for_several_reps():
    testers = [ReactingFigure("R5", 5), ReactingFigure("R4", 4), ReactingFigure("R3", 3)]
    dice = ScriptedDice([4, 5])
    result = reaction_test(dice, testers, RF)
    assert [f.status for f in result.figures] == [
        Status.RETURN_FIRE,
        Status.RUSH_SHOT,
        Status.DUCK_BACK,
    ]
    assert dice.remaining == 0
    assert len(dice.log) == 1 and "R3: Duck Back" in dice.log[0].outcome
    assert result.result == "duck_back"  # worst of the group
    assert result.for_figure("R4").passed == 1


def test_cover_die_added_for_figures_in_cover_and_passes_capped():
    fig = one((5, 6, 2), ReactingFigure("A", 4, in_cover=True))
    assert fig.passed == 1 and fig.status is Status.RUSH_SHOT
    capped = one((1, 1, 1), ReactingFigure("A", 4, in_cover=True))
    assert capped.passed == 2 and capped.status is Status.RETURN_FIRE


def test_cover_die_mixed_group_default_rolls_and_ignores_it_for_the_open():
    dice = ScriptedDice([5, 6, 2])
    result = reaction_test(
        dice, [ReactingFigure("cover", 4, in_cover=True), ReactingFigure("open", 4)], RF
    )
    assert result.cover_die == 2
    assert result.for_figure("cover").status is Status.RUSH_SHOT
    assert result.for_figure("open").status is Status.DUCK_BACK
    assert "ignored" in result.for_figure("open").explain()


def test_cover_die_mixed_group_other_reading_no_cover_die_unless_all_in_cover():
    o = opts(cover_die_mixed_group=False)
    dice = ScriptedDice([5, 6])
    group = [ReactingFigure("cover", 4, in_cover=True), ReactingFigure("open", 4)]
    result = reaction_test(dice, group, RF, options=o)
    assert result.cover_die is None and dice.remaining == 0
    assert result.for_figure("cover").status is Status.DUCK_BACK
    both = reaction_test(
        ScriptedDice([5, 6, 2]), [ReactingFigure("a", 4, in_cover=True)], RF, options=o
    )
    assert both.cover_die == 2 and both.figures[0].status is Status.RUSH_SHOT


def test_leader_die_adds_one_pass_on_received_fire():
    dice = ScriptedDice([5, 6, 3])
    result = reaction_test(dice, [ReactingFigure("A", 4)], RF, leader_rep=5)
    assert result.leader_die == 3 and result.leader_passed
    assert result.figures[0].passed == 1 and result.figures[0].status is Status.RUSH_SHOT
    assert [e.section for e in dice.log] == ["7.7", "6.3.2"]


def test_leader_die_failed_adds_nothing():
    result = reaction_test(ScriptedDice([5, 6, 6]), [ReactingFigure("A", 4)], RF, leader_rep=5)
    assert not result.leader_passed and result.figures[0].status is Status.DUCK_BACK


def test_leader_die_not_rolled_on_man_down_or_without_a_star_leader():
    dice = ScriptedDice([5, 6])
    assert reaction_test(dice, [ReactingFigure("A", 4)], MD, leader_rep=5).leader_die is None
    assert dice.remaining == 0
    assert reaction_test(ScriptedDice([5, 6]), [ReactingFigure("A", 4)], RF).leader_die is None


def test_leader_die_capped_interpretation_both_readings():
    capped = one((1, 2, 1), ReactingFigure("A", 4), leader_rep=5)
    assert capped.passed == 2 and capped.status is Status.RETURN_FIRE
    uncapped = one(
        (1, 2, 1), ReactingFigure("A", 4), leader_rep=5, options=opts(leader_die_capped=False)
    )
    assert uncapped.passed == 3 and uncapped.status is Status.RETURN_FIRE


def test_both_tests_one_roll_worse_result_applies():
    dice = ScriptedDice([4, 5])
    fig = reaction_test(dice, [ReactingFigure("A", 4)], BOTH).figures[0]
    assert [s for _, _, s in fig.by_test] == [Status.RUSH_SHOT, Status.DUCK_BACK]
    assert fig.status is Status.DUCK_BACK
    assert "worse" in fig.explain()
    # the Leader Die helps only the Received Fire row
    fig = one((4, 5, 1), ReactingFigure("A", 4), BOTH, leader_rep=5)
    assert [(p, s) for _, p, s in fig.by_test] == [
        (2, Status.RETURN_FIRE),
        (1, Status.DUCK_BACK),
    ]
    assert fig.status is Status.DUCK_BACK
    # Outgunned on Received Fire is worse than Carry On on Man Down
    assert one((1, 1), ReactingFigure("A", 4, outgunned=True), BOTH).status is Status.OUTGUNNED


def test_cannot_score_better_than_the_current_reaction_but_can_score_worse():
    better = one((1, 1), ReactingFigure("A", 4, current=Status.DUCK_BACK))
    assert better.status is Status.DUCK_BACK
    assert "cannot score better" in better.explain()
    worse = one((6, 6), ReactingFigure("A", 4, current=Status.RUSH_SHOT), tests=RF, leader_rep=None)
    assert worse.status is Status.DUCK_BACK


def test_free_will_stars_choose_and_are_never_outgunned():
    dice = ScriptedDice([])
    fig = reaction_test(dice, [ReactingFigure("Star", 5, is_star=True, free_will=2)], RF).figures[0]
    assert fig.status is Status.RETURN_FIRE and "Free Will" in fig.explain()
    assert len(dice.log) == 0
    star = one((5, 6), ReactingFigure("Star", 4, is_star=True, outgunned=True))
    assert star.status is Status.DUCK_BACK  # not Leave the Battlefield
    star2 = one((1, 6), ReactingFigure("Star", 4, is_star=True, outgunned=True))
    assert star2.status is Status.RUSH_SHOT
    with pytest.raises(IllegalActionError, match="only Stars"):
        reaction_test(ScriptedDice([]), [ReactingFigure("G", 4, free_will=2)], RF)
    with pytest.raises(IllegalActionError):
        reaction_test(ScriptedDice([]), [ReactingFigure("S", 4, is_star=True, free_will=3)], RF)


def test_free_will_star_with_rolling_grunts_shares_the_group_roll():
    dice = ScriptedDice([6, 6])
    result = reaction_test(
        dice, [ReactingFigure("Star", 5, is_star=True, free_will=1), ReactingFigure("G", 4)], MD
    )
    assert result.for_figure("Star").status is Status.DUCK_BACK
    assert result.for_figure("G").status is Status.LEAVE_THE_BATTLEFIELD


def test_bad_input_and_script_exhaustion():
    with pytest.raises(IllegalActionError):
        reaction_test(ScriptedDice([1, 1]), [], RF)
    with pytest.raises(IllegalActionError):
        reaction_test(ScriptedDice([1, 1]), [ReactingFigure("A", 4)], ())
    with pytest.raises(DiceScriptExhaustedError):
        reaction_test(ScriptedDice([1]), [ReactingFigure("A", 4)], RF)


def test_to_dict_gives_codes_and_numbers():
    d = reaction_test(ScriptedDice([4, 5]), [ReactingFigure("A", 4)], RF).to_dict()
    assert d["section"] == "7.7" and d["result"] == "rush_shot"
    assert d["faces"] == [4, 5]
    fig = d["results"][0]
    assert fig["result"] == "rush_shot" and fig["passed"] == 1 and fig["name"] == "A"


def test_several_leaders_only_the_highest_reps_die_is_rolled():
    dice = ScriptedDice([5, 6, 5])
    result = reaction_test(dice, [ReactingFigure("A", 4)], RF, leader_rep=[4, 5])
    assert result.leader_passed and dice.log[1].target == 5
    assert result.figures[0].status is Status.RUSH_SHOT
    none = reaction_test(ScriptedDice([5, 6]), [ReactingFigure("A", 4)], RF, leader_rep=[])
    assert none.leader_die is None
