"""``crdesk band``: start a Band, look at it, and take a finished game into its story.

::

    crdesk band new "Mace's Patrol" --type military --seed 7 -o mace.crband
    crdesk band show mace.crband [--json]
    crdesk band after-battle mace.crband --game patrol.crgame --seed 3 [--json]

``new`` recruits by 6.1.1; ``after-battle`` reads the finished game and applies
After the Battle Recovery (7.13), New Recruits (13.1), the Rep changes (13.2/13.3),
the size limit by the Star's Rep (6.1) and the next encounter (12), printing every
roll, then writes the updated Band (to ``-o`` if given, else over FILE).  Dice come
from ``--seed`` (a random seed, printed, by default) or are entered with ``--dice``.

A bad argument, a file that is not a Band or a game, or a game that cannot be taken
in prints one line ``error: ...`` on stderr and exits 2, and no file is written.
:mod:`crdesk.cli.app` wires it in with :func:`register`.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from crdesk.band import (
    STATUS_WORDS,
    AfterBattleError,
    Band,
    BandFileError,
    after_battle,
    load_band,
    new_band,
    save_band,
    weapon_name,
)
from crdesk.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    OneLineParser,
    add_command_group,
    cannot_write,
    int_in,
    refuse_output,
)
from crdesk.dice import CounterDice, DiceSource, ScriptedDice
from crdesk.errors import CrdeskError, DiceScriptExhaustedError, IllegalActionError
from crdesk.model import BandType

MAX_SEED = 2**63 - 1
_seed = int_in(0, MAX_SEED, "the seed")
_grunts = int_in(0, 4, "the number of Grunts")

DESCRIPTION = (
    "The player's Band between encounters: a .crband file with the Star and Grunts, their "
    "Reps, weapons and histories.  Start one with 'new', read it with 'show', and after "
    "each encounter run 'after-battle' with the finished .crgame."
)


class _Parser(OneLineParser):
    choice_metavar = "COMMAND"
    command = "band"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``band`` and its subcommands to the ``crdesk`` parser's subparsers."""
    sub = add_command_group(
        subparsers,
        _Parser,
        "band",
        help="start a Band, show it, and take a finished game into it (7.13, 13)",
        description=DESCRIPTION,
    )

    p = sub.add_parser("new", help="start a Band: a Rep 5 Star and Grunts recruited by 6.1.1")
    p.add_argument("name", metavar="NAME", help="the Band's name")
    p.add_argument(
        "--type",
        required=True,
        choices=[b.value for b in BandType],
        help="the band type (its Recruiting column and default weapons)",
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the .crband to write")
    p.add_argument("--grunts", type=_grunts, metavar="N", help="Grunts to recruit, 0-4 (default 4)")
    p.add_argument("--star", default="", metavar="NAME", help="the Star's name")
    _dice_options(p)
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_new)

    p = sub.add_parser("show", help="the roster, Reps, statuses and the encounters played")
    p.add_argument("file", metavar="FILE", help="a .crband file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser(
        "after-battle",
        help="Recovery, New Recruits and Rep changes from a finished game (7.13, 13)",
    )
    p.add_argument("file", metavar="FILE", help="the .crband file")
    p.add_argument("--game", required=True, metavar="GAME", help="the finished .crgame")
    p.add_argument("-o", "--output", metavar="OUT", help="write the Band here (default: FILE)")
    _dice_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=cmd_after_battle)


def _dice_options(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--seed", type=_seed, help="the dice seed (default: a random one)")
    group.add_argument("--dice", metavar="FACES", help="faces of real dice, e.g. 3,5,1,6")


# --------------------------------------------------------------------------
# Helpers


def _error(message: str, status: int = EXIT_USAGE) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _dice(args: argparse.Namespace) -> tuple[DiceSource, int | None] | int:
    if args.dice is not None:
        from crdesk.game.actions import parse_faces

        try:
            return ScriptedDice(parse_faces(args.dice)), None
        except IllegalActionError as exc:
            return _error(f"--dice: {exc}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    return CounterDice(seed), seed


def _unused(dice: DiceSource) -> int | None:
    if isinstance(dice, ScriptedDice) and dice.remaining:
        return _error(
            f"--dice: {dice.remaining} face(s) left over; give exactly the dice rolled "
            "(nothing was written)"
        )
    return None


def _open(path: str) -> Band | int:
    try:
        return load_band(path)
    except BandFileError as exc:
        return _error(exc.one_line())


def _save(band: Band, path: str, *, backup: bool = False) -> int | None:
    try:
        save_band(band, path, backup=backup)
    except BandFileError as exc:
        return _error(exc.one_line())
    except OSError as exc:
        return cannot_write(path, exc)
    return None


def _dump(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def show_lines(band: Band) -> list[str]:
    """The Band as ``crdesk band show`` prints it: head, roster, encounters."""
    star = band.star
    nxt = band.next_encounter.value.title() if band.next_encounter else "none (free play)"
    head = (
        f"{band.name}: a {band.band_type.value} Band, {len(band.active)} of "
        f"{band.size_limit} figures (up to the Star's Rep, 6.1); next encounter: {nxt}"
    )
    if star is None:
        head = f"{band.name}: a {band.band_type.value} Band whose Star is gone; its story is over"
    rows = [["id", "name", "role", "rep", "weapon", "status", "encounters"]]
    for f in band.figures:
        played = f.encounters_played
        rows.append(
            [
                f.id,
                f.name,
                f.role.value,
                str(f.rep),
                f.weapon.value,
                STATUS_WORDS.get(f.status, f.status),
                str(played),
            ]
        )
    lines = [head, *_table(rows)]
    if band.encounters:
        lines.append("Encounters:")
        for e in band.encounters:
            following = f", next {e['next']}" if e.get("next") else ""
            turns = e.get("turns", "?")
            lines.append(
                f"  {e['number']}. {e.get('date', '')} {e['type']}: {e['outcome']} "
                f"in turn {turns} ({e.get('reason', '')}){following}"
            )
    else:
        lines.append("No encounters played yet.")
    return lines


# --------------------------------------------------------------------------
# Commands


def cmd_new(args: argparse.Namespace) -> int:
    """``crdesk band new NAME --type TYPE -o FILE``."""
    if not args.name.strip():
        return _error("NAME: give the Band a name")
    if Path(args.output).exists() and not args.force:
        return _error(f"{args.output} exists; give --force to replace it")
    refused = refuse_output(args.output, (".crband",))
    if refused is not None:
        return refused
    made = _dice(args)
    if isinstance(made, int):
        return made
    dice, seed = made
    try:
        band, lines = new_band(
            args.name.strip(),
            BandType(args.type),
            dice,
            grunts=args.grunts,
            star_name=args.star.strip(),
            seed=seed,
        )
    except DiceScriptExhaustedError as exc:
        return _error(f"--dice: too few faces ({exc})")
    except ValueError as exc:
        return _error(str(exc))
    left = _unused(dice)
    if left is not None:
        return left
    failed = _save(band, args.output)
    if failed is not None:
        return failed
    if args.json:
        _dump({"file": args.output, "seed": seed, "rolls": lines, "band": band.summary()})
        return EXIT_OK
    print(
        f"{args.output}: a new {band.band_type.value} Band, {band.name!r}"
        + (f", seed {seed}" if seed is not None else ", dice entered")
    )
    for line in lines:
        print(line)
    for f in band.figures:
        print(f"  {f.name}: Rep {f.rep}, {weapon_name(f.weapon)}")
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    """``crdesk band show FILE [--json]``."""
    band = _open(args.file)
    if isinstance(band, int):
        return band
    if args.json:
        _dump({"file": args.file, **band.summary()})
        return EXIT_OK
    for line in show_lines(band):
        print(line)
    return EXIT_OK


def cmd_after_battle(args: argparse.Namespace) -> int:
    """``crdesk band after-battle FILE --game GAME [--seed S | --dice F,...] [--json]``."""
    from crdesk.game.savefile import GameFileError, GameReplayError, load_game

    refused = refuse_output(args.output, (".crband",)) if args.output else None
    if refused is not None:
        return refused
    band = _open(args.file)
    if isinstance(band, int):
        return band
    try:
        loaded = load_game(args.game)
    except GameReplayError as exc:
        return _error(exc.one_line(), EXIT_PROBLEMS)
    except GameFileError as exc:
        return _error(exc.one_line())
    made = _dice(args)
    if isinstance(made, int):
        return made
    dice, seed = made
    try:
        result = after_battle(band, loaded.game, dice, seed=seed, game_name=Path(args.game).name)
    except AfterBattleError as exc:
        return _error(f"{args.game}: {exc}")
    except DiceScriptExhaustedError as exc:
        return _error(f"--dice: too few faces ({exc})")
    except CrdeskError as exc:
        return _error(str(exc))
    left = _unused(dice)
    if left is not None:
        return left
    out = args.output or args.file
    failed = _save(result.band, out, backup=True)  # the Band before it: <file>.bak
    if failed is not None:
        return failed
    if args.json:
        _dump({"file": out, "game": args.game, "seed": seed, **result.to_dict()})
        return EXIT_OK
    print(
        f"{out}: {band.name} after encounter {result.entry['number']}"
        + (f", seed {seed}" if seed is not None else ", dice entered")
    )
    for line in result.lines:
        print(line)
    for line in show_lines(result.band):
        print(line)
    return EXIT_OK
