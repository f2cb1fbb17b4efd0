"""Scene items that project the battlefield model: the table, terrain and figures.

Each item holds the id of the model object it shows and a ``sync_from_model()``
that re-reads that object; the scene calls it when the model announces a
change.  Items never change the model themselves (issue 6's tools and undo
commands do that), so the scene stays a pure projection (STYLE 5).

Terrain drawing is split into one *look* per kind (:data:`TERRAIN_LOOKS`), a
small class that precomputes its paths once per sync and paints them; a theme
or a later issue can register another look without touching the item.
"""

from __future__ import annotations

import html
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import numpy.random  # imported lazily by numpy otherwise: ~25 ms on the first table
import shapely
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPaintEngine,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QRadialGradient,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)
from shapely.geometry.base import BaseGeometry

from crdesk.geometry.measure import compass
from crdesk.model import (
    Battlefield,
    Building,
    CoverObstacle,
    CoverType,
    Figure,
    Hill,
    OpeningKind,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
)
from ui.scene.ground import GroundLayer, ground_changed, ground_rect
from ui.scene.layers import TERRAIN_LAYER, ItemType, Layer
from ui.scene.shapes import (
    dashed_stroke,
    disc_paths,
    drawable,
    hatch_path,
    inset_paths,
    line_path,
    long_axis_angle,
    polygon_path,
    scatter,
    seeded_random,
    text_path,
    union_path,
)
from ui.scene.style import TableStyle

# --------------------------------------------------------------------------
# helpers


def _pen(color: QColor, width: float, *, round_join: bool = True) -> QPen:
    pen = QPen(color, width)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin if round_join else Qt.PenJoinStyle.MiterJoin)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return pen


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * t,
        a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t,
        a.alphaF() + (b.alphaF() - a.alphaF()) * t,
    )


def _blob(centre: QPointF, radius: float, rng: random.Random, corners: int = 7) -> QPolygonF:
    """An irregular convex-ish polygon: a rock, a stone, a lump of rubble."""
    start = rng.uniform(0, math.tau)
    points = []
    for k in range(corners):
        a = start + k * math.tau / corners + rng.uniform(-0.25, 0.25)
        r = radius * rng.uniform(0.7, 1.0)
        points.append(QPointF(centre.x() + r * math.cos(a), centre.y() + r * math.sin(a)))
    return QPolygonF(points)


def _rocks(outline: BaseGeometry, spots: list[QPointF], rng: random.Random) -> QPainterPath:
    """Boulders like :func:`_blob` at ``spots`` wholly inside the outline, as one path.

    Rolled, placed and tested in numpy and GEOS at once: a rocky table has a
    thousand candidates, too many for a Python loop when the table opens.
    """
    if not spots:
        return QPainterPath()
    corners = 7
    dice = np.random.default_rng(rng.getrandbits(64))
    n = len(spots)
    radius = dice.uniform(0.25, 0.55, (n, 1)) * dice.uniform(0.7, 1.0, (n, corners))
    angle = (
        dice.uniform(0, math.tau, (n, 1))
        + np.arange(corners) * (math.tau / corners)
        + dice.uniform(-0.25, 0.25, (n, corners))
    )
    centres = np.array([(p.x(), p.y()) for p in spots])
    xs = centres[:, :1] + radius * np.cos(angle)
    ys = centres[:, 1:] + radius * np.sin(angle)
    boxes = shapely.box(xs.min(axis=1), ys.min(axis=1), xs.max(axis=1), ys.max(axis=1))
    keep = shapely.contains(drawable(outline), boxes)
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    move, line = path.moveTo, path.lineTo
    for rx, ry in zip(xs[keep].tolist(), ys[keep].tolist(), strict=True):
        move(rx[0], ry[0])
        for x, y in zip(rx[1:], ry[1:], strict=True):
            line(x, y)
        path.closeSubpath()
    return path


def _stroke(painter: QPainter, path: QPainterPath, pen: QPen) -> None:
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)


def _fill(painter: QPainter, path: QPainterPath, brush: QColor | QBrush) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(brush)
    painter.drawPath(path)


# --------------------------------------------------------------------------
# the table

_CLOTH_CACHE: dict[tuple[float, ...], QImage] = {}
"""Cloth images by table size and style: export and the window share one."""


Sprite = tuple[QImage, float]
"""A picture centred in an image, and half the image's size in logical pixels."""
_SPRITES: dict[tuple[object, ...], Sprite] = {}
SPRITE_BYTES = 48 << 20
"""Memory kept in sprites (fades, crowns and shadows, figure bases: a few zoom levels)."""
_sprite_bytes = 0
_SPRITE_LOCK = threading.Lock()
"""The cloth of a file being opened is painted in a worker thread (ui/progress.py)."""


def _sprite(
    key: tuple[object, ...],
    reach: float,
    scale: float,
    dpr: float,
    paint: Callable[[QPainter], None],
) -> Sprite:
    """What ``paint`` draws within ``reach`` inches of (0, 0), at ``scale`` pixels per
    inch, pre-rendered once and shared by every item that looks the same (``key``).

    Blitting a sprite costs a few microseconds where painting a gradient or an
    antialiased path costs tens: a table has hundreds of crowns and figures.
    """
    sprite = _SPRITES.get(key)
    if sprite is not None:
        return sprite
    with _SPRITE_LOCK:
        if (sprite := _SPRITES.get(key)) is not None:
            return sprite
        half = math.ceil(reach * scale) + 1
        size = math.ceil(2 * half * dpr)
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(half, half)
        painter.scale(scale, scale)
        paint(painter)
        painter.end()
        global _sprite_bytes
        _sprite_bytes += image.sizeInBytes()
        while _SPRITES and _sprite_bytes > SPRITE_BYTES:  # the oldest go first
            _sprite_bytes -= _SPRITES.pop(next(iter(_SPRITES)))[0].sizeInBytes()
        sprite = _SPRITES[key] = (image, float(half))
    return sprite


CLOTH_STEP = 0.25
"""Cloth blotch radii are rounded to this (inches): a dozen fades draw them all."""


def _fade_sprite(colour: QColor, r: float, ppi: float) -> Sprite:
    """A disc of ``colour`` fading from opaque at the centre to clear at radius ``r``."""

    def paint(painter: QPainter) -> None:
        grad = QRadialGradient(QPointF(0, 0), r)
        grad.setColorAt(0.0, colour)
        clear = QColor(colour)
        clear.setAlpha(0)
        grad.setColorAt(1.0, clear)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(grad))
        painter.drawEllipse(QPointF(0, 0), r, r)

    return _sprite(("fade", colour.rgba(), r, ppi), r, ppi, 1.0, paint)


def cloth_image(table: Table, style: TableStyle) -> QImage:
    """The cloth's soft mottling for this table and style (painted once, then shared).

    The blotches are blurry by design, so a few pixels per inch, smoothly
    scaled, look the same as vector gradients while costing one image blit
    per repaint at any zoom (issue 6 needs fast zoom steps).  Each blotch is
    a radial fade blitted, at its opacity, from a few pre-rendered ones:
    a gradient fill per blotch took some 100 ms for a 6' x 4' table, a
    freeze on opening it.  Thread safe (QImage painting): a file being opened
    has its cloth painted in the worker (a 480" table's takes a second).
    """
    key = (
        table.width,
        table.height,
        *(c.rgba() for c in (style.cloth, style.cloth_light, style.cloth_dark)),
    )
    cloth = _CLOTH_CACHE.get(key)
    if cloth is not None:
        return cloth
    w, h = table.width, table.height
    ppi = TableItem.CLOTH_PPI
    image = QImage(
        max(1, math.ceil(w * ppi)), max(1, math.ceil(h * ppi)), QImage.Format.Format_RGB32
    )
    image.fill(style.cloth)
    sx, sy = image.width() / w, image.height() / h
    painter = QPainter(image)
    rng = seeded_random(f"table-{w}x{h}")
    for _ in range(int(w * h / 5) + 8):
        r = round(rng.uniform(1.5, 4.5) / CLOTH_STEP) * CLOTH_STEP
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        light = rng.random() < 0.5
        painter.setOpacity(rng.uniform(0.25, 0.6))
        tone = style.cloth_light if light else style.cloth_dark
        fade, half = _fade_sprite(tone, r, sx)
        painter.drawImage(QPointF(cx * sx - half, cy * sy - half), fade)
    painter.end()
    _CLOTH_CACHE[key] = image
    return image


class TableItem(QGraphicsItem):
    """The cloth on its wooden table, with the far and player's edges labelled."""

    Type = ItemType.TABLE
    FRAME = 0.8
    """Width of the wooden rim around the cloth, in inches (outside the table)."""
    CLOTH_PPI = 6
    """Resolution of the cloth's mottling image, in pixels per inch."""

    def __init__(self, table: Table, style: TableStyle) -> None:
        super().__init__()
        self._style = style
        self._table = table
        self._cloth = QImage()
        self._labels: list[QPainterPath] = []
        self.ground: GroundLayer | None = None
        """The scene's ground layer, which paints and caches this item."""
        self.setZValue(Layer.TABLE)
        self.sync_from_model(table)

    def type(self) -> int:
        return int(self.Type)

    @property
    def table_rect(self) -> QRectF:
        return QRectF(0, 0, self._table.width, self._table.height)

    def sync_from_model(self, table: Table) -> None:
        """Lay the cloth's mottling (seeded by size, so it never flickers) and labels."""
        old = ground_rect(self)
        self.prepareGeometryChange()
        self._table = table
        w, h = table.width, table.height
        self._cloth = cloth_image(table, self._style)
        label_h = self.FRAME * 0.42
        family = self._style.font_family
        # two paths: one spanning the table would cost the rasteriser far more
        self._labels = [
            text_path("FAR EDGE", label_h, family).translated(w / 2, -self.FRAME / 2),
            text_path("PLAYER'S EDGE", label_h, family).translated(w / 2, h + self.FRAME / 2),
        ]
        self.update()
        ground_changed(self, old)

    def boundingRect(self) -> QRectF:
        f = self.FRAME + 0.2
        return self.table_rect.adjusted(-f, -f, f, f)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        style = self._style
        cloth = self.table_rect
        frame = cloth.adjusted(-self.FRAME, -self.FRAME, self.FRAME, self.FRAME)
        painter.setPen(_pen(style.frame_edge, 0.08))
        painter.setBrush(style.frame)
        painter.drawRoundedRect(frame, 0.35, 0.35)
        for label in self._labels:
            _fill(painter, label, style.edge_label)
        painter.drawImage(cloth, self._cloth)
        painter.setPen(_pen(style.frame_edge, 0.06))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(cloth)


# --------------------------------------------------------------------------
# terrain looks


class TerrainLook:
    """How one kind of terrain is drawn: paths precomputed from the feature, then painted."""

    margin: ClassVar[float] = 0.15
    """How far (inches) the drawing may spill past the outline: pens, shadows."""

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        self.feature = feature
        self.style = style
        self.outline = polygon_path(feature.outline)

    def bounding_rect(self) -> QRectF:
        m = self.margin
        return self.outline.boundingRect().adjusted(-m, -m, m, m)

    def paint(self, painter: QPainter) -> None:
        _fill(painter, self.outline, self.style.cloth_dark)


@dataclass(slots=True)
class _Disc:
    """A tree crown or its shadow."""

    x: float
    y: float
    r: float
    colour: QColor
    shaded: bool
    """A crown (lit from the upper left) rather than a flat shadow."""


CROWN_STEP = 0.02
"""Crown radii are rounded to this (inches), so a few sprites per zoom draw every crown."""
MAX_CROWN_SPRITE = 160
"""Pixels across above which crowns are painted as paths (zoomed far in: few crowns)."""
SHADOW_OFFSET = (0.12, 0.15)
"""Where a crown's shadow falls (inches), lit from the upper left."""


class WoodsLook(TerrainLook):
    """Woods: a dark floor under tree crowns, clipped to a darker edge (digest 7.9.5).

    On screen the crowns and their shadows are blitted from sprites shared by
    every wood at this zoom, clipped to the outline (a gradient fill per crown
    costs some 70 us, a blit a few, and a big wood has hundreds of crowns:
    issue 6, no freeze on opening a table).  Exports paint them as vectors cut
    to the outline with GEOS, made on first use (a union of hundreds of discs
    takes a good part of a second).
    """

    spacing: ClassVar[float] = 1.15
    crown: ClassVar[tuple[float, float]] = (0.55, 0.85)

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        rng = seeded_random(feature.id)
        spots = [
            (
                p.x(),
                p.y(),
                round(rng.uniform(*self.crown) / CROWN_STEP) * CROWN_STEP,
                rng.choice(style.canopy),
            )
            for p in scatter(self.outline, self.spacing, rng)
        ]
        spots.sort(key=lambda c: c[1])  # back to front
        shade = self.shadow_colour()
        ox, oy = SHADOW_OFFSET
        self.crowns = [_Disc(x, y, r, c, True) for x, y, r, c in spots]
        self.shadows = [_Disc(d.x + ox, d.y + oy, d.r, shade, False) for d in self.crowns]
        discs = (*self.shadows, *self.crowns)
        self._disc_x = np.array([d.x for d in discs], dtype=float)
        self._disc_y = np.array([d.y for d in discs], dtype=float)
        self._sprites: list[tuple[QImage, float]] = []
        self._sprites_for: tuple[float, float] | None = None
        self._vector: tuple[QPainterPath, list[tuple[QPainterPath, QBrush]]] | None = None

    def shadow_colour(self) -> QColor:
        """The crowns' shadow, opaque: it falls on the plain floor, so overlaps need no union."""
        shade = QColor(self.style.canopy_shadow)
        alpha = shade.alphaF()
        shade.setAlpha(255)
        return _blend(self.style.woods_floor, shade, alpha)

    def vector_parts(self) -> tuple[QPainterPath, list[tuple[QPainterPath, QBrush]]]:
        """The shadows' union and the crowns, cut to the outline: what exports paint."""
        if self._vector is None:
            outline = self.feature.outline
            radii = [d.r for d in self.crowns]
            shadow = union_path(outline, [(d.x, d.y) for d in self.shadows], radii)
            paths = disc_paths(outline, [(d.x, d.y) for d in self.crowns], radii)
            crowns = [
                (path, _crown_brush(QPointF(d.x, d.y), d.r, d.colour))
                for d, path in zip(self.crowns, paths, strict=True)
            ]
            self._vector = (shadow, crowns)
        return self._vector

    def paint_floor(self, painter: QPainter) -> None:
        _fill(painter, self.outline, self.style.woods_floor)

    def paint_crowns(self, painter: QPainter) -> None:
        world = painter.worldTransform()
        engine = painter.paintEngine()
        scale = world.m11()
        if (
            engine is None
            or engine.type() != QPaintEngine.Type.Raster
            or world.type() not in _SCALE_ONLY
            or scale != world.m22()
            or scale * 2 * self.crown[1] > MAX_CROWN_SPRITE
        ):  # SVG and PDF exports stay vector, and so do crowns zoomed far in
            shadow, crowns = self.vector_parts()
            _fill(painter, shadow, self.style.canopy_shadow)
            for path, brush in crowns:
                painter.setBrush(brush)
                painter.drawPath(path)
            return
        dpr = painter.device().devicePixelRatioF()
        dx, dy = world.dx(), world.dy()
        painter.save()
        # discs cut at the wood's edge: clipped (the edge's stroke covers the cut)
        painter.setClipPath(self.outline, Qt.ClipOperation.IntersectClip)
        painter.setWorldTransform(QTransform())
        key = (scale, dpr)
        if self._sprites_for != key:  # a new zoom: look the sprites up once
            discs = (*self.shadows, *self.crowns)
            self._sprites = [_disc_sprite(d, scale, dpr) for d in discs]
            self._sprites_for = key
        # whole device pixels, then back to logical ones, less the sprite's half size
        xs = np.round((self._disc_x * scale + dx) * dpr) / dpr
        ys = np.round((self._disc_y * scale + dy) * dpr) / dpr
        draw = painter.drawImage
        for x, y, (image, half) in zip(xs.tolist(), ys.tolist(), self._sprites, strict=True):
            draw(QPointF(x - half, y - half), image)
        painter.restore()

    def paint(self, painter: QPainter) -> None:
        self.paint_floor(painter)
        self.paint_crowns(painter)
        _stroke(painter, self.outline, _pen(self.style.woods_edge, 0.12))


def _crown_brush(centre: QPointF, r: float, colour: QColor) -> QBrush:
    """A crown's shading: lit from the upper left."""
    grad = QRadialGradient(centre + QPointF(-0.3 * r, -0.35 * r), r * 1.3)
    grad.setColorAt(0.0, colour.lighter(135))
    grad.setColorAt(0.55, colour)
    grad.setColorAt(1.0, colour.darker(125))
    return QBrush(grad)


def _disc_sprite(disc: _Disc, scale: float, dpr: float) -> Sprite:
    """A crown or a shadow at ``scale`` pixels per inch."""

    def paint(painter: QPainter) -> None:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), disc.r, disc.r)
        shade = _crown_brush(QPointF(0, 0), disc.r, disc.colour)
        _fill(painter, path, shade if disc.shaded else QBrush(disc.colour))

    key = ("disc", disc.r, disc.colour.rgba(), disc.shaded, round(scale, 6), dpr)
    return _sprite(key, disc.r, scale, dpr, paint)


class HillLook(TerrainLook):
    """A hill: ochre footprint, lighter contour steps, and the crest as a dashed ridge (9.4)."""

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        self.rings = inset_paths(feature.outline, 0.75, 3)
        crest = feature.crest if isinstance(feature, Hill) else None
        self.crest = line_path(crest) if crest is not None else QPainterPath()
        self.ridge = dashed_stroke(self.crest, 0.13, [2.2, 1.4], round_caps=True)

    def paint_ground(self, painter: QPainter) -> None:
        style = self.style
        _fill(painter, self.outline, style.hill)
        contour = _pen(style.contour, 0.035)
        for n, ring in enumerate(self.rings, start=1):
            _fill(painter, ring, _blend(style.hill, style.hill_step, n / 3))
            _stroke(painter, ring, contour)
        _stroke(painter, self.outline, _pen(style.hill_edge, 0.09))

    def paint_crest(self, painter: QPainter) -> None:
        if self.crest.isEmpty():
            return
        _stroke(painter, self.crest, _pen(QColor(255, 245, 215, 110), 0.26))
        _fill(painter, self.ridge, self.style.crest)

    def paint(self, painter: QPainter) -> None:
        self.paint_ground(painter)
        self.paint_crest(painter)


class WoodedHillLook(HillLook):
    """A wooded hill: the hill's ground and crest with woods' crowns between them."""

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        self.woods = _SparseWoods(feature, style)

    def paint(self, painter: QPainter) -> None:
        self.paint_ground(painter)
        self.woods.paint_crowns(painter)
        self.paint_crest(painter)


class _SparseWoods(WoodsLook):
    spacing: ClassVar[float] = 1.45
    crown: ClassVar[tuple[float, float]] = (0.45, 0.65)

    def shadow_colour(self) -> QColor:
        """See-through shadows on a hill's shaded ground (sparse crowns' barely overlap)."""
        return QColor(self.style.canopy_shadow)


class BuildingLook(TerrainLook):
    """A building seen from above: roof shaded by floors, areas, walls, doors and windows (8)."""

    margin: ClassVar[float] = 0.45

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        assert isinstance(feature, Building)
        self.floors = feature.floors
        self.roof_lines = hatch_path(feature.outline, 0, 0.3)
        self.areas = [polygon_path(a) for a in feature.areas]
        self.doors = [
            QLineF(*o.start, *o.end) for o in feature.openings if o.kind is OpeningKind.DOOR
        ]
        self.windows = [
            QLineF(*o.start, *o.end) for o in feature.openings if o.kind is OpeningKind.WINDOW
        ]
        anchor = (feature.areas[0] if feature.areas else feature.outline).representative_point()
        self.badge = QRectF(anchor.x - 0.45, anchor.y - 0.28, 0.9, 0.56)
        self.badge_text = text_path(f"{self.floors}F", 0.3, style.font_family).translated(
            anchor.x, anchor.y
        )

    def roof_colour(self) -> QColor:
        return self.style.roof.darker(100 + 16 * max(self.floors - 1, 0))

    def paint(self, painter: QPainter) -> None:
        style = self.style
        lift = 0.18 + 0.08 * self.floors
        _fill(painter, self.outline.translated(lift, lift * 1.2), style.shadow)
        _fill(painter, self.outline, self.roof_colour())
        _stroke(painter, self.roof_lines, QPen(QColor(0, 0, 0, 18), 0.025))
        area_pen = _pen(style.roof_area_line, 0.05)
        for area in self.areas:
            _stroke(painter, area, area_pen)
        _stroke(painter, self.outline, _pen(style.wall, 0.16, round_join=False))
        door_pen = QPen(style.door, 0.26)
        door_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(door_pen)
        for door in self.doors:
            painter.drawLine(door)
        window_pen = QPen(style.window, 0.2)
        window_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        mullion = QPen(style.wall, 0.035)
        mullion.setCapStyle(Qt.PenCapStyle.FlatCap)
        for window in self.windows:
            painter.setPen(window_pen)
            painter.drawLine(window)
            painter.setPen(mullion)
            painter.drawLine(window)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.floors_badge)
        painter.drawRoundedRect(self.badge, 0.12, 0.12)
        _fill(painter, self.badge_text, style.floors_text)


class ImpassableLook(TerrainLook):
    """Impassable ground: dark rock, hatched, with a few boulders."""

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        rng = seeded_random(feature.id)
        self.hatch = hatch_path(feature.outline, 45, 0.32)
        self.rocks = _rocks(feature.outline, scatter(self.outline, 1.5, rng), rng)

    def paint(self, painter: QPainter) -> None:
        style = self.style
        _fill(painter, self.outline, style.rock)
        _stroke(painter, self.hatch, QPen(style.rock_hatch, 0.05))
        painter.setPen(_pen(style.rock_hatch, 0.04))
        painter.setBrush(style.rock_light)
        painter.drawPath(self.rocks)
        _stroke(painter, self.outline, _pen(style.rock_edge, 0.13))


class CoverLook(TerrainLook):
    """A cover obstacle (7.9.5): a stone wall, a rubble heap, a vehicle, or other."""

    margin: ClassVar[float] = 0.35

    def __init__(self, feature: TerrainFeature, style: TableStyle) -> None:
        super().__init__(feature, style)
        self.cover_type = (
            feature.cover_type if isinstance(feature, CoverObstacle) else CoverType.OTHER
        )
        rng = seeded_random(feature.id)
        angle = long_axis_angle(feature.outline)
        self.joints = QPainterPath()
        self.stones: list[tuple[QPolygonF, QColor]] = []
        self.roof = QPainterPath()
        base = style.cover[self.cover_type]
        if self.cover_type is CoverType.WALL:
            self.joints = hatch_path(feature.outline, angle + 90, 0.42)
        elif self.cover_type is CoverType.RUBBLE:
            for p in scatter(self.outline, 0.38, rng, jitter=0.45):
                shade = base.lighter(rng.randint(80, 135))
                self.stones.append((_blob(p, rng.uniform(0.1, 0.24), rng, corners=5), shade))
        elif self.cover_type is CoverType.VEHICLE:
            rings = inset_paths(feature.outline, 0.28, 1)
            self.roof = rings[0] if rings else QPainterPath()
        else:
            self.joints = hatch_path(feature.outline, 45, 0.3)

    def paint(self, painter: QPainter) -> None:
        style = self.style
        base = style.cover[self.cover_type]
        if self.cover_type is not CoverType.RUBBLE:
            _fill(painter, self.outline.translated(0.1, 0.13), style.shadow)
        if self.cover_type is CoverType.RUBBLE:
            faded = QColor(base)
            faded.setAlphaF(0.55)
            _fill(painter, self.outline, faded)
            painter.setPen(_pen(style.cover_edge, 0.025))
            for stone, shade in self.stones:
                painter.setBrush(shade)
                painter.drawPolygon(stone)
            return
        _fill(painter, self.outline, base)
        if not self.joints.isEmpty():
            _stroke(painter, self.joints, QPen(style.cover_edge, 0.03))
        if not self.roof.isEmpty():
            _fill(painter, self.roof, base.lighter(125))
            _stroke(painter, self.roof, _pen(base.darker(140), 0.03))
        _stroke(painter, self.outline, _pen(style.cover_edge, 0.06))


TERRAIN_LOOKS: dict[TerrainKind, type[TerrainLook]] = {
    TerrainKind.WOODS: WoodsLook,
    TerrainKind.HILL: HillLook,
    TerrainKind.WOODED_HILL: WoodedHillLook,
    TerrainKind.BUILDING: BuildingLook,
    TerrainKind.IMPASSABLE: ImpassableLook,
    TerrainKind.COVER: CoverLook,
}
"""The look used for each kind; replace an entry to restyle a kind everywhere."""


def make_look(feature: TerrainFeature, style: TableStyle) -> TerrainLook:
    """The drawing of one feature: paths, decoration and colours, no Qt object.

    Thread safe (QPainterPath, QPolygonF, GEOS, the seeded decoration): a file
    being opened has its thousand features' looks made in the worker, where
    they cost seconds, and only the items are created on the GUI thread.
    """
    return TERRAIN_LOOKS.get(feature.kind, TerrainLook)(feature, style)


def terrain_tooltip(feature: TerrainFeature) -> str:
    """What a player hovering over a feature wants to know, in the game's words."""
    lines = [f"<b>{html.escape(feature.name or feature.id)}</b>", feature.kind.label]
    if isinstance(feature, Building):
        lines.append(f"{feature.floors} floor{'s' if feature.floors != 1 else ''}")
        lines.append(f"{len(feature.areas)} area{'s' if len(feature.areas) != 1 else ''}")
    if isinstance(feature, CoverObstacle):
        lines.append(f"Cover: {feature.cover_type.value}")
    return "<br>".join(lines)


class TerrainItem(QGraphicsItem):
    """One terrain feature, drawn by the look of its kind.

    The item sits at the scene origin and paints the outline in scene (inch)
    coordinates.  On screen the scene's :class:`~ui.scene.ground.GroundLayer`
    paints it into cached tiles together with all the other terrain, so a
    repaint is a few pixmap blits, which keeps figure drags and LOS lines over
    busy tables fast (issue 6); exports let it paint itself, as vectors.
    """

    Type = ItemType.TERRAIN

    def __init__(
        self,
        battlefield: Battlefield,
        feature_id: str,
        style: TableStyle,
        look: TerrainLook | None = None,
    ) -> None:
        """``look``: the feature's drawing made beforehand (:func:`make_look`, in a
        worker while a file opens), used when it is of this feature as it is now."""
        super().__init__()
        self.model_id = feature_id
        self._battlefield = battlefield
        self._style = style
        self._look: TerrainLook | None = None
        self._highlighted = False
        self._bounds = QRectF()
        self.kind = TerrainKind.WOODS
        self.ground: GroundLayer | None = None
        """The scene's ground layer, which paints and caches this item."""
        self.sync_from_model(look)

    def type(self) -> int:
        return int(self.Type)

    @property
    def look(self) -> TerrainLook:
        assert self._look is not None
        return self._look

    def sync_from_model(self, look: TerrainLook | None = None) -> None:
        """Re-read the feature and rebuild its drawing (outline, crest, areas...)."""
        feature = self._battlefield.feature(self.model_id)
        old = ground_rect(self)
        self.prepareGeometryChange()
        self.kind = feature.kind
        if look is None or look.feature is not feature or look.style is not self._style:
            look = make_look(feature, self._style)
        self._look = look
        self._bounds = self._look.bounding_rect()
        self.setPos(0, 0)
        self.setToolTip(terrain_tooltip(feature))
        self.update()
        ground_changed(self, old)

    def set_highlighted(self, on: bool) -> None:
        """Outline the feature, e.g. when the editor's document selects it (issue 6)."""
        if on != self._highlighted:
            self._highlighted = on
            self.update()
            ground_changed(self)

    def is_highlighted(self) -> bool:
        return self._highlighted

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self.look.outline

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        self.look.paint(painter)
        if self._highlighted:
            _paint_highlight(painter, self.look.outline, self._style)


def _paint_highlight(painter: QPainter, path: QPainterPath, style: TableStyle) -> None:
    """A two-tone dashed outline, 2 screen pixels wide at any zoom (cosmetic pens)."""
    dark = QPen(QColor(0, 0, 0, 160), 0)
    dark.setWidthF(4)
    dark.setCosmetic(True)
    light = QPen(style.highlight, 0)
    light.setWidthF(2)
    light.setCosmetic(True)
    light.setDashPattern([4, 3])
    for pen in (dark, light):
        _stroke(painter, path, pen)


def terrain_z(kind: TerrainKind, index: int) -> float:
    """The z of a feature: its kind's layer, then its drawing order within the layer."""
    return float(TERRAIN_LAYER.get(kind, Layer.HILL)) + index * 1e-4


# --------------------------------------------------------------------------
# figures


def figure_tooltip(figure: Figure, force_name: str, facing_note: str = "") -> str:
    """Name, Star/Grunt, Rep, weapons, status and facing of a figure, for its tooltip.

    The facing is said in words ("Faces north-east (47°)": north is the far edge),
    or by ``facing_note`` when the play mode knows more (what stands behind it).
    """
    role = "Star" if figure.is_star else "Grunt"
    weapon = "unarmed" if figure.weapon.value == "none" else figure.weapon.value
    lines = [
        f"<b>{html.escape(figure.name)}</b> ({role})",
        f"Rep {figure.rep} · {weapon}",
        f"Status: {figure.status.label}",
    ]
    if figure.melee.value != "none":
        lines.insert(2, f"Melee: {figure.melee.value.replace('_', '-')}")
    if force_name:
        lines.append(f"Side: {html.escape(force_name)}")
    lines.append(
        html.escape(facing_note)
        if facing_note
        else f"Faces {compass(figure.facing)} ({figure.facing:.0f}°)"
    )
    return "<br>".join(lines)


FigureNote = Callable[[str], str]
"""What a scene may say of a figure's facing in its tooltip, by figure id (the play mode:
what it cannot see behind it); the scene's ``figure_note``, asked on hover."""


def _star(centre: QPointF, outer: float) -> QPolygonF:
    inner = outer * 0.45
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / 5
        points.append(QPointF(centre.x() + r * math.cos(a), centre.y() + r * math.sin(a)))
    return QPolygonF(points)


class FigureItem(QGraphicsItem):
    """A figure on its round base: side colour, its front, Rep, Star marker, status.

    The item's position is the figure's centre; its facing is painted, not applied
    as item rotation, so the Rep number always reads upright.
    """

    Type = ItemType.FIGURE

    def __init__(self, battlefield: Battlefield, figure_id: str, style: TableStyle) -> None:
        super().__init__()
        self.model_id = figure_id
        self._battlefield = battlefield
        self._style = style
        self._appearance: tuple[object, ...] = ()
        self._radius = 0.5
        self._facing = 0.0
        self._colour = QColor("#888888")
        self._status = Status.CARRY_ON
        self._star = False
        self._rep = QPainterPath()
        self._bounds = QRectF()
        self._marks = _FigureMarks()
        self._preview_facing: float | None = None
        self._highlighted = False
        self._force_name = ""
        self.setZValue(Layer.FIGURES)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(True)  # the tooltip's facing note is asked on hover
        self.sync_from_model()

    def type(self) -> int:
        return int(self.Type)

    def sync_from_model(self) -> None:
        """Move to the figure's position; repaint only if its looks changed."""
        figure = self._battlefield.figure(self.model_id)
        force_name, colour = "", "#888888"
        try:
            force = self._battlefield.force(figure.side)
            force_name, colour = force.name, force.colour
        except ValueError:
            pass
        self.setPos(figure.x, figure.y)
        appearance = (figure.radius, figure.facing, colour, figure.status, figure.role, figure.rep)
        if appearance != self._appearance:
            if figure.radius != self._radius:
                self.prepareGeometryChange()
            self._appearance = appearance
            self._radius = figure.radius
            self._facing = figure.facing
            self._colour = QColor(colour)
            self._status = figure.status
            self._star = figure.is_star
            self._rep = text_path(str(figure.rep), figure.base * 0.42, self._style.font_family)
            r = self._radius * (FRONT_TIP + 0.1) + 0.1  # the front arrow stands out
            self._bounds = QRectF(-r, -r, 2 * r, 2 * r)
            self._marks = _FigureMarks.of(self)
            self.setOpacity(0.55 if not figure.status.can_act else 1.0)
            self.update()
        self._force_name = force_name
        self.setToolTip(figure_tooltip(figure, force_name))

    def refresh_tooltip(self) -> str:
        """The tooltip again, with the scene's note on the figure's facing if it has one.

        Asked when the pointer comes over the figure, not at every step: what
        stands behind a figure depends on every other figure, and a table may
        have hundreds.
        """
        note: FigureNote | None = getattr(self.scene(), "figure_note", None)
        figure = self._battlefield.figure(self.model_id)
        tip = figure_tooltip(figure, self._force_name, note(self.model_id) if note else "")
        if tip != self.toolTip():
            self.setToolTip(tip)
        return tip

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        # not QGraphicsItem's, which repaints the figure (its cached pixmap) for nothing
        self.refresh_tooltip()

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        pass

    def facing(self) -> float:
        """The facing drawn now: the preview's while a tool turns the figure, else the model's."""
        return self._facing if self._preview_facing is None else self._preview_facing

    def set_preview_facing(self, facing: float | None) -> None:
        """Draw the front at ``facing`` without touching the model (None: stop).

        Tools turn a figure with this rather than ``setRotation`` so the Rep stays
        upright; the model is changed only when the tool commits its command.
        """
        if facing != self._preview_facing:
            self._preview_facing = facing
            self.update()

    def set_highlighted(self, on: bool) -> None:
        """Ring the base, e.g. when the editor's document selects the figure."""
        if on != self._highlighted:
            self._highlighted = on
            self.update()

    def is_highlighted(self) -> bool:
        return self._highlighted

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self._radius, self._radius)
        return path

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        world = painter.worldTransform()
        engine = painter.paintEngine()
        if (
            engine is not None
            and engine.type() == QPaintEngine.Type.Raster
            and world.type() in _SCALE_ONLY
            and world.m11() == world.m22()
        ):
            self._blit_base(painter, world)  # pixels: one shared pixmap per look and zoom
        else:  # SVG and PDF exports stay vector
            _paint_base(painter, self._style, self._radius, self._colour, self._star)
        self._marks.paint(painter, self.facing())
        if self._highlighted:
            ring = QPainterPath()
            ring.addEllipse(QPointF(0, 0), self._radius * 1.12, self._radius * 1.12)
            _paint_highlight(painter, ring, self._style)

    def _blit_base(self, painter: QPainter, world: QTransform) -> None:
        """Draw the base from the sprite shared by every figure of this look at this zoom.

        The base (shadow, shaded disc, rim) does not turn with the facing, so
        the hundred figures of a table need only a few sprites per zoom step,
        which makes re-caching the figures after a zoom cheap (issue 6).
        """
        dpr = painter.device().devicePixelRatioF()
        scale = world.m11()
        style, r, colour, star = self._style, self._radius, self._colour, self._star
        image, half = _sprite(
            ("base", r, colour.rgba(), star, round(scale, 6), dpr),
            r * 1.15 + 0.1,
            scale,
            dpr,
            lambda painter: _paint_base(painter, style, r, colour, star),
        )
        centre = world.map(QPointF(0, 0))
        painter.save()
        painter.setWorldTransform(QTransform())
        painter.drawImage(
            QPointF(round(centre.x() * dpr) / dpr - half, round(centre.y() * dpr) / dpr - half),
            image,
        )
        painter.restore()


_SCALE_ONLY = (
    QTransform.TransformationType.TxNone,
    QTransform.TransformationType.TxTranslate,
    QTransform.TransformationType.TxScale,
)


def _paint_base(painter: QPainter, style: TableStyle, r: float, colour: QColor, star: bool) -> None:
    """A figure's base around (0, 0): soft shadow, shaded disc and rim (gold for a Star)."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(style.shadow)
    painter.drawEllipse(QPointF(0.05, 0.07), r * 1.02, r * 1.02)
    grad = QRadialGradient(QPointF(-0.35 * r, -0.4 * r), r * 1.6)
    grad.setColorAt(0.0, colour.lighter(130))
    grad.setColorAt(1.0, colour.darker(115))
    rim = style.figure_rim_star if star else colour.darker(170)
    painter.setPen(_pen(rim, r * (0.16 if star else 0.1)))
    painter.setBrush(QBrush(grad))
    painter.drawEllipse(QPointF(0, 0), r * 0.95, r * 0.95)


FRONT_TIP = 1.75
"""How far the front arrow's tip stands from a figure's centre, in base radii: past the
rim, the group ring and the move ring, so the front reads at 23 px/inch (issue 31)."""


def front_arrow(r: float) -> QPolygonF:
    """The arrowhead on a base's front edge, pointing along the facing (-y before rotation).

    Its wings sit on the rim and its tip stands well outside, so which way a
    figure faces shows at a glance at any zoom, friend or enemy alike; its notch
    keeps clear of the Rep number at the centre.
    """
    return QPolygonF(
        [
            QPointF(0, -FRONT_TIP * r),
            QPointF(0.7 * r, -0.62 * r),
            QPointF(0, -0.88 * r),
            QPointF(-0.7 * r, -0.62 * r),
        ]
    )


def front_rim(r: float) -> QPainterPath:
    """The front half of a base's rim (-y before rotation): the 180° a figure sees (7.9.4)."""
    rect = QRectF(-0.95 * r, -0.95 * r, 1.9 * r, 1.9 * r)
    path = QPainterPath()
    path.arcMoveTo(rect, 0.0)  # Qt's angles: 0 along +x, 90 towards -y (the front)
    path.arcTo(rect, 0.0, 180.0)
    return path


def back_half(r: float) -> QPainterPath:
    """The half of a base behind the line across its facing (+y before rotation), shaded:
    a two-tone disc shows the split between front and rear (7.9.4) at any size."""
    rect = QRectF(-0.95 * r, -0.95 * r, 1.9 * r, 1.9 * r)
    path = QPainterPath(QPointF(0, 0))
    path.arcTo(rect, 180.0, 180.0)
    path.closeSubpath()
    return path


@dataclass(slots=True)
class _FigureMarks:
    """What is painted over a figure's base, prepared once per look: the front (its half of
    the rim drawn light and an arrowhead past the rim), Star, Rep, cross."""

    arrow: QPolygonF = field(default_factory=QPolygonF)
    arrow_pen: QPen = field(default_factory=QPen)
    arrow_brush: QColor = field(default_factory=QColor)
    front: QPainterPath = field(default_factory=QPainterPath)
    back: QPainterPath = field(default_factory=QPainterPath)
    back_shade: QColor = field(default_factory=QColor)
    front_under: QPen = field(default_factory=QPen)
    front_pen: QPen = field(default_factory=QPen)
    star: QPolygonF | None = None
    star_pen: QPen = field(default_factory=QPen)
    star_brush: QColor = field(default_factory=QColor)
    rep: QPainterPath = field(default_factory=QPainterPath)
    rep_colour: QColor = field(default_factory=QColor)
    cross_pen: QPen | None = None
    cross: tuple[QLineF, ...] = ()

    @classmethod
    def of(cls, item: FigureItem) -> _FigureMarks:
        style, r, colour = item._style, item._radius, item._colour
        light, dark = QColor(style.figure_facing), QColor(20, 20, 20, 230)
        marks = cls(
            arrow=front_arrow(r),
            arrow_pen=_pen(dark, r * 0.12),
            arrow_brush=light,
            front=front_rim(r),
            back=back_half(r),
            back_shade=QColor(0, 0, 0, 100),
            front_under=_pen(dark, r * 0.34),
            front_pen=_pen(light, r * 0.2),
            rep=item._rep,
            rep_colour=QColor("#111111") if colour.lightnessF() > 0.62 else QColor("#ffffff"),
        )
        if item._star:
            marks.star = _star(QPointF(0, r * 0.68), r * 0.24)
            marks.star_pen = _pen(QColor(90, 60, 0), r * 0.03)
            marks.star_brush = QColor(style.figure_rim_star)
        if not item._status.can_act:
            dead = item._status is Status.OBVIOUSLY_DEAD
            cross = style.figure_dead_cross if dead else style.figure_cross
            marks.cross_pen = _pen(cross, r * 0.22)
            d = r * 0.75
            marks.cross = (QLineF(-d, -d, d, d), QLineF(-d, d, d, -d))
        return marks

    def paint(self, painter: QPainter, facing: float) -> None:
        painter.save()
        painter.rotate(facing)
        _fill(painter, self.back, self.back_shade)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(self.front_under)
        painter.drawPath(self.front)
        painter.setPen(self.front_pen)
        painter.drawPath(self.front)
        painter.setPen(self.arrow_pen)
        painter.setBrush(self.arrow_brush)
        painter.drawPolygon(self.arrow)
        if self.star is not None:
            painter.setPen(self.star_pen)
            painter.setBrush(self.star_brush)
            painter.drawPolygon(self.star)
        painter.restore()
        _fill(painter, self.rep, self.rep_colour)
        if self.cross_pen is not None:
            painter.setPen(self.cross_pen)
            for line in self.cross:
                painter.drawLine(line)
