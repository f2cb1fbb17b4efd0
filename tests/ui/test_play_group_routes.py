"""Shift-drag of a Leader round a corner (issue 31, Deliver 4): the group of five goes
round the Depot by its routes, every one moves, and they end within 4" of one another;
the label says one line per member."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt

from crdesk.cohesion import COHESION_DISTANCE
from tests.game.games import scenario
from tests.ui.mouse import LEFT, NONE, send
from tests.ui.windows import playing

SHOTS = Path("/tmp/crdesk-shots")
SHIFT = Qt.KeyboardModifier.ShiftModifier
CASE = Path(__file__).parents[1] / "data" / "games" / "group_move_round_building.json"
SQUAD = {
    "p1": ("Sgt. Mace", 5, [15.2, 10]),
    "p2": ("Pvt. Hale", 4, [15.5, 12.5]),
    "p3": ("Pvt. Cole", 4, [17, 11]),
    "p4": ("Pvt. Lind", 4, [16.5, 13.5]),
    "p5": ("Pvt. Roth", 4, [17.5, 9]),
}


@pytest.fixture
def window(qtbot: Any) -> Any:
    data = json.loads(CASE.read_text())["scenario"]
    data["forces"][0]["figures"] = [
        {"id": fid, "name": name, "rep": rep, "at": at} for fid, (name, rep, at) in SQUAD.items()
    ]
    data["terrain"].append(
        {
            "kind": "building",
            "name": "Bunker",
            "outline": [[28, 28], [34, 28], [34, 34], [28, 34]],
            "floors": 1,
            "areas": [[[28, 28], [34, 28], [34, 34], [28, 34]]],
        }
    )
    data["forces"][1]["figures"][0]["at"] = [31, 31]  # shut in: nobody sees him
    return playing(qtbot, scenario(data), seed=2)


def test_a_group_of_five_goes_round_the_corner_together(window: Any, qtbot: Any) -> None:
    game = window.play.game
    assert set(game.frame_stack[-1].data["members"]) == set(SQUAD)
    view = window.view
    path = [(15.2, 10.0), (14.5, 8.5), (13.0, 7.0), (12.0, 6.5)]
    send(view, QEvent.Type.MouseButtonPress, *path[0], LEFT, LEFT, SHIFT)
    for x, y in path[1:]:
        send(view, QEvent.Type.MouseMove, x, y, NONE, LEFT, SHIFT)
    group = window.play.move_tool.group
    assert group is not None
    qtbot.waitUntil(group.fresh)
    text = group.label.text() if group.label is not None else ""
    for name, _rep, _at in SQUAD.values():
        assert sum(line.startswith(name) for line in text.splitlines()) == 1, text
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "group-round-corner.png"))
    send(view, QEvent.Type.MouseButtonRelease, *path[-1], LEFT, NONE, SHIFT)
    moved, stayed = window.play.move_tool.last_group or ([], [])
    assert len(moved) == 5 and not stayed, (moved, stayed)
    ends = {fid: (game.fig(fid).x, game.fig(fid).y) for fid in SQUAD}
    assert ends["p1"] == pytest.approx((12.0, 6.5), abs=0.05)
    for fid, end in ends.items():
        assert end[1] < 8.0 or end[0] > 14.0  # nobody went through the Depot
        gap = min(math.dist(end, e) - 1.0 for f, e in ends.items() if f != fid)
        assert gap <= COHESION_DISTANCE, (fid, gap)
    moves = [s.action for s in game.history[-5:]]
    assert any(len(m.split()) > 3 for m in moves)  # a route with a corner, kept as walked
