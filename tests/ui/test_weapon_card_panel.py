"""The figure's weapon card in play (FD §11): card, mode, rounds left, spares — read-only,
following the game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDockWidget

from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import DEFAULT_CARDS, parse_cards
from crdesk.rules.firearms.tables import FireMode
from tests.ui.windows import demo, open_window
from ui.docks.weapon_card_panel import FigureCardDock, WeaponCardView, card_lines
from ui.main_window import MainWindow

SHOTS = Path("/tmp/crdesk-shots")


def test_card_lines_say_mode_rounds_spares_and_state() -> None:
    ar = WeaponState(DEFAULT_CARDS["AR"], 20, 2, ready=True, mode=FireMode.FA)
    assert card_lines(ar) == [
        "Assault Rifle — counts as AR (Assault Rifle)",
        "Mode: Semi · 3-round burst · [Full Auto]",
        "Rounds: 20/30 · spare magazines: 2",
        "Ammo: FMJ · no knockdown",
    ]
    sg = WeaponState(DEFAULT_CARDS["SG"], 0, 0, ready=False)
    lines = card_lines(sg)
    assert lines[1] == "Mode: [Pump]"
    assert "Unready: fires with the Rush Shot penalty (FD §4)" in lines
    assert lines[-1] == "Empty: reload with a spare magazine (FD §3)"


def test_the_view_marks_the_current_mode(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = WeaponCardView()
    qtbot.addWidget(view)
    view.show_state(WeaponState(DEFAULT_CARDS["SMG"], 30, 3, mode=FireMode.FA))
    assert "Semi · <b>Full Auto</b>" in view.body.text()
    view.show_state(None)
    assert view.title.text() == "Unarmed"


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    scenario = demo()
    scenario.rules = dataclasses.replace(scenario.rules, firearms_detail=True)
    scenario.weapons = tuple(
        parse_cards(
            [{"name": "Glock 17", "category": "P", "magazine": 17, "knockdown": 1}]
        ).values()
    )
    scenario.battlefield.update_figure("p4", weapon="P", weapon_card="Glock 17")
    return open_window(qtbot, scenario)


def test_the_panel_follows_a_game_with_the_module_on(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(1)
    window.play.run_program()
    dock = FigureCardDock(window)
    window.addDockWidget(window.dockWidgetArea(window.play.turn_dock), dock)
    dock.show()
    dock.set_session(window.play.session)
    assert not dock.view.isVisible()
    assert "Choose a figure" in dock.name_label.text()
    dock.set_figure("p4")
    assert dock.name_label.text().startswith("Pvt. Lind")
    text = dock.view.text()
    assert "Glock 17 — counts as P (Pistol)" in text
    assert "Rounds: 17/17 · spare magazines: 3" in text
    assert "knockdown 1" in text and "Firearms Detail is off" not in text
    dock.set_figure("p1")  # Sgt. Mace's default card
    assert "Assault Rifle — counts as AR" in dock.view.text()
    assert "Rounds: 30/30" in dock.view.text()
    dock.set_figure("p4")
    dock.setFloating(True)
    dock.resize(300, 220)
    qtbot.waitExposed(dock)  # a window of its own now
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert dock.grab().save(str(SHOTS / "play-weapon-card.png"))
    assert isinstance(dock, QDockWidget)
    dock.set_session(None)
    assert not dock.view.isVisible()
