"""Status markers on the table in play mode, drawn over the figures by an overlay.

Nothing here decides a rule: every marker is read from the figure (its
status, prone, out of ammo, fast moving, Star Power dice) or from
:meth:`~crdesk.game.Game.flags` (Duck Back this turn, a readied grenade, whom
it carries).  The badges ignore the view's zoom (``ItemIgnoresTransformations``)
and are anchored on the figure's position, so they stay readable at any scale;
the carry link and the selected figure's front arc are drawn in table inches.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLineF, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from crdesk.model import Figure, Status
from ui.play.session import PlaySession
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene

PRONE = "prone"
OUT_OF_THE_FIGHT = "out_of_the_fight"
OBVIOUSLY_DEAD = "obviously_dead"
DUCK_BACK = "duck_back"
OUT_OF_AMMO = "out_of_ammo"
FAST = "fast"
GRENADE = "grenade"
STAR = "star"
CARRYING = "carrying"

MARKER_Z = Layer.OVERLAYS + 10
ARC_Z = Layer.FIGURES - 3
ARC_INCHES = 4.0
"""Radius of the front arc drawn for the selected figure (a hint, not a range)."""


@dataclass(frozen=True, slots=True)
class BadgeLook:
    text: str
    background: QColor
    foreground: QColor
    tip: str


LOOKS: dict[str, BadgeLook] = {
    PRONE: BadgeLook("P", QColor(70, 70, 70), QColor("white"), "Prone (7.4.3)"),
    OUT_OF_THE_FIGHT: BadgeLook(
        "✚", QColor(150, 150, 150), QColor(160, 20, 20), "Out of the Fight (7.8)"
    ),
    OBVIOUSLY_DEAD: BadgeLook("✖", QColor(20, 20, 20), QColor("white"), "Obviously Dead (7.8)"),
    DUCK_BACK: BadgeLook("↩", QColor(30, 90, 170), QColor("white"), "Ducked Back this turn"),
    OUT_OF_AMMO: BadgeLook("∅", QColor(190, 120, 0), QColor("white"), "Out of ammo (7.9.2)"),
    FAST: BadgeLook("»", QColor(0, 130, 120), QColor("white"), "Fast moving (7.4.2)"),
    GRENADE: BadgeLook("G", QColor(85, 110, 30), QColor("white"), "Grenade readied (7.10.1)"),
    STAR: BadgeLook("★", QColor(200, 150, 0), QColor("black"), "Star"),
}
ORDER = (
    OBVIOUSLY_DEAD,
    OUT_OF_THE_FIGHT,
    PRONE,
    DUCK_BACK,
    OUT_OF_AMMO,
    FAST,
    GRENADE,
    STAR,
)
BADGE_PX = 15.0
"""Height of a badge on the screen, in pixels."""


class Badge(QGraphicsItem):
    """A small rounded label in screen pixels, anchored at a table position."""

    def __init__(self, kind: str, text: str, tip: str, offset: QPointF) -> None:
        super().__init__()
        self.kind = kind
        look = LOOKS[kind]
        self.text = text
        self._look = look
        self._font = QFont()
        self._font.setBold(True)
        self._font.setPixelSize(int(BADGE_PX * 0.72))
        width = max(BADGE_PX, QFontMetricsF(self._font).horizontalAdvance(text) + 6.0)
        self._rect = QRectF(offset.x(), offset.y() - BADGE_PX / 2, width, BADGE_PX)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(MARKER_Z)
        self.setToolTip(tip)

    @property
    def width(self) -> float:
        return self._rect.width()

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(255, 255, 255, 220), 1.2))
        painter.setBrush(self._look.background)
        painter.drawRoundedRect(self._rect, 4, 4)
        painter.setFont(self._font)
        painter.setPen(self._look.foreground)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class StatusMarkers(QObject):
    """The overlay of status badges, carry links and the selected figure's front arc."""

    def __init__(self, scene: BattlefieldScene, session: PlaySession) -> None:
        super().__init__(scene)
        self.scene = scene
        self.session = session
        self.selected: str | None = None
        self._badges: dict[str, list[Badge]] = {}
        self._links: list[QGraphicsLineItem] = []
        self._arc: QGraphicsPathItem | None = None
        session.changed.connect(self.refresh)
        scene.model_synced.connect(self._model_synced)
        self.refresh()

    def detach(self) -> None:
        self.session.changed.disconnect(self.refresh)
        self.scene.model_synced.disconnect(self._model_synced)
        self._clear()
        self._set_arc(None)

    # -- queries (tests) -----------------------------------------------------------

    def kinds(self, fid: str) -> list[str]:
        """The markers shown on a figure, carry links included."""
        kinds = [b.kind for b in self._badges.get(fid, [])]
        kinds += [CARRYING for link in self._links if link.data(0) == fid]
        return kinds

    def badges(self, fid: str) -> list[Badge]:
        return list(self._badges.get(fid, []))

    def arc_item(self) -> QGraphicsPathItem | None:
        return self._arc

    # -- drawing ---------------------------------------------------------------------

    def _model_synced(self, _change: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Draw every figure's markers again from the game (cheap: a few items a figure)."""
        self._clear()
        game = self.session.game
        for figure in game.battlefield.figures():
            flags = game.flags(figure.id)
            kinds = marker_kinds(figure, flags)
            x = 0.0
            row: list[Badge] = []
            for kind in kinds:
                text, tip = LOOKS[kind].text, LOOKS[kind].tip
                if kind == STAR:
                    dice = figure.star_power
                    text = f"★{dice}" if dice is not None else "★"
                    tip = (
                        f"{figure.name}: Star, {dice} Star Power dice left (5.2)"
                        if dice is not None
                        else f"{figure.name}: Star"
                    )
                elif kind == GRENADE:
                    tip = f"Grenade {flags.get('grenade')} (7.10.1)"
                badge = Badge(kind, text, f"{figure.name}: {tip}", QPointF(x, 0))
                x += badge.width + 2
                row.append(badge)
            if row:
                # right of the base, whatever the zoom: the anchor is the base's edge
                anchor = QPointF(figure.x + figure.radius * 0.8, figure.y - figure.radius * 0.8)
                for badge in row:
                    badge.setPos(anchor)
                    self.scene.addItem(badge)
                self._badges[figure.id] = row
            carried = flags.get("carrying")
            if carried:
                other = game.battlefield.figure(str(carried))
                pen = QPen(QColor(230, 230, 230, 220), 0)
                pen.setCosmetic(True)
                pen.setWidthF(2.5)
                pen.setStyle(Qt.PenStyle.DotLine)
                link = QGraphicsLineItem(QLineF(figure.x, figure.y, other.x, other.y))
                link.setPen(pen)
                link.setZValue(MARKER_Z - 1)
                link.setData(0, figure.id)
                link.setToolTip(f"{figure.name} carries {other.name} (7.12)")
                link.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.scene.addItem(link)
                self._links.append(link)
        self._set_arc(self.selected)

    def _clear(self) -> None:
        for items in self._badges.values():
            for badge in items:
                if badge.scene() is not None:
                    badge.scene().removeItem(badge)
        self._badges = {}
        for link in self._links:
            if link.scene() is not None:
                link.scene().removeItem(link)
        self._links = []

    def select(self, fid: str | None) -> None:
        """Draw the front arc of ``fid`` (None: of nobody)."""
        self.selected = fid
        self._set_arc(fid)

    def _set_arc(self, fid: str | None) -> None:
        if self._arc is not None and self._arc.scene() is not None:
            self._arc.scene().removeItem(self._arc)
        self._arc = None
        if fid is None:
            return
        try:
            figure = self.session.game.battlefield.figure(fid)
        except (KeyError, ValueError):
            return
        item = QGraphicsPathItem(front_arc(figure, ARC_INCHES))
        pen = QPen(QColor(255, 214, 40, 150), 0)
        pen.setCosmetic(True)
        pen.setWidthF(1.2)
        pen.setStyle(Qt.PenStyle.DashLine)
        item.setPen(pen)
        item.setBrush(QBrush(QColor(255, 214, 40, 28)))
        item.setZValue(ARC_Z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(item)
        self._arc = item


def marker_kinds(figure: Figure, flags: dict[str, object]) -> list[str]:
    """The badges a figure wears, in a fixed order."""
    kinds: set[str] = set()
    if figure.status is Status.OBVIOUSLY_DEAD:
        kinds.add(OBVIOUSLY_DEAD)
    elif figure.status is Status.OUT_OF_THE_FIGHT:
        kinds.add(OUT_OF_THE_FIGHT)
    if figure.prone:
        kinds.add(PRONE)
    if flags.get("ducked_back") or figure.status is Status.DUCK_BACK:
        kinds.add(DUCK_BACK)
    if figure.out_of_ammo:
        kinds.add(OUT_OF_AMMO)
    if figure.fast_moving:
        kinds.add(FAST)
    if flags.get("grenade"):
        kinds.add(GRENADE)
    if figure.is_star and figure.status.can_act:
        kinds.add(STAR)
    return [k for k in ORDER if k in kinds]


def front_arc(figure: Figure, radius: float) -> QPainterPath:
    """The half disc in front of the figure (facing 0 points to -y, clockwise)."""
    path = QPainterPath(QPointF(figure.x, figure.y))
    rect = QRectF(figure.x - radius, figure.y - radius, 2 * radius, 2 * radius)
    # Qt angles: 0 along +x, counter-clockwise (y up on screen means -y in scene)
    centre = 90.0 - figure.facing
    path.arcTo(rect, centre - 90.0, 180.0)
    path.closeSubpath()
    return path
