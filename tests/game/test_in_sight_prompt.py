"""An In Sight winner's decision says why a choice is missing (7.6.4; issue 31,
Deliver 6): no fire button means it cannot fire, and why; no charge, no enemy within 6"."""

from __future__ import annotations

from importlib.resources import as_file

from crdesk.game import Game
from crdesk.game.actions import Charge, Fire
from crdesk.model import Scenario
from crdesk.resources import demo_scenario
from crdesk.scenario import load


def demo() -> Scenario:
    with as_file(demo_scenario()) as path:
        return load(path)


def in_sight_winner(seed: int = 4) -> Game:
    game = Game.new(demo(), seed=seed)
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
