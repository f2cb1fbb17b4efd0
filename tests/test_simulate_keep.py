"""``crdesk simulate --keep DIR [--keep-only ...]``: the simulated games written as
``.crgame`` files, for the replay viewer (Game > Watch Game...)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from crdesk.cli import main
from crdesk.game import savefile
from crdesk.game.savefile import load_game
from crdesk.simulate import ENEMY, PLAYER, game_seed
from tests.simulated import break_game

Capsys = pytest.CaptureFixture[str]

# four small Defend games: lost, a draw, lost and won (the words every filter needs; a
# player win in two turns of a Defend is rare: batch seed 71 has one)
SEED = 71
GAMES = ["--generate", "clear", "--size", "24x24", "--encounter", "defend"]
GAMES += ["--games", "4", "--seed", str(SEED), "--max-turns", "2"]
WORDS = {PLAYER: "won", ENEMY: "lost"}


def _run(capsys: Capsys, *extra: str, status: int = 0) -> dict[str, Any]:
    assert main(["simulate", *GAMES, *extra, "--json"]) == status
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _name(row: dict[str, Any]) -> str:
    word = WORDS.get(row["winner"], "draw")
    return f"game-{row['game']}-seed-{row['seed']}-{word}.crgame"


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Every game of the batch kept, played in this process."""
    folder = tmp_path_factory.mktemp("kept") / "new" / "folder"  # made as needed
    out = io.StringIO()  # a module fixture has no capsys
    with contextlib.redirect_stdout(out):
        assert main(["simulate", *GAMES, "--keep", str(folder), "--json"]) == 0
    return folder, json.loads(out.getvalue())


def test_every_game_is_kept_named_in_game_order(everything: tuple[Path, dict[str, Any]]) -> None:
    folder, data = everything
    rows = data["results"]
    assert [WORDS.get(r["winner"], "draw") for r in rows] == ["lost", "draw", "lost", "won"]
    assert _files(folder) == [_name(r) for r in rows]
    assert [r["seed"] for r in rows] == [game_seed(SEED, i) for i in range(4)]
    assert data["kept"] == {"dir": str(folder), "games": 4}


def test_a_kept_game_replays_to_the_reported_outcome(
    everything: tuple[Path, dict[str, Any]],
) -> None:
    folder, data = everything
    for row in data["results"]:
        loaded = load_game(folder / _name(row))
        game = loaded.game
        assert loaded.complete and game.outcome is not None
        side = game.battlefield.force(game.outcome.winner).player if game.outcome.winner else None
        assert {True: PLAYER, False: ENEMY, None: "draw"}[side] == row["winner"]
        assert game.outcome.reason == row["reason"]
        assert sum(1 for e in game.events if e.kind == "activation_roll") == row["turns"]
        assert game.seed == row["seed"]
    # each game's own generated table is in its file
    tables = {
        json.dumps(json.loads((folder / _name(r)).read_text())["scenario"]["terrain"])
        for r in data["results"]
    }
    assert len(tables) == 4


@pytest.mark.parametrize(("which", "indices"), [("lost", [0, 2]), ("won", [3]), ("draw", [1])])
def test_keep_only_an_outcome(
    which: str, indices: list[int], tmp_path: Path, capsys: Capsys
) -> None:
    data = _run(capsys, "--keep", str(tmp_path), "--keep-only", which)
    assert _files(tmp_path) == [_name(data["results"][i]) for i in indices]
    assert data["kept"]["games"] == len(indices)


def test_keep_only_game_numbers_as_the_report_counts_them(tmp_path: Path, capsys: Capsys) -> None:
    data = _run(capsys, "--keep", str(tmp_path), "--keep-only", "3,1")
    assert _files(tmp_path) == [_name(data["results"][i]) for i in (1, 3)]


def test_the_plain_report_says_what_was_kept(tmp_path: Path, capsys: Capsys) -> None:
    assert main(["simulate", *GAMES, "--keep", str(tmp_path), "--keep-only", "won"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"Kept 1 game in {tmp_path}" in lines


def test_without_keep_nothing_is_written(tmp_path: Path, capsys: Capsys, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    data = _run(capsys)
    assert "kept" not in data and list(tmp_path.iterdir()) == []


def test_compare_keeps_each_setting_in_its_folder(tmp_path: Path, capsys: Capsys) -> None:
    args = ["--keep", str(tmp_path), "--keep-only", "0", "--compare", "enemy=solo", "enemy=plain"]
    data = _run(capsys, *args)
    assert _files(tmp_path) == ["enemy=plain", "enemy=solo"]
    for side, folder in (("a", "enemy=solo"), ("b", "enemy=plain")):
        row = {"game": 0, "seed": game_seed(SEED, 0), **data["results"][0][side]}
        assert _files(tmp_path / folder) == [_name(row)]
        assert data[side]["kept"] == {"dir": str(tmp_path / folder), "games": 1}
    assert data["kept"] == {"dir": str(tmp_path), "games": 2}


def test_jobs_2_writes_the_same_files(
    everything: tuple[Path, dict[str, Any]], tmp_path: Path, capsys: Capsys
) -> None:
    folder, _ = everything
    _run(capsys, "--keep", str(tmp_path), "--jobs", "2")
    assert _files(tmp_path) == _files(folder)
    for name in _files(folder):
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), name


def test_games_already_kept_are_never_replaced(tmp_path: Path, capsys: Capsys) -> None:
    _run(capsys, "--keep", str(tmp_path), "--keep-only", "2")
    (old,) = _files(tmp_path)
    (tmp_path / old).write_text("mine")
    # the same game again: refused before anything is played, the file untouched
    assert main(["simulate", *GAMES, "--keep", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"error: --keep: {tmp_path} already holds")
    assert old in captured.err
    assert (tmp_path / old).read_text() == "mine" and _files(tmp_path) == [old]
    # other games (another seed) go beside it
    argv = [*GAMES, "--keep", str(tmp_path), "--keep-only", "0"]
    argv[argv.index("--seed") + 1] = "2"
    assert main(["simulate", *argv]) == 0
    assert len(_files(tmp_path)) == 2


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--keep-only", "lose"], "--keep-only: lost, won, draw or game numbers"),
        (["--keep-only", "1,x"], "got '1,x'"),
        (["--keep-only", "-1"], "got '-1'"),
        (["--keep-only", "4"], "--keep-only: no game 4 in a batch of 4 (games 0-3)"),
        (["--keep-only", "won"], "--keep-only is for --keep DIR"),
    ],
)
def test_bad_keep_arguments_are_one_line_errors(
    extra: list[str], words: str, tmp_path: Path, capsys: Capsys
) -> None:
    keep = [] if extra == ["--keep-only", "won"] else ["--keep", str(tmp_path / "k")]
    assert main(["simulate", *GAMES, *keep, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and len(err.splitlines()) == 1
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("inside", ["f", "f/sub"])
def test_a_keep_folder_that_cannot_be_made_is_refused(
    inside: str, tmp_path: Path, capsys: Capsys
) -> None:
    (tmp_path / "f").write_text("")
    assert main(["simulate", *GAMES, "--keep", str(tmp_path / inside)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot write {tmp_path / inside}: ")
    assert len(err.splitlines()) == 1


def test_a_game_that_failed_is_not_kept(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    break_game(monkeypatch, game_seed(SEED, 1))
    data = _run(capsys, "--keep", str(tmp_path), "--keep-only", "lost", status=1)
    assert data["errors"][0]["game"] == 1
    assert _files(tmp_path) == [_name(data["results"][0]), _name(data["results"][2])]
    assert data["kept"]["games"] == 2


def test_a_game_that_cannot_be_written_is_reported_failed(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(game: Any, path: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savefile, "save_game", full)
    data = _run(capsys, "--keep", str(tmp_path), "--keep-only", "2", status=1)
    (err,) = data["errors"]
    assert err["game"] == 2 and err["error"].startswith(f"cannot keep {tmp_path}/game-2-seed-")
    assert err["error"].endswith(": No space left on device")
    assert data["kept"]["games"] == 0 and _files(tmp_path) == []
