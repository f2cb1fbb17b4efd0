"""File ▸ Export… of a PDF: the dialog counts the 1:1 pages as the paper changes, refuses
past :data:`crdesk.limits.PRINT_PAGES`, and the export runs under the progress dialog,
whose Cancel leaves no file (issue 33, item 10).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from crdesk import limits, printing
from crdesk.model import Battlefield, Scenario, Table
from tests.ui.sample import make_scenario
from ui import export
from ui.background_checks import checks_of
from ui.dialogs.export_dialog import ExportDialog
from ui.main_window import MainWindow
from ui.progress import ProgressDialog

SHOTS = Path("/tmp/crdesk-shots")


def _choose(qtbot: Any, dialog: ExportDialog, suffix: str, paper: str = "a4") -> None:
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData(suffix))
    dialog.paper_combo.setCurrentIndex(dialog.paper_combo.findData(paper))


def _ok(dialog: ExportDialog) -> Any:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def _settled(qtbot: Any, window: MainWindow) -> None:
    """Wait for the window's table checks, which run in a thread of their own: a window
    closed under them leaves a thread that may be destroyed while it runs (an abort)."""
    checks = checks_of(window.document)
    checks.request()  # started by the window, or now: either way wait for its end
    qtbot.waitUntil(lambda: checks.result_for(window.document.battlefield.revision) is not None)


def test_the_dialog_counts_the_pages_as_the_paper_changes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog("Big game", tmp_path, table=(72, 48))
    qtbot.addWidget(dialog)
    dialog.show()
    _choose(qtbot, dialog, ".pdf", "a4")
    a4 = printing.plan_print(72, 48, "a4").pages
    assert dialog.pages_label.isVisible() and dialog.pages_label.isEnabled()
    assert dialog.pages_label.text().startswith(f"{a4} A4 pages at 1:1")
    SHOTS.mkdir(exist_ok=True)
    dialog.grab().save(str(SHOTS / "export-pages.png"))
    _choose(qtbot, dialog, ".pdf", "letter")
    letter = printing.plan_print(72, 48, "letter").pages
    assert letter != a4
    assert dialog.pages_label.text().startswith(f"{letter} LETTER pages at 1:1")
    assert _ok(dialog).isEnabled()
    _choose(qtbot, dialog, ".png")
    assert not dialog.pages_label.isEnabled()  # shown greyed, like the paper


def test_the_dialog_refuses_a_print_past_the_bound(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog("Huge", tmp_path, table=(480, 480))
    qtbot.addWidget(dialog)
    dialog.show()
    _choose(qtbot, dialog, ".pdf")
    problem = limits.print_problem(480, 480, 3_217, "a4")
    assert problem is not None
    assert dialog.pages_label.text() == f"Too many to print: {problem}."
    assert not _ok(dialog).isEnabled()
    dialog.grab().save(str(SHOTS / "export-pages-refused.png"))
    _choose(qtbot, dialog, ".svg")  # a picture of the whole table is fine
    assert _ok(dialog).isEnabled()


def test_the_window_refuses_a_print_past_the_bound_with_the_same_words(
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    _no_modal_dialogs: list[tuple[str, str]],
) -> None:
    window = MainWindow(Scenario(Battlefield(Table(150, 150), [], []), title="Huge"))
    qtbot.addWidget(window)
    _settled(qtbot, window)
    out = tmp_path / "huge.pdf"
    seen: list[ExportDialog] = []

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ExportDialog)
        seen.append(dialog)
        _choose(qtbot, dialog, ".pdf", "letter")
        dialog.path_edit.setText(str(out))
        assert not _ok(dialog).isEnabled()
        assert "is 337 LETTER pages" in dialog.pages_label.text()
        dialog.reject()

    QTimer.singleShot(0, step)
    window.action_export.trigger()
    assert seen
    # the window's own check, for a caller that did not come through the dialog
    assert not window.export_to(out, paper="letter")
    problem = printing.print_problem(150, 150, "letter")
    assert problem is not None
    assert _no_modal_dialogs[-1] == ("Could not export the map", f"A{problem[1:]}.")
    assert list(tmp_path.iterdir()) == []


def test_the_export_shows_its_pages_and_cancel_leaves_no_file(
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    _settled(qtbot, window)
    out = tmp_path / "map.pdf"
    out.write_bytes(b"the map printed last week")
    drawn: list[str] = []
    tile_page = export._tile_page

    def slow_page(painter, scene, tile, tiles, overlap):  # type: ignore[no-untyped-def]
        drawn.append(tile.label)
        time.sleep(0.04)  # a page of a big table, in the worker thread
        tile_page(painter, scene, tile, tiles, overlap)

    monkeypatch.setattr(export, "_tile_page", slow_page)
    labels: list[str] = []
    ticks: list[int] = []

    def watch() -> None:
        ticks.append(len(drawn))
        for dialog in window.findChildren(ProgressDialog):
            if dialog.isVisible() and not dialog.cancel_requested:
                labels.append(dialog.label.text())
                if "page" in dialog.label.text():
                    dialog.grab().save(str(SHOTS / "export-progress-pages.png"))
                    button = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
                    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    watcher = QTimer()
    watcher.setInterval(20)
    watcher.timeout.connect(watch)

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ExportDialog)
        _choose(qtbot, dialog, ".pdf")
        dialog.path_edit.setText(str(out))
        watcher.start()
        _ok(dialog).click()

    QTimer.singleShot(0, step)
    try:
        window.action_export.trigger()
    finally:
        watcher.stop()
    table = window.scenario.battlefield.table
    pages = printing.plan_print(table.width, table.height, "a4").pages
    assert any(label.endswith(f" of {pages}…") and ": page " in label for label in labels), labels
    assert 0 < len(drawn) < pages - 1, "stopped at the page after Cancel"
    assert out.read_bytes() == b"the map printed last week"
    assert [p.name for p in tmp_path.iterdir()] == ["map.pdf"], "no temp file left"
    assert "cancelled" in window.statusBar().currentMessage()
    assert len(set(ticks)) > 1, "the window's timers ran while pages were drawn"


def test_an_export_that_ends_writes_the_file_whole(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(Scenario(Battlefield(Table(12, 10), [], []), title="Small"))
    qtbot.addWidget(window)
    _settled(qtbot, window)
    out = tmp_path / "small.pdf"
    assert window.export_to(out, paper="a4")
    assert out.read_bytes().startswith(b"%PDF")
    pages = printing.plan_print(12, 10, "a4").pages
    assert f"{pages} pages on A4" in window.statusBar().currentMessage()
    assert [p.name for p in tmp_path.iterdir()] == ["small.pdf"]
