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
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from crdesk.game import Game
from crdesk.game.savefile import LoadedGame, load_game, save_game
from crdesk.recovery import process_alive
from crdesk.scenario import write_atomic
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
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(key)
        save_game(game, target)
        note = {
            "title": game.scenario.title,
            "turn": game.turn,
            "steps": len(game.history),
            "program": sorted(program),
            "saved_at": time.time(),
            "pid": os.getpid(),
        }
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


AUTOSAVE_PAUSE_MS = 700
"""Quiet time after a step before the game is autosaved."""


class GameAutosaver(QObject):
    """Saves a session's game after every step (and after an undo), to its store entry.

    The write waits for a short pause in play (:data:`AUTOSAVE_PAUSE_MS`), so a
    chain of steps is written once, never in the middle of one, and a step's
    own response is never held up by the file (a dense table's game takes
    10-20 ms to write).  A crash loses at most the steps of the last pause.
    """

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
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_PAUSE_MS)
        self._timer.timeout.connect(self.flush)
        session.stepped.connect(self._schedule)
        session.rewound.connect(self._schedule)
        self._timer.start()

    @property
    def path(self) -> Path:
        return self.store.path(self.key)

    def _schedule(self, *_args: object) -> None:
        self._timer.start()

    def flush(self) -> Path | None:
        """Write the game now if it changed since the last write; the path, or None."""
        self._timer.stop()
        game = self.session.game
        mark = (len(game.history), game.state_hash())
        if mark == self._written:
            return None
        try:
            path = self.store.write(self.key, game, set(self.session.program))
        except (OSError, ValueError) as exc:
            if self.error is None:
                self.session.message.emit(f"The game could not be autosaved: {exc}")
            self.error = str(exc)
            return None
        self.error = None
        self._written = mark
        return path

    def stop(self) -> None:
        """The game is put away on purpose: its autosave is no longer needed."""
        self._timer.stop()
        self.session.stepped.disconnect(self._schedule)
        self.session.rewound.disconnect(self._schedule)
        self.store.discard(self.key)
