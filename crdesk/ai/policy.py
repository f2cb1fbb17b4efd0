"""Policies: who decides for a side the program plays.

The controller asks a side's :class:`Policy` whenever that side is the actor,
exactly as it would ask a player; the answer is played as an ordinary step and
recorded with the policy's reason, so a replay never asks the policy again
(Wesnoth's replays, boardgame.io's bots).

:class:`BookPolicy` is deterministic: it makes the choices the book makes
automatically for Grunts (the In Sight actions of 7.6.4, Duck Back to the
nearest Cover, rolling rather than Free Will), always uses Star Power and
Cheating Death, and otherwise plays simply: each figure fires at the nearest
enemy it can (7.9.8's one-on-one allocation), else advances towards the
nearest enemy, and then the group ends its activation.  The real enemy AI
(PEFs, table 11.4) is built on the same protocol in :mod:`crdesk.ai.enemy`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Protocol

from crdesk.errors import IllegalActionError
from crdesk.game.actions import (
    Action,
    End,
    Fire,
    Move,
)
from crdesk.game.controller import Game
from crdesk.game.records import CHANCE, Decision, Event

_WHY = {
    "activate": "the group with the highest Leader Rep activates first (7.1)",
    "in_sight_action": "fire if it can, else charge, else duck back (7.6.4)",
    "free_will": "rolls the dice",
    "star_power": "uses Star Power",
    "cheat_death": "cheats death",
    "duck_back": "ducks back to the nearest Cover (7.4.4)",
    "free_move": "takes the In Sight test at once",
}


class Policy(Protocol):
    """Chooses an action for a decision; returns it and a short reason for the log."""

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]: ...


class BookPolicy:
    """The book's automatic choices, and the first sensible legal option otherwise."""

    def __init__(self, advance: bool = True) -> None:
        self.advance = advance
        """Move figures towards the nearest enemy when nothing else is to be done."""

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        kind = decision.kind
        if kind == "act":
            return self.act(game, decision)
        if decision.default is None:
            raise IllegalActionError(f"the book policy cannot answer a {kind} decision")
        return decision.default, _WHY.get(kind, "the book's choice")

    def act(self, game: Game, decision: Decision) -> tuple[Action, str]:
        """The choice of an activation's action (``act`` decisions): the hook the
        objective player (:mod:`crdesk.ai.objective`) overrides."""
        for option in decision.options:
            if isinstance(option, Fire):
                return option, "fires at the nearest enemy in sight and range (7.9.8)"
        frame = game.frames[-1]
        if self.advance:
            for fid in frame.data["members"]:
                move = self._advance(game, fid)
                if move is not None:
                    return move, "advances towards the nearest enemy"
        return End(), "nothing more to do: ends the activation"

    def _advance(self, game: Game, fid: str) -> Move | None:
        frame = game.frames[-1]
        fig = game.fig(fid)
        if not fig.status.can_act or fig.prone or fid in frame.data["moved"]:
            return None
        left = game.movement_left(frame, fid)
        if left < 1.0:
            return None
        foes = game.alive(game.enemy_of(fig.side))
        if not foes:
            return None
        foe = min(foes, key=lambda e: (math.hypot(e.x - fig.x, e.y - fig.y), e.id))
        dist = math.hypot(foe.x - fig.x, foe.y - fig.y)
        gap = dist - fig.radius - foe.radius - 2.0
        if gap <= 0.5:
            return None
        for frac in (1.0, 0.75, 0.5, 0.25):
            step = min(left, gap) * frac
            if step < 0.5:
                break
            x = fig.x + (foe.x - fig.x) / dist * step
            y = fig.y + (foe.y - fig.y) / dist * step
            move = Move(fid, ((round(x, 3), round(y, 3)),))
            if game.legal(move) is None:
                return move
        return None


def play_policies(
    game: Game,
    policies: Mapping[str, Policy],
    *,
    max_steps: int = 100_000,
    on_step: Callable[[Decision, Action, str, list[Event]], None] | None = None,
) -> int:
    """Let the policies play while one of their sides is the actor; returns steps played."""
    played = 0
    while played < max_steps:
        decision = game.awaiting()
        if decision is None or decision.actor == CHANCE or decision.actor not in policies:
            break
        action, why = policies[decision.actor].decide(game, decision)
        events = game.play(action, why=why)
        played += 1
        if on_step is not None:
            on_step(decision, action, why, events)
    return played
