"""Table marks in play mode: group rings and the Leader, PEF tokens, and the hand-over banner."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from crdesk.ai.policy import BookPolicy
from crdesk.game import CHANCE, GameSettings
from crdesk.model import Status
from tests.ui import windows
from ui.main_window import MainWindow
from ui.play.banner import TOP_MARGIN, HandOverBanner, possessive
from ui.play.markers import LEADER, StatusMarkers, assign_colours

SHOTS = Path("/tmp/crdesk-shots")
SEED = 1
"""Seed 1: Sgt. Mace's squad (p1..p4) decides first."""
PEF_SEED = 5
"""Seed 5, solo: a PEF moves and one is resolved within a dozen steps."""


def open_window(  # type: ignore[no-untyped-def]
    qtbot, program: set[str] | None = None, settings=None, seed: int = SEED
) -> MainWindow:
    """The demo window with a game started (the program's steps not yet run)."""
    window = windows.open_window(qtbot)
    assert window.play.start(seed, program, settings)
    return window


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    window.play.run_program()
    return window


def markers(window: MainWindow) -> StatusMarkers:
    assert window.play.markers is not None
    return window.play.markers


def hue_gap(a: QColor, b: QColor) -> float:
    d = abs(a.hsvHueF() - b.hsvHueF()) * 360.0
    return min(d, 360.0 - d)


# -- group rings and the Leader ---------------------------------------------------------------


def test_each_group_wears_its_own_ring_colour_and_its_leader_a_mark(window: MainWindow) -> None:
    game = window.play.game
    groups = game.summary()["groups"]
    assert len(groups) >= 3  # the demo: Mace's squad, a lone figure or two, the Vipers
    marks = markers(window)
    colours = []
    for group in groups:
        rings = [marks.ring(fid) for fid in group["members"]]
        assert all(r is not None and r.scene() is window.play.scene for r in rings)
        looks = {r.colour.name() for r in rings if r is not None}
        assert len(looks) == 1, f"one colour per group: {group['members']} wear {looks}"
        colours.append(looks.pop())
        for fid in group["members"]:
            figure = game.battlefield.figure(fid)
            ring = marks.ring(fid)
            assert ring is not None and (ring.pos().x(), ring.pos().y()) == (figure.x, figure.y)
            is_leader = fid == group["leader"] and len(group["members"]) > 1
            assert (LEADER in marks.kinds(fid)) == is_leader, fid
        if len(group["members"]) > 1:
            mark = marks.leader_mark(group["leader"])
            assert mark is not None and "Leader" in mark.toolTip()
            assert mark.flags() & mark.GraphicsItemFlag.ItemIgnoresTransformations
    assert len(set(colours)) == len(colours), "two groups share a ring colour"
    for force in game.battlefield.forces:
        side = QColor(force.colour)
        assert all(hue_gap(QColor(c), side) >= 28 for c in colours), (force.colour, colours)


def test_a_figure_leaving_its_group_gets_a_new_colour_and_the_group_keeps_its_own(
    window: MainWindow,
) -> None:
    marks = markers(window)
    game = window.play.game
    squad = next(g for g in game.summary()["groups"] if "p1" in g["members"])
    assert "p4" in squad["members"] and len(squad["members"]) >= 3
    ring = marks.ring("p1")
    assert ring is not None
    before = ring.colour.name()
    game.battlefield.update_figure("p4", x=33.0, y=33.0)  # far from everyone
    after = next(g for g in game.summary()["groups"] if "p4" in g["members"])
    assert after["members"] == ["p4"]
    p1, p4 = marks.ring("p1"), marks.ring("p4")
    assert p1 is not None and p4 is not None
    assert p1.colour.name() == before, "the squad changed colour when one man left"
    assert p4.colour.name() != before
    assert (p4.pos().x(), p4.pos().y()) == (33.0, 33.0)
    assert marks.leader_mark("p4") is None  # a group of one needs no Leader mark


def test_out_of_the_fight_figures_wear_no_ring(window: MainWindow) -> None:
    game = window.play.game
    game.battlefield.update_figure("e2", status=Status.OUT_OF_THE_FIGHT)
    assert markers(window).ring("e2") is None
    assert markers(window).ring("e1") is not None


def test_colour_assignment_is_stable_and_never_shares_while_colours_last() -> None:
    groups = [
        {"side": "a", "leader": "a1", "members": ["a1", "a2", "a3"]},
        {"side": "a", "leader": "a4", "members": ["a4"]},
        {"side": "b", "leader": "b1", "members": ["b1", "b2"]},
    ]
    first = assign_colours(groups, {}, 6)
    assert len(set(first)) == 3
    previous = {m: c for g, c in zip(groups, first, strict=True) for m in g["members"]}
    # a3 joins a4: a1's group keeps its colour, the new pair takes a4's
    moved = [
        {"side": "a", "leader": "a1", "members": ["a1", "a2"]},
        {"side": "a", "leader": "a3", "members": ["a3", "a4"]},
        {"side": "b", "leader": "b1", "members": ["b1", "b2"]},
    ]
    again = assign_colours(list(reversed(moved)), previous, 6)[::-1]
    assert again[0] == first[0] and again[2] == first[2]
    assert again[1] not in (first[0], first[2])


# -- PEFs (solo) -----------------------------------------------------------------------------


def test_pef_tokens_stand_on_the_pefs_move_with_them_and_vanish_when_resolved(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, {"enemy"}, GameSettings(solo=True, max_turns=3), seed=PEF_SEED)
    session = window.play.session
    assert session is not None
    layer = markers(window).pefs
    game = session.game
    moved = resolved = False
    policy = BookPolicy()
    spots: dict[str, tuple[float, float]] = {}
    for _ in range(60):
        assert window.play.animator is not None
        window.play.animator.finish()  # a PEF's token walks to its spot while the step shows
        pefs = game.summary()["pefs"]
        tokens = layer.tokens()
        assert set(tokens) == {p["id"] for p in pefs}
        for pef in pefs:
            token = tokens[pef["id"]]
            assert token.scene() is window.play.scene
            assert (token.pos().x(), token.pos().y()) == pytest.approx((pef["x"], pef["y"]))
            assert token.label == f"PEF {pef['id'][3:]}" and pef["id"] in token.toolTip()
            if pef["id"] in spots and spots[pef["id"]] != (pef["x"], pef["y"]):
                moved = True
        resolved = resolved or any(pid not in {p["id"] for p in pefs} for pid in spots)
        spots = {p["id"]: (p["x"], p["y"]) for p in pefs}
        if moved and resolved:
            break
        decision = game.awaiting()
        if decision is None:
            break
        if session.is_program_turn():
            session.run_program_step()
        else:
            action, _why = policy.decide(game, decision)
            assert session.play(action) is None
    assert moved and resolved
    assert any("Last move" in t.toolTip() for t in layer.tokens().values()) or not layer.tokens()


def test_no_pef_layer_items_outside_solo_games(window: MainWindow) -> None:
    assert markers(window).pefs.tokens() == {}


# -- the hand-over banner ----------------------------------------------------------------------


def banner(window: MainWindow) -> HandOverBanner:
    assert window.play.banner is not None
    return window.play.banner


def play_until_active_side_changes(window: MainWindow) -> str:
    """Play the book's choices for both people until another side is active."""
    session = window.play.session
    assert session is not None
    game = session.game
    start = game.summary()["active_side"]
    policy = BookPolicy()
    for _ in range(300):
        side = game.summary()["active_side"]
        if side is not None and side != start:
            return str(side)
        decision = game.awaiting()
        assert decision is not None
        if session.is_program_turn():
            session.run_program_step()
        else:
            action, _why = policy.decide(game, decision)
            assert session.play(action) is None
    raise AssertionError("the active side never changed")


def test_hot_seat_banner_on_a_side_change_fades_by_itself(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, set())  # both sides played at this screen
    session = window.play.session
    assert session is not None
    game = session.game
    band = banner(window)
    band.hold_ms = band.fade_ms = 60
    if game.awaiting() is not None and game.awaiting().actor == CHANCE:
        session.run_program()
    first = game.summary()["active_side"]
    assert first is not None and band.is_showing() and band.side == first
    name = session.side_name(first)
    assert band.text == f"{possessive(name)} activation" and not band.compact
    assert "hand over" in band.subtitle
    assert window.play.turn_dock.decider.text().endswith("to decide")
    qtbot.waitUntil(lambda: not band.isVisible(), timeout=2000)
    other = play_until_active_side_changes(window)
    assert window.play.animator is not None
    window.play.animator.finish()  # the hand-over waits until the table has shown the step
    assert band.isVisible() and band.side == other
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-banner.png"))
    assert band.text == f"{possessive(session.side_name(other))} activation"
    assert (
        window.play.turn_dock.decider.text()
        == f"{session.side_name(game.awaiting().actor)} to decide"
    )


def test_hot_seat_banner_when_the_other_side_must_decide(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, set())
    session = window.play.session
    assert session is not None
    game = session.game
    band = banner(window)
    policy = BookPolicy()
    for _ in range(20):  # seed 1: a Viper's Duck Back spot in the squad's activation
        decision = game.awaiting()
        assert decision is not None
        if decision.actor not in (CHANCE, game.summary()["active_side"]):
            break
        shown = band.shown_count
        assert session.play(policy.decide(game, decision)[0]) is None
        assert window.play.animator is not None
        window.play.animator.finish()  # the hand-over waits until the table shows the step
    else:
        raise AssertionError("the inactive side never had to decide")
    vipers = session.side_name(decision.actor)
    assert band.shown_count == shown + 1 and band.is_showing()
    assert band.text == f"{vipers} to decide" and band.side == decision.actor
    assert window.play.turn_dock.decider.text() == f"{vipers} to decide"
    assert session.play(policy.decide(game, decision)[0]) is None
    window.play.animator.finish()
    back = game.awaiting()
    assert back is not None and back.actor == game.summary()["active_side"]
    assert band.text == f"{session.side_name(back.actor)} to decide"


class Presses(QObject):
    """Counts the mouse presses a widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress:
            self.count += 1
        return False


def test_a_click_on_the_banner_reaches_the_table_and_fades_it(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    band = banner(window)
    band.announce("player", activation=True)
    assert band.is_showing()
    viewport = window.view.viewport()
    centre = band.geometry().center()
    assert viewport.childAt(centre) is None, "the banner would catch the mouse"
    presses = Presses()
    viewport.installEventFilter(presses)
    # through the window, as a real click is routed: to the widget under the pointer
    handle = window.windowHandle()
    QTest.mouseClick(handle, Qt.MouseButton.LeftButton, pos=viewport.mapTo(window, centre))
    viewport.removeEventFilter(presses)
    assert presses.count == 1, "the click did not reach the table under the banner"
    assert not band.isVisible()
    band.announce("player", activation=True)
    QTest.keyClick(window.view, Qt.Key.Key_Shift)
    assert not band.isVisible()


def test_the_banner_goes_when_the_encounter_is_over(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = window.play.session
    assert session is not None
    band = banner(window)
    band.announce("player", activation=True)
    assert band.is_showing()
    monkeypatch.setattr(session, "awaiting", lambda: None)  # as after the last step
    session.changed.emit()
    assert not band.isVisible()


def test_without_a_hand_over_the_banner_is_a_slim_strip_at_the_top(window: MainWindow) -> None:
    session = window.play.session
    assert session is not None and "enemy" in session.program
    band = banner(window)
    band.announce("enemy", activation=True)
    assert band.compact and band.subtitle == "played by the program"
    geometry = band.geometry()
    assert geometry.top() <= TOP_MARGIN + 1 and geometry.height() < 40
    assert geometry.bottom() < window.view.viewport().height() * 0.1
    band.announce("player", activation=True)  # one person against the program: no hand-over
    assert band.compact and band.subtitle.startswith("turn ")
    assert band.geometry().bottom() < window.view.viewport().height() * 0.1


# -- screenshots ---------------------------------------------------------------------------------


def test_screenshot_of_rings_leaders_and_pefs(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, {"enemy"}, GameSettings(solo=True, max_turns=3), seed=PEF_SEED)
    session = window.play.session
    assert session is not None
    game, policy = session.game, BookPolicy()
    while not any(e.kind == "pef_resolved" and e.step > 1 for e in game.events):
        decision = game.awaiting()
        assert decision is not None
        if session.is_program_turn():
            session.run_program_step()
        else:
            assert session.play(policy.decide(game, decision)[0]) is None
    assert markers(window).pefs.tokens()
    band = banner(window)
    band.dismiss(at_once=True)
    assert not band.isVisible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-marks.png"))
