"""Every rules table walked row by row against the digest's text."""

import pytest

from crdesk.model import BandType, MeleeWeapon, Status, WeaponCode
from crdesk.tables import (
    AFTER_BATTLE_RECOVERY,
    BUILDING_TYPE,
    CHALLENGE,
    CHALLENGE_MODIFIERS,
    CHARGE_INTO_MELEE,
    CHARGE_TARGET_DICE,
    CONTACT_SIZE,
    COVER_CONCEALMENT,
    DEFEND_OBJECTIVE,
    GRENADE,
    GRENADE_BANDS,
    GRENADE_READY,
    GRENADE_THROW,
    MELEE_VS_PRONE_DICE,
    MELEE_WEAPON_DICE,
    NEW_RECRUITS,
    NP_FORCE_MOVEMENT,
    OLD_SCHOOL_WEAPONS,
    OVERALL_TERRAIN,
    PEF_MOVEMENT,
    PEF_RESOLUTION,
    REACTION_TESTS,
    RECRUITING,
    TABLES,
    TERRAIN_GENERATOR,
    WEAPONS,
    ChallengeRow,
    ChargeResult,
    DefendObjective,
    GrenadeReady,
    GrenadeThrow,
    Ground,
    NewRecruits,
    NpMove,
    PefResolution,
    Recovery,
    Shot,
    TableType,
    building_count,
    charge_result,
    melee_damage,
    old_school_damage,
    outgunned_rank,
    ranged_combat_row,
    ranged_damage,
    reaction_row,
    recruit_rep,
    rep_decrease,
    rep_increase,
    weapon_stats,
)

REQUIRED = [
    "6.1.1",
    "7.6.3",
    "7.7",
    "7.9",
    "7.9.1",
    "7.9.5",
    "7.9.10",
    "7.9.11",
    "7.10.1",
    "7.10.3",
    "7.11.2",
    "7.11.4",
    "7.11.5",
    "7.13",
    "7.14",
    "9.2",
    "9.3.1",
    "9.4.4",
    "9.5",
    "11.2",
    "11.3",
    "11.4",
    "13.1",
    "13.2/13.3",
    "16.0",
    "16.1",
]


def test_registry_holds_every_table_by_section():
    for section in REQUIRED:
        table = TABLES[section]
        assert table.section == section
        assert table.title and table.dice and table.rows


def test_recruiting_6_1_1_every_row():
    expected = {
        1: (3, 3, 3, 3, 3),
        2: (3, 3, 3, 4, 4),
        3: (4, 4, 4, 4, 4),
        4: (4, 4, 4, 4, 4),
        5: (4, 4, 4, 5, 4),
        6: (5, 5, 5, 5, 5),
    }
    bands = (
        BandType.GANGER,
        BandType.GUERILLA,
        BandType.MILITIA,
        BandType.MILITARY,
        BandType.POLICE,
    )
    for face, reps in expected.items():
        assert tuple(recruit_rep(b, face) for b in bands) == reps
    assert set(RECRUITING) == set(BandType)
    assert {BandType.MILITARY, BandType.GUERILLA, BandType.MILITIA} == GRENADE_BANDS


def test_reaction_tests_7_7_every_row():
    rows = {r.passed: r for r in REACTION_TESTS}
    assert rows[2].received_fire is Status.RETURN_FIRE
    assert rows[2].received_fire_outgunned is Status.OUTGUNNED
    assert rows[2].man_down is Status.CARRY_ON
    assert rows[2].man_down_twice_as_many is Status.CARRY_ON
    assert rows[1].received_fire is Status.RUSH_SHOT
    assert rows[1].received_fire_outgunned is Status.OUTGUNNED
    assert rows[1].man_down is Status.DUCK_BACK
    assert rows[1].man_down_twice_as_many is Status.LEAVE_THE_BATTLEFIELD
    assert rows[0].received_fire is Status.DUCK_BACK
    assert rows[0].received_fire_outgunned is Status.LEAVE_THE_BATTLEFIELD
    assert rows[0].man_down is Status.LEAVE_THE_BATTLEFIELD
    assert reaction_row(3) is rows[2]


WEAPON_ROWS = {
    # code: (range, target, blast)
    "AR": (48, 3, False),
    "BAR": (48, 1, False),
    "G": (6, 0, True),
    "MP": (12, 3, False),
    "P": (12, 1, False),
    "RL": (48, 0, True),
    "SAR": (48, 2, False),
    "SG": (12, 3, False),
    "SAW": (48, 4, False),
    "SMG": (24, 3, False),
}


@pytest.mark.parametrize("code", list(WEAPON_ROWS))
def test_weapons_7_9_every_row(code):
    w = WEAPONS[code]
    assert (w.range, w.target, w.blast) == WEAPON_ROWS[code]
    assert w.impact is None


def test_weapons_7_9_notes_and_rolls():
    assert WEAPONS["SG"].rolls == 6  # 6d6 keep best 3
    assert WEAPONS["RL"].always_out_of_ammo and WEAPONS["RL"].rolls == 1
    assert WEAPONS["AR"].rolls == 3
    assert weapon_stats(WeaponCode.SAW).target == 4
    assert weapon_stats("BAP").code == "P"  # not on 7.9: closest category
    with pytest.raises(KeyError):
        weapon_stats("LASER")


@pytest.mark.parametrize(
    ("code", "rank"),
    [
        ("RL", 5),
        (GRENADE, 5),
        ("SAW", 4),
        ("AR", 3),
        ("MP", 3),
        ("SG", 3),
        ("SMG", 3),
        ("SAR", 2),
        ("BAR", 1),
        ("P", 1),
    ],
)
def test_outgunned_rankings_7_9_1(code, rank):
    assert outgunned_rank(WEAPONS[code]) == rank


def test_outgunned_rank_zero_without_a_weapon():
    assert outgunned_rank(None) == 0
    assert TABLES["7.9.1"].rows[-1][1] == "0"


def test_cover_and_concealment_7_9_5():
    woods, vehicles = COVER_CONCEALMENT
    assert (woods.stationary_cover, woods.stationary_concealed) == (True, True)
    assert (woods.moving_cover, woods.moving_concealed) == (False, True)
    assert vehicles.stationary_concealed and not vehicles.stationary_cover
    assert vehicles.behind_cover


ALL_SHOTS = frozenset(Shot)


@pytest.mark.parametrize("total", [3, 4, 5, 6, 7, 2])
def test_ranged_combat_7_9_10_misses_3_to_7(total):
    assert not ranged_combat_row(total).hits(frozenset())


@pytest.mark.parametrize("total", [10, 11, 12, 15])
def test_ranged_combat_7_9_10_hits_10_plus_whatever_the_circumstances(total):
    assert ranged_combat_row(total).hits(ALL_SHOTS)


@pytest.mark.parametrize(
    ("total", "shot", "hits"),
    [
        (8, Shot.FAST_MOVING, False),
        (8, Shot.RUSH_SHOT, False),
        (8, Shot.TARGET_IN_COVER, False),
        (8, Shot.TARGET_PRONE, False),
        (8, Shot.TARGET_FAST_MOVING, False),
        (8, Shot.SECOND_TARGET, False),
        (8, Shot.THIRD_TARGET, False),
        (8, None, True),
        (9, Shot.FAST_MOVING, False),
        (9, Shot.RUSH_SHOT, False),
        (9, Shot.TARGET_IN_COVER, False),
        (9, Shot.TARGET_PRONE, True),
        (9, Shot.TARGET_FAST_MOVING, True),
        (9, Shot.SECOND_TARGET, True),
        (9, Shot.THIRD_TARGET, False),
        (9, None, True),
    ],
)
def test_ranged_combat_7_9_10_rows_8_and_9(total, shot, hits):
    circ = frozenset({shot}) if shot else frozenset()
    assert ranged_combat_row(total).hits(circ) is hits


@pytest.mark.parametrize(
    ("face", "rep", "status"),
    [
        (6, 4, Status.OBVIOUSLY_DEAD),
        (6, 7, Status.OBVIOUSLY_DEAD),
        (5, 4, Status.OUT_OF_THE_FIGHT),
        (4, 4, Status.OUT_OF_THE_FIGHT),
        (3, 4, Status.DUCK_BACK),
        (1, 2, Status.DUCK_BACK),
        (2, 2, Status.OUT_OF_THE_FIGHT),
        (5, 6, Status.DUCK_BACK),
    ],
)
def test_ranged_combat_damage_7_9_11(face, rep, status):
    assert ranged_damage(face, rep) is status


@pytest.mark.parametrize(
    ("face", "impact", "status"),
    [
        (1, 1, Status.OBVIOUSLY_DEAD),
        (1, 5, Status.OBVIOUSLY_DEAD),
        (2, 2, Status.OUT_OF_THE_FIGHT),
        (3, 5, Status.OUT_OF_THE_FIGHT),
        (2, 1, Status.DUCK_BACK),
        (4, 3, Status.DUCK_BACK),
        (6, 5, Status.DUCK_BACK),
    ],
)
def test_old_school_damage_16_1(face, impact, status):
    assert old_school_damage(face, impact) is status


OLD_SCHOOL_ROWS = {
    "AR": (48, 3, 3),
    "BAP": (12, 2, 2),
    "BAR": (48, 1, 3),
    "G": (6, 0, 2),
    "MP": (12, 3, 1),
    "P": (12, 2, 1),
    "RL": (48, 0, 5),
    "SAR": (48, 2, 3),
    "SG": (12, 3, 2),
    "SAW": (48, 4, 3),
    "SMG": (24, 3, 1),
}


@pytest.mark.parametrize("code", list(OLD_SCHOOL_ROWS))
def test_old_school_weapons_16_0_every_row(code):
    w = OLD_SCHOOL_WEAPONS[code]
    assert (w.range, w.target, w.impact) == OLD_SCHOOL_ROWS[code]
    assert weapon_stats(code, old_school=True) is w


def test_grenade_tables_7_10_1_and_7_10_3():
    assert GRENADE_READY == (GrenadeReady.THROW_LATER, GrenadeReady.THROW_NOW)
    assert GRENADE_THROW == (
        GrenadeThrow.OOPS,
        GrenadeThrow.ON_SPOT_IF_IN_LOS,
        GrenadeThrow.ON_SPOT,
    )


def test_charge_into_melee_7_11_2():
    assert dict(CHARGE_INTO_MELEE) == {
        "more": ChargeResult.TARGET_FIRES,
        "same": ChargeResult.TARGET_RUSH_SHOTS,
        "fewer": ChargeResult.CHARGER_MOVES_IN,
    }
    assert charge_result(2, 1) is ChargeResult.TARGET_FIRES
    assert charge_result(1, 1) is ChargeResult.TARGET_RUSH_SHOTS
    assert charge_result(0, 0) is ChargeResult.TARGET_RUSH_SHOTS
    assert charge_result(0, 2) is ChargeResult.CHARGER_MOVES_IN
    assert dict(CHARGE_TARGET_DICE) == {"cover": 1, "flank": -1, "rear": -2}


def test_melee_combat_7_11_4_circumstances():
    assert MELEE_WEAPON_DICE[MeleeWeapon.NONE] == 0
    assert MELEE_WEAPON_DICE[MeleeWeapon.ONE_HAND] == 1
    assert MELEE_WEAPON_DICE[MeleeWeapon.TWO_HAND] == 2
    assert MELEE_VS_PRONE_DICE == 1


@pytest.mark.parametrize(
    ("score", "rep", "status"),
    [
        (6, 4, Status.OBVIOUSLY_DEAD),
        (9, 8, Status.OBVIOUSLY_DEAD),
        (5, 4, Status.OUT_OF_THE_FIGHT),
        (4, 4, Status.OUT_OF_THE_FIGHT),
        (3, 4, Status.MINUS_ONE_REP),
        (1, 2, Status.MINUS_ONE_REP),
        (1, 1, Status.OUT_OF_THE_FIGHT),
    ],
)
def test_melee_damage_7_11_5(score, rep, status):
    assert melee_damage(score, rep) is status


def test_recovery_challenge_new_recruits_7_13_7_14_13_1():
    assert AFTER_BATTLE_RECOVERY == (
        Recovery.DOES_NOT_RETURN,
        Recovery.OOF_RETURNS,
        Recovery.RETURNS,
    )
    assert CHALLENGE == (ChallengeRow.FAILURE, ChallengeRow.MAY_REROLL, ChallengeRow.SUCCESS)
    assert dict(CHALLENGE_MODIFIERS) == {"very_easy": 1, "very_difficult": -1, "helpful_tool": 1}
    assert NEW_RECRUITS == (NewRecruits.NONE, NewRecruits.ONE, NewRecruits.FULL_STRENGTH)


@pytest.mark.parametrize(
    ("face", "rep", "up"),
    [(6, 6, True), (6, 7, True), (5, 4, True), (4, 4, False), (1, 3, False), (3, 2, True)],
)
def test_rep_increase_13_2(face, rep, up):
    assert rep_increase(face, rep) is up


@pytest.mark.parametrize(
    ("face", "rep", "down"), [(1, 4, True), (1, 3, True), (1, 2, False), (2, 4, False)]
)
def test_rep_decrease_13_3(face, rep, down):
    assert rep_decrease(face, rep) is down


def test_overall_terrain_9_2():
    assert OVERALL_TERRAIN == (TableType.CLEAR,) * 3 + (
        TableType.URBAN,
        TableType.WOODED,
        TableType.MOUNTAIN,
    )


def _gen(table):
    return [(t.ground.value, t.buildings) for t in TERRAIN_GENERATOR[table]]


def test_terrain_generator_9_3_1_every_row():
    c, cb = ("clear", False), ("clear", True)
    w, wb = ("woods", False), ("woods", True)
    assert _gen(TableType.CLEAR) == [c, c, c, cb, ("hill", False), w]
    assert _gen(TableType.URBAN) == [c, c, cb, cb, ("hill", True), w]
    assert _gen(TableType.WOODED) == [c, c, w, w, wb, ("wooded_hill", False)]
    im = ("impassable", False)
    assert _gen(TableType.MOUNTAIN) == [im, c, im, w, w, im]
    assert {t.ground for col in TERRAIN_GENERATOR.values() for t in col} == set(Ground)


@pytest.mark.parametrize("half", [1, 2, 3])
def test_building_count_9_4_4(half):
    assert building_count(TableType.URBAN, half) == 3 + half
    for other in (TableType.CLEAR, TableType.WOODED, TableType.MOUNTAIN):
        assert building_count(other, half) == half


def test_building_type_9_5_every_row():
    def col(t):
        return [(b.areas, b.floors) for b in BUILDING_TYPE[t]]

    cw = [(1, 1), (1, 1), (1, 1), (2, 1), (2, 1), (2, 2)]
    assert col(TableType.CLEAR) == col(TableType.WOODED) == col(TableType.MOUNTAIN) == cw
    assert col(TableType.URBAN) == [(1, 1), (1, 1), (2, 1), (2, 1), (2, 2), (2, 2)]


def test_pef_tables_11_2_11_3_11_4():
    assert PEF_MOVEMENT == (0, 4, 8)
    assert PEF_RESOLUTION == (
        PefResolution.FALSE_ALARM,
        PefResolution.SOMETHINGS_OUT_THERE,
        PefResolution.CONTACT,
    )
    assert CONTACT_SIZE == (-3, -2, -1, 1, 2, 3)
    assert NP_FORCE_MOVEMENT[2] == (NpMove.SPLIT_AND_ENCIRCLE, NpMove.MOVE_TO_FIRING_COVER)
    assert NP_FORCE_MOVEMENT[1] == (NpMove.MOVE_TO_FIRING_COVER, NpMove.HOLD_OR_NEAREST_COVER)
    assert NP_FORCE_MOVEMENT[0] == (NpMove.HOLD_OR_NEAREST_COVER,) * 2


def test_defend_objective_12_3_6():
    assert DEFEND_OBJECTIVE[:3] == (DefendObjective.KILL_OR_CAPTURE,) * 3
    assert DEFEND_OBJECTIVE[3:] == (DefendObjective.RECOVER,) * 3
