"""The table checks of a huge table, run in a worker after an edit (issue 17).

The Issues dock and the in-place markers both run
:func:`crdesk.validation.check_battlefield` shortly after edits stop.  On an
ordinary table that takes milliseconds; on one far above real use (the same
measure as the sight index, :func:`ui.sight_overlay.index_is_heavy`) it takes
a second or more, twice.  There the check runs once per revision in a worker
on a copy of the battlefield, and both are told the result; until it comes
they show the last one.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, Signal, Slot

from crdesk.validation import TableIssue, check_battlefield
from ui.document import Document
from ui.progress import Progress, Worker, keep_until_finished
from ui.sight_overlay import index_is_heavy


class BackgroundChecks(QObject):
    """The checks of one document's table, one worker run per revision."""

    checked = Signal(int)
    """A revision's issues are ready (:meth:`result_for`)."""

    def __init__(self, document: Document) -> None:
        super().__init__(document)
        self.document = document
        self.heavy = index_is_heavy(document.battlefield)
        self._result: tuple[int, list[TableIssue]] | None = None
        self._worker: Worker | None = None
        self._worker_revision = -1
        self.runs = 0
        """Checks run in the worker (tests)."""

    def result_for(self, revision: int) -> list[TableIssue] | None:
        if self._result is not None and self._result[0] == revision:
            return list(self._result[1])
        return None

    def seed(self, revision: int, issues: list[TableIssue]) -> None:
        """The checks of ``revision`` made elsewhere (the worker that opened the file)."""
        self._result = (revision, list(issues))

    def request(self) -> None:
        """Check the present table in the worker unless that is done or under way."""
        revision = self.document.battlefield.revision
        if self.result_for(revision) is not None or self._worker is not None:
            return
        twin = self.document.battlefield.copy()  # edits meanwhile do not reach it
        self._worker_revision = twin.revision
        self._worker = Worker(lambda _p: check_battlefield(twin), Progress())
        self._worker.finished.connect(self._done)
        self._worker.start()

    @Slot()
    def _done(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.wait()
        if worker.error is None and isinstance(worker.result, list):
            self._result = (self._worker_revision, worker.result)
            self.runs += 1
            self.checked.emit(self._worker_revision)
        if self.document.battlefield.revision != self._worker_revision:
            self.request()  # edits came meanwhile

    def close(self) -> None:
        if self._worker is not None:
            worker = self._worker
            worker.finished.disconnect(self._done)
            keep_until_finished(worker)  # a run for a closed document ends on its own
            self._worker = None


_CHECKS: weakref.WeakKeyDictionary[Document, BackgroundChecks] = weakref.WeakKeyDictionary()


def checks_of(document: Document) -> BackgroundChecks:
    """The document's one :class:`BackgroundChecks` (the dock and the markers share it)."""
    checks = _CHECKS.get(document)
    if checks is None:
        checks = _CHECKS[document] = BackgroundChecks(document)
    return checks
