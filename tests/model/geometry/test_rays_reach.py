"""Many straight moves out of one spot judged in bulk (``movement.rays_reach``, the AI's
spot search) give exactly what walking each one (``farthest_along``) gives."""

from __future__ import annotations

import math

import pytest

from crdesk.generator import generate
from crdesk.geometry import movement
from crdesk.geometry.terrain_index import build_index
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
