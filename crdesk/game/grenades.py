"""Grenades and the Rocket Launcher (7.10, 8.4): readying and throwing a grenade,
the blast circle and who escapes it, a Rocket Launcher's shot and a building's
collapse.  Every explosion hands its damage and its Received Fire tests to the
aftermath (:func:`crdesk.game.aftermath.push_aftermath`), as a blast weapon: it
outguns those it misses (7.9.1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, aftermath, firearms
from crdesk.game.actions import Point2, Throw, fmt_num
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.geometry import movement
from crdesk.geometry.measure import blast_members
from crdesk.model import Building, Figure
from crdesk.rules.grenades import (
    GRENADE_RANGE,
    BlastFigure,
    missed_blast,
    ready_grenade,
    rocket_shot,
    rocket_vs_building,
    throw_grenade,
)
from crdesk.rules.grenades import blast as blast_circle
from crdesk.tables import GRENADE, GRENADE_BANDS, GrenadeReady, GrenadeThrow


def can_ready(t: Table, frame: Frame, fig: Figure) -> str | None:
    """None if the figure may ready a grenade now (7.10.1), else why not."""
    band = t.battlefield.force(fig.side).band
    if band not in GRENADE_BANDS:
        return (
            f"{band.value.title()} forces have no grenades (Military, Guerilla and "
            "Militia only, 7.10)"
        )
    if fig.id in t.state["grenades"]:
        return f"{fig.name} already holds a readied grenade"
    if fig.id in t.state["thrown"]:
        return f"{fig.name} has thrown a grenade this turn: one throw per turn (7.10)"
    if fig.prone:
        return f"{fig.name} is prone"
    half = float(frame.data["allow"][fig.id]) / 2
    if t.movement_left(frame, fig.id) < half - 1e-9:
        return f'readying costs half the movement ({fmt_num(half)}"); {fig.name} has less left'
    return None


def ready(t: Table, frame: Frame, fig: Figure) -> None:
    d = frame.data
    d["used"][fig.id] = float(d["used"][fig.id]) + float(d["allow"][fig.id]) / 2
    res = ready_grenade(t.roll(), fig.rep, band=t.battlefield.force(fig.side).band, who=fig.name)
    t.state["grenades"][fig.id] = {
        "now": res.result == GrenadeReady.THROW_NOW.value,
        "activation": d["number"],
    }
    t.emit("ready", res.explain(), result=res, figures=[fig.id])


def check_throw(t: Table, frame: Frame, fig: Figure, act: Throw) -> None:
    held = t.state["grenades"].get(fig.id)
    if held is None:
        raise IllegalActionError(f"{fig.name} has no readied grenade: ready one first (7.10.1)")
    if not held["now"] and held["activation"] == frame.data["number"]:
        raise IllegalActionError(
            f"{fig.name}'s grenade may not be thrown until next active (7.10.1)"
        )
    table = t.battlefield.table
    x, y = act.point
    if not (0 <= x <= table.width and 0 <= y <= table.height):
        raise IllegalActionError("the spot is off the table")
    reach = max(0.0, math.hypot(x - fig.x, y - fig.y) - fig.radius)
    if reach > GRENADE_RANGE + 1e-9:
        raise IllegalActionError(
            f'a grenade is thrown up to 6"; the spot is {reach:.1f}" from {fig.name} (7.10.3)'
        )


def throw(t: Table, frame: Frame, fig: Figure, spot: Point2) -> None:
    throw_now(t, fig, spot)


def throw_now(t: Table, fig: Figure, spot: Point2) -> None:
    """Throw the figure's readied grenade at a spot (7.10.3) and resolve the blast."""
    del t.state["grenades"][fig.id]
    t.state["thrown"] = sorted(set(t.state["thrown"]) | {fig.id})
    in_los = movement.sees_point(t.battlefield, fig, spot, t.rules, index=t.vis.index)
    reach = max(0.0, math.hypot(spot[0] - fig.x, spot[1] - fig.y) - fig.radius)
    res = throw_grenade(t.roll(), fig.rep, distance=reach, spot_in_los=in_los, who=fig.name)
    t.emit("throw", res.explain(), result=res, figures=[fig.id])
    if res.result == GrenadeThrow.OOPS.value:
        blast(t, (fig.x, fig.y), fig.id, attacker_rep=fig.rep)
    elif res.result == GrenadeThrow.MISS.value:
        blast(t, spot, fig.id, attacker_rep=fig.rep, missed=True)
    else:
        blast(t, spot, fig.id, attacker_rep=fig.rep)


def can_throw_at(t: Table, fig: Figure, cause: Figure) -> bool:
    """Holds a readied grenade, not thrown this turn, with the cause within 6"
    (7.10.1: thrown "when active or in reaction"; a grenade needs no LOS)."""
    if fig.id not in t.state["grenades"] or fig.id in t.state["thrown"]:
        return False
    reach = max(0.0, math.hypot(cause.x - fig.x, cause.y - fig.y) - fig.radius)
    return reach <= GRENADE_RANGE


def reaction_throw(t: Table, fig: Figure, cause: Figure) -> bool:
    """A figure told to fire that cannot, but holds a readied grenade and has the
    cause within 6", throws it at the cause instead (7.10.1).  True when it threw."""
    if not can_throw_at(t, fig, cause):
        return False
    t.emit(
        "reaction_throw",
        f"{fig.name} cannot fire at {cause.name} and throws its readied grenade instead (7.10.1).",
        section="7.10.1",
        figures=[fig.id, cause.id],
    )
    throw_now(t, fig, (cause.x, cause.y))
    return True


def blast(
    t: Table,
    centre: Point2,
    cause: str,
    *,
    attacker_rep: int | None,
    weapon: str = GRENADE,
    missed: bool = False,
    exclude: Iterable[str] = (),
) -> None:
    """A blast circle (7.10.5): damage, or Received Fire for those who escape (7.10.6)."""
    if t.rules.firearms_detail:  # explosive rings instead of the circle (FD §9)
        firearms.blast(t, centre, cause, attacker_rep, weapon, missed, tuple(exclude))
        return
    skip = set(exclude)
    standing = [f for f in t.battlefield.figures() if f.status.can_act and f.id not in skip]
    members = blast_members(centre, standing, t.rules)
    specs = [
        BlastFigure(f.name, f.rep, adapter.blast_covered(t, centre, f), f.prone, id=f.id)
        for f in members
    ]
    where = f"({centre[0]:.1f}, {centre[1]:.1f})"
    if not specs:
        t.emit("blast", f"The blast at {where} catches nobody (7.10.5).", section="7.10.5")
        return
    res = (
        missed_blast(specs, weapon=weapon)
        if missed
        else blast_circle(t.roll(), specs, weapon=weapon, options=t.rules)
    )
    t.emit(
        "blast",
        f"Blast at {where}: {res.explain()}",
        result=res,
        figures=[v.id for v in res.figures],
    )
    hits = {v.id: [v.damage.status.value] for v in res.figures if v.damage is not None}
    escaped = [v.id for v in res.figures if v.damage is None]
    aftermath.push_aftermath(t, cause, attacker_rep, hits, escaped, blast=True)


def rocket(t: Table, shooter: Figure, target: Figure, *, rush: bool) -> None:
    """A Rocket Launcher fired at the figure on a spot (7.10.5); a building area
    hit collapses with its occupants (8.4).  A total of 8 or more is on target
    whatever the figure there: its Cover or posture is not asked (7.10.5 "counts as on
    target", 8.4 "a total greater than 7"); it matters to the blast (7.10.6)."""
    res = rocket_shot(
        t.roll(),
        shooter.rep,
        fast_moving=shooter.fast_moving,
        rush_shot=rush,
        who=shooter.name,
    )
    t.emit(
        "fire",
        f"{shooter.name} fires the Rocket Launcher at {target.name}: {res.explain()}",
        result=res,
        figures=[shooter.id, target.id],
    )
    t.battlefield.update_figure(shooter.id, out_of_ammo=True)
    adapter.note_emptied(t, shooter.id)
    if t.rules.firearms_detail:  # the launcher's round, from its card (FD §3)
        firearms.spend_blast_round(t, shooter)
    spot = (target.x, target.y)
    if not res.on_target:
        blast(t, spot, shooter.id, attacker_rep=shooter.rep, weapon="RL", missed=True)
        return
    area = building_area(t, spot, int(t.state["floors"].get(target.id, 1)))
    if area is None:
        blast(t, spot, shooter.id, attacker_rep=shooter.rep, weapon="RL")
        return
    collapse(t, shooter, area, spot)


def area_key(building: str, k: int, floor: int = 1) -> str:
    """A building area's name in ``state["collapsed"]``: "id:k" on the ground floor,
    "id:k:floor" above it (8.1: each floor above the ground adds areas)."""
    return f"{building}:{k}" if floor <= 1 else f"{building}:{k}:{floor}"


def building_area(t: Table, spot: Point2, floor: int = 1) -> tuple[str, int, int] | None:
    """The standing building area at ``spot`` on ``floor`` (the floor of the figure
    fired at): (building id, area, floor), or None."""
    from shapely.geometry import Point

    p = Point(spot)
    for feature in t.battlefield.features_at(*spot):
        if isinstance(feature, Building):
            level = min(max(1, floor), max(1, int(feature.floors)))
            for k, poly in enumerate(feature.areas):
                if poly.covers(p) and area_key(feature.id, k, level) not in t.state["collapsed"]:
                    return (feature.id, k, level)
    return None


def collapse(t: Table, shooter: Figure, area: tuple[str, int, int], spot: Point2) -> None:
    """8.4: "the building area it hits" collapses -- the area on the floor of the
    figure hit, not the ground floor under it -- and its occupants roll damage; the
    area above it, if any, may fall on them.  Floors below the area hit stand."""
    from shapely.geometry import Point

    bid, k, floor = area
    building = t.battlefield.feature(bid)
    assert isinstance(building, Building)
    poly = building.areas[k]
    floors = t.state["floors"]
    inside = [
        f for f in t.battlefield.figures() if f.status.can_act and poly.covers(Point(f.x, f.y))
    ]
    lower = [f for f in inside if int(floors.get(f.id, 1)) == floor]
    upper = [f for f in inside if int(floors.get(f.id, 1)) == floor + 1]
    above = floor < int(building.floors)
    collapsed = set(t.state["collapsed"]) | {area_key(bid, k, floor)}
    last = all(area_key(bid, n, floor) in collapsed for n in range(len(building.areas)))
    res = rocket_vs_building(
        t.roll(),
        [(f.name, f.rep, f.id) for f in lower],
        upper_occupants=[(f.name, f.rep, f.id) for f in upper] if above else None,
        last_area_of_level=last,
        options=t.rules,
    )
    if res.upper_collapsed:
        collapsed.add(area_key(bid, k, floor + 1))
    t.state["collapsed"] = sorted(collapsed)
    struck = [*lower, *upper]
    t.emit(
        "collapse",
        f"{building.name}: {res.explain()}",
        result=res,
        figures=[f.id for f in struck],
    )
    hits: dict[str, list[str]] = {}
    missed: list[str] = []
    for occ in (*res.lower, *res.upper):
        if occ.status is None:
            missed.append(occ.id)
        else:
            hits[occ.id] = [occ.status.value]
    blast(
        t, spot, shooter.id, attacker_rep=shooter.rep, weapon="RL", exclude=[f.id for f in inside]
    )
    aftermath.push_aftermath(t, shooter.id, shooter.rep, hits, missed, blast=True)
