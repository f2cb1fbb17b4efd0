"""Vertex editing and the measuring tape."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsRectItem, QGraphicsSimpleTextItem
from shapely.geometry import LineString, Point, Polygon

from crdesk.events import Change
from crdesk.geometry.measure import base_distance, distance_to_point
from ui.commands import ChangeFeatureCommand
from ui.tools.base import EditorContext, Tool, screen_label
from ui.tools.select_tool import pick

Pt = tuple[float, float]


class VertexTool(Tool):
    """Drag a vertex of the selected outline; double-click an edge to add one; Delete removes."""

    name = "Edit vertices"
    shortcut = "E"
    tooltip = (
        "Select a feature, then drag its corner handles; double-click an edge to add a "
        "corner; click a corner and press Delete to remove it"
    )

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context)
        self._feature: str | None = None
        self._handles: list[QGraphicsRectItem] = []
        self._drag: int | None = None
        self._current: int | None = None
        context.document.selection_changed.connect(self._refresh)
        context.document.model_changed.connect(self._on_change)
        self._active = False

    def activate(self) -> None:
        self._active = True
        self._refresh()

    def deactivate(self) -> None:
        self._active = False
        super().deactivate()
        self._feature = None

    def _on_change(self, change: Change) -> None:
        if self._active and change.id == self._feature and self._drag is None:
            self._refresh()

    def _coords(self) -> list[Pt]:
        if self._feature is None:
            return []
        ring = self.ctx.document.battlefield.feature(self._feature).outline.exterior.coords
        return [(x, y) for x, y in list(ring)[:-1]]

    def _refresh(self) -> None:
        if not self._active:
            return
        self.clear_previews()
        self._handles = []
        doc = self.ctx.document
        features = {f.id for f in doc.battlefield.terrain}
        chosen = [i for i in doc.selection if i in features]
        feature = chosen[0] if len(chosen) == 1 else None
        if feature != self._feature:
            self._current = None  # the corner chosen was another outline's
        self._feature = feature
        coords = self._coords()
        if self._current is not None and self._current >= len(coords):
            self._current = None  # an undo took the corner away
        size = self.ctx.pixels_to_inches(8)
        for i, (x, y) in enumerate(coords):
            handle = QGraphicsRectItem(QRectF(-size / 2, -size / 2, size, size))
            handle.setPos(x, y)
            handle.setPen(QPen(QColor(20, 60, 160), 0))
            colour = QColor(255, 200, 40) if i == self._current else QColor("white")
            handle.setBrush(QBrush(colour))
            self.add_preview(handle)
            self._handles.append(handle)

    def _handle_at(self, pos: QPointF) -> int | None:
        reach = self.ctx.pixels_to_inches(7)
        best = None
        for i, (x, y) in enumerate(self._coords()):
            d = math.dist((x, y), (pos.x(), pos.y()))
            if d <= reach and (best is None or d < best[0]):
                best = (d, i)
        return best[1] if best else None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        index = self._handle_at(pos)
        if index is None:
            hit = pick(self.ctx, pos)
            self.ctx.document.set_selection([hit] if hit else [])
            return True
        self._drag = index
        self._current = index
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._drag is None:
            return False
        snapped = self.ctx.snapped(pos, exclude=self._feature)
        self._handles[self._drag].setPos(snapped)
        return True

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._drag is None:
            return False
        index, self._drag = self._drag, None
        snapped = self.ctx.snapped(pos, exclude=self._feature)
        coords = self._coords()
        if coords[index] != (snapped.x(), snapped.y()):
            coords[index] = (snapped.x(), snapped.y())
            self._commit(coords, "Move Vertex")
        else:
            self._refresh()
        return True

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        coords = self._coords()
        if not coords:
            return False
        p = Point(pos.x(), pos.y())
        edges = [LineString([coords[i], coords[(i + 1) % len(coords)]]) for i in range(len(coords))]
        i = min(range(len(edges)), key=lambda k: edges[k].distance(p))
        if edges[i].distance(p) > self.ctx.pixels_to_inches(8):
            return True
        q = edges[i].interpolate(edges[i].project(p))
        coords.insert(i + 1, (q.x, q.y))
        self._current = i + 1
        self._commit(coords, "Add Vertex")
        return True

    def wants_key(self, event: QKeyEvent) -> bool:
        return self._current is not None and event.key() in (
            Qt.Key.Key_Delete,
            Qt.Key.Key_Backspace,
        )

    def key(self, event: QKeyEvent) -> bool:
        if event.key() not in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) or self._current is None:
            return False
        coords = self._coords()
        if len(coords) <= 3:
            self.ctx.show_message("An outline keeps at least three corners")
            return True
        del coords[self._current]
        self._current = None
        self._commit(coords, "Remove Vertex")
        return True

    def _commit(self, coords: list[Pt], text: str) -> None:
        assert self._feature is not None
        doc = self.ctx.document
        doc.undo_stack.push(
            ChangeFeatureCommand(doc, self._feature, {"outline": Polygon(coords)}, text)
        )
        self._refresh()


def base_to_base(ctx: EditorContext, a: Pt, b: Pt) -> tuple[float, str]:
    """Distance between two spots, measured from the edge of any figure's base there.

    The rules' own distances (crdesk.geometry.measure) do the measuring, so the
    tape reads exactly what range and charge checks use.
    """
    bf = ctx.document.battlefield
    figures = {f.id: f for f in bf.figures()}
    fa = figures.get(pick(ctx, QPointF(*a)) or "")
    fb = figures.get(pick(ctx, QPointF(*b)) or "")
    if fa is not None and fb is not None and fa is not fb:
        return base_distance(fa, fb), "base to base"
    if fa is not None:
        return distance_to_point(fa, b), ""
    if fb is not None:
        return distance_to_point(fb, a), ""
    return math.dist(a, b), ""


class MeasureTool(Tool):
    """A tape measure in inches; from or to a figure it measures from the edge of the base."""

    name = "Measure"
    shortcut = "M"
    tooltip = "Drag to measure in inches (base to base between figures); Esc clears"

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context)
        self._start: Pt | None = None
        self._line: QGraphicsLineItem | None = None
        self._label: QGraphicsSimpleTextItem | None = None
        self.reading: float | None = None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.clear_previews()
        self._start = self._anchor(pos)
        pen = QPen(QColor(200, 30, 30), 0.08)
        self._line = QGraphicsLineItem()
        self._line.setPen(pen)
        self._label = screen_label(11)
        self._label.setBrush(QColor(140, 10, 10))
        self.add_preview(self._line)
        self.add_preview(self._label)
        self._update(pos)
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._start is None or not (event.buttons() & Qt.MouseButton.LeftButton):
            return False
        self._update(pos)
        return True

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._start is None:
            return False
        self._update(pos)
        self._start = None
        return True

    def cancel(self) -> None:
        self._start = None
        self.reading = None
        super().cancel()

    def _anchor(self, pos: QPointF) -> Pt:
        """Figures are measured from their centre (the base radius is taken off later)."""
        fid = pick(self.ctx, pos)
        for f in self.ctx.document.battlefield.figures():
            if f.id == fid:
                return (f.x, f.y)
        return (pos.x(), pos.y())

    def _update(self, pos: QPointF) -> None:
        assert self._start is not None and self._line is not None and self._label is not None
        end = self._anchor(pos)
        self._line.setLine(self._start[0], self._start[1], end[0], end[1])
        distance, how = base_to_base(self.ctx, self._start, end)
        self.reading = distance
        text = f'{distance:.1f}"' + (f" {how}" if how else "")
        self._label.setText(text)
        self._label.setPos(end[0] + 0.3, end[1] + 0.3)
        self.ctx.show_message(f"Measure: {text}")
