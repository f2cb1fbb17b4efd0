"""Rules inputs keyed by figure id: two figures may share a name (the model allows it),
the results and lookups keep them apart by id, and the sentences still print names."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.rules import activation, grenades, in_sight, melee, shooting
from crdesk.rules.common import figure_id
from crdesk.rules.reaction import ReactingFigure, reaction_test


def test_figure_id_defaults_to_the_name():
    assert figure_id("Bob", "") == "Bob"
    assert figure_id("Bob", "f7") == "f7"


# --------------------------------------------------------------------------
# Reaction 7.7


def test_reaction_keeps_two_bobs_apart_by_id():
    dice = ScriptedDice([3, 5])  # Rep 5 passes both, Rep 3 passes one
    result = reaction_test(
        dice, [ReactingFigure("Bob", 5, id="b1"), ReactingFigure("Bob", 3, id="b2")]
    )
    assert result.for_figure("b1").status is Status.RETURN_FIRE
    assert result.for_figure("b2").status is Status.RUSH_SHOT
    assert [(f.id, f.name) for f in result.figures] == [("b1", "Bob"), ("b2", "Bob")]
    assert result.for_figure("b1").explain().startswith("Bob rolled 3,5 vs Rep 5")
    assert dice.log[0].figures == ("b1", "b2") and dice.log[0].who == "Bob, Bob"
    with pytest.raises(KeyError):
        result.for_figure("Bob")  # the name is not an id once ids are given


def test_reaction_without_ids_looks_up_by_name_as_before():
    result = reaction_test(ScriptedDice([3, 5]), [ReactingFigure("Ann", 4)])
    assert result.for_figure("Ann").id == "Ann"
    assert result.to_dict()["results"][0]["id"] == "Ann"


def test_leader_die_is_logged_for_the_testers():
    dice = ScriptedDice([5, 6, 1])
    reaction_test(dice, [ReactingFigure("Bob", 4, id="b1")], leader_rep=5)
    assert [e.figures for e in dice.log] == [("b1",), ("b1",)]


# --------------------------------------------------------------------------
# Ranged fire 7.9


def test_fire_keeps_targets_apart_by_id():
    # AR Target 3: 6,6,2 sorted high first; allocation 1,2: t1 gets 6 (10 hits),
    # t2 gets 6 (10 hits) and 2 (6 misses).  Damage: t1 5 ≥ 4 OOF, t2 2 < 4 Duck Back.
    dice = ScriptedDice([6, 6, 2, 5, 2])
    result = shooting.fire(
        dice,
        4,
        "AR",
        [shooting.TargetSpec("Bob", 4, id="t1"), shooting.TargetSpec("Bob", 4, id="t2")],
        allocation=(1, 2),
    )
    first, second = result.targets
    assert (first.id, second.id) == ("t1", "t2") and first.name == second.name == "Bob"
    assert [s.target_id for s in first.shots] == ["t1"]
    assert [s.target_id for s in second.shots] == ["t2", "t2"]
    assert result.for_target("t2") is second and result.for_target("t1") is first
    assert result.for_target("t1").status is Status.OUT_OF_THE_FIGHT
    assert result.for_target("t2").status is Status.DUCK_BACK
    assert first.explain().startswith("Bob: 6+4=10: hit")
    assert [e.figures for e in dice.log] == [("t1", "t2"), ("t1",), ("t2",)]
    assert result.to_dict()["results"][1]["id"] == "t2"
    with pytest.raises(KeyError):
        result.for_target("Bob")


def test_fire_without_ids_uses_the_names():
    result = shooting.fire(ScriptedDice([6, 5]), 4, "P", [shooting.TargetSpec("Ann", 4)])
    assert result.targets[0].id == "Ann" and result.targets[0].shots[0].target_id == "Ann"
    assert result.for_target("Ann").hits == 1


def test_pitiful_shot_is_logged_for_its_target():
    # Rep 3 rolls a 6 vs a target in Cover: 9 misses (cover), Pitiful Shot 2 ≤ 3 hits, damage 6
    dice = ScriptedDice([6, 2, 6])
    shooting.fire(dice, 3, "P", [shooting.TargetSpec("Bob", 4, in_cover=True, id="t9")])
    assert [e.table for e in dice.log] == ["Ranged Combat", "Pitiful Shot", "Ranged Combat Damage"]
    assert [e.figures for e in dice.log] == [("t9",)] * 3


# --------------------------------------------------------------------------
# Fast Move 7.4.2


def test_fast_move_distance_by_id():
    dice = ScriptedDice([4, 5])
    result = activation.fast_move(
        dice, [activation.FastMover("Bob", 5, id="f1"), activation.FastMover("Bob", 4, id="f2")]
    )
    assert result.distance("f1") == 16 and result.distance("f2") == 12
    assert result.figure("f2").name == "Bob" and result.figure("f2").id == "f2"
    assert dice.log[0].figures == ("f1", "f2")
    assert (
        activation.fast_move(ScriptedDice([4, 5]), [activation.FastMover("Ann", 4)]).distance("Ann")
        == 12
    )
    with pytest.raises(KeyError):
        result.distance("Bob")


# --------------------------------------------------------------------------
# In Sight 7.6.3


def test_in_sight_groups_by_id():
    # mover "Reds" Rep 4: 1,2,4,5 → 2; the other "Reds" Rep 4: 1,5,6,6 → 1
    dice = ScriptedDice([1, 2, 4, 5, 1, 5, 6, 6])
    result = in_sight.in_sight(
        dice,
        [
            in_sight.InSightGroup("Reds", 4, True, id="g1"),
            in_sight.InSightGroup("Reds", 4, False, id="g2"),
        ],
    )
    assert result.group("g1").successes == 2 and result.group("g1").wins
    assert result.group("g2").successes == 1 and not result.group("g2").wins
    assert result.order == ("Reds",) and result.order_ids == ("g1",)
    assert [e.figures for e in dice.log] == [("g1",), ("g2",)]
    with pytest.raises(KeyError):
        result.group("Reds")


def test_in_sight_without_ids_by_name():
    dice = ScriptedDice([1, 2, 4, 5, 1, 5, 6, 6])
    result = in_sight.in_sight(
        dice, [in_sight.InSightGroup("A", 4, True), in_sight.InSightGroup("B", 4, False)]
    )
    assert result.group("A").id == "A" and result.order_ids == ("A",)


# --------------------------------------------------------------------------
# Charge into Melee 7.11.2 and Melee 7.11.4-7.11.5


def test_charge_accepts_ids_as_a_third_element():
    # charger c1 passes 2 (1,2), c2 passes 0 (6,6); the target passes 1 (1,6)
    dice = ScriptedDice([1, 2, 6, 6, 1, 6])
    result = melee.charge(dice, [("Bob", 4, "c1"), ("Bob", 4, "c2")], ("Bob", 4, "t1"))
    assert [c.id for c in result.chargers] == ["c1", "c2"]
    assert result.charger("c1").outcome.value == "charger_moves_in"
    assert result.charger("c2").outcome.value == "target_fires"
    assert result.target_id == "t1" and result.target == "Bob"
    assert [e.figures for e in dice.log] == [("c1",), ("c2",), ("t1",)]
    choice = melee.single_shot_target(result)
    assert (choice.charger, choice.charger_id) == ("Bob", "c2")
    with pytest.raises(IllegalActionError):
        melee.single_shot_target(result, "c1")  # c1 moved in: the target may not fire at it
    with pytest.raises(KeyError):
        result.charger("Bob")


def test_charge_old_two_element_tuples_still_work():
    result = melee.charge(ScriptedDice([1, 2, 6, 6, 1, 3]), [("A", 4), ("B", 4)], ("T", 4))
    assert [c.id for c in result.chargers] == ["A", "B"] and result.target_id == "T"
    assert melee.single_shot_target(result, "A").charger_id == "A"
    with pytest.raises(IllegalActionError):
        melee.charge(ScriptedDice([]), [("A",)], ("T", 4))  # type: ignore[list-item]


def test_melee_between_two_bobs_keyed_by_id():
    # round 1: b1 1 success, b2 0: damage 1+1=2 < 4: b2 -1 Rep
    # round 2: b1 Rep 4 1,1,1,6 = 3; b2 Rep 3 6,6,6 = 0: damage 3+3 = 6: Obviously Dead
    dice = ScriptedDice([1, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 6, 3])
    result = melee.melee(dice, melee.Fighter("Bob", 4, id="b1"), melee.Fighter("Bob", 4, id="b2"))
    assert (result.winner, result.loser) == ("Bob", "Bob")
    assert (result.winner_id, result.loser_id) == ("b1", "b2")
    assert (result.a_id, result.b_id) == ("b1", "b2")
    assert dict(result.rep_lost) == {"b1": 0, "b2": 1}
    assert [r.winner_id for r in result.rounds] == ["b1", "b1"]
    assert result.rounds[0].reason.startswith("Bob (Rep 4) rolled 1,6,6,6: 1; Bob (Rep 4)")
    assert [e.figures for e in dice.log[:3]] == [("b1",), ("b2",), ("b1",)]
    ledger = melee.MeleeRepLosses().add(result)
    assert ledger.current_rep("b2", 4) == 3 and ledger.current_rep("b1", 4) == 4
    assert ledger.restore({"b1": 4, "b2": 3}) == {"b1": 4, "b2": 4}


def test_melee_tie_round_has_no_winner_id_and_hook_gets_the_id():
    dice = ScriptedDice([1, 6, 6, 6, 1, 6, 6, 6, 1, 1, 6, 6, 1, 6, 6, 6, 6])
    seen = []

    def hook(fid, status):
        seen.append(fid)
        return status

    result = melee.melee(
        dice, melee.Fighter("Bob", 4, id="x"), melee.Fighter("Bob", 4, id="y"), adjust_damage=hook
    )
    assert [r.winner_id for r in result.rounds] == [None, "x"] and seen == ["y"]


def test_melee_needs_two_different_ids():
    with pytest.raises(IllegalActionError):
        melee.melee(ScriptedDice([]), melee.Fighter("A", 4, id="z"), melee.Fighter("B", 4, id="z"))
    with pytest.raises(IllegalActionError):
        melee.melee(ScriptedDice([]), melee.Fighter("A", 4), melee.Fighter("A", 4))
    plain = melee.melee(
        ScriptedDice([1, 2, 5, 6, 1, 6, 6, 6, 4]), melee.Fighter("A", 4), melee.Fighter("B", 4)
    )
    assert (plain.winner_id, plain.loser_id) == ("A", "B")


# --------------------------------------------------------------------------
# Blasts 7.10.5-7.10.6 and buildings 8.4


def test_blast_victims_by_id():
    dice = ScriptedDice([6])
    result = grenades.blast(
        dice,
        [
            grenades.BlastFigure("Bob", 4, id="v1"),
            grenades.BlastFigure("Bob", 4, prone=True, id="v2"),
        ],
    )
    assert result.victim("v1").result == "obviously_dead"
    assert result.victim("v2").received_fire and result.victim("v2").name == "Bob"
    assert dice.log[0].figures == ("v1",)
    missed = grenades.missed_blast([grenades.BlastFigure("Bob", 4, id="v3")])
    assert missed.victim("v3").received_fire
    assert (
        grenades.blast(ScriptedDice([]), [grenades.BlastFigure("Ann", 4, prone=True)])
        .victim("Ann")
        .id
        == "Ann"
    )


def test_building_occupants_accept_ids():
    dice = ScriptedDice([5, 6])  # upper area stays (5); lower occupant's damage 6
    hit = grenades.rocket_vs_building(
        dice, [("Bob", 4, "o1")], upper_occupants=[("Bob", 4, "o2"), ("Ann", 4)]
    )
    assert [o.id for o in hit.lower] == ["o1"] and [o.id for o in hit.upper] == ["o2", "Ann"]
    assert hit.lower[0].status is Status.OBVIOUSLY_DEAD and hit.upper[0].status is None
    assert dice.log[1].figures == ("o1",)
