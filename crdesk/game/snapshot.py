"""Putting a game straight into a saved snapshot: the checks that the snapshot fits.

A saved game whose steps no longer replay (a rules change since) can be opened
from its last snapshot (:meth:`crdesk.game.Game.from_snapshot`).  The file's
schema has checked the snapshot's shape; here it is checked against the game it
is put into -- the same terrain, the same figures (and the enemies contacted
PEFs added, 11.3), the same state keys, the frames this crdesk knows -- so that a
hostile or stale snapshot is refused with the reason before anything is set.
"""

from __future__ import annotations

import re
from typing import Any

from crdesk.errors import IllegalActionError
from crdesk.game.procedures import PROCEDURES
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.model import Figure

OPTIONAL_STATE = frozenset({"hidden"})
"""Game state kept only while it holds something (so that other games' hashes stay)."""
PEF_FIGURE = re.compile(r"pef[0-9]+-[0-9]+")
"""Ids of the figures contacted PEFs add to the non-player force (11.3)."""


def fitting(t: Table, doc: dict[str, Any], steps: int) -> tuple[list[Any], list[Frame]]:
    """The snapshot's figure rows and frames, once it is known to fit the game ``t``
    (whose history has ``steps`` steps); IllegalActionError naming what does not.
    The enemies contacted PEFs added (11.3) are added to ``t``'s battlefield."""
    bf_doc = doc["battlefield"]
    if bf_doc["terrain_digest"] != t.battlefield.terrain_digest():
        raise IllegalActionError("the snapshot was taken on other terrain")
    rows = [fig for force in bf_doc["forces"] for fig in force["figures"]]
    if t.settings.solo:  # the enemies contacted PEFs generated (11.3)
        for force_doc in bf_doc["forces"]:
            for row in force_doc["figures"]:
                fid = row.get("id")
                new = isinstance(fid, str) and fid not in t.battlefield.figure_ids()
                if new and PEF_FIGURE.fullmatch(fid):
                    t.battlefield.add_figure(
                        str(force_doc["id"]), Figure(fid, fid, int(row["rep"]))
                    )
    if [r.get("id") for r in rows] != t.battlefield.figure_ids():
        raise IllegalActionError("the snapshot's figures are not the scenario's")
    if doc["steps"] != steps:
        raise IllegalActionError(
            f"the snapshot is of step {doc['steps']}, the file has {steps} steps"
        )
    if set(doc["game"]) - OPTIONAL_STATE != set(t.state) - OPTIONAL_STATE:
        raise IllegalActionError("the snapshot's game state is not this crdesk's")
    _check_hidden(doc["game"].get("hidden", []))
    frames = [Frame(str(f["kind"]), dict(f["data"])) for f in doc["frames"]]
    for frame in frames:
        if frame.kind not in PROCEDURES:
            raise IllegalActionError(f"the snapshot has an unknown frame {frame.kind!r}")
    return rows, frames


def _check_hidden(rows: Any) -> None:
    """A snapshot's hidden pairs: a list of [figure, cause] id pairs (7.4.4)."""
    ok = isinstance(rows, list) and all(
        isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r) for r in rows
    )
    if not ok:
        raise IllegalActionError("the snapshot's hidden pairs are not [figure, cause] ids")
