"""Dice drawn as dice: one painter for every panel of the play mode.

A :class:`Die` is a face with its looks -- the colour of the side that rolled
it, a verdict (a hit is green, a miss red, a middling result amber), or faded
for a roll that no longer counts (rerolled doubles).  :class:`DiceRow` paints
a row of them and shows each die's own tooltip.  Nothing here reads a rule:
the verdicts come from the event data the controller wrote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QHelpEvent, QIcon, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

GOOD = "good"
BAD = "bad"
MID = "mid"

VERDICT_FILL: dict[str, QColor] = {
    GOOD: QColor(214, 240, 214),
    BAD: QColor(248, 214, 210),
    MID: QColor(250, 234, 196),
}
VERDICT_EDGE: dict[str, QColor] = {
    GOOD: QColor(34, 130, 60),
    BAD: QColor(190, 40, 35),
    MID: QColor(196, 130, 20),
}
WHITE = QColor(252, 252, 248)
INK = QColor(30, 30, 30)
EDGE = QColor(70, 70, 70)

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@dataclass(frozen=True, slots=True)
class Die:
    """One die to draw: its face and how it looks."""

    face: int
    fill: QColor | None = None
    """The die's colour (a side's); None: white, or the verdict's tint."""
    verdict: str | None = None
    """:data:`GOOD`, :data:`BAD`, :data:`MID` or None (no judgement)."""
    faded: bool = False
    """Drawn greyed: a roll that was made but does not count (rerolled doubles)."""
    tip: str = ""


def pip_colour(fill: QColor) -> QColor:
    """Black pips on a light die, white on a dark one."""
    return INK if fill.lightnessF() > 0.6 else WHITE


def paint_die(
    painter: QPainter,
    rect: QRectF,
    face: int,
    *,
    fill: QColor | None = None,
    verdict: str | None = None,
    faded: bool = False,
) -> None:
    """One die with its pips (a face outside 1-6 is written as a number)."""
    body = QColor(fill) if fill is not None else QColor(VERDICT_FILL.get(verdict or "", WHITE))
    edge = QColor(VERDICT_EDGE.get(verdict or "", EDGE))
    width = max(1.0, rect.width() / 11) if verdict else 1.0
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if faded:
        painter.setOpacity(painter.opacity() * 0.45)
    inner = rect.adjusted(width / 2, width / 2, -width / 2, -width / 2)
    painter.setPen(QPen(edge, width))
    painter.setBrush(body)
    painter.drawRoundedRect(inner, inner.width() * 0.2, inner.width() * 0.2)
    pips = _PIPS.get(face)
    ink = pip_colour(body)
    if pips is None:
        painter.setPen(ink)
        painter.drawText(inner, Qt.AlignmentFlag.AlignCenter, str(face))
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        r = inner.width() * 0.09
        for fx, fy in pips:
            painter.drawEllipse(
                QPointF(inner.left() + fx * inner.width(), inner.top() + fy * inner.height()), r, r
            )
    painter.restore()


def paint_slot(painter: QPainter, rect: QRectF) -> None:
    """An empty place for a die not entered yet (a dashed outline)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(130, 130, 130), 1.5, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    inner = rect.adjusted(1, 1, -1, -1)
    painter.drawRoundedRect(inner, inner.width() * 0.2, inner.width() * 0.2)
    painter.restore()


def die_icon(face: int, size: int = 32, fill: QColor | None = None) -> QIcon:
    """A die face as an icon (1x and 2x), for buttons."""
    icon = QIcon()
    for ratio in (1.0, 2.0):
        pixmap = QPixmap(round(size * ratio), round(size * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        try:
            paint_die(painter, QRectF(1, 1, size - 2, size - 2), face, fill=fill)
        finally:
            painter.end()
        icon.addPixmap(pixmap)
    return icon


class DiceRow(QWidget):
    """A row of dice (and empty slots), each with its own tooltip.

    With ``wrap`` the dice that do not fit the row's width go on to further lines
    (its height follows its width), so a big roll never widens the panel it is in:
    a melee of forty dice is forty dice, on as many lines as it takes.
    """

    def __init__(
        self, size: int = 20, parent: QWidget | None = None, *, wrap: bool = False
    ) -> None:
        super().__init__(parent)
        self.die_size = size
        self.gap = max(3, size // 5)
        self.wrap = wrap
        self.dice: tuple[Die, ...] = ()
        self.slots = 0
        """Empty places drawn after the dice (dice still to be entered)."""
        if wrap:
            policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            policy.setHeightForWidth(True)
            self.setSizePolicy(policy)
        else:
            self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_dice(self, dice: Sequence[Die], slots: int = 0) -> None:
        self.dice = tuple(dice)
        self.slots = max(0, slots)
        self.updateGeometry()
        self.update()

    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)

    def _count(self) -> int:
        return len(self.dice) + self.slots

    def _span(self, n: int) -> int:
        """Pixels taken by ``n`` dice side by side (and the row's 1-pixel rims)."""
        return n * self.die_size + max(0, n - 1) * self.gap + 2

    def per_line(self, width: int | None = None) -> int:
        """How many dice go on one line at ``width`` (the row's own width by default)."""
        n = max(1, self._count())
        if not self.wrap:
            return n
        room = self.width() if width is None else width
        return max(1, min(n, (room - 2 + self.gap) // (self.die_size + self.gap)))

    def sizeHint(self) -> QSize:
        return QSize(max(self._span(self._count()), 1), self.die_size + 2)

    def minimumSizeHint(self) -> QSize:
        if self.wrap:
            return QSize(self._span(1), self.die_size + 2)
        return self.sizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.wrap

    def heightForWidth(self, width: int) -> int:
        lines = -(-max(1, self._count()) // self.per_line(width))
        return lines * self.die_size + (lines - 1) * self.gap + 2

    def _rect(self, k: int) -> QRectF:
        line, place = divmod(k, self.per_line())
        step = self.die_size + self.gap
        return QRectF(1 + place * step, 1 + line * step, self.die_size, self.die_size)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            for k, die in enumerate(self.dice):
                paint_die(
                    painter,
                    self._rect(k),
                    die.face,
                    fill=die.fill,
                    verdict=die.verdict,
                    faded=die.faded,
                )
            for k in range(len(self.dice), self._count()):
                paint_slot(painter, self._rect(k))
        finally:
            painter.end()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            pos = QPointF(event.pos())
            for k, die in enumerate(self.dice):
                if self._rect(k).contains(pos) and die.tip:
                    QToolTip.showText(event.globalPos(), die.tip, self)
                    return True
            if self.toolTip():
                QToolTip.showText(event.globalPos(), self.toolTip(), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)
