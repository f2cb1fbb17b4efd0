"""Playing an encounter: the game controller (Chain Reaction 2015, sections 7-8, 14).

A :class:`Game` is a state machine that the GUI, the non-player AI and the tests
drive the same way: it says which decision it awaits, takes a choice, and
records events.  A game is its scenario, its dice seed and its list of steps,
so every game can be saved, resumed and replayed exactly.
"""

from __future__ import annotations

from crdesk.game.actions import ACTION_WORDS, Action
from crdesk.game.controller import MANUAL, SEEDED, Game, GameSettings, ReplayError
from crdesk.game.records import CHANCE, Decision, Event, Frame, Outcome, Step

__all__ = [
    "ACTION_WORDS",
    "CHANCE",
    "MANUAL",
    "SEEDED",
    "Action",
    "Decision",
    "Event",
    "Frame",
    "Game",
    "GameSettings",
    "Outcome",
    "ReplayError",
    "Step",
]
