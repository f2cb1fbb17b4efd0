"""Indirect fire and weapon readying from the table (Firearms Detail, FD §4, §10).

The data game firearms_indirect_spotter's table: Cpl. Mortimer's Rocket Launcher
south of a warehouse, the spot (22,10) north-east of it where Knuckles stands,
Pvt. Eyes 3.5" east of Mortimer seeing it.  Real right-clicks, keys and mouse
moves on the real window; the shot goes through the session like any action.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from crdesk.game import Game, firearms_view
from crdesk.scenario import Scenario
from tests.game.games import scenario
from tests.ui.mouse import click
from tests.ui.test_play_fire import hover, paste, tooltip
from tests.ui.test_play_moves import choose, entry, right_click
from tests.ui.windows import SHOTS, playing
from ui.main_window import MainWindow

DATA = Path(__file__).parents[1] / "data" / "games" / "firearms_indirect_spotter.json"
MORTIMER = (14.0, 20.0)
EYES = (18.5, 20.0)
SPOT = (22.0, 10.0)  # Knuckles, unseen by Mortimer behind the warehouse
SEEN = (26.0, 16.0)  # a spot Mortimer sees


def _compact(**changes: Any) -> dict[str, Any]:
    compact: dict[str, Any] = json.loads(DATA.read_text())["scenario"]
    for key, value in changes.items():
        compact["forces"][0]["figures"][0][key] = value
    return compact


def _scenario(**changes: Any) -> Scenario:
    return scenario(_compact(**changes))


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot, _scenario(), seed=1)


def test_the_plan_gives_the_spotter_the_steps_the_exact_odds_and_the_rings() -> None:
    game = Game.new(_scenario(), seed=1)
    game.play("activate p1")
    plan = firearms_view.indirect_plan(game, "p1", SPOT)
    assert plan.spotter == "p2" and plan.steps == -2
    assert plan.on_spot == Fraction(2, 6)  # Rep 5, -2: 5 or 6 reach 8 (7.9.10)
    assert [(f, ring) for f, ring, _d, _s in plan.rings] == [("e1", "Deadly"), ("e2", "Severe")]
    assert plan.range == 48 and 12.0 < plan.reach < 12.5
    knuckles, shiv = plan.damage  # if it lands: the Deadly and the Severe ring (FD §9)
    assert (knuckles.id, knuckles.obviously_dead) == ("e1", Fraction(1, 3))
    assert (shiv.id, shiv.obviously_dead) == ("e2", Fraction(1, 6))
    assert firearms_view.indirect_problem(game, "p1") is None
    why = firearms_view.indirect_problem(game, "p2")
    assert why is not None and "only blast weapons" in why
    far = Game.new(scenario(_moved_eyes()), seed=1)
    far.play("activate p1")
    alone = firearms_view.indirect_plan(far, "p1", SPOT)
    assert alone.spotter is None and alone.steps == -3 and alone.on_spot == Fraction(1, 6)


def _moved_eyes() -> dict[str, Any]:
    compact = _compact()
    compact["forces"][0]["figures"][1]["at"] = [10.0, 22.0]  # 3" from Mortimer, spot unseen
    return compact


def test_the_menu_offers_indirect_fire_and_the_rings_follow_the_mouse_then_a_click_fires(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MORTIMER)
    hover(window, *SPOT)  # Knuckles, out of Mortimer's sight: the tooltip says how
    assert "No line of sight" in tool.hover_text()
    assert "I: fire indirectly at the spot (FD §10)" in tool.hover_text()
    menu = right_click(window, *MORTIMER)
    indirect = entry(menu, "indirect")
    assert indirect.isEnabled() and "I" in indirect.text()
    ready = entry(menu, "ready_weapon")  # FD §4 is on the menu; the launcher is ready
    assert not ready.isEnabled() and "already ready (FD §4)" in ready.toolTip()
    choose(qtbot, menu, "indirect")
    aim = tool.aim
    assert aim.mode == "indirect" and aim.figure == "p1"
    ring = aim.range_item()
    assert ring is not None and '48"' in ring.toolTip()
    hover(window, *SEEN)  # Mortimer sees it: refused, in red, with the controller's reason
    assert aim.indirect is not None and aim.indirect.action is None
    assert "Cpl. Mortimer sees the spot" in aim.text()
    rings = aim.ring_items()
    assert len(rings) == 4 and rings[0].pen().style() == Qt.PenStyle.DashLine
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(SHOTS / "indirect-refused.png"))
    steps = len(game.history)
    click(window.view, *SEEN)
    assert len(game.history) == steps and "sees the spot" in (aim.last_reason or "")
    hover(window, *SPOT)
    shot = aim.indirect
    assert shot is not None and shot.action is not None
    text = aim.text()
    assert "Pvt. Eyes spots: -2 steps · on the spot 33%" in text
    # 1/3 on the spot, then the ring's damage (rings_odds): Knuckles 1/3 OOF, 1/3 OD
    assert "Knuckles Deadly: Out of the Fight 11% · Obviously Dead 11%" in text
    assert "Shiv Severe: Out of the Fight 11% · Obviously Dead 6%" in text
    assert [r.pos().toTuple() for r in aim.ring_items()] == [SPOT] * 4
    assert aim.ring_items()[0].pen().style() == Qt.PenStyle.SolidLine
    assert {str(i.data(0)) for i in aim.caught_items()} == {"caught:e1", "caught:e2"}
    drawn = {str(i.data(0)): i for i in aim._items}
    assert "spotter:p2" in drawn  # a dashed line from the spotter to the spot
    label = drawn["label"]
    assert "Pvt. Eyes spots (-2) · on the spot 33%" in label.text()
    port = window.view.viewport().rect()
    box = window.view.mapFromScene(label.pos())
    width = label.boundingRect().width()
    assert port.left() <= box.x() and box.x() + width <= port.right()  # readable whole
    qtbot.waitUntil(lambda: tooltip() is not None, timeout=2000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    paste(window.grab().toImage(), window, tooltip()).save(str(SHOTS / "indirect.png"))
    click(window.view, *SPOT)
    assert aim.last_reason is None and aim.mode is None
    assert game.history[steps].action == "indirect p1 at 22,10"
    logged = [e for e in window.play.log_dock.events() if e.kind == "indirect"]
    assert len(logged) == 1 and "Pvt. Eyes spots for it" in logged[0].text
    assert firearms_view.rounds_left(game, "p1") == 0
    assert window.play.session is not None
    # one step of the session like any fire: undo knows it and keeps its seen dice
    why = window.play.session.undo()
    assert why is not None and "(indirect p1 at 22,10) rolled dice" in why


def test_the_key_starts_the_spot_tool_and_refuses_a_weapon_that_is_no_blast_weapon(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    tool = window.play.move_tool
    click(window.view, *EYES)
    assert tool.selected == "p2"
    menu = right_click(window, *EYES)
    assert not [a for a in menu.actions() if a.objectName() == "indirect"]
    menu.close()
    qtbot.keyClick(window.view, Qt.Key.Key_I)
    why = tool.actions.last_reason
    assert why is not None and "only blast weapons" in why and tool.aim.mode is None
    click(window.view, *MORTIMER)
    qtbot.keyClick(window.view, Qt.Key.Key_I)
    assert tool.aim.mode == "indirect" and tool.aim.figure == "p1"
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert tool.aim.mode is None and tool.aim.range_item() is None


def test_an_empty_launcher_greys_the_entry_with_the_reason(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = playing(qtbot, _scenario(out_of_ammo=True), seed=1)
    menu = right_click(window, *MORTIMER)
    indirect = entry(menu, "indirect")
    assert not indirect.isEnabled()
    assert "Rocket Launcher is empty: reload it first (FD §3)" in indirect.toolTip()
    choose(qtbot, menu, "indirect")  # a disabled entry plays nothing
    assert window.play.move_tool.aim.mode is None


def test_ready_weapon_from_the_menu_readies_a_bolt_action_that_fired(qtbot) -> None:  # type: ignore[no-untyped-def]
    """FD §4 on the menu: Pvt. Eyes' Bolt Action Rifle is unready once it has fired."""
    compact = _compact()
    compact["forces"][0]["figures"][1]["weapon"] = "BAR"
    window = playing(qtbot, scenario(compact), seed=1)
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *EYES)
    click(window.view, *SPOT)  # Knuckles: the fire dialog
    dialog = tool.fire_dialog
    assert dialog is not None
    qtbot.mouseClick(dialog.fire_button, Qt.MouseButton.LeftButton)
    window.play.run_program()  # Shiv's Duck Back
    panel = firearms_view.weapon_panel(game, "p2")
    assert panel is not None and not panel.state.ready
    menu = right_click(window, *EYES)
    ready = entry(menu, "ready_weapon")
    assert ready.isEnabled() and "\tW" in ready.text()
    steps = len(game.history)
    choose(qtbot, menu, "ready_weapon")
    assert game.history[steps].action == "ready p2 weapon"
    logged = [e for e in window.play.log_dock.events() if e.kind == "ready_weapon"]
    assert logged and 'readied by giving up 2" of movement (FD §4)' in logged[-1].text
    window.activateWindow()  # the fire dialog had the focus
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window.view, Qt.Key.Key_W)
    assert "is already ready (FD §4)" in (tool.actions.last_reason or "")
    assert len(game.history) == steps + 1
