"""Scenario file format v1: golden round trips, every problem with its path, hostile files."""

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdesk import __version__
from crdesk import scenario as io
from crdesk.errors import NewerFormatError, ScenarioFormatError, UnreadableFileError
from crdesk.model import Building, Hill

DATA = Path(__file__).resolve().parent.parent / "data" / "scenario"
DEMOS = Path(__file__).resolve().parents[2] / "resources" / "scenarios"
DEMO_FILES = sorted(DEMOS.glob("*.crdesk"))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8").replace("crdesk 0.1.0", f"crdesk {__version__}")


def test_demos_are_shipped() -> None:
    assert {p.name for p in DEMO_FILES} >= {"demo-urban.crdesk", "demo-wooded.crdesk"}


@pytest.mark.parametrize("path", DEMO_FILES, ids=lambda p: p.name)
def test_demo_round_trips_byte_for_byte(path: Path, tmp_path: Path) -> None:
    scenario = io.load(path)
    out = tmp_path / "again.crdesk"
    io.save(scenario, out)
    assert out.read_text(encoding="utf-8") == _text(path)
    assert io.to_document(io.load(out)) == io.to_document(scenario)


def test_minimal_file_loads_to_golden_document(tmp_path: Path) -> None:
    scenario = io.load(DATA / "minimal" / "input.crdesk")
    assert io.dumps(scenario) == _text(DATA / "minimal" / "expected.crdesk")
    hill = scenario.battlefield.feature("h1")
    assert isinstance(hill, Hill)
    assert list(hill.outline.exterior.coords)[:-1] == [(1, 1), (10, 1.5), (9.25, 8), (0.125, 7)]
    fig = scenario.battlefield.figure("a1")
    assert fig.x == 3.3333333333333335  # floats round-trip exactly
    io.save(scenario, tmp_path / "m.crdesk")
    again = io.load(tmp_path / "m.crdesk")
    assert again.battlefield.feature("h1") == hill
    assert again.battlefield.figure("a1") == fig


def test_every_problem_is_listed_with_its_path() -> None:
    problems = io.validate_file(DATA / "several-errors" / "input.crdesk")
    expected = (DATA / "several-errors" / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert [str(p) for p in problems] == expected


def test_load_raises_with_all_problems() -> None:
    with pytest.raises(ScenarioFormatError) as info:
        io.load(DATA / "several-errors" / "input.crdesk")
    assert len(info.value.problems) == 12
    assert 'forces[0].figures[1].rep: expected an integer 2..20, got "five"' in str(info.value)


def _doc() -> dict:
    return json.loads((DEMOS / "demo-urban.crdesk").read_text(encoding="utf-8"))


def test_newer_format_is_refused_clearly() -> None:
    doc = _doc()
    doc["format_version"] = 7
    with pytest.raises(NewerFormatError, match="made by a newer crdesk"):
        io.from_document(doc)


def test_building_needs_areas_and_second_player_is_refused() -> None:
    doc = _doc()
    building = next(t for t in doc["terrain"] if t["kind"] == "building")
    del building["areas"]
    doc["forces"][1]["player"] = True
    problems = [str(p) for p in io.check_document(doc)]
    assert any(
        p.endswith(".areas: required field is missing (a building needs it)") for p in problems
    )
    assert "forces[1].player: only one force can be the player's (forces[0] already is)" in problems


def test_building_round_trips_openings_and_areas(tmp_path: Path) -> None:
    scenario = io.load(DEMOS / "demo-urban.crdesk")
    hotel = scenario.battlefield.feature("building-1")
    assert isinstance(hotel, Building)
    assert hotel.floors == 2 and len(hotel.areas) == 2 and len(hotel.openings) == 4


def test_a_building_made_without_areas_is_one_area_and_reopens(tmp_path: Path) -> None:
    """Code (a generator, a script) may leave areas out: the saved file must still open."""
    from shapely.geometry import box

    from crdesk.model import Battlefield, Scenario, Table, TerrainKind

    shed = Building("shed", TerrainKind.BUILDING, "Shed", box(2, 2, 5, 4))
    assert len(shed.areas) == 1 and shed.areas[0].equals(shed.outline)
    path = tmp_path / "shed.crdesk"
    io.save(Scenario(Battlefield(Table(12, 12), [shed], [])), path)
    again = io.load(path).battlefield.feature("shed")
    assert again == shed


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format_version": 1, "table": {"wid', "not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        (b"\xff\xfe\xfa garbage", "not UTF-8"),
        (b'{"format_version": NaN}', "NaN"),
        (b"", "not valid JSON"),
    ],
)
def test_unreadable_files_fail_cleanly(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.crdesk"
    path.write_bytes(content)
    with pytest.raises(UnreadableFileError, match=message):
        io.load(path)


def test_top_level_must_be_an_object(tmp_path: Path) -> None:
    path = tmp_path / "list.crdesk"
    path.write_text("[1, 2]")
    assert [str(p) for p in io.validate_file(path)] == [
        "expected a JSON object (a crdesk scenario), got a list of 2 items"
    ]


def test_huge_and_deep_files_are_refused_fast(tmp_path: Path) -> None:
    big = tmp_path / "big.crdesk"
    with big.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    deep = tmp_path / "deep.crdesk"
    deep.write_text("[" * 10_000 + "]" * 10_000)
    start = time.perf_counter()
    with pytest.raises(UnreadableFileError, match=r"50\.0 MB"):
        io.load(big)
    with pytest.raises(UnreadableFileError, match="nested too deeply"):
        io.load(deep)
    assert time.perf_counter() - start < 2.0


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="no such file"):
        io.load(tmp_path / "nope.crdesk")
    with pytest.raises(UnreadableFileError, match="folder"):
        io.load(tmp_path)


def test_save_is_atomic_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "keep.crdesk"
    scenario = io.load(DEMOS / "demo-wooded.crdesk")
    io.save(scenario, path)
    before = path.read_bytes()

    def boom(fd: int) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "fsync", boom)
    scenario.title = "Changed"
    with pytest.raises(OSError, match="disk on fire"):
        io.save(scenario, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.crdesk"]


def test_rules_options_round_trip(tmp_path: Path) -> None:
    doc = _doc()
    doc["rules"] = {"scale": "15mm", "night": True, "interpretations": {"leader_die_capped": False}}
    scenario = io.from_document(doc)
    assert scenario.rules.night and not scenario.rules.interpretations.leader_die_capped
    assert scenario.rules.blast_size == 3.0
    io.save(scenario, tmp_path / "r.crdesk")
    assert io.load(tmp_path / "r.crdesk").rules == scenario.rules


def test_saved_files_are_readable_by_others_and_keep_their_mode(tmp_path: Path) -> None:
    scenario = io.load(DEMOS / "demo-wooded.crdesk")
    path = tmp_path / "shared.crdesk"
    old = os.umask(0o022)
    try:
        io.save(scenario, path)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o600)
    io.save(scenario, path)
    assert path.stat().st_mode & 0o777 == 0o600


_BAD_COORDS = st.one_of(
    st.just("3"),
    st.just(True),
    st.none(),
    st.just([1.0, 2.0]),
    st.floats(min_value=10_000.5, max_value=1e9),
    st.floats(max_value=-10_000.5, min_value=-1e9),
)
_BAD_POINTS = st.one_of(
    st.just([1.0]),
    st.just([1.0, 2.0, 3.0]),
    st.just("1,2"),
    st.just({"x": 1, "y": 2}),
    st.tuples(_BAD_COORDS, st.floats(0, 10)).map(list),
    st.tuples(st.floats(0, 10), _BAD_COORDS).map(list),
)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_quick_point_check_reports_exactly_what_the_schema_does(data: st.DataObject) -> None:
    """Lists of points skip the schema when all are fine; any bad one gets the schema's words."""
    from jsonschema import Draft202012Validator

    from crdesk.schema import SCENARIO_SCHEMA

    doc = json.loads((DEMOS / "demo-urban.crdesk").read_text())
    rings = [f["outline"] for f in doc["terrain"]] + [
        area for f in doc["terrain"] for area in f.get("areas", [])
    ]
    for _ in range(data.draw(st.integers(0, 4))):
        ring = data.draw(st.sampled_from(rings))
        ring[data.draw(st.integers(0, len(ring) - 1))] = data.draw(_BAD_POINTS)
    plain = sorted(
        str(io.schema_problem(e)) for e in Draft202012Validator(SCENARIO_SCHEMA).iter_errors(doc)
    )
    quick = sorted(str(io.schema_problem(e)) for e in io._VALIDATOR.iter_errors(doc))
    assert quick == plain
