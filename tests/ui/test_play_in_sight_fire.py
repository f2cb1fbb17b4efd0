"""Fire and odds the same in every decision (issue 31, Deliver 6): when a person's figure
wins an In Sight test (7.6.4) it is chosen at once; hovering an enemy shows the shot's
exact odds and a click on the enemy fires, as during an activation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent

from tests.demos import in_sight_demo
from tests.ui.mouse import NONE, click, send
from tests.ui.windows import playing

SHOTS = Path("/tmp/crdesk-shots")


def test_click_to_fire_during_an_in_sight(qtbot: Any) -> None:
    window = playing(qtbot, in_sight_demo(), seed=4)  # Sgt. Mace's squad active
    play = window.play
    session = play.session
    assert session.play("move p2 19,25") is None  # Cpl. Diaz sees Knuckles: In Sight
    if session.awaiting().kind == "free_move":
        assert session.play("pass") is None
    for _ in range(10):  # the tests' dice are rolled by the program's steps
        decision = session.awaiting()
        if decision.kind == "in_sight_action" and decision.actor == "player":
            break
        play.run_program()
    decision = session.awaiting()
    assert decision.kind == "in_sight_action" and decision.figure == "p1"
    tool = play.move_tool
    assert tool.selected == "p1"  # the In Sight winner is chosen: no click needed
    enemy = play.game.battlefield.figure("e1")
    send(window.view, QEvent.Type.MouseMove, enemy.x, enemy.y, NONE, NONE)
    assert tool.hovered is not None and tool.hovered.target == "e1"
    assert "%" in tool.hover_text() or "hit" in tool.hover_text().lower()
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "in-sight-hover-odds.png"))
    steps = len(play.game.history)
    click(window.view, enemy.x, enemy.y)
    assert tool.last_fire_reason is None, tool.last_fire_reason
    assert play.game.history[steps].action.startswith("fire p1 at e1")
