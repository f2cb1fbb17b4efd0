"""Benchmark: how long the GUI thread is blocked while a file at the limits opens (issue 17).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_open.py [--file F.crdesk] [--edit]

The file is :func:`tools.fuzz.at_limits.document` (a 480" x 480" table with
1,000 features, 100,000 points and 400 figures) unless ``--file`` names
another.  A main window showing the demo opens it through ``open_file``, as
File > Open does, inside a running event loop with a 5 ms heartbeat timer;
the gaps between heartbeats are the GUI thread's blocks (reading, checks,
the scene, the sight raster, the first paints and the tiles settling).  It
prints the wall time until the new table is shown and the longest blocks,
each with what the GUI thread was doing (a stack sampler, gui_watch.py).

``--edit`` then moves one wood with an undo command (what a drag of a wood
does) and reports the GUI thread's longest block until the sight overlay has
its new raster.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools" / "fuzz"))

from gui_watch import Dispatch, StallWatch, timed_application  # noqa: E402
from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

HEARTBEAT_MS = 5
SETTLE_S = 3.0
"""Seconds the loop runs on after the table is shown (first paints, tiles settling)."""


class Heartbeat:
    """A 5 ms timer; the gaps between its ticks are how long the event loop was kept busy."""

    def __init__(self) -> None:
        self.ticks: list[tuple[float, float, float, str]] = []
        self.label = ""
        self._last = time.perf_counter()
        self._cpu = time.thread_time()
        self.timer = QTimer()
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last, self._cpu = time.perf_counter(), time.thread_time()
        self.timer.start()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.ticks.append((now, (now - self._last) * 1000, (cpu - self._cpu) * 1000, self.label))
        self._last, self._cpu = now, cpu

    def longest(self) -> float:
        return max((gap for _end, gap, _cpu, _label in self.ticks), default=0.0)


def _limits_file() -> Path:
    from at_limits import document

    out = Path(tempfile.mkdtemp(prefix="crdesk-bench-open-")) / "at-limits.crdesk"
    out.write_text(json.dumps(document()), encoding="utf-8")
    return out


def _run_loop(beat: Heartbeat, work: object, settle_s: float) -> float:
    """Run ``work()`` from inside an event loop, keep the loop going ``settle_s``
    after it returns; the seconds ``work`` took."""
    loop = QEventLoop()
    took = [0.0]

    def go() -> None:
        start = time.perf_counter()
        work()  # type: ignore[operator]
        took[0] = time.perf_counter() - start
        beat.label = "after"
        QTimer.singleShot(int(settle_s * 1000), loop.quit)

    QTimer.singleShot(0, go)
    beat.start()
    loop.exec()
    beat.timer.stop()
    return took[0]


DISPATCHES: list[Dispatch] | None = None
"""The application's event log (``--events``)."""


def _report(title: str, beat: Heartbeat, watch: StallWatch, took: float) -> None:
    print(f"{title}: {took:.2f} s until done; longest GUI-thread block {beat.longest():.0f} ms")
    gaps = sorted(beat.ticks, key=lambda t: -t[1])
    over = sum(1 for t in beat.ticks if t[1] > 100)
    print(f"  blocks over 100 ms: {over}")
    for stall in watch.stalls(gaps[:4], over_ms=50, dispatches=DISPATCHES)[:4]:
        print("   ", stall.describe())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, help="the file to open (default: made at the limits)")
    parser.add_argument("--edit", action="store_true", help="then move a wood and time it")
    parser.add_argument("--events", action="store_true", help="name the events of long blocks")
    args = parser.parse_args(argv)
    global DISPATCHES
    if args.events:
        app, DISPATCHES = timed_application([])
    else:
        app = QApplication.instance() or QApplication([])
    from crdesk.geometry import warmup
    from crdesk.resources import demo_scenario
    from crdesk.scenario import load
    from ui.main_window import MainWindow

    warmup.warm_up()
    path = args.file or _limits_file()
    print(f"# {path.name}: {path.stat().st_size / 1e6:.1f} MB")
    window = MainWindow(load(str(demo_scenario())))
    window.resize(1200, 860)
    window.show()
    app.processEvents()
    beat = Heartbeat()
    watch = StallWatch(anchor="_run_loop")
    watch.start()
    beat.label = "open"
    took = _run_loop(beat, lambda: window.open_file(path), SETTLE_S)
    watch.stop()
    assert window.path == path, "the file did not open"
    _report("open", beat, watch, took)
    if args.edit:
        from ui.commands import MoveItemsCommand

        bf = window.document.battlefield
        wood = next(f for f in bf.terrain if f.is_woods)
        figure = next(iter(bf.figures()))
        window.document.set_selection([figure.id])
        app.processEvents()
        sight = window.editor.sight

        def edit() -> None:
            window.document.undo_stack.push(
                MoveItemsCommand(window.document, {wood.id: (1.0, 0.0)})
            )

        beat = Heartbeat()
        watch = StallWatch(anchor="_run_loop")
        watch.start()
        beat.label = "edit"
        took = _run_loop(beat, edit, 0.0)
        start = time.perf_counter()
        while sight is not None and getattr(sight, "pending", lambda: False)():
            beat.timer.start()
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        beat.timer.stop()
        watch.stop()
        ready = time.perf_counter() - start
        _report(f"terrain edit (overlay ready {ready:.2f} s later)", beat, watch, took)
    window.document.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
