"""Star advantages 5.2: Star Power, Larger Than Life, Cheating Death."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.rules.stars import reduce_damage, star_fate, star_power, star_takes_damage

OD, OOF, DB, M1 = (
    Status.OBVIOUSLY_DEAD,
    Status.OUT_OF_THE_FIGHT,
    Status.DUCK_BACK,
    Status.MINUS_ONE_REP,
)


@pytest.mark.parametrize(
    ("damage", "n", "melee", "after"),
    [
        ([OD], 0, False, (OD,)),
        ([OD], 1, False, (OOF,)),
        ([OD], 2, False, (DB,)),
        ([OD], 5, False, (DB,)),  # the floor
        ([OD], 2, True, (M1,)),
        ([OD, OOF], 1, False, (OOF, OOF)),  # worst first
        ([OD, OOF], 2, False, (DB, OOF)),
        ([OD, OD], 2, False, (OOF, OOF)),
        ([OOF, OD], 3, False, (DB, DB)),
        ([DB], 3, False, (DB,)),
    ],
)
def test_reduce_damage_worst_first(damage, n, melee, after):
    assert reduce_damage(damage, n, melee=melee) == after


def test_star_power_roll_kept_and_lost_dice():
    dice = ScriptedDice([1, 4, 6, 5, 2])
    result = star_power(dice, 5, [OD])
    assert (result.reductions, result.lost, result.remaining) == (2, 1, 4)
    assert result.after == (DB,) and result.result == "duck_back"
    assert dice.log[0].section == "5.2"
    assert "2 reductions" in result.explain()


def test_star_power_needs_damage_and_valid_levels():
    with pytest.raises(IllegalActionError):
        star_power(ScriptedDice([1]), 1, [])
    with pytest.raises(IllegalActionError):
        star_power(ScriptedDice([1]), 1, [Status.CARRY_ON])
    with pytest.raises(IllegalActionError):
        star_power(ScriptedDice([1]), 1, [DB], melee=True)
    with pytest.raises(IllegalActionError):
        star_power(ScriptedDice([1]), -1, [OD])


def test_star_power_with_no_dice_left():
    result = star_power(ScriptedDice([]), 0, [OD])
    assert result.after == (OD,) and result.faces == ()


def test_larger_than_life_lower_rep_cannot_kill():
    fate = star_fate(OD, star_rep=5, attacker_rep=4)
    assert fate.status is OOF and "Larger Than Life" in fate.explain()
    assert star_fate(OD, star_rep=5, attacker_rep=5).status is OD
    assert star_fate(OOF, star_rep=5, attacker_rep=3).status is OOF


def test_cheating_death_equal_or_higher_rep():
    fate = star_fate(OD, star_rep=5, attacker_rep=6, cheat_death=True)
    assert fate.cheated_death and fate.rep_change == -1
    assert fate.result == "cheating_death"
    assert fate.status is Status.LEAVE_THE_BATTLEFIELD
    # a lower-Rep attacker: Larger Than Life applies, no need to cheat
    assert not star_fate(OD, star_rep=5, attacker_rep=4, cheat_death=True).cheated_death
    assert star_fate(OD, star_rep=5, attacker_rep=None, cheat_death=True).cheated_death


def test_star_takes_damage_star_power_then_larger_than_life():
    fate = star_takes_damage(
        ScriptedDice([4, 5]), [OD], star_rep=5, star_power_dice=2, attacker_rep=3
    )
    assert fate.status is OOF and fate.star_power is not None
    fate = star_takes_damage(
        ScriptedDice([2, 5]), [OD], star_rep=5, star_power_dice=2, attacker_rep=6
    )
    assert fate.status is OOF and fate.result == "out_of_the_fight"
    d = fate.to_dict()
    assert d["star_power"]["reductions"] == 1
