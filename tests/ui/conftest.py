"""GUI tests keep settings and recovery files out of the user's home."""

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, QStandardPaths


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    QStandardPaths.setTestModeEnabled(True)
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QSettings().clear()
    yield


@pytest.fixture(autouse=True)
def _no_route_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """No roadmap built on a background thread for every game a test starts (the first
    drag builds it when a test drags)."""
    monkeypatch.setattr("ui.play.mode.ROUTES_IN_BACKGROUND", False)


@pytest.fixture(autouse=True)
def _no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """A modal message box would hang an offscreen run: answer it and record it instead.

    Unsaved-changes prompts answer Discard, questions answer No, errors are
    recorded; "Leave play mode?" answers leave (without saving).  Tests that care
    about a prompt patch these again themselves.
    """
    from PySide6.QtWidgets import QMessageBox

    shown: list[tuple[str, str]] = []

    def record(answer: QMessageBox.StandardButton):  # type: ignore[no-untyped-def]
        def box(_parent, title, text, *args, **kwargs):  # type: ignore[no-untyped-def]
            shown.append((str(title), str(text)))
            return answer

        return box

    monkeypatch.setattr(QMessageBox, "warning", record(QMessageBox.StandardButton.Discard))
    monkeypatch.setattr(QMessageBox, "question", record(QMessageBox.StandardButton.No))
    monkeypatch.setattr(QMessageBox, "critical", record(QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "information", record(QMessageBox.StandardButton.Ok))
    from ui.play.save_position import Leave, LeaveQuestion

    def leave(_parent, game, unsaved):  # type: ignore[no-untyped-def]
        shown.append(("Leave play mode?", f"turn {game.turn}, unsaved {unsaved}"))
        return Leave.LEAVE  # (with unsaved steps: like Discard)

    monkeypatch.setattr(LeaveQuestion, "ask", staticmethod(leave))
    return shown


@pytest.fixture(autouse=True)
def _collect_qt_garbage(qapp):  # type: ignore[no-untyped-def]
    """After each GUI test, run Qt's deferred deletes and Python's cycle collector.

    Wrappers of Qt objects left in reference cycles are otherwise collected at
    a random later moment, in the middle of another test's painting; doing it
    here, with no window left, keeps each test's debris to itself.
    """
    yield
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
