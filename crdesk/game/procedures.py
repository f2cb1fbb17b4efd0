"""The registry of the book's procedures: frame kind -> its handlers.

Adding a procedure is adding its module (functions of a
:class:`~crdesk.game.table.Table` and a ``PROCEDURE``) and a line here; the
controller (:class:`~crdesk.game.Game`) hands every frame to its kind's handlers.
An optional rules module (a :class:`~crdesk.game.table.RulesModule`: solo play's
PEFs, the encounters, Firearms Detail) is a module with a ``MODULE`` and a line in
:data:`MODULES`.
"""

from __future__ import annotations

from crdesk.game import (
    activation,
    aftermath,
    duck_back,
    encounter,
    firearms,
    in_sight,
    melee,
    moving,
    pefs,
    reaction,
    turn,
)
from crdesk.game.table import Procedure, RulesModule

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

MODULES: tuple[RulesModule, ...] = (pefs.MODULE, encounter.MODULE, firearms.MODULE)
"""The optional rules modules, in the order their hooks run: a game plays with those
whose ``plays`` says so (:attr:`crdesk.game.table.Table.modules`)."""
