"""``crdesk game``: every subcommand, plain and --json, and its errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import pytest

from crdesk.cli import main
from crdesk.game.savefile import load_game
from crdesk.resources import demo_scenario

SEED = "3"

Capsys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def demo() -> Iterator[str]:
    with as_file(demo_scenario()) as path:
        yield str(path)


@pytest.fixture
def game_file(demo: str, tmp_path: Path, capsys: Capsys) -> Path:
    path = tmp_path / "g.crgame"
    assert main(["game", "new", demo, "-o", str(path), "--seed", SEED]) == 0
    capsys.readouterr()
    return path


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: Capsys, *argv: str) -> Any:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    return json.loads(out)


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


# --------------------------------------------------------------------------
# new


def test_new_writes_a_game(demo: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "g.crgame"
    status, out, _ = run(capsys, "game", "new", demo, "-o", str(path), "--seed", SEED)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"{path}: a new game of 'Main Street (urban demo)', seed 3, seeded dice"
    assert "activation dice" in lines[1]
    assert lines[-1].startswith("next: player: ")
    game = load_game(path).game
    assert game.seed == 3 and len(game.history) == 1


def test_new_options(demo: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "m.crgame"
    argv = ["game", "new", demo, "-o", str(path), "--manual-dice", "--max-turns", "4"]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and "manual dice" in out
    assert out.splitlines()[-1].startswith("next: chance: Roll 2d6")
    game = load_game(path).game
    assert game.dice_mode == "manual" and game.settings.max_turns == 4
    assert game.history == ()


def test_new_does_not_replace_a_file_without_force(
    demo: str, game_file: Path, capsys: Capsys
) -> None:
    before = game_file.read_bytes()
    status, _, err = run(capsys, "game", "new", demo, "-o", str(game_file), "--seed", "4")
    assert status == 2
    assert one_error_line(err) == f"error: {game_file} exists; give --force to replace it"
    assert game_file.read_bytes() == before
    argv = ["game", "new", demo, "-o", str(game_file), "--seed", "4", "--force"]
    assert run(capsys, *argv)[0] == 0
    assert load_game(game_file).game.seed == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], "error: --seed: the seed must be 0-9223372036854775807, got -1"),
        (["--seed", "x"], "error: --seed: the seed must be a whole number, got 'x'"),
        (["--max-turns", "0"], "error: --max-turns: a number of turns must be 1-10000, got 0"),
    ],
)
def test_new_bad_arguments(
    demo: str, tmp_path: Path, capsys: Capsys, argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, "game", "new", demo, "-o", str(tmp_path / "g.crgame"), *argv)
    assert status == 2 and one_error_line(err) == message
    assert not (tmp_path / "g.crgame").exists()


def test_new_unreadable_scenario(tmp_path: Path, capsys: Capsys) -> None:
    bad = tmp_path / "x.crdesk"
    bad.write_bytes(b"\x00\x01")
    status, _, err = run(capsys, "game", "new", str(bad), "-o", str(tmp_path / "g.crgame"))
    assert status == 2 and "binary" in one_error_line(err)


# --------------------------------------------------------------------------
# show


def test_show_plain(game_file: Path, capsys: Capsys) -> None:
    status, out, err = run(capsys, "game", "show", str(game_file))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{game_file}: Main Street (urban demo), seed 3, seeded dice, 1 step"
    assert lines[1] == "Awaiting: Sgt. Mace's squad (player) (step 2, decision 'activate')"
    assert lines[2].endswith("or pass. (7.1)")
    assert "    activate p1" in lines and "    pass" in lines
    assert "Turn 1; activation dice: player 3, enemy 1; active side: player" in lines
    header = next(line for line in lines if line.lstrip().startswith("id "))
    assert header.split() == ["id", "name", "side", "rep", "x", "y", "facing", "status", "flags"]
    row = next(line for line in lines if line.startswith("  p1 "))
    assert row.split()[:8] == ["p1", "Sgt.", "Mace", "player", "5", "17", "32", "0"]


def test_show_json(game_file: Path, capsys: Capsys) -> None:
    data = run_json(capsys, "game", "show", str(game_file), "--json")
    assert data["seed"] == 3 and data["dice"] == "seeded" and data["steps"] == 1
    assert data["complete"] is True and data["warnings"] == []
    awaiting = data["awaiting"]
    assert awaiting["actor"] == "player" and awaiting["kind"] == "activate"
    assert awaiting["section"] == "7.1" and awaiting["options"] == ["activate p1", "pass"]
    summary = data["summary"]
    assert summary["turn"] == 1 and summary["active_side"] == "player"
    assert len(summary["figures"]) == 9
    p1 = summary["figures"][0]
    assert (p1["id"], p1["x"], p1["y"], p1["status"]) == ("p1", 17.0, 32.0, "carry_on")


def test_show_an_active_group_and_its_movement(game_file: Path, capsys: Capsys) -> None:
    assert run(capsys, "game", "do", str(game_file), "activate", "p1")[0] == 0
    _, out, _ = run(capsys, "game", "show", str(game_file))
    assert "active group: p1, p2, p3, p4, p5" in out
    assert "    fire p1 at e1:3" in out.splitlines()
    assert any(line.startswith("  or an action starting: move") for line in out.splitlines())
    row = next(line for line in out.splitlines() if line.startswith("  p1 "))
    assert row.endswith('8" to move')
    enemy = next(line for line in out.splitlines() if line.startswith("  e1 "))
    assert "to move" not in enemy


# --------------------------------------------------------------------------
# do


def test_do_plays_and_saves(game_file: Path, capsys: Capsys) -> None:
    status, out, err = run(capsys, "game", "do", str(game_file), "activate", "p1")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Sgt. Mace (Rep 5) activates with 5 figure(s)")
    assert lines[-1].startswith("next: player: Sgt. Mace's group is active")
    status, out, _ = run(capsys, "game", "do", str(game_file), "fire", "p1", "at", "e1:3")
    assert status == 0
    assert out.startswith("Sgt. Mace fires at Viper boss: ")
    history = load_game(game_file).game.history
    assert [s.action for s in history] == ["start", "activate p1", "fire p1 at e1:3"]


def test_do_json(game_file: Path, capsys: Capsys) -> None:
    data = run_json(capsys, "game", "do", str(game_file), "activate", "p1", "--json")
    assert [e["kind"] for e in data["events"]] == ["activate"]
    assert data["events"][0]["step"] == 2 and data["events"][0]["section"] == "7.1"
    assert data["awaiting"]["kind"] == "act" and data["awaiting"]["actor"] == "player"
    assert data["outcome"] is None
    data = run_json(capsys, "game", "do", "--json", str(game_file), "end")  # options first too
    assert data["awaiting"]["actor"] == "enemy"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (["bogus"], "error: unknown action 'bogus'; the actions are: "),
        (["end"], "error: "),
        (["activate", "e1"], "error: "),
        (["move", "p1", "10"], "error: a path point is written x,y (inches), got '10'"),
        (["--dice", "3,5"], "error: no dice are awaited: this game rolls its own"),
    ],
)
def test_a_refused_action_leaves_the_file_untouched(
    game_file: Path, capsys: Capsys, action: list[str], reason: str
) -> None:
    before = game_file.read_bytes()
    status, out, err = run(capsys, "game", "do", str(game_file), *action)
    assert status == 2 and out == ""
    assert one_error_line(err).startswith(reason)
    assert game_file.read_bytes() == before


def test_do_bad_arguments(game_file: Path, capsys: Capsys) -> None:
    before = game_file.read_bytes()
    status, _, err = run(capsys, "game", "do", str(game_file))
    assert status == 2 and "give an action" in one_error_line(err)
    status, _, err = run(capsys, "game", "do", str(game_file), "--dice", "7")
    assert status == 2 and one_error_line(err) == "error: --dice: a d6 face is 1-6, got '7'"
    status, _, err = run(capsys, "game", "do", str(game_file), "activate", "p1", "--dice", "3")
    assert status == 2 and "--dice is for manual-dice games" in one_error_line(err)
    assert game_file.read_bytes() == before


def test_do_enters_dice_in_a_manual_game(demo: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "m.crgame"
    assert run(capsys, "game", "new", demo, "-o", str(path), "--manual-dice")[0] == 0
    status, out, _ = run(capsys, "game", "do", str(path), "--dice", "3,1")
    assert status == 0
    assert out.startswith("Turn 1: activation dice Sgt. Mace's squad 3, Red Vipers 1")
    assert run(capsys, "game", "do", str(path), "activate", "p1")[0] == 0
    # the action waits for the dice it needs; the file keeps it until they are entered
    data = run_json(capsys, "game", "do", str(path), "fire", "p1", "at", "e1:3", "--json")
    assert data["events"] == [] and data["awaiting"]["actor"] == "chance"
    assert data["awaiting"]["dice"] == 3
    shown = run_json(capsys, "game", "show", str(path), "--json")
    assert shown["awaiting"] == data["awaiting"] and shown["steps"] == 2
    status, out, _ = run(capsys, "game", "do", str(path), "dice", "6,6,6")
    assert status == 0
    entered = [6, 6, 6]
    while (waiting := load_game(path).game.awaiting()) is not None and waiting.actor == "chance":
        assert out.startswith("next: chance: Roll ")
        entered += [4] * waiting.dice  # damage dice and reactions, as the rules ask for them
        status, out, _ = run(
            capsys, "game", "do", str(path), "--dice", ",".join(["4"] * waiting.dice)
        )
        assert status == 0
    assert out.startswith("Sgt. Mace fires at Viper boss")  # the step's events, once complete
    history = load_game(path).game.history
    assert history[2].action == "fire p1 at e1:3"
    assert list(history[2].faces) == entered


# --------------------------------------------------------------------------
# log


def test_log_plain_and_json(game_file: Path, capsys: Capsys) -> None:
    run(capsys, "game", "do", str(game_file), "activate", "p1")
    run(capsys, "game", "do", str(game_file), "fire", "p1", "at", "e1:3")
    status, out, _ = run(capsys, "game", "log", str(game_file))
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "1. chance: start  [dice 3,1]"
    assert lines[2].startswith("     Turn 1: activation dice")
    assert "2. player: activate p1" in lines
    fire = next(line for line in lines if line.startswith("3. "))
    assert fire.startswith("3. player: fire p1 at e1:3  [dice ")
    assert any(line.strip().startswith("Sgt. Mace fires at Viper boss") for line in lines)
    data = run_json(capsys, "game", "log", str(game_file), "--json")
    steps = data["steps"]
    assert [s["n"] for s in steps] == [1, 2, 3]
    assert steps[0] == {
        "n": 1,
        "actor": "chance",
        "action": "start",
        "faces": [3, 1],
        "why": "",
        "events": steps[0]["events"],
    }
    assert steps[2]["events"][0]["text"].startswith("Sgt. Mace fires at Viper boss")
    assert all(e["step"] == s["n"] for s in steps for e in s["events"])
    assert data["pending"] is None and data["complete"] is True


def test_log_shows_a_policy_reason(demo: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "a.crgame"
    argv = ["game", "auto", demo, "--seed", SEED, "--turns", "2", "-o", str(path), "--json"]
    run_json(capsys, *argv)
    _, out, _ = run(capsys, "game", "log", str(path))
    assert "2. player: activate p1  (the group with the highest Leader Rep activates first" in out


# --------------------------------------------------------------------------
# replay


def test_replay_ok(game_file: Path, capsys: Capsys) -> None:
    run(capsys, "game", "do", str(game_file), "activate", "p1")
    assert run(capsys, "game", "replay", str(game_file)) == (
        0,
        "OK: 2 steps replay exactly\n",
        "",
    )
    status, out, _ = run(capsys, "game", "replay", str(game_file), "--verify")
    assert status == 0
    assert out == "OK: 2 steps replay exactly, and the saved final state matches\n"


def tamper(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def test_replay_reports_divergence(game_file: Path, capsys: Capsys) -> None:
    run(capsys, "game", "do", str(game_file), "activate", "p1")
    tamper(game_file, lambda d: d["checks"][-1].update(hash="0" * 64))
    status, out, _ = run(capsys, "game", "replay", str(game_file))
    assert status == 1
    assert out == (
        f"{game_file}: replay diverges at step 2: expected hash 000000000000…, got "
        + out.split("got ")[1]
    )
    assert out.count("\n") == 1


def test_replay_verify_compares_the_saved_state(game_file: Path, capsys: Capsys) -> None:
    def move_p1(doc: Any) -> None:
        doc["final"]["state"]["battlefield"]["forces"][0]["figures"][0]["x"] = 1.5

    tamper(game_file, move_p1)
    assert run(capsys, "game", "replay", str(game_file))[0] == 0  # the hashes still match
    status, out, _ = run(capsys, "game", "replay", str(game_file), "--verify")
    assert status == 1
    assert out == (
        f"{game_file}: the saved final state differs from the replay at "
        "final.state.battlefield.forces[0].figures[0].x: the file says 1.5, the replay 17.0\n"
    )


def test_show_and_log_open_a_divergent_game_with_a_warning(game_file: Path, capsys: Capsys) -> None:
    run(capsys, "game", "do", str(game_file), "activate", "p1")
    run(capsys, "game", "do", str(game_file), "end")
    tamper(game_file, lambda d: d["steps"][2].update(action="activate p1"))
    status, out, err = run(capsys, "game", "show", str(game_file))
    assert status == 0
    assert err.startswith(f"warning: {game_file}: replay diverges at step 3: ")
    assert "opened from the saved snapshot at step 3" in err
    assert "3 steps" in out.splitlines()[0]
    data = run_json(capsys, "game", "log", str(game_file), "--json")
    assert len(data["steps"]) == 3 and data["complete"] is False
    assert data["warnings"][0].startswith("replay diverges at step 3")
    before = game_file.read_bytes()
    status, _, err = run(capsys, "game", "do", str(game_file), "pass")
    assert status == 1 and "replay diverges at step 3" in one_error_line(err)
    assert game_file.read_bytes() == before


# --------------------------------------------------------------------------
# auto


def test_auto_plain(demo: str, capsys: Capsys) -> None:
    status, out, _ = run(capsys, "game", "auto", demo, "--seed", SEED, "--turns", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Main Street (urban demo): seed 3, at most 2 turns, book policy both sides"
    assert lines[1].startswith("Turn 1: activation dice")
    assert "Turn 2 ends (7.1)." in lines
    assert lines[-1] == "Outcome: a draw: 2 turns played, the turn limit (turn 2)"


def test_auto_json_and_output(demo: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "a.crgame"
    argv = ["game", "auto", demo, "--seed", SEED, "--turns", "2", "--json", "-o", str(path)]
    data = run_json(capsys, *argv)
    assert data["outcome"] == {
        "winner": None,
        "reason": "2 turns played, the turn limit",
        "turn": 2,
    }
    assert data["steps"] == 21 and data["seed"] == 3
    assert data["events"][0]["kind"] == "activation_roll"
    assert data["events"][-1]["text"].startswith("The encounter is over")
    loaded = load_game(path)
    assert loaded.complete and len(loaded.game.history) == 21
    assert loaded.game.outcome is not None
    assert run(capsys, "game", "replay", str(path)) == (0, "OK: 21 steps replay exactly\n", "")
    before = path.read_bytes()
    status, _, err = run(capsys, "game", "do", str(path), "end")
    assert status == 2 and one_error_line(err) == "error: the encounter is over"
    _, out, _ = run(capsys, "game", "show", str(path))
    assert "Outcome: a draw: 2 turns played, the turn limit (turn 2)" in out.splitlines()
    status, _, err = run(capsys, *argv)  # -o does not replace a file without --force
    assert path.read_bytes() == before
    assert status == 2 and "exists" in one_error_line(err)


# --------------------------------------------------------------------------
# help and hostile files


def test_help_lists_the_action_forms(capsys: Capsys) -> None:
    assert main(["game", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: crdesk game [-h] COMMAND ...")
    for command in ("new", "show", "do", "log", "replay", "auto"):
        assert f"    {command} " in out
    for form in ("move p1 10,12 14,12.5 face 90", "fire p1 at e1:2,e2:1", "dice 3,5,1"):
        assert form in out
    assert "``" not in out


def test_game_alone_and_unknown_commands_exit_2(capsys: Capsys) -> None:
    assert main(["game"]) == 2
    assert "usage: crdesk game" in capsys.readouterr().err
    status, _, err = run(capsys, "game", "frob")
    assert status == 2 and one_error_line(err).startswith("error: game: invalid choice: 'frob'")


HOSTILE: dict[str, bytes] = {
    "binary": b"\x00\x01\x02",
    "not json": b"{nope",
    "not utf-8": b'{"a": "\xff"}',
    "a list": b"[]",
    "deep": b"[" * 50_000 + b"]" * 50_000,
    "wrong types": json.dumps({"format_version": 1, "seed": "x"}).encode(),
    "newer": json.dumps({"format_version": 7}).encode(),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["show", "log", "replay", "do"])
def test_hostile_game_files_exit_2_with_one_line(
    tmp_path: Path, capsys: Capsys, kind: str, command: str
) -> None:
    path = tmp_path / "h.crgame"
    path.write_bytes(HOSTILE[kind])
    extra = ["end"] if command == "do" else []
    status, out, err = run(capsys, "game", command, str(path), *extra)
    assert status == 2 and out == ""
    line = one_error_line(err)
    assert str(path) in line
    assert path.read_bytes() == HOSTILE[kind]


def test_wrong_types_name_their_paths(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "h.crgame"
    path.write_bytes(HOSTILE["wrong types"])
    _, _, err = run(capsys, "game", "show", str(path))
    line = one_error_line(err)
    assert "problems in the game file: " in line
    assert "rules_hash: required field is missing" in line
    assert "(and " in line


def test_a_missing_game_file(tmp_path: Path, capsys: Capsys) -> None:
    status, _, err = run(capsys, "game", "show", str(tmp_path / "none.crgame"))
    assert status == 2 and one_error_line(err) == f"error: {tmp_path / 'none.crgame'}: no such file"
