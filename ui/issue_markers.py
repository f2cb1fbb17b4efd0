"""Table problems flagged in place: a coloured outline and a "!" badge with the message.

The same checks as the Issues dock (crdesk.validation); the markers only show
them where they are.  Rechecked shortly after edits stop, never on every event.
"""

from __future__ import annotations

from contextlib import suppress

from PySide6.QtCore import QObject, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsSimpleTextItem

from crdesk.events import Change
from crdesk.validation import Severity, TableIssue, check_battlefield
from ui.background_checks import BackgroundChecks, checks_of
from ui.document import Document
from ui.plain_text import plain_tooltip
from ui.scene.scene import BattlefieldScene

MARKER_Z = 6_000.0
RECHECK_MS = 200
COLOURS = {Severity.ERROR: QColor(220, 40, 40), Severity.WARNING: QColor(240, 160, 0)}


class IssueMarkers(QObject):
    """Keeps one marker per table issue on the scene."""

    def __init__(
        self,
        document: Document,
        scene: BattlefieldScene,
        issues: list[TableIssue] | None = None,
    ) -> None:
        """``issues``: the document's checks made beforehand (a file being opened)."""
        super().__init__(scene)
        self.document = document
        self.scene = scene
        self.issues: list[TableIssue] = []
        self.markers: list[QGraphicsPathItem] = []
        self._listening: BackgroundChecks | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RECHECK_MS)
        self._timer.timeout.connect(self.refresh)
        document.model_changed.connect(self._schedule)
        self.refresh(issues)

    def close(self) -> None:
        self._timer.stop()
        if self._listening is not None:
            with suppress(RuntimeError, TypeError):  # the document may be gone already
                self._listening.checked.disconnect(self._checked)
            self._listening = None
        self.document.model_changed.disconnect(self._schedule)
        self._clear()

    def _schedule(self, _change: Change) -> None:
        self._timer.start()

    def _listen(self, checks: BackgroundChecks) -> None:
        if self._listening is None:
            checks.checked.connect(self._checked)
            self._listening = checks

    def _checked(self, revision: int) -> None:
        if self.document.battlefield.revision == revision:
            self.refresh(checks_of(self.document).result_for(revision))

    def _clear(self) -> None:
        for marker in self.markers:
            if marker.scene() is not None:
                marker.scene().removeItem(marker)
        self.markers = []

    def refresh(self, issues: list[TableIssue] | None = None) -> None:
        """Run the checks now (or take ``issues``, made elsewhere) and redraw every marker."""
        bf = self.document.battlefield
        checks = checks_of(self.document)
        if issues is None and checks.heavy:
            # a huge table: checked in the worker, the last markers shown meanwhile
            issues = checks.result_for(bf.revision)
            if issues is None:
                self._listen(checks)
                checks.request()
                return
        self._clear()
        self.issues = list(issues) if issues is not None else check_battlefield(bf)
        features = {f.id: f for f in bf.terrain}
        figures = {f.id: f for f in bf.figures()}
        by_item: dict[str, list[TableIssue]] = {}
        for issue in self.issues:
            by_item.setdefault(issue.item_id, []).append(issue)
        for item_id, issues in by_item.items():
            worst = (
                Severity.ERROR
                if any(i.severity is Severity.ERROR for i in issues)
                else Severity.WARNING
            )
            path = QPainterPath()
            if item_id in features:
                ring = list(features[item_id].outline.exterior.coords)
                path.moveTo(*ring[0])
                for x, y in ring[1:]:
                    path.lineTo(x, y)
                x0, y0 = ring[0]
            elif item_id in figures:
                fig = figures[item_id]
                r = fig.radius + 0.3
                path.addEllipse(QRectF(fig.x - r, fig.y - r, 2 * r, 2 * r))
                x0, y0 = fig.x + r, fig.y - r
            else:
                continue
            colour = COLOURS[worst]
            marker = QGraphicsPathItem(path)
            pen = QPen(colour, 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.5)
            pen.setStyle(Qt.PenStyle.DashDotLine)
            marker.setPen(pen)
            marker.setZValue(MARKER_Z)
            # the messages hold names: the user's text, shown as typed (issue 17)
            marker.setToolTip(plain_tooltip("\n".join(i.message for i in issues)))
            badge = QGraphicsSimpleTextItem("!", marker)
            font = QFont()
            font.setBold(True)
            font.setPointSizeF(12)
            badge.setFont(font)
            badge.setBrush(QBrush(colour))
            badge.setPos(x0, y0)
            badge.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
            badge.setToolTip(marker.toolTip())
            self.scene.addItem(marker)
            self.markers.append(marker)
