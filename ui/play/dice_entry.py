"""Entering real dice: a small non-modal panel with big 1-6 buttons and the keyboard.

In a game played with the player's own dice the controller stops with a
``chance`` decision whenever a rule rolls (its prompt says what for and how
many dice).  The panel shows that prompt, a place for each die, and six big
buttons; the digits 1-6 enter a face, Backspace takes the last one back, and
Enter (or the Send button) sends the faces as :class:`DiceFaces`.  The
controller judges them; if the step needs more (doubles on the activation
dice, say) it asks again and the panel shows the new prompt.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
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

from crdesk.game import CHANCE, Decision
from crdesk.game.actions import DiceFaces
from ui.play.dice_view import DiceRow, Die, die_icon
from ui.play.session import PlaySession

ENTRY_DIE = 34
"""Side of an entered die, in pixels."""
BUTTON_ICON = 36
FACE_KEYS = {getattr(Qt.Key, f"Key_{n}"): n for n in range(1, 7)}
SEND_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class DicePad(QWidget):
    """The panel's body: takes the keys while it has the focus."""

    face = Signal(int)
    back = Signal()
    send = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def event(self, event: QEvent) -> bool:
        # the window's shortcuts (Enter plays the highlighted option) must not take these keys
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and _handled(event)
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in FACE_KEYS:
            self.face.emit(FACE_KEYS[Qt.Key(key)])
        elif key == Qt.Key.Key_Backspace:
            self.back.emit()
        elif key in SEND_KEYS:
            self.send.emit()
        else:
            super().keyPressEvent(event)


def _handled(event: QKeyEvent) -> bool:
    if event.modifiers() & ~(
        Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier
    ):
        return False
    key = event.key()
    return key in FACE_KEYS or key == Qt.Key.Key_Backspace or key in SEND_KEYS


class DiceEntryDock(QDockWidget):
    """A non-modal panel for the faces of real dice; shown while the game waits for dice."""

    entered = Signal(object)
    """The :class:`DiceFaces` the person rolled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Your dice", parent)
        self.setObjectName("DiceEntryDock")
        self.session: PlaySession | None = None
        self.decision: Decision | None = None
        self.faces: list[int] = []
        self.sent: list[int] = []
        """Faces already sent for the step that still asks for more (doubles, say)."""
        self._sent_step = -1
        pad = self.pad = DicePad()
        layout = QVBoxLayout(pad)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        bold = QFont(self.prompt_label.font())
        bold.setBold(True)
        self.prompt_label.setFont(bold)
        layout.addWidget(self.prompt_label)
        self.row = DiceRow(ENTRY_DIE)
        self.row.setToolTip("The faces entered so far; Backspace takes the last one back")
        self.count_label = QLabel()
        self.count_label.setEnabled(False)
        shown = QHBoxLayout()
        shown.addWidget(self.row)
        shown.addStretch(1)
        shown.addWidget(self.count_label)
        layout.addLayout(shown)
        sent_row = QHBoxLayout()
        self.sent_label = QLabel("Sent for this step:")
        self.sent_label.setEnabled(False)
        self.sent_row = DiceRow(18)
        self.sent_row.setToolTip("Faces already taken for this step; it needs more dice")
        sent_row.addWidget(self.sent_label)
        sent_row.addWidget(self.sent_row)
        sent_row.addStretch(1)
        layout.addLayout(sent_row)
        grid = QGridLayout()
        grid.setSpacing(4)
        self.face_buttons: dict[int, QPushButton] = {}
        for n in range(1, 7):
            button = QPushButton(str(n))
            button.setIcon(die_icon(n, BUTTON_ICON))
            button.setIconSize(QSize(BUTTON_ICON, BUTTON_ICON))
            button.setMinimumHeight(BUTTON_ICON + 12)
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setMinimumWidth(50)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setToolTip(f"A {n} (key {n})")
            button.clicked.connect(lambda _c=False, face=n: self.add_face(face))
            grid.addWidget(button, (n - 1) // 3, (n - 1) % 3)
            self.face_buttons[n] = button
        layout.addLayout(grid)
        actions = QHBoxLayout()
        self.back_button = QPushButton("⌫  Back")
        self.back_button.setToolTip("Take the last face back (Backspace)")
        self.back_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.back_button.clicked.connect(self.take_back)
        self.send_button = QPushButton("Send  ⏎")
        self.send_button.setToolTip("Send the faces to the game (Enter)")
        self.send_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        font = QFont(self.send_button.font())
        font.setBold(True)
        self.send_button.setFont(font)
        self.send_button.clicked.connect(self.send)
        actions.addWidget(self.back_button)
        actions.addWidget(self.send_button, 1)
        layout.addLayout(actions)
        hint = QLabel("Keys: 1–6 enter a face · Backspace · Enter sends")
        hint.setEnabled(False)
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addStretch(1)
        pad.face.connect(self.add_face)
        pad.back.connect(self.take_back)
        pad.send.connect(self.send)
        self.setWidget(pad)
        self.setMinimumWidth(260)
        self.refresh()

    # -- binding ---------------------------------------------------------------------

    def set_session(self, session: PlaySession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self.refresh)
        self.session = session
        if session is not None:
            session.changed.connect(self.refresh)
        self.refresh()

    def waiting(self) -> bool:
        """Whether the game waits for dice now."""
        return self.decision is not None

    def refresh(self) -> None:
        """Follow the awaited decision: show (and take the keys) when it waits for dice."""
        decision = self.session.awaiting() if self.session is not None else None
        if decision is not None and decision.actor != CHANCE:
            decision = None
        fresh = decision != self.decision
        self.decision = decision
        if fresh:
            self.faces = []
        if decision is None or decision.step != self._sent_step:
            self.sent = []
        if decision is None:
            self.prompt_label.setText("No dice are awaited.")
            self.hide()
        else:
            self.prompt_label.setText(decision.prompt)
            was_visible = self.isVisible()
            self.show()
            self.raise_()
            if not was_visible:
                self._fit()
            if fresh or not was_visible:
                self.pad.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show()

    def _fit(self) -> None:
        """Take the height the panel needs in the window's dock column, no more."""
        window = self.parentWidget()
        if isinstance(window, QMainWindow) and not self.isFloating():
            height = self.pad.sizeHint().height() + 30
            window.resizeDocks([self], [height], Qt.Orientation.Vertical)

    def _need(self) -> int:
        return self.decision.dice if self.decision is not None else 0

    def _show(self) -> None:
        need = self._need()
        self.row.set_dice([Die(f) for f in self.faces], slots=need - len(self.faces))
        self.count_label.setText(f"{len(self.faces)} of {need}" if need else "")
        full = need > 0 and len(self.faces) >= need
        for button in self.face_buttons.values():
            button.setEnabled(need > 0 and not full)
        self.back_button.setEnabled(bool(self.faces))
        self.send_button.setEnabled(full)
        self.sent_row.set_dice([Die(f, faded=True) for f in self.sent])
        self.sent_label.setVisible(bool(self.sent))
        self.sent_row.setVisible(bool(self.sent))

    # -- entering ----------------------------------------------------------------------

    def add_face(self, face: int) -> None:
        if self.decision is None or not 1 <= face <= 6 or len(self.faces) >= self._need():
            return
        self.faces.append(face)
        self._show()

    def take_back(self) -> None:
        if self.faces:
            self.faces.pop()
            self._show()

    def send(self) -> bool:
        """Send the faces when all the dice are entered; False if some are missing."""
        if self.decision is None or len(self.faces) < self._need():
            return False
        faces = tuple(self.faces)
        self.faces = []  # the next roll (doubles again, say) starts afresh
        self.sent += faces
        self._sent_step = self.decision.step
        self._show()
        self.entered.emit(DiceFaces(faces))
        return True
