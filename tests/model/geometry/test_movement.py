"""Movement: path cost, how far, paths around obstacles, reachable area, Duck Back (7.4, 8.2)."""

from __future__ import annotations

import pytest
from shapely.geometry import Point, Polygon

from crdesk.geometry.movement import (
    farthest_along,
    nearest_cover,
    opening_cost,
    path_cost,
    reachable_area,
    shortest_path,
)
from crdesk.model import (
    Battlefield,
    Building,
    CoverObstacle,
    Figure,
    Force,
    Opening,
    OpeningKind,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import Interpretations, RulesOptions

RULES = RulesOptions()


def square(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def field() -> Battlefield:
    woods = TerrainFeature("wood", TerrainKind.WOODS, "wood", square(10, 0, 14, 36))
    rock = TerrainFeature("rock", TerrainKind.IMPASSABLE, "rock", square(20, 10, 24, 26))
    house = Building(
        "house",
        TerrainKind.BUILDING,
        "house",
        square(28, 10, 34, 16),
        openings=[
            Opening(OpeningKind.DOOR, (30, 16), (31, 16)),
            Opening(OpeningKind.WINDOW, (28, 12), (28, 13)),
        ],
    )
    return Battlefield(Table(36, 36), [woods, rock, house], [])


def test_open_ground_costs_its_length() -> None:
    assert path_cost(field(), [(2, 2), (2, 10)], RULES).cost == pytest.approx(8)


def test_woods_halve_movement() -> None:
    res = path_cost(field(), [(8, 5), (16, 5)], RULES)
    assert res.length == pytest.approx(8)
    assert res.cost == pytest.approx(12)  # 4" of woods cost 8"


def test_pefs_ignore_woods() -> None:
    assert path_cost(field(), [(8, 5), (16, 5)], RULES, ignore_terrain=True).cost == pytest.approx(
        8
    )


def test_impassable_is_forbidden_even_for_pefs() -> None:
    for ignore in (False, True):
        res = path_cost(field(), [(18, 18), (26, 18)], RULES, ignore_terrain=ignore)
        assert res.forbidden == "impassable" and res.feature_id == "rock"


def test_pefs_enter_a_building_only_by_its_openings_for_nothing() -> None:
    """A PEF ignores terrain's movement penalties (11.2) -- a door's 2", a window's 4" --
    not a building's walls (7.4, 8.2): with ``walls`` a blank wall stops it."""
    through_wall = [(31, 8), (31, 12)]  # the house's north wall has no opening
    res = path_cost(field(), through_wall, RULES, ignore_terrain=True, walls=True)
    assert res.forbidden == "wall" and res.feature_id == "house"
    assert path_cost(field(), through_wall, RULES, ignore_terrain=True).allowed  # as before
    by_door = path_cost(field(), [(30.5, 18), (30.5, 14)], RULES, ignore_terrain=True, walls=True)
    assert by_door.allowed and by_door.cost == pytest.approx(4)  # the door costs nothing
    assert path_cost(field(), [(30.5, 18), (30.5, 14)], RULES).cost == pytest.approx(6)


def test_a_move_of_no_length_on_impassable_ground_is_refused_not_a_crash() -> None:
    # the GUI monkey's seed 111: a figure standing on the rock's edge asked for its way
    # to the table edge with no length to go (shapely's intersection of a zero-length
    # line is empty, and the nearest crossing was the min of nothing)
    for radius in (0.5, 0.0):
        spot = (22.0, 18.0)
        res = path_cost(field(), [spot, spot], RULES, radius=radius)
        assert res.forbidden == "impassable" and res.feature_id == "rock"
        assert res.length == 0.0


def test_door_and_window_costs_and_walls() -> None:
    bf = field()
    assert path_cost(bf, [(30.5, 20), (30.5, 14)], RULES).cost == pytest.approx(6 + 2)
    assert path_cost(bf, [(26, 12.5), (30, 12.5)], RULES).cost == pytest.approx(4 + 4)
    wall = path_cost(bf, [(33, 20), (33, 14)], RULES)
    assert wall.forbidden == "wall" and wall.feature_id == "house"


def test_farthest_along_open_and_woods() -> None:
    bf = field()
    assert farthest_along(bf, [(2, 2), (2, 30)], 8, RULES).point == pytest.approx((2, 10))
    # 2" of open ground then woods at half speed: 6" left buys 3"
    assert farthest_along(bf, [(8, 5), (20, 5)], 8, RULES).point == pytest.approx((13, 5))


def test_farthest_along_stops_before_a_door_it_cannot_pay() -> None:
    reach = farthest_along(field(), [(30.5, 17), (30.5, 12)], 2.5, RULES)
    assert reach.stopped_by == "allowance"
    assert reach.point[1] == pytest.approx(16.0, abs=0.02)


def test_farthest_along_stops_at_impassable() -> None:
    reach = farthest_along(field(), [(18, 18), (26, 18)], 8, RULES, radius=0.5)
    assert reach.stopped_by == "impassable"
    assert reach.point[0] == pytest.approx(19.5, abs=0.05)


def test_shortest_path_goes_around_the_rock() -> None:
    bf = field()
    path = shortest_path(bf, (18, 18), (26, 18), RULES, radius=0.5)
    assert path is not None and len(path) > 2
    assert path_cost(bf, path, RULES, radius=0.5).allowed
    assert shortest_path(bf, (18, 18), (22, 18), RULES) is None


def test_reachable_area_avoids_impassable() -> None:
    bf = field()
    f = Figure("a", "a", 4, x=18, y=18)
    area = reachable_area(bf, f, 8, RULES)
    assert area.contains(Point(18, 12))
    assert not area.intersects(square(20, 10, 24, 26))
    assert area.area < 3.1416 * 64


def duck_field() -> Battlefield:
    wall = CoverObstacle("wall", TerrainKind.COVER, "wall", square(14, 10, 18, 10.4))
    house = Building(
        "house",
        TerrainKind.BUILDING,
        "house",
        square(2, 2, 6, 6),
        openings=[Opening(OpeningKind.DOOR, (3, 6), (4, 6))],
    )
    fig = Figure("a", "a", 4, x=16, y=13)
    return Battlefield(Table(36, 36), [wall, house], [Force("red", "red", figures=[fig])])


def test_duck_back_to_the_nearest_cover() -> None:
    bf = duck_field()
    res = nearest_cover(bf, bf.figure("a"), (16, 30), RULES)  # threat to the south
    assert not res.prone_in_place
    assert res.reason == "cover"
    # behind the wall as seen from the south, base clear of the wall, within 1" of it
    assert 8.5 <= res.point[1] <= 9.5
    assert res.distance == pytest.approx(13 - res.point[1], abs=0.3)


def test_duck_back_to_the_cover_already_between_it_and_the_threat() -> None:
    bf = duck_field()
    res = nearest_cover(bf, bf.figure("a"), (16, 0), RULES)  # threat north: wall is between
    # not prone in place: it steps up behind the wall (y 10.4) to count as in its Cover
    assert not res.prone_in_place and res.reason == "cover"
    assert res.point[0] == pytest.approx(16.0) and 10.9 <= res.point[1] < 13
    assert res.distance == pytest.approx(13 - res.point[1], abs=0.01)


def test_duck_back_prone_in_place_without_cover() -> None:
    bf = Battlefield(
        Table(36, 36), [], [Force("red", "red", figures=[Figure("b", "b", 4, x=18, y=18)])]
    )
    res = nearest_cover(bf, bf.figure("b"), (18, 0), RULES)  # an empty table: no Cover
    assert res.prone_in_place and res.reason == "prone"
    assert res.point == (18, 18) and res.distance == pytest.approx(0.0)


def test_duck_back_building_interiors_option() -> None:
    bf = Battlefield(
        Table(36, 36),
        [
            Building(
                "house",
                TerrainKind.BUILDING,
                "house",
                square(10, 10, 16, 16),
                openings=[Opening(OpeningKind.DOOR, (12, 16), (14, 16))],
            )
        ],
        [Force("red", "red", figures=[Figure("a", "a", 4, x=13, y=18.5)])],
    )
    res = nearest_cover(bf, bf.figure("a"), (13, 34), RULES)
    assert not res.prone_in_place and res.point[1] < 16
    off = RulesOptions(interpretations=Interpretations(duck_back_interiors_count=False))
    res_off = nearest_cover(bf, bf.figure("a"), (13, 34), off)
    assert res_off.prone_in_place or res_off.point[1] > 16


def test_sees_point_front_arc_and_terrain() -> None:
    from shapely.geometry import Polygon

    from crdesk.geometry.movement import sees_point
    from crdesk.model import Battlefield, Figure, Force, Table, TerrainFeature, TerrainKind
    from crdesk.options import RulesOptions

    rock = TerrainFeature(
        "r", TerrainKind.IMPASSABLE, "rock", Polygon([(8, 8), (12, 8), (12, 10), (8, 10)])
    )
    fig = Figure("a", "A", 4, x=10, y=14, facing=0)
    bf = Battlefield(Table(24, 24), [rock], [Force("p", "P", figures=[fig])])
    rules = RulesOptions()
    assert not sees_point(bf, fig, (10, 4), rules)  # behind the rock
    assert sees_point(bf, fig, (16, 8), rules)  # in front, clear
    assert not sees_point(bf, fig, (10, 20), rules)  # behind the figure


def test_a_path_with_a_corner_on_a_door_pays_for_it_once() -> None:
    from shapely.geometry import Polygon

    from crdesk.geometry.movement import farthest_along, path_cost
    from crdesk.model import Battlefield, Building, Opening, OpeningKind, Table
    from crdesk.model import TerrainKind as Kind
    from crdesk.options import RulesOptions

    shed = Building(
        "b",
        Kind.BUILDING,
        "Shed",
        Polygon([(10, 8), (16, 8), (16, 14), (10, 14)]),
        openings=[Opening(OpeningKind.DOOR, (12, 14), (14, 14))],
    )
    bf = Battlefield(Table(24, 24), [shed])
    rules = RulesOptions()
    straight = path_cost(bf, [(13, 17), (13, 12)], rules, radius=0.5)
    cornered = path_cost(bf, [(13, 17), (13, 14), (13, 12)], rules, radius=0.5)
    assert straight.cost == cornered.cost == 7.0  # 5" walked + 2" for the door (8.2)
    reach = farthest_along(bf, [(13, 17), (13, 14), (13, 12)], 7.0, rules, radius=0.5)
    assert reach.point == (13.0, 12.0) and reach.stopped_by is None


def test_paths_know_the_table_edge() -> None:
    from crdesk.geometry.movement import farthest_along, leaves_table, path_cost
    from crdesk.model import Battlefield, Table
    from crdesk.options import RulesOptions

    bf = Battlefield(Table(24, 24))
    rules = RulesOptions()
    off = path_cost(bf, [(5, 5), (-5, -5)], rules, radius=0.5)
    assert off.forbidden == "edge" and not off.allowed
    assert off.length == pytest.approx(4.5 * 2**0.5)  # the base's edge reaches x=0 at x=0.5
    assert path_cost(bf, [(5, 5), (10, 5)], rules, radius=0.5).allowed
    reach = farthest_along(bf, [(5, 12), (-3, 12)], 8.0, rules, radius=0.5)
    assert reach.stopped_by == "edge" and reach.point[0] == pytest.approx(0.5, abs=0.02)
    assert leaves_table(bf, (0.2, 5), (3, 5), 0.5) is None  # back onto the table
    assert leaves_table(bf, (0.2, 5), (0.2, 9), 0.5) is None  # along, no further out
    assert leaves_table(bf, (0.2, 5), (-1, 5), 0.5) == pytest.approx(0.0, abs=1e-6)
    assert leaves_table(bf, (1, 1), (23, 23), 0.5) is None


def test_an_involuntary_move_pays_for_doors_and_windows() -> None:
    """8.2: through a door 2", a window 4", "active or inactive" (a Duck Back's 6")."""
    from crdesk.geometry.terrain_index import build_index

    index = build_index(field(), RULES)
    assert opening_cost(index, (30.5, 20), (30.5, 14)) == pytest.approx(2.0)  # the door
    assert opening_cost(index, (25, 12.5), (30, 12.5)) == pytest.approx(4.0)  # the window
    assert opening_cost(index, (25, 20), (35, 20)) == 0.0  # past the house
    assert opening_cost(index, (30, 12), (32, 13)) == 0.0  # inside it
