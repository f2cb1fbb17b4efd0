"""Shift-drag of a Leader: the whole group moves, keeping its formation where it can.

The Leader goes where he is dropped and every member to its place in the formation.
The drop is planned once, by the core (:meth:`crdesk.game.Game.plan_group_move`, the
same plan ``move group LEADER to X,Y`` plays), and that one plan is both what the table
shows while dragging and what the release sends, so the two cannot disagree: the members
go in turn, each by its own route; one whose place is refused goes to the nearest legal
place within 4" of another member (or as far as it gets), or stays with the reason; and
the group stops after the member whose move an In Sight (or a test's dice) interrupts,
7.6.  The label lists one line per member, in the plan's own words.

While dragging, each member's picture stands where the drop would put it: a
green line to a spot it gets to, green then dashed red past the point a member
that goes part way stops at, orange with a marker for the one an In Sight
would stop, red (the picture left in place) for one that cannot go, and grey
(left in place) for those the interrupt would leave standing.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsPathItem

from crdesk.errors import IllegalActionError
from crdesk.game.group_moves import GroupMovePlan
from crdesk.game.preview import Preview
from crdesk.geometry.measure import walked_to
from ui.play.move_tool import BAD_COLOUR, OK_COLOUR, STOP_COLOUR, CostLabel, MoveTool, StopMarker
from ui.play.text import figure_names
from ui.scene.layers import Layer

GROUP_REST_MS = 60
"""The members' moves are previewed when the pointer rests this long (and at the first
step of the drag): a preview of every member costs a few frames' time on a dense table,
so it is not asked at every mouse move; the pictures keep their last outcome meanwhile."""
IDLE_COLOUR = QColor(120, 120, 120)
LABEL_LINES = 7
"""Lines of the drag's label at most: the head and one per member."""

Point = tuple[float, float]


def _walked(start: Point, path: tuple[Point, ...] | list[Point], end: Point) -> list[Point]:
    """The corners of a member's way from ``start`` to where it ends (``end``, on its
    path: cut there, as a move an In Sight stops is), straight when it has no path."""
    return walked_to([start, *path], end)


class GroupDrag:
    """One Shift-drag of the Leader ``leader``: the members' pictures, lines and sends."""

    def __init__(self, tool: MoveTool, leader: str) -> None:
        self.tool = tool
        self.leader = leader
        bf = tool.session.game.battlefield
        self.members = [f for f in tool.movable() if bf.figure(f).status.can_act]
        self.origins: dict[str, Point] = {f: (bf.figure(f).x, bf.figure(f).y) for f in self.members}
        self.lines: dict[str, QGraphicsPathItem] = {}
        """Each member's way as the plan has it (its route, to where it ends)."""
        self.rest_lines: dict[str, QGraphicsLineItem] = {}
        """For a member going part way: the dashed red rest of its way, not walked."""
        self.marker: StopMarker | None = None
        self.label: CostLabel | None = None
        self.plan: GroupMovePlan | None = None
        """The drop as planned for the last offset previewed (what the release sends)."""
        self.previews: dict[str, Preview] = {}
        """The last preview of each member's planned move (by figure id; the members
        the group would not reach are not in it)."""
        self._shift: Point = (0.0, 0.0)
        self._previewed: tuple[Point, int] | None = None
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(GROUP_REST_MS)
        self._timer.timeout.connect(self._rested)

    def fresh(self) -> bool:
        """Whether the plan is of the drag's offset now (the pointer has rested)."""
        return self._previewed == (self._shift, self._position())

    def _position(self) -> int:
        return len(self.tool.session.game.history)

    # -- while dragging --------------------------------------------------------------

    def moved(self, dx: float, dy: float) -> None:
        """Pictures follow the pointer as the last plan has them; the plan is made again
        when the pointer rests."""
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

    def planned(self, dx: float, dy: float) -> GroupMovePlan:
        """The drop for offset (dx, dy): the last plan if it is of this offset, else anew."""
        if self.plan is None or self._previewed != ((dx, dy), self._position()):
            self._preview(dx, dy)
        assert self.plan is not None
        return self.plan

    def _preview(self, dx: float, dy: float) -> None:
        lx, ly = self.origins[self.leader]
        goal = (round(lx + dx, 2), round(ly + dy, 2))
        game = self.tool.session.game
        try:  # the core's plan: the same one `move group` plays (issue 31, Deliver 4)
            self.plan = game.plan_group_move(self.leader, goal)
        except IllegalActionError as exc:
            self.plan = GroupMovePlan(self.leader, goal)
            self.tool.show_message(f"The group cannot move: {exc}")
        self.previews = {
            m.figure: m.preview
            for m in self.plan.members
            if m.move is not None and m.preview is not None
        }
        self._previewed = ((dx, dy), self._position())

    def end_of(self, fid: str, dx: float, dy: float) -> Point:
        """Where the member's picture stands for offset (dx, dy), as the plan has it (a plan
        of another offset is scaled: the pointer has not rested yet)."""
        x, y = self.origins[fid]
        entry = self.plan.by_figure().get(fid) if self.plan is not None else None
        if entry is None:
            if self.plan is not None and fid in self.plan.waiting:
                return (x, y)  # the group stops before it
            return (x + dx, y + dy)
        if entry.move is None:
            return (x, y)
        if self.fresh() or entry.why is not None or entry is self.plan.stopper:
            return entry.end or (x, y)
        return (x + dx, y + dy)  # to its place: the picture follows the pointer

    def _way(self, fid: str) -> QGraphicsPathItem:
        way = self.lines.get(fid)
        if way is None:
            way = QGraphicsPathItem()
            way.setZValue(Layer.TOOLS)
            way.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.tool.scene.addItem(way)
            self.lines[fid] = way
        return way

    def _line(self, store: dict[str, QGraphicsLineItem], fid: str) -> QGraphicsLineItem:
        line = store.get(fid)
        if line is None:
            line = QGraphicsLineItem()
            line.setZValue(Layer.TOOLS)
            line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.tool.scene.addItem(line)
            store[fid] = line
        return line

    def _draw(self, dx: float, dy: float) -> None:
        tool = self.tool
        names = figure_names(tool.session.game)
        plan = self.plan
        entries = plan.by_figure() if plan is not None else {}
        stop = plan.stopper if plan is not None else None
        notes: list[str] = []
        for fid in self.members:
            x, y = self.origins[fid]
            end = self.end_of(fid, dx, dy)
            item = tool.scene.figure_item(fid)
            if item is not None:
                item.setPos(QPointF(*end))
            ring = tool._rings.get(fid)
            if ring is not None:
                ring.setPos(QPointF(*end))
            formation = (x + dx, y + dy)
            entry = entries.get(fid)
            rest: tuple[QColor, Point] | None = None
            if entry is None:
                colour, style, drawn_to = IDLE_COLOUR, Qt.PenStyle.DotLine, formation
            elif entry.stays:
                colour, style, drawn_to = BAD_COLOUR, Qt.PenStyle.DashLine, formation
            elif entry is stop:
                colour, style, drawn_to = STOP_COLOUR, Qt.PenStyle.SolidLine, end
            else:
                colour, style, drawn_to = OK_COLOUR, Qt.PenStyle.SolidLine, end
            if entry is not None and entry.part_way:
                rest = (BAD_COLOUR, formation)
            line = self._way(fid)
            pen = QPen(colour, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            pen.setStyle(style)
            line.setPen(pen)
            corners = _walked((x, y), entry.move.path if entry and entry.move else (), drawn_to)
            way = QPainterPath(QPointF(*corners[0]))
            for corner in corners[1:]:
                way.lineTo(QPointF(*corner))
            line.setPath(way)
            beyond = self.rest_lines.get(fid)
            if rest is not None:
                beyond = self._line(self.rest_lines, fid)
                dash = QPen(rest[0], 0)
                dash.setCosmetic(True)
                dash.setWidthF(1.5)
                dash.setStyle(Qt.PenStyle.DashLine)
                beyond.setPen(dash)
                beyond.setLine(QLineF(end[0], end[1], rest[1][0], rest[1][1]))
                beyond.show()
            elif beyond is not None:
                beyond.hide()
        if stop is not None and stop.end is not None:
            if self.marker is None:
                self.marker = StopMarker()
                tool.scene.addItem(self.marker)
            self.marker.setPos(QPointF(*stop.end))
            self.marker.show()
        elif self.marker is not None:
            self.marker.hide()
        if self.label is None:
            self.label = CostLabel()
            self.label.setZValue(Layer.TOOLS + 1)
            tool.scene.addItem(self.label)
        count = len(self.members)
        going = sum(1 for m in entries.values() if m.move is not None)
        whole = going == count and stop is None and not any(m.part_way for m in entries.values())
        lines = [f"Group of {count}: " + ("all get there" if whole else f"{going} of {count} move")]
        if plan is not None:  # one line per member, never two (the plan's own words)
            lines.extend(plan.lines(names)[: LABEL_LINES - 1])
        self.label.setText("\n".join(lines + notes))
        stays = any(m.stays for m in entries.values())
        self.label.setBrush(STOP_COLOUR if stop else BAD_COLOUR if stays else OK_COLOUR)
        self._place_label(dx, dy)

    def _place_label(self, dx: float, dy: float) -> None:
        """Above the group, from the Leader rightwards, so it hides none of the members
        it talks about; below them when there is no room above; always inside the view."""
        assert self.label is not None
        view = self.tool.view
        room = view.viewport().rect()
        box = self.label.boundingRect()
        ends = [self.end_of(f, dx, dy) for f in self.members]
        ends += [(x + dx, y + dy) for x, y in self.origins.values()]
        lx = self.end_of(self.leader, dx, dy)[0]
        top = view.mapFromScene(QPointF(lx, min(y for _x, y in ends) - 0.9))
        y = top.y() - box.height()
        if y < 6:
            y = view.mapFromScene(QPointF(lx, max(y for _x, y in ends) + 0.9)).y()
        x = min(top.x(), room.right() - box.width() - 6)
        y = min(y, room.bottom() - box.height() - 6)
        self.label.setPos(view.mapToScene(int(max(6, x)), int(max(6, y))))

    def clear(self) -> None:
        self._timer.stop()
        for item in [*self.lines.values(), *self.rest_lines.values(), self.marker, self.label]:
            if item is not None and item.scene() is not None:
                item.scene().removeItem(item)
        self.lines = {}
        self.rest_lines = {}
        self.marker = None
        self.label = None
        for fid in self.members:
            self.tool._snap(fid)

    # -- the drop --------------------------------------------------------------------

    def release(self, dx: float, dy: float) -> str:
        """Send the planned moves in turn; returns what the status bar says."""
        session = self.tool.session
        names = figure_names(session.game)
        plan = self.planned(dx, dy)
        decision = session.awaiting()
        kind = decision.kind if decision is not None else None
        moved: list[str] = []
        stayed: list[str] = []
        stop_note = ""
        sent_order = [m.figure for m in plan.members] + plan.waiting
        for n, entry in enumerate(plan.members):
            fid = entry.figure
            if entry.move is None:
                stayed.append(f"{names(fid)} stays: {entry.refused}")
                continue
            why = session.play(entry.move)
            if why is not None:  # the table changed under the plan (never in one drag)
                stayed.append(f"{names(fid)} stays: {why}")
                continue
            moved.append(names(fid) + (" (part way)" if entry.part_way else ""))
            after = session.awaiting()
            if entry is plan.stopper or after is None or after.kind != kind:
                rest = [names(f) for f in sent_order[n + 1 :]]
                event = next((e for e in reversed(session.game.events) if e.kind == "move"), None)
                what = event.text if event is not None else "the game moved on"
                stop_note = f" {what} The group stops there" + (
                    f": {', '.join(rest)} did not move." if rest else "."
                )
                break
        self.tool.last_group = (moved, stayed)
        text = f"Group move: {len(moved)} of {len(sent_order)} moved"
        short = [m for m in moved if m.endswith("(part way)")]
        if short:
            text += " (" + ", ".join(short) + ")"
        if stayed:
            text += "; " + "; ".join(stayed)
        return text + "." + stop_note
