"""New table and Generate table dialogs, and generating onto a document as one undo step."""

import random
from pathlib import Path

from PySide6.QtCore import Qt

from crdesk import scenario as io
from crdesk.resources import demo_scenario
from ui.commands import ReplaceTerrainCommand
from ui.dialogs.generate_dialog import GenerateDialog
from ui.dialogs.new_dialog import NewTableDialog
from ui.document import Document


def test_generate_dialog_previews_and_replaces_terrain_in_one_step(qtbot, tmp_path: Path) -> None:
    dialog = GenerateDialog(seed=42)
    qtbot.addWidget(dialog)
    dialog.type_box.setFocus()
    qtbot.keyClicks(dialog.type_box, "Urban")
    qtbot.waitUntil(lambda: not dialog._timer.isActive(), timeout=2000)
    generated = dialog.scenario()
    assert generated is not None and generated.title == "Urban table, seed 42"
    assert "9.3.1" in dialog.log.toPlainText()
    assert len(dialog.view.scene().items()) > len(generated.battlefield.terrain)
    dialog._rng = random.Random(7)
    qtbot.mouseClick(dialog.dice_button, Qt.MouseButton.LeftButton)
    assert dialog.seed_box.value() == random.Random(7).randint(0, 99_999)
    dialog.seed_box.setValue(42)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.grab().save(str(tmp_path / "generate.png"))

    doc = Document(io.load(Path(str(demo_scenario()))))
    before = io.dumps(doc.scenario)
    new = dialog.scenario()
    assert new is not None
    bf = new.battlefield
    doc.undo_stack.push(ReplaceTerrainCommand(doc, bf.table, bf.terrain, new.generation))
    assert [f.id for f in doc.battlefield.terrain] == [f.id for f in bf.terrain]
    assert doc.scenario.generation is new.generation
    assert {f.id for f in doc.battlefield.figures()} >= {"p1", "e1"}
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Generate Table"
    doc.undo_stack.undo()
    assert io.dumps(doc.scenario) == before


def test_new_table_dialog_presets_and_custom(qtbot) -> None:
    dialog = NewTableDialog()
    qtbot.addWidget(dialog)
    dialog.preset_box.setCurrentIndex(3)
    assert (dialog.width_box.value(), dialog.height_box.value()) == (72, 48)
    assert not dialog.width_box.isEnabled()
    dialog.preset_box.setCurrentIndex(dialog.preset_box.count() - 1)
    dialog.width_box.setValue(60)
    dialog.scale_box.setCurrentText("15mm")
    scenario = dialog.scenario()
    assert scenario.table.width == 60 and scenario.table.height == 48
    assert scenario.rules.building_area_size == 4.0
    assert [f.player for f in scenario.battlefield.forces] == [True, False]
