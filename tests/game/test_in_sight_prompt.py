"""An In Sight winner's decision says why a choice is missing (7.6.4; issue 31,
Deliver 6): no fire button means it cannot fire, and why; no charge, no enemy within 6"."""

from __future__ import annotations

import json
from pathlib import Path

from crdesk.game import Game
from crdesk.game.actions import CarryOn, Charge, DuckBack, Fire
from crdesk.game.in_sight import _why_not
from tests.demos import in_sight_demo
from tests.game.test_game_data import play_case

DATA = Path(__file__).resolve().parents[1] / "data" / "games"


def in_sight_winner(seed: int = 4) -> Game:
    game = Game.new(in_sight_demo(), seed=seed)
    while "activate p1" not in [str(o) for o in game.awaiting().options]:
        game.play(game.awaiting().default)
    game.play("activate p1")
    game.play("move p2 19,25")  # Cpl. Diaz sees Knuckles (7.6)
    while game.awaiting().kind != "in_sight_action":
        decision = game.awaiting()
        game.play("pass" if decision.kind == "free_move" else decision.default)
    return game


def test_the_prompt_says_why_there_is_no_charge() -> None:
    decision = in_sight_winner().awaiting()
    assert any(isinstance(o, Fire) for o in decision.options)
    assert not any(isinstance(o, Charge) for o in decision.options)
    assert decision.prompt.endswith('No enemy it sees within 6" to charge.')
    assert "cannot fire" not in decision.prompt


def test_the_prompt_says_a_wall_stops_the_charge() -> None:
    """An enemy seen through a window 4" away, a wall on the way to him (7.11.2): the
    prompt does not say there is no enemy within 6"; it says the way is shut."""
    case = json.loads((DATA / "charge_not_through_a_wall.json").read_text(encoding="utf-8"))
    case["scenario"]["forces"][1]["figures"] = case["scenario"]["forces"][1]["figures"][:1]
    case["steps"] = case["steps"][:2]
    case.pop("events", None)
    case.pop("final", None)
    game = play_case(case)
    okafor = game.fig("p1")
    assert game.sight().sees("p1", "e1") and game.sight().distance("p1", "e1") <= 6
    text = _why_not(game, okafor, [DuckBack("p1"), CarryOn("p1")])
    assert 'no enemy within 6" it can reach to charge: a wall or rock is in the way' in text
    assert "it sees within" not in text
