"""Hostile inputs in the front end (issue 17): the scene, rendering, autosave, tooltips."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import shapely
from shapely.geometry import MultiPolygon, Polygon

from crdesk import scenario as io
from crdesk.cli import main
from crdesk.errors import ScenarioError
from crdesk.model import Battlefield, Table
from crdesk.recovery import RecoveryStore
from ui.autosave import Autosaver
from ui.commands import ChangeValueCommand
from ui.document import Document
from ui.render import RenderOptions, RenderTooLargeError, ensure_app, render_scene
from ui.scene.items import figure_tooltip, terrain_tooltip
from ui.scene.scene import BattlefieldScene
from ui.scene.shapes import SCATTER_MAX, drawable, scatter, seeded_random

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
FILES = sorted(HOSTILE.glob("*.crdesk"))
SHOTS = Path("/tmp/crdesk-shots")


HANG = 60.0
"""Seconds a command may take before the test calls it a hang (speed targets are the
benchmarks' job; this machine may be loaded)."""


def _loadable() -> list[Path]:
    out = []
    for path in FILES:
        try:
            io.load(path)
        except ScenarioError:
            continue
        out.append(path)
    return out


@pytest.mark.parametrize("path", _loadable(), ids=lambda p: p.stem)
def test_every_loadable_hostile_file_builds_a_scene_and_renders(path: Path) -> None:
    ensure_app()
    scenario = io.load(path)
    start = time.perf_counter()
    scene = BattlefieldScene(scenario.battlefield)
    image = render_scene(scenario.battlefield, RenderOptions(pixels_per_inch=10))
    assert not image.isNull() and image.width() > 400
    scene.deleteLater()
    assert time.perf_counter() - start < HANG  # a guard against hangs, not a benchmark


def test_4_a_degenerate_outline_repairs_to_ground_only() -> None:
    line_with_hole = Polygon([(30, 5), (32, 5), (34, 5)], [[(31, 6), (33, 6), (32, 8)]])
    repaired = drawable(line_with_hole)
    assert isinstance(repaired, Polygon | MultiPolygon)
    shapely.contains(repaired, shapely.points([(32, 6.5)]))  # GEOS accepts it (no mixed dims)
    assert drawable(Polygon([(0, 0), (1, 1), (2, 2)])).is_empty


def test_10_decoration_over_a_huge_outline_is_bounded() -> None:
    from PySide6.QtGui import QPainterPath

    ensure_app()
    path = QPainterPath()
    path.addRect(-48, -48, 576, 576)
    start = time.perf_counter()
    spots = scatter(path, 0.38, seeded_random("huge"))
    assert 0.5 * SCATTER_MAX < len(spots) <= SCATTER_MAX
    assert time.perf_counter() - start < HANG


def test_11_a_render_too_large_is_refused_before_any_drawing(tmp_path: Path) -> None:
    huge = Battlefield(Table(480, 480), [], [])
    start = time.perf_counter()
    with pytest.raises(RenderTooLargeError, match=r"2,\d{3} megapixels; crdesk renders at most"):
        render_scene(huge, RenderOptions(pixels_per_inch=100))
    assert time.perf_counter() - start < 10.0  # refused before drawing 2 GB


def test_11_crdesk_render_says_which_dpi_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "big.png"
    demo = Path(__file__).resolve().parents[1] / "resources" / "scenarios" / "demo-urban.crdesk"
    assert main(["render", str(demo), "-o", str(out), "--dpi", "1200"]) != 0
    err = capsys.readouterr().err
    assert "at 1200 dpi is 2,058 megapixels; crdesk renders at most 100 megapixels (use 264" in err
    assert "could not write" not in err and not out.exists()


def test_5_autosave_writes_a_recovery_entry_for_unsavable_text(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    doc = Document(scenario, path=tmp_path / "mine.crdesk")
    store = RecoveryStore(tmp_path / "recovery")
    saver = Autosaver(doc, store, interval_ms=3_600_000)
    doc.undo_stack.push(ChangeValueCommand(doc, "b-1", "name", "Sgt \ud800"))
    path = saver.autosave()
    assert path is not None and path.is_file()
    assert io.load(path).battlefield.figure("b-1").name == "Sgt \ufffd"
    saver.stop()
    doc.close()


def test_5_autosave_that_cannot_write_says_so_at_once(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scenario = io.load(HOSTILE / "01-rep-float.crdesk")
    doc = Document(scenario)
    blocker = tmp_path / "recovery"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    saver = Autosaver(doc, RecoveryStore(blocker), interval_ms=3_600_000)
    doc.undo_stack.push(ChangeValueCommand(doc, "b-1", "name", "Changed"))
    with qtbot.waitSignal(saver.failed, timeout=1000) as blocker_signal:
        assert saver.autosave() is None
    assert blocker_signal.args[0].startswith("Crash recovery could not be written:")
    assert saver.last_error
    saver._timer.stop()
    doc.close()


def test_17_names_are_shown_as_text_in_tooltips() -> None:
    scenario = io.load(HOSTILE / "17-html-names.crdesk")
    bf = scenario.battlefield
    tip = terrain_tooltip(bf.feature("w1"))
    assert "<img" not in tip and "&lt;img src=&quot;x.png&quot;&gt;" in tip
    tip = figure_tooltip(bf.figure("b-1"), "<b>Blue</b>")
    assert "<img" not in tip and "<i>" not in tip and "&lt;b&gt;Blue&lt;/b&gt;" in tip


def test_shot_of_woods_reaching_off_every_edge() -> None:
    ensure_app()
    scenario = io.load(HOSTILE / "10-woods-at-the-margin.crdesk")
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = render_scene(scenario.battlefield, RenderOptions(pixels_per_inch=12))
    assert image.save(str(SHOTS / "hostile-woods-margin.png"))


def test_3_the_main_window_opens_on_zero_area_impassable_ground(qtbot) -> None:  # type: ignore[no-untyped-def]
    from ui.main_window import MainWindow

    window = MainWindow(io.load(HOSTILE / "03-zero-area-impassable.crdesk"))
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    window.grab()  # paints every layer once
    assert window.document is not None
    window.close()
