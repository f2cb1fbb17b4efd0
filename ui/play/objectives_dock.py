"""The Objectives panel: the encounter's checklist (12) as the controller tracks it.

Everything shown is :meth:`crdesk.game.Game.summary`'s ``"objectives"`` (read through
:func:`crdesk.game.encounter.checklist`, without the rest of the summary): each item
with its state (done, open, failed), its rule and where it is on the table; when
the encounter is over, won or lost and the next encounter.  Free play shows that
there is no objective.  Nothing here judges an objective.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget

from crdesk.game.encounter import checklist
from ui.play._dock import SessionDock

if TYPE_CHECKING:
    from ui.play.session import PlaySession

MARKS = {"done": "☑", "open": "☐", "failed": "☒"}
COLOURS = {"done": "#1d7a2e", "open": "#303030", "failed": "#b3261e"}
NAMES = {"patrol": "Patrol", "raid": "Raid", "defend": "Defend"}
SECTIONS = {"patrol": "12.1", "raid": "12.2", "defend": "12.3"}
MIN_HEIGHT = 260
"""Pixels the dock asks for when shown: a title, the result and four items."""


def _where(item: dict[str, Any]) -> str:
    at = item.get("at")
    if at is None:
        return ""
    return f" at ({at[0]:g}, {at[1]:g})"


class ObjectivesDock(SessionDock):
    """The encounter's objectives, each ticked off as the game records it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Objectives", "objectivesDock", parent)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 6)
        self.title_label = QLabel()
        self.title_label.setObjectName("objectivesTitle")
        self.list_label = QLabel()
        self.list_label.setObjectName("objectivesList")
        self.list_label.setWordWrap(True)
        self.list_label.setTextFormat(Qt.TextFormat.RichText)
        self.result_label = QLabel()
        self.result_label.setObjectName("objectivesResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        for label in (self.title_label, self.result_label, self.list_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)
        layout.addStretch(1)
        self._set_body(body, 240)
        self._shown: tuple[int, int, int] | None = None
        self.items: list[dict[str, Any]] = []
        """The checklist shown (the summary's items), for tests and tooltips."""

    def showEvent(self, event: QShowEvent) -> None:
        """Room for the whole checklist: the left column's other docks take what is left."""
        super().showEvent(event)
        window = self.parent()
        if isinstance(window, QMainWindow) and self.height() < MIN_HEIGHT:
            window.resizeDocks([self], [MIN_HEIGHT], Qt.Orientation.Vertical)

    def set_session(self, session: PlaySession | None) -> None:
        self._shown = None  # another game: show it afresh
        super().set_session(session)

    def refresh(self) -> None:
        game = self.session.game if self.session is not None else None
        key = None if game is None else (id(game), len(game.history), game.die_position)
        if key is not None and key == self._shown:
            return  # nothing the checklist shows can have changed
        self._shown = key
        objectives = checklist(game) if game is not None else None
        if objectives is None:
            self.items = []
            self.title_label.setText("<b>Free play</b>")
            self.list_label.setText("No objective: play until one side has no one left.")
            self.result_label.setText("")
            self.result_label.hide()
            return
        kind = objectives["encounter"]
        self.items = list(objectives["items"])
        self.title_label.setText(
            f"<b>{NAMES.get(kind, kind.title())}</b> ({SECTIONS.get(kind, '12')})"
        )
        rows = []
        for item in self.items:
            state = item["state"]
            rows.append(
                f"<p style='margin:2px 0; color:{COLOURS[state]}'>{MARKS[state]} "
                f"{escape(item['text'])}{escape(_where(item))} "
                f"<span style='color:#707070'>({escape(item['section'])})</span></p>"
            )
        self.list_label.setText("".join(rows))
        if "won" in objectives:
            won = objectives["won"]
            following = NAMES.get(objectives["next_encounter"], objectives["next_encounter"])
            colour = COLOURS["done" if won else "failed"]
            out = self.session.game.outcome if self.session is not None else None
            reason = out.reason.split(": ", 1)[-1] if out is not None else ""
            undecided = out is not None and out.winner is None  # the turn limit ended it
            verdict = "Won" if won else ("Not won" if undecided else "Lost")
            self.result_label.show()
            self.result_label.setText(
                f"<b style='color:{colour}'>{verdict}</b>: {escape(reason)}."
                f"<br>Next encounter: a {escape(following)} (12)."
            )
        else:
            self.result_label.setText("")
            self.result_label.hide()

    def lines(self) -> list[str]:
        """The checklist as plain lines (mark, text, where), as a player reads it."""
        return [f"{MARKS[i['state']]} {i['text']}{_where(i)}" for i in self.items]
