"""Benchmark of the game controller (crdesk.game): steps, moves, replay, undo, auto games.

Run:  python benchmarks/bench_game.py [--seed N] [--repeat N] [--games N | --quick]
      [--profile auto|none|MEASURE]

The table is bench_visibility.py's seeded dense table -- 72" x 48", 300 terrain
polygons (woods, buildings, hills, rock, walls) -- with 40 figures instead of
its 100: two forces of 20, the player's in the near third (y > 32, facing the
far edge) and the enemy's in the far third (y < 16, facing the near edge), a
Star each.  The first three pairs are placed (by rejection) in mutual sight, so
there is fire from the first turn.

* **Ordinary actions** (activate, fire, end activation): BookPolicy plays the
  game from the start; the first states awaiting each kind of action are
  forked.  A sample forks such a state again, asks it what it awaits (as the
  GUI would before the player chooses -- this warms the fork's sight matrix),
  and times only ``game.play(action)``.  Every sample of a state starts from
  the same state and rolls the same dice.
* **8" moves walked with In Sight checks**: from those activation states, a
  member moves 8" in a straight line on open ground (the path's cost equals
  its length); one move sees no new enemy, another stops when one comes into
  sight (refined to 1/8", then the In Sight free-move frame is pushed).
* **Replay**: BookPolicy plays both sides of one game (max_turns large) to
  1,000 steps; ``Game.replay`` of its steps is timed, and so is ``load_game``
  of the saved ``.crgame`` (which also checks the state hash every 10 steps).
* **Undo** on the 1,000-step game (practice undo on): the undo of step 1,000
  (the worst place: 24 steps replayed from the checkpoint at 975), redone
  between samples; then 25 undos in a row from 1,000 to 975 for the spread.
* **crdesk game auto**: the whole process, on a 48" x 48" generated table with
  10 figures a side; ``python -c`` running play_policies if the ``game``
  subcommand is missing.
* **Auto games**: ``--games`` BookPolicy games (default 200, ``--quick`` 20) of
  10 turns on generated 48" x 48" tables (seed k, the overall type rolled),
  10 figures a side; every exception is printed with its seed and traceback.

It prints the median, min and max of each measure next to its target, then
profiles (cProfile) the measure that is slowest relative to its target.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from shapely import STRtree
from shapely.geometry import Point

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_visibility import dense_table  # noqa: E402

from crdesk.ai.policy import BookPolicy, play_policies  # noqa: E402
from crdesk.game import Event, Game, GameSettings  # noqa: E402
from crdesk.game.actions import Activate, End, Fire, Move  # noqa: E402
from crdesk.game.savefile import load_game, save_game  # noqa: E402
from crdesk.generator import generate  # noqa: E402
from crdesk.geometry import kernels, warmup  # noqa: E402
from crdesk.model import Battlefield, Figure, Force, Role, Scenario, TerrainKind  # noqa: E402
from crdesk.scenario import save  # noqa: E402
from crdesk.visibility import VisibilityService  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
CRDESK = ROOT / ".venv" / "bin" / "crdesk"
LONG_GAME = 1000
"""Steps of the long game (replay and undo)."""
BIG_TURNS = 10_000
"""max_turns of the long game: in effect no turn limit."""
MOVE = 8.0
TARGETS = {  # milliseconds
    "activate": 2.0,
    "fire": 2.0,
    "end": 2.0,
    "move open": 5.0,
    "move sighting": 5.0,
    "replay": 1000.0,
    "undo": 50.0,
    "cli": 2000.0,
}


# ----------------------------------------------------------------------------
# Tables and forces


def _free_spot(
    rng: np.random.Generator,
    tree: STRtree,
    taken: list[tuple[float, float]],
    width: float,
    y_range: tuple[float, float],
) -> tuple[float, float]:
    """A random point in the band, off rock and walls, not on another base."""
    while True:
        x, y = float(rng.uniform(1, width - 1)), float(rng.uniform(*y_range))
        if len(tree.query(Point(x, y).buffer(0.6), predicate="intersects")):
            continue
        if any(math.hypot(x - a, y - b) < 1.3 for a, b in taken):
            continue
        return x, y


def head_to_head(
    battlefield: Battlefield,
    seed: int,
    per_side: int,
    *,
    mutual: int = 0,
    rules: object | None = None,
) -> Battlefield:
    """Two forces of ``per_side`` on a copy of the terrain: player near third, enemy far third.

    The first ``mutual`` pairs are re-drawn until they are in mutual sight.
    """
    table = battlefield.table
    bf = Battlefield(table, list(battlefield.terrain), [])
    rng = np.random.default_rng(seed)
    blocked = [
        t.outline
        for t in bf.terrain
        if t.kind in (TerrainKind.IMPASSABLE, TerrainKind.COVER, TerrainKind.BUILDING)
    ]
    tree = STRtree(blocked)
    w, h = table.width, table.height
    bands = {"p": (h * 2 / 3 + 0.5, h - 1.0), "e": (1.0, h / 3 - 0.5)}
    facing = {"p": 0.0, "e": 180.0}
    forces = {"p": Force("p", "Player", player=True), "e": Force("e", "Enemy")}
    taken: list[tuple[float, float]] = []
    for n in range(per_side):
        for side, force in forces.items():
            x, y = _free_spot(rng, tree, taken, w, bands[side])
            taken.append((x, y))
            star = n == 0
            rep = 5 if star else int(rng.integers(3, 6))
            force.figures.append(
                Figure(
                    id=f"{side}{n}",
                    name=f"{force.name} {n}",
                    rep=rep,
                    role=Role.STAR if star else Role.GRUNT,
                    star_power=rep if star else None,
                    x=x,
                    y=y,
                    facing=facing[side],
                )
            )
    for force in forces.values():
        bf.add_force(force)
    if mutual:
        from crdesk.options import RulesOptions

        vis = VisibilityService(bf, rules if rules is not None else RulesOptions())  # type: ignore[arg-type]
        for n in range(mutual):
            for _ in range(20_000):
                others = [(f.x, f.y) for f in bf.figures() if f.id not in (f"p{n}", f"e{n}")]
                px, py = _free_spot(rng, tree, others, w, (h * 2 / 3 + 0.5, h * 2 / 3 + 4))
                ex, ey = _free_spot(rng, tree, others, w, (h / 3 - 4, h / 3 - 0.5))
                bf.move_figure(f"p{n}", px, py)
                bf.move_figure(f"e{n}", ex, ey)
                m = vis.matrix()
                i, j = m.ids.index(f"p{n}"), m.ids.index(f"e{n}")
                if m.visible[i, j] and m.visible[j, i]:
                    break
    return bf


def dense_game_table(seed: int) -> Scenario:
    """The 72" x 48" table of 300 polygons with 40 figures (see the module's docstring)."""
    terrain = dense_table(seed, n_figures=0)
    return Scenario(head_to_head(terrain, seed, 20, mutual=3), title="bench_game dense table")


def generated_encounter(seed: int, per_side: int = 10, size: float = 48) -> Scenario:
    """A generated table (the type rolled) with ``per_side`` figures each side, head to head."""
    scenario = generate(seed, size, size, "roll")
    scenario.battlefield = head_to_head(scenario.battlefield, seed, per_side)
    return scenario


def mutual_pairs(scenario: Scenario) -> tuple[int, int]:
    """(player-enemy pairs in mutual sight, pairs with either seeing the other)."""
    vis = VisibilityService(scenario.battlefield, scenario.rules)
    m = vis.matrix()
    both = either = 0
    for i, a in enumerate(m.ids):
        for j, b in enumerate(m.ids):
            if a.startswith("p") and b.startswith("e"):
                both += bool(m.visible[i, j] and m.visible[j, i])
                either += bool(m.visible[i, j] or m.visible[j, i])
    return both, either


# ----------------------------------------------------------------------------
# Measures


@dataclass
class Row:
    name: str
    times: list[float]
    target: float | None
    note: str = ""
    redo: Callable[[], object] | None = field(default=None, repr=False)
    """Runs the measured work once more, for the profile."""
    argv: list[str] | None = None
    """For a process: ``python argv`` is profiled with ``-m cProfile`` instead."""


def _ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000


def time_play(state: Game, action: object) -> tuple[float, list[Event]]:
    """Fork the state, warm it as the GUI would (awaiting), time only ``play``."""
    twin = state.fork()
    twin.awaiting()
    start = time.perf_counter()
    events = twin.play(action)  # type: ignore[arg-type]
    return _ms(start), events


def _move_kind(events: list[Event]) -> str | None:
    for ev in events:
        if ev.kind == "move":
            return "move sighting" if ev.section == "7.6" else "move open"
    return None


def find_states(
    scenario: Scenario, seed: int, per_kind: int = 3
) -> dict[str, list[tuple[Game, object]]]:
    """Walk a BookPolicy game and fork the first states awaiting each kind of action."""
    game = Game.new(scenario, seed=seed, settings=GameSettings(max_turns=BIG_TURNS))
    policy = BookPolicy()
    found: dict[str, list[tuple[Game, object]]] = defaultdict(list)
    tried_moves: set[tuple[int, str]] = set()

    def need(kind: str) -> bool:
        return len(found[kind]) < per_kind

    for _ in range(600):
        decision = game.awaiting()
        if decision is None:
            break
        opts = decision.options
        if decision.kind == "activate" and need("activate"):
            act = next((o for o in opts if isinstance(o, Activate)), None)
            if act is not None:
                found["activate"].append((game.fork(), act))
        if decision.kind == "act":
            if need("end"):
                found["end"].append((game.fork(), End()))
            fire = next((o for o in opts if isinstance(o, Fire)), None)
            if fire is not None and need("fire"):
                found["fire"].append((game.fork(), fire))
            if need("move open") or need("move sighting"):
                frame = game.frames[-1]
                for fid in frame.data["members"]:
                    key = (len(game.history), fid)
                    if key in tried_moves or fid in frame.data["moved"]:
                        continue
                    tried_moves.add(key)
                    if game.movement_left(frame, fid) < MOVE - 1e-9:
                        continue
                    fig = game.fig(fid)
                    if fig.prone:
                        continue
                    for bearing in range(0, 360, 20):
                        a = math.radians(bearing)
                        end = (fig.x + MOVE * math.sin(a), fig.y - MOVE * math.cos(a))
                        move = Move(fid, (end,))
                        if game.legal(move) is not None:
                            continue  # off the table, into rock, woods (costs more), a base
                        fork = game.fork()
                        kind = _move_kind(fork.play(move))
                        if kind is not None and need(kind):
                            found[kind].append((game.fork(), move))
                            break
                    if not (need("move open") or need("move sighting")):
                        break
        if not any(need(k) for k in ("activate", "end", "fire", "move open", "move sighting")):
            break
        action, why = policy.decide(game, decision)
        game.play(action, why=why)
    return found


def measure_actions(scenario: Scenario, seed: int, repeat: int) -> tuple[list[Row], str]:
    found = find_states(scenario, seed)
    rows = []
    lines = []
    labels = {
        "activate": "activate a group",
        "fire": "fire (with reactions, until the next decision)",
        "end": "end an activation",
        "move open": '8" move in the open, no new sighting (8 In Sight checks)',
        "move sighting": '8" move that stops at a sighting (+ 1/8" refinement)',
    }
    for kind, label in labels.items():
        states = found.get(kind, [])
        if not states:
            rows.append(Row(label, [], TARGETS[kind], "no such state found"))
            continue
        for state, act in states:  # warm-up, one each
            time_play(state, act)
        times = []
        for k in range(repeat):
            state, act = states[k % len(states)]
            times.append(time_play(state, act)[0])
        acts = "; ".join(f"step {len(s.history) + 1} '{a}'" for s, a in states)
        lines.append(f"#   {kind}: {acts}")
        state0, act0 = states[0]

        def redo(state: Game = state0, act: object = act0) -> None:
            for _ in range(50):
                time_play(state, act)

        rows.append(Row(label, times, TARGETS[kind], f"{len(states)} state(s)", redo))
    return rows, "\n".join(lines)


def play_long_game(
    scenario: Scenario, seed: int, steps: int
) -> tuple[Game, dict[str, list[float]]]:
    """One BookPolicy game of up to ``steps`` steps (start included), each play timed."""
    game = Game.new(scenario, seed=seed, settings=GameSettings(max_turns=BIG_TURNS))
    policies = {side: BookPolicy() for side in game.sides}
    per_kind: dict[str, list[float]] = defaultdict(list)
    while len(game.history) < steps:
        decision = game.awaiting()
        if decision is None:
            break
        action, why = policies[decision.actor].decide(game, decision)
        start = time.perf_counter()
        game.play(action, why=why)
        per_kind[str(action).split()[0]].append(_ms(start))
    return game, per_kind


FALLBACK = """\
import sys
from crdesk.scenario import load
from crdesk.game import Game, GameSettings
from crdesk.ai.policy import BookPolicy, play_policies
g = Game.new(load(sys.argv[1]), seed=int(sys.argv[2]), settings=GameSettings(max_turns=10))
n = play_policies(g, {s: BookPolicy() for s in g.sides})
print(n, "steps", g.outcome)
"""
"""What the benchmark times when ``crdesk game auto`` does not exist yet."""


def cli_argv(scenario_path: str, seed: int, use_cli: bool, tmp: Path) -> list[str]:
    """The command timed: ``crdesk game auto`` or, without it, a script doing the same."""
    if use_cli:
        return [str(CRDESK), "game", "auto", scenario_path, "--seed", str(seed), "--turns", "10"]
    script = tmp / "auto_game.py"
    script.write_text(FALLBACK)
    return [str(script), scenario_path, str(seed)]


def run_process(argv: list[str]) -> tuple[float, int, str]:
    """Run ``python argv`` (the crdesk script is Python too); (ms, exit code, last line)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [str(PYTHON), *argv], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    spent = _ms(start)
    out = (proc.stdout.strip().splitlines() or [""])[-1] if proc.returncode == 0 else proc.stderr
    return spent, proc.returncode, out


def cli_available() -> bool:
    if not CRDESK.exists():
        return False
    proc = subprocess.run(
        [str(CRDESK), "game", "auto", "--help"], capture_output=True, text=True, timeout=60
    )
    return proc.returncode == 0 and "--turns" in proc.stdout


def _one_auto_game(seed: int, per_side: int = 10) -> tuple[int, float, str | None, str]:
    """One BookPolicy game of 10 turns on generated table ``seed``: (seed, ms, error, end)."""
    start = time.perf_counter()
    end = ""
    error = None
    try:
        scenario = generated_encounter(seed, per_side)
        game = Game.new(scenario, seed=seed, settings=GameSettings(max_turns=10))
        played = play_policies(game, {s: BookPolicy() for s in game.sides})
        if game.awaiting() is not None:
            raise RuntimeError(f"the game stopped unfinished after {played} steps")
        out = game.outcome
        end = "draw (turn limit)" if out is not None and out.winner is None else "won"
    except Exception:
        error = f"seed {seed}:\n{traceback.format_exc()}"
    return seed, _ms(start), error, end


def auto_games(count: int, jobs: int) -> tuple[float, list[float], list[str], Counter[str]]:
    """``count`` auto games on ``jobs`` processes: (wall s, per-game ms, errors, endings)."""
    start = time.perf_counter()
    if jobs > 1:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp
        with ctx.Pool(jobs) as pool:  # forked: the workers inherit the warm kernels
            results = list(pool.imap_unordered(_one_auto_game, range(count), chunksize=1))
    else:
        results = [_one_auto_game(seed) for seed in range(count)]
    results.sort()
    errors = [r[2] for r in results if r[2] is not None]
    ends = Counter(r[3] for r in results if r[2] is None)
    return time.perf_counter() - start, [r[1] for r in results], errors, ends


# ----------------------------------------------------------------------------
# Output


def print_rows(rows: list[Row]) -> None:
    width = max(len(r.name) for r in rows)
    head = f"{'measure':<{width}}  {'n':>4}  {'median ms':>9}  {'min ms':>8}  {'max ms':>8}"
    print(f"{head}  {'target':>6}  verdict")
    for r in rows:
        if not r.times:
            print(f"{r.name:<{width}}  {0:>4}  {'-':>9}  {'-':>8}  {'-':>8}  {'-':>6}  {r.note}")
            continue
        med, low, high = statistics.median(r.times), min(r.times), max(r.times)
        tgt = "-" if r.target is None else f"{r.target:g}"
        mark = ""
        if r.target is not None:
            mark = "ok" if med <= r.target else "MISSED"
            if med > r.target >= low:
                mark = "ok at min, MISSED at median"
        note = f"  ({r.note})" if r.note else ""
        print(
            f"{r.name:<{width}}  {len(r.times):>4}  {med:>9.2f}  {low:>8.2f}  {high:>8.2f}"
            f"  {tgt:>6}  {mark}{note}"
        )


def profile(row: Row, tmp: Path, top: int = 16) -> None:
    if row.argv is not None:
        out = tmp / "process.prof"
        cmd = [str(PYTHON), "-m", "cProfile", "-o", str(out), *row.argv]
        subprocess.run(cmd, capture_output=True, cwd=ROOT, timeout=300, check=True)
        prof: cProfile.Profile | str = str(out)
    else:
        assert row.redo is not None
        prof = cProfile.Profile()
        prof.enable()
        row.redo()
        prof.disable()
    for key in ("tottime", "cumulative"):
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(key)
        stats.print_stats(top)
        text = buf.getvalue()
        body = text[text.find("   ncalls") :] if "   ncalls" in text else text
        print(f"# profile of '{row.name}', top {top} by {key}:")
        print(body.rstrip())


def long_game_rows(
    scenario: Scenario, table_seed: int, seed: int, quick: bool, repeat: int, tmp: Path
) -> list[Row]:
    """The 1,000-step game: per-kind step times as played, replay, load, undo."""
    rows: list[Row] = []
    start = time.perf_counter()
    game, per_kind = play_long_game(scenario, seed, LONG_GAME)
    tries = 0
    while len(game.history) < LONG_GAME and tries < 4:  # ended early: more figures, other seeds
        tries += 1
        seed += 1
        terrain = dense_table(table_seed, n_figures=0)
        scenario = Scenario(head_to_head(terrain, seed, 20 + 10 * tries, mutual=3))
        game, per_kind = play_long_game(scenario, seed, LONG_GAME)
    played_s = time.perf_counter() - start
    steps = list(game.history)
    nsteps = len(steps)
    words = Counter(s.action.split()[0] for s in steps)
    print(
        f"# long game: BookPolicy both sides, seed {seed}, "
        f"{len(list(scenario.battlefield.figures()))} figures, {nsteps} steps over "
        f"{game.turn} turns in {played_s:.2f} s"
        + (f", ended early: {game.outcome}" if game.outcome else "")
        + "; steps: "
        + ", ".join(f"{w} {n}" for w, n in words.most_common())
    )
    scale = LONG_GAME / nsteps
    for word in ("activate", "end", "fire", "move", "duckback", "pass"):
        if per_kind.get(word):
            target = TARGETS.get(word if word != "move" else "move open")
            name = f"  in that game: play '{word}' (as played, no fork)"
            rows.append(Row(name, per_kind[word], target))
    settings = GameSettings(max_turns=BIG_TURNS)

    def replay_once() -> Game:
        return Game.replay(scenario, steps, seed=seed, settings=settings)

    same = replay_once().state_hash() == game.state_hash()
    replays = []
    for _ in range(3):
        t0 = time.perf_counter()
        replay_once()
        replays.append(_ms(t0) * scale)
    note = f"{nsteps} steps" + (f", scaled x{scale:.2f}" if scale != 1 else "")
    note += ", same state hash" if same else ", STATE HASH DIFFERS"
    name = f"Game.replay of the {LONG_GAME:,}-step game"
    rows.append(Row(name, replays, TARGETS["replay"], note, replay_once))

    save_path = tmp / "long.crgame"
    t0 = time.perf_counter()
    save_game(game, save_path)
    save_ms = _ms(t0)
    loads = []
    for _ in range(1 if quick else 2):
        t0 = time.perf_counter()
        loaded = load_game(save_path)
        loads.append(_ms(t0) * scale)
    ok = loaded.complete and loaded.game.state_hash() == game.state_hash()
    note = f"{save_path.stat().st_size // 1024} KB; save_game {save_ms:.0f} ms"
    rows.append(
        Row(
            "  load_game of it saved (.crgame, hash checks)",
            loads,
            None,
            note + ("" if ok else ", LOAD DIFFERS"),
            lambda: load_game(save_path),
        )
    )

    practice = GameSettings(max_turns=BIG_TURNS, practice_undo=True)
    ugame = Game.replay(scenario, steps, seed=seed, settings=practice)
    full_hash = ugame.state_hash()
    undos = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step = ugame.undo()
        undos.append(_ms(t0))
        ugame.play(step.action, why=step.why)  # redo, untimed
    redo_ok = ugame.state_hash() == full_hash

    def undo_redo() -> None:
        for _ in range(10):
            step = ugame.undo()
            ugame.play(step.action, why=step.why)

    note = "redone between samples" + ("" if redo_ok else ", REDO DIFFERS")
    name = f"undo() of step {nsteps} (practice undo)"
    rows.append(Row(name, undos, TARGETS["undo"], note, undo_redo))
    sweep = []
    for _ in range(25):
        t0 = time.perf_counter()
        ugame.undo()
        sweep.append(_ms(t0))
    rows.append(Row(f"  25 undos in a row, {nsteps} -> {nsteps - 25}", sweep, TARGETS["undo"]))
    return rows


def cli_rows(seed: int, quick: bool, tmp: Path) -> list[Row]:
    """``crdesk game auto`` of a 10-turn encounter, as a whole process."""
    scenario = generated_encounter(seed, 10, 48)
    path = tmp / "encounter.crdesk"
    save(scenario, path)
    use_cli = cli_available()
    argv = cli_argv(str(path), seed, use_cli, tmp)
    runs = []
    outs: list[str] = []
    failed: list[str] = []
    for k in range(4):
        spent, rc, out = run_process(argv)
        if k:
            runs.append(spent)  # the first run warms the disk caches
        (outs if rc == 0 else failed).append(out)
    how = (
        "`crdesk game auto SCENARIO --seed N --turns 10`"
        if use_cli
        else "NO `crdesk game auto` yet: a python script loading the scenario and running "
        "play_policies(BookPolicy), max_turns=10"
    )
    t = scenario.battlefield.table
    print(
        f'# CLI encounter: generated {t.width:g}" x {t.height:g}" table (seed {seed}, '
        f"{len(scenario.battlefield.terrain)} features), 10 figures a side; timed {how}"
    )
    if outs:
        print(f"#   its last line: {outs[-1][:200]}")
    for err in failed[:1]:
        print(f"#   FAILED: {err.strip()[-800:]}")
    name = "crdesk game auto" if use_cli else "auto-game script"
    rows = [
        Row(
            f"{name}, 10 turns, 20 figures (whole process)",
            runs,
            TARGETS["cli"],
            f"{len(failed)} failed run(s)" if failed else "",
            argv=argv,
        )
    ]
    base = []
    imports = "import crdesk.cli, crdesk.scenario, crdesk.game, crdesk.ai.policy"
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([str(PYTHON), "-c", imports], check=True, cwd=ROOT)
        base.append(_ms(t0))
    rows.append(Row("  of which: python start + crdesk imports", base, None))
    ins = []
    for _ in range(3):
        t0 = time.perf_counter()
        _auto_in_process(str(path), seed)
        ins.append(_ms(t0))
    rows.append(
        Row(
            "  the same game in this process (numba kernels warm)",
            ins,
            None,
            redo=lambda: _auto_in_process(str(path), seed),
        )
    )
    return rows


def _auto_in_process(path: str, seed: int) -> None:
    from crdesk.scenario import load as load_scenario

    game = Game.new(load_scenario(path), seed=seed, settings=GameSettings(max_turns=10))
    play_policies(game, {s: BookPolicy() for s in game.sides})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4, help="table and dice seed (default 4)")
    parser.add_argument("--repeat", type=int, default=30, help="timed samples per action kind")
    parser.add_argument("--games", type=int, default=200, help="auto games (default 200)")
    parser.add_argument("--quick", action="store_true", help="20 auto games, fewer repeats")
    parser.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="processes for the auto games"
    )
    parser.add_argument(
        "--profile",
        default="auto",
        help="profile the measure slowest against its target (auto), none, or a measure's name",
    )
    args = parser.parse_args(argv)
    games = 20 if args.quick else args.games
    repeat = max(5, args.repeat // 3) if args.quick else args.repeat
    began = time.perf_counter()

    ready = warmup.warm_up()
    route = "numba kernels" if ready and kernels.usable() else "numpy route (no numba)"
    print(f"# sight kernels compiled: {ready}; this process judges sight on the {route}")

    scenario = dense_game_table(args.seed)
    both, either = mutual_pairs(scenario)
    bf = scenario.battlefield
    print(
        f'# table: {bf.table.width:g}" x {bf.table.height:g}", {len(bf.terrain)} polygons, '
        f"{len(list(bf.figures()))} figures (20 a side, thirds), {both} player-enemy pairs in "
        f"mutual sight, {either} with one seeing the other"
    )
    rows: list[Row] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench_game_"))
    try:
        action_rows, where = measure_actions(scenario, args.seed, repeat)
        print("# action states (forked from a BookPolicy game of the table):")
        print(where)
        rows.extend(action_rows)
        rows.extend(long_game_rows(scenario, args.seed, args.seed, args.quick, repeat, tmp))
        rows.extend(cli_rows(args.seed, args.quick, tmp))

        total, gtimes, errors, ends = auto_games(games, args.jobs)
        rows.append(
            Row(
                f'auto game, generated 48"x48" table, 10 turns (x{games})',
                gtimes,
                None,
                ", ".join(f"{n} {k}" for k, n in ends.most_common()),
                redo=lambda: _one_auto_game(int(np.argmax(gtimes))),
            )
        )

        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"# load average at the end: {load:.2f} on {os.cpu_count()} cores")
        print("# after a warm-up; every sample of a forked state starts from the same state")
        print_rows(rows)
        print(
            f"{games} BookPolicy auto games (seeds 0-{games - 1}, 10 turns, 10 figures a "
            f"side): {total:.1f} s in all on {args.jobs} process(es), "
            f"{sum(gtimes) / 1000:.1f} s of game time, slowest seed {int(np.argmax(gtimes))}, "
            f"{len(errors)} exception(s)" + ("  ok" if not errors else "  FAILED")
        )
        for err in errors:
            print(err.rstrip())

        if args.profile != "none":
            timed = [r for r in rows if r.times and r.target and (r.redo or r.argv) is not None]
            if args.profile == "auto":
                pick = max(timed, key=lambda r: statistics.median(r.times) / (r.target or 1))
            else:
                pick = next((r for r in rows if args.profile in r.name), None)  # type: ignore[assignment]
            if pick is not None and (pick.redo or pick.argv) is not None:
                if pick.target:
                    ratio = statistics.median(pick.times) / pick.target
                    print(f"# slowest against its target: '{pick.name.strip()}' at {ratio:.0%}")
                profile(pick, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"# whole benchmark: {time.perf_counter() - began:.1f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
