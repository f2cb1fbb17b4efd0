"""Benchmark of routed moves (issue 31): the drag preview, the reach area, the roadmap.

Run:  python benchmarks/bench_routes.py [--seed N] [--samples N]

On the dense 72" x 48" table of ``bench_game.py`` (300 polygons, 40 figures):

1. **Roadmap** (once per table and base size): the terrain's corners, door and window
   spots and the runs between them (:func:`crdesk.geometry.routing._terrain`).
2. **Routed drag preview** per frame: what the move tool asks while the pointer moves
   over a spot whose straight run is refused: ``Game.plan_move`` (route, cost, farthest
   point) and the In Sight preview of the routed move.  Target: <= 16 ms a frame.
3. **Reach area** of a figure (:func:`crdesk.geometry.routing.reach_area`, on a press).
   Target: <= 30 ms.
4. **Group move plan** (``Game.plan_group_move``: every member routed and previewed, the
   refused ones' nearest places tried), the Leader dropped 3-9" away.  Target for a group
   of 6: <= 30 ms.

Prints the median and 90th percentile over random figures and spots.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import dense_game_table

from crdesk.game import Game
from crdesk.game.actions import MoveTo
from crdesk.geometry import routing, warmup


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    warmup.warm_up()
    game = Game.new(dense_game_table(args.seed), seed=args.seed)
    decision = game.awaiting()
    while decision is not None and "move" not in decision.accepts:
        game.play(decision.default or decision.options[0])
        decision = game.awaiting()
    assert decision is not None
    frame = game.frame_stack[-1]
    movers = [f for f in frame.data["members"] if game.fig(f).status.can_act]
    bf = game.battlefield
    table = bf.table
    t0 = time.perf_counter()
    routing._terrain(game.vis.index, table.width, table.height, 0.5, False)
    roadmap = (time.perf_counter() - t0) * 1000
    rng = random.Random(args.seed)
    frames: list[float] = []
    reaches: list[float] = []
    routed = 0
    for _ in range(args.samples):
        fid = rng.choice(movers)
        fig = game.fig(fid)
        ang = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(3, 9)
        goal = (
            min(max(fig.x + dist * math.sin(ang), 1), table.width - 1),
            min(max(fig.y - dist * math.cos(ang), 1), table.height - 1),
        )
        t0 = time.perf_counter()
        plan = game.plan_move(fid, goal)
        if plan.move is not None:
            game.preview(MoveTo(fid, goal))
        frames.append((time.perf_counter() - t0) * 1000)
        routed += plan.routed
        left = float(game.flags(fid).get("movement_left") or 8.0)
        others = [(o.x, o.y, o.radius) for o in bf.figures() if o.id != fid]
        t0 = time.perf_counter()
        routing.reach_area(bf, (fig.x, fig.y), left, game.rules, index=game.vis.index, bases=others)
        reaches.append((time.perf_counter() - t0) * 1000)

    leader = frame.data.get("leader")
    groups: list[float] = []
    for _ in range(max(10, args.samples // 4)):
        if leader is None:
            break
        fig = game.fig(leader)
        ang = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(3, 9)
        goal = (
            min(max(fig.x + dist * math.sin(ang), 1), table.width - 1),
            min(max(fig.y - dist * math.cos(ang), 1), table.height - 1),
        )
        t0 = time.perf_counter()
        game.plan_group_move(leader, goal)
        groups.append((time.perf_counter() - t0) * 1000)

    def line(name: str, times: list[float], target: float) -> str:
        times = sorted(times)
        p90 = times[int(len(times) * 0.9) - 1]
        return (
            f"  {name:26s} median {statistics.median(times):6.1f} ms   p90 {p90:6.1f} ms"
            f"   (target <= {target:g} ms)"
        )

    print(f'Routes on the dense 72"x48" table (seed {args.seed}, {args.samples} samples)')
    print(f"  roadmap (once per table)   {roadmap:6.0f} ms")
    print(line("drag preview a frame", frames, 16) + f"   {routed} routed")
    print(line("reach area", reaches, 30))
    if groups:
        print(line(f"group of {len(movers)} planned", groups, 30))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
