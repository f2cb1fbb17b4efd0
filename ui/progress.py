"""Slow work off the GUI thread, with a progress dialog that appears only when it is slow.

Opening a file at the limits, exporting a 480" table or rasterising its sight
grid can take seconds to minutes.  :func:`run_job` runs such a job in a worker
thread while the window keeps repainting; after :data:`SHOW_AFTER_MS` a modal
progress dialog says what is happening (with Cancel where the job can stop).
Until the dialog shows, the local event loop takes no user input, so a click
meant for the window cannot start a second job in the middle of the first.

A job never touches the user's document: it computes from what it was given
and returns a result the GUI thread then uses, so a job that fails or is
cancelled leaves the document as it was.  The job's own exception is raised
again in the GUI thread for the caller to report.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, Qt, QThread, QTimer
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

T = TypeVar("T")

SHOW_AFTER_MS = 300
"""A job that ends sooner shows no dialog at all (issue 17: progress for anything over ~0.3 s)."""
QUICK_MS = 50
"""A job done within this is waited for outright, with no event loop run meanwhile."""
POLL_MS = 40
"""How often the dialog reads the job's progress (the job never calls into Qt)."""


class Cancelled(Exception):
    """The user pressed Cancel; raised inside the job by :meth:`Progress.update` and
    again by :func:`run_job` to its caller."""


class Progress:
    """What a running job tells the dialog, and how it hears of Cancel (thread safe).

    The job calls :meth:`update` now and then; the dialog polls :meth:`state`.
    A job that cannot stop half way simply never calls :meth:`update`, and
    :func:`run_job` is then called with ``cancellable=False``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._text: str | None = None
        self._cancelled = threading.Event()

    def update(self, done: int = 0, total: int = 0, text: str | None = None) -> None:
        """Say how far the job is (``total`` 0: no count, a busy bar); raise
        :class:`Cancelled` when the user asked to stop."""
        with self._lock:
            self._done, self._total = done, total
            if text is not None:
                self._text = text
        self.check()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the user asked to stop."""
        if self._cancelled.is_set():
            raise Cancelled("cancelled")

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def state(self) -> tuple[int, int, str | None]:
        with self._lock:
            return self._done, self._total, self._text


class _Worker(QThread):
    """Runs the job once; a QThread (not a bare Python thread) so the Qt objects a job
    makes (an export's scene) have an event dispatcher and are deleted when it ends."""

    def __init__(self, job: Callable[[Progress], Any], progress: Progress) -> None:
        super().__init__()
        self.job = job
        self.progress = progress
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.job(self.progress)
        except BaseException as exc:  # handed to the GUI thread, raised there
            self.error = exc


class ProgressDialog(QDialog):
    """What the slow job is doing, how far it is, and Cancel.

    Not a QProgressDialog: that one hides itself on Cancel, which would let
    clicks reach the window while the job winds down.  This one stays up,
    modal, until the job has really ended; Escape and the close box ask to
    cancel like the button.
    """

    def __init__(self, title: str, text: str, cancellable: bool, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setMinimumWidth(320)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy until the job gives a count
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.request_cancel)
        self.buttons.setVisible(cancellable)
        self.cancellable = cancellable
        self.cancel_requested = False
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.buttons)

    def request_cancel(self) -> None:
        if self.cancellable and not self.cancel_requested:
            self.cancel_requested = True
            self.buttons.setEnabled(False)
            self.label.setText("Cancelling…")

    def show_state(self, done: int, total: int, text: str | None) -> None:
        if text is not None and not self.cancel_requested and self.label.text() != text:
            self.label.setText(text)
        if total > 0:
            if self.bar.maximum() != total:
                self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))

    def reject(self) -> None:  # Escape: a request, never a close while the job runs
        self.request_cancel()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.request_cancel()
        event.ignore()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.request_cancel()
            return
        super().keyPressEvent(event)


def run_job(
    parent: QWidget | None,
    title: str,
    text: str,
    job: Callable[[Progress], T],
    *,
    cancellable: bool = True,
    show_after_ms: int = SHOW_AFTER_MS,
    dialog_shown: Callable[[ProgressDialog], None] | None = None,
) -> T:
    """Run ``job(progress)`` in a worker thread and return its result.

    The GUI thread keeps its event loop running meanwhile (paints, timers);
    user input waits until the modal dialog is up, which happens once the job
    has run ``show_after_ms``.  Raises the job's exception, or
    :class:`Cancelled` when the user pressed Cancel (the job's result, if it
    still came, is dropped).  ``dialog_shown`` is told of the dialog (tests).
    """
    progress = Progress()
    worker = _Worker(job, progress)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    dialog = ProgressDialog(title, text, cancellable, parent)
    started = time.monotonic()

    def poll() -> None:
        if worker.isFinished():
            loop.quit()
            return
        if not dialog.isVisible() and (time.monotonic() - started) * 1000 >= show_after_ms:
            dialog.show()
            if dialog_shown is not None:
                dialog_shown(dialog)
            loop.quit()  # go on in the loop that takes input (the dialog is modal now)
        if dialog.cancel_requested:
            progress.cancel()
        dialog.show_state(*progress.state())

    timer = QTimer()
    timer.setInterval(POLL_MS)
    timer.timeout.connect(poll)
    timer.start()
    worker.start()
    # most jobs are quick: wait for them without running a nested event loop
    # (which would also run timers and deferred deletes the caller did not expect)
    worker.wait(QUICK_MS)
    try:
        if not worker.isFinished():
            # before the dialog: paints and timers only, no clicks or keys yet
            loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        if not worker.isFinished():
            loop.exec()
        worker.wait()
    finally:
        timer.stop()
        dialog.hide()
        dialog.deleteLater()
    if progress.cancelled:
        raise Cancelled(f"{title}: cancelled")
    if worker.error is not None:
        raise worker.error
    result: T = worker.result
    return result
