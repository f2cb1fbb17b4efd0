"""What the play mode's docks share: a scrolling body that follows the session.

The docks refresh after every step of the game, so a refresh must cost next to
nothing when little changed: :func:`session_token` says whether anything a dock
shows can have changed since its last refresh (one change often arrives as
several signals), and :func:`set_text` / :func:`set_bold` touch a label only
when its value changes (each change costs a relayout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QDockWidget,
    QFrame,
    QLabel,
    QLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from ui.play.session import PlaySession


def session_token(session: PlaySession | None) -> tuple[object, ...] | None:
    """What a dock's view of the session depends on, cheap to compare: the session, the
    length of the history and of the events, the last event, the awaited decision and
    whether the program makes it.  Equal tokens: nothing shown can have changed."""
    if session is None:
        return None
    game = session.game
    events = game.events
    return (
        id(session),
        len(game.history),
        len(events),
        events[-1] if events else None,
        game.turn,
        session.awaiting(),
        session.is_program_turn(),
    )


def set_text(widget: QLabel | QAbstractButton, text: str) -> None:
    """Set a label's or a button's text only when it differs."""
    if widget.text() != text:
        widget.setText(text)


def set_bold(widget: QWidget, bold: bool) -> None:
    """Make a widget's font bold or not, only when that changes."""
    if widget.font().bold() != bold:
        font = QFont(widget.font())
        font.setBold(bold)
        widget.setFont(font)


class SessionDock(QDockWidget):
    """A dock of the play mode: its body scrolls, and it refreshes on every change of
    the game it is bound to (:meth:`set_session`).

    A dock that only shows (nothing reads it to play: the dice tray) sets
    :attr:`defer_while_hidden`: while it is closed or behind another tab its
    refreshes wait, and the one refresh due is done when it is shown again (or
    :meth:`flush`), however many steps were played meanwhile.
    """

    defer_while_hidden = False

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setObjectName(name)
        self.session: PlaySession | None = None
        self._stale = False
        """A change came while the dock was hidden and is not shown yet."""
        self._token: tuple[object, ...] | None = None
        """What the last refresh showed (:func:`session_token`; None: show afresh)."""

    def _set_body(self, body: QWidget, min_width: int, footer: QLayout | None = None) -> None:
        """``body`` scrolls when the dock is short; ``footer`` (buttons) stays in view
        under it whatever the dock's height."""
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        if footer is None:
            self.setWidget(scroll)
        else:
            outer = QWidget()
            column = QVBoxLayout(outer)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(0)
            column.addWidget(scroll, 1)
            footer.setContentsMargins(8, 4, 8, 6)
            column.addLayout(footer)
            self.setWidget(outer)
        self.setMinimumWidth(min_width)

    def body_scroll(self) -> QScrollArea | None:
        """The scroll area holding the body (to size the dock to its content)."""
        widget = self.widget()
        if isinstance(widget, QScrollArea):
            return widget
        return widget.findChild(QScrollArea) if widget is not None else None

    def set_session(self, session: PlaySession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self._on_changed)
        self.session = session
        if session is not None:
            session.changed.connect(self._on_changed)
        self._stale = False
        self._token = None  # bound afresh: shown afresh
        self.refresh()

    def _on_changed(self) -> None:
        if self.defer_while_hidden and not self.isVisible():
            self._stale = True
        else:
            self._stale = False
            self.refresh()

    def flush(self) -> None:
        """Do the refresh that waited while the dock was hidden, if one did."""
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.flush()

    def refresh(self) -> None:
        raise NotImplementedError
