"""Routed moves with the mouse (issue 31, Deliver 1): a drop behind a wall plays the
cheapest legal route (in by the door here), drawn while dragging with its cost; a drop
beyond reach plays nothing, says how far the figure gets, and the figure's menu offers
"Move as far as possible"; Alt keeps the one straight run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from shapely.geometry import Point

from tests.game.games import scenario
from tests.ui.mouse import LEFT, NONE, drag, send
from tests.ui.test_play_moves import entry, right_click, status, xy
from tests.ui.windows import playing

SHOTS = Path("/tmp/crdesk-shots")
CASE = Path(__file__).parents[1] / "data" / "games" / "route_door_in_window_out.json"
ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def window(qtbot: Any) -> Any:
    shed = scenario(json.loads(CASE.read_text())["scenario"])
    return playing(qtbot, shed, seed=2)  # Pvt. Hale outside the Shed, activated


def test_a_drop_inside_goes_round_by_the_door(window: Any, qtbot: Any) -> None:
    view = window.view
    tool = window.play.move_tool
    send(view, QEvent.Type.MouseButtonPress, 11.5, 15.2)
    for x, y in ((11.4, 14.6), (11.2, 13.6), (11.0, 12.8)):
        send(view, QEvent.Type.MouseMove, x, y, NONE, LEFT)
    reach = tool.last_reach  # the area by any route: inside, by the door
    assert reach is not None and reach.area.contains(Point(11.0, 12.8))
    route = tool._route
    assert route is not None and route.isVisible()  # the way round, not the straight line
    assert "routed" in tool._label.text() and "✓" in tool._label.text()
    assert tool.last_plan is not None and len(tool.last_plan.route) >= 3
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "route-drag-door.png"))
    send(view, QEvent.Type.MouseButtonRelease, 11.0, 12.8, LEFT, NONE)
    assert xy(window, "p1") == pytest.approx((11.0, 12.8), abs=0.05)
    assert '6.3" of movement' in status(window)


def test_alt_keeps_the_straight_run(window: Any) -> None:
    drag(window.view, [(11.5, 15.2), (11.3, 14.0), (11.0, 12.8)], modifiers=ALT)
    assert xy(window, "p1") == (11.5, 15.2)  # the wall refuses the straight run
    assert "wall" in status(window)


def test_beyond_reach_says_how_far_and_offers_the_rest(window: Any) -> None:
    drag(window.view, [(11.5, 15.2), (8, 10), (3, 3)])
    tool = window.play.move_tool
    assert xy(window, "p1") == (11.5, 15.2)  # nothing played
    assert "gets as far as" in status(window) and "Move as far as possible" in status(window)
    assert tool.last_refused_plan is not None
    far = tool.last_refused_plan[1].farthest
    menu = right_click(window, 11.5, 15.2)
    item = entry(menu, "farthest")
    assert item.isEnabled()
    item.trigger()
    menu.close()
    got = xy(window, "p1")
    assert got == pytest.approx((round(far[0], 2), round(far[1], 2)), abs=0.02)
