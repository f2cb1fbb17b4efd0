"""What a hit does under Firearms Detail: damage classes and explosive rings (FD §9)
and knockdown with its 1" push (FD §8).

The push is geometry-free: the rule is given the shooter's and the target's
points and a ``can_enter(point) -> bool`` test, and walks the 1" in small
probes, stopping before the first point the figure cannot enter.

**Interpretations**:

* Damage classes read 7.9.11 (Deadly: the die +1, so 5 or 6 is Obviously
  Dead).  With Old School damage (16.1), where low is bad, Deadly takes 1 off
  the die instead (1 or 2 Obviously Dead); Wound still reads Obviously Dead as
  Out of the Fight.
* A figure rolls for knockdown once per firing however many hits it took; a
  figure already prone does not roll (it could not be knocked further down).
* A figure on the shooter's own point has no "away" direction: it is knocked
  prone and not pushed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, check_rep, figure_id, words
from crdesk.rules.firearms.tables import (
    DAMAGE_CLASS_MODIFIER,
    EXPLOSIVE_RECEIVED_FIRE,
    EXPLOSIVE_RINGS,
    KNOCKDOWN_PUSH,
    PUSH_PROBE,
    DamageClass,
    fd,
)
from crdesk.tables import old_school_damage, ranged_damage

Point = tuple[float, float]
CanEnter = Callable[[Point], bool]
"""The terrain test: whether the pushed figure may stand at this point."""


@dataclass(frozen=True, slots=True)
class ClassDamage(RuleResult):
    """One damage die read with a damage class (FD §9 on 7.9.11 / 16.1)."""

    damage_class: DamageClass
    face: int | None
    """None for Fatigue (no damage roll)."""
    modified: int | None
    target_rep: int
    status: Status | None
    """None for Fatigue: a Received Fire test instead."""
    read_as: Status | None = None
    """What the table said before the class changed it (Wound: OD read as OOF)."""
    section: str = fd(9)

    @property
    def result(self) -> str:
        return self.status.value if self.status is not None else "received_fire"

    def explain(self) -> str:
        label = self.damage_class.label
        if self.face is None or self.status is None:
            return f"{label}: no damage roll, a Received Fire test ({fd(9)})."
        die = (
            f"{self.face}{self.modified - self.face:+d}={self.modified}"
            if self.modified is not None and self.modified != self.face
            else f"{self.face}"
        )
        changed = (
            f" ({words(self.read_as)} counts as {words(self.status)})"
            if self.read_as is not None and self.read_as is not self.status
            else ""
        )
        status = words(self.status)
        return f"{label} damage {die} vs Rep {self.target_rep}: {status}{changed} ({fd(9)})."


def class_damage_for_face(
    face: int, target_rep: int, damage_class: DamageClass, *, impact: int | None = None
) -> ClassDamage:
    """Read one damage die with a damage class (FD §9).

    ``impact`` given means Old School (16.1): the die is compared with the weapon's
    Impact, low is worse, so Deadly takes 1 off the die instead of adding it.
    """
    if not 1 <= face <= 6:
        raise IllegalActionError(f"a d6 face must be 1-6, got {face}")
    if damage_class is DamageClass.FATIGUE:
        return ClassDamage(damage_class, None, None, target_rep, None)
    mod = DAMAGE_CLASS_MODIFIER[damage_class]
    if impact is not None:
        modified = max(1, face - mod)
        status = old_school_damage(modified, impact)
    else:
        modified = min(6, face + mod)
        status = ranged_damage(modified, target_rep)
    read_as = status
    if damage_class is DamageClass.WOUND and status is Status.OBVIOUSLY_DEAD:
        status = Status.OUT_OF_THE_FIGHT
    return ClassDamage(damage_class, face, modified, target_rep, status, read_as)


def roll_class_damage(
    dice: DiceSource,
    target_rep: int,
    damage_class: DamageClass,
    *,
    options: RulesOptions | None = None,
    impact: int | None = None,
    who: str = "",
    figures: Sequence[str] = (),
) -> ClassDamage:
    """Roll the damage die of one hit with a damage class (FD §9); Fatigue rolls none.

    With Old School, ``impact`` (the weapon's 16.0 Impact) replaces the Rep on 16.1.
    """
    options = options or RulesOptions()
    if damage_class is DamageClass.FATIGUE:
        return class_damage_for_face(1, target_rep, damage_class)
    old = options.old_school
    if old and impact is None:
        raise IllegalActionError("Old School damage (16.1) needs the weapon's Impact")
    roll = dice.roll(
        1,
        section="16.1" if old else "7.9.11",
        table=f"Ranged Combat Damage ({damage_class.label}, FD §9)",
        who=who,
        figures=figures,
    )
    result = class_damage_for_face(
        roll.faces[0], target_rep, damage_class, impact=impact if old else None
    )
    dice.note(roll, words(result.status) if result.status is not None else "Received Fire")
    return result


# --------------------------------------------------------------------------
# Explosive rings


@dataclass(frozen=True, slots=True)
class RingFigure:
    """A figure near an explosion: its distance from the burst point."""

    name: str
    rep: int
    distance: float
    cover_between: bool = False
    prone: bool = False
    id: str = ""

    @property
    def key(self) -> str:
        return figure_id(self.name, self.id)


def ring_class(distance: float) -> DamageClass | None:
    """The damage class at this distance from the burst point; None beyond the rings."""
    if distance < 0:
        raise IllegalActionError(f"a distance cannot be negative, got {distance:g}")
    for ring in EXPLOSIVE_RINGS:
        if distance <= ring.up_to:
            return ring.damage
    return None


@dataclass(frozen=True, slots=True)
class RingVictim(RuleResult):
    name: str
    rep: int
    distance: float
    damage_class: DamageClass | None
    damage: ClassDamage | None
    received_fire: bool
    reason: str
    section: str = fd(9)
    id: str = ""

    @property
    def result(self) -> str:
        if self.damage is not None and self.damage.status is not None:
            return self.damage.status.value
        return "received_fire" if self.received_fire else "unaffected"


@dataclass(frozen=True, slots=True)
class RingsResult(RuleResult):
    PARTS: ClassVar[tuple[str, ...]] = ("figures",)

    figures: tuple[RingVictim, ...]
    section: str = fd(9)

    @property
    def result(self) -> str:
        worst = [v.damage.status for v in self.figures if v.damage and v.damage.status is not None]
        return max(worst, key=lambda s: s.rank).value if worst else "no_damage"

    def explain(self) -> str:
        return " ".join(v.reason for v in self.figures)

    def victim(self, id_: str) -> RingVictim:
        for v in self.figures:
            if figure_id(v.name, v.id) == id_:
                return v
        raise KeyError(id_)


def explosive_rings(
    dice: DiceSource,
    figures: Sequence[RingFigure],
    *,
    options: RulesOptions | None = None,
    impact: int | None = None,
) -> RingsResult:
    """An explosion with rings instead of one blast circle (FD §9).

    Up to 2.5" Deadly, to 5" Severe, to 7.5" Wound; beyond, a Received Fire
    test within 10".  Cover between or prone escapes damage as 7.10.6 (a
    Received Fire test instead).  Figures are resolved in the order given.
    """
    victims: list[RingVictim] = []
    for f in figures:
        check_rep(f.rep)
        cls = ring_class(f.distance)
        at = f'{round(f.distance, 2):g}"'
        if cls is None:
            rf = f.distance <= EXPLOSIVE_RECEIVED_FIRE
            why = (
                f"{f.name} at {at}: beyond the rings, "
                + (f'within {EXPLOSIVE_RECEIVED_FIRE:g}": Received Fire' if rf else "unaffected")
                + f" ({fd(9)})."
            )
            victims.append(RingVictim(f.name, f.rep, f.distance, None, None, rf, why, id=f.key))
            continue
        if f.prone or f.cover_between:
            escape = "prone" if f.prone else "Cover between it and the burst"
            why = (
                f"{f.name} at {at} ({cls.label} ring) escapes damage ({escape}) and takes "
                f"Received Fire (7.10.6, {fd(9)})."
            )
            victims.append(RingVictim(f.name, f.rep, f.distance, cls, None, True, why, id=f.key))
            continue
        dmg = roll_class_damage(
            dice, f.rep, cls, options=options, impact=impact, who=f.name, figures=(f.key,)
        )
        why = f"{f.name} at {at} ({cls.label} ring): {dmg.explain()}"
        victims.append(RingVictim(f.name, f.rep, f.distance, cls, dmg, False, why, id=f.key))
    return RingsResult(tuple(victims))


# --------------------------------------------------------------------------
# Knockdown


@dataclass(frozen=True, slots=True)
class PushResult(RuleResult):
    """The 1" push of a knocked-down figure (FD §8)."""

    start: Point
    end: Point
    distance: float
    stopped_by_terrain: bool
    section: str = fd(8)

    @property
    def result(self) -> str:
        return "stopped" if self.stopped_by_terrain else "pushed"

    def explain(self) -> str:
        if self.stopped_by_terrain:
            return (
                f'pushed {self.distance:.2f}" away from the shooter, stopped by terrain ({fd(8)})'
            )
        return f'pushed {self.distance:g}" directly away from the shooter ({fd(8)})'


def push_away(
    shooter: Point,
    target: Point,
    can_enter: CanEnter | None = None,
    *,
    distance: float = KNOCKDOWN_PUSH,
    probe: float = PUSH_PROBE,
) -> PushResult:
    """Push a figure ``distance`` inches directly away from the shooter (FD §8).

    The line is probed every ``probe`` inches; the figure stops at the last
    point before one it cannot enter.  No ``can_enter`` means open ground.
    """
    dx, dy = target[0] - shooter[0], target[1] - shooter[1]
    length = math.hypot(dx, dy)
    if length == 0 or distance <= 0:
        return PushResult(target, target, 0.0, False)
    ux, uy = dx / length, dy / length
    steps = max(1, math.ceil(distance / probe))
    last = target
    for i in range(1, steps + 1):
        d = min(distance, i * probe)
        point = (target[0] + ux * d, target[1] + uy * d)
        if can_enter is not None and not can_enter(point):
            moved = math.hypot(last[0] - target[0], last[1] - target[1])
            return PushResult(target, last, moved, True)
        last = point
    return PushResult(target, last, distance, False)


@dataclass(frozen=True, slots=True)
class KnockdownResult(RuleResult):
    """A hit figure's knockdown roll (FD §8)."""

    name: str
    knockdown: int
    face: int | None
    """None when no roll was due (no knockdown number, already prone, OOF/OD)."""
    knocked_down: bool
    push: PushResult | None
    reason: str
    section: str = fd(8)
    id: str = ""

    @property
    def result(self) -> str:
        return "knocked_down" if self.knocked_down else "stands"


def knockdown(
    dice: DiceSource,
    name: str,
    knockdown_number: int,
    *,
    status: Status | None = None,
    prone: bool = False,
    shooter_at: Point | None = None,
    target_at: Point | None = None,
    can_enter: CanEnter | None = None,
    id: str = "",
) -> KnockdownResult:
    """A figure hit and not Out of the Fight or Obviously Dead rolls 1d6 (FD §8).

    At or under the weapon's knockdown number it is knocked prone and pushed
    1" directly away from the shooter, stopping at terrain it cannot enter
    (given both points; without them the push is left to the caller).
    """
    key = figure_id(name, id)
    if knockdown_number <= 0:
        return KnockdownResult(name, 0, None, False, None, "", id=key)
    if status in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD):
        return KnockdownResult(
            name,
            knockdown_number,
            None,
            False,
            None,
            f"{name} is {words(status)}: no knockdown roll ({fd(8)}).",
            id=key,
        )
    if prone:
        return KnockdownResult(
            name,
            knockdown_number,
            None,
            False,
            None,
            f"{name} is already prone: not pushed ({fd(8)}).",
            id=key,
        )
    roll = dice.roll(
        1, section=fd(8), table="Knockdown", who=name, target=knockdown_number, figures=(key,)
    )
    face = roll.faces[0]
    down = face <= knockdown_number
    push = None
    if down and shooter_at is not None and target_at is not None:
        push = push_away(shooter_at, target_at, can_enter)
    if down:
        why = (
            f"{name} knockdown {face} ≤ {knockdown_number}: knocked prone"
            + (
                f", {push.explain().removesuffix(f' ({fd(8)})')}"
                if push
                else ', pushed 1" away from the shooter'
            )
            + f" ({fd(8)})."
        )
    else:
        why = f"{name} knockdown {face} > {knockdown_number}: stays up ({fd(8)})."
    dice.note(roll, "knocked prone" if down else "stays up", passed=int(down))
    return KnockdownResult(name, knockdown_number, face, down, push, why, id=key)
