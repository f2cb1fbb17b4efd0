"""Themes switch the palette; every tool has a vector icon."""

import pytest
from PySide6.QtGui import QPalette

from ui.theme import THEMES, apply_theme, current_theme, icon


def test_themes_switch_the_palette(qapp) -> None:
    apply_theme(qapp, "dark")
    dark = qapp.palette().color(QPalette.ColorRole.Window).lightness()
    assert current_theme(qapp) == "dark"
    apply_theme(qapp, "light")
    light = qapp.palette().color(QPalette.ColorRole.Window).lightness()
    assert light > dark + 100
    with pytest.raises(ValueError, match="unknown theme"):
        apply_theme(qapp, "neon")
    assert set(THEMES) == {"light", "dark"}


@pytest.mark.parametrize(
    "name",
    [
        "select",
        "vertex",
        "woods",
        "hill",
        "wooded_hill",
        "impassable",
        "cover",
        "building",
        "crest",
        "measure",
        "los",
        "snap",
        "sight",
        "crdesk",
    ],
)
def test_icons_render_at_high_dpi(qapp, name: str) -> None:
    pixmap = icon(name).pixmap(96, 96)
    assert not pixmap.isNull() and pixmap.width() == 96
