"""``crdesk validate FILE...``: the file format, then the editor's table checks."""

from __future__ import annotations

import argparse
import sys

from crdesk.cli.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, OneLineParser, add_command, count
from crdesk.errors import ScenarioError, UnreadableFileError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``validate`` to the ``crdesk`` parser (:mod:`crdesk.cli.app` calls this)."""
    p = add_command(
        subparsers,
        OneLineParser,
        "validate",
        help="check scenario files and list every problem",
        description="Check scenario files: the file format (problems mean the file does not "
        "open), then the editor's table checks (a figure off the table, a building without a "
        "door...), printed as warnings with the path of the field. Exit status: 0 when every "
        "file opens (table warnings allowed), 1 when a file has format problems (or, with "
        "--strict, table problems), 2 when a file cannot be read.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--strict",
        action="store_true",
        help="count the table checks' warnings as errors (exit 1)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The file format, then the editor's table checks (:mod:`crdesk.validation`).

    A format problem means the file does not open: exit 1.  Table problems
    (a figure off the table, a building without a door) are warnings, exit 0,
    unless ``--strict`` makes them errors too.
    """
    from crdesk.validation import check_file

    worst = EXIT_OK
    for name in args.files:
        try:
            found = check_file(name)
        except UnreadableFileError as exc:
            print(f"error: {exc}", file=sys.stderr)
            worst = max(worst, EXIT_USAGE)
            continue
        except ScenarioError as exc:
            text = str(exc)  # the message may name the file already: say it once
            print(text if text.startswith(f"{name}:") else f"{name}: {text}")
            worst = max(worst, EXIT_PROBLEMS)
            continue
        if found.problems:
            print(f"{name}: {count(len(found.problems), 'problem')}")
            for problem in found.problems:
                print(f"  {problem}")
            worst = max(worst, EXIT_PROBLEMS)
            continue
        word = "error" if args.strict else "warning"
        if not found.table:
            print(f"{name}: OK")
        elif args.strict:
            print(f"{name}: {count(len(found.table), 'table problem')} (--strict)")
            worst = max(worst, EXIT_PROBLEMS)
        else:
            print(f"{name}: OK, {count(len(found.table), 'table warning')}")
        for issue in found.table:
            where = f"{issue.path}: " if issue.path else ""
            print(f"  {word}: {where}{issue.message}")
    return worst
