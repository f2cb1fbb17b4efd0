"""Shift-drag of a Leader: the whole group moves, keeping its formation where it can.

Every member is dragged by the same offset.  While dragging, the controller
previews the members' moves in turn (:meth:`crdesk.game.Game.preview_all`): a
green line for a member that gets there, orange with a marker for the one an
In Sight would stop, red for one that cannot go (its reason in the label),
grey for those the interrupt would leave standing.  On release each member's
move is sent through the controller in the same order -- the member furthest
ahead first, so nobody stands in the way of the one behind; a member whose own
spot is refused goes as far along its own line as is legal, or stays with the
reason; and sending stops as soon as the awaited decision changes (an In Sight
interrupts the group, 7.6), which the status bar says.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from crdesk.game.actions import Move
from crdesk.game.preview import Preview
from ui.play.move_tool import BAD_COLOUR, OK_COLOUR, STOP_COLOUR, CostLabel, MoveTool, StopMarker
from ui.play.text import figure_names
from ui.scene.layers import Layer

GROUP_REST_MS = 60
"""The members' moves are previewed when the pointer rests this long (and at the first
step of the drag): a preview of every member costs a few frames' time on a dense table,
so it is not asked at every mouse move; the lines keep their last colours meanwhile."""
IDLE_COLOUR = QColor(120, 120, 120)
FALLBACK_STEPS = 10
"""A refused member tries 9/10, 8/10, ... of its way before it stays."""

Point = tuple[float, float]


class GroupDrag:
    """One Shift-drag of the Leader ``leader``: the members' pictures, lines and sends."""

    def __init__(self, tool: MoveTool, leader: str) -> None:
        self.tool = tool
        self.leader = leader
        bf = tool.session.game.battlefield
        self.members = [f for f in tool.movable() if bf.figure(f).status.can_act]
        self.origins: dict[str, Point] = {f: (bf.figure(f).x, bf.figure(f).y) for f in self.members}
        self.lines: dict[str, QGraphicsLineItem] = {}
        self.marker: StopMarker | None = None
        self.label: CostLabel | None = None
        self.previews: dict[str, Preview] = {}
        """The last preview of each member's move (by figure id)."""
        self._shift: Point = (0.0, 0.0)
        self._previewed: Point | None = None
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(GROUP_REST_MS)
        self._timer.timeout.connect(self._rested)

    def fresh(self) -> bool:
        """Whether the preview is of the drag's offset now (the pointer has rested)."""
        return self._previewed == self._shift

    # -- while dragging --------------------------------------------------------------

    def order(self, dx: float, dy: float) -> list[str]:
        """Front first along the drag (the Leader first among equals)."""
        lx, ly = self.origins[self.leader]

        def ahead(fid: str) -> tuple[float, int]:
            x, y = self.origins[fid]
            return (-((x - lx) * dx + (y - ly) * dy), 0 if fid == self.leader else 1)

        return sorted(self.members, key=ahead)

    def target(self, fid: str, dx: float, dy: float) -> Point:
        x, y = self.origins[fid]
        return (round(x + dx, 2), round(y + dy, 2))

    def moved(self, dx: float, dy: float) -> None:
        """Pictures follow the pointer; the controller's preview is asked per grid step."""
        tool = self.tool
        for fid in self.members:
            x, y = self.origins[fid]
            item = tool.scene.figure_item(fid)
            if item is not None:
                item.setPos(QPointF(x + dx, y + dy))
            ring = tool._rings.get(fid)
            if ring is not None:
                ring.setPos(QPointF(x + dx, y + dy))
        self._shift = (dx, dy)
        if self._previewed is None:
            self._preview(dx, dy)
        else:
            self._timer.start()
        self._draw(dx, dy)

    def _rested(self) -> None:
        if self.tool.group is self:
            self._preview(*self._shift)
            self._draw(*self._shift)

    def _preview(self, dx: float, dy: float) -> None:
        order = self.order(dx, dy)
        moves = [Move(f, (self.target(f, dx, dy),)) for f in order]
        chain = self.tool.session.game.preview_all(moves, skip_refused=True)
        self.previews = {p.action.who or "": p for p in chain}
        self._previewed = (dx, dy)

    def _draw(self, dx: float, dy: float) -> None:
        tool = self.tool
        names = figure_names(tool.session.game)
        stop: tuple[str, Preview] | None = None
        refused: list[str] = []
        for fid in self.members:
            x, y = self.origins[fid]
            line = self.lines.get(fid)
            if line is None:
                line = QGraphicsLineItem()
                line.setZValue(Layer.TOOLS)
                line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                tool.scene.addItem(line)
                self.lines[fid] = line
            p = self.previews.get(fid)
            end = (x + dx, y + dy)
            if p is None:
                colour, style = IDLE_COLOUR, Qt.PenStyle.DotLine
            elif not p.legal:
                colour, style = BAD_COLOUR, Qt.PenStyle.DashLine
                refused.append(f"{names(fid)}: {p.reason}")
            elif p.stopped is not None:
                colour, style = STOP_COLOUR, Qt.PenStyle.SolidLine
                end = p.end or end
                stop = (fid, p)
            else:
                colour, style = OK_COLOUR, Qt.PenStyle.SolidLine
            pen = QPen(colour, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            pen.setStyle(style)
            line.setPen(pen)
            line.setLine(QLineF(x, y, end[0], end[1]))
        if stop is not None and stop[1].end is not None:
            if self.marker is None:
                self.marker = StopMarker()
                tool.scene.addItem(self.marker)
            self.marker.setPos(QPointF(*stop[1].end))
            self.marker.show()
        elif self.marker is not None:
            self.marker.hide()
        if self.label is None:
            self.label = CostLabel()
            self.label.setZValue(Layer.TOOLS + 1)
            tool.scene.addItem(self.label)
        going = sum(1 for p in self.previews.values() if p.legal)
        count = len(self.members)
        lines = [
            f"Group of {count}: "
            + ("all get there" if going == count and stop is None else f"{going} of {count} move")
        ]
        if stop is not None:
            lines.append(f"{names(stop[0])} stops: {stop[1].stopped}")
        lines.extend(refused[:3])
        self.label.setText("\n".join(lines))
        self.label.setBrush(STOP_COLOUR if stop else BAD_COLOUR if refused else OK_COLOUR)
        lx, ly = self.origins[self.leader]
        self.label.setPos(QPointF(lx + dx + 0.6, ly + dy - 0.9))

    def clear(self) -> None:
        self._timer.stop()
        for item in [*self.lines.values(), self.marker, self.label]:
            if item is not None and item.scene() is not None:
                item.scene().removeItem(item)
        self.lines = {}
        self.marker = None
        self.label = None
        for fid in self.members:
            self.tool._snap(fid)

    # -- the drop --------------------------------------------------------------------

    def release(self, dx: float, dy: float) -> str:
        """Send the members' moves in turn; returns what the status bar says."""
        session = self.tool.session
        names = figure_names(session.game)
        decision = session.awaiting()
        kind = decision.kind if decision is not None else None
        moved: list[str] = []
        stayed: list[str] = []
        order = self.order(dx, dy)
        stop_note = ""
        for n, fid in enumerate(order):
            move = Move(fid, (self.target(fid, dx, dy),))
            reason = session.legal(move)
            short = False
            if reason is not None:
                near = self._nearer(fid, dx, dy)
                if near is None:
                    stayed.append(f"{names(fid)} stays: {reason}")
                    continue
                move, short = near, True
            why = session.play(move)
            if why is not None:
                stayed.append(f"{names(fid)} stays: {why}")
                continue
            moved.append(names(fid) + (" (part way)" if short else ""))
            after = session.awaiting()
            if after is None or after.kind != kind:
                rest = [names(f) for f in order[n + 1 :]]
                event = next((e for e in reversed(session.game.events) if e.kind == "move"), None)
                what = event.text if event is not None else "the game moved on"
                stop_note = f" {what} The group stops there" + (
                    f": {', '.join(rest)} did not move." if rest else "."
                )
                break
        self.tool.last_group = (moved, stayed)
        text = f"Group move: {len(moved)} of {len(order)} moved"
        short = [m for m in moved if m.endswith("(part way)")]
        if short:
            text += " (" + ", ".join(short) + ")"
        if stayed:
            text += "; " + "; ".join(stayed)
        return text + "." + stop_note

    def _nearer(self, fid: str, dx: float, dy: float) -> Move | None:
        """The furthest legal spot on ``fid``'s own line short of its formation spot."""
        x, y = self.origins[fid]
        legal = self.tool.session.legal
        for k in range(FALLBACK_STEPS - 1, 0, -1):
            t = k / FALLBACK_STEPS
            spot = (round(x + dx * t, 2), round(y + dy * t, 2))
            if math.dist(spot, (x, y)) < 0.05:
                break
            move = Move(fid, (spot,))
            if legal(move) is None:
                return move
        return None
