"""Duck Back's ways (7.4.4): the figure moves there, so the spots it may take are those a
move reaches straight -- not through impassable ground, into or out of a building only by
a door or window (7.4, 8.2).  The rings searched when the nearest Cover is still seen from
the cause's base (``ring_search``) are held to it like a spot the player names."""

from __future__ import annotations

import json
from pathlib import Path

from crdesk.game import Game, duck_back
from tests.game.games import scenario

CASE = Path(__file__).parents[1] / "data" / "games" / "duck_back_not_through_a_wall.json"


def _game() -> Game:
    case = json.loads(CASE.read_text())
    return Game.new(scenario(case["scenario"]), seed=0)


def test_a_spot_across_a_blank_wall_is_not_reachable() -> None:
    game = _game()
    hale = game.fig("p1")  # outside the Shed's north wall, which has no opening
    assert not duck_back.spot_reachable(game, hale, (13.0, 11.0))  # inside, through it
    assert not duck_back.spot_reachable(game, hale, (13.0, 15.0))  # through both walls
    assert duck_back.spot_reachable(game, hale, (8.0, 9.3))  # along the wall, outside


def test_the_rings_take_no_spot_through_a_wall() -> None:
    game = _game()
    hale = game.fig("p1")
    # nothing hides him from Viper outside, and the way into the Shed is round by the
    # door: the rings find no spot (they found one 1" inside, through the wall)
    assert duck_back.ring_search(game, hale, "e1") is None
