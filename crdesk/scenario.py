"""The ``.crdesk`` scenario file: load, validate, migrate and save.

Files come from other players, so loading is defensive (STYLE 8): the bytes are
size-checked, decoded as UTF-8, parsed as strict JSON (no NaN), migrated to the
current format version, validated against :data:`crdesk.schema.SCENARIO_SCHEMA`
plus a few cross-field checks, and only then turned into model objects.  Every
problem is reported with the JSON path of the bad field.  Saving is atomic, so a
crash mid-save never destroys the previous file.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from shapely.geometry import LineString, Polygon

from crdesk import __version__, limits
from crdesk.errors import (
    ModelError,
    NewerFormatError,
    Problem,
    ScenarioFormatError,
    UnreadableFileError,
)
from crdesk.jsonfile import TooLarge, finite_float, remove_stale_temps, write_atomic
from crdesk.model import (
    BandType,
    Battlefield,
    Building,
    CoverObstacle,
    CoverType,
    Encounter,
    EncounterType,
    Figure,
    Force,
    GenerationRecord,
    Hill,
    LoadNote,
    MeleeWeapon,
    Opening,
    OpeningKind,
    Role,
    Scenario,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
    WeaponCode,
)
from crdesk.options import RulesOptions
from crdesk.rules.firearms.cards import (
    MAX_WEAPONS,
    WeaponCard,
    card_problems,
    figure_card_problem,
    parse_cards,
)
from crdesk.schema import COORD_LIMIT, FORMAT_VERSION, POINT_SCHEMA, SCENARIO_SCHEMA
from crdesk.shapes import crossings, open_ring, repaired

SUFFIX = ".crdesk"
MAX_FILE_BYTES = limits.FILE_BYTES
"""Real scenarios are a few hundred kB; refuse anything far larger before reading it."""

_PLAIN_ITEMS = Draft202012Validator.VALIDATORS["items"]


def _is_point(value: object) -> bool:
    return (
        type(value) is list
        and len(value) == 2
        and all(type(c) in (int, float) and -COORD_LIMIT <= c <= COORD_LIMIT for c in value)
    )


def _items(
    validator: Any, items: Any, instance: Any, schema: dict[str, Any]
) -> Iterable[ValidationError]:
    """``items``, with a shortcut for lists of points that are all fine.

    Outlines and crests hold most of a file (a generated 6' x 4' table has
    about a thousand points); checking each point through the schema took some
    50 ms per file.  Any list with a doubtful point goes the plain way, so the
    problems reported are exactly the schema's.
    """
    if items is POINT_SCHEMA and type(instance) is list and all(map(_is_point, instance)):
        return
    yield from _PLAIN_ITEMS(validator, items, instance, schema)


_VALIDATOR = validators.extend(Draft202012Validator, {"items": _items})(SCENARIO_SCHEMA)
_FEATURE_SCHEMA = SCENARIO_SCHEMA["properties"]["terrain"]["items"]
_FIGURE_SCHEMA = SCENARIO_SCHEMA["properties"]["forces"]["items"]["properties"]["figures"]["items"]

Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` turns a format-``n`` document into format ``n + 1``."""

_KIND_KEYS: dict[TerrainKind, set[str]] = {
    TerrainKind.WOODS: set(),
    TerrainKind.IMPASSABLE: set(),
    TerrainKind.HILL: {"crest"},
    TerrainKind.WOODED_HILL: {"crest"},
    TerrainKind.BUILDING: {"floors", "areas", "openings"},
    TerrainKind.COVER: {"cover_type"},
}
_COMMON_KEYS = {"id", "kind", "name", "outline", "holes"}


# --------------------------------------------------------------------------
# Reading


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a file into a JSON document, refusing what cannot be a scenario.

    Raises :class:`UnreadableFileError` with a message a player can act on.
    """
    p = Path(path)
    return parse_document(read_limited(p, "scenario"), source=str(p))


def read_limited(p: Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Devices and pipes are refused before they are opened (``/dev/zero`` has no
    size and never ends; opening a FIFO waits for a writer forever), and the
    read itself stops one byte past the limit, so a file growing meanwhile
    cannot make it unbounded either.
    """
    remove_stale_temps(p)  # a killed save's temp, beside a file that may only be read again
    try:
        info = p.stat()
    except FileNotFoundError:
        raise UnreadableFileError(f"{p}: no such file") from None
    except OSError as exc:
        raise UnreadableFileError(f"{p}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFileError(f"{p}: is a folder, not a {what} file")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFileError(f"{p}: a device or pipe, not a {what} file")
    if info.st_size > limit:
        raise UnreadableFileError(
            f"{p}: the file is {info.st_size / 1_048_576:.1f} MB; {what} files over "
            f"{limit // 1_048_576} MB are refused"
        )
    try:
        with p.open("rb") as f:
            raw = f.read(limit + 1)
    except OSError as exc:
        raise UnreadableFileError(f"{p}: cannot read ({exc.strerror})") from None
    if len(raw) > limit:
        raise UnreadableFileError(
            f"{p}: the file is over {limit // 1_048_576} MB; {what} files that large are refused"
        )
    return raw


def parse_document(raw: bytes, source: str = "<data>") -> dict[str, Any]:
    """Decode and parse bytes as a strict JSON object."""
    if b"\x00" in raw[:8192]:
        raise UnreadableFileError(f"{source}: a binary file, not a crdesk scenario")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(
            f"{source}: not UTF-8 text (bad byte at offset {exc.start}); not a crdesk scenario"
        ) from None
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=finite_float)
    except json.JSONDecodeError as exc:
        hint = " (the file looks cut short)" if exc.pos >= len(text.rstrip()) else ""
        raise UnreadableFileError(
            f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}{hint}"
        ) from None
    except RecursionError:
        raise UnreadableFileError(f"{source}: JSON nested too deeply to be a scenario") from None
    except ValueError as exc:  # NaN/Infinity, or integers with absurdly many digits
        raise UnreadableFileError(f"{source}: invalid JSON value: {exc}") from None
    if not isinstance(data, dict):
        what = f"expected a JSON object (a crdesk scenario), got {_describe(data)}"
        raise ScenarioFormatError([printable(Problem("", what))], source)
    return data


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a scenario file")


def migrate(data: dict[str, Any], source: str = "<data>") -> dict[str, Any]:
    """Bring a document up to :data:`FORMAT_VERSION`, or say why it cannot be."""
    version = data.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        return data  # the schema reports the missing or malformed version
    if version > FORMAT_VERSION:
        raise NewerFormatError(
            f"{source}: made by a newer crdesk (scenario format version {version}); this "
            f"crdesk {__version__} reads format versions up to {FORMAT_VERSION}. "
            "Update crdesk to open it."
        )
    while version < FORMAT_VERSION and version in MIGRATIONS:
        data = MIGRATIONS[version](data)
        version = data["format_version"]
    return data


def check_document(data: dict[str, Any]) -> list[Problem]:
    """Every problem in a (migrated) document: schema first, then cross-field checks.

    The sizes (:mod:`crdesk.limits`) are checked first, by counting alone: a file
    over them is refused with just those problems, before the schema walks
    every item of lists that are already too long.
    """
    problems = limit_problems(data)
    if problems:
        return problems
    problems = [
        schema_problem(err)
        for err in _VALIDATOR.iter_errors(data)
        if not (err.absolute_path and err.absolute_path[0] == "weapons")
    ]
    problems += _weapon_problems(data)
    problems += _cross_checks(data)
    return sorted(map(printable, problems), key=lambda p: path_sort_key(p.path))


def _weapon_problems(data: dict[str, Any]) -> list[Problem]:
    """The user weapons (FD §2) by the cards module's own checks, and each figure's
    ``weapon_card`` against them (a name the scenario holds, of the figure's category)."""
    weapons = data.get("weapons", [])
    problems = card_problems(weapons)
    if problems:
        return problems
    cards = parse_cards(weapons)
    for i, force in enumerate(_objects(data.get("forces"))):
        for j, figure in enumerate(_objects(force.get("figures"))):
            name, weapon = figure.get("weapon_card"), figure.get("weapon", "AR")
            if not isinstance(name, str) or not isinstance(weapon, str):
                continue  # the schema says what they should be
            found = figure_card_problem(
                weapon, name, cards, f"forces[{i}].figures[{j}].weapon_card"
            )
            if found is not None:
                problems.append(found)
    return problems


def printable(problem: Problem) -> Problem:
    """The problem with lone surrogates shown as U+FFFD, so it can be printed and shown."""
    if _SURROGATE.search(problem.path) or _SURROGATE.search(problem.message):
        return Problem(
            _SURROGATE.sub("\ufffd", problem.path), _SURROGATE.sub("\ufffd", problem.message)
        )
    return problem


def limit_problems(data: dict[str, Any]) -> list[Problem]:
    """The document's sizes against :mod:`crdesk.limits`, by counting (no item is checked).

    Malformed parts are skipped; the schema reports them.
    """
    problems: list[Problem] = []

    def over(path: str, value: Any, limit: int, noun: str, where: str) -> int:
        count = len(value) if isinstance(value, list) else 0
        if count > limit:
            problems.append(Problem(path, limits.count_message(count, noun, limit, where)))
        return count

    forces = data.get("forces")
    over("forces", forces, limits.FORCES, "forces", "in one scenario")
    over("weapons", data.get("weapons"), MAX_WEAPONS, "weapon cards", "in one scenario")
    on_table = 0
    for i, force in enumerate(_objects(forces)[: limits.FORCES + 1]):
        path = f"forces[{i}].figures"
        count = over(path, force.get("figures"), limits.FIGURES_PER_FORCE, "figures", "in a force")
        on_table += count
        if count <= limits.FIGURES_PER_FORCE and on_table > limits.FIGURES_PER_TABLE:
            problems.append(
                Problem(
                    path,
                    f"{on_table:,} figures on the table with this force's {count:,}; crdesk "
                    f"handles at most {limits.FIGURES_PER_TABLE:,} on one table",
                )
            )
            break
    terrain = data.get("terrain")
    over("terrain", terrain, limits.FEATURES, "terrain features", "on one table")
    points = openings = 0
    for i, feature in enumerate(_objects(terrain)[: limits.FEATURES + 1]):
        path = f"terrain[{i}]"
        for key in ("outline", "crest"):
            points += over(
                f"{path}.{key}", feature.get(key), limits.POINTS_PER_OUTLINE, "points", "in a line"
            )
        for key, limit, noun in (
            ("holes", limits.HOLES_PER_FEATURE, "holes"),
            ("areas", limits.AREAS_PER_BUILDING, "areas"),
        ):
            rings = feature.get(key)
            if over(f"{path}.{key}", rings, limit, noun, "in one feature") > limit:
                continue
            for j, ring in enumerate(rings if isinstance(rings, list) else []):
                points += over(
                    f"{path}.{key}[{j}]", ring, limits.POINTS_PER_OUTLINE, "points", "in a line"
                )
        openings += over(
            f"{path}.openings",
            feature.get("openings"),
            limits.OPENINGS_PER_BUILDING,
            "doors and windows",
            "in one building",
        )
    if points > limits.POINTS_TOTAL:
        problems.append(
            Problem(
                "terrain",
                limits.count_message(points, "outline points", limits.POINTS_TOTAL, "on one table"),
            )
        )
    if openings > limits.OPENINGS_TOTAL:
        problems.append(
            Problem(
                "terrain",
                limits.count_message(
                    openings, "doors and windows", limits.OPENINGS_TOTAL, "on one table"
                ),
            )
        )
    gen = data.get("generation")
    if isinstance(gen, dict):
        log = gen.get("log")
        if over("generation.log", log, limits.GENERATION_LOG, "log entries", "in a record") <= (
            limits.GENERATION_LOG
        ):
            size = _generation_bytes(gen)
            if size > limits.GENERATION_BYTES:
                problems.append(
                    Problem(
                        "generation",
                        f"the generation record takes {size:,} bytes; crdesk keeps at most "
                        f"{limits.GENERATION_BYTES:,}",
                    )
                )
    return problems


def _generation_bytes(gen: dict[str, Any]) -> int:
    """Bytes the record takes in a saved file (written one level down, as there)."""
    try:
        text = json.dumps({"generation": gen}, indent=2, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return 0  # the schema or the text checks say what is wrong
    return len(text.encode("utf-8", "replace"))


def validate_file(path: str | os.PathLike[str]) -> list[Problem]:
    """Problems in a scenario file (empty when it is fine).

    Raises :class:`UnreadableFileError` or :class:`NewerFormatError` for files
    that are not scenarios at all.
    """
    try:
        data = migrate(read_document(path), str(path))
    except ScenarioFormatError as exc:
        return exc.problems
    return check_document(data)


def load(path: str | os.PathLike[str]) -> Scenario:
    """Load a scenario file, raising a :class:`~crdesk.errors.ScenarioError` subclass."""
    return from_document(read_document(path), source=str(path))


def from_document(data: dict[str, Any], source: str = "<data>") -> Scenario:
    """Validate a parsed document and build the model from it."""
    data = migrate(data, source)
    problems = check_document(data)
    if problems:
        raise ScenarioFormatError(problems, source)
    try:
        scenario = _build(data)
    except (ModelError, ValueError) as exc:  # a check above missed a case: still a file error
        problem = Problem("", f"the table cannot be built: {exc}")
        raise ScenarioFormatError([problem], source) from None
    notes = outline_repairs(data)
    if notes:
        scenario.load_notes = tuple(LoadNote(i, p.path, p.message) for i, p in notes)
    return scenario


# --------------------------------------------------------------------------
# Error reporting


def _format_path(parts: Iterable[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def path_sort_key(path: str) -> list[tuple[int, int | str]]:
    key: list[tuple[int, int | str]] = []
    for token in path.replace("[", ".[").split("."):
        if token.startswith("[") and token.endswith("]") and token[1:-1].isdigit():
            key.append((0, int(token[1:-1])))
        elif token:
            key.append((1, token))
    return key


def _describe(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    return text if len(text) <= 40 else text[:37] + "..."


def schema_problem(err: ValidationError) -> Problem:
    path = list(err.absolute_path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    if err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return Problem(_format_path([*path, missing]), "required field is missing")
    if err.validator == "additionalProperties":
        known = sorted(schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(known)) if isinstance(err.instance, dict) else []
        name = extra[0] if extra else "?"
        close = difflib.get_close_matches(name, known, n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else f" (known fields: {', '.join(known)})"
        return Problem(_format_path([*path, name]), f"unknown field{hint}")
    if err.validator in ("minItems", "maxItems") and schema.get("x-expected"):
        return Problem(
            _format_path(path), f"expected {schema['x-expected']}, got {_describe(err.instance)}"
        )
    expected = schema.get("x-expected")
    if expected:
        return Problem(_format_path(path), f"expected {expected}, got {_describe(err.instance)}")
    return Problem(_format_path(path), err.message)


def _cross_checks(data: dict[str, Any]) -> list[Problem]:
    """Checks JSON Schema cannot express: unique ids, fields per kind, one player force.

    They run even when the schema found problems, skipping parts too malformed
    to check, so a player sees every problem of the file at once.
    """
    problems: list[Problem] = []
    seen: dict[str, str] = {}

    def claim(item: dict[str, Any], path: str) -> None:
        item_id = item.get("id")
        if not isinstance(item_id, str):
            return
        if item_id in seen:
            problems.append(
                Problem(f"{path}.id", f'the id "{item_id}" is already used at {seen[item_id]}')
            )
        else:
            seen[item_id] = f"{path}.id"

    for i, feature in enumerate(_objects(data.get("terrain"))):
        path = f"terrain[{i}]"
        claim(feature, path)
        if not isinstance(feature.get("kind"), str) or feature["kind"] not in _KIND_NAMES:
            continue  # the schema says what the kind should be
        kind = TerrainKind(feature["kind"])
        allowed = _COMMON_KEYS | _KIND_KEYS[kind]
        for key in sorted((set(feature) & _ALL_FEATURE_KEYS) - allowed):
            problems.append(Problem(f"{path}.{key}", f"a {kind.value} feature has no {key}"))
        needed = {"crest"} if kind in (TerrainKind.HILL, TerrainKind.WOODED_HILL) else set()
        if kind is TerrainKind.BUILDING:
            needed = {"floors", "areas"}
        for key in sorted(needed - set(feature)):
            problems.append(
                Problem(f"{path}.{key}", f"required field is missing (a {kind.value} needs it)")
            )
    players: list[int] = []
    for i, force in enumerate(_objects(data.get("forces"))):
        claim(force, f"forces[{i}]")
        if force.get("player") is True:
            players.append(i)
        for j, figure in enumerate(_objects(force.get("figures"))):
            claim(figure, f"forces[{i}].figures[{j}]")
    for i in players[1:]:
        problems.append(
            Problem(
                f"forces[{i}].player",
                f"only one force can be the player's (forces[{players[0]}] already is)",
            )
        )
    problems += _far_points(data)
    problems += _scribbles(data)
    problems += bad_texts(data, "")
    return problems


def _scribbles(data: dict[str, Any]) -> list[Problem]:
    """Outlines that cross themselves too often to repair where the file is read
    (:data:`crdesk.limits.CROSSINGS_PER_OUTLINE`; a repair costs time on every load)."""
    problems: list[Problem] = []
    total = 0
    per = limits.CROSSINGS_PER_OUTLINE
    for i, item in enumerate(_objects(data.get("terrain"))):
        name = item.get("name") or item.get("id")
        rings: list[tuple[str, Any]] = [("outline", item.get("outline"))]
        holes = item.get("holes")
        rings += [
            (f"holes[{k}]", h) for k, h in enumerate(holes if isinstance(holes, list) else [])
        ]
        areas = item.get("areas")
        rings += [
            (f"areas[{k}]", a) for k, a in enumerate(areas if isinstance(areas, list) else [])
        ]
        for key, ring in rings:
            if not (isinstance(ring, list) and len(ring) >= 4 and all(map(_is_point, ring))):
                continue
            points = _closed_ring(ring)
            if len(points) < 4 or Polygon(points).is_valid:
                continue
            count = crossings(points, per)
            total += count
            if count > per:
                problems.append(
                    Problem(
                        f"terrain[{i}].{key}",
                        f"{name}: the line crosses itself more than {per:,} times; crdesk "
                        "repairs a line that crosses itself a few times (a slip of the mouse), "
                        "not a scribble: draw it again",
                    )
                )
    if total > limits.CROSSINGS_TOTAL and not problems:
        problems.append(
            Problem(
                "terrain",
                f"the outlines cross themselves {total:,} times in all; crdesk repairs at most "
                f"{limits.CROSSINGS_TOTAL:,} crossings on one table: draw the crossing ones again",
            )
        )
    return problems


def _far_points(data: dict[str, Any]) -> list[Problem]:
    """Points further off the table than :data:`crdesk.limits.COORD_MARGIN` (one per line)."""
    table = data.get("table")
    if not isinstance(table, dict):
        return []
    width: Any = table.get("width")
    height: Any = table.get("height")
    sizes = (width, height)
    if not all(_is_number(v) and limits.TABLE_MIN <= v <= limits.TABLE_MAX for v in sizes):
        return []
    m = limits.COORD_MARGIN
    lo_x, hi_x, lo_y, hi_y = -m, float(width) + m, -m, float(height) + m
    problems: list[Problem] = []

    def check(path: str, points: Any) -> None:
        if not isinstance(points, list):
            return
        for k, pt in enumerate(points):
            if not _is_point(pt):
                continue  # the schema reports it
            x, y = pt
            if not (lo_x <= x <= hi_x and lo_y <= y <= hi_y):
                problems.append(
                    Problem(
                        f"{path}[{k}]",
                        f'the point [{x:g}, {y:g}] lies more than {m:g}" off the '
                        f'{width:g}" x {height:g}" table; crdesk handles points at most '
                        f'{m:g}" outside it',
                    )
                )
                return

    for i, feature in enumerate(_objects(data.get("terrain"))):
        path = f"terrain[{i}]"
        check(f"{path}.outline", feature.get("outline"))
        check(f"{path}.crest", feature.get("crest"))
        for key in ("holes", "areas"):
            rings = feature.get(key)
            for j, ring in enumerate(rings if isinstance(rings, list) else []):
                check(f"{path}.{key}[{j}]", ring)
        for j, opening in enumerate(_objects(feature.get("openings"))):
            check(f"{path}.openings[{j}]", [opening.get("start"), opening.get("end")])
    if not problems:
        problems += _blocking_cover(data, (hi_x - lo_x) * (hi_y - lo_y))
    for i, force in enumerate(_objects(data.get("forces"))):
        for j, figure in enumerate(_objects(force.get("figures"))):
            pos = figure.get("position")
            if _is_point(pos):
                before = len(problems)
                check(f"forces[{i}].figures[{j}]", [pos])
                if len(problems) > before:
                    last = problems[-1]
                    problems[-1] = Problem(f"forces[{i}].figures[{j}].position", last.message)
    return problems


_BLOCKING = {"woods", "wooded_hill", "building", "impassable"}


def _blocking_cover(data: dict[str, Any], area: float) -> list[Problem]:
    """The blocking features' bounding boxes against :data:`crdesk.limits.BLOCKING_COVER`."""
    total = 0.0
    for feature in _objects(data.get("terrain")):
        outline = feature.get("outline")
        kind = feature.get("kind")
        if not isinstance(kind, str) or kind not in _BLOCKING or not isinstance(outline, list):
            continue
        points = [p for p in outline if _is_point(p)]
        if points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            total += (max(xs) - min(xs)) * (max(ys) - min(ys))
    if total <= limits.BLOCKING_COVER * area:
        return []
    return [
        Problem(
            "terrain",
            f"the woods, buildings and impassable ground together span {total / area:.1f} "
            f"times the table and its margin; crdesk handles at most {limits.BLOCKING_COVER:g}",
        )
    ]


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


_SURROGATE = re.compile("[\ud800-\udfff]")
_NUMBERS = (int, float, bool, type(None))


def bad_texts(value: Any, path: str) -> list[Problem]:
    """Texts (and keys) holding a lone UTF-16 surrogate such as ``\\ud800``, and numbers
    too large for a float.

    JSON can spell one, Python keeps it, but no UTF-8 file can hold it: the
    scenario could be opened and then never saved, not even to crash recovery.
    """
    found: list[Problem] = []
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if type(item) is TooLarge:
            found.append(Problem(where, f"the number {item.text} is too large (beyond 1.8e308)"))
        elif type(item) is str:
            if _SURROGATE.search(item):
                found.append(
                    Problem(
                        where,
                        "the text holds a lone UTF-16 surrogate (an escape like \\ud800 "
                        "that is not a character); write the character itself",
                    )
                )
        elif type(item) is list:
            if all(type(v) in _NUMBERS for v in item) or all(map(_is_point, item)):
                continue
            stack.extend((v, f"{where}[{k}]") for k, v in enumerate(item))
        elif type(item) is dict:
            for key, v in item.items():
                sub = f"{where}.{key}" if where else str(key)
                if _SURROGATE.search(key):
                    found.append(Problem(where, "a field name holds a lone UTF-16 surrogate"))
                    continue
                stack.append((v, sub))
    return found


def _objects(value: Any) -> list[dict[str, Any]]:
    """The list's items, with non-objects replaced by empty ones (keeps indexes right)."""
    if not isinstance(value, list):
        return []
    return [item if isinstance(item, dict) else {} for item in value]


_KIND_NAMES = {kind.value for kind in TerrainKind}
_ALL_FEATURE_KEYS: set[str] = set().union(*_KIND_KEYS.values())


# --------------------------------------------------------------------------
# Building the model


def _ring(points: list[list[float]]) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in points]


def _closed_ring(points: list[list[float]]) -> list[tuple[float, float]]:
    """A ring without the closing points a file may repeat (normalised on load, so the
    first save writes what every later save writes): :func:`crdesk.shapes.open_ring`."""
    return open_ring(points)


def _written(outline: list[list[float]], holes: list[list[list[float]]] | None = None) -> Polygon:
    return Polygon(_closed_ring(outline), [_closed_ring(h) for h in holes or []])


def _polygon(outline: list[list[float]], holes: list[list[list[float]]] | None = None) -> Polygon:
    """The outline as every command plays it: repaired here, once, if it crosses itself
    (:func:`crdesk.shapes.repaired`), so no later geometry meets an invalid polygon."""
    return repaired(_written(outline, holes)).outline


def outline_repairs(data: dict[str, Any]) -> list[tuple[str, Problem]]:
    """What loading a checked document repairs: each outline or building area that
    crosses itself, by feature id, with its path and how it is played (``crdesk validate``
    warns of them: the table the file opens to is not quite the one written)."""
    found: list[tuple[str, Problem]] = []
    for i, item in enumerate(data.get("terrain", [])):
        name = item.get("name") or item["id"]
        rings = [("outline", item["outline"], item.get("holes"))]
        rings += [(f"areas[{k}]", a, None) for k, a in enumerate(item.get("areas", []))]
        for key, ring, holes in rings:
            note = repaired(_written(ring, holes)).note
            if note:
                found.append((item["id"], Problem(f"terrain[{i}].{key}", f"{name}: {note}")))
    return found


def _whole(value: Any) -> Any:
    """An integer field's value as an int (the schema accepts ``4.0`` as an integer)."""
    return int(value) if type(value) is float else value


def _feature(d: dict[str, Any]) -> TerrainFeature:
    kind = TerrainKind(d["kind"])
    common = {
        "id": d["id"],
        "kind": kind,
        "name": d.get("name", ""),
        "outline": _polygon(d["outline"], d.get("holes")),
    }
    if kind in (TerrainKind.HILL, TerrainKind.WOODED_HILL):
        return Hill(**common, crest=LineString(_ring(d["crest"])))
    if kind is TerrainKind.BUILDING:
        return Building(
            **common,
            floors=_whole(d["floors"]),
            areas=[_polygon(a) for a in d["areas"]],
            openings=[
                Opening(OpeningKind(o["kind"]), _ring([o["start"]])[0], _ring([o["end"]])[0])
                for o in d.get("openings", [])
            ],
        )
    if kind is TerrainKind.COVER:
        return CoverObstacle(**common, cover_type=CoverType(d.get("cover_type", "wall")))
    return TerrainFeature(**common)


def _figure(d: dict[str, Any]) -> Figure:
    x, y = d["position"]
    name = d.get("name", d["id"])
    return Figure(
        id=d["id"],
        name=name if name.strip() else d["id"],
        rep=_whole(d["rep"]),
        role=Role(d.get("role", "grunt")),
        weapon=WeaponCode(d.get("weapon", "AR")),
        melee=MeleeWeapon(d.get("melee", "none")),
        x=float(x),
        y=float(y),
        facing=float(d.get("facing", 0.0)),
        base=float(d.get("base", 1.0)),
        status=Status(d.get("status", "carry_on")),
        star_power=_whole(d.get("star_power")),
        out_of_ammo=d.get("out_of_ammo", False),
        prone=d.get("prone", False),
        fast_moving=d.get("fast_moving", False),
        weapon_card=d.get("weapon_card", ""),
    )


def _build(data: dict[str, Any]) -> Scenario:
    table = Table(float(data["table"]["width"]), float(data["table"]["height"]))
    forces = [
        Force(
            id=f["id"],
            name=f.get("name", f["id"]),
            band=BandType(f.get("band", "military")),
            player=f.get("player", False),
            colour=f.get("colour", "#1f5fbf"),
            figures=[_figure(fig) for fig in f["figures"]],
        )
        for f in data["forces"]
    ]
    battlefield = Battlefield(table, [_feature(t) for t in data["terrain"]], forces)
    enc = data.get("encounter", {})
    encounter = Encounter(
        type=EncounterType(enc.get("type", "free")),
        enemy_band=BandType(enc["enemy_band"]) if enc.get("enemy_band") else None,
        pef_count=_whole(enc.get("pef_count", 3)),
    )
    gen = data.get("generation")
    generation = (
        GenerationRecord(
            seed=_whole(gen["seed"]), inputs=gen.get("inputs", {}), log=gen.get("log", [])
        )
        if gen
        else None
    )
    return Scenario(
        battlefield=battlefield,
        rules=RulesOptions.from_dict(data.get("rules", {})),
        encounter=encounter,
        title=data.get("title", "Untitled"),
        description=data.get("description", ""),
        generation=generation,
        weapons=tuple(parse_cards(data.get("weapons", [])).values()),
    )


# --------------------------------------------------------------------------
# Writing


def _num(value: float) -> float | int:
    """Integral floats are written as integers so files stay readable."""
    f = float(value)
    return int(f) if f.is_integer() and abs(f) < 2**53 else f


def _points(coords: Iterable[tuple[float, ...]], closed: bool) -> list[list[float | int]]:
    pts = [[_num(c[0]), _num(c[1])] for c in coords]
    return pts[:-1] if closed and len(pts) > 1 and pts[0] == pts[-1] else pts


def _feature_doc(f: TerrainFeature) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": f.id,
        "kind": f.kind.value,
        "name": f.name,
        "outline": _points(f.outline.exterior.coords, closed=True),
    }
    if f.outline.interiors:
        doc["holes"] = [_points(r.coords, closed=True) for r in f.outline.interiors]
    if isinstance(f, Hill):
        doc["crest"] = _points(f.crest.coords, closed=False)
    elif isinstance(f, Building):
        doc["floors"] = f.floors
        doc["areas"] = [_points(a.exterior.coords, closed=True) for a in f.areas]
        doc["openings"] = [
            {
                "kind": o.kind.value,
                "start": [_num(o.start[0]), _num(o.start[1])],
                "end": [_num(o.end[0]), _num(o.end[1])],
            }
            for o in f.openings
        ]
    elif isinstance(f, CoverObstacle):
        doc["cover_type"] = f.cover_type.value
    return doc


def _figure_doc(f: Figure, cards: dict[str, WeaponCard] | None = None) -> dict[str, Any]:
    """A figure's file form; with the scenario's ``cards``, a ``weapon_card`` they do not
    hold as the figure's category is left out (the file would not load with it)."""
    doc = {
        "id": f.id,
        "name": f.name,
        "role": f.role.value,
        "rep": f.rep,
        "weapon": f.weapon.value,
        "melee": f.melee.value,
        "position": [_num(f.x), _num(f.y)],
        "facing": _num(f.facing),
        "base": _num(f.base),
        "status": f.status.value,
        "star_power": f.star_power,
        "out_of_ammo": f.out_of_ammo,
        "prone": f.prone,
        "fast_moving": f.fast_moving,
    }
    if f.weapon_card and (
        cards is None or figure_card_problem(f.weapon, f.weapon_card, cards) is None
    ):
        doc["weapon_card"] = f.weapon_card
    return doc


def feature_to_dict(feature: TerrainFeature) -> dict[str, Any]:
    """One feature in its file form (also the editor's clipboard format)."""
    return _feature_doc(feature)


def feature_from_dict(data: dict[str, Any]) -> TerrainFeature:
    """A feature from its file form, validated against the schema first."""
    problems = [schema_problem(e) for e in Draft202012Validator(_FEATURE_SCHEMA).iter_errors(data)]
    if problems:
        raise ScenarioFormatError(problems, "feature")
    return _feature(data)


def figure_to_dict(figure: Figure) -> dict[str, Any]:
    """One figure in its file form (also the editor's clipboard format)."""
    return _figure_doc(figure)


def figure_from_dict(data: dict[str, Any]) -> Figure:
    """A figure from its file form, validated against the schema first."""
    problems = [schema_problem(e) for e in Draft202012Validator(_FIGURE_SCHEMA).iter_errors(data)]
    if problems:
        raise ScenarioFormatError(problems, "figure")
    return _figure(data)


def to_document(scenario: Scenario) -> dict[str, Any]:
    """The JSON document for a scenario, in a fixed key order (stable diffs)."""
    bf = scenario.battlefield
    gen = scenario.generation
    cards = scenario.weapon_cards
    doc: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "generator": f"crdesk {__version__}",
        "title": scenario.title,
        "description": scenario.description,
        "table": {"width": _num(bf.table.width), "height": _num(bf.table.height)},
        "rules": scenario.rules.to_dict(),
        "encounter": {
            "type": scenario.encounter.type.value,
            "enemy_band": scenario.encounter.enemy_band.value
            if scenario.encounter.enemy_band
            else None,
            "pef_count": scenario.encounter.pef_count,
        },
        "terrain": [_feature_doc(f) for f in bf.terrain],
        "forces": [
            {
                "id": force.id,
                "name": force.name,
                "band": force.band.value,
                "player": force.player,
                "colour": force.colour,
                "figures": [_figure_doc(fig, cards) for fig in force.figures],
            }
            for force in bf.forces
        ],
        "generation": {"seed": gen.seed, "inputs": gen.inputs, "log": gen.log} if gen else None,
    }
    if scenario.weapons:  # only then: a file without user weapons stays as it was
        doc["weapons"] = [card.to_json() for card in scenario.weapons]
    return doc


_POINT_RE = re.compile(r"\[\s+(-?[0-9][0-9.eE+-]*),\s+(-?[0-9][0-9.eE+-]*)\s+\]")


def dumps(scenario: Scenario) -> str:
    """The scenario as file text: UTF-8 JSON, 2-space indent, one line per point.

    Text that no UTF-8 file can hold (a lone surrogate pasted in) is written as
    U+FFFD, so saving, and above all crash recovery, can always write.
    """
    text = json.dumps(to_document(scenario), indent=2, ensure_ascii=False, allow_nan=False)
    text = _SURROGATE.sub("\ufffd", text)
    return _POINT_RE.sub(r"[\1, \2]", text) + "\n"


def save(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write atomically: temp file in the same folder, fsync, rename over the old file.

    A text crdesk could not open again (over :data:`MAX_FILE_BYTES`) is refused
    with an :class:`OSError` and the old file is kept.
    """
    data = dumps(scenario).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise OSError(
            f"the scenario would take {len(data) / 1_048_576:.1f} MB, over the "
            f"{MAX_FILE_BYTES // 1_048_576} MB crdesk opens; not saved"
        )
    write_atomic(Path(path), data)
