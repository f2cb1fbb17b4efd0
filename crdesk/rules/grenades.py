"""Grenades 7.10, blast circles 7.10.5-7.10.6, Rocket Launchers (7.9, 7.10.5) and
firing at buildings 8.4.

Who stands in a blast circle, and who has Cover between itself and the spot, is
geometry's answer (:mod:`crdesk.geometry`); here they arrive as flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import BandType, Status
from crdesk.options import RulesOptions
from crdesk.rules.common import (
    RuleResult,
    TableRoll,
    check_rep,
    faces_text,
    figure_id,
    pass_roll,
)
from crdesk.rules.damage import DamageResult, roll_damage
from crdesk.rules.shooting import TargetSpec, shot_circumstances, shot_hits
from crdesk.tables import (
    GRENADE,
    GRENADE_BANDS,
    GRENADE_READY,
    GRENADE_THROW,
    UPPER_AREA_COLLAPSES,
    GrenadeReady,
    GrenadeThrow,
    weapon_stats,
)

GRENADE_RANGE = 6.0
"""A grenade is thrown up to 6" (7.10.3)."""


def ready_grenade(
    dice: DiceSource, rep: int, *, band: BandType | None = None, who: str = ""
) -> TableRoll:
    """Ready a grenade 7.10.1 (active only, half its movement): 1d6 vs Rep."""
    check_rep(rep)
    if band is not None and band not in GRENADE_BANDS:
        raise IllegalActionError(
            f"{band.value.title()} forces have no grenades (Military, Guerilla, Militia only)"
        )
    roll, passed = pass_roll(
        dice, 1, rep, section="7.10.1", table="Ready a Grenade", who=who, cap=1
    )
    code = GRENADE_READY[passed]
    words = (
        "readied; may be thrown immediately"
        if code is GrenadeReady.THROW_NOW
        else "readied; may not be thrown until next active or in reaction"
    )
    dice.note(roll, words, passed=passed)
    return TableRoll(
        "7.10.1",
        "Ready a Grenade",
        who,
        roll.faces,
        rep,
        passed,
        code.value,
        f"{who or 'Figure'} rolled {faces_text(roll.faces)} vs Rep {rep}: {words} (7.10.1).",
    )


def throw_grenade(
    dice: DiceSource,
    rep: int,
    *,
    distance: float,
    spot_in_los: bool,
    who: str = "",
) -> TableRoll:
    """Throw a grenade 7.10.3: 2d6 vs Rep.  Result ``on_spot``, ``miss`` or ``oops``.

    A miss does no damage, but everyone who would have been in the circle takes
    Received Fire; oops centres the blast on the thrower.
    """
    check_rep(rep)
    if distance > GRENADE_RANGE:
        raise IllegalActionError(f'a grenade is thrown up to 6", the spot is {distance:g}"')
    roll, passed = pass_roll(dice, 2, rep, section="7.10.3", table="Throw a Grenade", who=who)
    row = GRENADE_THROW[passed]
    if row is GrenadeThrow.ON_SPOT_IF_IN_LOS:
        code = GrenadeThrow.ON_SPOT if spot_in_los else GrenadeThrow.MISS
    else:
        code = row
    words = {
        GrenadeThrow.ON_SPOT: "lands on the spot: centre the blast there",
        GrenadeThrow.MISS: "spot not in LOS: misses; those in the circle take Received Fire",
        GrenadeThrow.OOPS: "Oops! dropped at the thrower's feet: centre the blast on it",
    }[code]
    dice.note(roll, words, passed=passed)
    return TableRoll(
        "7.10.3",
        "Throw a Grenade",
        who,
        roll.faces,
        rep,
        passed,
        code.value,
        f"{who or 'Thrower'} passed {passed}: {words} (7.10.3).",
    )


@dataclass(frozen=True, slots=True)
class BlastFigure:
    """A figure whose base is wholly or partly in the blast circle (7.10.5)."""

    name: str
    rep: int
    cover_between: bool = False
    """Cover (or a standing figure) between it and the spot: escapes damage (7.10.6)."""
    prone: bool = False
    id: str = ""
    """The figure's id; defaults to the name when empty.  Results are keyed by it."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)


@dataclass(frozen=True, slots=True)
class BlastVictim(RuleResult):
    """What the blast did to one figure (``id``: its id, or its name when it had none)."""

    name: str
    rep: int
    escaped: bool
    damage: DamageResult | None
    reason: str
    section: str = "7.10.6"
    id: str = ""

    @property
    def received_fire(self) -> bool:
        """Escaping damage means taking the Received Fire test (7.10.6)."""
        return self.escaped

    @property
    def result(self) -> str:
        return self.damage.result if self.damage is not None else "received_fire"


@dataclass(frozen=True, slots=True)
class BlastResult(RuleResult):
    PARTS: ClassVar[tuple[str, ...]] = ("figures",)

    figures: tuple[BlastVictim, ...]
    section: str = "7.10.5"

    @property
    def result(self) -> str:
        worst = [v.damage.status for v in self.figures if v.damage is not None]
        return max(worst, key=lambda s: s.rank).value if worst else "received_fire"

    def explain(self) -> str:
        return " ".join(v.reason for v in self.figures)

    def victim(self, id_: str) -> BlastVictim:
        """The figure with this id (its name when it was given no id)."""
        for v in self.figures:
            if figure_id(v.name, v.id) == id_:
                return v
        raise KeyError(id_)


def blast(
    dice: DiceSource,
    figures: Sequence[BlastFigure],
    *,
    weapon: str = GRENADE,
    options: RulesOptions | None = None,
) -> BlastResult:
    """Resolve a blast circle: each affected figure rolls on 7.9.11 (16.1 Old School)
    unless prone or with Cover between it and the spot — those take Received Fire."""
    options = options or RulesOptions()
    for f in figures:
        check_rep(f.rep)
    victims = []
    for f in figures:
        if f.prone or f.cover_between:
            why = "prone" if f.prone else "Cover between it and the spot"
            victims.append(
                BlastVictim(
                    f.name,
                    f.rep,
                    True,
                    None,
                    f"{f.name} escapes damage ({why}) and takes Received Fire (7.10.6).",
                    id=f.key,
                )
            )
            continue
        dmg = roll_damage(dice, f.rep, weapon=weapon, options=options, who=f.name, figures=(f.key,))
        victims.append(
            BlastVictim(f.name, f.rep, False, dmg, f"{f.name}: {dmg.explain()}", id=f.key)
        )
    return BlastResult(tuple(victims))


def missed_blast(figures: Sequence[BlastFigure], *, weapon: str = GRENADE) -> BlastResult:
    """A grenade that missed (7.10.3 pass 1 out of LOS) or a Rocket Launcher shot off
    target (7.10.5, ``weapon`` "RL"): no damage, all take Received Fire."""
    what = "Rocket Launcher missed" if weapon == "RL" else "grenade missed"
    where = "7.10.5" if weapon == "RL" else "7.10.3"
    return BlastResult(
        tuple(
            BlastVictim(
                f.name,
                f.rep,
                True,
                None,
                f"{f.name}: {what}: Received Fire ({where}).",
                id=f.key,
            )
            for f in figures
        )
    )


@dataclass(frozen=True, slots=True)
class RocketShot(RuleResult):
    """A Rocket Launcher shot at a spot (7.10.5): on target or not; always out of ammo."""

    face: int
    total: int
    on_target: bool
    reason: str
    out_of_ammo: bool = True
    section: str = "7.10.5"

    @property
    def result(self) -> str:
        return "hit" if self.on_target else "miss"


def rocket_shot(
    dice: DiceSource,
    rep: int,
    *,
    target: TargetSpec | None = None,
    fast_moving: bool = False,
    rush_shot: bool = False,
    who: str = "",
) -> RocketShot:
    """Fire a Rocket Launcher at the figure on the spot (or at a building area).

    Uses Ranged Combat 7.9.10 at the spot: a total of 8 or more is on target (7.10.5;
    8.4: "a total greater than 7"), so the game gives no ``target`` -- the figure's
    Cover or posture is for the blast (7.10.6); the shooter's own Fast Moving or Rush
    Shot still miss on 8 and 9 (the table's shooter column).  A miss makes the figures
    in the circle take Received Fire.  The launcher is then out of ammo (7.9).
    """
    check_rep(rep)
    roll = dice.roll(1, section="7.9.10", table="Ranged Combat (Rocket Launcher)", who=who)
    face = roll.faces[0]
    spec = target or TargetSpec("spot")
    circ = shot_circumstances(spec, 0, fast_moving=fast_moving, rush_shot=rush_shot)
    hit, why = shot_hits(face, rep, circ)
    words = "on target" if hit else "miss: Received Fire for those in the circle"
    dice.note(roll, words + "; out of ammo")
    return RocketShot(
        face,
        face + rep,
        hit,
        f"Rocket Launcher {why}: {words}; the launcher is out of ammo (7.10.5, 7.9.2).",
    )


@dataclass(frozen=True, slots=True)
class Occupant(RuleResult):
    """What a building hit did to one occupant (``id``: its id, or its name)."""

    name: str
    rep: int
    status: Status | None
    """Damage taken, or None for a Received Fire test."""
    reason: str
    section: str = "8.4"
    id: str = ""

    @property
    def result(self) -> str:
        return self.status.value if self.status is not None else "received_fire"


OccupantSpec = tuple[str, int] | tuple[str, int, str]
"""An occupant of a building area: (name, Rep) or (name, Rep, id); the id defaults to
the name."""


def _occupant(spec: OccupantSpec) -> tuple[str, int, str]:
    if len(spec) not in (2, 3):
        raise IllegalActionError(f"an occupant is (name, Rep) or (name, Rep, id), got {spec!r}")
    name, rep = spec[0], spec[1]
    return name, rep, figure_id(name, spec[2] if len(spec) == 3 else "")


@dataclass(frozen=True, slots=True)
class BuildingHit(RuleResult):
    """What a Rocket Launcher hit did to a building (8.4)."""

    PARTS: ClassVar[tuple[str, ...]] = ("lower", "upper")

    upper_die: int | None
    upper_collapsed: bool
    lower: tuple[Occupant, ...]
    upper: tuple[Occupant, ...]
    section: str = "8.4"

    @property
    def result(self) -> str:
        return "area_collapses_with_upper" if self.upper_collapsed else "area_collapses"

    def explain(self) -> str:
        head = "The area hit collapses (8.4)."
        if self.upper_die is not None:
            head += f" Upper area die {self.upper_die}: " + (
                "it collapses too (1-3)." if self.upper_collapsed else "it stays (4-6)."
            )
        elif self.upper_collapsed:
            head += " It was the last area of its level: the area above collapses too."
        return " ".join([head] + [o.reason for o in self.lower + self.upper])


def rocket_vs_building(
    dice: DiceSource,
    occupants: Sequence[OccupantSpec],
    *,
    upper_occupants: Sequence[OccupantSpec] | None = None,
    last_area_of_level: bool = False,
    options: RulesOptions | None = None,
) -> BuildingHit:
    """Firing at buildings 8.4, after a Rocket Launcher hit (total over 7).

    The hit area collapses and its occupants roll on 7.9.11.  If an area is above
    it (``upper_occupants`` not None) roll 1d6 first: 1-3 it collapses too — the
    lower occupants are Obviously Dead and the upper ones roll on 7.9.11; 4-6 it
    stays and its occupants take Received Fire.  When the hit area was the last of
    its level the area above collapses without a roll.  Dice order: upper-area die,
    then damage dice lower area first.  Occupants are (name, Rep) or (name, Rep, id).
    """
    options = options or RulesOptions()
    upper_die: int | None = None
    upper_collapsed = False
    if upper_occupants is not None:
        if last_area_of_level:
            upper_collapsed = True
        else:
            roll = dice.roll(1, section="8.4", table="Firing at Buildings", who="upper area")
            upper_die = roll.faces[0]
            lo, hi = UPPER_AREA_COLLAPSES
            upper_collapsed = lo <= upper_die <= hi
            dice.note(roll, "upper area collapses" if upper_collapsed else "upper area stays")
    rl = weapon_stats("RL", options.old_school).code
    lower: list[Occupant] = []
    for name, rep, oid in map(_occupant, occupants):
        if upper_collapsed:
            lower.append(
                Occupant(
                    name,
                    rep,
                    Status.OBVIOUSLY_DEAD,
                    f"{name}: crushed under the upper floor: Obviously Dead (8.4).",
                    id=oid,
                )
            )
        else:
            d = roll_damage(dice, rep, weapon=rl, options=options, who=name, figures=(oid,))
            lower.append(Occupant(name, rep, d.status, f"{name}: {d.explain()}", id=oid))
    upper: list[Occupant] = []
    for name, rep, oid in map(_occupant, upper_occupants or ()):
        if upper_collapsed:
            d = roll_damage(dice, rep, weapon=rl, options=options, who=name, figures=(oid,))
            upper.append(Occupant(name, rep, d.status, f"{name} (upper): {d.explain()}", id=oid))
        else:
            upper.append(
                Occupant(name, rep, None, f"{name} (upper): takes Received Fire (8.4).", id=oid)
            )
    return BuildingHit(upper_die, upper_collapsed, tuple(lower), tuple(upper))
