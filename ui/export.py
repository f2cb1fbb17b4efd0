"""Map export: PNG, SVG, and a PDF at true 1:1 scale tiled over A4 or Letter pages.

A player prints the PDF at actual size, trims or overlaps the pages along the
dashed overlap marks, and lays real terrain on a real table.  The first page is
a page map: the whole table small, with the tile grid and each tile's label.
Every tile is drawn by the same scene the GUI shows (:mod:`ui.render`); there
is no second drawing code path.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from crdesk.model import Scenario
from ui.render import RenderOptions, ensure_app, make_scene, paint_battlefield, save_png, save_svg

PDF_DPI = 1200
"""Device units per inch of the PDF painter; vector output, so this is precision only."""


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def page_size(self) -> QPageSize:
        return QPageSize(
            QPageSize.PageSizeId.A4 if self is Paper.A4 else QPageSize.PageSizeId.Letter
        )


@dataclass(frozen=True, slots=True)
class Tile:
    """One printed page of the table: its label and the table inches it shows."""

    row: int
    col: int
    x: float
    y: float
    width: float
    height: float

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def plan_tiles(
    table_width: float, table_height: float, page_width: float, page_height: float, overlap: float
) -> list[Tile]:
    """Cut the table into page-sized tiles that overlap by ``overlap`` inches.

    The first tile starts at the table's far-left corner and each next one a
    page less the overlap further on, so every page's 1" grid and section
    lines sit on whole table inches and the pages line up when laid edge to
    the dashed mark.  Moving the origin (centring the tiles) cannot save a
    page: n tiles along a side cover n * page - (n - 1) * overlap wherever they
    start, so the fewest is the same; only orientation and overlap can
    (:func:`save_pdf` tries both).

    >>> tiles = plan_tiles(36, 36, 7.0, 10.0, 0.5)
    >>> [t.label for t in tiles][:3], len(tiles), tiles[-1].width
    (['A1', 'A2', 'A3'], 24, 3.5)
    """
    if page_width <= overlap or page_height <= overlap:
        raise ValueError("the printable page must be larger than the overlap")
    step_x, step_y = page_width - overlap, page_height - overlap
    cols = max(1, math.ceil((table_width - overlap) / step_x - 1e-9))
    rows = max(1, math.ceil((table_height - overlap) / step_y - 1e-9))
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x, y = c * step_x, r * step_y
            tiles.append(
                Tile(
                    r,
                    c,
                    x,
                    y,
                    min(page_width, table_width - x),
                    min(page_height, table_height - y),
                )
            )
    return tiles


HEADER = 0.45
"""Inches at the top of each tile page for its label, neighbours and scale bar."""


def save_pdf(
    scenario: Scenario,
    path: str | os.PathLike[str],
    paper: Paper = Paper.A4,
    overlap: float = 0.5,
    sections: bool = True,
    grid: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Path, int]:
    """Write the tiled 1:1 PDF; returns the path and the number of pages.

    ``progress(pages done, pages)`` is called before each page; it may raise to stop
    (a 480" table is over 3,000 pages: the GUI shows them counted, with Cancel).
    """
    ensure_app()
    out = Path(path)
    writer = QPdfWriter(str(out))
    writer.setResolution(PDF_DPI)
    writer.setTitle(f"{scenario.title} — 1:1 print")
    writer.setCreator("crdesk")
    table = scenario.battlefield.table
    # Portrait or landscape, and the overlap or a narrower one (down to 1/4"),
    # whichever needs fewest pages: a 36" table on A4 otherwise spends a column
    # of pages on a sliver under an inch wide.
    layouts = []
    for orientation in (QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape):
        layout = QPageLayout(
            paper.page_size, orientation, QMarginsF(10, 10, 10, 10), QPageLayout.Unit.Millimeter
        )
        rect = layout.paintRectPixels(PDF_DPI)
        page_w, page_h = rect.width() / PDF_DPI, rect.height() / PDF_DPI
        for ov in dict.fromkeys((overlap, min(overlap, 0.25))):
            tiles = plan_tiles(table.width, table.height, page_w, page_h - HEADER, ov)
            layouts.append((len(tiles), -ov, orientation.value, layout, tiles, page_w, page_h))
    _, neg_overlap, _, layout, tiles, page_w, page_h = min(layouts, key=lambda item: item[:3])
    overlap = -neg_overlap
    writer.setPageLayout(layout)
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"could not write {out}")
    scene = make_scene(
        scenario.battlefield, RenderOptions(sections=sections, grid=grid, frame=False)
    )
    try:
        _page_map(painter, scenario, tiles, page_w, page_h, overlap, paper)
        for done, tile in enumerate(tiles, start=1):
            if progress is not None:
                progress(done, len(tiles))
            writer.newPage()
            _tile_page(painter, scene, tile, tiles, overlap)
        return out, len(tiles) + 1
    finally:
        painter.end()
        scene.deleteLater()


def _inch(value: float) -> float:
    return value * PDF_DPI


def _font(points: float, bold: bool = False) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPointSizeF(points)
    font.setBold(bold)
    return font


def _text(
    painter: QPainter, x: float, y: float, text: str, points: float, bold: bool = False
) -> None:
    painter.setFont(_font(points, bold))
    painter.drawText(QPointF(_inch(x), _inch(y)), text)


def _scale_bar(painter: QPainter, x: float, y: float) -> None:
    """A 2-inch bar with inch ticks: measure it to check the printer kept 100% scale."""
    painter.setPen(QPen(QColor("black"), _inch(0.012)))
    painter.drawLine(QPointF(_inch(x), _inch(y)), QPointF(_inch(x + 2), _inch(y)))
    for i in range(3):
        painter.drawLine(QPointF(_inch(x + i), _inch(y - 0.08)), QPointF(_inch(x + i), _inch(y)))
    _text(painter, x + 2.1, y, 'this bar must measure 2"', 7)


def _page_map(
    painter: QPainter,
    scenario: Scenario,
    tiles: list[Tile],
    page_w: float,
    page_h: float,
    overlap: float,
    paper: Paper,
) -> None:
    table = scenario.battlefield.table
    painter.setPen(QColor("black"))
    _text(painter, 0, 0.35, scenario.title, 16, bold=True)
    rows = max(t.row for t in tiles) + 1
    cols = max(t.col for t in tiles) + 1
    lines = [
        f'Table {table.width:g}" x {table.height:g}" printed at 1:1 on {len(tiles)} '
        f"{paper.value.upper()} pages ({rows} rows x {cols} columns), plus this page map.",
        "Print at 100% / 'actual size' (no 'fit to page'). Pages overlap by "
        f'{overlap:g}": lay each page over its neighbours so the dashed marks line up.',
    ]
    for i, line in enumerate(lines):
        _text(painter, 0, 0.7 + i * 0.22, line, 8)
    _scale_bar(painter, 0, 1.35)
    # The whole table, small, with the tile grid.
    top = 1.7
    scale = min(page_w / table.width, (page_h - top - 0.2) / table.height)
    target = QRectF(0, _inch(top), _inch(table.width * scale), _inch(table.height * scale))
    scene = make_scene(scenario.battlefield, RenderOptions(sections=True, frame=False))
    try:
        paint_battlefield(scene, painter, target, scene.table_rect())
    finally:
        scene.deleteLater()
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for tile in tiles:
        rect = QRectF(
            _inch(tile.x * scale),
            _inch(top + tile.y * scale),
            _inch(tile.width * scale),
            _inch(tile.height * scale),
        )
        painter.setPen(QPen(QColor(200, 0, 0), _inch(0.015)))
        painter.drawRect(rect)
        painter.setFont(_font(9, bold=True))
        painter.drawText(rect.adjusted(_inch(0.05), _inch(0.03), 0, 0), tile.label)


def _tile_page(
    painter: QPainter, scene: object, tile: Tile, tiles: list[Tile], overlap: float
) -> None:
    painter.setPen(QColor("black"))
    neighbours = {(t.row, t.col): t.label for t in tiles}
    around = [
        f"{side} {neighbours[pos]}"
        for side, pos in (
            ("above", (tile.row - 1, tile.col)),
            ("left", (tile.row, tile.col - 1)),
            ("right", (tile.row, tile.col + 1)),
            ("below", (tile.row + 1, tile.col)),
        )
        if pos in neighbours
    ]
    _text(painter, 0, 0.18, f"Page {tile.label}", 11, bold=True)
    _text(
        painter,
        0.95,
        0.18,
        f'table x {tile.x:.2f}-{tile.x + tile.width:.2f}", '
        f'y {tile.y:.2f}-{tile.y + tile.height:.2f}"'
        + (f"  |  {', '.join(around)}" if around else ""),
        7,
    )
    _scale_bar(painter, 0, 0.38)
    target = QRectF(0, _inch(HEADER), _inch(tile.width), _inch(tile.height))
    source = QRectF(tile.x, tile.y, tile.width, tile.height)
    painter.save()
    painter.setClipRect(target)
    paint_battlefield(scene, painter, target, source)  # type: ignore[arg-type]
    painter.restore()
    # Overlap marks: where the next page's picture starts, right and below.
    painter.setPen(QPen(QColor(200, 0, 0), _inch(0.01), Qt.PenStyle.DashLine))
    if any(t.row == tile.row and t.col == tile.col + 1 for t in tiles):
        x = _inch(tile.width - overlap)
        painter.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()))
    if any(t.col == tile.col and t.row == tile.row + 1 for t in tiles):
        y = target.top() + _inch(tile.height - overlap)
        painter.drawLine(QPointF(0, y), QPointF(target.right(), y))
    painter.setPen(QPen(QColor("black"), _inch(0.01)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(target)


def export_map(
    scenario: Scenario,
    path: str | os.PathLike[str],
    dpi: float = 100.0,
    sections: bool = True,
    grid: bool = False,
    paper: Paper | str = Paper.A4,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Export by file suffix (.png, .svg, .pdf); returns a one-line summary.

    This is also the ``render`` front end that ``crdesk render`` finds through
    the ``crdesk.frontends`` entry point.
    """
    paper = Paper(paper)
    out = Path(path)
    suffix = out.suffix.lower()
    options = RenderOptions(pixels_per_inch=dpi, sections=sections, grid=grid, title=scenario.title)
    if suffix == ".png":
        save_png(scenario.battlefield, out, options)
        return f"wrote {out} (PNG, {dpi:g} pixels per inch)"
    if suffix == ".svg":
        save_svg(scenario.battlefield, out, options)
        return f"wrote {out} (SVG)"
    if suffix == ".pdf":
        _, pages = save_pdf(
            scenario, out, paper=paper, sections=sections, grid=grid, progress=progress
        )
        return f"wrote {out} (PDF at 1:1 scale, {pages} pages on {paper.value.upper()})"
    raise ValueError(
        f"cannot export to {suffix or 'a file without a suffix'}: use .png, .svg or .pdf"
    )
