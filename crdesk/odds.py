"""Exact odds by enumerating the dice, for the GUI to show before a player commits.

No sampling: every probability is a :class:`fractions.Fraction` from summing
over dice faces (or multisets of faces, weighted by their multinomial counts)
and convolving per-die probabilities.  Where a rule's dice count is fixed
(Received Fire / Man Down) the odds run the very rules function over every
possible script of faces, so odds and rules cannot disagree.  Melee re-fights
on ties are a geometric series, summed in closed form; -1 to Rep rounds recurse
over the figures' current Reps.

Hand-checked examples:

>>> pass_distribution(2, 3) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
True
>>> in_sight_odds(1, 1).mover_wins  # 1 success vs 0: (1/2)(1/2)
Fraction(1, 4)
>>> t = fire_odds(4, "P", [TargetSpec("B", 4)]).targets[0]
>>> t.hit, t.obviously_dead, t.out_of_the_fight  # 4-6 hits; then 6 / 4-5 on damage
(Fraction(1, 2), Fraction(1, 12), Fraction(1, 6))
>>> m = melee_odds(Fighter("A", 1), Fighter("B", 1))
>>> m.a_wins, m.outcome("A", Status.OBVIOUSLY_DEAD)  # win 1/4 per round, tie 1/2; 5-6+1
(Fraction(1, 2), Fraction(1, 6))
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from crdesk.dice import DiceSource, ScriptedDice, count_passes
from crdesk.errors import IllegalActionError
from crdesk.model import Status, WeaponCode
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, words
from crdesk.rules.damage import damage_for_face
from crdesk.rules.in_sight import beats
from crdesk.rules.melee import Approach, Fighter, target_charge_dice
from crdesk.rules.reaction import (
    Losses,
    ReactingFigure,
    ReactionResult,
    ReactionTest,
    reaction_test,
)
from crdesk.rules.shooting import (
    TargetSpec,
    pitiful_shot_applies,
    shot_circumstances,
    shot_hits,
    volley_allocation,
)
from crdesk.rules.stars import reduce_damage, star_fate
from crdesk.tables import (
    GRENADE_THROW,
    ChargeResult,
    GrenadeThrow,
    charge_result,
    melee_damage,
    weapon_stats,
)

__all__ = [
    "ChargeOdds",
    "FireOdds",
    "InSightOdds",
    "MeleeOdds",
    "OutcomeOdds",
    "ReactionOdds",
    "TargetOdds",
    "ThrowOdds",
    "charge_odds",
    "enumerate_scripts",
    "fire_odds",
    "hits_distribution",
    "in_sight_odds",
    "melee_odds",
    "outcome_odds",
    "outcome_words",
    "pass_distribution",
    "reaction_odds",
    "success_distribution",
    "throw_odds",
]

R = TypeVar("R")
FACES = range(1, 7)
SIXTH = Fraction(1, 6)


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(k of n independent dice succeed), k = 0..n."""
    q = 1 - p
    return [math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


def pass_distribution(
    n_dice: int, target: int, *, cap: int | None = 2, six_fails: bool = False
) -> dict[int, Fraction]:
    """Distribution of passes on a pass test (4.1), capped at 2 by default."""
    good = sum(1 for f in FACES if count_passes([f], target, cap=None, six_fails=six_fails))
    out: dict[int, Fraction] = defaultdict(Fraction)
    for k, p in enumerate(_binomial(max(0, n_dice), Fraction(good, 6))):
        out[k if cap is None else min(cap, k)] += p
    return dict(out)


def success_distribution(n_dice: int) -> dict[int, Fraction]:
    """Distribution of successes (1-3) on ``n_dice`` d6 (4.1); no cap."""
    return dict(enumerate(_binomial(max(0, n_dice), Fraction(1, 2))))


def enumerate_scripts(run: Callable[[DiceSource], R], count: int) -> Iterator[tuple[Fraction, R]]:
    """Run a rule over every possible script of ``count`` faces, each with chance 6^-count."""
    p = Fraction(1, 6**count)
    for faces in itertools.product(FACES, repeat=count):
        yield p, run(ScriptedDice(faces))


def _dice_used(run: Callable[[DiceSource], Any]) -> int:
    """How many faces a rule with a fixed dice count consumes (probe with sixes)."""
    probe = ScriptedDice([6] * 64)
    run(probe)
    return probe.used


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


_BOOK_WORDS = {
    ChargeResult.TARGET_FIRES.value: "target fires",
    ChargeResult.TARGET_RUSH_SHOTS.value: "target Rush Shots",
    ChargeResult.CHARGER_MOVES_IN.value: "charger moves into melee",
    "somethings_out_there": "Something's Out There",
    "false_alarm": "False Alarm",
    "contact": "Contact!",
    "readied_throw_now": "readied, thrown at once",
    "readied_throw_later": "readied, thrown later",
    "on_spot": "on the spot",
    "oops": "Oops",
    "rep_increase": "Rep +1",
    "rep_decrease": "Rep -1",
    "received_fire": "Received Fire",
    "move_to_cover_to_fire": "move to Cover to fire",
    "remain_or_move_to_nearest_cover": "remain or move to the nearest Cover",
    "no_move": "no move",
}


def outcome_words(code: str) -> str:
    """A result code in the book's words: ``out_of_the_fight`` → ``Out of the Fight``.

    >>> outcome_words("target_rush_shots"), outcome_words("duck_back"), outcome_words("no_change")
    ('target Rush Shots', 'Duck Back', 'no change')
    """
    if code in _BOOK_WORDS:
        return _BOOK_WORDS[code]
    inches = code.removeprefix("move_")
    if inches.isdigit():
        return f'moves {inches}"'
    try:
        return words(Status(code))
    except ValueError:
        return code.replace("_", " ")


# --------------------------------------------------------------------------
# Any rule: run it over every roll it makes


class _NeedRoll(Exception):
    """The rule asks for a roll past the faces fixed so far."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


class _PrefixDice(DiceSource):
    """Fixed faces for the first rolls; any further roll stops the rule (:class:`_NeedRoll`)."""

    def __init__(self, rolls: Sequence[tuple[int, ...]]) -> None:
        super().__init__()
        self.rolls = rolls
        self.next = 0

    def _faces(self, count: int, context: str) -> tuple[int, ...]:
        if self.next == len(self.rolls):
            raise _NeedRoll(count)
        faces = self.rolls[self.next]
        self.next += 1
        return faces


@dataclass(frozen=True, slots=True)
class OutcomeOdds(RuleResult):
    """Exact chance of each result of one rule (``outcomes``: result code → chance)."""

    label: str
    outcomes: Mapping[str, Fraction]
    section: str = ""

    @property
    def result(self) -> str:
        return "odds"

    def chance(self, code: str) -> Fraction:
        return self.outcomes.get(code, Fraction(0))

    def explain(self) -> str:
        head = f"{self.label}: " if self.label else ""
        body = ", ".join(f"{outcome_words(k)} {_pct(p)}" for k, p in self.outcomes.items())
        return f"{head}{body} ({self.section})."


def outcome_odds(
    run: Callable[[DiceSource], Any],
    *,
    label: str = "",
    key: Callable[[Any], str] | None = None,
    limit: int = 200_000,
) -> OutcomeOdds:
    """Run a rule over every roll it makes, each roll's faces as multisets with their
    multinomial weights, and sum the chance of each result (``key``: its ``result``).

    Exact for any rule that reads a roll's faces as a set (counts passes,
    successes, the best dice): the rules do, except activation (who rolled which
    die), which has its own, :func:`activation_odds`.  Rolls that depend on earlier
    faces (a reroll, the damage of a hit) are followed on their own branch.  ``limit`` caps the
    branches, so a huge dice pool is refused instead of hanging.

    >>> from crdesk.rules.damage import roll_damage
    >>> odds = outcome_odds(lambda d: roll_damage(d, 4))
    >>> odds.chance("obviously_dead"), odds.chance("out_of_the_fight"), odds.chance("duck_back")
    (Fraction(1, 6), Fraction(1, 3), Fraction(1, 2))
    """
    out: dict[str, Fraction] = defaultdict(Fraction)
    section = ""
    stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
    branches = 0
    while stack:
        rolls, p = stack.pop()
        branches += 1
        if branches > limit:
            raise IllegalActionError(
                f"too many dice to work out the odds exactly (over {limit} branches)"
            )
        try:
            result = run(_PrefixDice(rolls))
        except _NeedRoll as need:
            stack.extend(((*rolls, faces), p * w) for faces, w in multisets(need.count))
            continue
        section = section or str(getattr(result, "section", ""))
        out[key(result) if key is not None else str(result.result)] += p
    ordered = dict(sorted(out.items(), key=lambda kv: -kv[1]))
    return OutcomeOdds(label, ordered, section)


# --------------------------------------------------------------------------
# In Sight 7.6.3


@dataclass(frozen=True, slots=True)
class InSightOdds(RuleResult):
    """Chance that each side wins a two-group In Sight test (7.6.3)."""

    mover_wins: Fraction
    other_wins: Fraction
    section: str = "7.6.3"

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        return (
            f"In Sight: the mover acts {_pct(self.mover_wins)}, the other side acts "
            f"{_pct(self.other_wins)} ({self.section})."
        )


def in_sight_odds(
    mover_rep: int,
    other_rep: int,
    *,
    mover_sees_concealed: bool = False,
    other_sees_concealed: bool = False,
) -> InSightOdds:
    """Exact chance the moving group beats the other (more successes) and vice versa."""
    m = success_distribution(mover_rep - (1 if mover_sees_concealed else 0))
    o = success_distribution(other_rep - (1 if other_sees_concealed else 0))
    win = sum(
        (
            pm * po
            for (sm, pm), (so, po) in itertools.product(m.items(), o.items())
            if beats(sm, True, so)
        ),
        Fraction(0),
    )
    return InSightOdds(win, 1 - win)


# --------------------------------------------------------------------------
# Received Fire / Man Down 7.7


@dataclass(frozen=True, slots=True)
class ReactionOdds(RuleResult):
    """Chance of each status for each figure taking the test (7.7)."""

    figures: Mapping[str, Mapping[Status, Fraction]]
    section: str = "7.7"

    @property
    def result(self) -> str:
        return "odds"

    def chance(self, name: str, status: Status) -> Fraction:
        return self.figures[name].get(status, Fraction(0))

    def explain(self) -> str:
        parts = []
        for name, dist in self.figures.items():
            items = ", ".join(
                f"{words(s)} {_pct(p)}" for s, p in sorted(dist.items(), key=lambda i: i[0].rank)
            )
            parts.append(f"{name}: {items}")
        return "; ".join(parts) + f" ({self.section})."


def reaction_odds(
    testers: Sequence[ReactingFigure],
    tests: Sequence[ReactionTest] = (ReactionTest.RECEIVED_FIRE,),
    *,
    leader_rep: int | Sequence[int] | None = None,
    losses: Losses | None = None,
    options: RulesOptions | None = None,
) -> ReactionOdds:
    """Exact odds of every reaction result, by running :func:`reaction_test` on every roll."""

    def run(dice: DiceSource) -> ReactionResult:
        return reaction_test(
            dice, testers, tests, leader_rep=leader_rep, losses=losses, options=options
        )

    counts: dict[str, dict[Status, Fraction]] = {t.name: defaultdict(Fraction) for t in testers}
    for p, result in enumerate_scripts(run, _dice_used(run)):
        for fig in result.figures:
            counts[fig.name][fig.status] += p
    return ReactionOdds({n: dict(d) for n, d in counts.items()})


# --------------------------------------------------------------------------
# Ranged fire 7.9.10, 7.9.11, 7.9.14, 7.9.2


@dataclass(frozen=True, slots=True)
class TargetOdds(RuleResult):
    """Chance of each outcome for one target of a volley (worst damage taken)."""

    name: str
    hit: Fraction
    duck_back: Fraction
    out_of_the_fight: Fraction
    obviously_dead: Fraction
    expected_hits: Fraction
    section: str = "7.9.10"

    @property
    def miss(self) -> Fraction:
        """Not hit at all: the target takes Received Fire."""
        return 1 - self.hit

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        return (
            f"{self.name}: {_pct(self.hit)} to hit, {_pct(self.out_of_the_fight)} Out of the "
            f"Fight, {_pct(self.obviously_dead)} Obviously Dead (7.9.10, 7.9.11)."
        )


@dataclass(frozen=True, slots=True)
class FireOdds(RuleResult):
    """Exact odds of a volley: per target, any hit, out of ammo."""

    targets: tuple[TargetOdds, ...]
    any_hit: Fraction
    out_of_ammo: Fraction
    section: str = "7.9.10"

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        return " ".join(t.explain() for t in self.targets) + (
            f" Any hit {_pct(self.any_hit)}; out of ammo {_pct(self.out_of_ammo)} (7.9.2)."
        )


def multisets(n: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of n d6 faces (low to high) with its probability (multinomial / 6^n):
    exact odds over a handful of dice without walking all 6^n rolls."""
    total = 6**n
    for combo in itertools.combinations_with_replacement(FACES, n):
        yield combo, Fraction(_orderings(combo), total)


def _orderings(combo: Sequence[object]) -> int:
    """In how many orders the multiset ``combo`` can come (the multinomial coefficient)."""
    ways = math.factorial(len(combo))
    for c in Counter(combo).values():
        ways //= math.factorial(c)
    return ways


@cache
def _multisets(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """:func:`multisets` of n dice, worked out once."""
    return tuple(multisets(n))


@cache
def hits_distribution(probs: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """Distribution of the number of hits from independent per-die hit chances (a few
    dozen distinct ``probs`` ever: remembered); the Firearms Detail odds read it too."""
    dist = [Fraction(1)]
    for p in probs:
        nxt = [Fraction(0)] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return tuple(dist)


_DAMAGE_LEVELS = (Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)


@cache
def star_damage(
    hits: int,
    damage: tuple[Fraction, Fraction, Fraction],
    dice: int,
    star_rep: int,
    shooter_rep: int,
) -> tuple[Fraction, Fraction, Fraction]:
    """Chance that ``hits`` hits on a Star leave it Duck Back, Out of the Fight or
    Obviously Dead (``damage``: one hit's chance of each, 7.9.11) once its ``dice``
    Star Power dice are rolled against them (each 1-3 one level off the worst result)
    and Larger Than Life is applied (5.2), by the rules' own functions.  A Star is
    assumed to roll its Star Power, as any player would; Cheating Death, the player's
    choice after it, is not applied: "Obviously Dead" reads "would be killed"."""
    out = dict.fromkeys(_DAMAGE_LEVELS, Fraction(0))
    reductions = _binomial(dice, Fraction(1, 2))
    for combo in itertools.combinations_with_replacement(range(3), hits):
        p = Fraction(_orderings(combo))
        for level in combo:
            p *= damage[level]
        if not p:
            continue
        results = [_DAMAGE_LEVELS[level] for level in combo]
        for r, q in enumerate(reductions):
            worst = max(reduce_damage(results, r), key=lambda s: s.rank)
            fate = star_fate(worst, star_rep=star_rep, attacker_rep=shooter_rep)
            out[fate.status] += p * q
    return out[Status.DUCK_BACK], out[Status.OUT_OF_THE_FIGHT], out[Status.OBVIOUSLY_DEAD]


def fire_odds(
    shooter_rep: int,
    weapon: WeaponCode | str,
    targets: Sequence[TargetSpec],
    *,
    allocation: Sequence[int] | None = None,
    fast_moving: bool = False,
    rush_shot: bool = False,
    options: RulesOptions | None = None,
    star_power: Sequence[int | None] | None = None,
) -> FireOdds:
    """Exact odds of :func:`crdesk.rules.shooting.fire` with the same arguments.

    Enumerates multisets of the dice rolled (the shotgun's six included), sorts
    them high to low as 7.9.9 does, reads each die on 7.9.10 with the same
    functions the rules use, adds Pitiful Shot rerolls (7.9.14) and damage dice
    (7.9.11 / 16.1) as exact per-die chances.

    ``star_power`` gives, target by target, a Star's Star Power dice (None: not a
    Star): its damage is then what is left after Star Power and Larger Than Life
    (5.2, :func:`star_damage`), as the game applies them after the volley.  Without
    it a Star would read as a Grunt of its Rep, far likelier to be taken out than it
    is (five dice take a level off nearly every hit).
    """
    options = options or RulesOptions()
    stats = weapon_stats(weapon, options.old_school)
    if stats.blast:
        raise IllegalActionError("blast weapons have no per-target odds here")
    k = stats.target
    alloc = volley_allocation(stats, len(targets), allocation)
    stars = list(star_power) if star_power is not None else [None] * len(targets)
    if len(stars) != len(targets):
        raise IllegalActionError(
            f"star_power gives {len(stars)} targets' dice for {len(targets)} targets"
        )
    # damage chances per hit, per target
    dmg: list[dict[Status, Fraction]] = []
    for t in targets:
        d: dict[Status, Fraction] = defaultdict(Fraction)
        for face in FACES:
            d[damage_for_face(face, t.rep, weapon=stats.code, options=options).status] += SIXTH
        dmg.append(d)
    circs = [
        shot_circumstances(t, i, fast_moving=fast_moving, rush_shot=rush_shot)
        for i, t in enumerate(targets)
    ]
    pitiful_p = Fraction(min(max(shooter_rep, 0), 6), 6)
    # each face's chance to hit each target, read once on 7.9.10 (a Pitiful Shot's
    # reroll, 7.9.14, hits with ``pitiful_p``)
    reads: list[dict[int, Fraction]] = []
    for circ in circs:
        read: dict[int, Fraction] = {}
        for face in FACES:
            hit, _ = shot_hits(face, shooter_rep, circ)
            pitiful = pitiful_shot_applies(face, shooter_rep, hit)
            read[face] = Fraction(1) if hit else pitiful_p if pitiful else Fraction(0)
        reads.append(read)

    # the rolls grouped by what each target's dice read: rolls alike there have the
    # same odds, so each group is worked out once, with the chance of all its rolls
    # (exact: a sum of Fractions regrouped is the same Fraction)
    groups: defaultdict[tuple[tuple[Fraction, ...], ...], Fraction] = defaultdict(Fraction)
    ammo = Fraction(0)
    for faces, p in _multisets(stats.rolls):
        if stats.always_out_of_ammo or faces.count(1) >= 2:
            ammo += p
        kept = faces[::-1][:k]  # the faces come low to high: the best k (7.9.9)
        pos = 0
        reading = []
        for read, n in zip(reads, alloc, strict=True):
            reading.append(tuple(read[face] for face in kept[pos : pos + n]))
            pos += n
        groups[tuple(reading)] += p

    acc: list[defaultdict[object, Fraction]] = [defaultdict(Fraction) for _ in targets]
    any_hit = Fraction(0)
    for key, p in groups.items():
        none_hit = Fraction(1)
        for ti, probs in enumerate(key):
            dist = hits_distribution(probs)
            none_hit *= dist[0]
            od = dmg[ti][Status.OBVIOUSLY_DEAD]
            db = dmg[ti][Status.DUCK_BACK]
            star = stars[ti]
            a = acc[ti]
            for hits, q in enumerate(dist):
                if not hits or not q:
                    continue
                w = p * q
                a["hit"] += w
                a["hits"] += w * hits
                if star is not None:
                    levels = tuple(dmg[ti][s] for s in _DAMAGE_LEVELS)
                    sdb, soof, sod = star_damage(hits, levels, star, targets[ti].rep, shooter_rep)
                    a[Status.DUCK_BACK] += w * sdb
                    a[Status.OUT_OF_THE_FIGHT] += w * soof
                    a[Status.OBVIOUSLY_DEAD] += w * sod
                    continue
                a[Status.OBVIOUSLY_DEAD] += w * (1 - (1 - od) ** hits)
                a[Status.DUCK_BACK] += w * db**hits
                a[Status.OUT_OF_THE_FIGHT] += w * ((1 - od) ** hits - db**hits)
        any_hit += p * (1 - none_hit)
    return FireOdds(
        tuple(
            TargetOdds(
                t.name,
                a["hit"],
                a[Status.DUCK_BACK],
                a[Status.OUT_OF_THE_FIGHT],
                a[Status.OBVIOUSLY_DEAD],
                a["hits"],
            )
            for t, a in zip(targets, acc, strict=True)
        ),
        any_hit,
        ammo,
    )


# --------------------------------------------------------------------------
# Charge into Melee 7.11.2 and Melee 7.11.4-7.11.5


@dataclass(frozen=True, slots=True)
class ChargeOdds(RuleResult):
    """Chance of each Charge into Melee result for one charger (7.11.2)."""

    outcomes: Mapping[ChargeResult, Fraction]
    target_dice: int = 2
    """The d6 the target rolls: 2, +1 in Cover, -1 flank, -2 rear (7.11.2)."""
    section: str = "7.11.2"

    @property
    def result(self) -> str:
        return "odds"

    def chance(self, outcome: ChargeResult) -> Fraction:
        return self.outcomes.get(outcome, Fraction(0))

    def explain(self) -> str:
        return (
            ", ".join(f"{outcome_words(o.value)} {_pct(p)}" for o, p in self.outcomes.items())
            + " (7.11.2)."
        )


def charge_odds(
    charger_rep: int,
    target_rep: int,
    *,
    in_cover: bool = False,
    approach: Approach = Approach.FRONT,
    options: RulesOptions | None = None,
) -> ChargeOdds:
    """Exact odds of the target passing more / the same / fewer d6 than the charger."""
    c = pass_distribution(2, charger_rep)
    n = target_charge_dice(in_cover=in_cover, approach=approach, options=options)
    t = pass_distribution(n, target_rep)
    out: dict[ChargeResult, Fraction] = defaultdict(Fraction)
    for (cp, pc), (tp, pt) in itertools.product(c.items(), t.items()):
        out[charge_result(tp, cp)] += pc * pt
    return ChargeOdds(dict(out), n)


# --------------------------------------------------------------------------
# Throw a Grenade 7.10.3


@dataclass(frozen=True, slots=True)
class ThrowOdds(RuleResult):
    """Chance of each Throw a Grenade result (7.10.3): on the spot, a miss, or Oops."""

    outcomes: Mapping[GrenadeThrow, Fraction]
    section: str = "7.10.3"

    @property
    def result(self) -> str:
        return "odds"

    def chance(self, outcome: GrenadeThrow) -> Fraction:
        return self.outcomes.get(outcome, Fraction(0))

    def explain(self) -> str:
        names = {
            GrenadeThrow.ON_SPOT: "on the spot",
            GrenadeThrow.MISS: "miss",
            GrenadeThrow.OOPS: "Oops",
        }
        return (
            ", ".join(f"{names.get(o, o.value)} {_pct(p)}" for o, p in self.outcomes.items())
            + " (7.10.3)."
        )


def throw_odds(rep: int, *, spot_in_los: bool) -> ThrowOdds:
    """Exact odds of :func:`crdesk.rules.grenades.throw_grenade`: 2d6 vs Rep on 7.10.3,
    one pass landing on the spot only when the thrower sees it."""
    out: dict[GrenadeThrow, Fraction] = defaultdict(Fraction)
    for passed, p in pass_distribution(2, rep).items():
        row = GRENADE_THROW[passed]
        if row is GrenadeThrow.ON_SPOT_IF_IN_LOS:
            row = GrenadeThrow.ON_SPOT if spot_in_los else GrenadeThrow.MISS
        out[row] += p
    order = (GrenadeThrow.ON_SPOT, GrenadeThrow.MISS, GrenadeThrow.OOPS)
    return ThrowOdds({o: out[o] for o in order if o in out})


@dataclass(frozen=True, slots=True)
class MeleeOdds(RuleResult):
    """Chance each fighter wins the melee, and of each final damage result (7.11.4-5)."""

    a: str
    b: str
    outcomes: Mapping[tuple[str, Status], Fraction]
    """(winner, loser's final status) → chance."""
    section: str = "7.11.4"

    @property
    def a_wins(self) -> Fraction:
        return sum((p for (w, _), p in self.outcomes.items() if w == self.a), Fraction(0))

    @property
    def b_wins(self) -> Fraction:
        return sum((p for (w, _), p in self.outcomes.items() if w == self.b), Fraction(0))

    def outcome(self, winner: str, status: Status) -> Fraction:
        return self.outcomes.get((winner, status), Fraction(0))

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        return (
            f"{self.a} wins {_pct(self.a_wins)}, {self.b} wins {_pct(self.b_wins)}; "
            + ", ".join(
                f"{w} puts the other {words(s)} {_pct(p)}" for (w, s), p in self.outcomes.items()
            )
            + " (7.11.4, 7.11.5)."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "result": self.result,
            "a_wins": float(self.a_wins),
            "b_wins": float(self.b_wins),
            "outcomes": [
                {"winner": w, "result": s.value, "chance": float(p)}
                for (w, s), p in self.outcomes.items()
            ],
            "explain": self.explain(),
        }


def melee_odds(a: Fighter, b: Fighter) -> MeleeOdds:
    """Exact odds of :func:`crdesk.rules.melee.melee`: ties re-fight (a geometric series,
    so each round's win chances are divided by 1 - P(tie)); a -1 to Rep result recurses
    with the loser's Rep one lower until someone is Out of the Fight or Obviously Dead."""

    @cache
    def solve(ra: int, rb: int) -> tuple[tuple[tuple[str, Status], Fraction], ...]:
        sa = success_distribution(a.dice(ra))
        sb = success_distribution(b.dice(rb))
        tie = sum((sa[k] * sb.get(k, Fraction(0)) for k in sa), Fraction(0))
        if tie == 1:
            raise IllegalActionError("neither fighter rolls any dice: the melee never ends")
        out: dict[tuple[str, Status], Fraction] = defaultdict(Fraction)
        for (xa, pa), (xb, pb) in itertools.product(sa.items(), sb.items()):
            if xa == xb:
                continue
            p_round = pa * pb / (1 - tie)
            a_won = xa > xb
            winner = a.name if a_won else b.name
            loser_rep = rb if a_won else ra
            margin = abs(xa - xb)
            for die in FACES:
                status = melee_damage(die + margin, loser_rep)
                w = p_round * SIXTH
                if status is Status.MINUS_ONE_REP:
                    sub = solve(ra, rb - 1) if a_won else solve(ra - 1, rb)
                    for key, q in sub:
                        out[key] += w * q
                else:
                    out[(winner, status)] += w
        return tuple(out.items())

    if a.name == b.name:
        raise IllegalActionError("the two fighters need different names")
    return MeleeOdds(a.name, b.name, dict(solve(a.rep, b.rep)))


@dataclass(frozen=True, slots=True)
class ActivationOdds(RuleResult):
    """The odds of the activation dice (7.1): who goes first, how often doubles are
    rolled again, and how often a group of each Leader Rep may activate."""

    sides: tuple[str, str]
    first: Mapping[str, Fraction]
    """Each side's chance to activate first (the higher die, once not doubles)."""
    doubles: Fraction
    """The chance one roll is doubles (rolled again until it is not)."""
    may_activate: Mapping[int, Fraction]
    """Leader Rep -> the chance its side's die lets the group activate (die <= Rep)."""
    section: str = "7.1"

    @property
    def result(self) -> str:
        return "odds"

    def explain(self) -> str:
        first = ", ".join(f"{s} first {_pct(p)}" for s, p in self.first.items())
        reps = ", ".join(
            f"Rep {r}{'+' if r == max(self.may_activate) else ''} {_pct(p)}"
            for r, p in self.may_activate.items()
        )
        return (
            f"Who goes first: {first} (the higher die; doubles, {_pct(self.doubles)} of "
            f"rolls, are rolled again). A group may activate when its Leader's Rep is at "
            f"least its side's die: {reps} ({self.section})."
        )


def activation_odds(sides: Sequence[str] = ("player", "enemy")) -> ActivationOdds:
    """Every face of the two activation dice, doubles rolled again (7.1).

    >>> o = activation_odds()
    >>> o.first["player"], o.doubles, o.may_activate[4]
    (Fraction(1, 2), Fraction(1, 6), Fraction(2, 3))
    """
    faces = list(itertools.product(range(1, 7), repeat=2))
    kept = [(a, b) for a, b in faces if a != b]
    weight = Fraction(1, len(kept))
    first = {
        sides[0]: sum((weight for a, b in kept if a > b), Fraction(0)),
        sides[1]: sum((weight for a, b in kept if b > a), Fraction(0)),
    }
    may = {rep: sum((weight for a, _b in kept if a <= rep), Fraction(0)) for rep in range(1, 7)}
    doubles = Fraction(len(faces) - len(kept), len(faces))
    return ActivationOdds((sides[0], sides[1]), first, doubles, may)
