"""Solo games (PEFs, 11) on the demo tables play to the turn limit and replay exactly."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from crdesk.game import Game
from crdesk.game.controller import GameSettings
from crdesk.game.policy import BookPolicy, play_policies
from crdesk.model import Scenario
from crdesk.solo import SoloEnemyPolicy
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
