"""The player deploys the Band before the encounter starts (12.1.4, 12.2, 12.3).

"Move your patrol onto section 7, 8, or 9, or any combination of those sections if
you choose to split your Band" (12.1.4); Defend: "set up anywhere in sections 7-9"
(12.3).  Before the PEFs are placed (11) and the first turn starts, the table shows
the zone the encounter allows (highlighted) with the Band standing where the program
would put it; the player drags figures within it.  A drop the rules refuse snaps
back with the reason (:func:`crdesk.game.deployment.placement_problem`); "Deploy for
me" puts every figure back where the program would, "Deploy as before" where the
player put this Band the last time.  "Start encounter" checks the whole deployment
(:func:`~crdesk.game.deployment.deploy_at`) and hands the scenario on; the game is
built from it, so the deployment is in the game file like the rest of the table.
No rule lives here: the zone and every check are the core's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from PySide6.QtCore import QEvent, QObject, QPointF, QSettings, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence, QMouseEvent, QPen, QShortcut
from PySide6.QtWidgets import (
    QDockWidget,
    QGraphicsEllipseItem,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import CrdeskError
from crdesk.game.deployment import (
    deploy_at,
    deployment_zone,
    placement_problem,
    player_force_id,
    player_places,
)
from crdesk.game.encounter import encounter_name
from crdesk.model import EncounterType, Force, Scenario
from ui.event_guard import guarded_filter
from ui.play.move_tool import figure_under
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene
from ui.scene.shapes import polygon_path
from ui.scene.view import BattlefieldView

PLACES_KEY = "deploy/{band}"
"""QSettings key of where the player last deployed a Band ("Deploy as before")."""
ZONE_FILL = QColor(80, 200, 120, 70)
ZONE_EDGE = QColor(40, 150, 80, 200)

Places = dict[str, tuple[float, float]]


def remembered_places(band_id: str) -> Places:
    """Where the player put this Band the last time (empty when never, or unreadable)."""
    raw = QSettings().value(PLACES_KEY.format(band=band_id), "")
    try:
        data = json.loads(str(raw)) if raw else {}
        return {
            str(fid): (float(xy[0]), float(xy[1]))
            for fid, xy in data.items()
            if isinstance(xy, list) and len(xy) == 2
        }
    except (ValueError, TypeError, AttributeError):
        return {}


def remember_places(band_id: str, places: Mapping[str, tuple[float, float]]) -> None:
    QSettings().setValue(
        PLACES_KEY.format(band=band_id),
        json.dumps({fid: [round(x, 3), round(y, 3)] for fid, (x, y) in places.items()}),
    )


class DeployDock(QDockWidget):
    """What the player is asked, what is wrong, and the deployment's buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Deploy", parent)
        self.setObjectName("deployDock")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 8, 8, 8)
        self.head = QLabel()
        self.head.setWordWrap(True)
        self.head.setObjectName("deployHead")
        layout.addWidget(self.head)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setObjectName("deployProblem")
        self.problem.setStyleSheet("QLabel { color: #b3261e; }")
        layout.addWidget(self.problem)
        row = QHBoxLayout()
        self.auto_button = QPushButton("Deploy for &me")
        self.auto_button.setToolTip("Every figure where the program places it (12)")
        self.before_button = QPushButton("Deploy as &before")
        self.undo_button = QPushButton("&Undo")
        self.undo_button.setToolTip("Put back the last figure moved (Ctrl+Z)")
        row.addWidget(self.auto_button)
        row.addWidget(self.before_button)
        row.addWidget(self.undo_button)
        layout.addLayout(row)
        row = QHBoxLayout()
        self.start_button = QPushButton("&Start encounter")
        self.start_button.setObjectName("deployStart")
        self.start_button.setDefault(True)
        self.start_button.setToolTip(
            "Check the deployment, place the PEFs (11) and start the first turn"
        )
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Back to the editor; nothing is started")
        row.addWidget(self.start_button)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        layout.addStretch(1)
        self.setWidget(body)
        self.setMinimumWidth(300)


class DeploymentStep(QObject):
    """The deployment on the table: the zone drawn, the Band's figures draggable in it.

    ``bare``: the table before the player's force stands on it; ``force``: the figures
    to deploy; ``auto``: the scenario as the program deploys them (where they start
    and what "Deploy for me" restores).  ``done`` carries the deployed scenario.
    """

    done = Signal(object)
    cancelled = Signal()

    def __init__(
        self,
        view: BattlefieldView,
        dock: DeployDock,
        bare: Scenario,
        force: Force,
        kind: EncounterType,
        auto: Scenario,
        *,
        band_id: str = "",
        show_message: Callable[[str], None] = lambda _text: None,
    ) -> None:
        super().__init__(view)
        self.view = view
        self.dock = dock
        self.bare = bare
        self.force = force
        self.kind = kind
        self.band_id = band_id
        self.show_message = show_message
        self.auto_places = player_places(auto)
        self.working = auto.battlefield.copy()
        """The table as the player is setting it up (the scene shows it)."""
        self.me = player_force_id(auto)
        self.movable = {f.id for f in force.figures}
        self.scene = BattlefieldScene(self.working, parent=view)
        self.zone = QGraphicsPathItem(polygon_path(deployment_zone(bare, kind)))
        self.zone.setBrush(QBrush(ZONE_FILL))
        pen = QPen(ZONE_EDGE, 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        self.zone.setPen(pen)
        self.zone.setZValue(Layer.FIGURES - 1)
        self.zone.setToolTip(self._zone_words())
        self.scene.addItem(self.zone)
        self._ring = QGraphicsEllipseItem()
        self._ring.setZValue(Layer.TOOLS)
        self._ring.hide()
        self.scene.addItem(self._ring)
        self._dragged: str | None = None
        self._origin = QPointF()
        self._grip = QPointF()
        self.undo_stack: list[Places] = []
        self.last_problem: str | None = None
        view.setScene(self.scene)
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        dock.auto_button.clicked.connect(self.deploy_for_me)
        dock.before_button.clicked.connect(self.deploy_as_before)
        dock.undo_button.clicked.connect(self.undo)
        dock.start_button.clicked.connect(self.finish)
        dock.cancel_button.clicked.connect(self.cancel)
        self._undo_key = QShortcut(QKeySequence.StandardKey.Undo, view)
        self._undo_key.activated.connect(self.undo)
        names = ", ".join(f.name for f in force.figures)
        dock.head.setText(
            f"<b>Deploy for the {encounter_name(kind)}</b> ({self._section()})<br>"
            f"{self._zone_words()}<br>Drag {names} within the green zone, then "
            "<b>Start encounter</b>: the PEFs are placed (11) and the first turn begins."
            f"{self._building_words()}"
        )
        self.before = remembered_places(band_id) if band_id else {}
        dock.before_button.setEnabled(bool(self.before))
        dock.before_button.setToolTip(
            "Every figure where you put this Band the last time (where the table allows)"
            if self.before
            else "You have not deployed this Band before"
        )
        self._refresh()
        dock.show()
        dock.raise_()

    def _section(self) -> str:
        return "12.3" if self.kind is EncounterType.DEFEND else "12.1.4, 12.2"

    def _building_words(self) -> str:
        """What the buildings will do when the encounter starts (11.1, as the options say)."""
        rules = self.bare.rules.interpretations
        if not rules.pef_buildings:
            return ""
        words = (
            '<br><small>A figure that starts within 12" of a building it can see resolves '
            "the PEF inside it at once (11.1)"
        )
        if self.kind is EncounterType.DEFEND and rules.pef_buildings_held_at_set_up:
            words += "; a building a figure sets up in is held by the Band: no PEF in it"
        return words + ".</small>"

    def _zone_words(self) -> str:
        if self.kind is EncounterType.DEFEND:
            return "Set up anywhere in sections 7-9, inside buildings too (12.3)."
        return (
            "Enter by the player's edge of sections 7, 8 or 9, split as you choose (12.1.4): "
            'each base within 3" of that edge.'
        )

    # -- the figures -------------------------------------------------------------------

    def places(self) -> Places:
        """Where the player's figures stand now."""
        return {f.id: (f.x, f.y) for f in self.working.force(self.me).figures}

    def _others(self, fid: str) -> list:  # type: ignore[type-arg]
        return [f for f in self.working.figures() if f.id != fid and f.status.can_act]

    def problem(self, fid: str, x: float, y: float) -> str | None:
        """Why ``fid`` may not stand at (x, y) among the figures standing now, or None."""
        fig = self.working.figure(fid)
        return placement_problem(self.bare, self.kind, fig, (x, y), self._others(fid))

    def place(self, fid: str, x: float, y: float) -> str | None:
        """Put ``fid`` at (x, y) if the rules allow; else the reason (nothing moves)."""
        why = self.problem(fid, x, y)
        if why is None:
            self.undo_stack.append(self.places())
            self.working.update_figure(fid, x=round(x, 3), y=round(y, 3))
        self.last_problem = why
        self._refresh(why)
        return why

    def _set_all(self, places: Mapping[str, tuple[float, float]]) -> None:
        changes = {
            fid: {"x": xy[0], "y": xy[1]} for fid, xy in places.items() if fid in self.movable
        }
        if changes:
            self.working.update_figures(changes)

    def deploy_for_me(self) -> None:
        self.undo_stack.append(self.places())
        self._set_all(self.auto_places)
        self.show_message("Every figure where the program deploys it")
        self._refresh()

    def deploy_as_before(self) -> None:
        """Last time's places, each where the rules allow it on this table; the others
        stay where they are (and say so)."""
        self.undo_stack.append(self.places())
        kept: list[str] = []
        for fid, (x, y) in self.before.items():
            if fid not in self.movable:
                continue
            if self.problem(fid, x, y) is None:
                self.working.update_figure(fid, x=x, y=y)
            else:
                kept.append(self.working.figure(fid).name)
        self._refresh()
        if kept:
            self.show_message(
                f"As before, except {', '.join(kept)}: their old places are not free on "
                "this table, so they stay where they were"
            )
        else:
            self.show_message("Every figure where you put this Band the last time")

    def undo(self) -> None:
        if self.undo_stack:
            self._set_all(self.undo_stack.pop())
            self._refresh()

    def finish(self) -> Scenario | None:
        """Check the whole deployment and hand the scenario on (None: refused, and why)."""
        places = self.places()
        try:
            deployed = deploy_at(self.bare, self.force, self.kind, places)
        except CrdeskError as exc:
            self._refresh(str(exc))
            return None
        if self.band_id:
            remember_places(self.band_id, places)
        self.done.emit(deployed)
        return deployed

    def cancel(self) -> None:
        self.cancelled.emit()

    def detach(self) -> None:
        """Stop listening to the view; the owner puts its own scene back."""
        self.view.viewport().removeEventFilter(self)
        self.view.removeEventFilter(self)
        self._undo_key.setEnabled(False)
        self._undo_key.deleteLater()
        for button, slot in (
            (self.dock.auto_button, self.deploy_for_me),
            (self.dock.before_button, self.deploy_as_before),
            (self.dock.undo_button, self.undo),
            (self.dock.start_button, self.finish),
            (self.dock.cancel_button, self.cancel),
        ):
            button.clicked.disconnect(slot)
        self.dock.hide()
        self.scene.detach()
        self.scene.deleteLater()

    def _refresh(self, why: str | None = None) -> None:
        self.dock.undo_button.setEnabled(bool(self.undo_stack))
        self.dock.problem.setText(why or "")

    # -- the mouse ---------------------------------------------------------------------

    def _pick(self, pos: QPointF) -> str | None:
        return figure_under((self.working.figure(f) for f in self.movable), pos, self.view)

    @guarded_filter
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            if (
                kind == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape
                and self._dragged is not None
            ):
                self._drop(None)
                return True
            return False
        if not isinstance(event, QMouseEvent) or getattr(self.view, "_space_held", False):
            return False
        pos = self.view.mapToScene(event.position().toPoint())
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            fid = self._pick(pos)
            if fid is None:
                return False
            item = self.scene.figure_item(fid)
            self._dragged = fid
            self._origin = item.pos() if item is not None else pos
            self._grip = pos - self._origin
            return True
        if kind == QEvent.Type.MouseMove and self._dragged is not None:
            spot = pos - self._grip
            item = self.scene.figure_item(self._dragged)
            if item is not None:
                item.setPos(spot)
            why = self.problem(self._dragged, spot.x(), spot.y())
            self._show_ring(self._dragged, spot, why is None)
            self.dock.problem.setText(why or "")
            return True
        if (
            kind == QEvent.Type.MouseButtonRelease
            and event.button() == Qt.MouseButton.LeftButton
            and self._dragged is not None
        ):
            self._drop(pos - self._grip)
            return True
        return False

    def _show_ring(self, fid: str, spot: QPointF, ok: bool) -> None:
        r = self.working.figure(fid).radius * 1.25
        self._ring.setRect(spot.x() - r, spot.y() - r, 2 * r, 2 * r)
        pen = QPen(QColor("#2e9e4f") if ok else QColor("#c62828"), 0)
        pen.setCosmetic(True)
        pen.setWidthF(2.5)
        self._ring.setPen(pen)
        self._ring.show()

    def _drop(self, spot: QPointF | None) -> None:
        fid, self._dragged = self._dragged, None
        self._ring.hide()
        if fid is None:
            return
        item = self.scene.figure_item(fid)
        if spot is None:  # Escape: back where it was
            if item is not None:
                item.sync_from_model()
            self._refresh()
            return
        why = self.place(fid, spot.x(), spot.y())
        if why is not None:
            if item is not None:
                item.sync_from_model()
            self.show_message(f"{self.working.figure(fid).name} not placed: {why}")
