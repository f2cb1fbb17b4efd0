"""The play mode's acceptance encounter (issue 12): one short game through real mouse and
keyboard events -- start with seeded dice, activate a group, drag a figure until an In
Sight stops it, watch the test and the reactions resolve, fire with a click, end the
activation and the turn, save, reopen, and find the identical state.

The steps live in :mod:`tests.ui.encounter_steps`; the hot-seat and manual-dice games
of the same script are in ``test_play_encounter_variants.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.encounter_steps import SEED, Encounter, new_window, play_the_encounter
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    return new_window(qtbot)


def test_a_short_encounter_with_mouse_and_keyboard(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    assert window.play.start(SEED)  # the Red Vipers are the program's
    enc = Encounter(window, qtbot)
    again = play_the_encounter(enc, tmp_path)
    assert again.play.session is not None and again.play.session.program == {"enemy"}
