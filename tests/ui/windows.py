"""The main window as the GUI tests open it, and the first steps of a game on it.

One place for what every play and editor test does first (open the window on a
scenario, show it, wait until it is on screen; start a seeded game and run the
program's side at once; activate a group by its button), so that a change in how
the window comes up is made once.  The program's side is driven deterministically:
``window.play.autoplay`` is off before any game starts, and ``start`` runs the
program's steps with ``run_program()``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWidget

from crdesk.game import Decision, GameSettings
from crdesk.recovery import RecoveryStore
from crdesk.scenario import Scenario
from tests.demos import demo
from ui.docks import PropertiesDock
from ui.document import Document
from ui.main_window import MainWindow

W = TypeVar("W", bound=QWidget)

SHOTS = Path("/tmp/crdesk-shots")
"""Where the tests leave their screenshots for people to look at."""
SIZE = (1400, 900)
"""The play tests' window: the table and every play dock readable side by side."""
EDITOR_SIZE = (1280, 860)
"""The editor tests' window: the docks at their smallest supported screen."""


def exposed(qtbot, widget: W, size: tuple[int, int]) -> W:  # type: ignore[no-untyped-def]
    """``widget`` at ``size``, on screen, closed with the test."""
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def open_window(  # type: ignore[no-untyped-def]
    qtbot,
    scenario: Scenario | None = None,
    path: str | os.PathLike[str] | None = None,
    *,
    size: tuple[int, int] = SIZE,
    recovery: Path | None = None,
) -> MainWindow:
    """The main window on ``scenario`` (the demo by default), shown, exposed, autoplay off.

    ``recovery``: a folder for the window's recovery files (else the test-mode default).
    """
    window = MainWindow(
        demo() if scenario is None else scenario,
        path,
        recovery=None if recovery is None else RecoveryStore(recovery),
    )
    exposed(qtbot, window, size)
    window.play.autoplay = False
    return window


def start(
    window: MainWindow,
    seed: int = 1,
    program: Iterable[str] | None = None,
    settings: GameSettings | None = None,
) -> None:
    """Start a game with ``seed`` and play the program's steps up to the first person's decision."""
    assert window.play.start(seed, program, settings)
    window.play.run_program()


def activate(window: MainWindow, qtbot, leader: str = "p1") -> Decision:  # type: ignore[no-untyped-def]
    """Click the decision panel's "activate <leader>" button; the group then has to act."""
    qtbot.mouseClick(
        window.play.decision_dock.buttons[f"activate {leader}"], Qt.MouseButton.LeftButton
    )
    session = window.play.session
    assert session is not None
    decision = session.awaiting()
    assert decision is not None and decision.kind == "act", decision
    return decision


def playing(  # type: ignore[no-untyped-def]
    qtbot,
    scenario: Scenario | None = None,
    *,
    seed: int = 1,
    leader: str = "p1",
    **window_options,
) -> MainWindow:
    """A window with a game started with ``seed`` and ``leader``'s group activated.

    Seed 1 on the demo table: the Red Vipers roll higher but have no group good
    enough, so Sgt. Mace's squad (p1 Sgt. Mace, p2 Cpl. Diaz, p3 Pvt. Okafor,
    p4 Pvt. Lind, p5 Pvt. Kowalski) decides first.
    """
    window = open_window(qtbot, scenario, **window_options)
    start(window, seed)
    activate(window, qtbot, leader)
    return window


def demo_document() -> Iterator[Document]:
    """A document on the demo scenario, closed afterwards (``yield from`` it in a fixture)."""
    document = Document(demo())
    yield document
    document.close()


def properties_dock(qtbot, document: Document, height: int) -> PropertiesDock:  # type: ignore[no-untyped-def]
    """The properties dock alone on ``document``, 320 px wide, on screen."""
    return exposed(qtbot, PropertiesDock(document), (320, height))


def screenshot(window: MainWindow, folder: Path, name: str) -> QImage:
    """The window's picture: saved in ``folder`` (which must work) and in :data:`SHOTS`."""
    image = window.grab().toImage()
    assert image.save(str(folder / name)), name
    SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(str(SHOTS / name))
    return image


def colour_at(window: MainWindow, image: QImage, x: float, y: float) -> QColor:
    """The colour the window's picture ``image`` shows at table position (x, y)."""
    view = window.view
    return image.pixelColor(view.mapTo(window, view.mapFromScene(QPointF(x, y))))
