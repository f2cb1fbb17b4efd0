"""Hostile inputs, second round (issue 33): what the program writes it reads back, the
files it reads are checked all the way down, and numbers in user text are ASCII digits.

The regression files are ``tests/data/hostile/33-*``; each test below names its item.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crdesk import numbers
from crdesk.cli import main
from crdesk.errors import IllegalActionError
from crdesk.game.actions import ACTION_WORDS, Action, parse_faces
from crdesk.game.controller import Game
from crdesk.game.records import CHANCE, Step
from crdesk.game.savefile import GameReplayError, UnsavableGameError, load_game, save_game

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile"

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def refused_in_one_line(err: str) -> str:
    """The one ``error:`` line of a refusal (no traceback)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def copy_of(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    shutil.copyfile(HOSTILE / name, path)
    return path


# -- 7: numbers in user text -------------------------------------------------------

NOT_ASCII = ["²", "①", "٣", "३", "𝟠", "1²"]


@pytest.mark.parametrize("text", [*NOT_ASCII, "1_0", " 1", "0x1"])
def test_7_whole_numbers_are_ascii_digits_only(text: str) -> None:
    hint = "; write it with the digits 0-9" if text in NOT_ASCII else ""
    with pytest.raises(numbers.NumberTextError) as info:
        numbers.whole(text, "the floor")
    assert str(info.value) == f"the floor must be a whole number, got {text!r}{hint}"
    with pytest.raises(numbers.NumberTextError) as info:
        numbers.decimal(text, "x")
    assert str(info.value) == f"x must be a number, got {text!r}{hint}"


def test_7_every_number_s_length_is_bounded() -> None:
    with pytest.raises(numbers.NumberTextError, match="at most 20 digits"):
        numbers.whole("9" * 4_301, "the dice")
    with pytest.raises(numbers.NumberTextError, match="at most 40 characters"):
        numbers.decimal("1" * 41, "x")
    assert numbers.whole("9" * 20, "n") == int("9" * 20)


@pytest.mark.parametrize(
    "text",
    ["floor p1 ²", "floor p1 ①", "freewill p1 ²", "fire p1 at e1:²", "move p1 ٣,4",
     "fire p1 at e1:" + "9" * 4_301, "fire p1 at e1 walk ³", "dice ²", "dice ①,3"],
)  # fmt: skip
def test_7_actions_with_hostile_numbers_are_refused_in_words(text: str) -> None:
    with pytest.raises(IllegalActionError):
        Action.parse(text)


def test_7_faces_are_1_to_6_in_ascii() -> None:
    assert parse_faces("3,5 1") == (3, 5, 1)
    for text in ("²", "①", "٣", "06", "+3"):
        with pytest.raises(ValueError, match="a d6 face is 1-6"):
            parse_faces(text)


@pytest.mark.parametrize("dice", ["①", "²", "3,٣"])
def test_7_game_do_refuses_hostile_dice_and_keeps_the_file(
    tmp_path: Path, capsys: Capsys, dice: str
) -> None:
    path = copy_of("33-manual-dice-start.crgame", tmp_path)
    before = path.read_bytes()
    status, _, err = run(capsys, "game", "do", path, "--dice", dice)
    assert status == 2 and "a d6 face is 1-6" in refused_in_one_line(err)
    status, _, err = run(capsys, "game", "do", path, "dice", dice)
    assert status == 2 and "a d6 face is 1-6" in refused_in_one_line(err)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "action", [["floor", "p1", "²"], ["fire", "p1", "at", "e1:" + "9" * 3_900]]
)
def test_7_game_do_refuses_hostile_numbers_and_keeps_the_file(
    tmp_path: Path, capsys: Capsys, action: list[str]
) -> None:
    path = copy_of("33-manual-dice-start.crgame", tmp_path)
    before = path.read_bytes()
    status, _, err = run(capsys, "game", "do", path, *action)
    line = refused_in_one_line(err)
    assert status == 2 and ("digits 0-9" in line or "at most 20 digits" in line)
    assert path.read_bytes() == before


def test_7_an_action_line_of_megabytes_is_refused_by_its_length(
    tmp_path: Path, capsys: Capsys
) -> None:
    """The game-do fuzz run's largest input (seed 601558: a 281 MB target list) was read
    word by word before its refusal (3.3 s, 3.4 GB); an action a saved game could hold is
    at most 4,000 characters, so a longer one is refused by its length, before parsing."""
    from crdesk.errors import IllegalActionError
    from crdesk.game.actions import MAX_ACTION_CHARS, Action, parse_faces

    with pytest.raises(IllegalActionError, match="at most 4,000 characters"):
        Action.parse("fire p1 at " + ",".join(["e1:1"] * 100_000))
    with pytest.raises(IllegalActionError, match="at most"):
        parse_faces(",".join(["3"] * 100_000))
    path = copy_of("33-manual-dice-start.crgame", tmp_path)
    before = path.read_bytes()
    status, _, err = run(capsys, "game", "do", path, "fire", "p1", "at", "e1:1," * 200_000)
    assert status == 2 and "at most 4,000 characters" in refused_in_one_line(err)
    assert path.read_bytes() == before
    assert MAX_ACTION_CHARS == 4_000


@pytest.mark.parametrize("where", ["new", "after-battle"])
def test_7_band_dice_must_be_ascii(tmp_path: Path, capsys: Capsys, where: str) -> None:
    band = copy_of("33-patrol-turn-limit.crband", tmp_path)
    before = band.read_bytes()
    if where == "new":
        argv: list[object] = ["band", "new", "B", "--type", "police", "-o", tmp_path / "b.crband"]
    else:
        argv = ["band", "after-battle", band, "--game", HOSTILE / "33-patrol-turn-limit.crgame"]
    status, _, err = run(capsys, *argv, "--dice", "²")
    assert status == 2 and "--dice: a d6 face is 1-6" in refused_in_one_line(err)
    assert band.read_bytes() == before and not (tmp_path / "b.crband").exists()


def test_7_a_step_that_does_not_parse_is_a_clean_replay_refusal(capsys: Capsys) -> None:
    path = HOSTILE / "33-floor-superscript.crgame"
    with pytest.raises(GameReplayError) as info:
        load_game(path)
    assert info.value.step == 3
    assert "a bug" not in str(info.value) and "the floor must be a whole number" in str(info.value)
    status, out, _ = run(capsys, "game", "replay", path)
    assert status == 1 and "cannot be played: the floor must be a whole number" in out


@pytest.mark.parametrize("value", ["²", "٣", "1_0"])
def test_7_command_line_numbers_are_ascii(tmp_path: Path, capsys: Capsys, value: str) -> None:
    out = tmp_path / "g.crgame"
    status, _, err = run(capsys, "game", "new", HOSTILE / "33-patrol-turn-limit.crgame", "-o", out,
                         "--seed", value)  # fmt: skip
    assert status == 2 and "the seed must be a whole number" in refused_in_one_line(err)
    assert not out.exists()


# -- 1: what the game writes, its loader accepts ---------------------------------------


def test_1_ten_thousand_and_two_faces_are_refused_and_the_file_kept(
    tmp_path: Path, capsys: Capsys
) -> None:
    """Ties re-rolled 5,000 times used every face: the step was saved, and the file then
    failed its own schema (steps[0].faces) for good."""
    path = copy_of("33-manual-dice-start.crgame", tmp_path)
    before = path.read_bytes()
    faces = ",".join(["3"] * 10_000 + ["6", "1"])
    for argv in (["dice", faces], ["--dice", faces]):
        status, _, err = run(capsys, "game", "do", path, *argv)
        line = refused_in_one_line(err)
        assert status == 2 and "10,002 dice for one step; a step takes at most 10,000" in line
        assert path.read_bytes() == before
    # typed in two goes, the faces still count as one step's
    half = ",".join(["3"] * 6_000)
    assert run(capsys, "game", "do", path, "dice", half)[0] == 0
    status, _, err = run(capsys, "game", "do", path, "dice", half)
    assert status == 2 and "12,000 dice for one step" in refused_in_one_line(err)
    assert load_game(path).game.pending_faces == (3,) * 6_000
    # the step as the rules want it still plays, and the file opens again
    assert run(capsys, "game", "do", path, "dice", "6,1")[0] == 0
    assert load_game(path).game.history[0].faces == (3,) * 6_000 + (6, 1)


def test_1_a_game_the_file_would_not_hold_is_not_written(tmp_path: Path) -> None:
    """The net under every writer: the schema and the read-back of each step's action
    are checked before a byte is written (here steps put in behind the rules' back)."""
    path = copy_of("33-manual-dice-start.crgame", tmp_path)
    before = path.read_bytes()
    for bad, where in [
        (Step(CHANCE, "start", (3,) * 10_001), "steps[0].faces"),
        (Step("p", "floor p1 ²"), "steps[0].action"),
        (Step("p", "move p1 10.0,12"), "steps[0].action"),  # reads back as 'move p1 10,12'
    ]:
        game = load_game(path).game
        game._steps = [bad]  # a step no rule would make
        with pytest.raises(UnsavableGameError) as info:
            save_game(game, path)
        assert info.value.problems[0].path == where
        assert str(info.value).startswith(f"{path}: not saved: the file would not open again")
        assert path.read_bytes() == before


HOSTILE_ARGUMENTS = [
    "", "p1", "e1", "p1 ²", "p1 ①", "p1 " + "9" * 4_301, "p1 -1", "p1 99", "p1 0",
    "p1 1e308,1e308", "p1 -0,0", "p1 1e999,3", "p1 nan,3", "p1 10,12 face 1e308",
    "p1 " + " ".join(["10,12"] * 300), "p1 at e1:²", "p1 at e1:" + "9" * 30,
    "p1 at e1:0", "p1,p1,p1 at e1", "p1 at -10000,5", "p1 at 5,5", "p1 auto", "p1 use",
    "p1 yes", "p1 e1", "p1 weapon", "p1,p2", "\u202e", "p1 ²,3", "p1 12,19", "e1 12,5",
    "e1 12.000000000000001,5 face 359.99999", "5,1", "3,5,1", "e1 at p1", "e1 at p1:2",
    "p1 at e1", "p1,p2 at e1", "e1 at p1 mode FA aim", "e1 2",
]  # fmt: skip


def _positions() -> list[tuple[str, Game]]:
    """Games at the start of a seeded and a manual game and at a few later points."""
    seeded = load_game(HOSTILE / "33-patrol-turn-limit.crgame").game

    def after(n: int) -> Game:
        return Game.replay(
            seeded.scenario, seeded.history[:n], seed=seeded.seed, settings=seeded.settings
        )

    return [
        ("manual start", load_game(HOSTILE / "33-manual-dice-start.crgame").game),
        *[(f"seeded after step {n}", after(n)) for n in (1, 2, 3, 4)],
    ]


def test_1_every_kind_of_step_with_hostile_arguments_saves_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "g.crgame"
    played = refused = 0
    for name, start in _positions():
        for word in ACTION_WORDS:
            for rest in HOSTILE_ARGUMENTS:
                game = start.fork()
                text = f"{word} {rest}".strip()
                try:
                    game.play(text)
                except IllegalActionError:
                    refused += 1
                    continue
                played += 1
                save_game(game, path)  # what was played is written...
                again = load_game(path)  # ...and opens again, exactly
                assert again.complete, (name, text)
                assert again.game.state_hash() == game.state_hash(), (name, text)
    assert played >= 10 and refused, (played, refused)


# -- 5: a number too large for a float inside a game ---------------------------------

TOO_LARGE = "scenario.generation.inputs.width: the number 1E999 is too large (beyond 1.8e308)"


@pytest.mark.parametrize(
    "argv", [["show"], ["log"], ["replay"], ["do", "pass"], ["do", "activate", "e1"]]
)
def test_5_a_game_whose_scenario_holds_1e999_is_refused_by_every_command(
    tmp_path: Path, capsys: Capsys, argv: list[str]
) -> None:
    """It opened, showed and replayed, then every 'game do' ended in a traceback at save
    (JSON has no infinity); the same number in a .crdesk was refused in words."""
    path = copy_of("33-embedded-1e999.crgame", tmp_path)
    before = path.read_bytes()
    status, _, err = run(capsys, "game", argv[0], path, *argv[1:])
    assert status == 2 and TOO_LARGE in refused_in_one_line(err)
    assert path.read_bytes() == before


def test_5_the_game_reads_its_scenario_as_a_crdesk_is_read(tmp_path: Path, capsys: Capsys) -> None:
    doc = (HOSTILE / "33-embedded-1e999.crgame").read_text(encoding="utf-8")
    start = doc.index('"scenario": ') + len('"scenario": ')
    end = doc.index('\n  "seed"')
    scenario = tmp_path / "s.crdesk"
    scenario.write_text(doc[start:end].rstrip().rstrip(","), encoding="utf-8")
    status, out, _ = run(capsys, "validate", scenario)
    assert status == 1 and TOO_LARGE.removeprefix("scenario.") in out


def test_5_a_band_holding_1e999_is_refused_with_its_path() -> None:
    from crdesk.band import BandFileError, loads_band

    text = (HOSTILE / "33-patrol-turn-limit.crband").read_text(encoding="utf-8")
    text = text.replace('"rep": 5', '"rep": 1E999', 1)
    with pytest.raises(BandFileError) as info:
        loads_band(text)
    assert "figures[0].rep: the number 1E999 is too large" in str(info.value)


# -- 2: an encounter the turn limit ended, into the Band -------------------------------


def test_2_after_battle_takes_a_patrol_the_turn_limit_ended(tmp_path: Path, capsys: Capsys) -> None:
    """The command built an encounter record ("not won") its own schema refused."""
    from crdesk.band import load_band
    from crdesk.model import EncounterType
    from crdesk.rules.campaign import next_encounter

    band = copy_of("33-patrol-turn-limit.crband", tmp_path)
    game = HOSTILE / "33-patrol-turn-limit.crgame"
    assert load_game(game).game.outcome.won is False  # type: ignore[union-attr]
    status, out, err = run(capsys, "band", "after-battle", band, "--game", game, "--seed", 3)
    assert status == 0, err
    entry = load_band(band).encounters[0]
    assert entry["outcome"] == "not won"
    # "not won" leads on as a loss does (12)
    assert entry["next"] == next_encounter(EncounterType.PATROL, False).value == "defend"
    assert "Encounter 1 (patrol): not won on turn" in out


def test_2_one_definition_of_the_outcomes() -> None:
    from crdesk.band import BAND_SCHEMA
    from crdesk.game.records import Outcome
    from crdesk.model import EncounterResult

    entry = BAND_SCHEMA["properties"]["encounters"]["items"]["properties"]["outcome"]
    assert entry["enum"] == [r.value for r in EncounterResult]
    table = [
        (Outcome("p", "beaten", 3), "won"),
        (Outcome("e", "beaten", 3), "lost"),
        (Outcome(None, "turn limit", 3), "draw"),
        (Outcome("p", "objective", 3, won=True), "won"),
        (Outcome("e", "patrol destroyed", 3, won=False), "lost"),
        (Outcome(None, "Patrol not won: the turn limit", 3, won=False), "not won"),
    ]
    for outcome, words in table:
        assert outcome.result_for("p") == words, outcome


# -- 8: a killed save's temp file, beside a file that is only read again ----------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("33-manual-dice-start.crgame", ["game", "show"]),
        ("33-patrol-turn-limit.crgame", ["game", "log"]),
        ("33-patrol-turn-limit.crband", ["band", "show"]),
        ("s.crdesk", ["validate"]),
    ],
)
def test_8_opening_a_file_removes_its_killed_saves_temps_only(
    tmp_path: Path, capsys: Capsys, name: str, argv: list[str]
) -> None:
    if name.endswith(".crdesk"):
        (tmp_path / name).write_text(
            '{"format_version": 1, "table": {"width": 24, "height": 24}, "terrain": [], '
            '"forces": []}',
            encoding="utf-8",
        )
    else:
        copy_of(name, tmp_path)
    dead, alive = _dead_pid(), os.getpid()
    stale = tmp_path / f".{name}.{dead}-k2x_9q0a.tmp"  # as write_atomic names them
    kept = [
        tmp_path / f".{name}.{alive}-abcdefgh.tmp",  # a save under way in this process
        tmp_path / f".{name}.x.{dead}-abcdefgh.tmp",  # another file's (NAME.x) temp
        tmp_path / f".{name}.{dead}-abc.tmp",  # not a name write_atomic makes
        tmp_path / f".{name}.notes.tmp",
        tmp_path / f"{name}.{dead}-abcdefgh.tmp",
    ]
    for path in [stale, *kept]:
        path.write_text("half a save", encoding="utf-8")
    status, _, err = run(capsys, *argv, tmp_path / name)
    assert status == 0, err
    assert not stale.exists()
    assert all(path.exists() for path in kept)


# -- 6: a snapshot is checked field by field before it is used --------------------------


@pytest.mark.parametrize("argv", [["show"], ["show", "--json"], ["log"], ["log", "--json"]])
def test_6_an_edited_snapshot_is_not_used(tmp_path: Path, capsys: Capsys, argv: list[str]) -> None:
    """final.state.game.turn set to an object (its hash recomputed): 'game show' printed a
    TypeError where 'game replay' said the replay diverges."""
    path = copy_of("33-snapshot-turn-object.crgame", tmp_path)
    before = path.read_bytes()
    status, out, err = run(capsys, "game", *argv[:1], path, *argv[1:])
    assert status == 0 and "Traceback" not in err
    assert "replay diverges at step 2" in err + out and "opened at step 2" in err + out
    assert path.read_bytes() == before
    status, out, _ = run(capsys, "game", "replay", path)
    assert status == 1 and "replay diverges at step 2" in out


def test_6_the_app_s_open_game_is_the_same_load() -> None:
    """The app opens games with load_game(strict=False), as 'game show' does."""
    from crdesk.game.gamefile_schema import snapshot_problems

    loaded = load_game(HOSTILE / "33-snapshot-turn-object.crgame", strict=False)
    assert not loaded.complete and "opened at step 2" in loaded.warnings[0]
    assert loaded.game.turn == 1 and loaded.game.summary()["turn"] == 1
    state = json.loads((HOSTILE / "33-snapshot-turn-object.crgame").read_text())["final"]["state"]
    assert [str(p) for p in snapshot_problems(state)] == [
        "final.state.game.turn: expected a turn number, 1 or more, got an object"
    ]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "tests" / "data" / "games").glob("*.json")), ids=lambda p: p.stem
)
def test_6_every_state_the_games_reach_passes_the_snapshot_checks(path: Path) -> None:
    from crdesk.game.gamefile_schema import snapshot_problems
    from tests.game.test_game_data import play_case

    game = play_case(json.loads(path.read_text(encoding="utf-8")))
    assert snapshot_problems(json.loads(json.dumps(game.state_document()))) == []
