"""Routes (issue 31; 7.4, 8.2): the cheapest legal way to a spot, round walls, rock and
other bases, in by a door and out by a window, costed by path_cost itself."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from crdesk.generator import generate
from crdesk.geometry.movement import path_cost
from crdesk.geometry.routing import route
from crdesk.geometry.terrain_index import build_index
from crdesk.model import (
    Battlefield,
    Building,
    Opening,
    OpeningKind,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import RulesOptions
from tests.model.geometry.test_movement import RULES, field, square

R = 0.5


def test_a_legal_straight_move_is_its_own_route() -> None:
    bf = field()
    got = route(bf, (2, 2), (8, 30), RULES, radius=R)
    assert got is not None and got.points == ((2.0, 2.0), (8.0, 30.0))
    assert got.cost.cost == pytest.approx(math.dist((2, 2), (8, 30)))


def test_round_the_rock_to_the_spot_behind_it() -> None:
    bf = field()
    assert not path_cost(bf, [(18, 18), (26, 18)], RULES, radius=R).allowed  # through rock
    got = route(bf, (18, 18), (26, 18), RULES, radius=R)
    assert got is not None and len(got.points) > 2
    assert got.cost.allowed and got.cost == path_cost(bf, got.points, RULES, radius=R)
    rock = square(20, 10, 24, 26)
    assert LineString(got.points).distance(rock) >= R - 0.02  # the base never overlaps it


def test_in_by_the_door_when_that_is_the_cheapest() -> None:
    bf = field()
    inside = (31, 12.5)
    got = route(bf, (30.5, 20), inside, RULES, radius=R)
    assert got is not None
    straight = math.dist((30.5, 20), inside)
    assert got.cost.cost == pytest.approx(straight + 2, abs=0.3)  # the door's 2" (8.2)


def test_in_by_the_door_and_out_by_the_window() -> None:
    bf = field()
    got = route(bf, (30.5, 20), (25.5, 12.5), RULES, radius=R)
    assert got is not None and got.cost.allowed
    house = square(28, 10, 34, 16)
    line = LineString(got.points)
    # either round the house or through it (door 2" + window 4"), whichever costs less
    around = route(bf, (30.5, 20), (27, 19), RULES, radius=R)
    assert around is not None
    assert got.cost.cost <= path_cost(bf, got.points, RULES, radius=R).cost + 1e-9
    if line.crosses(house):
        assert got.cost.cost >= line.length + 6 - 1e-6


def test_a_closed_building_has_no_way_in() -> None:
    shut = Building("shut", TerrainKind.BUILDING, "shut", square(10, 10, 16, 16))
    bf = Battlefield(Table(36, 36), [shut], [])
    assert route(bf, (5, 5), (13, 13), RULES, radius=R) is None


def test_round_another_figure_never_through_its_base() -> None:
    bf = field()
    bases = [(5.0, 18.0, 0.5)]
    got = route(bf, (5, 14), (5, 22), RULES, radius=R, bases=bases)
    assert got is not None and len(got.points) > 2
    assert LineString(got.points).distance(Point(5, 18)) >= 1.0 - 0.02
    assert route(bf, (5, 14), (5, 18.2), RULES, radius=R, bases=bases) is None  # on it


def test_routes_are_the_same_every_time() -> None:
    bf = field()
    first = route(bf, (18, 30), (31, 12.5), RULES, radius=R)
    again = route(bf, (18, 30), (31, 12.5), RULES, radius=R)
    assert first == again


DENSE = generate(4, width=72, height=48, terrain_type="urban", encounter="raid").battlefield
DENSE_INDEX = build_index(DENSE, RULES, raster=False)
SOLID = [f.outline for f in DENSE.terrain if f.kind is TerrainKind.IMPASSABLE]
spots = st.tuples(st.floats(1, 71), st.floats(1, 47))


@settings(max_examples=60, deadline=None)
@given(a=spots, b=spots)
def test_a_route_is_legal_and_never_dearer_than_a_legal_straight_move(
    a: tuple[float, float], b: tuple[float, float]
) -> None:
    got = route(DENSE, a, b, RULES, radius=R, index=DENSE_INDEX)
    straight = path_cost(DENSE, [a, b], RULES, index=DENSE_INDEX, radius=R)
    if straight.allowed:  # what the straight-line tool accepted, routed for no more
        assert got is not None and got.cost.cost <= straight.cost + 1e-6
    if got is None:
        return
    assert got.points[0] == pytest.approx(a) and got.points[-1] == pytest.approx(b)
    assert got.cost == path_cost(DENSE, got.points, RULES, index=DENSE_INDEX, radius=R)
    assert got.cost.allowed  # no wall, no rock, never off the table
    line = LineString(got.points)
    for rock in SOLID:
        assert line.distance(rock) >= R - 0.03


def test_openings_are_priced_by_kind() -> None:
    house = Building(
        "h",
        TerrainKind.BUILDING,
        "h",
        square(10, 10, 20, 20),
        openings=[Opening(OpeningKind.WINDOW, (10, 14), (10, 16))],
    )
    bf = Battlefield(Table(36, 36), [house], [])
    got = route(bf, (5, 15), (15, 15), RULES, radius=R)
    assert got is not None and got.cost.cost == pytest.approx(10 + 4)
    assert RulesOptions() == RULES


def test_the_reach_area_goes_round_corners() -> None:
    from crdesk.geometry.movement import reachable_area
    from crdesk.geometry.routing import reach_area
    from crdesk.model import Figure

    bf = field()
    got = reach_area(bf, (18, 18), 16.0, RULES, radius=R)
    corner = Point(24.8, 27.5)  # round the rock's corner: 14.1" by route, no straight run
    assert got.area.contains(corner)
    straight = reachable_area(bf, Figure("x", "x", 4, x=18, y=18), 16.0, RULES)
    assert not straight.contains(corner)
    assert got.near.within(got.area.buffer(1e-6)) and not got.near.contains(corner)
    way = route(bf, (18, 18), (24.8, 27.5), RULES, radius=R)
    assert way is not None and way.cost.cost <= 16.0


offsets = st.tuples(st.floats(-10, 10), st.floats(-10, 10))


@settings(max_examples=40, deadline=None)
@given(a=spots, off=offsets)
def test_every_spot_of_the_reach_area_has_a_route_that_fits(
    a: tuple[float, float], off: tuple[float, float]
) -> None:
    from crdesk.geometry.routing import reach_area

    allowance = 10.0
    b = (a[0] + off[0], a[1] + off[1])
    got = reach_area(DENSE, a, allowance, RULES, radius=R, index=DENSE_INDEX)
    inner = got.area.buffer(-0.3)
    if not inner.contains(Point(b)):
        return
    way = route(DENSE, a, b, RULES, radius=R, index=DENSE_INDEX)
    assert way is not None and way.cost.cost <= allowance + 0.6


def test_prepare_builds_the_roadmap_once() -> None:
    from crdesk.geometry.routing import STATIC_CACHE, prepare

    bf = field()
    index = build_index(bf, RULES, raster=False)
    prepare(bf, RULES, index, (0.5, 0.5, 0.75))
    cache = index.cache[STATIC_CACHE]
    assert isinstance(cache, dict) and len(cache) == 2


def test_a_straight_run_grazing_a_wall_is_not_beaten_by_a_dearer_detour() -> None:
    """Found by a random draw in CI: the roadmap keeps a graze off walls, so it went
    round by (12, 43.05) for 15.05" where the legal straight run costs 15.00"."""
    a, b = (1.0, 42.53125), (16.0, 42.5)
    straight = path_cost(DENSE, [a, b], RULES, index=DENSE_INDEX, radius=R)
    assert straight.allowed
    got = route(DENSE, a, b, RULES, radius=R, index=DENSE_INDEX)
    assert got is not None and got.cost.cost <= straight.cost + 1e-9


def test_a_reach_is_the_same_whatever_was_reached_before() -> None:
    """The runs between the roadmap's spots are costed once per terrain and remembered
    (what one game's reaches ask again and again); a reach made after others on the
    same index is exactly the reach made on a fresh one."""
    from crdesk.geometry.routing import reach_costs

    warm = build_index(DENSE, RULES, raster=False)
    starts = [(10.0 + 6 * k, 8.0 + 3 * k) for k in range(8)]
    for start in starts:
        reach_costs(DENSE, start, 12.0, RULES, radius=R, index=warm)
    for start in reversed(starts):
        fresh = build_index(DENSE, RULES, raster=False)
        assert reach_costs(DENSE, start, 12.0, RULES, radius=R, index=warm) == reach_costs(
            DENSE, start, 12.0, RULES, radius=R, index=fresh
        )


def test_a_reach_asked_again_is_not_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A figure that has not moved is asked its reach again (the program's players plan
    the same figure twice, an activation after a quiet turn): the reach is remembered
    per terrain, start and allowance; another start or allowance is worked out."""
    from crdesk.geometry import routing

    index = build_index(DENSE, RULES, raster=False)
    first = routing.reach_costs(DENSE, (12.0, 9.0), 12.0, RULES, radius=R, index=index)
    costed: list[int] = []
    real = routing._run_costs

    def counting(*args: Any, **kwargs: Any) -> Any:
        costed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(routing, "_run_costs", counting)
    again = routing.reach_costs(DENSE, (12.0, 9.0), 12.0, RULES, radius=R, index=index)
    assert again == first and again is not first and not costed
    routing.reach_costs(DENSE, (12.0, 9.0), 11.0, RULES, radius=R, index=index)
    routing.reach_costs(DENSE, (12.5, 9.0), 12.0, RULES, radius=R, index=index)
    assert len(costed) == 2


@pytest.mark.parametrize("start", [(32.5, 15.996), (33.7, 15.99), (28.4, 15.992), (33.5, 10.004)])
def test_a_figure_touching_a_wall_from_inside_does_not_reach_through_it(
    start: tuple[float, float],
) -> None:
    """Seen in a simulated Patrol: three Grunts inside a building stood with their centres
    0.016" from its south wall (where a move along the wall left them); the reach took
    the wall as one the base stands on and stepped through it, every spot it offered
    outside was refused by the controller ("runs into the wall after 0.0""), and the
    Grunts held there to the turn limit.  A wall the centre touches may be left on its
    own side only: every way the reach gives is a path the controller allows."""
    from crdesk.geometry.routing import reach_costs

    bf = field()
    index = build_index(bf, RULES, raster=False)
    # inside the house (28-34 x 10-16, its door at x 30-31), a hair from a wall
    reached = reach_costs(bf, start, 12.0, RULES, radius=R, index=index)
    outside = [s for s in reached if s.point[1] > 16.0]
    assert outside, "the door leads out"
    for spot in reached[1:]:
        cost = path_cost(bf, list(spot.way), RULES, index=index, radius=R)
        assert cost.allowed and cost.cost <= spot.cost + 1e-6, (spot, cost)


NOTCH = [(32.36, 9.17), (32.96, 4.82), (34.5, 4.3), (33.13, 2.11), (33.64, 1.36), (40, 1), (40, 12)]
"""A generated roll table's rock with a V-shaped notch opening west (its corners as
generated, the rest simplified)."""


@pytest.mark.parametrize("start", [(33.7, 4.0), (33.6, 3.9), (33.5, 3.95)])
@pytest.mark.parametrize("goal", [(20.0, 10.0), (31.0, 8.0), (26.0, 0.8)])
@pytest.mark.parametrize("walls", [False, True])
def test_a_base_in_a_notch_of_rock_finds_its_way_out(
    start: tuple[float, float], goal: tuple[float, float], walls: bool
) -> None:
    """Seen in a simulated Defend (roll table, tuning seed 2, game 10): two PEFs placed
    "as near the section's centre as they can stand", 0.518" from rock in a notch,
    moved 0.0" 36 times (11.2): every run out of the notch left the roadmap's corner at
    its lip on the rock's side (the start stands inside the band the corners keep off
    rock, so the runs along it do not look tangent), and the route gave up.  A start (or
    goal) hugging rock joins the roadmap without that pruning."""
    rock = TerrainFeature("rock", TerrainKind.IMPASSABLE, "rock", Polygon(NOTCH))
    bf = Battlefield(Table(48, 48), [rock], [])
    index = build_index(bf, RULES, raster=False)
    assert Polygon(NOTCH).distance(Point(start)) >= R  # it stands legally
    got = route(bf, start, goal, RULES, radius=R, index=index, ignore_terrain=walls, walls=walls)
    assert got is not None, "the notch opens west"
    back = route(bf, goal, start, RULES, radius=R, index=index, ignore_terrain=walls, walls=walls)
    assert back is not None, "and the way in is the way out"
    for way in (got, back):
        cost = path_cost(
            bf, list(way.points), RULES, index=index, radius=R, ignore_terrain=walls, walls=walls
        )
        assert cost.allowed and cost.cost == pytest.approx(way.cost.cost)
        assert LineString(way.points).distance(Polygon(NOTCH)) >= R - 0.02


def test_a_reach_from_a_notch_of_rock_leaves_it() -> None:
    """The reach (a player's figure's, the players' candidate spots) from the same notch:
    the roadmap's spots outside it are reached, each by a way the controller allows."""
    from crdesk.geometry.routing import reach_costs

    rock = TerrainFeature("rock", TerrainKind.IMPASSABLE, "rock", Polygon(NOTCH))
    bf = Battlefield(Table(48, 48), [rock], [])
    index = build_index(bf, RULES, raster=False)
    reached = reach_costs(bf, (33.7, 4.0), 8.0, RULES, radius=R, index=index)
    assert any(s.point[0] < 32.0 for s in reached), "the notch opens west"
    for spot in reached[1:]:
        cost = path_cost(bf, list(spot.way), RULES, index=index, radius=R)
        assert cost.allowed and cost.cost <= spot.cost + 1e-6, (spot, cost)
