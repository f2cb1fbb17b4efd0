"""Z-layers and item type numbers of the battlefield scene, in one place.

Every kind of scene item lives on its own z band so that later overlays (LOS
lines, cohesion links, tool previews of issue 6) can slot in between without
re-numbering, and every item class has its own ``QGraphicsItem.type()`` value so
tools can tell items apart with ``item.type() == FigureItem.Type`` instead of
``isinstance`` chains.
"""

from __future__ import annotations

from enum import IntEnum

from PySide6.QtWidgets import QGraphicsItem

from crdesk.model import TerrainKind


class Layer(IntEnum):
    """Base z value of each layer; items within a layer stack by model order."""

    GROUND = -1
    """The cached layer that paints the table, terrain and table overlays (ground.py).

    Its members keep their own z (TABLE to GRID) for the order it paints them
    in; any other item above GROUND is drawn over all of them, whatever its z.
    """
    TABLE = 0
    HILL = 10
    WOODED_HILL = 12
    WOODS = 20
    IMPASSABLE = 22
    COVER = 30
    BUILDING = 40
    LABELS = 60
    SECTION_NUMBERS = 99
    """Over the terrain, faint: a number hidden under a wood would be no help."""
    SECTIONS = 100
    GRID = 110
    FIGURES = 200
    OVERLAYS = 300
    """Rules overlays drawn over figures: LOS lines, ranges, blast circles."""
    TOOLS = 1000
    """Previews owned by editor tools (rubber bands, half-drawn polygons)."""


TERRAIN_LAYER: dict[TerrainKind, Layer] = {
    TerrainKind.HILL: Layer.HILL,
    TerrainKind.WOODED_HILL: Layer.WOODED_HILL,
    TerrainKind.WOODS: Layer.WOODS,
    TerrainKind.IMPASSABLE: Layer.IMPASSABLE,
    TerrainKind.COVER: Layer.COVER,
    TerrainKind.BUILDING: Layer.BUILDING,
}
"""Hills lie low, woods on them, buildings on top of everything on the ground."""


_USER_TYPE: int = QGraphicsItem.UserType  # type: ignore[attr-defined]  # absent from the stubs


class ItemType(IntEnum):
    """``QGraphicsItem.type()`` values of the crdesk items (UserType + n)."""

    TABLE = _USER_TYPE + 1
    SECTIONS = _USER_TYPE + 2
    GRID = _USER_TYPE + 3
    SECTION_NUMBERS = _USER_TYPE + 4
    GROUND = _USER_TYPE + 5
    TERRAIN = _USER_TYPE + 10
    FIGURE = _USER_TYPE + 20
