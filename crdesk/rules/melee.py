"""Melee: Charge into Melee 7.11.2, Melee Combat 7.11.4, Melee Damage 7.11.5,
multiple figure melees 7.11.6 and the -1 to Rep restored after the turn's melees (7.8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from crdesk.dice import DiceSource, count_passes, dice_count
from crdesk.errors import IllegalActionError
from crdesk.model import MeleeWeapon, Status
from crdesk.options import RulesOptions
from crdesk.rules.common import (
    RuleResult,
    check_rep,
    faces_text,
    figure_id,
    success_roll,
    words,
)
from crdesk.tables import (
    CHARGE_TARGET_DICE,
    MAX_MELEE_ATTACKERS,
    MELEE_VS_PRONE_DICE,
    MELEE_WEAPON_DICE,
    ChargeResult,
    charge_result,
    melee_damage,
)


class Approach(StrEnum):
    """Where a charge comes from, relative to the target's facing (1, 7.11.2)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


def charge_approach(
    start_angle: float, end_angle: float, options: RulesOptions | None = None
) -> Approach:
    """Front, flank or rear from the charger's bearings off the target's facing (1, 7.11.2).

    Angles are degrees between the target's facing and the direction to the charger
    at the start and at the end of its move (geometry measures them).  Rear: starts
    **and** ends behind the target's front 180°.  Flank (interpretation
    ``flank_is_outside_front_cone``): starts outside the front cone of
    ±``flank_half_angle`` but not to the rear; switched off, there is no flank.
    """
    options = options or RulesOptions()
    interp = options.interpretations
    start, end = abs(_wrap(start_angle)), abs(_wrap(end_angle))
    if start > 90 and end > 90:
        return Approach.REAR
    if interp.flank_is_outside_front_cone and start > interp.flank_half_angle:
        return Approach.FLANK
    return Approach.FRONT


def _wrap(angle: float) -> float:
    """An angle folded into -180..180 degrees."""
    return (angle + 180.0) % 360.0 - 180.0


@dataclass(frozen=True, slots=True)
class ChargeDeclaration(RuleResult):
    """Whether a charge may be declared (7.11.2) and why."""

    allowed: bool
    reach_needed: float
    reason: str
    section: str = "7.11.2"

    @property
    def result(self) -> str:
        return "charge_allowed" if self.allowed else "charge_not_allowed"


def can_declare_charge(
    *,
    distance: float,
    remaining_move: float,
    has_los: bool,
    active: bool = True,
    options: RulesOptions | None = None,
    cost_of: Callable[[float], float] | None = None,
) -> ChargeDeclaration:
    """May this figure declare a Charge into Melee? (7.11.2)

    It must be active and have clear LOS to the target.  Interpretation
    ``charge_reach_within_six``: its remaining movement must reach a spot within
    6" of the target (default), or reach base contact (other reading).
    ``distance`` is base to base.  ``cost_of``: what going that many inches towards
    the target costs in movement (woods double, a door 2", 7.4, 8.2); by default
    the ground is open.
    """
    options = options or RulesOptions()
    if options.interpretations.charge_reach_within_six:
        needed, spot = max(0.0, distance - 6.0), 'a spot within 6" of the target'
    else:
        needed, spot = distance, "base contact"
    if cost_of is not None and needed > 0:
        needed = round(cost_of(needed), 3)
    if not active:
        return ChargeDeclaration(False, needed, "Only an active figure may charge (7.11.2).")
    if not has_los:
        return ChargeDeclaration(
            False, needed, "The charger needs clear LOS to the target (7.11.2)."
        )
    ok = remaining_move >= needed
    return ChargeDeclaration(
        ok,
        needed,
        f'Reaching {spot} needs {needed:g}", {remaining_move:g}" of movement left: '
        + ("may charge" if ok else "too far")
        + " (7.11.2).",
    )


def target_charge_dice(
    *, in_cover: bool, approach: Approach, options: RulesOptions | None = None
) -> int:
    """The target's dice on 7.11.2: 2, +1 in Cover, -1 flank, -2 rear.

    Interpretation ``flank_is_outside_front_cone``: when switched off no charge
    counts as a flank charge.
    """
    options = options or RulesOptions()
    mods = [CHARGE_TARGET_DICE["cover"] if in_cover else 0]
    if approach is Approach.REAR:
        mods.append(CHARGE_TARGET_DICE["rear"])
    elif approach is Approach.FLANK and options.interpretations.flank_is_outside_front_cone:
        mods.append(CHARGE_TARGET_DICE["flank"])
    return dice_count(2, *mods)


@dataclass(frozen=True, slots=True)
class ChargerResult(RuleResult):
    """One charger's roll against the target's (``id``: its id, or its name)."""

    name: str
    rep: int
    faces: tuple[int, ...]
    passed: int
    target_passed: int
    outcome: ChargeResult
    reason: str
    section: str = "7.11.2"
    id: str = ""

    @property
    def result(self) -> str:
        return self.outcome.value


@dataclass(frozen=True, slots=True)
class ChargeTestResult(RuleResult):
    """The target's one roll compared with each charger's (7.11.2)."""

    PARTS: ClassVar[tuple[str, ...]] = ("chargers",)

    target: str
    target_rep: int
    target_dice: int
    target_faces: tuple[int, ...]
    target_passed: int
    chargers: tuple[ChargerResult, ...]
    section: str = "7.11.2"
    target_id: str = ""
    """The target's id (its name when it was given none); ``target`` is its name."""

    @property
    def result(self) -> str:
        return self.chargers[0].result if len(self.chargers) == 1 else "several_chargers"

    def charger(self, id_: str) -> ChargerResult:
        """The charger with this id (its name when it was given no id)."""
        for c in self.chargers:
            if figure_id(c.name, c.id) == id_:
                return c
        raise KeyError(id_)

    def explain(self) -> str:
        return (
            f"{self.target} rolled {faces_text(self.target_faces)} ({self.target_dice}d6) vs "
            f"Rep {self.target_rep}: passed {self.target_passed}. "
            + " ".join(c.reason for c in self.chargers)
        )


ChargeFigure = tuple[str, int] | tuple[str, int, str]
"""A figure in a charge: (name, Rep) or (name, Rep, id); the id defaults to the name."""


def _charge_figure(figure: ChargeFigure) -> tuple[str, int, str]:
    """(name, Rep, id) of a charge figure, the id defaulting to the name."""
    if len(figure) not in (2, 3):
        raise IllegalActionError(
            f"a charge figure is (name, Rep) or (name, Rep, id), got {figure!r}"
        )
    name, rep = figure[0], figure[1]
    return name, rep, figure_id(name, figure[2] if len(figure) == 3 else "")


def charge(
    dice: DiceSource,
    chargers: Sequence[ChargeFigure],
    target: ChargeFigure,
    *,
    in_cover: bool = False,
    approach: Approach = Approach.FRONT,
    options: RulesOptions | None = None,
) -> ChargeTestResult:
    """Charge into Melee 7.11.2: each charger rolls 2d6 vs Rep, then the target once.

    Chargers and target are (name, Rep) or (name, Rep, id): results are keyed by the
    id (the name when none is given), the sentences print the name.  Passes are
    capped at 2 (4.1).  Dice order: chargers in the given order, then the target.
    """
    if not chargers:
        raise IllegalActionError("a charge needs a charger")
    check_attackers(len(chargers))
    tname, trep, tid = _charge_figure(target)
    check_rep(trep)
    rolled = []
    for name, rep, cid in map(_charge_figure, chargers):
        check_rep(rep)
        roll = dice.roll(
            2,
            section="7.11.2",
            table="Charge into Melee",
            who=name,
            target=rep,
            figures=(cid,),
        )
        passed = count_passes(roll.faces, rep)
        dice.note(roll, f"passed {passed}", passed=passed)
        rolled.append((name, rep, cid, roll.faces, passed))
    n = target_charge_dice(in_cover=in_cover, approach=approach, options=options)
    troll = dice.roll(
        n, section="7.11.2", table="Charge into Melee", who=tname, target=trep, figures=(tid,)
    )
    tpassed = count_passes(troll.faces, trep)
    results = []
    for name, rep, cid, faces, passed in rolled:
        outcome = charge_result(tpassed, passed)
        text = {
            ChargeResult.TARGET_FIRES: "target passed more: the target fires; a charger "
            "not stopped moves into melee"
            + (
                ", a missed one after a Received Fire test"
                if (options or RulesOptions()).interpretations.charge_missed_charger_tests
                else ", no reaction test"
            ),
            ChargeResult.TARGET_RUSH_SHOTS: "same passes: the target Rush Shots; a charger "
            "not stopped moves into melee, no reaction test",
            ChargeResult.CHARGER_MOVES_IN: "target passed fewer: it may not fire; the charger "
            "moves into melee",
        }[outcome]
        results.append(
            ChargerResult(
                name,
                rep,
                faces,
                passed,
                tpassed,
                outcome,
                f"{name} rolled {faces_text(faces)} vs Rep {rep}: passed {passed}; {text} "
                f"(7.11.2).",
                id=cid,
            )
        )
    dice.note(troll, "; ".join(f"{c.name}: {c.outcome.value}" for c in results), passed=tpassed)
    return ChargeTestResult(tname, trep, n, troll.faces, tpassed, tuple(results), target_id=tid)


@dataclass(frozen=True, slots=True)
class SingleShotChoice(RuleResult):
    """Whom a target with a one-shot weapon fires at when several charge it (7.11.2).

    ``charger`` is the charger's name, ``charger_id`` its id (None: may not fire).
    """

    charger: str | None
    rush_shot: bool
    reason: str
    section: str = "7.11.2"
    charger_id: str | None = None

    @property
    def result(self) -> str:
        if self.charger is None:
            return "may_not_fire"
        return "rush_shot" if self.rush_shot else "target_fires"


def single_shot_target(test: ChargeTestResult, chosen: str | None = None) -> SingleShotChoice:
    """The digest's reading of 7.11.2 for a single-shot weapon facing several chargers.

    It fires at one charger: the one that passed fewer dice among those it may
    fire at (ties: the first declared).  The player may pick another
    (``chosen``, the charger's id — its name when it was given no id), but that
    shot counts as a Rush Shot.  Against a charger that
    passed as many dice as the target, the shot is a Rush Shot anyway.

    >>> from crdesk.dice import ScriptedDice
    >>> t = charge(ScriptedDice([1, 2, 6, 6, 1, 3]), [("A", 4), ("B", 4)], ("T", 4))
    >>> single_shot_target(t).charger, single_shot_target(t, "A").rush_shot
    ('B', True)
    """
    allowed = [c for c in test.chargers if c.outcome is not ChargeResult.CHARGER_MOVES_IN]
    if not allowed:
        return SingleShotChoice(
            None, False, f"{test.target} passed fewer: it may not fire (7.11.2)."
        )
    best = min(allowed, key=lambda c: c.passed)
    best_id = figure_id(best.name, best.id)
    rushed = best.outcome is ChargeResult.TARGET_RUSH_SHOTS
    if chosen is None or chosen == best_id:
        return SingleShotChoice(
            best.name,
            rushed,
            f"{test.target} fires at {best.name}, who passed fewest ({best.passed})"
            + (", with the Rush Shot penalty" if rushed else "")
            + " (7.11.2).",
            charger_id=best_id,
        )
    pick = next((c for c in allowed if figure_id(c.name, c.id) == chosen), None)
    if pick is None:
        named = next((c.name for c in test.chargers if figure_id(c.name, c.id) == chosen), chosen)
        raise IllegalActionError(f"{test.target} may not fire at {named} (7.11.2)")
    return SingleShotChoice(
        pick.name,
        True,
        f"{test.target} fires at {pick.name} instead of {best.name}: a Rush Shot (7.11.2).",
        charger_id=chosen,
    )


@dataclass(frozen=True, slots=True)
class ChargerFate(RuleResult):
    goes_on: bool
    received_fire: bool
    reason: str
    section: str = "7.11.2"

    @property
    def result(self) -> str:
        return "charger_moves_in" if self.goes_on else "charger_stopped"


_GOES_ON = (Status.CARRY_ON, Status.RETURN_FIRE, Status.RUSH_SHOT)


def charger_after_fire(
    outcome: ChargeResult,
    *,
    hit: bool,
    reaction: Status | None = None,
    options: RulesOptions | None = None,
) -> ChargerFate:
    """Does a charger fired on by the target go on into melee? (7.11.2)

    Hit: stopped (damage as normal).  Missed when the target passed more: the
    book's table says "No Reaction Tests taken", so it goes on into melee with no
    Received Fire test; the house reading ``charge_missed_charger_tests`` (off by
    default) makes it take Received Fire and go on only on Return Fire / Rush
    Shot / Carry On (``reaction``).  Missed after a Rush Shot: goes on, no test.
    """
    options = options or RulesOptions()
    if outcome is ChargeResult.CHARGER_MOVES_IN:
        return ChargerFate(True, False, "The target may not fire: the charger moves in.")
    if hit:
        return ChargerFate(False, False, "Hit by the target's fire: the charger is stopped.")
    if outcome is ChargeResult.TARGET_RUSH_SHOTS:
        return ChargerFate(True, False, "Missed by the Rush Shot: the charger moves in.")
    if not options.interpretations.charge_missed_charger_tests:
        return ChargerFate(
            True, False, "Missed: no Reaction Test taken; the charger moves into melee (7.11.2)."
        )
    if reaction is None:
        raise IllegalActionError("a missed charger's Received Fire result is needed (7.11.2)")
    goes = reaction in _GOES_ON
    return ChargerFate(
        goes,
        True,
        f"Missed: Received Fire {words(reaction)}: "
        + ("goes on into melee." if goes else "the charge stops."),
    )


def check_attackers(count: int) -> None:
    """Up to three figures may melee one figure (7.11.6)."""
    if count > MAX_MELEE_ATTACKERS:
        raise IllegalActionError(
            f"at most {MAX_MELEE_ATTACKERS} figures may melee one figure, got {count} (7.11.6)"
        )


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of a one-on-one melee (7.11.4)."""

    name: str
    rep: int
    weapon: MeleeWeapon = MeleeWeapon.NONE
    opponent_prone: bool = False
    """Attacking a prone opponent: +1d6."""
    id: str = ""
    """The figure's id; defaults to the name when empty.  Results are keyed by it."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)

    def dice(self, rep: int) -> int:
        bonus = MELEE_WEAPON_DICE[self.weapon] + (MELEE_VS_PRONE_DICE if self.opponent_prone else 0)
        return dice_count(rep, bonus)

    def extra_dice(self) -> str:
        """What the roll adds to the Rep's dice, for the event's text (7.11.1, 7.11.4):
        ", one-hand weapon +1d6, foe prone +1d6", or nothing."""
        parts = []
        if MELEE_WEAPON_DICE[self.weapon]:
            kind = self.weapon.value.replace("_", "-")
            parts.append(f"{kind} weapon +{MELEE_WEAPON_DICE[self.weapon]}d6")
        if self.opponent_prone:
            parts.append(f"foe prone +{MELEE_VS_PRONE_DICE}d6")
        return "".join(f", {p}" for p in parts)


@dataclass(frozen=True, slots=True)
class MeleeRound(RuleResult):
    """One round: both roll, successes compared; a win rolls Melee Damage.

    ``winner`` is the winner's name, ``winner_id`` its id (None on a tie).
    """

    a_rep: int
    b_rep: int
    a_faces: tuple[int, ...]
    b_faces: tuple[int, ...]
    a_successes: int
    b_successes: int
    winner: str | None
    damage_die: int | None = None
    score: int | None = None
    damage: Status | None = None
    reason: str = ""
    section: str = "7.11.4"
    winner_id: str | None = None

    @property
    def result(self) -> str:
        """The book's words for the round: fight again on a tie, else the damage (7.11.5)."""
        if self.winner is None:
            return "fight_again"
        return self.damage.value if self.damage is not None else "win"


@dataclass(frozen=True, slots=True)
class MeleeResult(RuleResult):
    """A whole melee between two figures, to Out of the Fight or Obviously Dead.

    ``a``, ``b``, ``winner`` and ``loser`` are names (what the sentences print);
    ``a_id``, ``b_id``, ``winner_id`` and ``loser_id`` the fighters' ids (their
    names when they were given none); ``rep_lost`` is keyed by id.
    """

    PARTS: ClassVar[tuple[str, ...]] = ("rounds",)

    a: str
    b: str
    rounds: tuple[MeleeRound, ...]
    winner: str
    loser: str
    loser_status: Status
    rep_lost: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    section: str = "7.11.5"
    a_id: str = ""
    b_id: str = ""
    winner_id: str = ""
    loser_id: str = ""

    @property
    def result(self) -> str:
        return self.loser_status.value

    def explain(self) -> str:
        return " ".join(r.reason for r in self.rounds)


DamageHook = Callable[[str, Status], Status]
"""Called with (loser's id, damage) before it applies; returns the damage that does.

The id is the :class:`Fighter`'s ``id``, or its name when it was given none.

Lets the caller apply Star Power, Larger Than Life or Cheating Death (5.2) inside a
melee: a Star whose Obviously Dead is reduced to -1 to Rep fights on."""


def melee(
    dice: DiceSource,
    a: Fighter,
    b: Fighter,
    *,
    adjust_damage: DamageHook | None = None,
    max_rounds: int = 1000,
) -> MeleeResult:
    """Fight a one-on-one melee to the end (7.11.4, 7.11.5).

    Each round both roll Rep d6 (current Rep) + weapon + prone dice, counting
    successes; equal: fight again.  The winner rolls 1d6 + the margin: 6+ Obviously
    Dead, ≥ loser's Rep Out of the Fight, lower: loser -1 to Rep and another round.
    Dice order per round: ``a``, ``b``, then the damage die.  The fighters are
    keyed by id (:attr:`Fighter.key`), so two of the same name may fight.
    """
    check_rep(a.rep)
    check_rep(b.rep)
    if a.key == b.key:
        raise IllegalActionError("the two fighters need different ids (or names)")
    reps = {a.key: a.rep, b.key: b.rep}
    rounds: list[MeleeRound] = []
    for _ in range(max_rounds):
        ra, rb = reps[a.key], reps[b.key]
        roll_a, sa = success_roll(
            dice, a.dice(ra), section="7.11.4", table="Melee Combat", who=a.name, figures=(a.key,)
        )
        roll_b, sb = success_roll(
            dice, b.dice(rb), section="7.11.4", table="Melee Combat", who=b.name, figures=(b.key,)
        )
        head = (
            f"{a.name} (Rep {ra}{a.extra_dice()}) rolled {faces_text(roll_a.faces)}: {sa}; "
            f"{b.name} (Rep {rb}{b.extra_dice()}) rolled {faces_text(roll_b.faces)}: {sb}"
        )
        if sa == sb:
            rounds.append(
                MeleeRound(
                    ra,
                    rb,
                    roll_a.faces,
                    roll_b.faces,
                    sa,
                    sb,
                    None,
                    reason=f"{head}: equal, fight again (7.11.4).",
                )
            )
            continue
        win, lose = (a, b) if sa > sb else (b, a)
        margin = abs(sa - sb)
        droll = dice.roll(
            1, section="7.11.5", table="Melee Damage", who=win.name, figures=(win.key,)
        )
        die = droll.faces[0]
        score = die + margin
        status = melee_damage(score, reps[lose.key])
        dice.note(droll, f"{lose.name}: {words(status)}")
        text = f"{score} vs {lose.name}'s Rep {reps[lose.key]}: {words(status)}"
        if adjust_damage is not None:
            adjusted = adjust_damage(lose.key, status)
            if adjusted is not status:
                text += f", becomes {words(adjusted)} (5.2)"
                status = adjusted
        if status is Status.MINUS_ONE_REP:
            text += "; fight another round"
        rounds.append(
            MeleeRound(
                ra,
                rb,
                roll_a.faces,
                roll_b.faces,
                sa,
                sb,
                win.name,
                die,
                score,
                status,
                f"{head}: {win.name} wins by {margin}; damage {die}+{margin}={text} (7.11.5).",
                winner_id=win.key,
            )
        )
        if status is Status.MINUS_ONE_REP:
            reps[lose.key] -= 1
            continue
        lost = {k: orig - reps[k] for k, orig in ((a.key, a.rep), (b.key, b.rep))}
        return MeleeResult(
            a.name,
            b.name,
            tuple(rounds),
            win.name,
            lose.name,
            status,
            MappingProxyType(lost),
            a_id=a.key,
            b_id=b.key,
            winner_id=win.key,
            loser_id=lose.key,
        )
    raise IllegalActionError(f"melee still undecided after {max_rounds} rounds")


@dataclass(frozen=True, slots=True)
class MeleeRepLosses:
    """-1 to Rep from melee this turn (7.8): kept until the turn's last melee is over,
    then restored — even for figures that went Out of the Fight.  Keyed by figure id
    (:attr:`MeleeResult.rep_lost`)."""

    lost: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def add(self, result: MeleeResult) -> MeleeRepLosses:
        merged = dict(self.lost)
        for fid, n in result.rep_lost.items():
            if n:
                merged[fid] = merged.get(fid, 0) + n
        return MeleeRepLosses(MappingProxyType(merged))

    def current_rep(self, id_: str, rep: int) -> int:
        """The Rep the figure with this id fights with now (its Rep less this turn's
        melee losses)."""
        return rep - self.lost.get(id_, 0)

    def restore(self, current: Mapping[str, int]) -> dict[str, int]:
        """Reps by figure id after all melees of the turn are over: every loss given back."""
        return {fid: rep + self.lost.get(fid, 0) for fid, rep in current.items()}
