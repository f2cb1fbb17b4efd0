"""A kept game to watch: a short solo encounter the program played on both sides.

The player's patrol (the tactical player) against the Vipers (the solo enemy, 11.4)
on a small table with a garden wall and two woods: some 80 steps over four turns, with
moves by both players' spot searches, fire, and PEFs.  Made once per test process
and shared: tests must not play on :func:`kept_game` itself (use ``at_step`` or
``fork``).  Tests read its length, turns and moves from it (a change to the program's
players changes the game), and :func:`kept_game` checks it still has what they need.
"""

from __future__ import annotations

from functools import cache

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import play_policies
from crdesk.ai.tactical import TacticalPolicy
from crdesk.game import Game, GameSettings
from crdesk.game.controller import CHECKPOINT_EVERY
from crdesk.model import Scenario
from tests.solo.tables import WALL, table

SEED = 8


def kept_scenario() -> Scenario:
    woods = [
        {"kind": "woods", "outline": [[4, 14], [12, 14], [12, 20], [4, 20]]},
        {"kind": "woods", "outline": [[24, 16], [31, 16], [31, 21], [24, 21]]},
    ]
    return table(
        [("e1", 4, 14, 4), ("e2", 4, 18, 4), ("e3", 5, 22, 4)],
        players=(("p1", 5, 16, 34), ("p2", 4, 20, 34), ("p3", 4, 24, 34)),
        terrain=[{"kind": "cover", "outline": WALL, "cover_type": "wall"}, *woods],
    )


@cache
def kept_game() -> Game:
    """The kept game, played to its end (see the module; do not play on it)."""
    game = Game.new(kept_scenario(), seed=SEED, settings=GameSettings(solo=True, max_turns=5))
    play_policies(game, {"p": TacticalPolicy(), "e": SoloEnemyPolicy()}, max_steps=300)
    enough = (
        game.awaiting() is None
        and len(game.history) > 2 * CHECKPOINT_EVERY + 2
        and game.turn >= 3
        and moves_by(game, "e")
        and moves_by(game, "p")
    )
    assert enough, "the kept game no longer has what the viewer's tests need: pick a seed"
    return game


def moves_by(game: Game, side: str) -> list[int]:
    """The steps (1-based) at which ``side`` moved a figure."""
    return [
        n
        for n, step in enumerate(game.history, 1)
        if step.actor == side and step.action.startswith("move ")
    ]
