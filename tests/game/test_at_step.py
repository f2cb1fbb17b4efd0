"""Game.at_step: any position of a game's history, quickly, the game itself untouched."""

from __future__ import annotations

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.controller import CHECKPOINT_EVERY
from tests.solo.kept import STEPS, kept_game, kept_scenario


@pytest.mark.parametrize("count", [1, 2, CHECKPOINT_EVERY - 1, 25, 26, 50, STEPS - 1, STEPS])
def test_at_step_is_the_game_replayed_to_that_step(count: int) -> None:
    game = kept_game()
    before = (game.state_hash(), game.history, game.events)
    there = game.at_step(count)
    assert there is not game
    assert there.history == game.history[:count]
    assert there.events == tuple(e for e in game.events if e.step <= count)
    again = Game.replay(
        kept_scenario(), game.history[:count], seed=game.seed, settings=game.settings
    )
    assert there.state_hash() == again.state_hash()
    assert there.turn == again.turn
    assert (game.state_hash(), game.history, game.events) == before


def test_at_step_replays_only_from_the_nearest_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    game = kept_game()
    played: list[str] = []
    play = Game.play

    def counting(self: Game, action: object, **kw: object) -> object:
        played.append(str(action))
        return play(self, action, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "play", counting)
    there = game.at_step(STEPS - 2)
    assert len(played) < CHECKPOINT_EVERY
    assert there.history == game.history[: STEPS - 2]


def test_a_position_plays_on_without_touching_the_game() -> None:
    game = kept_game()
    there = game.at_step(30)
    decision = there.awaiting()
    assert decision is not None
    action = decision.default or decision.options[0]
    there.play(action)
    assert len(there.history) == 31
    assert len(game.history) == STEPS and game.awaiting() is None
    assert game.at_step(30).history == there.history[:30]


@pytest.mark.parametrize("count", [0, -1, STEPS + 1])
def test_a_step_outside_the_history_is_refused(count: int) -> None:
    game = kept_game()
    assert game.earliest_step == 1
    with pytest.raises(IllegalActionError, match=f"steps 1-{STEPS}"):
        game.at_step(count)


def test_a_game_opened_from_its_snapshot_starts_there() -> None:
    game = kept_game().at_step(40)
    resumed = Game.from_snapshot(
        game.scenario,
        game.state_document(),
        game.history,
        seed=game.seed,
        settings=game.settings,
    )
    assert resumed.earliest_step == 40
    assert resumed.at_step(40).state_hash() == game.state_hash()
    with pytest.raises(IllegalActionError, match="steps 40-40"):
        resumed.at_step(39)
