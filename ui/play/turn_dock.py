"""The turn panel: the turn, both sides' activation dice, the active side, its groups, and
the End activation / Pass buttons.

Everything shown is read from the controller: the turn's ``activation_roll``
event (its data names the sides, their scores and the doubles rerolled), the
awaited decision (whose it is, the groups it offers to activate, whether End
or Pass is an option) and :meth:`~crdesk.game.Game.summary` (the active side
and group, the figures that have activated).  The buttons play the options
the controller offers, nothing else; E and P are their shortcuts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import CrdeskError
from crdesk.game import CHANCE, Action, Decision, Event, Game
from crdesk.game.actions import Activate, End, Pass
from ui.docks._common import swatch_icon
from ui.play._dock import SessionDock, session_token, set_bold, set_text
from ui.play.dice_view import DiceRow, Die
from ui.play.group_colours import group_colours, group_pixmap
from ui.play.seating import player_of_group, who

ACTIVE = "active"
MAY = "may"
DONE = "done"
TURN_DIE = 30
"""Side of an activation die in the panel, in pixels."""
MARKS = {ACTIVE: "▶", MAY: "○", DONE: "✓"}
SWATCH = 14
"""Side of a group row's colour swatch, in pixels."""
ROWS_SHOWN = 8
"""Group rows the panel grows to show without scrolling; past these, it scrolls."""


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A group of the turn: its Leader, the Leader's Rep, its size and where it stands."""

    leader: str
    name: str
    rep: int
    side: str
    state: str
    size: int | None = None


@dataclass(slots=True)
class TurnView:
    """What the turn panel shows, read from the game."""

    turn: int
    roll: Event | None
    active_side: str | None
    scores: dict[str, int] = field(default_factory=dict)
    groups: list[GroupRow] = field(default_factory=list)


def _leader_of(game: Game, event: Event) -> str:
    """The Leader of an ``activate`` event: the step's Activate action, else its first figure."""
    history = game.history
    if 0 < event.step <= len(history):
        try:
            action = Action.parse(history[event.step - 1].action)
        except CrdeskError:
            action = None
        if isinstance(action, Activate):
            return action.leader
    return event.figures[0] if event.figures else ""


def turn_view(game: Game, decision: Decision | None) -> TurnView:
    """The turn as the panel shows it.

    Read from the frames, the events and the figures named: the whole
    :meth:`~crdesk.game.Game.summary` (every figure's state and the groups) costs
    more than the rest of the panel's refresh, and is asked for only when the turn's
    roll does not say the scores.
    """
    frames = game.frames
    side_frame = next((f for f in reversed(frames) if f.kind == "side"), None)
    events = game.events
    start = next(
        (k for k in range(len(events) - 1, -1, -1) if events[k].kind == "activation_roll"), -1
    )
    roll = events[start] if start >= 0 else None
    data = roll.data if roll is not None else {}
    sides, scores = list(data.get("sides", []) or []), list(data.get("scores", []) or [])
    if sides and len(sides) == len(scores):
        dice = {str(k): int(v) for k, v in zip(sides, scores, strict=True)}
    else:
        dice = {str(k): int(v) for k, v in (game.summary().get("activation_dice") or {}).items()}
    view = TurnView(
        turn=game.turn,
        roll=roll,
        active_side=side_frame.data["side"] if side_frame is not None else None,
        scores=dice,
    )
    rows = _Figures(game)
    active = next((f for f in reversed(game.frames) if f.kind == "activation"), None)
    active_leader = str(active.data.get("leader", "")) if active is not None else ""
    listed: set[str] = set()
    for event in events[start + 1 :] if start >= 0 else ():
        if event.kind != "activate":
            continue
        leader = _leader_of(game, event)
        row = rows.get(leader)
        if row is None or leader in listed:
            continue
        listed.add(leader)
        members = active.data.get("members") if active is not None else None
        state = ACTIVE if leader == active_leader and members else DONE
        view.groups.append(
            GroupRow(
                leader,
                str(row["name"]),
                int(row["rep"]),
                str(row["side"]),
                state,
                len(event.figures),
            )
        )
    if decision is not None and decision.kind == "activate":
        for option in decision.options:
            if isinstance(option, Activate) and option.leader not in listed:
                row = rows.get(option.leader)
                if row is not None:
                    listed.add(option.leader)
                    view.groups.append(
                        GroupRow(
                            option.leader, str(row["name"]), int(row["rep"]), str(row["side"]), MAY
                        )
                    )
    return view


class _Figures:
    """The figures' rows the panel lists, looked up by id (None: not on the table)."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def get(self, fid: str) -> dict[str, object] | None:
        try:
            fig = self._game.fig(fid)
        except CrdeskError:
            return None
        return {"name": fig.name, "rep": fig.rep, "side": fig.side}


class TurnDock(SessionDock):
    """The turn at a glance, with the buttons that end an activation or a side."""

    chosen = Signal(object)
    """An option (End or Pass) a person chose here."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Turn", "TurnDock", parent)
        self.view: TurnView | None = None
        self._end: Action | None = None
        self._pass: Action | None = None
        body = self._body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        self.turn_label = QLabel()
        big = QFont(self.turn_label.font())
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.45)
        self.turn_label.setFont(big)
        self.roll_note = QLabel()
        self.roll_note.setEnabled(False)
        self.roll_note.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        head = QHBoxLayout()
        head.addWidget(self.turn_label)
        head.addStretch(1)
        head.addWidget(self.roll_note)
        layout.addLayout(head)
        self.dice_grid = QGridLayout()
        self.dice_grid.setHorizontalSpacing(8)
        self.dice_grid.setVerticalSpacing(4)
        layout.addLayout(self.dice_grid)
        self.side_rows: dict[str, tuple[DiceRow, QLabel, QLabel]] = {}
        self.decider = QLabel()
        self.decider.setObjectName("decider")
        self.decider.setWordWrap(True)
        bold = QFont(self.decider.font())
        bold.setBold(True)
        self.decider.setFont(bold)
        self.decider_swatch = QLabel()
        self.decider_swatch.setFixedSize(16, 16)
        who = QHBoxLayout()
        who.addWidget(self.decider_swatch, 0, Qt.AlignmentFlag.AlignTop)
        who.addWidget(self.decider, 1)
        layout.addLayout(who)
        self.groups_title = QLabel("Groups")
        self.groups_title.setEnabled(False)
        layout.addWidget(self.groups_title)
        self.groups_box = QVBoxLayout()
        self.groups_box.setSpacing(2)
        layout.addLayout(self.groups_box)
        self.group_labels: list[QLabel] = []
        """The group rows shown, in order."""
        self.group_swatches: list[QLabel] = []
        """Beside each row: its group's ring round a base of its side's colour, as the
        table shows them (property ``ring``: the ring's colour, None when the Leader
        leads no group now)."""
        self._group_pool: list[tuple[QWidget, QLabel, QLabel]] = []
        """Every group row made so far: the row, its swatch, its text (the ones past the
        shown rows are hidden)."""
        self._swatch_colour: str | None = None
        self._grew = True
        """Rows were added or widened since the body last took the room it needs."""
        self._token: tuple[object, ...] | None = None
        """What the last refresh showed (:func:`session_token`)."""
        buttons = QHBoxLayout()
        self.end_button = QPushButton("End activation  (E)")
        self.pass_button = QPushButton("Pass  (P)")
        for button in (self.end_button, self.pass_button):
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setMinimumWidth(80)
            buttons.addWidget(button)
        layout.addStretch(1)
        self.action_end = QAction("&End Activation", self)
        self.action_end.setShortcut(QKeySequence("E"))
        self.action_end.setStatusTip("End the active group's activation")
        self.action_pass = QAction("&Pass", self)
        self.action_pass.setShortcut(QKeySequence("P"))
        self.action_pass.setStatusTip("Pass: activate no more groups this turn (End side)")
        self.action_end.triggered.connect(lambda _c=False: self._choose(self._end))
        self.action_pass.triggered.connect(lambda _c=False: self._choose(self._pass))
        self.end_button.clicked.connect(self.action_end.trigger)
        self.pass_button.clicked.connect(self.action_pass.trigger)
        self._set_body(body, 300, footer=buttons)  # the buttons never scroll out of view
        self.refresh()

    def _choose(self, option: Action | None) -> None:
        if option is not None:
            self.chosen.emit(option)

    def _colour(self, side: str) -> QColor | None:
        assert self.session is not None
        try:
            return QColor(self.session.game.battlefield.force(side).colour)
        except ValueError:
            return None

    # -- showing the turn -----------------------------------------------------------

    def refresh(self) -> None:
        """Follow the game; only what changed is touched (the panel is refreshed after
        every step, and rebuilding its rows each time cost most of a step's redraw)."""
        session = self.session
        token = session_token(session)
        if token == self._token and token is not None:
            return  # nothing changed since the last refresh (one change, several signals)
        self._token = token
        self._end = self._pass = None
        if session is None:
            self.view = None
            self.turn_label.setText("No game")
            self.roll_note.setText("")
            self._show_dice(None)
            self.decider.setText("")
            self._set_swatch(None)
            self._show_groups([])
            self._sync_buttons(None)
            return
        game = session.game
        decision = session.awaiting()
        view = self.view = turn_view(game, decision)
        over = " — over" if decision is None else ""
        set_text(self.turn_label, f"Turn {view.turn}{over}")
        self._show_dice(view)
        self._show_decider(decision)
        self._show_groups(view.groups)
        self._sync_buttons(decision)
        # lay the rows out now, not at the next turn of the event loop: the rows are kept,
        # so nothing else would make the body grow when a row needs more room
        body = self._body
        layout = body.layout()
        if layout is not None:
            layout.activate()
        if self._grew:  # (asking for the size hint costs a layout pass: only when rows grew)
            self._grew = False
            need = body.minimumSizeHint().height()
            if body.height() < need:
                body.resize(body.width(), need)
            self._fit_rows()

    def _fit_rows(self) -> None:
        """Grow the dock, taking room from the docks under it, until every group row (up
        to :data:`ROWS_SHOWN`) shows without scrolling.

        The play mode sizes the dock for the rows of the first decision; a later turn
        may list many more groups (the squad split, every group of both sides
        activated).  Only asked: the window gives what its other docks can spare.
        """
        window = self.parentWidget()
        scroll = self.body_scroll()
        if not isinstance(window, QMainWindow) or scroll is None or self.isFloating():
            return
        if (
            not self.isVisible()
            or window.dockWidgetArea(self) == Qt.DockWidgetArea.NoDockWidgetArea
        ):
            return
        # the window's layout may hold sizes asked for and not yet given (the play
        # mode's first sizing of the docks): give them now, to measure what is shown
        outer = window.layout()
        if outer is not None:
            outer.activate()
        body = self._body
        width = scroll.viewport().width()
        need = body.heightForWidth(width) if body.hasHeightForWidth() else body.sizeHint().height()
        spacing = self.groups_box.spacing()
        for label in self.group_labels[ROWS_SHOWN:]:  # these may scroll
            need -= max(label.heightForWidth(label.width()), SWATCH) + spacing
        short = need - scroll.viewport().height()
        if short <= 0:
            return
        # the room comes from the tallest dock beside it; every dock of the column is
        # given its size, or the window would share the change out among them all
        area = window.dockWidgetArea(self)
        others = [
            d
            for d in window.findChildren(QDockWidget)
            if d is not self
            and d.isVisible()
            and not d.visibleRegion().isEmpty()  # (not a tab behind another)
            and not d.isFloating()
            and window.dockWidgetArea(d) == area
        ]
        if not others:
            return
        tallest = max(others, key=lambda d: d.height())
        give = min(short, tallest.height() - tallest.minimumSizeHint().height())
        if give <= 0:
            return
        sizes = [self.height() + give] + [
            d.height() - give if d is tallest else d.height() for d in others
        ]
        window.resizeDocks([self, *others], sizes, Qt.Orientation.Vertical)
        if outer is not None:
            outer.activate()

    def _clear_side_rows(self) -> None:
        for row, name, mark in self.side_rows.values():
            for widget in (row, name, mark):
                self.dice_grid.removeWidget(widget)
                widget.hide()
                widget.deleteLater()
        self.side_rows = {}

    def _side_rows_for(self, sides: list[str]) -> None:
        """One row (dice, name, note) per side, made once for a game's sides."""
        if list(self.side_rows) == sides:
            return
        self._clear_side_rows()
        self._grew = True
        for r, side in enumerate(sides):
            row = DiceRow(TURN_DIE)
            name = QLabel()
            name.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            mark = QLabel()
            mark.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.dice_grid.addWidget(row, r, 0)
            self.dice_grid.addWidget(name, r, 1)
            self.dice_grid.addWidget(mark, r, 2)
            for widget in (row, name, mark):
                widget.show()
            self.side_rows[side] = (row, name, mark)
        self.dice_grid.setColumnStretch(1, 1)

    def _show_dice(self, view: TurnView | None) -> None:
        session = self.session
        if session is None or view is None:
            self._clear_side_rows()
            return
        data = view.roll.data if view.roll is not None else {}
        sides = [str(s) for s in data.get("sides", [])] or list(session.game.sides)
        scores = list(data.get("scores", []))
        rerolled = [tuple(r) for r in data.get("rerolled", []) or []]
        first = str(data.get("result", ""))
        set_text(
            self.roll_note,
            f"doubles rerolled ×{len(rerolled)}"
            if rerolled
            else ("" if scores else "not rolled yet"),
        )
        self._side_rows_for(sides)
        for r, side in enumerate(sides):
            colour = self._colour(side)
            dice: list[Die] = [
                Die(int(roll[r]), colour, faded=True, tip=f"doubles {roll[0]},{roll[1]}: rerolled")
                for roll in rerolled
                if len(roll) > r
            ]
            score = scores[r] if r < len(scores) else view.scores.get(side)
            if score is not None:
                dice.append(
                    Die(int(score), colour, tip=f"{session.side_name(side)} rolled {score}")
                )
            row, name, mark = self.side_rows[side]
            slots = 0 if score is not None else 1
            if row.dice != tuple(dice) or row.slots != slots:
                self._grew |= len(dice) + slots > len(row.dice) + row.slots
                row.set_dice(dice, slots=slots)
            set_text(name, session.side_name(side))
            notes = []
            if first.startswith(f"{side}_"):
                notes.append("first")
            if side == view.active_side:
                notes.append("<b>active</b>")
            set_text(mark, " · ".join(notes))
            set_bold(name, side == view.active_side)

    def _set_swatch(self, colour: QColor | None) -> None:
        name = colour.name() if colour is not None else None
        if name == self._swatch_colour:
            return
        self._swatch_colour = name
        if name is None:
            self.decider_swatch.clear()
        else:
            self.decider_swatch.setPixmap(swatch_icon(name).pixmap(16, 16))

    def _show_decider(self, decision: Decision | None) -> None:
        session = self.session
        assert session is not None
        if decision is None:
            self._set_swatch(None)
            outcome = session.game.outcome
            winner = session.side_name(outcome.winner) if outcome and outcome.winner else "Nobody"
            set_text(self.decider, f"The encounter is over: {winner} wins" if outcome else "Over")
            return
        if decision.actor == CHANCE:
            text = f"Dice to roll: {decision.dice}d6"
        elif session.is_program_turn():
            text = f"{session.side_name(decision.actor)} (program) is deciding…"
        else:
            text = f"{who(session, decision)} to decide"  # co-op: "Alice (Red Vipers)"
        set_text(self.decider, text)
        self._set_swatch(self._colour(decision.actor) if decision.actor != CHANCE else None)

    def _show_groups(self, groups: list[GroupRow]) -> None:
        """Fill the group rows in place: a label per row, made once and reused."""
        self._grew |= len(groups) > len(self.group_labels) or self.groups_title.isHidden() == bool(
            groups
        )
        self.groups_title.setVisible(bool(groups))
        pool = self._group_pool
        while len(pool) < len(groups):
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(5)
            swatch = QLabel()
            swatch.setFixedSize(SWATCH, SWATCH)
            label = QLabel()
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)  # a long row wraps rather than widen the panel past its edge
            line.addWidget(swatch, 0, Qt.AlignmentFlag.AlignTop)
            line.addWidget(label, 1)
            self.groups_box.addWidget(row)
            pool.append((row, swatch, label))
        looks = group_colours(self.session.game) if self.session is not None and groups else None
        for (row, swatch, label), group in zip(pool, groups, strict=False):
            size = f" · {group.size} figure{'s' if group.size != 1 else ''}" if group.size else ""
            state = {ACTIVE: "active", MAY: "may activate", DONE: "done"}[group.state]
            colour = self._colour(group.side) if self.session is not None else None
            ring = looks.by_leader.get(group.leader) if looks is not None else None
            self._set_group_swatch(swatch, colour, ring)
            mark = MARKS[group.state]
            player = (
                player_of_group(self.session, group.side, group.leader)
                if self.session is not None
                else None
            )
            played = f" · <i>{escape(player)}</i>" if player else ""  # co-op: whose group
            text = f"{mark}  {escape(group.name)} · Rep {group.rep}{size}{played} — {state}"
            if label.text() != text:
                label.setText(text)
                self._grew = True  # a longer row may wrap onto another line
            label.setObjectName(f"group_{group.leader}")
            if label.property("state") != group.state:
                label.setProperty("state", group.state)
            set_bold(label, group.state == ACTIVE)
            label.setEnabled(group.state != DONE)
            if row.isHidden():
                row.show()
        for row, _swatch, _label in pool[len(groups) :]:
            if not row.isHidden():
                row.hide()
        self.group_labels = [label for _row, _swatch, label in pool[: len(groups)]]
        self.group_swatches = [swatch for _row, swatch, _label in pool[: len(groups)]]

    def _set_group_swatch(self, swatch: QLabel, side: QColor | None, ring: QColor | None) -> None:
        """The group's ring round a base of its side's colour (a base alone: the Leader
        leads no group now, gone down or in another's group)."""
        key = (side.name() if side is not None else None, ring.name() if ring is not None else None)
        if swatch.property("look") == list(key):
            return
        swatch.setProperty("look", list(key))
        swatch.setProperty("ring", key[1])
        if side is None:
            swatch.clear()
            return
        swatch.setPixmap(group_pixmap(side, ring, SWATCH))
        swatch.setToolTip("The group's colour on the table" if ring is not None else "")

    def _sync_buttons(self, decision: Decision | None) -> None:
        session = self.session
        person = session is not None and session.person_to_decide()
        options = decision.options if decision is not None and person else ()
        self._end = next((o for o in options if isinstance(o, End)), None)
        self._pass = next((o for o in options if isinstance(o, Pass)), None)
        side_pass = decision is not None and decision.kind == "activate"
        self.pass_button.setText("End side — Pass  (P)" if side_pass else "Pass  (P)")
        self.pass_button.setToolTip(
            "Activate no more groups this turn (7.1)" if side_pass else "Decline what is offered"
        )
        self.end_button.setToolTip("End the active group's activation (E)")
        self.action_end.setEnabled(self._end is not None)
        self.action_pass.setEnabled(self._pass is not None)
        self.end_button.setEnabled(self._end is not None)
        self.pass_button.setEnabled(self._pass is not None)

    def group_states(self) -> dict[str, str]:
        """Leader id to ``active``/``may``/``done`` as listed (tests)."""
        return {g.leader: g.state for g in (self.view.groups if self.view else [])}
