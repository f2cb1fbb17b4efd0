"""The main window opens on a scenario, shows it, zooms, pans, and reports the pointer."""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent

from tests.ui.sample import FEATURE_IDS, FIGURE_IDS, make_scenario
from tests.ui.windows import SHOTS, colour_at, open_window, screenshot
from ui.main_window import MainWindow
from ui.scene import ItemType


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    return open_window(qtbot, make_scenario(), size=(1000, 900))


def test_window_shows_one_item_per_feature_and_figure(window: MainWindow) -> None:
    items = window.view.scene().items()
    terrain = sorted(i.model_id for i in items if i.type() == ItemType.TERRAIN)
    figures = sorted(i.model_id for i in items if i.type() == ItemType.FIGURE)
    assert terrain == sorted(FEATURE_IDS)
    assert figures == sorted(FIGURE_IDS)
    assert "Every kind of terrain" in window.windowTitle()


def test_model_edits_reach_the_window(window: MainWindow) -> None:
    bf = window.scenario.battlefield
    bf.move_figure("e1", 5.0, 20.0)
    item = window.scene.figure_item("e1")
    assert item is not None and item.pos() == QPointF(5.0, 20.0)
    bf.remove_feature("rocks-1")
    assert window.scene.feature_item("rocks-1") is None


def test_zoom_in_out_and_fit(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    view = window.view
    fitted = view.pixels_per_inch()
    assert view.is_fitted()
    table = view.mapFromScene(window.scene.table_rect()).boundingRect()
    assert view.viewport().rect().contains(table)
    window.action_zoom_in.trigger()
    assert view.pixels_per_inch() == pytest.approx(fitted * 1.25)
    assert not view.is_fitted()
    window.action_zoom_out.trigger()
    window.action_zoom_out.trigger()
    assert view.pixels_per_inch() == pytest.approx(fitted / 1.25)
    window.action_fit.trigger()
    assert view.pixels_per_inch() == pytest.approx(fitted)
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.pixels_per_inch() == pytest.approx(fitted * 1.25)


def test_wheel_zoom_keeps_the_point_under_the_cursor(window: MainWindow) -> None:
    view = window.view
    pos = QPoint(300, 250)
    before = view.mapToScene(pos)
    start = view.pixels_per_inch()
    event = QWheelEvent(
        QPointF(pos),
        QPointF(view.viewport().mapToGlobal(pos)),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    view.wheelEvent(event)
    assert view.pixels_per_inch() == pytest.approx(start * 1.25)
    after = view.mapToScene(pos)
    assert abs(after.x() - before.x()) < 0.2 and abs(after.y() - before.y()) < 0.2


def test_middle_drag_pans(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    view = window.view
    for _ in range(3):
        view.zoom_in()
    bar = view.horizontalScrollBar()
    start = bar.value()
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.MiddleButton, pos=QPoint(400, 300))
    qtbot.mouseMove(vp, QPoint(300, 300))
    qtbot.mouseRelease(vp, Qt.MouseButton.MiddleButton, pos=QPoint(300, 300))
    assert bar.value() == start + 100


def test_status_bar_shows_inches_and_section(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    view = window.view
    vp = view.viewport()
    target = view.mapFromScene(QPointF(30.0, 33.0))  # near-right: section 9
    qtbot.mouseMove(vp, target)
    qtbot.waitUntil(lambda: "Section 9" in window.section_label.text())
    text = window.position_label.text()
    assert "x 30." in text or "x 29." in text
    assert '"' in text
    qtbot.mouseMove(vp, view.mapFromScene(QPointF(2.0, 2.0)))
    qtbot.waitUntil(lambda: window.section_label.text() == "Section 1")
    qtbot.mouseMove(vp, view.mapFromScene(QPointF(-1.2, 10.0)))
    qtbot.waitUntil(lambda: window.section_label.text() == "Off table")


def test_view_menu_toggles_overlays(window: MainWindow) -> None:
    assert window.scene.sections_visible() and not window.scene.grid_visible()
    window.action_grid.trigger()
    window.action_sections.trigger()
    assert window.scene.grid_visible() and not window.scene.sections_visible()


def test_screenshot_looks_like_a_table(
    window: MainWindow,
    tmp_path: Path,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    """Saved for people to look at; the checks only catch a blank or broken grab."""
    assert not window.view.horizontalScrollBar().isVisible()  # fitted: nothing to scroll
    assert not window.view.verticalScrollBar().isVisible()
    qtbot.mouseMove(window.view.viewport(), window.view.mapFromScene(QPointF(20.0, 30.0)))
    qtbot.waitUntil(lambda: window.section_label.text() == "Section 8")
    image = screenshot(window, tmp_path, "main.png")
    cloth = colour_at(window, image, 33.0, 33.0)
    assert cloth.green() > cloth.red() and cloth.green() > cloth.blue()  # green cloth
    window.view.set_pixels_per_inch(80)
    window.view.centerOn(QPointF(17.0, 15.0))
    assert window.grab().save(str(SHOTS / "main-zoomed.png"))


def test_open_file_errors_are_shown_not_raised(
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "show_error", lambda title, text: shown.append((title, text)))
    bad = tmp_path / "broken.crdesk"
    bad.write_text('{"format_version": 1, "table": ')
    assert window.open_file(bad) is False
    assert shown and "broken.crdesk" in shown[0][1]
    assert window.scene.feature_item("woods-1") is not None  # old scenario still shown


def test_save_then_open_round_trip(
    window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(window, "show_error", lambda title, text: pytest.fail(text))
    path = tmp_path / "saved.crdesk"
    assert window.save_to(path)
    assert "saved.crdesk" in window.windowTitle()
    old_scene = window.scene
    assert window.open_file(path)
    assert window.scene is not old_scene
    assert sorted(i.model_id for i in window.scene.terrain_items()) == sorted(FEATURE_IDS)
    # The old scene is deleted (the open turns the event loop while it builds the new
    # one, so its deferred delete may already have run), or no longer follows the model
    alive = shiboken6.isValid(old_scene)
    old_scene_items = len(old_scene.items()) if alive else 0
    window.scenario.battlefield.remove_feature("woods-1")
    assert window.scene.feature_item("woods-1") is None
    if shiboken6.isValid(old_scene):
        assert len(old_scene.items()) == old_scene_items


def test_space_held_turns_the_left_button_into_a_hand(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    from PySide6.QtWidgets import QGraphicsView

    view = window.view
    view.setFocus()
    qtbot.keyPress(view, Qt.Key.Key_Space)
    assert view.dragMode() == QGraphicsView.DragMode.ScrollHandDrag
    qtbot.keyRelease(view, Qt.Key.Key_Space)
    assert view.dragMode() == QGraphicsView.DragMode.NoDrag


def test_a_reset_with_a_bigger_table_rebuilds_and_refits(window: MainWindow) -> None:
    from crdesk.events import Change, ChangeKind
    from crdesk.model import Table

    bf = window.scenario.battlefield
    before = window.view.pixels_per_inch()
    bf.table = Table(72.0, 48.0)
    bf.notify(Change(ChangeKind.RESET, "battlefield", "", bf.revision))
    assert window.scene.table_rect().width() == 72.0
    assert window.view.pixels_per_inch() < before
    assert len(window.scene.terrain_items()) == len(FEATURE_IDS)
    window.show_pointer(QPointF(70.0, 47.0))
    assert window.section_label.text() == "Section 9"
