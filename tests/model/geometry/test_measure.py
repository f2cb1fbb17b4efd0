"""Distances, range, charge direction, arc of fire and blast circles (digest 1, 7.9.7, 7.10.5-6)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from shapely.geometry import Polygon

from crdesk.geometry.measure import (
    ChargeDirection,
    arc_of_fire,
    base_distance,
    blast_members,
    charge_direction,
    cover_from_blast,
    distance_to_point,
    in_range,
)
from crdesk.model import Battlefield, CoverObstacle, Figure, Force, Table, TerrainKind
from crdesk.options import Interpretations, RulesOptions, Scale


def fig(fid: str, x: float, y: float, facing: float = 0.0, **kw: object) -> Figure:
    return Figure(id=fid, name=fid, rep=4, x=x, y=y, facing=facing, **kw)  # type: ignore[arg-type]


def test_base_to_base_distance() -> None:
    assert base_distance(fig("a", 0, 0), fig("b", 10, 0)) == pytest.approx(9.0)
    assert base_distance(fig("a", 0, 0), fig("b", 0.5, 0)) == 0.0
    assert distance_to_point(fig("a", 0, 0), (0, 5)) == pytest.approx(4.5)


def test_range_is_base_to_base() -> None:
    shooter, target = fig("a", 0, 0), fig("b", 13, 0)
    assert in_range(shooter, target, 12)
    assert not in_range(shooter, fig("b", 13.2, 0), 12)


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        ((10, 0), (10, 9), ChargeDirection.FRONT),  # straight ahead (target faces -y)
        ((13, 8), (11, 9), ChargeDirection.FLANK),  # 53° off the facing
        ((10, 15), (10, 11), ChargeDirection.REAR),  # starts and ends behind
        ((10, 15), (12, 9), ChargeDirection.FLANK),  # starts behind, ends in front: not rear
    ],
)
def test_charge_direction(
    start: tuple[float, float], end: tuple[float, float], expected: ChargeDirection
) -> None:
    target = fig("t", 10, 10, facing=0)
    assert charge_direction(target, start, end, RulesOptions()) is expected


def test_flank_option_off_leaves_front_and_rear() -> None:
    rules = RulesOptions(interpretations=Interpretations(flank_is_outside_front_cone=False))
    assert charge_direction(fig("t", 10, 10), (13, 8), (11, 9), rules) is ChargeDirection.FRONT


def test_arc_of_fire_width_side_and_order() -> None:
    shooter = fig("s", 0, 20, facing=0)
    first = fig("t1", 0, 0)
    right1 = fig("r1", 1.5, 0.2)
    right2 = fig("r2", 2.8, 0)
    too_far = fig("r3", 4.0, 0)
    left = fig("l1", -1.5, 0)
    others = [too_far, right2, left, right1]
    assert [f.id for f in arc_of_fire(shooter, first, others, 3, "right")] == ["t1", "r1", "r2"]
    assert [f.id for f in arc_of_fire(shooter, first, others, 3, "left")] == ["t1", "l1"]
    assert [f.id for f in arc_of_fire(shooter, first, others, 1, "right")] == ["t1"]
    eligible = arc_of_fire(shooter, first, others, 3, "right", eligible=lambda f: f.id != "r1")
    assert [f.id for f in eligible] == ["t1", "r2"]


def test_blast_circle_members_partly_inside() -> None:
    rules = RulesOptions()  # 5" diameter at 28mm
    figs = [fig("in", 0, 0), fig("edge", 2.9, 0), fig("out", 3.1, 0)]
    assert [f.id for f in blast_members((0, 0), figs, rules)] == ["in", "edge"]
    small = replace(rules, scale=Scale.MM15)  # 3" diameter
    assert [f.id for f in blast_members((0, 0), figs, small)] == ["in"]
    radius = RulesOptions(interpretations=Interpretations(blast_size_is_diameter=False))
    assert len(blast_members((0, 0), figs, radius)) == 3


def _blast_field() -> Battlefield:
    wall = CoverObstacle(
        "wall", TerrainKind.COVER, "wall", Polygon([(4, -2), (4.4, -2), (4.4, 2), (4, 2)])
    )
    force = Force(
        "red", "red", figures=[fig("a", 6, 0), fig("b", 0, 6), fig("c", 0, 3), fig("d", -6, 0)]
    )
    return Battlefield(Table(36, 36), [wall], [force])


def test_cover_between_blast_and_figure() -> None:
    bf = _blast_field()
    rules = RulesOptions()
    assert cover_from_blast(bf, (0, 0), bf.figure("a"), rules).by == "wall"
    # a standing figure between counts as Cover
    assert cover_from_blast(bf, (0, 0), bf.figure("b"), rules).by == "c"
    assert not cover_from_blast(bf, (0, 0), bf.figure("d"), rules).covered
    bf.update_figure("c", prone=True)
    assert not cover_from_blast(bf, (0, 0), bf.figure("b"), rules).covered


def test_the_way_walked_is_cut_where_the_move_stopped() -> None:
    """A move an In Sight stops (7.6) ends on its path: the way walked is cut there."""
    from crdesk.geometry.measure import nearest_on_path, walked_to

    path = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)]
    assert nearest_on_path(path, (4.0, 1.0)) == (1, 5.0)
    assert nearest_on_path(path, (2.0, 0.0)) == (0, 2.0)
    assert walked_to(path, (4.0, 1.0)) == [(0.0, 0.0), (4.0, 0.0), (4.0, 1.0)]
    assert walked_to(path, (1.0, 0.0)) == [(0.0, 0.0), (1.0, 0.0)]
    assert walked_to([(3.0, 3.0)], (5.0, 5.0)) == [(3.0, 3.0), (5.0, 5.0)]
