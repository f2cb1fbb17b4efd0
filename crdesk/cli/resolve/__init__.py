"""``crdesk resolve``: a referee for players at a real table (issue 3, item 5).

The players roll real dice and type the faces; crdesk reads them on the book's
tables through the very rules functions the game uses (:mod:`crdesk.rules`), so
the referee and the program never disagree::

    crdesk resolve reaction --test received-fire --rep 4 --dice 2,5
    crdesk resolve fire --rep 4 --weapon AR --target rep=4 --target rep=4,cover \\
        --allocate 2,1 --dice 6,3,1 --damage-dice 5
    crdesk resolve melee --rep 4 --dice 1,2,4,5 --vs-rep 4 --vs-dice 3,4,5,6 --damage-die 3

With the Firearms Detail module (``rules/firearms-detail.md``) ``fire`` fires by the
weapon's card: ``--mode`` (semi, 2RB, 3RB, FA, ...), ``--aim``, ``--walk N``,
``--supported braced|bipod|tripod``, ``--ammo buckshot``, the range to the target and
the figures near it (friend or foe) for the spread::

    crdesk resolve fire --rep 4 --weapon AR --mode FA --range 15 --target rep=4 \\
        --near rep=4,at=1.5,name=Lind --odds

Options the card does not allow are refused before any die is read.

Each dice flag holds the faces of one roll (``3,5`` or ``3 5``; repeat the flag
for later rolls of the same figure, e.g. another melee round).  Rolls that follow
from the first (Pitiful Shot, damage, a Challenge reroll, ...) have their own
flags, or simply continue the main ``--dice`` list in the order the engine reads
them.  Leave every dice flag out and crdesk rolls for you and prints the faces as
flags, so the result can be reproduced.  ``--json`` prints one JSON object
(``section``, ``result``, ``dice``, ``results``: one object per figure, target,
shot or round, each from the rules engine's ``to_dict()``); ``--odds`` prints the
exact odds (:mod:`crdesk.odds`) first, on every subcommand that rolls.  A bad flag
or an impossible die gives one line on stderr naming the flag, and exit status 2.

Players roll to hit first and damage later, so typed dice that stop at a roll
are no error (issue 16): crdesk prints what they settled, then the rolls to make
now and the exact command to run, with ``?`` for each die::

    $ crdesk resolve fire --rep 4 --weapon AR --target rep=4 --dice 3,6,5
    Settled so far:
      7.9.10 Ranged Combat: shooter rolled 3,6,5: target: 2 hits.
    target: 2 hits, roll 2d6 for damage — crdesk resolve damage --target-rep 4 --dice ?,?
    Or all at once: roll 2d6 for target — crdesk resolve fire ... --damage-dice ?,?

With ``--json`` that is ``"result": "pending"`` with ``settled`` (the log entries)
and ``pending`` (``rolls``: flag, dice, table, who; ``command``; ``steps``).  Exit 0.
A roll typed short (two faces of an AR's three) is still a miscount, exit 2.

:mod:`crdesk.cli.app` wires it in with :func:`register`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from crdesk import scenario as scenario_io
from crdesk.cli.common import EXIT_OK, EXIT_USAGE, OneLineParser, int_in
from crdesk.dice import Dice, DiceLogEntry, DiceSource, Roll
from crdesk.errors import IllegalActionError, ScenarioError
from crdesk.model import REP_MAX, BandType, MeleeWeapon, Status
from crdesk.odds import (
    charge_odds,
    fire_odds,
    in_sight_odds,
    melee_odds,
    outcome_odds,
    reaction_odds,
)
from crdesk.options import RulesOptions
from crdesk.rules import activation, campaign, grenades, in_sight, melee, pef, stars, terrain
from crdesk.rules.common import RuleResult, faces_text, plural, words
from crdesk.rules.damage import roll_damage
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import WeaponCard, default_card
from crdesk.rules.firearms.fire import (
    FirearmsFire,
    FireOptions,
    FireTarget,
    Nearby,
    fire_weapon,
)
from crdesk.rules.firearms.odds import fire_weapon_odds
from crdesk.rules.firearms.tables import WALK_MAX_STEPS, AmmoType, FireMode, Support
from crdesk.rules.reaction import Losses, ReactingFigure, ReactionResult, ReactionTest
from crdesk.rules.reaction import reaction_test as run_reaction_test
from crdesk.rules.shooting import FireResult, TargetSpec, fire
from crdesk.tables import GRENADE, TableType, weapon_stats

REP_RANGE = (1, REP_MAX)
"""Reps a player may type: the scenario format's (the book has no maximum), and 1
for a Rep lowered in melee."""

FIRE_WEAPONS = ("AR", "BAR", "MP", "P", "SAR", "SG", "SAW", "SMG", "RL", "BAP")
DAMAGE_WEAPONS = (*FIRE_WEAPONS, GRENADE)
_MODES_HELP = ", ".join(m.value for m in FireMode)

DESCRIPTION = (
    "Apply the book's tables to dice rolled at a real table.  Type each roll's faces "
    "(--dice 3,5 or --dice 3 5; repeat a flag for later rolls, e.g. another melee round); "
    "leave every dice flag out and crdesk rolls for you and prints the faces.  Dice that "
    "stop at a roll print what they settled and the command to run next, ? for each die "
    "to roll.  --json prints one JSON object (section, dice, results); --odds prints the "
    "exact odds first."
)

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
# Argument parsing with one-line errors


class _Parser(OneLineParser):
    """An argparse parser whose errors are one line on stderr (exit 2), no usage dump."""

    choice_metavar = "WHAT"
    command = "resolve"


def _die_faces(text: str) -> list[int]:
    """``--dice 3,5`` (or one face of ``--dice 3 5``): d6 faces, each 1-6."""
    faces: list[int] = []
    for part in text.replace(",", " ").split():
        try:
            face = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not a die face (1-6)") from None
        if not 1 <= face <= 6:
            raise argparse.ArgumentTypeError(f"{face} is not a die face (1-6)")
        faces.append(face)
    if not faces:
        raise argparse.ArgumentTypeError(f"no die faces in {text!r}")
    return faces


_rep = int_in(*REP_RANGE, "Rep")
_count = int_in(0, 99, "a count")
_size = int_in(1, 99, "a number of figures")


def _int_list(text: str) -> list[int]:
    try:
        return [int(p) for p in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers like 2,1, got {text!r}") from None


def _choice(*names: str) -> Callable[[str], str]:
    """Case-insensitive choice that also takes - for _ (received-fire, one_hand)."""

    def convert(text: str) -> str:
        key = text.strip().lower().replace("_", "-")
        for name in names:
            if key == name.lower():
                return name
        raise argparse.ArgumentTypeError(
            f"invalid choice: {text!r} (choose from {', '.join(names)})"
        )

    return convert


def _weapon(names: Sequence[str]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        key = text.strip().upper()
        if key not in names:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(names)})"
            )
        return key

    return convert


@dataclass(frozen=True, slots=True)
class _FigureSpec:
    """A ``--target``/``--figure`` value: ``rep=4[,cover][,prone][,fast][,name=Bob]``."""

    rep: int
    name: str | None = None
    cover: bool = False
    prone: bool = False
    fast: bool = False
    carrying: int | None = None
    at: float | None = None
    """Firearms Detail ``--near``: inches from the target it stands near."""
    of: int | None = None
    """Firearms Detail ``--near``: which ``--target`` it stands near (1 = the first)."""

    def text(self) -> str:
        """The spec as typed: ``rep=4,cover,name=Bob``."""
        parts = [f"rep={self.rep}"]
        parts += [w for w, on in (("cover", self.cover), ("prone", self.prone)) if on]
        parts += ["fast"] if self.fast else []
        parts += [f"carrying={self.carrying}"] if self.carrying is not None else []
        parts += [f"at={self.at:g}"] if self.at is not None else []
        parts += [f"of={self.of}"] if self.of is not None else []
        parts += [f"name={self.name}"] if self.name else []
        return ",".join(parts)


_SPEC_HELP = "rep=N[,cover][,prone][,fast][,carrying=N][,name=X]"
_NEAR_HELP = "rep=N,at=INCHES[,of=N][,cover][,prone][,fast][,name=X]"


def _inches(key: str, value: str, text: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not 0 <= number <= 10_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{key}= in {text!r}: expected inches (0 or more), got {value.strip()!r}"
        )
    return number


def _range_inches(text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    if not 0 <= number <= 10_000:
        raise argparse.ArgumentTypeError(f"expected inches (0 or more), got {text.strip()!r}")
    return number


def _figure_spec(text: str) -> _FigureSpec:
    rep: int | None = None
    name: str | None = None
    carrying: int | None = None
    at: float | None = None
    of: int | None = None
    flags = {"cover": False, "prone": False, "fast": False}
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if eq and key in ("rep", "carrying"):
            try:
                number = _rep(value.strip())
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentTypeError(f"{key}= in {text!r}: {exc}") from None
            if key == "rep":
                rep = number
            else:
                carrying = number
        elif eq and key == "name":
            name = value.strip() or None
        elif eq and key == "at":
            at = _inches(key, value, text)
        elif eq and key == "of":
            try:
                of = int_in(1, 99, "a target number")(value.strip())
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentTypeError(f"of= in {text!r}: {exc}") from None
        elif not eq and key in flags:
            flags[key] = True
        else:
            raise argparse.ArgumentTypeError(f"unknown {part!r} in {text!r} (use {_SPEC_HELP})")
    if rep is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no rep=N (use {_SPEC_HELP})")
    return _FigureSpec(rep, name, flags["cover"], flags["prone"], flags["fast"], carrying, at, of)


def _status_choice(text: str) -> Status:
    """``duck-back``, ``Duck_Back``: a status by its code, case and dashes aside."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Status(key)
    except ValueError:
        names = ", ".join(s.value.replace("_", "-") for s in Status)
        raise argparse.ArgumentTypeError(f"{text!r} is not a status ({names})") from None


def _statuses(text: str) -> list[Status]:
    out: list[Status] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            out.append(Status(part.lower().replace("-", "_")))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part!r} is not a damage result (obviously_dead, out_of_the_fight, "
                "duck_back, minus_one_rep)"
            ) from None
    if not out:
        raise argparse.ArgumentTypeError("name at least one damage result")
    return out


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


def _worst(statuses: Sequence[Status]) -> str:
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
    blame: str = ""
    """The flag an engine refusal (:class:`IllegalActionError`) is about, if any."""
    hint: str = ""
    """Added when typed dice run out part way (e.g. another melee round)."""
    odds_items: Callable[[], list[OddsItem]] | None = None
    """What ``--odds`` enumerates when there is no closed-form ``odds``: (label, rule,
    key) per item — one hit, one recruit, one section — else the whole ``run``."""
    steps: Callable[[Sequence[PendingRoll]], list[tuple[str, str]]] | None = None
    """Other commands for the pending rolls, as (what to roll, command) — e.g. the
    damage of each hit with ``crdesk resolve damage``."""


OddsItem = tuple[str, Callable[[DiceSource], Any], Callable[[Any], str] | None]


def _main_flag(_table: str, _who: str) -> str:
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
                    _say(line)
            return EXIT_OK
        dice.check_used_up()
    except ResolveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except IllegalActionError as exc:
        blame = f"{job.blame}: " if job.blame else ""
        print(f"error: {blame}{' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(_json(job, dice, result, odds), indent=2))
    else:
        for line in _plain(job, dice, result, odds):
            _say(line)
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
    if isinstance(value, _FigureSpec):
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


def _say(line: str) -> None:
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
# The subcommands


def _typed(args: argparse.Namespace, name: str) -> list[int] | None:
    return _flatten(getattr(args, name, None))


def _options(args: argparse.Namespace) -> RulesOptions:
    return RulesOptions(old_school=bool(getattr(args, "old_school", False)))


def _job_reaction(args: argparse.Namespace) -> Job:
    tests = tuple(dict.fromkeys(ReactionTest(t.replace("-", "_")) for t in args.test))
    if args.leader_die is not None and args.leader_rep is None:
        raise ResolveError("--leader-die", "needs --leader-rep (the Star Leader's Rep, 6.3.2)")
    names = (
        [f"figure {i}" for i in range(1, len(args.rep) + 1)] if len(args.rep) > 1 else ["figure"]
    )
    if args.star:
        names[0] = "Star"
    if args.free_will is not None and not args.star:
        raise ResolveError("--free-will", "only a Star has Free Will: add --star (5.2)")
    count = len(args.rep)
    currents: list[Status | None] = list(args.current or [None])
    if len(currents) == 1:
        currents *= count
    elif len(currents) != count:
        raise ResolveError(
            "--current",
            f"give it once (every figure) or once per --rep ({count}), got {len(currents)}",
        )
    covered = set(args.in_cover_figure or [])
    if any(n > count for n in covered):
        raise ResolveError("--in-cover-figure", f"there are only {count} figures (--rep)")
    leader: int | list[int] | None = args.leader_rep
    leader_shown = max(args.leader_rep) if args.leader_rep else None
    testers = [
        ReactingFigure(
            name,
            rep,
            in_cover=args.in_cover or i + 1 in covered,
            outgunned=args.outgunned,
            is_star=args.star and i == 0,
            current=currents[i],
            free_will=args.free_will if i == 0 else None,
        )
        for i, (name, rep) in enumerate(zip(names, args.rep, strict=True))
    ]
    losses = Losses(side_friends=args.friends_down or 0, side_enemies=args.enemies_down or 0)
    options = RulesOptions()

    def run(dice: DiceSource) -> ReactionResult:
        return run_reaction_test(
            dice, testers, tests, leader_rep=leader, losses=losses, options=options
        )

    def head(r: ReactionResult) -> list[str]:
        if r.leader_die is None:
            return []
        verdict = "passed: +1 passed d6 for every figure" if r.leader_passed else "failed"
        return [f"Leader Die {r.leader_die} vs Rep {leader_shown}: {verdict} (6.3.2)."]

    return Job(
        dice={"--dice": _typed(args, "dice"), "--leader-die": _typed(args, "leader_die")},
        route=lambda table, _who: "--leader-die" if table == "Leader Die" else "--dice",
        run=run,
        odds=lambda: reaction_odds(
            testers, tests, leader_rep=leader, losses=losses, options=options
        ),
        head=head,
    )


def _target_specs(specs: Sequence[_FigureSpec]) -> list[TargetSpec]:
    many = len(specs) > 1
    return [
        TargetSpec(
            s.name or (f"target {i}" if many else "target"),
            s.rep,
            in_cover=s.cover,
            prone=s.prone,
            fast_moving=s.fast,
            carried_rep=s.carrying,
        )
        for i, s in enumerate(specs, 1)
    ]


# -- Firearms Detail (issue 14): the weapon's card, its modes, aim, walk, support, buckshot

_DETAIL_FLAGS = (
    "mode",
    "aim",
    "walk",
    "supported",
    "ammo",
    "card",
    "firearms_detail",
    "range",
    "near",
    "rounds",
    "moved",
    "keep_tight_ammo",
    "unready",
)
_DETAIL_DICE = ("--dodge-die", "--miss-dice", "--knockdown-dice")


def _detail_wanted(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) not in (None, False, []) for name in _DETAIL_FLAGS)


def _detail_card(args: argparse.Namespace) -> WeaponCard:
    """The weapon's card: a scenario's user weapon (``--card`` with ``--scenario``), else
    the category's default card; ``--ammo`` loads other rounds (FD §2)."""
    if args.card is not None:
        if args.scenario is None:
            raise ResolveError("--card", "needs --scenario FILE (the file holding the weapon)")
        try:
            scenario = scenario_io.load(args.scenario)
        except ScenarioError as exc:
            raise ResolveError("--scenario", " ".join(str(exc).split())) from None
        cards = scenario.weapon_cards
        if args.card not in cards:
            known = ", ".join(cards) or "none"
            raise ResolveError("--card", f"no weapon {args.card!r} in {args.scenario} ({known})")
        card = cards[args.card]
        if args.weapon is not None and args.weapon != card.category:
            raise ResolveError(
                "--weapon", f"{card.name} counts as {card.category}, not {args.weapon} (FD §2)"
            )
    elif args.scenario is not None:
        raise ResolveError("--scenario", "only with --card NAME (the weapon to fire)")
    elif args.weapon is None:
        raise ResolveError("--weapon", "name the weapon (or --card NAME with --scenario FILE)")
    else:
        card = default_card(args.weapon)
    if args.ammo is not None:
        ammo = AmmoType(args.ammo)
        if ammo is AmmoType.BUCKSHOT and card.category != "SG":
            raise ResolveError(
                "--ammo",
                f"buckshot is for shotguns (SG); {card.name} counts as {card.category} (FD §6)",
            )
        card = dataclasses.replace(card, ammo=ammo)
    return card


def _detail_lines(r: FirearmsFire) -> list[str]:
    lines = [
        f"Rep {r.shooter_rep} {r.weapon} ({r.category}), {r.mode.label}: rolled "
        f"{faces_text(r.faces) if r.faces else 'no dice'} ({r.section}).",
        *r.notes,
    ]
    if r.dodge is not None:
        lines.append(r.dodge.reason)
    lines += [f.explain() for f in r.figures]
    if r.unused:
        lines.append(f"{plural(len(r.unused), 'die', 'dice')} hit nobody.")
    if r.received_fire:
        names = {f.id: f.name for f in r.figures}
        lines.append(
            "Received Fire (7.7): "
            + ", ".join(names[i] for i in dict.fromkeys(r.received_fire))
            + "."
        )
    lines.append(r.ammo.explain())
    return lines


def _job_fire_detail(args: argparse.Namespace) -> Job:
    """``crdesk resolve fire`` under Firearms Detail: the card's modes (FD §5), aimed and
    walked Full Auto (§5.1, §5.2), buckshot (§6), supported fire (§7)."""
    options = _options(args)
    card = _detail_card(args)
    if weapon_stats(card.category, options.old_school).blast:
        raise ResolveError(
            "--weapon",
            f"{card.name} is a blast weapon: fire it without Firearms Detail flags (7.10.5)",
        )
    specs: list[_FigureSpec] = args.target
    if not specs:
        raise ResolveError("--target", "name at least one target")
    for spec in specs:
        if spec.at is not None or spec.of is not None:
            raise ResolveError(
                "--target", "at= and of= are for --near; give the range with --range"
            )
    targets = _target_specs(specs)
    mode = FireMode(args.mode) if args.mode is not None else None
    chosen = mode or card.modes[0]
    if args.rounds is not None and args.rounds > card.magazine:
        raise ResolveError(
            "--rounds", f"{card.name} holds at most {card.magazine} rounds, not {args.rounds}"
        )
    # a mode the card lacks is the engine's to refuse, in its words, before any range
    needs_range = chosen in card.modes and (card.buckshot or chosen is FireMode.FA)
    if needs_range and args.range is None:
        what = "buckshot's band (FD §6)" if card.buckshot else "the Full Auto spread (FD §5)"
        raise ResolveError("--range", f"give the range to the target in inches for {what}")
    near: list[list[Nearby]] = [[] for _ in targets]
    for i, spec in enumerate(args.near or [], 1):
        if spec.at is None:
            raise ResolveError("--near", f"{spec.text()!r} needs at=INCHES from its target")
        of = spec.of or 1
        if of > len(targets):
            raise ResolveError(
                "--near",
                f"of={of}: there {'is' if len(targets) == 1 else 'are'} only "
                f"{plural(len(targets), 'target')}",
            )
        who = TargetSpec(
            spec.name or f"figure {i}",
            spec.rep,
            in_cover=spec.cover,
            prone=spec.prone,
            fast_moving=spec.fast,
        )
        near[of - 1].append(Nearby(who, spec.at))
    fire_targets = [
        FireTarget(t, args.range if k == 0 and args.range is not None else 0.0, tuple(near[k]))
        for k, t in enumerate(targets)
    ]
    weapon = WeaponState(
        card,
        card.magazine if args.rounds is None else args.rounds,
        card.spare_magazines,
        ready=not args.unready,
        mode=mode,
    )
    choice = FireOptions(
        mode=mode,
        aim=args.aim,
        walk_pairs=args.walk or 0,
        support=Support(args.supported) if args.supported else Support.NONE,
        moved=args.moved,
        fast_moving=args.fast_moving,
        rush_shot=args.rush_shot,
        keep_tight_ammo=args.keep_tight_ammo,
        allocation=tuple(args.allocate) if args.allocate is not None else None,
        options=options,
    )
    dice = {
        "--dice": _typed(args, "dice"),
        "--dodge-die": _typed(args, "dodge_die"),
        "--miss-dice": _typed(args, "miss_dice"),
        "--damage-dice": _typed(args, "damage_dice"),
        "--knockdown-dice": _typed(args, "knockdown_dice"),
    }

    def route(table: str, _who: str) -> str:
        if table.startswith("Dodge"):
            return "--dodge-die"
        if table.startswith("Burst miss"):
            return "--miss-dice"
        if "Damage" in table:
            return "--damage-dice"
        if table == "Knockdown":
            return "--knockdown-dice"
        return "--dice"

    def results(r: FirearmsFire) -> list[dict[str, Any]]:
        return [*(f.to_dict() for f in r.figures), r.ammo.to_dict()]

    return Job(
        dice=dice,
        route=route,
        fallback={flag: "--dice" for flag in dice if flag != "--dice"},
        run=lambda d: fire_weapon(d, args.rep, weapon, fire_targets, choice),
        odds=lambda: fire_weapon_odds(args.rep, weapon, fire_targets, choice),
        lines=_detail_lines,
        results=results,
    )


def _job_fire(args: argparse.Namespace) -> Job:
    if _detail_wanted(args):
        return _job_fire_detail(args)
    for flag in ("scenario", "dodge_die", "miss_dice", "knockdown_dice"):
        if getattr(args, flag, None) is not None:
            name = "--" + flag.replace("_", "-")
            raise ResolveError(name, "is for Firearms Detail fire (--mode, --card, ...)")
    if args.weapon is None:
        raise ResolveError("--weapon", "name the weapon (AR, P, SG, ...)")
    options = _options(args)
    stats = weapon_stats(args.weapon, options.old_school)
    targets = _target_specs(args.target)
    dice = {
        "--dice": _typed(args, "dice"),
        "--pitiful-dice": _typed(args, "pitiful_dice"),
        "--damage-dice": _typed(args, "damage_dice"),
    }

    def route(table: str, _who: str) -> str:
        if table == "Pitiful Shot":
            return "--pitiful-dice"
        return "--damage-dice" if "Damage" in table else "--dice"

    fallback = {"--pitiful-dice": "--dice", "--damage-dice": "--dice"}
    if stats.blast:
        if len(targets) > 1:
            raise ResolveError(
                "--target", f"a {stats.name} fires at one spot: give at most one --target"
            )
        if args.allocate is not None:
            raise ResolveError("--allocate", f"a {stats.name} has no Target dice to allocate")
        spot = targets[0] if targets else None
        return Job(
            dice=dice,
            route=route,
            fallback=fallback,
            run=lambda d: grenades.rocket_shot(
                d,
                args.rep,
                target=spot,
                fast_moving=args.fast_moving,
                rush_shot=args.rush_shot,
                who="shooter",
            ),
            tail=lambda r: [
                "Roll the blast with `crdesk resolve blast --weapon RL` (7.10.5)."
                if r.on_target
                else "Every figure in the blast circle takes Received Fire (7.10.5)."
            ],
        )
    if not targets:
        raise ResolveError("--target", f"name at least one target (Target {stats.target})")
    if len(targets) > stats.target:
        raise ResolveError(
            "--target",
            f"{stats.name} has Target {stats.target}: at most {stats.target} targets, "
            f"got {len(targets)} (7.9.7)",
        )
    allocation = None
    if args.allocate is not None:
        allocation = tuple(args.allocate)
        if (
            len(allocation) != len(targets)
            or any(a < 1 for a in allocation)
            or sum(allocation) != stats.target
        ):
            raise ResolveError(
                "--allocate",
                f"{','.join(map(str, allocation))} must give each of the "
                f"{plural(len(targets), 'target')} at least one die and {stats.target} dice "
                "in all (7.9.9)",
            )

    def head(r: FireResult) -> list[str]:
        kept = f", kept {faces_text(r.kept)}" if r.kept != r.faces else ""
        circ = f" ({', '.join(r.circumstances)})" if r.circumstances else ""
        return [
            f"Rep {r.shooter_rep} {r.weapon} rolled {faces_text(r.faces)}{kept}{circ} (7.9.10)."
        ]

    def tail(r: FireResult) -> list[str]:
        if not r.out_of_ammo:
            return []
        why = "always after firing" if r.ones < 2 else f"{r.ones} ones rolled"
        return [f"Out of ammo: {why} (7.9.2)."]

    def steps(group: Sequence[PendingRoll]) -> list[tuple[str, str]]:
        """Damage still to roll: one ``crdesk resolve damage`` per target hit."""
        hits: dict[str, int] = {}
        for roll in group:
            if "Damage" not in roll.table:
                return []
            hits[roll.who] = hits.get(roll.who, 0) + roll.dice
        reps = {t.name: t.rep for t in targets}
        reps |= {f"wounded carried by {t.name}": t.carried_rep for t in targets if t.carried_rep}
        old = f" --old-school --weapon {stats.code}" if options.old_school else ""
        return [
            (
                f"{who}: {plural(n, 'hit')}, roll {n}d6 for damage",
                f"crdesk resolve damage --target-rep {reps[who]}{old} --dice " + ",".join("?" * n),
            )
            for who, n in hits.items()
            if who in reps
        ]

    def results(r: FireResult) -> list[dict[str, Any]]:
        """One object per target, and one for the shooter's weapon when it runs dry (7.9.2)."""
        out: list[dict[str, Any]] = list(r.to_dict()["results"])
        if r.out_of_ammo:
            out.append({"section": "7.9.2", "result": "out_of_ammo", "ones": r.ones})
        return out

    return Job(
        dice=dice,
        route=route,
        fallback=fallback,
        run=lambda d: fire(
            d,
            args.rep,
            stats.code,
            targets,
            allocation=allocation,
            fast_moving=args.fast_moving,
            rush_shot=args.rush_shot,
            options=options,
        ),
        odds=lambda: fire_odds(
            args.rep,
            stats.code,
            targets,
            allocation=allocation,
            fast_moving=args.fast_moving,
            rush_shot=args.rush_shot,
            options=options,
        ),
        head=head,
        tail=tail,
        results=results,
        steps=steps,
    )


def _job_damage(args: argparse.Namespace) -> Job:
    options = _options(args)
    if options.old_school and args.weapon is None:
        raise ResolveError("--weapon", "Old School damage (16.1) needs the weapon for its Impact")
    typed = _typed(args, "dice")
    hits = len(typed) if typed is not None else args.hits

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            roll_damage(dice, args.target_rep, weapon=args.weapon, options=options, who="target")
            for _ in range(hits)
        )
        return Batch(items[0].section, _worst([i.status for i in items]), items)

    def one_hit(dice: DiceSource) -> Any:
        return roll_damage(dice, args.target_rep, weapon=args.weapon, options=options)

    return Job(
        dice={"--dice": typed},
        route=_main_flag,
        run=run,
        odds_items=lambda: [("each hit", one_hit, None)],
    )


def _job_star_power(args: argparse.Namespace) -> Job:
    count = args.star_power if args.star_power is not None else args.rep

    def run(dice: DiceSource) -> Any:
        if args.attacker_rep is not None or args.cheat_death:
            return stars.star_takes_damage(
                dice,
                args.damage,
                star_rep=args.rep,
                star_power_dice=count,
                attacker_rep=args.attacker_rep,
                melee=args.melee,
                cheat_death=args.cheat_death,
            )
        return stars.star_power(dice, count, args.damage, melee=args.melee)

    def results(r: Any) -> list[dict[str, Any]]:
        if isinstance(r, stars.StarFate):
            return [r.to_dict()]
        return [
            {"section": r.section, "result": after.value, "before": before.value}
            for before, after in zip(r.before, r.after, strict=True)
        ]

    def lines(r: Any) -> list[str]:
        if isinstance(r, stars.StarFate):
            assert r.star_power is not None
            return [r.star_power.explain(), r.reason]
        return [r.explain()]

    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=run,
        results=results,
        lines=lines,
        blame="--damage",
    )


def _job_fast_move(args: argparse.Namespace) -> Job:
    many = len(args.rep) > 1
    movers = [
        activation.FastMover(f"figure {i}" if many else "figure", rep, args.carrying_wounded)
        for i, rep in enumerate(args.rep, 1)
    ]

    def odds_items() -> list[OddsItem]:
        def one(rep: int) -> Callable[[DiceSource], Any]:
            mover = activation.FastMover("figure", rep, args.carrying_wounded)
            return lambda d: activation.fast_move(d, [mover])

        return [
            (f"Rep {rep}", one(rep), lambda r: str(r.figures[0].result))
            for rep in dict.fromkeys(args.rep)
        ]

    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: activation.fast_move(d, movers),
        odds_items=odds_items,
    )


def _job_in_sight(args: argparse.Namespace) -> Job:
    groups = [
        in_sight.InSightGroup("mover", args.mover_rep, True, args.mover_sees_concealed),
        in_sight.InSightGroup("other", args.other_rep, False, args.other_sees_concealed),
    ]

    def tail(r: in_sight.InSightResult) -> list[str]:
        if r.result == "mover_acts":
            return ["Result: the mover acts; the other side only reacts (7.6.3)."]
        return ["Result: the other side acts; the mover only reacts (7.6.3)."]

    return Job(
        dice={
            "--mover-dice": _typed(args, "mover_dice"),
            "--other-dice": _typed(args, "other_dice"),
        },
        route=lambda _t, who: "--mover-dice" if who == "mover" else "--other-dice",
        run=lambda d: in_sight.in_sight(d, groups),
        odds=lambda: in_sight_odds(
            args.mover_rep,
            args.other_rep,
            mover_sees_concealed=args.mover_sees_concealed,
            other_sees_concealed=args.other_sees_concealed,
        ),
        tail=tail,
    )


def _job_charge(args: argparse.Namespace) -> Job:
    reps: list[int] = args.charger_rep
    many = len(reps) > 1
    chargers = [(f"charger {i}" if many else "charger", rep) for i, rep in enumerate(reps, 1)]
    approach = (
        melee.Approach.REAR
        if args.rear
        else melee.Approach.FLANK
        if args.flank
        else melee.Approach.FRONT
    )
    options = RulesOptions()
    if args.fires_at is not None and not args.single_shot:
        raise ResolveError("--fires-at", "only with --single-shot (a weapon that fires once)")
    if args.fires_at is not None and args.fires_at > len(chargers):
        raise ResolveError("--fires-at", f"there are only {len(chargers)} chargers")
    chosen = chargers[args.fires_at - 1][0] if args.fires_at is not None else None

    def head(r: melee.ChargeTestResult) -> list[str]:
        return [
            f"The target rolled {faces_text(r.target_faces)} ({r.target_dice}d6) vs Rep "
            f"{r.target_rep}: passed {r.target_passed} (7.11.2)."
        ]

    def tail(r: melee.ChargeTestResult) -> list[str]:
        if not args.single_shot:
            return []
        return [melee.single_shot_target(r, chosen).explain()]

    def results(r: melee.ChargeTestResult) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = r.to_dict()["results"]
        if args.single_shot:
            out.append(melee.single_shot_target(r, chosen).to_dict())
        return out

    return Job(
        dice={
            "--charger-dice": _typed(args, "charger_dice"),
            "--target-dice": _typed(args, "target_dice"),
        },
        route=lambda _t, who: "--target-dice" if who == "target" else "--charger-dice",
        run=lambda d: melee.charge(
            d,
            chargers,
            ("target", args.target_rep),
            in_cover=args.target_in_cover,
            approach=approach,
            options=options,
        ),
        odds=lambda: Batch(
            "7.11.2",
            "odds",
            tuple(
                charge_odds(
                    rep,
                    args.target_rep,
                    in_cover=args.target_in_cover,
                    approach=approach,
                    options=options,
                )
                for _name, rep in chargers
            ),
        ),
        head=head,
        tail=tail,
        results=results,
        blame="--fires-at" if chosen is not None else "--charger-rep",
    )


_MELEE_WEAPONS = {
    "none": MeleeWeapon.NONE,
    "one-hand": MeleeWeapon.ONE_HAND,
    "two-hand": MeleeWeapon.TWO_HAND,
}


def _job_melee(args: argparse.Namespace) -> Job:
    a = melee.Fighter("fighter", args.rep, _MELEE_WEAPONS[args.weapon], args.vs_prone)
    b = melee.Fighter("opponent", args.vs_rep, _MELEE_WEAPONS[args.vs_weapon], args.prone)

    def route(table: str, who: str) -> str:
        if table == "Melee Damage":
            return "--damage-die"
        return "--dice" if who == a.name else "--vs-dice"

    def tail(r: melee.MeleeResult) -> list[str]:
        lost = [f"{n} {k}" for n, k in r.rep_lost.items() if k]
        note = (
            f" Rep lost ({', '.join(lost)}) comes back after the turn's melees (7.8)."
            if lost
            else ""
        )
        return [f"The {r.winner} wins: the {r.loser} is {words(r.loser_status)} (7.11.5).{note}"]

    return Job(
        dice={
            "--dice": _typed(args, "dice"),
            "--vs-dice": _typed(args, "vs_dice"),
            "--damage-die": _typed(args, "damage_die"),
        },
        route=route,
        run=lambda d: melee.melee(d, a, b),
        odds=lambda: melee_odds(a, b),
        tail=tail,
        hint="; a tie or a -1 to Rep means another round: repeat --dice, --vs-dice "
        "and --damage-die for it",
    )


def _job_challenge(args: argparse.Namespace) -> Job:
    if args.very_easy and args.very_difficult:
        raise ResolveError("--very-difficult", "not allowed with --very-easy")
    return Job(
        dice={"--dice": _typed(args, "dice"), "--reroll-dice": _typed(args, "reroll_dice")},
        route=lambda table, _w: "--reroll-dice" if "reroll" in table else "--dice",
        fallback={"--reroll-dice": "--dice"},
        run=lambda d: campaign.challenge(
            d,
            args.rep,
            very_easy=args.very_easy,
            very_difficult=args.very_difficult,
            helpful_tool=args.helpful_tool,
            reroll=not args.give_up,
        ),
    )


def _job_recovery(args: argparse.Namespace) -> Job:
    typed = _typed(args, "dice")

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            campaign.recovery(
                dice, rep, left_battlefield=args.left_battlefield, who=_nth("figure", i, args.rep)
            )
            for i, rep in enumerate(args.rep, 1)
        )
        return Batch("7.13", items[0].result if len(items) == 1 else "recovery", items)

    def odds_items() -> list[OddsItem]:
        def one(rep: int) -> Callable[[DiceSource], Any]:
            return lambda d: campaign.recovery(d, rep, left_battlefield=args.left_battlefield)

        return [(f"Rep {rep}", one(rep), None) for rep in dict.fromkeys(args.rep)]

    return Job(dice={"--dice": typed}, route=_main_flag, run=run, odds_items=odds_items)


def _nth(what: str, i: int, items: Sequence[object]) -> str:
    return f"{what} {i}" if len(items) > 1 else what


def _job_recruit(args: argparse.Namespace) -> Job:
    typed = _typed(args, "dice")
    count = len(typed) if typed is not None else args.count
    band = BandType(args.band)

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            campaign.recruit(dice, band, star_rep=args.star_rep, who=f"recruit {i}")
            for i in range(1, count + 1)
        )
        return Batch("6.1.1", "recruit", items)

    def one(dice: DiceSource) -> Any:
        return campaign.recruit(dice, band, star_rep=args.star_rep, who="recruit")

    return Job(
        dice={"--dice": typed},
        route=_main_flag,
        run=run,
        odds_items=lambda: [("each recruit", one, lambda r: f"Rep {r.value}")],
    )


def _job_new_recruits(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: campaign.new_recruits(d, args.star_rep, args.band_size),
    )


def _job_pef_move(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: pef.pef_move(d, rep=args.rep),
    )


def _job_pef_resolve(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice"), "--size-die": _typed(args, "size_die")},
        route=lambda table, _w: "--size-die" if table == "Contact Size" else "--dice",
        fallback={"--size-die": "--dice"},
        run=lambda d: pef.pef_resolve(
            d,
            player_group_size=args.player_group_size,
            lowest_two=args.lowest_two,
            last_pef=args.last_pef,
            enemy_contacted=args.enemy_contacted,
            rep=args.rep,
        ),
    )


def _job_np_move(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice"), "--flank-die": _typed(args, "flank_die")},
        route=lambda table, _w: "--flank-die" if table == "Encircle Flank" else "--dice",
        fallback={"--flank-die": "--dice"},
        run=lambda d: pef.np_move(d, args.leader_rep, outnumbers=args.outnumbers),
    )


def _job_grenade_ready(args: argparse.Namespace) -> Job:
    band = BandType(args.band) if args.band is not None else None
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: grenades.ready_grenade(d, args.rep, band=band),
        blame="--band",
    )


def _job_grenade_throw(args: argparse.Namespace) -> Job:
    if args.distance is not None and not 0 <= args.distance <= grenades.GRENADE_RANGE:
        raise ResolveError(
            "--distance", f'a grenade is thrown up to 6", the spot is {args.distance:g}"'
        )
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: grenades.throw_grenade(
            d,
            args.rep,
            distance=args.distance if args.distance is not None else 0.0,
            spot_in_los=not args.spot_out_of_sight,
        ),
    )


def _job_blast(args: argparse.Namespace) -> Job:
    options = _options(args)
    many = len(args.figure) > 1
    figures = [
        grenades.BlastFigure(
            s.name or (f"figure {i}" if many else "figure"),
            s.rep,
            cover_between=s.cover,
            prone=s.prone,
        )
        for i, s in enumerate(args.figure, 1)
    ]
    weapon = GRENADE if args.weapon == "G" else "RL"

    def odds_items() -> list[OddsItem]:
        def one(f: grenades.BlastFigure) -> Callable[[DiceSource], Any]:
            return lambda d: grenades.blast(d, [f], weapon=weapon, options=options)

        return [(f.name, one(f), lambda r: str(r.figures[0].result)) for f in figures]

    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: grenades.blast(d, figures, weapon=weapon, options=options),
        odds_items=odds_items,
    )


def _job_terrain(args: argparse.Namespace) -> Job:
    sections: list[int] = args.section or list(range(1, 10))

    def run(dice: DiceSource) -> Batch:
        items: list[Any] = []
        if args.type is None:
            overall = terrain.overall_terrain(dice)
            items.append(overall)
            kind = TableType(overall.result)
        else:
            kind = TableType(args.type)
        for s in sections:
            items.append(terrain.section_terrain(dice, kind, s))
        return Batch("9.3.1", kind.value, tuple(items))

    def odds_items() -> list[OddsItem]:
        def one(section: int) -> Callable[[DiceSource], Any]:
            def run_one(dice: DiceSource) -> Any:
                kind = (
                    TableType(args.type)
                    if args.type is not None
                    else TableType(terrain.overall_terrain(dice).result)
                )
                return terrain.section_terrain(dice, kind, section)

            return run_one

        items: list[OddsItem] = []
        if args.type is None:
            items.append(("overall type", terrain.overall_terrain, None))
        return items + [(f"section {n}", one(n), None) for n in sections]

    return Job(
        dice={"--dice": _typed(args, "dice")}, route=_main_flag, run=run, odds_items=odds_items
    )


def _job_buildings(args: argparse.Namespace) -> Job:
    kind = TableType(args.type)

    def run(dice: DiceSource) -> Batch:
        count = terrain.buildings_in_section(dice, kind)
        assert count.value is not None
        items = [count] + [terrain.building_type(dice, kind) for _ in range(count.value)]
        return Batch("9.4.4", plural(count.value, "building"), tuple(items))

    def one_building(dice: DiceSource) -> Any:
        return terrain.building_type(dice, kind)

    def building_words(r: Any) -> str:
        floors = dict(r.extra).get("floors", 1)
        return f"{plural(r.value, 'area')}, {plural(floors, 'floor')}"

    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=run,
        odds_items=lambda: [
            (
                "buildings",
                lambda d: terrain.buildings_in_section(d, kind),
                lambda r: plural(r.value, "building"),
            ),
            ("each building", one_building, building_words),
        ],
    )


def _job_activation(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: activation.roll_activation(d, ("player", "enemy")),
    )


def _job_retrieve(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: campaign.retrieve_wounded(d, args.rep),
    )


def _job_rep_change(args: argparse.Namespace) -> Job:
    status = {
        "carry-on": Status.CARRY_ON,
        "out-of-the-fight": Status.OUT_OF_THE_FIGHT,
        "left-the-battlefield": Status.LEAVE_THE_BATTLEFIELD,
    }[args.ended]
    record = campaign.EncounterRecord(
        scored_hit_or_meleed=args.scored_hit,
        end_status=status,
        left_oof_member_behind=args.left_wounded_behind,
    )
    return Job(
        dice={"--dice": _typed(args, "dice")},
        route=_main_flag,
        run=lambda d: campaign.rep_change(d, args.rep, record),
    )


# --------------------------------------------------------------------------
# The parser


def _handler(
    build: Callable[[argparse.Namespace], Job], parser: argparse.ArgumentParser
) -> Callable[[argparse.Namespace], int]:
    def handle(args: argparse.Namespace) -> int:
        return execute(args, lambda: build(args), parser)

    handle.__name__ = f"resolve_{build.__name__.removeprefix('_job_')}"
    return handle


def _no_test(_args: argparse.Namespace) -> int:
    print(
        "error: resolve: name what to resolve, e.g. `crdesk resolve reaction --help` "
        "(see `crdesk resolve --help`)",
        file=sys.stderr,
    )
    return EXIT_USAGE


def _dice_arg(p: argparse.ArgumentParser, flag: str, help_text: str, **kw: Any) -> None:
    p.add_argument(
        flag,
        type=_die_faces,
        nargs="+",
        action="extend",
        metavar="D",
        help=help_text,
        **kw,
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``resolve`` and its subcommands to the ``crdesk`` parser's subparsers."""
    saved = subparsers._parser_class
    subparsers._parser_class = _Parser
    try:
        resolve = subparsers.add_parser(
            "resolve",
            help="referee for real dice: apply the book's tables to the faces you type",
            description=DESCRIPTION,
        )
    finally:
        subparsers._parser_class = saved
    resolve.set_defaults(handler=_no_test)
    sub = resolve.add_subparsers(
        dest="resolve", metavar="WHAT", parser_class=_Parser, title="what to resolve"
    )

    common = _Parser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON object")
    common.add_argument(
        "--seed", type=int, help="seed crdesk's own dice (only when no dice are given)"
    )
    with_odds = _Parser(add_help=False)
    with_odds.add_argument("--odds", action="store_true", help="print the exact odds first")

    def add(
        name: str, build: Callable[[argparse.Namespace], Job], text: str, odds: bool = True
    ) -> _Parser:
        p = sub.add_parser(
            name,
            help=text,
            description=text,
            parents=[common, with_odds] if odds else [common],
        )
        p.set_defaults(handler=_handler(build, p))
        return p

    p = add("reaction", _job_reaction, "Received Fire / Man Down reaction tests (7.7)")
    p.add_argument(
        "--test",
        action="append",
        required=True,
        type=_choice("received-fire", "man-down"),
        help="received-fire or man-down; give both for one event causing both (7.7.2)",
    )
    p.add_argument(
        "--rep", type=_rep, action="append", required=True, help="Rep of a figure taking the test"
    )
    p.add_argument("--in-cover", action="store_true", help="the figures are in Cover: +1d6")
    p.add_argument(
        "--in-cover-figure",
        type=int_in(1, 99, "a figure number"),
        action="append",
        metavar="N",
        help="only figure N (the Nth --rep) is in Cover; repeat for others",
    )
    p.add_argument(
        "--leader-rep",
        type=_rep,
        action="append",
        help="Rep of the group's Star Leader (6.3.2); repeat for several Leaders: the "
        "highest rolls (6.3.3)",
    )
    p.add_argument(
        "--current",
        type=_status_choice,
        action="append",
        metavar="STATUS",
        help="a reaction the figure is still carrying out, e.g. duck-back: it scores no "
        "better (7.7.3); once for all, or once per --rep",
    )
    _dice_arg(p, "--leader-die", "the Leader Die (Received Fire only)")
    p.add_argument("--outgunned", action="store_true", help="outgunned by the shooter (7.9.1)")
    p.add_argument(
        "--star", action="store_true", help="the first --rep is a Star: never Outgunned (5.2)"
    )
    p.add_argument(
        "--free-will",
        type=int_in(0, 2, "Free Will"),
        metavar="N",
        help="the Star chooses to pass N (0-2) instead of rolling (5.2)",
    )
    p.add_argument("--friends-down", type=_count, metavar="N", help="own side OOF/dead (Man Down)")
    p.add_argument("--enemies-down", type=_count, metavar="M", help="enemy side OOF/dead")
    _dice_arg(p, "--dice", "2d6, then the Cover die")

    p = add("fire", _job_fire, "ranged fire: Ranged Combat and damage (7.9.10, 7.9.11)")
    p.add_argument("--rep", type=_rep, required=True, help="the shooter's Rep")
    p.add_argument("--weapon", type=_weapon(FIRE_WEAPONS), help="/".join(FIRE_WEAPONS))
    p.add_argument("--fast-moving", action="store_true", help="the shooter is Fast Moving")
    p.add_argument("--rush-shot", action="store_true", help="the shooter fires a Rush Shot")
    p.add_argument(
        "--target",
        type=_figure_spec,
        action="append",
        default=[],
        metavar="SPEC",
        help=f"a target, in order: {_SPEC_HELP}",
    )
    p.add_argument(
        "--allocate", type=_int_list, metavar="N,N", help="Target dice per target (7.9.9)"
    )
    p.add_argument("--old-school", action="store_true", help="Old School weapons/damage (16)")
    _dice_arg(p, "--dice", "the fire dice (the shotgun rolls 6)")
    _dice_arg(p, "--pitiful-dice", "Pitiful Shot dice (7.9.14; default: read on from --dice)")
    _dice_arg(p, "--damage-dice", "one damage die per hit (default: read on from --dice)")
    fd_flags = p.add_argument_group(
        "Firearms Detail",
        "fire by the weapon's card (rules/firearms-detail.md); any of these flags turns it on",
    )
    fd_flags.add_argument(
        "--firearms-detail", action="store_true", help="fire by the card in its first mode"
    )
    fd_flags.add_argument(
        "--mode", type=_choice(*(m.value for m in FireMode)), help=f"fire mode: {_MODES_HELP}"
    )
    fd_flags.add_argument("--aim", action="store_true", help="aimed Full Auto (FD 5.1)")
    fd_flags.add_argument(
        "--walk",
        type=int_in(0, WALK_MAX_STEPS, "pairs to sacrifice"),
        metavar="N",
        help="walk Full Auto onto the target: sacrifice N pairs of dice (FD 5.2)",
    )
    fd_flags.add_argument(
        "--supported",
        type=_choice(*(s.value for s in Support if s is not Support.NONE)),
        metavar="HOW",
        help="supported fire, not moved (FD 7): braced (prone, wall, window), bipod, tripod",
    )
    fd_flags.add_argument(
        "--ammo", type=_choice(*(a.value for a in AmmoType)), help="load other rounds (FD 2, 6)"
    )
    fd_flags.add_argument(
        "--range",
        type=_range_inches,
        metavar="INCHES",
        help="to the first target (FA spread, buckshot)",
    )
    fd_flags.add_argument(
        "--near",
        type=_figure_spec,
        action="append",
        metavar="SPEC",
        help=f"a figure near a target, friend or foe: {_NEAR_HELP}",
    )
    fd_flags.add_argument(
        "--rounds", type=int_in(0, 1000, "rounds"), metavar="N", help="rounds left (default full)"
    )
    fd_flags.add_argument("--moved", action="store_true", help="the shooter moved this activation")
    fd_flags.add_argument("--unready", action="store_true", help="the weapon is unready (FD 4)")
    fd_flags.add_argument(
        "--keep-tight-ammo", action="store_true", help="two or more 1s also jam (FD 3)"
    )
    fd_flags.add_argument("--card", metavar="NAME", help="a user weapon of --scenario (FD 2)")
    fd_flags.add_argument("--scenario", metavar="FILE", help="the scenario holding --card")
    _dice_arg(p, "--dodge-die", "the dodge die vs the shooter's Rep (FD 5)")
    _dice_arg(p, "--miss-dice", "a missed burst's die on the nearest figure (FD 5)")
    _dice_arg(p, "--knockdown-dice", "one knockdown die per figure hit (FD 8)")

    p = add("damage", _job_damage, "Ranged Combat Damage (7.9.11; Old School 16.1)")
    p.add_argument("--target-rep", type=_rep, required=True, help="the Rep of the figure hit")
    p.add_argument("--old-school", action="store_true", help="Old School damage vs Impact (16.1)")
    p.add_argument("--weapon", type=_weapon(DAMAGE_WEAPONS), help="the weapon (for its Impact)")
    p.add_argument("--hits", type=_size, default=1, help="hits when crdesk rolls (default 1)")
    _dice_arg(p, "--dice", "one die per hit")

    p = add("star-power", _job_star_power, "Star Power against damage (5.2)")
    p.add_argument("--rep", type=_rep, required=True, help="the Star's Rep")
    p.add_argument(
        "--star-power", type=_count, metavar="N", help="Star Power dice left (default: Rep)"
    )
    p.add_argument(
        "--damage",
        type=_statuses,
        required=True,
        metavar="LIST",
        help="damage taken, e.g. obviously_dead,out_of_the_fight",
    )
    p.add_argument("--melee", action="store_true", help="melee damage (floor -1 to Rep)")
    p.add_argument("--attacker-rep", type=_rep, help="apply Larger Than Life vs this Rep")
    p.add_argument("--cheat-death", action="store_true", help="declare Cheating Death")
    _dice_arg(p, "--dice", "all Star Power dice")

    p = add("fast-move", _job_fast_move, "Fast Move (7.4.2)")
    p.add_argument("--rep", type=_rep, action="append", required=True, help="a fast mover's Rep")
    p.add_argument(
        "--carrying-wounded", action="store_true", help="carrying wounded: at most 1 pass (7.12)"
    )
    _dice_arg(p, "--dice", "2d6 for the group")

    p = add("in-sight", _job_in_sight, "the In Sight test (7.6.3)")
    p.add_argument("--mover-rep", type=_rep, required=True, help="Rep of the moving Leader")
    _dice_arg(p, "--mover-dice", "the mover's dice (Rep d6, -1 if concealed)")
    p.add_argument("--other-rep", type=_rep, required=True, help="Rep of the other Leader")
    _dice_arg(p, "--other-dice", "the other side's dice")
    p.add_argument(
        "--mover-sees-concealed", action="store_true", help="the other side is concealed: -1d6"
    )
    p.add_argument(
        "--other-sees-concealed", action="store_true", help="the mover is concealed: -1d6"
    )

    p = add("charge", _job_charge, "Charge into Melee (7.11.2)")
    p.add_argument(
        "--charger-rep", type=_rep, action="append", required=True, help="a charger's Rep (1-3)"
    )
    _dice_arg(p, "--charger-dice", "2d6 per charger, in order")
    p.add_argument("--target-rep", type=_rep, required=True, help="the target's Rep")
    _dice_arg(p, "--target-dice", "the target's dice (2, +1 Cover, -1 flank, -2 rear)")
    p.add_argument("--target-in-cover", action="store_true", help="target in Cover: +1d6")
    side = p.add_mutually_exclusive_group()
    side.add_argument("--flank", action="store_true", help="charged on the flank: -1d6")
    side.add_argument("--rear", action="store_true", help="charged from the rear: -2d6")
    p.add_argument(
        "--single-shot",
        action="store_true",
        help="the target's weapon fires one shot: which charger it fires at (7.11.2)",
    )
    p.add_argument(
        "--fires-at",
        type=int_in(1, 3, "a charger number"),
        metavar="N",
        help="with --single-shot: fire at the Nth charger instead (a Rush Shot)",
    )

    p = add("melee", _job_melee, "Melee Combat and Melee Damage (7.11.4, 7.11.5)")
    weapons = _choice("none", "one-hand", "two-hand")
    p.add_argument("--rep", type=_rep, required=True, help="the fighter's Rep")
    p.add_argument("--weapon", type=weapons, default="none", help="none, one-hand or two-hand")
    p.add_argument("--vs-prone", action="store_true", help="the opponent is prone: +1d6")
    _dice_arg(p, "--dice", "the fighter's dice, each round")
    p.add_argument("--vs-rep", type=_rep, required=True, help="the opponent's Rep")
    p.add_argument("--vs-weapon", type=weapons, default="none", help="the opponent's weapon")
    p.add_argument("--prone", action="store_true", help="the fighter is prone: opponent +1d6")
    _dice_arg(p, "--vs-dice", "the opponent's dice, each round")
    _dice_arg(p, "--damage-die", "the winner's Melee Damage die, each decided round")

    p = add("challenge", _job_challenge, "a Challenge (7.14)")
    p.add_argument("--rep", type=_rep, required=True, help="the challenger's Rep")
    p.add_argument("--very-easy", action="store_true", help="+1 to Rep")
    p.add_argument("--very-difficult", action="store_true", help="-1 to Rep")
    p.add_argument("--helpful-tool", action="store_true", help="+1 to Rep")
    p.add_argument("--give-up", action="store_true", help="on pass 1, give up instead of rerolling")
    _dice_arg(p, "--dice", "2d6")
    _dice_arg(p, "--reroll-dice", "2d6 of the reroll on pass 1 (default: read on from --dice)")

    p = add("recovery", _job_recovery, "After the Battle Recovery (7.13)")
    p.add_argument(
        "--rep", type=_rep, action="append", required=True, help="Rep of a figure (repeat)"
    )
    p.add_argument("--left-battlefield", action="store_true", help="it left the battlefield")
    _dice_arg(p, "--dice", "2d6 per figure")

    p = add("recruit", _job_recruit, "Recruiting (6.1.1)")
    p.add_argument("--band", type=_choice(*(b.value for b in BandType)), required=True)
    p.add_argument("--star-rep", type=_rep, help="the Star's Rep: recruits are capped at it")
    p.add_argument("--count", type=_size, default=1, help="recruits when crdesk rolls")
    _dice_arg(p, "--dice", "1d6 per recruit")

    p = add("new-recruits", _job_new_recruits, "New Recruits (13.1)")
    p.add_argument("--star-rep", type=_rep, required=True, help="the Star's Rep")
    p.add_argument(
        "--band-size", type=_count, required=True, help="figures in the Band now, Star included"
    )
    _dice_arg(p, "--dice", "2d6")

    p = add("pef-move", _job_pef_move, "PEF Movement (11.2)")
    p.add_argument("--rep", type=_rep, default=4, help="the PEF's Rep (default 4)")
    _dice_arg(p, "--dice", "2d6")

    p = add("pef-resolve", _job_pef_resolve, "PEF Resolution (11.3)")
    p.add_argument(
        "--player-group-size", type=_size, required=True, help="figures in the resolving group"
    )
    p.add_argument(
        "--lowest-two", action="store_true", help="after Something's out there: 3d6 lowest two"
    )
    p.add_argument("--last-pef", action="store_true", help="this is the last PEF")
    p.add_argument("--enemy-contacted", action="store_true", help="an enemy was contacted already")
    p.add_argument("--rep", type=_rep, default=4, help="the PEF's Rep (default 4)")
    _dice_arg(p, "--dice", "2d6 (3d6 with --lowest-two)")
    _dice_arg(p, "--size-die", "the Contact size die (default: read on from --dice)")

    p = add("np-move", _job_np_move, "NP Force Movement (11.4)")
    p.add_argument("--leader-rep", type=_rep, required=True, help="the NP Leader's Rep")
    p.add_argument(
        "--outnumbers", action="store_true", help="the NP group outnumbers the player 2:1"
    )
    _dice_arg(p, "--dice", "2d6")
    _dice_arg(p, "--flank-die", "the encircling flank die (default: read on from --dice)")

    p = add("grenade-ready", _job_grenade_ready, "Ready a Grenade (7.10.1)")
    p.add_argument("--rep", type=_rep, required=True, help="the figure's Rep")
    p.add_argument(
        "--band", type=_choice(*(b.value for b in BandType)), help="check the band has grenades"
    )
    _dice_arg(p, "--dice", "1d6")

    p = add("grenade-throw", _job_grenade_throw, "Throw a Grenade (7.10.3)")
    p.add_argument("--rep", type=_rep, required=True, help="the thrower's Rep")
    p.add_argument("--distance", type=float, help='inches to the spot (at most 6")')
    p.add_argument(
        "--spot-out-of-sight", action="store_true", help="the thrower has no LOS to the spot"
    )
    _dice_arg(p, "--dice", "2d6")

    p = add("blast", _job_blast, "a blast circle: who is hurt (7.10.5, 7.10.6)")
    p.add_argument(
        "--figure",
        type=_figure_spec,
        action="append",
        required=True,
        metavar="SPEC",
        help="a figure in the circle: rep=N[,cover][,prone][,name=X] (cover = Cover between)",
    )
    p.add_argument("--weapon", type=_weapon(("G", "RL")), default="G", help="G or RL")
    p.add_argument("--old-school", action="store_true", help="Old School damage (16.1)")
    _dice_arg(p, "--dice", "one damage die per exposed figure")

    types = _choice(*(t.value for t in TableType))
    p = add("terrain", _job_terrain, "Terrain Generator (9.2, 9.3.1)")
    p.add_argument("--type", type=types, help="overall type (default: roll it on 9.2 first)")
    p.add_argument(
        "--section",
        type=int_in(1, 9, "section"),
        action="append",
        help="a section 1-9 (default all nine, in order)",
    )
    _dice_arg(p, "--dice", "1d6 per section (after the 9.2 die without --type)")

    p = add("buildings", _job_buildings, "buildings in a (B) section (9.4.4, 9.5)")
    p.add_argument("--type", type=types, required=True, help="the table's overall type")
    _dice_arg(p, "--dice", "the count die, then 1d6 per building")

    p = add("activation", _job_activation, "activation dice (7.1)", odds=False)
    _dice_arg(p, "--dice", "player's die, enemy's die (again after doubles)")

    p = add("retrieve", _job_retrieve, "retrieving wounded (7.12)")
    p.add_argument("--rep", type=_rep, required=True, help="the Grunt's Rep")
    _dice_arg(p, "--dice", "1d6")

    p = add("rep-change", _job_rep_change, "Rep changes after an encounter (13.2/13.3)")
    p.add_argument("--rep", type=_rep, required=True, help="the character's Rep")
    p.add_argument("--scored-hit", action="store_true", help="it scored a hit or fought a melee")
    p.add_argument(
        "--ended",
        type=_choice("carry-on", "out-of-the-fight", "left-the-battlefield"),
        default="carry-on",
        help="how it ended the encounter",
    )
    p.add_argument(
        "--left-wounded-behind", action="store_true", help="left an OOF Band member behind"
    )
    _dice_arg(p, "--dice", "1d6")
