"""The GUI entry point: ``crdesk`` with no command (or ``crdesk FILE``) lands here.

A start must never end in a traceback: a file that fails to load is reported
in a message box and the window opens on an empty 36" x 36" table instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from crdesk.errors import ScenarioError
from crdesk.geometry import warmup
from crdesk.recovery import RecoveryStore
from ui.autosave import default_recovery_folder
from ui.dialogs.new_dialog import empty_scenario
from ui.file_open import open_handed_over, open_in
from ui.main_window import MainWindow
from ui.platform_check import check_platform
from ui.single_instance import InstanceServer, hand_over, server_name

ErrorSink = Callable[[str, str], None]


def _message_box(title: str, text: str) -> None:
    QMessageBox.critical(None, title, text)


def _collect(errors: list[tuple[str, str]], title: str, text: str) -> None:
    errors.append((title, text))


Ask = Callable[[str, str], bool]


def _ask(title: str, text: str) -> bool:
    answer = QMessageBox.question(
        None,
        title,
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes


def recover_windows(
    store: RecoveryStore, ask: Ask = _ask, tell: ErrorSink = _message_box
) -> list[MainWindow]:
    """After a crash: offer the work found in recovery files, and reopen it if wanted.

    Restored tables open unsaved-marked, under their original file name, so one
    Save puts them back where they were.  Entries are removed either way, so the
    question is asked once; a copy that cannot be read (cut short by the crash)
    is kept aside as ``*.crdesk.unreadable`` for a hand repair, and the user is
    told which and why.
    """
    entries = store.pending()
    if not entries:
        return []
    names = "\n".join(
        f"• {e.title or 'Untitled'}" + (f" ({e.original_path.name})" if e.original_path else "")
        for e in entries
    )
    wanted = ask(
        "Restore unsaved work?",
        f"crdesk was not closed properly. Unsaved work was kept for:\n{names}\n\nRestore it?",
    )
    windows = []
    for entry in entries:
        if wanted:
            try:
                scenario = entry.load()
            except (ScenarioError, OSError) as exc:
                aside = entry.scenario_path.with_name(entry.scenario_path.name + ".unreadable")
                try:
                    entry.scenario_path.replace(aside)
                except OSError:
                    aside = entry.scenario_path
                store.discard(entry.key)
                tell(
                    "Unsaved work could not be restored",
                    f"The recovery copy of {entry.title or 'Untitled'} is damaged and could "
                    f"not be read:\n{exc}\n\nIt was kept as {aside}.",
                )
                continue
            window = MainWindow(scenario, path=entry.original_path, recovery=store)
            assert window.document is not None
            window.document.undo_stack.resetClean()
            windows.append(window)
        store.discard(entry.key)
    return windows


def demo_path() -> str:
    """The bundled urban demo scenario that opens when no file is given."""
    from crdesk.resources import demo_scenario

    return str(demo_scenario())


def open_window(path: str | None, show_error: ErrorSink = _message_box) -> MainWindow:
    """A main window on the scenario at ``path`` (the demo when None), or an empty table."""
    from crdesk.scenario import load

    target = path if path is not None else demo_path()
    try:
        scenario = load(target)
    except (ScenarioError, OSError) as err:
        show_error("Could not open the scenario", str(err))
        return MainWindow(empty_scenario(title="Empty table"))
    return MainWindow(scenario, path=path)


def main(argv: Sequence[str] | None = None, instance_name: str | None = None) -> int:
    """Start the GUI on the given files (arguments after the program name); exit code.

    One window opens per file; with none, the bundled demo table opens (as a new,
    unsaved scenario, so Save never overwrites the shipped file).  When crdesk
    runs already, files go to it instead (``--new-window``: start anyway).
    """
    paths = list(sys.argv[1:] if argv is None else argv)
    new_window = "--new-window" in paths
    paths = [p for p in paths if p != "--new-window"]
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        problem = check_platform()  # before Qt aborts on a missing X11 library
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
        app = QApplication([sys.argv[0] if sys.argv else "crdesk"])
        instance_name = instance_name or server_name()
    app.setApplicationName("crdesk")
    app.setOrganizationName("crdesk")
    # One crdesk per user takes the files (ui/single_instance.py).  Only the process
    # that made the application object (or a test naming its own socket) takes part.
    server = InstanceServer(instance_name, parent=app) if instance_name else None
    if server is not None:
        if paths and not new_window and hand_over(paths, instance_name):
            return 0
        if server.listen():
            server.files_received.connect(partial(open_handed_over, windows=main_windows))
    # compile the sight kernels while the windows open (numpy serves meanwhile)
    warmup.warm_up_in_background()
    opened: list[tuple[MainWindow, list[tuple[str, str]]]] = [
        (window, []) for window in recover_windows(RecoveryStore(default_recovery_folder()))
    ]
    targets: list[str | None] = list(paths) or ([] if opened else [None])
    for path in targets:
        errors: list[tuple[str, str]] = []
        if path is not None and Path(path).suffix.lower() in (".crgame", ".crband"):
            # a game or a Band opens in a window of its own, the way File menus do
            window = MainWindow(empty_scenario(title="Empty table"))
            QTimer.singleShot(0, partial(open_in, window, path))
        else:
            window = open_window(path, partial(_collect, errors))
        opened.append((window, errors))
    for window, errors in opened:
        window.show()
        for title, text in errors:
            # Once the loop runs, so the message sits over the (empty) window it explains.
            QTimer.singleShot(0, partial(window.show_error, title, text))
    # a game a crash interrupted (ui/play/autosave.py): offer to resume it
    QTimer.singleShot(0, opened[-1][0].play.offer_recovery)
    if os.environ.get("CRDESK_SMOKE_TEST"):  # packaging/smoke.py: start, draw, quit
        QTimer.singleShot(0, partial(_smoke_report, app, [w for w, _ in opened]))
    try:
        return int(app.exec())
    finally:
        if server is not None:
            server.close()


def main_windows() -> list[MainWindow]:
    """The open main windows, for files another ``crdesk`` start hands over."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def _smoke_report(app: QApplication, windows: list[MainWindow]) -> None:
    """A bundle's smoke test: say what opened (the event loop ran), then quit."""
    import time

    for window in windows:
        figures = len(window.scene.figure_items()) if window.scene is not None else 0
        print(f"crdesk smoke test: window {window.windowTitle()!r} with {figures} figures")
    start = time.perf_counter()
    route = "numba kernels" if warmup.warm_up() else "numpy (kernels off)"
    print(f"crdesk smoke test: sight engine on {route} ({time.perf_counter() - start:.1f} s)")
    app.quit()
