"""The editor's dialogs cannot take a number the core refuses later, and names go into
tooltips as text (issue 17: limits in the dialogs; item 17, tooltips).

Numbers are typed with the keyboard, as a user would, not set through the API.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractSpinBox, QToolTip

from crdesk import limits
from crdesk.model import BandType, Battlefield, Figure, Force, Scenario, Table
from crdesk.scenario import dumps, from_document
from tests.ui.sample import make_scenario
from ui.dialogs.export_dialog import ExportDialog
from ui.dialogs.generate_dialog import GenerateDialog
from ui.dialogs.new_dialog import NewTableDialog
from ui.dialogs.settings_dialog import ScenarioSettingsDialog
from ui.main_window import MainWindow
from ui.plain_text import plain_tooltip
from ui.scene.items import TableItem

ROOT = Path(__file__).resolve().parents[2]


def type_into(qtbot, box: QAbstractSpinBox, text: str) -> None:  # type: ignore[no-untyped-def]
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Tab)


def test_new_table_sizes_are_the_files_limits(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewTableDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.preset_box.setCurrentIndex(dialog.preset_box.count() - 1)  # Custom
    assert dialog.width_box.maximum() == limits.TABLE_MAX
    assert dialog.width_box.minimum() == limits.TABLE_MIN
    type_into(qtbot, dialog.width_box, "99999")
    type_into(qtbot, dialog.height_box, "2")
    scenario = dialog.scenario()
    assert scenario.table.width <= limits.TABLE_MAX
    assert scenario.table.height >= limits.TABLE_MIN
    assert (
        from_document(json.loads(dumps(scenario))).table.width == scenario.table.width
    )  # it loads again
    assert dialog.title_edit.maxLength() == limits.NAME_CHARS


def test_generate_takes_every_size_crdesk_generate_takes(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = GenerateDialog(width=36, height=36, seed=1)
    qtbot.addWidget(dialog)
    assert (dialog.width_box.minimum(), dialog.width_box.maximum()) == (
        limits.TABLE_MIN,
        limits.TABLE_MAX,
    )
    type_into(qtbot, dialog.width_box, "100000")
    assert dialog.width_box.value() <= limits.TABLE_MAX


@pytest.mark.parametrize("side", [36.0, 480.0])
def test_export_dpi_stops_at_the_largest_picture_crdesk_renders(qtbot, side: float) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog("t", Path("/tmp"), table=(side, side))
    qtbot.addWidget(dialog)
    dialog.show()
    frame = 2 * (TableItem.FRAME + 0.1)
    top = dialog.dpi_spin.maximum()
    assert dialog.dpi_spin.minimum() == limits.DPI_MIN
    assert top <= limits.DPI_MAX
    assert limits.render_problem(side + frame, side + frame, top) is None
    assert limits.render_problem(side + frame, side + frame, top + 1) is not None
    type_into(qtbot, dialog.dpi_spin, "5000")
    assert dialog.options()["dpi"] <= top
    assert str(top) in dialog.dpi_spin.toolTip()


def test_a_big_png_export_from_the_window_never_fails_on_its_size(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """The dialog's largest dpi is one the renderer accepts (checked before drawing)."""
    from ui import render

    scenario = Scenario(Battlefield(Table(200, 200), [], []), title="Big")
    window = MainWindow(scenario)
    qtbot.addWidget(window)
    dialog = ExportDialog("Big", tmp_path, table=(200, 200))
    qtbot.addWidget(dialog)
    checked: list[float] = []

    def no_drawing(battlefield, options):  # type: ignore[no-untyped-def]
        render.check_render_size(battlefield, options)
        checked.append(options.pixels_per_inch)
        raise OSError("stopped before drawing (test)")

    monkeypatch.setattr(render, "render_scene", no_drawing)
    window.export_to(tmp_path / "big.png", **dialog.options())
    assert checked == [dialog.dpi_spin.maximum()]


def test_title_and_names_cannot_be_typed_longer_than_a_file_holds(qtbot) -> None:  # type: ignore[no-untyped-def]
    scenario = make_scenario()
    dialog = ScenarioSettingsDialog(scenario)
    qtbot.addWidget(dialog)
    assert dialog.title_edit.maxLength() == limits.NAME_CHARS
    window = MainWindow(scenario)
    qtbot.addWidget(window)
    dock = window.properties_dock
    edits = [
        w
        for w in dock.findChildren(type(dialog.title_edit))
        if w.objectName() != "qt_spinbox_lineedit"
    ]
    names = [e for e in edits if e.placeholderText() == "Unnamed"]
    assert len(names) == 2 and all(e.maxLength() == limits.NAME_CHARS for e in names)


def test_render_dpi_is_checked_against_the_same_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from crdesk.cli import main

    demo = ROOT / "tests" / "data" / "hostile" / "01-rep-float.crdesk"
    for dpi in ("5000", "1", "nan"):
        status = main(["render", str(demo), "-o", str(tmp_path / "m.png"), "--dpi", dpi])
        err = capsys.readouterr().err
        assert status == 2, err
        expected = f"--dpi must be between {limits.DPI_MIN:g} and {limits.DPI_MAX:g}, got {dpi}"
        assert expected in err
        assert "Traceback" not in err
    assert not (tmp_path / "m.png").exists()


# -- tooltips built from names (issue 17, item 17) --------------------------------

NAMES = ("<b>x</b>", "Tom & Jerry", "<img src=x>")


def html_scenario() -> Scenario:
    forces = [
        Force(
            "vipers",
            "<b>Vipers</b> & co",
            BandType.GANGER,
            player=True,
            figures=[
                Figure("f1", rep=4, name="<b>x</b>", x=-3.0, y=5.0),  # off the table: an issue
                Figure("f2", rep=4, name="Tom & Jerry", x=10.0, y=5.0),
                Figure("f3", rep=4, name="<img src=x>", x=-4.0, y=9.0),
            ],
        )
    ]
    return Scenario(Battlefield(Table(36, 36), [], forces), title="Names")


def shown_as(tip: str) -> str:
    """What a tooltip shows: the text a QLabel lays out, as Qt's tooltip does."""
    doc = QTextDocument()
    if QtGuiQt.mightBeRichText(tip):
        doc.setHtml(tip)
    else:
        doc.setPlainText(tip)
    return doc.toPlainText()


def test_plain_tooltip_shows_markup_literally() -> None:
    for name in NAMES:
        assert shown_as(plain_tooltip(f"{name}\nRep 4")) == f"{name}\nRep 4"
        assert shown_as(name) != name or name == "Tom & Jerry"  # unescaped, Qt would render it


def test_roster_issues_and_marker_tooltips_show_names_as_typed(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(html_scenario())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    roster = window.roster_dock.tree
    force_row = roster.topLevelItem(0)
    tips = [shown_as(force_row.toolTip(0))]
    tips += [shown_as(force_row.child(i).toolTip(0)) for i in range(force_row.childCount())]
    assert tips[0].startswith("<b>Vipers</b> & co: Ganger band")
    for name in NAMES:
        assert any(t.startswith(f"{name}: ") for t in tips), (name, tips)
    window.issues_dock.refresh()
    issue_tips = [
        shown_as(window.issues_dock.list.item(i).toolTip())
        for i in range(window.issues_dock.list.count())
    ]
    assert any("<b>x</b> is off the table" in t for t in issue_tips), issue_tips
    assert any("<img src=x> is off the table" in t for t in issue_tips), issue_tips
    assert window.editor.markers is not None
    marker_tips = [shown_as(m.toolTip()) for m in window.editor.markers.markers]
    assert any("<b>x</b> is off the table" in t for t in marker_tips), marker_tips
    QToolTip.hideText()
