"""JSON Schema of the ``.crdesk`` scenario file, format version 1.

The schema is the contract shared scenarios are checked against.  Each leaf
carries an ``x-expected`` phrase (our own annotation keyword, ignored by
validators) so that every problem can be reported in a player's words:
``forces[1].figures[3].rep: expected an integer 2..9, got "five"``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from crdesk import limits
from crdesk.model import (
    REP_MAX,
    REP_MIN,
    BandType,
    CoverType,
    EncounterType,
    MeleeWeapon,
    OpeningKind,
    Role,
    Status,
    TerrainKind,
    WeaponCode,
)
from crdesk.options import Interpretations, Scale, Weather
from crdesk.rules.firearms.cards import NAME_CHARS as WEAPON_NAME_CHARS
from crdesk.rules.firearms.cards import cards_schema

FORMAT_VERSION = 1
"""The newest scenario format this crdesk writes and reads."""

COORD_LIMIT = limits.COORD_ABS
"""The quick bound of any coordinate; the loader then checks each point against the
table's own size plus :data:`crdesk.limits.COORD_MARGIN`."""
MAX_TABLE = limits.TABLE_MAX
MAX_FEATURES = limits.FEATURES
MAX_POINTS = limits.POINTS_PER_OUTLINE
MAX_FIGURES = limits.FIGURES_PER_FORCE


def enum_schema(values: list[str], what: str) -> dict[str, Any]:
    """A field that takes one of ``values``; its message names ``what`` it is."""
    return {"enum": values, "x-expected": f"{what}: one of {', '.join(values)}"}


def enum_values(enum_type: Any) -> list[str]:
    """The values of an enum, in order (for :func:`enum_schema`)."""
    return [member.value for member in enum_type]


ID = {
    "type": "string",
    "minLength": 1,
    "maxLength": limits.ID_CHARS,
    "pattern": "^[A-Za-z0-9_.:-]+$",
    "x-expected": "an id of 1-64 letters, digits, '_', '.', ':' or '-'",
}
NAME = {
    "type": "string",
    "maxLength": limits.NAME_CHARS,
    "x-expected": f"a text of at most {limits.NAME_CHARS} characters",
}
BOOL = {"type": "boolean", "x-expected": "true or false"}
"""The schemas of an id, a name and a yes/no field, shared with the Band file's."""
_COORD = {
    "type": "number",
    "minimum": -COORD_LIMIT,
    "maximum": COORD_LIMIT,
    "x-expected": f"a number of inches between -{COORD_LIMIT:g} and {COORD_LIMIT:g}",
}
_POINT = {
    "type": "array",
    "items": _COORD,
    "minItems": 2,
    "maxItems": 2,
    "x-expected": "a point [x, y] in inches",
}
POINT_SCHEMA = _POINT
"""The schema of one point (the validator checks long lists of them quickly)."""
_RING = {
    "type": "array",
    "items": _POINT,
    "minItems": 3,
    "maxItems": MAX_POINTS,
    "x-expected": "a list of at least 3 points [x, y]",
}
_LINE = {
    "type": "array",
    "items": _POINT,
    "minItems": 2,
    "maxItems": MAX_POINTS,
    "x-expected": "a list of at least 2 points [x, y]",
}

_OPENING = {
    "type": "object",
    "x-expected": 'an opening {"kind": "door" or "window", "start": [x, y], "end": [x, y]}',
    "required": ["kind", "start", "end"],
    "additionalProperties": False,
    "properties": {
        "kind": enum_schema(enum_values(OpeningKind), "an opening kind"),
        "start": _POINT,
        "end": _POINT,
    },
}

_FEATURE = {
    "type": "object",
    "x-expected": "a terrain feature object",
    "required": ["id", "kind", "outline"],
    "additionalProperties": False,
    "properties": {
        "id": ID,
        "kind": enum_schema(enum_values(TerrainKind), "a terrain kind"),
        "name": NAME,
        "outline": _RING,
        "holes": {
            "type": "array",
            "items": _RING,
            "maxItems": limits.HOLES_PER_FEATURE,
            "x-expected": "a list of rings",
        },
        "crest": _LINE,
        "floors": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9,
            "x-expected": "an integer 1..9",
        },
        "areas": {
            "type": "array",
            "items": _RING,
            "minItems": 1,
            "maxItems": limits.AREAS_PER_BUILDING,
            "x-expected": "a list of at least one area outline",
        },
        "openings": {
            "type": "array",
            "items": _OPENING,
            "maxItems": limits.OPENINGS_PER_BUILDING,
            "x-expected": "a list of doors and windows",
        },
        "cover_type": enum_schema(enum_values(CoverType), "a cover type"),
    },
}

_FIGURE = {
    "type": "object",
    "x-expected": "a figure object",
    "required": ["id", "rep", "position"],
    "additionalProperties": False,
    "properties": {
        "id": ID,
        "name": NAME,
        "role": enum_schema(enum_values(Role), "a role"),
        "rep": {
            "type": "integer",
            "minimum": REP_MIN,
            "maximum": REP_MAX,
            "x-expected": f"an integer {REP_MIN}..{REP_MAX}",
        },
        "weapon": enum_schema(enum_values(WeaponCode), "a weapon"),
        "melee": enum_schema(enum_values(MeleeWeapon), "a melee weapon"),
        "position": _POINT,
        "facing": {
            "type": "number",
            "minimum": 0,
            "exclusiveMaximum": 360,
            "x-expected": "degrees, at least 0 and below 360",
        },
        "base": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 12,
            "x-expected": "a base diameter in inches, above 0 and at most 12",
        },
        "status": enum_schema(enum_values(Status), "a status"),
        "star_power": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 20,
            "x-expected": "null or an integer 0..20",
        },
        "out_of_ammo": BOOL,
        "prone": BOOL,
        "fast_moving": BOOL,
        "weapon_card": {
            "type": "string",
            "maxLength": WEAPON_NAME_CHARS,
            "x-expected": f"the name of one of the scenario's weapons (at most "
            f"{WEAPON_NAME_CHARS} characters)",
        },
    },
}

_FORCE = {
    "type": "object",
    "x-expected": "a force object",
    "required": ["id", "figures"],
    "additionalProperties": False,
    "properties": {
        "id": ID,
        "name": NAME,
        "band": enum_schema(enum_values(BandType), "a band type"),
        "player": BOOL,
        "colour": {
            "type": "string",
            "pattern": "^#[0-9a-fA-F]{6}$",
            "x-expected": "a colour like #1f5fbf",
        },
        "figures": {
            "type": "array",
            "items": _FIGURE,
            "maxItems": MAX_FIGURES,
            "x-expected": "a list of figures",
        },
    },
}


def _interpretations_schema() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for f in dataclasses.fields(Interpretations):
        if f.type in ("bool", bool):
            props[f.name] = BOOL
        else:
            props[f.name] = {
                "type": "number",
                "minimum": 0,
                "maximum": 360,
                "x-expected": "a number",
            }
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": props,
        "x-expected": "an object of named interpretation options",
    }


_RULES = {
    "type": "object",
    "x-expected": "a rules settings object",
    "additionalProperties": False,
    "properties": {
        "scale": enum_schema(enum_values(Scale), "a figure scale"),
        "old_school": BOOL,
        "firearms_detail": BOOL,
        "night": BOOL,
        "weather": enum_schema(enum_values(Weather), "a weather"),
        "interpretations": _interpretations_schema(),
    },
}

_ENCOUNTER = {
    "type": "object",
    "x-expected": "an encounter object",
    "additionalProperties": False,
    "properties": {
        "type": enum_schema(enum_values(EncounterType), "an encounter type"),
        "enemy_band": {
            "enum": [*enum_values(BandType), None],
            "x-expected": f"null or one of {', '.join(enum_values(BandType))}",
        },
        "pef_count": {
            "type": "integer",
            "minimum": 0,
            "maximum": 12,
            "x-expected": "an integer 0..12",
        },
    },
}

_GENERATION = {
    "type": ["object", "null"],
    "x-expected": "null or a generation record",
    "required": ["seed"],
    "additionalProperties": False,
    "properties": {
        "seed": {"type": "integer", "x-expected": "an integer seed"},
        "inputs": {"type": "object", "x-expected": "an object"},
        "log": {
            "type": "array",
            "items": {"type": "object", "x-expected": "a log entry object"},
            "maxItems": limits.GENERATION_LOG,
            "x-expected": f"a list of at most {limits.GENERATION_LOG:,} log entries",
        },
    },
}

SCENARIO_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://crdesk.invalid/schema/scenario-v1.json",
    "title": "crdesk scenario, format version 1",
    "type": "object",
    "x-expected": "a JSON object (a crdesk scenario)",
    "required": ["format_version", "table", "terrain", "forces"],
    "additionalProperties": False,
    "properties": {
        "format_version": {
            "type": "integer",
            "minimum": 1,
            "x-expected": f"an integer format version (this crdesk writes {FORMAT_VERSION})",
        },
        "generator": {"type": "string", "maxLength": 100, "x-expected": "a text"},
        "title": NAME,
        "description": {
            "type": "string",
            "maxLength": limits.DESCRIPTION_CHARS,
            "x-expected": f"a text of at most {limits.DESCRIPTION_CHARS:,} characters",
        },
        "table": {
            "type": "object",
            "x-expected": 'a table {"width": W, "height": H} in inches',
            "required": ["width", "height"],
            "additionalProperties": False,
            "properties": {
                "width": {
                    "type": "number",
                    "minimum": limits.TABLE_MIN,
                    "maximum": MAX_TABLE,
                    "x-expected": f"a width in inches, {limits.TABLE_MIN:g}..{MAX_TABLE:g}",
                },
                "height": {
                    "type": "number",
                    "minimum": limits.TABLE_MIN,
                    "maximum": MAX_TABLE,
                    "x-expected": f"a height in inches, {limits.TABLE_MIN:g}..{MAX_TABLE:g}",
                },
            },
        },
        "terrain": {
            "type": "array",
            "items": _FEATURE,
            "maxItems": MAX_FEATURES,
            "x-expected": "a list of terrain features",
        },
        "forces": {
            "type": "array",
            "items": _FORCE,
            "maxItems": limits.FORCES,
            "x-expected": "a list of forces",
        },
        "rules": _RULES,
        "encounter": _ENCOUNTER,
        "generation": _GENERATION,
        # Firearms Detail's user weapons (FD §2); optional, so no migration
        "weapons": cards_schema(),
    },
}
