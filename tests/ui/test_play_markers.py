"""The table in play mode: the movement area and path cost of a drag, and status markers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt

from tests.ui.mouse import send
from tests.ui.windows import playing
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")
SEED = 1
"""Seed 1: Sgt. Mace's squad (p1..p4) decides first."""
LIND = (12.0, 33.0)
"""Pvt. Lind (p4), a member of Sgt. Mace's squad."""


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot, seed=SEED)


def press(window: MainWindow, x: float, y: float) -> None:
    send(window.view, QEvent.Type.MouseButtonPress, x, y)


def move(window: MainWindow, x: float, y: float) -> None:
    send(window.view, QEvent.Type.MouseMove, x, y, Qt.MouseButton.NoButton)


def release(window: MainWindow, x: float, y: float) -> None:
    send(
        window.view,
        QEvent.Type.MouseButtonRelease,
        x,
        y,
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.NoButton,
    )


def test_a_press_shows_the_reachable_area(window: MainWindow) -> None:
    tool = window.play.move_tool
    assert tool.area_item() is None
    press(window, *LIND)
    area = tool.area_item()
    assert area is not None and area.scene() is window.play.scene
    box = area.path().boundingRect()
    assert box.contains(QPointF(*LIND)) and 10.0 < box.width() <= 16.5
    release(window, *LIND)  # a click: selects, no move
    assert tool.area_item() is None and tool.previews_gone()


def test_a_drag_shows_the_path_cost_and_the_drop_moves(window: MainWindow) -> None:
    tool = window.play.move_tool
    press(window, *LIND)
    move(window, 12.0, 31.0)
    move(window, 12.0, 29.0)
    text = tool.cost_text()
    assert '" of 8.0"' in text and text.startswith('4.0"') and "✓" in text
    assert tool.last_cost is not None and tool.last_cost.allowed
    move(window, 12.0, 20.0)  # 13": too far
    assert "over" in tool.cost_text() and "✗" in tool.cost_text()
    move(window, 12.0, 29.0)
    release(window, 12.0, 29.0)
    assert tool.last_reason is None and tool.previews_gone()
    figure = window.play.game.battlefield.figure("p4")
    assert (figure.x, figure.y) == pytest.approx((12.0, 29.0), abs=0.1)


# -- status markers ----------------------------------------------------------------------


def test_a_prone_figure_gets_its_marker(window: MainWindow) -> None:
    markers = window.play.markers
    assert markers is not None and "prone" not in markers.kinds("p1")
    assert window.play.session.play("prone p1") is None
    assert "prone" in markers.kinds("p1")
    badge = markers.badges("p1")[0]
    assert badge.flags() & badge.GraphicsItemFlag.ItemIgnoresTransformations
    assert "Prone" in badge.toolTip()


def test_out_of_the_fight_gets_its_marker(window: MainWindow) -> None:
    from crdesk.model import Status

    markers = window.play.markers
    assert markers is not None
    window.play.game.battlefield.update_figure("e2", status=Status.OUT_OF_THE_FIGHT)
    assert "out_of_the_fight" in markers.kinds("e2")
    window.play.game.battlefield.update_figure("e3", status=Status.OBVIOUSLY_DEAD)
    assert "obviously_dead" in markers.kinds("e3")


def test_the_selected_figure_shows_its_front_arc(window: MainWindow) -> None:
    markers = window.play.markers
    assert markers is not None and markers.arc_item() is None
    press(window, *LIND)
    release(window, *LIND)
    arc = markers.arc_item()
    assert arc is not None and arc.path().contains(QPointF(LIND[0], LIND[1] - 2.0)) != (
        arc.path().contains(QPointF(LIND[0], LIND[1] + 2.0))
    )


def test_screenshot_mid_drag_with_markers(window: MainWindow) -> None:
    from crdesk.model import Status

    session = window.play.session
    assert session.play("prone p2") is None
    window.play.game.battlefield.update_figure("e2", status=Status.OUT_OF_THE_FIGHT)
    window.play.game.battlefield.update_figure("e1", out_of_ammo=True)
    press(window, *LIND)
    move(window, 12.0, 31.0)
    move(window, 13.0, 28.5)
    assert '" of 8.0"' in window.play.move_tool.cost_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-drag.png"))
    release(window, 13.0, 28.5)
