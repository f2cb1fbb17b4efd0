"""Shape making for the editor: rectangles, ellipses, freehand, crests, building areas, snaps.

These are the Qt-free halves of the drawing tools: the GUI collects mouse points
in inches and asks here for the polygon, the crest line, the areas of a building
footprint or the snapped position, so every rule about shapes lives in the core
and is tested without a window.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points
from shapely.validation import explain_validity

from crdesk import limits
from crdesk.model import Opening, OpeningKind, Table, TerrainFeature

Pt = tuple[float, float]

DOOR_WIDTH = 1.5
WINDOW_WIDTH = 1.25


def open_ring(points: Iterable[Sequence[float]]) -> list[Pt]:
    """A ring's points without the closing points that repeat its first (three are always
    kept): the one form a scenario file is read in and a generated table is made in (a
    polygon closes its rings again), so that a table saved and read back is the table
    played -- a ring whose last corner rounds onto its first loses the repeat both ways."""
    ring = [(float(p[0]), float(p[1])) for p in points]
    while len(ring) > 3 and ring[-1] == ring[0]:
        ring.pop()
    return ring


def rectangle(a: Pt, b: Pt) -> Polygon:
    """The axis-aligned rectangle with opposite corners a and b."""
    return box(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))


def ellipse(a: Pt, b: Pt, segments: int = 32) -> Polygon:
    """The ellipse inscribed in the rectangle a-b, as a polygon of ``segments`` sides."""
    cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    rx, ry = abs(b[0] - a[0]) / 2, abs(b[1] - a[1]) / 2
    return Polygon(
        [
            (
                cx + rx * math.cos(2 * math.pi * i / segments),
                cy + ry * math.sin(2 * math.pi * i / segments),
            )
            for i in range(segments)
        ]
    )


def freehand(points: Sequence[Pt], tolerance: float = 0.25) -> Polygon | None:
    """A polygon from a freehand stroke, simplified to ``tolerance`` inches.

    Returns None for strokes too short or too thin to be terrain.  A stroke that
    crosses itself is repaired to its largest valid part rather than refused, as
    a player drawing quickly expects the outline they meant.
    """
    if len(points) < 3:
        return None
    poly = Polygon(points).simplify(tolerance, preserve_topology=False)
    if not poly.is_valid:
        poly = poly.buffer(0)
    if isinstance(poly, MultiPolygon):
        poly = max(poly.geoms, key=lambda g: g.area)
    if not isinstance(poly, Polygon) or poly.is_empty or poly.area < 0.25:
        return None
    return Polygon(poly.exterior.coords)


def polygon_from_clicks(points: Sequence[Pt]) -> Polygon | None:
    """The polygon of clicked points (None with fewer than three distinct points)."""
    distinct = list(dict.fromkeys(points))
    if len(distinct) < 3 or Polygon(distinct).area < 1e-6:
        return None
    return Polygon(distinct)


MIN_AREA = 0.25
"""Square inches below which a drawn shape is too small to be a terrain piece."""

MIN_THICKNESS = 0.5
"""How thin a drawn piece may be: a wall, a hedge or a fence line is 0.5" deep."""

_SPOT = re.compile(r"\[\s*(-?[\d.eE+-]+)\s+(-?[\d.eE+-]+)\s*\]")


@dataclass(frozen=True, slots=True)
class ShapeResult:
    """A drawn outline, or why there is none (in the book's words) and where."""

    outline: Polygon | None
    problem: str = ""
    spot: Pt | None = None


def crossing_spot(poly: Polygon) -> Pt | None:
    """Where an outline crosses itself (None when it does not)."""
    if poly.is_valid:
        return None
    match = _SPOT.search(explain_validity(poly))
    return (float(match.group(1)), float(match.group(2))) if match else None


def ground(outline: BaseGeometry) -> Polygon | MultiPolygon:
    """The ground an outline encloses, as valid polygons (empty when it encloses none).

    A bow-tie is its two lobes, a hole outside the outline is dropped, a ring of
    one repeated point or of points on a line is no ground.  GEOS's ``structure``
    repair keeps polygons only, so no point or line ever joins them (a mixed
    collection is refused by every predicate: "Overlay input is mixed-dimension").

    >>> ground(Polygon([(10, 16), (14, 17), (14, 16), (10, 17)])).area
    2.0
    """
    if outline.is_valid and isinstance(outline, Polygon | MultiPolygon):
        return outline
    fixed: BaseGeometry = shapely.make_valid(outline, method="structure", keep_collapsed=False)
    if isinstance(fixed, Polygon | MultiPolygon):
        return fixed
    parts = [p for p in shapely.get_parts(fixed) if isinstance(p, Polygon) and not p.is_empty]
    return MultiPolygon(parts) if parts else Polygon()


@dataclass(frozen=True, slots=True)
class Repair:
    """An outline as crdesk plays it, and what was changed to make it valid ("" if nothing)."""

    outline: Polygon
    note: str = ""


def repaired(outline: Polygon) -> Repair:
    """The outline made valid once, where a file is read: what every command plays.

    A valid outline is kept as it is.  One that crosses itself becomes its
    largest valid part (a bow-tie, one lobe; a hole outside it, dropped), so
    sight, movement and cover never meet a GEOS TopologyException.  An outline
    that encloses no ground at all is kept as written: every part of crdesk
    treats it as no ground, and the table checks flag it.

    >>> fixed = repaired(Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(9, 9), (10, 9), (10, 10)]]))
    >>> fixed.outline.area
    16.0
    >>> for part in fixed.note.split("; "): print(part)
    the outline is not a simple shape (Hole lies outside shell at (9.0, 9.0))
    played as its largest valid part, 16 of 16.5 square inches
    """
    if outline.is_valid:
        return Repair(outline)
    land = ground(outline)
    parts = list(land.geoms) if isinstance(land, MultiPolygon) else [land]
    parts = [p for p in parts if p.area > 0]
    if not parts:
        return Repair(outline)
    largest = max(parts, key=lambda p: p.area)
    whole = largest.area + sum(p.area for p in parts if p is not largest)
    raw = explain_validity(outline)
    reason = _SPOT.sub(lambda m: f" at {_where((float(m[1]), float(m[2])))}", raw)
    note = (
        f"the outline is not a simple shape ({reason}); played as its largest valid part, "
        f"{largest.area:.3g} of {whole:.3g} square inches"
    )
    points = _points(largest)
    if points > limits.POINTS_PER_OUTLINE:  # each crossing became a point of the part
        tolerance = 0.001
        while points > limits.POINTS_PER_OUTLINE:
            simpler = shapely.simplify(largest, tolerance, preserve_topology=True)
            if isinstance(simpler, Polygon) and simpler.is_valid and not simpler.is_empty:
                largest, points = simpler, _points(simpler)
            tolerance *= 2
        note += f', simplified to {points:,} points (within {tolerance / 2:g}")'
    return Repair(largest, note)


def _points(polygon: Polygon) -> int:
    """Points of the polygon's rings, the closing point of each not counted."""
    return int(shapely.get_num_coordinates(polygon)) - 1 - len(polygon.interiors)


def crossings(ring: Sequence[Pt], limit: int) -> int:
    """How many times the closed ring's edges cross or touch edges other than their
    neighbours, counted only until the count passes ``limit`` (a scribble crosses
    itself at almost every edge: the count stops after the first few edges).

    >>> crossings([(0, 0), (4, 4), (4, 0), (0, 4)], 10)
    1
    """
    pts = np.asarray(ring, dtype=np.float64).reshape(-1, 2)
    pts = pts[np.any(pts != np.roll(pts, 1, axis=0), axis=1)]  # a repeated point is no edge
    n = len(pts)
    if n < 4:
        return 0
    edges = shapely.linestrings(np.stack([pts, np.roll(pts, -1, axis=0)], axis=1))
    tree = shapely.STRtree(edges)
    count, start, chunk = 0, 0, 8
    while start < n and count <= limit:
        mine = np.arange(start, min(n, start + chunk))
        src, other = tree.query(edges[mine], predicate="intersects")
        src = mine[src]
        apart = (other > src) & ((other - src) % n != 1) & ((src - other) % n != 1)
        count += int(np.count_nonzero(apart))
        start, chunk = start + chunk, min(chunk * 2, 1024)
    return count


def _where(spot: Pt) -> str:
    return f"({spot[0]:.1f}, {spot[1]:.1f})"


def outline_from_clicks(points: Sequence[Pt]) -> ShapeResult:
    """The clicked outline, or the reason it cannot be terrain, said plainly.

    A symmetric bow-tie has no area but is a crossing, not a lack of points, and
    the crossing is named by where it is, never by the geometry library's text.
    """
    distinct = list(dict.fromkeys(points))
    if len(distinct) < 3:
        return ShapeResult(None, "an outline needs at least three corners")
    if LineString(distinct).convex_hull.area < 1e-9:
        return ShapeResult(None, "the corners lie on one line: the outline has no area")
    poly = Polygon(distinct)
    spot = crossing_spot(poly)
    if spot is not None:
        return ShapeResult(None, f"the outline crosses itself at {_where(spot)}", spot)
    if poly.area < MIN_AREA:
        return ShapeResult(None, _too_small(poly))
    return ShapeResult(poly)


def _too_small(poly: Polygon) -> str:
    x0, y0, x1, y1 = poly.bounds
    return (
        f'too small to be a terrain piece ({x1 - x0:.1f}" x {y1 - y0:.1f}"; '
        f"it needs at least {MIN_AREA:g} square inches)"
    )


def dragged_shape(kind: str, a: Pt, b: Pt) -> ShapeResult:
    """A rectangle or ellipse dragged from a to b; a thin drag makes a thin piece.

    With the 1" grid snap on, a 5" x 0.5" wall snaps to no depth at all: a drag
    that is long one way and (nearly) flat the other is given the depth of a
    wall, :data:`MIN_THICKNESS`, centred on the line drawn, instead of being
    dropped.  Anything still too small is refused with its size.
    """
    (ax, ay), (bx, by) = a, b
    w, h = abs(bx - ax), abs(by - ay)
    if max(w, h) < MIN_THICKNESS:
        return ShapeResult(None, f'too small to be a terrain piece ({w:.1f}" x {h:.1f}")')
    if w < MIN_THICKNESS:
        cx = (ax + bx) / 2
        ax, bx = cx - MIN_THICKNESS / 2, cx + MIN_THICKNESS / 2
    if h < MIN_THICKNESS:
        cy = (ay + by) / 2
        ay, by = cy - MIN_THICKNESS / 2, cy + MIN_THICKNESS / 2
    shape = rectangle((ax, ay), (bx, by)) if kind == "rectangle" else ellipse((ax, ay), (bx, by))
    if shape.area < MIN_AREA:
        return ShapeResult(None, _too_small(shape))
    return ShapeResult(shape)


def default_crest(outline: Polygon) -> LineString:
    """A crest along the hill's long axis (9.4), kept a little inside the footprint."""
    c = list(outline.minimum_rotated_rectangle.exterior.coords)[:4]
    # The axis joins the midpoints of the rectangle's two short sides.
    if math.dist(c[0], c[1]) >= math.dist(c[1], c[2]):
        short = [(c[1], c[2]), (c[3], c[0])]
    else:
        short = [(c[0], c[1]), (c[2], c[3])]
    axis = LineString([((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in short])
    inner = outline.buffer(-min(1.0, math.sqrt(outline.area) / 8))
    clipped = axis.intersection(inner if not inner.is_empty else outline)
    if isinstance(clipped, LineString) and clipped.length > 0:
        return LineString([_round_pt(c) for c in clipped.coords])
    parts = [g for g in getattr(clipped, "geoms", []) if isinstance(g, LineString)]
    if parts:
        return LineString([_round_pt(c) for c in max(parts, key=lambda g: g.length).coords])
    return LineString([_round_pt(c) for c in axis.coords])


def _round_pt(c: Iterable[float]) -> Pt:
    x, y = list(c)[:2]
    return (round(x, 3), round(y, 3))


def split_into_areas(outline: Polygon, area_size: float = 6.0) -> list[Polygon]:
    """Cut a footprint into roughly ``area_size`` square areas (8.1).

    The footprint's bounding box is divided into the whole number of columns
    and rows nearest to ``area_size`` (at least one each), and each cell is
    clipped to the footprint, so an L-shaped building gets L-shaped areas.
    """
    minx, miny, maxx, maxy = outline.bounds
    cols = max(1, round((maxx - minx) / area_size))
    rows = max(1, round((maxy - miny) / area_size))
    w, h = (maxx - minx) / cols, (maxy - miny) / rows
    areas = []
    for r in range(rows):
        for c in range(cols):
            cell = box(minx + c * w, miny + r * h, minx + (c + 1) * w, miny + (r + 1) * h)
            part = outline.intersection(cell)
            polys = [part] if isinstance(part, Polygon) else list(getattr(part, "geoms", []))
            areas += [p for p in polys if isinstance(p, Polygon) and p.area > 0.01 * w * h]
    return areas or [outline]


def split_area(area: Polygon) -> list[Polygon]:
    """Cut one building area in two across its longer side (editing areas, 8.1)."""
    minx, miny, maxx, maxy = area.bounds
    if maxx - minx >= maxy - miny:
        mid = (minx + maxx) / 2
        halves = [box(minx, miny, mid, maxy), box(mid, miny, maxx, maxy)]
    else:
        mid = (miny + maxy) / 2
        halves = [box(minx, miny, maxx, mid), box(minx, mid, maxx, maxy)]
    parts = []
    for half in halves:
        piece = area.intersection(half)
        parts += [g for g in getattr(piece, "geoms", [piece]) if isinstance(g, Polygon)]
    return [p for p in parts if p.area > 1e-9] or [area]


def merge_area(areas: Sequence[Polygon], index: int) -> list[Polygon]:
    """Join area ``index`` with the neighbour it shares the longest wall with.

    Areas that touch only at a corner are not merged; the list is returned as it was.
    """
    target = areas[index]
    best, best_len = None, 0.0
    for k, other in enumerate(areas):
        if k == index:
            continue
        shared = target.boundary.intersection(other.boundary).length
        if shared > best_len + 1e-9:
            best, best_len = k, shared
    if best is None:
        return list(areas)
    merged = target.union(areas[best])
    if not isinstance(merged, Polygon):
        return list(areas)
    merged = Polygon(merged.exterior.coords).simplify(0)
    out = [a for k, a in enumerate(areas) if k not in (index, best)]
    out.insert(min(index, best), merged)
    return out


def opening_at(
    outline: Polygon, near: Pt, kind: OpeningKind, width: float | None = None
) -> Opening:
    """A door or window of ``width`` inches on the outline edge nearest to a point."""
    width = width or (DOOR_WIDTH if kind is OpeningKind.DOOR else WINDOW_WIDTH)
    ring = list(outline.exterior.coords)
    p = Point(near)
    best = min(
        ((ring[i], ring[i + 1]) for i in range(len(ring) - 1)),
        key=lambda e: LineString(e).distance(p),
    )
    edge = LineString(best)
    half = min(width, edge.length) / 2
    at = edge.project(p)
    at = min(max(at, half), edge.length - half)
    a, b = edge.interpolate(at - half), edge.interpolate(at + half)
    return Opening(kind, _round_pt(a.coords[0]), _round_pt(b.coords[0]))


def rotated(feature: TerrainFeature, degrees: float) -> dict[str, object]:
    """New geometry values for a feature turned clockwise on the table about its centre."""
    centre = feature.outline.centroid
    cx, cy, angle = centre.x, centre.y, degrees
    values: dict[str, object] = {"outline": affinity.rotate(feature.outline, angle, (cx, cy))}
    crest = getattr(feature, "crest", None)
    if crest is not None:
        values["crest"] = affinity.rotate(crest, angle, (cx, cy))
    areas = getattr(feature, "areas", None)
    if areas is not None:
        values["areas"] = [affinity.rotate(a, angle, (cx, cy)) for a in areas]
    openings = getattr(feature, "openings", None)
    if openings is not None:
        turned = []
        for o in openings:
            seg = affinity.rotate(o.segment, angle, (cx, cy))
            turned.append(Opening(o.kind, seg.coords[0], seg.coords[1]))
        values["openings"] = turned
    return values


@dataclass(frozen=True, slots=True)
class SnapSettings:
    """What the pointer snaps to, and how close (in inches) it must be."""

    enabled: bool = True
    grid: bool = True
    grid_step: float = 1.0
    vertices: bool = True
    edges: bool = True
    sections: bool = True
    tolerance: float = 0.3


def snap(
    point: Pt,
    settings: SnapSettings,
    features: Iterable[TerrainFeature] = (),
    table: Table | None = None,
    exclude: str | None = None,
) -> tuple[Pt, str]:
    """The snapped point and what it snapped to ("vertex", "edge", "section", "grid" or "").

    Vertices beat edges beat section lines beat the grid, so a point near a
    corner lands on the corner even when a grid line is closer.
    """
    if not settings.enabled:
        return point, ""
    p = Point(point)
    tol = settings.tolerance
    near = [f for f in features if f.id != exclude and f.outline.distance(p) <= tol]
    if settings.vertices:
        best: tuple[float, Pt] | None = None
        for f in near:
            for c in f.outline.exterior.coords:
                d = math.dist(point, c[:2])
                if d <= tol and (best is None or d < best[0]):
                    best = (d, (c[0], c[1]))
        if best:
            return best[1], "vertex"
    if settings.edges and near:
        edge_hits = []
        for f in near:
            q = nearest_points(f.outline.exterior, p)[0]
            edge_hits.append((q.distance(p), (q.x, q.y)))
        d, q_pt = min(edge_hits)
        if d <= tol:
            return q_pt, "edge"
    if settings.sections and table is not None:
        x, y = point
        lines_x = [table.width / 3, 2 * table.width / 3, 0.0, table.width]
        lines_y = [table.height / 3, 2 * table.height / 3, 0.0, table.height]
        sx = min(lines_x, key=lambda v: abs(v - x))
        sy = min(lines_y, key=lambda v: abs(v - y))
        hit_x, hit_y = abs(sx - x) <= tol, abs(sy - y) <= tol
        if hit_x or hit_y:
            return (sx if hit_x else x, sy if hit_y else y), "section"
    if settings.grid and settings.grid_step > 0:
        step = settings.grid_step
        return (round(point[0] / step) * step, round(point[1] / step) * step), "grid"
    return point, ""
