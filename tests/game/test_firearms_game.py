"""Firearms Detail in the game controller (FD §3-§8, §11): the switch, legal(), undo and
the adapter queries the play mode asks.  Whole fights are data games
(``tests/data/games/firearms_*.json``)."""

from __future__ import annotations

from typing import Any

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import Game, adapter
from crdesk.game.actions import DiceFaces
from crdesk.rules.firearms.tables import FireMode
from tests.game.games import scenario


def _compact(on: bool) -> dict[str, Any]:
    return {
        "table": [24, 24],
        "rules": {"firearms_detail": on},
        "forces": [
            {
                "id": "p",
                "player": True,
                "figures": [
                    {"id": "p1", "name": "Cpl. Diaz", "rep": 5, "at": [12, 20]},
                    {"id": "p2", "name": "Doc", "rep": 4, "weapon": "SG", "at": [14, 20]},
                ],
            },
            {
                "id": "e",
                "figures": [
                    {"id": "e1", "name": "Knuckles", "rep": 4, "at": [12, 4], "facing": 180}
                ],
            },
        ],
    }


def _game(on: bool) -> Game:
    game = Game.new(scenario(_compact(on)), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    return game


def test_with_the_switch_off_modes_are_refused_and_the_state_has_no_weapons() -> None:
    game = _game(False)
    why = game.legal("fire p1 at e1 mode FA")
    assert why is not None and "Firearms Detail rules, off in this scenario" in why
    assert "weapons" not in game.state_document()["game"]
    assert game.legal("fire p1 at e1") is None
    assert adapter.weapon_panel(game, "p1") is None
    assert adapter.rounds_left(game, "p1") is None


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("fire p2 at e1 mode semi", "Doc's Shotgun has no Semi mode; its card has Pump (pump)"),
        ("fire p1 at e1 mode FA walk 5", "at most 4 pairs"),
        ("fire p1 at e1 mode FA aim walk 1", "aiming is not allowed with walking fire"),
        ("fire p1 at e1,p2 mode FA", "Full Auto (FD §5) fires at one primary target"),
        ("fire p1 at e1 mode semi aim", "aiming is for Full Auto (FD §5.1), not Semi"),
        ("fire p1 at e1:2 mode FA", "Full Auto sets its own dice"),
    ],
)
def test_legal_refuses_what_the_card_does_not_allow(action: str, words: str) -> None:
    game = _game(True)
    why = game.legal(action)
    assert why is not None and words in why
    with pytest.raises(IllegalActionError, match=words.split("(")[0].strip()):
        game.play(action)


def test_aiming_and_support_need_a_shooter_that_did_not_move() -> None:
    game = _game(True)
    assert game.legal("fire p1 at e1 mode FA aim") is None
    game.play("move p1 12,19")
    assert "has moved this activation" in (game.legal("fire p1 at e1 mode FA aim") or "")
    assert "has moved this activation" in (game.legal("fire p1 at e1 support bipod") or "")
    panel = adapter.weapon_panel(game, "p1")
    assert panel is not None and panel.aim is not None and "moved" in panel.aim


def test_the_adapter_gives_the_card_modes_and_rounds_and_the_rounds_are_game_state() -> None:
    game = _game(True)
    panel = adapter.weapon_panel(game, "p1")
    assert panel is not None
    assert [m.mode for m in panel.modes] == [FireMode.SEMI, FireMode.RB3, FireMode.FA]
    assert [m.dice for m in panel.modes] == [3, 3, 10]
    assert panel.rounds == 30 and panel.spares == 3 and panel.aim is None
    assert panel.summary.startswith("Assault Rifle (AR), Semi: 30/30 rounds, 3 spare magazines")
    odds = adapter.firearms_odds(game, "fire p1 at e1 mode FA aim")
    assert odds.explain()
    before = game.state_hash()
    # ten fire dice all missing (1s), then Knuckles' Received Fire test
    game.play("fire p1 at e1 mode FA", faces=[1] * 10 + [6, 6])
    assert adapter.rounds_left(game, "p1") == 20
    modes = {m.mode: m for m in adapter.fire_modes(game, "p1")}
    assert modes[FireMode.FA].dice == 10
    # the rounds are game state: the game before the volley, replayed, holds them all
    back = Game.replay(game.scenario, game.history[:-1], dice="manual", settings=game.settings)
    assert back.state_hash() == before
    assert adapter.rounds_left(back, "p1") == 30


@pytest.mark.parametrize(
    ("mode", "dice", "outcome"),
    [("semi", 3, "Received Fire: Rush Shot"), ("FA", 10, "Received Fire (Outgunned): Outgunned")],
)
def test_full_auto_counts_outgunned_ranking_one_higher(mode: str, dice: int, outcome: str) -> None:
    """AR against AR is no Outgunning; on Full Auto the shooter's ranking is one higher
    (FD §5), so the same Received Fire roll (one pass) reads Duck Back, not Rush Shot."""
    game = _game(True)
    game.play(f"fire p1 at e1 mode {mode}", faces=[1] * dice + [2, 6])
    while (d := game.awaiting()) is not None and d.actor == "chance":
        game.play(DiceFaces((1,) * d.dice))  # Knuckles' Rush Shot misses, and so on
    reaction = next(e for e in game.events if e.kind == "reaction")
    assert "rolled 2,6 vs Rep 4: passed 1" in reaction.text and outcome in reaction.text
