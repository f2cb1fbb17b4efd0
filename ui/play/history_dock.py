"""The undo history: the game's steps in words, and how far back undo may go.

Each row is one step of :attr:`~crdesk.game.Game.history`, told as a player
would say it ("Turn 2 · Red Vipers · Viper boss moves 6.0\"") from the step's
action and the sentences of its events.  Steps that can no longer be taken
back (dice were seen after them, the opening roll, a saved snapshot) are
greyed, with the controller's reason as their tooltip and under the list when
one is chosen.  A step is listed under the turn it was played in; a turn that
passed inside a step, nobody able to activate, is said in that step's words.
"Undo to here" (or a double-click) takes back the chosen step
and every step after it through :meth:`PlaySession.undo_steps`; Ctrl+Z stays
the one-step undo of the Game menu.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.game import Event, Step
from ui.play._dock import SessionDock
from ui.play.log_dock import on_screen
from ui.play.session import PlaySession

STEP_ROLE = int(Qt.ItemDataRole.UserRole) + 1
"""Item data: the step's number in the history (1 for the first)."""
REASON_ROLE = int(Qt.ItemDataRole.UserRole) + 2
"""Item data: why the game cannot go back to before this step ("" when it can)."""
KINDS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
"""Item data: the kinds of the step's events."""
TIP_ROLE = int(Qt.ItemDataRole.UserRole) + 4
MAX_WORDS = 150
GREYED = QColor(135, 135, 135)
"""Steps undo can no longer reach (italic too, so it reads without colour)."""
QUIET = frozenset({"side_done", "turn_end", "game_over"})
"""Events that are never what a step is about (they close it)."""
ALSO = frozenset({"fire", "melee", "casualty", "duck_back", "blast", "pef_resolved"})
"""Consequences worth naming after the main event ("→ Pvt. Lind is Obviously Dead")."""
_SECTION = re.compile(r"\s*\(\d+(\.\d+)*\)\.?$")
_TURN = re.compile(r"^Turn \d+: ")
_ACTIONS = {
    "start": "the opening activation roll",
    "end": "ends the activation",
    "pass": "passes",
    "roll": "rolls the test",
}


def short(event: Event) -> str:
    """The gist of an event's sentence: who did what, without the dice arithmetic."""
    text = _TURN.sub("", event.text.strip())
    cuts = [" ("] if event.kind in ("reaction", "activation_roll") else [" to (", ": "]
    ends = [text.find(c) for c in cuts if text.find(c) > 0]
    if ends:
        text = text[: min(ends)]
    text = _SECTION.sub("", text).rstrip(".").strip()
    if event.kind == "in_sight":
        return "In Sight test"  # the dice and successes are the log's to tell
    return text


def step_words(step: Step, events: Sequence[Event]) -> str:
    """What a step did, in words: its main event, and what followed from it."""
    told = [e for e in events if e.kind not in QUIET]
    if not told:
        return _ACTIONS.get(step.action, step.action)
    main = told[0]
    parts = [short(main)]
    rest = [short(e) for e in told[1:] if e.kind in ALSO]
    parts += rest[:2]
    words = " → ".join(p for p in parts if p)
    if len(rest) > 2:
        words += f" (+{len(rest) - 2} more)"
    return words if len(words) <= MAX_WORDS else words[: MAX_WORDS - 1] + "…"


def passed(turn: int, events: Sequence[Event]) -> str:
    """The turns that passed inside a step played in ``turn``, with nothing to decide
    (no group could activate): " → turn 9 passes with no activation" (else "")."""
    idle = sum(1 for e in events if e.kind == "turn_end") - 1
    if idle < 1:
        return ""
    if idle == 1:
        return f" → turn {turn + 1} passes with no activation"
    return f" → turns {turn + 1}-{turn + idle} pass with no activation"


def played_in(
    turn_now: int, first: int, last: int, by_step: Mapping[int, Sequence[Event]]
) -> list[int]:
    """The turn each of the steps ``first``..``last`` (the newest) was played in.

    Counted back from the game's turn now: every turn that ended during or after a
    step ("turn_end") is one turn back.  A step can end more than one turn -- a turn in
    which no group may activate passes inside the step that ended the one before -- so
    the turn is never "one more after a step that ended a turn" (which listed the
    steps of turn 9 under "Turn 8" once turn 8 had passed that way)."""
    turns = [0] * (last - first + 1)
    turn = turn_now
    for n in range(last, first - 1, -1):
        turn -= sum(1 for e in by_step.get(n, ()) if e.kind == "turn_end")
        turns[n - first] = turn
    return turns


class HistoryDock(SessionDock):
    """The steps of the game in words, the undo boundary, and "Undo to here".

    Behind the event log's tab it waits and catches up when its tab is chosen or it
    is asked (:meth:`rows`, :meth:`reason`): Qt keeps a dock behind a tab "visible",
    only moved off the window, so :func:`on_screen` says whether it is seen.  When
    seen, a step adds its row and re-greys only the rows whose reason changed, and
    the list follows the newest row once per turn of the event loop.
    """

    undone = Signal(int)
    """How many steps "Undo to here" took back."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Undo history", "HistoryDock", parent)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        self.boundary = QLabel()
        self.boundary.setWordWrap(True)
        self.boundary.setObjectName("historyBoundary")
        layout.addWidget(self.boundary)
        self.list = QListWidget()
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(1)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setToolTip(
            "Every step of the game; double-click one to take it back with every step after it"
        )
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self.undo_to_selected())
        layout.addWidget(self.list, 1)
        self.button = QPushButton("Undo to here")
        self.button.setToolTip(
            "Take back the selected step and every step after it "
            "(the program's own steps come back by themselves)"
        )
        self.button.clicked.connect(self.undo_to_selected)
        layout.addWidget(self.button)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setObjectName("historyNote")
        layout.addWidget(self.note)
        self.setWidget(body)
        self.setMinimumWidth(300)
        self._turns: list[int] = []
        """The turn each listed step was played in."""
        self._known: int | None = None
        """The first step whose events the game holds (see :meth:`_told_from`)."""
        self._events_seen = 0
        self._greyed: list[str | None] = []
        """The reason each row was last greyed with (None: reachable), by row."""
        self._grey_look: tuple[object, ...] | None = None
        """The palette colour and font the rows were greyed in (a change re-greys all)."""
        self._rebuild_due = False
        """The game was taken back while the dock was hidden: list it afresh when shown."""
        self._follow = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(0)
        self._follow.timeout.connect(self.list.scrollToBottom)
        self.visibilityChanged.connect(self._visibility)

    def set_session(self, session: PlaySession | None) -> None:
        if self.session is not None:
            self.session.rewound.disconnect(self._rewound)
        super().set_session(session)
        if session is not None:
            session.rewound.connect(self._rewound)
        self.rebuild()

    def _rewound(self) -> None:
        if on_screen(self):
            self.rebuild()
        else:
            self._rebuild_due = self._stale = True

    def _on_changed(self) -> None:
        if on_screen(self):
            self._stale = False
            self.refresh()
        else:
            self._stale = True

    def _visibility(self, visible: bool) -> None:
        if visible:
            self.flush()

    def flush(self) -> None:
        if self._rebuild_due:
            self._rebuild_due = False
            self._stale = False
            self.rebuild()
        else:
            super().flush()

    # -- queries (tests) -------------------------------------------------------------

    def rows(self) -> list[str]:
        self.flush()
        return [self.list.item(r).text() for r in range(self.list.count())]

    def reason(self, row: int) -> str:
        """Why the game cannot go back to before the row's step ("" when it can)."""
        self.flush()
        return self._reason_of(row)

    def _reason_of(self, row: int) -> str:
        return str(self.list.item(row).data(REASON_ROLE) or "")

    # -- building --------------------------------------------------------------------

    def rebuild(self) -> None:
        self.list.clear()
        self._turns = []
        self._known = None
        self._events_seen = 0
        self._greyed = []
        self.refresh()

    def refresh(self) -> None:
        """Add the steps played since, and grey the ones undo can no longer reach."""
        session = self.session
        if session is None:
            self.list.clear()
            self._turns = []
            self._known = None
            self._events_seen = 0
            self._greyed = []
            self._selection_changed()
            return
        game = session.game
        history = game.history
        if len(history) < self.list.count():
            self.rebuild()
            return
        events = game.events
        by_step: dict[int, list[Event]] = {}
        for event in events[self._events_seen :]:
            by_step.setdefault(event.step, []).append(event)
        self._events_seen = len(events)
        following = self.list.verticalScrollBar().value() >= (
            self.list.verticalScrollBar().maximum() - 4
        )
        added = False
        first = self.list.count() + 1
        turns = played_in(game.turn, first, len(history), by_step)
        known = self._told_from(events, len(history))
        for n in range(first, len(history) + 1):
            step = history[n - 1]
            told = by_step.get(n, [])
            turn = turns[n - first]
            self._turns.append(turn)
            who = session.side_name(step.actor)
            when = f"Turn {turn}" if n >= known else f"Turn ≤{turn}"
            words = step_words(step, told) + passed(turn, told)
            item = QListWidgetItem(f"{when} · {who} · {words}")
            item.setData(STEP_ROLE, n)
            item.setData(KINDS_ROLE, [e.kind for e in told])
            tip = [f"Step {n}: {who} — {step.action}"]
            if step.why:
                tip.append(f"Why: {step.why}")
            tip += [e.text for e in told]
            item.setData(TIP_ROLE, "\n".join(tip))
            self.list.addItem(item)
            added = True
        self._grey(session.undo_reasons())
        if added and following:
            self._follow.start()  # once the rows are laid out, once per turn of the loop
        self._selection_changed()

    def _told_from(self, events: Sequence[Event], steps: int) -> int:
        """The first step whose events the game holds: 1, or for a game opened from its
        saved snapshot the first step played since (of the steps before it the dock
        knows no turn, only that it was no later than the snapshot's)."""
        if self._known is None:
            self._known = events[0].step if events else steps + 1
        return self._known

    def _grey(self, reasons: list[str | None]) -> None:
        """Grey the rows undo cannot reach, with their reasons; only the rows whose
        reason changed are touched (each touch is a relayout of the row)."""
        colour = self.list.palette().color(QPalette.ColorRole.Text)
        look = (colour.rgba(), self.list.font().key())
        if look != self._grey_look:
            self._grey_look = look
            self._greyed = []
        normal = QBrush(colour)
        grey = QBrush(GREYED)
        font = self.list.font()
        past = self.list.font()
        past.setItalic(True)
        greyed = self._greyed
        del greyed[self.list.count() :]
        for row in range(self.list.count()):
            item = self.list.item(row)
            reason = reasons[row] if row < len(reasons) else "not in the game's history"
            if row < len(greyed) and greyed[row] == reason:
                continue
            if row < len(greyed):
                greyed[row] = reason
            else:
                greyed.append(reason)
            item.setData(REASON_ROLE, reason or "")
            item.setForeground(grey if reason else normal)
            item.setFont(past if reason else font)
            tip = str(item.data(TIP_ROLE) or "")
            item.setToolTip(f"{tip}\n\nCannot undo to here: {reason}" if reason else tip)
        reachable = [n for n, reason in enumerate(reasons, start=1) if not reason]
        if not reasons:
            self.boundary.setText("No step played yet.")
        elif reachable:
            self.boundary.setText(
                f"Undo reaches back to step {reachable[0]}; greyed steps are past dice "
                "that were seen (or the opening roll)."
            )
        else:
            self.boundary.setText(f"No step can be taken back now: {reasons[-1]}.")

    # -- undo to here -----------------------------------------------------------------

    def selected_row(self) -> int | None:
        rows = self.list.selectedIndexes()
        return rows[0].row() if rows else None

    def undo_to_selected(self) -> str | None:
        self.flush()
        row = self.selected_row()
        if row is None:
            return "no step chosen"
        return self.undo_to(row)

    def undo_to(self, row: int) -> str | None:
        """Take back the row's step and every later one; None when done, else why not
        (shown under the list and in the status bar, the game unchanged)."""
        session = self.session
        if session is None:
            return "no game is being played"
        count = len(session.game.history) - row
        reason = session.undo_steps(count)
        if reason is not None:
            self.note.setText(f"Cannot undo to here: {reason}")
            session.message.emit(f"Cannot undo: {reason}")
            return reason
        self.note.setText(f"Took back {count} step(s).")
        session.message.emit(f"Took back {count} step(s)")
        self.undone.emit(count)
        return None

    def _selection_changed(self) -> None:
        row = self.selected_row()
        if row is None:
            self.button.setEnabled(False)
            if not self.note.text().startswith("Took back"):
                self.note.setText("Choose a step to take it back with every step after it.")
            return
        reason = self._reason_of(row)
        self.button.setEnabled(not reason)
        self.note.setText(f"Cannot undo to here: {reason}" if reason else "")
