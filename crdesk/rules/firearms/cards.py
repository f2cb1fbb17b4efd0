"""Weapon cards (FD §2): what each weapon counts as, its fire modes, magazine and ammo.

Every Chain Reaction weapon category has a default card; a scenario may add
its own weapons ("Glock 17" counts as a Pistol with a 17-round magazine).  The
scenario loader will call :func:`cards_schema` for the JSON Schema fragment of
its ``weapons`` list and :func:`parse_cards` (or :func:`card_problems`, to
merge the problems with its own) to turn that list into cards.

**Interpretations** (FD §2 is silent on them):

* A user weapon needs only ``name`` and ``category``; every other field it
  leaves out is taken from its category's default card.
* A user weapon named like a category code (``"AR"``) replaces that default
  card for the scenario: the way a group tunes a default.
* ``buckshot`` is only for the Shotgun category (FD §6 replaces the shotgun's
  6d6); a mode the magazine can never feed (Full Auto with fewer than 10 rounds,
  a 3-round burst from a 2-round tube) is refused, because it could never fire.
* Names are told apart ignoring case ("glock 17" repeats "Glock 17").
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from crdesk.errors import Problem, ScenarioFormatError
from crdesk.model import WEAPON_CARD_CHARS, WeaponCode
from crdesk.rules.common import RuleResult
from crdesk.rules.firearms.tables import (
    DEFAULT_SPARE_MAGAZINES,
    FA_ROUNDS,
    ROUNDS_PER_DIE,
    AmmoType,
    FireMode,
    fd,
)
from crdesk.tables import WeaponStats, outgunned_rank, weapon_stats

MAX_MAGAZINE = 1000
MAX_SPARES = 99
MAX_KNOCKDOWN = 6
MAX_WEAPONS = 200
NAME_CHARS = WEAPON_CARD_CHARS

CATEGORIES: tuple[str, ...] = tuple(w.value for w in WeaponCode if w is not WeaponCode.NONE)
"""The 7.9 (and 16.0 BAP) categories a card may count as."""


@dataclass(frozen=True, slots=True)
class WeaponCard(RuleResult):
    """One weapon's card (FD §2)."""

    name: str
    category: str
    """The 7.9 weapon it counts as: its Range, Target and Outgunned Ranking."""
    modes: tuple[FireMode, ...]
    magazine: int
    spare_magazines: int = DEFAULT_SPARE_MAGAZINES
    ammo: AmmoType = AmmoType.FMJ
    knockdown: int = 0
    """A hit target rolling this or less is knocked down (FD §8); 0 = never."""
    section: str = fd(2)

    @property
    def result(self) -> str:
        return "card"

    def stats(self, old_school: bool = False) -> WeaponStats:
        """The category's row on 7.9 (16.0 with Old School)."""
        return weapon_stats(self.category, old_school)

    def rank(self, old_school: bool = False) -> int:
        """Outgunned Ranking 7.9.1 of the category (Full Auto adds 1, FD §5)."""
        return outgunned_rank(self.stats(old_school))

    @property
    def buckshot(self) -> bool:
        return self.ammo is AmmoType.BUCKSHOT

    def explain(self) -> str:
        modes = "/".join(m.label for m in self.modes)
        kd = f", knockdown {self.knockdown}" if self.knockdown else ""
        return (
            f"{self.name} (counts as {self.category}): {modes}, magazine {self.magazine}, "
            f"{self.spare_magazines} spare, {self.ammo.value}{kd} ({self.section})."
        )

    def to_json(self) -> dict[str, Any]:
        """The card as a scenario file's ``weapons`` item (what :func:`parse_cards` reads)."""
        return {
            "name": self.name,
            "category": self.category,
            "modes": [m.value for m in self.modes],
            "magazine": self.magazine,
            "spare_magazines": self.spare_magazines,
            "ammo": self.ammo.value,
            "knockdown": self.knockdown,
        }


def _card(cat: str, modes: Iterable[FireMode], magazine: int, **kw: Any) -> WeaponCard:
    # 16.0 names every category, the Big-Ass Pistol included
    return WeaponCard(weapon_stats(cat, old_school=True).name, cat, tuple(modes), magazine, **kw)


M = FireMode
DEFAULT_CARDS: Mapping[str, WeaponCard] = {
    "AR": _card("AR", (M.SEMI, M.RB3, M.FA), 30),
    "BAR": _card("BAR", (M.BA,), 5),
    "MP": _card("MP", (M.SEMI, M.FA), 20),
    "P": _card("P", (M.SEMI,), 15),
    "SAR": _card("SAR", (M.SEMI,), 20),
    "SG": _card("SG", (M.PUMP,), 8, ammo=AmmoType.BUCKSHOT),
    "SAW": _card("SAW", (M.FA,), 100),
    "SMG": _card("SMG", (M.SEMI, M.FA), 30),
    "RL": _card("RL", (M.SINGLE,), 1, ammo=AmmoType.HE),
    "BAP": _card("BAP", (M.SEMI,), 8),
}
"""The default card per category (FD §2)."""

REVOLVER = WeaponCard("Revolver", "P", (M.DA, M.SA), 6)
"""The Pistol's revolver variant (FD §2): DA/SA, 6 rounds."""


def default_card(category: WeaponCode | str) -> WeaponCard:
    """The default card of a 7.9 category."""
    key = category.value if isinstance(category, WeaponCode) else str(category)
    try:
        return DEFAULT_CARDS[key]
    except KeyError:
        raise KeyError(f"no weapon category {key!r}; one of {', '.join(CATEGORIES)}") from None


def card_for(weapon: WeaponCode | str, cards: Mapping[str, WeaponCard] | None = None) -> WeaponCard:
    """A figure's card: a scenario weapon by name, else the category's default card."""
    key = weapon.value if isinstance(weapon, WeaponCode) else str(weapon)
    if cards and key in cards:
        return cards[key]
    return default_card(key)


def figure_card(
    weapon: WeaponCode | str, weapon_card: str = "", cards: Mapping[str, WeaponCard] | None = None
) -> WeaponCard | None:
    """The card a figure fires with: the user weapon it names, else its category's card
    (a user weapon named like the category replaces that); None when unarmed.

    A name the scenario does not hold, or a card of another category, falls back
    to the category (:func:`figure_card_problem` says what is wrong with it).
    """
    key = weapon.value if isinstance(weapon, WeaponCode) else str(weapon)
    if key == WeaponCode.NONE.value:
        return None
    named = (cards or {}).get(weapon_card) if weapon_card else None
    if named is not None and named.category == key:
        return named
    return card_for(key, cards)


def figure_card_problem(
    weapon: WeaponCode | str,
    weapon_card: str,
    cards: Mapping[str, WeaponCard],
    path: str = "weapon_card",
) -> Problem | None:
    """What is wrong with a figure's ``weapon_card`` (at ``path``), or None.

    The name must be one of the scenario's ``weapons``, and the figure's
    ``weapon`` must be the card's category: the base game reads ``weapon``, so
    the two must agree.
    """
    if not weapon_card:
        return None
    key = weapon.value if isinstance(weapon, WeaponCode) else str(weapon)
    card = cards.get(weapon_card)
    if card is None:
        folded = {name.casefold(): name for name in cards}
        close = folded.get(weapon_card.casefold()) or next(
            iter(difflib.get_close_matches(weapon_card, list(cards), n=1)), None
        )
        if close is not None:
            hint = f' (did you mean "{close}"?)'
        elif cards:
            hint = f" (the scenario's weapons: {', '.join(sorted(cards))})"
        else:
            hint = " (the scenario has no weapons of its own)"
        return Problem(path, f'no weapon "{weapon_card}" in the scenario\'s weapons{hint}')
    if card.category != key:
        return Problem(
            path,
            f'"{card.name}" counts as {card.category} but the figure\'s weapon is {key}: '
            f"set the weapon to {card.category} (FD §2)",
        )
    return None


def rounds_needed(mode: FireMode) -> int:
    """The fewest rounds one firing in this mode needs (FD §3)."""
    return FA_ROUNDS if mode is FireMode.FA else ROUNDS_PER_DIE[mode]


# --------------------------------------------------------------------------
# The scenario format


def _enum(values: Iterable[str], what: str) -> dict[str, Any]:
    vals = list(values)
    return {"enum": vals, "x-expected": f"{what}: one of {', '.join(vals)}"}


def _int(low: int, high: int, what: str) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": low,
        "maximum": high,
        "x-expected": f"{what}: a whole number {low}..{high}",
    }


def cards_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario's ``weapons`` list.

    Leaves carry ``x-expected`` phrases as in :mod:`crdesk.schema`, so a loader
    can report problems in a player's words.
    """
    card = {
        "type": "object",
        "x-expected": 'a weapon card {"name": ..., "category": ...}',
        "required": ["name", "category"],
        "additionalProperties": False,
        "properties": {
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": NAME_CHARS,
                "x-expected": f"a weapon name of 1-{NAME_CHARS} characters",
            },
            "category": _enum(CATEGORIES, "a weapon category"),
            "modes": {
                "type": "array",
                "items": _enum([m.value for m in FireMode], "a fire mode"),
                "minItems": 1,
                "uniqueItems": True,
                "x-expected": "a list of one or more different fire modes",
            },
            "magazine": _int(1, MAX_MAGAZINE, "rounds per magazine"),
            "spare_magazines": _int(0, MAX_SPARES, "spare magazines"),
            "ammo": _enum([a.value for a in AmmoType], "an ammo type"),
            "knockdown": _int(0, MAX_KNOCKDOWN, "a knockdown number"),
        },
    }
    return {
        "type": "array",
        "items": card,
        "maxItems": MAX_WEAPONS,
        "x-expected": f"a list of at most {MAX_WEAPONS} weapon cards",
    }


def _path(where: str, parts: Iterable[str | int]) -> str:
    out = where
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _schema_problem(err: ValidationError, where: str) -> Problem:
    path = list(err.absolute_path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    if err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return Problem(_path(where, [*path, missing]), "required field is missing")
    if err.validator == "additionalProperties":
        known = sorted(schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(known)) if isinstance(err.instance, dict) else []
        name = extra[0] if extra else "?"
        close = difflib.get_close_matches(name, known, n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else f" (known fields: {', '.join(known)})"
        return Problem(_path(where, [*path, name]), f"unknown field{hint}")
    if err.validator == "uniqueItems":
        return Problem(_path(where, path), "a fire mode is listed twice")
    expected = schema.get("x-expected")
    if expected:
        return Problem(_path(where, path), f"expected {expected}, got {_describe(err.instance)}")
    return Problem(_path(where, path), err.message)


_VALIDATOR = Draft202012Validator(cards_schema())


def _build(item: Mapping[str, Any]) -> WeaponCard:
    base = DEFAULT_CARDS[str(item["category"])]
    modes = item.get("modes")
    return WeaponCard(
        name=str(item["name"]),
        category=base.category,
        modes=tuple(FireMode(m) for m in modes) if modes is not None else base.modes,
        magazine=int(item.get("magazine", base.magazine)),
        spare_magazines=int(item.get("spare_magazines", base.spare_magazines)),
        ammo=AmmoType(item["ammo"]) if "ammo" in item else base.ammo,
        knockdown=int(item.get("knockdown", base.knockdown)),
    )


def _error_key(err: ValidationError) -> list[tuple[int, int | str]]:
    return [(0, p) if isinstance(p, int) else (1, str(p)) for p in err.absolute_path]


def _checked(data: Any, where: str) -> tuple[list[Problem], dict[str, WeaponCard]]:
    errors = sorted(_VALIDATOR.iter_errors(data), key=_error_key)
    problems = [_schema_problem(e, where) for e in errors]
    cards: dict[str, WeaponCard] = {}
    if not isinstance(data, list):
        return problems, cards
    broken = {e.absolute_path[0] for e in errors if e.absolute_path}
    if any(not e.absolute_path for e in errors):
        return problems, cards
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        if i in broken:
            continue
        card = _build(item)
        here = _path(where, [i])
        folded = card.name.strip().casefold()
        if not folded:
            problems.append(Problem(f"{here}.name", "a weapon name cannot be only spaces"))
            continue
        if folded in seen:
            problems.append(
                Problem(
                    f"{here}.name",
                    f'"{card.name}" is already the name of {_path(where, [seen[folded]])}',
                )
            )
            continue
        seen[folded] = i
        if card.buckshot and card.category != "SG":
            problems.append(
                Problem(
                    f"{here}.ammo",
                    f"buckshot is for shotguns (category SG), {card.name} counts as "
                    f"{card.category} (FD §6)",
                )
            )
        for mode in card.modes:
            need = rounds_needed(mode)
            if need > card.magazine:
                problems.append(
                    Problem(
                        f"{here}.modes",
                        f"{mode.label} needs {need} rounds a firing, the magazine holds "
                        f"{card.magazine} (FD §3)",
                    )
                )
        cards[card.name] = card
    return problems, cards


def _item_index(problem: Problem, where: str) -> int:
    rest = problem.path[len(where) :]
    if rest.startswith("[") and "]" in rest:
        head = rest[1 : rest.index("]")]
        if head.isdigit():
            return int(head)
    return -1


def card_problems(data: Any, where: str = "weapons") -> list[Problem]:
    """Every problem of a ``weapons`` list, each named by its JSON path under ``where``,
    in the order of the list's items."""
    return sorted(_checked(data, where)[0], key=lambda p: _item_index(p, where))


def parse_cards(data: Any, where: str = "weapons") -> dict[str, WeaponCard]:
    """A scenario's ``weapons`` list as cards by name; raise listing every problem.

    ``where`` is the list's path in the file (``"weapons"``,
    ``"rules.firearms.weapons"``): messages read ``weapons[2].magazine: ...``.
    """
    problems, cards = _checked(data, where)
    if problems:
        raise ScenarioFormatError(sorted(problems, key=lambda p: _item_index(p, where)))
    return cards
