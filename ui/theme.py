"""Light and dark themes (palettes in resources/themes/*.json) and the SVG icon set."""

from __future__ import annotations

import json
from functools import cache

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from crdesk.resources import resource_root

THEMES = ("light", "dark")


PLATE = QColor(226, 230, 235, 215)
"""The light chip drawn behind a tool icon in the dark theme: some icons draw in dark
ink (a crest line, rock) that would vanish on a dark toolbar."""


class ThemedIconEngine(QIconEngine):
    """Paints an SVG icon, on a light rounded plate while the dark theme is on.

    The theme is read at paint time, so a theme switch repaints every toolbar
    icon without re-creating actions.
    """

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path
        self._renderer = QSvgRenderer(path)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        app = QApplication.instance()
        if isinstance(app, QApplication) and current_theme(app) == "dark":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(PLATE)
            r = min(rect.width(), rect.height()) * 0.22
            painter.drawRoundedRect(QRectF(rect), r, r)
        inset = QRectF(rect).adjusted(1, 1, -1, -1)
        if mode == QIcon.Mode.Disabled:
            painter.setOpacity(0.4)
        self._renderer.render(painter, inset)
        painter.restore()

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        pixmap = QPixmap(size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        self.paint(painter, QRect(0, 0, size.width(), size.height()), mode, state)
        painter.end()
        return pixmap

    def clone(self) -> QIconEngine:
        return ThemedIconEngine(self._path)


def icon(name: str) -> QIcon:
    """An icon from resources/icons/NAME.svg (vector, so crisp at any screen scale)."""
    path = resource_root() / "icons" / f"{name}.svg"
    return QIcon(ThemedIconEngine(str(path))) if path.is_file() else QIcon()


@cache
def theme_data(name: str) -> dict[str, object]:
    path = resource_root() / "themes" / f"{name}.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def apply_theme(app: QApplication, name: str) -> None:
    """Switch the whole application to a theme by name ("light" or "dark")."""
    if name not in THEMES:
        raise ValueError(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}")
    app.setStyle("Fusion")
    palette = QPalette()
    colours = theme_data(name)["palette"]
    assert isinstance(colours, dict)
    for role_name, colour in colours.items():
        role = getattr(QPalette.ColorRole, role_name)
        palette.setColor(role, QColor(colour))
    app.setProperty("crdesk_theme", name)
    app.setPalette(palette)  # after the property: the repaint it causes sees the theme


def current_theme(app: QApplication) -> str:
    value = app.property("crdesk_theme")
    return str(value) if value in THEMES else "light"
