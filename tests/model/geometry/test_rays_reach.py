"""Many straight moves out of one spot judged in bulk (``movement.rays_reach``, the AI's
spot search) give exactly what walking each one (``farthest_along``) gives; the compiled
walk (``kernels.ray_walks``) gives the same to within rounding."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
import shapely
from shapely.geometry import Polygon

from crdesk.generator import generate
from crdesk.geometry import kernels, movement, warmup
from crdesk.geometry.terrain_index import build_index
from crdesk.model import Battlefield, Building, Table, TerrainFeature, TerrainKind
from crdesk.options import RulesOptions

RULES = RulesOptions()


@pytest.mark.parametrize(
    ("seed", "terrain"), [(3, "urban"), (11, "wooded"), (5, "mountain"), (8, "roll")]
)
def test_rays_reach_equals_the_walk_of_each_ray(seed: int, terrain: str) -> None:
    bf = generate(seed, terrain_type=terrain).battlefield
    index = build_index(bf, RULES, raster=False)
    stops: dict[str | None, int] = {}
    origins = [(x + 0.37, y + 0.21) for x in range(1, 36, 6) for y in range(1, 36, 6)]
    for radius, allowance in ((0.5, 8.0), (0.5, 4.0), (0.25, 12.0)):
        for ox, oy in origins:
            ends = [
                (ox + allowance * math.sin(a), oy - allowance * math.cos(a))
                for a in (2 * math.pi * k / 32 for k in range(32))
            ]
            with kernels.pinned(False):  # GEOS, exactly
                bulk = movement.rays_reach(
                    bf, (ox, oy), ends, allowance, RULES, index=index, radius=radius
                )
            for end, got in zip(ends, bulk, strict=True):
                one = movement.farthest_along(
                    bf, [(ox, oy), end], allowance, RULES, index=index, radius=radius
                )
                assert got == one, ((ox, oy), end, radius)
                stops[one.stopped_by] = stops.get(one.stopped_by, 0) + 1
    # the cases that matter were met: walls, impassable ground, the edge, doors paid for
    assert stops.get(None, 0) > 100 and stops.get("edge", 0) > 10
    assert stops.get("wall", 0) + stops.get("impassable", 0) + stops.get("allowance", 0) > 10


def _fans(
    seed: int, terrain: str
) -> Iterator[tuple[object, object, tuple[float, float], list, float, float]]:
    bf = generate(seed, terrain_type=terrain).battlefield
    index = build_index(bf, RULES, raster=False)
    # origins on a fine grid (some inside woods and buildings, some at walls), and
    # whole-inch ones that put vertical rays along axis-aligned walls
    origins = [(x + 0.37, y + 0.21) for x in range(1, 36, 3) for y in range(1, 36, 3)]
    origins += [(float(x), float(y)) for x in range(2, 36, 5) for y in range(2, 36, 5)]
    for radius, allowance in ((0.5, 8.0), (0.5, 4.0), (0.25, 12.0)):
        for ox, oy in origins:
            ends = [
                (ox + allowance * math.sin(a), oy - allowance * math.cos(a))
                for a in (2 * math.pi * k / 32 for k in range(32))
            ]
            yield bf, index, (ox, oy), ends, allowance, radius


@pytest.mark.skipif(not kernels.AVAILABLE, reason="numba is not installed")
@pytest.mark.parametrize(
    ("seed", "terrain"), [(3, "urban"), (11, "wooded"), (5, "mountain"), (8, "roll"), (21, "urban")]
)
def test_the_compiled_walk_agrees_with_geos(seed: int, terrain: str) -> None:
    assert warmup.warm_up()
    stops: dict[str | None, int] = {}
    for bf, index, origin, ends, allowance, radius in _fans(seed, terrain):
        lines = shapely.linestrings([[origin, e] for e in ends])
        fast = movement._rays_reach_compiled(bf, index, origin, ends, lines, allowance, radius)
        with kernels.pinned(False):
            slow = movement.rays_reach(
                bf, origin, ends, allowance, RULES, index=index, radius=radius
            )
        for end, got, want in zip(ends, fast, slow, strict=True):
            where = (origin, end, radius, allowance)
            assert (got.stopped_by, got.feature_id) == (want.stopped_by, want.feature_id), where
            assert math.dist(got.point, want.point) <= 1e-9, where
            assert abs(got.cost - want.cost) <= 1e-9, where
            stops[want.stopped_by] = stops.get(want.stopped_by, 0) + 1
    assert stops.get(None, 0) > 100


def test_the_compiled_walk_leaves_touches_to_geos() -> None:
    """A move running along a wall, or ending exactly on a wood's edge, is walked by GEOS."""
    assert warmup.warm_up()
    wood = TerrainFeature("w", TerrainKind.WOODS, "w", Polygon([(4, 4), (8, 4), (8, 8), (4, 8)]))
    house = Building("h", TerrainKind.BUILDING, "h", Polygon([(10, 2), (14, 2), (14, 6), (10, 6)]))
    bf = Battlefield(Table(20, 20), [wood, house], [])
    index = build_index(bf, RULES, raster=False)
    for origin, end in (((10.0, 8.0), (10.0, 0.5)), ((2.0, 6.0), (4.0, 6.0)), ((6, 6), (6, 12))):
        lines = shapely.linestrings([[origin, end]])
        fast = movement._rays_reach_compiled(bf, index, origin, [end], lines, 8.0, 0.5)
        with kernels.pinned(False):
            slow = movement.rays_reach(bf, origin, [end], 8.0, RULES, index=index, radius=0.5)
        assert fast == slow, (origin, end)
    # and the middle of a wood costs double: 2" of movement gets 1" in
    lines = shapely.linestrings([[(6.0, 6.0), (6.0, 7.5)]])
    (reach,) = movement._rays_reach_compiled(bf, index, (6.0, 6.0), [(6.0, 7.5)], lines, 2.0, 0.5)
    assert reach.stopped_by is None and reach.point == pytest.approx((6.0, 7.0))
