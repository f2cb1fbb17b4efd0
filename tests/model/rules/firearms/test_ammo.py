"""Counted ammunition and reloading FD §3, readiness FD §4."""

import dataclasses

import pytest

from crdesk.errors import IllegalActionError
from crdesk.rules.firearms.ammo import (
    WeaponState,
    check_can_fire,
    max_dice,
    needs_rush_shot,
    ready_by_moving,
    reload,
    spend_rounds,
    start_of_activation,
)
from crdesk.rules.firearms.cards import DEFAULT_CARDS, REVOLVER, WeaponCard
from crdesk.rules.firearms.tables import FireMode

M = FireMode
ANY = WeaponCard("Test gun", "AR", tuple(FireMode), 30)


# FD §3: rounds per die by mode; FA 10 per volley
@pytest.mark.parametrize(
    ("mode", "dice", "spent"),
    [
        (M.SEMI, 3, 3),
        (M.SA, 1, 1),
        (M.DA, 2, 2),
        (M.PUMP, 1, 1),
        (M.BA, 1, 1),
        (M.RB2, 3, 6),
        (M.RB3, 3, 9),
        (M.FA, 10, 10),
    ],
)
def test_rounds_spent_per_die_by_mode(mode, dice, spent):
    result = spend_rounds(WeaponState.loaded(ANY), mode, dice)
    assert result.spent == spent and result.after.rounds == 30 - spent
    assert result.after.mode is mode


def test_a_mode_needs_its_rounds():
    ar = WeaponState(DEFAULT_CARDS["AR"], 9, 3)
    with pytest.raises(IllegalActionError, match="holds 9 rounds; Full Auto with 1 die needs 10"):
        check_can_fire(ar, M.FA)
    with pytest.raises(IllegalActionError, match="needs 6"):
        spend_rounds(WeaponState(DEFAULT_CARDS["AR"], 5, 3), M.RB3, 2)
    assert max_dice(ar, M.FA) == 0 and max_dice(ar, M.RB3) == 3 and max_dice(ar, M.SEMI) == 3
    assert max_dice(WeaponState(DEFAULT_CARDS["AR"], 2, 0), M.SEMI) == 2
    assert max_dice(WeaponState(DEFAULT_CARDS["AR"], 5, 0), M.RB3) == 1
    assert max_dice(WeaponState.loaded(REVOLVER), M.SA) == 1
    assert max_dice(WeaponState.loaded(REVOLVER), M.FA) == 0  # not on the card
    with pytest.raises(IllegalActionError, match="has no Full Auto mode"):
        check_can_fire(WeaponState.loaded(REVOLVER), M.FA)


def test_an_empty_weapon_cannot_fire_and_reloads_with_a_spare():
    empty = spend_rounds(WeaponState(DEFAULT_CARDS["P"], 1, 1), M.SEMI, 1).after
    assert (
        empty.empty
        and "empty: reload"
        in spend_rounds(WeaponState(DEFAULT_CARDS["P"], 1, 1), M.SEMI, 1).explain()
    )
    with pytest.raises(IllegalActionError, match="Pistol is empty: reload it first"):
        check_can_fire(empty, M.SEMI)
    done = reload(empty)
    assert (done.after.rounds, done.after.spares) == (15, 0)
    with pytest.raises(IllegalActionError, match="no spare magazine left"):
        reload(dataclasses.replace(done.after, rounds=3))
    with pytest.raises(IllegalActionError, match="normal movement only"):
        reload(empty, fast_moving=True)
    with pytest.raises(IllegalActionError, match="is full"):
        reload(WeaponState.loaded(DEFAULT_CARDS["P"]))


def test_reloading_a_part_used_magazine_throws_the_rest_away():
    done = reload(WeaponState(DEFAULT_CARDS["AR"], 7, 2))
    assert (done.after.rounds, done.after.spares, done.discarded) == (30, 1, 7)
    assert "7 rounds left in the old one discarded; 1 spare magazine left" in done.explain()


@pytest.mark.parametrize(
    ("faces", "keep", "jammed", "left"),
    [
        ((1, 1, 4), True, True, 0),
        ((1, 1, 4), False, False, 27),
        ((1, 3, 4), True, False, 27),
    ],
)
def test_keep_tight_ammo_too_jams_on_two_ones(faces, keep, jammed, left):
    result = spend_rounds(
        WeaponState.loaded(DEFAULT_CARDS["AR"]), M.SEMI, 3, faces=faces, keep_tight_ammo=keep
    )
    assert (result.jammed, result.after.rounds) == (jammed, left)
    assert result.result == ("jammed" if jammed else "rounds_left")


# FD §4: Bolt Action, Pump and Single Action are unready after firing
@pytest.mark.parametrize(
    ("mode", "unready"),
    [(M.BA, True), (M.PUMP, True), (M.SA, True), (M.DA, False), (M.SEMI, False), (M.FA, False)],
)
def test_readiness_after_firing(mode, unready):
    after = spend_rounds(WeaponState.loaded(ANY), mode, 10 if mode is M.FA else 1).after
    assert after.ready is not unready and needs_rush_shot(after) is unready


def test_readied_at_the_next_activation_or_by_giving_up_2_inches():
    bar = spend_rounds(WeaponState.loaded(DEFAULT_CARDS["BAR"]), M.BA, 1).after
    assert not bar.ready
    started = start_of_activation(bar)
    assert started.readied and started.after.ready
    assert not start_of_activation(started.after).readied
    moved = ready_by_moving(bar, 6.0)
    assert moved.after.ready and moved.movement_spent == 2.0
    with pytest.raises(IllegalActionError, match=r'costs 2" of movement, 1\.5" left'):
        ready_by_moving(bar, 1.5)
    with pytest.raises(IllegalActionError, match="already ready"):
        ready_by_moving(moved.after, 6.0)


def test_the_panel_summary():
    state = WeaponState(DEFAULT_CARDS["SMG"], 12, 2, mode=M.FA)
    assert state.summary() == "Submachine Gun (SMG), Full Auto: 12/30 rounds, 2 spare magazines"
