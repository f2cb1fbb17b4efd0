"""Property tests (hypothesis): symmetry, cache exactness, incremental cohesion, movement."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from crdesk.cohesion import Cohesion, cohesion_graph, groups
from crdesk.geometry import build_index, evaluate, line_of_sight, viewpoints
from crdesk.geometry.movement import reachable_area
from crdesk.model import Status, TerrainKind
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

RULES = RulesOptions()
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(0, 10_000)
spots = st.tuples(st.floats(1, 23), st.floats(1, 23))


def facing_towards(x0: float, y0: float, x1: float, y1: float) -> float:
    """Facing in degrees (0 = -y, clockwise) from (x0, y0) towards (x1, y1)."""
    return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360


@FAST
@given(seed=seeds, night=st.booleans())
def test_los_symmetric_when_facing_each_other(seed: int, night: bool) -> None:
    bf = random_table(seed)
    rules = RulesOptions(night=night)
    figs = list(bf.figures())
    a, b = figs[0], figs[1]
    bf.move_figure(a.id, a.x, a.y, facing_towards(a.x, a.y, b.x, b.y))
    bf.move_figure(b.id, b.x, b.y, facing_towards(b.x, b.y, a.x, a.y))
    ab = line_of_sight(bf, a.id, b.id, rules)
    ba = line_of_sight(bf, b.id, a.id, rules)
    assert ab.visible == ba.visible, (ab.message, ba.message)


@FAST
@given(seed=seeds, ragged=st.booleans())
def test_fast_matrix_equals_detailed_engine(seed: int, ragged: bool) -> None:
    """The fast routes (kernels or raster and edge filters) never change a verdict."""
    bf = random_table(seed, n_features=14, n_figures=10, ragged_woods=ragged)
    index = build_index(bf, RULES, raster=True)
    vp = viewpoints(bf, index, RULES)
    a, b = np.triu_indices(len(vp), 1)
    fast = evaluate(index, vp, a, b, RULES)
    slow = evaluate(index, vp, a, b, RULES, detailed=True)
    assert np.array_equal(fast.ab == 0, slow.ab == 0)
    assert np.array_equal(fast.ba == 0, slow.ba == 0)
    assert np.array_equal(fast.cover_ab, slow.cover_ab)


@FAST
@given(seed=seeds, k=st.integers(0, 7), to=spots, turn=st.floats(0, 359))
def test_move_and_move_back_restores_the_matrix(
    seed: int, k: int, to: tuple[float, float], turn: float
) -> None:
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    before = service.matrix().copy()
    fig = list(bf.figures())[k % len(list(bf.figures()))]
    x, y, facing = fig.x, fig.y, fig.facing
    bf.move_figure(fig.id, to[0], to[1], turn)
    moved = service.matrix().copy()
    full = VisibilityService(bf, RULES).matrix()
    assert moved.same_as(full), "incremental update differs from a full recomputation"
    bf.move_figure(fig.id, x, y, facing)
    assert service.matrix().same_as(before)
    assert service.full_recomputes == 1


@FAST
@given(
    seed=seeds,
    moves=st.lists(st.tuples(st.integers(0, 7), spots, st.booleans()), min_size=1, max_size=4),
)
def test_incremental_cohesion_equals_full(
    seed: int, moves: list[tuple[int, tuple[float, float], bool]]
) -> None:
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    figs = list(bf.figures())
    for k, (x, y), down in moves:
        fig = figs[k % len(figs)]
        bf.move_figure(fig.id, x, y)
        if down:
            bf.update_figure(fig.id, status=Status.OUT_OF_THE_FIGHT)
        cohesion.update([fig.id])
        full = groups(bf, VisibilityService(bf, RULES).matrix(), RULES)
        assert cohesion.groups(RULES) == full


@settings(max_examples=10, deadline=None)
@given(seed=seeds, k=st.integers(0, 7), allowance=st.sampled_from([4.0, 8.0, 12.0]))
def test_no_reachable_point_in_impassable(seed: int, k: int, allowance: float) -> None:
    bf = random_table(seed)
    figs = list(bf.figures())
    fig = figs[k % len(figs)]
    area = reachable_area(bf, fig, allowance, RULES, rays=36)
    for feat in bf.terrain:
        if feat.kind is TerrainKind.IMPASSABLE:
            assert area.intersection(feat.outline).area < 1e-6
    rng = np.random.default_rng(seed)
    minx, miny, maxx, maxy = area.bounds if not area.is_empty else (0, 0, 0, 0)
    for _ in range(50):
        p = Point(rng.uniform(minx, maxx + 1e-9), rng.uniform(miny, maxy + 1e-9))
        if area.contains(p):
            assert not any(
                f.outline.contains(p) for f in bf.terrain if f.kind is TerrainKind.IMPASSABLE
            )


@FAST
@given(seed=seeds, k=st.integers(0, 7), to=spots)
def test_row_matches_the_matrix(seed: int, k: int, to: tuple[float, float]) -> None:
    """The drag preview (one row) agrees with the matrix after the move."""
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    service.matrix()
    fig = list(bf.figures())[k % len(list(bf.figures()))]
    bf.move_figure(fig.id, to[0], to[1])
    row = service.row(fig.id)
    m = service.matrix()
    i = m.position(fig.id)
    others = [j for j in range(len(m.ids)) if j != i]
    assert np.array_equal(row.sees[others], m.visible[i, others])
    assert np.array_equal(row.seen_by[others], m.visible[others, i])
    assert np.array_equal(row.cover_from[others], m.cover[i, others])
    assert np.array_equal(row.concealed_from[others], m.concealed[i, others])
    graph = cohesion_graph(bf, m)
    assert set(row.links) == (set(graph.neighbors(fig.id)) if graph.has_node(fig.id) else set())
    full = groups(bf, m, RULES)
    mine = next(g for g in full if fig.id in g.members) if fig.status.can_act else None
    if mine is not None and row.links:
        assert set(row.links) <= set(mine.members)
