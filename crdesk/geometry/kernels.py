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

The engine uses them once :func:`crdesk.geometry.warmup.warm_up` (in the GUI,
:func:`~crdesk.geometry.warmup.warm_up_in_background`) has compiled them; until then, and without
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
    return _odd(seg, first, count, ux, uy)


def _stretches(
    seg: Any,
    first: int,
    count: int,
    box: Any,
    bi: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
) -> int:
    """How many stretches of p -> q lie inside the outline whose rings are these edges
    (crossings and ends inside, counted), or -1 when a touch leaves it to GEOS: a line
    that leaves a non-convex outline and comes back in has two."""
    crossed, touch = _crossings(seg, first, count, px, py, qx, qy)
    if touch:
        return -1
    ends_in = _inside(seg, first, count, box, bi, px, py) + _inside(
        seg, first, count, box, bi, qx, qy
    )
    return (crossed + ends_in) // 2


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
        f = g_feat[g]
        apart = (
            g_box[g, 0] > max(px, qx)
            or g_box[g, 2] < min(px, qx)
            or g_box[g, 1] > max(py, qy)
            or g_box[g, 3] < min(py, qy)
        )
        # (a building an end stands in at a door or window is judged even so, below)
        if apart and (role != _BUILDING or (wall_a < 0 and wall_b < 0)):
            continue
        ina = inb = False
        if role in (_WOODS, _BUILDING):
            ina = _holds(cont, ia, f)
            inb = _holds(cont, ib, f)
        # the building one end stands in: its walls are judged whether or not the line
        # meets the eroded outline (a centre a hair inside a wall stands outside it)
        own = role == _BUILDING and ina != inb
        if apart and not own:
            continue
        if ina and inb:
            if role == _WOODS or convex[f]:
                continue  # both in it: it never blocks them
            # both in a building that is no rectangle: the line must stay inside it
            # (8.3), not leave through a wall and come back in (an L's inner corner)
            pieces = _stretches(seg, g_start[g], g_count[g], g_box, g, px, py, qx, qy)
            if pieces < 0:
                defer = True
            elif pieces > 1:
                return TERRAIN_BLOCKED, codes[C_WALL], f, -1.0
            continue
        if role == _CREST and (_holds(crest, ia, f) or _holds(crest, ib, f)):
            continue  # within 1" of the crest: seen over it
        if not own:
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
                pieces = _stretches(seg, g_start[g], g_count[g], g_box, g, px, py, qx, qy)
                if pieces < 0:
                    defer = True
                    continue
                if pieces > 1:
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


CHUNK = 16
"""Edges per chunk of an edge table's chunk boxes (:func:`chunk_boxes`)."""
CHUNK_SLACK = 1e-9
"""Inches a chunk's box must lie beyond the answer so far to be skipped: far more than
the rounding of an edge's distance, so a skipped edge could never have changed it."""


def chunk_boxes(seg: Any) -> Any:
    """(ceil(E / CHUNK), 4) bounding boxes (min x, min y, max x, max y) of each run of
    :data:`CHUNK` edges of an edge table: a point far from a run's box is far from all
    its edges, which :func:`_edges_distance_chunked` and :func:`_odd_chunked` skip (a
    generated woods has hundreds of edges; a base near it is near a few)."""
    n = (seg.shape[0] + CHUNK - 1) // CHUNK
    out = np.empty((n, 4), dtype=np.float64)
    for c in range(n):
        lo = c * CHUNK
        hi = min(lo + CHUNK, seg.shape[0])
        part = seg[lo:hi]
        out[c, 0] = min(part[:, 0].min(), part[:, 2].min())
        out[c, 1] = min(part[:, 1].min(), part[:, 3].min())
        out[c, 2] = max(part[:, 0].max(), part[:, 2].max())
        out[c, 3] = max(part[:, 1].max(), part[:, 3].max())
    return out


def _edges_distance_chunked(
    seg: Any, boxes: Any, first: int, count: int, px: float, py: float
) -> float:
    """Distance from (px, py) to the nearest of edges ``seg[first:first + count]``, to
    the float: whole chunks whose box lies farther than the nearest edge found so far
    (by more than :data:`CHUNK_SLACK`) are not looked at."""
    best = np.inf
    e = first
    end = first + count
    while e < end:
        if e % CHUNK == 0 and e + CHUNK <= end:
            c = e // CHUNK
            gx = max(boxes[c, 0] - px, 0.0, px - boxes[c, 2])
            gy = max(boxes[c, 1] - py, 0.0, py - boxes[c, 3])
            if math.hypot(gx, gy) > best + CHUNK_SLACK:
                e += CHUNK
                continue
        best = min(best, _segment_distance(seg, e, px, py))
        e += 1
    return best


# What stopped a straight move (ray_walks' codes; movement's Reach.stopped_by)
STOP_NONE, STOP_WALL, STOP_IMPASSABLE, STOP_EDGE, STOP_ALLOWANCE = 0, 1, 2, 3, 4
# Feature kinds for ray_walks
R_OTHER, R_IMPASSABLE, R_WOODS, R_BUILDING = 0, 1, 2, 3


def _ray_cross(
    seg: Any, e: int, px: float, py: float, ex: float, ey: float, length: float
) -> tuple[int, float]:
    """Does the move p -> p + (ex, ey) cross edge ``seg[e]``: (1 a proper crossing, 0
    none, -1 a touch, a run along it or a crossing too near an end of either to be sure
    in floating point, which only GEOS can settle) and the crossing's distance along
    the move."""
    s0x, s0y, s1x, s1y = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
    if max(s0x, s1x) < min(px, px + ex) or min(s0x, s1x) > max(px, px + ex):
        return 0, 0.0
    if max(s0y, s1y) < min(py, py + ey) or min(s0y, s1y) > max(py, py + ey):
        return 0, 0.0
    sx = s1x - s0x
    sy = s1y - s0y
    d1 = ex * (s0y - py) - ey * (s0x - px)
    d2 = ex * (s1y - py) - ey * (s1x - px)
    d3 = sx * (py - s0y) - sy * (px - s0x)
    d4 = sx * (py + ey - s0y) - sy * (px + ex - s0x)
    # a cross product this small is a point within about 1e-12 of the other line
    eps = _NEAR_ZERO * (abs(ex) + abs(ey)) * (abs(sx) + abs(sy))
    if min(abs(d1), abs(d2), abs(d3), abs(d4)) <= eps:
        return -1, 0.0
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 1, d3 / (d3 - d4) * length
    return 0, 0.0


_NEAR_ZERO = 1e-12


def _crossings_along(
    seg: Any,
    first: int,
    count: int,
    px: float,
    py: float,
    ex: float,
    ey: float,
    length: float,
    out: Any,
    n_out: int,
    keep_below: int,
) -> tuple[int, int]:
    """Proper crossings of the move with edges ``seg[first:first + count]``: (how many,
    -1 if any was unsure); the distances of those on edges before ``keep_below`` are
    written to ``out`` from ``n_out`` on, and the new count returned second."""
    n = 0
    for e in range(first, first + count):
        hit, d = _ray_cross(seg, e, px, py, ex, ey, length)
        if hit < 0:
            return -1, n_out
        if hit > 0:
            n += 1
            if e < keep_below:
                out[n_out] = d
                n_out += 1
    return n, n_out


def ray_walks(
    ox: float,
    oy: float,
    ends: Any,
    lengths: Any,
    allowance: float,
    pair_start: Any,
    pair_feat: Any,
    kind: Any,
    rings: Any,
    grown: Any,
    core: Any,
    openings: Any,
    table: Any,
    graze: float,
    woods_factor: float,
    tol: float,
    status: Any,
    stop_d: Any,
    cost_used: Any,
    code: Any,
    feat: Any,
) -> None:
    """How far each straight move out of (ox, oy) gets: the walk of
    :func:`crdesk.geometry.movement._walk_segment` over the events and woods pieces of
    :func:`crdesk.geometry.movement._rays_events`, for ray k against the features
    ``pair_feat[pair_start[k]:pair_start[k + 1]]`` (the terrain tree's candidates).

    ``rings``, ``grown``, ``core`` are (edges, first, count, exterior count) tables per
    feature: every ring of its outline (the exterior's edges first), and impassable
    ground grown by the base and that less the graze margin; ``openings`` is (edges,
    first, count, cost, building's first opening, count); ``table`` is (width, height,
    base radius) for :func:`crdesk.geometry.movement.leaves_table`.

    Out per ray: ``status`` 1 when the move stops short, 2 when it gets to its end, 0
    when a touch, a tie or a value within ``tol`` of a limit leaves it to GEOS;
    ``stop_d`` the distance along the move of the point reached, ``cost_used``,
    ``code`` (STOP_*) and ``feat`` (-1: none).
    """
    r_seg, r_first, r_count, r_ext = rings
    g_seg, g_first, g_count, _g_ext = grown
    c_seg, c_first, c_count, _c_ext = core
    o_seg, o_first, o_count, o_cost, b_first, b_count = openings
    width, height, radius = table[0], table[1], table[2]
    n_rays = ends.shape[0]
    cap = 8
    for k in range(n_rays):
        need_k = 8
        for i in range(pair_start[k], pair_start[k + 1]):
            need_k += 2 * (r_count[pair_feat[i]] + 1)
        cap = max(cap, need_k)
    ev_d = np.empty(cap)
    ev_cost = np.empty(cap)
    ev_code = np.empty(cap, dtype=np.int64)
    ev_feat = np.empty(cap, dtype=np.int64)
    cuts = np.empty(cap)
    woods = np.empty(pair_feat.shape[0] + 1, dtype=np.int64)
    pc_s = np.empty(cap + 2)
    pc_e = np.empty(cap + 2)
    pc_r = np.empty(cap + 2)
    for k in range(n_rays):
        status[k] = 0
        stop_d[k] = 0.0
        cost_used[k] = 0.0
        code[k] = STOP_NONE
        feat[k] = -1
        length = lengths[k]
        qx, qy = ends[k, 0], ends[k, 1]
        ex = qx - ox
        ey = qy - oy
        n_ev = 0
        n_cut = 2
        cuts[0] = 0.0
        cuts[1] = length
        n_woods = 0
        doubt = False
        for i in range(pair_start[k], pair_start[k + 1]):
            f = pair_feat[i]
            what = kind[f]
            if what == R_IMPASSABLE:
                # the base stops where its centre first meets the grown rock, if it
                # meets the rock less the graze margin at all
                n, _ = _crossings_along(
                    c_seg, c_first[f], c_count[f], ox, oy, ex, ey, length, cuts, 0, -1
                )
                if n < 0:
                    doubt = True
                    break
                if not _met(c_seg, c_first[f], c_count[f], n, ox, oy, qx, qy):
                    continue
                first_d = np.inf
                for e in range(g_first[f], g_first[f] + g_count[f]):
                    hit, d = _ray_cross(g_seg, e, ox, oy, ex, ey, length)
                    if hit < 0:
                        doubt = True
                        break
                    if hit > 0:
                        first_d = min(first_d, d)
                if doubt:
                    break
                if _odd(g_seg, g_first[f], g_count[f], ox, oy):
                    first_d = 0.0
                if first_d == np.inf:
                    doubt = True
                    break
                ev_d[n_ev] = first_d
                ev_cost[n_ev] = np.inf
                ev_code[n_ev] = STOP_IMPASSABLE
                ev_feat[n_ev] = f
                n_ev += 1
            elif what == R_WOODS:
                # a wood the move meets (holes included) halves the pieces inside it;
                # the move is cut where it crosses the exterior or a clearing's edge
                before = n_cut
                n, n_cut = _crossings_along(
                    r_seg,
                    r_first[f],
                    r_count[f],
                    ox,
                    oy,
                    ex,
                    ey,
                    length,
                    cuts,
                    n_cut,
                    r_first[f] + r_count[f],
                )
                if n < 0:
                    doubt = True
                    break
                if not _met(r_seg, r_first[f], r_count[f], n, ox, oy, qx, qy):
                    n_cut = before
                    continue
                woods[n_woods] = f
                n_woods += 1
            elif what == R_BUILDING:
                # each crossing of the outline: an opening paid for, or a wall
                for e in range(r_first[f], r_first[f] + r_ext[f]):
                    hit, d = _ray_cross(r_seg, e, ox, oy, ex, ey, length)
                    if hit < 0:
                        doubt = True
                        break
                    if hit == 0:
                        continue
                    px = ox + ex * (d / length)
                    py = oy + ey * (d / length)
                    cost = np.inf
                    stop = STOP_WALL
                    for o in range(b_first[f], b_first[f] + b_count[f]):
                        gap = _ring_gap(o_seg, o_first[o], o_count[o], px, py)
                        if abs(gap - graze) <= tol:
                            doubt = True
                        if gap <= graze:
                            cost = o_cost[o]
                            stop = STOP_NONE
                            break
                    ev_d[n_ev] = d
                    ev_cost[n_ev] = cost
                    ev_code[n_ev] = stop
                    ev_feat[n_ev] = f
                    n_ev += 1
                if doubt:
                    break
        if doubt:
            continue
        # events in order of distance; a tie or near-tie is GEOS's to order
        order = np.argsort(ev_d[:n_ev], kind="mergesort")
        sd = ev_d[:n_ev][order]
        for i in range(1, n_ev):
            if sd[i] - sd[i - 1] <= tol:
                doubt = True
        for i in range(n_ev):
            cuts[n_cut] = min(max(sd[i], 0.0), length)
            n_cut += 1
        cut = np.sort(cuts[:n_cut])
        for i in range(1, n_cut):
            gap = cut[i] - cut[i - 1]
            if gap != 0.0 and gap <= tol:
                doubt = True
        if doubt:
            continue
        # the rate pieces between the cuts (half speed where the middle is in a wood)
        n_pc = 0
        for i in range(1, n_cut):
            s, t = cut[i - 1], cut[i]
            if t - s <= 1e-12:
                continue
            rate = 1.0
            if n_woods:
                mid = (s + t) / 2 / length
                mx = ox + ex * mid
                my = oy + ey * mid
                for w in range(n_woods):
                    f = woods[w]
                    if _odd(r_seg, r_first[f], r_count[f], mx, my):
                        rate = woods_factor
                        break
            pc_s[n_pc] = s
            pc_e[n_pc] = t
            pc_r[n_pc] = rate
            n_pc += 1
        # the table's edge (leaves_table's arithmetic): an event of its own, and a cut
        # of the piece it falls in
        ed = _leaves_table(width, height, ox, oy, qx, qy, radius)
        if ed >= 0:
            for i in range(n_pc):
                if pc_s[i] < ed < pc_e[i]:
                    for j in range(n_pc, i + 1, -1):
                        pc_s[j] = pc_s[j - 1]
                        pc_e[j] = pc_e[j - 1]
                        pc_r[j] = pc_r[j - 1]
                    pc_s[i + 1] = ed
                    pc_e[i + 1] = pc_e[i]
                    pc_r[i + 1] = pc_r[i]
                    pc_e[i] = ed
                    n_pc += 1
                    break
            for i in range(n_ev):
                if abs(sd[i] - ed) <= tol:
                    doubt = True
            if doubt:
                continue
        # walk: at the same spot a crossing is paid before moving on
        left = allowance
        i_ev = 0
        i_pc = 0
        edge_done = ed < 0
        done = False
        while i_ev < n_ev or i_pc < n_pc or not edge_done:
            # the next mark: the earliest event (the edge among them), else the piece
            nd = np.inf
            which = -1  # 0: an event, 1: the edge, 2: a piece
            if i_ev < n_ev:
                nd = sd[i_ev]
                which = 0
            if not edge_done and (which < 0 or ed < nd):
                nd = ed
                which = 1
            if i_pc < n_pc and (which < 0 or pc_s[i_pc] < nd):
                which = 2
            if which != 2:
                if which == 1:
                    edge_done = True
                    c_cost = np.inf
                    c_code = STOP_EDGE
                    c_feat = -1
                else:
                    j = order[i_ev]
                    c_cost = ev_cost[j]
                    c_code = ev_code[j]
                    c_feat = ev_feat[j]
                    i_ev += 1
                if c_code == STOP_NONE and abs(c_cost - left) <= tol:
                    doubt = True
                    break
                if c_code != STOP_NONE or c_cost > left:
                    # a wall, rock or the edge stops it here, or it cannot pay the cost
                    stop_d[k] = max(nd - graze, 0.0)
                    cost_used[k] = allowance - left
                    code[k] = c_code if c_code != STOP_NONE else STOP_ALLOWANCE
                    feat[k] = c_feat
                    done = True
                    break
                left -= c_cost
                continue
            need = (pc_e[i_pc] - pc_s[i_pc]) * pc_r[i_pc]
            last = i_pc == n_pc - 1 and i_ev == n_ev and edge_done
            if not last and abs(need - left) <= tol:
                doubt = True  # stop here, or go on to what comes next: GEOS's call
                break
            if need >= left:
                stop_d[k] = pc_s[i_pc] + left / pc_r[i_pc]
                cost_used[k] = allowance
                done = True
                break
            left -= need
            i_pc += 1
        if doubt:
            continue
        if done:
            status[k] = 1
        else:
            stop_d[k] = length
            cost_used[k] = allowance - left
            status[k] = 2


def _leaves_table(
    width: float, height: float, x0: float, y0: float, x1: float, y1: float, radius: float
) -> float:
    """:func:`crdesk.geometry.movement.leaves_table` (-1 for None), the same arithmetic."""
    lo_x = min(radius, x0) - 1e-9
    hi_x = max(width - radius, x0) + 1e-9
    lo_y = min(radius, y0) - 1e-9
    hi_y = max(height - radius, y0) + 1e-9
    length = math.hypot(x1 - x0, y1 - y0)
    if lo_x <= x1 <= hi_x and lo_y <= y1 <= hi_y:
        return -1.0
    t_out = 1.0
    dx = x1 - x0
    if dx > 0:
        t_out = min(t_out, (hi_x - x0) / dx)
    elif dx < 0:
        t_out = min(t_out, (lo_x - x0) / dx)
    dy = y1 - y0
    if dy > 0:
        t_out = min(t_out, (hi_y - y0) / dy)
    elif dy < 0:
        t_out = min(t_out, (lo_y - y0) / dy)
    return max(0.0, t_out) * length


def _ring_gap(seg: Any, first: int, count: int, px: float, py: float) -> float:
    """Distance from a point to the nearest of these edges (inf when there are none)."""
    best = np.inf
    for e in range(first, first + count):
        best = min(best, _segment_distance(seg, e, px, py))
    return best


def _odd(seg: Any, first: int, count: int, px: float, py: float) -> bool:
    """Is the point inside these rings (ray casting, even-odd: holes are outside)?"""
    odd = False
    for e in range(first, first + count):
        a0x, a0y, a1x, a1y = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
        if (a0y > py) != (a1y > py):
            xc = a0x + (py - a0y) * (a1x - a0x) / (a1y - a0y)
            if px < xc:
                odd = not odd
    return odd


def _odd_chunked(seg: Any, boxes: Any, first: int, count: int, px: float, py: float) -> bool:
    """:func:`_odd` to the bit: a chunk wholly above or below the point's ray, or wholly
    to its left, has no edge the ray crosses."""
    odd = False
    e = first
    end = first + count
    while e < end:
        if e % CHUNK == 0 and e + CHUNK <= end:
            c = e // CHUNK
            if boxes[c, 1] > py or boxes[c, 3] <= py or boxes[c, 2] < px - CHUNK_SLACK:
                e += CHUNK
                continue
        a0x, a0y, a1x, a1y = seg[e, 0], seg[e, 1], seg[e, 2], seg[e, 3]
        if (a0y > py) != (a1y > py):
            xc = a0x + (py - a0y) * (a1x - a0x) / (a1y - a0y)
            if px < xc:
                odd = not odd
        e += 1
    return odd


def _met(
    seg: Any, first: int, count: int, crossings: int, ox: float, oy: float, qx: float, qy: float
) -> bool:
    """Does the move from (ox, oy) to (qx, qy) meet these rings: cross them, or start or
    end inside?"""
    return crossings > 0 or _odd(seg, first, count, ox, oy) or _odd(seg, first, count, qx, qy)


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
        c_seg,
        c_start,
        c_count,
        kind,
        op_seg,
        op_start,
        op_count,
        o_chunks,
        c_chunks,
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
            ring_d = _edges_distance_chunked(o_seg, o_chunks, o_start[f], o_count[f], px, py)
            if ring_d <= tol:
                defer[k] = True  # on the outline: inside or not is GEOS's call
                continue
            inside = not (
                px < o_box[f, 0] or px > o_box[f, 2] or py < o_box[f, 1] or py > o_box[f, 3]
            ) and _odd_chunked(o_seg, o_chunks, o_start[f], o_count[f], px, py)
            poly_d = 0.0 if inside else ring_d
            if _near(poly_d, reach, tol):
                defer[k] = True
                continue
            if poly_d > reach:
                continue
            # the distance to the nearest edge, a clearing's as much as the outer one's:
            # a clearing is not woods, so its edge is the woods' edge too (7.9.4, 15.2)
            edge_d = ring_d
            bits = 0
            what = kind[f]
            if inside and what & K_WOODS:
                bits |= IN_WOODS
                if _near(edge_d, edge_band, tol):
                    defer[k] = True
                elif edge_d > edge_band:
                    bits |= DEEP
            if c_count[f] > 0:
                crest_d = _edges_distance_chunked(c_seg, c_chunks, c_start[f], c_count[f], px, py)
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


def nav_relax(field: Any, cost: Any, cell: float) -> None:
    """Shortest travel on an eight-neighbour grid, in place: ``field`` holds the start
    values (inf elsewhere); a step from cell u to its neighbour v costs
    ``step * (cost[v] + cost[u]) / 2`` (``step`` 1 or 1.414 cells).  Sweeps forwards
    and backwards until nothing changes -- the same fixpoint, to the last bit, as the
    whole-array relaxation of :func:`crdesk.ai.navigation._nav_field` (each value is
    the least over paths of the same sums, and adding is monotone), in a few sweeps."""
    rows, cols = field.shape
    straight = math.hypot(1, 0) * cell
    diagonal = math.hypot(1, 1) * cell
    changed = True
    forward = True
    while changed:
        changed = False
        for i in range(rows * cols):
            k = i if forward else rows * cols - 1 - i
            r = k // cols
            c = k - r * cols
            there = cost[r, c]
            best = field[r, c]
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    ur = r - dr
                    uc = c - dc
                    if ur < 0 or ur >= rows or uc < 0 or uc >= cols:
                        continue
                    step = diagonal if dr != 0 and dc != 0 else straight
                    via = field[ur, uc] + step * (there + cost[ur, uc]) / 2
                    if via < best:
                        best = via
            if best < field[r, c]:
                field[r, c] = best
                changed = True
        forward = not forward


_KERNELS = (
    "_holds",
    "_crossings",
    "_inside",
    "_stretches",
    "_meets",
    "terrain_line",
    "sight_line",
    "base_on_line",
    "_cover_of",
    "evaluate_pairs",
    "recheck_moved",
    "store_pairs",
    "_segment_distance",
    "_edges_distance_chunked",
    "_odd_chunked",
    "_near",
    "locate_points",
    "_odd",
    "_met",
    "_ray_cross",
    "_crossings_along",
    "_ring_gap",
    "_leaves_table",
    "ray_walks",
    "nav_relax",
)
"""Compiled in this order: numba resolves the helpers a kernel calls when it compiles it."""


_INLINE = {
    "terrain_line",
    "sight_line",
    "_cover_of",
    "base_on_line",
    "_segment_distance",
    "_near",
    "_ray_cross",
    "_leaves_table",
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

    ``exercise`` is the sight engine's sample table (:func:`crdesk.geometry.warmup.warm_up`),
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
    (:func:`crdesk.geometry.warmup.warm_up`).
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
