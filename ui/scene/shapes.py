"""Model geometry (shapely, inches) turned into Qt paths, plus decoration helpers.

This is the only module of the scene that touches shapely: it converts outlines
and crests to ``QPainterPath`` and derives purely decorative shapes (hill
contour rings, vehicle roofs).  Rules questions (LOS, cover, distances) are
never answered here; they belong to ``crdesk`` geometry.
"""

from __future__ import annotations

import itertools
import math
import random
import zlib
from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QFont, QPainterPath, QPainterPathStroker, QPolygonF, QTransform
from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from crdesk.shapes import ground


def _ring(coords: Iterable[Sequence[float]]) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y, *_ in coords])


def polygon_path(geom: BaseGeometry) -> QPainterPath:
    """A filled path of a polygon or multipolygon, holes included (odd-even fill)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    polygons: list[Polygon]
    if isinstance(geom, Polygon):
        polygons = [geom]
    elif isinstance(geom, MultiPolygon):
        polygons = list(geom.geoms)
    else:
        polygons = [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]
    for poly in polygons:
        if poly.is_empty:
            continue
        path.addPolygon(_ring(poly.exterior.coords))
        path.closeSubpath()
        for hole in poly.interiors:
            path.addPolygon(_ring(hole.coords))
            path.closeSubpath()
    return path


def line_path(line: LineString) -> QPainterPath:
    """An open path along a polyline (a hill crest); empty for an empty line."""
    path = QPainterPath()
    coords = list(line.coords) if not line.is_empty else []
    if coords:
        path.moveTo(float(coords[0][0]), float(coords[0][1]))
        for x, y, *_ in coords[1:]:
            path.lineTo(float(x), float(y))
    return path


def inset_paths(outline: BaseGeometry, step: float, count: int) -> list[QPainterPath]:
    """Up to ``count`` rings shrunk by ``step`` inches each: decorative contour lines.

    A ragged outline of many points is simplified first (by a tenth of a step,
    invisible in a contour): GEOS took tens of milliseconds to buffer each one.
    """
    rings = []
    outline = drawable(outline)
    if shapely.get_num_coordinates(outline) > 64:
        outline = outline.simplify(step / 10)
    for n in range(1, count + 1):
        shrunk = outline.buffer(-step * n, join_style="round", quad_segs=4)
        if shrunk.is_empty or shrunk.area < step * step:
            break
        rings.append(polygon_path(shrunk))
    return rings


def long_axis_angle(outline: Polygon) -> float:
    """Direction of the outline's longest edge, in degrees (to lay bricks or a vehicle)."""
    coords = list(outline.exterior.coords)
    best, angle = -1.0, 0.0
    for (x0, y0, *_), (x1, y1, *_) in itertools.pairwise(coords):
        length = math.hypot(x1 - x0, y1 - y0)
        if length > best:
            best, angle = length, math.degrees(math.atan2(y1 - y0, x1 - x0))
    return angle


def seeded_random(key: str) -> random.Random:
    """A generator seeded from a model id, so decorations stay put between repaints."""
    return random.Random(zlib.crc32(key.encode("utf-8")))


SCATTER_MAX = 20_000
"""Most grid spots one decoration tries: a huge outline gets sparser trees, not a hang."""


def scatter(
    path: QPainterPath, spacing: float, rng: random.Random, jitter: float = 0.35
) -> list[QPointF]:
    """Points on a jittered hex grid inside ``path``: where to put trees or stones.

    The grid is widened so it has at most :data:`SCATTER_MAX` spots over the
    path's bounding box (a feature the size of the table stays bounded).
    """
    rect = path.boundingRect()
    points = []
    spots = (rect.width() / spacing + 2) * (rect.height() / (spacing * math.sqrt(3) / 2) + 2)
    if not math.isfinite(spots):
        return []
    if spots > SCATTER_MAX:
        spacing *= math.sqrt(spots / SCATTER_MAX)
    row_h = spacing * math.sqrt(3) / 2
    rows = int(rect.height() / row_h) + 2
    cols = int(rect.width() / spacing) + 2
    for r in range(rows):
        offset = spacing / 2 if r % 2 else 0.0
        for c in range(cols):
            p = QPointF(
                rect.left() + c * spacing + offset + rng.uniform(-jitter, jitter) * spacing,
                rect.top() + r * row_h + rng.uniform(-jitter, jitter) * spacing,
            )
            if path.contains(p):
                points.append(p)
    return points


def drawable(outline: BaseGeometry) -> BaseGeometry:
    """The outline, repaired if it is invalid (a bow-tie the editor has flagged).

    Invalid features may be saved (issue 6 flags them, it does not refuse them),
    so decoration must never raise a GEOS TopologyException on one: the ground
    the core finds in it (:func:`crdesk.shapes.ground`, polygons only).
    """
    if outline.is_valid:
        return outline
    return ground(outline)


def lines_path(geom: BaseGeometry) -> QPainterPath:
    """An open path through every line of a (multi)line geometry; points are dropped.

    One flat pass over the coordinates (a hatch has hundreds of pieces: a
    sub-path object per piece made opening a rocky table slow).
    """
    path = QPainterPath()
    lines = shapely.get_parts(geom)
    while (shapely.get_type_id(lines) >= shapely.GeometryType.MULTIPOINT).any():
        lines = shapely.get_parts(lines)  # collections of collections, flattened
    lines = lines[shapely.get_type_id(lines) == shapely.GeometryType.LINESTRING]
    if not len(lines):
        return path
    coords, which = shapely.get_coordinates(lines, return_index=True)
    starts = np.r_[True, which[1:] != which[:-1]]
    move, line = path.moveTo, path.lineTo
    for (x, y), first in zip(coords.tolist(), starts.tolist(), strict=True):
        if first:
            move(x, y)
        else:
            line(x, y)
    return path


def hatch_path(outline: BaseGeometry, angle: float, spacing: float) -> QPainterPath:
    """Parallel lines at ``angle`` degrees, ``spacing`` inches apart, cut to the outline.

    Cut here rather than with a painter clip because SVG export (QSvgGenerator)
    ignores clipping; precomputed geometry draws the same on every device.
    """
    outline = drawable(outline)
    if outline.is_empty:
        return QPainterPath()
    minx, miny, maxx, maxy = outline.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = math.hypot(maxx - minx, maxy - miny) / 2 + spacing
    a = math.radians(angle)
    dx, dy = math.cos(a), math.sin(a)
    nx, ny = -dy, dx
    n = int(half / spacing) + 1
    offset = np.arange(-n, n + 1)[:, None] * spacing
    ends = np.empty((2 * n + 1, 2, 2))
    ends[:, 0, 0] = (cx + nx * offset - dx * half)[:, 0]
    ends[:, 0, 1] = (cy + ny * offset - dy * half)[:, 0]
    ends[:, 1, 0] = (cx + nx * offset + dx * half)[:, 0]
    ends[:, 1, 1] = (cy + ny * offset + dy * half)[:, 0]
    lines = shapely.multilinestrings(shapely.linestrings(ends))
    return lines_path(shapely.intersection(outline, lines))


def _discs(centres: Sequence[tuple[float, float]], radii: Sequence[float]) -> np.ndarray:
    discs: np.ndarray = shapely.buffer(
        shapely.points(np.asarray(centres, dtype=float)), radii, quad_segs=8
    )
    return discs


def disc_paths(
    outline: BaseGeometry, centres: Sequence[tuple[float, float]], radii: Sequence[float]
) -> list[QPainterPath]:
    """Circles cut to ``outline`` (tree crowns at a wood's edge), one path each.

    Circles wholly inside stay true ellipses; the others are cut by GEOS in one
    vectorised call, which is far cheaper than Qt's path booleans and needs no
    painter clip (SVG export ignores clips).
    """
    if not centres:
        return []
    outline = drawable(outline)
    discs = _discs(centres, radii)
    shapely.prepare(outline)
    inside = shapely.contains(outline, discs)
    cut = shapely.intersection(discs[~inside], outline)
    cut_iter = iter(cut)
    paths = []
    for (x, y), r, whole in zip(centres, radii, inside, strict=True):
        if whole:
            path = QPainterPath()
            path.addEllipse(QPointF(x, y), r, r)
            paths.append(path)
        else:
            paths.append(polygon_path(next(cut_iter)))
    return paths


def union_path(
    outline: BaseGeometry, centres: Sequence[tuple[float, float]], radii: Sequence[float]
) -> QPainterPath:
    """The union of circles, cut to ``outline``, as one path: all crowns' shadow in one fill.

    One fill of the merged shape is cheaper than a fill per crown and keeps
    overlapping shadows from darkening each other.
    """
    if not centres:
        return QPainterPath()
    merged = shapely.union_all(_discs(centres, radii))
    return polygon_path(shapely.intersection(merged, drawable(outline)))


def dashed_stroke(
    path: QPainterPath, width: float, pattern: list[float], round_caps: bool = False
) -> QPainterPath:
    """The outline of a dashed stroke along ``path``, to be filled.

    Dashes become geometry so they look the same on screen, in PNG and in SVG
    (QSvgGenerator writes dash lengths that other SVG viewers scale differently).
    ``pattern`` is in multiples of ``width``, as for ``QPen.setDashPattern``.
    """
    stroker = QPainterPathStroker()
    stroker.setWidth(width)
    stroker.setDashPattern(pattern)
    cap = Qt.PenCapStyle.RoundCap if round_caps else Qt.PenCapStyle.FlatCap
    stroker.setCapStyle(cap)
    stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return stroker.createStroke(path)


_TEXT_CACHE: dict[tuple[str, str, bool], QPainterPath] = {}
_TEXT_PIXELS = 100


def text_path(text: str, height: float, family: str, bold: bool = True) -> QPainterPath:
    """Text as a vector path ``height`` inches tall (cap height), centred on (0, 0).

    Drawing text as a path keeps it crisp at any zoom, in SVG and in print, and
    sidesteps integer font pixel sizes in a scene measured in inches.
    """
    key = (text, family, bold)
    base = _TEXT_CACHE.get(key)
    if base is None:
        font = QFont(family)
        font.setPixelSize(_TEXT_PIXELS)
        font.setBold(bold)
        base = QPainterPath()
        base.addText(0, 0, font, text)
        _TEXT_CACHE[key] = base
    rect = base.boundingRect()
    scale = height / max(_TEXT_PIXELS * 0.72, 1e-6)
    transform = QTransform().scale(scale, scale).translate(-rect.center().x(), -rect.center().y())
    return transform.map(base)
