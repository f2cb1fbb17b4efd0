"""Offscreen rendering goes through the scene: PNG pixels and an SVG that stays vector."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from crdesk.model import TerrainKind
from tests.ui.sample import make_scenario
from ui.render import RenderOptions, render_scene, save_png, save_svg

SHOTS = Path("/tmp/crdesk-shots")


def test_render_scene_size_follows_inches(qapp) -> None:  # type: ignore[no-untyped-def]
    bf = make_scenario().battlefield
    image = render_scene(bf, RenderOptions(pixels_per_inch=10, frame=False))
    assert (image.width(), image.height()) == (360, 360)
    framed = render_scene(bf, RenderOptions(pixels_per_inch=10))
    assert framed.width() > 360


def test_png_shows_cloth_and_terrain(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bf = make_scenario().battlefield
    out = save_png(bf, tmp_path / "table.png", RenderOptions(pixels_per_inch=12, frame=False))
    image = QImage(str(out))
    assert not image.isNull()
    cloth = image.pixelColor(33 * 12, 22 * 12)  # open ground, section 9 edge
    roof = image.pixelColor(20 * 12, 14 * 12)  # the farmhouse roof
    assert cloth.green() > cloth.red()
    assert abs(roof.red() - roof.green()) < 20 and abs(roof.green() - roof.blue()) < 25
    SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(str(SHOTS / "render.png"))


def test_svg_is_vector_and_names_its_size(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = save_svg(make_scenario().battlefield, tmp_path / "table.svg")
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    # Only the cloth's soft mottling is an image; no cached item pixmaps leak in.
    assert text.count("<image") == 1
    assert "<path" in text


def test_background_fill(qapp) -> None:  # type: ignore[no-untyped-def]
    bf = make_scenario().battlefield
    image = render_scene(bf, RenderOptions(pixels_per_inch=4, background=QColor("#ff00ff")))
    corner = image.pixelColor(0, 0)
    assert corner.red() > 200 and corner.green() < 40 and corner.blue() > 200


@pytest.mark.parametrize(
    ("kind", "bound"),
    # the share of pixels off by more than 24 levels: sprites sit on whole pixels; a
    # wooded hill's see-through shadows are not merged where (rarely) they overlap
    [(TerrainKind.WOODS, 0.002), (TerrainKind.WOODED_HILL, 0.012)],
)
def test_woods_blitted_from_sprites_look_like_woods_painted_as_vectors(
    qapp, kind: TerrainKind, bound: float
) -> None:  # type: ignore[no-untyped-def]
    """On screen crowns and shadows are sprites; exports paint them as paths: same picture."""
    import numpy as np
    from PySide6.QtGui import QPainter, QPicture, QTransform
    from shapely.geometry import Point

    from crdesk.model import TerrainFeature
    from ui.scene.items import TERRAIN_LOOKS
    from ui.scene.style import TableStyle

    outline = Point(6, 5).buffer(4.5).union(Point(10, 7).buffer(3))
    look = TERRAIN_LOOKS[kind](TerrainFeature("w", kind, "Woods", outline), TableStyle())
    images = []
    for vector in (False, True):
        image = QImage(600, 480, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor("#7a9a55"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if vector:  # through a picture: not the raster engine, as in an SVG or PDF export
            picture = QPicture()
            recorder = QPainter(picture)
            recorder.setRenderHint(QPainter.RenderHint.Antialiasing)
            recorder.setTransform(QTransform(40, 0, 0, 40, 0, 0))
            look.paint(recorder)
            recorder.end()
            painter.drawPicture(0, 0, picture)
        else:
            painter.setTransform(QTransform(40, 0, 0, 40, 0, 0))
            look.paint(painter)
        painter.end()
        pixels = np.frombuffer(image.constBits(), np.uint8).reshape(480, 600, 4)
        images.append(pixels[:, :, :3].astype(int))
    off = np.abs(images[0] - images[1]).max(axis=2)
    assert (off > 24).mean() < bound


def test_sprites_are_shared_and_their_memory_is_bounded(qapp, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QPainter

    import ui.scene.items as items

    monkeypatch.setattr(items, "_SPRITES", {})
    monkeypatch.setattr(items, "_sprite_bytes", 0)
    monkeypatch.setattr(items, "SPRITE_BYTES", 200_000)

    def paint(painter: QPainter) -> None:
        painter.fillRect(-1, -1, 2, 2, QColor("red"))

    first = items._sprite(("dot", 20.0), 1.0, 20.0, 1.0, paint)
    assert items._sprite(("dot", 20.0), 1.0, 20.0, 1.0, paint) is first  # made once, shared
    for scale in range(30, 110, 10):  # zooming in: ever bigger sprites
        image, half = items._sprite(("dot", float(scale)), 1.0, float(scale), 1.0, paint)
        assert half == scale + 1 and image.width() == 2 * (scale + 1)
    kept = list(items._SPRITES.values())
    assert sum(image.sizeInBytes() for image, _half in kept) == items._sprite_bytes <= 200_000
    assert ("dot", 100.0) in items._SPRITES and ("dot", 20.0) not in items._SPRITES


def test_lines_path_draws_every_line_of_nested_collections(qapp) -> None:  # type: ignore[no-untyped-def]
    """Hatching cut by GEOS may come back as lines, multi-lines or mixed collections."""
    from shapely.geometry import GeometryCollection, LineString, MultiLineString, Point, box

    from ui.scene.shapes import hatch_path, lines_path

    mixed = GeometryCollection(
        [MultiLineString([[(0, 0), (1, 1)], [(2, 2), (3, 3), (4, 4)]]), Point(5, 5)]
    )
    path = lines_path(GeometryCollection([mixed, LineString([(6, 6), (7, 7)])]))
    moves = [path.elementAt(k) for k in range(path.elementCount())]
    assert [(e.x, e.y) for e in moves] == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (6, 6), (7, 7)]
    assert [e.isMoveTo() for e in moves] == [True, False, True, False, False, True, False]
    assert lines_path(Point(1, 1)).isEmpty() and lines_path(GeometryCollection()).isEmpty()
    hatch = hatch_path(box(0, 0, 4, 2), 0, 0.5)  # horizontal lines across a 4" x 2" box
    ends = sorted((hatch.elementAt(k).y, hatch.elementAt(k).x) for k in range(hatch.elementCount()))
    assert ends == [(y, x) for y in (0.0, 0.5, 1.0, 1.5, 2.0) for x in (0.0, 4.0)]
