"""A worker whose owner closed is kept until its thread ends, and let go of on the GUI
thread (a QThread whose last reference went inside its own thread, from a slot its
``finished`` ran there, was destroyed still running: "QThread: Destroyed while thread
is still running", and the app aborted when a window closed during its table checks)."""

from __future__ import annotations

import threading
import time
from typing import Any

from ui.progress import Progress, Worker, keep_until_finished, kept_workers


def test_a_closed_owner_s_worker_is_let_go_of_on_the_gui_thread(qtbot: Any) -> None:
    gate = threading.Event()
    worker = Worker(lambda _p: gate.wait(5) and time.sleep(0.02), Progress())
    worker.start()
    before = kept_workers()
    keep_until_finished(worker)
    del worker  # the owner is gone: only the keeper holds it
    assert kept_workers() == before + 1
    gate.set()
    qtbot.waitUntil(lambda: kept_workers() == before, timeout=5000)


def test_a_worker_already_finished_is_not_kept(qtbot: Any) -> None:
    worker = Worker(lambda _p: None, Progress())
    worker.start()
    worker.wait()
    before = kept_workers()
    keep_until_finished(worker)
    assert kept_workers() == before
