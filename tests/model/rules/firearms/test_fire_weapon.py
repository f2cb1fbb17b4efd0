"""One entry point for a firing (:func:`fire_weapon`, :func:`fire_weapon_odds`): the mode
and the ammunition pick the rule, the choices are checked against the card first, and
the odds agree with the rule run over every roll."""

import dataclasses
from fractions import Fraction

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.odds import outcome_odds
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import DEFAULT_CARDS
from crdesk.rules.firearms.fire import (
    BurstTarget,
    FireOptions,
    FireTarget,
    Nearby,
    buckshot,
    burst_fire,
    fire_weapon,
    full_auto,
    single_fire,
)
from crdesk.rules.firearms.odds import fire_weapon_odds
from crdesk.rules.firearms.tables import FireMode, Support
from crdesk.rules.shooting import TargetSpec

A, B = TargetSpec("A", 4), TargetSpec("B", 4)
NEAR = (Nearby(B, 0.8),)


def loaded(cat: str) -> WeaponState:
    return WeaponState.loaded(DEFAULT_CARDS[cat])


@pytest.mark.parametrize(
    ("cat", "choice", "direct"),
    [
        (
            "AR",
            FireOptions(mode=FireMode.FA, aim=True, support=Support.BIPOD),
            lambda d: full_auto(
                d, 4, loaded("AR"), A, NEAR, distance=12, aim=True, support=Support.BIPOD
            ),
        ),
        (
            "AR",
            FireOptions(mode=FireMode.RB3),
            lambda d: burst_fire(d, 4, loaded("AR"), [BurstTarget(A, NEAR)], mode=FireMode.RB3),
        ),
        (
            "SG",
            FireOptions(),
            lambda d: buckshot(d, 4, loaded("SG"), A, NEAR, distance=12),
        ),
        (
            "P",
            FireOptions(support=Support.BRACED),
            lambda d: single_fire(d, 4, loaded("P"), [A], support=Support.BRACED),
        ),
    ],
)
def test_the_mode_and_ammo_pick_the_rule(cat, choice, direct):
    faces = [6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1, 3, 3]
    got = fire_weapon(ScriptedDice(faces), 4, loaded(cat), [FireTarget(A, 12, NEAR)], choice)
    want = direct(ScriptedDice(faces))
    assert got.to_dict() == want.to_dict()


@pytest.mark.parametrize(
    ("cat", "choice", "targets", "words"),
    [
        ("P", FireOptions(mode=FireMode.FA), 1, "Pistol has no Full Auto mode"),
        ("AR", FireOptions(mode=FireMode.RB3, aim=True), 1, "aiming is for Full Auto"),
        ("AR", FireOptions(mode=FireMode.SEMI, walk_pairs=1), 1, "walking the target is for"),
        ("AR", FireOptions(mode=FireMode.FA), 2, "Full Auto (FD §5) fires at one primary"),
        ("SG", FireOptions(), 2, "buckshot (FD §6) fires at one primary"),
        ("AR", FireOptions(mode=FireMode.FA, dice_count=3), 1, "sets its own dice"),
        ("AR", FireOptions(), 0, "fire needs at least one target"),
    ],
)
def test_choices_that_do_not_fit_the_card_are_refused_before_a_die(cat, choice, targets, words):
    dice = ScriptedDice([])  # any roll would raise: the refusal comes first
    fts = [FireTarget(TargetSpec(f"T{i}", 4), 5) for i in range(targets)]
    with pytest.raises(IllegalActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        fire_weapon(dice, 4, loaded(cat), fts, choice)
    with pytest.raises(IllegalActionError):
        fire_weapon_odds(4, loaded(cat), fts, choice)


@pytest.mark.parametrize(
    ("cat", "choice", "distance"),
    [
        ("AR", FireOptions(mode=FireMode.RB3), 5.0),
        ("SG", FireOptions(), 5.0),
        ("P", FireOptions(support=Support.TRIPOD), 5.0),
        ("AR", FireOptions(mode=FireMode.FA, walk_pairs=3), 25.0),
    ],
)
def test_the_odds_agree_with_the_rule_run_over_every_roll(cat, choice, distance):
    targets = [FireTarget(TargetSpec("A", 4, in_cover=True), distance, NEAR)]
    weapon = loaded(cat)
    odds = fire_weapon_odds(4, weapon, targets, choice)
    no_damage = dataclasses.replace(choice, roll_damage_dice=False)
    run = outcome_odds(
        lambda d: fire_weapon(d, 4, weapon, targets, no_damage),
        key=lambda r: ",".join(f"{f.id}:{f.hits}" for f in r.figures),
    )
    for fig in odds.figures:
        hit = Fraction(0)
        for key, p in run.outcomes.items():
            if any(part == f"{fig.id}:{n}" for part in key.split(",") for n in range(1, 11)):
                hit += p
        assert fig.hit == hit, fig.id
