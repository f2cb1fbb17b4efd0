"""Co-op seats: saved only when used, an old saved game still opens, a seated one
round-trips, bad seats are named by path, and who decides follows the group in play.

The demo table: the Red Vipers (side "enemy") start as two groups, the Viper boss
(e1) with Knuckles (e2), and Dice (e3) with Shiv (e4); with seed 2 they activate first.
"""

from __future__ import annotations

import json
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import pytest

from crdesk.game import Game, GameSettings
from crdesk.game.actions import Activate
from crdesk.game.savefile import GameFileError, dumps_game, load_game, loads_game
from crdesk.game.seats import Seat, deciders, seats_of, start_groups
from crdesk.model import Scenario
from crdesk.resources import demo_scenario
from crdesk.scenario import load

OLD_GAME = Path(__file__).parent.parent / "data" / "saved" / "hot_seat_before_coop.crgame"
"""A hot-seat game of four steps saved by crdesk before co-op seats existed."""
ALICE = Seat("Alice", "enemy", ("e1", "e2"))
BOB = Seat("Bob", "enemy", ("e3", "e4"))


@pytest.fixture(scope="module")
def demo() -> Scenario:
    with as_file(demo_scenario()) as path:
        return load(path)


def coop_game(demo: Scenario, seed: int = 2) -> Game:
    settings = GameSettings(hot_seat=True, seats=(ALICE, BOB))
    return Game.new(demo, seed=seed, settings=settings)


def test_the_start_groups_are_what_the_players_share(demo: Scenario) -> None:
    groups = start_groups(demo, "enemy")
    assert [(g.leader, g.members) for g in groups] == [("e1", ("e1", "e2")), ("e3", ("e3", "e4"))]
    assert [g.leader for g in start_groups(demo, "player")] == ["p1"]


def test_an_old_saved_game_opens_unseated_and_saves_as_it_was() -> None:
    text = OLD_GAME.read_text(encoding="utf-8")
    assert "seats" not in text
    loaded = load_game(OLD_GAME)
    game = loaded.game
    assert loaded.complete and len(game.history) == 4
    assert game.settings.hot_seat and seats_of(game.settings) == ()
    assert deciders(game, game.awaiting()) == ()  # one person per side, as before
    # nothing new is written for a game without seats (the rest of the file follows the
    # scenario format, which may have grown since)
    again = json.loads(dumps_game(game))
    assert (
        again["settings"]
        == json.loads(text)["settings"]
        == {
            "practice_undo": False,
            "max_turns": None,
            "program_sides": [],
            "hot_seat": True,
        }
    )
    assert again["steps"] == json.loads(text)["steps"]


def test_seats_are_written_only_when_there_are_any(demo: Scenario) -> None:
    plain = Game.new(demo, seed=2, settings=GameSettings(hot_seat=True))
    assert "seats" not in json.loads(dumps_game(plain))["settings"]
    assert json.loads(dumps_game(coop_game(demo)))["settings"]["seats"] == [
        {"name": "Alice", "side": "enemy", "figures": ["e1", "e2"]},
        {"name": "Bob", "side": "enemy", "figures": ["e3", "e4"]},
    ]


def test_a_seated_game_round_trips(demo: Scenario, tmp_path: Path) -> None:
    game = coop_game(demo)
    decision = game.awaiting()
    assert decision is not None and decision.actor == "enemy"
    game.play(Activate("e1"))  # the Viper boss's group goes first (highest Rep, 7.1)
    path = tmp_path / "coop.crgame"
    path.write_text(dumps_game(game), encoding="utf-8")
    again = load_game(path).game
    assert seats_of(again.settings) == (ALICE, BOB)
    assert again.settings == game.settings and again.state_hash() == game.state_hash()
    assert deciders(again, again.awaiting()) == (ALICE,)
    assert dumps_game(again) == path.read_text(encoding="utf-8")


def test_who_decides_follows_the_group_in_play(demo: Scenario) -> None:
    game = coop_game(demo)
    decision = game.awaiting()
    assert decision is not None and decision.kind == "activate"
    # only the Viper boss's group may activate first (7.1): the choice is Alice's
    assert [str(o) for o in decision.options] == ["activate e1", "pass"]
    assert deciders(game, decision) == (ALICE,)
    game.play(Activate("e1"))
    assert deciders(game, game.awaiting()) == (ALICE,)  # the Viper boss's group: Alice's
    plain = Game.new(demo, seed=2, settings=GameSettings(hot_seat=True))
    assert deciders(plain, plain.awaiting()) == ()


def test_a_choice_between_two_players_groups_is_for_both(demo: Scenario) -> None:
    """Whoever has a group on offer may say which goes (the side's choice, 7.1)."""
    game = coop_game(demo)
    decision = game.awaiting()
    assert decision is not None
    both = type(decision)(  # the same decision offering both groups
        decision.step,
        decision.actor,
        decision.kind,
        decision.prompt,
        decision.section,
        options=(Activate("e1"), Activate("e3")),
    )
    assert deciders(game, both) == (ALICE, BOB)


def test_a_lone_seat_names_the_sides_one_player(demo: Scenario) -> None:
    carol = Seat("Carol", "player", ())
    game = Game.new(demo, seed=1, settings=GameSettings(hot_seat=True, seats=(carol,)))
    decision = game.awaiting()
    assert decision is not None and decision.actor == "player"
    assert deciders(game, decision) == (carol,)


def _with_seats(demo: Scenario, seats: list[dict[str, Any]]) -> str:
    doc = json.loads(dumps_game(coop_game(demo)))
    doc["settings"]["seats"] = seats
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("seats", "path", "words"),
    [
        ([{"name": "", "side": "enemy"}], "settings.seats[0].name", "a player's name"),
        ([{"name": "Al", "side": "enemy", "bench": 1}], "settings.seats[0].bench", "unknown"),
        ([{"name": "Al", "side": "green"}], "settings.seats[0].side", "no side of the scenario"),
        (
            [{"name": "Al", "side": "enemy"}, {"name": "Al", "side": "player"}],
            "settings.seats[1].name",
            "two players are called 'Al'",
        ),
        ([{"name": "Al", "side": "enemy", "figures": "e1"}], "settings.seats[0].figures", "list"),
    ],
)
def test_bad_seats_are_named_by_path(
    demo: Scenario, seats: list[dict[str, Any]], path: str, words: str
) -> None:
    with pytest.raises(GameFileError) as info:
        loads_game(_with_seats(demo, seats))
    found = [p for p in info.value.problems if p.path == path]
    assert found and words in str(found[0]), [str(p) for p in info.value.problems]
