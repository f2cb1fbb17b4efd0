"""Playing an encounter: the game controller (Chain Reaction 2015, sections 7-8, 14).

A :class:`Game` is a state machine that the GUI, the non-player AI and the tests
drive the same way: it says which decision it awaits, takes a choice, and
records events.  A game is its scenario, its dice seed and its list of steps,
so every game can be saved, resumed and replayed exactly.

The parts: :mod:`~crdesk.game.actions` (frozen actions with a text form),
:mod:`~crdesk.game.records` (decisions, events, steps, frames),
:mod:`~crdesk.game.controller` (the :class:`Game`), :mod:`~crdesk.game.adapter`
(figures and sight into rules inputs), :mod:`~crdesk.ai.policy` (who decides
for a side the program plays).

A worked example: Cpl. Diaz fires at Knuckles with real dice typed in.

>>> from crdesk.model import Battlefield, Figure, Force, Scenario, Table
>>> bf = Battlefield(Table(24, 24), forces=[
...     Force("p", "Diaz's team", player=True, figures=[Figure("p1", "Cpl. Diaz", 4, x=12, y=20)]),
...     Force("e", "Vipers", figures=[Figure("e1", "Knuckles", 4, x=12, y=4, facing=180)])])
>>> game = Game.new(Scenario(bf), dice="manual")
>>> decision = game.awaiting()
>>> decision.actor, decision.prompt
('chance', 'Roll 2d6 for 7.1 Activation for p and e and enter the faces.')
>>> [e.text for e in game.play("dice 4,1")]
["Turn 1: activation dice Diaz's team 4, Vipers 1; Diaz's team activates first (7.1)."]
>>> [str(o) for o in game.awaiting().options]
['activate p1', 'pass']
>>> _ = game.play("activate p1")
>>> game.legal("move p1 12,10")
'Cpl. Diaz has 8.0" of movement left; the path costs 10.0"'
>>> for event in game.play("fire p1 at e1", faces=[6, 5, 1, 2, 3]):
...     print(event.text)  # doctest: +NORMALIZE_WHITESPACE
Cpl. Diaz fires at Knuckles: Rep 4 AR rolled 6,5,1 (7.9.10). Knuckles: 6+4=10: hit;
5+4=9: hit; 1+4=5: shooter missed. 2 hits. Damage 2: 2 < Rep 4: Duck Back (7.9.11).
Damage 3: 3 < Rep 4: Duck Back (7.9.11).
>>> d = game.awaiting()
>>> d.actor, d.kind, [str(o) for o in d.options]
('e', 'duck_back', ['duckback e1 auto'])
>>> [(s.action, s.faces) for s in game.history]
[('start', (4, 1)), ('activate p1', ()), ('fire p1 at e1', (6, 5, 1, 2, 3))]
>>> game.undo()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
crdesk.errors.IllegalActionError: step 3 (fire p1 at e1) rolled dice (6,5,1,2,3); undo stops ...
>>> again = Game.replay(game.scenario, game.history, dice="manual")
>>> again.state_hash() == game.state_hash()
True
"""

from __future__ import annotations

from crdesk.game.actions import ACTION_WORDS, Action
from crdesk.game.controller import Game, ReplayError
from crdesk.game.records import CHANCE, Decision, Event, Frame, Outcome, Step
from crdesk.game.settings import MANUAL, SEEDED, GameSettings

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
