"""Benchmark of the terrain generator (issue 5): median time to generate a 72" x 48" table.

Run:  python benchmarks/bench_generator.py [--repeat N] [--size 72x48]

For each overall type (9.2) it generates ``--repeat`` tables with seeds 0..N-1
(encounter none, 28mm) and prints the median, the slowest run, and the target
(< 0.5 s).  Urban tables are the slow ones: up to six buildings per (B)
section, each placed by 1/2d6" from another and checked against every other.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crdesk.generator import generate

TARGET = 0.5
"""Seconds: the issue's budget for one 72" x 48" table."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="tables per type (default 30)")
    parser.add_argument("--size", default="72x48", help="table size W x H in inches")
    args = parser.parse_args(argv)
    width, height = (float(v) for v in args.size.lower().split("x"))

    generate(0, width, height, "urban")  # warm up imports and caches
    worst_median = 0.0
    print(f"generate {args.size} table, {args.repeat} seeds per type (target median < {TARGET} s)")
    for kind in ("clear", "urban", "wooded", "mountain"):
        times = []
        buildings = 0
        for seed in range(args.repeat):
            start = time.perf_counter()
            scenario = generate(seed, width, height, kind)
            times.append(time.perf_counter() - start)
            buildings += sum(1 for f in scenario.battlefield.terrain if f.kind.value == "building")
        median = statistics.median(times)
        worst_median = max(worst_median, median)
        verdict = "ok" if median < TARGET else "TOO SLOW"
        print(
            f"  {kind:<9} median {median * 1000:7.1f} ms   slowest {max(times) * 1000:7.1f} ms"
            f"   {buildings / args.repeat:5.1f} buildings/table   {verdict}"
        )
    return 0 if worst_median < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
