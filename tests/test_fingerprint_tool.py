"""tools/fingerprint.py, the refactor's behaviour check (issue 29), on a handful of games.

The full check (some 370 games) is not run here: ``tools/README.md`` says how.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "crdesk_fingerprint", ROOT / "tools" / "fingerprint.py"
)
assert _spec is not None and _spec.loader is not None
fp: Any = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = fp
_spec.loader.exec_module(fp)


def _few() -> list[Any]:
    sims = [j for j in fp.sim_jobs() if j.name.startswith("sim/clear-24x24-")]
    sims = [next(j for j in sims if f"-{kind}-" in j.name) for kind in ("patrol", "raid", "defend")]
    data = [j for j in fp.data_jobs() if j.name in ("data/fast_move", "data/grenade_blast")]
    saved = [j for j in fp.saved_jobs() if j.name == "saved/saved/hot_seat_before_coop.crgame"]
    assert (len(sims), len(data), len(saved)) == (3, 2, 1)
    return sims + data + saved


def test_the_same_games_give_the_same_fingerprints() -> None:
    jobs = _few()
    first = fp.run(jobs, processes=1)
    second = fp.run(jobs, processes=1)
    assert first == second
    assert fp.differences(first, second) == []
    for name, record in first.items():
        assert "error" not in record and "refused" not in record, (name, record)
        assert len(record["sha256"]) == 64 and record["steps"] > 0, name


def test_the_simulated_games_are_those_crdesk_simulate_plays() -> None:
    job = _few()[0]
    record = fp.play(job, verify=True)
    assert record["simulate_agrees"] is True


def test_a_different_game_changes_its_fingerprint() -> None:
    job = _few()[0]
    before = fp.run([job], processes=1)
    other = replace(job, seed=job.seed + 1)
    after = fp.run([other], processes=1)
    assert before[job.name]["sha256"] != after[job.name]["sha256"]
    lines = fp.differences(before, after)
    assert len(lines) == 1 and lines[0].startswith(job.name + ": ")
    assert fp.differences(before, {}) == [f"{job.name}: missing (in the baseline, not played now)"]


def test_a_refused_save_records_the_refusal() -> None:
    job = next(j for j in fp.saved_jobs() if j.name == "saved/hostile/17-force-id-list.crgame")
    record = fp.play(job)
    assert record["refused"].startswith("GameFileError: tests/data/hostile/17-force-id-list")


def test_the_plan_covers_the_encounters_and_terrains() -> None:
    names = [j.name for j in fp.all_jobs()]
    assert len(names) == len(set(names))
    counts = fp.counts(names)
    assert counts["sim"] >= 300
    assert counts["data"] == len(list((ROOT / "tests" / "data" / "games").glob("*.json")))
    assert counts["saved"] == len(list((ROOT / "tests" / "data").rglob("*.crgame")))
    specs = fp.SIM_PLAN
    assert {s.terrain for s in specs} >= {"clear", "urban", "wooded", "mountain"}
    assert {s.encounter for s in specs} >= {"patrol", "raid", "defend", "free", None}
    assert len({s.size for s in specs if s.terrain}) >= 2
