"""``crdesk game``: play an encounter from the command line, one saved step at a time.

::

    crdesk game new demo.crdesk -o g.crgame --seed 7     # start a game, save it
    crdesk game show g.crgame                            # what is awaited, where is everyone
    crdesk game do g.crgame activate p1                  # play one action, save again
    crdesk game do g.crgame move p1 10,12 face 90
    crdesk game do g.crgame --dice 3,5                   # a manual-dice game's faces
    crdesk game log g.crgame                             # every step and what it caused
    crdesk game replay g.crgame --verify                 # does the file replay exactly?
    crdesk game auto demo.crdesk --turns 3               # the book policy plays both sides
    crdesk game auto demo.crdesk --enemy solo            # the enemy moves by table 11.4
    crdesk game auto demo.crdesk --encounter patrol --deploy  # a Patrol's objectives (12)

Every subcommand prints text, or one JSON object with ``--json``.  A refused
action, a bad argument or a file that is not a game prints one line
``error: ...`` on stderr and exits 2 (the game file is left untouched); a game
whose steps no longer replay exits 1.  :mod:`crdesk.cli.app` wires it in with
:func:`register`.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import secrets
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from crdesk.ai.policy import BookPolicy, Policy, play_policies
from crdesk.band import Band, band_record, band_scenario, load_band
from crdesk.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    TERRAIN_TYPES,
    OneLineParser,
    add_command_group,
    cannot_write,
    int_in,
    load_for_command,
    refuse_output,
    table_size,
)
from crdesk.dice import CounterDice
from crdesk.errors import CrdeskError, IllegalActionError, ScenarioError
from crdesk.game import actions as actions_module
from crdesk.game.actions import ACTION_WORDS, parse_faces
from crdesk.game.controller import Game
from crdesk.game.deployment import DEPLOY_DIE, default_band, deploy, deploy_at, without_enemies
from crdesk.game.encounter import encounter_name
from crdesk.game.records import Decision, Event
from crdesk.game.savefile import (
    GameFileError,
    GameReplayError,
    LoadedGame,
    load_document,
    load_game,
    read_game_document,
    save_game,
)
from crdesk.game.settings import MANUAL, SEEDED, GameSettings
from crdesk.generator import generate
from crdesk.model import BandType, EncounterType, Scenario
from crdesk.scenario import read_limited

DESCRIPTION = (
    "Play a Chain Reaction encounter from the command line.  A game lives in a .crgame "
    "file (its scenario, dice seed and steps); each 'crdesk game do' plays one action and "
    "saves the file again, so a game can be played a step at a time, shared and replayed "
    "exactly."
)

MAX_SEED = 2**63 - 1


def _action_table() -> str:
    """The text forms of the actions, from :mod:`crdesk.game.actions`' docstring table."""
    lines = (actions_module.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+(\s+=+)+", line.strip())]
    rows: list[tuple[str, str]] = []
    if len(rules) >= 3:
        rule = lines[rules[0]]
        col = rule.index("=", rule.index(" ", rule.index("=")))
        for line in lines[rules[1] + 1 : rules[2]]:
            left, right = line[:col].strip().replace("``", ""), line[col:].strip()
            if left:
                rows.append((left, right))
    if not rows:
        return "actions: " + ", ".join(ACTION_WORDS)
    width = max(len(left) for left, _ in rows)
    body = "\n".join(f"  {left:<{width}}  {right}" for left, right in rows)
    return (
        "actions (the words after 'crdesk game do FILE'):\n"
        f"{body}\n\n"
        "Points are x,y in inches.  Put '--' before an action with a negative number:\n"
        "  crdesk game do g.crgame -- move p1 -1,3"
    )


# --------------------------------------------------------------------------
# Argument parsing with one-line errors


class _Parser(OneLineParser):
    """An argparse parser whose errors are one line on stderr (exit 2), no usage dump."""

    choice_metavar = "COMMAND"
    command = "game"


class _IntermixedParser(_Parser):
    """Options may come anywhere, before or after the action's words (``do``)."""

    _inside = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._inside:  # the two passes of parse_known_intermixed_args
            return argparse.ArgumentParser.parse_known_args(self, args, namespace)
        self._inside = True
        try:
            ns, extras = self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras


_seed = int_in(0, MAX_SEED, "the seed")
_turns = int_in(1, 10_000, "a number of turns")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``game`` and its subcommands to the ``crdesk`` parser's subparsers."""
    sub = add_command_group(
        subparsers,
        _Parser,
        "game",
        help="play an encounter a step at a time from a saved .crgame file",
        description=DESCRIPTION,
        epilog=_action_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    p = sub.add_parser("new", help="start a game of a scenario and save it")
    p.add_argument(
        "scenario", metavar="SCENARIO", nargs="?", help="a .crdesk scenario file (or --generate)"
    )
    p.add_argument("-o", "--output", required=True, metavar="GAME", help="the .crgame to write")
    p.add_argument("--seed", type=_seed, help="the dice seed (default: a random one)")
    p.add_argument(
        "--manual-dice", action="store_true", help="roll real dice and enter their faces"
    )
    p.add_argument("--max-turns", type=_turns, metavar="N", help="end as a draw after N turns")
    p.add_argument(
        "--solo",
        action="store_true",
        help="solo play: the enemy hides as PEFs (11) the game places, moves and resolves",
    )
    _encounter_arguments(p)
    p.add_argument("--force", action="store_true", help="replace GAME if it exists")
    p.set_defaults(handler=cmd_new)

    p = sub.add_parser("show", help="the decision awaited and where every figure is")
    p.add_argument("game", metavar="GAME", help="a .crgame file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_show)

    sub._parser_class = _IntermixedParser
    p = sub.add_parser(
        "do",
        help="play one action (or enter dice) and save the game",
        description="Play one action, e.g. 'crdesk game do g.crgame move p1 10,12', or "
        "answer a chance decision with --dice 3,5 (or the action 'dice 3,5').  In a "
        "manual-dice game an action with --dice is played with those faces.",
        epilog=_action_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", metavar="GAME", help="a .crgame file")
    p.add_argument("action", nargs="*", metavar="ACTION", help="the action's words")
    p.add_argument("--dice", metavar="FACES", help="faces of real dice, e.g. 3,5")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_do)
    sub._parser_class = _Parser

    p = sub.add_parser("log", help="every step played and the events it caused")
    p.add_argument("game", metavar="GAME", help="a .crgame file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_log)

    p = sub.add_parser(
        "replay",
        help="replay the steps and check every recorded state (exit 1 if they diverge)",
    )
    p.add_argument("game", metavar="GAME", help="a .crgame file")
    p.add_argument(
        "--verify",
        action="store_true",
        help="also compare the replayed final state with the one saved, field by field",
    )
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("auto", help="the program plays both sides of a scenario")
    p.add_argument(
        "scenario", metavar="SCENARIO", nargs="?", help="a .crdesk scenario file (or --generate)"
    )
    p.add_argument("--seed", type=_seed, help="the dice seed (default: a random one)")
    p.add_argument(
        "--turns",
        type=_turns,
        default=None,
        metavar="N",
        help="turns to play (default 10; 20 with --band, as crdesk simulate: the limit ends "
        "an encounter as not won)",
    )
    p.add_argument(
        "--enemy",
        choices=("book", "solo"),
        default=None,
        help="who plays the non-player force: the book policy (default) or the solo enemy "
        "AI, which moves by table 11.4 (crdesk.ai.enemy; the default with --solo)",
    )
    p.add_argument(
        "--solo",
        action="store_true",
        help="solo play: the enemy hides as PEFs (11) the game places, moves and resolves",
    )
    _encounter_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-o", "--output", metavar="GAME", help="save the game played")
    p.add_argument("--force", action="store_true", help="replace GAME if it exists")
    p.set_defaults(handler=cmd_auto)


def _encounter_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--band",
        metavar="FILE",
        help="the campaign's Band (.crband) plays the player's side, deployed by the "
        "encounter (default: its next encounter); the game records the Band, so "
        "'crdesk band after-battle' takes exactly this game into it",
    )
    p.add_argument(
        "--generate",
        choices=TERRAIN_TYPES,
        metavar="TYPE",
        help="generate the table by 9.2-9.5 and the encounter's buildings from the game's "
        "seed, as crdesk simulate does: " + ", ".join(TERRAIN_TYPES),
    )
    p.add_argument(
        "--size",
        type=table_size,
        default=(36.0, 36.0),
        metavar="WxH",
        help="the generated table in inches (default 36x36, the book's 3' x 3')",
    )
    p.add_argument(
        "--encounter",
        choices=[e.value for e in EncounterType],
        help="play this encounter's objectives (12; implies --solo); with --solo alone the "
        "scenario's encounter is played; 'free' plays no objective",
    )
    p.add_argument(
        "--deploy",
        nargs="?",
        const="auto",
        default=None,
        metavar="auto|FILE",
        help="deploy the player's force by the encounter (12: Patrol and Raid enter from "
        "the near edge of sections 7-9, Defend sets up in them): 'auto' (the default with "
        "--band) places it by the book's 1d6; FILE is JSON of the player's own places, "
        '{"figure id": [x, y], ...}, each checked against the encounter\'s zone; a force '
        "with no figures gets a default band (a Rep 5 Star and four Rep 4 Grunts)",
    )


# --------------------------------------------------------------------------
# Helpers


def _error(message: str, status: int = EXIT_USAGE) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _open(path: str, *, strict: bool) -> LoadedGame | int:
    """Load a game for a command, or print why not and return the exit status."""
    try:
        loaded = load_game(path, strict=strict)
    except GameReplayError as exc:
        return _error(
            f"{exc.one_line()} ('crdesk game show {path}' opens it at the last good step)",
            EXIT_PROBLEMS,
        )
    except GameFileError as exc:
        return _error(exc.one_line())
    for warning in loaded.warnings:
        print(f"warning: {path}: {warning}", file=sys.stderr)
    return loaded


def _refuse_overwrite(path: str | None, force: bool) -> int | None:
    if path and not force and Path(path).exists():
        return _error(f"{path} exists; give --force to replace it")
    return None


def _save(game: Game, path: str) -> int | None:
    try:
        save_game(game, path)
    except GameFileError as exc:  # what the file could not hold: nothing is written
        return _error(exc.one_line())
    except OSError as exc:
        return cannot_write(path, exc)
    return None


def _dump(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _side_name(game: Game, side: str | None) -> str:
    for force in game.battlefield.forces:
        if force.id == side:
            return f"{force.name} ({side})"
    return str(side)


def _outcome_text(game: Game) -> str:
    out = game.outcome
    if out is None:
        return "the encounter goes on"
    who = f"{_side_name(game, out.winner)} wins" if out.winner else "a draw"
    text = f"Outcome: {who}: {out.reason} (turn {out.turn})"
    if out.next_encounter:
        text += f"; next encounter: {encounter_name(out.next_encounter)} (12)"
    return text


def _decision_lines(decision: Decision | None, game: Game) -> list[str]:
    if decision is None:
        return [_outcome_text(game)]
    actor = "chance (the dice)" if decision.actor == "chance" else _side_name(game, decision.actor)
    lines = [
        f"Awaiting: {actor} (step {decision.step}, decision '{decision.kind}')",
        f"  {decision.prompt} ({decision.section})",
    ]
    if decision.dice:
        lines.append(f"  enter {decision.dice} faces: dice F,F,...  (or --dice F,F,...)")
    if decision.options:
        lines.append("  choose one of:")
        lines += [f"    {option}" for option in decision.options]
    accepts = [w for w in decision.accepts if w != "dice"]
    if accepts:
        lines.append(f"  or an action starting: {', '.join(accepts)}")
    return lines


def _next_line(game: Game) -> str:
    decision = game.awaiting()
    if decision is None:
        return _outcome_text(game)
    actor = "chance" if decision.actor == "chance" else decision.actor
    return f"next: {actor}: {decision.prompt}"


def _flags(fig: dict[str, Any], active: bool) -> str:
    flags = [
        name
        for key, name in (
            ("prone", "prone"),
            ("fast_moving", "fast moving"),
            ("out_of_ammo", "out of ammo"),
            ("activated", "activated"),
        )
        if fig.get(key)
    ]
    if active and fig.get("movement_left") is not None:
        flags.append(f'{fig["movement_left"]:g}" to move')
    return ", ".join(flags)


def _num(value: float) -> str:
    return f"{value:g}"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _summary_lines(game: Game) -> list[str]:
    s = game.summary()
    dice = ", ".join(f"{k} {v}" for k, v in s["activation_dice"].items()) or "not rolled"
    head = f"Turn {s['turn']}; activation dice: {dice}"
    if s["active_side"]:
        head += f"; active side: {s['active_side']}"
    if s["active_group"]:
        head += f"; active group: {', '.join(s['active_group'])}"
    rows = [["id", "name", "side", "rep", "x", "y", "facing", "status", "flags"]]
    for fig in s["figures"]:
        rows.append(
            [
                fig["id"],
                fig["name"],
                fig["side"],
                str(fig["rep"]),
                _num(fig["x"]),
                _num(fig["y"]),
                _num(fig["facing"]),
                fig["status"],
                _flags(fig, fig["id"] in (s["active_group"] or ())),
            ]
        )
    return [head, *_table(rows)]


def _header(path: str, game: Game) -> str:
    return (
        f"{path}: {game.scenario.title}, seed {game.seed}, {game.dice_mode} dice, "
        f"{len(game.history)} step{'s' if len(game.history) != 1 else ''}"
    )


# --------------------------------------------------------------------------
# The subcommands


def _new_game(
    args: argparse.Namespace, *, dice: str, settings: GameSettings
) -> tuple[Scenario, Game, int] | int:
    """What ``new`` and ``auto`` share: no overwrite unasked, the scenario loaded, a
    seed (random unless given), the game made; or the exit status of what failed.
    With ``--band`` the campaign's Band plays the player's side (14)."""
    refused = _refuse_overwrite(args.output, args.force)
    if refused is None and args.output:  # before a game is played (auto) to be lost
        refused = refuse_output(args.output, (".crgame",))
    if refused is not None:
        return refused
    band: Band | None = None
    if args.band is not None:
        try:
            band = load_band(args.band)
        except ScenarioError as exc:
            return _error(exc.one_line() if hasattr(exc, "one_line") else str(exc))
        if band.ended:
            return _error(f"{args.band}: {band.name}'s Star did not return: the story is over")
    if (args.scenario is None) == (args.generate is None):
        return _error("give a SCENARIO or --generate TYPE (one of them)")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    chosen: str | None = args.encounter  # --encounter, else the Band's next encounter
    if chosen is None and band is not None and band.next_encounter is not None:
        chosen = band.next_encounter.value
    if args.generate is not None:
        from crdesk.simulate import sub_seed  # the table of crdesk simulate's game `seed`

        width, height = args.size
        scenario = generate(
            sub_seed(seed, "table"),
            width=width,
            height=height,
            terrain_type=args.generate,
            encounter=chosen or "patrol",
        )
    else:
        loaded_scenario = load_for_command(args.scenario)
        if isinstance(loaded_scenario, int):
            return loaded_scenario
        scenario = loaded_scenario
    if band is not None:
        if chosen in (None, EncounterType.FREE.value):
            return _error("a Band plays an encounter: give --encounter patrol|raid|defend")
        settings = replace(settings, band=band_record(band))
    kind = _encounter_of(chosen, args.solo, scenario)
    if kind is not EncounterType.FREE or chosen:
        settings = replace(
            settings,
            solo=settings.solo or chosen is not None,
            encounter="" if kind is EncounterType.FREE else kind.value,
        )
    where = args.scenario or f"a generated {args.generate} table"
    try:
        places = _places(args.deploy) if args.deploy not in (None, "auto") else None
        if isinstance(places, str):
            return _error(places)
        if band is not None:  # the Band's members, deployed by the encounter (12)
            rolls = CounterDice(seed, position=DEPLOY_DIE)
            scenario = band_scenario(scenario, band, kind, rolls)
            if places is not None:  # where the player sets them up instead
                force = scenario.battlefield.player_force()
                assert force is not None
                scenario = deploy_at(scenario, force, kind, places)
        elif places is not None:
            force = scenario.battlefield.player_force()
            figures = list(force.figures) if force is not None else []
            scenario = deploy_at(scenario, figures, kind, places)
        elif args.deploy:
            scenario = _deployed(scenario, kind, seed)
        game = Game.new(scenario, seed=seed, dice=dice, settings=settings)
    except IllegalActionError as exc:
        return _error(f"{where}: {exc}")
    return scenario, game, seed


def _encounter_of(chosen: str | None, solo: bool, scenario: Scenario) -> EncounterType:
    """--encounter (or the Band's next), else the scenario's own encounter in a solo game
    (12), else free play."""
    if chosen:
        return EncounterType(chosen)
    if solo:
        return scenario.encounter.type
    return EncounterType.FREE


DEFAULT_BAND_TURNS = 20
"""Turns a Band's encounter plays in ``game auto`` before the limit ends it as not won
(12), as in ``crdesk simulate``."""


def _places(path: str) -> dict[str, list[float]] | str:
    """The player's own places from a --deploy FILE, or why they cannot be read."""
    try:
        raw = read_limited(Path(path), "a deployment file", 1_000_000)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, ScenarioError) as exc:
        return f"--deploy {path}: {exc}"
    ok = isinstance(data, dict) and all(
        isinstance(k, str)
        and isinstance(v, list)
        and len(v) == 2
        and all(type(n) in (int, float) and math.isfinite(n) for n in v)
        for k, v in data.items()
    )
    if not ok:
        return f'--deploy {path}: expected {{"figure id": [x, y], ...}} with numbers'
    return {k: [float(n) for n in v] for k, v in data.items()}


def _deployed(scenario: Scenario, kind: EncounterType, seed: int) -> Scenario:
    if kind is EncounterType.FREE:
        raise IllegalActionError("--deploy needs an encounter (--encounter or the scenario's)")
    player = scenario.battlefield.player_force()
    figures = list(player.figures) if player is not None else []
    if not figures:
        figures = default_band(player.band if player is not None else BandType.MILITARY)
    deployed = deploy(scenario, figures, kind, CounterDice(seed, position=DEPLOY_DIE))
    if len(deployed.battlefield.forces) < 2:
        # a bare table (a generated one): the enemy comes from PEFs (11) and needs a
        # force to join, as crdesk simulate sets it up
        deployed = without_enemies(deployed)
    return deployed


def _objective_lines(game: Game) -> list[str]:
    """The encounter's checklist (12), one line an item, with where it is on the table."""
    obj = game.summary().get("objectives")
    if obj is None:
        return []
    marks = {"done": "[x]", "open": "[ ]", "failed": "[!]"}
    lines = [f"Objectives ({encounter_name(obj['encounter'])}):"]
    for item in obj["items"]:
        where = ""
        if item["at"] is not None:
            where = f" at ({_num(item['at'][0])}, {_num(item['at'][1])})"
        lines.append(f"  {marks[item['state']]} {item['text']}{where} ({item['section']})")
    return lines


def cmd_new(args: argparse.Namespace) -> int:
    """``crdesk game new SCENARIO -o GAME``."""
    made = _new_game(
        args,
        dice=MANUAL if args.manual_dice else SEEDED,
        settings=GameSettings(max_turns=args.max_turns, solo=args.solo),
    )
    if isinstance(made, int):
        return made
    scenario, game, seed = made
    failed = _save(game, args.output)
    if failed is not None:
        return failed
    print(f"{args.output}: a new game of {scenario.title!r}, seed {seed}, {game.dice_mode} dice")
    for event in game.events:
        print(event.text)
    for line in _objective_lines(game):
        print(line)
    print(_next_line(game))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    """``crdesk game show GAME [--json]``."""
    loaded = _open(args.game, strict=False)
    if isinstance(loaded, int):
        return loaded
    game = loaded.game
    decision = game.awaiting()
    if args.json:
        _dump(
            {
                "file": args.game,
                "title": game.scenario.title,
                "seed": game.seed,
                "dice": game.dice_mode,
                "steps": len(game.history),
                "complete": loaded.complete,
                "warnings": loaded.warnings,
                "awaiting": decision.to_dict() if decision is not None else None,
                "outcome": game.outcome.to_dict() if game.outcome is not None else None,
                "summary": game.summary(),
            }
        )
        return EXIT_OK
    print(_header(args.game, game))
    for line in _decision_lines(decision, game):
        print(line)
    for line in _summary_lines(game):
        print(line)
    for line in _objective_lines(game):
        print(line)
    return EXIT_OK


def cmd_do(args: argparse.Namespace) -> int:
    """``crdesk game do GAME ACTION... [--dice FACES] [--json]``."""
    text = " ".join(args.action).strip()
    faces: tuple[int, ...] = ()
    if args.dice is not None:
        try:
            faces = parse_faces(args.dice)
        except IllegalActionError as exc:
            return _error(f"--dice: {exc}")
    if not text and not faces:
        return _error("give an action (see 'crdesk game --help') or --dice FACES")
    loaded = _open(args.game, strict=True)
    if isinstance(loaded, int):
        return loaded
    game = loaded.game
    if not text:
        text, faces = "dice " + ",".join(map(str, faces)), ()
    elif faces and game.dice_mode != MANUAL:
        return _error("--dice is for manual-dice games; this game rolls its own dice")
    try:
        reason = game.legal(text)
        if reason is not None:
            return _error(reason)
        events = game.play(text, faces=faces)
    except IllegalActionError as exc:
        return _error(str(exc))
    failed = _save(game, args.game)
    if failed is not None:
        return failed
    if args.json:
        decision = game.awaiting()
        _dump(
            {
                "events": [e.to_dict() for e in events],
                "awaiting": decision.to_dict() if decision is not None else None,
                "outcome": game.outcome.to_dict() if game.outcome is not None else None,
                "objectives": game.summary().get("objectives"),
            }
        )
        return EXIT_OK
    for event in events:
        print(event.text)
    print(_next_line(game))
    return EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    """``crdesk game log GAME [--json]``."""
    loaded = _open(args.game, strict=False)
    if isinstance(loaded, int):
        return loaded
    game = loaded.game
    by_step: dict[int, list[Event]] = {}
    for event in game.events:
        by_step.setdefault(event.step, []).append(event)
    steps: list[dict[str, Any]] = [
        {
            "n": n,
            "actor": step.actor,
            "action": step.action,
            "faces": list(step.faces),
            "why": step.why,
            "events": by_step.get(n, []),
        }
        for n, step in enumerate(game.history, 1)
    ]
    pending = game.state_document()["pending"]
    if args.json:
        for step in steps:
            step["events"] = [e.to_dict() for e in step["events"]]
        _dump(
            {
                "file": args.game,
                "steps": steps,
                "pending": pending,
                "complete": loaded.complete,
                "warnings": loaded.warnings,
                "outcome": game.outcome.to_dict() if game.outcome is not None else None,
            }
        )
        return EXIT_OK
    print(_header(args.game, game))
    width = len(str(len(steps)))
    for step in steps:
        line = f"{step['n']:>{width}}. {step['actor']}: {step['action']}"
        if step["faces"]:
            line += f"  [dice {','.join(map(str, step['faces']))}]"
        if step["why"]:
            line += f"  ({step['why']})"
        print(line)
        for event in step["events"]:
            print(f"{'':>{width}}    {event.text}")
    if pending is not None:
        typed = ",".join(map(str, pending.get("faces") or [])) or "none yet"
        print(f"waiting for dice: {pending['action']} (faces typed: {typed})")
    print(_next_line(game))
    return EXIT_OK


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The JSON path of the first place two documents differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                return f"{sub}: only in {'the replay' if key in b else 'the file'}"
            found = _first_difference(a[key], b[key], sub)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items in the file, {len(b)} in the replay"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a != b or (type(a) is not type(b) and not {type(a), type(b)} <= {int, float}):
        return f"{path}: the file says {json.dumps(a)}, the replay {json.dumps(b)}"
    return None


def cmd_replay(args: argparse.Namespace) -> int:
    """``crdesk game replay GAME [--verify]``."""
    try:
        document = read_game_document(args.game)
        loaded = load_document(document, source=args.game, strict=True)
    except GameReplayError as exc:
        print(f"{args.game}: {exc.reason}")
        return EXIT_PROBLEMS
    except GameFileError as exc:
        return _error(exc.one_line())
    for warning in loaded.warnings:
        print(f"warning: {args.game}: {warning}", file=sys.stderr)
    count = len(loaded.game.history)
    if args.verify:
        replayed = json.loads(json.dumps(loaded.game.state_document()))
        diff = _first_difference(document["final"]["state"], replayed)
        if diff is not None:
            print(
                f"{args.game}: the saved final state differs from the replay at final.state.{diff}"
            )
            return EXIT_PROBLEMS
        print(f"OK: {count} steps replay exactly, and the saved final state matches")
        return EXIT_OK
    print(f"OK: {count} steps replay exactly")
    return EXIT_OK


def cmd_auto(args: argparse.Namespace) -> int:
    """``crdesk game auto SCENARIO [--seed N] [--turns N] [--enemy E] [--json] [-o GAME]``."""
    if args.turns is None:
        args.turns = DEFAULT_BAND_TURNS if args.band else 10
    made = _new_game(args, dice=SEEDED, settings=GameSettings(max_turns=args.turns, solo=args.solo))
    if isinstance(made, int):
        return made
    scenario, game, seed = made
    policy: Policy = BookPolicy()
    policies = {side: policy for side in game.sides}
    who = "book policy both sides"
    if game.settings.solo or args.enemy == "solo":
        who = "book policy for the player"
    solo_sides: set[str] = set()
    if game.settings.band is not None:  # a campaign's encounter: played for its objective
        from crdesk.ai.tactical import TacticalPolicy

        player = game.battlefield.player_force()
        assert player is not None
        policies[player.id] = TacticalPolicy()
        who = "tactical player for the Band"
    if args.enemy == "solo" or (args.enemy is None and (args.solo or game.settings.solo)):
        from crdesk.ai.enemy import SoloEnemyPolicy

        solo = SoloEnemyPolicy()
        for force in game.battlefield.forces:
            if not force.player:
                policies[force.id] = solo
                solo_sides.add(force.id)
        who += ", solo enemy (table 11.4) for the others"
    if not args.json:
        print(f"{scenario.title}: seed {seed}, at most {args.turns} turns, {who}")
        for event in game.events:
            print(event.text)

    def on_step(decision: Decision, action: object, why: str, events: list[Event]) -> None:
        if not args.json:
            if decision.actor in solo_sides and why:
                print(f"[{action}] {why}")
            for event in events:
                print(event.text)

    try:
        while game.awaiting() is not None:
            if play_policies(game, policies, on_step=on_step) == 0:
                decision = game.awaiting()
                who = decision.actor if decision is not None else "nobody"
                return _error(f"the game waits for {who}, whom no policy plays", EXIT_PROBLEMS)
    except CrdeskError as exc:
        return _error(f"step {len(game.history) + 1}: {exc}", EXIT_PROBLEMS)
    if args.output:
        failed = _save(game, args.output)
        if failed is not None:
            return failed
    if args.json:
        _dump(
            {
                "seed": seed,
                "outcome": game.outcome.to_dict() if game.outcome is not None else None,
                "steps": len(game.history),
                "events": [e.to_dict() for e in game.events],
                "file": args.output,
                "objectives": game.summary().get("objectives"),
            }
        )
        return EXIT_OK
    for line in _objective_lines(game):
        print(line)
    print(_outcome_text(game))
    if args.output:
        print(f"saved {len(game.history)} steps to {args.output}")
    return EXIT_OK
