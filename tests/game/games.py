"""Small scenarios for game tests, written compactly and expanded to scenario documents.

A game test is data (``tests/data/games/*.json``): a small scenario, scripted
dice, a list of actions, the events expected (in order, as a subsequence) and
the final state.  ``compact`` scenarios name only what matters::

    {"table": [24, 24],
     "terrain": [{"kind": "woods", "outline": [[0, 0], [4, 0], [4, 4]]}],
     "forces": [{"id": "p", "player": true,
                 "figures": [{"id": "p1", "rep": 5, "role": "star", "at": [12, 20]}]},
                {"id": "e", "figures": [{"id": "e1", "rep": 4, "at": [12, 4], "facing": 180}]}]}
"""

from __future__ import annotations

from typing import Any

from crdesk.model import Scenario
from crdesk.options import RulesOptions
from crdesk.scenario import from_document


def scenario_document(compact: dict[str, Any]) -> dict[str, Any]:
    width, height = compact.get("table", [24, 24])
    terrain = []
    for n, t in enumerate(compact.get("terrain", []), 1):
        doc = {"id": t.get("id", f"{t['kind']}-{n}"), "name": t.get("name", t["kind"]), **t}
        terrain.append(doc)
    forces = []
    for force in compact["forces"]:
        figures = []
        for f in force["figures"]:
            star = f.get("role") == "star"
            fig = {
                "id": f["id"],
                "name": f.get("name", f["id"]),
                "role": f.get("role", "grunt"),
                "rep": f.get("rep", 4),
                "weapon": f.get("weapon", "AR"),
                "melee": f.get("melee", "none"),
                "position": f["at"],
                "facing": f.get("facing", 0),
                "base": f.get("base", 1),
                "status": f.get("status", "carry_on"),
                "star_power": f.get("star_power", f.get("rep", 4) if star else None),
                "out_of_ammo": f.get("out_of_ammo", False),
                "prone": f.get("prone", False),
                "fast_moving": False,
            }
            if "weapon_card" in f:  # a user weapon of the scenario's (FD §2)
                fig["weapon_card"] = f["weapon_card"]
            figures.append(fig)
        forces.append(
            {
                "id": force["id"],
                "name": force.get("name", force["id"]),
                "band": force.get("band", "military"),
                "player": force.get("player", False),
                "colour": force.get("colour", "#1f5fbf"),
                "figures": figures,
            }
        )
    rules = RulesOptions.from_dict(compact.get("rules", {})).to_dict()
    extra = {"weapons": compact["weapons"]} if "weapons" in compact else {}
    return {
        **extra,
        "format_version": 1,
        "generator": "tests",
        "title": compact.get("title", "test"),
        "description": "",
        "table": {"width": width, "height": height},
        "rules": rules,
        "encounter": {
            "type": "free",
            "enemy_band": None,
            "pef_count": 3,
            **compact.get("encounter", {}),
        },
        "terrain": terrain,
        "forces": forces,
    }


def scenario(compact: dict[str, Any]) -> Scenario:
    return from_document(scenario_document(compact), source="<test>")
