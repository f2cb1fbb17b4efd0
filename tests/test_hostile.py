"""Hostile and huge inputs (issue 17): every file opens or is refused in words, quickly.

The regression files live in ``tests/data/hostile/`` (written by
``tools/fuzz/hostile.py``); the few too large to keep are built here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from crdesk import limits
from crdesk import scenario as io
from crdesk.cli import common as cli_common
from crdesk.cli import main
from crdesk.errors import ScenarioError, ScenarioFormatError, UnreadableFileError
from crdesk.model import Building
from crdesk.validation import Severity, check_battlefield

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile"
FILES = sorted(HOSTILE.glob("*.crdesk"))

_spec = importlib.util.spec_from_file_location("hostile", ROOT / "tools" / "fuzz" / "hostile.py")
assert _spec and _spec.loader
hostile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hostile)


HANG = 60.0
"""Seconds a command may take before the test calls it a hang (speed targets are the
benchmarks' job; this machine may be loaded)."""


def _problems(path: Path) -> list[str]:
    return [str(p) for p in io.validate_file(path)]


def _refused(name: str) -> list[str]:
    with pytest.raises(ScenarioFormatError) as info:
        io.load(HOSTILE / f"{name}.crdesk")
    return [str(p) for p in info.value.problems]


def test_the_files_on_disk_are_the_generator_s() -> None:
    assert {p.stem for p in FILES} == set(hostile.CASES)
    for path in FILES:
        assert path.read_text(encoding="utf-8") == hostile.text_of(path.stem) + "\n"


def test_the_readme_lists_the_generator_s_files_and_keeps_the_other_sections() -> None:
    readme = (HOSTILE / "README.md").read_text(encoding="utf-8")
    assert hostile.readme_text(readme) == readme
    assert "## Seed games and Bands" in readme
    stale = readme.replace("- `01-rep-float.crdesk`", "- `00-gone.crdesk`", 1)
    assert hostile.readme_text(stale) == readme


# -- 1: a Rep written 4.0 ------------------------------------------------------


def test_1_integral_float_rep_loads_as_an_integer(tmp_path: Path) -> None:
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    fig = scenario.battlefield.figure("b-1")
    assert fig.rep == 4 and type(fig.rep) is int
    assert fig.star_power == 2 and type(fig.star_power) is int
    io.save(scenario, tmp_path / "out.crdesk")
    saved = json.loads((tmp_path / "out.crdesk").read_text(encoding="utf-8"))
    assert saved["forces"][0]["figures"][0]["rep"] == 4
    assert '"rep": 4,' in (tmp_path / "out.crdesk").read_text(encoding="utf-8")


def test_1_a_model_refusal_is_still_a_file_error() -> None:
    doc = hostile.base()
    doc["forces"][0]["figures"][0]["name"] = "  "  # the model wants a real name
    assert io.from_document(doc).battlefield.figure("b-1").name == "b-1"


# -- 2: a kind that is a list or an object -------------------------------------


@pytest.mark.parametrize("name", ["02-kind-list", "02-kind-object"])
def test_2_unhashable_kind_is_reported_not_raised(name: str) -> None:
    problems = _refused(name)
    assert len(problems) == 1 and problems[0].startswith("terrain[0].kind: expected a terrain kind")


# -- 3, 4: degenerate outlines --------------------------------------------------


def test_3_zero_area_impassable_loads_and_is_flagged() -> None:
    scenario = io.load(HOSTILE / "03-zero-area-impassable.crdesk")
    issues = [i for i in check_battlefield(scenario.battlefield) if i.item_id == "i1"]
    assert [(i.severity, i.message) for i in issues] == [
        (Severity.ERROR, "i1: the outline encloses no ground (zero area)")
    ]


def test_4_degenerate_building_with_a_hole_loads_and_is_flagged() -> None:
    scenario = io.load(HOSTILE / "04-degenerate-building-hole.crdesk")
    house = scenario.battlefield.feature("b2")
    assert isinstance(house, Building) and len(house.outline.interiors) == 1
    issues = {i.item_id: i.severity for i in check_battlefield(scenario.battlefield)}
    assert issues["b2"] is Severity.ERROR


# -- 5: lone surrogates ----------------------------------------------------------


def test_5_lone_surrogate_is_refused_with_its_path() -> None:
    problems = _refused("05-lone-surrogate")
    assert problems == [
        "title: the text holds a lone UTF-16 surrogate (an escape like \\ud800 that is not "
        "a character); write the character itself"
    ]


def test_5_a_surrogate_in_memory_never_stops_a_save(tmp_path: Path) -> None:
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    scenario.title = "Dawn \ud800 raid"
    scenario.battlefield.update_figure("b-1", name="Sgt \udfff")
    io.save(scenario, tmp_path / "kept.crdesk")
    again = io.load(tmp_path / "kept.crdesk")
    assert again.title == "Dawn \ufffd raid"
    assert again.battlefield.figure("b-1").name == "Sgt \ufffd"


def test_5_surrogates_in_keys_and_values_print(capsys: pytest.CaptureFixture[str]) -> None:
    doc = hostile.base()
    doc["terrain"][0]["kind"] = "\ud800"
    doc["\udc00"] = 1
    problems = io.check_document(doc)
    text = "\n".join(map(str, problems))
    text.encode("utf-8")  # printable: no lone surrogate left in any message
    assert "terrain[0].kind" in text and "\ufffd" in text


# -- 6: 1e999 --------------------------------------------------------------------


def test_6_number_beyond_a_float_is_refused_with_its_path() -> None:
    assert _refused("06-huge-float") == [
        "generation.inputs.size: the number 1e999 is too large (beyond 1.8e308)"
    ]


def test_6_in_a_coordinate_too() -> None:
    text = json.dumps(hostile.base()).replace("[3, 3]", "[1e999, 3]", 1)
    with pytest.raises(ScenarioFormatError) as info:
        io.from_document(io.parse_document(text.encode()))
    paths = {p.path for p in info.value.problems}
    assert "forces[0].figures[0].position[0]" in paths


# -- 7: what is saved loads again --------------------------------------------------


def test_7_the_limits_keep_every_saved_file_loadable() -> None:
    assert limits.saved_size_bound() < limits.FILE_BYTES


def test_7_a_padded_15_mb_file_saves_small_and_reopens(tmp_path: Path) -> None:
    text = json.dumps(hostile.base())
    padded = tmp_path / "padded.crdesk"
    padded.write_text("{" + " " * 15_400_000 + text[1:], encoding="utf-8")
    scenario = io.load(padded)
    io.save(scenario, tmp_path / "again.crdesk")
    assert (tmp_path / "again.crdesk").stat().st_size < 10_000
    assert io.to_document(io.load(tmp_path / "again.crdesk")) == io.to_document(scenario)


def test_7_a_record_too_large_to_save_again_is_refused_on_load() -> None:
    doc = hostile.base()
    doc["generation"] = {"seed": 1, "inputs": {"blob": "x" * (limits.GENERATION_BYTES + 1)}}
    problems = [str(p) for p in io.check_document(doc)]
    assert len(problems) == 1 and problems[0].startswith("generation: the generation record")


def test_7_a_save_over_the_load_limit_is_refused_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    path = tmp_path / "keep.crdesk"
    io.save(scenario, path)
    before = path.read_bytes()
    monkeypatch.setattr(io, "MAX_FILE_BYTES", 1000)
    with pytest.raises(OSError, match="over the 0 MB crdesk opens"):
        io.save(scenario, path)
    assert path.read_bytes() == before


# -- 8: saving twice writes the same file -------------------------------------------


def test_8_repeated_closing_points_are_normalised_on_load(tmp_path: Path) -> None:
    scenario = io.load(HOSTILE / "08-repeated-closing-point.crdesk")
    assert len(scenario.battlefield.feature("w1").outline.exterior.coords) == 5
    first, second = tmp_path / "1.crdesk", tmp_path / "2.crdesk"
    io.save(scenario, first)
    io.save(io.load(first), second)
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    doc = json.loads(first.read_text(encoding="utf-8"))
    assert doc["terrain"][0]["outline"] == [[5, 5], [12, 5], [12, 11], [5, 11]]


def test_8_a_ring_of_one_repeated_point_stays_three_points(tmp_path: Path) -> None:
    doc = hostile.base()
    doc["terrain"][0]["outline"] = [[5, 5]] * 6
    scenario = io.from_document(doc)
    io.save(scenario, tmp_path / "1.crdesk")
    io.save(io.load(tmp_path / "1.crdesk"), tmp_path / "2.crdesk")
    assert (tmp_path / "1.crdesk").read_bytes() == (tmp_path / "2.crdesk").read_bytes()


# -- 10, 12: sizes checked before the schema walks -----------------------------------


def test_10_points_far_off_the_table_are_refused_with_their_path() -> None:
    assert any(p.startswith("terrain[0].outline[1][0]:") for p in _refused("10-far-vertex"))
    doc = hostile.base()
    doc["terrain"][0]["outline"][2] = [200, 11]  # within the schema's bound, not this table's
    problems = [str(p) for p in io.check_document(doc)]
    assert problems == [
        'terrain[0].outline[2]: the point [200, 11] lies more than 48" off the 48" x 36" '
        'table; crdesk handles points at most 48" outside it'
    ]


def test_12_100k_figures_are_refused_in_words_at_once() -> None:
    doc = hostile.huge("100k-figures")
    start = time.perf_counter()
    problems = [str(p) for p in io.check_document(doc)]
    elapsed = time.perf_counter() - start
    assert problems == ["forces[1].figures: 100,000 figures; crdesk handles at most 400 in a force"]
    assert elapsed < 4.0  # it took 8.4 s when every figure was walked first


def test_12_figures_per_table_are_counted_over_all_forces() -> None:
    doc = hostile.base()
    for k in range(3):
        doc["forces"].append(
            {
                "id": f"f{k}",
                "figures": [{"id": f"f{k}-{i}", "rep": 4, "position": [1, 1]} for i in range(150)],
            }
        )
    assert [str(p) for p in io.check_document(doc)] == [
        "forces[4].figures: 454 figures on the table with this force's 150; crdesk handles "
        "at most 400 on one table"
    ]


def test_12_every_size_limit_names_its_path() -> None:
    doc = hostile.base()
    doc["terrain"][0]["outline"] = [[1, 1]] * (limits.POINTS_PER_OUTLINE + 1)
    doc["generation"] = {"seed": 1, "log": [{}] * (limits.GENERATION_LOG + 1)}
    assert [str(p) for p in io.check_document(doc)] == [
        "terrain[0].outline: 10,001 points; crdesk handles at most 10,000 in a line",
        "generation.log: 5,001 log entries; crdesk handles at most 5,000 in a record",
    ]


# -- 13: generate sizes ----------------------------------------------------------------


@pytest.mark.parametrize("size", ["0.001x0.001", "3x3", "1000x1000", "nanxnan", "infx6"])
def test_13_generate_refuses_sizes_it_cannot_write(size: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="each table side must be 6 to 480"):
        cli_common.table_size(size)


def test_13_generate_exits_2_on_a_bad_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.crdesk"
    assert main(["generate", "--seed", "1", "--size", "3x3", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "each table side must be 6 to 480 inches" in err
    assert not out.exists()


def test_13_a_generated_table_over_the_limits_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "long.crdesk"  # woods along a 480" strip: one outline of ~20,000 points
    assert main(["generate", "--seed", "2", "--size", "480x6", "-o", str(out)]) == 2
    assert "terrain[0].outline: 19,922 points; crdesk handles at most 10,000" in (
        capsys.readouterr().err
    )
    assert not out.exists()


# -- 14: temp files and symlinks ---------------------------------------------------------


def test_14_stale_temp_files_are_cleaned_and_live_ones_kept(tmp_path: Path) -> None:
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    path = tmp_path / "t.crdesk"
    dead = subprocess.Popen(["true"])
    dead.wait()
    # the names write_atomic makes: .NAME.PID-XXXXXXXX.tmp (issue 33: only those)
    killed = tmp_path / f".t.crdesk.{dead.pid}-abc123xy.tmp"  # its writer is gone
    ancient = tmp_path / f".t.crdesk.{os.getppid()}-ghijk_mn.tmp"  # an hour old, whoever
    live = tmp_path / f".t.crdesk.{os.getppid()}-def456zz.tmp"  # a save under way
    other = tmp_path / f".u.crdesk.{dead.pid}-abc123xy.tmp"  # another file's
    foreign = tmp_path / ".t.crdesk.abc.tmp"  # no name crdesk makes, however old
    for p in (killed, ancient, live, other, foreign):
        p.write_bytes(b"half a file")
    old = time.time() - 7200
    os.utime(ancient, (old, old))
    os.utime(foreign, (old, old))
    io.save(scenario, path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([live.name, other.name, foreign.name, "t.crdesk"])


def test_14_saving_through_a_symlink_replaces_the_target(tmp_path: Path) -> None:
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "table.crdesk"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.crdesk"
    link.symlink_to(target)
    io.save(scenario, link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert io.load(target).title == scenario.title
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.crdesk", "real"]


# -- 16: devices and pipes ---------------------------------------------------------------


def test_16_devices_and_fifos_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.crdesk"
    os.mkfifo(fifo)
    start = time.perf_counter()
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(UnreadableFileError, match="a device or pipe"):
            io.load(path)
    assert time.perf_counter() - start < HANG  # never read: no hang on a FIFO


def test_16_validate_dev_zero_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "/dev/zero"]) == 2
    assert "a device or pipe, not a scenario file" in capsys.readouterr().err


# -- every regression file through the commands -------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_hostile_file_validates_and_los_runs_without_a_traceback(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = time.perf_counter()
    status = main(["validate", str(path)])
    assert status in (0, 1, 2)
    assert "Traceback" not in capsys.readouterr().err
    if status == 0:
        assert main(["los", str(path), "--json"]) == 0
        rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
        assert len(rows) == 12
    assert time.perf_counter() - start < HANG  # a guard against hangs, not a benchmark
    assert "Traceback" not in capsys.readouterr().err


# -- 9: every pair at once ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["demo-urban.crdesk", "demo-wooded.crdesk"])
def test_9_all_pairs_agree_with_the_pair_by_pair_verdicts(name: str) -> None:
    from crdesk.cli import los as los_cli
    from crdesk.geometry.los import explain, viewpoints
    from crdesk.geometry.terrain_index import build_index

    scenario = io.load(ROOT / "resources" / "scenarios" / name)
    bf, rules = scenario.battlefield, scenario.rules
    index = build_index(bf, rules, raster=False)
    vp = viewpoints(bf, index, rules)
    n = len(vp.ids)
    one = [explain(index, vp, i, j, rules) for i in range(n) for j in range(n) if i != j]
    every = los_cli.verdicts(bf, rules)

    def key(r: Any) -> tuple[Any, ...]:
        return (r.viewer, r.target, r.visible, r.reason, r.feature_id, r.cover, r.concealed)

    assert [key(r) for r in every] == [key(r) for r in one]
    assert [r.distance for r in every] == pytest.approx([r.distance for r in one])


def test_16_a_saved_game_from_a_device_or_pipe_is_refused(tmp_path: Path) -> None:
    from crdesk.game.savefile import read_game_document

    fifo = tmp_path / "pipe.crgame"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(ScenarioError, match="a device or pipe, not a game file"):
            read_game_document(path)


def test_10_blocking_terrain_covering_the_table_many_times_is_refused() -> None:
    doc = hostile.base()
    box = [[-48, -48], [96, -48], [96, 84], [-48, 84]]
    doc["terrain"] = [{"id": f"w{i}", "kind": "woods", "outline": box} for i in range(3)]
    assert [str(p) for p in io.check_document(doc)] == [
        "terrain: the woods, buildings and impassable ground together span 3.0 times the "
        "table and its margin; crdesk handles at most 2"
    ]
    doc["terrain"] = doc["terrain"][:2]
    assert io.check_document(doc) == []


def test_5_a_document_that_is_just_a_lone_surrogate_is_refused_printably() -> None:
    with pytest.raises(ScenarioFormatError) as info:
        io.parse_document(b'"\\ud800"')
    assert str(info.value) == "<data>: 1 problem in the scenario file\n" + (
        '  expected a JSON object (a crdesk scenario), got "\ufffd"'
    )
