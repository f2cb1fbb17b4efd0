"""Table generation rolls (9.2, 9.3.1, 9.4.4, 9.5) for the terrain generator."""

from __future__ import annotations

from crdesk.dice import DiceSource, half_d6
from crdesk.rules.common import TableRoll, plural
from crdesk.tables import (
    BUILDING_TYPE,
    OVERALL_TERRAIN,
    TERRAIN_GENERATOR,
    TableType,
    building_count,
)


def overall_terrain(dice: DiceSource) -> TableRoll:
    """Overall terrain type 9.2: 1-3 Clear, 4 Urban, 5 Wooded, 6 Mountainous."""
    roll = dice.roll(1, section="9.2", table="Overall Terrain Type")
    kind = OVERALL_TERRAIN[roll.faces[0] - 1]
    dice.note(roll, kind.value)
    return TableRoll(
        "9.2",
        "Overall Terrain Type",
        "",
        roll.faces,
        None,
        None,
        kind.value,
        f"Rolled {roll.faces[0]}: {kind.value} table (9.2).",
    )


def section_terrain(dice: DiceSource, table_type: TableType, section: int) -> TableRoll:
    """Terrain Generator 9.3.1 for one section; ``extra`` says whether it has buildings."""
    roll = dice.roll(1, section="9.3.1", table="Terrain Generator", who=f"section {section}")
    t = TERRAIN_GENERATOR[table_type][roll.faces[0] - 1]
    words = t.ground.value + (" (B)" if t.buildings else "")
    dice.note(roll, words)
    return TableRoll(
        "9.3.1",
        "Terrain Generator",
        f"section {section}",
        roll.faces,
        None,
        None,
        t.ground.value,
        f"Section {section} rolled {roll.faces[0]}: {words} (9.3.1).",
        extra=(("buildings", t.buildings),),
    )


def buildings_in_section(dice: DiceSource, table_type: TableType) -> TableRoll:
    """Number of buildings 9.4.4: 3 + 1/2d6 on an Urban table, else 1/2d6."""
    roll = dice.roll(1, section="9.4.4", table="Number of Buildings")
    n = building_count(table_type, half_d6(roll.faces[0]))
    dice.note(roll, f"{n} buildings")
    return TableRoll(
        "9.4.4",
        "Number of Buildings",
        "",
        roll.faces,
        None,
        None,
        "buildings",
        f"Rolled {roll.faces[0]}: {plural(n, 'building')} (9.4.4).",
        value=n,
    )


def building_type(dice: DiceSource, table_type: TableType) -> TableRoll:
    """Building Type 9.5: areas (``value``) and floors (``extra``)."""
    roll = dice.roll(1, section="9.5", table="Building Type")
    b = BUILDING_TYPE[table_type][roll.faces[0] - 1]
    dice.note(roll, f"{plural(b.areas, 'area')}, {plural(b.floors, 'floor')}")
    return TableRoll(
        "9.5",
        "Building Type",
        "",
        roll.faces,
        None,
        None,
        "building",
        f"Rolled {roll.faces[0]}: {plural(b.areas, 'area')}, {plural(b.floors, 'floor')} (9.5).",
        value=b.areas,
        extra=(("floors", b.floors),),
    )
