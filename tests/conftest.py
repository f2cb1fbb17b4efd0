"""Shared test setup: Qt runs offscreen so the suite needs no display."""

import os

import pytest

from crdesk.geometry import warmup

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session", autouse=True)
def _sight_kernels() -> None:
    """Compile the sight engine's kernels once per worker, as the GUI does at start, so the
    suite checks the compiled route (tests that need the numpy route switch it off)."""
    warmup.warm_up()
