"""The docks edit the model through undo commands, driven by real keys, clicks and drops."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QByteArray, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from crdesk import scenario as io
from crdesk.model import (
    REP_MAX,
    REP_MIN,
    BandType,
    CoverType,
    MeleeWeapon,
    Role,
    Status,
    WeaponCode,
)
from crdesk.resources import demo_scenario
from ui.commands import ChangeValueCommand, RemoveItemsCommand
from ui.docks import (
    FIGURE_MIME,
    HistoryDock,
    IssuesDock,
    PropertiesDock,
    RosterDock,
    figure_from_mime,
    figure_mime,
    install_drop_target,
)
from ui.docks.properties_dock import FigureForm
from ui.docks.roster_dock import BAND_WEAPONS, template_mime
from ui.document import Document
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView

SHOTS = Path("/tmp/crdesk-shots")


def _shot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    QApplication.processEvents()  # the layout settles as it would before the user sees it
    assert widget.grab().save(str(SHOTS / f"dock-{name}.png"))


@pytest.fixture
def doc(qapp: QApplication) -> Iterator[Document]:
    document = Document(io.load(str(demo_scenario())))
    yield document
    document.close()


def _show(qtbot: QtBot, widget: QWidget, width: int = 300, height: int = 440) -> None:
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)


@pytest.fixture
def props(qtbot: QtBot, doc: Document) -> PropertiesDock:
    dock = PropertiesDock(doc)
    _show(qtbot, dock)
    return dock


def _select(doc: Document, item_id: str) -> None:
    doc.set_selection([item_id])


# -- properties ---------------------------------------------------------------


def test_typing_a_name_and_enter_renames_and_undo_restores(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "p2")
    edit = props.figure_form.name_edit
    assert props.stack.currentWidget() is props.figure_form
    assert edit.text() == "Cpl. Diaz"
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, "Sgt. Diaz")
    assert doc.battlefield.figure("p2").name == "Cpl. Diaz"  # nothing until Enter
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert doc.battlefield.figure("p2").name == "Sgt. Diaz"
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Rename Cpl. Diaz to Sgt. Diaz"
    assert "Sgt. Diaz" in props.heading.text()
    doc.undo_stack.undo()
    assert doc.battlefield.figure("p2").name == "Cpl. Diaz"
    assert edit.text() == "Cpl. Diaz"
    assert doc.undo_stack.canRedo()  # the refresh pushed nothing


def test_rep_edits_in_a_row_merge_into_one_undo_step(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "p5")
    spin = props.figure_form.rep_spin
    assert (spin.minimum(), spin.maximum()) == (REP_MIN, REP_MAX)
    assert spin.value() == 3
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert doc.battlefield.figure("p5").rep == 4
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert doc.battlefield.figure("p5").rep == 5
    qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(spin, "6")
    assert doc.battlefield.figure("p5").rep == 6
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Change Rep of Pvt. Kowalski"
    doc.undo_stack.undo()
    assert doc.battlefield.figure("p5").rep == 3
    assert spin.value() == 3
    assert doc.undo_stack.count() == 1 and doc.undo_stack.canRedo()


def test_combos_change_weapon_melee_status_and_role_by_keyboard(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "p4")
    form = props.figure_form
    fig = doc.battlefield.figure("p4")
    assert fig.weapon is WeaponCode.AR
    assert form.weapon_combo.currentText().startswith("AR — Assault Rifle")
    qtbot.keyClick(form.weapon_combo, Qt.Key.Key_Down)
    assert fig.weapon is WeaponCode.BAR
    qtbot.keyClick(form.melee_combo, Qt.Key.Key_Down)
    assert fig.melee is MeleeWeapon.ONE_HAND
    qtbot.keyClick(form.status_combo, Qt.Key.Key_End)
    assert fig.status is Status.OBVIOUSLY_DEAD
    qtbot.keyClick(form.role_combo, Qt.Key.Key_Home)
    assert fig.role is Role.STAR
    assert "Star" in props.heading.text()
    assert doc.undo_stack.count() == 4
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert (fig.weapon, fig.melee, fig.status, fig.role) == (
        WeaponCode.AR,
        MeleeWeapon.NONE,
        Status.CARRY_ON,
        Role.GRUNT,
    )
    assert form.status_combo.currentData() == Status.CARRY_ON


def test_facing_wraps_and_checkboxes_toggle_by_mouse(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "p2")  # facing 350
    form = props.figure_form
    fig = doc.battlefield.figure("p2")
    for _ in range(3):
        qtbot.keyClick(form.facing_spin, Qt.Key.Key_Up)
    assert 0.0 <= fig.facing < 10.0  # 350 + 15 wrapped round past north
    assert doc.undo_stack.count() == 1  # one merged step
    for check in (form.prone_check, form.ammo_check):  # click on the box itself
        box = QPoint(8, check.height() // 2)
        qtbot.mouseClick(check, Qt.MouseButton.LeftButton, pos=box)
    assert fig.prone and fig.out_of_ammo
    assert doc.undo_stack.count() == 3
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert (fig.facing, fig.prone, fig.out_of_ammo) == (350.0, False, False)
    assert not form.prone_check.isChecked() and form.facing_spin.value() == 350.0


def test_building_floors_and_cover_type(qtbot: QtBot, props: PropertiesDock, doc: Document) -> None:
    _select(doc, "building-1")
    form = props.feature_form
    assert props.stack.currentWidget() is form
    assert form.kind_label.text() == "Building"
    assert form.areas_label.text() == "2 areas"
    assert form.form.isRowVisible(form.floors_spin)
    assert not form.form.isRowVisible(form.cover_combo)
    qtbot.keyClick(form.floors_spin, Qt.Key.Key_Up)
    assert doc.battlefield.feature("building-1").floors == 3  # type: ignore[attr-defined]
    _shot(props, "properties-feature")
    _select(doc, "cover-1")
    assert form.form.isRowVisible(form.cover_combo)
    assert not form.form.isRowVisible(form.floors_spin)
    qtbot.keyClick(form.cover_combo, Qt.Key.Key_Down)
    assert doc.battlefield.feature("cover-1").cover_type is CoverType.RUBBLE  # type: ignore[attr-defined]
    qtbot.keyClick(form.name_edit, Qt.Key.Key_End)
    qtbot.keyClicks(form.name_edit, " (north)")
    qtbot.keyClick(form.name_edit, Qt.Key.Key_Enter)
    assert doc.battlefield.feature("cover-1").name == "Garden wall (north)"
    assert doc.undo_stack.count() == 3
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.battlefield.feature("building-1").floors == 2  # type: ignore[attr-defined]
    assert doc.battlefield.feature("cover-1").cover_type is CoverType.WALL  # type: ignore[attr-defined]


def test_model_changes_refresh_the_form_without_pushing(
    props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "e1")
    doc.undo_stack.push(ChangeValueCommand(doc, "e1", "rep", 3))
    doc.battlefield.move_figure("e1", 30.0, 30.0, facing=90)
    form = props.figure_form
    assert form.rep_spin.value() == 3
    assert form.facing_spin.value() == 90.0
    assert "section 9" in form.position_label.text()
    assert doc.undo_stack.count() == 1


def test_summary_for_none_or_several_and_tooltips_cite_rules(
    props: PropertiesDock, doc: Document
) -> None:
    assert props.current_id() is None
    assert "Nothing selected" in props.summary_label.text()
    doc.set_selection(["woods-1", "p1", "e1"])
    assert props.current_id() is None
    assert "3 items selected" in props.summary_label.text()
    assert "1 feature and 2 figures" in props.summary_label.text()
    _select(doc, "p1")
    assert props.current_id() == "p1"
    form: FigureForm = props.figure_form
    assert "Reputation, 5" in form.rep_spin.toolTip()
    fields = [
        form.name_edit,
        form.role_combo,
        form.rep_spin,
        form.weapon_combo,
        form.melee_combo,
        form.status_combo,
        form.facing_spin,
        form.prone_check,
        form.ammo_check,
        form.force_combo,
        form.position_label,
    ]
    assert all(w.toolTip() for w in fields)
    assert form.force_combo.currentText() == "Sgt. Mace's squad"
    assert "Military, player" in form.force_label.text()
    _shot(props, "properties")
    doc.undo_stack.push(ChangeValueCommand(doc, "p1", "x", 1.0))
    doc.undo_stack.push(RemoveItemsCommand(doc, ["p1"]))
    assert props.current_id() is None  # the edited figure went away


# -- roster and drag and drop ----------------------------------------------------


@pytest.fixture
def roster(qtbot: QtBot, doc: Document) -> RosterDock:
    dock = RosterDock(doc)
    _show(qtbot, dock, 300, 520)
    return dock


def test_roster_lists_forces_figures_and_band_templates(roster: RosterDock) -> None:
    player = roster.force_item("player")
    enemy = roster.force_item("enemy")
    assert player is not None and enemy is not None
    assert player.text(0) == "Sgt. Mace's squad" and "player" in player.text(1)
    assert roster.figure_item("p1") is not None and roster.figure_item("e4") is not None
    templates = roster.template_items("enemy")
    assert [t.text(0) for t in templates] == ["New Star", "New Grunt", "New Grunt", "New Grunt"]
    assert [t.text(1) for t in templates] == ["Rep 5 · P", "Rep 3 · P", "Rep 4 · P", "Rep 5 · P"]
    assert roster.template_items("player")[1].text(1) == "Rep 3 · AR"
    assert BAND_WEAPONS[BandType.POLICE] is WeaponCode.P
    assert all(t.flags() & Qt.ItemFlag.ItemIsDragEnabled for t in templates)
    assert not roster.figure_item("p1").flags() & Qt.ItemFlag.ItemIsDragEnabled  # type: ignore[union-attr]
    mime = roster.tree.mimeData([templates[2]])
    data = json.loads(bytes(mime.data(FIGURE_MIME).data()))
    assert data == {
        "force": "enemy",
        "template": {
            "name": "Grunt",
            "role": "grunt",
            "rep": 4,
            "weapon": "P",
            "melee": "none",
            "base": 1.0,
        },
    }
    _shot(roster, "roster")


def test_clicking_a_figure_selects_it_and_selection_comes_back(
    qtbot: QtBot, roster: RosterDock, doc: Document
) -> None:
    item = roster.figure_item("p3")
    assert item is not None
    rect = roster.tree.visualItemRect(item)
    qtbot.mouseClick(roster.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.selection == ["p3"]
    template = roster.template_items("player")[0]
    rect = roster.tree.visualItemRect(template)
    qtbot.mouseClick(roster.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.selection == ["p3"]  # picking a template leaves the table's selection
    doc.set_selection(["e2"])
    assert [i.text(0) for i in roster.tree.selectedItems()] == ["Knuckles"]
    doc.undo_stack.push(ChangeValueCommand(doc, "e2", "rep", 5))
    assert roster.figure_item("e2").text(1) == "Rep 5 · SG"  # type: ignore[union-attr]


def _drag_events(
    view: BattlefieldView, pos: QPoint, mime: QMimeData
) -> tuple[QDragEnterEvent, QDragMoveEvent, QDropEvent]:
    action = Qt.DropAction.CopyAction
    button, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    return (
        QDragEnterEvent(pos, action, mime, button, mods),
        QDragMoveEvent(pos, action, mime, button, mods),
        QDropEvent(QPointF(pos), action, mime, button, mods),
    )


@pytest.fixture
def view(qtbot: QtBot, doc: Document) -> Iterator[BattlefieldView]:
    scene = BattlefieldScene(doc.battlefield)
    view = BattlefieldView(scene)
    _show(qtbot, view, 600, 600)
    yield view
    scene.detach()


def test_dropping_a_template_adds_a_figure_at_the_drop_point(
    roster: RosterDock, view: BattlefieldView, doc: Document
) -> None:
    target = install_drop_target(view, doc)
    mime = template_mime(roster.template_items("enemy")[2])  # Grunt, Rep 4, pistol
    assert mime is not None
    pos = view.mapFromScene(QPointF(10.0, 20.0))
    expected = view.mapToScene(pos)
    enter, move, drop = _drag_events(view, pos, mime)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()
    QApplication.sendEvent(view.viewport(), move)
    assert move.isAccepted() and target.has_ghost()
    before = {f.id for f in doc.battlefield.figures()}
    QApplication.sendEvent(view.viewport(), drop)
    assert drop.isAccepted() and not target.has_ghost()
    (new_id,) = {f.id for f in doc.battlefield.figures()} - before
    fig = doc.battlefield.figure(new_id)
    assert fig.side == "enemy" and fig in doc.battlefield.force("enemy").figures
    assert (fig.x, fig.y) == (expected.x(), expected.y())
    assert abs(fig.x - 10.0) < 1 / view.pixels_per_inch() + 1e-9
    assert abs(fig.y - 20.0) < 1 / view.pixels_per_inch() + 1e-9
    assert (fig.name, fig.rep, fig.role, fig.weapon, fig.facing) == (
        "Grunt",
        4,
        Role.GRUNT,
        WeaponCode.P,
        180.0,
    )
    scene = view.battlefield_scene()
    assert scene is not None and scene.figure_item(new_id) is not None
    assert doc.selection == [new_id]
    assert roster.figure_item(new_id) is not None
    assert doc.undo_stack.undoText() == "Add Grunt"
    doc.undo_stack.undo()
    assert new_id not in {f.id for f in doc.battlefield.figures()}
    assert scene.figure_item(new_id) is None
    assert roster.figure_item(new_id) is None


def test_drags_of_other_data_are_refused_and_leave_no_ghost(
    view: BattlefieldView, doc: Document
) -> None:
    target = install_drop_target(view, doc)
    pos = view.mapFromScene(QPointF(18.0, 18.0))
    text = QMimeData()
    text.setText("hello")
    enter, _move, _drop = _drag_events(view, pos, text)
    enter.ignore()
    QApplication.sendEvent(view.viewport(), enter)
    assert not target.has_ghost()
    foreign = figure_mime("someone-elses-force", {"rep": 4})
    _enter, move, _drop = _drag_events(view, pos, foreign)
    QApplication.sendEvent(view.viewport(), move)
    assert not target.has_ghost()
    ok = figure_mime("player", {"role": "star", "rep": 5})
    enter, move, _drop = _drag_events(view, pos, ok)
    QApplication.sendEvent(view.viewport(), enter)
    assert target.has_ghost()
    QApplication.sendEvent(view.viewport(), QDragLeaveEvent())
    assert not target.has_ghost()
    assert doc.undo_stack.count() == 0


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"[1, 2]",
        b'{"force": "player"}',
        b'{"force": "player", "template": {"rep": 21}}',
        b'{"force": "player", "template": {"rep": true}}',
        b'{"force": "player", "template": {"weapon": "laser"}}',
        b'{"force": "player", "template": {"base": -1}}',
        b'{"force": "nobody", "template": {}}',
    ],
)
def test_figure_from_mime_refuses_bad_data(doc: Document, payload: bytes) -> None:
    mime = QMimeData()
    mime.setData(FIGURE_MIME, QByteArray(payload))
    assert figure_from_mime(mime, doc.battlefield, 1, 1) is None


def test_figure_from_mime_gives_fresh_ids_and_unique_names(doc: Document) -> None:
    bf = doc.battlefield
    force_id, star = figure_from_mime(figure_mime("player", {"role": "star"}), bf, 5, 34) or (
        "",
        None,
    )
    assert force_id == "player" and star is not None
    assert star.name == "Star" and star.role is Role.STAR and star.facing == 0.0
    assert star.weapon is WeaponCode.AR  # the band's default
    bf.add_figure(force_id, star)
    again = figure_from_mime(figure_mime("player", {"role": "star"}), bf, 6, 34)
    assert again is not None
    assert again[1].name == "Star 2" and again[1].id != star.id


# -- issues and history -----------------------------------------------------------


def test_issues_dock_follows_changes_and_double_click_selects(qtbot: QtBot, doc: Document) -> None:
    dock = IssuesDock(doc)
    _show(qtbot, dock, 360, 180)
    assert dock.windowTitle() == "Issues" and dock.issues == []
    assert dock.pages.currentWidget() is dock.all_clear
    doc.undo_stack.push(ChangeValueCommand(doc, "p4", "x", 40.0))
    rock = doc.battlefield.feature("impassable-1").outline.representative_point()
    doc.battlefield.move_figure("e3", rock.x, rock.y)
    assert dock.timer.isActive() and dock.list.count() == 0  # debounced
    qtbot.waitUntil(lambda: dock.windowTitle() == "Issues (2)", timeout=2000)
    assert [i.item_id for i in dock.issues] == ["e3", "p4"]  # errors first
    assert "off the table" in dock.list.item(1).text()
    assert dock.pages.currentWidget() is dock.list
    _shot(dock, "issues")
    rect = dock.list.visualItemRect(dock.list.item(1))
    with qtbot.waitSignal(dock.issue_activated, timeout=1000) as blocker:
        # A real double-click is press, release, double-click: the view wants the press.
        qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == ["p4"]
    assert doc.selection == ["p4"]
    doc.undo_stack.undo()
    dock.refresh()
    assert dock.windowTitle() == "Issues (1)"


def test_history_dock_shows_the_stack_and_clicking_undoes(qtbot: QtBot, doc: Document) -> None:
    dock = HistoryDock(doc)
    _show(qtbot, dock, 300, 200)
    assert dock.view.stack() is doc.undo_stack
    doc.undo_stack.push(ChangeValueCommand(doc, "p1", "rep", 4))
    doc.undo_stack.push(ChangeValueCommand(doc, "woods-1", "name", "Old park"))
    doc.undo_stack.setClean()
    doc.undo_stack.push(ChangeValueCommand(doc, "p2", "prone", True))
    model = dock.view.model()
    assert model.rowCount() == 4
    assert model.index(0, 0).data() == "<Opened table>"
    assert model.index(1, 0).data() == "Change Rep of Sgt. Mace"
    _shot(dock, "history")
    rect = dock.view.visualRect(model.index(1, 0))
    qtbot.mouseClick(dock.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.undo_stack.index() == 1
    assert doc.battlefield.feature("woods-1").name == "Town park"
    assert doc.battlefield.figure("p1").rep == 4


def test_docks_switch_documents(qtbot: QtBot, doc: Document) -> None:
    other = Document(io.load(str(demo_scenario())))
    docks: list[PropertiesDock | RosterDock | IssuesDock | HistoryDock] = [
        PropertiesDock(doc),
        RosterDock(doc),
        IssuesDock(doc),
        HistoryDock(doc),
    ]
    for dock in docks:
        qtbot.addWidget(dock)
        dock.set_document(other)
        assert dock.document is other
    doc.set_selection(["p1"])
    props = docks[0]
    assert isinstance(props, PropertiesDock)
    assert props.current_id() is None  # no longer follows the first document
    other.set_selection(["p1"])
    assert props.current_id() == "p1"
    for dock in docks:
        dock.set_document(None)
    other.close()


def test_a_typed_name_is_kept_when_the_selection_moves_on(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _select(doc, "e4")
    edit = props.figure_form.name_edit
    qtbot.keyClick(edit, Qt.Key.Key_End)
    qtbot.keyClicks(edit, " the Quick")
    _select(doc, "woods-1")  # no Enter, no focus change: e.g. Tab-selecting on the table
    assert doc.battlefield.figure("e4").name == "Shiv the Quick"
    assert props.feature_form.name_edit.text() == "Town park"
    assert doc.undo_stack.count() == 1


def test_switching_away_from_a_deleted_document_is_harmless(qtbot: QtBot, doc: Document) -> None:
    gone = Document(io.load(str(demo_scenario())))
    docks = [PropertiesDock(gone), RosterDock(gone), IssuesDock(gone)]
    for dock in docks:
        qtbot.addWidget(dock)
    gone.close()
    gone.deleteLater()
    qtbot.waitUntil(lambda: not _alive(gone), timeout=1000)
    for dock in docks:
        dock.set_document(doc)
        assert dock.document is doc


def _alive(obj: Document) -> bool:
    return bool(shiboken6.isValid(obj))


def test_properties_move_a_figure_to_the_other_force(qtbot, doc) -> None:  # type: ignore[no-untyped-def]
    from ui.docks.properties_dock import PropertiesDock

    props = PropertiesDock(doc)
    qtbot.addWidget(props)
    props.show()
    doc.set_selection(["p4"])
    form = props.figure_form
    combo = form.force_combo
    assert combo.currentData() == "player"
    combo.setFocus()
    combo.activated.emit(combo.findData("enemy"))
    assert doc.battlefield.figure("p4").side == "enemy"
    assert [f.id for f in doc.battlefield.force("enemy").figures][-1] == "p4"
    assert combo.currentData() == "enemy"
    doc.undo_stack.undo()
    assert doc.battlefield.figure("p4").side == "player"
    assert [f.id for f in doc.battlefield.force("player").figures].index("p4") == 3


def test_the_weapon_card_summary_never_overlaps_the_melee_row(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    """The card's wrapped summary takes the height it needs in a narrow dock (it was
    drawn over the Melee row below it)."""
    _select(doc, "p1")
    form = props.figure_form
    qtbot.wait(20)
    summary = form.card_row.summary
    assert summary.text()
    bottom = summary.mapTo(form, summary.rect().bottomLeft()).y()
    top = form.melee_combo.mapTo(form, form.melee_combo.rect().topLeft()).y()
    assert bottom < top, (bottom, top)
    assert summary.height() >= summary.heightForWidth(summary.width())
