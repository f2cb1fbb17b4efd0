"""One rendered table per overall terrain type (issue 5): PNGs a player can read at a glance."""

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from crdesk.generator import generate
from crdesk.model import TerrainKind
from ui.render import RenderOptions, save_png

SEEDS = {"clear": 11, "urban": 42, "wooded": 5, "mountain": 8}


def _share(image: QImage, predicate) -> float:  # type: ignore[no-untyped-def]
    step = 6
    hits = total = 0
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            total += 1
            hits += bool(predicate(QColor(image.pixel(x, y))))
    return hits / total


def _dark_green(c: QColor) -> bool:
    return c.green() > c.red() + 25 and c.green() > c.blue() + 25 and c.lightness() < 110


def _grey(c: QColor) -> bool:
    return (
        abs(c.red() - c.green()) < 10
        and abs(c.green() - c.blue()) < 12
        and 90 < c.lightness() < 200
    )


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_each_type_renders_with_sections(qapp, tmp_path: Path, kind: str) -> None:
    scenario = generate(SEEDS[kind], width=48, height=36, terrain_type=kind)
    out = save_png(scenario.battlefield, tmp_path / f"{kind}.png", RenderOptions(20, sections=True))
    image = QImage(str(out))
    assert image.width() > 48 * 20 and image.height() > 36 * 20
    kinds = {f.kind for f in scenario.battlefield.terrain}
    woods = TerrainKind.WOODS in kinds or TerrainKind.WOODED_HILL in kinds
    buildings = TerrainKind.BUILDING in kinds
    if woods:
        assert _share(image, _dark_green) > 0.05
    if buildings:
        assert _share(image, _grey) > 0.02
    if kind == "urban":
        assert buildings
