"""Benchmark of Duck Back's search for the nearest Cover (movement.nearest_cover, 7.4.4).

Run:  python benchmarks/bench_duck_back.py [--seed N] [--cases N] [--repeat N]

Tables: bench_visibility.py's seeded dense table (72" x 48", 300 polygons, the
figures of its 100 that are not inside a building or on rock) and generated
48" x 48" tables (urban, wooded, mountain, and one rolled: seeds 1-4) with
figures dropped at random.  Each figure is given a threat that sees it -- the
first of a few tries (random spots 3"-16" away) from which it must move or
drop prone -- and another anywhere on the table (often it is hidden where it
stands).

For each case the old search (every spot judged: the verbatim copy kept in
tests/model/geometry/test_nearest_cover_fast.py) and the new one are timed on
the same terrain index (the fastest of ``--repeat`` runs); the answers must be
equal.  It prints the median, min and max in milliseconds, with the compiled
kernels warmed and on the numpy route (``los.USE_KERNELS`` off), and the worst
new/old ratio of one case (on a shared machine a ratio of one case carries
noise of some 30%).  Target: new median <= 3 ms on the dense table with the
kernels, and no slower than the old one without them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_visibility import dense_table

from crdesk.generator import generate
from crdesk.geometry import los, movement, warmup
from crdesk.geometry.terrain_index import TerrainIndex, build_index
from crdesk.model import Battlefield, Figure, TerrainKind
from crdesk.options import RulesOptions
from tests.model.geometry.test_nearest_cover_fast import reference_nearest_cover

RULES = RulesOptions()
Case = tuple[Figure, tuple[float, float], str]


def _figures(bf: Battlefield, rng: np.random.Generator, count: int) -> list[Figure]:
    figs = [
        f
        for f in bf.figures()
        if not any(
            t.kind in (TerrainKind.BUILDING, TerrainKind.IMPASSABLE)
            and t.outline.contains(f.footprint())
            for t in bf.terrain
        )
    ]
    w, h = bf.table.width, bf.table.height
    while len(figs) < count:
        x, y = float(rng.uniform(1, w - 1)), float(rng.uniform(1, h - 1))
        figs.append(Figure(f"x{len(figs)}", "x", 4, x=x, y=y))
    return figs[:count]


def _cases(bf: Battlefield, index: TerrainIndex, seed: int, count: int) -> list[Case]:
    """Per figure: a threat that sees it (tried until it must move or drop prone), and
    one anywhere on the table."""
    rng = np.random.default_rng(seed)
    out: list[Case] = []
    w, h = bf.table.width, bf.table.height
    for fig in _figures(bf, rng, count):
        for _ in range(8):
            ang, d = rng.uniform(0, 2 * np.pi), rng.uniform(3, 16)
            threat = (fig.x + d * np.cos(ang), fig.y + d * np.sin(ang))
            if not (0 <= threat[0] <= w and 0 <= threat[1] <= h):
                continue
            res = reference_nearest_cover(bf, fig, threat, RULES, index=index)
            if res.distance > 0 or res.prone_in_place:
                out.append((fig, threat, "seen"))
                break
        out.append((fig, (float(rng.uniform(0, w)), float(rng.uniform(0, h))), "anywhere"))
    return out


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, (time.perf_counter() - t) * 1000)
    return best, result


def _run(label: str, bf: Battlefield, cases: list[Case], index: TerrainIndex, repeat: int) -> None:
    old_t: dict[str, list[float]] = {"seen": [], "anywhere": []}
    new_t: dict[str, list[float]] = {"seen": [], "anywhere": []}
    wrong = 0
    for fig, threat, kind in cases:
        to, old = _time(
            partial(reference_nearest_cover, bf, fig, threat, RULES, index=index), repeat
        )
        tn, new = _time(
            partial(movement.nearest_cover, bf, fig, threat, RULES, index=index), repeat
        )
        wrong += old != new
        old_t[kind].append(to)
        new_t[kind].append(tn)
    for kind in ("seen", "anywhere", "all"):
        o = old_t["seen"] + old_t["anywhere"] if kind == "all" else old_t[kind]
        n = new_t["seen"] + new_t["anywhere"] if kind == "all" else new_t[kind]
        if not o:
            continue
        print(
            f"  {label:<28} {kind:<9} {len(o):>4} cases   old "
            f"{statistics.median(o):7.2f} ms (min {min(o):6.2f}, max {max(o):7.2f})   new "
            f"{statistics.median(n):6.2f} ms (min {min(n):5.2f}, max {max(n):6.2f})   x"
            f"{statistics.median(o) / statistics.median(n):5.1f}"
        )
    ratio = [
        n / o
        for n, o in zip(
            new_t["seen"] + new_t["anywhere"], old_t["seen"] + old_t["anywhere"], strict=True
        )
    ]
    slower = sum(x > 1 for x in ratio)
    print(f"  {'':<28} new/old per case: worst {max(ratio):.2f}, {slower} cases slower")
    if wrong:
        print(f"  !! {wrong} answers differ from the old search")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--cases", type=int, default=40, help="figures per table")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (the fastest counts)")
    args = ap.parse_args()
    print(f"kernels warmed: {warmup.warm_up()}")
    tables: list[tuple[str, Battlefield]] = [("dense 72x48, 300 polygons", dense_table(args.seed))]
    for k, kind in enumerate(("urban", "wooded", "mountain", "roll"), start=1):
        sc = generate(k, 48, 48, kind)
        tables.append((f"generated {sc.title}", sc.battlefield))
    prepared = []
    for label, bf in tables:
        index = build_index(bf, RULES, raster=True)
        prepared.append((label, bf, index, _cases(bf, index, args.seed, args.cases)))
    for route in ("kernels", "numpy"):
        los.USE_KERNELS = route == "kernels"
        print(f"{route} route:")
        for label, bf, index, cases in prepared:
            _run(label, bf, cases, index, args.repeat)
    los.USE_KERNELS = True
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
