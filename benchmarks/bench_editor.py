"""Benchmark of the editor's drag frame, repaint and zoom (issue 6).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_editor.py [--repeat N]

A 1000 x 1000 view of the seeded dense table of bench_visibility.py (300 terrain
polygons, 100 figures).  One figure is selected and dragged with real mouse
events; each frame includes the model move, the incremental sight matrix row,
the cohesion update, the sight-line and link paths, and a synchronous repaint of
the viewport.  Prints medians next to the targets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_visibility import dense_table  # noqa: E402
from PySide6.QtCore import QEvent, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMainWindow  # noqa: E402

from crdesk.model import Scenario  # noqa: E402
from ui.document import Document  # noqa: E402
from ui.editor import Editor  # noqa: E402
from ui.scene.scene import BattlefieldScene  # noqa: E402
from ui.scene.view import BattlefieldView  # noqa: E402

TARGETS = {"drag frame": 16.0, "full repaint": 10.0, "zoom step": 16.0}


def _mouse(view: BattlefieldView, kind: QEvent.Type, x: float, y: float, pressed: bool) -> None:
    pos = QPointF(view.mapFromScene(QPointF(x, y)))
    button = Qt.MouseButton.LeftButton
    buttons = button if pressed else Qt.MouseButton.NoButton
    which = button if kind != QEvent.Type.MouseMove else Qt.MouseButton.NoButton
    event = QMouseEvent(
        kind,
        pos,
        QPointF(view.mapToGlobal(pos.toPoint())),
        which,
        buttons,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), event)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=60)
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([])
    doc = Document(Scenario(dense_table()))
    scene = BattlefieldScene(doc.battlefield)
    view = BattlefieldView(scene)
    window = QMainWindow()
    window.setCentralWidget(view)
    editor = Editor(window, view)
    editor.set_document(doc, scene)
    view.resize(1000, 1000)
    view.viewport().resize(1000, 1000)
    window.show()
    app.processEvents()
    view.fit_table()
    app.processEvents()
    bf = doc.battlefield
    figure = next(iter(bf.figures()))
    view.viewport().repaint()
    _mouse(view, QEvent.Type.MouseButtonPress, figure.x, figure.y, True)
    x0, y0 = figure.x, figure.y
    frames = []
    for k in range(args.repeat):
        x = x0 + (k % 20) * 0.37 - 3.5
        y = y0 + ((k * 7) % 20) * 0.29 - 2.9
        start = time.perf_counter()
        _mouse(view, QEvent.Type.MouseMove, x, y, True)
        view.viewport().repaint()
        frames.append((time.perf_counter() - start) * 1000)
    _mouse(view, QEvent.Type.MouseButtonRelease, x, y, False)
    app.processEvents()
    lines = sum(editor.sight.counts.values()) if editor.sight else 0
    repaints = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        view.viewport().repaint()
        repaints.append((time.perf_counter() - start) * 1000)
    zooms = []
    for k in range(args.repeat // 2):
        factor = 1.25 if k % 2 == 0 else 0.8
        start = time.perf_counter()
        view.zoom_by(factor)
        view.viewport().repaint()
        zooms.append((time.perf_counter() - start) * 1000)
    print(
        f"editor benchmark: {len(bf.terrain)} terrain polygons, {len(list(bf.figures()))} "
        f"figures, view 1000x1000, {lines} sight lines/links on the dragged figure"
    )
    for name, values in (("drag frame", frames), ("full repaint", repaints), ("zoom step", zooms)):
        median = statistics.median(values)
        verdict = "OK" if median <= TARGETS[name] else "over target"
        print(
            f"  {name:13s} median {median:7.2f} ms   target <= {TARGETS[name]:.0f} ms   {verdict}"
        )
    editor.manager.detach() if editor.manager else None
    doc.close()


if __name__ == "__main__":
    main()
