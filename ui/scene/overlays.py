"""Table-wide overlays: the nine sections (digest 1) and the inch grid.

Both are plain items on their own z layers that the view menu toggles; they
hold no model id because they follow the table, not a feature.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from crdesk.model import Table
from ui.scene.ground import GroundLayer, ground_changed, ground_rect
from ui.scene.layers import ItemType, Layer
from ui.scene.shapes import dashed_stroke, text_path
from ui.scene.style import TableStyle


class SectionNumbers(QGraphicsItem):
    """The large faint section numbers, one item so the editor can restyle them apart."""

    Type = ItemType.SECTION_NUMBERS

    def __init__(self, table: Table, style: TableStyle) -> None:
        super().__init__()
        self._style = style
        self._table = table
        self._digits: list[QPainterPath] = []
        self._bounds = QRectF()
        self.setZValue(Layer.SECTION_NUMBERS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ground: GroundLayer | None = None
        """The scene's ground layer, which paints and caches this item."""
        self.sync_from_model(table)

    def type(self) -> int:
        return int(self.Type)

    def sync_from_model(self, table: Table) -> None:
        old = ground_rect(self)
        self.prepareGeometryChange()
        self._table = table
        height = min(table.width, table.height) / 3 * 0.42
        self._digits = []
        for n in range(1, 10):
            cx, cy = table.section_centre(n)
            digit = text_path(str(n), height, self._style.font_family).translated(cx, cy)
            self._digits.append(digit)
        self._bounds = QRectF()
        for digit in self._digits:
            self._bounds = self._bounds.united(digit.boundingRect())
        self.update()
        ground_changed(self, old)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged and _toggled(
            self, value
        ):
            ground_changed(self)
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._style.section_number)
        # digit by digit: one path spanning the table costs the rasteriser some
        # ten times more than nine small ones (a cold render of the table, issue 6)
        for digit in self._digits:
            painter.drawPath(digit)


class SectionOverlay(QGraphicsItem):
    """The nine sections (1-3 far edge, 7-9 player's edge): lines over the terrain.

    Its companion :attr:`numbers` item carries the big numbers; showing or
    hiding the overlay shows or hides both.
    """

    Type = ItemType.SECTIONS

    def __init__(self, table: Table, style: TableStyle) -> None:
        super().__init__()
        self._style = style
        self._table = table
        self.numbers = SectionNumbers(table, style)
        self._lines = QPainterPath()
        self._layout_lines()
        self.setZValue(Layer.SECTIONS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ground: GroundLayer | None = None
        """The scene's ground layer, which paints and caches this item."""

    def type(self) -> int:
        return int(self.Type)

    def sync_from_model(self, table: Table) -> None:
        """Re-lay the lines and numbers for a (possibly resized) table."""
        old = ground_rect(self)
        self.prepareGeometryChange()
        self._table = table
        self.numbers.sync_from_model(table)
        self._layout_lines()
        self.update()
        ground_changed(self, old)

    def _layout_lines(self) -> None:
        w, h = self._table.width, self._table.height
        lines = QPainterPath()
        for k in (1, 2):
            lines.moveTo(w * k / 3, 0)
            lines.lineTo(w * k / 3, h)
            lines.moveTo(0, h * k / 3)
            lines.lineTo(w, h * k / 3)
        self._lines = dashed_stroke(lines, 0.07, [6, 4])

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged:
            self.numbers.setVisible(bool(value))
            if _toggled(self, value):
                ground_changed(self)
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self._table.width, self._table.height).adjusted(-0.1, -0.1, 0.1, 0.1)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._style.section_line)
        painter.drawPath(self._lines)


class GridOverlay(QGraphicsItem):
    """A 1" grid with a stronger line every 6" (off by default; for measuring by eye)."""

    Type = ItemType.GRID

    def __init__(self, table: Table, style: TableStyle) -> None:
        super().__init__()
        self._style = style
        self._table = table
        self.setZValue(Layer.GRID)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ground: GroundLayer | None = None
        """The scene's ground layer, which paints and caches this item."""

    def type(self) -> int:
        return int(self.Type)

    def sync_from_model(self, table: Table) -> None:
        old = ground_rect(self)
        self.prepareGeometryChange()
        self._table = table
        self.update()
        ground_changed(self, old)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemVisibleHasChanged and _toggled(
            self, value
        ):
            ground_changed(self)
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self._table.width, self._table.height).adjusted(-0.1, -0.1, 0.1, 0.1)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        w, h = self._table.width, self._table.height
        minor = QPen(self._style.grid_line, 0)  # cosmetic: one pixel at any zoom
        major = QPen(self._style.grid_line_major, 0)
        for i in range(1, int(w) + 1):
            if i < w:
                painter.setPen(major if i % 6 == 0 else minor)
                painter.drawLine(QLineF(i, 0, i, h))
        for j in range(1, int(h) + 1):
            if j < h:
                painter.setPen(major if j % 6 == 0 else minor)
                painter.drawLine(QLineF(0, j, w, j))


def _toggled(item: QGraphicsItem, value: object) -> bool:
    """Whether a visibility notice really changes what the ground shows of ``item``.

    Qt tells every newly added visible item "visible has changed" once more when
    the scene first polishes it (at the first turn of the event loop); repairing
    the ground's tiles for that threw away the tiles the play mode renders before
    the table's first paint (:meth:`~ui.scene.ground.GroundLayer.prepare`).
    """
    shown = bool(value)
    if getattr(item, "_ground_shown", True) == shown:
        return False
    item._ground_shown = shown  # type: ignore[attr-defined]
    return True
