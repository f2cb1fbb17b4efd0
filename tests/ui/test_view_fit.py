"""Fitting the table after a zoom leaves no scrollbars and a view that stays put.

A zoomed view scrolls over the table and half a viewport round it.  A fit
(Ctrl+0, a new scene, a game starting) used to keep that scrollable area, so
the fitted view had scrollbars; showing one shrank the viewport, the refit
hid it again, and Qt's offscreen platform looped on it for ever (the GUI
monkey's stall, seed 123).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from tests.ui.sample import make_scenario
from ui.main_window import MainWindow
from ui.scene.scene import BattlefieldScene
from ui.scene.view import FIT_MARGIN


def _fitted_rect(scene: BattlefieldScene) -> QRectF:
    m = FIT_MARGIN
    return scene.table_rect().adjusted(-m, -m, m, m)


def test_a_fit_after_a_zoom_drops_the_zoomed_scroll_area(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(900, 800)
    window.show()
    qtbot.waitExposed(window)
    view = window.view
    view.zoom_by(3.0)
    QApplication.processEvents()
    assert not view.is_fitted() and view.sceneRect().width() > _fitted_rect(window.scene).width()
    view.fit_table()
    QApplication.processEvents()
    assert view.sceneRect() == _fitted_rect(window.scene)
    assert not view.horizontalScrollBar().isVisible()
    assert not view.verticalScrollBar().isVisible()
    # a new scene (what starting a game does) after a zoom: fitted the same way
    view.zoom_by(2.5)
    QApplication.processEvents()
    other = BattlefieldScene(window.document.battlefield)
    view.setScene(other)
    QApplication.processEvents()
    assert view.sceneRect() == _fitted_rect(other)
    assert not view.horizontalScrollBar().isVisible()
    ppi = view.pixels_per_inch()
    for _ in range(5):  # settled: further turns of the loop change nothing
        QApplication.processEvents()
    assert view.pixels_per_inch() == ppi
    view.setScene(window.scene)
    other.deleteLater()
