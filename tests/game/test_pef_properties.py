"""Solo games (PEFs, 11) on the demo tables play to the turn limit and replay exactly."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib.resources import as_file
from pathlib import Path

import pytest

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import BookPolicy, play_policies
from crdesk.cli import main
from crdesk.game import Game
from crdesk.game.savefile import load_game
from crdesk.game.settings import GameSettings
from crdesk.model import Scenario
from crdesk.resources import demo_scenario
from tests.game.test_properties import demo

TURNS = 4


@cache
def table(name: str, enemies: bool) -> Scenario:
    """A demo table; without ``enemies`` its non-player force starts empty (only PEFs)."""
    sc = demo(name)
    if enemies:
        return sc
    fresh = replace(sc, battlefield=sc.battlefield.copy())
    for force in fresh.battlefield.forces:
        if not force.player:
            for fig in list(force.figures):
                fresh.battlefield.remove_figure(fig.id)
    return fresh


def play_solo(sc: Scenario, seed: int) -> Game:
    game = Game.new(sc, seed=seed, settings=GameSettings(max_turns=TURNS, solo=True))
    policies = {
        f.id: (BookPolicy() if f.player else SoloEnemyPolicy()) for f in game.battlefield.forces
    }
    while game.awaiting() is not None:
        assert play_policies(game, policies) > 0, "a decision no policy answers"
    return game


@pytest.mark.parametrize("enemies", [True, False], ids=["with-enemies", "pefs-only"])
@pytest.mark.parametrize("name", ["urban", "wooded"])
@pytest.mark.parametrize("seed", [0, 7, 4242])
def test_solo_game_plays_out_and_replays(name: str, seed: int, enemies: bool) -> None:
    sc = table(name, enemies)
    game = play_solo(sc, seed)
    out = game.outcome
    assert out is not None
    assert out.winner is not None or "turn limit" in out.reason
    kinds = [e.kind for e in game.events]
    assert kinds.count("pef_placed") == sc.encounter.pef_count
    pefs = game.state_document()["game"]["pefs"]
    assert [p["id"] for p in pefs] == [f"pef{n}" for n in range(1, len(pefs) + 1)]
    for fig in game.battlefield.figures():
        if fig.id.startswith("pef"):
            assert fig.side != next(f.id for f in game.battlefield.forces if f.player)
            assert 1 <= fig.rep <= 6
    if not enemies:
        contacts = [e for e in game.events if e.kind == "pef_contact"]
        assert all(e.figures for e in contacts)
    again = Game.replay(game.scenario, game.history, seed=seed, settings=game.settings)
    assert again.state_hash() == game.state_hash()


def test_non_solo_games_carry_no_pef_state() -> None:
    game = Game.new(demo("urban"), seed=1, settings=GameSettings(max_turns=1))
    assert "pefs" not in game.state_document()["game"]
    assert "solo" not in game.settings.to_dict()
    assert GameSettings.from_dict(GameSettings(solo=True).to_dict()).solo


def test_snapshot_of_a_solo_game_with_contacts_opens() -> None:
    sc = table("wooded", False)
    game = play_solo(sc, 7)
    if not any(e.kind == "pef_contact" and e.figures for e in game.events):
        pytest.skip("no contact in this game")
    twin = Game.from_snapshot(
        sc, game.state_document(), game.history, seed=7, settings=game.settings
    )
    assert twin.state_hash() == game.state_hash()


def test_cli_solo_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with as_file(demo_scenario()) as demo_path:
        out = tmp_path / "solo.crgame"
        assert main(["game", "new", str(demo_path), "-o", str(out), "--seed", "5", "--solo"]) == 0
        assert "PEF 1 is placed" in capsys.readouterr().out
        loaded = load_game(str(out))
        assert loaded.game.settings.solo
        status = main(["game", "auto", str(demo_path), "--seed", "5", "--turns", "2", "--solo"])
        text = capsys.readouterr().out
        assert status == 0
        assert "solo enemy" in text and "PEF 3 is placed" in text


def test_summary_lists_unresolved_pefs() -> None:
    game = Game.new(demo("wooded"), seed=3, settings=GameSettings(solo=True))
    unresolved = [p for p in game.state_document()["game"]["pefs"] if not p["resolved"]]
    assert game.summary()["pefs"] == unresolved
    assert "pefs" not in Game.new(demo("wooded"), seed=3).summary()
