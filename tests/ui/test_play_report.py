"""Battle report export, game autosave with crash recovery, and recent games (ui/play)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from crdesk.recovery import RecoveryStore
from crdesk.resources import demo_scenario
from crdesk.scenario import load
from ui.main_window import MainWindow
from ui.play.report import md_escape

SEED = 1
"""Seed 1: Sgt. Mace's squad (the person) decides first."""


@pytest.fixture
def window(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    window = MainWindow(load(str(demo_scenario())), recovery=RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    window.play.autoplay = False
    return window


def play_a_few_steps(window: MainWindow) -> None:
    assert window.play.start(SEED)
    window.play.run_program()
    session = window.play.session
    assert session.play("activate p1") is None
    for _ in range(3):
        decision = session.awaiting()
        if decision is None or decision.default is None or session.is_program_turn():
            break
        assert session.play(decision.default) is None
        window.play.run_program()


# -- battle report ------------------------------------------------------------------


def test_export_battle_report_writes_markdown_html_and_maps(
    window: MainWindow, tmp_path: Path
) -> None:
    play_a_few_steps(window)
    game = window.play.game
    assert window.play.action_report.isEnabled()
    out = tmp_path / "report" / "Street fight.md"
    assert window.play.export_report(out)
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    page = out.with_suffix(".html").read_text(encoding="utf-8")
    start_png = out.parent / "Street fight-start.png"
    end_png = out.parent / "Street fight-end.png"
    for image in (start_png, end_png):
        assert image.is_file() and not QImage(str(image)).isNull()
    assert "(Street%20fight-start.png)" in md and "(Street%20fight-end.png)" in md
    assert 'src="Street%20fight-start.png"' in page and 'src="Street%20fight-end.png"' in page
    assert md.startswith(f"# Battle report: {md_escape(game.scenario.title)}")
    assert f"seed {SEED}" in md and f"seed {SEED}" in page
    for force in game.battlefield.forces:
        assert md_escape(force.name) in md and html.escape(force.name) in page
    assert "## Turn 1" in md and "<h2>Turn 1</h2>" in page
    assert game.events
    for event in game.events:
        assert md_escape(event.text) in md
        assert html.escape(event.text) in page
        if event.section:
            assert f"§ {event.section}" in md
    rolled = next(e for e in game.events if e.dice)
    assert "⚀⚁⚂⚃⚄⚅"[rolled.dice[0] - 1] in md


def test_report_escapes_html_and_markdown(window: MainWindow, tmp_path: Path) -> None:
    window.document.scenario.title = "<b>Vipers</b> & *co*"
    play_a_few_steps(window)
    assert window.play.export_report(tmp_path / "r")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "<b>Vipers</b>" not in page and "&lt;b&gt;Vipers&lt;/b&gt; &amp; *co*" in page
    assert r"\<b\>Vipers\</b\> & \*co\*" in md
