"""What the play mode asks of Firearms Detail (rules/firearms-detail.md §11): the
weapon card panel, the modes a figure may fire in, the fire dialog's odds and plan,
and the indirect-fire spot tool's plan.

These are questions about a game in play, answered by :mod:`crdesk.game.firearms`
(which sits below this module); with the module off each says so (None, an empty
list, or IllegalActionError).
"""

from __future__ import annotations

from crdesk.errors import IllegalActionError
from crdesk.game import firearms, firearms_fire
from crdesk.game.actions import Action, Fire
from crdesk.game.controller import Game
from crdesk.game.firearms import IndirectPlan, ModeChoice, WeaponPanel
from crdesk.geometry.measure import Point2
from crdesk.rules.firearms.odds import FirearmsOdds


def weapon_panel(game: Game, figure_id: str) -> WeaponPanel | None:
    """The figure's weapon card, current mode, rounds left, spare magazines and the modes
    and options it may use now (FD §2-§7, §11); None with Firearms Detail off or unarmed."""
    return firearms.panel(game, game.fig(figure_id))


def fire_modes(game: Game, figure_id: str) -> list[ModeChoice]:
    """The modes of the figure's card with the dice each rolls now and why one cannot be
    used (FD §2, §3); empty with Firearms Detail off."""
    return firearms.modes(game, game.fig(figure_id))


def rounds_left(game: Game, figure_id: str) -> int | None:
    """Rounds in the figure's weapon (FD §3); None with Firearms Detail off or unarmed."""
    panel = weapon_panel(game, figure_id)
    return None if panel is None else panel.rounds


def firearms_odds(game: Game, action: Fire | str) -> FirearmsOdds:
    """Exact odds per die of a fire action as it would be fired now (FD §11): the fire
    dialog's numbers.  IllegalActionError when the module is off or the figure unarmed."""
    act = Action.parse(action) if isinstance(action, str) else action
    if not isinstance(act, Fire):
        raise IllegalActionError(f"{act} is not a fire action")
    return firearms_fire.odds(game, game.fig(act.figure), act)


def fire_plan(game: Game, action: Fire | str) -> str:
    """How a Firearms Detail fire action's dice go (FD §5, §6), in one sentence: the
    fire dialog's header.  IllegalActionError when the module is off."""
    act = Action.parse(action) if isinstance(action, str) else action
    if not isinstance(act, Fire):
        raise IllegalActionError(f"{act} is not a fire action")
    return firearms_fire.plan(game, game.fig(act.figure), act)


def indirect_plan(game: Game, figure_id: str, spot: Point2) -> IndirectPlan:
    """An indirect shot at ``spot`` as it would be fired now (FD §9, §10): reach, range,
    the spotter who counts, the steps, the exact chance on the spot and who stands in
    which ring: the play mode's spot tool.  IllegalActionError with the module off."""
    return firearms.indirect_plan(game, game.fig(figure_id), (float(spot[0]), float(spot[1])))


def indirect_problem(game: Game, figure_id: str) -> str | None:
    """Why the figure cannot fire indirectly at any spot now (FD §10), or None."""
    return firearms.indirect_problem(game, game.fig(figure_id))
