"""The acceptance encounter (issue 12) played two more ways: in hot-seat, both sides by
people at this screen, and with the player's own dice entered in the dice panel.

Both start from Game ▸ Start encounter… filled in as a person would, play the
script of :mod:`tests.ui.encounter_steps` with real mouse and keyboard events,
and end with save → reopen → the identical state."""

from __future__ import annotations

from itertools import chain, count
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from crdesk.game import CHANCE, MANUAL
from tests.ui import encounter_steps as steps
from tests.ui.encounter_steps import Encounter, new_window, start_from_dialog
from tests.ui.mouse import drag
from ui.main_window import MainWindow
from ui.play.dice_entry import FACE_KEYS

SHOTS = Path("/tmp/crdesk-shots")
NAMES = {"player": "Sgt. Mace's squad", "enemy": "Red Vipers"}
KNUCKLES_PATH = [(4.1, 8.2), (4.5, 9.0), (4.9, 9.8)]
"""Knuckles steps south-east, back from where he ducked, in turn 2 of the hot-seat game."""
KEYS = {face: key for key, face in FACE_KEYS.items()}
SEED_1_STEPS = [
    ("start", (4, 6)),
    ("activate p1", ()),
    ("move p2 18.49,25.51", ()),
    ("pass", (4, 5, 4, 5, 6, 6, 5, 3, 6, 2, 4, 3, 1, 3, 3, 2, 5)),
    ("duckback e2 auto", (2, 6, 4, 5, 6, 5, 5, 4, 5, 2, 5, 5, 5)),
    ("duckback e1 auto", (1, 2, 2, 3)),
    ("duckback e3 auto", (6, 3, 4, 5, 3)),
    ("fire p5 at e3", (4, 5, 3, 4, 5, 3)),
    ("end", (4, 5)),
]
"""The seeded encounter (seed 1) step by step, with the faces each step rolled: entering
the same faces by hand must play the same game."""


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    return new_window(qtbot)


# -- hot-seat ---------------------------------------------------------------------------


class HotSeat:
    """Both sides at this screen: whoever decides, the turn panel must say so."""

    def __init__(self) -> None:
        self.deciders: list[str] = []
        """Each side that had a decision, in the order the decisions came (no repeats)."""

    def settle(self, enc: Encounter) -> None:
        enc.window.play.run_program()  # no program side: only finishes the table's show
        session = enc.window.play.session
        assert session is not None and not session.program_pending()
        decision = enc.game.awaiting()
        if decision is None or decision.actor == CHANCE:
            return
        assert not session.is_program_turn()  # nobody is the program's: a person decides
        said = enc.window.play.turn_dock.decider.text()
        assert said == f"{NAMES[decision.actor]} to decide"
        assert enc.window.play.decision_dock.actor_label.text() == said
        if not self.deciders or self.deciders[-1] != decision.actor:
            self.deciders.append(decision.actor)


def test_the_encounter_in_hot_seat(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    start_from_dialog(window, monkeypatch, program=set())
    seat = HotSeat()
    enc = Encounter(window, qtbot, seat.settle)
    steps.activate_the_squad(enc)
    steps.drag_until_in_sight(enc)
    steps.resolve_the_in_sight(enc)
    # the Red Vipers' person chose their duck backs: the decision changed hands and back
    assert seat.deciders[:3] == ["player", "enemy", "player"]
    steps.fire_with_clicks(enc)
    steps.end_the_activation_and_the_turn(enc)
    game = enc.game
    # the squad passes its turn with P; the Red Vipers' person activates Knuckles by mouse
    for _ in range(30):
        enc.catch_up()
        decision = game.awaiting()
        assert decision is not None
        if decision.actor == "enemy" and decision.kind == "activate":
            break
        if decision.actor == "player" and decision.kind == "activate":
            qtbot.keyClick(window, Qt.Key.Key_P)
        else:
            enc.enter()
    else:
        raise AssertionError("the Red Vipers never had a group to activate")
    assert window.play.turn_dock.decider.text() == "Red Vipers to decide"
    qtbot.mouseClick(window.play.decision_dock.buttons["activate e2"], Qt.MouseButton.LeftButton)
    enc.catch_up()
    assert game.awaiting() is not None and game.awaiting().actor == "enemy"
    drag(window.view, KNUCKLES_PATH)
    move = [e for e in game.events if e.kind == "move"][-1]
    assert move.figures[0] == "e2"
    knuckles = game.fig("e2")
    assert (knuckles.x, knuckles.y) == pytest.approx(KNUCKLES_PATH[-1], abs=0.1)
    assert window.play.turn_dock.decider.text() == "Red Vipers to decide"
    assert window.play.turn_dock.group_states().get("e2") == "active"
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-hot-seat.png"))
    steps.end_the_activation_and_the_turn(enc)
    assert "enemy" in seat.deciders and seat.deciders.count("player") >= 2
    again = steps.save_and_reopen_identical(enc, tmp_path, program=set())
    assert again.play.turn_dock.decider.text().endswith("to decide")


def test_a_hot_seat_game_reopens_in_hot_seat(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    start_from_dialog(window, monkeypatch, program=set())
    path = tmp_path / "hot.crgame"
    assert window.play.save_to(path)
    again = new_window(qtbot)
    assert again.play.open_file(path)
    assert again.play.session is not None and again.play.session.program == set()


# -- the player's own dice -----------------------------------------------------------------


class OwnDice:
    """Every roll entered in the dice panel, by its big buttons and by the keys in turn."""

    def __init__(self, first: list[int], then: list[int]) -> None:
        self.faces = chain(first, steps.faces_cycle(then))
        self.turns = count()
        self.by_buttons = 0
        self.by_keys = 0

    def settle(self, enc: Encounter) -> None:
        play = enc.window.play
        for _ in range(50):
            play.run_program()
            decision = enc.game.awaiting()
            if decision is None or decision.actor != CHANCE:
                return
            self.roll(enc, decision.dice)
        raise AssertionError(f"the game kept asking for dice: {enc.game.events[-4:]}")

    def roll(self, enc: Encounter, dice: int) -> None:
        entry = enc.window.play.dice_entry
        qtbot = enc.qtbot
        assert entry.isVisible() and entry.waiting()
        assert enc.window.play.turn_dock.decider.text() == f"Dice to roll: {dice}d6"
        faces = [next(self.faces) for _ in range(dice)]
        steps_before = len(enc.game.history)
        if self.by_buttons + self.by_keys == 3:  # a roll with the panel up, as a player sees it
            SHOTS.mkdir(parents=True, exist_ok=True)
            assert enc.window.grab().save(str(SHOTS / "play-own-dice.png"))
        if next(self.turns) % 2 == 0:
            for face in faces:
                qtbot.mouseClick(entry.face_buttons[face], Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
            assert entry.row.faces() == tuple(faces) and entry.send_button.isEnabled()
            qtbot.mouseClick(entry.send_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
            self.by_buttons += 1
        else:
            for face in faces:
                qtbot.keyClick(entry.pad, KEYS[face])  # type: ignore[attr-defined]
            qtbot.keyClick(entry.pad, Qt.Key.Key_Backspace)  # take the last one back...
            assert len(entry.faces) == dice - 1
            qtbot.keyClick(entry.pad, KEYS[faces[-1]])  # ...and enter it again
            qtbot.keyClick(entry.pad, Qt.Key.Key_Return)  # type: ignore[attr-defined]
            self.by_keys += 1
        decision = enc.game.awaiting()
        more = decision is not None and decision.actor == CHANCE  # doubles: roll again
        assert len(enc.game.history) > steps_before or more


def test_the_encounter_with_my_own_dice(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    start_from_dialog(window, monkeypatch, program={"enemy"}, own_dice=True)
    game = window.play.game
    assert game is not None and game.dice_mode == MANUAL
    faces = [f for _action, rolled in SEED_1_STEPS for f in rolled]
    own = OwnDice(faces, [3, 4, 5])  # seed 1's dice, face by face
    enc = Encounter(window, qtbot, own.settle)
    assert not game.events  # nothing is rolled until the faces are entered
    enc.catch_up()
    activation = next(e for e in game.events if e.kind == "activation_roll")
    assert activation.data["scores"] == [4, 6]  # the faces entered, as seed 1 rolled them
    again = steps.play_the_encounter(enc, tmp_path)
    assert own.by_buttons >= 2 and own.by_keys >= 2
    # the same faces entered by hand played the seeded game, step by step
    assert [(s.action, s.faces) for s in game.history] == SEED_1_STEPS
    assert again.play.game is not None and again.play.game.dice_mode == MANUAL
