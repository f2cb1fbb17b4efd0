"""``crdesk generate``: a table by the book from the command line (issue 5).

``crdesk generate --seed 42 --type urban --size 48x36 --encounter raid -o town.crdesk``
writes the scenario and says what it holds; ``--verbose`` also prints every roll of
the generation log (9.2-9.5, 12).
The same inputs always write a byte-identical file: chance comes only from the
seed (:func:`crdesk.generator.generate`).  Without ``--seed`` a seed is drawn
from the system and printed, so the table can be made again.

The ``crdesk`` command plugs this in with :func:`register`.
"""

from __future__ import annotations

import argparse
import random
import sys

from crdesk.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    TERRAIN_TYPES,
    OneLineParser,
    add_command,
    cannot_write,
    refuse_output,
    sizes_may_be_negative,
    table_size,
)
from crdesk.generator import GeneratorError, format_entry, generate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``generate`` sub-command to the ``crdesk`` parser."""
    p = add_command(
        subparsers,
        OneLineParser,
        "generate",
        help="generate a table by the book's terrain tables (9.2-9.5)",
        description="Generate a table by the book (9.2-9.5, with the encounter's extra "
        "buildings, 12) and save it as a scenario; --verbose prints every roll.",
    )
    p.add_argument("--seed", type=int, help="the seed (default: a fresh one, printed)")
    p.add_argument(
        "--type",
        dest="terrain_type",
        default="roll",
        choices=TERRAIN_TYPES,
        help="overall terrain type, or roll it on 9.2 (default)",
    )
    p.add_argument(
        "--size",
        type=table_size,
        default=(36.0, 36.0),
        metavar="WxH",
        help="table size in inches (default 36x36)",
    )
    p.add_argument(
        "--encounter",
        default="none",
        choices=["patrol", "raid", "defend", "none"],
        help="Raid adds 1/2d6 buildings in section 2, Defend in section 8 (default none)",
    )
    p.add_argument(
        "--scale", default="28mm", choices=["28mm", "15mm"], help="figure scale (default 28mm)"
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the scenario here (.crdesk)")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="print every roll of the generation log (and the outline shape seeds)",
    )
    p.set_defaults(handler=run_generate)
    sizes_may_be_negative(p)


def run_generate(args: argparse.Namespace) -> int:
    """Generate, print the log, and save when ``-o`` is given."""
    from crdesk.scenario import check_document, save, to_document

    refused = refuse_output(args.output, (".crdesk",)) if args.output else None
    if refused is not None:  # before the generation, as every command that writes a file
        return refused
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    width, height = args.size
    try:
        scenario = generate(seed, width, height, args.terrain_type, args.encounter, args.scale)
    except GeneratorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    table = scenario.table
    print(
        f'{scenario.title}: {table.width:g}" x {table.height:g}", {args.scale}, '
        f"encounter {args.encounter}"
    )
    assert scenario.generation is not None
    if args.verbose:
        for entry in scenario.generation.log:
            print(f"  {format_entry(entry)}")
    buildings = sum(1 for f in scenario.battlefield.terrain if f.kind.value == "building")
    features = len(scenario.battlefield.terrain) - buildings
    print(f"{features} terrain features, {buildings} buildings")
    problems = check_document(to_document(scenario))
    if problems:  # never write a file that validate would refuse
        print(f"error: the generated table breaks the file format: {problems[0]}", file=sys.stderr)
        return EXIT_USAGE
    if not args.output:
        print("no file written (give -o FILE.crdesk to save it)")
        return EXIT_OK
    try:
        save(scenario, args.output)
    except OSError as exc:
        return cannot_write(args.output, exc)
    print(f"wrote {args.output}")
    return EXIT_OK
