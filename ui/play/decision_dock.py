"""The decision dock: what the game waits for, whose decision it is, and one button per option.

Nothing here knows a rule.  The dock shows the controller's
:class:`~crdesk.game.Decision` -- its prompt and section, its actor, its
discrete options -- and emits the option a person picks; the play mode sends
it to the controller.  The default option (the book's automatic choice) is
marked and played by Enter, so a game can flow with one key.  Any action can
also be typed in its text form ("move p1 10,12", "dice 3,5"), which covers the
options that take parameters.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.game import CHANCE, Action, Decision
from ui.docks._common import swatch_icon
from ui.play._dock import SessionDock
from ui.play.text import default_option, figure_names, option_label, row_verb

GROUP_ROWS_ABOVE = 6
"""With more options than this, one-figure actions go on their figure's row."""
MOVE_HINT = (
    "Drag a ringed figure of the active group and drop it where it should go; "
    "the controller measures the move and refuses it, with its reason, if it is too long."
)


class OptionButton(QPushButton):
    """A push button that shortens its text with "…" to fit, the full text in its tooltip."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.full_text = text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(60)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        room = max(10, self.width() - 24)
        elided = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, room)
        if elided != self.text():
            self.setText(elided)


class DecisionDock(SessionDock):
    """A non-modal panel for the awaited decision."""

    chosen = Signal(object)
    """An :class:`~crdesk.game.Action` a person chose (a button, Enter, or typed text)."""
    typed = Signal(str)
    """An action typed in its text form."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Decision", "DecisionDock", parent)
        self.buttons: dict[str, QAbstractButton] = {}
        """The option buttons by the option's text form."""
        self.default: Action | None = None
        body = self._body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        self.actor_label = QLabel()
        self.actor_label.setObjectName("actor")
        bold = QFont(self.actor_label.font())
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.15)
        self.actor_label.setFont(bold)
        self.actor_label.setWordWrap(True)
        self.turn_label = QLabel()
        self.turn_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.swatch = QLabel()
        self.swatch.setFixedSize(18, 18)
        head = QHBoxLayout()
        head.addWidget(self.swatch, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.actor_label, 1)
        head.addWidget(self.turn_label)
        layout.addLayout(head)
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.prompt_label)
        self.section_label = QLabel()
        self.section_label.setWordWrap(True)
        self.section_label.setEnabled(False)  # the greyed text of a reference
        layout.addWidget(self.section_label)
        self.hint_label = QLabel()
        self.hint_label.setWordWrap(True)
        self.hint_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.hint_label.setContentsMargins(6, 4, 6, 4)
        self.hint_label.setAutoFillBackground(True)
        palette = self.hint_label.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(255, 236, 170))
        palette.setColor(QPalette.ColorRole.WindowText, QColor(60, 45, 0))
        self.hint_label.setPalette(palette)
        layout.addWidget(self.hint_label)
        self.options_box = QWidget()
        self.options_layout = QVBoxLayout(self.options_box)
        self.options_layout.setContentsMargins(0, 4, 0, 4)
        self.options_layout.setSpacing(4)
        layout.addWidget(self.options_box)
        type_row = QHBoxLayout()
        self.action_edit = QLineEdit()
        self.action_edit.setPlaceholderText("or type an action: move p1 10,12 · dice 3,5")
        self.action_edit.setToolTip(
            "Any action in its text form, checked by the controller: "
            "move ID X,Y · fire ID at TARGET:DICE · charge ID at TARGET · dice 3,5 …"
        )
        self.action_edit.returnPressed.connect(self._send_typed)
        self.action_edit.installEventFilter(self)
        self.type_button = QPushButton("Play")
        self.type_button.clicked.connect(self._send_typed)
        type_row.addWidget(self.action_edit, 1)
        type_row.addWidget(self.type_button)
        layout.addLayout(type_row)
        layout.addStretch(1)
        self._set_body(body, 320)
        self.refresh()

    # -- showing the decision ---------------------------------------------------

    def refresh(self) -> None:
        """Show the awaited decision (or that there is none)."""
        self._clear_options()
        session = self.session
        decision = session.awaiting() if session is not None else None
        self.default = None
        if session is None:
            self._show_text("No game", "Game ▸ Start encounter… plays the open scenario.", "")
            self._enable_typing(False)
            return
        game = session.game
        self.turn_label.setText(f"Turn {game.turn}")
        if decision is None:
            outcome = game.outcome
            if outcome is None:
                self._show_text("The encounter is over", "", "")
            else:
                winner = session.side_name(outcome.winner) if outcome.winner else "Nobody"
                self._show_text(f"{winner} wins", f"{outcome.reason} (turn {outcome.turn}).", "")
            self._enable_typing(False)
            return
        program = session.is_program_turn()
        who = session.side_name(decision.actor)
        if decision.actor == CHANCE:
            head = "Roll the dice"
        elif program:
            head = f"{who} (program) is deciding…"
        else:
            head = f"{who} to decide"
        self._show_text(head, decision.prompt, self._section_text(decision))
        self._set_actor_colour(decision.actor)
        if not program and "move" in decision.accepts:
            self.hint_label.setText(MOVE_HINT)
            self.hint_label.show()
        elif decision.actor == CHANCE:
            self.hint_label.setText(
                f"Roll {decision.dice}d6 and enter the faces in the dice panel "
                "(its buttons, or the keys 1–6 and Enter)."
            )
            self.hint_label.show()
        self._enable_typing(not program)
        self.default = default_option(game, decision) if not program else None
        self._add_options(decision, enabled=not program)
        self._lay_out()

    def _lay_out(self) -> None:
        """Place the new buttons now, not at the next turn of the event loop, so that what
        is shown (and clicked, and grabbed) right after a step is the new decision."""
        for i in range(self.options_layout.count()):
            item = self.options_layout.itemAt(i)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.show()  # a layout shows added widgets only at the next event loop turn
        self.options_layout.activate()
        layout = self._body.layout()
        if layout is not None:
            layout.activate()

    def _section_text(self, decision: Decision) -> str:
        parts = [f"§ {decision.section}"] if decision.section else []
        if decision.frames:
            parts.append(" › ".join(decision.frames))
        return "  ·  ".join(parts)

    def _show_text(self, head: str, prompt: str, section: str) -> None:
        self.actor_label.setText(head)
        self.swatch.clear()
        self.prompt_label.setText(prompt)
        self.prompt_label.setVisible(bool(prompt))
        self.section_label.setText(section)
        self.section_label.setVisible(bool(section))
        self.hint_label.hide()
        if self.session is None:
            self.turn_label.setText("")

    def _set_actor_colour(self, side: str) -> None:
        assert self.session is not None
        try:
            colour = QColor(self.session.game.battlefield.force(side).colour)
        except ValueError:
            return
        self.swatch.setPixmap(swatch_icon(colour.name()).pixmap(18, 18))
        self.swatch.setToolTip(self.session.side_name(side))

    def _enable_typing(self, on: bool) -> None:
        self.action_edit.setEnabled(on)
        self.type_button.setEnabled(on)

    def _clear_options(self) -> None:
        self.buttons = {}
        while self.options_layout.count():
            item = self.options_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()

    def _add_options(self, decision: Decision, *, enabled: bool) -> None:
        assert self.session is not None
        name = figure_names(self.session.game)
        grouped = len(decision.options) > GROUP_ROWS_ABOVE
        rows: dict[str, list[tuple[str, Action]]] = {}
        main: list[Action] = []
        for option in decision.options:
            verb = row_verb(option) if grouped else None
            if verb is not None and option.who is not None and option != self.default:
                rows.setdefault(option.who, []).append((verb, option))
            else:
                main.append(option)
        if self.default is not None and self.default in main:
            main.remove(self.default)
            main.insert(0, self.default)
        for option in main:
            button = self._button(option_label(option, name), option, enabled)
            self.options_layout.addWidget(button)
        if rows:
            grid_box = QWidget()
            grid = QGridLayout(grid_box)
            grid.setContentsMargins(0, 6, 0, 0)
            grid.setHorizontalSpacing(4)
            grid.setVerticalSpacing(3)
            for r, (fid, options) in enumerate(rows.items()):
                who = QLabel(name(fid))
                who.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                who.setToolTip(name(fid))
                grid.addWidget(who, r, 0)
                for c, (verb, option) in enumerate(options, start=1):
                    button = self._button(verb, option, enabled, row=True)
                    button.setToolTip(f"{option_label(option, name)}  ({option})")
                    grid.addWidget(button, r, c)
            grid.setColumnStretch(0, 1)
            self.options_layout.addWidget(grid_box)

    def _button(
        self, text: str, option: Action, enabled: bool, row: bool = False
    ) -> QAbstractButton:
        is_default = option == self.default
        label = f"⏎  {text}" if is_default else text
        button: QAbstractButton
        if row:
            button = QToolButton()
            button.setText(label)
        else:
            button = OptionButton(label)
        button.setToolTip(f"{text}  ({option})" if not row else str(option))
        button.setEnabled(enabled)
        if is_default:
            font = QFont(button.font())
            font.setBold(True)
            button.setFont(font)
            if isinstance(button, QPushButton):
                button.setDefault(True)
            button.setObjectName("defaultOption")
        button.clicked.connect(lambda _checked=False, o=option: self.chosen.emit(o))
        self.buttons[str(option)] = button
        return button

    # -- choosing ----------------------------------------------------------------

    def play_default(self) -> bool:
        """Enter: play the highlighted option; False when there is none."""
        if self.default is None:
            return False
        self.chosen.emit(self.default)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the action box plays the typed action, not the highlighted option."""
        if (
            watched is self.action_edit
            and event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def _send_typed(self) -> None:
        text = self.action_edit.text().strip()
        if text:
            self.typed.emit(text)
