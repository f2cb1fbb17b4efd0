"""Counted ammunition and reloading (FD §3, replacing Tight Ammo 7.9.2) and weapon
readiness (FD §4).

A :class:`WeaponState` is a figure's weapon between firings: its card, the
rounds in it, the spare magazines and whether it is ready.  The functions take
one and return a result holding the state after, so the game keeps them as data
and undo is a matter of keeping the old one.

**Interpretations**:

* Semi and the other one-round modes fire as many dice as there are rounds
  (up to Target): a mode "needs" one die's rounds, so an AR on Semi with 2
  rounds left fires 2 of its 3 dice; a burst fires as many bursts as it can feed.
* Reloading a weapon that is not empty throws away the rounds left (magazines
  are swapped, not topped up); it does not change readiness.
* "Keep Tight Ammo too": two or more 1s among the dice of one firing empty the
  weapon after it fires (a jam); the rounds are lost, the magazine is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from crdesk.errors import IllegalActionError
from crdesk.rules.common import RuleResult, plural
from crdesk.rules.firearms.cards import WeaponCard, rounds_needed
from crdesk.rules.firearms.tables import (
    FA_DICE,
    FA_ROUNDS,
    READY_MOVEMENT_COST,
    ROUNDS_PER_DIE,
    SA_MAX_DICE,
    UNREADY_AFTER_FIRING,
    FireMode,
    fd,
)


@dataclass(frozen=True, slots=True)
class WeaponState(RuleResult):
    """A figure's weapon between firings (FD §3, §4)."""

    card: WeaponCard
    rounds: int
    spares: int
    ready: bool = True
    mode: FireMode | None = None
    """The mode last chosen (the figure panel shows it); None means the card's first."""
    section: str = fd(3)

    @property
    def result(self) -> str:
        return "empty" if self.empty else "loaded"

    def explain(self) -> str:
        return f"{self.summary()} ({self.section})."

    @classmethod
    def loaded(cls, card: WeaponCard) -> WeaponState:
        """A full magazine in the weapon and the card's spare magazines."""
        return cls(card, card.magazine, card.spare_magazines)

    @property
    def empty(self) -> bool:
        return self.rounds <= 0

    @property
    def current_mode(self) -> FireMode:
        return self.mode if self.mode is not None else self.card.modes[0]

    def summary(self) -> str:
        """What the figure panel shows: card, mode, rounds left, spares."""
        return (
            f"{self.card.name} ({self.card.category}), {self.current_mode.label}: "
            f"{self.rounds}/{self.card.magazine} rounds, {plural(self.spares, 'spare magazine')}"
            + ("" if self.ready else ", unready")
        )


def max_dice(weapon: WeaponState, mode: FireMode, *, old_school: bool = False) -> int:
    """How many dice the weapon can fire in this mode now (FD §3, §5): 0 if it cannot."""
    if mode not in weapon.card.modes:
        return 0
    if mode is FireMode.FA:
        return FA_DICE if weapon.rounds >= FA_ROUNDS else 0
    target = max(1, weapon.card.stats(old_school).target)
    if mode is FireMode.SA:
        target = SA_MAX_DICE
    return min(target, weapon.rounds // ROUNDS_PER_DIE[mode])


def check_can_fire(weapon: WeaponState, mode: FireMode, dice: int = 1) -> None:
    """Refuse a firing the weapon cannot make, saying why (FD §3, §5)."""
    card = weapon.card
    if mode not in card.modes:
        modes = ", ".join(m.label for m in card.modes)
        raise IllegalActionError(f"{card.name} has no {mode.label} mode (it has {modes}) (FD §2)")
    if weapon.empty:
        raise IllegalActionError(f"{card.name} is empty: reload it first (FD §3)")
    need = FA_ROUNDS if mode is FireMode.FA else ROUNDS_PER_DIE[mode] * dice
    if weapon.rounds < need:
        raise IllegalActionError(
            f"{card.name} holds {plural(weapon.rounds, 'round')}; {mode.label} with "
            f"{plural(dice, 'die', 'dice')} needs {need} (FD §3)"
        )


@dataclass(frozen=True, slots=True)
class AmmoResult(RuleResult):
    """Rounds spent by one firing, and the weapon after it (FD §3, §4)."""

    mode: FireMode
    before: int
    spent: int
    ones: int
    jammed: bool
    became_unready: bool
    after: WeaponState
    section: str = fd(3)

    @property
    def result(self) -> str:
        if self.jammed:
            return "jammed"
        return "empty" if self.after.empty else "rounds_left"

    def explain(self) -> str:
        parts = [
            f"{self.mode.label} spent {plural(self.spent, 'round')}: "
            f"{self.after.rounds if not self.jammed else self.before - self.spent} left ({fd(3)})."
        ]
        if self.jammed:
            parts.append(
                f"Jammed: {self.ones} ones rolled empty the weapon (Tight Ammo kept, FD §3)."
            )
        elif self.after.empty:
            parts.append("The weapon is empty: reload with a spare magazine (FD §3).")
        if self.became_unready:
            parts.append(f"{self.mode.label} leaves the weapon unready (FD §4).")
        return " ".join(parts)


def spend_rounds(
    weapon: WeaponState,
    mode: FireMode,
    dice: int,
    *,
    faces: Sequence[int] = (),
    keep_tight_ammo: bool = False,
) -> AmmoResult:
    """Spend the rounds of one firing: per die by mode, 10 a Full Auto volley (FD §3).

    ``faces`` are the dice the firing rolled, for the "keep Tight Ammo too" jam.
    Bolt Action, Pump and Single Action leave the weapon unready (FD §4).
    """
    check_can_fire(weapon, mode, dice)
    spent = FA_ROUNDS if mode is FireMode.FA else ROUNDS_PER_DIE[mode] * dice
    ones = sum(1 for f in faces if f == 1)
    jammed = keep_tight_ammo and ones >= 2
    left = 0 if jammed else weapon.rounds - spent
    unready = mode in UNREADY_AFTER_FIRING
    after = replace(weapon, rounds=left, ready=weapon.ready and not unready, mode=mode)
    return AmmoResult(mode, weapon.rounds, spent, ones, jammed, unready, after)


@dataclass(frozen=True, slots=True)
class ReloadResult(RuleResult):
    """A reload: one spare magazine into the weapon (FD §3, as 7.9.2)."""

    before: int
    discarded: int
    after: WeaponState
    reason: str
    section: str = fd(3)

    @property
    def result(self) -> str:
        return "reloaded"


def reload(weapon: WeaponState, *, fast_moving: bool = False) -> ReloadResult:
    """Reload with a spare magazine: the figure's action, normal movement only (7.9.2)."""
    card = weapon.card
    if fast_moving:
        raise IllegalActionError(
            f"reloading {card.name} allows normal movement only, not Fast Moving (7.9.2, FD §3)"
        )
    if weapon.spares <= 0:
        raise IllegalActionError(f"{card.name} has no spare magazine left (FD §3)")
    if weapon.rounds >= card.magazine:
        raise IllegalActionError(f"{card.name} is full ({card.magazine} rounds) (FD §3)")
    after = replace(weapon, rounds=card.magazine, spares=weapon.spares - 1)
    lost = (
        f", {plural(weapon.rounds, 'round')} left in the old one discarded" if weapon.rounds else ""
    )
    why = (
        f"{card.name} reloaded: {card.magazine} rounds{lost}; "
        f"{plural(after.spares, 'spare magazine')} left (FD §3, 7.9.2)."
    )
    return ReloadResult(weapon.rounds, weapon.rounds, after, why)


@dataclass(frozen=True, slots=True)
class ReadinessResult(RuleResult):
    """Readying a weapon (FD §4)."""

    readied: bool
    movement_spent: float
    after: WeaponState
    reason: str
    section: str = fd(4)

    @property
    def result(self) -> str:
        return "ready" if self.after.ready else "unready"


def start_of_activation(weapon: WeaponState) -> ReadinessResult:
    """An unready weapon is readied at the start of its owner's next activation (FD §4)."""
    if weapon.ready:
        return ReadinessResult(False, 0.0, weapon, f"{weapon.card.name} is ready (FD §4).")
    return ReadinessResult(
        True,
        0.0,
        replace(weapon, ready=True),
        f"{weapon.card.name} readied at the start of the activation (FD §4).",
    )


def ready_by_moving(weapon: WeaponState, movement_left: float) -> ReadinessResult:
    """Ready the weapon while active by giving up 2" of movement (FD §4)."""
    if weapon.ready:
        raise IllegalActionError(f"{weapon.card.name} is already ready (FD §4)")
    if movement_left < READY_MOVEMENT_COST:
        raise IllegalActionError(
            f'readying {weapon.card.name} costs {READY_MOVEMENT_COST:g}" of movement, '
            f'{movement_left:g}" left (FD §4)'
        )
    return ReadinessResult(
        True,
        READY_MOVEMENT_COST,
        replace(weapon, ready=True),
        f'{weapon.card.name} readied by giving up {READY_MOVEMENT_COST:g}" of movement (FD §4).',
    )


def needs_rush_shot(weapon: WeaponState) -> bool:
    """An unready weapon may still fire, with the Rush Shot penalty (FD §4)."""
    return not weapon.ready


__all__ = [
    "AmmoResult",
    "ReadinessResult",
    "ReloadResult",
    "WeaponState",
    "check_can_fire",
    "max_dice",
    "needs_rush_shot",
    "ready_by_moving",
    "reload",
    "rounds_needed",
    "spend_rounds",
    "start_of_activation",
]
