"""The fast Duck Back search gives exactly the answer of the plain one (7.4.4).

:func:`movement.nearest_cover` judges the spots within 6" nearest first, in
batches, locates them with the compiled kernels when they are warmed, and keeps
the grown walls and impassable ground on the terrain index.  None of this may
change its answer: :func:`reference_nearest_cover` below is a verbatim copy of
the function as it was before (it judges every spot, then takes the nearest good
one in stable order), and both must return the same :class:`DuckBack` -- point,
distance, prone_in_place and reason, compared exactly -- on dense random tables
and generated ones (woods, buildings with doors and windows, hills, impassable
ground, walls), for 28mm and 15mm bases, with the kernels on and off.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, Polygon

import crdesk.geometry.los as los
from crdesk.generator import generate
from crdesk.geometry import movement
from crdesk.geometry.los import Viewpoints, evaluate
from crdesk.geometry.movement import (
    _HIDDEN,
    DUCK_BACK_DISTANCE,
    DuckBack,
    _obstacles,
    _points,
    leaves_table,
    path_cost,
)
from crdesk.geometry.terrain_index import (
    GRAZE,
    TerrainIndex,
    build_index,
    locate,
    locate_many,
)
from crdesk.model import (
    Battlefield,
    Building,
    Figure,
    Force,
    Opening,
    OpeningKind,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import Interpretations, RulesOptions, Weather
from tests.model.geometry.random_tables import random_table

Point2 = tuple[float, float]
RULES = RulesOptions()


def _crosses_wall(index: TerrainIndex, start: Point, spot: Point2, place: object) -> bool:
    """A Duck Back into a building must pass a door or window (8.2): the plain check,
    one segment at a time, the vectorised one (:func:`movement.straight_way_open`) is
    compared with."""
    seg = LineString([(start.x, start.y), spot])
    for n in index.outline_tree.query(seg).tolist():
        if index.kinds[n] is not TerrainKind.BUILDING:
            continue
        for p in _points(seg.intersection(index.outlines[n].exterior)):
            if not any(o.distance(p) <= GRAZE for _k, _o, o in index.building_openings.get(n, [])):
                return True
    return False


def reference_nearest_cover(
    battlefield: Battlefield,
    figure: Figure,
    threat: Point2,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    max_distance: float = DUCK_BACK_DISTANCE,
    spacing: float = 0.25,
) -> DuckBack:
    """``movement.nearest_cover`` as it was before the fast search (verbatim)."""
    calm = replace(rules, night=False, weather=Weather.CLEAR)
    index = index or build_index(battlefield, calm, raster=False)
    r = figure.radius
    ax = np.arange(-max_distance, max_distance + 1e-9, spacing)
    gx, gy = np.meshgrid(ax, ax)
    keep = np.hypot(gx, gy) <= max_distance
    xs = np.concatenate([[0.0], gx[keep]]) + figure.x
    ys = np.concatenate([[0.0], gy[keep]]) + figure.y
    table = battlefield.table
    on = (xs >= r) & (xs <= table.width - r) & (ys >= r) & (ys <= table.height - r)
    on[0] = True
    grown = _obstacles(index, r)
    if grown is not None:
        on &= ~shapely.contains_xy(grown, xs, ys)
    # a base may not stand on a wall or in a vehicle
    solid = [index.outlines[n] for n in index.obstacle_ids]
    if solid:
        walls_grown = shapely.union_all(solid).buffer(max(r - GRAZE, 0.0), quad_segs=4)
        on[1:] &= ~shapely.contains_xy(walls_grown, xs[1:], ys[1:])
    xs, ys = xs[on], ys[on]
    dist = np.hypot(xs - figure.x, ys - figure.y)
    places = locate_many(index, xs, ys, np.full(len(xs), r), calm)
    n = len(xs)
    vp = Viewpoints(
        ids=["@threat", *[f"@{k}" for k in range(n)]],
        x=np.concatenate([[threat[0]], xs]),
        y=np.concatenate([[threat[1]], ys]),
        r=np.concatenate([[0.0], np.full(n, r)]),
        fx=np.zeros(n + 1),
        fy=np.zeros(n + 1),
        blocks=np.zeros(n + 1, dtype=bool),
        moving=np.zeros(n + 1, dtype=bool),
        lit=np.zeros(n + 1, dtype=bool),
        present=np.ones(n + 1, dtype=bool),
        places=[locate(index, threat[0], threat[1], 0.0, calm), *places],
    )
    res = evaluate(index, vp, np.zeros(n, dtype=np.int64), np.arange(1, n + 1), calm)
    hidden = np.isin(res.ab, list(_HIDDEN))
    covered = (res.ab == 0) & res.cover_ab
    good = hidden | covered
    if not rules.interpretations.duck_back_interiors_count:
        good &= np.array([p.building < 0 for p in places], dtype=bool)
    here = Point(figure.x, figure.y)
    for k in np.argsort(dist, kind="stable"):
        if not good[k]:
            continue
        spot = (float(xs[k]), float(ys[k]))
        if dist[k] == 0:
            return DuckBack(spot, 0.0, False, "hidden" if hidden[k] else "cover")
        cost = path_cost(
            battlefield, [(here.x, here.y), spot], calm, index=index, radius=r, ignore_terrain=True
        )
        if not cost.allowed or _crosses_wall(index, here, spot, places[k]):
            continue
        # a door costs 2", a window 4", inactive too (8.2)
        doors = movement.opening_cost(index, (here.x, here.y), spot)
        if dist[k] + doors > max_distance + 1e-9:
            continue
        return DuckBack(spot, float(dist[k]), False, "hidden" if hidden[k] else "cover")
    return DuckBack((figure.x, figure.y), 0.0, True, "prone")


@pytest.fixture(autouse=True)
def _kernels_back_on() -> Iterator[None]:
    """Tests here switch the compiled route off; every test starts with it on."""
    los.USE_KERNELS = True
    yield
    los.USE_KERNELS = True


# -- tables -------------------------------------------------------------------


def _town() -> Battlefield:
    """Buildings with doors and windows on every side, a rock and a wood between them."""
    terrain: list[TerrainFeature] = []
    k = 0
    for cx in (6.0, 13.0, 20.0):
        for cy in (6.0, 13.0, 20.0):
            w, h = 3.0 + (k % 3) * 0.5, 3.0 + (k % 2)
            x0, y0 = cx - w / 2, cy - h / 2
            outline = Polygon([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])
            ops = [
                Opening(OpeningKind.DOOR, (cx - 0.5, y0 + h), (cx + 0.5, y0 + h)),
                Opening(OpeningKind.WINDOW, (x0 + w, cy - 0.4), (x0 + w, cy + 0.4)),
                Opening(OpeningKind.DOOR, (x0, cy - 0.5), (x0, cy + 0.5)),
                Opening(OpeningKind.WINDOW, (cx - 0.4, y0), (cx + 0.4, y0)),
            ]
            terrain.append(
                Building(f"house-{k}", TerrainKind.BUILDING, f"house {k}", outline, openings=ops)
            )
            k += 1
    rock = Point(9.5, 16.5).buffer(1.2, quad_segs=3)
    terrain.append(TerrainFeature("rock", TerrainKind.IMPASSABLE, "rock", rock))
    wood = Point(16.5, 9.5).buffer(1.5, quad_segs=4)
    terrain.append(TerrainFeature("wood", TerrainKind.WOODS, "wood", wood))
    return Battlefield(Table(26, 26), terrain, [])


def _rocky() -> Battlefield:
    """Much impassable ground, with narrow gaps, and woods around it."""
    rng = np.random.default_rng(11)
    terrain: list[TerrainFeature] = []
    for k in range(30):
        cx, cy = rng.uniform(0, 30), rng.uniform(0, 30)
        poly = Point(cx, cy).buffer(rng.uniform(0.6, 2.0), quad_segs=2)
        kind = TerrainKind.IMPASSABLE if k % 3 else TerrainKind.WOODS
        terrain.append(TerrainFeature(f"t{k}", kind, f"t{k}", poly))
    return Battlefield(Table(30, 30), terrain, [])


def _generated(seed: int, kind: str, scale: str) -> Battlefield:
    return generate(seed, 36, 36, kind, scale=scale).battlefield


TABLES = {
    "dense-a": lambda: random_table(3, n_features=45, n_figures=0, size=24.0),
    "dense-b": lambda: random_table(8, n_features=60, n_figures=0, size=30.0, ragged_woods=True),
    "town": _town,
    "rocky": _rocky,
    "urban-28": lambda: _generated(5, "urban", "28mm"),
    "wooded-15": lambda: _generated(6, "wooded", "15mm"),
    "mountain-28": lambda: _generated(7, "mountain", "28mm"),
}


def _cases(bf: Battlefield, seed: int, count: int) -> Iterator[tuple[Figure, list[Point2]]]:
    """Figures anywhere on the table (in woods and buildings too, near rock and walls),
    each with threats to try in turn: anywhere, or close by."""
    rng = np.random.default_rng(seed)
    w, h = bf.table.width, bf.table.height
    for k in range(count):
        base = (1.0, 0.5, 0.75)[k % 3]
        x, y = float(rng.uniform(0.3, w - 0.3)), float(rng.uniform(0.3, h - 0.3))
        if k % 4 == 3:
            x, y = round(x * 4) / 4, round(y * 4) / 4  # on the grid of another figure
        fig = Figure(f"f{k}", f"f{k}", 4, x=x, y=y, base=base)
        threats: list[Point2] = [(float(rng.uniform(0, w)), float(rng.uniform(0, h)))]
        for _ in range(4):
            ang = float(rng.uniform(0, 2 * np.pi))
            d = float(rng.uniform(2, 14))
            threats.append((x + d * np.cos(ang), y + d * np.sin(ang)))
        yield fig, threats


def _compare(bf: Battlefield, seed: int, count: int, rules: RulesOptions, **kw: float) -> int:
    """Both functions on ``count`` figures; each tries its threats until one makes it move
    (or drop prone).  Returns how many ducked back a distance."""
    index = build_index(bf, rules, raster=True)
    moved = 0
    for fig, threats in _cases(bf, seed, count):
        for threat in threats:
            old = reference_nearest_cover(bf, fig, threat, rules, index=index, **kw)
            new = movement.nearest_cover(bf, fig, threat, rules, index=index, **kw)
            assert new == old, (fig.x, fig.y, fig.base, threat)
            if old.distance > 0 or old.prone_in_place:
                moved += old.distance > 0
                break
    return moved


@pytest.mark.parametrize("kernels_on", [True, False], ids=["kernels", "numpy"])
@pytest.mark.parametrize("name", list(TABLES))
def test_same_answer_as_the_plain_search(name: str, kernels_on: bool) -> None:
    los.USE_KERNELS = kernels_on
    bf = TABLES[name]()
    moved = _compare(bf, seed=len(name), count=16 if kernels_on else 8, rules=RULES)
    assert moved > 0  # the cases reach past the figure's own spot


@pytest.mark.parametrize("kernels_on", [True, False], ids=["kernels", "numpy"])
def test_same_answer_with_options_and_other_grids(kernels_on: bool) -> None:
    los.USE_KERNELS = kernels_on
    bf = random_table(21, n_features=40, n_figures=0, size=24.0)
    no_interiors = RulesOptions(
        interpretations=Interpretations(duck_back_interiors_count=False), night=True
    )
    _compare(bf, 1, 12, no_interiors)
    _compare(bf, 2, 8, RULES, max_distance=3.0, spacing=0.5)
    _compare(bf, 3, 6, RULES, spacing=0.3)
    town = _town()
    _compare(town, 4, 12, no_interiors)


def test_same_answer_without_an_index_and_repeated() -> None:
    """Without an index one is built (and kept until the terrain changes); a cached index
    answers the same again."""
    bf = _town()
    index = build_index(bf, RULES, raster=False)
    for k, (fig, threats) in enumerate(_cases(bf, 9, 8)):
        threat = threats[k % len(threats)]
        old = reference_nearest_cover(bf, fig, threat, RULES)
        assert movement.nearest_cover(bf, fig, threat, RULES) == old
        first = movement.nearest_cover(bf, fig, threat, RULES, index=index)
        assert movement.nearest_cover(bf, fig, threat, RULES, index=index) == first == old
    # a figure in the open, seen from the south: it runs for the nearest house; once a
    # rock is put there, and a wood behind it, the answer follows the new terrain
    fig = Figure("a", "a", 4, x=9.5, y=9.6)
    threat = (9.5, 25.5)
    before = movement.nearest_cover(bf, fig, threat, RULES)
    assert before == reference_nearest_cover(bf, fig, threat, RULES)
    rock = Point(before.point).buffer(0.8, quad_segs=3)
    bf.add_feature(TerrainFeature("rock-2", TerrainKind.IMPASSABLE, "rock 2", rock))
    wood = Point(9.5, 8.0).buffer(1.5, quad_segs=4)
    bf.add_feature(TerrainFeature("wood-2", TerrainKind.WOODS, "wood 2", wood))
    after = movement.nearest_cover(bf, fig, threat, RULES)
    assert after == reference_nearest_cover(bf, fig, threat, RULES)
    assert after != before
    night = RulesOptions(night=True, interpretations=Interpretations(impassable_blocks_los=False))
    assert movement.nearest_cover(bf, fig, threat, night) == reference_nearest_cover(
        bf, fig, threat, night
    )


def test_cached_walls_follow_the_base_size() -> None:
    """The grown walls and rock kept on the index are kept per base radius."""
    bf = _town()
    index = build_index(bf, RULES, raster=True)
    for base in (0.5, 1.0, 2.0, 0.5):
        fig = Figure("a", "a", 4, x=9.5, y=14.2, base=base)
        for threat in ((9.5, 25.0), (1.0, 1.0), (25.0, 16.5)):
            old = reference_nearest_cover(bf, fig, threat, RULES, index=index)
            assert movement.nearest_cover(bf, fig, threat, RULES, index=index) == old


def test_prone_when_nothing_is_in_cover() -> None:
    """An open table: every spot is judged, none is good, the figure drops prone."""
    bf = Battlefield(Table(24, 24), [], [Force("red", "red")])
    fig = Figure("a", "a", 4, x=12, y=12)
    for kernels_on in (True, False):
        los.USE_KERNELS = kernels_on
        res = movement.nearest_cover(bf, fig, (12, 0), RULES)
        assert res == reference_nearest_cover(bf, fig, (12, 0), RULES)
        assert res.prone_in_place


@pytest.mark.parametrize("name", ["town", "rocky", "dense-a", "urban-28"])
def test_straight_way_matches_path_cost_and_walls(name: str) -> None:
    """The vectorised check of the way to a spot agrees with path_cost and _crosses_wall,
    on a quarter-inch grid (ends on walls, door ends and corners) and at random."""
    bf = TABLES[name]()
    index = build_index(bf, RULES, raster=False)
    rng = np.random.default_rng(len(name))
    w, h = bf.table.width, bf.table.height
    for k in range(30):
        base = (1.0, 0.5)[k % 2]
        x0, y0 = float(rng.uniform(1, w - 1)), float(rng.uniform(1, h - 1))
        if k % 3 == 0:
            x0, y0 = round(x0 * 4) / 4, round(y0 * 4) / 4
        ang = rng.uniform(0, 2 * np.pi, 60)
        d = rng.uniform(0.1, 6, 60)
        xs, ys = x0 + d * np.cos(ang), y0 + d * np.sin(ang)
        if k % 3 == 0:
            xs, ys = np.round(xs * 4) / 4, np.round(ys * 4) / 4
        fast = movement._reachable(index, x0, y0, xs, ys, base / 2)
        here = Point(x0, y0)
        for j in range(len(xs)):
            spot = (float(xs[j]), float(ys[j]))
            if spot == (x0, y0) or leaves_table(bf, (x0, y0), spot, base / 2) is not None:
                continue  # nearest_cover only ever judges spots on the table
            cost = path_cost(
                bf, [(x0, y0), spot], RULES, index=index, radius=base / 2, ignore_terrain=True
            )
            slow = cost.allowed and not _crosses_wall(index, here, spot, None)
            assert fast[j] == slow, (x0, y0, spot, base)


def test_a_duck_back_asked_again_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game asks the same Duck Back again (a move checked, then played): the answer is
    kept on the terrain index and given again without a search; another threat, base
    or route is searched afresh."""
    bf = _town()
    index = build_index(bf, RULES, raster=False)
    fig = Figure("a", "a", 4, x=9.5, y=9.6)
    searches: list[Point2] = []
    search = movement._nearest_cover

    def counting(*args: object) -> DuckBack:
        searches.append(args[2])  # type: ignore[arg-type]
        return search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(movement, "_nearest_cover", counting)
    first = movement.nearest_cover(bf, fig, (9.5, 25.5), RULES, index=index)
    assert movement.nearest_cover(bf, fig, (9.5, 25.5), RULES, index=index) == first
    assert first == reference_nearest_cover(bf, fig, (9.5, 25.5), RULES, index=index)
    assert len(searches) == 1
    movement.nearest_cover(bf, fig, (25.5, 9.5), RULES, index=index)
    movement.nearest_cover(bf, replace(fig, base=0.75), (9.5, 25.5), RULES, index=index)
    assert len(searches) == 3
