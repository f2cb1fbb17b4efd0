"""What a player asks of a game in progress: the state at a glance (the CLI's
``game show``, the play mode's panels) and what the table shows on each figure.

Read-only questions of the :class:`~crdesk.game.table.Table`; the rules they show
are the procedures' (activation 7.1, movement 7.4, Duck Back 7.4.4, grenades 7.10,
the wounded 7.12, PEFs 11, the encounter's objectives 12).
"""

from __future__ import annotations

from typing import Any

from crdesk.game import duck_back, encounter
from crdesk.game.table import Table
from crdesk.geometry.measure import base_distance, distance_to_point, out_of_arc
from crdesk.rules import activation as act_rules

WATCH_INCHES = 12.0
"""How far :func:`behind` looks for what stands behind a figure: a charge or a PEF's
move (8"), with room to spare; farther off, its back is no news."""


def flags(t: Table, fid: str) -> dict[str, Any]:
    """What the table should show on a figure besides its model fields: movement
    left in the activation under way, Duck Back this turn and whom it ducked back
    out of sight of (7.4.4), a readied grenade, whom it carries or is carried by,
    captive, gone off the table."""
    active = next((f for f in reversed(t.frame_stack) if f.kind == "activation"), None)
    carrying = t.state["carrying"]
    grenade = t.state["grenades"].get(fid)
    return {
        "movement_left": t.movement_left(active, fid) if active else None,
        "active": active is not None and fid in active.data["members"],
        "activated": fid in t.state["activated"],
        "ducked_back": fid in t.state["ducked"],
        "unseen_by": [c for f, c in duck_back.hidden_pairs(t) if f == fid],
        "grenade": None if grenade is None else ("ready" if grenade["now"] else "readied"),
        "carrying": carrying.get(fid),
        "carried_by": next((c for c, w in carrying.items() if w == fid), None),
        "captive_of": t.state["captives"].get(fid),
        "exited": fid in t.state["exited"],
        "floor": int(t.state["floors"].get(fid, 1)),
    }


def behind(t: Table, fid: str, within: float = WATCH_INCHES) -> list[dict[str, Any]]:
    """What the figure cannot see because it stands behind it, nearest first.

    The enemies able to act and, for the player's side of a solo game, the
    unresolved PEFs (11.3) within ``within`` inches, base to base, wholly outside
    the figure's 180° front (LOS 7.9.4, :func:`~crdesk.geometry.measure.out_of_arc`):
    whatever the terrain, it does not see them until it turns.  Each is
    ``{"id", "name", "distance"}``; nothing for a figure that cannot act.
    """
    me = t.fig(fid)
    if not me.status.can_act:
        return []
    enemy = t.enemy_of(me.side)
    found: list[dict[str, Any]] = []
    for other in t.alive(enemy):
        gap = base_distance(me, other)
        if gap <= within and out_of_arc(me, other.position, other.radius):
            found.append({"id": other.id, "name": other.name, "distance": gap})
    if t.settings.solo and enemy == t.np_side():
        for pef in t.state["pefs"]:
            spot = (float(pef["x"]), float(pef["y"]))
            gap = distance_to_point(me, spot)
            if not pef["resolved"] and gap <= within and out_of_arc(me, spot):
                name = f"PEF {pef['id'][3:]}"
                found.append({"id": pef["id"], "name": name, "distance": gap})
    found.sort(key=lambda e: (e["distance"], e["id"]))
    return found


def summary(t: Table) -> dict[str, Any]:
    """The state a player asks for: turn, active side, every figure's place and flags."""
    active = next((f for f in reversed(t.frame_stack) if f.kind == "activation"), None)
    side = next((f for f in reversed(t.frame_stack) if f.kind == "side"), None)
    figures = []
    for fig in t.battlefield.figures():
        figures.append(
            {
                "id": fig.id,
                "name": fig.name,
                "side": fig.side,
                "rep": fig.rep,
                "x": round(fig.x, 3),
                "y": round(fig.y, 3),
                "facing": round(fig.facing, 1),
                "status": fig.status.value,
                "prone": fig.prone,
                "fast_moving": fig.fast_moving,
                "out_of_ammo": fig.out_of_ammo,
                "activated": fig.id in t.state["activated"],
                "movement_left": t.movement_left(active, fig.id) if active else None,
            }
        )
    groups = []
    side_frame = next((f for f in reversed(t.frame_stack) if f.kind == "side"), None)
    t.cohesion.update()
    for side_id in t.sides:
        die = t.state["scores"].get(side_id)
        for g in t.cohesion.groups(t.rules, side_id):
            members = list(g.members)
            done = all(m in t.state["activated"] for m in members)
            leader = t.fig(g.leader)
            groups.append(
                {
                    "side": side_id,
                    "leader": g.leader,
                    "rep": leader.rep,
                    "members": members,
                    "activated": done,
                    "may_activate": not done
                    and die is not None
                    and act_rules.may_activate(leader.rep, die)
                    and (side_frame is None or side_frame.data["side"] == side_id),
                }
            )
    extra: dict[str, Any] = {}
    if t.settings.solo:  # the unresolved PEF markers (11)
        extra["pefs"] = [dict(p) for p in t.state["pefs"] if not p["resolved"]]
    if "encounter" in t.state:  # the encounter's checklist (12)
        extra["objectives"] = encounter.objectives(t)
    return {
        **extra,
        "turn": t.turn,
        "activation_dice": dict(t.state["scores"]),
        "groups": groups,
        "active_side": side.data["side"] if side else None,
        "active_group": list(active.data["members"]) if active else None,
        "outcome": t.state["outcome"],
        "figures": figures,
    }
