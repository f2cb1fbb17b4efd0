"""Editor tools as objects (STYLE 7): activate, deactivate, mouse and key hooks, previews.

The :class:`ToolManager` sits as an event filter on the view's viewport, turns
mouse positions into table inches (snapped when snapping is on) and hands them
to the active tool.  Middle-button and space-drag panning and wheel zoom stay
with the view, so every tool navigates the same way.  Esc cancels the active
tool's gesture and removes its preview items; nothing reaches the model until
a tool pushes an undo command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QContextMenuEvent, QFont, QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem

from crdesk.shapes import SnapSettings, snap
from ui.document import Document
from ui.event_guard import guarded_filter
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView

PREVIEW_Z = 10_000.0
"""Previews float above every layer of the scene."""


def screen_label(points: float) -> QGraphicsSimpleTextItem:
    """A bold preview label that keeps its screen size at every zoom (readouts, verdicts)."""
    label = QGraphicsSimpleTextItem()
    font = QFont()
    font.setPointSizeF(points)
    font.setBold(True)
    label.setFont(font)
    label.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
    return label


@dataclass
class EditorContext:
    """What every tool may use: the document, its scene and view, and the snap settings."""

    document: Document
    scene: BattlefieldScene
    view: BattlefieldView
    snapping: SnapSettings = field(default_factory=SnapSettings)
    show_message: Callable[[str], None] = lambda _text: None

    def pixels_to_inches(self, pixels: float) -> float:
        scale = self.view.transform().m11() or 1.0
        return pixels / scale

    def snapped(self, pos: QPointF, exclude: str | None = None) -> QPointF:
        """The position after snapping, with a tolerance of about 8 screen pixels."""
        settings = SnapSettings(
            enabled=self.snapping.enabled,
            grid=self.snapping.grid,
            grid_step=self.snapping.grid_step,
            vertices=self.snapping.vertices,
            edges=self.snapping.edges,
            sections=self.snapping.sections,
            tolerance=self.pixels_to_inches(8.0),
        )
        bf = self.document.battlefield
        (x, y), _what = snap((pos.x(), pos.y()), settings, bf.terrain, bf.table, exclude)
        return QPointF(x, y)


class Tool(QObject):
    """Base class of the editor's tools; subclasses override the hooks they need."""

    name = "Tool"
    shortcut = ""
    tooltip = ""
    snaps = True
    """Whether pointer positions given to this tool are snapped."""

    def __init__(self, context: EditorContext) -> None:
        super().__init__()
        self.ctx = context
        self._previews: list[QGraphicsItem] = []

    # -- lifecycle ---------------------------------------------------------------

    def activate(self) -> None:
        """The tool became current."""

    def deactivate(self) -> None:
        """Another tool became current: drop any gesture in progress."""
        self.cancel()

    def cancel(self) -> None:
        """Esc: abandon the gesture in progress and remove previews."""
        self.clear_previews()

    # -- previews --------------------------------------------------------------

    def add_preview(self, item: QGraphicsItem) -> QGraphicsItem:
        item.setZValue(PREVIEW_Z + len(self._previews))
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ctx.scene.addItem(item)
        self._previews.append(item)
        return item

    def clear_previews(self) -> None:
        for item in self._previews:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self._previews.clear()

    @property
    def previews(self) -> list[QGraphicsItem]:
        return list(self._previews)

    # -- hooks: return True when the event was used ---------------------------

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def key(self, event: QKeyEvent) -> bool:
        return False

    def wants_key(self, event: QKeyEvent) -> bool:
        """Whether a key that is also a window shortcut (Delete, Enter...) is for the tool now."""
        return False

    def wheel(self, event: QWheelEvent) -> bool:
        return False


class ToolManager(QObject):
    """Owns the tools, knows the current one, and routes view events to it."""

    tool_changed = Signal(object)

    def __init__(self, context: EditorContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = context
        self.tools: dict[str, Tool] = {}
        self._current: Tool | None = None
        self.context_menu: Callable[[QPointF, QPoint], None] | None = None
        """Shows the canvas's context menu at a table point (set by the editor)."""
        context.view.viewport().installEventFilter(self)
        context.view.installEventFilter(self)

    def add(self, key: str, tool: Tool) -> Tool:
        self.tools[key] = tool
        return tool

    @property
    def current(self) -> Tool | None:
        return self._current

    def set_current(self, key: str) -> None:
        tool = self.tools[key]
        if tool is self._current:
            return
        if self._current is not None:
            self._current.deactivate()
        self._current = tool
        tool.activate()
        self.ctx.show_message(f"{tool.name}: {tool.tooltip}")
        self.tool_changed.emit(tool)

    def cancel(self) -> None:
        """Drop the current tool's gesture (its error was reported: :func:`guarded_filter`)."""
        if self._current is not None:
            self._current.cancel()

    def detach(self) -> None:
        """Stop routing events (the view or document is going away)."""
        if self._current is not None:
            self._current.deactivate()
        self.ctx.view.viewport().removeEventFilter(self)
        self.ctx.view.removeEventFilter(self)

    def _scene_pos(self, event: QMouseEvent, tool: Tool) -> QPointF:
        pos = self.ctx.view.mapToScene(event.position().toPoint())
        return self.ctx.snapped(pos) if tool.snaps else pos

    @guarded_filter
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        tool = self._current
        if tool is None:
            return False
        kind = event.type()
        if (
            kind == QEvent.Type.ContextMenu
            and isinstance(event, QContextMenuEvent)
            and watched is not self.ctx.view
            and self.context_menu is not None
        ):
            tool.cancel()
            self.context_menu(self.ctx.view.mapToScene(event.pos()), event.globalPos())
            return True
        if watched is self.ctx.view:
            if kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
                if event.key() == Qt.Key.Key_Escape or tool.wants_key(event):
                    event.accept()  # deliver as a key press to the tool, not the shortcut
                    return True
                return False
            if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
                if event.key() == Qt.Key.Key_Escape:
                    tool.cancel()
                    return True
                return tool.key(event)
            return False
        if kind in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseMove,
            QEvent.Type.MouseButtonRelease,
            QEvent.Type.MouseButtonDblClick,
        ) and isinstance(event, QMouseEvent):
            if event.button() == Qt.MouseButton.MiddleButton or (
                event.buttons() & Qt.MouseButton.MiddleButton
            ):
                return False  # the view pans
            if getattr(self.ctx.view, "_space_held", False):
                return False
            pos = self._scene_pos(event, tool)
            if kind == QEvent.Type.MouseButtonPress:
                return tool.press(pos, event)
            if kind == QEvent.Type.MouseMove:
                tool.move(pos, event)
                return False  # the view still reports the pointer position
            if kind == QEvent.Type.MouseButtonRelease:
                return tool.release(pos, event)
            return tool.double_click(pos, event)
        if kind == QEvent.Type.Wheel and isinstance(event, QWheelEvent):
            return tool.wheel(event)
        return False
