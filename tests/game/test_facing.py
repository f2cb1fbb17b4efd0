"""Which way a figure faces, in words, and what stands behind it (digest 1, LOS 7.9.4, 11.3)."""

from __future__ import annotations

import pytest

from crdesk.game import Game, GameSettings
from crdesk.geometry.measure import compass, out_of_arc
from crdesk.model import Figure
from crdesk.resources import demo_scenario
from crdesk.scenario import load


@pytest.mark.parametrize(
    ("facing", "words"),
    [
        (0, "north"),
        (22.4, "north"),
        (22.6, "north-east"),
        (90, "east"),
        (135, "south-east"),
        (180, "south"),
        (225, "south-west"),
        (270, "west"),
        (315, "north-west"),
        (350, "north"),
        (359.9, "north"),
    ],
)
def test_facing_in_compass_words(facing: float, words: str) -> None:
    assert compass(facing) == words


def test_out_of_arc_is_the_sight_engines_front_half() -> None:
    me = Figure(id="a", name="a", rep=4, x=10, y=10, facing=0)  # faces the far edge, -y
    assert not out_of_arc(me, (10, 8))  # ahead
    assert out_of_arc(me, (10, 11.5))  # behind
    assert out_of_arc(me, (12, 10))  # a spot exactly abeam is not seen...
    assert not out_of_arc(me, (12, 10), 0.5)  # ...a base there is (part of it is ahead)
    assert out_of_arc(me, (12, 10.6), 0.5)  # wholly behind the line across the facing
    turned = Figure(id="b", name="b", rep=4, x=10, y=10, facing=90)  # faces right, +x
    assert not out_of_arc(turned, (12, 10)) and out_of_arc(turned, (8, 10))


def solo_game() -> Game:
    """The demo in a solo game (seed 5): three PEFs unresolved, the squad facing north."""
    return Game.new(
        load(str(demo_scenario())), seed=5, settings=GameSettings(solo=True, max_turns=3)
    )


def test_behind_names_the_pef_and_the_enemy_a_figure_turns_its_back_on() -> None:
    game = solo_game()
    diaz = game.fig("p2")  # at (14.5, 31.5), facing 350: north
    assert game.behind("p2") == []  # nothing near and behind at the start
    pef = next(p for p in game.state["pefs"] if not p["resolved"])
    pef["x"], pef["y"] = diaz.x, diaz.y + diaz.radius + 1.5  # 1.5" behind him
    viper = game.fig("e2")
    viper.x, viper.y = diaz.x + 3.0, diaz.y + 4.0  # 4" off, behind and to the right
    found = game.behind("p2")
    assert [e["name"] for e in found] == [f"PEF {pef['id'][3:]}", viper.name]
    assert found[0]["distance"] == pytest.approx(1.5)
    assert found[1]["distance"] == pytest.approx(4.0)
    # the Vipers do not look for PEFs (they are their own side's, 11)
    assert all(not e["id"].startswith("pef") for e in game.behind("e2"))
    # beyond the watch distance, or in front, nothing is named
    assert game.behind("p2", within=1.0) == []
    pef["y"] = diaz.y - 3.0
    assert [e["id"] for e in game.behind("p2")] == [viper.id]
