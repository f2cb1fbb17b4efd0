"""``crdesk simulate``: many encounters with both sides automated, and their statistics.

::

    crdesk simulate --generate roll --games 1000 --seed 7 --jobs 2
    crdesk simulate town.crdesk --games 200 --seed 1 --encounter raid --json
    crdesk simulate --generate urban --band mace.crband --games 100 --seed 3
    crdesk simulate --generate wooded --games 5000 --seed 1 --scheduler tcp://10.0.0.5:8786
    crdesk simulate --generate clear --games 200 --seed 1 --jobs 2 --compare enemy=solo enemy=plain
    crdesk simulate --generate urban --games 100 --seed 5 --keep lost-games --keep-only lost

The batch itself is :mod:`crdesk.simulate`, the paired comparison of ``--compare``
:mod:`crdesk.compare`.  Bad arguments print one line
``error: ...`` on stderr and exit 2; a game that fails is reported with its
seed and the batch goes on (exit 1 when any game failed).  :mod:`crdesk.cli.app`
wires it in with :func:`register`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from crdesk.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    TERRAIN_TYPES,
    OneLineParser,
    add_command,
    cannot_write,
    count,
    int_in,
    sizes_may_be_negative,
    table_size,
)
from crdesk.compare import (
    MEASURES,
    RATES,
    TABLE_KEYS,
    BandValue,
    ScenarioValue,
    Setting,
    compare,
    parse_pair,
)
from crdesk.model import BandType, EncounterType
from crdesk.simulate import (
    DEFAULT_MAX_TURNS,
    ENEMY_POLICIES,
    KEEP_WORDS,
    PLAYER_POLICIES,
    TABLE_SIZE,
    GameResult,
    Keep,
    Member,
    SchedulerUnavailable,
    Setup,
    band_members,
    default_band,
    parse_keep_only,
    run_batches,
    summarize,
)

ENCOUNTERS = ("patrol", "raid", "defend")
BAND_TYPES = tuple(b.value for b in BandType)

EPILOG = f"""\
Every game has its own seed, a hash of --seed and the game's number, from which
its table (--generate), the Band's deployment and its dice come: the same --seed
gives the same results whatever --jobs or --scheduler.  The player's Band is
played by the tactical policy (--player tactical, the default: the encounter's
objective, Cover to Cover, firing when it has shots, leaving once it is done, a
Raid's carrier first; --player objective and --player book are the plainer
players, --player random the baseline that chooses uniformly among the legal
choices), the enemy (PEFs, 11; table 11.4) by the solo enemy (--enemy solo, the
default: 11.4's orders, its spots chosen by their Cover, range and exposure, each
figure firing as soon as it has moved, its targets by the odds and its objective;
--enemy plain carries out the same orders with the nearest Cover or the straight
line, then fires; --enemy random).
In free play (a scenario without an encounter) --enemy solo is the book policy.
An encounter still going on after --max-turns turns is a draw.

What is printed:
  win rates      player win / enemy win / draw, each with a Wilson 95% interval
  casualties     figures per game each side lost (Out of the Fight, Obviously
                 Dead, left the table), mean with a 95% interval
  turns          mean, spread (sd), min, median, max
  reasons        why the games ended, most common first
  took figures out
                 for every figure lost, the rules cited by the chain of events
                 of the step that took it out (up to the event naming it); the
                 share of that side's losses each rule was part of

--compare A B plays every game twice, under setting A and under setting B, with
the same seed: the same table, deployment and dice as long as the two games
agree.  A and B are KEY=VALUE with the same KEY:
  enemy=solo|plain|random        player=tactical|objective|book|random
  band=TYPE  enemy_band=TYPE     (band types: {", ".join(b.value for b in BandType)})
  a rules option: an Interpretation's name (charge_missed_charger_tests=true,
  flank_half_angle=60, ...) or old_school, firearms_detail, night (true|false),
  weather (clear|bad), scale (28mm|15mm)
It prints A's and B's win rates, casualties and turns and the difference B - A,
each with a paired 95% t interval (Student's t from scipy.stats; the games are
paired by seed), and how many games would settle it: the number at which the
interval would exclude zero if the observed difference and spread held, or
"settled" when it already does.  Whether a rule changes who wins is such a
question: --compare charge_missed_charger_tests=false charge_missed_charger_tests=true.

--keep DIR writes the games as saved games, to watch in the app (Game > Watch
Game...) or with 'crdesk game show': DIR/game-0007-seed-SEED-won.crgame, the
game's number (from 0, as the report numbers them) padded so the names sort in
game order, its seed and its outcome for the player (won, lost or draw); with
--compare each setting's games go to a folder of DIR named by it (DIR/enemy=solo/).
DIR is made if missing.  A file is never replaced: a DIR that already holds a game
of this batch (the same number and seed) is refused before anything is played;
games of other batches stay beside the new ones.  --keep-only lost|won|draw keeps
the games of that outcome, --keep-only 0,7,12 those games; a game that failed is
not written.  With --scheduler, DIR must be a folder every worker can write.

--scheduler ADDRESS runs the games on a Dask distributed cluster (its workers
need crdesk installed): pip install 'crdesk[cluster]'."""


class _Parser(OneLineParser):
    pass


_games = int_in(1, 10_000_000, "the number of games")
_seed = int_in(0, 2**63 - 1, "the seed")
_jobs = int_in(1, 512, "the number of jobs")
_turns = int_in(1, 10_000, "a number of turns")


def _keep_only(text: str) -> tuple[tuple[str, ...], frozenset[int] | None]:
    try:
        return parse_keep_only(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate`` to the ``crdesk`` parser's subparsers."""
    p = add_command(
        subparsers,
        _Parser,
        "simulate",
        help="play many automated encounters and print win rates, losses and "
        "the rules that decide them",
        description="Play N encounters with both sides automated and print their "
        "statistics: a scenario as it stands, or a table generated for each game "
        "with a Band deployed on it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scenario", nargs="?", metavar="SCENARIO", help="a .crdesk scenario file")
    p.add_argument(
        "--generate",
        metavar="TYPE",
        choices=TERRAIN_TYPES,
        help="each game generates its own table of this type (9.2): " + ", ".join(TERRAIN_TYPES),
    )
    p.add_argument(
        "--size",
        type=table_size,
        default=None,
        metavar="WxH",
        help="the generated tables' size in inches (default 36x36, the book's 3' x 3')",
    )
    p.add_argument("--games", type=_games, required=True, metavar="N", help="games to play")
    p.add_argument("--seed", type=_seed, required=True, metavar="S", help="the batch's seed")
    p.add_argument(
        "--jobs", type=_jobs, default=1, metavar="J", help="local worker processes (default 1)"
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on a Dask distributed scheduler, e.g. tcp://host:8786",
    )
    p.add_argument(
        "--encounter",
        choices=ENCOUNTERS,
        help="the encounter (12); default patrol with --generate, else the scenario's own",
    )
    p.add_argument(
        "--band",
        metavar="TYPE|FILE",
        help="the player's Band: a band type for the default Band (a Rep 5 Star and four "
        "Rep 4 Grunts; " + ", ".join(BAND_TYPES) + "; default military with --generate) "
        "or a saved .crband file",
    )
    p.add_argument(
        "--enemy-band",
        choices=BAND_TYPES,
        default=None,
        help="the enemies the PEFs turn into (default military)",
    )
    p.add_argument(
        "--player",
        choices=PLAYER_POLICIES,
        default=None,
        help="how the player's Band plays: 'tactical' (default) plays for the encounter's "
        "objective Cover to Cover, fires when it has shots and leaves once it is done (a "
        "Raid's carrier first); "
        "'objective' is the book policy that, with no enemy on the table, walks to the "
        "objective (the Patrol's far edge, then home); 'book' is the book policy alone, "
        "which never patrols; 'random' chooses uniformly among the legal choices",
    )
    p.add_argument(
        "--enemy",
        choices=ENEMY_POLICIES,
        default=None,
        help="how the enemy plays (11.4): 'solo' (default) chooses its spots by Cover, "
        "range and exposure; 'plain' carries out the same orders with the nearest Cover "
        "or the straight line; 'random' chooses uniformly among the legal choices",
    )
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="play every game under setting A and under setting B (KEY=VALUE, the same "
        "KEY: enemy=solo enemy=plain, player=..., band=TYPE|FILE.crband, enemy_band=..., "
        "scenario=FILE (no SCENARIO then), terrain=TYPE (no --generate then), or a rules "
        "option such as charge_missed_charger_tests=true) and print the paired differences",
    )
    p.add_argument(
        "--max-turns",
        type=_turns,
        default=DEFAULT_MAX_TURNS,
        metavar="T",
        help=f"a game still going after T turns is a draw (default {DEFAULT_MAX_TURNS})",
    )
    p.add_argument(
        "--keep",
        metavar="DIR",
        help="write the games to DIR (made if missing) as .crgame files to watch: "
        "game-NUMBER-seed-SEED-won|lost|draw.crgame; a DIR already holding games of "
        "this batch is refused (nothing is replaced)",
    )
    p.add_argument(
        "--keep-only",
        type=_keep_only,
        metavar="WHICH",
        help="with --keep, only the games the player lost, won or drew (lost, won, draw) "
        "or the games numbered N,M,... (from 0, as the report numbers them)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_simulate)
    sizes_may_be_negative(p)


def _error(message: str, status: int = EXIT_USAGE) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _read_band(path: str, what: str) -> tuple[str, str, tuple[Member, ...]] | int:
    """A saved Band's type, name and members to deploy, or the exit status of why not
    (``what``: the option, for the message)."""
    from crdesk.band import BandFileError, load_band

    try:
        band = load_band(path)
    except BandFileError as exc:
        return _error(f"{what}: {exc.one_line()}")
    except OSError as exc:
        return _error(f"{what}: {path}: {exc.strerror or exc}")
    if not band.active:
        return _error(f"{what}: {path}: the Band has no figure left to deploy")
    return band.band_type.value, band.name, band_members(band.to_figures())


def _read_scenario(path: str, what: str) -> str | int:
    """A scenario file's document text for a batch (checked: two forces, one the
    player's), or the exit status of why not."""
    from crdesk.cli.common import load_for_command
    from crdesk.scenario import dumps

    scenario = load_for_command(path)
    if isinstance(scenario, int):
        return scenario
    forces = scenario.battlefield.forces
    if len(forces) != 2 or sum(f.player for f in forces) != 1:
        return _error(
            f"{what}{path}: a simulated game needs two forces, one of them the player's "
            f"(this scenario has {len(forces)}, {sum(f.player for f in forces)} the player's)"
        )
    return dumps(scenario)


def _setup(args: argparse.Namespace, pair: tuple[Setting, Setting] | None = None) -> Setup | int:
    """The batch's set-up from the arguments, or the exit status of what is wrong; a
    ``--compare`` of tables (scenario=, terrain=) gives the table itself."""
    table_key = pair[0].key if pair is not None and pair[0].key in TABLE_KEYS else None
    if table_key is not None:
        if args.scenario is not None or args.generate is not None:
            return _error(
                f"--compare {table_key}=... chooses the table: give no SCENARIO or --generate"
            )
        if table_key == "terrain":
            assert pair is not None
            args = argparse.Namespace(**{**vars(args), "generate": pair[0].value})
    elif (args.scenario is None) == (args.generate is None):
        return _error("give a SCENARIO file or --generate TYPE (one of them)")
    if args.size is not None and args.generate is None:
        return _error("--size is for --generate (a scenario keeps its own table)")
    if args.scheduler is not None and args.jobs != 1:
        return _error("--jobs is for local processes; with --scheduler the cluster's workers play")
    band_type = BandType.MILITARY.value
    band_name = "Military Band"
    members = None
    if args.band is not None:
        if args.band.lower() in BAND_TYPES:
            band_type = args.band.lower()
            members = default_band(band_type)
            band_name = f"{band_type.title()} Band"
        elif args.band.endswith(".crband") or Path(args.band).exists():
            read = _read_band(args.band, "--band")
            if isinstance(read, int):
                return read
            band_type, band_name, members = read
        else:
            return _error(
                f"--band must be a band type ({', '.join(BAND_TYPES)}) or a .crband file, "
                f"got {args.band!r}"
            )
    common: dict[str, Any] = {
        "band_type": band_type,
        "band_name": band_name,
        "enemy_band": args.enemy_band or BandType.MILITARY.value,
        "max_turns": args.max_turns,
        "player": args.player or PLAYER_POLICIES[0],
        "enemy": args.enemy or ENEMY_POLICIES[0],
    }
    if args.generate is not None:
        return Setup(
            terrain=args.generate,
            size=args.size or TABLE_SIZE,
            encounter=args.encounter or EncounterType.PATROL.value,
            band=members if members is not None else default_band(band_type),
            **common,
        )
    if table_key == "scenario":
        assert pair is not None and isinstance(pair[0].value, ScenarioValue)
        text, source = pair[0].value.text, pair[0].value.path
    else:
        document = _read_scenario(args.scenario, "")
        if isinstance(document, int):
            return document
        text, source = document, args.scenario
    return Setup(
        scenario=text,
        source=source,
        encounter=args.encounter,
        band=members,
        **common,
    )


def _pair(args: argparse.Namespace) -> tuple[Setting, Setting] | int | None:
    """The two settings of ``--compare`` (None without it), or the exit status."""
    if args.compare is None:
        return None
    try:
        pair = parse_pair(*args.compare)
    except ValueError as exc:
        return _error(f"--compare: {exc}")
    key = pair[0].key
    if key in ("enemy", "player", "band", "enemy_band") and getattr(args, key) is not None:
        option = "--" + key.replace("_", "-")
        return _error(f"{option} and --compare {key}=... both set it; give one of them")
    read: list[Setting] = []
    for setting in pair:  # the files a setting names, read and checked now
        value: Any = setting.value
        if key == "band" and value not in BAND_TYPES:
            band = _read_band(value, f"--compare {setting.text}")
            if isinstance(band, int):
                return band
            value = BandValue(setting.value, *band)
        elif key == "scenario":
            text = _read_scenario(value.path, f"--compare {setting.text}: ")
            if isinstance(text, int):
                return text
            value = ScenarioValue(value.path, text)
        read.append(replace(setting, value=value))
    return read[0], read[1]


def cmd_simulate(args: argparse.Namespace) -> int:
    """``crdesk simulate SCENARIO|--generate TYPE --games N --seed S ...``."""
    pair = _pair(args)
    if isinstance(pair, int):
        return pair
    setup = _setup(args, pair)
    if isinstance(setup, int):
        return setup
    setups = [setup] if pair is None else [pair[0].apply(setup), pair[1].apply(setup)]
    keeps = _keeps(args, pair)
    if isinstance(keeps, int):
        return keeps
    setups = [replace(s, keep=k) for s, k in zip(setups, keeps, strict=True)]
    setup = setups[0]
    started = time.perf_counter()
    try:
        batches = run_batches(
            setups, args.games, args.seed, jobs=args.jobs, scheduler=args.scheduler
        )
    except SchedulerUnavailable as exc:
        return _error(str(exc))
    except OSError as exc:
        return _error(f"--scheduler {args.scheduler}: {exc}")
    elapsed = time.perf_counter() - started
    if pair is not None:
        return _compared(args, setups, pair, batches, elapsed)
    results = batches[0]
    report = summarize(results)
    status = EXIT_PROBLEMS if report["errors"] else EXIT_OK
    if args.json:
        out = {"seed": args.seed, "setup": setup.describe(), **report}
        if setup.keep is not None:
            out["kept"] = _kept(setup.keep, results)
        out["results"] = [_result_row(r) for r in results]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return status
    for line in report_lines(setup, args.seed, report):
        print(line)
    if setup.keep is not None:
        print(f"Kept {count(setup.keep.kept(results), 'game')} in {setup.keep.dir}")
    print(f"{args.games} games in {elapsed:.1f} s")
    return status


def _folder_name(text: str) -> str:
    """A setting (``enemy=solo``) as a folder's name, safe on every system."""
    return re.sub(r"[^A-Za-z0-9._=+-]", "_", text)


def _keeps(
    args: argparse.Namespace, pair: tuple[Setting, Setting] | None
) -> list[Keep | None] | int:
    """Each set-up's :class:`Keep` (None without ``--keep``), its folder made and
    checked before anything is played; or the exit status of what is wrong."""
    if args.keep is None:
        if args.keep_only is not None:
            return _error("--keep-only is for --keep DIR")
        return [None] * (1 if pair is None else 2)
    if not args.keep.strip():
        return _error("--keep: give the folder to write the games to")
    outcomes, games = args.keep_only or (tuple(KEEP_WORDS.values()), None)
    if games is not None and max(games) >= args.games:
        return _error(
            f"--keep-only: no game {max(games)} in a batch of {args.games} "
            f"(games 0-{args.games - 1})"
        )
    base = Path(args.keep).absolute()
    folders = [base]
    if pair is not None:
        names = [_folder_name(s.text) for s in pair]
        if names[0] == names[1]:
            names = [f"a-{names[0]}", f"b-{names[1]}"]
        folders = [base / name for name in names]
    keeps = [Keep(str(f), len(str(args.games - 1)), outcomes, games) for f in folders]
    for folder in [base, *folders]:
        if folder.exists() and not folder.is_dir():
            return cannot_write(folder, "it is not a folder")
    for keep in keeps:
        try:
            clashes = keep.clashes(args.games, args.seed)
        except OSError as exc:
            return cannot_write(keep.dir, exc)
        if clashes:
            more = len(clashes) - 3
            shown = ", ".join(clashes[:3]) + (f" and {more} more" if more > 0 else "")
            return _error(
                f"--keep: {keep.dir} already holds {count(len(clashes), 'game')} of this "
                f"batch ({shown}); nothing is replaced: remove them or keep elsewhere"
            )
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return cannot_write(folder, exc)
        if not os.access(folder, os.W_OK | os.X_OK):
            return cannot_write(folder, "permission denied")
    return list(keeps)


def _kept(keep: Keep, results: list[GameResult]) -> dict[str, Any]:
    return {"dir": keep.dir, "games": keep.kept(results)}


def _result_row(r: GameResult, index: bool = True) -> dict[str, Any]:
    row: dict[str, Any] = {"game": r.index, "seed": r.seed} if index else {}
    row.update(winner=r.winner, reason=r.reason, turns=r.turns, losses=r.losses, error=r.error)
    return row


def _compared(
    args: argparse.Namespace,
    setups: list[Setup],
    pair: tuple[Setting, Setting],
    batches: list[list[GameResult]],
    elapsed: float,
) -> int:
    """The report of ``--compare``: each setting's summary and the paired differences."""
    sides = [summarize(batch) for batch in batches]
    paired = compare(*batches)
    status = EXIT_PROBLEMS if any(side["errors"] for side in sides) else EXIT_OK
    if args.json:
        out = {
            "seed": args.seed,
            "games": args.games,
            "compare": {"key": pair[0].key, "a": pair[0].text, "b": pair[1].text},
            "paired": paired,
            **{
                name: {"setting": s.text, "setup": su.describe(), **side}
                for name, s, su, side in zip("ab", pair, setups, sides, strict=True)
            },
            "results": [
                {
                    "game": a.index,
                    "seed": a.seed,
                    "a": _result_row(a, index=False),
                    "b": _result_row(b, index=False),
                }
                for a, b in zip(*batches, strict=True)
            ],
        }
        kept = _kept_pair(args, setups, batches)
        if kept is not None:
            out["kept"] = kept[0]
            for name, side in zip("ab", kept[1], strict=True):
                out[name]["kept"] = side
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return status
    for line in compare_lines(setups, pair, args.seed, sides, paired):
        print(line)
    kept = _kept_pair(args, setups, batches)
    if kept is not None:
        each = ", ".join(f"{Path(s['dir']).name}/ {s['games']}" for s in kept[1])
        print(f"Kept {count(kept[0]['games'], 'game')} in {kept[0]['dir']} ({each})")
    print(f"{args.games} games under each setting in {elapsed:.1f} s")
    return status


def _kept_pair(
    args: argparse.Namespace, setups: list[Setup], batches: list[list[GameResult]]
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """What ``--keep`` kept under each setting, and in all (None without it)."""
    sides = [_kept(su.keep, b) for su, b in zip(setups, batches, strict=True) if su.keep]
    if not sides:
        return None
    total = {"dir": str(Path(args.keep).absolute()), "games": sum(s["games"] for s in sides)}
    return total, sides


ENEMY_WORDS = {
    "solo": "the solo enemy (11.4; its spots chosen by Cover, range and exposure)",
    "plain": "the plain enemy (11.4; the nearest Cover or the straight line)",
    "random": "the random player",
}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report_lines(setup: Setup, seed: int, report: dict[str, Any]) -> list[str]:
    """The plain-text report."""
    about = setup.describe()
    lines = [
        f"{report['games']} games, seed {seed}: {about['encounter']} on {about['table']}, "
        f"at most {about['max_turns']} turns, the {about['player']} policy for the player",
    ]
    if "band" in about:
        band = about["band"]
        lines.append(f"Band: {band['name']} ({band['type']}): " + ", ".join(band["figures"]))
    if "enemy_band" in about:
        lines.append(
            f"Enemy: {about['enemy_band']} (from PEFs, 11), played by {ENEMY_WORDS[setup.enemy]}"
        )
    elif setup.enemy != ENEMY_POLICIES[0]:
        lines.append(f"Enemy: played by {ENEMY_WORDS[setup.enemy]}")
    played = report["played"]
    lines.append("")
    lines.append(f"Win rates ({played} games played, Wilson 95% intervals):")
    labels = {"player": "player wins", "enemy": "enemy wins", "draw": "draws"}
    for key, label in labels.items():
        rate = report["win_rates"][key]
        lo, hi = rate["ci95"]
        lines.append(
            f"  {label:<12} {rate['games']:>6}  {_pct(rate['rate']):>6}  [{_pct(lo)} - {_pct(hi)}]"
        )
    lines.append("Casualties per game (mean, 95% interval; totals by how they ended):")
    for side in ("player", "enemy"):
        c = report["casualties"][side]
        per = c["per_game"]
        kinds = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in c["total"].items()) or "none"
        lines.append(
            f"  {side:<7} {per['mean']:.2f} [{per['ci95'][0]:.2f} - {per['ci95'][1]:.2f}]  "
            f"({kinds})"
        )
    enemies = report["casualties"]["enemy_figures"]
    lines.append(f"  enemy figures that appeared per game: {enemies['mean']:.2f}")
    t = report["turns"]
    lines.append(
        f"Turns: mean {t['mean']:.2f} (sd {t['sd']:.2f}), min {t['min']}, median "
        f"{t['median']:g}, max {t['max']}"
    )
    lines.append("Why the games ended:")
    for row in report["reasons"]:
        lines.append(f"  {row['games']:>6}  {row['reason']}")
    lines += behaviour_lines([("", report)])
    rules = report["decisive_rules"]
    lines.append("Rules that took figures out (share of each side's losses):")
    for side in ("player", "enemy"):
        rows = rules["loss_rules"][side]
        text = "; ".join(f"{r['rule']} {_pct(r['share'])}" for r in rows[:6]) or "no losses"
        lines.append(f"  {side} losses: {text}")
    if report["errors"]:
        lines.append(f"{len(report['errors'])} game(s) failed (not counted above):")
        for err in report["errors"]:
            lines.append(f"  game {err['game']} (seed {err['seed']}): {err['error']}")
    return lines


BEHAVIOUR_ROWS = (
    ("safe_moves", "moves ending in Cover or unseen", "pct"),
    ("exposure", "enemies seeing a figure after its move", "num"),
    ("fired_when_possible", "fired when it had a shot", "pct"),
    ("shuffles", 'shuffles (moves under 1" that change nothing)', "pct"),
    ("objectives", "objective reached (games)", "pct"),
    ("losses_per_kill", "figures lost per enemy taken out", "num"),
)
"""The behaviour rates as the plain report words them (:mod:`crdesk.behaviour`)."""


def behaviour_lines(reports: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The behaviour rates: one report's as a column for each side; several reports'
    (``--compare``'s A and B, a benchmark's settings) as one block per side, a column
    for each report."""

    def cell(value: float | None, kind: str) -> str:
        if value is None:
            return "n/a"
        return _pct(value) if kind == "pct" else f"{value:.2f}"

    lines = ["How each side played (crdesk.behaviour; n/a: nothing to count):"]
    if len(reports) == 1:
        columns = [("player", reports[0][1], "player"), ("enemy", reports[0][1], "enemy")]
        blocks = [("", columns)]
    else:
        blocks = [
            (f"{side}:", [(label, report, side) for label, report in reports])
            for side in ("player", "enemy")
        ]
    for title, columns in blocks:
        width = max(8, *(len(label) for label, _, _ in columns))
        head = "".join(f" {label:>{width}}" for label, _, _ in columns)
        lines.append(f"  {title:<46}{head}")
        for key, words, kind in BEHAVIOUR_ROWS:
            cells = "".join(
                f" {cell(report['behaviour'][side][key], kind):>{width}}"
                for _, report, side in columns
            )
            lines.append(f"  {words:<46}{cells}")
    return lines


def _settle(m: dict[str, Any]) -> str:
    """The "to settle" column: settled, or the games it would take."""
    if m["settled"]:
        return "settled"
    if m["ci95"] is None:
        return "too few games"
    if m["games_needed"] is None:
        if m["difference"] == 0:
            return "no difference in any game" if m["sd"] == 0 else "no difference seen"
        return "not by playing"
    return f"about {m['games_needed']:,} games ({m['more_games']:,} more)"


def compare_lines(
    setups: list[Setup],
    pair: tuple[Setting, Setting],
    seed: int,
    sides: list[dict[str, Any]],
    paired: dict[str, Any],
) -> list[str]:
    """The plain-text report of ``--compare``."""
    about = setups[0].describe()
    key = pair[0].key
    rest = []
    if key != "player":
        rest.append(f"the {about['player']} policy for the player")
    if key != "enemy":
        rest.append(f"the {about['enemy']} enemy")
    table = "the table each setting names" if key in TABLE_KEYS else about["table"]
    lines = [
        f"{sides[0]['games']} paired games, seed {seed}: {about['encounter']} on "
        f"{table}, at most {about['max_turns']} turns, " + ", ".join(rest),
        f"  A: {pair[0].text}",
        f"  B: {pair[1].text}",
    ]
    if "band" in about and key != "band":
        band = about["band"]
        lines.append(f"Band: {band['name']} ({band['type']}): " + ", ".join(band["figures"]))
    if "enemy_band" in about and key != "enemy_band":
        lines.append(f"Enemy: {about['enemy_band']} (from PEFs, 11)")
    same = (
        "the same seed (each setting's table; the same dice as long as the two games agree)"
        if key in TABLE_KEYS
        else "the same seed: the same table, deployment and dice as long as the two games agree"
    )
    lines += [
        f"Each game is played under A and under B with {same}; "
        f"{paired['differ']} of {paired['games']} ended differently.",
        "",
        f"B - A over {paired['games']} paired games, with {paired['confidence']:.0%} "
        f"intervals by {paired['method']}:",
        f"  {'':<18} {'A':>7} {'B':>7} {'B - A':>10}  {'95% interval':<22} to settle",
    ]
    for name, words, _value in MEASURES:
        m = paired["measures"][name]
        ci = m["ci95"]
        if name in RATES:
            a, b = _pct(m["a"]), _pct(m["b"])
            diff = f"{100 * m['difference']:+.1f} pts"
            span = "" if ci is None else f"[{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}] pts"
        else:
            a, b = f"{m['a']:.2f}", f"{m['b']:.2f}"
            diff = f"{m['difference']:+.2f}"
            span = "" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
        lines.append(f"  {words:<18} {a:>7} {b:>7} {diff:>10}  {span:<22} {_settle(m)}")
    if paired["dropped"]:
        lines.append(f"  ({paired['dropped']} game(s) failed under A or B: left out of the pairs)")
    lines += behaviour_lines([("A", sides[0]), ("B", sides[1])])
    for name, side in zip("AB", sides, strict=True):
        for err in side["errors"]:
            lines.append(f"  {name}: game {err['game']} (seed {err['seed']}): {err['error']}")
    return lines
