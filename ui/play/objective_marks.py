"""The encounter's objectives on the table (12): the Patrol's far-edge strips, the Raid
objective where it is, the Defend item with the 2" a player figure must stay within.

Everything drawn is :func:`crdesk.game.encounter.checklist` (the items of
``Game.summary()["objectives"]``): an item's ``area`` (a rectangle, in table
inches) is drawn as a strip and its ``at`` (a point) as a diamond token; the
colour is the item's state.  Nothing here judges an objective.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from crdesk.game.encounter import ITEM_GUARD, checklist
from ui.play.session import PlaySession
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene

STRIP_Z = Layer.FIGURES - 5
"""Under the figures: a strip shows where to go, it never hides who is there."""
TOKEN_Z = Layer.OVERLAYS + 6
COLOURS = {"done": QColor("#2e9e44"), "open": QColor("#e0a020"), "failed": QColor("#c0392b")}
TOKEN_PX = 22.0
"""Size of an objective token on the screen, in pixels."""
LABELS = {"find": "Objective", "take": "Objective", "keep_item": "Item"}


class ObjectiveToken(QGraphicsItem):
    """A diamond with a label, in screen pixels, at an objective's spot."""

    def __init__(self, label: str, colour: QColor) -> None:
        super().__init__()
        self.label = label
        self.colour = colour
        self._font = QFont()
        self._font.setPixelSize(11)
        self._font.setBold(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(TOKEN_Z)

    def boundingRect(self) -> QRectF:
        half = TOKEN_PX / 2
        return QRectF(-40.0, -half - 1, 80.0, TOKEN_PX + 16)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        half = TOKEN_PX / 2
        diamond = QPainterPath()
        diamond.moveTo(0, -half)
        diamond.lineTo(half, 0)
        diamond.lineTo(0, half)
        diamond.lineTo(-half, 0)
        diamond.closeSubpath()
        painter.setPen(QPen(QColor("#202020"), 1.5))
        painter.setBrush(QBrush(self.colour))
        painter.drawPath(diamond)
        painter.setPen(QPen(QColor("#ffffff"), 1.2))
        star = QPainterPath()
        star.addEllipse(QPointF(0, 0), half * 0.28, half * 0.28)
        painter.drawPath(star)
        painter.setFont(self._font)
        text_rect = QRectF(-40.0, half + 1, 80.0, 14.0)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(20, 20, 20, 170)))
        width = painter.fontMetrics().horizontalAdvance(self.label) + 8.0
        painter.drawRoundedRect(QRectF(-width / 2, half + 1, width, 14.0), 3, 3)
        painter.setPen(QPen(QColor("#ffffff")))
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, self.label)


class ObjectiveMarks(QObject):
    """The checklist's places on the table, redrawn after every step that changes them."""

    def __init__(self, scene: BattlefieldScene, session: PlaySession) -> None:
        super().__init__(scene)
        self.scene = scene
        self.session = session
        self.items: list[QGraphicsItem] = []
        """What is drawn now (tests): strips, guard rings and tokens."""
        self._seen: object = None
        session.changed.connect(self.refresh)
        self.refresh()

    def detach(self) -> None:
        self.session.changed.disconnect(self.refresh)
        self._clear()

    def _clear(self) -> None:
        for item in self.items:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.items = []

    def tokens(self) -> list[ObjectiveToken]:
        return [i for i in self.items if isinstance(i, ObjectiveToken)]

    def strips(self) -> list[QGraphicsRectItem]:
        return [i for i in self.items if isinstance(i, QGraphicsRectItem)]

    def refresh(self) -> None:
        objectives = checklist(self.session.game)
        items: list[dict[str, Any]] = objectives["items"] if objectives else []
        key = [(i["id"], i["state"], i["at"], i["area"]) for i in items]
        if key == self._seen:
            return
        self._seen = key
        self._clear()
        spots: dict[tuple[float, float], dict[str, Any]] = {}
        for item in items:
            colour = COLOURS[item["state"]]
            if item["area"] is not None and item["id"].startswith("section_"):
                x0, y0, x1, y1 = item["area"]
                strip = QGraphicsRectItem(QRectF(x0, y0, x1 - x0, y1 - y0))
                fill = QColor(colour)
                fill.setAlpha(45)
                pen = QPen(colour, 0.08)
                pen.setStyle(Qt.PenStyle.DashLine)
                strip.setPen(pen)
                strip.setBrush(QBrush(fill))
                strip.setZValue(STRIP_Z)
                strip.setToolTip(f"{item['text']} ({item['section']}): {item['state']}")
                self._add(strip)
            if item["at"] is not None:  # one token a spot: the last step's item there
                spots[(item["at"][0], item["at"][1])] = item
        for at, item in spots.items():
            colour = COLOURS[item["state"]]
            if item["id"] == "keep_item":
                ring = QGraphicsEllipseItem(
                    QRectF(at[0] - ITEM_GUARD, at[1] - ITEM_GUARD, 2 * ITEM_GUARD, 2 * ITEM_GUARD)
                )
                pen = QPen(colour, 0.06)
                pen.setStyle(Qt.PenStyle.DashLine)
                ring.setPen(pen)
                ring.setZValue(STRIP_Z)
                ring.setToolTip(f'A player figure must stay within {ITEM_GUARD:g}" of the item')
                self._add(ring)
            token = ObjectiveToken(LABELS.get(item["id"], "Objective"), colour)
            token.setPos(float(at[0]), float(at[1]))
            token.setToolTip(f"{item['text']} ({item['section']})")
            self._add(token)

    def _add(self, item: QGraphicsItem) -> None:
        self.scene.addItem(item)
        self.items.append(item)
