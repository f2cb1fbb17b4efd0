"""Issue 15, items 1 and 2: forces and settings in the GUI; Generate re-deploys the forces."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QInputDialog, QMenu
from shapely.geometry import Point

from crdesk import scenario as io
from crdesk.generator import generate
from crdesk.model import BandType, Building, CoverObstacle, EncounterType
from crdesk.options import interpretation_info
from tests.ui.mouse import at, drag
from tests.ui.windows import EDITOR_SIZE, open_window
from ui.dialogs.settings_dialog import ScenarioSettingsDialog
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, size=EDITOR_SIZE, recovery=tmp_path / "rec")


def _action(menu: QMenu, text: str):
    for action in menu.actions():
        if action.text().replace("&", "") == text:
            return action
        sub = action.menu()
        if sub is not None and action.text() == text:
            return action
    raise AssertionError(f"no {text!r} in {[a.text() for a in menu.actions()]}")


def _submenu(menu: QMenu, text: str) -> QMenu:
    sub = _action(menu, text).menu()
    assert isinstance(sub, QMenu)
    return sub


def test_forces_add_rename_band_player_delete_with_undo(window, monkeypatch) -> None:
    roster, doc = window.roster_dock, window.document
    bf = doc.battlefield
    answers = iter([("Blue Berets", True), ("UN Blue Berets", True)])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: next(answers))
    _action(roster.context_menu(None), "Add Force…").trigger()
    new = bf.forces[-1]
    assert new.name == "Blue Berets" and not new.player and new.figures == []
    assert roster.force_item(new.id) is not None
    assert doc.undo_stack.undoText() == "Add Force Blue Berets"
    menu = roster.context_menu(roster.force_item(new.id))
    _action(menu, "Rename Force…").trigger()
    assert bf.force(new.id).name == "UN Blue Berets"
    assert roster.force_item(new.id).text(0) == "UN Blue Berets"
    band_menu = _submenu(roster.context_menu(roster.force_item(new.id)), "Band Type")
    _action(band_menu, "Police").trigger()
    assert bf.force(new.id).band is BandType.POLICE
    _action(roster.context_menu(roster.force_item(new.id)), "Run by the Player").trigger()
    assert bf.force(new.id).player and not bf.force("player").player
    assert "player" in roster.force_item(new.id).text(1)
    # a figure moved into it by the figure row's menu, then the old player force deleted
    menu = roster.context_menu(roster.figure_item("p1"))
    _action(_submenu(menu, "Move to Force"), "UN Blue Berets").trigger()
    assert bf.figure("p1").side == new.id
    _action(roster.context_menu(roster.force_item("player")), "Delete Force").trigger()
    assert [f.id for f in bf.forces] == ["enemy", new.id]
    assert "p2" not in bf.figure_ids() and roster.figure_item("p2") is None
    assert window.scene.figure_item("p2") is None
    for _ in range(6):
        doc.undo_stack.undo()
    assert [f.id for f in bf.forces] == ["player", "enemy"]
    assert bf.force("player").player and bf.figure("p1").side == "player"
    assert window.scene.figure_item("p2") is not None
    for _ in range(6):
        doc.undo_stack.redo()
    assert [f.id for f in bf.forces] == ["enemy", new.id]


def test_force_colour_from_the_roster_menu(window, monkeypatch) -> None:
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QColorDialog

    monkeypatch.setattr(QColorDialog, "getColor", lambda *a, **k: QColor("#2f8f3a"))
    roster, doc = window.roster_dock, window.document
    _action(roster.context_menu(roster.force_item("enemy")), "Colour…").trigger()
    assert doc.battlefield.force("enemy").colour == "#2f8f3a"
    assert window.scene.figure_item("e1") is not None
    assert doc.undo_stack.undoText() == "Recolour Red Vipers"
    doc.undo_stack.undo()
    assert doc.battlefield.force("enemy").colour != "#2f8f3a"


def test_canvas_context_menu_adds_a_figure_here_and_moves_it(window) -> None:
    view, doc = window.view, window.document
    pos = at(view, 20.0, 20.0).toPoint()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    menu = window.editor.last_menu
    assert menu is not None and menu.isVisible()
    grunt = _submenu(_submenu(menu, "Add Figure Here"), "Red Vipers").actions()[0]
    grunt.trigger()
    new_id = doc.selection[0]
    figure = doc.battlefield.figure(new_id)
    assert figure.side == "enemy" and (figure.x, figure.y) == pytest.approx((20.0, 20.0), abs=0.05)
    assert window.scene.figure_item(new_id) is not None
    # right-click on it: Delete, Duplicate and Move to force are offered for it
    pos = at(view, figure.x, figure.y).toPoint()
    QApplication.sendEvent(
        view.viewport(),
        QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos)),
    )
    menu.close()
    menu = window.editor.last_menu
    assert {"Duplicate", "Delete"} <= {a.text().replace("&", "") for a in menu.actions()}
    _action(_submenu(menu, "Move to Force"), "Sgt. Mace's squad").trigger()
    menu.close()
    assert doc.battlefield.figure(new_id).side == "player"
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert new_id not in doc.battlefield.figure_ids()


def test_multi_selection_sets_rep_weapon_and_force_for_all(window, qtbot) -> None:
    doc, dock = window.document, window.properties_dock
    bf = doc.battlefield
    reps = [bf.figure(i).rep for i in ("p2", "p3", "e2")]
    doc.set_selection(["p2", "p3", "e2"])
    form = dock.multi_form
    assert form.isVisibleTo(dock)
    assert form.force_combo.currentText() == "—"  # mixed forces
    form.rep_combo.setFocus()
    index = form.rep_combo.findText("6")
    form.rep_combo.setCurrentIndex(index)
    form.rep_combo.activated.emit(index)
    assert [bf.figure(i).rep for i in ("p2", "p3", "e2")] == [6, 6, 6]
    assert doc.undo_stack.undoText() == "Change Rep of 3 Figures"
    assert form.rep_combo.currentText() == "6"
    i = form.force_combo.findText("Red Vipers")
    form.force_combo.activated.emit(i)
    assert {bf.figure(x).side for x in ("p2", "p3", "e2")} == {"enemy"}
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert bf.figure("p2").side == "player" and bf.figure("e2").side == "enemy"
    assert [bf.figure(i).rep for i in ("p2", "p3", "e2")] == reps


def _drive_settings(qtbot, edit) -> None:  # type: ignore[no-untyped-def]
    def step() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ScenarioSettingsDialog)
        edit(dialog)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, step)


def test_settings_dialog_round_trip_into_the_saved_file(window, qtbot, tmp_path) -> None:
    doc = window.document
    names = [i.name for i in interpretation_info()]

    def edit(dialog: ScenarioSettingsDialog) -> None:
        assert set(dialog.interpretation_rows) == set(names)  # every Interpretation
        row = dialog.interpretation_rows["cohesion_chain"]
        assert "(6.2)" in row.title() and "chain" in row.default_button.text()
        assert "Leader" in row.other_button.text()
        dialog.title_edit.setText("Night raid on Main Street")
        dialog.description_edit.setPlainText("Get in, get the case, get out.")
        dialog.encounter_combo.setCurrentIndex(dialog.encounter_combo.findData("defend"))
        dialog.band_combo.setCurrentIndex(dialog.band_combo.findData("militia"))
        dialog.pef_spin.setValue(5)
        dialog.night_check.setChecked(True)
        dialog.old_school_check.setChecked(True)
        qtbot.mouseClick(row.other_button, Qt.MouseButton.LeftButton)
        dialog.interpretation_rows["flank_half_angle"].spin.setValue(60)
        SHOTS.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(SHOTS / "settings-dialog.png"))
        dialog.tabs.setCurrentIndex(1)
        dialog.grab().save(str(SHOTS / "settings-dialog-interpretations.png"))

    doc.set_selection(["p1"])
    _drive_settings(qtbot, edit)
    window.action_settings.trigger()
    s = window.scenario
    from crdesk.model import WeaponCode
    from ui.docks.properties_dock import _weapon_label

    weapons = window.properties_dock.figure_form.weapon_combo
    texts = [weapons.itemText(i) for i in range(weapons.count())]
    assert _weapon_label(WeaponCode.BAP, True)[0] in texts  # the dock follows Old School
    assert s.title == "Night raid on Main Street"
    assert "Night raid on Main Street" in window.windowTitle()
    assert s.rules.night and s.rules.old_school
    assert s.encounter.type is EncounterType.DEFEND and s.encounter.enemy_band is BandType.MILITIA
    assert s.encounter.pef_count == 5
    assert not s.rules.interpretations.cohesion_chain
    assert s.rules.interpretations.flank_half_angle == 60
    assert doc.undo_stack.undoText() == "Scenario Settings"
    target = tmp_path / "set.crdesk"
    assert window.save_to(target)
    back = io.load(target)
    assert back.title == "Night raid on Main Street" and back.description.startswith("Get in")
    assert back.rules == s.rules and back.encounter == s.encounter
    doc.undo_stack.undo()
    assert window.scenario.title == "Main Street (urban demo)"
    assert window.scenario.rules.interpretations.cohesion_chain
    assert "Main Street (urban demo)" in window.windowTitle()


def _blocked(scenario):  # type: ignore[no-untyped-def]
    return [
        f.outline
        for f in scenario.battlefield.terrain
        if f.blocks_movement or isinstance(f, Building | CoverObstacle)
    ]


def test_undoing_and_redoing_every_edit_after_a_generated_table_gives_the_present(window) -> None:
    # monkey seed 850: the Generate command held the buildings the drags then moved in
    # place; once the table checks had copied the battlefield (edits then copy the feature
    # first) redoing every edit moved a building twice
    doc = window.document
    window.use_generated(generate(79692, width=36.0, height=36.0))
    building = next(f for f in doc.battlefield.terrain if isinstance(f, Building))
    c = building.outline.representative_point()
    drag(window.view, [(c.x, c.y), (c.x - 1.0, c.y - 2.0), (c.x - 2.0, c.y - 4.0)])
    doc.battlefield.copy()  # what the table checks and the sight overlay do off the GUI thread
    moved = doc.battlefield.feature(building.id).outline.representative_point()
    assert (moved.x, moved.y) != (c.x, c.y)
    drag(window.view, [(moved.x, moved.y), (moved.x + 1.5, moved.y), (moved.x + 3.0, moved.y)])
    present = io.dumps(window.scenario)
    stack = doc.undo_stack
    index = stack.index()
    assert index >= 3
    stack.setIndex(0)
    stack.setIndex(index)
    assert io.dumps(window.scenario) == present


def test_generate_redeploys_the_forces_legally_and_stores_the_encounter(window, tmp_path) -> None:
    doc = window.document
    before = {f.id: (f.x, f.y) for f in doc.battlefield.figures()}
    old_terrain = list(doc.battlefield.terrain)
    generated = generate(11, encounter="defend", terrain_type="urban")
    window.use_generated(generated)
    s = window.scenario
    assert s.encounter.type is EncounterType.DEFEND
    assert s.title == generated.title and s.description == generated.description
    table = s.battlefield.table
    shapes = _blocked(s)
    for figure in s.battlefield.figures():
        spot = Point(figure.x, figure.y).buffer(figure.radius)
        assert 0 <= figure.x <= table.width and 0 <= figure.y <= table.height
        assert not any(shape.intersects(spot) for shape in shapes), figure.name
        section = s.battlefield.section_at(figure.x, figure.y)
        assert section in ((7, 8, 9) if figure.side == "player" else (1, 2, 3)), figure.name
    figures = list(s.battlefield.figures())
    for i, a in enumerate(figures):  # no two bases overlap
        for b in figures[i + 1 :]:
            assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 >= (a.radius + b.radius) ** 2 - 1e-6
    dock = window.issues_dock
    assert dock.timer.isActive()  # the table checks run again on the new table
    dock.refresh()
    figure_ids = set(s.battlefield.figure_ids())
    assert [i for i in dock.issues if i.item_id in figure_ids] == []
    target = tmp_path / "gen.crdesk"
    assert window.save_to(target)
    back = io.load(target)
    assert back.encounter.type is EncounterType.DEFEND
    assert back.generation is not None and back.generation.inputs["encounter"] == "defend"
    doc.undo_stack.undo()
    assert {f.id: (f.x, f.y) for f in doc.battlefield.figures()} == before
    assert [f.id for f in doc.battlefield.terrain] == [f.id for f in old_terrain]
    assert window.scenario.encounter.type is EncounterType.RAID


def test_shape_keys_work_without_canvas_focus(window, qtbot) -> None:
    window.editor.set_tool("woods")
    window.roster_dock.tree.setFocus()
    qtbot.keyClick(window.roster_dock.tree, Qt.Key.Key_3)
    assert window.editor.tool.mode.value == "rectangle"
    qtbot.keyClick(window.roster_dock.tree, Qt.Key.Key_4)
    assert window.editor.tool.mode.value == "ellipse"
