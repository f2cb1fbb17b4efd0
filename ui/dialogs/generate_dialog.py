"""Generate table…: the book's nine-section tables (9.2-9.5) with a live preview and roll log."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)
from shapely import affinity

from crdesk import limits
from crdesk.dice import Dice
from crdesk.errors import CrdeskError
from crdesk.game.deployment import copy_force
from crdesk.generator import format_entry, generate
from crdesk.model import Battlefield, Force, Scenario, TerrainFeature
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView

MAX_SEED = 2**31 - 1
PREVIEW_DELAY_MS = 150
"""Wait this long after the last change before regenerating, so typing stays smooth."""


class GenerateDialog(QDialog):
    """Pick type, size, encounter, scale and seed; see the table and its rolls; accept."""

    def __init__(
        self,
        parent: QWidget | None = None,
        width: float = 36,
        height: float = 36,
        scale: str = "28mm",
        seed: int | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Generate table")
        self._scenario: Scenario | None = None
        self._scene: BattlefieldScene | None = None
        self._rng = random.Random()

        self.type_box = QComboBox()
        for label, value in (
            ("Roll it (9.2)", "roll"),
            ("Clear", "clear"),
            ("Urban", "urban"),
            ("Wooded", "wooded"),
            ("Mountainous", "mountain"),
        ):
            self.type_box.addItem(label, value)
        self.type_box.setToolTip("Overall terrain type; 'Roll it' rolls 1d6 on table 9.2")
        self.width_box = self._inches(width, "Table width in inches")
        self.height_box = self._inches(height, "Table height in inches")
        self.encounter_box = QComboBox()
        for label, value in (
            ("None", "none"),
            ("Patrol", "patrol"),
            ("Raid (+1/2d6 buildings in section 2)", "raid"),
            ("Defend (+1/2d6 buildings in section 8)", "defend"),
        ):
            self.encounter_box.addItem(label, value)
        self.encounter_box.setToolTip("Raid and Defend add buildings (12.2, 12.3)")
        self.scale_box = QComboBox()
        self.scale_box.addItems(["28mm", "15mm"])
        self.scale_box.setCurrentText(scale)
        self.scale_box.setToolTip('Building areas are 6" at 28mm, 4" at 15mm (8.1)')
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, MAX_SEED)
        self.seed_box.setValue(seed if seed is not None else self._rng.randint(0, 99_999))
        self.seed_box.setToolTip("The same seed and settings always give the same table")
        self.dice_button = QPushButton("Roll seed")
        self.dice_button.setToolTip("Pick a new random seed")
        self.dice_button.clicked.connect(self.roll_seed)

        size_row = QHBoxLayout()
        size_row.addWidget(self.width_box)
        size_row.addWidget(QLabel("×"))
        size_row.addWidget(self.height_box)
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed_box, 1)
        seed_row.addWidget(self.dice_button)
        form = QFormLayout()
        form.addRow("&Type:", self.type_box)
        form.addRow(self._label("&Size:", self.width_box), size_row)
        form.addRow("&Encounter:", self.encounter_box)
        form.addRow("S&cale:", self.scale_box)
        form.addRow(self._label("S&eed:", self.seed_box), seed_row)

        self.view = BattlefieldView()
        self.view.setMinimumSize(360, 360)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setFont(QFont("DejaVu Sans Mono", 9))
        self.log.setToolTip("Every roll of the generation, with its table and section")
        self.status = QLabel()
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(self.log)
        splitter.setSizes([420, 160])

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Use this table")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        left = QVBoxLayout()
        left.addLayout(form)
        left.addStretch(1)
        left.addWidget(self.status)
        layout = QHBoxLayout(self)
        layout.addLayout(left)
        right = QVBoxLayout()
        right.addWidget(splitter, 1)
        right.addWidget(self.buttons)
        layout.addLayout(right, 1)
        self.resize(940, 640)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.regenerate)
        for box in (self.type_box, self.encounter_box, self.scale_box):
            box.currentIndexChanged.connect(self._schedule)
        for spin in (self.width_box, self.height_box, self.seed_box):
            spin.valueChanged.connect(self._schedule)
        self.regenerate()

    @staticmethod
    def _label(text: str, buddy: QWidget) -> QLabel:
        label = QLabel(text)
        label.setBuddy(buddy)
        return label

    @staticmethod
    def _inches(value: float, tip: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(limits.TABLE_MIN, limits.TABLE_MAX)  # crdesk generate's bounds
        box.setDecimals(0)
        box.setSuffix('"')
        box.setValue(value)
        box.setToolTip(tip)
        return box

    def roll_seed(self) -> None:
        self.seed_box.setValue(self._rng.randint(0, 99_999))

    def _schedule(self) -> None:
        self._timer.start()

    def regenerate(self) -> None:
        """Generate with the current settings and show the table and its rolls."""
        self._timer.stop()
        try:
            scenario = generate(
                self.seed_box.value(),
                width=self.width_box.value(),
                height=self.height_box.value(),
                terrain_type=str(self.type_box.currentData()),
                encounter=str(self.encounter_box.currentData()),
                scale=self.scale_box.currentText(),
            )
        except CrdeskError as exc:
            self._scenario = None
            self.status.setText(f"Cannot generate: {exc}")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        self._scenario = scenario
        old = self._scene
        self._scene = BattlefieldScene(scenario.battlefield)
        self._scene.detach()
        self.view.setScene(self._scene)
        self.view.fit_table()
        if old is not None:
            old.deleteLater()
        log = scenario.generation.log if scenario.generation else []
        self.log.setPlainText("\n".join(format_entry(e) for e in log))
        self.status.setText(f"{scenario.title}: {len(scenario.battlefield.terrain)} features")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)

    def scenario(self) -> Scenario | None:
        """The generated table shown now (None if the settings could not make one)."""
        if self._timer.isActive():
            self.regenerate()
        return self._scenario


def deploy_on(current: Scenario, generated: Scenario, seed: int) -> tuple[Scenario, list[str]]:
    """The generated table with the current forces set out on it by the encounter's rules.

    The player's force deploys by :func:`crdesk.game.deployment.deploy` (12: its
    edge of sections 7-9, Defend anywhere in 7-9).  Every other force deploys
    the same way from the far edge (sections 1-3): the table is turned half
    round, the force deployed as if it were the player's, and turned back, so
    no figure stands inside a building, a Cover obstacle, impassable ground or
    another base.  The scenario returned carries the generated encounter, title
    and description.  The notes say what could not be placed (it stays put).
    """
    from crdesk.game.deployment import deploy

    kind = generated.encounter.type
    table = generated.battlefield.table
    forces = [copy_force(f) for f in current.battlefield.forces]
    notes: list[str] = []
    dice = Dice(random.Random(seed))
    order = sorted(forces, key=lambda f: not f.player)  # the player's force first
    for force in order:
        if not force.figures:
            continue
        mirrored = not force.player
        others = [
            _mirrored_force(f, table) if mirrored else copy_force(f)
            for f in forces
            if f.id != force.id
        ]
        for other in others:
            other.player = False
        me = copy_force(force)
        me.player = True
        terrain = [_mirrored_feature(f, table) for f in generated.battlefield.terrain]
        trial = replace(
            generated,
            battlefield=Battlefield(
                table, terrain if mirrored else list(generated.battlefield.terrain), [me, *others]
            ),
        )
        try:
            placed = deploy(trial, me, kind, dice).battlefield.force(force.id)
        except CrdeskError as exc:
            notes.append(f"{force.name} kept its places: {exc}")
            continue
        by_id = {f.id: f for f in placed.figures}
        for figure in force.figures:
            new = by_id[figure.id]
            if mirrored:
                figure.x, figure.y = table.width - new.x, table.height - new.y
                figure.facing = 180.0
            else:
                figure.x, figure.y, figure.facing = new.x, new.y, new.facing
    result = replace(generated, battlefield=Battlefield(table, [], forces))
    return result, notes


def _mirrored_force(force: Force, table: Any) -> Force:
    copy = copy_force(force)
    for figure in copy.figures:
        figure.x, figure.y = table.width - figure.x, table.height - figure.y
    return copy


def _mirrored_feature(feature: TerrainFeature, table: Any) -> TerrainFeature:
    """The feature turned half round the table's centre (only outlines matter to deploy)."""
    centre = (table.width / 2, table.height / 2)
    return dataclasses.replace(feature, outline=affinity.rotate(feature.outline, 180, centre))
