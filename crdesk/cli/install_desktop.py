"""``crdesk install-desktop``: the desktop menu entry, icons, file types and thumbnailer.

The icons are drawn with Qt, so the work is the front end's (``ui.desktop``), found
through the ``crdesk.frontends`` entry point.
"""

from __future__ import annotations

import argparse
import sys

from crdesk.cli.common import EXIT_OK, EXIT_USAGE, OneLineParser, add_command, frontend


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``install-desktop`` to the ``crdesk`` parser (:mod:`crdesk.cli.app` calls this)."""
    p = add_command(
        subparsers,
        OneLineParser,
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
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    install = frontend("install-desktop")  # ui/desktop.py: the icons are drawn with Qt
    if install is None:
        print("error: the crdesk Qt front end is not installed", file=sys.stderr)
        return EXIT_USAGE
    result = install(system=args.system, prefix=args.prefix, uninstall=args.uninstall)
    return result if isinstance(result, int) else EXIT_OK
