"""The editor: tools, edit actions, snapping, clipboard and the selection outline.

One :class:`Editor` lives in the main window.  It owns the actions (each with a
shortcut and tooltip) and re-targets them when another document is opened.
Everything it changes goes through undo commands on the document's stack.
"""

from __future__ import annotations

import atexit
import json
from typing import Any

from PySide6.QtCore import QMimeData, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QActionGroup, QColor, QKeySequence, QPainterPath, QPen
from PySide6.QtWidgets import QApplication, QGraphicsPathItem, QMainWindow, QMenu, QToolBar

from crdesk import scenario as scenario_io
from crdesk.errors import ScenarioError
from crdesk.events import Change
from crdesk.geometry import TerrainIndex
from crdesk.model import TerrainKind, translated
from crdesk.shapes import SnapSettings
from crdesk.validation import TableIssue
from ui.commands import (
    AddFeatureCommand,
    AddFigureCommand,
    ChangeForceCommand,
    RemoveItemsCommand,
)
from ui.docks.roster_dock import figure_from_mime, figure_mime, templates_for
from ui.document import Document
from ui.issue_markers import IssueMarkers
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView
from ui.sight_overlay import SightOverlay
from ui.theme import icon
from ui.tools.base import PREVIEW_Z, EditorContext, Tool, ToolManager
from ui.tools.draw_tool import _MODE_KEYS, BuildingTool, CrestTool, DrawTerrainTool, ShapeTool
from ui.tools.edit_tools import MeasureTool, VertexTool
from ui.tools.los_tool import LosProbeTool
from ui.tools.select_tool import SelectTool

CLIPBOARD_MIME = "application/x-crdesk-items"
PASTE_OFFSET = 1.0
"""Inches a pasted copy is shifted, so it is visibly a new piece."""


_CLEANUP_REGISTERED = False


def _clear_our_clipboard() -> None:
    app = QApplication.instance()
    if app is None:
        return
    clipboard = QApplication.clipboard()
    mime = clipboard.mimeData()
    if mime is not None and mime.hasFormat(CLIPBOARD_MIME):
        clipboard.clear()


def _clear_clipboard_at_exit() -> None:
    """Drop our clipboard data before Qt shuts down.

    With PySide6 6.11 the clipboard's QMimeData is freed twice when the
    application is torn down while it still holds it (a crash on quit), so
    crdesk's own items are cleared first.
    """
    global _CLEANUP_REGISTERED
    if not _CLEANUP_REGISTERED:
        atexit.register(_clear_our_clipboard)
        _CLEANUP_REGISTERED = True


class SelectionOutline(QGraphicsPathItem):
    """Dashed outlines around the selected features and figures."""

    def __init__(self) -> None:
        super().__init__()
        pen = QPen(QColor(255, 190, 0), 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        self.setZValue(PREVIEW_Z - 1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def show_selection(self, document: Document) -> None:
        path = QPainterPath()
        selected = set(document.selection)
        bf = document.battlefield
        for feature in bf.terrain:
            if feature.id in selected:
                ring = list(feature.outline.exterior.coords)
                path.moveTo(*ring[0])
                for x, y in ring[1:]:
                    path.lineTo(x, y)
        for figure in bf.figures():
            if figure.id in selected:
                r = figure.radius + 0.15
                path.addEllipse(figure.x - r, figure.y - r, 2 * r, 2 * r)
        self.setPath(path)


class Editor(QObject):
    """Tools and edit actions for the main window's current document."""

    def __init__(self, window: QMainWindow, view: BattlefieldView) -> None:
        super().__init__(window)
        self.window = window
        self.view = view
        self.snapping = SnapSettings()
        self.document: Document | None = None
        self.scene: BattlefieldScene | None = None
        self.manager: ToolManager | None = None
        self.outline: SelectionOutline | None = None
        self.sight: SightOverlay | None = None
        self.markers: IssueMarkers | None = None
        self._tool_key = "select"
        self.last_menu: QMenu | None = None
        """The canvas menu shown last (tests read it)."""
        self._tool_actions: dict[str, QAction] = {}
        self._tool_group = QActionGroup(self)
        self._tool_group.setExclusive(True)
        self.undo_action = QAction("&Undo", self)
        self.redo_action = QAction("&Redo", self)
        self._build_actions()

    # -- actions ------------------------------------------------------------

    def _action(self, text: str, shortcut: Any, tip: str, slot: Any) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"{tip} ({QKeySequence(shortcut).toString()})" if shortcut else tip)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.undo_action.triggered.connect(lambda: self._stack_call("undo"))
        self.redo_action.triggered.connect(lambda: self._stack_call("redo"))
        self.cut_action = self._action(
            "Cu&t", QKeySequence.StandardKey.Cut, "Cut the selection", self.cut
        )
        self.copy_action = self._action(
            "&Copy", QKeySequence.StandardKey.Copy, "Copy the selection", self.copy
        )
        self.paste_action = self._action(
            "&Paste", QKeySequence.StandardKey.Paste, "Paste terrain or figures", self.paste
        )
        self.duplicate_action = self._action(
            "D&uplicate", "Ctrl+D", "Duplicate the selection", self.duplicate
        )
        self.delete_action = self._action(
            "&Delete", QKeySequence.StandardKey.Delete, "Delete the selection", self.delete
        )
        self.select_all_action = self._action(
            "Select &All", QKeySequence.StandardKey.SelectAll, "Select everything", self.select_all
        )
        self.rotate_action = self._action(
            "&Rotate 15°", "Ctrl+R", "Turn the selection clockwise", lambda: self.rotate(15)
        )
        self.snap_action = self._action(
            "S&nap",
            "Ctrl+Shift+G",
            "Snap to the inch grid, outlines and section lines",
            self._toggle_snap,
        )
        self.sight_action = self._action(
            "Sight &lines",
            "Ctrl+Shift+L",
            "Show what the selected figure sees and its links to its group",
            self._toggle_sight,
        )
        self.sight_action.setCheckable(True)
        self.sight_action.setChecked(True)
        self.sight_action.setIcon(icon("sight"))
        self.snap_action.setCheckable(True)
        self.snap_action.setIcon(icon("snap"))
        self.snap_action.setChecked(self.snapping.enabled)
        for key, text, shortcut, tip in (
            ("select", "Select", "S", "Select, move and rotate"),
            ("vertex", "Vertices", "E", "Edit an outline's corners"),
            ("woods", "Woods", "W", "Draw woods"),
            ("hill", "Hill", "H", "Draw a hill (a crest is added along its length)"),
            ("wooded_hill", "Wooded hill", "J", "Draw a wooded hill"),
            ("impassable", "Impassable", "I", "Draw impassable ground"),
            ("cover", "Cover", "C", "Draw a wall, rubble or another cover obstacle"),
            ("building", "Building", "B", "Draw a building; D/N add doors and windows"),
            ("crest", "Crest", "K", "Draw a hill's crest line"),
            ("measure", "Measure", "M", "Measure distances in inches"),
            ("los", "LOS probe", "L", "Check line of sight, Cover and concealment"),
        ):
            action = QAction(icon(key), text, self)
            action.setCheckable(True)
            action.setShortcut(QKeySequence(shortcut))
            action.setToolTip(f"{tip} ({shortcut})")
            action.setStatusTip(tip)
            action.setData(key)
            action.triggered.connect(lambda _checked=False, k=key: self.set_tool(k))
            self._tool_group.addAction(action)
            self._tool_actions[key] = action
        self._tool_actions["select"].setChecked(True)
        # Shape keys 1-4 work wherever the focus is (a text field still takes its digits:
        # it claims printable keys before window shortcuts are looked up).
        self.shape_actions: list[QAction] = []
        for key, mode in _MODE_KEYS.items():
            action = QAction(f"Draw as {mode.value}", self)
            action.setShortcut(QKeySequence(key))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _c=False, m=mode: self.set_shape_mode(m))
            self.window.addAction(action)
            self.shape_actions.append(action)

    def install_menus(
        self, edit_menu: QMenu | None = None, tools_menu: QMenu | None = None
    ) -> tuple[QMenu, QToolBar]:
        """Fill the Edit and Tools menus (made here when not given) and add the toolbar."""
        bar = self.window.menuBar()
        edit = edit_menu or bar.addMenu("&Edit")
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        edit.addActions([self.cut_action, self.copy_action, self.paste_action])
        edit.addActions([self.duplicate_action, self.delete_action, self.select_all_action])
        edit.addSeparator()
        edit.addActions([self.rotate_action, self.snap_action, self.sight_action])
        tools = tools_menu or bar.addMenu("&Tools")
        tools.addActions(list(self._tool_actions.values()))
        toolbar = self.window.addToolBar("Tools")
        toolbar.setObjectName("toolsToolBar")
        toolbar.addActions(list(self._tool_actions.values()))
        toolbar.addSeparator()
        toolbar.addAction(self.snap_action)
        toolbar.addAction(self.sight_action)
        return tools, toolbar

    # -- document ------------------------------------------------------------

    def set_document(
        self,
        document: Document,
        scene: BattlefieldScene,
        issues: list[TableIssue] | None = None,
        sight_index: TerrainIndex | None = None,
    ) -> None:
        """Point the tools and actions at another open document (``issues`` and
        ``sight_index``: its checks and sight index, made beforehand in a worker)."""
        if self.manager is not None:
            self.manager.detach()
        if self.sight is not None:
            self.sight.close()
        if self.markers is not None:
            self.markers.close()
        if self.document is not None:
            self.document.selection_changed.disconnect(self._show_selection)
            self.document.model_changed.disconnect(self._on_model_changed)
            self.document.undo_stack.canUndoChanged.disconnect(self.undo_action.setEnabled)
            self.document.undo_stack.canRedoChanged.disconnect(self.redo_action.setEnabled)
            self.document.undo_stack.undoTextChanged.disconnect(self._undo_text)
            self.document.undo_stack.redoTextChanged.disconnect(self._redo_text)
        self.document = document
        self.scene = scene
        ctx = EditorContext(document, scene, self.view, self.snapping, show_message=self._message)
        self.manager = ToolManager(ctx, self)
        self.manager.add("select", SelectTool(ctx))
        self.manager.add("vertex", VertexTool(ctx))
        for key, kind in (
            ("woods", TerrainKind.WOODS),
            ("hill", TerrainKind.HILL),
            ("wooded_hill", TerrainKind.WOODED_HILL),
            ("impassable", TerrainKind.IMPASSABLE),
            ("cover", TerrainKind.COVER),
        ):
            shortcut = self._tool_actions[key].shortcut().toString()
            self.manager.add(key, DrawTerrainTool(ctx, kind, shortcut))
        self.manager.add("building", BuildingTool(ctx))
        self.manager.add("crest", CrestTool(ctx))
        self.manager.add("measure", MeasureTool(ctx))
        self.manager.add("los", LosProbeTool(ctx))
        self.manager.context_menu = self._show_canvas_menu
        self.outline = SelectionOutline()
        scene.addItem(self.outline)
        self.sight = SightOverlay(document, scene, sight_index)
        self.markers = IssueMarkers(document, scene, issues)
        self.sight.set_enabled(self.sight_action.isChecked())
        stack = document.undo_stack
        stack.canUndoChanged.connect(self.undo_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_action.setEnabled)
        stack.undoTextChanged.connect(self._undo_text)
        stack.redoTextChanged.connect(self._redo_text)
        self.undo_action.setEnabled(stack.canUndo())
        self.redo_action.setEnabled(stack.canRedo())
        self._undo_text(stack.undoText())
        self._redo_text(stack.redoText())
        document.selection_changed.connect(self._show_selection)
        document.model_changed.connect(self._on_model_changed)
        self.set_tool(self._tool_key)

    def _undo_text(self, text: str) -> None:
        self.undo_action.setText(f"&Undo {text}" if text else "&Undo")

    def _redo_text(self, text: str) -> None:
        self.redo_action.setText(f"&Redo {text}" if text else "&Redo")

    def _stack_call(self, name: str) -> None:
        if self.manager is not None and self.manager.current is not None:
            self.manager.current.cancel()
        if self.document is not None:
            getattr(self.document.undo_stack, name)()

    def _message(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 5000)

    def _show_selection(self) -> None:
        if self.outline is not None and self.document is not None:
            self.outline.show_selection(self.document)

    def _on_model_changed(self, _change: Change) -> None:
        self._show_selection()

    # -- tools -------------------------------------------------------------------

    @property
    def tool(self) -> Tool | None:
        return self.manager.current if self.manager else None

    def set_tool(self, key: str) -> None:
        self._tool_key = key
        self._tool_actions[key].setChecked(True)
        if self.manager is not None:
            self.manager.set_current(key)
        # only a drawing tool takes 1-4; otherwise the digits stay free for others
        for action in self.shape_actions:
            action.setEnabled(isinstance(self.tool, ShapeTool))

    def set_shape_mode(self, mode: Any) -> None:
        """Polygon, freehand, rectangle or ellipse for the current drawing tool (1-4)."""
        tool = self.tool
        if isinstance(tool, ShapeTool) and mode in tool.modes:
            tool.set_mode(mode)
            self._message(f"{tool.name}: draw as {mode.value}")

    # -- the canvas's context menu --------------------------------------------------

    def _item_at(self, pos: QPointF) -> str | None:
        """The figure under a table point, else the topmost feature there, else None."""
        assert self.document is not None
        bf = self.document.battlefield
        for figure in bf.figures():
            if (figure.x - pos.x()) ** 2 + (figure.y - pos.y()) ** 2 <= figure.radius**2:
                return figure.id
        features = bf.features_at(pos.x(), pos.y())
        return features[-1].id if features else None

    def canvas_menu(self, pos: QPointF) -> QMenu:
        """Add figure here, Delete, Duplicate, Rotate, Move to force: what a right-click offers."""
        doc = self.document
        assert doc is not None
        bf = doc.battlefield
        hit = self._item_at(pos)
        if hit is not None and hit not in doc.selection:
            doc.set_selection([hit])
        elif hit is None and doc.selection:
            doc.set_selection([])
        menu = QMenu(self.view)
        add = menu.addMenu("Add Figure Here")
        add.setEnabled(bool(bf.forces))
        for force in bf.forces:
            sub = add.addMenu(force.name)
            for template in templates_for(force):
                action = sub.addAction(f"{template.label} ({template.details})")
                action.triggered.connect(
                    lambda _c=False, f=force.id, t=template: self.add_figure_at(
                        f, t.to_json(), pos.x(), pos.y()
                    )
                )
        if doc.selection:
            menu.addSeparator()
            menu.addActions([self.duplicate_action, self.rotate_action, self.delete_action])
            figures = [i for i in doc.selection if i in bf.figure_ids()]
            if figures:
                move = menu.addMenu("Move to Force")
                for force in bf.forces:
                    action = move.addAction(force.name)
                    action.triggered.connect(
                        lambda _c=False, f=force.id, ids=tuple(figures): self.move_to_force(
                            list(ids), f
                        )
                    )
        return menu

    def _show_canvas_menu(self, pos: QPointF, global_pos: QPoint) -> None:
        if self.document is not None:
            # popup, not exec: no nested event loop while the menu is open
            self.last_menu = self.canvas_menu(pos)
            self.last_menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.last_menu.popup(global_pos)

    def add_figure_at(self, force_id: str, template: dict[str, Any], x: float, y: float) -> None:
        """Add a figure from a roster template at a table point (one undo step)."""
        doc = self.document
        assert doc is not None
        made = figure_from_mime(figure_mime(force_id, template), doc.battlefield, x, y)
        if made is None:
            return
        force, figure = made
        doc.undo_stack.push(AddFigureCommand(doc, force, figure))
        doc.set_selection([figure.id])

    def move_to_force(self, ids: list[str], force_id: str) -> None:
        doc = self.document
        assert doc is not None
        bf = doc.battlefield
        moving = [i for i in ids if bf.figure(i).side != force_id]
        if not moving:
            return
        doc.undo_stack.beginMacro(f"Move {len(moving)} Figures to {bf.force(force_id).name}")
        for i in moving:
            doc.undo_stack.push(ChangeForceCommand(doc, i, force_id))
        doc.undo_stack.endMacro()

    def _toggle_sight(self) -> None:
        if self.sight is not None:
            self.sight.set_enabled(self.sight_action.isChecked())

    def _toggle_snap(self) -> None:
        self.snapping = SnapSettings(enabled=self.snap_action.isChecked())
        if self.manager is not None:
            self.manager.ctx.snapping = self.snapping

    # -- edit actions --------------------------------------------------------------

    def _items_mime(self) -> dict[str, Any]:
        assert self.document is not None
        bf = self.document.battlefield
        selected = set(self.document.selection)
        return {
            "features": [scenario_io.feature_to_dict(f) for f in bf.terrain if f.id in selected],
            "figures": [
                {"force": f.side, "figure": scenario_io.figure_to_dict(f)}
                for f in bf.figures()
                if f.id in selected
            ],
        }

    def copy(self) -> None:
        if self.document is None or not self.document.selection:
            return
        mime = QMimeData()
        mime.setData(CLIPBOARD_MIME, json.dumps(self._items_mime()).encode("utf-8"))
        QApplication.clipboard().setMimeData(mime)
        _clear_clipboard_at_exit()

    def cut(self) -> None:
        if self.document is None or not self.document.selection:
            return
        self.copy()
        stack = self.document.undo_stack
        stack.beginMacro("Cut")
        stack.push(RemoveItemsCommand(self.document, self.document.selection))
        stack.endMacro()

    def paste(self) -> None:
        mime = QApplication.clipboard().mimeData()
        if self.document is None or mime is None or not mime.hasFormat(CLIPBOARD_MIME):
            return
        try:
            data = json.loads(bytes(mime.data(CLIPBOARD_MIME).data()).decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            self._message("The clipboard does not hold crdesk items")
            return
        self._paste_items(data, "Paste")

    def duplicate(self) -> None:
        if self.document is not None and self.document.selection:
            self._paste_items(self._items_mime(), "Duplicate")

    def _paste_items(self, data: dict[str, Any], text: str) -> None:
        doc = self.document
        assert doc is not None
        bf = doc.battlefield
        stack = doc.undo_stack
        new_ids: list[str] = []
        try:
            features = [scenario_io.feature_from_dict(d) for d in data.get("features", [])]
            figures = [
                (entry.get("force"), scenario_io.figure_from_dict(entry["figure"]))
                for entry in data.get("figures", [])
            ]
        except (ScenarioError, KeyError, TypeError, AttributeError) as exc:
            self._message(f"Cannot paste: {exc}")
            return
        if not features and not figures:
            return
        forces = {f.id for f in bf.forces}
        fallback = bf.player_force() or (bf.forces[0] if bf.forces else None)
        if figures and fallback is None:
            self._message("Add a force before pasting figures")
            figures = []
        stack.beginMacro(text)
        for feature in features:
            feature.id = bf.new_id(feature.kind.value.replace("_", "-"))
            for name, value in translated(feature, PASTE_OFFSET, PASTE_OFFSET).items():
                setattr(feature, name, value)
            stack.push(AddFeatureCommand(doc, feature))
            new_ids.append(feature.id)
        for force_id, figure in figures:
            figure.id = bf.new_id(force_id or "figure")
            figure.x += PASTE_OFFSET
            figure.y += PASTE_OFFSET
            target = force_id if force_id in forces else fallback.id  # type: ignore[union-attr]
            stack.push(AddFigureCommand(doc, target, figure))
            new_ids.append(figure.id)
        stack.endMacro()
        doc.set_selection(new_ids)

    def delete(self) -> None:
        if self.document is not None and self.document.selection:
            self.document.undo_stack.push(
                RemoveItemsCommand(self.document, self.document.selection)
            )

    def select_all(self) -> None:
        if self.document is None:
            return
        bf = self.document.battlefield
        self.document.set_selection([f.id for f in bf.terrain] + [f.id for f in bf.figures()])

    def rotate(self, degrees: float) -> None:
        if self.manager is None:
            return
        tool = self.manager.tools["select"]
        assert isinstance(tool, SelectTool)
        tool.rotate_selection(degrees)
