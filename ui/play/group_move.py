"""Shift-drag of a Leader: the whole group moves, keeping its formation where it can.

Every member is dragged by the same offset.  The drop is planned once, by
:func:`plan_group_move`, and that one plan is both what the table shows while
dragging and what the release sends, so the two cannot disagree: the members
go in turn -- the member furthest ahead first, so nobody stands in the way of
the one behind; a member whose own formation spot is refused goes as far along
its own line as is legal (9/10, 8/10, ... of the way), or stays with the
reason; and the group stops after the member whose move an In Sight (or a
test's dice) interrupts, 7.6.  Each member's outcome is judged by the
controller's read-only :meth:`crdesk.game.Game.preview_all`, on top of the
moves planned for the members before it (a spot freed or taken by them counts).

While dragging, each member's picture stands where the drop would put it: a
green line to a spot it gets to, green then dashed red past the point a member
that goes part way stops at, orange with a marker for the one an In Sight
would stop, red (the picture left in place) for one that cannot go, and grey
(left in place) for those the interrupt would leave standing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QLineF, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from crdesk.game import Game
from crdesk.game.actions import Move
from crdesk.game.preview import Preview
from ui.play.move_tool import BAD_COLOUR, OK_COLOUR, STOP_COLOUR, CostLabel, MoveTool, StopMarker
from ui.play.text import figure_names
from ui.scene.layers import Layer

GROUP_REST_MS = 60
"""The members' moves are previewed when the pointer rests this long (and at the first
step of the drag): a preview of every member costs a few frames' time on a dense table,
so it is not asked at every mouse move; the pictures keep their last outcome meanwhile."""
IDLE_COLOUR = QColor(120, 120, 120)
FALLBACK_STEPS = 10
"""A refused member tries 9/10, 8/10, ... of its way before it stays."""
MIN_STEP = 0.05
"""A part-way spot closer than this to where the member stands is no move at all."""

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class MemberPlan:
    """What the drop does with one member: the move it sends, or why the member stays."""

    figure: str
    move: Move | None
    """The move sent (None: the member stays where it is)."""
    preview: Preview
    """The controller's preview of ``move`` (of the refused formation move if it stays)."""
    refused: str | None = None
    """Why the formation spot itself is refused (None: the member goes all the way)."""
    fraction: float = 1.0
    """How much of its way the member goes (1.0 all of it, 0.0 it stays)."""

    @property
    def part_way(self) -> bool:
        return self.move is not None and self.refused is not None

    @property
    def stays(self) -> bool:
        return self.move is None


@dataclass(slots=True)
class GroupPlan:
    """The whole drop: the members' outcomes in the order they are sent."""

    members: list[MemberPlan] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    """Members not sent at all: the group stops at an interrupt before their turn."""
    stopper: MemberPlan | None = None
    """The member whose move is interrupted (an In Sight, dice for a test), if any."""

    def by_figure(self) -> dict[str, MemberPlan]:
        return {m.figure: m for m in self.members}

    def moves(self) -> list[Move]:
        return [m.move for m in self.members if m.move is not None]


def _own(reason: str | None, name: str) -> str:
    """The controller's reason without the figure's name it starts with (the note has it)."""
    text = reason or "refused"
    return text[len(name) + 1 :] if text.startswith(name + " ") else text


def _interrupts(preview: Preview, kind: str | None) -> bool:
    """Whether the group cannot go on after this move (the same decision no longer awaits)."""
    return preview.needs_dice is not None or preview.next_frame != kind


def plan_group_move(
    game: Game, order: list[str], targets: dict[str, Point], origins: dict[str, Point]
) -> GroupPlan:
    """Judge each member's move in ``order`` on top of the ones planned before it.

    The first :meth:`~crdesk.game.Game.preview_all` tries every formation spot
    (a refused one is skipped, so the moves after it are judged as if it stayed);
    at the first refused member its part-way spots are tried on top of the moves
    before it, and the rest are judged again from there.  Nothing is played.
    """
    kind = game.frames[-1].kind if game.frames else None
    plan = GroupPlan()
    sent: list[Move] = []
    tail: list[Preview] = []  # the previews of the members still to plan, on top of sent
    judged = False
    i = 0
    while i < len(order):
        if not judged:
            rest = [Move(f, (targets[f],)) for f in order[i:]]
            tail = game.preview_all([*sent, *rest], skip_refused=True)[len(sent) :]
            judged = True
        if not tail:
            break  # (the controller stopped the list: nothing after an interrupt)
        p = tail.pop(0)
        fid = order[i]
        i += 1
        if p.legal:
            entry = MemberPlan(fid, Move(fid, (targets[fid],)), p)
        else:
            entry = _fallback(game, sent, fid, origins[fid], targets[fid], p)
            # staying changes nothing: the rest were judged as if it stayed; going
            # part way does, so the rest are judged again on top of it
            judged = entry.move is None
        plan.members.append(entry)
        if entry.move is None:
            continue
        sent.append(entry.move)
        if _interrupts(entry.preview, kind):
            plan.stopper = entry
            plan.waiting = order[i:]
            break
    return plan


def _fallback(
    game: Game, sent: list[Move], fid: str, origin: Point, target: Point, refused: Preview
) -> MemberPlan:
    """The furthest legal spot on ``fid``'s own line short of its formation spot."""
    x, y = origin
    dx, dy = target[0] - x, target[1] - y
    tries: list[tuple[float, Move]] = []
    for k in range(FALLBACK_STEPS - 1, 0, -1):
        t = k / FALLBACK_STEPS
        spot = (round(x + dx * t, 2), round(y + dy * t, 2))
        if math.dist(spot, origin) < MIN_STEP:
            break
        tries.append((t, Move(fid, (spot,))))
    reason = refused.reason or "refused"
    if tries:
        # a refused try changes nothing, so the first legal one is judged where it
        # would be played (what the controller lists after it is not used)
        chain = game.preview_all([*sent, *(m for _t, m in tries)], skip_refused=True)
        for (t, move), p in zip(tries, chain[len(sent) :], strict=False):
            if p.legal:
                return MemberPlan(fid, move, p, reason, t)
    return MemberPlan(fid, None, refused, reason, 0.0)


class GroupDrag:
    """One Shift-drag of the Leader ``leader``: the members' pictures, lines and sends."""

    def __init__(self, tool: MoveTool, leader: str) -> None:
        self.tool = tool
        self.leader = leader
        bf = tool.session.game.battlefield
        self.members = [f for f in tool.movable() if bf.figure(f).status.can_act]
        self.origins: dict[str, Point] = {f: (bf.figure(f).x, bf.figure(f).y) for f in self.members}
        self.lines: dict[str, QGraphicsLineItem] = {}
        self.rest_lines: dict[str, QGraphicsLineItem] = {}
        """For a member going part way: the dashed red rest of its way, not walked."""
        self.marker: StopMarker | None = None
        self.label: CostLabel | None = None
        self.plan: GroupPlan | None = None
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

    def planned(self, dx: float, dy: float) -> GroupPlan:
        """The drop for offset (dx, dy): the last plan if it is of this offset, else anew."""
        if self.plan is None or self._previewed != ((dx, dy), self._position()):
            self._preview(dx, dy)
        assert self.plan is not None
        return self.plan

    def _preview(self, dx: float, dy: float) -> None:
        order = self.order(dx, dy)
        targets = {f: self.target(f, dx, dy) for f in order}
        self.plan = plan_group_move(self.tool.session.game, order, targets, self.origins)
        self.previews = {m.figure: m.preview for m in self.plan.members if m.move is not None}
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
        if self.fresh() and entry.preview.end is not None and entry.move is not None:
            return entry.preview.end
        if entry.move is None:
            return (x, y)
        if self.plan is not None and entry is self.plan.stopper and entry.preview.end:
            return entry.preview.end
        return (x + dx * entry.fraction, y + dy * entry.fraction)

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
                notes.append(f"{names(fid)} stays: {_own(entry.refused, names(fid))}")
            elif entry is stop:
                colour, style, drawn_to = STOP_COLOUR, Qt.PenStyle.SolidLine, end
            else:
                colour, style, drawn_to = OK_COLOUR, Qt.PenStyle.SolidLine, end
            if entry is not None and entry.part_way:
                rest = (BAD_COLOUR, formation)
                notes.append(f"{names(fid)} goes part way: {_own(entry.refused, names(fid))}")
            line = self._line(self.lines, fid)
            pen = QPen(colour, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            pen.setStyle(style)
            line.setPen(pen)
            line.setLine(QLineF(x, y, drawn_to[0], drawn_to[1]))
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
        if stop is not None and stop.preview.end is not None:
            if self.marker is None:
                self.marker = StopMarker()
                tool.scene.addItem(self.marker)
            self.marker.setPos(QPointF(*stop.preview.end))
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
        if stop is not None:
            lines.append(f"{names(stop.figure)} stops: {stop.preview.stopped}")
        lines.extend(notes[:3])
        self.label.setText("\n".join(lines))
        refused = any(m.refused for m in entries.values())
        self.label.setBrush(STOP_COLOUR if stop else BAD_COLOUR if refused else OK_COLOUR)
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
