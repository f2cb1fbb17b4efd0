"""Behaviour fingerprints of crdesk's games, to prove a refactor changes not one game (issue 29).

    .venv/bin/python tools/fingerprint.py record -o tools/fingerprints/baseline.json
    .venv/bin/python tools/fingerprint.py check tools/fingerprints/baseline.json
    .venv/bin/python tools/fingerprint.py check tools/fingerprints/baseline.json --only sim/urban
    .venv/bin/python tools/fingerprint.py show sim/urban-36x36-raid-tactical/3 > before.txt

Three kinds of game are played, each under a stable name:

``sim/LABEL/I``
    game I of a ``crdesk simulate`` batch (:data:`SIM_PLAN`): generated tables of every
    terrain type (clear, urban, wooded, mountain) and three sizes, every encounter
    (patrol, raid, defend), the three player policies and the five band types, and the
    demo scenarios as they stand (solo, PEFs and table 11.4) and as free play (non-solo:
    both sides by the book policy's rules).  Seeds are fixed: the batch seed is a hash
    of LABEL, game I's seed :func:`crdesk.simulate.game_seed` (seed, I), as ``crdesk
    simulate`` derives it.
``data/STEM``
    every worked-through data game ``tests/data/games/STEM.json``, played by the test
    suite's own runner (``tests/game/test_game_data.py::play_case``).
``saved/PATH``
    every saved game (``*.crgame``) under ``tests/data/``, opened strictly
    (:func:`crdesk.game.savefile.loads_game`); a file that is refused records the
    refusal's message instead.

A game's fingerprint is a sha256 over every step (actor, action text, dice, the policy's
reason), every event (step, kind, section, text, figures, dice, data) and the final
:meth:`~crdesk.game.Game.state_hash`, kept with the count of steps and events, separate
digests of the steps and of the events (so ``check`` can say which part moved), the state
hash and the outcome.  A game that raises records the error's type and message.

Only crdesk's public API is used: :class:`crdesk.game.Game` (``new``, ``play``,
``awaiting``, ``history``, ``events``, ``state_hash``, ``outcome``) and the public
functions of :mod:`crdesk.simulate` (``Setup``, ``game_seed``, ``sub_seed``,
``player_policy``, ``default_band``, ``play_game``, ``warm_up``).  The simulated
games are built the way :func:`crdesk.simulate.play_game` builds them (it returns only
statistics, not the game), and ``record`` checks every one against ``play_game``'s
result (steps, turns, winner and reason), so the tool cannot drift from what ``crdesk
simulate`` plays.

Every process compiles the sight kernels first (:func:`crdesk.simulate.warm_up`, as
``crdesk simulate`` and the test suite do), so ``--jobs 1`` and ``--jobs 2`` play the
same route and give the same fingerprints.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the data games' runner lives in the test suite
    sys.path.insert(0, str(ROOT))

from crdesk.ai.enemy import SoloEnemyPolicy  # noqa: E402
from crdesk.dice import Dice  # noqa: E402
from crdesk.game import CHANCE, Game, GameSettings  # noqa: E402
from crdesk.game.deployment import deploy  # noqa: E402
from crdesk.game.savefile import loads_game  # noqa: E402
from crdesk.generator import generate  # noqa: E402
from crdesk.model import BandType, Battlefield, EncounterType, Force, Scenario  # noqa: E402
from crdesk.scenario import from_document  # noqa: E402
from crdesk.simulate import (  # noqa: E402
    MAX_STEPS,
    NP_FORCE,
    PLAYER_FORCE,
    WARM_UP_GAMES,
    Setup,
    default_band,
    game_seed,
    play_game,
    player_policy,
    sub_seed,
    warm_up,
)

FORMAT = 1
DATA = ROOT / "tests" / "data"
GAMES = DATA / "games"
SCENARIOS = ROOT / "resources" / "scenarios"

Record = dict[str, Any]
"""One game's fingerprint, plain JSON data."""


# --------------------------------------------------------------------------
# What is played


@dataclass(frozen=True, slots=True)
class SimSpec:
    """One batch of ``crdesk simulate`` games, as its command line would set it up."""

    label: str
    games: int
    terrain: str | None = None
    size: tuple[float, float] = (36.0, 36.0)
    scenario: str | None = None
    """A scenario file under resources/scenarios (instead of ``terrain``)."""
    encounter: str | None = "patrol"
    player: str = "tactical"
    band: str | None = "military"
    """The player's default Band of this band type; None keeps the scenario's own."""
    enemy_band: str = "military"

    @property
    def seed(self) -> int:
        """The batch's seed: a hash of the label, so every batch has its own dice."""
        return int.from_bytes(hashlib.sha256(self.label.encode()).digest()[:4], "big")

    def setup(self) -> Setup:
        band_type = self.band or "military"
        common: dict[str, Any] = {
            "band_type": band_type,
            "band_name": f"{band_type.title()} Band",
            "enemy_band": self.enemy_band,
            "player": self.player,
            "encounter": self.encounter,
            "band": default_band(band_type) if self.band is not None else None,
        }
        if self.terrain is not None:
            return Setup(terrain=self.terrain, size=self.size, **common)
        assert self.scenario is not None
        path = SCENARIOS / self.scenario
        return Setup(scenario=path.read_text(encoding="utf-8"), source=path.name, **common)


TERRAINS = ("clear", "urban", "wooded", "mountain")
ENCOUNTERS = ("patrol", "raid", "defend")


def _sim_plan() -> list[SimSpec]:
    plan: list[SimSpec] = []
    for size, games in (((36.0, 36.0), 12), ((24.0, 24.0), 5), ((48.0, 36.0), 4)):
        for terrain in TERRAINS:
            for encounter in ENCOUNTERS:
                label = f"{terrain}-{size[0]:g}x{size[1]:g}-{encounter}-tactical"
                plan.append(SimSpec(label, games, terrain, size, encounter=encounter))
    for player in ("objective", "book"):
        for terrain in TERRAINS:
            plan.append(SimSpec(f"{terrain}-36x36-patrol-{player}", 3, terrain, player=player))
    for terrain, encounter, band, enemy in (
        ("urban", "raid", "ganger", "police"),
        ("wooded", "defend", "guerilla", "militia"),
        ("clear", "patrol", "militia", "ganger"),
        ("mountain", "raid", "police", "guerilla"),
    ):
        label = f"{terrain}-36x36-{encounter}-tactical-{band}-vs-{enemy}"
        plan.append(SimSpec(label, 3, terrain, encounter=encounter, band=band, enemy_band=enemy))
    for name in ("demo-wooded", "demo-urban"):
        file = f"{name}.crdesk"
        plan.append(SimSpec(f"{name}-own-solo", 6, scenario=file, encounter=None, band=None))
        plan.append(SimSpec(f"{name}-free-nonsolo", 6, scenario=file, encounter="free", band=None))
        plan.append(SimSpec(f"{name}-defend-militia", 3, scenario=file, encounter="defend"))
    return plan


SIM_PLAN: tuple[SimSpec, ...] = tuple(_sim_plan())
"""The simulated batches; their games are the ``sim/...`` fingerprints."""


@dataclass(frozen=True, slots=True)
class Job:
    """One game to fingerprint: plain data, so a worker process can take it."""

    name: str
    kind: str
    """``sim``, ``data`` or ``saved``."""
    path: str = ""
    """The data or saved game's path, relative to the repository."""
    spec: SimSpec | None = None
    index: int = 0
    seed: int = 0


def sim_jobs(plan: Iterable[SimSpec] = SIM_PLAN) -> list[Job]:
    return [
        Job(f"sim/{spec.label}/{i}", "sim", spec=spec, index=i, seed=game_seed(spec.seed, i))
        for spec in plan
        for i in range(spec.games)
    ]


def data_jobs() -> list[Job]:
    return [
        Job(f"data/{p.stem}", "data", path=p.relative_to(ROOT).as_posix())
        for p in sorted(GAMES.glob("*.json"))
    ]


def saved_jobs() -> list[Job]:
    return [
        Job(f"saved/{p.relative_to(DATA).as_posix()}", "saved", path=p.relative_to(ROOT).as_posix())
        for p in sorted(DATA.rglob("*.crgame"))
    ]


def all_jobs() -> list[Job]:
    return sim_jobs() + data_jobs() + saved_jobs()


# --------------------------------------------------------------------------
# One game's fingerprint


def _line(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False).encode() + b"\n"


def fingerprint(game: Game) -> Record:
    """The fingerprint of a game as it stands."""
    steps = hashlib.sha256()
    for step in game.history:
        steps.update(_line([step.actor, step.action, list(step.faces), step.why]))
    texts = hashlib.sha256()  # what a player reads: each event's kind and sentence
    details = hashlib.sha256()  # and what it cites: section, figures, dice, data
    for event in game.events:
        texts.update(_line([event.step, event.kind, event.text]))
        details.update(
            _line([event.section, list(event.figures), list(event.dice), dict(event.data)])
        )
    state = game.state_hash()
    whole = hashlib.sha256()
    for part in (steps, texts, details):
        whole.update(part.digest())
    whole.update(state.encode())
    whole.update(str(len(game.history)).encode())
    outcome = game.outcome
    return {
        "sha256": whole.hexdigest(),
        "steps": len(game.history),
        "events": len(game.events),
        "steps_sha": steps.hexdigest()[:16],
        "events_sha": texts.hexdigest()[:16],
        "details_sha": details.hexdigest()[:16],
        "state_hash": state,
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _scenario(setup: Setup, seed: int) -> Scenario:
    """The game's scenario, as :func:`crdesk.simulate.play_game` makes it: a generated
    table (its own "table" seed) or the scenario file, with the Band deployed by the
    encounter's rules (its 1d6 from the "deploy" seed) and an enemy force for the PEFs."""
    if setup.terrain is not None:
        width, height = setup.size
        scenario = generate(
            sub_seed(seed, "table"),
            width=width,
            height=height,
            terrain_type=setup.terrain,
            encounter=setup.encounter or "patrol",
        )
    else:
        assert setup.scenario is not None
        scenario = from_document(json.loads(setup.scenario), setup.source)
    kind = EncounterType(setup.encounter or scenario.encounter.type.value)
    if setup.band is None:
        if scenario.encounter.type is kind:
            return scenario
        return replace(scenario, encounter=replace(scenario.encounter, type=kind))
    bf = scenario.battlefield
    if not any(not f.player for f in bf.forces):
        enemy = Force(NP_FORCE, "Enemy", BandType(setup.enemy_band))
        scenario = replace(scenario, battlefield=Battlefield(bf.table, list(bf.terrain), [enemy]))
    force = Force(
        PLAYER_FORCE,
        setup.band_name,
        BandType(setup.band_type),
        player=True,
        figures=[m.figure() for m in setup.band],
    )
    return deploy(scenario, force, kind, Dice(random.Random(sub_seed(seed, "deploy"))))


def simulated_game(setup: Setup, seed: int) -> Game:
    """Play one ``crdesk simulate`` game to its end, as :func:`~crdesk.simulate.play_game`
    plays it: the player's Band by its policy, the enemy by the solo enemy (PEFs, 11.4) in
    a solo game, else by the book policy."""
    scenario = _scenario(setup, seed)
    solo = scenario.encounter.type is not EncounterType.FREE
    settings = GameSettings(
        max_turns=setup.max_turns,
        solo=solo,
        encounter=scenario.encounter.type.value if solo else "",
    )
    game = Game.new(scenario, seed=seed, settings=settings)
    mine = player_policy(setup.player)
    enemy = SoloEnemyPolicy() if solo else player_policy("book")
    policies = {f.id: (mine if f.player else enemy) for f in game.battlefield.forces}
    while (decision := game.awaiting()) is not None:
        if len(game.history) >= MAX_STEPS:
            raise RuntimeError(f"no end after {MAX_STEPS} steps")
        if decision.actor == CHANCE or decision.actor not in policies:
            raise RuntimeError(f"the game waits for {decision.actor}, whom no policy plays")
        action, why = policies[decision.actor].decide(game, decision)
        game.play(action, why=why)
    return game


def play(job: Job, *, verify: bool = False) -> Record:
    """The fingerprint of one job's game.  ``verify`` (simulated games) also plays the
    game by :func:`crdesk.simulate.play_game` and records whether they agree."""
    if job.kind == "sim":
        assert job.spec is not None
        setup = job.spec.setup()
        try:
            game = simulated_game(setup, job.seed)
        except Exception as exc:
            return {"error": _error(exc)}
        record = fingerprint(game)
        if verify:
            record["simulate_agrees"] = _agrees(game, play_game(setup, job.index, job.seed))
        return record
    if job.kind == "data":
        from tests.game.test_game_data import play_case

        case = json.loads((ROOT / job.path).read_text(encoding="utf-8"))
        try:
            return fingerprint(play_case(case))
        except Exception as exc:  # a data game the rules no longer play as written
            return {"error": _error(exc)}
    if job.kind == "saved":
        raw = (ROOT / job.path).read_bytes()
        try:
            loaded = loads_game(raw, source=job.path, strict=True)
        except Exception as exc:  # a hostile file: what matters is the refusal
            return {"refused": _error(exc)}
        record = fingerprint(loaded.game)
        record["warnings"] = list(loaded.warnings)
        record["steps_in_file"] = loaded.steps_in_file
        return record
    raise ValueError(f"no such kind of game: {job.kind!r}")


def _agrees(game: Game, result: Any) -> bool | str:
    """Whether :func:`crdesk.simulate.play_game`'s result is this game's."""
    outcome = game.outcome
    turns = sum(1 for e in game.events if e.kind == "activation_roll")
    ours = (len(game.history), turns, outcome.reason if outcome else "")
    theirs = (result.steps, result.turns, result.reason)
    if result.error is not None:
        return f"play_game failed: {result.error}"
    return True if ours == theirs else f"play_game gave {theirs}, this game {ours}"


# --------------------------------------------------------------------------
# Many games


def _play_chunk(jobs: Sequence[Job], verify: bool) -> list[tuple[str, Record]]:
    return [(job.name, play(job, verify=verify)) for job in jobs]


def _start_worker() -> None:
    warm_up(WARM_UP_GAMES)  # the compiled sight kernels, as crdesk simulate plays


def run(
    jobs: Sequence[Job],
    *,
    processes: int = 2,
    verify: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Record]:
    """Every job's fingerprint, by name; the same whatever ``processes``."""
    results: dict[str, Record] = {}

    def collect(part: Iterable[tuple[str, Record]]) -> None:
        results.update(part)
        if progress is not None:
            progress(len(results), len(jobs))

    if processes <= 1 or len(jobs) <= 1:
        _start_worker()
        for job in jobs:
            collect(_play_chunk([job], verify))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        parts = max(1, min(len(jobs), processes * 16))
        chunks = [list(jobs[k::parts]) for k in range(parts)]
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=processes, mp_context=context, initializer=_start_worker
        ) as pool:
            futures = [pool.submit(_play_chunk, chunk, verify) for chunk in chunks if chunk]
            for future in as_completed(futures):
                collect(future.result())
    return {job.name: results[job.name] for job in jobs}


def select(jobs: Sequence[Job], only: Sequence[str]) -> list[Job]:
    """The jobs whose name starts with one of ``only`` (all of them when empty)."""
    return [j for j in jobs if not only or any(j.name.startswith(p) for p in only)]


def counts(names: Iterable[str]) -> dict[str, int]:
    out = {"sim": 0, "data": 0, "saved": 0}
    for name in names:
        kind = name.split("/", 1)[0]
        out[kind] = out.get(kind, 0) + 1
    return out


def differences(before: dict[str, Record], after: dict[str, Record]) -> list[str]:
    """One line per game whose fingerprint is not the same, by name."""
    lines: list[str] = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        if old is None:
            lines.append(f"{name}: new game (not in the baseline)")
        elif new is None:
            lines.append(f"{name}: missing (in the baseline, not played now)")
        else:
            parts = [
                f"{key} {old.get(key)!r} -> {new.get(key)!r}"
                for key in sorted(old.keys() | new.keys())
                if key != "sha256" and old.get(key) != new.get(key)
            ]
            lines.append(f"{name}: " + ("; ".join(parts) or "sha256 differs"))
    return lines


# --------------------------------------------------------------------------
# The command line


class _Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter() - self.started
        if self.quiet or (done < total and now - self.last < 5):
            return
        self.last = now
        print(f"fingerprint: {done}/{total} games, {now:.0f} s", file=sys.stderr, flush=True)


def _compiled() -> bool:
    """Whether the workers judged sight by the compiled kernels (numba installed)."""
    from crdesk.geometry.los import compiled_route

    _start_worker()
    return compiled_route()


def cmd_record(args: argparse.Namespace) -> int:
    jobs = select(all_jobs(), args.only)
    started = time.perf_counter()
    games = run(jobs, processes=args.jobs, verify=True, progress=_Progress(args.quiet))
    disagree = {n: r.pop("simulate_agrees") for n, r in games.items() if "simulate_agrees" in r}
    bad = {n: why for n, why in disagree.items() if why is not True}
    for name, why in sorted(bad.items()):
        print(f"{name}: not the game crdesk simulate plays: {why}", file=sys.stderr)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "about": "crdesk game fingerprints (tools/fingerprint.py); see tools/README.md",
        "count": len(games),
        "compiled_sight": _compiled(),
        "counts": counts(games),
        "errors": sorted(n for n, r in games.items() if "error" in r),
        "games": games,
    }
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - started
    kinds = ", ".join(f"{v} {k}" for k, v in doc["counts"].items())
    print(f"{len(games)} games ({kinds}) recorded in {out} in {elapsed:.0f} s")
    if doc["errors"]:
        print(f"note: {len(doc['errors'])} games raised; their errors are recorded")
    return 1 if bad else 0


def cmd_check(args: argparse.Namespace) -> int:
    doc = json.loads(Path(args.file).read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT:
        print(f"error: {args.file} is not a fingerprint file of format {FORMAT}", file=sys.stderr)
        return 2
    baseline: dict[str, Record] = doc["games"]
    jobs = select(all_jobs(), args.only)
    if args.only:
        baseline = {n: r for n, r in baseline.items() if any(n.startswith(p) for p in args.only)}
    started = time.perf_counter()
    games = run(jobs, processes=args.jobs, progress=_Progress(args.quiet))
    lines = differences(baseline, games)
    for line in lines:
        print(line)
    elapsed = time.perf_counter() - started
    total = len(baseline.keys() | games.keys())
    if lines:
        print(f"{total} games: {len(lines)} differ ({elapsed:.0f} s)")
        return 1
    print(f"{total} games: identical ({elapsed:.0f} s)")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print one game's whole log, to diff the same game on two commits."""
    jobs = [j for j in all_jobs() if j.name == args.name]
    if not jobs:
        print(f"error: no game named {args.name!r} (see 'list')", file=sys.stderr)
        return 2
    job = jobs[0]
    _start_worker()
    game: Game | None = None
    if job.kind == "sim":
        assert job.spec is not None
        game = simulated_game(job.spec.setup(), job.seed)
    elif job.kind == "data":
        from tests.game.test_game_data import play_case

        game = play_case(json.loads((ROOT / job.path).read_text(encoding="utf-8")))
    else:
        game = loads_game((ROOT / job.path).read_bytes(), source=job.path).game
    events: dict[int, list[Any]] = {}
    for event in game.events:
        events.setdefault(event.step, []).append(event)
    for n, step in enumerate(game.history, 1):
        faces = f" [{','.join(map(str, step.faces))}]" if step.faces else ""
        why = f"  ({step.why})" if step.why else ""
        print(f"{n:5} {step.actor}: {step.action}{faces}{why}")
        for event in events.pop(n, []):
            print(f"        {event.kind} {event.section}: {event.text}")
    for step_no, rest in sorted(events.items()):
        for event in rest:
            print(f"  ({step_no}) {event.kind} {event.section}: {event.text}")
    print(f"state {game.state_hash()}")
    print(json.dumps(fingerprint(game), sort_keys=True))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    jobs = select(all_jobs(), args.only)
    for job in jobs:
        print(job.name)
    kinds = ", ".join(f"{v} {k}" for k, v in counts(j.name for j in jobs).items())
    print(f"{len(jobs)} games ({kinds})", file=sys.stderr)
    return 0


def _jobs(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError("--jobs must be 1..64")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/fingerprint.py",
        description="Fingerprints of crdesk games (simulated, data and saved games): "
        "record them before a refactor, check them after.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Callable[[argparse.Namespace], int]] = {}
    for name, func, about in (
        ("record", cmd_record, "play every game and write the fingerprints"),
        ("check", cmd_check, "play every game again and print every difference"),
        ("list", cmd_list, "the games' names"),
    ):
        p = sub.add_parser(name, help=about)
        if name == "record":
            p.add_argument("-o", "--output", required=True, metavar="FILE")
        if name == "check":
            p.add_argument("file", metavar="FILE")
        p.add_argument(
            "--only",
            action="append",
            default=[],
            metavar="PREFIX",
            help="only the games whose name starts so (e.g. sim/urban, data/, saved/)",
        )
        if name != "list":
            p.add_argument("--jobs", type=_jobs, default=2, metavar="N", help="processes (2)")
            p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
        commands[name] = func
    p = sub.add_parser("show", help="print one game's steps and events")
    p.add_argument("name", metavar="NAME")
    commands["show"] = cmd_show
    args = parser.parse_args(argv)
    return commands[args.command](args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # show ... | head
        sys.exit(0)
