"""`crdesk validate` runs the editor's table checks: one set of checks for both (issue 15, 3)."""

import json
from pathlib import Path
from typing import Any

import pytest

from crdesk.cli import main
from crdesk.cli.common import EXIT_OK, EXIT_PROBLEMS
from crdesk.resources import demo_scenario
from crdesk.scenario import load, read_document
from crdesk.validation import check_battlefield, check_file


def _demo() -> dict[str, Any]:
    return read_document(str(demo_scenario()))


def _write(tmp_path: Path, data: dict[str, Any], name: str = "table.crdesk") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _off_table(tmp_path: Path) -> tuple[Path, str]:
    data = _demo()
    figure = data["forces"][0]["figures"][2]
    figure["position"] = [-4, 12]
    return _write(tmp_path, data), figure["name"]


def test_a_figure_off_the_table_is_a_warning_with_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, name = _off_table(tmp_path)
    assert main(["validate", str(path)]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{path}: OK, 1 table warning",
        f'  warning: forces[0].figures[2].position: {name} is off the table at (-4.0", 12.0")',
    ]


def test_strict_makes_the_table_warnings_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, name = _off_table(tmp_path)
    demo = str(demo_scenario())
    assert main(["validate", "--strict", demo, str(path)]) == EXIT_PROBLEMS
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{demo}: OK"  # a clean file stays clean under --strict
    assert out[1] == f"{path}: 1 table problem (--strict)"
    assert out[2].startswith(f"  error: forces[0].figures[2].position: {name} is off the table")


def test_validate_and_the_editor_report_the_same_problems(tmp_path: Path) -> None:
    """The editor's Issues dock and markers call check_battlefield; validate prints the same."""
    data = _demo()
    data["forces"][1]["figures"][0]["position"] = [50, 3]
    building = next(i for i, t in enumerate(data["terrain"]) if t["kind"] == "building")
    data["terrain"][building]["openings"] = []
    data["terrain"].append(
        {"id": "rock-x", "kind": "impassable", "name": "Crag", "outline": [[2, 2], [6, 2], [6, 6]]}
    )
    data["forces"][0]["figures"][0]["position"] = [5, 3]
    path = _write(tmp_path, data)
    found = check_file(path)
    assert found.problems == []
    editor = check_battlefield(load(path).battlefield)
    assert [(i.path, i.message) for i in found.table] == [(i.path, i.message) for i in editor]
    paths = {i.path for i in found.table}
    assert {
        f"terrain[{building}].openings",
        "forces[1].figures[0].position",
        "forces[0].figures[0].position",
    } <= paths


def test_format_problems_still_come_first_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _demo()
    data["forces"][0]["figures"][2]["position"] = [-4, 12]
    data["forces"][0]["figures"][1]["rep"] = "five"
    path = _write(tmp_path, data)
    assert main(["validate", str(path)]) == EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert f"{path}: 1 problem" in out and "forces[0].figures[1].rep" in out
    assert "warning" not in out  # a file that does not open has no table to check


def test_the_help_documents_strict_and_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--help"]) == EXIT_OK
    text = " ".join(capsys.readouterr().out.split())
    assert "--strict" in text and "Exit status: 0" in text and "1 when a file" in text
