"""The battlefield as a QGraphicsScene (1 unit = 1 inch) and the view that shows it."""

from ui.scene.ground import GroundLayer
from ui.scene.items import FigureItem, TableItem, TerrainItem
from ui.scene.layers import ItemType, Layer
from ui.scene.overlays import GridOverlay, SectionNumbers, SectionOverlay
from ui.scene.scene import BattlefieldScene
from ui.scene.style import DEFAULT_STYLE, TableStyle
from ui.scene.view import BattlefieldView

__all__ = [
    "DEFAULT_STYLE",
    "BattlefieldScene",
    "BattlefieldView",
    "FigureItem",
    "GridOverlay",
    "GroundLayer",
    "ItemType",
    "Layer",
    "SectionNumbers",
    "SectionOverlay",
    "TableItem",
    "TableStyle",
    "TerrainItem",
]
