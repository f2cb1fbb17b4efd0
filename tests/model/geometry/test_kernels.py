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
from crdesk.geometry import kernels, warmup
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
        print(warmup.warm_up(), kernels.usable(), matrix(True).same_as(slow))
        """
    )
    assert out == "True True True"


@pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")
def test_background_warm_up_switches_when_ready() -> None:
    out = _run(
        """
        import time
        warmup.warm_up_in_background()
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
        print(kernels.AVAILABLE, warmup.warm_up(), kernels.usable(), same)
        """,
        CRDESK_NO_JIT="1",
    )
    assert out == "False False False True"


@pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")
def test_warm_up_compiles_every_signature_the_engine_uses() -> None:
    """After warm_up nothing compiles again: a figure dragged, turned, downed, added; the
    rules changed; terrain edited -- each kernel has the one signature warm_up made (a
    second would mean seconds of compiling in the middle of a drag)."""
    out = _run(
        """
        from crdesk.cohesion import Cohesion
        from crdesk.model import Figure, Status
        warmup.warm_up()
        bf = random_table(5, n_features=14, n_figures=10)
        service = VisibilityService(bf, RulesOptions(), moving=["f1"], lit=["f2"])
        cohesion = Cohesion(service)
        service.matrix()
        fig = next(iter(bf.figures()))
        for step in range(6):
            bf.move_figure(fig.id, 3 + step * 2.5, 4 + step * 3.1, facing=step * 50)
            service.row(fig.id)
            service.matrix()
            cohesion.update([fig.id])
        bf.update_figure(fig.id, status=Status.OUT_OF_THE_FIGHT)
        service.matrix()
        bf.add_figure(fig.side, Figure("new", "new", 4, x=12, y=12))
        service.matrix()
        service.set_rules(RulesOptions(night=True))
        service.matrix()
        bf.move_feature(bf.terrain[0].id, 0.5, 0.5)
        service.matrix()
        counts = {
            name: len(getattr(kernels, name).signatures)
            for name in ("evaluate_pairs", "recheck_moved", "store_pairs", "locate_points")
        }
        print(sorted(set(counts.values())), counts)
        """
    )
    assert out.startswith("[1] "), out
