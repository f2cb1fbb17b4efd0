"""Help ▸ Rules reference: the bundled texts, their headings, the search, non-modal."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from crdesk.resources import resource_root
from crdesk.tables import TABLES
from tests.ui.sample import make_scenario
from ui.dialogs.rules_reference import PAGES, RulesReferenceWindow, rules_text
from ui.main_window import MainWindow

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "rules"
SHOTS = Path("/tmp/crdesk-shots")


@pytest.fixture
def ref(qtbot: QtBot, qapp: QApplication) -> RulesReferenceWindow:
    window = RulesReferenceWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.mark.parametrize(("title", "file_name"), PAGES)
def test_the_texts_ship_in_the_package_and_match_the_shared_rules(
    title: str, file_name: str
) -> None:
    bundled = resource_root() / "rules" / file_name
    assert bundled.is_file(), f"{file_name} is not in crdesk_resources/rules"
    shared = SHARED / file_name
    if shared.is_file():  # in the project's tree: the copy must not drift from the spec
        assert rules_text(file_name) == shared.read_text(encoding="utf-8"), (
            f"resources/rules/{file_name} differs from ../shared/rules: copy it again"
        )


def test_the_pages_and_their_headings(ref: RulesReferenceWindow) -> None:
    titles = [ref.tabs.tabText(i) for i in range(ref.tabs.count())]
    assert titles == ["Firearms Detail", "Chain Reaction digest", "Tables"]
    fd = ref.pages[0].heading_texts()
    assert fd[0] == "Firearms Detail — an optional rules module for crdesk"
    assert "5. Fire modes" in fd and "5.2 Walking the target (FA only)" in fd
    digest = ref.pages[1].heading_texts()
    assert "10. Ranged weapons and shooting (7.9)" in digest
    tables = ref.pages[2].heading_texts()
    assert len(tables) == 1 + len(TABLES)
    assert "7.7 Reaction Tests" in tables
    # the module's own tables come through as tables, not as pipes
    text = ref.pages[0].browser.toPlainText()
    assert '| up to 10"' not in text and "5 / 5" in text


def test_clicking_a_heading_scrolls_to_it(qtbot: QtBot, ref: RulesReferenceWindow) -> None:
    ref.show_page("Chain Reaction digest")
    page = ref.pages[1]
    item = page.contents.findItems(
        "18. Afterwards — campaign (13)", Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive
    )[0]
    bar = page.browser.verticalScrollBar()
    assert bar.value() == 0
    rect = page.contents.visualItemRect(item)
    qtbot.mouseClick(page.contents.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert bar.value() > 0
    assert page.browser.textCursor().block().text() == "18. Afterwards — campaign (13)"


def test_search_counts_every_page_and_enter_walks_the_matches(
    qtbot: QtBot, ref: RulesReferenceWindow
) -> None:
    qtbot.keyClicks(ref.search, "buckshot")
    fd_count = rules_text("firearms-detail.md").lower().count("buckshot")
    assert ref.tabs.tabText(0) == f"Firearms Detail ({fd_count})"
    assert ref.tabs.tabText(1).startswith("Chain Reaction digest (")
    total = len(ref.matches)
    assert total >= fd_count > 0
    assert ref.count_label.text() == f"1 of {total}"
    page = ref.pages[0]
    assert page.browser.textCursor().selectedText().lower() == "buckshot"
    assert len(page.browser.extraSelections()) == fd_count
    qtbot.keyClick(ref.search, Qt.Key.Key_Return)
    assert ref.count_label.text() == f"2 of {total}"
    qtbot.keyClick(ref.search, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(ref.search, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert ref.count_label.text() == f"{total} of {total}"  # wraps round, across pages
    assert ref.tabs.currentIndex() == ref.matches[-1].page
    qtbot.keyClick(ref.search, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ref.search, "zzxq")
    assert ref.count_label.text() == "No match"
    assert ref.tabs.tabText(0) == "Firearms Detail (0)"
    ref.search.clear()
    assert ref.tabs.tabText(0) == "Firearms Detail" and ref.count_label.text() == ""


def test_help_menu_opens_it_without_blocking_the_window(qtbot: QtBot) -> None:
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert help_menu.actions()[0].text() == "&Rules reference"
    window.action_rules.trigger()
    ref = window.rules_window
    assert ref is not None and ref.isVisible()
    assert not ref.isModal() and QApplication.activeModalWidget() is None
    assert window.action_rules.shortcut().toString() == "F1"
    window.action_rules.trigger()  # the same window comes forward, not a second one
    assert window.rules_window is ref
    qtbot.keyClicks(ref.search, "Full Auto")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert ref.grab().save(str(SHOTS / "rules-reference.png"))
    ref.close()
