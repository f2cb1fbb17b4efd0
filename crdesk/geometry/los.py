"""Line of sight, Cover and concealment (digest 7.9.4, 7.9.5, 8.3, 15.2).

One engine answers every question, vectorised over arrays of *pairs* (viewer,
target) so the all-pairs matrix, the one-figure update and a single tooltip
query run the same rules:

* **Sight lines.** A figure is seen when at least one of three sight lines is
  clear: centre to centre, and the two lines joining the points halfway out to
  the left and to the right of each base, across the line.  So a figure mostly
  hidden behind a corner is still in sight (In Sight 7.6: "base to base"), while
  a same-size base standing squarely in the way blocks all three lines.
  Cover obstacles and crests are judged on the centre line.
* **Grazing** (see :mod:`crdesk.geometry.terrain_index`): a line must pass more
  than 0.01" inside a feature or base to be blocked by it.
* **Front arc.** The target is in the viewer's 180° front when any part of its
  base lies more than 0.01" ahead of the line through the viewer's centre
  across its facing (a target exactly abeam is seen).  A probe point has no
  facing and sees all around.
* **Where a figure is.** Inside woods or a building means its *centre* is
  inside the outline; "within 1\" of the edge / crest" is measured from the
  centre; "at a door or window" means the base is within 0.5" of the opening;
  "within 1\" of a cover obstacle" is measured from the base edge.
* **Woods.** A line from outside to outside that passes through woods is
  blocked ("see into, not through").  A line from a figure in the 1" edge band
  must leave the woods without entering the part deeper than 1" and must not
  re-enter it.  Two figures in the same woods see each other up to 12" (6" at
  night), base to base.
* **Buildings.** A line through a building is blocked; a figure inside is seen
  only if it is at a door or window and the line leaves the building through
  that opening (and the line is judged against the walls even when the figure's
  centre stands a hair inside one, closer than the grazing margin); two figures
  inside the same building see each other along a line that stays inside it
  (interior walls are not modelled; in an L-shaped building the line between
  its arms can leave through the walls at the inner corner, judged like a line
  leaving woods and coming back in).
* **Order of reasons.** Off the table; a figure deeper than 1" in woods or shut
  inside a building away from its openings (seen from outside that feature);
  the 12"/6" limit inside the same woods; the viewer's 180° front arc;
  night/weather distance; terrain along the line (nearest the viewer first);
  other figures' bases.

Speed (issue 4): once :func:`crdesk.geometry.warmup.warm_up` has compiled the
:mod:`~crdesk.geometry.kernels`,
:func:`evaluate` (and the base rechecks and figure places the visibility
service needs) runs as compiled loops doing the same tests line by line; GEOS
then settles only what they leave (an exact touch).  The numpy route below
stays as the fallback without numba and as the check the kernels are tested
against.  It first walks each line over a raster of
cells wholly inside one blocking feature (a sample there blocks the line for
sure, see :class:`~crdesk.geometry.terrain_index.Raster`), then tests the
lines left against the edges of nearby features in numpy (a proper crossing
blocks for sure, no contact at all leaves the line open), and only what is
still undecided -- lines from inside woods or buildings, exact touches -- goes
to the exact STRtree/GEOS test (bounding-box candidates thinned in numpy, then
GEOS against the prepared geometries: the same pairs as the tree's own
``intersects`` query, at about half the cost).  Side lines are judged only for pairs whose
centre line is blocked, and are proven blocked at once when they cross the
same blocker (or, the centre line being open on terrain, a base).  A few pairs -- one figure against
the others, while it is dragged -- take a shorter route with fewer numpy
calls: all three lines in one raster walk, then GEOS for what is left.
``detailed`` (single questions) skips the fast filters.  Every route gives the
same verdicts (property tests check it); only the blocking feature named may
differ, since the fast routes name the first one they find.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString

from crdesk.geometry import kernels
from crdesk.geometry.terrain_index import (
    AT_OPENING,
    CREST_BAND,
    EDGE_BAND,
    GRAZE,
    NOWHERE,
    Bools,
    Floats,
    Ints,
    Place,
    Role,
    TerrainIndex,
    build_index,
    locate_many,
    locate_reach,
    walls,
)
from crdesk.model import Battlefield, Figure, Status
from crdesk.model import TerrainKind as K
from crdesk.options import RulesOptions


class Reason(StrEnum):
    """Why a line of sight is open or blocked; each names the rule it comes from."""

    VISIBLE = "visible"
    OFF_TABLE = "off_table"
    OUT_OF_ARC = "out_of_arc"
    NIGHT = "night"
    WEATHER = "weather"
    WOODS_RANGE = "woods_range"
    WOODS = "woods"
    WOODS_DEEP = "woods_deep"
    BUILDING = "building"
    BUILDING_INTERIOR = "building_interior"
    BUILDING_WALL = "building_wall"
    IMPASSABLE = "impassable"
    HILL = "hill"
    FIGURE = "figure"

    @property
    def text(self) -> str:
        return _REASON_TEXT[self]


RASTER_STEP = 0.6
"""Spacing in inches of the raster samples along a sight line."""
WALK_FIRST = 16
"""Samples per line in the first round of the raster walk; later rounds grow."""
WALK_GROWTH = 2.0
WALK_BATCH = 10_000
"""Samples in the first round at least (few lines walk further at once)."""
WALK_SINGLE = 4000
"""Below this many samples in all, walk every line to its end in one round."""
ONE_PASS_LINES = 600
"""Up to this many sight lines, judge the side lines together with the centre lines."""
EXACT_DIRECT = 200
"""Up to this many lines left by the raster, skip the numpy edge filter (GEOS directly)."""
PROOF_SHIFTS = np.array([0.0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6])
"""Inches along a side line, around its centre line's first block, looked up in the raster."""
USE_KERNELS = True
"""Judge sight lines with the compiled :mod:`~crdesk.geometry.kernels` when numba is there
(tests switch it off to check the numpy route gives the same verdicts)."""
SAMPLE_FRACTION = 0.5
"""Side sample points sit halfway from the centre to the edge of the base, across the line."""


def compiled_route() -> bool:
    """Whether sight is judged by the compiled kernels now (else by the numpy route):
    switched on here, warmed up (:func:`crdesk.geometry.warmup.warm_up`), not pinned off
    for this thread."""
    return USE_KERNELS and kernels.usable()


_REASON_TEXT = {
    Reason.VISIBLE: "in sight",
    Reason.OFF_TABLE: "not on the table",
    Reason.OUT_OF_ARC: "outside the viewer's 180° front arc (7.9.4)",
    Reason.NIGHT: 'beyond 12" at night (7.9.4)',
    Reason.WEATHER: "beyond the bad-weather limit (7.9.4)",
    Reason.WOODS_RANGE: 'beyond the 12"/6" limit inside woods (7.9.4)',
    Reason.WOODS: "woods block the line: see into, not through (15.2)",
    Reason.WOODS_DEEP: 'deeper than 1" inside woods (7.9.4)',
    Reason.BUILDING: "a building blocks the line (8.3)",
    Reason.BUILDING_INTERIOR: "inside a building, not at a door or window (8.3)",
    Reason.BUILDING_WALL: "the line does not leave through the figure's door or window (8.3)",
    Reason.IMPASSABLE: "impassable ground blocks the line (9.4)",
    Reason.HILL: "a hill crest lies between them (15.2)",
    Reason.FIGURE: "another figure's base blocks the line (7.9.4)",
}

REASONS: list[Reason] = list(Reason)
CODE = {r: i for i, r in enumerate(REASONS)}
_VISIBLE = CODE[Reason.VISIBLE]
Codes = npt.NDArray[np.int8]


class CoverKind(StrEnum):
    """What gives a figure Cover or concealment (7.9.5, 15.2)."""

    WOODS = "woods"
    BUILDING = "building"
    OBSTACLE = "obstacle"
    CREST = "crest"
    VEHICLE = "vehicle"


@dataclass(frozen=True, slots=True)
class CoverReason:
    kind: CoverKind
    feature_id: str


@dataclass(frozen=True, slots=True)
class LosResult:
    """The verdict of one line of sight, with the reason a player can check in the book."""

    viewer: str
    target: str
    visible: bool
    reason: Reason
    feature_id: str | None = None
    """The terrain feature or figure that blocks the line, when one does."""
    cover: bool = False
    concealed: bool = False
    cover_reasons: tuple[CoverReason, ...] = ()
    distance: float = 0.0
    """Base-to-base distance in inches."""

    @property
    def message(self) -> str:
        head = "in sight" if self.visible else "out of sight: " + self.reason.text
        if self.feature_id and not self.visible:
            head += f" [{self.feature_id}]"
        extras = [w for w, on in (("Cover", self.cover), ("concealed", self.concealed)) if on]
        if self.visible and extras:
            head += " (" + ", ".join(extras) + ")"
        return head


@dataclass(slots=True)
class Viewpoints:
    """Figures (and probe points) as flat arrays, plus where each stands in the terrain."""

    ids: list[str]
    x: Floats
    y: Floats
    r: Floats
    fx: Floats
    """Facing unit vector; (0, 0) for a point, which sees all around."""
    fy: Floats
    blocks: Bools
    """Whether the base blocks other figures' sight lines (7.9.4 and its option)."""
    moving: Bools
    lit: Bools
    present: Bools
    places: list[Place]
    _derived: _Derived | None = None
    _walls: tuple[object, Ints] | None = None
    """(walls table, entry per viewpoint; -2: not looked up) for the kernels."""

    def __len__(self) -> int:
        return len(self.ids)

    def _d(self) -> _Derived:
        if self._derived is None:
            self._derived = _derive(self.places)
        return self._derived

    def cover_flags(self) -> tuple[Bools, Bools, Bools, Bools]:
        """Per viewpoint: in woods/building, in a vehicle, near obstacle/crest, in woods."""
        return self._d().flags

    def sealed(self) -> tuple[Ints, Codes]:
        """Per viewpoint: the woods it is deep in or the building it is shut in, and why."""
        d = self._d()
        return d.seal_feat, d.seal_code

    def deep_in(self) -> Ints:
        """Per viewpoint: the woods it is deeper than 1" in, padded with -9."""
        return self._d().deep

    def near_features(self) -> Ints:
        """Per viewpoint: cover obstacles and crests near it, padded with -1."""
        return self._d().near

    def containers(self) -> tuple[Ints, Ints]:
        """Per viewpoint: its containers (woods, building) and nearby crests, padded with -9."""
        d = self._d()
        return d.cont, d.crest

    def with_rows(self, ks: Sequence[int], fresh: Viewpoints) -> Viewpoints:
        """A copy with viewpoints ``ks`` replaced by ``fresh``'s (in that order).

        The derived per-viewpoint arrays are patched rather than recomputed.
        """
        new = Viewpoints(
            ids=self.ids,
            x=self.x.copy(),
            y=self.y.copy(),
            r=self.r.copy(),
            fx=self.fx.copy(),
            fy=self.fy.copy(),
            blocks=self.blocks.copy(),
            moving=self.moving.copy(),
            lit=self.lit.copy(),
            present=self.present.copy(),
            places=list(self.places),
        )
        idx = np.asarray(ks, dtype=np.int64)
        for name in ("x", "y", "r", "fx", "fy", "blocks", "moving", "lit", "present"):
            getattr(new, name)[idx] = getattr(fresh, name)
        # only rows whose place changed need their derived arrays patched (a figure
        # dragged over open ground stays nowhere: the arrays are shared, never written)
        moved = [(k, p) for k, p in zip(ks, fresh.places, strict=True) if p != self.places[k]]
        for k, p in moved:
            new.places[k] = p
        if not moved:
            new._derived, new._walls = self._derived, self._walls
            return new
        rows = [k for k, _p in moved]
        if self._derived is not None:
            new._derived = self._derived.patched(rows, [p for _k, p in moved])
        if self._walls is not None:
            table, wall = self._walls
            wall = wall.copy()
            wall[rows] = -2
            new._walls = (table, wall)
        return new


@dataclass(slots=True)
class _Derived:
    """Per-viewpoint arrays derived from the places (see :class:`Viewpoints`)."""

    cont: Ints
    crest: Ints
    flags: tuple[Bools, Bools, Bools, Bools]
    near: Ints
    seal_feat: Ints
    seal_code: Codes
    deep: Ints
    """Woods each viewpoint is deeper than 1" in, padded with -9."""

    def patched(self, idx: Sequence[int], places: Sequence[Place]) -> _Derived | None:
        """A copy with rows ``idx`` derived from ``places``; None when they do not fit the
        padded widths (then everything is derived again, on first use)."""
        if any(
            len(p.containers) > self.cont.shape[1]
            or len(p.near_crests) > self.crest.shape[1]
            or len(p.near_obstacles) + len(p.near_crests) > self.near.shape[1]
            or len(p.deep) > self.deep.shape[1]
            for p in places
        ):
            return None
        area, veh, nearf, woods = self.flags
        out = _Derived(
            self.cont.copy(),
            self.crest.copy(),
            (area.copy(), veh.copy(), nearf.copy(), woods.copy()),
            self.near.copy(),
            self.seal_feat.copy(),
            self.seal_code.copy(),
            self.deep.copy(),
        )
        for k, p in zip(idx, places, strict=True):
            out.cont[k] = -9
            out.crest[k] = -9
            out.near[k] = -1
            out.deep[k] = -9
            out.fill(k, p)
        return out

    def fill(self, k: int, p: Place) -> None:
        """Write row ``k`` from place ``p`` (the row holds its empty values)."""
        area, veh, nearf, woods = self.flags
        if p.woods or p.building >= 0:
            cs = p.containers
            self.cont[k, : len(cs)] = cs
        area[k] = bool(p.woods) or p.building >= 0
        woods[k] = bool(p.woods)
        if p.near_crests:
            self.crest[k, : len(p.near_crests)] = p.near_crests
        fs = (*p.near_obstacles, *p.near_crests)
        if fs:
            self.near[k, : len(fs)] = fs
        nearf[k] = bool(fs)
        veh[k] = p.vehicle >= 0
        self.seal_feat[k], self.seal_code[k] = -1, _VISIBLE
        if p.deep:
            self.deep[k, : len(p.deep)] = p.deep
        # a building's walls shut in its occupants away from its openings even where
        # the building stands deep in woods (8.3): the walls seal first, so figures in
        # the same woods outside the building do not see in (the woods' seal would let
        # them, and a base through the wall gave lines that never cross it)
        if p.building >= 0 and not p.openings:
            self.seal_feat[k], self.seal_code[k] = p.building, CODE[Reason.BUILDING_INTERIOR]
        elif p.deep:
            self.seal_feat[k], self.seal_code[k] = p.deep[0], CODE[Reason.WOODS_DEEP]


def _derive(places: Sequence[Place]) -> _Derived:
    """The derived arrays of ``places``, each distinct place's row written once: a spot
    search's candidates mostly stand in the same few places (one woods, one wall's
    band, the open), and :func:`locate_compiled` hands them the same Place objects."""
    rows: dict[int, int] = {}
    distinct: list[Place] = []
    which = np.empty(len(places), dtype=np.int64)
    for k, p in enumerate(places):
        row = rows.get(id(p))
        if row is None:
            row = rows[id(p)] = len(distinct)
            distinct.append(p)
        which[k] = row
    if len(distinct) == len(places):
        return _derive_rows(places)
    one = _derive_rows(distinct)
    area, veh, nearf, woods = one.flags
    return _Derived(
        one.cont[which],
        one.crest[which],
        (area[which], veh[which], nearf[which], woods[which]),
        one.near[which],
        one.seal_feat[which],
        one.seal_code[which],
        one.deep[which],
    )


def _derive_rows(places: Sequence[Place]) -> _Derived:
    n = len(places)
    width = max([len(p.containers) for p in places] + [1])
    cwidth = max([len(p.near_crests) for p in places] + [1])
    nwidth = max([len(p.near_obstacles) + len(p.near_crests) for p in places] + [1])
    out = _Derived(
        np.full((n, width), -9, dtype=np.int64),
        np.full((n, cwidth), -9, dtype=np.int64),
        tuple(np.zeros(n, dtype=bool) for _ in range(4)),  # type: ignore[arg-type]
        np.full((n, nwidth), -1, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        np.full(n, _VISIBLE, dtype=np.int8),
        np.full((n, max([len(p.deep) for p in places] + [1])), -9, dtype=np.int64),
    )
    for k, p in enumerate(places):
        if p is not NOWHERE:
            out.fill(k, p)
    return out


_CAN_ACT = {status: status.can_act for status in Status}
"""``Status.can_act`` looked up once per status (the property is slow in a loop)."""
_GONE = Status.LEAVE_THE_BATTLEFIELD


def _blocks(fig: Figure, rules: RulesOptions) -> bool:
    interp = rules.interpretations
    if not interp.figures_block_los or fig.status is _GONE:
        return False
    return _CAN_ACT[fig.status] or interp.downed_figures_block_los


def viewpoints(
    battlefield: Battlefield,
    index: TerrainIndex,
    rules: RulesOptions,
    *,
    figures: Sequence[Figure] | None = None,
    moving: Iterable[str] = (),
    lit: Iterable[str] = (),
    extra_points: Sequence[tuple[str, float, float]] = (),
) -> Viewpoints:
    """Collect the figures (roster order) and optional probe points into arrays.

    ``moving`` names figures that move this activation (7.9.5: concealed, not in
    Cover, in woods and buildings); fast movers count as moving anyway.  ``lit``
    names targets standing in a well-lit area (7.9.4: seen beyond 12" at night).
    """
    figs = list(battlefield.figures()) if figures is None else list(figures)
    mov, lits = set(moving), set(lit)
    ids = [f.id for f in figs] + [p[0] for p in extra_points]
    n = len(ids)
    x = np.array([f.x for f in figs] + [p[1] for p in extra_points], dtype=np.float64)
    y = np.array([f.y for f in figs] + [p[2] for p in extra_points], dtype=np.float64)
    r = np.array([f.radius for f in figs] + [0.0] * len(extra_points), dtype=np.float64)
    fx = np.zeros(n)
    fy = np.zeros(n)
    for k, f in enumerate(figs):
        fx[k], fy[k] = f.facing_vector()
    return Viewpoints(
        ids=ids,
        x=x,
        y=y,
        r=r,
        fx=fx,
        fy=fy,
        blocks=np.array([_blocks(f, rules) for f in figs] + [False] * len(extra_points), bool),
        moving=np.array(
            [f.fast_moving or f.id in mov for f in figs] + [False] * len(extra_points), bool
        ),
        lit=np.array([f.id in lits for f in figs] + [False] * len(extra_points), bool),
        present=np.array(
            [f.status is not _GONE for f in figs] + [True] * len(extra_points),
            bool,
        ),
        places=locate_places(index, x, y, r, rules),
    )


def probe_viewpoints(
    index: TerrainIndex,
    rules: RulesOptions,
    figure: Figure,
    points: npt.NDArray[np.float64],
    *,
    moving: bool = False,
) -> Viewpoints:
    """One figure standing on each of many spots, as viewpoints that block nothing
    (the spots are one figure): the candidates of a spot search, without making a
    figure per spot."""
    n = len(points)
    fx, fy = figure.facing_vector()
    x = np.ascontiguousarray(points[:, 0], dtype=np.float64)
    y = np.ascontiguousarray(points[:, 1], dtype=np.float64)
    r = np.full(n, figure.radius, dtype=np.float64)
    return Viewpoints(
        ids=[f"@spot{k}" for k in range(n)],
        x=x,
        y=y,
        r=r,
        fx=np.full(n, fx),
        fy=np.full(n, fy),
        blocks=np.zeros(n, dtype=bool),
        moving=np.full(n, bool(moving or figure.fast_moving)),
        lit=np.zeros(n, dtype=bool),
        present=np.full(n, figure.status is not _GONE),
        places=locate_places(index, x, y, r, rules),
    )


def join_viewpoints(a: Viewpoints, keep: Sequence[int], b: Viewpoints) -> Viewpoints:
    """Rows ``keep`` of ``a`` followed by all of ``b``, as fresh arrays (the derived
    per-viewpoint data is worked out again from the places when asked)."""
    k = np.asarray(keep, dtype=np.int64)
    out = Viewpoints(
        ids=[a.ids[i] for i in k.tolist()] + list(b.ids),
        x=np.concatenate([a.x[k], b.x]),
        y=np.concatenate([a.y[k], b.y]),
        r=np.concatenate([a.r[k], b.r]),
        fx=np.concatenate([a.fx[k], b.fx]),
        fy=np.concatenate([a.fy[k], b.fy]),
        blocks=np.concatenate([a.blocks[k], b.blocks]),
        moving=np.concatenate([a.moving[k], b.moving]),
        lit=np.concatenate([a.lit[k], b.lit]),
        present=np.concatenate([a.present[k], b.present]),
        places=[a.places[i] for i in k.tolist()] + list(b.places),
    )
    if a._derived is not None:
        # the kept rows' derived data is already worked out: join it to the new rows'
        # (padded widths, as a patched row's are) instead of deriving every row again
        out._derived = _join_derived(a._derived, k, b._d())
    return out


def _join_derived(a: _Derived, keep: Ints, b: _Derived) -> _Derived:
    """Rows ``keep`` of ``a`` followed by all of ``b``, each padded array widened to the
    wider of the two with its padding value."""

    def rows(x: Ints, y: Ints, pad: int) -> Ints:
        width = max(x.shape[1], y.shape[1])
        out = np.full((len(keep) + len(y), width), pad, dtype=x.dtype)
        out[: len(keep), : x.shape[1]] = x[keep]
        out[len(keep) :, : y.shape[1]] = y
        return out

    def flat(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.concatenate([x[keep], y])

    fa, fb = a.flags, b.flags
    return _Derived(
        rows(a.cont, b.cont, -9),
        rows(a.crest, b.crest, -9),
        (flat(fa[0], fb[0]), flat(fa[1], fb[1]), flat(fa[2], fb[2]), flat(fa[3], fb[3])),
        rows(a.near, b.near, -1),
        flat(a.seal_feat, b.seal_feat),
        flat(a.seal_code, b.seal_code),
        rows(a.deep, b.deep, -9),
    )


PLACE_CACHE_LIMIT = 20_000
"""Remembered figure places per terrain index (dragging adds one per mouse move)."""


def locate_places(
    index: TerrainIndex, x: Floats, y: Floats, r: Floats, rules: RulesOptions
) -> list[Place]:
    """:func:`locate_many`, remembering each base's place on the index (same terrain, same
    answer), so that only figures standing somewhere new are located again."""
    cover_d = rules.interpretations.cover_obstacle_distance
    cache = index.cache.get("places")
    if not isinstance(cache, dict) or len(cache) > PLACE_CACHE_LIMIT:
        cache = {}
        index.cache["places"] = cache
    keys = list(zip(x.tolist(), y.tolist(), r.tolist(), [cover_d] * len(x), strict=True))
    out: list[Place | None] = [cache.get(k) for k in keys]
    miss = [k for k, p in enumerate(out) if p is None]
    if miss:
        locate = locate_compiled if compiled_route() else locate_many
        found = locate(index, x[miss], y[miss], r[miss], rules)
        for k, place in zip(miss, found, strict=True):
            out[k] = place
            cache[keys[k]] = place
    return out  # type: ignore[return-value]


@dataclass(slots=True)
class PairVerdicts:
    """Verdicts for arrays of unordered pairs (a, b), in both directions."""

    a: Ints
    b: Ints
    distance: Floats
    ab: Codes
    """Reason code for a seeing b (index into :data:`REASONS`; 0 is visible)."""
    ba: Codes
    ab_feature: Ints
    """Blocking feature (>= 0: terrain index; <= -2: figure -(n + 2); -1: none)."""
    ba_feature: Ints
    cover_ab: Bools
    """b is in Cover from a (only meaningful when a sees b)."""
    concealed_ab: Bools
    cover_ba: Bools
    concealed_ba: Bools
    gate_ab: Bools
    """a could see b but for the sight lines (presence, arc, night, woods limit)."""
    gate_ba: Bools
    line_state: npt.NDArray[np.int8]
    """(m, 3): what terrain alone says of each sight line: LINE_OPEN, LINE_BLOCKED or
    LINE_UNKNOWN (not judged because another line settled the pair)."""


# ---------------------------------------------------------------------------
# The engine


def evaluate(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    rules: RulesOptions,
    *,
    detailed: bool = False,
) -> PairVerdicts:
    """Judge sight both ways for every pair (a[k], b[k]) of viewpoint indexes.

    ``detailed`` skips the fast filters (raster walk, numpy edge tests) so that
    the terrain feature named is the first along the line from ``a``; the
    verdicts are the same either way (a property test checks it).
    """
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    if not detailed and compiled_route():
        return _evaluate_compiled(index, vp, a, b, rules)
    m = len(a)
    dx = vp.x[b] - vp.x[a]
    dy = vp.y[b] - vp.y[a]
    centre = np.hypot(dx, dy)
    dist = np.maximum(centre - vp.r[a] - vp.r[b], 0.0)

    # -- symmetric gates: presence, same-woods limit --------------------------
    sym = np.full(m, _VISIBLE, dtype=np.int8)
    sym_feat = np.full(m, -1, dtype=np.int64)
    sym[~(vp.present[a] & vp.present[b])] = CODE[Reason.OFF_TABLE]
    # sealed figures: deeper than 1" in woods, or inside a building away from its
    # openings, neither see nor are seen from outside that feature (7.9.4, 8.3)
    seal_feat, seal_code = vp.sealed()
    cont, _ = vp.containers()
    for end, other in ((a, b), (b, a)):
        sf = seal_feat[end]
        hit = np.flatnonzero((sf >= 0) & (sym == _VISIBLE))
        hit = hit[~(cont[other[hit]] == sf[hit, None]).any(axis=1)]
        sym[hit] = seal_code[end[hit]]
        sym_feat[hit] = sf[hit]
    in_woods = vp.cover_flags()[3]
    far = np.flatnonzero(
        (dist > rules.woods_visibility) & (sym == _VISIBLE) & in_woods[a] & in_woods[b]
    )
    for k in far:
        shared = set(vp.places[a[k]].woods) & set(vp.places[b[k]].woods)
        if shared:
            sym[k] = CODE[Reason.WOODS_RANGE]
            sym_feat[k] = min(shared)

    # -- per-direction gates: arc, night/weather -------------------------------
    def gates(v: Ints, t: Ints, sx: Floats, sy: Floats) -> tuple[Codes, Ints]:
        code = sym.copy()
        feat = sym_feat.copy()
        dot = vp.fx[v] * sx + vp.fy[v] * sy
        has_facing = (vp.fx[v] != 0) | (vp.fy[v] != 0)
        code[has_facing & (dot <= GRAZE - vp.r[t]) & (code == _VISIBLE)] = CODE[Reason.OUT_OF_ARC]
        limit = rules.visibility_limit
        if limit is not None:
            far = (dist > limit) & ~vp.lit[t] & (code == _VISIBLE)
            code[far] = CODE[Reason.NIGHT if rules.night else Reason.WEATHER]
        return code, feat

    ab, ab_feat = gates(a, b, dx, dy)
    ba, ba_feat = gates(b, a, -dx, -dy)

    # -- sight lines: terrain and bases, where either direction is still open ---
    gate_ab, gate_ba = ab == _VISIBLE, ba == _VISIBLE
    todo = np.flatnonzero(gate_ab | gate_ba)
    line_state = np.zeros((m, 3), dtype=np.int8)
    if len(todo):
        px, py, qx, qy = _line_ends(vp, a[todo], b[todo])
        code, feat, states = _sight_lines(index, vp, a[todo], b[todo], px, py, qx, qy, detailed)
        line_state[todo] = states
        for c, f in ((ab, ab_feat), (ba, ba_feat)):
            sub = c[todo]
            open_ = sub == _VISIBLE
            sub[open_] = code[open_]
            c[todo] = sub
            fsub = f[todo]
            fsub[open_] = feat[open_]
            f[todo] = fsub

    # both directions in one call
    cov, conc = _cover(
        index,
        vp,
        np.concatenate([a, b]),
        np.concatenate([b, a]),
        np.concatenate([gate_ab, gate_ba]),
    )
    cover_ab, cover_ba, conc_ab, conc_ba = cov[:m], cov[m:], conc[:m], conc[m:]
    return PairVerdicts(
        a=a,
        b=b,
        distance=dist,
        ab=ab,
        ba=ba,
        ab_feature=ab_feat,
        ba_feature=ba_feat,
        cover_ab=cover_ab,
        concealed_ab=conc_ab,
        cover_ba=cover_ba,
        concealed_ba=conc_ba,
        gate_ab=gate_ab,
        gate_ba=gate_ba,
        line_state=line_state,
    )


def _line_ends(vp: Viewpoints, a: Ints, b: Ints) -> tuple[Floats, Floats, Floats, Floats]:
    """End points of the three sight lines of each pair, shaped (m, 3): centre, left, right."""
    dx = vp.x[b] - vp.x[a]
    dy = vp.y[b] - vp.y[a]
    centre = np.hypot(dx, dy)
    safe = np.where(centre > 0, centre, 1.0)
    nx, ny = -dy / safe, dx / safe
    side = np.array([0.0, 1.0, -1.0])
    oa = (vp.r[a] * SAMPLE_FRACTION)[:, None] * side[None, :]
    ob = (vp.r[b] * SAMPLE_FRACTION)[:, None] * side[None, :]
    px = vp.x[a][:, None] + nx[:, None] * oa
    py = vp.y[a][:, None] + ny[:, None] * oa
    qx = vp.x[b][:, None] + nx[:, None] * ob
    qy = vp.y[b][:, None] + ny[:, None] * ob
    return px, py, qx, qy


def recheck_bases(
    vp: Viewpoints, a: Ints, b: Ints, line_state: npt.NDArray[np.int8]
) -> tuple[Bools, Bools]:
    """Which pairs keep an open sight line once other figures' bases are put back (7.9.4).

    For pairs whose ends did not move, terrain verdicts stand; only bases that
    moved can change them.  Returns (open, unsure): ``unsure`` pairs lost every
    line known to be open but have lines never judged, and need :func:`evaluate`.
    """
    out = np.zeros(len(a), dtype=bool)
    lines_open = line_state == LINE_OPEN
    rows = np.flatnonzero(lines_open.any(axis=1))
    if len(rows):
        px, py, qx, qy = _line_ends(vp, a[rows], b[rows])
        r, c = np.nonzero(lines_open[rows])
        blockers = np.flatnonzero(vp.blocks)
        if len(blockers):
            code, _ = _bases(
                vp, blockers, a[rows][r], b[rows][r], px[r, c], py[r, c], qx[r, c], qy[r, c]
            )
            ok = code == _VISIBLE
        else:
            ok = np.ones(len(r), dtype=bool)
        hit = np.zeros(len(rows), dtype=bool)
        np.logical_or.at(hit, r, ok)
        out[rows] = hit
    unsure = ~out & (line_state == LINE_UNKNOWN).any(axis=1) & lines_open.any(axis=1)
    return out, unsure


def recheck_near(
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    line_state: npt.NDArray[np.int8],
    spots: Floats,
) -> tuple[Ints, Bools, Bools]:
    """Pairs (a, b) whose ends did not move, after bases moved to or from ``spots``
    (rows x, y, r): which pass near a spot (their positions in ``a``), and for those
    :func:`recheck_bases`' (open, unsure).  (The numpy route of
    :func:`kernels.recheck_moved`.)"""
    near = np.flatnonzero(_segments_near(vp, a, b, spots))
    open_, unsure = recheck_bases(vp, a[near], b[near], line_state[near])
    return near, open_, unsure


def _segments_near(vp: Viewpoints, a: Ints, b: Ints, spots: Floats) -> Bools:
    """Pairs whose sight corridor passes within r of any spot (x, y, r) (conservative)."""
    px, py, qx, qy = vp.x[a], vp.y[a], vp.x[b], vp.y[b]
    ex, ey = (qx - px)[:, None], (qy - py)[:, None]
    ll = ex * ex + ey * ey
    x, y, r = spots[:, 0][None, :], spots[:, 1][None, :], spots[:, 2][None, :]
    wx, wy = x - px[:, None], y - py[:, None]
    t = np.clip((wx * ex + wy * ey) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
    dx, dy = wx - t * ex, wy - t * ey
    reach = r + np.maximum(vp.r[a], vp.r[b])[:, None]
    return np.asarray((dx * dx + dy * dy < reach * reach).any(axis=1))


_BLOCK_CODE = {
    Role.WOODS: CODE[Reason.WOODS],
    Role.BUILDING: CODE[Reason.BUILDING],
    Role.IMPASSABLE: CODE[Reason.IMPASSABLE],
    Role.CREST: CODE[Reason.HILL],
}


LINE_UNKNOWN = 0
LINE_OPEN = 1
LINE_BLOCKED = 2


def _sight_lines(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    px: Floats,
    py: Floats,
    qx: Floats,
    qy: Floats,
    detailed: bool,
) -> tuple[Codes, Ints, npt.NDArray[np.int8]]:
    """Judge the three sight lines of each pair (arrays shaped (m, 3)); a pair is open if one is.

    The centre lines are judged first; the side lines only for pairs whose
    centre line is blocked, and a side line is proven blocked at once when the
    raster shows it inside a blocking feature level with the centre line's
    first block, when it crosses the same plain blocker, or when the centre
    line is open on terrain and both cross another figure's base.  Up to
    :data:`ONE_PASS_LINES` lines, all three lines are judged together instead.
    The reason reported for a blocked pair is the centre line's.  Also returns,
    per line, what terrain alone says: open, blocked, or unknown (not judged,
    because another line or a base already settled it).
    """
    m = len(a)
    if not detailed and 3 * m <= ONE_PASS_LINES:
        # few pairs (one figure against the others): all three lines in one pass,
        # fewer numpy calls than judging the side lines after the centre lines
        c3, f3, open3, _ = _judge_lines(
            index,
            vp,
            np.repeat(a, 3),
            np.repeat(b, 3),
            px.ravel(),
            py.ravel(),
            qx.ravel(),
            qy.ravel(),
            detailed,
        )
        code = c3.reshape(m, 3)
        feat = f3.reshape(m, 3)
        state = np.where(open3, LINE_OPEN, LINE_BLOCKED).astype(np.int8).reshape(m, 3)
        open_pair = (code == _VISIBLE).any(axis=1)
        return (
            np.where(open_pair, _VISIBLE, code[:, 0]).astype(np.int8),
            np.where(open_pair, -1, feat[:, 0]),
            state,
        )
    code = np.full((m, 3), _VISIBLE, dtype=np.int8)
    feat = np.full((m, 3), -1, dtype=np.int64)
    state = np.zeros((m, 3), dtype=np.int8)
    c0, f0, open0, tstar = _judge_lines(
        index, vp, a, b, px[:, 0], py[:, 0], qx[:, 0], qy[:, 0], detailed
    )
    code[:, 0], feat[:, 0] = c0, f0
    state[:, 0] = np.where(open0, LINE_OPEN, LINE_BLOCKED)
    need = np.flatnonzero(c0 != _VISIBLE)
    if len(need):
        todo = np.ones((len(need), 2), dtype=bool)
        raster = index.raster
        proof = need[tstar[need] >= 0]
        if raster is not None and len(proof):
            # look along each side line around the centre line's first block: level
            # with it first (most side lines are proven there), then a little either way
            cont, _ = vp.containers()
            kinds = _kind_codes(index)
            length = np.hypot(qx[:, 0] - px[:, 0], qy[:, 0] - py[:, 0])
            for j in (1, 2):
                rows = proof
                for shifts in (PROOF_SHIFTS[:1], PROOF_SHIFTS[1:]):
                    if not len(rows):
                        break
                    t = np.clip(
                        tstar[rows][:, None]
                        + shifts[None, :] / np.maximum(length[rows], 1e-9)[:, None],
                        0.0,
                        1.0,
                    )  # (rows, shifts)
                    xs = px[rows, j][:, None] + (qx[rows, j] - px[rows, j])[:, None] * t
                    ys = py[rows, j][:, None] + (qy[rows, j] - py[rows, j])[:, None] * t
                    lab = raster.lookup(xs.ravel(), ys.ravel()).reshape(t.shape).astype(np.int64)
                    good = lab >= 0
                    ca, cb = cont[a[rows]], cont[b[rows]]
                    for slot in range(ca.shape[1]):
                        good &= (lab != ca[:, slot][:, None]) & (lab != cb[:, slot][:, None])
                    ok = good.any(axis=1)
                    pick = lab[np.arange(len(rows)), np.argmax(good, axis=1)][ok]
                    done = rows[ok]
                    todo[np.searchsorted(need, done), j - 1] = False
                    code[done, j] = kinds[pick]
                    feat[done, j] = pick
                    state[done, j] = LINE_BLOCKED
                    rows = rows[~ok]
        # a side line crossing the same plain blocker as the centre line is blocked too
        exact_rows = np.flatnonzero(todo.any(axis=1))
        exact_rows = exact_rows[(feat[need[exact_rows], 0] >= 0)]
        if len(exact_rows):
            pr = need[exact_rows]
            f = feat[pr, 0]
            cont, crest = vp.containers()
            plain = ~(
                (cont[a[pr]] == f[:, None]).any(axis=1) | (cont[b[pr]] == f[:, None]).any(axis=1)
            )
            plain &= ~(
                (crest[a[pr]] == f[:, None]).any(axis=1) | (crest[b[pr]] == f[:, None]).any(axis=1)
            )
            plain &= np.isin(code[pr, 0], _PLAIN_CODES)
            role = np.where(code[pr, 0] == CODE[Reason.HILL], Role.CREST, -1)
            role = np.where(role < 0, _feature_roles(index)[f], role)
            g = _geom_of(index, f, role)
            plain &= g >= 0
            # both side lines in one edge test
            sel, side = np.nonzero(plain[:, None] & todo[exact_rows])
            if len(sel):
                rr, col = pr[sel], side + 1
                p_ = np.stack([px[rr, col], py[rr, col]], axis=1)
                q_ = np.stack([qx[rr, col], qy[rr, col]], axis=1)
                hit, _unsure = _edge_test(index, p_, q_, g[sel])
                done, dcol = rr[hit], col[hit]
                code[done, dcol] = code[done, 0]
                feat[done, dcol] = feat[done, 0]
                state[done, dcol] = LINE_BLOCKED
                todo[exact_rows[sel[hit]], side[hit]] = False
        if not detailed:
            # centre line open on terrain but crossing another base: a side line
            # crossing a base too is blocked whatever the terrain (left unknown)
            fr, fc = np.nonzero(todo & open0[need][:, None])
            if len(fr):
                rr, cc = need[fr], fc + 1
                bc, bf = _bases(
                    vp,
                    np.flatnonzero(vp.blocks),
                    a[rr],
                    b[rr],
                    px[rr, cc],
                    py[rr, cc],
                    qx[rr, cc],
                    qy[rr, cc],
                )
                hit = bc != _VISIBLE
                code[rr[hit], cc[hit]] = bc[hit]
                feat[rr[hit], cc[hit]] = bf[hit]
                todo[fr[hit], fc[hit]] = False
        r, c = np.nonzero(todo)
        rows, cols = need[r], c + 1
        if len(rows):
            c1, f1, open1, _ = _judge_lines(
                index,
                vp,
                a[rows],
                b[rows],
                px[rows, cols],
                py[rows, cols],
                qx[rows, cols],
                qy[rows, cols],
                detailed,
            )
            code[rows, cols] = c1
            feat[rows, cols] = f1
            state[rows, cols] = np.where(open1, LINE_OPEN, LINE_BLOCKED)
    open_pair = (code == _VISIBLE).any(axis=1)
    out_code = np.where(open_pair, _VISIBLE, code[:, 0]).astype(np.int8)
    out_feat = np.where(open_pair, -1, feat[:, 0])
    return out_code, out_feat, state


def _kernel_terrain(index: TerrainIndex) -> tuple[Any, ...]:
    """The terrain arrays of :func:`kernels.evaluate_pairs`, less the walls and codes (cached)."""
    cached = index.cache.get("kernel_terrain")
    if cached is None:
        raster = index.raster
        if raster is None:
            label = np.full((0, 0), -1, dtype=np.int32)
            x0 = y0 = 0.0
            inv_cell = 1.0
        else:
            label = np.ascontiguousarray(raster.label, dtype=np.int32)
            x0, y0, inv_cell = float(raster.x0), float(raster.y0), 1.0 / raster.cell
        seg, start, count = _edges(index)
        cached = (
            label,
            x0,
            y0,
            inv_cell,
            RASTER_STEP,
            np.ascontiguousarray(index.geom_role, dtype=np.int64),
            np.ascontiguousarray(index.geom_feature, dtype=np.int64),
            np.ascontiguousarray(_geom_bounds(index), dtype=np.float64).reshape(-1, 4),
            np.ascontiguousarray(seg, dtype=np.float64).reshape(-1, 4),
            np.ascontiguousarray(start, dtype=np.int64),
            np.ascontiguousarray(count, dtype=np.int64),
            _kind_codes(index).astype(np.int64),
            _ROLE_CODE.astype(np.int64),
            np.array([k in index.convex for k in range(len(index.features))], dtype=bool),
            *edge_table(
                [
                    index.woods_core(k) if k in index.woods else None
                    for k in range(len(index.features))
                ]
            ),
            _geom_of_table(index),
            _feature_roles(index),
            np.array([k in index.woods for k in range(len(index.features))], dtype=bool),
        )
        index.cache["kernel_terrain"] = cached
    return cached  # type: ignore[return-value]


_NEVER_BOX = np.array([np.inf, np.inf, -np.inf, -np.inf])
"""A bounding box that meets nothing (for a missing or empty geometry)."""


def edge_table(geoms: Sequence[object | None]) -> tuple[Floats, Floats, Ints, Ints]:
    """Bounds, edges (x1, y1, x2, y2), first edge and edge count of each geometry's rings or
    lines, for the kernels; None or an empty geometry has no edges and a box meeting nothing."""
    n = len(geoms)
    arr = np.array([g if g is not None else LineString() for g in geoms] + [None], dtype=object)[:n]
    box = shapely.bounds(arr).reshape(n, 4)
    box[np.isnan(box).any(axis=1)] = _NEVER_BOX
    lines = np.where(shapely.get_dimensions(arr) == 2, shapely.boundary(arr), arr)
    parts, owner = shapely.get_parts(lines, return_index=True)
    coords, part = shapely.get_coordinates(parts, return_index=True)
    same = part[:-1] == part[1:]
    seg = np.ascontiguousarray(np.c_[coords[:-1][same], coords[1:][same]].reshape(-1, 4))
    seg_owner = owner[part[:-1][same]]  # edges come out grouped by geometry, in order
    start = np.searchsorted(seg_owner, np.arange(n)).astype(np.int64)
    count = (np.searchsorted(seg_owner, np.arange(n), side="right") - start).astype(np.int64)
    return np.ascontiguousarray(box), seg, start, count


def _kernel_places(index: TerrainIndex) -> tuple[Any, ...]:
    """The feature arrays :func:`kernels.locate_points` takes, in its order (cached)."""
    cached = index.cache.get("kernel_places")
    if cached is None:
        n = len(index.features)
        o_box, o_seg, o_start, o_count = edge_table(index.outlines)
        _box, c_seg, c_start, c_count = edge_table([index.crests.get(f) for f in range(n)])
        kind = np.zeros(n, dtype=np.int64)
        for f, k in enumerate(index.kinds):
            kind[f] = (
                (kernels.K_WOODS if f in index.woods else 0)
                | (kernels.K_BUILDING if k is K.BUILDING else 0)
                | (kernels.K_IMPASSABLE if k is K.IMPASSABLE else 0)
                | (kernels.K_COVER if k is K.COVER else 0)
                | (kernels.K_VEHICLE if f in index.vehicles else 0)
            )
        segs: list[tuple[float, float, float, float]] = []
        op_start = np.zeros(n, dtype=np.int64)
        op_count = np.zeros(n, dtype=np.int64)
        for f, ops in index.building_openings.items():
            op_start[f] = len(segs)
            op_count[f] = len(ops)
            for _o, _kind, seg in ops:
                (x1, y1), (x2, y2) = seg.coords[0], seg.coords[-1]
                segs.append((x1, y1, x2, y2))
        op_seg = np.array(segs, dtype=np.float64).reshape(-1, 4)
        cached = (o_box, o_seg, o_start, o_count)
        cached += (c_seg, c_start, c_count, kind, op_seg, op_start, op_count)
        cached += tuple(kernels.chunk_boxes(seg) for seg in (o_seg, c_seg))
        index.cache["kernel_places"] = cached
    return cached  # type: ignore[return-value]


LOCATE_TOLERANCE = 1e-9
"""Inches: a distance this close to a limit it is compared with is left to GEOS."""


def locate_compiled(
    index: TerrainIndex, xs: Floats, ys: Floats, radii: Floats, rules: RulesOptions
) -> list[Place]:
    """:func:`locate_many` by :func:`kernels.locate_points`; bases at a limit (a centre on
    an outline, exactly 1" from a woods edge...) are located by GEOS."""
    n, f = len(xs), len(index.features)
    if not n or not f:
        return locate_many(index, xs, ys, radii, rules)
    cover_d = rules.interpretations.cover_obstacle_distance
    reach = locate_reach(radii, rules)
    flags = np.empty((n, f), dtype=np.uint8)
    openings = np.empty(n, dtype=np.int64)
    defer = np.empty(n, dtype=bool)
    kernels.locate_points(
        _kernel_places(index),
        np.ascontiguousarray(xs, dtype=np.float64),
        np.ascontiguousarray(ys, dtype=np.float64),
        np.ascontiguousarray(radii, dtype=np.float64),
        reach,
        float(cover_d),
        EDGE_BAND,
        CREST_BAND,
        AT_OPENING,
        LOCATE_TOLERANCE,
        flags,
        openings,
        defer,
    )
    out: list[Place] = [NOWHERE] * n
    rows, feats = np.nonzero(flags)
    hits: dict[int, list[tuple[int, int]]] = {}
    for k, ff, bits in zip(rows.tolist(), feats.tolist(), flags[rows, feats].tolist(), strict=True):
        hits.setdefault(k, []).append((ff, bits))
    # a batch's points mostly stand in the same few places (a woods, a wall's band):
    # one Place per distinct set of hits (Place is frozen, so they can be shared)
    made: dict[tuple[tuple[tuple[int, int], ...], int], Place] = {}
    mask_of = openings.tolist()
    for k, found in hits.items():
        key = (tuple(found), mask_of[k])
        known = made.get(key)
        if known is not None:
            out[k] = known
            continue
        mask = key[1]
        building = next((ff for ff, bits in found if bits & kernels.IN_BUILDING), -1)
        out[k] = made[key] = Place(
            woods=tuple(ff for ff, bits in found if bits & kernels.IN_WOODS),
            deep=tuple(ff for ff, bits in found if bits & kernels.DEEP),
            building=building,
            openings=tuple(o for o in range(mask.bit_length()) if mask >> o & 1),
            vehicle=next((ff for ff, bits in found if bits & kernels.IN_VEHICLE), -1),
            near_crests=tuple(ff for ff, bits in found if bits & kernels.NEAR_CREST),
            near_obstacles=tuple(ff for ff, bits in found if bits & kernels.NEAR_OBSTACLE),
            impassable=any(bits & kernels.IN_IMPASSABLE for _ff, bits in found),
        )
    later = np.flatnonzero(defer)
    if len(later):
        exact = locate_many(index, xs[later], ys[later], radii[later], rules, reach=reach)
        for k, place in zip(later.tolist(), exact, strict=True):
            out[k] = place
    return out


@dataclass(slots=True)
class _WallsTable:
    """Walls entries for the kernels, kept on the index: one per (building, openings)."""

    keys: dict[tuple[int, tuple[int, ...]], int] = field(default_factory=dict)
    arrays: tuple[Floats, Ints, Ints] | None = None


def _kernel_walls(index: TerrainIndex, vp: Viewpoints) -> tuple[Floats, Ints, Ints, Ints]:
    """Edges of the walls each viewpoint inside a building must not cross (8.3), for the
    kernels: (edges, first edge, edge count) per walls entry, and each viewpoint's entry
    (-1: in no building, or at no door or window)."""
    table = index.cache.get("kernel_walls")
    if not isinstance(table, _WallsTable):
        table = _WallsTable()
        index.cache["kernel_walls"] = table
    keys = table.keys
    known = vp._walls
    if known is not None and known[0] is table:
        wall = known[1]
        todo = np.flatnonzero(wall == -2).tolist()
    else:
        wall = np.full(len(vp), -1, dtype=np.int64)
        todo = np.flatnonzero(vp.cover_flags()[0]).tolist()
    grew = False
    for k in todo:
        place = vp.places[k]
        wall[k] = -1
        if place.building >= 0 and place.openings:
            key = (place.building, place.openings)
            if key not in keys:
                keys[key] = len(keys)
                grew = True
            wall[k] = keys[key]
    vp._walls = (table, wall)
    if grew or table.arrays is None:
        order = sorted(keys, key=keys.__getitem__)
        _box, seg, start, count = edge_table([walls(index, b, at) for b, at in order])
        table.arrays = (seg, start, count)
    seg, start, count = table.arrays
    return seg, start, count, wall


_DEFERRED = 3
"""Line state from :func:`kernels.evaluate_pairs`: left to the exact rules."""


def _kernel_codes(rules: RulesOptions) -> Ints:
    """Reason codes in the order of the ``kernels.C_*`` positions."""
    codes = _CODES.get(rules.night)
    if codes is None:
        codes = _CODES[rules.night] = _make_kernel_codes(rules.night)
    return codes


_CODES: dict[bool, Ints] = {}


def _make_kernel_codes(night: bool) -> Ints:
    limit = Reason.NIGHT if night else Reason.WEATHER
    return np.array(
        [
            CODE[r]
            for r in (
                Reason.VISIBLE,
                Reason.FIGURE,
                Reason.WOODS,
                Reason.WOODS_DEEP,
                Reason.BUILDING_INTERIOR,
                Reason.BUILDING_WALL,
                Reason.OFF_TABLE,
                Reason.OUT_OF_ARC,
                limit,
                Reason.WOODS_RANGE,
            )
        ],
        dtype=np.int64,
    )


def _evaluate_compiled(
    index: TerrainIndex, vp: Viewpoints, a: Ints, b: Ints, rules: RulesOptions
) -> PairVerdicts:
    """:func:`evaluate` in one call of :func:`kernels.evaluate_pairs`; what it leaves to
    the exact rules (a line that only touches an edge, Cover by an obstacle the line only
    touches) is settled here with GEOS, for the few pairs concerned."""
    m = len(a)
    w_seg, w_start, w_count, wall = _kernel_walls(index, vp)
    static = _kernel_terrain(index)
    terrain = (*static[:18], w_seg, w_start, w_count, _kernel_codes(rules), *static[18:])
    cont, crest = vp.containers()
    seal_feat, seal_code = vp.sealed()
    area, veh, _near, woods = vp.cover_flags()
    view = (
        *(vp.x, vp.y, vp.r, vp.fx, vp.fy, vp.blocks, vp.moving, vp.lit, vp.present),
        *(cont, crest, vp.deep_in(), wall, seal_feat, seal_code, area, veh, woods),
        vp.near_features(),
    )
    out: tuple[Any, ...] = (
        np.empty(m, dtype=np.float64),
        np.empty(m, dtype=np.int8),
        np.empty(m, dtype=np.int8),
        np.empty(m, dtype=np.int64),
        np.empty(m, dtype=np.int64),
        *[np.empty(m, dtype=bool) for _ in range(6)],
        np.empty((m, 3), dtype=np.int64),
        np.empty((m, 3), dtype=np.int64),
        np.empty((m, 3), dtype=np.int8),
        np.empty((m, 2), dtype=bool),
    )
    limit = rules.visibility_limit
    lines_left, covers_left = kernels.evaluate_pairs(
        terrain,
        view,
        np.ascontiguousarray(a, dtype=np.int64),
        np.ascontiguousarray(b, dtype=np.int64),
        GRAZE,
        SAMPLE_FRACTION,
        float(rules.woods_visibility),
        -1.0 if limit is None else float(limit),
        out,
    )
    dist, ab, ba, ab_feat, ba_feat, cov_ab, cov_ba, conc_ab, conc_ba, gate_ab, gate_ba = out[:11]
    state, cover_unsure = out[13], out[14]
    if lines_left:
        _settle_lines(index, vp, a, b, out)
    deferred = state == _DEFERRED
    if deferred.any():
        state[deferred] = LINE_UNKNOWN
    if covers_left:
        for col, (v, t, seen, cov, conc) in enumerate(
            ((a, b, gate_ab, cov_ab, conc_ab), (b, a, gate_ba, cov_ba, conc_ba))
        ):
            rows = np.flatnonzero(cover_unsure[:, col])
            if len(rows):
                cov[rows], conc[rows] = _cover(index, vp, v[rows], t[rows], seen[rows])
    return PairVerdicts(
        a=a,
        b=b,
        distance=dist,
        ab=ab,
        ba=ba,
        ab_feature=ab_feat,
        ba_feature=ba_feat,
        cover_ab=cov_ab,
        concealed_ab=conc_ab,
        cover_ba=cov_ba,
        concealed_ba=conc_ba,
        gate_ab=gate_ab,
        gate_ba=gate_ba,
        line_state=state,
    )


def _settle_lines(
    index: TerrainIndex, vp: Viewpoints, a: Ints, b: Ints, out: tuple[Any, ...]
) -> None:
    """Judge with GEOS the lines the kernel deferred, for pairs it left unseen; then
    the pair's verdict in each direction whose gate is open."""
    ab, ba, ab_feat, ba_feat = out[1:5]
    gate_ab, gate_ba = out[9], out[10]
    lcode, lfeat, state = out[11], out[12], out[13]
    seen = (lcode == _VISIBLE).any(axis=1)
    pairs = np.flatnonzero(~seen & (state == _DEFERRED).any(axis=1))
    px, py, qx, qy = _line_ends(vp, a[pairs], b[pairs])
    r, c = np.nonzero(state[pairs] == _DEFERRED)
    la, lb = a[pairs][r], b[pairs][r]
    lpx, lpy, lqx, lqy = px[r, c], py[r, c], qx[r, c], qy[r, c]
    code, feat = _exact(index, vp, la, lb, _segments(lpx, lpy, lqx, lqy), False)
    terrain_open = code == _VISIBLE
    rows = np.flatnonzero(terrain_open)
    if len(rows):
        blockers = np.flatnonzero(vp.blocks)
        ends = (lpx[rows], lpy[rows], lqx[rows], lqy[rows])
        code[rows], feat[rows] = _bases(vp, blockers, la[rows], lb[rows], *ends)
    rr = pairs[r]
    lcode[rr, c] = code
    lfeat[rr, c] = feat
    state[rr, c] = np.where(terrain_open, LINE_OPEN, LINE_BLOCKED)
    now = (lcode[pairs] == _VISIBLE).any(axis=1)
    pair_code = np.where(now, _VISIBLE, lcode[pairs, 0])
    pair_feat = np.where(now, -1, lfeat[pairs, 0])
    for gate, codes, feats in ((gate_ab, ab, ab_feat), (gate_ba, ba, ba_feat)):
        open_ = gate[pairs]
        codes[pairs[open_]] = pair_code[open_]
        feats[pairs[open_]] = pair_feat[open_]


def _segments(px: Floats, py: Floats, qx: Floats, qy: Floats) -> npt.NDArray[np.object_]:
    """Two-point LineStrings from arrays of end coordinates."""
    coords = np.empty((len(px), 2, 2), dtype=np.float64)
    coords[:, 0, 0], coords[:, 0, 1], coords[:, 1, 0], coords[:, 1, 1] = px, py, qx, qy
    out: npt.NDArray[np.object_] = shapely.linestrings(coords)
    return out


_ROLE_CODE = np.array(
    [CODE[Reason.WOODS], CODE[Reason.BUILDING], CODE[Reason.IMPASSABLE], CODE[Reason.HILL], 0],
    dtype=np.int8,
)
"""Block reason by :class:`Role` number (WOODS, BUILDING, IMPASSABLE, CREST, OBSTACLE)."""

_FEATURE_ROLE = {
    K.WOODS: Role.WOODS,
    K.WOODED_HILL: Role.WOODS,
    K.BUILDING: Role.BUILDING,
    K.IMPASSABLE: Role.IMPASSABLE,
    K.HILL: Role.CREST,
    K.COVER: Role.OBSTACLE,
}
"""The role under which a feature blocks a line passing through it."""

_PLAIN_CODES = np.array(
    [CODE[Reason.WOODS], CODE[Reason.BUILDING], CODE[Reason.IMPASSABLE], CODE[Reason.HILL]],
    dtype=np.int8,
)


def _judge_lines(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    px: Floats,
    py: Floats,
    qx: Floats,
    qy: Floats,
    detailed: bool,
) -> tuple[Codes, Ints, Bools, Floats]:
    """Terrain, then other bases, for lines p[k] -> q[k] between a[k] and b[k] (1-D arrays).

    Returns codes, blocking features, whether terrain alone leaves each line
    open, and for lines the raster blocked the fraction along the line of the
    first block found (else -1).
    """
    m = len(a)
    code = np.full(m, _VISIBLE, dtype=np.int8)
    feat = np.full(m, -1, dtype=np.int64)
    tstar = np.full(m, -1.0)
    undecided = np.ones(m, dtype=bool)
    if index.raster is not None and not detailed and m:
        undecided = _raster_filter(index, vp, a, b, px, py, qx, qy, code, feat, tstar)
    rows = np.flatnonzero(undecided)
    if len(rows):
        lines = _segments(px[rows], py[rows], qx[rows], qy[rows])
        if not detailed and len(rows) > EXACT_DIRECT:
            left = _edge_filter(index, vp, a[rows], b[rows], lines, code, feat, rows)
            rows, lines = rows[left], lines[left]
        c, f = _exact(index, vp, a[rows], b[rows], lines, detailed)
        code[rows] = c
        feat[rows] = f
    terrain_open = code == _VISIBLE
    rows = np.flatnonzero(terrain_open)
    blockers = np.flatnonzero(vp.blocks)
    if len(rows) and len(blockers):
        c, f = _bases(vp, blockers, a[rows], b[rows], px[rows], py[rows], qx[rows], qy[rows])
        code[rows] = c
        feat[rows] = f
    return code, feat, terrain_open, tstar


def _edges(index: TerrainIndex) -> tuple[Floats, Ints, Ints]:
    """Every edge of every indexed sight geometry: (x1, y1, x2, y2) rows, start and count."""
    cached = index.cache.get("edges")
    if cached is None:
        is_crest = index.geom_role == Role.CREST
        outlines = np.where(is_crest, index.geoms, shapely.boundary(index.geoms))
        parts, owner = shapely.get_parts(outlines, return_index=True)
        coords, part = shapely.get_coordinates(parts, return_index=True)
        same = part[:-1] == part[1:]
        seg = np.c_[coords[:-1][same], coords[1:][same]]
        seg_geom = owner[part[:-1][same]]
        order = np.argsort(seg_geom, kind="stable")
        seg, seg_geom = seg[order], seg_geom[order]
        start = np.searchsorted(seg_geom, np.arange(len(index.geoms)))
        count = np.searchsorted(seg_geom, np.arange(len(index.geoms)), side="right") - start
        cached = (seg, start, count)
        index.cache["edges"] = cached
    return cached  # type: ignore[return-value]


EDGE_PAIRS = 1 << 20
"""Segment-edge pairs :func:`_edge_test` works on at a time: its arrays take some 200
bytes a pair, so about 200 MB at most, however many points the outlines have (two
buildings of 10,000 points once made 47 million pairs at once: 5.9 GB)."""


def _edge_test(index: TerrainIndex, p: Floats, q: Floats, g: Ints) -> tuple[Bools, Bools]:
    """Does segment p[k]-q[k] meet sight geometry g[k]?  Exact where it answers (numpy).

    Returns (meets, unsure): ``meets`` when the segment properly crosses one of
    the geometry's edges or (for outlines) has an end inside it; ``unsure``
    when a cross product is exactly zero (a touch or a run along an edge),
    which only shapely can settle.  Otherwise the two do not meet.  Each pair's
    answer depends on its own edges alone, so the pairs are taken in runs of at
    most :data:`EDGE_PAIRS` edges (one pair with more edges is a run of its own).
    """
    _seg, _start, count = _edges(index)
    ends = np.cumsum(count[g])
    if not len(g) or ends[-1] <= EDGE_PAIRS:
        return _edge_run(index, p, q, g)
    meets = np.zeros(len(g), dtype=bool)
    unsure = np.zeros(len(g), dtype=bool)
    lo = 0
    while lo < len(g):
        before = ends[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(ends, before + EDGE_PAIRS, side="right")), lo + 1)
        meets[lo:hi], unsure[lo:hi] = _edge_run(index, p[lo:hi], q[lo:hi], g[lo:hi])
        lo = hi
    return meets, unsure


def _edge_run(index: TerrainIndex, p: Floats, q: Floats, g: Ints) -> tuple[Bools, Bools]:
    """:func:`_edge_test` on one run of pairs, all their edges at once."""
    seg, start, count = _edges(index)
    cnt = count[g]
    pair = np.repeat(np.arange(len(g)), cnt)
    e = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt) + start[g].take(pair)
    pp, qq = p.take(pair, axis=0), q.take(pair, axis=0)
    edges = seg.take(e, axis=0)
    s0, s1 = edges[:, 0:2], edges[:, 2:4]

    def cross(o: Floats, u: Floats, w: Floats) -> Floats:
        return (u[:, 0] - o[:, 0]) * (w[:, 1] - o[:, 1]) - (u[:, 1] - o[:, 1]) * (w[:, 0] - o[:, 0])

    d1, d2 = cross(pp, qq, s0), cross(pp, qq, s1)
    d3, d4 = cross(s0, s1, pp), cross(s0, s1, qq)
    proper = (d1 * d2 < 0) & (d3 * d4 < 0)
    degenerate = (d1 == 0) | (d2 == 0) | (d3 == 0) | (d4 == 0)
    meets = np.zeros(len(g), dtype=bool)
    np.logical_or.at(meets, pair, proper)
    # an end point inside an outline (ray casting; crests have no inside), only
    # for candidates with that end inside the outline's bounding box
    bounds = _geom_bounds(index).take(g, axis=0)
    outline = index.geom_role[g] != Role.CREST
    for pt in (p, q):
        inbox = (
            ~meets
            & outline
            & (pt[:, 0] >= bounds[:, 0])
            & (pt[:, 0] <= bounds[:, 2])
            & (pt[:, 1] >= bounds[:, 1])
            & (pt[:, 1] <= bounds[:, 3])
        )
        sel = inbox.take(pair)
        if not sel.any():
            continue
        a0, a1, pe = s0[sel], s1[sel], pt.take(pair[sel], axis=0)
        up = (a0[:, 1] > pe[:, 1]) != (a1[:, 1] > pe[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            xc = a0[:, 0] + (pe[:, 1] - a0[:, 1]) * (a1[:, 0] - a0[:, 0]) / (a1[:, 1] - a0[:, 1])
        hits = up & (pe[:, 0] < xc)
        meets |= (np.bincount(pair[sel], weights=hits, minlength=len(g)) % 2) == 1
    unsure = np.zeros(len(g), dtype=bool)
    unsure[pair[degenerate]] = True
    return meets, unsure & ~meets


def _geom_bounds(index: TerrainIndex) -> Floats:
    """Bounding boxes (minx, miny, maxx, maxy) of the indexed sight geometries (cached)."""
    table = index.cache.get("geom_bounds")
    if table is None:
        table = shapely.bounds(index.geoms)
        index.cache["geom_bounds"] = table
    out: Floats = table  # type: ignore[assignment]
    return out


def _geom_of_table(index: TerrainIndex) -> Ints:
    """[feature, role]: the index of that feature's sight geometry in that role, or -1."""
    table = index.cache.get("geom_of")
    if table is None:
        table = np.full((len(index.features), 5), -1, dtype=np.int64)
        table[index.geom_feature, index.geom_role] = np.arange(len(index.geoms))
        index.cache["geom_of"] = table
    out: Ints = table  # type: ignore[assignment]
    return out


def _geom_of(index: TerrainIndex, feats: Ints, role: Ints) -> Ints:
    """The index of the sight geometry of each (feature, role), or -1."""
    out: Ints = _geom_of_table(index)[feats, role]
    return out


def _edge_filter(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    lines: npt.NDArray[np.object_],
    code: Codes,
    feat: Ints,
    rows: Ints,
) -> Bools:
    """Decide lines against the edges of the features near them, in numpy.

    Candidates come from the STRtree's bounding boxes (all features whose box
    meets the line's).  A line that properly crosses an edge of an eroded
    woods, building or impassable outline, or of a shortened crest, or has an
    end inside such an outline, meets that feature, so the exact test would
    block it too -- unless the feature is exempt for it (a container of either
    end, a crest near either end).  A line with no exempt candidates, no
    crossing, no end inside and no exact contact (a zero cross product) meets
    no feature at all, so terrain leaves it open.  Everything else -- exempt
    features, contacts -- is left undecided for :func:`_exact`.
    """
    li, gi = index.tree.query(lines)
    role = index.geom_role[gi]
    f = index.geom_feature[gi]
    cont, crest = vp.containers()
    keep = role != Role.OBSTACLE
    area = (role == Role.WOODS) | (role == Role.BUILDING)
    exempt_area = (cont[a[li]] == f[:, None]).any(axis=1) | (cont[b[li]] == f[:, None]).any(axis=1)
    exempt_crest = (crest[a[li]] == f[:, None]).any(axis=1) | (crest[b[li]] == f[:, None]).any(
        axis=1
    )
    exempt = (area & exempt_area) | ((role == Role.CREST) & exempt_crest)
    undecided = np.ones(len(lines), dtype=bool)
    # lines meeting a feature exempt for them need the exact rules
    special = np.zeros(len(lines), dtype=bool)
    special[li[exempt & keep]] = True
    # a line from inside a building to outside it: its walls are the exact rules' (the
    # line may never meet the eroded outline, see _with_own_buildings)
    special |= _leaving_a_building(vp, a, b)
    keep &= ~exempt
    li, gi = li[keep], gi[keep]
    ends = shapely.get_coordinates(lines)
    if len(li):
        # drop candidates whose bounding box lies wholly on one side of the line
        p, q = ends[0::2].take(li, axis=0), ends[1::2].take(li, axis=0)
        bx = _geom_bounds(index).take(gi, axis=0)
        dx, dy = (q - p)[:, 0], (q - p)[:, 1]
        side = [
            dx * (bx[:, cy] - p[:, 1]) - dy * (bx[:, cx] - p[:, 0])
            for cx, cy in ((0, 1), (2, 1), (2, 3), (0, 3))
        ]
        lo = np.minimum(np.minimum(side[0], side[1]), np.minimum(side[2], side[3]))
        hi = np.maximum(np.maximum(side[0], side[1]), np.maximum(side[2], side[3]))
        near = (lo <= 0) & (hi >= 0)
        li, gi = li[near], gi[near]
    if not len(li):
        undecided[~special] = False  # nothing near: open
        return undecided
    meets, unsure_pair = _edge_test(
        index, ends[0::2].take(li, axis=0), ends[1::2].take(li, axis=0), gi
    )
    blocked_pair = meets
    unsure = np.zeros(len(lines), dtype=bool)
    unsure[li[unsure_pair]] = True
    if blocked_pair.any():
        hp = np.flatnonzero(blocked_pair)
        lines_hit = li[hp]
        first = np.unique(lines_hit, return_index=True)[1]
        lk = lines_hit[first]
        g = gi[hp[first]]
        code[rows[lk]] = _ROLE_CODE[index.geom_role[g]]
        feat[rows[lk]] = index.geom_feature[g]
        undecided[lk] = False
    # no crossing, no contact, no end inside: terrain leaves the line open
    blocked_line = ~undecided
    undecided[~blocked_line & ~special & ~unsure] = False
    return undecided


def _raster_filter(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    px: Floats,
    py: Floats,
    qx: Floats,
    qy: Floats,
    code: Codes,
    feat: Ints,
    tstar: Floats,
) -> Bools:
    """Decide sight lines from raster samples, walking all lines forward in growing steps.

    A sample in a cell wholly inside a blocking feature that contains neither
    end blocks that line for sure.  A line leaves the walk as soon as it is
    blocked; the lines left open go to the exact test.  Returns the mask of
    undecided lines and fills ``code``, ``feat`` and ``tstar`` for the others.
    Every round samples a rectangle (lines x steps) at once, the steps past a
    line's end repeating its last sample.
    """
    raster = index.raster
    assert raster is not None
    m = len(a)
    ex_, ey_ = qx - px, qy - py
    n = np.maximum(np.ceil(np.hypot(ex_, ey_) / RASTER_STEP).astype(np.int64), 1) + 1
    inv = 1.0 / (n - 1)
    cont, _ = vp.containers()
    ca, cb = cont[a], cont[b]
    special_line: Bools = np.asarray((ca >= 0).any(axis=1) | (cb >= 0).any(axis=1))
    any_special = bool(special_line.any())
    blocked = np.zeros(m, dtype=bool)
    first = np.full(m, -1, dtype=np.int64)
    # walk in cell units, in 16.16 fixed point: column = (cx + k * dcx) >> 16, row
    # likewise (a sample a hair off the line is still sound: a labelled cell's
    # neighbours lie inside the same feature, see Raster)
    rows_, cols_ = raster.label.shape
    flat = raster.label.ravel()
    scale = 1.0 / raster.cell
    fixed = float(1 << 16)
    # int32 holds 16.16 coordinates and k * step for rasters up to 8,000 cells a side
    itype = np.int32 if max(rows_, cols_) < 8000 else np.int64
    cx = ((px - raster.x0) * (scale * fixed)).astype(itype)
    cy = ((py - raster.y0) * (scale * fixed)).astype(itype)
    dcx = np.rint(ex_ * inv * (scale * fixed)).astype(itype)
    dcy = np.rint(ey_ * inv * (scale * fixed)).astype(itype)
    inside_raster = bool(
        m == 0
        or (
            min(px.min(), qx.min()) >= raster.x0
            and min(py.min(), qy.min()) >= raster.y0
            and (max(px.max(), qx.max()) - raster.x0) * scale < cols_ - 2
            and (max(py.max(), qy.max()) - raster.y0) * scale < rows_ - 2
        )
    )
    last = (n - 1).astype(itype)
    active = np.arange(m)
    pos = 0
    longest = int(n.max(initial=1))
    step = max(WALK_FIRST, WALK_BATCH // max(m, 1)) if m * longest > WALK_SINGLE else longest
    while len(active):
        k = np.minimum(np.arange(pos, pos + step, dtype=itype)[None, :], last[active, None])
        ci = dcx[active, None] * k
        ci += cx[active, None]
        ci >>= 16
        ri = dcy[active, None] * k
        ri += cy[active, None]
        ri >>= 16
        if not inside_raster:
            np.clip(ci, 0, cols_ - 1, out=ci)
            np.clip(ri, 0, rows_ - 1, out=ri)
        ri *= cols_
        ri += ci
        lab = flat.take(ri)
        blocking: Bools = lab >= 0
        if any_special:
            sp = np.flatnonzero(special_line[active])
            if len(sp):
                sub = blocking[sp]
                lsub = lab[sp]
                lines = active[sp]
                for slot in range(ca.shape[1]):
                    sub &= lsub != ca[lines, slot][:, None]
                    sub &= lsub != cb[lines, slot][:, None]
                blocking[sp] = sub
        at = blocking.argmax(axis=1)
        hit = np.flatnonzero(blocking[np.arange(len(active)), at])
        if len(hit):
            hit_lines = active[hit]
            first[hit_lines] = lab[hit, at[hit]]
            tstar[hit_lines] = k[hit, at[hit]] * inv[hit_lines]
            blocked[hit_lines] = True
        pos += step
        active = active[~blocked[active] & (n[active] > pos)]
        step = int(step * WALK_GROWTH)
    if blocked.any():
        code[blocked] = _kind_codes(index)[first[blocked]]
        feat[blocked] = first[blocked]
    return ~blocked


def _feature_roles(index: TerrainIndex) -> Ints:
    """The :data:`_FEATURE_ROLE` of each feature (cached on the index)."""
    cached = index.cache.get("feature_roles")
    if cached is None:
        cached = np.array([_FEATURE_ROLE[k] for k in index.kinds], dtype=np.int64)
        index.cache["feature_roles"] = cached
    out: Ints = cached  # type: ignore[assignment]
    return out


def _kind_codes(index: TerrainIndex) -> Codes:
    """The block reason of each feature when a line passes through it (cached on the index)."""
    cached = index.cache.get("kind_codes")
    if cached is not None:
        return cached  # type: ignore[return-value]
    out = np.array(
        [
            CODE[Reason.WOODS]
            if k in (K.WOODS, K.WOODED_HILL)
            else CODE[Reason.BUILDING]
            if k is K.BUILDING
            else CODE[Reason.IMPASSABLE]
            for k in index.kinds
        ],
        dtype=np.int8,
    )
    index.cache["kind_codes"] = out
    return out


def _exact(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    lines: npt.NDArray[np.object_],
    detailed: bool,
) -> tuple[Codes, Ints]:
    """Apply the terrain rules to each line and every feature it meets (the reference path).

    Exact GEOS predicates through the STRtree; the rules for a line starting
    inside woods or a building are applied per hit by :func:`_inside_rules`.
    With ``detailed`` the blocking feature reported is the one nearest the
    line's start.
    """
    m = len(a)
    code = np.full(m, _VISIBLE, dtype=np.int8)
    feat = np.full(m, -1, dtype=np.int64)
    li, gi = _intersecting(index, lines)
    li, gi = _with_own_buildings(index, vp, a, b, li, gi)
    role = index.geom_role[gi]
    if not len(li):
        return code, feat
    f = index.geom_feature[gi]
    cont, crest = vp.containers()
    in_a = (cont[a[li]] == f[:, None]).any(axis=1)
    in_b = (cont[b[li]] == f[:, None]).any(axis=1)
    near = (crest[a[li]] == f[:, None]).any(axis=1) | (crest[b[li]] == f[:, None]).any(axis=1)
    area = (role == Role.WOODS) | (role == Role.BUILDING)
    hit_code = np.full(len(li), _VISIBLE, dtype=np.int8)
    plain = (role == Role.IMPASSABLE) | ((role == Role.CREST) & ~near) | (area & ~in_a & ~in_b)
    for r, c in _BLOCK_CODE.items():
        hit_code[plain & (role == r)] = c
    line_blocked = np.zeros(m, dtype=bool)
    line_blocked[li[plain]] = True
    special = np.flatnonzero(area & (in_a ^ in_b))
    # both ends in a building that is no rectangle: the line must not leave it and come
    # back in (8.3: through the walls at an L's inner corner), judged like woods' edge
    both = np.flatnonzero((role == Role.BUILDING) & in_a & in_b)
    if len(both):
        bent = np.array([int(x) not in index.convex for x in f[both].tolist()], dtype=bool)
        both = both[bent]
    if len(both):
        pieces = shapely.get_num_geometries(
            shapely.intersection(lines[li[both]], index.geoms[gi[both]])
        )
        out_and_in = both[pieces > 1]
        hit_code[out_and_in] = CODE[Reason.BUILDING_WALL]
        line_blocked[li[out_and_in]] = True
    if not detailed:
        special = special[~line_blocked[li[special]]]
    if len(special):
        _inside_rules(index, vp, a, b, li, f, role, gi, in_a, lines, special, hit_code)
    blocking = np.flatnonzero(hit_code != _VISIBLE)
    if not len(blocking):
        return code, feat
    if detailed:
        starts = shapely.points(shapely.get_coordinates(lines[li[blocking]])[0::2])
        d = shapely.distance(index.geoms[gi[blocking]], starts)
        blocking = blocking[np.lexsort((d, li[blocking]))]
    else:
        blocking = blocking[np.argsort(li[blocking], kind="stable")]
    first = np.unique(li[blocking], return_index=True)[1]
    chosen = blocking[first]
    code[li[chosen]] = hit_code[chosen]
    feat[li[chosen]] = f[chosen]
    return code, feat


def _prepared_geoms(index: TerrainIndex) -> npt.NDArray[np.object_]:
    """The indexed sight geometries, prepared for repeated predicates (once per index)."""
    if "prepared" not in index.cache:
        shapely.prepare(index.geoms)
        index.cache["prepared"] = True
    return index.geoms


def _intersecting(index: TerrainIndex, lines: npt.NDArray[np.object_]) -> tuple[Ints, Ints]:
    """Pairs (line, sight geometry) that intersect, cover obstacles left out.

    The same pairs, in the same order, as ``index.tree.query(lines,
    predicate="intersects")`` without the obstacles: the bounding-box candidates
    are thinned first by dropping obstacles and boxes lying wholly on one side of
    the line (with a small margin, so rounding never drops a touching box), and
    the rest are tested with GEOS against the prepared geometries.
    """
    li, gi = index.tree.query(lines)
    keep = index.geom_role[gi] != Role.OBSTACLE
    li, gi = li[keep], gi[keep]
    if not len(li):
        return li, gi
    ends = shapely.get_coordinates(lines)
    p, q = ends[0::2].take(li, axis=0), ends[1::2].take(li, axis=0)
    bx = _geom_bounds(index).take(gi, axis=0)
    dx, dy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
    side = [
        dx * (bx[:, cy] - p[:, 1]) - dy * (bx[:, cx] - p[:, 0])
        for cx, cy in ((0, 1), (2, 1), (2, 3), (0, 3))
    ]
    lo = np.minimum(np.minimum(side[0], side[1]), np.minimum(side[2], side[3]))
    hi = np.maximum(np.maximum(side[0], side[1]), np.maximum(side[2], side[3]))
    tol = 1e-9 * (np.abs(dx) + np.abs(dy)) * (1.0 + np.abs(p).max(axis=1) + np.abs(bx).max(axis=1))
    near = (lo <= tol) & (hi >= -tol)
    li, gi = li[near], gi[near]
    hit = shapely.intersects(_prepared_geoms(index)[gi], lines[li])
    return li[hit], gi[hit]


def _own_buildings(vp: Viewpoints, a: Ints, b: Ints) -> tuple[Ints, Ints]:
    """The building each end of the lines a[k] -> b[k] stands in (-1: none)."""
    ends = np.unique(np.concatenate([a, b]))
    bld = np.full(len(vp), -1, dtype=np.int64)
    bld[ends] = [vp.places[k].building for k in ends.tolist()]
    return bld[a], bld[b]


def _building_geoms(index: TerrainIndex) -> Ints:
    """Each feature's building outline among the sight geometries (-1: no building)."""
    cached = index.cache.get("building_geoms")
    if cached is None:
        cached = np.full(len(index.features), -1, dtype=np.int64)
        rows = np.flatnonzero(index.geom_role == Role.BUILDING)
        cached[index.geom_feature[rows]] = rows
        index.cache["building_geoms"] = cached
    out: Ints = cached  # type: ignore[assignment]
    return out


def _leaving_a_building(vp: Viewpoints, a: Ints, b: Ints) -> Bools:
    """Lines with one end inside a building the other end is not in (8.3)."""
    fa, fb = _own_buildings(vp, a, b)
    out: Bools = ((fa >= 0) | (fb >= 0)) & (fa != fb)
    return out


def _with_own_buildings(
    index: TerrainIndex, vp: Viewpoints, a: Ints, b: Ints, li: Ints, gi: Ints
) -> tuple[Ints, Ints]:
    """(line, sight geometry) pairs with the building each end stands in added, when
    the other end stands elsewhere: the line must leave it through an opening (8.3)
    whether or not it meets the eroded outline -- a centre a hair inside a wall stands
    outside that, and a line out through the wall beside it met nothing."""
    if not len(a):
        return li, gi
    fa, fb = _own_buildings(vp, a, b)
    bg = _building_geoms(index)
    k = np.arange(len(a))
    own_a, own_b = (fa >= 0) & (fa != fb), (fb >= 0) & (fb != fa)
    if not (own_a.any() or own_b.any()):
        return li, gi
    add_l = np.concatenate([k[own_a], k[own_b]])
    add_g = np.concatenate([bg[fa[own_a]], bg[fb[own_b]]])
    width = len(index.geoms) + 1
    known = set((li * width + gi).tolist())
    new = np.array([c not in known for c in (add_l * width + add_g).tolist()], dtype=bool)
    if not new.any():
        return li, gi
    li = np.concatenate([li, add_l[new]])
    gi = np.concatenate([gi, add_g[new]])
    order = np.argsort(li, kind="stable")
    return li[order], gi[order]


def _inside_rules(
    index: TerrainIndex,
    vp: Viewpoints,
    a: Ints,
    b: Ints,
    li: Ints,
    f: Ints,
    role: Ints,
    gi: Ints,
    in_a: Bools,
    lines: npt.NDArray[np.object_],
    hits: Ints,
    hit_code: Codes,
) -> None:
    """Lines starting inside woods or a building: may they leave (7.9.4, 8.3, 15.2)?

    For each hit (a line meeting the container of one of its ends): from deeper
    than 1" in woods, never; from the edge band, only without entering the part
    deeper than 1" and without coming back in; from inside a building, only at
    a door or window and without crossing the other walls.  Fills ``hit_code``
    (vectorised GEOS calls).
    """
    woods_h: list[int] = []
    woods_core: list[object] = []
    build_h: list[int] = []
    build_walls: list[object] = []
    ends = np.where(in_a[hits], a[li[hits]], b[li[hits]]).tolist()
    for h, e, ff, rr in zip(
        hits.tolist(), ends, f[hits].tolist(), role[hits].tolist(), strict=True
    ):
        end = vp.places[e]
        if rr == Role.WOODS:
            if ff in end.deep:
                hit_code[h] = CODE[Reason.WOODS_DEEP]
            else:
                woods_h.append(h)
                woods_core.append(index.woods_core(ff))
        elif not end.openings:
            hit_code[h] = CODE[Reason.BUILDING_INTERIOR]
        else:
            build_h.append(h)
            build_walls.append(walls(index, ff, end.openings))
    if woods_h:
        wh = np.array(woods_h, dtype=np.int64)
        wl = lines[li[wh]]
        # from the edge band: leave without going deeper than 1", never come back
        deeper = shapely.intersects(wl, np.array(woods_core, dtype=object))
        hit_code[wh[deeper]] = CODE[Reason.WOODS]
        convex = np.array([int(x) in index.convex for x in f[wh].tolist()], dtype=bool)
        again = np.flatnonzero(~deeper & ~convex)
        if len(again):
            inside = shapely.intersection(wl[again], index.geoms[gi[wh[again]]])
            back = shapely.get_num_geometries(inside) > 1
            hit_code[wh[again[back]]] = CODE[Reason.WOODS]
    if build_h:
        bh = np.array(build_h, dtype=np.int64)
        wall = shapely.intersects(lines[li[bh]], np.array(build_walls, dtype=object))
        hit_code[bh[wall]] = CODE[Reason.BUILDING_WALL]


def _bases(
    vp: Viewpoints,
    blockers: Ints,
    a: Ints,
    b: Ints,
    px: Floats,
    py: Floats,
    qx: Floats,
    qy: Floats,
) -> tuple[Codes, Ints]:
    """Other figures' bases on the line (7.9.4), vectorised line x blocker, in chunks."""
    m = len(a)
    code = np.full(m, _VISIBLE, dtype=np.int8)
    feat = np.full(m, -1, dtype=np.int64)
    cx, cy, cr = vp.x[blockers], vp.y[blockers], vp.r[blockers] - GRAZE
    chunk = max(1, 200_000 // max(len(blockers), 1))
    for s in range(0, m, chunk):
        e = min(m, s + chunk)
        ex = (qx[s:e] - px[s:e])[:, None]
        ey = (qy[s:e] - py[s:e])[:, None]
        wx = cx[None, :] - px[s:e, None]
        wy = cy[None, :] - py[s:e, None]
        ll = ex * ex + ey * ey
        t = np.clip((wx * ex + wy * ey) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
        ddx = wx - t * ex
        ddy = wy - t * ey
        hit = (ddx * ddx + ddy * ddy) < (cr * cr)[None, :]
        hit &= cr[None, :] > 0
        hit &= blockers[None, :] != a[s:e, None]
        hit &= blockers[None, :] != b[s:e, None]
        rows = np.flatnonzero(hit.any(axis=1))
        if len(rows):
            # nearest blocker to the viewer along the line
            tt = np.where(hit[rows], t[rows], np.inf)
            first = np.argmin(tt, axis=1)
            code[s + rows] = CODE[Reason.FIGURE]
            feat[s + rows] = -(blockers[first] + 2)
    return code, feat


def _cover(
    index: TerrainIndex, vp: Viewpoints, v: Ints, t: Ints, seen: Bools
) -> tuple[Bools, Bools]:
    """Cover and concealment of each target t[k] seen from v[k] (7.9.5, 15.2)."""
    area, veh, _near, _woods = vp.cover_flags()
    tin = area[t] & seen
    conc = tin | (veh[t] & seen)
    cover = tin & ~vp.moving[t]
    nearf = vp.near_features()
    cand = seen & ~cover & (nearf[t, 0] >= 0)
    rows = np.flatnonzero(cand)
    if len(rows):
        feats = nearf[t[rows]]
        r, c = np.nonzero(feats >= 0)
        lk = rows[r]
        ff = feats[r, c]
        kinds = _feature_roles(index)
        g = _geom_of(index, ff, np.where(kinds[ff] == Role.OBSTACLE, Role.OBSTACLE, Role.CREST))
        vk, tk = v[lk], t[lk]
        if len(lk) <= EXACT_DIRECT:
            # few lines: GEOS at once is cheaper than the numpy edge test
            segs = _segments(vp.x[vk], vp.y[vk], vp.x[tk], vp.y[tk])
            hit = shapely.intersects(segs, index.geoms[g])
        else:
            p_ = np.stack([vp.x[vk], vp.y[vk]], axis=1)
            q_ = np.stack([vp.x[tk], vp.y[tk]], axis=1)
            hit, unsure = _edge_test(index, p_, q_, g)
            if unsure.any():
                u = np.flatnonzero(unsure)
                hit[u] = shapely.intersects(
                    _segments(p_[u, 0], p_[u, 1], q_[u, 0], q_[u, 1]), index.geoms[g[u]]
                )
        hit &= g >= 0  # a crest too short to index gives no Cover
        cover[lk[hit]] = True
    return cover, conc


def cover_reasons(
    index: TerrainIndex, vp: Viewpoints, v: int, t: int
) -> tuple[bool, bool, tuple[CoverReason, ...]]:
    """Cover, concealment and what gives them, for one target seen from one viewer."""
    place = vp.places[t]
    out: list[CoverReason] = []
    cover = conc = False
    for f in place.woods:
        out.append(CoverReason(CoverKind.WOODS, index.features[f]))
    if place.building >= 0:
        out.append(CoverReason(CoverKind.BUILDING, index.features[place.building]))
    if out:
        conc = True
        cover = not bool(vp.moving[t])
        if not cover:
            out = []
    if place.vehicle >= 0:
        conc = True
        out.append(CoverReason(CoverKind.VEHICLE, index.features[place.vehicle]))
    line = shapely.LineString([(vp.x[v], vp.y[v]), (vp.x[t], vp.y[t])])
    for f in place.near_obstacles:
        if line.intersects(_feature_sight_geoms(index, [f])[0]):
            cover = True
            out.append(CoverReason(CoverKind.OBSTACLE, index.features[f]))
    for f in place.near_crests:
        if line.intersects(_feature_sight_geoms(index, [f])[0]):
            cover = True
            out.append(CoverReason(CoverKind.CREST, index.features[f]))
    return cover, conc, tuple(out)


def _feature_sight_geoms(index: TerrainIndex, feats: Sequence[int] | Ints) -> np.ndarray:
    """The indexed sight geometry of each feature: eroded obstacle or shortened crest."""
    table = index.cache.get("sight_geoms")
    if table is None:
        arr = np.array([LineString()] * len(index.features), dtype=object)
        for g in np.flatnonzero(np.isin(index.geom_role, (Role.OBSTACLE, Role.CREST))):
            arr[int(index.geom_feature[g])] = index.geoms[g]
        shapely.prepare(arr)
        index.cache["sight_geoms"] = arr
        table = arr
    return table[np.asarray(feats, dtype=np.int64)]  # type: ignore[index,no-any-return]


# ---------------------------------------------------------------------------
# Convenience API for single questions


def _feature_name(index: TerrainIndex, vp: Viewpoints, code: int) -> str | None:
    if code >= 0:
        return index.features[code]
    if code <= -2:
        return vp.ids[-code - 2]
    return None


def line_of_sight(
    battlefield: Battlefield,
    viewer: str,
    target: str,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
    moving: Iterable[str] = (),
    lit: Iterable[str] = (),
) -> LosResult:
    """Can ``viewer`` see ``target`` (7.9.4)?  With Cover and concealment (7.9.5) and why."""
    index = index or build_index(battlefield, rules, raster=False)
    vp = viewpoints(battlefield, index, rules, moving=moving, lit=lit)
    return explain(index, vp, vp.ids.index(viewer), vp.ids.index(target), rules)


def line_of_sight_to_point(
    battlefield: Battlefield,
    viewer: str,
    point: tuple[float, float],
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
) -> LosResult:
    """Can ``viewer`` see a spot on the table (a grenade or rocket aim point, 7.10.3)?"""
    index = index or build_index(battlefield, rules, raster=False)
    vp = viewpoints(battlefield, index, rules, extra_points=[("@point", point[0], point[1])])
    return explain(index, vp, vp.ids.index(viewer), len(vp) - 1, rules)


def explain(index: TerrainIndex, vp: Viewpoints, v: int, t: int, rules: RulesOptions) -> LosResult:
    """One viewer/target verdict with the first blocking reason along the line."""
    res = evaluate(index, vp, np.array([v]), np.array([t]), rules, detailed=True)
    code = int(res.ab[0])
    visible = code == _VISIBLE
    cover = conc = False
    reasons: tuple[CoverReason, ...] = ()
    if visible:
        cover, conc, reasons = cover_reasons(index, vp, v, t)
    return LosResult(
        viewer=vp.ids[v],
        target=vp.ids[t],
        visible=visible,
        reason=REASONS[code],
        feature_id=_feature_name(index, vp, int(res.ab_feature[0])),
        cover=cover,
        concealed=conc,
        cover_reasons=reasons,
        distance=float(res.distance[0]),
    )


def sample_battlefield() -> Battlefield:
    """A 12" table with a wood and two figures: what the kernels' exercises run on."""
    from shapely.geometry import Polygon

    from crdesk.model import Force, Table, TerrainFeature

    wood = TerrainFeature("w", K.WOODS, "w", Polygon([(4, 4), (8, 4), (8, 8), (4, 8)]))
    bf = Battlefield(Table(12, 12), [wood], [])
    bf.add_force(
        Force(
            "a",
            "A",
            figures=[Figure("f1", "f1", rep=4, x=2, y=2), Figure("f2", "f2", rep=4, x=9, y=9)],
        )
    )
    return bf


def exercise_kernels() -> None:
    """Call every sight kernel, through the engine, on two figures and a wood: numba
    compiles (or loads from its cache) each one for the argument types the engine
    passes, so a game or a dragged figure never waits for a compile
    (:func:`crdesk.geometry.warmup.warm_up` runs this with the movement kernels'
    exercise)."""
    bf = sample_battlefield()
    rules = RulesOptions()
    index = build_index(bf, rules)
    pair = np.array([0], dtype=np.int64), np.array([1], dtype=np.int64)
    vp = viewpoints(bf, index, rules)
    _evaluate_compiled(index, vp, *pair, rules)
    locate_compiled(index, vp.x, vp.y, vp.r, rules)
    n = len(vp)
    view = (vp.x, vp.y, vp.r, vp.fx, vp.fy, vp.blocks)
    square = [np.zeros((n, n), dtype=np.bool_) for _ in range(7)]
    lines = np.ones((n, n, 3), dtype=np.int8)
    moved = np.zeros(n, dtype=np.bool_)
    unsure = np.empty((1, 2), dtype=np.int64)
    spots = np.array([[5.0, 5.0, 0.5]])
    kernels.recheck_moved(view, lines, moved, spots, 0.01, 0.5, tuple(square), unsure)
    nav = np.full((2, 3), np.inf)
    nav[0, 0] = 0.0
    kernels.nav_relax(nav, np.ones((2, 3)), 1.0)
    res = _evaluate_compiled(index, vp, *pair, rules)
    square = [np.zeros((n, n), dtype=np.bool_) for _ in range(6)]
    verdicts: tuple[Any, ...] = (res.a, res.b, res.distance, res.ab, res.ba, res.gate_ab)
    verdicts += (
        res.gate_ba,
        res.cover_ab,
        res.cover_ba,
        res.concealed_ab,
        res.concealed_ba,
        res.line_state,
    )
    targets = (*square, np.zeros((n, n)), np.zeros((n, n, 3), dtype=np.int8))
    kernels.store_pairs(verdicts, 0, (*targets, np.zeros((n, n), dtype=np.bool_)))
