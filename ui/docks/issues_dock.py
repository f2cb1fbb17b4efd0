"""The issues dock: what :func:`~crdesk.validation.check_battlefield` finds wrong with the table.

Problems are flagged, never enforced (the table can still be saved), so this
list is where a player finds them.  The check runs over the whole table, so a
burst of model changes (a drag, an undo of a macro) is debounced into one run
by a single-shot timer rather than one run per change.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStackedWidget,
    QWidget,
)

from crdesk.events import Change
from crdesk.validation import Severity, TableIssue, check_battlefield
from ui.docks._common import disconnect_quietly, severity_icon
from ui.document import Document

DEBOUNCE_MS = 200
"""Quiet time after the last model change before the table is checked again."""

_ID = Qt.ItemDataRole.UserRole


class IssuesDock(QDockWidget):
    """A list of the table's problems, errors first; double-click one to select its item."""

    issue_activated = Signal(str)
    """The model id of a double-clicked issue, e.g. for the view to zoom to it."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Issues", parent)
        self.setObjectName("IssuesDock")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setAlternatingRowColors(True)
        self.list.itemActivated.connect(self._on_activated)
        self.list.itemDoubleClicked.connect(self._on_activated)
        self.all_clear = QLabel("No problems found on the table.")
        self.all_clear.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.all_clear.setWordWrap(True)
        self.all_clear.setContentsMargins(8, 8, 8, 8)
        self.all_clear.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.list)
        self.pages.addWidget(self.all_clear)
        self.setWidget(self.pages)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        self._issues: list[TableIssue] = []
        self._document: Document | None = None
        self.set_document(document)

    @property
    def document(self) -> Document | None:
        return self._document

    @property
    def issues(self) -> list[TableIssue]:
        """The problems last shown, errors first."""
        return list(self._issues)

    def set_document(self, document: Document | None) -> None:
        """Check another open document (or none), at once."""
        if self._document is not None:
            disconnect_quietly(self._document, "model_changed", self._on_model_changed)
        self._document = document
        if document is not None:
            document.model_changed.connect(self._on_model_changed)
        self.refresh()

    def _on_model_changed(self, _change: Change) -> None:
        self.timer.start()  # restarts: many changes in a burst cost one check

    def refresh(self) -> None:
        """Check the table now and show the result (the timer calls this)."""
        self.timer.stop()
        doc = self._document
        found = check_battlefield(doc.battlefield) if doc is not None else []
        self._issues = sorted(found, key=lambda i: i.severity is not Severity.ERROR)
        self.list.clear()
        for issue in self._issues:
            item = QListWidgetItem(severity_icon(issue.severity.value), issue.message)
            item.setData(_ID, issue.item_id)
            item.setToolTip(
                f"{issue.severity.value.title()}: {issue.message}\n"
                "Double-click to select it on the table. The table can still be saved."
            )
            self.list.addItem(item)
        # An empty list reads as broken; say plainly that the table is fine.
        all_clear = not self._issues and doc is not None
        self.pages.setCurrentWidget(self.all_clear if all_clear else self.list)
        count = len(self._issues)
        self.setWindowTitle(f"Issues ({count})" if count else "Issues")

    def _on_activated(self, item: QListWidgetItem) -> None:
        item_id = item.data(_ID)
        if item_id and self._document is not None:
            self._document.set_selection([str(item_id)])
            self.issue_activated.emit(str(item_id))
