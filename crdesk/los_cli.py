"""``crdesk los FILE [--from ID --to ID] [--json]``: LOS, Cover and concealment verdicts.

For debugging and for players checking a shared scenario (issue 4): prints the
verdict for one pair with its reason, or the whole matrix of every figure
looking at every other.  ``crdesk.cli`` wires it in with :func:`register`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from crdesk.cli import EXIT_OK, EXIT_USAGE, load_for_command
from crdesk.errors import ModelError
from crdesk.geometry.los import LosResult, explain, viewpoints
from crdesk.geometry.terrain_index import build_index
from crdesk.model import Battlefield
from crdesk.options import RulesOptions


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``los`` subcommand to the ``crdesk`` subparsers (``crdesk.cli`` calls this)."""
    parser = subparsers.add_parser(
        "los",
        help="print line of sight, Cover and concealment verdicts",
        description=__doc__,
    )
    parser.add_argument("file", help="a scenario file")
    parser.add_argument("--from", dest="viewer", metavar="ID", help="the viewing figure")
    parser.add_argument("--to", dest="target", metavar="ID", help="the figure looked at")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(handler=run)


def result_dict(res: LosResult) -> dict[str, Any]:
    """A verdict as plain JSON data."""
    return {
        "from": res.viewer,
        "to": res.target,
        "visible": res.visible,
        "reason": res.reason.value,
        "feature": res.feature_id,
        "cover": res.cover,
        "concealed": res.concealed,
        "cover_by": [{"kind": c.kind.value, "feature": c.feature_id} for c in res.cover_reasons],
        "distance": round(res.distance, 3),
        "message": res.message,
    }


def verdicts(
    battlefield: Battlefield,
    rules: RulesOptions,
    viewer: str | None = None,
    target: str | None = None,
) -> list[LosResult]:
    """Verdicts for one pair, for one viewer or target against all, or for every ordered pair."""
    index = build_index(battlefield, rules, raster=False)
    vp = viewpoints(battlefield, index, rules)
    for fid in (viewer, target):
        if fid is not None and fid not in vp.ids:
            raise ModelError(f"no figure with id {fid!r}")
    out = []
    for i, a in enumerate(vp.ids):
        if viewer is not None and a != viewer:
            continue
        for j, b in enumerate(vp.ids):
            if i == j or (target is not None and b != target):
                continue
            out.append(explain(index, vp, i, j, rules))
    return out


def run(args: argparse.Namespace) -> int:
    """Handle ``crdesk los``; returns the exit status."""
    scenario = load_for_command(args.file)
    if isinstance(scenario, int):
        return scenario
    try:
        found = verdicts(scenario.battlefield, scenario.rules, args.viewer, args.target)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps([result_dict(r) for r in found], indent=2))
    else:
        for r in found:
            print(f'{r.viewer} -> {r.target} ({r.distance:.1f}"): {r.message}')
    return EXIT_OK
