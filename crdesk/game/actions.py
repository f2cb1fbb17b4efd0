"""Actions: the decisions a player (or a policy, or the dice) hands the controller.

Every action is a frozen value with a stable text form, like a chess move's UCI
string, so a saved game is a list of short lines a person can read and type.
``Action.parse(str(a)) == a`` for every action.

=====================================  ==============================================
text                                   meaning
=====================================  ==============================================
``activate p1``                        activate the group led by figure p1 (7.1)
``end``                                end the active group's activation
``pass``                               decline: no (more) groups, no free move, ...
``move p1 10,12 14,12.5 face 90``      move p1 along a path (its centre), then face
``fast p1,p2``                         declare a Fast Move for these figures (7.4.2)
``prone p1`` / ``stand p1``            go prone / stand up (7.4.3)
``fire p1 at e1:2,e2:1``               fire, with the dice allotted to each target
``fire p1 at e1 mode FA aim``          Firearms Detail: a fire mode and options (FD §5-§7)
``charge p1,p2 at e2``                 declare a Charge into Melee (7.11.2, 7.11.6)
``ready p1`` / ``throw p1 at 10,12``   ready / throw a grenade (7.10)
``ready p1 weapon``                    Firearms Detail: ready a weapon, 2" of movement (FD §4)
``indirect p1 at 10,12``               Firearms Detail: indirect fire at a spot (FD §10)
``reload p1``                          reload (7.9.2)
``pickup p1 p3`` / ``drop p1``         pick up / put down a wounded friend (7.12)
``capture p1 e2``                      capture an Out of the Fight enemy in contact (7.9.12)
``dispatch p1 e2``                     dispatch an Out of the Fight enemy in contact (7.9.12)
``exit p1``                            leave the table by an edge the encounter allows
``npmove e1``                          roll NP Force Movement for e1's group (11.4)
``floor p1 2``                         change floor in a building (8.2)
``freewill p1 2``                      a Star's Free Will: pass 2, 1 or 0 d6 (5.2)
``roll``                               roll the dice instead of using Free Will
``starpower p1 use|decline``           roll Star Power against damage (5.2)
``cheat p1 yes|no``                    Cheating Death (5.2)
``duckback p1 auto`` / ``… 10,12``     Duck Back to the nearest Cover or a spot (7.4.4)
``duckback p1 auto carry p2``          retrieve a wounded friend while ducking back (7.12)
``carryon p1``                         a Star's In Sight choice to do nothing (7.6.4)
``dice 3,5,1``                         the faces of real dice, for a manual-dice game
=====================================  ==============================================

Numbers are written as short as they round-trip: ``10`` for 10.0, ``12.5``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from crdesk import limits, numbers
from crdesk.errors import IllegalActionError
from crdesk.rules.firearms.tables import FireMode

Point2 = tuple[float, float]

_ID = re.compile(r"^[A-Za-z0-9_.:\-]+$")


def fmt_num(value: float) -> str:
    """The shortest text that reads back as the same float."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def fmt_point(p: Point2) -> str:
    return f"{fmt_num(p[0])},{fmt_num(p[1])}"


def _num(text: str, what: str) -> float:
    try:
        return numbers.decimal(text, what)
    except numbers.NumberTextError as exc:
        raise IllegalActionError(str(exc)) from None


def _point(text: str, what: str = "a point") -> Point2:
    parts = text.split(",")
    if len(parts) != 2:
        raise IllegalActionError(f"{what} is written x,y (inches), got {text!r}")
    return (_num(parts[0], f"{what}'s x"), _num(parts[1], f"{what}'s y"))


def _fid(text: str) -> str:
    if not _ID.match(text):
        raise IllegalActionError(f"{text!r} is not a figure id")
    return text


def _ids(text: str) -> tuple[str, ...]:
    return tuple(_fid(t) for t in text.split(","))


def _count(text: str, what: str) -> int:
    try:
        return numbers.whole(text, what)
    except numbers.NumberTextError as exc:
        raise IllegalActionError(str(exc)) from None


MAX_ACTION_CHARS = 4_000
"""The longest action text (a saved game's step holds at most this): a longer one is
refused by its length, before it is read (a fire action at 400 targets is ~5,000
characters: the schema's 4,000 was there first, and no real action comes near it)."""
MAX_FACES_CHARS = 4 * limits.STEP_FACES
"""The longest text of dice faces read (``3,5,1``: two characters a face and spaces)."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``Action.parse(text)`` reads any of them."""

    word: ClassVar[str] = ""
    figure_id: ClassVar[str | None] = None

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its text form; IllegalActionError names what is wrong."""
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is text, got {type(text).__name__}")
        longest = MAX_ACTION_CHARS
        if text[:16].lstrip().lower().startswith("dice"):  # typed dice: up to a step's faces
            longest = MAX_FACES_CHARS + 16
        if len(text) > longest:
            raise IllegalActionError(
                f"an action is at most {longest:,} characters, got {len(text):,}"
            )
        words = text.split()
        if not words:
            raise IllegalActionError("empty action: try 'end', 'pass' or 'move ID X,Y'")
        cls = _WORDS.get(words[0].lower())
        if cls is None:
            known = ", ".join(sorted(_WORDS))
            raise IllegalActionError(f"unknown action {words[0]!r}; the actions are: {known}")
        return cls._from_words(words[1:])

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if words:
            raise IllegalActionError(
                f"'{cls.word}' takes nothing after it, got {' '.join(words)!r}"
            )
        return cls()

    @property
    def who(self) -> str | None:
        """The figure the action is about, if any."""
        return getattr(self, "figure", None)


def _one_figure(cls_word: str, words: list[str]) -> str:
    if len(words) != 1:
        raise IllegalActionError(f"'{cls_word}' is written '{cls_word} ID'")
    return _fid(words[0])


@dataclass(frozen=True, slots=True)
class OneFigure(Action):
    """An action about one figure, written ``WORD ID`` (``prone p1``, ``reload p2``)."""

    figure: str

    def __str__(self) -> str:
        return f"{self.word} {self.figure}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        return cls(_one_figure(cls.word, words))


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Activate the group led by ``leader`` (7.1)."""

    leader: str
    word: ClassVar[str] = "activate"

    def __str__(self) -> str:
        return f"activate {self.leader}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        return cls(_one_figure(cls.word, words))


@dataclass(frozen=True, slots=True)
class End(Action):
    """End the active group's activation."""

    word: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline what is offered: no more groups, no free move, no choice."""

    word: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Start(Action):
    """The game's first step: the dice of the opening activation roll (never offered)."""

    word: ClassVar[str] = "start"

    def __str__(self) -> str:
        return "start"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll the dice rather than use a Star's Free Will (5.2)."""

    word: ClassVar[str] = "roll"

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move a figure along a path of points (its centre), then face ``facing`` (7.4)."""

    figure: str
    path: tuple[Point2, ...]
    facing: float | None = None
    word: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", tuple((float(x), float(y)) for x, y in self.path))
        if self.facing is not None:
            object.__setattr__(self, "facing", float(self.facing) % 360.0)

    def __str__(self) -> str:
        pts = " ".join(fmt_point(p) for p in self.path)
        face = f" face {fmt_num(self.facing)}" if self.facing is not None else ""
        return f"move {self.figure} {pts}{face}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) < 2:
            raise IllegalActionError(
                "'move' needs at least one point: 'move ID X,Y [X,Y ...] [face DEGREES]'"
            )
        facing = None
        if len(words) >= 2 and words[-2] == "face":
            facing = _num(words[-1], "the facing")
            words = words[:-2]
        if len(words) < 2:
            raise IllegalActionError("'move' needs at least one point after the figure id")
        if words[0].lower() == "group":  # move group LEADER to X,Y
            if len(words) != 4 or words[2].lower() != "to" or facing is not None:
                raise IllegalActionError("a group's move is written 'move group LEADER to X,Y'")
            return MoveGroup(_fid(words[1]), _point(words[3], "the spot"))
        if words[1].lower() == "to":  # a spot to get to by the way the rules find
            if len(words) != 3:
                raise IllegalActionError("'move ID to X,Y [face DEGREES]' names one spot")
            return MoveTo(_fid(words[0]), _point(words[2], "the spot"), facing)
        path = tuple(_point(w, "a path point") for w in words[1:])
        return cls(_fid(words[0]), path, facing)


@dataclass(frozen=True, slots=True)
class MoveGroup(Action):
    """Move the group led by ``leader`` so he stands at ``goal``, each member to its place
    in the formation by its own route (6.2, 7.4): written ``move group ID to X,Y``.  The
    game plays it as the members' moves, each its own step
    (:mod:`crdesk.game.group_moves`)."""

    leader: str
    goal: Point2
    word: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        object.__setattr__(self, "goal", (float(self.goal[0]), float(self.goal[1])))

    def __str__(self) -> str:
        return f"move group {self.leader} to {fmt_point(self.goal)}"


@dataclass(frozen=True, slots=True)
class MoveTo(Action):
    """Move a figure to a spot by its cheapest legal route (7.4, 8.2): written
    ``move ID to X,Y``.  The game turns it into the :class:`Move` along the route before
    it is played, so the history keeps the path walked (:meth:`Game.plan_move`)."""

    figure: str
    goal: Point2
    facing: float | None = None
    word: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        object.__setattr__(self, "goal", (float(self.goal[0]), float(self.goal[1])))
        if self.facing is not None:
            object.__setattr__(self, "facing", float(self.facing) % 360.0)

    def __str__(self) -> str:
        face = f" face {fmt_num(self.facing)}" if self.facing is not None else ""
        return f"move {self.figure} to {fmt_point(self.goal)}{face}"


@dataclass(frozen=True, slots=True)
class FastMove(Action):
    """Declare which figures of the active group Fast Move (7.4.2)."""

    figures: tuple[str, ...]
    word: ClassVar[str] = "fast"

    def __str__(self) -> str:
        return f"fast {','.join(self.figures)}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 1:
            raise IllegalActionError("'fast' is written 'fast ID,ID,...'")
        return cls(_ids(words[0]))


@dataclass(frozen=True, slots=True)
class Prone(OneFigure):
    """Go prone (7.4.3): ends the figure's movement until next active."""

    word: ClassVar[str] = "prone"


@dataclass(frozen=True, slots=True)
class Stand(OneFigure):
    """Stand up (7.4.3): costs half the figure's movement."""

    word: ClassVar[str] = "stand"


@dataclass(frozen=True, slots=True)
class Reload(OneFigure):
    """Reload an empty weapon (7.9.2)."""

    word: ClassVar[str] = "reload"


@dataclass(frozen=True, slots=True)
class Ready(OneFigure):
    """Ready a grenade (7.10.1): ``ready p1``; with the Firearms Detail rules, ready an
    unready weapon by giving up 2" of movement (FD §4): ``ready p1 weapon``."""

    weapon: bool = False
    word: ClassVar[str] = "ready"

    def __str__(self) -> str:
        return f"ready {self.figure}" + (" weapon" if self.weapon else "")

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) == 2 and words[1].lower() == "weapon":
            return cls(_fid(words[0]), weapon=True)
        if len(words) != 1:
            raise IllegalActionError(
                "'ready' is written 'ready ID' (a grenade) or 'ready ID weapon' (FD §4)"
            )
        return cls(_fid(words[0]))


@dataclass(frozen=True, slots=True)
class Drop(OneFigure):
    """Put down a carried wounded friend (7.12)."""

    word: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class CarryOn(OneFigure):
    """A Star's In Sight choice to carry on (7.6.4)."""

    word: ClassVar[str] = "carryon"


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """Fire at targets, ``(target id, dice)`` in the order the dice are given out (7.9.9).

    A count of 0 means "the default allocation" (one die each in turn, 7.9.8).
    With the Firearms Detail rules on, the shooter may also choose a fire mode and
    options (FD §5-§7): ``fire p1 at e1 mode FA aim``, ``... mode FA walk 2``,
    ``... support bipod``; none given means the weapon's current mode, unaimed.
    """

    figure: str
    targets: tuple[tuple[str, int], ...]
    mode: str = ""
    """A Firearms Detail fire mode (``FireMode`` value: ``semi``, ``3RB``, ``FA``, ...)."""
    aim: bool = False
    walk: int = 0
    """Pairs of Full Auto dice sacrificed to walk the target (FD §5.2)."""
    support: str = ""
    """``braced``, ``bipod`` or ``tripod`` (FD §7); empty for none."""
    word: ClassVar[str] = "fire"

    def __str__(self) -> str:
        parts = ",".join(f"{t}:{n}" if n else t for t, n in self.targets)
        return f"fire {self.figure} at {parts}{self.options_text}"

    @property
    def options_text(self) -> str:
        """The Firearms Detail choices as written after the targets ('' for none)."""
        out = f" mode {self.mode}" if self.mode else ""
        out += " aim" if self.aim else ""
        out += f" walk {self.walk}" if self.walk else ""
        out += f" support {self.support}" if self.support else ""
        return out

    @property
    def detailed(self) -> bool:
        """Whether any Firearms Detail choice is made (refused with the module off)."""
        return bool(self.mode or self.aim or self.walk or self.support)

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) < 3 or words[1] != "at":
            raise IllegalActionError(
                "'fire' is written 'fire ID at TARGET[:DICE],... "
                "[mode MODE] [aim] [walk PAIRS] [support braced|bipod|tripod]'"
            )
        targets: list[tuple[str, int]] = []
        for part in words[2].split(","):
            name, _, n = part.partition(":")
            targets.append((_fid(name), _count(n, "the dice on a target") if n else 0))
        mode, aim, walk, support = "", False, 0, ""
        rest = words[3:]
        seen: set[str] = set()
        while rest:
            key = rest.pop(0).lower()
            if key in seen:
                raise IllegalActionError(f"'{key}' is given twice in a fire action")
            seen.add(key)
            if key == "aim":
                aim = True
                continue
            if key not in ("mode", "walk", "support"):
                raise IllegalActionError(
                    f"unknown fire option {key!r}: the options are mode, aim, walk, support"
                )
            if not rest:
                raise IllegalActionError(f"'{key}' needs a value in a fire action")
            value = rest.pop(0)
            if key == "mode":
                mode = _fire_mode(value)
            elif key == "walk":
                walk = _count(value, "the pairs walked")
                if walk == 0:
                    raise IllegalActionError("'walk' takes 1 or more pairs (FD §5.2)")
            else:
                support = value.lower()
                if support not in _SUPPORTS:
                    raise IllegalActionError(
                        f"support is one of {', '.join(_SUPPORTS)}, got {value!r} (FD §7)"
                    )
        return cls(_fid(words[0]), tuple(targets), mode, aim, walk, support)

    @property
    def target_ids(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.targets)


_SUPPORTS = ("braced", "bipod", "tripod")


def _fire_mode(text: str) -> str:
    """A fire mode's canonical text (case-insensitive): semi, SA, DA, pump, BA, 2RB, 3RB,
    FA, single (FD §2)."""
    modes = {m.value.casefold(): m.value for m in FireMode}
    try:
        return modes[text.casefold()]
    except KeyError:
        raise IllegalActionError(
            f"no fire mode {text!r}; the modes are {', '.join(modes.values())} (FD §2)"
        ) from None


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Declare a Charge into Melee at a target (7.11.2); up to three may charge one
    target together (7.11.6): ``charge p1,p2 at e2``."""

    figure: str
    target: str
    others: tuple[str, ...] = ()
    word: ClassVar[str] = "charge"

    @property
    def chargers(self) -> tuple[str, ...]:
        return (self.figure, *self.others)

    def __str__(self) -> str:
        return f"charge {','.join(self.chargers)} at {self.target}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 3 or words[1] != "at":
            raise IllegalActionError("'charge' is written 'charge ID[,ID...] at TARGET'")
        chargers = _ids(words[0])
        return cls(chargers[0], _fid(words[2]), chargers[1:])


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw a readied grenade at a spot (7.10.3)."""

    figure: str
    point: Point2
    word: ClassVar[str] = "throw"

    def __post_init__(self) -> None:
        object.__setattr__(self, "point", (float(self.point[0]), float(self.point[1])))

    def __str__(self) -> str:
        return f"throw {self.figure} at {fmt_point(self.point)}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 3 or words[1] != "at":
            raise IllegalActionError("'throw' is written 'throw ID at X,Y'")
        return cls(_fid(words[0]), _point(words[2], "the spot"))


@dataclass(frozen=True, slots=True)
class Indirect(Action):
    """Firearms Detail: fire a grenade launcher or mortar at a spot the shooter cannot
    see (FD §10), ``indirect p1 at 10,12``."""

    figure: str
    point: Point2
    word: ClassVar[str] = "indirect"

    def __post_init__(self) -> None:
        object.__setattr__(self, "point", (float(self.point[0]), float(self.point[1])))

    def __str__(self) -> str:
        return f"indirect {self.figure} at {fmt_point(self.point)}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 3 or words[1] != "at":
            raise IllegalActionError("'indirect' is written 'indirect ID at X,Y' (FD §10)")
        return cls(_fid(words[0]), _point(words[2], "the spot"))


@dataclass(frozen=True, slots=True)
class Pickup(Action):
    """Pick up a wounded friend in contact (7.12)."""

    figure: str
    wounded: str
    word: ClassVar[str] = "pickup"

    def __str__(self) -> str:
        return f"pickup {self.figure} {self.wounded}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError("'pickup' is written 'pickup ID WOUNDED'")
        return cls(_fid(words[0]), _fid(words[1]))


@dataclass(frozen=True, slots=True)
class Capture(Action):
    """Capture an Out of the Fight enemy in base contact (7.9.12)."""

    figure: str
    target: str
    word: ClassVar[str] = "capture"

    def __str__(self) -> str:
        return f"{self.word} {self.figure} {self.target}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError(f"'{cls.word}' is written '{cls.word} ID ENEMY'")
        return cls(_fid(words[0]), _fid(words[1]))


@dataclass(frozen=True, slots=True)
class Dispatch(Capture):
    """Dispatch an Out of the Fight enemy in base contact (7.9.12)."""

    word: ClassVar[str] = "dispatch"


@dataclass(frozen=True, slots=True)
class NpMove(OneFigure):
    """Roll NP Force Movement (11.4) for the active non-player group led by ``figure``:
    the solo enemy's table roll, a chance step of the history like any other."""

    word: ClassVar[str] = "npmove"


@dataclass(frozen=True, slots=True)
class Exit(OneFigure):
    """Leave the table by an edge the encounter allows (7.4, 12)."""

    word: ClassVar[str] = "exit"


@dataclass(frozen=True, slots=True)
class ChangeFloor(Action):
    """Move to another floor of the building the figure is in (8.2)."""

    figure: str
    floor: int
    word: ClassVar[str] = "floor"

    def __str__(self) -> str:
        return f"floor {self.figure} {self.floor}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError("'floor' is written 'floor ID N'")
        return cls(_fid(words[0]), _count(words[1], "the floor"))


@dataclass(frozen=True, slots=True)
class FreeWill(Action):
    """A Star chooses to pass 2, 1 or 0 d6 on Received Fire or Man Down (5.2)."""

    figure: str
    passes: int
    word: ClassVar[str] = "freewill"

    def __str__(self) -> str:
        return f"freewill {self.figure} {self.passes}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError("'freewill' is written 'freewill ID 2|1|0'")
        return cls(_fid(words[0]), _count(words[1], "Free Will passes"))


def _yes_no(word: str, text: str, yes: str, no: str) -> bool:
    if text == yes:
        return True
    if text == no:
        return False
    raise IllegalActionError(f"'{word}' ends with '{yes}' or '{no}', got {text!r}")


@dataclass(frozen=True, slots=True)
class StarPower(Action):
    """Use or decline a Star's Star Power dice against damage (5.2)."""

    figure: str
    use: bool
    word: ClassVar[str] = "starpower"

    def __str__(self) -> str:
        return f"starpower {self.figure} {'use' if self.use else 'decline'}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError("'starpower' is written 'starpower ID use|decline'")
        return cls(_fid(words[0]), _yes_no(cls.word, words[1], "use", "decline"))


@dataclass(frozen=True, slots=True)
class CheatDeath(Action):
    """Declare (or not) Cheating Death for a Star about to be killed (5.2)."""

    figure: str
    cheat: bool
    word: ClassVar[str] = "cheat"

    def __str__(self) -> str:
        return f"cheat {self.figure} {'yes' if self.cheat else 'no'}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 2:
            raise IllegalActionError("'cheat' is written 'cheat ID yes|no'")
        return cls(_fid(words[0]), _yes_no(cls.word, words[1], "yes", "no"))


@dataclass(frozen=True, slots=True)
class DuckBack(Action):
    """Duck Back to the nearest Cover (``point`` None) or to a chosen legal spot (7.4.4);
    ``carry``: first retrieve that wounded friend, then duck back carrying it, 6" in all
    (7.12: "when active or when ducking back in reaction"), to the nearest Cover only."""

    figure: str
    point: Point2 | None = None
    carry: str | None = None
    word: ClassVar[str] = "duckback"

    def __post_init__(self) -> None:
        if self.point is not None:
            object.__setattr__(self, "point", (float(self.point[0]), float(self.point[1])))

    def __str__(self) -> str:
        where = "auto" if self.point is None else fmt_point(self.point)
        carry = "" if self.carry is None else f" carry {self.carry}"
        return f"duckback {self.figure} {where}{carry}"

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        form = "'duckback' is written 'duckback ID auto|X,Y' or 'duckback ID auto carry ID'"
        if len(words) == 4 and words[2] == "carry":
            if words[1] != "auto":
                raise IllegalActionError(
                    "a Duck Back carrying a wounded friend goes to the nearest Cover: "
                    f"write 'duckback {words[0]} auto carry {words[3]}' (7.12)"
                )
            return cls(_fid(words[0]), None, _fid(words[3]))
        if len(words) != 2:
            raise IllegalActionError(form)
        point = None if words[1] == "auto" else _point(words[1], "the spot")
        return cls(_fid(words[0]), point)


@dataclass(frozen=True, slots=True)
class DiceFaces(Action):
    """The faces of real dice rolled for a manual-dice game (the ``chance`` actor)."""

    faces: tuple[int, ...]
    word: ClassVar[str] = "dice"

    def __str__(self) -> str:
        return "dice " + ",".join(map(str, self.faces))

    @classmethod
    def _from_words(cls, words: list[str]) -> Action:
        if len(words) != 1:
            raise IllegalActionError("'dice' is written 'dice 3,5,1' (the faces, 1-6)")
        return cls(parse_faces(words[0]))


_FACES = {str(face): face for face in range(1, 7)}


def parse_faces(text: str) -> tuple[int, ...]:
    """Faces written ``3,5,1`` (or ``3 5 1``); each must be 1-6, in ASCII digits."""
    if len(text) > MAX_FACES_CHARS:
        raise IllegalActionError(
            f"dice faces are at most {MAX_FACES_CHARS:,} characters ({limits.STEP_FACES:,} "
            f"dice), got {len(text):,}"
        )
    faces: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        if part not in _FACES:
            raise IllegalActionError(f"a d6 face is 1-6, got {numbers.shown(part)}")
        faces.append(_FACES[part])
    if not faces:
        raise IllegalActionError("give the faces of the dice, e.g. 3,5")
    return tuple(faces)


_WORDS: dict[str, type[Action]] = {
    cls.word: cls
    for cls in (
        Activate,
        End,
        Pass,
        Start,
        Roll,
        Move,
        FastMove,
        Prone,
        Stand,
        Reload,
        Ready,
        Drop,
        CarryOn,
        Fire,
        Charge,
        Throw,
        Indirect,
        Pickup,
        Capture,
        Dispatch,
        Exit,
        NpMove,
        ChangeFloor,
        FreeWill,
        StarPower,
        CheatDeath,
        DuckBack,
        DiceFaces,
    )
}

ACTION_WORDS: tuple[str, ...] = tuple(_WORDS)
"""Every action's first word (what a Decision's ``accepts`` lists)."""


def book_default(options: Sequence[Action]) -> Action:
    """The book's pick among discrete options: fire if it can (7.6.4), roll the dice
    rather than Free Will, use Star Power and Cheating Death, else the first option."""
    for kind in (Fire, Roll):
        found: Action | None = next((o for o in options if isinstance(o, kind)), None)
        if found is not None:
            return found
    for o in options:
        if (isinstance(o, StarPower) and o.use) or (isinstance(o, CheatDeath) and o.cheat):
            return o
    if any(isinstance(o, End) for o in options):
        return next(o for o in options if isinstance(o, End))
    return options[0]
