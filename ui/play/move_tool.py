"""Moving figures with the mouse in play mode: drag, drop, and the controller decides.

While a person's decision accepts a move, the figures of the active group are
ringed; one can be dragged, and dropping it sends ``Move(figure, ((x, y),))``.
During the drag only the figure's item follows the pointer (the game's
battlefield is untouched), with a line from where it stood and the straight
distance; the line turns red when the controller would refuse the move.  A
refused drop snaps back with the controller's reason in the status bar; an
accepted one is shown by the scene following the battlefield's change events.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsLineItem, QGraphicsSimpleTextItem

from crdesk.game.actions import Move
from ui.play.session import PlaySession
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView
from ui.tools.base import screen_label

DRAG_START_PX = 3.0
"""Screen pixels the pointer must travel before a press becomes a drag."""
CHECK_EVERY = 0.1
"""Inches the pointer must move before the drag's legality is asked again."""
OK_COLOUR = QColor(20, 120, 50)
BAD_COLOUR = QColor(200, 40, 40)
RING_COLOUR = QColor(255, 255, 255, 230)


class MoveTool(QObject):
    """An event filter on the play view's viewport: drag figures, drop to move."""

    def __init__(
        self,
        view: BattlefieldView,
        scene: BattlefieldScene,
        session: PlaySession,
        show_message: Callable[[str], None],
    ) -> None:
        super().__init__(view)
        self.view = view
        self.scene = scene
        self.session = session
        self.show_message = show_message
        self._figure: str | None = None
        self._origin = QPointF()
        self._press = QPointF()
        self._dragging = False
        self._checked_at: QPointF | None = None
        self._line: QGraphicsLineItem | None = None
        self._label: QGraphicsSimpleTextItem | None = None
        self._rings: dict[str, QGraphicsEllipseItem] = {}
        self._ok = True
        self.last_reason: str | None = None
        """The controller's refusal of the last drop (None when it was played)."""
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        session.changed.connect(self.refresh_rings)
        scene.model_synced.connect(self._follow_model)
        self.refresh_rings()

    def detach(self) -> None:
        self.cancel()
        self._clear_rings()
        self.view.viewport().removeEventFilter(self)
        self.view.removeEventFilter(self)
        self.session.changed.disconnect(self.refresh_rings)
        self.scene.model_synced.disconnect(self._follow_model)

    # -- who may move -----------------------------------------------------------

    def movable(self) -> list[str]:
        """Figures a person may drag now: the active group's, when a move is accepted."""
        session = self.session
        decision = session.awaiting()
        if decision is None or "move" not in decision.accepts or not session.person_to_decide():
            return []
        group = session.game.summary().get("active_group") or []
        return [str(fid) for fid in group]

    def refresh_rings(self) -> None:
        """Ring the figures that can be dragged now."""
        self._clear_rings()
        bf = self.session.game.battlefield
        pen = QPen(RING_COLOUR, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        pen.setStyle(Qt.PenStyle.DashLine)
        for fid in self.movable():
            figure = bf.figure(fid)
            if not figure.status.can_act:
                continue
            r = figure.radius + 0.25
            ring = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
            ring.setPen(pen)
            ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            ring.setPos(figure.x, figure.y)
            ring.setZValue(Layer.FIGURES - 1)
            ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            ring.setToolTip("Drag to move")
            self.scene.addItem(ring)
            self._rings[fid] = ring

    def _clear_rings(self) -> None:
        for ring in self._rings.values():
            if ring.scene() is not None:
                ring.scene().removeItem(ring)
        self._rings = {}

    def _follow_model(self, _change: object) -> None:
        bf = self.session.game.battlefield
        for fid, ring in self._rings.items():
            if fid != self._figure:
                figure = bf.figure(fid)
                ring.setPos(figure.x, figure.y)

    def rings(self) -> list[str]:
        """The figures ringed as movable now."""
        return list(self._rings)

    def previews_gone(self) -> bool:
        """Whether no drag line or label is left on the table."""
        return self._line is None and self._label is None and self._figure is None

    # -- the gesture --------------------------------------------------------------

    def _pick(self, pos: QPointF) -> str | None:
        slack = 3.0 / (self.view.pixels_per_inch() or 1.0)
        for figure in reversed(list(self.session.game.battlefield.figures())):
            if math.dist((figure.x, figure.y), (pos.x(), pos.y())) <= figure.radius + slack:
                return figure.id
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            if (
                kind in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
                and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape
                and self._figure is not None
            ):
                if kind == QEvent.Type.KeyPress:
                    self.cancel()
                event.accept()
                return True
            return False
        if not isinstance(event, QMouseEvent) or getattr(self.view, "_space_held", False):
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            return self._pressed(pos)
        if kind == QEvent.Type.MouseMove and self._figure is not None:
            if event.buttons() & Qt.MouseButton.LeftButton:
                self._moved(pos)
            return False  # the view still reports the pointer position
        if (
            kind == QEvent.Type.MouseButtonRelease
            and event.button() == Qt.MouseButton.LeftButton
            and self._figure is not None
        ):
            self._released(pos)
            return True
        return False

    def _pressed(self, pos: QPointF) -> bool:
        fid = self._pick(pos)
        if fid is None:
            return False
        if fid not in self.movable():
            figure = self.session.game.battlefield.figure(fid)
            decision = self.session.awaiting()
            if decision is not None and "move" in decision.accepts:
                self.show_message(f"{figure.name} is not in the group that may move now")
            return True
        figure = self.session.game.battlefield.figure(fid)
        self._figure = fid
        self._origin = QPointF(figure.x, figure.y)
        self._press = pos
        self._dragging = False
        self._checked_at = None
        return True

    def _moved(self, pos: QPointF) -> None:
        assert self._figure is not None
        shift = pos - self._press
        if not self._dragging:
            if math.hypot(shift.x(), shift.y()) * self.view.pixels_per_inch() < DRAG_START_PX:
                return
            self._dragging = True
            self._make_preview()
        target = self._origin + shift
        item = self.scene.figure_item(self._figure)
        if item is not None:
            item.setPos(target)
        ring = self._rings.get(self._figure)
        if ring is not None:
            ring.setPos(target)
        self._show_preview(target)

    def _released(self, pos: QPointF) -> None:
        fid = self._figure
        assert fid is not None
        dragging = self._dragging
        target = self._origin + (pos - self._press)
        self.cancel()
        if not dragging:
            self.show_message(self._figure_note(fid))
            return
        move = Move(fid, ((round(target.x(), 2), round(target.y(), 2)),))
        reason = self.session.play(move)
        self.last_reason = reason
        if reason is not None:
            self.show_message(f"Move refused: {reason}")
        self._snap(fid)

    def _figure_note(self, fid: str) -> str:
        """What a click on a movable figure says: its name and movement left."""
        for row in self.session.game.summary()["figures"]:
            if row["id"] == fid:
                left = row.get("movement_left")
                room = f': {left:.1f}" of movement left' if isinstance(left, float | int) else ""
                return f"{row['name']}{room}; drag to move"
        return "Drag to move"

    def _snap(self, fid: str) -> None:
        """Put the figure's item where the battlefield has it (back, or where it stopped)."""
        item = self.scene.figure_item(fid)
        if item is not None:
            item.sync_from_model()
        self._follow_model(None)

    def cancel(self) -> None:
        """Esc, or the end of a gesture: drop the preview and put the figure back."""
        fid = self._figure
        self._figure = None
        self._dragging = False
        for preview in (self._line, self._label):
            if preview is not None and preview.scene() is not None:
                preview.scene().removeItem(preview)
        self._line = None
        self._label = None
        if fid is not None:
            self._snap(fid)

    # -- the preview ---------------------------------------------------------------

    def _make_preview(self) -> None:
        self._line = QGraphicsLineItem()
        self._line.setZValue(Layer.TOOLS)
        self._line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(self._line)
        self._label = screen_label(10.0)
        self._label.setZValue(Layer.TOOLS + 1)
        self.scene.addItem(self._label)

    def _show_preview(self, target: QPointF) -> None:
        assert self._figure is not None and self._line is not None and self._label is not None
        if self._checked_at is None or _dist(self._checked_at, target) >= CHECK_EVERY:
            self._checked_at = target
            move = Move(self._figure, ((round(target.x(), 2), round(target.y(), 2)),))
            ok = self.session.legal(move) is None
            colour = OK_COLOUR if ok else BAD_COLOUR
            pen = QPen(colour, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.5)
            pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
            self._line.setPen(pen)
            self._label.setBrush(colour)
            halo = QPen(QColor(255, 255, 255, 190), 0.7)
            self._label.setPen(halo)
            self._ok = ok
        self._line.setLine(QLineF(self._origin, target))
        mark = "✓" if self._ok else "✗"
        self._label.setText(f'{_dist(self._origin, target):.1f}"  {mark}')
        self._label.setPos(target + QPointF(0.6, -0.9))


def _dist(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())
