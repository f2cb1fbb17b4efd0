"""Editor shape making: rectangles, ellipses, freehand, crests, building areas, openings, snaps."""

import math

import pytest
from shapely.geometry import LineString, Polygon, box

from crdesk.model import Building, Hill, Opening, OpeningKind, Table, TerrainFeature, TerrainKind
from crdesk.shapes import (
    SnapSettings,
    default_crest,
    ellipse,
    freehand,
    opening_at,
    polygon_from_clicks,
    rectangle,
    rotated,
    snap,
    split_into_areas,
)


def test_rectangle_and_ellipse_from_a_drag_in_any_direction() -> None:
    assert rectangle((5, 8), (1, 2)).bounds == (1, 2, 5, 8)
    e = ellipse((0, 0), (8, 4))
    assert e.bounds == pytest.approx((0, 0, 8, 4))
    assert e.area == pytest.approx(math.pi * 4 * 2, rel=0.01)


def test_freehand_is_simplified_and_repaired() -> None:
    stroke = [(5 + 4 * math.cos(a / 50), 5 + 4 * math.sin(a / 50)) for a in range(0, 315)]
    poly = freehand(stroke)
    assert poly is not None and poly.is_valid
    assert len(poly.exterior.coords) < 40
    assert poly.area == pytest.approx(math.pi * 16, rel=0.05)
    bowtie = [(0, 0), (4, 4), (4, 0), (0, 4)]
    fixed = freehand(bowtie, tolerance=0.01)
    assert fixed is not None and fixed.is_valid
    assert freehand([(0, 0), (1, 1)]) is None


def test_polygon_needs_three_distinct_points() -> None:
    assert polygon_from_clicks([(0, 0), (1, 0), (1, 0), (0, 0)]) is None
    assert polygon_from_clicks([(0, 0), (1, 0), (2, 0)]) is None
    assert polygon_from_clicks([(0, 0), (4, 0), (4, 3)]).area == 6


def test_default_crest_runs_along_the_long_axis_inside() -> None:
    hill = box(0, 0, 12, 4)
    crest = default_crest(hill)
    (x0, y0), (x1, y1) = crest.coords[0], crest.coords[-1]
    assert y0 == pytest.approx(2) and y1 == pytest.approx(2)
    assert abs(x1 - x0) > 8
    assert crest.within(hill)
    tall = default_crest(box(0, 0, 4, 10))
    assert tall.coords[0][0] == pytest.approx(2)


def test_split_into_areas_of_about_six_inches() -> None:
    areas = split_into_areas(box(0, 0, 12, 6))
    assert [a.bounds for a in areas] == [(0, 0, 6, 6), (6, 0, 12, 6)]
    assert len(split_into_areas(box(0, 0, 5, 5))) == 1
    assert len(split_into_areas(box(0, 0, 8, 8), 4.0)) == 4
    ell = Polygon([(0, 0), (12, 0), (12, 6), (6, 6), (6, 12), (0, 12)])
    parts = split_into_areas(ell)
    assert len(parts) == 3 and sum(p.area for p in parts) == pytest.approx(ell.area)


def test_opening_sits_on_the_nearest_edge_within_it() -> None:
    door = opening_at(box(0, 0, 6, 6), (3, 6.4), OpeningKind.DOOR)
    assert door.start[1] == door.end[1] == 6
    assert abs(door.end[0] - door.start[0]) == pytest.approx(1.5)
    corner = opening_at(box(0, 0, 6, 6), (0.1, -0.2), OpeningKind.WINDOW)
    xs = sorted([corner.start[0], corner.end[0]])
    assert xs[0] == pytest.approx(0) and xs[1] == pytest.approx(1.25)


def test_rotated_turns_every_part_about_the_centre() -> None:
    house = Building(
        "b",
        TerrainKind.BUILDING,
        "B",
        box(0, 0, 12, 6),
        areas=[box(0, 0, 6, 6), box(6, 0, 12, 6)],
        openings=[Opening(OpeningKind.DOOR, (5, 6), (7, 6))],
    )
    values = rotated(house, 90)
    assert values["outline"].bounds == pytest.approx((3, -3, 9, 9))
    door = values["openings"][0]
    assert door.start[0] == pytest.approx(door.end[0])
    hill = Hill("h", TerrainKind.HILL, "H", box(0, 0, 4, 4), crest=LineString([(0, 2), (4, 2)]))
    crest = rotated(hill, 90)["crest"]
    assert crest.coords[0][0] == pytest.approx(2)


def test_snap_prefers_vertices_then_edges_then_sections_then_grid() -> None:
    woods = TerrainFeature("w", TerrainKind.WOODS, "W", box(2.1, 2.1, 6.1, 6.1))
    table = Table(36, 36)
    s = SnapSettings(tolerance=0.3)
    assert snap((2.2, 2.0), s, [woods], table) == ((2.1, 2.1), "vertex")
    point, what = snap((4.0, 6.3), s, [woods], table)
    assert what == "edge" and point == pytest.approx((4.0, 6.1))
    assert snap((11.8, 20.4), s, [woods], table) == ((12.0, 20.4), "section")
    assert snap((20.4, 20.6), s, [woods], table) == ((20.0, 21.0), "grid")
    assert snap((20.4, 20.6), SnapSettings(enabled=False), [woods], table) == ((20.4, 20.6), "")
    assert snap((2.2, 2.0), s, [woods], table, exclude="w")[1] == "grid"


def test_split_and_merge_building_areas() -> None:
    from crdesk.shapes import merge_area, split_area

    halves = split_area(box(0, 0, 12, 6))
    assert [h.bounds for h in halves] == [(0, 0, 6, 6), (6, 0, 12, 6)]
    tall = split_area(box(0, 0, 6, 10))
    assert [h.bounds for h in tall] == [(0, 0, 6, 5), (0, 5, 6, 10)]
    areas = [box(0, 0, 6, 6), box(6, 0, 12, 6), box(0, 6, 6, 12)]
    merged = merge_area(areas, 0)
    assert len(merged) == 2 and merged[0].area == pytest.approx(72)
    corner_only = [box(0, 0, 6, 6), box(6, 6, 12, 12)]
    assert merge_area(corner_only, 0) == corner_only
