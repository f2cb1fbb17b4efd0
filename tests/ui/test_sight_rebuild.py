"""A terrain edit on a huge table does not wait for the sight raster (issue 17).

The overlay rebuilds a heavy table's terrain index in a worker; until it is
ready the lines drawn last stay up with an "updating" hint, and edits in quick
succession make one build.  Here every table counts as heavy and each build
takes at least 0.4 s, so an edit that waited for it would show.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from crdesk.visibility import VisibilityService
from tests.ui.sample import make_scenario
from ui import sight_overlay
from ui.commands import MoveItemsCommand
from ui.main_window import MainWindow

BUILD_S = 0.4
SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def window(qtbot, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sight_overlay, "HEAVY_CELLS", 0)
    real = sight_overlay.build_sight_index

    def slow(*args: Any) -> Any:
        time.sleep(BUILD_S)
        return real(*args)

    monkeypatch.setattr(sight_overlay, "build_sight_index", slow)
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    sight = window.editor.sight
    assert sight is not None and sight.heavy
    qtbot.waitUntil(lambda: not sight.pending(), timeout=10_000)
    yield window
    window.document.undo_stack.setClean()


def blocked_from(window: MainWindow, viewer: str) -> int:
    """What a fresh service says: enemies of ``viewer`` it does not see."""
    bf = window.document.battlefield
    row = VisibilityService(bf, window.document.scenario.rules).row(viewer)
    me = bf.figure(viewer)
    return sum(
        not seen
        for fid, seen in zip(row.ids, row.sees.tolist(), strict=True)
        if fid != viewer and bf.figure(fid).side != me.side and bf.figure(fid).status.can_act
    )


def test_an_edit_returns_at_once_and_the_lines_follow_when_the_index_is_ready(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    sight = window.editor.sight
    assert sight is not None
    doc = window.document
    doc.set_selection(["p3"])
    assert sight.focus == "p3" and sight.counts["blocked"] == blocked_from(window, "p3") == 1
    before = sight.items["clear"].path()
    builds = sight.builds
    start = time.perf_counter()
    for _ in range(3):  # three quick steps of a drag: one build
        doc.undo_stack.push(MoveItemsCommand(doc, {"building-1": (1.0, 0.0)}))
    took = time.perf_counter() - start
    assert took < BUILD_S / 2, f"the edits took {took:.2f} s: they waited for the index"
    # meanwhile: the old lines and the hint
    assert sight.stale() and sight.pending()
    assert sight.hint.isVisible() and "Updating line of sight" in sight.hint.text()
    assert sight.items["clear"].path() == before
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.view.grab().save(str(SHOTS / "sight-updating-hint.png"))
    with qtbot.waitSignal(sight.index_ready, timeout=10_000):
        pass
    assert not sight.pending() and not sight.hint.isVisible()
    assert sight.builds == builds + 1
    # the building now stands between p3 and e2 too
    assert sight.counts["blocked"] == blocked_from(window, "p3") == 2
    assert sight.items["clear"].path() != before


def test_edits_during_a_build_start_one_more_build_for_the_present_terrain(
    window: MainWindow, qtbot
) -> None:  # type: ignore[no-untyped-def]
    sight = window.editor.sight
    assert sight is not None
    doc = window.document
    doc.set_selection(["p3"])
    builds = sight.builds
    doc.undo_stack.push(MoveItemsCommand(doc, {"building-1": (1.5, 0.0)}))
    qtbot.waitUntil(lambda: sight._worker is not None, timeout=5_000)  # the build runs
    doc.undo_stack.push(MoveItemsCommand(doc, {"building-1": (1.5, 0.0)}))
    qtbot.waitUntil(lambda: not sight.pending(), timeout=10_000)
    # the first result was of old terrain and dropped; the second is current
    assert sight.builds == builds + 1
    assert sight.counts["blocked"] == blocked_from(window, "p3") == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not sight.pending(), timeout=10_000)
    assert sight.counts["blocked"] == blocked_from(window, "p3") == 1


def test_the_checks_of_a_huge_table_run_once_in_the_worker_after_an_edit(
    window: MainWindow, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QTimer

    from ui import background_checks

    real = background_checks.check_battlefield

    def slow(*args: Any) -> Any:
        time.sleep(BUILD_S)
        return real(*args)

    monkeypatch.setattr(background_checks, "check_battlefield", slow)
    doc = window.document
    checks = background_checks.checks_of(doc)
    assert checks.heavy
    markers = window.editor.markers
    assert markers is not None
    runs = checks.runs
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    beat = QTimer()
    beat.setInterval(10)
    beat.timeout.connect(tick)
    beat.start()
    # the rocks onto e2 (25, 12): a figure inside impassable ground
    doc.undo_stack.push(MoveItemsCommand(doc, {"rocks-1": (-4.0, -5.5)}))
    try:
        qtbot.waitUntil(
            lambda: any("impassable" in i.message for i in window.issues_dock.issues),
            timeout=10_000,
        )
        qtbot.waitUntil(lambda: any(i.item_id == "e2" for i in markers.issues), timeout=5_000)
    finally:
        beat.stop()
    assert checks.runs == runs + 1  # the dock and the markers shared one run
    assert max(gaps) < BUILD_S * 0.75, f"the GUI thread waited {max(gaps):.2f} s"
