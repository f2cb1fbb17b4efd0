"""Game autosave and crash recovery: the game in play is saved after every step.

Like the editor's recovery files (:mod:`ui.autosave`, :mod:`crdesk.recovery`),
each game in play has an entry in the recovery folder, here its ``games``
subfolder: ``KEY.crgame`` (written atomically by
:func:`crdesk.game.savefile.save_game`) and a small note ``KEY.json`` (title,
turn, step, who the program plays, the process that wrote it).  A clean Game ▸
Stop Game (or closing the window) removes the entry, so an entry left by a
process that no longer runs is a game a crash interrupted; the play mode offers
to resume it on the next start.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from crdesk.game import Game
from crdesk.game.savefile import LoadedGame, dumps_game, load_game
from crdesk.jsonfile import write_atomic
from crdesk.recovery import process_alive
from ui.play.session import PlaySession

GAMES_FOLDER = "games"
"""The subfolder of the editor's recovery folder that holds games in play."""


@dataclass(frozen=True, slots=True)
class GameAutosaveEntry:
    """One autosaved game."""

    key: str
    game_path: Path
    title: str
    turn: int
    steps: int
    program: tuple[str, ...]
    saved_at: float
    pid: int

    def load(self) -> LoadedGame:
        return load_game(self.game_path, strict=False)


class GameAutosaveStore:
    """A folder of autosaved games."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    @staticmethod
    def new_key() -> str:
        return uuid.uuid4().hex

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.crgame"

    def write(self, key: str, game: Game, program: frozenset[str] | set[str]) -> Path:
        """Write (or overwrite) the entry of one game in play, atomically."""
        return self.write_prepared(key, prepare_entry(game, program))

    def write_prepared(self, key: str, entry: PreparedEntry) -> Path:
        """Write an entry made by :func:`prepare_entry`; touches no game, so any thread
        may do it (the game file first, then the note that makes it an entry)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(key)
        write_atomic(target, entry.game)
        note = {**entry.note, "saved_at": time.time(), "pid": os.getpid()}
        write_atomic(self.folder / f"{key}.json", json.dumps(note).encode("utf-8"))
        return target

    def discard(self, key: str) -> None:
        for suffix in (".crgame", ".json"):
            (self.folder / f"{key}{suffix}").unlink(missing_ok=True)

    def pending(self, alive: Callable[[int], bool] | None = None) -> list[GameAutosaveEntry]:
        """Games left by processes that no longer run, newest first."""
        is_alive = alive or process_alive
        if not self.folder.is_dir():
            return []
        entries = []
        for note_path in self.folder.glob("*.json"):
            key = note_path.stem
            game_path = self.path(key)
            try:
                note = json.loads(note_path.read_text(encoding="utf-8"))
                entry = GameAutosaveEntry(
                    key=key,
                    game_path=game_path,
                    title=str(note.get("title", "")),
                    turn=int(note.get("turn", 0)),
                    steps=int(note.get("steps", 0)),
                    program=tuple(str(s) for s in note.get("program", [])),
                    saved_at=float(note["saved_at"]),
                    pid=int(note["pid"]),
                )
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
            if not game_path.is_file() or is_alive(entry.pid):
                continue
            entries.append(entry)
        return sorted(entries, key=lambda e: e.saved_at, reverse=True)


@dataclass(frozen=True, slots=True)
class PreparedEntry:
    """An autosave entry as bytes and plain data, ready to be written by any thread."""

    game: bytes
    note: dict[str, object]


def prepare_entry(game: Game, program: frozenset[str] | set[str]) -> PreparedEntry:
    """The game file's bytes and the note's data, made from the live game (so on the
    thread that owns it: the controller is not thread-safe)."""
    return PreparedEntry(
        dumps_game(game).encode("utf-8"),
        {
            "title": game.scenario.title,
            "turn": game.turn,
            "steps": len(game.history),
            "program": sorted(program),
        },
    )


AUTOSAVE_PAUSE_MS = 700
"""Quiet time after a step before the game is autosaved."""


class GameAutosaver(QObject):
    """Saves a session's game after every step (and after an undo), to its store entry.

    The write waits for a short pause in play (:data:`AUTOSAVE_PAUSE_MS`), so a
    chain of steps is written once, never in the middle of one.  While the
    program plays by itself (autoplay on, its decision awaited) nothing is
    written: the pause is looked at again until a person is to decide, the game
    is over or the program is paused, so a long run of the program's steps never
    holds the window up (a dense table's game file takes 10-20 ms to make and a
    loaded disk up to 150 ms to write).  The file's bytes are made on the GUI
    thread, which owns the game; the writing (temp file, fsync, rename, then the
    note) is done by one worker thread, so two writes never overlap, and when
    several are asked for while one runs only the newest is written after it.
    A crash loses at most the steps since the last pause.
    """

    _wrote = Signal()
    """From the worker: a write ended (its outcome is picked up on the GUI thread)."""

    def __init__(
        self, session: PlaySession, store: GameAutosaveStore, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.store = store
        self.key = store.new_key()
        self.error: str | None = None
        """Why the last write failed (the game goes on; the status bar says so once)."""
        self._written: tuple[int, str] | None = None
        """The game (steps, state hash) last handed to the writer."""
        self._lock = threading.Lock()
        self._latest: tuple[tuple[int, str], PreparedEntry] | None = None
        """The newest entry waiting for the writer (an older one waiting is dropped)."""
        self._draining = False
        self._outcomes: list[tuple[tuple[int, str], str | None]] = []
        self._pool: ThreadPoolExecutor | None = None
        self._job: Future[None] | None = None
        self._wrote.connect(self._collect)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_PAUSE_MS)
        self._timer.timeout.connect(self._pause)
        session.stepped.connect(self._schedule)
        session.rewound.connect(self._schedule)
        self._timer.start()

    @property
    def path(self) -> Path:
        return self.store.path(self.key)

    def _schedule(self, *_args: object) -> None:
        self._timer.start()

    def program_playing(self) -> bool:
        """Whether the program is playing on by itself (the autosave waits for a pause)."""
        return self.session.autoplay and self.session.is_program_turn()

    def _pause(self) -> None:
        if self.program_playing():
            self._timer.start()  # look again after another pause
            return
        self.flush(wait=False)

    def flush(self, *, wait: bool = True) -> Path | None:
        """Write the game now if it changed since the last write; the path, or None.

        ``wait``: until the file is on disk (a clean stop, tests); else the worker
        writes it while play goes on.
        """
        self._timer.stop()
        game = self.session.game
        mark = (len(game.history), game.state_hash())
        if mark == self._written:
            if wait:
                self.wait()
            return None
        try:
            entry = prepare_entry(game, set(self.session.program))
        except ValueError as exc:
            self._failed(str(exc))
            return None
        self._written = mark
        self._submit(mark, entry)
        if wait:
            self.wait()
            if self._written != mark:
                return None  # the write failed (self.error says why)
        return self.path

    def _submit(self, mark: tuple[int, str], entry: PreparedEntry) -> None:
        with self._lock:
            self._latest = (mark, entry)
            if self._draining:
                return  # the running write takes the newest entry next
            self._draining = True
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crdesk-autosave")
        self._job = self._pool.submit(self._drain)

    def _drain(self) -> None:
        """In the worker: write the newest entry until none is waiting."""
        while True:
            with self._lock:
                job, self._latest = self._latest, None
                if job is None:
                    self._draining = False
                    return
            mark, entry = job
            try:
                self.store.write_prepared(self.key, entry)
                problem = None
            except (OSError, ValueError) as exc:
                problem = str(exc)
            with self._lock:
                self._outcomes.append((mark, problem))
            self._wrote.emit()

    def wait(self) -> None:
        """Until every write asked for is on disk (or failed)."""
        job = self._job
        if job is not None:
            job.result()
        self._collect()

    def writing(self) -> bool:
        """Whether the worker has a write under way or waiting (tests)."""
        with self._lock:
            return self._draining

    def _collect(self) -> None:
        with self._lock:
            outcomes, self._outcomes = self._outcomes, []
        for mark, problem in outcomes:
            if problem is None:
                self.error = None
            else:
                if mark == self._written:
                    self._written = None  # tried again after the next step
                self._failed(problem)

    def _failed(self, problem: str) -> None:
        if self.error is None:
            self.session.message.emit(f"The game could not be autosaved: {problem}")
        self.error = problem

    def stop(self) -> None:
        """The game is put away on purpose: its autosave is no longer needed."""
        self._timer.stop()
        self.session.stepped.disconnect(self._schedule)
        self.session.rewound.disconnect(self._schedule)
        with self._lock:
            self._latest = None  # not worth writing: the entry goes
        self.wait()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self.store.discard(self.key)
