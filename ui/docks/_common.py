"""Helpers shared by the docks: the no-feedback binding context and small painted icons.

Icons are painted rather than loaded so they always match a force's own colour
and stay sharp at any device pixel ratio (each icon carries a 1x and a 2x
pixmap); the platform's stock icons are missing on some styles and offscreen.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, QSignalBlocker, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

ICON_SIZE = 16
"""Logical size of the dock icons, in device-independent pixels."""


@contextmanager
def signals_blocked(*objects: QObject) -> Iterator[None]:
    """Block the signals of widgets while the model's values are written into them.

    Widgets bind to the model both ways (the napari pattern): an edit pushes an
    undo command, the command changes the model, the model's change event
    refreshes the widgets.  Refreshing with signals blocked is what stops the
    refresh from pushing a second command.
    """
    with ExitStack() as stack:
        for obj in objects:
            stack.enter_context(QSignalBlocker(obj))
        yield


def disconnect_quietly(sender: QObject, signal_name: str, slot: Callable[..., Any]) -> None:
    """Disconnect a dock from a document that may already be deleted.

    A dock switching documents must not fail because the old document's C++
    object is gone (Qt has dropped the connection already, and even reading
    the signal attribute raises then).
    """
    with warnings.catch_warnings(), suppress(RuntimeError, TypeError):
        warnings.simplefilter("ignore", RuntimeWarning)
        getattr(sender, signal_name).disconnect(slot)


def _painted(draw: Callable[[QPainter, float], None], size: int = ICON_SIZE) -> QIcon:
    icon = QIcon()
    for ratio in (1.0, 2.0):
        pixmap = QPixmap(round(size * ratio), round(size * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        try:
            draw(painter, float(size))
        finally:
            painter.end()
        icon.addPixmap(pixmap)
    return icon


def _round_pen(colour: QColor | str, width: float) -> QPen:
    pen = QPen(QColor(colour), width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def swatch_icon(colour: str) -> QIcon:
    """A force's colour as a rounded square, the way the roster heads each force."""
    fill = QColor(colour)

    def draw(p: QPainter, s: float) -> None:
        p.setPen(QPen(fill.darker(150), 1))
        p.setBrush(fill)
        p.drawRoundedRect(QRectF(2.5, 2.5, s - 5, s - 5), 3, 3)

    return _painted(draw)


def _star(centre: QPointF, outer: float, inner: float) -> QPolygonF:
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        a = math.radians(-90 + 36 * k)
        points.append(QPointF(centre.x() + r * math.cos(a), centre.y() + r * math.sin(a)))
    return QPolygonF(points)


def figure_icon(colour: str, star: bool = False, template: bool = False) -> QIcon:
    """A figure's base in its force colour: a star for a Star, a dashed "+" for a template."""
    fill = QColor(colour)

    def draw(p: QPainter, s: float) -> None:
        c = QPointF(s / 2, s / 2)
        if template:
            pen = QPen(fill, 1.4, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(QBrush(QColor(fill.red(), fill.green(), fill.blue(), 40)))
            p.drawEllipse(c, s / 2 - 2, s / 2 - 2)
            p.setPen(QPen(fill.darker(130), 1.8))
            p.drawLine(QPointF(c.x() - 3.5, c.y()), QPointF(c.x() + 3.5, c.y()))
            p.drawLine(QPointF(c.x(), c.y() - 3.5), QPointF(c.x(), c.y() + 3.5))
            return
        p.setPen(QPen(fill.darker(160), 1))
        p.setBrush(fill)
        if star:
            p.drawPolygon(_star(c, s / 2 - 0.5, s / 4 - 0.5))
        else:
            p.drawEllipse(c, s / 2 - 3, s / 2 - 3)

    return _painted(draw)


SEVERITY_COLOURS = {"error": "#c62828", "warning": "#e0a000"}


def severity_icon(severity: str) -> QIcon:
    """A red disc for an error, an amber triangle for a warning, each with a white mark."""

    def draw(p: QPainter, s: float) -> None:
        colour = QColor(SEVERITY_COLOURS.get(severity, "#777777"))
        p.setPen(QPen(colour.darker(140), 1))
        p.setBrush(colour)
        if severity == "error":
            p.drawEllipse(QRectF(1.5, 1.5, s - 3, s - 3))
            p.setPen(_round_pen("white", 2))
            p.drawLine(QPointF(5.5, 5.5), QPointF(s - 5.5, s - 5.5))
            p.drawLine(QPointF(s - 5.5, 5.5), QPointF(5.5, s - 5.5))
        else:
            path = QPainterPath()
            path.moveTo(s / 2, 1.5)
            path.lineTo(s - 1, s - 2)
            path.lineTo(1, s - 2)
            path.closeSubpath()
            p.drawPath(path)
            p.setPen(_round_pen("white", 1.8))
            p.drawLine(QPointF(s / 2, 6), QPointF(s / 2, s - 7))
            p.drawPoint(QPointF(s / 2, s - 4.5))

    return _painted(draw)


def clean_icon() -> QIcon:
    """The history's saved-state mark: a small green tick."""

    def draw(p: QPainter, s: float) -> None:
        p.setPen(_round_pen("#2e7d32", 2.2))
        path = QPainterPath()
        path.moveTo(3.5, s / 2 + 0.5)
        path.lineTo(s / 2 - 1, s - 4)
        path.lineTo(s - 3, 4)
        p.drawPath(path)

    return _painted(draw)
