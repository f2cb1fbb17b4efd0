"""Issue 15: history entries of property edits name what changed ("Change Rep of Sgt. Mace")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from crdesk.model import WeaponCode
from tests.ui.windows import demo_document, properties_dock
from ui.commands import ChangeValueCommand
from ui.docks import PropertiesDock
from ui.document import Document


@pytest.fixture
def doc(qapp: QApplication) -> Iterator[Document]:
    yield from demo_document()


@pytest.fixture
def props(qtbot, doc: Document) -> PropertiesDock:
    return properties_dock(qtbot, doc, 700)


def test_single_figure_edits_name_the_figure(qtbot, doc: Document, props: PropertiesDock) -> None:
    doc.set_selection(["p1"])
    form = props.figure_form
    qtbot.keyClick(form.rep_spin, Qt.Key.Key_Down)
    assert doc.undo_stack.undoText() == "Change Rep of Sgt. Mace"
    form.weapon_combo.setCurrentIndex(form.weapon_combo.findData(WeaponCode.SMG))
    assert doc.battlefield.figure("p1").weapon is WeaponCode.SMG
    assert doc.undo_stack.undoText() == "Change Weapon of Sgt. Mace"
    box = form.ammo_check  # on its tick box: the row is wider than the box and its words
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert doc.undo_stack.undoText() == "Change Out of Ammo of Sgt. Mace"
    history = [doc.undo_stack.text(i) for i in range(doc.undo_stack.count())]
    assert history == [
        "Change Rep of Sgt. Mace",
        "Change Weapon of Sgt. Mace",
        "Change Out of Ammo of Sgt. Mace",
    ]


def test_a_multi_selection_edit_counts_the_figures(doc: Document, props: PropertiesDock) -> None:
    doc.set_selection(["p2", "p3", "e2"])
    form = props.multi_form
    index = form.weapon_combo.findData(WeaponCode.SMG)
    form.weapon_combo.setCurrentIndex(index)
    form.weapon_combo.activated.emit(index)
    assert [doc.battlefield.figure(i).weapon for i in ("p2", "p3", "e2")] == [WeaponCode.SMG] * 3
    assert doc.undo_stack.undoText() == "Change Weapon of 3 Figures"


def test_renames_say_from_and_to_even_when_merged(doc: Document) -> None:
    stack = doc.undo_stack
    stack.push(ChangeValueCommand(doc, "p2", "name", "Sgt"))
    stack.push(ChangeValueCommand(doc, "p2", "name", "Sgt. Diaz"))  # merges: one step
    assert stack.count() == 1
    assert stack.undoText() == "Rename Cpl. Diaz to Sgt. Diaz"
    stack.push(ChangeValueCommand(doc, "woods-1", "name", "Old park"))
    assert stack.undoText() == "Rename Woods to Old park"
    building = next(f.id for f in doc.battlefield.terrain if f.kind.value == "building")
    stack.push(ChangeValueCommand(doc, building, "floors", 3))
    assert stack.undoText() == "Change Floors of Building"
    stack.push(ChangeValueCommand(doc, "p3", "rep", 2, text="Wounded"))  # a caller's own text
    assert stack.undoText() == "Wounded"
