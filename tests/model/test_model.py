"""Battlefield model: sections, edits, ids and change events."""

import pytest
from shapely.geometry import Polygon, box

from crdesk.errors import ModelError
from crdesk.events import ChangeKind
from crdesk.model import (
    Battlefield,
    Figure,
    Force,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
)


@pytest.mark.parametrize(
    ("x", "y", "section"),
    [
        (0, 0, 1),
        (11.9, 11.9, 1),
        (12, 0, 2),
        (35.9, 0.5, 3),
        (0.5, 12, 4),
        (18, 18, 5),
        (30, 20, 6),
        (1, 30, 7),
        (18, 35, 8),
        (36, 36, 9),
        (-0.1, 5, None),
        (5, 36.1, None),
    ],
)
def test_section_at_square_table(x: float, y: float, section: int | None) -> None:
    assert Table(36, 36).section_at(x, y) == section


def test_sections_of_a_wide_table_are_equal_not_square() -> None:
    table = Table(72, 48)
    s5 = table.section_bounds(5)
    assert s5.bounds == (24.0, 16.0, 48.0, 32.0)
    assert table.section_at(47.9, 31.9) == 5
    assert table.section_at(48, 32) == 9
    total = sum(table.section_bounds(n).area for n in range(1, 10))
    assert total == pytest.approx(72 * 48)


def test_section_bounds_rejects_bad_numbers() -> None:
    with pytest.raises(ModelError, match=r"1\.\.9"):
        Table().section_bounds(10)


def test_table_size_must_be_positive() -> None:
    with pytest.raises(ModelError):
        Table(0, 36)


def _bf() -> Battlefield:
    woods = TerrainFeature("w1", TerrainKind.WOODS, "Wood", box(0, 0, 5, 5))
    force = Force("a", "A", figures=[Figure("a1", "Al", 4, x=1, y=1)])
    return Battlefield(Table(), [woods], [force])


def test_edits_bump_revisions_and_announce_changes() -> None:
    bf = _bf()
    seen = []
    bf.subscribe(seen.append)
    bf.move_figure("a1", 10, 12, facing=370)
    assert bf.figure("a1").position == (10.0, 12.0)
    assert bf.figure("a1").facing == 10.0
    assert bf.revision == 1 and bf.terrain_revision == 0
    bf.update_feature("w1", outline=box(0, 0, 6, 6))
    assert bf.terrain_revision == 1
    assert [(c.kind, c.what, c.id) for c in seen] == [
        (ChangeKind.CHANGED, "figure", "a1"),
        (ChangeKind.CHANGED, "feature", "w1"),
    ]


def test_remove_and_reinsert_restores_order() -> None:
    bf = _bf()
    bf.add_feature(TerrainFeature("w2", TerrainKind.WOODS, "Other", box(6, 6, 8, 8)))
    feature, index = bf.remove_feature("w1")
    assert [f.id for f in bf.terrain] == ["w2"]
    bf.add_feature(feature, index)
    assert [f.id for f in bf.terrain] == ["w1", "w2"]
    fig, at = bf.remove_figure("a1")
    bf.add_figure("a", fig, at)
    assert bf.figure("a1").side == "a"


def test_ids_are_unique_across_everything() -> None:
    bf = _bf()
    with pytest.raises(ModelError, match="already used"):
        bf.add_feature(TerrainFeature("a1", TerrainKind.WOODS, "Clash", box(0, 0, 1, 1)))
    assert bf.new_id("woods") == "woods-1"


@pytest.mark.parametrize("rep", [1, 21, "5", True, 4.0])
def test_rep_is_checked(rep: object) -> None:
    bf = _bf()
    with pytest.raises(ModelError, match="Rep"):
        bf.update_figure("a1", rep=rep)


def test_unknown_properties_are_refused() -> None:
    bf = _bf()
    with pytest.raises(ModelError, match="no property"):
        bf.update_feature("w1", floors=2)
    with pytest.raises(ModelError, match="no property"):
        bf.update_figure("a1", colour="red")


def test_status_ranking_follows_7_8() -> None:
    ranked = sorted(Status, key=lambda s: s.rank)
    assert ranked[0] is Status.CARRY_ON and ranked[-1] is Status.OBVIOUSLY_DEAD
    assert Status.DUCK_BACK.rank < Status.LEAVE_THE_BATTLEFIELD.rank < Status.MINUS_ONE_REP.rank
    assert not Status.OUT_OF_THE_FIGHT.can_act and Status.DUCK_BACK.can_act


def test_facing_vector_points_to_far_edge_at_zero() -> None:
    fig = Figure("f", "F", 4, facing=0)
    dx, dy = fig.facing_vector()
    assert (round(dx, 9), round(dy, 9)) == (0.0, -1.0)
    fig.facing = 90
    dx, dy = fig.facing_vector()
    assert (round(dx, 9), round(dy, 9)) == (1.0, 0.0)


def test_features_at_returns_topmost_first() -> None:
    bf = _bf()
    bf.add_feature(
        TerrainFeature("w2", TerrainKind.WOODS, "Top", Polygon([(0, 0), (3, 0), (3, 3)]))
    )
    assert [f.id for f in bf.features_at(2, 1)] == ["w2", "w1"]


def test_move_feature_shifts_everything_drawn_on_it() -> None:
    from shapely.geometry import LineString

    from crdesk.model import Building, Hill, Opening, OpeningKind

    hill = Hill("h", TerrainKind.HILL, "H", box(0, 0, 4, 2), crest=LineString([(0, 1), (4, 1)]))
    house = Building(
        "b",
        TerrainKind.BUILDING,
        "B",
        box(10, 10, 16, 16),
        areas=[box(10, 10, 16, 16)],
        openings=[Opening(OpeningKind.DOOR, (12, 16), (14, 16))],
    )
    bf = Battlefield(Table(), [hill, house])
    bf.move_feature("h", 1, 2)
    bf.move_feature("b", -1, 0.5)
    assert hill.outline.bounds == (0, 0, 4, 2)  # the objects given keep their values
    hill, house = bf.feature("h"), bf.feature("b")
    assert isinstance(hill, Hill) and isinstance(house, Building) and hill.crest is not None
    assert hill.outline.bounds == (1, 2, 5, 4)
    assert list(hill.crest.coords) == [(1, 3), (5, 3)]
    assert house.areas[0].bounds == (9, 10.5, 15, 16.5)
    assert house.openings[0].start == (11, 16.5) and house.openings[0].end == (13, 16.5)
    assert bf.terrain_revision == 2


def test_status_labels_use_the_books_words() -> None:
    assert Status.OUT_OF_THE_FIGHT.label == "Out of the Fight"
    assert Status.MINUS_ONE_REP.label == "-1 to Rep"
    assert Status.LEAVE_THE_BATTLEFIELD.label == "Leave the Battlefield"


def test_transfer_figure_between_forces_and_back() -> None:
    bf = Battlefield(
        Table(),
        forces=[
            Force("a", "A", figures=[Figure("a1", "Al", 4), Figure("a2", "Bo", 4)]),
            Force("b", "B", figures=[Figure("b1", "Cy", 4)]),
        ],
    )
    seen = []
    bf.subscribe(seen.append)
    back = bf.transfer_figure("a1", "b")
    assert back == ("a", 0) and bf.figure("a1").side == "b"
    assert [f.id for f in bf.force("b").figures] == ["b1", "a1"]
    assert [(c.kind, c.what, c.id) for c in seen] == [(ChangeKind.CHANGED, "figure", "a1")]
    bf.transfer_figure("a1", *back)
    assert [f.id for f in bf.force("a").figures] == ["a1", "a2"]
