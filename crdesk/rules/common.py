"""What every rules result shares: a section, a snake_case result code, explain(), to_dict().

Result objects are frozen dataclasses that explain themselves (STYLE 3), so the
dice log, the tooltip and the ``crdesk resolve --json`` command all print the
same thing.  :meth:`RuleResult.to_dict` turns any of them into plain JSON data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar

from crdesk.dice import DiceSource, Roll, count_passes, count_successes
from crdesk.errors import IllegalActionError
from crdesk.model import Status


class RuleResult:
    """Mixin for result dataclasses: ``section``, ``result``, :meth:`explain`, :meth:`to_dict`."""

    __slots__ = ()

    PARTS: ClassVar[tuple[str, ...]] = ()
    """Fields holding the per-figure / per-target / per-shot results: ``to_dict`` lists
    their items under ``"results"`` (one JSON object each) instead of by field name."""

    def explain(self) -> str:
        """One plain sentence citing the section; subclasses override."""
        reason = getattr(self, "reason", "")
        return str(reason)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data: ``section`` and ``result`` first, then every field."""
        out: dict[str, Any] = {}
        for key in _field_order(type(self)):
            out[key] = jsonable(getattr(self, key))
        if self.PARTS:
            out["results"] = [jsonable(item) for name in self.PARTS for item in getattr(self, name)]
        out["explain"] = self.explain()
        return out


_FIELD_ORDER: dict[type, tuple[str, ...]] = {}


def _field_order(cls: type[RuleResult]) -> tuple[str, ...]:
    """``section`` and ``result`` first, then every other field but the parts: worked
    out once per result class (every game event's data is made this way)."""
    known = _FIELD_ORDER.get(cls)
    if known is not None:
        return known
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    first = [key for key in ("section", "result") if hasattr(cls, key) or key in names]
    order = (*first, *(n for n in names if n not in first and n not in cls.PARTS))
    _FIELD_ORDER[cls] = order
    return order


_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """Convert enums, tuples, fractions and nested results into JSON-ready data."""
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, RuleResult):
        return value.to_dict()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, tuple | list | frozenset | set):
        items = sorted(value, key=str) if isinstance(value, frozenset | set) else value
        return [jsonable(v) for v in items]
    if isinstance(value, Mapping):
        return {str(jsonable(k)): jsonable(v) for k, v in value.items()}
    return value


STATUS_WORDS: Mapping[Status, str] = {status: status.label for status in Status}
"""The book's words for each status (7.8), for sentences a player reads."""


def plural(n: int, word: str, many: str = "") -> str:
    """``1 hit``, ``2 hits``, ``0 dice``: a count and its noun, as a player writes it.

    >>> plural(1, "hit"), plural(2, "hit"), plural(0, "die", "dice")
    ('1 hit', '2 hits', '0 dice')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def words(status: Status) -> str:
    """The status in the book's words: ``-1 to Rep``, ``Out of the Fight`` (7.8)."""
    return STATUS_WORDS[status]


def worse(a: Status, b: Status) -> Status:
    """The worse of two statuses on the 7.8 ranking."""
    return a if a.rank >= b.rank else b


def figure_id(name: str, id_: str) -> str:
    """The id a rules input is keyed by: its ``id``, or its name when the id is empty.

    Names are what the sentences print; ids are what results and lookups are keyed
    by, so two figures sharing a name stay apart.
    """
    return id_ or name


def faces_text(faces: tuple[int, ...]) -> str:
    return ",".join(map(str, faces)) if faces else "no dice"


def pass_roll(
    dice: DiceSource,
    count: int,
    target: int,
    *,
    section: str,
    table: str,
    who: str = "",
    cap: int | None = 2,
    six_fails: bool = False,
    figures: Sequence[str] = (),
) -> tuple[Roll, int]:
    """Roll ``count`` d6 as a pass test against ``target`` and return the roll and passes."""
    roll = dice.roll(count, section=section, table=table, who=who, target=target, figures=figures)
    return roll, count_passes(roll.faces, target, cap=cap, six_fails=six_fails)


def success_roll(
    dice: DiceSource,
    count: int,
    *,
    section: str,
    table: str,
    who: str = "",
    figures: Sequence[str] = (),
) -> tuple[Roll, int]:
    """Roll ``count`` d6 counting successes (1-3, In Sight and Melee Combat), and write
    the count into the roll's log entry; the roll and the successes."""
    roll = dice.roll(count, section=section, table=table, who=who, figures=figures)
    successes = count_successes(roll.faces)
    dice.note(roll, plural(successes, "success", "successes"), successes=successes)
    return roll, successes


def check_rep(rep: int, what: str = "Rep") -> None:
    """Reject impossible Reps early, with a message a player understands."""
    if not isinstance(rep, int) or rep < 0 or rep > 20:
        raise IllegalActionError(f"{what} must be a whole number 0-20, got {rep!r}")


@dataclass(frozen=True, slots=True)
class TableRoll(RuleResult):
    """The result of a simple one-table roll (recruiting, recovery, PEF movement, ...).

    ``result`` is the book's words in snake_case; ``value`` holds the number the
    table gives when it gives one (a Rep, inches moved, figures recruited).
    """

    section: str
    table: str
    who: str
    faces: tuple[int, ...]
    target: int | None
    passed: int | None
    result: str
    reason: str
    value: int | None = None
    extra: tuple[tuple[str, int | str | bool], ...] = ()

    def explain(self) -> str:
        return self.reason

    def get(self, key: str) -> int | str | bool | None:
        """An extra detail by name (for example ``flank`` on NP movement)."""
        return dict(self.extra).get(key)
