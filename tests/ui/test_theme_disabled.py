"""Disabled controls look disabled in every theme (issue 15): buttons, menu items, spin boxes.

The themes name only the active colours; ``QPalette.setColor(role, c)`` sets
every colour group, so without a Disabled group of its own a greyed-out button
was drawn exactly like a live one.  The checks below read the pixels: the
text of a disabled control stands out from its background much less than the
same control's text when enabled.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QAction, QIcon, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QGridLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ui.dialogs.export_dialog import ExportDialog
from ui.theme import THEMES, apply_theme, icon

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[QApplication]:
    palette, theme, style = qapp.palette(), qapp.property("crdesk_theme"), qapp.style().name()
    yield qapp
    qapp.setStyle(style)
    qapp.setProperty("crdesk_theme", theme)
    qapp.setPalette(palette)


def _ink_contrast(image: QImage, area: QRect | None = None) -> int:
    """How far the strongest ink (text, arrows) stands from the control's face.

    The face is the median inside the control's frame (its outline is left
    out: a frame is drawn the same, enabled or not).
    """
    rect = (area or image.rect()).adjusted(3, 3, -3, -3)
    values = sorted(
        image.pixelColor(x, y).lightness()
        for y in range(rect.top(), rect.bottom() + 1)
        for x in range(rect.left(), rect.right() + 1)
    )
    face = values[len(values) // 2]
    return max(abs(v - face) for v in values)


def _pair(make) -> tuple[QWidget, QWidget]:  # type: ignore[no-untyped-def]
    live, dead = make(), make()
    dead.setEnabled(False)
    return live, dead


def _dialog() -> tuple[QDialog, list[tuple[str, QWidget, QWidget]]]:
    """A dialog with each kind of control twice: live on the left, disabled on the right."""
    dialog = QDialog()
    dialog.setWindowTitle("Disabled controls")
    grid = QGridLayout(dialog)
    grid.addWidget(QLabel("Enabled"), 0, 1)
    grid.addWidget(QLabel("Disabled"), 0, 2)

    def spin() -> QSpinBox:
        box = QSpinBox()
        box.setRange(2, 20)
        box.setValue(5)
        return box

    def combo() -> QComboBox:
        box = QComboBox()
        box.addItem("AR — Assault Rifle")
        return box

    def button() -> QPushButton:
        return QPushButton("Generate")

    rows = [
        ("Push button", *_pair(button)),
        ("Spin box", *_pair(spin)),
        ("Combo box", *_pair(combo)),
        ("Check box", *_pair(lambda: QCheckBox("Prone"))),
    ]
    for r, (label, live, dead) in enumerate(rows, start=1):
        grid.addWidget(QLabel(label), r, 0)
        grid.addWidget(live, r, 1)
        grid.addWidget(dead, r, 2)
    return dialog, rows


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_controls_are_faded_in_every_theme(qtbot, themed, theme: str) -> None:
    apply_theme(themed, theme)
    palette = themed.palette()
    for role in (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Text):
        live = palette.color(QPalette.ColorGroup.Active, role)
        dead = palette.color(QPalette.ColorGroup.Disabled, role)
        assert abs(live.lightness() - dead.lightness()) > 40, (theme, role)
    dialog, rows = _dialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    SHOTS.mkdir(exist_ok=True)
    dialog.grab().save(str(SHOTS / f"theme-disabled-{theme}.png"))
    for label, live, dead in rows:
        live_ink = _ink_contrast(live.grab().toImage())
        dead_ink = _ink_contrast(dead.grab().toImage())
        assert dead_ink < 0.7 * live_ink, (theme, label, live_ink, dead_ink)


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_menu_items_are_faded(qtbot, themed, theme: str) -> None:
    apply_theme(themed, theme)
    menu = QMenu()
    qtbot.addWidget(menu)
    live = QAction("Zoom to Selection", menu)
    dead = QAction("Zoom to Selection", menu)
    dead.setEnabled(False)
    menu.addActions([live, dead])
    menu.popup(menu.pos())
    qtbot.waitExposed(menu)
    image = menu.grab().toImage()
    image.save(str(SHOTS / f"theme-disabled-menu-{theme}.png"))
    live_ink = _ink_contrast(image, menu.actionGeometry(live))
    dead_ink = _ink_contrast(image, menu.actionGeometry(dead))
    assert dead_ink < 0.7 * live_ink, (theme, live_ink, dead_ink)
    menu.hide()


def test_the_export_dialogs_unused_options_look_disabled(qtbot, themed, tmp_path: Path) -> None:
    """A real dialog: for a PNG, the PDF's paper is greyed; for a PDF, the PNG's resolution."""
    apply_theme(themed, "dark")
    dialog = ExportDialog("Main Street", tmp_path)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert not dialog.paper_combo.isEnabled() and dialog.dpi_spin.isEnabled()
    paper_off = _ink_contrast(dialog.paper_combo.grab().toImage())
    dpi_on = _ink_contrast(dialog.dpi_spin.grab().toImage())
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData(".pdf"))
    assert dialog.paper_combo.isEnabled() and not dialog.dpi_spin.isEnabled()
    dialog.grab().save(str(SHOTS / "theme-disabled-export-dark.png"))
    assert _ink_contrast(dialog.paper_combo.grab().toImage()) > paper_off / 0.7
    assert _ink_contrast(dialog.dpi_spin.grab().toImage()) < 0.7 * dpi_on


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_tool_icons_fade_with_their_plate(themed, theme: str) -> None:
    apply_theme(themed, theme)
    woods = icon("woods")

    def ink(mode: QIcon.Mode) -> float:
        image = woods.pixmap(QSize(32, 32), mode).toImage()
        alphas = [image.pixelColor(x, y).alphaF() for y in range(32) for x in range(32)]
        return sum(alphas) / len(alphas)

    assert ink(QIcon.Mode.Disabled) < 0.5 * ink(QIcon.Mode.Normal)
