"""Editing checks: self-intersections, buildings on rock, figures in rock or off the table."""

from shapely.geometry import LineString, Polygon, box

from crdesk.model import (
    Battlefield,
    Building,
    Figure,
    Force,
    Hill,
    Opening,
    OpeningKind,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.validation import Severity, check_battlefield


def _house(fid: str, x: float, y: float, door: bool = True) -> Building:
    outline = box(x, y, x + 6, y + 6)
    openings = [Opening(OpeningKind.DOOR, (x + 2, y + 6), (x + 4, y + 6))] if door else []
    return Building(fid, TerrainKind.BUILDING, fid, outline, areas=[outline], openings=openings)


def test_a_clean_table_has_no_issues() -> None:
    hill = Hill(
        "h", TerrainKind.HILL, "H", box(20, 20, 30, 26), crest=LineString([(21, 23), (29, 23)])
    )
    bf = Battlefield(
        Table(),
        [hill, _house("b", 2, 2)],
        [Force("a", "A", figures=[Figure("a1", "A", 4, x=10, y=30)])],
    )
    assert check_battlefield(bf) == []


def test_every_kind_of_problem_is_flagged() -> None:
    bowtie = TerrainFeature(
        "w", TerrainKind.WOODS, "Bowtie", Polygon([(0, 0), (4, 4), (4, 0), (0, 4)])
    )
    rock = TerrainFeature("r", TerrainKind.IMPASSABLE, "Rock", box(10, 10, 16, 16))
    bf = Battlefield(
        Table(),
        [bowtie, rock, _house("b", 14, 14), _house("n", 30, 33, door=False)],
        [
            Force(
                "a",
                "A",
                figures=[Figure("a1", "Al", 4, x=12, y=12), Figure("a2", "Bo", 4, x=40, y=5)],
            )
        ],
    )
    found = {(i.item_id, i.severity): i.message for i in check_battlefield(bf)}
    assert "crosses itself" in found[("w", Severity.ERROR)]
    assert found[("b", Severity.ERROR)] == "b overlaps impassable ground (Rock)"
    assert found[("n", Severity.WARNING)] in {"n runs off the table", "n has no door"}
    messages = [str(i) for i in check_battlefield(bf)]
    assert "n: n runs off the table" in messages and "n: n has no door" in messages
    assert found[("a1", Severity.ERROR)] == "Al stands inside impassable ground (Rock)"
    assert found[("a2", Severity.WARNING)] == 'Bo is off the table at (40.0", 5.0")'


def test_building_touching_rock_edge_is_fine() -> None:
    rock = TerrainFeature("r", TerrainKind.IMPASSABLE, "Rock", box(10, 10, 16, 16))
    bf = Battlefield(Table(), [rock, _house("b", 16, 10)])
    assert check_battlefield(bf) == []
