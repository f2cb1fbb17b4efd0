"""11.1 with a building of two floors: the contact of an upper floor's PEF stands upstairs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.game.test_game_data import play_case

CASE = Path(__file__).parents[1] / "data/games/pef_building_two_floors.json"


def test_a_contact_upstairs_stands_on_the_upper_floor() -> None:
    game = play_case(json.loads(CASE.read_text()))
    floors = game.state_document()["game"]["floors"]
    assert floors.get("pef5-1") == 2  # the upper floor's contact
    assert "pef3-1" not in floors  # the ground floor's: floor 1, the default


def test_a_figure_upstairs_may_turn_in_place() -> None:
    """A move of one point (a turn in place, 7.2) by a figure upstairs stays in its
    building (8.2): it crashed the check, a line of one point (a simulated Defend)."""
    from crdesk.game import buildings

    game = play_case(json.loads(CASE.read_text()))
    fig = game.fig("pef5-1")
    assert buildings.upstairs_problem(game, fig, [(fig.x, fig.y)]) is None
    assert buildings.upstairs_problem(game, fig, [(fig.x, fig.y + 30)]) is not None
