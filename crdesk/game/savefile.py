"""The ``.crgame`` saved-game file: a game as its scenario, seed and steps.

A saved game is UTF-8 JSON (format version 1)::

    {"format_version": 1, "crdesk_version": "0.1.0",
     "rules_hash": sha256 of the scenario's rules settings (sorted-key JSON),
     "scenario": the .crdesk scenario document the game started from,
     "seed": 42, "dice": "seeded" | "manual",
     "settings": GameSettings.to_dict() (a co-op game's "seats" too, crdesk.game.seats),
     "steps": [Step.to_dict(), ...],
     "pending": null | {"action", "actor", "faces", "why"},
     "checks": [{"step": 10, "hash": ...}, {"step": 20, ...}, ..., {"step": last, ...}],
     "final": {"state_hash": ..., "state": Game.state_document()}}

The steps are the game; everything else checks them.  ``checks`` holds the
state hash after every tenth step and after the last one; ``final`` the state
(and its hash) the game was saved in.  ``pending`` is the action of a
manual-dice game that waits for the faces of real dice (with the faces typed so
far), so a game saved in the middle of entering dice resumes there.

Loading is as defensive as the scenario loader's (the files come from other
players): size limit, UTF-8, strict JSON (no NaN), bounded nesting, the JSON
Schema :data:`GAME_SCHEMA` with every problem named by its JSON path, the
embedded scenario checked by :func:`crdesk.scenario.from_document` (its
problems under ``scenario.``), then the steps replayed through
:meth:`Game.replay`, comparing the state hash at each recorded check.  Nothing
is ever evaluated or unpickled.

Errors are :class:`GameFileError` (a :class:`~crdesk.errors.ScenarioError`);
:class:`GameReplayError` when a step cannot be played, or
:class:`GameDivergedError` when a state hash differs from the file's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crdesk import __version__, limits
from crdesk.errors import (
    CrdeskError,
    IllegalActionError,
    NewerFormatError,
    Problem,
    ScenarioError,
    ScenarioFormatError,
    UnreadableFileError,
)
from crdesk.game.actions import Action
from crdesk.game.controller import HASH_EVERY, Game, ReplayError
from crdesk.game.gamefile_schema import (
    GAME_FORMAT_VERSION,
    MAX_DEPTH,
    MAX_STEPS,
    STEP_VALIDATOR,
    VALIDATOR,
    check_game_document,
    snapshot_problems,
    under,
)
from crdesk.game.records import Step
from crdesk.game.settings import GameSettings
from crdesk.jsonfile import parse_object, read_file, write_atomic
from crdesk.model import Scenario
from crdesk.options import LATER_OPTIONS
from crdesk.scenario import (
    MAX_FILE_BYTES,
    bad_texts,
    from_document,
    schema_problem,
    to_document,
)

SUFFIX = ".crgame"
CHECK_EVERY = HASH_EVERY
"""Steps between the state hashes recorded in ``checks`` (and one after the last step)."""
# --------------------------------------------------------------------------
# Errors


class GameFileError(ScenarioError):
    """A saved game could not be opened; ``problems`` names each bad field by its JSON path."""

    def __init__(
        self, problems: Sequence[Problem], source: str = "", message: str | None = None
    ) -> None:
        self.problems = list(problems)
        self.source = source
        head = f"{source}: " if source else ""
        if message is None:
            count = len(self.problems)
            lines = [f"{head}{count} problem{'s' if count != 1 else ''} in the game file"]
            lines += [f"  {p}" for p in self.problems]
            message = "\n".join(lines)
        else:
            message = head + message
        super().__init__(message)

    def one_line(self, limit: int = 3) -> str:
        """The error on one line (the CLI's ``error:`` line): the first few problems."""
        text = str(self).splitlines()[0]
        if len(self.problems) <= 1 and "\n" not in str(self):
            return text
        shown = "; ".join(str(p) for p in self.problems[:limit])
        more = len(self.problems) - limit
        return f"{text}: {shown}" + (f" (and {more} more)" if more > 0 else "")


class UnsavableGameError(GameFileError):
    """The game holds what its own loader would refuse, so it is not written: the file on
    disk stays as it was.  ``problems`` name each part by its path in the file."""

    def __init__(self, problems: Sequence[Problem], source: str = "") -> None:
        shown = "; ".join(str(p) for p in problems[:3])
        more = len(problems) - 3
        message = f"not saved: the file would not open again ({shown}" + (
            f"; and {more} more)" if more > 0 else ")"
        )
        super().__init__(problems, source, message)

    def one_line(self, limit: int = 3) -> str:
        return str(self)


class UnreadableGameFileError(GameFileError, UnreadableFileError):
    """The file is missing, unreadable, not text, too large, too deep, or not JSON."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__([Problem("", message)], source, message)


class NewerGameFormatError(GameFileError, NewerFormatError):
    """The game was saved by a newer crdesk, in a format this one does not know."""

    def __init__(self, source: str, version: int) -> None:
        message = (
            f"made by a newer crdesk (game format version {version}); this crdesk "
            f"{__version__} reads game format versions up to {GAME_FORMAT_VERSION}. "
            "Update crdesk to open it."
        )
        super().__init__([Problem("format_version", message)], source, message)


class GameReplayError(GameFileError):
    """The steps do not replay: ``step`` is the first step that fails (1-based).

    ``matched`` is the last step whose state hash the file confirmed (0: none).
    """

    def __init__(
        self, step: int, detail: str, *, path: str = "", matched: int = 0, source: str = ""
    ) -> None:
        self.step = step
        self.detail = detail
        self.matched = matched
        self.reason = f"replay diverges at step {step}: {detail}"
        self.good = step - 1  # where a lenient load opens: the steps before it replayed
        super().__init__(
            [Problem(path or f"steps[{step - 1}]", detail)], source, message=self.reason
        )


class GameDivergedError(GameReplayError):
    """A replayed state's hash differs from the one recorded in the file."""

    def __init__(
        self, step: int, expected: str, got: str, *, path: str, matched: int, source: str = ""
    ) -> None:
        self.expected = expected
        self.got = got
        detail = f"expected hash {expected[:12]}…, got {got[:12]}…"
        if matched:
            detail += f" (the state last matched the file at step {matched})"
        super().__init__(step, detail, path=path, matched=matched, source=source)
        self.good = matched  # the steps after the last matching check are unconfirmed


# --------------------------------------------------------------------------
# Saving


def rules_hash(scenario: Scenario) -> str:
    """SHA-256 of the scenario's rules settings, as sorted-key JSON (the options added
    since, :data:`~crdesk.options.LATER_OPTIONS`, only when not at their default)."""
    rules = scenario.rules.to_dict()
    chosen = rules["interpretations"]
    for key, default in LATER_OPTIONS.items():
        if chosen.get(key) == default:
            del chosen[key]
    text = json.dumps(rules, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class _Memo:
    """The check hashes of a game's steps as loading or the last save established them.

    ``hashes`` holds every check hash of ``steps`` that a save should write: a check
    missing from it is one a replay cannot give (a game opened from its snapshot,
    whose steps do not replay, or replay only up to the last step the load
    confirmed), so a save of a game that still starts with ``steps`` never replays
    them again.
    """

    steps: tuple[Step, ...]
    hashes: dict[int, str]


_MEMO: weakref.WeakKeyDictionary[Game, _Memo] = weakref.WeakKeyDictionary()
"""State hashes after steps of games loaded or saved, so a save rarely replays."""


def _remember(game: Game, hashes: dict[int, str]) -> None:
    _MEMO[game] = _Memo(game.history, dict(hashes))


def _check_steps(count: int) -> list[int]:
    wanted = list(range(CHECK_EVERY, count + 1, CHECK_EVERY))
    if count and (not wanted or wanted[-1] != count):
        wanted.append(count)
    return wanted


def _check_hashes(game: Game) -> dict[int, str]:
    """The state hash after every tenth step and the last, replaying only when unknown."""
    history = game.history
    count = len(history)
    wanted = _check_steps(count)
    known: dict[int, str] = game.recorded_hashes()
    memo = _MEMO.get(game)
    settled = 0  # the steps whose checks the memo settles: none is replayed for again
    if memo is not None:
        same = 0
        for a, b in zip(memo.steps, history, strict=False):
            if a != b:
                break
            same += 1
        known.update({k: h for k, h in memo.hashes.items() if k <= same})
        if same == len(memo.steps):  # the game only went on since (or is unchanged)
            settled = same
    if count and game.pending_step() is None:
        known[count] = game.state_hash()
    missing = {k for k in wanted if k not in known and k > settled}
    if missing:

        def collect(n: int, g: Game) -> None:
            if n in missing:
                known[n] = g.state_hash()

        # A game opened from its snapshot keeps steps that need not replay: it saves
        # the hashes it knows (the last step's), and opens from its snapshot again.
        with contextlib.suppress(ReplayError):
            Game.replay(
                game.scenario,
                history,
                seed=game.seed,
                dice=game.dice_mode,
                settings=game.settings,
                check=collect,
            )
    out = {k: known[k] for k in wanted if k in known}
    _remember(game, out)
    return out


def _pending(game: Game) -> dict[str, Any] | None:
    pending = game.pending_step()
    if pending is None:
        return None
    out: dict[str, Any] = {"action": pending["action"], "actor": pending["actor"]}
    if pending.get("faces"):
        out["faces"] = list(pending["faces"])
    if pending.get("why"):
        out["why"] = pending["why"]
    return out


def game_document(game: Game, *, scenario: Any = None) -> dict[str, Any]:
    """The saved-game JSON document of a game (see the module docstring); ``scenario``
    stands in for the scenario's document when the caller already has it."""
    checks = _check_hashes(game)
    state = game.state_document()
    return {
        "format_version": GAME_FORMAT_VERSION,
        "crdesk_version": __version__,
        "rules_hash": rules_hash(game.scenario),
        "scenario": to_document(game.scenario) if scenario is None else scenario,
        "seed": game.seed,
        "dice": game.dice_mode,
        "settings": game.settings.to_dict(),
        "steps": [s.to_dict() for s in game.history],
        "pending": _pending(game),
        "checks": [{"step": k, "hash": h} for k, h in checks.items()],
        "final": {"state_hash": game.state_hash(state), "state": state},
    }


_POINT_RE = re.compile(r"\[\s+(-?[0-9][0-9.eE+-]*),\s+(-?[0-9][0-9.eE+-]*)\s+\]")


def _dump(value: Any, **kw: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, **kw)


_SCENARIO_TEXT: list[tuple[Scenario, int, str]] = []
"""The last scenario written, its battlefield revision and its text: a game saved after
every step (the play mode's autosave) writes the same scenario each time."""


def _scenario_text(scenario: Scenario) -> str:
    revision = scenario.battlefield.revision
    for known, rev, text in _SCENARIO_TEXT:
        if known is scenario and rev == revision:
            return text
    text = _layout(to_document(scenario))
    _SCENARIO_TEXT[:] = [(scenario, revision, text)]
    return text


def _layout(value: Any) -> str:
    return _POINT_RE.sub(r"[\1, \2]", _dump(value, indent=2)).replace("\n", "\n  ")


_WRITABLE: weakref.WeakKeyDictionary[Game, tuple[Step, ...]] = weakref.WeakKeyDictionary()
"""The steps of each game that a save found writable: the next save checks the new ones."""


def write_problems(game: Game, doc: dict[str, Any]) -> list[Problem]:
    """What the loader would refuse in ``doc``, the document about to be written for ``game``.

    The schema's limits apply when writing as when reading, and every step's action
    reads back as itself; the embedded scenario is the game's own, written by
    :func:`crdesk.scenario.to_document`.  Steps an earlier save of the game checked
    are not checked again, so an autosave after every step stays cheap.
    """
    history = game.history
    known = _WRITABLE.get(game, ())
    done = 0
    for a, b in zip(known, history, strict=False):
        if a != b:
            break
        done += 1
    steps, checks = doc["steps"], doc["checks"]
    head = {**doc, "steps": [], "checks": []}
    if head["scenario"] is True:  # dumps_game writes the scenario's text itself
        head["scenario"] = {}
    problems = [schema_problem(err) for err in VALIDATOR.iter_errors(head)]
    problems += bad_texts({k: v for k, v in head.items() if k != "scenario"}, "")
    for key, items in (("steps", steps), ("checks", checks)):
        if len(items) > MAX_STEPS:
            problems.append(
                Problem(key, limits.count_message(len(items), key, MAX_STEPS, "in a saved game"))
            )
    if isinstance(doc.get("pending"), dict):
        problems += _action_problems(doc["pending"]["action"], "pending.action")
    for i in range(done, len(steps)):
        problems += _step_problems(steps[i], f"steps[{i}]")
    if not problems:
        _WRITABLE[game] = history
    return problems


def _step_problems(step: dict[str, Any], where: str) -> list[Problem]:
    found = [under(where, schema_problem(err)) for err in STEP_VALIDATOR.iter_errors(step)]
    found += bad_texts(step, where)
    if not found:
        found += _action_problems(step["action"], f"{where}.action")
    return found


def _action_problems(text: str, where: str) -> list[Problem]:
    """An action that would not read back as itself (a replay would refuse it)."""
    try:
        again = str(Action.parse(text))
    except IllegalActionError as exc:
        return [Problem(where, f"{text[:60]!r} does not read back as an action: {exc}")]
    if again != text:
        return [Problem(where, f"{text[:60]!r} reads back as {again[:60]!r}")]
    return []


def dumps_game(game: Game) -> str:
    """The game as file text: one line per step and per check, points on one line.

    Raises :class:`UnsavableGameError` when the file would not open again."""
    doc = game_document(game, scenario=True)
    problems = write_problems(game, doc)
    if problems:
        raise UnsavableGameError(problems)
    parts = []
    for key, value in doc.items():
        if key == "scenario":
            text = _scenario_text(game.scenario)
        elif key in ("steps", "checks") and value:
            text = "[\n" + ",\n".join(f"    {_dump(v)}" for v in value) + "\n  ]"
        else:
            text = _layout(value)
        parts.append(f"  {_dump(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the game atomically (a crash mid-save leaves the old file whole); a game the
    file would not hold (:class:`UnsavableGameError`) is not written at all."""
    try:
        text = dumps_game(game)
    except UnsavableGameError as exc:
        raise UnsavableGameError(exc.problems, str(path)) from None
    write_atomic(Path(path), text.encode("utf-8"))


# --------------------------------------------------------------------------
# Reading


def parse_game_bytes(raw: bytes, source: str = "<data>") -> dict[str, Any]:
    """Decode and parse bytes as a strict, not too deeply nested JSON object."""
    return parse_object(
        raw,
        source,
        files="game files",
        file="a crdesk game file",
        what="a crdesk saved game",
        max_bytes=MAX_FILE_BYTES,
        max_depth=MAX_DEPTH,
        refuse=UnreadableGameFileError,
        not_object=lambda where, text: GameFileError([Problem("", text)], where),
    )


def read_game_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a file into a JSON document, refusing what cannot be a saved game."""
    raw, source = read_file(
        path,
        files="game files",
        file="a game file",
        max_bytes=MAX_FILE_BYTES,
        refuse=UnreadableGameFileError,
    )
    return parse_game_bytes(raw, source)


@dataclass(slots=True)
class LoadedGame:
    """A game read from a file, and what a player should know about it."""

    game: Game
    warnings: list[str] = field(default_factory=list)
    steps_in_file: int = 0
    error: GameReplayError | None = None
    """Why the game was opened before its last step (``strict=False`` only)."""

    @property
    def complete(self) -> bool:
        """True when every step of the file replayed exactly."""
        return self.error is None


def load_game(path: str | os.PathLike[str], *, strict: bool = True) -> LoadedGame:
    """Open a saved game, replaying its steps and checking every recorded state hash.

    Raises :class:`GameFileError` (or a subclass) for a file that is not a valid
    game.  When the steps do not replay -- a step the rules refuse, or a state
    hash that differs (:class:`GameDivergedError`) -- a strict load raises
    :class:`GameReplayError`; with ``strict=False`` the game is opened at the
    last step known to be good, or from its snapshot, and a warning says what
    happened::

        replay diverges at step 212: ...; opened at step 211

    The game is opened from the file's final snapshot when that snapshot is whole
    (its own hash fits it) and fits the scenario (:meth:`Game.from_snapshot`):
    the steps are kept as recorded, unchecked, and undo cannot go back before
    the snapshot.  Otherwise it is opened at the last good step: for a state
    hash that differs, the last check that matched, since the file holds no
    hash for the steps in between.
    """
    source = str(path)
    return load_document(read_game_document(path), source=source, strict=strict)


def loads_game(text: str | bytes, *, source: str = "<data>", strict: bool = True) -> LoadedGame:
    """:func:`load_game` for file text already in memory."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return load_document(parse_game_bytes(raw, source), source=source, strict=strict)


def load_document(
    data: dict[str, Any], *, source: str = "<data>", strict: bool = True
) -> LoadedGame:
    """Validate a parsed game document and replay it (see :func:`load_game`)."""
    version = data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > GAME_FORMAT_VERSION:
        raise NewerGameFormatError(source, version)
    problems = check_game_document(data)
    if problems:
        raise GameFileError(problems, source)
    scenario = _scenario(data["scenario"], source)
    warnings: list[str] = []
    if rules_hash(scenario) != data["rules_hash"]:
        warnings.append(
            "the scenario's rules settings differ from those the game was saved with "
            "(rules_hash); the replay's state checks tell whether that changes the game"
        )
    steps = [
        Step(s["actor"], s["action"], tuple(s.get("faces", ())), s.get("why", ""))
        for s in data["steps"]
    ]
    settings = GameSettings.from_dict(data["settings"])
    hashes: dict[int, str] = {}
    try:
        game = _replay(data, scenario, steps, settings, source, hashes, keep_going=not strict)
    except GameReplayError as exc:
        if strict:
            raise
        snapshot, where = _open_snapshot(data, scenario, steps, settings)
        if snapshot is not None:
            game = snapshot
            # Its steps do not replay (or not as recorded): saving it writes the hashes
            # its steps replay to, as far as they go (a lenient replay goes on past a
            # differing hash), so the file opens the same way again and saves the same;
            # a save never replays them again.
            _remember(game, dict(hashes))
        else:
            game = _open_at(data, scenario, steps[: exc.good], settings, source)
            where = f"opened at step {exc.good}" if exc.good else "opened at the start of the game"
        note = ""
        written = data.get("crdesk_version")
        if written and written != __version__:
            note = f" (the file was written by crdesk {written}; this is crdesk {__version__})"
        warnings.append(f"{exc.reason}; {where}{note}")
        _WRITABLE[game] = game.history  # as the file held them: they open again the same way
        return LoadedGame(game, warnings, len(steps), exc)
    _WRITABLE[game] = game.history
    return LoadedGame(game, warnings, len(steps), None)


def _usable(game: Game) -> bool:
    """Whether every question the program asks of a game has an answer: what is awaited
    and its options, the summary, each figure's flags, the outcome, the state's hash."""
    try:
        decision = game.awaiting()
        if decision is not None:
            decision.to_dict()
        game.summary()
        for fid in game.battlefield.figure_ids():
            game.flags(fid)
        if game.outcome is not None:
            game.outcome.to_dict()
        game.pending_step()
        game.state_hash()
    except Exception:  # a hostile snapshot that passed the checks: not opened from it
        return False
    return True


def _open_snapshot(
    data: dict[str, Any], scenario: Scenario, steps: list[Step], settings: GameSettings
) -> tuple[Game | None, str]:
    """The game as its final snapshot holds it, when the snapshot is whole and fits:
    every field checked (:data:`SNAPSHOT_SCHEMA`) before use, and every question the
    program asks of a game answered (:func:`_usable`)."""
    final = data["final"]
    if snapshot_problems(final["state"]):
        return None, ""
    try:
        game = Game.from_snapshot(
            scenario,
            final["state"],
            steps,
            seed=data["seed"],
            dice=data["dice"],
            settings=settings,
        )
    except (CrdeskError, KeyError, TypeError, ValueError):
        return None, ""
    if game.state_hash() != final["state_hash"] or not _usable(game):
        return None, ""
    return game, (
        f"opened from the saved snapshot at step {len(steps)} (its steps are not checked; "
        "undo cannot go back before it)"
    )


def _scenario(doc: dict[str, Any], source: str) -> Scenario:
    try:
        return from_document(doc, source=source)
    except ScenarioFormatError as exc:
        problems = [
            Problem(f"scenario.{p.path}" if p.path else "scenario", p.message) for p in exc.problems
        ]
        raise GameFileError(problems, source) from None
    except NewerFormatError as exc:
        message = str(exc).removeprefix(f"{source}: ")
        raise GameFileError([Problem("scenario.format_version", message)], source) from None


def _new_game(
    data: dict[str, Any],
    scenario: Scenario,
    steps: list[Step],
    settings: GameSettings,
    source: str,
    check: Callable[[int, Game], None] | None = None,
) -> Game:
    try:
        if not steps:
            return Game.new(scenario, seed=data["seed"], dice=data["dice"], settings=settings)
        return Game.replay(
            scenario, steps, seed=data["seed"], dice=data["dice"], settings=settings, check=check
        )
    except ReplayError:
        raise
    except IllegalActionError as exc:  # the game cannot be set up (steps raise ReplayError)
        raise GameFileError([Problem("scenario", str(exc))], source) from None


def _replay(
    data: dict[str, Any],
    scenario: Scenario,
    steps: list[Step],
    settings: GameSettings,
    source: str,
    hashes: dict[int, str],
    keep_going: bool = False,
) -> Game:
    """Replay every step, checking actors, dice and the recorded hashes.

    ``hashes`` receives the state hash after every check step replayed, also when
    the replay fails.  ``keep_going`` (a lenient load): a recorded hash that differs
    does not stop the replay -- the first difference is raised once the steps have
    replayed as far as they go, and ``hashes`` then holds what every check step
    replays to (what the game's file will say, so it opens the same way again)."""
    expected = {c["step"]: (i, c["hash"]) for i, c in enumerate(data["checks"])}
    memo_steps = set(_check_steps(len(steps)))
    state = {"done": 0, "matched": 0}
    first: list[GameDivergedError] = []

    def check(n: int, game: Game) -> None:
        state["done"] = n
        played, filed = game.history[-1], steps[n - 1]
        if played.actor != filed.actor:
            raise GameReplayError(
                n,
                f"the file says {filed.actor!r} decided {filed.action!r}, "
                f"but in the replay {played.actor!r} does",
                matched=state["matched"],
                source=source,
            )
        if played.faces != filed.faces:
            raise GameReplayError(
                n,
                f"{filed.action!r} rolled {_faces(played.faces)} but the file recorded "
                f"{_faces(filed.faces)}",
                matched=state["matched"],
                source=source,
            )
        if n not in expected and n not in memo_steps:
            return
        got = game.state_hash()
        hashes[n] = got
        if n in expected:
            i, want = expected[n]
            if got != want:
                error = GameDivergedError(
                    n,
                    want,
                    got,
                    path=f"checks[{i}].hash",
                    matched=state["matched"],
                    source=source,
                )
                if not keep_going:
                    raise error
                if not first:
                    first.append(error)
            elif not first:
                state["matched"] = n

    try:
        game = _new_game(data, scenario, steps, settings, source, check)
    except ReplayError as exc:
        if first:  # a hash differed before this step: that is the first problem
            raise first[0] from exc
        raise GameReplayError(exc.step, str(exc), matched=state["matched"], source=source) from exc
    except GameFileError:
        raise
    except CrdeskError as exc:
        if first:
            raise first[0] from exc
        n = state["done"] + 1
        raise GameReplayError(
            n, f"crdesk refused the step: {exc}", matched=state["matched"], source=source
        ) from exc
    except Exception as exc:  # a controller bug met on a (possibly hostile) file
        if first:
            raise first[0] from exc
        n = state["done"] + 1
        raise GameReplayError(
            n,
            f"crdesk failed replaying it ({type(exc).__name__}: {exc}; a bug, please report it)",
            matched=state["matched"],
            source=source,
        ) from exc
    if first:  # every step replayed, but a recorded hash differed on the way
        raise first[0]
    _remember(game, hashes)
    count = len(steps)
    pending = data.get("pending")
    if pending is not None:
        _restore_pending(game, pending, count, state["matched"], source)
    got = game.state_hash()
    if got != data["final"]["state_hash"]:
        raise GameDivergedError(
            max(count, 1),
            data["final"]["state_hash"],
            got,
            path="final.state_hash",
            matched=state["matched"],
            source=source,
        )
    return game


def _restore_pending(
    game: Game, pending: dict[str, Any], count: int, matched: int, source: str
) -> None:
    """Play the action that waits for dice again, with the faces typed so far."""
    faces = list(pending.get("faces", ()))
    what = f"the action waiting for dice ({pending['action']!r})"
    try:
        if count == 0:  # the start step: Game.new is already waiting for its dice
            if faces:
                game.play(f"dice {','.join(map(str, faces))}")
        else:
            game.play(pending["action"], why=pending.get("why", ""), faces=faces)
    except IllegalActionError as exc:
        raise GameReplayError(
            count + 1, f"{what}: {exc}", path="pending", matched=matched, source=source
        ) from None
    if len(game.history) != count or game.pending_step() is None:
        raise GameReplayError(
            count + 1,
            f"{what} needs no more dice than the file holds",
            path="pending",
            matched=matched,
            source=source,
        )


def _open_at(
    data: dict[str, Any],
    scenario: Scenario,
    steps: list[Step],
    settings: GameSettings,
    source: str,
) -> Game:
    """The game after the first ``len(steps)`` steps (a fresh game when there are none)."""
    try:
        return _new_game(data, scenario, steps, settings, source)
    except GameFileError:
        raise
    except CrdeskError as exc:  # pragma: no cover - these steps replayed a moment ago
        raise GameReplayError(len(steps), str(exc), source=source) from exc


def _faces(faces: Sequence[int]) -> str:
    return ",".join(map(str, faces)) or "no dice"
