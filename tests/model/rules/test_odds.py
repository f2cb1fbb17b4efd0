"""Exact odds (crdesk.odds): structure, agreement with the rules functions, and
agreement with 200,000 seeded simulated rolls (numpy, written independently of the
engine) within 0.5 percentage points."""

import doctest
from fractions import Fraction

import pytest

import crdesk.dice
import crdesk.odds
import crdesk.rules.stars
from crdesk.model import MeleeWeapon, Status
from crdesk.odds import (
    charge_odds,
    enumerate_scripts,
    fire_odds,
    in_sight_odds,
    melee_odds,
    pass_distribution,
    reaction_odds,
    success_distribution,
)
from crdesk.rules.melee import Approach, Fighter
from crdesk.rules.reaction import ReactingFigure, ReactionTest
from crdesk.rules.shooting import TargetSpec, fire
from crdesk.tables import ChargeResult

N = 200_000
TOL = 0.005


@pytest.mark.parametrize("module", [crdesk.odds, crdesk.dice, crdesk.rules.stars])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_distributions():
    assert pass_distribution(2, 4) == {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}
    assert sum(pass_distribution(3, 4).values()) == 1
    assert max(pass_distribution(3, 4)) == 2  # capped
    assert pass_distribution(2, 6, six_fails=True)[2] == Fraction(25, 36)
    assert pass_distribution(0, 4) == {0: 1}
    assert success_distribution(2) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_reaction_odds_single_rep_4_by_hand():
    odds = reaction_odds([ReactingFigure("A", 4)])
    assert odds.chance("A", Status.RETURN_FIRE) == Fraction(4, 9)
    assert odds.chance("A", Status.RUSH_SHOT) == Fraction(4, 9)
    assert odds.chance("A", Status.DUCK_BACK) == Fraction(1, 9)
    assert "Return Fire 44%" in odds.explain()


def test_reaction_odds_sum_to_one_per_figure():
    odds = reaction_odds(
        [ReactingFigure("A", 3), ReactingFigure("B", 5, in_cover=True, outgunned=True)],
        (ReactionTest.RECEIVED_FIRE, ReactionTest.MAN_DOWN),
        leader_rep=5,
    )
    for dist in odds.figures.values():
        assert sum(dist.values()) == 1


def test_fire_odds_agree_with_exhaustive_runs_of_fire():
    targets = [TargetSpec("A", 4, in_cover=True), TargetSpec("B", 4)]
    odds = fire_odds(5, "SAR", targets)

    def run(dice):
        return fire(dice, 5, "SAR", targets, roll_damage_dice=False)

    hit = [Fraction(0), Fraction(0)]
    ammo = Fraction(0)
    for p, result in enumerate_scripts(run, 2):
        for i, t in enumerate(result.targets):
            hit[i] += p * (t.hits > 0)
        ammo += p * result.out_of_ammo
    assert [t.hit for t in odds.targets] == hit
    assert odds.out_of_ammo == ammo == Fraction(1, 36)


def test_fire_odds_outcomes_partition():
    odds = fire_odds(3, "SG", [TargetSpec("A", 4, in_cover=True)])
    t = odds.targets[0]
    assert t.miss + t.duck_back + t.out_of_the_fight + t.obviously_dead == 1
    assert odds.any_hit == t.hit
    assert "to hit" in odds.explain()


def test_in_sight_charge_melee_odds_sum_to_one():
    s = in_sight_odds(4, 4)
    assert s.mover_wins + s.other_wins == 1 and s.mover_wins < s.other_wins
    c = charge_odds(4, 4)
    assert sum(c.outcomes.values()) == 1
    assert c.chance(ChargeResult.TARGET_FIRES) == c.chance(ChargeResult.CHARGER_MOVES_IN)
    m = melee_odds(Fighter("A", 4), Fighter("B", 4))
    assert m.a_wins == m.b_wins == Fraction(1, 2)
    assert sum(m.outcomes.values()) == 1
    assert m.to_dict()["a_wins"] == 0.5


# ---------------------------------------------------------------- simulations

np = pytest.importorskip("numpy")


def close(exact, simulated):
    assert abs(float(exact) - float(simulated)) < TOL, (float(exact), float(simulated))


def rng(seed):
    return np.random.default_rng(seed)


def test_in_sight_odds_vs_simulation():
    r = rng(1)
    mover = (r.integers(1, 7, (N, 3)) <= 3).sum(1)  # Rep 4, other concealed: 3 dice
    other = (r.integers(1, 7, (N, 5)) <= 3).sum(1)  # Rep 5
    exact = in_sight_odds(4, 5, mover_sees_concealed=True)
    close(exact.mover_wins, (mover > other).mean())


def test_reaction_odds_vs_simulation():
    r = rng(2)
    d = r.integers(1, 7, (N, 3))
    leader = r.integers(1, 7, N) <= 5
    rank = {"CO": 0, "RF": 1, "RS": 2, "DB": 4, "LB": 5}

    def statuses(base):
        rf_passes = np.minimum(2, base + leader)
        rf = np.select([rf_passes == 2, rf_passes == 1], [rank["RF"], rank["RS"]], rank["DB"])
        md = np.select([base == 2, base == 1], [rank["CO"], rank["DB"]], rank["LB"])
        return np.maximum(rf, md)

    x = statuses(np.minimum(2, (d[:, :2] <= 3).sum(1)))  # Rep 3 in the open
    y = statuses(np.minimum(2, (d <= 5).sum(1)))  # Rep 5 in Cover
    exact = reaction_odds(
        [ReactingFigure("X", 3), ReactingFigure("Y", 5, in_cover=True)],
        (ReactionTest.RECEIVED_FIRE, ReactionTest.MAN_DOWN),
        leader_rep=5,
    )
    codes = {
        Status.CARRY_ON: 0,
        Status.RETURN_FIRE: 1,
        Status.RUSH_SHOT: 2,
        Status.DUCK_BACK: 4,
        Status.LEAVE_THE_BATTLEFIELD: 5,
    }
    for name, sim in (("X", x), ("Y", y)):
        for status, code in codes.items():
            close(exact.chance(name, status), (sim == code).mean())


def worst_damage(r, hits, rep):
    """Worst 7.9.11 result over `hits` damage dice per row: 0 none, 1 DB, 2 OOF, 3 OD."""
    dice = r.integers(1, 7, (len(hits), max(1, hits.max())))
    mask = np.arange(dice.shape[1])[None, :] < hits[:, None]
    level = np.where(dice == 6, 3, np.where(dice >= rep, 2, 1))
    return np.where(mask, level, 0).max(1)


def test_fire_odds_vs_simulation_two_targets():
    r = rng(3)
    faces = -np.sort(-r.integers(1, 7, (N, 3)), axis=1)
    a_hits = (faces[:, :2] + 4 >= 10).sum(1)  # A in Cover: 8 and 9 miss
    b_hits = (faces[:, 2] + 4 >= 9).astype(int)  # B prone, second target: 8 misses
    a = worst_damage(r, a_hits, 4)
    b = worst_damage(r, b_hits, 5)
    ammo = (faces == 1).sum(1) >= 2
    exact = fire_odds(
        4,
        "AR",
        [TargetSpec("A", 4, in_cover=True), TargetSpec("B", 5, prone=True)],
        allocation=[2, 1],
    )
    ea, eb = exact.targets
    for e, sim in ((ea, a), (eb, b)):
        close(e.hit, (sim > 0).mean())
        close(e.duck_back, (sim == 1).mean())
        close(e.out_of_the_fight, (sim == 2).mean())
        close(e.obviously_dead, (sim == 3).mean())
    close(exact.out_of_ammo, ammo.mean())
    close(exact.any_hit, ((a > 0) | (b > 0)).mean())


def test_fire_odds_vs_simulation_pitiful_shotgun():
    r = rng(4)
    rolled = r.integers(1, 7, (N, 6))
    kept = -np.sort(-rolled, axis=1)[:, :3]
    # Rep 3 vs Cover: only a 6 (total 9) could hit, and misses; Pitiful Shot 1d6 <= 3 hits
    pitiful = r.integers(1, 7, (N, 3)) <= 3
    hits = ((kept == 6) & pitiful).sum(1)
    dmg = worst_damage(r, hits, 4)
    exact = fire_odds(3, "SG", [TargetSpec("A", 4, in_cover=True)])
    t = exact.targets[0]
    close(t.hit, (hits > 0).mean())
    close(t.out_of_the_fight, (dmg == 2).mean())
    close(t.obviously_dead, (dmg == 3).mean())
    close(exact.out_of_ammo, ((rolled == 1).sum(1) >= 2).mean())


def test_charge_odds_vs_simulation():
    r = rng(5)
    charger = np.minimum(2, (r.integers(1, 7, (N, 2)) <= 4).sum(1))
    target = np.minimum(2, (r.integers(1, 7, (N, 3)) <= 5).sum(1))  # in Cover: 3 dice
    exact = charge_odds(4, 5, in_cover=True, approach=Approach.FRONT)
    close(exact.chance(ChargeResult.TARGET_FIRES), (target > charger).mean())
    close(exact.chance(ChargeResult.TARGET_RUSH_SHOTS), (target == charger).mean())
    close(exact.chance(ChargeResult.CHARGER_MOVES_IN), (target < charger).mean())


def test_melee_odds_vs_simulation():
    r = rng(6)
    ra = np.full(N, 4)
    rb = np.full(N, 5)
    winner = np.zeros(N, dtype=int)  # 1 = A, 2 = B
    status = np.zeros(N, dtype=int)  # 2 OOF, 3 OD
    live = np.ones(N, dtype=bool)
    while live.any():
        idx = np.flatnonzero(live)
        sa = r.binomial(ra[idx] + 1, 0.5)  # one-hand weapon +1d6
        sb = r.binomial(rb[idx], 0.5)
        decided = sa != sb
        idx, sa, sb = idx[decided], sa[decided], sb[decided]
        a_won = sa > sb
        loser_rep = np.where(a_won, rb[idx], ra[idx])
        score = r.integers(1, 7, len(idx)) + np.abs(sa - sb)
        st = np.where(score >= 6, 3, np.where(score >= loser_rep, 2, 1))
        minus = st == 1
        ra[idx[minus & ~a_won]] -= 1
        rb[idx[minus & a_won]] -= 1
        done = idx[~minus]
        winner[done] = np.where(a_won[~minus], 1, 2)
        status[done] = st[~minus]
        live[done] = False
    exact = melee_odds(Fighter("A", 4, MeleeWeapon.ONE_HAND), Fighter("B", 5))
    close(exact.a_wins, (winner == 1).mean())
    for w, code in (("A", 1), ("B", 2)):
        close(exact.outcome(w, Status.OUT_OF_THE_FIGHT), ((winner == code) & (status == 2)).mean())
        close(exact.outcome(w, Status.OBVIOUSLY_DEAD), ((winner == code) & (status == 3)).mean())


# ---------------------------------------------------------------- brute force, exact


@pytest.mark.parametrize(
    ("charger_rep", "target_rep", "in_cover", "approach"),
    [
        (4, 4, False, Approach.FRONT),
        (5, 3, True, Approach.FRONT),
        (3, 5, True, Approach.FLANK),
        (4, 6, False, Approach.REAR),
        (6, 2, True, Approach.REAR),
    ],
)
def test_charge_odds_equal_every_roll_of_the_charge_rule(
    charger_rep: int, target_rep: int, in_cover: bool, approach: Approach
) -> None:
    """Every script of faces through :func:`crdesk.rules.melee.charge`, tallied exactly."""
    from crdesk.rules.melee import charge, target_charge_dice

    n = 2 + target_charge_dice(in_cover=in_cover, approach=approach)
    tally: dict[ChargeResult, Fraction] = {}
    for p, res in enumerate_scripts(
        lambda dice: charge(
            dice, [("C", charger_rep)], ("T", target_rep), in_cover=in_cover, approach=approach
        ),
        n,
    ):
        outcome = res.chargers[0].outcome
        tally[outcome] = tally.get(outcome, Fraction(0)) + p
    odds = charge_odds(charger_rep, target_rep, in_cover=in_cover, approach=approach)
    assert {k: v for k, v in odds.outcomes.items() if v} == tally
    assert odds.target_dice == n - 2


def test_charge_odds_by_hand() -> None:
    # Rep 4 v Rep 4 in the open: each passes 0/1/2 d6 with 1/9, 4/9, 4/9
    odds = charge_odds(4, 4)
    assert odds.chance(ChargeResult.TARGET_RUSH_SHOTS) == Fraction(1 + 16 + 16, 81)
    assert odds.chance(ChargeResult.CHARGER_MOVES_IN) == Fraction(8 + 16, 81)
    # from the rear the target rolls no dice: it never passes more, ties only on 0 passes
    rear = charge_odds(4, 6, approach=Approach.REAR)
    assert rear.target_dice == 0
    assert rear.chance(ChargeResult.TARGET_FIRES) == 0
    assert rear.chance(ChargeResult.TARGET_RUSH_SHOTS) == Fraction(1, 9)


@pytest.mark.parametrize(("rep", "in_los"), [(2, True), (4, False), (5, True), (6, False)])
def test_throw_odds_equal_every_roll_of_the_throw_rule(rep: int, in_los: bool) -> None:
    from crdesk.odds import throw_odds
    from crdesk.rules.grenades import throw_grenade

    tally: dict[str, Fraction] = {}
    for p, res in enumerate_scripts(
        lambda dice: throw_grenade(dice, rep, distance=3.0, spot_in_los=in_los), 2
    ):
        tally[res.result] = tally.get(res.result, Fraction(0)) + p
    odds = throw_odds(rep, spot_in_los=in_los)
    assert {k.value: v for k, v in odds.outcomes.items() if v} == tally
    assert sum(odds.outcomes.values()) == 1
    assert "7.10.3" in odds.explain()


def test_fire_odds_golden():
    """fire_odds gives exactly the Fractions it gave before its rolls were grouped by
    what each target's dice read (tests/data/odds/make_fire_odds.py wrote them at
    f6ae7fe): every weapon of 7.9 and 16.0 that is not a blast weapon, Reps 2-6,
    Cover, prone, Fast Moving, a carried wounded friend, a second and third target,
    Fast Moving and Rush Shot shooters."""
    import json
    from pathlib import Path

    from crdesk.options import RulesOptions

    path = Path(__file__).parents[2] / "data" / "odds" / "fire_odds.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert len(cases) > 1000
    for case in cases:
        targets = [TargetSpec(id=str(k), **t) for k, t in enumerate(case["targets"])]
        got = fire_odds(
            case["rep"],
            case["weapon"],
            targets,
            fast_moving=case["fast"],
            rush_shot=case["rush"],
            options=RulesOptions(old_school=case["old_school"]),
        )
        odds = [
            [
                str(x)
                for x in (t.hit, t.duck_back, t.out_of_the_fight, t.obviously_dead, t.expected_hits)
            ]
            for t in got.targets
        ]
        want = [[str(Fraction(x)) for x in row] for row in case["odds"]]
        assert (odds, str(got.any_hit), str(got.out_of_ammo)) == (
            want,
            str(Fraction(case["any_hit"])),
            str(Fraction(case["out_of_ammo"])),
        ), case


@pytest.mark.parametrize(
    ("shooter_rep", "weapon", "star_rep", "dice", "cover"),
    [
        (4, "AR", 5, 5, False),  # the Band's Star at the start of an encounter
        (4, "SAW", 5, 2, True),
        (5, "AR", 5, 1, False),  # equal Rep: Larger Than Life does not save it
        (6, "BAR", 4, 0, False),  # no dice left: only Larger Than Life (none here)
        (3, "AR", 4, 0, False),  # no dice left, a lower Rep shooter: never killed
    ],
)
def test_fire_odds_of_a_star_follow_star_power_and_larger_than_life(
    shooter_rep, weapon, star_rep, dice, cover
):
    """A Star hit rolls its Star Power dice against the volley's damage, each 1-3 one
    level off the worst result, then Larger Than Life (5.2): the odds of a Star target
    are those of the whole chain -- the rules' fire with its damage dice, then the
    rules' Star Power and fate -- walked roll by roll (Cheating Death is the player's
    choice after it: "Obviously Dead" reads "would be killed")."""
    from crdesk.odds import outcome_odds
    from crdesk.rules.damage import roll_damage
    from crdesk.rules.stars import star_takes_damage

    targets = [TargetSpec("Star", star_rep, in_cover=cover), TargetSpec("Grunt", 4)]
    alloc: list[int] | None = [3, 1] if weapon == "SAW" else [2, 1]
    if weapon == "BAR":  # one Target die: the Star alone
        targets, alloc = targets[:1], None
    stars = [dice, None][: len(targets)]
    odds = fire_odds(shooter_rep, weapon, targets, allocation=alloc, star_power=stars)

    def hits(d):  # the Star's hits: the rules' fire, its damage dice left for below
        result = fire(d, shooter_rep, weapon, targets, allocation=alloc, roll_damage_dice=False)
        return result.targets[0].hits

    def fate(d, n):  # n hits' damage dice (7.9.11), then Star Power and its fate (5.2)
        damage = [roll_damage(d, star_rep).status for _ in range(n)]
        return star_takes_damage(
            d, damage, star_rep=star_rep, star_power_dice=dice, attacker_rep=shooter_rep
        ).status.value

    walked: dict[str, Fraction] = {"miss": Fraction(0)}
    for n, p in outcome_odds(hits, key=str).outcomes.items():
        if n == "0":
            walked["miss"] += p
            continue
        for status, q in outcome_odds(lambda d, n=int(n): fate(d, n), key=str).outcomes.items():
            walked[status] = walked.get(status, Fraction(0)) + p * q
    star = odds.targets[0]
    assert star.miss == walked["miss"]
    assert star.duck_back == walked.get("duck_back", 0)
    assert star.out_of_the_fight == walked.get("out_of_the_fight", 0)
    assert star.obviously_dead == walked.get("obviously_dead", 0)
    plain = fire_odds(shooter_rep, weapon, targets, allocation=alloc).targets
    assert odds.targets[1:] == plain[1:]  # the Grunt's odds are the plain volley's
    assert star.hit == plain[0].hit
    if dice == 5:  # five dice: a Star is seldom taken out by one volley
        out = star.out_of_the_fight + star.obviously_dead
        assert out < (plain[0].out_of_the_fight + plain[0].obviously_dead) / 4
