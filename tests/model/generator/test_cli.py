"""``crdesk generate``: the generator from the command line (issue 5, deliverable 2).

The sub-command lives in :mod:`crdesk.cli.generate` and is plugged into the
``crdesk`` parser through ``register(subparsers)``; these tests build a parser
the same way, so they do not depend on how :mod:`crdesk.cli.app` lists its extensions.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from crdesk import scenario as scenario_file
from crdesk.cli.generate import register
from crdesk.generator import generate, replay
from crdesk.model import Building


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="crdesk")
    register(parser.add_subparsers(dest="command"))
    ns = parser.parse_args(argv)
    return int(ns.handler(ns))


ARGS = ["--seed", "42", "--type", "urban", "--size", "48x36", "--encounter", "raid"]


def test_generate_writes_a_valid_scenario_and_prints_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "town.crdesk"
    assert run(["generate", *ARGS, "--scale", "15mm", "-o", str(out), "--verbose"]) == 0
    printed = capsys.readouterr().out
    assert "Urban table, seed 42" in printed
    assert "9.3.1 Terrain Generator, section 1" in printed
    assert "12.2 Raid: extra buildings, section 2" in printed
    assert str(out) in printed
    assert scenario_file.validate_file(out) == []
    loaded = scenario_file.load(out)
    expected = generate(42, 48, 36, "urban", "raid", "15mm")
    assert loaded.title == expected.title
    assert loaded.rules.scale.value == "15mm"
    assert [f.id for f in loaded.battlefield.terrain] == [
        f.id for f in expected.battlefield.terrain
    ]
    for got, want in zip(loaded.battlefield.terrain, expected.battlefield.terrain, strict=True):
        assert got == want, got.id
    assert any(isinstance(f, Building) for f in loaded.battlefield.terrain)


def test_same_inputs_give_a_byte_identical_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.crdesk", tmp_path / "b.crdesk"
    assert run(["generate", *ARGS, "-o", str(a)]) == 0
    assert run(["generate", *ARGS, "-o", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    c = tmp_path / "c.crdesk"
    assert run(["generate", "--seed", "43", *ARGS[2:], "-o", str(c)]) == 0
    assert a.read_bytes() != c.read_bytes()


def test_a_saved_log_replays_to_the_saved_map(tmp_path: Path) -> None:
    out = tmp_path / "map.crdesk"
    assert run(["generate", "--seed", "7", "--type", "roll", "-o", str(out)]) == 0
    loaded = scenario_file.load(out)
    assert loaded.generation is not None
    again = replay(loaded.generation)
    for got, want in zip(again.battlefield.terrain, loaded.battlefield.terrain, strict=True):
        assert got == want, got.id


def test_defaults_are_a_36_inch_table_rolled_by_the_book(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["generate", "--seed", "5", "--verbose"]) == 0
    printed = capsys.readouterr().out
    assert '36" x 36"' in printed
    assert "9.2 Overall Terrain Type: 1d6 rolled" in printed
    assert "no file written" in printed


def test_the_roll_log_is_printed_only_with_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["generate", *ARGS]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert quiet[0].startswith('Urban table, seed 42: 48" x 36"')
    assert quiet[1:] == [quiet[1], "no file written (give -o FILE.crdesk to save it)"]
    assert quiet[1].endswith("buildings")
    assert run(["generate", *ARGS, "--verbose"]) == 0
    loud = capsys.readouterr().out.splitlines()
    assert loud[0] == quiet[0] and loud[-2:] == quiet[1:]
    assert any("9.3.1 Terrain Generator, section 1" in line for line in loud)
    assert any("seed" in line for line in loud[1:-2])  # the outline shape seeds too


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "36"], "size"),
        (["--size", "0x36"], "size"),
        (["--type", "swamp"], "invalid choice"),
        (["--seed", "x"], "invalid int"),
        (["--size", "-5x36"], "each table side must be"),
        (["--size", "36x-5"], "each table side must be"),
    ],
)
def test_bad_arguments_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["generate", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_an_unwritable_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing-folder" / "map.crdesk"
    assert run(["generate", "--seed", "1", "-o", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["map.txt", "map", "map.crgame"])
def test_an_output_that_is_not_a_scenario_file_is_refused_before_generating(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / name
    assert run(["generate", "--seed", "1", "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: -o/--output must end in .crdesk, got {str(out)!r}\n"
    assert captured.out == "" and not out.exists()


def test_an_unwritable_folder_is_refused_before_generating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing-folder" / "map.crdesk"
    assert run(["generate", "--seed", "1", "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing generated, nothing printed
    assert (
        captured.err
        == f"error: cannot write {out}: the folder {str(out.parent)!r} does not exist\n"
    )
