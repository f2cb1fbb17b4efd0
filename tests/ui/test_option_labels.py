"""Buttons name what a choice does, in a player's words (issue 31: a person playing the
non-player side in hot-seat saw "Npmove pvt. roth")."""

from __future__ import annotations

from crdesk.game.actions import NpMove
from ui.play.text import option_label


def test_the_np_force_movement_roll_is_named() -> None:
    label = option_label(NpMove("e1"), lambda fid: {"e1": "Pvt. Roth"}[fid])
    assert label == "Roll NP Force Movement for Pvt. Roth's group (11.4)"
