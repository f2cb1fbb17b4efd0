"""Compiling the geometry kernels before they are needed (issue 4).

The sight engine (:mod:`~crdesk.geometry.los`) and the walk
(:mod:`~crdesk.geometry.movement`) each call the :mod:`~crdesk.geometry.kernels`;
each has an ``exercise_kernels`` that calls its kernels once with the argument
types it passes.  This module sits above both and runs the two exercises under
:func:`kernels.prepare`, so the engine never imports the walk that sits above it.
"""

from __future__ import annotations

from crdesk.geometry import kernels, los, movement


def _exercise() -> None:
    los.exercise_kernels()
    movement.exercise_kernels()


def warm_up() -> bool:
    """Compile the kernels now (waiting for a compile under way) and run them once on a
    small table; True when they are ready (the engine then uses them:
    :func:`crdesk.geometry.los.compiled_route`)."""
    return kernels.prepare(_exercise)


def warm_up_in_background() -> None:
    """:func:`warm_up` on a daemon thread; until it is done sight stays on numpy.

    The GUI calls this at start, so that the first run after an install does not
    freeze the window while numba compiles.
    """
    kernels.prepare_in_background(_exercise)
