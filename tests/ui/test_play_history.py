"""The undo history dock: the steps in words, the undo boundary, and "Undo to here"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from crdesk.ai.policy import BookPolicy
from tests.ui.mouse import drag
from tests.ui.windows import activate, open_window, start
from ui.main_window import MainWindow
from ui.play.history_dock import HistoryDock
from ui.play.session import PlaySession

SHOTS = Path("/tmp/crdesk-shots")
BOOK = BookPolicy()


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def session_of(window: MainWindow) -> PlaySession:
    assert window.play.session is not None
    return window.play.session


def dock_of(window: MainWindow) -> HistoryDock:
    return window.play.history_dock


def play_until(window: MainWindow, steps: int) -> None:
    """The program's steps, and the book's choices for the people, shown at once."""
    session = session_of(window)
    while len(session.game.history) < steps:
        if session.is_program_turn():
            assert session.run_program_step()
        else:
            decision = session.awaiting()
            assert decision is not None
            assert session.play(BOOK.decide(session.game, decision)[0]) is None
    assert window.play.animator is not None
    window.play.animator.finish()


def start_and_activate(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window, 1)  # seed 1: Sgt. Mace's squad decides first
    activate(window, qtbot)


def double_click_row(qtbot, dock: HistoryDock, row: int) -> None:  # type: ignore[no-untyped-def]
    rect = dock.list.visualItemRect(dock.list.item(row))
    qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_the_steps_are_told_in_words_by_turn_and_side(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(2)  # the Red Vipers (the program) go first
    play_until(window, 25)
    rows = dock_of(window).rows()
    assert len(rows) == 25
    assert rows[0].startswith("Turn 1 · Dice · activation dice Sgt. Mace's squad 2, Red Vipers 3")
    assert rows[1] == "Turn 1 · Red Vipers · Viper boss (Rep 5) activates with 2 figure(s)"
    assert rows[2] == (
        "Turn 1 · Red Vipers · Viper boss fires at Cpl. Diaz, Sgt. Mace → "
        "Cpl. Diaz is Out of the Fight"
    )
    assert rows[4] == "Turn 1 · Sgt. Mace's squad · Sgt. Mace ducks back 0.5\""
    assert rows[5] == (
        'Turn 1 · Red Vipers · Dice ducks back 1.0" → Pvt. Okafor fires at Viper boss → '
        "Viper boss is Out of the Fight"
    )
    assert rows[16].startswith("Turn 1 · Sgt. Mace's squad · Pvt. Okafor's group ends")
    assert rows[17].startswith("Turn 2 · Sgt. Mace's squad · Sgt. Mace (Rep 5) activates")
    tip = dock_of(window).list.item(2).toolTip()
    assert "fire e1 at p2:2,p1:1" in tip and "Cpl. Diaz is Out of the Fight." in tip


def test_undo_to_here_takes_back_the_step_and_the_ones_after(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start_and_activate(window, qtbot)
    game = session_of(window).game
    before = game.state_hash()
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])  # Pvt. Lind
    drag(window.view, [(19.5, 31.5), (19.5, 30.0), (19.5, 29.0)])  # Pvt. Okafor
    dock = dock_of(window)
    rows = dock.rows()
    assert len(rows) == 4 and "Pvt. Lind moves" in rows[2] and "Pvt. Okafor moves" in rows[3]
    assert dock.reason(2) == "" and dock.reason(3) == ""
    assert dock.reason(0)  # the opening roll is never taken back: greyed, with the reason
    double_click_row(qtbot, dock, 2)
    assert len(game.history) == 2 and game.state_hash() == before
    assert dock.rows() == rows[:2]
    assert "Took back 2 step(s)" in window.statusBar().currentMessage()
    assert window.play.scene is not None
    assert window.play.scene.figure_item("p4").pos().y() == 33.0  # type: ignore[union-attr]


def test_undo_to_here_stops_at_seen_dice_and_says_why(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start_and_activate(window, qtbot)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    window.play.play_default()  # the highlighted option fires: dice are rolled and seen
    game = session_of(window).game
    fired = game.state_hash()
    steps = len(game.history)
    assert game.history[-1].faces
    dock = dock_of(window)
    reason = dock.reason(2)  # the move, before the fire
    assert "rolled dice" in reason and "practice undo" in reason
    item = dock.list.item(2)
    assert item.foreground().color() != dock.list.item(steps - 1).foreground().color() or (
        dock.reason(steps - 1) != ""
    )
    assert "Cannot undo to here" in item.toolTip()
    dock.list.setCurrentRow(2)
    assert not dock.button.isEnabled()
    assert "rolled dice" in dock.note.text()
    double_click_row(qtbot, dock, 2)
    assert game.state_hash() == fired and len(game.history) == steps
    assert "Cannot undo" in window.statusBar().currentMessage()
    assert "Cannot undo to here" in dock.note.text()


def test_ctrl_z_is_still_the_one_step_undo_and_the_list_follows(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start_and_activate(window, qtbot)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    dock = dock_of(window)
    assert len(dock.rows()) == 3
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(session_of(window).game.history) == 2
    assert len(dock.rows()) == 2
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 30.0)])
    assert len(dock.rows()) == 3 and "Pvt. Lind moves" in dock.rows()[2]
    dock.list.setCurrentRow(2)
    assert dock.button.isEnabled()
    qtbot.mouseClick(dock.button, Qt.MouseButton.LeftButton)
    assert len(dock.rows()) == 2


def test_screenshot_of_the_history_dock(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(2)
    play_until(window, 12)
    session = session_of(window)
    decision = session.awaiting()
    assert decision is not None
    dock = dock_of(window)
    dock.raise_()
    dock.list.setCurrentRow(len(dock.rows()) - 1)
    qtbot.wait(30)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert dock.grab().save(str(SHOTS / "play-history.png"))
    assert window.grab().save(str(SHOTS / "play-history-window.png"))


def test_with_dice_awaited_undo_to_here_takes_the_waiting_action_too(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(1, dice="manual")  # the person rolls real dice
    session = session_of(window)
    assert session.play("dice 4,1") is None  # the opening activation roll
    assert session.play("activate p1") is None
    before = session.game.state_hash()
    assert session.play("fire p1 at e1:3") is None  # waits for 3d6: not a step yet
    assert session.game.pending_step() is not None
    dock = dock_of(window)
    assert len(dock.rows()) == 2 and dock.reason(1) == ""
    assert "opening activation roll" in dock.reason(0) or "only" in dock.reason(0)
    double_click_row(qtbot, dock, 1)  # back to before the activation
    assert session.game.pending_step() is None and len(session.game.history) == 1
    assert session.game.state_hash() != before
    assert session.awaiting() is not None and session.awaiting().kind == "activate"  # type: ignore[union-attr]
