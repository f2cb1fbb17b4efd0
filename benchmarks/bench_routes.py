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
   refused ones' nearest places tried) for a group of six in a 2 x 3 block on open
   ground (:func:`group_of_six`), the Leader dropped 3-9" away.  Target: <= 30 ms.

Prints the median and 90th percentile over random figures and spots.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import dense_game_table
from shapely.geometry import box

from crdesk.game import Game
from crdesk.game.actions import Point2
from crdesk.geometry import routing, warmup
from crdesk.model import Scenario


def spot_near(rng: random.Random, x: float, y: float, width: float, height: float) -> Point2:
    """A spot 3-9" from (x, y) in a random direction, on the table."""
    ang = rng.uniform(0, 2 * math.pi)
    dist = rng.uniform(3, 9)
    return (
        min(max(x + dist * math.sin(ang), 1), width - 1),
        min(max(y - dist * math.cos(ang), 1), height - 1),
    )


def group_of_six(seed: int) -> Scenario:
    """The dense table with the player's first six figures in a 2 x 3 block, 2" apart, on
    open ground in the player's third (one group, 6.2); the other player figures leave."""
    scenario = dense_game_table(seed)
    bf = scenario.battlefield
    player = next(f for f in bf.forces if f.player)
    enemies = [(o.x, o.y) for o in bf.figures() if o.side != player.id]
    block = [(-2.0, -1.0), (0.0, -1.0), (2.0, -1.0), (-2.0, 1.0), (0.0, 1.0), (2.0, 1.0)]
    w, h = bf.table.width, bf.table.height

    def open_ground(x: float, y: float) -> bool:
        if not (2 <= x <= w - 2 and 2 <= y <= h - 2) or bf.features_at(x, y):
            return False
        return all(math.dist((x, y), e) > 12 for e in enemies)

    for cy in [h - 3 - 0.5 * k for k in range(int(h * 0.8))]:
        for cx in [3 + 0.5 * k for k in range(int(2 * w) - 12)]:
            spots = [(cx + ox, cy + oy) for ox, oy in block]
            ground = box(cx - 2.6, cy - 1.6, cx + 2.6, cy + 1.6)  # nothing between them
            if all(open_ground(x, y) for x, y in spots) and not any(
                t.outline.intersects(ground) for t in bf.terrain
            ):
                break
        else:
            continue
        break
    else:
        raise SystemExit("no open ground for the group of six")
    player.figures = player.figures[:6]
    for fig, (x, y) in zip(player.figures, spots, strict=True):
        fig.x, fig.y, fig.facing = x, y, 0.0
    return scenario


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
        goal = spot_near(rng, fig.x, fig.y, table.width, table.height)
        t0 = time.perf_counter()
        plan = game.plan_move(fid, goal)
        if plan.move is not None:  # the In Sight stop of the move planned (as the tool)
            game.preview(plan.move)
        frames.append((time.perf_counter() - t0) * 1000)
        routed += plan.routed
        left = float(game.flags(fid).get("movement_left") or 8.0)
        others = [(o.x, o.y, o.radius) for o in bf.figures() if o.id != fid]
        t0 = time.perf_counter()
        routing.reach_area(bf, (fig.x, fig.y), left, game.rules, index=game.vis.index, bases=others)
        reaches.append((time.perf_counter() - t0) * 1000)

    group_game = Game.new(group_of_six(args.seed), seed=args.seed)
    decision = group_game.awaiting()
    while decision is not None and "move" not in decision.accepts:
        group_game.play(decision.default or decision.options[0])
        decision = group_game.awaiting()
    routing.prepare(group_game.battlefield, group_game.rules, group_game.vis.index)  # as the app
    gc.freeze()  # as the play mode does once the roadmaps are built: no full sweeps of them
    group_frame = group_game.frame_stack[-1]
    leader = group_frame.data.get("leader")
    size = len(group_frame.data["members"])
    groups: list[float] = []
    for _ in range(max(10, args.samples // 4)):
        if leader is None:
            break
        fig = group_game.fig(leader)
        goal = spot_near(rng, fig.x, fig.y, table.width, table.height)
        t0 = time.perf_counter()
        group_game.plan_group_move(leader, goal)
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
        print(line(f"group of {size} planned", groups, 30))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
