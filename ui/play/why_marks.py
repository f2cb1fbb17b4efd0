"""The program's "why" on the table: the spot a program-played figure chose, and the
next best candidates its player ranked, at the step where it moved (replay viewer).

Drawn from a :class:`~crdesk.ai.explain.Explanation` (nothing is ranked here): the
chosen spot a green ring round the figure standing there with a "1 ✓" badge, each
runner-up a numbered amber pin on its spot (grey and dashed when the rules refused a
move there), where the figure started a hollow ring ("from") and a dashed line from
there to where it went.  Every mark's tooltip gives the candidate's terms.  The ring
is in table inches (it goes round the figure's base at any zoom); badges and pins
keep their size on the screen.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from crdesk.ai.explain import Candidate, Explanation
from ui.scene.layers import Layer

WHY_Z = Layer.OVERLAYS + 4
"""Over the figures, under the status badges."""
CHOSEN = QColor("#2fae4e")
OTHER = QColor("#f0a01e")
REFUSED = QColor("#9a9a9a")
START = QColor("#f4f4f4")
RING_PX = 3.0
"""The rings' line width on the screen, in pixels."""
BADGE_PX = 17.0
"""Height of a rank badge on the screen, in pixels."""
PIN_PX = 17.0
"""Diameter of a runner-up's numbered pin on the screen, in pixels."""
TOP_Z = 10
"""Runners-up stack by rank: the better one on top where two pins overlap."""
RING_MARGIN = 0.3
"""Inches a ring stands out beyond the figure's base."""


_UP_RIGHT = QPointF(1.0, -1.0)


def colour_of(candidate: Candidate) -> QColor:
    if candidate.chosen:
        return CHOSEN
    return OTHER if candidate.playable else REFUSED


class SpotRing(QGraphicsItem):
    """A ring round a spot, in table inches, its line in screen pixels."""

    def __init__(self, radius: float, colour: QColor, dashed: bool = False) -> None:
        super().__init__()
        self.radius = radius
        self.colour = QColor(colour)
        self.dashed = dashed
        self.setZValue(WHY_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(True)

    def boundingRect(self) -> QRectF:
        r = self.radius + 0.4
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius + 0.2, self.radius + 0.2)
        return path

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        under = QPen(QColor(0, 0, 0, 170), 0)
        under.setCosmetic(True)
        under.setWidthF(RING_PX + 2.0)
        painter.setPen(under)
        painter.drawEllipse(QPointF(0, 0), self.radius, self.radius)
        pen = QPen(self.colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(RING_PX)
        if self.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawEllipse(QPointF(0, 0), self.radius, self.radius)


class RankBadge(QGraphicsItem):
    """A label ("1 ✓", "from") on a rounded plate, in screen pixels, beside the point it
    is placed at: towards ``towards`` (right or left, up or down)."""

    def __init__(self, text: str, colour: QColor, towards: QPointF = _UP_RIGHT) -> None:
        super().__init__()
        self.text = text
        self.colour = QColor(colour)
        self._font = QFont()
        self._font.setBold(True)
        self._font.setPixelSize(int(BADGE_PX * 0.72))
        width = max(BADGE_PX, QFontMetricsF(self._font).horizontalAdvance(text) + 8.0)
        x = 3.0 if towards.x() >= 0 else -3.0 - width
        y = -3.0 - BADGE_PX if towards.y() <= 0 else 3.0
        self._rect = QRectF(x, y, width, BADGE_PX)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(WHY_Z + 1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1.0))
        painter.setBrush(QBrush(self.colour))
        painter.drawRoundedRect(self._rect, 5, 5)
        dark = self.colour.lightnessF() > 0.55
        painter.setPen(QPen(QColor("black") if dark else QColor("white")))
        painter.setFont(self._font)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class CandidatePin(QGraphicsItem):
    """A runner-up: a numbered disc on its spot, in screen pixels (neighbouring spots are
    an inch apart: rings round each would run into one another)."""

    def __init__(self, text: str, colour: QColor, dashed: bool) -> None:
        super().__init__()
        self.text = text
        self.colour = QColor(colour)
        self.dashed = dashed
        self._font = QFont()
        self._font.setBold(True)
        self._font.setPixelSize(int(PIN_PX * 0.62))
        half = PIN_PX / 2
        self._disc = QRectF(-half, -half, PIN_PX, PIN_PX)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(WHY_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._disc.adjusted(-2, -2, 2, 2)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(self._disc)
        return path

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rim = QPen(QColor(0, 0, 0, 210), 1.4)
        if self.dashed:
            rim.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(rim)
        fill = QColor(self.colour)
        fill.setAlpha(235)
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(self._disc)
        painter.setPen(QPen(QColor("black")))
        painter.setFont(self._font)
        painter.drawText(self._disc, Qt.AlignmentFlag.AlignCenter, self.text)


class CandidateMark:
    """One candidate on the table: the chosen spot a ring round the figure standing
    there and a "1 ✓" badge; a runner-up a numbered pin on its spot."""

    def __init__(
        self, candidate: Candidate, radius: float, tip: str, ahead: QPointF = _UP_RIGHT
    ) -> None:
        """``ahead``: the way the figure went (the chosen spot's badge is put on that
        side of its ring, away from the runners-up, which lie mostly behind it)."""
        self.candidate = candidate
        colour = colour_of(candidate)
        x, y = candidate.spot
        self.ring: SpotRing | None = None
        self.badge: QGraphicsItem
        if candidate.chosen:
            self.ring = SpotRing(radius, colour)
            self.ring.setPos(x, y)
            self.ring.setToolTip(tip)
            self.ring.setZValue(WHY_Z + 0.5)
            badge = RankBadge(f"{candidate.rank} ✓", colour, ahead)
            norm = math.hypot(ahead.x(), ahead.y()) or 1.0
            badge.setPos(x + radius * ahead.x() / norm, y + radius * ahead.y() / norm)
            self.badge = badge
        else:
            self.badge = CandidatePin(str(candidate.rank), colour, not candidate.playable)
            self.badge.setPos(x, y)
            self.badge.setZValue(WHY_Z + 0.1 * (TOP_Z - candidate.rank))
        self.badge.setToolTip(tip)

    def items(self) -> tuple[QGraphicsItem, ...]:
        return (self.badge,) if self.ring is None else (self.ring, self.badge)


class WhyMarks:
    """The candidates of the explanation shown (:meth:`show`), on ``scene``."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.explanation: Explanation | None = None
        self.marks: list[CandidateMark] = []
        self._others: list[QGraphicsItem] = []

    def show(self, why: Explanation | None, base_radius: float = 0.5) -> None:
        """Draw ``why``'s candidates (None: nothing); ``base_radius``: the figure's."""
        self.clear()
        self.explanation = why
        if why is None:
            return
        radius = base_radius + RING_MARGIN
        head = f"{why.name} ({why.player})\n{why.order}\n"
        ahead = QPointF(why.destination[0] - why.start[0], why.destination[1] - why.start[1])
        if ahead.isNull():
            ahead = _UP_RIGHT
        for candidate in why.candidates:
            mark = CandidateMark(candidate, radius, head + candidate.tooltip(), ahead)
            for item in mark.items():
                self.scene.addItem(item)
            self.marks.append(mark)
        start = SpotRing(base_radius * 0.8, START, dashed=True)
        start.setPos(*why.start)
        start.setToolTip(f"{why.name} started here")
        path = QGraphicsLineItem(*why.start, *why.destination)
        pen = QPen(CHOSEN, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        pen.setStyle(Qt.PenStyle.DashLine)
        path.setPen(pen)
        path.setZValue(WHY_Z - 0.5)
        path.setToolTip(f"{why.name}: from where it started to where it went")
        behind = QPointF(-ahead.x(), -ahead.y())
        badge = RankBadge("from", START, behind)
        norm = math.hypot(behind.x(), behind.y()) or 1.0
        badge.setPos(
            why.start[0] + base_radius * behind.x() / norm,
            why.start[1] + base_radius * behind.y() / norm,
        )
        for item in (path, start, badge):
            self.scene.addItem(item)
            self._others.append(item)

    def clear(self) -> None:
        for mark in self.marks:
            for item in mark.items():
                if item.scene() is not None:
                    item.scene().removeItem(item)
        for item in self._others:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.marks = []
        self._others = []
        self.explanation = None
