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

import numpy as np

from crdesk.cli.common import EXIT_OK, EXIT_USAGE, OneLineParser, add_command, load_for_command
from crdesk.errors import ModelError
from crdesk.geometry.los import REASONS, LosResult, evaluate, explain, viewpoints
from crdesk.geometry.terrain_index import build_index
from crdesk.model import Battlefield
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``los`` to the ``crdesk`` parser (:mod:`crdesk.cli.app` calls this)."""
    parser = add_command(
        subparsers,
        OneLineParser,
        "los",
        help="print line of sight, Cover and concealment verdicts",
        description=__doc__,
    )
    parser.add_argument("file", help="a scenario file")
    parser.add_argument(
        "--from", dest="viewer", metavar="ID", help="the viewing figure (its id or its name)"
    )
    parser.add_argument(
        "--to", dest="target", metavar="ID", help="the figure looked at (its id or its name)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print JSON instead of text (cover_by is listed for --from/--to queries)",
    )
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
    """Verdicts for one pair, for one viewer or target against all, or for every ordered pair.

    One pair or one row is explained pair by pair (the blocking feature named is
    the first along the line, with the Cover reasons).  Every pair is judged at
    once by the sight engine the GUI uses (:meth:`VisibilityService.matrix`), so
    the time grows with the pairs but stays within seconds at the figure limit;
    there the feature named is one that blocks the line, and ``cover_by`` is
    left empty (ask for one pair to see it).
    """
    if viewer is None and target is None:
        return _all_pairs(battlefield, rules)
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


def _all_pairs(battlefield: Battlefield, rules: RulesOptions) -> list[LosResult]:
    """Every ordered pair in one pass of the engine behind :meth:`VisibilityService.matrix`
    (its terrain index, its batched :func:`evaluate`), keeping the reason codes the
    matrix drops; judged once, where the matrix and a second pass for the reasons
    took twice as long."""
    service = VisibilityService(battlefield, rules)
    try:
        index = service.index
    finally:
        service.close()
    vp = viewpoints(battlefield, index, rules)
    n = len(vp.ids)
    a, b = np.triu_indices(n, 1)
    res = evaluate(index, vp, a, b, rules)
    reason = np.zeros((n, n), dtype=np.int64)
    feature = np.full((n, n), -1, dtype=np.int64)
    cover = np.zeros((n, n), dtype=bool)
    concealed = np.zeros((n, n), dtype=bool)
    distance = np.zeros((n, n), dtype=np.float64)
    reason[a, b], reason[b, a] = res.ab, res.ba
    feature[a, b], feature[b, a] = res.ab_feature, res.ba_feature
    cover[a, b], cover[b, a] = res.cover_ab, res.cover_ba
    concealed[a, b], concealed[b, a] = res.concealed_ab, res.concealed_ba
    distance[a, b] = distance[b, a] = res.distance
    visible = reason == 0
    cover &= visible  # as the matrix: Cover and concealment only where the target is seen
    concealed &= visible
    ids = vp.ids
    out = []
    rows = zip(
        reason.tolist(),
        feature.tolist(),
        cover.tolist(),
        concealed.tolist(),
        distance.tolist(),
        strict=True,
    )
    for i, (r_row, f_row, c_row, h_row, d_row) in enumerate(rows):
        for j in range(n):
            if i == j:
                continue
            seen = r_row[j] == 0
            out.append(
                LosResult(
                    viewer=ids[i],
                    target=ids[j],
                    visible=seen,
                    reason=REASONS[r_row[j]],
                    feature_id=None if seen else _blocker(index.features, ids, f_row[j]),
                    cover=c_row[j],
                    concealed=h_row[j],
                    distance=d_row[j],
                )
            )
    return out


def _blocker(features: list[str], ids: list[str], code: int) -> str | None:
    """The id a blocking code names (terrain index, or a figure as ``-(n + 2)``)."""
    if code >= 0:
        return features[code]
    if code <= -2:
        return ids[-code - 2]
    return None


def _json_row(row: dict[str, Any]) -> str:
    """``json.dumps(row, indent=2)`` nested one level down, with the scalars encoded in C
    (the indenting encoder is pure Python: 160,000 rows took seconds)."""
    lines = []
    for key, value in row.items():
        if isinstance(value, list) and value:
            text = json.dumps(value, indent=2).replace("\n", "\n    ")
        else:
            text = json.dumps(value)
        lines.append(f"    {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n  }"


LISTED_FIGURES = 40
"""Figures named in an unknown-figure error; more are counted, not listed."""


def figure_id(battlefield: Battlefield, typed: str, flag: str) -> str:
    """The id of the figure ``typed`` names: its id, else the one figure with that name
    (case aside).  An unknown or ambiguous name is refused naming the flag and the figures
    there are, so the player can pick one."""
    figures = list(battlefield.figures())
    if any(f.id == typed for f in figures):
        return typed
    named = [f for f in figures if f.name.casefold() == typed.strip().casefold()]
    if len(named) == 1:
        return named[0].id
    if named:
        ids = ", ".join(f.id for f in named)
        raise ModelError(f"{flag}: {len(named)} figures are named {typed!r} ({ids}): give the id")
    if not figures:
        raise ModelError(f"{flag}: no figure {typed!r}: the table has no figures")
    listed = [f.id if f.name == f.id else f"{f.id} ({f.name})" for f in figures]
    more = len(listed) - LISTED_FIGURES
    shown = ", ".join(listed[:LISTED_FIGURES]) + (f" and {more} more" if more > 0 else "")
    raise ModelError(f"{flag}: no figure with id or name {typed!r}; the figures are: {shown}")


def _nothing_to_judge(battlefield: Battlefield) -> str:
    """Why there are no verdicts to print: no figures, or one figure alone."""
    ids = battlefield.figure_ids()
    if not ids:
        return "no figures on this table: no line of sight to judge"
    return f"only one figure on this table ({ids[0]}): no line of sight to judge"


def run(args: argparse.Namespace) -> int:
    """Handle ``crdesk los``; returns the exit status."""
    scenario = load_for_command(args.file)
    if isinstance(scenario, int):
        return scenario
    battlefield = scenario.battlefield
    try:
        viewer = figure_id(battlefield, args.viewer, "--from") if args.viewer else None
        target = figure_id(battlefield, args.target, "--to") if args.target else None
        if viewer is not None and viewer == target:
            raise ModelError(f"--from and --to name the same figure ({viewer})")
        found = verdicts(battlefield, scenario.rules, viewer, target)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = sys.stdout
    if not found and not args.json:  # one figure (or none) has nothing to look at
        out.write(_nothing_to_judge(battlefield) + "\n")
        return EXIT_OK
    if args.json:  # row by row: one document of every pair would be held in memory twice
        out.write("[")
        for k, r in enumerate(found):
            out.write(("\n  " if k == 0 else ",\n  ") + _json_row(result_dict(r)))
        out.write("\n]\n" if found else "]\n")
    else:
        for r in found:
            out.write(f'{r.viewer} -> {r.target} ({r.distance:.1f}"): {r.message}\n')
    return EXIT_OK
