"""Hostile inputs, second round (issue 33): shapes that validate must play, sizes must hold.

Items 3 and 4: outlines that cross themselves or enclose no ground.  ``crdesk
validate`` accepts them with a warning, so every command and the game must play
them: the loader repairs an outline once, where the file is read
(:func:`crdesk.shapes.repaired`), and nothing later meets an invalid polygon.
The regression files are written by ``tools/fuzz/hostile.py`` (``33-*``); the app's
opening and playing of them is tested in ``tests/ui/test_hostile_round2_app.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Polygon

from crdesk import scenario as io
from crdesk.cli import main
from crdesk.errors import ScenarioError
from crdesk.geometry.movement import nearest_cover
from crdesk.model import CoverObstacle
from crdesk.shapes import ground, repaired
from crdesk.validation import Severity, check_file

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
BOW_TIE = HOSTILE / "33-bow-tie-cover.crdesk"
FREE_HOLE = HOSTILE / "33-free-hole-cover.crdesk"
POINT_WOODS = HOSTILE / "33-point-woods-hole.crdesk"
TANGLED = HOSTILE / "33-tangled-woods.crdesk"
SHAPES = [BOW_TIE, FREE_HOLE, POINT_WOODS]

ISSUE_4 = {
    "format_version": 1,
    "table": {"width": 36, "height": 36},
    "forces": [],
    "terrain": [
        {
            "id": "w",
            "kind": "woods",
            "outline": [[5, 5], [5, 5], [5, 5]],
            "holes": [[[1, 1], [2, 1], [2, 2]]],
        }
    ],
}


def _no_traceback(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "GEOSException" not in err, err
    return out


# -- 3: an outline that crosses itself is repaired where the file is read ---------------


@pytest.mark.parametrize(
    ("path", "kept", "written"), [(BOW_TIE, 1.0, 2.0), (FREE_HOLE, 4.0, 4.5)], ids=["bow", "hole"]
)
def test_3_a_crossing_cover_loads_valid_and_validate_says_how_it_is_played(
    path: Path, kept: float, written: float
) -> None:
    wall = io.load(path).battlefield.feature("c1")
    assert isinstance(wall, CoverObstacle)
    assert wall.outline.is_valid and wall.outline.area == pytest.approx(kept)
    found = check_file(path)
    assert found.problems == []
    assert [(i.item_id, i.severity, i.path) for i in found.table] == [
        ("c1", Severity.WARNING, "terrain[2].outline")
    ]
    message = found.table[0].message
    assert message.startswith("Odd wall: the outline is not a simple shape (")
    assert message.endswith(
        f"played as its largest valid part, {kept:g} of {written:g} square inches"
    )


@pytest.mark.parametrize("path", [BOW_TIE, FREE_HOLE], ids=["bow", "hole"])
def test_3_the_duck_back_finds_cover_among_the_walls(path: Path) -> None:
    scenario = io.load(path)
    bf = scenario.battlefield
    found = nearest_cover(bf, bf.figure("r-1"), (12.0, 14.0), scenario.rules)
    assert found is not None  # it raised TopologyException: side location conflict


@pytest.mark.parametrize("path", [BOW_TIE, FREE_HOLE], ids=["bow", "hole"])
def test_3_game_auto_plays_through_the_duck_backs(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.crgame"
    argv = ["game", "auto", str(path), "--seed", "1", "--turns", "2", "-o", str(out)]
    assert main(argv) == 0
    assert "Duck Back" in _no_traceback(capsys)  # the search that crashed was reached
    assert main(["game", "replay", str(out)]) == 0
    _no_traceback(capsys)


def test_3_a_repaired_table_saves_what_it_plays_and_saves_the_same_again(tmp_path: Path) -> None:
    first, second = tmp_path / "1.crdesk", tmp_path / "2.crdesk"
    io.save(io.load(BOW_TIE), first)
    io.save(io.load(first), second)
    assert first.read_bytes() == second.read_bytes()
    assert check_file(first).table == []  # nothing left to repair or flag


def test_3_repair_rules() -> None:
    valid = Polygon([(0, 0), (4, 0), (4, 4), (0, 4)])
    assert repaired(valid).outline is valid and repaired(valid).note == ""
    bow = repaired(Polygon([(0, 0), (4, 4), (4, 0), (0, 4)]))
    assert bow.outline.is_valid and bow.outline.area == pytest.approx(4.0) and bow.note
    nested = Polygon(
        valid.exterior, [[(1, 1), (3, 1), (3, 3), (1, 3)], [(2, 2), (2.5, 2), (2.5, 2.5)]]
    )
    fixed = repaired(nested)
    assert fixed.outline.is_valid and fixed.outline.area == pytest.approx(12.0)
    flat = Polygon([(30, 5), (32, 5), (34, 5)], [[(31, 6), (33, 6), (32, 8)]])
    assert repaired(flat).outline is flat  # no ground at all: kept as written, and flagged


def test_3_a_scribbled_outline_is_refused_with_its_path_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Repair is for a slip of the mouse (a few crossings): an outline crossing itself
    hundreds of thousands of times took 25 s to repair (GEOS's make_valid) and came
    out at 29,014 points, past the 10,000 a file may hold; it is refused instead."""
    assert main(["validate", str(TANGLED)]) == 1
    out = _no_traceback(capsys)
    assert "terrain[2].outline: " in out and "crosses itself more than 1,000 times" in out
    with pytest.raises(ScenarioError, match=r"terrain\[2\]\.outline"):
        io.load(TANGLED)


def test_3_the_crossings_are_counted_up_to_the_limit_only() -> None:
    from crdesk.shapes import crossings

    square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]
    assert crossings(square, 10) == 0
    assert crossings([(0.0, 0.0), (4.0, 4.0), (4.0, 0.0), (0.0, 4.0)], 10) == 1
    scribble = json.loads(TANGLED.read_text(encoding="utf-8"))["terrain"][2]["outline"]
    assert 1_000 < crossings([tuple(p) for p in scribble], 1_000) < 100_000  # stops early


def test_3_a_repaired_outline_stays_within_the_points_an_outline_may_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The repair adds a point at every crossing; past the limit the part played is
    simplified (within a hair of the drawn line) back under it, and the note says so."""
    import math

    from crdesk import limits

    monkeypatch.setattr(limits, "POINTS_PER_OUTLINE", 60)
    ring = [(10 + 8 * math.cos(k / 20), 10 + 8 * math.sin(k / 20)) for k in range(126)]
    ring[40], ring[41] = ring[41], ring[40]  # one small bow-tie on a 126-point circle
    fixed = repaired(Polygon(ring))
    assert fixed.outline.is_valid and len(fixed.outline.exterior.coords) - 1 <= 60
    assert fixed.outline.area == pytest.approx(Polygon(ring).buffer(0).area, rel=0.02)
    assert "simplified to" in fixed.note


# -- 4: an outline of one repeated point, with a hole ---------------------------------------


def test_4_ground_never_mixes_dimensions() -> None:
    point_with_hole = Polygon([(5, 5), (5, 5), (5, 5)], [[(1, 1), (2, 1), (2, 2)]])
    assert ground(point_with_hole).is_empty  # shapely.make_valid raised "mixed-dimension"
    assert repaired(point_with_hole).outline is point_with_hole


def test_4_the_issue_s_file_validates_with_a_path_named_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "w.crdesk"
    path.write_text(json.dumps(ISSUE_4), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    out = _no_traceback(capsys)
    assert "warning: terrain[0].outline: w: the outline encloses no ground (zero area)" in out


# -- every command over the warned-about shapes ----------------------------------------------


@pytest.mark.parametrize("path", SHAPES, ids=lambda p: p.stem)
def test_every_command_plays_the_warned_about_shapes(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(path)]) == 0
    assert "warning: terrain[2]" in _no_traceback(capsys)
    assert main(["los", str(path), "--json"]) == 0
    rows: list[dict[str, Any]] = json.loads(_no_traceback(capsys))
    assert len(rows) == 12
    for suffix in ("svg", "png"):
        out = tmp_path / f"t.{suffix}"
        assert main(["render", str(path), "-o", str(out), "--dpi", "20"]) == 0
        assert out.stat().st_size > 0
    _no_traceback(capsys)
    game = tmp_path / "g.crgame"
    assert main(["game", "auto", str(path), "--seed", "3", "--turns", "2", "-o", str(game)]) == 0
    assert main(["game", "show", str(game)]) == 0
    _no_traceback(capsys)


# -- 9: sight over huge outlines, in bounded memory ------------------------------------------


def test_9_the_numpy_edge_test_in_runs_gives_the_same_verdicts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The edge test takes its segment-edge pairs in runs of at most ``EDGE_PAIRS`` (its
    memory bounded whatever the outlines' points); every verdict stays the same."""
    import math

    from crdesk.cli import los as los_cli
    from crdesk.geometry import kernels, los

    doc = io.to_document(io.load(BOW_TIE))
    turn = [k * math.tau / 600 for k in range(600)]
    ring = [
        [24 + (5 + (k % 3) * 0.1) * math.cos(t), 9 + 5 * math.sin(t)] for k, t in enumerate(turn)
    ]
    doc["terrain"].append(
        {"id": "big", "kind": "building", "outline": ring, "floors": 1, "areas": [ring]}
    )
    doc["forces"][0]["figures"] += [
        {"id": f"x{i}", "rep": 4, "position": [1.5 + 1.5 * i, 2 + (i % 6) * 6]} for i in range(30)
    ]
    scenario = io.from_document(doc)

    def judged() -> list[tuple[Any, ...]]:
        with kernels.pinned(False):
            rows = los_cli.verdicts(scenario.battlefield, scenario.rules)
        return [(r.viewer, r.target, r.reason, r.feature_id, r.cover) for r in rows]

    whole = judged()
    runs: list[int] = []
    run = los._edge_run
    monkeypatch.setattr(los, "_edge_run", lambda *a: runs.append(len(a[3])) or run(*a))
    monkeypatch.setattr(los, "EDGE_PAIRS", 700)  # a run: about one pair with the building
    assert judged() == whole
    assert len(runs) > 3 and min(runs) == 1  # the pairs were taken in runs
    assert any(r[3] == "big" for r in whole)  # the building is on many lines
