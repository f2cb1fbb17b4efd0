"""Colours and pen widths of the battlefield, gathered in one object.

The scene reads every colour from a :class:`TableStyle`, so the light/dark
themes of issue 6 (``resources/themes``) can swap a style without touching item
code.  Widths are in inches: the scene's unit is the inch, so a wall drawn
0.12" thick looks like a wall at every zoom and prints at true scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtGui import QColor

from crdesk.model import CoverType


def _c(spec: str) -> QColor:
    return QColor(spec)


@dataclass(slots=True)
class TableStyle:
    """Every colour the scene paints with; one instance per scene."""

    backdrop: QColor = field(default_factory=lambda: _c("#2b2d30"))
    """Around the table, in the view (not part of the table)."""
    frame: QColor = field(default_factory=lambda: _c("#5b3d24"))
    """The wooden edge of the table."""
    frame_edge: QColor = field(default_factory=lambda: _c("#3a2616"))
    cloth: QColor = field(default_factory=lambda: _c("#7a9a55"))
    cloth_light: QColor = field(default_factory=lambda: _c("#8faa62"))
    cloth_dark: QColor = field(default_factory=lambda: _c("#6a8a49"))
    edge_label: QColor = field(default_factory=lambda: _c("#d9cbb0"))

    section_line: QColor = field(default_factory=lambda: QColor(255, 255, 240, 120))
    section_number: QColor = field(default_factory=lambda: QColor(255, 255, 240, 42))
    grid_line: QColor = field(default_factory=lambda: QColor(20, 30, 10, 45))
    grid_line_major: QColor = field(default_factory=lambda: QColor(20, 30, 10, 80))

    woods_floor: QColor = field(default_factory=lambda: _c("#3e5a2b"))
    woods_edge: QColor = field(default_factory=lambda: _c("#1f3312"))
    canopy: tuple[QColor, ...] = field(
        default_factory=lambda: (_c("#2f5d24"), _c("#386b2a"), _c("#2a5020"), _c("#41762f"))
    )
    canopy_shadow: QColor = field(default_factory=lambda: QColor(10, 25, 5, 110))

    hill: QColor = field(default_factory=lambda: _c("#b39257"))
    hill_step: QColor = field(default_factory=lambda: _c("#c4a466"))
    """Each contour ring is filled a little lighter, as if lit from above."""
    hill_edge: QColor = field(default_factory=lambda: _c("#6f5427"))
    contour: QColor = field(default_factory=lambda: QColor(95, 70, 30, 150))
    crest: QColor = field(default_factory=lambda: _c("#4a3210"))

    roof: QColor = field(default_factory=lambda: _c("#9a9690"))
    roof_area_line: QColor = field(default_factory=lambda: _c("#5f5c58"))
    wall: QColor = field(default_factory=lambda: _c("#34312d"))
    door: QColor = field(default_factory=lambda: _c("#8a5a2b"))
    window: QColor = field(default_factory=lambda: _c("#a9dcf5"))
    floors_badge: QColor = field(default_factory=lambda: QColor(30, 30, 30, 200))
    floors_text: QColor = field(default_factory=lambda: _c("#f2efe8"))
    shadow: QColor = field(default_factory=lambda: QColor(0, 0, 0, 70))

    rock: QColor = field(default_factory=lambda: _c("#4d4740"))
    rock_hatch: QColor = field(default_factory=lambda: _c("#2c2824"))
    rock_light: QColor = field(default_factory=lambda: _c("#6e665c"))
    rock_edge: QColor = field(default_factory=lambda: _c("#211d1a"))

    cover: dict[CoverType, QColor] = field(
        default_factory=lambda: {
            CoverType.WALL: _c("#a39d92"),
            CoverType.RUBBLE: _c("#8c8273"),
            CoverType.VEHICLE: _c("#5c6444"),
            CoverType.OTHER: _c("#9a7b52"),
        }
    )
    cover_edge: QColor = field(default_factory=lambda: _c("#3a352e"))

    figure_rim_star: QColor = field(default_factory=lambda: _c("#f2c230"))
    figure_facing: QColor = field(default_factory=lambda: _c("#fbfbf5"))
    figure_cross: QColor = field(default_factory=lambda: _c("#c0241c"))
    figure_dead_cross: QColor = field(default_factory=lambda: _c("#111111"))

    highlight: QColor = field(default_factory=lambda: _c("#ffd84a"))
    """Outline of highlighted (selected) items; drawn in screen pixels."""

    font_family: str = "DejaVu Sans"
    """A font every Linux box has; Qt falls back to its default elsewhere."""


DEFAULT_STYLE = TableStyle()
"""The style a scene uses unless it is given another."""
