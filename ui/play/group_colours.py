"""Group colours (6.2): one colour per group, the same on the table's rings and Leader
marks, in the Turn dock and in the figure's context menu.

A group's colour is a function of the game's state alone -- the sides, the figures
and the groups they stand in now -- never of what the window saw before, so a saved
game reloads with the colours it was saved with and a history replays with the same.

* Each side draws from its own set of colours (:func:`side_palettes`): a friendly
  group and an enemy group never share one.  A colour too close in hue to any
  side's colour (the bases' fill) is left out, so a ring never reads as a base.
* A group's colour follows its Leader (:func:`assign_colours`).  The groups of a
  side choose in order of their Leaders' seniority -- Stars first, then the highest
  Rep, then the roster's order, the order in which a group's Leader is chosen (6.2,
  6.3) -- each taking the colour its Leader's place in the roster points to, or the
  next one free.  When a group splits, the part that keeps the Leader keeps the
  colour: the Leader of the part that leaves is junior to him and chooses after
  him, and no group that chose before him has changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from crdesk.game import Game
from crdesk.model import Battlefield

FAMILIES = (
    (
        "#b6f03c",  # lime
        "#38e8e0",  # cyan
        "#fff04a",  # yellow
        "#f4f4f4",  # white
        "#7dff9e",  # mint
    ),
    (
        "#ff5cf0",  # magenta
        "#ff9a1f",  # orange
        "#a98bff",  # violet
        "#ff7f9e",  # pink
        "#ffc48a",  # peach
    ),
)
"""Bright, saturated ring colours, read on green cloth, woods and roofs alike: the
first side's (greens, cyan, yellow, white) and the second's (pinks, orange, violet).
With more than two sides, their colours are dealt out in turn."""
GROUP_COLOURS = tuple(c for pair in zip(*FAMILIES, strict=True) for c in pair)
"""Every ring colour, the two families interleaved (dealt to n sides: ``[i::n]``)."""
SIDE_HUE_GAP = 28.0
"""A ring colour this close in hue (degrees) to a side's colour is not used."""


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def side_palettes(side_colours: Sequence[str]) -> list[list[QColor]]:
    """Each side's ring colours, in the order of ``side_colours`` (the forces'): sets
    that share no colour, none too close in hue to any side's colour.

    A side whose every colour is too close keeps its own set whole (still its own).
    """
    hues = []
    for name in side_colours:
        colour = QColor(name)
        if colour.isValid() and colour.hsvSaturationF() > 0.25:
            hues.append(colour.hsvHueF() * 360.0)
    n = max(1, len(side_colours))
    out = []
    for k in range(n):
        own = [QColor(name) for name in GROUP_COLOURS[k::n]]
        far = [
            c
            for c in own
            if c.hsvSaturationF() < 0.25
            or all(_hue_gap(c.hsvHueF() * 360.0, h) >= SIDE_HUE_GAP for h in hues)
        ]
        out.append(far or own)
    return out


def assign_colours(
    battlefield: Battlefield, leaders: Iterable[tuple[str, str]], sizes: Mapping[str, int]
) -> dict[str, int]:
    """For each group, given as (side, Leader id), an index into its side's colours
    (``sizes``: how many each side has), by the Leaders' seniority (module docstring).

    More groups than colours: the last to choose share, each its own first choice.
    """
    figures = list(battlefield.figures())
    roster = {f.id: k for k, f in enumerate(figures)}
    seen: Counter[str] = Counter()
    place: dict[str, int] = {}
    for f in figures:
        place[f.id] = seen[f.side]
        seen[f.side] += 1
    senior = {f.id: (not f.is_star, -f.rep, roster[f.id]) for f in figures}
    by_side: dict[str, list[str]] = {}
    for side, leader in leaders:
        if leader in senior:
            by_side.setdefault(side, []).append(leader)
    out: dict[str, int] = {}
    for side, side_leaders in by_side.items():
        size = max(1, sizes.get(side, 1))
        taken: set[int] = set()
        for leader in sorted(side_leaders, key=senior.__getitem__):
            want = place[leader] % size
            choice = next(
                ((want + k) % size for k in range(size) if (want + k) % size not in taken), want
            )
            taken.add(choice)
            out[leader] = choice
    return out


@dataclass(frozen=True, slots=True)
class GroupColours:
    """The colours of the groups on the table now."""

    by_leader: dict[str, QColor] = field(default_factory=dict)
    """Each group's colour, by its Leader's id."""
    leader_of: dict[str, str] = field(default_factory=dict)
    """Each figure in a group: its group's Leader."""

    def of_figure(self, fid: str) -> QColor | None:
        """The colour of the group ``fid`` is in (None: in no group, e.g. Out of the Fight)."""
        leader = self.leader_of.get(fid)
        return self.by_leader.get(leader) if leader is not None else None


def colours_for(
    battlefield: Battlefield, groups: Sequence[tuple[str, str, Sequence[str]]]
) -> GroupColours:
    """The colours of ``groups`` -- (side, Leader, members) -- on ``battlefield``."""
    forces = list(battlefield.forces)
    palettes = dict(
        zip((f.id for f in forces), side_palettes([f.colour for f in forces]), strict=True)
    )
    sizes = {side: len(p) for side, p in palettes.items()}
    index = assign_colours(battlefield, [(side, leader) for side, leader, _m in groups], sizes)
    by_leader: dict[str, QColor] = {}
    leader_of: dict[str, str] = {}
    for side, leader, members in groups:
        palette = palettes.get(side) or [QColor(GROUP_COLOURS[0])]
        by_leader[leader] = QColor(palette[index.get(leader, 0) % len(palette)])
        for fid in members:
            leader_of[str(fid)] = leader
    return GroupColours(by_leader, leader_of)


_memo: WeakKeyDictionary[Game, tuple[int, GroupColours]] = WeakKeyDictionary()


def group_colours(game: Game) -> GroupColours:
    """The colours of the game's groups now (worked out once per state of the table)."""
    revision = game.battlefield.revision
    memo = _memo.get(game)
    if memo is not None and memo[0] == revision:
        return memo[1]
    game.cohesion.update()
    groups = [(g.side, g.leader, g.members) for g in game.cohesion.groups(game.rules) if g.members]
    result = colours_for(game.battlefield, groups)
    _memo[game] = (revision, result)
    return result


# -- a swatch: the group's ring round a base of its side's colour --------------------------


RING_WIDTH = 2.4
"""The swatch's ring width, in pixels (as on the table, a little bolder)."""


def group_pixmap(side: QColor, ring: QColor | None, size: int = 16) -> QPixmap:
    """A base of the side's colour in the group's ring, as the table shows the group's
    figures (with the ring's dark edge, so a white or yellow ring reads on a light panel;
    ``ring`` None: the base alone)."""
    ratio = 2.0
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        centre = QPointF(size / 2, size / 2)
        r = size / 2 - RING_WIDTH / 2 - 1.0
        if ring is not None:
            painter.setPen(QPen(QColor(0, 0, 0, 170), RING_WIDTH + 1.6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, r, r)
            painter.setPen(QPen(ring, RING_WIDTH))
            painter.drawEllipse(centre, r, r)
        painter.setPen(QPen(QColor(0, 0, 0, 120), 0.8))
        painter.setBrush(side)
        inner = r - RING_WIDTH / 2 - 1.2 if ring is not None else r - 1.0
        painter.drawEllipse(centre, inner, inner)
    finally:
        painter.end()
    return pixmap


def group_icon(side: QColor, ring: QColor, size: int = 16) -> QIcon:
    """:func:`group_pixmap` as an icon that looks the same disabled (a menu's title)."""
    pixmap = group_pixmap(side, ring, size)
    icon = QIcon()
    for mode in (QIcon.Mode.Normal, QIcon.Mode.Disabled):
        icon.addPixmap(pixmap, mode)
    return icon
