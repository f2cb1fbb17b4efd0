"""``crdesk resolve``: a referee for players at a real table (issue 3, item 5).

The players roll real dice and type the faces; crdesk reads them on the book's
tables through the very rules functions the game uses (:mod:`crdesk.rules`), so
the referee and the program never disagree::

    crdesk resolve reaction --test received-fire --rep 4 --dice 2,5
    crdesk resolve fire --rep 4 --weapon AR --target rep=4 --target rep=4,cover \\
        --allocate 2,1 --dice 6,3,1 --damage-dice 5
    crdesk resolve melee --rep 4 --dice 1,2,4,5 --vs-rep 4 --vs-dice 3,4,5,6 --damage-die 3

With the Firearms Detail module (``rules/firearms-detail.md``) ``fire`` fires by the
weapon's card: ``--mode`` (semi, 2RB, 3RB, FA, ...), ``--aim``, ``--walk N``,
``--supported braced|bipod|tripod``, ``--ammo buckshot``, the range to the target and
the figures near it (friend or foe) for the spread::

    crdesk resolve fire --rep 4 --weapon AR --mode FA --range 15 --target rep=4 \\
        --near rep=4,at=1.5,name=Lind --odds

Options the card does not allow are refused before any die is read.

Each dice flag holds the faces of one roll (``3,5`` or ``3 5``; repeat the flag
for later rolls of the same figure, e.g. another melee round).  Rolls that follow
from the first (Pitiful Shot, damage, a Challenge reroll, ...) have their own
flags, or simply continue the main ``--dice`` list in the order the engine reads
them.  Leave every dice flag out and crdesk rolls for you and prints the faces as
flags, so the result can be reproduced.  ``--json`` prints one JSON object
(``section``, ``result``, ``dice``, ``results``: one object per figure, target,
shot or round, each from the rules engine's ``to_dict()``); ``--odds`` prints the
exact odds (:mod:`crdesk.odds`) first, on every subcommand that rolls.  A bad flag
or an impossible die gives one line on stderr naming the flag, and exit status 2.

Players roll to hit first and damage later, so typed dice that stop at a roll
are no error (issue 16): crdesk prints what they settled, then the rolls to make
now and the exact command to run, with ``?`` for each die::

    $ crdesk resolve fire --rep 4 --weapon AR --target rep=4 --dice 3,6,5
    Settled so far:
      7.9.10 Ranged Combat: shooter rolled 3,6,5: target: 2 hits.
    target: 2 hits, roll 2d6 for damage — crdesk resolve damage --target-rep 4 --dice ?,?
    Or all at once: roll 2d6 for target — crdesk resolve fire ... --damage-dice ?,?

With ``--json`` that is ``"result": "pending"`` with ``settled`` (the log entries)
and ``pending`` (``rolls``: flag, dice, table, who; ``command``; ``steps``).  Exit 0.
A roll typed short (two faces of an AR's three) is still a miscount, exit 2.

:mod:`crdesk.cli.app` wires it in with :func:`register`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass

from crdesk.cli.common import EXIT_USAGE, add_command
from crdesk.cli.resolve import campaign, combat, fire
from crdesk.cli.resolve.engine import Job, execute
from crdesk.cli.resolve.flags import ResolveParser

DESCRIPTION = (
    "Apply the book's tables to dice rolled at a real table.  Type each roll's faces "
    "(--dice 3,5 or --dice 3 5; repeat a flag for later rolls, e.g. another melee round); "
    "leave every dice flag out and crdesk rolls for you and prints the faces.  Dice that "
    "stop at a roll print what they settled and the command to run next, ? for each die "
    "to roll.  --json prints one JSON object (section, dice, results); --odds prints the "
    "exact odds first."
)


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One ``crdesk resolve WHAT``: its name and help line, its flags, and the job that
    reads the parsed flags into a rule to run (:class:`~crdesk.cli.resolve.engine.Job`)."""

    name: str
    help: str
    flags: Callable[[argparse.ArgumentParser], None]
    job: Callable[[argparse.Namespace], Job]


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "reaction",
        "Received Fire / Man Down reaction tests (7.7)",
        combat.flags_reaction,
        combat.job_reaction,
    ),
    Subcommand(
        "fire",
        "ranged fire: Ranged Combat and damage (7.9.10, 7.9.11)",
        fire.flags_fire,
        fire.job_fire,
    ),
    Subcommand(
        "damage",
        "Ranged Combat Damage (7.9.11; Old School 16.1)",
        fire.flags_damage,
        fire.job_damage,
    ),
    Subcommand(
        "star-power",
        "Star Power against damage (5.2)",
        combat.flags_star_power,
        combat.job_star_power,
    ),
    Subcommand(
        "fast-move",
        "Fast Move (7.4.2)",
        combat.flags_fast_move,
        combat.job_fast_move,
    ),
    Subcommand(
        "in-sight",
        "the In Sight test (7.6.3)",
        combat.flags_in_sight,
        combat.job_in_sight,
    ),
    Subcommand(
        "charge",
        "Charge into Melee (7.11.2)",
        combat.flags_charge,
        combat.job_charge,
    ),
    Subcommand(
        "melee",
        "Melee Combat and Melee Damage (7.11.4, 7.11.5)",
        combat.flags_melee,
        combat.job_melee,
    ),
    Subcommand(
        "challenge",
        "a Challenge (7.14)",
        campaign.flags_challenge,
        campaign.job_challenge,
    ),
    Subcommand(
        "recovery",
        "After the Battle Recovery (7.13)",
        campaign.flags_recovery,
        campaign.job_recovery,
    ),
    Subcommand(
        "recruit",
        "Recruiting (6.1.1)",
        campaign.flags_recruit,
        campaign.job_recruit,
    ),
    Subcommand(
        "new-recruits",
        "New Recruits (13.1)",
        campaign.flags_new_recruits,
        campaign.job_new_recruits,
    ),
    Subcommand(
        "pef-move",
        "PEF Movement (11.2)",
        campaign.flags_pef_move,
        campaign.job_pef_move,
    ),
    Subcommand(
        "pef-resolve", "PEF Resolution (11.3)", campaign.flags_pef_resolve, campaign.job_pef_resolve
    ),
    Subcommand(
        "np-move",
        "NP Force Movement (11.4)",
        campaign.flags_np_move,
        campaign.job_np_move,
    ),
    Subcommand(
        "grenade-ready",
        "Ready a Grenade (7.10.1)",
        fire.flags_grenade_ready,
        fire.job_grenade_ready,
    ),
    Subcommand(
        "grenade-throw",
        "Throw a Grenade (7.10.3)",
        fire.flags_grenade_throw,
        fire.job_grenade_throw,
    ),
    Subcommand(
        "blast", "a blast circle: who is hurt (7.10.5, 7.10.6)", fire.flags_blast, fire.job_blast
    ),
    Subcommand(
        "terrain", "Terrain Generator (9.2, 9.3.1)", campaign.flags_terrain, campaign.job_terrain
    ),
    Subcommand(
        "buildings",
        "buildings in a (B) section (9.4.4, 9.5)",
        campaign.flags_buildings,
        campaign.job_buildings,
    ),
    Subcommand(
        "activation",
        "activation dice (7.1)",
        combat.flags_activation,
        combat.job_activation,
    ),
    Subcommand(
        "retrieve", "retrieving wounded (7.12)", campaign.flags_retrieve, campaign.job_retrieve
    ),
    Subcommand(
        "rep-change",
        "Rep changes after an encounter (13.2/13.3)",
        campaign.flags_rep_change,
        campaign.job_rep_change,
    ),
)
"""Every subcommand, in the order ``crdesk resolve --help`` lists them."""


def _handler(
    build: Callable[[argparse.Namespace], Job], parser: argparse.ArgumentParser
) -> Callable[[argparse.Namespace], int]:
    def handle(args: argparse.Namespace) -> int:
        return execute(args, lambda: build(args), parser)

    handle.__name__ = f"resolve_{build.__name__.removeprefix('job_')}"
    return handle


def _no_test(_args: argparse.Namespace) -> int:
    print(
        "error: resolve: name what to resolve, e.g. `crdesk resolve reaction --help` "
        "(see `crdesk resolve --help`)",
        file=sys.stderr,
    )
    return EXIT_USAGE


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``resolve`` and its subcommands (:data:`SUBCOMMANDS`) to the ``crdesk`` parser."""
    resolve = add_command(
        subparsers,
        ResolveParser,
        "resolve",
        help="referee for real dice: apply the book's tables to the faces you type",
        description=DESCRIPTION,
    )
    resolve.set_defaults(handler=_no_test)
    sub = resolve.add_subparsers(
        dest="resolve", metavar="WHAT", parser_class=ResolveParser, title="what to resolve"
    )
    common = ResolveParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON object")
    common.add_argument(
        "--seed", type=int, help="seed crdesk's own dice (only when no dice are given)"
    )
    with_odds = ResolveParser(add_help=False)
    with_odds.add_argument("--odds", action="store_true", help="print the exact odds first")
    for command in SUBCOMMANDS:
        p = sub.add_parser(
            command.name,
            help=command.help,
            description=command.help,
            parents=[common, with_odds],
        )
        command.flags(p)
        p.set_defaults(handler=_handler(command.job, p))
