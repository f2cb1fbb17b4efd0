"""Opening a scenario without blocking the window, however big the file (issue 17).

A file at the limits (:mod:`crdesk.limits`: a 480" table, 1,000 features,
100,000 points, 400 figures) costs seconds to read, check, draw and index for
sight.  :func:`open_scenario` does all of it under one progress dialog
(:class:`~ui.progress.ProgressSession`, shown after 0.3 s, with Cancel):

1. in a worker thread: reading, the table checks, every feature's drawing
   (paths, decoration: :func:`ui.scene.scene.prepare`), the cloth and the
   terrain index for line of sight;
2. on the GUI thread, in batches of a few items with the event loop turning
   between them: the scene's items (Qt wants QGraphicsItems made there);
3. the caller installs the table (``install``), and the view's first tiles
   are painted a tile at a time.

Nothing is shown until the whole table is ready, so Cancel (or a failure)
before the install leaves the open table as it was; after it, Cancel only
leaves the remaining tiles to the first paint.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from crdesk.geometry import TerrainIndex
from crdesk.model import Scenario
from crdesk.validation import TableIssue, check_battlefield
from ui.progress import Cancelled, Progress, ProgressDialog, ProgressSession
from ui.scene.scene import BattlefieldScene, PreparedDrawing, prepare, warm_up_text
from ui.sight_overlay import build_sight_index


@dataclass
class OpenedTable:
    """A scenario read and made ready to show: what the window installs at once."""

    scenario: Scenario
    scene: BattlefieldScene
    issues: list[TableIssue]
    sight_index: TerrainIndex


@dataclass
class _Made:
    issues: list[TableIssue]
    drawing: PreparedDrawing
    sight_index: TerrainIndex


def _make(scenario: Scenario, progress: Progress) -> _Made:
    """The Qt-free heavy work of opening (any thread): checks, drawings, sight index."""
    bf = scenario.battlefield
    progress.update(text="Checking the table…")
    issues = check_battlefield(bf)
    progress.update(text="Drawing the terrain…")
    drawing = prepare(bf, progress=lambda done, total: progress.update(done, total))
    progress.update(text="Rasterising the terrain for line of sight…")
    index = build_sight_index(bf, scenario.rules)
    progress.check()
    return _Made(issues, drawing, index)


def open_scenario(
    parent: QWidget,
    path: str | os.PathLike[str],
    read: Callable[[str | os.PathLike[str]], Scenario],
    scene_parent: QObject | None = None,
    dialog_shown: Callable[[ProgressDialog], None] | None = None,
    install: Callable[[OpenedTable], Iterable[tuple[int, int]]] | None = None,
) -> OpenedTable:
    """Read ``path`` with ``read`` and make everything the window shows of it;
    ``install`` then shows it and returns the steps of the first paint
    (:meth:`~ui.scene.ground.GroundLayer.prepare_steps`), run under the same dialog.

    Raises what ``read`` raises, or :class:`~ui.progress.Cancelled`; then no
    scene is left behind and nothing was installed.
    """
    name = os.path.basename(os.fspath(path))
    with ProgressSession(
        parent, "Open scenario", f"Reading {name}…", dialog_shown=dialog_shown
    ) as session:
        scenario = session.work(lambda _p: read(path))
        warm_up_text(scenario.battlefield)  # QFont on the GUI thread, the paths in the worker
        made = session.work(lambda p: _make(scenario, p), "Checking the table…")
        scene = BattlefieldScene(
            scenario.battlefield, parent=scene_parent, prepared=made.drawing, populate=False
        )
        try:
            session.batches(scene.populate_steps(), "Placing the terrain and figures…")
        except BaseException:
            scene.detach()
            scene.deleteLater()
            raise
        opened = OpenedTable(scenario, scene, made.issues, made.sight_index)
        if install is not None:
            steps = install(opened)
            with suppress(Cancelled):  # the table is open: the rest paints when shown
                session.batches(steps, "Drawing the table…", at_once=False)
    return opened
