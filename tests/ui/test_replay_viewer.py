"""The replay viewer: a kept game watched step by step and turn by turn, the table and the
log following, the program's "why" drawn at its moves, and "Play from here" forking a
new game while the file stays as it was (issue 32, Deliver 5)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from crdesk.ai.explain import SOLO_ENEMY, TACTICAL
from crdesk.game import Game
from crdesk.game.actions import Action, Move
from crdesk.game.savefile import save_game
from tests.solo.kept import kept_game, moves_by
from tests.ui.windows import SHOTS, open_window
from ui.main_window import MainWindow
from ui.play.mode import seated
from ui.play.viewer import ReplayWindow
from ui.play.why_marks import CandidatePin, SpotRing


@pytest.fixture
def kept_file(tmp_path: Path) -> Path:
    path = tmp_path / "kept.crgame"
    save_game(kept_game(), path)
    return path


def watch(qtbot, window: MainWindow, path: Path) -> ReplayWindow:  # type: ignore[no-untyped-def]
    viewer = window.play.watch_file(path)
    assert viewer is not None
    qtbot.addWidget(viewer)
    qtbot.waitExposed(viewer)
    settle(qtbot, viewer, len(kept_game().history))
    return viewer


def settle(qtbot, viewer: ReplayWindow, step: int) -> None:  # type: ignore[no-untyped-def]
    """Wait until the viewer shows the position after ``step`` (reached off the GUI thread)."""
    qtbot.waitUntil(lambda: viewer.cursor.settled() and viewer.cursor.shown == step, timeout=10_000)


def key(qtbot, viewer: ReplayWindow, which: Qt.Key, shift: bool = False) -> None:  # type: ignore[no-untyped-def]
    modifier = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    qtbot.keyClick(viewer.view, which, modifier)


def places(game_or_viewer: Game | ReplayWindow) -> dict[str, tuple[float, float, str]]:
    """Every figure's place and status on the game's table (or the viewer's)."""
    bf = (
        game_or_viewer.table
        if isinstance(game_or_viewer, ReplayWindow)
        else game_or_viewer.battlefield
    )
    return {f.id: (round(f.x, 3), round(f.y, 3), f.status.value) for f in bf.figures()}


def assert_shows(viewer: ReplayWindow, n: int) -> None:
    """The table, the log and the bar show the game as it stood after step ``n``."""
    game = kept_game()
    there = game.at_step(n)
    assert viewer.cursor.shown == n
    assert places(viewer) == places(there)
    assert viewer.shown.game.history == game.history[:n]
    assert viewer.listed_events() == [e for e in game.events if e.step <= n]
    assert viewer.selected_events() == [e for e in game.events if e.step == n]
    own = viewer.log.selectedItems()
    assert own and viewer.log.viewport().rect().intersects(viewer.log.visualItemRect(own[0]))
    assert viewer.where.text() == f"Turn {there.turn} · step {n} of {len(game.history)}"
    assert viewer.scrubber.value() == n
    assert viewer.step_label.text().startswith(f"Step {n} · ")


def test_step_and_turn_through_a_kept_game(qtbot, kept_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    viewer = watch(qtbot, window, kept_file)
    game = kept_game()
    last = len(game.history)
    assert_shows(viewer, last)
    assert not viewer.action_next.isEnabled() and viewer.action_previous.isEnabled()
    key(qtbot, viewer, Qt.Key.Key_Home)
    settle(qtbot, viewer, 1)
    assert_shows(viewer, 1)
    assert not viewer.action_previous.isEnabled()
    key(qtbot, viewer, Qt.Key.Key_Right)  # one step on
    settle(qtbot, viewer, 2)
    assert_shows(viewer, 2)
    qtbot.mouseClick(viewer.buttons["next"], Qt.MouseButton.LeftButton)
    settle(qtbot, viewer, 3)
    key(qtbot, viewer, Qt.Key.Key_Left)  # one step back
    settle(qtbot, viewer, 2)
    assert_shows(viewer, 2)
    starts = viewer.cursor.turn_starts
    assert starts[0] == 1 and len(starts) >= 3
    assert [game.at_step(s).turn for s in starts] == list(range(1, len(starts) + 1))
    key(qtbot, viewer, Qt.Key.Key_PageDown)  # the next turn's start
    settle(qtbot, viewer, starts[1])
    assert_shows(viewer, starts[1])
    key(qtbot, viewer, Qt.Key.Key_Right, shift=True)
    settle(qtbot, viewer, starts[2])
    key(qtbot, viewer, Qt.Key.Key_Right)
    settle(qtbot, viewer, starts[2] + 1)
    key(qtbot, viewer, Qt.Key.Key_Left, shift=True)  # back to the start of this turn
    settle(qtbot, viewer, starts[2])
    key(qtbot, viewer, Qt.Key.Key_PageUp)  # and to the one before
    settle(qtbot, viewer, starts[1])
    assert_shows(viewer, starts[1])
    viewer.scrubber.setValue(40)  # the scrubber goes anywhere
    settle(qtbot, viewer, 40)
    assert_shows(viewer, 40)
    key(qtbot, viewer, Qt.Key.Key_End)
    settle(qtbot, viewer, last)
    assert_shows(viewer, last)
    assert not viewer.action_play.isEnabled()  # the game is over there


def test_wishes_made_while_busy_end_at_the_last_one(qtbot, kept_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    viewer = watch(qtbot, window, kept_file)
    for n in (10, 60, 35, 36, 37):
        viewer.cursor.go(n)
    assert viewer.cursor.target == 37
    settle(qtbot, viewer, 37)
    assert_shows(viewer, 37)


def test_an_enemy_move_shows_its_chosen_spot_and_the_next_best(qtbot, kept_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    viewer = watch(qtbot, window, kept_file)
    game = kept_game()
    n = moves_by(game, "e")[0]
    viewer.cursor.go(n)
    settle(qtbot, viewer, n)
    move = Action.parse(game.history[n - 1].action)
    assert isinstance(move, Move)
    why = viewer.why_marks.explanation
    assert why is not None and why.player == SOLO_ENEMY and why.agrees
    marks = viewer.why_marks.marks
    assert 2 <= len(marks) <= 6
    chosen = [m for m in marks if m.candidate.chosen]
    assert len(chosen) == 1 and isinstance(chosen[0].ring, SpotRing)
    ring = chosen[0].ring
    assert math.dist((ring.pos().x(), ring.pos().y()), move.path[-1]) < 0.01
    assert ring.scene() is viewer.scene
    runners = [m for m in marks if not m.candidate.chosen]
    assert runners and all(isinstance(m.badge, CandidatePin) for m in runners)
    assert [m.badge.text for m in runners] == [str(m.candidate.rank) for m in runners]
    for mark in marks:  # each with its terms in its tooltip
        tip = mark.badge.toolTip()
        for term in ("Cover from the closest group", "exposure", "shot", "travel"):
            assert term in tip
    panel = viewer.why_text.toPlainText()
    assert "solo enemy" in panel and "11.4 NP Force Movement" in panel and "#1" in panel
    assert "chosen" in panel and "exposure" in panel
    SHOTS.mkdir(parents=True, exist_ok=True)
    viewer.grab().save(str(SHOTS / "viewer-enemy-move.png"))
    # the step after: the marks go (nothing chosen by a spot search there)
    key(qtbot, viewer, Qt.Key.Key_Right)
    settle(qtbot, viewer, n + 1)
    if viewer.cursor.position is not None and viewer.cursor.position.why is None:
        assert viewer.why_marks.marks == [] and viewer.why_marks.explanation is None
        assert "moved" in viewer.why_text.toPlainText()


def test_a_tactical_move_shows_its_scores(qtbot, kept_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    viewer = watch(qtbot, window, kept_file)
    n = moves_by(kept_game(), "p")[0]
    viewer.cursor.go(n)
    settle(qtbot, viewer, n)
    why = viewer.why_marks.explanation
    assert why is not None and why.player == TACTICAL
    assert all("score" in m.badge.toolTip() for m in viewer.why_marks.marks)
    text = viewer.why_text.toPlainText()
    assert "tactical player" in text and "chose its #" in text
    # a move In Sight stopped short: the panel says where it stopped
    fig = viewer.shown.game.fig(why.figure)
    stopped = math.dist((fig.x, fig.y), why.destination) > 0.05
    assert ("did not get there" in text) == stopped


def test_a_persons_move_draws_no_why(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    game = kept_game()
    n = moves_by(game, "e")[0]
    steps = list(game.history)
    steps[n - 1] = dataclasses.replace(steps[n - 1], why="")  # a person moved the Viper
    played = Game.replay(game.scenario, steps, seed=game.seed, settings=game.settings)
    path = tmp_path / "person.crgame"
    save_game(played, path)
    window = open_window(qtbot)
    viewer = window.play.watch_file(path)
    assert viewer is not None
    qtbot.addWidget(viewer)
    viewer.cursor.go(n)
    settle(qtbot, viewer, n)
    assert viewer.why_marks.marks == [] and viewer.why_marks.explanation is None
    assert "A person moved" in viewer.why_text.toPlainText()


def test_play_from_here_forks_a_new_game_and_leaves_the_file(qtbot, kept_file: Path) -> None:  # type: ignore[no-untyped-def]
    before = kept_file.read_bytes()
    window = open_window(qtbot)
    viewer = watch(qtbot, window, kept_file)
    n = 30
    viewer.cursor.go(n)
    settle(qtbot, viewer, n)
    assert viewer.action_play.isEnabled()
    viewer.action_play.trigger()
    session = window.play.session
    assert session is not None
    game = kept_game()
    assert session.game.history == game.history[:n]
    assert session.game.state_hash() == game.at_step(n).state_hash()
    assert session.program == frozenset(seated(game))  # seated as the saved game was
    assert window.play.game_file is None  # a new game: Save asks where
    assert kept_file.read_bytes() == before
    # the viewer still shows its own game, untouched by the game played on
    session.run_pending()
    assert viewer.shown.game.history == game.history[:n]
    assert viewer.cursor.shown == n
    # and hot seat: people play every side
    assert window.play.stop()
    viewer.action_play_hot_seat.trigger()
    assert window.play.session is not None and window.play.session.program == frozenset()
    assert window.play.session.game.history == game.history[:n]
    assert kept_file.read_bytes() == before


def test_watch_the_game_on_the_table(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot)
    assert not window.play.action_watch_this.isEnabled()
    assert window.play.start(5, settings=None)
    window.play.run_program()
    live = window.play.session
    assert live is not None
    steps = len(live.game.history)
    viewer = window.play.watch_this()
    assert viewer is not None
    qtbot.addWidget(viewer)
    settle(qtbot, viewer, steps)
    assert viewer.cursor.last == steps and viewer.shown.game is not live.game
    key(qtbot, viewer, Qt.Key.Key_Home)
    settle(qtbot, viewer, 1)
    assert len(live.game.history) == steps  # the game on the table is where it was
    viewer.close()
    QApplication.processEvents()
    assert viewer not in window.play.viewers or not viewer.isVisible()


def test_a_game_opened_from_its_snapshot_is_shown_from_there(qtbot) -> None:  # type: ignore[no-untyped-def]
    there = kept_game().at_step(40)
    resumed = Game.from_snapshot(
        there.scenario,
        there.state_document(),
        there.history,
        seed=there.seed,
        settings=there.settings,
    )
    viewer = ReplayWindow(resumed, "resumed")
    qtbot.addWidget(viewer)
    viewer.show()
    settle(qtbot, viewer, 40)
    assert (viewer.cursor.first, viewer.cursor.last) == (40, 40)
    assert viewer.scrubber.minimum() == viewer.scrubber.maximum() == 40
    assert not viewer.action_previous.isEnabled() and not viewer.action_next.isEnabled()
    assert places(viewer) == places(there)
    key(qtbot, viewer, Qt.Key.Key_Home)
    assert viewer.cursor.settled() and viewer.cursor.shown == 40
