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
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, QThread, QTimer, Slot
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
BATCH_MS = 30
"""GUI-thread work done between two turns of the event loop (:meth:`ProgressSession.batches`)."""


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


Worker = _Worker


class _Keeper(QObject):
    """Holds workers whose owners are gone until their threads have ended, and lets go of
    them on the GUI thread (a QThread whose last reference goes inside its own thread,
    from a slot run by its ``finished``, is destroyed still running: Qt aborts)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: set[QThread] = set()

    def keep(self, worker: QThread) -> None:
        self.kept.add(worker)
        worker.finished.connect(self._release, Qt.ConnectionType.QueuedConnection)
        if worker.isFinished():
            self._release()

    @Slot()
    def _release(self) -> None:
        for worker in [w for w in self.kept if w.isFinished()]:
            worker.wait()
            self.kept.discard(worker)


_keeper: _Keeper | None = None


def keep_until_finished(worker: QThread) -> None:
    """Keep ``worker`` alive until its thread has ended (its owner closed meanwhile): call
    on the GUI thread.  The reference is dropped there, never in the worker's thread."""
    global _keeper
    if _keeper is None:
        _keeper = _Keeper()
    _keeper.keep(worker)


def kept_workers() -> int:
    """Workers kept for closed owners and still running (tests)."""
    return 0 if _keeper is None else len(_keeper.kept)


"""A job in a thread of its own with no dialog (the sight overlay's rebuilds): start it,
connect ``finished``, read ``result`` or ``error``."""


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
        elif self.bar.maximum() != 0:  # a new phase with no count yet: busy
            self.bar.setRange(0, 0)

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


class ProgressSession(QObject):
    """One progress dialog over the phases of one slow task, e.g. opening a file:
    jobs in a worker thread (:meth:`work`) and GUI-thread work cut into batches
    (:meth:`batches`: what only the GUI thread may do, such as creating scene
    items), the window repainting between them.

    The dialog appears once the whole task has run ``show_after_ms`` (not each
    phase), and Cancel stops the phase running: :class:`Cancelled` is raised to
    the caller, who drops what the task made.  Use as a context manager (the
    dialog goes when the task ends, however it ends).
    """

    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        text: str,
        *,
        cancellable: bool = True,
        show_after_ms: int = SHOW_AFTER_MS,
        dialog_shown: Callable[[ProgressDialog], None] | None = None,
    ) -> None:
        super().__init__()
        self.title = title
        self.progress = Progress()
        self.dialog = ProgressDialog(title, text, cancellable, parent)
        self.show_after_ms = show_after_ms
        self.dialog_shown = dialog_shown
        self.started = time.monotonic()
        self._loop: QEventLoop | None = None
        self._done: Callable[[], bool] = lambda: True
        self._timer = QTimer()
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def __enter__(self) -> ProgressSession:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._timer.stop()
        self.dialog.hide()
        self.dialog.deleteLater()

    @Slot()
    def _wake(self) -> None:
        if self._loop is not None:
            self._loop.quit()

    @property
    def shown(self) -> bool:
        return self.dialog.isVisible()

    def say(self, text: str) -> None:
        """What the task does now (the dialog's label)."""
        with self.progress._lock:
            self.progress._text = text
            self.progress._done = self.progress._total = 0
        self.dialog.show_state(0, 0, text)

    def _poll(self) -> None:
        loop = self._loop
        if self._done():
            if loop is not None:
                loop.quit()
            return
        dialog = self.dialog
        waited_ms = (time.monotonic() - self.started) * 1000
        if not dialog.isVisible() and waited_ms >= self.show_after_ms:
            dialog.show()
            if self.dialog_shown is not None:
                self.dialog_shown(dialog)
            if loop is not None:
                loop.quit()  # go on in the loop that takes input (the dialog is modal now)
        if dialog.cancel_requested:
            self.progress.cancel()
        dialog.show_state(*self.progress.state())

    def _run_until(self, done: Callable[[], bool]) -> None:
        """Run the event loop until ``done()``; paints and timers only until the dialog
        is up (a click meant for the window must not start a second task)."""
        self._done = done
        loop = self._loop = QEventLoop()
        self._timer.start()
        try:
            while not done():
                if self.dialog.isVisible():
                    loop.exec()
                else:
                    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        finally:
            self._timer.stop()
            self._loop = None
            self._done = lambda: True

    def work(self, job: Callable[[Progress], T], text: str | None = None) -> T:
        """Run ``job(progress)`` in a worker thread and return its result (see
        :func:`run_job`)."""
        if text is not None:
            self.say(text)
        if self.progress.cancelled:
            raise Cancelled(f"{self.title}: cancelled")
        worker = _Worker(job, self.progress)
        worker.finished.connect(self._wake)  # queued: the session lives in the GUI thread
        worker.start()
        # most jobs are quick: wait for them without running a nested event loop
        # (which would also run timers and deferred deletes the caller did not expect)
        worker.wait(QUICK_MS)
        try:
            if not worker.isFinished():
                self._run_until(worker.isFinished)
        finally:
            worker.wait()
        if self.progress.cancelled:
            raise Cancelled(f"{self.title}: cancelled")
        if worker.error is not None:
            raise worker.error
        result: T = worker.result
        return result

    def batches(
        self,
        steps: Iterable[tuple[int, int]],
        text: str | None = None,
        budget_ms: int | None = None,
        at_once: bool = True,
    ) -> None:
        """Run ``steps`` (a generator doing GUI-thread work a bit at a time, yielding
        (done, total)) in slices of about ``budget_ms``, the event loop running between
        slices so the window repaints and Cancel is heard.  ``at_once`` False: the loop
        turns before the first slice too (the caller has just kept it busy)."""
        if text is not None:
            self.say(text)
        budget = BATCH_MS if budget_ms is None else budget_ms
        it = iter(steps)
        finished = [False]
        error: list[BaseException] = []

        def slice_() -> None:
            if finished[0]:
                return
            deadline = time.monotonic() + budget / 1000
            try:
                while True:
                    if self.dialog.cancel_requested or self.progress.cancelled:
                        self.progress.cancel()
                        finished[0] = True
                        break
                    done, total = next(it)
                    with self.progress._lock:
                        self.progress._done, self.progress._total = done, total
                    if time.monotonic() >= deadline:
                        break
            except StopIteration:
                finished[0] = True
            except BaseException as exc:  # raised again below, in the caller's frame
                error.append(exc)
                finished[0] = True
            self.dialog.show_state(*self.progress.state())
            if finished[0] and self._loop is not None:
                self._loop.quit()

        stepper = QTimer()
        stepper.setInterval(0)
        stepper.timeout.connect(slice_)
        if at_once:
            slice_()  # the first slice at once: a small task never enters a loop
        if not finished[0]:
            stepper.start()
            try:
                self._run_until(lambda: finished[0])
            finally:
                stepper.stop()
        close = getattr(it, "close", None)
        if close is not None:  # a generator stopped early runs its finally now
            close()
        if error:
            raise error[0]
        if self.progress.cancelled:
            raise Cancelled(f"{self.title}: cancelled")


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
    with ProgressSession(
        parent,
        title,
        text,
        cancellable=cancellable,
        show_after_ms=show_after_ms,
        dialog_shown=dialog_shown,
    ) as session:
        return session.work(job)
