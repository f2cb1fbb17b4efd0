"""The play mode: start an encounter, decide with buttons, move figures with the mouse.

The program's side is driven deterministically: ``window.play.autoplay`` is off
before a game starts, and ``run_program()`` plays its steps at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtWidgets import QDialog

from tests.ui.mouse import click, drag, send
from tests.ui.windows import activate, colour_at, open_window, screenshot, start
from ui.main_window import MainWindow
from ui.play.log_dock import EVENT_ROLE

SEED_PLAYER_FIRST = 1
"""Seed 1: the Red Vipers roll higher but have no group good enough; Sgt. Mace's squad decides."""
SEED_PROGRAM_FIRST = 2
"""Seed 2: the Red Vipers (the program) activate first."""


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def figure_xy(window: MainWindow, fid: str) -> tuple[float, float]:
    figure = window.play.game.battlefield.figure(fid)
    return (figure.x, figure.y)


# -- starting and stopping ------------------------------------------------------------


def test_start_shows_the_games_table_and_switches_the_editor_off(window: MainWindow) -> None:
    editor_scene = window.scene
    stack = window.document.undo_stack
    start(window)
    play = window.play
    assert play.active and "Play:" in window.windowTitle() and "turn 1" in window.windowTitle()
    assert play.badge.text() == "PLAY"
    assert window.view.scene() is play.scene is not editor_scene
    assert play.scene.battlefield is play.game.battlefield
    assert window.scenario.battlefield is not play.game.battlefield
    assert not window.editor.undo_action.isEnabled()
    assert not window.editor.delete_action.isEnabled()
    assert not window.action_open.isEnabled() and not window.action_new.isEnabled()
    assert not window.roster_dock.isVisible() and not window.properties_dock.isVisible()
    assert play.decision_dock.isVisible() and play.log_dock.isVisible()
    assert stack.count() == 0 and not window.document.is_modified
    dock = play.decision_dock
    assert "Sgt. Mace's squad to decide" in dock.actor_label.text()
    assert "7.1" in dock.section_label.text()
    assert list(dock.buttons) == ["activate p1", "pass"]
    assert dock.default is not None and str(dock.default) == "activate p1"
    assert "⏎" in dock.buttons["activate p1"].text()
    texts = [e.text for e in play.log_dock.events()]
    assert texts and texts[0].startswith("Turn 1: activation dice")
    assert play.log_dock.events()[0].dice  # the activation dice are listed


def test_a_play_tool_s_error_is_reported_and_the_game_goes_on(  # type: ignore[no-untyped-def]
    window: MainWindow, qtbot, monkeypatch
) -> None:
    from ui.play.move_tool import MoveTool

    def broken(self: MoveTool, pos: object, modifiers: object) -> bool:
        raise RuntimeError("a play tool's bug")

    start(window)
    activate(window, qtbot)
    with monkeypatch.context() as patched, qtbot.capture_exceptions() as caught:
        patched.setattr(MoveTool, "_pressed", broken)
        drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    assert [str(e[1]) for e in caught] == ["a play tool's bug"]
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    assert figure_xy(window, "p4") == pytest.approx((12.0, 29.0), abs=0.1)


def test_stop_puts_the_editor_back_unchanged(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    editor_scene = window.scene
    before = [(f.id, f.x, f.y) for f in window.scenario.battlefield.figures()]
    title = window.windowTitle()
    start(window)
    activate(window, qtbot)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    assert figure_xy(window, "p4") == pytest.approx((12.0, 29.0), abs=0.1)
    assert window.play.stop()  # unsaved steps: the conftest answers Discard
    assert not window.play.active
    assert window.view.scene() is editor_scene
    assert window.windowTitle() == title and window.play.badge.text() == "EDITOR"
    assert window.action_open.isEnabled() and window.roster_dock.isVisible()
    assert not window.play.decision_dock.isVisible()
    assert [(f.id, f.x, f.y) for f in window.scenario.battlefield.figures()] == before
    assert window.document.undo_stack.count() == 0
    # the editor's tools work again: a drag in the editor moves the scenario's figure
    drag(window.view, [(12.0, 33.0), (13.0, 33.0), (14.0, 33.0)])
    moved = window.scenario.battlefield.figure("p4")
    assert (moved.x, moved.y) == pytest.approx((14.0, 33.0), abs=0.1)
    assert window.document.undo_stack.count() == 1


def test_start_dialog_offers_seed_and_sides(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.play.start_dialog import PROGRAM, StartDialog

    seen: list[StartDialog] = []

    def accept(dialog: StartDialog) -> int:
        seen.append(dialog)
        dialog.seed_box.setValue(7)
        assert dialog.side_boxes["enemy"].currentText() == PROGRAM
        assert dialog.program_sides() == {"enemy"}
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", accept)
    window.play.action_start.trigger()
    assert seen and window.play.active
    assert window.play.game.seed == 7
    assert window.play.session.program == {"enemy"}


# -- decisions -----------------------------------------------------------------------


def test_option_buttons_and_enter_play_the_choice(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    dock = window.play.decision_dock
    assert "Drag a ringed figure" in dock.hint_label.text() and dock.hint_label.isVisible()
    assert sorted(window.play.move_tool.rings()) == ["p1", "p2", "p3", "p4", "p5"]
    default = dock.default
    assert default is not None and str(default).startswith("fire p1 at")
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.play.game.history[-1].action == str(default)
    assert any(e.kind == "fire" for e in window.play.log_dock.events())


def test_a_typed_action_is_judged_by_the_controller(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    dock = window.play.decision_dock
    qtbot.keyClicks(dock.action_edit, "end")
    qtbot.keyClick(dock.action_edit, Qt.Key.Key_Return)
    assert "Not played" in status(window)
    assert dock.action_edit.text() == "end"  # kept, so it can be corrected
    dock.action_edit.setText("activate p1")
    qtbot.keyClick(dock.action_edit, Qt.Key.Key_Return)
    assert window.play.game.history[-1].action == "activate p1"
    assert dock.action_edit.text() == ""


def test_the_program_plays_its_side(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(SEED_PROGRAM_FIRST)
    session = window.play.session
    dock = window.play.decision_dock
    assert session.is_program_turn()
    assert "(program) is deciding" in dock.actor_label.text()
    assert all(not b.isEnabled() for b in dock.buttons.values())
    assert window.play.move_tool.rings() == []
    played = window.play.run_program()
    assert played >= 2
    assert not session.is_program_turn()
    assert any(s.actor == "enemy" for s in window.play.game.history)
    assert any("Viper boss" in e.text for e in window.play.log_dock.events())


def test_the_program_steps_come_from_the_timer(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.play.autoplay = True
    assert window.play.start(SEED_PROGRAM_FIRST)
    session = window.play.session
    session.delay_ms = 0
    assert session.program_pending()
    assert session.is_program_turn()  # nothing is played before the timer fires
    # each step is shown (told, at Normal speed) before the next: a generous wait
    qtbot.waitUntil(lambda: not session.is_program_turn(), timeout=10_000)
    assert any(s.actor == "enemy" for s in window.play.game.history)


# -- moving with the mouse -----------------------------------------------------------


def test_dragging_a_figure_moves_it_in_the_game(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    scenario_figure = window.scenario.battlefield.figure("p4")
    drag(window.view, [(12.0, 33.0), (12.0, 32.0), (12.0, 30.5), (12.0, 29.0)])
    assert window.play.move_tool.last_reason is None
    assert figure_xy(window, "p4") == pytest.approx((12.0, 29.0), abs=0.1)
    item = window.play.scene.figure_item("p4")
    assert item is not None and item.pos() == QPointF(*figure_xy(window, "p4"))
    moves = [e for e in window.play.log_dock.events() if e.kind == "move"]
    assert moves and "Pvt. Lind moves" in moves[-1].text
    assert (scenario_figure.x, scenario_figure.y) == (12.0, 33.0)  # the editor's is untouched
    assert window.play.move_tool.previews_gone()


def test_an_illegal_drop_snaps_back_with_the_reason(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    game = window.play.game
    before = game.state_hash()
    steps = len(game.history)
    drag(window.view, [(19.5, 31.5), (19.5, 25.0), (19.5, 14.0)])
    reason = window.play.move_tool.last_reason
    assert reason is not None and "movement left" in reason
    assert "Move refused" in status(window) and '8.0"' in status(window)
    assert game.state_hash() == before and len(game.history) == steps
    item = window.play.scene.figure_item("p3")
    assert item is not None and item.pos() == QPointF(19.5, 31.5)


def test_enemies_and_clicks_do_not_move(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    before = window.play.game.state_hash()
    drag(window.view, [(9.0, 11.0), (9.0, 13.0), (9.0, 15.0)])  # the Viper boss
    assert "not in the group" in status(window)
    click(window.view, 12.0, 33.0)  # a click without a drag says how far it may go
    assert "Pvt. Lind" in status(window) and "movement left" in status(window)
    assert window.play.game.state_hash() == before
    assert window.play.scene.figure_item("e1").pos() == QPointF(9.0, 11.0)


def test_escape_cancels_a_drag(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    view = window.view
    send(view, QEvent.Type.MouseButtonPress, 12.0, 33.0)
    send(view, QEvent.Type.MouseMove, 12.0, 31.0, Qt.MouseButton.NoButton)
    assert window.play.scene.figure_item("p4").pos().y() == pytest.approx(31.0, abs=0.1)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert window.play.scene.figure_item("p4").pos() == QPointF(12.0, 33.0)
    send(
        view,
        QEvent.Type.MouseButtonRelease,
        12.0,
        31.0,
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.NoButton,
    )
    assert figure_xy(window, "p4") == (12.0, 33.0)


# -- the log ----------------------------------------------------------------------------


def test_clicking_a_log_entry_rings_its_figures(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    log = window.play.log_dock.list
    row = next(r for r in range(log.count()) if log.item(r).data(EVENT_ROLE).kind == "activate")
    rect = log.visualItemRect(log.item(row))
    qtbot.mouseClick(log.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    lit = sorted(i.model_id for i in window.play.scene.figure_items() if i.is_highlighted())
    assert lit == ["p1", "p2", "p3", "p4", "p5"]
    assert log.verticalScrollBar().value() == log.verticalScrollBar().maximum()


# -- saving, opening, undo -------------------------------------------------------------


def test_save_and_open_a_game(window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    game = window.play.game
    state, steps = game.state_hash(), len(game.history)
    path = tmp_path / "street.crgame"
    assert window.play.save_to(path) and path.is_file()
    assert not window.play.session.has_unsaved_steps()
    assert window.play.stop()
    assert window.play.open_file(path)
    reopened = window.play.game
    assert reopened is not game
    assert reopened.state_hash() == state and len(reopened.history) == steps
    assert figure_xy(window, "p4") == pytest.approx((12.0, 29.0), abs=0.1)
    assert [e.text for e in window.play.log_dock.events()] == [e.text for e in game.events]
    assert "Opened street.crgame" in status(window)


def test_opening_a_broken_game_says_why(
    window: MainWindow, tmp_path: Path, _no_modal_dialogs: list[tuple[str, str]]
) -> None:
    bad = tmp_path / "bad.crgame"
    bad.write_text('{"format_version": 1')
    assert not window.play.open_file(bad)
    assert _no_modal_dialogs and _no_modal_dialogs[-1][0] == "Could not open the game"
    assert not window.play.active


def test_undo_takes_a_move_back_but_not_seen_dice(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    game = window.play.game
    before = game.state_hash()
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    assert game.state_hash() != before
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert game.state_hash() == before
    assert window.play.scene.figure_item("p4").pos() == QPointF(12.0, 33.0)
    assert not [e for e in window.play.log_dock.events() if e.kind == "move"]
    assert window.play.decision_dock.default is not None
    window.play.play_default()  # fires: dice are rolled and seen
    fired = game.state_hash()
    window.play.action_undo.trigger()
    assert "Cannot undo" in status(window) and "dice" in status(window)
    assert game.state_hash() == fired


def test_undo_takes_back_the_programs_steps_with_the_persons(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    from crdesk.game import GameSettings

    assert window.play.start(SEED_PLAYER_FIRST, settings=GameSettings(practice_undo=True))
    activate(window, qtbot)
    game = window.play.game
    before, steps = game.state_hash(), len(game.history)
    window.play.play_default()  # Sgt. Mace fires; Knuckles must duck back
    assert window.play.session.is_program_turn()
    window.play.run_program()  # the program ducks him back
    assert [s.actor for s in game.history[steps:]] == ["player", "enemy"]
    window.play.undo()
    assert "Step taken back" in status(window)
    assert game.state_hash() == before and len(game.history) == steps
    assert not window.play.session.is_program_turn()
    assert len(window.play.log_dock.events()) == len(game.events)


def test_a_game_the_program_plays_alone_ends(window: MainWindow) -> None:
    from crdesk.game import GameSettings

    settings = GameSettings(max_turns=1)
    assert window.play.start(SEED_PLAYER_FIRST, program={"player", "enemy"}, settings=settings)
    window.play.run_program()
    game = window.play.game
    assert game.awaiting() is None and game.outcome is not None
    dock = window.play.decision_dock
    assert "wins" in dock.actor_label.text() and dock.buttons == {}
    assert window.windowTitle().endswith("over — crdesk")


def test_a_scenario_that_cannot_be_played_says_why(
    window: MainWindow, _no_modal_dialogs: list[tuple[str, str]]
) -> None:
    from crdesk.model import Battlefield, Figure, Force, Scenario, Table

    lone = Force("p", "Lone squad", player=True, figures=[Figure("p1", "Cpl. Diaz", 4, x=5, y=5)])
    window.set_scenario(Scenario(Battlefield(Table(24, 24), forces=[lone]), title="Bare"), None)
    assert not window.play.start(3)
    assert _no_modal_dialogs[-1][0] == "Cannot start the encounter"
    assert "two sides" in _no_modal_dialogs[-1][1]
    assert not window.play.active and window.action_open.isEnabled()


def test_editor_undo_keeps_its_shortcut(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    drag(window.view, [(12.0, 33.0), (13.0, 33.0), (14.0, 33.0)])
    assert window.document.undo_stack.count() == 1
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.document.undo_stack.index() == 0
    assert window.scenario.battlefield.figure("p4").x == 12.0


# -- a look at it ----------------------------------------------------------------------


def test_screenshot_of_the_play_mode(window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])
    window.play.play_default()  # Sgt. Mace fires
    window.play.run_program()
    log = window.play.log_dock.list
    fire = next(r for r in range(log.count()) if log.item(r).data(EVENT_ROLE).kind == "fire")
    log.setCurrentRow(fire)
    image = screenshot(window, tmp_path, "play.png")
    cloth = colour_at(window, image, 30.0, 33.0)
    assert cloth.green() > cloth.red()
