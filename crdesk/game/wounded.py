"""Retrieving the wounded (7.12): picking up an Out of the Fight friend, carrying it
along, putting it down or dropping it when the carrier is charged or goes down.

A carrier and its wounded are one entry of the table's ``state["carrying"]``
(carrier id -> wounded id); the wounded stands on its carrier's spot.
"""

from __future__ import annotations

import math

from crdesk.errors import CrdeskError, IllegalActionError
from crdesk.game.actions import Pickup
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.geometry.measure import base_distance
from crdesk.model import Figure, Status
from crdesk.rules.campaign import retrieve_wounded

PICKUP_COST = 2.0
"""Inches of movement picking up a wounded friend costs (7.12)."""


def carried(t: Table, fid: str) -> int | None:
    """Rep of the wounded figure ``fid`` carries, if any (it counts as in Cover, 7.12)."""
    wounded = t.state["carrying"].get(fid)
    return None if wounded is None else t.fig(wounded).rep


def check_pickup(t: Table, frame: Frame, fig: Figure, act: Pickup) -> None:
    try:
        wounded = t.fig(act.wounded)
    except CrdeskError:
        raise IllegalActionError(f"there is no figure {act.wounded!r}") from None
    if wounded.side != fig.side:
        raise IllegalActionError(f"{wounded.name} is not a friend (7.12)")
    if wounded.status is not Status.OUT_OF_THE_FIGHT:
        raise IllegalActionError(f"{wounded.name} is not Out of the Fight (7.12)")
    if fig.id in t.state["carrying"]:
        raise IllegalActionError(f"{fig.name} already carries a wounded friend")
    if wounded.id in t.state["carrying"].values():
        raise IllegalActionError(f"{wounded.name} is already being carried")
    if base_distance(fig, wounded) > 0.25:
        raise IllegalActionError(
            f"{fig.name} must be in base contact with {wounded.name} to pick it up (7.12)"
        )
    if fig.id in frame.data["unwilling"]:
        raise IllegalActionError(
            f"{fig.name} failed its test: it will not retrieve the wounded (7.12)"
        )
    if t.movement_left(frame, fig.id) < PICKUP_COST - 1e-9:
        raise IllegalActionError(f'picking up costs 2" of movement; {fig.name} has less left')


def will_retrieve(t: Table, fig: Figure, wounded: Figure) -> bool:
    """7.12: a Grunt rolls 1d6 vs Rep (pass: it will try to retrieve the wounded); a
    Star may choose to, and has chosen."""
    res = retrieve_wounded(t.roll(), fig.rep, is_star=fig.is_star, who=fig.name)
    t.emit("retrieve", res.explain(), result=res, figures=[fig.id, wounded.id])
    return res.result != "will_not_retrieve"


def take_up(t: Table, fig: Figure, wounded: Figure) -> None:
    """``fig`` carries ``wounded`` from now on, on its own spot (7.12)."""
    t.state["carrying"][fig.id] = wounded.id
    carry_along(t, fig)


def pickup(t: Table, frame: Frame, fig: Figure, wounded: Figure) -> None:
    if not will_retrieve(t, fig, wounded):
        frame.data["unwilling"].append(fig.id)
        return
    d = frame.data
    d["used"][fig.id] = float(d["used"][fig.id]) + PICKUP_COST
    take_up(t, fig, wounded)
    t.emit(
        "pickup",
        f'{fig.name} picks up {wounded.name} (2" of movement, 7.12).',
        section="7.12",
        figures=[fig.id, wounded.id],
    )


def carrier_of(t: Table, fid: str) -> str | None:
    """Who carries the wounded figure ``fid`` (7.12), or None."""
    return next((c for c, w in t.state["carrying"].items() if w == fid), None)


def drop(t: Table, carrier: str, how: str) -> None:
    wounded = t.state["carrying"].pop(carrier, None)
    if wounded is None:
        return
    t.emit(
        "drop",
        f"{t.fig(carrier).name} {how} {t.fig(wounded).name} (7.12).",
        section="7.12",
        figures=[carrier, wounded],
    )


def contact_spot(fig: Figure, wounded: Figure) -> tuple[float, float]:
    """Where ``fig``'s base touches the wounded friend's, on the line between them (its
    own spot when already in contact)."""
    dx, dy = fig.x - wounded.x, fig.y - wounded.y
    norm = math.hypot(dx, dy)
    reach = fig.radius + wounded.radius
    if norm <= reach + 0.25:  # in base contact already (check_pickup's 0.25")
        return (fig.x, fig.y)
    return (wounded.x + dx / norm * reach, wounded.y + dy / norm * reach)


def carry_along(t: Table, carrier: Figure) -> None:
    """The carried wounded goes where its carrier goes (7.12)."""
    wounded = t.state["carrying"].get(carrier.id)
    if wounded is not None:
        t.battlefield.move_figure(wounded, carrier.x, carrier.y)
