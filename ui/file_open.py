"""Opening files the desktop way: dropped on a window, or handed over by a second start.

All three kinds of crdesk file open the same way whichever way they come: a
scenario (``.crdesk``) in the editor, a game (``.crgame``) in play mode, a
Band (``.crband``) in the campaign dock.  The window's own ``open_file``
methods ask about unsaved work first and show why a file cannot be read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget

if TYPE_CHECKING:
    from ui.main_window import MainWindow

SUFFIXES = (".crdesk", ".crgame", ".crband")


def crdesk_files(mime: QMimeData) -> list[Path]:
    """The local crdesk files among dragged data (other files and web links are not ours)."""
    if not mime.hasUrls():
        return []
    found = []
    for url in mime.urls():
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.suffix.lower() in SUFFIXES:
                found.append(path)
    return found


def open_in(window: MainWindow, path: str | os.PathLike[str]) -> bool:
    """Open any crdesk file in ``window`` by its suffix; True when it opened."""
    suffix = Path(path).suffix.lower()
    if suffix == ".crgame":
        return window.play.open_file(path)
    if suffix == ".crband":
        return window.play.campaign_dock.open_file(path)
    return window.open_file(path)


class FileDropFilter(QObject):
    """Accepts crdesk files dropped from a file manager on a window; opens the first.

    An event filter, installed on the window and on its table view's viewport
    (the view would otherwise hand the drag to the scene, which ignores it).
    Drags that carry no crdesk file pass on untouched, so figure templates
    dragged from the roster still land on the table.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragEnterEvent | QDragMoveEvent)
            if not crdesk_files(event.mimeData()):
                return False
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            return True
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            files = crdesk_files(event.mimeData())
            if not files:
                return False
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            # one file per window: the first opens here, the rest in windows of their own
            open_in(self.window, files[0])
            for extra in files[1:]:
                open_elsewhere(self.window, extra)
            return True
        return False


def install_file_drop(window: MainWindow) -> FileDropFilter:
    """Let crdesk files be dropped anywhere on ``window`` (docks and toolbars included)."""
    drop = FileDropFilter(window)
    targets: list[QWidget] = [window, window.view.viewport()]
    for widget in targets:
        widget.setAcceptDrops(True)
        widget.installEventFilter(drop)
    return drop


def is_pristine(window: MainWindow) -> bool:
    """A window showing nothing the user would miss: no changes, no game, no file of theirs."""
    document = window.document
    if window.play.busy:
        return False
    if document is None:
        return True
    return not document.is_modified and (document.path is None or window.is_template())


_extra_windows: list[MainWindow] = []
"""Windows opened for handed-over or extra dropped files (kept alive while shown)."""


def open_elsewhere(near: MainWindow, path: str | os.PathLike[str]) -> MainWindow:
    """Open ``path`` in a new window beside ``near``."""
    from ui.dialogs.new_dialog import empty_scenario
    from ui.main_window import MainWindow

    window = MainWindow(empty_scenario(title="Empty table"), recovery=near.recovery)
    _extra_windows[:] = [w for w in _extra_windows if w.isVisible()]
    _extra_windows.append(window)
    window.show()
    if not open_in(window, path):
        window.close()
    return window


def open_handed_over(paths: list[str], windows: Callable[[], list[MainWindow]]) -> None:
    """Files a second ``crdesk FILE`` start sent: open them and bring the window up.

    The active (else the newest) window takes the first file when it shows
    nothing the user would miss; otherwise, and for the other files, a new
    window opens, so a double-click in the file manager never replaces work.
    """
    shown = [w for w in windows() if w.isVisible()]
    active = QApplication.activeWindow()
    target = next((w for w in shown if w is active), shown[-1] if shown else None)
    for path in paths:
        if target is not None and is_pristine(target):
            open_in(target, path)
            window = target
        elif target is not None:
            window = open_elsewhere(target, path)
        else:
            continue
        target = window
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
        window.raise_()
        window.activateWindow()
