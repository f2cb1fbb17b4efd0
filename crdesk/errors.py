"""Specific errors, so callers can tell a bad file from an illegal move from a bug."""

from __future__ import annotations

from dataclasses import dataclass


class CrdeskError(Exception):
    """Base class of every error crdesk raises on purpose."""


class ModelError(CrdeskError, ValueError):
    """An edit the battlefield model refuses (duplicate id, Rep out of range, ...)."""


class IllegalActionError(CrdeskError, ValueError):
    """A decision the rules do not allow now; the message is for the player.

    ``about`` names what the refusal is about ("targets", "allocation"), so that a
    front end can point at the field or flag it came from without reading the words.
    """

    def __init__(self, message: str = "", *, about: str = "") -> None:
        super().__init__(message)
        self.about = about


class DiceScriptExhaustedError(CrdeskError):
    """A scripted dice source was asked for more faces than it holds."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a scenario file: where (a JSON path) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ScenarioError(CrdeskError):
    """A scenario file could not be loaded."""


class UnreadableFileError(ScenarioError):
    """The file is missing, unreadable, not text, too large, or not JSON at all."""


class NewerFormatError(ScenarioError):
    """The file was written by a newer crdesk with a format this one does not know."""


class ScenarioFormatError(ScenarioError):
    """The file is JSON but breaks the scenario format; lists every problem found."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = problems
        self.source = source
        head = f"{source}: " if source else ""
        count = len(problems)
        lines = [f"{head}{count} problem{'s' if count != 1 else ''} in the scenario file"]
        lines += [f"  {p}" for p in problems]
        super().__init__("\n".join(lines))
