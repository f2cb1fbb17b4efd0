"""Rebuild the bundled demo scenarios in resources/scenarios/.

The demos are hand-laid tables; this script is their source so that a change
to the file format regenerates them instead of hand-editing JSON.  Run:
``python tools/make_demo_scenarios.py``.
"""

from __future__ import annotations

import math
from pathlib import Path

from shapely.geometry import LineString, Polygon, box

from crdesk import scenario as scenario_io
from crdesk.model import (
    BandType,
    Battlefield,
    Building,
    CoverObstacle,
    CoverType,
    Encounter,
    EncounterType,
    Figure,
    Force,
    Hill,
    MeleeWeapon,
    Opening,
    OpeningKind,
    Role,
    Scenario,
    Table,
    TerrainFeature,
    TerrainKind,
    WeaponCode,
)

OUT = Path(__file__).resolve().parent.parent / "resources" / "scenarios"


def blob(
    cx: float, cy: float, rx: float, ry: float, wobble: list[float], rot: float = 0.0
) -> Polygon:
    """An organic outline: an ellipse whose radius wobbles by the given factors."""
    n = len(wobble)
    pts = []
    for i, w in enumerate(wobble):
        a = 2 * math.pi * i / n
        x, y = rx * w * math.cos(a), ry * w * math.sin(a)
        c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        pts.append((round(cx + x * c - y * s, 2), round(cy + x * s + y * c, 2)))
    return Polygon(pts)


WOBBLE = [1.0, 0.86, 1.08, 0.93, 1.12, 0.88, 1.02, 0.9, 1.1, 0.84, 1.05, 0.95, 1.09, 0.87]


def building(
    fid: str,
    name: str,
    x: float,
    y: float,
    w: float,
    h: float,
    floors: int,
    split: str = "x",
    doors: list[tuple[float, float, float, float]] | None = None,
    windows: list[tuple[float, float, float, float]] | None = None,
) -> Building:
    """A rectangular building of one or two ~6" areas with its openings."""
    outline = box(x, y, x + w, y + h)
    if split == "x" and w >= 9:
        areas = [box(x, y, x + w / 2, y + h), box(x + w / 2, y, x + w, y + h)]
    elif split == "y" and h >= 9:
        areas = [box(x, y, x + w, y + h / 2), box(x, y + h / 2, x + w, y + h)]
    else:
        areas = [outline]
    openings = [Opening(OpeningKind.DOOR, (a, b), (c, d)) for a, b, c, d in doors or []]
    openings += [Opening(OpeningKind.WINDOW, (a, b), (c, d)) for a, b, c, d in windows or []]
    return Building(
        fid, TerrainKind.BUILDING, name, outline, floors=floors, areas=areas, openings=openings
    )


def fig(
    fid: str,
    name: str,
    rep: int,
    x: float,
    y: float,
    facing: float,
    weapon: WeaponCode = WeaponCode.AR,
    role: Role = Role.GRUNT,
    melee: MeleeWeapon = MeleeWeapon.NONE,
) -> Figure:
    return Figure(
        fid,
        name,
        rep,
        role=role,
        weapon=weapon,
        melee=melee,
        x=x,
        y=y,
        facing=facing,
        star_power=rep if role is Role.STAR else None,
    )


def urban() -> Scenario:
    terrain = [
        TerrainFeature("woods-1", TerrainKind.WOODS, "Town park", blob(18, 18, 4.5, 3.6, WOBBLE)),
        building(
            "building-1",
            "Hotel",
            3,
            3,
            12,
            6,
            2,
            doors=[(8, 9, 10, 9)],
            windows=[(4, 9, 5.5, 9), (12, 9, 13.5, 9), (15, 5, 15, 7)],
        ),
        building(
            "building-2",
            "Store",
            22,
            4,
            6,
            6,
            1,
            doors=[(24, 10, 26, 10)],
            windows=[(22, 6, 22, 8), (28, 6, 28, 8)],
        ),
        building(
            "building-3",
            "Garage",
            26,
            15,
            6,
            12,
            1,
            split="y",
            doors=[(26, 20, 26, 22)],
            windows=[(26, 17, 26, 18.5), (32, 24, 32, 25.5)],
        ),
        building(
            "building-4",
            "House",
            4,
            16,
            6,
            6,
            1,
            doors=[(10, 18, 10, 20)],
            windows=[(6, 22, 7.5, 22)],
        ),
        CoverObstacle(
            "cover-1",
            TerrainKind.COVER,
            "Garden wall",
            box(12, 25.5, 19, 26.0),
            cover_type=CoverType.WALL,
        ),
        CoverObstacle(
            "cover-2",
            TerrainKind.COVER,
            "Burnt-out car",
            Polygon([(19.0, 10.6), (22.6, 11.6), (22.1, 13.3), (18.5, 12.3)]),
            cover_type=CoverType.VEHICLE,
        ),
        CoverObstacle(
            "cover-3",
            TerrainKind.COVER,
            "Rubble",
            blob(30, 31, 1.8, 1.2, WOBBLE[:10]),
            cover_type=CoverType.RUBBLE,
        ),
        TerrainFeature(
            "impassable-1",
            TerrainKind.IMPASSABLE,
            "Collapsed block",
            Polygon([(31, 3), (35, 3), (35, 9), (33, 10), (31, 8)]),
        ),
    ]
    player = Force(
        "player",
        "Sgt. Mace's squad",
        BandType.MILITARY,
        player=True,
        colour="#2456a6",
        figures=[
            fig("p1", "Sgt. Mace", 5, 17, 32, 0, role=Role.STAR),
            fig("p2", "Cpl. Diaz", 4, 14.5, 31.5, 350),
            fig("p3", "Pvt. Okafor", 4, 19.5, 31.5, 10, weapon=WeaponCode.SAW),
            fig("p4", "Pvt. Lind", 4, 12, 33, 0),
            fig("p5", "Pvt. Kowalski", 3, 22, 33, 15, weapon=WeaponCode.SMG),
        ],
    )
    enemy = Force(
        "enemy",
        "Red Vipers",
        BandType.GANGER,
        colour="#b02a2a",
        figures=[
            fig("e1", "Viper boss", 5, 9, 11, 180, weapon=WeaponCode.SMG),
            fig(
                "e2", "Knuckles", 4, 6, 11.5, 170, weapon=WeaponCode.SG, melee=MeleeWeapon.ONE_HAND
            ),
            fig("e3", "Dice", 3, 24.5, 11.5, 190, weapon=WeaponCode.P),
            fig("e4", "Shiv", 3, 21, 14, 200, weapon=WeaponCode.P, melee=MeleeWeapon.ONE_HAND),
        ],
    )
    bf = Battlefield(Table(36, 36), terrain, [player, enemy])
    return Scenario(
        bf,
        encounter=Encounter(EncounterType.RAID, BandType.GANGER),
        title="Main Street (urban demo)",
        description="A squad pushes up Main Street against a street gang holed up "
        'around the hotel. Urban table, 36" x 36".',
    )


def wooded() -> Scenario:
    terrain = [
        TerrainFeature("woods-1", TerrainKind.WOODS, "Pine wood", blob(6.5, 6.5, 5.8, 5.2, WOBBLE)),
        TerrainFeature(
            "woods-2",
            TerrainKind.WOODS,
            "Birch copse",
            blob(6, 19, 5.0, 4.8, list(reversed(WOBBLE))),
        ),
        TerrainFeature(
            "woods-3",
            TerrainKind.WOODS,
            "Dark wood",
            blob(30, 18, 5.4, 5.0, WOBBLE[3:] + WOBBLE[:3]),
        ),
        Hill(
            "hill-1",
            TerrainKind.HILL,
            "Lookout hill",
            blob(30, 6, 5.6, 4.2, WOBBLE, rot=15),
            crest=LineString([(26.5, 5.2), (30, 6.0), (33.5, 7.0)]),
        ),
        Hill(
            "hill-2",
            TerrainKind.WOODED_HILL,
            "Wooded ridge",
            blob(7, 31, 5.5, 3.6, WOBBLE[5:] + WOBBLE[:5], rot=-8),
            crest=LineString([(3, 31.4), (7, 31), (11, 30.4)]),
        ),
        TerrainFeature(
            "impassable-1",
            TerrainKind.IMPASSABLE,
            "Rock outcrop",
            blob(18, 5, 3.2, 2.4, WOBBLE[:12], rot=30),
        ),
        building(
            "building-1",
            "Forester's cabin",
            15,
            15,
            6,
            6,
            1,
            doors=[(17, 21, 19, 21)],
            windows=[(15, 17, 15, 18.5), (21, 17, 21, 18.5)],
        ),
        CoverObstacle(
            "cover-1",
            TerrainKind.COVER,
            "Fallen logs",
            Polygon([(21, 27), (26, 26.2), (26.2, 26.9), (21.2, 27.7)]),
            cover_type=CoverType.OTHER,
        ),
        CoverObstacle(
            "cover-2",
            TerrainKind.COVER,
            "Stone wall",
            box(13, 10.5, 20, 11),
            cover_type=CoverType.WALL,
        ),
    ]
    player = Force(
        "player",
        "The Free Company",
        BandType.GUERILLA,
        player=True,
        colour="#2f7d4f",
        figures=[
            fig("p1", "Anya", 5, 18, 33, 0, role=Role.STAR, weapon=WeaponCode.SAR),
            fig("p2", "Marek", 4, 15.5, 32.5, 340, weapon=WeaponCode.AR),
            fig("p3", "Tomas", 4, 21, 32, 20, weapon=WeaponCode.BAR),
            fig("p4", "Lena", 3, 24, 33.5, 10, weapon=WeaponCode.SMG, melee=MeleeWeapon.ONE_HAND),
        ],
    )
    enemy = Force(
        "enemy",
        "Government patrol",
        BandType.MILITARY,
        colour="#8a6d1f",
        figures=[
            fig("e1", "Lt. Varga", 5, 30, 9.5, 180),
            fig("e2", "Sgt. Brenner", 4, 28, 10, 190, weapon=WeaponCode.SAW),
            fig("e3", "Pvt. Holt", 4, 32, 10.5, 170),
            fig("e4", "Pvt. Nagy", 4, 25.5, 11, 200),
            fig("e5", "Pvt. Roth", 3, 33.5, 12, 160, weapon=WeaponCode.SMG),
        ],
    )
    bf = Battlefield(Table(36, 36), terrain, [player, enemy])
    return Scenario(
        bf,
        encounter=Encounter(EncounterType.PATROL, BandType.MILITARY),
        title="Forest Road (wooded demo)",
        description="Partisans slip through the woods past a government patrol "
        'watching from Lookout hill. Wooded table, 36" x 36".',
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    scenario_io.save(urban(), OUT / "demo-urban.crdesk")
    scenario_io.save(wooded(), OUT / "demo-wooded.crdesk")
    print(f"wrote {OUT / 'demo-urban.crdesk'} and {OUT / 'demo-wooded.crdesk'}")


if __name__ == "__main__":
    main()
