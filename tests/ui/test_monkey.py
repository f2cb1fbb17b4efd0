"""The GUI monkey, short (issue 17, Deliver 6): a seeded random walk of real input over
the main window, editor and play mode, with no escaped exception, no Qt warning, a
document that always saves and loads, and undo/redo giving back the same document.

The long walk is ``tools/monkey.py --minutes 30``; a failure prints its seed and
its actions, and the same seed replays it.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from crdesk.resources import demo_scenario
from crdesk.scenario import load
from ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def monkey_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("crdesk_monkey", ROOT / "tools" / "monkey.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    window = MainWindow(load(str(demo_scenario())))
    qtbot.addWidget(window)
    window.resize(1200, 860)
    window.show()
    qtbot.waitExposed(window)
    yield window
    if window.play.active and window.play.session is not None:
        window.play.session.stop()
    window.document.undo_stack.setClean()


def test_a_seeded_walk_in_the_editor_finds_nothing(window: MainWindow, tmp_path: Path) -> None:
    monkey = monkey_module()
    walk = monkey.run(11, 60, play=False, folder=tmp_path, window=window)
    done = [a for a in walk.actions if not a.startswith("    ")]
    assert len(done) == 60
    kinds = {a.split(" ")[0] for a in done}
    assert {"click", "drag", "key"} <= kinds, kinds


def test_a_seeded_walk_through_a_game_finds_nothing(window: MainWindow, tmp_path: Path) -> None:
    monkey = monkey_module()
    window.play.autoplay = False
    assert window.play.start(3)
    walk = monkey.run(12, 60, play=True, folder=tmp_path, window=window)
    done = [a for a in walk.actions if not a.startswith("    ")]
    assert len(done) == 60
    assert sum(a.startswith("decision:") for a in done) >= 3, done


def test_a_failure_names_the_seed_and_the_actions(window: MainWindow, tmp_path: Path) -> None:
    """An exception escaping a slot fails the walk with its seed and a replay line."""
    monkey = monkey_module()

    def boom(*_args: object) -> None:
        raise RuntimeError("a slot that fails")

    window.document.selection_changed.connect(boom)  # the first click on a piece
    with pytest.raises(monkey.MonkeyFailure) as failure:
        monkey.run(5, 60, play=False, folder=tmp_path, window=window)
    text = str(failure.value)
    assert "seed 5" in text and "a slot that fails" in text
    assert "--seed 5 --actions" in text and "actions:" in text
    window.document.selection_changed.disconnect(boom)


def test_a_scenario_opened_during_a_game_stops_the_game_first(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the monkey (seeds 7, 11, 12): Open Recent's entries, or a file dropped on
    the window, replaced the editor's document under a running game and showed the
    editor's table in play mode."""
    from crdesk.scenario import save
    from ui.play.save_position import Leave, LeaveQuestion

    other = tmp_path / "other.crdesk"
    save(load(str(demo_scenario())), other)
    window.play.autoplay = False
    assert window.play.start(1)
    game_scene = window.play.scene
    document = window.document
    monkeypatch.setattr(LeaveQuestion, "ask", staticmethod(lambda *_a: Leave.STAY))
    assert not window.open_file(other)
    assert window.play.active and window.view.scene() is game_scene
    assert window.document is document
    monkeypatch.setattr(LeaveQuestion, "ask", staticmethod(lambda *_a: Leave.LEAVE))
    assert window.open_file(other)
    assert not window.play.active
    assert window.document is not document and window.path == other
    assert window.view.scene() is window.scene


def test_a_walk_puts_back_every_dialog_it_answered(window: MainWindow, tmp_path: Path) -> None:
    """After a walk, message boxes and dialogs are Qt's own again (the walk had left its
    answering QMessageBox.exec behind, and a later test's real question answered itself)."""
    from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

    monkey = monkey_module()
    before = {
        (cls, name): cls.__dict__.get(name)
        for cls, name in [
            (QDialog, "exec"),
            (QMessageBox, "exec"),
            (QMessageBox, "warning"),
            (QMessageBox, "question"),
            (QFileDialog, "getSaveFileName"),
        ]
    }
    walk = monkey.Walk(seed=3, rng=random.Random(3), folder=tmp_path)
    with monkey.answering(walk):
        assert QMessageBox.__dict__.get("exec") is not before[(QMessageBox, "exec")]
    after = {key: key[0].__dict__.get(key[1]) for key in before}
    assert after == before
