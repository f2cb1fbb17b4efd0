"""Running one ``crdesk resolve`` subcommand: the typed dice read flag by flag (or
rolled by crdesk), the answer printed as text or JSON, and the rolls still to make
when the typed dice stop short (issue 16)."""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from crdesk.cli.common import EXIT_OK, EXIT_USAGE
from crdesk.cli.resolve.flags import FigureSpec
from crdesk.dice import Dice, DiceLogEntry, DiceSource, Roll
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.odds import outcome_odds
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, faces_text

Route = Callable[[str, str], str]
"""(table, who) of a roll → the dice flag its faces come from."""


@dataclass(frozen=True, slots=True)
class PendingRoll:
    """A roll the player has not typed yet: which flag takes its faces, and what it is."""

    flag: str
    dice: int
    section: str
    table: str
    who: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "flag": self.flag,
            "dice": self.dice,
            "section": self.section,
            "table": self.table,
            "who": self.who,
        }


class DiceRanOut(Exception):
    """The typed dice ran out at a roll boundary: answer as far as they go (issue 16)."""

    def __init__(self, roll: PendingRoll) -> None:
        super().__init__(f"{roll.table} needs {roll.dice} d6 from {roll.flag}")
        self.roll = roll


class _ProbeDone(Exception):
    """A look-ahead past the typed dice has seen enough rolls."""


class ResolveError(Exception):
    """A bad flag value or a wrong number of dice: one line naming the flag, exit 2."""

    def __init__(self, flag: str, message: str) -> None:
        super().__init__(f"{flag}: {message}" if flag else message)
        self.flag = flag


# --------------------------------------------------------------------------
# Dice: typed faces flag by flag, or rolled by crdesk


class FlagDice(DiceSource):
    """A dice source fed by the command's dice flags, or rolling when none was given.

    Each roll is routed by its table and roller to one flag (``--dice``,
    ``--vs-dice``, ``--damage-die``, ...); a flag that was not given reads on from
    its fallback (usually ``--dice``), so faces typed in the engine's order into
    one list work too.  Too few faces, or faces left over, raise
    :class:`ResolveError` naming the flag.
    """

    def __init__(
        self,
        typed: Mapping[str, Sequence[int]] | None,
        route: Route,
        fallback: Mapping[str, str] | None = None,
        rng: random.Random | None = None,
        hint: str = "",
        filler: int | None = None,
    ) -> None:
        super().__init__()
        self.hint = hint
        self.filler = filler
        """Look-ahead only: the face every missing die shows (the rolls are recorded)."""
        self.pending: list[PendingRoll] = []
        self.borrowed: dict[str, int] = {}
        """Faces a flag read on from its fallback flag (``--damage-dice`` from ``--dice``)."""
        self.typed = {k: tuple(v) for k, v in typed.items()} if typed is not None else None
        self.route = route
        self.fallback = dict(fallback or {})
        self.used: dict[str, int] = {k: 0 for k in self.typed or {}}
        self.by_flag: dict[str, list[int]] = {}
        self._roller = Dice(rng or random.Random())
        self._flag = ""

    @property
    def rolled_by_crdesk(self) -> bool:
        return self.typed is None

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
        self._flag = self.route(table, who)
        return super().roll(
            count, section=section, table=table, who=who, target=target, figures=figures
        )

    def _source(self, flag: str) -> str:
        assert self.typed is not None
        seen = flag
        while seen not in self.typed and seen in self.fallback:
            seen = self.fallback[seen]
        return seen if seen in self.typed else flag

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        asked = self._flag
        if self.typed is None:
            faces = self._roller.roll(count, section="", table=context).faces
            self.by_flag.setdefault(asked, []).extend(faces)
            return faces
        flag = self._source(asked)
        also = f" (or give {asked})" if flag != asked else ""
        if flag not in self.typed or self.used[flag] == len(self.typed[flag]):
            # a whole roll not typed yet: not a miscount, the player has not rolled it
            extend = flag if flag in self.typed and self.borrowed.get(asked) else asked
            req = self._request
            wanted = PendingRoll(extend, count, req.section, req.table, req.who)
            if self.filler is None:
                raise DiceRanOut(wanted)
            self.pending.append(wanted)
            if len(self.pending) > 24:
                raise _ProbeDone
            return (self.filler,) * count
        given, pos = self.typed[flag], self.used[flag]
        left = len(given) - pos
        if count > left:
            if pos == 0:
                were = "was" if len(given) == 1 else "were"
                raise ResolveError(
                    flag, f"{context} needs {count} d6 but {len(given)} {were} given{also}"
                )
            are = "is" if left == 1 else "are"
            raise ResolveError(
                flag,
                f"{context} needs {count} more d6 after the first {pos}, but {left} "
                f"{are} left{also}{self.hint}",
            )
        faces = given[pos : pos + count]
        self.used[flag] = pos + count
        if flag != asked:
            self.borrowed[asked] = self.borrowed.get(asked, 0) + count
        self.by_flag.setdefault(flag, []).extend(faces)
        return faces

    def check_used_up(self) -> None:
        """Faces typed but never needed are an error (a miscount at the table)."""
        for flag, given in (self.typed or {}).items():
            used = self.used[flag]
            if used < len(given):
                needed = (
                    "none was" if used == 0 else f"only {used} {'was' if used == 1 else 'were'}"
                )
                raise ResolveError(
                    flag,
                    f"{len(given)} dice given but {needed} needed ({len(given) - used} left over)",
                )

    @property
    def faces(self) -> list[int]:
        """Every face in roll order."""
        return [f for entry in self.log for f in entry.faces]


# --------------------------------------------------------------------------
# Results that are several engine results (several hits, recruits, sections)


@dataclass(frozen=True)
class Batch(RuleResult):
    """Several engine results of one command, listed under ``results``."""

    PARTS: ClassVar[tuple[str, ...]] = ("items",)

    section: str
    result: str
    items: tuple[Any, ...]

    def explain(self) -> str:
        return " ".join(str(i.explain()) for i in self.items)


def worst(statuses: Sequence[Status]) -> str:
    return max(statuses, key=lambda s: s.rank).value


# --------------------------------------------------------------------------
# Running a command


@dataclass
class Job:
    """What one subcommand resolves: its dice flags, how rolls find them, the rule."""

    dice: Mapping[str, list[int] | None]
    """Every dice flag of the command → the faces typed (None: not given)."""
    route: Route
    run: Callable[[DiceSource], Any]
    fallback: Mapping[str, str] = field(default_factory=dict)
    odds: Callable[[], Any] | None = None
    head: Callable[[Any], list[str]] = field(default_factory=lambda: lambda _r: [])
    tail: Callable[[Any], list[str]] = field(default_factory=lambda: lambda _r: [])
    results: Callable[[Any], list[dict[str, Any]]] | None = None
    """JSON ``results`` when the engine result has no per-figure parts of its own."""
    lines: Callable[[Any], list[str]] | None = None
    blame: str | Mapping[str, str] = ""
    """The flag an engine refusal (:class:`IllegalActionError`) is about, if any; or the
    flag for each ``about`` of the refusals (``{"targets": "--target"}``)."""
    hint: str = ""
    """Added when typed dice run out part way (e.g. another melee round)."""
    odds_items: Callable[[], list[OddsItem]] | None = None
    """What ``--odds`` enumerates when there is no closed-form ``odds``: (label, rule,
    key) per item — one hit, one recruit, one section — else the whole ``run``."""
    steps: Callable[[Sequence[PendingRoll]], list[tuple[str, str]]] | None = None
    """Other commands for the pending rolls, as (what to roll, command) — e.g. the
    damage of each hit with ``crdesk resolve damage``."""


OddsItem = tuple[str, Callable[[DiceSource], Any], Callable[[Any], str] | None]


def main_flag(_table: str, _who: str) -> str:
    return "--dice"


def _flatten(values: Sequence[Sequence[int]] | None) -> list[int] | None:
    if values is None:
        return None
    return [f for group in values for f in group]


def _parts(result: Any) -> list[Any]:
    names: tuple[str, ...] = getattr(result, "PARTS", ())
    return [item for name in names for item in getattr(result, name)]


def execute(
    args: argparse.Namespace,
    build: Callable[[], Job],
    parser: argparse.ArgumentParser | None = None,
) -> int:
    """Build the job, roll or read the dice, print the result; exit status.

    Typed dice that run out at a roll are not an error: what they settled is
    printed, then the rolls still to make and the exact command to run next
    (``parser`` rebuilds it from ``args``).
    """
    try:
        job = build()
    except ResolveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        typed = {k: v for k, v in job.dice.items() if v is not None}
        seed = getattr(args, "seed", None)
        rng = random.Random(seed) if seed is not None else random.Random()
        dice = FlagDice(typed or None, job.route, job.fallback, rng, job.hint)
        if dice.typed is not None and seed is not None:
            raise ResolveError("--seed", "only when crdesk rolls: leave out the dice flags")
        odds = _odds(job) if getattr(args, "odds", False) else None
        try:
            result = job.run(dice)
        except DiceRanOut as out:
            assert dice.typed is not None
            group = _lookahead(job, dice.typed, out.roll)
            command = _command_line(parser, args, group) if parser is not None else ""
            steps = job.steps(group) if job.steps is not None else []
            if args.json:
                print(json.dumps(_pending_json(dice, group, command, steps, odds), indent=2))
            else:
                for line in _pending_plain(dice, group, command, steps, odds):
                    say(line)
            return EXIT_OK
        dice.check_used_up()
    except ResolveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except IllegalActionError as exc:
        flag = job.blame if isinstance(job.blame, str) else job.blame.get(exc.about, "")
        blame = f"{flag}: " if flag else ""
        print(f"error: {blame}{' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(_json(job, dice, result, odds), indent=2))
    else:
        for line in _plain(job, dice, result, odds):
            say(line)
    return EXIT_OK


def _odds(job: Job) -> Any:
    """The exact odds: the job's own closed form, else every roll of its rule enumerated."""
    if job.odds is not None:
        return job.odds()
    items = job.odds_items() if job.odds_items is not None else [("", job.run, None)]
    found = tuple(outcome_odds(run, label=label, key=key) for label, run, key in items)
    return found[0] if len(found) == 1 else Batch(found[0].section, "odds", found)


def _lookahead(
    job: Job, typed: Mapping[str, Sequence[int]], first: PendingRoll
) -> list[PendingRoll]:
    """The rolls to make now: the missing roll and those on the same table that follow
    it whatever it shows (both fighters of a melee round, the damage of every hit).

    The rule is run on past the typed dice six times, every missing die showing 1,
    then 2, ... 6; the rolls all six runs ask for, in the same order, are the ones
    that do not depend on the missing faces.
    """
    runs: list[list[PendingRoll]] = []
    for face in range(1, 7):
        probe = FlagDice(typed, job.route, job.fallback, filler=face)
        # the look-ahead only records which rolls follow; whatever stops the rule ends it
        with contextlib.suppress(Exception):
            job.run(probe)
        runs.append(probe.pending)
    group: list[PendingRoll] = []
    for i, roll in enumerate(runs[0]):
        if roll.table != first.table or any(len(r) <= i or r[i] != roll for r in runs[1:]):
            break
        group.append(roll)
    return group or [first]


def _value_text(value: Any) -> str:
    if isinstance(value, FigureSpec):
        return value.text()
    if isinstance(value, list | tuple):
        return ",".join(_value_text(v) for v in value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _command_line(
    parser: argparse.ArgumentParser, args: argparse.Namespace, group: Sequence[PendingRoll]
) -> str:
    """``crdesk resolve WHAT`` with every flag given and ``?`` for each die still to roll."""
    more: dict[str, int] = {}
    for roll in group:
        more[roll.flag] = more.get(roll.flag, 0) + roll.dice
    words = ["crdesk", "resolve", str(args.resolve)]
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "seed", "odds"):
            continue
        flag = max(action.option_strings, key=len)
        value = getattr(args, action.dest, None)
        if action.metavar == "D":  # a dice flag
            faces = [str(f) for f in _flatten(value) or []] + ["?"] * more.pop(flag, 0)
            if faces:
                words += [flag, ",".join(faces)]
        elif isinstance(action, argparse._StoreTrueAction):
            if value:
                words.append(flag)
        elif value is not None and value != action.default:
            many = isinstance(action, argparse._AppendAction)
            for item in value if many else [value]:
                words += [flag, _value_text(item)]
    return " ".join(w if re.fullmatch(r"[\w,?.=/+-]+", w) else shlex.quote(w) for w in words)


def _roll_words(group: Sequence[PendingRoll]) -> str:
    """``4d6 for fighter and 4d6 for opponent``: the rolls to make, by roller."""
    by_who: dict[str, int] = {}
    for roll in group:
        by_who[roll.who] = by_who.get(roll.who, 0) + roll.dice
    return " and ".join(f"{n}d6" + (f" for {who}" if who else "") for who, n in by_who.items())


def _entry_line(entry: DiceLogEntry) -> str:
    who = f"{entry.who} " if entry.who else ""
    vs = f" vs {entry.target}" if entry.target is not None else ""
    outcome = f": {entry.outcome}" if entry.outcome else ""
    return f"{entry.section} {entry.table}: {who}rolled {faces_text(entry.faces)}{vs}{outcome}."


def _pending_plain(
    dice: FlagDice,
    group: Sequence[PendingRoll],
    command: str,
    steps: Sequence[tuple[str, str]],
    odds: Any,
) -> list[str]:
    lines = [f"Odds: {odds.explain()}"] if odds is not None else []
    if len(dice.log):
        lines.append("Settled so far:")
        lines += [f"  {_entry_line(e)}" for e in dice.log]
    else:
        lines.append("Nothing rolled yet.")
    first = group[0]
    lines += [f"{what} — {cmd}" for what, cmd in steps]
    lead = "Or all at once" if steps else f"Next, {first.table} ({first.section})"
    lines.append(f"{lead}: roll {_roll_words(group)} — {command}")
    return lines


def _pending_json(
    dice: FlagDice,
    group: Sequence[PendingRoll],
    command: str,
    steps: Sequence[tuple[str, str]],
    odds: Any,
) -> dict[str, Any]:
    first = group[0]
    out: dict[str, Any] = {"section": first.section, "result": "pending"}
    out["dice"] = dice.faces
    out["rolled_by"] = "player" if dice.faces else None
    out["dice_by_flag"] = {k: list(v) for k, v in dice.by_flag.items()}
    if odds is not None:
        out["odds"] = odds.to_dict()
    out["settled"] = [entry.to_dict() for entry in dice.log]
    out["pending"] = {
        "section": first.section,
        "table": first.table,
        "rolls": [roll.to_dict() for roll in group],
        "command": command,
        "steps": [{"roll": what, "command": cmd} for what, cmd in steps],
    }
    out["results"] = []
    out["rolls"] = [entry.to_dict() for entry in dice.log]
    out["explain"] = " ".join(_pending_plain(dice, group, command, steps, None))
    return out


def say(line: str) -> None:
    """Print a line; a console that cannot show ≥ or → gets ? instead of a traceback."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        line.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        line = line.translate(_ASCII).encode("ascii", "replace").decode("ascii")
    print(line)


_ASCII = str.maketrans({"≥": ">=", "≤": "<=", "→": "->", "’": "'"})


def _json(job: Job, dice: FlagDice, result: Any, odds: Any) -> dict[str, Any]:
    d: dict[str, Any] = result.to_dict()
    out: dict[str, Any] = {"section": d.pop("section"), "result": d.pop("result")}
    out["dice"] = dice.faces
    out["rolled_by"] = None if not dice.faces else "crdesk" if dice.rolled_by_crdesk else "player"
    out["dice_by_flag"] = {k: list(v) for k, v in dice.by_flag.items()}
    if odds is not None:
        out["odds"] = odds.to_dict()
    explain = d.pop("explain", result.explain())
    results = d.pop("results", None)
    out.update(d)
    if job.results is not None:
        results = job.results(result)
    elif results is None:
        results = [result.to_dict()]
    out["results"] = results
    out["rolls"] = [entry.to_dict() for entry in dice.log]
    out["explain"] = explain
    return out


def _plain(job: Job, dice: FlagDice, result: Any, odds: Any) -> list[str]:
    lines: list[str] = []
    if odds is not None:
        lines.append(f"Odds: {odds.explain()}")
    if dice.rolled_by_crdesk and dice.by_flag:
        flags = " ".join(f"{k} {','.join(map(str, v))}" for k, v in dice.by_flag.items())
        lines.append(f"crdesk rolled: {flags}")
    lines += job.head(result)
    if job.lines is not None:
        lines += job.lines(result)
    else:
        parts = _parts(result)
        lines += [str(p.explain()) for p in parts] if parts else [str(result.explain())]
    lines += job.tail(result)
    return lines


# --------------------------------------------------------------------------
# Reading the parsed flags


def typed_dice(args: argparse.Namespace, name: str) -> list[int] | None:
    return _flatten(getattr(args, name, None))


def rules_options(args: argparse.Namespace) -> RulesOptions:
    return RulesOptions(old_school=bool(getattr(args, "old_school", False)))
