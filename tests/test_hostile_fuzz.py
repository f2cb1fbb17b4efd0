"""A structural fuzzer in the normal suite (issue 17): mutated scenarios open or are refused.

Small and fast here (a few dozen inputs); ``tools/fuzz/fuzz_scenarios.py``
runs the same mutations for as long as asked.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mutate", ROOT / "tools" / "fuzz" / "mutate.py")
assert _spec and _spec.loader
mutate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate)
DOCS = mutate.seed_documents()


def test_the_seed_documents_are_there() -> None:
    assert len(DOCS) >= 10


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_scenario_opens_or_is_refused_in_words(seed: int) -> None:
    rng = random.Random(seed)
    raw = mutate.mutated_input(rng, DOCS)
    assert mutate.check_input(raw, sight=rng.random() < 0.3) in ("accepted", "rejected")


def test_the_mutations_reach_both_outcomes() -> None:
    rng = random.Random(17)
    seen = {mutate.check_input(mutate.mutated_input(rng, DOCS), sight=False) for _ in range(40)}
    assert seen == {"accepted", "rejected"}
