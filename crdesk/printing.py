"""The 1:1 print: how a table is cut into pages, and how many pages that is.

``crdesk render X -o x.pdf`` and File ▸ Export… print the table at actual size,
tiled over A4 or Letter pages that overlap so they can be laid edge to the
dashed mark (:mod:`ui.export` draws them).  The plan is pure arithmetic, here
in the core, so the command line can say how many pages a table takes, and
refuse past :data:`crdesk.limits.PRINT_PAGES`, before any drawing starts; the
PDF writer draws exactly this plan.

>>> plan = plan_print(72, 48, "a4")
>>> plan.pages, plan.landscape, plan.overlap
(51, False, 0.25)
>>> plan_print(480, 480, "a4").pages
3217
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from crdesk import limits

PRINT_UNITS = 1200
"""Device units per inch of the PDF (:data:`ui.export.PDF_DPI`)."""

PAPER_AREA = {"a4": (8970, 13087), "letter": (9254, 12254)}
"""The printable area of a portrait page inside 10 mm margins, in 1/1200 inch: what
Qt's ``QPageLayout.paintRectPixels(1200)`` gives for the page the PDF writer makes
(``tests/test_render_bounds.py`` checks they agree)."""

HEADER = 0.45
"""Inches at the top of each tile page for its label, neighbours and scale bar."""

OVERLAP = 0.5
"""The pages' overlap (inches) asked for; a narrower one, down to :data:`MIN_OVERLAP`,
is used when it saves pages."""
MIN_OVERLAP = 0.25


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


def tile_grid(
    table_width: float, table_height: float, page_width: float, page_height: float, overlap: float
) -> tuple[int, int]:
    """Rows and columns of pages :func:`plan_tiles` cuts the table into."""
    if page_width <= overlap or page_height <= overlap:
        raise ValueError("the printable page must be larger than the overlap")
    step_x, step_y = page_width - overlap, page_height - overlap
    cols = max(1, math.ceil((table_width - overlap) / step_x - 1e-9))
    rows = max(1, math.ceil((table_height - overlap) / step_y - 1e-9))
    return rows, cols


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
    (:func:`plan_print` tries both).

    >>> tiles = plan_tiles(36, 36, 7.0, 10.0, 0.5)
    >>> [t.label for t in tiles][:3], len(tiles), tiles[-1].width
    (['A1', 'A2', 'A3'], 24, 3.5)
    """
    rows, cols = tile_grid(table_width, table_height, page_width, page_height, overlap)
    step_x, step_y = page_width - overlap, page_height - overlap
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


@dataclass(frozen=True, slots=True)
class PrintPlan:
    """How a table prints at 1:1: the page's orientation and size, the overlap, the grid."""

    paper: str
    landscape: bool
    overlap: float
    page_width: float
    """Printable inches across a page."""
    page_height: float
    """Printable inches down a page, the header included."""
    rows: int
    cols: int

    @property
    def tile_pages(self) -> int:
        return self.rows * self.cols

    @property
    def pages(self) -> int:
        """Pages of the PDF: the tiles and the page map before them."""
        return self.tile_pages + 1

    def tiles(self, table_width: float, table_height: float) -> list[Tile]:
        return plan_tiles(
            table_width, table_height, self.page_width, self.page_height - HEADER, self.overlap
        )


def page_area(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Printable inches (across, down) of a page of ``paper`` ("a4" or "letter")."""
    w, h = PAPER_AREA[paper]
    if landscape:
        w, h = h, w
    return w / PRINT_UNITS, h / PRINT_UNITS


def plan_print(
    table_width: float, table_height: float, paper: str = "a4", overlap: float = OVERLAP
) -> PrintPlan:
    """The plan of fewest pages: portrait or landscape, ``overlap`` or a narrower one
    (down to :data:`MIN_OVERLAP`); on a tie portrait and the wider overlap.

    Without this a 36" table on A4 spends a column of pages on a sliver under an
    inch wide.
    """
    best: tuple[tuple[int, float, int], PrintPlan] | None = None
    for landscape in (False, True):
        page_w, page_h = page_area(paper, landscape)
        for ov in dict.fromkeys((overlap, min(overlap, MIN_OVERLAP))):
            rows, cols = tile_grid(table_width, table_height, page_w, page_h - HEADER, ov)
            plan = PrintPlan(paper, landscape, ov, page_w, page_h, rows, cols)
            key = (plan.pages, -ov, int(landscape))
            if best is None or key < best[0]:
                best = (key, plan)
    assert best is not None
    return best[1]


def print_problem(table_width: float, table_height: float, paper: str = "a4") -> str | None:
    """Why this table is not printed at 1:1, or None when it is (within
    :data:`crdesk.limits.PRINT_PAGES`)."""
    pages = plan_print(table_width, table_height, paper).pages
    return limits.print_problem(table_width, table_height, pages, paper)
