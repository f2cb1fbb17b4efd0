"""Co-op at one screen: the players named at Start encounter share the Red Vipers' groups,
and the turn panel, the decision panel and the hand-over banner say whose decision it is.

The demo table, seed 2: the Red Vipers activate first, the Viper boss's group (e1, e2)
then Dice's (e3, e4).  Alice plays the first, Bob the second.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from crdesk.game.savefile import load_game
from crdesk.game.seats import Seat, seats_of
from tests.ui.windows import open_window
from ui.main_window import MainWindow
from ui.play.start_dialog import PERSON, StartDialog

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def fill_in_coop(
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    names: str = "Alice, Bob",
    squad_by_program: bool = False,
) -> list[StartDialog]:
    """Start encounter… as a person fills it in: seed 2, both sides at this screen, the
    Red Vipers shared by ``names``; then a click on Start."""
    seen: list[StartDialog] = []

    def fill_in(dialog: StartDialog) -> int:
        seen.append(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.seed_box.setValue(2)
        if dialog.solo_box.isChecked():  # the demo is a Raid: played here as free play
            qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)
        assert not dialog.solo_box.isChecked()
        vipers = dialog.side_boxes["enemy"]
        vipers.setFocus()
        qtbot.keyClick(vipers, Qt.Key.Key_Up)  # the program -> a person at this screen
        assert vipers.currentText() == PERSON
        if squad_by_program:
            qtbot.keyClick(dialog.side_boxes["player"], Qt.Key.Key_Down)
        edit = dialog.player_edits["enemy"]
        assert edit.isEnabled()
        qtbot.keyClicks(edit, names)
        SHOTS.mkdir(parents=True, exist_ok=True)
        assert dialog.grab().save(str(SHOTS / "play-coop-start.png"))
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        return int(dialog.result())

    monkeypatch.setattr(StartDialog, "exec", fill_in)
    return seen


def test_the_start_dialog_shares_out_the_groups(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = StartDialog(window.scenario, window)
    qtbot.addWidget(dialog)
    dialog.show()
    picks = {g.leader: pick for g, pick in dialog.group_boxes["enemy"]}
    assert sorted(picks) == ["e1", "e3"]
    assert not dialog.player_edits["enemy"].isEnabled()  # the program plays the Vipers
    assert dialog.seats() == ()  # by default: one player per side, nothing stored
    qtbot.keyClick(dialog.side_boxes["enemy"], Qt.Key.Key_Up)
    qtbot.keyClicks(dialog.player_edits["enemy"], "Alice, Bob")
    assert [picks["e1"].currentText(), picks["e3"].currentText()] == ["Alice", "Bob"]
    qtbot.keyClick(picks["e3"], Qt.Key.Key_Up)  # Dice's group to Alice after all
    assert dialog.seats() == (
        Seat("Alice", "enemy", ("e1", "e2", "e3", "e4")),
        Seat("Bob", "enemy", ()),
    )
    qtbot.keyClick(picks["e3"], Qt.Key.Key_Down)
    # the same name twice cannot tell the players apart: said, and Start held
    qtbot.keyClicks(dialog.player_edits["player"], "alice")
    assert dialog.coop_note.isVisible() and "Two players are called" in dialog.coop_note.text()
    assert not dialog.start_button.isEnabled()
    dialog.player_edits["player"].clear()
    assert not dialog.coop_note.isVisible() and dialog.start_button.isEnabled()
    settings = dialog.settings()
    assert seats_of(settings) == (
        Seat("Alice", "enemy", ("e1", "e2")),
        Seat("Bob", "enemy", ("e3", "e4")),
    )
    qtbot.keyClick(dialog.side_boxes["enemy"], Qt.Key.Key_Down)  # back to the program
    assert dialog.seats() == () and not picks["e1"].isEnabled()


def test_whose_decision_it_is_in_the_panels_and_the_banner(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    seen = fill_in_coop(qtbot, monkeypatch)
    window.play.action_start.trigger()
    assert seen and window.play.active
    session = window.play.session
    game = window.play.game
    assert session is not None and game is not None and not session.program
    turn, dock, band = window.play.turn_dock, window.play.decision_dock, window.play.banner
    assert band is not None
    band.hold_ms = 10_000  # the hand-over stays up while the test looks
    assert turn.decider.text() == "Alice (Red Vipers) to decide"
    assert dock.actor_label.text() == "Alice (Red Vipers) to decide"
    row = next(label for label in turn.group_labels if label.objectName() == "group_e1")
    assert "Alice" in row.text()
    qtbot.mouseClick(dock.buttons["activate e1"], Qt.MouseButton.LeftButton)
    assert turn.decider.text() == "Alice (Red Vipers) to decide"
    shown = band.shown_count
    qtbot.mouseClick(turn.end_button, Qt.MouseButton.LeftButton)  # Alice's group is done
    # the same side, another player: the banner hands over within the side
    assert turn.decider.text() == "Bob (Red Vipers) to decide"
    assert dock.actor_label.text() == "Bob (Red Vipers) to decide"
    assert band.shown_count == shown + 1 and band.is_showing() and not band.compact
    assert band.text == "Bob (Red Vipers) to decide" and band.subtitle == "hand over to Bob"
    window.view.viewport().repaint()
    assert window.grab().save(str(SHOTS / "play-coop-banner.png"))
    button = dock.buttons["activate e3"]
    assert getattr(button, "full_text", "") == "⏎  Activate Dice's group — Bob"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert turn.decider.text() == "Bob (Red Vipers) to decide"
    qtbot.mouseClick(turn.end_button, Qt.MouseButton.LeftButton)
    # the other side: one person, named by the side as before
    assert turn.decider.text() == "Sgt. Mace's squad to decide"
    assert band.text == "Sgt. Mace's squad's activation"
    # saved and opened again, the game is seated the same way
    path = tmp_path / "coop.crgame"
    assert window.play.save_to(path)
    assert seats_of(load_game(path).game.settings) == seats_of(game.settings)
    assert window.play.open_file(path)
    assert window.play.turn_dock.decider.text() == "Sgt. Mace's squad to decide"
    assert seats_of(window.play.game.settings) == (
        Seat("Alice", "enemy", ("e1", "e2")),
        Seat("Bob", "enemy", ("e3", "e4")),
    )


def test_a_game_without_co_op_says_the_side_as_before(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fill_in_coop(qtbot, monkeypatch, names="")
    window.play.action_start.trigger()
    game = window.play.game
    assert game is not None and seats_of(game.settings) == ()
    assert type(game.settings).__name__ == "GameSettings"  # nothing new in its file
    assert window.play.turn_dock.decider.text() == "Red Vipers to decide"
    assert window.play.decision_dock.actor_label.text() == "Red Vipers to decide"


def test_co_op_against_the_program_hands_over_at_the_start(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fill_in_coop(qtbot, monkeypatch, squad_by_program=True)
    window.play.action_start.trigger()
    session, band = window.play.session, window.play.banner
    assert session is not None and band is not None and session.program == {"player"}
    assert band.is_showing() and not band.compact  # two people at the screen: the big card
    assert band.text == "Alice's turn"  # the one player asked, by name
    assert band.subtitle == "Red Vipers' activation · hand over to Alice"
    assert window.play.turn_dock.decider.text() == "Alice (Red Vipers) to decide"
