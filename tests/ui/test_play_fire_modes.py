"""The fire dialog's per-target dice boxes with Firearms Detail: while a mode gives its dice
out itself (bursts one per target, a Full Auto volley, a shell) the greyed boxes show what
the mode does, not the Semi share they had; back in Semi the player's share returns."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from crdesk.options import RulesOptions
from tests.game.test_adapter import SEED_PLAYER_FIRST, skirmish
from tests.ui.mouse import click
from tests.ui.test_play_fire import KNUCKLES, MACE, SIZE, paste, type_dice
from tests.ui.windows import SHOTS, playing
from ui.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    scenario = replace(skirmish(), rules=RulesOptions(firearms_detail=True))
    return playing(qtbot, scenario, seed=SEED_PLAYER_FIRST, size=SIZE)


def _boxes(dialog) -> dict[str, tuple[int, bool]]:  # type: ignore[no-untyped-def]
    return {t: (spin.value(), spin.isEnabled()) for t, spin in dialog.spins.items()}


def test_the_greyed_boxes_show_the_modes_dice_and_semi_gets_the_share_back(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    game = window.play.game
    click(window.view, *MACE)
    click(window.view, *KNUCKLES)
    dialog = window.play.move_tool.fire_dialog
    assert dialog is not None and dialog.panel is not None
    type_dice(qtbot, dialog.spins["e2"], 1)  # the player's share: 1 at Knuckles, 2 at the boss
    type_dice(qtbot, dialog.spins["e1"], 2)
    assert _boxes(dialog) == {"e2": (1, True), "e1": (2, True)}
    box = dialog.mode_box
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Down)  # 3-round bursts: one burst per target
    assert box.currentData() == "3RB"
    assert _boxes(dialog) == {"e2": (1, False), "e1": (1, False)}
    assert "gives the dice out itself: 1 here" in dialog.spins["e1"].toolTip()
    SHOTS.mkdir(parents=True, exist_ok=True)
    paste(window.grab().toImage(), window, dialog).save(str(SHOTS / "fire-dialog-bursts.png"))
    qtbot.keyClick(box, Qt.Key.Key_Down)  # Full Auto: the primary's 5 dice at 7.6"
    assert box.currentData() == "FA"
    assert _boxes(dialog) == {"e2": (5, False), "e1": (0, False)}
    assert str(dialog.action()) == "fire p1 at e2 mode FA"
    qtbot.keyClick(box, Qt.Key.Key_Up)
    qtbot.keyClick(box, Qt.Key.Key_Up)  # Semi: the player's share again, to change
    assert box.currentData() == "semi"
    assert _boxes(dialog) == {"e2": (1, True), "e1": (2, True)}
    assert str(dialog.action()) == "fire p1 at e2:1,e1:2 mode semi"
    qtbot.keyClick(box, Qt.Key.Key_Down)
    steps = len(game.history)
    qtbot.mouseClick(dialog.fire_button, Qt.MouseButton.LeftButton)
    assert game.history[steps].action == "fire p1 at e2,e1 mode 3RB"
