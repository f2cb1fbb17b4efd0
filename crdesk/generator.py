"""Nine-section terrain generator: the book's tables turned into a playable map.

The book generates a table in three steps (digest 15.1-15.3, book 9.2-9.5): roll
the overall terrain type (9.2), roll each of the nine sections on the Terrain
Generator table (9.3.1), and put buildings in the sections marked (B) (9.4.4,
9.5).  Raids and Defends add buildings in section 2 or 8 (12.2, 12.3).  This
module does exactly that, and then draws each result as an organic outline that
covers at least 75% of its section, as 9.3 asks.

The tables themselves are data in :mod:`crdesk.tables` and are rolled by
:mod:`crdesk.rules.terrain`, like every other table of the game.  A generated
table is data (STYLE 2): every die goes through the dice service
(:mod:`crdesk.dice`) and is written to the generation log with its section,
die, table row and result.  The outlines need more randomness than the book's
dice, so each feature also draws one *shape seed* that is logged the same way.
The log therefore holds every random number the map used, and :func:`replay`
rebuilds the identical map from the log alone; :func:`generate` with the same
seed and inputs does too.

Choices the book leaves open, stated once here:

* **Building areas** (8.1: "each floor above the ground adds areas").  The areas
  of table 9.5 are the building's total, so a two-area, two-floor building
  stands on a one-area footprint and has one more area upstairs.
* **Placement direction** (9.4.4 "in any direction"): 1d6 read as a clock face,
  1 = 12 o'clock (towards the far edge), 2 = 2 o'clock, ... 6 = 10 o'clock.  The
  1/2d6" distance is the gap between the two buildings' walls.
* **Buildings over terrain**: buildings are laid over woods and hills (the
  ground feature is not cut around them), so each section keeps its 75%; they
  never overlap each other (at least 1" of street between them), impassable
  ground (at least 0.5" from it) or the table edge.  When a rolled direction has
  no room from any placed building, the direction is rolled again (logged); after
  six rolls the nearest free spot is searched, and a building that fits nowhere
  near its section is left out (logged).  Every section's first building is
  placed before the others, so a crowded neighbour cannot take its centre.  The
  book's Urban counts (4-6 buildings a section) do not all fit on a 3' x 3'
  table at 6" areas; the log says which were left out.
* **Ground features stay inside their section** with a little margin (and run
  off the table where the section meets its edge), so two features never
  overlap and a lane runs between sections.  Woods of adjoining sections are
  joined into one forest across that lane (each section keeps its own 75%);
  hills and impassable ground stay apart, so the lanes between rock are passes:
  neighbouring rock keeps 1.2" apart (:data:`LANE`), room for a 1" base, unless
  the 75% needs the ground (generator algorithm 2).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely import make_valid, unary_union
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from crdesk import limits
from crdesk.dice import Dice, DiceSource, ScriptedDice, half_d6
from crdesk.errors import CrdeskError, DiceScriptExhaustedError
from crdesk.model import (
    Battlefield,
    Building,
    Encounter,
    EncounterType,
    GenerationRecord,
    Hill,
    Opening,
    OpeningKind,
    Scenario,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import RulesOptions, Scale
from crdesk.rules.common import TableRoll
from crdesk.rules.terrain import (
    building_type,
    buildings_in_section,
    overall_terrain,
    section_terrain,
)
from crdesk.shapes import open_ring
from crdesk.tables import (
    BUILDING_TYPE,
    OVERALL_TERRAIN,
    TERRAIN_GENERATOR,
    BuildingType,
    Ground,
    TableType,
    building_count,
)

__all__ = [
    "GeneratorError",
    "PlannedBuilding",
    "ReplayError",
    "SectionPlan",
    "TablePlan",
    "building_label",
    "feature_id",
    "footprint_areas",
    "format_entry",
    "generate",
    "ground_label",
    "replay",
    "roll_table",
    "type_label",
]

ALGORITHM = 2
"""Version of the drawing algorithm, saved in the inputs: a newer one may draw other shapes.
2 keeps a :data:`LANE` between neighbouring rock; 1 (still replayed) did not."""
LANE_SHARES = (1.0, 0.75)
"""How much of its half of a :data:`LANE` a plain rock outline keeps, tried in turn: 0.75
still leaves 1.05", more than a 1" base needs, beside a neighbour keeping its half."""
ALGORITHMS = (1, 2)
"""The versions :func:`replay` draws: a record made by an older crdesk still replays."""
LANE = 1.2
"""Inches of open ground kept between the rock of two neighbouring impassable sections
(algorithm 2): room for a 1" base.  Drawn to 0.2-0.4" apart, they sealed whole sections
off -- a Band could not reach the far third of 8-12% of 2'x2' and 3'x3' mountain tables,
and half of them had a section no figure of the Band could enter."""

COVERAGE_MIN = 0.75
"""A section's rolled terrain covers at least 75% of it (9.3)."""
_COVERAGE_TARGET = 0.78
"""What the outlines aim for, so rounding never takes a section under 75%."""
STREET = 1.0
"""Least gap between two buildings, in inches (the smallest 1/2d6" of 9.4.4)."""
ROCK_CLEARANCE = 0.5
"""Least gap between a building and impassable ground, in inches."""
DIRECTION_ROLLS = 6
"""How many times a placement direction is rolled before the nearest free spot is searched."""


class GeneratorError(CrdeskError, ValueError):
    """The generator was given inputs it cannot use (unknown type, bad size, ...)."""


class ReplayError(GeneratorError):
    """A generation log does not replay: a roll is missing, extra or out of order."""


# --------------------------------------------------------------------------
# The book's tables live in crdesk.tables (9.2, 9.3.1, 9.4.4, 9.5) and are rolled
# by crdesk.rules.terrain; here they are only read and put into words.

_TYPE_LABEL = {
    TableType.CLEAR: "Clear",
    TableType.URBAN: "Urban",
    TableType.WOODED: "Wooded",
    TableType.MOUNTAIN: "Mountainous",
}
_COLUMN_LABEL = {
    TableType.CLEAR: "Clear",
    TableType.URBAN: "Urban",
    TableType.WOODED: "Wooded",
    TableType.MOUNTAIN: "Mountain",
}
"""Column headings of 9.3.1."""


def type_label(table_type: TableType) -> str:
    """The overall type as the book says it: Clear, Urban, Wooded, Mountainous (9.2)."""
    return _TYPE_LABEL[table_type]


def ground_label(ground: Ground, buildings: bool = False) -> str:
    """A Terrain Generator result in words: "Woods", "Clear (B)" (9.3.1)."""
    return ground.value.replace("_", " ").capitalize() + (" (B)" if buildings else "")


def building_label(kind: BuildingType) -> str:
    """A Building Type result in the book's words: "Two areas, one floor" (9.5)."""
    words = {1: "One", 2: "Two", 3: "Three"}
    area = "area" if kind.areas == 1 else "areas"
    floor = "floor" if kind.floors == 1 else "floors"
    return f"{words[kind.areas]} {area}, {words[kind.floors].lower()} {floor}"


def footprint_areas(kind: BuildingType) -> int:
    """Areas on the ground floor: the areas are the building's total (8.1, see above)."""
    return max(1, kind.areas // kind.floors)


_HALF_ROW = {1: "1-2", 2: "1-2", 3: "3-4", 4: "3-4", 5: "5-6", 6: "5-6"}
_CLOCK = {1: 12, 2: 2, 3: 4, 4: 6, 5: 8, 6: 10}
"""Placement direction: a d6 read as a clock face seen from the player's side."""

_ENCOUNTERS = {
    "patrol": EncounterType.PATROL,
    "raid": EncounterType.RAID,
    "defend": EncounterType.DEFEND,
    "none": EncounterType.FREE,
    "free": EncounterType.FREE,
}
_EXTRAS = {EncounterType.RAID: ("12.2", "Raid", 2), EncounterType.DEFEND: ("12.3", "Defend", 8)}
"""Encounter extras (12.2, 12.3): 1/2d6 more buildings in section 2 or 8."""

_FEATURE_KIND = {
    Ground.WOODS: TerrainKind.WOODS,
    Ground.HILL: TerrainKind.HILL,
    Ground.WOODED_HILL: TerrainKind.WOODED_HILL,
    Ground.IMPASSABLE: TerrainKind.IMPASSABLE,
}


def feature_id(terrain: Ground, section: int) -> str | None:
    """The id of a section's ground feature ("woods-3"), None for clear ground."""
    if terrain is Ground.CLEAR:
        return None
    return f"{terrain.value.replace('_', '-')}-{section}"


# --------------------------------------------------------------------------
# The plan: what the dice said, before anything is drawn


@dataclass(slots=True)
class PlannedBuilding:
    """A building the dice asked for: its id, type (9.5) and the rule that added it."""

    id: str
    type: BuildingType
    source: str
    """"9.4.4" for a (B) section, "12.2" / "12.3" for a Raid's or Defend's extras."""


@dataclass(slots=True)
class SectionPlan:
    """One section's results: terrain, whether it is (B), and its buildings."""

    number: int
    terrain: Ground
    has_buildings: bool
    buildings: list[PlannedBuilding] = field(default_factory=list)

    @property
    def feature_id(self) -> str | None:
        return feature_id(self.terrain, self.number)


@dataclass(slots=True)
class TablePlan:
    """Everything the book's tables decided for one table, with the log of the rolls."""

    terrain_type: TableType
    sections: tuple[SectionPlan, ...]
    log: list[dict[str, Any]]


class _Roller:
    """Rolls through the dice service and writes the generation log.

    In replay mode the dice are scripted from the log's faces and every roll is
    checked against the logged entry, so a log that does not fit says where.
    """

    def __init__(
        self,
        dice: DiceSource,
        rng: random.Random | None = None,
        script: list[dict[str, Any]] | None = None,
    ) -> None:
        self.dice = dice
        self.rng = rng
        self.log: list[dict[str, Any]] = []
        self._script: Iterator[tuple[int, dict[str, Any]]] | None = None
        if script is not None:
            self._script = iter(list(enumerate(script)))

    def _expect(self, step: str, table: str, section: int | None, die: str) -> dict[str, Any]:
        assert self._script is not None
        wanted = f"{step} {table} (section {section}, {die})"
        for index, entry in self._script:
            if "roll" not in entry:
                continue
            found = (entry.get("step"), entry.get("table"), entry.get("section"), entry.get("die"))
            if found != (step, table, section, die):
                raise ReplayError(
                    f"the generation log does not replay: entry {index} is "
                    f"{found[0]} {found[1]} (section {found[2]}, {found[3]}) "
                    f"where the generator rolls {wanted}"
                )
            return entry
        raise ReplayError(f"the generation log ends before {wanted}")

    def leftover(self) -> int:
        """Rolls left unused in a replayed log."""
        if self._script is None:
            return 0
        return sum(1 for _, entry in self._script if "roll" in entry)

    def roll(self, step: str, table: str, section: int | None, die: str = "1d6") -> int:
        """Roll one d6 through the dice service and start its log entry; returns the face.

        ``die`` says how the table reads it: "1d6" as rolled, "1/2d6" halved (4.1).
        """
        if self._script is not None:
            self._expect(step, table, section, die)
        who = f"section {section}" if section else ""
        try:
            face = self.dice.roll(1, section=step, table=table, who=who).faces[0]
        except DiceScriptExhaustedError as exc:
            raise ReplayError(str(exc)) from exc
        self.log.append(
            {"step": step, "table": table, "section": section, "die": die, "roll": face}
        )
        return face

    def table(
        self,
        step: str,
        table: str,
        section: int | None,
        rules: Callable[[DiceSource], TableRoll],
        die: str = "1d6",
    ) -> TableRoll:
        """Roll a book table through its rules function and start its log entry."""
        if self._script is not None:
            self._expect(step, table, section, die)
        try:
            rolled = rules(self.dice)
        except DiceScriptExhaustedError as exc:
            raise ReplayError(str(exc)) from exc
        self.log.append(
            {"step": step, "table": table, "section": section, "die": die, "roll": rolled.faces[0]}
        )
        return rolled

    def result(self, row: str, result: Any, **more: Any) -> None:
        """Complete the last roll's entry with the table row and what it meant."""
        entry = self.log[-1]
        entry["row"] = row
        entry["result"] = result
        entry.update(more)

    def shape_seed(self, section: int, feature: str) -> int:
        """A seed for one outline's shape; logged like a roll so replays need no seed."""
        entry: dict[str, Any] = {
            "step": "shape",
            "table": "Outline",
            "section": section,
            "die": "seed",
        }
        if self._script is not None:
            value = self._expect("shape", "Outline", section, "seed")["roll"]
            if not isinstance(value, int) or isinstance(value, bool):
                raise ReplayError(f"the shape seed of {feature} in the log is not an integer")
        elif self.rng is not None:
            value = self.rng.getrandbits(32)
        else:
            raise GeneratorError("drawing outlines needs seeded dice or a replayed log")
        entry["roll"] = value
        entry["feature"] = feature
        self.log.append(entry)
        return int(value)

    def given(self, step: str, table: str, result: Any) -> None:
        self.log.append(
            {"step": step, "table": table, "section": None, "result": result, "given": True}
        )

    def event(self, step: str, section: int, building: str, event: str, result: str) -> None:
        """A consequence, not a roll: where a building went, a re-roll, a building left out."""
        self.log.append(
            {
                "step": step,
                "section": section,
                "building": building,
                "event": event,
                "result": result,
            }
        )


def roll_table(dice: DiceSource, terrain_type: str = "roll", encounter: str = "none") -> TablePlan:
    """Roll the book's tables for one table, drawing nothing (9.2, 9.3.1, 9.4.4, 9.5, 12).

    This is the rules half of :func:`generate`; it is cheap, so the statistics of
    the tables can be checked over thousands of tables.

    >>> plan = roll_table(ScriptedDice([1, 6, 2, 2, 2, 2, 2, 2, 2, 2]))
    >>> type_label(plan.terrain_type), ground_label(plan.sections[0].terrain)
    ('Clear', 'Woods')
    """
    return _roll_plan(_Roller(dice), _terrain_type(terrain_type), _encounter(encounter))


def _terrain_type(value: str) -> TableType | None:
    if str(value) == "roll":
        return None
    try:
        return TableType(str(value))
    except ValueError:
        names = ", ".join([*TableType, "roll"])
        raise GeneratorError(f"unknown terrain type {value!r}; use one of {names}") from None


def _encounter(value: str) -> EncounterType:
    try:
        return _ENCOUNTERS[str(value)]
    except KeyError:
        raise GeneratorError(
            f"unknown encounter {value!r}; use patrol, raid, defend or none"
        ) from None


def _roll_plan(r: _Roller, given: TableType | None, encounter: EncounterType) -> TablePlan:
    if given is None:
        rolled = r.table("9.2", "Overall Terrain Type", None, overall_terrain)
        face = rolled.faces[0]
        terrain_type = OVERALL_TERRAIN[face - 1]
        r.result("1-3" if face <= 3 else str(face), type_label(terrain_type))
    else:
        terrain_type = given
        r.given("9.2", "Overall Terrain Type", type_label(terrain_type))
    column = "Urban" if terrain_type is TableType.URBAN else "Clear or Wooded"
    counter = iter(range(1, 10_000))

    def building_types(section: int, count: int, source: str) -> list[PlannedBuilding]:
        planned = []
        for _ in range(count):
            rolled = r.table(
                "9.5",
                "Building Type",
                section,
                functools.partial(building_type, table_type=terrain_type),
            )
            face = rolled.faces[0]
            kind = BUILDING_TYPE[terrain_type][face - 1]
            building = PlannedBuilding(f"building-{next(counter)}", kind, source)
            r.result(
                str(face),
                building_label(kind),
                column=column,
                building=building.id,
                areas=kind.areas,
                floors=kind.floors,
                footprint_areas=footprint_areas(kind),
                source=source,
            )
            planned.append(building)
        return planned

    sections = []
    for number in range(1, 10):
        rolled = r.table(
            "9.3.1",
            "Terrain Generator",
            number,
            functools.partial(section_terrain, table_type=terrain_type, section=number),
        )
        face = rolled.faces[0]
        row = TERRAIN_GENERATOR[terrain_type][face - 1]
        r.result(
            str(face),
            ground_label(row.ground, row.buildings),
            column=_COLUMN_LABEL[terrain_type],
            terrain=row.ground.value,
            buildings=row.buildings,
            feature=feature_id(row.ground, number),
        )
        plan = SectionPlan(number, row.ground, row.buildings)
        if row.buildings:
            rolled = r.table(
                "9.4.4",
                "Number of Buildings",
                number,
                functools.partial(buildings_in_section, table_type=terrain_type),
                die="1/2d6",
            )
            face = rolled.faces[0]
            count = building_count(terrain_type, half_d6(face))
            urban = terrain_type is TableType.URBAN
            r.result(_HALF_ROW[face], count, formula="3 + 1/2d6" if urban else "1/2d6")
            plan.buildings = building_types(number, count, "9.4.4")
        sections.append(plan)

    if encounter in _EXTRAS:
        step, name, number = _EXTRAS[encounter]
        face = r.roll(step, f"{name}: extra buildings", number, "1/2d6")
        count = half_d6(face)
        r.result(_HALF_ROW[face], count, formula="1/2d6")
        sections[number - 1].buildings.extend(building_types(number, count, step))
    return TablePlan(terrain_type, tuple(sections), r.log)


# --------------------------------------------------------------------------
# Generating and replaying


def generate(
    seed: int,
    width: float = 36,
    height: float = 36,
    terrain_type: str = "roll",
    encounter: str = "none",
    scale: str = "28mm",
) -> Scenario:
    """Generate a table by the book (9.2-9.5, 12), the same for the same inputs.

    ``terrain_type`` is clear, urban, wooded, mountain, or roll (9.2);
    ``encounter`` is patrol, raid, defend or none; ``scale`` is 28mm or 15mm
    (building areas are 6" or 4", 8.1).  All chance comes from a
    ``random.Random(seed)`` owned by this call.

    >>> a, b = generate(42, terrain_type="urban"), generate(42, terrain_type="urban")
    >>> a.title, [f.id for f in a.battlefield.terrain] == [f.id for f in b.battlefield.terrain]
    ('Urban table, seed 42', True)
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GeneratorError(f"the seed must be an integer, got {seed!r}")
    inputs = _inputs(width, height, terrain_type, encounter, scale)
    rng = random.Random(seed)
    return _build(seed, inputs, _Roller(Dice(rng), rng=rng))


def replay(record: GenerationRecord) -> Scenario:
    """Rebuild a generated table from its record's inputs and log alone (not its seed).

    Every die face and shape seed is read back from the log in order, through
    scripted dice; a log that does not fit the generator raises
    :class:`ReplayError` naming the entry.
    """
    inputs = dict(record.inputs)
    algorithm = inputs.pop("algorithm", ALGORITHM)
    if algorithm not in ALGORITHMS:
        raise ReplayError(
            f"the log was made by generator algorithm {algorithm}; this crdesk draws "
            f"{', '.join(map(str, ALGORITHMS))}"
        )
    try:
        clean = {**_inputs(**inputs), "algorithm": algorithm}  # drawn as it was drawn
    except TypeError as exc:
        raise ReplayError(f"the generation inputs are not usable: {exc}") from None
    faces = [e["roll"] for e in record.log if "roll" in e and e.get("die") in ("1d6", "1/2d6")]
    try:
        dice = ScriptedDice(faces)
    except ValueError as exc:
        raise ReplayError(f"the generation log holds a bad die: {exc}") from None
    roller = _Roller(dice, script=list(record.log))
    scenario = _build(record.seed, clean, roller, algorithm=int(algorithm))
    extra = roller.leftover()
    if extra:
        raise ReplayError(f"the generation log holds {extra} rolls the map did not use")
    return scenario


def format_entry(entry: dict[str, Any]) -> str:
    """One generation-log entry as a line for the CLI and the GUI's roll log.

    >>> format_entry({"step": "9.2", "table": "Overall Terrain Type", "section": None,
    ...               "die": "1d6", "roll": 4, "row": "4", "result": "Urban"})
    '9.2 Overall Terrain Type: 1d6 rolled 4 -> Urban'
    """
    step, table, section = entry.get("step", "?"), entry.get("table", ""), entry.get("section")
    where = f", section {section}" if section else ""
    if "event" in entry:
        return f"{step}{where}: {entry.get('result', '')}"
    if entry.get("die") == "seed":
        return f"Outline of {entry.get('feature', '?')}{where}: shape seed {entry.get('roll')}"
    if "roll" not in entry:
        return f"{step} {table}{where}: {entry.get('result', '')} (given)"
    column = f", {entry['column']} column" if entry.get("column") else ""
    result = entry.get("result", "")
    if step == "9.5" and entry.get("building"):
        result = f"{_label(str(entry['building']))}: {result}"
    return f"{step} {table}{where}{column}: {entry['die']} rolled {entry['roll']} -> {result}"


def _inputs(
    width: float = 36,
    height: float = 36,
    terrain_type: str = "roll",
    encounter: str = "none",
    scale: str = "28mm",
) -> dict[str, Any]:
    sizes = []
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise GeneratorError(f"the table {name} must be a number of inches, got {value!r}")
        if not (math.isfinite(value) and limits.TABLE_MIN <= value <= limits.TABLE_MAX):
            raise GeneratorError(
                f"the table {name} must be {limits.TABLE_MIN:g} to {limits.TABLE_MAX:g} inches, "
                f"got {value:g}"
            )
        sizes.append(int(value) if float(value).is_integer() else float(value))
    given = _terrain_type(terrain_type)
    enc = _encounter(encounter)
    try:
        sc = Scale(str(scale))
    except ValueError:
        raise GeneratorError(f"unknown scale {scale!r}; use 28mm or 15mm") from None
    return {
        "width": sizes[0],
        "height": sizes[1],
        "terrain_type": given.value if given else "roll",
        "encounter": "none" if enc is EncounterType.FREE else enc.value,
        "scale": sc.value,
        "algorithm": ALGORITHM,
    }


def _build(seed: int, inputs: dict[str, Any], r: _Roller, algorithm: int = ALGORITHM) -> Scenario:
    table = Table(float(inputs["width"]), float(inputs["height"]))
    rules = RulesOptions(scale=Scale(inputs["scale"]))
    encounter = _encounter(inputs["encounter"])
    plan = _roll_plan(r, _terrain_type(inputs["terrain_type"]), encounter)

    ground: list[TerrainFeature] = []
    for sp in plan.sections:
        fid = sp.feature_id
        if fid is None:
            continue
        shape = random.Random(r.shape_seed(sp.number, fid))
        lanes = _rock_sides(plan, sp) if algorithm >= 2 else frozenset()
        ground.append(_ground_feature(sp, fid, table, shape, lanes))
    ground = _merge_neighbours(r, plan, table, ground)

    impassable = [f.outline for f in ground if f.kind is TerrainKind.IMPASSABLE]
    placer = _Placer(r, table, rules.building_area_size, impassable)
    placer.place(plan.sections)

    houses = sorted(placer.placed, key=lambda b: int(b.id.rsplit("-", 1)[1]))
    battlefield = Battlefield(table, [*ground, *houses])
    count = len(houses)
    return Scenario(
        battlefield=battlefield,
        rules=rules,
        encounter=Encounter(type=encounter),
        title=f"{type_label(plan.terrain_type)} table, seed {seed}",
        description=(
            f"Generated by the book (9.2-9.5): {type_label(plan.terrain_type)} table, "
            f'{table.width:g}" x {table.height:g}", '
            f"{count} building{'s' if count != 1 else ''}."
        ),
        generation=GenerationRecord(seed=seed, inputs=inputs, log=r.log),
    )


# --------------------------------------------------------------------------
# Ground features: organic outlines covering 75% of their section (9.3)


@dataclass(frozen=True, slots=True)
class _Look:
    """How a kind of ground reads: squareness, size, bays, lobes, bumps, crags, vertex count."""

    exponent: float
    long_scale: float
    short_scale: float
    bays: tuple[int, int]
    bay_depth: tuple[float, float]
    bay_width: tuple[float, float]
    lobes: float
    lobe_freq: tuple[int, int]
    bumps: float
    bump_freq: tuple[int, int]
    samples: int
    craggy: float = 0.0
    hill: bool = False


# fmt: off
_LOOKS = {
    # Hills: a smooth rounded footprint, longer along one axis, full at its ends.
    Ground.HILL: _Look(
        exponent=3.2, long_scale=0.985, short_scale=0.9, bays=(0, 0), bay_depth=(0, 0),
        bay_width=(0.3, 0.3), lobes=0.06, lobe_freq=(2, 3), bumps=0.0, bump_freq=(1, 1),
        samples=144, hill=True,
    ),
    # Wooded hills: the same with a bushy fringe.
    Ground.WOODED_HILL: _Look(
        exponent=3.4, long_scale=0.985, short_scale=0.9, bays=(0, 0), bay_depth=(0, 0),
        bay_width=(0.3, 0.3), lobes=0.05, lobe_freq=(2, 3), bumps=0.03, bump_freq=(13, 19),
        samples=200, hill=True,
    ),
    # Impassable rock: few vertices, jagged, with clefts.
    Ground.IMPASSABLE: _Look(
        exponent=4.0, long_scale=0.975, short_scale=0.975, bays=(3, 5), bay_depth=(0.12, 0.3),
        bay_width=(0.05, 0.14), lobes=0.1, lobe_freq=(2, 4), bumps=0.0, bump_freq=(1, 1),
        samples=34, craggy=0.1,
    ),
}
# fmt: on
"""How hills and rocks read; woods are a cloud of clumps instead (:func:`_woods_outline`)."""
EDGE_BULGE = 1.12
"""Ground on a table-edge section runs off the table: its outline is cut by the edge."""


def _rock_sides(plan: TablePlan, sp: SectionPlan) -> frozenset[str]:
    """The sides of an impassable section whose neighbour is impassable too: a
    :data:`LANE` runs between the two rocks ("left", "right", "top" = towards the far
    edge, "bottom"); sections 1-3 are the far row, numbered left to right."""
    if sp.terrain is not Ground.IMPASSABLE:
        return frozenset()
    rock = {p.number for p in plan.sections if p.terrain is Ground.IMPASSABLE}
    n = sp.number
    near = {
        "left": n - 1 if n % 3 != 1 else 0,
        "right": n + 1 if n % 3 != 0 else 0,
        "top": n - 3,
        "bottom": n + 3,
    }
    return frozenset(side for side, k in near.items() if k in rock)


def _ground_feature(
    sp: SectionPlan,
    fid: str,
    table: Table,
    rng: random.Random,
    lanes: frozenset[str] = frozenset(),
) -> TerrainFeature:
    kind = _FEATURE_KIND[sp.terrain]
    name = f"{kind.label} {sp.number}"
    section = table.section_bounds(sp.number)
    x0, y0, x1, y1 = section.bounds
    along_x = _long_axis_is_x(x1 - x0, y1 - y0, rng)
    if sp.terrain is Ground.WOODS:
        outline = _woods_outline(section, table, rng)
    else:
        outline = _section_outline(section, table, _LOOKS[sp.terrain], along_x, rng, lanes)
    if kind in (TerrainKind.HILL, TerrainKind.WOODED_HILL):
        crest = _crest(outline, section, along_x, rng)
        return Hill(id=fid, kind=kind, name=name, outline=outline, crest=crest)
    return TerrainFeature(id=fid, kind=kind, name=name, outline=outline)


def _long_axis_is_x(w: float, h: float, rng: random.Random) -> bool:
    """A section's long axis; a (near) square section rolls it from its shape seed."""
    flip = rng.random() < 0.5
    if w > 1.05 * h:
        return True
    if h > 1.05 * w:
        return False
    return flip


def _section_outline(
    section: Polygon,
    table: Table,
    look: _Look,
    along_x: bool,
    rng: random.Random,
    lanes: frozenset[str] = frozenset(),
) -> Polygon:
    """An organic outline filling its section (9.3: at least 75%, boundary easy to see).

    A superellipse the size of the section, notched by bays and lobes that only
    ever cut inwards, so neighbouring features never overlap and a way runs
    between them.  Towards a table edge it bulges past the edge and is cut by
    it, as terrain running off the table.  If the section's share falls under
    78% the notches are made shallower until it holds.  On the sides in ``lanes`` it
    keeps half a :data:`LANE` off the section's border (rock beside rock), unless that
    leaves it under 75%: then the book's 75% wins (9.3).
    """
    x0, y0, x1, y1 = section.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    sx, sy = (look.long_scale, look.short_scale) if along_x else (look.short_scale, look.long_scale)
    a, b = (x1 - x0) / 2 * sx, (y1 - y0) / 2 * sy
    eps = 1e-9
    left = a * EDGE_BULGE if x0 <= eps else a
    right = a * EDGE_BULGE if x1 >= table.width - eps else a
    top = b * EDGE_BULGE if y0 <= eps else b
    bottom = b * EDGE_BULGE if y1 >= table.height - eps else b
    keep = (x1 - x0) / 2 - LANE / 2, (y1 - y0) / 2 - LANE / 2
    left = min(left, keep[0]) if "left" in lanes else left
    right = min(right, keep[0]) if "right" in lanes else right
    top = min(top, keep[1]) if "top" in lanes else top
    bottom = min(bottom, keep[1]) if "bottom" in lanes else bottom
    bays = [
        (rng.random() * 2 * math.pi, rng.uniform(*look.bay_depth), rng.uniform(*look.bay_width))
        for _ in range(rng.randint(*look.bays))
    ]
    lobes = _waves(rng, look.lobe_freq, 3)
    bumps = _waves(rng, look.bump_freq, 2)
    crag = np.asarray([rng.random() for _ in range(look.samples)])
    spin = rng.random() * 2 * math.pi / look.samples
    t = spin + 2 * np.pi * np.arange(look.samples) / look.samples
    c, s = np.cos(t), np.sin(t)
    notch = look.lobes * _wave_at(lobes, t) + look.bumps * _wave_at(bumps, t) + look.craggy * crag
    for centre, depth, width in bays:
        off = (t - centre + np.pi) % (2 * np.pi) - np.pi
        notch = notch + depth * np.exp(-((off / width) ** 2))
    if look.hill:  # the ends of the long axis stay round and full
        notch = notch * (s * s if along_x else c * c)
    u = np.sign(c) * np.abs(c) ** (2 / look.exponent)
    v = np.sign(s) * np.abs(s) ** (2 / look.exponent)
    half_x = np.where(u > 0, right, left) * u
    half_y = np.where(v > 0, bottom, top) * v
    scale = 1.0
    area = section.area
    bulged = (left, right, top, bottom) != (a, a, b, b)
    poly = section
    for _ in range(10):
        k = 1 - np.minimum(0.5, notch * scale)
        pts = np.round(np.stack([cx + half_x * k, cy + half_y * k], axis=1), 3)
        poly = _valid(Polygon(pts))
        if bulged:
            poly = _valid(_rounded(_largest(poly.intersection(table.bounds))))
        if poly.intersection(section).area >= _COVERAGE_TARGET * area:
            return poly
        scale *= 0.7
    for share in LANE_SHARES if lanes else ():
        # rock on three or four sides: a plain outline keeping what it can of half a
        # lane still covers 75%, or the 75% wins and the lanes go (9.3)
        plain = _plain(section, lanes, share)
        if plain.intersection(section).area >= COVERAGE_MIN * area:
            return plain
    return _plain(section)


def _woods_outline(section: Polygon, table: Table, rng: random.Random) -> Polygon:
    """Woods as a cloud of overlapping tree clumps: a scalloped, lobed edge (9.3, 9.4).

    Clumps sit on a jittered grid inside the section (or running off a table
    edge); a few on the rim are left out to open bays, fewer if the section's
    share would fall under 78%.  A small closing rounds the joins between clumps.
    """
    x0, y0, x1, y1 = section.bounds
    w, h = x1 - x0, y1 - y0
    r0 = 0.16 * min(w, h)
    margin = 0.02 * min(w, h)
    eps = 1e-9
    lo_x = x0 + (0.3 * r0 if x0 <= eps else r0 + margin)
    hi_x = x1 - (0.3 * r0 if x1 >= table.width - eps else r0 + margin)
    lo_y = y0 + (0.3 * r0 if y0 <= eps else r0 + margin)
    hi_y = y1 - (0.3 * r0 if y1 >= table.height - eps else r0 + margin)
    nx = max(2, round((hi_x - lo_x) / (1.15 * r0)) + 1)
    ny = max(2, round((hi_y - lo_y) / (1.15 * r0)) + 1)
    clumps = []
    for i in range(nx):
        for j in range(ny):
            x = lo_x + (hi_x - lo_x) * i / (nx - 1)
            y = lo_y + (hi_y - lo_y) * j / (ny - 1)
            rim = i in (0, nx - 1) or j in (0, ny - 1)
            jitter_x, jitter_y = rng.uniform(-0.3, 0.3) * r0, rng.uniform(-0.3, 0.3) * r0
            radius = r0 * rng.uniform(0.85, 1.2)
            drop = rng.random()
            clumps.append((x, y, jitter_x, jitter_y, radius, rim, drop))
    # Clumps stay inside the section, less a margin, except over a table edge.
    lim_x0 = -math.inf if x0 <= eps else x0 + margin
    lim_x1 = math.inf if x1 >= table.width - eps else x1 - margin
    lim_y0 = -math.inf if y0 <= eps else y0 + margin
    lim_y1 = math.inf if y1 >= table.height - eps else y1 - margin
    area = section.area
    drop_rate = 0.3
    poly = section
    for _ in range(8):
        centres, radii = [], []
        for x, y, jx, jy, radius, rim, drop in clumps:
            if rim and drop < drop_rate:
                continue
            cx = min(max(x + jx, lim_x0 + radius), lim_x1 - radius)
            cy = min(max(y + jy, lim_y0 + radius), lim_y1 - radius)
            centres.append((cx, cy))
            radii.append(radius)
        discs = shapely.buffer(shapely.points(np.asarray(centres)), np.asarray(radii), quad_segs=6)
        closing = 0.3 * r0
        cloud = shapely.union_all(discs).buffer(closing, quad_segs=4).buffer(-closing, quad_segs=4)
        poly = _valid(_largest(cloud.intersection(table.bounds)))
        poly = _valid(_rounded(poly))
        if poly.intersection(section).area >= _COVERAGE_TARGET * area:
            return poly
        drop_rate *= 0.5
    return _plain(section)


def _plain(section: Polygon, lanes: frozenset[str] = frozenset(), share: float = 1.0) -> Polygon:
    """A rounded rectangle a little inside the section: the fallback that always covers
    75% (with no ``lanes``; on those sides it keeps ``share`` of half a :data:`LANE`
    off, and its neighbour keeps the other half: the lane is still a base wide)."""
    x0, y0, x1, y1 = (float(v) for v in section.bounds)
    inset, corner = 0.02 * min(x1 - x0, y1 - y0), 0.1 * min(x1 - x0, y1 - y0)

    def off(side: str) -> float:
        return max(inset, share * LANE / 2) if side in lanes else inset

    rounded = (
        box(x0 + off("left"), y0 + off("top"), x1 - off("right"), y1 - off("bottom"))
        .buffer(-corner)
        .buffer(corner)
    )
    return _valid(_rounded(rounded))


def _rounded(poly: Polygon) -> Polygon:
    """Coordinates to 1/1000 inch: readable files, exact replays.  A ring whose last
    corners round onto its first is closed where a file read closes it (the scenario
    loader drops closing points a file repeats): else the table played and the table
    saved with the game differ by a repeated point, and the saved game stops replaying
    (a kept Patrol's woods did, at step 10)."""

    def ring(coords: Any) -> list[tuple[float, float]]:
        return open_ring((round(x, 3), round(y, 3)) for x, y in coords)

    return Polygon(ring(poly.exterior.coords), [ring(i.coords) for i in poly.interiors])


MERGING = (Ground.WOODS,)
"""Kinds drawn as one feature over adjoining sections: woods become one forest.

Hills are not merged (each keeps the crest along its own long axis), nor is
impassable ground: the lanes between rock masses are the passes through them.
"""


def _merge_neighbours(
    r: _Roller, plan: TablePlan, table: Table, ground: list[TerrainFeature]
) -> list[TerrainFeature]:
    """Join the features of adjoining sections of the same kind into one (9.3).

    Each section's own outline is kept whole, so each still covers its 75%; only
    the narrow lane along their shared border is filled (a closing of their
    union, cut to that lane).  The 9.3.1 log entries are pointed at the merged
    feature, and the merge is logged.
    """
    by_section = {int(f.id.rsplit("-", 1)[1]): f for f in ground}
    kind_of = {sp.number: sp.terrain for sp in plan.sections}
    seen: set[int] = set()
    merged: dict[int, TerrainFeature] = {}
    for start in sorted(by_section):
        if start in seen or kind_of[start] not in MERGING:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            n = todo.pop()
            group.append(n)
            for m in _adjoining(n):
                if m not in seen and kind_of[m] is kind_of[start]:
                    seen.add(m)
                    todo.append(m)
        if len(group) < 2:
            continue
        group.sort()
        feature = _join(table, [by_section[n] for n in group], group)
        if feature is None:
            continue
        for n in group:
            merged[n] = feature
        for entry in r.log:
            if entry.get("step") == "9.3.1" and entry.get("section") in group:
                entry["feature"] = feature.id
        r.log.append(
            {
                "step": "9.3",
                "section": group[0],
                "event": "merged",
                "feature": feature.id,
                "result": f"{ground_label(kind_of[start])} of sections "
                + ", ".join(map(str, group[:-1]))
                + f" and {group[-1]} drawn as one feature, {feature.name}",
            }
        )
    out: list[TerrainFeature] = []
    for f in ground:
        n = int(f.id.rsplit("-", 1)[1])
        joined = merged.get(n)
        if joined is None:
            out.append(f)
        elif not any(f is joined for f in out):
            out.append(joined)
    return out


def _adjoining(section: int) -> list[int]:
    """Sections sharing a side with this one (1-9, three by three)."""
    row, col = divmod(section - 1, 3)
    near = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [r * 3 + c + 1 for r, c in near if 0 <= r < 3 and 0 <= c < 3]


def _join(table: Table, parts: list[TerrainFeature], group: list[int]) -> TerrainFeature | None:
    """One outline over the parts: round bridges across the lanes where both sides reach."""
    w, h = table.width / 3, table.height / 3
    radius = 0.06 * min(w, h) + 0.2
    by_section = dict(zip(group, parts, strict=True))
    bridges = []
    for n in group:
        row, col = divmod(n - 1, 3)
        pairs = []
        if n + 1 in group and col < 2:  # right-hand neighbour: a vertical border
            x = (col + 1) * w
            pairs.append((n + 1, (x, row * h), (x, (row + 1) * h)))
        if n + 3 in group:  # nearer neighbour: a horizontal border
            y = (row + 1) * h
            pairs.append((n + 3, (col * w, y), ((col + 1) * w, y)))
        for m, (ax, ay), (bx, by) in pairs:
            length = math.hypot(bx - ax, by - ay)
            steps = max(2, int(length / 0.75))
            here, there = by_section[n].outline, by_section[m].outline
            for i in range(steps + 1):
                t = i / steps
                px, py = ax + (bx - ax) * t, ay + (by - ay) * t
                at_edge = px <= 0 or py <= 0 or px >= table.width or py >= table.height
                if not at_edge and min(t, 1 - t) * length < radius:
                    continue  # keep clear of the corner a third section meets
                point = shapely.Point(px, py)
                if here.distance(point) < radius * 0.9 and there.distance(point) < radius * 0.9:
                    bridges.append(point.buffer(radius, quad_segs=6))
    joined = unary_union([*(f.outline for f in parts), *bridges]).intersection(table.bounds)
    if not isinstance(joined, Polygon):
        return None  # the bridges did not join everything: keep the sections apart
    holes = [i for i in joined.interiors if Polygon(i).area >= 1.0]
    outline = _valid(_rounded(Polygon(joined.exterior, holes)))
    first = parts[0]
    numbers = "-".join(map(str, group))
    return TerrainFeature(
        id=f"{first.id.rsplit('-', 1)[0]}-{numbers}",
        kind=first.kind,
        name=f"{first.kind.label} {numbers}",
        outline=outline,
    )


def _largest(geom: BaseGeometry) -> Polygon:
    parts = [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon)]
    return max(parts, key=lambda g: g.area)


def _waves(rng: random.Random, freq: tuple[int, int], count: int) -> list[tuple[int, float, float]]:
    return [
        (rng.randint(*freq), rng.random() * 2 * math.pi, 0.4 + rng.random()) for _ in range(count)
    ]


def _wave_at(waves: list[tuple[int, float, float]], t: npt.NDArray[np.float64]) -> Any:
    """The normalised sum of the waves at angles t, in 0..1 (an inward indentation)."""
    if not waves:
        return np.zeros_like(t)
    total = sum(w for _, _, w in waves)
    s = sum(w * np.sin(f * t + p) for f, p, w in waves) / total
    return 0.5 + 0.5 * s


def _valid(poly: Polygon) -> Polygon:
    if poly.is_valid:
        return orient(poly)
    return orient(_largest(make_valid(poly)))


def _crest(outline: Polygon, section: Polygon, along_x: bool, rng: random.Random) -> LineString:
    """The ridge line of a hill (9.4): along its long axis, gently bent, well inside it."""
    x0, y0, x1, y1 = section.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half_long = (x1 - x0) / 2 if along_x else (y1 - y0) / 2
    half_short = (y1 - y0) / 2 if along_x else (x1 - x0) / 2
    shift = (rng.random() - 0.5) * 0.16 * half_short
    bends = [(rng.random() - 0.5) * 0.2 * half_short for _ in range(5)]
    reach = 0.62
    for _ in range(6):
        pts = []
        for i, bend in enumerate(bends):
            along = (-1 + i / 2) * reach * half_long
            across = shift + bend
            x, y = (cx + along, cy + across) if along_x else (cx + across, cy + along)
            pts.append((round(x, 3), round(y, 3)))
        crest = LineString(pts)
        if outline.contains(crest):
            return crest
        reach *= 0.85
        bends = [b * 0.5 for b in bends]
    return crest


# --------------------------------------------------------------------------
# Buildings (9.4.4, 9.5, 8.1)

_Rect = tuple[float, float, float, float]


@dataclass(slots=True)
class _Shape:
    """A building's footprint around its own centre: one rect per ground-floor area."""

    rects: list[_Rect]


def _q(value: float) -> float:
    """Building sizes in quarter inches: easy to cut and to lay on a real table."""
    return round(value * 4) / 4


def _building_shape(kind: BuildingType, size: float, rng: random.Random) -> _Shape:
    """Footprint from ~size x size areas (8.1): one area, or two side by side, maybe stepped."""
    if footprint_areas(kind) == 1:
        w, d = _q(size * rng.uniform(0.85, 1.1)), _q(size * rng.uniform(0.8, 1.0))
        rects = [(0.0, 0.0, w, d)]
    else:
        w1, w2 = _q(size * rng.uniform(0.85, 1.1)), _q(size * rng.uniform(0.8, 1.05))
        d1 = _q(size * rng.uniform(0.85, 1.0))
        d2 = d1 if rng.random() < 0.4 else _q(size * rng.uniform(0.7, max(0.7, d1 / size - 0.1)))
        offset = rng.choice([0.0, d1 - d2, _q((d1 - d2) / 2)])
        rects = [(0.0, 0.0, w1, d1), (w1, offset, w1 + w2, offset + d2)]
        if rng.random() < 0.5:  # the smaller area on the left instead
            rects = [(-x1, y0, -x0, y1) for x0, y0, x1, y1 in rects]
    if rng.random() < 0.5:
        rects = [(y0, x0, y1, x1) for x0, y0, x1, y1 in rects]
    bx0 = min(r[0] for r in rects)
    by0 = min(r[1] for r in rects)
    bx1 = max(r[2] for r in rects)
    by1 = max(r[3] for r in rects)
    mx, my = (bx0 + bx1) / 2, (by0 + by1) / 2
    return _Shape([(x0 - mx, y0 - my, x1 - mx, y1 - my) for x0, y0, x1, y1 in rects])


@functools.lru_cache(maxsize=32)
def _spiral(reach: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Offsets from a section centre, nearest first: the centre, then rings 1" apart."""
    points, rings = [(0.0, 0.0)], [0.0]
    ring = 1.0
    while ring <= reach:
        steps = max(8, int(2 * math.pi * ring / 1.5))
        for k in range(steps):
            t = 2 * math.pi * k / steps
            points.append((ring * math.sin(t), -ring * math.cos(t)))
            rings.append(ring)
        ring += 1.0
    return np.asarray(points), np.asarray(rings)


def _gaps(cands: npt.NDArray[np.float64], others: npt.NDArray[np.float64]) -> Any:
    """Least wall-to-wall gap from each candidate footprint (N, k, 4) to the rects (M, 4)."""
    if len(others) == 0:
        return np.full(len(cands), np.inf)
    a = cands[:, :, None, :]
    b = others[None, None, :, :]
    gx = np.maximum(0.0, np.maximum(a[..., 0] - b[..., 2], b[..., 0] - a[..., 2]))
    gy = np.maximum(0.0, np.maximum(a[..., 1] - b[..., 3], b[..., 1] - a[..., 3]))
    return np.hypot(gx, gy).min(axis=(1, 2))


@dataclass(slots=True)
class _Placed:
    id: str
    name: str
    rects: list[_Rect]
    centre: tuple[float, float]


class _Placer:
    """Places a section's buildings: first on the centre, each next 1/2d6" from a placed one.

    Candidate spots are tested many at a time with numpy (table edge, streets
    between buildings) and shapely's vectorised distance (impassable ground).
    """

    def __init__(self, r: _Roller, table: Table, size: float, impassable: list[Polygon]) -> None:
        self.r = r
        self.table = table
        self.size = size
        self.rocks = unary_union(impassable) if impassable else None
        self.occupied = np.empty((0, 4))
        self.placed: list[Building] = []

    # -- checks -------------------------------------------------------------

    def _candidates(
        self, centres: npt.NDArray[np.float64], shape: _Shape
    ) -> npt.NDArray[np.float64]:
        """Footprints (N, k, 4) of the shape centred on each of the (rounded) centres."""
        rects = np.asarray(shape.rects, dtype=float)
        out: npt.NDArray[np.float64] = np.round(
            centres[:, None, [0, 1, 0, 1]] + rects[None, :, :], 3
        )
        return out

    def _first_fit(self, cands: npt.NDArray[np.float64]) -> int | None:
        """Index of the first candidate on the table, clear of buildings and rocks."""
        if len(cands) == 0:
            return None
        w, h = self.table.width, self.table.height
        ok = (
            (cands[..., 0].min(axis=1) >= 0)
            & (cands[..., 1].min(axis=1) >= 0)
            & (cands[..., 2].max(axis=1) <= w)
            & (cands[..., 3].max(axis=1) <= h)
        )
        ok &= _gaps(cands, self.occupied) >= STREET - 0.01
        index = np.flatnonzero(ok)
        if self.rocks is not None and len(index):
            flat = cands[index].reshape(-1, 4)
            boxes = shapely.box(flat[:, 0], flat[:, 1], flat[:, 2], flat[:, 3])
            dist = shapely.distance(self.rocks, boxes).reshape(len(index), -1).min(axis=1)
            index = index[dist >= ROCK_CLEARANCE]
        return int(index[0]) if len(index) else None

    def _along(
        self,
        anchors: list[_Placed],
        shape: _Shape,
        which: list[int],
        clocks: list[int],
        gaps: list[float],
    ) -> npt.NDArray[np.float64]:
        """Centres on rays from anchors' centres where the walls are exactly ``gap`` apart."""
        angle = np.radians(30 * (np.asarray(clocks) % 12))
        u = np.stack([np.sin(angle), -np.cos(angle)], axis=1)
        origin = np.asarray([anchors[i].centre for i in which], dtype=float)
        own = np.asarray([(a.rects * 2)[:2] for a in anchors], dtype=float)[which]
        want = np.asarray(gaps, dtype=float)
        rects = np.asarray(shape.rects, dtype=float)
        # Candidate rect q centred on (x, y) overlaps anchor rect p in x when
        # p0 - q2 < x < p2 - q0 (the same in y); its gap is the distance to that box.
        q, p = rects[None, :, None, :], own[:, None, :, :]
        left, right = p[..., 0] - q[..., 2], p[..., 2] - q[..., 0]
        top, bottom = p[..., 1] - q[..., 3], p[..., 3] - q[..., 1]
        ox, oy = origin[:, 0, None, None], origin[:, 1, None, None]
        ux, uy = u[:, 0, None, None], u[:, 1, None, None]
        lo = np.zeros((len(which), 1, 1))
        hi = np.full((len(which), 1, 1), 4 * self.size + 6.0)
        for _ in range(18):
            mid = (lo + hi) / 2
            x, y = ox + mid * ux, oy + mid * uy
            gx = np.maximum(0.0, np.maximum(x - right, left - x))
            gy = np.maximum(0.0, np.maximum(y - bottom, top - y))
            far = np.hypot(gx, gy).min(axis=(1, 2), keepdims=True) >= want[:, None, None]
            hi = np.where(far, mid, hi)
            lo = np.where(far, lo, mid)
        hi = hi[:, 0, 0]
        out: npt.NDArray[np.float64] = np.round(origin + hi[:, None] * u, 3)
        return out

    # -- placing ------------------------------------------------------------

    def place(self, sections: tuple[SectionPlan, ...]) -> None:
        """Every section's first building on its centre, then the others around them (9.4.4).

        Two-floor buildings come first in their section, so they stand nearest the
        centre.  Placing all the first buildings before the rest keeps a crowded
        neighbour from spilling over a section's centre before its turn.
        """
        orders = {sp.number: sorted(sp.buildings, key=lambda b: -b.type.floors) for sp in sections}
        clusters: dict[int, list[_Placed]] = {n: [] for n in orders}
        for number, order in orders.items():
            for planned in order[:1]:
                self._place(number, planned, clusters[number])
        for number, order in orders.items():
            for planned in order[1:]:
                self._place(number, planned, clusters[number])

    def _place(self, section: int, planned: PlannedBuilding, cluster: list[_Placed]) -> None:
        rng = random.Random(self.r.shape_seed(section, planned.id))
        shape = _building_shape(planned.type, self.size, rng)
        centre = self.table.section_centre(section)
        if cluster:
            spot = self._near_cluster(section, planned, shape, cluster, centre)
        else:
            spot = self._at_centre(section, planned, shape, centre)
        if spot is None:
            self.r.event(
                "9.4.4",
                section,
                planned.id,
                "not placed",
                f"{_label(planned.id)}: no room near section {section}, left out",
            )
            return
        cluster.append(spot)
        self.occupied = np.concatenate([self.occupied, np.asarray(spot.rects)])
        self.placed.append(self._building(planned, spot, rng))

    def _spot(self, planned: PlannedBuilding, cand: npt.NDArray[np.float64]) -> _Placed:
        rects = [(float(a), float(b), float(c), float(d)) for a, b, c, d in cand]
        bx0, by0 = min(r[0] for r in rects), min(r[1] for r in rects)
        bx1, by1 = max(r[2] for r in rects), max(r[3] for r in rects)
        centre = ((bx0 + bx1) / 2, (by0 + by1) / 2)
        return _Placed(planned.id, _label(planned.id), rects, centre)

    def _at_centre(
        self, section: int, planned: PlannedBuilding, shape: _Shape, centre: tuple[float, float]
    ) -> _Placed | None:
        """On the section's centre (9.4.4), or the nearest free spot when it is taken.

        The search spirals out from the centre; if the building fits nowhere
        within reach it is turned a quarter and the search made again.
        """
        name, what = _label(planned.id), building_label(planned.type).lower()
        x0, y0, x1, y1 = self.table.section_bounds(section).bounds
        offsets, rings = _spiral(1.5 * max(x1 - x0, y1 - y0))
        turned = _Shape([(ry0, rx0, ry1, rx1) for rx0, ry0, rx1, ry1 in shape.rects])
        turn = ""
        hit = self._spiral_fit(centre, offsets, shape)
        if hit is None:
            turn = ", turned a quarter"
            hit = self._spiral_fit(centre, offsets, turned)
        if hit is None:
            return None
        index, cand = hit
        away = float(rings[index])
        if away == 0:
            text = f"{name} ({what}) on the centre of section {section}"
        else:
            text = (
                f"{name} ({what}): the centre of section {section} is taken, "
                f'placed {away:g}" from it{turn}'
            )
        self.r.event("9.4.4", section, planned.id, "placed", text)
        return self._spot(planned, cand)

    def _spiral_fit(
        self, centre: tuple[float, float], offsets: npt.NDArray[np.float64], shape: _Shape
    ) -> tuple[int, npt.NDArray[np.float64]] | None:
        """The first spot of the spiral where the shape fits, and its footprint."""
        for start in range(0, len(offsets), 256):
            centres = np.round(np.asarray(centre) + offsets[start : start + 256], 3)
            cands = self._candidates(centres, shape)
            found = self._first_fit(cands)
            if found is not None:
                return start + found, cands[found]
        return None

    def _near_cluster(
        self,
        section: int,
        planned: PlannedBuilding,
        shape: _Shape,
        cluster: list[_Placed],
        centre: tuple[float, float],
    ) -> _Placed | None:
        """1/2d6" from an already placed building in a rolled direction (9.4.4)."""
        name, what = _label(planned.id), building_label(planned.type).lower()
        anchors = sorted(
            cluster, key=lambda p: math.hypot(p.centre[0] - centre[0], p.centre[1] - centre[1])
        )
        face = self.r.roll("9.4.4", "Placement distance", section, "1/2d6")
        gap = float(half_d6(face))
        self.r.result(_HALF_ROW[face], f'{gap:g}"', building=planned.id)
        every = list(range(len(anchors)))
        # The spots in all six directions at once; the rolls then pick among them.
        clocks = [_CLOCK[f] for f in range(1, 7)]
        ray_centres = self._along(
            anchors, shape, every * 6, [c for c in clocks for _ in every], [gap] * (6 * len(every))
        )
        fits: dict[int, tuple[npt.NDArray[np.float64], int | None]] = {}
        for attempt in range(DIRECTION_ROLLS):
            face = self.r.roll("9.4.4", "Placement direction", section)
            clock = _CLOCK[face]
            self.r.result(str(face), f"towards {clock} o'clock", building=planned.id)
            if clock not in fits:
                start = (face - 1) * len(every)
                cands = self._candidates(ray_centres[start : start + len(every)], shape)
                fits[clock] = (cands, self._first_fit(cands))
            cands, found = fits[clock]
            if found is not None:
                self.r.event(
                    "9.4.4",
                    section,
                    planned.id,
                    "placed",
                    f"{name} ({what}) {gap:g}\" towards {clock} o'clock from {anchors[found].name}",
                )
                return self._spot(planned, cands[found])
            again = (
                "roll the direction again"
                if attempt + 1 < DIRECTION_ROLLS
                else "search the nearest free spot"
            )
            self.r.event(
                "9.4.4",
                section,
                planned.id,
                "blocked",
                f"{name}: no room {gap:g}\" towards {clock} o'clock of any placed "
                f"building; {again}",
            )
        combos = [
            (i, g, c)
            for i in every
            for g in sorted({gap, 1.0, 2.0, 3.0})
            for c in (12, 2, 4, 6, 8, 10, 3, 9)
        ]
        centres = self._along(
            anchors,
            shape,
            [i for i, _, _ in combos],
            [c for *_, c in combos],
            [g for _, g, _ in combos],
        )
        cands = self._candidates(centres, shape)
        found = self._first_fit(cands)
        if found is not None:
            i, g, c = combos[found]
            self.r.event(
                "9.4.4",
                section,
                planned.id,
                "placed",
                f"{name} ({what}) {g:g}\" towards {c} o'clock from "
                f"{anchors[i].name} (nearest free spot)",
            )
            return self._spot(planned, cands[found])
        return self._at_centre(section, planned, shape, centre)

    def _building(self, planned: PlannedBuilding, spot: _Placed, rng: random.Random) -> Building:
        areas = [orient(box(*r)) for r in spot.rects]
        outline = _valid(Polygon(unary_union(areas).exterior))
        openings = _openings(outline, self.size, rng)
        return Building(
            id=planned.id,
            kind=TerrainKind.BUILDING,
            name=spot.name,
            outline=outline,
            floors=planned.type.floors,
            areas=areas,
            openings=openings,
        )


def _label(building_id: str) -> str:
    return "Building " + building_id.rsplit("-", 1)[1]


def _openings(outline: Polygon, size: float, rng: random.Random) -> list[Opening]:
    """Windows on most walls and at least one door (8.2), all on the outline."""
    door_w, window_w = size / 4, size / 5
    coords = list(outline.exterior.coords)
    walls = []
    for p, q in itertools.pairwise(coords):
        length = math.hypot(q[0] - p[0], q[1] - p[1])
        if length >= 2 * window_w:
            walls.append((p, q, length))
    slots: list[tuple[int, float]] = []  # (wall index, centre fraction)
    for i, (_, _, length) in enumerate(walls):
        count = rng.choice([0, 1, 1, 2]) if length >= 0.75 * size else rng.choice([0, 1])
        slots.extend((i, (j + 1) / (count + 1)) for j in range(count))
    longest = sorted(range(len(walls)), key=lambda i: -walls[i][2])
    if not slots:
        slots = [(longest[0], 0.5)]
    door_candidates = [k for k, (i, _) in enumerate(slots) if walls[i][2] >= 1.5 * door_w]
    door = rng.choice(door_candidates) if door_candidates else 0
    if len(slots) == 1:
        other = next((i for i in longest if i != slots[0][0]), longest[0])
        slots.append((other, 0.5 if other != slots[0][0] else 0.25))
    openings = []
    for k, (i, frac) in enumerate(slots):
        p, q, length = walls[i]
        width = door_w if k == door else window_w
        half = min(width, length / (1 + sum(1 for j, _ in slots if j == i))) / 2 / length
        ends = []
        for f in (frac - half, frac + half):
            ends.append((round(p[0] + (q[0] - p[0]) * f, 3), round(p[1] + (q[1] - p[1]) * f, 3)))
        kind = OpeningKind.DOOR if k == door else OpeningKind.WINDOW
        openings.append(Opening(kind, ends[0], ends[1]))
    return openings
