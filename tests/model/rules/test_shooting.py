"""Ranged fire: 7.9.1, 7.9.2, 7.9.9, 7.9.10, 7.9.13, 7.9.14, damage 7.9.11 / 16.1."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.damage import damage_for_face, roll_damage
from crdesk.rules.shooting import (
    TargetSpec,
    default_allocation,
    fire,
    fire_two_weapons,
    is_outgunned,
    weapon_rank,
)

OLD = RulesOptions(old_school=True)


def test_one_target_hits_and_damage():
    dice = ScriptedDice([6, 4, 2, 6, 3])
    result = fire(dice, 4, "AR", [TargetSpec("B", 4)])
    t = result.targets[0]
    assert [s.total for s in t.shots] == [10, 8, 6]
    assert [s.hit for s in t.shots] == [True, True, False]
    assert t.hits == 2 and not t.received_fire
    assert [d.status for d in t.damage] == [Status.OBVIOUSLY_DEAD, Status.DUCK_BACK]
    assert t.status is Status.OBVIOUSLY_DEAD and t.result == "obviously_dead"
    assert result.result == "hit" and not result.out_of_ammo
    assert dice.remaining == 0
    assert [e.section for e in dice.log] == ["7.9.10", "7.9.11", "7.9.11"]


def test_a_miss_means_received_fire():
    result = fire(ScriptedDice([3, 2, 3]), 4, "AR", [TargetSpec("B", 4)])
    t = result.targets[0]
    assert t.hits == 0 and t.received_fire and t.result == "miss"
    assert "Received Fire" in t.explain()


def test_target_dice_sorted_high_to_low_and_given_in_declared_order():
    dice = ScriptedDice([2, 6, 4, 5, 5])  # 6 and 4 hit A (damage 5, 5); 2 misses B
    result = fire(dice, 4, "AR", [TargetSpec("A"), TargetSpec("B")], allocation=[2, 1])
    a, b = result.targets
    assert a.dice == (6, 4) and b.dice == (2,)
    assert result.kept == (6, 4, 2)
    # reversed declaration: the first target still gets the highest die
    result = fire(
        ScriptedDice([2, 6, 4, 5]), 4, "AR", [TargetSpec("A"), TargetSpec("B")], allocation=[1, 2]
    )
    assert result.targets[0].dice == (6,) and result.targets[1].dice == (4, 2)


def test_default_allocation_targets_each_once_first():
    assert default_allocation(3, 2) == (2, 1)
    assert default_allocation(4, 3) == (2, 1, 1)
    assert default_allocation(3, 1) == (3,)


@pytest.mark.parametrize(
    ("target", "face", "hit"),
    [
        (TargetSpec(in_cover=True), 4, False),
        (TargetSpec(in_cover=True), 5, False),
        (TargetSpec(in_cover=True), 6, True),
        (TargetSpec(prone=True), 4, False),
        (TargetSpec(prone=True), 5, True),
        (TargetSpec(fast_moving=True), 4, False),
        (TargetSpec(fast_moving=True), 5, True),
        (TargetSpec(), 4, True),
    ],
)
def test_target_circumstances_rep_4_pistol(target, face, hit):
    result = fire(ScriptedDice([face, 6]), 4, "P", [target])
    assert result.targets[0].shots[0].hit is hit


@pytest.mark.parametrize(
    ("kw", "face", "hit"),
    [
        ({"fast_moving": True}, 4, False),
        ({"fast_moving": True}, 5, False),
        ({"fast_moving": True}, 6, True),
        ({"rush_shot": True}, 4, False),
        ({"rush_shot": True}, 5, False),
        ({"rush_shot": True}, 6, True),
    ],
)
def test_shooter_circumstances(kw, face, hit):
    result = fire(ScriptedDice([face, 6]), 4, "P", [TargetSpec()], **kw)
    assert result.targets[0].shots[0].hit is hit


def test_second_and_third_targets():
    # SAW Rep 4: dice 5,5,4,4 to four targets, one each
    targets = [TargetSpec(n) for n in "ABCD"]
    dice = ScriptedDice([5, 5, 5, 4, 6, 6, 6])
    result = fire(dice, 4, "SAW", targets)
    hits = [t.hits for t in result.targets]
    # A: 9 first target hit; B: 9 second target hit; C: 9 third target miss; D: 8 miss
    assert hits == [1, 1, 0, 0]
    assert "third or later" in result.targets[2].shots[0].reason
    assert "second or later" in result.targets[3].shots[0].reason


def test_pitiful_shot_rep_3_six_that_misses_rolls_again():
    dice = ScriptedDice([6, 3, 5])  # 6+3=9 in Cover misses; pitiful 3 <= 3 hits; damage 5
    result = fire(dice, 3, "P", [TargetSpec("B", 4, in_cover=True)])
    shot = result.targets[0].shots[0]
    assert shot.hit and shot.pitiful_die == 3
    assert result.targets[0].damage[0].status is Status.OUT_OF_THE_FIGHT
    assert [e.section for e in dice.log] == ["7.9.10", "7.9.14", "7.9.11"]
    miss = fire(ScriptedDice([6, 4]), 3, "P", [TargetSpec("B", 4, in_cover=True)])
    assert not miss.targets[0].shots[0].hit and miss.targets[0].shots[0].pitiful_die == 4
    rep2 = fire(ScriptedDice([6, 2, 1]), 2, "P", [TargetSpec(prone=True)])
    assert rep2.targets[0].shots[0].hit


def test_no_pitiful_shot_for_rep_4_or_for_non_six():
    dice = ScriptedDice([6, 6])  # Rep 4, 6 → 10 hits anyway; second die is damage
    assert fire(dice, 4, "P", [TargetSpec(in_cover=True)]).targets[0].shots[0].pitiful_die is None
    dice = ScriptedDice([5])  # Rep 3, 5+3=8 in Cover misses: no reroll
    r = fire(dice, 3, "P", [TargetSpec(in_cover=True)])
    assert r.targets[0].shots[0].pitiful_die is None and dice.remaining == 0


def test_tight_ammo_two_ones():
    assert fire(ScriptedDice([1, 1, 3]), 4, "AR", [TargetSpec()]).out_of_ammo
    assert not fire(ScriptedDice([1, 2, 3]), 4, "AR", [TargetSpec()]).out_of_ammo


def test_shotgun_rolls_six_keeps_best_three_and_all_six_count_for_ammo():
    dice = ScriptedDice([1, 5, 2, 6, 1, 4, 3, 3, 3])
    result = fire(dice, 4, "SG", [TargetSpec("B", 5)])
    assert result.faces == (1, 5, 2, 6, 1, 4)
    assert result.kept == (6, 5, 4)
    assert result.targets[0].hits == 3
    assert result.out_of_ammo and result.ones == 2
    assert "Out of ammo" in result.explain()


def test_rocket_launcher_and_grenade_do_not_fire_at_targets():
    with pytest.raises(IllegalActionError, match="blast"):
        fire(ScriptedDice([6]), 4, "RL", [TargetSpec()])


@pytest.mark.parametrize(
    ("alloc", "targets"),
    [([2, 2], 2), ([3, 0], 2), ([1, 1, 1, 0], 4), ([3], 2)],
)
def test_bad_allocations(alloc, targets):
    with pytest.raises(IllegalActionError):
        fire(
            ScriptedDice([1] * 8),
            4,
            "AR",
            [TargetSpec(str(i)) for i in range(targets)],
            allocation=alloc,
        )


def test_more_targets_than_target_dice_refused():
    with pytest.raises(IllegalActionError, match="at most 1"):
        fire(ScriptedDice([1]), 4, "P", [TargetSpec("a"), TargetSpec("b")])


def test_damage_not_rolled_on_request():
    dice = ScriptedDice([6])
    result = fire(dice, 4, "P", [TargetSpec()], roll_damage_dice=False)
    assert result.targets[0].hits == 1 and result.targets[0].result == "hit"


def test_old_school_weapons_and_damage():
    # Old School Pistol is Target 2, Impact 1
    dice = ScriptedDice([6, 6, 1, 2])
    result = fire(dice, 4, "P", [TargetSpec("B", 4)], options=OLD)
    assert result.targets[0].hits == 2
    assert [d.status for d in result.targets[0].damage] == [
        Status.OBVIOUSLY_DEAD,
        Status.DUCK_BACK,
    ]
    assert result.targets[0].damage[0].section == "16.1"
    bap = fire(ScriptedDice([6, 6, 2, 3]), 4, "BAP", [TargetSpec()], options=OLD)
    assert [d.status for d in bap.targets[0].damage] == [
        Status.OUT_OF_THE_FIGHT,
        Status.DUCK_BACK,
    ]


def test_damage_for_face_and_roll_damage():
    assert damage_for_face(4, 4).status is Status.OUT_OF_THE_FIGHT
    assert damage_for_face(4, 4).section == "7.9.11"
    assert "≥ Rep 4" in damage_for_face(4, 4).explain()
    assert damage_for_face(3, 5, weapon="AR", options=OLD).status is Status.OUT_OF_THE_FIGHT
    with pytest.raises(IllegalActionError, match="Impact"):
        damage_for_face(3, 5, options=OLD)
    with pytest.raises(IllegalActionError):
        damage_for_face(7, 5)
    dice = ScriptedDice([6])
    assert roll_damage(dice, 5, who="B").result == "obviously_dead"
    assert dice.log[0].outcome == "Obviously Dead"


def test_outgunned_rankings():
    assert weapon_rank(["SAW"]) == 4
    assert weapon_rank(["AR"]) == 3
    assert weapon_rank(["P", "P"]) == 2  # two weapons: better +1
    assert weapon_rank(["AR", "P"]) == 4
    assert weapon_rank(["AR"], can_fire=False) == 0
    assert weapon_rank(["none"]) == 0
    assert weapon_rank(["P"], options=OLD) == 2
    assert is_outgunned(4, 3)
    assert not is_outgunned(3, 3)
    assert not is_outgunned(1, 3)
    assert is_outgunned(1, 0)  # cannot shoot back
    assert not is_outgunned(5, 0, target_is_star=True)


def test_two_weapons_each_count_rush_shot():
    dice = ScriptedDice([4, 5, 2])  # Rep 5: 9 misses (rush shot), 10 hits, damage 2
    result = fire_two_weapons(dice, 5, [("P", [TargetSpec("A", 4)]), ("P", [TargetSpec("B", 4)])])
    assert [v.targets[0].hits for v in result.volleys] == [0, 1]
    assert result.rank == 2 and result.section == "7.9.13"
    assert result.result == "hit"
    with pytest.raises(IllegalActionError):
        fire_two_weapons(dice, 5, [("P", [TargetSpec()])])


def test_fire_to_dict_lists_targets_as_results():
    d = fire(ScriptedDice([3, 2, 3]), 4, "AR", [TargetSpec("B")]).to_dict()
    assert d["section"] == "7.9.10" and d["result"] == "miss"
    assert d["results"][0]["result"] == "miss" and d["results"][0]["received_fire"]
    assert d["results"][0]["hits"] == 0


def test_in_range():
    from crdesk.rules.shooting import in_range

    assert in_range("P", 12) and not in_range("P", 12.5)
    assert in_range("SMG", 24) and in_range("AR", 48) and not in_range("SG", 13)


def test_bad_target_rep_refused_before_any_die_is_rolled():
    dice = ScriptedDice([6, 6, 6])
    with pytest.raises(IllegalActionError, match="target Rep"):
        fire(dice, 4, "AR", [TargetSpec("A", 4), TargetSpec("B", -1)])
    assert dice.used == 0


def test_carrier_of_wounded_counts_in_cover_and_cover_misses_hit_the_wounded():
    # Rep 4 AR at a carrier: 6 → 10 hits the carrier; 5 → 9 misses only because of
    # Cover: hits the wounded; 3 → 7 plain miss.  Damage: carrier 2, wounded 6.
    dice = ScriptedDice([6, 5, 3, 2, 6])
    result = fire(dice, 4, "AR", [TargetSpec("C", 4, carried_rep=3)])
    t = result.targets[0]
    assert [s.result for s in t.shots] == ["hit", "hit_carried_wounded", "miss"]
    assert t.hits == 1 and t.carried_hits == 1
    assert t.damage[0].status is Status.DUCK_BACK
    assert t.carried_damage[0].status is Status.OBVIOUSLY_DEAD
    assert "hits the wounded" in t.explain()
    assert dice.remaining == 0


def test_carrier_already_in_real_cover_shields_the_wounded():
    dice = ScriptedDice([5, 3, 3])
    t = fire(dice, 4, "AR", [TargetSpec("C", 4, in_cover=True, carried_rep=3)]).targets[0]
    assert t.carried_hits == 0 and t.hits == 0


def test_rush_shot_target_by_target():
    """7.11.2: a charged figure compares its one roll with each charger separately, so
    it may Rush Shot at one and fire at another: the penalty is on that target's dice."""
    dice = ScriptedDice([5, 5, 5, 2, 3])  # 9s: A (fired at) hit twice, B (rushed) missed
    result = fire(
        dice, 4, "AR", [TargetSpec("A"), TargetSpec("B")], allocation=[2, 1], rush_at=[False, True]
    )
    assert [s.hit for t in result.targets for s in t.shots] == [True, True, False]
    assert "rush shot at B" in result.explain()
