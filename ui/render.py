"""Paint a battlefield offscreen, to a QImage, PNG or SVG, through the scene itself.

There is one drawing code path: these helpers build the same
:class:`~ui.scene.scene.BattlefieldScene` the window shows and let it paint
onto another device.  Issue 5 adds PDF tiling on top by calling
:func:`paint_battlefield` once per page with that page's source rectangle.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from crdesk import limits
from crdesk.model import Battlefield
from ui.scene.items import TableItem
from ui.scene.scene import BattlefieldScene, prepare
from ui.scene.style import TableStyle


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What to draw and how large; defaults suit a screen-sized overview picture."""

    pixels_per_inch: float = 30.0
    sections: bool = True
    grid: bool = False
    frame: bool = True
    """Include the wooden frame and edge labels around the cloth."""
    background: QColor | None = None
    """Fill behind the table; None leaves PNGs transparent outside the frame."""
    title: str = "crdesk battlefield"
    style: TableStyle | None = None


def ensure_app() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display).

    Rendering needs Qt's font machinery even in the command-line ``crdesk render``,
    which has no window; a headless machine gets the offscreen platform.
    """
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return QApplication([sys.argv[0] if sys.argv else "crdesk"])


def make_scene(
    battlefield: Battlefield,
    options: RenderOptions,
    progress: Callable[[int, int], None] | None = None,
) -> BattlefieldScene:
    """A detached scene set up for export: overlays as asked, no pixmap caches.

    ``progress(features done, features)`` is told while the terrain is drawn and
    may raise to stop (an export's Cancel before its first page)."""
    prepared = prepare(battlefield, options.style, progress) if progress is not None else None
    scene = BattlefieldScene(battlefield, options.style, prepared=prepared)
    scene.detach()
    scene.set_sections_visible(options.sections)
    scene.set_grid_visible(options.grid)
    scene.set_caching(False)
    return scene


def source_rect(scene: BattlefieldScene, options: RenderOptions) -> QRectF:
    """The part of the scene to export: the table, plus its frame when asked for."""
    rect = scene.table_rect()
    if options.frame:
        m = TableItem.FRAME + 0.1
        rect = rect.adjusted(-m, -m, m, m)
    return rect


def paint_battlefield(
    scene: BattlefieldScene, painter: QPainter, target: QRectF, source: QRectF
) -> None:
    """Paint ``source`` (inches) of the scene into ``target`` (device units) of a painter."""
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing
        | QPainter.RenderHint.SmoothPixmapTransform
        | QPainter.RenderHint.TextAntialiasing
    )
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)


class RenderTooLargeError(OSError):
    """The picture asked for is over :data:`crdesk.limits.RENDER_MEGAPIXELS`."""


def check_render_size(battlefield: Battlefield, options: RenderOptions) -> None:
    """Refuse, before any drawing, a picture too large to make (named in words).

    A 480" table at 100 dpi is 2,300 megapixels (9 GB); Qt would give a null
    image and the save then fail with a misleading "could not write".
    """
    frame = 2 * (TableItem.FRAME + 0.1) if options.frame else 0.0
    width = battlefield.table.width + frame
    height = battlefield.table.height + frame
    problem = limits.render_problem(width, height, options.pixels_per_inch)
    if problem:
        raise RenderTooLargeError(problem)


def render_scene(battlefield: Battlefield, options: RenderOptions | None = None) -> QImage:
    """The battlefield as an image at ``options.pixels_per_inch``.

    Raises :class:`RenderTooLargeError` when the image would be over the limits.
    """
    options = options or RenderOptions()
    check_render_size(battlefield, options)
    ensure_app()
    scene = make_scene(battlefield, options)
    try:
        source = source_rect(scene, options)
        size = QSize(
            max(1, round(source.width() * options.pixels_per_inch)),
            max(1, round(source.height() * options.pixels_per_inch)),
        )
        image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
        if image.isNull():
            raise OSError(f"not enough memory for a {size.width()} x {size.height()} pixel picture")
        painter = QPainter(image)
        try:
            # in bands: one fill of 100 Mpx holds Python's lock 0.7 s, and a window
            # exporting in a worker thread could not repaint meanwhile
            fill = options.background or QColor(0, 0, 0, 0)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            band = max(1, -(-size.height() // 16))
            for y in range(0, size.height(), band):
                painter.fillRect(0, y, size.width(), min(band, size.height() - y), fill)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
            paint_battlefield(scene, painter, QRectF(0, 0, size.width(), size.height()), source)
        finally:
            painter.end()
        return image
    finally:
        scene.deleteLater()


def save_png(
    battlefield: Battlefield, path: str | os.PathLike[str], options: RenderOptions | None = None
) -> Path:
    """Write the battlefield as a PNG; returns the path written."""
    out = Path(path)
    image = render_scene(battlefield, options)
    # The stubs ask for bytes as the format; PySide6 6.11 at run time wants str.
    if not image.save(str(out), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not write {out}")
    return out


def save_svg(
    battlefield: Battlefield, path: str | os.PathLike[str], options: RenderOptions | None = None
) -> Path:
    """Write the battlefield as an SVG whose user unit is 1/100 inch (vector throughout)."""
    options = options or RenderOptions()
    ensure_app()
    out = Path(path)
    scene = make_scene(battlefield, options)
    try:
        source = source_rect(scene, options)
        units = 100.0
        target = QRectF(0, 0, source.width() * units, source.height() * units)
        generator = QSvgGenerator()
        generator.setFileName(str(out))
        generator.setTitle(options.title)
        generator.setDescription("Chain Reaction 2015 battlefield drawn by crdesk")
        generator.setSize(QSize(round(target.width()), round(target.height())))
        generator.setViewBox(target)
        generator.setResolution(round(units))
        painter = SvgPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {out}")
        try:
            if options.background is not None:
                painter.fillRect(target, options.background)
            paint_battlefield(scene, painter, target, source)
        finally:
            painter.end()
        return out
    finally:
        scene.deleteLater()


class SvgPainter(QPainter):
    """A painter for SVG that stores no picture of more than :data:`IMAGE_PIXELS`.

    The SVG writer stores each image as a PNG, encoded in one call that holds
    Python's lock: a 480" table's cloth (2,880 x 2,880 pixels, 6 per inch) took
    3.5 s, and the window exporting it in a worker thread froze as long.  A
    larger image is drawn smoothly scaled down to that many pixels, about 0.2 s
    to store (the cloth's mottling is blurry by design; any table up to 288" x
    288" keeps its 6 pixels per inch, a 72" x 48" table's is 0.12 Mpx).
    """

    IMAGE_PIXELS = 500_000

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self._scaled: dict[int, QImage] = {}

    def drawImage(self, *args: Any) -> None:
        if len(args) == 2 and isinstance(args[0], QRectF) and isinstance(args[1], QImage):
            image: QImage = args[1]
            pixels = image.width() * image.height()
            if pixels > self.IMAGE_PIXELS:
                key = image.cacheKey()
                small = self._scaled.get(key)
                if small is None:
                    f = (self.IMAGE_PIXELS / pixels) ** 0.5
                    small = self._scaled[key] = image.scaled(
                        max(1, int(image.width() * f)),
                        max(1, int(image.height() * f)),
                        Qt.AspectRatioMode.IgnoreAspectRatio,
                        Qt.TransformationMode.SmoothTransformation,
                    )
                args = (args[0], small)
        super().drawImage(*args)


class ClippingPainter(QPainter):
    """A painter that sends a page only the part of each long path it shows.

    A tile of the 1:1 PDF draws every item that meets it, and the PDF writer
    stores each path whole: ten hills of 10,000 points across a 132" table
    wrote all their points (and their contour rings') on each of 248 pages,
    515 MB in 134 s.  With :attr:`clip` set (device units: the page's picture),
    each path drawn is cut to that rectangle widened by :data:`CLIP_MARGIN`
    first.  What lies inside looks exactly as before: a filled ring keeps its
    winding number at every point inside, a stroked line keeps every segment
    that meets the rectangle whole, and the cut edges and new line ends lie in
    the margin, which the painter's clip hides.  Subpaths wholly outside are
    dropped, wholly inside kept as they are.

    A path wholly outside is dropped (a tree crown of woods across the table).
    Only paths of straight lines of :data:`CLIP_MIN_ELEMENTS` elements or more
    are cut (outlines, contours, hatching, section lines); curves, dashed pens,
    pens wider than the margin and open subpaths both filled and stroked are
    drawn as they are.  The scene's items call ``drawPath`` on the painter they
    are given, which is this one.
    """

    CLIP_MARGIN = 1.0
    """Inches the cut lies outside the picture: more than any pen's half width and join."""
    CLIP_MIN_ELEMENTS = 64

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.clip: QRectF | None = None
        self.units_per_inch = 1.0

    def drawPath(self, path: QPainterPath) -> None:
        cut = self._cut(path) if self.clip is not None else path
        if cut is not None:
            super().drawPath(cut)

    def _cut(self, path: QPainterPath) -> QPainterPath | None:
        assert self.clip is not None
        inverse, ok = self.worldTransform().inverted()
        if not ok:
            return path
        m = self.CLIP_MARGIN * self.units_per_inch
        area = inverse.mapRect(self.clip.adjusted(-m, -m, m, m))
        pen, filled = self.pen(), self.brush().style() != Qt.BrushStyle.NoBrush
        stroked = pen.style() != Qt.PenStyle.NoPen
        if stroked and (
            pen.isCosmetic() or 4 * pen.widthF() > inverse.mapRect(QRectF(0, 0, m, m)).width()
        ):
            return path  # a pen that may reach past the margin
        box = path.controlPointRect()
        left, top, right, bottom = box.left(), box.top(), box.right(), box.bottom()
        if right < area.left() or left > area.right() or bottom < area.top() or top > area.bottom():
            return None  # wholly outside: its pen reaches less than the margin past it
        if path.elementCount() < self.CLIP_MIN_ELEMENTS or (
            left >= area.left()
            and right <= area.right()
            and top >= area.top()
            and bottom <= area.bottom()
        ):
            return path
        if stroked and pen.style() != Qt.PenStyle.SolidLine:
            return path  # a cut would restart the dashes
        read = path_lines(path)
        if read is None:
            return path
        xy, starts = read
        rect = (area.left(), area.top(), area.right(), area.bottom())
        pieces: list[np.ndarray] = []
        ends = [*starts[1:].tolist(), len(xy)]
        lo_x, lo_y = np.minimum.reduceat(xy[:, 0], starts), np.minimum.reduceat(xy[:, 1], starts)
        hi_x, hi_y = np.maximum.reduceat(xy[:, 0], starts), np.maximum.reduceat(xy[:, 1], starts)
        inside = (lo_x >= rect[0]) & (hi_x <= rect[2]) & (lo_y >= rect[1]) & (hi_y <= rect[3])
        outside = (hi_x < rect[0]) | (lo_x > rect[2]) | (hi_y < rect[1]) | (lo_y > rect[3])
        for k, (start, end) in enumerate(zip(starts.tolist(), ends, strict=True)):
            points = xy[start:end]
            if outside[k] or len(points) < 2:
                continue  # it has no point inside, nor winds round one, nor reaches in
            if inside[k]:
                pieces.append(points)
                continue
            closed = len(points) > 2 and bool(np.all(points[0] == points[-1]))
            if filled:
                if stroked and not closed:
                    return path
                ring = clip_ring(points, rect)
                if len(ring) >= 3:
                    pieces.append(np.concatenate([ring, ring[:1]]))
            else:
                pieces.extend(clip_line(points, rect, closed))
        return path_of_lines(pieces, path.fillRule())


_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
"""A path element as ``QDataStream`` writes a QPainterPath: type, x, y (big-endian)."""


def path_lines(path: QPainterPath) -> tuple[np.ndarray, np.ndarray] | None:
    """A path of straight lines as its points (n x 2) and where each subpath starts;
    None when it has curves.  Read through Qt's own serialisation (fast for long paths)."""
    data = QByteArray()
    stream = QDataStream(data, QIODevice.OpenModeFlag.WriteOnly)
    stream << path
    raw = data.data()
    count = int.from_bytes(raw[:4], "big")
    elements = np.frombuffer(raw, _ELEMENT, count=count, offset=4)
    kinds = elements["type"]
    if count == 0 or kinds[0] != 0 or np.any(kinds > 1):
        return None
    xy = np.column_stack([elements["x"], elements["y"]]).astype(np.float64)
    return xy, np.flatnonzero(kinds == 0)


def path_of_lines(pieces: list[np.ndarray], fill_rule: Qt.FillRule) -> QPainterPath:
    """A path of these polylines (a closed ring ends on its first point, as Qt closes one)."""
    pieces = [p for p in pieces if len(p) >= 2]
    path = QPainterPath()
    path.setFillRule(fill_rule)
    if not pieces:
        return path
    xy = np.concatenate(pieces)
    elements = np.empty(len(xy), _ELEMENT)
    elements["x"], elements["y"] = xy[:, 0], xy[:, 1]
    kinds = np.ones(len(xy), np.int32)
    firsts = np.cumsum([0, *[len(p) for p in pieces[:-1]]])
    kinds[firsts] = 0
    elements["type"] = kinds
    fill = 1 if fill_rule == Qt.FillRule.WindingFill else 0
    raw = (
        len(xy).to_bytes(4, "big")
        + elements.tobytes()
        + int(firsts[-1]).to_bytes(4, "big")
        + fill.to_bytes(4, "big")
    )
    buffer = QByteArray(raw)  # kept referenced while the stream reads it
    stream = QDataStream(buffer, QIODevice.OpenModeFlag.ReadOnly)
    stream >> path
    return path


def clip_ring(points: np.ndarray, rect: tuple[float, float, float, float]) -> np.ndarray:
    """A closed ring cut to the rectangle (Sutherland-Hodgman): every point inside the
    rectangle keeps its winding number, so the fill there is the same."""
    x0, y0, x1, y1 = rect
    for axis, bound, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        if len(points) == 0:
            break
        d = points[:, axis] - bound if keep_above else bound - points[:, axis]
        inside = d >= 0
        if inside.all():
            continue
        prev, d_prev, in_prev = np.roll(points, 1, axis=0), np.roll(d, 1), np.roll(inside, 1)
        cross = inside != in_prev
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(cross, d_prev / (d_prev - d), 0.0)
        meet = prev + t[:, None] * (points - prev)
        both = np.stack([meet, points], axis=1)
        points = both[np.stack([cross, inside], axis=1)]
    return points


def clip_line(
    points: np.ndarray, rect: tuple[float, float, float, float], closed: bool
) -> list[np.ndarray]:
    """The runs of a polyline's segments that meet the rectangle, each segment whole (a
    closed ring's run through its first point kept as one line)."""
    x0, y0, x1, y1 = rect
    a, b = points[:-1], points[1:]
    keep = (
        (np.maximum(a[:, 0], b[:, 0]) >= x0)
        & (np.minimum(a[:, 0], b[:, 0]) <= x1)
        & (np.maximum(a[:, 1], b[:, 1]) >= y0)
        & (np.minimum(a[:, 1], b[:, 1]) <= y1)
    )
    if keep.all():
        return [points]
    edges = np.diff(np.concatenate([[0], keep.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    runs = [points[s : e + 1] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)]
    if closed and len(runs) > 1 and keep[0] and keep[-1]:
        runs[0] = np.concatenate([runs.pop(), runs[0][1:]])
    return runs
