"""The saved game's schema (``.crgame``, format 1) and the checks of a parsed game
document: the fields and their limits, the cross-field checks (the hash checks in
step order, a pending step only in a manual-dice game, co-op seats), and the
schema of a saved snapshot of the game state (what :meth:`Game.from_snapshot`
may be given).  Writing and reading the file is :mod:`crdesk.game.savefile`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from jsonschema import Draft202012Validator

from crdesk import limits
from crdesk.errors import (
    Problem,
)
from crdesk.game.actions import MAX_ACTION_CHARS
from crdesk.game.seats import MAX_NAME, MAX_SEATS
from crdesk.game.settings import MANUAL, SEEDED, GameSettings
from crdesk.scenario import (
    bad_texts,
    path_sort_key,
    printable,
    schema_problem,
)

GAME_FORMAT_VERSION = 1
"""The newest saved-game format this crdesk writes and reads."""
MAX_DEPTH = 64
"""Deepest JSON nesting accepted; a real game file nests about 8 levels."""
MAX_STEPS = limits.SAVED_GAME_STEPS
MAX_TEXT = 2_000

_HASH = {
    "type": "string",
    "pattern": "^[0-9a-f]{64}$",
    "x-expected": "a SHA-256 hash: 64 hex digits",
}
_ID = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "pattern": "^[A-Za-z0-9_.:-]+$",
    "x-expected": "a side id or 'chance'",
}
_FACES = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": 6, "x-expected": "a d6 face 1-6"},
    "maxItems": limits.STEP_FACES,
    "x-expected": f"a list of at most {limits.STEP_FACES:,} d6 faces",
}
_ACTION = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_ACTION_CHARS,
    "x-expected": f"an action's text (at most {MAX_ACTION_CHARS} characters)",
}
_WHY = {
    "type": "string",
    "maxLength": MAX_TEXT,
    "x-expected": f"a text of at most {MAX_TEXT} characters",
}
_STEP = {
    "type": "object",
    "x-expected": 'a step {"actor": ..., "action": ..., "faces": [...], "why": ...}',
    "required": ["actor", "action"],
    "additionalProperties": False,
    "properties": {"actor": _ID, "action": _ACTION, "faces": _FACES, "why": _WHY},
}
_SETTING_TYPES: dict[str, dict[str, Any]] = {
    "practice_undo": {"type": "boolean", "x-expected": "true or false"},
    "solo": {"type": "boolean", "x-expected": "true or false"},
    "hot_seat": {"type": "boolean", "x-expected": "true or false"},
    "encounter": {
        "enum": ["", "patrol", "raid", "defend"],
        "x-expected": 'the encounter played: "patrol", "raid", "defend" or "" (none)',
    },
    "max_turns": {
        "anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": 10_000}],
        "x-expected": "null or a number of turns 1..10000",
    },
    "program_sides": {
        "type": "array",
        "maxItems": 8,
        "items": {"type": "string", "maxLength": 200},
        "x-expected": "a list of side ids",
    },
    "band": {  # the campaign's Band in this encounter (crdesk.game.settings.BandRecord)
        "type": "object",
        "required": ["id", "members", "encounter"],
        "additionalProperties": False,
        "x-expected": 'the Band {"id": ..., "members": ..., "encounter": N, "name": ...}',
        "properties": {
            "id": {"type": "string", "maxLength": 64, "x-expected": "a Band's identity"},
            "members": {
                "type": "string",
                "pattern": "^[0-9a-f]{16,64}$",
                "x-expected": "a hash of the Band's members",
            },
            "encounter": {
                "type": "integer",
                "minimum": 1,
                "maximum": 100_000,
                "x-expected": "the encounter's number in the Band's story",
            },
            "name": {"type": "string", "maxLength": 200, "x-expected": "the Band's name"},
        },
    },
    "seats": {  # co-op: the people sharing a side's groups (crdesk.game.seats)
        "type": "array",
        "maxItems": MAX_SEATS,
        "items": {
            "type": "object",
            "required": ["name", "side"],
            "additionalProperties": False,
            "x-expected": 'a player {"name": ..., "side": ..., "figures": [...]}',
            "properties": {
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": MAX_NAME,
                    "x-expected": f"a player's name (1 to {MAX_NAME} characters)",
                },
                "side": {"type": "string", "maxLength": 200, "x-expected": "a side id"},
                "figures": {
                    "type": "array",
                    "maxItems": limits.FIGURES_PER_TABLE,
                    "items": {"type": "string", "maxLength": 200},
                    "x-expected": "a list of figure ids",
                },
            },
        },
        "x-expected": f"a list of at most {MAX_SEATS} players",
    },
}


def _settings_schema() -> dict[str, Any]:
    """Every field of :class:`GameSettings` (new ones are accepted as any JSON value)."""
    names = [f.name for f in dataclasses.fields(GameSettings)]
    return {
        "type": "object",
        "x-expected": "a game settings object",
        "additionalProperties": False,
        "properties": {name: _SETTING_TYPES.get(name, {}) for name in names},
    }


GAME_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://crdesk.invalid/schema/game-v1.json",
    "title": "crdesk saved game, format version 1",
    "type": "object",
    "x-expected": "a JSON object (a crdesk saved game)",
    "required": [
        "format_version",
        "rules_hash",
        "scenario",
        "seed",
        "dice",
        "settings",
        "steps",
        "checks",
        "final",
    ],
    "additionalProperties": False,
    "properties": {
        "format_version": {
            "type": "integer",
            "minimum": 1,
            "x-expected": f"an integer format version (this crdesk writes {GAME_FORMAT_VERSION})",
        },
        "crdesk_version": {
            "type": "string",
            "maxLength": 100,
            "x-expected": "a crdesk version text",
        },
        "rules_hash": _HASH,
        "scenario": {"type": "object", "x-expected": "a crdesk scenario object"},
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**63 - 1,
            "x-expected": "a dice seed: a whole number 0 or more",
        },
        "dice": {
            "enum": [SEEDED, MANUAL],
            "x-expected": f"the dice: one of {SEEDED}, {MANUAL}",
        },
        "settings": _settings_schema(),
        "steps": {
            "type": "array",
            "items": _STEP,
            "maxItems": MAX_STEPS,
            "x-expected": "a list of steps",
        },
        "pending": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["action", "actor"],
                    "additionalProperties": False,
                    "properties": {
                        "action": _ACTION,
                        "actor": _ID,
                        "faces": _FACES,
                        "why": _WHY,
                    },
                },
            ],
            "x-expected": 'null or the action waiting for dice {"action", "actor", "faces"}',
        },
        "checks": {
            "type": "array",
            "maxItems": MAX_STEPS,
            "x-expected": "a list of state checks",
            "items": {
                "type": "object",
                "x-expected": 'a check {"step": N, "hash": ...}',
                "required": ["step", "hash"],
                "additionalProperties": False,
                "properties": {
                    "step": {
                        "type": "integer",
                        "minimum": 1,
                        "x-expected": "a step number, 1 or more",
                    },
                    "hash": _HASH,
                },
            },
        },
        "final": {
            "type": "object",
            "x-expected": 'the final state {"state_hash": ..., "state": {...}}',
            "required": ["state_hash", "state"],
            "additionalProperties": False,
            "properties": {
                "state_hash": _HASH,
                "state": {"type": "object", "x-expected": "a game state object"},
            },
        },
    },
}

VALIDATOR = Draft202012Validator(GAME_SCHEMA)
STEP_VALIDATOR = Draft202012Validator(_STEP)


_INT = {"type": "integer", "minimum": 0, "x-expected": "a whole number 0 or more"}
_IDS = {"type": "array", "items": {"type": "string"}, "x-expected": "a list of figure ids"}
_BY_ID = {"type": "object", "x-expected": "an object by figure id"}
SNAPSHOT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "x-expected": "a game state object",
    "required": ["battlefield", "game", "frames", "pending", "steps"],
    "properties": {
        "battlefield": {
            "type": "object",
            "required": ["terrain_digest", "forces"],
            "x-expected": "the battlefield's state",
            "properties": {
                "terrain_digest": {"type": "string", "x-expected": "a digest"},
                "forces": {
                    "type": "array",
                    "x-expected": "a list of forces",
                    "items": {
                        "type": "object",
                        "required": ["id", "figures"],
                        "x-expected": "a force's state",
                        "properties": {
                            "id": {"type": "string", "x-expected": "a force id"},
                            "figures": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "required": ["id"],
                                    "x-expected": "a figure's state",
                                    "properties": {"id": {"type": "string", "x-expected": "an id"}},
                                },
                                "x-expected": "a list of figures",
                            },
                        },
                    },
                },
            },
        },
        "game": {
            "type": "object",
            "x-expected": "the game's state",
            "required": ["turn", "die", "outcome", "activated"],
            "properties": {
                "turn": {**_INT, "minimum": 1, "x-expected": "a turn number, 1 or more"},
                "die": _INT,
                "volleys": _INT,
                "activations": _INT,
                "scores": {"type": "object", "additionalProperties": _INT, "x-expected": "scores"},
                "rep_lost": {**_BY_ID, "additionalProperties": _INT},
                "floors": {**_BY_ID, "additionalProperties": _INT},
                "carrying": {**_BY_ID, "additionalProperties": {"type": "string"}},
                "captives": {**_BY_ID, "additionalProperties": {"type": "string"}},
                "grenades": {**_BY_ID, "additionalProperties": {"type": "object"}},
                "fired_from": _BY_ID,
                "activated": _IDS,
                "ducked": _IDS,
                "thrown": _IDS,
                "collapsed": {"type": "array", "x-expected": "a list"},
                "exited": _IDS,
                "hidden": {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "prefixItems": [{"type": "string"}, {"type": "string"}],
                        "minItems": 2,
                        "maxItems": 2,
                    },
                    "x-expected": "a list of [figure, cause] ids (ducked back out of sight)",
                },
                "outcome": {
                    "anyOf": [
                        {"type": "null"},
                        {
                            "type": "object",
                            "required": ["winner", "reason", "turn"],
                            "properties": {
                                "winner": {"type": ["string", "null"]},
                                "reason": {"type": "string"},
                                "turn": {"type": "integer", "minimum": 1},
                                "won": {"type": "boolean"},
                                "next_encounter": {"type": ["string", "null"]},
                            },
                        },
                    ],
                    "x-expected": "null or an outcome {winner, reason, turn}",
                },
                "pefs": {"type": "array", "x-expected": "a list of PEFs"},
                "pef": {"type": "object", "x-expected": "the PEFs' state"},
                "encounter": {"type": "object", "x-expected": "the encounter's state"},
            },
        },
        "frames": {
            "type": "array",
            "x-expected": "a list of frames",
            "items": {
                "type": "object",
                "required": ["kind", "data"],
                "additionalProperties": False,
                "x-expected": 'a frame {"kind": ..., "data": {...}}',
                "properties": {
                    "kind": {"type": "string", "x-expected": "a frame kind"},
                    "data": {"type": "object", "x-expected": "the frame's data"},
                },
            },
        },
        "pending": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["action", "actor", "faces", "why", "need"],
                    "properties": {
                        "action": _ACTION,
                        "actor": _ID,
                        "faces": _FACES,
                        "why": _WHY,
                        "need": {
                            "type": "object",
                            "required": ["count", "context"],
                            "properties": {
                                "count": {"type": "integer", "minimum": 1},
                                "context": {"type": "string"},
                            },
                        },
                    },
                },
            ],
            "x-expected": "null or the step waiting for dice",
        },
        "steps": _INT,
    },
}
"""What a snapshot (:meth:`Game.state_document`) must be before the game is put into it:
the files come from other players, and a field of the wrong type would only fail where
it is used (``crdesk game show``, the app's Open Game)."""
SNAPSHOT_VALIDATOR = Draft202012Validator(SNAPSHOT_SCHEMA)


def snapshot_problems(state: Any) -> list[Problem]:
    """Every problem of a saved snapshot, by its path in the file (``final.state....``)."""
    return [
        under("final.state", schema_problem(err)) for err in SNAPSHOT_VALIDATOR.iter_errors(state)
    ]


def check_game_document(data: dict[str, Any]) -> list[Problem]:
    """Every problem of a parsed game document: the schema, then cross-field checks."""
    problems = [schema_problem(err) for err in VALIDATOR.iter_errors(data)]
    if not problems:
        problems = _cross_checks(data)
    problems += bad_texts(data, "")  # a lone surrogate would load, then never save
    return sorted(map(printable, problems), key=_problem_order)


_FIELD_ORDER = {name: i for i, name in enumerate(GAME_SCHEMA["properties"])}


def _problem_order(problem: Problem) -> tuple[int, list[tuple[int, int | str]]]:
    """Problems in the order of the file's fields, then by path within a field."""
    top = re.split(r"[.\[]", problem.path, maxsplit=1)[0]
    return (_FIELD_ORDER.get(top, -1), path_sort_key(problem.path))


def _cross_checks(data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    count = len(data["steps"])
    previous = 0
    for i, check in enumerate(data["checks"]):
        n = check["step"]
        if n > count:
            problems.append(
                Problem(f"checks[{i}].step", f"step {n} is past the last step ({count})")
            )
        elif n <= previous:
            problems.append(
                Problem(f"checks[{i}].step", f"checks go in step order (step {n} after {previous})")
            )
        previous = max(previous, n)
    pending = data.get("pending")
    if pending is not None and data["dice"] != MANUAL:
        problems.append(Problem("pending", "only a manual-dice game waits for dice"))
    elif pending is not None and (pending["action"] == "start") != (count == 0):
        problems.append(
            Problem("pending.action", "only a game with no steps yet waits for its start dice")
        )
    if count == 0 and pending is None:
        problems.append(Problem("steps", "a game has at least its 'start' step"))
    problems += _seat_problems(data)
    return problems


def _seat_problems(data: dict[str, Any]) -> list[Problem]:
    """Co-op seats name a side of the scenario, and no two players share a name."""
    forces = data["scenario"].get("forces")
    listed = forces if isinstance(forces, list) else []
    sides = {f.get("id") for f in listed if isinstance(f, dict) and isinstance(f.get("id"), str)}
    problems: list[Problem] = []
    names: set[str] = set()
    for i, seat in enumerate(data["settings"].get("seats", [])):
        if sides and seat["side"] not in sides:
            problems.append(
                Problem(f"settings.seats[{i}].side", f"{seat['side']!r} is no side of the scenario")
            )
        if seat["name"] in names:
            problems.append(
                Problem(f"settings.seats[{i}].name", f"two players are called {seat['name']!r}")
            )
        names.add(seat["name"])
    return problems


def under(where: str, problem: Problem) -> Problem:
    """The problem with its path put under ``where`` (a step's, the snapshot's)."""
    path = problem.path
    joined = f"{where}{path}" if path.startswith("[") else f"{where}.{path}" if path else where
    return Problem(joined, problem.message)
