"""The Band and its deployment (6.1, 12): the quick games' default Band and where
a force is set up at the start of an encounter (12.1.4, 12.2, 12.3: the player's
sections' edge; the enemy's come from PEFs, 11).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.game.encounter import SECTION, encounter_name
from crdesk.geometry.terrain_index import GRAZE
from crdesk.model import (
    BandType,
    Battlefield,
    Building,
    CoverObstacle,
    EncounterType,
    Figure,
    Force,
    Role,
    Scenario,
    Status,
    WeaponCode,
)
from crdesk.tables import BAND_WEAPONS

DEPLOY_DIE = 1 << 32
"""Deployment reads the game's seed from this die on (:class:`crdesk.dice.CounterDice`),
far past any game's own dice, so where the Band stands does not follow the game's first
activation roll."""
ENTRY_STRIP = 3.0
"""Inches from the player's edge within which a figure of a Patrol or a Raid is set up
by the player: it enters by that edge (12.1.4 "move your patrol onto section 7, 8 or 9",
12.2).  **Interpretation**: the book has the figures move on; the strip is where a
first move onto the table could bring them, and its depth is crdesk's choice."""
DEPLOY_GAP = 0.5
"""Inches between the bases of figures deployed side by side."""
POCKET = 24.0
"""Square inches: open ground that impassable ground and the table edges close in to
less than this is a pocket, no way onto the table (nobody is deployed there)."""


def default_band(band: BandType | str = BandType.MILITARY, *, prefix: str = "") -> list[Figure]:
    """A starting Band for quick games and the simulator: a Rep 5 Star and four Rep 4
    Grunts (6.1: up to the Star's Rep figures) with the band type's default weapons
    (6.1.1's defaults, as contacted enemies carry them: Military an AR each and one
    SAW per four, Ganger Pistol/Shotgun, Police Pistol/Shotgun/SMG...)."""
    band = BandType(band)
    weapons = BAND_WEAPONS.get(band, (WeaponCode.AR,))
    star = Figure(
        f"{prefix}star",
        "Star",
        5,
        role=Role.STAR,
        weapon=weapons[0],
        star_power=5,
    )
    grunts = [
        Figure(f"{prefix}g{k}", f"Grunt {k}", 4, weapon=weapons[(k - 1) % len(weapons)])
        for k in range(1, 5)
    ]
    return [star, *grunts]


def deploy(
    scenario: Scenario,
    force: Force | Sequence[Figure],
    encounter_type: EncounterType | str,
    dice: DiceSource,
) -> Scenario:
    """A copy of the scenario with the player's force deployed for the encounter.

    Patrol and Raid enter from the player's edge of sections 7-9, Defend sets up
    anywhere in sections 7-9 (12).  1d6 chooses the section the Band starts from
    (1-2: 7, 3-4: 8, 5-6: 9), so the deployment is recorded with every other die;
    the figures stand side by side (Patrol, Raid: on the edge; Defend: in rings
    round the section's centre) on the spots nearest that section's middle that
    are on the table, in sections 7-9, off impassable ground, buildings and Cover
    obstacles, out of the pockets rock and the table's edges close in
    (:func:`shut_in`), and off every other base.  (Outside buildings is the
    program's choice for a Defend, not the rule's: the player may set up inside them,
    :func:`placement_problem`.)  The player's force keeps its id; a
    :class:`Force` given brings its name and band type.  The scenario's encounter
    type becomes ``encounter_type``.
    """
    kind = EncounterType(encounter_type)
    bf = scenario.battlefield
    table = bf.table
    given = force if isinstance(force, Force) else None
    figures = list(force.figures if isinstance(force, Force) else force)
    if not figures:
        raise IllegalActionError("deploying needs at least one figure in the player's force")
    ids = [f.id for f in figures]
    if len(set(ids)) != len(ids):
        raise IllegalActionError(f"the player's force has repeated figure ids: {ids}")
    old = bf.player_force()
    player_id = old.id if old is not None else (given.id if given else "player")
    others = [f for f in bf.forces if f.id != player_id]
    clash = {f.id for o in others for f in o.figures} & set(ids)
    if clash:
        raise IllegalActionError(f"figure id(s) {sorted(clash)} are already used by another force")
    roll = dice.roll(1, section=SECTION.get(kind, "12"), table="Deployment", who="player")
    section = 7 + (roll.faces[0] - 1) // 2
    dice.note(roll, f"section {section}")
    blocked = _blocked(bf)
    taken: list[tuple[float, float, float]] = [
        (f.x, f.y, f.radius) for o in others for f in o.figures if f.status.can_act
    ]
    placed: list[Figure] = []
    pockets: dict[float, BaseGeometry | None] = {}
    for fig in figures:
        if fig.radius not in pockets:
            pockets[fig.radius] = shut_in(bf, fig.radius)
        spot = _first_spot(table, section, kind, fig.radius, blocked, taken, pockets[fig.radius])
        if spot is None:
            raise IllegalActionError(
                f"no room to deploy {fig.name} ({fig.id}) in sections 7-9 for the "
                f"{encounter_name(kind)}"
            )
        taken.append((spot[0], spot[1], fig.radius))
        placed.append(_set_up(fig, spot))
    return _with_player_force(scenario, given, placed, kind)


def _set_up(fig: Figure, spot: tuple[float, float]) -> Figure:
    """The figure standing ready at ``spot`` at the start of the encounter."""
    return replace(
        fig,
        x=round(spot[0], 3),
        y=round(spot[1], 3),
        facing=0.0,
        status=Status.CARRY_ON,
        prone=False,
        fast_moving=False,
    )


def _with_player_force(
    scenario: Scenario, given: Force | None, placed: list[Figure], kind: EncounterType
) -> Scenario:
    """The scenario with ``placed`` as the player's force (it keeps its id; a Force given
    brings its name and band type) and the encounter's type."""
    bf = scenario.battlefield
    old = bf.player_force()
    player_id = old.id if old is not None else (given.id if given else "player")
    base = given or old
    player = Force(
        player_id,
        base.name if base else "Player",
        base.band if base else BandType.MILITARY,
        True,
        base.colour if base else "#1f5fbf",
        placed,
    )
    forces = [player if f.id == player_id else copy_force(f) for f in bf.forces]
    if old is None:
        forces.insert(0, player)
    new_bf = Battlefield(bf.table, list(bf.terrain), forces)
    return replace(scenario, battlefield=new_bf, encounter=replace(scenario.encounter, type=kind))


def copy_force(force: Force) -> Force:
    """The force with copies of its figures (deploying never changes the scenario's)."""
    return Force(
        force.id,
        force.name,
        force.band,
        force.player,
        force.colour,
        [replace(f) for f in force.figures],
    )


def _blocked(bf: Battlefield, *, interiors: bool = False) -> Any:
    """Where no base may stand: impassable ground, walls and buildings; with
    ``interiors``, a building's walls only (its inside is open to a Defend's set-up)."""
    shapes = [
        f.outline
        for f in bf.terrain
        if f.blocks_movement or isinstance(f, CoverObstacle)
        or (isinstance(f, Building) and not interiors)
    ]  # fmt: skip
    if interiors:
        shapes += [
            f.outline.exterior.buffer(WALL_SHOWN, quad_segs=2)
            for f in bf.terrain
            if isinstance(f, Building) and not f.blocks_movement
        ]
    return unary_union(shapes) if shapes else None


WALL_SHOWN = 0.1
"""Half the width a building's wall is drawn out of a Defend's deployment zone (inches)."""


def open_ground(bf: Battlefield, radius: float) -> list[BaseGeometry] | None:
    """The separate pieces of open ground a centre of a base of ``radius`` may stand
    on: the table less the edges' radius and the impassable ground grown as movement
    grows it (7.4: the centre keeps radius - 2 x GRAZE off it).  A base never gets
    from one piece to another.  None where no rock splits anything."""
    rock = [f.outline for f in bf.terrain if f.blocks_movement]
    table = bf.table
    if not rock or radius * 2 >= min(table.width, table.height):
        return None
    room = box(radius, radius, table.width - radius, table.height - radius).difference(
        unary_union(rock).buffer(max(radius - 2 * GRAZE, 0.0), quad_segs=8)
    )
    return list(getattr(room, "geoms", [room]))


def shut_in(bf: Battlefield, radius: float) -> BaseGeometry | None:
    """Where a base of ``radius`` would stand in a pocket of open ground it cannot leave:
    rock running a hair from the table edges round a corner closes it in (seen in
    generated tables: 0.1-0.2" gaps, a figure deployed there went nowhere all game).
    The pieces of :func:`open_ground` smaller than :data:`POCKET` are pockets."""
    parts = open_ground(bf, radius)
    small = [g for g in parts or () if g.area < POCKET]
    return unary_union(small) if small else None


def _first_spot(
    table: Any,
    section: int,
    kind: EncounterType,
    radius: float,
    blocked: Any,
    taken: list[tuple[float, float, float]],
    pockets: Any = None,
) -> tuple[float, float] | None:
    cx, cy = table.section_centre(section)
    pitch = 2 * radius + DEPLOY_GAP
    near_row = table.height * 2 / 3
    if kind is EncounterType.DEFEND:
        candidates = [(cx, cy)]
        rings = int(max(table.width, table.height / 3) / pitch) + 1
        for ring in range(1, rings + 1):
            count = max(6, int(2 * math.pi * ring))
            for k in range(count):
                ang = 2 * math.pi * k / count
                candidates.append(
                    (cx + ring * pitch * math.sin(ang), cy - ring * pitch * math.cos(ang))
                )
    else:  # entering from the player's edge: bases on the edge, nearest the section first
        # (where rock, buildings or walls line the whole edge, the row just inside it,
        # and so on: as near the edge as the terrain lets them enter)
        steps = int(table.width / pitch) + 1
        rows = int(table.height / 3 / pitch) + 1
        candidates = []
        for row in range(rows):
            y = table.height - radius - row * pitch
            for n in range(steps + 1):
                for sign in (1, -1) if n else (1,):
                    candidates.append((cx + sign * n * pitch, y))
    for x, y in candidates:
        if not (radius <= x <= table.width - radius and radius <= y <= table.height - radius):
            continue
        if y - radius < near_row - 1e-9:
            continue
        if any(math.hypot(x - ox, y - oy) < r + radius + 1e-6 for ox, oy, r in taken):
            continue
        if blocked is not None and blocked.intersects(Point(x, y).buffer(radius, quad_segs=8)):
            continue
        if pockets is not None and pockets.intersects(Point(x, y)):
            continue  # closed in by rock and the table's edges: no way on from there
        return (x, y)
    return None


def player_force_id(scenario: Scenario) -> str:
    """The player's force: the first marked the player's, else the first (as in solo play)."""
    forces = scenario.battlefield.forces
    player = next((f for f in forces if f.player), forces[0] if forces else None)
    return player.id if player is not None else "player"


def enemy_figures(scenario: Scenario) -> int:
    """How many figures the forces other than the player's have on the table."""
    me = player_force_id(scenario)
    return sum(len(f.figures) for f in scenario.battlefield.forces if f.id != me)


def without_enemies(scenario: Scenario, band_type: BandType | None = None) -> Scenario:
    """The scenario as solo play sets it up (11): the enemy comes only from PEFs, so the
    forces other than the player's keep no figure (they hold what the PEFs bring, 11.3);
    a scenario with no such force gets one, of ``band_type`` (or the encounter's enemy
    band, or Military)."""
    bf = scenario.battlefield
    me = player_force_id(scenario)
    forces = [f if f.id == me else replace(f, figures=[]) for f in bf.forces]
    if not any(f.id != me for f in forces):
        band = scenario.encounter.enemy_band or band_type or BandType.MILITARY
        forces.append(Force("enemy", "Enemy", band))
    return replace(scenario, battlefield=Battlefield(bf.table, list(bf.terrain), forces))


def placement_problem(
    scenario: Scenario,
    encounter_type: EncounterType | str,
    fig: Figure,
    spot: tuple[float, float],
    others: Sequence[Figure],
) -> str | None:
    """Why the player may not set ``fig`` up at ``spot`` for the encounter (12.1.4, 12.2:
    entering at the player's edge of sections 7-9, within :data:`ENTRY_STRIP`; 12.3:
    anywhere in sections 7-9), or None: on the table, off impassable ground and walls,
    its base clear of ``others`` (the figures already standing).  A building's inside is
    part of a Defend's sections 7-9 (figures stand in buildings, 8.1-8.3); a Patrol or
    a Raid enters by the edge, so it starts outside them; no base straddles a
    building's wall."""
    kind = EncounterType(encounter_type)
    bf = scenario.battlefield
    table = bf.table
    x, y = float(spot[0]), float(spot[1])
    r = fig.radius
    where = f"({x:g}, {y:g})"
    if not (r <= x <= table.width - r and r <= y <= table.height - r):
        return f"{where} is off the table: {fig.name}'s base must be on it"
    if y - r < table.height * 2 / 3 - 1e-9:
        return f"{where} is not in sections 7-9, the near third where the player sets up (12)"
    if kind is not EncounterType.DEFEND and y + r < table.height - ENTRY_STRIP - 1e-9:
        return (
            f"{where}: a {encounter_name(kind)} enters by the player's edge (12.1.4): set up "
            f"within {ENTRY_STRIP:g}\" of the player's edge"
        )
    base = Point(x, y).buffer(r, quad_segs=8)
    for feature in bf.terrain:
        if not feature.outline.intersects(base):
            continue
        name = feature.name or feature.id
        if isinstance(feature, Building) and not feature.blocks_movement:
            if not base.within(feature.outline):
                return (
                    f"{where} straddles {name}'s wall: a base stands inside the building "
                    "or clear of it (8.1)"
                )
            if kind is not EncounterType.DEFEND:
                return (
                    f"{where} is inside {name}: a {encounter_name(kind)} enters by the "
                    "player's edge (12.1.4), so it starts outside buildings"
                )
            continue  # 12.3: anywhere in sections 7-9, a building's inside too
        if feature.blocks_movement or isinstance(feature, CoverObstacle):
            return f"{where} is on {name}, where no figure may stand"
    for other in others:
        if other.id != fig.id and math.hypot(other.x - x, other.y - y) < other.radius + r - 1e-6:
            return f"{where}: its base touches {other.name}'s"
    return None


def deploy_at(
    scenario: Scenario,
    force: Force | Sequence[Figure],
    encounter_type: EncounterType | str,
    places: Mapping[str, Sequence[float]],
) -> Scenario:
    """:func:`deploy` with the player's own places (figure id -> x, y), each checked by
    :func:`placement_problem`; IllegalActionError lists every figure refused and why."""
    kind = EncounterType(encounter_type)
    figures = list(force.figures if isinstance(force, Force) else force)
    bf = scenario.battlefield
    me = player_force_id(scenario)
    standing = [f for o in bf.forces if o.id != me for f in o.figures if f.status.can_act]
    problems: list[str] = []
    placed: list[Figure] = []
    for fig in figures:
        spot = places.get(fig.id)
        if spot is None or len(spot) != 2:
            problems.append(f"{fig.id}: no place given for {fig.id} ({fig.name})")
            continue
        xy = (float(spot[0]), float(spot[1]))
        why = placement_problem(scenario, kind, fig, xy, standing + placed)
        if why is not None:
            problems.append(f"{fig.id}: {why}")
            continue
        placed.append(_set_up(fig, xy))
    extra = sorted(set(places) - {f.id for f in figures})
    if extra:
        problems.append(f"no figure of the player's force is called {', '.join(extra)}")
    if problems:
        raise IllegalActionError("; ".join(problems))
    given = force if isinstance(force, Force) else None
    return _with_player_force(scenario, given, placed, kind)


def deployment_zone(scenario: Scenario, encounter_type: EncounterType | str) -> BaseGeometry:
    """Where the player's bases may stand at the start, to show it (12.1.4, 12.2: the strip
    within :data:`ENTRY_STRIP` of the player's edge of sections 7-9; 12.3: all of sections
    7-9, buildings' insides included), less impassable ground, walls and (Patrol, Raid)
    buildings.  :func:`placement_problem` is the check; this is the picture of it."""
    kind = EncounterType(encounter_type)
    table = scenario.battlefield.table
    top = table.height * 2 / 3
    if kind is not EncounterType.DEFEND:
        top = max(top, table.height - ENTRY_STRIP)
    zone: BaseGeometry = box(0.0, top, table.width, table.height)
    blocked = _blocked(scenario.battlefield, interiors=kind is EncounterType.DEFEND)
    return zone.difference(blocked) if blocked is not None else zone


def player_places(scenario: Scenario) -> dict[str, tuple[float, float]]:
    """Where the player's figures stand (figure id -> x, y): a deployment to keep or give."""
    me = player_force_id(scenario)
    force = next((f for f in scenario.battlefield.forces if f.id == me), None)
    return {f.id: (f.x, f.y) for f in force.figures} if force is not None else {}
