"""A group moving together (6.2, 7.4; issue 31): the Leader to a spot, the members to
their places in the group's formation relative to him, each by its own route.

The book moves figures one at a time, but a player moves a group as a group: "the squad
goes to the farmhouse".  :func:`plan_group_move` turns that into the members' moves, in
the order that keeps them out of each other's way (the one furthest ahead first, the
Leader first among equals), each judged by the controller on top of the moves before it
(:meth:`crdesk.game.Game.trying`):

* a member goes to its formation place (its offset from the Leader kept) by its route
  (:meth:`crdesk.game.Game.plan_move`: round walls, rock and bases, through doors);
* where that place is refused (beyond reach, in rock, on a base, no way there) it goes
  to the nearest place that is legal and keeps it within 4" of another member (6.2's
  cohesion), looking outward from its place in rings; failing that it stays, with the
  reason;
* a move an In Sight interrupts (7.6) stops the group, as the book's trigger does: the
  members after it do not move (they may still move once the In Sight is resolved).

The plan is only read off previews; :func:`play_group_move` plays it, each member's move
its own step (the history keeps the paths walked).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from crdesk.cohesion import COHESION_DISTANCE
from crdesk.errors import IllegalActionError
from crdesk.game.actions import Move, MoveTo, Point2
from crdesk.game.preview import Preview

if TYPE_CHECKING:
    from crdesk.game.controller import Game, Trial

RINGS = (0.75, 1.5, 2.5, 3.5)
"""Inches from a refused formation place at which nearer places are tried."""
RING_SPOTS = 8
"""Places tried on each ring."""


@dataclass(frozen=True, slots=True)
class MemberMove:
    """What the group's move does with one member."""

    figure: str
    place: Point2
    """Its place in the formation (where it was asked to go)."""
    move: Move | None
    """The move it makes (None: it stays where it is)."""
    preview: Preview | None
    why: str | None = None
    """Why it does not go to its place (None: it does)."""

    @property
    def end(self) -> Point2 | None:
        return self.preview.end if self.preview is not None and self.move is not None else None

    @property
    def stays(self) -> bool:
        return self.move is None

    @property
    def part_way(self) -> bool:
        """It moves, but not to its place (near it, or as far as it gets)."""
        return self.move is not None and self.why is not None

    @property
    def refused(self) -> str | None:
        """Why its own place was refused (None: it goes there)."""
        return self.why


@dataclass(slots=True)
class GroupMovePlan:
    """The members' moves in the order they are made."""

    leader: str
    goal: Point2
    members: list[MemberMove] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    """Members that do not move: an In Sight stops the group before their turn (7.6)."""
    stopper: MemberMove | None = None
    """The member whose move an In Sight (or a test's dice) interrupts."""

    def moves(self) -> list[Move]:
        return [m.move for m in self.members if m.move is not None]

    def by_figure(self) -> dict[str, MemberMove]:
        return {m.figure: m for m in self.members}

    def lines(self, name: Callable[[str], str]) -> list[str]:
        """One line per figure, never two: what the drop does with it."""
        out: list[str] = []
        for m in self.members:
            who = name(m.figure)
            if m.move is None:
                out.append(f"{who} stays: {m.why}")
                continue
            end = m.end or m.place
            where = f"({end[0]:.1f}, {end[1]:.1f})"
            if m is self.stopper and m.preview is not None and m.preview.stopped:
                out.append(f"{who} moves to {where} and stops: {m.preview.stopped}")
            elif m.why is not None:  # the reason's first clause: the line stays short
                out.append(f"{who} moves to {where}, near its place ({m.why.split(': ')[0]})")
            else:
                out.append(f"{who} moves to its place {where}")
        for fid in self.waiting:
            out.append(f"{name(fid)} does not move: the group stops at the In Sight (7.6)")
        return out


def _apart(a: Point2, ra: float, b: Point2, rb: float) -> float:
    """Base to base distance (cohesion is measured between bases, 6.2)."""
    return max(0.0, math.dist(a, b) - ra - rb)


def plan_group_move(game: Game, leader: str, goal: Point2) -> GroupMovePlan:
    """The group led by ``leader`` moved so that he stands at ``goal`` (see the module).

    Refused with :class:`IllegalActionError` when no group of his is moving now."""
    decision = game.awaiting()
    if decision is None or "move" not in decision.accepts or not game.frame_stack:
        raise IllegalActionError(game.not_now(decision) if decision else "the encounter is over")
    frame = game.frame_stack[-1]
    if frame.kind != "activation" or leader not in frame.data.get("members", ()):
        raise IllegalActionError(f"{leader} does not lead the group that may move now")
    bf = game.battlefield
    members = [f for f in frame.data["members"] if bf.figure(f).status.can_act]
    origins = {f: (bf.figure(f).x, bf.figure(f).y) for f in members}
    radii = {f: bf.figure(f).radius for f in members}
    lx, ly = origins[leader]
    dx, dy = goal[0] - lx, goal[1] - ly
    table = bf.table
    places = {
        f: (
            round(min(max(x + dx, radii[f]), table.width - radii[f]), 2),
            round(min(max(y + dy, radii[f]), table.height - radii[f]), 2),
        )
        for f, (x, y) in origins.items()
    }
    places[leader] = (round(goal[0], 2), round(goal[1], 2))

    def ahead(fid: str) -> tuple[float, int, int]:
        x, y = origins[fid]
        return (-((x - lx) * dx + (y - ly) * dy), 0 if fid == leader else 1, members.index(fid))

    order = sorted(members, key=ahead)
    kind = frame.kind
    plan = GroupMovePlan(leader, places[leader])
    ends: dict[str, Point2] = dict(places)  # where each is expected to end up
    # one trial for the whole group: each member's move stays made for the next ones
    with game.trying() as trial:
        for n, fid in enumerate(order):
            entry = _first_legal(game, trial, fid, places[fid], ends, radii, origins)
            plan.members.append(entry)
            if entry.move is None:
                ends[fid] = origins[fid]
                continue
            ends[fid] = entry.end or places[fid]
            preview = entry.preview
            assert preview is not None
            if preview.needs_dice is not None or preview.next_frame != kind:
                plan.stopper = entry
                plan.waiting = order[n + 1 :]
                break
    return plan


def _first_legal(
    game: Game,
    trial: Trial,
    fid: str,
    place: Point2,
    ends: dict[str, Point2],
    radii: dict[str, float],
    origins: dict[str, Point2],
) -> MemberMove:
    """The member's move to its place, else to the nearest legal place that keeps it
    within 4" of another member, else none (it stays, with the reason)."""
    others = {f: p for f, p in ends.items() if f != fid}

    def nearest(spot: Point2) -> float:
        r = radii[fid]
        return min((_apart(spot, r, p, radii[f]) for f, p in others.items()), default=0.0)

    apart = nearest(origins[fid]) > COHESION_DISTANCE
    home = math.dist(origins[fid], place)

    def together(spot: Point2) -> bool:
        """Nearer its place than where it stands, and within 4" of another member (6.2);
        one already apart from the others only closes on its place."""
        if math.dist(spot, place) >= home - 1e-9:
            return False
        return apart or nearest(spot) <= COHESION_DISTANCE

    asked = trial.play(MoveTo(fid, place), search="near")  # far beyond: not worth seeking
    if asked.legal and isinstance(asked.action, Move):
        return MemberMove(fid, place, asked.action, asked)
    why = asked.reason
    spots: list[Point2] = []
    # beyond reach: as far along its way as it gets is the nearest place it can have
    far = asked.farthest
    if far is not None and together(far) and math.dist(far, origins[fid]) > 0.05:
        spots.append((round(far[0], 2), round(far[1], 2)))
    for ring in RINGS:
        for k in range(RING_SPOTS):
            a = 2 * math.pi * (k + 0.5 * (RINGS.index(ring) % 2)) / RING_SPOTS
            spot = (
                round(place[0] + ring * math.sin(a), 2),
                round(place[1] - ring * math.cos(a), 2),
            )
            if together(spot) and math.dist(spot, origins[fid]) > 0.05:
                spots.append(spot)
    # nearest to its place first, then nearest to where it stands (ties: the ring order)
    spots.sort(key=lambda s: (round(math.dist(s, place), 3), round(math.dist(s, origins[fid]), 3)))
    for spot in spots:  # a refused try changes nothing; the first that goes is made
        p = trial.play(MoveTo(fid, spot), search="reach")
        if p.legal and isinstance(p.action, Move):
            return MemberMove(fid, place, p.action, p, _short(why, fid, game))
    return MemberMove(fid, place, None, asked, _short(why, fid, game))


def _short(reason: str | None, fid: str, game: Game) -> str:
    """The controller's reason without the figure's name it starts with (the line has it),
    and without the farthest point a refusal offers (the line gives where it goes)."""
    text = (reason or "refused").split(": it gets as far as")[0]
    name = game.battlefield.figure(fid).name
    return text[len(name) + 1 :] if text.startswith(name + " ") else text


def play_group_move(game: Game, plan: GroupMovePlan) -> list[str]:
    """Play the plan's moves in turn, each its own step; returns the members that moved.
    The group stops where the plan does (an In Sight, 7.6) or if the game moves on."""
    moved: list[str] = []
    decision = game.awaiting()
    kind = decision.kind if decision is not None else None
    for entry in plan.members:
        if entry.move is None:
            continue
        game.play(entry.move)
        moved.append(entry.figure)
        after = game.awaiting()
        if entry is plan.stopper or after is None or after.kind != kind:
            break
    return moved
