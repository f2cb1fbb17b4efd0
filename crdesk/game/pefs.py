"""PEFs, Possible Enemy Forces (11): placing them (11.1), moving them on the enemy's
activation (11.2), resolving one when a player figure sees it (11.3) with the
enemies it hides, and the buildings that hide PEFs of their own (option
``pef_buildings``).  A contact that moves into sight takes the In Sight test as the
moving side (option ``pef_contact_in_sight``).

Solo games only (GameSettings.solo).  PEFs are game state, not figures:
``state["pefs"]`` lists {"id", "x", "y", "resolved"}; ``state["pef"]``
holds whether they were placed, whether the next resolution rolls 3d6
counting the lowest two, and how many contacts there were.

* Placement (11): in the start step, after the opening activation roll,
  ``encounter.pef_count`` PEFs by 1d6 each (section 1-6); the spot is the
  first of the section's centre and eight spots around it (a third and
  two thirds across) on passable ground that no player figure sees
  (movement.sees_point: its front 180°, terrain only), else the centre, or the
  point of the section nearest it clear of impassable ground when the centre is
  not (a PEF there could never move).
* Movement (11.2): automatic work of the non-player side's "side" frame,
  once each time that side is active (whatever its activation die; PEFs
  are not groups), before its groups: the unresolved PEFs, farthest from
  any player figure first, each roll 2d6 vs Rep 4 and go 8"/4"/0 straight
  towards the nearest player figure, ignoring terrain costs, stopping
  before impassable ground, at the table edge and 1" short of the
  figure's base, ending in Cover when a spot within its move and within
  ``pef_cover_fan`` degrees of the straight line gives it.
* Resolution (11.3): whenever the game runs (after any step and after
  each PEF's move), a PEF that a player figure able to act sees is
  resolved, the first such figure's group being the group that resolved
  it.  A contact adds the enemy group to the non-player force where the
  PEF stood (see :func:`generate_enemies`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
import shapely.ops
from shapely.geometry.base import BaseGeometry

from crdesk.game import buildings as building_rules
from crdesk.game import duck_back
from crdesk.game.actions import Point2
from crdesk.game.deployment import POCKET, open_ground
from crdesk.game.table import RulesModule, Table
from crdesk.geometry import movement, routing
from crdesk.geometry.measure import bearing
from crdesk.model import Building, CoverObstacle, Figure, Role, WeaponCode
from crdesk.rules.pef import enemy_reps, pef_move, pef_resolve, place_pef
from crdesk.tables import BAND_WEAPONS, PEF_REP, PefResolution


def spot_free(t: Table, spot: Point2, radius: float = 0.5) -> bool:
    """On the table and not on impassable ground."""
    table = t.battlefield.table
    x, y = spot
    if not (radius <= x <= table.width - radius and radius <= y <= table.height - radius):
        return False
    grown = _grown_rock(t, radius)
    return grown is None or not grown.contains(shapely.Point(x, y))


def _grown_rock(t: Table, radius: float) -> BaseGeometry | None:
    """Impassable ground grown by ``radius`` (where a base's centre may not stand),
    prepared and kept in the terrain index's cache; None where there is none."""
    index = t.vis.index
    key = f"impassable_buffer_{radius}"
    grown = index.cache.get(key)
    if not isinstance(grown, BaseGeometry | bool):
        solid = index.impassable_union
        grown = False if solid is None else solid.buffer(radius)
        if isinstance(grown, BaseGeometry):
            shapely.prepare(grown)  # asked for every spot a PEF or a figure tries
        index.cache[key] = grown
    return grown if isinstance(grown, BaseGeometry) else None


def pef_viewers(t: Table, figures: Sequence[Figure], spots: Sequence[Point2]) -> list[str | None]:
    """For each spot, the first of the figures (roster order) with LOS to it as a PEF
    is seen: in Cover it can be, behind Cover not (11.3); asked after every step."""
    # each figure's view of the spots is its own (figures do not hide PEFs), so it
    # is remembered per figure where it stands: after a move only the mover's is new
    memo: dict[tuple[Any, ...], npt.NDArray[np.bool_]] = t.memo.setdefault("pef", {})
    if len(memo) > 4096:
        memo.clear()
    where = (t.battlefield.terrain_revision, tuple(spots))
    keys = [(f.id, f.x, f.y, f.facing, f.radius, where) for f in figures]
    missing = [k for k, key in enumerate(keys) if key not in memo]
    if missing:
        seen = movement.sees_points(
            t.battlefield,
            [figures[k] for k in missing],
            spots,
            t.rules,
            index=t.vis.index,
            behind_cover_hides=True,
            in_the_dark=True,  # night and bad weather limit LOS to a PEF (7.9.4, 11.3)
        )
        for r, k in enumerate(missing):
            memo[keys[k]] = seen[r]
    out: list[str | None] = [None] * len(spots)
    for key, fig in zip(keys, figures, strict=True):
        for k in np.flatnonzero(memo[key]).tolist():
            if out[k] is None:
                out[k] = fig.id
    return out


def place_pefs(t: Table) -> None:
    t.state["pef"]["placed"] = True
    table = t.battlefield.table
    count = max(0, int(t.scenario.encounter.pef_count))
    for n in range(1, count + 1):
        pid = f"pef{n}"
        res = place_pef(t.roll(), who=f"PEF {n}")
        section = int(res.value or 1)
        box = table.section_bounds(section).bounds
        x0, y0, x1, y1 = box
        centre = table.section_centre(section)
        spots = [centre] + [
            (x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy)
            for fy in (1 / 3, 2 / 3, 1 / 6, 5 / 6)
            for fx in (1 / 3, 2 / 3, 1 / 6, 5 / 6)
        ]
        spot = centre
        # ground the Band can reach when the section has any; else (rock shuts the whole
        # section off) the section's own ground, as 11 places it there all the same
        reach = _nearest_free(t, box, centre) is not None
        usable = [
            spot_free(t, candidate)
            and not _shut_in(t, candidate, reach)
            and not any(
                math.hypot(p["x"] - candidate[0], p["y"] - candidate[1]) < 1.0
                for p in t.state["pefs"]
            )
            for candidate in spots
        ]
        # the first free spot no player figure sees, all spots judged in one pass
        first = movement.first_unseen(
            t.battlefield,
            t.alive(t.player_side()),
            spots,
            t.rules,
            index=t.vis.index,
            usable=usable,
        )
        where = "at its centre (no hidden spot)"
        hidden = spots[first] if first is not None else _hidden_spot(t, box, centre, reach)
        if hidden is not None:
            spot = hidden
            where = "out of the player's sight"
        elif not spot_free(t, centre) or _shut_in(t, centre, reach):
            near = _nearest_free(t, box, centre, reach=reach)
            if near is not None:
                spot = near
                where = (
                    "as near its centre as it can stand (no hidden spot; impassable "
                    "ground at the centre)"
                )
        if not reach and _nearest_free(t, box, centre, reach=False) is not None:
            where += " (rock shuts the section off from the Band)"
        spot = (round(spot[0], 3), round(spot[1], 3))
        t.state["pefs"].append({"id": pid, "x": spot[0], "y": spot[1], "resolved": False})
        t.emit(
            "pef_placed",
            f"PEF {n} is placed in section {section}, {where}, at "
            f"({spot[0]:.1f}, {spot[1]:.1f}) (11).",
            result=res,
            section="11",
        )
    hold_set_up_buildings(t)


def hold_set_up_buildings(t: Table) -> None:
    """The buildings a player figure stands in as the PEFs are placed hold no PEF (the
    ``pef_buildings_held_at_set_up`` option): 11.1 generates one the first time a group
    *comes* within 12" of a building and when it is *entered*; a Band set up inside
    (12.3: anywhere in sections 7-9) did neither, and would otherwise find the enemy
    beside it in its own building before anyone moved."""
    rules = t.rules.interpretations
    if not (rules.pef_buildings and rules.pef_buildings_held_at_set_up):
        return
    for fig in t.alive(t.player_side()):
        b = building_rules.building_of(t, fig)
        if b is None or b.id in t.state["pef"].get("buildings", {}):
            continue
        t.state["pef"].setdefault("buildings", {})[b.id] = "noticed"
        t.emit(
            "pef_building_held",
            f"{fig.name} sets up in {b.name or b.id}: the Band holds it, so no PEF is "
            "generated in it (11.1, 12.3).",
            section="11.1",
            figures=[fig.id],
        )


HIDING_GRID = 24
"""Spots a side of a section that :func:`_hidden_spot` tries when none of the 17 first
ones would hide a PEF (a section mostly rock hides PEFs in its corners)."""


def _hidden_spot(
    t: Table, box: tuple[float, float, float, float], centre: Point2, reach: bool = True
) -> Point2 | None:
    """The free spot of the section nearest its centre that no player figure sees, on a
    :data:`HIDING_GRID` grid, or None: 11 places a PEF "hidden from the player's force by
    blocking terrain if any can do it, else in the centre of the section".  The 17 spots
    tried first miss the hiding places of a section mostly impassable (kept games: a PEF
    put in plain sight at the rock's edge resolved into 8 enemies before the Band moved,
    with 16 hidden spots in its section)."""
    x0, y0, x1, y1 = box
    n = HIDING_GRID
    grid = [
        (x0 + (x1 - x0) * (i + 0.5) / n, y0 + (y1 - y0) * (j + 0.5) / n)
        for j in range(n)
        for i in range(n)
    ]
    grid.sort(key=lambda p: math.hypot(p[0] - centre[0], p[1] - centre[1]))  # stable
    others = [(p["x"], p["y"]) for p in t.state["pefs"]]
    xs = np.array([p[0] for p in grid])
    ys = np.array([p[1] for p in grid])
    table = t.battlefield.table
    ok = (xs >= 0.5) & (xs <= table.width - 0.5) & (ys >= 0.5) & (ys <= table.height - 0.5)
    grown = _grown_rock(t, 0.5)  # as spot_free judges each spot, all at once
    if grown is not None:
        ok &= ~shapely.contains_xy(grown, xs, ys)
    pockets = _pockets(t, reach)
    if pockets is not None:
        ok &= ~shapely.intersects_xy(pockets, xs, ys)
    for ox, oy in others:
        ok &= np.hypot(xs - ox, ys - oy) >= 1.0
    free = [p for p, good in zip(grid, ok.tolist(), strict=True) if good]
    if not free:
        return None
    first = movement.first_unseen(
        t.battlefield, t.alive(t.player_side()), free, t.rules, index=t.vis.index
    )
    return None if first is None else free[first]


def _nearest_free(
    t: Table,
    box: tuple[float, float, float, float],
    centre: Point2,
    radius: float = 0.5,
    *,
    reach: bool = True,
) -> Point2 | None:
    """The point of the section nearest its centre where a PEF can stand (on the table,
    clear of impassable ground by ``radius``, as :func:`spot_free` judges, and not in a
    pocket that rock and the table's edges shut in): a PEF put inside impassable ground,
    or in a pocket, could never move (11.2) nor be met.  None when the whole section
    is impassable or shut in."""
    table = t.battlefield.table
    x0, y0, x1, y1 = box
    area: BaseGeometry = shapely.box(
        max(x0, radius), max(y0, radius), min(x1, table.width - radius),
        min(y1, table.height - radius),
    )  # fmt: skip
    solid = t.vis.index.impassable_union
    if solid is not None:
        area = area.difference(solid.buffer(radius + 1e-6))
    pockets = _pockets(t, reach)
    if pockets is not None:
        area = area.difference(pockets)
    if area.is_empty:
        return None
    near = shapely.ops.nearest_points(area, shapely.Point(centre))[0]
    return (float(near.x), float(near.y))


def _pockets(t: Table, reach: bool = True) -> BaseGeometry | None:
    """Where a PEF's base would stand on open ground it could never leave towards the
    player: the pockets rock and the table's edges shut in
    (:func:`crdesk.game.deployment.shut_in`, as deployment avoids them) and any piece
    of open ground no player figure stands on (rock running from edge to edge cuts a
    table in two: a PEF placed beyond it moved 0.0" on every pass of a kept night
    Patrol, 11.2, and was met only by sight).  The pieces are worked out once per
    terrain; which of them the Band stands on, as the PEFs are placed (11).
    ``reach`` False: the pockets only."""
    index = t.vis.index
    kept = index.cache.get("pef_open_ground")
    if not isinstance(kept, list):
        kept = index.cache["pef_open_ground"] = open_ground(t.battlefield, 0.5) or []
    parts: list[BaseGeometry] = kept
    if not parts:
        return None
    held: set[int] = set()
    for fig in t.alive(t.player_side()) if reach else ():
        spot = shapely.Point(fig.x, fig.y)
        held.add(min(range(len(parts)), key=lambda k: (parts[k].distance(spot), k)))
    key = f"pef_pockets_{sorted(held)}"
    found = index.cache.get(key)
    if found is None:
        away = [
            part for k, part in enumerate(parts) if part.area < POCKET or (held and k not in held)
        ]
        found = index.cache[key] = shapely.ops.unary_union(away) if away else False
    return found if isinstance(found, BaseGeometry) else None


def _shut_in(t: Table, spot: Point2, reach: bool = True) -> bool:
    """Whether a PEF at ``spot`` would stand in a pocket it could never leave (or,
    ``reach``, on ground from which it could never come towards the Band)."""
    pockets = _pockets(t, reach)
    return pockets is not None and bool(pockets.intersects(shapely.Point(spot)))


def nearest_player(t: Table, spot: Point2) -> Figure | None:
    figs = t.alive(t.player_side())
    if not figs:
        return None
    return min(figs, key=lambda f: math.hypot(f.x - spot[0], f.y - spot[1]))


def pef_order(t: Table) -> list[str]:
    """The unresolved PEFs in the order they move (11.2): farthest from any player
    figure first (ties: the id)."""

    def gap(p: dict[str, Any]) -> float:
        near = nearest_player(t, (p["x"], p["y"]))
        return math.hypot(near.x - p["x"], near.y - p["y"]) if near else 0.0

    order = sorted(
        (p for p in t.state["pefs"] if not p["resolved"]),
        key=lambda p: (-gap(p), p["id"]),
    )
    return [p["id"] for p in order]


def contact_in_sight(t: Table, contact: list[str]) -> None:
    """A contact found by a PEF moving into sight is an enemy group that moved into
    sight (7.6): the In Sight test follows, the contact as the moving group (after
    its free moves, 7.6.2)."""
    np_side = t.np_side()
    t.emit(
        "in_sight",
        f"{', '.join(t.fig(f).name for f in contact)} moved into a player group's sight "
        "as PEF contact: In Sight (7.6).",
        section="7.6",
        figures=list(contact),
    )
    t.push("free_move", side=np_side, movers=list(contact), free_moved=[], moved=[], seen_all=[])


def move_pef(t: Table, pid: str) -> list[str]:
    """Move one PEF (11.2) and resolve it if a player figure then sees it (11.3); the
    enemy figures that contact put on the table in a player figure's sight."""
    pef = next(p for p in t.state["pefs"] if p["id"] == pid)
    if pef["resolved"] or t.state["outcome"] is not None:
        return []
    name = f"PEF {pef['id'][3:]}"
    res = pef_move(t.roll(), who=name)
    inches = float(res.value or 0)
    here: Point2 = (pef["x"], pef["y"])
    target = nearest_player(t, here)
    if not inches or target is None:
        t.emit("pef_move", res.explain(), result=res, section="11.2")
        return []
    dist = math.hypot(target.x - here[0], target.y - here[1])
    allowance = min(inches, max(0.0, dist - target.radius - 1.0))
    end = start = here
    walked = 0.0
    how = ""
    if allowance > 1e-6:
        reach = _pef_reach(t, [here, (target.x, target.y)], allowance)
        end = reach.point
        leg = allowance  # the move's last leg, from ``start``: the fan for Cover turns there
        if reach.stopped_by in ROCK_STOPS:
            way = _way_round(t, here, target, inches)
            if way is not None:
                end, start, leg, walked = way
                how = (
                    " round a building's walls,"
                    if reach.stopped_by == "wall"
                    else " round impassable ground,"
                )
        end, covered = pef_cover_end(t, pef, start, end, target, leg)
    else:
        covered = ""
    end = (round(end[0], 3), round(end[1], 3))
    # to the last corner of the way round passed (none: ``start`` is where it stood),
    # then on to where it ends
    moved = walked + math.hypot(end[0] - start[0], end[1] - start[1])
    pef.update(x=end[0], y=end[1])
    t.emit(
        "pef_move",
        res.explain() + f' It moves {moved:.1f}" towards {target.name},{how} to '
        f"({end[0]:.1f}, {end[1]:.1f}){covered}.",
        result=res,
        section="11.2",
    )
    np_side = t.np_side()
    before = {f.id for f in t.alive(np_side)}
    watch_pefs(t)
    if t.state["outcome"] is not None:
        return []
    sight = t.sight()
    players = t.alive(t.player_side())
    found = [f.id for f in t.alive(np_side) if f.id not in before]
    if any(sight.either(f, p.id) for f in found for p in players):
        return found  # the whole group moved into sight (its free moves, 7.6.2)
    return []


def _pef_reach(t: Table, path: Sequence[Point2], allowance: float) -> movement.Reach:
    """How far a PEF gets along ``path`` with ``allowance`` inches (11.2): terrain does
    not slow it ("PEFs ignore terrain movement penalties"); rock, and a building's walls
    away from its doors and windows, stop it (7.4, 8.2); judged for a 1" base."""
    return movement.farthest_along(
        t.battlefield,
        path,
        allowance,
        t.rules,
        index=t.vis.index,
        ignore_terrain=True,
        radius=0.5,
        walls=True,
    )


ROCK_STOPS = frozenset({"impassable", "wall"})
"""What stops a PEF's straight move for good: impassable ground, and a building's walls
away from its doors and windows (7.4, 8.2); terrain never slows it (11.2)."""


def _way_round(
    t: Table, here: Point2, target: Figure, inches: float
) -> tuple[Point2, Point2, float, float] | None:
    """A PEF's move "directly towards the player" (11.2) when impassable ground or a
    wall stands on the straight line: the direct way is then the shortest way round it
    (the route a figure's move takes, 7.4; terrain does not slow a PEF), ``inches``
    along it and stopping 1" short of the target's base, as the straight move does.
    Returns (the end, the start of the way's last leg walked, that leg's length, the
    inches along the way to that start), or None when no way round exists or it gets
    no farther."""
    goal = (target.x, target.y)
    way = routing.route(
        t.battlefield,
        here,
        goal,
        t.rules,
        radius=0.5,
        index=t.vis.index,
        ignore_terrain=True,
        walls=True,
    )
    if way is None or way.legs < 2:
        return None
    budget = min(inches, max(0.0, way.cost.length - target.radius - 1.0))
    reach = _pef_reach(t, way.points, budget)
    if reach.cost <= 1e-6:
        return None
    # the leg the move ended on: from the last corner passed to where it stopped
    start, walked = way.points[0], 0.0
    for p, q in itertools.pairwise(way.points):
        step = math.hypot(q[0] - p[0], q[1] - p[1])
        if walked + step >= reach.cost - 1e-9:
            break
        walked += step
        start = q
    leg = math.hypot(reach.point[0] - start[0], reach.point[1] - start[1])
    return reach.point, start, leg, walked


def pef_cover_end(
    t: Table,
    pef: dict[str, Any],
    here: Point2,
    end: Point2,
    target: Figure,
    allowance: float,
) -> tuple[Point2, str]:
    """Where a PEF moving ``allowance`` inches towards ``target`` ends "in Cover if
    possible" (11.2): the straight move's end when it is out of every player
    figure's sight or in Cover from it, else the spot nearest that end within the
    move and within the rules settings' fan either side of the straight line that
    is; else the straight end.  Judged as a figure on the spot, facings ignored."""
    fan = float(t.rules.interpretations.pef_cover_fan)
    viewers = [f.id for f in t.alive(t.player_side())]
    if fan <= 0 or not viewers:
        return end, ""
    probe = Figure(pef["id"], f"PEF {pef['id'][3:]}", PEF_REP, x=here[0], y=here[1])
    # the straight end first: when it will do, the fan need not be walked or judged
    # (each spot is judged alone, so its verdict is the same either way)
    first = t.vis.spots(probe, [end], viewers, all_round=True, moving=False)
    if bool(first.safe[0].all()):
        return end, ", in Cover or out of sight"
    towards = bearing(here, (target.x, target.y))
    gap = math.hypot(target.x - here[0], target.y - here[1])
    cands: list[Point2] = [end]
    turns = sorted({0.0, -fan, fan, *(float(a) for a in range(-int(fan), int(fan) + 1, 10))})
    steps = [float(r) for r in range(1, int(allowance) + 1)]
    if allowance - (steps[-1] if steps else 0.0) > 0.25:
        steps.append(allowance)
    for turn in turns:
        ang = math.radians(towards + turn)
        ux, uy = math.sin(ang), -math.cos(ang)
        # one walk along the ray: a spot on it is reached when nothing (a wall,
        # impassable ground, the edge) stops the PEF before it
        reach = _pef_reach(
            t, [here, (here[0] + allowance * ux, here[1] + allowance * uy)], allowance
        )
        limit = math.hypot(reach.point[0] - here[0], reach.point[1] - here[1]) + 1e-3
        for r in steps:
            if r > limit:
                break
            p = (here[0] + r * ux, here[1] + r * uy)
            left = math.hypot(target.x - p[0], target.y - p[1])
            if left >= gap - 1e-6 or left - target.radius < 1.0 or not spot_free(t, p):
                continue
            if any(isinstance(f, CoverObstacle) for f in t.battlefield.features_at(*p)):
                continue  # behind a wall, not on top of it
            cands.append(p)
    verdicts = t.vis.spots(probe, cands[1:], viewers, all_round=True, moving=False)
    safe = [False, *(bool(row.all()) for row in verdicts.safe)]
    best = min(
        (i for i in range(1, len(cands)) if safe[i]),
        key=lambda i: (math.hypot(cands[i][0] - end[0], cands[i][1] - end[1]), i),
        default=None,
    )
    if best is None:
        return end, " (no Cover within its move)"
    return cands[best], ", ending in Cover (11.2)"


def watch_pefs(t: Table, only: Figure | None = None) -> bool:
    """Resolve every unresolved PEF a player figure sees (11.3), and the buildings'
    PEFs (11.1); True if any was.  ``only``: just what this figure sees now (a
    figure on the move resolves a PEF the moment it sees it)."""
    if not t.settings.solo or t.state["outcome"] is not None:
        return False
    viewers = [only] if only is not None else t.alive(t.player_side())
    any_resolved = False
    pefs = [p for p in t.state["pefs"] if not p["resolved"]]
    seen_by = pef_viewers(t, viewers, [(p["x"], p["y"]) for p in pefs]) if pefs else []
    for pef, viewer in zip(pefs, seen_by, strict=True):
        if viewer is not None and t.state["outcome"] is None:
            resolve_pef(t, pef, viewer)
            any_resolved = True
    buildings = t.rules.interpretations.pef_buildings and t.state["pef"]["placed"]
    if buildings and watch_buildings(t, viewers):
        any_resolved = True
    return any_resolved


# PEFs and buildings (11.1): ``_state["pef"]["buildings"]`` maps a building's id
# to "noticed" (its PEF was resolved, nothing pending) or "enter" (no enemy was
# found; each area resolves a PEF the first time the building is entered).


def watch_buildings(t: Table, viewers: Sequence[Figure]) -> bool:
    flags = t.state["pef"]
    buildings = [f for f in t.battlefield.terrain if isinstance(f, Building)]
    if not buildings or t.state["outcome"] is not None:
        return False
    done: dict[str, str] = flags.get("buildings", {})
    key = (
        t.battlefield.terrain_revision,
        tuple((f.id, f.x, f.y, f.facing, f.radius) for f in viewers),
        tuple(sorted(done.items())),
    )
    if t.memo.get("building") == key:
        return False  # nothing moved since nothing was noticed
    any_resolved = False
    for b in buildings:
        state = done.get(b.id)
        if state == "noticed":
            continue
        if state == "enter":
            inside = next((f for f in viewers if building_rules.building_of(t, f) is b), None)
            if inside is not None:
                flags.setdefault("buildings", {})[b.id] = "noticed"
                building_areas_pefs(t, b, inside)
                any_resolved = True
            continue
        viewer = next((f for f in viewers if notices_memo(t, f, b)), None)
        if viewer is None:
            continue
        done = flags.setdefault("buildings", {})
        done[b.id] = "noticed"
        spot = area_spot(t, b, b.areas[0] if len(b.areas) == 1 else None, viewer)
        pef = building_pef(t, b, spot)
        t.emit(
            "pef_building",
            f'{viewer.name} comes within 12" and in sight of {b.name or b.id}: a PEF '
            "inside it is resolved at once (11.1).",
            section="11.1",
            figures=[viewer.id],
        )
        before = flags["contacts"]
        resolve_pef(t, pef, viewer.id, building=True)
        if flags["contacts"] == before:
            done[b.id] = "enter"
        any_resolved = True
    if not any_resolved:
        t.memo["building"] = key
    return any_resolved


def notices_memo(t: Table, fig: Figure, b: Building) -> bool:
    """:meth:`_notices`, remembered per figure where it stands (asked after every
    step for every player figure; only the mover's answer can have changed)."""
    memo: dict[tuple[Any, ...], bool] = t.memo.setdefault("notice", {})
    if len(memo) > 4096:
        memo.clear()
    key: tuple[Any, ...] = (t.battlefield.terrain_revision, b.id, fig.id, fig.x, fig.y)
    key += (fig.facing, fig.radius)
    got = memo.get(key)
    if got is None:
        got = memo[key] = notices(t, fig, b)
    return got


def notices(t: Table, fig: Figure, b: Building) -> bool:
    """Within 12" of the building and in LOS of its outside (11.1)."""
    x0, y0, x1, y1 = b.outline.bounds
    gap = math.hypot(max(x0 - fig.x, 0.0, fig.x - x1), max(y0 - fig.y, 0.0, fig.y - y1))
    if gap - fig.radius > 12.0 + 1e-9:
        return False  # the bounding box is already too far
    here = shapely.Point(fig.x, fig.y)
    if b.outline.exterior.distance(here) - fig.radius > 12.0 + 1e-9:
        return False
    if b.outline.covers(here):
        return True
    spots = outside_spots(t, b)
    spots.sort(key=lambda p: (math.hypot(p[0] - fig.x, p[1] - fig.y), p))
    near = spots[: max(4, len(spots) // 2)]
    seen = movement.sees_points(
        t.battlefield, [fig], near, t.rules, index=t.vis.index, in_the_dark=True
    )  # "within 12\" and LOS" (11.1): at night or in bad weather, LOS as 7.9.4 limits it
    return bool(seen.any())


def outside_spots(t: Table, b: Building) -> list[Point2]:
    """Points just outside the building's walls, every 2" or so: seeing one is seeing
    the building."""
    memo: dict[tuple[int, str], list[Point2]] = t.memo.setdefault("outside", {})
    key = (t.battlefield.terrain_revision, b.id)
    if key not in memo:
        ring = b.outline.buffer(0.25, join_style="mitre").exterior
        n = max(8, int(ring.length / 2.0))
        memo[key] = [
            (float(p.x), float(p.y))
            for p in (ring.interpolate(k / n, normalized=True) for k in range(n))
        ]
    return list(memo[key])


def area_spot(t: Table, b: Building, area: Any, viewer: Figure) -> Point2:
    """Where a building's PEF stands: the given area's inside, else the inside of
    the area nearest the figure that noticed it."""
    if area is None:
        here = shapely.Point(viewer.x, viewer.y)
        area = min(b.areas, key=lambda a: a.distance(here))
    p = area.representative_point() if not area.centroid.within(area) else area.centroid
    return (round(p.x, 3), round(p.y, 3))


def building_pef(t: Table, b: Building, spot: Point2) -> dict[str, Any]:
    pid = f"pef{len(t.state['pefs']) + 1}"
    pef = {"id": pid, "x": spot[0], "y": spot[1], "resolved": False, "building": b.id}
    t.state["pefs"].append(pef)
    return pef


def building_areas_pefs(t: Table, b: Building, fig: Figure) -> None:
    """11.1: the first time the building is entered, "resolve a PEF for each area" --
    the areas of every floor, as each floor above the ground adds areas (8.1): a
    building of two floors over one area has two (9.5 "Two areas, two floors"; only
    the ground floor's were resolved).  A contact upstairs stands on its floor."""
    floors = max(1, int(b.floors))
    count = len(b.areas) * floors
    upstairs = f" on its {floors} floors," if floors > 1 else ""
    t.emit(
        "pef_building",
        f"{fig.name} enters {b.name or b.id}: a PEF is resolved in each of its "
        f"{count} area(s){upstairs} with 3d6 counting the lowest two (11.1).",
        section="11.1",
        figures=[fig.id],
    )
    for floor in range(1, floors + 1):
        for k, area in enumerate(b.areas):
            fallen = f"{b.id}:{k}" if floor == 1 else f"{b.id}:{k}:{floor}"  # 8.4
            if fallen in t.state["collapsed"] or t.state["outcome"] is not None:
                continue
            pef = building_pef(t, b, area_spot(t, b, area, fig))
            if floor > 1:
                pef["floor"] = floor
            resolve_pef(t, pef, fig.id, building=True, lowest_two=True)


def resolve_pef(
    t: Table,
    pef: dict[str, Any],
    viewer: str,
    *,
    building: bool = False,
    lowest_two: bool | None = None,
) -> None:
    flags = t.state["pef"]
    side = t.player_side()
    t.cohesion.update()
    group = next(
        (list(g.members) for g in t.cohesion.groups(t.rules, side) if viewer in g.members),
        [viewer],
    )
    left = sum(1 for p in t.state["pefs"] if not p["resolved"] and "building" not in p)
    name = f"PEF {pef['id'][3:]}"
    res = pef_resolve(
        t.roll(),
        player_group_size=len(group),
        lowest_two=flags["lowest_two"] if lowest_two is None else lowest_two,
        last_pef=left == 1 and not building,
        enemy_contacted=flags["contacts"] > 0,
        who=name,
    )
    pef["resolved"] = True
    flags["lowest_two"] = res.next_lowest_two
    t.emit(
        "pef_resolved",
        f"{t.fig(viewer).name} sees {name}: " + res.explain(),
        result=res,
        section="11.3",
        figures=[viewer],
    )
    if res.outcome is PefResolution.CONTACT:
        flags["contacts"] += 1
        generate_enemies(t, pef, res.enemy_size, t.fig(viewer))
    for module in t.modules:  # the encounter's objectives (12.2.6, 12.3.6)
        if module.pef_resolved is not None:
            module.pef_resolved(t, pef, res.outcome)


def generate_enemies(t: Table, pef: dict[str, Any], size: int, viewer: Figure) -> None:
    """The contacted group (11.3): ``size`` figures of the encounter's enemy band
    (default the non-player force's), Reps from its Recruiting column, weapons by
    band (:data:`crdesk.tables.BAND_WEAPONS`, cycled), all Grunts (the Leader is the highest Rep),
    on free spots around where the PEF stood, facing the figure that saw it."""
    side = t.np_side()
    band = t.scenario.encounter.enemy_band or t.battlefield.force(side).band
    reps = enemy_reps(t.roll(), band, size)
    weapons = BAND_WEAPONS.get(band, (WeaponCode.AR,))
    centre: Point2 = (pef["x"], pef["y"])
    rings = [centre] + [
        (centre[0] + r * math.sin(math.radians(a)), centre[1] - r * math.cos(math.radians(a)))
        for r, step in ((1.25, 60), (2.5, 30), (3.75, 20), (5.0, 15))
        for a in range(0, 360, step)
    ]
    added: list[str] = []
    for k, rep in enumerate(reps, 1):
        fid = f"{pef['id']}-{k}"
        probe = Figure(fid, fid, rep, x=centre[0], y=centre[1])
        spot = next((s for s in rings if duck_back.spot_reachable(t, probe, s)), None)
        if spot is None:
            continue
        fig = Figure(
            fid,
            f"{band.value.title()} {pef['id'][3:]}-{k}",
            rep,
            role=Role.GRUNT,
            weapon=weapons[(k - 1) % len(weapons)],
            x=round(spot[0], 3),
            y=round(spot[1], 3),
            facing=round(bearing(spot, (viewer.x, viewer.y)), 1),
        )
        t.battlefield.add_figure(side, fig)
        if int(pef.get("floor", 1)) > 1:  # a contact in a building's upper floor (11.1)
            t.state["floors"][fid] = int(pef["floor"])
        added.append(fid)
    text = ", ".join(
        f"{t.fig(f).name} (Rep {t.fig(f).rep}, {t.fig(f).weapon.value})" for f in added
    )
    t.emit(
        "pef_contact",
        f"{len(added)} {band.value} figure(s) appear where PEF {pef['id'][3:]} stood: "
        f"{text} (11.3).",
        section="11.3",
        figures=added,
    )


def _start(t: Table) -> None:
    # only solo games carry PEF state, so other games' state hashes stay as they were
    t.state["pefs"] = []
    t.state["pef"] = {"placed": False, "lowest_two": False, "contacts": 0}


MODULE = RulesModule(
    "solo play's PEFs",
    plays=lambda settings, rules: bool(settings.solo),
    start=_start,
    watch=watch_pefs,
)
"""Solo play (11) as a plug-in: the PEFs' state from the start, and between frames
every PEF a player figure sees is resolved (11.3)."""
