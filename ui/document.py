"""One open scenario: the model, its undo stack, its file and its selection.

The document is the editor's single owner of a :class:`~crdesk.model.Scenario`
(the Tiled pattern).  Undo commands call model methods; the model announces
each :class:`~crdesk.events.Change`; the document re-emits it as a Qt signal so
scenes, docks and the window refresh just what changed.  The window's modified
mark is the undo stack's clean state.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QUndoStack

from crdesk import scenario as scenario_io
from crdesk.events import Change, ChangeKind
from crdesk.model import Battlefield, Scenario


class Document(QObject):
    """An open scenario with undo, a file path and a selection of model ids."""

    model_changed = Signal(object)
    """Emitted with each :class:`~crdesk.events.Change` of the battlefield."""
    selection_changed = Signal()
    modified_changed = Signal(bool)
    path_changed = Signal(object)

    def __init__(
        self, scenario: Scenario, path: str | Path | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self._path = Path(path) if path else None
        self.load_notes = list(scenario.load_notes)
        """What reading the file repaired, said until a save writes the table as played."""
        self._selection: list[str] = []
        self.edit_session = 0
        """Bumped when the selection changes, so property edits never merge across it."""
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._unsubscribe = scenario.battlefield.subscribe(_weak_listener(self._on_change))

    # -- model ----------------------------------------------------------------

    @property
    def battlefield(self) -> Battlefield:
        return self.scenario.battlefield

    @Slot(bool)
    def _on_clean_changed(self, clean: bool) -> None:
        # a declared slot: Qt ends the connection with the document, before the
        # stack (a child) clears itself, and emits, in its destructor
        self.modified_changed.emit(not clean)

    def _on_change(self, change: Change) -> None:
        if change.kind is ChangeKind.REMOVED and change.id in self._selection:
            self._selection.remove(change.id)
            self.selection_changed.emit()
        elif change.kind is ChangeKind.RESET:
            self.set_selection(self._selection)  # keeps only ids that still exist
        self.model_changed.emit(change)

    def close(self) -> None:
        """Stop listening to the model (the document is being thrown away)."""
        self._unsubscribe()

    # -- file -----------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def display_name(self) -> str:
        return self._path.name if self._path else "Untitled"

    def save(self, path: str | Path | None = None) -> Path:
        """Save atomically to ``path`` (or the current path) and mark the stack clean."""
        target = Path(path) if path else self._path
        if target is None:
            raise ValueError("the document has no file name yet; use Save As")
        scenario_io.save(self.scenario, target)
        self.load_notes = []  # the file now holds the repaired table
        if target != self._path:
            self._path = target
            self.path_changed.emit(target)
        self.undo_stack.setClean()
        return target

    # -- selection ------------------------------------------------------------

    @property
    def selection(self) -> list[str]:
        return list(self._selection)

    def set_selection(self, ids: list[str]) -> None:
        """Select model ids (features and figures), ignoring ids that do not exist."""
        known = [i for i in dict.fromkeys(ids) if self._exists(i)]
        if known != self._selection:
            self._selection = known
            self.edit_session += 1
            self.selection_changed.emit()

    def _exists(self, item_id: str) -> bool:
        bf = self.battlefield
        return any(f.id == item_id for f in bf.terrain) or any(
            f.id == item_id for f in bf.figures()
        )


def _weak_listener(method: Callable[[Change], None]) -> Callable[[Change], None]:
    """A model listener that does not keep its document alive.

    A document must never sit in a reference cycle: only then is it destroyed
    the moment its last reference goes, with its undo stack and the stack's
    commands, in Qt's order.  Left to Python's cycle collector, the commands'
    wrappers may go first and the stack then deletes them a second time.
    """
    ref = weakref.WeakMethod(method)

    def forward(change: Change) -> None:
        bound = ref()
        if bound is not None:
            bound(change)

    return forward
