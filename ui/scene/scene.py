"""The battlefield scene: a projection of one :class:`~crdesk.model.Battlefield`.

The scene subscribes to the model's change events and adds, removes or
re-syncs only the item the event names (STYLE 5).  It never computes rules and
never changes the model; issue 6's tools and undo commands do that, and the
scene simply follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRectF, Signal
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from crdesk.events import Change, ChangeKind
from crdesk.model import Battlefield
from ui.scene.ground import GroundLayer
from ui.scene.items import (
    FigureItem,
    FigureNote,
    TableItem,
    TerrainItem,
    TerrainLook,
    cloth_image,
    make_look,
    terrain_z,
)
from ui.scene.overlays import GridOverlay, SectionOverlay
from ui.scene.style import DEFAULT_STYLE, TableStyle

SCENE_MARGIN = 1.5
"""Inches of room around the table, so the frame and edge labels are never cut off."""

ITEMS_PER_STEP = 8
"""Items :meth:`BattlefieldScene.populate_steps` adds between two yields."""


@dataclass
class PreparedDrawing:
    """What a scene draws, made in a worker thread before the scene (see :func:`prepare`).

    The looks hold QPainterPaths and GEOS results only (no QObject), so a file
    at the limits -- a thousand features, seconds of buffering, hatching and
    scattering -- is prepared off the GUI thread; the scene then only creates
    its items, which Qt requires on the GUI thread.
    """

    looks: dict[str, TerrainLook] = field(default_factory=dict)


def warm_up_text(battlefield: Battlefield, style: TableStyle | None = None) -> None:
    """Make on the GUI thread the text paths :func:`prepare` would (QFont belongs to the
    GUI thread; the looks then find every label in the text cache)."""
    from crdesk.model import Building
    from ui.scene.shapes import text_path

    style = style or DEFAULT_STYLE
    for floors in {f.floors for f in battlefield.terrain if isinstance(f, Building)}:
        text_path(f"{floors}F", 0.3, style.font_family)


def prepare(
    battlefield: Battlefield,
    style: TableStyle | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PreparedDrawing:
    """Every feature's look and the table's cloth, in any thread (call
    :func:`warm_up_text` on the GUI thread first).  ``progress(done, total)`` is
    told now and then (and may raise to cancel)."""
    style = style or DEFAULT_STYLE
    cloth_image(battlefield.table, style)
    terrain = battlefield.terrain
    out = PreparedDrawing()
    for n, feature in enumerate(terrain):
        if progress is not None and n % 10 == 0:
            progress(n, len(terrain))
        out.looks[feature.id] = make_look(feature, style)
    return out


class BattlefieldScene(QGraphicsScene):
    """One scene per open battlefield; 1 scene unit is 1 inch of table.

    Drawing in inches keeps the items' code in the game's units, makes printing
    at true scale trivial (issue 5), and pens are given in inches too, so lines
    scale with the table like painted terrain would.
    """

    model_synced = Signal(object)
    """Emitted with the :class:`~crdesk.events.Change` once the items follow it."""

    def __init__(
        self,
        battlefield: Battlefield,
        style: TableStyle | None = None,
        parent: QObject | None = None,
        *,
        prepared: PreparedDrawing | None = None,
        populate: bool = True,
    ) -> None:
        """``prepared``: the drawing made beforehand (:func:`prepare`).  ``populate``
        False leaves the terrain and figures to :meth:`populate_steps` (in batches,
        the event loop running between them: a file at the limits)."""
        super().__init__(parent)
        self.battlefield = battlefield
        self.table_style = style or DEFAULT_STYLE
        """Colours of the table (not ``style()``, which is Qt's widget style)."""
        self._features: dict[str, TerrainItem] = {}
        self._figures: dict[str, FigureItem] = {}
        self.table_item = TableItem(battlefield.table, self.table_style)
        self.section_overlay = SectionOverlay(battlefield.table, self.table_style)
        self.grid_overlay = GridOverlay(battlefield.table, self.table_style)
        self.grid_overlay.setVisible(False)
        overlays = (self.section_overlay, self.section_overlay.numbers, self.grid_overlay)
        self.ground = GroundLayer()
        """Paints the table, terrain and overlays above from cached tiles (ground.py)."""
        self.addItem(self.ground)
        for item in (self.table_item, *overlays):
            self.addItem(item)
            self.ground.add(item)
        self._prepared = prepared
        self.figure_note: FigureNote | None = None
        """Said of a figure's facing in its tooltip, asked on hover (the play mode's)."""
        if populate:
            for _ in self.populate_steps():
                pass
        self._unsubscribe: Callable[[], None] | None = battlefield.subscribe(self._on_change)

    # -- queries ------------------------------------------------------------

    def table_rect(self) -> QRectF:
        """The table in scene coordinates (inches, origin at the far-left corner)."""
        return QRectF(0, 0, self.battlefield.table.width, self.battlefield.table.height)

    def feature_item(self, feature_id: str) -> TerrainItem | None:
        return self._features.get(feature_id)

    def figure_item(self, figure_id: str) -> FigureItem | None:
        return self._figures.get(figure_id)

    def terrain_items(self) -> list[TerrainItem]:
        return list(self._features.values())

    def figure_items(self) -> list[FigureItem]:
        return list(self._figures.values())

    def model_item(self, model_id: str) -> QGraphicsItem | None:
        """The item showing a feature or a figure, by model id."""
        return self._features.get(model_id) or self._figures.get(model_id)

    # -- overlays -------------------------------------------------------------

    def sections_visible(self) -> bool:
        return self.section_overlay.isVisible()

    def set_sections_visible(self, visible: bool) -> None:
        self.section_overlay.setVisible(visible)

    def grid_visible(self) -> bool:
        return self.grid_overlay.isVisible()

    def set_grid_visible(self, visible: bool) -> None:
        self.grid_overlay.setVisible(visible)

    def set_caching(self, enabled: bool) -> None:
        """Turn pixmap caches on or off: off while exporting, so SVG stays vector.

        Off, the ground layer stands aside and its members paint themselves.
        """
        mode = (
            QGraphicsItem.CacheMode.DeviceCoordinateCache
            if enabled
            else QGraphicsItem.CacheMode.NoCache
        )
        self.ground.set_active(enabled)
        members = set(map(id, self.ground.members()))
        for item in self.items():
            if item is not self.ground and id(item) not in members:
                item.setCacheMode(mode)

    # -- model following --------------------------------------------------------

    def detach(self) -> None:
        """Stop following the model (call before dropping the scene)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def rebuild(self) -> None:
        """Re-create every model item, e.g. after a reset or a table resize."""
        for item in [*self._features.values(), *self._figures.values()]:
            self.ground.remove(item)
            self.removeItem(item)
        self._features.clear()
        self._figures.clear()
        table = self.battlefield.table
        self.table_item.sync_from_model(table)
        self.section_overlay.sync_from_model(table)
        self.grid_overlay.sync_from_model(table)
        self._populate()

    def _populate(self) -> None:
        for _ in self.populate_steps():
            pass

    def populate_steps(self) -> Iterator[tuple[int, int]]:
        """Add the terrain and figure items a few at a time, yielding (done, total)
        between batches; the scene is complete when the iterator ends."""
        features = [f.id for f in self.battlefield.terrain]
        figures = self.battlefield.figure_ids()
        total = len(features) + len(figures)
        prepared = self._prepared.looks if self._prepared is not None else {}
        done = 0
        for feature_id in features:
            self._add_feature(feature_id, prepared.pop(feature_id, None))
            done += 1
            if done % ITEMS_PER_STEP == 0:
                yield done, total
        for figure_id in figures:
            self._add_figure(figure_id)
            done += 1
            if done % ITEMS_PER_STEP == 0:
                yield done, total
        self._prepared = None
        self._restack_terrain()
        self._update_scene_rect()
        yield total, total

    def _update_scene_rect(self) -> None:
        m = SCENE_MARGIN
        self.setSceneRect(self.table_rect().adjusted(-m, -m, m, m))
        self.ground.set_backdrop_area(self.sceneRect())

    def _on_change(self, change: Change) -> None:
        if change.kind is ChangeKind.RESET and change.what == "figures":
            self._force_changed(change)  # a restore: forces and figures, the terrain is kept
        elif change.kind is ChangeKind.RESET:
            self.rebuild()
        elif change.what == "feature":
            self._feature_changed(change)
        elif change.what == "figure":
            self._figure_changed(change)
        elif change.what == "figures":  # a batch of figure edits
            for figure_id in change.ids:
                if (item := self._figures.get(figure_id)) is not None:
                    item.sync_from_model()
        elif change.what == "force":
            self._force_changed(change)
        self.model_synced.emit(change)

    def _feature_changed(self, change: Change) -> None:
        if change.kind is ChangeKind.ADDED:
            self._add_feature(change.id)
            self._restack_terrain()
        elif change.kind is ChangeKind.REMOVED:
            item = self._features.pop(change.id, None)
            if item is not None:
                self.ground.remove(item)
                self.removeItem(item)
            self._restack_terrain()
        elif (item := self._features.get(change.id)) is not None:
            item.sync_from_model()
            z = terrain_z(item.kind, self._terrain_index(change.id))
            if z != item.zValue():
                item.setZValue(z)
                self.ground.restack()

    def _figure_changed(self, change: Change) -> None:
        if change.kind is ChangeKind.ADDED:
            self._add_figure(change.id)
        elif change.kind is ChangeKind.REMOVED:
            item = self._figures.pop(change.id, None)
            if item is not None:
                self.removeItem(item)
        elif (item := self._figures.get(change.id)) is not None:
            item.sync_from_model()

    def _force_changed(self, change: Change) -> None:
        """A force came, went or changed colour/name: bring its figures in line."""
        present = {f.id for f in self.battlefield.figures()}
        for figure_id in [i for i in self._figures if i not in present]:
            self.removeItem(self._figures.pop(figure_id))
        for figure_id in present:
            if figure_id in self._figures:
                self._figures[figure_id].sync_from_model()
            else:
                self._add_figure(figure_id)

    def _add_feature(self, feature_id: str, look: TerrainLook | None = None) -> None:
        item = TerrainItem(self.battlefield, feature_id, self.table_style, look)
        self._features[feature_id] = item
        self.addItem(item)
        self.ground.add(item)

    def _add_figure(self, figure_id: str) -> None:
        item = FigureItem(self.battlefield, figure_id, self.table_style)
        self._figures[figure_id] = item
        self.addItem(item)

    def _terrain_index(self, feature_id: str) -> int:
        return [f.id for f in self.battlefield.terrain].index(feature_id)

    def _restack_terrain(self) -> None:
        """Keep each feature on its kind's layer, in the model's drawing order."""
        changed = False
        for index, feature in enumerate(self.battlefield.terrain):
            item = self._features.get(feature.id)
            if item is not None and item.zValue() != (z := terrain_z(feature.kind, index)):
                item.setZValue(z)
                changed = True
        if changed:
            self.ground.restack()
