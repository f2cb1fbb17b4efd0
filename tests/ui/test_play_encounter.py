"""The play mode's acceptance encounter (issue 12): one short game through real mouse and
keyboard events -- start with seeded dice, activate a group, drag a figure until an In
Sight stops it, watch the test and the reactions resolve, fire with a click, end the
activation and the turn, save, reopen, and find the identical state."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from crdesk.game.actions import Fire
from crdesk.resources import demo_scenario
from crdesk.scenario import load
from tests.ui.mouse import click, drag
from ui.main_window import MainWindow

SEED = 1
"""Seed 1: the Red Vipers' die is too high for their Leaders; Sgt. Mace's squad decides."""


def new_window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(load(str(demo_scenario())))
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.play.autoplay = False
    return window


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    return new_window(qtbot)


def test_a_short_encounter_with_mouse_and_keyboard(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    play = window.play
    assert play.start(SEED)
    play.run_program()
    game = play.game
    assert game is not None
    # activate Sgt. Mace's group with its button
    qtbot.mouseClick(play.decision_dock.buttons["activate p1"], Qt.MouseButton.LeftButton)
    assert game.awaiting() is not None and game.awaiting().kind == "act"
    # drag Cpl. Diaz north: Knuckles comes into sight and stops the move (7.6)
    drag(window.view, [(14.5, 31.5), (16.0, 29.0), (18.0, 27.0), (18.5, 25.5)])
    moves = [e for e in game.events if e.kind == "move"]
    assert moves and "stops: Knuckles in sight" in moves[-1].text
    diaz = game.battlefield.figure("p2")
    assert (round(diaz.x, 1), round(diaz.y, 1)) != (18.5, 25.5)  # stopped short
    assert game.awaiting() is not None and game.awaiting().kind == "free_move"
    # Enter takes the In Sight test at once (the book's default); the reactions resolve
    qtbot.keyClick(play.decision_dock, Qt.Key.Key_Return)
    play.run_program()
    assert any(e.kind == "in_sight" for e in game.events)
    # fire with a click: a shooter the controller offers a shot to, then its target
    decision = game.awaiting()
    while decision is not None and decision.kind != "act":
        qtbot.keyClick(play.decision_dock, Qt.Key.Key_Return)
        play.run_program()
        decision = game.awaiting()
    shots = [o for o in (decision.options if decision else ()) if isinstance(o, Fire)]
    assert shots, "seed 1: a figure of the group has a shot after the In Sight"
    shot = shots[0]
    shooter, target = game.fig(shot.figure), game.fig(shot.targets[0][0])
    fired_before = sum(1 for e in game.events if e.kind == "fire")
    click(window.view, shooter.x, shooter.y)
    click(window.view, target.x, target.y)
    fired = [e for e in game.events if e.kind == "fire"]
    assert len(fired) > fired_before and fired[fired_before].figures[0] == shooter.id
    # end the activation with its key, then play on with Enter until the turn ends
    turn = game.turn
    play.run_program()
    decision = game.awaiting()
    assert decision is not None and decision.kind == "act"
    ends = sum(1 for e in game.events if e.kind == "activation_end")
    qtbot.keyClick(window, Qt.Key.Key_E)
    assert sum(1 for e in game.events if e.kind == "activation_end") == ends + 1
    for _ in range(60):
        play.run_program()
        if game.turn > turn or game.awaiting() is None:
            break
        qtbot.keyClick(play.decision_dock, Qt.Key.Key_Return)
    assert game.turn > turn or game.outcome is not None
    assert any(e.kind == "turn_end" for e in game.events)
    # save, reopen in a fresh window: the identical game
    path = tmp_path / "encounter.crgame"
    assert play.save_to(path)
    again = new_window(qtbot)
    assert again.play.open_file(path)
    assert again.play.game is not None
    assert again.play.game.state_hash() == game.state_hash()
    assert again.play.game.history == game.history
