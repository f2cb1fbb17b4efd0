"""``crdesk game auto SCENARIO --enemy solo``: the enemy moves by table 11.4."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import as_file
from pathlib import Path

import pytest

from crdesk.cli import main
from crdesk.game.savefile import load_game
from crdesk.resources import resource_root

Capsys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def wooded() -> Iterator[str]:
    with as_file(resource_root() / "scenarios" / "demo-wooded.crdesk") as path:
        yield str(path)


def test_auto_with_the_solo_enemy(wooded: str, tmp_path: Path, capsys: Capsys) -> None:
    out_file = tmp_path / "g.crgame"
    argv = ["game", "auto", wooded, "--seed", "2", "--turns", "4", "--enemy", "solo"]
    assert main([*argv, "-o", str(out_file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "Forest Road (wooded demo): seed 2, at most 4 turns, book policy for the player, "
        "solo enemy (table 11.4) for the others"
    )
    whys = [line for line in lines if line.startswith("[")]
    assert any("] 11.4 NP Force Movement (" in line for line in whys)
    assert any(line.startswith("[move e") for line in whys)
    game = load_game(out_file).game
    steps = [s for s in game.history if s.actor == "enemy" and s.action.startswith("move")]
    assert steps and all(s.why.startswith("11.4 NP Force Movement") for s in steps)
    # the same seed plays the same game, in JSON too
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steps"] == len(game.history) and data["seed"] == 2


def test_the_book_enemy_stays_the_default(wooded: str, capsys: Capsys) -> None:
    assert main(["game", "auto", wooded, "--seed", "2", "--turns", "1"]) == 0
    out = capsys.readouterr().out
    assert "book policy both sides" in out.splitlines()[0]
    assert "11.4" not in out


def test_an_unknown_enemy_is_refused(wooded: str, capsys: Capsys) -> None:
    assert main(["game", "auto", wooded, "--enemy", "clever"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "clever" in err and len(err.splitlines()) == 1
