"""Shared help for the tests of ``crdesk simulate``."""

from __future__ import annotations

from typing import Any

import pytest

from crdesk import simulate
from crdesk.simulate import Setup


def break_game(monkeypatch: pytest.MonkeyPatch, bad: int) -> None:
    """Make the game seeded ``bad`` raise when its table is made (the others play)."""
    real = simulate._scenario_for

    def broken(setup: Setup, seed: int) -> Any:
        if seed == bad:
            raise ValueError("a table that cannot be played")
        return real(setup, seed)

    monkeypatch.setattr(simulate, "_scenario_for", broken)
