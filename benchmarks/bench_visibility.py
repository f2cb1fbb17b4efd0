"""Benchmark of the visibility service on a seeded dense table (issue 4).

Run:  python benchmarks/bench_visibility.py [--seed N] [--repeat N] [--moves N]

Every measure is warmed up, then timed many times; it prints the median and
the fastest run (the machine is shared, so medians carry other processes'
load) next to its target and the naive baseline (a Python loop of
``LineString.intersects`` over the same pairs and every blocking polygon, no
rules) measured in the same run.  The all-pairs figure locates every figure in
the terrain again (as after a terrain edit); the line below it keeps the
figures' places (as after a figure is added or removed).

The dense table: 72" x 48", 300 terrain polygons (woods, buildings with doors
and windows, hills with crests, impassable rock, walls), 100 figures in two
forces placed anywhere but on rock or walls, so about one in five stands in
woods or a building.
The large table is 96" x 72" with 1,000 polygons and 200 figures.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from shapely.geometry import LineString, Polygon

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crdesk.cohesion import Cohesion, groups
from crdesk.geometry import warmup
from crdesk.geometry.terrain_index import build_index
from crdesk.model import (
    Battlefield,
    Building,
    CoverObstacle,
    Figure,
    Force,
    Hill,
    Opening,
    OpeningKind,
    Role,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService


def _blob(rng: np.random.Generator, cx: float, cy: float, size: float, n: int = 8) -> Polygon:
    ang = np.sort(rng.uniform(0, 2 * math.pi, n))
    rad = size / 2 * rng.uniform(0.7, 1.0, n)
    return Polygon(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)]).convex_hull


def dense_table(
    seed: int = 4,
    n_figures: int = 100,
    n_polygons: int = 300,
    width: float = 72,
    height: float = 48,
) -> Battlefield:
    """A seeded, crowded table with every kind of terrain and figures in and out of it."""
    rng = np.random.default_rng(seed)
    terrain: list[TerrainFeature] = []
    kinds = rng.choice(
        ["woods", "building", "hill", "impassable", "cover"],
        n_polygons,
        p=[0.4, 0.2, 0.1, 0.15, 0.15],
    )
    for k, kind in enumerate(kinds):
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        fid = f"{kind}-{k}"
        if kind == "woods":
            terrain.append(
                TerrainFeature(fid, TerrainKind.WOODS, fid, _blob(rng, cx, cy, rng.uniform(2, 4)))
            )
        elif kind == "building":
            w, h = rng.uniform(1.5, 3.5), rng.uniform(1.5, 3.5)
            x0, y0 = cx - w / 2, cy - h / 2
            outline = Polygon([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])
            ops = [
                Opening(OpeningKind.DOOR, (x0 + w / 2 - 0.5, y0 + h), (x0 + w / 2 + 0.5, y0 + h)),
                Opening(OpeningKind.WINDOW, (x0 + w, y0 + h / 2 - 0.4), (x0 + w, y0 + h / 2 + 0.4)),
            ]
            terrain.append(Building(fid, TerrainKind.BUILDING, fid, outline, openings=ops))
        elif kind == "hill":
            size = rng.uniform(3, 6)
            ang = rng.uniform(0, math.pi)
            crest = LineString(
                [
                    (cx - size / 2.5 * math.cos(ang), cy - size / 2.5 * math.sin(ang)),
                    (cx + size / 2.5 * math.cos(ang), cy + size / 2.5 * math.sin(ang)),
                ]
            )
            terrain.append(Hill(fid, TerrainKind.HILL, fid, _blob(rng, cx, cy, size), crest=crest))
        elif kind == "impassable":
            terrain.append(
                TerrainFeature(
                    fid, TerrainKind.IMPASSABLE, fid, _blob(rng, cx, cy, rng.uniform(1, 2))
                )
            )
        else:
            w = rng.uniform(1.5, 3)
            ang = rng.uniform(0, math.pi)
            dx, dy = math.cos(ang) * w / 2, math.sin(ang) * w / 2
            outline = LineString([(cx - dx, cy - dy), (cx + dx, cy + dy)]).buffer(
                0.15, cap_style="flat"
            )
            terrain.append(CoverObstacle(fid, TerrainKind.COVER, fid, outline))
    bf = Battlefield(Table(width, height), terrain, [])
    blocked = [t.outline for t in terrain if t.kind in (TerrainKind.IMPASSABLE, TerrainKind.COVER)]
    from shapely import STRtree
    from shapely.geometry import Point

    tree = STRtree(blocked)
    forces = [Force("red", "Red", player=True), Force("blue", "Blue")]
    placed = 0
    while placed < n_figures:
        x, y = rng.uniform(1, width - 1), rng.uniform(1, height - 1)
        if len(tree.query(Point(x, y).buffer(0.6), predicate="intersects")):
            continue
        force = forces[placed % 2]
        force.figures.append(
            Figure(
                id=f"{force.id}-{placed // 2}",
                name=f"{force.id} {placed // 2}",
                rep=int(rng.integers(3, 6)),
                role=Role.STAR if placed < 2 else Role.GRUNT,
                x=x,
                y=y,
                facing=float(rng.uniform(0, 360)),
            )
        )
        placed += 1
    for force in forces:
        bf.add_force(force)
    return bf


def timed_ms(fn: Callable[[], object], repeat: int, warmup: int = 3) -> list[float]:
    """Run ``fn`` ``warmup`` times untimed, then ``repeat`` times timed (milliseconds)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def _blocking_polys(bf: Battlefield) -> list[Polygon]:
    kinds = (TerrainKind.WOODS, TerrainKind.BUILDING, TerrainKind.IMPASSABLE, TerrainKind.HILL)
    return [t.outline for t in bf.terrain if t.kind in kinds]


def naive_all_pairs(bf: Battlefield) -> int:
    """The naive baseline: one ``LineString.intersects`` per pair and polygon, no rules."""
    polys = _blocking_polys(bf)
    figs = list(bf.figures())
    seen = 0
    for i in range(len(figs)):
        for j in range(i + 1, len(figs)):
            line = LineString([figs[i].position, figs[j].position])
            if not any(line.intersects(p) for p in polys):
                seen += 1
    return seen


def naive_row(bf: Battlefield, figure_id: str) -> int:
    """The naive baseline for one figure against all others."""
    polys = _blocking_polys(bf)
    me = bf.figure(figure_id)
    seen = 0
    for other in bf.figures():
        if other.id != figure_id:
            line = LineString([me.position, other.position])
            if not any(line.intersects(p) for p in polys):
                seen += 1
    return seen


Row = tuple[str, list[float], float | None, list[float] | None]


def _moves(bf: Battlefield, seed: int, count: int) -> list[tuple[str, float, float, float, float]]:
    rng = np.random.default_rng(seed)
    figs = list(bf.figures())
    out = []
    for _ in range(count):
        f = figs[int(rng.integers(len(figs)))]
        out.append((f.id, f.x, f.y, float(rng.uniform(-2, 2)), float(rng.uniform(-2, 2))))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=30, help="timed runs of each full measure")
    parser.add_argument("--moves", type=int, default=200, help="timed single-figure moves")
    args = parser.parse_args(argv)
    rules = RulesOptions()
    print(f"# sight kernels compiled: {warmup.warm_up()}")
    bf = dense_table(args.seed)
    rows: list[Row] = []
    naive_full = timed_ms(lambda: naive_all_pairs(bf), 3, warmup=1)
    rows.append(("naive baseline (LineString.intersects loop), all pairs", naive_full, None, None))
    rows.append(
        (
            "terrain index rebuild, 300 polygons",
            timed_ms(lambda: build_index(bf, rules), args.repeat),
            60,
            None,
        )
    )

    service = VisibilityService(bf, rules)
    service.matrix()

    def full_cold() -> None:
        # as after a terrain or rules edit: every figure located in the terrain again
        service.index.cache.pop("places", None)
        service._full = True
        service.matrix()

    def full_warm() -> None:
        # as after a figure is added or removed: figures that did not move keep their place
        service._full = True
        service.matrix()

    rows.append(
        (
            "all-pairs LOS + cover, 100 figures (4,950 pairs)",
            timed_ms(full_cold, args.repeat),
            20,
            naive_full,
        )
    )
    rows.append(
        (
            "  the same, figures' places cached (figure added/removed)",
            timed_ms(full_warm, args.repeat),
            20,
            naive_full,
        )
    )
    matrix = service.matrix()
    vis = matrix.visible
    print(
        f"# table: {len(bf.terrain)} polygons, {len(matrix.ids)} figures, "
        f"{int(vis.sum())} of {vis.size - len(matrix.ids)} ordered pairs in sight"
    )

    rows.append(
        (
            "full cohesion recomputation",
            timed_ms(lambda: groups(bf, service.matrix(), rules), args.repeat),
            2,
            None,
        )
    )

    moves = _moves(bf, args.seed + 1, args.moves)
    naive_one = [timed_ms(partial(naive_row, bf, fid), 1, warmup=0)[0] for fid, *_ in moves[:20]]
    cohesion = Cohesion(service)

    def one_move(fid: str, x: float, y: float, dx: float, dy: float) -> float:
        bf.move_figure(fid, x + dx, y + dy)
        t = time.perf_counter()
        service.matrix()
        cohesion.update([fid])
        spent = (time.perf_counter() - t) * 1000
        bf.move_figure(fid, x, y)
        service.matrix()
        cohesion.update([fid])
        return spent

    for move in moves[:10]:  # warm-up
        one_move(*move)
    times = [one_move(*move) for move in moves]
    rows.append(("one figure moved: cached matrix + cohesion graph", times, 1, naive_one))

    def drag(fid: str, x: float, y: float, dx: float, dy: float) -> list[float]:
        # what the editor does on every mouse move: 20 steps of 0.25", then the drop back
        norm = max(math.hypot(dx, dy), 1e-9)
        spent = []
        for step in range(1, 21):
            bf.move_figure(fid, x + dx / norm * 0.25 * step, y + dy / norm * 0.25 * step)
            t = time.perf_counter()
            service.matrix()
            cohesion.update([fid])
            spent.append((time.perf_counter() - t) * 1000)
        bf.move_figure(fid, x, y)
        service.matrix()
        cohesion.update([fid])
        return spent

    drag_times = [t for move in moves[:20] for t in drag(*move)]
    rows.append(('  the same, dragged in 0.25" steps (20 figures x 20)', drag_times, 1, naive_one))

    def one_row(fid: str, x: float, y: float, dx: float, dy: float) -> float:
        bf.move_figure(fid, x + dx, y + dy)
        t = time.perf_counter()
        service.row(fid)
        spent = (time.perf_counter() - t) * 1000
        bf.move_figure(fid, x, y)
        service.matrix()  # the drop: not timed here
        return spent

    for move in moves[:10]:
        one_row(*move)
    row_times = [one_row(*move) for move in moves]
    rows.append(
        ("one figure moved vs all others: drag row (LOS+cover+links)", row_times, 1, naive_one)
    )

    big = dense_table(args.seed, n_figures=200, n_polygons=1000, width=96, height=72)
    big_service = VisibilityService(big, rules)
    big_service.matrix()

    def big_full() -> None:
        big_service.index.cache.pop("places", None)
        big_service._full = True
        big_service.matrix()

    rows.append(
        (
            "all-pairs, 200 figures x 1,000 polygons (19,900 pairs)",
            timed_ms(big_full, max(5, args.repeat // 3)),
            200,
            timed_ms(lambda: naive_all_pairs(big), 1, warmup=0),
        )
    )

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# load average at the end: {load:.2f} on {os.cpu_count()} cores")
    print("# median and fastest of n timed runs after a warm-up; naive = median of its runs")
    width = max(len(r[0]) for r in rows)
    head = f"{'measure':<{width}}  {'n':>4}  {'median ms':>9}  {'min ms':>8}  {'target':>6}"
    print(f"{head}  {'naive ms':>8}")
    for name, times, target, naive in rows:
        med, low = statistics.median(times), min(times)
        tgt = "-" if target is None else f"{target:g}"
        nv = "-" if naive is None else f"{statistics.median(naive):.1f}"
        mark = "" if target is None else ("  ok" if med <= target else "  MISSED")
        if target is not None and med > target >= low:
            mark = "  ok at min, MISSED at median"
        print(
            f"{name:<{width}}  {len(times):>4}  {med:>9.2f}  {low:>8.2f}  {tgt:>6}  {nv:>8}{mark}"
        )


if __name__ == "__main__":
    main()
