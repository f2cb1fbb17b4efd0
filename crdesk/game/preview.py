"""What an action would do if it were played now: :meth:`crdesk.game.Game.preview`.

A preview is worked out on the live game and taken back (a checkpoint and a
rewind), so a person can see, while still dragging, where a move would stop
for an In Sight.  It never rolls: a step that needs dice stops at them and
says so (``needs_dice``), for the dice it would roll are not the player's to
see before the action is chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crdesk.game.actions import Action, Point2
from crdesk.game.records import Event
from crdesk.game.table import Table


@dataclass(frozen=True, slots=True)
class Sighting:
    """One enemy that came into sight on a move: who sees whom (either way round, 7.6)."""

    viewer: str
    seen: str
    viewer_name: str
    seen_name: str

    def text(self) -> str:
        return f"{self.viewer_name} sees {self.seen_name}"


@dataclass(frozen=True, slots=True)
class Preview:
    """The outcome of one action up to the next decision, or up to the first dice it needs."""

    action: Action
    reason: str | None = None
    """Why the action would be refused now (None when it is legal)."""
    events: tuple[Event, ...] = ()
    """The events it would cause before the next decision or the first test."""
    moved: dict[str, Point2] = field(default_factory=dict)
    """Every figure whose place it would change, with its new place."""
    sightings: tuple[Sighting, ...] = ()
    """The enemies that came into sight and stopped the move (7.6)."""
    needs_dice: str | None = None
    """What it stops at for dice ("In Sight test needs 2 d6"): not rolled in a preview."""
    next_frame: str | None = None
    """The kind of the frame on top after it: ``"free_move"`` after an In Sight stop,
    ``"activation"`` while the group acts on; None when it stops for dice, is
    refused, or ends the encounter."""
    farthest: Point2 | None = None
    """A move to a spot beyond reach (refused): where the figure gets along its way."""

    @property
    def legal(self) -> bool:
        return self.reason is None

    @property
    def end(self) -> Point2 | None:
        """Where the action's own figure would stand (None when it would not move)."""
        fid = getattr(self.action, "figure", None)
        return self.moved.get(fid) if isinstance(fid, str) else None

    @property
    def stopped(self) -> str | None:
        """Why the move stops where it does, in words; None when it goes all the way."""
        if self.sightings:
            return "In Sight — " + ", ".join(s.text() for s in self.sightings)
        if self.needs_dice is not None:
            return "a test is taken (its dice are rolled when the move is played)"
        return None


def sightings_of(t: Table, events: tuple[Event, ...]) -> tuple[Sighting, ...]:
    """Who came into sight of whom on a previewed move: the In Sight stops (7.6) among
    ``events``, each the right way round (the mover sees the enemy, or is seen)."""
    found: list[Sighting] = []
    for event in events:
        if event.kind == "move" and event.section == "7.6" and event.figures:
            mover = event.figures[0]
            row = t.vis.row(mover)
            where = {fid: j for j, fid in enumerate(row.ids)}
            for enemy in event.figures[1:]:
                j = where.get(enemy)
                a, b = (mover, enemy) if j is not None and row.sees[j] else (enemy, mover)
                found.append(Sighting(a, b, t.fig(a).name, t.fig(b).name))
    return tuple(found)
