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


DISABLED_ICON_OPACITY = 0.35

DISABLED_TEXT_MIX = 0.55
"""How far a disabled control's text moves from the text colour to its background."""

_DISABLED_TEXT = (
    ("WindowText", "Window"),
    ("Text", "Base"),
    ("ButtonText", "Button"),
    ("HighlightedText", "Highlight"),
    ("PlaceholderText", "Base"),
)
"""Text roles and the background each is read against."""


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved the fraction ``t`` of the way to ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def _disabled_colours(palette: QPalette) -> dict[QPalette.ColorRole, QColor]:
    """The Disabled group of a theme, derived from its active colours.

    ``QPalette.setColor(role, colour)`` sets every group, so a theme that names
    only the active colours draws disabled buttons, menu items and spin boxes
    exactly like enabled ones.  Disabled text fades towards its background and
    a disabled field or button is as flat as the window behind it.
    """
    role = QPalette.ColorRole
    window = palette.color(role.Window)
    out: dict[QPalette.ColorRole, QColor] = {}
    for text, behind in _DISABLED_TEXT:
        back = palette.color(getattr(role, behind))
        out[getattr(role, text)] = _mix(palette.color(getattr(role, text)), back, DISABLED_TEXT_MIX)
    out[role.Base] = _mix(palette.color(role.Base), window, 0.7)
    out[role.Button] = _mix(palette.color(role.Button), window, 0.6)
    out[role.Highlight] = _mix(palette.color(role.Highlight), window, 0.6)
    out[role.Text] = _mix(palette.color(role.Text), out[role.Base], DISABLED_TEXT_MIX)
    out[role.ButtonText] = _mix(palette.color(role.ButtonText), out[role.Button], DISABLED_TEXT_MIX)
    return out


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
        if mode == QIcon.Mode.Disabled:
            painter.setOpacity(DISABLED_ICON_OPACITY)  # the plate too, or it reads as enabled
        app = QApplication.instance()
        if isinstance(app, QApplication) and current_theme(app) == "dark":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(PLATE)
            r = min(rect.width(), rect.height()) * 0.22
            painter.drawRoundedRect(QRectF(rect), r, r)
        inset = QRectF(rect).adjusted(1, 1, -1, -1)
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
    disabled = _disabled_colours(palette)
    overrides = theme_data(name).get("disabled", {})  # a theme may name its own
    assert isinstance(overrides, dict)
    for role_name, colour in overrides.items():
        disabled[getattr(QPalette.ColorRole, role_name)] = QColor(colour)
    for role, colour in disabled.items():
        palette.setColor(QPalette.ColorGroup.Disabled, role, colour)
    app.setProperty("crdesk_theme", name)
    app.setPalette(palette)  # after the property: the repaint it causes sees the theme


def current_theme(app: QApplication) -> str:
    value = app.property("crdesk_theme")
    return str(value) if value in THEMES else "light"
