"""The battlefield model: table, nine sections, terrain, forces and figures.

Everything is in inches (digest 1).  Terrain outlines are shapely polygons.
The model is mutable for the editor, but only through its methods: each
mutation bumps :attr:`Battlefield.revision` and announces a
:class:`~crdesk.events.Change` to observers, so the GUI and the geometry caches
refresh exactly what changed (the Anki pattern: core calls return what changed).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from shapely.affinity import translate
from shapely.geometry import LineString, Point, Polygon

from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind, Subject
from crdesk.options import RulesOptions

REP_MIN = 2
"""Rep never drops below 2 between encounters (5)."""
REP_MAX = 9
"""The book sets no maximum; 9 keeps dice pools sane and catches typos."""


class TerrainKind(StrEnum):
    """Kinds of terrain feature (digest 15.2)."""

    WOODS = "woods"
    HILL = "hill"
    WOODED_HILL = "wooded_hill"
    BUILDING = "building"
    IMPASSABLE = "impassable"
    COVER = "cover"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {
    TerrainKind.WOODS: "Woods",
    TerrainKind.HILL: "Hill",
    TerrainKind.WOODED_HILL: "Wooded hill",
    TerrainKind.BUILDING: "Building",
    TerrainKind.IMPASSABLE: "Impassable",
    TerrainKind.COVER: "Cover",
}


class CoverType(StrEnum):
    """What a cover obstacle is (7.9.5): all give Cover to a figure behind them."""

    WALL = "wall"
    RUBBLE = "rubble"
    VEHICLE = "vehicle"
    OTHER = "other"


class OpeningKind(StrEnum):
    """Building openings (8.2): a door costs 2" to pass, a window 4"."""

    DOOR = "door"
    WINDOW = "window"


class Role(StrEnum):
    """Star or Grunt (5)."""

    STAR = "star"
    GRUNT = "grunt"


class WeaponCode(StrEnum):
    """Ranged weapons of table 7.9 (and BAP from Old School 16.0); NONE for unarmed."""

    AR = "AR"
    BAR = "BAR"
    MP = "MP"
    P = "P"
    RL = "RL"
    SAR = "SAR"
    SG = "SG"
    SAW = "SAW"
    SMG = "SMG"
    BAP = "BAP"
    NONE = "none"


class MeleeWeapon(StrEnum):
    """Melee weapons of 7.11.1."""

    NONE = "none"
    ONE_HAND = "one_hand"
    TWO_HAND = "two_hand"


class Status(StrEnum):
    """Status ranking 7.8, best to worst; compare with :attr:`rank`."""

    CARRY_ON = "carry_on"
    RETURN_FIRE = "return_fire"
    RUSH_SHOT = "rush_shot"
    OUTGUNNED = "outgunned"
    DUCK_BACK = "duck_back"
    LEAVE_THE_BATTLEFIELD = "leave_the_battlefield"
    MINUS_ONE_REP = "minus_one_rep"
    OUT_OF_THE_FIGHT = "out_of_the_fight"
    OBVIOUSLY_DEAD = "obviously_dead"

    @property
    def rank(self) -> int:
        """0 for Carry On up to 8 for Obviously Dead."""
        return _STATUS_ORDER.index(self)

    @property
    def can_act(self) -> bool:
        """Whether the figure is still on the table and able to act."""
        return self not in (
            Status.OUT_OF_THE_FIGHT,
            Status.OBVIOUSLY_DEAD,
            Status.LEAVE_THE_BATTLEFIELD,
        )

    @property
    def label(self) -> str:
        """The book's words (7.8): "Out of the Fight", "-1 to Rep"."""
        return _STATUS_LABELS[self]


_STATUS_ORDER = list(Status)
_STATUS_LABELS = {
    Status.CARRY_ON: "Carry On",
    Status.RETURN_FIRE: "Return Fire",
    Status.RUSH_SHOT: "Rush Shot",
    Status.OUTGUNNED: "Outgunned",
    Status.DUCK_BACK: "Duck Back",
    Status.LEAVE_THE_BATTLEFIELD: "Leave the Battlefield",
    Status.MINUS_ONE_REP: "-1 to Rep",
    Status.OUT_OF_THE_FIGHT: "Out of the Fight",
    Status.OBVIOUSLY_DEAD: "Obviously Dead",
}


class BandType(StrEnum):
    """Band types (6.1)."""

    GANGER = "ganger"
    GUERILLA = "guerilla"
    MILITIA = "militia"
    MILITARY = "military"
    POLICE = "police"


class EncounterType(StrEnum):
    """Encounter types (12), or free play."""

    PATROL = "patrol"
    RAID = "raid"
    DEFEND = "defend"
    FREE = "free"


# --------------------------------------------------------------------------
# Table and sections


@dataclass(frozen=True, slots=True)
class Table:
    """The playing surface: a W x H rectangle in inches, origin at the far-left corner.

    x grows to the right, y grows towards the player's edge, so section 1 is the
    far-left and section 9 the near-right as the player sees the table (digest 1).
    """

    width: float = 36.0
    height: float = 36.0

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ModelError(f"table size must be positive, got {self.width} x {self.height}")

    @property
    def bounds(self) -> Polygon:
        return Polygon([(0, 0), (self.width, 0), (self.width, self.height), (0, self.height)])

    def section_at(self, x: float, y: float) -> int | None:
        """The section number (1-9) holding the point, or None when it is off the table.

        Points on a section line belong to the higher-numbered section (right or
        nearer), except on the table's far-right and near edges.

        >>> Table(36, 36).section_at(1, 1), Table(36, 36).section_at(18, 18)
        (1, 5)
        >>> Table(48, 36).section_at(47.9, 35.9), Table(36, 36).section_at(-1, 0)
        (9, None)
        """
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            return None
        col = min(int(x * 3 // self.width), 2)
        row = min(int(y * 3 // self.height), 2)
        return row * 3 + col + 1

    def section_bounds(self, section: int) -> Polygon:
        """The rectangle of one section."""
        if not 1 <= section <= 9:
            raise ModelError(f"section must be 1..9, got {section}")
        row, col = divmod(section - 1, 3)
        w, h = self.width / 3, self.height / 3
        return Polygon(
            [
                (col * w, row * h),
                ((col + 1) * w, row * h),
                ((col + 1) * w, (row + 1) * h),
                (col * w, (row + 1) * h),
            ]
        )

    def section_centre(self, section: int) -> tuple[float, float]:
        c = self.section_bounds(section).centroid
        return (c.x, c.y)


# --------------------------------------------------------------------------
# Terrain


@dataclass(slots=True)
class Opening:
    """A door or window: a segment on the building outline (8.2)."""

    kind: OpeningKind
    start: tuple[float, float]
    end: tuple[float, float]

    @property
    def segment(self) -> LineString:
        return LineString([self.start, self.end])


@dataclass(slots=True, eq=False)
class TerrainFeature:
    """A piece of terrain with an outline.  Woods and impassable ground are plain features.

    Equality compares the outline coordinates exactly, so a feature that
    round-trips through a file compares equal only if nothing moved.
    """

    id: str
    kind: TerrainKind
    name: str
    outline: Polygon

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return all(_same(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    @property
    def blocks_movement(self) -> bool:
        return self.kind is TerrainKind.IMPASSABLE

    @property
    def is_woods(self) -> bool:
        return self.kind in (TerrainKind.WOODS, TerrainKind.WOODED_HILL)


@dataclass(slots=True, eq=False)
class Hill(TerrainFeature):
    """A hill (or wooded hill): footprint plus a crest polyline (9.4)."""

    crest: LineString = field(default_factory=lambda: LineString())


@dataclass(slots=True, eq=False)
class Building(TerrainFeature):
    """A building: outline split into areas, a number of floors, doors and windows (8)."""

    floors: int = 1
    areas: list[Polygon] = field(default_factory=list)
    openings: list[Opening] = field(default_factory=list)

    def __post_init__(self) -> None:
        # a building is at least one area (8.1); the file format insists on one, so a
        # building made without areas must not become a file that cannot be opened
        if not self.areas:
            self.areas = [self.outline]


@dataclass(slots=True, eq=False)
class CoverObstacle(TerrainFeature):
    """A wall, rubble, a vehicle or anything the players designate as Cover (7.9.5)."""

    cover_type: CoverType = CoverType.WALL


def _same(a: Any, b: Any) -> bool:
    """Exact equality that understands shapely geometries (coordinates, in order)."""
    if isinstance(a, Polygon | LineString | Point):
        return bool(type(a) is type(b) and a.equals_exact(b, 0.0))
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


# --------------------------------------------------------------------------
# Figures and forces


@dataclass(slots=True)
class Figure:
    """One figure on the table (5): who it is, its weapons, where it stands, and its state."""

    id: str
    name: str
    rep: int
    role: Role = Role.GRUNT
    weapon: WeaponCode = WeaponCode.AR
    melee: MeleeWeapon = MeleeWeapon.NONE
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    """Degrees; 0 points to the far edge (-y), 90 to the right (+x), clockwise."""
    base: float = 1.0
    """Base diameter in inches."""
    status: Status = Status.CARRY_ON
    star_power: int | None = None
    """Star Power dice left this encounter (5.2); None until the encounter sets them."""
    out_of_ammo: bool = False
    prone: bool = False
    fast_moving: bool = False
    side: str = ""
    """The id of the force the figure belongs to; set by its :class:`Force`."""

    @property
    def is_star(self) -> bool:
        return self.role is Role.STAR

    @property
    def position(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def radius(self) -> float:
        return self.base / 2

    def footprint(self) -> Polygon:
        """The base as a polygon (a circle approximated by 32 segments)."""
        return Point(self.x, self.y).buffer(self.radius, quad_segs=8)

    def facing_vector(self) -> tuple[float, float]:
        """Unit vector of the facing, in table coordinates (y towards the player)."""
        rad = math.radians(self.facing)
        return (math.sin(rad), -math.cos(rad))


@dataclass(slots=True)
class Force:
    """One side's force (6.1): a band type, whether the player runs it, and its figures."""

    id: str
    name: str
    band: BandType = BandType.MILITARY
    player: bool = False
    colour: str = "#1f5fbf"
    figures: list[Figure] = field(default_factory=list)

    def __post_init__(self) -> None:
        for fig in self.figures:
            fig.side = self.id


@dataclass(slots=True)
class Encounter:
    """Encounter settings (12): Patrol, Raid, Defend or free play."""

    type: EncounterType = EncounterType.FREE
    enemy_band: BandType | None = None
    pef_count: int = 3


# --------------------------------------------------------------------------
# Battlefield


class Battlefield(Subject):
    """The table with its terrain and the forces on it.

    All edits go through methods that validate, bump :attr:`revision` and emit one
    :class:`Change`.  Ids are stable: a feature keeps its id through every edit.
    """

    def __init__(
        self,
        table: Table | None = None,
        terrain: list[TerrainFeature] | None = None,
        forces: list[Force] | None = None,
    ) -> None:
        super().__init__()
        self.table = table or Table()
        self._terrain: dict[str, TerrainFeature] = {}
        self._forces: dict[str, Force] = {}
        self._figures: dict[str, Figure] = {}
        self.revision = 0
        """Bumped on every change; caches key on it."""
        self.terrain_revision = 0
        """Bumped only when terrain changes, so terrain indexes survive figure moves."""
        for feature in terrain or []:
            self._insert_feature(feature, None)
        for force in forces or []:
            self._insert_force(force)

    # -- queries ----------------------------------------------------------

    @property
    def terrain(self) -> list[TerrainFeature]:
        """Terrain features in drawing order (first is lowest)."""
        return list(self._terrain.values())

    @property
    def forces(self) -> list[Force]:
        return list(self._forces.values())

    def figures(self) -> Iterator[Figure]:
        """Every figure of every force, in roster order."""
        for force in self._forces.values():
            yield from force.figures

    def figure_ids(self) -> list[str]:
        """The ids of :meth:`figures` (a plain list: caches compare it on every mouse move)."""
        return [f.id for force in self._forces.values() for f in force.figures]

    def feature(self, feature_id: str) -> TerrainFeature:
        try:
            return self._terrain[feature_id]
        except KeyError:
            raise ModelError(f"no terrain feature with id {feature_id!r}") from None

    def figure(self, figure_id: str) -> Figure:
        try:
            return self._figures[figure_id]
        except KeyError:
            raise ModelError(f"no figure with id {figure_id!r}") from None

    def force(self, force_id: str) -> Force:
        try:
            return self._forces[force_id]
        except KeyError:
            raise ModelError(f"no force with id {force_id!r}") from None

    def player_force(self) -> Force | None:
        return next((f for f in self._forces.values() if f.player), None)

    def section_at(self, x: float, y: float) -> int | None:
        return self.table.section_at(x, y)

    def features_at(self, x: float, y: float) -> list[TerrainFeature]:
        """Features whose outline holds the point, topmost first."""
        p = Point(x, y)
        return [f for f in reversed(self._terrain.values()) if f.outline.intersects(p)]

    def new_id(self, prefix: str) -> str:
        """A fresh id such as ``woods-3`` that no feature, force or figure uses."""
        used = self._terrain.keys() | self._forces.keys() | self._figures.keys()
        for n in itertools.count(1):
            candidate = f"{prefix}-{n}"
            if candidate not in used:
                return candidate
        raise AssertionError("unreachable")

    # -- terrain edits ----------------------------------------------------

    def add_feature(self, feature: TerrainFeature, index: int | None = None) -> Change:
        """Add a feature (at a drawing-order index, default on top)."""
        self._insert_feature(feature, index)
        return self._changed(ChangeKind.ADDED, "feature", feature.id, terrain=True)

    def remove_feature(self, feature_id: str) -> tuple[TerrainFeature, int]:
        """Remove a feature; returns it and its drawing-order index for undo."""
        feature = self.feature(feature_id)
        index = list(self._terrain).index(feature_id)
        del self._terrain[feature_id]
        self._changed(ChangeKind.REMOVED, "feature", feature_id, terrain=True)
        return feature, index

    def update_feature(self, feature_id: str, **values: Any) -> Change:
        """Set attributes of a feature (outline, name, crest, floors, ...)."""
        feature = self.feature(feature_id)
        allowed = {f.name for f in fields(feature)} - {"id", "kind"}
        for key, value in values.items():
            if key not in allowed:
                raise ModelError(f"{feature.kind.label} has no property {key!r}")
            setattr(feature, key, value)
        return self._changed(ChangeKind.CHANGED, "feature", feature_id, terrain=True)

    def move_feature(self, feature_id: str, dx: float, dy: float) -> Change:
        """Shift a feature and everything drawn on it (crest, areas, openings)."""
        return self.update_feature(feature_id, **translated(self.feature(feature_id), dx, dy))

    def replace_terrain(self, table: Table, terrain: list[TerrainFeature]) -> Change:
        """Swap the table and all its terrain at once (a generated or reset map).

        Announced as one RESET change, so views rebuild once instead of per feature.
        """
        old_table, old_terrain = self.table, self._terrain
        self.table, self._terrain = table, {}
        try:
            for feature in terrain:
                self._insert_feature(feature, None)
        except ModelError:
            self.table, self._terrain = old_table, old_terrain
            raise
        return self._changed(ChangeKind.RESET, "battlefield", "", terrain=True)

    # -- forces and figures -----------------------------------------------

    def add_force(self, force: Force) -> Change:
        self._insert_force(force)
        return self._changed(ChangeKind.ADDED, "force", force.id)

    def add_figure(self, force_id: str, figure: Figure, index: int | None = None) -> Change:
        """Add a figure to a force's roster (at an index, default last)."""
        force = self.force(force_id)
        self._check_new_id(figure.id)
        _check_rep(figure.rep)
        figure.side = force_id
        if index is None:
            force.figures.append(figure)
        else:
            force.figures.insert(index, figure)
        self._figures[figure.id] = figure
        return self._changed(ChangeKind.ADDED, "figure", figure.id)

    def remove_figure(self, figure_id: str) -> tuple[Figure, int]:
        """Remove a figure; returns it and its roster index for undo."""
        figure = self.figure(figure_id)
        force = self._forces[figure.side]
        index = force.figures.index(figure)
        del force.figures[index]
        del self._figures[figure_id]
        self._changed(ChangeKind.REMOVED, "figure", figure_id)
        return figure, index

    def transfer_figure(
        self, figure_id: str, force_id: str, index: int | None = None
    ) -> tuple[str, int]:
        """Move a figure to another force's roster (at an index, default last).

        One CHANGED event, so views keep the figure (and its selection) and only
        restyle it.  Returns the old force id and roster index, for undo.
        """
        figure = self.figure(figure_id)
        target = self.force(force_id)
        source = self._forces[figure.side]
        old = (source.id, source.figures.index(figure))
        source.figures.remove(figure)
        if index is None:
            target.figures.append(figure)
        else:
            target.figures.insert(index, figure)
        figure.side = target.id
        self._changed(ChangeKind.CHANGED, "figure", figure_id)
        return old

    def move_figure(
        self, figure_id: str, x: float, y: float, facing: float | None = None
    ) -> Change:
        """Place a figure (and optionally turn it); facing is kept in [0, 360)."""
        figure = self.figure(figure_id)
        figure.x, figure.y = float(x), float(y)
        if facing is not None:
            figure.facing = float(facing) % 360.0
        return self._changed(ChangeKind.CHANGED, "figure", figure_id)

    def update_figure(self, figure_id: str, **values: Any) -> Change:
        """Set attributes of a figure (name, rep, weapon, status, ...)."""
        figure = self.figure(figure_id)
        allowed = {f.name for f in fields(figure)} - {"id", "side"}
        for key, value in values.items():
            if key not in allowed:
                raise ModelError(f"a figure has no property {key!r}")
            if key == "rep":
                _check_rep(value)
            setattr(figure, key, value)
        return self._changed(ChangeKind.CHANGED, "figure", figure_id)

    # -- internals ----------------------------------------------------------

    def _check_new_id(self, new_id: str) -> None:
        if not new_id:
            raise ModelError("ids must not be empty")
        if new_id in self._terrain or new_id in self._forces or new_id in self._figures:
            raise ModelError(f"the id {new_id!r} is already used")

    def _insert_feature(self, feature: TerrainFeature, index: int | None) -> None:
        self._check_new_id(feature.id)
        if index is None or index >= len(self._terrain):
            self._terrain[feature.id] = feature
            return
        items = list(self._terrain.items())
        items.insert(index, (feature.id, feature))
        self._terrain = dict(items)

    def _insert_force(self, force: Force) -> None:
        self._check_new_id(force.id)
        for fig in force.figures:
            self._check_new_id(fig.id)
            if fig.id in {f.id for f in force.figures if f is not fig}:
                raise ModelError(f"the id {fig.id!r} is already used")
            _check_rep(fig.rep)
        self._forces[force.id] = force
        for fig in force.figures:
            fig.side = force.id
            self._figures[fig.id] = fig

    def _changed(self, kind: ChangeKind, what: str, item_id: str, terrain: bool = False) -> Change:
        self.revision += 1
        if terrain:
            self.terrain_revision += 1
        change = Change(kind=kind, what=what, id=item_id, revision=self.revision)
        self.notify(change)
        return change


def translated(feature: TerrainFeature, dx: float, dy: float) -> dict[str, Any]:
    """New geometry values for a feature shifted by (dx, dy): outline, crest, areas, openings."""
    values: dict[str, Any] = {"outline": translate(feature.outline, dx, dy)}
    if isinstance(feature, Hill):
        values["crest"] = translate(feature.crest, dx, dy)
    if isinstance(feature, Building):
        values["areas"] = [translate(a, dx, dy) for a in feature.areas]
        values["openings"] = [
            Opening(o.kind, (o.start[0] + dx, o.start[1] + dy), (o.end[0] + dx, o.end[1] + dy))
            for o in feature.openings
        ]
    return values


def _check_rep(rep: Any) -> None:
    if isinstance(rep, bool) or not isinstance(rep, int) or not REP_MIN <= rep <= REP_MAX:
        raise ModelError(f"Rep must be an integer {REP_MIN}..{REP_MAX}, got {rep!r}")


# --------------------------------------------------------------------------
# Scenario


@dataclass(slots=True)
class GenerationRecord:
    """How a generated table was made (9.2-9.5): the seed, inputs and every roll."""

    seed: int
    inputs: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class Scenario:
    """Everything a scenario file holds: the battlefield, rules settings and encounter."""

    battlefield: Battlefield
    rules: RulesOptions = field(default_factory=RulesOptions)
    encounter: Encounter = field(default_factory=Encounter)
    title: str = "Untitled"
    description: str = ""
    generation: GenerationRecord | None = None

    @property
    def table(self) -> Table:
        return self.battlefield.table
