"""Issue 15, item 4: drawing refusals in the book's words, and thin walls drawable."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt

from crdesk.model import TerrainKind
from crdesk.shapes import dragged_shape, outline_from_clicks
from tests.ui.mouse import click, drag, send
from tests.ui.windows import EDITOR_SIZE, open_window
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, size=EDITOR_SIZE, recovery=tmp_path / "rec")


def _polygon(window: MainWindow, points: list[tuple[float, float]]) -> None:
    view = window.view
    for x, y in points[:-1]:
        click(view, x, y)
    x, y = points[-1]
    click(view, x, y)
    send(view, QEvent.Type.MouseButtonDblClick, x, y)
    send(
        view,
        QEvent.Type.MouseButtonRelease,
        x,
        y,
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.NoButton,
    )


def test_a_symmetric_bow_tie_is_a_crossing_marked_on_the_table(window, qtbot) -> None:
    window.editor.snap_action.trigger()  # exact corners: the crossing is at (12, 22)
    assert not window.editor.snapping.enabled
    window.editor.set_tool("woods")
    before = len(window.document.battlefield.terrain)
    _polygon(window, [(10, 20), (14, 24), (14, 20), (10, 24)])
    assert len(window.document.battlefield.terrain) == before  # not drawn
    message = window.statusBar().currentMessage()
    assert "the outline crosses itself at (12.0, 22.0)" in message
    assert "three" not in message
    tool = window.editor.tool
    mark = tool.mark
    assert mark is not None and mark.scene() is window.scene
    centre = mark.rect().center()
    assert (centre.x(), centre.y()) == pytest.approx((12.0, 22.0), abs=0.05)  # pixel clicks
    # the corners are kept: Backspace takes back the two that made the crossing,
    # and the outline closes the right way round
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    _polygon(window, [(14, 24), (10, 24)])
    assert tool.mark is None
    assert len(window.document.battlefield.terrain) == before + 1


def test_an_uneven_bow_tie_never_shows_the_library_text() -> None:
    result = outline_from_clicks([(30, 30), (32.2, 32.1), (32, 30), (30, 32.3)])
    assert result.outline is None
    assert result.problem == "the outline crosses itself at (31.1, 31.0)"
    assert "Self-intersection" not in result.problem and "[" not in result.problem
    assert (
        outline_from_clicks([(0, 0), (1, 0)]).problem == "an outline needs at least three corners"
    )
    assert "one line" in outline_from_clicks([(0, 0), (1, 0), (2, 0)]).problem
    assert outline_from_clicks([(0, 0), (4, 0), (4, 3)]).outline is not None


def test_a_thin_wall_is_drawn_with_snapping_on(window, qtbot) -> None:
    assert window.editor.snapping.enabled
    window.editor.set_tool("cover")
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_3)  # rectangle
    bf = window.document.battlefield
    before = {f.id for f in bf.terrain}
    drag(window.view, [(3.1, 28.1), (5.0, 28.3), (8.1, 28.45)])
    new = [f for f in bf.terrain if f.id not in before]
    assert len(new) == 1 and new[0].kind is TerrainKind.COVER
    x0, y0, x1, y1 = new[0].outline.bounds
    assert (x1 - x0, y1 - y0) == pytest.approx((5.0, 0.5))
    assert window.document.undo_stack.undoText() == "Add Cover"


def test_a_shape_too_small_is_refused_with_its_size(window) -> None:
    window.editor.set_tool("woods")
    window.editor.set_shape_mode(window.editor.tool.modes[2])  # rectangle
    before = len(window.document.battlefield.terrain)
    drag(window.view, [(20.0, 14.0), (20.1, 14.1), (20.2, 14.2)])
    assert len(window.document.battlefield.terrain) == before
    assert "too small to be a terrain piece" in window.statusBar().currentMessage()
    assert dragged_shape("ellipse", (0, 0), (6, 0)).outline is not None  # a thin hedge
