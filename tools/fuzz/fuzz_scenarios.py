"""The long structural fuzz run of issue 17: mutated scenarios through load, save and sight.

Usage::

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/fuzz/fuzz_scenarios.py \\
        --inputs 10000 --seed 1 --jobs 2

Each input is a demo or regression scenario (``tests/data/hostile``) bent by
1-4 mutations of :mod:`mutate` and run through :func:`mutate.check_input`
(strict read, schema and cross-checks, the model, table checks, save, load
again, idempotent save, and for one input in three every-pair sight).  The run
prints inputs, rejected, accepted, tracebacks and inputs slower than 5 s, and
the peak memory; every traceback or slow input is written with its seed to
``--out`` (default ``fuzz-findings/``) so it can be replayed with
``--replay SEED``.  The suite runs the same mutations briefly
(``tests/test_hostile_fuzz.py``).

``--kind crgame`` or ``--kind crband`` fuzzes saved games or Bands instead
(:mod:`saves`: open strictly, and leniently when the replay fails, save, open
again, idempotent save; ``tests/test_hostile_fuzz_saves.py`` in the suite).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import mutate
import saves

SLOW_S = 5.0
"""An input slower than this is a hang (issue 17's acceptance)."""
KILL_S = 60
"""An input still running after this is stopped and reported."""

_DOCS: list[dict[str, Any]] = []
_KIND = ["crdesk"]


class _Hung(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hung


def _one(seed: int) -> tuple[int, str, float, str]:
    kind = _KIND[0]
    if not _DOCS:
        _DOCS.extend(mutate.seed_documents() if kind == "crdesk" else saves.seed_documents(kind))
    rng = random.Random(seed)
    if kind == "crdesk":
        raw = mutate.mutated_input(rng, _DOCS)
        sight = rng.random() < 1 / 3
    else:
        raw = saves.mutated_input(rng, _DOCS)
    start = time.perf_counter()
    signal.alarm(KILL_S)
    try:
        if kind == "crdesk":
            outcome = mutate.check_input(raw, sight=sight)
        else:
            outcome = saves.CHECKS[kind](raw)
        detail = ""
    except _Hung:
        outcome, detail = "hung", f"stopped after {KILL_S} s"
    except Exception:
        outcome, detail = "traceback", traceback.format_exc()
    finally:
        signal.alarm(0)
    return seed, outcome, time.perf_counter() - start, detail


def _init(kind: str = "crdesk") -> None:
    _KIND[0] = kind
    signal.signal(signal.SIGALRM, _alarm)
    if kind != "crdesk":  # imports and caches, so a worker's first input is not timed with them
        _DOCS.extend(saves.seed_documents(kind))
        saves.CHECKS[kind](json.dumps(_DOCS[0]).encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1, help="first seed; input k uses seed + k")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    parser.add_argument("--replay", type=int, help="run one seed and print its traceback")
    parser.add_argument(
        "--kind", choices=["crdesk", "crgame", "crband"], default="crdesk", help="the files fuzzed"
    )
    args = parser.parse_args(argv)
    _init(args.kind)
    if args.replay is not None:
        seed, outcome, seconds, detail = _one(args.replay)
        print(f"{args.kind} seed {seed}: {outcome} in {seconds:.2f} s\n{detail}")
        return 0 if outcome in ("accepted", "rejected") else 1
    seeds = range(args.seed, args.seed + args.inputs)
    counts = {"accepted": 0, "rejected": 0, "traceback": 0, "hung": 0}
    slow = 0
    slowest = 0.0
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs, initializer=_init, initargs=(args.kind,)) as pool:
        for k, (seed, outcome, seconds, detail) in enumerate(
            pool.imap_unordered(_one, seeds, chunksize=8), 1
        ):
            counts[outcome] += 1
            slowest = max(slowest, seconds)
            if seconds > SLOW_S:
                slow += 1
                detail = detail or f"took {seconds:.1f} s"
            if detail:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"seed-{seed}.txt").write_text(
                    f"{outcome} in {seconds:.2f} s\n{detail}",
                    encoding="utf-8",
                    errors="backslashreplace",
                )
            if k % 1000 == 0:
                print(f"{k} inputs, {counts}, {slow} over {SLOW_S:g} s", flush=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{args.kind}: inputs {args.inputs}, rejected {counts['rejected']}, "
        f"accepted {counts['accepted']}, "
        f"tracebacks {counts['traceback']}, hangs over {SLOW_S:g} s {slow} "
        f"(stopped {counts['hung']}), slowest {slowest:.2f} s, peak {peak:.0f} MB per process, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    return 0 if counts["traceback"] == counts["hung"] == slow == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
