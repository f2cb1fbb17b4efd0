"""``crdesk render FILE -o OUT``: the table as PNG, SVG or a 1:1 tiled PDF.

A PDF of more than :data:`crdesk.limits.PRINT_PAGES` pages is refused, in one
line naming the count, before anything is drawn; the summary of one written
says its pages.

The drawing is the Qt front end's (``ui.export``), found through the
``crdesk.frontends`` entry point so that this core module never imports Qt.
"""

from __future__ import annotations

import argparse
import sys

from crdesk import limits, printing
from crdesk.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    OneLineParser,
    add_command,
    cannot_write,
    frontend,
    load_for_command,
    output_problem,
    wrong_suffix,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``render`` to the ``crdesk`` parser (:mod:`crdesk.cli.app` calls this)."""
    p = add_command(
        subparsers,
        OneLineParser,
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
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    refused = wrong_suffix(args.output, (".png", ".svg", ".pdf"))
    if refused is not None:
        return refused
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
    if args.output.lower().endswith(".pdf"):  # say the pages before any drawing
        table = scenario.battlefield.table
        problem = printing.print_problem(table.width, table.height, args.paper)
        if problem is not None:
            print(f"error: {problem}", file=sys.stderr)
            return EXIT_USAGE
    export = frontend("render")
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
