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

from collections.abc import Callable

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
    QStyle,
    QStyleOptionButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.game import CHANCE, Action, Decision
from crdesk.game.actions import Activate
from ui.docks._common import swatch_icon
from ui.play._dock import SessionDock, session_token, set_bold, set_text
from ui.play.seating import player_of_group, who
from ui.play.text import Names, default_option, figure_names, option_label, row_verb

GROUP_ROWS_ABOVE = 6
"""With more options than this, one-figure actions go on their figure's row."""
MOVE_HINT = (
    "Drag a ringed figure of the active group and drop it where it should go; "
    "the controller measures the move and refuses it, with its reason, if it is too long."
)


LABEL_LINES = 2
"""An option's label wraps onto this many lines at most (the rest is shortened with "…")."""
LABEL_PAD = 4
"""Pixels kept clear on either side of a label inside its button."""


def wrap_words(text: str, width_of: Callable[[str], int], room: int, lines: int) -> list[str]:
    """``text`` broken between words into lines of at most ``room`` pixels
    (``width_of`` measures a line), and at most ``lines`` of them: the last takes what
    is left.  A line may still be too wide (one long word, or the last): the caller
    shortens it.

    >>> wrap_words("Pvt. Lind fires at Dice", len, 12, 2)
    ['Pvt. Lind', 'fires at Dice']
    """
    out: list[str] = []
    words = text.split(" ")
    line = words[0]
    for k, word in enumerate(words[1:], start=1):
        if len(out) == lines - 1:
            line = " ".join([line, *words[k:]])
            break
        wider = f"{line} {word}"
        if width_of(wider) <= room or not line.strip():
            line = wider
        else:
            out.append(line)
            line = word
    out.append(line)
    return out


class OptionButton(QPushButton):
    """A push button whose label wraps onto a second line when it is long, and is
    shortened with "…" only past that; the full text is in its tooltip.

    The label is laid out again whenever the button's width or font changes (the
    default option is bold, and a bold label laid out in the plain font ran past the
    button's edge).  It is kept from decision to decision and given another option
    (:attr:`option`)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.full_text = text
        self.option: Action | None = None
        """The option the button plays."""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(60)

    def set_full_text(self, text: str) -> None:
        if text == self.full_text and self.text():
            return
        self.full_text = text
        self._lay_out_label()

    def label_room(self) -> int:
        """The width, in pixels, a line of the label may take (the style's contents
        rectangle of the button, less a little air)."""
        option = QStyleOptionButton()
        self.initStyleOption(option)
        contents = self.style().subElementRect(
            QStyle.SubElement.SE_PushButtonContents, option, self
        )
        return max(10, contents.width() - 2 * LABEL_PAD)

    def _lay_out_label(self) -> None:
        if self.width() <= 24 or not self.testAttribute(Qt.WidgetAttribute.WA_Resized):
            set_text(self, self.full_text)  # not laid out yet: its resize lays it out
            return
        metrics = self.fontMetrics()
        room = self.label_room()
        lines = wrap_words(self.full_text, metrics.horizontalAdvance, room, LABEL_LINES)
        shown = [
            metrics.elidedText(line.strip(), Qt.TextElideMode.ElideRight, room) for line in lines
        ]
        set_text(self, "\n".join(shown).replace("&", "&&"))  # "&": no mnemonic

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._lay_out_label()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._lay_out_label()


class RowButton(QToolButton):
    """A small button on a figure's row of options (kept, given another option)."""

    def __init__(self) -> None:
        super().__init__()
        self.option: Action | None = None


def _set_shown(widget: QWidget, shown: bool) -> None:
    """Show or hide a widget only when that changes (each change costs a relayout)."""
    if widget.isHidden() == shown:
        widget.setVisible(shown)


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
        self.grid_box = QWidget()
        self._grid = QGridLayout(self.grid_box)
        self._grid.setContentsMargins(0, 6, 0, 0)
        self._grid.setHorizontalSpacing(4)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(0, 1)
        self.options_layout.addWidget(self.grid_box)
        self.grid_box.hide()
        self._main_pool: list[OptionButton] = []
        """The option buttons made so far, in order (past the options shown: hidden)."""
        self._row_pool: list[RowButton] = []
        self._who_pool: list[QLabel] = []
        self._grid_layout: list[tuple[str, list[Action]]] = []
        """The figures' rows as laid out in the grid: each figure and its options."""
        self._swatch_key: tuple[str, str] | None = None
        self._token: tuple[object, ...] | None = None
        """What the last refresh showed (:func:`~ui.play._dock.session_token`)."""
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
        """Show the awaited decision (or that there is none).

        The option buttons are kept and filled in again rather than made anew: a new
        button costs its polish and first show, most of a step's redraw on a big table.
        Nothing is touched when the decision and the game are where they were.
        """
        session = self.session
        token = session_token(session)
        if token is not None and token == self._token:
            return
        self._token = token
        decision = session.awaiting() if session is not None else None
        self.default = None
        if session is None:
            self._show_text("No game", "Game ▸ Start encounter… plays the open scenario.", "")
            self._set_actor_colour(None)
            self._show_hint("")
            self._enable_typing(False)
            self._set_options(None, enabled=False)
            return
        game = session.game
        set_text(self.turn_label, f"Turn {game.turn}")
        if decision is None:
            outcome = game.outcome
            if outcome is None:
                self._show_text("The encounter is over", "", "")
            else:
                winner = session.side_name(outcome.winner) if outcome.winner else "Nobody"
                self._show_text(f"{winner} wins", f"{outcome.reason} (turn {outcome.turn}).", "")
            self._set_actor_colour(None)
            self._show_hint("")
            self._enable_typing(False)
            self._set_options(None, enabled=False)
            return
        program = session.is_program_turn()
        if decision.actor == CHANCE:
            head = "Roll the dice"
        elif program:
            head = f"{session.side_name(decision.actor)} (program) is deciding…"
        else:
            head = f"{who(session, decision)} to decide"  # co-op: "Alice (Red Vipers)"
        self._show_text(head, decision.prompt, self._section_text(decision))
        self._set_actor_colour(decision.actor)
        if not program and "move" in decision.accepts:
            self._show_hint(MOVE_HINT)
        elif decision.actor == CHANCE:
            self._show_hint(
                f"Roll {decision.dice}d6 and enter the faces in the dice panel "
                "(its buttons, or the keys 1–6 and Enter)."
            )
        else:
            self._show_hint("")
        self._enable_typing(not program)
        self.default = default_option(game, decision) if not program else None
        self._set_options(decision, enabled=not program)

    def _lay_out(self) -> None:
        """Place the buttons now, not at the next turn of the event loop, so that what
        is shown (and clicked, and grabbed) right after a step is the new decision."""
        # (twice: the first pass gives the buttons their widths, and a long label may
        # then take a second line)
        for _pass in range(2):
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
        set_text(self.actor_label, head)
        set_text(self.prompt_label, prompt)
        _set_shown(self.prompt_label, bool(prompt))
        set_text(self.section_label, section)
        _set_shown(self.section_label, bool(section))
        if self.session is None:
            set_text(self.turn_label, "")

    def _show_hint(self, text: str) -> None:
        if text:
            set_text(self.hint_label, text)
        _set_shown(self.hint_label, bool(text))

    def _set_actor_colour(self, side: str | None) -> None:
        colour: QColor | None = None
        if side is not None and self.session is not None:
            try:
                colour = QColor(self.session.game.battlefield.force(side).colour)
            except ValueError:
                colour = None
        key = (colour.name(), side) if colour is not None else None
        if key == self._swatch_key:
            return
        self._swatch_key = key
        if colour is None or side is None or self.session is None:
            self.swatch.clear()
            self.swatch.setToolTip("")
            return
        self.swatch.setPixmap(swatch_icon(colour.name()).pixmap(18, 18))
        self.swatch.setToolTip(self.session.side_name(side))

    def _enable_typing(self, on: bool) -> None:
        self.action_edit.setEnabled(on)
        self.type_button.setEnabled(on)

    def _set_options(self, decision: Decision | None, *, enabled: bool) -> None:
        """One button per option, the default first; with many options the one-figure
        actions go on their figure's row of small buttons."""
        self.buttons = {}
        main: list[Action] = []
        rows: dict[str, list[tuple[str, Action]]] = {}
        name = figure_names(self.session.game) if self.session is not None else str
        if decision is not None:
            grouped = len(decision.options) > GROUP_ROWS_ABOVE
            for option in decision.options:
                verb = row_verb(option) if grouped else None
                if verb is not None and option.who is not None and option != self.default:
                    rows.setdefault(option.who, []).append((verb, option))
                else:
                    main.append(option)
            if self.default is not None and self.default in main:
                main.remove(self.default)
                main.insert(0, self.default)
        pool = self._main_pool
        while len(pool) < len(main):
            button = OptionButton("")
            button.clicked.connect(lambda _checked=False, b=button: self._clicked(b))
            self.options_layout.insertWidget(len(pool), button)
            pool.append(button)
        for button, option in zip(pool, main, strict=False):
            self._fill(button, self._label(option, name), option, enabled)
            _set_shown(button, True)
        for button in pool[len(main) :]:
            button.option = None
            _set_shown(button, False)
        self._set_rows(rows, name, enabled)
        self._lay_out()

    def _label(self, option: Action, name: Names) -> str:
        """The option's words; in co-op, a group's choice names its player ("— Bob")."""
        text = option_label(option, name)
        session = self.session
        if isinstance(option, Activate) and session is not None:
            try:
                side = session.game.battlefield.figure(option.leader).side
            except (KeyError, ValueError):
                return text
            player = player_of_group(session, side, option.leader)
            if player:
                text += f" — {player}"
        return text

    def _set_rows(
        self, rows: dict[str, list[tuple[str, Action]]], name: Names, enabled: bool
    ) -> None:
        grid = self._grid
        layout = [(fid, [option for _verb, option in options]) for fid, options in rows.items()]
        if layout != self._grid_layout:
            # another set of rows: take every widget out and put the needed ones back
            for widget in (*self._who_pool, *self._row_pool):
                grid.removeWidget(widget)
                _set_shown(widget, False)
            self._grid_layout = layout
            n_buttons = sum(len(options) for options in rows.values())
            while len(self._who_pool) < len(rows):
                who = QLabel()
                who.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                self._who_pool.append(who)
            while len(self._row_pool) < n_buttons:
                button = RowButton()
                button.clicked.connect(lambda _checked=False, b=button: self._clicked(b))
                self._row_pool.append(button)
            k = 0
            for r, options in enumerate(rows.values()):
                who = self._who_pool[r]
                grid.addWidget(who, r, 0)
                _set_shown(who, True)
                for c in range(1, len(options) + 1):
                    grid.addWidget(self._row_pool[k], r, c)
                    _set_shown(self._row_pool[k], True)
                    k += 1
        k = 0
        for r, (fid, options) in enumerate(rows.items()):
            who = self._who_pool[r]
            set_text(who, name(fid))
            who.setToolTip(name(fid))
            for verb, option in options:
                button = self._row_pool[k]
                self._fill(button, verb, option, enabled)
                button.setToolTip(f"{option_label(option, name)}  ({option})")
                k += 1
        _set_shown(self.grid_box, bool(rows))

    def _fill(
        self, button: OptionButton | RowButton, text: str, option: Action, enabled: bool
    ) -> None:
        is_default = option == self.default
        label = f"⏎  {text}" if is_default else text
        set_bold(button, is_default)  # (first: the label is laid out in the font it has)
        if isinstance(button, OptionButton):
            button.set_full_text(label)
            button.setToolTip(f"{text}  ({option})")
            if button.isDefault() != is_default:
                button.setDefault(is_default)
        else:
            set_text(button, label)
            button.setToolTip(str(option))
        button.setEnabled(enabled)
        wanted = "defaultOption" if is_default else ""
        if button.objectName() != wanted:
            button.setObjectName(wanted)
        button.option = option
        self.buttons[str(option)] = button

    def _clicked(self, button: OptionButton | RowButton) -> None:
        if button.option is not None:
            self.chosen.emit(button.option)

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
