"""What keeps the GUI thread short while steps are played (issue 12, "no block over
50 ms"): the table's first paint only blits tiles rendered at Start, the event log's
rows carry their sizes (no Python size query per row per step), and the undo history
behind the log's tab waits until its tab is chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt

from tests.ui.mouse import drag
from tests.ui.windows import open_window
from ui.main_window import MainWindow
from ui.play.log_dock import EVENT_ROLE, WHY_ROLE, on_screen

SEED = 1
"""Seed 1: Sgt. Mace's squad (p1..p4) decides first."""


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, size=(1200, 800), recovery=tmp_path / "recovery")


def play_book(window: MainWindow, steps: int) -> None:
    """The book's highlighted option, as Enter plays it, ``steps`` times."""
    session = window.play.session
    assert session is not None
    for _ in range(steps):
        if session.is_program_turn():
            session.run_program_step()
        else:
            window.play.play_default()


def test_the_tables_first_paint_only_blits_the_tiles_rendered_at_start(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(SEED)
    scene = window.play.scene
    assert scene is not None
    rendered = scene.ground.rendered_tiles
    assert rendered > 0  # Start rendered what the view shows
    qtbot.wait(20)  # the scene's first polish (Qt repeats "visible" to every item) ...
    window.view.viewport().repaint()  # ... and the first paint
    assert scene.ground.rendered_tiles == rendered
    # hiding the sections still repaints the ground where they were
    window.action_sections.setChecked(not window.action_sections.isChecked())
    window.view.viewport().repaint()
    assert scene.ground.rendered_tiles > rendered


def test_log_rows_carry_their_size_and_follow_the_width(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(SEED)
    play_book(window, 6)
    dock = window.play.log_dock
    log = dock.list
    assert log.count() == len(window.play.game.events) > 6

    def stored_and_measured() -> tuple[list[QSize], list[QSize]]:
        width = dock.delegate.text_width()
        stored, measured = [], []
        for row in range(log.count()):
            item = log.item(row)
            why = item.data(WHY_ROLE) or ""
            stored.append(item.sizeHint())
            measured.append(dock.delegate.row_size(log.font(), width, item.data(EVENT_ROLE), why))
        return stored, measured

    stored, measured = stored_and_measured()
    assert stored == measured and all(s.isValid() and s.height() > 20 for s in stored)
    tallest = max(s.height() for s in stored)
    window.resizeDocks([dock], [dock.width() + 260], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: stored_and_measured()[0][0].width() != stored[0].width())
    wider, measured = stored_and_measured()
    assert wider == measured
    assert max(s.height() for s in wider) < tallest  # the long sentences wrap less
    qtbot.waitUntil(lambda: log.verticalScrollBar().value() == log.verticalScrollBar().maximum())


def test_the_history_behind_the_logs_tab_waits_until_its_tab_is_chosen(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(SEED)
    window.play.run_program()
    history = window.play.history_dock
    qtbot.waitUntil(lambda: on_screen(window.play.log_dock))
    assert history.isVisible() and not on_screen(history)  # Qt's "visible", off the window
    listed = history.list.count()
    qtbot.mouseClick(window.play.decision_dock.buttons["activate p1"], Qt.MouseButton.LeftButton)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])  # Pvt. Lind moves
    drag(window.view, [(19.5, 31.5), (19.5, 30.0), (19.5, 29.0)])  # Pvt. Okafor moves
    game = window.play.game
    assert len(game.history) == listed + 3
    assert history.list.count() == listed  # nothing done behind the tab
    history.raise_()  # its tab chosen
    qtbot.waitUntil(lambda: on_screen(history))
    assert history.list.count() == len(game.history)
    rows = [history.list.item(r).text() for r in range(history.list.count())]
    assert "Pvt. Okafor moves" in rows[-1]
    # taken back while behind the tab again: listed afresh when asked
    window.play.log_dock.raise_()
    qtbot.waitUntil(lambda: not on_screen(history))
    assert window.play.session is not None
    assert window.play.session.undo_steps(2) is None
    assert history.list.count() == len(rows)  # the old rows: not looked at yet
    assert history.rows() == rows[:-2]  # asking catches up
    assert history.reason(0)  # the opening roll is greyed with its reason
    assert history.reason(len(rows) - 3) == ""  # the activation can still be taken back
