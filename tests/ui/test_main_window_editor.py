"""The main window as an editor: docks, modified mark, save/reopen, close prompt, recovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QMessageBox

from crdesk import scenario as io
from crdesk.generator import generate
from crdesk.recovery import RecoveryStore
from crdesk.resources import demo_scenario
from tests.ui.mouse import click, drag, send
from tests.ui.windows import open_window
from ui.app import recover_windows
from ui.commands import ReplaceTerrainCommand
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, size=(1400, 950), recovery=tmp_path / "rec")


def test_edit_marks_modified_save_reopen_and_compare(window: MainWindow, tmp_path: Path) -> None:
    assert not window.isWindowModified()
    fig = window.scenario.battlefield.figure("p2")
    drag(window.view, [(fig.x, fig.y), (fig.x + 2, fig.y - 2), (fig.x + 4, fig.y - 5)])
    assert window.isWindowModified()
    assert window.editor.undo_action.text() == "&Undo Move Cpl. Diaz"
    target = tmp_path / "edited.crdesk"
    assert window.save_to(target)
    assert not window.isWindowModified()
    assert window.recent_files()[0] == str(target.resolve())
    saved = io.dumps(window.scenario)
    reopened = io.load(target)
    assert io.dumps(reopened) == saved
    assert reopened.battlefield.figure("p2").position == (fig.x, fig.y)
    assert window.open_file(target)
    assert io.dumps(window.scenario) == saved and window.path == target


def test_closing_with_unsaved_changes_asks(window: MainWindow, monkeypatch, qtbot) -> None:
    window.editor.set_tool("select")
    window.document.set_selection(["woods-1"])
    window.editor.delete()
    answers = iter([QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard])
    asked = []

    def fake_warning(*args, **kwargs):
        asked.append(args[2])
        return next(answers)

    monkeypatch.setattr(QMessageBox, "warning", fake_warning)
    assert not window.close()
    assert window.isVisible() and "not saved" in asked[0]
    assert window.close()
    assert len(asked) == 2


def test_generate_onto_the_open_table_is_one_undo_step(window: MainWindow) -> None:
    before = io.dumps(window.scenario)
    generated = generate(7, terrain_type="wooded")
    bf = generated.battlefield
    doc = window.document
    doc.undo_stack.push(ReplaceTerrainCommand(doc, bf.table, bf.terrain, generated.generation))
    assert len(window.scene.terrain_items()) == len(bf.terrain)
    window.editor.undo_action.trigger()
    assert io.dumps(window.scenario) == before
    assert len(window.scene.terrain_items()) == 9


def test_crash_recovery_offers_and_restores(qtbot, tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path / "rec")
    scenario = io.load(Path(str(demo_scenario())))
    scenario.title = "Lost work"
    store.write("deadbeef", scenario, tmp_path / "mine.crdesk")
    note = tmp_path / "rec" / "deadbeef.json"
    note.write_text(
        note.read_text().replace(f'"pid": {__import__("os").getpid()}', '"pid": 999999')
    )
    asked = []
    windows = recover_windows(store, lambda title, text: asked.append(text) or True)
    assert len(windows) == 1 and "Lost work" in asked[0]
    win = windows[0]
    qtbot.addWidget(win)
    assert win.scenario.title == "Lost work" and win.path == tmp_path / "mine.crdesk"
    assert win.isWindowModified() or win.document.is_modified
    assert store.pending() == []


def test_screenshot_of_the_editor_with_a_generated_urban_table(
    window: MainWindow, tmp_path: Path
) -> None:
    generated = generate(42, terrain_type="urban")
    bf = generated.battlefield
    doc = window.document
    doc.undo_stack.push(ReplaceTerrainCommand(doc, bf.table, bf.terrain, generated.generation))
    window.view.fit_table()
    p1 = window.scenario.battlefield.figure("p1")
    click(window.view, p1.x, p1.y)
    window.editor.set_tool("los")
    click(window.view, p1.x, p1.y)
    e1 = window.scenario.battlefield.figure("e1")
    send(
        window.view,
        QEvent.Type.MouseMove,
        e1.x,
        e1.y,
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
    )
    assert window.editor.tool.text
    assert window.properties_dock.current_id() == "p1"
    shot = tmp_path / "editor.png"
    assert window.grab().save(str(shot))
    assert shot.stat().st_size > 50_000


def test_rulers_follow_zoom_and_pointer(window: MainWindow) -> None:
    top, left = window.ruled_view.top, window.ruled_view.left
    start, end = top.visible_range()
    assert start < 0 < 36 < end  # the whole table is in view when fitted
    window.action_zoom_in.trigger()
    window.action_zoom_in.trigger()
    zoomed = top.visible_range()
    assert zoomed[1] - zoomed[0] < end - start
    send(
        window.view, QEvent.Type.MouseMove, 10, 20, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton
    )
    assert top.pointer == pytest.approx(10, abs=0.1) and left.pointer == pytest.approx(20, abs=0.1)
    window.action_rulers.trigger()
    assert not top.isVisible() and not left.isVisible()


def test_a_damaged_recovery_copy_is_said_kept_aside_and_not_asked_again(
    qtbot, tmp_path: Path
) -> None:
    """Issue 17, item 15: a recovery file cut short by the crash."""
    store = RecoveryStore(tmp_path / "rec")
    scenario = io.load(Path(str(demo_scenario())))
    scenario.title = "Half written"
    copy = store.write("cafe", scenario, None)
    copy.write_text(copy.read_text()[:300])  # the crash cut it short
    note = tmp_path / "rec" / "cafe.json"
    note.write_text(
        note.read_text().replace(f'"pid": {__import__("os").getpid()}', '"pid": 999999')
    )
    told: list[str] = []
    windows = recover_windows(store, lambda t, x: True, lambda title, text: told.append(text))
    assert windows == []
    assert told and "Half written" in told[0] and "kept as" in told[0]
    assert (tmp_path / "rec" / "cafe.crdesk.unreadable").exists()
    assert store.pending() == []  # the question does not come back


def test_an_autosave_that_cannot_write_is_said_at_once(qtbot, tmp_path: Path) -> None:
    blocker = tmp_path / "rec"
    blocker.write_text("a file where the recovery folder should be")
    win = MainWindow(io.load(Path(str(demo_scenario()))), recovery=RecoveryStore(blocker))
    qtbot.addWidget(win)
    doc = win.document
    assert doc is not None and win.autosaver is not None
    doc.battlefield.move_figure("p1", 10.0, 10.0)
    doc.undo_stack.push(QUndoCommand("edit"))  # the document now has unsaved work
    assert win.autosaver.autosave() is None
    assert win.statusBar().currentMessage().startswith("Autosave failed: Crash recovery")
