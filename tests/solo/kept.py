"""A kept game to watch: a short solo encounter the program played on both sides.

The player's patrol (the tactical player) against the Vipers (the solo enemy, 11.4)
on a small table with a garden wall and two woods: 77 steps over four turns, with
moves by both players' spot searches, fire, and PEFs.  Made once per test process
and shared: tests must not play on :func:`kept_game` itself (use ``at_step`` or
``fork``).
"""

from __future__ import annotations

from functools import cache

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import play_policies
from crdesk.ai.tactical import TacticalPolicy
from crdesk.game import Game, GameSettings
from crdesk.model import Scenario
from tests.solo.tables import WALL, table

SEED = 7
STEPS = 77
"""Steps the kept game lasts (the Patrol has no figure left that can fight)."""
TURN_STARTS = (1, 19, 41, 47)
"""The steps after which each turn starts (the opening roll, then each turn's roll)."""


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
    assert len(game.history) == STEPS and game.awaiting() is None
    return game


def moves_by(game: Game, side: str) -> list[int]:
    """The steps (1-based) at which ``side`` moved a figure."""
    return [
        n
        for n, step in enumerate(game.history, 1)
        if step.actor == side and step.action.startswith("move ")
    ]
