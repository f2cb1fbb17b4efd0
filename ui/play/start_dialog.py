"""Game ▸ Start encounter…: the dice seed, who plays each side, the players sharing a
side's groups (co-op), solo play (PEFs) and the encounter whose objectives the game tracks.

Co-op: the names typed for a side played at this screen are its players, and each of
the side's groups (as they stand at the start, 6.2) is given to one of them; left
empty, the side is one person's, as before.  The seats are saved with the game
(:mod:`crdesk.game.seats`) and name the player who decides in the panels."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from crdesk.band import Band, BandFileError, load_band
from crdesk.cohesion import Group
from crdesk.game import MANUAL, SEEDED, GameSettings
from crdesk.game.deployment import enemy_figures
from crdesk.game.seats import MAX_NAME, MAX_SEATS, Seat, start_groups
from crdesk.model import EncounterType, Scenario

MAX_SEED = 2**31 - 1
PERSON = "A person at this screen"
PROGRAM = "The program (the book's choices)"
SEEDED_DICE = "Seeded dice (the program rolls)"
OWN_DICE = "I roll my own dice"
OPEN_BAND = "Open another Band…"
BAND_FILTER = "Band (*.crband);;All files (*)"
ENCOUNTERS = (
    (EncounterType.FREE, "Free play (no objective)"),
    (EncounterType.PATROL, "Patrol (12.1): reach the far edge in sections 1-3, come back"),
    (EncounterType.RAID, "Raid (12.2): find the objective and carry it off"),
    (EncounterType.DEFEND, "Defend (12.3): hold out against the enemy"),
)


def player_names(text: str) -> list[str]:
    """The names typed in a side's players box: comma-separated, blanks dropped."""
    return [name.strip() for name in text.split(",") if name.strip()]


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

    def __init__(
        self, scenario: Scenario, parent: QWidget | None = None, band: Band | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Start encounter")
        self.scenario = scenario
        self.open_band = band
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{scenario.title}</b>"))
        self.band_box = QComboBox()
        self.band_box.setObjectName("bandBox")
        self.opened_path: Path | None = None
        """A Band file opened from this dialog ("Open another Band…"): the play mode
        shows it in the Campaign panel."""
        self.band_box.addItem("The scenario's own forces", None)
        self.band_box.addItem(OPEN_BAND, "open")
        if band is not None and not band.ended:
            self._add_band(band)
        self.band_box.setToolTip(
            "Play with the open Band (Game ▸ Open Band…) or another Band file: its members "
            "are the player's force, deployed for the encounter, and After the Battle takes "
            "the game into the Band"
        )
        self._band_index = self.band_box.currentIndex()
        self.band_box.activated.connect(self._band_picked)
        form.addRow("Play with:", self.band_box)
        self.deploy_box = QCheckBox("I deploy the Band on the table (12.1.4, 12.3)")
        self.deploy_box.setObjectName("playerDeploys")
        self.deploy_box.setChecked(True)
        self.deploy_box.setToolTip(
            "On: before the PEFs are placed you drag the Band's figures within the zone the "
            "encounter allows (or let the program place them). Off: the program places them"
        )
        form.addRow("", self.deploy_box)
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
        self.coop_box = QGroupBox("Co-op: players sharing a side (optional)")
        coop = QFormLayout(self.coop_box)
        self.player_edits: dict[str, QLineEdit] = {}
        """Per side: the names of the people playing it ("Alice, Bob"; empty: one person)."""
        self.group_boxes: dict[str, list[tuple[Group, QComboBox]]] = {}
        """Per side: each starting group and the player it is given to."""
        self._picked: dict[str, str] = {}
        """Groups (by Leader) a person gave to a player by hand; the others go round."""
        for force in scenario.battlefield.forces:
            edit = QLineEdit()
            edit.setObjectName(f"players_{force.id}")
            edit.setPlaceholderText("one player; or names, e.g. Alice, Bob")
            edit.setToolTip(
                f"The people playing {force.name}, separated by commas; each of its groups "
                "is then one player's, and the panels say whose decision it is"
            )
            edit.textChanged.connect(lambda _t, side=force.id: self._names_changed(side))
            self.player_edits[force.id] = edit
            coop.addRow(f"{force.name} players:", edit)
            rows: list[tuple[Group, QComboBox]] = []
            figures = {f.id: f for f in force.figures}
            for group in start_groups(scenario, force.id):
                pick = QComboBox()
                pick.setObjectName(f"group_{group.leader}")
                leader = figures[group.leader].name if group.leader in figures else group.leader
                size = len(group.members)
                label = f"    {leader}'s group ({size} figure{'s' if size != 1 else ''}):"
                pick.setToolTip(", ".join(figures[m].name for m in group.members if m in figures))
                pick.activated.connect(
                    lambda _i, p=pick, g=group.leader: self._picked.__setitem__(g, p.currentText())
                )
                coop.addRow(label, pick)
                rows.append((group, pick))
            self.group_boxes[force.id] = rows
            box = self.side_boxes[force.id]
            box.currentIndexChanged.connect(lambda _i, side=force.id: self._names_changed(side))
            self._names_changed(force.id)
        self.coop_note = QLabel()
        self.coop_note.setObjectName("coopNote")
        self.coop_note.setStyleSheet("color: #b00020")
        self.coop_note.setWordWrap(True)
        self.coop_note.hide()
        coop.addRow(self.coop_note)
        form.addRow(self.coop_box)
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
        self.turns_box = QSpinBox()
        self.turns_box.setObjectName("turnLimit")
        self.turns_box.setRange(0, 999)
        self.turns_box.setSpecialValueText("none")
        self.turns_box.setToolTip(
            "End the encounter after this many turns (an encounter not achieved by then is "
            "not won, and the campaign goes on as after a loss, 12); none: play to the end"
        )
        form.addRow("Turn limit:", self.turns_box)
        self.enemies = enemy_figures(scenario)
        self.known_box = QCheckBox(
            f"Keep the scenario's {self.enemies} enemy figure{'s' if self.enemies != 1 else ''} "
            "on the table as known enemies"
        )
        self.known_box.setObjectName("knownEnemies")
        self.known_box.setToolTip(
            "Solo play hides the enemy as PEFs (11): the scenario's own enemy figures are not "
            "placed unless you keep them here on purpose"
        )
        self.known_box.toggled.connect(self._explain_solo)
        form.addRow("", self.known_box)
        self.solo_note = QLabel()
        self.solo_note.setObjectName("soloNote")
        self.solo_note.setWordWrap(True)
        form.addRow("", self.solo_note)
        self.solo_box.toggled.connect(self._explain_solo)
        self.band_box.currentIndexChanged.connect(self._band_changed)
        # the defaults: the Band's next encounter, else the scenario's own encounter (12)
        self._band_changed()
        if self.band() is None and scenario.encounter.type is not EncounterType.FREE:
            self.solo_box.setChecked(True)
        self._explain_solo()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        start = buttons.button(QDialogButtonBox.StandardButton.Ok)
        start.setText("Start")
        self.start_button = start
        self._check_names()
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    # -- co-op ---------------------------------------------------------------------------

    def players(self, side: str) -> list[str]:
        """The names given for a side played at this screen (none: one person, or the program)."""
        if self.side_boxes[side].currentIndex() == 1:
            return []
        return player_names(self.player_edits[side].text())

    def _names_changed(self, side: str) -> None:
        """Offer the side's players for each of its groups: a group given to a player by
        hand stays theirs while they are named; the others go to the players in turn
        (the first group the first player's, the second the second's, ...)."""
        person = self.side_boxes[side].currentIndex() == 0
        self.player_edits[side].setEnabled(person)
        names = self.players(side)
        for k, (group, pick) in enumerate(self.group_boxes.get(side, [])):
            kept = self._picked.get(group.leader, "")
            pick.blockSignals(True)
            pick.clear()
            pick.addItems(names or ["(the side's one player)"])
            if kept in names:
                pick.setCurrentIndex(names.index(kept))
            elif names:
                pick.setCurrentIndex(k % len(names))
            pick.blockSignals(False)
            pick.setEnabled(person and len(names) > 1)
        self._check_names()

    def _check_names(self) -> None:
        """Names must tell the players apart: say what is wrong and hold Start until it is not."""
        if not hasattr(self, "coop_note"):
            return  # still building the dialog
        seen: set[str] = set()
        problem = ""
        total = 0
        for side, force in ((f.id, f) for f in self.scenario.battlefield.forces):
            for name in self.players(side):
                total += 1
                if len(name) > MAX_NAME:
                    problem = f"{force.name}: the name {name[:12]!r}… is over {MAX_NAME} characters"
                elif name.casefold() in seen:
                    problem = f"Two players are called {name!r}: give each a name of their own"
                seen.add(name.casefold())
        if total > MAX_SEATS:
            problem = f"{total} players named: at most {MAX_SEATS} share a screen"
        self.coop_note.setText(problem)
        self.coop_note.setVisible(bool(problem))
        if hasattr(self, "start_button"):
            self.start_button.setEnabled(not problem)

    def seats(self) -> tuple[Seat, ...]:
        """Each named player with the figures of the groups given to them."""
        out: list[Seat] = []
        for force in self.scenario.battlefield.forces:
            names = self.players(force.id)
            if not names:
                continue
            figures: dict[str, list[str]] = {name: [] for name in names}
            rows = self.group_boxes.get(force.id, [])
            for group, pick in rows:
                owner = pick.currentText() if pick.currentText() in figures else names[0]
                figures[owner].extend(group.members)
            out += [Seat(name, force.id, tuple(figures[name])) for name in names]
        return tuple(out)

    def _solo_changed(self, on: bool) -> None:
        """Solo on offers the scenario's own encounter; off is free play."""
        own = self.scenario.encounter.type
        kind = own if on else EncounterType.FREE
        if on and self.encounter() is not EncounterType.FREE:
            return
        self.encounter_box.setCurrentIndex(
            next(n for n, (k, _) in enumerate(ENCOUNTERS) if k is kind)
        )

    def band(self) -> Band | None:
        """The open Band, when the player plays with it (None: the scenario's forces)."""
        return self.open_band if self.band_box.currentData() == "band" else None

    def player_deploys(self) -> bool:
        """Whether the player sets the Band up on the table (else the program, 12)."""
        return self.band() is not None and self.deploy_box.isChecked()

    def _add_band(self, band: Band) -> None:
        upcoming = band.next_encounter.value.title() if band.next_encounter else "?"
        text = f"{band.name}: {len(band.active)} figures, next encounter {upcoming}"
        at = self.band_box.findData("band")
        if at < 0:
            self.band_box.insertItem(1, text, "band")
            at = 1
        else:
            self.band_box.setItemText(at, text)
        self.band_box.setCurrentIndex(at)

    def _band_picked(self, index: int) -> None:
        """ "Open another Band…": a .crband file read and offered (a Band whose story has
        ended, or a file that is not a Band, is refused with the reason)."""
        if self.band_box.itemData(index) != "open":
            self._band_index = index
            return
        self.band_box.setCurrentIndex(self._band_index)  # unless a Band is opened below
        path, _ = QFileDialog.getOpenFileName(self, "Play with a Band", "", BAND_FILTER)
        if not path:
            return
        try:
            band = load_band(path)
        except BandFileError as exc:
            QMessageBox.critical(self, "Could not open the Band", str(exc))
            return
        if band.ended:
            QMessageBox.information(
                self, "Play with a Band", f"{band.name}'s Star did not return: its story is over."
            )
            return
        self.open_band, self.opened_path = band, Path(path)
        self._add_band(band)
        self._band_index = self.band_box.currentIndex()

    def known_enemies(self) -> bool:
        """Whether the scenario's enemy figures stay on the table in a solo game."""
        return self.known_box.isChecked()

    def _band_changed(self, _index: int = 0) -> None:
        """With the Band: its next encounter, played solo (14)."""
        band = self.band()
        self.deploy_box.setVisible(band is not None)
        # a Band replaces the scenario's player force: its groups are not the scenario's
        self.coop_box.setEnabled(band is None)
        self.coop_box.setToolTip(
            "Co-op seats follow the scenario's own groups: not with a Band"
            if band is not None
            else ""
        )
        self._explain_solo()
        if band is None:
            return
        kind = band.next_encounter or EncounterType.PATROL
        self.encounter_box.setCurrentIndex(
            next(n for n, (k, _) in enumerate(ENCOUNTERS) if k is kind)
        )
        self.solo_box.setChecked(True)

    def _explain_solo(self, _on: bool = False) -> None:
        """Say what solo does to the scenario's enemy figures, and offer to keep them."""
        solo = self.solo_box.isChecked()
        self.known_box.setVisible(solo and self.enemies > 0)
        words = []
        if solo and self.enemies and not self.known_box.isChecked():
            words.append(
                f"Solo: the scenario's {self.enemies} enemy figure"
                f"{'s are' if self.enemies != 1 else ' is'} not placed; the enemy comes from "
                "PEFs (11)."
            )
        band = self.band()
        if band is not None:
            words.append(
                f"{band.name} replaces the scenario's player force and is deployed for the "
                "encounter (12)."
            )
        self.solo_note.setText(" ".join(words))
        self.solo_note.setVisible(bool(words))

    def _encounter_changed(self, _index: int) -> None:
        if self.encounter() is not EncounterType.FREE:
            self.solo_box.setChecked(True)

    def encounter(self) -> EncounterType:
        return EncounterType(self.encounter_box.currentData())

    def settings(self) -> GameSettings:
        """Solo play, the encounter chosen and the co-op seats (who the program plays is
        the play mode's to add)."""
        kind = self.encounter()
        settings = GameSettings(
            max_turns=self.turns_box.value() or None,
            solo=self.solo_box.isChecked(),
            encounter="" if kind is EncounterType.FREE else kind.value,
        )
        seats = self.seats()
        return dataclasses.replace(settings, seats=seats) if seats else settings

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
