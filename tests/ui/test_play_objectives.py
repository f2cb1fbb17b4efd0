"""The play mode's encounters: the start dialog offers solo play and the encounter, the
Objectives panel ticks the checklist off as the controller tracks it (12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from crdesk.game import MANUAL, GameSettings
from tests.game.games import scenario
from tests.ui.windows import open_window
from ui.play.objective_marks import COLOURS
from ui.play.start_dialog import StartDialog

SHOTS = Path("/tmp/crdesk-shots")
DATA = Path(__file__).parents[1] / "data" / "games"


def test_the_start_dialog_offers_solo_play_and_the_encounter(
    qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    own = window.scenario.encounter.type.value

    def accept(dialog: StartDialog) -> int:
        # the scenario's own encounter, played solo, by default (issue 30)
        assert dialog.solo_box.isChecked() and dialog.encounter().value == own
        qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)  # off: free play
        assert dialog.settings() == GameSettings()
        qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)
        assert dialog.solo_box.isChecked()
        assert dialog.encounter().value == own  # the scenario's own encounter is offered
        dialog.encounter_box.setFocus()
        while dialog.encounter().value != "patrol":
            qtbot.keyClick(dialog.encounter_box, Qt.Key.Key_Up)
        assert dialog.settings() == GameSettings(solo=True, encounter="patrol")
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(StartDialog, "exec", accept)
    window.play.action_start.trigger()
    game = window.play.game
    assert game.settings.solo and game.settings.encounter == "patrol"
    dock = window.play.objectives_dock
    assert dock.isVisible()
    assert dock.title_label.text() == "<b>Patrol</b> (12.1)"
    assert [line[0] for line in dock.lines()] == ["☐"] * 4


def test_choosing_an_encounter_turns_solo_on_and_free_play_has_no_objective(
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    dialog = StartDialog(window.scenario, window)
    qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)  # the demo's Raid off
    assert dialog.settings() == GameSettings()
    dialog.encounter_box.setFocus()
    qtbot.keyClick(dialog.encounter_box, Qt.Key.Key_Down)  # Free play -> Patrol
    assert dialog.solo_box.isChecked() and dialog.settings().encounter == "patrol"
    qtbot.mouseClick(dialog.solo_box, Qt.MouseButton.LeftButton)  # solo off: free play
    assert dialog.settings() == GameSettings()
    assert window.play.start(1)
    dock = window.play.objectives_dock
    assert dock.title_label.text() == "<b>Free play</b>" and dock.items == []


def test_the_objectives_panel_follows_a_patrol_to_its_end(qtbot) -> None:  # type: ignore[no-untyped-def]
    case = json.loads((DATA / "encounter_patrol_won.json").read_text())
    window = open_window(qtbot, scenario(case["scenario"]))
    settings = GameSettings.from_dict(case["settings"])
    assert window.play.start(0, {"e"}, settings, dice=MANUAL)
    session = window.play.session
    dock = window.play.objectives_dock
    assert dock.isVisible()
    for n, step in enumerate(case["steps"]):
        if step["do"] != "start":
            assert session.play(step["do"]) is None, step
        if step.get("dice"):
            assert session.play("dice " + ",".join(map(str, step["dice"]))) is None, step
        if n == 0:  # the three far-edge strips are on the table, still to do
            strips = window.play.objective_marks.strips()
            assert [s.rect().getRect() for s in strips] == [
                (0.0, 0.0, 4.0, 6.0),
                (4.0, 0.0, 4.0, 6.0),
                (8.0, 0.0, 4.0, 6.0),
            ]
            assert {s.pen().color().name() for s in strips} == {COLOURS["open"].name()}
        if n == 2:  # the activation at the far edge has ended: three sections ticked
            strips = window.play.objective_marks.strips()
            assert {s.pen().color().name() for s in strips} == {COLOURS["done"].name()}
            assert [line[0] for line in dock.lines()] == ["☑", "☑", "☑", "☐"]
            assert dock.lines()[0] == '☑ Section 1: end an activation within 6" of the far edge'

            assert dock.result_label.text() == ""
    assert window.play.game.outcome is not None
    assert [line[0] for line in dock.lines()] == ["☑"] * 4
    result = dock.result_label.text()
    assert "Won" in result and "Next encounter: a Raid (12)." in result
    qtbot.wait(50)  # the labels' new heights are laid out
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "play-objectives.png"))


def test_the_raid_objective_is_marked_where_it_lies_and_follows_its_carrier(qtbot) -> None:  # type: ignore[no-untyped-def]
    case = json.loads((DATA / "encounter_raid_last_pef.json").read_text())
    window = open_window(qtbot, scenario(case["scenario"]))
    assert window.play.start(0, {"e"}, GameSettings.from_dict(case["settings"]), dice=MANUAL)
    session = window.play.session
    marks = window.play.objective_marks
    assert marks.tokens() == []  # not found yet
    assert session.play("dice " + ",".join(map(str, case["steps"][0]["dice"]))) is None
    (token,) = marks.tokens()  # every PEF resolved: it lies where PEF 3 stood
    assert (token.pos().x(), token.pos().y()) == (2.0, 4.5) and token.label == "Objective"
    assert token.colour.name() == COLOURS["open"].name()
    dock = window.play.objectives_dock
    assert dock.lines()[
        1
    ] == '☐ Take the objective (a figure within 1" once its holder is down) ' + ("at (2, 4.5)")
    qtbot.wait(50)
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "play-raid-objective.png"))
    assert session.play("activate p1") is None
    assert session.play("move p1 2,5.2") is None
    (token,) = marks.tokens()  # taken: it goes with the Star
    assert (token.pos().x(), token.pos().y()) == (2.0, 5.2)
    assert token.colour.name() == COLOURS["done"].name()
