"""The view onto a battlefield scene: zoom around the cursor, pan, fit to the table.

Navigation lives here, not in the editor tools of issue 6, so that every tool
gets the same wheel zoom, space-drag and middle-drag pan for free; the view
hands every other mouse event on to the scene untouched.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import (
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPixmapCache,
    QResizeEvent,
    QShowEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QFrame, QGraphicsScene, QGraphicsView, QWidget

from crdesk.events import Change, ChangeKind
from ui.scene.scene import BattlefieldScene

ZOOM_STEP = 1.25
"""Scale factor of one zoom step (one wheel notch, Ctrl++ or Ctrl+-)."""
MIN_PPI = 2.0
MAX_PPI = 600.0
"""Zoom limits in screen pixels per table inch."""
FIT_MARGIN = 1.5
"""Inches shown around the table on fit, enough for the wooden frame and labels."""
PIXMAP_CACHE_KB = 64 * 1024
"""Figures cache themselves as device pixmaps in QPixmapCache; Qt's default 10 MB
is tight for a few hundred figures zoomed in.  (Terrain is cached by the
scene's ground layer, outside QPixmapCache.)"""


class BattlefieldView(QGraphicsView):
    """A ``QGraphicsView`` tuned for a table measured in inches.

    Antialiased; wheel zoom keeps the point under the cursor still; middle-drag
    or space+drag pans; until the user zooms, the table stays fitted to the
    window as it is resized.
    """

    pointer_moved = Signal(QPointF)
    """The pointer's position in table inches, on every move over the viewport."""
    pointer_left = Signal()
    """The pointer left the viewport."""
    zoom_changed = Signal(float)
    """New zoom, in screen pixels per inch."""

    def __init__(self, scene: QGraphicsScene | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
            | QPainter.RenderHint.TextAntialiasing
        )
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if QPixmapCache.cacheLimit() < PIXMAP_CACHE_KB:
            QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
        self._auto_fit = True
        self._pan_from: QPoint | None = None
        self._space_held = False
        if scene is not None:
            self.setScene(scene)

    # -- scene --------------------------------------------------------------

    def battlefield_scene(self) -> BattlefieldScene | None:
        scene = self.scene()
        return scene if isinstance(scene, BattlefieldScene) else None

    def setScene(self, scene: QGraphicsScene | None) -> None:
        """Show another scene, with its backdrop colour, fitted to the window."""
        old = self.scene()
        if isinstance(old, BattlefieldScene):
            old.model_synced.disconnect(self._model_synced)
        super().setScene(scene)
        if isinstance(scene, BattlefieldScene):
            self.setBackgroundBrush(scene.table_style.backdrop)
            scene.model_synced.connect(self._model_synced)
        self._auto_fit = True
        self.fit_table()

    def _model_synced(self, change: Change) -> None:
        """A reset may have resized the table: refit, or at least re-bound the scrolling."""
        if change.kind is ChangeKind.RESET:
            if self._auto_fit:
                self.fit_table()
            else:
                self._update_scene_rect()

    # -- zoom ---------------------------------------------------------------

    def pixels_per_inch(self) -> float:
        """Current zoom: screen pixels per table inch."""
        return float(self.transform().m11())

    def set_pixels_per_inch(self, ppi: float) -> None:
        """Zoom to an absolute scale (clamped), keeping the anchor point still."""
        ppi = max(MIN_PPI, min(MAX_PPI, ppi))
        factor = ppi / self.pixels_per_inch()
        if abs(factor - 1.0) > 1e-9:
            self.scale(factor, factor)
            self.zoom_changed.emit(self.pixels_per_inch())

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        """Zoom by a factor keeping the table point under ``anchor`` (viewport pixels) still.

        The wheel passes the cursor position; keyboard zoom passes None, meaning
        the centre of the view.  Done by hand rather than with Qt's
        AnchorUnderMouse, which uses the last *move* position, not the wheel's.
        """
        self._auto_fit = False
        scene = self.battlefield_scene()
        if scene is not None:
            scene.ground.zooming()  # scale the cached terrain now, sharpen it once zooming stops
        if anchor is None:
            anchor = self.viewport().rect().center()
        fixed = self.mapToScene(anchor)
        self.set_pixels_per_inch(self.pixels_per_inch() * factor)
        self._update_scene_rect()
        drift = self.mapFromScene(fixed) - anchor
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / ZOOM_STEP)

    def fit_table(self) -> None:
        """Show the whole table with its frame; stays fitted on resize until a zoom."""
        scene = self.battlefield_scene()
        if scene is None:
            return
        m = FIT_MARGIN
        # the scrollable area first: a zoomed view's (table and half a viewport round it)
        # would outlast the fit, and its scrollbars, shown and hidden as each fit changes
        # the viewport, refit the view for ever (the monkey's stall, seed 123)
        self._auto_fit = True
        self._update_scene_rect()
        self.fitInView(
            scene.table_rect().adjusted(-m, -m, m, m), Qt.AspectRatioMode.KeepAspectRatio
        )
        self.zoom_changed.emit(self.pixels_per_inch())

    def _update_scene_rect(self) -> None:
        """Let the user scroll a table edge to the middle of the view once zoomed in.

        Fitted, the scrollable area is just the table and its frame (no
        scrollbars); zoomed, it grows by half a viewport on each side so that
        zooming around a point near an edge can keep that point still.
        """
        scene = self.battlefield_scene()
        if scene is None:
            return
        ppi = self.pixels_per_inch()
        mx = max(FIT_MARGIN, self.viewport().width() / ppi / 2)
        my = max(FIT_MARGIN, self.viewport().height() / ppi / 2)
        if self._auto_fit:
            mx = my = FIT_MARGIN
        self.setSceneRect(scene.table_rect().adjusted(-mx, -my, mx, my))

    def is_fitted(self) -> bool:
        """Whether the view is following the window size (no manual zoom since fit)."""
        return self._auto_fit

    # -- events -------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._auto_fit:
            self.fit_table()
        else:
            self._update_scene_rect()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._auto_fit:
            self.fit_table()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            super().wheelEvent(event)
            return
        self.zoom_by(ZOOM_STEP**steps, event.position().toPoint())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.pointer_moved.emit(self.mapToScene(event.position().toPoint()))
        if self._pan_from is not None:
            now = event.position().toPoint()
            delta = now - self._pan_from
            self._pan_from = now
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton and self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self.pointer_left.emit()
        super().leaveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = True
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            self.setDragMode(QGraphicsView.DragMode.NoDrag)
            event.accept()
            return
        super().keyReleaseEvent(event)
