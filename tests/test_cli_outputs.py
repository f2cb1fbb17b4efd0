"""Every subcommand that writes a file refuses a wrong suffix or an unwritable path the
same way, before any work: one line naming the flag or the path and why, exit 2 (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crdesk.cli import main

DEMO = Path(__file__).resolve().parent.parent / "resources" / "scenarios" / "demo-urban.crdesk"


def commands(out: str) -> dict[str, list[str]]:
    return {
        "generate": ["generate", "--seed", "1", "-o", out],
        "game new": ["game", "new", str(DEMO), "--seed", "1", "-o", out],
        "game auto": ["game", "auto", str(DEMO), "--seed", "1", "--turns", "1", "-o", out],
        "band new": ["band", "new", "Bob", "--type", "ganger", "--seed", "1", "-o", out],
    }


SUFFIX = {
    "generate": ".crdesk",
    "game new": ".crgame",
    "game auto": ".crgame",
    "band new": ".crband",
}


@pytest.mark.parametrize("command", list(SUFFIX))
def test_a_wrong_suffix_is_refused_before_any_work(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.txt"
    assert main(commands(str(out))[command]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: -o/--output must end in {SUFFIX[command]}, got {str(out)!r}\n"
    assert captured.out == "" and not out.exists()


@pytest.mark.parametrize("command", list(SUFFIX))
def test_a_missing_folder_is_refused_in_the_same_words(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nowhere" / f"x{SUFFIX[command]}"
    assert main(commands(str(out))[command]) == 2
    captured = capsys.readouterr()
    folder = str(out.parent)
    assert captured.err == f"error: cannot write {out}: the folder {folder!r} does not exist\n"
    assert captured.out == ""


def test_render_names_its_three_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.jpg"
    assert main(["render", str(DEMO), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"error: -o/--output must end in .png, .svg or .pdf, got {str(out)!r}\n"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["validate"],
        ["render", str(DEMO)],
        ["los"],
        ["generate", "--bogus"],
        ["install-desktop", "--bogus"],
        ["simulate", "--bogus"],
        ["game", "show"],
        ["band", "show"],
        ["resolve", "fire", "--bogus"],
    ],
    ids=lambda c: " ".join(c),
)
def test_a_bad_command_line_is_one_line_and_exit_2_in_every_subcommand(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(command)
    except SystemExit as ended:
        code = ended.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "usage:" not in err
