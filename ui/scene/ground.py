"""The ground layer: the table, terrain and table overlays painted as one tiled pixmap cache.

A busy table has hundreds of terrain items.  Painted (or even blitted from
per-item caches) one by one, they cost a Python ``boundingRect``/``paint``
round trip each on every repaint, and with device-coordinate caching every
zoom step re-renders all of them.  Instead the scene hands every item that
lies under the figures -- the table, the terrain, the section numbers and
lines, the grid -- to one :class:`GroundLayer`.  While caching is on, those
items carry ``ItemHasNoContents`` (Qt skips them when painting; they still
answer hit tests and tooltips) and the layer paints them itself into tiles of
device pixels, which a repaint only blits.

* Tiles are keyed by the view's scale (and sub-pixel offset), so panning
  reuses them and only renders the strip that scrolls in.
* A change to an item repairs just its rectangle in the cached tiles.
* During an interactive zoom (:meth:`GroundLayer.zooming`) missing tiles are
  drawn from an older generation, scaled (nearest-neighbour while the wheel
  turns, smooth once it pauses), and rendered properly in small chunks once
  the zoom has paused, so a wheel step never waits for 300 polygons.  Other
  transform changes (fit, resize, jump to a zoom) render at once, so what is
  shown is never blurred for long.
* Exports turn caching off (:meth:`BattlefieldScene.set_caching`); the items
  then paint themselves onto the SVG/PDF painter, as vectors.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPixmap, QRegion, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ui.scene.layers import ItemType, Layer

TILE = 256
"""Tile edge in device-independent pixels."""
MAX_GENERATIONS = 4
"""Scales kept at once (the current one, the last complete one, a few recent ones)."""
MAX_TILES = 200
"""Tiles kept over all scales (50 MB at 256 x 256 x 4 bytes)."""
SETTLE_MS = 90
"""Quiet time after the last zoom step before the sharp tiles are rendered."""
CHUNK_MS = 10.0
"""Time spent rendering tiles per event-loop turn while settling."""
MAX_STAND_IN_ZOOM = 4.0
"""A scale enlarged more than this is too blurred to stand in: render instead (it is
cheap then, as so zoomed in the view holds few items)."""
ZOOM_GRACE_S = 0.15
"""How long after :meth:`GroundLayer.zooming` a paint may show scaled tiles."""

_Key = tuple[float, float, float, float]
"""A tile grid: (scale, x offset, y offset, device pixel ratio)."""


@dataclass(slots=True)
class _Generation:
    """The tiles of one scale; device x = scene x * scale + offset + integer shift."""

    key: _Key
    tiles: dict[tuple[int, int], QPixmap] = field(default_factory=dict)
    dirty: dict[tuple[int, int], QRegion] = field(default_factory=dict)
    complete: bool = False
    """Every tile over the layer's rectangle is cached: a fallback for any view."""

    @property
    def scale(self) -> float:
        return self.key[0]

    def tile_scene_rect(self, ix: int, iy: int) -> QRectF:
        s, fx, fy, _ = self.key
        return QRectF((ix * TILE - fx) / s, (iy * TILE - fy) / s, TILE / s, TILE / s)

    def tile_range(self, rect: QRectF) -> tuple[int, int, int, int]:
        """Tile indices (x0, y0, x1, y1 inclusive) covering a scene rectangle."""
        s, fx, fy, _ = self.key
        x0 = math.floor((rect.left() * s + fx) / TILE)
        y0 = math.floor((rect.top() * s + fy) / TILE)
        x1 = math.floor((rect.right() * s + fx - 1e-6) / TILE)
        y1 = math.floor((rect.bottom() * s + fy - 1e-6) / TILE)
        return x0, y0, x1, y1

    def device_rect(self, rect: QRectF, ix: int, iy: int) -> QRect:
        """A scene rectangle in the pixels of tile (ix, iy), grown for antialiasing."""
        s, fx, fy, _ = self.key
        r = QRectF(
            rect.left() * s + fx - ix * TILE,
            rect.top() * s + fy - iy * TILE,
            rect.width() * s,
            rect.height() * s,
        )
        return r.toAlignedRect().adjusted(-2, -2, 2, 2)


class GroundLayer(QGraphicsObject):
    """Paints its member items (in z order) from cached device-pixel tiles."""

    Type = ItemType.GROUND

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Layer.GROUND)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._members: list[QGraphicsItem] = []
        self._ordered: list[QGraphicsItem] | None = None
        self._rects: dict[int, QRectF] = {}
        self._bounds = QRectF()
        self._around = QRectF()
        self._backdrop: QColor | None = None
        self._active = True
        self._gens: OrderedDict[_Key, _Generation] = OrderedDict()
        self._pending: list[tuple[_Key, int, int]] = []
        self._zoom_until = 0.0
        self._settling = False
        self._option = QStyleOptionGraphicsItem()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._settle_step)
        self.rendered_tiles = 0
        """Tiles rendered so far (whole or repaired): for tests and benchmarks."""
        self.settle_log: list[float] = []
        """Milliseconds spent in each of the last settling steps: for benchmarks."""

    def type(self) -> int:
        return int(self.Type)

    # -- members --------------------------------------------------------------

    def members(self) -> list[QGraphicsItem]:
        return list(self._members)

    def add(self, item: QGraphicsItem) -> None:
        """Paint ``item`` as part of the ground from now on."""
        self._members.append(item)
        item.ground = self  # type: ignore[attr-defined]
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, self._active)
        self._ordered = None
        self._rects.pop(id(item), None)
        self.item_changed(item)

    def remove(self, item: QGraphicsItem) -> None:
        if item in self._members:
            self.invalidate(self._rect_of(item))
            self._members.remove(item)
            self._rects.pop(id(item), None)
            self._ordered = None
            self._update_bounds()
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, False)
            item.ground = None  # type: ignore[attr-defined]

    def restack(self) -> None:
        """Members' z values changed: repaint where the drawing order really changed."""
        before = self._order()
        self._ordered = None
        after = self._order()
        for old, new in zip(before, after, strict=False):
            if old is not new:
                self.invalidate(self._rect_of(old))
                self.invalidate(self._rect_of(new))

    def item_changed(self, item: QGraphicsItem, old: QRectF | None = None) -> None:
        """A member's drawing changed (and maybe its bounds, formerly ``old``)."""
        self._rects.pop(id(item), None)
        if old is not None:
            self.invalidate(old)
        if item in self._members:
            rect = self._rect_of(item)
            self.invalidate(rect)
            if not self._bounds.contains(rect):
                self._update_bounds()

    def scene_rect_of(self, item: QGraphicsItem) -> QRectF:
        """The member's cached scene bounding rectangle."""
        return QRectF(self._rect_of(item))

    def _rect_of(self, item: QGraphicsItem) -> QRectF:
        rect = self._rects.get(id(item))
        if rect is None:
            rect = self._rects[id(item)] = item.sceneBoundingRect()
        return rect

    def _order(self) -> list[QGraphicsItem]:
        if self._ordered is None:
            index = {id(item): n for n, item in enumerate(self._members)}
            self._ordered = sorted(self._members, key=lambda i: (i.zValue(), index[id(i)]))
        return self._ordered

    def _update_bounds(self) -> None:
        bounds = QRectF(self._around)
        for item in self._members:
            bounds = bounds.united(self._rect_of(item))
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
            for gen in self._gens.values():
                gen.complete = False

    def set_backdrop_area(self, around: QRectF) -> None:
        """The scene rectangle the tiles cover besides the members (the scene's rect).

        When the view's background is a plain colour, the tiles are filled with
        it, so they are opaque and blit without blending.
        """
        self._around = QRectF(around)
        self._update_bounds()
        self.invalidate()

    def _follow_backdrop(self, widget: QWidget) -> None:
        """Take the backdrop colour from the view's background brush (themes may change it)."""
        view = widget.parentWidget()
        colour = None
        if isinstance(view, QGraphicsView):
            brush = view.backgroundBrush()
            if brush.style() == Qt.BrushStyle.SolidPattern and brush.color().alpha() == 255:
                colour = brush.color()
        if colour != self._backdrop:
            self._backdrop = colour
            self.invalidate()

    # -- caching on and off -------------------------------------------------------

    def is_active(self) -> bool:
        return self._active

    def set_active(self, active: bool) -> None:
        """Cache (on screen) or let the members paint themselves (exports, vector)."""
        if active == self._active:
            return
        self._active = active
        for item in self._members:
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, active)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, not active)
        self.clear()

    def clear(self) -> None:
        """Drop every cached tile."""
        self._gens.clear()
        self._pending.clear()
        self._timer.stop()
        self._settling = False
        self.update()

    def invalidate(self, rect: QRectF | None = None) -> None:
        """Repaint ``rect`` (scene inches; None: everything) from the items."""
        if rect is None or rect.isNull():
            self._gens.clear()
            self._pending.clear()
            self.update()
            return
        current = next(reversed(self._gens.values()), None)
        for gen in list(self._gens.values()):
            keep = gen is current or gen.complete
            x0, y0, x1, y1 = gen.tile_range(rect)
            for key in [k for k in gen.tiles if x0 <= k[0] <= x1 and y0 <= k[1] <= y1]:
                if keep:
                    region = gen.dirty.get(key, QRegion())
                    gen.dirty[key] = region.united(gen.device_rect(rect, *key))
                else:
                    del gen.tiles[key]
                    gen.dirty.pop(key, None)
        self.update(rect)

    def zooming(self) -> None:
        """An interactive zoom step: show scaled tiles now, sharp ones once it pauses."""
        self._zoom_until = time.monotonic() + ZOOM_GRACE_S
        self._settling = False

    def settle(self) -> None:
        """Render every tile still owed to the view now (tests, screenshots)."""
        self._timer.stop()
        while self._pending:
            self._render_pending(budget_ms=1e9)

    def prepare(self, view: QGraphicsView) -> int:
        """Render the tiles ``view`` shows now, before its first paint needs them; the
        number rendered.

        A new scene's first paint renders every tile in view (a dense table: tens
        of ms); the play mode calls this when it puts the game's table in the view,
        inside the Start click, so the first turns of the event loop after it,
        when the program may already be playing, only blit.
        """
        viewport = view.viewport()
        if not self._active or self._bounds.isEmpty() or not viewport.isVisible():
            return 0
        world = self.sceneTransform() * view.viewportTransform()
        if not (world.type() in _SCALE_ONLY and world.m11() > 0):
            return 0
        if abs(world.m11() - world.m22()) >= 1e-9:
            return 0
        self._follow_backdrop(viewport)
        key, _sx, _sy = _grid_of(world, viewport.devicePixelRatioF())
        gen = self._generation(key)
        inverse, _ok = world.inverted()
        visible = inverse.mapRect(QRectF(viewport.rect())).intersected(self._bounds)
        missing = [k for k in _tiles(gen, visible) if k not in gen.tiles]
        self._render_tiles(gen, missing)
        return len(missing)

    def prepare_steps(self, view: QGraphicsView) -> Iterator[tuple[int, int]]:
        """:meth:`prepare` a tile at a time, yielding (tiles done, tiles): a huge
        table's first paint is half a second of painting a thousand features, which a
        file being opened does in slices (:mod:`ui.opening`).  Keep the view from
        painting meanwhile, or its paint renders the rest at once."""
        viewport = view.viewport()
        if not self._active or self._bounds.isEmpty() or not viewport.isVisible():
            return
        world = self.sceneTransform() * view.viewportTransform()
        if not (world.type() in _SCALE_ONLY and world.m11() > 0):
            return
        if abs(world.m11() - world.m22()) >= 1e-9:
            return
        self._follow_backdrop(viewport)
        key, _sx, _sy = _grid_of(world, viewport.devicePixelRatioF())
        gen = self._generation(key)
        inverse, _ok = world.inverted()
        visible = inverse.mapRect(QRectF(viewport.rect())).intersected(self._bounds)
        missing = [k for k in _tiles(gen, visible) if k not in gen.tiles]
        for n, k in enumerate(missing, start=1):
            if self._gens.get(key) is not gen:  # dropped meanwhile (a zoom, a resize)
                return
            if k not in gen.tiles:
                self._render_tiles(gen, [k])
            yield n, len(missing)

    def pending_tiles(self) -> int:
        return len(self._pending)

    def cached_tiles(self) -> int:
        return sum(len(g.tiles) for g in self._gens.values())

    # -- QGraphicsItem --------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        if not self._active:
            return
        world = painter.worldTransform()
        exposed = QRectF(option.exposedRect)
        cacheable = (
            world.type() in _SCALE_ONLY
            and world.m11() > 0
            and abs(world.m11() - world.m22()) < 1e-9
        )
        if widget is None or not cacheable:  # an image, a printer: paint the items themselves
            self._paint_direct(painter, world, exposed)
            return
        self._follow_backdrop(widget)
        dpr = painter.device().devicePixelRatioF()
        key, sx, sy = _grid_of(world, dpr)
        gen = self._generation(key)
        area = exposed.intersected(self._bounds)
        if area.isEmpty():
            return
        stand_ins: dict[tuple[int, int], _Generation] = {}
        inverse, _ok = world.inverted()
        visible = inverse.mapRect(QRectF(widget.rect())).intersected(self._bounds)
        in_view = _tiles(gen, visible)
        settling = bool(self._pending) and self._pending[0][0] == key
        gesture = time.monotonic() < self._zoom_until
        if settling or gesture:
            # zooming: every tile the view lacks is shown scaled from another scale
            lacking = [k for k in in_view if k not in gen.tiles]
            stand_ins = self._stand_ins(gen, lacking)
            centre = visible.center()
            self._pending = [
                (key, *k)
                for k in sorted(
                    stand_ins,
                    key=lambda k: _distance(gen.tile_scene_rect(*k).center(), centre),
                )
            ]
            if self._pending and not self._settling:
                self._timer.start(SETTLE_MS)
        else:
            self._pending = []
        wanted = _tiles(gen, area)
        self._render_tiles(gen, [k for k in wanted if k not in gen.tiles and k not in stand_ins])
        painter.save()
        painter.setWorldTransform(QTransform())
        ox, oy = sx / dpr, sy / dpr
        for k in wanted:
            if k in stand_ins:
                continue
            if k in gen.dirty:
                self._repair_tile(gen, *k)
            pixmap = gen.tiles[k] = gen.tiles.pop(k)  # most recently used last
            painter.drawPixmap(QPointF(k[0] * TILE + ox, k[1] * TILE + oy), pixmap)
        shown = [k for k in wanted if k in stand_ins]
        if shown:
            # mid-gesture a frame lasts a wheel notch: nearest-neighbour scaling is
            # four times cheaper than bilinear; once the zoom pauses, smooth again
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not gesture)
            self._paint_stand_ins(painter, gen, {k: stand_ins[k] for k in shown}, ox, oy)
        painter.restore()
        self._trim(gen, in_view)
        self._check_complete(gen)

    # -- tiles -------------------------------------------------------------------

    def _generation(self, key: _Key) -> _Generation:
        gen = self._gens.get(key)
        if gen is None:
            gen = self._gens[key] = _Generation(key)
        self._gens.move_to_end(key)
        return gen

    def _members_in(self, rect: QRectF) -> list[QGraphicsItem]:
        return [
            item
            for item in self._order()
            if item.isVisible() and self._rect_of(item).intersects(rect)
        ]

    def _paint_items(self, painter: QPainter, base: QTransform, rect: QRectF) -> None:
        option = self._option
        for item in self._members_in(rect):
            painter.setWorldTransform(item.sceneTransform() * base)
            painter.setOpacity(item.effectiveOpacity())
            item.paint(painter, option, None)

    def _paint_direct(self, painter: QPainter, world: QTransform, exposed: QRectF) -> None:
        """Paint the members straight onto the painter (no widget: an image or a printer)."""
        painter.save()
        self._paint_items(painter, world, exposed)
        painter.restore()

    def _tile_transform(self, gen: _Generation, ix: int, iy: int) -> QTransform:
        s, fx, fy, _ = gen.key
        return QTransform(s, 0, 0, s, fx - ix * TILE, fy - iy * TILE)

    def _render_tile(self, gen: _Generation, ix: int, iy: int) -> None:
        self._render_tiles(gen, [(ix, iy)])

    def _render_tiles(self, gen: _Generation, keys: list[tuple[int, int]]) -> None:
        """Render tiles in one pass over their bounding block, then cut it up.

        One pass paints each item once, where tile by tile an item across
        tile edges would be painted for every tile it touches.  The pixels
        are the same: the block and the tiles share the device pixel grid.
        """
        if not keys:
            return
        dpr = gen.key[3]
        x0, y0 = min(k[0] for k in keys), min(k[1] for k in keys)
        x1, y1 = max(k[0] for k in keys), max(k[1] for k in keys)
        side = math.ceil(TILE * dpr)
        block = QPixmap((x1 - x0 + 1) * side, (y1 - y0 + 1) * side)
        block.setDevicePixelRatio(dpr)
        block.fill(self._backdrop if self._backdrop is not None else Qt.GlobalColor.transparent)
        painter = QPainter(block)
        painter.setRenderHints(_HINTS)
        area = gen.tile_scene_rect(x0, y0).united(gen.tile_scene_rect(x1, y1))
        self._paint_items(painter, self._tile_transform(gen, x0, y0), area)
        painter.end()
        for ix, iy in keys:
            if len(keys) == 1:
                tile = block
            else:
                tile = block.copy(QRect((ix - x0) * side, (iy - y0) * side, side, side))
                tile.setDevicePixelRatio(dpr)
            gen.tiles[(ix, iy)] = tile
            gen.dirty.pop((ix, iy), None)
            self.rendered_tiles += 1

    def _repair_tile(self, gen: _Generation, ix: int, iy: int) -> None:
        region = gen.dirty.pop((ix, iy))
        pixmap = gen.tiles[(ix, iy)]
        painter = QPainter(pixmap)
        painter.setRenderHints(_HINTS)
        painter.setClipRegion(region)
        if self._backdrop is not None:
            painter.fillRect(region.boundingRect(), self._backdrop)
        else:
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
            painter.fillRect(region.boundingRect(), Qt.GlobalColor.transparent)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        transform = self._tile_transform(gen, ix, iy)
        inverse, _ok = transform.inverted()
        self._paint_items(painter, transform, inverse.mapRect(QRectF(region.boundingRect())))
        painter.end()
        self.rendered_tiles += 1

    def _stand_ins(
        self, gen: _Generation, missing: list[tuple[int, int]]
    ) -> dict[tuple[int, int], _Generation]:
        """For each missing tile, the nearest other scale that has all of its area cached."""
        others = [
            g for g in self._gens.values() if g is not gen and g.tiles and g.key[3] == gen.key[3]
        ]
        others = [g for g in others if g.scale * MAX_STAND_IN_ZOOM >= gen.scale]
        others.sort(key=lambda g: abs(math.log(g.scale / gen.scale)))
        found = {}
        for k in missing:
            rect = gen.tile_scene_rect(*k).intersected(self._bounds)
            for other in others:
                if all(j in other.tiles for j in _tiles(other, rect)):
                    found[k] = other
                    break
        return found

    def _paint_stand_ins(
        self,
        painter: QPainter,
        gen: _Generation,
        stand_ins: dict[tuple[int, int], _Generation],
        ox: float,
        oy: float,
    ) -> None:
        """Draw missing tiles scaled from the scales standing in for them (device coordinates)."""
        s, fx, fy, _ = gen.key
        for other in {id(g): g for g in stand_ins.values()}.values():
            mine = [k for k, g in stand_ins.items() if g is other]
            region = QRegion()
            scene_rect = QRectF()
            for ix, iy in mine:
                region = region.united(
                    QRect(round(ix * TILE + ox), round(iy * TILE + oy), TILE, TILE)
                )
                scene_rect = scene_rect.united(gen.tile_scene_rect(ix, iy))
            painter.setClipRegion(region)
            k = s / other.scale
            _so, fox, foy, _ = other.key
            for jx, jy in _tiles(other, scene_rect.intersected(self._bounds)):
                if (jx, jy) not in other.tiles:
                    continue  # outside the clip: the tiles it stands in for are covered
                if (jx, jy) in other.dirty:
                    self._repair_tile(other, jx, jy)
                x = (jx * TILE - fox) * k + ox + fx
                y = (jy * TILE - foy) * k + oy + fy
                painter.setTransform(QTransform(k, 0, 0, k, x, y))
                painter.drawPixmap(QPointF(0, 0), other.tiles[(jx, jy)])
        painter.setTransform(QTransform())
        painter.setClipping(False)

    def _settle_step(self) -> None:
        self._settling = True
        start = time.perf_counter()
        self._render_pending(CHUNK_MS)
        self.settle_log.append((time.perf_counter() - start) * 1000)
        del self.settle_log[:-200]
        if self._pending:
            self._timer.start(0)
        else:
            self._settling = False

    def _render_pending(self, budget_ms: float) -> None:
        start = time.perf_counter()
        done = QRectF()
        while self._pending:
            key, ix, iy = self._pending.pop(0)
            gen = self._gens.get(key)
            if gen is None or (ix, iy) in gen.tiles:
                continue
            self._render_tile(gen, ix, iy)
            done = done.united(gen.tile_scene_rect(ix, iy))
            if (time.perf_counter() - start) * 1000 >= budget_ms:
                break
        if not done.isNull():
            self.update(done)

    def _check_complete(self, gen: _Generation) -> None:
        if gen.complete or self._bounds.isEmpty():
            return
        x0, y0, x1, y1 = gen.tile_range(self._bounds)
        count = (x1 - x0 + 1) * (y1 - y0 + 1)
        if len(gen.tiles) >= count and all(
            (ix, iy) in gen.tiles for ix in range(x0, x1 + 1) for iy in range(y0, y1 + 1)
        ):
            gen.complete = True
            for other in self._gens.values():
                if other is not gen:
                    other.complete = False

    def _trim(self, current: _Generation, in_view: list[tuple[int, int]]) -> None:
        """Keep a few scales and a bounded number of tiles; the complete scale stays.

        The tiles ``in_view`` are never forgotten, and the limit grows with a
        big screen.
        """
        limit = max(MAX_TILES, 3 * len(in_view))
        while len(self._gens) > MAX_GENERATIONS:
            victim = next(
                (g for g in self._gens.values() if g is not current and not g.complete), None
            )
            if victim is None:
                break
            del self._gens[victim.key]
        total = self.cached_tiles()
        if total <= limit:
            return
        for gen in list(self._gens.values()):
            if gen is current or gen.complete:
                continue
            total -= len(gen.tiles)
            del self._gens[gen.key]
            if total <= limit:
                return
        if total > limit and not current.complete:
            # panning far at a high zoom: forget the tiles used longest ago
            keep = set(in_view)
            older = [k for k in current.tiles if k not in keep]
            for k in older[: len(current.tiles) - max(limit // 2, len(keep))]:
                del current.tiles[k]
                current.dirty.pop(k, None)


_SCALE_ONLY = (
    QTransform.TransformationType.TxNone,
    QTransform.TransformationType.TxTranslate,
    QTransform.TransformationType.TxScale,
)
_HINTS = (
    QPainter.RenderHint.Antialiasing
    | QPainter.RenderHint.SmoothPixmapTransform
    | QPainter.RenderHint.TextAntialiasing
)


def _grid_of(world: QTransform, dpr: float) -> tuple[_Key, int, int]:
    """The tile grid a paint under ``world`` uses, and the whole device pixels of its
    offset (the grid is keyed by the scale and the sub-pixel part only)."""
    s = world.m11()
    dx, dy = world.dx() * dpr, world.dy() * dpr
    sx, sy = math.floor(dx), math.floor(dy)
    return (round(s, 9), round((dx - sx) / dpr, 6), round((dy - sy) / dpr, 6), dpr), sx, sy


def _tiles(gen: _Generation, rect: QRectF) -> list[tuple[int, int]]:
    if rect.isEmpty():
        return []
    x0, y0, x1, y1 = gen.tile_range(rect)
    return [(ix, iy) for iy in range(y0, y1 + 1) for ix in range(x0, x1 + 1)]


def _distance(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())


def ground_rect(item: QGraphicsItem) -> QRectF | None:
    """Where a ground member was last painted (scene inches), before it changes."""
    ground: GroundLayer | None = getattr(item, "ground", None)
    return ground.scene_rect_of(item) if ground is not None else None


def ground_changed(item: QGraphicsItem, old: QRectF | None = None) -> None:
    """Tell the member's ground layer that it looks different now (formerly over ``old``)."""
    ground: GroundLayer | None = getattr(item, "ground", None)
    if ground is not None:
        ground.item_changed(item, old)
