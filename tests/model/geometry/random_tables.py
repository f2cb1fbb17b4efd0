"""Small seeded random tables for the property tests (every kind of terrain, a few figures)."""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import LineString, Point, Polygon

from crdesk.model import (
    Battlefield,
    Building,
    CoverObstacle,
    Figure,
    Force,
    Hill,
    Opening,
    OpeningKind,
    Role,
    Table,
    TerrainFeature,
    TerrainKind,
)


def _blob(
    rng: np.random.Generator, cx: float, cy: float, size: float, ragged: bool = False
) -> Polygon:
    ang = np.sort(rng.uniform(0, 2 * math.pi, 7))
    rad = size / 2 * rng.uniform(0.6, 1.0, 7)
    star = Polygon(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)])
    if ragged and star.is_valid:
        # a star-shaped outline with notches a line can leave and re-enter
        rad = size / 2 * rng.uniform(0.3, 1.0, 7)
        star = Polygon(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)])
        if star.is_valid:
            return star
    return star.convex_hull


def random_table(
    seed: int,
    n_features: int = 10,
    n_figures: int = 8,
    size: float = 24.0,
    ragged_woods: bool = False,
) -> Battlefield:
    """``ragged_woods`` gives woods notched (non-convex) outlines."""
    rng = np.random.default_rng(seed)
    terrain: list[TerrainFeature] = []
    for k in range(n_features):
        kind = ["woods", "building", "hill", "impassable", "cover", "wooded_hill"][
            int(rng.integers(6))
        ]
        cx, cy = rng.uniform(2, size - 2), rng.uniform(2, size - 2)
        fid = f"{kind}-{k}"
        if kind == "woods":
            terrain.append(
                TerrainFeature(
                    fid,
                    TerrainKind.WOODS,
                    fid,
                    _blob(rng, cx, cy, rng.uniform(3, 7), ragged=ragged_woods),
                )
            )
        elif kind == "building":
            w, h = rng.uniform(2, 5), rng.uniform(2, 5)
            x0, y0 = cx - w / 2, cy - h / 2
            ops = [
                Opening(OpeningKind.DOOR, (x0 + w / 2 - 0.5, y0 + h), (x0 + w / 2 + 0.5, y0 + h)),
                Opening(OpeningKind.WINDOW, (x0, y0 + h / 2 - 0.5), (x0, y0 + h / 2 + 0.5)),
            ]
            outline = Polygon([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])
            terrain.append(Building(fid, TerrainKind.BUILDING, fid, outline, openings=ops))
        elif kind in ("hill", "wooded_hill"):
            s = rng.uniform(4, 8)
            a = rng.uniform(0, math.pi)
            crest = LineString(
                [
                    (cx - s / 2.5 * math.cos(a), cy - s / 2.5 * math.sin(a)),
                    (cx + s / 2.5 * math.cos(a), cy + s / 2.5 * math.sin(a)),
                ]
            )
            tk = TerrainKind.HILL if kind == "hill" else TerrainKind.WOODED_HILL
            terrain.append(Hill(fid, tk, fid, _blob(rng, cx, cy, s), crest=crest))
        elif kind == "impassable":
            terrain.append(
                TerrainFeature(
                    fid, TerrainKind.IMPASSABLE, fid, _blob(rng, cx, cy, rng.uniform(1.5, 3))
                )
            )
        else:
            a = rng.uniform(0, math.pi)
            dx, dy = math.cos(a), math.sin(a)
            outline = LineString([(cx - dx, cy - dy), (cx + dx, cy + dy)]).buffer(
                0.15, cap_style="flat"
            )
            terrain.append(CoverObstacle(fid, TerrainKind.COVER, fid, outline))
    bf = Battlefield(Table(size, size), terrain, [])
    rock = [t.outline for t in terrain if t.kind in (TerrainKind.IMPASSABLE, TerrainKind.COVER)]
    forces = [Force("red", "Red"), Force("blue", "Blue")]
    placed = 0
    tries = 0
    while placed < n_figures and tries < 1000:
        tries += 1
        x, y = rng.uniform(1, size - 1), rng.uniform(1, size - 1)
        if any(r.intersects(Point(x, y).buffer(0.55)) for r in rock):
            continue
        force = forces[int(rng.integers(2))]
        force.figures.append(
            Figure(
                id=f"f{placed}",
                name=f"f{placed}",
                rep=int(rng.integers(3, 6)),
                role=Role.STAR if placed == 0 else Role.GRUNT,
                x=x,
                y=y,
                facing=float(rng.uniform(0, 360)),
            )
        )
        placed += 1
    for force in forces:
        bf.add_force(force)
    return bf
