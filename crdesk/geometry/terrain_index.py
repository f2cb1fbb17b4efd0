"""Terrain indexes for line of sight and movement, rebuilt only when terrain changes.

The battlefield's terrain is turned once per ``terrain_revision`` into flat
arrays and spatial indexes (an STRtree over every sight-relevant geometry, a
prepared union of blocking ground, a raster of cells lying wholly inside one
blocking feature), so the many sight lines of an all-pairs matrix are answered
by vectorised calls instead of a Python loop over features (STYLE 4).

Grazing rule (digest 7.9.4 leaves it open; crdesk fixes it here): a sight line
is blocked by a feature only if it passes more than :data:`GRAZE` inside its
outline.  A line that merely touches a corner or runs along an edge is *not*
blocked.  Terrain outlines are therefore eroded by :data:`GRAZE` before they are
indexed, hill crests are shortened by :data:`GRAZE` at each end, and a figure's
base blocks only lines passing closer than ``radius - GRAZE`` to its centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from crdesk.model import Battlefield, Building, CoverObstacle, CoverType, Hill, OpeningKind
from crdesk.model import TerrainKind as K
from crdesk.options import RulesOptions

GRAZE = 0.01
"""Inches a sight line must pass inside a feature to be blocked by it (grazing rule)."""
EDGE_BAND = 1.0
"""Woods: figures within 1" of the edge see and are seen from outside (7.9.4, 15.2)."""
CREST_BAND = 1.0
"""Hill: a figure within 1" of the crest sees over it and is in Cover (15.2)."""
AT_OPENING = 0.5
"""A figure is *at* a door or window when its base is within 0.5" of the opening (8.3)."""
RASTER_CELL = 0.1
"""Side of one raster cell in inches (the fast pre-filter of the all-pairs matrix)."""
RASTER_MAX_CELLS = 6_000_000
"""Cells at most: a table bigger than some 240" x 240" gets cells coarser than
RASTER_CELL (a 72" x 48" table has 350,000 cells of 0.1")."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


class Role:
    """What an indexed geometry does to a sight line (small ints, kept in numpy arrays)."""

    WOODS = 0
    BUILDING = 1
    IMPASSABLE = 2
    CREST = 3
    OBSTACLE = 4


@dataclass(slots=True)
class Raster:
    """Cells wholly inside a blocking polygon, labelled with its index.

    ``label[row, col]`` is a feature index (into :attr:`TerrainIndex.features`)
    when the cell lies wholly inside that blocking polygon (where features
    overlap, one of them), -1 when the cell is clear of every blocking polygon
    and not near one, -2 otherwise (near an edge).  A sample point of a sight
    line that falls in a labelled cell is *exactly* inside that feature, so the
    raster never gives a wrong answer; it only leaves some lines undecided.
    """

    x0: float
    y0: float
    cell: float
    label: npt.NDArray[np.int32]

    def lookup(self, xs: Floats, ys: Floats) -> npt.NDArray[np.int32]:
        rows, cols = self.label.shape
        c = ((xs - self.x0) * (1.0 / self.cell)).astype(np.int32)
        r = ((ys - self.y0) * (1.0 / self.cell)).astype(np.int32)
        # the raster has a margin of one cell around the table and the terrain, and
        # sight lines join points on the table, so indexes stay inside it
        np.clip(c, 0, cols - 1, out=c)
        np.clip(r, 0, rows - 1, out=r)
        r *= cols  # one flat gather is cheaper than label[r, c]
        r += c
        out: npt.NDArray[np.int32] = self.label.ravel().take(r)
        return out


@dataclass(slots=True)
class TerrainIndex:
    """Everything line-of-sight, cover and movement need to know about the terrain.

    Built by :func:`build_index`; valid for one ``terrain_revision`` and one set
    of rules options.
    """

    terrain_revision: int
    features: list[str]
    """Feature ids; every per-feature array below is indexed like this list."""
    kinds: list[K]
    outlines: list[Polygon]
    woods: set[int]
    """Woods and wooded hills."""
    crests: dict[int, LineString]
    building_openings: dict[int, list[tuple[int, OpeningKind, LineString]]]
    """Per building feature: (opening number, kind, segment)."""
    vehicles: set[int]
    geoms: npt.NDArray[np.object_]
    """Indexed sight geometries: eroded outlines, shortened crests, eroded obstacles."""
    geom_feature: Ints
    geom_role: Ints
    tree: STRtree
    raster: Raster | None
    outline_tree: STRtree
    outline_array: npt.NDArray[np.object_]
    impassable: list[int]
    obstacle_ids: list[int] = field(default_factory=list)
    convex: set[int] = field(default_factory=set)
    """Features whose outline is convex (a line cannot leave and re-enter them)."""
    walls_cache: dict[tuple[int, tuple[int, ...]], BaseGeometry] = field(default_factory=dict)
    cache: dict[str, object] = field(default_factory=dict)
    """Small derived arrays computed on first use."""

    def feature_index(self, feature_id: str) -> int:
        return self.features.index(feature_id)

    def woods_core(self, n: int) -> BaseGeometry:
        """Woods ``n`` more than 1" inside its edge: what cannot be seen from outside (15.2)."""
        key = f"core-{n}"
        core = self.cache.get(key)
        if core is None:
            core = _erode(self.outlines[n], EDGE_BAND)
            shapely.prepare(core)
            self.cache[key] = core
        return core  # type: ignore[return-value,unused-ignore]

    @property
    def impassable_union(self) -> BaseGeometry | None:
        """Union of impassable ground (movement), built on first use."""
        if not self.impassable:
            return None
        union = self.cache.get("impassable_union")
        if union is None:
            union = shapely.union_all([self.outlines[n] for n in self.impassable])
            shapely.prepare(union)
            self.cache["impassable_union"] = union
        return union  # type: ignore[return-value,unused-ignore]


def _erode(poly: Polygon, by: float) -> BaseGeometry:
    if not poly.area > 0:  # nothing to erode, and GEOS warns on some (see _eroded)
        return Polygon()
    return shapely.buffer(poly, -by, join_style="mitre")


def _eroded(outlines: np.ndarray, by: float) -> np.ndarray:
    """Each outline shrunk by ``by``; an outline with no area erodes to nothing.

    A zero-area outline (a hostile file's ring of one repeated point, which the
    table checks flag) buffers to an empty polygon as well, but shapely warns
    "invalid value encountered in buffer" on it (a fuzzed saved game's cover wall);
    it is not buffered.  Outlines with area are buffered exactly as before.
    """
    out = np.full(len(outlines), Polygon(), dtype=object)
    solid = shapely.area(outlines) > 0
    out[solid] = shapely.buffer(outlines[solid], -by, join_style="mitre")
    return out


def _shorten(line: LineString, by: float) -> LineString:
    if line.is_empty or line.length <= 2 * by:
        return LineString()
    out = substring(line, by, line.length - by)
    return out if isinstance(out, LineString) else LineString()


def build_index(battlefield: Battlefield, rules: RulesOptions, raster: bool = True) -> TerrainIndex:
    """Index the battlefield's terrain for sight and movement queries.

    ``raster`` adds the cell raster used to pre-filter many sight lines at once;
    single queries do not need it.
    """
    interp = rules.interpretations
    features: list[str] = []
    kinds: list[K] = []
    outlines: list[Polygon] = []
    woods: set[int] = set()
    crests: dict[int, LineString] = {}
    openings: dict[int, list[tuple[int, OpeningKind, LineString]]] = {}
    vehicles: set[int] = set()
    geoms: list[BaseGeometry] = []
    geom_feature: list[int] = []
    geom_role: list[int] = []
    impassable: list[int] = []
    obstacle_ids: list[int] = []
    terrain = battlefield.terrain
    all_outlines = np.array([f.outline for f in terrain], dtype=object)
    all_eroded = _eroded(all_outlines, GRAZE)
    is_convex = shapely.area(all_outlines) >= shapely.area(shapely.convex_hull(all_outlines)) * (
        1 - 1e-9
    )
    convex = {int(n) for n in np.flatnonzero(is_convex)}
    for n, feat in enumerate(terrain):
        features.append(feat.id)
        kinds.append(feat.kind)
        outlines.append(feat.outline)
        eroded = all_eroded[n]
        if feat.is_woods:
            woods.add(n)
            geoms.append(eroded)
            geom_feature.append(n)
            geom_role.append(Role.WOODS)
        if isinstance(feat, Hill) and not feat.crest.is_empty:
            crests[n] = feat.crest
            short = _shorten(feat.crest, GRAZE)
            if not short.is_empty:
                geoms.append(short)
                geom_feature.append(n)
                geom_role.append(Role.CREST)
        if feat.kind is K.BUILDING:
            geoms.append(eroded)
            geom_feature.append(n)
            geom_role.append(Role.BUILDING)
            ops = feat.openings if isinstance(feat, Building) else []
            openings[n] = [(k, o.kind, o.segment) for k, o in enumerate(ops)]
        if feat.kind is K.IMPASSABLE:
            impassable.append(n)
            if interp.impassable_blocks_los:
                geoms.append(eroded)
                geom_feature.append(n)
                geom_role.append(Role.IMPASSABLE)
        if feat.kind is K.COVER:
            obstacle_ids.append(n)
            geoms.append(eroded)
            geom_feature.append(n)
            geom_role.append(Role.OBSTACLE)
            if isinstance(feat, CoverObstacle) and feat.cover_type is CoverType.VEHICLE:
                vehicles.add(n)
    geom_arr = np.array(geoms, dtype=object)
    index = TerrainIndex(
        terrain_revision=battlefield.terrain_revision,
        features=features,
        kinds=kinds,
        outlines=outlines,
        woods=woods,
        crests=crests,
        building_openings=openings,
        vehicles=vehicles,
        geoms=geom_arr,
        geom_feature=np.array(geom_feature, dtype=np.int64),
        geom_role=np.array(geom_role, dtype=np.int64),
        tree=STRtree(geom_arr),
        raster=None,
        outline_tree=STRtree(np.array(outlines, dtype=object)),
        outline_array=np.array(outlines, dtype=object),
        impassable=impassable,
        obstacle_ids=obstacle_ids,
        convex=convex,
    )
    if raster:
        index.raster = _build_raster(index, battlefield)
    return index


def _build_raster(index: TerrainIndex, battlefield: Battlefield) -> Raster:
    """Label the cells lying wholly inside a blocking polygon (vectorised).

    A cell is labelled when its centre is inside the polygon and no edge of any
    blocking polygon passes through it or a neighbouring cell (edges are sampled
    at half a cell and the marks dilated by one cell, a superset of the cells
    the edges touch), so the whole cell is inside.
    """
    mask = np.isin(index.geom_role, (Role.WOODS, Role.BUILDING, Role.IMPASSABLE))
    polys = index.geoms[mask]
    feats = index.geom_feature[mask]
    minx, miny, maxx, maxy = 0.0, 0.0, battlefield.table.width, battlefield.table.height
    if len(polys):
        b = shapely.total_bounds(polys)
        minx, miny = min(minx, float(b[0])), min(miny, float(b[1]))
        maxx, maxy = max(maxx, float(b[2])), max(maxy, float(b[3]))
    # a huge table gets coarser cells, so the raster stays bounded in memory and time
    # (still exact: a coarser cell is labelled only when wholly inside, as any is)
    h = max(RASTER_CELL, math.sqrt((maxx - minx) * (maxy - miny) / RASTER_MAX_CELLS))
    x0, y0 = minx - h, miny - h
    cols = math.ceil((maxx - x0) / h) + 2
    rows = math.ceil((maxy - y0) / h) + 2
    count = np.zeros((rows, cols), dtype=np.int32)
    owner = np.full((rows, cols), -1, dtype=np.int32)
    edge = np.zeros((rows, cols), dtype=bool)
    # every ring edge of every polygon, with the feature it belongs to
    rings = shapely.get_rings(polys, return_index=True)
    ring_geoms, ring_poly = rings
    coords, ring_of = shapely.get_coordinates(ring_geoms, return_index=True)
    same = ring_of[:-1] == ring_of[1:]
    ax_, ay_ = coords[:-1][same, 0], coords[:-1][same, 1]
    bx_, by_ = coords[1:][same, 0], coords[1:][same, 1]
    efeat = feats[ring_poly[ring_of[:-1][same]]]
    # scanline fill of cell centres, even-odd rule per feature
    lo = np.minimum(ay_, by_)
    hi = np.maximum(ay_, by_)
    r_lo = np.ceil((lo - y0) / h - 0.5).astype(np.int64)
    r_hi = np.ceil((hi - y0) / h - 0.5).astype(np.int64) - 1  # centre in [lo, hi)
    cnt = np.maximum(r_hi - r_lo + 1, 0)
    e_of = np.repeat(np.arange(len(ax_)), cnt)
    rr = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt) + r_lo[e_of]
    yc = y0 + (rr + 0.5) * h
    xcross = ax_[e_of] + (yc - ay_[e_of]) * (bx_[e_of] - ax_[e_of]) / (by_[e_of] - ay_[e_of])
    ef = efeat[e_of]
    order = np.lexsort((xcross, rr, ef))
    xs_sorted, rr_sorted, ef_sorted = xcross[order], rr[order], ef[order]
    xa, xb = xs_sorted[0::2], xs_sorted[1::2]
    span_row, span_feat = rr_sorted[0::2], ef_sorted[0::2]
    c_lo = np.ceil((xa - x0) / h - 0.5).astype(np.int64)
    c_hi = np.ceil((xb - x0) / h - 0.5).astype(np.int64) - 1
    width = np.maximum(c_hi - c_lo + 1, 0)
    s_of = np.repeat(np.arange(len(xa)), width)
    cc = np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width) + c_lo[s_of]
    cr = span_row[s_of]
    # np.add.at is ten times slower than counting the flat cells
    count += np.bincount(cr * cols + cc, minlength=rows * cols).reshape(rows, cols).astype(np.int32)
    owner[cr, cc] = span_feat[s_of]
    # sample the boundary at half a cell
    seg_x, seg_y = bx_ - ax_, by_ - ay_
    lens = np.hypot(seg_x, seg_y)
    n = np.maximum(np.ceil(lens / (h / 2)).astype(np.int64), 1)
    idx = np.repeat(np.arange(len(seg_x)), n)
    t = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)) / np.repeat(n, n)
    sx = ax_[idx] + seg_x[idx] * t
    sy = ay_[idx] + seg_y[idx] * t
    ec = np.clip(((sx - x0) / h).astype(np.int64), 0, cols - 1)
    er = np.clip(((sy - y0) / h).astype(np.int64), 0, rows - 1)
    edge[er, ec] = True
    edge[
        np.clip(((ay_ - y0) / h).astype(np.int64), 0, rows - 1),
        np.clip(((ax_ - x0) / h).astype(np.int64), 0, cols - 1),
    ] = True
    near = edge.copy()
    near[1:, :] |= edge[:-1, :]
    near[:-1, :] |= edge[1:, :]
    grown = near.copy()
    grown[:, 1:] |= near[:, :-1]
    grown[:, :-1] |= near[:, 1:]
    label = np.full((rows, cols), -2, dtype=np.int32)
    clear = (count == 0) & ~grown
    label[clear] = -1
    # a cell inside several overlapping features is wholly inside each: any one names it
    solid = (count >= 1) & ~grown
    label[solid] = owner[solid]
    return Raster(x0=x0, y0=y0, cell=h, label=label)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a figure or point stands relative to the terrain (digest 7.9.4, 8.3, 15.2).

    Feature numbers index :attr:`TerrainIndex.features`.
    """

    woods: tuple[int, ...] = ()
    """Woods whose outline holds the centre."""
    deep: tuple[int, ...] = ()
    """Woods in which the centre is more than 1" from the edge."""
    building: int = -1
    """The building whose outline holds the centre, or -1."""
    openings: tuple[int, ...] = ()
    """Openings (numbers within :attr:`building`) the figure is at."""
    vehicle: int = -1
    near_crests: tuple[int, ...] = ()
    """Hills whose crest lies within 1" of the centre."""
    near_obstacles: tuple[int, ...] = ()
    """Cover obstacles within the cover distance of the base (7.9.5)."""
    impassable: bool = False

    @property
    def containers(self) -> tuple[int, ...]:
        """Features a sight line from here may start inside (woods, building)."""
        return (*self.woods, self.building) if self.building >= 0 else self.woods


def locate(index: TerrainIndex, x: float, y: float, radius: float, rules: RulesOptions) -> Place:
    """Find the woods, building, crest and obstacles that matter for a base at (x, y)."""
    return locate_many(
        index, np.array([x], dtype=np.float64), np.array([y]), np.array([radius]), rules
    )[0]


def locate_reach(radii: Floats, rules: RulesOptions) -> float:
    """How far from a base a feature can matter to its place (cover distance, crest band,
    openings), for the largest of these bases."""
    cover_d = rules.interpretations.cover_obstacle_distance
    return float(max(np.max(radii) + cover_d, CREST_BAND, np.max(radii) + AT_OPENING)) + GRAZE


def locate_many(
    index: TerrainIndex,
    xs: Floats,
    ys: Floats,
    radii: Floats,
    rules: RulesOptions,
    *,
    reach: float | None = None,
) -> list[Place]:
    """:func:`locate` for many bases at once (vectorised shapely calls).

    Features are looked at within ``reach`` of each base (default
    :func:`locate_reach` of these bases).
    """
    n = len(xs)
    if not n or not index.features:
        return [Place() for _ in range(n)]
    cover_d = rules.interpretations.cover_obstacle_distance
    if reach is None:
        reach = locate_reach(radii, rules)
    pts = shapely.points(xs, ys)
    pi, fi = index.outline_tree.query(pts, predicate="dwithin", distance=reach)
    outlines = index.outline_array
    inside = shapely.contains_xy(outlines[fi], xs[pi], ys[pi])
    cached = index.cache.get("crest_geoms")
    if cached is None:
        cached = (
            np.array(
                [index.crests.get(k, LineString()) for k in range(len(index.features))],
                dtype=object,
            ),
            np.array([k in index.crests for k in range(len(index.features))], dtype=bool),
            # every ring: a clearing's edge is an edge of its woods (7.9.4, 15.2)
            shapely.boundary(outlines),
        )
        index.cache["crest_geoms"] = cached
    crest_geoms: npt.NDArray[np.object_]
    crest_of: Bools
    rings: npt.NDArray[np.object_]
    crest_geoms, crest_of, rings = cached  # type: ignore[misc]
    edge_d = shapely.distance(rings[fi], pts[pi])
    has_crest = crest_of[fi]
    crest_d = np.full(len(fi), np.inf)
    if has_crest.any():
        crest_d[has_crest] = shapely.distance(crest_geoms[fi[has_crest]], pts[pi[has_crest]])
    out_d = np.where(inside, 0.0, edge_d)
    woods: list[list[int]] = [[] for _ in range(n)]
    deep: list[list[int]] = [[] for _ in range(n)]
    building = [-1] * n
    opens: list[tuple[int, ...]] = [()] * n
    vehicle = [-1] * n
    crests: list[list[int]] = [[] for _ in range(n)]
    obstacles: list[list[int]] = [[] for _ in range(n)]
    impassable = [False] * n
    order = np.lexsort((fi, pi))
    # plain Python values: indexing numpy arrays one element at a time is slow
    pi_l, fi_l, inside_l = pi[order].tolist(), fi[order].tolist(), inside[order].tolist()
    edge_l, crest_l, out_l = edge_d[order].tolist(), crest_d[order].tolist(), out_d[order].tolist()
    for h, (k, f) in enumerate(zip(pi_l, fi_l, strict=True)):
        kind = index.kinds[f]
        ins = inside_l[h]
        if ins and f in index.woods:
            woods[k].append(f)
            if edge_l[h] > EDGE_BAND:
                deep[k].append(f)
        if crest_l[h] <= CREST_BAND:
            crests[k].append(f)
        if ins and kind is K.BUILDING and building[k] < 0:
            building[k] = f
            p = Point(xs[k], ys[k])
            opens[k] = tuple(
                o
                for o, _kind, seg in index.building_openings[f]
                if seg.distance(p) <= radii[k] + AT_OPENING
            )
        if ins and kind is K.IMPASSABLE:
            impassable[k] = True
        if kind is K.COVER:
            if ins and f in index.vehicles:
                vehicle[k] = f
            elif out_l[h] <= radii[k] + cover_d:
                obstacles[k].append(f)
    found = set(pi_l)
    return [
        Place(
            woods=tuple(woods[k]),
            deep=tuple(deep[k]),
            building=building[k],
            openings=opens[k],
            vehicle=vehicle[k],
            near_crests=tuple(crests[k]),
            near_obstacles=tuple(obstacles[k]),
            impassable=impassable[k],
        )
        if k in found
        else NOWHERE
        for k in range(n)
    ]


NOWHERE = Place()
"""The place of a base near no feature (shared: places are immutable)."""


def walls(index: TerrainIndex, building: int, at: tuple[int, ...]) -> BaseGeometry:
    """The building outline less the openings a figure stands at (8.3): what blocks its view."""
    key = (building, at)
    cached = index.walls_cache.get(key)
    if cached is not None:
        return cached
    outline = index.outlines[building].exterior
    gaps = [seg for k, _kind, seg in index.building_openings[building] if k in at]
    out = outline
    if gaps:
        out = outline.difference(shapely.union_all([g.buffer(GRAZE) for g in gaps]))
    shapely.prepare(out)
    index.walls_cache[key] = out
    return out
