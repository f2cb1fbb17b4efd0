"""Save Game writes the game's own file once it has one; Save Game As… asks, starting in
the game's folder or the last one used (issue 30, "Also on this road")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from crdesk.game.savefile import load_game
from tests.ui.windows import open_window


def test_save_writes_the_game_s_own_file_and_save_as_asks(
    qtbot: Any, monkeypatch: Any, tmp_path: Path
) -> None:
    window = open_window(qtbot)
    asked: list[str] = []
    first = tmp_path / "first.crgame"

    def ask(_parent: Any, _title: str, start: str, _filter: str) -> tuple[str, str]:
        asked.append(start)
        return (str(first if len(asked) == 1 else tmp_path / "other.crgame"), "")

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    assert window.play.start(1)
    window.play.action_save.trigger()  # no file yet: asks
    assert len(asked) == 1 and first.exists()
    window.play.action_save.trigger()  # the game's own file now: no question
    assert len(asked) == 1
    window.play.action_save_as.trigger()  # Save As asks, starting at the game's file
    assert len(asked) == 2 and Path(asked[1]).parent == tmp_path
    assert (
        tmp_path / "other.crgame"
    ).exists() and window.play.game_file == tmp_path / "other.crgame"
    # a new game starts in the folder last used
    window.play.stop()
    assert window.play.start(2)
    window.play.action_save.trigger()
    assert Path(asked[2]).parent == tmp_path


def test_a_game_opened_from_a_file_saves_back_to_it(
    qtbot: Any, monkeypatch: Any, tmp_path: Path
) -> None:
    window = open_window(qtbot)
    path = tmp_path / "g.crgame"
    assert window.play.start(3)
    assert window.play.save_to(path)
    window.play.stop()
    assert window.play.open_file(path)
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a: (_ for _ in ()).throw(AssertionError)
    )
    steps = len(load_game(path).game.history)
    window.play.play_default()
    window.play.action_save.trigger()
    assert len(load_game(path).game.history) > steps


def test_stopping_a_game_opened_in_an_empty_window_shows_its_scenario(
    qtbot: Any, tmp_path: Path
) -> None:
    """A .crgame opened on its own (an empty window, as the app opens one) went back to an
    empty table after Stop Game; the editor shows the game's scenario instead, and the
    mode badge reads EDITOR in full."""
    from ui.dialogs.new_dialog import empty_scenario

    source = open_window(qtbot)
    path = tmp_path / "g.crgame"
    assert source.play.start(4) and source.play.save_to(path)
    title = source.play.game.scenario.title
    source.play.stop()
    window = open_window(qtbot, empty_scenario(title="Empty table"))
    assert window.play.open_file(path)
    assert window.play.stop()
    assert window.scenario.title == title and len(window.document.battlefield.terrain) > 0
    assert not window.document.is_modified
    badge = window.play.badge
    assert badge.text() == "EDITOR"
    assert badge.width() >= badge.fontMetrics().horizontalAdvance("EDITOR")
