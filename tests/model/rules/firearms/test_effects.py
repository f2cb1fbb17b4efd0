"""Knockdown FD §8 and damage classes / explosive rings FD §9."""

import pytest

from crdesk.dice import ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.rules.firearms.effects import (
    RingFigure,
    class_damage_for_face,
    explosive_rings,
    knockdown,
    push_away,
    ring_class,
    roll_class_damage,
)
from crdesk.rules.firearms.tables import DamageClass

DB, OOF, OD = Status.DUCK_BACK, Status.OUT_OF_THE_FIGHT, Status.OBVIOUSLY_DEAD
D = DamageClass


# FD §9 damage classes on 7.9.11, faces 1-6 against Rep 4
@pytest.mark.parametrize(
    ("cls", "by_face"),
    [
        (D.DEADLY, [DB, DB, OOF, OOF, OD, OD]),
        (D.SEVERE, [DB, DB, DB, OOF, OOF, OD]),
        (D.WOUND, [DB, DB, DB, OOF, OOF, OOF]),
    ],
)
def test_damage_classes(cls, by_face):
    assert [class_damage_for_face(f, 4, cls).status for f in range(1, 7)] == by_face


def test_fatigue_rolls_no_die_and_is_a_received_fire_test():
    dice = ScriptedDice([])
    result = roll_class_damage(dice, 4, D.FATIGUE)
    assert result.status is None and result.result == "received_fire" and dice.used == 0


def test_wound_says_what_the_table_read():
    result = roll_class_damage(ScriptedDice([6]), 4, D.WOUND)
    assert result.read_as is OD and result.status is OOF
    assert "Obviously Dead counts as Out of the Fight" in result.explain()


def test_old_school_deadly_takes_one_off_the_die():
    opts = RulesOptions(old_school=True)
    # 16.1 with Impact 3: 1 OD, <=3 OOF; Deadly: 2 -> 1 OD, 4 -> 3 OOF, 5 -> 4 DB
    got = [
        roll_class_damage(ScriptedDice([f]), 4, D.DEADLY, options=opts, impact=3).status
        for f in (2, 4, 5)
    ]
    assert got == [OD, OOF, DB]
    with pytest.raises(IllegalActionError, match="Impact"):
        roll_class_damage(ScriptedDice([2]), 4, D.DEADLY, options=opts)


# FD §9 explosive rings, row by row, boundaries reading inward
@pytest.mark.parametrize(
    ("distance", "cls"),
    [
        (0, D.DEADLY),
        (2.5, D.DEADLY),
        (2.6, D.SEVERE),
        (5, D.SEVERE),
        (5.1, D.WOUND),
        (7.5, D.WOUND),
        (7.6, None),
    ],
)
def test_ring_class(distance, cls):
    assert ring_class(distance) is cls


def test_explosive_rings_resolve_each_figure():
    figures = [
        RingFigure("A", 4, 1.0),
        RingFigure("B", 4, 4.0),
        RingFigure("C", 4, 6.0),
        RingFigure("D", 4, 2.0, cover_between=True),
        RingFigure("E", 4, 3.0, prone=True),
        RingFigure("F", 4, 9.0),
        RingFigure("G", 4, 11.0),
    ]
    dice = ScriptedDice([5, 5, 6])
    result = explosive_rings(dice, figures)
    assert [v.result for v in result.figures] == [
        "obviously_dead",  # Deadly 5+1
        "out_of_the_fight",  # Severe 5
        "out_of_the_fight",  # Wound 6: OD counts as OOF
        "received_fire",  # cover between
        "received_fire",  # prone
        "received_fire",  # beyond the rings, within 10"
        "unaffected",
    ]
    assert dice.remaining == 0
    assert result.victim("D").damage is None and "7.10.6" in result.victim("D").reason
    assert result.result == "obviously_dead"


def test_push_on_open_ground_and_against_a_wall():
    open_ground = push_away((0.0, 0.0), (10.0, 0.0))
    assert open_ground.end == pytest.approx((11.0, 0.0)) and not open_ground.stopped_by_terrain
    wall = push_away((0.0, 0.0), (10.0, 0.0), lambda p: p[0] < 10.42)
    assert wall.stopped_by_terrain and wall.end[0] == pytest.approx(10.40)
    assert wall.distance == pytest.approx(0.40)
    diagonal = push_away((0.0, 0.0), (3.0, 4.0))
    assert diagonal.end == pytest.approx((3.6, 4.8))
    assert push_away((1.0, 1.0), (1.0, 1.0)).distance == 0


@pytest.mark.parametrize(
    ("face", "number", "down"), [(1, 3, True), (3, 3, True), (4, 3, False), (6, 6, True)]
)
def test_knockdown_at_or_under_the_number(face, number, down):
    dice = ScriptedDice([face])
    result = knockdown(dice, "B", number, status=DB, shooter_at=(0, 0), target_at=(0, 5))
    assert result.knocked_down is down and dice.remaining == 0
    assert (result.push is not None) is down
    if down:
        assert result.push is not None and result.push.end == pytest.approx((0.0, 6.0))


@pytest.mark.parametrize(
    ("number", "status", "prone"),
    [(0, DB, False), (3, OOF, False), (3, OD, False), (3, None, True)],
)
def test_no_knockdown_roll(number, status, prone):
    dice = ScriptedDice([])
    result = knockdown(dice, "B", number, status=status, prone=prone)
    assert not result.knocked_down and result.face is None and dice.used == 0
