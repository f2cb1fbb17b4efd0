"""Charging and throwing from the table: the charge path and its odds, the blast circle.

Two ways in, both ending in one click:

* **Charge.** With a shooter selected, hold Ctrl over an enemy (or press C, or
  call :meth:`AimTool.start_charge` from a menu, for a sticky charge mode):
  the path to the contact spot is drawn, green when the charge may be declared,
  red with the controller's reason when not, and the tooltip gives the reach
  and the exact odds of the Charge into Melee test (:mod:`ui.play.charge_preview`).
  A click on that enemy declares ``Charge(figure, enemy)``.
* **Throw.** When the figure holds a readied grenade, G (or
  :meth:`AimTool.start_throw`) starts the throw mode: the 6" range is ringed
  round the thrower, the blast circle follows the mouse with the figures it
  would catch ringed, and a click throws at that spot
  (``Throw(figure, spot)``) or says why not (:mod:`ui.play.throw_preview`).
* **Indirect fire** (Firearms Detail, FD §10).  For a blast weapon, I (or
  :meth:`AimTool.start_indirect`, the menu's "Indirect fire…") starts the spot
  mode: the weapon's range is ringed round the shooter, the rings of FD §9
  (Deadly, Severe, Wound, and the Received Fire reach) follow the mouse, orange
  where the shot may be fired and red, dashed, with the controller's reason
  where not; the label names the spotter who counts and the exact chance on the
  spot, and a click fires ``Indirect(figure, spot)`` through the session
  (:mod:`ui.play.indirect_preview`).

Esc leaves any mode.  The tool is an event filter installed after the move
tool's, so it sees the mouse first and only takes the events of its gestures.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QHelpEvent, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QToolTip,
)

from crdesk.errors import CrdeskError
from crdesk.game import firearms_view
from crdesk.game.actions import Charge, Throw
from crdesk.rules.firearms.tables import EXPLOSIVE_RECEIVED_FIRE, EXPLOSIVE_RINGS
from crdesk.tables import ChargeResult
from ui.event_guard import guarded_filter
from ui.play.charge_preview import ChargePreview, preview_charge
from ui.play.fire_preview import pct
from ui.play.indirect_preview import IndirectPreview, preview_indirect
from ui.play.move_tool import BAD_COLOUR, DRAG_START_PX, OK_COLOUR, CostLabel
from ui.play.text import figure_names
from ui.play.throw_preview import ThrowPreview, preview_throw
from ui.scene.layers import Layer

if TYPE_CHECKING:
    from ui.play.move_tool import MoveTool

CHARGE = "charge"
THROW = "throw"
INDIRECT = "indirect"
BLAST_FILL = QColor(255, 140, 0, 60)
BLAST_EDGE = QColor(230, 100, 0, 230)
RANGE_EDGE = QColor(230, 100, 0, 160)
CAUGHT_ENEMY = QColor(220, 30, 30)
CAUGHT_FRIEND = QColor(255, 200, 0)


class AimTool(QObject):
    """Charge and throw previews on the play view, for the move tool's selected figure."""

    def __init__(self, tool: MoveTool) -> None:
        super().__init__(tool)
        self.tool = tool
        self.view = tool.view
        self.scene = tool.scene
        self.session = tool.session
        self.mode: str | None = None
        """``"charge"``, ``"throw"`` or ``"indirect"`` while a sticky mode is on, else None."""
        self.figure: str | None = None
        """The charger or thrower of the sticky mode."""
        self.charge: ChargePreview | None = None
        """The charge previewed under the pointer, while one is."""
        self.throw: ThrowPreview | None = None
        """The throw previewed at the pointer, while one is."""
        self.indirect: IndirectPreview | None = None
        """The indirect shot previewed at the pointer, while one is."""
        self.last_reason: str | None = None
        """Why the last charge or throw click was not played (None when it was)."""
        self._press: tuple[str, str | None, QPointF] | None = None
        self._items: list[QGraphicsItem] = []
        self._ring: QGraphicsEllipseItem | None = None
        self.view.viewport().installEventFilter(self)
        self.view.installEventFilter(self)
        self.session.changed.connect(self._game_changed)

    def detach(self) -> None:
        self.stop()
        self.view.viewport().removeEventFilter(self)
        self.view.removeEventFilter(self)
        self.session.changed.disconnect(self._game_changed)

    # -- the modes -------------------------------------------------------------------

    def start_charge(self, fid: str) -> str | None:
        """Hovering an enemy now previews ``fid``'s charge at it; None, or why not."""
        why = self.may_act(fid, "charge")
        if why is None:
            self._enter(CHARGE, fid)
            self.tool.show_message(
                f"{self._name(fid)} charges: hover an enemy for the odds, click to charge, "
                "Esc to stop"
            )
        else:
            self.tool.show_message(f"Cannot charge: {why}")
        return why

    def start_throw(self, fid: str) -> str | None:
        """The blast circle now follows the mouse for ``fid``'s grenade; None, or why not."""
        why = self.may_act(fid, "throw")
        if why is None:
            fig = self.session.game.fig(fid)
            why = self.session.legal(Throw(fid, (fig.x, fig.y)))
        if why is None:
            self._enter(THROW, fid)
            self._draw_range(fid)
            self.tool.show_message(
                f"{self._name(fid)} throws a grenade: click the spot, Esc to stop"
            )
        else:
            self.tool.show_message(f"Cannot throw: {why}")
        return why

    def start_indirect(self, fid: str) -> str | None:
        """The rings now follow the mouse for ``fid``'s indirect shot (FD §10); None, or
        why not (the controller's reasons that hold for every spot)."""
        why = self.may_act(fid, INDIRECT)
        if why is None:
            why = firearms_view.indirect_problem(self.session.game, fid)
        if why is None:
            self._enter(INDIRECT, fid)
            self._draw_range(fid)
            self.tool.show_message(
                f"{self._name(fid)} fires indirectly: click an unseen spot in range, Esc to stop"
            )
        else:
            self.tool.show_message(f"Cannot fire indirectly: {why}")
        return why

    def stop(self) -> None:
        """Leave the mode and take every preview off the table."""
        self.mode = None
        self.figure = None
        self._press = None
        self._clear()
        if self._ring is not None and self._ring.scene() is not None:
            self._ring.scene().removeItem(self._ring)
        self._ring = None

    def _enter(self, mode: str, fid: str) -> None:
        self.stop()
        self.tool._clear_hover()
        QToolTip.hideText()
        self.mode = mode
        self.figure = fid
        if self.tool.selected != fid:
            self.tool.select(fid)

    def may_act(self, fid: str, word: str) -> str | None:
        """None if ``fid`` may charge or throw (``word``) now, else why not."""
        decision = self.session.awaiting()
        if decision is None:
            return "the encounter is over"
        if not self.session.person_to_decide() or word not in decision.accepts:
            return decision.prompt
        if fid not in self.tool.movable():
            return f"{self._name(fid)} is not in the group that may act now"
        return None

    def _game_changed(self) -> None:
        self._clear()
        if self.mode is None or self.figure is None:
            return
        word = {CHARGE: "charge", THROW: "throw"}.get(self.mode, INDIRECT)
        stale = self.mode == INDIRECT and firearms_view.indirect_problem(
            self.session.game, self.figure
        )
        if self.may_act(self.figure, word) is not None or stale:
            self.stop()
        elif self.mode in (THROW, INDIRECT):
            self._draw_range(self.figure)

    def _name(self, fid: str) -> str:
        return figure_names(self.session.game)(fid)

    # -- events ------------------------------------------------------------------------

    @guarded_filter
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            return self._key(kind, event)
        previews = (self.charge, self.throw, self.indirect)
        if kind == QEvent.Type.ToolTip and any(p is not None for p in previews):
            if isinstance(event, QHelpEvent):
                QToolTip.showText(event.globalPos(), self.html(), self.view.viewport())
            return True
        if kind == QEvent.Type.Leave:
            self._clear()
            return False
        if not isinstance(event, QMouseEvent) or getattr(self.view, "_space_held", False):
            return False
        if self.tool._figure is not None:  # a drag is under way: the move tool's
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        charger = self.figure if self.mode == CHARGE else None
        if self.mode is None and ctrl:
            charger = self.tool.selected
        left = Qt.MouseButton.LeftButton
        if kind == QEvent.Type.MouseMove and not event.buttons():
            # never taken: the view still reports the pointer (the move tool's hover yields)
            if self.mode == THROW:
                self._aim_throw(pos, event.globalPosition())
            elif self.mode == INDIRECT:
                self._aim_indirect(pos, event.globalPosition())
            elif charger is not None and (target := self._enemy_at(charger, pos)) is not None:
                self._aim_charge(charger, target, event.globalPosition())
            elif self.charge is not None:  # off the enemy, or Ctrl let go: the shot's again
                self._clear()
                QToolTip.hideText()
            return False
        if kind == QEvent.Type.MouseButtonPress and event.button() == left:
            if self.mode in (THROW, INDIRECT):
                self._press = (self.mode, None, pos)
                return True
            if charger is not None:
                target = self._enemy_at(charger, pos)
                if target is not None:
                    self._press = (CHARGE, target, pos)
                    return True
                if self.mode == CHARGE:
                    self.stop()
                    self.tool.show_message("Charge cancelled")
                    return True
            return False
        if kind == QEvent.Type.MouseButtonRelease and event.button() == left and self._press:
            what, target, start = self._press
            self._press = None
            if what in (THROW, INDIRECT):
                moved = math.dist((start.x(), start.y()), (pos.x(), pos.y()))
                if moved * self.view.pixels_per_inch() < DRAG_START_PX:
                    if what == THROW:
                        self.throw_at((pos.x(), pos.y()))
                    else:
                        self.indirect_at((pos.x(), pos.y()))
            elif (
                target is not None
                and charger is not None
                and self._enemy_at(charger, pos) == target
            ):
                self.charge_at(charger, target)
            return True
        return kind == QEvent.Type.MouseButtonDblClick and self.mode is not None

    def _key(self, kind: QEvent.Type, event: QEvent) -> bool:
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if (
            not isinstance(event, QKeyEvent)
            or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            return False
        key = event.key()
        if key == Qt.Key.Key_Escape and self.mode is not None:
            if kind == QEvent.Type.KeyPress:
                self.stop()
                QToolTip.hideText()
                self.tool.show_message("Back to moving and firing")
            event.accept()
            return True
        selected = self.tool.selected
        if key in (Qt.Key.Key_C, Qt.Key.Key_G) and selected is not None:
            if kind == QEvent.Type.KeyPress:
                if key == Qt.Key.Key_C:
                    self.start_charge(selected)
                else:
                    self.start_throw(selected)
            event.accept()
            return True
        return False

    def _enemy_at(self, charger: str, pos: QPointF) -> str | None:
        fid = self.tool._pick(pos)
        if fid is None:
            return None
        bf = self.session.game.battlefield
        return fid if bf.figure(fid).side != bf.figure(charger).side else None

    # -- the charge --------------------------------------------------------------------

    def preview_charge(self, charger: str, target: str) -> ChargePreview | None:
        try:
            return preview_charge(self.session.game, charger, target, self.session.legal)
        except (CrdeskError, KeyError, ValueError) as exc:
            self.tool.show_message(f"No charge preview: {exc}")
            return None

    def _aim_charge(self, charger: str, target: str, global_pos: QPointF) -> None:
        if self.charge is None or (self.charge.charger, self.charge.target) != (charger, target):
            self._clear()
            self.tool._clear_hover()  # the shot's line and tooltip give way
            self.charge = self.preview_charge(charger, target)
            if self.charge is None:
                return
            self._draw_charge(self.charge)
        QToolTip.showText(global_pos.toPoint(), self.html(), self.view.viewport())

    def _draw_charge(self, shot: ChargePreview) -> None:
        bf = self.session.game.battlefield
        a = bf.figure(shot.charger)
        end = QPointF(*shot.spec.contact)
        ok = shot.action is not None
        colour = OK_COLOUR if ok else BAD_COLOUR
        pen = QPen(colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(3.0)
        pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
        line = QGraphicsLineItem(QLineF(QPointF(a.x, a.y), end))
        line.setPen(pen)
        self._add(line, Layer.TOOLS)
        ghost = QGraphicsEllipseItem(-a.radius, -a.radius, 2 * a.radius, 2 * a.radius)
        ghost_pen = QPen(colour, 0)
        ghost_pen.setCosmetic(True)
        ghost_pen.setWidthF(2.0)
        ghost_pen.setStyle(Qt.PenStyle.DashLine)
        ghost.setPen(ghost_pen)
        ghost.setBrush(QBrush(QColor(colour.red(), colour.green(), colour.blue(), 50)))
        ghost.setPos(end)
        self._add(ghost, Layer.TOOLS)
        label = CostLabel()
        moves_in = shot.odds.chance(ChargeResult.CHARGER_MOVES_IN)
        mark = "✓" if ok else "✗"
        label.setText(f'Charge {shot.spec.distance:.1f}" · moves in unshot {pct(moves_in)}  {mark}')
        label.setBrush(colour)
        # left of the charger: the pointer's end of the path has the tooltip
        width = label.boundingRect().width() / (self.view.pixels_per_inch() or 1.0)
        label.setPos(QPointF(a.x - a.radius - 0.4 - width, a.y - 0.45))
        self._add(label, Layer.TOOLS + 1)

    def charge_at(self, charger: str, target: str) -> None:
        """Declare ``charger``'s charge at ``target``, or say why not."""
        shot = self.preview_charge(charger, target)
        if shot is None:
            return
        names = figure_names(self.session.game)
        if shot.action is None:
            self.last_reason = shot.reason
            self.tool.show_message(f"Cannot charge: {shot.reason}")
            return
        reason = self.session.play(Charge(charger, target))
        self.last_reason = reason
        if reason is not None:
            self.tool.show_message(f"Not charged: {reason}")
            return
        self.stop()
        self.tool.show_message(f"{names(charger)} charges {names(target)}")

    # -- the throw ---------------------------------------------------------------------

    def _draw_range(self, fid: str) -> None:
        if self._ring is not None and self._ring.scene() is not None:
            self._ring.scene().removeItem(self._ring)
        fig = self.session.game.fig(fid)
        if self.mode == INDIRECT:
            spec_range = firearms_view.indirect_plan(self.session.game, fid, (fig.x, fig.y)).range
            tip = f'{fig.name} fires indirectly up to {spec_range:g}" from the base (FD §10)'
        else:
            spec_range = preview_throw(self.session.game, fid, (fig.x, fig.y)).spec.range
            tip = f'{fig.name} throws up to {spec_range:g}" from the base (7.10.3)'
        r = spec_range + fig.radius
        ring = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
        pen = QPen(RANGE_EDGE, 0)
        pen.setCosmetic(True)
        pen.setWidthF(1.5)
        pen.setStyle(Qt.PenStyle.DashDotLine)
        ring.setPen(pen)
        ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        ring.setPos(fig.x, fig.y)
        ring.setZValue(Layer.OVERLAYS)
        ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        ring.setToolTip(tip)
        self.scene.addItem(ring)
        self._ring = ring

    def range_item(self) -> QGraphicsEllipseItem | None:
        """The thrower's (or indirect shooter's) range ring while that mode is on."""
        return self._ring

    def _aim_throw(self, pos: QPointF, global_pos: QPointF) -> None:
        if self.figure is None:
            return
        self._clear()
        try:
            self.throw = preview_throw(
                self.session.game, self.figure, (pos.x(), pos.y()), self.session.legal
            )
        except (CrdeskError, KeyError, ValueError) as exc:
            self.tool.show_message(f"No throw preview: {exc}")
            return
        self._draw_throw(self.throw)
        QToolTip.showText(global_pos.toPoint(), self.html(), self.view.viewport())

    def blast_item(self) -> QGraphicsEllipseItem | None:
        """The blast circle drawn at the pointer (None when none is)."""
        for item in self._items:
            if isinstance(item, QGraphicsEllipseItem) and item.data(0) == "blast":
                return item
        return None

    def caught_items(self) -> list[QGraphicsEllipseItem]:
        """The rings of the figures the previewed blast would catch."""
        return [
            i
            for i in self._items
            if isinstance(i, QGraphicsEllipseItem) and str(i.data(0)).startswith("caught:")
        ]

    def _draw_throw(self, shot: ThrowPreview) -> None:
        r = shot.spec.blast_radius
        ok = shot.action is not None
        circle = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
        pen = QPen(BLAST_EDGE if ok else BAD_COLOUR, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.5)
        pen.setStyle(Qt.PenStyle.SolidLine if ok else Qt.PenStyle.DashLine)
        circle.setPen(pen)
        circle.setBrush(QBrush(BLAST_FILL if ok else QColor(200, 40, 40, 35)))
        circle.setPos(*shot.point)
        circle.setData(0, "blast")
        self._add(circle, Layer.OVERLAYS + 1)
        for fid in shot.spec.inside:
            self._ring_caught(fid, fid in shot.friends)
        label = CostLabel()
        spec = shot.spec
        mark = "✓" if ok else "✗"
        caught = len(spec.inside)
        label.setText(f'{spec.reach:.1f}" of {spec.range:g}" · {caught} in the blast  {mark}')
        label.setBrush(OK_COLOUR if ok else BAD_COLOUR)
        label.setPos(QPointF(shot.point[0] + r * 0.75, shot.point[1] - r - 0.4))
        self._add(label, Layer.TOOLS + 1)

    def throw_at(self, point: tuple[float, float]) -> None:
        """Throw the readied grenade at ``point``, or say why not."""
        if self.figure is None:
            return
        fid = self.figure
        shot = preview_throw(self.session.game, fid, point, self.session.legal)
        if shot.action is None:
            self.last_reason = shot.reason
            self.tool.show_message(f"Cannot throw: {shot.reason}")
            return
        reason = self.session.play(shot.action)
        self.last_reason = reason
        if reason is not None:
            self.tool.show_message(f"Not thrown: {reason}")
            return
        self.stop()
        x, y = shot.point
        self.tool.show_message(f"{self._name(fid)} throws a grenade at ({x:.1f}, {y:.1f})")

    # -- indirect fire (Firearms Detail, FD §10) ------------------------------------------

    def _preview_indirect(self, fid: str, point: tuple[float, float]) -> IndirectPreview | None:
        try:
            return preview_indirect(self.session.game, fid, point, self.session.legal)
        except (CrdeskError, KeyError, ValueError) as exc:
            self.tool.show_message(f"No indirect fire preview: {exc}")
            return None

    def _aim_indirect(self, pos: QPointF, global_pos: QPointF) -> None:
        if self.figure is None:
            return
        self._clear()
        self.indirect = self._preview_indirect(self.figure, (pos.x(), pos.y()))
        if self.indirect is None:
            return
        self._draw_indirect(self.indirect)
        QToolTip.showText(global_pos.toPoint(), self.html(), self.view.viewport())

    def ring_items(self) -> list[QGraphicsEllipseItem]:
        """The FD §9 rings drawn at the pointer, innermost first (the Received Fire reach last)."""
        return [
            i
            for i in self._items
            if isinstance(i, QGraphicsEllipseItem) and str(i.data(0)).startswith("ring:")
        ]

    def _draw_indirect(self, shot: IndirectPreview) -> None:
        ok = shot.action is not None
        radii = [(r.damage.label, r.up_to) for r in EXPLOSIVE_RINGS]
        radii.append(("Received Fire", EXPLOSIVE_RECEIVED_FIRE))
        for n, (label, r) in enumerate(radii):
            circle = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
            pen = QPen(BLAST_EDGE if ok else BAD_COLOUR, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.5 if n == 0 else 1.5)
            outer = n == len(radii) - 1
            pen.setStyle(
                Qt.PenStyle.DotLine
                if outer
                else Qt.PenStyle.SolidLine
                if ok
                else Qt.PenStyle.DashLine
            )
            circle.setPen(pen)
            if n == 0:
                circle.setBrush(QBrush(BLAST_FILL if ok else QColor(200, 40, 40, 35)))
            else:
                circle.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            circle.setPos(*shot.point)
            circle.setData(0, f"ring:{label}")
            circle.setToolTip(f'{label} ring to {r:g}" (FD §9)')
            self._add(circle, Layer.OVERLAYS + 1)
        for fid, ring, _d, saved in shot.plan.rings:
            if ring != "Received Fire" and not saved:
                self._ring_caught(fid, fid in shot.friends)
        plan = shot.plan
        label = CostLabel()
        mark = "✓" if ok else "✗"
        who = (
            f"{self._name(plan.spotter)} spots ({plan.steps})"
            if plan.spotter is not None
            else f"no spotter ({plan.steps})"
        )
        odds = f"on the spot {pct(plan.on_spot)}"
        label.setText(f'{plan.reach:.1f}" of {plan.range:g}" · {who} · {odds}  {mark}')
        label.setBrush(OK_COLOUR if ok else BAD_COLOUR)
        label.setData(0, "label")
        first = EXPLOSIVE_RINGS[0].up_to
        line_height = label.boundingRect().height() / (self.view.pixels_per_inch() or 1.0)
        # above the Deadly ring: the tooltip comes up below the pointer
        x, y = shot.point[0], shot.point[1] - first - 0.3 - line_height
        if not ok and shot.reason:
            why = CostLabel()
            short = shot.reason.split(":")[0]  # the whole reason is in the tooltip
            why.setText(short if len(short) <= 70 else short[:69] + "…")
            why.setBrush(BAD_COLOUR)
            why.setData(0, "reason")
            self._place(why, x, y)
            y -= line_height + 0.1
        self._place(label, x, y)
        if plan.spotter is not None:  # who sees the spot for the shooter
            eyes = self.session.game.fig(plan.spotter)
            pen = QPen(OK_COLOUR, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            pen.setStyle(Qt.PenStyle.DashLine)
            line = QGraphicsLineItem(QLineF(QPointF(eyes.x, eyes.y), QPointF(*shot.point)))
            line.setPen(pen)
            line.setData(0, f"spotter:{plan.spotter}")
            self._add(line, Layer.TOOLS)

    def _place(self, label: CostLabel, x: float, y: float) -> None:
        """Centre ``label`` on ``x`` at ``y``, kept inside the visible part of the table."""
        ppi = self.view.pixels_per_inch() or 1.0
        width = label.boundingRect().width() / ppi
        height = label.boundingRect().height() / ppi
        seen = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        left = min(max(x - width / 2, seen.left() + 0.2), seen.right() - width - 0.2)
        top = min(max(y, seen.top() + 0.2), seen.bottom() - height - 0.2)
        label.setPos(QPointF(left, top))
        self._add(label, Layer.TOOLS + 1)

    def indirect_at(self, point: tuple[float, float]) -> None:
        """Fire ``self.figure``'s blast weapon indirectly at ``point``, or say why not."""
        if self.figure is None:
            return
        fid = self.figure
        shot = self._preview_indirect(fid, point)
        if shot is None:
            return
        if shot.action is None:
            self.last_reason = shot.reason
            self.tool.show_message(f"Cannot fire indirectly: {shot.reason}")
            return
        reason = self.session.play(shot.action)
        self.last_reason = reason
        if reason is not None:
            self.tool.show_message(f"Not fired: {reason}")
            return
        self.stop()
        x, y = shot.point
        self.tool.show_message(f"{self._name(fid)} fires indirectly at ({x:.1f}, {y:.1f})")

    # -- drawing -----------------------------------------------------------------------

    def html(self) -> str:
        """The tooltip of the previewed charge or throw ("" when none)."""
        names = figure_names(self.session.game)
        if self.charge is not None:
            return self.charge.html(names)
        if self.throw is not None:
            return self.throw.html(names)
        if self.indirect is not None:
            return self.indirect.html(names)
        return ""

    def text(self) -> str:
        """The previewed charge's or throw's readout as plain lines."""
        names = figure_names(self.session.game)
        preview = self.charge or self.throw or self.indirect
        return "\n".join(preview.lines(names)) if preview is not None else ""

    def _ring_caught(self, fid: str, friend: bool) -> None:
        """A thick ring round a figure the blast would catch (a friend's in its own colour)."""
        fig = self.session.game.battlefield.figure(fid)
        rr = fig.radius + 0.3
        ring = QGraphicsEllipseItem(-rr, -rr, 2 * rr, 2 * rr)
        ring_pen = QPen(CAUGHT_FRIEND if friend else CAUGHT_ENEMY, 0)
        ring_pen.setCosmetic(True)
        ring_pen.setWidthF(3.0)
        ring.setPen(ring_pen)
        ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        ring.setPos(fig.x, fig.y)
        ring.setData(0, f"caught:{fid}")
        self._add(ring, Layer.FIGURES + 1)

    def _add(self, item: QGraphicsItem, z: float) -> None:
        item.setZValue(z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(item)
        self._items.append(item)

    def _clear(self) -> None:
        self.charge = None
        self.throw = None
        self.indirect = None
        for item in self._items:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self._items = []
