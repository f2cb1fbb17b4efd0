"""How an encounter is played: its dice (seeded or typed at a real table) and its
settings -- the sides the program plays, solo with PEFs (11), the encounter (12), hot
seat and seats, the turn limit.  Part of a saved game, beside its scenario and steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crdesk.game.records import Seat

SEEDED = "seeded"
MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class BandRecord:
    """The campaign's Band that went into this encounter (14): which Band (its identity,
    :attr:`crdesk.band.Band.identity`), its members as they went in (a hash,
    :func:`crdesk.band.members_hash`), the encounter's number in its story and its
    name, so After the Battle takes exactly this game into exactly that Band."""

    id: str
    members: str
    encounter: int
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "members": self.members,
            "encounter": self.encounter,
            "name": self.name,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BandRecord:
        return cls(
            str(data["id"]), str(data["members"]), int(data["encounter"]), str(data.get("name", ""))
        )


@dataclass(frozen=True, slots=True)
class GameSettings:
    """How this game is played beyond the scenario's rules settings."""

    practice_undo: bool = False
    """Let :meth:`Game.undo` go back past dice that were seen (no re-rolling by default)."""
    max_turns: int | None = None
    """End the encounter as a draw after this many turns (None: play to the end)."""
    program_sides: tuple[str, ...] = ()
    """Sides the program plays (saved so a resumed game seats them again; the
    controller itself treats every side alike)."""
    solo: bool = False
    """Solo play (11): the non-player force's enemies hide as PEFs the controller
    places, moves and resolves (see "PEFs" in :class:`Game`)."""
    encounter: str = ""
    """The encounter whose objectives the game tracks (12): "patrol", "raid" or
    "defend" (solo games only), or "" for none (see :mod:`crdesk.game.encounter`)."""
    hot_seat: bool = False
    """Every side is played by people at one screen (saved so a resumed game does
    not seat the program on a side: an empty ``program_sides`` alone may also be a
    game made on the command line, which the app seats by the scenario)."""
    seats: tuple[Seat, ...] = ()
    """Co-op: the people at the screen sharing a side's groups (none: one person per
    side); nothing the rules read (see :mod:`crdesk.game.seats`)."""
    band: BandRecord | None = None
    """The campaign's Band playing the player's side (14), None in a one-off game."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "practice_undo": self.practice_undo,
            "max_turns": self.max_turns,
            "program_sides": list(self.program_sides),
        }
        if self.solo:  # written only when on: other games' files stay as they were
            out["solo"] = True
        if self.encounter:
            out["encounter"] = self.encounter
        if self.hot_seat:
            out["hot_seat"] = True
        if self.seats:  # written only when used: other games' files stay as they were
            out["seats"] = [seat.to_dict() for seat in self.seats]
        if self.band is not None:  # written only in a campaign's games
            out["band"] = self.band.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameSettings:
        sides = data.get("program_sides", [])
        return cls(
            bool(data.get("practice_undo", False)),
            data.get("max_turns"),
            tuple(str(s) for s in sides),
            bool(data.get("solo", False)),
            str(data.get("encounter") or ""),
            bool(data.get("hot_seat", False)),
            tuple(Seat.from_dict(x) for x in data.get("seats", []) or [] if isinstance(x, dict)),
            BandRecord.from_dict(data["band"]) if isinstance(data.get("band"), dict) else None,
        )
