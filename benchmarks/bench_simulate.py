"""Benchmark of batch simulation (crdesk.simulate, ``crdesk simulate``).

Run:  python benchmarks/bench_simulate.py [--games N] [--seed S] [--terrain TYPE]
      [--size WxH] [--max-turns T] [--same N] [--profile N]

* **N automated Patrol encounters** (issue 13's target: 1,000 in at most 60 s
  with ``--jobs 2`` on this 2-core machine, on a 72" x 48" generated table): each
  game generates its own table (``--size``, default 72x48 as the issue's target;
  ``crdesk simulate`` defaults to the book's 36x36; ``--terrain``, default rolled
  on 9.2), deploys the default Band (a
  Rep 5 Star and four Rep 4 Grunts, Military) by 12.1 and plays it against PEFs,
  the tactical policy for the player (crdesk.ai.tactical) and the solo enemy
  (table 11.4) for the PEFs' side, to the Patrol's end or ``--max-turns``
  (default 20).  Timed end to end with ``run_batch(..., jobs=2)``, worker
  start-up included; the figure for 1,000 games is scaled from N when N is smaller.
* **Same results**: the first ``--same`` games (default: all N) played again with
  ``jobs=1`` must give exactly the same :class:`GameResult` rows and summary.  Its
  CPU time per game also gives the time 1,000 games would take on 2 idle cores
  (the wall clock of a shared machine mostly measures its other users).
* **Machine yardstick**: the CPU time of a fixed workload that does not use crdesk
  (pure Python and numpy), so that figures taken on different days can be compared:
  one commit (5b1fabb) took 234 ms of CPU a game in one session and 532 ms in the
  next, with no change to crdesk.
* **Profile**: cProfile of ``--profile`` games (default 2) in this process, the
  top functions by cumulative and by own time, so the hot paths are named.

It prints each figure next to its target and exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crdesk.cli.common import table_size
from crdesk.simulate import (
    Setup,
    default_band,
    game_seed,
    play_game,
    run_batch,
    summarize,
)

TARGET_SECONDS = 60.0
TARGET_GAMES = 1000


def yardstick() -> float:
    """Milliseconds of CPU for a fixed workload of the kinds a game spends its time on
    (Python calls and small numpy arrays), the median of five runs; it does not
    change with crdesk's code, only with the machine and its neighbours."""
    import numpy as np

    def once() -> float:
        cpu = time.process_time()
        total = 0.0
        for i in range(20_000):
            a = np.arange(32, dtype=np.float64) + i
            total += float(np.hypot(a, a).sum()) + sum(k * k for k in range(20))
        return (time.process_time() - cpu) * 1000

    return statistics.median(once() for _ in range(5))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--terrain", default="roll")
    parser.add_argument("--size", type=table_size, default=(72.0, 48.0), metavar="WxH")
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--same", type=int, default=None, help="games replayed with jobs=1")
    parser.add_argument("--profile", type=int, default=2, help="games profiled (0: none)")
    args = parser.parse_args()
    setup = Setup(
        terrain=args.terrain, size=args.size, band=default_band(), max_turns=args.max_turns
    )
    size = f'{args.size[0]:g}"x{args.size[1]:g}"'
    failed = False
    print(f"Machine yardstick: {yardstick():.0f} ms of CPU (compare runs of different days by it)")

    started = time.perf_counter()
    two = run_batch(setup, args.games, args.seed, jobs=2)
    elapsed = time.perf_counter() - started
    scaled = elapsed * TARGET_GAMES / args.games
    ok = scaled <= TARGET_SECONDS
    failed |= not ok
    report = summarize(two)
    steps = [r.steps for r in two if r.error is None]
    print(
        f"{args.games} Patrol games (generated {args.terrain} {size}, 5 figures vs PEFs, "
        f"at most {args.max_turns} turns), --jobs 2: {elapsed:.1f} s "
        f"({elapsed / args.games * 1000:.0f} ms a game; mean {statistics.fmean(steps):.0f} "
        f"steps, {report['turns']['mean']:.1f} turns)"
    )
    print(
        f"  1,000 games with --jobs 2: {scaled:.1f} s  (target <= {TARGET_SECONDS:.0f} s)  "
        f"{'OK' if ok else 'MISSED'}"
    )
    wins = report["win_rates"]
    print(
        "  player wins {:.1%}, enemy wins {:.1%}, draws {:.1%}; {} game(s) failed".format(
            wins["player"]["rate"],
            wins["enemy"]["rate"],
            wins["draw"]["rate"],
            len(report["errors"]),
        )
    )
    for err in report["errors"][:5]:
        print(f"    game {err['game']} (seed {err['seed']}): {err['error']}")

    same = args.games if args.same is None else min(args.same, args.games)
    if same:
        started, cpu = time.perf_counter(), time.process_time()
        one = run_batch(setup, same, args.seed, jobs=1)
        serial = time.perf_counter() - started
        per_game = (time.process_time() - cpu) / same
        # on a shared machine the wall clock says more about the neighbours than about
        # crdesk: the CPU time of one process, spread over 2 idle cores, is the steadier
        print(
            f"  CPU time a game (--jobs 1): {per_game * 1000:.0f} ms; 1,000 games on 2 idle "
            f"cores would take about {per_game * TARGET_GAMES / 2:.0f} s "
            f"(target <= {TARGET_SECONDS:.0f} s); load average now "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        identical = one == two[:same] and summarize(one) == summarize(two[:same])
        failed |= not identical
        print(
            f"  --jobs 1 vs --jobs 2 on {same} games: "
            f"{'identical' if identical else 'DIFFERENT'} (target: identical); "
            f"--jobs 1 took {serial:.1f} s"
        )

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for i in range(args.profile):
            play_game(setup, i, game_seed(args.seed, i))
        profile.disable()
        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(order).print_stats(18)
            print(f"\nProfile of {args.profile} game(s), by {order}:")
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[-2200:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
