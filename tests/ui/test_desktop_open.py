"""Opening files the desktop way: dropped on the window, handed over by a second start."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QUndoCommand
from PySide6.QtNetwork import QLocalSocket
from PySide6.QtWidgets import QApplication, QMessageBox

from crdesk.scenario import save
from tests.ui.sample import make_scenario
from ui.file_open import is_pristine, open_handed_over
from ui.main_window import MainWindow
from ui.single_instance import InstanceServer, decode, encode, hand_over, server_name

_names = itertools.count()


@pytest.fixture
def name() -> str:
    """A socket name of this test's own (workers and a real crdesk must not meet)."""
    return f"crdesk-test-{os.getpid()}-{next(_names)}"


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    scenario = make_scenario()
    scenario.title = "Dropped table"
    path = tmp_path / "dropped.crdesk"
    save(scenario, path)
    return path


def _window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    scenario = make_scenario()
    scenario.title = "Work in progress"
    window = MainWindow(scenario)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _urls(*paths: Path | str) -> QMimeData:
    mime = QMimeData()
    mime.setUrls(
        [QUrl(p) if str(p).startswith("http") else QUrl.fromLocalFile(str(p)) for p in paths]
    )
    return mime


def _drop(window: MainWindow, mime: QMimeData) -> tuple[bool, bool]:
    """Drag ``mime`` over the table and drop it: (enter accepted, drop accepted)."""
    viewport = window.view.viewport()
    at = QPointF(viewport.width() / 2, viewport.height() / 2)
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    enter = QDragEnterEvent(
        at.toPoint(), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(viewport, enter)
    drop = QDropEvent(at, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, drop)
    return enter.isAccepted(), drop.isAccepted()


def _modify(window: MainWindow) -> None:
    assert window.document is not None
    window.document.undo_stack.push(QUndoCommand("an edit"))
    assert window.document.is_modified


# -- drop to open ------------------------------------------------------------------------


def test_a_dropped_scenario_opens_in_the_window(qtbot, scenario_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot)
    assert _drop(window, _urls(scenario_file)) == (True, True)
    assert window.path == scenario_file
    assert window.scenario.title == "Dropped table"
    assert str(scenario_file.resolve()) in window.recent_files()
    Path("/tmp/crdesk-shots").mkdir(parents=True, exist_ok=True)
    window.grab().save("/tmp/crdesk-shots/drop-opened.png")


def test_dropping_on_unsaved_work_asks_first_and_cancel_keeps_it(
    qtbot,  # type: ignore[no-untyped-def]
    scenario_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = _window(qtbot)
    _modify(window)
    asked: list[str] = []

    def cancel(_parent, title, text, *args):  # type: ignore[no-untyped-def]
        asked.append(str(title))
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "warning", cancel)
    _drop(window, _urls(scenario_file))
    assert asked == ["Unsaved changes"]
    assert window.scenario.title == "Work in progress" and window.path is None

    monkeypatch.setattr(QMessageBox, "warning", lambda *a: QMessageBox.StandardButton.Discard)
    _drop(window, _urls(scenario_file))
    assert window.scenario.title == "Dropped table"


def test_other_drags_pass_untouched(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot)
    text = tmp_path / "notes.txt"
    text.write_text("not a table")
    _drop(window, _urls(text, "https://example.org/x.crdesk"))
    assert window.scenario.title == "Work in progress" and window.path is None


def test_a_dropped_game_resumes_in_play_mode(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from crdesk.cli import main as crdesk
    from ui.app import demo_path

    game = tmp_path / "g.crgame"
    assert crdesk(["game", "new", demo_path(), "-o", str(game), "--seed", "3"]) == 0
    window = _window(qtbot)
    assert _drop(window, _urls(game))[1]
    assert window.play.active


def test_a_broken_drop_says_why_and_keeps_the_table(  # type: ignore[no-untyped-def]
    qtbot, tmp_path: Path, _no_modal_dialogs
) -> None:
    bad = tmp_path / "bad.crdesk"
    bad.write_text("{ not json")
    window = _window(qtbot)
    _drop(window, _urls(bad))
    assert window.scenario.title == "Work in progress"
    assert any("bad.crdesk" in text for _title, text in _no_modal_dialogs)


# -- one running instance ----------------------------------------------------------------


def test_a_second_start_hands_its_files_to_the_first(  # type: ignore[no-untyped-def]
    qtbot, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = InstanceServer(name)
    assert server.listen()
    got: list[list[str]] = []
    server.files_received.connect(got.append)
    try:
        # relative paths arrive absolute: the first instance's cwd differs
        monkeypatch.chdir(tmp_path)
        assert hand_over(["table.crdesk", str(tmp_path / "g.crgame")], name)
        assert got == [[str(tmp_path / "table.crdesk"), str(tmp_path / "g.crgame")]]
    finally:
        server.close()


def test_nobody_listening_means_start_a_window_of_ones_own(qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    assert hand_over(["x.crdesk"], name, timeout_ms=1000) is False


def test_a_second_server_yields_to_a_live_one_and_replaces_a_dead_one(qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    first = InstanceServer(name)
    assert first.listen()
    second = InstanceServer(name)
    assert not second.listen()  # a crdesk runs: it takes the files
    first.close()
    assert second.listen()  # the name is free again
    second.close()


@pytest.mark.skipif(os.name == "nt", reason="named pipes leave no file behind")
def test_the_socket_file_of_a_crashed_crdesk_does_not_block_the_next(qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    import socket

    from PySide6.QtCore import QDir

    stale = Path(QDir.tempPath()) / name
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(stale))  # bound, never listening, file left behind: as after a crash
    dead.close()
    assert stale.exists()
    server = InstanceServer(name)
    assert server.listen()
    assert hand_over(["x.crdesk"], name)
    server.close()


def test_a_garbled_message_is_refused_and_opens_nothing(qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    server = InstanceServer(name)
    assert server.listen()
    got: list[list[str]] = []
    server.files_received.connect(got.append)
    socket = QLocalSocket()
    socket.connectToServer(name)
    assert socket.waitForConnected(1000)
    socket.write(b'{"run": "rm -rf ~"}\n')
    qtbot.waitUntil(lambda: socket.bytesAvailable() > 0 or not socket.isOpen(), timeout=2000)
    answer = bytes(socket.readAll().data()).decode()
    assert answer.startswith("error: not a crdesk hand-over message")
    assert got == []
    server.close()


def test_the_message_is_one_json_line_of_absolute_paths() -> None:
    message = encode(["a.crdesk"])
    assert message.endswith(b"\n") and message.count(b"\n") == 1
    assert Path(json.loads(message)["open"][0]).is_absolute()
    assert decode(message) == [str(Path("a.crdesk").absolute())]
    with pytest.raises(ValueError, match="hand-over"):
        decode(b'{"open": [1]}')
    assert server_name().startswith("crdesk-") and "/" not in server_name()


def test_a_handed_over_file_replaces_an_untouched_table_but_never_work(  # type: ignore[no-untyped-def]
    qtbot, scenario_file: Path
) -> None:
    window = _window(qtbot)
    assert is_pristine(window)
    open_handed_over([str(scenario_file)], windows=lambda: [window])
    assert window.path == scenario_file  # the untouched table made way

    _modify(window)
    other = scenario_file.with_name("other.crdesk")
    save(make_scenario(), other)
    open_handed_over([str(other)], windows=lambda: [window])
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    opened = [w for w in windows if w.path == other]
    assert len(opened) == 1 and opened[0] is not window and opened[0].isVisible()
    assert window.path == scenario_file and window.document.is_modified
    for extra in opened:
        qtbot.addWidget(extra)


def test_main_hands_over_to_a_running_crdesk_and_new_window_does_not(  # type: ignore[no-untyped-def]
    qtbot, qapp, name: str, scenario_file: Path
) -> None:
    """``crdesk FILE`` while crdesk runs: the file goes there and this start ends (0)."""
    from ui.app import main

    running = InstanceServer(name)
    assert running.listen()
    got: list[list[str]] = []
    running.files_received.connect(got.append)
    assert main([str(scenario_file)], instance_name=name) == 0
    assert got == [[str(scenario_file.absolute())]]
    assert not [w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    running.close()


def test_new_window_starts_its_own_window_while_crdesk_runs(  # type: ignore[no-untyped-def]
    qtbot, qapp, name: str, scenario_file: Path
) -> None:
    from ui.app import main

    running = InstanceServer(name)
    assert running.listen()
    got: list[list[str]] = []
    running.files_received.connect(got.append)
    windows: list[MainWindow] = []

    def finish() -> None:
        windows.extend(w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow))
        qapp.exit(5)

    QTimer.singleShot(200, finish)
    assert main(["--new-window", str(scenario_file)], instance_name=name) == 5
    for window in windows:
        qtbot.addWidget(window)
    assert [w.path for w in windows if w.isVisible()] == [scenario_file]
    assert got == []  # nothing was handed over
    running.close()


def test_the_first_start_listens_and_opens_what_a_later_start_sends(  # type: ignore[no-untyped-def]
    qtbot, qapp, name: str, scenario_file: Path
) -> None:
    from ui.app import main

    seen: list[Path | None] = []
    windows: list[MainWindow] = []

    def second_start() -> None:
        assert hand_over([str(scenario_file)], name)
        qtbot.waitUntil(lambda: any(w.path == scenario_file for w in _main_windows()), timeout=3000)
        windows.extend(_main_windows())
        seen.extend(w.path for w in windows if w.isVisible())
        qapp.exit(0)

    QTimer.singleShot(300, second_start)
    assert main([], instance_name=name) == 0
    for window in windows:
        qtbot.addWidget(window)
    assert scenario_file in seen
    assert hand_over(["x.crdesk"], name, timeout_ms=500) is False  # it stopped listening


def _main_windows() -> list[MainWindow]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def test_drop_target_point_is_inside_the_table(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The drop helper really aims at the table view (not at a dock)."""
    window = _window(qtbot)
    viewport = window.view.viewport()
    centre = QPoint(viewport.width() // 2, viewport.height() // 2)
    assert window.childAt(viewport.mapTo(window, centre)) is viewport


def test_a_game_on_the_command_line_opens_in_play_mode(  # type: ignore[no-untyped-def]
    qtbot, qapp, name: str, tmp_path: Path
) -> None:
    """What a file manager runs for a double-clicked .crgame: ``crdesk g.crgame``."""
    from crdesk.cli import main as crdesk
    from ui.app import demo_path, main

    game = tmp_path / "g.crgame"
    assert crdesk(["game", "new", demo_path(), "-o", str(game), "--seed", "4"]) == 0
    playing: list[bool] = []
    windows: list[MainWindow] = []

    def finish() -> None:
        windows.extend(_main_windows())
        playing.extend(w.play.active for w in windows if w.isVisible())
        qapp.exit(0)

    QTimer.singleShot(300, finish)
    assert main([str(game)], instance_name=name) == 0
    for window in windows:
        qtbot.addWidget(window)
    assert playing == [True]
