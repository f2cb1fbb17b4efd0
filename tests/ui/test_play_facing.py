"""Facing on the table (issue 31, Deliver 5): every figure's front at a glance, the Arcs
toggle, and the hover card saying what a figure cannot see behind it (LOS 7.9.4)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QKeySequence, QPainter, QPainterPath
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem, QToolTip

from crdesk.game import GameSettings
from crdesk.game.actions import Move
from crdesk.model import Scenario
from tests.ui import windows
from tests.ui.mouse import send
from ui.main_window import MainWindow
from ui.play.markers import ARC_INCHES, ARCS_Z, StatusMarkers, front_arc
from ui.scene.items import FigureItem, front_arrow
from ui.scene.layers import Layer

PPI = 23.0
"""The zoom the front must read at: a 1" base is 23 pixels across."""
FACINGS = (0, 45, 90, 135, 180, 225, 270, 315, 20)
"""One facing per figure of the demo (p1-p5, e1-e4): every way round, friend and enemy."""


def turned() -> Scenario:
    """The demo with its nine figures facing every way round."""
    scenario = windows.demo()
    for facing, figure in zip(FACINGS, scenario.battlefield.figures(), strict=True):
        figure.facing = facing
    return scenario


def with_shiv_behind() -> Scenario:
    """The demo with Shiv (e4) 2" behind Cpl. Diaz (p2, facing north at (14.5, 31.5))."""
    scenario = windows.demo()
    shiv = scenario.battlefield.figure("e4")
    shiv.x, shiv.y, shiv.facing = 14.5, 34.5, 0.0
    return scenario


def zoom_on_the_squad(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The view at 23 px/inch on Sgt. Mace's squad and the middle of the table."""
    view = window.view
    view.zoom_by(PPI / view.pixels_per_inch())
    view.centerOn(16.0, 24.0)
    qtbot.wait(10)
    assert view.pixels_per_inch() == pytest.approx(PPI)


def arc_path(window: MainWindow, fid: str) -> QPainterPath:
    """A figure's front arc as the Arcs toggle draws it: cut at the table's edge."""
    assert window.play.scene is not None and window.play.game is not None
    table = QPainterPath()
    table.addRect(window.play.scene.table_rect())
    return front_arc(window.play.game.fig(fid), ARC_INCHES).intersected(table)


def shoot_with_tooltip(  # type: ignore[no-untyped-def]
    window: MainWindow, qtbot, folder: Path, tip: str, at: tuple[float, float], name: str
) -> None:
    """The window at 23 px/inch with ``tip`` shown at table position ``at``, as one picture
    (the tooltip is a window of its own: it is painted over the window's grab)."""
    zoom_on_the_squad(window, qtbot)
    view = window.view
    spot = view.viewport().mapToGlobal(view.mapFromScene(QPointF(*at)))
    QToolTip.showText(spot, tip, view.viewport())
    label = next(w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel"))
    qtbot.waitUntil(label.isVisible)
    image = window.grab().toImage()
    painter = QPainter(image)
    painter.drawImage(window.mapFromGlobal(label.pos()), label.grab().toImage())
    painter.end()
    QToolTip.hideText()
    assert image.save(str(folder / name))
    windows.SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(str(windows.SHOTS / name))


def markers(window: MainWindow) -> StatusMarkers:
    assert window.play.markers is not None
    return window.play.markers


def render(item: FigureItem, ppi: float = PPI) -> tuple[QImage, float]:
    """The figure alone on a clear image at ``ppi``, centred; and the centre in pixels."""
    half = math.ceil(2.0 * ppi)
    image = QImage(2 * half, 2 * half, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(half, half)
    painter.scale(ppi, ppi)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image, float(half)


def light_pixels(image: QImage, centre: float, facing: float, r: float, ppi: float) -> int:
    """Opaque light pixels outside the base's rim within 40° of ``facing``."""
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            dx, dy = (x + 0.5 - centre) / ppi, (y + 0.5 - centre) / ppi
            dist = math.hypot(dx, dy)
            if not r * 1.02 < dist < r * 2.0:
                continue
            bearing = math.degrees(math.atan2(dx, -dy)) % 360.0
            if abs((bearing - facing + 180.0) % 360.0 - 180.0) > 40.0:
                continue
            colour = image.pixelColor(x, y)
            if colour.alpha() > 200 and colour.lightnessF() > 0.75:
                count += 1
    return count


def test_every_figure_shows_its_front_past_the_rim_at_23_px_per_inch(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window = windows.playing(qtbot, turned())
    scene = window.play.scene
    assert scene is not None
    game = window.play.game
    assert game is not None
    sides = set()
    for figure in game.battlefield.figures():
        item = scene.figure_item(figure.id)
        assert item is not None and item.facing() == figure.facing
        image, centre = render(item)
        ahead = light_pixels(image, centre, figure.facing, figure.radius, PPI)
        behind = light_pixels(image, centre, figure.facing + 180.0, figure.radius, PPI)
        # an arrowhead of a dozen light pixels stands out of the base ahead; none behind
        assert ahead >= 12 and behind == 0, (figure.id, ahead, behind)
        sides.add(figure.side)
    assert len(sides) == 2  # friend and enemy alike
    # the arrow keeps clear of the Rep number at the centre (0.42" tall on a 1" base)
    r = 0.5
    assert min(math.hypot(p.x(), p.y()) for p in front_arrow(r)) > 0.8 * r
    windows.screenshot(window, tmp_path, "facing-fit.png")
    zoom_on_the_squad(window, qtbot)
    windows.screenshot(window, tmp_path, "facing-23ppi.png")


def test_the_arcs_toggle_draws_every_figures_front_and_follows_moves(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window = windows.playing(qtbot, turned())
    action = window.play.action_arcs
    marks = markers(window)
    game = window.play.game
    assert game is not None and window.play.scene is not None
    # off by default, on the Game menu with Shift+A, a key no other action takes
    assert action.isCheckable() and not action.isChecked() and action.isEnabled()
    assert not marks.arc_items()
    assert action in window.play.menu.actions()
    assert action.shortcut() == QKeySequence("Shift+A")
    taken = [a for a in window.findChildren(type(action)) if a.shortcut() == action.shortcut()]
    assert taken == [action]
    action.setChecked(True)
    arcs = marks.arc_items()
    able = {f.id: f for f in game.battlefield.figures() if f.status.can_act}
    assert set(arcs) == set(able) and len(able) == 9
    colours = {force.id: QColor(force.colour) for force in game.battlefield.forces}
    for fid, item in arcs.items():
        figure = able[fid]
        assert item.scene() is window.play.scene
        assert item.zValue() == ARCS_Z < Layer.FIGURES  # under the figures, never over them
        assert item.path() == arc_path(window, fid)
        rad = math.radians(figure.facing)
        ahead = QPointF(figure.x + 2 * math.sin(rad), figure.y - 2 * math.cos(rad))
        behind = QPointF(figure.x - 2 * math.sin(rad), figure.y + 2 * math.cos(rad))
        assert item.path().contains(ahead) and not item.path().contains(behind)
        side = colours[figure.side]
        assert item.brush().color().rgb() == side.rgb() and item.brush().color().alpha() < 60
    zoom_on_the_squad(window, qtbot)
    windows.screenshot(window, tmp_path, "facing-arcs.png")
    # a move: the mover's arc follows it (and only the arcs of those who moved are redrawn)
    session = window.play.session
    assert session is not None
    diaz = game.fig("p2")
    start = (diaz.x, diaz.y)
    assert session.play(Move("p2", ((diaz.x - 1.5, diaz.y),), facing=90.0)) is None
    qtbot.waitUntil(lambda: not marks.stale())
    arcs = marks.arc_items()
    diaz = game.fig("p2")
    assert (diaz.x, diaz.y) != start
    assert arcs["p2"].path() == arc_path(window, "p2")
    for fid, item in arcs.items():
        assert item.path() == arc_path(window, fid), fid
    # off: every arc leaves the table; the selected figure's own arc is not one of them
    marks.select("p1")
    action.setChecked(False)
    assert not marks.arc_items()
    assert all(item.scene() is None for item in arcs.values())
    assert marks.arc_item() is not None


def test_the_hover_card_says_which_way_a_figure_faces_and_who_is_behind_it(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window = windows.playing(qtbot, with_shiv_behind())
    marks = markers(window)
    scene = window.play.scene
    assert scene is not None
    assert marks.facing_note("p2") == "Cpl. Diaz faces north: cannot see Shiv (behind him)"
    assert marks.facing_note("e1") == 'Viper boss faces south: no enemy within 12" behind him'
    # the pointer comes over Cpl. Diaz: his tooltip is the card with the note
    diaz = scene.figure_item("p2")
    assert diaz is not None
    assert "Faces north (350°)" in diaz.toolTip()  # until hovered: the facing in words
    send(
        window.view,
        QEvent.Type.MouseMove,
        14.5,
        31.5,
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
    )
    qtbot.waitUntil(lambda: "cannot see Shiv (behind him)" in diaz.toolTip())
    assert "Cpl. Diaz faces north: cannot see Shiv (behind him)" in diaz.toolTip()
    assert diaz.toolTip().startswith("<b>Cpl. Diaz</b>")
    shoot_with_tooltip(window, qtbot, tmp_path, diaz.toolTip(), (14.5, 31.5), "facing-hover.png")
    # Pvt. Lind, beside him, turns his back on Shiv too; Shiv himself sees them all
    assert marks.facing_note("p4") == "Pvt. Lind faces north: cannot see Shiv (behind him)"
    assert marks.facing_note("e4") == 'Shiv faces north: no enemy within 12" behind him'
    # leaving play mode: the editor's figures say their facing only
    assert window.play.stop()
    assert scene.figure_note is None


def test_a_pef_behind_a_figure_is_named_in_its_card(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The issue's case: a PEF 1.5" behind a figure that faces away is never found (11.3)."""
    window = windows.open_window(qtbot)
    settings = GameSettings(solo=True, max_turns=3)
    assert window.play.start(5, {"enemy"}, settings)
    window.play.run_program()
    game = window.play.game
    assert game is not None
    diaz = game.fig("p2")
    pef = next(p for p in game.state["pefs"] if not p["resolved"])
    pef["x"], pef["y"] = diaz.x, diaz.y + diaz.radius + 1.5
    name = f"PEF {pef['id'][3:]}"
    assert (
        markers(window).facing_note("p2")
        == f"Cpl. Diaz faces north: cannot see {name} (behind him)"
    )


@pytest.mark.parametrize("facing", [0.0, 90.0, 200.0])
def test_the_front_turns_with_a_previewed_facing(qtbot, facing: float) -> None:  # type: ignore[no-untyped-def]
    window = windows.playing(qtbot)
    scene = window.play.scene
    assert scene is not None
    item = scene.figure_item("p1")
    assert item is not None
    item.set_preview_facing(facing)
    image, centre = render(item)
    assert light_pixels(image, centre, facing, 0.5, PPI) >= 12
    assert light_pixels(image, centre, facing + 180.0, 0.5, PPI) == 0
    item.set_preview_facing(None)


def test_the_fronts_go_with_a_dragged_figure_and_the_toggle_is_remembered(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Dragging a figure carries its front arcs (the Arcs toggle's and the selected
    one's); a drop that plays nothing puts them back; the toggle is kept for next time."""
    from tests.ui.mouse import LEFT, NONE

    window = windows.playing(qtbot)
    window.play.action_arcs.setChecked(True)
    marks = markers(window)
    game = window.play.game
    assert game is not None
    mace = game.fig("p1")
    start = (mace.x, mace.y)
    view = window.view
    window.play.move_tool.select("p1")  # chosen: its own (dashed) front is drawn too
    send(view, QEvent.Type.MouseButtonPress, *start)
    for k in (1, 2, 3):
        send(view, QEvent.Type.MouseMove, start[0] + k, start[1] + 0.5 * k, NONE, LEFT)
    arcs = marks.arc_items()
    item = window.play.scene.figure_item("p1")
    moved = item.pos() - QPointF(*start)  # where the drag has the figure (to the pixel)
    assert moved.x() == pytest.approx(3.0, abs=0.1) and moved.y() == pytest.approx(1.5, abs=0.1)
    assert arcs["p1"].pos() == moved  # carried with the figure
    assert marks.arc_item() is not None and marks.arc_item().pos() == moved
    assert arcs["p2"].pos() == QPointF(0.0, 0.0)  # the others stay
    zoom_on_the_squad(window, qtbot)
    windows.screenshot(window, tmp_path, "facing-arcs-drag.png")
    window.play.move_tool.cancel()  # Esc: nothing played
    assert marks.arc_items()["p1"].pos() == QPointF(0.0, 0.0)
    assert (game.fig("p1").x, game.fig("p1").y) == start
    again = windows.playing(qtbot)  # a new window, a new game: Arcs as left
    assert again.play.action_arcs.isChecked()
    again.play.action_arcs.setChecked(False)
    assert not windows.playing(qtbot).play.action_arcs.isChecked()
