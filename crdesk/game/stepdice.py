"""The dice of one step of a game (4.1): where every roll of a step comes from.

A seeded game reads die *k* from :func:`crdesk.dice.counter_face` (seed, k), so a
replay or an undo gives the same faces on any Python.  A manual-dice game takes
the faces the player typed, in order; when a rule needs more than were typed,
:class:`NeedDice` stops the step, the controller asks for them (a ``"chance"``
decision) and runs the step again from its start with all the faces given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from crdesk.dice import DiceLog, DiceSource, counter_face
from crdesk.errors import CrdeskError
from crdesk.game.settings import SEEDED


class Rolling(Protocol):
    """What the step's dice read of the game: its dice mode and seed, and the count of
    dice rolled so far (``state["die"]``), which they advance."""

    dice_mode: str
    seed: int
    state: dict[str, Any]
    dice_log: DiceLog


class NeedDice(CrdeskError):
    """A manual-dice step needs faces the player has not entered yet (internal)."""

    def __init__(self, count: int, context: str) -> None:
        super().__init__(f"{context} needs {count} d6")
        self.count = count
        self.context = context


class StepDice(DiceSource):
    """The dice of one step: counter-based when seeded, typed faces when manual."""

    def __init__(self, game: Rolling, typed: Sequence[int]) -> None:
        super().__init__(game.dice_log)
        self._game = game
        self._typed = list(typed)
        self._used = 0
        self.faces: list[int] = []
        self.emitted = 0
        """How many of ``faces`` the events so far have shown."""

    @property
    def position(self) -> int:
        return self._game.state["die"]  # type: ignore[no-any-return]

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        game = self._game
        if game.dice_mode == SEEDED:
            k = game.state["die"]
            faces = tuple(counter_face(game.seed, k + i) for i in range(count))
        else:
            available = len(self._typed) - self._used
            if count > available:
                raise NeedDice(count - available, context)
            faces = tuple(self._typed[self._used : self._used + count])
            self._used += count
        game.state["die"] += count
        self.faces.extend(faces)
        return faces

    @property
    def unused(self) -> int:
        return len(self._typed) - self._used
