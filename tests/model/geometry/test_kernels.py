"""The compiled sight kernels: when they are used, and what happens without them (issue 4).

Their verdicts are checked against the numpy and GEOS routes in test_fast_paths
and test_properties; here, the switching.  Each case runs in a fresh
interpreter, since compiling is once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from crdesk.geometry import kernels

MATRIX = """
import sys
import numpy as np
import crdesk.geometry.los as los
from crdesk.geometry import kernels
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

def matrix(use):
    los.USE_KERNELS = use
    service = VisibilityService(random_table(3, n_features=12, n_figures=10), RulesOptions())
    return service.matrix()
"""


def _run(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", MATRIX + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))),
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_nothing_compiles_until_asked() -> None:
    """A one-shot command stays on numpy: numba is not even imported."""
    out = _run(
        """
        matrix(True)
        print(kernels.usable(), "numba" in sys.modules)
        """
    )
    assert out == "False False"


@pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")
def test_warmed_up_kernels_give_the_numpy_matrix() -> None:
    out = _run(
        """
        slow = matrix(False)
        print(kernels.warm_up(), kernels.usable(), matrix(True).same_as(slow))
        """
    )
    assert out == "True True True"


@pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")
def test_background_warm_up_switches_when_ready() -> None:
    out = _run(
        """
        import time
        kernels.warm_up_in_background()
        before = matrix(True)  # served by numpy, or the kernels if already done
        deadline = time.monotonic() + 100
        while not kernels.usable() and time.monotonic() < deadline:
            time.sleep(0.05)
        print(kernels.usable(), matrix(True).same_as(before))
        """
    )
    assert out == "True True"


def test_switched_off_by_the_environment() -> None:
    out = _run(
        """
        same = matrix(True).same_as(matrix(False))
        print(kernels.AVAILABLE, kernels.warm_up(), kernels.usable(), same)
        """,
        CRDESK_NO_JIT="1",
    )
    assert out == "False False False True"
