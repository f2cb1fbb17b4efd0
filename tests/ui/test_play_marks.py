"""Table marks in play mode: group rings and the Leader, PEF tokens, and the hand-over banner."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QColor, QHelpEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip, QWidget

from crdesk.ai.policy import BookPolicy
from crdesk.game import CHANCE, GameSettings
from crdesk.model import Scenario, Status
from tests.ui import windows
from ui.main_window import MainWindow
from ui.play.banner import TOP_MARGIN, HandOverBanner, possessive
from ui.play.markers import LEADER, StatusMarkers

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


def ring_colours(window: MainWindow) -> dict[str, str | None]:
    """Each figure's ring colour on the table (None: no ring)."""
    marks = markers(window)
    rings = {f.id: marks.ring(f.id) for f in window.play.game.battlefield.figures()}
    return {fid: ring.colour.name() if ring is not None else None for fid, ring in rings.items()}


def test_a_group_keeps_its_colour_while_it_keeps_its_leader_and_after_a_reload(
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    window = windows.playing(qtbot)  # seed 1: Sgt. Mace's squad is active
    game = window.play.game
    before = ring_colours(window)
    assert len({before[f] for f in ("p1", "p2", "p3", "p4", "p5")}) == 1
    # Sgt. Mace walks away from his squad: it falls apart into three groups
    assert window.play.session.play("move p1 17,25") is None
    groups = {g["leader"]: g["members"] for g in game.summary()["groups"]}
    assert groups["p1"] == ["p1"] and groups["p2"] == ["p2", "p4"] and groups["p3"] == ["p3", "p5"]
    after = ring_colours(window)
    assert after["p1"] == before["p1"], "the group that kept its Leader changed colour"
    assert {after[f] for f in ("e1", "e2", "e3", "e4")} == {
        before[f] for f in ("e1", "e2", "e3", "e4")
    }
    shown = [after[leader] for leader in groups]
    assert len(set(shown)) == len(shown), f"two groups share a colour: {after}"
    # the colours are the game's, not the window's memory: a reload shows the same
    path = tmp_path / "split.crgame"
    assert window.play.save_to(path) and window.play.open_file(path)
    assert ring_colours(window) == after


def crowd() -> Scenario:
    """The demo with every figure on its own and more of them: 7 groups of the squad's
    side along the near edge, 7 of the Vipers' along the far edge (14: more than there
    are ring colours)."""
    scenario = windows.demo()
    bf = scenario.battlefield
    template = {
        side: next(f for f in bf.figures() if f.side == side) for side in ("player", "enemy")
    }
    for side, prefix, count in (("player", "p", 7), ("enemy", "e", 7)):
        have = [f.id for f in bf.figures() if f.side == side]
        for k in range(len(have) + 1, count + 1):
            bf.add_figure(side, replace(template[side], id=f"{prefix}{k}", name=f"{prefix}{k}"))
        y = 34.5 if side == "player" else 1.5
        for k in range(count):
            bf.update_figure(f"{prefix}{k + 1}", x=1.5 + 5.5 * k, y=y)
    return scenario


def test_friend_and_foe_never_share_a_ring_colour(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = windows.open_window(qtbot, crowd())
    assert window.play.start(SEED)
    game = window.play.game
    groups = game.summary()["groups"]
    assert len(groups) == 14 and all(len(g["members"]) == 1 for g in groups)
    colours = ring_colours(window)
    worn = {
        side: [colours[f.id] for f in game.battlefield.figures() if f.side == side]
        for side in ("player", "enemy")
    }
    assert not set(worn["player"]) & set(worn["enemy"]), worn
    for side, names in worn.items():  # a side's colours are all used before one is shared
        assert len(set(names)) >= min(len(names), 4), (side, names)
    for force in game.battlefield.forces:
        side = QColor(force.colour)
        for name in set(colours.values()):
            colour = QColor(name)
            assert colour.hsvSaturationF() < 0.25 or hue_gap(colour, side) >= 28, (name, force)


def test_the_turn_dock_and_the_context_menu_show_the_ring_colours(qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.test_play_moves import right_click

    window = windows.open_window(qtbot, crowd())
    windows.start(window, SEED)
    marks = markers(window)
    dock = window.play.turn_dock
    groups = dock.view.groups if dock.view is not None else []
    assert [g.leader for g in groups] == ["p1", "p6", "p7"]  # the groups that may activate
    for group, swatch in zip(groups, dock.group_swatches, strict=True):
        ring = marks.ring(group.leader)
        assert ring is not None and swatch.property("ring") == ring.colour.name(), group.leader
        assert swatch.isVisible() and not swatch.pixmap().isNull()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert dock.grab().save(str(SHOTS / "play-turn-group-colours.png"))
    # the figure's menu has its name beside its group's colour
    windows.activate(window, qtbot, "p6")
    figure = window.play.game.battlefield.figure("p6")
    menu = right_click(window, figure.x, figure.y)
    title = menu.actions()[0]
    ring = marks.ring("p6")
    assert ring is not None and title.data() == ring.colour.name()
    assert not title.icon().isNull() and title.text() == "p6"
    assert menu.grab().save(str(SHOTS / "play-menu-group-colour.png"))
    menu.close()


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


SHIV_BY_PEF_2 = (30.5, 18.4)
"""Shiv (e4) stands where PEF 2 is placed (30, 18) with seed 5: half under its token."""


def pef_window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    """A solo game (seed 5) with Shiv standing beside PEF 2."""
    scenario = windows.demo()
    scenario.battlefield.update_figure("e4", x=SHIV_BY_PEF_2[0], y=SHIV_BY_PEF_2[1])
    window = windows.open_window(qtbot, scenario)
    assert window.play.start(PEF_SEED, {"enemy"}, GameSettings(solo=True, max_turns=3))
    window.play.run_program()
    assert window.play.banner is not None
    window.play.banner.dismiss(at_once=True)
    return window


def tooltip_at(window: MainWindow, x: float, y: float) -> tuple[str, QWidget | None]:
    """The tooltip the table shows when the pointer rests at table position (x, y),
    and the label showing it."""
    viewport = window.view.viewport()
    pos = window.view.mapFromScene(QPointF(x, y))
    QApplication.sendEvent(
        viewport, QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
    )
    label = next(
        (w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel") and w.isVisible()),
        None,
    )
    return QToolTip.text(), label


def test_a_figure_beside_a_pef_is_drawn_over_it_and_answers_the_pointer(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = pef_window(qtbot)
    token = markers(window).pefs.tokens()["pef2"]
    scene = window.play.scene
    assert scene is not None
    shiv = scene.figure_item("e4")
    assert shiv is not None and token.isVisible()
    view = window.view
    at_shiv = view.mapFromScene(QPointF(*SHIV_BY_PEF_2))
    top = next(i for i in view.items(at_shiv) if i is token or i is shiv)
    assert top is shiv, "the PEF token covers the figure"
    assert view.itemAt(at_shiv) is not token  # a press there does not land on the token
    # drawn: the figure's base looks the same with the token there and without it
    with_token = view.grab().toImage()
    token.hide()
    without = view.grab().toImage()
    token.show()
    r = int(0.35 * window.play.game.battlefield.figure("e4").base * view.pixels_per_inch())
    differs = [
        (dx, dy)
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
        if dx * dx + dy * dy <= r * r
        and with_token.pixel(at_shiv.x() + dx, at_shiv.y() + dy)
        != without.pixel(at_shiv.x() + dx, at_shiv.y() + dy)
    ]
    assert not differs, f"the token is drawn over the figure at {len(differs)} pixels"
    # the pointer on the figure: its tooltip; beside it on the token: the PEF's
    text, _label = tooltip_at(window, *SHIV_BY_PEF_2)
    assert "Shiv" in text and "PEF" not in text
    text, _label = tooltip_at(window, 29.45, 17.8)
    assert "PEF 2" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-figure-beside-pef.png"))


def test_the_pef_tooltip_is_a_paragraph(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = pef_window(qtbot)
    token = markers(window).pefs.tokens()["pef1"]
    text, label = tooltip_at(window, token.pos().x(), token.pos().y())
    assert "PEF 1" in text and "resolved when a player figure sees it" in text
    assert label is not None and label.width() <= 380, f"a tooltip {label.width()} px wide"
    assert label.height() > 4 * label.fontMetrics().height()  # several lines, wrapped
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert label.grab().save(str(SHOTS / "play-pef-tooltip.png"))


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
