"""A zero-area outline is indexed without shapely's "invalid value encountered in buffer".

Fuzz finding (issue 17; ``tools/fuzz/fuzz_scenarios.py --kind crgame``, seed 72): a
saved game whose cover wall's outline is one point repeated printed that warning
from ``build_index`` whenever sight was checked.
"""

from __future__ import annotations

import warnings

import shapely

from crdesk.cli.los import verdicts
from crdesk.geometry.terrain_index import GRAZE, build_index
from crdesk.scenario import from_document

POINT = [[19, 25.5]] * 5
"""The fuzzed wall's outline: one point, five times."""


def scenario_doc() -> dict[str, object]:
    return {
        "format_version": 1,
        "title": "A wall of one point",
        "table": {"width": 48, "height": 36},
        "terrain": [
            {"id": "w1", "kind": "woods", "outline": [[5, 5], [12, 5], [12, 11], [5, 11]]},
            {"id": "c1", "kind": "cover", "outline": POINT, "cover_type": "wall"},
            {"id": "w2", "kind": "woods", "outline": POINT},
        ],
        "forces": [
            {
                "id": "blue",
                "player": True,
                "figures": [{"id": "b-1", "rep": 4, "position": [3, 3], "facing": 90}],
            },
            {
                "id": "red",
                "figures": [{"id": "r-1", "rep": 4, "position": [19, 30], "facing": 270}],
            },
        ],
    }


def test_a_one_point_outline_is_indexed_and_seen_past_without_a_warning() -> None:
    scenario = from_document(scenario_doc())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the suite does too; said here for the reader
        index = build_index(scenario.battlefield, scenario.rules)
        core = index.woods_core(index.feature_index("w2"))
        sight = verdicts(scenario.battlefield, scenario.rules)
    assert core.is_empty
    assert sight  # every pair answered
    woods = index.outlines[index.feature_index("w1")]
    eroded = shapely.buffer(woods, -GRAZE, join_style="mitre")
    assert any(shapely.equals_exact(g, eroded, 0) for g in index.geoms)  # real woods as before
