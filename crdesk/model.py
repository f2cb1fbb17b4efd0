"""The battlefield model: table, nine sections, terrain, forces and figures.

Everything is in inches (digest 1).  Terrain outlines are shapely polygons.
The model is mutable for the editor, but only through its methods: each
mutation bumps :attr:`Battlefield.revision` and announces a
:class:`~crdesk.events.Change` to observers, so the GUI and the geometry caches
refresh exactly what changed (the Anki pattern: core calls return what changed).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum, StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import shapely
from shapely.affinity import translate
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind, Subject
from crdesk.options import RulesOptions

if TYPE_CHECKING:  # the cards module imports this one
    from crdesk.rules.firearms.cards import WeaponCard

REP_MIN = 2
"""Rep never drops below 2 between encounters (5)."""
REP_MAX = 20
"""The book sets no maximum (5, 13.2): a Rep 9 that gains a point goes on to 10.

20 is the rules engine's own bound (:func:`crdesk.rules.common.check_rep`): past
Rep 6 a figure climbs only on a rolled 6, so play never reaches it; it only
catches typos and keeps dice pools finite."""


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


_GONE_VALUES = frozenset({"out_of_the_fight", "obviously_dead", "leave_the_battlefield"})
"""The statuses of figures no longer able to act (:attr:`Status.can_act`)."""


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
        return self._value_ not in _GONE_VALUES  # asked some 20,000 times a game

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


class EncounterResult(StrEnum):
    """How an encounter ended for the player's Band (12), as the Band's record keeps it.

    ``NOT_WON`` is an encounter the turn limit ended before its objective was achieved:
    nobody won, and the campaign goes on as after a loss (12).
    """

    WON = "won"
    LOST = "lost"
    DRAW = "draw"
    NOT_WON = "not won"


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
    """One figure on the table (5): who it is, its weapons, where it stands, and its state.

    The fields are plain attributes so that files, tests and rules code can build
    figures freely, but a figure on a :class:`Battlefield` must only be changed
    through the battlefield's methods (:meth:`~Battlefield.update_figure`,
    :meth:`~Battlefield.update_figures`, :meth:`~Battlefield.move_figure`,
    :meth:`~Battlefield.transfer_figure`, :meth:`~Battlefield.restore`): they
    check and coerce each value, bump the revision and announce the change.  A
    game must never write ``figure.status = ...`` directly -- the visibility and
    cohesion caches would not hear of it, and nothing would check the value.

    The facing is kept in [0, 360) from construction on.
    """

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
    weapon_card: str = ""
    """The scenario's user weapon the figure carries (Firearms Detail, FD §2), by name;
    "" for its category's default card.  The card counts as ``weapon``."""
    side: str = ""
    """The id of the force the figure belongs to; set by its :class:`Force`."""

    def __post_init__(self) -> None:
        facing = self.facing
        if isinstance(facing, numbers.Real) and not isinstance(facing, bool):
            number = float(facing)
            if math.isfinite(number):
                self.facing = _normal_facing(number)

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
# Checked figure values

FIGURE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Figure))
"""Every field of a :class:`Figure`, in declaration order (the order of snapshot values)."""

_figure_values = attrgetter(*FIGURE_FIELDS)
"""A figure's field values as a tuple in :data:`FIGURE_FIELDS` order."""

Coercer = Callable[[str, Any], Any]


def _normal_facing(facing: float) -> float:
    """An angle in degrees brought into [0, 360) (never -0.0, never 360.0)."""
    turned = facing % 360.0
    if turned >= 360.0:  # a tiny negative angle rounds up to a full turn
        turned = 0.0
    return turned + 0.0


def normal_facing(facing: float) -> float:
    """The facing a figure stores when turned to ``facing`` degrees."""
    return _normal_facing(facing)


def _real(name: str, value: Any) -> float:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number):
            return number
    raise ModelError(f"{name} must be a finite number, got {value!r}")


def _positive(name: str, value: Any) -> float:
    number = _real(name, value)
    if number <= 0:
        raise ModelError(f"{name} must be a positive number, got {value!r}")
    return number


def _facing(name: str, value: Any) -> float:
    return _normal_facing(_real(name, value))


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ModelError(f"{name} must be True or False, got {value!r}")


def _star_power(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return int(value)
    raise ModelError(f"{name} must be None or a whole number of 0 or more, got {value!r}")


def _rep(name: str, value: Any) -> int:
    _check_rep(value)
    return int(value)


WEAPON_CARD_CHARS = 64
"""The longest weapon card name (``crdesk.rules.firearms.cards.NAME_CHARS``)."""


def _weapon_card(name: str, value: Any) -> str:
    if isinstance(value, str) and len(value) <= WEAPON_CARD_CHARS:
        return value
    raise ModelError(
        f"{name} must be a weapon name of at most {WEAPON_CARD_CHARS} characters "
        f"(or empty), got {value!r}"
    )


def _name(name: str, value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise ModelError(f"{name} must be a non-empty text, got {value!r}")


def _enum_field(kind: type[StrEnum]) -> Coercer:
    choices = ", ".join(member.value for member in kind)

    def coerce(name: str, value: Any) -> StrEnum:
        if isinstance(value, kind):
            return value
        if type(value) is str:  # the exact value text; a member of another enum is refused
            try:
                return kind(value)
            except ValueError:
                pass
        raise ModelError(f"{name} must be one of {choices}, got {value!r}")

    return coerce


_FIGURE_COERCERS: dict[str, Coercer] = {
    "name": _name,
    "rep": _rep,
    "role": _enum_field(Role),
    "weapon": _enum_field(WeaponCode),
    "melee": _enum_field(MeleeWeapon),
    "x": _real,
    "y": _real,
    "facing": _facing,
    "base": _positive,
    "status": _enum_field(Status),
    "star_power": _star_power,
    "out_of_ammo": _flag,
    "prone": _flag,
    "fast_moving": _flag,
    "weapon_card": _weapon_card,
}
"""How each editable figure field is checked and coerced (``id`` and ``side`` are the
model's own)."""
assert set(_FIGURE_COERCERS) == set(FIGURE_FIELDS) - {"id", "side"}

_band = _enum_field(BandType)


def checked_figure_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Figure field values checked and coerced: enums from their value text, numbers as
    finite floats, the facing in [0, 360).  Raises :class:`ModelError` naming the field
    and the bad value, or an unknown field."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        coerce = _FIGURE_COERCERS.get(key)
        if coerce is None:
            raise ModelError(f"a figure has no property {key!r}")
        out[key] = coerce(key, value)
    return out


def _checked_figure(figure: Figure, *, unnamed_is_id: bool = False) -> dict[str, Any]:
    """All editable values of a figure about to join a battlefield, checked."""
    if not isinstance(figure.id, str):
        raise ModelError(f"a figure id must be a text, got {figure.id!r}")
    values = {name: getattr(figure, name) for name in _FIGURE_COERCERS}
    if unnamed_is_id and values["name"] == "":
        values["name"] = figure.id  # as a file does for a figure without a name
    try:
        return checked_figure_values(values)
    except ModelError as exc:
        raise ModelError(f"figure {figure.id!r}: {exc}") from None


def _assign(target: Any, values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Set checked values; returns the old and new values of the fields that changed."""
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    for key, value in values.items():
        before = getattr(target, key)
        setattr(target, key, value)
        if not _same(before, value):
            old[key] = before
            new[key] = value
    return old, new


# --------------------------------------------------------------------------
# Results and snapshots


class RemovedFigure(NamedTuple):
    """What :meth:`Battlefield.remove_figure` took away, for undo."""

    figure: Figure
    index: int  # type: ignore[assignment]  # a field, not tuple.index
    """Its place in its force's roster."""


class RemovedFeature(NamedTuple):
    """What :meth:`Battlefield.remove_feature` took away, for undo."""

    feature: TerrainFeature
    index: int  # type: ignore[assignment]  # a field, not tuple.index
    """Its place in the drawing order."""


class Transferred(NamedTuple):
    """Where :meth:`Battlefield.transfer_figure` took a figure from, for undo."""

    force_id: str
    index: int  # type: ignore[assignment]  # a field, not tuple.index


@dataclass(frozen=True, slots=True)
class ForceState:
    """One force in a :class:`BattlefieldSnapshot`: its fields and its roster, by value."""

    id: str
    name: str
    band: BandType
    player: bool
    colour: str
    figures: tuple[tuple[Any, ...], ...]
    """Each figure's values in :data:`FIGURE_FIELDS` order, in roster order."""

    def figure(self, figure_id: str) -> dict[str, Any] | None:
        """One figure's values by field name, or None when it is not in this roster."""
        for values in self.figures:
            if values[0] == figure_id:
                return dict(zip(FIGURE_FIELDS, values, strict=True))
        return None


@dataclass(frozen=True, slots=True)
class BattlefieldSnapshot:
    """Everything about a battlefield that a game changes, by value (immutable, hashable).

    The terrain is not copied: the snapshot names the terrain it belongs to, and
    :meth:`Battlefield.restore` refuses it once the terrain has changed.  Equal
    states give equal snapshots (``revision`` is not compared).
    """

    forces: tuple[ForceState, ...]
    """Forces in order, each with its roster."""
    terrain_revision: int
    revision: int = field(compare=False)
    """The battlefield's revision when the snapshot was taken."""
    terrain_token: object = field(compare=False, repr=False)
    """Which terrain this is: shared by a battlefield and its :meth:`~Battlefield.copy`
    until either changes its terrain."""


# --------------------------------------------------------------------------
# Canonical state


def _rounded(value: float) -> float:
    return round(value, 6) + 0.0  # + 0.0: no -0.0 in canonical data


def _coords(geometry: BaseGeometry) -> list[list[float]]:
    points = np.round(shapely.get_coordinates(geometry), 6) + 0.0
    result: list[list[float]] = points.tolist()
    return result


def _canonical(value: Any) -> Any:
    """Plain JSON data for a model value: enums as their value, floats to 1e-6, shapes as
    coordinate lists, dataclasses as objects of their fields (named by their class)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return _rounded(value)
    if isinstance(value, Polygon):
        return {
            "exterior": _coords(value.exterior),
            "interiors": [_coords(ring) for ring in value.interiors],
        }
    if isinstance(value, LineString | Point):
        return _coords(value)
    if isinstance(value, BaseGeometry):
        return {"wkt": shapely.to_wkt(value, rounding_precision=6)}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        out = {f.name: _canonical(getattr(value, f.name)) for f in fields(value)}
        out["class"] = type(value).__name__
        return out
    if isinstance(value, numbers.Real):
        return _rounded(float(value))
    raise TypeError(f"no canonical form for {value!r}")


def _canonical_figure(figure: Figure) -> dict[str, Any]:
    out = {
        name: _canonical(value)
        for name, value in zip(FIGURE_FIELDS, _figure_values(figure), strict=True)
    }
    if out["facing"] == 360.0:  # 359.9999999 rounds to a full turn
        out["facing"] = 0.0
    if not out["weapon_card"]:  # as before cards existed: saved games' hashes still match
        del out["weapon_card"]
    return out


# --------------------------------------------------------------------------
# Battlefield


class Battlefield(Subject):
    """The table with its terrain and the forces on it.

    All edits go through methods that validate, bump :attr:`revision` and emit one
    :class:`Change`.  Ids are stable: a feature keeps its id through every edit.

    For games: :meth:`snapshot` and :meth:`restore` undo any number of steps,
    :meth:`copy` forks an independent battlefield (sharing the terrain) for
    look-ahead, and :meth:`state_hash` tells equal states apart from different
    ones.  The terrain must not change during a game.
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
        """Bumped on every change; caches key on it.  It never goes back, not even on
        :meth:`restore`, so one revision always means one state."""
        self.terrain_revision = 0
        """Bumped only when terrain changes, so terrain indexes survive figure moves."""
        self._terrain_token = object()
        """Replaced on every terrain change; shared with copies while the terrain is."""
        self._digest: tuple[object, str] | None = None
        for feature in terrain or []:
            self._insert_feature(feature, None)
        for force in forces or []:
            self._insert_force(force, unnamed_is_id=True)

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

    # -- game state: snapshots, copies, canonical state ----------------------

    def snapshot(self) -> BattlefieldSnapshot:
        """The forces and figures by value, cheaply (the terrain is named, not copied)."""
        return BattlefieldSnapshot(
            forces=tuple(
                ForceState(
                    force.id,
                    force.name,
                    force.band,
                    force.player,
                    force.colour,
                    tuple(map(_figure_values, force.figures)),
                )
                for force in self._forces.values()
            ),
            terrain_revision=self.terrain_revision,
            revision=self.revision,
            terrain_token=self._terrain_token,
        )

    def restore(self, snapshot: BattlefieldSnapshot) -> Change:
        """Put the forces and figures back as ``snapshot`` holds them, as one change.

        When the rosters are as they were (same forces, same figures in the same
        order), the change is a batch CHANGED of ``"figures"`` naming the figures
        whose values differ, so services update just those; otherwise it is a
        RESET of ``"figures"``.  Figure and force objects that still exist are
        kept (and set back); the revision moves on, as for any edit.  A snapshot
        of other terrain -- taken before a terrain edit, or of a battlefield that
        is not this one or a copy of it -- is refused with a :class:`ModelError`.
        """
        if snapshot.terrain_revision != self.terrain_revision:
            raise ModelError(
                f"the snapshot is of terrain revision {snapshot.terrain_revision}, the "
                f"battlefield's terrain is at revision {self.terrain_revision}"
            )
        if snapshot.terrain_token is not self._terrain_token:
            raise ModelError("the snapshot is of other terrain (another battlefield's)")
        forces = list(self._forces.values())
        if len(forces) == len(snapshot.forces) and all(map(_same_roster, forces, snapshot.forces)):
            plan = [
                (figure, dict(zip(FIGURE_FIELDS, values, strict=True)))
                for force, state in zip(forces, snapshot.forces, strict=True)
                for figure, values in zip(force.figures, state.figures, strict=True)
                if _figure_values(figure) != values
            ]
            return self._figures_changed(plan)
        known = self._figures
        rebuilt: dict[str, Force] = {}
        figures: dict[str, Figure] = {}
        for state in snapshot.forces:
            roster: list[Figure] = []
            for values in state.figures:
                existing = known.get(values[0])
                if existing is None:
                    figure = Figure(*values)
                else:
                    figure = existing
                    for name, value in zip(FIGURE_FIELDS, values, strict=True):
                        setattr(figure, name, value)
                roster.append(figure)
                figures[figure.id] = figure
            kept = self._forces.get(state.id)
            if kept is None:
                force = Force(state.id, state.name, state.band, state.player, state.colour)
            else:
                force = kept
                force.name, force.band = state.name, state.band
                force.player, force.colour = state.player, state.colour
            force.figures[:] = roster
            rebuilt[state.id] = force
        self._forces, self._figures = rebuilt, figures
        return self._changed(ChangeKind.RESET, "figures", "")

    def copy(self) -> Battlefield:
        """An independent battlefield with the same state and no listeners.

        Forces and figures are copied; the table and the terrain feature objects
        are shared (a terrain edit on either side copies the feature it edits
        first, so the other never sees it).  Revisions are kept, and snapshots of
        the one can be restored on the other while neither changes its terrain.
        """
        cls = type(self)
        twin = cls.__new__(cls)
        twin.__dict__.update(self.__dict__)
        twin._listeners = []
        twin._terrain = dict(self._terrain)
        twin._forces = {}
        twin._figures = {}
        for force in self._forces.values():
            roster = [Figure(*_figure_values(f)) for f in force.figures]
            twin._forces[force.id] = Force(
                force.id, force.name, force.band, force.player, force.colour, roster
            )
            for figure in roster:
                twin._figures[figure.id] = figure
        return twin

    def terrain_digest(self) -> str:
        """SHA-256 (hex) of the terrain features' canonical data, in drawing order.

        Computed once per terrain revision and remembered.
        """
        token = self._terrain_token
        if self._digest is None or self._digest[0] is not token:
            data = [_canonical(feature) for feature in self._terrain.values()]
            text = json.dumps(data, sort_keys=True, separators=(",", ":"))
            self._digest = (token, hashlib.sha256(text.encode("utf-8")).hexdigest())
        return self._digest[1]

    def state_document(self) -> dict[str, Any]:
        """The battlefield's state as plain JSON data: the table size, the terrain digest,
        and every force and figure with every field (enums as their values, floats
        rounded to 1e-6).  No revisions, no scenario texts: equal states give equal
        documents."""
        return {
            "table": {"width": _rounded(self.table.width), "height": _rounded(self.table.height)},
            "terrain_digest": self.terrain_digest(),
            "forces": [
                {
                    "id": force.id,
                    "name": force.name,
                    "band": _canonical(force.band),
                    "player": force.player,
                    "colour": force.colour,
                    "figures": [_canonical_figure(f) for f in force.figures],
                }
                for force in self._forces.values()
            ],
        }

    def state_hash(self) -> str:
        """SHA-256 (hex) of :meth:`state_document` as sorted, compact JSON."""
        text = json.dumps(self.state_document(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    # -- terrain edits ----------------------------------------------------

    def add_feature(self, feature: TerrainFeature, index: int | None = None) -> Change:
        """Add a feature (at a drawing-order index, default on top)."""
        self._insert_feature(feature, index)
        return self._changed(ChangeKind.ADDED, "feature", feature.id, terrain=True)

    def remove_feature(self, feature_id: str) -> RemovedFeature:
        """Remove a feature; returns it and its drawing-order index for undo."""
        feature = self.feature(feature_id)
        index = list(self._terrain).index(feature_id)
        del self._terrain[feature_id]
        self._changed(ChangeKind.REMOVED, "feature", feature_id, terrain=True)
        return RemovedFeature(feature, index)

    def update_feature(self, feature_id: str, **values: Any) -> Change:
        """Set attributes of a feature (outline, name, crest, floors, ...)."""
        feature = self.feature(feature_id)
        allowed = {f.name for f in fields(feature)} - {"id", "kind"}
        for key in values:
            if key not in allowed:
                raise ModelError(f"{feature.kind.label} has no property {key!r}")
        # never in place: copies, snapshots and undo commands hold the feature objects they
        # saw, and each must keep the value it had (a command's redo puts it back down)
        feature = copy.copy(feature)
        self._terrain[feature_id] = feature
        old, new = _assign(feature, values)
        return self._changed(
            ChangeKind.CHANGED,
            "feature",
            feature_id,
            terrain=True,
            fields=tuple(new),
            old=old,
            new=new,
        )

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
        """Add a force with its figures (each checked as :meth:`add_figure` does)."""
        self._insert_force(force)
        return self._changed(ChangeKind.ADDED, "force", force.id)

    def add_figure(self, force_id: str, figure: Figure, index: int | None = None) -> Change:
        """Add a figure to a force's roster (at an index, default last).

        Every field is checked and coerced as :meth:`update_figure` does; a bad
        one raises :class:`ModelError` and leaves the battlefield as it was.
        """
        force = self.force(force_id)
        self._check_new_id(figure.id)
        values = _checked_figure(figure)
        for key, value in values.items():
            setattr(figure, key, value)
        figure.side = force_id
        if index is None:
            force.figures.append(figure)
        else:
            force.figures.insert(index, figure)
        self._figures[figure.id] = figure
        return self._changed(ChangeKind.ADDED, "figure", figure.id)

    def remove_figure(self, figure_id: str) -> RemovedFigure:
        """Remove a figure; returns it and its roster index for undo."""
        figure = self.figure(figure_id)
        force = self._forces[figure.side]
        index = force.figures.index(figure)
        del force.figures[index]
        del self._figures[figure_id]
        self._changed(ChangeKind.REMOVED, "figure", figure_id)
        return RemovedFigure(figure, index)

    def transfer_figure(
        self, figure_id: str, force_id: str, index: int | None = None
    ) -> Transferred:
        """Move a figure to another force's roster (at an index, default last).

        One CHANGED event, so views keep the figure (and its selection) and only
        restyle it.  Returns the old force id and roster index, for undo.
        """
        figure = self.figure(figure_id)
        target = self.force(force_id)
        source = self._forces[figure.side]
        old = Transferred(source.id, source.figures.index(figure))
        source.figures.remove(figure)
        if index is None:
            target.figures.append(figure)
        else:
            target.figures.insert(index, figure)
        figure.side = target.id
        if old.force_id == target.id:
            self._changed(ChangeKind.CHANGED, "figure", figure_id, old={}, new={})
        else:
            self._changed(
                ChangeKind.CHANGED,
                "figure",
                figure_id,
                fields=("side",),
                old={"side": old.force_id},
                new={"side": target.id},
            )
        return old

    def move_figure(
        self, figure_id: str, x: float, y: float, facing: float | None = None
    ) -> Change:
        """Place a figure (and optionally turn it); facing is kept in [0, 360)."""
        figure = self.figure(figure_id)
        values = {"x": _real("x", x), "y": _real("y", y)}
        if facing is not None:
            values["facing"] = _facing("facing", facing)
        old, new = _assign(figure, values)
        return self._changed(
            ChangeKind.CHANGED, "figure", figure_id, fields=tuple(new), old=old, new=new
        )

    def update_figure(self, figure_id: str, **values: Any) -> Change:
        """Set fields of a figure (name, rep, weapon, status, ...), all or none.

        Each value is checked and coerced: an enum field takes the enum or its
        exact value text (``"duck_back"``) and stores the enum; x, y, facing and
        base take finite real numbers (not bools) and store floats, the facing
        turned into [0, 360) and the base positive; prone, out_of_ammo and
        fast_moving take bools; star_power None or a whole number of 0 or more;
        the name a non-empty text; Rep a whole number 2..REP_MAX (20).  Anything else raises
        :class:`ModelError` naming the field and the value, and changes nothing.
        """
        figure = self.figure(figure_id)
        old, new = _assign(figure, checked_figure_values(values))
        return self._changed(
            ChangeKind.CHANGED, "figure", figure_id, fields=tuple(new), old=old, new=new
        )

    def update_figures(self, changes: Mapping[str, Mapping[str, Any]]) -> Change:
        """Set fields of several figures at once, all or none, as ONE change.

        ``changes`` maps figure ids to field values, checked as
        :meth:`update_figure` does.  The change is a CHANGED of ``"figures"``
        whose ``ids`` are the figures that changed, with ``old`` and ``new``
        mapping each of them to its changed fields' values.
        """
        plan = [
            (self.figure(figure_id), checked_figure_values(values))
            for figure_id, values in changes.items()
        ]
        return self._figures_changed(plan)

    def _figures_changed(self, plan: Iterable[tuple[Figure, Mapping[str, Any]]]) -> Change:
        """Set checked values on several figures; one batch Change names what changed."""
        olds: dict[str, Any] = {}
        news: dict[str, Any] = {}
        names: dict[str, None] = {}
        for figure, values in plan:
            old, new = _assign(figure, values)
            if new:
                olds[figure.id], news[figure.id] = old, new
                names.update(dict.fromkeys(new))
        return self._changed(
            ChangeKind.CHANGED,
            "figures",
            "",
            fields=tuple(names),
            old=olds,
            new=news,
            ids=tuple(news),
        )

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

    def _insert_force(self, force: Force, *, unnamed_is_id: bool = False) -> None:
        """Check a force and all its figures, then take them in (all or none)."""
        self._check_new_id(force.id)
        band = _band("band", force.band)
        player = _flag("player", force.player)
        seen: set[str] = set()
        checked: list[dict[str, Any]] = []
        for fig in force.figures:
            self._check_new_id(fig.id)
            if fig.id in seen:
                raise ModelError(f"the id {fig.id!r} is already used")
            seen.add(fig.id)
            checked.append(_checked_figure(fig, unnamed_is_id=unnamed_is_id))
        force.band, force.player = band, player
        self._forces[force.id] = force
        for fig, values in zip(force.figures, checked, strict=True):
            for key, value in values.items():
                setattr(fig, key, value)
            fig.side = force.id
            self._figures[fig.id] = fig

    def _changed(
        self,
        kind: ChangeKind,
        what: str,
        item_id: str,
        terrain: bool = False,
        *,
        fields: tuple[str, ...] = (),
        old: Mapping[str, Any] | None = None,
        new: Mapping[str, Any] | None = None,
        ids: tuple[str, ...] = (),
    ) -> Change:
        self.revision += 1
        if terrain:
            self.terrain_revision += 1
            self._terrain_token = object()
        change = Change(
            kind=kind,
            what=what,
            id=item_id,
            revision=self.revision,
            fields=fields,
            old=_frozen(old, nested=bool(ids)),
            new=_frozen(new, nested=bool(ids)),
            ids=ids,
        )
        self.notify(change)
        return change


def _same_roster(force: Force, state: ForceState) -> bool:
    """Whether a force has the fields and the roster (ids, in order) it has in a snapshot."""
    return (
        force.id == state.id
        and force.name == state.name
        and force.band == state.band
        and force.player == state.player
        and force.colour == state.colour
        and len(force.figures) == len(state.figures)
        and all(f.id == v[0] for f, v in zip(force.figures, state.figures, strict=True))
    )


def _frozen(values: Mapping[str, Any] | None, nested: bool) -> Mapping[str, Any] | None:
    if values is None:
        return None
    if nested:
        return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in values.items()})
    return MappingProxyType(dict(values))


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


@dataclass(frozen=True, slots=True)
class LoadNote:
    """Something reading the file changed (an outline that crossed itself, repaired): the
    feature's id, the JSON path in the file and what was done, in words."""

    item_id: str
    path: str
    message: str


@dataclass(slots=True)
class Scenario:
    """Everything a scenario file holds: the battlefield, rules settings and encounter."""

    battlefield: Battlefield
    rules: RulesOptions = field(default_factory=RulesOptions)
    encounter: Encounter = field(default_factory=Encounter)
    title: str = "Untitled"
    description: str = ""
    generation: GenerationRecord | None = None
    weapons: tuple[WeaponCard, ...] = ()
    """The scenario's own weapon cards (Firearms Detail, FD §2), in file order."""
    load_notes: tuple[LoadNote, ...] = field(default=(), compare=False)
    """What reading the file repaired (a table read from a file only; not saved: a save
    writes the table as it is played)."""

    @property
    def weapon_cards(self) -> dict[str, WeaponCard]:
        """The scenario's weapon cards by name (what a figure's ``weapon_card`` names)."""
        return {card.name: card for card in self.weapons}

    @property
    def table(self) -> Table:
        return self.battlefield.table
