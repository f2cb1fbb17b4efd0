"""The regression inputs of issue 17, written to ``tests/data/hostile/``.

Each file is a small, valid scenario bent in one hostile way.  Run
``python tools/fuzz/hostile.py`` to write them again; the suite
(``tests/test_hostile.py``) reads the files, so they stay reviewable data.
The few inputs too large to keep in the repository (100,000 figures, a
15 MB file) are built by :func:`huge` at test time instead.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "hostile"

BASE: dict[str, Any] = {
    "format_version": 1,
    "title": "Hostile base",
    "table": {"width": 48, "height": 36},
    "terrain": [
        {
            "id": "w1",
            "kind": "woods",
            "name": "Copse",
            "outline": [[5, 5], [12, 5], [12, 11], [5, 11]],
        },
        {
            "id": "b1",
            "kind": "building",
            "name": "Farm",
            "outline": [[20, 20], [26, 20], [26, 25], [20, 25]],
            "floors": 1,
            "areas": [[[20, 20], [26, 20], [26, 25], [20, 25]]],
            "openings": [{"kind": "door", "start": [22, 20], "end": [23, 20]}],
        },
    ],
    "forces": [
        {
            "id": "blue",
            "player": True,
            "figures": [
                {"id": "b-1", "rep": 4, "position": [3, 3], "facing": 90},
                {"id": "b-2", "rep": 5, "position": [4, 30], "facing": 90},
            ],
        },
        {
            "id": "red",
            "figures": [
                {"id": "r-1", "rep": 4, "position": [40, 30], "facing": 270},
                {"id": "r-2", "rep": 3, "position": [44, 5], "facing": 270},
            ],
        },
    ],
}


def base() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def _with(change: Any) -> dict[str, Any]:
    doc = base()
    change(doc)
    return doc


def _feature(doc: dict[str, Any], feature: dict[str, Any]) -> None:
    doc["terrain"].append(feature)


def _scribble(points: int) -> list[list[float]]:
    """A ring of random points on the table: it crosses itself at almost every edge."""
    rng = random.Random(33)
    return [[round(rng.uniform(2, 46), 3), round(rng.uniform(2, 34), 3)] for _ in range(points)]


def _at_the_walls(doc: dict[str, Any], outline: Any, holes: Any = None) -> None:
    """A Cover wall of this outline and a sound one beside it, the sides close by: fire
    comes at once and the Duck Back looks for Cover among both walls (issue 33, 3)."""
    wall: dict[str, Any] = {"id": "c1", "kind": "cover", "name": "Odd wall", "outline": outline}
    if holes:
        wall["holes"] = holes
    _feature(doc, wall)
    _feature(
        doc, {"id": "c2", "kind": "cover", "outline": [[16, 12], [17, 12], [17, 18], [16, 18]]}
    )
    blue, red = doc["forces"][0]["figures"], doc["forces"][1]["figures"]
    for fig, spot in zip(blue + red, ([12, 14], [14, 19], [30, 16], [30, 20]), strict=True):
        fig["position"] = spot
    red[1]["rep"] = 4


CASES: dict[str, tuple[str, dict[str, Any]]] = {
    # name: (what the file does, the document)
    "01-rep-float": (
        "a Rep written 4.0 (integral float): loads as Rep 4",
        _with(lambda d: d["forces"][0]["figures"][0].update(rep=4.0, star_power=2.0)),
    ),
    "02-kind-list": (
        "a terrain kind that is a list: refused at terrain[0].kind",
        _with(lambda d: d["terrain"][0].update(kind=["woods"])),
    ),
    "02-kind-object": (
        "a terrain kind that is an object: refused at terrain[0].kind",
        _with(lambda d: d["terrain"][0].update(kind={"woods": 1})),
    ),
    "03-zero-area-impassable": (
        "impassable ground of three collinear points: loads, flagged, draws",
        _with(
            lambda d: _feature(
                d, {"id": "i1", "kind": "impassable", "outline": [[30, 5], [32, 6], [34, 7]]}
            )
        ),
    ),
    "04-degenerate-building-hole": (
        "a building with no area but a hole: loads, flagged, draws",
        _with(
            lambda d: _feature(
                d,
                {
                    "id": "b2",
                    "kind": "building",
                    "outline": [[30, 5], [32, 5], [34, 5]],
                    "holes": [[[31, 6], [33, 6], [32, 8]]],
                    "floors": 1,
                    "areas": [[[30, 5], [32, 5], [34, 5]]],
                },
            )
        ),
    ),
    "05-lone-surrogate": (
        "a lone surrogate in the title: refused at title",
        _with(lambda d: d.update(title="Dawn \ud800 raid")),
    ),
    "06-huge-float": (
        "1e999 in generation.inputs: refused as a number too large",
        _with(lambda d: d.update(generation={"seed": 1, "inputs": {"size": 1e308}})),
    ),
    "08-repeated-closing-point": (
        "rings ending in one and two repeated closing points: saved once = saved twice",
        _with(
            lambda d: (
                d["terrain"][0]["outline"].extend([[5, 5], [5, 5]]),
                d["terrain"][1]["outline"].append([20, 20]),
            )
        ),
    ),
    "10-far-vertex": (
        "one vertex at x = -10000: refused at terrain[0].outline[1]",
        _with(lambda d: d["terrain"][0]["outline"].insert(1, [-10000, 5])),
    ),
    "10-wide-woods": (
        'woods 4,000" wide: refused (points far off the table)',
        _with(
            lambda d: d["terrain"][0].update(
                outline=[[-2000, 5], [2000, 5], [2000, 11], [-2000, 11]]
            )
        ),
    ),
    "10-woods-at-the-margin": (
        'woods reaching 48" off every edge: loads and draws in bounded time',
        _with(
            lambda d: d["terrain"][0].update(outline=[[-48, -48], [96, -48], [96, 84], [-48, 84]])
        ),
    ),
    "17-html-names": (
        "figure and terrain names holding HTML: shown as text",
        _with(
            lambda d: (
                d["terrain"][0].update(name='<img src="x.png"><b>Copse</b>'),
                d["forces"][0]["figures"][0].update(name="<i>Sgt</i> &amp; <img src=y>"),
            )
        ),
    ),
    "33-bow-tie-cover": (
        "a Cover wall crossing itself (a bow-tie) where Duck Back looks for Cover: "
        "played as its largest lobe, warned; game auto --seed 1 plays",
        _with(lambda d: _at_the_walls(d, [[10, 16], [14, 17], [14, 16], [10, 17]])),
    ),
    "33-free-hole-cover": (
        "a Cover wall with a hole outside its outline where Duck Back looks for Cover: "
        "played without the hole, warned; game auto --seed 1 plays",
        _with(
            lambda d: _at_the_walls(
                d, [[10, 16], [14, 16], [14, 17], [10, 17]], [[[30, 30], [31, 30], [31, 31]]]
            )
        ),
    ),
    "33-point-woods-hole": (
        "woods whose outline is one point repeated, with a hole: loads, flagged as no ground",
        _with(
            lambda d: _feature(
                d,
                {
                    "id": "w2",
                    "kind": "woods",
                    "outline": [[5, 5], [5, 5], [5, 5]],
                    "holes": [[[1, 1], [2, 1], [2, 2]]],
                },
            )
        ),
    ),
    "33-tangled-woods": (
        "woods whose 2,000-point outline crosses itself about 600,000 times (a random "
        "scribble): refused with its path, at once (repairing it took 25 s and 29,014 points)",
        _with(lambda d: _feature(d, {"id": "w3", "kind": "woods", "outline": _scribble(2_000)})),
    ),
    "33-10-print-480": (
        'a 480" x 480" table of a few features: its 1:1 PDF, 3,217 A4 pages, refused '
        "at once naming the count and the bound; PNG and SVG draw",
        _with(lambda d: d.update(table={"width": 480, "height": 480})),
    ),
    "misc-blank-name": (
        "a figure named with spaces only: loads, named by its id",
        _with(lambda d: d["forces"][0]["figures"][1].update(name="   ")),
    ),
}


def text_of(name: str) -> str:
    """The file text of a case (1e999 spelled as such: Python would write inf)."""
    doc = CASES[name][1]
    text = json.dumps(doc, indent=1)
    return text.replace("1e+308", "1e999")


def huge(kind: str) -> dict[str, Any]:
    """Inputs too large to keep as files: built at test time."""
    doc = base()
    if kind == "100k-figures":
        doc["forces"][1]["figures"] = [
            {"id": f"r{i}", "rep": 4, "position": [40, 30]} for i in range(100_000)
        ]
    elif kind == "1000-figures":
        doc["forces"][1]["figures"] = [
            {"id": f"r{i}", "rep": 4, "position": [i % 48, (i // 48) % 36]} for i in range(1_000)
        ]
    elif kind == "big-log":
        doc["generation"] = {
            "seed": 1,
            "log": [{"die": "d6", "text": "x" * 200, "n": i} for i in range(4_000)],
        }
    else:
        raise ValueError(kind)
    return doc


SCENARIOS_HEADING = "## Scenarios (`.crdesk`)"
README_INTRO = """Written by `tools/fuzz/hostile.py` (`tests/test_hostile.py` checks each file is
its output); `tests/test_hostile.py` and `tests/test_hostile_ui.py` run every
one through validate, los, render and a scene build.  Running it rewrites this
section alone; the sections after it (the game and Band files, written by
other tools) are kept."""


def readme_text(old: str) -> str:
    """The README with its scenario section written from :data:`CASES`: the hand-written
    sections after it (seed games, saved-game regressions) are kept as they were."""
    rest = ""
    at = old.find(SCENARIOS_HEADING)
    if at >= 0:
        after = old.find("\n## ", at + len(SCENARIOS_HEADING))
        rest = old[after + 1 :] if after >= 0 else ""
    lines = ["# Hostile inputs (issue 17)", "", SCENARIOS_HEADING, "", README_INTRO, ""]
    lines += [f"- `{name}.crdesk`: {what}" for name, (what, _doc) in CASES.items()]
    text = "\n".join(lines) + "\n"
    return text + "\n" + rest if rest else text


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        (OUT / f"{name}.crdesk").write_text(text_of(name) + "\n", encoding="utf-8")
    readme = OUT / "README.md"
    old = readme.read_text(encoding="utf-8") if readme.exists() else ""
    readme.write_text(readme_text(old), encoding="utf-8")
    print(f"wrote {len(CASES)} files to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
