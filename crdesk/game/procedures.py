"""The registry of the book's procedures: frame kind -> its handlers.

Adding a procedure is adding its module (functions of a
:class:`~crdesk.game.table.Table` and a ``PROCEDURE``) and a line here; the
controller (:class:`~crdesk.game.Game`) hands every frame to its kind's handlers.
"""

from __future__ import annotations

from crdesk.game import (
    activation,
    aftermath,
    duck_back,
    in_sight,
    melee,
    moving,
    reaction,
    turn,
)
from crdesk.game.table import Procedure

PROCEDURES: dict[str, Procedure] = {
    p.kind: p
    for p in (
        turn.PROCEDURE,
        turn.SIDE,
        activation.PROCEDURE,
        aftermath.PROCEDURE,
        reaction.PROCEDURE,
        duck_back.PROCEDURE,
        melee.PROCEDURE,
        in_sight.PROCEDURE,
        moving.PROCEDURE,
    )
}
"""Every procedure by the kind of frame it handles."""
