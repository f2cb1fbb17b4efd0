"""The tiled 1:1 PDF: tiles start at the table's corner and neighbours print the same strip.

A player trims or overlaps the printed pages along the dashed marks; the 1" grid
and the terrain only line up if every page shows exactly its tile of the table,
measured from the table's far-left corner.  The pages are drawn here by the same
``_tile_page`` the PDF uses, onto images, and compared pixel by pixel.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from crdesk import scenario as io
from crdesk.model import Battlefield, Scenario, Table
from crdesk.resources import demo_scenario
from ui import export
from ui.render import RenderOptions, make_scene

DPI = 40
"""Pixels per inch of the test pages (the PDF itself is vector, at 1200 units per inch)."""
PAGE = (7.48, 10.91 - export.HEADER)
"""An A4 page inside 10 mm margins, less the header, in inches."""
OVERLAP = 0.25
SHOTS = Path("/tmp/crdesk-shots")


def _pages(scenario: Scenario, grid: bool) -> tuple[list[export.Tile], dict[str, QImage]]:
    table = scenario.battlefield.table
    tiles = export.plan_tiles(table.width, table.height, *PAGE, OVERLAP)
    scene = make_scene(scenario.battlefield, RenderOptions(sections=True, grid=grid, frame=False))
    images = {}
    try:
        for tile in tiles:
            image = QImage(
                round(PAGE[0] * DPI) + 2, round((PAGE[1] + 1) * DPI), QImage.Format.Format_RGB32
            )
            image.fill(QColor("white"))
            painter = QPainter(image)
            painter.scale(DPI / export.PDF_DPI, DPI / export.PDF_DPI)
            export._tile_page(painter, scene, tile, tiles, OVERLAP)
            painter.end()
            images[tile.label] = image
    finally:
        scene.deleteLater()
    return tiles, images


def _picture_pixel(image: QImage, x: float, y: float) -> QColor:
    """The pixel at (x, y) inches of the tile's picture (below the page header)."""
    return image.pixelColor(math.floor(x * DPI), math.floor((export.HEADER + y) * DPI))


def _close(a: QColor, b: QColor, tolerance: int = 4) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a.getRgb(), b.getRgb(), strict=True))


def test_every_tile_is_its_part_of_the_table_from_the_corner(monkeypatch) -> None:
    scenario = io.load(str(demo_scenario()))
    table = scenario.battlefield.table
    tiles = export.plan_tiles(table.width, table.height, *PAGE, OVERLAP)
    step_x, step_y = PAGE[0] - OVERLAP, PAGE[1] - OVERLAP
    assert (tiles[0].x, tiles[0].y) == (0.0, 0.0)
    drawn: list[tuple[QRectF, QRectF]] = []
    monkeypatch.setattr(export, "paint_battlefield", lambda s, p, t, src: drawn.append((t, src)))
    image = QImage(10, 10, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    try:
        for tile in tiles:
            assert tile.x == pytest.approx(tile.col * step_x)
            assert tile.y == pytest.approx(tile.row * step_y)
            export._tile_page(painter, None, tile, tiles, OVERLAP)
    finally:
        painter.end()
    for tile, (target, source) in zip(tiles, drawn, strict=True):
        assert source == QRectF(tile.x, tile.y, tile.width, tile.height)
        # the picture sits at the page's left edge under the header, at 1:1 ...
        assert (target.x(), target.y()) == (0.0, export.HEADER * export.PDF_DPI)
        assert target.width() == pytest.approx(source.width() * export.PDF_DPI)
        # ... with the source's own proportions, so KeepAspectRatio never shifts it
        assert target.height() == pytest.approx(source.height() * export.PDF_DPI)


def test_neighbouring_pages_print_the_same_overlap_and_the_grid_on_the_inch() -> None:
    scenario = Scenario(battlefield=Battlefield(Table(24, 24), [], []))
    tiles, pages = _pages(scenario, grid=True)
    by_pos = {(t.row, t.col): t for t in tiles}
    assert len(tiles) == 12  # 4 columns x 3 rows of portrait A4 for 24" x 24"
    for (row, col), tile in by_pos.items():
        right, below = by_pos.get((row, col + 1)), by_pos.get((row + 1, col))
        for other in (o for o in (right, below) if o is not None):
            # a band inside the shared strip, clear of the dashed marks and frames
            x0, y0 = max(tile.x, other.x), max(tile.y, other.y)
            for k in range(5):
                x = x0 + 0.05 + k * 0.03 if other is right else tile.x + 1.3 + k * 1.7
                y = y0 + 0.05 + k * 0.03 if other is below else tile.y + 1.3 + k * 1.7
                mine = _picture_pixel(pages[tile.label], x - tile.x, y - tile.y)
                theirs = _picture_pixel(pages[other.label], x - other.x, y - other.y)
                # the same colour, give or take the rounding of a pixel's sub-pixel phase
                assert _close(mine, theirs), (tile.label, other.label, x, y)
    # the 1" grid falls on whole table inches on every page (A2 starts at 7.23")
    a2 = by_pos[(0, 1)]
    page = pages[a2.label]
    SHOTS.mkdir(exist_ok=True)
    page.save(str(SHOTS / "export-tile-A2.png"))
    y = 3.5
    on_line = _picture_pixel(page, 10.0 - a2.x + 0.5 / DPI, y).lightness()  # not a section line
    between = _picture_pixel(page, 10.5 - a2.x, y).lightness()
    assert on_line < between
