"""Slow work shows progress and the window keeps painting; a failed or cancelled job
leaves the document as it was (issue 17, Deliver 3).

The slow jobs are fakes injected through the window's parameters (``exporter``,
``loader``), so each test takes about a second.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox

from crdesk.errors import ScenarioError
from crdesk.model import Scenario
from tests.ui.sample import make_scenario
from ui.dialogs.new_dialog import empty_scenario
from ui.main_window import MainWindow
from ui.progress import Cancelled, Progress, ProgressDialog, run_job

SHOTS = Path("/tmp/crdesk-shots")


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, _obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    return window


class Watch:
    """While a job runs: asks the view to repaint every 30 ms, counts the paints, and
    records the progress dialog when it is up (all on the GUI thread)."""

    def __init__(self, window: MainWindow, on_dialog: Any = None) -> None:
        self.window = window
        self.counter = PaintCounter()
        window.view.viewport().installEventFilter(self.counter)
        self.dialogs: list[ProgressDialog] = []
        self.labels: list[str] = []
        self.values: list[tuple[int, int]] = []
        self.on_dialog = on_dialog
        self.timer = QTimer()
        self.timer.setInterval(30)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        self.paints_with_dialog = 0

    def tick(self) -> None:
        self.window.view.viewport().update()
        shown = [d for d in self.window.findChildren(ProgressDialog) if d.isVisible()]
        for dialog in shown:
            if dialog not in self.dialogs:
                self.dialogs.append(dialog)
                if self.on_dialog is not None:
                    self.on_dialog(dialog)
            self.labels.append(dialog.label.text())
            self.values.append((dialog.bar.value(), dialog.bar.maximum()))
            self.paints_with_dialog = self.counter.paints

    def stop(self) -> None:
        self.timer.stop()
        self.window.view.viewport().removeEventFilter(self.counter)


def slow_exporter(seconds: float = 0.9, pages: int = 12) -> Any:
    def export(scenario: Scenario, path: Path, progress: Any = None, **_options: Any) -> str:
        Path(path).write_text("partial")
        for page in range(1, pages + 1):
            time.sleep(seconds / pages)
            if progress is not None:
                progress(page, pages)
        Path(path).write_text(f"done: {scenario.title}")
        return f"wrote {path}"

    return export


def test_a_slow_export_shows_progress_and_the_window_repaints(
    window: MainWindow, tmp_path: Path
) -> None:
    out = tmp_path / "map.pdf"
    watch = Watch(window)
    before = watch.counter.paints
    started = time.monotonic()
    try:
        assert window.export_to(out, exporter=slow_exporter())
    finally:
        watch.stop()
    assert time.monotonic() - started >= 0.85
    assert out.read_text() == f"done: {window.scenario.title}"
    assert len(watch.dialogs) == 1, "one progress dialog, shown while the job ran"
    assert watch.dialogs[0].windowTitle() == "Export map"
    assert any("page" in label and "of 12" in label for label in watch.labels), watch.labels
    assert any(value > 0 and top == 12 for value, top in watch.values), watch.values
    # the view painted all along: about 30 asked for in 0.9 s, well over half done
    assert watch.counter.paints - before >= 12
    assert watch.paints_with_dialog > before, "paints while the dialog was up"
    assert not watch.dialogs[0].isVisible()
    assert "wrote" in window.statusBar().currentMessage()


def test_cancel_stops_the_export_and_removes_the_half_written_file(
    window: MainWindow, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "map.pdf"
    revision = window.scenario.battlefield.revision

    def press_cancel(dialog: ProgressDialog) -> None:
        SHOTS.mkdir(exist_ok=True)
        dialog.grab().save(str(SHOTS / "progress-export.png"))
        button = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    watch = Watch(window, on_dialog=press_cancel)
    started = time.monotonic()
    try:
        assert not window.export_to(out, exporter=slow_exporter(seconds=10, pages=200))
    finally:
        watch.stop()
    assert time.monotonic() - started < 3, "the job stopped at the next page"
    assert not out.exists()
    assert "cancelled" in window.statusBar().currentMessage()
    assert window.scenario.battlefield.revision == revision
    assert "Cancelling" in watch.labels[-1]


def test_a_failing_slow_open_keeps_the_open_table(
    window: MainWindow, tmp_path: Path, _no_modal_dialogs: list[tuple[str, str]]
) -> None:
    document = window.document
    title = window.scenario.title

    def broken(path: Any) -> Scenario:
        time.sleep(0.5)
        raise ScenarioError(f"{path}: terrain[3].outline: not a list of points")

    watch = Watch(window)
    try:
        assert not window.open_file(tmp_path / "bad.crdesk", loader=broken)
    finally:
        watch.stop()
    assert watch.dialogs, "the dialog showed after 0.3 s"
    assert window.document is document and window.scenario.title == title
    assert _no_modal_dialogs[-1][0] == "Could not open the scenario"
    assert "terrain[3].outline" in _no_modal_dialogs[-1][1]


def test_a_slow_open_opens_the_file(window: MainWindow, tmp_path: Path) -> None:
    def slow(_path: Any) -> Scenario:
        time.sleep(0.5)
        return empty_scenario(title="Read slowly")

    watch = Watch(window)
    try:
        assert window.open_file(tmp_path / "slow.crdesk", loader=slow)
    finally:
        watch.stop()
    assert watch.dialogs and window.scenario.title == "Read slowly"


def test_a_quick_job_shows_no_dialog(window: MainWindow) -> None:
    watch = Watch(window)
    try:
        assert run_job(window, "Quick", "…", lambda _p: 42) == 42
    finally:
        watch.stop()
    assert watch.dialogs == []


def test_the_jobs_own_error_reaches_the_caller(window: MainWindow) -> None:
    def fails(progress: Progress) -> None:
        progress.update(1, 2, "half")
        raise ValueError("no room on the table")

    with pytest.raises(ValueError, match="no room"):
        run_job(window, "Failing", "…", fails)


def test_escape_asks_to_cancel_and_the_dialog_stays_until_the_job_ends(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    seen: list[bool] = []

    def press_escape(dialog: ProgressDialog) -> None:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        seen.append(dialog.isVisible())

    def job(progress: Progress) -> str:
        for _ in range(100):
            time.sleep(0.02)
            progress.check()
        return "finished"

    watch = Watch(window, on_dialog=press_escape)
    try:
        with pytest.raises(Cancelled):
            run_job(window, "Counting", "…", job)
    finally:
        watch.stop()
    assert seen == [True], "still up after Escape, until the job stopped"
