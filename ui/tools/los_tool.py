"""LOS probe: pick a figure, then another figure or a spot, and see the verdict and why."""

from __future__ import annotations

import re

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from crdesk.geometry import LosResult, TerrainIndex, build_index, line_of_sight
from crdesk.geometry import line_of_sight_to_point as los_to_point
from crdesk.model import Battlefield
from ui.tools.base import EditorContext, Tool
from ui.tools.select_tool import pick

CLEAR = QColor(30, 160, 60)
CONCEALED = QColor(230, 170, 0)
COVER = QColor(30, 110, 220)
BLOCKED = QColor(210, 40, 40)


def verdict_colour(result: LosResult) -> QColor:
    """Blocked red, Cover blue, concealed amber, clear green (the probe's legend)."""
    if not result.visible:
        return BLOCKED
    if result.cover:
        return COVER
    if result.concealed:
        return CONCEALED
    return CLEAR


_CITATION = re.compile(r"\s*\((\d+(?:\.\d+)*(?:,\s*\d+(?:\.\d+)*)*)\)")


def _cite(text: str) -> str:
    """ "woods block (15.2)" -> "woods block [§15.2]": a section, not a distance."""
    return _CITATION.sub(lambda m: f" [§{m.group(1)}]", text)


CALLOUT_GAP = 14.0
"""Screen pixels between the probed spot and its callout."""


class Callout(QGraphicsItem):
    """The probe's verdict on a dark rounded card with a verdict-coloured edge.

    Drawn in screen pixels (it ignores the view's zoom) and placed by
    :meth:`place` so it always lies wholly inside the visible part of the view.
    """

    PAD = 6.0

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.font = QFont()
        self.font.setPointSizeF(10)
        self._lines: list[str] = []
        self._colour = QColor(CLEAR)
        self._size = (0.0, 0.0)

    def set_text(self, text: str, colour: QColor) -> None:
        self.prepareGeometryChange()
        # the verdict, then its reason and distance on lines of their own
        head, *rest = [part.strip() for part in text.split(";") if part.strip()] or [""]
        verdict, _, why = head.partition(": ")
        self._lines = [verdict + (":" if why else ""), *([why] if why else []), *rest]
        self._colour = QColor(colour)
        metrics = QFontMetricsF(self.font)
        width = max((metrics.horizontalAdvance(line) for line in self._lines), default=0.0)
        height = metrics.lineSpacing() * len(self._lines)
        self._size = (width + 2 * self.PAD + 4, height + 2 * self.PAD)
        self.update()

    def text(self) -> str:
        return "\n".join(self._lines)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, *self._size)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        rect = self.boundingRect()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self._colour, 1.5))
        painter.setBrush(QColor(25, 28, 32, 235))
        painter.drawRoundedRect(rect.adjusted(0.75, 0.75, -0.75, -0.75), 5, 5)
        painter.fillRect(QRectF(1, 4, 4, rect.height() - 8), self._colour)
        painter.setFont(self.font)
        metrics = QFontMetricsF(self.font)
        y = self.PAD + metrics.ascent()
        for i, line in enumerate(self._lines):
            painter.setPen(QColor(255, 255, 255) if i == 0 else QColor(215, 220, 225))
            painter.drawText(QPointF(self.PAD + 4, y), line)
            y += metrics.lineSpacing()

    def place(self, view: QGraphicsView, anchor: QPointF) -> None:
        """Next to ``anchor`` (table inches), flipped and clamped to stay inside the view."""
        area = view.viewport().rect()
        at = view.mapFromScene(anchor)
        w, h = self._size
        x = at.x() + CALLOUT_GAP
        y = at.y() + CALLOUT_GAP
        if x + w > area.right() - 4:
            x = at.x() - CALLOUT_GAP - w
        if y + h > area.bottom() - 4:
            y = at.y() - CALLOUT_GAP - h
        x = min(max(x, area.left() + 4), area.right() - 4 - w)
        y = min(max(y, area.top() + 4), area.bottom() - 4 - h)
        self.setPos(view.mapToScene(round(x), round(y)))

    def screen_rect(self, view: QGraphicsView) -> QRectF:
        """Where the callout is drawn, in the view's viewport pixels (for tests)."""
        top_left = view.mapFromScene(self.pos())
        return QRectF(top_left.x(), top_left.y(), *self._size)


def describe(result: LosResult, battlefield: Battlefield) -> str:
    """The verdict in words, naming the terrain or figure by its name, not its id."""
    names = {f.id: f.name for f in battlefield.terrain}
    names.update({f.id: f.name for f in battlefield.figures()})
    if not result.visible:
        text = f"Blocked: {_cite(result.reason.text)}"
        if result.feature_id:
            text += f" — {names.get(result.feature_id, result.feature_id)}"
        return text
    parts = []
    if result.cover:
        parts.append("in Cover")
    if result.concealed:
        parts.append("concealed")
    why = sorted({names.get(r.feature_id, r.feature_id) for r in result.cover_reasons})
    text = "Clear line of sight" if not parts else "In sight, " + " and ".join(parts)
    if why:
        text += f" ({', '.join(why)})"
    return text + f'; {result.distance:.1f}" base to base'


class LosProbeTool(Tool):
    """Click a viewer figure, then move over the table: the line shows what it sees."""

    name = "LOS probe"
    shortcut = "L"
    tooltip = "Click a figure, then point at or click another figure or a spot; Esc resets"
    snaps = False

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context)
        self.viewer: str | None = None
        self.result: LosResult | None = None
        self.text = ""
        self._line: QGraphicsLineItem | None = None
        self._label: Callout | None = None
        self._index: TerrainIndex | None = None
        self._index_revision = -1
        self._pinned = False

    def _terrain_index(self) -> TerrainIndex:
        bf = self.ctx.document.battlefield
        if self._index is None or self._index_revision != bf.terrain_revision:
            self._index = build_index(bf, self.ctx.document.scenario.rules, raster=False)
            self._index_revision = bf.terrain_revision
        return self._index

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        hit = pick(self.ctx, pos)
        figures = {f.id for f in self.ctx.document.battlefield.figures()}
        if self.viewer is not None and self.viewer not in figures:
            self.cancel()  # the viewer was deleted (or undone away) since it was chosen
        if self.viewer is None or self._pinned:
            if hit in figures:
                self.cancel()
                self.viewer = hit
                self.ctx.show_message("LOS probe: now point at a figure or a spot")
            return True
        self.probe(pos)
        self._pinned = True
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self.viewer is not None and not self._pinned:
            self.probe(pos)
        return False

    def cancel(self) -> None:
        self.viewer = None
        self.result = None
        self.text = ""
        self._pinned = False
        self._line = None
        self._label = None
        super().cancel()

    def probe(self, pos: QPointF) -> LosResult | None:
        """Check the line from the viewer to the figure (or spot) at ``pos`` and draw it."""
        if self.viewer is None:
            return None
        bf = self.ctx.document.battlefield
        rules = self.ctx.document.scenario.rules
        figures = {f.id: f for f in bf.figures()}
        if self.viewer not in figures:  # deleted since it was chosen: nothing to probe
            self.cancel()
            return None
        index = self._terrain_index()
        target = pick(self.ctx, pos)
        if target in figures and target != self.viewer:
            end = (figures[target].x, figures[target].y)
            result = line_of_sight(bf, self.viewer, target, rules, index=index)
        else:
            end = (pos.x(), pos.y())
            result = los_to_point(bf, self.viewer, end, rules, index=index)
        self.result = result
        self.text = describe(result, bf)
        self._draw(figures[self.viewer].position, end, verdict_colour(result))
        self.ctx.show_message(f"LOS: {self.text}")
        return result

    def _draw(self, start: tuple[float, float], end: tuple[float, float], colour: QColor) -> None:
        if self._line is None or self._label is None:
            self._line = QGraphicsLineItem()
            self._label = Callout()
            self.add_preview(self._line)
            self.add_preview(self._label)
        pen = QPen(colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(3.0)
        self._line.setPen(pen)
        self._line.setLine(start[0], start[1], end[0], end[1])
        self._label.setZValue(self._line.zValue() + 1)
        self._label.set_text(self.text, colour)
        self._label.place(self.ctx.view, QPointF(*end))
