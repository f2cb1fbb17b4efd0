"""Crash recovery files: the editor's autosave writes here, the next start reads them.

A recovery entry is a scenario file plus a small JSON note (which file it was,
when, which process wrote it).  Entries are deleted when their document is
saved or closed normally, so any entry left behind by a process that is no
longer running is work a crash would otherwise have lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from crdesk import scenario as scenario_io
from crdesk.jsonfile import write_atomic
from crdesk.model import Scenario


@dataclass(frozen=True, slots=True)
class RecoveryEntry:
    """One recoverable document."""

    key: str
    scenario_path: Path
    original_path: Path | None
    title: str
    saved_at: float
    pid: int

    def load(self) -> Scenario:
        return scenario_io.load(self.scenario_path)


class RecoveryStore:
    """A folder of recovery entries (the GUI passes its per-user data folder)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    @staticmethod
    def new_key() -> str:
        return uuid.uuid4().hex

    def write(self, key: str, scenario: Scenario, original_path: Path | None) -> Path:
        """Write (or overwrite) the entry for one open document, atomically."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / f"{key}.crdesk"
        scenario_io.save(scenario, target)
        note = {
            "original_path": str(original_path) if original_path else None,
            "title": scenario.title,
            "saved_at": time.time(),
            "pid": os.getpid(),
        }
        write_atomic(self.folder / f"{key}.json", json.dumps(note).encode("utf-8"))
        return target

    def discard(self, key: str) -> None:
        """Forget an entry: its document was saved or closed on purpose."""
        for suffix in (".crdesk", ".json"):
            # a folder that cannot be written holds no entry: closing must go on
            with contextlib.suppress(OSError):
                (self.folder / f"{key}{suffix}").unlink(missing_ok=True)

    def pending(self) -> list[RecoveryEntry]:
        """Entries left by processes that are no longer running, newest first."""
        entries = []
        if not self.folder.is_dir():
            return []
        for note_path in self.folder.glob("*.json"):
            key = note_path.stem
            scenario_path = self.folder / f"{key}.crdesk"
            try:
                note = json.loads(note_path.read_text(encoding="utf-8"))
                pid = int(note["pid"])
                entry = RecoveryEntry(
                    key=key,
                    scenario_path=scenario_path,
                    original_path=Path(note["original_path"]) if note["original_path"] else None,
                    title=str(note.get("title", "")),
                    saved_at=float(note["saved_at"]),
                    pid=pid,
                )
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if not scenario_path.is_file() or process_alive(pid):
                continue
            entries.append(entry)
        return sorted(entries, key=lambda e: e.saved_at, reverse=True)


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs (our own process counts as alive)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
