"""Compiled loops for the sight engine's hot path (issue 4: a dragged figure in 1 ms).

The numpy route in :mod:`crdesk.geometry.los` pays about a microsecond per
array call, and judging one figure against all others takes a few hundred
calls before any geometry is done -- more than the issue's budget for a mouse
move.  These plain-Python loops do the same work pair by pair and line by
line (gates, raster walk, edge tests against the sight geometries, woods and
building exits, other figures' bases, Cover; the rechecks after a base moved;
where a base stands) and are compiled by numba, so a whole row of 297 lines
costs about a tenth of a millisecond.

They decide exactly what the numpy route decides: a raster sample in a cell
wholly inside a feature blocks; a proper crossing of an edge or an end inside
an outline blocks; no contact at all leaves the line open; anything else (an
end inside woods or a building, an exact touch) is *deferred* to the exact
GEOS rules.  Property tests run both routes on random tables and compare.

The engine uses them once :func:`crdesk.geometry.los.warm_up` (in the GUI,
:func:`~crdesk.geometry.los.warm_up_in_background`) has compiled them; until then, and without
numba or with ``CRDESK_NO_JIT=1`` in the environment, it keeps its numpy
route.  Compiled code is cached on disk: the first run after an install
compiles for 15-30 seconds on one core (the GUI does it in the background),
later runs load it in about a second.
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

AVAILABLE = not os.environ.get("CRDESK_NO_JIT") and importlib.util.find_spec("numba") is not None
"""numba is installed and not switched off (it is imported only when first needed:
importing it costs more than half a second, which every ``crdesk`` command would pay)."""

TERRAIN_OPEN = 0
TERRAIN_BLOCKED = 1
TERRAIN_DEFER = 2

# Role numbers (crdesk.geometry.terrain_index.Role); plain ints for the compiler
_WOODS, _BUILDING, _CREST, _OBSTACLE = 0, 1, 3, 4


def _holds(table: Any, row: int, f: int) -> bool:
    """Is ``f`` in ``table[row]``?  (Rows are passed by number: a slice of an array in
    compiled code costs two atomic reference counts, which add up over many lines.)"""
    # plain loops throughout: numba compiles them, not generator expressions
    for s in range(table.shape[1]):  # noqa: SIM110
        if table[row, s] == f:
            return True
    return False


def _crossings(
    seg: Any, first: int, count: int, px: float, py: float, qx: float, qy: float
) -> tuple[int, bool]:
    """Proper crossings of p -> q with edges ``seg[first:first + count]``, and whether any
    cross product was exactly zero (a touch or a run along an edge: only GEOS can say)."""
    ex = qx - px
    ey = qy - py
    n = 0
    touch = False
    for e in range(first, first + count):
        s0x, s0y, s1x, s1y = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
        d1 = ex * (s0y - py) - ey * (s0x - px)
        d2 = ex * (s1y - py) - ey * (s1x - px)
        d3 = (s1x - s0x) * (py - s0y) - (s1y - s0y) * (px - s0x)
        d4 = (s1x - s0x) * (qy - s0y) - (s1y - s0y) * (qx - s0x)
        if d1 * d2 < 0 and d3 * d4 < 0:
            n += 1
        elif d1 == 0 or d2 == 0 or d3 == 0 or d4 == 0:
            touch = True
    return n, touch


def _inside(seg: Any, first: int, count: int, box: Any, bi: int, ux: float, uy: float) -> bool:
    """Is (ux, uy) inside the outline whose rings are these edges and whose bounding box
    is ``box[bi]`` (ray casting)?"""
    if ux < box[bi, 0] or ux > box[bi, 2] or uy < box[bi, 1] or uy > box[bi, 3]:
        return False
    odd = False
    for e in range(first, first + count):
        a0x, a0y, a1x, a1y = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
        if (a0y > uy) != (a1y > uy):
            xc = a0x + (uy - a0y) * (a1x - a0x) / (a1y - a0y)
            if ux < xc:
                odd = not odd
    return odd


def _meets(
    seg: Any,
    first: int,
    count: int,
    box: Any,
    bi: int,
    solid: bool,
    px: float,
    py: float,
    qx: float,
    qy: float,
) -> tuple[bool, bool]:
    """(meets, unsure): does p -> q meet the geometry with these edges and bounding box
    ``box[bi]`` (an outline when ``solid``)?  Sure when a crossing is proper or an end
    lies inside; no contact at all means no; ``unsure`` when only a touch was seen."""
    if box[bi, 0] > max(px, qx) or box[bi, 2] < min(px, qx):
        return False, False
    if box[bi, 1] > max(py, qy) or box[bi, 3] < min(py, qy):
        return False, False
    n, touch = _crossings(seg, first, count, px, py, qx, qy)
    if n:
        return True, False
    if solid and (
        _inside(seg, first, count, box, bi, px, py) or _inside(seg, first, count, box, bi, qx, qy)
    ):
        return True, False
    return False, touch


# Positions in the ``codes`` array of reason codes the kernels hand out
(
    C_VISIBLE,
    C_FIGURE,
    C_WOODS,
    C_WOODS_DEEP,
    C_INTERIOR,
    C_WALL,
    C_OFF_TABLE,
    C_OUT_OF_ARC,
    C_LIMIT,
    C_WOODS_RANGE,
) = range(10)


def terrain_line(
    terrain: Any,
    cont: Any,
    crest: Any,
    deep: Any,
    ia: int,
    ib: int,
    wall_a: int,
    wall_b: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
    hint: float,
) -> tuple[int, int, int, float]:
    """What terrain alone says of the line p -> q: (TERRAIN_*, reason code, feature, and
    where along the line the raster found it blocked, or -1).

    ``hint`` (a fraction along the line, or -1) is looked at first: where the
    centre line was blocked, a side line usually is too.

    The rules of :func:`crdesk.geometry.los._exact`: rows ``ia`` and ``ib`` of
    ``cont`` are the containers (woods, building) of the two ends, of ``crest``
    the crests near them, of ``deep`` the woods they are deep in; ``wall_*`` the
    walls entry (building outline less the openings they stand at; -1: at no
    opening) of the building they are in.  ``terrain`` is
    :func:`crdesk.geometry.los._kernel_terrain`'s tuple.
    """
    (
        label,
        x0,
        y0,
        inv_cell,
        step,
        g_role,
        g_feat,
        g_box,
        seg,
        g_start,
        g_count,
        kind_code,
        role_code,
        convex,
        core_box,
        core_seg,
        core_start,
        core_count,
        w_seg,
        w_start,
        w_count,
        codes,
        _geom_of,
        _feature_role,
        _is_woods,
    ) = terrain
    ex = qx - px
    ey = qy - py
    rows, cols = label.shape
    if rows > 0:
        n = max(math.ceil(math.hypot(ex, ey) / step), 1) + 1
        inv = 1.0 / (n - 1)
        for k in range(-1 if hint >= 0 else 0, n):
            t = hint if k < 0 else k * inv
            c = int((px + ex * t - x0) * inv_cell)
            r = int((py + ey * t - y0) * inv_cell)
            c = min(max(c, 0), cols - 1)
            r = min(max(r, 0), rows - 1)
            lab = label[r, c]
            if lab >= 0 and not _holds(cont, ia, lab) and not _holds(cont, ib, lab):
                return TERRAIN_BLOCKED, kind_code[lab], lab, t
    defer = False
    for g in range(g_role.shape[0]):
        role = g_role[g]
        if role == _OBSTACLE:
            continue
        if g_box[g, 0] > max(px, qx) or g_box[g, 2] < min(px, qx):
            continue
        if g_box[g, 1] > max(py, qy) or g_box[g, 3] < min(py, qy):
            continue
        f = g_feat[g]
        ina = inb = False
        if role in (_WOODS, _BUILDING):
            ina = _holds(cont, ia, f)
            inb = _holds(cont, ib, f)
            if ina and inb:
                continue  # both in it: it never blocks them
        elif role == _CREST and (_holds(crest, ia, f) or _holds(crest, ib, f)):
            continue  # within 1" of the crest: seen over it
        meets, unsure = _meets(
            seg, g_start[g], g_count[g], g_box, g, role != _CREST, px, py, qx, qy
        )
        if unsure:
            defer = True
        if not meets:
            continue
        if not (ina or inb):
            return TERRAIN_BLOCKED, role_code[role], f, -1.0
        # the line starts inside this woods or building: may it leave? (7.9.4, 8.3, 15.2)
        if role == _WOODS:
            if _holds(deep, ia if ina else ib, f):
                return TERRAIN_BLOCKED, codes[C_WOODS_DEEP], f, -1.0
            deeper, unsure = _meets(
                core_seg, core_start[f], core_count[f], core_box, f, True, px, py, qx, qy
            )
            if deeper:
                return TERRAIN_BLOCKED, codes[C_WOODS], f, -1.0
            if unsure:
                defer = True
                continue
            if not convex[f]:
                # out and back in: the line's stretches inside the woods, counted
                crossed, touch = _crossings(seg, g_start[g], g_count[g], px, py, qx, qy)
                if touch:
                    defer = True
                    continue
                ends_in = _inside(seg, g_start[g], g_count[g], g_box, g, px, py) + _inside(
                    seg, g_start[g], g_count[g], g_box, g, qx, qy
                )
                if (crossed + ends_in) // 2 > 1:
                    return TERRAIN_BLOCKED, codes[C_WOODS], f, -1.0
        else:
            wall = wall_a if ina else wall_b
            if wall < 0:
                return TERRAIN_BLOCKED, codes[C_INTERIOR], f, -1.0
            crossed, touch = _crossings(w_seg, w_start[wall], w_count[wall], px, py, qx, qy)
            if crossed:
                return TERRAIN_BLOCKED, codes[C_WALL], f, -1.0
            if touch:
                defer = True
    if defer:
        return TERRAIN_DEFER, 0, -1, -1.0
    return TERRAIN_OPEN, 0, -1, -1.0


def sight_line(
    x: Any, y: Any, r: Any, ia: int, ib: int, j: int, sample_fraction: float
) -> tuple[float, float, float, float]:
    """Ends of sight line ``j`` (0 centre, 1 left, 2 right) from ia to ib: the points
    ``sample_fraction`` of the way out across the line (los._line_ends' arithmetic)."""
    dx = x[ib] - x[ia]
    dy = y[ib] - y[ia]
    centre = math.hypot(dx, dy)
    safe = centre if centre > 0 else 1.0
    nx = -dy / safe
    ny = dx / safe
    side = 0.0 if j == 0 else (1.0 if j == 1 else -1.0)
    oa = r[ia] * sample_fraction * side
    ob = r[ib] * sample_fraction * side
    return x[ia] + nx * oa, y[ia] + ny * oa, x[ib] + nx * ob, y[ib] + ny * ob


def base_on_line(
    vx: Any,
    vy: Any,
    vr: Any,
    blocks: Any,
    graze: float,
    a: int,
    b: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
) -> int:
    """The blocking base nearest the viewer on the line p -> q (7.9.4), or -1.

    The same arithmetic as :func:`crdesk.geometry.los._bases`, so the same answer.
    """
    ex = qx - px
    ey = qy - py
    ll = ex * ex + ey * ey
    den = ll if ll > 0 else 1.0
    best = -1
    best_t = np.inf
    for c in range(vx.shape[0]):
        if not blocks[c] or c in (a, b):
            continue
        cr = vr[c] - graze
        if cr <= 0:
            continue
        wx = vx[c] - px
        wy = vy[c] - py
        t = min(max((wx * ex + wy * ey) / den, 0.0), 1.0)
        ddx = wx - t * ex
        ddy = wy - t * ey
        if ddx * ddx + ddy * ddy < cr * cr and t < best_t:
            best_t = t
            best = c
    return best


def _cover_of(terrain: Any, view: Any, v: int, t: int, seen: bool) -> tuple[bool, bool, bool]:
    """(Cover, concealed, unsure) of target t seen from v (7.9.5, 15.2): the rules of
    :func:`crdesk.geometry.los._cover`; ``unsure`` when only GEOS can say whether the
    line touches a nearby obstacle or crest."""
    seg, g_start, g_count, g_box = terrain[8], terrain[9], terrain[10], terrain[7]
    geom_of, feature_role = terrain[22], terrain[23]
    x, y, moving, area, veh, near = view[0], view[1], view[6], view[15], view[16], view[18]
    tin = area[t] and seen
    conc = tin or (veh[t] and seen)
    cover = tin and not moving[t]
    unsure = False
    if seen and not cover and near[t, 0] >= 0:
        for s in range(near.shape[1]):
            ff = near[t, s]
            if ff < 0:
                continue
            role = _OBSTACLE if feature_role[ff] == _OBSTACLE else _CREST
            g = geom_of[ff, role]
            if g < 0:
                continue  # a crest too short to index gives no Cover
            meets, touch = _meets(
                seg, g_start[g], g_count[g], g_box, g, role != _CREST, x[v], y[v], x[t], y[t]
            )
            if meets:
                return True, conc, False
            unsure = unsure or touch
    return cover, conc, unsure


def evaluate_pairs(
    terrain: Any,
    view: Any,
    a: Any,
    b: Any,
    graze: float,
    sample_fraction: float,
    woods_limit: float,
    limit: float,
    out: Any,
) -> tuple[int, int]:
    """Everything :func:`crdesk.geometry.los.evaluate` decides, for each pair (a[i], b[i]).

    Gates (presence, sealed figures, the same-woods limit, front arc,
    night/weather ``limit``, negative for none), the three sight lines in order
    (centre, left, right) until one is open, Cover and concealment both ways.
    ``view`` is :func:`crdesk.geometry.los._kernel_view`'s tuple, ``out`` the
    arrays to fill (see :func:`crdesk.geometry.los._evaluate_compiled`).
    Returns how many pairs have lines and how many directions have Cover left
    to the exact rules: line state 3 and ``cover_unsure``.
    """
    codes = terrain[21]
    is_woods = terrain[24]
    x, y, r, fx, fy, blocks, _moving, lit, present = view[:9]
    cont, crest, deep, wall, seal_feat, seal_code = view[9:15]
    woods_in = view[17]
    (
        dist,
        ab,
        ba,
        ab_feat,
        ba_feat,
        cover_ab,
        cover_ba,
        conc_ab,
        conc_ba,
        gate_ab,
        gate_ba,
        lcode,
        lfeat,
        lstate,
        cover_unsure,
    ) = out
    vis = codes[C_VISIBLE]
    lines_left = 0
    covers_left = 0
    for i in range(a.shape[0]):
        ia, ib = a[i], b[i]
        dx = x[ib] - x[ia]
        dy = y[ib] - y[ia]
        centre = math.hypot(dx, dy)
        d = max(centre - r[ia] - r[ib], 0.0)
        dist[i] = d
        # symmetric gates
        sym = vis
        sfeat = -1
        if not (present[ia] and present[ib]):
            sym = codes[C_OFF_TABLE]
        sf = seal_feat[ia]
        if sf >= 0 and sym == vis and not _holds(cont, ib, sf):
            sym = seal_code[ia]
            sfeat = sf
        sf = seal_feat[ib]
        if sf >= 0 and sym == vis and not _holds(cont, ia, sf):
            sym = seal_code[ib]
            sfeat = sf
        if d > woods_limit and sym == vis and woods_in[ia] and woods_in[ib]:
            shared = -1
            for s in range(cont.shape[1]):
                f = cont[ia, s]
                if f >= 0 and is_woods[f] and _holds(cont, ib, f) and (shared < 0 or f < shared):
                    shared = f
            if shared >= 0:
                sym = codes[C_WOODS_RANGE]
                sfeat = shared
        # each direction: front arc, night or weather
        cab = sym
        cba = sym
        if (
            cab == vis
            and (fx[ia] != 0 or fy[ia] != 0)
            and fx[ia] * dx + fy[ia] * dy <= graze - r[ib]
        ):
            cab = codes[C_OUT_OF_ARC]
        if (
            cba == vis
            and (fx[ib] != 0 or fy[ib] != 0)
            and fx[ib] * -dx + fy[ib] * -dy <= graze - r[ia]
        ):
            cba = codes[C_OUT_OF_ARC]
        if limit >= 0:
            if cab == vis and d > limit and not lit[ib]:
                cab = codes[C_LIMIT]
            if cba == vis and d > limit and not lit[ia]:
                cba = codes[C_LIMIT]
        gab = cab == vis
        gba = cba == vis
        gate_ab[i] = gab
        gate_ba[i] = gba
        fab = sfeat
        fba = sfeat
        for j in range(3):
            lcode[i, j] = -1
            lfeat[i, j] = -1
            lstate[i, j] = 0
        if gab or gba:
            # the three sight lines: centre, then the points halfway out across the line
            seen = False
            waiting = False
            hint = -1.0
            for j in range(3):
                px, py, qx, qy = sight_line(x, y, r, ia, ib, j, sample_fraction)
                res, c, f, t_block = terrain_line(
                    terrain,
                    cont,
                    crest,
                    deep,
                    ia,
                    ib,
                    wall[ia],
                    wall[ib],
                    px,
                    py,
                    qx,
                    qy,
                    hint,
                )
                if j == 0:
                    hint = t_block
                if res == TERRAIN_BLOCKED:
                    lstate[i, j] = 2
                    lcode[i, j] = c
                    lfeat[i, j] = f
                elif res == TERRAIN_DEFER:
                    lstate[i, j] = 3
                    waiting = True
                else:
                    lstate[i, j] = 1
                    blk = base_on_line(x, y, r, blocks, graze, ia, ib, px, py, qx, qy)
                    if blk >= 0:
                        lcode[i, j] = codes[C_FIGURE]
                        lfeat[i, j] = -(blk + 2)
                    else:
                        lcode[i, j] = vis
                        seen = True
                        break
            if seen:
                pc, pf = vis, -1
            else:
                pc, pf = lcode[i, 0], lfeat[i, 0]
                if waiting:
                    lines_left += 1
            if gab:
                cab, fab = pc, pf
            if gba:
                cba, fba = pc, pf
        ab[i] = cab
        ba[i] = cba
        ab_feat[i] = fab
        ba_feat[i] = fba
        cv, cn, un = _cover_of(terrain, view, ia, ib, gab)
        cover_ab[i], conc_ab[i], cover_unsure[i, 0] = cv, cn, un
        cv, cn, un2 = _cover_of(terrain, view, ib, ia, gba)
        cover_ba[i], conc_ba[i], cover_unsure[i, 1] = cv, cn, un2
        covers_left += un + un2
    return lines_left, covers_left


def recheck_moved(
    view: Any,
    state: Any,
    moved: Any,
    spots: Any,
    graze: float,
    sample_fraction: float,
    matrices: Any,
    unsure: Any,
) -> int:
    """After bases moved (``spots``: rows x, y, r, old and new places), the pairs whose
    ends stayed put: those with a line open on terrain and a gate open (``open_``)
    whose centre-to-centre corridor passes near a spot keep sight if a line open on
    terrain stays clear of every base.  Their verdicts are written both ways; pairs
    that lost every line known open but have lines never judged are listed in
    ``unsure`` (rows a, b) for a full judgement, and their count returned.  The
    arithmetic of :func:`crdesk.geometry.los._segments_near` and
    :func:`crdesk.geometry.los.recheck_bases`; ``state`` is the (n, n, 3) line states."""
    x, y, r, blocks = view[0], view[1], view[2], view[5]
    open_, gate, raw_cover, raw_conc, visible, cover, concealed = matrices
    n = x.shape[0]
    left = 0
    for ia in range(n):
        if moved[ia]:
            continue
        for ib in range(ia + 1, n):
            if not open_[ia, ib] or moved[ib]:
                continue
            px, py, qx, qy = x[ia], y[ia], x[ib], y[ib]
            ex = qx - px
            ey = qy - py
            ll = ex * ex + ey * ey
            den = ll if ll > 0 else 1.0
            hit = False
            for s in range(spots.shape[0]):
                wx = spots[s, 0] - px
                wy = spots[s, 1] - py
                t = min(max((wx * ex + wy * ey) / den, 0.0), 1.0)
                dx = wx - t * ex
                dy = wy - t * ey
                reach = spots[s, 2] + max(r[ia], r[ib])
                if dx * dx + dy * dy < reach * reach:
                    hit = True
                    break
            if not hit:
                continue
            clear = False
            known_open = False
            unjudged = False
            for j in range(3):
                if state[ia, ib, j] == 0:
                    unjudged = True
                if state[ia, ib, j] != 1 or clear:
                    continue
                known_open = True
                lpx, lpy, lqx, lqy = sight_line(x, y, r, ia, ib, j, sample_fraction)
                if base_on_line(x, y, r, blocks, graze, ia, ib, lpx, lpy, lqx, lqy) < 0:
                    clear = True
            for v, t_ in ((ia, ib), (ib, ia)):
                seen = clear and gate[v, t_]
                visible[v, t_] = seen
                cover[v, t_] = raw_cover[v, t_] and seen
                concealed[v, t_] = raw_conc[v, t_] and seen
            if not clear and known_open and unjudged:
                unsure[left, 0] = ia
                unsure[left, 1] = ib
                left += 1
    return left


def store_pairs(verdicts: Any, visible_code: int, targets: Any) -> None:
    """Write verdicts of pairs (a, b) into the service's n x n arrays, both directions:
    the scatter of :meth:`crdesk.visibility.VisibilityService._store` in one pass."""
    a, b, dist, ab, ba, gate_ab, gate_ba, cover_ab, cover_ba, conc_ab, conc_ba, state = verdicts
    gate, raw_cover, raw_conc, visible, cover, concealed, distance, lines, open_ = targets
    for i in range(a.shape[0]):
        x, y = a[i], b[i]
        sab = ab[i] == visible_code
        sba = ba[i] == visible_code
        gate[x, y] = gate_ab[i]
        gate[y, x] = gate_ba[i]
        raw_cover[x, y] = cover_ab[i]
        raw_cover[y, x] = cover_ba[i]
        raw_conc[x, y] = conc_ab[i]
        raw_conc[y, x] = conc_ba[i]
        visible[x, y] = sab
        visible[y, x] = sba
        cover[x, y] = cover_ab[i] and sab
        cover[y, x] = cover_ba[i] and sba
        concealed[x, y] = conc_ab[i] and sab
        concealed[y, x] = conc_ba[i] and sba
        distance[x, y] = dist[i]
        distance[y, x] = dist[i]
        some_open = False
        for j in range(3):
            lines[x, y, j] = state[i, j]
            some_open = some_open or state[i, j] == 1
        # pairs a moved base could block or unblock: a line open on terrain, a gate open
        open_[x, y] = some_open and (gate_ab[i] or gate_ba[i])


def _segment_distance(seg: Any, e: int, px: float, py: float) -> float:
    """Distance from (px, py) to edge ``seg[e]``."""
    ax, ay, bx, by = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
    dx = bx - ax
    dy = by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll <= 0 else min(max(((px - ax) * dx + (py - ay) * dy) / ll, 0.0), 1.0)
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _edges_distance(seg: Any, first: int, count: int, px: float, py: float) -> float:
    best = np.inf
    for e in range(first, first + count):
        best = min(best, _segment_distance(seg, e, px, py))
    return best


# Flags of locate_points, per point and feature
IN_WOODS, DEEP, NEAR_CREST, IN_BUILDING, IN_IMPASSABLE, IN_VEHICLE, NEAR_OBSTACLE = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
)
# Feature kinds for locate_points (bits)
K_WOODS, K_BUILDING, K_IMPASSABLE, K_COVER, K_VEHICLE = 1, 2, 4, 8, 16


def _near(value: float, limit: float, tol: float) -> bool:
    return abs(value - limit) <= tol


def locate_points(
    places: Any,
    xs: Any,
    ys: Any,
    radii: Any,
    reach: float,
    cover_d: float,
    edge_band: float,
    crest_band: float,
    at_opening: float,
    tol: float,
    flags: Any,
    openings: Any,
    defer: Any,
) -> None:
    """Where each base stands: the rules of :func:`crdesk.geometry.terrain_index.locate_many`.

    ``flags[k, f]`` gets the IN_* / NEAR_* bits of feature f for point k,
    ``openings[k]`` the bit mask of the doors and windows of its building the
    base is at.  Any distance within ``tol`` of a limit it is compared with (a
    figure set exactly 1" from a woods edge, a centre on an outline) sets
    ``defer[k]``: GEOS decides that point, so the answers are GEOS's.
    """
    (
        o_box,
        o_seg,
        o_start,
        o_count,
        x_seg,
        x_start,
        x_count,
        c_seg,
        c_start,
        c_count,
        kind,
        op_seg,
        op_start,
        op_count,
    ) = places
    n_feat = o_box.shape[0]
    for k in range(xs.shape[0]):
        px, py, rad = xs[k], ys[k], radii[k]
        openings[k] = 0
        defer[k] = False
        building = -1
        vehicle = -1
        for f in range(n_feat):
            flags[k, f] = 0
            # a bounding box farther than reach: so is the outline
            gx = max(o_box[f, 0] - px, 0.0, px - o_box[f, 2])
            gy = max(o_box[f, 1] - py, 0.0, py - o_box[f, 3])
            if gx * gx + gy * gy > (reach + tol) * (reach + tol):
                continue
            ring_d = _edges_distance(o_seg, o_start[f], o_count[f], px, py)
            if ring_d <= tol:
                defer[k] = True  # on the outline: inside or not is GEOS's call
                continue
            inside = _inside(o_seg, o_start[f], o_count[f], o_box, f, px, py)
            poly_d = 0.0 if inside else ring_d
            if _near(poly_d, reach, tol):
                defer[k] = True
                continue
            if poly_d > reach:
                continue
            edge_d = _edges_distance(x_seg, x_start[f], x_count[f], px, py)
            bits = 0
            what = kind[f]
            if inside and what & K_WOODS:
                bits |= IN_WOODS
                if _near(edge_d, edge_band, tol):
                    defer[k] = True
                elif edge_d > edge_band:
                    bits |= DEEP
            if c_count[f] > 0:
                crest_d = _edges_distance(c_seg, c_start[f], c_count[f], px, py)
                if _near(crest_d, crest_band, tol):
                    defer[k] = True
                elif crest_d <= crest_band:
                    bits |= NEAR_CREST
            if inside and what & K_BUILDING and building < 0:
                building = f
                bits |= IN_BUILDING
                if op_count[f] > 62:
                    defer[k] = True
                for o in range(op_count[f]):
                    d = _segment_distance(op_seg, op_start[f] + o, px, py)
                    if _near(d, rad + at_opening, tol):
                        defer[k] = True
                    elif d <= rad + at_opening:
                        openings[k] |= 1 << o
            if inside and what & K_IMPASSABLE:
                bits |= IN_IMPASSABLE
            if what & K_COVER:
                if inside and what & K_VEHICLE:
                    if vehicle >= 0:
                        flags[k, vehicle] &= ~IN_VEHICLE
                    vehicle = f
                    bits |= IN_VEHICLE
                else:
                    out_d = 0.0 if inside else edge_d
                    if _near(out_d, rad + cover_d, tol):
                        defer[k] = True
                    elif out_d <= rad + cover_d:
                        bits |= NEAR_OBSTACLE
            flags[k, f] = bits


_KERNELS = (
    "_holds",
    "_crossings",
    "_inside",
    "_meets",
    "terrain_line",
    "sight_line",
    "base_on_line",
    "_cover_of",
    "evaluate_pairs",
    "recheck_moved",
    "store_pairs",
    "_segment_distance",
    "_edges_distance",
    "_near",
    "locate_points",
)
"""Compiled in this order: numba resolves the helpers a kernel calls when it compiles it."""


_INLINE = {
    "terrain_line",
    "sight_line",
    "_cover_of",
    "base_on_line",
    "_segment_distance",
    "_near",
}


def _compile() -> None:
    """Compile every kernel (or load it from the disk cache) in place of its Python loop.

    Each name here is rebound to its numba dispatcher, in :data:`_KERNELS` order, so that
    a kernel compiled later calls the compiled helpers.
    """
    from numba import njit

    space = globals()
    for name in _KERNELS:
        space[name] = njit(cache=True, nogil=True, inline="always" if name in _INLINE else "never")(
            space[name]
        )


_state = "cold"
"""cold: not compiled; warming: being compiled; ready; broken: compiling failed."""
_lock = threading.Lock()


def _build(exercise: Callable[[], None]) -> bool:
    """Compile and exercise unless done (call with ``_lock`` held); True when ready.

    A numba that fails to compile leaves the engine on its numpy route (same
    verdicts, slower) rather than breaking line of sight.
    """
    global _state
    if _state not in ("ready", "broken"):
        try:
            _compile()
            exercise()
        except Exception as exc:  # any failure means: stay on numpy
            _state = "broken"
            warnings.warn(f"sight kernels unavailable, using numpy: {exc}", stacklevel=4)
        else:
            _state = "ready"
    return _state == "ready"


def prepare(exercise: Callable[[], None]) -> bool:
    """Compile the kernels, run ``exercise`` on them, and let the engine use them; waits
    for a compile under way.  True when they are ready.

    ``exercise`` is the sight engine's sample table (:func:`crdesk.geometry.los.warm_up`),
    which calls every kernel with the argument types the engine passes, so nothing
    compiles again later; it lives with the engine, which this module never imports.
    """
    if not AVAILABLE:
        return False
    with _lock:
        return _build(exercise)


def prepare_in_background(exercise: Callable[[], None]) -> None:
    """:func:`prepare` on a daemon thread; until it is done the engine keeps its numpy route."""
    global _state
    with _lock:
        if not AVAILABLE or _state != "cold":
            return
        _state = "warming"
    threading.Thread(target=prepare, args=(exercise,), name="crdesk-jit", daemon=True).start()


_pin = threading.local()
"""A route pinned on this thread (a game keeps the route it started on)."""


def usable() -> bool:
    """Whether the engine may call the kernels: only once a warm-up has made them ready.

    Nothing compiles implicitly: a one-shot command (``crdesk los``) is done on
    the numpy route long before numba would be, while the GUI, the tests and
    the benchmarks -- which judge sight thousands of times -- warm up first
    (:func:`crdesk.geometry.los.warm_up`).
    Inside :func:`pinned` the answer is the pinned route's (kernels only if ready).
    """
    route = getattr(_pin, "route", None)
    return _state == "ready" and route is not False


@contextmanager
def pinned(use_kernels: bool) -> Iterator[None]:
    """Judge sight on one route inside the block, whatever the warm-up does meanwhile.

    Both routes give the same verdicts (property-tested); a game still keeps the
    route it started on, so a warm-up finishing mid-game changes nothing in it.
    """
    before = getattr(_pin, "route", None)
    _pin.route = use_kernels
    try:
        yield
    finally:
        _pin.route = before


__all__ = [
    "AVAILABLE",
    "TERRAIN_BLOCKED",
    "TERRAIN_DEFER",
    "TERRAIN_OPEN",
    "base_on_line",
    "evaluate_pairs",
    "pinned",
    "prepare",
    "prepare_in_background",
    "recheck_moved",
    "sight_line",
    "store_pairs",
    "terrain_line",
    "usable",
]
