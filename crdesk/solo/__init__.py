"""Solo play by the book (Chain Reaction 2015, sections 11-12): the non-player side.

:class:`SoloEnemyPolicy` is a :class:`crdesk.game.policy.Policy` for the
non-player force: its groups activate in the book's order and move by table
11.4 NP Force Movement, choosing spots with the sight engine
(:mod:`crdesk.solo.spots`); everything else it answers as the book does for a
Grunt.  PEFs (11, 11.2, 11.3) are the controller's own work in a solo game
(``GameSettings(solo=True)``): placed in the start step, moved when the
non-player side is active, resolved on sight; they add no decision, so this
policy needs nothing for them.  Buildings' PEFs (11.1) and the encounters (12)
are still to come.

>>> from crdesk.solo import table_row
>>> from crdesk.tables import NpMove
>>> table_row(2, outnumbers=True) is NpMove.SPLIT_AND_ENCIRCLE
True
>>> table_row(1, outnumbers=False) is NpMove.HOLD_OR_NEAREST_COVER
True
"""

from __future__ import annotations

from crdesk.solo.enemy import (
    ENCIRCLE,
    FIRE,
    HOLD,
    Orders,
    Plan,
    SoloEnemyPolicy,
    closest_group,
    flank_goal,
    outnumbers,
    plan_move,
    settle_orders,
    table_dice,
    table_row,
)
from crdesk.solo.spots import Spots, candidates, judge, spots_for

__all__ = [
    "ENCIRCLE",
    "FIRE",
    "HOLD",
    "Orders",
    "Plan",
    "SoloEnemyPolicy",
    "Spots",
    "candidates",
    "closest_group",
    "flank_goal",
    "judge",
    "outnumbers",
    "plan_move",
    "settle_orders",
    "spots_for",
    "table_dice",
    "table_row",
]
