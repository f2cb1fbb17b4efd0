"""Autosave and crash recovery: a killed session's edits come back on the next start."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from crdesk import scenario as io
from crdesk.recovery import RecoveryStore
from crdesk.resources import demo_scenario
from ui.autosave import Autosaver
from ui.commands import ChangeValueCommand
from ui.document import Document

CRASHING_SESSION = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from crdesk import scenario as io
from crdesk.recovery import RecoveryStore
from crdesk.resources import demo_scenario
from ui.autosave import Autosaver
from ui.commands import ChangeValueCommand, MoveItemsCommand
from ui.document import Document

app = QCoreApplication([])
doc = Document(io.load(Path(str(demo_scenario()))), path=sys.argv[2])
saver = Autosaver(doc, RecoveryStore(sys.argv[1]), interval_ms=50)
doc.undo_stack.push(ChangeValueCommand(doc, "p2", "name", "Cpl. Crash"))
doc.undo_stack.push(MoveItemsCommand(doc, figure_moves={"p1": ((17, 32, 0), (20, 25, 90))}))
deadline = time.time() + 10
while not list(Path(sys.argv[1]).glob("*.json")) and time.time() < deadline:
    app.processEvents()
    time.sleep(0.01)
print("autosaved", flush=True)
time.sleep(60)
"""


def test_killed_session_is_restored_from_its_recovery_file(tmp_path: Path) -> None:
    folder = tmp_path / "recovery"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASHING_SESSION, str(folder), str(tmp_path / "mine.crdesk")],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "autosaved"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()
    entries = RecoveryStore(folder).pending()
    assert len(entries) == 1
    assert entries[0].original_path == tmp_path / "mine.crdesk"
    restored = entries[0].load()
    assert restored.battlefield.figure("p2").name == "Cpl. Crash"
    assert restored.battlefield.figure("p1").position == (20, 25)
    assert restored.battlefield.figure("p1").facing == 90


def test_autosave_writes_only_unsaved_changes_and_cleans_up(qtbot, tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path / "rec")
    doc = Document(io.load(Path(str(demo_scenario()))))
    saver = Autosaver(doc, store)
    assert saver.autosave() is None  # nothing to save yet
    doc.undo_stack.push(ChangeValueCommand(doc, "p2", "rep", 5))
    written = saver.autosave()
    assert written is not None and written.is_file()
    assert saver.autosave() is None  # no change since
    assert store.pending() == []  # our own live process is not a crash
    doc.save(tmp_path / "saved.crdesk")
    assert not written.exists()
    doc.undo_stack.push(ChangeValueCommand(doc, "p2", "rep", 6))
    assert saver.autosave() is not None
    saver.stop()
    assert list((tmp_path / "rec").iterdir()) == []
