"""The Campaign dock: Game ▸ Open Band… shows the roster and the encounters; "After the
Battle" takes the finished game on the table into the Band and saves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from crdesk.band import backup_path, load_band, save_band
from crdesk.game.savefile import save_game
from tests.test_band import band_of, lost_game
from tests.ui.windows import open_window
from ui.main_window import MainWindow
from ui.play.after_battle_dialog import AfterBattleDialog

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


@pytest.fixture
def band_file(tmp_path: Path) -> Path:
    path = tmp_path / "mace.crband"
    save_band(band_of({}, extra=1), path)
    return path


def open_band_from_menu(window: MainWindow, path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    action = window.play.campaign_dock.action_open
    assert action in window.play.menu.actions()
    action.trigger()


def confirm_after_battle(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The After the Battle dialog confirmed as it opens (its own tests drive it)."""

    def confirm(dialog: AfterBattleDialog) -> int:
        dialog.accept()
        return int(dialog.result is not None)

    monkeypatch.setattr(AfterBattleDialog, "exec", confirm)


def cells(window: MainWindow) -> list[list[str]]:
    table = window.play.campaign_dock.roster
    return [
        [table.item(r, c).text() for c in range(table.columnCount())]
        for r in range(table.rowCount())
    ]


def test_open_band_shows_the_roster(window: MainWindow, band_file: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    dock = window.play.campaign_dock
    assert not dock.isVisible()
    open_band_from_menu(window, band_file, monkeypatch)
    assert dock.isVisible()
    assert cells(window) == [
        ["★ Sgt. Mace", "5", "AR", "in the Band", "0", "0", "0", "5"],
        ["Pvt. Hicks", "4", "AR", "in the Band", "0", "0", "0", "4"],
        ["Pvt. Vasquez", "4", "AR", "in the Band", "0", "0", "0", "4"],
        ["Home 1", "3", "AR", "in the Band", "0", "0", "0", "3"],
    ]
    assert "4 of 5 figures" in dock.head.text() and "Patrol" in dock.head.text()
    assert not dock.after_button.isEnabled()  # no game on the table
    assert "no game on the table" in dock.after_button.toolTip()


def test_a_hostile_band_is_refused_with_its_path(  # type: ignore[no-untyped-def]
    window: MainWindow, tmp_path: Path, monkeypatch, _no_modal_dialogs
) -> None:
    path = tmp_path / "bad.crband"
    save_band(band_of({}), path)
    doc = json.loads(path.read_text())
    doc["figures"][2]["rep"] = 21
    path.write_text(json.dumps(doc))
    open_band_from_menu(window, path, monkeypatch)
    assert window.play.campaign_dock.band is None
    title, text = _no_modal_dialogs[-1]
    assert title == "Could not open the Band"
    assert "figures[2].rep: expected a Rep, an integer 2..20, got 21" in text


def test_after_the_battle_from_the_game_on_the_table(  # type: ignore[no-untyped-def]
    window: MainWindow, band_file: Path, tmp_path: Path, qtbot, monkeypatch
) -> None:
    game_path = tmp_path / "lost.crgame"
    save_game(lost_game(), game_path)
    assert window.play.open_file(game_path)
    dock = window.play.campaign_dock
    open_band_from_menu(window, band_file, monkeypatch)
    assert dock.isVisible()  # the play mode keeps it on
    assert dock.after_button.isEnabled()
    monkeypatch.setattr("ui.play.campaign_dock.secrets.randbelow", lambda _n: 5)
    confirm_after_battle(monkeypatch)
    qtbot.mouseClick(dock.after_button, Qt.MouseButton.LeftButton)
    band = load_band(band_file)
    assert len(band.encounters) == 1 and band.encounters[0]["seed"] == 5
    assert band.encounters[0]["outcome"] == "draw"
    assert dock.history.count() == 1 and dock.history.currentRow() == 0
    assert "Sgt. Mace (left the battlefield) rolled" in dock.rolls.toPlainText()
    assert [row[1] for row in cells(window)] == [str(f.rep) for f in band.figures]
    recruits = len(band.figures) - 4
    assert [row[4] for row in cells(window)] == ["1", "1", "1", "0"] + ["0"] * recruits
    assert not dock.after_button.isEnabled()  # the same game is not taken in twice
    assert "already in the Band's story" in dock.after_button.toolTip()
    assert backup_path(band_file).is_file()  # the Band as it went in
    # the encounter's game, kept beside the Band, opens from the story
    assert dock.game_button.isEnabled()
    kept = band_file.with_name("mace-encounter-1.crgame")
    assert dock.chosen_game() == kept
    qtbot.mouseClick(dock.game_button, Qt.MouseButton.LeftButton)
    assert window.play.game_file == kept and window.play.game is not None
    QApplication.processEvents()
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = window.grab().toImage()
    assert image.save(str(tmp_path / "campaign.png"))
    image.save(str(SHOTS / "play-campaign.png"))
    dock.grab().save(str(SHOTS / "play-campaign-dock.png"))
