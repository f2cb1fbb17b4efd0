"""Where a replay stands: any step of a saved game, reached off the GUI thread.

The replay viewer (:mod:`ui.play.viewer`) shows a game as it stood after one of its
steps.  :class:`ReplayCursor` gets it there: a :class:`Position` is the game after
the step (:meth:`~crdesk.game.Game.at_step`, from the nearest checkpoint) and, when
a program-played figure moved at that step, why it went there
(:func:`crdesk.ai.explain.explain_step`, asked on the game just before the step).

The work is done by one worker thread, so the window never waits for it: stepping
forwards plays the next recorded step on a copy of the position shown, a jump
starts from the nearest checkpoint.  Wishes that come while the worker is busy (keys
held down, the scrubber dragged) are folded into one: only the latest is gone to.
The game the cursor was given is the worker's alone from then on; a position's game
is the GUI thread's once it is shown (the worker is handed a copy of it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from crdesk.ai.explain import Explanation, explain_step
from crdesk.errors import CrdeskError
from crdesk.game import MANUAL, Event, Game, Step

POLL_MS = 5
"""How often the GUI thread looks whether the worker has the position ready."""


@dataclass(frozen=True, slots=True)
class Position:
    """The game as it stood after step ``step``, and why the program moved there."""

    step: int
    game: Game
    why: Explanation | None = None
    """The program's choice made visible (None: no program-played figure moved)."""
    why_failed: str = ""
    """Why the ranking could not be asked again ("" when it could)."""


def turns_after(steps: int, events: Sequence[Event], final_turn: int) -> list[int]:
    """The turn under way after each step (index ``n`` for step ``n``; index 0 unused),
    counted back from the game's turn now: a step that ended ``k`` turns ("turn_end"
    events; a turn nobody could act in passes inside the step before) is ``k`` turns
    after the step before it."""
    ends = Counter(e.step for e in events if e.kind == "turn_end")
    out = [0] * (steps + 1)
    turn = final_turn
    for n in range(steps, 0, -1):
        out[n] = turn
        turn -= ends.get(n, 0)
    return out


def position_at(source: Game, steps: Sequence[Step], n: int, base: Game | None) -> Position:
    """The position after step ``n`` (in the worker thread).  ``base``: the game just
    before the step, when the caller has one to spare (it is played on); otherwise the
    game before it is positioned from ``source``'s checkpoints."""
    if n - 1 < source.earliest_step:  # nothing before it to ask the players at
        return Position(n, source.at_step(n))
    before = base if base is not None else source.at_step(n - 1)
    step = steps[n - 1]
    why: Explanation | None = None
    failed = ""
    try:
        why = explain_step(before, step)
    except Exception as exc:  # the viewer says so and shows the step all the same
        failed = f"{type(exc).__name__}: {exc}"
        return Position(n, source.at_step(n), None, failed)
    try:
        faces = list(step.faces) if before.dice_mode == MANUAL else []
        before.play(step.action, faces=faces, why=step.why)
    except CrdeskError:
        return Position(n, source.at_step(n), why, failed)
    if len(before.history) != n or before.history[-1] != step:
        return Position(n, source.at_step(n), why, failed)
    return Position(n, before, why, failed)


class ReplayCursor(QObject):
    """The step a replay shows, moved by :meth:`go` and its friends; ``moved`` says
    when the table may show another :class:`Position`."""

    moved = Signal(object)
    """The :class:`Position` now shown."""
    busy_changed = Signal(bool)
    """The worker started (True) or finished (False) positioning."""
    failed = Signal(str)
    """A position could not be reached (the sentence says why)."""

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = game
        """The game watched; the worker's alone once the first position is asked for."""
        self.steps: tuple[Step, ...] = game.history
        self.events: tuple[Event, ...] = game.events
        self.first = game.earliest_step
        """The first step that can be shown (the opening roll, or a snapshot's step)."""
        self.last = len(self.steps)
        self.turns = turns_after(self.last, self.events, game.turn)
        """The turn under way after each step."""
        starts: dict[int, int] = {}
        for n in range(self.first, self.last + 1):
            starts.setdefault(self.turns[n], n)
        self.turn_starts: tuple[int, ...] = tuple(sorted(starts.values()))
        """The steps after which a turn has just begun (the first shown step first)."""
        self.position: Position | None = None
        self._wanted: int | None = None
        self._job: Future[Position] | None = None
        self._spare: Position | None = None
        """A position reached but not shown (a newer wish came): the next one's base."""
        self._pool: ThreadPoolExecutor | None = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="crdesk-replay"
        )
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        # deleted with its window without close() (the main window went): let go of the
        # worker all the same
        pool = self._pool
        self.destroyed.connect(lambda _obj=None: pool.shutdown(wait=False, cancel_futures=True))

    # -- where it stands and where it goes ----------------------------------------

    @property
    def shown(self) -> int | None:
        """The step whose position is shown (None before the first arrives)."""
        return self.position.step if self.position is not None else None

    @property
    def target(self) -> int:
        """Where the cursor is going: the latest wish, else the step shown."""
        if self._wanted is not None:
            return self._wanted
        return self.shown if self.shown is not None else self.last

    def settled(self) -> bool:
        """Whether the position shown is the one wished for (no work under way)."""
        return self._job is None and self._wanted is None

    def busy(self) -> bool:
        return self._job is not None

    def go(self, n: int) -> None:
        """Show the position after step ``n`` (clamped to the steps that can be shown)."""
        n = min(max(n, self.first), self.last)
        if n == self.shown and self._job is None:
            self._wanted = None
            return
        self._wanted = n
        if self._job is None:
            self._start()

    def step_by(self, count: int) -> None:
        self.go(self.target + count)

    def previous_turn(self) -> None:
        """To the start of the turn under way, or of the one before when already there."""
        here = self.target
        self.go(max((s for s in self.turn_starts if s < here), default=self.first))

    def next_turn(self) -> None:
        """To the start of the next turn (the last step when none is left)."""
        here = self.target
        self.go(min((s for s in self.turn_starts if s > here), default=self.last))

    def turn_of(self, n: int) -> int:
        return self.turns[n]

    def close(self) -> None:
        """No more positions: the worker is let go (what it is doing is dropped)."""
        self._poll.stop()
        self._wanted = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._job = None

    # -- the worker -------------------------------------------------------------

    def _start(self) -> None:
        n = self._wanted
        if n is None or self._pool is None:
            return
        base: Game | None = None
        spare, self._spare = self._spare, None
        if spare is not None and spare.step == n - 1:
            base = spare.game  # shown to no one: played on as it is
        elif self.position is not None and self.position.step == n - 1:
            base = self.position.game.fork()  # the shown game stays the GUI thread's
        self._job = self._pool.submit(position_at, self._source, self.steps, n, base)
        self._poll.start()
        self.busy_changed.emit(True)

    def _collect(self) -> None:
        job = self._job
        if job is None:
            self._poll.stop()
            return
        if not job.done():
            return
        self._poll.stop()
        self._job = None
        try:
            reached = job.result()
        except Exception as exc:  # a step that no longer replays
            self._wanted = None
            self.busy_changed.emit(False)
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        if self._wanted is not None and self._wanted != reached.step:
            self._spare = reached
            self._start()  # a newer wish: on from there
            return
        self._wanted = None
        self.position = reached
        self.busy_changed.emit(False)
        self.moved.emit(reached)
