"""Fuzz ``crdesk game do GAME ACTION...`` with hostile action lines (issue 33's acceptance).

Usage::

    QT_QPA_PLATFORM=offscreen nice -n 10 .venv/bin/python tools/fuzz/game_do.py \\
        --inputs 2000 --seed 1 --jobs 2 --out fuzz-do-findings

Each input takes a real saved game -- ``tests/data/hostile/seed-*.crgame`` and
``33-manual-dice-start.crgame`` as they are, or one of them cut after an
earlier step, or the manual-dice game played on a few steps -- copies it to a
directory of its own, and runs ``game do`` on it in-process (``crdesk.cli.main``,
stdout strict UTF-8 as on a terminal) with a line built from the input's seed:
a legal action of the moment (``Game.awaiting().options``), bent or not; a
parametric action (move, fire, throw, charge...) near the figures; or any
action word with hostile arguments (huge, negative, NaN, 4,000-digit and
non-ASCII numbers, lone surrogates, NUL bytes, thousands of ids, 10,000 dice,
wrong ids, extra or missing words), sometimes with a hostile ``--dice`` or
``--json``.  A finding is:

- a traceback: an exception escaping the command, or 'Traceback' or 'a bug,
  please report it' in what it printed;
- an input over 10 s (a hang; one still running after 60 s is killed: every
  job runs in a worker process of its own);
- a refusal (nonzero exit) that left the file different, or any temp file
  behind;
- an accepted action whose file does not open again (strictly, or leniently
  when the original only opened leniently) or, when the command saved it,
  does not save to the same text;
- an exit status other than 0, 1 or 2.

Each finding is written to ``--out``/seed-N.txt; ``--replay N`` runs one input
again.  The exit status is 0 only with no finding.  The suite runs 20 inputs
(``tests/test_hostile_fuzz_game_do.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import multiprocessing.connection
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

HOSTILE = ROOT / "tests" / "data" / "hostile"
MANUAL = HOSTILE / "33-manual-dice-start.crgame"

SLOW_S = 10.0
"""An input slower than this is a hang (issue 33's acceptance)."""
KILL_S = 60.0
"""A worker still on one input after this is killed, and the input reported."""
NAME = "game.crgame"

Command = Callable[[Sequence[str]], int]


@dataclass
class Position:
    """A saved game to run a line on, and what it offers now."""

    name: str
    data: bytes
    strict: bool = True
    options: list[str] = field(default_factory=list)
    accepts: list[str] = field(default_factory=list)
    figures: list[tuple[str, float, float]] = field(default_factory=list)
    dice: int = 0


@dataclass
class Result:
    seed: int
    outcome: str
    """accepted, refused, or hung (the worker was killed)"""
    seconds: float
    detail: str = ""
    """What was found (empty: nothing)."""
    identical: bool = False
    """For a refusal: the file was byte-identical afterwards."""
    peak_mb: float = 0.0


# -- the positions --------------------------------------------------------------


def _position(name: str, data: bytes) -> Position:
    from crdesk.game.savefile import GameReplayError, loads_game

    try:
        loaded, strict = loads_game(data, source=name), True
    except GameReplayError:
        loaded, strict = loads_game(data, source=name, strict=False), False
    game = loaded.game
    decision = game.awaiting()
    figures = [(f["id"], float(f["x"]), float(f["y"])) for f in game.summary()["figures"]]
    pos = Position(name, data, strict, figures=figures)
    if decision is not None:
        pos.options = [str(o) for o in decision.options]
        pos.accepts = list(decision.accepts)
        pos.dice = decision.dice
    return pos


def positions() -> list[Position]:
    """The real games as they are, cut after earlier steps, and a manual game played on."""
    from crdesk.game.controller import Game
    from crdesk.game.records import CHANCE
    from crdesk.game.savefile import dumps_game, load_game

    paths = [*sorted(HOSTILE.glob("seed-*.crgame")), MANUAL]
    out = [_position(p.name, p.read_bytes()) for p in paths]
    for path in paths:
        game = load_game(path).game
        for n in range(1, len(game.history), 2):
            cut = Game.replay(
                game.scenario, game.history[:n], seed=game.seed, settings=game.settings
            )
            out.append(_position(f"{path.name}[:{n}]", dumps_game(cut).encode("utf-8")))
    rng = random.Random(33)
    game = load_game(MANUAL).game
    for n in range(1, 40):
        decision = game.awaiting()
        if decision is None:
            break
        if decision.actor == CHANCE:
            action = "dice " + ",".join(str(rng.randint(1, 6)) for _ in range(decision.dice))
        elif decision.options:
            action = str(rng.choice(decision.options))
        else:
            break
        game.play(action)
        if n % 3 == 0 or game.pending_faces:
            out.append(_position(f"manual+{n}", dumps_game(game).encode("utf-8")))
    return out


# -- hostile lines --------------------------------------------------------------

NUMBERS = [
    "0", "-0", "1", "-1", "2", "99", "-10000", "1e308", "-1e308", "1e999", "-1e999", "nan",
    "NaN", "inf", "-inf", "Infinity", "5e-324", "1e-400", "12.000000000000001", "0.1",
    "9" * 20, "9" * 21, "1" * 41, "9" * 4_000, "18446744073709551617", "0x10", "1_0", "+3",
    " 3", "²", "①", "٣", "३", "𝟠", "1²", "", "\x00", "3\x00", "\ud800", "\udcff", "1e", ".",
    "-", "1.2.3", "١٢", "Ⅻ",
]  # fmt: skip
FACES = [
    "1", "6", "0", "7", "-1", "3,5", "6,1", "3 5 1", ",", "", "²", "①", "٣", "06", "+3",
    "6" * 30, "\x00", "\udcff", ",".join(["3"] * 10_000), ",".join(["6"] * 10_001),
    ",".join(["3"] * 5_000 + ["6", "1"]), " ".join(["4"] * 2_000), "1,,2", "3,5,",
]  # fmt: skip
WORDS = ["at", "face", "mode", "aim", "use", "decline", "yes", "no", "auto", "weapon", "walk"]
EXTRA_WORDS = ["undo", "roll", "END", "Move", "", "\x00", "\ud800", "--", "-", "-h", "--dice"]


def hostile_number(rng: random.Random) -> str:
    return rng.choice(NUMBERS)


def hostile_id(rng: random.Random, pos: Position) -> str:
    ids = [f[0] for f in pos.figures] or ["p1"]
    r = rng.random()
    if r < 0.35:
        return rng.choice(ids)
    choices = [
        "p99", "P1", "e0", "", "\x00", "p1\x00", "\ud800", "\udcff", "\u202e", "a" * 65,
        "a" * 100_000, ",", "p1,", ",p1", "*", "..", "../x", "e1:3", "pef9-9", "p1 p1",
        ",".join(rng.choices(ids, k=5_000)), ",".join(f"p{i}" for i in range(5_000)),
        ",".join(ids), "p" + "9" * 4_000,
    ]  # fmt: skip
    return rng.choice(choices)


def hostile_point(rng: random.Random, pos: Position) -> str:
    r = rng.random()
    if r < 0.3 and pos.figures:
        _, x, y = rng.choice(pos.figures)
        return f"{x + rng.uniform(-3, 3):.3f},{y + rng.uniform(-3, 3):.3f}"
    if r < 0.8:
        return f"{hostile_number(rng)},{hostile_number(rng)}"
    return rng.choice(["1,2,3", ",", "1,", ",1", "", "1;2", "(1,2)", "1,2 3,4"])


def hostile_targets(rng: random.Random, pos: Position) -> str:
    n = rng.choice([1, 1, 2, 3, 500, 5_000])
    parts = []
    for _ in range(n):
        tid = hostile_id(rng, pos) if n < 10 else rng.choice([f[0] for f in pos.figures] or ["e1"])
        parts.append(f"{tid}:{hostile_number(rng)}" if rng.random() < 0.7 else tid)
    return ",".join(parts)


def hostile_argument(rng: random.Random, pos: Position) -> str:
    kind = rng.randrange(7)
    if kind == 0:
        return hostile_id(rng, pos)
    if kind == 1:
        return hostile_number(rng)
    if kind == 2:
        return hostile_point(rng, pos)
    if kind == 3:
        return hostile_targets(rng, pos)
    if kind == 4:
        return rng.choice(WORDS + EXTRA_WORDS)
    if kind == 5:
        return rng.choice(FACES)
    return rng.choice(["x" * 200_000, "é" * 10_000, "\t", "\n", " ", "\r\n", "\u2028", "\ufeff"])


def near_legal(rng: random.Random, pos: Position) -> list[str]:
    """A parametric action near the figures: mostly in form, sometimes legal."""
    ids = [f[0] for f in pos.figures] or ["p1"]
    me, other = rng.choice(ids), rng.choice(ids)
    word = rng.choice(pos.accepts or ["move", "fire", "throw", "charge", "duckback"])
    _, x, y = next((f for f in pos.figures if f[0] == me), (me, 10.0, 10.0))
    point = f"{x + rng.uniform(-4, 4):.2f},{y + rng.uniform(-4, 4):.2f}"
    face = rng.random() < 0.3
    lines = {
        "move": ["move", me, point, *(["face", str(rng.randrange(360))] if face else [])],
        "fire": ["fire", me, "at", f"{other}:{rng.randint(1, 3)}"],
        "throw": ["throw", me, "at", point],
        "indirect": ["indirect", me, "at", point],
        "charge": ["charge", me, "at", other],
        "duckback": ["duckback", me, rng.choice(["auto", point])],
        "floor": ["floor", me, str(rng.randint(0, 2))],
        "pickup": ["pickup", me, other],
        "capture": ["capture", me, other],
        "dispatch": ["dispatch", me, other],
        "dice": ["dice", ",".join(str(rng.randint(1, 6)) for _ in range(max(pos.dice, 1)))],
    }
    return lines.get(word, [word, me])


def bend(rng: random.Random, words: list[str], pos: Position) -> list[str]:
    """One to three hostile changes to a line's words."""
    from crdesk.game.actions import ACTION_WORDS

    words = list(words)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(8)
        k = rng.randrange(len(words)) if words else 0
        if op == 0 and words:
            words[k] = hostile_argument(rng, pos)
        elif op == 1:
            words.insert(k, hostile_argument(rng, pos))
        elif op == 2 and words:
            del words[k]
        elif op == 3 and words:
            words.insert(k, words[k])
        elif op == 4 and words:
            words[0] = rng.choice([*ACTION_WORDS, *EXTRA_WORDS])
        elif op == 5:
            words += ["face", hostile_number(rng)]
        elif op == 6 and words:
            words[k] = words[k].upper() if rng.random() < 0.5 else words[k] * rng.choice([2, 1000])
        else:
            words = [" ".join(words)] if rng.random() < 0.5 else " ".join(words).split(",")
    return words


def hostile_line(rng: random.Random, pos: Position) -> list[str]:
    """The words after ``game do GAME``: an action's words and perhaps --dice and --json."""
    from crdesk.game.actions import ACTION_WORDS

    r = rng.random()
    if r < 0.3 and pos.options:
        words = str(rng.choice(pos.options)).split()
        if rng.random() < 0.6:
            words = bend(rng, words, pos)
    elif r < 0.5:
        words = near_legal(rng, pos)
        if rng.random() < 0.5:
            words = bend(rng, words, pos)
    elif r < 0.9:
        word = rng.choice([*ACTION_WORDS, *ACTION_WORDS, *EXTRA_WORDS])
        if rng.random() < 0.2:
            word = rng.choice([word.upper(), word + "\x00", word * 2, word[:-1]])
        count = rng.choice([0, 1, 2, 2, 3, 4, 8])
        words = [word] + [hostile_argument(rng, pos) for _ in range(count)]
    else:
        words = [rng.choice(["", "\x00", "\ud800", "\udcff", "x" * 100_000, "move" * 20_000, " "])]
    if rng.random() < 0.2:  # --dice anywhere in the line
        words.insert(rng.randint(0, len(words)), f"--dice={rng.choice(FACES)}")
        if rng.random() < 0.3:
            words = [w for w in words if not w.startswith("--dice=")]
            words += ["--dice", rng.choice(FACES)]
    if rng.random() < 0.15:
        words.insert(rng.randint(0, len(words)), "--json")
    return words


# -- one input ------------------------------------------------------------------


def _cli(argv: Sequence[str]) -> int:
    from crdesk.cli import main

    return main(list(argv))


def _shown(words: Sequence[str]) -> str:
    """The line, printable, long words cut (lengths kept)."""
    parts = []
    for w in words:
        parts.append(ascii(w) if len(w) <= 300 else f"{w[:120]!a}...({len(w):,} chars)")
    return " ".join(parts)


def check_line(
    data: bytes, words: Sequence[str], *, strict: bool = True, command: Command = _cli
) -> tuple[str, str, bool]:
    """Run ``game do`` on a copy of ``data`` with ``words``; (outcome, problems, identical).

    ``outcome`` is accepted or refused; ``problems`` is empty unless something in
    the module docstring's list of findings happened.
    """
    from crdesk.game.savefile import dumps_game, load_game

    problems: list[str] = []
    identical = False
    with tempfile.TemporaryDirectory(prefix="fuzz-do-") as tmp:
        path = Path(tmp) / NAME
        path.write_bytes(data)
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")  # a terminal's
        err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
        status: int | None = None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = command(["game", "do", str(path), *words])
        except KeyboardInterrupt:
            raise
        except BaseException:
            problems.append("an exception escaped the command:\n" + traceback.format_exc())
        texts = []
        for stream in (out, err):
            stream.flush()
            buffer = stream.buffer
            assert isinstance(buffer, io.BytesIO)
            texts.append(buffer.getvalue().decode("utf-8", "backslashreplace"))
        printed = "\n".join(texts)
        for mark in ("Traceback", "a bug, please report it"):
            if mark in printed:
                problems.append(f"printed {mark!r}:\n{printed[-4000:]}")
        stray = sorted(set(os.listdir(tmp)) - {NAME})
        if stray:
            problems.append(f"left files behind: {stray}")
        after = path.read_bytes() if path.exists() else None
        if status is None:
            outcome = "refused"
        elif status != 0:
            outcome = "refused"
            identical = after == data
            if not identical:
                problems.append(f"refused (exit {status}) and the file changed\n{texts[1][-2000:]}")
            if status not in (1, 2):
                problems.append(f"exit status {status}:\n{printed[-2000:]}")
        else:
            outcome = "accepted"
            try:
                loaded = load_game(path, strict=strict)
                # a file game do saved (not one it left alone, as '-h' does: a seed file
                # written by an older crdesk gains the rules options added since)
                saved = after != data
                if saved and dumps_game(loaded.game).encode("utf-8") != after:
                    problems.append("the saved game, opened again, saves to another text")
            except Exception:
                problems.append("the saved game does not open again:\n" + traceback.format_exc())
        if problems:
            problems.append(f"stdout:\n{texts[0][-2000:]}\nstderr:\n{texts[1][-2000:]}")
    return outcome, "\n".join(problems), identical


_POSITIONS: list[Position] = []


def known_positions() -> list[Position]:
    """:func:`positions`, made once a process."""
    if not _POSITIONS:
        _POSITIONS.extend(positions())
    return _POSITIONS


def line_of(seed: int) -> tuple[Position, list[str]]:
    """The position and words of input ``seed``."""
    rng = random.Random(seed)
    pos = rng.choice(known_positions())
    return pos, hostile_line(rng, pos)


def run_one(seed: int) -> Result:
    pos, words = line_of(seed)
    start = time.perf_counter()
    try:
        outcome, problems, identical = check_line(pos.data, words, strict=pos.strict)
    except Exception:
        problems = "the check failed:\n" + traceback.format_exc()
        outcome, identical = "refused", False
    seconds = time.perf_counter() - start
    if seconds > SLOW_S:
        problems = f"took {seconds:.1f} s (over {SLOW_S:g} s)\n{problems}".strip()
    detail = ""
    if problems:
        detail = f"position {pos.name}\nline: game do GAME {_shown(words)}\n{problems}"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Result(seed, outcome, seconds, detail, identical, peak)


# -- the workers ------------------------------------------------------------------


def _worker(conn: multiprocessing.connection.Connection, known: list[Position]) -> None:
    _POSITIONS[:] = known
    check_line(known[0].data, ["pass"], strict=known[0].strict)  # imports, not timed later
    conn.send(None)
    while True:
        seed = conn.recv()
        if seed is None:
            return
        conn.send(run_one(seed))


@dataclass
class _Job:
    process: multiprocessing.process.BaseProcess
    conn: multiprocessing.connection.Connection
    seed: int | None = None
    started: float = 0.0


def run_all(seeds: Sequence[int], jobs: int) -> tuple[list[Result], float]:
    """Every input through ``jobs`` worker processes; a worker stuck over KILL_S is
    killed (its input reported as a hang) and another started.  Returns the results
    and the peak memory of any worker, in MB."""
    known = known_positions()
    ctx = multiprocessing.get_context("fork")
    todo = list(reversed(seeds))
    results: list[Result] = []
    workers: list[_Job] = []

    def start() -> _Job:
        ours, theirs = ctx.Pipe()
        process = ctx.Process(target=_worker, args=(theirs, known), daemon=True)
        process.start()
        theirs.close()
        ours.recv()  # warmed up
        return _Job(process, ours)

    def feed(job: _Job) -> None:
        if todo:
            job.seed, job.started = todo.pop(), time.perf_counter()
            job.conn.send(job.seed)
        else:
            job.seed = None
            job.conn.send(None)

    for _ in range(jobs):
        workers.append(start())
        feed(workers[-1])
    reported = 0
    while any(w.seed is not None for w in workers):
        busy = [w for w in workers if w.seed is not None]
        ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=1.0)
        for w in busy:
            if w.conn in ready:
                results.append(w.conn.recv())
                feed(w)
            elif time.perf_counter() - w.started > KILL_S:
                assert w.seed is not None
                pid = w.process.pid
                w.process.kill()
                w.process.join()
                results.append(
                    Result(w.seed, "hung", KILL_S, f"hung: worker {pid} killed after {KILL_S:g} s")
                )
                workers[workers.index(w)] = fresh = start()
                feed(fresh)
        if len(results) // 500 > reported:
            reported = len(results) // 500
            found = sum(bool(r.detail) for r in results)
            print(f"{len(results)} inputs, {found} findings", flush=True)
    for w in workers:
        w.process.join()
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return results, max([peak, *(r.peak_mb for r in results)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--inputs", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1, help="first seed; input k uses seed + k")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("fuzz-do-findings"))
    parser.add_argument("--replay", type=int, help="run one seed and print what it found")
    args = parser.parse_args(argv)
    if args.replay is not None:
        pos, words = line_of(args.replay)
        print(f"seed {args.replay}: position {pos.name}\nline: game do GAME {_shown(words)}")
        result = run_one(args.replay)
        print(f"{result.outcome} in {result.seconds:.2f} s\n{result.detail}")
        return 1 if result.detail else 0
    started = time.perf_counter()
    results, peak = run_all(range(args.seed, args.seed + args.inputs), args.jobs)
    counts = {"accepted": 0, "refused": 0, "hung": 0}
    findings = 0
    for r in results:
        counts[r.outcome] += 1
        if r.detail:
            findings += 1
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"seed-{r.seed}.txt").write_text(
                f"{r.outcome} in {r.seconds:.2f} s\n{r.detail}\n",
                encoding="utf-8",
                errors="backslashreplace",
            )
    identical = sum(r.identical for r in results)
    marks = ("an exception escaped", "printed 'Traceback'", "printed 'a bug")
    tracebacks = sum(any(m in r.detail for m in marks) for r in results)
    hangs = sum(r.seconds > SLOW_S for r in results)  # the killed ones count KILL_S
    slowest = max(results, key=lambda r: r.seconds)
    print(
        f"game do: inputs {len(results)}, accepted {counts['accepted']}, refused "
        f"{counts['refused']} (byte-identical afterwards {identical}), findings {findings}, "
        f"tracebacks {tracebacks}, hangs over {SLOW_S:g} s {hangs}, slowest "
        f"{slowest.seconds:.2f} s (seed {slowest.seed}), peak {peak:.0f} MB per process, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    return 0 if findings == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
