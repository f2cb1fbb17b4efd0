"""Help ▸ Rules reference: the rules texts beside the table, searchable (issue 14, Deliver 4).

Three pages, so players can check what the program did: the Firearms Detail
module (``rules/firearms-detail.md``), the Chain Reaction 2015 digest the program
is built on (``rules/chain-reaction-2015.md``), and every table the rules engine
reads (:data:`crdesk.tables.TABLES`, printed from the very rows it looks up).
The texts ship inside the package (``crdesk_resources/rules``), found through
:func:`crdesk.resources.resource_root` like the sample scenarios, so an
installed program has them.

The window is not modal: it stays open while the game goes on.  The search
box highlights every match on every page (the tab titles count them); Enter
goes to the next match, Shift+Enter to the previous one, across the pages.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from crdesk.resources import resource_root
from crdesk.tables import TABLES

RULES_FOLDER = "rules"
PAGES: tuple[tuple[str, str], ...] = (
    ("Firearms Detail", "firearms-detail.md"),
    ("Chain Reaction digest", "chain-reaction-2015.md"),
)
"""(tab title, file in ``crdesk_resources/rules``) of each bundled text."""
TABLES_TITLE = "Tables"

_MATCH = QColor("#ffe08a")
_CURRENT = QColor("#ff9f43")


def rules_text(file_name: str) -> str:
    """A bundled rules text (Markdown), read from the installed package."""
    return (resource_root() / RULES_FOLDER / file_name).read_text(encoding="utf-8")


def tables_html() -> str:
    """Every table the rules engine reads, as the reference shows it: section, title,
    dice, and each row in words."""
    parts = ["<h1>Tables the program uses</h1>"]
    parts.append(
        "<p>Printed from the rows the rules engine looks up, so they are what the program "
        "did. Sections are the book's.</p>"
    )
    for section, table in TABLES.items():
        parts.append(f"<h2>{html.escape(section)} {html.escape(table.title)}</h2>")
        if table.dice:
            parts.append(f"<p><i>{html.escape(table.dice)}</i></p>")
        rows = "".join(
            f"<tr><td><b>{html.escape(key)}</b></td><td>{html.escape(text)}</td></tr>"
            for key, text in table.rows
        )
        parts.append(f'<table border="1" cellspacing="0" cellpadding="4">{rows}</table>')
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class _Match:
    page: int
    start: int
    end: int


class _Page(QSplitter):
    """One text: its headings on the left, the text on the right."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.title = title
        self.contents = QTreeWidget()
        self.contents.setHeaderHidden(True)
        self.contents.setObjectName("RulesContents")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(False)
        self.addWidget(self.contents)
        self.addWidget(self.browser)
        self.setStretchFactor(1, 3)
        self.setSizes([220, 640])
        self.contents.itemActivated.connect(self._go)
        self.contents.itemClicked.connect(self._go)

    def set_text(self, *, markdown: str | None = None, rich: str | None = None) -> None:
        if markdown is not None:
            self.browser.setMarkdown(markdown)
        else:
            self.browser.setHtml(rich or "")
        self._fill_contents()

    def _fill_contents(self) -> None:
        """The headings of the text as a tree (levels 2 and 3 under the title)."""
        self.contents.clear()
        parents: dict[int, QTreeWidgetItem] = {}
        block = self.browser.document().begin()
        while block.isValid():
            level = block.blockFormat().headingLevel()
            if level and block.text().strip():
                item = QTreeWidgetItem([block.text().strip()])
                item.setToolTip(0, block.text().strip())
                item.setData(0, Qt.ItemDataRole.UserRole, block.position())
                above = [parents[k] for k in sorted(parents) if k < level]
                if above:
                    above[-1].addChild(item)
                else:
                    self.contents.addTopLevelItem(item)
                parents = {k: v for k, v in parents.items() if k < level}
                parents[level] = item
            block = block.next()
        self.contents.expandToDepth(0)

    def _go(self, item: QTreeWidgetItem) -> None:
        self.scroll_to(int(item.data(0, Qt.ItemDataRole.UserRole)))

    def scroll_to(self, position: int, end: int | None = None) -> None:
        """Show the text at ``position`` near the top (a heading, or a match)."""
        doc = self.browser.document()
        cursor = QTextCursor(doc)
        cursor.setPosition(position)
        if end is not None:
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        block = doc.findBlock(position)
        top = doc.documentLayout().blockBoundingRect(block).top()
        bar = self.browser.verticalScrollBar()
        bar.setValue(int(top) - (0 if end is None else bar.pageStep() // 3))
        self.browser.setTextCursor(cursor)

    def heading_texts(self) -> list[str]:
        out: list[str] = []
        stack = [self.contents.topLevelItem(i) for i in range(self.contents.topLevelItemCount())]
        while stack:
            item = stack.pop(0)
            out.append(item.text(0))
            stack = [item.child(i) for i in range(item.childCount())] + stack
        return out


class RulesReferenceWindow(QWidget):
    """The rules texts in a window of their own, with a search box."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("RulesReferenceWindow")
        self.setWindowTitle("Rules reference — crdesk")
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the rules (Enter: next, Shift+Enter: previous)")
        self.search.setClearButtonEnabled(True)
        self.previous_button = QToolButton()
        self.previous_button.setText("▲")
        self.previous_button.setToolTip("Previous match (Shift+Enter)")
        self.next_button = QToolButton()
        self.next_button.setText("▼")
        self.next_button.setToolTip("Next match (Enter)")
        self.count_label = QLabel()
        self.count_label.setMinimumWidth(120)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Find:"))
        bar.addWidget(self.search, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.count_label)
        self.tabs = QTabWidget()
        self.pages: list[_Page] = []
        for title, file_name in PAGES:
            page = _Page(title)
            page.set_text(markdown=rules_text(file_name))
            self._add_page(page)
        tables = _Page(TABLES_TITLE)
        tables.set_text(rich=tables_html())
        self._add_page(tables)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.tabs, 1)
        self.matches: list[_Match] = []
        self.current = -1
        self.search.textChanged.connect(self._find_all)
        self.search.returnPressed.connect(self.next_match)
        self.next_button.clicked.connect(self.next_match)
        self.previous_button.clicked.connect(self.previous_match)
        back = QShortcut(QKeySequence("Shift+Return"), self.search)
        back.setContext(Qt.ShortcutContext.WidgetShortcut)
        back.activated.connect(self.previous_match)
        find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self)
        find.activated.connect(self.focus_search)
        self.resize(900, 640)
        self._find_all("")

    def _add_page(self, page: _Page) -> None:
        self.pages.append(page)
        self.tabs.addTab(page, page.title)

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def show_page(self, title: str) -> None:
        """Bring a page forward by its tab title."""
        for i, page in enumerate(self.pages):
            if page.title == title:
                self.tabs.setCurrentIndex(i)
                return
        raise KeyError(title)

    # -- search ---------------------------------------------------------------

    def _find_all(self, text: str) -> None:
        """Every match on every page, highlighted; the tab titles count them."""
        self.matches = []
        self.current = -1
        needle = text.strip()
        for index, page in enumerate(self.pages):
            found: list[_Match] = []
            if needle:
                doc = page.browser.document()
                cursor = doc.find(needle, 0)
                while not cursor.isNull() and len(found) < 5000:
                    found.append(_Match(index, cursor.selectionStart(), cursor.selectionEnd()))
                    cursor = doc.find(needle, cursor)
            self.matches += found
            title = f"{page.title} ({len(found)})" if needle else page.title
            self.tabs.setTabText(index, title)
        self._paint()
        if needle and self.matches:
            here = self.tabs.currentIndex()
            first = next((i for i, m in enumerate(self.matches) if m.page == here), 0)
            self._show(first)
        self._say()

    def _say(self) -> None:
        if not self.search.text().strip():
            self.count_label.setText("")
        elif not self.matches:
            self.count_label.setText("No match")
        else:
            self.count_label.setText(f"{self.current + 1} of {len(self.matches)}")

    def _paint(self) -> None:
        for index, page in enumerate(self.pages):
            selections: list[QTextEdit.ExtraSelection] = []
            for k, match in enumerate(self.matches):
                if match.page != index:
                    continue
                sel = QTextEdit.ExtraSelection()
                cursor = QTextCursor(page.browser.document())
                cursor.setPosition(match.start)
                cursor.setPosition(match.end, QTextCursor.MoveMode.KeepAnchor)
                sel.cursor = cursor  # type: ignore[attr-defined]
                fmt = QTextCharFormat()
                fmt.setBackground(_CURRENT if k == self.current else _MATCH)
                fmt.setForeground(QColor("#000000"))
                sel.format = fmt  # type: ignore[attr-defined]
                selections.append(sel)
            page.browser.setExtraSelections(selections)

    def _show(self, k: int) -> None:
        self.current = k
        match = self.matches[k]
        self.tabs.setCurrentIndex(match.page)
        self.pages[match.page].scroll_to(match.start, match.end)
        self._paint()
        self._say()

    def next_match(self) -> None:
        if self.matches:
            self._show((self.current + 1) % len(self.matches))

    def previous_match(self) -> None:
        if self.matches:
            self._show((self.current - 1) % len(self.matches))
