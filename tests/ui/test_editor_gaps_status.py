"""Issue 15, items 5 and 6: statuses count on the table, readable LOS callouts, safety, polish."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from crdesk import scenario as io
from crdesk.model import Status
from crdesk.resources import demo_scenario
from tests.ui.mouse import click, send
from tests.ui.windows import EDITOR_SIZE, open_window
from ui.dialogs.export_dialog import ExportDialog
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(
        qtbot, path=str(demo_scenario()), size=EDITOR_SIZE, recovery=tmp_path / "rec"
    )


def _set_status(window: MainWindow, figure_id: str, status: Status) -> None:
    """Through the properties dock's Status box, as a player would."""
    window.document.set_selection([figure_id])
    combo = window.properties_dock.figure_form.status_combo
    combo.setCurrentIndex(combo.findData(status))


def _lines(window: MainWindow) -> int:
    counts = window.editor.sight.counts
    return sum(counts[k] for k in ("clear", "concealed", "cover", "blocked", "link"))


def test_out_of_the_fight_draws_no_sight_lines_and_the_roster_shows_it(window) -> None:
    window.document.set_selection(["p1"])
    assert _lines(window) > 0
    seen = window.editor.sight.counts["clear"] + window.editor.sight.counts["cover"]
    _set_status(window, "e1", Status.OUT_OF_THE_FIGHT)
    window.document.set_selection(["p1"])
    enemy_lines = sum(
        window.editor.sight.counts[k] for k in ("clear", "concealed", "cover", "blocked")
    )
    assert enemy_lines == 3  # four enemies, one of them down: no line to it
    assert window.editor.sight.counts["clear"] + window.editor.sight.counts["cover"] <= seen
    _set_status(window, "p1", Status.OUT_OF_THE_FIGHT)
    assert window.document.battlefield.figure("p1").status is Status.OUT_OF_THE_FIGHT
    assert _lines(window) == 0  # a downed figure sees nothing and links to no one
    _set_status(window, "p2", Status.DUCK_BACK)
    roster = window.roster_dock
    assert "OOF" in roster.figure_item("p1").text(1)
    assert "OOF" in roster.figure_item("e1").text(1)
    assert "Duck Back" in roster.figure_item("p2").text(1)
    assert "OOF" not in roster.figure_item("p3").text(1)
    # the names stay readable at 1280 px: nothing in the first column is elided
    tree = roster.tree
    for fid in ("p1", "p2", "e1", "p5"):
        row = roster.figure_item(fid)
        needed = tree.fontMetrics().horizontalAdvance(row.text(0)) + tree.indentation() + 16
        assert tree.columnWidth(0) >= needed, fid
    SHOTS.mkdir(parents=True, exist_ok=True)
    roster.grab().save(str(SHOTS / "roster-statuses.png"))


def test_sight_lines_leave_the_rep_number_clear_and_the_front_arc_shows(window) -> None:
    window.document.set_selection(["p1"])
    me = window.document.battlefield.figure("p1")
    path = window.editor.sight.items["clear"].path()
    if path.elementCount() == 0:
        path = window.editor.sight.items["blocked"].path()
    first = path.elementAt(0)
    assert math.hypot(first.x - me.x, first.y - me.y) == pytest.approx(me.radius, abs=1e-6)
    arc = window.editor.sight.arc.path()
    rad = math.radians(me.facing)
    ahead = QPointF(me.x + 2 * math.sin(rad), me.y - 2 * math.cos(rad))
    behind = QPointF(me.x - 2 * math.sin(rad), me.y + 2 * math.cos(rad))
    assert arc.contains(ahead) and not arc.contains(behind)
    arrow = window.editor.sight.arrow.path().boundingRect()
    assert max(arrow.width(), arrow.height()) >= me.radius  # well over the old 4 px notch
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.view.zoom_by(3.0)
    window.view.centerOn(me.x, me.y)
    window.view.grab().save(str(SHOTS / "front-arc.png"))
    window.document.set_selection([])
    assert window.editor.sight.arc.path().isEmpty()


def test_los_callout_is_readable_and_kept_inside_the_view(window, qtbot) -> None:
    view = window.view
    bf = window.document.battlefield
    window.editor.set_tool("los")
    viewer = bf.figure("p1")
    click(view, viewer.x, viewer.y)
    # point at the far right edge of what the view shows
    area = view.viewport().rect()
    edge = view.mapToScene(area.right() - 3, area.bottom() - 3)
    send(view, QEvent_move(), edge.x(), edge.y(), Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)
    tool = window.editor.tool
    assert tool.result is not None
    callout = tool._label
    rect = callout.screen_rect(view)
    assert QRectF(area).contains(rect), (rect, area)
    assert "(15.2)" not in callout.text()
    target = bf.figure("e1")
    send(view, QEvent_move(), target.x, target.y, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)
    assert QRectF(area).contains(callout.screen_rect(view))
    assert "§" in callout.text() or "base to base" in callout.text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    send(view, QEvent_move(), edge.x(), edge.y(), Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)
    view.grab().save(str(SHOTS / "los-callout-edge.png"))


def QEvent_move():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QEvent

    return QEvent.Type.MouseMove


def test_a_run_of_arrow_nudges_is_one_undo_step_naming_the_figure(window, qtbot) -> None:
    doc = window.document
    fig = doc.battlefield.figure("p1")
    start = (fig.x, fig.y)
    doc.set_selection(["p1"])
    window.view.setFocus()
    for _ in range(5):
        qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Down)
    count = doc.undo_stack.count()
    assert doc.undo_stack.undoText() == "Nudge Sgt. Mace"
    assert fig.x > start[0] and fig.y > start[1]
    doc.undo_stack.undo()
    assert (fig.x, fig.y) == pytest.approx(start)
    doc.undo_stack.redo()
    assert doc.undo_stack.count() == count
    assert fig.x > start[0]
    # a nudge of another selection starts a new step
    doc.set_selection(["p2"])
    qtbot.keyClick(window.view, Qt.Key.Key_Left)
    assert doc.undo_stack.count() == count + 1
    assert doc.undo_stack.undoText() == "Nudge Cpl. Diaz"


def test_demos_open_as_templates_save_goes_to_save_as(window, monkeypatch, tmp_path) -> None:
    demo = Path(str(demo_scenario()))
    before = demo.read_bytes()
    assert window.is_template() and "(template)" in window.windowTitle()
    fig = window.document.battlefield.figure("p1")
    window.document.set_selection(["p1"])
    asked: list[str] = []
    target = tmp_path / "mine.crdesk"

    def fake_save(_parent, _caption, start, _filter):  # type: ignore[no-untyped-def]
        asked.append(start)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_save)
    window.editor.rotate(15)
    window.action_save.trigger()
    assert asked and not Path(asked[0]).resolve().is_relative_to(demo.parent.resolve())
    assert demo.read_bytes() == before
    assert target.exists() and window.path == target and not window.is_template()
    assert io.load(target).battlefield.figure("p1").facing == fig.facing
    assert not window.save_to(demo)  # refused, with a reason
    assert demo.read_bytes() == before


def test_export_dialog_offers_render_options_and_a_sensible_folder(window, tmp_path, qtbot) -> None:
    out = tmp_path / "table.png"
    seen: list[ExportDialog] = []

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ExportDialog)
        seen.append(dialog)
        package = Path(str(demo_scenario())).parent.resolve()
        assert not Path(dialog.path_edit.text()).resolve().is_relative_to(package)
        dialog.grid_check.setChecked(True)
        dialog.dpi_spin.setValue(40)
        dialog.terrain_only_check.setChecked(True)
        dialog.path_edit.setText(str(out))
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, step)
    window.action_export.trigger()
    assert seen and out.exists()
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert 36 * 40 <= image.width() <= 36 * 40 * 1.1  # 40 px/in, plus the margin round the map
    assert window.document.battlefield.forces  # the open scenario keeps its forces


def test_dark_theme_toolbar_icons_stand_out(window, qtbot) -> None:
    from PySide6.QtWidgets import QToolBar

    window.set_theme("dark")
    bar = window.findChild(QToolBar, "toolsToolBar")
    assert bar is not None
    action = window.editor._tool_actions["crest"]
    image = action.icon().pixmap(24, 24).toImage()
    QApplication.processEvents()
    background = QApplication.palette().window().color()
    corner = image.pixelColor(4, 12)
    assert corner.lightness() - background.lightness() > 80  # a light plate behind dark ink
    SHOTS.mkdir(parents=True, exist_ok=True)
    bar.grab().save(str(SHOTS / "dark-toolbar.png"))
    window.set_theme("light")
    corner = action.icon().pixmap(24, 24).toImage().pixelColor(1, 1)
    assert corner.alpha() == 0


def test_status_bar_coordinates_follow_a_zoom(window, qtbot, monkeypatch) -> None:
    from PySide6.QtGui import QCursor

    view = window.view
    centre = view.viewport().rect().center()
    monkeypatch.setattr(QCursor, "pos", staticmethod(lambda: view.viewport().mapToGlobal(centre)))
    corner = view.mapToScene(5, 5)
    send(
        view,
        QEvent_move(),
        corner.x(),
        corner.y(),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
    )
    before = window.position_label.text()
    window.action_zoom_in.trigger()
    expected = view.mapToScene(centre)
    assert window.position_label.text() == f'x {expected.x():.1f}"  y {expected.y():.1f}"'
    assert window.position_label.text() != before


def test_pdf_tiling_of_a_36_inch_table_on_a4_wastes_no_column_on_slivers(window, tmp_path) -> None:
    import re

    out = tmp_path / "print.pdf"

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ExportDialog)
        dialog.format_combo.setCurrentIndex(dialog.format_combo.findData(".pdf"))
        assert dialog.paper_combo.isEnabled() and not dialog.dpi_spin.isEnabled()
        dialog.path_edit.setText(str(out))
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, step)
    window.action_export.trigger()
    pages = len(re.findall(rb"/Type\s*/Page\b", out.read_bytes()))
    assert pages == 21  # 5 x 4 tiles (was 6 x 4, a column of 1" slivers) + the page map
    assert "21 pages" in window.statusBar().currentMessage()


def test_status_bar_coordinates_follow_a_drag(window) -> None:
    from tests.ui.mouse import LEFT, NONE

    fig = window.document.battlefield.figure("p3")
    view = window.view
    to = (fig.x - 3, fig.y - 4)
    send(view, QEvent_move(), fig.x, fig.y, LEFT, LEFT)
    send(view, QEvent.Type.MouseButtonPress, fig.x, fig.y, LEFT, LEFT)
    send(view, QEvent_move(), *to, NONE, LEFT)
    x, y = fig.x, fig.y  # the figure follows the pointer while dragged
    assert (x, y) == pytest.approx(to)
    assert window.position_label.text() == f'x {x:.1f}"  y {y:.1f}"'
    send(view, QEvent.Type.MouseButtonRelease, x, y, LEFT, NONE)


def test_the_export_dialog_file_label_is_a_mnemonic_for_the_path(
    qtbot: Any, tmp_path: Path
) -> None:
    """The "&File:" label points at the path box (a layout is no buddy, and then Qt
    shows the ampersand literally)."""
    from PySide6.QtWidgets import QLabel

    dialog = ExportDialog("Demo", tmp_path)
    qtbot.addWidget(dialog)
    label = next(w for w in dialog.findChildren(QLabel) if w.text() == "&File:")
    assert label.buddy() is dialog.path_edit
