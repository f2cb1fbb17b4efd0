"""Many spots at once (``VisibilityService.spots``) agree with moving the figure there.

Duck Back spots (7.7), the solo enemy's spots (11.4) and PEF moves (11.2) are
judged by one batched query; each answer must be the one the sight matrix gives
with the figure actually standing on the spot.
"""

from __future__ import annotations

import numpy as np
import pytest

from crdesk.geometry import kernels
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

RULES = RulesOptions()


def _spots(seed: int, size: float = 24.0) -> list[tuple[float, float]]:
    rng = np.random.default_rng(1000 + seed)
    return [(float(x), float(y)) for x, y in rng.uniform(1.0, size - 1.0, (25, 2))]


@pytest.mark.parametrize("seed", range(12))
def test_spots_equal_the_row_with_the_figure_moved_there(seed: int) -> None:
    bf = random_table(seed, n_figures=8)
    service = VisibilityService(bf, RULES)
    figs = list(bf.figures())
    me = figs[0]
    viewers = [f.id for f in figs[1:]]
    points = _spots(seed)
    got = service.spots(me.id, points, viewers)
    home = (me.x, me.y, me.facing)
    for i, (x, y) in enumerate(points):
        bf.move_figure(me.id, x, y)
        for j, v in enumerate(viewers):
            row = service.row(v)
            k = row.ids.index(me.id)
            assert got.seen[i, j] == row.sees[k], (i, v)
            assert got.cover[i, j] == bool(row.cover_from[k]), (i, v)
            assert got.distance[i, j] == pytest.approx(row.distance[k])
            assert got.safe[i, j] == (not row.sees[k] or row.cover_from[k])
        bf.move_figure(me.id, *home)
    assert (bf.figure(me.id).x, bf.figure(me.id).y) == home[:2]


def test_all_round_ignores_facings_and_empty_inputs_are_empty() -> None:
    bf = random_table(3, n_figures=6)
    service = VisibilityService(bf, RULES)
    figs = list(bf.figures())
    me, viewers = figs[0], [f.id for f in figs[1:]]
    points = _spots(3)
    round_ = service.spots(me.id, points, viewers, all_round=True)
    for f in figs[1:]:
        bf.update_figure(f.id, facing=(f.facing + 180.0) % 360.0)
    assert (service.spots(me.id, points, viewers, all_round=True).seen == round_.seen).all()
    assert service.spots(me.id, [], viewers).seen.shape == (0, len(viewers))
    assert service.spots(me.id, points, []).seen.shape == (len(points), 0)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("seed", range(12))
def test_friends_out_of_the_way_still_block_the_figures_own_shots(
    seed: int, compiled: bool
) -> None:
    """``friends_block=False``: the spot's Cover and who sees it are judged with friends
    out of the way, but its own shots exactly as with friends standing where they are
    (the shortcut that re-checks only their bases must agree with a full judgement)."""
    bf = random_table(seed, n_figures=12)
    service = VisibilityService(bf, RULES)
    figs = list(bf.figures())
    me = figs[0]
    viewers = [f.id for f in figs[1:] if f.side != me.side]
    friends = [f for f in figs[1:] if f.side == me.side]
    assert viewers and friends
    points = _spots(seed)
    with kernels.pinned(compiled):
        loose = service.spots(me.id, points, viewers, all_round=True, friends_block=False)
        tight = service.spots(me.id, points, viewers, all_round=True, friends_block=True)
    assert (loose.sees == tight.sees).all()
    assert (loose.seen >= tight.seen).all() and (loose.distance == tight.distance).all()
