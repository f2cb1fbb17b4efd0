"""Small tables for the solo AI's tests, and the checks they share."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.dice import DiceSource, ScriptedDice
from crdesk.game import Game
from crdesk.game.actions import Move
from crdesk.model import Scenario
from tests.game.games import scenario

WALL = [[12, 13], [26, 13], [26, 13.5], [12, 13.5]]
"""A garden wall 5" in front of the enemy line at y = 8."""


def table(
    enemies: Sequence[tuple[str, int, float, float]],
    players: Sequence[tuple[str, int, float, float]] = (("p1", 5, 18, 32), ("p2", 4, 20, 32)),
    terrain: Sequence[dict[str, Any]] = (),
    width: int = 36,
    height: int = 36,
) -> Scenario:
    """Players at the bottom edge facing up, the enemy near the top facing down."""
    return scenario(
        {
            "table": [width, height],
            "terrain": list(terrain),
            "forces": [
                {
                    "id": "p",
                    "name": "Patrol",
                    "player": True,
                    "figures": [
                        {
                            "id": fid,
                            "name": f"Player {fid}",
                            "rep": rep,
                            "at": [x, y],
                            **({"role": "star"} if k == 0 else {}),
                        }
                        for k, (fid, rep, x, y) in enumerate(players)
                    ],
                },
                {
                    "id": "e",
                    "name": "Vipers",
                    "figures": [
                        {"id": fid, "name": f"Viper {fid}", "rep": rep, "at": [x, y], "facing": 180}
                        for fid, rep, x, y in enemies
                    ],
                },
            ],
        }
    )


def scripted(faces: Sequence[int], *, fires_first: bool = True) -> SoloEnemyPolicy:
    """A policy whose every 11.4 roll is ``faces`` (2d6, then the flank die on a split);
    ``fires_first=False``: the whole group moves before anyone fires, for the tests of
    the spots alone (a shot in a manual-dice game waits for its dice)."""

    def dice(game: Game, number: int) -> DiceSource:
        return ScriptedDice(faces)

    policy = SoloEnemyPolicy(dice=dice)
    policy.fires_first = fires_first
    return policy


def first_act(sc: Scenario, policy: SoloEnemyPolicy) -> Game:
    """A manual-dice game where the enemy (die 4) activates first; at its first 'act'."""
    game = Game.new(sc, dice="manual")
    game.play("dice 1,4")
    decision = game.awaiting()
    assert decision is not None and decision.actor == "e" and decision.kind == "activate"
    action, why = policy.decide(game, decision)
    assert str(action).startswith("activate ") and "11.4" in why
    game.play(action, why=why)
    decision = game.awaiting()
    assert decision is not None and decision.kind == "act"
    return game


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0


def sight_at(game: Game, move: Move, viewers: Sequence[str]) -> dict[str, tuple[bool, bool, bool]]:
    """Place the mover at the move's end (no path: where it is) on a fork, stationary,
    with each viewer turned towards it, and ask the visibility service: viewer ->
    (mover sees it, it sees the mover, the mover is in Cover from it)."""
    twin = game.fork()
    bf = twin.battlefield
    me = bf.figure(move.figure)
    end = move.path[-1] if move.path else (me.x, me.y)
    bf.move_figure(move.figure, end[0], end[1], move.facing)
    for v in viewers:
        fig = bf.figure(v)
        bf.move_figure(v, fig.x, fig.y, bearing((fig.x, fig.y), end))
    twin.vis.set_moving(())
    row = twin.vis.row(move.figure)
    out = {}
    for v in viewers:
        j = row.ids.index(v)
        out[v] = (bool(row.sees[j]), bool(row.seen_by[j]), bool(row.cover_to[j]))
    return out


def covered_from_all(sight: dict[str, tuple[bool, bool, bool]]) -> bool:
    """In Cover from (or out of sight of) every viewer."""
    return all(not seen or cover for _sees, seen, cover in sight.values())
