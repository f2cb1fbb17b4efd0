"""The event log: every event of the game in order, with its dice drawn as dice.

Each row is one :class:`~crdesk.game.Event`: a small heading (step, section,
kind), the controller's sentence, and the faces rolled for it.  The newest
event is at the bottom and the list follows it unless the reader has scrolled
up.  Selecting a row emits the figures it names, which the play mode rings on
the table.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtCore import Signal as _Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QListView,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from crdesk.game import Event
from ui.play.dice_view import paint_die
from ui.play.session import PlaySession

EVENT_ROLE = int(Qt.ItemDataRole.UserRole) + 1
"""Item data: the :class:`~crdesk.game.Event` the row shows."""
WHY_ROLE = int(Qt.ItemDataRole.UserRole) + 2
"""Item data: the reason given for the step, on the step's first event ("" otherwise):
the program's why for its choice ("moves to the wall: Cover from Sgt. Mace, 11\" in
range"), shown under the event so every choice of the enemy can be read."""
ROW_PIXMAPS = 150
"""Painted rows kept (a few screens of the log; some 10 MB)."""
DIE = 15
"""Side of a drawn die, in pixels."""
PAD = 6


def heading(event: Event) -> str:
    parts = [f"Step {event.step}"]
    if event.section:
        parts.append(f"§ {event.section}")
    parts.append(event.kind.replace("_", " "))
    return "  ·  ".join(parts)


class EventDelegate(QStyledItemDelegate):
    """Paints an event: heading, wrapped sentence, and a row of dice.

    Its rows' sizes are not asked of it by the list: :meth:`row_size` is stored in
    each row (``SizeHintRole``) when the row is added or the list's width changes.
    The list lays out every row again whenever one is added, and a Python
    ``sizeHint`` called for each of a long game's rows on every step was most of
    the time the program's moves kept the window busy.
    """

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view
        self._heights: dict[tuple[str, int, str], int] = {}
        """Wrapped text heights by (text, width, font): measuring wrapped text is not
        cheap, and the same sentences come back (undo, a new width and back)."""
        self._sizes: dict[tuple[str, bool, int], QSize] = {}
        """Row sizes by (text, with dice, width), in the font of :attr:`_font`."""
        self._font = QFont()
        self._rows: OrderedDict[tuple[object, ...], QPixmap] = OrderedDict()
        """Rows as painted, by what they show and how (the newest last): the log
        repaints every row in view after each step as it scrolls, and a blit is far
        cheaper than laying out the sentences and dice again."""

    def _fonts(self, font: QFont) -> tuple[QFont, QFont]:
        small = QFont(font)
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.82))
        return small, QFont(font)

    def text_width(self) -> int:
        """The width rows wrap their text to: the list's, less the padding."""
        return max(80, self._view.viewport().width() - 2 * PAD)

    def row_size(self, font: QFont, width: int, event: Event, why: str) -> QSize:
        """The size of an event's row in ``font``, its text wrapped to ``width``."""
        if font != self._font:  # another font: every size is measured afresh
            self._font = QFont(font)
            self._sizes.clear()
        key = (event.text + "\n" + why, bool(event.dice), width)
        size = self._sizes.get(key)
        if size is None:
            small, body = self._fonts(font)
            head_h = QFontMetrics(small).height()
            text_h = self._text_height(body, event.text, width)
            why_h = self._text_height(_italic(small), _why_text(why), width) + 2 if why else 0
            dice_h = DIE + 4 if event.dice else 0
            size = QSize(width + 2 * PAD, PAD + head_h + 2 + text_h + why_h + dice_h + PAD)
            if len(self._sizes) > 20_000:
                self._sizes.clear()
            self._sizes[key] = size
        return QSize(size)

    def _text_height(self, font: QFont, text: str, width: int) -> int:
        key = (text, width, font.key())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) > 20_000:
                self._heights.clear()
            height = self._heights[key] = self._text_rect(font, text, width).height()
        return height

    @staticmethod
    def _text_rect(font: QFont, text: str, width: int) -> QRect:
        flags = int(Qt.TextFlag.TextWordWrap)
        return QFontMetrics(font).boundingRect(QRect(0, 0, width, 100_000), flags, text)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        event = index.data(EVENT_ROLE)
        if not isinstance(event, Event):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        why = _why(index)
        size = opt.rect.size()
        dpr = painter.device().devicePixelRatioF()
        key = (
            index.row(),
            event.step,
            event.kind,
            event.text,
            event.dice,
            why,
            size.width(),
            size.height(),
            opt.state.value,
            opt.palette.cacheKey(),
            opt.font.key(),
            dpr,
        )
        pixmap = self._rows.get(key)
        if pixmap is None:
            pixmap = QPixmap(math.ceil(size.width() * dpr), math.ceil(size.height() * dpr))
            pixmap.setDevicePixelRatio(dpr)
            pixmap.fill(Qt.GlobalColor.transparent)
            local = QPainter(pixmap)
            local.setRenderHints(painter.renderHints())
            opt.rect = QRect(0, 0, size.width(), size.height())
            self._paint_row(local, opt, event, why)
            local.end()
            self._rows[key] = pixmap
            while len(self._rows) > ROW_PIXMAPS:
                self._rows.popitem(last=False)
        else:
            self._rows.move_to_end(key)
        painter.drawPixmap(option.rect.topLeft(), pixmap)

    def _paint_row(
        self, painter: QPainter, opt: QStyleOptionViewItem, event: Event, why: str
    ) -> None:
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette = opt.palette
        text_colour = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        faint = QColor(text_colour)
        faint.setAlphaF(0.6)
        small, body = self._fonts(opt.font)
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        painter.save()
        painter.setFont(small)
        painter.setPen(faint)
        head_h = QFontMetrics(small).height()
        painter.drawText(
            QRect(rect.left(), rect.top(), rect.width(), head_h),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            heading(event),
        )
        painter.setFont(body)
        painter.setPen(text_colour)
        top = rect.top() + head_h + 2
        text_h = self._text_height(body, event.text, rect.width())
        painter.drawText(
            QRect(rect.left(), top, rect.width(), text_h),
            int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft),
            event.text,
        )
        y = top + text_h + 3
        if why:
            note = _italic(small)
            painter.setFont(note)
            painter.setPen(faint)
            why_h = self._text_height(note, _why_text(why), rect.width())
            painter.drawText(
                QRect(rect.left(), y - 1, rect.width(), why_h),
                int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft),
                _why_text(why),
            )
            y += why_h + 2
        x = rect.left()
        for face in event.dice:
            if x + DIE > rect.right():
                break
            paint_die(painter, QRectF(x + 0.5, y + 0.5, DIE, DIE), face)
            x += DIE + 3
        painter.restore()
        # separator between events (a filled rectangle: far cheaper than a line)
        line = QColor(palette.color(QPalette.ColorRole.Mid))
        line.setAlphaF(0.5)
        bottom = opt.rect
        painter.fillRect(QRect(bottom.left(), bottom.bottom(), bottom.width(), 1), line)


def _why(index: QModelIndex | QPersistentModelIndex) -> str:
    why = index.data(WHY_ROLE)
    return why if isinstance(why, str) else ""


_RESIZED = (QEvent.Type.Resize, QEvent.Type.FontChange)
"""What changes the rows' sizes: the list's width and its font."""


def _why_text_of(item: QListWidgetItem) -> str:
    why = item.data(WHY_ROLE)
    return why if isinstance(why, str) else ""


def _why_text(why: str) -> str:
    return f"Why: {why}"


def _italic(font: QFont) -> QFont:
    out = QFont(font)
    out.setItalic(True)
    return out


def on_screen(dock: QDockWidget) -> bool:
    """Whether a dock is seen: shown, and not a tab behind another dock's (Qt keeps
    those visible, moved off the window)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


class EventLogDock(QDockWidget):
    """The game's events, oldest first; the newest stays in view."""

    figures_selected = _Signal(object)
    """The figure ids of the selected event (an empty tuple when none is selected)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Event log", parent)
        self.setObjectName("EventLogDock")
        self.session: PlaySession | None = None
        self._stale = False
        """Events came while the log was hidden and are not listed yet."""
        self.list = QListWidget()
        self.delegate = EventDelegate(self.list)
        self.list.setItemDelegate(self.delegate)
        self._sized_for: tuple[int, str] | None = None
        """The (width, font) the rows' stored sizes were measured for."""
        self._follow = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(0)
        self._follow.timeout.connect(self._to_bottom)
        """Follows the newest row once its layout is done, once per turn of the loop
        however many steps were listed in it."""
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setUniformItemSizes(False)
        self.list.setWordWrap(True)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setToolTip("Every event of the game; click one to ring its figures on the table")
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.setWidget(self.list)
        self.setMinimumWidth(300)
        self.list.viewport().installEventFilter(self)
        self.visibilityChanged.connect(self._visibility)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # before the list's own resize handling lays the rows out for the new width
        if watched is self.list.viewport() and event.type() in _RESIZED:
            self._size_rows()
        return False

    def _size_key(self) -> tuple[int, str]:
        return (self.delegate.text_width(), self.list.font().key())

    def _size_rows(self) -> None:
        """Store every row's size again if the width or the font changed since the
        sizes were measured (rows added meanwhile were measured as they came)."""
        key = self._size_key()
        if key == self._sized_for:
            return
        self._sized_for = key
        font, width = self.list.font(), key[0]
        for row in range(self.list.count()):
            item = self.list.item(row)
            event = item.data(EVENT_ROLE)
            if isinstance(event, Event):
                item.setSizeHint(self.delegate.row_size(font, width, event, _why_text_of(item)))
        self.list.scheduleDelayedItemsLayout()

    def set_session(self, session: PlaySession | None) -> None:
        if self.session is not None:
            self.session.stepped.disconnect(self._stepped)
            self.session.rewound.disconnect(self._rewound)
        self.session = session
        if session is not None:
            session.stepped.connect(self._stepped)
            session.rewound.connect(self._rewound)
        self._stale = False
        self.rebuild()

    def _stepped(self, events: list[Event]) -> None:
        if self._stale or not on_screen(self):
            self._stale = True  # closed or behind another tab: caught up when shown
        else:
            self.append(events)

    def _visibility(self, visible: bool) -> None:
        if visible:  # shown, or its tab chosen (a dock behind a tab gets no show event)
            self.flush()

    def _rewound(self) -> None:
        if on_screen(self):
            self._stale = False
            self.rebuild()
        else:
            self._stale = True

    def flush(self) -> None:
        """List the events that came while the log was hidden."""
        if self._stale:
            self._stale = False
            self.rebuild()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.flush()

    def events(self) -> list[Event]:
        """The events listed, in order."""
        self.flush()
        out = []
        for row in range(self.list.count()):
            event = self.list.item(row).data(EVENT_ROLE)
            if isinstance(event, Event):
                out.append(event)
        return out

    def rebuild(self) -> None:
        """Follow the game's events after an undo: the rows of the events kept stay, the
        ones taken back go, the new ones are added (everything is listed afresh only when
        the start differs)."""
        events = list(self.session.game.events) if self.session is not None else []
        count = self.list.count()
        keep = min(count, len(events))
        while keep > 0 and self.list.item(keep - 1).data(EVENT_ROLE) != events[keep - 1]:
            keep -= 1
        if keep == 0 or self.list.item(0).data(EVENT_ROLE) != events[0]:
            self.list.clear()
            self.append(events)
            return
        for row in range(count - 1, keep - 1, -1):
            self.list.takeItem(row)
        self.append(events[keep:])

    def append(self, events: list[Event]) -> None:
        bar = self.list.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 4
        last = self.list.item(self.list.count() - 1) if self.list.count() else None
        step = last.data(EVENT_ROLE).step if last is not None else None
        history = self.session.game.history if self.session is not None else ()
        self._size_rows()
        font, width = self.list.font(), self._size_key()[0]
        for event in events:
            item = QListWidgetItem()
            item.setData(EVENT_ROLE, event)
            why = ""
            if event.step != step and 0 < event.step <= len(history):
                why = history[event.step - 1].why or ""
            step = event.step
            item.setData(WHY_ROLE, why)
            item.setToolTip(event.text + (f"\n\n{_why_text(why)}" if why else ""))
            item.setSizeHint(self.delegate.row_size(font, width, event, why))
            self.list.addItem(item)
        if events and following:
            self.list.scrollToBottom()
            # the rows are laid out later (their heights vary): follow them once they are
            self._follow.start()

    def _to_bottom(self) -> None:
        if self.list.count():
            self.list.scrollToBottom()

    def _selection_changed(self) -> None:
        items = self.list.selectedItems()
        event = items[0].data(EVENT_ROLE) if items else None
        self.figures_selected.emit(tuple(event.figures) if isinstance(event, Event) else ())
