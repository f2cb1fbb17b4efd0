"""Issue 15, item 3: a figure off the table is reachable and repairable in the editor.

The Issues dock lists what :func:`crdesk.validation.check_battlefield` finds (the
same checks ``crdesk validate`` prints); from there the figure is found on screen,
its position typed in the properties dock, or moved onto the table in one step.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication

from tests.ui.windows import EDITOR_SIZE, demo, open_window
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")
OFF = (-30.0, 10.0)


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    scenario = demo()
    scenario.battlefield.move_figure("p1", *OFF)  # Sgt. Mace, 30" left of the table
    return open_window(qtbot, scenario, size=EDITOR_SIZE, recovery=tmp_path / "rec")


def _on_screen(window: MainWindow, x: float, y: float) -> bool:
    view = window.view
    return view.viewport().rect().contains(view.mapFromScene(QPointF(x, y)))


def _row(window: MainWindow, text: str) -> int:
    dock = window.issues_dock
    rows = [dock.list.item(i).text() for i in range(dock.list.count())]
    return next(i for i, t in enumerate(rows) if text in t)


def _off_table_row(window: MainWindow) -> int:
    return _row(window, "Sgt. Mace is off the table")


def test_double_click_and_zoom_to_selection_reach_a_figure_off_the_table(
    window: MainWindow, qtbot
) -> None:
    dock = window.issues_dock
    assert dock.list.item(_off_table_row(window)).text() == (
        'Sgt. Mace is off the table at (-30.0", 10.0")'
    )
    assert not _on_screen(window, *OFF)  # fitted to the table: out of sight
    item = dock.list.item(_off_table_row(window))
    rect = dock.list.visualItemRect(item)
    qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.document.selection == ["p1"]
    assert _on_screen(window, *OFF)
    window.view.fit_table()
    assert not _on_screen(window, *OFF)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert _on_screen(window, *OFF)
    # the whole base and its margin, not just the centre
    shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert shown.contains(QRectF(OFF[0] - 2.5, OFF[1] - 2.5, 5, 5))


def test_typing_a_position_in_the_properties_dock_moves_it_back(window: MainWindow, qtbot) -> None:
    doc = window.document
    doc.set_selection(["p1"])
    form = window.properties_dock.figure_form
    assert form.x_spin.isVisibleTo(window) and form.x_spin.value() == pytest.approx(-30.0)
    assert form.position_label.text() == "off the table"
    SHOTS.mkdir(exist_ok=True)
    window.properties_dock.grab().save(str(SHOTS / "properties-position.png"))
    form.x_spin.setFocus()
    qtbot.keyClick(form.x_spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(form.x_spin, "12")
    assert doc.battlefield.figure("p1").x == pytest.approx(-30.0)  # not per key
    qtbot.keyClick(form.x_spin, Qt.Key.Key_Return)
    assert doc.battlefield.figure("p1").x == pytest.approx(12.0)
    assert doc.undo_stack.undoText() == "Move Sgt. Mace"
    assert form.position_label.text().startswith("section")
    qtbot.waitUntil(lambda: window.issues_dock.windowTitle() == "Issues", timeout=2000)
    qtbot.keyClick(form.y_spin, Qt.Key.Key_Up)  # an arrow step moves it half an inch
    assert doc.battlefield.figure("p1").y == pytest.approx(10.5)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert (doc.battlefield.figure("p1").x, doc.battlefield.figure("p1").y) == OFF
    assert form.x_spin.value() == pytest.approx(-30.0)


def test_the_issue_offers_move_onto_the_table_as_one_undo_step(window: MainWindow, qtbot) -> None:
    doc, dock = window.document, window.issues_dock
    dock.raise_()
    assert dock.fix_button.isVisibleTo(window)
    assert not dock.fix_action.isEnabled()  # no row chosen yet
    rows = dock.list
    rows.setCurrentRow(_off_table_row(window))
    assert dock.fix_action.isEnabled() and dock.fix_button.text() == "Move onto the table"
    assert dock.fix_action in rows.actions()  # also on the row's context menu
    SHOTS.mkdir(exist_ok=True)
    QApplication.processEvents()  # the dock lays the button out for its new text
    window.grab().save(str(SHOTS / "issues-move-onto-table.png"))
    qtbot.mouseClick(dock.fix_button, Qt.MouseButton.LeftButton)
    figure = doc.battlefield.figure("p1")
    assert (figure.x, figure.y) == (pytest.approx(figure.radius), pytest.approx(10.0))
    assert doc.battlefield.section_at(figure.x, figure.y) == 1
    assert doc.undo_stack.undoText() == "Move Sgt. Mace onto the table"
    assert not any("off the table" in i.message for i in dock.issues)
    assert not dock.fix_button.isVisibleTo(window)  # nothing left to repair
    doc.undo_stack.undo()
    assert (doc.battlefield.figure("p1").x, doc.battlefield.figure("p1").y) == OFF
    qtbot.waitUntil(lambda: any("off the table" in i.message for i in dock.issues), timeout=2000)
    QApplication.processEvents()


def test_the_repair_uses_where_the_figure_is_now(window: MainWindow, qtbot) -> None:
    """Moved again before the recheck ran, the figure is put on the table near its new spot."""
    doc, dock = window.document, window.issues_dock
    dock.list.setCurrentRow(_off_table_row(window))
    doc.battlefield.move_figure("p1", -20.0, 30.0)  # still off the table; check not rerun yet
    assert dock.timer.isActive()
    qtbot.mouseClick(dock.fix_button, Qt.MouseButton.LeftButton)
    figure = doc.battlefield.figure("p1")
    assert (figure.x, figure.y) == (pytest.approx(figure.radius), pytest.approx(30.0))
