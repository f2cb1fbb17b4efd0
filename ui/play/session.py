"""A game being played in the window: the controller, who plays which side, and the pace.

The session is the only part of the play mode that talks to the
:class:`~crdesk.game.Game`.  It holds no rules: it asks the controller what it
awaits, sends the choices of the people at the screen, and lets
:class:`~crdesk.game.policy.BookPolicy` decide for the sides the program plays,
one step per tick of a timer so that a person can follow the program's moves
and the window never blocks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QObject, QTimer, Signal

from crdesk.errors import CrdeskError
from crdesk.game import CHANCE, Action, Decision, Event, Game
from crdesk.game.policy import BookPolicy, Policy

STEP_DELAY_MS = 450
"""The pause before each step the program plays: long enough to read, short enough to flow."""


class PlaySession(QObject):
    """One running game, with the sides the program plays and the timer that plays them.

    ``stepped`` carries the events of each step played (by a person or the
    program); ``rewound`` says the history was taken back (undo), so whatever
    lists the events must rebuild; ``changed`` follows both, once the awaited
    decision may be another one.  ``message`` carries a sentence for the status
    bar (a refusal, or why the program stopped).
    """

    stepped = Signal(object)
    """The list of :class:`~crdesk.game.Event` one step caused."""
    rewound = Signal()
    changed = Signal()
    message = Signal(str)

    def __init__(
        self,
        game: Game,
        program: Iterable[str] = (),
        *,
        policies: Mapping[str, Policy] | None = None,
        delay_ms: int = STEP_DELAY_MS,
        autoplay: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.game = game
        sides = set(game.sides)
        self.program: frozenset[str] = frozenset(s for s in program if s in sides)
        """The sides the program plays; people at this screen play the others."""
        given = dict(policies or {})
        self.policies: dict[str, Policy] = {s: given.get(s) or BookPolicy() for s in self.program}
        self.delay_ms = delay_ms
        self._autoplay = autoplay
        self._stuck: str | None = None
        """Why the program could not decide the current decision (a person must, then)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        self.saved_steps = len(game.history)
        """How many steps the game had when it was last saved (or opened)."""

    # -- queries ---------------------------------------------------------------

    def awaiting(self) -> Decision | None:
        return self.game.awaiting()

    def is_program_turn(self) -> bool:
        """Whether the awaited decision is the program's to make (and it can make it)."""
        decision = self.game.awaiting()
        return (
            decision is not None
            and decision.actor in self.program
            and self._stuck != self._decision_key(decision)
        )

    def person_to_decide(self) -> bool:
        """Whether a person at this screen makes the awaited decision (dice included)."""
        decision = self.game.awaiting()
        return decision is not None and not self.is_program_turn()

    def side_name(self, side: str) -> str:
        """A side's force name, or "Dice" for the chance actor."""
        if side == CHANCE:
            return "Dice"
        try:
            return self.game.battlefield.force(side).name
        except ValueError:
            return side

    def has_unsaved_steps(self) -> bool:
        return len(self.game.history) != self.saved_steps

    @property
    def autoplay(self) -> bool:
        """Whether the program's steps run by themselves from the timer."""
        return self._autoplay

    @autoplay.setter
    def autoplay(self, on: bool) -> None:
        self._autoplay = on
        if on:
            self._schedule()
        else:
            self._timer.stop()

    def program_pending(self) -> bool:
        """Whether the timer is about to play a program step."""
        return self._timer.isActive()

    # -- a person's choices ------------------------------------------------------

    def legal(self, action: Action | str) -> str | None:
        """None if a person may play the action now, else why not (the controller's words)."""
        if self.is_program_turn():
            decision = self.game.awaiting()
            assert decision is not None
            return f"{self.side_name(decision.actor)} is played by the program"
        return self.game.legal(action)

    def play(self, action: Action | str) -> str | None:
        """Play a person's action; None when it was played, else the refusal."""
        reason = self.legal(action)
        if reason is not None:
            return reason
        try:
            events = self.game.play(action)
        except CrdeskError as exc:
            return str(exc)
        self._stuck = None
        self._after(events)
        return None

    def undo(self) -> str | None:
        """Take back the last step a person made, and the program's steps after it.

        The program's steps come back on their own (its choices and the seeded
        dice are the same), so undoing only them would change nothing.  The
        whole take-back is tried on a fork first, so a refusal (dice were seen)
        leaves the game as it was; the refusal is the controller's own words.
        """
        decision = self.game.awaiting()
        if decision is not None and decision.actor == CHANCE:
            # dice are awaited for an action: taking it back drops the action and its dice
            if not self.game.history:
                return "the opening activation roll cannot be taken back"
            self._timer.stop()
            self.game.undo()
            self._stuck = None
            self.rewound.emit()
            self.changed.emit()
            self._schedule()
            return None
        history = self.game.history
        count = 0
        for step in reversed(history):
            count += 1
            if step.actor not in self.program:
                break
        if count == 0:
            return "nothing to undo: no step has been played"
        reason = self.game.can_undo(count)
        if reason is not None:
            return reason
        self._timer.stop()
        self.game.undo_steps(count)
        self._stuck = None
        self.rewound.emit()
        self.changed.emit()
        self._schedule()
        return None

    # -- the program's steps -------------------------------------------------------

    def run_program_step(self) -> bool:
        """Play one step for the program now; False when it is not the program's turn."""
        if not self.is_program_turn():
            return False
        decision = self.game.awaiting()
        assert decision is not None
        try:
            action, why = self.policies[decision.actor].decide(self.game, decision)
            events = self.game.play(action, why=why)
        except CrdeskError as exc:
            self._stuck = self._decision_key(decision)
            self.message.emit(
                f"The program cannot decide for {self.side_name(decision.actor)} ({exc}); "
                "please decide for it."
            )
            self.changed.emit()
            return False
        self._after(events)
        return True

    def run_pending(self, limit: int = 10_000) -> int:
        """Play every program step due now, at once (tests, or a "skip ahead" button)."""
        self._timer.stop()
        played = 0
        while played < limit and self.run_program_step():
            played += 1
        self._timer.stop()
        return played

    def stop(self) -> None:
        """The game is put away: no more program steps."""
        self._autoplay = False
        self._timer.stop()

    def _after(self, events: list[Event]) -> None:
        self.stepped.emit(events)
        self.changed.emit()
        self._schedule()

    def _schedule(self) -> None:
        if self._autoplay and self.is_program_turn():
            self._timer.start(self.delay_ms)

    def _tick(self) -> None:
        if self._autoplay:
            self.run_program_step()

    @staticmethod
    def _decision_key(decision: Decision) -> str:
        return f"{decision.step}:{decision.actor}:{decision.kind}"
