"""Structural fuzzing of saved games (.crgame) and Bands (.crband), issue 17 Deliver 4.

The same mutations as the scenario fuzzer (:mod:`mutate`), started from real
files in ``tests/data/hostile/`` (``seed-*.crgame``, ``seed-*.crband``), plus
one aimed at a game's replay: a step's action replaced by a hostile one.  A
mutated file must either open or be refused with the loader's own error
(:class:`~crdesk.game.savefile.GameFileError`, :class:`~crdesk.band.BandFileError`),
whose problems name a JSON path; anything else is a bug.

Write the seed files again (after a rules change makes the games diverge)::

    .venv/bin/python tools/fuzz/saves.py --write-seeds
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutate

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "data" / "hostile"
URBAN = ROOT / "resources" / "scenarios" / "demo-urban.crdesk"

SEED_COMMANDS: dict[str, list[str]] = {
    "seed-auto-urban.crgame": ["game", "auto", str(URBAN), "--seed", "7", "--turns", "1"],
    "seed-new-urban.crgame": ["game", "new", str(URBAN), "--seed", "7"],
    "seed-solo-patrol.crgame": [
        *["game", "auto", str(URBAN), "--seed", "5", "--turns", "1"],
        *["--solo", "--encounter", "patrol", "--deploy"],
    ],
    "seed-militia.crband": ["band", "new", "Fuzz Band", "--type", "militia", "--seed", "3"],
    "seed-police-star-only.crband": [
        *["band", "new", "Lone Star", "--type", "police", "--grunts", "0", "--seed", "4"],
    ],
}
"""How each seed file was made (``--write-seeds`` runs these again)."""

ACTIONS = [
    "",
    "start",
    "activate",
    "activate nobody",
    "move p1",
    "move p1 1e308,1e308",
    "move p1 nan,3 face 90",
    "move p1 10,12 face 1e999",
    "move p1 " + " ".join(["10,12"] * 300),
    "fire p1 at p1:99",
    "fire p1 at e1:-1",
    "fire p1 at e1 mode ZZ aim",
    "charge p1,p1,p1 at p1",
    "throw p1 at -10000,5",
    "floor p1 -1",
    "freewill p1 9",
    "dice 0,7,-1",
    "dice " + ",".join(["6"] * 500),
    "exit p1",
    "end",
    "pass",
    "\ud800",
    "move \u202e 1,1",
]


def seed_documents(kind: str) -> list[dict[str, Any]]:
    """The seed documents of ``kind`` ("crgame" or "crband")."""
    return [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(HOSTILE.glob(f"seed-*.{kind}"))
    ]


def mutate_save(doc: dict[str, Any], rng: random.Random) -> Any:
    """:func:`mutate.mutate`, and for a game one time in three a step's action made hostile."""
    out = mutate.mutate(doc, rng)
    steps = out.get("steps") if isinstance(out, dict) else None
    if isinstance(steps, list) and steps and rng.random() < 1 / 3:
        step = rng.choice(steps)
        if isinstance(step, dict):
            step["action"] = rng.choice(ACTIONS)
    return out


def mutated_input(rng: random.Random, docs: list[dict[str, Any]]) -> bytes:
    """One mutated save as file bytes."""
    doc = mutate_save(rng.choice(docs), rng)
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def _refused(exc: Any) -> str:
    """Check a refusal is one a player can read: printable, every problem with a path."""
    str(exc).encode("utf-8")
    exc.one_line().encode("utf-8")
    assert exc.problems, f"a refusal with no problem: {exc}"
    for problem in exc.problems:
        assert isinstance(problem.path, str) and problem.message, problem
    return "rejected"


def check_game_input(raw: bytes) -> str:
    """Open one input as a saved game, strictly and (if its replay fails) leniently.

    Returns ``"rejected"`` or ``"accepted"``; anything else raises, and is a
    bug.  An opened game must save, open again, and save to the same text.
    """
    from crdesk.game import savefile

    try:
        loaded = savefile.loads_game(raw, source="fuzz.crgame")
    except savefile.GameReplayError as exc:
        _refused(exc)
        try:
            loaded = savefile.loads_game(raw, source="fuzz.crgame", strict=False)
        except savefile.GameFileError as again:
            return _refused(again)
        assert loaded.error is not None and loaded.warnings, "a lenient load says what it did"
    except savefile.GameFileError as exc:
        return _refused(exc)
    text = savefile.dumps_game(loaded.game)
    # A game opened from its snapshot keeps the file's steps unchecked, so it opens
    # again the way it first did (strictly only if it first opened strictly).
    strict = loaded.error is None
    again = savefile.loads_game(text, source="again.crgame", strict=strict)
    assert savefile.dumps_game(again.game) == text, "saving twice gives another file"
    return "accepted" if loaded.error is None else "rejected"


def check_band_input(raw: bytes) -> str:
    """Open one input as a Band: ``"rejected"`` or ``"accepted"``, else a bug."""
    from crdesk import band

    try:
        opened = band.loads_band(raw, source="fuzz.crband")
    except band.BandFileError as exc:
        return _refused(exc)
    text = band.dumps_band(opened)
    assert band.dumps_band(band.loads_band(text)) == text, "saving twice gives another file"
    return "accepted"


CHECKS = {"crgame": check_game_input, "crband": check_band_input}


def write_seeds() -> None:
    """Make the seed files again with the ``crdesk`` command line."""
    for name, command in SEED_COMMANDS.items():
        out = HOSTILE / name
        subprocess.run(
            [sys.executable, "-m", "crdesk", *command, "-o", str(out), "--force"],
            check=True,
            capture_output=True,
        )
        print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write-seeds"]:
        sys.exit("usage: saves.py --write-seeds")
    write_seeds()
