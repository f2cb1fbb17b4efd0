"""Firearms Detail in the play mode (FD §11): the fire dialog offers the card's modes, aim,
walk and support with the exact odds per die, and the weapon card panel follows the
selected figure's rounds.  The skirmish of :func:`tests.game.test_adapter.skirmish` with
the module switched on; real clicks on the real widgets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from crdesk.game import firearms_view
from crdesk.game.actions import Indirect, Ready
from crdesk.options import RulesOptions
from crdesk.rules.firearms.tables import FireMode
from tests.game.test_adapter import SEED_PLAYER_FIRST, skirmish
from tests.ui.mouse import click
from tests.ui.test_play_fire import KNUCKLES, MACE, SIZE, hover, paste
from tests.ui.windows import playing
from ui.main_window import MainWindow
from ui.play.text import option_label, row_verb

SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    scenario = replace(skirmish(), rules=RulesOptions(firearms_detail=True))
    return playing(qtbot, scenario, seed=SEED_PLAYER_FIRST, size=SIZE)


def test_the_dialog_offers_the_modes_with_odds_per_die_and_fires_full_auto_aimed(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    tool = window.play.move_tool
    card = window.play.card_dock
    assert card.isVisible()
    click(window.view, *MACE)
    assert card.figure_id == "p1"
    assert "Rounds: 30/30 · spare magazines: 3" in card.view.text()
    hover(window, *KNUCKLES)  # the base game's odds would mislead: the dialog has them
    assert tool.hovered is not None and tool.hovered.odds is None
    assert "Firearms Detail — Assault Rifle (AR), Semi: 30/30 rounds" in tool.hover_text()
    click(window.view, *KNUCKLES)
    dialog = tool.fire_dialog
    assert dialog is not None and dialog.panel is not None
    box = dialog.mode_box
    assert [box.itemData(i) for i in range(box.count())] == ["semi", "3RB", "FA"]
    assert dialog.mode() is FireMode.SEMI and not dialog.aim_box.isEnabled()
    box.setCurrentIndex(2)  # Full Auto
    assert dialog.aim_box.isEnabled() and dialog.walk_spin.isEnabled()
    # Full Auto fires at the clicked enemy only: the line to the other is dashed
    assert dialog.lines["e2"].pen().style() == Qt.PenStyle.SolidLine
    assert dialog.lines["e1"].pen().style() == Qt.PenStyle.DashLine
    assert not any(spin.isEnabled() for spin in dialog.spins.values())  # FA sets its dice
    want = firearms_view.firearms_odds(game, "fire p1 at e2 mode FA")
    assert dialog.detail_odds == want
    # at 8" the spread is 1" (5 dice on the primary); nobody stands within 1" of Knuckles
    assert dialog.dice_odds_label.text().count("Die ") == len(want.dice) == 5
    qtbot.mouseClick(dialog.aim_box, Qt.MouseButton.LeftButton)
    aimed = firearms_view.firearms_odds(game, "fire p1 at e2 mode FA aim")
    assert dialog.detail_odds == aimed and aimed != want
    assert "aimed pair 1-2 +2" in dialog.dice_odds_label.text()
    assert not dialog.walk_spin.isEnabled()  # no walking an aimed volley (FD §5.1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    paste(window.grab().toImage(), window, dialog).save(str(SHOTS / "play-firearms-dialog.png"))
    steps = len(game.history)
    qtbot.mouseClick(dialog.fire_button, Qt.MouseButton.LeftButton)
    assert len(game.history) > steps
    assert game.history[steps].action == "fire p1 at e2 mode FA aim"
    assert firearms_view.rounds_left(game, "p1") == 20
    card.refresh()
    assert card.figure_id == "p1"  # the card stays on the shooter after it fired
    assert "Rounds: 20/30" in card.view.text() and "Full Auto" in card.view.text()


def test_the_header_says_what_the_mode_does_with_its_dice(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The base game's "share 3 dice among the enemies in the arc" is wrong for a Full
    Auto volley: its 10 dice go to the primary and the spread by the rules (FD §5)."""
    click(window.view, *MACE)
    click(window.view, *KNUCKLES)
    dialog = window.play.move_tool.fire_dialog
    assert dialog is not None and dialog.panel is not None
    head = dialog.head.text()
    assert "Semi: up to 3 dice, one round each, shared among the targets" in head
    assert dialog.hint.isVisible()
    dialog.mode_box.setCurrentIndex(2)  # Full Auto
    head = dialog.head.text()
    assert "share" not in head
    assert "one Full Auto volley, 10 dice (10 rounds): 5 on Knuckles" in head
    assert 'the other 5 on the figures within 1" of Knuckles, friend or foe' in head
    assert not dialog.hint.isVisible()
    dialog.walk_spin.setValue(2)
    assert "4 sacrificed to walk the target: 5 on Knuckles" in dialog.head.text()
    assert "the other 1 on" in dialog.head.text()
    dialog.mode_box.setCurrentIndex(1)  # 3-round bursts
    assert "up to 3 bursts (3 rounds each), one per target" in dialog.head.text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    paste(window.grab().toImage(), window, dialog).save(str(SHOTS / "play-firearms-header.png"))


def test_the_module_actions_have_their_own_labels_not_the_grenades() -> None:
    """'ready p1 weapon' (FD §4) is no grenade: its button must not say so."""
    names = {"p1": "Cpl. Diaz"}.get

    def name(fid: str) -> str:
        return names(fid) or fid

    assert option_label(Ready("p1", weapon=True), name) == (
        'Cpl. Diaz: Ready the weapon (2" of movement)'
    )
    assert option_label(Ready("p1"), name) == "Cpl. Diaz: Ready a grenade"
    assert row_verb(Ready("p1", weapon=True)) == "Ready weapon"
    assert row_verb(Ready("p1")) == "Grenade"
    assert option_label(Indirect("p1", (22, 10)), name) == "Cpl. Diaz fires indirectly at 22,10"
