"""The ``crdesk`` command: its parser, the dispatch to a subcommand, the GUI launch.

``crdesk`` alone opens the GUI on the demo table, ``crdesk FILE`` opens a file,
and subcommands (``validate``, ...) work headless.  The GUI is found through the
``crdesk.frontends`` entry point, so this core module never imports Qt or ``ui``.
Each subcommand is a module of :mod:`crdesk.cli` with a ``register`` function,
imported only when the parser is built (``import crdesk.cli`` stays fast).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence

from crdesk import __version__
from crdesk.cli.common import EXIT_OK, EXIT_PIPE, EXIT_USAGE, Handler, frontend


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
    for register in _extensions():
        register(sub)
    return parser


def _extensions() -> list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]]:
    """Every subcommand's ``register``, in the order ``crdesk --help`` lists them."""
    from crdesk.cli import (
        band,
        game,
        generate,
        install_desktop,
        los,
        render,
        resolve,
        simulate,
        validate,
    )

    return [
        validate.register,
        render.register,
        install_desktop.register,
        resolve.register,
        los.register,
        generate.register,
        game.register,
        simulate.register,
        band.register,
    ]


def _subcommands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def launch_gui(files: Sequence[str]) -> int:
    """Start the Qt front end registered under the ``crdesk.frontends`` entry point."""
    gui_main = frontend("gui")
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
