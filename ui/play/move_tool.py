"""Moving figures with the mouse in play mode: drag, drop, and the controller decides.

While a person's decision accepts a move, the figures of the active group are
ringed; one can be dragged, and dropping it sends ``Move(figure, ((x, y),))``.
During the drag only the figure's item follows the pointer (the game's
battlefield is untouched), with a line from where it stood and the straight
distance; the line turns red when the controller would refuse the move.
A press on a figure also shows where it can get by any route
(:func:`crdesk.geometry.routing.reach_area`, computed once at the press)
and the drag's label gives the path's cost from
:func:`~crdesk.geometry.movement.path_cost` against the movement left
(``5.5" of 8.0"``), red with the reason word when it is over or forbidden.  A
refused drop snaps back with the controller's reason in the status bar; an
accepted one is shown by the scene following the battlefield's change events.

While dragging, the controller previews the move (:meth:`crdesk.game.Game.preview`,
asked once per quarter-inch of the pointer): where an In Sight would stop it
is marked on the path with who sees whom ("stops: In Sight — Cpl. Diaz sees
Knuckles").  Shift-dragging the group's Leader moves the whole group
(:mod:`ui.play.group_move`); a right-click opens the figure's menu of actions
(:mod:`ui.play.context_menu`), whose "Move…" waits for a click on the table.

A click on a figure of the active group (without dragging it) selects it as
the shooter.  Hovering an enemy then shows the line to it and a tooltip with
the range, Cover and concealment and the exact odds of the shot
(:mod:`ui.play.fire_preview`); clicking the enemy fires, or says why not.  When
other enemies stand in the arc of fire beside it, the click opens the fire
dialog to share the dice (:mod:`ui.play.fire_dialog`).  Ctrl over an enemy (or C)
previews a charge, G a readied grenade's throw (:mod:`ui.play.aim_tool`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QLineF, QObject, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QContextMenuEvent,
    QFont,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from crdesk.errors import CrdeskError
from crdesk.game.actions import Action, Fire, Move, MoveTo
from crdesk.game.adapter import FireChoice
from crdesk.game.moving import RoutePlan
from crdesk.game.preview import Preview
from crdesk.geometry import movement, routing
from crdesk.model import Figure
from ui.event_guard import guarded_filter
from ui.play.context_menu import ActionMenu
from ui.play.fire_dialog import FireDialog, placement
from ui.play.fire_preview import ShotPreview, preview_shot
from ui.play.session import PlaySession
from ui.play.text import figure_names
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene
from ui.scene.shapes import polygon_path
from ui.scene.view import BattlefieldView

if TYPE_CHECKING:
    from ui.play.group_move import GroupDrag
    from ui.play.markers import StatusMarkers

DRAG_START_PX = 3.0
"""Screen pixels the pointer must travel before a press becomes a drag."""
CHECK_EVERY = 0.1
"""Inches the pointer must move before the drag's legality is asked again."""
OK_COLOUR = QColor(20, 120, 50)
BAD_COLOUR = QColor(200, 40, 40)
RING_COLOUR = QColor(255, 255, 255, 230)
SELECTED_COLOUR = QColor(255, 214, 40)
AREA_FILL = QColor(90, 170, 255, 55)
AREA_EDGE = QColor(40, 110, 220, 170)
AREA_NEAR = QColor(90, 170, 255, 50)
"""Over the area's fill: the part within half the movement left."""
AREA_Z = Layer.FIGURES - 2
"""The reachable area lies under the figures (and their rings), over the table."""
STOP_COLOUR = QColor(230, 120, 0)
STOP_GRID = 0.25
"""Inches: while the pointer moves, the drag's end is rounded to this grid before the
controller previews it, and each grid point's preview is kept for the rest of the drag."""
REST_MS = 60
"""When the pointer rests this long, the exact end is previewed (what the drop will do)."""


class MoveTool(QObject):
    """An event filter on the play view's viewport: drag figures, drop to move."""

    selection_changed = Signal(object)
    """The figure chosen as the shooter (its id, or None): the weapon card panel follows."""

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
        self._area: QGraphicsPathItem | None = None
        self._allowance: float | None = None
        self.last_cost: movement.PathCost | None = None
        """The cost of the path dragged last (None before a drag)."""
        self._rings: dict[str, QGraphicsEllipseItem] = {}
        self._ok = True
        self.last_reason: str | None = None
        """The controller's refusal of the last drop (None when it was played)."""
        self.selected: str | None = None
        """The figure of the active group chosen as the shooter (a click on it)."""
        self._selected_ring: QGraphicsEllipseItem | None = None
        self._aim: QGraphicsLineItem | None = None
        self.hovered: ShotPreview | None = None
        """The preview of the shot at the enemy under the pointer, while one is hovered."""
        self._fire_press: str | None = None
        self.last_fire_reason: str | None = None
        """Why the last click on an enemy did not fire (None when it fired)."""
        self.markers: StatusMarkers | None = None
        """The status overlay, told of the selection to draw its front arc."""
        self.fire_dialog: FireDialog | None = None
        """The dialog sharing a volley's dice, while one is open."""
        self.last_stop: Preview | None = None
        """The controller's preview of the drag's end (its ``stopped`` says why it stops)."""
        self._stops: dict[tuple[float, float], Preview] = {}
        self._stop_marker: StopMarker | None = None
        self._beyond: QGraphicsLineItem | None = None
        """The part of the drag's line past the stop: dashed orange, not walked."""
        self._stop_label: CostLabel | None = None
        self.group: GroupDrag | None = None
        """The Shift-drag of the Leader under way (None otherwise)."""
        self.last_group: tuple[list[str], list[str]] | None = None
        """The last group move: who moved, and who stayed with the reason."""
        self.armed: str | None = None
        """A figure whose "Move…" waits for a click on the table (Esc cancels)."""
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self._rested)
        self._rest_end: tuple[float, float] | None = None
        self._route: QGraphicsPathItem | None = None
        """The route drawn while a drag's straight run is not the move (issue 31)."""
        self._plans: dict[tuple[float, float], RoutePlan] = {}
        self.last_plan: RoutePlan | None = None
        """The plan of the drag's end (or the last drop): its route, cost, how far it gets."""
        self.last_refused_plan: tuple[str, RoutePlan] | None = None
        """A drop beyond reach: the figure and its plan, for "Move as far as possible"."""
        self.last_reach: routing.ReachArea | None = None
        """The reach area drawn at the last press."""
        self._straight = False
        """Alt held: the drag is one straight run, as before routes (explicit legs)."""
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        session.changed.connect(self.refresh_rings)
        scene.model_synced.connect(self._follow_model)
        self.refresh_rings()
        self.actions = ActionMenu(self)
        """The context menu and its keys."""
        from ui.play.aim_tool import AimTool  # it draws with this module's labels

        self.aim = AimTool(self)
        """Charging (Ctrl over an enemy, C) and throwing (G): installed last, sees events first."""

    def detach(self) -> None:
        self.actions.detach()
        self.aim.detach()
        if self.fire_dialog is not None:
            self.fire_dialog.close()
        self.cancel()
        self.select(None)
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
        bf = session.game.battlefield
        # a member that left the table or went down is still of the group, but not dragged
        return [str(fid) for fid in group if bf.figure(str(fid)).status.can_act]

    def shooter(self) -> str | None:
        """The figure a person's decision lets fire without moving (an In Sight winner,
        7.6.4): it is chosen at once, so a click on an enemy fires and hovering one shows
        the odds, as during an activation (issue 31)."""
        session = self.session
        decision = session.awaiting()
        if (
            decision is None
            or "fire" not in decision.accepts
            or "move" in decision.accepts
            or decision.figure is None
            or not session.person_to_decide()
        ):
            return None
        return decision.figure

    def refresh_rings(self) -> None:
        """Ring the figures that can be dragged now (and keep the selection if it still may act)."""
        self._clear_rings()
        self._clear_hover()
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
        shooter = self.shooter()
        if shooter is not None:
            if self.selected != shooter:
                self.select(shooter)
            else:
                self._place_selected_ring()
        elif self.selected is not None and self.selected not in self._rings:
            self.select(None)
        elif self.selected is not None:
            self._place_selected_ring()

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
        if self.selected is not None and self.selected != self._figure:
            self._place_selected_ring()

    # -- the shooter ---------------------------------------------------------------

    def select(self, fid: str | None) -> None:
        """Choose the shooter (None: nobody); its base gets a solid yellow ring."""
        self._clear_hover()
        if self._selected_ring is not None and self._selected_ring.scene() is not None:
            self._selected_ring.scene().removeItem(self._selected_ring)
        self._selected_ring = None
        self.selected = fid
        self.selection_changed.emit(fid)
        if self.markers is not None:
            self.markers.select(fid)
        if fid is None:
            return
        pen = QPen(SELECTED_COLOUR, 0)
        pen.setCosmetic(True)
        pen.setWidthF(3.0)
        ring = QGraphicsEllipseItem()
        ring.setPen(pen)
        ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        ring.setZValue(Layer.FIGURES - 0.5)
        ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(ring)
        self._selected_ring = ring
        self._place_selected_ring()

    def _place_selected_ring(self) -> None:
        if self._selected_ring is None or self.selected is None:
            return
        figure = self.session.game.battlefield.figure(self.selected)
        r = figure.radius + 0.4
        self._selected_ring.setRect(-r, -r, 2 * r, 2 * r)
        self._selected_ring.setPos(figure.x, figure.y)

    def _is_enemy(self, fid: str) -> bool:
        if self.selected is None:
            return False
        bf = self.session.game.battlefield
        return bf.figure(fid).side != bf.figure(self.selected).side

    def preview(self, target: str) -> ShotPreview | None:
        """The selected figure's shot at ``target`` (None without a shooter or on an error)."""
        if self.selected is None:
            return None
        try:
            return preview_shot(self.session.game, self.selected, target, self.session.legal)
        except (CrdeskError, KeyError, ValueError) as exc:
            self.show_message(f"No preview: {exc}")
            return None

    def hover_text(self) -> str:
        """The tooltip of the hovered shot ("" when none)."""
        if self.hovered is None:
            return ""
        return "\n".join(self.hovered.lines(figure_names(self.session.game)))

    def hover_html(self) -> str:
        """The hovered shot's tooltip as rich text."""
        if self.hovered is None:
            return ""
        return self.hovered.html(figure_names(self.session.game))

    def _hover(self, pos: QPointF, global_pos: QPointF) -> None:
        if self.aim.mode is not None or self.aim.charge is not None:
            return  # a charge or a throw is being aimed: its preview has the pointer
        fid = self._pick(pos)
        if fid is None or not self._is_enemy(fid):
            if self.hovered is not None:
                self._clear_hover()
                QToolTip.hideText()
            return
        if self.hovered is None or self.hovered.target != fid:
            self._clear_hover()
            self.hovered = self.preview(fid)
            if self.hovered is None:
                return
            self._draw_aim(self.hovered)
        QToolTip.showText(global_pos.toPoint(), self.hover_html(), self.view.viewport())

    def _draw_aim(self, shot: ShotPreview) -> None:
        bf = self.session.game.battlefield
        a, b = bf.figure(shot.shooter), bf.figure(shot.target)
        ok = shot.action is not None
        pen = QPen(OK_COLOUR if ok else BAD_COLOUR, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
        line = QGraphicsLineItem(QLineF(a.x, a.y, b.x, b.y))
        line.setPen(pen)
        line.setZValue(Layer.TOOLS)
        line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(line)
        self._aim = line

    def _clear_hover(self) -> None:
        self.hovered = None
        if self._aim is not None and self._aim.scene() is not None:
            self._aim.scene().removeItem(self._aim)
        self._aim = None

    def _fire_at(self, target: str) -> None:
        shot = self.preview(target)
        if shot is None:
            return
        names = figure_names(self.session.game)
        if shot.action is None:
            self.last_fire_reason = shot.reason
            self.show_message(f"Cannot fire: {shot.reason}")
            QToolTip.showText(
                self.view.viewport().mapToGlobal(self.view.mapFromScene(self._figure_pos(target))),
                f"Cannot fire: {shot.reason}",
                self.view.viewport(),
            )
            return
        detail = self.session.game.rules.firearms_detail  # choose the mode first (FD §11)
        if (shot.shared or detail) and shot.choice is not None:
            self.open_fire_dialog(shot.choice)
            return
        reason = self.session.play(shot.action)
        self.last_fire_reason = reason
        if reason is not None:
            self.show_message(f"Not fired: {reason}")
            return
        aims = ", ".join(names(t) for t in shot.action.target_ids)
        self.show_message(f"{names(shot.shooter)} fires at {aims}")

    def open_fire_dialog(self, choice: FireChoice) -> FireDialog:
        """Share the volley's dice in a small dialog beside the first target (7.9.8)."""
        if self.fire_dialog is not None:
            self.fire_dialog.close()
        dialog = FireDialog(self.session, choice, self.view.window(), self.scene)
        names = figure_names(self.session.game)

        def fired(action: Fire) -> None:
            self.last_fire_reason = None
            aims = ", ".join(f"{names(t)} ({n}d)" for t, n in action.targets)
            self.show_message(f"{names(action.figure)} fires at {aims}")

        def closed(result: int) -> None:
            if self.fire_dialog is dialog:
                self.fire_dialog = None
            if result != FireDialog.DialogCode.Accepted:
                self.show_message(f"{names(choice.shooter)} holds fire")

        dialog.fired.connect(fired)
        dialog.finished.connect(closed)
        dialog.adjustSize()
        dialog.move(self._beside_the_table(dialog, choice))
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        self.fire_dialog = dialog
        self.show_message(f"{names(choice.shooter)}: share the dice, then Fire (Enter) or Esc")
        return dialog

    def _beside_the_table(self, dialog: FireDialog, choice: FireChoice) -> QPoint:
        """Where the dialog hides the fewest figures, beside the targets (global pixels)."""
        port = self.view.viewport()
        at = self.view.mapFromScene
        figures = [at(QPointF(f.x, f.y)) for f in self.session.game.battlefield.figures()]
        aims = [at(self._figure_pos(t)) for t in choice.targets]
        return port.mapToGlobal(placement(dialog.size(), port.rect(), aims, figures))

    def start_charge(self, fid: str) -> str | None:
        """A charge mode for ``fid`` (a menu's "Charge"): None, or why it may not charge now."""
        return self.aim.start_charge(fid)

    def start_throw(self, fid: str) -> str | None:
        """A throw mode for ``fid``'s readied grenade: None, or why it may not throw now."""
        return self.aim.start_throw(fid)

    def start_indirect(self, fid: str) -> str | None:
        """A spot mode for ``fid``'s blast weapon (FD §10): None, or why it may not fire
        indirectly now."""
        return self.aim.start_indirect(fid)

    def _figure_pos(self, fid: str) -> QPointF:
        figure = self.session.game.battlefield.figure(fid)
        return QPointF(figure.x, figure.y)

    def rings(self) -> list[str]:
        """The figures ringed as movable now."""
        return list(self._rings)

    def previews_gone(self) -> bool:
        """Whether no drag line or label is left on the table."""
        return (
            self._line is None
            and self._label is None
            and self._area is None
            and self._figure is None
            and self._stop_marker is None
            and self.group is None
        )

    def area_item(self) -> QGraphicsPathItem | None:
        """The reachable area shown for the pressed figure (None when none is)."""
        return self._area

    def cost_text(self) -> str:
        """The drag label's text ("" when no drag is under way)."""
        return self._label.text() if self._label is not None else ""

    # -- the gesture --------------------------------------------------------------

    def _pick(self, pos: QPointF) -> str | None:
        figures = reversed(list(self.session.game.battlefield.figures()))
        return figure_under(figures, pos, self.view)

    @guarded_filter
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            if (
                kind in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
                and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape
                and (self._figure is not None or self.selected is not None or self.armed)
            ):
                if kind == QEvent.Type.KeyPress:
                    if self.armed is not None and self._figure is None:
                        self.arm_move(None)
                    elif self._figure is not None:
                        self.cancel()  # a drag: put the figure back, keep the shooter
                    else:
                        self.select(None)
                        QToolTip.hideText()
                event.accept()
                return True
            return False
        if kind == QEvent.Type.ToolTip and self.hovered is not None:
            # the enemy's own tooltip would hide the shot's: show the shot's
            if isinstance(event, QHelpEvent):
                QToolTip.showText(event.globalPos(), self.hover_html(), self.view.viewport())
            return True
        if kind == QEvent.Type.Leave:
            self._clear_hover()
            return False
        if kind == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            self._context_menu(event)
            return True
        if not isinstance(event, QMouseEvent) or getattr(self.view, "_space_held", False):
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            return self._pressed(pos, event.modifiers())
        if kind == QEvent.Type.MouseMove and self._figure is not None:
            if event.buttons() & Qt.MouseButton.LeftButton:
                self._moved(pos)
            return False  # the view still reports the pointer position
        if kind == QEvent.Type.MouseMove and self.selected is not None and not event.buttons():
            self._hover(pos, event.globalPosition())
            return False
        if (
            kind == QEvent.Type.MouseButtonRelease
            and event.button() == Qt.MouseButton.LeftButton
            and self._fire_press is not None
        ):
            target, self._fire_press = self._fire_press, None
            if self._pick(pos) == target:
                self._fire_at(target)
            return True
        if (
            kind == QEvent.Type.MouseButtonRelease
            and event.button() == Qt.MouseButton.LeftButton
            and self._figure is not None
        ):
            self._released(pos)
            return True
        return False

    def _pressed(
        self, pos: QPointF, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> bool:
        if self.armed is not None:
            self._move_armed(pos)
            return True
        fid = self._pick(pos)
        if fid is None:
            if self.shooter() is None:  # an In Sight winner stays chosen
                self.select(None)
            return False
        if self.selected is not None and self._is_enemy(fid):
            self._fire_press = fid  # fires on the release over the same enemy
            return True
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
        self._stops = {}
        self._plans = {}
        self.last_stop = None
        # Alt: one straight run, as a tape measure lays it (explicit legs, issue 31)
        self._straight = bool(modifiers & Qt.KeyboardModifier.AltModifier)
        if modifiers & Qt.KeyboardModifier.ShiftModifier and self._is_leader(fid):
            from ui.play.group_move import GroupDrag  # it draws with this module's items

            self.group = GroupDrag(self, fid)
            self.show_message("Moving the whole group: the members keep their places")
            return True
        self._show_area(fid)
        return True

    def _is_leader(self, fid: str) -> bool:
        """Whether ``fid`` leads the active group (a Shift-drag of it moves them all)."""
        frame = next(
            (f for f in reversed(self.session.game.frames) if f.kind == "activation"), None
        )
        return frame is not None and frame.data.get("leader") == fid

    # -- the context menu and "Move…" -------------------------------------------------

    def _context_menu(self, event: QContextMenuEvent) -> None:
        if self._figure is not None:
            return  # not in the middle of a drag
        if event.reason() == QContextMenuEvent.Reason.Keyboard and self.selected is not None:
            spot = self._figure_pos(self.selected)
            fid: str | None = self.selected
            where = self.view.viewport().mapToGlobal(self.view.mapFromScene(spot))
        else:
            spot = self.view.mapToScene(event.pos())
            fid = self._pick(spot)
            where = event.globalPos()
        if fid is not None and fid not in self.movable():
            fid = None  # another figure: the table's menu (for the selected figure)
        self.actions.popup(fid, spot, where)

    def arm_move(self, fid: str | None) -> None:
        """Wait for a click on the table to move ``fid`` there (None: stop waiting)."""
        self.armed = fid
        if fid is None:
            self.view.viewport().unsetCursor()
            self.show_message("Move cancelled")
            return
        self.select(fid)
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
        name = self.session.game.battlefield.figure(fid).name
        self.show_message(f"Click where {name} should go (Esc cancels)")

    def _move_armed(self, pos: QPointF) -> None:
        fid = self.armed
        assert fid is not None
        self.armed = None
        self.view.viewport().unsetCursor()
        self._drop(fid, (round(pos.x(), 2), round(pos.y(), 2)))

    def _show_area(self, fid: str) -> None:
        """Where the pressed figure can get with the movement it has left (once per press)."""
        game = self.session.game
        left = game.flags(fid).get("movement_left")
        self._allowance = float(left) if isinstance(left, int | float) else None
        if self._allowance is None or self._allowance <= 0:
            return
        figure = game.battlefield.figure(fid)
        try:
            reach = game.reach(fid)  # by any route: round corners, doors, windows (issue 31)
        except (CrdeskError, ValueError) as exc:
            self.show_message(f"No movement area: {exc}")
            return
        if reach is None:
            return
        if reach.area.is_empty:
            return
        self.last_reach = reach
        item = QGraphicsPathItem(polygon_path(reach.area))
        pen = QPen(AREA_EDGE, 0)
        pen.setCosmetic(True)
        pen.setWidthF(1.5)
        item.setPen(pen)
        item.setBrush(QBrush(AREA_FILL))
        item.setZValue(AREA_Z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        item.setToolTip(
            f'Where {figure.name} can get by any route: {self._allowance:.1f}" of movement '
            f'left (the darker part within {self._allowance / 2:.1f}")'
        )
        if not reach.near.is_empty:  # shaded by cost: the nearer half darker
            near = QGraphicsPathItem(polygon_path(reach.near), item)
            near.setPen(QPen(Qt.PenStyle.NoPen))
            near.setBrush(QBrush(AREA_NEAR))
            near.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(item)
        self._area = item

    def _moved(self, pos: QPointF) -> None:
        assert self._figure is not None
        shift = pos - self._press
        if not self._dragging:
            if math.hypot(shift.x(), shift.y()) * self.view.pixels_per_inch() < DRAG_START_PX:
                return
            self._dragging = True
            if self.group is None:
                self._make_preview()
        if self.group is not None:
            self.group.moved(shift.x(), shift.y())
            return
        target = self._origin + shift
        item = self.scene.figure_item(self._figure)
        if item is not None:
            item.setPos(target)
        ring = self._rings.get(self._figure)
        if ring is not None:
            ring.setPos(target)
        if self.markers is not None:  # its front goes with it (facing as it stands)
            self.markers.shift_arcs(self._figure, shift.x(), shift.y())
        self._show_preview(target)

    def _released(self, pos: QPointF) -> None:
        fid = self._figure
        assert fid is not None
        dragging = self._dragging
        shift = pos - self._press
        target = self._origin + shift
        group = self.group
        self.cancel()
        if group is not None:
            if dragging:
                self.show_message(group.release(shift.x(), shift.y()))
            return
        if not dragging:
            self.select(fid)
            self.show_message(self._figure_note(fid))
            return
        end = (round(target.x(), 2), round(target.y(), 2))
        self._drop(fid, end, straight=self._straight)

    def _drop(self, fid: str, end: tuple[float, float], *, straight: bool = False) -> None:
        """Play the move to ``end``: by its route (the straight run when that is legal and
        paid for), or with ``straight`` one straight run (Alt); refused, it says why and,
        beyond reach, how far the figure gets (offered by "Move as far as possible")."""
        action: Action = Move(fid, (end,)) if straight else MoveTo(fid, end)
        plan = None if straight else self.session.game.plan_move(fid, end)
        reason = self.session.play(action)
        self.last_reason = reason
        self.last_refused_plan = None
        if reason is not None:
            if plan is not None and plan.farthest is not None:
                self.last_refused_plan = (fid, plan)
                self.show_message(
                    f"Move refused: {reason}. Drop it there, or right-click it: "
                    "Move as far as possible"
                )
            else:
                self.show_message(f"Move refused: {reason}")
        else:
            self.show_message(self._moved_note(fid))
        self._snap(fid)

    def move_as_far_as_possible(self, fid: str) -> str | None:
        """After a drop beyond reach: move ``fid`` as far along that route as it gets."""
        refused = self.last_refused_plan
        if refused is None or refused[0] != fid or refused[1].farthest is None:
            return "no move beyond reach to shorten"
        x, y = refused[1].farthest
        self._drop(fid, (round(x, 2), round(y, 2)))
        return self.last_reason

    def _moved_note(self, fid: str) -> str:
        """The move's own sentence from the log (it says when an In Sight stopped it)."""
        for event in reversed(self.session.game.events):
            if event.kind == "move" and event.figures and event.figures[0] == fid:
                return event.text
        return f"{self.session.game.battlefield.figure(fid).name} moved"

    def _figure_note(self, fid: str) -> str:
        """What a click on a movable figure says: its name and movement left."""
        for row in self.session.game.summary()["figures"]:
            if row["id"] == fid:
                left = row.get("movement_left")
                room = f': {left:.1f}" of movement left' if isinstance(left, float | int) else ""
                return f"{row['name']}{room}; drag to move, or click an enemy to fire"
        return "Drag to move"

    def _snap(self, fid: str) -> None:
        """Put the figure's item where the battlefield has it (back, or where it stopped)."""
        item = self.scene.figure_item(fid)
        if item is not None:
            item.sync_from_model()
        if self.markers is not None:
            self.markers.shift_arcs(fid, 0.0, 0.0)  # and its front with it
        self._follow_model(None)

    def cancel(self) -> None:
        """Esc, or the end of a gesture: drop the preview and put the figure back."""
        fid = self._figure
        self._figure = None
        self._dragging = False
        self._rest.stop()
        for preview in (
            self._line,
            self._label,
            self._area,
            self._stop_marker,
            self._stop_label,
            self._beyond,
            self._route,
        ):
            if preview is not None and preview.scene() is not None:
                preview.scene().removeItem(preview)
        self._route = None
        self._plans = {}
        self._line = None
        self._label = None
        self._area = None
        self._stop_marker = None
        self._stop_label = None
        self._beyond = None
        if self.group is not None:
            group, self.group = self.group, None
            group.clear()
        if fid is not None:
            self._snap(fid)

    # -- the preview ---------------------------------------------------------------

    def _make_preview(self) -> None:
        self._line = QGraphicsLineItem()
        self._line.setZValue(Layer.TOOLS)
        self._line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(self._line)
        self._label = CostLabel()
        self._label.setZValue(Layer.TOOLS + 1)
        self.scene.addItem(self._label)

    def _show_preview(self, target: QPointF) -> None:
        assert self._figure is not None and self._line is not None and self._label is not None
        game = self.session.game
        figure = game.battlefield.figure(self._figure)
        end = (round(target.x(), 2), round(target.y(), 2))
        cost = movement.path_cost(
            game.battlefield,
            [(self._origin.x(), self._origin.y()), end],
            game.rules,
            index=game.vis.index,
            radius=figure.radius,
        )
        self.last_cost = cost
        if self._checked_at is None or _dist(self._checked_at, target) >= CHECK_EVERY:
            self._checked_at = target
            self._ok = self.session.legal(Move(self._figure, (end,))) is None
        left = self._allowance
        over = left is not None and cost.allowed and cost.cost > left + 1e-9
        ok = self._ok and cost.allowed and not over
        if not ok and not self._straight:  # the straight run is not the move: its route is
            self._show_route(target, end, left)
            return
        if self._route is not None:
            self._route.hide()
        self._line.show()
        self.last_plan = None
        colour = OK_COLOUR if ok else BAD_COLOUR
        pen = QPen(colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.5)
        pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
        self._line.setPen(pen)
        self._label.setBrush(colour)
        self._line.setLine(QLineF(self._origin, target))
        self._label.setText(_cost_text(cost, left, ok))
        self._label.setPos(target + QPointF(0.6, -0.9))
        self._show_stop(end if ok else None)

    def _show_route(self, target: QPointF, end: tuple[float, float], left: float | None) -> None:
        """The drag's route (the straight run is refused or over): drawn, with its cost
        and what it passes ("9.5\" of 12.0\" — routed"), red and dashed past reach."""
        assert self._figure is not None and self._line is not None and self._label is not None
        key = (round(end[0] / STOP_GRID) * STOP_GRID, round(end[1] / STOP_GRID) * STOP_GRID)
        plan = self._plans.get(key)
        if plan is None:
            plan = self.session.game.plan_move(self._figure, key)
            self._plans[key] = plan
        self.last_plan = plan
        ok = plan.move is not None
        colour = OK_COLOUR if ok else BAD_COLOUR
        self._line.hide()
        if self._route is None:
            self._route = QGraphicsPathItem()
            self._route.setZValue(Layer.TOOLS)
            self._route.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(self._route)
        path = QPainterPath()
        points = list(plan.route) or [(self._origin.x(), self._origin.y()), end]
        path.moveTo(QPointF(*points[0]))
        for p in points[1:]:
            path.lineTo(QPointF(*p))
        pen = QPen(colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.5)
        pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
        self._route.setPen(pen)
        self._route.setPath(path)
        self._route.show()
        self._label.setBrush(colour)
        self._label.setText(_route_text(plan, left))
        self._label.setPos(target + QPointF(0.6, -0.9))
        self._show_stop(key if ok else None, routed=True, move=plan.move)

    def stop_text(self) -> str:
        """The drag's "stops: ..." label ("" when the move would go all the way)."""
        label = self._stop_label
        return label.text() if label is not None and label.isVisible() else ""

    def _show_stop(
        self, end: tuple[float, float] | None, *, routed: bool = False, move: Move | None = None
    ) -> None:
        """Mark where the controller says the move would stop (an In Sight, 7.6)."""
        assert self._figure is not None
        preview: Preview | None = None
        self._rest_end = None if routed else end  # a route's end is previewed on its grid
        if end is not None:
            key = (round(end[0] / STOP_GRID) * STOP_GRID, round(end[1] / STOP_GRID) * STOP_GRID)
            preview = self._stops.get(key)
            if preview is None:
                # a route's own move, as planned: previewing it does not route it again
                act: Action = move or (
                    MoveTo(self._figure, key) if routed else Move(self._figure, (key,))
                )
                preview = self.session.game.preview(act)
                self._stops[key] = preview
            self._rest.start()
        else:
            self._rest.stop()
        self._draw_stop(preview, end)

    def _rested(self) -> None:
        """The pointer rests: preview the exact end, so the mark is where the drop stops."""
        end = self._rest_end
        if self._figure is None or self.group is not None or end is None:
            return
        preview = self._stops.get(end)
        if preview is None:
            preview = self.session.game.preview(Move(self._figure, (end,)))
            self._stops[end] = preview
        self._draw_stop(preview, end)

    def _draw_stop(self, preview: Preview | None, end: tuple[float, float] | None) -> None:
        self.last_stop = preview
        stopped = preview.stopped if preview is not None and preview.legal else None
        if stopped is None:
            for item in (self._stop_marker, self._stop_label, self._beyond):
                if item is not None:
                    item.hide()
            return
        assert preview is not None
        spot = preview.end or end
        assert spot is not None
        if self._stop_marker is None:
            self._stop_marker = StopMarker()
            self.scene.addItem(self._stop_marker)
        if self._stop_label is None:
            self._stop_label = CostLabel()
            self._stop_label.setZValue(Layer.TOOLS + 1)
            self._stop_label.setBrush(STOP_COLOUR)
            self.scene.addItem(self._stop_label)
        if self._beyond is None:
            self._beyond = QGraphicsLineItem()
            pen = QPen(STOP_COLOUR, 0)
            pen.setCosmetic(True)
            pen.setWidthF(3.0)
            pen.setStyle(Qt.PenStyle.DashLine)
            self._beyond.setPen(pen)
            self._beyond.setZValue(Layer.TOOLS + 0.2)
            self._beyond.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(self._beyond)
        if end is not None:
            self._beyond.setLine(QLineF(QPointF(*spot), QPointF(*end)))
            self._beyond.show()
        self._stop_marker.setPos(QPointF(*spot))
        self._stop_label.setText(f"stops: {stopped}")
        self._stop_label.setPos(QPointF(spot[0] + 0.7, spot[1] + 0.1))
        self._stop_marker.show()
        self._stop_label.show()


class StopMarker(QGraphicsItem):
    """Where a move would stop: an orange ring with a bar across, the same size at every zoom."""

    SIZE = 9.0

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(Layer.TOOLS + 0.5)

    def boundingRect(self) -> QRectF:
        r = self.SIZE + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.SIZE
        painter.setPen(QPen(QColor(255, 255, 255, 230), 5.0))
        painter.drawEllipse(QPointF(0, 0), r, r)
        painter.setPen(QPen(STOP_COLOUR, 2.5))
        painter.setBrush(QColor(230, 120, 0, 60))
        painter.drawEllipse(QPointF(0, 0), r, r)
        painter.drawLine(QPointF(-r * 0.6, 0), QPointF(r * 0.6, 0))


class CostLabel(QGraphicsSimpleTextItem):
    """The drag's readout: bold coloured text on a light plate, the same size at every zoom."""

    def __init__(self) -> None:
        super().__init__()
        font = QFont()
        font.setPointSizeF(10.0)
        font.setBold(True)
        self.setFont(font)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return super().boundingRect().adjusted(-4, -2, 4, 2)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.brush().color(), 1.2))
        painter.setBrush(QColor(255, 255, 255, 225))
        painter.drawRoundedRect(self.boundingRect().adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
        super().paint(painter, option, widget)  # type: ignore[arg-type]


def _cost_text(cost: movement.PathCost, left: float | None, ok: bool) -> str:
    """The drag label: ``5.5" of 8.0"``, the reason word when forbidden, ✓ or ✗."""
    mark = "✓" if ok else "✗"
    room = f' of {left:.1f}"' if left is not None else ""
    if not cost.allowed:
        return f'{cost.length:.1f}"{room} — {cost.forbidden}  {mark}'
    over = "  over" if left is not None and cost.cost > left + 1e-9 else ""
    return f'{cost.cost:.1f}"{room}{over}  {mark}'


def figure_under(figures: Iterable[Figure], pos: QPointF, view: BattlefieldView) -> str | None:
    """The first of ``figures`` whose base is under the pointer at ``pos`` (table inches),
    with 3 screen pixels to spare round the base."""
    slack = 3.0 / (view.pixels_per_inch() or 1.0)
    for figure in figures:
        if math.dist((figure.x, figure.y), (pos.x(), pos.y())) <= figure.radius + slack:
            return figure.id
    return None


def _route_text(plan: RoutePlan, left: float | None) -> str:
    """The drag label of a route: ``9.5" of 12.0" — routed ✓``, over reach ✗."""
    room = f' of {left:.1f}"' if left is not None else ""
    if not plan.route:
        return "no way there  ✗"
    if plan.move is None:
        return f'{plan.cost:.1f}"{room} — routed, over  ✗'
    return f'{plan.cost:.1f}"{room} — routed  ✓'


def _dist(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())
