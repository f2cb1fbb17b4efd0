"""The sight raster of a huge table stays bounded (issue 17): coarser cells, still exact."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from crdesk.geometry.terrain_index import RASTER_CELL, RASTER_MAX_CELLS, build_index
from crdesk.model import Battlefield, Table, TerrainFeature, TerrainKind
from crdesk.options import RulesOptions


def woods(x: float, y: float, size: float) -> TerrainFeature:
    square = Polygon([(x, y), (x + size, y), (x + size, y + size), (x, y + size)])
    return TerrainFeature(f"w{x:g}-{y:g}", TerrainKind.WOODS, "woods", square)


def test_a_real_table_keeps_the_fine_cells() -> None:
    bf = Battlefield(Table(72, 48), [woods(10, 10, 6)], [])
    raster = build_index(bf, RulesOptions()).raster
    assert raster is not None and raster.cell == RASTER_CELL


def test_a_huge_table_gets_coarser_cells_and_labels_only_cells_wholly_inside() -> None:
    feats = [woods(40.0 * i + 3, 40.0 * j + 5, 17.3) for i in range(12) for j in range(12)]
    bf = Battlefield(Table(480, 480), feats, [])
    raster = build_index(bf, RulesOptions()).raster
    assert raster is not None
    assert raster.cell > RASTER_CELL
    assert raster.label.size <= RASTER_MAX_CELLS * 1.01
    rows, cols = np.nonzero(raster.label >= 0)
    assert len(rows) > 1000  # the woods' insides are labelled
    pick = np.linspace(0, len(rows) - 1, 400).astype(int)
    h = raster.cell
    x = raster.x0 + cols[pick] * h
    y = raster.y0 + rows[pick] * h
    cells = shapely.box(x, y, x + h, y + h)
    union = shapely.union_all([f.outline for f in feats])
    assert shapely.contains(union, cells).all()
