"""Benchmark: ``crdesk render`` of the worst tables the limits accept (issue 33, item 10).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_render.py [--only png,svg,pdf,refused]

Each case runs ``crdesk render`` as a subprocess and prints its wall time and
peak memory (the child's own maximum resident set, from ``wait4``) beside the
target: every accepted render under about 30 s and 1 GB on a developer's machine.

- PNG and SVG: :func:`tools.fuzz.at_limits.document`, a 480" x 480" table with
  1,000 features, 100,000 points and 400 figures; the PNG at the largest dpi the
  megapixel limit allows for the table with its frame.
- PDF: the largest square table whose 1:1 print is within
  :data:`crdesk.limits.PRINT_PAGES` A4 pages, holding the same 1,000 features
  (their centres moved onto it, their size kept) and 400 figures.
- PDF, long outlines: the same table holding ten outlines of
  :data:`~crdesk.limits.POINTS_PER_OUTLINE` points (100,000 points; hills and
  Cover, which the blocking-cover limit does not bound) that each cross the whole
  table, so every page meets every outline.
- refused: the PDF of the 480" table, which must be refused at once.
- app, app-png, app-svg: the PDF, PNG and SVG above made by the window's Export
  (``MainWindow.export_to``: a worker thread under the progress dialog), in a
  subprocess whose GUI thread runs a 5 ms heartbeat once the window's own checks
  of the table have ended; it prints the longest gap between beats, the longest
  the window could not repaint.

``--code DIR`` runs the commands from another checkout (``--code /work/main`` for
the figures before a change).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("CRDESK_BENCH_CODE", str(ROOT)))  # --code, in the app child
sys.path.insert(0, str(ROOT / "tools" / "fuzz"))

from at_limits import document  # noqa: E402

from crdesk import limits  # noqa: E402

TARGET_S = 30.0
TARGET_MB = 1024.0
FRAME = 2 * (0.8 + 0.1)
"""Inches the PNG's wooden frame adds across (``ui.scene.items.TableItem.FRAME`` + 0.1 a side)."""


def largest_printable_side(paper: str = "a4") -> int:
    """The largest whole-inch square table whose print is within the page limit."""
    from crdesk.printing import plan_print

    side = int(limits.TABLE_MAX)
    while side > limits.TABLE_MIN and plan_print(side, side, paper).pages > limits.PRINT_PAGES:
        side -= 1
    return side


def moved_onto(doc: dict[str, Any], side: float) -> dict[str, Any]:
    """``doc`` on a ``side`` table: each feature and figure moved by its centre, not scaled."""
    scale = side / doc["table"]["width"]

    def shift(points: list[list[float]], dx: float, dy: float) -> list[list[float]]:
        return [[round(x + dx, 3), round(y + dy, 3)] for x, y in points]

    for feature in doc["terrain"]:
        ring = feature["outline"]
        cx = sum(p[0] for p in ring) / len(ring)
        cy = sum(p[1] for p in ring) / len(ring)
        dx, dy = cx * scale - cx, cy * scale - cy
        for key in ("outline", "crest"):
            if key in feature:
                feature[key] = shift(feature[key], dx, dy)
        if "areas" in feature:
            feature["areas"] = [shift(a, dx, dy) for a in feature["areas"]]
        for opening in feature.get("openings", []):
            opening["start"], opening["end"] = shift([opening["start"], opening["end"]], dx, dy)
    for force in doc["forces"]:
        for fig in force["figures"]:
            fig["position"] = [round(v * scale, 3) for v in fig["position"]]
    doc["table"] = {"width": side, "height": side}
    doc["title"] = f'At the limits on {side}" x {side}"'
    return doc


def long_outlines(side: float, seed: int = 1) -> dict[str, Any]:
    """A ``side`` table with ten table-wide outlines of 10,000 points and 400 figures."""
    rng = random.Random(seed)
    per = limits.POINTS_PER_OUTLINE - 2  # and a hill's crest of two
    c = side / 2
    terrain = []
    for i in range(limits.POINTS_TOTAL // limits.POINTS_PER_OUTLINE):
        r, phase = side * (0.25 + 0.02 * i), rng.uniform(0, 2 * math.pi)
        ring = []
        for k in range(per):  # star-shaped, wobbling: a simple outline
            a = 2 * math.pi * k / per
            rk = r * (1 + 0.04 * math.sin(7 * a + phase) + 0.01 * math.sin(211 * a))
            ring.append([round(c + rk * math.cos(a), 4), round(c + rk * math.sin(a), 4)])
        kind = "hill" if i % 2 else "cover"
        feature: dict[str, Any] = {"id": f"t{i}", "kind": kind, "name": f"L{i}", "outline": ring}
        if kind == "hill":
            feature["crest"] = [[c - r / 2, c], [c + r / 2, c]]
        terrain.append(feature)
    doc = moved_onto(document(seed), side)
    doc["terrain"] = terrain
    return doc


def app_export(table: Path, out: Path, dpi: float) -> int:
    """The ``app`` case, in the child process: the window exports ``table`` to ``out``."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from crdesk import scenario as io
    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    from ui.background_checks import checks_of

    window = MainWindow(io.load(table))
    window.show()
    checks = checks_of(window.document)
    checks.request()  # the window's own work on the table it opened ends first
    settle = time.perf_counter() + 60
    while checks.result_for(window.document.battlefield.revision) is None:
        app.processEvents()
        if time.perf_counter() > settle:
            break
        time.sleep(0.01)
    end = time.perf_counter() + 2
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)
    beats: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    timer.start()
    start = time.perf_counter()
    beats.append(start)
    ok = window.export_to(out, paper="a4", dpi=float(dpi))
    took = time.perf_counter() - start
    timer.stop()
    gap = max((b - a for a, b in itertools.pairwise(beats)), default=0.0)
    print(f"{window.statusBar().currentMessage()}; {took:.1f} s in the app, ", end="")
    print(f"longest GUI-thread block {gap * 1000:.0f} ms ({len(beats)} beats)")
    return 0 if ok else 1


def timed(argv: list[str], code: str | None) -> tuple[float, float, int, str]:
    """Wall seconds, peak resident MB, exit status and output of one command."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = env["CRDESK_BENCH_CODE"] = code
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read().decode("utf-8", "replace")
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, proc.returncode, out.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="png,svg,pdf,pdf-long,refused,app,app-png,app-svg")
    parser.add_argument("--app-child", nargs=3, help=argparse.SUPPRESS)  # TABLE OUT DPI
    parser.add_argument("--code", metavar="DIR", help="run crdesk from this checkout")
    args = parser.parse_args()
    if args.app_child:
        return app_export(
            Path(args.app_child[0]), Path(args.app_child[1]), float(args.app_child[2])
        )
    only = set(args.only.split(","))
    exe = [sys.executable, "-m", "crdesk", "render"]
    with tempfile.TemporaryDirectory(prefix="bench-render-") as tmp:
        folder = Path(tmp)
        big = folder / "at-limits.crdesk"
        big.write_text(json.dumps(document()), encoding="utf-8")
        side = largest_printable_side()
        printable = folder / "printable.crdesk"
        printable.write_text(json.dumps(moved_onto(document(), side)), encoding="utf-8")
        long = folder / "long.crdesk"
        long.write_text(json.dumps(long_outlines(side)), encoding="utf-8")
        dpi = limits.max_dpi(limits.TABLE_MAX + FRAME, limits.TABLE_MAX + FRAME)
        from crdesk.printing import plan_print

        pages = plan_print(side, side, "a4").pages
        cases = [
            ("png", f'PNG, 480" at {dpi:g} dpi', [str(big), "-o", str(folder / "m.png")]),
            ("svg", 'SVG, 480"', [str(big), "-o", str(folder / "m.svg")]),
            ("pdf", f'PDF, {side}" on A4 ({pages} pages)', [str(printable), "-o", "m.pdf"]),
            ("pdf-long", f'PDF, {side}" of long outlines', [str(long), "-o", "m.pdf"]),
            ("refused", 'PDF, 480" (refused)', [str(big), "-o", str(folder / "big.pdf")]),
            ("app", f'PDF, {side}" from the window', [str(printable), str(folder / "m.pdf")]),
            (
                "app-png",
                f'PNG, 480" at {dpi:g} dpi from the window',
                [str(big), str(folder / "m.png")],
            ),
            ("app-svg", 'SVG, 480" from the window', [str(big), str(folder / "m.svg")]),
        ]
        print(f"target: each accepted render under {TARGET_S:g} s and {TARGET_MB:g} MB")
        for key, name, argv in cases:
            if key not in only:
                continue
            if key == "png":
                argv += ["--dpi", f"{dpi:g}"]
            if key.startswith("pdf"):
                argv[2] = str(folder / "m.pdf")
            command = [*exe, *argv]
            if key.startswith("app"):
                command = [sys.executable, __file__, "--app-child", *argv, f"{dpi:g}"]
            seconds, peak, status, out = timed(command, args.code)
            written = [p for p in folder.iterdir() if p.suffix in (".png", ".svg", ".pdf")]
            size = sum(p.stat().st_size for p in written)
            for p in written:
                p.unlink()
            ok = seconds < TARGET_S and peak < TARGET_MB
            print(
                f"{name}: {seconds:.1f} s, peak {peak:.0f} MB, {size / 1e6:.1f} MB written, "
                f"exit {status} ({'within' if ok else 'OVER'} {TARGET_S:g} s / {TARGET_MB:g} MB)"
            )
            print(f"    {out.splitlines()[-1] if out else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
