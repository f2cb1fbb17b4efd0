"""Benchmark of the program's players (issue 32): the three gates, on held-out tables.

Run:  python benchmarks/bench_ai.py [--games N] [--terrain TYPE] [--size WxH]
      [--jobs J] [--gates 1,2,3] [--before REF] [--max-turns T]

Every game is an encounter on a table generated from its own seed, with the default
Band (a Rep 5 Star and four Rep 4 Grunts) against PEFs; ``N`` games (default 1,002)
are a third each Patrol, Raid and Defend (12).  The batch seeds are
:data:`crdesk.simulate.HELD_OUT_SEED` and the next two (one per encounter): seeds no
test and no tuning ever used, so the gates judge play on tables the players were
never fitted to.  Each comparison plays the same games -- the same seeds, tables,
deployments and dice as long as the two games agree -- under both settings, and
the difference is judged by a paired 95% t interval (:mod:`crdesk.compare`).

* **Gate 1**: the solo enemy (11.4 with the spot search) beats both baselines: the
  tactical player's win rate against it is lower than against the plain enemy and
  the random enemy, each difference's interval excluding zero.  The player's wins are
  also counted by encounter, with those in games where no PEF ever turned into enemies
  (11.3): no enemy play can change them.
* **Gate 2** (``--before REF``): the players now against the players of the commit
  ``REF`` (checked out in a temporary git worktree and run there as
  ``crdesk simulate --json``), or (``--before-load FILE``) against the games a run
  of the same options saved with ``--save`` before the change: no significant loss
  of strength on either side, and the behaviour rates of both side by side.
  Without either it is not run.  ``--save FILE`` keeps a run's results (``--load``
  reports on them again without playing).
* **Gate 3**: the tactical player reaches the encounter's objective more often than
  the random player and the book player, on Patrol, Raid and Defend each (against
  the solo enemy), each interval excluding zero.

Behaviour rates (:mod:`crdesk.behaviour`) are printed for every setting played.
The machine yardstick of ``bench_simulate.py`` heads the output.  Exits 1 when a
gate run is missed.
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_simulate import yardstick  # noqa: E402

from crdesk.behaviour import rates  # noqa: E402
from crdesk.cli.common import table_size  # noqa: E402
from crdesk.cli.simulate import behaviour_lines  # noqa: E402
from crdesk.compare import paired_difference  # noqa: E402
from crdesk.simulate import (  # noqa: E402
    ENEMY,
    HELD_OUT_SEED,
    PLAYER,
    GameResult,
    Setup,
    default_band,
    run_batches,
    summarize,
)

ENCOUNTERS = ("patrol", "raid", "defend")
GAMES = 1002


def _won(r: GameResult | dict[str, Any], side: str = PLAYER) -> float:
    winner = r.winner if isinstance(r, GameResult) else r["winner"]
    return float(winner == side)


def _lost(r: GameResult | dict[str, Any], side: str) -> float:
    losses = r.losses if isinstance(r, GameResult) else r["losses"]
    return float(sum(losses.get(side, {}).values()))


MEASURES = (
    ("player wins", lambda r: _won(r, PLAYER), True),
    ("enemy wins", lambda r: _won(r, ENEMY), True),
    ("player casualties", lambda r: _lost(r, PLAYER), False),
    ("enemy casualties", lambda r: _lost(r, ENEMY), False),
)


def _pairs(a: dict[str, list[Any]], b: dict[str, list[Any]]) -> list[tuple[Any, Any]]:
    """The games both settings played without an error, paired by encounter and index."""
    out = []
    for encounter in ENCOUNTERS:
        mine = {_index(r): r for r in a[encounter] if _error(r) is None}
        theirs = {_index(r): r for r in b[encounter] if _error(r) is None}
        out += [(mine[i], theirs[i]) for i in sorted(mine.keys() & theirs.keys())]
    return out


def _index(r: GameResult | dict[str, Any]) -> int:
    return r.index if isinstance(r, GameResult) else int(r["game"])


def _error(r: GameResult | dict[str, Any]) -> str | None:
    return r.error if isinstance(r, GameResult) else r.get("error")


def _line(words: str, pairs: list[tuple[Any, Any]], value: Any, rate: bool) -> tuple[str, Any]:
    d = paired_difference(
        [value(x) for x, _ in pairs], [value(y) for _, y in pairs], (-1, 1) if rate else None
    )
    if rate:
        a, b, diff = f"{d.mean_a:.1%}", f"{d.mean_b:.1%}", f"{100 * d.mean:+.1f} pts"
        span = "" if d.ci95 is None else f"[{100 * d.ci95[0]:+.1f}, {100 * d.ci95[1]:+.1f}]"
    else:
        a, b, diff = f"{d.mean_a:.2f}", f"{d.mean_b:.2f}", f"{d.mean:+.2f}"
        span = "" if d.ci95 is None else f"[{d.ci95[0]:+.2f}, {d.ci95[1]:+.2f}]"
    settled = "settled" if d.settled else "not settled"
    return f"    {words:<20} {a:>7} {b:>7} {diff:>11}  {span:<16} {settled}", d


def _behaviour(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return ["  " + line for line in behaviour_lines(rows)]


def _setups(args: argparse.Namespace, **over: str) -> dict[str, Setup]:
    return {
        e: Setup(
            terrain=args.terrain,
            size=args.size,
            encounter=e,
            band=default_band(),
            max_turns=args.max_turns,
            **over,  # type: ignore[arg-type]
        )
        for e in ENCOUNTERS
    }


def play(
    args: argparse.Namespace, settings: dict[str, dict[str, str]]
) -> dict[str, dict[str, list[GameResult]]]:
    """Each named setting's games, per encounter, on one pool of workers."""
    per = max(1, args.games // len(ENCOUNTERS))
    out: dict[str, dict[str, list[GameResult]]] = {name: {} for name in settings}
    for k, encounter in enumerate(ENCOUNTERS):
        names = list(settings)
        setups = [_setups(args, **settings[n])[encounter] for n in names]
        started = time.perf_counter()
        batches = run_batches(setups, per, HELD_OUT_SEED + k, jobs=args.jobs)
        print(
            f"  played {encounter}: {per} games under each of {', '.join(names)} "
            f"in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        for name, batch in zip(names, batches, strict=True):
            out[name][encounter] = batch
    return out


def save(played: dict[str, dict[str, list[GameResult]]], path: str) -> None:
    """The results as JSON: a long run's games are not lost to a report that fails."""
    data = {
        name: {e: [r.to_dict() for r in batch] for e, batch in per.items()}
        for name, per in played.items()
    }
    Path(path).write_text(json.dumps(data), encoding="utf-8")


def load(path: str) -> dict[str, dict[str, list[GameResult]]]:
    """The results :func:`save` wrote."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))

    def result(row: dict[str, Any]) -> GameResult:
        row["loss_rules"] = tuple(tuple(x) for x in row["loss_rules"])
        row["sections"] = tuple(row["sections"])
        return GameResult(**row)

    return {
        name: {e: [result(r) for r in batch] for e, batch in per.items()}
        for name, per in data.items()
    }


def _all(batches: dict[str, list[GameResult]]) -> list[GameResult]:
    return [r for e in ENCOUNTERS for r in batches[e]]


def gate_1(played: dict[str, dict[str, list[GameResult]]]) -> bool:
    print("\nGate 1: the solo enemy beats both baselines (the player's win rate is lower)")
    ok = True
    for other in ("plain", "random"):
        pairs = _pairs(played["solo"], played[f"{other} enemy"])
        print(f"  A: the solo enemy, B: the {other} enemy, {len(pairs)} paired games")
        print(f"    {'':<20} {'A':>7} {'B':>7} {'B - A':>11}  95% interval")
        for words, value, rate in MEASURES:
            text, d = _line(words, pairs, value, rate)
            print(text)
            if words == "player wins":
                passed = d.ci95 is not None and d.ci95[0] > 0
                ok &= passed
        print(
            f"    gate: player wins higher against the {other} enemy: "
            f"{'MET' if passed else 'MISSED'}"
        )
    print("\n".join(_wins_by_encounter(played)))
    rows = [
        (label, summarize(_all(played[name])))
        for label, name in (("solo", "solo"), ("plain", "plain enemy"), ("random", "random enemy"))
    ]
    print("\n".join(_behaviour(rows)))
    return ok


def _wins_by_encounter(played: dict[str, dict[str, list[GameResult]]]) -> list[str]:
    """The player's wins against each enemy by encounter, and how many of them came in
    games where no PEF ever turned into enemies (11.3): no enemy play can change those,
    so they bound what gate 1 can show."""
    names = (("solo", "solo"), ("plain", "plain enemy"), ("random", "random enemy"))
    lines = [
        "  The player's wins by encounter (in brackets: games where no enemy ever appeared)",
        "    " + " " * 8 + "".join(f"{label:>14}" for label, _ in names),
    ]
    for encounter in ENCOUNTERS:
        cells = []
        for _label, name in names:
            wins = [r for r in played[name][encounter] if r.winner == PLAYER]
            quiet = sum(1 for r in wins if r.enemies == 0)
            cells.append(f"{len(wins)} ({quiet})")
        lines.append(f"    {encounter:<8}" + "".join(f"{c:>14}" for c in cells))
    return lines


def gate_3(played: dict[str, dict[str, list[GameResult]]]) -> bool:
    print("\nGate 3: the tactical player reaches the objective more often than random and book")
    ok = True
    for encounter in ENCOUNTERS:
        for other in ("random player", "book player"):
            a = {e: played[other][e] if e == encounter else [] for e in ENCOUNTERS}
            b = {e: played["solo"][e] if e == encounter else [] for e in ENCOUNTERS}
            pairs = _pairs(a, b)
            text, d = _line(f"{encounter} vs {other.split()[0]}", pairs, MEASURES[0][1], True)
            passed = d.ci95 is not None and d.ci95[0] > 0
            ok &= passed
            print(text + f"  {'MET' if passed else 'MISSED'} ({len(pairs)} games; A: {other})")
    rows = [
        (label, summarize(_all(played[name])))
        for label, name in (("tact.", "solo"), ("random", "random player"), ("book", "book player"))
    ]
    print("\n".join(_behaviour(rows)))
    return ok


def before(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]] | None:
    """The solo-enemy, tactical-player games as the commit ``--before`` plays them."""
    per = max(1, args.games // len(ENCOUNTERS))
    out: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-ai-") as tmp:
        tree = Path(tmp) / "before"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.before],
            check=True,
        )
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            for k, encounter in enumerate(ENCOUNTERS):
                command = [
                    sys.executable, "-m", "crdesk", "simulate",
                    "--generate", args.terrain,
                    "--size", f"{args.size[0]:g}x{args.size[1]:g}",
                    "--encounter", encounter,
                    "--games", str(per),
                    "--seed", str(HELD_OUT_SEED + k),
                    "--jobs", str(args.jobs),
                    "--max-turns", str(args.max_turns),
                    "--json",
                ]  # fmt: skip
                done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
                if done.returncode not in (0, 1):
                    print(f"  {args.before}: simulate failed: {done.stderr.strip()[-400:]}")
                    return None
                report = json.loads(done.stdout)
                out[encounter] = report["results"]
                out.setdefault("behaviour", []).append(report.get("behaviour"))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )
    return out


def _old_behaviour(
    old: dict[str, list[dict[str, Any]]], olds: list[dict[str, Any]]
) -> dict[str, Any]:
    """The behaviour rates of the three batches of ``--before`` as one batch's: their
    counts summed, the losses from their games' rows."""
    games = [r for e in ENCOUNTERS for r in old[e] if r.get("error") is None]
    out = {}
    for side, other in ((PLAYER, ENEMY), (ENEMY, PLAYER)):
        out[side] = rates(
            [b[side]["counts"] for b in olds],
            len(games),
            int(sum(_lost(r, side) for r in games)),
            int(sum(_lost(r, other) for r in games)),
        )
    return {"behaviour": out}


def gate_2(args: argparse.Namespace, played: dict[str, dict[str, list[GameResult]]]) -> bool:
    which = args.before or f"the saved run {args.before_load}"
    print(f"\nGate 2: the players now (B) against the players of {which} (A)")
    old: dict[str, Any] | None
    if args.before_load:
        saved = load(args.before_load)["solo"]
        old = {**saved, "behaviour": []}
    else:
        old = before(args)
    if old is None:
        return False
    pairs = _pairs({e: old[e] for e in ENCOUNTERS}, played["solo"])
    print(f"  {len(pairs)} paired games (tactical player, solo enemy)")
    print(f"    {'':<20} {'A':>7} {'B':>7} {'B - A':>11}  95% interval")
    ok = True
    for words, value, rate in MEASURES:
        text, d = _line(words, pairs, value, rate)
        print(text)
        if words == "enemy wins":  # the enemy AI weaker: significantly fewer enemy wins
            ok &= not (d.settled and d.mean < 0)
        if words == "player wins":  # the player AI weaker
            ok &= not (d.settled and d.mean < 0)
    print(f"    gate: no significant loss of strength on either side: {'MET' if ok else 'MISSED'}")
    olds = [b for b in old.get("behaviour", []) if b]
    mine = ("B: now", summarize(_all(played["solo"])))
    if args.before_load:
        print("\n".join(_behaviour([("A: saved", summarize(_all(old))), mine])))
    elif len(olds) == len(ENCOUNTERS):
        rows = _old_behaviour(old, olds)
        print("\n".join(_behaviour([(f"A: {args.before}", rows), mine])))
    else:
        print(f"  ({args.before} reports no behaviour rates: B's only)")
        print("\n".join(_behaviour([mine])))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games a setting (all three)")
    parser.add_argument("--terrain", default="roll")
    parser.add_argument("--size", type=table_size, default=(48.0, 48.0), metavar="WxH")
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--gates", default="1,3", help="which gates: 1,2,3 (2 needs --before)")
    parser.add_argument("--before", metavar="REF", help="the commit gate 2 compares with")
    parser.add_argument(
        "--before-load",
        metavar="FILE",
        help="gate 2 against the solo-enemy games of a run saved with --save (same options)",
    )
    parser.add_argument("--save", metavar="FILE", help="write the games' results (JSON)")
    parser.add_argument("--load", metavar="FILE", help="report on saved results, not new games")
    args = parser.parse_args()
    gates = {int(g) for g in args.gates.split(",") if g.strip()}
    if args.before or args.before_load:
        gates.add(2)
    elif 2 in gates:
        parser.error("gate 2 needs --before REF or --before-load FILE (the players before)")
    size = f'{args.size[0]:g}"x{args.size[1]:g}"'
    print(f"Machine yardstick: {yardstick():.0f} ms of CPU (compare runs of different days by it)")
    print(
        f"{args.games} games a setting on generated {args.terrain} {size} tables, a third each "
        f"{', '.join(ENCOUNTERS)}, held-out batch seeds {HELD_OUT_SEED}-{HELD_OUT_SEED + 2}, "
        f"at most {args.max_turns} turns, --jobs {args.jobs}"
    )
    settings: dict[str, dict[str, str]] = {"solo": {}}
    if 1 in gates:
        settings["plain enemy"] = {"enemy": "plain"}
        settings["random enemy"] = {"enemy": "random"}
    if 3 in gates:
        settings["random player"] = {"player": "random"}
        settings["book player"] = {"player": "book"}
    if args.load:
        played = load(args.load)
        print(f"  the games of {args.load} ({sum(len(_all(b)) for b in played.values())})")
    else:
        started = time.perf_counter()
        played = play(args, settings)
        print(
            f"  {sum(len(_all(b)) for b in played.values())} games in "
            f"{time.perf_counter() - started:.0f} s"
        )
        if args.save:
            save(played, args.save)
            print(f"  their results saved to {args.save} (--load it to report again)")
    ok = True
    if 1 in gates:
        ok &= gate_1(played)
    if 2 in gates:
        ok &= gate_2(args, played)
    if 3 in gates:
        ok &= gate_3(played)
    print(f"\nGates: {'all met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
