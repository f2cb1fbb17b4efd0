"""Benchmark of a campaign encounter's start (issue 30): from "Next encounter" to the
player's first decision on a generated 72"x48" table, in the app (offscreen).

Run:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_campaign_start.py [--seeds N]

For each seed, the Band's next encounter as the player meets it:

1. **Generate**: the table made for the encounter (9.2-9.5 and its buildings), put in
   the editor (``MainWindow.use_generated``).
2. **To deploy**: ``PlayMode.start`` with the Band: the program's deployment worked out
   and the deployment step shown (zone, scene, dock).
3. **Start → first decision**: "Start encounter" pressed: the deployment checked, the
   game built (PEFs placed, 11), the play scene and docks shown, until the game awaits
   the player's first decision.

The compiled sight kernels are warmed first (the app warms them in the background at
start).  Prints the median and the largest of each, in milliseconds.  Guideline: each
step well under a second, so no step needs a progress dialog.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from crdesk.band import BandType, new_band
from crdesk.dice import CounterDice
from crdesk.game import GameSettings
from crdesk.generator import generate
from crdesk.geometry import warmup
from crdesk.recovery import RecoveryStore
from ui.main_window import MainWindow
from ui.play.mode import PLAYER_DEPLOYS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    warmup.warm_up()
    folder = tempfile.TemporaryDirectory(prefix="crdesk-bench-")
    first = generate(0, width=72, height=48)
    window = MainWindow(first, None, recovery=RecoveryStore(Path(folder.name)))
    window.resize(1400, 900)
    window.show()
    window.play.autoplay = False
    band, _ = new_band("Bench Band", BandType.MILITARY, CounterDice(1), seed=1)
    steps: dict[str, list[float]] = {"generate": [], "to deploy": [], "start → decision": []}
    for seed in range(1, args.seeds + 1):
        kind = ("patrol", "raid", "defend")[seed % 3]
        t0 = time.perf_counter()
        window.use_generated(
            generate(seed, width=72, height=48, terrain_type="roll", encounter=kind)
        )
        app.processEvents()
        t1 = time.perf_counter()
        settings = GameSettings(solo=True, encounter=kind)
        assert window.play.start(seed, set(), settings, band=band, deploy=PLAYER_DEPLOYS)
        app.processEvents()
        t2 = time.perf_counter()
        step = window.play.deployment
        assert step is not None
        assert step.finish() is not None
        game = window.play.game
        assert game is not None and game.awaiting() is not None
        app.processEvents()
        t3 = time.perf_counter()
        for name, took in zip(steps, (t1 - t0, t2 - t1, t3 - t2), strict=True):
            steps[name].append(took * 1000)
        session = window.play.session
        assert session is not None
        session.saved_steps = len(game.history)  # nothing to ask about
        window.play.maybe_stop()
    print(f'Campaign encounter start on generated 72"x48" tables ({args.seeds} seeds)')
    for name, times in steps.items():
        print(f"  {name:18s} median {statistics.median(times):7.0f} ms   max {max(times):7.0f} ms")
    window.close()
    folder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
