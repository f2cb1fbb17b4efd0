"""The `crdesk` command: version, validate exit codes and output."""

from pathlib import Path

import pytest

from crdesk import __version__
from crdesk.cli import main

ROOT = Path(__file__).resolve().parent.parent
DEMOS = sorted((ROOT / "resources" / "scenarios").glob("*.crdesk"))
BAD = ROOT / "tests" / "data" / "scenario" / "several-errors" / "input.crdesk"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"crdesk {__version__}"


def test_validate_demos_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *map(str, DEMOS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{p}: OK" for p in DEMOS]


def test_validate_lists_problems_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(BAD)]) == 1
    out = capsys.readouterr().out
    assert "12 problems" in out
    assert 'forces[0].figures[1].rep: expected an integer 2..20, got "five"' in out


def test_validate_unreadable_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "x.crdesk"
    binary.write_bytes(b"\x00\x01\x02")
    assert main(["validate", str(binary), str(DEMOS[0])]) == 2
    captured = capsys.readouterr()
    assert "binary" in captured.err and "Traceback" not in captured.err
    assert f"{DEMOS[0]}: OK" in captured.out


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 2
    assert main(["--no-such-flag"]) == 2
    assert main(["a.crdesk", "b.crdesk"]) == 2
