"""Co-op seating: several people at one screen sharing a side's groups.

At a real table a side with three groups is often played by two or three
friends, each running "their" squad; the rules do not care who moves a figure,
but the players do.  A :class:`Seat` is one person: a name, the side, and the
figures whose groups that person plays (the groups as they stood when the
encounter started, by their figures, since groups merge and split as figures
move, 6.2).  Whoever plays the Leader of a group decides for that group; a
figure's own decision (its reaction, its Free Will) is its player's.

The seats are part of the game's settings (:class:`SeatedSettings`), written to
the ``.crgame`` file only when there are any, so a file made before co-op
opens as it always did and one made with seats opens seated the same way.
Nothing here is a rule: the controller treats every side alike; the seats only
say which person at the screen is asked.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from crdesk.cohesion import Cohesion, Group
from crdesk.game.controller import Game, GameSettings
from crdesk.game.records import CHANCE, Decision
from crdesk.geometry import kernels
from crdesk.model import Scenario
from crdesk.visibility import VisibilityService

MAX_SEATS = 12
"""Players at one screen a saved game may name (more do not fit round a table)."""
MAX_NAME = 40
"""Characters of a player's name."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One person at the screen: who, on which side, and the figures whose groups are theirs."""

    name: str
    side: str
    figures: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "figures": list(self.figures)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            str(data.get("name", "")),
            str(data.get("side", "")),
            tuple(str(f) for f in data.get("figures", []) or []),
        )


@dataclass(frozen=True, slots=True)
class SeatedSettings(GameSettings):
    """:class:`GameSettings` with the co-op seats (empty: one person per side, as before)."""

    seats: tuple[Seat, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = GameSettings.to_dict(self)
        if self.seats:  # written only when used: other games' files stay as they were
            out["seats"] = [s.to_dict() for s in self.seats]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatedSettings:
        base = GameSettings.from_dict(data)
        seats = tuple(Seat.from_dict(s) for s in data.get("seats", []) or [] if isinstance(s, dict))
        return cls.with_seats(base, seats)

    @classmethod
    def with_seats(cls, settings: GameSettings, seats: tuple[Seat, ...]) -> SeatedSettings:
        """``settings`` as they are, seated so."""
        values = {f.name: getattr(settings, f.name) for f in dataclasses.fields(GameSettings)}
        return cls(**values, seats=seats)


def settings_from_dict(data: dict[str, Any]) -> GameSettings:
    """A saved game's settings: :class:`SeatedSettings` when it names seats, else plain
    :class:`GameSettings` (a game without seats is read exactly as before co-op)."""
    seated = SeatedSettings.from_dict(data)
    return seated if seated.seats else GameSettings.from_dict(data)


def seats_of(settings: GameSettings) -> tuple[Seat, ...]:
    """The seats of a game's settings (none for plain :class:`GameSettings`)."""
    return settings.seats if isinstance(settings, SeatedSettings) else ()


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
