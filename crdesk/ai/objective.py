"""The plainer objective player for the player's Band (``crdesk simulate --player
objective``): the book policy (:class:`crdesk.ai.policy.BookPolicy`), and with no enemy
on the table the encounter's objective (12), walked to in straight lines.

:class:`crdesk.ai.tactical.TacticalPolicy` (the default) is the one that plays for
the objective under fire; this one is kept as the plainer baseline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from crdesk.ai.policy import BookPolicy
from crdesk.game import encounter
from crdesk.game.actions import Action, Exit, Fire, Move
from crdesk.game.controller import Game
from crdesk.game.records import Decision, Frame
from crdesk.model import Figure

_HEADINGS = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)
"""Degrees off the straight line to the goal tried when the straight move is refused."""


class ObjectivePolicy(BookPolicy):
    """The book policy, and with no enemy on the table the encounter's objective: each
    figure walks straight (or up to 90 degrees off it where the straight move is
    refused) towards the first open objective when it has a place on the table --
    the Patrol's far-edge sections in order, then the near edge; the Raid's
    objective once found, the nearest PEF until then -- and leaves by the entry
    edge when that is what is left to do.  Every other choice is the book's."""

    def act(self, game: Game, decision: Decision) -> tuple[Action, str]:
        for option in decision.options:
            if isinstance(option, Fire):
                return option, "fires at the nearest enemy in sight and range (7.9.8)"
        frame = game.frames[-1]
        side = game.fig(frame.data["members"][0]).side
        if game.alive(game.enemy_of(side)) or "encounter" not in game.state:
            return super().act(game, decision)
        search = nearest_pef(game, frame.data["members"])
        goal = next_goal(encounter.objectives(game), game.battlefield.table.height, search)
        if goal is None:
            return super().act(game, decision)
        leaving, point, what = goal
        for fid in frame.data["members"]:
            fig = game.fig(fid)
            if not fig.status.can_act or fig.prone or fid in frame.data["moved"]:
                continue
            if leaving:
                out = Exit(fid)
                if game.legal(out) is None:
                    return out, f"the objective is done: leaves by the entry edge ({what})"
            move = towards(game, frame, fig, point)
            if move is not None:
                return move, f"no enemy on the table: heads for the objective ({what})"
        return super().act(game, decision)


def next_goal(
    checklist: dict[str, Any], near_edge: float, search: tuple[float, float] | None = None
) -> tuple[bool, tuple[float, float], str] | None:
    """(leave the table?, where to head, the item's words) for the first open item of
    the checklist; None when it has no place on the table (hold, as the book does).
    An objective still to be found (the Raid's 12.2.6) is looked for at ``search``
    (the nearest PEF: resolving PEFs is how it is found)."""
    for item in checklist.get("items", []):
        if item["state"] != "open":
            continue
        leaving = item["id"] in ("exit", "carry_off")
        if item.get("at") is not None:
            x, y = item["at"]
        elif item.get("area") is not None:
            x0, y0, x1, y1 = item["area"]
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
        elif item["id"] == "find" and search is not None:
            x, y = search
        else:
            return None
        if leaving:
            y = near_edge
        return leaving, (float(x), float(y)), item["text"]
    return None


def nearest_pef(game: Game, members: Sequence[str]) -> tuple[float, float] | None:
    """The unresolved PEF nearest the group (by its first member; ties: the PEF's id)."""
    pefs = [p for p in game.state.get("pefs", []) if not p["resolved"]]
    if not pefs or not members:
        return None
    lead = game.fig(members[0])
    near = min(pefs, key=lambda p: (math.hypot(p["x"] - lead.x, p["y"] - lead.y), p["id"]))
    return (float(near["x"]), float(near["y"]))


def towards(game: Game, frame: Frame, fig: Figure, goal: tuple[float, float]) -> Move | None:
    """The longest legal straight move towards ``goal`` (or up to 90 degrees off it)."""
    left = game.movement_left(frame, fig.id)
    dx, dy = goal[0] - fig.x, goal[1] - fig.y
    dist = math.hypot(dx, dy)
    if left < 1.0 or dist < 1.0:
        return None
    base = math.atan2(dx, -dy)
    table = game.battlefield.table
    for turn in _HEADINGS:
        ang = base + math.radians(turn)
        ux, uy = math.sin(ang), -math.cos(ang)
        for frac in (1.0, 0.75, 0.5, 0.25):
            step = min(left, dist) * frac
            if step < 0.5:
                break
            x = min(max(fig.x + ux * step, fig.radius), table.width - fig.radius)
            y = min(max(fig.y + uy * step, fig.radius), table.height - fig.radius)
            act = Move(fig.id, ((round(x, 3), round(y, 3)),))
            if game.legal(act) is None:
                return act
    return None
