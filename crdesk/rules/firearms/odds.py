"""Exact odds of a Firearms Detail firing, per die and per figure, before it is rolled.

No sampling: the fire dice are enumerated as multisets with their multinomial
weights (10 Full Auto dice are 3003 multisets), sorted high to low as the rules
sort them, and each die is read with :func:`crdesk.rules.firearms.fire.read_die`
— the very function the rules use.  A burst's re-roll, the dodge and the damage
dice are exact per-die chances folded in.  The tests check every function
against a brute-force run of the rules over every script of faces.

>>> from crdesk.rules.firearms.fire import Step
>>> die_hit_chance(4, [Step("burst", 3, "FD §5")])  # 1+4+3 = 8 already hits
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from crdesk import odds as base_odds
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult
from crdesk.rules.firearms.ammo import WeaponState, max_dice
from crdesk.rules.firearms.effects import RingFigure, class_damage_for_face, ring_class
from crdesk.rules.firearms.fire import (
    BurstTarget,
    FireOptions,
    FireTarget,
    Nearby,
    Step,
    buckshot_plan,
    firing_route,
    full_auto_plan,
    nearest_figures,
    read_die,
    support_steps,
)
from crdesk.rules.firearms.tables import (
    BURST_MISS_REACH,
    BURST_STEPS,
    DEFAULT_CONVERSIONS,
    Conversions,
    DamageClass,
    Support,
    fd,
)
from crdesk.rules.shooting import TargetSpec, default_allocation, shot_circumstances
from crdesk.tables import Shot

FACES = range(1, 7)
SIXTH = Fraction(1, 6)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def multisets(n: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of n d6 faces, sorted high to low (as the fire dice are read),
    with its chance (:func:`crdesk.odds.multisets`)."""
    for combo, p in base_odds.multisets(n):
        yield tuple(sorted(combo, reverse=True)), p


def die_hit_chance(
    rep: int,
    steps: Sequence[Step] = (),
    circumstances: frozenset[Shot] = frozenset(),
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> Fraction:
    """The chance one die (not yet sorted among others) hits: faces 1-6 read on 7.9.10."""
    good = sum(1 for f in FACES if read_die(f, rep, steps, circumstances, conversions)[2])
    return Fraction(good, 6)


@dataclass(frozen=True, slots=True)
class DieOdds(RuleResult):
    """The chance the die at this sorted position hits the figure it goes to."""

    position: int
    target: str
    role: str
    steps: tuple[Step, ...]
    net_steps: int
    hit: Fraction
    section: str = "7.9.10"

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        mods = ", ".join(s.explain() for s in self.steps) or "no steps"
        return f"Die {self.position} on {self.target} ({mods}): {_pct(self.hit)} to hit."


@dataclass(frozen=True, slots=True)
class FigureOdds(RuleResult):
    """One figure's chances: hit at all, hits expected, the worst damage."""

    name: str
    id: str
    role: str
    hit: Fraction
    expected_hits: Fraction
    duck_back: Fraction
    out_of_the_fight: Fraction
    obviously_dead: Fraction
    section: str = fd(5)

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        return (
            f"{self.name} ({self.role}): {_pct(self.hit)} hit, {_pct(self.out_of_the_fight)} "
            f"Out of the Fight, {_pct(self.obviously_dead)} Obviously Dead."
        )


@dataclass(frozen=True, slots=True)
class FirearmsOdds(RuleResult):
    """Exact odds of one firing: every die, every figure, a jam (two or more 1s)."""

    dice: tuple[DieOdds, ...]
    figures: tuple[FigureOdds, ...]
    jam: Fraction
    """Two or more 1s among the fire dice: the "keep Tight Ammo too" jam (FD §3)."""
    section: str = fd(5)
    notes: tuple[str, ...] = field(default=())

    @property
    def result(self) -> str:
        return "odds"

    def figure(self, id_: str) -> FigureOdds:
        for f in self.figures:
            if f.id == id_:
                return f
        raise KeyError(id_)

    def explain(self) -> str:
        return " ".join(
            [*self.notes, *(d.explain() for d in self.dice), *(f.explain() for f in self.figures)]
        )


# --------------------------------------------------------------------------
# The engine: slots of sorted dice going to figures


@dataclass(frozen=True, slots=True)
class _Slot:
    figure: int
    steps: tuple[Step, ...]
    circumstances: frozenset[Shot]
    recheck: tuple[int, Fraction] | None = None
    """On a miss: (figure, chance) of the burst re-roll on the nearest figure."""


@dataclass(frozen=True, slots=True)
class _Fig:
    target: TargetSpec
    role: str
    damage: dict[Status, Fraction]
    """One hit's worst-damage chances (forced statuses included)."""


def _damage(
    rep: int,
    cls: DamageClass,
    *,
    impact: int | None,
    forced: Status | None = None,
    oof_as_duck_back: bool = False,
) -> dict[Status, Fraction]:
    if forced is not None:
        return {forced: Fraction(1)}
    out: dict[Status, Fraction] = {}
    for face in FACES:
        status = class_damage_for_face(face, rep, cls, impact=impact).status
        assert status is not None
        if oof_as_duck_back and status is Status.OUT_OF_THE_FIGHT:
            status = Status.DUCK_BACK
        out[status] = out.get(status, Fraction(0)) + SIXTH
    return out


_RANKED = (Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)


def _run(
    rep: int,
    n_dice: int,
    slots: Sequence[_Slot | None],
    figs: Sequence[_Fig],
    conversions: Conversions,
    weight: Fraction = Fraction(1),
) -> tuple[list[Fraction], list[dict[str, Fraction]]]:
    """Per-slot hit chance and per-figure accumulators, each times ``weight``."""
    slot_hit = [Fraction(0)] * len(slots)
    acc: list[dict[str, Fraction]] = [
        dict.fromkeys(("hit", "hits", *_RANKED), Fraction(0)) for _ in figs
    ]
    for faces, p in multisets(n_dice):
        w = p * weight
        probs: list[list[Fraction]] = [[] for _ in figs]
        for i, slot in enumerate(slots):
            if slot is None:
                continue
            hit = read_die(faces[i], rep, slot.steps, slot.circumstances, conversions)[2]
            probs[slot.figure].append(Fraction(int(hit)))
            if hit:
                slot_hit[i] += w
            elif slot.recheck is not None:
                probs[slot.recheck[0]].append(slot.recheck[1])
        for fi, fig in enumerate(figs):
            dist = base_odds.hits_distribution(tuple(probs[fi]))
            a = acc[fi]
            cum: dict[Status, Fraction] = {}
            run = Fraction(0)
            for s in _RANKED:
                run += fig.damage.get(s, Fraction(0))
                cum[s] = run
            for h, q in enumerate(dist):
                if not h or not q:
                    continue
                a["hit"] += w * q
                a["hits"] += w * q * h
                below = Fraction(0)
                for s in _RANKED:
                    at_most = cum[s] ** h
                    a[s] += w * q * (at_most - below)
                    below = at_most
    return slot_hit, acc


def _jam(n: int) -> Fraction:
    if n < 2:
        return Fraction(0)
    p0 = Fraction(5, 6) ** n
    p1 = n * SIXTH * Fraction(5, 6) ** (n - 1)
    return 1 - p0 - p1


def _result(
    slots: Sequence[_Slot | None],
    slot_hit: Sequence[Fraction],
    figs: Sequence[_Fig],
    acc: Sequence[dict[str, Fraction]],
    n_dice: int,
    conversions: Conversions,
    section: str,
    notes: Sequence[str] = (),
) -> FirearmsOdds:
    dice = tuple(
        DieOdds(
            i + 1,
            figs[s.figure].target.name,
            figs[s.figure].role,
            s.steps,
            max(-conversions.step_cap, min(conversions.step_cap, sum(x.steps for x in s.steps))),
            slot_hit[i],
        )
        for i, s in enumerate(slots)
        if s is not None
    )
    figures = tuple(
        FigureOdds(
            f.target.name,
            f.target.key,
            f.role,
            a["hit"],
            a["hits"],
            a[Status.DUCK_BACK],
            a[Status.OUT_OF_THE_FIGHT],
            a[Status.OBVIOUSLY_DEAD],
            section=section,
        )
        for f, a in zip(figs, acc, strict=True)
    )
    return FirearmsOdds(dice, figures, _jam(n_dice), section, tuple(notes))


def _impact(weapon: WeaponState, options: RulesOptions) -> int | None:
    return weapon.card.stats(old_school=True).impact if options.old_school else None


def _circ(t: TargetSpec, index: int, fast_moving: bool, rush: bool) -> frozenset[Shot]:
    return shot_circumstances(t, index, fast_moving=fast_moving, rush_shot=rush)


# --------------------------------------------------------------------------
# Per mode


def single_fire_odds(
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[TargetSpec],
    *,
    dice_count: int | None = None,
    allocation: Sequence[int] | None = None,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> FirearmsOdds:
    """Exact odds of :func:`crdesk.rules.firearms.fire.single_fire` with the same arguments."""
    options = options or RulesOptions()
    rush = rush_shot or not weapon.ready
    n = (
        max_dice(weapon, weapon.current_mode, old_school=options.old_school)
        if dice_count is None
        else dice_count
    )
    alloc = tuple(allocation) if allocation is not None else default_allocation(n, len(targets))
    if sum(alloc) != n or len(alloc) != len(targets):
        raise IllegalActionError(f"allocation {list(alloc)} does not fit {n} dice")
    steps = support_steps(support, moved=moved or fast_moving)
    impact = _impact(weapon, options)
    figs = [_Fig(t, "target", _damage(t.rep, DamageClass.SEVERE, impact=impact)) for t in targets]
    slots: list[_Slot | None] = []
    for i, (t, k) in enumerate(zip(targets, alloc, strict=True)):
        slots += [_Slot(i, steps, _circ(t, i, fast_moving, rush))] * k
    slot_hit, acc = _run(shooter_rep, n, slots, figs, conversions)
    return _result(slots, slot_hit, figs, acc, n, conversions, fd(5))


def burst_odds(
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[BurstTarget],
    *,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> FirearmsOdds:
    """Exact odds of :func:`crdesk.rules.firearms.fire.burst_fire` (re-rolls included)."""
    options = options or RulesOptions()
    rush = rush_shot or not weapon.ready
    impact = _impact(weapon, options)
    steps = (Step("burst", BURST_STEPS, fd(5)), *support_steps(support, moved=moved or fast_moving))
    figs: list[_Fig] = []
    index: dict[str, int] = {}

    def fig(t: TargetSpec, role: str) -> int:
        if t.key not in index:
            index[t.key] = len(figs)
            figs.append(_Fig(t, role, _damage(t.rep, DamageClass.SEVERE, impact=impact)))
        return index[t.key]

    slots: list[_Slot | None] = []
    for i, bt in enumerate(targets):
        fi = fig(bt.target, "target")
        near = nearest_figures(bt.nearby, BURST_MISS_REACH, {bt.target.key})
        recheck = None
        if near:
            other = near[0].target
            oi = fig(other, "burst_miss")
            recheck = (oi, die_hit_chance(shooter_rep, (), _circ(other, 0, fast_moving, rush)))
        slots.append(_Slot(fi, steps, _circ(bt.target, i, fast_moving, rush), recheck))
    slot_hit, acc = _run(shooter_rep, len(slots), slots, figs, conversions)
    return _result(slots, slot_hit, figs, acc, len(slots), conversions, fd(5))


def full_auto_odds(
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
    options: RulesOptions | None = None,
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> FirearmsOdds:
    """Exact odds of :func:`crdesk.rules.firearms.fire.full_auto`, the dodge included."""
    options = options or RulesOptions()
    rush = rush_shot or not weapon.ready
    impact = _impact(weapon, options)
    plan = full_auto_plan(
        primary,
        nearby,
        distance=distance,
        aim=aim,
        walk_pairs=walk_pairs,
        support=support,
        moved=moved or fast_moving,
    )
    rolled = plan.rolled
    figs = [_Fig(primary, "primary", _damage(primary.rep, DamageClass.SEVERE, impact=impact))]
    figs += [
        _Fig(n.target, "spread", _damage(n.target.rep, DamageClass.SEVERE, impact=impact))
        for n in plan.spread
    ]

    def slots_for(dodged: bool) -> list[_Slot | None]:
        out: list[_Slot | None] = []
        for i in range(rolled):
            if i < plan.primary_n:
                first = not (dodged and i > 0)
                circ = _circ(primary, 0, fast_moving, rush)
                out.append(_Slot(0, plan.steps(i), circ) if first else None)
                continue
            near = plan.spread_figure(i)
            if near is None:
                out.append(None)
                continue
            k, n = near
            out.append(_Slot(k + 1, plan.steps(i), _circ(n.target, 0, fast_moving, rush)))
        return out

    if not primary.fast_moving:
        slots = slots_for(False)
        slot_hit, acc = _run(shooter_rep, rolled, slots, figs, conversions)
        return _result(slots, slot_hit, figs, acc, rolled, conversions, fd(5))
    fail = Fraction(min(max(shooter_rep, 0), 6), 6)
    slots = slots_for(False)
    hit_a, acc_a = _run(shooter_rep, rolled, slots, figs, conversions, fail)
    hit_b, acc_b = _run(shooter_rep, rolled, slots_for(True), figs, conversions, 1 - fail)
    slot_hit = [a + b for a, b in zip(hit_a, hit_b, strict=True)]
    acc = [{k: a[k] + b[k] for k in a} for a, b in zip(acc_a, acc_b, strict=True)]
    note = f"{primary.name} is Fast Moving: the dodge fails {_pct(fail)} ({fd(5)})."
    return _result(slots, slot_hit, figs, acc, rolled, conversions, fd(5), (note,))


def buckshot_odds(
    shooter_rep: int,
    weapon: WeaponState,
    primary: TargetSpec,
    nearby: Sequence[Nearby] = (),
    *,
    distance: float,
    support: Support = Support.NONE,
    moved: bool = False,
    fast_moving: bool = False,
    rush_shot: bool = False,
    options: RulesOptions | None = None,
    conversions: Conversions = DEFAULT_CONVERSIONS,
) -> FirearmsOdds:
    """Exact odds of :func:`crdesk.rules.firearms.fire.buckshot` with the same arguments."""
    options = options or RulesOptions()
    rush = rush_shot or not weapon.ready
    impact = _impact(weapon, options)
    plan = buckshot_plan(
        primary, nearby, distance=distance, support=support, moved=moved or fast_moving
    )
    if not plan.rolls:  # beyond the bands: Received Fire only, no die
        figs = [_Fig(t, "buckshot", {}) for t in plan.targets]
        zero = [dict.fromkeys(("hit", "hits", *_RANKED), Fraction(0)) for _ in figs]
        return _result([], [], figs, zero, 0, conversions, fd(6))
    figs = [
        _Fig(
            t,
            plan.role(i),
            _damage(
                t.rep,
                plan.damage_class,
                impact=impact,
                forced=plan.forced,
                oof_as_duck_back=plan.oof_as_duck_back(i),
            ),
        )
        for i, t in enumerate(plan.targets)
    ]
    slots: list[_Slot | None] = [
        _Slot(i, plan.steps, _circ(t, 0, fast_moving, rush)) for i, t in enumerate(plan.targets)
    ]
    slot_hit, acc = _run(shooter_rep, len(slots), slots, figs, conversions)
    return _result(slots, slot_hit, figs, acc, len(slots), conversions, fd(6))


__all__ = [
    "DieOdds",
    "FigureOdds",
    "FirearmsOdds",
    "buckshot_odds",
    "burst_odds",
    "die_hit_chance",
    "full_auto_odds",
    "multisets",
    "rings_odds",
    "single_fire_odds",
]


def rings_odds(
    figures: Sequence[RingFigure],
    *,
    options: RulesOptions | None = None,
    impact: int | None = None,
) -> tuple[FigureOdds, ...]:
    """Exact odds of :func:`crdesk.rules.firearms.effects.explosive_rings` per figure:
    ``hit`` is the chance of a damage roll at all (in a ring, not escaping)."""
    options = options or RulesOptions()
    out = []
    for f in figures:
        cls = ring_class(f.distance)
        if cls is None or f.prone or f.cover_between or cls is DamageClass.FATIGUE:
            zero = Fraction(0)
            out.append(FigureOdds(f.name, f.key, "ring", zero, zero, zero, zero, zero, fd(9)))
            continue
        dmg = _damage(f.rep, cls, impact=impact if options.old_school else None)
        out.append(
            FigureOdds(
                f.name,
                f.key,
                "ring",
                Fraction(1),
                Fraction(1),
                dmg.get(Status.DUCK_BACK, Fraction(0)),
                dmg.get(Status.OUT_OF_THE_FIGHT, Fraction(0)),
                dmg.get(Status.OBVIOUSLY_DEAD, Fraction(0)),
                fd(9),
            )
        )
    return tuple(out)


def fire_weapon_odds(
    shooter_rep: int,
    weapon: WeaponState,
    targets: Sequence[FireTarget],
    choice: FireOptions | None = None,
) -> FirearmsOdds:
    """Exact odds of :func:`crdesk.rules.firearms.fire.fire_weapon` with the same choices."""
    choice = choice or FireOptions()
    route = firing_route(weapon, targets, choice)
    rules: dict[str, Callable[..., FirearmsOdds]] = {
        "buckshot": buckshot_odds,
        "full_auto": full_auto_odds,
        "burst": burst_odds,
        "single": single_fire_odds,
    }
    return rules[route.rule](
        shooter_rep,
        route.weapon,
        *route.args,
        conversions=choice.conversions or DEFAULT_CONVERSIONS,
        **route.shared(choice),
    )
