"""Scenario settings: title, description, encounter and every rules option, in one dialog.

A shared scenario must play the same on another table (digest 20), so all its
rules settings are visible and editable here, each Interpretation with its
section and both readings side by side.  Accepting pushes one
:class:`~ui.commands.ScenarioSettingsCommand`, so a change of mind is one undo.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from crdesk import limits
from crdesk.model import BandType, Encounter, EncounterType, Scenario
from crdesk.options import Interpretations, RulesOptions, Scale, Weather, interpretation_info

ENCOUNTER_LABELS = {
    EncounterType.FREE: "Free play (no encounter)",
    EncounterType.PATROL: "Patrol (12.1)",
    EncounterType.RAID: "Raid (12.2)",
    EncounterType.DEFEND: "Defend (12.3)",
}


class InterpretationRow(QGroupBox):
    """One Interpretation: its title and section, the digest's reading and the other one."""

    def __init__(self, name: str, value: Any, parent: QWidget | None = None) -> None:
        info = next(i for i in interpretation_info() if i.name == name)
        super().__init__(f"{info.title}  ({info.section})", parent)
        self.name = name
        self.setObjectName(f"interpretation_{name}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 6)
        self.default_button: QRadioButton | None = None
        self.other_button: QRadioButton | None = None
        self.spin: QDoubleSpinBox | None = None
        if isinstance(value, bool):
            group = QButtonGroup(self)
            self.default_button = QRadioButton(self._wrap(info.default_reading, "Digest: "))
            self.other_button = QRadioButton(self._wrap(info.other_reading, "Other: "))
            for button in (self.default_button, self.other_button):
                group.addButton(button)
                layout.addWidget(button)
            self.default_button.setToolTip(info.default_reading)
            self.other_button.setToolTip(info.other_reading)
            (self.default_button if value else self.other_button).setChecked(True)
        else:
            self.spin = QDoubleSpinBox()
            self.spin.setRange(0.0, 360.0)
            self.spin.setDecimals(1)
            self.spin.setValue(float(value))
            default = QLabel(f"Digest: {info.default_reading}  Other: {info.other_reading}")
            default.setWordWrap(True)
            layout.addWidget(default)
            layout.addWidget(self.spin)
            self.spin.setToolTip(info.default_reading)

    @staticmethod
    def _wrap(text: str, prefix: str) -> str:
        """Radio buttons do not wrap: break long readings onto lines of ~90 characters."""
        words, lines, line = (prefix + text).split(), [], ""
        for word in words:
            if line and len(line) + len(word) > 90:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
        return "\n".join(lines)

    def value(self) -> Any:
        if self.spin is not None:
            return float(self.spin.value())
        assert self.default_button is not None
        return self.default_button.isChecked()


class ScenarioSettingsDialog(QDialog):
    """Edit the scenario's settings; :meth:`values` gives what to store."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scenario settings")
        rules = scenario.rules
        tabs = QTabWidget()
        # -- the scenario ---------------------------------------------------
        general = QWidget()
        form = QFormLayout(general)
        self.title_edit = QLineEdit(scenario.title)
        self.title_edit.setMaxLength(limits.NAME_CHARS)
        self.description_edit = QPlainTextEdit(scenario.description)
        self.description_edit.setMinimumHeight(80)
        self.description_edit.setMaximumHeight(140)
        self.encounter_combo = QComboBox()
        for kind, label in ENCOUNTER_LABELS.items():
            self.encounter_combo.addItem(label, kind.value)
        self.encounter_combo.setCurrentIndex(
            self.encounter_combo.findData(scenario.encounter.type.value)
        )
        self.band_combo = QComboBox()
        self.band_combo.addItem("Rolled at the table", None)
        for band in BandType:
            self.band_combo.addItem(band.value.title(), band.value)
        enemy = scenario.encounter.enemy_band
        self.band_combo.setCurrentIndex(self.band_combo.findData(enemy.value if enemy else None))
        self.pef_spin = QSpinBox()
        self.pef_spin.setRange(0, 12)
        self.pef_spin.setValue(scenario.encounter.pef_count)
        self.pef_spin.setToolTip("PEFs placed at the start of the encounter (11)")
        form.addRow("&Title:", self.title_edit)
        form.addRow("&Description:", self.description_edit)
        form.addRow("&Encounter:", self.encounter_combo)
        form.addRow("Enemy &band:", self.band_combo)
        form.addRow("&PEFs:", self.pef_spin)
        # -- the optional rules ---------------------------------------------
        self.scale_combo = QComboBox()
        for scale in Scale:
            self.scale_combo.addItem(scale.value, scale.value)
        self.scale_combo.setCurrentIndex(self.scale_combo.findData(rules.scale.value))
        self.scale_combo.setToolTip('Blast circles and building areas (6" at 28mm, 4" at 15mm)')
        self.old_school_check = QCheckBox("Old School weapons (16)")
        self.old_school_check.setChecked(rules.old_school)
        self.firearms_check = QCheckBox("Firearms Detail (19)")
        self.firearms_check.setChecked(rules.firearms_detail)
        self.night_check = QCheckBox('Night: LOS 12" (6" in bad weather) (7.9.4)')
        self.night_check.setChecked(rules.night)
        self.weather_combo = QComboBox()
        for weather, label in ((Weather.CLEAR, "Clear"), (Weather.BAD, 'Bad: LOS 12" by day')):
            self.weather_combo.addItem(label, weather.value)
        self.weather_combo.setCurrentIndex(self.weather_combo.findData(rules.weather.value))
        form.addRow("&Scale:", self.scale_combo)
        form.addRow("", self.old_school_check)
        form.addRow("", self.firearms_check)
        form.addRow("", self.night_check)
        form.addRow("&Weather:", self.weather_combo)
        tabs.addTab(general, "Scenario and rules")
        # -- every Interpretation -------------------------------------------
        body = QWidget()
        column = QVBoxLayout(body)
        note = QLabel(
            "Where the book is unclear the digest picks a reading; each can be switched "
            "here for this scenario."
        )
        note.setWordWrap(True)
        column.addWidget(note)
        self.interpretation_rows: dict[str, InterpretationRow] = {}
        for info in interpretation_info():
            row = InterpretationRow(info.name, getattr(rules.interpretations, info.name))
            self.interpretation_rows[info.name] = row
            column.addWidget(row)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        tabs.addTab(scroll, f"Interpretations ({len(self.interpretation_rows)})")
        self.tabs = tabs
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(buttons)
        self.resize(760, 620)

    def values(self) -> dict[str, Any]:
        """The settings as the dialog holds them: title, description, encounter, rules."""
        band = self.band_combo.currentData()
        interpretations = Interpretations(
            **{name: row.value() for name, row in self.interpretation_rows.items()}
        )
        rules = RulesOptions(
            scale=Scale(self.scale_combo.currentData()),
            old_school=self.old_school_check.isChecked(),
            firearms_detail=self.firearms_check.isChecked(),
            night=self.night_check.isChecked(),
            weather=Weather(self.weather_combo.currentData()),
            interpretations=interpretations,
        )
        return {
            "title": self.title_edit.text().strip() or "Untitled",
            "description": self.description_edit.toPlainText().strip(),
            "encounter": Encounter(
                EncounterType(self.encounter_combo.currentData()),
                BandType(band) if band else None,
                self.pef_spin.value(),
            ),
            "rules": rules,
        }

    def changed_values(self, scenario: Scenario) -> dict[str, Any]:
        """Only the settings that differ from the scenario's (empty: nothing to undo)."""
        return {k: v for k, v in self.values().items() if getattr(scenario, k) != v}
