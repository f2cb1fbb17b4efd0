"""The kill-mid-save loop, shortened (issue 17): a killed save never costs the file."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "kill_mid_save", ROOT / "tools" / "fuzz" / "kill_mid_save.py"
)
assert _spec and _spec.loader
kill_mid_save = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kill_mid_save)


def test_killing_a_save_at_random_leaves_a_valid_file_and_no_temp(tmp_path: Path) -> None:
    rng = random.Random(17)
    problems = [kill_mid_save.trial(tmp_path, rng) for _ in range(3)]
    assert problems == [None] * 3
