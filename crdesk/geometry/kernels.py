"""Compiled loops for the sight engine's hot path (issue 4: a dragged figure in 1 ms).

The numpy route in :mod:`crdesk.geometry.los` pays about a microsecond per
array call, and judging one figure against all others takes a few hundred
calls before any geometry is done -- more than the issue's budget for a mouse
move.  These plain-Python loops do the same work per sight line (raster walk,
edge tests against the sight geometries, other figures' bases) and are
compiled by numba, so a whole row of 297 lines costs tens of microseconds.

They decide exactly what the numpy route decides: a raster sample in a cell
wholly inside a feature blocks; a proper crossing of an edge or an end inside
an outline blocks; no contact at all leaves the line open; anything else (an
end inside woods or a building, an exact touch) is *deferred* to the exact
GEOS rules.  Property tests run both routes on random tables and compare.

The engine uses them once :func:`warm_up` (or, in the GUI,
:func:`warm_up_in_background`) has compiled them; until then, and without
numba or with ``CRDESK_NO_JIT=1`` in the environment, it keeps its numpy
route.  Compiled code is cached on disk: the first run after an install
compiles for a few seconds, later ones load in about one.
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
import warnings
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


def _holds(row: Any, f: int) -> bool:
    # plain loops throughout: numba compiles them, not generator expressions
    for s in range(row.shape[0]):  # noqa: SIM110
        if row[s] == f:
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


def _inside(seg: Any, first: int, count: int, box: Any, ux: float, uy: float) -> bool:
    """Is (ux, uy) inside the outline whose rings are these edges (ray casting)?"""
    if ux < box[0] or ux > box[2] or uy < box[1] or uy > box[3]:
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
    solid: bool,
    px: float,
    py: float,
    qx: float,
    qy: float,
) -> tuple[bool, bool]:
    """(meets, unsure): does p -> q meet the geometry with these edges (an outline when
    ``solid``)?  Sure when a crossing is proper or an end lies inside; no contact at all
    means no; ``unsure`` when only an exact touch was seen."""
    if box[0] > max(px, qx) or box[2] < min(px, qx) or box[1] > max(py, qy):
        return False, False
    if box[3] < min(py, qy):
        return False, False
    n, touch = _crossings(seg, first, count, px, py, qx, qy)
    if n:
        return True, False
    if solid and (
        _inside(seg, first, count, box, px, py) or _inside(seg, first, count, box, qx, qy)
    ):
        return True, False
    return False, touch


def terrain_line(
    label: Any,
    x0: float,
    y0: float,
    inv_cell: float,
    step: float,
    g_role: Any,
    g_feat: Any,
    g_box: Any,
    seg: Any,
    g_start: Any,
    g_count: Any,
    kind_code: Any,
    role_code: Any,
    convex: Any,
    core_box: Any,
    core_seg: Any,
    core_start: Any,
    core_count: Any,
    w_seg: Any,
    w_start: Any,
    w_count: Any,
    codes: Any,
    ca: Any,
    cb: Any,
    crest_a: Any,
    crest_b: Any,
    deep_a: Any,
    deep_b: Any,
    wall_a: int,
    wall_b: int,
    px: float,
    py: float,
    qx: float,
    qy: float,
) -> tuple[int, int, int]:
    """What terrain alone says of the line p -> q: (TERRAIN_*, reason code, feature).

    The rules of :func:`crdesk.geometry.los._exact`: ``ca``/``cb`` are the
    containers (woods, building) of the two ends, ``crest_a``/``crest_b`` the
    crests near them, ``deep_*`` the woods they are deep in, ``wall_*`` the
    walls (building outline less the openings they stand at, -1: no opening)
    of a building they are in.  ``codes``: woods, woods deep, building
    interior, building wall reason codes.
    """
    ex = qx - px
    ey = qy - py
    rows, cols = label.shape
    if rows > 0:
        n = max(math.ceil(math.hypot(ex, ey) / step), 1) + 1
        inv = 1.0 / (n - 1)
        for k in range(n):
            t = k * inv
            c = int((px + ex * t - x0) * inv_cell)
            r = int((py + ey * t - y0) * inv_cell)
            c = min(max(c, 0), cols - 1)
            r = min(max(r, 0), rows - 1)
            lab = label[r, c]
            if lab >= 0 and not _holds(ca, lab) and not _holds(cb, lab):
                return TERRAIN_BLOCKED, kind_code[lab], lab
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
            ina = _holds(ca, f)
            inb = _holds(cb, f)
            if ina and inb:
                continue  # both in it: it never blocks them
        elif role == _CREST and (_holds(crest_a, f) or _holds(crest_b, f)):
            continue  # within 1" of the crest: seen over it
        meets, unsure = _meets(
            seg, g_start[g], g_count[g], g_box[g], role != _CREST, px, py, qx, qy
        )
        if unsure:
            defer = True
        if not meets:
            continue
        if not (ina or inb):
            return TERRAIN_BLOCKED, role_code[role], f
        # the line starts inside this woods or building: may it leave? (7.9.4, 8.3, 15.2)
        if role == _WOODS:
            if _holds(deep_a if ina else deep_b, f):
                return TERRAIN_BLOCKED, codes[1], f
            deeper, unsure = _meets(
                core_seg, core_start[f], core_count[f], core_box[f], True, px, py, qx, qy
            )
            if deeper:
                return TERRAIN_BLOCKED, codes[0], f
            if unsure:
                defer = True
                continue
            if not convex[f]:
                # out and back in: the line's stretches inside the woods, counted
                crossed, touch = _crossings(seg, g_start[g], g_count[g], px, py, qx, qy)
                if touch:
                    defer = True
                    continue
                ends_in = _inside(seg, g_start[g], g_count[g], g_box[g], px, py) + _inside(
                    seg, g_start[g], g_count[g], g_box[g], qx, qy
                )
                if (crossed + ends_in) // 2 > 1:
                    return TERRAIN_BLOCKED, codes[0], f
        else:
            wall = wall_a if ina else wall_b
            if wall < 0:
                return TERRAIN_BLOCKED, codes[2], f
            crossed, touch = _crossings(w_seg, w_start[wall], w_count[wall], px, py, qx, qy)
            if crossed:
                return TERRAIN_BLOCKED, codes[3], f
            if touch:
                defer = True
    if defer:
        return TERRAIN_DEFER, 0, -1
    return TERRAIN_OPEN, 0, -1


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


def judge_pairs(
    label: Any,
    x0: float,
    y0: float,
    inv_cell: float,
    step: float,
    g_role: Any,
    g_feat: Any,
    g_box: Any,
    seg: Any,
    g_start: Any,
    g_count: Any,
    kind_code: Any,
    role_code: Any,
    convex: Any,
    core_box: Any,
    core_seg: Any,
    core_start: Any,
    core_count: Any,
    w_seg: Any,
    w_start: Any,
    w_count: Any,
    codes: Any,
    vx: Any,
    vy: Any,
    vr: Any,
    blocks: Any,
    graze: float,
    cont: Any,
    crest: Any,
    deep: Any,
    wall: Any,
    a: Any,
    b: Any,
    px: Any,
    py: Any,
    qx: Any,
    qy: Any,
    visible_code: int,
    figure_code: int,
    code: Any,
    feat: Any,
    state: Any,
) -> None:
    """Judge the three sight lines of each pair (a[i], b[i]) in order, stopping at an open one.

    Fills ``code``/``feat`` (m, 3) and ``state`` (m, 3): 1 open on terrain, 2
    blocked by terrain, 0 not judged, 3 deferred to the exact rules (``code``
    is -1 there).  A line open on terrain may still be blocked by a base.
    """
    for i in range(a.shape[0]):
        ia, ib = a[i], b[i]
        for j in range(3):
            code[i, j] = -1
            feat[i, j] = -1
            state[i, j] = 0
        for j in range(3):
            res, c, f = terrain_line(
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
                cont[ia],
                cont[ib],
                crest[ia],
                crest[ib],
                deep[ia],
                deep[ib],
                wall[ia],
                wall[ib],
                px[i, j],
                py[i, j],
                qx[i, j],
                qy[i, j],
            )
            if res == TERRAIN_BLOCKED:
                state[i, j] = 2
                code[i, j] = c
                feat[i, j] = f
            elif res == TERRAIN_DEFER:
                state[i, j] = 3
            else:
                state[i, j] = 1
                blk = base_on_line(
                    vx, vy, vr, blocks, graze, ia, ib, px[i, j], py[i, j], qx[i, j], qy[i, j]
                )
                if blk >= 0:
                    code[i, j] = figure_code
                    feat[i, j] = -(blk + 2)
                else:
                    code[i, j] = visible_code
                    break


def bases_many(
    vx: Any,
    vy: Any,
    vr: Any,
    blocks: Any,
    graze: float,
    a: Any,
    b: Any,
    px: Any,
    py: Any,
    qx: Any,
    qy: Any,
    out: Any,
) -> None:
    """:func:`base_on_line` for arrays of lines; ``out[k]`` is the blocker or -1."""
    for k in range(a.shape[0]):
        out[k] = base_on_line(vx, vy, vr, blocks, graze, a[k], b[k], px[k], py[k], qx[k], qy[k])


_state = "cold"
"""cold: not compiled; warming: a background thread compiles; ready."""
_lock = threading.Lock()


_KERNELS = (
    "_holds",
    "_crossings",
    "_inside",
    "_meets",
    "terrain_line",
    "base_on_line",
    "judge_pairs",
    "bases_many",
)
"""Compiled in this order: numba resolves the helpers a kernel calls when it compiles it."""


def _compile() -> None:
    """Compile every kernel (or load it from the disk cache) and call it on tiny inputs."""
    from numba import njit

    space = globals()
    for name in _KERNELS:
        space[name] = njit(cache=True, nogil=True)(space[name])
    i1 = np.zeros(1, dtype=np.int64)
    f1 = np.zeros(1, dtype=np.float64)
    f13 = np.zeros((1, 3), dtype=np.float64)
    box = np.zeros((1, 4))
    no = np.zeros(1, dtype=np.bool_)
    pad = np.full((1, 1), -9, dtype=np.int64)
    args: tuple[Any, ...] = (
        np.full((1, 1), -1, dtype=np.int32),
        0.0,
        0.0,
        1.0,
        0.6,
        *(i1, i1, box, box, i1, i1, i1, i1),
        *(no, box, box, i1, i1, box, i1, i1, np.zeros(4, dtype=np.int64)),
        *(f1, f1, f1, no, 0.01, pad, pad, pad, np.full(1, -1, dtype=np.int64)),
        *(i1, i1, f13, f13, f13, f13, 0, 1),
        np.zeros((1, 3), dtype=np.int64),
        np.zeros((1, 3), dtype=np.int64),
        np.zeros((1, 3), dtype=np.int8),
    )
    judge_pairs(*args)
    bases_many(f1, f1, f1, no, 0.01, i1, i1, f1, f1, f1, f1, np.zeros(1, dtype=np.int64))


_state = "cold"
"""cold: not compiled; warming: being compiled; ready; broken: compiling failed."""
_lock = threading.Lock()


def _build() -> bool:
    """Compile unless done (call with ``_lock`` held); True when the kernels are ready.

    A numba that fails to compile leaves the engine on its numpy route (same
    verdicts, slower) rather than breaking line of sight.
    """
    global _state
    if _state not in ("ready", "broken"):
        try:
            _compile()
        except Exception as exc:  # any failure means: stay on numpy
            _state = "broken"
            warnings.warn(f"sight kernels unavailable, using numpy: {exc}", stacklevel=3)
        else:
            _state = "ready"
    return _state == "ready"


def warm_up() -> bool:
    """Compile the kernels now (waiting for a compile under way); True when they are ready."""
    if not AVAILABLE:
        return False
    with _lock:
        return _build()


def warm_up_in_background() -> None:
    """Compile on a daemon thread; until it is done the engine keeps its numpy route.

    The GUI calls this at start, so that the first run after an install does not
    freeze the window for the second numba takes to compile.
    """
    global _state
    with _lock:
        if not AVAILABLE or _state != "cold":
            return
        _state = "warming"
    threading.Thread(target=warm_up, name="crdesk-jit", daemon=True).start()


def usable() -> bool:
    """Whether the engine may call the kernels: only once :func:`warm_up` has made them ready.

    Nothing compiles implicitly: a one-shot command (``crdesk los``) is done on
    the numpy route long before numba would be, while the GUI, the tests and
    the benchmarks -- which judge sight thousands of times -- warm up first.
    """
    return _state == "ready"


__all__ = [
    "AVAILABLE",
    "TERRAIN_BLOCKED",
    "TERRAIN_DEFER",
    "TERRAIN_OPEN",
    "base_on_line",
    "bases_many",
    "judge_pairs",
    "terrain_line",
    "usable",
    "warm_up",
    "warm_up_in_background",
]
