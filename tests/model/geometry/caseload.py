"""A tiny loader for the geometry case files in tests/data/los/ (independent of crdesk.scenario).

A case file holds one table (terrain, figures, rules) and a list of checks; a
check may move figures, override rules and name moving or lit figures first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Polygon

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
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import Interpretations, RulesOptions, Weather

DATA = Path(__file__).resolve().parents[2] / "data" / "los"


@dataclass
class Check:
    file: str
    name: str
    battlefield: Battlefield
    rules: RulesOptions
    viewer: str
    target: str | None
    point: tuple[float, float] | None
    expect: dict[str, Any]
    moving: list[str] = field(default_factory=list)
    lit: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"


def feature(d: dict[str, Any]) -> TerrainFeature:
    kind = TerrainKind(d["kind"])
    outline = Polygon(d["outline"], d.get("holes"))  # holes: a woods' clearings
    common = {"id": d["id"], "kind": kind, "name": d.get("name", d["id"]), "outline": outline}
    if kind in (TerrainKind.HILL, TerrainKind.WOODED_HILL):
        return Hill(**common, crest=LineString(d["crest"]) if d.get("crest") else LineString())
    if kind is TerrainKind.BUILDING:
        ops = [
            Opening(OpeningKind(o["kind"]), tuple(o["start"]), tuple(o["end"]))
            for o in d.get("openings", [])
        ]
        return Building(**common, openings=ops, floors=d.get("floors", 1))
    if kind is TerrainKind.COVER:
        return CoverObstacle(**common, cover_type=CoverType(d.get("cover_type", "wall")))
    return TerrainFeature(**common)


def figure(d: dict[str, Any]) -> Figure:
    return Figure(
        id=d["id"],
        name=d.get("name", d["id"]),
        rep=d.get("rep", 4),
        role=Role(d.get("role", "grunt")),
        x=float(d["x"]),
        y=float(d["y"]),
        facing=float(d.get("facing", 0.0)),
        base=float(d.get("base", 1.0)),
        status=Status(d.get("status", "carry_on")),
        prone=bool(d.get("prone", False)),
        fast_moving=bool(d.get("fast_moving", False)),
    )


def rules(d: dict[str, Any], base: RulesOptions | None = None) -> RulesOptions:
    base = base or RulesOptions()
    interp = replace(base.interpretations, **d.get("interpretations", {}))
    return replace(
        base,
        night=d.get("night", base.night),
        weather=Weather(d.get("weather", base.weather.value)),
        interpretations=interp if isinstance(interp, Interpretations) else base.interpretations,
    )


def battlefield(doc: dict[str, Any], place: dict[str, list[float]] | None = None) -> Battlefield:
    width, height = doc.get("table", [36, 36])
    sides: dict[str, list[Figure]] = {}
    for fd in doc.get("figures", []):
        fig = figure(fd)
        if place and fig.id in place:
            xyf = place[fig.id]
            fig.x, fig.y = float(xyf[0]), float(xyf[1])
            if len(xyf) > 2:
                fig.facing = float(xyf[2])
        if place and fd["id"] + ".status" in place:
            fig.status = Status(str(place[fd["id"] + ".status"]))
        if place and fd["id"] + ".fast" in place:
            fig.fast_moving = True
        sides.setdefault(fd.get("side", "red"), []).append(fig)
    forces = [Force(id=s, name=s, figures=figs) for s, figs in sides.items()]
    return Battlefield(Table(width, height), [feature(t) for t in doc.get("terrain", [])], forces)


def load_checks(directory: Path = DATA) -> list[Check]:
    out: list[Check] = []
    for path in sorted(directory.glob("*.json")):
        doc = json.loads(path.read_text())
        file_rules = rules(doc.get("rules", {}))
        for c in doc["checks"]:
            extra = {k: v for k, v in c.get("status", {}).items()}
            place = dict(c.get("place", {}))
            place.update({f"{k}.status": v for k, v in extra.items()})
            place.update({f"{k}.fast": [1.0] for k in c.get("fast_moving", [])})
            out.append(
                Check(
                    file=path.stem,
                    name=c["name"],
                    battlefield=battlefield(doc, place),
                    rules=rules(c.get("rules", {}), file_rules),
                    viewer=c["from"],
                    target=c.get("to"),
                    point=tuple(c["to_point"]) if "to_point" in c else None,
                    expect=c["expect"],
                    moving=c.get("moving", []),
                    lit=c.get("lit", []),
                )
            )
    return out
