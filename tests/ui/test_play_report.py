"""Battle report export, game autosave with crash recovery, and recent games (ui/play)."""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from crdesk.game.savefile import load_game
from crdesk.recovery import RecoveryStore
from crdesk.resources import demo_scenario
from crdesk.scenario import load
from tests.ui.windows import open_window, start
from ui.main_window import MainWindow
from ui.play.autosave import GameAutosaveStore
from ui.play.report import md_escape
from ui.play.start_dialog import StartDialog

SEED = 1
"""Seed 1: Sgt. Mace's squad (the person) decides first."""


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, size=(1200, 800), recovery=tmp_path / "recovery")


def play_defaults(window: MainWindow, steps: int) -> None:
    """Up to ``steps`` of the person's default options, the program's steps after each."""
    session = window.play.session
    assert session is not None
    for _ in range(steps):
        decision = session.awaiting()
        if decision is None or decision.default is None or session.is_program_turn():
            break
        assert session.play(decision.default) is None
        window.play.run_program()


def play_a_few_steps(window: MainWindow) -> None:
    start(window, SEED)
    assert window.play.session.play("activate p1") is None
    play_defaults(window, 3)


# -- battle report ------------------------------------------------------------------


def test_export_battle_report_writes_markdown_html_and_maps(
    window: MainWindow, tmp_path: Path
) -> None:
    play_a_few_steps(window)
    game = window.play.game
    assert window.play.action_report.isEnabled()
    out = tmp_path / "report" / "Street fight.md"
    assert window.play.export_report(out)
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    page = out.with_suffix(".html").read_text(encoding="utf-8")
    start_png = out.parent / "Street fight-start.png"
    end_png = out.parent / "Street fight-end.png"
    for image in (start_png, end_png):
        assert image.is_file() and not QImage(str(image)).isNull()
    assert "(Street%20fight-start.png)" in md and "(Street%20fight-end.png)" in md
    assert 'src="Street%20fight-start.png"' in page and 'src="Street%20fight-end.png"' in page
    assert md.startswith(f"# Battle report: {md_escape(game.scenario.title)}")
    assert f"seed {SEED}" in md and f"seed {SEED}" in page
    for force in game.battlefield.forces:
        assert md_escape(force.name) in md and html.escape(force.name) in page
    assert "## Turn 1" in md and "<h2>Turn 1</h2>" in page
    assert game.events
    for event in game.events:
        assert md_escape(event.text) in md
        assert html.escape(event.text) in page
        if event.section:
            assert f"§ {event.section}" in md
    rolled = next(e for e in game.events if e.dice)
    assert "⚀⚁⚂⚃⚄⚅"[rolled.dice[0] - 1] in md


def test_report_escapes_html_and_markdown(window: MainWindow, tmp_path: Path) -> None:
    window.document.scenario.title = "<b>Vipers</b> & *co*"
    play_a_few_steps(window)
    assert window.play.export_report(tmp_path / "r")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "<b>Vipers</b>" not in page and "&lt;b&gt;Vipers&lt;/b&gt; &amp; *co*" in page
    assert r"\<b\>Vipers\</b\> & \*co\*" in md


# -- autosave and crash recovery ----------------------------------------------------


def _dead_pid() -> int:
    """The id of a process that has ended (as a crashed crdesk would have)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def crash(window: MainWindow) -> None:
    """Drop the window as a crash would: no Stop Game, no close; the note's process is dead."""
    window.play.autosaver.flush()
    window.play.session.stop()
    folder = window.play.autosave_store.folder
    for note in folder.glob("*.json"):
        data = json.loads(note.read_text(encoding="utf-8"))
        data["pid"] = _dead_pid()
        note.write_text(json.dumps(data), encoding="utf-8")
    window.play.autosaver = None  # the dead process never removes its entry


def test_every_step_is_autosaved_and_a_crash_leaves_it_behind(
    window: MainWindow, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    assert window.play.start(SEED)
    window.play.run_program()
    autosaver = window.play.autosaver
    qtbot.waitUntil(lambda: autosaver.path.is_file())
    assert window.play.autosave_store.folder == tmp_path / "recovery" / "games"
    session = window.play.session
    assert session.play("activate p1") is None
    qtbot.waitUntil(lambda: len(load_game(autosaver.path).game.history) == 2)
    play_defaults(window, 2)
    game = window.play.game
    state, steps = game.state_hash(), len(game.history)
    path = autosaver.path
    crash(window)
    assert path.is_file()
    reopened = load_game(path).game
    assert reopened.state_hash() == state and len(reopened.history) == steps
    [entry] = GameAutosaveStore(tmp_path / "recovery" / "games").pending()
    assert entry.steps == steps and entry.program == ("enemy",)


def test_the_next_start_offers_to_resume_the_crashed_game(
    window: MainWindow, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    play_a_few_steps(window)
    state, steps = window.play.game.state_hash(), len(window.play.game.history)
    crash(window)
    window.play._leave()  # the old window is gone (its entry stays, as after a crash)
    asked: list[str] = []

    def yes(_parent, title, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)
    fresh = MainWindow(load(str(demo_scenario())), recovery=RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(fresh)
    fresh.play.autoplay = False
    assert fresh.play.offer_recovery()
    assert len(asked) == 1 and "Main Street" in asked[0] and f"step {steps}" in asked[0]
    assert fresh.play.active and fresh.play.game.state_hash() == state
    assert fresh.play.session.program == frozenset({"enemy"})
    assert fresh.play.session.has_unsaved_steps()
    # asked once: the old entry is gone, the resumed game has its own
    assert GameAutosaveStore(tmp_path / "recovery" / "games").pending() == []
    assert not fresh.play.offer_recovery()


def test_declining_recovery_discards_it_and_starting_play_asks_too(
    window: MainWindow, qtbot, tmp_path: Path, _no_modal_dialogs
) -> None:  # type: ignore[no-untyped-def]
    play_a_few_steps(window)
    crash(window)
    window.play._leave()
    store = GameAutosaveStore(tmp_path / "recovery" / "games")
    assert len(store.pending()) == 1
    opened: list[bool] = []
    monkeypatch_dialog = pytest.MonkeyPatch()
    monkeypatch_dialog.setattr(StartDialog, "exec", lambda self: opened.append(True) or 0)
    try:
        window.play.start_dialog()  # the conftest answers No: the start dialog follows
    finally:
        monkeypatch_dialog.undo()
    assert any(title == "Resume the interrupted game?" for title, _ in _no_modal_dialogs)
    assert opened == [True] and not window.play.active
    assert store.pending() == [] and list(store.folder.glob("*")) == []


def test_a_clean_stop_removes_the_autosave(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    play_a_few_steps(window)
    path = window.play.autosaver.path
    window.play.autosaver.flush()
    assert path.is_file()
    assert window.play.stop()
    assert not path.exists() and list(window.play.autosave_store.folder.glob("*")) == []
    assert window.play.autosaver is None


# -- recent games ---------------------------------------------------------------------


def test_saved_and_opened_games_are_in_recent_games(window: MainWindow, tmp_path: Path) -> None:
    play = window.play
    assert play.recent_games() == [] and not play.recent_menu.isEnabled()
    play_a_few_steps(window)
    first, second = tmp_path / "first.crgame", tmp_path / "second.crgame"
    assert play.save_to(first) and play.save_to(second)
    assert play.recent_games() == [str(second.resolve()), str(first.resolve())]
    actions = play.recent_menu.actions()
    assert [a.text() for a in actions] == ["&1 second.crgame", "&2 first.crgame"]
    assert play.recent_menu.isEnabled()
    state = play.game.state_hash()
    assert play.stop()
    actions[1].trigger()  # open "first" from the menu
    assert play.active and play.game.state_hash() == state
    assert play.recent_games()[0] == str(first.resolve())
    # kept across windows (QSettings), and a file that is gone drops out when tried
    other = MainWindow(load(str(demo_scenario())), recovery=RecoveryStore(tmp_path / "r2"))
    try:
        assert other.play.recent_games() == play.recent_games()
        second.unlink()
        assert not other.play.open_file(second)
        assert other.play.recent_games() == [str(first.resolve())]
    finally:
        other.close()
        other.deleteLater()
