"""A figure against a wall, a rock's edge, another base or the table's edge can move
along it and away from it (issue 31, Deliver 3): no move of a figure is refused for
touching what it starts against.  Each case moves a figure 2" in 16 directions; every
direction that does not go into the obstacle must be allowed."""

from __future__ import annotations

import math

import pytest

from crdesk.geometry.movement import farthest_along, path_cost
from crdesk.geometry.routing import route
from crdesk.model import Battlefield, Building, Opening, OpeningKind, Table, TerrainFeature
from crdesk.model import TerrainKind as K
from crdesk.options import RulesOptions
from tests.model.geometry.test_movement import square

RULES = RulesOptions()
R = 0.5
STEP = 2.0


def board() -> Battlefield:
    rock = TerrainFeature("rock", K.IMPASSABLE, "rock", square(10, 10, 16, 26))
    house = Building(
        "house",
        K.BUILDING,
        "house",
        square(26, 10, 38, 26),
        openings=[Opening(OpeningKind.DOOR, (31, 26), (33, 26))],
    )
    return Battlefield(Table(48, 36), [rock, house], [])


# (where the centre stands, the obstacle's outward normal at that spot)
CASES = {
    "touching the rock": ((10 - R, 18), (-1, 0)),
    "a base over the rock's edge by 0.1": ((10 - R + 0.1, 18), (-1, 0)),
    "a base over the rock's edge by 0.3": ((10 - R + 0.3, 18), (-1, 0)),
    "at the rock's corner": ((10 - R * 0.7, 10 - R * 0.7), (-0.7071, -0.7071)),
    "touching a wall outside": ((26 - R, 18), (-1, 0)),
    "0.2 from a wall outside": ((26 - 0.2, 18), (-1, 0)),
    # pushed into the wall (Duck Back, a knockdown): it steps off, out or in; exactly
    # along the wall's line is no move off it (the two directions are left out below)
    "the centre on a wall": ((26.0, 18), (-1, 0)),
    "touching a wall inside": ((26 + R, 18), (1, 0)),
    "0.2 from a wall inside": ((26 + 0.2, 18), (1, 0)),
    "inside, on the wall by the door": ((30.0, 26.0 - 0.1), (0, -1)),
    "touching the table's edge": ((R, 30), (1, 0)),
    "over the table's edge by 0.1": ((R - 0.1, 30), (1, 0)),
}


def directions(normal: tuple[float, float], *, along: bool = True) -> list[tuple[float, float]]:
    """Of 16 directions, those along the obstacle or away from it."""
    out = []
    for k in range(16):
        a = 2 * math.pi * k / 16
        d = (math.sin(a), -math.cos(a))
        dot = d[0] * normal[0] + d[1] * normal[1]
        if dot >= -1e-6 and (along or dot > 1e-6):
            out.append(d)
    return out


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_along_and_away_are_never_refused(case: str) -> None:
    bf = board()
    (x, y), normal = CASES[case]
    refused = []
    for dx, dy in directions(normal, along=case != "the centre on a wall"):
        end = (x + STEP * dx, y + STEP * dy)
        cost = path_cost(bf, [(x, y), end], RULES, radius=R)
        if not cost.allowed:
            refused.append((round(dx, 2), round(dy, 2), cost.forbidden))
            continue
        reach = farthest_along(bf, [(x, y), end], STEP, RULES, radius=R)
        assert reach.stopped_by is None, (dx, dy, reach)
    assert not refused, f"{case}: refused {refused}"


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_route_starts_from_against_it_too(case: str) -> None:
    bf = board()
    (x, y), (nx, ny) = CASES[case]
    away = (x + 3 * nx, y + 3 * ny)
    got = route(bf, (x, y), away, RULES, radius=R)
    assert got is not None and got.cost.allowed


def test_into_the_obstacle_is_still_refused() -> None:
    bf = board()
    assert not path_cost(bf, [(26 - R, 18), (28, 18)], RULES, radius=R).allowed  # a wall
    assert not path_cost(bf, [(10 - R, 18), (12, 18)], RULES, radius=R).allowed  # rock


def test_from_against_a_wall_the_way_in_is_still_by_the_door() -> None:
    bf = board()
    got = route(bf, (33, 26 + 0.2), (33, 24), RULES, radius=R)  # 0.2 from the wall, outside
    assert got is not None and got.cost.allowed
    assert got.cost.cost >= got.cost.length + 2 - 1e-9  # through the door (2"), not the wall


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ((26 - 0.005, 18), (28, 18)),  # a hair outside the wall: in through it
        ((26 + 0.005, 18), (24, 18)),  # a hair inside: out through it
        ((26 - 0.009, 18), (27, 19.5)),  # slanting in
        ((30.0, 10 + 0.004), (30, 8)),  # inside, by the north wall: out through it
    ],
)
def test_a_centre_a_hair_from_a_wall_steps_off_on_its_own_side_only(
    start: tuple[float, float], end: tuple[float, float]
) -> None:
    """Kept games: a move stopped by a wall ends a hair (0.01") short of it, and the next
    move from there went straight through the wall, no door paid (7.4, 8.2): the centre
    "on the wall" stepped off it either way.  Only a centre exactly on the wall's line
    has no side of its own; one a hair off it leaves on its own side."""
    bf = board()
    cost = path_cost(bf, [start, end], RULES, radius=R)
    assert not cost.allowed and cost.forbidden == "wall", cost
    reach = farthest_along(bf, [start, end], 8.0, RULES, radius=R)
    assert math.dist(reach.point, start) < 0.02, reach
    got = route(bf, start, end, RULES, radius=R)
    assert got is None or got.cost.cost >= got.cost.length + 2 - 1e-9  # by the door
