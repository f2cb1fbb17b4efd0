"""The ``crdesk`` command.

``crdesk`` alone opens the GUI on the demo table, ``crdesk FILE`` opens a file,
and subcommands (``validate``, ...) work headless.  The GUI is found through the
``crdesk.frontends`` entry point, so this core module never imports Qt or ``ui``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import NoReturn

from crdesk import __version__, limits
from crdesk.errors import ScenarioError, UnreadableFileError
from crdesk.model import Scenario

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


def int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number low..high, refused in words naming ``what``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, got {text!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low}-{high}, got {value}")
        return value

    convert.__name__ = what
    return convert


def _cmd_validate(args: argparse.Namespace) -> int:
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
            print(f"{name}: {_count(len(found.problems), 'problem')}")
            for problem in found.problems:
                print(f"  {problem}")
            worst = max(worst, EXIT_PROBLEMS)
            continue
        word = "error" if args.strict else "warning"
        if not found.table:
            print(f"{name}: OK")
        elif args.strict:
            print(f"{name}: {_count(len(found.table), 'table problem')} (--strict)")
            worst = max(worst, EXIT_PROBLEMS)
        else:
            print(f"{name}: OK, {_count(len(found.table), 'table warning')}")
        for issue in found.table:
            where = f"{issue.path}: " if issue.path else ""
            print(f"  {word}: {where}{issue.message}")
    return worst


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _frontend(name: str) -> Callable[..., object] | None:
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


def cannot_write(path: str | Path, why: str | OSError) -> int:
    """Print ``error: cannot write PATH: WHY`` on stderr; the exit status (2)."""
    if isinstance(why, OSError):
        why = why.strerror or str(why)
    print(f"error: cannot write {path}: {why}", file=sys.stderr)
    return EXIT_USAGE


def _cmd_render(args: argparse.Namespace) -> int:
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        print(
            f"error: -o/--output must end in .png, .svg or .pdf, got {args.output!r}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not limits.DPI_MIN <= args.dpi <= limits.DPI_MAX:  # the Export dialog's bounds too
        print(
            f"error: --dpi must be between {limits.DPI_MIN:g} and {limits.DPI_MAX:g}, "
            f"got {args.dpi:g}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    why = output_problem(args.output)
    if why is not None:
        return cannot_write(args.output, why)
    scenario = load_for_command(args.file)
    if isinstance(scenario, int):
        return scenario
    export = _frontend("render")
    if export is None:
        print(
            "error: rendering needs the crdesk Qt front end, which is not installed",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        summary = export(
            scenario,
            args.output,
            dpi=args.dpi,
            sections=args.sections,
            grid=args.grid,
            paper=args.paper,
        )
    except OSError as exc:
        return cannot_write(args.output, exc)
    print(summary)
    return EXIT_OK


def _cmd_install_desktop(args: argparse.Namespace) -> int:
    install = _frontend("install-desktop")  # ui/desktop.py: the icons are drawn with Qt
    if install is None:
        print("error: the crdesk Qt front end is not installed", file=sys.stderr)
        return EXIT_USAGE
    result = install(system=args.system, prefix=args.prefix, uninstall=args.uninstall)
    return result if isinstance(result, int) else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The parser of the headless subcommands."""
    parser = argparse.ArgumentParser(
        prog="crdesk",
        description="Battlefield editor and rules-aware player for Chain Reaction 2015. "
        "Run without arguments to open the GUI on the demo table, or give a .crdesk file.",
    )
    parser.add_argument("--version", action="version", version=f"crdesk {__version__}")
    parser.add_argument(
        "--new-window",
        action="store_true",
        help="open FILE in a crdesk of its own even when one is running (which would take it)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser(
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
    p.set_defaults(handler=_cmd_validate)
    p = sub.add_parser(
        "render",
        help="export a scenario's table as PNG, SVG, or a 1:1 tiled PDF for printing",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="map.png, map.svg or map.pdf (the suffix picks the format)",
    )
    p.add_argument("--dpi", type=float, default=100.0, help="PNG pixels per inch (default 100)")
    p.add_argument("--sections", action="store_true", help="draw the nine sections and numbers")
    p.add_argument("--grid", action="store_true", help="draw a 1-inch grid")
    p.add_argument(
        "--paper", choices=["a4", "letter"], default="a4", help="PDF paper size (default a4)"
    )
    p.set_defaults(handler=_cmd_render)
    p = sub.add_parser(
        "install-desktop",
        help="add crdesk to the desktop menu, with its icons, file types and thumbnails",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user only (the default)")
    where.add_argument(
        "--system", action="store_true", help="for every user, under --prefix (needs root)"
    )
    p.add_argument("--prefix", default="/usr/local", help="with --system (default /usr/local)")
    p.add_argument("--uninstall", action="store_true", help="remove what an install added")
    p.set_defaults(handler=_cmd_install_desktop)
    for register in _extensions():
        register(sub)
    return parser


def _extensions() -> list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]]:
    """Subcommands that live in their own core modules (rules referee, LOS, generator)."""
    from crdesk import band_cli, game_cli, generate_cli, los_cli, resolve_cli, simulate_cli

    return [
        resolve_cli.register,
        los_cli.register,
        generate_cli.register,
        game_cli.register,
        simulate_cli.register,
        band_cli.register,
    ]


def _subcommands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def launch_gui(files: Sequence[str]) -> int:
    """Start the Qt front end registered under the ``crdesk.frontends`` entry point."""
    gui_main = _frontend("gui")
    if gui_main is None:
        print(
            "error: the crdesk GUI is not installed; install crdesk with its Qt front end",
            file=sys.stderr,
        )
        return EXIT_USAGE
    result = gui_main(list(files))
    return result if isinstance(result, int) else EXIT_OK


def run_quietly_into_a_pipe(handler: Handler, args: argparse.Namespace) -> int:
    """Run a subcommand; a reader that closed our output (``| head -1``) ends it quietly."""
    try:
        code = handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the rest of the output (and the flush at exit) goes nowhere, without a traceback
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PIPE
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``crdesk`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    new_window = "--new-window" in args and args[0] not in _subcommands(parser)
    if new_window:  # a GUI option (ui/single_instance.py), passed on to the front end
        args = [a for a in args if a != "--new-window"]
    if args and (args[0] in _subcommands(parser) or args[0].startswith("-")):
        try:
            ns = parser.parse_args(args)
        except SystemExit as exc:
            return int(exc.code or 0)
        if not getattr(ns, "handler", None):
            parser.print_help()
            return EXIT_USAGE
        handler: Handler = ns.handler
        return run_quietly_into_a_pipe(handler, ns)
    if len(args) > 1:
        print("error: give at most one scenario file to open", file=sys.stderr)
        return EXIT_USAGE
    return launch_gui([*args, "--new-window"] if new_window else args)


if __name__ == "__main__":
    sys.exit(main())
