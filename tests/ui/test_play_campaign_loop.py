"""The campaign loop through the app's own dialogs (issue 30, Deliver 5): Start with the
Band (its members deployed for the encounter), the program plays both sides to the end,
the Campaign panel offers After the Battle at once, and Next encounter sets up the
encounter the Band's story names on a generated table -- three times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from crdesk.band import BandType, load_band, new_band, save_band
from crdesk.dice import CounterDice
from tests.ui.test_play_campaign import confirm_after_battle
from tests.ui.windows import open_window
from ui.play.start_dialog import PROGRAM, StartDialog

SHOTS = Path("/tmp/crdesk-shots")


def test_three_encounters_through_the_app(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    band, _ = new_band("Rock's Raiders", BandType.MILITARY, CounterDice(5), seed=5)
    path = tmp_path / "raiders.crband"
    save_band(band, path)
    window = open_window(qtbot)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    dock = window.play.campaign_dock
    dock.action_open.trigger()
    # the GUI's dice seeds run to 2**31: the Band once refused a game seeded above a million
    seeds = iter([11, 2**31 - 2, 13])
    tables = iter([21, 22])
    monkeypatch.setattr("ui.play.mode.random_seed", lambda: next(tables))  # the tables made
    after = iter([31, 32, 33])  # After the Battle's dice seeds (else random: a flaky test)
    monkeypatch.setattr("ui.play.campaign_dock.secrets.randbelow", lambda _n: next(after))

    def start(dialog: StartDialog) -> int:
        assert dialog.band() is not None  # the open Band, by default
        assert dialog.encounter() is load_band(path).next_encounter
        dialog.seed_box.setValue(next(seeds))
        dialog.turns_box.setValue(12)  # an encounter not achieved by then is not won (12)
        for box in dialog.side_boxes.values():
            box.setCurrentText(PROGRAM)  # the program plays both sides
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", start)
    confirm_after_battle(monkeypatch)
    deploy = window.play.deploy_dock

    def deploy_for_me() -> None:  # the player's deployment step (12.1.4), left to the program
        assert window.play.deployment is not None and deploy.isVisible()
        qtbot.mouseClick(deploy.auto_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(deploy.start_button, Qt.MouseButton.LeftButton)
        assert window.play.deployment is None and not deploy.isVisible()

    window.play.action_start.trigger()
    deploy_for_me()
    for n in (1, 2, 3):
        game = window.play.game
        assert game is not None and game.settings.band is not None
        assert game.settings.band.encounter == n
        for _ in range(2_000):
            if game.awaiting() is None:
                break
            window.play.run_program()
            qtbot.wait(1)
        assert game.outcome is not None, f"encounter {n} did not end"
        assert dock.isVisible() and dock.after_button.isEnabled()  # offered at once
        assert "The encounter is over" in dock.head.text()
        assert window.play.decision_dock.height() >= 220  # never squeezed by the panel
        qtbot.mouseClick(dock.after_button, Qt.MouseButton.LeftButton)
        taken = load_band(path)
        assert len(taken.encounters) == n
        assert not dock.after_button.isEnabled()
        assert dock.next_button.isEnabled() is not taken.ended  # a story ended has no next
        if n == 3:
            break
        qtbot.mouseClick(dock.next_button, Qt.MouseButton.LeftButton)  # generate, then Start
        deploy_for_me()
        assert window.play.game is not game
    SHOTS.mkdir(parents=True, exist_ok=True)
    dock.grab().save(str(SHOTS / "campaign-after-three.png"))
    assert [e["number"] for e in load_band(path).encounters] == [1, 2, 3]
    # the story's encounters: watch one step by step, read its battle report
    opened: list[str] = []
    monkeypatch.setattr(
        "ui.play.mode.QDesktopServices.openUrl", lambda url: opened.append(url.toLocalFile())
    )
    dock.history.setCurrentRow(0)
    assert dock.action_watch_game.isEnabled() and dock.action_report.isEnabled()
    dock.action_watch_game.trigger()
    viewer = window.play.viewers[-1]
    assert viewer.isVisible() and "encounter-1" in viewer.windowTitle()
    viewer.close()
    dock.action_report.trigger()
    assert opened and opened[-1].endswith("raiders-encounter-1.html")
    assert "Battle report" in Path(opened[-1]).read_text(encoding="utf-8")
