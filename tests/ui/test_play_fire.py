"""Shooting, charging and throwing from the table: fire dialog, charge odds, blast circle.

The skirmish of :func:`tests.game.test_adapter.skirmish`: Sgt. Mace (Rep 5, AR) at the
near edge; the Viper boss and Knuckles side by side 8" off, in one 3" arc of fire; Shiv
5" away (in charge and grenade range); Dice far out.  Real mouse and key events on the
real widgets; the program's side is run deterministically (``autoplay`` off).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QWidget

from crdesk.game import adapter
from crdesk.odds import charge_odds, fire_odds, throw_odds
from crdesk.tables import ChargeResult, GrenadeThrow
from tests.game.test_adapter import SEED_PLAYER_FIRST, skirmish
from tests.ui.mouse import NONE, click, send
from tests.ui.windows import playing
from ui.main_window import MainWindow
from ui.play.fire_preview import pct

SHOTS = Path("/tmp/crdesk-shots")
MACE = (12.0, 20.0)
BOSS = (11.0, 11.0)
KNUCKLES = (13.0, 11.5)
SHIV = (16.5, 16.0)
DICE = (21.0, 4.0)
CTRL = Qt.KeyboardModifier.ControlModifier


SIZE = (1300, 850)


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot, skirmish(), seed=SEED_PLAYER_FIRST, size=SIZE)


def hover(window: MainWindow, x: float, y: float, modifiers=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    send(window.view, QEvent.Type.MouseMove, x, y, NONE, NONE, modifiers)


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def type_dice(qtbot, spin, dice: int) -> None:  # type: ignore[no-untyped-def]
    """Type a number into a spin box as a person does: focus, select all, type."""
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(spin, str(dice))


def paste(base: QImage, window: MainWindow, *widgets: QWidget) -> QImage:
    """The window's picture with top-level pop-ups (dialog, tooltip) painted where they are."""
    out = QImage(base)
    painter = QPainter(out)
    origin = window.mapToGlobal(QPoint(0, 0))
    for widget in widgets:
        if widget is not None and widget.isVisible():
            painter.drawImage(widget.mapToGlobal(QPoint(0, 0)) - origin, widget.grab().toImage())
    painter.end()
    return out


def tooltip() -> QWidget | None:
    for widget in QApplication.topLevelWidgets():
        if widget.inherits("QTipLabel") and widget.isVisible():
            return widget
    return None


# -- the fire dialog --------------------------------------------------------------------------


def test_the_odds_of_a_star_target_count_its_star_power(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The Viper boss is a Rep 5 Star with three Star Power dice: the dialog's odds of
    taking it out are those after Star Power and Larger Than Life (5.2), not a Rep 5
    Grunt's."""
    scenario = skirmish()
    scenario.battlefield.update_figure("e1", role="star", rep=5, star_power=3)
    window = playing(qtbot, scenario, seed=SEED_PLAYER_FIRST, size=SIZE)
    game = window.play.game
    click(window.view, *MACE)
    click(window.view, *KNUCKLES)
    dialog = window.play.move_tool.fire_dialog
    assert dialog is not None and dialog.allocation() == (("e2", 2), ("e1", 1))
    mace = game.fig("p1")
    specs = [adapter.target_spec(game.fig(t), mace, game.sight()) for t in ("e2", "e1")]
    grunt = fire_odds(mace.rep, mace.weapon, specs, allocation=[2, 1], options=game.rules)
    star = fire_odds(
        mace.rep, mace.weapon, specs, allocation=[2, 1], options=game.rules, star_power=[None, 3]
    )
    assert dialog.odds == star != grunt
    boss = star.targets[1]
    assert boss.hit == grunt.targets[1].hit
    assert boss.out_of_the_fight + boss.obviously_dead < grunt.targets[1].out_of_the_fight
    assert (
        f"Out of the Fight <b>{pct(boss.out_of_the_fight)}</b>" in dialog.odds_labels["e1"].text()
    )
    # a chance under 1% is shown as such, not swallowed as a tag of the label's rich text
    assert pct(boss.obviously_dead) == "<1%"
    assert "Obviously Dead <b>&lt;1%</b>" in dialog.odds_labels["e1"].text()


def test_two_targets_open_the_dialog_and_a_two_and_one_share_fires(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MACE)
    hover(window, *KNUCKLES)
    assert tool.hovered is not None and tool.hovered.shared
    assert "Click to share 3 dice among 2 targets" in tool.hover_text()
    assert "Ctrl: charge instead" in tool.hover_text() and "G:" not in tool.hover_text()
    steps = len(game.history)
    click(window.view, *KNUCKLES)
    dialog = tool.fire_dialog
    assert dialog is not None and dialog.isVisible() and not dialog.isModal()
    assert len(game.history) == steps  # nothing fired yet
    assert list(dialog.spins) == ["e2", "e1"]  # the clicked enemy first: it gets the best dice
    assert dialog.allocation() == (("e2", 2), ("e1", 1))  # the book's share (7.9.8)
    # the odds shown are crdesk.odds for exactly the share shown
    mace = game.fig("p1")
    specs = [adapter.target_spec(game.fig(t), mace, game.sight()) for t in ("e2", "e1")]
    book = fire_odds(mace.rep, mace.weapon, specs, allocation=[2, 1], options=game.rules)
    assert dialog.odds == book
    assert f"hit <b>{pct(book.targets[0].hit)}</b>" in dialog.odds_labels["e2"].text()
    # the lines of fire to both targets are on the table while the dialog is open
    assert set(dialog.lines) == {"e2", "e1"}
    assert all(line.scene() is window.play.scene for line in dialog.lines.values())
    assert dialog.lines["e2"].pen().style() == Qt.PenStyle.SolidLine
    # a share that does not give out all the dice is the controller's to refuse
    type_dice(qtbot, dialog.spins["e2"], 0)
    assert dialog.total_label.text() == "1 of 3 dice given out" and dialog.odds is None
    assert dialog.lines["e2"].pen().style() == Qt.PenStyle.DashLine  # no dice: dashed
    qtbot.mouseClick(dialog.fire_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and len(game.history) == steps
    assert dialog.last_reason == game.legal("fire p1 at e1:1")
    assert "3 dice in all" in dialog.reason_label.text()
    # the person's share: two dice at the Viper boss, one at Knuckles; Enter fires
    type_dice(qtbot, dialog.spins["e1"], 2)
    type_dice(qtbot, dialog.spins["e2"], 1)
    assert dialog.allocation() == (("e2", 1), ("e1", 2))
    assert dialog.total_label.text() == "3 of 3 dice given out"
    qtbot.keyClick(dialog.spins["e2"], Qt.Key.Key_Return)
    assert len(game.history) == steps + 1
    assert game.history[-1].action == "fire p1 at e2:1,e1:2"
    fire = [e for e in game.events if e.kind == "fire"][-1]
    assert fire.data["allocation"] == [1, 2]
    assert [(t["id"], len(t["dice"])) for t in fire.data["results"]] == [("e2", 1), ("e1", 2)]
    assert not dialog.isVisible() and tool.fire_dialog is None and not dialog.lines
    assert status(window) == "Sgt. Mace fires at Knuckles (1d), Viper boss (2d)"


def test_escape_cancels_the_dialog_and_plays_nothing(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MACE)
    click(window.view, *BOSS)
    dialog = tool.fire_dialog
    assert dialog is not None and dialog.allocation() == (("e1", 2), ("e2", 1))
    before = (len(game.history), game.state_hash())
    qtbot.keyClick(dialog.spins["e1"], Qt.Key.Key_Escape)
    assert not dialog.isVisible() and tool.fire_dialog is None and not dialog.lines
    assert (len(game.history), game.state_hash()) == before
    assert status(window) == "Sgt. Mace holds fire"
    assert tool.selected == "p1"  # the shooter stays chosen for another try


def test_one_eligible_target_fires_at_once(window: MainWindow) -> None:
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MACE)
    hover(window, *SHIV)
    assert tool.hovered is not None and not tool.hovered.shared
    click(window.view, *SHIV)
    assert tool.fire_dialog is None
    assert game.history[-1].action == "fire p1 at e4"


# -- the charge --------------------------------------------------------------------------------


def test_ctrl_over_an_enemy_shows_the_charge_and_its_odds_and_a_click_charges(
    window: MainWindow,
) -> None:
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MACE)
    hover(window, *SHIV, CTRL)
    charge = tool.aim.charge
    assert charge is not None and charge.action is not None and tool.hovered is None
    exact = charge_odds(5, 3, in_cover=False, options=game.rules)
    assert charge.odds == exact and sum(exact.outcomes.values()) == 1
    text = tool.aim.text()
    assert "Sgt. Mace charges Shiv" in text and "in reach" in text
    assert "From the front: Shiv rolls 2d6 (7.11.2)" in text
    moves_in = pct(exact.chance(ChargeResult.CHARGER_MOVES_IN))
    assert f"Sgt. Mace moves in unshot: {moves_in}" in text
    assert f"Shiv fires: {pct(exact.chance(ChargeResult.TARGET_FIRES))}" in text
    assert "Click to charge" in text
    # letting Ctrl go gives the shot's preview back
    hover(window, *SHIV)
    assert tool.aim.charge is None and tool.hovered is not None
    # Dice is far beyond the charge's reach: the controller's reason, nothing played
    hover(window, *DICE, CTRL)
    assert tool.aim.charge is not None and tool.aim.charge.action is None
    assert "out of reach" in tool.aim.text() and "Cannot charge" in tool.aim.text()
    steps = len(game.history)
    click(window.view, *DICE, CTRL)
    assert len(game.history) == steps and tool.aim.last_reason is not None
    click(window.view, *SHIV, CTRL)
    assert game.history[steps].action == "charge p1 at e4"
    assert any(e.kind == "charge" for e in game.events)


def test_the_charge_mode_a_menu_can_start(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    tool = window.play.move_tool
    assert tool.start_charge("p1") is None
    assert tool.aim.mode == "charge" and tool.selected == "p1"
    hover(window, *BOSS)  # no Ctrl needed in the mode
    assert tool.aim.charge is not None and tool.aim.charge.target == "e1"
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert tool.aim.mode is None and tool.aim.charge is None
    assert tool.start_charge("e1") is not None  # not the active group's
    qtbot.keyClick(window.view, Qt.Key.Key_C)  # the key, not the editor's Cover tool
    assert tool.aim.mode == "charge" and tool.aim.figure == "p1"
    assert window.play.game.battlefield is window.view.scene().battlefield


# -- the grenade -------------------------------------------------------------------------------


def test_the_blast_circle_follows_the_mouse_and_a_click_throws_there(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    click(window.view, *MACE)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_G)
    assert tool.aim.mode is None and "no readied grenade" in status(window)
    qtbot.mouseClick(window.play.decision_dock.buttons["ready p1"], Qt.MouseButton.LeftButton)
    assert game.flags("p1")["grenade"] == "ready"
    click(window.view, *MACE)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_G)
    aim = tool.aim
    assert aim.mode == "throw" and aim.range_item() is not None
    assert tool.preview("e4").grenade  # the shot's tooltip says G throws it
    assert aim.range_item().rect().width() == pytest.approx(2 * (6.0 + 0.5))
    hover(window, 14.0, 17.0)
    circle = aim.blast_item()
    assert circle is not None and (circle.pos().x(), circle.pos().y()) == pytest.approx(
        (14, 17), abs=0.05
    )
    assert circle.rect().width() == pytest.approx(2 * game.rules.blast_radius)
    hover(window, *SHIV)
    circle = aim.blast_item()
    assert circle is not None and (circle.pos().x(), circle.pos().y()) == pytest.approx(
        SHIV, abs=0.05
    )
    assert aim.throw is not None and aim.throw.spec.inside == ("e4",)
    assert [r.data(0) for r in aim.caught_items()] == ["caught:e4"]
    assert "Click to throw" in aim.text() and "Shiv" in aim.text()
    exact = throw_odds(5, spot_in_los=True)
    assert f"on the spot {pct(exact.chance(GrenadeThrow.ON_SPOT))} · Oops" in aim.text()
    assert "miss" not in aim.text()  # the spot is in sight: one pass lands too
    # the Viper boss is 8.5" away: out of range, refused in the controller's words
    hover(window, *BOSS)
    assert aim.throw is not None and aim.throw.action is None and "out of range" in aim.text()
    steps = len(game.history)
    click(window.view, *BOSS)
    assert len(game.history) == steps and 'up to 6"' in (aim.last_reason or "")
    click(window.view, 16.0, 16.5)
    assert game.history[steps].action == "throw p1 at 16,16.5"
    assert any(e.kind == "throw" for e in game.events)
    assert aim.mode is None and aim.blast_item() is None and aim.range_item() is None


# -- a look at it -------------------------------------------------------------------------------


def test_screenshots_of_the_fire_dialog_the_charge_and_the_grenade(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    tool = window.play.move_tool
    click(window.view, *MACE)
    click(window.view, *KNUCKLES)
    dialog = tool.fire_dialog
    assert dialog is not None
    QApplication.processEvents()
    shot = paste(window.grab().toImage(), window, dialog)
    assert shot.save(str(SHOTS / "play-fire-dialog.png"))
    dialog.reject()
    hover(window, *SHIV, CTRL)
    QApplication.processEvents()
    assert tool.aim.charge is not None
    plain = window.grab().toImage()
    assert plain.save(str(SHOTS / "play-charge-path.png"))  # the path, no tooltip over it
    assert paste(plain, window, tooltip()).save(str(SHOTS / "play-charge.png"))
    hover(window, 30.0, 30.0)
    qtbot.mouseClick(window.play.decision_dock.buttons["ready p1"], Qt.MouseButton.LeftButton)
    assert tool.start_throw("p1") is None
    hover(window, 15.0, 15.0)
    QApplication.processEvents()
    assert tool.aim.blast_item() is not None
    shot = paste(window.grab().toImage(), window, tooltip())
    assert shot.save(str(SHOTS / "play-grenade.png"))
