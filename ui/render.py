"""Paint a battlefield offscreen, to a QImage, PNG or SVG, through the scene itself.

There is one drawing code path: these helpers build the same
:class:`~ui.scene.scene.BattlefieldScene` the window shows and let it paint
onto another device.  Issue 5 adds PDF tiling on top by calling
:func:`paint_battlefield` once per page with that page's source rectangle.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from crdesk import limits
from crdesk.model import Battlefield
from ui.scene.items import TableItem
from ui.scene.scene import BattlefieldScene
from ui.scene.style import TableStyle


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What to draw and how large; defaults suit a screen-sized overview picture."""

    pixels_per_inch: float = 30.0
    sections: bool = True
    grid: bool = False
    frame: bool = True
    """Include the wooden frame and edge labels around the cloth."""
    background: QColor | None = None
    """Fill behind the table; None leaves PNGs transparent outside the frame."""
    title: str = "crdesk battlefield"
    style: TableStyle | None = None


def ensure_app() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display).

    Rendering needs Qt's font machinery even in the command-line ``crdesk render``,
    which has no window; a headless machine gets the offscreen platform.
    """
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return QApplication([sys.argv[0] if sys.argv else "crdesk"])


def make_scene(battlefield: Battlefield, options: RenderOptions) -> BattlefieldScene:
    """A detached scene set up for export: overlays as asked, no pixmap caches."""
    scene = BattlefieldScene(battlefield, options.style)
    scene.detach()
    scene.set_sections_visible(options.sections)
    scene.set_grid_visible(options.grid)
    scene.set_caching(False)
    return scene


def source_rect(scene: BattlefieldScene, options: RenderOptions) -> QRectF:
    """The part of the scene to export: the table, plus its frame when asked for."""
    rect = scene.table_rect()
    if options.frame:
        m = TableItem.FRAME + 0.1
        rect = rect.adjusted(-m, -m, m, m)
    return rect


def paint_battlefield(
    scene: BattlefieldScene, painter: QPainter, target: QRectF, source: QRectF
) -> None:
    """Paint ``source`` (inches) of the scene into ``target`` (device units) of a painter."""
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing
        | QPainter.RenderHint.SmoothPixmapTransform
        | QPainter.RenderHint.TextAntialiasing
    )
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)


class RenderTooLargeError(OSError):
    """The picture asked for is over :data:`crdesk.limits.RENDER_MEGAPIXELS`."""


def check_render_size(battlefield: Battlefield, options: RenderOptions) -> None:
    """Refuse, before any drawing, a picture too large to make (named in words).

    A 480" table at 100 dpi is 2,300 megapixels (9 GB); Qt would give a null
    image and the save then fail with a misleading "could not write".
    """
    frame = 2 * (TableItem.FRAME + 0.1) if options.frame else 0.0
    width = battlefield.table.width + frame
    height = battlefield.table.height + frame
    problem = limits.render_problem(width, height, options.pixels_per_inch)
    if problem:
        raise RenderTooLargeError(problem)


def render_scene(battlefield: Battlefield, options: RenderOptions | None = None) -> QImage:
    """The battlefield as an image at ``options.pixels_per_inch``.

    Raises :class:`RenderTooLargeError` when the image would be over the limits.
    """
    options = options or RenderOptions()
    check_render_size(battlefield, options)
    ensure_app()
    scene = make_scene(battlefield, options)
    try:
        source = source_rect(scene, options)
        size = QSize(
            max(1, round(source.width() * options.pixels_per_inch)),
            max(1, round(source.height() * options.pixels_per_inch)),
        )
        image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
        if image.isNull():
            raise OSError(f"not enough memory for a {size.width()} x {size.height()} pixel picture")
        image.fill(options.background or QColor(0, 0, 0, 0))
        painter = QPainter(image)
        try:
            paint_battlefield(scene, painter, QRectF(0, 0, size.width(), size.height()), source)
        finally:
            painter.end()
        return image
    finally:
        scene.deleteLater()


def save_png(
    battlefield: Battlefield, path: str | os.PathLike[str], options: RenderOptions | None = None
) -> Path:
    """Write the battlefield as a PNG; returns the path written."""
    out = Path(path)
    image = render_scene(battlefield, options)
    # The stubs ask for bytes as the format; PySide6 6.11 at run time wants str.
    if not image.save(str(out), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not write {out}")
    return out


def save_svg(
    battlefield: Battlefield, path: str | os.PathLike[str], options: RenderOptions | None = None
) -> Path:
    """Write the battlefield as an SVG whose user unit is 1/100 inch (vector throughout)."""
    options = options or RenderOptions()
    ensure_app()
    out = Path(path)
    scene = make_scene(battlefield, options)
    try:
        source = source_rect(scene, options)
        units = 100.0
        target = QRectF(0, 0, source.width() * units, source.height() * units)
        generator = QSvgGenerator()
        generator.setFileName(str(out))
        generator.setTitle(options.title)
        generator.setDescription("Chain Reaction 2015 battlefield drawn by crdesk")
        generator.setSize(QSize(round(target.width()), round(target.height())))
        generator.setViewBox(target)
        generator.setResolution(round(units))
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {out}")
        try:
            if options.background is not None:
                painter.fillRect(target, options.background)
            paint_battlefield(scene, painter, target, source)
        finally:
            painter.end()
        return out
    finally:
        scene.deleteLater()
