"""A structural fuzzer in the normal suite for saved games and Bands (issue 17, Deliver 4).

Mutated .crgame and .crband files open or are refused with the loader's own
error naming the JSON path -- never another exception.  Small here;
``tools/fuzz/fuzz_scenarios.py --kind crgame|crband`` runs the same mutations
for as long as asked.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdesk import band
from crdesk.game import savefile

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile"
sys.path.insert(0, str(ROOT / "tools" / "fuzz"))
_spec = importlib.util.spec_from_file_location("saves", ROOT / "tools" / "fuzz" / "saves.py")
assert _spec and _spec.loader
saves = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(saves)
GAMES = saves.seed_documents("crgame")
BANDS = saves.seed_documents("crband")


def test_the_seed_files_open_as_they_are() -> None:
    """A rules change that makes a seed game diverge: ``tools/fuzz/saves.py --write-seeds``."""
    assert len(GAMES) == 3 and len(BANDS) == 2
    for path in sorted(HOSTILE.glob("seed-*.crgame")):
        loaded = savefile.load_game(path)
        assert loaded.complete, path.name
        assert savefile.dumps_game(loaded.game) == path.read_text(encoding="utf-8")
    for path in sorted(HOSTILE.glob("seed-*.crband")):
        assert band.dumps_band(band.load_band(path)) == path.read_text(encoding="utf-8")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_game_opens_or_is_refused_in_words(seed: int) -> None:
    raw = saves.mutated_input(random.Random(seed), GAMES)
    assert saves.check_game_input(raw) in ("accepted", "rejected")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_band_opens_or_is_refused_in_words(seed: int) -> None:
    raw = saves.mutated_input(random.Random(seed), BANDS)
    assert saves.check_band_input(raw) in ("accepted", "rejected")


@pytest.mark.parametrize("kind", ["crgame", "crband"])
def test_the_mutations_reach_both_outcomes(kind: str) -> None:
    rng = random.Random(17)
    docs = GAMES if kind == "crgame" else BANDS
    seen = {saves.CHECKS[kind](saves.mutated_input(rng, docs)) for _ in range(16)}
    assert seen == {"accepted", "rejected"}


def test_a_game_opened_from_its_snapshot_saves_and_opens_again() -> None:
    """Fuzz finding: saving replayed every step for the check hashes and crashed with
    ReplayError on a step before the snapshot (here a second 'start' at step 4)."""
    raw = (HOSTILE / "17-snapshot-game-saved.crgame").read_bytes()
    with pytest.raises(savefile.GameReplayError) as info:
        savefile.loads_game(raw)
    assert info.value.step == 4
    loaded = savefile.loads_game(raw, strict=False)
    assert "opened from the saved snapshot at step 15" in loaded.warnings[0]
    text = savefile.dumps_game(loaded.game)
    doc = json.loads(text)
    assert doc["checks"] == [{"step": 15, "hash": loaded.game.state_hash()}]
    again = savefile.loads_game(text, strict=False)
    assert again.game.state_hash() == loaded.game.state_hash()
    assert savefile.dumps_game(again.game) == text


def test_a_game_opened_from_its_snapshot_saves_the_same_twice() -> None:
    """Fuzz finding (seed 3572): the file's hash at step 10 differs from the replay's, so
    the game opens from its snapshot at step 40 and saves only that check; opened again,
    the replay (no checks left to meet) ran on to an illegal step 39, and the hashes it
    made on the way (steps 10-30) were saved as checks: a second save gave another file.
    A lenient load's replay now goes on past a wrong check, so the first save already
    holds what the steps replay to (10-40) and the snapshot's hash (fuzz seed 704231:
    the same with a replay that goes all the way).  Since a Duck Back that stays put
    brings nobody back into sight (7.4.4), the replay stops at step 29 (the file
    recorded the dice of an In Sight test that no longer happens), not at step 39: the
    first save holds the checks the replay reached (10, 20) and the snapshot's (40)."""
    raw = (HOSTILE / "17-snapshot-steps-replay-partly.crgame").read_bytes()
    loaded = savefile.loads_game(raw, strict=False)
    assert "opened from the saved snapshot at step 40" in loaded.warnings[0]
    text = savefile.dumps_game(loaded.game)
    again = savefile.loads_game(text, strict=False)
    assert "step 29" in again.warnings[0] and "snapshot at step 40" in again.warnings[0]
    assert savefile.dumps_game(again.game) == text
    assert [c["step"] for c in json.loads(text)["checks"]] == [10, 20, 40]


def test_a_game_with_a_wrong_check_saves_what_its_steps_replay_to() -> None:
    """Fuzz finding (seed 704231): only the check at step 10 was wrong; the game opened
    from its snapshot, saved without that check, and opened again by replay, saving the
    check back: two different files.  Now the first save holds the replayed check."""
    raw = (HOSTILE / "17-wrong-check-steps-replay.crgame").read_bytes()
    loaded = savefile.loads_game(raw, strict=False)
    assert "opened from the saved snapshot at step 15" in loaded.warnings[0]
    text = savefile.dumps_game(loaded.game)
    again = savefile.loads_game(text)  # strictly: the steps replay to the snapshot
    assert again.complete and savefile.dumps_game(again.game) == text


def test_a_lone_surrogate_in_a_game_is_refused_with_its_path() -> None:
    """Fuzz finding: a step's ``why`` spelt ``\\ud800`` opened, then could never be saved."""
    with pytest.raises(savefile.GameFileError) as info:
        savefile.load_game(HOSTILE / "17-lone-surrogate.crgame")
    assert [p.path for p in info.value.problems] == ["steps[14].why"]
    assert "lone UTF-16 surrogate" in info.value.one_line()
    str(info.value).encode("utf-8")


def test_a_lone_surrogate_in_a_band_is_refused_with_its_path() -> None:
    """Fuzz finding: a figure's name spelt ``\\udfff`` opened, then could never be saved."""
    with pytest.raises(band.BandFileError) as info:
        band.load_band(HOSTILE / "17-lone-surrogate.crband")
    assert [p.path for p in info.value.problems] == ["figures[1].name"]
    assert "lone UTF-16 surrogate" in info.value.one_line()


def test_a_refused_band_message_can_be_printed() -> None:
    """Fuzz finding: a schema message quoting a surrogate key could not be encoded."""
    doc = json.loads((HOSTILE / "seed-militia.crband").read_text(encoding="utf-8"))
    doc["\ud800"] = 1
    with pytest.raises(band.BandFileError) as info:
        band.loads_band(json.dumps(doc).encode("ascii"))
    str(info.value).encode("utf-8")
    assert info.value.problems


def test_a_side_id_that_is_a_list_is_refused_with_its_path() -> None:
    """Fuzz finding (seed 3168): the co-op seat check hashed the scenario's side ids
    before the scenario was checked, and a list there raised TypeError."""
    with pytest.raises(savefile.GameFileError) as info:
        savefile.load_game(HOSTILE / "17-force-id-list.crgame")
    assert "scenario.forces[0].id" in [p.path for p in info.value.problems]
