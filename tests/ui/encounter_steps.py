"""The steps of the play mode's acceptance encounter (issue 12), shared by its variants.

One short scripted game through real mouse and keyboard events: activate Sgt.
Mace's squad with its button, drag Cpl. Diaz north until Knuckles comes into
sight and stops him, Enter through the In Sight test and the reactions, fire
with two clicks, End activation with E, Enter on to the next turn, save, reopen
and find the identical state.  The variants differ in who makes the decisions
that are not the squad's and in who rolls: :class:`Encounter` ``settle`` does
whatever the game waits for that is not part of the script (the program's
steps; in hot-seat the Red Vipers' person presses Enter; with manual dice the
faces are entered in the dice panel), and is called wherever the script would
wait for the table to catch up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from crdesk.game import CHANCE
from crdesk.game.actions import Fire
from tests.demos import in_sight_demo
from tests.ui.mouse import click, drag
from tests.ui.windows import open_window
from ui.main_window import MainWindow
from ui.play.start_dialog import OWN_DICE, PERSON, PROGRAM, SEEDED_DICE, StartDialog

SEED = 1
"""Seed 1: the Red Vipers' die is too high for their Leaders; Sgt. Mace's squad decides."""
DIAZ_PATH = [(14.5, 31.5), (16.0, 29.0), (18.0, 27.0), (18.5, 25.5)]
"""Cpl. Diaz's drag north: Knuckles comes into sight on the way (7.6)."""


def new_window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, in_sight_demo())
    window.activateWindow()  # the window's shortcuts (Enter, E) need it active
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    return window


def start_from_dialog(
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    *,
    program: set[str],
    own_dice: bool = False,
    seed: int = SEED,
) -> StartDialog:
    """Game ▸ Start encounter… with the dialog filled in as a person would: who plays
    each side, seeded or the person's own dice."""
    seen: list[StartDialog] = []

    def fill_in(dialog: StartDialog) -> int:
        seen.append(dialog)
        for side, box in dialog.side_boxes.items():
            box.setCurrentText(PROGRAM if side in program else PERSON)
        dialog.dice_box.setCurrentText(OWN_DICE if own_dice else SEEDED_DICE)
        dialog.seed_box.setValue(seed)
        assert dialog.seed_box.isEnabled() is not own_dice  # own dice: no seed to give
        dialog.solo_box.setChecked(False)  # the demo's Raid is offered: played as free play
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", fill_in)
    window.play.action_start.trigger()
    assert seen and window.play.active
    assert window.play.session is not None and window.play.session.program == program
    return seen[0]


@dataclass
class Encounter:
    """The window, the bot, and what is done for the decisions outside the script."""

    window: MainWindow
    qtbot: object
    settle: Callable[[Encounter], None] = field(default=lambda enc: enc.window.play.run_program())

    @property
    def game(self):  # type: ignore[no-untyped-def]
        game = self.window.play.game
        assert game is not None
        return game

    def catch_up(self) -> None:
        self.settle(self)

    def enter(self) -> None:
        """Enter in the decision panel: the highlighted option (the book's default)."""
        self.qtbot.keyClick(self.window.play.decision_dock, Qt.Key.Key_Return)  # type: ignore[attr-defined]


def activate_the_squad(enc: Encounter) -> None:
    """Activate Sgt. Mace's group with its button."""
    enc.catch_up()
    button = enc.window.play.decision_dock.buttons["activate p1"]
    enc.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    decision = enc.game.awaiting()
    assert decision is not None and decision.kind == "act"


def drag_until_in_sight(enc: Encounter) -> None:
    """Drag Cpl. Diaz north: Knuckles comes into sight and stops the move (7.6)."""
    game = enc.game
    drag(enc.window.view, DIAZ_PATH)
    moves = [e for e in game.events if e.kind == "move"]
    assert moves and "stops: Knuckles in sight" in moves[-1].text
    diaz = game.battlefield.figure("p2")
    assert (round(diaz.x, 1), round(diaz.y, 1)) != DIAZ_PATH[-1]  # stopped short
    decision = game.awaiting()
    assert decision is not None and decision.kind == "free_move"


def resolve_the_in_sight(enc: Encounter) -> None:
    """Enter takes the In Sight test at once (the book's default); the reactions resolve,
    Enter by Enter, until the squad may act again."""
    game = enc.game
    enc.enter()
    enc.catch_up()
    assert any(e.kind == "in_sight" for e in game.events)
    decision = game.awaiting()
    for _ in range(40):
        if decision is None or decision.kind == "act":
            break
        enc.enter()
        enc.catch_up()
        decision = game.awaiting()
    assert decision is not None and decision.kind == "act"


def fire_with_clicks(enc: Encounter) -> None:
    """Click a shooter the controller offers a shot to, then its target."""
    game = enc.game
    decision = game.awaiting()
    shots = [o for o in (decision.options if decision else ()) if isinstance(o, Fire)]
    assert shots, "a figure of the group has a shot after the In Sight"
    shot = shots[0]
    shooter, target = game.fig(shot.figure), game.fig(shot.targets[0][0])
    fired_before = sum(1 for e in game.events if e.kind == "fire")
    click(enc.window.view, shooter.x, shooter.y)
    click(enc.window.view, target.x, target.y)
    enc.catch_up()
    fired = [e for e in game.events if e.kind == "fire"]
    assert len(fired) > fired_before and fired[fired_before].figures[0] == shooter.id


def end_the_activation_and_the_turn(enc: Encounter) -> int:
    """E ends the activation; Enter plays on until the turn ends.  The turn it was."""
    game = enc.game
    turn = game.turn
    enc.catch_up()
    decision = game.awaiting()
    for _ in range(20):  # reactions to the volley may still be the squad's to decide
        if decision is None or decision.kind == "act":
            break
        enc.enter()
        enc.catch_up()
        decision = game.awaiting()
    assert decision is not None and decision.kind == "act", (decision, game.events[-3:])
    played = len(game.history)
    enc.qtbot.keyClick(enc.window, Qt.Key.Key_E)  # type: ignore[attr-defined]
    enc.catch_up()  # own dice: the end of the turn rolls the next turn's activation dice
    assert len(game.history) > played and game.history[played].action == "end"
    assert any(e.kind == "activation_end" and e.step == played + 1 for e in game.events)
    for _ in range(60):
        enc.catch_up()
        if game.turn > turn or game.awaiting() is None:
            break
        enc.enter()
    assert game.turn > turn or game.outcome is not None
    assert any(e.kind == "turn_end" for e in game.events)
    return turn


def save_and_reopen_identical(
    enc: Encounter, tmp_path: Path, program: set[str] | None = None
) -> MainWindow:
    """Save the game, reopen it in a fresh window (seated as saved, or with ``program``
    playing those sides): the identical state and history, seated the same."""
    game = enc.game
    path = tmp_path / "encounter.crgame"
    assert enc.window.play.save_to(path)
    again = new_window(enc.qtbot)
    assert again.play.open_file(path, program=program)
    assert again.play.game is not None
    assert again.play.game.state_hash() == game.state_hash()
    assert again.play.game.history == game.history
    assert again.play.session is not None
    assert again.play.session.program == enc.window.play.session.program  # type: ignore[union-attr]
    return again


def play_the_encounter(enc: Encounter, tmp_path: Path) -> MainWindow:
    """The whole script, start to reopened game."""
    activate_the_squad(enc)
    drag_until_in_sight(enc)
    resolve_the_in_sight(enc)
    fire_with_clicks(enc)
    end_the_activation_and_the_turn(enc)
    return save_and_reopen_identical(enc, tmp_path)


def chance_awaited(enc: Encounter) -> bool:
    decision = enc.game.awaiting()
    return decision is not None and decision.actor == CHANCE


def faces_cycle(faces: list[int]) -> Iterator[int]:
    while True:
        yield from faces
