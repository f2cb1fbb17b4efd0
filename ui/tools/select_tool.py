"""Select, move and rotate: click, shift-click, rubber band, drag, wheel to turn figures."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPen, QWheelEvent
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsLineItem, QGraphicsRectItem
from shapely.geometry import Point, box

from crdesk.errors import ModelError
from crdesk.events import Change
from crdesk.model import Figure
from crdesk.shapes import rotated
from ui.commands import (
    ChangeFeatureCommand,
    MoveItemsCommand,
    NudgeCommand,
    RemoveItemsCommand,
)
from ui.tools.base import PREVIEW_Z, EditorContext, Tool

HANDLE_REACH = 0.9
"""Inches from the edge of the base to the facing handle."""
ROTATE_STEP = 15.0
"""Degrees per wheel notch or R key press."""
NUDGE = 1.0
"""Inches per arrow key press (Alt for a tenth)."""


def pick(ctx: EditorContext, pos: QPointF) -> str | None:
    """The model id under the pointer: figures first (they stand on the terrain), then terrain."""
    bf = ctx.document.battlefield
    p = Point(pos.x(), pos.y())
    slack = ctx.pixels_to_inches(3.0)
    for figure in reversed(list(bf.figures())):
        if math.dist((figure.x, figure.y), (p.x, p.y)) <= figure.radius + slack:
            return figure.id
    hits = bf.features_at(p.x, p.y)
    return hits[0].id if hits else None


class SelectTool(Tool):
    """The default tool: pick, move and turn what is on the table."""

    name = "Select"
    shortcut = "S"
    tooltip = (
        "click selects (Shift adds), drag moves, drag on open ground selects an area; "
        "wheel while dragging or R turns; Del deletes"
    )
    snaps = False

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context)
        self._start: QPointF | None = None
        self._dragging = False
        self._turn = 0.0
        self._band: QGraphicsRectItem | None = None
        self._origin: dict[str, tuple[float, float, float]] = {}
        """Where the dragged figures stood when the drag began."""
        self._active = False
        self._handle: QGraphicsEllipseItem | None = None
        self._handle_line: QGraphicsLineItem | None = None
        self._turning: tuple[str, float] | None = None
        """The figure being turned by its handle, and its facing before."""
        context.document.selection_changed.connect(self._place_handle)
        context.document.model_changed.connect(self._on_model_changed)

    # -- the facing handle of a single selected figure ----------------------

    def activate(self) -> None:
        self._active = True
        self._place_handle()

    def deactivate(self) -> None:
        self._active = False
        super().deactivate()
        self._remove_handle()

    def _on_model_changed(self, change: Change) -> None:
        if self._active and self._turning is None and change.id in self.ctx.document.selection:
            self._place_handle()

    def _handle_figure(self) -> Figure | None:
        figures = self._selected_figures()
        if not self._active or len(figures) != 1:
            return None
        return self.ctx.document.battlefield.figure(figures[0])

    def _handle_point(self, figure: Figure) -> QPointF:
        dx, dy = figure.facing_vector()
        reach = figure.radius + HANDLE_REACH
        return QPointF(figure.x + dx * reach, figure.y + dy * reach)

    def _remove_handle(self) -> None:
        for item in (self._handle, self._handle_line):
            if item is not None and item.scene() is not None:
                item.scene().removeItem(item)
        self._handle = None
        self._handle_line = None

    def _place_handle(self) -> None:
        """Show a round handle ahead of a lone selected figure: drag it to turn the figure."""
        figure = self._handle_figure()
        if figure is None:
            self._remove_handle()
            return
        if self._handle is None or self._handle_line is None:
            size = self.ctx.pixels_to_inches(10)
            self._handle = QGraphicsEllipseItem(QRectF(-size / 2, -size / 2, size, size))
            self._handle.setBrush(QBrush(QColor(255, 200, 40)))
            self._handle.setPen(QPen(QColor(90, 60, 0), 0))
            self._handle.setToolTip("Drag to turn the figure (facing)")
            self._handle_line = QGraphicsLineItem()
            line_pen = QPen(QColor(255, 200, 40), 0)
            line_pen.setCosmetic(True)
            line_pen.setWidthF(1.5)
            self._handle_line.setPen(line_pen)
            for item in (self._handle_line, self._handle):
                item.setZValue(PREVIEW_Z - 0.5)
                item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.ctx.scene.addItem(item)
        tip = self._handle_point(figure)
        self._handle.setPos(tip)
        self._handle_line.setLine(figure.x, figure.y, tip.x(), tip.y())

    def _on_handle(self, pos: QPointF) -> Figure | None:
        figure = self._handle_figure()
        if figure is None or self._handle is None:
            return None
        tip = self._handle_point(figure)
        reach = self.ctx.pixels_to_inches(8)
        return figure if math.dist((tip.x(), tip.y()), (pos.x(), pos.y())) <= reach else None

    def _turn_to(self, pos: QPointF, event: QMouseEvent) -> None:
        assert self._turning is not None
        figure = self.ctx.document.battlefield.figure(self._turning[0])
        facing = math.degrees(math.atan2(pos.x() - figure.x, figure.y - pos.y())) % 360
        if self.ctx.snapping.enabled and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            facing = (round(facing / ROTATE_STEP) * ROTATE_STEP) % 360
        self.ctx.document.battlefield.move_figure(figure.id, figure.x, figure.y, facing)
        self._place_handle()

    # -- gestures ----------------------------------------------------------

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        turning = self._on_handle(pos)
        if turning is not None:
            self._turning = (turning.id, turning.facing)
            return True
        doc = self.ctx.document
        hit = pick(self.ctx, pos)
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        selection = doc.selection
        if hit is None:
            if not shift:
                doc.set_selection([])
            self._band = QGraphicsRectItem(QRectF(pos, pos))
            self._band.setPen(QPen(QColor(40, 120, 220), 0))
            self._band.setBrush(QBrush(QColor(40, 120, 220, 40)))
            self.add_preview(self._band)
        elif shift:
            doc.set_selection(
                [i for i in selection if i != hit] if hit in selection else [*selection, hit]
            )
        elif hit not in selection:
            doc.set_selection([hit])
        self._start = pos
        self._dragging = False
        self._turn = 0.0
        bf = doc.battlefield
        self._origin = {
            fid: (bf.figure(fid).x, bf.figure(fid).y, bf.figure(fid).facing)
            for fid in self._selected_figures()
        }
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._turning is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._turn_to(pos, event)
            return True
        if self._start is None or not (event.buttons() & Qt.MouseButton.LeftButton):
            return False
        if self._band is not None:
            self._band.setRect(QRectF(self._start, pos).normalized())
            return True
        delta = self._delta(pos)
        if not self._dragging and math.hypot(delta.x(), delta.y()) < self.ctx.pixels_to_inches(3):
            return True
        self._dragging = True
        self._preview(delta)
        return True

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() == Qt.MouseButton.LeftButton and self._turning is not None:
            self._turn_to(pos, event)
            fid, before = self._turning
            self._turning = None
            figure = self.ctx.document.battlefield.figure(fid)
            after = figure.facing
            if after != before:
                doc = self.ctx.document
                doc.battlefield.move_figure(fid, figure.x, figure.y, before)
                moves = {fid: ((figure.x, figure.y, before), (figure.x, figure.y, after))}
                text = f"Rotate {self._names([fid])}"
                doc.undo_stack.push(MoveItemsCommand(doc, figure_moves=moves, text=text))
            return True
        if event.button() != Qt.MouseButton.LeftButton or self._start is None:
            return False
        if self._band is not None:
            self._select_band(QRectF(self._start, pos).normalized(), event)
        elif self._dragging or self._turn:
            self._commit(self._delta(pos))
        self._finish()
        return True

    def wheel(self, event: QWheelEvent) -> bool:
        if self._start is None or self._band is not None:
            return False
        steps = event.angleDelta().y() / 120
        if not steps or not self._selected_figures():
            return False
        self._turn = (self._turn + steps * ROTATE_STEP) % 360
        self._dragging = True
        pointer = self.ctx.view.mapToScene(event.position().toPoint())
        self._preview(self._delta(pointer))
        return True

    def cancel(self) -> None:
        if self._turning is not None:
            fid, before = self._turning
            self._turning = None
            figure = self.ctx.document.battlefield.figure(fid)
            self.ctx.document.battlefield.move_figure(fid, figure.x, figure.y, before)
        if self._start is not None:
            self._preview(QPointF(0, 0), turn=0.0)
        self._finish()
        super().cancel()

    def key(self, event: QKeyEvent) -> bool:
        doc = self.ctx.document
        if not doc.selection:
            return False
        k = event.key()
        if k in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            doc.undo_stack.push(RemoveItemsCommand(doc, doc.selection))
            return True
        if k == Qt.Key.Key_R:
            sign = -1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            self.rotate_selection(sign * ROTATE_STEP)
            return True
        arrows = {
            Qt.Key.Key_Left: (-1, 0),
            Qt.Key.Key_Right: (1, 0),
            Qt.Key.Key_Up: (0, -1),
            Qt.Key.Key_Down: (0, 1),
        }
        if k in arrows:
            step = NUDGE / 10 if event.modifiers() & Qt.KeyboardModifier.AltModifier else NUDGE
            dx, dy = arrows[Qt.Key(k)]
            ids = self._selected_features() + self._selected_figures()
            doc.undo_stack.push(
                NudgeCommand(doc, ids, dx * step, dy * step, f"Nudge {self._names(ids)}")
            )
            return True
        return False

    # -- actions -------------------------------------------------------------

    def rotate_selection(self, degrees: float) -> None:
        """Turn selected figures (facing) and features (about their centre) as one step."""
        doc = self.ctx.document
        bf = doc.battlefield
        features = self._selected_features()
        figures = self._selected_figures()
        if not features and not figures:
            return
        doc.undo_stack.beginMacro(f"Rotate {self._names(features + figures)}")
        for fid in features:
            doc.undo_stack.push(
                ChangeFeatureCommand(doc, fid, rotated(bf.feature(fid), degrees), "Rotate")
            )
        if figures:
            moves = {}
            for fid in figures:
                f = bf.figure(fid)
                moves[fid] = ((f.x, f.y, f.facing), (f.x, f.y, (f.facing + degrees) % 360))
            doc.undo_stack.push(MoveItemsCommand(doc, figure_moves=moves, text="Rotate"))
        doc.undo_stack.endMacro()

    # -- internals -------------------------------------------------------------

    def _names(self, ids: list[str]) -> str:
        """What a history entry calls the items: "Sgt. Mace", "Woods", "3 Items"."""
        bf = self.ctx.document.battlefield
        if len(ids) != 1:
            return f"{len(ids)} Items"
        try:
            feature = bf.feature(ids[0])
        except ModelError:
            figure = bf.figure(ids[0])
            return figure.name or figure.id
        return feature.name or feature.kind.label

    def _selected_features(self) -> list[str]:
        ids = {f.id for f in self.ctx.document.battlefield.terrain}
        return [i for i in self.ctx.document.selection if i in ids]

    def _selected_figures(self) -> list[str]:
        ids = {f.id for f in self.ctx.document.battlefield.figures()}
        return [i for i in self.ctx.document.selection if i in ids]

    def _delta(self, pos: QPointF) -> QPointF:
        assert self._start is not None
        if not self.ctx.snapping.enabled or not self.ctx.snapping.grid:
            return pos - self._start
        # Move by whole grid steps so aligned terrain stays aligned.
        step = self.ctx.snapping.grid_step
        d = pos - self._start
        return QPointF(round(d.x() / step) * step, round(d.y() / step) * step)

    def _preview(self, delta: QPointF, turn: float | None = None) -> None:
        """Terrain follows the pointer as an item offset; figures move in the model.

        Figures go through the model while dragging so that the sight lines and
        cohesion links (which the core computes from the model) follow them live;
        the undo command on release records the whole move as one step.
        """
        turn = self._turn if turn is None else turn
        scene = self.ctx.scene
        bf = self.ctx.document.battlefield
        for fid in self._selected_features():
            item = scene.feature_item(fid)
            if item is not None:
                item.setPos(delta)
        for fid, (x, y, facing) in self._origin.items():
            bf.move_figure(fid, x + delta.x(), y + delta.y(), (facing + turn) % 360)

    def _commit(self, delta: QPointF, text: str | None = None) -> None:
        doc = self.ctx.document
        bf = doc.battlefield
        dx, dy = delta.x(), delta.y()
        offsets = {fid: (dx, dy) for fid in self._selected_features()} if (dx or dy) else {}
        origin = self._origin or {
            fid: (bf.figure(fid).x, bf.figure(fid).y, bf.figure(fid).facing)
            for fid in self._selected_figures()
        }
        moves = {}
        for fid, (x, y, facing) in origin.items():
            new = (x + dx, y + dy, (facing + self._turn) % 360)
            if new != (x, y, facing):
                moves[fid] = ((x, y, facing), new)
        self._preview(QPointF(0, 0), turn=0.0)
        if offsets or moves:
            doc.undo_stack.push(MoveItemsCommand(doc, offsets, moves, text=text))

    def _select_band(self, rect: QRectF, event: QMouseEvent) -> None:
        doc = self.ctx.document
        bf = doc.battlefield
        area = box(rect.left(), rect.top(), rect.right(), rect.bottom())
        if area.area < 1e-6:
            return
        hits = [f.id for f in bf.terrain if area.contains(f.outline)]
        hits += [f.id for f in bf.figures() if area.contains(Point(f.x, f.y))]
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            hits = [*doc.selection, *hits]
        doc.set_selection(hits)

    def _finish(self) -> None:
        self._origin = {}
        self._start = None
        self._dragging = False
        self._turn = 0.0
        if self._band is not None:
            self.clear_previews()
            self._band = None
