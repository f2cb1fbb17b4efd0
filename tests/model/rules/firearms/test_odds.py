"""Exact odds of Firearms Detail firings agree with running the rules over every script."""

import dataclasses
import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

from crdesk.dice import ScriptedDice
from crdesk.model import Status
from crdesk.odds import outcome_odds
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import DEFAULT_CARDS
from crdesk.rules.firearms.effects import RingFigure, explosive_rings
from crdesk.rules.firearms.fire import (
    BurstTarget,
    FirearmsFire,
    Nearby,
    Step,
    buckshot,
    burst_fire,
    full_auto,
    single_fire,
)
from crdesk.rules.firearms.odds import (
    FirearmsOdds,
    buckshot_odds,
    burst_odds,
    die_hit_chance,
    full_auto_odds,
    rings_odds,
    single_fire_odds,
)
from crdesk.rules.firearms.tables import FireMode, Support
from crdesk.rules.shooting import TargetSpec
from crdesk.tables import Shot

STATUSES = (Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD)


def loaded(cat: str) -> WeaponState:
    return WeaponState.loaded(DEFAULT_CARDS[cat])


def tally(result: FirearmsFire, p: Fraction, acc: defaultdict) -> None:
    """Per figure id (a burst target may also be another burst's miss check): any hit,
    hits, the worst status; per die position: hit."""
    hits: dict[str, int] = defaultdict(int)
    worst: dict[str, Status] = {}
    for f in result.figures:
        hits[f.id] += f.hits
        if f.status is not None and (f.id not in worst or f.status.rank > worst[f.id].rank):
            worst[f.id] = f.status
        for s in f.shots:
            if s.position:
                acc["die", s.position] += p * s.hit
    for fid, h in hits.items():
        acc[fid, "hit"] += p * (h > 0)
        acc[fid, "hits"] += p * h
    for fid, status in worst.items():
        acc[fid, status] += p


def brute_force(run, faces: int) -> defaultdict:
    """Run the rule over every script of ``faces`` dice (faces it does not use are ignored)."""
    acc: defaultdict = defaultdict(Fraction)
    p = Fraction(1, 6**faces)
    for script in itertools.product(range(1, 7), repeat=faces):
        tally(run(ScriptedDice(script)), p, acc)
    return acc


def agree(odds: FirearmsOdds, acc: defaultdict, *, damage: bool = True) -> None:
    for f in odds.figures:
        assert f.hit == acc[f.id, "hit"], f.id
        assert f.expected_hits == acc[f.id, "hits"], f.id
        if damage:
            got = (f.duck_back, f.out_of_the_fight, f.obviously_dead)
            assert got == tuple(acc[f.id, s] for s in STATUSES), f.id
    for d in odds.dice:
        assert d.hit == acc["die", d.position], d.position


@pytest.mark.parametrize(
    ("steps", "circ", "chance"),
    [
        (0, frozenset(), Fraction(1, 2)),
        (3, frozenset(), Fraction(1)),
        (-3, frozenset(), Fraction(0)),
        (0, frozenset({Shot.TARGET_IN_COVER}), Fraction(1, 6)),  # 8 and 9 miss in Cover
        (-1, frozenset({Shot.TARGET_PRONE}), Fraction(1, 6)),  # 5+4-1 = 8 misses prone
    ],
)
def test_die_hit_chance(steps, circ, chance):
    assert die_hit_chance(4, [Step("s", steps, "FD §1")], circ) == chance


def test_full_auto_walked_with_a_spread_figure_and_damage():
    nearby = [Nearby(TargetSpec("N", 3), 4.0)]
    kw = dict(distance=45, walk_pairs=4)
    odds = full_auto_odds(4, loaded("AR"), TargetSpec("B", 4), nearby, **kw)
    acc = brute_force(lambda d: full_auto(d, 4, loaded("AR"), TargetSpec("B", 4), nearby, **kw), 4)
    agree(odds, acc)
    assert [d.net_steps for d in odds.dice] == [3, 0]  # walk +4 capped at +3; spread +0


def test_full_auto_four_dice_on_two_figures():
    nearby = [Nearby(TargetSpec("N", 4, in_cover=True), 1.0), Nearby(TargetSpec("M", 4), 2.0)]
    kw = dict(distance=25, walk_pairs=3, roll_damage_dice=False)
    acc = brute_force(lambda d: full_auto(d, 5, loaded("AR"), TargetSpec("B", 4), nearby, **kw), 4)
    odds = full_auto_odds(5, loaded("AR"), TargetSpec("B", 4), nearby, distance=25, walk_pairs=3)
    agree(odds, acc, damage=False)


def test_full_auto_dodge():
    target = TargetSpec("B", 4, fast_moving=True)
    kw = dict(distance=5, walk_pairs=4)
    odds = full_auto_odds(4, loaded("AR"), target, **kw)
    run = lambda d: full_auto(d, 4, loaded("AR"), target, **kw, roll_damage_dice=False)  # noqa: E731
    agree(odds, brute_force(run, 3), damage=False)
    assert "the dodge fails 66.7%" in odds.explain()


def test_a_whole_aimed_supported_volley_agrees_with_the_rule_run_over_every_roll():
    nearby = [Nearby(TargetSpec(f"N{i}", 4), 0.3 * i) for i in range(1, 4)]
    args = (4, loaded("SAW"), TargetSpec("B", 4), nearby)
    kw = dict(distance=15, aim=True, support=Support.BIPOD)
    odds = full_auto_odds(*args, **kw)
    run = outcome_odds(
        lambda d: full_auto(d, *args, **kw, roll_damage_dice=False),
        key=lambda r: ",".join(str(f.hits) for f in r.figures),
    )
    ids = ["B", "N1", "N2", "N3"]
    for i, fid in enumerate(ids):
        hit = sum(p for k, p in run.outcomes.items() if int(k.split(",")[i]) > 0)
        hits = sum(p * int(k.split(",")[i]) for k, p in run.outcomes.items())
        assert (odds.figure(fid).hit, odds.figure(fid).expected_hits) == (hit, hits)
    assert len(odds.dice) == 8  # 5/5 row (supported): 5 primary, 3 spread figures


def test_bursts_with_their_re_rolls():
    targets = [
        BurstTarget(TargetSpec("A", 4, in_cover=True), (Nearby(TargetSpec("X", 3), 0.5),)),
        BurstTarget(TargetSpec("C", 4, prone=True), (Nearby(TargetSpec("A", 4), 0.9),)),
    ]
    run = lambda d: burst_fire(  # noqa: E731
        d, 3, loaded("AR"), targets, mode=FireMode.RB3, roll_damage_dice=False
    )
    agree(burst_odds(3, loaded("AR"), targets), brute_force(run, 4), damage=False)
    one = targets[:1]
    run1 = lambda d: burst_fire(d, 3, loaded("AR"), one, mode=FireMode.RB3)  # noqa: E731
    agree(burst_odds(3, loaded("AR"), one), brute_force(run1, 3))


def test_buckshot_at_5_inches():
    nearby = [Nearby(TargetSpec("N", 5), 0.5)]
    sg = loaded("SG")
    odds = buckshot_odds(4, sg, TargetSpec("B", 4), nearby, distance=5)
    agree(
        odds, brute_force(lambda d: buckshot(d, 4, sg, TargetSpec("B", 4), nearby, distance=5), 4)
    )


@pytest.mark.parametrize("distance", [2.0, 10.0, 15.0, 20.0])
def test_buckshot_bands_against_the_rule_run_over_every_roll(distance):
    nearby = [Nearby(TargetSpec(f"N{i}", 4), 0.5 * i) for i in range(1, 5)]
    sg = loaded("SG")
    odds = buckshot_odds(4, sg, TargetSpec("B", 4), nearby, distance=distance)
    run = outcome_odds(
        lambda d: buckshot(d, 4, sg, TargetSpec("B", 4), nearby, distance=distance),
        key=lambda r: ",".join(str(f.status) for f in r.figures),
    )
    for i, f in enumerate(odds.figures):
        for status, got in zip(
            STATUSES, (f.duck_back, f.out_of_the_fight, f.obviously_dead), strict=True
        ):
            want = sum(p for k, p in run.outcomes.items() if k.split(",")[i] == str(status))
            assert got == want, (distance, f.id, status)


def test_semi_fire_odds_with_damage_and_the_jam():
    targets = [TargetSpec("A", 4), TargetSpec("C", 3, in_cover=True)]
    ar = dataclasses.replace(loaded("AR"), ready=False)  # unready: Rush Shot
    odds = single_fire_odds(4, ar, targets, allocation=[2, 1])
    run = outcome_odds(
        lambda d: single_fire(d, 4, ar, targets, allocation=[2, 1]),
        key=lambda r: ",".join(str(f.status) for f in r.figures),
    )
    for i, f in enumerate(odds.figures):
        od = sum(p for k, p in run.outcomes.items() if k.split(",")[i] == "obviously_dead")
        assert f.obviously_dead == od
    assert odds.jam == Fraction(2, 27)  # two or more 1s on 3 dice


def test_explosive_ring_odds_agree_with_the_rule():
    figures = [
        RingFigure("A", 4, 1.0),
        RingFigure("B", 4, 4.0),
        RingFigure("C", 5, 6.0),
        RingFigure("D", 4, 2.0, prone=True),
        RingFigure("E", 4, 9.0),
    ]
    run = outcome_odds(
        lambda d: explosive_rings(d, figures), key=lambda r: ",".join(v.result for v in r.figures)
    )
    for i, f in enumerate(rings_odds(figures)):
        for code, got in (
            ("duck_back", f.duck_back),
            ("out_of_the_fight", f.out_of_the_fight),
            ("obviously_dead", f.obviously_dead),
        ):
            assert got == sum(p for k, p in run.outcomes.items() if k.split(",")[i] == code)
    a = rings_odds(figures)[0]
    assert (a.obviously_dead, a.out_of_the_fight) == (Fraction(1, 3), Fraction(1, 3))  # Deadly
