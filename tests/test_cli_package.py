"""The command line as a package (issue 16, item 4): ``crdesk.cli.app`` gathers one module
per subcommand, and ``resolve`` builds its subcommands from one table."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from crdesk.cli import app
from crdesk.cli.resolve import SUBCOMMANDS

ROOT = Path(__file__).resolve().parent.parent


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_import_crdesk_cli_loads_no_subcommand_until_the_parser_is_built() -> None:
    code = (
        "import sys, crdesk.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('crdesk.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['crdesk.cli.app', 'crdesk.cli.common']"


def test_every_subcommand_module_registers_once_in_help_order() -> None:
    top = _choices(app.build_parser())
    assert list(top) == [
        "validate",
        "render",
        "install-desktop",
        "resolve",
        "los",
        "generate",
        "game",
        "simulate",
        "band",
    ]


def test_resolve_offers_its_table_in_order_with_odds_where_it_rolls() -> None:
    resolve = _choices(app.build_parser())["resolve"]
    parsers = _choices(resolve)
    assert list(parsers) == [c.name for c in SUBCOMMANDS]
    assert len(set(parsers)) == len(SUBCOMMANDS) == 23
    for command in SUBCOMMANDS:
        flags = {s for a in parsers[command.name]._actions for s in a.option_strings}
        assert {"--json", "--seed"} <= flags, command.name
        assert "--odds" in flags, command.name  # activation too: the odds are simple (7.1)
        assert parsers[command.name].description == command.help
