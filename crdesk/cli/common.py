"""What every ``crdesk`` subcommand shares: exit statuses, one-line argument errors,
loading the scenario a command works on, refusing an unwritable output path.

The subcommand modules (:mod:`crdesk.cli.resolve`, :mod:`crdesk.cli.los`, ...) import
this module and nothing else of :mod:`crdesk.cli` (an import-linter contract keeps it
so); :mod:`crdesk.cli.app` gathers them into the ``crdesk`` parser.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn

from crdesk import limits, numbers
from crdesk.errors import ScenarioError, UnreadableFileError
from crdesk.model import Scenario
from crdesk.tables import TableType

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
"""Bad arguments, a file that cannot be read, an output path that cannot be written."""
EXIT_PIPE = 128 + 13
"""The reader of our output went away (``crdesk ... | head -1``): what a shell reports
for a program ended by SIGPIPE, without the traceback."""

Handler = Callable[[argparse.Namespace], int]


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line on stderr (exit 2), no usage dump.

    ``choice_metavar`` / ``command`` name a subcommand chooser ("WHAT" of ``crdesk
    resolve``), so its errors read "resolve: invalid choice ..." instead.
    """

    choice_metavar = ""
    command = ""

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split()).removeprefix("argument ")
        prefix = f"{self.choice_metavar}: "
        if self.choice_metavar and message.startswith(prefix):
            message = f"{self.command}: " + message.removeprefix(prefix)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        ns, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras


def add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parser_class: type[OneLineParser],
    name: str,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """``subparsers.add_parser(name, **kwargs)`` made of ``parser_class``, so that the
    subcommand's own errors are one line (argparse takes no class per parser)."""
    saved = subparsers._parser_class
    subparsers._parser_class = parser_class
    try:
        return subparsers.add_parser(name, **kwargs)
    finally:
        subparsers._parser_class = saved


def add_command_group(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    parser_class: type[OneLineParser],
    name: str,
    **kwargs: Any,
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """A subcommand with commands of its own (``crdesk game new``): made by
    :func:`add_command`, printing its help with exit 2 when no command is named;
    returns the chooser the commands are added to (their parsers ``parser_class``)."""
    group = add_command(subparsers, parser_class, name, **kwargs)

    def no_command(args: argparse.Namespace) -> int:
        group.print_help(sys.stderr)
        return EXIT_USAGE

    group.set_defaults(handler=no_command)
    return group.add_subparsers(
        dest=f"{name}_command", metavar="COMMAND", parser_class=parser_class, title="commands"
    )


def int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number low..high, refused in words naming ``what``."""

    def convert(text: str) -> int:
        try:
            value = numbers.whole(text.strip(), what, signed=True)
        except numbers.NumberTextError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low}-{high}, got {value}")
        return value

    convert.__name__ = what
    return convert


TERRAIN_TYPES = (*(t.value for t in TableType), "roll")
"""The generator's terrain types (9.2; ``roll`` rolls for one)."""


def table_size(text: str) -> tuple[float, float]:
    """An argparse type: ``WxH`` in inches, e.g. ``72x48``, within :mod:`crdesk.limits`."""
    parts = text.lower().replace(" ", "").split("x")
    try:
        width, height = (numbers.decimal(v, "a table side") for v in parts)
    except numbers.NotFiniteError:
        width = height = math.nan  # refused below, as out of range
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"table size must be WxH in inches, got {text!r}"
        ) from None
    low, high = limits.TABLE_MIN, limits.TABLE_MAX
    if not all(math.isfinite(v) and low <= v <= high for v in (width, height)):
        raise argparse.ArgumentTypeError(
            f"each table side must be {low:g} to {high:g} inches, got {text!r}"
        )
    return width, height


def sizes_may_be_negative(parser: argparse.ArgumentParser) -> None:
    """A size typed with a minus (``--size -5x36``) is a bad size to refuse in words, not
    an unknown flag."""
    parser._negative_number_matcher = re.compile(r"^-\.?\d")


def count(n: int, noun: str) -> str:
    """``1 problem``, ``3 problems``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def frontend(name: str) -> Callable[..., object] | None:
    """A function of the Qt front end, registered under ``crdesk.frontends``."""
    found = entry_points(group="crdesk.frontends", name=name)
    return next(iter(found)).load() if found else None


def load_for_command(path: str) -> Scenario | int:
    """Load a scenario for a subcommand, or print why not and return the exit status.

    Unreadable files exit 2 (like bad arguments), files with problems exit 1.
    """
    from crdesk.scenario import load

    try:
        return load(path)
    except UnreadableFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS


def output_problem(path: str | Path) -> str | None:
    """Why ``path`` cannot be written, or None; checked before any slow work.

    Every subcommand that writes a file refuses an unwritable one the same way:
    ``error: cannot write PATH: WHY`` and exit 2 (:data:`EXIT_USAGE`), as for
    an unreadable input.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        return "it is a folder"
    if not folder.exists():
        return f"the folder {str(folder)!r} does not exist"
    if not folder.is_dir():
        return f"{str(folder)!r} is not a folder"
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return "permission denied"
    return None


def wrong_suffix(path: str, suffixes: Sequence[str]) -> int | None:
    """``error: -o/--output must end in .crgame, got 'x.txt'`` and exit 2 when ``path``
    does not end in one of ``suffixes`` (the file type the desktop opens it by); else None."""
    if Path(path).suffix.lower() in suffixes:
        return None
    names = list(suffixes)
    allowed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    print(f"error: -o/--output must end in {allowed}, got {path!r}", file=sys.stderr)
    return EXIT_USAGE


def refuse_output(path: str, suffixes: Sequence[str]) -> int | None:
    """Check an output path before any slow work: its suffix (:func:`wrong_suffix`), then
    whether it can be written (:func:`output_problem`); the exit status (2) or None."""
    refused = wrong_suffix(path, suffixes)
    if refused is not None:
        return refused
    why = output_problem(path)
    return None if why is None else cannot_write(path, why)


def cannot_write(path: str | Path, why: str | OSError) -> int:
    """Print ``error: cannot write PATH: WHY`` on stderr; the exit status (2)."""
    if isinstance(why, OSError):
        why = why.strerror or str(why)
    print(f"error: cannot write {path}: {why}", file=sys.stderr)
    return EXIT_USAGE
