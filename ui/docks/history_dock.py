"""The history dock: the document's undo stack as a list; clicking a row undoes or redoes to it.

Qt's ``QUndoView`` already does all of this from the stack itself; the dock only
names the base state and marks the saved (clean) step, so the list reads as a
history of the table rather than of an abstract stack.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QDockWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QUndoView,
    QWidget,
)

from ui.docks._common import ICON_SIZE, clean_icon
from ui.document import Document

EMPTY_LABEL = "<Opened table>"
"""The row before the first edit: clicking it undoes everything."""


class _IconColumnDelegate(QStyledItemDelegate):
    """Reserve the icon's room on every row, so the saved mark does not indent one row only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        blank = QPixmap(ICON_SIZE, ICON_SIZE)
        blank.fill(QColor(0, 0, 0, 0))
        self._blank = QIcon(blank)

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        if option.icon.isNull():
            option.icon = self._blank
            option.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
            option.decorationSize = QSize(ICON_SIZE, ICON_SIZE)


class HistoryDock(QDockWidget):
    """A ``QUndoView`` on the document's undo stack."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None) -> None:
        super().__init__("History", parent)
        self.setObjectName("HistoryDock")
        self.view = QUndoView()
        self.view.setEmptyLabel(EMPTY_LABEL)
        self.view.setCleanIcon(clean_icon())
        self.view.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.view.setItemDelegate(_IconColumnDelegate(self.view))
        self.view.setToolTip(
            "Every edit, oldest first. Click a row to go back to it; the tick marks "
            "the saved state."
        )
        self.setWidget(self.view)
        self._document: Document | None = None
        self.set_document(document)

    @property
    def document(self) -> Document | None:
        return self._document

    def set_document(self, document: Document | None) -> None:
        """Show another open document's history (or none)."""
        self._document = document
        self.view.setStack(document.undo_stack if document is not None else None)  # type: ignore[arg-type]
