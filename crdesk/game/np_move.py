"""The non-player groups' moves in a solo game (11.4): table 11.4 rolled for the
active group against the closest player group, whether it outnumbers it (option
``np_outnumbers_by_group``), and the orders it gives (the solo enemy carries them out).
"""

from __future__ import annotations

from typing import Any

from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.rules.pef import np_move as np_move_test


def np_move_why(t: Table, frame: Frame) -> str | None:
    """None if NP Force Movement may be rolled now for the active group, else why not."""
    d = frame.data
    if t.battlefield.force(d["side"]).player:
        return "NP Force Movement is rolled for the non-player side only (11.4)"
    if "np_move" in d:
        return "NP Force Movement is rolled once per activation (11.4)"
    if d["moved"] or d["fired"]:
        return "NP Force Movement is rolled before the group moves or fires (11.4)"
    return None


def closest_enemy_group(t: Table, members: list[str]) -> list[str]:
    """The player group closest to these figures (by base-to-base distance)."""
    side = t.fig(members[0]).side
    groups = t.cohesion.groups(t.rules, t.enemy_of(side))
    if not groups:
        return []
    sight = t.sight()

    def gap(group: Any) -> float:
        return min(sight.distance(m, o) for m in members for o in group.members)

    return list(min(groups, key=gap).members)


def np_move(t: Table, frame: Frame) -> None:
    d = frame.data
    members = [f.id for f in t.members(frame)]
    t.cohesion.update()
    target = closest_enemy_group(t, members)
    if t.rules.interpretations.np_outnumbers_by_group:
        outnumbers = bool(target) and len(members) >= 2 * len(target)
    else:
        player = t.alive(t.enemy_of(t.fig(members[0]).side))
        outnumbers = bool(player) and len(t.alive(t.fig(members[0]).side)) >= 2 * len(player)
    leader = t.fig(d["leader"])
    res = np_move_test(t.roll(), leader.rep, outnumbers=outnumbers, who=leader.name)
    d["np_move"] = {
        "passed": res.passed,
        "move": res.result,
        "flank": res.get("flank"),
        "closest": target,
        "outnumbers": outnumbers,
        "faces": list(res.faces),
    }
    t.emit("np_move", res.explain(), result=res, figures=members)
