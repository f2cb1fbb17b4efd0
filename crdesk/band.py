"""The Band (6.1) between encounters: the ``.crband`` file, starting a Band, and the
after-the-battle of 7.13 and 13 judged from a finished game.

A Band is the player's Star and Grunts, kept from encounter to encounter with
their Reps, weapons and what happened to them.  The file is versioned UTF-8
JSON (format version 1) checked by :data:`BAND_SCHEMA`::

    {"format_version": 1, "kind": "crdesk-band", "name": "Mace's Patrol",
     "band_type": "military", "next_encounter": "patrol",
     "figures": [{"id": "star", "name": "Sgt. Mace", "role": "star", "rep": 5,
                  "weapon": "AR", "melee": "none", "status": "active", "joined": 0,
                  "history": [{"encounter": 1, "event": "rep_increase", "text": ...}]}],
     "encounters": [{"number": 1, "date": "2026-12-01", "type": "patrol",
                     "outcome": "won", "next": "raid", "rolls": [...], ...}],
     "created": {"seed": 7, "dice": [3, 6, 2, 5], "rolls": [...]}}

Band files come from other players like scenarios do, so reading is as
defensive as :mod:`crdesk.scenario`'s: a size limit, strict UTF-8 JSON (no
NaN), bounded nesting, the schema with every problem named by its JSON path,
then cross-field checks (one Star, unique ids, the size limit by the Star's
Rep).  Nothing is evaluated or unpickled; saving is atomic.

Every die is rolled through a :class:`~crdesk.dice.DiceSource`, so a Band
started or updated from a seed (:class:`~crdesk.dice.CounterDice`) or from
entered faces (:class:`~crdesk.dice.ScriptedDice`) comes out the same again,
and the faces are kept in the file.
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator

from crdesk import __version__
from crdesk.dice import DiceSource
from crdesk.errors import Problem, ScenarioError
from crdesk.game.settings import BandRecord
from crdesk.jsonfile import parse_object, read_file, write_atomic
from crdesk.model import (
    REP_MAX,
    REP_MIN,
    BandType,
    EncounterResult,
    EncounterType,
    Figure,
    Force,
    MeleeWeapon,
    Role,
    Scenario,
    Status,
    WeaponCode,
)
from crdesk.rules.campaign import (
    EncounterRecord,
    new_recruits,
    next_encounter,
    recovery,
    recruit,
    rep_change,
)
from crdesk.rules.common import TableRoll, faces_text
from crdesk.scenario import bad_texts, path_sort_key, printable, schema_problem
from crdesk.schema import BOOL, ID, NAME, enum_schema, enum_values
from crdesk.tables import BAND_WEAPONS

if TYPE_CHECKING:  # the game is only read, never built, here
    from crdesk.game.controller import Game

SUFFIX = ".crband"
KIND = "crdesk-band"
BAND_FORMAT_VERSION = 1
"""The newest Band format this crdesk writes and reads."""
MAX_FILE_BYTES = 2 * 1024 * 1024
"""A Band of a long campaign is some tens of kB; refuse anything far larger unread."""
MAX_DEPTH = 16
"""Deepest JSON nesting accepted; a real Band file nests 5 levels."""
MAX_FIGURES = 200
MAX_ENCOUNTERS = 2_000
MAX_HISTORY = 2_000
STAR_REP = 5
"""A new Band's Star is Rep 5 (6.1)."""

ACTIVE = "active"
KILLED = "killed"
GONE = "gone"
"""Did not return after the battle (7.13)."""
LEFT = "left"
"""Left the Band: a Rep above the Star's, or more figures than the Star's Rep (6.1)."""
FIGURE_STATUSES = (ACTIVE, KILLED, GONE, LEFT)
STATUS_WORDS = {
    ACTIVE: "in the Band",
    KILLED: "killed",
    GONE: "did not return",
    LEFT: "left the Band",
}


def default_weapon(band_type: BandType, index: int) -> WeaponCode:
    """The weapon of the ``index``-th member of a Band (0 is the Star) by default."""
    cycle = BAND_WEAPONS[band_type]
    return cycle[index % len(cycle)]


# --------------------------------------------------------------------------
# Schema


_REP = {
    "type": "integer",
    "minimum": REP_MIN,
    "maximum": REP_MAX,
    "x-expected": f"a Rep, an integer {REP_MIN}..{REP_MAX}",
}
_TEXT = {"type": "string", "maxLength": 2_000, "x-expected": "a text of at most 2000 characters"}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 1_000_000, "x-expected": "a whole number"}
_GAME_SEED = {
    "type": "integer",
    "minimum": 0,
    "maximum": 2**63 - 1,
    "x-expected": "a dice seed: a whole number 0 or more",
}
"""The seed of a game taken into the Band, as the game file allows it (the GUI's seeds run
to 2**31, ``crdesk simulate``'s to 2**63)."""
_FACES = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": 6, "x-expected": "a d6 face 1..6"},
    "maxItems": 10_000,
    "x-expected": "a list of d6 faces",
}
_LINES = {
    "type": "array",
    "items": _TEXT,
    "maxItems": 10_000,
    "x-expected": "a list of texts",
}
_ENCOUNTER_TYPE = {
    "enum": [*enum_values(EncounterType), None],
    "x-expected": f"null or one of {', '.join(enum_values(EncounterType))}",
}
_HISTORY_ITEM = {
    "type": "object",
    "x-expected": 'a history entry {"encounter": N, "event": ..., "text": ...}',
    "required": ["encounter", "event", "text"],
    "additionalProperties": False,
    "properties": {
        "encounter": _COUNT,
        "event": {
            "type": "string",
            "pattern": "^[a-z_]{1,40}$",
            "x-expected": "an event code in lower case",
        },
        "text": _TEXT,
        "rep": _REP,
    },
}
_BAND_FIGURE = {
    "type": "object",
    "x-expected": "a Band member object",
    "required": ["id", "name", "role", "rep", "weapon"],
    "additionalProperties": False,
    "properties": {
        "id": ID,
        "name": NAME,
        "role": enum_schema(enum_values(Role), "a role"),
        "rep": _REP,
        "weapon": enum_schema(enum_values(WeaponCode), "a weapon"),
        "melee": enum_schema(enum_values(MeleeWeapon), "a melee weapon"),
        "status": enum_schema(list(FIGURE_STATUSES), "a Band member status"),
        "joined": _COUNT,
        "history": {
            "type": "array",
            "items": _HISTORY_ITEM,
            "maxItems": MAX_HISTORY,
            "x-expected": "a list of history entries",
        },
    },
}
_ENCOUNTER_ENTRY = {
    "type": "object",
    "x-expected": "an encounter record object",
    "required": ["number", "type", "outcome"],
    "additionalProperties": False,
    "properties": {
        "number": _COUNT,
        "date": {"type": "string", "maxLength": 40, "x-expected": "a date like 2026-12-01"},
        "type": enum_schema(enum_values(EncounterType), "an encounter type"),
        "outcome": enum_schema(enum_values(EncounterResult), "an outcome"),
        "reason": _TEXT,
        "turns": _COUNT,
        "next": _ENCOUNTER_TYPE,
        "game": _TEXT,
        "game_seed": _GAME_SEED,
        "seed": {"type": ["integer", "null"], "x-expected": "null or an integer seed"},
        "dice": _FACES,
        "rolls": _LINES,
        "tally": {
            "type": "object",
            "maxProperties": MAX_FIGURES,
            "x-expected": "figure id -> [hits, taken out]",
            "additionalProperties": {
                "type": "array",
                "items": _COUNT,
                "minItems": 2,
                "maxItems": 2,
                "x-expected": "[hits scored, enemies taken out]",
            },
        },
    },
}

BAND_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://crdesk.invalid/schema/band-v1.json",
    "title": "crdesk Band, format version 1",
    "type": "object",
    "x-expected": "a JSON object (a crdesk Band)",
    "required": ["format_version", "kind", "name", "band_type", "figures"],
    "additionalProperties": False,
    "properties": {
        "format_version": {
            "type": "integer",
            "minimum": 1,
            "x-expected": f"an integer format version (this crdesk writes {BAND_FORMAT_VERSION})",
        },
        "kind": {"const": KIND, "x-expected": f'"{KIND}"'},
        "crdesk_version": {"type": "string", "maxLength": 40, "x-expected": "a version text"},
        "name": {**NAME, "minLength": 1, "x-expected": "a name of 1-200 characters"},
        "band_type": enum_schema(enum_values(BandType), "a band type"),
        "next_encounter": _ENCOUNTER_TYPE,
        "figures": {
            "type": "array",
            "items": _BAND_FIGURE,
            "minItems": 1,
            "maxItems": MAX_FIGURES,
            "x-expected": f"a list of 1..{MAX_FIGURES} Band members",
        },
        "encounters": {
            "type": "array",
            "items": _ENCOUNTER_ENTRY,
            "maxItems": MAX_ENCOUNTERS,
            "x-expected": "a list of encounter records",
        },
        "created": {
            "type": "object",
            "x-expected": "how the Band was started",
            "additionalProperties": False,
            "properties": {
                "seed": {"type": ["integer", "null"], "x-expected": "null or an integer seed"},
                "dice": _FACES,
                "rolls": _LINES,
                "date": {"type": "string", "maxLength": 40, "x-expected": "a date"},
                "id": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{32}$",
                    "x-expected": "32 hexadecimal digits",
                },
            },
        },
        "ended": BOOL,
    },
}

_VALIDATOR = Draft202012Validator(BAND_SCHEMA)


# --------------------------------------------------------------------------
# Errors


class BandFileError(ScenarioError):
    """A Band file that cannot be used; ``problems`` name each bad field by its path."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = problems
        self.source = source
        head = f"{source}: " if source else ""
        count = len(problems)
        lines = [f"{head}{count} problem{'s' if count != 1 else ''} in the Band file"]
        lines += [f"  {p}" for p in problems]
        super().__init__("\n".join(lines))

    def one_line(self, limit: int = 3) -> str:
        head = f"{self.source}: " if self.source else ""
        shown = "; ".join(str(p) for p in self.problems[:limit])
        more = len(self.problems) - limit
        return head + shown + (f" (and {more} more)" if more > 0 else "")


def _unreadable(source: str, message: str) -> BandFileError:
    return BandFileError([Problem("", message)], source)


# --------------------------------------------------------------------------
# The model


@dataclass(slots=True)
class BandFigure:
    """One member of the Band (the Star or a Grunt) and what happened to them."""

    id: str
    name: str
    rep: int
    role: Role = Role.GRUNT
    weapon: WeaponCode = WeaponCode.AR
    melee: MeleeWeapon = MeleeWeapon.NONE
    status: str = ACTIVE
    joined: int = 0
    """The number of encounters the Band had played when this figure joined."""
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_star(self) -> bool:
        return self.role is Role.STAR

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def encounters_played(self) -> int:
        """Encounters this figure took part in (joining after one does not count)."""
        return len({h["encounter"] for h in self.history if h["event"] != "joined"})

    def rep_history(self) -> list[int]:
        """The figure's Rep as it went, from joining to now (each change once): 4, 5, 4."""
        reps = [int(h["rep"]) for h in self.history if "rep" in h]
        reps.append(self.rep)
        return [r for k, r in enumerate(reps) if k == 0 or reps[k - 1] != r]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "role": self.role.value,
            "rep": self.rep,
            "weapon": self.weapon.value,
            "melee": self.melee.value,
            "status": self.status,
            "joined": self.joined,
            "history": [dict(h) for h in self.history],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BandFigure:
        return cls(
            id=d["id"],
            name=d["name"],
            rep=d["rep"],
            role=Role(d["role"]),
            weapon=WeaponCode(d["weapon"]),
            melee=MeleeWeapon(d.get("melee", "none")),
            status=d.get("status", ACTIVE),
            joined=d.get("joined", 0),
            history=[dict(h) for h in d.get("history", [])],
        )


@dataclass(slots=True)
class Band:
    """The player's Band (6.1), kept from encounter to encounter."""

    name: str
    band_type: BandType
    figures: list[BandFigure] = field(default_factory=list)
    encounters: list[dict[str, Any]] = field(default_factory=list)
    next_encounter: EncounterType | None = EncounterType.PATROL
    """The first encounter is a Patrol; then the outcome table of 12 decides."""
    created: dict[str, Any] = field(default_factory=dict)
    ended: bool = False
    """The Star did not return (7.13): the Band's story is over."""

    # -- reading the roster --------------------------------------------------

    @property
    def star(self) -> BandFigure | None:
        return next((f for f in self.figures if f.is_star and f.active), None)

    @property
    def active(self) -> list[BandFigure]:
        return [f for f in self.figures if f.active]

    @property
    def size_limit(self) -> int:
        """Up to the Star's Rep figures, the Star included (6.1)."""
        star = self.star
        return star.rep if star is not None else 0

    @property
    def identity(self) -> str:
        """Which Band this is, for the games it plays (14): the random id it was given
        when recruited, so two Bands made with the same seed on the same day are still
        two Bands.  A file from before Bands had an id: a hash of how it was made (its
        recruiting rolls, seed and date, which never change), as its games recorded it;
        the name when the file says nothing of its making."""
        uid = self.created.get("id")
        if isinstance(uid, str) and uid:
            return uid[:16]
        made = self.created or {"name": self.name}
        text = json.dumps(made, sort_keys=True, ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def tally(self, fid: str) -> tuple[int, int]:
        """A member's hits scored and enemies taken out over the Band's encounters (from
        each encounter's tally; encounters from before tallies were kept count nothing)."""
        hits = out = 0
        for entry in self.encounters:
            counts = entry.get("tally", {}).get(fid)
            if counts:
                hits, out = hits + int(counts[0]), out + int(counts[1])
        return hits, out

    def figure(self, fid: str) -> BandFigure:
        for f in self.figures:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def new_id(self) -> str:
        taken = {f.id for f in self.figures}
        n = 1
        while f"g{n}" in taken:
            n += 1
        return f"g{n}"

    # -- deployment ------------------------------------------------------------

    def to_figures(self, side: str = "") -> list[Figure]:
        """Model figures of the active members, for deploying the Band on a table.

        Positions are left at (0, 0) for the deployment to set; the Star carries a
        full Star Power of one die per point of Rep (5.2)."""
        out = []
        for bf in self.active:
            fig = Figure(
                id=bf.id,
                name=bf.name,
                rep=bf.rep,
                role=bf.role,
                weapon=bf.weapon,
                melee=bf.melee,
                star_power=bf.rep if bf.is_star else None,
            )
            fig.side = side
            out.append(fig)
        return out

    def to_force(self, force_id: str = "band", *, colour: str = "#1f5fbf") -> Force:
        """The Band as the player's :class:`Force` (figures at (0, 0) until deployed)."""
        return Force(
            id=force_id,
            name=self.name,
            band=self.band_type,
            player=True,
            colour=colour,
            figures=self.to_figures(force_id),
        )

    # -- the file ----------------------------------------------------------------

    def to_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format_version": BAND_FORMAT_VERSION,
            "kind": KIND,
            "crdesk_version": __version__,
            "name": self.name,
            "band_type": self.band_type.value,
            "next_encounter": None if self.next_encounter is None else self.next_encounter.value,
            "figures": [f.to_dict() for f in self.figures],
            "encounters": [copy.deepcopy(e) for e in self.encounters],
            "created": copy.deepcopy(self.created),
        }
        if self.ended:
            doc["ended"] = True
        return doc

    def summary(self) -> dict[str, Any]:
        """What ``crdesk band show --json`` prints: the file's data and the limits."""
        star = self.star
        return {
            **self.to_document(),
            "star": None if star is None else star.id,
            "size": len(self.active),
            "size_limit": self.size_limit,
        }


def members_hash(band: Band) -> str:
    """A hash of the Band's members as they are now (ids, names, Reps, roles, weapons,
    statuses): a game records it as the Band goes in, and After the Battle takes the
    game only into the Band as it was then (not twice, not after another encounter)."""
    rows = [
        [f.id, f.name, f.rep, f.role.value, f.weapon.value, f.melee.value, f.status]
        for f in band.figures
    ]
    text = json.dumps([rows, len(band.encounters)], ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def band_record(band: Band) -> BandRecord:
    """What a game of the Band's next encounter records of it (:class:`BandRecord`)."""
    return BandRecord(band.identity, members_hash(band), len(band.encounters) + 1, band.name)


def band_scenario(
    scenario: Scenario,
    band: Band,
    encounter: EncounterType,
    dice: DiceSource,
    *,
    keep_enemies: bool = False,
) -> Scenario:
    """The scenario set up for the Band's encounter (12, 14): no enemy on the table (it
    comes from PEFs, 11; ``keep_enemies``: the scenario's own stay, as known enemies),
    the Band's active members as the player's force, deployed by the encounter with
    ``dice`` (:func:`crdesk.game.deployment.deploy`)."""
    from crdesk.game.deployment import deploy

    bare, force = band_setup(scenario, band, keep_enemies=keep_enemies)
    return deploy(bare, force, encounter, dice)


def band_setup(
    scenario: Scenario, band: Band, *, keep_enemies: bool = False
) -> tuple[Scenario, Force]:
    """The table before the Band is deployed, and the Band as the player's force (12, 14):
    what :func:`crdesk.game.deployment.deploy` (the program) or
    :func:`~crdesk.game.deployment.deploy_at` (the player's places) sets up."""
    from crdesk.game.deployment import enemy_figures, player_force_id, without_enemies

    # the player's force id, taken before an enemy force may be added to a bare table
    me = player_force_id(scenario) if scenario.battlefield.forces else "band"
    keep = keep_enemies and enemy_figures(scenario) > 0
    bare = scenario if keep else without_enemies(scenario, band.band_type)
    return bare, band.to_force(me)


def band_figures(band: Band, side: str = "") -> list[Figure]:
    """The Band's active members as model figures of ``side`` (see :meth:`Band.to_figures`)."""
    return band.to_figures(side)


# --------------------------------------------------------------------------
# Reading and writing


def parse_band_bytes(raw: bytes, source: str = "<data>") -> dict[str, Any]:
    """Decode and parse bytes as a strict, shallow JSON object (not yet checked)."""
    return parse_object(
        raw,
        source,
        files="Band files",
        file="a crdesk Band file",
        what="a crdesk Band",
        max_bytes=MAX_FILE_BYTES,
        max_depth=MAX_DEPTH,
        refuse=_unreadable,
    )


def read_band_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a file into a JSON document, refusing what cannot be a Band file."""
    raw, source = read_file(
        path,
        files="Band files",
        file="a Band file",
        max_bytes=MAX_FILE_BYTES,
        refuse=_unreadable,
    )
    return parse_band_bytes(raw, source)


def check_band_document(data: dict[str, Any]) -> list[Problem]:
    """Every problem of a parsed Band document: the schema, then cross-field checks."""
    version = data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > BAND_FORMAT_VERSION:
        return [
            Problem(
                "format_version",
                f"made by a newer crdesk (Band format version {version}); this crdesk "
                f"{__version__} reads versions up to {BAND_FORMAT_VERSION}. Update crdesk to "
                "open it.",
            )
        ]
    problems = [schema_problem(err) for err in _VALIDATOR.iter_errors(data)]
    if not problems:
        problems = _cross_checks(data)
    problems += bad_texts(data, "")  # a lone surrogate would load, then never save
    return sorted(map(printable, problems), key=lambda p: path_sort_key(p.path))


def _cross_checks(data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    figures = data["figures"]
    seen: dict[str, int] = {}
    for i, f in enumerate(figures):
        if f["id"] in seen:
            problems.append(
                Problem(
                    f"figures[{i}].id", f"{f['id']!r} is already used by figures[{seen[f['id']]}]"
                )
            )
        seen.setdefault(f["id"], i)
    stars = [i for i, f in enumerate(figures) if f["role"] == Role.STAR.value]
    if not stars:
        problems.append(Problem("figures", "a Band has one Star (6.1); none found"))
        return problems
    if len(stars) > 1:
        problems.append(
            Problem(
                f"figures[{stars[1]}].role",
                f"a Band has one Star (6.1); figures[{stars[0]}] is the Star",
            )
        )
        return problems
    star = figures[stars[0]]
    if star.get("status", ACTIVE) != ACTIVE:
        return problems  # a Band whose Star is gone keeps its roster as it was
    active = [i for i, f in enumerate(figures) if f.get("status", ACTIVE) == ACTIVE]
    for i in active:
        f = figures[i]
        if f["role"] == Role.GRUNT.value and f["rep"] > star["rep"]:
            problems.append(
                Problem(
                    f"figures[{i}].rep",
                    f"{f['rep']} is above the Star's Rep {star['rep']}: such a Grunt leaves (6.1)",
                )
            )
    if len(active) > star["rep"]:
        problems.append(
            Problem(
                "figures",
                f"{len(active)} active members; a Band may be up to the Star's Rep "
                f"({star['rep']}) figures, Star included (6.1)",
            )
        )
    return problems


def band_from_document(data: dict[str, Any], source: str = "<data>") -> Band:
    """Check a parsed document and build the Band, or raise :class:`BandFileError`."""
    problems = check_band_document(data)
    if problems:
        raise BandFileError(problems, source)
    nxt = data.get("next_encounter")
    return Band(
        name=data["name"],
        band_type=BandType(data["band_type"]),
        figures=[BandFigure.from_dict(f) for f in data["figures"]],
        encounters=[copy.deepcopy(e) for e in data.get("encounters", [])],
        next_encounter=None if nxt is None else EncounterType(nxt),
        created=copy.deepcopy(data.get("created", {})),
        ended=bool(data.get("ended", False)),
    )


def load_band(path: str | os.PathLike[str]) -> Band:
    """Open a ``.crband`` file; raises :class:`BandFileError` naming what is wrong."""
    return band_from_document(read_band_document(path), source=str(path))


def loads_band(text: str | bytes, source: str = "<data>") -> Band:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return band_from_document(parse_band_bytes(raw, source), source)


def dumps_band(band: Band) -> str:
    doc = band.to_document()
    problems = check_band_document(doc)
    if problems:  # never write a file crdesk itself would refuse
        raise BandFileError(problems, band.name)
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


BACKUP_SUFFIX = ".bak"
"""After the Battle keeps the Band as it was beside the file: ``raiders.crband.bak``."""


def backup_path(path: str | os.PathLike[str]) -> Path:
    """Where :func:`save_band` with ``backup=True`` keeps the previous file."""
    target = Path(path)
    return target.with_name(target.name + BACKUP_SUFFIX)


def save_band(band: Band, path: str | os.PathLike[str], *, backup: bool = False) -> None:
    """Write atomically (temp file, fsync, rename), so a crash keeps the old file.
    ``backup``: the file as it was is kept first as :func:`backup_path` (After the Battle
    changes a Band for good: the state before it stays at hand)."""
    target = Path(path)
    data = dumps_band(band).encode("utf-8")  # refused before anything is touched
    if backup and target.is_file():
        write_atomic(backup_path(target), target.read_bytes())
    write_atomic(target, data)


# --------------------------------------------------------------------------
# Starting a Band (6.1, 6.1.1)


def _roll_line(r: TableRoll) -> str:
    """A roll in the book's words, with its faces: what ``crdesk band`` prints."""
    if r.section == "7.13" and r.faces:  # its sentence gives the passes, not the dice
        return r.reason.replace(
            ") passed", f") rolled {faces_text(r.faces)} vs Rep {r.target}: passed", 1
        )
    return r.reason


def _faces_used(dice: DiceSource, start: int) -> list[int]:
    return [face for entry in list(dice.log)[start:] for face in entry.faces]


def new_band(
    name: str,
    band_type: BandType,
    dice: DiceSource,
    *,
    grunts: int | None = None,
    star_name: str = "",
    seed: int | None = None,
    date: str | None = None,
    uid: str | None = None,
) -> tuple[Band, list[str]]:
    """Start a Band: a Rep 5 Star and Grunts recruited on the band type's column (6.1.1).

    ``grunts`` defaults to the most the Star may lead (Rep - 1); each Grunt's Rep is
    a 1d6 roll on the Recruiting table, never above the Star's.  ``uid`` is the Band's
    id (random unless given), what its games record it by.  Returns the Band and the
    rolls in words."""
    limit = STAR_REP - 1
    count = limit if grunts is None else grunts
    if not 0 <= count <= limit:
        raise ValueError(f"a Rep {STAR_REP} Star leads 0-{limit} Grunts (6.1), got {count}")
    start = len(dice.log)
    band = Band(name=name, band_type=band_type)
    band.figures.append(
        BandFigure(
            id="star",
            name=star_name or "Star",
            rep=STAR_REP,
            role=Role.STAR,
            weapon=default_weapon(band_type, 0),
            history=[
                _history(
                    0, "joined", f"Starts the Band as its Star, Rep {STAR_REP} (6.1).", STAR_REP
                )
            ],
        )
    )
    lines = [f"6.1 The Star: {band.figures[0].name}, Rep {STAR_REP}."]
    for n in range(1, count + 1):
        fid = band.new_id()
        who = f"Grunt {n}"
        roll = recruit(dice, band_type, star_rep=STAR_REP, who=who)
        rep = int(roll.value or REP_MIN)
        weapon = default_weapon(band_type, n)
        band.figures.append(
            BandFigure(
                id=fid,
                name=who,
                rep=rep,
                weapon=weapon,
                history=[_history(0, "joined", f"Recruited, Rep {rep} (6.1.1).", rep)],
            )
        )
        lines.append(_roll_line(roll) + f" {who} carries {weapon_name(weapon)}.")
    band.created = {
        "seed": seed,
        "dice": _faces_used(dice, start),
        "rolls": list(lines),
        "date": date or _dt.date.today().isoformat(),
        "id": uid or uuid.uuid4().hex,
    }
    return band, lines


def _history(encounter: int, event: str, text: str, rep: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"encounter": encounter, "event": event, "text": text}
    if rep is not None:
        entry["rep"] = rep
    return entry


_WEAPON_NAMES = {
    WeaponCode.AR: "an Assault Rifle",
    WeaponCode.BAR: "a Bolt Action Rifle",
    WeaponCode.MP: "a Machine Pistol",
    WeaponCode.P: "a Pistol",
    WeaponCode.RL: "a Rocket Launcher",
    WeaponCode.SAR: "a Semi-Automatic Rifle",
    WeaponCode.SG: "a Shotgun",
    WeaponCode.SAW: "a Squad Automatic Weapon",
    WeaponCode.SMG: "a Sub-Machine Gun",
    WeaponCode.BAP: "a Big Ass Pistol",
    WeaponCode.NONE: "no ranged weapon",
}


def weapon_name(weapon: WeaponCode) -> str:
    return _WEAPON_NAMES.get(weapon, weapon.value)


# --------------------------------------------------------------------------
# What each figure did in the game (13.2/13.3)


def band_side(game: Game, ids: Iterable[str] = ()) -> str:
    """The side the Band fought on: the force holding most of ``ids``, else the player's."""
    wanted = set(ids)
    forces = game.battlefield.forces
    if wanted:
        best = max(forces, key=lambda f: sum(1 for fig in f.figures if fig.id in wanted))
        if any(fig.id in wanted for fig in best.figures):
            return best.id
    player = next((f for f in forces if f.player), None)
    return player.id if player is not None else forces[0].id


def _hits_enemy(data: Mapping[str, Any], enemies: set[str]) -> bool:
    """Whether a fire or blast result (its JSON data) put a hit on an enemy."""
    return _enemy_hit(data, enemies) is not None


def encounter_records(game: Game, side: str | None = None) -> dict[str, EncounterRecord]:
    """What each figure of ``side`` (the player's by default) did, for Rep changes 13.2/13.3.

    Read from the game's events and final state, nothing else:

    * fired at the enemy and scored a hit: a ``fire`` event it made with a hit on
      an enemy, or a grenade or rocket whose blast damaged one; fought a melee: it
      was in a ``melee`` event;
    * went Out of the Fight: ends Out of the Fight or Obviously Dead;
    * left the battlefield: ends with Leave the Battlefield without having walked
      off by a table edge (a Patrol leaving by its entry edge is not a failure);
    * left an Out of the Fight member behind: the side did not hold the field (it
      did not win, or none of it stayed on the table) while a comrade lay Out of the
      Fight on the table, not carried off; every figure of the side still able to
      act shares that failure.
    """
    side = side or band_side(game)
    ours = [f for f in game.battlefield.figures() if f.side == side]
    ours_ids = {f.id for f in ours}
    enemies = {f.id for f in game.battlefield.figures() if f.side != side}
    scored: set[str] = set()
    attacker: str | None = None
    for ev in game.events:
        if ev.kind in ("fire", "throw") and ev.figures:
            attacker = ev.figures[0]
            if ev.kind == "fire" and attacker in ours_ids and _hits_enemy(ev.data, enemies):
                scored.add(attacker)
        elif ev.kind == "blast":
            if attacker in ours_ids and _hits_enemy(ev.data, enemies):
                scored.add(attacker)
        elif ev.kind == "melee":
            scored.update(fid for fid in ev.figures if fid in ours_ids)
    exited = {f.id for f in ours if game.flags(f.id)["exited"]}
    down = (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)
    outcome = game.outcome
    on_table = [f for f in ours if f.id not in exited and f.status.can_act]
    held = outcome is not None and outcome.winner == side and bool(on_table)
    left_behind = not held and any(
        f.status is Status.OUT_OF_THE_FIGHT and f.id not in exited for f in ours
    )
    records = {}
    for f in ours:
        if f.status in down:
            end = Status.OUT_OF_THE_FIGHT
        elif f.status is Status.LEAVE_THE_BATTLEFIELD and f.id not in exited:
            end = Status.LEAVE_THE_BATTLEFIELD
        else:
            end = Status.CARRY_ON
        records[f.id] = EncounterRecord(
            scored_hit_or_meleed=f.id in scored,
            end_status=end,
            left_oof_member_behind=left_behind and end is Status.CARRY_ON,
        )
    return records


def encounter_reasons(game: Game, side: str | None = None) -> dict[str, str]:
    """Why each figure of ``side`` counts as a success, a failure or neither for Rep changes
    (13.2/13.3), in words with the turn: "fired and hit Red Viper 2 in turn 3; stayed in the
    fight; left no Band member behind".  The same reading of the game as
    :func:`encounter_records`, said so a player can check it against the table."""
    side = side or band_side(game)
    records = encounter_records(game, side)
    names = {f.id: f.name for f in game.battlefield.figures()}
    ours = set(records)
    enemies = {f.id for f in game.battlefield.figures() if f.side != side}
    first: dict[str, str] = {}
    turn = 1
    attacker: str | None = None
    for ev in game.events:
        if ev.kind == "turn_end":
            turn += 1
        elif ev.kind in ("fire", "throw") and ev.figures:
            attacker = ev.figures[0]
            if ev.kind == "fire" and attacker in ours and attacker not in first:
                hit = _enemy_hit(ev.data, enemies)
                if hit is not None:
                    first[attacker] = f"fired and hit {names.get(hit, hit)} in turn {turn}"
        elif ev.kind == "blast" and attacker in ours and attacker not in first:
            hit = _enemy_hit(ev.data, enemies)
            if hit is not None:
                first[attacker] = f"its blast hit {names.get(hit, hit)} in turn {turn}"
        elif ev.kind == "melee":
            for fid in ev.figures:
                if fid in ours and fid not in first:
                    first[fid] = f"fought a melee in turn {turn}"
    out: dict[str, str] = {}
    for fid, rec in records.items():
        parts = [first.get(fid, "scored no hit and fought no melee")]
        if rec.end_status is Status.OUT_OF_THE_FIGHT:
            parts.append("went Out of the Fight")
        elif rec.end_status is Status.LEAVE_THE_BATTLEFIELD:
            parts.append("left the battlefield")
        else:
            parts.append("stayed in the fight")
        if rec.left_oof_member_behind:
            parts.append("left an Out of the Fight Band member behind")
        elif rec.end_status is Status.CARRY_ON:
            parts.append("left no Band member behind")
        verdict = "success" if rec.success else "failure" if rec.failure else "neither"
        out[fid] = "; ".join(parts) + f" → {verdict}"
    return out


TAKEN_OUT = frozenset({Status.OUT_OF_THE_FIGHT.value, Status.OBVIOUSLY_DEAD.value})


def encounter_tallies(game: Game, side: str | None = None) -> dict[str, tuple[int, int]]:
    """Each figure of ``side``'s hits on enemies and enemies it took out (Out of the Fight
    or Obviously Dead) by its fire, grenades and rockets: the roster's tally.  Melee is
    not counted (it is in the Rep change reason)."""
    side = side or band_side(game)
    figures = list(game.battlefield.figures())
    ours = {f.id for f in figures if f.side == side}
    enemies = {f.id for f in figures if f.side != side}
    hits = dict.fromkeys(ours, 0)
    out = dict.fromkeys(ours, 0)
    attacker: str | None = None
    for ev in game.events:
        if ev.kind in ("fire", "throw") and ev.figures:
            attacker = ev.figures[0]
            if ev.kind != "fire":
                continue
        elif ev.kind != "blast":
            continue
        if attacker not in ours:
            continue
        for target in ev.data.get("results", ()):
            if not isinstance(target, Mapping) or target.get("id") not in enemies:
                continue
            shots = target.get("results", ())
            damage = [d for d in target.get("damage", ()) if isinstance(d, Mapping)]
            scored = sum(1 for s in shots if isinstance(s, Mapping) and s.get("hit"))
            hits[attacker] += scored or len(damage)
            if any(d.get("status") in TAKEN_OUT for d in damage):
                out[attacker] += 1
    return {fid: (hits[fid], out[fid]) for fid in ours}


def _enemy_hit(data: Mapping[str, Any], enemies: set[str]) -> str | None:
    """The first enemy a fire or blast result (its JSON data) put a hit on, or None."""
    for target in data.get("results", ()):
        if not isinstance(target, Mapping) or target.get("id") not in enemies:
            continue
        shots = target.get("results", ())
        if target.get("damage") or any(isinstance(s, Mapping) and s.get("hit") for s in shots):
            return str(target["id"])
    return None


# --------------------------------------------------------------------------
# After the battle (7.13, 13)


@dataclass(slots=True)
class AfterBattle:
    """The Band after an encounter, and every roll that made it so."""

    band: Band
    lines: list[str]
    rolls: list[TableRoll]
    records: dict[str, EncounterRecord]
    entry: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "encounter": copy.deepcopy(self.entry),
            "records": {
                fid: {
                    "scored_hit_or_meleed": r.scored_hit_or_meleed,
                    "end_status": r.end_status.value,
                    "left_oof_member_behind": r.left_oof_member_behind,
                    "success": r.success,
                    "failure": r.failure,
                }
                for fid, r in self.records.items()
            },
            "rolls": [r.to_dict() for r in self.rolls],
            "lines": list(self.lines),
            "band": self.band.summary(),
        }


class AfterBattleError(ValueError):
    """The game cannot be taken into the Band's story (not over, not this Band's)."""


def after_battle(
    band: Band,
    game: Game,
    dice: DiceSource,
    *,
    seed: int | None = None,
    game_name: str = "",
    date: str | None = None,
) -> AfterBattle:
    """Take a finished encounter into the Band: Recovery 7.13, New Recruits 13.1, Rep
    changes 13.2/13.3, the size limit by the Star's Rep (6.1) and the next encounter (12).

    ``band`` is not changed; the result holds an updated copy."""
    outcome = game.outcome
    if outcome is None:
        raise AfterBattleError(f"the game is not over (turn {game.turn}){_still_open(game)}")
    if band.ended:
        raise AfterBattleError(f"{band.name}'s Star did not return: the Band's story is over")
    _check_record(band, game.settings.band)
    band = copy.deepcopy(band)
    ids = [f.id for f in band.active]
    side = band_side(game, ids)
    in_game = {f.id: f for f in game.battlefield.figures() if f.side == side}
    fought = [bf for bf in band.active if bf.id in in_game]
    if not fought:
        raise AfterBattleError(
            f"none of {band.name}'s members ({', '.join(ids)}) fought in this game"
        )
    number = len(band.encounters) + 1
    start = len(dice.log)
    records = encounter_records(game, side)
    reasons = encounter_reasons(game, side)
    lines: list[str] = []
    rolls: list[TableRoll] = []
    # An encounter's objective (12) decides when the game reports it; else the winner.
    # A draw is no win: an encounter the turn limit ended is "not won", a loss's sequel.
    result = outcome.result_for(side)
    won = result is EncounterResult.WON
    # the encounter whose objectives the game tracked (12), else the scenario's
    tracked = game.settings.encounter
    played = (
        EncounterType(tracked)
        if tracked in enum_values(EncounterType)
        else game.scenario.encounter.type
    )
    lines.append(
        f"Encounter {number} ({played.value}): {result} on turn {outcome.turn}: {outcome.reason}."
    )

    def note(bf: BandFigure, event: str, text: str, rep: int | None = None) -> None:
        bf.history.append(_history(number, event, text, rep))
        lines.append(text)

    # Cheating Death costs one Rep for good (5.2); the rest of the game's Rep losses
    # last only for the encounter.
    cheated: set[str] = set()
    for ev in game.events:
        if ev.kind == "cheat_death" and ev.figures and ev.figures[0] in in_game:
            bf = band.figure(ev.figures[0])
            cheated.add(bf.id)
            if bf.active:
                bf.rep = max(REP_MIN, bf.rep - 1)
                note(
                    bf, "cheated_death", f"{bf.name} cheated death: Rep now {bf.rep} (5.2).", bf.rep
                )

    # 1. After the Battle Recovery 7.13
    for bf in fought:
        fig = in_game[bf.id]
        rec = records[bf.id]
        if fig.status is Status.OBVIOUSLY_DEAD:
            bf.status = KILLED
            note(bf, "killed", f"{bf.name} is Obviously Dead: killed in the encounter.")
            continue
        if rec.end_status is Status.CARRY_ON:
            continue
        left = rec.end_status is Status.LEAVE_THE_BATTLEFIELD
        if left and bf.id in cheated:
            # "removed from the table to safety" for one Rep (5.2): not one who left the
            # battlefield and may not come back (7.13)
            note(
                bf,
                "recovered",
                f"{bf.name} cheated death: removed to safety, no Recovery test (5.2, 7.13).",
            )
            continue
        roll = recovery(dice, bf.rep, left_battlefield=left, who=bf.name)
        rolls.append(roll)
        lines.append(_roll_line(roll))
        if roll.result == "returns":
            bf.history.append(_history(number, "recovered", roll.reason))
        else:
            bf.status = GONE
            bf.history.append(_history(number, "did_not_return", roll.reason))

    star = band.star
    if star is None:
        band.ended = True
        lines.append("The Star did not return: the Band's story is over (7.13).")
    else:
        # 2. New Recruits 13.1
        roll = new_recruits(dice, star.rep, len(band.active))
        rolls.append(roll)
        lines.append(_roll_line(roll))
        for _ in range(int(roll.value or 0)):
            fid = band.new_id()
            who = f"Grunt {fid[1:]}"
            r = recruit(dice, band.band_type, star_rep=star.rep, who=who)
            rolls.append(r)
            weapon = default_weapon(band.band_type, len(band.figures))
            rep = int(r.value or REP_MIN)
            band.figures.append(
                BandFigure(
                    id=fid,
                    name=who,
                    rep=rep,
                    weapon=weapon,
                    joined=number,
                    history=[
                        _history(number, "joined", f"Recruited, Rep {rep} (13.1, 6.1.1).", rep)
                    ],
                )
            )
            lines.append(_roll_line(r) + f" {who} joins with {weapon_name(weapon)}.")

        # 3. Rep changes 13.2/13.3, for those who fought and are still in the Band
        for bf in fought:
            if not bf.active:
                continue
            rec = records[bf.id]
            roll = rep_change(dice, bf.rep, rec, who=bf.name)
            rolled = int(roll.value if roll.value is not None else bf.rep)
            new = min(REP_MAX, rolled)
            rolls.append(roll)
            why = reasons[bf.id]
            text = _roll_line(roll) + (f" ({why})" if why else "")
            if rolled > new:
                text += f" Rep stays {REP_MAX}, crdesk's highest."
            lines.append(text)
            event = roll.result if new != bf.rep else "no_change"
            bf.history.append(
                _history(number, event, f"{roll.reason} ({why})" if why else roll.reason, new)
            )
            bf.rep = new

        # 6.1: a Grunt above the Star's Rep leaves; the Band is at most the Star's Rep
        star = band.star
        assert star is not None
        for bf in band.active:
            if not bf.is_star and bf.rep > star.rep:
                bf.status = LEFT
                note(
                    bf,
                    "left",
                    f"{bf.name} (Rep {bf.rep}) is above the Star's Rep {star.rep} "
                    "and leaves the Band (6.1).",
                )
        while len(band.active) > star.rep:
            last = max(
                (bf for bf in band.active if not bf.is_star),
                key=lambda b: (b.joined, band.figures.index(b)),
            )
            last.status = LEFT
            note(
                last,
                "left",
                f"The Band may be {star.rep} figures with a Rep {star.rep} Star: "
                f"{last.name}, the last to join, leaves (6.1).",
            )

    told = outcome.next_encounter
    nxt = EncounterType(told) if told in enum_values(EncounterType) else next_encounter(played, won)
    band.next_encounter = nxt
    if nxt is not None:
        lines.append(f"Next encounter: {nxt.value.title()} (12, {played.value} {result}).")
    entry: dict[str, Any] = {
        "number": number,
        "date": date or _dt.date.today().isoformat(),
        "type": played.value,
        "outcome": result.value,
        "reason": outcome.reason[:2_000],
        "turns": outcome.turn,
        "next": None if nxt is None else nxt.value,
        "game": game_name[:2_000],
        "game_seed": game.seed,
        "seed": seed,
        "dice": _faces_used(dice, start),
        "rolls": [line[:2_000] for line in lines],
        "tally": {
            fid: list(counts)
            for fid, counts in encounter_tallies(game, side).items()
            if fid in {bf.id for bf in fought}
        },
    }
    band.encounters.append(entry)
    return AfterBattle(band, lines, rolls, records, entry)


def _still_open(game: Game) -> str:
    """What the encounter still asks (12), for a refusal: "; still open: ..."."""
    if "encounter" not in game.state:
        return "; finish the encounter first"
    from crdesk.game.encounter import objectives

    items = [i["text"] for i in objectives(game).get("items", []) if i.get("state") == "open"]
    return "; still open: " + "; ".join(items) if items else "; finish the encounter first"


def _check_record(band: Band, record: BandRecord | None) -> None:
    """A game started with a Band goes into that Band only, once, as the Band was (14).
    A game from before games recorded their Band is matched by its members' ids."""
    if record is None:
        return
    if record.id != band.identity:
        who = record.name or "another Band"
        raise AfterBattleError(f"this game was played by {who}, not {band.name}")
    done = len(band.encounters)
    if record.encounter <= done:
        raise AfterBattleError(
            f"this game is {band.name}'s encounter {record.encounter}, already taken into "
            f"the Band ({done} encounter{'' if done == 1 else 's'} so far)"
        )
    if record.encounter != done + 1 or record.members != members_hash(band):
        raise AfterBattleError(
            f"{band.name} has changed since this game began (it went in as encounter "
            f"{record.encounter}; the Band has played {done}): take the games in order"
        )
