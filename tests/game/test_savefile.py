"""The .crgame file: round trips, replay checks, divergence and hostile files."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import pytest

from crdesk.ai.policy import BookPolicy, play_policies
from crdesk.errors import NewerFormatError, ScenarioError, UnreadableFileError
from crdesk.game import Game, GameSettings
from crdesk.game import savefile as sf
from crdesk.game.savefile import (
    GameDivergedError,
    GameFileError,
    GameReplayError,
    NewerGameFormatError,
    dumps_game,
    load_game,
    loads_game,
    save_game,
)
from crdesk.model import Scenario
from crdesk.resources import demo_scenario
from crdesk.scenario import load

SEED = 3
"""A seed whose two book-policy turns on the demo table take 21 steps."""


@pytest.fixture(scope="module")
def demo() -> Iterator[Scenario]:
    with as_file(demo_scenario()) as path:
        yield load(path)


def played(scenario: Scenario, turns: int = 2) -> Game:
    game = Game.new(scenario, seed=SEED, settings=GameSettings(max_turns=turns))
    play_policies(game, {side: BookPolicy() for side in game.sides})
    assert game.awaiting() is None
    return game


@pytest.fixture
def game(demo: Scenario) -> Game:
    return played(demo)


@pytest.fixture
def doc(game: Game) -> dict[str, Any]:
    return dict(json.loads(dumps_game(game)))


def write(tmp_path: Path, data: Any, name: str = "g.crgame") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(GameFileError) as info:
        load_game(path)
    return [str(p) for p in info.value.problems]


def action_index(doc: dict[str, Any], word: str) -> int:
    return next(i for i, s in enumerate(doc["steps"]) if s["action"].startswith(word + " "))


# --------------------------------------------------------------------------
# Round trips


def test_round_trip_keeps_state_history_and_events(game: Game, tmp_path: Path) -> None:
    path = tmp_path / "g.crgame"
    save_game(game, path)
    loaded = load_game(path)
    assert loaded.warnings == []
    assert loaded.complete and loaded.error is None
    assert loaded.steps_in_file == len(game.history) == 21
    again = loaded.game
    assert again.state_hash() == game.state_hash()
    assert again.history == game.history
    assert [e.text for e in again.events] == [e.text for e in game.events]
    assert again.outcome == game.outcome
    assert again.settings == game.settings
    assert [p.name for p in tmp_path.iterdir()] == ["g.crgame"]  # no temp file left


def test_document_layout(game: Game, doc: dict[str, Any]) -> None:
    assert doc["format_version"] == 1
    assert doc["seed"] == SEED and doc["dice"] == "seeded"
    assert doc["settings"] == {"practice_undo": False, "max_turns": 2, "program_sides": []}
    assert doc["steps"][0] == {"actor": "chance", "action": "start", "faces": [3, 1]}
    assert doc["steps"] == [s.to_dict() for s in game.history]
    assert [c["step"] for c in doc["checks"]] == [10, 20, 21]
    assert doc["checks"][-1]["hash"] == doc["final"]["state_hash"] == game.state_hash()
    assert doc["final"]["state"] == json.loads(json.dumps(game.state_document()))
    assert doc["rules_hash"] == sf.rules_hash(game.scenario)
    assert doc["pending"] is None
    text = dumps_game(game)
    assert text.endswith("}\n")
    assert '\n    {"actor": "chance", "action": "start", "faces": [3, 1]},\n' in text


def test_save_of_a_loaded_game_is_byte_identical(game: Game) -> None:
    text = dumps_game(game)
    assert dumps_game(loads_game(text).game) == text


def test_checks_found_by_replay_match_the_live_game(demo: Scenario) -> None:
    """A game not loaded from a file has no remembered hashes: saving replays it."""
    game = played(demo)
    fresh = Game.replay(
        demo, game.history, seed=SEED, settings=GameSettings(max_turns=2)
    )  # not the same object, so the memo does not know it
    assert json.loads(dumps_game(fresh))["checks"] == json.loads(dumps_game(game))["checks"]


def test_a_game_in_progress_resumes_where_it_was(demo: Scenario) -> None:
    game = Game.new(demo, seed=SEED)
    game.play("activate p1")
    loaded = loads_game(dumps_game(game)).game
    assert loaded.awaiting() == game.awaiting()
    loaded.play("end")
    game.play("end")
    assert loaded.state_hash() == game.state_hash()


def test_manual_dice_waiting_for_faces_round_trips(demo: Scenario) -> None:
    game = Game.new(demo, seed=0, dice="manual")
    first = loads_game(dumps_game(game)).game  # waiting for the start dice
    assert first.awaiting() == game.awaiting()
    assert first.state_hash() == game.state_hash()
    game.play("dice 3,1")
    game.play("activate p1")
    game.play("fire p1 at e1:3", faces=[1, 3])  # fewer faces than the shot needs
    waiting = game.awaiting()
    assert waiting is not None and waiting.actor == "chance"
    doc = json.loads(dumps_game(game))
    assert doc["pending"] == {"action": "fire p1 at e1:3", "actor": "player", "faces": [1, 3]}
    loaded = loads_game(json.dumps(doc)).game
    assert loaded.state_hash() == game.state_hash()
    assert loaded.awaiting() == waiting
    faces = ",".join(["4"] * waiting.dice)
    assert [e.text for e in loaded.play(f"dice {faces}")] == [
        e.text for e in game.play(f"dice {faces}")
    ]
    assert loaded.state_hash() == game.state_hash()


# --------------------------------------------------------------------------
# Tampered steps: the replay names the step


def test_an_unplayable_step_is_named(doc: dict[str, Any]) -> None:
    i = action_index(doc, "fire")
    doc["steps"][i]["action"] = "fire p1 at nobody"
    with pytest.raises(GameReplayError) as info:
        loads_game(json.dumps(doc), source="g.crgame")
    err = info.value
    assert err.step == i + 1
    assert str(err).startswith(f"g.crgame: replay diverges at step {i + 1}: ")
    assert err.problems[0].path == f"steps[{i}]"


def test_tampered_dice_are_named(doc: dict[str, Any]) -> None:
    i = next(i for i, s in enumerate(doc["steps"]) if i and s.get("faces"))
    doc["steps"][i]["faces"][0] = doc["steps"][i]["faces"][0] % 6 + 1
    with pytest.raises(GameReplayError, match=f"at step {i + 1}: .*rolled") as info:
        loads_game(json.dumps(doc))
    assert info.value.step == i + 1


def test_dice_missing_from_a_step_are_noticed(doc: dict[str, Any]) -> None:
    i = next(i for i, s in enumerate(doc["steps"]) if i and s.get("faces"))
    del doc["steps"][i]["faces"]
    with pytest.raises(GameReplayError, match=f"at step {i + 1}: .*the file recorded no dice"):
        loads_game(json.dumps(doc))


def test_a_tampered_actor_is_named(doc: dict[str, Any]) -> None:
    doc["steps"][1]["actor"] = "enemy"
    with pytest.raises(GameReplayError, match="at step 2: the file says 'enemy' decided"):
        loads_game(json.dumps(doc))


def test_a_legal_but_different_move_diverges_at_the_next_check(
    demo: Scenario, doc: dict[str, Any]
) -> None:
    i = action_index(doc, "move")
    assert i < 10, "the tampered move comes before the first check"
    words = doc["steps"][i]["action"].split()
    x, y = (float(v) for v in words[2].split(","))
    doc["steps"][i]["action"] = f"move {words[1]} {x:.3f},{y + 0.25:.3f}"
    with pytest.raises(GameDivergedError) as info:
        loads_game(json.dumps(doc))
    err = info.value
    assert err.step == 10 and err.matched == 0
    assert err.problems[0].path == "checks[0].hash"
    assert err.expected == doc["checks"][0]["hash"] and err.got != err.expected
    assert f"expected hash {err.expected[:12]}…, got {err.got[:12]}…" in str(err)


def test_a_tampered_check_is_named(doc: dict[str, Any]) -> None:
    doc["checks"][1]["hash"] = "0" * 64
    with pytest.raises(GameDivergedError) as info:
        loads_game(json.dumps(doc))
    assert info.value.step == 20 and info.value.matched == 10
    assert "replay diverges at step 20: expected hash 000000000000…" in str(info.value)


def test_a_tampered_final_hash_is_named(doc: dict[str, Any]) -> None:
    doc["final"]["state_hash"] = "f" * 64
    with pytest.raises(GameDivergedError) as info:
        loads_game(json.dumps(doc))
    assert info.value.step == 21
    assert info.value.problems[0].path == "final.state_hash"


# --------------------------------------------------------------------------
# strict=False opens a divergent file at the last good step


def test_lenient_load_opens_from_the_saved_snapshot(tmp_path: Path, doc: dict[str, Any]) -> None:
    i = action_index(doc, "fire")
    doc["steps"][i]["action"] = "fire p1 at nobody"
    loaded = load_game(write(tmp_path, doc), strict=False)
    assert len(loaded.game.history) == 21 and loaded.error is not None
    assert loaded.game.state_hash() == doc["final"]["state_hash"]
    assert loaded.warnings[0].startswith(f"replay diverges at step {i + 1}: ")
    assert "opened from the saved snapshot at step 21" in loaded.warnings[0]
    assert "before the saved snapshot" in (loaded.game.can_undo() or "")


def broken_snapshot(doc: dict[str, Any]) -> None:
    """A final state whose hash does not fit it: the snapshot cannot be trusted."""
    doc["final"]["state_hash"] = "f" * 64


def test_lenient_load_opens_before_an_unplayable_step(tmp_path: Path, doc: dict[str, Any]) -> None:
    i = action_index(doc, "fire")
    doc["steps"][i]["action"] = "fire p1 at nobody"
    broken_snapshot(doc)
    loaded = load_game(write(tmp_path, doc), strict=False)
    assert len(loaded.game.history) == i
    assert not loaded.complete and loaded.error is not None and loaded.error.step == i + 1
    assert len(loaded.warnings) == 1
    assert loaded.warnings[0].startswith(f"replay diverges at step {i + 1}: ")
    assert loaded.warnings[0].endswith(f"; opened at step {i}")
    assert loaded.steps_in_file == 21


def test_lenient_load_opens_at_the_last_matching_check(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["checks"][1]["hash"] = "0" * 64
    broken_snapshot(doc)
    loaded = load_game(write(tmp_path, doc), strict=False)
    assert len(loaded.game.history) == 10
    assert loaded.game.state_hash() == doc["checks"][0]["hash"]
    assert "replay diverges at step 20: expected hash" in loaded.warnings[0]
    assert loaded.warnings[0].endswith("; opened at step 10")


def test_lenient_load_with_no_good_check_opens_at_the_start(
    tmp_path: Path, doc: dict[str, Any]
) -> None:
    doc["checks"][0]["hash"] = "0" * 64
    broken_snapshot(doc)
    loaded = load_game(write(tmp_path, doc), strict=False)
    assert len(loaded.game.history) == 1  # the start step: the scenario and seed alone
    assert loaded.warnings[0].endswith("; opened at the start of the game")


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call of Game.replay from now on, by the number of steps it was given."""
    calls: list[int] = []
    replay = Game.replay.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Game], scenario: Scenario, steps: Any, **kw: Any) -> Game:
        steps = list(steps)
        calls.append(len(steps))
        return replay(cls, scenario, steps, **kw)  # type: ignore[no-any-return]

    monkeypatch.setattr(Game, "replay", classmethod(counting))
    return calls


@pytest.mark.parametrize("damage", ["unplayable step", "diverged check"])
def test_saving_a_game_opened_from_its_snapshot_does_not_replay_it_again(
    monkeypatch: pytest.MonkeyPatch, doc: dict[str, Any], damage: str
) -> None:
    """Saving replayed every step of a leniently opened game, at every save."""
    true_checks = [dict(c) for c in doc["checks"]]
    if damage == "unplayable step":
        doc["steps"][action_index(doc, "fire")]["action"] = "fire p1 at nobody"
    else:
        doc["checks"][1]["hash"] = "0" * 64  # the check at step 20
    calls = count_replays(monkeypatch)
    loaded = loads_game(json.dumps(doc), strict=False)
    assert "opened from the saved snapshot at step 21" in loaded.warnings[0]
    assert calls == [21]  # the load's own replay
    text = dumps_game(loaded.game)
    assert dumps_game(loaded.game) == text
    assert calls == [21]
    checks = json.loads(text)["checks"]
    # what its steps replay to, as far as they go (the load's replay went on past a wrong
    # check), and the snapshot's own hash: the file then opens the same way, saves the same
    replayed = [] if damage == "unplayable step" else true_checks[:2]
    assert checks == [*replayed, {"step": 21, "hash": doc["final"]["state_hash"]}]
    again = loads_game(text, strict=False)
    assert again.game.state_hash() == loaded.game.state_hash()
    assert dumps_game(again.game) == text
    if damage == "unplayable step":  # opens from its snapshot again
        assert not again.complete
    else:  # only the check was wrong: the steps replay to the snapshot, all checked
        assert again.complete


def test_a_game_whose_steps_changed_since_the_memo_is_replayed_for_its_checks(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    """Only a game that still starts with the remembered steps skips the replay: one
    whose steps differ gets its check hashes afresh, never the remembered ones."""
    truth = json.loads(dumps_game(game))["checks"]
    history = list(game.history)
    other = [*history[:4], dataclasses.replace(history[4], why="another step 5"), *history[5:]]
    game._hashes.clear()  # as if the steps had not recorded their own hashes
    bogus = {10: "0" * 64, 20: "0" * 64}
    calls = count_replays(monkeypatch)
    sf._MEMO[game] = sf._Memo(tuple(other), dict(bogus))
    assert json.loads(dumps_game(game))["checks"] == truth
    assert calls == [21]
    # the same steps remembered without the check at 10: settled, not replayed for
    sf._MEMO[game] = sf._Memo(game.history, {20: truth[1]["hash"]})
    assert [c["step"] for c in json.loads(dumps_game(game))["checks"]] == [20, 21]
    assert calls == [21]


def test_a_different_rules_hash_is_a_warning(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["rules_hash"] = "0" * 64
    loaded = load_game(write(tmp_path, doc))
    assert loaded.complete
    assert len(loaded.warnings) == 1 and "rules settings differ" in loaded.warnings[0]


# --------------------------------------------------------------------------
# Hostile files


def test_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.crgame"
    path.write_text('{"format_version": 1,', encoding="utf-8")
    with pytest.raises(UnreadableFileError, match=r"not valid JSON at line 1.*cut short"):
        load_game(path)


def test_binary_and_not_utf8_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.crgame"
    path.write_bytes(b"PK\x03\x04\x00\x00")
    with pytest.raises(GameFileError, match="a binary file, not a crdesk game file"):
        load_game(path)
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(GameFileError, match="not UTF-8 text"):
        load_game(path)


def test_a_huge_file_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sf, "MAX_FILE_BYTES", 1024 * 1024)
    path = tmp_path / "g.crgame"
    with path.open("wb") as f:
        f.truncate(3 * 1024 * 1024)
    with pytest.raises(UnreadableFileError, match=r"3\.0 MB; game files over 1 MB are refused"):
        load_game(path)


def test_deep_nesting_is_refused(tmp_path: Path, doc: dict[str, Any]) -> None:
    path = tmp_path / "g.crgame"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(UnreadableFileError, match="nested too deeply"):
        load_game(path)
    nested: Any = {}
    for _ in range(200):
        nested = {"x": nested}
    doc["final"]["state"]["junk"] = nested
    with pytest.raises(UnreadableFileError, match="nested more than 64 levels"):
        load_game(write(tmp_path, doc))


def test_nan_and_a_top_level_list_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.crgame"
    path.write_text('{"seed": NaN}', encoding="utf-8")
    with pytest.raises(UnreadableFileError, match="NaN is not allowed"):
        load_game(path)
    assert problems_of(write(tmp_path, [1, 2])) == [
        "expected a JSON object (a crdesk saved game), got a list"
    ]


def test_missing_files_and_folders(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="no such file"):
        load_game(tmp_path / "none.crgame")
    with pytest.raises(UnreadableFileError, match="is a folder"):
        load_game(tmp_path)


def test_wrong_types_are_named_by_path(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["seed"] = "three"
    doc["dice"] = "loaded"
    doc["steps"][2]["faces"][0] = 7
    doc["steps"][3]["colour"] = "red"
    doc["checks"][0]["hash"] = "abc"
    del doc["final"]["state"]
    found = problems_of(write(tmp_path, doc))
    assert found == [
        'seed: expected a dice seed: a whole number 0 or more, got "three"',
        'dice: expected the dice: one of seeded, manual, got "loaded"',
        "steps[2].faces[0]: expected a d6 face 1-6, got 7",
        "steps[3].colour: unknown field (known fields: action, actor, faces, why)",
        'checks[0].hash: expected a SHA-256 hash: 64 hex digits, got "abc"',
        "final.state: required field is missing",
    ]


def test_the_message_lists_every_problem(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["seed"] = -1
    doc["settings"]["max_turns"] = 0
    with pytest.raises(GameFileError) as info:
        load_game(write(tmp_path, doc))
    text = str(info.value)
    assert text.splitlines()[0].endswith("g.crgame: 2 problems in the game file")
    assert "  settings.max_turns: expected null or a number of turns 1..10000, got 0" in text
    assert "seed: expected a dice seed" in info.value.one_line()
    assert isinstance(info.value, ScenarioError)


def test_scenario_problems_are_named_under_scenario(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["scenario"]["forces"][0]["figures"][1]["rep"] = "five"
    assert problems_of(write(tmp_path, doc)) == [
        'scenario.forces[0].figures[1].rep: expected an integer 2..20, got "five"'
    ]


def test_cross_field_problems(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["checks"].append({"step": 99, "hash": "0" * 64})
    doc["pending"] = {"action": "end", "actor": "player"}
    assert problems_of(write(tmp_path, doc)) == [
        "pending: only a manual-dice game waits for dice",
        "checks[3].step: step 99 is past the last step (21)",
    ]


def test_a_newer_format_is_refused_clearly(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["format_version"] = 2
    doc["something_new"] = True
    with pytest.raises(NewerGameFormatError) as info:
        load_game(write(tmp_path, doc))
    assert isinstance(info.value, NewerFormatError)
    assert "newer crdesk (game format version 2)" in str(info.value)
    assert info.value.problems[0].path == "format_version"


def test_a_newer_embedded_scenario_is_named(tmp_path: Path, doc: dict[str, Any]) -> None:
    doc["scenario"]["format_version"] = 99
    found = problems_of(write(tmp_path, doc))
    assert len(found) == 1 and found[0].startswith("scenario.format_version: made by a newer")


def test_nothing_in_a_file_is_evaluated(tmp_path: Path, doc: dict[str, Any]) -> None:
    evil = copy.deepcopy(doc)
    evil["steps"][1]["action"] = "__import__('os').system('touch pwned')"
    with pytest.raises(GameReplayError, match="unknown action"):
        load_game(write(tmp_path, evil))
    assert not (tmp_path / "pwned").exists()


def test_an_option_added_later_keeps_old_saves_hashes(demo: Scenario) -> None:
    """A game saved before an option existed opens without "rules settings differ" while
    the option holds its default (options.LATER_OPTIONS); set otherwise, it counts."""
    import hashlib

    from crdesk.options import LATER_OPTIONS

    rules = demo.rules.to_dict()
    for key in LATER_OPTIONS:
        del rules["interpretations"][key]
    before = hashlib.sha256(json.dumps(rules, sort_keys=True).encode("utf-8")).hexdigest()
    assert sf.rules_hash(demo) == before
    other = dataclasses.replace(demo.rules.interpretations, pef_buildings_held_at_set_up=False)
    changed = dataclasses.replace(
        demo, rules=dataclasses.replace(demo.rules, interpretations=other)
    )
    assert sf.rules_hash(changed) != before
