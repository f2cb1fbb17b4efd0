"""The solo campaign headless, start to finish (issue 30, Deliver 1, 2 and 5): a Band goes
into an encounter the program plays on a generated table, comes out changed by After
the Battle, and goes on to the encounter its file names next -- three times."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdesk.band import load_band, members_hash
from crdesk.cli import main
from crdesk.game.savefile import load_game
from crdesk.model import REP_MAX, REP_MIN
from crdesk.rules.campaign import NEXT_ENCOUNTER

Capsys = pytest.CaptureFixture[str]


def _band(tmp_path: Path, name: str = "Rock's Raiders", seed: str = "1") -> Path:
    path = tmp_path / f"{name.split()[0].lower()}.crband"
    argv = ["band", "new", name, "--type", "military", "--seed", seed, "-o", str(path)]
    assert main(argv) == 0
    return path


def _encounter(band: Path, game: Path, seed: int, kind: str, capsys: Capsys) -> None:
    argv = ["game", "auto", "--band", str(band), "--generate", "urban", "--encounter", kind]
    assert main([*argv, "--seed", str(seed), "-o", str(game)]) == 0, capsys.readouterr().err


def test_a_three_encounter_campaign_plays_headless(tmp_path: Path, capsys: Capsys) -> None:
    band_file = _band(tmp_path)
    for n in (1, 2, 3):
        band = load_band(band_file)
        assert band.next_encounter is not None
        kind = band.next_encounter
        game_file = tmp_path / f"encounter-{n}.crgame"
        # seeds under which the Star comes back each time: a Band whose Star did not
        # return has ended (7.13), and its story has no next encounter to play
        _encounter(band_file, game_file, 20 + n, kind.value, capsys)
        loaded = load_game(game_file).game
        assert loaded.outcome is not None  # played to its end (the turn limit at the latest)
        record = loaded.settings.band
        assert record is not None and record.id == band.identity and record.encounter == n
        assert record.members == members_hash(band)
        players = {f.id for f in loaded.battlefield.player_force().figures}
        assert players == {f.id for f in band.active}  # the Band's members, by id
        capsys.readouterr()
        argv = ["band", "after-battle", str(band_file), "--game", str(game_file)]
        assert main([*argv, "--seed", str(n)]) == 0, capsys.readouterr().err
        after = load_band(band_file)
        assert len(after.encounters) == n
        entry = after.encounters[-1]
        assert entry["game"] == game_file.name and entry["type"] == kind.value
        won = entry["outcome"] == "won"
        assert after.next_encounter is NEXT_ENCOUNTER[kind][0 if won else 1]
        assert all(REP_MIN <= f.rep <= REP_MAX for f in after.figures)
        assert not after.ended, "the Star did not return: pick seeds the story goes on under"
        assert len(after.active) <= after.size_limit
        # the same game cannot be taken in twice
        capsys.readouterr()
        assert main([*argv, "--seed", str(n)]) != 0
        assert "already taken into the Band" in capsys.readouterr().err
    assert [e["number"] for e in load_band(band_file).encounters] == [1, 2, 3]


def test_after_the_battle_refuses_another_band_s_game(tmp_path: Path, capsys: Capsys) -> None:
    ours, theirs = _band(tmp_path), _band(tmp_path, "Viper Crew", seed="2")
    game = tmp_path / "theirs.crgame"
    _encounter(theirs, game, 3, "patrol", capsys)
    capsys.readouterr()
    assert main(["band", "after-battle", str(ours), "--game", str(game), "--seed", "1"]) != 0
    err = capsys.readouterr().err
    assert "played by Viper Crew" in err and "not Rock's Raiders" in err
    assert load_band(ours).encounters == []  # nothing written


def test_a_game_not_over_is_refused_with_its_turn_and_what_is_open(
    tmp_path: Path, capsys: Capsys
) -> None:
    band = _band(tmp_path)
    game = tmp_path / "g.crgame"
    argv = ["game", "new", "--band", str(band), "--generate", "clear", "--encounter", "patrol"]
    assert main([*argv, "--seed", "5", "-o", str(game)]) == 0
    capsys.readouterr()
    assert main(["band", "after-battle", str(band), "--game", str(game), "--seed", "1"]) != 0
    err = capsys.readouterr().err
    assert "not over (turn 1)" in err and "still open:" in err


def test_game_new_with_a_band_needs_a_table(tmp_path: Path, capsys: Capsys) -> None:
    band = _band(tmp_path)
    game = tmp_path / "g.crgame"
    assert main(["game", "new", "--band", str(band), "-o", str(game)]) == 2
    assert "a SCENARIO or --generate" in capsys.readouterr().err
    assert not game.exists()


def test_a_band_game_shows_the_band_in_its_json(tmp_path: Path, capsys: Capsys) -> None:
    band = _band(tmp_path)
    game = tmp_path / "g.crgame"
    argv = ["game", "new", "--band", str(band), "--generate", "wooded", "--encounter", "raid"]
    assert main([*argv, "--seed", "7", "-o", str(game)]) == 0
    doc = json.loads(game.read_text(encoding="utf-8"))
    assert doc["settings"]["band"]["name"] == "Rock's Raiders"
    assert doc["settings"]["encounter"] == "raid" and doc["settings"]["solo"] is True


def test_a_band_file_from_before_the_campaign_loop_still_plays(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A Band written by crdesk before issue 30 (no joining Reps, no tallies) opens, plays an
    encounter and goes through After the Battle; its old history stays as it was."""
    old = Path(__file__).parent / "data" / "bands" / "before-issue-30.crband"
    band_file = tmp_path / "old.crband"
    band_file.write_bytes(old.read_bytes())
    band = load_band(band_file)
    assert band.tally("star") == (0, 0) and band.figure("g1").rep_history() == [4]
    game_file = tmp_path / "old-1.crgame"
    _encounter(band_file, game_file, 4, "patrol", capsys)
    argv = ["band", "after-battle", str(band_file), "--game", str(game_file), "--seed", "2"]
    assert main(argv) == 0, capsys.readouterr().err
    after = load_band(band_file)
    assert len(after.encounters) == 1 and "tally" in after.encounters[0]
    assert after.figure("star").history[0] == band.figure("star").history[0]
    assert (tmp_path / "old.crband.bak").read_bytes() == old.read_bytes()
