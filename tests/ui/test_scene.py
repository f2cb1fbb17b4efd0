"""The scene is a projection of the battlefield: one item per model object, kept in step."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage
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
    from PySide6.QtCore import QRectF
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

    def picture() -> QImage:
        """The 7" square round the bow tie, 20 pixels an inch, on white."""
        image = QImage(140, 140, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor("white"))
        painter = QPainter(image)
        scene.render(painter, QRectF(0, 0, 140, 140), QRectF(29, 27, 7, 7))
        painter.end()
        return image

    before = picture()
    scene.battlefield.add_feature(cls("odd", kind, "Odd", bow_tie))
    item = scene.feature_item("odd")
    assert item is not None
    after = picture()
    # both lobes of the bow tie are drawn: (31, 30.5) and (34, 30.5) change colour,
    # and a corner of the square far from either lobe does not
    for x, y in ((31, 30.5), (34, 30.5)):
        px, py = int((x - 29) * 20), int((y - 27) * 20)
        assert after.pixelColor(px, py) != before.pixelColor(px, py), (kind, x, y)
    assert after.pixelColor(5, 5) == before.pixelColor(5, 5)


# -- the ground layer: terrain painted from cached tiles (issue 6 performance) ----------


@pytest.fixture
def shown(qtbot, scene: BattlefieldScene):  # type: ignore[no-untyped-def]
    """The scene in a 600 x 600 view, fitted and painted once."""
    from ui.scene import BattlefieldView

    view = BattlefieldView(scene)
    qtbot.addWidget(view)
    view.resize(600, 600)
    view.show()
    qtbot.waitExposed(view)
    view.viewport().repaint()
    return view


def _grab(view) -> QImage:  # type: ignore[no-untyped-def]
    view.viewport().repaint()
    return view.viewport().grab().toImage()


def _pixel(view, x: float, y: float) -> QColor:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPointF

    image = _grab(view)
    return image.pixelColor(view.mapFromScene(QPointF(x, y)) * image.devicePixelRatio())


def test_terrain_is_painted_by_the_ground_layer_but_still_hit(scene: BattlefieldScene) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QGraphicsItem

    no_contents = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    members = scene.ground.members()
    assert scene.table_item in members and scene.section_overlay in members
    for item in scene.terrain_items():
        assert item in members and item.flags() & no_contents
    assert not scene.figure_item("p1").flags() & no_contents  # type: ignore[union-attr]
    woods = scene.feature_item("woods-1")
    assert woods in scene.items(QPointF(6, 6))  # tooltips and tools still find it


def test_exports_let_the_items_paint_themselves(scene: BattlefieldScene) -> None:
    from PySide6.QtWidgets import QGraphicsItem

    no_contents = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    scene.set_caching(False)
    assert not scene.ground.is_active()
    assert all(not i.flags() & no_contents for i in scene.terrain_items())
    assert scene.ground.flags() & no_contents
    scene.set_caching(True)
    assert all(i.flags() & no_contents for i in scene.terrain_items())


def test_moving_a_figure_leaves_the_terrain_cache_intact(scene: BattlefieldScene, shown) -> None:  # type: ignore[no-untyped-def]
    ground = scene.ground
    rendered, cached = ground.rendered_tiles, ground.cached_tiles()
    assert cached > 0
    for k in range(5):
        scene.battlefield.move_figure("p1", 15 + k, 30 - k, facing=10 * k)
        shown.viewport().repaint()
    assert ground.rendered_tiles == rendered
    assert ground.cached_tiles() == cached


def test_zoom_steps_show_scaled_tiles_then_sharpen(qtbot, scene: BattlefieldScene, shown) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    ground = scene.ground
    rendered = ground.rendered_tiles
    shown.zoom_by(1.25)
    QApplication.processEvents()  # lay out the scrollbars, well before the settling timer
    scaled = _grab(shown)
    assert ground.rendered_tiles == rendered  # the step itself only scaled old tiles
    assert ground.pending_tiles() > 0
    qtbot.waitUntil(lambda: ground.pending_tiles() == 0, timeout=5000)
    assert ground.rendered_tiles > rendered  # re-rendered at the new zoom
    shown.viewport().repaint()
    assert ground.pending_tiles() == 0
    fresh = _fresh_view(qtbot, scene.battlefield, shown, zoom=1.25)
    sharp = _grab(fresh)
    assert _same_picture(_grab(shown), sharp)  # sharpened: as if rendered at this zoom at once
    assert _difference(scaled, sharp, mean=True) < 2  # the scaled stand-in was in place
    fresh.battlefield_scene().detach()  # type: ignore[union-attr]


def test_stand_ins_are_scaled_coarsely_only_while_the_wheel_turns(
    scene: BattlefieldScene, shown, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QPainter

    ground = scene.ground
    smooth: list[bool] = []
    original = ground._paint_stand_ins

    def spy(painter, *args):  # type: ignore[no-untyped-def]
        smooth.append(painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform))
        original(painter, *args)

    monkeypatch.setattr(ground, "_paint_stand_ins", spy)
    shown.zoom_by(1.25)
    shown.viewport().repaint()
    assert smooth == [False]  # mid-gesture: nearest neighbour, a quarter of the cost
    assert ground.pending_tiles() > 0
    ground._zoom_until = 0.0  # the wheel has paused; tiles are still being sharpened
    shown.viewport().repaint()
    assert smooth == [False, True]


def test_jumps_in_zoom_render_at_once(qtbot, scene: BattlefieldScene, shown) -> None:  # type: ignore[no-untyped-def]
    shown.set_pixels_per_inch(60)  # not a wheel step: no blurred picture in between
    shown.viewport().repaint()
    assert scene.ground.pending_tiles() == 0


def _fresh_view(qtbot, battlefield, like, zoom: float = 1.0):  # type: ignore[no-untyped-def]
    """A new scene and view of the same battlefield, like ``like``, rendered from scratch."""
    from ui.scene import BattlefieldView

    other = BattlefieldScene(battlefield)
    other.set_grid_visible(like.battlefield_scene().grid_visible())
    view = BattlefieldView(other)
    qtbot.addWidget(view)
    view.resize(like.size())
    view.show()
    qtbot.waitExposed(view)
    if zoom != 1.0:
        view.zoom_by(zoom)
    elif not like.is_fitted():  # the same zoom and scroll as ``like``
        view.zoom_by(1.0)
        view.setTransform(like.transform())
        view.setSceneRect(like.sceneRect())
        qtbot.waitUntil(lambda: view.viewport().size() == like.viewport().size())
        view.horizontalScrollBar().setValue(like.horizontalScrollBar().value())
        view.verticalScrollBar().setValue(like.verticalScrollBar().value())
    qtbot.waitUntil(lambda: view.viewport().size() == like.viewport().size())
    view.viewport().repaint()
    other.ground.settle()
    assert view.transform() == like.transform()
    assert view.mapFromScene(0, 0) == like.mapFromScene(0, 0)
    return view


def _same_picture(a: QImage, b: QImage) -> bool:
    """Equal but for antialiasing noise (a thin line clipped at another tile edge)."""
    return _difference(a, b) <= 40 and _difference(a, b, over=3) < 0.002


def _difference(a: QImage, b: QImage, mean: bool = False, over: int | None = None) -> float:
    """The largest (or mean) difference of colour channels between two same-sized images.

    With ``over``, the share of pixels with a channel differing by more than that.
    """
    import numpy as np

    assert a.size() == b.size()
    arrays = []
    for image in (a, b):
        rgb = image.convertToFormat(QImage.Format.Format_RGB32)  # kept alive while read
        arrays.append(np.frombuffer(rgb.constBits(), np.uint8).astype(int))
    difference = np.abs(arrays[0] - arrays[1])
    if over is not None:
        return float((difference.reshape(-1, 4).max(axis=1) > over).mean())
    return float(difference.mean() if mean else difference.max())


def test_editing_terrain_repairs_only_its_tiles(qtbot, scene: BattlefieldScene, shown) -> None:  # type: ignore[no-untyped-def]
    roof = _pixel(shown, 15.2, 14.2)
    assert abs(roof.red() - roof.green()) < 20  # grey roof
    ground = scene.ground
    cached = ground.cached_tiles()
    scene.battlefield.remove_feature("building-1")
    cloth = _pixel(shown, 15.2, 14.2)
    assert cloth.green() > cloth.red() and cloth.green() > cloth.blue()
    bf = scene.battlefield
    bf.update_feature("woods-1", outline=box(2, 2, 12, 9))
    bf.add_feature(TerrainFeature("woods-2", TerrainKind.WOODS, "Spinney", box(30, 28, 34, 33)))
    scene.set_grid_visible(True)
    assert ground.cached_tiles() == cached  # repaired in place, not thrown away
    fresh = _fresh_view(qtbot, bf, shown)
    fresh.battlefield_scene().set_grid_visible(True)  # type: ignore[union-attr]
    assert _same_picture(_grab(shown), _grab(fresh))  # repairs blend like a fresh render
    fresh.battlefield_scene().detach()  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", [3, 11])
def test_after_any_mix_of_edits_and_zooms_the_cache_matches_a_fresh_render(
    qtbot, scene: BattlefieldScene, shown, seed: int
) -> None:  # type: ignore[no-untyped-def]
    """Random zooms, pans, jumps, edits, adds, removals and toggles, then settle: no stale tile."""
    import random

    from PySide6.QtWidgets import QApplication

    rng = random.Random(seed)
    bf = scene.battlefield
    for n in range(40):
        op = rng.choice(["zoom", "zoom", "pan", "edit", "move", "grid", "settle", "fit", "add"])
        if op == "zoom":
            shown.zoom_by(rng.choice([1.25, 0.8]))
        elif op == "pan":
            for bar in (shown.horizontalScrollBar(), shown.verticalScrollBar()):
                bar.setValue(bar.value() + rng.randint(-200, 200))
        elif op == "edit":
            x, y = rng.uniform(1, 20), rng.uniform(1, 20)
            bf.update_feature("woods-1", outline=box(x, y, x + rng.uniform(2, 8), y + 3))
        elif op == "move":
            bf.move_figure("p1", rng.uniform(1, 35), rng.uniform(1, 35), facing=rng.uniform(0, 360))
        elif op == "grid":
            scene.set_grid_visible(not scene.grid_visible())
        elif op == "settle":
            qtbot.wait(rng.randint(20, 200))
        elif op == "fit":
            shown.fit_table() if rng.random() < 0.5 else shown.set_pixels_per_inch(30)
        else:
            x, y = rng.uniform(1, 30), rng.uniform(1, 30)
            kind = rng.choice([TerrainKind.WOODS, TerrainKind.IMPASSABLE])
            bf.add_feature(TerrainFeature(f"new-{n}", kind, "New", box(x, y, x + 3, y + 2)))
        shown.viewport().repaint()
        QApplication.processEvents()
    qtbot.waitUntil(lambda: scene.ground.pending_tiles() == 0, timeout=5000)
    fresh = _fresh_view(qtbot, bf, shown)
    assert _same_picture(_grab(shown), _grab(fresh))
    fresh.battlefield_scene().detach()  # type: ignore[union-attr]


def test_the_cached_backdrop_follows_the_views_background(scene: BattlefieldScene, shown) -> None:  # type: ignore[no-untyped-def]
    """A theme may recolour the view: the tiles' margin around the table must follow."""
    assert _pixel(shown, -1.35, 10) == scene.table_style.backdrop
    shown.setBackgroundBrush(QColor("#16191c"))
    assert _pixel(shown, -1.35, 10) == QColor("#16191c")
    shown.set_pixels_per_inch(8)  # now the view shows more than the scene's rectangle
    assert _pixel(shown, -1.35, 10) == _pixel(shown, -4, 10)  # no seam at the scene's edge
