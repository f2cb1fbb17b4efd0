"""File ▸ Open shows the highlighted scenario's map and summary beside the file list."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QListView

from crdesk.scenario import save
from tests.ui.sample import make_scenario
from ui.open_preview import PREVIEW_PIXELS, PreviewFileDialog


def _dialog(qtbot, folder: Path) -> PreviewFileDialog:  # type: ignore[no-untyped-def]
    dialog = PreviewFileDialog(None, "Open scenario", str(folder), "Scenarios (*.crdesk)")
    qtbot.addWidget(dialog)
    dialog.resize(900, 520)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def _click_file(qtbot, dialog: PreviewFileDialog, name: str) -> None:  # type: ignore[no-untyped-def]
    """Click the file's name in the dialog's list (its folder is read in the background)."""
    from PySide6.QtCore import Qt

    view = dialog.findChild(QListView, "listView")
    assert view is not None

    def row():  # type: ignore[no-untyped-def]
        model, root = view.model(), view.rootIndex()
        for r in range(model.rowCount(root)):
            index = model.index(r, 0, root)
            if index.data() == name:
                return index
        return None

    qtbot.waitUntil(lambda: row() is not None, timeout=3000)
    rect = view.visualRect(row())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_highlighting_a_scenario_shows_its_map(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scenario = make_scenario()
    scenario.title = "Crossroads"
    path = tmp_path / "crossroads.crdesk"
    save(scenario, path)
    dialog = _dialog(qtbot, tmp_path)
    assert dialog.testOption(QFileDialog.Option.DontUseNativeDialog)
    _click_file(qtbot, dialog, path.name)
    qtbot.waitUntil(lambda: dialog.shown_path == path, timeout=3000)
    picture = dialog.picture.pixmap()
    assert not picture.isNull()
    assert max(picture.width(), picture.height()) <= PREVIEW_PIXELS
    assert max(picture.width(), picture.height()) >= PREVIEW_PIXELS * 0.9
    # the cloth is drawn: the middle of the map is not transparent
    image = picture.toImage()
    assert image.pixelColor(image.width() // 2, image.height() // 2).alpha() == 255
    text = dialog.summary.text()
    assert "Crossroads" in text and '36" × 36"' in text and "6 figures" in text
    assert dialog.findChildren(QListView)  # Qt's own dialog, with the list beside the map
    Path("/tmp/crdesk-shots").mkdir(parents=True, exist_ok=True)
    dialog.grab().save("/tmp/crdesk-shots/open-preview.png")


def test_a_broken_file_says_why_and_shows_no_map(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.crdesk"
    bad.write_text('{"format_version": 1}')
    dialog = _dialog(qtbot, tmp_path)
    dialog.show_preview(bad)
    assert dialog.picture.pixmap().isNull()
    assert dialog.summary.text().startswith("No preview:")
    dialog.show_preview(tmp_path)  # a folder
    assert dialog.summary.text() == "Highlight a scenario to see its map."


def test_open_dialog_of_the_window_uses_the_preview(qtbot, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from ui.main_window import MainWindow

    path = tmp_path / "x.crdesk"
    save(make_scenario(), path)
    window = MainWindow(make_scenario())
    qtbot.addWidget(window)
    seen: list[str] = []

    def choose(self) -> int:  # type: ignore[no-untyped-def]
        seen.append(type(self).__name__)
        self.selectFile(str(path))
        return QFileDialog.DialogCode.Accepted

    monkeypatch.setattr(PreviewFileDialog, "exec", choose)
    window.open_dialog()
    assert seen == ["PreviewFileDialog"]
    qtbot.waitUntil(lambda: window.path == path, timeout=5000)
