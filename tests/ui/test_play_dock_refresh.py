"""The play docks refresh in place (issue 12, next decision ≤ 30 ms): rows and buttons are
kept and filled in again, a refresh with nothing changed does nothing, undo drops only the
undone log rows, and a hidden log or dice tray catches up when it is shown again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.encounter_steps import SEED, new_window
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = new_window(qtbot)
    assert window.play.start(SEED)
    window.play.run_program()
    return window


def test_the_panels_keep_their_widgets_from_step_to_step(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    play = window.play
    turn, dock = play.turn_dock, play.decision_dock
    rows = {side: tuple(widgets) for side, widgets in turn.side_rows.items()}
    (group,) = turn.group_labels
    activate = dock.buttons["activate p1"]
    assert "may activate" in group.text()
    qtbot.mouseClick(activate, Qt.MouseButton.LeftButton)
    # the same rows and label, with the new values
    assert {side: tuple(widgets) for side, widgets in turn.side_rows.items()} == rows
    assert turn.group_labels == [group] and "active" in group.text()
    assert group.property("state") == "active" and group.font().bold()
    # the first option button is kept and given the new decision's default
    first = next(iter(dock.buttons.values()))
    assert first is activate and first.option == dock.default
    assert str(dock.default) != "activate p1" and "⏎" in first.text()
    others = [b for b in dock.buttons.values() if b is not first]
    assert others and not any(b.objectName() == "defaultOption" for b in others)
    assert not any(b.font().bold() or "⏎" in b.text() for b in others)


def test_a_refresh_with_nothing_changed_touches_nothing(window: MainWindow) -> None:
    dock = window.play.decision_dock
    buttons = dict(dock.buttons)
    texts = {key: b.text() for key, b in buttons.items()}
    dock.actor_label.setText("scribbled")  # a refresh would write the decider back
    dock.refresh()
    assert dock.actor_label.text() == "scribbled"
    assert dock.buttons == buttons and {k: b.text() for k, b in buttons.items()} == texts
    dock.set_session(dock.session)  # bound afresh: shown afresh
    assert dock.actor_label.text() == "Sgt. Mace's squad to decide"


def test_undo_drops_only_the_undone_log_rows(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    play = window.play
    log = play.log_dock.list
    first = log.item(0)
    before = log.count()
    qtbot.mouseClick(play.decision_dock.buttons["activate p1"], Qt.MouseButton.LeftButton)
    assert log.count() > before
    play.undo()
    assert log.count() == before and log.item(0) is first
    assert play.log_dock.events() == list(play.game.events)


def test_a_hidden_log_and_tray_catch_up_when_shown(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    play = window.play
    play.log_dock.hide()
    play.dice_tray.hide()
    listed = play.log_dock.list.count()
    qtbot.mouseClick(play.decision_dock.buttons["activate p1"], Qt.MouseButton.LeftButton)
    play.play_default()  # Sgt. Mace fires: the tray would show the volley
    assert play.log_dock.list.count() == listed  # nothing done while hidden
    assert play.dice_tray.cards[0].card.event.kind == "activation_roll"
    play.dice_tray.show()
    play.log_dock.show()
    assert play.dice_tray.cards[0].card.event.kind == "fire"
    assert play.log_dock.events() == list(play.game.events)
    assert play.dice_tray.title.text().startswith(f"Step {len(play.game.history)} rolled")
