"""Same inputs, same map; and the generation log alone rebuilds it (STYLE 2, OpenSpiel).

A generated table is data: its seed and inputs regenerate it, and its log (every
die and every shape seed, in order) replays to the identical map even when the
seed is lost.  Geometry is compared coordinate by coordinate, exactly.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdesk.generator import ReplayError, format_entry, generate, replay
from crdesk.model import GenerationRecord, Scenario

tables = st.fixed_dictionaries(
    {
        "seed": st.integers(min_value=0, max_value=2**40),
        # Whole and half inches, 24" x 24" up to 72" x 48".
        "width": st.integers(min_value=48, max_value=144).map(lambda v: v / 2),
        "height": st.integers(min_value=48, max_value=96).map(lambda v: v / 2),
        "terrain_type": st.sampled_from(["clear", "urban", "wooded", "mountain", "roll"]),
        "encounter": st.sampled_from(["patrol", "raid", "defend", "none"]),
        "scale": st.sampled_from(["28mm", "15mm"]),
    }
)


def same_map(a: Scenario, b: Scenario) -> None:
    """Exact equality of every feature (TerrainFeature.__eq__ compares coordinates exactly).

    The title names the seed, so a replay without its seed only shares the type.
    """
    assert a.table == b.table
    assert [f.id for f in a.battlefield.terrain] == [f.id for f in b.battlefield.terrain]
    for fa, fb in zip(a.battlefield.terrain, b.battlefield.terrain, strict=True):
        assert fa == fb, fa.id
        assert list(fa.outline.exterior.coords) == list(fb.outline.exterior.coords)
    assert a.title.split(",")[0] == b.title.split(",")[0]
    assert a.rules == b.rules
    assert a.encounter == b.encounter


@settings(max_examples=10, deadline=None)
@given(tables)
def test_same_inputs_give_the_same_map(params: dict[str, Any]) -> None:
    a = generate(**params)
    b = generate(**params)
    same_map(a, b)
    assert a.title == b.title
    assert a.generation == b.generation


@settings(max_examples=10, deadline=None)
@given(tables)
def test_the_log_replays_to_the_same_map(params: dict[str, Any]) -> None:
    original = generate(**params)
    assert original.generation is not None
    # Lose the seed: the log alone must be enough.
    record = GenerationRecord(
        seed=-1,
        inputs=copy.deepcopy(original.generation.inputs),
        log=copy.deepcopy(original.generation.log),
    )
    again = replay(record)
    same_map(original, again)
    assert again.generation is not None
    assert again.generation.log == original.generation.log


def test_the_record_regenerates_from_seed_and_inputs() -> None:
    original = generate(1234, 48, 36, terrain_type="roll", encounter="raid", scale="15mm")
    assert original.generation is not None
    assert original.generation.seed == 1234
    assert original.generation.inputs == {
        "width": 48,
        "height": 36,
        "terrain_type": "roll",
        "encounter": "raid",
        "scale": "15mm",
        "algorithm": 2,
    }
    inputs = {k: v for k, v in original.generation.inputs.items() if k != "algorithm"}
    same_map(original, generate(original.generation.seed, **inputs))


def test_different_seeds_give_different_maps() -> None:
    a, b = generate(1, terrain_type="wooded"), generate(2, terrain_type="wooded")
    assert [f.outline.wkt for f in a.battlefield.terrain] != [
        f.outline.wkt for f in b.battlefield.terrain
    ]


def test_no_global_random_state_is_used() -> None:
    import random

    random.seed(1)
    a = generate(77, terrain_type="urban")
    random.seed(2)
    b = generate(77, terrain_type="urban")
    same_map(a, b)


def test_a_changed_roll_replays_to_a_different_table_or_says_why() -> None:
    original = generate(5, terrain_type="clear")
    assert original.generation is not None
    log = copy.deepcopy(original.generation.log)
    first_section = next(e for e in log if e["step"] == "9.3.1")
    # Face 6 on the Clear column is Woods (no buildings), so nothing after changes shape.
    first_section["roll"] = 6
    record = dataclasses.replace(original.generation, log=log)
    try:
        edited = replay(record)
    except ReplayError as exc:
        assert "9.3.1" in str(exc) or "log" in str(exc)
    else:
        assert edited.generation is not None
        assert edited.battlefield.feature("woods-1").name == "Woods 1"


def test_a_log_missing_rolls_is_refused() -> None:
    original = generate(9, terrain_type="urban")
    assert original.generation is not None
    short = dataclasses.replace(original.generation, log=original.generation.log[:5])
    with pytest.raises(ReplayError):
        replay(short)


def test_log_entries_read_as_sentences() -> None:
    scenario = generate(42, terrain_type="roll")
    assert scenario.generation is not None
    lines = [format_entry(e) for e in scenario.generation.log]
    assert lines[0].startswith("9.2 Overall Terrain Type: 1d6 rolled ")
    assert any(line.startswith("9.3.1 Terrain Generator, section 1") for line in lines)
    assert all(line and "\n" not in line for line in lines)


def same_geometry(a: Scenario, b: Scenario) -> None:
    """Every outline, hole and building area coordinate for coordinate."""
    for fa, fb in zip(a.battlefield.terrain, b.battlefield.terrain, strict=True):
        assert list(fa.outline.exterior.coords) == list(fb.outline.exterior.coords), fa.id
        assert [list(r.coords) for r in fa.outline.interiors] == [
            list(r.coords) for r in fb.outline.interiors
        ], fa.id
        areas_a, areas_b = getattr(fa, "areas", []), getattr(fb, "areas", [])
        assert [list(x.exterior.coords) for x in areas_a] == [
            list(x.exterior.coords) for x in areas_b
        ], fa.id


@pytest.mark.parametrize("terrain_type", ["wooded", "mountain", "roll"])
def test_a_generated_table_reads_back_as_the_table_played(terrain_type: str) -> None:
    """A game is played on the generated table and saved with it; read back, it must be
    the same table, coordinate for coordinate, or the saved game does not replay (a kept
    Patrol, tuning seed 2, game 136, diverged at step 10: a woods' last corner rounded
    onto its first, a repeated point the file drops)."""
    from crdesk.scenario import from_document, to_document

    for seed in range(12):
        sc = generate(seed, 48, 48, terrain_type, "patrol")
        same_geometry(sc, from_document(to_document(sc)))


def test_the_kept_patrol_that_diverged_reads_back_exactly() -> None:
    from crdesk.scenario import from_document, to_document
    from crdesk.simulate import Setup, _scenario_for, default_band

    setup = Setup(terrain="roll", size=(48.0, 48.0), band=default_band(), max_turns=20)
    sc = _scenario_for(setup, 3022259335831927826)
    same_geometry(sc, from_document(to_document(sc)))
