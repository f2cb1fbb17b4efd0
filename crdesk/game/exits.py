"""Leaving the table by an edge (12): the edges a side may leave by -- its own, or
those its encounter names -- and the figure that walks off there.
"""

from __future__ import annotations

import math

from crdesk.game.actions import Point2
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.geometry import movement
from crdesk.model import Figure, Status


def allowed_edges(t: Table, side: str) -> tuple[str, ...]:
    """Edges a side may leave by: any in free play; in an encounter the player's
    force by its own (near) edge and the other side by the far edge (12)."""
    from crdesk.model import EncounterType

    if t.scenario.encounter.type is EncounterType.FREE and "encounter" not in t.state:
        return ("near", "far", "left", "right")
    return ("near",) if t.battlefield.force(side).player else ("far",)


def exit_edge(t: Table, frame: Frame, fig: Figure) -> tuple[str, Point2] | None:
    """The allowed edge the figure can reach with the movement it has left, if any."""
    if fig.prone or frame.data["allow"].get(fig.id) is None:
        return None
    left = t.movement_left(frame, fig.id)
    table = t.battlefield.table
    r = fig.radius
    spots = {
        "near": (fig.x, table.height - r),
        "far": (fig.x, r),
        "left": (r, fig.y),
        "right": (table.width - r, fig.y),
    }
    for edge in allowed_edges(t, fig.side):
        spot = spots[edge]
        if math.hypot(spot[0] - fig.x, spot[1] - fig.y) > left + 1e-9:
            continue
        cost = movement.path_cost(
            t.battlefield,
            [(fig.x, fig.y), spot],
            t.rules,
            index=t.vis.index,
            radius=r,
        )
        if cost.allowed and cost.cost <= left + 1e-6:
            return edge, spot
    return None


def no_exit(t: Table, frame: Frame, fig: Figure) -> str:
    edges = " or ".join(allowed_edges(t, fig.side))
    return (
        f"{fig.name} cannot reach the {edges} edge with "
        f'{t.movement_left(frame, fig.id):.1f}" of movement left'
    )


def exit_table(t: Table, frame: Frame, fig: Figure) -> None:
    found = exit_edge(t, frame, fig)
    assert found is not None
    edge, spot = found
    bf = t.battlefield
    bf.update_figure(fig.id, x=spot[0], y=spot[1], status=Status.LEAVE_THE_BATTLEFIELD)
    gone = [fig.id]
    wounded = t.state["carrying"].pop(fig.id, None)
    if wounded is not None:
        bf.move_figure(wounded, spot[0], spot[1])
        gone.append(wounded)
    t.state["exited"] = sorted(set(t.state["exited"]) | set(gone))
    frame.data["used"][fig.id] = frame.data["allow"][fig.id]
    carried = f", carrying {t.fig(wounded).name}" if wounded else ""
    t.emit(
        "exit",
        f"{fig.name} leaves the table by the {edge} edge{carried}.",
        section="12",
        figures=gone,
    )
