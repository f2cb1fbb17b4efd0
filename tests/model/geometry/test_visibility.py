"""The visibility service: caching per revision, incremental updates, terrain index reuse."""

from __future__ import annotations

from shapely.geometry import Polygon

from crdesk.model import Battlefield, Figure, Force, Table, TerrainFeature, TerrainKind
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService

RULES = RulesOptions()


def table() -> Battlefield:
    woods = TerrainFeature(
        "wood", TerrainKind.WOODS, "wood", Polygon([(10, 10), (26, 10), (26, 20), (10, 20)])
    )
    red = Force("red", "red", figures=[Figure("a", "a", 4, x=18, y=30, facing=0)])
    blue = Force("blue", "blue", figures=[Figure("b", "b", 4, x=18, y=19.1, facing=180)])
    return Battlefield(Table(36, 36), [woods], [red, blue])


def test_matrix_is_cached_per_revision() -> None:
    service = VisibilityService(table(), RULES)
    first = service.matrix()
    assert service.matrix() is first
    assert first.sees("a", "b") and first.cover[0, 1] and first.concealed[0, 1]


def test_terrain_index_kept_across_figure_moves_and_rebuilt_on_terrain_edits() -> None:
    bf = table()
    service = VisibilityService(bf, RULES)
    index = service.index
    bf.move_figure("b", 18, 18.9)  # 1.1" inside the woods: hidden
    assert not service.matrix().sees("a", "b")
    assert service.index is index and service.full_recomputes == 1
    bf.update_feature("wood", outline=Polygon([(10, 10), (26, 10), (26, 18), (10, 18)]))
    assert service.matrix().sees("a", "b")  # now out in the open
    assert service.index is not index and service.full_recomputes == 2


def test_moving_targets_are_concealed_not_in_cover() -> None:
    service = VisibilityService(table(), RULES)
    service.set_moving(["b"])
    m = service.matrix()
    assert m.sees("a", "b") and not m.cover[0, 1] and m.concealed[0, 1]
    assert service.full_recomputes == 1


def test_explain_names_the_feature() -> None:
    bf = table()
    bf.move_figure("b", 18, 15)
    res = VisibilityService(bf, RULES).explain("a", "b")
    assert not res.visible and res.reason.value == "woods_deep" and res.feature_id == "wood"


def test_closed_service_stops_listening() -> None:
    bf = table()
    service = VisibilityService(bf, RULES)
    service.matrix()
    service.close()
    bf.move_figure("a", 1, 1)
    assert not service._dirty


def test_empty_and_bare_tables() -> None:
    empty = Battlefield(Table(36, 36), [], [])
    assert VisibilityService(empty, RULES).matrix().ids == []
    bare = Battlefield(
        Table(36, 36),
        [],
        [
            Force("red", "red", figures=[Figure("a", "a", 4, x=5, y=30, facing=0)]),
            Force("blue", "blue", figures=[Figure("b", "b", 4, x=30, y=5, facing=0)]),
        ],
    )
    service = VisibilityService(bare, RULES)
    m = service.matrix()
    assert m.sees("a", "b") and not m.sees("b", "a")  # b faces the far edge, away from a
    row = service.row("a")
    assert row.sees[m.position("b")]
