"""The issues dock: what :func:`~crdesk.validation.check_battlefield` finds wrong with the table.

Problems are flagged, never enforced (the table can still be saved), so this
list is where a player finds them; ``crdesk validate`` prints the same ones.
The check runs over the whole table, so a burst of model changes (a drag, an
undo of a macro) is debounced into one run by a single-shot timer rather than
one run per change.  A problem the core knows how to repair (a figure off the
table) offers that repair here, as one undoable step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import ModelError
from crdesk.events import Change
from crdesk.validation import Remedy, Severity, TableIssue, check_battlefield
from ui.background_checks import BackgroundChecks, checks_of
from ui.commands import MoveItemsCommand, item_label
from ui.docks._common import disconnect_quietly, severity_icon
from ui.document import Document
from ui.plain_text import plain_tooltip

DEBOUNCE_MS = 200
"""Quiet time after the last model change before the table is checked again."""

_ID = Qt.ItemDataRole.UserRole
_INDEX = Qt.ItemDataRole.UserRole + 1


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
        self.list.currentItemChanged.connect(self._update_fix)
        # The repair is offered twice: on the row's context menu and as a button
        # under the list (a context menu alone is found by few players).
        self.fix_action = QAction("Fix", self)
        self.fix_action.setEnabled(False)
        self.fix_action.triggered.connect(self.apply_fix)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.list.addAction(self.fix_action)
        self.fix_button = QPushButton("Fix")
        self.fix_button.setEnabled(False)
        self.fix_button.setVisible(False)
        self.fix_button.setToolTip("Repair the chosen problem (one undo step)")
        self.fix_button.clicked.connect(self.fix_action.trigger)
        self.all_clear = QLabel("No problems found on the table.")
        self.all_clear.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.all_clear.setWordWrap(True)
        self.all_clear.setContentsMargins(8, 8, 8, 8)
        self.all_clear.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.list)
        self.pages.addWidget(self.all_clear)
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.pages, 1)
        column.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.setWidget(body)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        self._issues: list[TableIssue] = []
        self._document: Document | None = None
        self._listening: BackgroundChecks | None = None
        self.set_document(document)

    @property
    def document(self) -> Document | None:
        return self._document

    @property
    def issues(self) -> list[TableIssue]:
        """The problems last shown, errors first."""
        return list(self._issues)

    def set_document(
        self, document: Document | None, issues: list[TableIssue] | None = None
    ) -> None:
        """Check another open document (or none), at once; ``issues``: its checks, made
        beforehand (in the worker that read the file: seconds at the limits)."""
        if self._document is not None:
            disconnect_quietly(self._document, "model_changed", self._on_model_changed)
        self._document = document
        if document is not None:
            document.model_changed.connect(self._on_model_changed)
        self.refresh(issues)

    def _on_model_changed(self, _change: Change) -> None:
        self.timer.start()  # restarts: many changes in a burst cost one check

    def refresh(self, issues: list[TableIssue] | None = None) -> None:
        """Check the table now (or show ``issues``, its checks made elsewhere) and show
        the result (the timer calls this)."""
        self.timer.stop()
        doc = self._document
        if issues is not None:
            found = list(issues)
            if doc is not None:
                checks_of(doc).seed(doc.battlefield.revision, found)
        elif doc is not None and (checks := checks_of(doc)).heavy:
            # a huge table: checked in the worker, the last list shown meanwhile
            ready = checks.result_for(doc.battlefield.revision)
            if ready is None:
                self._listen(checks)
                checks.request()
                return
            found = ready
        else:
            found = check_battlefield(doc.battlefield) if doc is not None else []
        if doc is not None:  # what opening the file repaired, until it is saved
            found = [
                TableIssue(n.item_id, Severity.WARNING, n.message, n.path) for n in doc.load_notes
            ] + found
        current = self.current_issue()  # kept current across the refresh, when still there
        self._issues = sorted(found, key=lambda i: i.severity is not Severity.ERROR)
        self.list.clear()
        for index, issue in enumerate(self._issues):
            item = QListWidgetItem(severity_icon(issue.severity.value), issue.message)
            item.setData(_ID, issue.item_id)
            item.setData(_INDEX, index)
            fix = f"\nRight-click: {issue.remedy.label}." if issue.remedy else ""
            item.setToolTip(  # the message holds names: the user's text (issue 17)
                plain_tooltip(
                    f"{issue.severity.value.title()}: {issue.message}\n"
                    f"In the file: {issue.path or 'the whole table'}\n"
                    "Double-click to select it on the table. The table can still be saved." + fix
                )
            )
            self.list.addItem(item)
            if current is not None and (issue.item_id, issue.path) == (
                current.item_id,
                current.path,
            ):
                self.list.setCurrentItem(item)
        self._update_fix()
        # An empty list reads as broken; say plainly that the table is fine.
        all_clear = not self._issues and doc is not None
        self.pages.setCurrentWidget(self.all_clear if all_clear else self.list)
        count = len(self._issues)
        self.setWindowTitle(f"Issues ({count})" if count else "Issues")

    def _listen(self, checks: BackgroundChecks) -> None:
        if self._listening is not checks:
            if self._listening is not None:
                disconnect_quietly(self._listening, "checked", self._checked)
            checks.checked.connect(self._checked)
            self._listening = checks

    def _checked(self, revision: int) -> None:
        doc = self._document
        if doc is not None and doc.battlefield.revision == revision:
            self.refresh(checks_of(doc).result_for(revision))

    def current_issue(self) -> TableIssue | None:
        """The issue of the list's current row, if any."""
        item = self.list.currentItem()
        index = item.data(_INDEX) if item is not None else None
        if isinstance(index, int) and 0 <= index < len(self._issues):
            return self._issues[index]
        return None

    def _update_fix(self, *_args: object) -> None:
        issue = self.current_issue()
        remedy = issue.remedy if issue is not None else None
        label = remedy.label if remedy else "Fix"
        for control in (self.fix_action, self.fix_button):
            control.setEnabled(remedy is not None)
            control.setText(label)
        self.fix_button.setVisible(any(i.remedy for i in self._issues))

    def apply_fix(self) -> None:
        """Carry out the current issue's repair as one undo step (e.g. "Move … onto the table")."""
        if self.timer.isActive():  # the table changed since the check: repair what is there now
            self.refresh()
        issue = self.current_issue()
        doc = self._document
        if issue is None or issue.remedy is None or doc is None:
            return
        command = _remedy_command(doc, issue.remedy)
        if command is not None:
            doc.undo_stack.push(command)
            doc.set_selection([issue.remedy.figure_id])
            self.refresh()

    def _on_activated(self, item: QListWidgetItem) -> None:
        item_id = item.data(_ID)
        if item_id and self._document is not None:
            self._document.set_selection([str(item_id)])
            self.issue_activated.emit(str(item_id))


def _remedy_command(document: Document, remedy: Remedy) -> MoveItemsCommand | None:
    """The undo step of a repair: the figure moved to the spot the checks chose."""
    try:
        figure = document.battlefield.figure(remedy.figure_id)
    except ModelError:  # gone since the check ran
        return None
    name = item_label(document.battlefield, figure.id)
    old = (figure.x, figure.y, figure.facing)
    new = (remedy.x, remedy.y, figure.facing)
    text = f"Move {name} onto the table"
    return MoveItemsCommand(document, figure_moves={figure.id: (old, new)}, text=text)
