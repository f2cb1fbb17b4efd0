"""Retrieving a wounded friend while ducking back (7.12), from the decision panel.

The data game ``duck_back_retrieves_a_wounded_friend`` played up to Pal's Duck Back (he
failed Received Fire from E1, Hurt lies Out of the Fight 2" from him), saved and opened
in the window as a player resumes a game with their own dice: the panel offers the
plain Duck Back and "Pal ducks back carrying Hurt"; the click, then the die typed in
the dice panel, carry Hurt into the woods.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from crdesk.game.records import CHANCE
from crdesk.game.savefile import save_game
from tests.game.test_game_data import play_case
from tests.ui.windows import SHOTS, open_window
from ui.main_window import MainWindow

CASE = Path(__file__).parents[1] / "data/games/duck_back_retrieves_a_wounded_friend.json"


def test_a_duck_back_carries_a_wounded_friend(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    case = json.loads(CASE.read_text())
    case["steps"] = [s for s in case["steps"] if "refused" not in s][:3]  # to the Duck Back
    game = play_case(case)
    path = tmp_path / "duck.crgame"
    save_game(game, path)
    window: MainWindow = open_window(qtbot)
    assert window.play.open_file(path, program={"e"})
    play = window.play
    dock = play.decision_dock
    plain, carry = "duckback p3 auto", "duckback p3 auto carry p2"
    assert set(dock.buttons) >= {plain, carry}
    assert dock.buttons[carry].text().startswith("Pal ducks back carrying Hurt")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-duck-back-carry.png"))
    qtbot.mouseClick(dock.buttons[carry], Qt.MouseButton.LeftButton)
    live = play.game
    assert live is not None
    decision = live.awaiting()
    assert decision is not None and decision.actor == CHANCE and decision.dice == 1
    entry = play.dice_entry
    assert entry.isVisible() and entry.waiting()
    qtbot.mouseClick(entry.face_buttons[3], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(entry.send_button, Qt.MouseButton.LeftButton)
    texts = [e.text for e in live.events]
    assert any("Pal rolled 3 vs Rep 4: will try to retrieve the wounded" in t for t in texts)
    assert any('Pal ducks back 1.8" to (19.2, 22.8)' in t for t in texts)
    pal, hurt = live.fig("p3"), live.fig("p2")
    assert (pal.x, pal.y) == (hurt.x, hurt.y)
    assert live.state_document()["game"]["carrying"] == {"p3": "p2"}
