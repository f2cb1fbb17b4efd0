"""Light and dark themes (palettes in resources/themes/*.json) and the SVG icon set."""

from __future__ import annotations

import json
from functools import cache

from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from crdesk.resources import resource_root

THEMES = ("light", "dark")


def icon(name: str) -> QIcon:
    """An icon from resources/icons/NAME.svg (vector, so crisp at any screen scale)."""
    path = resource_root() / "icons" / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


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
    app.setPalette(palette)
    app.setProperty("crdesk_theme", name)


def current_theme(app: QApplication) -> str:
    value = app.property("crdesk_theme")
    return str(value) if value in THEMES else "light"
