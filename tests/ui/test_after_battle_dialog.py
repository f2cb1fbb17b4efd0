"""The After the Battle dialog (issue 30, Deliver 2): what each figure did and how 13.2/13.3
read it, the program's seeded dice or the player's own roll by roll (each asked for by
name, undoable), and nothing kept until Confirm; Confirm keeps the Band's old file as .bak."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from crdesk.band import after_battle, backup_path, load_band, save_band
from crdesk.dice import CounterDice
from crdesk.game.savefile import save_game
from tests.test_band import band_of, lost_game
from tests.ui.windows import open_window
from ui.play.after_battle_dialog import AfterBattleDialog

SHOTS = Path("/tmp/crdesk-shots")
LEFT = Qt.MouseButton.LeftButton
# the lost game with the player's own dice, as crdesk band after-battle --dice takes them:
# Mace (left) 1,2 returns; Hicks (OOF) 1,6 returns; New Recruits 6,6; Rep changes 1, 2, 2
OWN_ROLLS = ["1 2", "1 6", "6 6", "1", "2", "2"]


def test_seeded_dice_show_each_figure_and_every_roll(qtbot: Any) -> None:
    band, game = band_of({}), lost_game()
    dialog = AfterBattleDialog(band, game, 5, game_name="lost.crgame")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    deeds = {
        dialog.deeds.item(r, 0).text(): dialog.deeds.item(r, 1).text()
        for r in range(dialog.deeds.rowCount())
    }
    assert deeds["Sgt. Mace"].endswith("left the battlefield → failure")
    assert deeds["Pvt. Vasquez"].endswith("left an Out of the Fight Band member behind → failure")
    expected = after_battle(band, game, CounterDice(5), seed=5, game_name="lost.crgame")
    assert dialog.lines.toPlainText() == "\n".join(expected.lines)
    assert dialog.confirm_button.isEnabled() and not dialog.own_box.isVisible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SHOTS / "after-battle-seeded.png"))
    assert band_of({}).to_document() == band.to_document()  # nothing changed before Confirm


def test_own_dice_roll_by_roll_with_undo(qtbot: Any) -> None:
    dialog = AfterBattleDialog(band_of({}), lost_game(), 5)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.mouseClick(dialog.own_radio, LEFT)
    assert dialog.own_box.isVisible() and not dialog.confirm_button.isEnabled()
    assert "Sgt. Mace" in dialog.ask.text() and "2d6" in dialog.ask.text()
    assert "7.13" in dialog.ask.text()
    assert not dialog.enter_faces("4")  # one die for a 2d6 roll
    assert "needs 2 dice" in dialog.problem.text()
    for roll in OWN_ROLLS:
        dialog.faces_edit.setText(roll)
        qtbot.mouseClick(dialog.enter_button, LEFT)
    assert dialog.confirm_button.isEnabled() and dialog.result is not None
    text = dialog.lines.toPlainText()
    assert "Sgt. Mace: failure, rolled 1: Rep -1" in text
    assert "left the battlefield → failure" in text  # the reason beside the roll
    qtbot.mouseClick(dialog.undo_button, LEFT)  # until confirmed, a roll can be taken back
    assert not dialog.confirm_button.isEnabled() and "Rep Changes" in dialog.ask.text()
    dialog.faces_edit.setText("2")
    dialog.faces_edit.returnPressed.emit()
    assert dialog.confirm_button.isEnabled()
    dialog.grab().save(str(SHOTS / "after-battle-own-dice.png"))


@pytest.mark.parametrize("confirm", [True, False])
def test_confirm_saves_with_a_backup_cancel_keeps_nothing(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, confirm: bool
) -> None:
    path = tmp_path / "mace.crband"
    save_band(band_of({}), path)
    before = path.read_bytes()
    game_path = tmp_path / "lost.crgame"
    save_game(lost_game(), game_path)
    window = open_window(qtbot)
    assert window.play.open_file(game_path)
    dock = window.play.campaign_dock
    assert dock.open_file(path)

    def run(dialog: AfterBattleDialog) -> int:
        if not confirm:
            return int(QDialog.DialogCode.Rejected)
        dialog.accept()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(AfterBattleDialog, "exec", run)
    assert dock.take_game(7) is confirm
    if confirm:
        assert len(load_band(path).encounters) == 1
        assert backup_path(path).read_bytes() == before
        assert (tmp_path / "mace-encounter-1.crgame").is_file()
        assert not dock.after_button.isEnabled()
    else:
        assert path.read_bytes() == before and not backup_path(path).exists()
        assert not (tmp_path / "mace-encounter-1.crgame").exists()
        assert dock.after_button.isEnabled()  # it can be done again
