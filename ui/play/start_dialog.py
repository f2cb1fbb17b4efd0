"""Game ▸ Start encounter…: the dice seed, who plays each side, solo play (PEFs) and the
encounter whose objectives the game tracks."""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QCheckBox,
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

from crdesk.game import MANUAL, SEEDED, GameSettings
from crdesk.model import EncounterType, Scenario

MAX_SEED = 2**31 - 1
PERSON = "A person at this screen"
PROGRAM = "The program (the book's choices)"
SEEDED_DICE = "Seeded dice (the program rolls)"
OWN_DICE = "I roll my own dice"
ENCOUNTERS = (
    (EncounterType.FREE, "Free play (no objective)"),
    (EncounterType.PATROL, "Patrol (12.1): reach the far edge in sections 1-3, come back"),
    (EncounterType.RAID, "Raid (12.2): find the objective and carry it off"),
    (EncounterType.DEFEND, "Defend (12.3): hold out against the enemy"),
)


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
        self.solo_box = QCheckBox("Solo: the enemy hides as PEFs the game moves and resolves (11)")
        self.solo_box.setToolTip(
            "Off: both sides are on the table as the scenario has them. On: the scenario's "
            "encounter is offered below"
        )
        self.solo_box.toggled.connect(self._solo_changed)
        form.addRow("Solo play:", self.solo_box)
        self.encounter_box = QComboBox()
        for kind, text in ENCOUNTERS:
            self.encounter_box.addItem(text, kind.value)
        self.encounter_box.setToolTip(
            "The objectives the game tracks and shows in the Objectives panel; an encounter "
            "is played solo (its enemies come only from PEFs, 12)"
        )
        self.encounter_box.currentIndexChanged.connect(self._encounter_changed)
        form.addRow("Encounter:", self.encounter_box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        start = buttons.button(QDialogButtonBox.StandardButton.Ok)
        start.setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _solo_changed(self, on: bool) -> None:
        """Solo on offers the scenario's own encounter; off is free play."""
        own = self.scenario.encounter.type
        kind = own if on else EncounterType.FREE
        if on and self.encounter() is not EncounterType.FREE:
            return
        self.encounter_box.setCurrentIndex(
            next(n for n, (k, _) in enumerate(ENCOUNTERS) if k is kind)
        )

    def _encounter_changed(self, _index: int) -> None:
        if self.encounter() is not EncounterType.FREE:
            self.solo_box.setChecked(True)

    def encounter(self) -> EncounterType:
        return EncounterType(self.encounter_box.currentData())

    def settings(self) -> GameSettings:
        """Solo play and the encounter chosen (the seats are the play mode's to add)."""
        kind = self.encounter()
        return GameSettings(
            solo=self.solo_box.isChecked(),
            encounter="" if kind is EncounterType.FREE else kind.value,
        )

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
