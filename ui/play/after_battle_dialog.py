"""After the Battle (7.13, 13) as the player goes through it: what each figure did and
how the rules read it, the dice (the program's, seeded, or the player's own, roll by
roll), every roll with its reason, and nothing kept until "Confirm".

The dialog only shows :func:`crdesk.band.after_battle`: the rules, the reading of the
game's log (:func:`crdesk.band.encounter_reasons`) and the Band's new state are the
core's.  With the player's own dice the whole procedure is run again on the faces
entered so far (:class:`crdesk.dice.ScriptedDice`); where the faces run out it says
which roll comes next (its table, section, whose and how many dice), so "Undo roll"
is only taking the last faces back.
"""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QFont, QRegularExpressionValidator
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from crdesk.band import (
    AfterBattle,
    AfterBattleError,
    Band,
    after_battle,
    band_side,
    encounter_reasons,
)
from crdesk.dice import CounterDice, ScriptedDice, ScriptedDiceExhaustedError
from crdesk.errors import CrdeskError
from crdesk.game import Game


class AfterBattleDialog(QDialog):
    """Recovery, New Recruits and Rep changes for the Band from the finished ``game``.

    ``seed``: the program's dice (kept in the Band's story).  The result to keep is
    :attr:`result` once the dialog is accepted; nothing is written here.
    """

    def __init__(
        self,
        band: Band,
        game: Game,
        seed: int,
        parent: QWidget | None = None,
        *,
        game_name: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("afterBattleDialog")
        self.band = band
        self.game = game
        self.seed = seed
        self.game_name = game_name
        self.result: AfterBattle | None = None
        self.rolled: list[list[int]] = []
        """The player's own dice, a list of faces per roll entered (undo takes the last)."""
        self.waiting: ScriptedDiceExhaustedError | None = None
        number = len(band.encounters) + 1
        self.setWindowTitle(f"After the Battle — {band.name}, encounter {number}")
        layout = QVBoxLayout(self)
        outcome = game.outcome
        head = QLabel(
            f"<b>{band.name}</b> after encounter {number}"
            + (f": {outcome.reason}" if outcome is not None else "")
            + "<br>Recovery (7.13), New Recruits (13.1), Rep changes (13.2/13.3) and the "
            "Band's size by its Star's Rep (6.1)."
        )
        head.setWordWrap(True)
        layout.addWidget(head)
        layout.addWidget(QLabel("<b>What each did</b> (read from the game's log, 13.2/13.3)"))
        self.deeds = QTableWidget(0, 2)
        self.deeds.setObjectName("afterBattleDeeds")
        self.deeds.setHorizontalHeaderLabels(["Figure", "In the encounter → for Rep changes"])
        self.deeds.verticalHeader().hide()
        self.deeds.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.deeds.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.deeds.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self._fill_deeds()
        layout.addWidget(self.deeds, 2)
        dice_row = QHBoxLayout()
        self.seeded_radio = QRadioButton(f"The program rolls (seed {seed})")
        self.seeded_radio.setToolTip("Seeded dice: the same seed rolls the same dice")
        self.own_radio = QRadioButton("I roll my own dice")
        self.own_radio.setObjectName("ownDice")
        self.own_radio.setToolTip("Roll real dice; type each roll's faces as asked")
        group = QButtonGroup(self)
        group.addButton(self.seeded_radio)
        group.addButton(self.own_radio)
        self.seeded_radio.setChecked(True)
        dice_row.addWidget(self.seeded_radio)
        dice_row.addWidget(self.own_radio)
        dice_row.addStretch(1)
        layout.addLayout(dice_row)
        self.own_box = QWidget()
        own = QHBoxLayout(self.own_box)
        own.setContentsMargins(0, 0, 0, 0)
        self.ask = QLabel()
        self.ask.setObjectName("afterBattleAsk")
        self.ask.setWordWrap(True)
        self.faces_edit = QLineEdit()
        self.faces_edit.setObjectName("afterBattleFaces")
        self.faces_edit.setPlaceholderText("faces, e.g. 3 5 1")
        self.faces_edit.setValidator(
            QRegularExpressionValidator(QRegularExpression(r"[1-6 ,]{0,40}"), self.faces_edit)
        )
        self.faces_edit.setMaximumWidth(140)
        self.faces_edit.returnPressed.connect(self.enter_faces)
        self.enter_button = QPushButton("Enter roll")
        self.enter_button.clicked.connect(self.enter_faces)
        self.undo_button = QPushButton("Undo roll")
        self.undo_button.setToolTip("Take back the last roll entered")
        self.undo_button.clicked.connect(self.undo_roll)
        own.addWidget(self.ask, 1)
        own.addWidget(self.faces_edit)
        own.addWidget(self.enter_button)
        own.addWidget(self.undo_button)
        layout.addWidget(self.own_box)
        layout.addWidget(QLabel("<b>The rolls</b>"))
        self.lines = QPlainTextEdit()
        self.lines.setObjectName("afterBattleLines")
        self.lines.setReadOnly(True)
        mono = QFont(self.lines.font())
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.lines.setFont(mono)
        layout.addWidget(self.lines, 3)
        self.problem = QLabel()
        self.problem.setStyleSheet("QLabel { color: #b3261e; }")
        self.problem.setWordWrap(True)
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.confirm_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.confirm_button.setText("Confirm and save the Band")
        self.confirm_button.setToolTip(
            "Keep these results: the Band's file is written (the old one kept as .bak)"
        )
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setToolTip("Nothing is kept; After the Battle can be done again")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.seeded_radio.toggled.connect(lambda _on: self.recompute())
        self.resize(760, 620)
        self.recompute()

    def _fill_deeds(self) -> None:
        side = band_side(self.game, [f.id for f in self.band.active])
        reasons = encounter_reasons(self.game, side)
        names = {f.id: f.name for f in self.game.battlefield.figures()}
        for fid, why in reasons.items():
            row = self.deeds.rowCount()
            self.deeds.insertRow(row)
            self.deeds.setItem(row, 0, QTableWidgetItem(names.get(fid, fid)))
            item = QTableWidgetItem(why)
            item.setToolTip(why)
            self.deeds.setItem(row, 1, item)

    # -- the dice ----------------------------------------------------------------------

    def own_dice(self) -> bool:
        return self.own_radio.isChecked()

    def recompute(self) -> None:
        """Run After the Battle again on the dice there are; show the rolls, or the next
        roll asked for."""
        self.own_box.setVisible(self.own_dice())
        self.result, self.waiting = None, None
        self.problem.clear()
        faces = [face for roll in self.rolled for face in roll]
        dice = ScriptedDice(faces) if self.own_dice() else CounterDice(self.seed)
        try:
            self.result = after_battle(
                self.band,
                self.game,
                dice,
                seed=None if self.own_dice() else self.seed,
                game_name=self.game_name,
            )
        except ScriptedDiceExhaustedError as exc:
            self.waiting = exc
        except (AfterBattleError, CrdeskError, ValueError) as exc:
            self.problem.setText(str(exc))
        if self.result is not None and isinstance(dice, ScriptedDice) and dice.remaining:
            self.problem.setText(f"{dice.remaining} dice more than needed: undo the last roll")
            self.result = None
        so_far = [str(entry) for entry in dice.log]
        if self.result is not None:
            self.lines.setPlainText("\n".join(self.result.lines))
        else:
            self.lines.setPlainText("\n".join(so_far))
        if self.waiting is not None:
            w = self.waiting
            whose = f" for {w.who}" if w.who else ""
            self.ask.setText(
                f"<b>Next:</b> {w.table or 'a roll'} ({w.section}){whose}: roll "
                f"<b>{w.needed}d6</b> and type the faces"
            )
        else:
            self.ask.setText("All the rolls are in." if self.result is not None else "")
        asking = self.own_dice() and self.waiting is not None
        self.faces_edit.setEnabled(asking)
        self.enter_button.setEnabled(asking)
        self.undo_button.setEnabled(self.own_dice() and bool(self.rolled))
        self.confirm_button.setEnabled(self.result is not None)
        if asking:
            self.faces_edit.setFocus()

    def enter_faces(self, text: str | None = None) -> bool:
        """The faces of the roll asked for (as many dice as it needs, each 1-6)."""
        if self.waiting is None:
            return False
        raw = self.faces_edit.text() if not isinstance(text, str) else text
        digits = [int(c) for c in raw if c.isdigit()]
        bad = [d for d in digits if not 1 <= d <= 6]
        if bad or len(digits) != self.waiting.needed:
            wrong = f" ({', '.join(map(str, bad))}: not a d6 face)" if bad else ""
            self.problem.setText(
                f"This roll needs {self.waiting.needed} dice, each 1-6; got {len(digits)}{wrong}"
            )
            return False
        self.rolled.append(digits)
        self.faces_edit.clear()
        self.recompute()
        return True

    def undo_roll(self) -> None:
        if self.rolled:
            self.rolled.pop()
            self.recompute()

    def accept(self) -> None:
        if self.result is None:
            return
        super().accept()
