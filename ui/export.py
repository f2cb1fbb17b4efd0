"""Map export: PNG, SVG, and a PDF at true 1:1 scale tiled over A4 or Letter pages.

A player prints the PDF at actual size, trims or overlaps the pages along the
dashed overlap marks, and lays real terrain on a real table.  The first page is
a page map: the whole table small (a 200 dpi picture), with the tile grid and
each tile's label.
Every tile is drawn by the same scene the GUI shows (:mod:`ui.render`); there
is no second drawing code path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from crdesk import limits, printing
from crdesk.jsonfile import written_atomically
from crdesk.model import Scenario
from crdesk.printing import HEADER, Tile, plan_tiles
from ui.render import (
    ClippingPainter,
    RenderOptions,
    RenderTooLargeError,
    ensure_app,
    make_scene,
    paint_battlefield,
    save_png,
    save_svg,
)
from ui.scene.scene import BattlefieldScene

PDF_DPI = printing.PRINT_UNITS
"""Device units per inch of the PDF painter; vector output, so this is precision only."""

MAP_DPI = 200
"""Pixels per printed inch of the page map's picture of the whole table."""

__all__ = ["HEADER", "PDF_DPI", "Paper", "Tile", "export_map", "plan_tiles", "save_pdf"]


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def page_size(self) -> QPageSize:
        return QPageSize(
            QPageSize.PageSizeId.A4 if self is Paper.A4 else QPageSize.PageSizeId.Letter
        )


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

    ``progress(page, pages)`` is called before each page is drawn, and
    ``progress(0, 0)`` while the terrain is drawn before them; it may raise to
    stop (the GUI shows the pages counted, with Cancel).  A table of more than
    :data:`crdesk.limits.PRINT_PAGES` pages is refused before anything is drawn
    (:class:`~ui.render.RenderTooLargeError`, which says what to do instead).
    """
    table = scenario.battlefield.table
    plan = printing.plan_print(table.width, table.height, paper.value, overlap)
    problem = limits.print_problem(table.width, table.height, plan.pages, paper.value)
    if problem is not None:
        raise RenderTooLargeError(problem)
    ensure_app()
    out = Path(path)
    writer = QPdfWriter(str(out))
    writer.setResolution(PDF_DPI)
    writer.setTitle(f"{scenario.title} — 1:1 print")
    writer.setCreator("crdesk")
    orientation = (
        QPageLayout.Orientation.Landscape if plan.landscape else QPageLayout.Orientation.Portrait
    )
    writer.setPageLayout(
        QPageLayout(
            paper.page_size, orientation, QMarginsF(10, 10, 10, 10), QPageLayout.Unit.Millimeter
        )
    )
    tiles = plan.tiles(table.width, table.height)
    scene = make_scene(
        scenario.battlefield,
        RenderOptions(sections=sections, grid=grid, frame=False),
        # no page count yet: Cancel is heard while the terrain is drawn
        progress=None if progress is None else lambda _done, _total: progress(0, 0),
    )
    painter = ClippingPainter()
    if not painter.begin(writer):
        scene.deleteLater()
        raise OSError(f"could not write {out}")
    try:
        if progress is not None:
            progress(1, plan.pages)
        # the page map always shows the sections and never the grid: the same scene
        scene.set_sections_visible(True)
        scene.set_grid_visible(False)
        _page_map(painter, scenario, scene, plan, tiles, paper)
        scene.set_sections_visible(sections)
        scene.set_grid_visible(grid)
        for page, tile in enumerate(tiles, start=2):
            if progress is not None:
                progress(page, plan.pages)
            writer.newPage()
            _tile_page(painter, scene, tile, tiles, plan.overlap)
        return out, plan.pages
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
    scene: BattlefieldScene,
    plan: printing.PrintPlan,
    tiles: list[Tile],
    paper: Paper,
) -> None:
    table = scenario.battlefield.table
    page_w, page_h, overlap = plan.page_width, plan.page_height, plan.overlap
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
    # a picture: drawn in vectors, every outline of the table would be stored whole
    # on this one page, which the PDF writer then compresses holding the GIL (1.2 s
    # of a frozen window for 1,000 features)
    picture = QImage(
        max(1, round(table.width * scale * MAP_DPI)),
        max(1, round(table.height * scale * MAP_DPI)),
        QImage.Format.Format_RGB32,
    )
    picture.fill(QColor("white"))
    map_painter = QPainter(picture)
    try:
        paint_battlefield(
            scene, map_painter, QRectF(0, 0, picture.width(), picture.height()), scene.table_rect()
        )
    finally:
        map_painter.end()
    painter.drawImage(target, picture)
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
    if isinstance(painter, ClippingPainter):  # the page stores only the paths it shows
        painter.clip, painter.units_per_inch = target, PDF_DPI
    try:
        paint_battlefield(scene, painter, target, source)  # type: ignore[arg-type]
    finally:
        if isinstance(painter, ClippingPainter):
            painter.clip = None
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

    The file is written under a temp name beside ``path`` and renamed onto it
    when complete, so a failed or cancelled export (``progress`` raising) leaves
    no partial file and any earlier file at ``path`` as it was.  ``progress(done,
    total)`` is told of each PDF page (``(0, 0)``: no count); it may raise to stop.

    This is also the ``render`` front end that ``crdesk render`` finds through
    the ``crdesk.frontends`` entry point.
    """
    paper = Paper(paper)
    out = Path(path)
    suffix = out.suffix.lower()
    options = RenderOptions(pixels_per_inch=dpi, sections=sections, grid=grid, title=scenario.title)
    # progress is called last inside each block: a Cancel heard then still drops the file
    if suffix == ".png":
        with written_atomically(out) as tmp:
            save_png(scenario.battlefield, tmp, options)
            if progress is not None:
                progress(0, 0)
        return f"wrote {out} (PNG, {dpi:g} pixels per inch)"
    if suffix == ".svg":
        with written_atomically(out) as tmp:
            save_svg(scenario.battlefield, tmp, options)
            if progress is not None:
                progress(0, 0)
        return f"wrote {out} (SVG)"
    if suffix == ".pdf":
        with written_atomically(out) as tmp:
            _, pages = save_pdf(
                scenario, tmp, paper=paper, sections=sections, grid=grid, progress=progress
            )
            if progress is not None:
                progress(pages, pages)
        return f"wrote {out} (PDF at 1:1 scale, {pages:,} pages on {paper.value.upper()})"
    raise ValueError(
        f"cannot export to {suffix or 'a file without a suffix'}: use .png, .svg or .pdf"
    )
