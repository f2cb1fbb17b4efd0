"""A game being played in the window: the controller, who plays which side, and the pace.

The session is the only part of the play mode that talks to the
:class:`~crdesk.game.Game`.  It holds no rules: it asks the controller what it
awaits, sends the choices of the people at the screen, and lets a policy decide
for the sides the program plays (:class:`~crdesk.ai.policy.BookPolicy`, or in
a solo game :class:`~crdesk.ai.enemy.SoloEnemyPolicy` for the non-player force),
one step at a time so that a person can follow the program's moves.

The window never waits for the program to think: a policy decides in a worker
thread on a *shadow* of the game (a :meth:`~crdesk.game.Game.fork` made once,
which the worker brings up to the live game's history before each decision).
The controller is not thread-safe, so the live game is only ever touched on the
GUI thread, and only immutable steps and actions cross between the threads;
the chosen action is played on the GUI thread when the worker is done.  The next
program step waits until the animation of the last one has finished
(:attr:`PlaySession.pacer`), so the program plays at the pace the player set.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QObject, QTimer, Signal

from crdesk.ai.policy import BookPolicy, Policy
from crdesk.errors import CrdeskError
from crdesk.game import CHANCE, MANUAL, Action, Decision, Event, Game, Step
from crdesk.game.actions import Move

STEP_DELAY_MS = 450
"""The pause before each step the program plays: long enough to read, short enough to flow."""
THINK_POLL_MS = 5
"""How often the GUI thread looks whether the worker has chosen the program's action."""


@dataclass(frozen=True, slots=True)
class PlayedStep:
    """One step as the table should show it: what happened, and where figures stood before.

    The model already holds the state after the step; ``before`` lets a view
    (the animator) draw the way there.
    """

    events: tuple[Event, ...]
    before: Mapping[str, tuple[float, float]]
    """Every figure's position before the step, by id."""
    action: Action | None
    """The action played (None for entered dice)."""
    actor: str
    by_program: bool
    by_hand: bool
    """A person's move: the figure was dragged there, so its path needs no replay."""
    pefs: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Every PEF not yet resolved and its spot before the step, by id (solo games)."""


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
    played = Signal(object)
    """A :class:`PlayedStep`, after ``stepped`` and ``changed`` (views are up to date)."""

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
        # What the program holds now (Qt wrappers, terrain, kernels, the scenario) is
        # kept for the whole game: out of the collector's sight, a full collection no
        # longer stalls the table for a tenth of a second late in a game.  Garbage is
        # collected first, so that only what is alive is frozen; stop() thaws it.
        gc.collect()
        gc.freeze()
        self.game = game
        sides = set(game.sides)
        self.program: frozenset[str] = frozenset(s for s in program if s in sides)
        """The sides the program plays; people at this screen play the others."""
        given = dict(policies or {})
        self.policies: dict[str, Policy] = {
            s: given.get(s) or default_policy(game, s) for s in self.program
        }
        self.delay_ms = delay_ms
        self._autoplay = autoplay
        self._stuck: str | None = None
        """Why the program could not decide the current decision (a person must, then)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        self.saved_steps = len(game.history)
        """How many steps the game had when it was last saved (or opened)."""
        self.pacer: Callable[[], bool] | None = None
        """Whether the table is still showing the last step (the animator sets it); the
        program's next step waits until it is not, then :meth:`resume` goes on."""
        self._pool: ThreadPoolExecutor | None = None
        self._thought: Future[tuple[Action, str]] | None = None
        self._thought_for: tuple[int, str, int] | None = None
        self._generation = 0
        """Bumped whenever the game is taken elsewhere (a person's step, undo, stop), so
        an answer the worker computed for an older position is dropped."""
        self._told: Callable[[], None] | None = None
        """A program step played whose views hear of it at the next turn of the loop."""
        self._tell = QTimer(self)
        self._tell.setSingleShot(True)
        self._tell.setInterval(0)
        self._tell.timeout.connect(self._tell_now)
        self._poll = QTimer(self)
        self._poll.setInterval(THINK_POLL_MS)
        self._poll.timeout.connect(self._collect)
        self._reasons: tuple[object, tuple[str | None, ...]] | None = None
        """The last :meth:`undo_reasons`, by the history's length, last step and dice."""
        self._shadow: Game | None = _shadow_of(game) if self.program else None
        """The worker thread's copy of the game, kept in step with it by its history
        (made here, at the start, so no fork blocks the window while the program plays)."""

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
        """Whether a program step is on its way (timer set, the worker thinking, or a
        step played whose views are told next)."""
        return self._timer.isActive() or self._thought is not None or self._told is not None

    def thinking(self) -> bool:
        """Whether a worker thread is choosing the program's next action."""
        return self._thought is not None

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
        self._tell_now()
        reason = self.legal(action)
        if reason is not None:
            return reason
        try:  # a move "to" a spot as it is played: along its route (the table draws that)
            action = self.game.concrete(Action.parse(action) if isinstance(action, str) else action)
        except CrdeskError as exc:
            return str(exc)
        self._drop_thought()
        before = self._positions()
        pefs = self.pef_spots()
        try:
            events = self.game.play(action)
        except CrdeskError as exc:
            return str(exc)
        self._stuck = None
        self._after(events, before, action, by_program=False, pefs=pefs)
        return None

    def undo(self) -> str | None:
        """Take back the last step a person made, and the program's steps after it.

        The program's steps come back on their own (its choices and the seeded
        dice are the same), so undoing only them would change nothing.  The
        whole take-back is tried on a fork first, so a refusal (dice were seen)
        leaves the game as it was; the refusal is the controller's own words.
        """
        self._tell_now()
        decision = self.game.awaiting()
        if decision is not None and decision.actor == CHANCE:
            # dice are awaited for an action: taking it back drops the action and its dice
            if not self.game.history:
                return "the opening activation roll cannot be taken back"
            self._timer.stop()
            self._drop_thought()
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
        return self.undo_steps(count)

    def undo_reason(self, count: int) -> str | None:
        """None if the last ``count`` steps of the history can be taken back, else why not.

        Dice a person is entering for an action (not yet a step) go with it, free.
        """
        if self._awaits_dice():
            twin = self.game.fork()
            twin.undo()  # only drops the awaited action
            return twin.can_undo(count)
        return self.game.can_undo(count)

    def undo_reasons(self) -> list[str | None]:
        """For each step of the history, oldest first: None if the game may go back to
        before it (it and every later step taken back), else the controller's reason."""
        history = self.game.history
        key = (len(history), history[-1] if history else None, self._awaits_dice())
        if self._reasons is not None and self._reasons[0] == key:
            return list(self._reasons[1])
        judge = self.game
        if self._awaits_dice():
            judge = self.game.fork()  # once per awaited action, not per face typed
            judge.undo()  # the awaited action goes with any take-back
        total = len(judge.history)
        reasons = [judge.can_undo(total - n + 1) for n in range(1, total + 1)]
        self._reasons = (key, tuple(reasons))
        return reasons

    def undo_steps(self, count: int) -> str | None:
        """Take back the last ``count`` steps (the history dock's "Undo to here");
        None when done, else the controller's refusal (nothing changed then)."""
        self._tell_now()
        if count < 1:
            return "nothing to undo: pick a step of the history"
        reason = self.undo_reason(count)
        if reason is not None:
            return reason
        self._timer.stop()
        self._drop_thought()
        if self._awaits_dice():
            self.game.undo()
        self.game.undo_steps(count)
        self._stuck = None
        self.rewound.emit()
        self.changed.emit()
        self._schedule()
        return None

    def _awaits_dice(self) -> bool:
        """Whether an action waits for a person's dice (it is not a step yet)."""
        return self.game.pending_step() is not None

    # -- the program's steps -------------------------------------------------------

    def run_program_step(self) -> bool:
        """Play one step for the program now, deciding on the GUI thread (tests, skip
        ahead); False when it is not the program's turn."""
        self._tell_now()
        if not self.is_program_turn():
            return False
        self._drop_thought()
        decision = self.game.awaiting()
        assert decision is not None
        try:
            action, why = self.policies[decision.actor].decide(self.game, decision)
        except CrdeskError as exc:
            self._cannot_decide(decision, exc)
            return False
        return self._play_program(decision, action, why)

    def run_pending(self, limit: int = 10_000) -> int:
        """Play every program step due now, at once (tests, or a "skip ahead" button)."""
        self._timer.stop()
        played = 0
        while played < limit and self.run_program_step():
            played += 1
        self._timer.stop()
        return played

    def resume(self) -> None:
        """The table has finished showing the last step: the program may go on."""
        if not self._timer.isActive() and self._thought is None:
            self._schedule()

    def stop(self) -> None:
        """The game is put away: no more program steps."""
        self._autoplay = False
        self._timer.stop()
        self._tell.stop()
        self._told = None  # the views are going away with the game
        self._drop_thought()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        gc.unfreeze()  # what the game held may go now (collected as usual)

    def _positions(self) -> dict[str, tuple[float, float]]:
        return {f.id: (f.x, f.y) for f in self.game.battlefield.figures()}

    def pef_spots(self) -> dict[str, tuple[float, float]]:
        """Where each PEF not yet resolved stands, by id (none outside a solo game)."""
        if not self.game.settings.solo:
            return {}
        return {
            str(p["id"]): (float(p["x"]), float(p["y"]))
            for p in self.game.summary().get("pefs", [])
            if not p.get("resolved")
        }

    def _after(
        self,
        events: list[Event],
        before: Mapping[str, tuple[float, float]] | None = None,
        action: Action | str | None = None,
        *,
        by_program: bool,
        pefs: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.stepped.emit(events)
        self.changed.emit()
        step = self.game.history[-1] if self.game.history else None
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except CrdeskError:
                action = None
        self.played.emit(
            PlayedStep(
                events=tuple(events),
                before=dict(before or {}),
                action=action,
                actor=step.actor if step is not None else "",
                by_program=by_program,
                by_hand=not by_program and isinstance(action, Move),
                pefs=dict(pefs or {}),
            )
        )
        self._schedule()

    def _schedule(self) -> None:
        if self._told is not None:
            return  # the step just played is told first; that schedules the next
        if self._autoplay and self.is_program_turn() and self._thought is None:
            if self.pacer is not None and self.pacer():
                return  # the animator calls resume() when the table is up to date
            self._timer.start(self.delay_ms)

    def _tick(self) -> None:
        """Hand the program's decision to the worker thread, which decides on its shadow."""
        if not self._autoplay or not self.is_program_turn() or self._thought is not None:
            return
        if self.pacer is not None and self.pacer():
            return
        decision = self.game.awaiting()
        assert decision is not None
        if self._shadow is None:
            self._shadow = _shadow_of(self.game)  # once, or after the shadow lost its way
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crdesk-program")
        key = self._decision_key(decision)
        self._thought_for = (len(self.game.history), key, self._generation)
        self._thought = self._pool.submit(
            _think, self._shadow, self.policies[decision.actor], self.game.history, key
        )
        self._poll.start()

    def _collect(self) -> None:
        """The worker's answer, played on the GUI thread if the game is still where it was."""
        thought = self._thought
        if thought is None:
            self._poll.stop()
            return
        if not thought.done():
            return
        self._poll.stop()
        wanted = self._thought_for
        self._thought = None
        self._thought_for = None
        decision = self.game.awaiting()
        if (
            decision is None
            or wanted != (len(self.game.history), self._decision_key(decision), self._generation)
            or not self._autoplay
        ):
            self._schedule()
            return
        try:
            action, why = thought.result()
        except _OutOfStep:
            self._shadow = None  # forked afresh at the next tick
            self._schedule()
            return
        except CrdeskError as exc:
            self._cannot_decide(decision, exc)
            return
        self._play_program(decision, action, why, split=True)

    def _play_program(
        self, decision: Decision, action: Action, why: str, *, split: bool = False
    ) -> bool:
        """Play the program's action on the live game; with ``split`` the views hear of
        it in the next turn of the event loop, so the controller's work and the views'
        redraw are two short blocks of the GUI thread instead of one long one."""
        before = self._positions()
        pefs = self.pef_spots()
        try:
            events = self.game.play(action, why=why)
        except CrdeskError as exc:
            self._cannot_decide(decision, exc)
            return False
        if not split:
            self._after(events, before, action, by_program=True, pefs=pefs)
            return True
        self._told = lambda: self._after(events, before, action, by_program=True, pefs=pefs)
        self._tell.start()
        return True

    def _tell_now(self) -> None:
        """Tell the views of a program step played but not told yet (before anything
        else touches the game, so they hear of every step in order)."""
        told, self._told = self._told, None
        self._tell.stop()
        if told is not None:
            told()

    def _cannot_decide(self, decision: Decision, exc: Exception) -> None:
        self._stuck = self._decision_key(decision)
        self.message.emit(
            f"The program cannot decide for {self.side_name(decision.actor)} ({exc}); "
            "please decide for it."
        )
        self.changed.emit()

    def _drop_thought(self) -> None:
        self._generation += 1
        if self._thought is not None:
            self._thought.cancel()
        self._thought = None
        self._thought_for = None
        self._poll.stop()

    @staticmethod
    def _decision_key(decision: Decision) -> str:
        return f"{decision.step}:{decision.actor}:{decision.kind}"


class _OutOfStep(Exception):
    """The worker's shadow game could not be brought to the live game's position."""


def _shadow_of(game: Game) -> Game:
    """The worker's own copy of the game, which may go back any number of steps (it
    follows the live game's undo, dice seen or not)."""
    shadow = game.fork()
    shadow.settings = replace(shadow.settings, practice_undo=True)
    return shadow


def _think(shadow: Game, policy: Policy, steps: tuple[Step, ...], key: str) -> tuple[Action, str]:
    """In the worker thread: bring the shadow to the live game's steps, then decide.

    Only immutable records cross between the threads (the steps, the key of the
    awaited decision, the answer); the shadow is touched by this one thread only.
    """
    have = shadow.history
    common = 0
    for mine, theirs in zip(have, steps, strict=False):
        if mine != theirs:
            break
        common += 1
    try:
        if len(have) > common:
            shadow.undo_steps(len(have) - common)
        manual = shadow.dice_mode == MANUAL
        for step in steps[common:]:
            shadow.play(step.action, faces=list(step.faces) if manual else (), why=step.why)
    except CrdeskError as exc:
        raise _OutOfStep(str(exc)) from None
    decision = shadow.awaiting()
    if decision is None or PlaySession._decision_key(decision) != key:
        raise _OutOfStep(f"the shadow awaits {decision}, the game {key}")
    return policy.decide(shadow, decision)


def default_policy(game: Game, side: str) -> Policy:
    """Who decides for a side the program plays: in a solo game the non-player force
    moves by table 11.4 (:class:`~crdesk.ai.enemy.SoloEnemyPolicy`); a campaign's Band,
    when the program plays it, plays for the encounter's objective
    (:class:`~crdesk.ai.tactical.TacticalPolicy`, as in ``crdesk simulate``); else the book."""
    player_force = game.battlefield.player_force()
    if game.settings.band is not None and player_force is not None and side == player_force.id:
        from crdesk.ai.tactical import TacticalPolicy

        return TacticalPolicy()
    if game.settings.solo:
        try:
            player = game.battlefield.force(side).player
        except ValueError:
            player = True
        if not player:
            from crdesk.ai.enemy import SoloEnemyPolicy

            return SoloEnemyPolicy()
    return BookPolicy()
