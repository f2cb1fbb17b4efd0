"""Moving on the table: the In Sight stop previewed while dragging, the figure's context
menu and its keys, and the Shift-drag of a Leader moving the whole group.

The demo scenario with seed 1: Sgt. Mace's squad (p1 Sgt. Mace at (17, 32), p2 Cpl.
Diaz at (14.5, 31.5), p3 Pvt. Okafor at (19.5, 31.5), p4 Pvt. Lind at (12, 33), p5 Pvt.
Kowalski at (22, 33)) activates first; Diaz walking north-east sees Knuckles (7.6).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QContextMenuEvent, QPainter
from PySide6.QtWidgets import QApplication, QMenu

from crdesk.game.actions import Prone
from tests.demos import in_sight_demo
from tests.ui.mouse import LEFT, NONE, at, click, drag, send
from tests.ui.windows import playing
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")
SHIFT = Qt.KeyboardModifier.ShiftModifier
DIAZ_PATH = [(14.5, 31.5), (15.5, 30.0), (16.5, 28.5), (17.5, 27.0), (18.5, 25.7), (19.0, 25.0)]


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot)  # seed 1: Sgt. Mace's squad activated


@pytest.fixture
def sighted(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """Knuckles a group of his own (tests/demos.py): Diaz's walk north stops for him."""
    return playing(qtbot, in_sight_demo())


def xy(window: MainWindow, fid: str) -> tuple[float, float]:
    figure = window.play.game.battlefield.figure(fid)
    return (round(figure.x, 2), round(figure.y, 2))


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def right_click(window: MainWindow, x: float, y: float) -> QMenu:
    """A right-click's context-menu event at table position (x, y), as the window sends it."""
    viewport = window.view.viewport()
    pos = at(window.view, x, y).toPoint()
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos), Qt.KeyboardModifier(0)
    )
    QApplication.sendEvent(viewport, event)
    menu = window.play.move_tool.actions.menu
    assert menu is not None and menu.isVisible()
    return menu


def entry(menu: QMenu, kind: str):  # type: ignore[no-untyped-def]
    found = [a for a in menu.actions() if a.objectName() == kind]
    assert found, f"no {kind!r} entry in {[a.text() for a in menu.actions()]}"
    return found[0]


def choose(qtbot, menu: QMenu, kind: str) -> None:  # type: ignore[no-untyped-def]
    """Click the entry in the open menu, as a person does."""
    action = entry(menu, kind)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())


def shot(window: MainWindow, name: str, menu: QMenu | None = None) -> Path:
    """The window, with the open menu painted where it pops up."""
    image = window.grab()
    if menu is not None:
        painter = QPainter(image)
        painter.drawPixmap(window.mapFromGlobal(menu.pos()), menu.grab())
        painter.end()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    assert image.save(str(path))
    return path


# -- the In Sight stop, previewed --------------------------------------------------------


def test_a_drag_shows_where_in_sight_stops_it_and_the_drop_stops_there(sighted, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = sighted
    game = window.play.game
    tool = window.play.move_tool
    before = game.state_hash()
    (x0, y0), *rest = DIAZ_PATH
    send(window.view, QEvent.Type.MouseButtonPress, x0, y0, LEFT, LEFT)
    send(window.view, QEvent.Type.MouseMove, *rest[0], NONE, LEFT)
    assert tool.stop_text() == ""  # a short way: nobody new in sight yet
    for x, y in rest[1:]:
        send(window.view, QEvent.Type.MouseMove, x, y, NONE, LEFT)
    assert "In Sight" in tool.stop_text()  # at once, on the quarter-inch grid
    press = window.view.mapToScene(at(window.view, x0, y0).toPoint())
    drop = window.view.mapToScene(at(window.view, *rest[-1]).toPoint())
    end = (round(x0 + drop.x() - press.x(), 2), round(y0 + drop.y() - press.y(), 2))
    qtbot.waitUntil(lambda: tool.last_stop is not None and tool.last_stop.action.path[-1] == end)
    text = tool.stop_text()
    assert text.startswith("stops: In Sight — ") and "Knuckles" in text and "Cpl. Diaz" in text
    stop = tool.last_stop
    assert stop is not None and stop.end is not None and stop.end != end
    marker = tool._stop_marker
    assert marker is not None and marker.isVisible()
    assert (marker.pos().x(), marker.pos().y()) == pytest.approx(stop.end)
    assert game.state_hash() == before  # the preview played nothing
    window.view.viewport().repaint()
    shot(window, "play-drag-insight.png")
    send(window.view, QEvent.Type.MouseButtonRelease, *rest[-1], LEFT, NONE)
    assert tool.last_reason is None
    assert xy(window, "p2") == pytest.approx(stop.end, abs=0.01)
    assert game.awaiting().kind == "free_move"
    assert "stops: Knuckles in sight" in status(window)
    assert tool.previews_gone()


def test_a_short_drag_shows_no_stop(window) -> None:  # type: ignore[no-untyped-def]
    tool = window.play.move_tool
    send(window.view, QEvent.Type.MouseButtonPress, 12.0, 33.0, LEFT, LEFT)
    for y in (32.0, 31.0, 30.0):
        send(window.view, QEvent.Type.MouseMove, 12.0, y, NONE, LEFT)
    assert tool.stop_text() == "" and tool.last_stop is not None and tool.last_stop.legal
    send(window.view, QEvent.Type.MouseButtonRelease, 12.0, 30.0, LEFT, NONE)
    assert xy(window, "p4") == (12.0, 30.0)


# -- the context menu and its keys --------------------------------------------------------


def test_the_menu_offers_what_is_legal_and_plays_it(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    menu = right_click(window, 19.5, 31.5)  # Pvt. Okafor
    assert window.play.move_tool.selected == "p3"
    assert entry(menu, "prone").isEnabled() and entry(menu, "prone").text().startswith("Go prone")
    assert entry(menu, "fast").isEnabled() and entry(menu, "move").isEnabled()
    reload = entry(menu, "reload")
    assert not reload.isEnabled() and reload.toolTip() == game.legal("reload p3")
    assert "not out of ammo" in reload.toolTip()
    ready = entry(menu, "ready")
    assert ready.isEnabled() == (game.legal("ready p3") is None) and ready.toolTip()
    assert (
        not entry(menu, "drop").isEnabled() and "carrying nobody" in entry(menu, "drop").toolTip()
    )
    assert not entry(menu, "pickup").isEnabled() and not entry(menu, "capture").isEnabled()
    exits = [a for a in menu.actions() if a.objectName() == "exit"]
    assert bool(exits) == (game.legal("exit p3") is None)  # listed only at the edge
    assert not [a for a in menu.actions() if a.objectName() == "floor_up"]  # not in a building
    assert "Ctrl+P" in entry(menu, "prone").text()  # the key is shown beside the entry
    shot(window, "play-context-menu.png", menu)
    choose(qtbot, menu, "prone")
    assert game.battlefield.figure("p3").prone
    assert any(e.kind == "prone" for e in game.events)
    again = right_click(window, 19.5, 31.5)
    stand = entry(again, "prone")  # prone used the movement up: no standing until next time
    assert stand.text().startswith("Stand up") and not stand.isEnabled()
    assert stand.toolTip() == game.legal("stand p3")
    move = entry(again, "move")
    assert not move.isEnabled() and "stand up first" in move.toolTip()
    again.close()


def test_move_from_the_menu_waits_for_a_click(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    menu = right_click(window, 12.0, 33.0)  # Pvt. Lind
    choose(qtbot, menu, "move")
    assert window.play.move_tool.armed == "p4" and "Click where Pvt. Lind" in status(window)
    click(window.view, 13.0, 30.0)
    assert xy(window, "p4") == pytest.approx((13.0, 30.0), abs=0.05)
    assert window.play.move_tool.armed is None
    # on the table, the selected figure's menu starts with "Move here"
    table = right_click(window, 13.0, 28.0)
    here = entry(table, "move_here")
    assert here.isEnabled() and "Pvt. Lind" in here.text()
    choose(qtbot, table, "move_here")
    assert xy(window, "p4") == pytest.approx((13.0, 28.0), abs=0.05)


def test_keys_act_on_the_selected_figure(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    qtbot.keyClick(window.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert "select a figure" in status(window)  # nobody selected yet
    click(window.view, 12.0, 33.0)  # selects Pvt. Lind
    before = game.state_hash()
    qtbot.keyClick(window.view, Qt.Key.Key_R)
    assert "not out of ammo" in status(window) and game.state_hash() == before
    qtbot.keyClick(window.view, Qt.Key.Key_F)  # the group's Fast Move (7.4.2)
    assert any(e.kind == "fast_move" for e in game.events)
    qtbot.keyClick(window.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert game.battlefield.figure("p4").prone
    qtbot.keyClick(window.view, Qt.Key.Key_M)  # Move… is refused to a prone figure
    assert "stand up first" in status(window) and window.play.move_tool.armed is None
    qtbot.keyClick(window.view, Qt.Key.Key_PageUp)  # not in a building: the controller's no
    assert status(window).startswith("PgUp: ") and game.legal("floor p4 2") in status(window)


# -- Shift-drag of the Leader ---------------------------------------------------------------


def test_shift_drag_of_the_leader_moves_the_group_keeping_offsets(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    members = ["p1", "p2", "p3", "p4", "p5"]
    before = {f: xy(window, f) for f in members}
    hash_before = game.state_hash()
    send(window.view, QEvent.Type.MouseButtonPress, 17.0, 32.0, LEFT, LEFT, SHIFT)
    for k in range(1, 5):  # 2" south, away from the Vipers
        send(window.view, QEvent.Type.MouseMove, 17.0, 32.0 + 0.5 * k, NONE, LEFT, SHIFT)
    group = tool.group
    assert group is not None and sorted(group.lines) == members  # every member's path
    assert not group.fresh()  # previewed at the first step; again when the pointer rests
    qtbot.waitUntil(group.fresh)
    assert all(p.legal and not p.stopped for p in group.previews.values())
    assert len(group.previews) == 5
    item = window.play.scene.figure_item("p5")
    assert item is not None  # the pictures follow the pointer, the model waits
    assert (item.pos().x(), item.pos().y()) == pytest.approx((22.0, 35.0), abs=0.05)
    assert game.state_hash() == hash_before
    window.view.viewport().repaint()
    shot(window, "play-group-drag.png")
    send(window.view, QEvent.Type.MouseButtonRelease, 17.0, 34.0, LEFT, NONE, SHIFT)
    shift = (xy(window, "p1")[0] - before["p1"][0], xy(window, "p1")[1] - before["p1"][1])
    assert shift == pytest.approx((0.0, 2.0), abs=0.05)
    for f in members:  # every member by the Leader's own offset: the formation is kept
        assert xy(window, f) == pytest.approx(
            (before[f][0] + shift[0], before[f][1] + shift[1]), abs=0.011
        )
    assert "5 of 5 moved" in status(window) and tool.previews_gone()


def test_a_member_that_cannot_go_stays_with_its_reason(window) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    assert window.play.session.play(Prone("p3")) is None  # Okafor lies down
    drag(window.view, [(17.0, 32.0), (17.0, 33.0), (17.0, 34.0)], modifiers=SHIFT)
    assert xy(window, "p3") == (19.5, 31.5)
    assert xy(window, "p1") == pytest.approx((17.0, 34.0), abs=0.05)
    assert xy(window, "p5") == pytest.approx((22.0, 35.0), abs=0.05)
    moved, stayed = tool.last_group or ([], [])
    assert len(moved) == 4 and stayed and "Pvt. Okafor stays" in stayed[0]
    assert "stand up first" in status(window) and "4 of 5 moved" in status(window)
    assert game.awaiting().kind == "act"


def test_a_member_short_of_movement_goes_part_way(window) -> None:  # type: ignore[no-untyped-def]
    drag(window.view, [(12.0, 33.0), (9.0, 33.0), (6.0, 33.0)])  # Lind uses 6" of 8"
    lind = xy(window, "p4")
    # 3" west: Diaz first (the furthest ahead), then Mace into room Diaz left, ...
    drag(window.view, [(17.0, 32.0), (15.5, 32.0), (14.0, 32.0)], modifiers=SHIFT)
    assert xy(window, "p1") == pytest.approx((14.0, 32.0), abs=0.05)
    assert xy(window, "p3") == pytest.approx((16.5, 31.5), abs=0.05)
    now = xy(window, "p4")
    # its 2" left, towards its place, and no further from the group than it was (6.2)
    assert 1.0 < math.dist(now, lind) <= 2.01 and now[0] < lind[0]
    assert "Pvt. Lind (part way)" in status(window) and "5 of 5 moved" in status(window)


def test_an_in_sight_stops_the_group_and_says_so(sighted, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = sighted
    game = window.play.game
    tool = window.play.move_tool
    path = [(17.0, 32.0), (17.0, 30.5), (17.0, 29.0), (17.0, 27.0)]  # 5" north
    send(window.view, QEvent.Type.MouseButtonPress, *path[0], LEFT, LEFT, SHIFT)
    for x, y in path[1:]:
        send(window.view, QEvent.Type.MouseMove, x, y, NONE, LEFT, SHIFT)
    group = tool.group
    assert group is not None and group.label is not None
    qtbot.waitUntil(group.fresh)
    assert "stops: In Sight" in group.label.text()
    stopper = next(f for f, p in group.previews.items() if p.stopped)
    waiting = [f for f in group.members if f not in group.previews]
    send(window.view, QEvent.Type.MouseButtonRelease, *path[-1], LEFT, NONE, SHIFT)
    assert game.awaiting().kind == "free_move"
    assert "The group stops there" in status(window) and "in sight" in status(window)
    for f in waiting:  # the ones after the interrupt did not move
        assert xy(window, f) == group.origins[f]
    assert waiting, "the interrupt leaves some of the group where they stood"
    assert xy(window, stopper) != group.origins[stopper]
    assert game.fig(stopper).y > group.origins[stopper][1] - 5.0  # stopped short


def test_charge_from_the_menu_starts_the_charge_mode(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    menu = right_click(window, 19.5, 31.5)  # Pvt. Okafor
    charge = entry(menu, "charge")
    assert charge.isEnabled() and charge.text().startswith("Charge")
    assert not [a for a in menu.actions() if a.objectName() == "throw"]  # no grenade readied
    choose(qtbot, menu, "charge")
    aim = window.play.move_tool.aim
    assert aim.mode is not None and aim.figure == "p3"
    assert "hover an enemy for the odds" in status(window)
