"""A GUI monkey: a seeded random walk of real input over the main window (issue 17, Deliver 6).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/monkey.py --seed 7 --actions 2000
    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/monkey.py --minutes 30 --seed 1

It drives the real :class:`~ui.main_window.MainWindow` on the demo table with
mouse clicks and drags on the table (every editor tool, shapes drawn and
closed, figures dragged and turned), keys and shortcuts, the menus' actions,
the docks' fields, context menus, dialogs answered at random (accepted or
cancelled; files to open are earlier saves or the hostile files of
``tests/data/hostile``), and the play mode once a game is started (decision
buttons, figure drags, the play keys, undo; the program's side is played at
once after each action so a run is repeatable).

After every action it checks that

- no exception escaped into Qt (``sys.excepthook``) and Qt printed no warning
  other than the known harmless ones (:data:`HARMLESS`);
- the editor's scenario saves and loads again (what is saved must open);
- undo then redo of the last edit gives back the same file, and every
  :data:`FULL_ROUND_EVERY` actions undoing every edit gives back the document
  as it was opened, and redoing them all gives back the present.

A failure prints the seed, the failing check and the numbered action list;
the same ``--seed`` and ``--actions`` replay it (the program's side plays in
the same thread, so a run does not depend on timing).  Exit status 1 on a
failure.  The test suite runs a short walk (``tests/ui/test_monkey.py``).
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import (  # noqa: E402
    QEvent,
    QPoint,
    QPointF,
    QSettings,
    QStandardPaths,
    Qt,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QMouseEvent, QWheelEvent  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QSpinBox,
    QWidget,
)

HARMLESS = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
    "This plugin does not support grabbing the keyboard",
    "QFont::setPointSizeF: Point size <= 0",
    "Populating font family aliases",
)
"""Qt warnings of the offscreen platform itself, not of crdesk."""

SETTLE_MS = 1000
"""Single-shot timers of at most this interval are fired at once after each action."""

FULL_ROUND_EVERY = 50
"""Every this many actions: undo every edit, compare, redo them all, compare."""

NAMES = ("Sgt. <b>Bold</b>", "Tom & Jerry", "Ünïcødé ☃", "", "x" * 60, "<img src=x>")
"""Text typed into name fields and input dialogs: markup, ampersands, unicode, empty."""

EDITOR_KEYS = (
    "S", "E", "W", "H", "J", "I", "C", "B", "K", "M", "L",
    "1", "2", "3", "4", "D", "N", "R", "Q",
    "Delete", "Backspace", "Escape", "Return", "Left", "Right", "Up", "Down",
    "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "Ctrl+D", "Ctrl+A", "Ctrl+C", "Ctrl+V", "Ctrl+X",
    "Ctrl+R", "Ctrl+0", "Ctrl++", "Ctrl+-", "Ctrl+3", "Ctrl+;", "Ctrl+'",
)  # fmt: skip
PLAY_KEYS = (
    "M", "F", "R", "D", "X", "U", "K", "G", "C", "Shift+G", "Shift+K", "Ctrl+P",
    "PgUp", "PgDown", "Return", "Escape", "Space", "Delete", "Ctrl+Z",
)  # fmt: skip
NEVER = ("&Quit",)
"""Menu actions the monkey leaves alone (closing the window ends the walk)."""


class MonkeyFailure(AssertionError):
    """A check failed after an action; the message holds the seed and the actions."""


@dataclass
class Walk:
    """The state of one walk: its seed, its actions so far, what went wrong."""

    seed: int
    rng: random.Random
    folder: Path
    actions: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    saved: list[Path] = field(default_factory=list)
    trace: bool = False
    """Print each action as it is taken (a crash of Qt itself leaves no report)."""

    def add(self, text: str) -> None:
        self.actions.append(text)
        if self.trace:
            print(f"{len(self.actions):5d}. {text}", file=sys.stderr, flush=True)

    def report(self, check: str) -> str:
        lines = [
            f"monkey: seed {self.seed}, failed after action {len(self.actions)}: {check}",
            f"replay: python tools/monkey.py --seed {self.seed} --actions {len(self.actions)}",
            "actions:",
        ]
        lines += [f"  {i:4d}. {a}" for i, a in enumerate(self.actions, start=1)]
        return "\n".join(lines)


# -- catching what escapes -----------------------------------------------------------


@contextmanager
def watching(walk: Walk) -> Iterator[None]:
    """Record exceptions that reach Qt's event loop and Qt's warnings, for the walk."""
    old_hook = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        walk.errors.append("".join(traceback.format_exception(kind, value, tb)))

    def messages(kind: QtMsgType, _context: Any, text: str) -> None:
        if kind == QtMsgType.QtDebugMsg or kind == QtMsgType.QtInfoMsg:
            return
        if any(text.startswith(h) for h in HARMLESS):
            return
        walk.errors.append(f"Qt {kind.name}: {text}")

    sys.excepthook = hook
    old_handler = qInstallMessageHandler(messages)
    try:
        yield
    finally:
        sys.excepthook = old_hook
        qInstallMessageHandler(old_handler)


_INHERITED = object()
"""A patched name the class did not define itself (restored by deleting the patch)."""


@contextmanager
def answering(walk: Walk) -> Iterator[None]:
    """Modal dialogs answered by the walk's dice instead of waiting for a person."""
    rng = walk.rng
    saved: dict[tuple[type, str], Any] = {}

    def patch(owner: type, name: str, value: Any) -> None:
        # what the class itself held (a method it inherits is put back by deleting the
        # patch: saving getattr's answer would save a patch made on a base class first,
        # QDialog.exec for QMessageBox.exec, and leave it behind for good)
        saved[(owner, name)] = owner.__dict__.get(name, _INHERITED)
        setattr(owner, name, value)

    def dialog_exec(self: QDialog) -> int:
        path_edit = getattr(self, "path_edit", None)
        if isinstance(path_edit, QLineEdit):  # the Export dialog: into the walk's folder
            path_edit.setText(str(walk.folder / f"export-{len(walk.actions)}.png"))
        seed_box = getattr(self, "seed_box", None)
        seeded = ""
        if isinstance(seed_box, QSpinBox):  # the Generate dialog rolls a fresh seed: not here
            seed_box.setValue(rng.randint(0, 99_999))
            seeded = f" (seed {seed_box.value()})"
        self.show()
        QApplication.processEvents()
        accept = rng.random() < 0.6
        walk.add(f"    dialog {type(self).__name__}{seeded}: {'OK' if accept else 'Cancel'}")
        self.hide()
        code = QDialog.DialogCode.Accepted if accept else QDialog.DialogCode.Rejected
        self.setResult(code)
        return int(code.value)

    def box(answers: list[QMessageBox.StandardButton]) -> Callable[..., Any]:
        def answer(*_args: Any, **_kwargs: Any) -> QMessageBox.StandardButton:
            chosen = rng.choice(answers)
            walk.add(f"    message box: {chosen.name}")
            return chosen

        return answer

    def open_name(*_args: Any, **_kwargs: Any) -> tuple[str, str]:
        hostile = sorted((ROOT / "tests" / "data" / "hostile").glob("*.crdesk"))
        choices = ["", *map(str, walk.saved[-3:]), *map(str, hostile)]
        chosen = rng.choice(choices)
        walk.add(f"    open file: {Path(chosen).name if chosen else 'cancel'}")
        return chosen, ""

    def save_name(_parent: Any, _caption: str = "", start: str = "", *_a: Any, **_k: Any) -> Any:
        if rng.random() < 0.2:
            walk.add("    save file: cancel")
            return "", ""
        suffix = Path(start).suffix or ".crdesk"
        path = walk.folder / f"saved-{len(walk.actions)}{suffix}"
        if suffix == ".crdesk":
            walk.saved.append(path)
        walk.add(f"    save file: {path.name}")
        return str(path), ""

    def get_text(*_args: Any, **_kwargs: Any) -> tuple[str, bool]:
        text = rng.choice(NAMES)
        walk.add(f"    input: {text!r}")
        return text, rng.random() < 0.8

    buttons = QMessageBox.StandardButton
    patch(QDialog, "exec", dialog_exec)
    patch(QMessageBox, "exec", lambda self: int(buttons.Ok.value))
    patch(QMessageBox, "warning", box([buttons.Discard, buttons.Cancel, buttons.Save]))
    patch(QMessageBox, "question", box([buttons.Yes, buttons.No]))
    patch(QMessageBox, "critical", box([buttons.Ok]))
    patch(QMessageBox, "information", box([buttons.Ok]))
    patch(QMessageBox, "about", lambda *a, **k: None)
    patch(QFileDialog, "getOpenFileName", open_name)
    patch(QFileDialog, "getSaveFileName", save_name)
    patch(QInputDialog, "getText", get_text)
    try:
        yield
    finally:
        for (owner, name), value in reversed(saved.items()):
            if value is _INHERITED:
                delattr(owner, name)
            else:
                setattr(owner, name, value)


# -- input ------------------------------------------------------------------------


def _mouse(window: Any, kind: QEvent.Type, x: float, y: float, button: Any, buttons: Any,
           modifiers: Any = Qt.KeyboardModifier.NoModifier) -> None:  # fmt: skip
    view = window.view
    pos = QPointF(view.mapFromScene(QPointF(x, y)))
    glob = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
    QApplication.sendEvent(
        view.viewport(), QMouseEvent(kind, pos, glob, button, buttons, modifiers)
    )


def _click(window: Any, x: float, y: float, button: Any = Qt.MouseButton.LeftButton,
           modifiers: Any = Qt.KeyboardModifier.NoModifier) -> None:  # fmt: skip
    _mouse(window, QEvent.Type.MouseButtonPress, x, y, button, button, modifiers)
    _mouse(window, QEvent.Type.MouseButtonRelease, x, y, button, Qt.MouseButton.NoButton, modifiers)


def _drag(window: Any, points: list[tuple[float, float]], modifiers: Any) -> None:
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    (x0, y0), *rest = points
    _mouse(window, QEvent.Type.MouseButtonPress, x0, y0, left, left, modifiers)
    for x, y in rest:
        _mouse(window, QEvent.Type.MouseMove, x, y, none, left, modifiers)
    x, y = points[-1]
    _mouse(window, QEvent.Type.MouseButtonRelease, x, y, left, none, modifiers)


def _key(widget: QWidget, text: str) -> None:
    sequence = QKeySequence(text)
    combo = sequence[0]
    QTest.keyClick(widget, combo.key(), combo.keyboardModifiers())


def _type(widget: QWidget, text: str) -> None:
    """Type text as key events carrying it (QTest.keyClicks aborts on non-ASCII)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            event = QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char)
            QApplication.sendEvent(widget, event)


class Watchdog:
    """Reports a walk stuck in one action: its replay line, its actions and where every
    thread is, then ends the process (a stall inside Qt returns to no Python check)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.walk: Walk | None = None
        self.since = time.monotonic()
        self._lock = threading.Lock()
        thread = threading.Thread(target=self._watch, name="monkey-watchdog", daemon=True)
        thread.start()

    def tick(self, walk: Walk | None) -> None:
        """An action (or a walk) began: the clock starts again."""
        with self._lock:
            self.walk, self.since = walk, time.monotonic()

    def _watch(self) -> None:
        while True:
            time.sleep(min(1.0, self.seconds / 4))
            with self._lock:
                walk, waited = self.walk, time.monotonic() - self.since
            if walk is None or waited < self.seconds:
                continue
            print(walk.report(f"stalled: no action finished in {waited:.0f} s"), flush=True)
            faulthandler.dump_traceback(file=sys.stdout, all_threads=True)
            sys.stdout.flush()
            import os

            os._exit(2)


WATCHDOG: Watchdog | None = None
"""Set by :func:`main` (``--stall``); the suite's short walks run without one."""


class Monkey:
    """Random but seeded actions on one main window, with the checks after each."""

    def __init__(self, window: Any, walk: Walk, play: bool = True) -> None:
        self.window = window
        self.walk = walk
        self.rng = walk.rng
        self.play_allowed = play
        self._opened: tuple[int, str] | None = None
        self._steps = 0

    # -- where things are --------------------------------------------------------

    @property
    def battlefield(self) -> Any:
        play = self.window.play
        return (
            play.game.battlefield
            if play.active and play.game is not None
            else (self.window.scenario.battlefield)
        )

    def _spot(self) -> tuple[float, float]:
        table = self.battlefield.table
        return (
            round(self.rng.uniform(-3, table.width + 3), 2),
            round(self.rng.uniform(-3, table.height + 3), 2),
        )

    def _piece(self) -> tuple[str, float, float] | None:
        bf = self.battlefield
        pieces = [(f.id, f.x, f.y) for f in bf.figures()]
        for feature in bf.terrain:
            c = feature.outline.representative_point()
            pieces.append((feature.id, c.x, c.y))
        return self.rng.choice(pieces) if pieces else None

    def _menu_actions(self) -> list[QAction]:
        found: list[QAction] = []

        def walk_menu(menu: QMenu) -> None:
            for action in menu.actions():
                if action.menu() is not None:
                    if action.isEnabled():  # a greyed submenu does not open
                        walk_menu(action.menu())
                elif (
                    not action.isSeparator()
                    and action.isEnabled()
                    and action.text()
                    and action.text() not in NEVER
                ):
                    found.append(action)

        for top in self.window.menuBar().actions():
            if top.menu() is not None and top.isVisible():
                walk_menu(top.menu())
        return found

    # -- actions -------------------------------------------------------------------

    def step(self) -> None:
        """One random action, then the program's side, then the checks."""
        if WATCHDOG is not None:
            WATCHDOG.tick(self.walk)
        popup = QApplication.activePopupWidget()
        if isinstance(popup, QMenu):
            self._popup(popup)
        else:
            playing = self.window.play.active
            table = PLAY_ACTIONS if playing else EDITOR_ACTIONS
            names, weights = zip(*table, strict=True)
            name = self.rng.choices(names, weights)[0]
            getattr(self, f"_{name}")()
        self._settle()
        self._steps += 1
        self.check()

    def _say(self, text: str) -> None:
        self.walk.add(text)

    def _click_table(self) -> None:
        x, y = self._spot()
        button = self.rng.choice([Qt.MouseButton.LeftButton] * 4 + [Qt.MouseButton.RightButton])
        shift = self.rng.random() < 0.15
        mods = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
        self._say(f"click {button.name} {'shift ' if shift else ''}at ({x}, {y})")
        _click(self.window, x, y, button, mods)

    def _click_piece(self) -> None:
        piece = self._piece()
        if piece is None:
            return self._click_table()
        pid, x, y = piece
        right = self.rng.random() < 0.25
        button = Qt.MouseButton.RightButton if right else Qt.MouseButton.LeftButton
        self._say(f"click {button.name} on {pid} at ({x:.2f}, {y:.2f})")
        _click(self.window, x, y, button)

    def _drag_piece(self) -> None:
        piece = self._piece()
        if piece is None:
            return self._click_table()
        pid, x, y = piece
        steps = self.rng.randint(1, 4)
        points = [(x, y)]
        for _ in range(steps):
            px, py = points[-1]
            points.append(
                (round(px + self.rng.uniform(-8, 8), 2), round(py + self.rng.uniform(-8, 8), 2))
            )
        mod = self.rng.choice(
            [Qt.KeyboardModifier.NoModifier] * 5
            + [Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier]
        )
        self._say(f"drag {pid} {mod.name} along {points}")
        _drag(self.window, points, mod)

    def _draw_shape(self) -> None:
        tool = self.rng.choice(["W", "H", "J", "I", "C", "B", "K", "M", "L", "E"])
        _key(self.window.view, tool)
        points = [self._spot() for _ in range(self.rng.randint(1, 6))]
        finish = self.rng.choice(["Return", "double", "Escape", "none"])
        self._say(f"key {tool}, click {points}, then {finish}")
        for x, y in points:
            _click(self.window, x, y)
        if finish == "double" and points:
            x, y = points[-1]
            _mouse(self.window, QEvent.Type.MouseButtonDblClick, x, y,
                   Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)  # fmt: skip
        elif finish in ("Return", "Escape"):
            _key(self.window.view, finish)

    def _press_key(self) -> None:
        keys = PLAY_KEYS if self.window.play.active else EDITOR_KEYS
        text = self.rng.choice(keys)
        self._say(f"key {text}")
        self.window.view.setFocus()
        _key(self.window.view, text)

    def _wheel(self) -> None:
        x, y = self._spot()
        steps = self.rng.choice([-2, -1, 1, 2])
        self._say(f"wheel {steps} at ({x}, {y})")
        view = self.window.view
        pos = QPointF(view.mapFromScene(QPointF(x, y)))
        wheel = QWheelEvent(
            pos, QPointF(view.viewport().mapToGlobal(pos.toPoint())), QPoint(0, 0),
            QPoint(0, 120 * steps), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase, False,
        )  # fmt: skip
        QApplication.sendEvent(view.viewport(), wheel)

    def _menu(self) -> None:
        actions = self._menu_actions()
        if not actions:
            return
        action = self.rng.choice(actions)
        self._say(f"menu {action.text().replace('&', '')}")
        action.trigger()

    def _dock_field(self) -> None:
        docks = [d for d in self.window.findChildren(QDockWidget) if d.isVisible()]
        fields: list[QWidget] = []
        for dock in docks:
            for kind in (QAbstractSpinBox, QLineEdit, QComboBox, QAbstractButton):
                fields += [w for w in dock.findChildren(kind) if w.isVisible() and w.isEnabled()]
        # not the docks' own float/close buttons: a dock floated and closed again sends
        # Qt's offscreen platform into an endless round of posted show events
        # (QWidgetPrivate::show_sys), a Qt matter and not crdesk's
        fields = [
            w
            for w in fields
            if w.objectName() != "qt_spinbox_lineedit"
            and not w.objectName().startswith("qt_dockwidget_")
        ]
        if not fields:
            return
        widget = self.rng.choice(fields)
        name = f"{type(widget).__name__} {widget.objectName() or widget.toolTip()[:30]!r}"
        if isinstance(widget, QAbstractButton):
            self._say(f"dock: click {name} {widget.text()!r}")
            QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
        elif isinstance(widget, QComboBox):
            index = self.rng.randrange(max(1, widget.count()))
            self._say(f"dock: choose item {index} of {name}")
            widget.setFocus()
            widget.setCurrentIndex(index)
        elif isinstance(widget, QAbstractSpinBox):
            key = self.rng.choice(["Up", "Down", "PgUp", "PgDown"])
            self._say(f"dock: key {key} in {name}")
            widget.setFocus()
            _key(widget, key)
            _key(widget, "Return")
        else:
            assert isinstance(widget, QLineEdit)
            text = self.rng.choice(NAMES)
            self._say(f"dock: type {text!r} in {name}")
            widget.setFocus()
            widget.selectAll()
            _type(widget, text)
            _key(widget, "Return")

    def _popup(self, menu: QMenu) -> None:
        entries = [a for a in menu.actions() if a.isEnabled() and not a.isSeparator()]
        entries = [a for a in entries if a.menu() is None and a.text() not in NEVER]
        if entries and self.rng.random() < 0.8:
            action = self.rng.choice(entries)
            self._say(f"context menu: {action.text().replace('&', '')}")
            menu.hide()
            action.trigger()
        else:
            self._say("context menu: Escape")
            menu.hide()

    def _start_game(self) -> None:
        if not self.play_allowed:
            return self._menu()
        seed = self.rng.randint(1, 9)
        self._say(f"start an encounter, dice seed {seed}")
        self.window.play.autoplay = False
        self.window.play.start(seed)

    def _decide(self) -> None:
        dock = self.window.play.decision_dock
        buttons = [b for b in dock.buttons.values() if b.isVisible() and b.isEnabled()]
        if not buttons:
            return self._press_key()
        button = self.rng.choice(buttons)
        self._say(f"decision: {button.text()!r}")
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)

    def _stop_game(self) -> None:
        self._say("stop the game")
        self.window.play.stop()

    def _undo_game(self) -> None:
        self._say("undo a game step")
        self.window.play.undo()

    # -- after each action ----------------------------------------------------------

    def _settle(self) -> None:
        for _ in range(3):
            QApplication.processEvents()
        # debounce timers (the issues check, previews) fire now, not when the machine
        # gets round to it: the next action then sees the same window on every replay
        for timer in self.window.findChildren(QTimer):
            if timer.isActive() and timer.isSingleShot() and timer.interval() <= SETTLE_MS:
                timer.stop()
                timer.timeout.emit()
        QApplication.processEvents()
        play = self.window.play
        if play.active and play.session is not None:
            play.run_program()
            QApplication.processEvents()

    def check(self) -> None:
        """Fail on an escaped exception or Qt warning, a document that would not open
        again, or an undo/redo that does not give back the same document."""
        walk = self.walk
        if walk.errors:
            raise MonkeyFailure(walk.report(walk.errors[0]))
        if self.window.play.active:
            return
        from crdesk.scenario import dumps, from_document

        document = self.window.document
        stack = document.undo_stack
        try:
            text = dumps(document.scenario)
            from_document(json.loads(text))
        except Exception as exc:
            raise MonkeyFailure(
                walk.report(f"the document no longer saves and loads: {exc}")
            ) from exc
        opened = self._opened
        if opened is None or opened[0] != id(document):
            # a new document (Open, New): its undo history starts here
            self._opened = (id(document), text if stack.index() == 0 else "")
        if stack.canUndo():
            stack.undo()
            stack.redo()
            QApplication.processEvents()
            again = dumps(document.scenario)
            if again != text:
                raise MonkeyFailure(walk.report(_diff("undo then redo changed", text, again)))
        if self._steps % FULL_ROUND_EVERY == 0 and self._opened and self._opened[1]:
            index = stack.index()
            stack.setIndex(0)
            QApplication.processEvents()
            first = dumps(document.scenario)
            stack.setIndex(index)
            QApplication.processEvents()
            back = dumps(document.scenario)
            if first != self._opened[1]:
                raise MonkeyFailure(
                    walk.report(_diff("undoing every edit", self._opened[1], first))
                )
            if back != text:
                raise MonkeyFailure(walk.report(_diff("redoing every edit", text, back)))
        if walk.errors:
            raise MonkeyFailure(walk.report(walk.errors[0]))


def _diff(what: str, before: str, after: str) -> str:
    import difflib

    lines = list(
        difflib.unified_diff(before.splitlines(), after.splitlines(), "expected", "got", n=1)
    )
    return f"{what} the document:\n" + "\n".join(lines[:40])


EDITOR_ACTIONS = (
    ("click_table", 5),
    ("click_piece", 6),
    ("drag_piece", 8),
    ("draw_shape", 4),
    ("press_key", 8),
    ("wheel", 1),
    ("menu", 3),
    ("dock_field", 5),
    ("start_game", 1),
)
PLAY_ACTIONS = (
    ("click_table", 3),
    ("click_piece", 6),
    ("drag_piece", 8),
    ("press_key", 6),
    ("decide", 10),
    ("wheel", 1),
    ("menu", 1),
    ("dock_field", 2),
    ("undo_game", 1),
    ("stop_game", 1),
)


def run(
    seed: int,
    actions: int = 300,
    minutes: float | None = None,
    play: bool = True,
    folder: Path | None = None,
    window: Any = None,
    trace: bool = False,
    demo: Path | None = None,
) -> Walk:
    """Walk ``actions`` actions (or for ``minutes``) over a main window; raise
    :class:`MonkeyFailure` on the first failed check.  Returns the walk."""
    from crdesk.resources import demo_scenario
    from crdesk.scenario import load
    from ui.main_window import MainWindow

    QApplication.instance() or QApplication([sys.argv[0]])
    folder = folder or Path(tempfile.mkdtemp(prefix="crdesk-monkey-"))
    walk = Walk(seed, random.Random(seed), folder, trace=trace)
    own = window is None
    with watching(walk), answering(walk):
        if window is None:
            # each walk starts from the same window (no docks or geometry left by the
            # walk before), so one seed replays alone what it did in a long run
            QSettings().clear()
            window = MainWindow(load(str(demo or demo_scenario())))
            window.resize(1200, 860)
            window.show()
        window.play.autoplay = False
        monkey = Monkey(window, walk, play=play)
        QApplication.processEvents()
        monkey.check()
        deadline = time.monotonic() + minutes * 60 if minutes else None
        count = 0
        try:
            while (deadline is None and count < actions) or (
                deadline is not None and time.monotonic() < deadline
            ):
                try:
                    monkey.step()
                except MonkeyFailure:
                    raise
                except Exception:
                    raise MonkeyFailure(walk.report(traceback.format_exc())) from None
                count += 1
        finally:
            if own:
                if window.play.active and window.play.session is not None:
                    window.play.session.stop()
                window.document.undo_stack.setClean()
                if window.play.active:
                    window.play._leave()
                window.close()
                window.deleteLater()
                QApplication.processEvents()
    return walk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--actions", type=int, default=1000, help="actions per walk")
    parser.add_argument("--minutes", type=float, help="walk new seeds until this time is up")
    parser.add_argument("--no-play", action="store_true", help="stay in the editor")
    parser.add_argument("--trace", action="store_true", help="print each action as taken")
    parser.add_argument(
        "--keep-going", action="store_true",
        help="after a failing walk go on with the next seed (exit 1 at the end)",
    )  # fmt: skip
    parser.add_argument(
        "--stall", type=float, default=120.0,
        help="report and end a walk stuck this many seconds in one action (default 120)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    faulthandler.enable()
    global WATCHDOG
    WATCHDOG = Watchdog(args.stall) if args.stall > 0 else None
    # the walk's recent files, settings and recovery copies stay out of the user's own
    QStandardPaths.setTestModeEnabled(True)
    settings = Path(tempfile.mkdtemp(prefix="crdesk-monkey-settings-"))
    for form in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(form, QSettings.Scope.UserScope, str(settings))
    if hasattr(signal, "SIGUSR1"):  # kill -USR1 PID: where a hung walk is
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    QApplication.instance() or QApplication([sys.argv[0]])
    # the demo as it is now: a long run in a tree others commit to must not read a demo
    # written for rules options this process, started earlier, has not loaded
    from crdesk.resources import demo_scenario

    demo = settings / "demo.crdesk"
    demo.write_bytes(Path(str(demo_scenario())).read_bytes())
    seed, total, started = args.seed, 0, time.monotonic()
    failed: list[int] = []
    while True:
        walk_start = time.monotonic()
        try:
            walk = run(seed, args.actions, play=not args.no_play, trace=args.trace, demo=demo)
            if WATCHDOG is not None:
                WATCHDOG.tick(None)
        except MonkeyFailure as failure:
            print(failure, flush=True)
            if WATCHDOG is not None:
                WATCHDOG.tick(None)
            if not args.keep_going:
                return 1
            failed.append(seed)
            QApplication.processEvents()
        else:
            total += len([a for a in walk.actions if not a.startswith("    ")])
            print(
                f"seed {seed}: {args.actions} actions in {time.monotonic() - walk_start:.1f} s, ok",
                flush=True,
            )
        if args.minutes is None or time.monotonic() - started > args.minutes * 60:
            break
        seed += 1
    took = time.monotonic() - started
    if failed:
        print(f"monkey: {total} actions in passing walks, {took:.0f} s, failing seeds {failed}")
        return 1
    print(f"monkey: {total} actions, {took:.0f} s, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
