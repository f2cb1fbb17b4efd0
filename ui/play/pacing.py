"""What the table says while it shows a step: the turn card and the log line of the event.

The :class:`~ui.play.animator.Animator` plays a step's events one after another;
these two overlays put them into words on the table itself, where the eye is:
:class:`TurnCard` ("Turn 6", and who activates first) while a new turn begins,
and :class:`EventLine` (the log's sentence of the event shown, in its side's
colour) under every other event.  Both are views of the animator's current beat,
never take the mouse or the keyboard (a click goes through to the table, which
finishes the show), and are hidden as soon as the show ends.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen, QTextOption
from PySide6.QtWidgets import QWidget

CARD_TOP = 0.16
"""Where the turn card stands: its top, as a fraction of the table's height."""
LINE_BOTTOM = 10
"""Pixels between the event line and the table's bottom edge."""
LINE_MAX_WIDTH = 760
LINE_MAX_LINES = 3
_TURN = re.compile(r"^Turn (\d+):\s*")
_SECTION = re.compile(r"\s*\(\d+(\.\d+)*\)\.?$")


def turn_words(text: str) -> tuple[str, str]:
    """An activation roll's sentence as a card: ("Turn 6", "Activation dice …; … first").

    >>> turn_words("Turn 6: activation dice Squad 6, Vipers 5; Squad activates first (7.1).")
    ('Turn 6', 'Activation dice Squad 6, Vipers 5; Squad activates first')
    """
    found = _TURN.match(text)
    title = f"Turn {found.group(1)}" if found else "New turn"
    rest = _SECTION.sub("", text[found.end() :] if found else text).strip().rstrip(".")
    return title, rest[:1].upper() + rest[1:]


class _Overlay(QWidget):
    """A painted plate over the table's viewport that lets every event through."""

    def __init__(self, area: QWidget) -> None:
        super().__init__(area)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.colour = QColor(40, 40, 40)
        area.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        resized = event.type() == QEvent.Type.Resize
        if resized and watched is self.parentWidget() and self.isVisible():
            self.place()
        return False

    def place(self) -> None:
        raise NotImplementedError

    def plate(self, painter: QPainter, alpha: int) -> QRectF:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        fill = QColor(self.colour)
        fill.setAlpha(alpha)
        painter.setPen(QPen(QColor(255, 255, 255, 220), 2.0))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 8, 8)
        return rect

    def ink(self) -> QColor:
        return QColor(20, 20, 20) if self.colour.lightnessF() > 0.62 else QColor("white")


class TurnCard(_Overlay):
    """ "Turn 6" in big letters, and the activation roll under it."""

    def __init__(self, area: QWidget) -> None:
        super().__init__(area)
        self.title = ""
        self.subtitle = ""
        self.colour = QColor(34, 38, 46)
        self._title_font = QFont()
        self._title_font.setBold(True)
        self._title_font.setPixelSize(34)
        self._sub_font = QFont()
        self._sub_font.setPixelSize(14)

    def show_turn(self, text: str) -> None:
        """Show the card for an activation roll's sentence (see :func:`turn_words`)."""
        self.title, self.subtitle = turn_words(text)
        self.setToolTip(text)
        self.place()
        self.show()
        self.raise_()
        self.update()

    def place(self) -> None:
        area = self.parentWidget()
        width = area.width() if area is not None else 800
        height = area.height() if area is not None else 600
        title = QFontMetricsF(self._title_font)
        sub = QFontMetricsF(self._sub_font)
        room = max(200.0, width - 40.0)
        text_w = max(title.horizontalAdvance(self.title), sub.horizontalAdvance(self.subtitle))
        w = min(room, text_w + 72)
        h = title.height() + sub.height() + 34
        self.setGeometry(int((width - w) / 2), int(height * CARD_TOP), int(w) + 1, int(h) + 1)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.plate(painter, 236)
        title = QFontMetricsF(self._title_font)
        top = rect.adjusted(12, 12, -12, 0)
        top.setHeight(title.height())
        painter.setFont(self._title_font)
        painter.setPen(self.ink())
        painter.drawText(top, Qt.AlignmentFlag.AlignCenter, self.title)
        below = QRectF(rect.left() + 12, top.bottom() + 4, rect.width() - 24, 0)
        below.setBottom(rect.bottom() - 6)
        soft = self.ink()
        soft.setAlpha(215)
        painter.setFont(self._sub_font)
        painter.setPen(soft)
        elided = QFontMetricsF(self._sub_font).elidedText(
            self.subtitle, Qt.TextElideMode.ElideRight, below.width()
        )
        painter.drawText(below, Qt.AlignmentFlag.AlignCenter, elided)
        painter.end()


class EventLine(_Overlay):
    """The log's sentence of the event the table shows, along the table's bottom edge."""

    def __init__(self, area: QWidget) -> None:
        super().__init__(area)
        self.text = ""
        self.count = ""
        """Which event of the step it is ("2/5")."""
        self._font = QFont()
        self._font.setPixelSize(14)
        self._count_font = QFont()
        self._count_font.setPixelSize(11)
        self._count_font.setBold(True)

    def show_line(self, text: str, count: str, colour: QColor) -> None:
        self.text = text
        self.count = count
        self.colour = QColor(colour)
        self.setToolTip(text)
        self.place()
        self.show()
        self.raise_()
        self.update()

    def _option(self) -> QTextOption:
        option = QTextOption(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        return option

    def _box(self, width: float, text: str) -> QRectF:
        """The rectangle ``text`` fills, wrapped at ``width``."""
        lines = QFontMetricsF(self._font)
        room = QRectF(0, 0, width, lines.height() * (LINE_MAX_LINES + 1))
        return lines.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text)

    def _text_rect(self, width: float) -> QRectF:
        box = self._box(width, self.text)
        tallest = QFontMetricsF(self._font).height() * LINE_MAX_LINES
        return QRectF(0, 0, min(width, box.width() + 2), min(box.height(), tallest))

    def place(self) -> None:
        area = self.parentWidget()
        width = area.width() if area is not None else 800
        height = area.height() if area is not None else 600
        counter = QFontMetricsF(self._count_font).horizontalAdvance(self.count) + 14
        room = min(float(LINE_MAX_WIDTH), max(160.0, width - 40.0)) - counter - 28
        text = self._text_rect(room)
        w = text.width() + counter + 28
        h = text.height() + 14
        self.setGeometry(
            int((width - w) / 2), int(height - h - LINE_BOTTOM), int(w) + 1, int(h) + 1
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.plate(painter, 228)
        ink = self.ink()
        counter_w = QFontMetricsF(self._count_font).horizontalAdvance(self.count) + 14
        soft = QColor(ink)
        soft.setAlpha(190)
        painter.setFont(self._count_font)
        painter.setPen(soft)
        painter.drawText(
            QRectF(rect.left() + 10, rect.top(), counter_w, rect.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            self.count,
        )
        painter.setFont(self._font)
        painter.setPen(ink)
        body = rect.adjusted(10 + counter_w, 6, -12, -6)
        fits = self._box(body.width(), self.text).height() <= body.height() + 1
        painter.drawText(body, self.text if fits else self._clipped(body), self._option())
        painter.end()

    def _clipped(self, body: QRectF) -> str:
        """The text cut to what fits the plate, with an ellipsis (the tooltip has it all)."""
        words = self.text.split()
        while words:
            words.pop()
            candidate = " ".join(words) + " …"
            if self._box(body.width(), candidate).height() <= body.height() + 1:
                return candidate
        return "…"
