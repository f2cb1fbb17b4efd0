"""The GUI thread while steps are played (issue 12's "no block over 50 ms"): the status
overlay is redrawn once a step and only where it changed; the autosave waits while
the program plays and writes its file in a worker thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from crdesk.game.savefile import load_game
from tests.ui.windows import playing
from ui.main_window import MainWindow
from ui.play.autosave import GameAutosaver, GameAutosaveStore
from ui.play.markers import StatusMarkers

SEED = 1
"""Seed 1: Sgt. Mace's squad (p1..p4) decides first."""


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    return playing(qtbot, seed=SEED, size=(1200, 800), recovery=tmp_path / "recovery")


def counted_refreshes(markers: StatusMarkers) -> list[int]:
    calls: list[int] = []
    inner = markers.refresh

    def refresh() -> None:
        calls.append(1)
        inner()

    markers.refresh = refresh  # type: ignore[method-assign]
    return calls


def test_a_step_redraws_the_markers_once_after_it(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    markers = window.play.markers
    assert markers is not None
    markers.flush()
    calls = counted_refreshes(markers)
    battlefield = window.play.game.battlefield
    # three figure changes in a row (as a step makes inside the controller): one redraw
    battlefield.update_figure("p2", prone=True)
    battlefield.update_figure("p3", prone=True)
    battlefield.move_figure("p4", 12.0, 30.0)
    assert calls == [] and markers.stale()
    qtbot.waitUntil(lambda: not markers.stale())
    assert calls == [1]
    assert "prone" in markers.kinds("p2") and "prone" in markers.kinds("p3")
    assert calls == [1]  # the queries found it up to date


def test_a_query_right_after_a_step_sees_the_step(window: MainWindow) -> None:
    markers = window.play.markers
    assert markers is not None
    assert "prone" not in markers.kinds("p1")
    assert window.play.session.play("prone p1") is None
    assert "prone" in markers.kinds("p1")  # no event loop turn needed


def test_only_the_figures_that_changed_get_new_badges(window: MainWindow) -> None:
    markers = window.play.markers
    assert markers is not None
    battlefield = window.play.game.battlefield
    battlefield.update_figure("p2", prone=True)
    battlefield.update_figure("p3", prone=True)
    before_p2, before_p3 = markers.badges("p2"), markers.badges("p3")
    assert before_p2 and before_p3
    battlefield.update_figure("p3", out_of_ammo=True)
    battlefield.move_figure("p2", 15.0, 30.0)
    after_p2, after_p3 = markers.badges("p2"), markers.badges("p3")
    assert after_p2 == before_p2  # the same items, moved with their figure
    figure = battlefield.figure("p2")
    assert after_p2[0].pos().x() == pytest.approx(figure.x + figure.radius * 0.8)
    assert after_p3 != before_p3 and [b.kind for b in after_p3] == ["prone", "out_of_ammo"]
    assert all(b.scene() is None for b in before_p3)  # the old row is gone from the table
    battlefield.update_figure("p2", prone=False)
    assert markers.badges("p2") == [] and all(b.scene() is None for b in before_p2)


def test_the_autosave_waits_while_the_program_plays(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    autosaver = window.play.autosaver
    session = window.play.session
    assert autosaver is not None and session is not None
    assert autosaver.flush() is not None
    steps = len(session.game.history)
    playing = [True]  # the program plays on by itself from here...
    autosaver.program_playing = lambda: playing[0]  # type: ignore[method-assign]
    assert session.play("prone p1") is None  # (a step, as the program's would be)
    autosaver._pause()  # the pause after it
    assert not autosaver.writing() and len(load_game(autosaver.path).game.history) == steps
    playing[0] = False  # ...until a person is to decide: then it is written
    qtbot.waitUntil(lambda: len(load_game(autosaver.path).game.history) == steps + 1, timeout=5000)


def test_the_worker_writes_only_the_newest_of_the_waiting_saves(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    autosaver = window.play.autosaver
    session = window.play.session
    assert autosaver is not None and session is not None
    gate = threading.Event()
    written: list[int] = []
    store = autosaver.store
    real = GameAutosaveStore.write_prepared

    def slow(self: GameAutosaveStore, key: str, entry):  # type: ignore[no-untyped-def]
        gate.wait(5)
        written.append(int(entry.note["steps"]))
        return real(self, key, entry)

    monkeypatch.setattr(GameAutosaveStore, "write_prepared", slow)
    first = len(session.game.history)
    assert autosaver.flush(wait=False) is not None  # held in the worker by the gate
    for action in ("prone p1", "prone p2"):
        assert session.play(action) is None
        assert autosaver.flush(wait=False) is not None
    assert autosaver.writing()
    gate.set()
    autosaver.wait()
    assert written == [first, first + 2]  # the middle one was overtaken: never written
    assert not autosaver.writing() and autosaver.error is None
    reopened = load_game(store.path(autosaver.key)).game
    assert reopened.state_hash() == session.game.state_hash()


def test_a_failed_write_is_said_once_and_tried_again(window: MainWindow) -> None:
    autosaver = window.play.autosaver
    session = window.play.session
    assert isinstance(autosaver, GameAutosaver) and session is not None
    said: list[str] = []
    session.message.connect(said.append)

    def broken(self: GameAutosaveStore, key: str, entry):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    with pytest.MonkeyPatch.context() as patch:  # (the conftest's patches stay)
        patch.setattr(GameAutosaveStore, "write_prepared", broken)
        assert autosaver.flush() is None and autosaver.error == "disk full"
        assert autosaver.flush() is None  # tried again: the game was not written
        assert said == ["The game could not be autosaved: disk full"]
    assert autosaver.flush() is not None and autosaver.error is None


def test_a_program_step_is_told_at_the_next_loop_turn_and_before_anything_else(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    from crdesk.game import Action

    session = window.play.session
    assert session is not None
    heard: list[int] = []
    session.stepped.connect(lambda _events: heard.append(len(session.game.history)))
    steps = len(session.game.history)
    decision = session.awaiting()
    assert decision is not None
    # as the worker's answer is played: the controller now, the views at the next turn
    assert session._play_program(decision, Action.parse("prone p1"), "", split=True)
    assert len(session.game.history) == steps + 1 and heard == [] and session.program_pending()
    qtbot.waitUntil(lambda: heard == [steps + 1], timeout=2000)
    assert "prone" in window.play.markers.kinds("p1")
    # a person's step right after it: the views hear of the program's step first
    assert session._play_program(decision, Action.parse("prone p2"), "", split=True)
    assert session.play("prone p3") is None
    assert heard == [steps + 1, steps + 2, steps + 3]
    # and an undo right after one takes back a step the views were told of
    assert session._play_program(decision, Action.parse("prone p4"), "", split=True)
    assert session.undo() is None
    assert heard[-1] == steps + 4 and not session.program_pending()
