"""The speed paths of the sight engine give the same verdicts as the plain ones (issue 4).

The engine picks its route by size: all three sight lines of every pair in one
pass for a few pairs (a dragged figure), the centre lines first and the side
lines after for many; GEOS at once for a few undecided lines, the numpy edge
filter for many; the raster walk in rounds whose size depends on the number of
lines.  Figures' places are cached per terrain index, and the incremental
update patches the per-figure arrays.  None of this may change a verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crdesk.geometry.los as los
from crdesk.cohesion import Cohesion, groups
from crdesk.geometry import build_index, evaluate, viewpoints
from crdesk.geometry.los import LINE_BLOCKED, LINE_OPEN, Viewpoints
from crdesk.geometry.terrain_index import locate_many
from crdesk.model import Battlefield, Status
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

RULES = RulesOptions()
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(0, 10_000)
spots = st.tuples(st.floats(1, 23), st.floats(1, 23))

NUMPY = {"USE_KERNELS": False}
ROUTES = [
    {"USE_KERNELS": True},  # compiled kernels (when numba is installed)
    {**NUMPY, "ONE_PASS_LINES": 0, "EXACT_DIRECT": 0},  # staged lines, numpy edge filter
    {**NUMPY, "ONE_PASS_LINES": 10**9, "EXACT_DIRECT": 10**9},  # one pass, GEOS directly
    {**NUMPY, "ONE_PASS_LINES": 10**9, "EXACT_DIRECT": 0},
    {**NUMPY, "ONE_PASS_LINES": 0, "EXACT_DIRECT": 10**9},
]
WALKS = [
    {**NUMPY, "WALK_FIRST": 1, "WALK_BATCH": 1, "WALK_SINGLE": 0},  # many small rounds
    {**NUMPY, "WALK_FIRST": 16, "WALK_BATCH": 0, "WALK_SINGLE": 10**9},  # one round to the end
]


@pytest.fixture(autouse=True)
def _kernels_back_on() -> Iterator[None]:
    """Tests here may switch the compiled route off; every test starts with it on."""
    los.USE_KERNELS = True
    yield
    los.USE_KERNELS = True


def _verdicts(bf: Battlefield, night: bool = False) -> tuple[los.PairVerdicts, Viewpoints]:
    rules = RulesOptions(night=night)
    index = build_index(bf, rules, raster=True)
    vp = viewpoints(bf, index, rules)
    a, b = np.triu_indices(len(vp), 1)
    return evaluate(index, vp, a, b, rules), vp


def _same(x: los.PairVerdicts, y: los.PairVerdicts) -> None:
    assert np.array_equal(x.ab == 0, y.ab == 0)
    assert np.array_equal(x.ba == 0, y.ba == 0)
    for name in ("cover_ab", "cover_ba", "concealed_ab", "concealed_ba", "gate_ab", "gate_ba"):
        assert np.array_equal(getattr(x, name), getattr(y, name)), name
    # what terrain says of a line is a fact: routes may leave different lines
    # unjudged, but never disagree on one both judged
    both = (x.line_state != 0) & (y.line_state != 0)
    assert np.array_equal(x.line_state[both], y.line_state[both])
    assert set(np.unique(x.line_state)) <= {0, LINE_OPEN, LINE_BLOCKED}


@FAST
@given(seed=seeds, night=st.booleans(), ragged=st.booleans())
def test_every_route_gives_the_same_verdicts(seed: int, night: bool, ragged: bool) -> None:
    bf = random_table(seed, n_features=14, n_figures=12, ragged_woods=ragged)
    results = []
    with pytest.MonkeyPatch.context() as mp:
        for route in ROUTES + WALKS:
            for name, value in route.items():
                mp.setattr(los, name, value)
            results.append(_verdicts(bf, night)[0])
    for other in results[1:]:
        _same(results[0], other)


@FAST
@given(seed=seeds)
def test_one_figure_against_the_others_matches_the_matrix(seed: int) -> None:
    """The row route (all lines in one pass) agrees with the all-pairs route."""
    bf = random_table(seed, n_features=14, n_figures=12)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(los, "ONE_PASS_LINES", 0)
        full, vp = _verdicts(bf)
    index = build_index(bf, RULES, raster=True)
    n = len(vp)
    for k in range(n):
        others = np.delete(np.arange(n), k)
        row = evaluate(index, vp, np.full(n - 1, k), others, RULES)
        pair = np.flatnonzero((full.a == k) | (full.b == k))
        seen_from_k = np.where(full.a[pair] == k, full.ab[pair], full.ba[pair]) == 0
        seeing_k = np.where(full.a[pair] == k, full.ba[pair], full.ab[pair]) == 0
        other = np.where(full.a[pair] == k, full.b[pair], full.a[pair])
        order = np.argsort(other)
        assert np.array_equal(row.ab == 0, seen_from_k[order])
        assert np.array_equal(row.ba == 0, seeing_k[order])


def _rows(arr: np.ndarray, pad: int) -> list[list[int]]:
    return [sorted(int(v) for v in r if v != pad) for r in arr]


def _derived(vp: Viewpoints) -> tuple[object, ...]:
    cont, crest = vp.containers()
    feats, codes = vp.sealed()
    return (
        _rows(cont, -9),
        _rows(crest, -9),
        _rows(vp.near_features(), -1),
        [f.tolist() for f in vp.cover_flags()],
        feats.tolist(),
        codes.tolist(),
    )


@FAST
@given(seed=seeds, moves=st.lists(st.tuples(st.integers(0, 7), spots), min_size=1, max_size=3))
def test_patched_viewpoints_equal_fresh_ones(
    seed: int, moves: list[tuple[int, tuple[float, float]]]
) -> None:
    bf = random_table(seed)
    index = build_index(bf, RULES)
    vp = viewpoints(bf, index, RULES)
    before = _derived(vp)  # computed now, so that with_rows patches them
    figs = list(bf.figures())
    for k, (x, y) in moves:
        bf.move_figure(figs[k % len(figs)].id, x, y)
    ks = sorted({k % len(figs) for k, _ in moves})
    one = viewpoints(bf, index, RULES, figures=[figs[k] for k in ks])
    patched = vp.with_rows(ks, one)
    fresh = viewpoints(bf, index, RULES)
    assert _derived(patched) == _derived(fresh)
    assert patched.places == fresh.places
    for name in ("x", "y", "r", "fx", "fy", "blocks", "moving", "lit", "present"):
        assert np.array_equal(getattr(patched, name), getattr(fresh, name)), name
    assert _derived(vp) == before  # the original is left alone


def test_places_are_cached_per_index_and_cover_distance() -> None:
    bf = random_table(7, n_features=20, n_figures=12)
    index = build_index(bf, RULES)
    first = viewpoints(bf, index, RULES).places
    cache = index.cache["places"]
    assert isinstance(cache, dict) and len(cache) == len(first)
    assert viewpoints(bf, index, RULES).places == first
    figs = list(bf.figures())
    xs = np.array([f.x for f in figs])
    ys = np.array([f.y for f in figs])
    rs = np.array([f.radius for f in figs])
    assert locate_many(index, xs, ys, rs, RULES) == first
    far = RulesOptions(
        interpretations=dataclasses.replace(RULES.interpretations, cover_obstacle_distance=6.0)
    )
    wide = viewpoints(bf, index, far).places
    assert wide == locate_many(index, xs, ys, rs, far)
    assert len(cache) == 2 * len(first)


def test_place_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(los, "PLACE_CACHE_LIMIT", 5)
    bf = random_table(3)
    index = build_index(bf, RULES)
    fig = next(iter(bf.figures()))
    for step in range(20):
        bf.move_figure(fig.id, 5 + step * 0.5, 5)
        viewpoints(bf, index, RULES)
        cache = index.cache["places"]
        assert isinstance(cache, dict) and len(cache) <= 5 + len(list(bf.figures()))


@FAST
@given(
    seed=seeds,
    changes=st.lists(
        st.tuples(st.integers(0, 7), spots, st.sampled_from([None, *Status])),
        min_size=1,
        max_size=5,
    ),
    compiled=st.booleans(),
)
def test_several_changes_at_once_match_a_full_recomputation(
    seed: int, changes: list[tuple[int, tuple[float, float], Status | None]], compiled: bool
) -> None:
    """The incremental update, on the compiled or the numpy route, against a full one."""
    los.USE_KERNELS = compiled  # put back by the autouse fixture
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    figs = list(bf.figures())
    for k, (x, y), status in changes:
        fig = figs[k % len(figs)]
        bf.move_figure(fig.id, x, y)
        if status is not None:
            bf.update_figure(fig.id, status=status)
    moved = service.matrix()
    assert service.full_recomputes == 1
    fresh = VisibilityService(bf, RULES)
    assert moved.same_as(fresh.matrix())
    cohesion.update([figs[k % len(figs)].id for k, _, _ in changes])
    assert cohesion.groups(RULES) == groups(bf, fresh.matrix(), RULES)


@FAST
@given(
    seed=seeds,
    k=st.integers(0, 7),
    path=st.lists(spots, min_size=2, max_size=6),
    compiled=st.booleans(),
)
def test_a_drag_matches_full_recomputations_at_every_step(
    seed: int, k: int, path: list[tuple[float, float]], compiled: bool
) -> None:
    """What the editor does on every mouse move: matrix(), then Cohesion.update([focus])."""
    los.USE_KERNELS = compiled  # put back by the autouse fixture
    bf = random_table(seed)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    fig = list(bf.figures())[k % len(list(bf.figures()))]
    for x, y in path:
        bf.move_figure(fig.id, x, y)
        row = service.row(fig.id)
        m = service.matrix()
        cohesion.update([fig.id])
        full = VisibilityService(bf, RULES).matrix()
        assert m.same_as(full)
        i = m.position(fig.id)
        assert np.array_equal(row.sees, np.where(np.arange(len(m.ids)) == i, False, m.visible[i]))
        assert cohesion.groups(RULES) == groups(bf, full, RULES)


@FAST
@given(seed=seeds, ragged=st.booleans(), radius=st.sampled_from([0.02, 0.25, 0.5]))
def test_compiled_places_equal_geos_places(seed: int, ragged: bool, radius: float) -> None:
    """Where a base stands, found by the kernel or by GEOS -- also for centres on an
    outline's corners and edges and exactly 1" or 1.5" from them, which the kernel
    leaves to GEOS."""
    bf = random_table(seed, n_features=16, n_figures=2, ragged_woods=ragged)
    index = build_index(bf, RULES)
    rng = np.random.default_rng(seed)
    pts = [rng.uniform(0, 24, (100, 2))]
    for outline in index.outlines:
        corners = np.asarray(outline.exterior.coords)
        mids = (corners[:-1] + corners[1:]) / 2
        shift = np.array([[1.0, 0.0], [0.0, -1.0], [0.0, 1.5]])
        pts += [corners, mids, corners + shift[0], corners + shift[1], mids + shift[2]]
    xy = np.vstack(pts)
    radii = np.full(len(xy), radius)
    assert los.locate_compiled(index, xy[:, 0], xy[:, 1], radii, RULES) == locate_many(
        index, xy[:, 0], xy[:, 1], radii, RULES
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chunked_edge_scans_equal_the_plain_ones_to_the_bit(seed: int) -> None:
    """Where a base stands skips whole runs of a long outline's edges far from it
    (a generated woods has hundreds): the nearest edge's distance and inside-or-not are
    exactly what looking at every edge gives, also for points on the edges' boxes."""
    from crdesk.geometry import kernels

    rng = np.random.default_rng(seed)
    turns = np.sort(rng.uniform(0, 2 * np.pi, 400))
    reach = rng.uniform(4, 9, 400)
    outer = np.c_[12 + reach * np.cos(turns), 12 + reach * np.sin(turns)]
    hole = np.c_[12 + 1.5 * np.cos(turns[::8]), 12 + 1.5 * np.sin(turns[::8])]
    rings = [np.vstack([r, r[:1]]) for r in (outer, hole)]
    seg = np.ascontiguousarray(np.vstack([np.c_[r[:-1], r[1:]] for r in rings]))
    boxes = kernels.chunk_boxes(seg)
    points = np.vstack([rng.uniform(0, 24, (400, 2)), seg[:, :2], seg[::7, :2] + 1e-12])
    for first, count in ((0, len(seg)), (3, len(seg) - 3), (0, len(outer)), (17, 40)):
        for px, py in points.tolist():
            every = min(
                kernels._segment_distance(seg, e, px, py) for e in range(first, first + count)
            )
            assert kernels._edges_distance_chunked(seg, boxes, first, count, px, py) == every
            assert kernels._odd_chunked(seg, boxes, first, count, px, py) == kernels._odd(
                seg, first, count, px, py
            )
