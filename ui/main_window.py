"""The main window: the battlefield view, the editor's tools and docks, files and settings.

The window shows one :class:`~ui.document.Document` at a time.  File handling
goes through ``crdesk.scenario``; every failure is shown to the player as a
message, never as a traceback, and nothing unsaved is dropped without asking.
Work is autosaved to a recovery file every minute (:mod:`ui.autosave`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSettings, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QCursor, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

import crdesk
from crdesk.errors import ScenarioError
from crdesk.model import Scenario
from crdesk.recovery import RecoveryStore
from ui.autosave import Autosaver, default_recovery_folder
from ui.commands import GenerateTableCommand, ScenarioSettingsCommand
from ui.dialogs.rules_reference import RulesReferenceWindow
from ui.docks import HistoryDock, IssuesDock, PropertiesDock, RosterDock, install_drop_target
from ui.docks.roster_dock import FigureDropTarget
from ui.document import Document
from ui.editor import Editor
from ui.file_open import install_file_drop
from ui.opening import OpenedTable, open_scenario
from ui.play import PlayMode
from ui.progress import Cancelled, Progress, run_job
from ui.rulers import RuledView
from ui.scene.scene import BattlefieldScene
from ui.scene.view import MIN_PPI, ZOOM_STEP, BattlefieldView
from ui.theme import THEMES, apply_theme, current_theme, icon

FILE_FILTER = "Chain Reaction scenarios (*.crdesk);;All files (*)"
EXPORT_FILTER = "PNG image (*.png);;SVG drawing (*.svg);;PDF at 1:1 scale, tiled (*.pdf)"
MAX_RECENT = 8


class MainWindow(QMainWindow):
    """One window, one open scenario: the table view, the editor, docks, menus, status bar.

    Actions are public attributes (``action_zoom_in`` ...) so tests can trigger
    them without hunting through menus.
    """

    def __init__(
        self,
        scenario: Scenario,
        path: str | os.PathLike[str] | None = None,
        parent: QWidget | None = None,
        recovery: RecoveryStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowIcon(icon("crdesk"))
        self.recovery = recovery or RecoveryStore(default_recovery_folder())
        self.view = BattlefieldView(parent=self)
        self.ruled_view = RuledView(self.view, self)
        self.setCentralWidget(self.ruled_view)
        self.editor = Editor(self, self.view)
        self.properties_dock = PropertiesDock(None, self)
        self.roster_dock = RosterDock(None, self)
        self.issues_dock = IssuesDock(None, self)
        self.history_dock = HistoryDock(None, self)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.roster_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.properties_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.issues_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.history_dock)
        self.tabifyDockWidget(self.issues_dock, self.history_dock)
        self.issues_dock.raise_()
        self.roster_dock.figure_activated.connect(self.centre_on)
        self.issues_dock.issue_activated.connect(self.centre_on)
        self.document: Document | None = None
        self.scene: BattlefieldScene | None = None
        self.autosaver: Autosaver | None = None
        self._drop_target: FigureDropTarget | None = None
        self._build_actions()
        self._build_menus()
        self._build_status_bar()
        self.view.pointer_moved.connect(self.show_pointer)
        self.view.pointer_left.connect(self.clear_pointer)
        self.view.zoom_changed.connect(self._show_zoom)
        self.view.zoom_changed.connect(self._refresh_pointer)
        self.view.horizontalScrollBar().valueChanged.connect(self._refresh_pointer)
        self.view.verticalScrollBar().valueChanged.connect(self._refresh_pointer)
        self.resize(1280, 860)
        self.set_document(Document(scenario, path))
        self._restore_settings()
        # .crdesk/.crgame/.crband files dropped from a file manager open here
        install_file_drop(self)

    # -- the open document -----------------------------------------------------

    @property
    def scenario(self) -> Scenario:
        assert self.document is not None
        return self.document.scenario

    @property
    def path(self) -> Path | None:
        return self.document.path if self.document is not None else None

    def set_document(self, document: Document, opened: OpenedTable | None = None) -> None:
        """Show another document in this window (the old one is closed, not saved);
        ``opened``: its scene, checks and sight index made beforehand (Open)."""
        old_doc, old_scene = self.document, self.scene
        if self.autosaver is not None:
            self.autosaver.stop()
            self.autosaver.deleteLater()
        if self._drop_target is not None:
            self.view.viewport().removeEventFilter(self._drop_target)
            self._drop_target.deleteLater()
        self.document = document
        if opened is not None:
            self.scene = opened.scene
            self.scene.setParent(self)
        else:
            self.scene = BattlefieldScene(document.battlefield, parent=self)
        self.scene.set_sections_visible(self.action_sections.isChecked())
        self.scene.set_grid_visible(self.action_grid.isChecked())
        self.view.setScene(self.scene)
        issues = opened.issues if opened is not None else None
        index = opened.sight_index if opened is not None else None
        self.editor.set_document(document, self.scene, issues, index)
        for dock in (self.properties_dock, self.roster_dock, self.history_dock):
            dock.set_document(document)
        self.issues_dock.set_document(document, issues)
        self._drop_target = install_drop_target(self.view, document)
        document.modified_changed.connect(self.setWindowModified)
        # a slot of the window, not a lambda holding it: the connection must end
        # with the window, or the document would keep a dead window's wrapper alive
        document.path_changed.connect(self._on_path_changed)
        document.model_changed.connect(self._on_model_changed)
        self.autosaver = Autosaver(document, self.recovery, parent=self)
        self.autosaver.failed.connect(self._on_autosave_failed)
        self.setWindowModified(document.is_modified)
        self._update_title()
        if old_scene is not None:
            old_scene.detach()
            old_scene.deleteLater()
        if old_doc is not None:
            old_doc.close()

    def set_scenario(self, scenario: Scenario, path: str | os.PathLike[str] | None) -> None:
        """Show another scenario in this window, as a fresh document."""
        self.set_document(Document(scenario, path))

    # -- set-up -----------------------------------------------------------------

    def _action(
        self,
        text: str,
        slot: object,
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        tip: str = "",
        checkable: bool = False,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{tip} ({keys})" if keys else tip)
        action.setCheckable(checkable)
        if checkable:
            action.toggled.connect(slot)
        else:
            action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        key = QKeySequence.StandardKey
        self.action_new = self._action("&New Table…", self.new_dialog, key.New, "Start a new table")
        self.action_open = self._action("&Open…", self.open_dialog, key.Open, "Open a scenario")
        self.action_save = self._action("&Save", self.save, key.Save, "Save the scenario")
        self.action_save_as = self._action(
            "Save &As…", self.save_as_dialog, key.SaveAs, "Save the scenario under a new name"
        )
        self.action_generate = self._action(
            "&Generate Table…",
            self.generate_dialog,
            "Ctrl+G",
            "Roll a new table on the book's nine-section tables (9.2-9.5)",
        )
        self.action_settings = self._action(
            "Scenario Se&ttings…",
            self.settings_dialog,
            "Ctrl+Shift+T",
            "Title, description, encounter and every rules option of this scenario",
        )
        self.action_export = self._action(
            "&Export Map…",
            self.export_dialog,
            "Ctrl+E",
            "Export the table as PNG, SVG, or a 1:1 PDF to print",
        )
        self.action_quit = self._action("&Quit", self.close, key.Quit, "Close this window")
        self.action_zoom_in = self._action(
            "Zoom &In", self.view.zoom_in, key.ZoomIn, "Zoom in on the table"
        )
        self.action_zoom_in.setShortcuts([QKeySequence("Ctrl++"), QKeySequence("Ctrl+=")])
        self.action_zoom_out = self._action(
            "Zoom &Out", self.view.zoom_out, key.ZoomOut, "Zoom out"
        )
        self.action_zoom_out.setShortcuts([QKeySequence("Ctrl+-")])
        self.action_fit = self._action(
            "&Fit Table", self.view.fit_table, "Ctrl+0", "Show the whole table"
        )
        self.action_zoom_selection = self._action(
            "Zoom to &Selection", self.zoom_to_selection, "Ctrl+3", "Zoom onto the selection"
        )
        self.action_sections = self._action(
            "Show &Sections",
            self.set_sections_visible,
            "Ctrl+;",
            "Show the nine table sections (1-3 at the far edge, 7-9 at yours)",
            checkable=True,
        )
        self.action_sections.setChecked(True)
        self.action_grid = self._action(
            'Show 1" &Grid', self.set_grid_visible, "Ctrl+'", "Show a one-inch grid", True
        )
        self.action_rulers = self._action(
            "Show &Rulers",
            lambda on: self.ruled_view.set_rulers_visible(on),
            "Ctrl+Shift+R",
            "Show rulers in inches along the view's edges",
            checkable=True,
        )
        self.action_rulers.setChecked(True)
        self.theme_group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for name in THEMES:
            action = QAction(f"{name.title()} theme", self)
            action.setCheckable(True)
            action.triggered.connect(lambda _checked=False, n=name: self.set_theme(n))
            self.theme_group.addAction(action)
            self.theme_actions[name] = action
        self.action_about = self._action("&About crdesk", self.about)
        self.action_rules = self._action(
            "&Rules reference",
            self.show_rules_reference,
            "F1",
            "The Firearms Detail module, the Chain Reaction digest and every table, searchable",
        )
        self.rules_window: RulesReferenceWindow | None = None

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.action_new, self.action_open])
        self.recent_menu = QMenu("Open &Recent", self)
        file_menu.addMenu(self.recent_menu)
        file_menu.addActions([self.action_save, self.action_save_as])
        file_menu.addSeparator()
        file_menu.addActions([self.action_settings, self.action_generate, self.action_export])
        file_menu.addSeparator()
        file_menu.addAction(self.action_quit)
        edit_menu = bar.addMenu("&Edit")
        view_menu = bar.addMenu("&View")
        view_menu.addActions(
            [self.action_zoom_in, self.action_zoom_out, self.action_fit, self.action_zoom_selection]
        )
        view_menu.addSeparator()
        view_menu.addActions([self.action_sections, self.action_grid, self.action_rulers])
        view_menu.addSeparator()
        for dock in (self.roster_dock, self.properties_dock, self.issues_dock, self.history_dock):
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addSeparator()
        view_menu.addActions(list(self.theme_actions.values()))
        tools_menu = bar.addMenu("&Tools")
        self.editor.install_menus(edit_menu, tools_menu)
        # -- the play mode (ui/play): the Game menu, its docks and the mode badge --
        self.play = PlayMode(self, restore_title=self._update_title)
        bar.addMenu(self.play.menu)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.action_rules)
        help_menu.addAction(self.action_about)
        self._refresh_recent()

    def _build_status_bar(self) -> None:
        self.position_label = QLabel()
        self.section_label = QLabel()
        self.zoom_label = QLabel()
        for label, width in (
            (self.position_label, 140),
            (self.section_label, 90),
            (self.zoom_label, 90),
        ):
            label.setMinimumWidth(width)
            label.setContentsMargins(8, 0, 8, 0)
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        bar = self.statusBar()
        bar.addPermanentWidget(self.position_label)
        bar.addPermanentWidget(self.section_label)
        bar.addPermanentWidget(self.zoom_label)
        self.clear_pointer()
        self._show_zoom(self.view.pixels_per_inch())

    # -- settings ---------------------------------------------------------------

    def _restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        state = settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        theme = str(settings.value("window/theme", "light"))
        self.set_theme(theme if theme in THEMES else "light")

    def _save_settings(self) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        app = QApplication.instance()
        if isinstance(app, QApplication):
            settings.setValue("window/theme", current_theme(app))

    def set_theme(self, name: str) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, name)
        self.theme_actions[name].setChecked(True)

    def recent_files(self) -> list[str]:
        value = QSettings().value("files/recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []]

    def _remember(self, path: Path) -> None:
        files = [str(path.resolve())] + [f for f in self.recent_files() if f != str(path.resolve())]
        QSettings().setValue("files/recent", files[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for i, name in enumerate(files, start=1):
            action = self.recent_menu.addAction(f"&{i} {Path(name).name}")
            action.setToolTip(name)
            action.setStatusTip(name)
            action.triggered.connect(lambda _checked=False, n=name: self.open_file(n))
        self.recent_menu.setEnabled(bool(files))

    # -- status bar ---------------------------------------------------------------

    def show_pointer(self, point: QPointF) -> None:
        """Show where the pointer is in table inches and which section (1-9) it is in."""
        x, y = point.x(), point.y()
        self.position_label.setText(f'x {x:.1f}"  y {y:.1f}"')
        section = self.scenario.battlefield.section_at(x, y)
        self.section_label.setText(f"Section {section}" if section else "Off table")

    def _refresh_pointer(self, *_args: object) -> None:
        """After a zoom or a scroll the pointer is over another table point: show that one."""
        viewport = self.view.viewport()
        local = viewport.mapFromGlobal(QCursor.pos())
        if viewport.rect().contains(local) and self.position_label.text():
            self.show_pointer(self.view.mapToScene(local))

    def clear_pointer(self) -> None:
        self.position_label.setText("")
        self.section_label.setText("")

    def _show_zoom(self, ppi: float) -> None:
        self.zoom_label.setText(f"Zoom {ppi:.0f} px/in")
        self.zoom_label.setToolTip("Screen pixels per table inch")

    # -- view ---------------------------------------------------------------------

    def set_sections_visible(self, visible: bool) -> None:
        if self.scene is not None:
            self.scene.set_sections_visible(visible)
        self.action_sections.setChecked(visible)

    def set_grid_visible(self, visible: bool) -> None:
        if self.scene is not None:
            self.scene.set_grid_visible(visible)
        self.action_grid.setChecked(visible)

    def _selection_rect(self, ids: list[str]) -> QRectF:
        bf = self.scenario.battlefield
        rect = QRectF()
        for feature in bf.terrain:
            if feature.id in ids:
                x0, y0, x1, y1 = feature.outline.bounds
                rect = rect.united(QRectF(x0, y0, x1 - x0, y1 - y0))
        for figure in bf.figures():
            if figure.id in ids:
                r = figure.radius
                rect = rect.united(QRectF(figure.x - r, figure.y - r, 2 * r, 2 * r))
        return rect

    def zoom_to_selection(self) -> None:
        """Fill the view with the selected pieces (with a 2" margin)."""
        if self.document is None or not self.document.selection:
            return
        rect = self._selection_rect(self.document.selection).adjusted(-2, -2, 2, 2)
        viewport = self.view.viewport().rect()
        ppi = min(viewport.width() / rect.width(), viewport.height() / rect.height())
        self.view.zoom_by(ppi / self.view.pixels_per_inch())
        self._bring_into_view(rect)

    def centre_on(self, item_id: str) -> None:
        """Select an item and bring it into view (from the roster or the issues list)."""
        if self.document is None:
            return
        self.document.set_selection([item_id])
        rect = self._selection_rect([item_id])
        if not rect.isNull():
            self._bring_into_view(rect.adjusted(-2, -2, 2, 2))

    def _bring_into_view(self, rect: QRectF) -> None:
        """Centre on ``rect``; zoom out step by step until it is wholly on screen.

        The view scrolls at most a table edge to its middle, so a piece off the
        table (a figure at x = -30") cannot be centred: zoomed out enough, it
        shows beside the edge instead of staying out of reach.
        """
        for _ in range(40):  # 1.25**40 spans every zoom from MAX_PPI to MIN_PPI
            self.view.centerOn(rect.center())
            shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
            if shown.contains(rect) or self.view.pixels_per_inch() <= MIN_PPI * 1.001:
                return
            self.view.zoom_by(1 / ZOOM_STEP)

    @Slot(object)
    def _on_path_changed(self, _path: object) -> None:
        self._update_title()

    @Slot(object)
    def _on_model_changed(self, change: object) -> None:
        if getattr(change, "what", "") == "scenario":
            self._update_title()

    def _update_title(self) -> None:
        if self.play.active:  # a game being played owns the title (ui/play)
            self.setWindowTitle(self.play.title())
            return
        name = self.path.name if self.path is not None else "not saved"
        if self.is_template():
            name += " (template)"
        self.setWindowTitle(f"{self.scenario.title} — {name}[*] — crdesk")

    # -- files ---------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Before unsaved work would be dropped: Save, Discard or Cancel.  True to go on."""
        if self.document is None or not self.document.is_modified:
            return True
        answer = QMessageBox.warning(
            self,
            "Unsaved changes",
            f"“{self.scenario.title}” has changes that are not saved.",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_dialog(self) -> None:
        from ui.dialogs.new_dialog import NewTableDialog

        if not self.maybe_save():
            return
        dialog = NewTableDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_scenario(dialog.scenario(), None)

    def generate_dialog(self) -> None:
        """Generate a table and put its terrain down as one undoable step."""
        from ui.dialogs.generate_dialog import GenerateDialog

        table = self.scenario.table
        dialog = GenerateDialog(self, table.width, table.height, self.scenario.rules.scale.value)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        generated = dialog.scenario()
        if generated is None or self.document is None:
            return
        self.use_generated(generated)

    def use_generated(self, generated: Scenario) -> None:
        """Put a generated table down with the forces deployed on it, as one undo step.

        The forces are set out by the encounter's deployment rules (12) so none
        stands inside the new buildings or rock; the scenario takes the
        generated encounter, title and description, and the checks run again.
        """
        from ui.dialogs.generate_dialog import deploy_on

        assert self.document is not None
        seed = generated.generation.seed if generated.generation else 0
        deployed, notes = deploy_on(self.scenario, generated, seed)
        forces = deployed.battlefield.snapshot().forces
        self.document.undo_stack.push(GenerateTableCommand(self.document, generated, forces))
        self.prepare_sight()
        deployed_text = "forces deployed (12)" if forces else "no forces to deploy"
        message = f"Generated: {generated.title}; {deployed_text}"
        if notes:
            message += "; " + "; ".join(notes)
        self.statusBar().showMessage(message, 8000)

    def settings_dialog(self) -> None:
        """Edit title, description, encounter and rules options (one undo step)."""
        from ui.dialogs.settings_dialog import ScenarioSettingsDialog

        if self.document is None:
            return
        dialog = ScenarioSettingsDialog(self.scenario, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        values = dialog.changed_values(self.scenario)
        if values:
            self.document.undo_stack.push(ScenarioSettingsCommand(self.document, values))

    def export_dialog(self) -> None:
        """Export Map: file, format and ``crdesk render``'s options (dpi, grid, sections, paper)."""
        from ui.dialogs.export_dialog import ExportDialog, default_folder

        dialog = ExportDialog(
            self.scenario.title,
            default_folder(self.path, self.is_template()),
            sections=self.action_sections.isChecked(),
            grid=self.action_grid.isChecked(),
            parent=self,
            table=(self.scenario.table.width, self.scenario.table.height),
        )
        if dialog.exec() == QDialog.DialogCode.Accepted:
            chosen = dialog.scenario_to_export(self.scenario)
            self.export_to(dialog.path(), chosen, **dialog.options())

    def export_to(
        self,
        path: str | os.PathLike[str],
        scenario: Scenario | None = None,
        exporter: Callable[..., str] | None = None,
        **options: object,
    ) -> bool:
        """Export through the same renderer as ``crdesk render``, in a worker thread.

        A PDF past :data:`crdesk.limits.PRINT_PAGES` pages is refused at once, in
        the words ``crdesk render`` uses.  A big export takes a while: the window
        keeps painting, a progress dialog counts the pages, Cancel leaves no file
        (and an earlier file of that name as it was).  The job draws a copy of the
        table, so a game playing on meanwhile cannot change it under the painter.
        ``exporter`` stands in for :func:`ui.export.export_map` (tests).
        """
        from crdesk import printing
        from ui.export import export_map

        options.setdefault("sections", self.action_sections.isChecked())
        options.setdefault("grid", self.action_grid.isChecked())
        chosen = scenario or self.scenario
        out = Path(path)
        if out.suffix.lower() == ".pdf":  # refused before any work, as crdesk render does
            table = chosen.battlefield.table
            problem = printing.print_problem(
                table.width, table.height, str(options.get("paper", "a4"))
            )
            if problem is not None:
                self.show_error("Could not export the map", problem[:1].upper() + problem[1:] + ".")
                return False
        copy = dataclasses.replace(chosen, battlefield=chosen.battlefield.copy())
        export = exporter or export_map
        existed = out.exists()

        def job(progress: Progress) -> str:
            def pages(done: int, total: int) -> None:
                text = f"Drawing {out.name}: page {done:,} of {total:,}…" if total else None
                progress.update(done, total, text)

            return export(copy, out, progress=pages, **options)

        try:
            summary = run_job(self, "Export map", f"Drawing {out.name}…", job)
        except Cancelled:
            # export_map writes a temp file and renames it only when complete; an
            # exporter that writes in place leaves half a map, which is no map
            if not existed:
                out.unlink(missing_ok=True)
            self.statusBar().showMessage(f"Export cancelled; {out.name} not written", 6000)
            return False
        except (OSError, ValueError, MemoryError) as err:
            self.show_error("Could not export the map", str(err) or type(err).__name__)
            return False
        self.statusBar().showMessage(summary, 6000)
        return True

    def is_template(self, path: Path | None = None) -> bool:
        """Whether a file is one of the bundled demo scenarios (opened as a template).

        Save never writes over them: it goes to Save As, starting in the user's
        documents, so the demos stay as shipped.
        """
        from crdesk.resources import resource_root

        target = path if path is not None else self.path
        if target is None:
            return False
        try:
            bundled = Path(str(resource_root() / "scenarios")).resolve()
            return target.resolve().is_relative_to(bundled)
        except OSError:
            return False

    def open_file(
        self,
        path: str | os.PathLike[str],
        loader: Callable[[str | os.PathLike[str]], Scenario] | None = None,
    ) -> bool:
        """Load a scenario file into this window; on failure show why and keep the old one.

        The file is read in a worker thread (a file at the limits takes a while;
        progress shows after 0.3 s, Cancel keeps the open table); ``loader``
        stands in for :func:`crdesk.scenario.load` (tests).
        """
        from crdesk.scenario import load

        # a game shows its own table: a scenario dropped or chosen from Open Recent
        # during one would replace the editor's document under it (the monkey found it)
        if self.play.busy and not self.play.stop():
            return False
        if not self.maybe_save():
            return False
        read = loader or load
        name = Path(path).name
        try:
            open_scenario(self, path, read, self, install=lambda o: self._show(o, path))
        except Cancelled:
            self.statusBar().showMessage(f"Opening {name} cancelled", 4000)
            return False
        except (ScenarioError, OSError, MemoryError) as err:
            self.show_error("Could not open the scenario", str(err) or type(err).__name__)
            return False
        self._remember(Path(path))
        self.statusBar().showMessage(f"Opened {Path(path).name}", 4000)
        return True

    def _show(self, opened: OpenedTable, path: str | os.PathLike[str]) -> Iterator[tuple[int, int]]:
        """Install a table :func:`open_scenario` made; then paint the view's first tiles a
        tile at a time, the viewport kept from painting until they are all there (its
        paint would do the rest at once: half a second for a table at the limits)."""
        self.set_document(Document(opened.scenario, path), opened)
        return self._first_tiles(opened.scene)

    def _first_tiles(self, scene: BattlefieldScene) -> Iterator[tuple[int, int]]:
        viewport = self.view.viewport()
        viewport.setUpdatesEnabled(False)
        try:
            yield from scene.ground.prepare_steps(self.view)
        finally:
            viewport.setUpdatesEnabled(True)
            viewport.update()

    def prepare_sight(self) -> None:
        """Rasterise the table for line of sight now, in a worker.

        Otherwise the first figure selected would freeze the window while the
        sight overlay builds it.  A huge table's (seconds) is built by the
        overlay in the background, the window going on meanwhile; an ordinary
        one's under a progress dialog that hardly ever shows.  (Open builds it
        with the rest of the file, :mod:`ui.opening`.)
        """
        sight = self.editor.sight
        if sight is None:
            return
        if sight.heavy:  # seconds: built in the worker, the window goes on meanwhile
            sight.schedule_build(at_once=True)
            return
        service = sight.service
        try:
            run_job(
                self,
                "Preparing line of sight",
                "Rasterising the terrain for line of sight…",
                lambda _p: service.index,
                cancellable=False,
            )
        except (MemoryError, ValueError) as err:
            self.statusBar().showMessage(f"Line of sight not prepared: {err}", 8000)

    def save_to(self, path: str | os.PathLike[str]) -> bool:
        """Save the scenario to ``path`` (atomically); report failures, keep the work."""
        assert self.document is not None
        if self.is_template(Path(path)):
            self.show_error(
                "Could not save the scenario",
                f"{Path(path).name} is a bundled demo scenario; save your table under "
                "another name (File > Save As).",
            )
            return False
        try:
            self.document.save(path)
        except (ScenarioError, OSError, ValueError) as err:
            self.show_error("Could not save the scenario", str(err))
            return False
        self._update_title()
        self._remember(Path(path))
        self.statusBar().showMessage(f"Saved {Path(path).name}", 4000)
        return True

    def open_dialog(self) -> None:
        from ui.open_preview import open_scenario_name  # the dialog shows each file's map

        start = str(self.path.parent) if self.path is not None else ""
        path = open_scenario_name(self, "Open scenario", start, FILE_FILTER)
        if path:
            self.open_file(path)

    def save(self) -> bool:
        if self.path is None or self.is_template():
            return self.save_as_dialog()
        return self.save_to(self.path)

    def save_as_dialog(self) -> bool:
        from ui.dialogs.export_dialog import default_folder

        if self.path is not None and not self.is_template():
            start = str(self.path)
        else:
            name = f"{self.scenario.title}.crdesk".replace("/", "-")
            start = str(default_folder(self.path, True) / name)
        path, _ = QFileDialog.getSaveFileName(self, "Save scenario as", start, FILE_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".crdesk"
        return self.save_to(path)

    def _on_autosave_failed(self, reason: str) -> None:
        """An autosave that could not write: said at once, so the user saves by hand
        rather than trust a recovery copy that is not there."""
        self.statusBar().showMessage(
            f"Autosave failed: {reason} -- save your work (Ctrl+S) to keep it", 0
        )

    def show_error(self, title: str, text: str) -> None:
        """Tell the player what went wrong (a ScenarioError lists every problem)."""
        QMessageBox.critical(self, title, text)

    def show_rules_reference(self) -> RulesReferenceWindow:
        """Open (or bring forward) the rules reference; it is not modal, play goes on."""
        if self.rules_window is None:
            self.rules_window = RulesReferenceWindow(self)
        self.rules_window.show()
        self.rules_window.raise_()
        self.rules_window.activateWindow()
        return self.rules_window

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About crdesk",
            f"<h3>crdesk {crdesk.__version__}</h3>"
            "<p>A battlefield editor and player for the <i>Chain Reaction 2015</i> "
            "skirmish rules (Two Hour Wargames, Ed Teixeira).</p>"
            "<p>Distances are in inches; the table is divided into nine sections, "
            "1-3 at the far edge and 7-9 at the player's edge.</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.play.maybe_stop():  # a game being played: offer to save it first
            event.ignore()
            return
        if not self.maybe_save():
            event.ignore()
            return
        self._save_settings()
        if self.autosaver is not None:
            self.autosaver.stop()
        if self.scene is not None:
            self.scene.detach()
        super().closeEvent(event)
