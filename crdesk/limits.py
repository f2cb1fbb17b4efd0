"""What crdesk handles: one model of the size limits, checked before any heavy work.

Scenario files come from other players, so every size that makes loading, sight,
rendering or saving cost more is bounded here, generously above real use (a
real 72" x 48" game has fewer than 100 figures and 400 features).  The schema,
the loader's cross-checks, the command-line arguments and the GUI dialogs all
read these numbers, so a file that one part accepts the others can handle, and
a file crdesk saves always loads again (:func:`saved_size_bound` shows the
saved text stays below :data:`FILE_BYTES`).

A limit is reported in words with where it was hit, e.g.
``forces[3].figures: 1,000 figures; crdesk handles at most 400 on one table``.
"""

from __future__ import annotations

import math

FILE_BYTES = 16 * 1024 * 1024
"""Largest scenario or saved-game file read (real scenarios are tens of kB)."""

TABLE_MIN = 6.0
TABLE_MAX = 480.0
"""Table sides in inches (a 40' table is the largest anyone plays on)."""

COORD_MARGIN = 48.0
"""How far (inches) outside the table any point may lie: features may run off
the edge, but a vertex at x = -10000 would make every raster and decoration
over the feature's bounding box enormous."""

COORD_ABS = TABLE_MAX + COORD_MARGIN
"""Largest coordinate magnitude on any table (the schema's quick bound)."""

FORCES = 20
FIGURES_PER_FORCE = 400
FIGURES_PER_TABLE = 400
"""Sight is all pairs: 400 figures are 159,600 ordered pairs."""

FEATURES = 1_000
POINTS_PER_OUTLINE = 10_000
"""Points of one outline, hole, area or crest."""
POINTS_TOTAL = 100_000
CROSSINGS_PER_OUTLINE = 1_000
"""Times one outline, hole or area may cross itself and still be repaired where the file
is read (a slip of the mouse crosses once or twice; a scribble of 2,000 random points
crosses some 600,000 times, and repairing it took 25 s)."""
CROSSINGS_TOTAL = 5_000
"""The same, for all the table's outlines together (each repair costs time on load)."""
"""Points of all the table's outlines, holes, areas and crests together."""
BLOCKING_COVER = 2.0
"""The bounding boxes of the woods, buildings and impassable ground together may
cover at most this many times the table with its margin: the sight raster fills
every cell inside each of them (a thousand table-sized woods would be a
thousand fills of the whole table)."""
HOLES_PER_FEATURE = 100
AREAS_PER_BUILDING = 200
OPENINGS_PER_BUILDING = 500
OPENINGS_TOTAL = 10_000

ID_CHARS = 64
NAME_CHARS = 200
DESCRIPTION_CHARS = 20_000

GENERATION_LOG = 5_000
"""Entries of a generation log (a generated 6' x 4' table logs about 100)."""
GENERATION_BYTES = 1_000_000
"""The generation record (inputs and log) as the saved file writes it (UTF-8 JSON,
2-space indent, nested one level down)."""

RENDER_MEGAPIXELS = 100.0
"""Largest picture ``crdesk render`` or Export makes: 100 Mpx is 400 MB of
pixels, a 72" x 48" table at 120 dpi."""
DPI_MIN = 10.0
DPI_MAX = 1200.0

SAVED_GAME_STEPS = 200_000
"""Actions of a saved game (a long game is a few thousand)."""
STEP_FACES = 10_000
"""Dice one step of a saved game holds (a Ranged Combat of a big group rolls some tens;
only re-rolled ties, typed in by hand, come near it)."""


def count_message(count: int, noun: str, limit: int, where: str) -> str:
    """``"1,000 figures; crdesk handles at most 400 on one table"``."""
    return f"{count:,} {noun}; crdesk handles at most {limit:,} {where}"


def render_pixels(width_in: float, height_in: float, dpi: float) -> float:
    """Megapixels of a picture of ``width_in`` x ``height_in`` inches at ``dpi``."""
    return (width_in * dpi) * (height_in * dpi) / 1e6


def render_problem(width_in: float, height_in: float, dpi: float) -> str | None:
    """Why a picture of this size cannot be made, or None when it can (the pixels only:
    the dpi range :data:`DPI_MIN`..:data:`DPI_MAX` is the command line's)."""
    if not (dpi > 0 and math.isfinite(dpi)):
        return f"the resolution must be a positive number of dpi, got {dpi:g}"
    mpx = render_pixels(width_in, height_in, dpi)
    if mpx <= RENDER_MEGAPIXELS:
        return None
    fit = max_dpi(width_in, height_in)
    return (
        f'a {width_in:g}" x {height_in:g}" picture at {dpi:g} dpi is {mpx:,.0f} megapixels; '
        f"crdesk renders at most {RENDER_MEGAPIXELS:g} megapixels (use {fit:g} dpi or less, "
        "or SVG/PDF, which have no pixel limit)"
    )


def max_dpi(width_in: float, height_in: float) -> float:
    """The largest whole dpi within :data:`RENDER_MEGAPIXELS` for this size."""
    area = max(width_in * height_in, 1e-9)
    return float(max(1, int((RENDER_MEGAPIXELS * 1e6 / area) ** 0.5)))


def saved_size_bound() -> int:
    """An upper bound of the bytes of a saved scenario within these limits.

    Each point is one line of at most 60 bytes (two 17-digit floats and
    indentation); each text character at most 6 bytes (a ``\\u001f`` escape);
    a figure, feature, opening or log entry adds a fixed overhead.
    """
    text = 6 * (NAME_CHARS + ID_CHARS)
    points = POINTS_TOTAL * 60
    features = FEATURES * (text + 400) + OPENINGS_TOTAL * 200
    figures = FIGURES_PER_TABLE * (text + 600) + FORCES * (text + 300)
    rest = 6 * DESCRIPTION_CHARS + 6 * NAME_CHARS + 8_000
    generation = GENERATION_BYTES
    return points + features + figures + rest + generation


PRINT_PAGES = 250
"""Most pages of a 1:1 PDF (``crdesk render X -o x.pdf``, Export), the page map included.

A 72" x 48" table, the usual big one, is 51 A4 pages; a 10' x 10' table
(120" x 120") 205 A4 or 222 Letter pages, 12' x 8' 201 or 211.  250 pages, half
a ream, print any of these on either paper and are more than anyone trims and
lays out by hand.  The work grows with the pages (each draws its part of the
table): a 480" x 480" table is 3,217 A4 pages, which once took 10 minutes and
made a 12.6 GB file.  A picture of a larger table is an SVG or a PNG
(:func:`crdesk.printing.plan_print` counts the pages)."""


def print_problem(width_in: float, height_in: float, pages: int, paper: str) -> str | None:
    """Why a table of ``pages`` 1:1 pages on ``paper`` is not printed, or None when it is."""
    if pages <= PRINT_PAGES:
        return None
    return (
        f'a {width_in:g}" x {height_in:g}" table is {pages:,} {paper.upper()} pages at 1:1; '
        f"crdesk prints at most {PRINT_PAGES:,} pages "
        "(export PNG or SVG for a picture of the whole table)"
    )
