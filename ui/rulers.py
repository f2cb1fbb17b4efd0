"""Rulers along the top and left of the view, in table inches, with a pointer mark."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from ui.scene.view import BattlefieldView

RULER_SIZE = 22
MAJOR_STEPS = (1, 2, 3, 6, 12, 24, 48)
"""Inches between labelled ticks; a foot (12") is a natural unit on a wargames table."""
MIN_LABEL_GAP = 48
"""Screen pixels between labels, so numbers never crowd."""


def major_step(pixels_per_inch: float) -> int:
    """The smallest labelled step that leaves room for the numbers.

    >>> major_step(60), major_step(20), major_step(4)
    (1, 3, 12)
    """
    for step in MAJOR_STEPS:
        if step * pixels_per_inch >= MIN_LABEL_GAP:
            return step
    return MAJOR_STEPS[-1]


class Ruler(QWidget):
    """One ruler; it reads the view's transform and scroll position on every paint."""

    def __init__(self, view: BattlefieldView, orientation: Qt.Orientation) -> None:
        super().__init__()
        self.view = view
        self.orientation = orientation
        self.pointer: float | None = None
        horizontal = orientation == Qt.Orientation.Horizontal
        self.setSizePolicy(
            QSizePolicy.Policy.Expanding if horizontal else QSizePolicy.Policy.Fixed,
            QSizePolicy.Policy.Fixed if horizontal else QSizePolicy.Policy.Expanding,
        )
        self.setToolTip("Table inches from the far-left corner")
        view.zoom_changed.connect(self.update)
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        view.pointer_moved.connect(self.show_pointer)
        view.pointer_left.connect(self.hide_pointer)

    def sizeHint(self) -> QSize:
        return QSize(RULER_SIZE, RULER_SIZE)

    def show_pointer(self, point: QPointF) -> None:
        self.pointer = point.x() if self.orientation == Qt.Orientation.Horizontal else point.y()
        self.update()

    def hide_pointer(self) -> None:
        self.pointer = None
        self.update()

    def _to_pixel(self, inches: float) -> float:
        if self.orientation == Qt.Orientation.Horizontal:
            return float(self.view.mapFromScene(QPointF(inches, 0)).x())
        return float(self.view.mapFromScene(QPointF(0, inches)).y())

    def visible_range(self) -> tuple[float, float]:
        """The span of table inches the ruler covers now."""
        rect = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if self.orientation == Qt.Orientation.Horizontal:
            return rect.left(), rect.right()
        return rect.top(), rect.bottom()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Window))
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        font = painter.font()
        font.setPointSizeF(7.5)
        painter.setFont(font)
        ppi = self.view.pixels_per_inch()
        step = major_step(ppi)
        minor = 1 if ppi >= 6 else step
        start, end = self.visible_range()
        horizontal = self.orientation == Qt.Orientation.Horizontal
        size = RULER_SIZE
        for inch in range(math.floor(start), math.ceil(end) + 1):
            if inch % minor:
                continue
            pos = self._to_pixel(inch)
            major = inch % step == 0 and inch >= 0  # table inches start at the far-left corner
            length = size * (0.5 if major else 0.25)
            if horizontal:
                painter.drawLine(QPointF(pos, size), QPointF(pos, size - length))
                if major:
                    painter.drawText(QRectF(pos + 2, 0, 40, size / 2 + 2), str(inch))
            else:
                painter.drawLine(QPointF(size, pos), QPointF(size - length, pos))
                if major:
                    painter.save()
                    painter.translate(2, pos + 2)
                    painter.rotate(90)
                    painter.drawText(QRectF(0, -size / 2 - 2, 40, size / 2 + 2), str(inch))
                    painter.restore()
        if self.pointer is not None:
            pos = self._to_pixel(self.pointer)
            painter.setPen(palette.color(QPalette.ColorRole.Highlight))
            if horizontal:
                painter.drawLine(QPointF(pos, 0), QPointF(pos, size))
            else:
                painter.drawLine(QPointF(0, pos), QPointF(size, pos))
        painter.end()


class RuledView(QWidget):
    """The view with rulers on its top and left edges."""

    def __init__(self, view: BattlefieldView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.top = Ruler(view, Qt.Orientation.Horizontal)
        self.left = Ruler(view, Qt.Orientation.Vertical)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        corner = QWidget()
        corner.setFixedSize(RULER_SIZE, RULER_SIZE)
        layout.addWidget(corner, 0, 0)
        layout.addWidget(self.top, 0, 1)
        layout.addWidget(self.left, 1, 0)
        layout.addWidget(view, 1, 1)

    def set_rulers_visible(self, visible: bool) -> None:
        for widget in (self.top, self.left):
            widget.setVisible(visible)
        corner = self.layout().itemAt(0).widget()
        if corner is not None:
            corner.setVisible(visible)
