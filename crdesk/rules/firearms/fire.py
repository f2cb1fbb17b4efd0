"""Firing under Firearms Detail: steps and the step cap (FD §1), the fire modes (FD §5),
aimed and walked automatic fire (§5.1, §5.2), buckshot (§6), supported fire (§7) and
indirect fire (§10), with knockdown (§8) and damage classes (§9) for every hit.

Each die is read on Ranged Combat 7.9.10 as d6 + Rep + the net steps of that
die, the net capped at ±3 (FD §1); the die keeps its target's 7.9.10
circumstances (Cover, prone, Fast Moving).  Who is near whom is geometry's
answer: the rules get each candidate figure's distance (:class:`Nearby`) and
pick, so they stay geometry-free.  Every function checks the weapon can fire
before it rolls, and returns the weapon after the firing (``ammo.after``).

**Interpretations** (the spec leaves these open; each is a candidate rules option):

* Dice are sorted high to low before they are given out (as 7.9.9): the Full
  Auto pair penalties go by that order, so the primary gets the best dice.
* Spread, buckshot and burst-miss dice do not count "second or later target"
  on 7.9.10: the pair penalties and bands already grade them.  Semi fire and
  bursts at several declared targets do, as in Chain Reaction.
* A burst "may not be combined with aiming (§7)": read as aiming of §5.1;
  supported fire (§7) is allowed with bursts (it adds nothing past the cap).
* A missed burst's re-roll is a new d6 against the nearest other figure within
  1" of that target, at +0 steps (no burst, support or other step), once.
* Walking the target sacrifices pairs before rolling (10 - 2 per pair dice are
  rolled; the volley still spends 10 rounds); the primary/others split of the
  spread table stays, the walk bonus goes to the primary's dice only, and the
  others' dice still fall on the spread.  At most 4 pairs.
* The dodge test (1d6 vs the shooter's Rep) is rolled before the fire dice; a
  dodge that works leaves the primary only its first die, the rest hit nobody.
* Every figure in a Full Auto spread (the primary included) not put Out of the
  Fight or Obviously Dead takes Received Fire.
* Buckshot: one shell (1 round), one die per figure of the spread, best die to
  the primary; the k-th extra figure must be within k" of the primary ("1" per
  extra figure").  "OOF counts as Duck Back for the second and later" means the
  second and later figures of the spread.  Beyond 17.5" no die is rolled: all
  five take Received Fire.  The bands are not limited by the 12" shotgun range.
  Slugs are ordinary shots: Target dice, not 6 keep 3.
* Pitiful Shot (7.9.14) and the carried-wounded redirect (7.12) are not used
  for the module's dice (carrying still counts as Cover).
* Indirect fire is for blast weapons (the RL category: grenade launchers and
  mortars); with no figure on the spot a total of 8 or more is on the spot.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, TableRoll, check_rep, faces_text, plural, words
from crdesk.rules.firearms.ammo import (
    AmmoResult,
    WeaponState,
    check_can_fire,
    max_dice,
    spend_rounds,
)
from crdesk.rules.firearms.effects import (
    CanEnter,
    ClassDamage,
    KnockdownResult,
    Point,
    knockdown,
    roll_class_damage,
)
from crdesk.rules.firearms.tables import (
    AIMED_PAIR_STEPS,
    BURST_MISS_REACH,
    BURST_MODES,
    BURST_STEPS,
    DEFAULT_CONVERSIONS,
    FA_DICE,
    FA_PAIR_STEPS,
    FA_RANK_BONUS,
    FA_SPREAD,
    INDIRECT_SPOTTER_STEPS,
    INDIRECT_STEPS,
    SINGLE_SHOT_MODES,
    SPOTTER_REACH,
    SUPPORT_STEPS,
    SUPPORTED_SPREAD_SHIFT,
    WALK_MAX_STEPS,
    BuckshotBand,
    BuckshotDamage,
    Conversions,
    DamageClass,
    FireMode,
    SpreadRow,
    Support,
    buckshot_band,
    fd,
    spread_row_index,
)
from crdesk.rules.shooting import TargetSpec, default_allocation, shot_circumstances
from crdesk.tables import Shot, ranged_combat_row

# --------------------------------------------------------------------------
# §1 Steps


@dataclass(frozen=True, slots=True)
class Step(RuleResult):
    """One step modifier on a die, and why (FD §1)."""

    source: str
    steps: int
    section: str

    @property
    def result(self) -> str:
        return "step"

    def explain(self) -> str:
        return f"{self.source} {self.steps:+d} ({self.section})"


def net_steps(steps: Sequence[Step], conversions: Conversions = DEFAULT_CONVERSIONS) -> int:
    """The net steps on one die, capped at ±cap (FD §1)."""
    raw = sum(s.steps for s in steps)
    cap = conversions.step_cap
    return max(-cap, min(cap, raw))


def read_die(
    face: int,
    rep: int,
    steps: Sequence[Step],
    circumstances: frozenset[Shot],
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> tuple[int, int, bool, str]:
    """Read one die on 7.9.10 with its steps: (net steps, total, hit, why)."""
    if not 1 <= face <= 6:
        raise IllegalActionError(f"a d6 face must be 1-6, got {face}")
    raw = sum(s.steps for s in steps)
    net = net_steps(steps, conversions)
    total = face + rep + net * conversions.step
    if steps:
        capped = f", capped at {net:+d}" if net != raw else ""
        mods = "; ".join(s.explain() for s in steps)
        sum_text = f"{face}+{rep}{net * conversions.step:+d}={total} [{mods}{capped}]"
    else:
        sum_text = f"{face}+{rep}={total}"
    row = ranged_combat_row(total)
    if row.always_miss:
        return net, total, False, f"{sum_text}: shooter missed"
    cause = row.miss_cause(circumstances)
    if cause is not None:
        return net, total, False, f"{sum_text}: missed ({cause.value.replace('_', ' ')})"
    return net, total, True, f"{sum_text}: hit"


def support_steps(support: Support, *, moved: bool) -> tuple[Step, ...]:
    """Supported fire: +1 step braced or on a bipod, +3 on a tripod, if not moved (FD §7)."""
    if support is Support.NONE:
        return ()
    if moved:
        raise IllegalActionError(
            f"supported fire ({support.value}) needs a shooter that did not move this "
            f"activation (FD §7)"
        )
    return (Step(f"supported ({support.value})", SUPPORT_STEPS[support], fd(7)),)


def fa_pair_steps(position: int, *, aimed: bool = False) -> Step:
    """The step of Full Auto die ``position`` (1-10): its pair's penalty (FD §5, §5.1)."""
    if not 1 <= position <= FA_DICE:
        raise IllegalActionError(f"a Full Auto die is 1-{FA_DICE}, got {position}")
    pair = (position - 1) // 2
    first, last = pair * 2 + 1, pair * 2 + 2
    if aimed:
        return Step(f"aimed pair {first}-{last}", AIMED_PAIR_STEPS[pair], fd("5.1"))
    return Step(f"FA dice {first}-{last}", FA_PAIR_STEPS[pair], fd(5))


# --------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Nearby:
    """A figure near another (friend or foe): its distance from it in inches."""

    target: TargetSpec
    distance: float


@dataclass(frozen=True, slots=True)
class PushGeometry:
    """Where the shooter and the figures stand, for the knockdown push (FD §8)."""

    shooter_at: Point
    positions: Mapping[str, Point]
    """Figure id (or name when it has none) → its point."""
    can_enter: CanEnter | None = None
    can_push: Callable[[str, Point], bool] | None = None
    """The terrain test per pushed figure (its id, the point): a wall between where the
    figure stands and the point stops it, which one point's test cannot see.  Used
    instead of ``can_enter`` when given."""

    def enter_test(self, key: str) -> CanEnter | None:
        """The terrain test for pushing the figure ``key``."""
        if self.can_push is None:
            return self.can_enter
        return functools.partial(self.can_push, key)


@dataclass(frozen=True, slots=True)
class DieShot(RuleResult):
    """One die of a firing: its position, face, steps, total and what it did."""

    position: int
    """1-based among the firing's dice sorted high to low; 0 for a re-roll."""
    face: int
    rep: int
    steps: tuple[Step, ...]
    net_steps: int
    total: int
    target: str
    target_id: str
    role: str
    """``target``, ``primary``, ``spread``, ``burst_miss``, ``buckshot`` or ``nobody``."""
    hit: bool
    reason: str
    section: str = "7.9.10"

    @property
    def result(self) -> str:
        if self.role == "nobody":
            return "no_target"
        return "hit" if self.hit else "miss"


@dataclass(frozen=True, slots=True)
class FigureFire(RuleResult):
    """What one firing did to one figure."""

    PARTS: ClassVar[tuple[str, ...]] = ("shots",)

    name: str
    rep: int
    id: str
    role: str
    shots: tuple[DieShot, ...]
    damage: tuple[ClassDamage, ...]
    knockdown: KnockdownResult | None
    received_fire: bool
    forced_status: Status | None = None
    """A status the hit gives without a damage roll (buckshot's Duck Back only)."""
    section: str = fd(5)

    @property
    def hits(self) -> int:
        return sum(1 for s in self.shots if s.hit)

    @property
    def status(self) -> Status | None:
        """The worst damage taken, or None if not hit (or damage not rolled)."""
        found = [d.status for d in self.damage if d.status is not None]
        if self.forced_status is not None:
            found.append(self.forced_status)
        return max(found, key=lambda s: s.rank) if found else None

    @property
    def result(self) -> str:
        if not self.hits:
            return "received_fire" if self.received_fire else "miss"
        status = self.status
        return status.value if status is not None else "hit"

    def explain(self) -> str:
        shots = "; ".join(s.reason for s in self.shots) or "no die"
        parts = [f"{self.name} ({self.role}): {shots}."]
        if self.hits:
            parts.append(plural(self.hits, "hit") + ".")
        parts += [d.explain() for d in self.damage]
        if self.forced_status is not None:
            parts.append(f"{words(self.forced_status)} (no damage roll, {fd(6)}).")
        if self.knockdown is not None and self.knockdown.reason:
            parts.append(self.knockdown.reason)
        if self.received_fire:
            parts.append("Takes Received Fire.")
        return " ".join(parts)

    def to_dict(self) -> dict[str, object]:
        d = RuleResult.to_dict(self)
        d.update(hits=self.hits, status=self.status.value if self.status else None)
        return d


@dataclass(frozen=True, slots=True)
class FirearmsFire(RuleResult):
    """One firing under Firearms Detail: every die, every figure, the weapon after."""

    PARTS: ClassVar[tuple[str, ...]] = ("figures",)

    weapon: str
    category: str
    mode: FireMode
    shooter_rep: int
    faces: tuple[int, ...]
    """The fire dice as rolled."""
    figures: tuple[FigureFire, ...]
    unused: tuple[DieShot, ...]
    """Dice that hit nobody: no figure to go to, dodged, or sacrificed to walk."""
    ammo: AmmoResult
    rank: int
    """Outgunned Ranking of this firing (7.9.1; Full Auto +1, FD §5)."""
    section: str
    spread: SpreadRow | None = None
    band: BuckshotBand | None = None
    dodge: TableRoll | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def result(self) -> str:
        return "hit" if any(f.hits for f in self.figures) else "miss"

    def hits_on(self, id_: str) -> int:
        """All hits on one figure: a burst target may also be another burst's miss check."""
        return sum(f.hits for f in self.figures if f.id == id_)

    def figure(self, id_: str) -> FigureFire:
        """The figure's first entry (its only one, except as above for bursts)."""
        for f in self.figures:
            if f.id == id_:
                return f
        raise KeyError(id_)

    @property
    def received_fire(self) -> tuple[str, ...]:
        """Ids of the figures that take the Received Fire test."""
        return tuple(f.id for f in self.figures if f.received_fire)

    def explain(self) -> str:
        head = (
            f"Rep {self.shooter_rep} {self.weapon} ({self.mode.label}) rolled "
            f"{faces_text(self.faces)} ({self.section})."
        )
        parts = [head, *self.notes]
        if self.dodge is not None:
            parts.append(self.dodge.reason)
        parts += [f.explain() for f in self.figures]
        if self.unused:
            parts.append(f"{plural(len(self.unused), 'die', 'dice')} hit nobody.")
        parts.append(self.ammo.explain())
        return " ".join(parts)


# --------------------------------------------------------------------------
# Shared parts


@dataclass(frozen=True, slots=True)
class _Ctx:
    dice: DiceSource
    rep: int
    weapon: WeaponState
    options: RulesOptions
    conversions: Conversions
    fast_moving: bool
    rush_shot: bool
    roll_damage_dice: bool
    geometry: PushGeometry | None
    who: str

    @property
    def impact(self) -> int | None:
        if not self.options.old_school:
            return None
        return self.weapon.card.stats(old_school=True).impact

    def circumstances(self, target: TargetSpec, index: int = 0) -> frozenset[Shot]:
        return shot_circumstances(
            target, index, fast_moving=self.fast_moving, rush_shot=self.rush_shot
        )

    def shot(
        self,
        position: int,
        face: int,
        target: TargetSpec,
        steps: Sequence[Step],
        role: str,
        index: int = 0,
    ) -> DieShot:
        net, total, hit, why = read_die(
            face, self.rep, steps, self.circumstances(target, index), self.conversions
        )
        return DieShot(
            position,
            face,
            self.rep,
            tuple(steps),
            net,
            total,
            target.name,
            target.key,
            role,
            hit,
            why,
        )

    def figure(
        self,
        target: TargetSpec,
        role: str,
        shots: Sequence[DieShot],
        *,
        damage_class: DamageClass = DamageClass.SEVERE,
        received_fire_always: bool = False,
        forced_status: Status | None = None,
        oof_as_duck_back: bool = False,
        section: str = fd(5),
    ) -> FigureFire:
        """Damage, knockdown and Received Fire for one figure of the firing."""
        hits = sum(1 for s in shots if s.hit)
        damage: list[ClassDamage] = []
        if self.roll_damage_dice and forced_status is None:
            for _ in range(hits):
                d = roll_class_damage(
                    self.dice,
                    target.rep,
                    damage_class,
                    options=self.options,
                    impact=self.impact,
                    who=target.name,
                    figures=(target.key,),
                )
                if oof_as_duck_back and d.status is Status.OUT_OF_THE_FIGHT:
                    d = ClassDamage(
                        d.damage_class,
                        d.face,
                        d.modified,
                        d.target_rep,
                        Status.DUCK_BACK,
                        d.status,
                        section=fd(6),
                    )
                damage.append(d)
        status_found = [d.status for d in damage if d.status is not None]
        if forced_status is not None and hits:
            status_found.append(forced_status)
        worst = max(status_found, key=lambda s: s.rank) if status_found else None
        kd: KnockdownResult | None = None
        card = self.weapon.card
        if hits and card.knockdown and (self.roll_damage_dice or forced_status is not None):
            geo = self.geometry
            kd = knockdown(
                self.dice,
                target.name,
                card.knockdown,
                status=worst,
                prone=target.prone,
                shooter_at=geo.shooter_at if geo else None,
                target_at=geo.positions.get(target.key) if geo else None,
                can_enter=geo.enter_test(target.key) if geo else None,
                id=target.key,
            )
        down = worst in (Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)
        rf = (received_fire_always and not down) or (not hits and bool(shots))
        return FigureFire(
            target.name,
            target.rep,
            target.key,
            role,
            tuple(shots),
            tuple(damage),
            kd,
            rf,
            forced_status if hits else None,
            section,
        )


def _context(
    dice: DiceSource,
    rep: int,
    weapon: WeaponState,
    *,
    options: RulesOptions | None,
    conversions: Conversions | None,
    fast_moving: bool,
    rush_shot: bool,
    roll_damage_dice: bool,
    geometry: PushGeometry | None,
    who: str,
) -> _Ctx:
    check_rep(rep)
    # an unready weapon fires with the Rush Shot penalty (FD §4)
    return _Ctx(
        dice,
        rep,
        weapon,
        options or RulesOptions(),
        conversions or DEFAULT_CONVERSIONS,
        fast_moving,
        rush_shot or not weapon.ready,
        roll_damage_dice,
        geometry,
        who,
    )


def _notes(ctx: _Ctx) -> tuple[str, ...]:
    if not ctx.weapon.ready:
        return (f"{ctx.weapon.card.name} is unready: Rush Shot (FD §4).",)
    return ()


def nearest_figures(nearby: Sequence[Nearby], reach: float, exclude: set[str]) -> list[Nearby]:
    """The figures within ``reach`` inches, nearest first, leaving out ``exclude`` (ids)."""
    return sorted(
        (n for n in nearby if n.distance <= reach and n.target.key not in exclude),
        key=lambda n: n.distance,
    )


def _to_nobody(pos: int, face: int, rep: int, steps: tuple[Step, ...], why: str) -> DieShot:
    """A die that hits nobody: dodged, no figure left in the spread, or sacrificed."""
    return DieShot(pos, face, rep, steps, 0, 0, "", "", "nobody", False, why)


def _mode(weapon: WeaponState, mode: FireMode | None) -> FireMode:
    return mode if mode is not None else weapon.current_mode


# --------------------------------------------------------------------------
# §5 Semi / SA / DA / Pump / BA


def single_fire(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[TargetSpec],
    *,
    mode: FireMode | None = None,
    dice_count: int | None = None,
    allocation: Sequence[int] | None = None,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    keep_tight_ammo: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions | None = None,
    roll_damage_dice: bool = True,
    geometry: PushGeometry | None = None,
    who: str = "shooter",
) -> FirearmsFire:
    """Normal Chain Reaction fire with counted rounds: up to Target dice, 1 round each
    (FD §5); Single Action fires one die.  Slugs and every non-buckshot round."""
    m = _mode(weapon, mode)
    if m not in SINGLE_SHOT_MODES:
        raise IllegalActionError(f"{m.label} is not a one-round mode: use burst_fire or full_auto")
    if weapon.card.buckshot:
        raise IllegalActionError(
            f"{weapon.card.name} is loaded with buckshot: it fires by range band (FD §6)"
        )
    if not targets:
        raise IllegalActionError("fire needs at least one target")
    ctx = _context(
        dice,
        shooter_rep,
        weapon,
        options=options,
        conversions=conversions,
        fast_moving=fast_moving,
        rush_shot=rush_shot,
        roll_damage_dice=roll_damage_dice,
        geometry=geometry,
        who=who,
    )
    most = max_dice(weapon, m, old_school=ctx.options.old_school)
    n = most if dice_count is None else dice_count
    check_can_fire(weapon, m, max(1, n))
    if not 1 <= n <= most:
        raise IllegalActionError(
            f"{weapon.card.name} on {m.label} fires 1 to {plural(most, 'die', 'dice')} now, "
            f"not {n} (FD §3, §5)"
        )
    if len(targets) > n:
        raise IllegalActionError(
            f"{plural(n, 'die', 'dice')} can go to at most {n} targets", about="targets"
        )
    alloc = tuple(allocation) if allocation is not None else default_allocation(n, len(targets))
    if len(alloc) != len(targets) or any(a < 1 for a in alloc) or sum(alloc) != n:
        raise IllegalActionError(
            f"allocation {','.join(map(str, alloc))} must give each of the "
            f"{plural(len(targets), 'target')} at least one die and {n} dice in all (7.9.9)",
            about="allocation",
        )
    for t in targets:
        check_rep(t.rep, "target Rep")
    steps = support_steps(support, moved=moved or fast_moving)
    roll = dice.roll(
        n,
        section="7.9.10",
        table=f"Ranged Combat ({m.label}, FD §5)",
        who=who,
        figures=tuple(t.key for t in targets),
    )
    ordered = sorted(roll.faces, reverse=True)
    figures: list[FigureFire] = []
    pos = 0
    for index, (target, k) in enumerate(zip(targets, alloc, strict=True)):
        shots = [
            ctx.shot(pos + j + 1, ordered[pos + j], target, steps, "target", index)
            for j in range(k)
        ]
        pos += k
        figures.append(ctx.figure(target, "target", shots))
    hits = sum(f.hits for f in figures)
    dice.note(roll, plural(hits, "hit"))
    ammo = spend_rounds(weapon, m, n, faces=roll.faces, keep_tight_ammo=keep_tight_ammo)
    return FirearmsFire(
        weapon.card.name,
        weapon.card.category,
        m,
        shooter_rep,
        roll.faces,
        tuple(figures),
        (),
        ammo,
        weapon.card.rank(ctx.options.old_school),
        fd(5),
        notes=_notes(ctx),
    )


# --------------------------------------------------------------------------
# §5 Bursts


@dataclass(frozen=True, slots=True)
class BurstTarget:
    """A burst's target and the figures near it (for a miss, FD §5)."""

    target: TargetSpec
    nearby: tuple[Nearby, ...] = ()


def burst_fire(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[BurstTarget],
    *,
    mode: FireMode | None = None,
    aim: bool = False,
    walk_pairs: int = 0,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    keep_tight_ammo: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions | None = None,
    roll_damage_dice: bool = True,
    geometry: PushGeometry | None = None,
    who: str = "shooter",
) -> FirearmsFire:
    """2- or 3-round bursts (FD §5): one die per target at +3 steps, at most Target dice.

    A burst that misses its target checks the nearest other figure within 1" of
    it (friend or foe): a new die against it at +0.  That check is an entry of
    its own (role ``burst_miss``, with its own damage), so a figure that is also
    a burst target appears twice: :meth:`FirearmsFire.hits_on` adds them up.
    """
    m = _mode(weapon, mode)
    if m not in BURST_MODES:
        raise IllegalActionError(f"{m.label} is not a burst mode (2RB, 3RB)")
    if aim or walk_pairs:
        raise IllegalActionError("a burst may not be combined with aiming or walking fire (FD §5)")
    if not targets:
        raise IllegalActionError("a burst needs at least one target")
    ctx = _context(
        dice,
        shooter_rep,
        weapon,
        options=options,
        conversions=conversions,
        fast_moving=fast_moving,
        rush_shot=rush_shot,
        roll_damage_dice=roll_damage_dice,
        geometry=geometry,
        who=who,
    )
    n = len(targets)
    check_can_fire(weapon, m, n)
    most = max_dice(weapon, m, old_school=ctx.options.old_school)
    if n > most:
        raise IllegalActionError(
            f"{weapon.card.name} fires at most {plural(most, 'burst')} now (one die per "
            f"target, at most Target dice, FD §5), not {n}"
        )
    keys = [t.target.key for t in targets]
    if len(set(keys)) != n:
        raise IllegalActionError("a burst is one die per target: a target is named twice (FD §5)")
    for t in targets:
        check_rep(t.target.rep, "target Rep")
    steps = (Step("burst", BURST_STEPS, fd(5)), *support_steps(support, moved=moved or fast_moving))
    roll = dice.roll(
        n,
        section="7.9.10",
        table=f"Ranged Combat ({m.label}, FD §5)",
        who=who,
        figures=tuple(keys),
    )
    ordered = sorted(roll.faces, reverse=True)
    figures: list[FigureFire] = []
    for index, (bt, face) in enumerate(zip(targets, ordered, strict=True)):
        shot = ctx.shot(index + 1, face, bt.target, steps, "target", index)
        if shot.hit:
            figures.append(ctx.figure(bt.target, "target", [shot]))
            continue
        near = nearest_figures(bt.nearby, BURST_MISS_REACH, {bt.target.key})
        figures.append(ctx.figure(bt.target, "target", [shot]))
        if not near:
            continue
        other = near[0].target
        check_rep(other.rep, "target Rep")
        again = dice.roll(
            1, section=fd(5), table="Burst miss: nearest figure", who=who, figures=(other.key,)
        )
        check = ctx.shot(0, again.faces[0], other, (), "burst_miss")
        dice.note(again, "hit" if check.hit else "miss")
        figures.append(ctx.figure(other, "burst_miss", [check]))
    ammo = spend_rounds(weapon, m, n, faces=roll.faces, keep_tight_ammo=keep_tight_ammo)
    dice.note(roll, plural(sum(1 for f in figures if f.role == "target" and f.hits), "hit"))
    return FirearmsFire(
        weapon.card.name,
        weapon.card.category,
        m,
        shooter_rep,
        roll.faces,
        tuple(figures),
        (),
        ammo,
        weapon.card.rank(ctx.options.old_school),
        fd(5),
        notes=_notes(ctx),
    )


# --------------------------------------------------------------------------
# §5 Full Auto, §5.1 aimed, §5.2 walking


def spread_row(distance: float, support: Support = Support.NONE) -> tuple[int, SpreadRow]:
    """The spread row for a range; supported fire reads one row closer (FD §5, §7)."""
    if distance < 0:
        raise IllegalActionError(f"a range cannot be negative, got {distance:g}")
    i = spread_row_index(distance)
    if support is not Support.NONE:
        i = max(0, i - SUPPORTED_SPREAD_SHIFT)
    return i, FA_SPREAD[i]


@dataclass(frozen=True, slots=True)
class FullAutoPlan:
    """Where each die of a Full Auto volley goes, before any is rolled (FD §5, §5.1,
    §5.2, §7): the one reading the volley is rolled against and its odds computed over."""

    row: SpreadRow
    spread: tuple[Nearby, ...]
    """The figures within the spread, nearest first: the others' dice go one each."""
    rolled: int
    """Dice rolled: 10, less the pairs sacrificed to walk the target."""
    primary_n: int
    """The first (best) sorted dice that go to the primary."""
    base: tuple[Step, ...]
    walk: tuple[Step, ...]
    aim: bool

    def pair_steps(self, i: int) -> tuple[Step, ...]:
        """Sorted die ``i``'s (0-based) pair step and support."""
        return (fa_pair_steps(i + 1, aimed=self.aim), *self.base)

    def steps(self, i: int) -> tuple[Step, ...]:
        """The steps sorted die ``i`` is read with: the walk bonus too on the primary's."""
        steps = self.pair_steps(i)
        return (*steps, *self.walk) if i < self.primary_n else steps

    def spread_figure(self, i: int) -> tuple[int, Nearby] | None:
        """The spread figure (its index and entry) that sorted die ``i`` goes to, None
        for the primary's dice and dice with nobody left to go to."""
        k = i - self.primary_n
        return (k, self.spread[k]) if 0 <= k < len(self.spread) else None


def full_auto_plan(
    primary: TargetSpec,
    nearby: Sequence[Nearby],
    *,
    distance: float,
    aim: bool,
    walk_pairs: int,
    support: Support,
    moved: bool,
) -> FullAutoPlan:
    """The spread row, the figures in it and each die's steps of one volley (FD §5)."""
    base = support_steps(support, moved=moved)
    _, row = spread_row(distance, support)
    spread = tuple(nearest_figures(nearby, row.spread, {primary.key}))
    rolled = FA_DICE - 2 * walk_pairs
    walk = (
        (Step(f"walking {plural(walk_pairs, 'pair')}", walk_pairs, fd("5.2")),)
        if walk_pairs
        else ()
    )
    return FullAutoPlan(row, spread, rolled, min(row.primary_dice, rolled), base, walk, aim)


def full_auto(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    primary: TargetSpec,
    nearby: Sequence[Nearby] = (),
    *,
    distance: float,
    aim: bool = False,
    walk_pairs: int = 0,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    keep_tight_ammo: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions | None = None,
    roll_damage_dice: bool = True,
    geometry: PushGeometry | None = None,
    who: str = "shooter",
) -> FirearmsFire:
    """One Full Auto volley: 10 rounds, 10 dice in pairs at 0/-1/-2/-3/-4 steps (FD §5).

    ``distance`` is the range to the primary; ``nearby`` every other figure
    (friend or foe) with its distance from the primary: those within the
    spread get the others' dice one each, nearest first.  ``aim`` (§5.1: not
    moved) reads the pairs +2/+1/0/-1/-2; ``walk_pairs`` (§5.2) sacrifices pairs
    for +1 step each on the primary's dice.
    """
    m = FireMode.FA
    if aim and walk_pairs:
        raise IllegalActionError("aiming is not allowed with walking fire (FD §5.1)")
    if aim and (moved or fast_moving):
        raise IllegalActionError("only a figure that does not move may aim (FD §5.1)")
    if not 0 <= walk_pairs <= WALK_MAX_STEPS:
        raise IllegalActionError(
            f"walking sacrifices 0 to {WALK_MAX_STEPS} pairs of dice (FD §5.2), not {walk_pairs}"
        )
    ctx = _context(
        dice,
        shooter_rep,
        weapon,
        options=options,
        conversions=conversions,
        fast_moving=fast_moving,
        rush_shot=rush_shot,
        roll_damage_dice=roll_damage_dice,
        geometry=geometry,
        who=who,
    )
    check_can_fire(weapon, m)
    check_rep(primary.rep, "target Rep")
    plan = full_auto_plan(
        primary,
        nearby,
        distance=distance,
        aim=aim,
        walk_pairs=walk_pairs,
        support=support,
        moved=moved or fast_moving,
    )
    row, spread, rolled, primary_n = plan.row, plan.spread, plan.rolled, plan.primary_n
    for n in spread:
        check_rep(n.target.rep, "target Rep")
    notes = list(_notes(ctx))
    shift = " (supported: one row closer, FD §7)" if support is not Support.NONE else ""
    notes.append(
        f'Range {distance:g}": spread {row.spread:g}", {row.primary_dice} dice on the primary, '
        f"{row.other_dice} on others{shift} ({fd(5)})."
    )
    dodge: TableRoll | None = None
    dodged = False
    if primary.fast_moving:
        droll = dice.roll(
            1,
            section=fd(5),
            table="Dodge (Full Auto)",
            who=who,
            target=shooter_rep,
            figures=(primary.key,),
        )
        failed = droll.faces[0] <= shooter_rep
        dodged = not failed
        words_ = (
            "the dodge failed: the primary takes all its dice"
            if failed
            else "dodged: the primary takes only its first die"
        )
        dice.note(droll, words_, passed=int(failed))
        dodge = TableRoll(
            fd(5),
            "Dodge (Full Auto)",
            who,
            droll.faces,
            shooter_rep,
            int(failed),
            "dodge_failed" if failed else "dodged",
            f"{primary.name} is Fast Moving: shooter rolled {droll.faces[0]} vs Rep "
            f"{shooter_rep}: {words_} ({fd(5)}).",
        )
    if walk_pairs:
        notes.append(
            f"{plural(2 * walk_pairs, 'die', 'dice')} sacrificed to walk the target ({fd('5.2')})."
        )
    roll = dice.roll(
        rolled,
        section="7.9.10",
        table="Ranged Combat (Full Auto, FD §5)",
        who=who,
        figures=(primary.key, *(n.target.key for n in spread)),
    )
    ordered = sorted(roll.faces, reverse=True)
    prim_shots: list[DieShot] = []
    unused: list[DieShot] = []
    spread_shots: list[tuple[TargetSpec, DieShot]] = []
    for i, face in enumerate(ordered):
        pos = i + 1
        steps = plan.pair_steps(i)
        if i < primary_n:
            if dodged and i > 0:
                unused.append(
                    _to_nobody(pos, face, shooter_rep, steps, f"{face}: dodged, hits nobody")
                )
                continue
            prim_shots.append(ctx.shot(pos, face, primary, plan.steps(i), "primary"))
            continue
        near = plan.spread_figure(i)
        if near is not None:
            other = near[1].target
            spread_shots.append((other, ctx.shot(pos, face, other, steps, "spread")))
        else:
            unused.append(
                _to_nobody(
                    pos, face, shooter_rep, steps, f"{face}: no figure in the spread, hits nobody"
                )
            )
    for j in range(walk_pairs * 2):
        unused.append(
            _to_nobody(rolled + j + 1, 0, shooter_rep, (), "sacrificed to walk the target")
        )
    landed = sum(1 for s in prim_shots if s.hit) + sum(1 for _, s in spread_shots if s.hit)
    dice.note(roll, plural(landed, "hit"))
    figures = [ctx.figure(primary, "primary", prim_shots, received_fire_always=True)]
    for target, shot in spread_shots:
        figures.append(ctx.figure(target, "spread", [shot], received_fire_always=True))
    # every figure in the spread area takes the test, dice or not
    for n in spread[max(0, rolled - primary_n) :]:
        figures.append(ctx.figure(n.target, "spread", [], received_fire_always=True))
    ammo = spend_rounds(weapon, m, FA_DICE, faces=roll.faces, keep_tight_ammo=keep_tight_ammo)
    return FirearmsFire(
        weapon.card.name,
        weapon.card.category,
        m,
        shooter_rep,
        roll.faces,
        tuple(figures),
        tuple(unused),
        ammo,
        weapon.card.rank(ctx.options.old_school) + FA_RANK_BONUS,
        fd(5),
        spread=row,
        dodge=dodge,
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------
# §6 Buckshot


def buckshot_figures(
    band: BuckshotBand, primary: TargetSpec, nearby: Sequence[Nearby]
) -> list[TargetSpec]:
    """The primary and the nearest figures, the k-th extra within k" of it (FD §6)."""
    out = [primary]
    for n in sorted(nearby, key=lambda n: n.distance):
        if len(out) >= band.figures:
            break
        if n.target.key == primary.key or n.target.key in {t.key for t in out}:
            continue
        if n.distance <= len(out):  # the k-th extra figure within k"
            out.append(n.target)
    return out


@dataclass(frozen=True, slots=True)
class BuckshotPlan:
    """The figures a shell's dice go to and how each is read (FD §6), before any is
    rolled: the one reading the shot is rolled against and its odds computed over."""

    band: BuckshotBand
    targets: tuple[TargetSpec, ...]
    """The primary first, then the spread figures; a die each, the best to the primary."""
    steps: tuple[Step, ...]
    """The band's and support's steps; () beyond the bands, where no die is rolled."""
    damage_class: DamageClass
    forced: Status | None
    """Duck Back for the band that does no damage, else None."""

    @property
    def rolls(self) -> bool:
        """False beyond the bands: every figure takes Received Fire, no die is rolled."""
        return self.band.damage is not BuckshotDamage.RECEIVED_FIRE

    @staticmethod
    def role(i: int) -> str:
        return "primary" if i == 0 else "buckshot"

    def oof_as_duck_back(self, i: int) -> bool:
        """Out of the Fight reads as Duck Back for the second and later figures (FD §6)."""
        return self.band.damage is BuckshotDamage.SEVERE_LATER_DUCK_BACK and i > 0


def buckshot_plan(
    primary: TargetSpec,
    nearby: Sequence[Nearby],
    *,
    distance: float,
    support: Support,
    moved: bool,
) -> BuckshotPlan:
    """The band, the figures in the spread and the steps of one shell (FD §6, §7)."""
    band = buckshot_band(distance)
    targets = tuple(buckshot_figures(band, primary, nearby))
    steps: tuple[Step, ...] = ()
    if band.damage is not BuckshotDamage.RECEIVED_FIRE:
        steps = (
            *((Step(f'buckshot at {distance:g}"', band.steps, fd(6)),) if band.steps else ()),
            *support_steps(support, moved=moved),
        )
    cls = DamageClass.DEADLY if band.damage is BuckshotDamage.DEADLY else DamageClass.SEVERE
    forced = Status.DUCK_BACK if band.damage is BuckshotDamage.DUCK_BACK else None
    return BuckshotPlan(band, targets, steps, cls, forced)


def buckshot(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    primary: TargetSpec,
    nearby: Sequence[Nearby] = (),
    *,
    distance: float,
    mode: FireMode | None = None,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    keep_tight_ammo: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions | None = None,
    roll_damage_dice: bool = True,
    geometry: PushGeometry | None = None,
    who: str = "shooter",
) -> FirearmsFire:
    """A shotgun's buckshot by range band (FD §6): to-hit steps, figures hit, damage."""
    if not weapon.card.buckshot:
        raise IllegalActionError(f"{weapon.card.name} is not loaded with buckshot (FD §6)")
    m = _mode(weapon, mode)
    if m not in SINGLE_SHOT_MODES:
        raise IllegalActionError(f"buckshot fires one shell: {m.label} is not a one-round mode")
    if distance < 0:
        raise IllegalActionError(f"a range cannot be negative, got {distance:g}")
    ctx = _context(
        dice,
        shooter_rep,
        weapon,
        options=options,
        conversions=conversions,
        fast_moving=fast_moving,
        rush_shot=rush_shot,
        roll_damage_dice=roll_damage_dice,
        geometry=geometry,
        who=who,
    )
    check_can_fire(weapon, m, 1)
    plan = buckshot_plan(
        primary, nearby, distance=distance, support=support, moved=moved or fast_moving
    )
    band, targets = plan.band, plan.targets
    for t in targets:
        check_rep(t.rep, "target Rep")
    notes = [
        *_notes(ctx),
        f'Buckshot at {distance:g}": {band.words}, '
        f"up to {plural(band.figures, 'figure')} ({fd(6)}).",
    ]
    figures: list[FigureFire] = []
    faces: tuple[int, ...] = ()
    if not plan.rolls:
        for i, t in enumerate(targets):
            figures.append(
                FigureFire(
                    t.name,
                    t.rep,
                    t.key,
                    plan.role(i),
                    (),
                    (),
                    None,
                    True,
                    None,
                    fd(6),
                )
            )
    else:
        roll = dice.roll(
            len(targets),
            section="7.9.10",
            table="Ranged Combat (buckshot, FD §6)",
            who=who,
            figures=tuple(t.key for t in targets),
        )
        faces = roll.faces
        ordered = sorted(faces, reverse=True)
        for i, (t, face) in enumerate(zip(targets, ordered, strict=True)):
            role = plan.role(i)
            shot = ctx.shot(i + 1, face, t, plan.steps, role)
            figures.append(
                ctx.figure(
                    t,
                    role,
                    [shot],
                    damage_class=plan.damage_class,
                    forced_status=plan.forced,
                    oof_as_duck_back=plan.oof_as_duck_back(i),
                    section=fd(6),
                )
            )
        dice.note(roll, plural(sum(f.hits for f in figures), "hit"))
    ammo = spend_rounds(weapon, m, 1, faces=faces, keep_tight_ammo=keep_tight_ammo)
    return FirearmsFire(
        weapon.card.name,
        weapon.card.category,
        m,
        shooter_rep,
        faces,
        tuple(figures),
        (),
        ammo,
        weapon.card.rank(ctx.options.old_school),
        fd(6),
        band=band,
        notes=tuple(notes),
    )


# --------------------------------------------------------------------------
# §10 Indirect fire


def spotter_helps(
    distance_to_shooter: float | None, *, sees_spot: bool, radio: bool = False
) -> bool:
    """A friendly spotter helps if it sees the spot and is within 4" or on the radio (FD §10).

    ``radio`` is the caller's answer to "radio contact counts" (an option) and
    whether this spotter has a radio.
    """
    if not sees_spot:
        return False
    if radio:
        return True
    return distance_to_shooter is not None and distance_to_shooter <= SPOTTER_REACH


def indirect_steps(spotter: bool) -> Step:
    """-3 steps, -2 with a spotter (FD §10)."""
    if spotter:
        return Step("indirect fire, with a spotter", INDIRECT_SPOTTER_STEPS, fd(10))
    return Step("indirect fire, no spotter", INDIRECT_STEPS, fd(10))


@dataclass(frozen=True, slots=True)
class IndirectResult(RuleResult):
    """A grenade launcher or mortar fired at a spot the shooter cannot see (FD §10)."""

    shot: DieShot
    spotter: bool
    ammo: AmmoResult
    section: str = fd(10)

    @property
    def on_spot(self) -> bool:
        return self.shot.hit

    @property
    def result(self) -> str:
        return "on_spot" if self.on_spot else "miss"

    def explain(self) -> str:
        then = (
            "on the spot: resolve the explosion's rings (FD §9)"
            if self.on_spot
            else "missed: those near the spot take Received Fire"
        )
        return f"Indirect fire {self.shot.reason}: {then} ({fd(10)}). {self.ammo.explain()}"


def indirect_fire(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    *,
    spotter: bool,
    target: TargetSpec | None = None,
    fast_moving: bool = False,
    rush_shot: bool = False,
    keep_tight_ammo: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions | None = None,
    who: str = "shooter",
) -> IndirectResult:
    """Fire a blast weapon at an unseen spot: 1 die at -3 steps, -2 with a spotter (FD §10)."""
    options = options or RulesOptions()
    card = weapon.card
    if not card.stats(options.old_school).blast:
        raise IllegalActionError(
            f"{card.name} counts as {card.category}: only blast weapons (grenade launchers, "
            f"mortars) fire indirectly (FD §10)"
        )
    m = weapon.current_mode
    ctx = _context(
        dice,
        shooter_rep,
        weapon,
        options=options,
        conversions=conversions,
        fast_moving=fast_moving,
        rush_shot=rush_shot,
        roll_damage_dice=False,
        geometry=None,
        who=who,
    )
    check_can_fire(weapon, m, 1)
    spec = target or TargetSpec("spot")
    roll = dice.roll(1, section="7.9.10", table="Ranged Combat (indirect, FD §10)", who=who)
    shot = ctx.shot(1, roll.faces[0], spec, (indirect_steps(spotter),), "target")
    dice.note(roll, "on the spot" if shot.hit else "miss")
    ammo = spend_rounds(weapon, m, 1, faces=roll.faces, keep_tight_ammo=keep_tight_ammo)
    return IndirectResult(shot, spotter, ammo)


# --------------------------------------------------------------------------
# One entry point: the shooter's choices as one object


@dataclass(frozen=True, slots=True)
class FireOptions:
    """What the shooter chose and the shooter's circumstances for one firing (FD §3-§7).

    One object instead of the dozen keywords each fire function takes, so the
    referee, the controller and the fire dialog build a firing the same way and
    :func:`fire_weapon` / :func:`~crdesk.rules.firearms.odds.fire_weapon_odds`
    pick the mode's rule from it.
    """

    mode: FireMode | None = None
    """None: the weapon's current mode (:attr:`WeaponState.current_mode`)."""
    aim: bool = False
    walk_pairs: int = 0
    support: Support = Support.NONE
    moved: bool = False
    fast_moving: bool = False
    rush_shot: bool = False
    keep_tight_ammo: bool = False
    dice_count: int | None = None
    """Semi and the other one-round modes: dice fired (None: all the weapon can)."""
    allocation: tuple[int, ...] | None = None
    """One-round modes at several targets: dice per target (7.9.9)."""
    options: RulesOptions | None = None
    conversions: Conversions | None = None
    roll_damage_dice: bool = True
    geometry: PushGeometry | None = None
    who: str = "shooter"


@dataclass(frozen=True, slots=True)
class FireTarget:
    """A declared target: its range from the shooter and who stands near it."""

    target: TargetSpec
    distance: float = 0.0
    """Inches from the shooter (Full Auto's spread row, buckshot's band)."""
    nearby: tuple[Nearby, ...] = ()
    """Every other figure, friend or foe, with its distance from this target."""


def firing_mode(
    weapon: WeaponState, targets: Sequence[FireTarget], choice: FireOptions
) -> FireMode:
    """The mode this firing uses, or :class:`IllegalActionError` saying why the choices do
    not fit the weapon's card (checked before any die is rolled)."""
    card = weapon.card
    m = _mode(weapon, choice.mode)
    if m not in card.modes:
        modes = ", ".join(x.label for x in card.modes)
        raise IllegalActionError(f"{card.name} has no {m.label} mode (it has {modes}) (FD §2)")
    if not targets:
        raise IllegalActionError("fire needs at least one target", about="targets")
    if choice.aim and m is not FireMode.FA:
        raise IllegalActionError(f"aiming is for Full Auto (FD §5.1), not {m.label}")
    if choice.walk_pairs and m is not FireMode.FA:
        raise IllegalActionError(f"walking the target is for Full Auto (FD §5.2), not {m.label}")
    one_target = card.buckshot or m is FireMode.FA
    if one_target and len(targets) > 1:
        what = "buckshot (FD §6)" if card.buckshot else "Full Auto (FD §5)"
        raise IllegalActionError(
            f"{what} fires at one primary target; the others are in the spread, not declared"
        )
    sets_own_dice = m not in SINGLE_SHOT_MODES or card.buckshot
    if sets_own_dice and (choice.dice_count is not None or choice.allocation is not None):
        raise IllegalActionError(
            f"{m.label} sets its own dice (FD §5, §6): no dice count or allocation"
        )
    return m


@dataclass(frozen=True, slots=True)
class FiringRoute:
    """Which rule of the module a firing goes to, with the arguments that rule takes
    beside the shooter's circumstances: the one choice :func:`fire_weapon` and
    :func:`~crdesk.rules.firearms.odds.fire_weapon_odds` both follow."""

    rule: str
    """``buckshot``, ``full_auto``, ``burst`` or ``single``."""
    weapon: WeaponState
    """The weapon set to the mode it fires in."""
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any]

    def shared(self, choice: FireOptions) -> dict[str, Any]:
        """The circumstances every rule and its odds take from the choice."""
        return {
            "support": choice.support,
            "moved": choice.moved,
            "fast_moving": choice.fast_moving,
            "rush_shot": choice.rush_shot,
            "options": choice.options,
            **self.kwargs,
        }


def firing_route(
    weapon: WeaponState, targets: Sequence[FireTarget], choice: FireOptions
) -> FiringRoute:
    """The rule this firing uses (buckshot, Full Auto, bursts or one-round fire, by the
    ammunition and the mode, FD §5, §6) and its own arguments, the choices checked first."""
    m = firing_mode(weapon, targets, choice)
    armed = replace(weapon, mode=m)
    first = targets[0]
    if weapon.card.buckshot:
        return FiringRoute(
            "buckshot", armed, (first.target, first.nearby), {"distance": first.distance}
        )
    if m is FireMode.FA:
        return FiringRoute(
            "full_auto",
            armed,
            (first.target, first.nearby),
            {"distance": first.distance, "aim": choice.aim, "walk_pairs": choice.walk_pairs},
        )
    if m in BURST_MODES:
        return FiringRoute(
            "burst", armed, ([BurstTarget(t.target, t.nearby) for t in targets],), {}
        )
    return FiringRoute(
        "single",
        armed,
        ([t.target for t in targets],),
        {"dice_count": choice.dice_count, "allocation": choice.allocation},
    )


def fire_weapon(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[FireTarget],
    choice: FireOptions | None = None,
) -> FirearmsFire:
    """Fire a weapon by its card: Semi and the other one-round modes, bursts, Full Auto or
    buckshot, whichever the mode and the ammunition call for (FD §5, §6)."""
    choice = choice or FireOptions()
    route = firing_route(weapon, targets, choice)
    rules: dict[str, Callable[..., FirearmsFire]] = {
        "buckshot": buckshot,
        "full_auto": full_auto,
        "burst": burst_fire,
        "single": single_fire,
    }
    return rules[route.rule](
        dice,
        shooter_rep,
        route.weapon,
        *route.args,
        keep_tight_ammo=choice.keep_tight_ammo,
        conversions=choice.conversions,
        roll_damage_dice=choice.roll_damage_dice,
        geometry=choice.geometry,
        who=choice.who,
        **route.shared(choice),
    )
