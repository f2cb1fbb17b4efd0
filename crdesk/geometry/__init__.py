"""Geometry in one place (STYLE 4): sight, Cover, distances, shapes and movement.

Everything takes the battlefield (and the rules options) and answers a rules
question; nobody else calls shapely ad hoc.  Heavy structures are built once per
``terrain_revision`` (:func:`build_index`) and reused by the visibility service
(:mod:`crdesk.visibility`).

* :mod:`~crdesk.geometry.terrain_index` -- terrain indexes, the grazing rule, where a
  figure stands (woods, building, opening, crest, obstacle).
* :mod:`~crdesk.geometry.los` -- line of sight, Cover and concealment (7.9.4, 7.9.5).
* :mod:`~crdesk.geometry.measure` -- base-to-base distance, range, charge direction,
  arc of fire, blast circles and Cover from a blast (1, 7.9.7, 7.10, 7.11.2).
* :mod:`~crdesk.geometry.movement` -- path cost, farthest point, shortest path,
  reachable area, Duck Back to the nearest Cover (7.4, 8.2).
"""

from crdesk.geometry.los import (
    CoverKind,
    CoverReason,
    LosResult,
    Reason,
    Viewpoints,
    evaluate,
    explain,
    line_of_sight,
    line_of_sight_to_point,
    viewpoints,
)
from crdesk.geometry.measure import (
    BlastCover,
    ChargeDirection,
    arc_of_fire,
    base_distance,
    blast_members,
    charge_direction,
    compass,
    cover_from_blast,
    distance_to_point,
    in_front,
    in_range,
    out_of_arc,
)
from crdesk.geometry.movement import (
    DuckBack,
    PathCost,
    Reach,
    farthest_along,
    nearest_cover,
    path_cost,
    reachable_area,
    shortest_path,
)
from crdesk.geometry.terrain_index import GRAZE, Place, TerrainIndex, build_index, locate

__all__ = [
    "GRAZE",
    "BlastCover",
    "ChargeDirection",
    "CoverKind",
    "CoverReason",
    "DuckBack",
    "LosResult",
    "PathCost",
    "Place",
    "Reach",
    "Reason",
    "TerrainIndex",
    "Viewpoints",
    "arc_of_fire",
    "base_distance",
    "blast_members",
    "build_index",
    "charge_direction",
    "compass",
    "cover_from_blast",
    "distance_to_point",
    "evaluate",
    "explain",
    "farthest_along",
    "in_front",
    "in_range",
    "line_of_sight",
    "line_of_sight_to_point",
    "locate",
    "nearest_cover",
    "out_of_arc",
    "path_cost",
    "reachable_area",
    "shortest_path",
    "viewpoints",
]
