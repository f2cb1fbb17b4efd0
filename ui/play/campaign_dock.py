"""The Campaign dock: the Band between encounters (6.1, 7.13, 13).

It shows the roster of an open ``.crband`` file (the Star and Grunts with their
Reps, weapons and whether they are still in the Band) and the encounters it has
played, with every roll of the chosen one's after-the-battle.  When the game on
the table is over, "After the Battle" opens its dialog
(:class:`~ui.play.after_battle_dialog.AfterBattleDialog`: seeded dice or the
player's own) and, once confirmed, saves the Band (the old file kept as ``.bak``).
The rules are all in :mod:`crdesk.band`; this dock only shows them.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.band import (
    ACTIVE,
    STATUS_WORDS,
    Band,
    BandFileError,
    load_band,
    save_band,
)
from crdesk.game import Game
from ui.play.after_battle_dialog import AfterBattleDialog

BAND_FILTER = "Band (*.crband);;All files (*)"
COLUMNS = ("Name", "Rep", "Weapon", "Status", "Enc.", "Hits", "Out", "Rep history")
CENTRED = (1, 4, 5, 6)
TIPS = {
    4: "Encounters played",
    5: "Hits scored on enemies by fire, grenades and rockets, over the Band's encounters",
    6: "Enemies taken out (Out of the Fight or Obviously Dead) by its hits",
    7: "Rep from joining to now (7.13, 13.2/13.3)",
}
ENCOUNTER_ROLE = int(Qt.ItemDataRole.UserRole) + 1


class CampaignDock(QDockWidget):
    """The roster and the encounters of the Band the player keeps (a ``.crband`` file)."""

    band_changed = Signal()
    next_requested = Signal()
    """"Next encounter…": the play mode sets up the encounter the Band's story names."""

    def __init__(
        self,
        parent: QWidget | None = None,
        game: Callable[[], Game | None] | None = None,
        save_game: Callable[[Path], bool] | None = None,
        open_game: Callable[[Path], bool] | None = None,
        watch_game: Callable[[Path], object] | None = None,
        report_game: Callable[[Path], bool] | None = None,
    ) -> None:
        super().__init__("Campaign", parent)
        self.setObjectName("campaignDock")
        self.band: Band | None = None
        self.path: Path | None = None
        self._game = game or (lambda: None)
        """The game on the table, when there is one (for "After the Battle")."""
        self._save_game = save_game
        """Saves the game on the table to a file (the play mode's Save): After the Battle
        keeps the game beside the Band and links it from the Band's story."""
        self._open_game = open_game
        """Opens a game file on the table (the play mode's Open Game): an encounter of the
        Band's story, double-clicked."""
        self._watch_game = watch_game
        """Opens a game file in the replay viewer (Game ▸ Watch Game…)."""
        self._report_game = report_game
        """Writes a game file's battle report beside it and shows it."""
        self._offered: Game | None = None
        """The finished game After the Battle was last offered for (offered once)."""
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        self.head = QLabel("No Band open. Game ▸ Open Band… reads a .crband file.")
        self.head.setWordWrap(True)
        self.head.setObjectName("campaignHead")
        layout.addWidget(self.head)
        self.roster = QTableWidget(0, len(COLUMNS))
        self.roster.setHorizontalHeaderLabels(COLUMNS)
        self.roster.verticalHeader().hide()
        self.roster.verticalHeader().setDefaultSectionSize(22)
        self.roster.setWordWrap(False)
        self.roster.setMinimumHeight(22 * 7 + 4)
        self.roster.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.roster.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.roster.horizontalHeader()
        # names in full (a narrow panel scrolls sideways rather than cut "★ Sgt. Mace")
        for col in range(len(COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        layout.addWidget(self.roster, 3)
        layout.addWidget(QLabel("<b>Encounters</b>"))
        self.history = QListWidget()
        self.history.setMinimumHeight(70)
        self.history.currentItemChanged.connect(self._show_rolls)
        self.history.itemActivated.connect(lambda _item: self.open_chosen_game())
        self.history.setToolTip(
            "Double-click (or Enter) an encounter to open its game; right-click to watch "
            "it step by step or read its battle report"
        )
        self.history.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        layout.addWidget(self.history, 2)
        self.rolls = QPlainTextEdit()
        self.rolls.setReadOnly(True)
        self.rolls.setPlaceholderText("The rolls of the chosen encounter's after-the-battle.")
        layout.addWidget(self.rolls, 3)
        buttons = QHBoxLayout()
        self.open_button = QPushButton("Open Band…")
        self.open_button.clicked.connect(self.open_dialog)
        self.after_button = QPushButton("After the Battle")
        self.after_button.clicked.connect(self.take_game)
        self.next_button = QPushButton("Next encounter…")
        self.next_button.setObjectName("nextEncounter")
        self.next_button.clicked.connect(lambda _checked=False: self.next_requested.emit())
        self.game_button = QToolButton()
        self.game_button.setText("Open game")
        self.game_button.setObjectName("openEncounterGame")
        self.game_button.setToolTip("Open the chosen encounter's game on the table")
        self.game_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.game_button.clicked.connect(lambda _checked=False: self.open_chosen_game())
        self.game_button.setEnabled(False)
        self.action_open_game = QAction("&Open Game on the Table", self)
        self.action_open_game.triggered.connect(lambda _checked=False: self.open_chosen_game())
        self.action_watch_game = QAction("&Watch Game…", self)
        self.action_watch_game.setToolTip("Step through the encounter in the replay viewer")
        self.action_watch_game.triggered.connect(lambda _checked=False: self.watch_chosen_game())
        self.action_report = QAction("Battle &Report", self)
        self.action_report.setToolTip(
            "Write the encounter's battle report beside its game and show it"
        )
        self.action_report.triggered.connect(lambda _checked=False: self.report_chosen_game())
        game_menu = QMenu(self.game_button)
        for action in (self.action_open_game, self.action_watch_game, self.action_report):
            game_menu.addAction(action)
            self.history.addAction(action)
            action.setEnabled(False)
        self.game_button.setMenu(game_menu)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.game_button)
        buttons.addWidget(self.after_button)
        buttons.addWidget(self.next_button)
        layout.addLayout(buttons)
        self.setWidget(body)
        self.setMinimumWidth(360)
        self.action_open = QAction("Open &Band…", self)
        self.action_open.setStatusTip("Open a Band (.crband) and show its roster and encounters")
        self.action_open.triggered.connect(lambda _checked=False: self.open_dialog())
        self.refresh()

    # -- files -------------------------------------------------------------------------

    def open_dialog(self) -> None:
        start = str(self.path.parent) if self.path is not None else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open Band", start, BAND_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | os.PathLike[str]) -> bool:
        """Show the Band of a file; a file that is not a Band is refused, saying why."""
        try:
            band = load_band(path)
        except BandFileError as exc:
            QMessageBox.critical(self, "Could not open the Band", str(exc))
            return False
        self.band, self.path = band, Path(path)
        self.refresh()
        self.show()
        self.raise_()
        window = self.parentWidget()
        if isinstance(window, QMainWindow):  # room for the roster and the rolls
            window.resizeDocks([self], [max(self.height(), 560)], Qt.Orientation.Vertical)
        self.band_changed.emit()
        return True

    # -- after the battle --------------------------------------------------------------

    def can_take_game(self) -> str | None:
        """Why "After the Battle" cannot run now, or None when it can."""
        if self.band is None:
            return "open a Band first"
        game = self._game()
        if game is None:
            return "no game on the table"
        if game.outcome is None:
            return "the game on the table is not over"
        record = game.settings.band
        if record is not None:  # a game started with a Band goes into that Band, once (14)
            if record.id != self.band.identity:
                return f"this game was played by {record.name or 'another Band'}"
            if record.encounter <= len(self.band.encounters):
                return "this game is already in the Band's story"
            return None
        last = self.band.encounters[-1] if self.band.encounters else None
        if (
            last is not None
            and last.get("game_seed") == game.seed
            and (
                last.get("turns") == game.outcome.turn and last.get("reason") == game.outcome.reason
            )
        ):
            return "this game is already in the Band's story"
        return None

    def take_game(self, seed: int | None = None) -> bool:
        """After the Battle for the finished game: the dialog shows what each figure did
        and every roll (seeded dice, or the player's own); on Confirm the game is kept
        beside the Band and the Band is saved, its previous file kept as ``.bak``."""
        why = self.can_take_game()
        game = self._game()
        if why is not None or self.band is None or self.path is None or game is None:
            QMessageBox.information(self, "After the Battle", f"Not now: {why}.")
            return False
        seed = secrets.randbelow(2**31) if seed is None or isinstance(seed, bool) else seed
        kept = self.game_file_for(len(self.band.encounters) + 1) if self._save_game else None
        dialog = AfterBattleDialog(
            self.band,
            game,
            seed,
            self.window(),
            game_name=kept.name if kept is not None else game.scenario.title,
        )
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.result is None:
            return False
        # the game kept beside the Band, linked from its story
        if kept is not None and self._save_game is not None and not self._save_game(kept):
            return False
        try:
            save_band(dialog.result.band, self.path, backup=True)
        except (BandFileError, OSError) as exc:
            QMessageBox.critical(self, "After the Battle", f"The Band was not saved: {exc}")
            return False
        self.band = dialog.result.band
        self.refresh()
        self.history.setCurrentRow(self.history.count() - 1)
        self.band_changed.emit()
        return True

    def game_file_for(self, number: int) -> Path:
        """Where the game of the Band's encounter ``number`` is kept: beside the Band's
        file, ``<band>-encounter-<number>.crgame`` (another name if that is taken)."""
        assert self.path is not None
        base = self.path.with_name(f"{self.path.stem}-encounter-{number}")
        path, k = base.with_suffix(".crgame"), 2
        while path.exists():
            path, k = base.with_name(f"{base.name}-{k}").with_suffix(".crgame"), k + 1
        return path

    def offer(self) -> None:
        """The encounter is over: show the Band with "After the Battle" ready to press."""
        self.show()
        self.raise_()
        self.after_button.setDefault(True)
        self.after_button.setFocus()
        band = self.band.name if self.band is not None else "the Band"
        self.head.setText(
            f"<b>The encounter is over.</b> After the Battle takes it into {band}: "
            "Recovery (7.13), New Recruits (13.1) and Rep changes (13.2/13.3)."
        )
        window = self.parentWidget()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(
                f"The encounter is over: After the Battle (Campaign panel) takes it into {band}",
                8000,
            )

    # -- showing -----------------------------------------------------------------------

    def update_button(self) -> None:
        """ "After the Battle" is on when a Band is open and the game on the table is over;
        when a game the Band played ends, the panel comes forward and offers it at once."""
        why = self.can_take_game()
        self.after_button.setEnabled(why is None)
        game = self._game()
        upcoming = self.band.next_encounter if self.band is not None else None
        ready = upcoming is not None and not (self.band is not None and self.band.ended)
        idle = game is None or why == "this game is already in the Band's story"
        self.next_button.setEnabled(ready and idle)
        self.next_button.setToolTip(
            f"A generated table for the Band's next encounter ({upcoming.value.title()}, 12), "
            "then Start with the Band"
            if upcoming is not None
            else "Open a Band whose story goes on"
        )
        banded = game is not None and game.settings.band is not None
        if why is None and banded and self._offered is not game:
            self._offered = game
            self.offer()
        self.after_button.setToolTip(
            "Recovery (7.13), New Recruits (13.1) and Rep changes (13.2/13.3) from the "
            "finished game on the table; the Band is saved at once"
            + (f"\nNot now: {why}." if why else "")
        )

    def refresh(self) -> None:
        band = self.band
        self.roster.setRowCount(0)
        self.history.clear()
        self.rolls.clear()
        self.update_button()
        if band is None:
            self.head.setText("No Band open. Game ▸ Open Band… reads a .crband file.")
            return
        star = band.star
        nxt = band.next_encounter.value.title() if band.next_encounter else "free play"
        if star is None:
            state = "its Star is gone: the story is over"
        else:
            state = (
                f"{len(band.active)} of {band.size_limit} figures (Star's Rep {star.rep}) · "
                f"next encounter: <b>{nxt}</b>"
            )
        self.head.setText(
            f"<b>{band.name}</b> — {band.band_type.value} Band<br>{state}"
            + (f"<br><small>{self.path.name}</small>" if self.path is not None else "")
        )
        dim = QBrush(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        for f in band.figures:
            row = self.roster.rowCount()
            self.roster.insertRow(row)
            played = f.encounters_played
            hits, out = band.tally(f.id)
            cells = (
                ("★ " if f.is_star else "") + f.name,
                str(f.rep),
                f.weapon.value,
                STATUS_WORDS.get(f.status, f.status),
                str(played),
                str(hits),
                str(out),
                " → ".join(map(str, f.rep_history())),
            )
            story = "\n".join(h["text"] for h in f.history[-6:])
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{TIPS[col]}\n\n{story}" if col in TIPS else story)
                if col in CENTRED:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if f.is_star:
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                if f.status != ACTIVE:
                    item.setForeground(dim)
                self.roster.setItem(row, col, item)
        for entry in band.encounters:
            following = f" → {entry['next'].title()}" if entry.get("next") else ""
            text = (
                f"{entry['number']}. {entry['type'].title()}: {entry['outcome']}"
                f" (turn {entry.get('turns', '?')}){following}"
            )
            item = QListWidgetItem(text)
            item.setToolTip(f"{entry.get('date', '')} {entry.get('reason', '')}".strip())
            item.setData(ENCOUNTER_ROLE, entry["number"])
            self.history.addItem(item)
        if not band.encounters:
            self.rolls.setPlainText("\n".join(band.created.get("rolls", [])))

    def chosen_game(self) -> Path | None:
        """The game file of the encounter chosen in the list, when it is beside the Band."""
        item = self.history.currentItem()
        if item is None or self.band is None or self.path is None:
            return None
        number = item.data(ENCOUNTER_ROLE)
        entry = next((e for e in self.band.encounters if e["number"] == number), None)
        name = str(entry.get("game", "")) if entry is not None else ""
        if not name.endswith(".crgame") or Path(name).name != name:
            return None  # a scenario's title (games taken in before they were kept)
        path = self.path.with_name(name)
        return path if path.is_file() else None

    def open_chosen_game(self) -> bool:
        """Open the chosen encounter's game on the table (replay it, export its report)."""
        path = self.chosen_game()
        if path is None or self._open_game is None:
            return False
        return self._open_game(path)

    def watch_chosen_game(self) -> bool:
        """The chosen encounter's game in the replay viewer, step by step."""
        path = self.chosen_game()
        if path is None or self._watch_game is None:
            return False
        return self._watch_game(path) is not None

    def report_chosen_game(self) -> bool:
        """The chosen encounter's battle report, written beside its game and shown."""
        path = self.chosen_game()
        if path is None or self._report_game is None:
            return False
        return self._report_game(path)

    def _show_rolls(self, item: QListWidgetItem | None, _old: QListWidgetItem | None) -> None:
        found = self.chosen_game() if item is not None else None
        self.game_button.setEnabled(found is not None and self._open_game is not None)
        for action, handler in (
            (self.action_open_game, self._open_game),
            (self.action_watch_game, self._watch_game),
            (self.action_report, self._report_game),
        ):
            action.setEnabled(found is not None and handler is not None)
        self.game_button.setToolTip(
            f"Open {found.name} on the table" if found is not None else "No game file kept"
        )
        if item is None or self.band is None:
            return
        number = item.data(ENCOUNTER_ROLE)
        entry = next((e for e in self.band.encounters if e["number"] == number), None)
        if entry is not None:
            head = f"Encounter {number}, {entry.get('date', '')}"
            if entry.get("seed") is not None:
                head += f", after-the-battle seed {entry['seed']}"
            self.rolls.setPlainText("\n".join([head, *entry.get("rolls", [])]))
