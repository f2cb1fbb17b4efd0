"""Game.at_step: any position of a game's history, quickly, the game itself untouched."""

from __future__ import annotations

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.controller import CHECKPOINT_EVERY
from tests.solo.kept import kept_game, kept_scenario


@pytest.mark.parametrize(
    "count", [1, 2, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 50, -1, 0]
)
def test_at_step_is_the_game_replayed_to_that_step(count: int) -> None:
    game = kept_game()
    if count <= 0:  # from the end: the last step and the one before
        count += len(game.history)
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
    last = len(game.history)
    there = game.at_step(last - 2)
    assert len(played) < CHECKPOINT_EVERY
    assert there.history == game.history[: last - 2]


def test_a_position_plays_on_without_touching_the_game() -> None:
    game = kept_game()
    there = game.at_step(30)
    decision = there.awaiting()
    assert decision is not None
    action = decision.default or decision.options[0]
    there.play(action)
    assert len(there.history) == 31
    assert len(game.history) > 31 and game.awaiting() is None
    assert game.at_step(30).history == there.history[:30]


@pytest.mark.parametrize("beyond", [-1, 0, 1])
def test_a_step_outside_the_history_is_refused(beyond: int) -> None:
    game = kept_game()
    last = len(game.history)
    assert game.earliest_step == 1
    with pytest.raises(IllegalActionError, match=f"steps 1-{last}"):
        game.at_step(last + 1 if beyond == 1 else beyond)


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
