"""What the play mode's docks share: a scrolling body that follows the session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QScrollArea, QWidget

if TYPE_CHECKING:
    from ui.play.session import PlaySession


class SessionDock(QDockWidget):
    """A dock of the play mode: its body scrolls, and it refreshes on every change of
    the game it is bound to (:meth:`set_session`)."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setObjectName(name)
        self.session: PlaySession | None = None

    def _set_body(self, body: QWidget, min_width: int) -> None:
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self.setMinimumWidth(min_width)

    def set_session(self, session: PlaySession | None) -> None:
        if self.session is not None:
            self.session.changed.disconnect(self.refresh)
        self.session = session
        if session is not None:
            session.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError
