"""The one dice service every roll goes through, and the dice log (digest 2, book 4.1).

A game is data: scenario + seed + decisions (STYLE 2).  So chance is injected:
:class:`CounterDice` numbers every die of a game and derives its face from the
seed and that number by a documented hash (:func:`counter_face`), so a saved
game replays the same faces on any Python version and can seek back for undo;
:class:`Dice` draws from a ``random.Random`` the caller owns (never the module
global; ``randint`` is not promised stable across versions, so only the terrain
generator uses it); :class:`ScriptedDice` replays a fixed list of faces (tests,
tutorials, a player typing real dice).  Each appends one :class:`DiceLogEntry`
per roll to a :class:`DiceLog`; the rule that rolled completes the entry with
its outcome in words via :meth:`DiceSource.note`.  Every source counts the dice
it has produced (:attr:`DiceSource.position`); an entry records the position of
its first face (``first_die``) and the ids of the figures it was rolled for.

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

import hashlib
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
    first_die: int = 0
    """The die position (:attr:`DiceSource.position`) of this roll's first face."""
    figures: tuple[str, ...] = ()
    """Ids of the figures the roll is for (empty when the rule was given none)."""

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
            "first_die": self.first_die,
            "figures": list(self.figures),
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

    def truncate(self, n: int) -> None:
        """Drop the entries from index ``n`` on (undo); past the end drops nothing.

        To take a game back to before roll ``n`` of a :class:`CounterDice` game:
        ``dice.seek(log[n].first_die)`` then ``log.truncate(n)``.
        """
        if n < 0:
            raise ValueError(f"truncate needs an index of 0 or more, got {n}")
        del self._entries[n:]

    def clear(self) -> None:
        self._entries.clear()


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces of one roll and where its log entry sits."""

    faces: tuple[int, ...]
    log_index: int


@dataclass(frozen=True, slots=True)
class _RollRequest:
    """What the roll being made is for, while a subclass's ``_faces`` supplies its faces."""

    section: str
    table: str
    who: str = ""
    figures: tuple[str, ...] = ()


class DiceSource:
    """Base of the dice services: rolls d6, writes the log.  Subclasses supply faces.

    :attr:`position` counts the dice produced so far; :meth:`roll` advances it
    by the faces of each roll (a roll that fails moves nothing and logs nothing)
    and logs it as the roll's ``first_die``.  A subclass that keeps the count
    elsewhere (a game's state) overrides :attr:`position`; ``roll`` reads it.
    """

    def __init__(self, log: DiceLog | None = None) -> None:
        self.log = log if log is not None else DiceLog()
        self._position = 0
        self._request = _RollRequest("", "")

    @property
    def position(self) -> int:
        """How many dice this source has produced so far (the next die's number)."""
        return self._position

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
        figures: Sequence[str] = (),
    ) -> Roll:
        """Roll ``count`` d6 (zero or fewer rolls nothing, 4.1) and log it.

        ``figures`` are the ids of the figures the roll is for; the log keeps them.
        """
        if isinstance(figures, str):
            raise TypeError("figures is a sequence of figure ids, not one string")
        ids = tuple(figures)
        count = max(0, count)
        context = f"{section} {table}" + (f" for {who}" if who else "")
        first = self.position  # a subclass may keep the count elsewhere
        self._request = _RollRequest(section, table, who, ids)
        faces = self._faces(count, context) if count else ()
        self._position = first + len(faces)
        index = len(self.log)
        self.log.append(
            DiceLogEntry(
                index=index,
                section=section,
                table=table,
                who=who,
                faces=faces,
                target=target,
                first_die=first,
                figures=ids,
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


COUNTER_SCHEME = "crdesk-dice-v1"
"""The name of the :func:`counter_face` scheme; a saved game depends on it."""


def counter_face(seed: int, k: int) -> int:
    """Face of die number ``k`` (0-based, counted over the whole game) of ``seed``.

    The scheme (``crdesk-dice-v1``; saved games depend on it, never change it):

    1. Write the ASCII text ``f"crdesk-dice-v1:{seed}:{k}"`` — both numbers in
       plain base-10 digits, a leading ``-`` for a negative seed, no spaces.
    2. Take its SHA-256 digest (32 bytes).
    3. Read the first 8 bytes as an unsigned big-endian integer ``u``.
    4. The face is ``1 + (u % 6)``.

    ``seed`` is any int, ``k`` an int of 0 or more (bools are refused: they
    would print as ``True``).  Only hashlib's SHA-256 is used, so the faces are
    the same on every Python version and platform.  (The modulo bias of 2**64
    over 6 is below 1 in 10**18.)

    The first ten faces of seed 1, pinned so a change is caught:

    >>> [counter_face(1, k) for k in range(10)]
    [4, 6, 4, 5, 4, 5, 6, 6, 5, 3]
    """
    if not _is_int(seed):
        raise TypeError(f"a dice seed is an int, got {seed!r}")
    if not _is_int(k):
        raise TypeError(f"a die number is an int, got {k!r}")
    if k < 0:
        raise ValueError(f"die numbers start at 0, got {k}")
    digest = hashlib.sha256(f"{COUNTER_SCHEME}:{seed}:{k}".encode("ascii")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class CounterDice(DiceSource):
    """Recorded chance for games: die ``k`` of the game is ``counter_face(seed, k)``.

    A game saves its seed; replaying its decisions replays the same faces on
    any Python version.  :meth:`seek` sets the position for undo and replay.

    >>> dice = CounterDice(1)
    >>> dice.roll(2, section="7.7", table="Reaction Tests", figures=["f1"]).faces
    (4, 6)
    >>> dice.roll(3, section="7.9.10", table="Ranged Combat").faces, dice.position
    ((4, 5, 4), 5)
    >>> dice.seek(dice.log[1].first_die); dice.log.truncate(1)   # undo the last roll
    >>> dice.roll(3, section="7.9.10", table="Ranged Combat").faces
    (4, 5, 4)
    """

    def __init__(self, seed: int, log: DiceLog | None = None, *, position: int = 0) -> None:
        if not _is_int(seed):
            raise TypeError(f"a dice seed is an int, got {seed!r}")
        super().__init__(log)
        self._seed = seed
        self.seek(position)

    @property
    def seed(self) -> int:
        return self._seed

    def seek(self, k: int) -> None:
        """Make die number ``k`` the next one rolled (undo, replay).  The log is untouched."""
        if not _is_int(k):
            raise TypeError(f"a die number is an int, got {k!r}")
        if k < 0:
            raise ValueError(f"die numbers start at 0, got {k}")
        self._position = k

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        start = self._position
        return tuple(counter_face(self._seed, start + i) for i in range(count))


class ScriptedDiceExhaustedError(DiceScriptExhaustedError):
    """The dice script ran out: how many dice the roll needed, and what it was for.

    Enough for a caller to ask a player for the right dice.  ``needed`` is the
    dice the roll asked for, ``available`` the faces the script still held.
    """

    def __init__(
        self,
        message: str,
        *,
        needed: int = 0,
        available: int = 0,
        section: str = "",
        table: str = "",
        who: str = "",
        figures: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.needed = needed
        self.available = available
        self.section = section
        self.table = table
        self.who = who
        self.figures = figures


class ScriptedDice(DiceSource):
    """Dice that return a fixed list of faces in order (tests, tutorials, real dice)."""

    def __init__(self, faces: Iterable[int], log: DiceLog | None = None) -> None:
        super().__init__(log)
        self._script = tuple(faces)
        for face in self._script:
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise ValueError(f"a d6 face must be 1-6, got {face!r}")

    @property
    def remaining(self) -> int:
        return len(self._script) - self._position

    @property
    def used(self) -> int:
        """Faces used so far (the same as :attr:`position`)."""
        return self._position

    def check_used_up(self) -> None:
        """Raise ValueError if faces were left over (a player typed too many dice)."""
        if self.remaining:
            raise ValueError(
                f"{len(self._script)} dice given but only {self._position} were needed "
                f"({self.remaining} left over)"
            )

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        pos = self._position
        if count > self.remaining:
            asked = self._request
            raise ScriptedDiceExhaustedError(
                f"{context} needs {count} d6 but the dice script has only "
                f"{self.remaining} left (used {pos} of {len(self._script)})",
                needed=count,
                available=self.remaining,
                section=asked.section,
                table=asked.table,
                who=asked.who,
                figures=asked.figures,
            )
        return self._script[pos : pos + count]


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
