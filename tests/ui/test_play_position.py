"""Game ▸ Save Position as Scenario…: a move is played, the position is saved, the scenario
loader finds the figure at its new spot, and neither the open scenario (its file and its
document) nor the game changed; the "Leave play mode?" question offers the same.

The demo scenario with seed 1: Sgt. Mace's squad activates; Pvt. Lind stands at (12, 33).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QPushButton

from crdesk.resources import demo_scenario
from crdesk.scenario import load
from tests.ui.mouse import drag
from tests.ui.windows import playing
from ui.main_window import MainWindow
from ui.play.save_position import Leave, LeaveQuestion

SHOTS = Path("/tmp/crdesk-shots")
REAL_ASK = LeaveQuestion.__dict__["ask"]
"""The question itself (the conftest answers it in every other test)."""


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "main-street.crdesk"
    shutil.copyfile(str(demo_scenario()), path)
    return path


@pytest.fixture
def window(qtbot, scenario_file: Path):  # type: ignore[no-untyped-def]
    window = playing(qtbot, load(scenario_file), path=scenario_file)  # seed 1: Mace's squad
    drag(window.view, [(12.0, 33.0), (12.0, 31.0), (12.0, 29.0)])  # Lind walks 4" north
    lind = window.play.game.battlefield.figure("p4")
    assert (lind.x, lind.y) == pytest.approx((12.0, 29.0), abs=0.1)
    return window


def answer_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> list[str]:
    """The save dialog picks ``path``; returns the default name it was offered."""
    offered: list[str] = []

    def pick(_parent, _title, default, _filter):  # type: ignore[no-untyped-def]
        offered.append(default)
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", pick)
    return offered


def test_the_position_is_saved_as_a_new_scenario(
    window: MainWindow, scenario_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = scenario_file.read_bytes()
    game = window.play.game
    assert game is not None
    steps, state = len(game.history), game.state_hash()
    target = tmp_path / "later.crdesk"
    offered = answer_file(monkeypatch, target)
    action = window.play.action_position
    assert action.isEnabled() and action in window.play.menu.actions()
    action.trigger()
    assert offered == [str(tmp_path / "main-street - turn 1.crdesk")]
    saved = load(target)
    lind = saved.battlefield.figure("p4")
    assert (lind.x, lind.y) == pytest.approx((12.0, 29.0), abs=0.1)
    assert "Saved the position as the scenario later.crdesk" in window.statusBar().currentMessage()
    assert "Not kept" in window.statusBar().currentMessage()
    assert scenario_file.read_bytes() == original  # the open scenario's file
    assert window.scenario.battlefield.figure("p4").y == 33.0  # and its document
    assert not window.document.is_modified and window.document.undo_stack.count() == 0
    assert window.play.active and len(game.history) == steps and game.state_hash() == state


def test_the_open_scenarios_file_is_not_saved_over(
    window: MainWindow,
    scenario_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    _no_modal_dialogs: list[tuple[str, str]],
) -> None:
    original = scenario_file.read_bytes()
    answer_file(monkeypatch, scenario_file)
    assert not window.play.save_position_dialog()
    assert scenario_file.read_bytes() == original
    assert _no_modal_dialogs[-1][0] == "Not saved over the open scenario"


def test_leaving_play_mode_offers_to_save_the_position(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[bool] = []

    def ask(_parent, _game, unsaved):  # type: ignore[no-untyped-def]
        asked.append(unsaved)
        return Leave.SAVE_POSITION

    monkeypatch.setattr(LeaveQuestion, "ask", staticmethod(ask))
    target = tmp_path / "to-edit.crdesk"
    answer_file(monkeypatch, target)
    assert window.play.stop()  # then the unsaved steps: the conftest answers Discard
    assert asked == [True] and not window.play.active
    lind = load(target).battlefield.figure("p4")
    assert (lind.x, lind.y) == pytest.approx((12.0, 29.0), abs=0.1)


def test_keep_playing_stays_in_play_mode(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LeaveQuestion, "ask", staticmethod(lambda *_a: Leave.STAY))
    assert not window.play.stop() and window.play.active


def test_the_question_as_a_player_sees_it(
    window: MainWindow, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(LeaveQuestion, "ask", REAL_ASK)
    target = tmp_path / "from-the-question.crdesk"
    answer_file(monkeypatch, target)
    seen: list[list[str]] = []

    def click_save_position() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):  # not up yet (a loaded machine): look again
            QTimer.singleShot(20, click_save_position)
            return
        buttons = [b for b in box.findChildren(QPushButton) if b.isVisible()]
        seen.append([b.text() for b in buttons])
        SHOTS.mkdir(parents=True, exist_ok=True)
        box.grab().save(str(SHOTS / "play-leave-question.png"))
        chosen = next(b for b in buttons if b.text() == "Save Position as Scenario…")
        qtbot.mouseClick(chosen, Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, click_save_position)
    assert window.play.stop(), seen
    assert seen and sorted(seen[0]) == sorted(  # (their order is the platform's)
        ["Save Game…", "Save Position as Scenario…", "Leave Without Saving", "Keep Playing"]
    )
    assert target.is_file() and not window.play.active
