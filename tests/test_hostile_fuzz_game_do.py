"""The fuzzer of hostile ``crdesk game do`` lines (issue 33), briefly in the suite.

``tools/fuzz/game_do.py`` runs as many inputs as asked; here 20 from a fixed
seed must find nothing, and its checks must catch what they are there for.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("game_do", ROOT / "tools" / "fuzz" / "game_do.py")
assert _spec and _spec.loader
game_do = importlib.util.module_from_spec(_spec)
sys.modules["game_do"] = game_do  # its dataclasses look their module up
_spec.loader.exec_module(game_do)

GAME = (ROOT / "tests" / "data" / "hostile" / "33-manual-dice-start.crgame").read_bytes()


def test_twenty_hostile_lines_find_nothing() -> None:
    results = [game_do.run_one(seed) for seed in range(1, 21)]
    assert [r.detail for r in results if r.detail] == []
    assert {r.outcome for r in results} == {"accepted", "refused"}
    assert all(r.identical for r in results if r.outcome == "refused")


def test_the_workers_run_and_report() -> None:
    results, peak = game_do.run_all([1, 2], jobs=1)
    assert sorted(r.seed for r in results) == [1, 2] and peak > 0


def _path(argv: Sequence[str]) -> Path:
    assert list(argv[:2]) == ["game", "do"]
    return Path(argv[2])


def _changes_and_refuses(argv: Sequence[str]) -> int:
    with _path(argv).open("ab") as f:
        f.write(b" ")
    print("error: refused", file=sys.stderr)
    return 2


def _refuses(argv: Sequence[str]) -> int:
    return 2


def test_a_refusal_that_changed_the_file_is_found() -> None:
    outcome, problems, identical = game_do.check_line(GAME, ["pass"], command=_changes_and_refuses)
    assert outcome == "refused" and not identical
    assert "refused (exit 2) and the file changed" in problems
    outcome, problems, identical = game_do.check_line(GAME, ["pass"], command=_refuses)
    assert (outcome, problems, identical) == ("refused", "", True)


def _raises(argv: Sequence[str]) -> int:
    raise ValueError("boom")


def _prints_a_traceback(argv: Sequence[str]) -> int:
    print("Traceback (most recent call last):", file=sys.stderr)
    return 1


def _prints_a_surrogate(argv: Sequence[str]) -> int:
    print("\ud800")  # a terminal's strict UTF-8 cannot write it
    return 0


def _accepts_garbage(argv: Sequence[str]) -> int:
    _path(argv).write_bytes(b"{}")
    return 0


def _saves_another_layout(argv: Sequence[str]) -> int:
    path = _path(argv)
    path.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    return 0


def _leaves_a_temp(argv: Sequence[str]) -> int:
    (_path(argv).parent / ".game.crgame.1-x.tmp").write_bytes(b"")
    return 2


def _exit_3(argv: Sequence[str]) -> int:
    return 3


@pytest.mark.parametrize(
    ("command", "found"),
    [
        (_raises, "an exception escaped the command"),
        (_prints_a_traceback, "printed 'Traceback'"),
        (_prints_a_surrogate, "UnicodeEncodeError"),
        (_accepts_garbage, "the saved game does not open again"),
        (_saves_another_layout, "saves to another text"),
        (_leaves_a_temp, "left files behind"),
        (_exit_3, "exit status 3"),
    ],
)
def test_each_kind_of_finding_is_found(command: game_do.Command, found: str) -> None:
    _, problems, _ = game_do.check_line(GAME, ["pass"], command=command)
    assert found in problems


def test_the_copy_is_removed() -> None:
    seen: list[Path] = []

    def remember(argv: Sequence[str]) -> int:
        seen.append(_path(argv))
        return 2

    game_do.check_line(GAME, ["pass"], command=remember)
    assert seen and not os.path.exists(seen[0].parent)


def test_help_leaves_the_file_alone_and_is_no_finding() -> None:
    """Seed 102231 of the first runs: '-h' prints the help (exit 0) and saves nothing; the
    seed file, written by an older crdesk, would gain the rules options added since."""
    words = ["-h", "6,1", "-1"]
    assert game_do.check_line(GAME, words) == ("accepted", "", False)
