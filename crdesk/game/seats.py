"""Co-op seating: several people at one screen sharing a side's groups.

At a real table a side with three groups is often played by two or three
friends, each running "their" squad; the rules do not care who moves a figure,
but the players do.  A :class:`Seat` is one person: a name, the side, and the
figures whose groups that person plays (the groups as they stood when the
encounter started, by their figures, since groups merge and split as figures
move, 6.2).  Whoever plays the Leader of a group decides for that group; a
figure's own decision (its reaction, its Free Will) is its player's.

The seats are part of the game's settings (``GameSettings.seats``), written to
the ``.crgame`` file only when there are any, so a file made before co-op
opens as it always did and one made with seats opens seated the same way.
Nothing here is a rule: the controller treats every side alike; the seats only
say which person at the screen is asked.
"""

from __future__ import annotations

from crdesk.cohesion import Cohesion, Group
from crdesk.game.controller import Game
from crdesk.game.records import CHANCE, Decision, Seat
from crdesk.game.settings import GameSettings

__all__ = ["MAX_NAME", "MAX_SEATS", "Seat", "deciders", "seat_of", "seats_of", "start_groups"]
from crdesk.geometry import kernels
from crdesk.model import Scenario
from crdesk.visibility import VisibilityService

MAX_SEATS = 12
"""Players at one screen a saved game may name (more do not fit round a table)."""
MAX_NAME = 40
"""Characters of a player's name."""


def seats_of(settings: GameSettings) -> tuple[Seat, ...]:
    """The seats of a game's settings (none: one person per side)."""
    return settings.seats


def start_groups(scenario: Scenario, side: str) -> list[Group]:
    """The side's groups as the encounter starts (6.2): what the players share out."""
    bf = scenario.battlefield
    with kernels.pinned(kernels.usable()):
        cohesion = Cohesion(VisibilityService(bf, scenario.rules))
        return cohesion.groups(scenario.rules, side)


def seat_of(seats: tuple[Seat, ...], side: str, figure: str) -> Seat | None:
    """The person who plays ``figure``'s group: the seat naming it, else the side's first
    seat (a figure nobody was given, such as one that joined later); None: no seats."""
    mine = [s for s in seats if s.side == side]
    if not mine:
        return None
    return next((s for s in mine if figure in s.figures), mine[0])


def deciders(game: Game, decision: Decision | None) -> tuple[Seat, ...]:
    """Who at the screen makes ``decision``: usually one person; for the choice of which
    group to activate, every player of the side with a group on offer (in seat order);
    empty when the side has no seats (one person plays it) or dice are awaited."""
    if decision is None or decision.actor == CHANCE:
        return ()
    seats = seats_of(game.settings)
    side = decision.actor
    mine = tuple(s for s in seats if s.side == side)
    if not mine:
        return ()
    if len(mine) == 1:
        return mine
    figure = _figure_in_play(game, decision)
    if figure is not None:
        seat = seat_of(seats, side, figure)
        return (seat,) if seat is not None else ()
    offered = {
        seat
        for o in decision.options
        if isinstance(leader := getattr(o, "leader", None), str)
        and (seat := seat_of(seats, side, leader)) is not None
    }
    return tuple(s for s in mine if s in offered) or mine


def _figure_in_play(game: Game, decision: Decision) -> str | None:
    """The figure whose player decides: the decision's own figure, else the Leader of the
    side's activation under way."""
    side = decision.actor
    if decision.figure is not None and _side(game, decision.figure) == side:
        return decision.figure
    for frame in reversed(game.frames):
        if frame.kind != "activation":
            continue
        leader = frame.data.get("leader")
        if isinstance(leader, str) and _side(game, leader) == side:
            return leader
    return None


def _side(game: Game, figure: str) -> str | None:
    try:
        return game.battlefield.figure(figure).side
    except (KeyError, ValueError):
        return None
