"""The scene is a projection of the battlefield: one item per model object, kept in step."""

from __future__ import annotations

import pytest
from shapely.geometry import box

from crdesk.model import TerrainFeature, TerrainKind
from tests.ui.sample import FEATURE_IDS, FIGURE_IDS, make_scenario
from ui.scene import BattlefieldScene, FigureItem, ItemType, Layer, TerrainItem


@pytest.fixture
def scene(qapp):  # type: ignore[no-untyped-def]
    scene = BattlefieldScene(make_scenario().battlefield)
    yield scene
    scene.detach()
    scene.deleteLater()


def _ids(items: list) -> list[str]:  # type: ignore[type-arg]
    return sorted(item.model_id for item in items)


def test_one_item_per_feature_and_figure(scene: BattlefieldScene) -> None:
    terrain = [i for i in scene.items() if i.type() == ItemType.TERRAIN]
    figures = [i for i in scene.items() if i.type() == ItemType.FIGURE]
    assert _ids(terrain) == sorted(FEATURE_IDS)
    assert _ids(figures) == sorted(FIGURE_IDS)
    assert all(isinstance(i, TerrainItem) for i in terrain)
    assert all(isinstance(i, FigureItem) for i in figures)


def test_item_types_are_distinct_user_types(scene: BattlefieldScene) -> None:
    types = {scene.table_item.type(), scene.section_overlay.type(), scene.grid_overlay.type()}
    types |= {scene.terrain_items()[0].type(), scene.figure_items()[0].type()}
    assert len(types) == 5
    assert min(types) > 65536


def test_layers_put_hills_under_woods_under_buildings_under_figures(
    scene: BattlefieldScene,
) -> None:
    z = {fid: scene.feature_item(fid).zValue() for fid in FEATURE_IDS}  # type: ignore[union-attr]
    assert z["hill-1"] < z["woods-1"] < z["building-1"]
    assert z["hill-1"] > Layer.TABLE and z["building-1"] < Layer.SECTIONS
    figure_z = scene.figure_item("p1").zValue()  # type: ignore[union-attr]
    assert scene.section_overlay.zValue() < figure_z


def test_moving_a_figure_in_the_model_moves_its_item(scene: BattlefieldScene) -> None:
    item = scene.figure_item("p2")
    assert item is not None
    scene.battlefield.move_figure("p2", 20.5, 7.25, facing=90)
    assert (item.pos().x(), item.pos().y()) == (20.5, 7.25)
    assert scene.figure_item("p2") is item  # synced, not re-created


def test_feature_add_update_remove_follow_the_model(scene: BattlefieldScene) -> None:
    bf = scene.battlefield
    bf.add_feature(TerrainFeature("woods-2", TerrainKind.WOODS, "Spinney", box(30, 28, 34, 33)))
    added = scene.feature_item("woods-2")
    assert added is not None and added.scene() is scene
    bf.update_feature("woods-2", outline=box(30, 28, 35, 34))
    assert added.boundingRect().right() >= 35
    bf.remove_feature("building-1")
    assert scene.feature_item("building-1") is None
    assert "building-1" not in _ids(scene.terrain_items())
    assert len(scene.terrain_items()) == len(FEATURE_IDS)


def test_figure_status_and_removal(scene: BattlefieldScene) -> None:
    from crdesk.model import Status

    bf = scene.battlefield
    bf.update_figure("e2", status=Status.OBVIOUSLY_DEAD)
    assert scene.figure_item("e2").opacity() < 1  # type: ignore[union-attr]
    assert "Obviously Dead" in scene.figure_item("e2").toolTip()  # type: ignore[union-attr]
    bf.remove_figure("e2")
    assert scene.figure_item("e2") is None


def test_tooltips_speak_the_games_words(scene: BattlefieldScene) -> None:
    tip = scene.figure_item("p1").toolTip()  # type: ignore[union-attr]
    assert "Sgt. Hale" in tip and "Star" in tip and "Rep 5" in tip and "AR" in tip
    assert "2 floors" in scene.feature_item("building-1").toolTip()  # type: ignore[union-attr]


def test_detached_scene_ignores_the_model(scene: BattlefieldScene) -> None:
    scene.detach()
    scene.battlefield.remove_feature("woods-1")
    assert scene.feature_item("woods-1") is not None


def test_overlays_toggle(scene: BattlefieldScene) -> None:
    assert scene.sections_visible() and not scene.grid_visible()
    scene.set_grid_visible(True)
    scene.set_sections_visible(False)
    assert scene.grid_visible() and not scene.sections_visible()


def test_highlight_and_preview_facing_leave_the_model_alone(scene: BattlefieldScene) -> None:
    figure = scene.figure_item("p1")
    feature = scene.feature_item("hill-1")
    assert figure is not None and feature is not None
    figure.set_preview_facing(135.0)
    figure.set_highlighted(True)
    feature.set_highlighted(True)
    assert figure.facing() == 135.0 and figure.is_highlighted() and feature.is_highlighted()
    assert scene.battlefield.figure("p1").facing == 0.0
    figure.set_preview_facing(None)
    scene.battlefield.move_figure("p1", 17, 31, facing=45)
    assert figure.facing() == 45.0
    assert feature.is_highlighted()  # the editor's selection survives model syncs


@pytest.mark.parametrize("kind", list(TerrainKind))
def test_invalid_outlines_still_draw(scene: BattlefieldScene, kind: TerrainKind) -> None:
    """A self-intersecting outline is flagged by the editor, not refused: it must still draw."""
    from PySide6.QtGui import QImage, QPainter
    from shapely.geometry import Polygon

    from crdesk.model import Building, CoverObstacle, Hill

    bow_tie = Polygon([(30, 28), (35, 33), (35, 28), (30, 33)])
    assert not bow_tie.is_valid
    cls = {
        TerrainKind.HILL: Hill,
        TerrainKind.WOODED_HILL: Hill,
        TerrainKind.BUILDING: Building,
        TerrainKind.COVER: CoverObstacle,
    }.get(kind, TerrainFeature)
    scene.battlefield.add_feature(cls("odd", kind, "Odd", bow_tie))
    item = scene.feature_item("odd")
    assert item is not None
    image = QImage(100, 100, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    scene.render(painter)
    painter.end()
