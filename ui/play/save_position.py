"""Game ▸ Save Position as Scenario…, and the question before going back to the editor.

The position becomes a new ``.crdesk`` file (:func:`crdesk.game.position.position_scenario`
says what is kept and what a scenario cannot hold); the game goes on and the
scenario open in the editor is neither changed nor saved over.

Going back to the editor on a game that is not over asks first, since terrain
cannot be edited mid-game: the question offers to save the game, to save the
position as a new scenario (to edit and play on from later), or just to go.
"""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from crdesk import scenario as scenario_io
from crdesk.errors import CrdeskError
from crdesk.game import Game
from crdesk.game.position import Position, position_scenario

if TYPE_CHECKING:
    from ui.main_window import MainWindow

SCENARIO_FILTER = "Chain Reaction scenarios (*.crdesk);;All files (*)"


def default_position_path(window: MainWindow, game: Game) -> str:
    """Beside the open scenario: "<name> - turn 3.crdesk"."""
    stem = window.path.stem if window.path is not None else (game.scenario.title or "position")
    name = f"{stem} - turn {game.turn}.crdesk"
    return str(window.path.with_name(name)) if window.path is not None else name


def save_position_to(window: MainWindow, game: Game, path: str | os.PathLike[str]) -> bool:
    """Write the position; what was left out goes to the status bar.  Failures are shown."""
    target = Path(path)
    if window.path is not None and target.resolve() == window.path.resolve():
        window.show_error(
            "Not saved over the open scenario",
            f"{target.name} is the scenario open in the editor; the position is a new "
            "scenario: save it under another name.",
        )
        return False
    try:
        position: Position = position_scenario(game)
        scenario_io.save(position.scenario, target)
    except (OSError, CrdeskError, ValueError) as exc:
        window.show_error("Could not save the position", str(exc))
        return False
    window.statusBar().showMessage(
        f"Saved the position as the scenario {target.name}. {position.note()}", 12_000
    )
    return True


def save_position_dialog(window: MainWindow, game: Game) -> bool:
    """Ask where, then write; False when cancelled or not written."""
    path, _ = QFileDialog.getSaveFileName(
        window, "Save position as scenario", default_position_path(window, game), SCENARIO_FILTER
    )
    if not path:
        return False
    if not Path(path).suffix:
        path += ".crdesk"
    return save_position_to(window, game, path)


class Leave(Enum):
    """The answers to "Leave play mode?"."""

    SAVE_GAME = "save game"
    SAVE_POSITION = "save position"
    LEAVE = "leave"
    STAY = "stay"


class LeaveQuestion:
    """The "Leave play mode?" question (one call, so that tests can answer it)."""

    @staticmethod
    def ask(parent: QWidget, game: Game, unsaved: bool) -> Leave:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Leave play mode?")
        box.setText(f"The game is at turn {game.turn} and not over.")
        steps = " Its last steps are not saved." if unsaved else ""
        box.setInformativeText(
            "The editor cannot change the table in the middle of a game: going back puts "
            "the game away. You can save the position as a new scenario to edit and play on "
            f"from.{steps}"
        )
        save_game = box.addButton("Save Game…", QMessageBox.ButtonRole.AcceptRole)
        save_game.setVisible(unsaved)
        position = box.addButton("Save Position as Scenario…", QMessageBox.ButtonRole.AcceptRole)
        leave = box.addButton(
            "Leave Without Saving" if unsaved else "Back to the Editor",
            QMessageBox.ButtonRole.DestructiveRole if unsaved else QMessageBox.ButtonRole.YesRole,
        )
        stay = box.addButton("Keep Playing", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(save_game if unsaved else position)
        box.setEscapeButton(stay)
        box.exec()
        clicked = box.clickedButton()
        if clicked is save_game:
            return Leave.SAVE_GAME
        if clicked is position:
            return Leave.SAVE_POSITION
        if clicked is leave:
            return Leave.LEAVE
        return Leave.STAY
