"""Benchmark: sight on huge outlines at the limits (issue 33, item 9).

Run:  python benchmarks/bench_huge_outlines.py [--buildings 2 10] [--turns 2]

Builds :func:`tools.fuzz.at_limits.huge_buildings` (a 72" x 48" table, 400
figures and N buildings of 9,997 outline points: what ``validate`` accepts) and
runs, each in its own process, ``crdesk los`` (every pair, the numpy route),
``crdesk game auto`` and the app's open (``benchmarks/bench_open.py --file``),
printing the seconds and the peak memory (max RSS) of each.  Performance is
never asserted in the tests: these figures go in the issue's closing note.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "fuzz"))

import at_limits  # noqa: E402


def _run(argv: list[str]) -> tuple[float, float, int]:
    """Seconds, peak MB and exit status of one command in a fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode and err:
        print("   ", err.strip().splitlines()[-1])
    return time.perf_counter() - start, usage.ru_maxrss / 1024, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buildings", type=int, nargs="+", default=[2, 10])
    parser.add_argument("--turns", type=int, default=2, help="turns of game auto")
    parser.add_argument("--no-app", action="store_true", help="skip the app's open")
    args = parser.parse_args()
    exe = [sys.executable, "-m", "crdesk"]
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.buildings:
            path = Path(tmp) / f"huge-{n}.crdesk"
            path.write_text(json.dumps(at_limits.huge_buildings(n)), encoding="utf-8")
            print(f"{n} buildings of 9,997 points, 400 figures, 72x48 ({path.stat().st_size:,} B)")
            game = Path(tmp) / f"huge-{n}.crgame"
            runs = [
                ("los (all pairs)", [*exe, "los", str(path)]),
                (
                    f"game auto --turns {args.turns}",
                    [*exe, "game", "auto", str(path), "--seed", "1", "--turns", str(args.turns),
                     "-o", str(game), "--force"],
                ),
            ]  # fmt: skip
            if not args.no_app:
                bench_open = str(ROOT / "benchmarks" / "bench_open.py")
                runs.append(("app open", [sys.executable, bench_open, "--file", str(path)]))
            for name, argv in runs:
                seconds, peak, status = _run(argv)
                print(f"  {name}: {seconds:.1f} s, peak {peak:,.0f} MB, exit {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
