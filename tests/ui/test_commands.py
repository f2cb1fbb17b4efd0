"""Undo commands change the model, undo restores it exactly, and merging works."""

from pathlib import Path

from shapely.geometry import box

from crdesk import scenario as io
from crdesk.model import Figure, TerrainFeature, TerrainKind
from crdesk.resources import demo_scenario
from ui.commands import (
    AddFeatureCommand,
    AddFigureCommand,
    ChangeValueCommand,
    MoveItemsCommand,
    RemoveItemsCommand,
)
from ui.document import Document


def _doc() -> Document:
    return Document(io.load(Path(str(demo_scenario()))))


def _snapshot(doc: Document) -> str:
    return io.dumps(doc.scenario)


def test_add_remove_move_undo_redo_restore_exactly(qtbot) -> None:
    doc = _doc()
    start = _snapshot(doc)
    stack = doc.undo_stack
    stack.push(
        AddFeatureCommand(doc, TerrainFeature("w9", TerrainKind.WOODS, "New", box(1, 1, 4, 4)))
    )
    stack.push(RemoveItemsCommand(doc, ["building-2", "e3"]))
    stack.push(MoveItemsCommand(doc, {"woods-1": (2.0, -1.0)}, {"p1": ((17, 32, 0), (18, 30, 45))}))
    stack.push(AddFigureCommand(doc, "player", Figure("p9", "Rookie", 3, x=5, y=34)))
    bf = doc.battlefield
    assert bf.feature("w9").name == "New"
    assert "building-2" not in {f.id for f in bf.terrain}
    assert bf.figure("p1").position == (18, 30) and bf.figure("p1").facing == 45
    assert bf.figure("p9").side == "player"
    assert stack.undoText() == "Add Rookie"
    assert doc.is_modified
    after = _snapshot(doc)
    while stack.canUndo():
        stack.undo()
    assert _snapshot(doc) == start
    assert not doc.is_modified
    while stack.canRedo():
        stack.redo()
    assert _snapshot(doc) == after


def test_removed_items_come_back_in_their_old_order(qtbot) -> None:
    doc = _doc()
    order = [f.id for f in doc.battlefield.terrain]
    roster = [f.id for f in doc.battlefield.force("enemy").figures]
    doc.undo_stack.push(RemoveItemsCommand(doc, ["woods-1", "building-3", "e2", "e1"]))
    assert doc.undo_stack.undoText() == "Delete 4 Items"
    doc.undo_stack.undo()
    assert [f.id for f in doc.battlefield.terrain] == order
    assert [f.id for f in doc.battlefield.force("enemy").figures] == roster


def test_change_value_merges_and_vanishes_when_net_change_is_nothing(qtbot) -> None:
    doc = _doc()
    stack = doc.undo_stack
    stack.push(ChangeValueCommand(doc, "p2", "rep", 5))
    stack.push(ChangeValueCommand(doc, "p2", "rep", 6))
    assert stack.count() == 1 and doc.battlefield.figure("p2").rep == 6
    assert stack.undoText() == "Change Rep of Cpl. Diaz"  # the history names the figure
    stack.push(ChangeValueCommand(doc, "p2", "rep", 4))  # back to the start
    assert stack.count() == 0
    assert not doc.is_modified
    stack.push(ChangeValueCommand(doc, "woods-1", "name", "Old park"))
    stack.push(ChangeValueCommand(doc, "p2", "name", "Corporal"))
    assert stack.count() == 2
    stack.undo()
    stack.undo()
    assert doc.battlefield.feature("woods-1").name == "Town park"


def test_document_save_marks_clean_and_reports_changes(qtbot, tmp_path: Path) -> None:
    doc = _doc()
    changes = []
    doc.model_changed.connect(changes.append)
    doc.set_selection(["woods-1", "nope", "p1"])
    assert doc.selection == ["woods-1", "p1"]
    doc.undo_stack.push(RemoveItemsCommand(doc, ["woods-1"]))
    assert doc.selection == ["p1"]
    assert [c.id for c in changes] == ["woods-1"]
    with qtbot.waitSignal(doc.modified_changed):
        doc.save(tmp_path / "saved.crdesk")
    assert not doc.is_modified and doc.display_name == "saved.crdesk"
    assert "woods-1" not in {f.id for f in io.load(tmp_path / "saved.crdesk").battlefield.terrain}
    doc.close()


def test_change_value_does_not_merge_across_a_selection_change(qtbot) -> None:
    doc = _doc()
    doc.set_selection(["p2"])
    doc.undo_stack.push(ChangeValueCommand(doc, "p2", "rep", 5))
    doc.set_selection(["p3"])
    doc.set_selection(["p2"])
    doc.undo_stack.push(ChangeValueCommand(doc, "p2", "rep", 6))
    assert doc.undo_stack.count() == 2


def test_a_document_with_commands_is_freed_without_the_cycle_collector(qtbot) -> None:
    """No reference cycle: the document dies at once, its stack deleting its commands.

    Left to the cycle collector, the commands' wrappers could be freed before
    the stack that owns them, which then deletes them again (a segfault).
    """
    import gc
    import weakref

    gc.disable()
    try:
        doc = _doc()
        doc.undo_stack.push(MoveItemsCommand(doc, {"woods-1": (2.0, -1.0)}, {}))
        doc.undo_stack.push(ChangeValueCommand(doc, "p1", "rep", 3))
        doc.undo_stack.undo()
        gone = weakref.ref(doc)
        del doc
        assert gone() is None
    finally:
        gc.enable()


def test_closing_a_window_then_dropping_a_document_does_not_crash(tmp_path: Path) -> None:
    """The sequence that crashed the cycle collector, in a process of its own."""
    import os
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        """
        import gc
        from PySide6.QtCore import QCoreApplication, QEvent, QStandardPaths
        from PySide6.QtWidgets import QApplication
        QStandardPaths.setTestModeEnabled(True)
        app = QApplication([])
        from crdesk.generator import generate
        from ui.app import open_window
        from ui.commands import ReplaceTerrainCommand
        from ui.document import Document
        window = open_window(None, show_error=lambda title, text: None)
        window.show()
        app.processEvents()
        window.close()
        window.deleteLater()
        del window
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        new = generate(42, terrain_type="urban")
        doc = Document(generate(1, terrain_type="wooded"))
        bf = new.battlefield
        doc.undo_stack.push(ReplaceTerrainCommand(doc, bf.table, bf.terrain, new.generation))
        del doc
        gc.collect()
        print("survived")
        """
    )
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(Path.cwd()),
        HOME=str(tmp_path),  # settings and recovery files stay in the test's folder
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "survived" in done.stdout
