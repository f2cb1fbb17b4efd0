"""The play mode's panels: the turn panel, manual dice entry, the dice tray, firing from the table.

Real widgets driven by real mouse and key events; the program's side is run
deterministically (``autoplay`` off, ``run_program()``).  ``start`` uses seed 1:
activation dice Sgt. Mace's squad 4, Red Vipers 6; the Vipers have no group with Rep 6,
so Sgt. Mace's squad decides first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QDialog, QToolTip

from crdesk.game import MANUAL, SEEDED, adapter
from crdesk.odds import fire_odds
from tests.ui.mouse import NONE, click, send
from tests.ui.windows import activate, open_window, start
from ui.main_window import MainWindow
from ui.play.dice_tray import readings
from ui.play.turn_dock import ACTIVE, DONE, MAY

SHOTS = Path("/tmp/crdesk-shots")
MACE = (17.0, 32.0)
VIPER_BOSS = (9.0, 11.0)
KNUCKLES = (6.0, 11.5)


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def hover(window: MainWindow, x: float, y: float) -> None:
    send(window.view, QEvent.Type.MouseMove, x, y, NONE, NONE)


def kinds(window: MainWindow) -> list[str]:
    return [e.kind for e in window.play.game.events]


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


# -- the turn panel ----------------------------------------------------------------------


def test_the_turn_panel_shows_the_activation_dice_and_the_groups(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    start(window)
    panel = window.play.turn_dock
    assert panel.isVisible()
    assert panel.turn_label.text() == "Turn 1"
    roll = next(e for e in window.play.game.events if e.kind == "activation_roll")
    assert roll.data["scores"] == [4, 6]
    player, enemy = panel.side_rows["player"][0], panel.side_rows["enemy"][0]
    assert player.faces() == (4,) and enemy.faces() == (6,)
    blue = window.play.game.battlefield.force("player").colour.lower()
    assert player.dice[0].fill is not None and player.dice[0].fill.name() == blue
    assert "first" in panel.side_rows["enemy"][2].text()
    assert "active" in panel.side_rows["player"][2].text()
    assert panel.decider.text() == "Sgt. Mace's squad to decide"
    assert panel.group_states() == {"p1": MAY}
    assert "Rep 5" in panel.group_labels[0].text()
    assert not panel.end_button.isEnabled() and panel.pass_button.isEnabled()
    assert "End side" in panel.pass_button.text()
    activate(window, qtbot)
    assert panel.group_states() == {"p1": ACTIVE}
    assert "5 figures" in panel.group_labels[0].text()
    assert panel.end_button.isEnabled() and not panel.pass_button.isEnabled()


def test_the_end_activation_button_ends_the_activation(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    panel = window.play.turn_dock
    qtbot.mouseClick(panel.end_button, Qt.MouseButton.LeftButton)
    assert window.play.game.history[-1].action == "end"
    assert "activation_end" in kinds(window)
    assert not panel.end_button.isEnabled()
    # the squad was the side's only group: turn 2 is rolled, the Vipers go first
    assert panel.turn_label.text() == "Turn 2"
    session = window.play.session
    for _ in range(50):
        decision = session.awaiting()
        assert decision is not None
        if decision.actor == "player" and decision.kind == "activate":
            break
        if session.is_program_turn():
            window.play.run_program()
        else:
            window.play.play_default()  # the squad's duck backs
    assert panel.group_states() == {"e1": DONE, "p3": MAY}
    done = next(label for label in panel.group_labels if label.property("state") == DONE)
    assert "Viper boss" in done.text() and not done.isEnabled()


def test_e_is_the_shortcut_of_end_activation(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_E)  # no activation to end yet: nothing happens
    assert window.play.game.history[-1].action == "start"
    activate(window, qtbot)
    edit = window.play.decision_dock.action_edit
    qtbot.keyClicks(edit, "prone p1")  # typing an e or a p in the action box is typing
    assert edit.text() == "prone p1" and window.play.game.history[-1].action == "activate p1"
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_E)
    assert window.play.game.history[-1].action == "end"


def test_p_passes_the_side_from_the_panel(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_P)
    game = window.play.game
    assert game.history[-1].action == "pass"
    assert [e.kind for e in game.events if e.step == 2] == [
        "side_done",
        "turn_end",
        "activation_roll",
    ]
    assert window.play.turn_dock.turn_label.text() == "Turn 2"


# -- manual dice ----------------------------------------------------------------------------


def test_the_start_dialog_offers_own_dice(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.play.start_dialog import OWN_DICE, StartDialog

    def accept(dialog: StartDialog) -> int:
        assert dialog.dice_mode() == SEEDED and dialog.seed_box.isEnabled()
        dialog.dice_box.setCurrentText(OWN_DICE)
        assert dialog.dice_mode() == MANUAL and not dialog.seed_box.isEnabled()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", accept)
    window.play.action_start.trigger()
    assert window.play.active and window.play.game.dice_mode == MANUAL
    assert window.play.dice_entry.isVisible()


def test_a_manual_dice_game_takes_faces_from_the_dice_panel(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(0, dice=MANUAL)
    game = window.play.game
    panel = window.play.dice_entry
    assert panel.isVisible() and panel.waiting()
    assert panel.prompt_label.text().startswith("Roll 2d6 for 7.1 Activation")
    assert window.play.turn_dock.decider.text() == "Dice to roll: 2d6"
    assert not panel.send_button.isEnabled()
    pad = panel.pad
    qtbot.keyClick(pad, Qt.Key.Key_6)
    qtbot.keyClick(pad, Qt.Key.Key_Backspace)  # taken back
    qtbot.keyClick(pad, Qt.Key.Key_4)
    qtbot.keyClick(pad, Qt.Key.Key_Return)  # one die short: nothing is sent
    assert not game.history
    qtbot.keyClick(pad, Qt.Key.Key_1)
    assert panel.row.faces() == (4, 1) and panel.send_button.isEnabled()
    qtbot.keyClick(pad, Qt.Key.Key_5)  # both dice are in: a third is not taken
    assert panel.row.faces() == (4, 1)
    qtbot.keyClick(pad, Qt.Key.Key_Return)
    assert game.history[0].faces == (4, 1)
    assert window.play.turn_dock.side_rows["player"][0].faces() == (4,)
    assert window.play.turn_dock.side_rows["enemy"][0].faces() == (1,)
    decision = game.awaiting()
    assert decision is not None and decision.actor == "player"
    assert not panel.isVisible()
    # the player's fire waits for dice too: entered with the big buttons this time
    activate(window, qtbot)
    window.play.play_default()
    decision = game.awaiting()
    assert decision is not None and decision.actor == "chance" and panel.isVisible()
    prompts = []
    for _ in range(10):  # to hit, then damage, then the reaction: each asks in turn
        decision = game.awaiting()
        assert decision is not None
        if decision.actor != "chance":
            break
        prompts.append(panel.prompt_label.text())
        for _ in range(decision.dice):
            qtbot.mouseClick(panel.face_buttons[5], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert game.history[-1].action == "fire p1 at e1:3"
    assert game.history[-1].faces[:3] == (5, 5, 5)
    assert len(prompts) >= 2 and "Ranged Combat" in prompts[0]
    assert any(e.kind == "fire" for e in game.events) and not panel.isVisible()


def test_doubles_ask_for_the_dice_again(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(0, dice=MANUAL)
    panel = window.play.dice_entry
    for key in (Qt.Key.Key_3, Qt.Key.Key_3, Qt.Key.Key_Return):
        qtbot.keyClick(panel.pad, key)
    game = window.play.game
    assert not game.history and panel.waiting() and panel.row.faces() == ()
    assert panel.sent_row.faces() == (3, 3) and panel.sent_row.isVisible()
    for key in (Qt.Key.Key_3, Qt.Key.Key_5, Qt.Key.Key_Enter):
        qtbot.keyClick(panel.pad, key)
    assert game.history[0].faces == (3, 3, 3, 5)
    row = window.play.turn_dock.side_rows["player"][0]
    assert row.faces() == (3, 3) and [d.faded for d in row.dice] == [True, False]
    assert "rerolled" in window.play.turn_dock.roll_note.text()
    assert panel.sent == [] and not panel.isVisible()


def test_undo_drops_an_action_waiting_for_dice(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(0, dice=MANUAL)
    window.play.undo()
    assert "opening activation roll" in status(window)
    window.play.dice_entry.add_face(4)
    window.play.dice_entry.add_face(1)
    assert window.play.dice_entry.send()
    activate(window, qtbot)
    game = window.play.game
    before = game.state_hash()
    window.play.play_default()  # fire: dice are awaited
    assert window.play.dice_entry.waiting()
    window.play.undo()
    assert game.state_hash() == before and not window.play.dice_entry.isVisible()


# -- the dice tray ----------------------------------------------------------------------------


def test_the_dice_tray_shows_the_last_rolls_with_their_verdicts(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    tray = window.play.dice_tray
    assert tray.isVisible() and tray.title.text().startswith("Step 1 rolled")
    assert tray.shown_faces()[-2:] == [(4,), (6,)]
    activate(window, qtbot)
    window.play.play_default()  # Sgt. Mace fires at the Viper boss
    assert tray.title.text() == "Step 3 rolled (the last step)"
    fire = tray.cards[0]
    assert fire.card.event.kind == "fire"
    shots = fire.card.readings[0]
    assert [d.face for d in shots.dice] == [5, 4, 4]
    assert all(d.verdict == "good" for d in shots.dice) and "3 hits" in shots.caption
    assert "+5=" in shots.dice[0].tip  # the Ranged Combat reading of each die
    damage = fire.card.readings[1]
    assert [d.face for d in damage.dice] == [5, 6, 6]
    assert [d.verdict for d in damage.dice] == ["bad", "bad", "bad"]
    reaction = next(c for c in tray.cards if c.card.event.kind == "reaction")
    texts = [r.caption for r in reaction.card.readings]
    assert any("Knuckles: vs Rep 4, passed 1" in t and "duck back" in t for t in texts)
    assert texts[0] == "Man Down"
    assert reaction.rows[0].faces() == (5, 3)


def test_readings_fall_back_to_plain_dice() -> None:
    from crdesk.game import Event

    event = Event(1, "mystery", "9.9", "Something rolled.", dice=(2, 5), data={})
    (reading,) = readings(event)
    assert [d.face for d in reading.dice] == [2, 5] and reading.verdict is None
    assert readings(Event(1, "move", "7.4", "No dice.")) == []


# -- firing from the table ------------------------------------------------------------------


def test_hovering_an_enemy_shows_the_exact_odds_and_clicking_fires(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    start(window)
    activate(window, qtbot)
    tool = window.play.move_tool
    click(window.view, *MACE)
    assert tool.selected == "p1" and "click an enemy to fire" in status(window)
    hover(window, *VIPER_BOSS)
    shot = tool.hovered
    assert shot is not None and shot.target == "e1" and shot.action is not None
    assert str(shot.action) == "fire p1 at e1"
    game = window.play.game
    mace, boss = game.fig("p1"), game.fig("e1")
    spec = adapter.target_spec(boss, mace, game.sight())
    exact = fire_odds(mace.rep, mace.weapon, [spec], options=game.rules).targets[0]
    assert shot.hit == exact.hit
    text = tool.hover_text()
    assert "Sgt. Mace → Viper boss" in text and 'Range 21.5"' in text
    assert "not in Cover" in text and "Click to fire" in text
    assert f"hit {round(float(exact.hit) * 100)}%" in text
    assert QToolTip.isVisible() and "Viper boss" in QToolTip.text()
    steps = len(game.history)
    click(window.view, *VIPER_BOSS)
    assert len(game.history) == steps + 1 and game.history[-1].action == "fire p1 at e1"
    fire = [e for e in game.events if e.kind == "fire"]
    assert fire and fire[-1].figures[:2] == ("p1", "e1")
    assert window.play.dice_tray.cards[0].card.event.kind == "fire"
    assert "Sgt. Mace fires at Viper boss" in status(window)


def test_an_enemy_out_of_sight_cannot_be_fired_at(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    tool = window.play.move_tool
    click(window.view, *MACE)
    hover(window, *KNUCKLES)
    assert tool.hovered is not None and tool.hovered.action is None
    assert "No line of sight" in tool.hover_text()
    before = window.play.game.state_hash()
    click(window.view, *KNUCKLES)
    assert tool.last_fire_reason is not None and "line of sight" in tool.last_fire_reason
    assert status(window).startswith("Cannot fire:")
    assert window.play.game.state_hash() == before
    click(window.view, 30.0, 20.0)  # a click on the open table lets go of the shooter
    assert tool.selected is None
    hover(window, *VIPER_BOSS)
    assert tool.hovered is None
    click(window.view, *MACE)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)  # so does Esc
    assert tool.selected is None


def test_no_shooter_is_kept_when_the_group_may_not_act(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    click(window.view, *MACE)
    assert window.play.move_tool.selected == "p1"
    qtbot.mouseClick(window.play.turn_dock.end_button, Qt.MouseButton.LeftButton)
    assert window.play.move_tool.selected is None


# -- a look at it ----------------------------------------------------------------------------


def _grab_tooltip(path: Path) -> bool:
    for widget in QApplication.topLevelWidgets():
        if widget.inherits("QTipLabel") and widget.isVisible():
            return widget.grab().save(str(path))
    return False


def test_screenshot_of_the_play_panels(window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(window)
    activate(window, qtbot)
    window.play.play_default()  # Sgt. Mace fires: the tray shows the volley and the reaction
    window.play.run_program()
    click(window.view, 19.5, 31.5)  # Pvt. Okafor
    hover(window, 24.5, 11.5)  # Dice, the Viper in the open
    assert window.play.move_tool.hovered is not None
    QApplication.processEvents()  # the docks take the sizes the play mode gave them
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = window.grab().toImage()
    assert image.save(str(tmp_path / "play-panels.png"))
    image.save(str(SHOTS / "play-panels.png"))
    _grab_tooltip(SHOTS / "play-odds-tooltip.png")
    tray = window.play.dice_tray
    assert tray.cards and tray.cards[0].rows[0].isVisible()
    top = tray.mapTo(window, tray.rect().topLeft())
    assert top.y() > window.play.turn_dock.mapTo(window, window.play.turn_dock.rect().topLeft()).y()


def test_screenshot_of_the_dice_entry(window: MainWindow, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(0, dice=MANUAL)
    for key in (Qt.Key.Key_3, Qt.Key.Key_3, Qt.Key.Key_Return, Qt.Key.Key_5):
        qtbot.keyClick(window.play.dice_entry.pad, key)
    QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = window.grab().toImage()
    assert image.save(str(tmp_path / "play-dice.png"))
    image.save(str(SHOTS / "play-dice-entry.png"))
