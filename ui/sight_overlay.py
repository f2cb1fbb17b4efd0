"""Sight lines and cohesion links of the focused figure, redrawn as it is dragged.

The overlay asks the core's :class:`~crdesk.visibility.VisibilityService` for
one row per move (the focused figure against all others, with its cohesion
links); it computes no rules itself.  Lines are batched into one path item per colour with opaque
cosmetic pens: a hundred semi-transparent single lines cost several times more
to paint on every drag frame.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from crdesk.events import Change
from crdesk.model import Figure
from crdesk.visibility import VisibilityService
from ui.document import Document
from ui.scene.scene import BattlefieldScene

OVERLAY_Z = 5_000.0
"""Above terrain and figures' bases, below tool previews and the selection outline."""

COLOURS = {
    "clear": QColor(40, 170, 70),
    "concealed": QColor(225, 165, 0),
    "cover": QColor(40, 110, 225),
    "blocked": QColor(205, 50, 50),
    "link": QColor(255, 255, 255),
}

ARC_RADIUS = 4.0
"""Inches the front-arc wedge reaches out: a hint of the 180° front, not a range."""
FRONT = QColor(255, 190, 0)


def _item(
    colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    pen = QPen(colour)
    pen.setCosmetic(True)
    pen.setWidthF(width)
    pen.setStyle(style)
    item.setPen(pen)
    item.setZValue(OVERLAY_Z)
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    return item


class SightOverlay(QObject):
    """Draws what the one selected figure sees, and its links to its group."""

    def __init__(self, document: Document, scene: BattlefieldScene) -> None:
        super().__init__(scene)
        self.document = document
        self.scene = scene
        self.service = VisibilityService(document.battlefield, document.scenario.rules)
        self.items = {
            "blocked": _item(COLOURS["blocked"], 1.0, Qt.PenStyle.DotLine),
            "clear": _item(COLOURS["clear"], 2.0),
            "concealed": _item(COLOURS["concealed"], 2.0),
            "cover": _item(COLOURS["cover"], 2.0),
            "link": _item(COLOURS["link"], 2.5, Qt.PenStyle.DashLine),
        }
        # the selected figure's front (LOS is to the front only, 7.9.4; its 180°
        # half plane, 1) and a facing arrow big enough to read at any zoom
        self.arc = _item(FRONT, 1.0, Qt.PenStyle.DashLine)
        fill = QColor(FRONT)
        fill.setAlpha(28)
        self.arc.setBrush(QBrush(fill))
        self.arc.setZValue(OVERLAY_Z - 1)
        self.arrow = _item(FRONT.darker(160), 1.0)
        self.arrow.setBrush(QBrush(FRONT))
        self.arrow.setZValue(OVERLAY_Z + 1)
        for item in (*self.items.values(), self.arc, self.arrow):
            scene.addItem(item)
        self.enabled = True
        self.focus: str | None = None
        self.counts: dict[str, int] = {}
        document.selection_changed.connect(self.refresh)
        document.model_changed.connect(self._on_change)

    def close(self) -> None:
        self.service.close()
        self.document.selection_changed.disconnect(self.refresh)
        self.document.model_changed.disconnect(self._on_change)
        for item in (*self.items.values(), self.arc, self.arrow):
            if item.scene() is not None:
                item.scene().removeItem(item)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        self.refresh()

    def _on_change(self, change: Change) -> None:
        if change.what != "force" and (self.focus is not None or change.what == "battlefield"):
            self.refresh()

    def _focused_figure(self) -> str | None:
        figures = {f.id for f in self.document.battlefield.figures()}
        chosen = [i for i in self.document.selection if i in figures]
        return chosen[0] if len(chosen) == 1 else None

    def refresh(self) -> None:
        """Redraw for the current model and selection."""
        self.focus = self._focused_figure() if self.enabled else None
        paths = {key: QPainterPath() for key in self.items}
        self.counts = dict.fromkeys(self.items, 0)
        arc, arrow = QPainterPath(), QPainterPath()
        if self.focus is not None:
            me = self.document.battlefield.figure(self.focus)
            arc, arrow = _front(me.x, me.y, me.radius, me.facing)
            # a figure Out of the Fight or dead sees nothing and links to no one (7.8)
            if me.status.can_act:
                self._draw(self.focus, paths)
        for key, item in self.items.items():
            item.setPath(paths[key])
        self.arc.setPath(arc)
        self.arrow.setPath(arrow)

    def _draw(self, focus: str, paths: dict[str, QPainterPath]) -> None:
        bf = self.document.battlefield
        if self.service.rules != self.document.scenario.rules:
            self.service.set_rules(self.document.scenario.rules)
        # one row, not the whole matrix: while the figure is dragged only its own
        # pairs change, and the cohesion links come with the row (6.2)
        row = self.service.row(focus)
        figures = {f.id: f for f in bf.figures()}
        me = figures[focus]
        sees, cover = row.sees.tolist(), row.cover_from.tolist()
        concealed = row.concealed_from.tolist()
        for j, other_id in enumerate(row.ids):
            if other_id == focus:
                continue
            other = figures[other_id]
            if other.side == me.side or not other.status.can_act:
                continue
            if not sees[j]:
                key = "blocked"
            elif cover[j]:
                key = "cover"
            elif concealed[j]:
                key = "concealed"
            else:
                key = "clear"
            _line(paths[key], me, other)
            self.counts[key] += 1
        for neighbour in row.links:
            other = figures[neighbour]
            if not other.status.can_act:
                continue
            _line(paths["link"], me, other)
            self.counts["link"] += 1


def _line(path: QPainterPath, a: Figure, b: Figure) -> None:
    """From base edge to base edge: the line never covers a figure's Rep number."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    if length <= a.radius + b.radius:
        return
    ux, uy = dx / length, dy / length
    path.moveTo(a.x + ux * a.radius, a.y + uy * a.radius)
    path.lineTo(b.x - ux * b.radius, b.y - uy * b.radius)


def _front(x: float, y: float, r: float, facing: float) -> tuple[QPainterPath, QPainterPath]:
    """The front half-disc (180°, 1) and a facing arrow just outside the base.

    Facing 0 points at the far edge (-y), clockwise on the table.
    """
    arc = QPainterPath()
    rect = QRectF(x - ARC_RADIUS, y - ARC_RADIUS, 2 * ARC_RADIUS, 2 * ARC_RADIUS)
    # Qt's arc angles run counter-clockwise on screen from 3 o'clock; facing 0 is
    # 12 o'clock (Qt 90) and turns clockwise, so the front spans Qt -facing .. 180-facing
    arc.moveTo(x, y)
    arc.arcTo(rect, -facing, 180.0)
    arc.closeSubpath()
    rad = math.radians(facing)
    fx, fy = math.sin(rad), -math.cos(rad)
    sx, sy = -fy, fx
    base, tip, half = r * 1.05, r * 2.1, r * 0.55
    arrow = QPainterPath()
    arrow.moveTo(QPointF(x + fx * tip, y + fy * tip))
    arrow.lineTo(QPointF(x + fx * base + sx * half, y + fy * base + sy * half))
    arrow.lineTo(QPointF(x + fx * base - sx * half, y + fy * base - sy * half))
    arrow.closeSubpath()
    return arc, arrow
