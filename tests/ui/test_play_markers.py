"""The table in play mode: the movement area and path cost of a drag, and status markers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt

from crdesk.resources import demo_scenario
from crdesk.scenario import load
from tests.ui.mouse import send
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")
SEED = 1
"""Seed 1: Sgt. Mace's squad (p1..p4) decides first."""
LIND = (12.0, 33.0)
"""Pvt. Lind (p4), a member of Sgt. Mace's squad."""


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = MainWindow(load(str(demo_scenario())))
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.play.autoplay = False
    assert window.play.start(SEED)
    window.play.run_program()
    qtbot.mouseClick(window.play.decision_dock.buttons["activate p1"], Qt.MouseButton.LeftButton)
    return window


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
