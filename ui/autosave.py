"""Autosave every minute to a recovery file, so a crash loses at most a minute of work."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from crdesk.recovery import RecoveryStore
from ui.document import Document

AUTOSAVE_INTERVAL_MS = 60_000


def default_recovery_folder() -> Path:
    """Per-user folder for recovery files (e.g. ~/.local/share/crdesk/recovery)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".crdesk") / "recovery"


class Autosaver(QObject):
    """Writes a document's recovery entry while it has unsaved changes.

    A recovery entry that cannot be written (disk full, folder gone) never
    raises out of the timer: :attr:`failed` tells the window at once, with the
    reason, and the next tick tries again.  Text no file can hold is written as
    U+FFFD by :func:`crdesk.scenario.dumps`, so a document can always be kept.
    """

    failed = Signal(str)
    """Emitted with a sentence when the recovery entry could not be written."""

    def __init__(
        self,
        document: Document,
        store: RecoveryStore,
        interval_ms: int = AUTOSAVE_INTERVAL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.store = store
        self.key = store.new_key()
        self._written_revision: int | None = None
        self.last_error = ""
        """Why the last autosave failed ("" when it worked)."""
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.autosave)
        self._timer.start()
        document.modified_changed.connect(self._on_modified_changed)

    def autosave(self) -> Path | None:
        """Write the recovery entry if there is something unsaved and new since last time."""
        doc = self.document
        revision = doc.battlefield.revision
        if not doc.is_modified or revision == self._written_revision:
            return None
        try:
            path = self.store.write(self.key, doc.scenario, doc.path)
        except (OSError, ValueError, TypeError) as exc:
            self.last_error = f"Crash recovery could not be written: {exc}"
            self.failed.emit(self.last_error)
            return None
        self.last_error = ""
        self._written_revision = revision
        return path

    def _on_modified_changed(self, modified: bool) -> None:
        if not modified:  # saved, or undone back to the saved state
            self.store.discard(self.key)
            self._written_revision = None

    def stop(self) -> None:
        """The document closes normally: its recovery entry is no longer needed."""
        self._timer.stop()
        self.store.discard(self.key)
