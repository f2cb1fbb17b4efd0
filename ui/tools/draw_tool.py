"""Drawing tools: terrain outlines (polygon, freehand, rectangle, ellipse), buildings and crests."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem
from shapely.geometry import LineString, Point, Polygon

from crdesk.model import (
    Building,
    CoverObstacle,
    CoverType,
    Hill,
    OpeningKind,
    TerrainFeature,
    TerrainKind,
)
from crdesk.shapes import (
    ShapeResult,
    default_crest,
    dragged_shape,
    ellipse,
    freehand,
    merge_area,
    opening_at,
    outline_from_clicks,
    rectangle,
    split_area,
    split_into_areas,
)
from ui.commands import AddFeatureCommand, ChangeFeatureCommand
from ui.tools.base import PREVIEW_Z, EditorContext, Tool

Pt = tuple[float, float]


class DrawMode(StrEnum):
    POLYGON = "polygon"
    FREEHAND = "freehand"
    RECTANGLE = "rectangle"
    ELLIPSE = "ellipse"


_MODE_KEYS = {
    Qt.Key.Key_1: DrawMode.POLYGON,
    Qt.Key.Key_2: DrawMode.FREEHAND,
    Qt.Key.Key_3: DrawMode.RECTANGLE,
    Qt.Key.Key_4: DrawMode.ELLIPSE,
}


def _path(points: list[Pt], closed: bool = False) -> QPainterPath:
    path = QPainterPath()
    if points:
        path.moveTo(*points[0])
        for p in points[1:]:
            path.lineTo(*p)
        if closed:
            path.closeSubpath()
    return path


def _shape_path(poly: Polygon) -> QPainterPath:
    return _path([(x, y) for x, y in poly.exterior.coords], closed=True)


class ShapeTool(Tool):
    """Collects an outline by clicks, a freehand stroke, or a rectangle/ellipse drag."""

    modes: tuple[DrawMode, ...] = tuple(DrawMode)

    def __init__(self, context: EditorContext, mode: DrawMode = DrawMode.POLYGON) -> None:
        super().__init__(context)
        self.mode = mode
        self._points: list[Pt] = []
        self._pointer: Pt | None = None
        self._dragging = False
        self._outline: QGraphicsPathItem | None = None
        self.mark: QGraphicsEllipseItem | None = None
        """The red ring on the spot of the last refusal (a crossing), until the next action."""
        self.refused = ""
        """Why the last shape was not drawn ("" when it was)."""

    @property
    def points(self) -> list[Pt]:
        return list(self._points)

    def set_mode(self, mode: DrawMode) -> None:
        self.cancel()
        self.mode = mode
        self.ctx.show_message(f"{self.name}: {mode.value}")

    # -- to be provided by subclasses -------------------------------------------

    def finish_shape(self, outline: Polygon) -> None:
        raise NotImplementedError

    # -- gestures ------------------------------------------------------------------

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        self._clear_mark()
        self.refused = ""
        if event.button() == Qt.MouseButton.RightButton and self.mode is DrawMode.POLYGON:
            self._finish_polygon()
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        p = (pos.x(), pos.y())
        if self.mode is DrawMode.POLYGON:
            if not self._points or self._points[-1] != p:
                self._points.append(p)
        else:
            self._points = [p]
            self._dragging = True
        self._pointer = p
        self._update_preview()
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        p = (pos.x(), pos.y())
        self._pointer = p
        if self._dragging and self.mode is DrawMode.FREEHAND:
            self._points.append(p)
        self._update_preview()
        return bool(self._points)

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or not self._dragging:
            return self.mode is DrawMode.POLYGON and bool(self._points)
        self._dragging = False
        p = (pos.x(), pos.y())
        start = self._points[0]
        result: ShapeResult
        if self.mode is DrawMode.FREEHAND:
            outline = freehand([*self._points, p])
            result = ShapeResult(outline, "" if outline else "the stroke is too short or thin")
        else:
            result = dragged_shape(self.mode.value, start, p)
        self._points = []
        self.clear_previews()
        self._outline = None
        if result.outline is not None:
            self.finish_shape(result.outline)
        else:
            self._refuse(result)
        return True

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self.mode is DrawMode.POLYGON and event.button() == Qt.MouseButton.LeftButton:
            self._finish_polygon()
            return True
        return False

    def wants_key(self, event: QKeyEvent) -> bool:
        return bool(self._points) and event.key() in (
            Qt.Key.Key_Backspace,
            Qt.Key.Key_Delete,
            Qt.Key.Key_Return,
            Qt.Key.Key_Enter,
        )

    def key(self, event: QKeyEvent) -> bool:
        k = event.key()
        if k in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.mode is DrawMode.POLYGON:
            self._finish_polygon()
            return True
        if k == Qt.Key.Key_Backspace and self._points:
            self._points.pop()
            self._update_preview()
            return True
        mode = _MODE_KEYS.get(Qt.Key(k))
        if mode is not None and mode in self.modes:
            self.set_mode(mode)
            return True
        return False

    def cancel(self) -> None:
        self._points = []
        self._dragging = False
        self._outline = None
        self._clear_mark()
        super().cancel()

    # -- internals ------------------------------------------------------------------

    def _finish_polygon(self) -> None:
        result = outline_from_clicks(self._points)
        if result.outline is None and result.spot is not None and len(self._points) > 3:
            # keep the corners: Backspace takes back the one that made the crossing
            self._refuse(result, "Backspace takes back the last corner, Esc starts again")
            return
        self._points = []
        self.clear_previews()
        self._outline = None
        if result.outline is None:
            self._refuse(result)
            return
        self.finish_shape(result.outline)

    def _refuse(self, result: ShapeResult, hint: str = "") -> None:
        """Say why nothing was drawn, and ring the spot when there is one."""
        self.refused = result.problem
        text = f"{self.name}: not drawn: {result.problem}"
        self.ctx.show_message(f"{text}. {hint}" if hint else text)
        self._clear_mark()
        if result.spot is not None:
            r = 0.6
            mark = QGraphicsEllipseItem(result.spot[0] - r, result.spot[1] - r, 2 * r, 2 * r)
            pen = QPen(QColor(220, 30, 30), 0)
            pen.setCosmetic(True)
            pen.setWidthF(3.0)
            mark.setPen(pen)
            mark.setZValue(PREVIEW_Z + 100)
            mark.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            mark.setToolTip(result.problem)
            self.ctx.scene.addItem(mark)
            self.mark = mark

    def _clear_mark(self) -> None:
        if self.mark is not None and self.mark.scene() is not None:
            self.mark.scene().removeItem(self.mark)
        self.mark = None

    def _update_preview(self) -> None:
        if not self._points:
            return
        if self._outline is None:
            self._outline = QGraphicsPathItem()
            pen = QPen(QColor(30, 90, 200), 0.08)
            pen.setStyle(Qt.PenStyle.DashLine)
            self._outline.setPen(pen)
            self._outline.setBrush(QColor(30, 90, 200, 40))
            self.add_preview(self._outline)
        pointer = self._pointer or self._points[-1]
        if self.mode is DrawMode.POLYGON:
            path = _path([*self._points, pointer])
        elif self.mode is DrawMode.FREEHAND:
            path = _path(self._points)
        elif self.mode is DrawMode.RECTANGLE:
            path = _shape_path(rectangle(self._points[0], pointer))
        else:
            path = _shape_path(ellipse(self._points[0], pointer))
        self._outline.setPath(path)


class DrawTerrainTool(ShapeTool):
    """Woods, hills, wooded hills, impassable ground and cover obstacles."""

    def __init__(self, context: EditorContext, kind: TerrainKind, shortcut: str) -> None:
        super().__init__(context)
        self.kind = kind
        self.name = f"Draw {kind.label.lower()}"
        self.shortcut = shortcut
        self.tooltip = (
            "click points and double-click to finish; "
            "1 polygon, 2 freehand, 3 rectangle, 4 ellipse; Esc cancels"
        )

    def finish_shape(self, outline: Polygon) -> None:
        doc = self.ctx.document
        bf = doc.battlefield
        fid = bf.new_id(self.kind.value.replace("_", "-"))
        count = sum(1 for f in bf.terrain if f.kind is self.kind) + 1
        name = f"{self.kind.label} {count}"
        feature: TerrainFeature
        if self.kind in (TerrainKind.HILL, TerrainKind.WOODED_HILL):
            feature = Hill(fid, self.kind, name, outline, crest=default_crest(outline))
        elif self.kind is TerrainKind.COVER:
            feature = CoverObstacle(fid, self.kind, name, outline, cover_type=CoverType.WALL)
        else:
            feature = TerrainFeature(fid, self.kind, name, outline)
        doc.undo_stack.push(AddFeatureCommand(doc, feature))
        doc.set_selection([fid])


class BuildingMode(StrEnum):
    FOOTPRINT = "footprint"
    DOOR = "door"
    WINDOW = "window"
    AREAS = "areas"


class BuildingTool(ShapeTool):
    """Draw a footprint (split into areas), or click an outline to add doors and windows."""

    name = "Building"
    shortcut = "B"
    tooltip = (
        'Drag a footprint (split into ~6" areas); D then click an outline for a door, '
        "N for a window, F back to footprints"
    )
    modes = (DrawMode.RECTANGLE, DrawMode.POLYGON)

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context, DrawMode.RECTANGLE)
        self.building_mode = BuildingMode.FOOTPRINT
        self.floors = 1

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self.building_mode is BuildingMode.FOOTPRINT:
            return super().press(pos, event)
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.building_mode is BuildingMode.AREAS:
            join = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.edit_area((pos.x(), pos.y()), join)
        else:
            self.add_opening((pos.x(), pos.y()))
        return True

    def key(self, event: QKeyEvent) -> bool:
        modes = {
            Qt.Key.Key_D: BuildingMode.DOOR,
            Qt.Key.Key_N: BuildingMode.WINDOW,
            Qt.Key.Key_F: BuildingMode.FOOTPRINT,
            Qt.Key.Key_A: BuildingMode.AREAS,
        }
        mode = modes.get(Qt.Key(event.key()))
        if mode is not None:
            self.cancel()
            self.building_mode = mode
            self.ctx.show_message(f"Building: {mode.value}")
            return True
        return super().key(event)

    def finish_shape(self, outline: Polygon) -> None:
        doc = self.ctx.document
        bf = doc.battlefield
        fid = bf.new_id("building")
        count = sum(1 for f in bf.terrain if f.kind is TerrainKind.BUILDING) + 1
        areas = split_into_areas(outline, doc.scenario.rules.building_area_size)
        minx, miny, maxx, maxy = outline.bounds
        # A door on the side facing the player's edge, a window on each other side.
        door = opening_at(outline, ((minx + maxx) / 2, maxy), OpeningKind.DOOR)
        windows = [
            opening_at(outline, p, OpeningKind.WINDOW)
            for p in (
                ((minx + maxx) / 2, miny),
                (minx, (miny + maxy) / 2),
                (maxx, (miny + maxy) / 2),
            )
        ]
        building = Building(
            fid,
            TerrainKind.BUILDING,
            f"Building {count}",
            outline,
            floors=self.floors,
            areas=areas,
            openings=[door, *windows],
        )
        doc.undo_stack.push(AddFeatureCommand(doc, building))
        doc.set_selection([fid])

    def edit_area(self, at: Pt, join: bool = False) -> bool:
        """Split the building area under a point in two, or join it to its neighbour (8.1)."""
        doc = self.ctx.document
        p = Point(at)
        for feature in doc.battlefield.features_at(*at):
            if not isinstance(feature, Building):
                continue
            hit = next((k for k, a in enumerate(feature.areas) if a.covers(p)), None)
            if hit is None:
                continue
            if join:
                areas = merge_area(feature.areas, hit)
                text = "Join Areas"
            else:
                areas = [
                    *feature.areas[:hit],
                    *split_area(feature.areas[hit]),
                    *feature.areas[hit + 1 :],
                ]
                text = "Split Area"
            if len(areas) == len(feature.areas):
                self.ctx.show_message("That area has no neighbour along a wall to join")
                return False
            doc.undo_stack.push(ChangeFeatureCommand(doc, feature.id, {"areas": areas}, text))
            return True
        self.ctx.show_message("Click inside a building's area")
        return False

    def add_opening(self, at: Pt) -> bool:
        """Add a door or window on the nearest building outline within 1" of the click."""
        doc = self.ctx.document
        p = Point(at)
        candidates = [
            f
            for f in doc.battlefield.terrain
            if isinstance(f, Building) and f.outline.exterior.distance(p) <= 1.0
        ]
        if not candidates:
            self.ctx.show_message("Click on a building's outline to place a door or window")
            return False
        building = min(candidates, key=lambda f: f.outline.exterior.distance(p))
        kind = OpeningKind.DOOR if self.building_mode is BuildingMode.DOOR else OpeningKind.WINDOW
        opening = opening_at(building.outline, at, kind)
        doc.undo_stack.push(
            ChangeFeatureCommand(
                doc,
                building.id,
                {"openings": [*building.openings, opening]},
                f"Add {kind.value.title()}",
            )
        )
        return True


class CrestTool(Tool):
    """Draw a hill's crest line: click points inside the hill, double-click or Enter to finish."""

    name = "Hill crest"
    shortcut = "K"
    tooltip = "Click points along the ridge inside a hill; double-click or Enter finishes"

    def __init__(self, context: EditorContext) -> None:
        super().__init__(context)
        self._hill: str | None = None
        self._points: list[Pt] = []
        self._line: QGraphicsPathItem | None = None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        p = (pos.x(), pos.y())
        if self._hill is None:
            hills = [
                f for f in self.ctx.document.battlefield.features_at(*p) if isinstance(f, Hill)
            ]
            if not hills:
                self.ctx.show_message("Start the crest inside a hill")
                return True
            self._hill = hills[0].id
        if not self._points or self._points[-1] != p:
            self._points.append(p)
        self._draw(p)
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._points:
            self._draw((pos.x(), pos.y()))
        return False

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        self.finish()
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        return False

    def finish(self) -> None:
        hill_id, points = self._hill, list(dict.fromkeys(self._points))
        self.cancel()
        if hill_id is None or len(points) < 2:
            return
        doc = self.ctx.document
        hill = doc.battlefield.feature(hill_id)
        crest = LineString(points)
        clipped = crest.intersection(hill.outline)
        if isinstance(clipped, LineString) and len(clipped.coords) >= 2:
            crest = clipped
        doc.undo_stack.push(ChangeFeatureCommand(doc, hill_id, {"crest": crest}, "Edit Crest"))

    def cancel(self) -> None:
        self._hill = None
        self._points = []
        self._line = None
        super().cancel()

    def _draw(self, pointer: Pt) -> None:
        if self._line is None:
            self._line = QGraphicsPathItem()
            pen = QPen(QColor(150, 60, 20), 0.12)
            pen.setStyle(Qt.PenStyle.DashLine)
            self._line.setPen(pen)
            self.add_preview(self._line)
        self._line.setPath(_path([*self._points, pointer]))
