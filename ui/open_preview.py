"""File ▸ Open with a preview: the map of the highlighted scenario beside the file list.

Scenario files all look alike by name ("table.crdesk", "table2.crdesk"); a
look at the map tells them apart, as a thumbnail in the file manager does.
The preview is drawn by the same renderer as ``crdesk render``, from the file
loaded with the usual checks, shortly after the highlight settles (so arrowing
down a long folder does not load every file on the way).  Qt's own dialog is
used, not the system's, because only it can hold the preview.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import ScenarioError

PREVIEW_PIXELS = 240
"""The longest side of the map picture."""
MAX_PREVIEW_BYTES = 8 * 1024 * 1024
"""Larger files are not loaded just to preview them (opening them still works)."""
DELAY_MS = 120


class PreviewFileDialog(QFileDialog):
    """A Qt open-file dialog with a map and a one-line summary of the highlighted scenario."""

    def __init__(self, parent: QWidget | None, caption: str, folder: str, name_filter: str) -> None:
        super().__init__(parent, caption, folder, name_filter)
        self.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        self.setFileMode(QFileDialog.FileMode.ExistingFile)
        self.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(8, 0, 0, 0)
        self.picture = QLabel(box)
        self.picture.setFixedSize(PREVIEW_PIXELS + 8, PREVIEW_PIXELS + 8)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setObjectName("scenarioPreview")
        self.summary = QLabel(box)
        self.summary.setWordWrap(True)
        self.summary.setFixedWidth(PREVIEW_PIXELS + 8)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.picture)
        column.addWidget(self.summary, 1)
        grid = self.layout()
        if isinstance(grid, QGridLayout):  # Qt's dialog: file list left, preview right
            grid.addWidget(box, 0, grid.columnCount(), grid.rowCount(), 1)
        self.shown_path: Path | None = None
        self._pending: str = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(lambda: self.show_preview(self._pending))
        self.currentChanged.connect(self._highlighted)
        self.show_preview("")

    def _highlighted(self, path: str) -> None:
        self._pending = path
        self._timer.start()

    def show_preview(self, path: str | os.PathLike[str]) -> None:
        """Show the map and summary of ``path`` (or say why there is none)."""
        from crdesk.scenario import load
        from ui.render import RenderOptions, render_scene

        target = Path(path) if str(path) else None
        self.shown_path = target
        self.picture.clear()
        if target is None or not target.is_file() or target.suffix.lower() != ".crdesk":
            self.summary.setText("Highlight a scenario to see its map.")
            return
        try:
            if target.stat().st_size > MAX_PREVIEW_BYTES:
                self.summary.setText(f"{target.name}: too large to preview.")
                return
            scenario = load(target)
        except (ScenarioError, OSError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.summary.setText(f"No preview: {first}")
            return
        table = scenario.battlefield.table
        ppi = PREVIEW_PIXELS / max(table.width + 1.0, table.height + 1.0)
        try:
            image = render_scene(
                scenario.battlefield, RenderOptions(pixels_per_inch=ppi, sections=True)
            )
        except OSError as exc:
            self.summary.setText(f"No preview: {exc}")
            return
        if max(image.width(), image.height()) > PREVIEW_PIXELS:  # the frame's width
            image = image.scaled(
                PREVIEW_PIXELS,
                PREVIEW_PIXELS,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        self.picture.setPixmap(QPixmap.fromImage(image))
        forces = scenario.battlefield.forces
        figures = sum(len(force.figures) for force in forces)
        sides = ", ".join(force.name for force in forces) or "no forces"
        self.summary.setText(
            f"<b>{_escape(scenario.title)}</b><br>"
            f'{table.width:g}" × {table.height:g}" · {figures} figures<br>{_escape(sides)}'
        )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def open_scenario_name(parent: QWidget | None, caption: str, folder: str, name_filter: str) -> str:
    """The file the user chose in a :class:`PreviewFileDialog`, or "" when cancelled."""
    dialog = PreviewFileDialog(parent, caption, folder, name_filter)
    if dialog.exec() != QFileDialog.DialogCode.Accepted:
        return ""
    chosen = dialog.selectedFiles()
    return chosen[0] if chosen else ""
