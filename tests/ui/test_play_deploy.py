"""The player deploys the Band (issue 30; 12.1.4, 12.2, 12.3): before the PEFs are placed
the table shows the zone the encounter allows with the Band standing where the program
would put it; figures are dragged within it (a drop the rules refuse snaps back with the
reason), "Deploy for me" and "Deploy as before" place them all, and "Start encounter"
builds the game from where they stand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from crdesk.band import Band, BandType, new_band, save_band
from crdesk.dice import CounterDice
from crdesk.game import GameSettings
from tests.ui.mouse import drag
from tests.ui.windows import open_window
from ui.play.mode import PLAYER_DEPLOYS
from ui.play.start_dialog import GENERATED, OPEN_BAND, StartDialog

SHOTS = Path("/tmp/crdesk-shots")
LEFT = Qt.MouseButton.LeftButton


def raiders(seed: int = 3) -> Band:
    band, _ = new_band("Rock's Raiders", BandType.MILITARY, CounterDice(seed), seed=seed)
    return band


def deploying(qtbot: Any, kind: str = "patrol", band: Band | None = None) -> Any:
    window = open_window(qtbot)
    band = band or raiders()
    settings = GameSettings(solo=True, encounter=kind)
    assert window.play.start(
        7, set(), settings, band=band, deploy=PLAYER_DEPLOYS, known_enemies=False
    )
    return window, band


def test_the_band_waits_in_its_zone_until_the_player_starts(qtbot: Any) -> None:
    window, band = deploying(qtbot)
    play = window.play
    step = play.deployment
    assert play.game is None and step is not None and play.deploy_dock.isVisible()
    assert not window.action_save.isEnabled()  # the editor is off while deploying
    assert not play.action_start.isEnabled() and play.action_stop.isEnabled()
    assert window.view.scene() is step.scene and step.zone.scene() is step.scene
    assert "12.1.4" in play.deploy_dock.head.text() and play.badge.text() == "DEPLOY"
    assert not any(f.side != step.me for f in step.working.figures())  # solo: PEFs only
    height = step.working.table.height
    places = step.places()
    assert set(places) == {f.id for f in band.active}
    assert all(y > height - 3 for _x, y in places.values())  # within 3" of the player's edge
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "deploy-step.png"))
    fid = band.active[1].id
    x0, y0 = places[fid]
    # an illegal drop (the middle of the table) snaps back, saying why
    drag(window.view, [(x0, y0), (x0, y0 - 6), (x0, height / 2)])
    assert step.places()[fid] == (x0, y0)
    assert "enters by the player's edge" in (step.last_problem or "") or "not in sections" in (
        step.last_problem or ""
    )
    assert step.last_problem in play.deploy_dock.problem.text()
    # a legal drop along the edge moves it
    spot = next(
        (x, height - 1.0)
        for x in (x0 + d for d in (6, -6, 9, -9, 12, -12))
        if step.problem(fid, x, height - 1.0) is None
    )
    drag(window.view, [(x0, y0), (spot[0], spot[1])])
    assert step.places()[fid] == pytest.approx(spot, abs=0.05)
    assert play.deploy_dock.undo_button.isEnabled()
    qtbot.mouseClick(play.deploy_dock.undo_button, LEFT)
    assert step.places()[fid] == (x0, y0)
    drag(window.view, [(x0, y0), (spot[0], spot[1])])
    moved = step.places()
    qtbot.mouseClick(play.deploy_dock.start_button, LEFT)
    game = play.game
    assert game is not None and play.deployment is None and not play.deploy_dock.isVisible()
    placed = game.battlefield.figure(fid)
    assert (placed.x, placed.y) == pytest.approx(moved[fid], abs=0.01)
    assert game.settings.band is not None and game.settings.encounter == "patrol"
    assert game.state["pefs"]  # placed once the Band stands (11)
    assert window.play.badge.text() == "PLAY"


def test_deploy_for_me_and_as_before(qtbot: Any) -> None:
    window, band = deploying(qtbot)
    step = window.play.deployment
    auto = step.places()
    fid = band.active[0].id
    x0, _y0 = auto[fid]
    height = step.working.table.height
    spot = next(
        (x, height - 2.0)
        for x in (x0 + d for d in (8, -8, 12, -12, 16, -16))
        if step.problem(fid, x, height - 2.0) is None
    )
    assert step.place(fid, *spot) is None
    qtbot.mouseClick(window.play.deploy_dock.auto_button, LEFT)
    assert step.places() == auto  # every figure where the program puts it
    assert not window.play.deploy_dock.before_button.isEnabled()  # never deployed before
    assert step.place(fid, *spot) is None
    qtbot.mouseClick(window.play.deploy_dock.start_button, LEFT)
    window.play.stop()
    # the next time, "Deploy as before" puts it where the player did
    raid = GameSettings(solo=True, encounter="raid")
    assert window.play.start(8, set(), raid, band=band, deploy=PLAYER_DEPLOYS)
    step = window.play.deployment
    assert window.play.deploy_dock.before_button.isEnabled()
    qtbot.mouseClick(window.play.deploy_dock.before_button, LEFT)
    assert step.places()[fid] == pytest.approx(spot)


def test_defend_sets_up_anywhere_in_sections_7_to_9(qtbot: Any) -> None:
    window, band = deploying(qtbot, "defend")
    step = window.play.deployment
    height = step.working.table.height
    assert "sections 7-9, inside buildings too (12.3)" in window.play.deploy_dock.head.text()
    assert "held by the Band" in window.play.deploy_dock.head.text()
    fid = band.active[0].id
    free = [
        (x, y)
        for x in range(2, int(step.working.table.width) - 2, 2)
        for y in (height * 2 / 3 + 1.5, height * 5 / 6)
        if step.problem(fid, x, y) is None
    ]
    assert free, "no free spot in sections 7-9 on the demo"
    assert step.place(fid, *free[0]) is None  # well away from the edge: allowed in a Defend
    assert step.problem(fid, free[0][0], height / 3) is not None  # not in sections 4-6


def test_cancel_goes_back_to_the_editor(qtbot: Any) -> None:
    window, _band = deploying(qtbot)
    qtbot.mouseClick(window.play.deploy_dock.cancel_button, LEFT)
    assert window.play.deployment is None and window.play.game is None
    assert window.view.scene() is window.scene
    assert window.action_save.isEnabled() and window.play.action_start.isEnabled()
    assert not window.play.deploy_dock.isVisible()


def test_start_dialog_offers_another_band_and_the_deployment(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "other.crband"
    save_band(raiders(9), path)
    window = open_window(qtbot)
    demo_width = window.scenario.battlefield.table.width
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    seen: list[bool] = []

    def run(dialog: StartDialog) -> int:
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.band() is None and not dialog.deploy_box.isVisible()
        dialog.band_box.setCurrentIndex(dialog.band_box.findText(OPEN_BAND))
        dialog.band_box.activated.emit(dialog.band_box.currentIndex())
        assert dialog.band() is not None and dialog.opened_path == path
        assert dialog.deploy_box.isVisible() and dialog.player_deploys()
        seen.append(dialog.coop_box.isVisible())  # a Band's groups are not the scenario's
        assert dialog.encounter().value == "patrol"
        assert dialog.side_labels["player"].text() == "Rock's Raiders:"  # the Band plays that side
        assert dialog.table_box.isVisible() and not dialog.generated_table()
        dialog.table_box.setCurrentIndex(dialog.table_box.findData(GENERATED))
        assert dialog.generated_table()
        dialog.grab().save(str(SHOTS / "start-open-band.png"))
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", run)
    window.play.action_start.trigger()
    assert seen == [False]
    assert window.play.campaign_dock.path == path  # the Campaign panel keeps the Band
    assert window.play.deployment is not None
    generation = window.scenario.generation  # a table generated for the Patrol (9.2-9.5)
    assert generation is not None and generation.inputs.get("encounter") == "patrol"
    assert window.play.deployment.bare.battlefield.table.width == demo_width


def test_a_file_that_is_not_a_band_is_refused_in_the_start_dialog(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "bad.crband"
    path.write_text("{not json", encoding="utf-8")
    window = open_window(qtbot)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    refused: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _p, _t, text: refused.append(text))
    dialog = StartDialog(window.scenario, window)
    dialog.band_box.setCurrentIndex(dialog.band_box.findText(OPEN_BAND))
    dialog.band_box.activated.emit(dialog.band_box.currentIndex())
    assert refused and "bad.crband" in refused[0]
    assert dialog.band() is None and dialog.band_box.currentText() != OPEN_BAND


def test_defend_sets_up_inside_a_building(qtbot: Any) -> None:
    """12.3 "anywhere in sections 7-9" takes a building's inside too: a figure dropped in
    the Defend's house stays there, the zone shows the inside, and the encounter starts
    with the Band holding the house (no 11.1 PEF in it: pef_buildings_held_at_set_up)."""
    from crdesk.generator import generate

    window = open_window(qtbot, generate(2, 36, 36, "urban", encounter="defend"))
    band = raiders()
    settings = GameSettings(solo=True, encounter="defend")
    assert window.play.start(
        7, set(), settings, band=band, deploy=PLAYER_DEPLOYS, known_enemies=False
    )
    step = window.play.deployment
    fid = band.active[0].id
    x0, y0 = step.places()[fid]
    inside = (18.0, 30.0)  # Building 15, section 8
    assert step.problem(fid, *inside) is None
    assert "wall" in (step.problem(fid, 15.6, 30.0) or "")
    drag(window.view, [(x0, y0), (x0, (y0 + inside[1]) / 2), inside])
    assert step.places()[fid] == pytest.approx(inside, abs=0.05)
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "deploy-defend-inside.png"))
    qtbot.mouseClick(window.play.deploy_dock.start_button, LEFT)
    game = window.play.game
    assert game is not None
    held = [e for e in game.events if e.kind == "pef_building_held"]
    assert held and "Building 15" in held[0].text
