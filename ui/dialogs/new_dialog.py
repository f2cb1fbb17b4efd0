"""New table…: size and scale of an empty table, with the two sides ready to fill."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QWidget,
)

from crdesk import limits
from crdesk.model import BandType, Battlefield, Force, Scenario, Table
from crdesk.options import RulesOptions, Scale

PRESETS = [
    ("3' x 3' (36\" x 36\")", 36, 36),
    ("4' x 3' (48\" x 36\")", 48, 36),
    ("4' x 4' (48\" x 48\")", 48, 48),
    ("6' x 4' (72\" x 48\")", 72, 48),
    ("Custom", 0, 0),
]


def empty_scenario(
    width: float = 36, height: float = 36, scale: str = "28mm", title: str = "New table"
) -> Scenario:
    """An empty table with a player force and an enemy force to drag figures into."""
    forces = [
        Force("player", "Player's band", BandType.MILITARY, player=True, colour="#2456a6"),
        Force("enemy", "Enemy", BandType.GANGER, colour="#b02a2a"),
    ]
    return Scenario(
        Battlefield(Table(width, height), [], forces),
        rules=RulesOptions(scale=Scale(scale)),
        title=title,
    )


class NewTableDialog(QDialog):
    """Ask for a title, a table size (presets or custom) and the figure scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New table")
        self.title_edit = QLineEdit("New table")
        self.title_edit.setMaxLength(limits.NAME_CHARS)
        self.preset_box = QComboBox()
        for label, w, h in PRESETS:
            self.preset_box.addItem(label, (w, h))
        self.preset_box.setToolTip("Chain Reaction plays on any rectangle; 3' x 3' is the default")
        self.width_box = self._inches(36)
        self.height_box = self._inches(36)
        self.scale_box = QComboBox()
        self.scale_box.addItems(["28mm", "15mm"])
        self.scale_box.setToolTip('Blast circles 5" or 3"; building areas 6" or 4" (digest 1)')
        self.preset_box.currentIndexChanged.connect(self._preset)
        form = QFormLayout(self)
        form.addRow("&Title:", self.title_edit)
        form.addRow("Table &size:", self.preset_box)
        form.addRow("&Width:", self.width_box)
        form.addRow("&Height:", self.height_box)
        form.addRow("S&cale:", self.scale_box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @staticmethod
    def _inches(value: float) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(limits.TABLE_MIN, limits.TABLE_MAX)  # what a file may hold
        box.setDecimals(1)
        box.setSuffix('"')
        box.setValue(value)
        return box

    def _preset(self) -> None:
        w, h = self.preset_box.currentData()
        custom = not w
        self.width_box.setEnabled(custom)
        self.height_box.setEnabled(custom)
        if not custom:
            self.width_box.setValue(w)
            self.height_box.setValue(h)

    def scenario(self) -> Scenario:
        return empty_scenario(
            self.width_box.value(),
            self.height_box.value(),
            self.scale_box.currentText(),
            self.title_edit.text().strip() or "New table",
        )
