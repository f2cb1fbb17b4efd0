"""The replay viewer: any saved game watched step by step, and the program's "why".

A window of its own beside the main window (Game ▸ Watch Game…, or Watch This Game
for the game on the table).  It shows the table as it stood after the step chosen:

* **Controls** -- ◀◀ ◀ ▶ ▶▶ go to the previous turn's start, one step back, one step
  on and the next turn's start (Left/Right; Shift+Left/Right or PgUp/PgDn; Home/End
  for the first and last step), and the scrubber runs over every step.  The bar says
  where the game stands: "Turn 4 · step 37 of 212" and what the step did.
* **The event log** follows: the events up to the step are listed, the step's own
  selected and scrolled to, the program's reason under its first event.
* **The why** (issue 32, Deliver 5): at a step where a program-played figure moved,
  its chosen spot and the next best candidates its player ranked are drawn on the
  table (:mod:`ui.play.why_marks`) and listed with their terms in the Why panel
  (:mod:`crdesk.ai.explain`, asked again at viewing time).  A person's move has none.
* **Play from here** forks the game at the step (:meth:`~crdesk.game.Game.fork`)
  and plays it on in the main window, seated as the saved game was (or hot seat); the
  file watched is never written.

Positions are reached off the GUI thread (:class:`~ui.play.replay.ReplayCursor`); the
window only shows them.  The status markers, PEF tokens and objectives are the play
mode's own (:mod:`ui.play.markers`, :mod:`ui.play.objective_marks`), reading the game
at the position shown.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import replace
from html import escape

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QProgressBar,
    QSlider,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.ai.explain import Explanation, player_of
from crdesk.errors import CrdeskError
from crdesk.game import Action, Event, Game
from crdesk.game.actions import Move
from ui.play.history_dock import step_words
from ui.play.log_dock import EVENT_ROLE, WHY_ROLE, EventDelegate
from ui.play.markers import StatusMarkers
from ui.play.objective_marks import ObjectiveMarks
from ui.play.replay import Position, ReplayCursor
from ui.play.report import side_name
from ui.play.why_marks import CHOSEN, OTHER, REFUSED, WhyMarks, colour_of
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView

SIZE = (1400, 900)
BUSY_AFTER_MS = 150
"""Positioning that takes longer than this shows the busy bar (quicker ones do not
flicker it)."""
STOPPED_SHORT = 0.05
"""Inches between where a figure went and where it was going that the Why panel tells."""
CONTROL_FONT = 15
"""Point size of the ◀◀ ◀ ▶ ▶▶ buttons' arrows."""


class ShownGame(QObject):
    """The game at the position shown, as the play mode's overlays read it (the part of
    a :class:`~ui.play.session.PlaySession` they use: ``game`` and ``changed``)."""

    changed = Signal()

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game = game


class ReplayWindow(QMainWindow):
    """A saved game watched step by step (see the module)."""

    play_requested = Signal(object)
    """A new :class:`~crdesk.game.Game` forked at the step shown, to be played on."""

    def __init__(
        self,
        game: Game,
        title: str,
        parent: QWidget | None = None,
        *,
        start_at: int | None = None,
    ) -> None:
        """``game``: the game to watch, the viewer's own from now on (give it a fork of a
        game in play); ``start_at``: the step shown first (default: the last)."""
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ReplayWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.title = title
        self.setWindowTitle(f"Watch: {title} — crdesk")
        self.table = game.battlefield.copy()
        """What the scene shows: set to each position's figures in one change."""
        self.shown = ShownGame(game.fork(), self)
        self.cursor = ReplayCursor(game, self)
        self.scene = BattlefieldScene(self.table, parent=self)
        self.view = BattlefieldView(self.scene, self)
        self.setCentralWidget(self.view)
        self.markers = StatusMarkers(self.scene, self.shown)  # type: ignore[arg-type]
        self.objective_marks = ObjectiveMarks(self.scene, self.shown)  # type: ignore[arg-type]
        self.why_marks = WhyMarks(self.scene)
        self._build_actions()
        self._build_controls()
        self._build_log()
        self._build_why()
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(140)
        self.busy_bar.setTextVisible(False)
        self.busy_bar.hide()
        self.statusBar().addPermanentWidget(self.busy_bar)
        self._busy_later = QTimer(self)
        self._busy_later.setSingleShot(True)
        self._busy_later.setInterval(BUSY_AFTER_MS)
        self._busy_later.timeout.connect(lambda: self.busy_bar.setVisible(self.cursor.busy()))
        self.cursor.moved.connect(self._show)
        self.cursor.busy_changed.connect(self._busy)
        self.cursor.failed.connect(self._failed)
        self.resize(*SIZE)
        self._sync_controls()
        self.cursor.go(self.cursor.last if start_at is None else start_at)

    # -- building ------------------------------------------------------------------

    def _action(self, text: str, tip: str, keys: list[str], slot: object) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        shown = ", ".join(keys)
        action.setToolTip(f"{tip} ({shown})")
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        c = self.cursor
        self.action_first = self._action("|◀", "The first step", ["Home"], lambda: c.go(c.first))
        self.action_previous_turn = self._action(
            "◀◀", "Back to the start of the turn", ["Shift+Left", "PgUp"], c.previous_turn
        )
        self.action_previous = self._action("◀", "One step back", ["Left"], lambda: c.step_by(-1))
        self.action_next = self._action("▶", "One step on", ["Right"], lambda: c.step_by(1))
        self.action_next_turn = self._action(
            "▶▶", "On to the start of the next turn", ["Shift+Right", "PgDown"], c.next_turn
        )
        self.action_last = self._action("▶|", "The last step", ["End"], lambda: c.go(c.last))
        self.action_play = QAction("Play from Here", self)
        self.action_play.setToolTip(
            "Play on from this step in the main window: a new game, seated as this one was "
            "(the file watched is not changed)"
        )
        self.action_play.triggered.connect(lambda _checked=False: self.play_from_here())
        self.action_play_hot_seat = QAction("Play from Here, Hot Seat", self)
        self.action_play_hot_seat.setToolTip(
            "Play on from this step with people at this screen playing every side"
        )
        self.action_play_hot_seat.triggered.connect(
            lambda _checked=False: self.play_from_here(hot_seat=True)
        )

    def _build_controls(self) -> None:
        bar = QToolBar("Replay", self)
        bar.setObjectName("replayControls")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.buttons: dict[str, QToolButton] = {}
        for name, action in (
            ("first", self.action_first),
            ("previous_turn", self.action_previous_turn),
            ("previous", self.action_previous),
            ("next", self.action_next),
            ("next_turn", self.action_next_turn),
            ("last", self.action_last),
        ):
            button = QToolButton()
            button.setDefaultAction(action)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            font = button.font()
            font.setPointSize(CONTROL_FONT)
            button.setFont(font)
            button.setMinimumWidth(44)
            bar.addWidget(button)
            self.buttons[name] = button
        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setObjectName("replayScrubber")
        self.scrubber.setRange(self.cursor.first, max(self.cursor.first, self.cursor.last))
        self.scrubber.setPageStep(10)
        self.scrubber.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the window's keys step
        self.scrubber.setMinimumWidth(260)
        self.scrubber.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.scrubber.setTickInterval(max(1, (self.cursor.last - self.cursor.first) // 20))
        self.scrubber.setToolTip("Every step of the game: drag to go anywhere")
        self.scrubber.valueChanged.connect(self.cursor.go)
        bar.addWidget(self.scrubber)
        bar.addSeparator()
        self.where = QLabel()
        self.where.setObjectName("replayWhere")
        self.where.setMinimumWidth(220)
        font = self.where.font()
        font.setBold(True)
        font.setPointSize(font.pointSize() + 1)
        self.where.setFont(font)
        bar.addWidget(self.where)
        bar.addSeparator()
        self.play_button = QToolButton()
        self.play_button.setDefaultAction(self.action_play)
        self.play_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(self.play_button)
        menu.addAction(self.action_play)
        menu.addAction(self.action_play_hot_seat)
        self.play_button.setMenu(menu)
        self.play_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        bar.addWidget(self.play_button)
        # what the step did, under the controls
        self.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)
        words = QToolBar("Step", self)
        words.setObjectName("replayStep")
        words.setMovable(False)
        self.step_label = QLabel()
        self.step_label.setObjectName("replayStepWords")
        self.step_label.setContentsMargins(8, 2, 8, 2)
        self.step_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        words.addWidget(self.step_label)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, words)

    def _build_log(self) -> None:
        dock = QDockWidget("Event log", self)
        dock.setObjectName("ReplayLogDock")
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.log = QListWidget()
        self.log.setObjectName("replayLog")
        self.log.setItemDelegate(EventDelegate(self.log))
        self.log.setResizeMode(QListView.ResizeMode.Adjust)
        self.log.setWordWrap(True)
        self.log.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.log.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.log.setToolTip("The events up to the step shown; the step's own are selected")
        self.log.itemDoubleClicked.connect(self._log_jump)
        dock.setWidget(self.log)
        dock.setMinimumWidth(360)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.log_dock = dock
        self._log_rows: list[int] = []
        """The step of each row (events in order: the steps only grow)."""
        delegate = self.log.itemDelegate()
        assert isinstance(delegate, EventDelegate)
        width = 340
        font = self.log.font()
        previous = None
        for event in self.cursor.events:
            item = QListWidgetItem()
            item.setData(EVENT_ROLE, event)
            why = ""
            if event.step != previous and 0 < event.step <= len(self.cursor.steps):
                why = self.cursor.steps[event.step - 1].why or ""
            previous = event.step
            item.setData(WHY_ROLE, why)
            item.setToolTip(event.text + (f"\n\nWhy: {why}" if why else ""))
            item.setSizeHint(delegate.row_size(font, width, event, why))
            self.log.addItem(item)
            self._log_rows.append(event.step)
        self._log_shown = len(self._log_rows)
        """Rows not hidden: the events of the steps up to the one shown."""

    def _build_why(self) -> None:
        dock = QDockWidget("Why this move", self)
        dock.setObjectName("ReplayWhyDock")
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        self.why_text = QTextBrowser()
        self.why_text.setObjectName("replayWhy")
        self.why_text.setOpenLinks(False)
        layout.addWidget(self.why_text)
        dock.setWidget(body)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.why_dock = dock
        self.resizeDocks([self.log_dock, dock], [430, 330], Qt.Orientation.Vertical)

    # -- showing a position -----------------------------------------------------------

    @property
    def position(self) -> Position | None:
        return self.cursor.position

    def _show(self, position: Position) -> None:
        game = position.game
        self.table.restore(game.battlefield.snapshot())
        self.shown.game = game
        self.shown.changed.emit()
        self._sync_controls()
        self._follow_log(position.step)
        why = position.why if position.why is not None and position.why.agrees else None
        radius = 0.5
        if position.why is not None:
            with contextlib.suppress(KeyError, ValueError):
                radius = game.fig(position.why.figure).radius
        self.why_marks.show(why, radius)
        self.why_text.setHtml(self._why_html(position))

    def _sync_controls(self) -> None:
        c = self.cursor
        n = c.target
        self.scrubber.blockSignals(True)
        self.scrubber.setValue(n)
        self.scrubber.blockSignals(False)
        self.action_first.setEnabled(n > c.first)
        self.action_previous.setEnabled(n > c.first)
        self.action_previous_turn.setEnabled(n > c.first)
        self.action_next.setEnabled(n < c.last)
        self.action_next_turn.setEnabled(n < c.last)
        self.action_last.setEnabled(n < c.last)
        self.where.setText(f"Turn {c.turn_of(n)} · step {n} of {c.last}" if c.last else "")
        position = c.position
        if position is None or position.step != n:
            self.step_label.setText(f"Step {n}: …")
            self.action_play.setEnabled(False)
            self.action_play_hot_seat.setEnabled(False)
            return
        step = c.steps[n - 1]
        events = [e for e in self._events_of(n)]
        who = side_name(position.game, step.actor)
        self.step_label.setText(f"Step {n} · {who} · {step_words(step, events)}")
        over = position.game.awaiting() is None
        self.action_play.setEnabled(not over)
        self.action_play_hot_seat.setEnabled(not over)
        tip = "the game is over at this step" if over else ""
        self.play_button.setToolTip(tip or self.action_play.toolTip())

    def _events_of(self, n: int) -> list[Event]:
        rows = self._log_rows
        out = []
        for row in range(len(rows)):
            if rows[row] == n:
                event = self.log.item(row).data(EVENT_ROLE)
                if isinstance(event, Event):
                    out.append(event)
            elif rows[row] > n:
                break
        return out

    def _follow_log(self, n: int) -> None:
        """List the events up to step ``n``, select the step's own and bring them into
        view (only the rows between the old and the new step are shown or hidden)."""
        rows = self._log_rows
        shown = sum(1 for s in rows if s <= n)
        old = self._log_shown
        for row in range(min(old, shown), max(old, shown)):
            self.log.setRowHidden(row, row >= shown)
        if old != shown:
            self.log.doItemsLayout()  # now, so that scrolling goes by the rows now listed
        self._log_shown = shown
        own = [row for row in range(shown) if rows[row] == n]
        self.log.clearSelection()
        for row in own:
            self.log.item(row).setSelected(True)
        hint = QAbstractItemView.ScrollHint
        if own:  # the step's last event in view, and its first when they do not all fit
            self.log.scrollToItem(self.log.item(own[-1]), hint.EnsureVisible)
            self.log.scrollToItem(self.log.item(own[0]), hint.EnsureVisible)
        elif shown:
            self.log.scrollToItem(self.log.item(shown - 1))

    def selected_events(self) -> list[Event]:
        """The events selected in the log (the step's own after each move)."""
        out = []
        for item in self.log.selectedItems():
            event = item.data(EVENT_ROLE)
            if isinstance(event, Event):
                out.append(event)
        return sorted(out, key=lambda e: self.cursor.events.index(e))

    def listed_events(self) -> list[Event]:
        """The events the log shows (those of the steps up to the one shown)."""
        out = []
        for row in range(self.log.count()):
            if not self.log.isRowHidden(row):
                event = self.log.item(row).data(EVENT_ROLE)
                if isinstance(event, Event):
                    out.append(event)
        return out

    def _log_jump(self, item: QListWidgetItem) -> None:
        event = item.data(EVENT_ROLE)
        if isinstance(event, Event):
            self.cursor.go(event.step)

    def _why_html(self, position: Position) -> str:
        step = self.cursor.steps[position.step - 1]
        why = position.why
        if position.why_failed:
            return _para(f"The program's ranking could not be asked again: {position.why_failed}")
        if why is None:
            return _para(_no_why(position, step.action, step.why))
        html = explanation_html(why, self._faint())
        try:
            fig = position.game.fig(why.figure)
        except (KeyError, ValueError):
            return html
        gap = math.hypot(fig.x - why.destination[0], fig.y - why.destination[1])
        if gap > STOPPED_SHORT:
            html += _para(
                f"{why.name} did not get there: the move stopped at ({fig.x:.1f}, {fig.y:.1f}) "
                "(see the step's events: In Sight, 7.6, stops a move)."
            )
        return html

    def _faint(self) -> str:
        """The Why panel's text colour, a third of the way to its background (light or
        dark theme)."""
        palette = self.why_text.palette()
        text = palette.color(QPalette.ColorRole.Text)
        base = palette.color(QPalette.ColorRole.Base)

        def mix(a: int, b: int) -> int:
            return round(0.7 * a + 0.3 * b)

        mixed = QColor(
            mix(text.red(), base.red()),
            mix(text.green(), base.green()),
            mix(text.blue(), base.blue()),
        )
        return mixed.name()

    def _busy(self, busy: bool) -> None:
        if busy:
            self._busy_later.start()  # shown only when positioning takes a while
        else:
            self._busy_later.stop()
            self.busy_bar.hide()
        self._sync_controls()
        if busy:
            self.statusBar().showMessage(f"Going to step {self.cursor.target}…")
        else:
            self.statusBar().clearMessage()

    def _failed(self, text: str) -> None:
        self.statusBar().showMessage(f"Cannot show that step: {text}", 8000)
        self._sync_controls()

    # -- play from here ------------------------------------------------------------------

    def play_from_here(self, *, hot_seat: bool = False) -> Game | None:
        """Fork the game at the step shown and hand it on (``play_requested``) to be
        played; the game watched and its file stay as they are.  None while the viewer
        is still on its way to a step, or when the game is over there."""
        position = self.cursor.position
        if position is None or not self.cursor.settled() or position.game.awaiting() is None:
            return None
        game = position.game.fork()
        if hot_seat:
            game.settings = replace(game.settings, hot_seat=True, program_sides=())
        self.play_requested.emit(game)
        return game

    def closeEvent(self, event: QCloseEvent) -> None:
        self.cursor.close()
        self.why_marks.clear()
        self.markers.detach()
        self.objective_marks.detach()
        self.scene.detach()
        super().closeEvent(event)


def _para(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def _no_why(position: Position, action: str, reason: str) -> str:
    """Why the Why panel has nothing to draw at this step."""
    try:
        act = Action.parse(action)
    except CrdeskError:
        act = None
    if not isinstance(act, Move):
        return (
            "No figure moved at this step. At a step where the program moved one (▶, or "
            "double-click a move in the log) its chosen spot and the next best are drawn."
        )
    game = position.game
    try:
        name = game.fig(act.figure).name
    except (KeyError, ValueError):
        name = act.figure
    if not reason:
        return f"A person moved {name} at this step: no program's choice to show."
    if player_of(game, act.figure) is None:
        return (
            f"{name} was moved by the book's player, straight towards the nearest enemy: "
            "it ranks no spots."
        )
    return f"{name}'s move was not one its player ranks (not from an activation's spot search)."


def explanation_html(why: Explanation, faint: str = "#666666") -> str:
    """The Why panel: who moved by which player and order, then the candidates, best
    first, each with its player's words and its terms (in ``faint``, a colour)."""
    parts = [
        f"<p><b>{escape(why.name)}</b> — {escape(why.player)}<br><i>{escape(why.order)}</i></p>",
        f"<p>{escape(why.summary())} "
        f"(ranked again now; the best {len(why.candidates)} are drawn on the table).</p>",
    ]
    if why.note:
        parts.append(f'<p style="color:#b03020"><b>Not drawn:</b> {escape(why.note)}.</p>')
    rows = []
    for c in why.candidates:
        colour = colour_of(c).name()
        mark = "✓ chosen" if c.chosen else ("refused" if not c.playable else "")
        if c.stays:
            mark = (mark + " stays put").strip()
        terms = "<br>".join(f"{escape(t.name)}: {escape(t.text)}" for t in c.terms)
        rows.append(
            f'<tr><td valign="top" style="background:{colour}; color:black; '
            f'padding:2px 6px"><b>#{c.rank}</b></td>'
            f'<td valign="top" style="padding:2px 6px"><b>({c.spot[0]:.1f}, {c.spot[1]:.1f})'
            f"</b> {escape(mark)}<br>{escape(c.words)}"
            f'<br><span style="color:{faint}">{terms}</span></td></tr>'
        )
    parts.append('<table cellspacing="2" width="100%">' + "".join(rows) + "</table>")
    legend = (
        f'<p style="color:{faint}"><span style="color:{CHOSEN.name()}">●</span> chosen '
        f'<span style="color:{OTHER.name()}">●</span> next best '
        f'<span style="color:{REFUSED.name()}">●</span> refused by the rules</p>'
    )
    parts.append(legend)
    return "".join(parts)
