"""A new scenario from a game's position: the figures where they are now, the statuses a
scenario carries, and a note of what it cannot hold; the game and its scenario untouched."""

from __future__ import annotations

from importlib.resources import as_file
from pathlib import Path

import pytest

from crdesk.game import Game, GameSettings
from crdesk.game.actions import Activate, Move, Prone
from crdesk.game.position import position_scenario
from crdesk.model import Scenario, Status
from crdesk.resources import demo_scenario
from crdesk.scenario import load, save, to_document


@pytest.fixture
def demo() -> Scenario:
    with as_file(demo_scenario()) as path:
        return load(path)


def played(demo: Scenario) -> Game:
    """Seed 1: Sgt. Mace's squad activates; Pvt. Lind walks 3" north, Okafor lies down."""
    game = Game.new(demo, seed=1, settings=GameSettings())
    game.play(Activate("p1"))
    game.play(Move("p4", ((12.0, 30.0),)))
    game.play(Prone("p3"))
    return game


def test_the_position_is_the_table_as_it_stands(demo: Scenario, tmp_path: Path) -> None:
    game = played(demo)
    before_game = game.state_hash()
    before_scenario = to_document(game.scenario)
    position = position_scenario(game)
    path = tmp_path / "position.crdesk"
    save(position.scenario, path)
    again = load(path)  # the scenario loader, as the editor opens it
    lind = again.battlefield.figure("p4")
    assert (lind.x, lind.y) == pytest.approx((12.0, 30.0))
    assert again.battlefield.figure("p3").prone
    assert again.battlefield.figure("p3").status is Status.CARRY_ON
    assert [f.id for f in again.battlefield.figures()] == [f.id for f in game.battlefield.figures()]
    assert again.rules == game.scenario.rules
    assert again.title == "Main Street (urban demo) — turn 1"
    assert "Set up from a game of Main Street (urban demo) at turn 1, step 4" in again.description
    assert game.state_hash() == before_game  # the game goes on as it was
    assert to_document(game.scenario) == before_scenario
    assert game.scenario.battlefield.figure("p4").y == 33.0  # the start is the start
    assert position.scenario.battlefield is not game.battlefield


def test_what_a_scenario_cannot_hold_is_said(demo: Scenario) -> None:
    game = played(demo)
    position = position_scenario(game)
    assert position.dropped == (
        "the turn (1), the activation dice and who has activated: the scenario starts at turn 1",
    )
    assert position.note().startswith("Not kept (a scenario cannot hold it): the turn (1)")
    assert position.note() in position.scenario.description
    solo = Game.new(demo, seed=2, settings=GameSettings(solo=True, encounter="patrol"))
    dropped = position_scenario(solo).dropped
    assert "3 unresolved PEFs" in dropped
    assert "the encounter's progress (its objectives start afresh)" in dropped


def test_a_figure_out_of_the_fight_stays_so(demo: Scenario, tmp_path: Path) -> None:
    game = played(demo)
    game.battlefield.update_figure("e3", status=Status.OUT_OF_THE_FIGHT, star_power=None)
    path = tmp_path / "p.crdesk"
    save(position_scenario(game, title="After the ambush").scenario, path)
    again = load(path)
    assert again.title == "After the ambush"
    assert again.battlefield.figure("e3").status is Status.OUT_OF_THE_FIGHT
