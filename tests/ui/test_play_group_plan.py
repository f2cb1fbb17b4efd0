"""The Shift-drag of a Leader: what the table shows while dragging is what the drop sends.

The demo scenario with seed 1, Sgt. Mace's squad activated: p1 Sgt. Mace (17, 32), p2
Cpl. Diaz (14.5, 31.5), p3 Pvt. Okafor (19.5, 31.5), p4 Pvt. Lind (12, 33), p5 Pvt.
Kowalski (22, 33).  With Diaz prone (he stays), a drag 2.5" west puts Mace's formation
spot on Diaz's base: Mace goes to the nearest legal place near it, and the preview must
say so before the drop.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt

from crdesk.game.actions import Prone
from tests.demos import in_sight_demo
from tests.ui.mouse import LEFT, NONE, send
from tests.ui.windows import playing
from ui.main_window import MainWindow
from ui.play.group_move import GroupDrag

SHOTS = Path("/tmp/crdesk-shots")
SHIFT = Qt.KeyboardModifier.ShiftModifier
MEMBERS = ("p1", "p2", "p3", "p4", "p5")


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot)  # seed 1: Sgt. Mace's squad activated


@pytest.fixture
def sighted(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """Knuckles a group of his own (tests/demos.py): Diaz's walk north stops for him."""
    return playing(qtbot, in_sight_demo())


def xy(window: MainWindow, fid: str) -> tuple[float, float]:
    figure = window.play.game.battlefield.figure(fid)
    return (figure.x, figure.y)


def drag_to_rest(window: MainWindow, qtbot, path: list[tuple[float, float]]) -> GroupDrag:  # type: ignore[no-untyped-def]
    """Press Shift on the Leader, move along ``path`` and wait for the pointer's rest."""
    send(window.view, QEvent.Type.MouseButtonPress, *path[0], LEFT, LEFT, SHIFT)
    for x, y in path[1:]:
        send(window.view, QEvent.Type.MouseMove, x, y, NONE, LEFT, SHIFT)
    group = window.play.move_tool.group
    assert group is not None
    qtbot.waitUntil(group.fresh)
    return group


def shown(window: MainWindow, group: GroupDrag) -> dict[str, tuple[float, float]]:
    """Where the table shows each member now (its picture), by id."""
    out = {}
    for fid in group.members:
        item = window.play.scene.figure_item(fid)
        assert item is not None
        out[fid] = (item.pos().x(), item.pos().y())
    return out


def drop(window: MainWindow, at: tuple[float, float]) -> None:
    send(window.view, QEvent.Type.MouseButtonRelease, *at, LEFT, NONE, SHIFT)


def test_a_member_whose_spot_is_taken_is_shown_part_way_and_dropped_there(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    game = window.play.game
    assert window.play.session.play(Prone("p2")) is None  # Diaz lies down: he stays
    window.view.zoom_by(2.2)  # close enough to see the bases (the view stays zoomed)
    window.view.centerOn(15.0, 30.0)
    qtbot.wait(20)
    before = {f: xy(window, f) for f in MEMBERS}
    hash_before = game.state_hash()
    path = [(17.0, 32.0), (16.0, 32.0), (15.0, 32.0), (14.5, 32.0)]  # 2.5" west
    group = drag_to_rest(window, qtbot, path)
    plan = group.plan
    assert plan is not None
    entries = plan.by_figure()
    assert entries["p2"].stays and "stand up first" in (entries["p2"].refused or "")
    mace = entries["p1"]
    assert mace.part_way and "Cpl. Diaz's base" in (mace.refused or "")
    expected = shown(window, group)
    assert expected["p2"] == pytest.approx(before["p2"])  # a member that stays is not moved
    dx, dy = group._shift
    assert mace.end is not None and expected["p1"] == pytest.approx(mace.end, abs=0.011)
    # the nearest legal place to his own, within 4" of the others (6.2)
    assert math.dist(mace.end, (before["p1"][0] + dx, before["p1"][1] + dy)) <= 3.6
    assert expected["p5"] == pytest.approx((before["p5"][0] + dx, before["p5"][1] + dy), abs=0.011)
    assert group.rest_lines["p1"].isVisible()  # the way on to his place, not walked
    text = group.label.text() if group.label else ""
    assert "Sgt. Mace moves to" in text and "near its place" in text
    assert text.count("Sgt. Mace") == 1  # one line per member, never two
    assert game.state_hash() == hash_before  # the plan played nothing
    window.view.viewport().repaint()
    image = window.grab()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert image.save(str(SHOTS / "play-group-part-way.png"))
    sent = plan.moves()
    drop(window, path[-1])
    for fid in MEMBERS:  # the drop put every member where the preview showed it
        assert xy(window, fid) == pytest.approx(expected[fid], abs=0.011), fid
    played = [str(s.action) for s in game.history[-len(sent) :]]
    assert played == [str(m) for m in sent]
    moved, stayed = window.play.move_tool.last_group or ([], [])
    assert "Sgt. Mace (part way)" in moved and len(moved) == 4
    assert len(stayed) == 1 and stayed[0].startswith("Cpl. Diaz stays")


def test_the_interrupted_group_is_shown_where_the_drop_leaves_it(
    sighted: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    window = sighted
    path = [(17.0, 32.0), (17.0, 30.5), (17.0, 29.0), (17.0, 27.0)]  # 5" north: an In Sight
    group = drag_to_rest(window, qtbot, path)
    plan = group.plan
    assert plan is not None and plan.stopper is not None and plan.waiting
    expected = shown(window, group)
    for fid in plan.waiting:  # the ones after the interrupt: shown where they stand
        assert expected[fid] == group.origins[fid]
    assert expected[plan.stopper.figure] == plan.stopper.preview.end
    drop(window, path[-1])
    assert window.play.game.awaiting().kind == "free_move"
    for fid in MEMBERS:
        assert xy(window, fid) == pytest.approx(expected[fid], abs=0.011), fid


def test_nothing_moves_when_the_plan_is_of_the_last_offset(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The release sends the plan made at the rest, not a second judgement of its own."""
    path = [(17.0, 32.0), (17.0, 33.0), (17.0, 34.0)]
    group = drag_to_rest(window, qtbot, path)
    plan = group.plan
    assert plan is not None and group.planned(*group._shift) is plan
    drop(window, path[-1])
    moved, stayed = window.play.move_tool.last_group or ([], [])
    assert len(moved) == 5 and not stayed


def test_a_leader_who_left_the_table_is_not_dragged_and_takes_no_group_along(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    # the GUI monkey's seed 530: Sgt. Mace exits by the near edge, then a Shift-drag on
    # where he left started a group drag without him (KeyError in its formation order)
    from crdesk.game.actions import Action

    window.play.session.play(Action.parse("exit p1"))
    game = window.play.game
    assert not game.battlefield.figure("p1").status.can_act
    assert "p1" not in window.play.move_tool.movable()
    assert "p2" in window.play.move_tool.movable()
    steps = len(game.history)
    at = xy(window, "p1")
    send(window.view, QEvent.Type.MouseButtonPress, *at, LEFT, LEFT, SHIFT)
    for k in range(1, 4):
        send(window.view, QEvent.Type.MouseMove, at[0] + k, at[1] - k, NONE, LEFT, SHIFT)
    assert window.play.move_tool.group is None
    drop(window, (at[0] + 3, at[1] - 3))
    assert len(game.history) == steps
    assert xy(window, "p1") == at
