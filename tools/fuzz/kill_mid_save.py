"""Kill a saving process at random moments and check nothing is lost (issue 17, Deliver 5).

``python tools/fuzz/kill_mid_save.py --trials 100 FOLDER`` starts, per trial, a
process that saves a scenario over and over to ``FOLDER/table.crdesk``
(alternating two versions), sends it ``SIGKILL`` after a random few
milliseconds, then checks that the file loads and is one of the two versions,
and that the next save leaves no temp file behind.  Exit status 0 when every
trial passes.  ``tests/test_hostile_save.py`` runs a short loop of it.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAVER = r"""
import sys
from crdesk import scenario as io
from crdesk.resources import demo_scenario
a = io.load(str(demo_scenario()))
b = io.load(str(demo_scenario()))
b.title = "Second version"
target = sys.argv[1]
print("ready", flush=True)
while True:
    io.save(a, target)
    io.save(b, target)
"""


def trial(folder: Path, rng: random.Random) -> str | None:
    """One kill; None when all is well, else what went wrong."""
    from crdesk import scenario as io
    from crdesk.resources import demo_scenario

    target = folder / "table.crdesk"
    if not target.exists():  # the file being overwritten; a kill before any save keeps it
        io.save(io.load(str(demo_scenario())), target)
    with subprocess.Popen(
        [sys.executable, "-c", SAVER, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as proc:
        assert proc.stdout is not None
        proc.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    try:
        title = io.load(target).title
    except Exception as exc:  # the whole point: report anything
        return f"the file does not load after the kill: {exc}"
    if title not in ("Second version", io.load(str(demo_scenario())).title):
        return f"unexpected title {title!r}"
    io.save(io.load(target), target)
    strays = [p.name for p in folder.iterdir() if p.name != target.name]
    return f"stray files after the next save: {strays}" if strays else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    args.folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    failures = 0
    for k in range(args.trials):
        problem = trial(args.folder, rng)
        if problem:
            failures += 1
            print(f"trial {k}: {problem}")
    print(f"{args.trials} trials, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
