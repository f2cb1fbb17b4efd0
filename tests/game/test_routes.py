"""Moves to a spot by their route (issue 31): 'move ID to X,Y' in the text form and
crdesk game do, Game.plan_move for the table; the history keeps the path walked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.actions import Action, Move, MoveTo
from tests.game.test_game_data import play_case

CASE = Path(__file__).parents[1] / "data" / "games" / "route_door_in_window_out.json"


def at_p1() -> Game:
    case = json.loads(CASE.read_text())
    case["steps"] = case["steps"][:2]  # started, Pvt. Hale active
    return play_case(case)


def test_the_text_form_reads_and_writes_a_move_to_a_spot() -> None:
    act = Action.parse("move p1 to 11,12.8 face 90")
    assert act == MoveTo("p1", (11.0, 12.8), 90.0)
    assert str(act) == "move p1 to 11,12.8 face 90"
    with pytest.raises(IllegalActionError, match="names one spot"):
        Action.parse("move p1 to 1,2 3,4")


def test_the_plan_is_the_route_and_the_history_keeps_its_path() -> None:
    game = at_p1()
    plan = game.plan_move("p1", (11, 12.8))
    assert plan.move is not None and plan.routed and plan.why is None
    assert plan.route[0] == (11.5, 15.2) and plan.route[-1] == (11.0, 12.8)
    assert plan.cost == pytest.approx(6.3, abs=0.05)
    game.play("move p1 to 11,12.8")
    assert isinstance(Action.parse(game.history[-1].action), Move)
    assert game.history[-1].action == str(plan.move)
    again = Game.replay(
        game.scenario, game.history, seed=game.seed, dice=game.dice_mode, settings=game.settings
    )
    assert again.state_hash() == game.state_hash()


def test_a_legal_straight_move_is_played_straight() -> None:
    game = at_p1()
    plan = game.plan_move("p1", (8, 18))
    assert plan.move == Move("p1", ((8.0, 18.0),)) and not plan.routed


def test_beyond_reach_nothing_is_played_and_it_says_how_far() -> None:
    game = at_p1()
    before = game.state_hash()
    plan = game.plan_move("p1", (2, 2))
    assert plan.move is None and plan.farthest is not None
    assert 'has 8.0" of movement left' in (plan.why or "") and "gets as far as" in (plan.why or "")
    assert game.legal("move p1 to 2,2") == plan.why
    with pytest.raises(IllegalActionError, match="gets as far as"):
        game.play("move p1 to 2,2")
    assert game.state_hash() == before
    x, y = plan.farthest
    assert game.plan_move("p1", (x, y)).move is not None  # drop again there: it goes


def test_not_now_and_not_in_the_group() -> None:
    game = at_p1()
    assert "not in the active group" in (game.plan_move("p2", (12, 12)).why or "")
    assert game.plan_move("e1", (1, 1)).move is None


UPSTAIRS = CASE.with_name("floor_upstairs_leaves_by_the_ground_floor.json")


def test_upstairs_the_reach_is_the_floor_and_below_it_the_way_out() -> None:
    """8.2: a figure on floor 2 reaches about its floor only; on the ground, out by the door."""
    case = json.loads(UPSTAIRS.read_text())
    steps = case["steps"]
    case["steps"] = steps[:7]  # up on floor 2, active again
    game = play_case(case)
    house = game.battlefield.terrain[0].outline
    reach = game.reach("p1")
    assert reach is not None and not reach.area.is_empty
    assert reach.area.difference(house).area < 1e-6
    assert "floor 2 of the House" in (game.plan_move("p1", (13, 17)).why or "")
    case["steps"] = steps[:19]  # came down, active again
    game = play_case(case)
    reach = game.reach("p1")
    assert reach is not None and reach.area.difference(house).area > 1.0
