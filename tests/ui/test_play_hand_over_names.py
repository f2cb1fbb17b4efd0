"""Hot-seat with the players named (issue 31, "Also found on the table"): the hand-over
banner names whom to hand over to, at a side's activation ("Alice's turn") and when a
decision passes to the other player in the middle of an activation (a Received Fire or
Man Down test, a Duck Back of the other side): "Bob (Sgt. Mace's squad) to decide".

The demo table, seed 2, both sides at this screen: Alice plays the Red Vipers, Bob Sgt.
Mace's squad.  The Vipers go first; the Viper boss fires at the squad and Bob must
take Sgt. Mace's Received Fire test; then (Sgt. Mace's Duck Back brings the Vipers into
sight, 7.6.2) Dice ducks back from Pvt. Okafor, Alice's call.
The hand-over waits until the table has shown the step (the animator on a manual clock).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from crdesk.ai.policy import BookPolicy
from crdesk.game.seats import Seat, seats_of
from tests.ui.windows import SHOTS, open_window
from ui.main_window import MainWindow
from ui.play.animator import NORMAL, Animator
from ui.play.banner import HandOverBanner
from ui.play.start_dialog import PERSON, StartDialog

BOOK = BookPolicy()


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def start_hot_seat(qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Start encounter… as the two players fill it in: seed 2, both sides at this screen,
    Alice for the Red Vipers and Bob for the squad."""

    def fill_in(dialog: StartDialog) -> int:
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.seed_box.setValue(2)
        if dialog.solo_box.isChecked():
            qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)
        vipers = dialog.side_boxes["enemy"]
        vipers.setFocus()
        qtbot.keyClick(vipers, Qt.Key.Key_Up)  # the program -> a person at this screen
        assert vipers.currentText() == PERSON
        qtbot.keyClicks(dialog.player_edits["enemy"], "Alice")
        qtbot.keyClicks(dialog.player_edits["player"], "Bob")
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        return int(dialog.result())

    monkeypatch.setattr(StartDialog, "exec", fill_in)
    window.play.action_start.trigger()
    game = window.play.game
    assert game is not None and window.play.session is not None
    assert not window.play.session.program
    seats = seats_of(game.settings)
    assert sorted((s.name, s.side) for s in seats) == [("Alice", "enemy"), ("Bob", "player")]
    assert all(isinstance(s, Seat) for s in seats)


def parts(window: MainWindow) -> tuple[HandOverBanner, Animator]:
    assert window.play.banner is not None and window.play.animator is not None
    return window.play.banner, window.play.animator


def play_until_handed_over(window: MainWindow) -> None:
    """The book's choices, each step shown to its end, until the banner hands over."""
    band, anim = parts(window)
    session = window.play.session
    assert session is not None
    shown = band.shown_count
    for _ in range(60):
        decision = session.awaiting()
        assert decision is not None
        assert session.play(BOOK.decide(session.game, decision)[0]) is None
        if anim.running():
            assert band.shown_count == shown, "the hand-over came before the step was shown"
            anim.advance(60_000)
        if band.shown_count > shown:
            assert band.is_showing()
            return
    raise AssertionError("no hand-over")


def test_the_banner_names_the_player_to_hand_over_to(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start_hot_seat(qtbot, window, monkeypatch)
    band, anim = parts(window)
    anim.manual_clock = True
    anim.speed = NORMAL
    band.hold_ms = 60_000  # the banner stays up while the test looks
    assert band.is_showing() and not band.compact
    assert band.text == "Alice's turn"
    assert band.subtitle == "Red Vipers' activation · hand over to Alice"
    # the Viper boss fires: Sgt. Mace's Received Fire test is Bob's to take
    play_until_handed_over(window)
    assert band.text == "Bob (Sgt. Mace's squad) to decide"
    assert band.subtitle == "hand over to Bob · Sgt. Mace takes Received Fire and Man Down"
    assert band.side == "player" and not band.compact
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.view.viewport().repaint()
    assert window.grab().save(str(SHOTS / "play-hand-over-names.png"))
    # the squad's In Sight fire: Dice ducks back, Alice's call, in the Vipers' activation
    play_until_handed_over(window)
    assert band.text == "Alice (Red Vipers) to decide"
    assert band.subtitle == "hand over to Alice · Dice ducks back from Pvt. Okafor"
    # on to Bob's turn, the squad's activation (still turn 1: no turn named)
    for _ in range(10):
        play_until_handed_over(window)
        if band.text.endswith("'s turn") and band.side == "player":
            break
    assert band.text == "Bob's turn"
    assert band.subtitle == "Sgt. Mace's squad's activation · hand over to Bob"
    assert window.play.turn_dock.decider.text() == "Bob (Sgt. Mace's squad) to decide"


def test_without_names_the_hand_over_says_the_side_as_before(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    assert window.play.start(2, set())  # both sides at this screen, nobody named
    band, anim = parts(window)
    anim.manual_clock = True
    band.hold_ms = 60_000
    assert band.text == "Red Vipers' activation"
    assert band.subtitle == "hand over to Red Vipers' player"
    play_until_handed_over(window)
    assert band.text == "Sgt. Mace's squad to decide"
    assert band.subtitle.startswith("hand over to Sgt. Mace's squad's player · Sgt. Mace takes")
