"""Structural mutations of scenario documents, shared by the suite's fuzzer and the long run.

A mutation picks a place in the JSON tree and bends it the way shared files
go wrong: a value of the wrong type, a number out of range or beyond a float,
a text with odd unicode (lone surrogates, controls, right-to-left marks, HTML),
a list emptied, doubled or cut, a key dropped or invented, a ring made
degenerate (collinear, repeated, closing point repeated), a point thrown far
off the table, an id duplicated.  Everything is driven by one ``random.Random``
so a failing input is reproduced from its seed.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [ROOT / "resources" / "scenarios" / "demo-urban.crdesk"]
SEEDS += [ROOT / "resources" / "scenarios" / "demo-wooded.crdesk"]
SEEDS += sorted((ROOT / "tests" / "data" / "hostile").glob("*.crdesk"))

TEXTS = [
    "",
    " ",
    "\ud800",
    "x\udfffy",
    "\u202eevil",
    "\x00\x1f",
    '<img src="x">',
    "é" * 300,
    "🙂" * 70,
    "a" * 65,
    "5",
]
NUMBERS: list[Any] = [0, -1, 1, 4.0, 2.5, 1e308, -1e308, 10**30, 1e-320, 359.9999, 360, 528, 1e4]


def seed_documents() -> list[dict[str, Any]]:
    """The documents mutations start from (demos and the regression files)."""
    out = []
    for path in SEEDS:
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:
            continue  # e.g. 1e999 is refused by the strict reader; json reads it as inf
    return out


def _places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    places = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            places += _places(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:50]):
            places += _places(value, (*path, i))
    return places


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 2 else 6)
    if pick == 0:
        return rng.choice(NUMBERS)
    if pick == 1:
        return rng.choice(TEXTS)
    if pick == 2:
        return rng.choice([None, True, False])
    if pick == 3:
        return rng.uniform(-1e4, 1e4)
    if pick == 4:
        return rng.randint(-20, 20)
    if pick == 5:
        return [rng.uniform(-60, 560), rng.uniform(-60, 560)]
    if pick == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return {rng.choice(["id", "kind", "x", "rep"]): _value(rng, depth + 1)}
    return [[rng.uniform(0, 48), rng.uniform(0, 36)] for _ in range(rng.randrange(5))]


def _ring_mutation(ring: list[Any], rng: random.Random) -> list[Any]:
    if not ring:
        return ring
    pick = rng.randrange(6)
    if pick == 0:  # collinear
        first = ring[0]
        numbers = isinstance(first, list) and len(first) == 2
        numbers = numbers and all(type(v) in (int, float) for v in first)
        x, y = first if numbers else (1, 1)  # a mutated point may hold text already
        return [[x, y], [x + 1, y + 1], [x + 2, y + 2]]
    if pick == 1:  # closing points repeated
        return [*ring, ring[0], ring[0]]
    if pick == 2:  # one point over and over
        return [ring[0]] * rng.randrange(1, 6)
    if pick == 3:  # a bow-tie: two points swapped
        out = list(ring)
        if len(out) >= 4:
            out[1], out[2] = out[2], out[1]
        return out
    if pick == 4:  # a point far off
        out = list(ring)
        out[rng.randrange(len(out))] = [rng.choice([-10_000, -49, 530, 1e6]), 5]
        return out
    return ring * rng.randrange(2, 4)  # traced twice or more


def mutate(doc: dict[str, Any], rng: random.Random, count: int | None = None) -> Any:
    """A mutated deep copy of ``doc`` (``count`` mutations, 1-4 by default)."""
    out: Any = copy.deepcopy(doc)
    for _ in range(count if count is not None else rng.randint(1, 4)):
        places = _places(out)
        path = rng.choice(places)
        here = _get(out, path)
        pick = rng.randrange(8)
        if pick == 0:
            out = _set(out, path, _value(rng))
        elif pick == 1 and isinstance(here, dict) and here:
            del here[rng.choice(list(here))]
        elif pick == 2 and isinstance(here, dict):
            here[rng.choice(["extra", "holes", "crest", "areas", "openings", "\ud800"])] = _value(
                rng
            )
        elif pick == 3 and isinstance(here, list):
            rng.shuffle(here)
            del here[rng.randrange(len(here) + 1) :]
        elif pick == 4 and isinstance(here, list) and here:
            here.extend(copy.deepcopy(here) * rng.randrange(1, 3))  # duplicate ids, more items
        elif pick == 5 and isinstance(here, list) and here and isinstance(here[0], list):
            out = _set(out, path, _ring_mutation(here, rng))
        elif pick == 6 and isinstance(here, str):
            out = _set(out, path, here + rng.choice(TEXTS))
        elif pick == 7 and isinstance(here, int | float) and not isinstance(here, bool):
            out = _set(out, path, rng.choice([here * 1000, -here, here + 0.5, float(here)]))
    return out


def check_input(raw: bytes, sight: bool = True) -> str:
    """Run one input through the loader, the table checks, saving and sight.

    Returns ``"rejected"`` (refused as a scenario error, as it should be) or
    ``"accepted"``; anything else raises, and is a bug.  An accepted file must
    save, load again, and save to the same text (saving is idempotent).
    """
    from crdesk import scenario as io
    from crdesk.cli import los as los_cli
    from crdesk.errors import ScenarioError
    from crdesk.validation import check_battlefield

    try:
        scenario = io.from_document(io.parse_document(raw))
    except ScenarioError as exc:
        str(exc).encode("utf-8")  # the message can be printed
        return "rejected"
    check_battlefield(scenario.battlefield)
    text = io.dumps(scenario)
    again = io.from_document(io.parse_document(text.encode("utf-8")))
    assert io.dumps(again) == text, "saving twice gives another file"
    if sight:
        los_cli.verdicts(again.battlefield, again.rules)
    return "accepted"


def mutated_input(rng: random.Random, docs: list[dict[str, Any]]) -> bytes:
    """One mutated document as file bytes."""
    doc = mutate(rng.choice(docs), rng)
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
