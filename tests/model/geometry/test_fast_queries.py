"""Cheaper queries behind the sight engine give exactly the answers of the plain ones (issue 4).

* :func:`crdesk.geometry.los._intersecting` (bounding boxes thinned in numpy,
  then GEOS on prepared geometries) returns the same (line, geometry) pairs, in
  the same order, as ``STRtree.query(..., predicate="intersects")`` without the
  cover obstacles -- also for lines touching corners, running along edges or of
  zero length;
* :meth:`Raster.lookup` (one flat gather) reads the same labels as ``label[row, col]``;
* the incremental cohesion graph follows status changes it is not told about.
"""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crdesk.geometry.los as los
from crdesk.cohesion import Cohesion, groups
from crdesk.geometry import build_index
from crdesk.geometry.terrain_index import Role
from crdesk.model import Status
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

RULES = RulesOptions()
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reference(index: object, lines: np.ndarray) -> list[tuple[int, int]]:
    li, gi = index.tree.query(lines, predicate="intersects")  # type: ignore[attr-defined]
    keep = index.geom_role[gi] != Role.OBSTACLE  # type: ignore[attr-defined]
    return list(zip(li[keep].tolist(), gi[keep].tolist(), strict=True))


def _vertex_lines(index: object, rng: np.random.Generator, count: int) -> np.ndarray:
    """Segments between terrain vertices and random points: touches, runs along edges."""
    coords = shapely.get_coordinates(index.geoms)  # type: ignore[attr-defined]
    pick = coords[rng.integers(len(coords), size=(count, 2))]
    rand = rng.uniform(-1, 25, size=(count, 2))
    ends = np.where(rng.random((count, 1)) < 0.5, pick[:, 1], rand)
    same = rng.random(count) < 0.05  # a few of zero length
    ends[same] = pick[same, 0]
    return los._segments(pick[:, 0, 0], pick[:, 0, 1], ends[:, 0], ends[:, 1])


@FAST
@given(seed=st.integers(0, 10_000))
def test_intersecting_equals_the_tree_predicate(seed: int) -> None:
    bf = random_table(seed, n_features=14, n_figures=4)
    index = build_index(bf, RULES)
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 24, size=(150, 4))
    random_lines = los._segments(xy[:, 0], xy[:, 1], xy[:, 2], xy[:, 3])
    for lines in (random_lines, _vertex_lines(index, rng, 150)):
        li, gi = los._intersecting(index, lines)
        assert list(zip(li.tolist(), gi.tolist(), strict=True)) == _reference(index, lines)


def test_intersecting_handles_lines_on_edges_and_no_candidates() -> None:
    bf = random_table(3, n_features=14, n_figures=4)
    index = build_index(bf, RULES)
    ring = shapely.get_coordinates(index.geoms[0])
    along = los._segments(ring[:-1, 0], ring[:-1, 1], ring[1:, 0], ring[1:, 1])
    li, gi = los._intersecting(index, along)
    assert list(zip(li.tolist(), gi.tolist(), strict=True)) == _reference(index, along)
    far = los._segments(np.array([100.0]), np.array([100.0]), np.array([101.0]), np.array([100.0]))
    li, gi = los._intersecting(index, far)
    assert len(li) == len(gi) == 0


@FAST
@given(seed=st.integers(0, 10_000))
def test_raster_lookup_reads_label_cells(seed: int) -> None:
    bf = random_table(seed, n_features=10, n_figures=2)
    index = build_index(bf, RULES)
    raster = index.raster
    assert raster is not None
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-3, 27, 2000)
    ys = rng.uniform(-3, 27, 2000)
    rows, cols = raster.label.shape
    c = np.clip(((xs - raster.x0) * (1.0 / raster.cell)).astype(np.int32), 0, cols - 1)
    r = np.clip(((ys - raster.y0) * (1.0 / raster.cell)).astype(np.int32), 0, rows - 1)
    assert np.array_equal(raster.lookup(xs, ys), raster.label[r, c])


@FAST
@given(
    seed=st.integers(0, 10_000),
    changes=st.lists(
        st.tuples(st.integers(0, 7), st.sampled_from(list(Status))), min_size=1, max_size=5
    ),
)
def test_cohesion_picks_up_status_changes_it_is_not_told_about(
    seed: int, changes: list[tuple[int, Status]]
) -> None:
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    figs = list(bf.figures())
    for k, status in changes:
        bf.update_figure(figs[k % len(figs)].id, status=status)
        cohesion.update()
        assert cohesion.groups(RULES) == groups(bf, VisibilityService(bf, RULES).matrix(), RULES)


@FAST
@given(seed=st.integers(0, 10_000))
def test_raster_labels_only_cells_wholly_inside_their_feature(seed: int) -> None:
    """A labelled cell -- also where features overlap -- lies inside that feature's outline."""
    bf = random_table(seed, n_features=14, n_figures=2)
    index = build_index(bf, RULES)
    raster = index.raster
    assert raster is not None
    rows, cols = np.nonzero(raster.label >= 0)
    pick = np.random.default_rng(seed).permutation(len(rows))[:400]
    rows, cols = rows[pick], cols[pick]
    blocking = np.isin(index.geom_role, (Role.WOODS, Role.BUILDING, Role.IMPASSABLE))
    geom_of = {int(f): g for g, f in enumerate(index.geom_feature) if blocking[g]}
    feats = raster.label[rows, cols]
    x0 = raster.x0 + cols * raster.cell
    y0 = raster.y0 + rows * raster.cell
    cells = shapely.box(x0, y0, x0 + raster.cell, y0 + raster.cell)
    geoms = index.geoms[[geom_of[int(f)] for f in feats]]
    assert shapely.contains(geoms, cells).all()
