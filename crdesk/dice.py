"""The one dice service every roll goes through, and the dice log (digest 2, book 4.1).

A game is data: scenario + seed + decisions (STYLE 2).  So chance is injected:
:class:`Dice` draws from a ``random.Random`` the caller owns (never the module
global), :class:`ScriptedDice` replays a fixed list of faces (tests, tutorials,
a player typing real dice).  Both append one :class:`DiceLogEntry` per roll to a
:class:`DiceLog`; the rule that rolled completes the entry with its outcome in
words via :meth:`DiceSource.note`.

The helpers below (:func:`count_passes`, :func:`count_successes`,
:func:`half_d6`, :func:`possible`) are pure functions of faces, so the odds
module and the rules read dice the same way.

>>> dice = ScriptedDice([1, 6, 4])
>>> roll = dice.roll(2, section="7.7", table="Reaction Tests", who="Bob", target=4)
>>> roll.faces, count_passes(roll.faces, 4)
((1, 6), 1)
>>> dice.remaining
1
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crdesk.errors import DiceScriptExhaustedError

PASS_CAP = 2
"""Pass tests count at most two passes: the tables only have rows 2, 1, 0 (4.1)."""


@dataclass(frozen=True, slots=True)
class DiceLogEntry:
    """One roll as the dice log shows it: which rule, who, the faces and what they meant."""

    index: int
    section: str
    table: str
    who: str
    faces: tuple[int, ...]
    target: int | None = None
    passed: int | None = None
    successes: int | None = None
    outcome: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "section": self.section,
            "table": self.table,
            "who": self.who,
            "faces": list(self.faces),
            "target": self.target,
            "passed": self.passed,
            "successes": self.successes,
            "outcome": self.outcome,
        }

    def __str__(self) -> str:
        faces = ",".join(map(str, self.faces)) or "no dice"
        vs = f" vs {self.target}" if self.target is not None else ""
        counts = []
        if self.passed is not None:
            counts.append(f"passed {self.passed}")
        if self.successes is not None:
            counts.append(f"{self.successes} successes")
        tail = f" ({', '.join(counts)})" if counts else ""
        outcome = f": {self.outcome}" if self.outcome else ""
        who = f"{self.who} " if self.who else ""
        return f"[{self.section} {self.table}] {who}rolled {faces}{vs}{tail}{outcome}"


class DiceLog:
    """The ordered list of every roll of a game; the GUI shows it, replays compare it."""

    def __init__(self) -> None:
        self._entries: list[DiceLogEntry] = []

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[DiceLogEntry]:
        return iter(self._entries)

    def __getitem__(self, index: int) -> DiceLogEntry:
        return self._entries[index]

    @property
    def entries(self) -> tuple[DiceLogEntry, ...]:
        return tuple(self._entries)

    def append(self, entry: DiceLogEntry) -> None:
        self._entries.append(entry)

    def update(self, index: int, **values: Any) -> DiceLogEntry:
        """Complete an entry (outcome, passes) once the rule has read the faces."""
        entry = replace(self._entries[index], **values)
        self._entries[index] = entry
        return entry

    def clear(self) -> None:
        self._entries.clear()


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces of one roll and where its log entry sits."""

    faces: tuple[int, ...]
    log_index: int


class DiceSource:
    """Base of the dice services: rolls d6, writes the log.  Subclasses supply faces."""

    def __init__(self, log: DiceLog | None = None) -> None:
        self.log = log if log is not None else DiceLog()

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        raise NotImplementedError

    def roll(
        self,
        count: int,
        *,
        section: str,
        table: str,
        who: str = "",
        target: int | None = None,
    ) -> Roll:
        """Roll ``count`` d6 (zero or fewer rolls nothing, 4.1) and log it."""
        count = max(0, count)
        context = f"{section} {table}" + (f" for {who}" if who else "")
        faces = self._faces(count, context) if count else ()
        index = len(self.log)
        self.log.append(
            DiceLogEntry(
                index=index, section=section, table=table, who=who, faces=faces, target=target
            )
        )
        return Roll(faces, index)

    def note(
        self,
        roll: Roll,
        outcome: str,
        *,
        passed: int | None = None,
        successes: int | None = None,
    ) -> None:
        """Write what a roll meant into its log entry."""
        self.log.update(roll.log_index, outcome=outcome, passed=passed, successes=successes)


class Dice(DiceSource):
    """Seeded dice: the same seed gives the same game.

    >>> a, b = Dice(random.Random(7)), Dice(random.Random(7))
    >>> a.roll(5, section="4.1", table="test").faces == b.roll(5, section="4.1", table="test").faces
    True
    """

    def __init__(self, rng: random.Random, log: DiceLog | None = None) -> None:
        if not isinstance(rng, random.Random):
            raise TypeError("Dice needs a random.Random instance (never the module global)")
        super().__init__(log)
        self.rng = rng

    @classmethod
    def seeded(cls, seed: int, log: DiceLog | None = None) -> Dice:
        return cls(random.Random(seed), log)

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(count))


class ScriptedDice(DiceSource):
    """Dice that return a fixed list of faces in order (tests, tutorials, real dice)."""

    def __init__(self, faces: Iterable[int], log: DiceLog | None = None) -> None:
        super().__init__(log)
        self._script = tuple(faces)
        for face in self._script:
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise ValueError(f"a d6 face must be 1-6, got {face!r}")
        self._pos = 0

    @property
    def remaining(self) -> int:
        return len(self._script) - self._pos

    @property
    def used(self) -> int:
        return self._pos

    def check_used_up(self) -> None:
        """Raise ValueError if faces were left over (a player typed too many dice)."""
        if self.remaining:
            raise ValueError(
                f"{len(self._script)} dice given but only {self._pos} were needed "
                f"({self.remaining} left over)"
            )

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        if count > self.remaining:
            raise DiceScriptExhaustedError(
                f"{context} needs {count} d6 but the dice script has only "
                f"{self.remaining} left (used {self._pos} of {len(self._script)})"
            )
        faces = self._script[self._pos : self._pos + count]
        self._pos += count
        return faces


# --------------------------------------------------------------------------
# Reading dice (4.1)


def dice_count(base: int, *modifiers: int) -> int:
    """Number of d6 after circumstances; zero or fewer means roll nothing (4.1).

    >>> dice_count(2, 1, -1, -2)
    0
    """
    return max(0, base + sum(modifiers))


def count_passes(
    faces: Sequence[int],
    target: int,
    *,
    cap: int | None = PASS_CAP,
    six_fails: bool = False,
) -> int:
    """Dice scoring equal to or under ``target`` are passed; capped at 2 on pass tests (4.1).

    Some tables add "a 6 is always a failure" (7.14, 13.1).

    >>> count_passes([1, 2, 3], 4), count_passes([1, 2, 3], 4, cap=None)
    (2, 3)
    >>> count_passes([6, 2], 7), count_passes([6, 2], 7, six_fails=True)
    (2, 1)
    >>> count_passes([], 5)
    0
    """
    n = sum(1 for f in faces if f <= target and not (six_fails and f == 6))
    return n if cap is None else min(cap, n)


def count_successes(faces: Sequence[int]) -> int:
    """Each die scoring 1, 2 or 3 is a success; no cap (4.1, In Sight and Melee).

    >>> count_successes([1, 3, 4, 6, 2])
    3
    """
    return sum(1 for f in faces if 1 <= f <= 3)


def half_d6(face: int) -> int:
    """1/2d6: 1-2 → 1, 3-4 → 2, 5-6 → 3 (4.1).

    >>> [half_d6(f) for f in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    _check_face(face)
    return (face + 1) // 2


def possible(face: int, low: int, high: int) -> bool:
    """A possibility "(low-high)": true when the d6 scores within it (4.1).

    >>> possible(2, 1, 2), possible(3, 1, 2)
    (True, False)
    """
    _check_face(face)
    return low <= face <= high


def _check_face(face: int) -> None:
    if not 1 <= face <= 6:
        raise ValueError(f"a d6 face must be 1-6, got {face}")
