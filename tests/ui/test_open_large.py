"""A big file opens without blocking the window, and Cancel keeps the open table (issue 17).

The heavy, Qt-free work of opening (reading, checks, drawings, the sight index)
runs in the worker; the scene's items are made on the GUI thread in batches,
the event loop turning between them.  A heartbeat timer measures how long the
GUI thread is kept from its event loop meanwhile.
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QDialogButtonBox

from crdesk.model import Scenario
from crdesk.scenario import load
from tests.ui.sample import make_scenario
from ui.main_window import MainWindow
from ui.progress import ProgressDialog
from ui.scene.scene import BattlefieldScene

SHOTS = Path("/tmp/crdesk-shots")
KINDS = ["woods", "impassable", "hill", "cover", "woods"]


def big_document(features: int = 240, figures: int = 80, side: float = 120.0) -> dict[str, Any]:
    """A large table (far fewer features than the limits, so the test stays quick)."""
    rng = random.Random(5)
    terrain = []
    for i in range(features):
        cx, cy, r = rng.uniform(5, side - 5), rng.uniform(5, side - 5), rng.uniform(1, 3)
        steps = [k * math.tau / 40 for k in range(40)]
        ring = [[round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)] for a in steps]
        feature = {"id": f"t{i}", "kind": KINDS[i % 5], "name": f"T{i}", "outline": ring}
        if feature["kind"] == "hill":
            feature["crest"] = [[cx - r / 2, cy], [cx + r / 2, cy]]
        terrain.append(feature)
    forces = [
        {
            "id": f"side{k}",
            "player": k == 0,
            "figures": [
                {"id": f"f{k}-{i}", "rep": 4, "position": [rng.uniform(0, side) for _ in "xy"]}
                for i in range(figures // 2)
            ],
        }
        for k in range(2)
    ]  # fmt: skip
    return {
        "format_version": 1,
        "title": "Big table",
        "table": {"width": side, "height": side},
        "terrain": terrain,
        "forces": forces,
    }


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.crdesk"
    path.write_text(json.dumps(big_document()), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _short_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of 5 ms: the items of this (quick) table take several turns of the loop."""
    monkeypatch.setattr("ui.progress.BATCH_MS", 5)


@pytest.fixture(autouse=True)
def _placing_takes_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step of placing the items takes at least 2 ms, so the placing spans
    several 10 ms beats on any machine (a fast one placed all 320 items inside one
    slice, and the beat never saw the label: a flaky test, issue 17's CI run)."""
    populate = BattlefieldScene.populate_steps

    def slow(self: BattlefieldScene) -> Any:
        for step in populate(self):
            time.sleep(0.002)
            yield step

    monkeypatch.setattr(BattlefieldScene, "populate_steps", slow)


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(1000, 720)
    window.show()
    qtbot.waitExposed(window)
    return window


class Beat:
    """A 10 ms timer: the longest gap between its ticks is the GUI thread's longest block,
    and what the progress dialog said at each tick."""

    def __init__(self, window: MainWindow, on_tick: Any = None) -> None:
        self.window = window
        self.gaps: list[float] = []
        self.labels: list[str] = []
        self.bars: list[tuple[int, int]] = []
        self.on_tick = on_tick
        self.last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def dialog(self) -> ProgressDialog | None:
        shown = [d for d in self.window.findChildren(ProgressDialog) if d.isVisible()]
        return shown[0] if shown else None

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now
        dialog = self.dialog()
        if dialog is not None:
            self.labels.append(dialog.label.text())
            self.bars.append((dialog.bar.value(), dialog.bar.maximum()))
            if self.on_tick is not None:
                self.on_tick(dialog)

    def stop(self) -> None:
        self.timer.stop()


def slow_read(path: Any) -> Scenario:
    time.sleep(0.35)  # the dialog is up before the batches begin
    return load(path)


def test_a_big_file_opens_with_progress_and_the_event_loop_keeps_turning(
    window: MainWindow, big_file: Path
) -> None:
    shots: list[Any] = []

    def shoot(dialog: ProgressDialog) -> None:
        if not shots and dialog.label.text().startswith("Placing") and dialog.bar.value() > 0:
            picture = window.grab()
            painter = QPainter(picture)
            box = dialog.grab()
            painter.drawPixmap(
                QPoint((picture.width() - box.width()) // 2, picture.height() // 3), box
            )
            painter.end()
            shots.append(picture)

    beat = Beat(window, shoot)
    try:
        assert window.open_file(big_file, loader=slow_read)
    finally:
        beat.stop()
    bf = window.document.battlefield
    assert window.scene is not None and window.scene.battlefield is bf
    assert len(window.scene.terrain_items()) == 240 and len(window.scene.figure_items()) == 80
    # the first tiles were painted under the dialog, and the view paints again
    assert window.scene.ground.cached_tiles() > 0 and window.view.viewport().updatesEnabled()
    # the dialog showed and said what it did, with a count while the items were placed
    said = set(beat.labels)
    assert any(s.startswith("Reading big.crdesk") for s in said), said
    assert "Placing the terrain and figures…" in said, said
    placing = [b for b, s in zip(beat.bars, beat.labels, strict=True) if s.startswith("Placing")]
    assert any(0 < done < total == 320 for done, total in placing), placing
    # the event loop turned all along (a busy loaded machine gets a generous bound)
    assert len(beat.gaps) > 20 and max(beat.gaps) < 1.0, max(beat.gaps)
    # the sight index came with the file: the first figure selected costs no raster
    sight = window.editor.sight
    assert sight is not None and not sight.pending()
    start = time.perf_counter()
    window.document.set_selection(["f0-0"])
    assert time.perf_counter() - start < 0.5 and sight.focus == "f0-0"
    assert sum(sight.counts.values()) > 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert shots, "no moment with the dialog up while placing the items"
    shots[0].save(str(SHOTS / "open-large-progress.png"))


def test_cancel_while_placing_the_items_keeps_the_open_table(
    window: MainWindow, big_file: Path
) -> None:
    document, scene = window.document, window.scene
    scenes_before = len(window.findChildren(BattlefieldScene))

    def cancel(dialog: ProgressDialog) -> None:
        if dialog.label.text().startswith("Placing") and not dialog.cancel_requested:
            dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()

    beat = Beat(window, cancel)
    try:
        assert not window.open_file(big_file, loader=slow_read)
    finally:
        beat.stop()
    assert "Placing the terrain and figures…" in beat.labels
    assert window.document is document and window.scene is scene
    assert window.view.scene() is scene
    assert "cancelled" in window.statusBar().currentMessage()
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert len(window.findChildren(BattlefieldScene)) == scenes_before
