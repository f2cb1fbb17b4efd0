"""The LOS probe after its viewer is deleted: the next click starts afresh.

The probe kept the deleted figure as its viewer; the next click asked for sight
from a figure that no longer exists, the ValueError escaped from the tools' event
filter, and PySide crashed reporting it (the GUI monkey's segfault, seed 312:
drag e3, Delete, click).
"""

from __future__ import annotations

from tests.ui.mouse import click
from tests.ui.sample import make_scenario
from ui.commands import RemoveItemsCommand
from ui.main_window import MainWindow


def test_a_click_after_the_viewer_was_deleted_probes_nothing(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(900, 800)
    window.show()
    qtbot.waitExposed(window)
    editor, doc = window.editor, window.document
    bf = doc.battlefield
    editor.set_tool("los")
    e1 = bf.figure("e1")
    click(editor.view, e1.x, e1.y)  # the viewer chosen, the line not pinned yet
    assert editor.tool.viewer == "e1"
    doc.undo_stack.push(RemoveItemsCommand(doc, ["e1"]))
    click(editor.view, 33.0, 33.0)  # no viewer any more: nothing raised, nothing probed
    assert editor.tool.viewer is None and editor.tool.result is None
    assert editor.tool.probe(window.view.mapToScene(10, 10)) is None
    p1 = bf.figure("p1")
    click(editor.view, p1.x, p1.y)  # a new viewer is taken as usual
    assert editor.tool.viewer == "p1"
    doc.undo_stack.setClean()
