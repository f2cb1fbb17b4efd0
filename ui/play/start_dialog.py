"""Game ▸ Start encounter…: the dice seed and who plays each side."""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from crdesk.game import MANUAL, SEEDED
from crdesk.model import Scenario

MAX_SEED = 2**31 - 1
PERSON = "A person at this screen"
PROGRAM = "The program (the book's choices)"
SEEDED_DICE = "Seeded dice (the program rolls)"
OWN_DICE = "I roll my own dice"


def random_seed() -> int:
    return random.randrange(MAX_SEED)


def default_program(scenario: Scenario) -> set[str]:
    """The sides the program plays unless told otherwise: every force not marked the player's."""
    forces = scenario.battlefield.forces
    program = {f.id for f in forces if not f.player}
    if len(program) == len(forces):  # nobody is the player's: the program plays the second
        program = {forces[-1].id} if forces else set()
    return program


class StartDialog(QDialog):
    """Seeded dice (a number that replays the same rolls) and a person or the program per side."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Start encounter")
        self.scenario = scenario
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{scenario.title}</b>"))
        seed_row = QHBoxLayout()
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, MAX_SEED)
        self.seed_box.setValue(random_seed())
        self.seed_box.setToolTip("The same seed rolls the same dice: a game can be replayed")
        reroll = QPushButton("New seed")
        reroll.clicked.connect(lambda: self.seed_box.setValue(random_seed()))
        seed_row.addWidget(self.seed_box, 1)
        seed_row.addWidget(reroll)
        form.addRow("Dice seed:", seed_row)
        self.dice_box = QComboBox()
        self.dice_box.addItems([SEEDED_DICE, OWN_DICE])
        self.dice_box.setToolTip(
            "Your own dice: the game asks for the faces of every roll in a small dice panel "
            "(big 1-6 buttons, or the keys 1-6, Backspace and Enter)"
        )
        self.dice_box.currentIndexChanged.connect(self._dice_changed)
        self._seed_widgets = (self.seed_box, reroll)
        form.addRow("Dice:", self.dice_box)
        self.side_boxes: dict[str, QComboBox] = {}
        program = default_program(scenario)
        for force in scenario.battlefield.forces:
            box = QComboBox()
            box.addItems([PERSON, PROGRAM])
            box.setCurrentIndex(1 if force.id in program else 0)
            self.side_boxes[force.id] = box
            form.addRow(f"{force.name}:", box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        start = buttons.button(QDialogButtonBox.StandardButton.Ok)
        start.setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _dice_changed(self, _index: int) -> None:
        for widget in self._seed_widgets:
            widget.setEnabled(self.dice_mode() == SEEDED)

    def seed(self) -> int:
        return int(self.seed_box.value())

    def dice_mode(self) -> str:
        """``"seeded"`` or ``"manual"`` (the person's own dice)."""
        return MANUAL if self.dice_box.currentIndex() == 1 else SEEDED

    def program_sides(self) -> set[str]:
        return {side for side, box in self.side_boxes.items() if box.currentIndex() == 1}
