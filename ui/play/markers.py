"""Status markers on the table in play mode, drawn over the figures by an overlay.

Nothing here decides a rule: every marker is read from the figure (its
status, prone, out of ammo, fast moving, Star Power dice) or from
:meth:`~crdesk.game.Game.flags` (Duck Back this turn, a readied grenade, whom
it carries).  The badges ignore the view's zoom (``ItemIgnoresTransformations``)
and are anchored on the figure's position, so they stay readable at any scale;
the carry link and the selected figure's front arc are drawn in table inches.
With :meth:`StatusMarkers.set_arcs` on (Game ▸ Show Front Arcs), every figure able
to act has its 180° front (LOS 7.9.4) drawn faintly in its side's colour, and a
figure's tooltip says which way it faces and what stands behind it
(:meth:`StatusMarkers.facing_note`, from :meth:`~crdesk.game.Game.behind`).

Groups (6.2) come from :meth:`~crdesk.game.Game.summary`: each figure of a group
wears a thin ring in the group's colour and the Leader a chevron badge in it.  The
colour is the game's (:mod:`ui.play.group_colours`): it follows the group's Leader,
so a squad keeps its colour when a man steps away, each side has colours of its
own, and a reloaded game wears the colours it was saved with.  In a
solo game the unresolved PEFs (11) of ``summary()["pefs"]`` are drawn as "?"
tokens at their spots (:class:`PefLayer`), under the figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QLineF, QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from crdesk.game.summary import WATCH_INCHES
from crdesk.geometry.measure import compass
from crdesk.model import Figure, Status
from ui.play.group_colours import group_colours
from ui.play.session import PlaySession
from ui.play.text import tip_paragraph
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
LEADER = "leader"

MARKER_Z = Layer.OVERLAYS + 10
ARC_Z = Layer.FIGURES - 3
RING_Z = Layer.FIGURES - 1
"""Under the base: the ring shows round it and never hides the side colour or the Rep."""
PEF_Z = Layer.FIGURES - 2
"""Under the figures and their rings: a figure standing by a PEF is seen, hovered and
picked whole (the token was over it, hiding it and taking its tooltip)."""
ARC_INCHES = 4.0
"""Radius of the front arc drawn for the selected figure (a hint, not a range)."""
ARCS_Z = ARC_Z - 1
"""Every figure's arc (the Arcs toggle): under the selected figure's."""
ARCS_ALPHA = (110, 26)
"""The side colour's alpha for every figure's arc: its edge and its fill (faint: a
dozen arcs overlap in a firefight)."""
NAMES_SHOWN = 3
"""Names a facing note lists before "and n more"."""
CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
"""Rings, Leader marks, badges and PEF tokens are painted once into a pixmap and
blitted after: forty antialiased rings stroked afresh on every animation frame were
a third of the table's repaint while the program played."""


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
        self.setCacheMode(CACHE)
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
        self._carried: tuple[str, float, float] | None = None
        """The figure a drag carries and how far: its arcs are drawn there."""
        self.arcs_on = False
        """Whether every figure's front arc is drawn (the Arcs toggle; off at first)."""
        self._arcs: dict[str, QGraphicsPathItem] = {}
        self._arc_key: dict[str, tuple[object, ...]] = {}
        self._rings: dict[str, GroupRing] = {}
        self._leaders: dict[str, LeaderMark] = {}
        self._rows: dict[str, tuple[object, ...]] = {}
        """What each figure's badges show (kinds, texts, tips), to rebuild only changed rows."""
        self._link_key: tuple[object, ...] = ()
        self._dirty = False
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.flush)
        self.pefs = PefLayer(scene, session)
        session.changed.connect(self._mark)
        scene.model_synced.connect(self._model_synced)
        scene.figure_note = self.facing_note
        self.refresh()

    def detach(self) -> None:
        self._later.stop()
        self.session.changed.disconnect(self._mark)
        self.scene.model_synced.disconnect(self._model_synced)
        if self.scene.figure_note == self.facing_note:
            self.scene.figure_note = None
        self.pefs.detach()
        self._clear()
        self._clear_groups()
        self._clear_arcs()
        self._set_arc(None)

    # -- queries (tests) -----------------------------------------------------------

    def kinds(self, fid: str) -> list[str]:
        """The markers shown on a figure, carry links included."""
        self.flush()
        kinds = [b.kind for b in self._badges.get(fid, [])]
        kinds += [CARRYING for link in self._links if link.data(0) == fid]
        if fid in self._leaders:
            kinds.append(LEADER)
        return kinds

    def ring(self, fid: str) -> GroupRing | None:
        """The group ring round a figure (None: in no group, e.g. Out of the Fight)."""
        self.flush()
        return self._rings.get(fid)

    def leader_mark(self, fid: str) -> LeaderMark | None:
        self.flush()
        return self._leaders.get(fid)

    def badges(self, fid: str) -> list[Badge]:
        self.flush()
        return list(self._badges.get(fid, []))

    def arc_item(self) -> QGraphicsPathItem | None:
        self.flush()
        return self._arc

    def arc_items(self) -> dict[str, QGraphicsPathItem]:
        """Every figure's front arc by figure id, while the Arcs toggle is on."""
        self.flush()
        return dict(self._arcs)

    def facing_note(self, fid: str) -> str:
        """Which way the figure faces and what it cannot see behind it, for its tooltip:
        "Cpl. Diaz faces north: cannot see PEF 3 (behind him)".

        Enemies and unresolved PEFs within 12" wholly outside its 180° front
        (LOS 7.9.4) are named: it sees none of them until it turns, whatever the
        terrain.  A figure that cannot act is only said to face its way.
        """
        game = self.session.game
        try:
            figure = game.battlefield.figure(fid)
        except (KeyError, ValueError):
            return ""
        faces = f"{figure.name} faces {compass(figure.facing)}"
        if not figure.status.can_act:
            return faces
        names = [str(e["name"]) for e in game.behind(fid)]
        if not names:
            return f'{faces}: no enemy within {WATCH_INCHES:g}" behind him'
        if len(names) > NAMES_SHOWN:
            rest = len(names) - NAMES_SHOWN + 1
            names = [*names[: NAMES_SHOWN - 1], f"{rest} more"]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        return f"{faces}: cannot see {listed} (behind him)"

    def set_arcs(self, on: bool) -> None:
        """Draw every figure's front arc (on) or none but the selected figure's (off)."""
        if on != self.arcs_on:
            self.arcs_on = on
            self._draw_arcs()

    # -- drawing ---------------------------------------------------------------------

    def _model_synced(self, _change: object) -> None:
        self._mark()

    def _mark(self, *_args: object) -> None:
        """Something changed: redraw once the step is over, not at every figure it moves.

        A step moves and updates figures many times inside the controller's
        ``play``; each change only marks the overlay stale, and one zero-delay
        timer redraws it when the event loop is back.  A query (the animator
        asking for a figure's badges, a test) redraws first if it is stale.
        """
        self._dirty = True
        if not self._later.isActive():
            self._later.start()

    def stale(self) -> bool:
        """Whether a redraw is pending (tests)."""
        return self._dirty

    def flush(self) -> None:
        """Redraw now if something changed since the last redraw."""
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Bring every figure's markers up to date from the game, touching only the
        figures whose markers or place changed (a badge row is rebuilt when what it
        says changed, moved when only the figure did)."""
        self._later.stop()
        self._dirty = False
        game = self.session.game
        present: set[str] = set()
        links: list[tuple[str, str, str, str, float, float, float, float]] = []
        for figure in game.battlefield.figures():
            present.add(figure.id)
            flags = game.flags(figure.id)
            if flags.get("unseen_by"):  # the causes by name, for the Duck Back badge
                flags["unseen_by"] = [game.fig(c).name for c in flags["unseen_by"]]
            looks = _badge_looks(figure, flags)
            row = self._badges.get(figure.id)
            if self._rows.get(figure.id) != looks:
                if row:
                    for badge in row:
                        _remove(badge)
                self._badges.pop(figure.id, None)
                self._rows[figure.id] = looks
                row = []
                x = 0.0
                for kind, text, tip in looks:
                    badge = Badge(kind, text, tip, QPointF(x, 0))
                    x += badge.width + 2
                    row.append(badge)
                    self.scene.addItem(badge)
                if row:
                    self._badges[figure.id] = row
            if row:
                # right of the base, whatever the zoom: the anchor is the base's edge
                anchor = QPointF(figure.x + figure.radius * 0.8, figure.y - figure.radius * 0.8)
                for badge in row:
                    if badge.pos() != anchor:
                        badge.setPos(anchor)
            carried = flags.get("carrying")
            if carried:
                other = game.battlefield.figure(str(carried))
                links.append(
                    (
                        figure.id,
                        figure.name,
                        other.id,
                        other.name,
                        figure.x,
                        figure.y,
                        other.x,
                        other.y,
                    )
                )
        for fid in [f for f in self._rows if f not in present]:
            for badge in self._badges.pop(fid, []):
                _remove(badge)
            del self._rows[fid]
        self._draw_links(tuple(links))
        self._draw_groups()
        self._draw_arcs()
        self._set_arc(self.selected)

    def _draw_arcs(self) -> None:
        """Every figure's 180° front (7.9.4) when the toggle is on, faint, in its side's
        colour; an arc is drawn again only when its figure moved or turned."""
        if not self.arcs_on:
            self._clear_arcs()
            return
        bf = self.session.game.battlefield
        colours = {force.id: force.colour for force in bf.forces}
        table = QPainterPath()
        table.addRect(self.scene.table_rect())  # a front does not reach past the table's edge
        wanted = {f.id: f for f in bf.figures() if f.status.can_act}
        for fid in [f for f in self._arcs if f not in wanted]:
            _remove(self._arcs.pop(fid))
            self._arc_key.pop(fid, None)
        for fid, figure in wanted.items():
            colour = colours.get(figure.side, "#dddddd")
            key = (figure.x, figure.y, figure.facing, colour)
            item = self._arcs.get(fid)
            if item is not None and self._arc_key.get(fid) == key:
                item.setPos(self._carry(fid))  # a drag's, or back from one
                continue
            if item is None:
                item = self._arcs[fid] = QGraphicsPathItem()
                item.setZValue(ARCS_Z)
                item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                item.setData(0, fid)
                self.scene.addItem(item)
            edge, fill = QColor(colour), QColor(colour)
            edge.setAlpha(ARCS_ALPHA[0])
            fill.setAlpha(ARCS_ALPHA[1])
            pen = QPen(edge, 0)
            pen.setCosmetic(True)
            pen.setWidthF(1.0)
            item.setPen(pen)
            item.setBrush(QBrush(fill))
            item.setPath(front_arc(figure, ARC_INCHES).intersected(table))
            item.setPos(self._carry(fid))
            self._arc_key[fid] = key

    def _clear_arcs(self) -> None:
        for item in self._arcs.values():
            _remove(item)
        self._arcs = {}
        self._arc_key = {}

    def _draw_links(
        self, links: tuple[tuple[str, str, str, str, float, float, float, float], ...]
    ) -> None:
        """The dotted carry links (7.12), drawn again only when one changed."""
        if links == self._link_key:
            return
        self._link_key = links
        for link in self._links:
            _remove(link)
        self._links = []
        for fid, name, _other, other_name, x0, y0, x1, y1 in links:
            pen = QPen(QColor(230, 230, 230, 220), 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.5)
            pen.setStyle(Qt.PenStyle.DotLine)
            link = QGraphicsLineItem(QLineF(x0, y0, x1, y1))
            link.setPen(pen)
            link.setZValue(MARKER_Z - 1)
            link.setData(0, fid)
            link.setToolTip(f"{name} carries {other_name} (7.12)")
            link.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(link)
            self._links.append(link)

    def _draw_groups(self) -> None:
        """Rings and Leader marks from the game's groups, moved or recoloured as they change."""
        game = self.session.game
        groups = [g for g in game.summary()["groups"] if g["members"]]
        colours = group_colours(game)
        wanted: dict[str, tuple[QColor, str]] = {}
        leaders: dict[str, tuple[QColor, str]] = {}
        for group in groups:
            colour = colours.by_leader.get(str(group["leader"]), QColor("white"))
            members = [str(m) for m in group["members"]]
            leader = game.battlefield.figure(str(group["leader"]))
            size = len(members)
            if size == 1:
                tip = f"{leader.name} is a group of one (its own Leader, 6.2)"
            else:
                tip = f"{leader.name}'s group: {size} figures, Leader Rep {leader.rep} (6.2)"
            for fid in members:
                wanted[fid] = (colour, tip)
            if size > 1:
                leaders[leader.id] = (
                    colour,
                    f"{leader.name}: Leader of a group of {size} (Rep {leader.rep}, 6.2)",
                )
        for fid in [f for f in self._rings if f not in wanted]:
            _remove(self._rings.pop(fid))
        for fid in [f for f in self._leaders if f not in leaders]:
            _remove(self._leaders.pop(fid))
        for fid, (colour, tip) in wanted.items():
            figure = game.battlefield.figure(fid)
            ring = self._rings.get(fid)
            if ring is None:
                ring = self._rings[fid] = GroupRing()
                self.scene.addItem(ring)
            ring.set_look(figure.radius, colour, f"{figure.name} — {tip}")
            ring.setPos(figure.x, figure.y)
        for fid, (colour, tip) in leaders.items():
            figure = game.battlefield.figure(fid)
            mark = self._leaders.get(fid)
            if mark is None:
                mark = self._leaders[fid] = LeaderMark()
                self.scene.addItem(mark)
            mark.set_look(colour, tip)
            # left of the base, across from the status badges on the right
            mark.setPos(figure.x - figure.radius * 0.8, figure.y - figure.radius * 0.8)

    def _clear_groups(self) -> None:
        for item in [*self._rings.values(), *self._leaders.values()]:
            _remove(item)
        self._rings = {}
        self._leaders = {}

    def _clear(self) -> None:
        for items in self._badges.values():
            for badge in items:
                _remove(badge)
        self._badges = {}
        self._rows = {}
        for link in self._links:
            _remove(link)
        self._links = []
        self._link_key = ()

    def shift_arcs(self, fid: str, dx: float, dy: float) -> None:
        """Carry ``fid``'s front arcs (the selected one's and the Arcs toggle's) ``dx``,
        ``dy`` inches from where the figure stands, as a drag carries the figure; the
        next redraw puts them back where the game has it."""
        self._carried = (fid, dx, dy) if (dx, dy) != (0.0, 0.0) else None
        items = [self._arcs.get(fid)]
        if self.selected == fid:
            items.append(self._arc)
        for item in items:
            if item is not None:
                item.setPos(dx, dy)

    def _carry(self, fid: str) -> QPointF:
        """Where a drag has carried ``fid``'s arcs (0, 0: it stands where the game says)."""
        carried = self._carried
        return QPointF(carried[1], carried[2]) if carried and carried[0] == fid else QPointF()

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
        item.setPos(self._carry(fid))
        self.scene.addItem(item)
        self._arc = item


def _badge_looks(figure: Figure, flags: Mapping[str, object]) -> tuple[tuple[str, str, str], ...]:
    """Each badge a figure wears: its kind, its text and its tooltip."""
    looks = []
    for kind in marker_kinds(figure, flags):
        text, tip = LOOKS[kind].text, LOOKS[kind].tip
        if kind == STAR:
            dice = figure.star_power
            text = f"★{dice}" if dice is not None else "★"
            tip = f"Star, {dice} Star Power dice left (5.2)" if dice is not None else "Star"
        elif kind == GRENADE:
            tip = f"Grenade {flags.get('grenade')} (7.10.1)"
        elif kind == DUCK_BACK and isinstance(causes := flags.get("unseen_by"), list) and causes:
            tip += (
                f"; neither sees nor is seen by {', '.join(map(str, causes))} (the cause) "
                "until it is next active or moves (7.4.4)"
            )
        looks.append((kind, text, f"{figure.name}: {tip}"))
    return tuple(looks)


def marker_kinds(figure: Figure, flags: Mapping[str, object]) -> list[str]:
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


# -- groups: rings and the Leader ----------------------------------------------------------

RING_GAP_PX = 1.5
RING_PX = 2.2
LEADER_PX = 15.0


class GroupRing(QGraphicsItem):
    """A thin ring in the group's colour just outside a figure's base.

    Its gap and width are in screen pixels (from the painter's scale), so the
    ring hugs the base at any zoom without growing into the next figure.
    """

    def __init__(self) -> None:
        super().__init__()
        self.colour = QColor("white")
        self._radius = 0.5
        self.setZValue(RING_Z)
        self.setCacheMode(CACHE)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_look(self, radius: float, colour: QColor, tip: str) -> None:
        if radius != self._radius:
            self.prepareGeometryChange()
            self._radius = radius
        if colour != self.colour:
            self.colour = QColor(colour)
            self.update()
        if self.toolTip() != tip:  # every ring is looked at after every step
            self.setToolTip(tip)

    def boundingRect(self) -> QRectF:
        r = self._radius + 0.6
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        """The disc the ring goes round (its tooltip answers there, not in the corners of
        its box, which reach over a PEF token or the next figure)."""
        path = QPainterPath()
        r = self._radius + 0.55
        path.addEllipse(QPointF(0, 0), r, r)
        return path

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        world = painter.worldTransform()
        scale = math.hypot(world.m11(), world.m12()) or 1.0
        r = min(self._radius + (RING_GAP_PX + RING_PX / 2) / scale, self._radius + 0.55)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        under = QPen(QColor(0, 0, 0, 150), 0)
        under.setCosmetic(True)
        under.setWidthF(RING_PX + 1.6)
        painter.setPen(under)
        painter.drawEllipse(QPointF(0, 0), r, r)
        pen = QPen(self.colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(RING_PX)
        painter.setPen(pen)
        painter.drawEllipse(QPointF(0, 0), r, r)


class LeaderMark(QGraphicsItem):
    """A Leader's chevrons on a dark badge, in screen pixels, up and left of the base."""

    def __init__(self) -> None:
        super().__init__()
        self.colour = QColor("white")
        self._rect = QRectF(-LEADER_PX, -LEADER_PX / 2, LEADER_PX, LEADER_PX)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCacheMode(CACHE)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(MARKER_Z)

    def set_look(self, colour: QColor, tip: str) -> None:
        if colour != self.colour:
            self.colour = QColor(colour)
            self.update()
        if self.toolTip() != tip:  # every ring is looked at after every step
            self.setToolTip(tip)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = self._rect
        painter.setPen(QPen(QColor(255, 255, 255, 220), 1.2))
        painter.setBrush(QColor(25, 25, 25, 230))
        painter.drawRoundedRect(rect, 4, 4)
        pen = QPen(self.colour, 2.0)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        left, right = rect.left() + 3.5, rect.right() - 3.5
        mid = rect.center().x()
        for top in (rect.top() + 3.5, rect.top() + 7.5):
            chevron = QPainterPath(QPointF(left, top + 3.5))
            chevron.lineTo(mid, top)
            chevron.lineTo(right, top + 3.5)
            painter.drawPath(chevron)


# -- PEFs (solo games, 11) -------------------------------------------------------------------

PEF_PX = 26.0
"""Diameter of a PEF token on the screen, in pixels."""


class PefToken(QGraphicsItem):
    """A "?" token with its PEF label, in screen pixels, at a PEF's spot."""

    def __init__(self, pid: str, label: str, rim: QColor) -> None:
        super().__init__()
        self.pid = pid
        self.label = label
        self._rim = rim
        self._font = QFont()
        self._font.setBold(True)
        self._font.setPixelSize(int(PEF_PX * 0.62))
        self._small = QFont()
        self._small.setBold(True)
        self._small.setPixelSize(10)
        half = PEF_PX / 2
        width = max(PEF_PX, QFontMetricsF(self._small).horizontalAdvance(label) + 8.0)
        self._disc = QRectF(-half, -half, PEF_PX, PEF_PX)
        self._plate = QRectF(-width / 2, half + 1.0, width, 13.0)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCacheMode(CACHE)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(PEF_Z)

    def boundingRect(self) -> QRectF:
        return self._disc.united(self._plate).adjusted(-3, -3, 3, 3)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(0, 0, 0, 90), 4.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self._disc.adjusted(1, 1, 1, 1))  # a soft shadow
        painter.setPen(QPen(self._rim, 2.5))
        painter.setBrush(QColor(48, 40, 60, 235))
        painter.drawEllipse(self._disc)
        dashes = QPen(QColor(255, 255, 255, 200), 1.0, Qt.PenStyle.DashLine)
        painter.setPen(dashes)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self._disc.adjusted(3.5, 3.5, -3.5, -3.5))
        painter.setFont(self._font)
        painter.setPen(QColor(255, 236, 150))
        painter.drawText(self._disc, Qt.AlignmentFlag.AlignCenter, "?")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(20, 20, 20, 210))
        painter.drawRoundedRect(self._plate, 3, 3)
        painter.setFont(self._small)
        painter.setPen(QColor("white"))
        painter.drawText(self._plate, Qt.AlignmentFlag.AlignCenter, self.label)


class PefLayer(QObject):
    """The unresolved PEFs of a solo game on the table, redrawn after every step.

    A PEF is game state, not a figure: its spot and whether it is resolved come
    from ``summary()["pefs"]``, what is known of it from the game's events
    (where it was placed, how it last moved, whether the next resolution rolls
    3d6 counting the lowest two).  Moved PEFs move; resolved ones disappear.
    """

    def __init__(self, scene: BattlefieldScene, session: PlaySession) -> None:
        super().__init__(scene)
        self.scene = scene
        self.session = session
        self._tokens: dict[str, PefToken] = {}
        self._seen: tuple[object, ...] | None = None
        session.changed.connect(self.refresh)
        self.refresh()

    def detach(self) -> None:
        self.session.changed.disconnect(self.refresh)
        for token in self._tokens.values():
            _remove(token)
        self._tokens = {}

    def tokens(self) -> dict[str, PefToken]:
        """The PEF tokens on the table by PEF id (tests)."""
        return dict(self._tokens)

    def refresh(self) -> None:
        game = self.session.game
        if not game.settings.solo:
            return
        pefs = [p for p in game.summary().get("pefs", []) if not p.get("resolved")]
        key = (len(game.events), tuple((p["id"], p["x"], p["y"]) for p in pefs))
        if key == self._seen:
            return
        self._seen = key
        rim = QColor("#d8c06a")
        enemy = [f for f in game.battlefield.forces if not f.player]
        if enemy:
            rim = QColor(enemy[0].colour)
        known = pef_knowledge(game.events)
        for pid in [p for p in self._tokens if p not in {q["id"] for q in pefs}]:
            _remove(self._tokens.pop(pid))
        for pef in pefs:
            pid = str(pef["id"])
            label = pef_label(pid)
            token = self._tokens.get(pid)
            if token is None:
                token = self._tokens[pid] = PefToken(pid, label, rim)
                self.scene.addItem(token)
            token.setPos(float(pef["x"]), float(pef["y"]))
            token.setToolTip(pef_tooltip(pid, pef, known))


def pef_label(pid: str) -> str:
    """ "PEF 2" for ``pef2`` (the book's name, and the events')."""
    return f"PEF {pid[3:]}" if pid.startswith("pef") else pid


def pef_knowledge(events: Iterable[Any]) -> dict[str, Any]:
    """What the log tells of each PEF: its placement, its last move, and the 3d6 flag."""
    placed: dict[str, str] = {}
    moved: dict[str, str] = {}
    lowest_two = False
    for event in events:
        who = str(event.data.get("who", "")) if event.data else ""
        if event.kind == "pef_placed" and who:
            placed[who] = event.text
        elif event.kind == "pef_move" and who:
            moved[who] = event.text
        elif event.kind == "pef_resolved":
            lowest_two = bool(event.data.get("next_lowest_two", False))
    return {"placed": placed, "moved": moved, "lowest_two": lowest_two}


def pef_tooltip(pid: str, pef: Mapping[str, Any], known: Mapping[str, Any]) -> str:
    """What is known of a PEF, as a paragraph :data:`~ui.play.text.TIP_WIDTH` wide
    (its placement and last move are the log's sentences: a plain tooltip made each
    one line, the widest 970 pixels)."""
    name = pef_label(pid)
    lines = [
        f'A Possible Enemy Force, not resolved yet (11), at ({float(pef["x"]):.1f}", '
        f'{float(pef["y"]):.1f}").',
    ]
    if name in known["placed"]:
        lines.append(known["placed"][name])
    if name in known["moved"]:
        lines.append("Last move: " + known["moved"][name])
    lines.append("It is resolved when a player figure sees it (11.3).")
    if known["lowest_two"]:
        lines.append("Something's out there: the next PEF resolved rolls 3d6, lowest two.")
    return tip_paragraph(*lines, title=f"{name} ({pid})")


def _remove(item: QGraphicsItem) -> None:
    scene = item.scene()
    if scene is not None:
        scene.removeItem(item)
