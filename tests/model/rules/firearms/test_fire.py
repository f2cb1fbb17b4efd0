"""Firing under Firearms Detail: steps §1, modes §5, aim §5.1, walk §5.2, buckshot §6,
supported fire §7, knockdown in a firing §8, indirect fire §10."""

import dataclasses
import json

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import DEFAULT_CARDS, REVOLVER, WeaponCard
from crdesk.rules.firearms.fire import (
    BurstTarget,
    Nearby,
    PushGeometry,
    Step,
    buckshot,
    buckshot_figures,
    burst_fire,
    fa_pair_steps,
    full_auto,
    indirect_fire,
    read_die,
    single_fire,
    spotter_helps,
    spread_row,
)
from crdesk.rules.firearms.tables import (
    BUCKSHOT_BANDS,
    DEFAULT_CONVERSIONS,
    AmmoType,
    FireMode,
    Support,
    buckshot_band,
)
from crdesk.rules.shooting import TargetSpec

DB, OOF, OD = Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD
M = FireMode


def loaded(cat: str, **changes: object) -> WeaponState:
    return WeaponState.loaded(dataclasses.replace(DEFAULT_CARDS[cat], **changes))


def B(name: str = "B", **kw: object) -> TargetSpec:
    return TargetSpec(name, 4, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# §1 conversions and the step cap


def test_conversions_table():
    c = DEFAULT_CONVERSIONS
    assert (c.inches(10), c.squares(3), c.step, c.step_cap) == (5.0, 3.0, 1, 3)


@pytest.mark.parametrize(
    ("face", "steps", "net", "total", "hit"),
    [
        (1, [2, 2], 3, 8, True),  # +4 capped at +3
        (6, [-4], -3, 7, False),  # -4 capped at -3
        (4, [3, -1], 2, 10, True),
        (4, [], 0, 8, True),
    ],
)
def test_steps_are_capped_per_die(face, steps, net, total, hit):
    got = read_die(face, 4, [Step(f"s{i}", s, "FD §1") for i, s in enumerate(steps)], frozenset())
    assert got[:3] == (net, total, hit)
    if len(steps) > 1 and abs(sum(steps)) > 3:
        assert f"capped at {net:+d}" in got[3]


# --------------------------------------------------------------------------
# §5 Semi and the one-round modes, §7 support, §4 Rush Shot


def test_semi_fire_is_chain_reaction_fire_with_counted_rounds():
    dice = ScriptedDice([6, 4, 2, 6, 3])
    result = single_fire(dice, 4, loaded("AR"), [B()], mode=M.SEMI)
    t = result.figure("B")
    assert [s.total for s in t.shots] == [10, 8, 6] and t.hits == 2
    assert [d.status for d in t.damage] == [OD, DB]
    assert result.ammo.after.rounds == 27 and dice.remaining == 0


@pytest.mark.parametrize(
    ("support", "hit"),
    [(Support.NONE, False), (Support.BIPOD, True), (Support.BRACED, True), (Support.TRIPOD, True)],
)
def test_supported_fire(support, hit):
    result = single_fire(ScriptedDice([3, 4]), 4, loaded("P"), [B()], support=support)
    assert result.figure("B").hits == int(hit)


def test_supported_and_tripod_steps():
    r = single_fire(ScriptedDice([1, 1]), 4, loaded("P"), [B()], support=Support.TRIPOD)
    assert r.figure("B").shots[0].total == 8  # 1 + 4 + 3
    with pytest.raises(IllegalActionError, match="did not move"):
        single_fire(ScriptedDice([3]), 4, loaded("P"), [B()], support=Support.BIPOD, moved=True)


def test_an_unready_weapon_fires_with_rush_shot():
    bar = dataclasses.replace(loaded("BAR"), ready=False)
    result = single_fire(ScriptedDice([4]), 4, bar, [B()])
    assert not result.figure("B").hits and "rush shot" in result.figure("B").shots[0].reason
    assert "unready: Rush Shot" in result.explain()
    assert not result.ammo.after.ready  # still unready after a bolt-action shot


def test_single_action_fires_one_die_and_buckshot_is_refused():
    with pytest.raises(IllegalActionError, match="fires 1 to 1 die now, not 2"):
        single_fire(
            ScriptedDice([6, 6]), 4, WeaponState.loaded(REVOLVER), [B()], mode=M.SA, dice_count=2
        )
    with pytest.raises(IllegalActionError, match="buckshot"):
        single_fire(ScriptedDice([6]), 4, loaded("SG"), [B()])
    slug = single_fire(ScriptedDice([6, 6, 6, 1, 1, 1]), 4, loaded("SG", ammo=AmmoType.SLUG), [B()])
    assert len(slug.faces) == 3 and slug.ammo.after.rounds == 5  # Target 3, not 6 keep 3


# --------------------------------------------------------------------------
# §5 bursts


def test_a_burst_is_plus_3_steps():
    dice = ScriptedDice([1, 3])
    result = burst_fire(dice, 4, loaded("AR"), [BurstTarget(B())], mode=M.RB3)
    shot = result.figure("B").shots[0]
    assert (shot.total, shot.hit, shot.net_steps) == (8, True, 3)
    assert result.ammo.spent == 3 and result.ammo.after.rounds == 27


def test_a_burst_missing_falls_on_the_nearest_figure_within_1_inch():
    target = BurstTarget(
        B(in_cover=True),
        (Nearby(B("F"), 0.8), Nearby(B("G"), 0.5), Nearby(B("Far"), 1.2)),
    )
    dice = ScriptedDice([1, 4, 5])
    result = burst_fire(dice, 4, loaded("AR"), [target], mode=M.RB3)
    assert [(f.id, f.role, f.hits) for f in result.figures] == [
        ("B", "target", 0),
        ("G", "burst_miss", 1),
    ]
    check = result.figure("G").shots[0]
    assert (check.total, check.net_steps, check.steps) == (8, 0, ())
    assert result.figure("G").status is OOF and result.figure("B").received_fire
    assert dice.remaining == 0


def test_a_burst_miss_with_nobody_within_1_inch_rolls_nothing_more():
    target = BurstTarget(B(in_cover=True), (Nearby(B("F"), 1.5),))
    dice = ScriptedDice([1])
    result = burst_fire(dice, 4, loaded("AR"), [target], mode=M.RB3)
    assert len(result.figures) == 1 and dice.remaining == 0


def test_burst_limits():
    ar = loaded("AR")
    four = [BurstTarget(B(n)) for n in "ABCD"]
    with pytest.raises(IllegalActionError, match="at most 3 bursts"):
        burst_fire(ScriptedDice([6] * 4), 4, ar, four, mode=M.RB3)
    with pytest.raises(IllegalActionError, match="aiming or walking"):
        burst_fire(ScriptedDice([6]), 4, ar, [BurstTarget(B())], mode=M.RB3, aim=True)
    with pytest.raises(IllegalActionError, match="named twice"):
        burst_fire(ScriptedDice([6, 6]), 4, ar, [BurstTarget(B()), BurstTarget(B())], mode=M.RB3)
    with pytest.raises(IllegalActionError, match="has no 2-round burst"):
        burst_fire(ScriptedDice([6]), 4, ar, [BurstTarget(B())], mode=M.RB2)
    three = burst_fire(ScriptedDice([6, 6, 6, 1, 1, 1]), 4, ar, four[:3], mode=M.RB3)
    # second and third targets keep their 7.9.10 penalty: 6+4+3 = 13 hits anyway
    assert three.ammo.spent == 9 and [f.hits for f in three.figures] == [1, 1, 1]


# --------------------------------------------------------------------------
# §5 Full Auto: pairs, spread table, nearest figures, dodge; §5.1 aim; §5.2 walk


def test_full_auto_pair_penalties_and_aimed_pairs():
    assert [fa_pair_steps(i).steps for i in range(1, 11)] == [0, 0, -1, -1, -2, -2, -3, -3, -4, -4]
    assert [fa_pair_steps(i, aimed=True).steps for i in range(1, 11)] == [
        2,
        2,
        1,
        1,
        0,
        0,
        -1,
        -1,
        -2,
        -2,
    ]


# FD §5 spread table, row by row (a boundary reads on the closer row)
@pytest.mark.parametrize(
    ("distance", "spread", "primary", "others"),
    [
        (5, 1, 5, 5),
        (10, 1, 5, 5),
        (15, 2, 4, 6),
        (20, 2, 4, 6),
        (25, 3, 3, 7),
        (35, 4, 2, 8),
        (40, 4, 2, 8),
        (45, 5, 1, 9),
    ],
)
def test_spread_table(distance, spread, primary, others):
    _, row = spread_row(distance)
    assert (row.spread, row.primary_dice, row.other_dice) == (spread, primary, others)
    crowd = [Nearby(B(f"N{i}"), 0.5) for i in range(9)]
    result = full_auto(
        ScriptedDice([6] * 10),
        4,
        loaded("SAW"),
        B(),
        crowd,
        distance=distance,
        roll_damage_dice=False,
    )
    assert len(result.figure("B").shots) == primary
    assert sum(len(f.shots) for f in result.figures if f.role == "spread") == others
    assert len(result.received_fire) == 10  # every figure in the spread area


@pytest.mark.parametrize(
    ("distance", "support", "row"),
    [
        (15, Support.BIPOD, 0),
        (5, Support.TRIPOD, 0),
        (45, Support.BRACED, 3),
        (15, Support.NONE, 1),
    ],
)
def test_supported_full_auto_reads_one_row_closer(distance, support, row):
    assert spread_row(distance, support)[0] == row


def test_an_fa_volley_at_15_inches_spreads_onto_a_friend():
    nearby = [Nearby(B("X"), 1.9), Nearby(B("Friend"), 1.5), Nearby(B("Far"), 2.5)]
    dice = ScriptedDice(
        [3, 6, 6, 6, 6, 5, 4, 4, 6, 3, *(2, 2, 2, 2), 4]
    )  # fire, B and Friend damage
    result = full_auto(dice, 4, loaded("AR"), B(), nearby, distance=15)
    b, friend, x = result.figure("B"), result.figure("Friend"), result.figure("X")
    assert [s.total for s in b.shots] == [10, 10, 9, 9] and b.hits == 4
    assert [d.status for d in b.damage] == [DB] * 4
    assert friend.shots[0].total == 8 and friend.status is OOF  # die 5: 6+4-2
    assert x.shots[0].total == 7 and not x.hits  # die 6: 5+4-2
    assert len(result.unused) == 4  # dice 7-10: no third figure within 2"
    assert set(result.received_fire) == {"B", "X"}  # the friend is Out of the Fight
    with pytest.raises(KeyError):
        result.figure("Far")
    assert result.rank == 4 and result.ammo.after.rounds == 20 and dice.remaining == 0


def test_every_figure_in_the_spread_takes_received_fire_with_or_without_a_die():
    crowd = [Nearby(B(f"N{i}"), 0.1 * i) for i in range(1, 8)]
    result = full_auto(ScriptedDice([1] * 10), 4, loaded("AR"), B(), crowd, distance=5)
    assert [f.id for f in result.figures] == ["B", "N1", "N2", "N3", "N4", "N5", "N6", "N7"]
    assert [len(f.shots) for f in result.figures] == [5, 1, 1, 1, 1, 1, 0, 0]
    assert len(result.received_fire) == 8


def test_aimed_full_auto():
    aimed = full_auto(
        ScriptedDice([2] * 10), 4, loaded("AR"), B(), distance=5, aim=True, roll_damage_dice=False
    )
    assert [s.total for s in aimed.figure("B").shots] == [8, 8, 7, 7, 6]
    plain = full_auto(
        ScriptedDice([2] * 10), 4, loaded("AR"), B(), distance=5, roll_damage_dice=False
    )
    assert [s.total for s in plain.figure("B").shots] == [6, 6, 5, 5, 4]
    with pytest.raises(IllegalActionError, match="does not move may aim"):
        full_auto(ScriptedDice([2] * 10), 4, loaded("AR"), B(), distance=5, aim=True, moved=True)
    with pytest.raises(IllegalActionError, match="not allowed with walking"):
        full_auto(ScriptedDice([2] * 10), 4, loaded("AR"), B(), distance=5, aim=True, walk_pairs=1)


def test_walking_the_target():
    nearby = [Nearby(B("N"), 0.5)]
    dice = ScriptedDice([3] * 6 + [1] * 4)
    result = full_auto(dice, 4, loaded("AR"), B(), nearby, distance=5, walk_pairs=2)
    assert len(result.faces) == 6  # two pairs sacrificed before rolling
    assert [s.total for s in result.figure("B").shots] == [9, 9, 8, 8, 7]  # +2 on the primary
    assert result.figure("N").shots[0].total == 5  # die 6: 3+4-2, no walk bonus
    assert result.figure("B").hits == 4 and dice.remaining == 0
    assert sum(1 for u in result.unused if "sacrificed" in u.reason) == 4
    assert result.ammo.spent == 10
    with pytest.raises(IllegalActionError, match="0 to 4 pairs"):
        full_auto(ScriptedDice([3] * 10), 4, loaded("AR"), B(), distance=5, walk_pairs=5)


@pytest.mark.parametrize(("dodge", "shots", "hits"), [(5, 1, 1), (2, 5, 2)])
def test_the_dodge_of_a_fast_moving_primary(dodge, shots, hits):
    # a failed dodge: totals 10, 10, 8, 8, 6 and an 8 misses a Fast Moving target
    dice = ScriptedDice([dodge] + [6, 6, 5, 5, 4] + [1] * 5 + [3] * hits)
    result = full_auto(dice, 4, loaded("AR"), B(fast_moving=True), distance=5)
    assert result.dodge is not None and result.dodge.result == (
        "dodged" if shots == 1 else "dodge_failed"
    )
    assert len(result.figure("B").shots) == shots and result.figure("B").hits == hits
    assert dice.remaining == 0


def test_full_auto_counts_outgunned_plus_1():
    assert full_auto(ScriptedDice([1] * 10), 4, loaded("SAW"), B(), distance=5).rank == 5
    assert full_auto(ScriptedDice([1] * 10), 4, loaded("SMG"), B(), distance=5).rank == 4
    with pytest.raises(IllegalActionError, match="needs 10"):
        full_auto(
            ScriptedDice([1] * 10), 4, dataclasses.replace(loaded("SMG"), rounds=9), B(), distance=5
        )


# --------------------------------------------------------------------------
# §6 buckshot, band by band

CROWD = [Nearby(B("N1"), 0.5), Nearby(B("N2"), 1.5), Nearby(B("N3"), 2.5), Nearby(B("N4"), 3.5)]


@pytest.mark.parametrize(
    ("distance", "steps", "figures"),
    [(2.5, 0, 1), (2.6, 1, 2), (7.5, 1, 2), (10, 2, 3), (12.5, 2, 3), (15, 3, 4), (20, 3, 5)],
)
def test_buckshot_bands(distance, steps, figures):
    band = buckshot_band(distance)
    assert (band.steps, band.figures) == (steps, figures)
    assert len(buckshot_figures(band, B(), CROWD)) == figures


def test_buckshot_point_blank_is_deadly():
    dice = ScriptedDice([4, 5])
    result = buckshot(dice, 4, loaded("SG"), B(), CROWD, distance=2)
    assert [f.id for f in result.figures] == ["B"]
    assert result.figure("B").status is OD  # Deadly: 5+1
    assert result.ammo.spent == 1 and not result.ammo.after.ready  # a pump


def test_buckshot_at_5_inches_hits_two_figures():
    dice = ScriptedDice([3, 4, 4, 3])
    result = buckshot(dice, 4, loaded("SG"), B(), CROWD, distance=5)
    assert [(f.id, f.shots[0].total) for f in result.figures] == [("B", 9), ("N1", 8)]
    assert (result.figure("B").status, result.figure("N1").status) == (OOF, DB)
    assert dice.remaining == 0


def test_buckshot_at_10_inches_oof_is_duck_back_for_the_second_and_later():
    dice = ScriptedDice([6, 6, 6, 4, 4, 6])
    result = buckshot(dice, 4, loaded("SG"), B(), CROWD, distance=10)
    assert [f.status for f in result.figures] == [OOF, DB, OD]


def test_buckshot_at_15_inches_is_duck_back_only():
    dice = ScriptedDice([6, 6, 1, 1])
    result = buckshot(dice, 4, loaded("SG"), B(), CROWD, distance=15)
    assert [f.status for f in result.figures] == [DB] * 4 and dice.remaining == 0
    assert all(not f.damage for f in result.figures)


def test_buckshot_beyond_is_received_fire_only():
    dice = ScriptedDice([])
    result = buckshot(dice, 4, loaded("SG"), B(), CROWD, distance=20)
    assert len(result.received_fire) == 5 and dice.used == 0 and result.ammo.spent == 1


def test_buckshot_misses_take_received_fire_and_extra_figures_need_reach():
    result = buckshot(ScriptedDice([1, 1]), 4, loaded("SG"), B(), CROWD, distance=5)
    assert set(result.received_fire) == {"B", "N1"}
    alone = buckshot_figures(BUCKSHOT_BANDS[1], B(), [Nearby(B("N2"), 1.5)])
    assert [t.name for t in alone] == ["B"]  # the first extra figure must be within 1"


# --------------------------------------------------------------------------
# §8 knockdown in a firing


def test_a_knockdown_pushes_a_figure_against_a_wall():
    ar = loaded("AR", knockdown=3)
    geo = PushGeometry((0.0, 0.0), {"B": (10.0, 0.0)}, lambda p: p[0] < 10.5)
    dice = ScriptedDice([6, 2, 2])
    result = single_fire(dice, 4, ar, [B()], dice_count=1, geometry=geo)
    kd = result.figure("B").knockdown
    assert kd is not None and kd.knocked_down and kd.push is not None
    assert kd.push.stopped_by_terrain and kd.push.end[0] == pytest.approx(10.45)
    assert result.figure("B").status is DB and dice.remaining == 0


def test_no_knockdown_roll_for_out_of_the_fight():
    dice = ScriptedDice([6, 5])
    result = single_fire(dice, 4, loaded("AR", knockdown=3), [B()], dice_count=1)
    assert result.figure("B").knockdown is not None
    assert result.figure("B").knockdown.face is None and dice.remaining == 0  # type: ignore[union-attr]


# --------------------------------------------------------------------------
# §10 indirect fire


@pytest.mark.parametrize(
    ("rep", "spotter", "total", "hit"),
    [(4, False, 7, False), (4, True, 8, True), (5, False, 8, True)],
)
def test_indirect_fire(rep, spotter, total, hit):
    result = indirect_fire(ScriptedDice([6]), rep, loaded("RL"), spotter=spotter)
    assert (result.shot.total, result.on_spot) == (total, hit)
    assert result.ammo.after.empty


def test_indirect_fire_is_for_blast_weapons_and_spotters():
    with pytest.raises(IllegalActionError, match="only blast weapons"):
        indirect_fire(ScriptedDice([6]), 4, loaded("AR"), spotter=False)
    assert spotter_helps(3.5, sees_spot=True) and not spotter_helps(4.5, sees_spot=True)
    assert spotter_helps(None, sees_spot=True, radio=True)
    assert not spotter_helps(1.0, sees_spot=False, radio=True)


def test_every_result_explains_itself_and_is_json():
    result = full_auto(ScriptedDice([6] * 10 + [1] * 5), 4, loaded("AR"), B(), distance=5)
    data = result.to_dict()
    assert data["section"] == "FD §5" and data["results"][0]["hits"] == 5
    assert "FA dice 3-4 -1 (FD §5)" in result.explain()
    _ = WeaponCard  # the card type is what loaded() replaces


def test_a_burst_target_can_also_be_the_miss_check_of_another_burst():
    targets = [BurstTarget(B("A", in_cover=True), (Nearby(B("C"), 0.5),)), BurstTarget(B("C"))]
    dice = ScriptedDice([2, 1, 4, 3])
    result = burst_fire(dice, 4, loaded("AR"), targets, mode=M.RB3)
    assert [(f.id, f.role, f.hits) for f in result.figures] == [
        ("A", "target", 0),
        ("C", "burst_miss", 1),
        ("C", "target", 0),  # 1+4+3 = 8 misses a second target
    ]
    assert result.hits_on("C") == 1 and dice.remaining == 0


def test_results_are_plain_json():
    crowd = [Nearby(B("N"), 0.5)]
    dodge_failed = ScriptedDice([2] + [6] * 10 + [3] * 6)
    results = [
        full_auto(dodge_failed, 4, loaded("AR"), B(fast_moving=True), crowd, distance=5),
        buckshot(ScriptedDice([6, 6, 3, 3]), 4, loaded("SG"), B(), crowd, distance=5),
        burst_fire(
            ScriptedDice([6, 3, 2]),
            4,
            loaded("AR", knockdown=6),
            [BurstTarget(B())],
            mode=M.RB3,
            geometry=PushGeometry((0, 0), {"B": (0, 5)}),
        ),
        indirect_fire(ScriptedDice([6]), 5, loaded("RL"), spotter=True),
    ]
    for r in results:
        data = json.loads(json.dumps(r.to_dict()))
        assert data["explain"] == r.explain()
    assert data["ammo"]["after"]["rounds"] == 0  # the launcher's one round is spent
