"""Starting a solo encounter from the app (issue 30, Deliver 4 and the Band in Deliver 1):
the Start dialog's defaults come from the scenario's encounter (or the open Band's next
one), Solo places none of the scenario's enemy figures unless they are kept on purpose as
known enemies, and "Play with" the open Band puts its members on the table, deployed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from crdesk.band import BandType, load_band, new_band, save_band
from crdesk.dice import CounterDice
from tests.ui.windows import open_window
from ui.play.start_dialog import StartDialog

SHOTS = Path("/tmp/crdesk-shots")


def start_with(window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, fill: Any) -> None:
    def run(dialog: StartDialog) -> int:
        dialog.show()
        qtbot.waitExposed(dialog)
        fill(dialog)
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", run)
    window.play.action_start.trigger()


def test_solo_places_none_of_the_scenario_s_enemies(qtbot: Any, monkeypatch: Any) -> None:
    window = open_window(qtbot)  # the demo: a Raid with four Red Vipers on the table
    said: list[str] = []

    def fill(dialog: StartDialog) -> None:
        assert dialog.solo_box.isChecked() and dialog.encounter().value == "raid"
        assert dialog.known_box.isVisible() and not dialog.known_enemies()
        said.append(dialog.solo_note.text())
        SHOTS.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(SHOTS / "start-solo-defaults.png"))

    start_with(window, qtbot, monkeypatch, fill)
    game = window.play.game
    assert game is not None and game.settings.solo and game.settings.encounter == "raid"
    assert "4 enemy figures are not placed" in said[0]
    enemies = [f for f in game.battlefield.figures() if f.side != game.player_side()]
    assert all(f.id.startswith("pef") for f in enemies)  # only what PEFs bring (11.3)


def test_known_enemies_stay_when_kept_on_purpose(qtbot: Any, monkeypatch: Any) -> None:
    window = open_window(qtbot)

    def fill(dialog: StartDialog) -> None:
        qtbot.mouseClick(dialog.known_box, Qt.MouseButton.LeftButton)
        assert dialog.known_enemies() and not dialog.solo_note.text()

    start_with(window, qtbot, monkeypatch, fill)
    game = window.play.game
    assert game is not None and game.settings.solo
    assert {"e1", "e2", "e3", "e4"} <= {f.id for f in game.battlefield.figures()}


def test_play_with_the_open_band(qtbot: Any, monkeypatch: Any, tmp_path: Path) -> None:
    band, _ = new_band("Rock's Raiders", BandType.MILITARY, CounterDice(3), seed=3)
    path = tmp_path / "raiders.crband"
    save_band(band, path)
    window = open_window(qtbot)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.play.campaign_dock.action_open.trigger()

    def fill(dialog: StartDialog) -> None:
        assert dialog.band() is not None and dialog.band_box.isEnabled()
        assert dialog.encounter().value == "patrol"  # the Band's next encounter
        assert "Rock's Raiders replaces" in dialog.solo_note.text()
        dialog.grab().save(str(SHOTS / "start-with-band.png"))

    start_with(window, qtbot, monkeypatch, fill)
    assert window.play.game is None and window.play.deployment is not None  # deploy first
    dock = window.play.deploy_dock
    qtbot.mouseClick(dock.auto_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.start_button, Qt.MouseButton.LeftButton)
    game = window.play.game
    assert game is not None and game.settings.encounter == "patrol"
    record = game.settings.band
    assert record is not None and record.id == load_band(path).identity
    mine = {f.id for f in game.battlefield.figures() if f.side == game.player_side()}
    assert mine == {f.id for f in band.active}
    rows = {f.id: f for f in game.battlefield.figures()}
    assert all(rows[fid].y > game.battlefield.table.height - 3 for fid in mine)  # the near edge
