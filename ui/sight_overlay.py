"""Sight lines and cohesion links of the focused figure, redrawn as it is dragged.

The overlay asks the core's :class:`~crdesk.visibility.VisibilityService` for
one row per move (the focused figure against all others, with its cohesion
links); it computes no rules itself.  Lines are batched into one path item per colour with opaque
cosmetic pens: a hundred semi-transparent single lines cost several times more
to paint on every drag frame.

The service's terrain index (the sight raster) is rebuilt when the terrain
changes.  On an ordinary table that takes milliseconds and happens on the spot;
on a huge one (:func:`index_is_heavy`: seconds, hundreds of MB) it is built in
a worker thread from a copy of the battlefield, rapid edits coalesced into one
build, while the lines drawn last stay up with an "updating" hint (issue 17:
an edit must not block the window).
"""

from __future__ import annotations

import math

import shapely
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsSimpleTextItem

from crdesk.events import Change, ChangeKind
from crdesk.geometry import TerrainIndex, build_index
from crdesk.model import Battlefield, Figure
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from ui.document import Document
from ui.progress import Progress, Worker, keep_until_finished
from ui.scene.scene import BattlefieldScene

OVERLAY_Z = 5_000.0
"""Above terrain and figures' bases, below tool previews and the selection outline."""

COLOURS = {
    "clear": QColor(40, 170, 70),
    "concealed": QColor(225, 165, 0),
    "cover": QColor(40, 110, 225),
    "blocked": QColor(205, 50, 50),
    "link": QColor(255, 255, 255),
}

ARC_RADIUS = 4.0
"""Inches the front-arc wedge reaches out: a hint of the 180° front, not a range."""
FRONT = QColor(255, 190, 0)

HEAVY_CELLS = 4_000_000
"""Sight raster cells (of 0.1", over the table and its blocking terrain) above which
the index is built in a worker: a 200" x 200" table, some 0.4 s of building."""
HEAVY_POINTS = 20_000
"""Outline points above which the index is built in a worker (GEOS buffers each one)."""
REBUILD_MS = 150
"""Edits coming faster than this (a drag's steps, undo pressed repeatedly) are one build."""


def index_is_heavy(battlefield: Battlefield) -> bool:
    """Whether building the terrain index for sight would keep the GUI thread busy
    for more than a fraction of a second (a table far above real use)."""
    table = battlefield.table
    minx, miny, maxx, maxy = 0.0, 0.0, table.width, table.height
    terrain = battlefield.terrain
    if terrain:
        outlines = [f.outline for f in terrain]
        b = shapely.total_bounds(outlines)
        minx, miny = min(minx, float(b[0])), min(miny, float(b[1]))
        maxx, maxy = max(maxx, float(b[2])), max(maxy, float(b[3]))
        if int(shapely.get_num_coordinates(outlines).sum()) > HEAVY_POINTS:
            return True
    return (maxx - minx) * (maxy - miny) * 100 > HEAVY_CELLS


def build_sight_index(battlefield: Battlefield, rules: RulesOptions) -> TerrainIndex:
    """The terrain index for sight, warmed (the kernels' terrain arrays made by a first
    row): seconds on a huge table, for a worker thread.  ``battlefield`` must not
    change meanwhile: a copy (:meth:`~crdesk.model.Battlefield.copy`), or a
    scenario not shown yet."""
    index = build_index(battlefield, rules)
    ids = battlefield.figure_ids()
    if len(ids) > 1:
        warm = VisibilityService(battlefield, rules, index=index)
        try:
            warm.row(ids[0])
        finally:
            warm.close()
    return index


def _item(
    colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    pen = QPen(colour)
    pen.setCosmetic(True)
    pen.setWidthF(width)
    pen.setStyle(style)
    item.setPen(pen)
    item.setZValue(OVERLAY_Z)
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    return item


class SightOverlay(QObject):
    """Draws what the one selected figure sees, and its links to its group."""

    index_ready = Signal()
    """A terrain index built in the worker is in use (the lines are current again)."""

    def __init__(
        self, document: Document, scene: BattlefieldScene, index: TerrainIndex | None = None
    ) -> None:
        """``index``: the terrain index already built for this document's terrain and
        rules (by the worker that opened the file)."""
        super().__init__(scene)
        self.document = document
        self.scene = scene
        self.service = VisibilityService(document.battlefield, document.scenario.rules, index=index)
        self._ready = (
            (index.terrain_revision, document.scenario.rules) if index is not None else None
        )
        """(terrain revision, rules) of the index handed to the service, if one was."""
        self.heavy = index_is_heavy(document.battlefield)
        """Rebuild the index in a worker (decided once per document; a huge table stays huge)."""
        self._worker: Worker | None = None
        self._building_rules: RulesOptions | None = None
        self._failed: tuple[int, RulesOptions] | None = None
        """The terrain and rules whose build failed (not tried again until an edit)."""
        self._rebuild = QTimer(self)
        self._rebuild.setSingleShot(True)
        self._rebuild.setInterval(REBUILD_MS)
        self._rebuild.timeout.connect(self._start_build)
        self.builds = 0
        """Indexes built in the worker (tests, benchmarks)."""
        self.hint = QGraphicsSimpleTextItem("Updating line of sight…")
        font = QFont()
        font.setPointSizeF(9)
        font.setBold(True)
        self.hint.setFont(font)
        self.hint.setBrush(QBrush(QColor(255, 255, 255)))
        self.hint.setPen(QPen(QColor(0, 0, 0, 200), 0))
        self.hint.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.hint.setZValue(OVERLAY_Z + 2)
        self.hint.setVisible(False)
        scene.addItem(self.hint)
        if self.stale():
            self.schedule_build(at_once=True)
        self.items = {
            "blocked": _item(COLOURS["blocked"], 1.0, Qt.PenStyle.DotLine),
            "clear": _item(COLOURS["clear"], 2.0),
            "concealed": _item(COLOURS["concealed"], 2.0),
            "cover": _item(COLOURS["cover"], 2.0),
            "link": _item(COLOURS["link"], 2.5, Qt.PenStyle.DashLine),
        }
        # the selected figure's front (LOS is to the front only, 7.9.4; its 180°
        # half plane, 1) and a facing arrow big enough to read at any zoom
        self.arc = _item(FRONT, 1.0, Qt.PenStyle.DashLine)
        fill = QColor(FRONT)
        fill.setAlpha(28)
        self.arc.setBrush(QBrush(fill))
        self.arc.setZValue(OVERLAY_Z - 1)
        self.arrow = _item(FRONT.darker(160), 1.0)
        self.arrow.setBrush(QBrush(FRONT))
        self.arrow.setZValue(OVERLAY_Z + 1)
        for item in (*self.items.values(), self.arc, self.arrow):
            scene.addItem(item)
        self.enabled = True
        self.focus: str | None = None
        self.counts: dict[str, int] = {}
        document.selection_changed.connect(self.refresh)
        document.model_changed.connect(self._on_change)

    def close(self) -> None:
        self._rebuild.stop()
        if self._worker is not None:  # its result is dropped; the thread ends on its own
            self._worker.finished.disconnect(self._built)
            keep_until_finished(self._worker)
            self._worker = None
        self.service.close()
        self.document.selection_changed.disconnect(self.refresh)
        self.document.model_changed.disconnect(self._on_change)
        for item in (*self.items.values(), self.arc, self.arrow, self.hint):
            if item.scene() is not None:
                item.scene().removeItem(item)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        self.refresh()

    # -- the terrain index -------------------------------------------------------

    def stale(self) -> bool:
        """The service's index is not of the present terrain and rules (a heavy table
        whose build is scheduled or running); the lines shown are the last ones."""
        if not self.heavy:
            return False
        return self._ready != self._want()

    def _want(self) -> tuple[int, RulesOptions]:
        return (self.document.battlefield.terrain_revision, self.document.scenario.rules)

    def pending(self) -> bool:
        """A build is scheduled or running (benchmarks, tests)."""
        return self._rebuild.isActive() or self._worker is not None or self.stale()

    def schedule_build(self, at_once: bool = False) -> None:
        """Build the index for the present terrain in the worker, soon (edits within
        :data:`REBUILD_MS` of each other make one build)."""
        if not self.stale() or self._failed == self._want():
            return
        if self._worker is not None:
            return  # the running build's end starts the next one
        self._rebuild.start(0 if at_once else REBUILD_MS)

    def _start_build(self) -> None:
        if self._worker is not None or not self.stale():
            return
        bf, rules = self.document.battlefield, self.document.scenario.rules
        twin = bf.copy()  # the worker's own: edits meanwhile copy the features they change
        self._building_rules = rules
        self._worker = Worker(lambda _p: build_sight_index(twin, rules), Progress())
        self._worker.terrain_revision = twin.terrain_revision  # type: ignore[attr-defined]
        self._worker.finished.connect(self._built)
        self._worker.start()
        self._show_hint()

    @Slot()
    def _built(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.wait()
        index = worker.result
        if worker.error is not None:  # e.g. out of memory: say so, do not loop
            self._failed = (worker.terrain_revision, self._building_rules)  # type: ignore[assignment]
            self.hint.setText(f"Line of sight unavailable: {worker.error}")
        bf, rules = self.document.battlefield, self.document.scenario.rules
        if (
            isinstance(index, TerrainIndex)
            and index.terrain_revision == bf.terrain_revision
            and rules == self._building_rules
        ):
            self.service.close()
            self.service = VisibilityService(bf, rules, index=index)
            self._ready = (index.terrain_revision, rules)
            self.builds += 1
        if self.stale():
            self.schedule_build(at_once=True)  # edits came meanwhile: once more
        else:
            self.refresh()
            self.index_ready.emit()

    def _show_hint(self) -> None:
        if self._failed != self._want():
            self.hint.setText("Updating line of sight…")
        stale = self.stale() and self.focus is not None
        if stale and self.focus is not None:
            me = self.document.battlefield.figure(self.focus)
            # centred above the base, in screen pixels at any zoom
            box = self.hint.boundingRect()
            self.hint.setTransform(QTransform.fromTranslate(-box.width() / 2, -box.height() - 18))
            self.hint.setPos(me.x, me.y)
        self.hint.setVisible(stale)

    def _on_change(self, change: Change) -> None:
        terrain = change.what in ("feature", "battlefield") or (
            change.kind is ChangeKind.RESET and change.what != "figures"
        )
        if terrain and self.stale():
            self.schedule_build()
        if change.what != "force" and (self.focus is not None or change.what == "battlefield"):
            self.refresh()

    def _focused_figure(self) -> str | None:
        figures = {f.id for f in self.document.battlefield.figures()}
        chosen = [i for i in self.document.selection if i in figures]
        return chosen[0] if len(chosen) == 1 else None

    def refresh(self) -> None:
        """Redraw for the current model and selection."""
        self.focus = self._focused_figure() if self.enabled else None
        paths = {key: QPainterPath() for key in self.items}
        self.counts = dict.fromkeys(self.items, 0)
        arc, arrow = QPainterPath(), QPainterPath()
        if self.focus is not None:
            me = self.document.battlefield.figure(self.focus)
            arc, arrow = _front(me.x, me.y, me.radius, me.facing)
            if self.stale():
                # the index is being built in the worker: keep the lines drawn last
                # (asking the service now would build it here, seconds on this table)
                self.schedule_build()
                self.arc.setPath(arc)
                self.arrow.setPath(arrow)
                self._show_hint()
                return
            # a figure Out of the Fight or dead sees nothing and links to no one (7.8)
            if me.status.can_act:
                self._draw(self.focus, paths)
        self.hint.setVisible(False)
        for key, item in self.items.items():
            item.setPath(paths[key])
        self.arc.setPath(arc)
        self.arrow.setPath(arrow)

    def _draw(self, focus: str, paths: dict[str, QPainterPath]) -> None:
        bf = self.document.battlefield
        if self.service.rules != self.document.scenario.rules:
            self.service.set_rules(self.document.scenario.rules)
        # one row, not the whole matrix: while the figure is dragged only its own
        # pairs change, and the cohesion links come with the row (6.2)
        row = self.service.row(focus)
        figures = {f.id: f for f in bf.figures()}
        me = figures[focus]
        sees, cover = row.sees.tolist(), row.cover_from.tolist()
        concealed = row.concealed_from.tolist()
        for j, other_id in enumerate(row.ids):
            if other_id == focus:
                continue
            other = figures[other_id]
            if other.side == me.side or not other.status.can_act:
                continue
            if not sees[j]:
                key = "blocked"
            elif cover[j]:
                key = "cover"
            elif concealed[j]:
                key = "concealed"
            else:
                key = "clear"
            _line(paths[key], me, other)
            self.counts[key] += 1
        for neighbour in row.links:
            other = figures[neighbour]
            if not other.status.can_act:
                continue
            _line(paths["link"], me, other)
            self.counts["link"] += 1


def _line(path: QPainterPath, a: Figure, b: Figure) -> None:
    """From base edge to base edge: the line never covers a figure's Rep number."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    if length <= a.radius + b.radius:
        return
    ux, uy = dx / length, dy / length
    path.moveTo(a.x + ux * a.radius, a.y + uy * a.radius)
    path.lineTo(b.x - ux * b.radius, b.y - uy * b.radius)


def _front(x: float, y: float, r: float, facing: float) -> tuple[QPainterPath, QPainterPath]:
    """The front half-disc (180°, 1) and a facing arrow just outside the base.

    Facing 0 points at the far edge (-y), clockwise on the table.
    """
    arc = QPainterPath()
    rect = QRectF(x - ARC_RADIUS, y - ARC_RADIUS, 2 * ARC_RADIUS, 2 * ARC_RADIUS)
    # Qt's arc angles run counter-clockwise on screen from 3 o'clock; facing 0 is
    # 12 o'clock (Qt 90) and turns clockwise, so the front spans Qt -facing .. 180-facing
    arc.moveTo(x, y)
    arc.arcTo(rect, -facing, 180.0)
    arc.closeSubpath()
    rad = math.radians(facing)
    fx, fy = math.sin(rad), -math.cos(rad)
    sx, sy = -fy, fx
    base, tip, half = r * 1.05, r * 2.1, r * 0.55
    arrow = QPainterPath()
    arrow.moveTo(QPointF(x + fx * tip, y + fy * tip))
    arrow.lineTo(QPointF(x + fx * base + sx * half, y + fy * base + sy * half))
    arrow.lineTo(QPointF(x + fx * base - sx * half, y + fy * base - sy * half))
    arrow.closeSubpath()
    return arc, arrow
