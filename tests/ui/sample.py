"""A scenario built in code with one terrain feature of every kind and two forces.

Shared by the scene, window and render tests so each checks the same table.
"""

from __future__ import annotations

from shapely.geometry import LineString, Polygon, box

from crdesk.model import (
    Battlefield,
    Building,
    CoverObstacle,
    CoverType,
    Figure,
    Force,
    Hill,
    Opening,
    OpeningKind,
    Role,
    Scenario,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
    WeaponCode,
)

FEATURE_IDS = ["woods-1", "hill-1", "wooded-hill-1", "building-1", "rocks-1", "wall-1"]
FIGURE_IDS = ["p1", "p2", "p3", "e1", "e2", "e3"]


def make_scenario() -> Scenario:
    """A 36" x 36" table: woods, hill, wooded hill, building, impassable, wall; 2 forces."""
    terrain = [
        TerrainFeature(
            "woods-1",
            TerrainKind.WOODS,
            "Pine wood",
            Polygon([(2, 2), (9, 1.5), (10.5, 6), (8, 10), (3, 9.5), (1.5, 6)]),
        ),
        Hill(
            "hill-1",
            TerrainKind.HILL,
            "Long ridge",
            Polygon([(24, 2), (33, 3), (34, 9), (27, 10.5), (23, 7)]),
            crest=LineString([(25, 5), (28.5, 6), (32, 6.5)]),
        ),
        Hill(
            "wooded-hill-1",
            TerrainKind.WOODED_HILL,
            "Copse hill",
            Polygon([(2, 25), (9, 24), (11, 29), (7, 33), (2.5, 31)]),
            crest=LineString([(4, 28), (8, 28.5)]),
        ),
        Building(
            "building-1",
            TerrainKind.BUILDING,
            "Farmhouse",
            box(14, 13, 22, 18),
            floors=2,
            areas=[box(14, 13, 18, 18), box(18, 13, 22, 18)],
            openings=[
                Opening(OpeningKind.DOOR, (16, 18), (17, 18)),
                Opening(OpeningKind.WINDOW, (22, 14), (22, 15.5)),
            ],
        ),
        TerrainFeature(
            "rocks-1",
            TerrainKind.IMPASSABLE,
            "Rock outcrop",
            Polygon([(27, 15), (31, 14), (32.5, 18), (29, 20), (26.5, 18)]),
        ),
        CoverObstacle(
            "wall-1",
            TerrainKind.COVER,
            "Stone wall",
            box(13, 25, 21, 25.5),
            cover_type=CoverType.WALL,
        ),
    ]
    player = Force(
        "player",
        "Lt. Hale's squad",
        player=True,
        colour="#2a62c9",
        figures=[
            Figure("p1", "Sgt. Hale", 5, Role.STAR, WeaponCode.AR, x=17, y=31, facing=0),
            Figure("p2", "Cpl. Ruiz", 4, weapon=WeaponCode.SAW, x=15, y=32, facing=330),
            Figure("p3", "Pvt. Okafor", 4, weapon=WeaponCode.AR, x=19.5, y=32, facing=20),
        ],
    )
    enemy = Force(
        "enemy",
        "Red Street Kings",
        colour="#c43a2f",
        figures=[
            Figure("e1", "Boss Vega", 5, Role.STAR, WeaponCode.SMG, x=18, y=11, facing=180),
            Figure("e2", "Knuckles", 3, weapon=WeaponCode.P, x=25, y=12, facing=200),
            Figure(
                "e3",
                "Lefty",
                3,
                weapon=WeaponCode.SG,
                x=12,
                y=12,
                facing=135,
                status=Status.OUT_OF_THE_FIGHT,
            ),
        ],
    )
    battlefield = Battlefield(Table(36, 36), terrain, [player, enemy])
    return Scenario(battlefield, title="Every kind of terrain")
