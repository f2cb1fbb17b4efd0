"""The properties dock edits the scenario's weapon cards and the figure's card (FD §2),
by real keys and clicks, one undo step each, and the file keeps them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from crdesk import scenario as io
from crdesk.model import WeaponCode
from crdesk.rules.firearms.tables import FireMode
from tests.ui.windows import demo_document, properties_dock
from ui.docks import PropertiesDock
from ui.document import Document

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def doc(qapp: QApplication) -> Iterator[Document]:
    yield from demo_document()


@pytest.fixture
def props(qtbot: QtBot, doc: Document) -> PropertiesDock:
    return properties_dock(qtbot, doc, 900)


def _add_glock(qtbot: QtBot, props: PropertiesDock) -> None:
    """Add a weapon, name it Glock 17, make it a Pistol with 17 rounds: by keys."""
    ed = props.weapon_cards
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ed.name_edit, "Glock 17")
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_Return)
    # AR is the first category: P is four down (AR, BAR, MP, P)
    for _ in range(3):
        qtbot.keyClick(ed.category_combo, Qt.Key.Key_Down)
    qtbot.keyClick(ed.magazine_spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ed.magazine_spin, "17")
    qtbot.keyClick(ed.magazine_spin, Qt.Key.Key_Return)


def test_a_weapon_is_added_named_and_tuned_one_undo_step_each(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    ed = props.weapon_cards
    assert ed.list.count() == 0 and not ed.fields.isVisible()
    _add_glock(qtbot, props)
    (card,) = doc.scenario.weapons
    assert (card.name, card.category, card.magazine) == ("Glock 17", "P", 17)
    assert card.modes == (FireMode.SEMI, FireMode.RB3, FireMode.FA)  # kept from the AR copy
    assert ed.list.item(0).text() == "Glock 17 — counts as P"
    # the AR's Full Auto cannot come from a Pistol? It can: the card says what it has
    qtbot.mouseClick(ed.mode_checks[FireMode.FA], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ed.mode_checks[FireMode.RB3], Qt.MouseButton.LeftButton)
    assert doc.scenario.weapons[0].modes == (FireMode.SEMI,)
    texts = [doc.undo_stack.text(i) for i in range(doc.undo_stack.count())]
    assert texts[0] == "Add Weapon New weapon"
    assert "Change Name of Glock 17" in texts
    for _ in texts:
        doc.undo_stack.undo()
    assert doc.scenario.weapons == ()
    assert ed.list.count() == 0


def test_an_edit_the_file_would_refuse_is_refused_with_the_loaders_words(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    ed = props.weapon_cards
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)  # an AR card: Semi/3RB/FA, 30
    steps = doc.undo_stack.count()
    qtbot.keyClick(ed.magazine_spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ed.magazine_spin, "5")
    qtbot.keyClick(ed.magazine_spin, Qt.Key.Key_Return)
    assert doc.scenario.weapons[0].magazine == 30
    assert doc.undo_stack.count() == steps
    assert ed.problem_label.isVisible()
    assert "Full Auto needs 10 rounds a firing, the magazine holds 5 (FD §3)" in (
        ed.problem_label.text()
    )
    assert ed.magazine_spin.value() == 30  # the field went back
    # a second weapon may not take the first one's name, whatever its case
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ed.name_edit, "NEW WEAPON")
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_Return)
    assert [c.name for c in doc.scenario.weapons] == ["New weapon", "New weapon 2"]
    assert "is already the name of weapons[0]" in ed.problem_label.text()


def test_a_figure_carries_a_card_and_follows_its_renames_and_removal(
    qtbot: QtBot, props: PropertiesDock, doc: Document, tmp_path: Path
) -> None:
    _add_glock(qtbot, props)
    doc.set_selection(["p4"])
    row = props.figure_form.card_row
    assert row.combo.currentText() == "Default card (AR)"
    assert "Assault Rifle (counts as AR)" in row.summary.text()
    steps = doc.undo_stack.count()
    qtbot.keyClick(row.combo, Qt.Key.Key_Down)  # Glock 17 (P)
    fig = doc.battlefield.figure("p4")
    assert (fig.weapon, fig.weapon_card) == (WeaponCode.P, "Glock 17")
    assert doc.undo_stack.count() == steps + 1  # weapon and card: one step
    assert props.figure_form.weapon_combo.currentText().startswith("P — Pistol")
    assert row.summary.text().startswith("Glock 17 (counts as P): Semi/3-round burst")

    # the file keeps both, and loads
    path = tmp_path / "cards.crdesk"
    doc.save(path)
    again = io.load(path)
    assert again.weapons == doc.scenario.weapons
    assert again.battlefield.figure("p4").weapon_card == "Glock 17"

    # renaming the card renames it on the figure
    ed = props.weapon_cards
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ed.name_edit, "Glock 19")
    qtbot.keyClick(ed.name_edit, Qt.Key.Key_Return)
    assert fig.weapon_card == "Glock 19"
    assert row.combo.currentText() == "Glock 19 (P)"
    # a new category moves the figure's weapon with it
    qtbot.keyClick(ed.category_combo, Qt.Key.Key_Down)  # P -> RL -> SAR
    qtbot.keyClick(ed.category_combo, Qt.Key.Key_Down)
    assert (fig.weapon, fig.weapon_card) == (WeaponCode.SAR, "Glock 19")
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert (fig.weapon, fig.weapon_card) == (WeaponCode.P, "Glock 19")

    # another category on the figure drops a card that no longer fits
    qtbot.keyClick(props.figure_form.weapon_combo, Qt.Key.Key_Up)  # P -> MP
    assert (fig.weapon, fig.weapon_card) == (WeaponCode.MP, "")
    doc.undo_stack.undo()
    assert (fig.weapon, fig.weapon_card) == (WeaponCode.P, "Glock 19")

    # removing the card leaves the figure its category's default card
    qtbot.mouseClick(ed.remove_button, Qt.MouseButton.LeftButton)
    assert doc.scenario.weapons == () and fig.weapon_card == ""
    assert row.combo.currentText() == "Default card (P)"
    doc.undo_stack.undo()
    assert fig.weapon_card == "Glock 19"


def test_screenshot_of_the_card_editor(qtbot: QtBot, props: PropertiesDock, doc: Document) -> None:
    _add_glock(qtbot, props)
    ed = props.weapon_cards
    qtbot.mouseClick(ed.mode_checks[FireMode.FA], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(ed.mode_checks[FireMode.RB3], Qt.MouseButton.LeftButton)
    doc.set_selection(["p4"])
    qtbot.keyClick(props.figure_form.card_row.combo, Qt.Key.Key_Down)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert props.grab().save(str(SHOTS / "weapon-cards-dock.png"))


def test_a_new_weapon_for_several_figures_drops_cards_that_no_longer_fit(
    qtbot: QtBot, props: PropertiesDock, doc: Document
) -> None:
    _add_glock(qtbot, props)
    doc.set_selection(["p4"])
    qtbot.keyClick(props.figure_form.card_row.combo, Qt.Key.Key_Down)  # Glock 17 (P)
    steps = doc.undo_stack.count()
    bf = doc.battlefield
    assert bf.figure("p5").weapon is WeaponCode.SMG
    doc.set_selection(["p4", "p5"])  # a Pistol with the Glock and an SMG
    combo = props.multi_form.weapon_combo
    assert combo.currentIndex() == 0 and combo.currentData() is None  # mixed
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # AR, the first weapon
    assert (bf.figure("p4").weapon, bf.figure("p4").weapon_card) == (WeaponCode.AR, "")
    assert bf.figure("p5").weapon is WeaponCode.AR
    assert doc.undo_stack.count() == steps + 1
    assert doc.undo_stack.undoText() == "Change Weapon of 2 Figures"
    doc.undo_stack.undo()
    assert (bf.figure("p4").weapon, bf.figure("p4").weapon_card) == (WeaponCode.P, "Glock 17")
