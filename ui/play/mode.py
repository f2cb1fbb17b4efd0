"""The play mode of the main window: the Game menu, and switching between editor and table.

Starting an encounter builds a :class:`~crdesk.game.Game` on a copy of the open
scenario and shows *the game's* battlefield in the view, in a scene of its
own; the editor's document, its undo stack and its scene are left exactly as
they were, and the editor's tools, actions and docks are switched off until
the game is stopped.  Everything the game shows comes from the controller
through a :class:`~ui.play.session.PlaySession`.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QToolBar,
)

from crdesk import scenario as scenario_io
from crdesk.band import Band, band_record, band_setup
from crdesk.dice import CounterDice
from crdesk.errors import CrdeskError
from crdesk.game import CHANCE, SEEDED, Action, Game, GameSettings
from crdesk.game.deployment import DEPLOY_DIE, without_enemies
from crdesk.game.deployment import deploy as deploy_force
from crdesk.game.savefile import load_game, save_game
from crdesk.generator import generate
from crdesk.geometry import routing
from crdesk.geometry.terrain_index import TerrainIndex
from crdesk.model import Battlefield, EncounterType, Force, Scenario
from crdesk.options import RulesOptions
from ui.docks.weapon_card_panel import FigureCardDock
from ui.document import Document
from ui.play.animator import AnimationBar, Animator
from ui.play.autosave import GAMES_FOLDER, GameAutosaver, GameAutosaveStore
from ui.play.banner import HandOverBanner
from ui.play.campaign_dock import CampaignDock
from ui.play.decision_dock import DecisionDock
from ui.play.deploy_step import DeployDock, DeploymentStep
from ui.play.dice_entry import DiceEntryDock
from ui.play.dice_tray import DiceTrayDock
from ui.play.history_dock import HistoryDock
from ui.play.log_dock import EventLogDock
from ui.play.markers import StatusMarkers
from ui.play.move_tool import MoveTool
from ui.play.objective_marks import ObjectiveMarks
from ui.play.objectives_dock import ObjectivesDock
from ui.play.report import export_report
from ui.play.save_position import Leave, LeaveQuestion, save_position_dialog
from ui.play.session import PlaySession
from ui.play.start_dialog import StartDialog, default_program, random_seed
from ui.play.turn_dock import TurnDock
from ui.play.viewer import ReplayWindow
from ui.scene.scene import BattlefieldScene

if TYPE_CHECKING:
    from ui.main_window import MainWindow

GAME_FILTER = "Chain Reaction games (*.crgame);;All files (*)"
RECENT_KEY = "games/recent"
"""QSettings key of the recent games list (the editor's recent files are "files/recent")."""
MAX_RECENT_GAMES = 8
ARCS_KEY = "play/front_arcs"
"""QSettings key: Game ▸ Show Front Arcs as the player last left it."""
REPORT_FILTER = "Battle report (*.md *.html);;All files (*)"
MESSAGE_MS = 8000
BADGE_STYLE = (
    "QLabel {{ background: {bg}; color: white; font-weight: bold; border-radius: 4px; "
    "padding: 2px 10px; margin: 2px 6px; }}"
)


PLAYER_DEPLOYS = "player"
"""``PlayMode.start(deploy=...)``: the player sets the Band up on the table (12.1.4)."""
PROGRAM_DEPLOYS = "auto"
"""The program deploys the Band (as ``crdesk game new --deploy auto``)."""

ROUTES_IN_BACKGROUND = True
"""Build a new game's roadmap for routed moves on a background thread (the tests, which
start hundreds of games, turn it off)."""

DECISION_MIN_HEIGHT = 220
"""Pixels the decision panel always keeps: its prompt, its main button and the first
options (the Campaign panel once squeezed it to 100 px and hid a Duck Back's options)."""


def _prepare_routes(
    battlefield: Battlefield, rules: RulesOptions, index: TerrainIndex, radii: tuple[float, ...]
) -> None:
    """Build the game's roadmaps for routed moves, then keep everything alive now out of
    Python's full garbage collections: a roadmap is tens of thousands of small objects
    that live as long as the game, and sweeping them held a drag's frame for 50-100 ms
    (benchmarks/bench_routes.py).  Leaving the game unfreezes them."""
    routing.prepare(battlefield, rules, index, radii)
    gc.freeze()


class PlayMode(QObject):
    """The Game menu and everything that is on while a game is played in the window."""

    def __init__(self, window: MainWindow, restore_title: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self._restore_title = restore_title
        self.session: PlaySession | None = None
        self.game_file: Path | None = None
        """The file the game on the table was opened from or last saved to (Save writes it)."""
        self.scene: BattlefieldScene | None = None
        self.move_tool: MoveTool | None = None
        self.markers: StatusMarkers | None = None
        self.objective_marks: ObjectiveMarks | None = None
        self.animator: Animator | None = None
        """Plays each step's events on the table (a view: the game is already past them)."""
        self.banner: HandOverBanner | None = None
        """Says whose go it is when the side changes (hot-seat hand-over)."""
        self.autosave_store = GameAutosaveStore(window.recovery.folder / GAMES_FOLDER)
        """Where games in play are autosaved: beside the editor's recovery files."""
        self.autosaver: GameAutosaver | None = None
        self.viewers: list[ReplayWindow] = []
        """The replay viewers open beside the window (Game ▸ Watch Game…)."""
        self.autoplay = True
        """Whether the program's steps run by themselves (tests turn this off and call
        :meth:`run_program`)."""
        self._switched_off: list[tuple[QAction | QDockWidget | QToolBar, bool]] = []
        self.decision_dock = DecisionDock(window)
        self.dice_entry = DiceEntryDock(window)
        self.turn_dock = TurnDock(window)
        self.dice_tray = DiceTrayDock(window)
        self.log_dock = EventLogDock(window)
        self.history_dock = HistoryDock(window)
        self.objectives_dock = ObjectivesDock(window)
        self.card_dock = FigureCardDock(window)
        """The selected figure's weapon card (shown when Firearms Detail is on, FD §11)."""
        for area, dock in (
            (Qt.DockWidgetArea.LeftDockWidgetArea, self.decision_dock),
            (Qt.DockWidgetArea.LeftDockWidgetArea, self.dice_entry),
            (Qt.DockWidgetArea.RightDockWidgetArea, self.turn_dock),
            (Qt.DockWidgetArea.RightDockWidgetArea, self.dice_tray),
            (Qt.DockWidgetArea.RightDockWidgetArea, self.log_dock),
            (Qt.DockWidgetArea.RightDockWidgetArea, self.history_dock),
            (Qt.DockWidgetArea.LeftDockWidgetArea, self.objectives_dock),
            (Qt.DockWidgetArea.LeftDockWidgetArea, self.card_dock),
        ):
            window.addDockWidget(area, dock)
            dock.hide()
        window.tabifyDockWidget(self.log_dock, self.history_dock)
        self.animation_bar = AnimationBar(window)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.animation_bar)
        self.animation_bar.hide()
        self.deploy_dock = DeployDock(window)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.deploy_dock)
        self.deploy_dock.hide()
        self.deployment: DeploymentStep | None = None
        """The Band's deployment on the table, before its game starts (12.1.4)."""
        self.campaign_dock = CampaignDock(
            window,
            game=lambda: self.game,
            save_game=self.save_to,
            open_game=self.open_file,
            watch_game=self.watch_file,
            report_game=self.report_file,
        )
        self.campaign_dock.next_requested.connect(self.next_encounter)
        self.campaign_dock.band_changed.connect(self._update)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.campaign_dock)
        # a tab beside the objectives: never a third dock squeezing the decision panel
        window.tabifyDockWidget(self.objectives_dock, self.campaign_dock)
        self.campaign_dock.hide()
        self.decision_dock.setMinimumHeight(DECISION_MIN_HEIGHT)
        window.addActions([self.turn_dock.action_end, self.turn_dock.action_pass])
        self.decision_dock.chosen.connect(self.choose)
        self.decision_dock.typed.connect(self.choose_text)
        self.turn_dock.chosen.connect(self.choose)
        self.dice_entry.entered.connect(self.choose)
        self.log_dock.figures_selected.connect(self.highlight)
        self.badge = QLabel()
        self.badge.setObjectName("modeBadge")
        # wide enough for either word, whichever it shows first ("EDITC" was clipped)
        bold = QFont(self.badge.font())
        bold.setBold(True)
        words = QFontMetrics(bold)
        self.badge.setMinimumWidth(
            max(words.horizontalAdvance(w) for w in ("PLAY", "DEPLOY", "EDITOR")) + 40
        )
        window.menuBar().setCornerWidget(self.badge, Qt.Corner.TopRightCorner)
        self._build_actions()
        self.menu = self._build_menu()
        self._refresh_recent()
        self.menu.aboutToShow.connect(self._refresh_recent)  # another window may have added one
        window.action_sections.toggled.connect(self._sync_overlays)
        window.action_grid.toggled.connect(self._sync_overlays)
        self._update()

    # -- set-up -------------------------------------------------------------------

    def _action(
        self, text: str, slot: Callable[[], object], shortcut: str | None = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self.window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{tip} ({keys})" if keys else tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.action_start = self._action(
            "&Start Encounter…",
            self.start_dialog,
            "Ctrl+Shift+P",
            "Play the open scenario: seeded dice, the program plays the sides you give it",
        )
        self.action_open = self._action(
            "&Open Game…", self.open_dialog, "Ctrl+Shift+O", "Resume a saved game (.crgame)"
        )
        self.action_watch = self._action(
            "&Watch Game…",
            self.watch_dialog,
            None,
            "Open a saved game (.crgame) in the replay viewer: step through it, see why the "
            "program moved where it did, play on from any step",
        )
        self.action_watch_this = self._action(
            "Watch T&his Game",
            self.watch_this,
            None,
            "Open the game being played in the replay viewer (a copy: the game goes on here)",
        )
        self.action_save = self._action(
            "Sa&ve Game",
            self.save,
            "Ctrl+Alt+S",
            "Save the game being played to its file (asks for one the first time)",
        )
        self.action_save_as = self._action(
            "Save Game &As…", self.save_dialog, None, "Save the game being played to a new file"
        )
        self.action_position = self._action(
            "Save &Position as Scenario…",
            self.save_position_dialog,
            None,
            "Write the table as it stands now as a new scenario (the game and the open "
            "scenario are not changed)",
        )
        self.action_report = self._action(
            "Export Battle &Report…",
            self.report_dialog,
            None,
            "Write the event log as Markdown and HTML with maps of the table at start and now",
        )
        self.action_undo = self._action(
            "&Undo Step",
            self.undo,
            "Ctrl+Z",
            "Take back your last step (not past dice that were seen)",
        )
        self.action_default = self._action(
            "&Play Highlighted Option",
            self.play_default,
            None,
            "Play the decision's highlighted option",
        )
        self.action_default.setShortcuts([QKeySequence("Return"), QKeySequence("Enter")])
        self.action_stop = self._action(
            "S&top Game", self.stop, None, "Put the game away and go back to the editor"
        )
        self.action_arcs = self._action(
            "Show Front &Arcs",
            self._sync_arcs,
            "Shift+A",
            "Draw every figure's 180° front, faint in its side's colour: what it can see "
            "(LOS 7.9.4)",
        )
        self.action_arcs.setCheckable(True)  # off at first: the fronts' arrows say enough
        self.action_arcs.setChecked(bool(QSettings().value(ARCS_KEY, False, type=bool)))
        self.action_arcs.toggled.connect(self._sync_arcs)
        self.action_arcs.toggled.connect(lambda on: QSettings().setValue(ARCS_KEY, bool(on)))

    def _build_menu(self) -> QMenu:
        menu = QMenu("&Game", self.window)
        menu.addActions([self.action_start, self.action_open])
        self.recent_menu = QMenu("Open &Recent Game", self.window)
        menu.addMenu(self.recent_menu)
        menu.addActions([self.action_watch, self.action_watch_this])
        menu.addActions([self.campaign_dock.action_open, self.campaign_dock.toggleViewAction()])
        menu.addAction(self.action_save)
        menu.addAction(self.action_save_as)
        menu.addAction(self.action_position)
        menu.addAction(self.action_report)
        menu.addSeparator()
        menu.addActions(
            [
                self.action_default,
                self.turn_dock.action_end,
                self.turn_dock.action_pass,
                self.action_undo,
            ]
        )
        menu.addSeparator()
        menu.addAction(self.action_arcs)
        menu.addActions(self.animation_bar.menu_actions())
        menu.addSeparator()
        menu.addActions([d.toggleViewAction() for d in self._panels()])
        menu.addSeparator()
        menu.addAction(self.action_stop)
        return menu

    # -- state ----------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """Whether a game is being played in the window."""
        return self.session is not None

    @property
    def busy(self) -> bool:
        """Whether the window's table is the play mode's: a game, or a Band deploying."""
        return self.session is not None or self.deployment is not None

    @property
    def game(self) -> Game | None:
        return self.session.game if self.session is not None else None

    def title(self) -> str:
        """The window title while playing."""
        assert self.session is not None
        game = self.session.game
        over = " — over" if game.awaiting() is None else ""
        return f"Play: {game.scenario.title} — turn {game.turn}{over} — crdesk"

    def _update(self) -> None:
        playing = self.active
        self.action_start.setEnabled(not playing and self.deployment is None)
        for action in (
            self.action_save,
            self.action_save_as,
            self.action_position,
            self.action_report,
            self.action_undo,
            self.action_watch_this,
        ):
            action.setEnabled(playing)
        self.action_stop.setEnabled(playing or self.deployment is not None)
        self.action_arcs.setEnabled(playing)
        self.action_default.setEnabled(playing)
        self.campaign_dock.update_button()
        for dock in self._panels():
            dock.toggleViewAction().setEnabled(playing)
        deploying = self.deployment is not None
        colour = "#d9771f" if playing or deploying else "#5b6f8a"
        self.badge.setText("PLAY" if playing else "DEPLOY" if deploying else "EDITOR")
        style = BADGE_STYLE.format(bg=colour)
        if self.badge.styleSheet() != style:  # re-polishing costs tens of ms: not every step
            self.badge.setStyleSheet(style)
        self.badge.setToolTip(
            "A game is being played: the editor is off until Game ▸ Stop Game"
            if playing
            else "Deploying the Band: Start encounter (Deploy panel) begins the game"
            if deploying
            else "Editing the table; Game ▸ Start Encounter plays it"
        )
        if playing:
            self.window.setWindowTitle(self.title())

    def show_message(self, text: str) -> None:
        self.window.statusBar().showMessage(text, MESSAGE_MS)

    # -- starting and stopping --------------------------------------------------------

    def start_dialog(self) -> None:
        if not self.active and self.offer_recovery():
            return
        dialog = StartDialog(self.window.scenario, self.window, band=self.campaign_dock.band)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            # a Band opened from the dialog: the Campaign panel keeps it (After the Battle)
            opened = dialog.opened_path if dialog.band() is not None else None
            if opened is not None and not self.campaign_dock.open_file(opened):
                return
            if dialog.generated_table():
                self.generate_table(dialog.encounter())
            self.start(
                dialog.seed(),
                dialog.program_sides(),
                dialog.settings(),
                dice=dialog.dice_mode(),
                band=dialog.band(),
                known_enemies=dialog.known_enemies(),
                deploy=PLAYER_DEPLOYS if dialog.player_deploys() else PROGRAM_DEPLOYS,
            )

    def next_encounter(self, seed: int | None = None) -> bool:
        """The Band's next encounter (12, 14): the game on the table put away, a table
        generated for the encounter (9.2-9.5 and its buildings, on the table's size),
        then Start with the Band.  False when nothing was set up."""
        band = self.campaign_dock.band
        if band is None or band.next_encounter is None or band.ended:
            return False
        if self.active and not self.stop():
            return False
        if self.window.document is None:
            return False
        self.generate_table(band.next_encounter, seed)
        self.start_dialog()
        return True

    def generate_table(self, kind: EncounterType, seed: int | None = None) -> None:
        """A table generated by the book for the encounter (9.2-9.5 and its buildings, 12)
        on the open table's size, put in the editor as one undo step."""
        table = self.window.scenario.table
        generated = generate(
            random_seed() if seed is None else seed,
            width=table.width,
            height=table.height,
            terrain_type="roll",
            encounter=kind.value if kind is not EncounterType.FREE else "none",
        )
        self.window.use_generated(generated)

    def start(
        self,
        seed: int,
        program: Iterable[str] | None = None,
        settings: GameSettings | None = None,
        *,
        dice: str = SEEDED,
        band: Band | None = None,
        known_enemies: bool = True,
        deploy: str = PROGRAM_DEPLOYS,
    ) -> bool:
        """Start an encounter on (a copy of) the open scenario; False if it cannot be played.

        ``dice="manual"``: the person rolls real dice and enters them in the dice panel.
        ``band``: the campaign's Band plays the player's side, deployed by the encounter
        (14); with ``deploy=PLAYER_DEPLOYS`` the player sets it up on the table first
        (12.1.4) and the game starts with "Start encounter".  A solo game without
        ``known_enemies`` places none of the scenario's enemy figures: the enemy comes
        from PEFs (11).
        """
        if not self.maybe_stop():
            return False
        try:
            scenario = _copy(self.window.scenario)
            base = settings or GameSettings()
            if band is not None:
                kind = EncounterType(base.encounter or "patrol")
                rolls = CounterDice(seed, position=DEPLOY_DIE)
                bare, force = band_setup(scenario, band, keep_enemies=known_enemies)
                scenario = deploy_force(bare, force, kind, rolls)
                base = replace(base, solo=True, encounter=kind.value, band=band_record(band))
                if deploy_mode_is_player(deploy):
                    self._deploy_first(bare, force, kind, scenario, band, seed, program, base, dice)
                    return True
            elif base.solo and not known_enemies:
                scenario = without_enemies(scenario)
        except CrdeskError as exc:
            self.window.show_error("Cannot start the encounter", str(exc))
            return False
        return self._begin(scenario, seed, program, base, dice)

    def _begin(
        self,
        scenario: Scenario,
        seed: int,
        program: Iterable[str] | None,
        base: GameSettings,
        dice: str,
    ) -> bool:
        """The game built on the scenario set up, shown on the table."""
        try:
            chosen = default_program(scenario) if program is None else set(program)
            seats = replace(
                base,
                program_sides=tuple(sorted(chosen)),
                hot_seat=not chosen,
            )
            game = Game.new(scenario, seed=seed, dice=dice, settings=seats)
        except CrdeskError as exc:
            self.window.show_error("Cannot start the encounter", str(exc))
            return False
        self.game_file = None  # a new game: its first Save asks where
        self.enter(game, chosen)
        if dice == SEEDED:
            self.show_message(f"Encounter started with dice seed {seed}")
        else:
            self.show_message("Encounter started: roll your own dice and enter them")
        return True

    def _deploy_first(
        self,
        bare: Scenario,
        force: Force,
        kind: EncounterType,
        auto: Scenario,
        band: Band,
        seed: int,
        program: Iterable[str] | None,
        base: GameSettings,
        dice: str,
    ) -> None:
        """The deployment step (12.1.4): the editor off, the Band on the table in its zone;
        "Start encounter" builds the game from where the player put it."""
        self._switch_editor_off()
        step = DeploymentStep(
            self.window.view,
            self.deploy_dock,
            bare,
            force,
            kind,
            auto,
            band_id=band.identity,
            show_message=self.show_message,
        )
        self.deployment = step
        chosen = list(program) if program is not None else None

        def started(deployed: object) -> None:
            assert isinstance(deployed, Scenario)
            self._end_deployment()
            self._begin(deployed, seed, chosen, base, dice)

        step.done.connect(started)
        step.cancelled.connect(self._end_deployment)
        self._update()
        self.show_message(
            f"Deploy {band.name} in the green zone, then Start encounter (Deploy panel)"
        )

    def _end_deployment(self) -> None:
        """The deployment put away: the editor's scene and tools back."""
        step, self.deployment = self.deployment, None
        if step is None:
            return
        step.detach()
        step.deleteLater()
        if self.window.scene is not None:
            self.window.view.setScene(self.window.scene)
        self._switch_editor_on()
        self._update()

    def enter(self, game: Game, program: Iterable[str], saved: bool = False) -> None:
        """Show ``game`` on the table and switch the editor off."""
        if self.active:
            self._leave()
        window = self.window
        self.session = PlaySession(game, program, autoplay=False, parent=self)
        if not saved:
            self.session.saved_steps = -1  # a new game has nothing on disk yet
        self.session.message.connect(self.show_message)
        self.session.changed.connect(self._update)
        self.autosaver = GameAutosaver(self.session, self.autosave_store, parent=self)
        self._switch_editor_off()
        self.scene = BattlefieldScene(game.battlefield, parent=window)
        self._sync_overlays()
        window.view.setScene(self.scene)
        self.move_tool = MoveTool(window.view, self.scene, self.session, self.show_message)
        self.move_tool.selection_changed.connect(self._show_card)
        self.card_dock.set_figure(None)
        self.markers = StatusMarkers(self.scene, self.session)
        self._sync_arcs()
        self.objective_marks = ObjectiveMarks(self.scene, self.session)
        self.move_tool.markers = self.markers
        self.banner = HandOverBanner(window.view, self.session)
        # after the move tool: its filter sees a press first, finishes the show, passes it on
        self.animator = Animator(window.view, self.scene, self.session, self.markers)
        self.banner.follow(self.animator)  # a hand-over waits until the table shows the step
        self.animation_bar.set_animator(self.animator)
        self.animation_bar.show()
        for dock in self._panels():
            dock.set_session(self.session)
        for dock in (
            self.decision_dock,
            self.turn_dock,
            self.dice_tray,
            self.history_dock,
            self.log_dock,
            self.objectives_dock,
        ):
            dock.show()
            dock.raise_()
        if game.rules.firearms_detail:  # beside the objectives, in front
            self.window.tabifyDockWidget(self.objectives_dock, self.card_dock)
            self.card_dock.show()
            self.card_dock.raise_()
        self.dice_entry.refresh()  # shown only while the game waits for dice
        self._size_docks()
        self._update()
        self.scene.ground.prepare(window.view)  # the table's first paint only blits
        if ROUTES_IN_BACKGROUND:  # the first drag of a figure need not wait for its roadmap
            radii = tuple({f.radius for f in game.battlefield.figures()})
            threading.Thread(
                target=_prepare_routes,
                args=(game.battlefield, game.rules, game.vis.index, radii),
                name="crdesk-routes",
                daemon=True,
            ).start()
        self.session.autoplay = self.autoplay

    def _show_card(self, fid: str | None) -> None:
        """The weapon card panel follows the figure chosen, and keeps the last one shown when
        the choice is dropped (after it fires: its rounds left stay in view)."""
        if fid is not None:
            self.card_dock.set_figure(fid)

    def _size_docks(self) -> None:
        """The turn panel as tall as it needs, the tray room for a volley, the log the rest."""
        window = self.window
        scroll = self.turn_dock.body_scroll()
        body = scroll.widget() if scroll is not None else None
        turn_height = (body.sizeHint().height() if body is not None else 200) + 44 + 40
        docks: list[QDockWidget] = [self.turn_dock, self.dice_tray, self.log_dock]
        window.resizeDocks(docks, [turn_height, 300, 400], Qt.Orientation.Vertical)

    def maybe_stop(self) -> bool:
        """Before a game is put away: offer to save steps not on disk.  True to go on."""
        self._end_deployment()  # a deployment not started has nothing to keep
        if self.session is None:
            return True
        if self.session.has_unsaved_steps():
            answer = QMessageBox.warning(
                self.window,
                "Game not saved",
                "The game has steps that are not saved.",
                QMessageBox.StandardButton.Save
                | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Save,
            )
            if answer == QMessageBox.StandardButton.Cancel:
                return False
            if answer == QMessageBox.StandardButton.Save and not self.save_dialog():
                return False
        self._leave()
        return True

    def stop(self) -> bool:
        """Game ▸ Stop Game: back to the editor.  A game not over asks first (the editor
        cannot change its table), offering to save the game or the position as a new
        scenario; a game over asks only about unsaved steps."""
        session = self.session
        if session is None or session.game.awaiting() is None:
            return self.maybe_stop()
        unsaved = session.has_unsaved_steps()
        answer = LeaveQuestion.ask(self.window, session.game, unsaved)
        if answer is Leave.STAY:
            return False
        if answer is Leave.SAVE_GAME and not self.save_dialog():
            return False
        if answer is Leave.SAVE_POSITION:
            if not self.save_position_dialog():
                return False
            return self.maybe_stop()  # the game's own unsaved steps are asked about still
        self._leave()
        return True

    def save_position_dialog(self) -> bool:
        """Game ▸ Save Position as Scenario…: a new .crdesk of the table as it stands."""
        if self.session is None:
            return False
        return save_position_dialog(self.window, self.session.game)

    def _leave(self) -> None:
        """Put the game away on purpose (Stop Game, another game, the window closes)."""
        gc.unfreeze()  # the game's roadmaps may go now (see _prepare_routes)
        window = self.window
        played = self.session.game.scenario if self.session is not None else None
        if self.autosaver is not None:
            self.autosaver.stop()  # a clean stop: nothing to recover
            self.autosaver.deleteLater()
            self.autosaver = None
        if self.session is not None:
            self.session.stop()
            self.session.message.disconnect(self.show_message)
            self.session.changed.disconnect(self._update)
        if self.animator is not None:
            self.animator.detach()
            self.animation_bar.set_animator(None)
            self.animation_bar.hide()
            self.animator.deleteLater()
            self.animator = None
        if self.markers is not None:
            self.markers.detach()
            self.markers = None
        if self.objective_marks is not None:
            self.objective_marks.detach()
            self.objective_marks = None
        if self.banner is not None:
            self.banner.detach()
            self.banner = None
        if self.move_tool is not None:
            self.move_tool.markers = None
            self.move_tool.detach()
            self.move_tool.deleteLater()
            self.move_tool = None
        for dock in self._panels():
            dock.set_session(None)
            dock.hide()
        if window.scene is not None:
            window.view.setScene(window.scene)
        if self.scene is not None:
            self.scene.detach()
            self.scene.deleteLater()
            self.scene = None
        if self.session is not None:
            self.session.deleteLater()
            self.session = None
        self._switch_editor_on()
        if played is not None and _untouched_empty(window):
            # a game opened on its own: the editor shows its scenario, not an empty table
            window.set_document(Document(_copy(played)))
        self._update()
        self._restore_title()

    def _switch_editor_off(self) -> None:
        """Tools, edit actions, file actions that would change the scenario, and editor docks."""
        window = self.window
        editor = window.editor
        if editor.tool is not None:
            editor.tool.cancel()
        if editor.manager is not None:
            window.view.viewport().removeEventFilter(editor.manager)
            window.view.removeEventFilter(editor.manager)
        off: list[QAction | QDockWidget | QToolBar] = [
            *editor.findChildren(QAction),
            window.action_new,
            window.action_open,
            window.action_save,
            window.action_save_as,
            window.action_generate,
            window.recent_menu.menuAction(),
        ]
        docks = [d for d in window.findChildren(QDockWidget) if d not in self._own_docks()]
        off += [d.toggleViewAction() for d in docks]
        self._switched_off = [(w, w.isEnabled()) for w in off]
        self._switched_off += [(d, d.isVisible()) for d in docks]
        self._switched_off += [
            (t, t.isVisible())
            for t in window.findChildren(QToolBar)
            if t.objectName() == "toolsToolBar"
        ]
        for thing, _state in self._switched_off:
            if isinstance(thing, QAction):
                thing.setEnabled(False)
            else:
                thing.hide()

    def _switch_editor_on(self) -> None:
        window = self.window
        for thing, state in reversed(self._switched_off):
            if isinstance(thing, QAction):
                thing.setEnabled(state)
            else:
                thing.setVisible(state)
        self._switched_off = []
        editor = window.editor
        if editor.manager is not None:
            window.view.viewport().installEventFilter(editor.manager)
            window.view.installEventFilter(editor.manager)

    def _panels(
        self,
    ) -> tuple[
        DecisionDock,
        DiceEntryDock,
        TurnDock,
        DiceTrayDock,
        EventLogDock,
        HistoryDock,
        ObjectivesDock,
        FigureCardDock,
    ]:
        """The play mode's docks."""
        return (
            self.decision_dock,
            self.dice_entry,
            self.turn_dock,
            self.dice_tray,
            self.log_dock,
            self.history_dock,
            self.objectives_dock,
            self.card_dock,
        )

    def _own_docks(self) -> tuple[QDockWidget, ...]:
        return (*self._panels(), self.campaign_dock, self.deploy_dock)

    def _sync_arcs(self, _on: bool = False) -> None:
        """Every figure's front arc on the table, or only the selected figure's (7.9.4)."""
        if self.markers is not None:
            self.markers.set_arcs(self.action_arcs.isChecked())

    def _sync_overlays(self, _on: bool = False) -> None:
        if self.scene is not None:
            self.scene.set_sections_visible(self.window.action_sections.isChecked())
            self.scene.set_grid_visible(self.window.action_grid.isChecked())

    # -- files -------------------------------------------------------------------------

    def _default_game_path(self) -> str:
        """Where Save As starts: the game's own file, else the folder last used for a game
        (else the scenario's) with the scenario's name."""
        if self.game_file is not None:
            return str(self.game_file)
        title = self.game.scenario.title if self.game is not None else "game"
        recent = self.recent_games()
        if recent:
            return str(Path(recent[0]).with_name(f"{title}.crgame"))
        path = self.window.path
        if path is not None:
            return str(path.with_suffix(".crgame"))
        return f"{title}.crgame"

    def save(self) -> bool:
        """Game ▸ Save Game: the game's own file once it has one, else Save As."""
        if self.game_file is not None:
            return self.save_to(self.game_file)
        return self.save_dialog()

    def save_dialog(self) -> bool:
        if self.session is None:
            return False
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save game", self._default_game_path(), GAME_FILTER
        )
        if not path:
            return False
        if not Path(path).suffix:
            path += ".crgame"
        return self.save_to(path)

    def save_to(self, path: str | os.PathLike[str]) -> bool:
        """Save the game being played; failures are shown, never raised."""
        if self.session is None:
            return False
        try:
            save_game(self.session.game, path)
        except (OSError, CrdeskError, ValueError) as exc:
            self.window.show_error("Could not save the game", str(exc))
            return False
        self.session.saved_steps = len(self.session.game.history)
        self.game_file = Path(path)
        self.remember(path)
        self.show_message(f"Saved the game to {Path(path).name}")
        return True

    def recent_games(self) -> list[str]:
        """Games saved or opened lately, newest first (absolute paths)."""
        value = QSettings().value(RECENT_KEY, [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def remember(self, path: str | os.PathLike[str]) -> None:
        name = str(Path(path).resolve())
        games = [name] + [g for g in self.recent_games() if g != name]
        QSettings().setValue(RECENT_KEY, games[:MAX_RECENT_GAMES])
        self._refresh_recent()

    def forget(self, path: str | os.PathLike[str]) -> None:
        name = str(Path(path).resolve())
        QSettings().setValue(RECENT_KEY, [g for g in self.recent_games() if g != name])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        games = self.recent_games()
        for i, name in enumerate(games, start=1):
            action = self.recent_menu.addAction(f"&{i} {Path(name).name}")
            action.setToolTip(name)
            action.setStatusTip(name)
            action.triggered.connect(lambda _checked=False, n=name: self.open_file(n))
        self.recent_menu.setEnabled(bool(games))

    def report_dialog(self) -> bool:
        if self.session is None:
            return False
        default = str(Path(self._default_game_path()).with_suffix(".md"))
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Export battle report", default, REPORT_FILTER
        )
        return bool(path) and self.export_report(path)

    def export_report(self, path: str | os.PathLike[str]) -> bool:
        """Write the battle report (.md, .html and two maps); failures are shown, never raised."""
        if self.session is None:
            return False
        try:
            files = export_report(self.session.game, path, self.session.program)
        except OSError as exc:
            self.window.show_error("Could not export the battle report", str(exc))
            return False
        self.show_message(
            f"Battle report written: {files.markdown.name}, {files.html.name} and two maps"
        )
        return True

    def report_file(self, path: str | os.PathLike[str]) -> bool:
        """The battle report of a saved game, written beside it (``NAME.md``, ``NAME.html``
        and two maps) and shown in the browser; the game is only read."""
        try:
            loaded = load_game(path, strict=False)
            sides = set(loaded.game.settings.program_sides)
            files = export_report(loaded.game, Path(path).with_suffix(".md"), sides)
        except (CrdeskError, OSError) as exc:
            self.window.show_error("Could not write the battle report", str(exc))
            return False
        self.show_message(f"Battle report written: {files.html}")
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(files.html)))
        return True

    def open_dialog(self) -> None:
        start = str(self.window.path.parent) if self.window.path is not None else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Open game", start, GAME_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | os.PathLike[str], program: Iterable[str] | None = None) -> bool:
        """Resume a saved game; the program plays the sides not marked the player's."""
        if not self.maybe_stop():
            return False
        try:
            loaded = load_game(path, strict=False)
        except (CrdeskError, OSError) as exc:
            self.window.show_error("Could not open the game", str(exc))
            if not Path(path).is_file():
                self.forget(path)
            return False
        self.remember(path)
        game = loaded.game
        self.game_file = Path(path) if loaded.complete else None  # a partial one: Save As
        chosen = set(program) if program is not None else seated(game)
        self.enter(game, chosen, saved=loaded.complete)
        notes = list(loaded.warnings)
        if loaded.error is not None:
            QMessageBox.information(
                self.window, "Game opened before its end", "\n".join(notes) or str(loaded.error)
            )
        self.show_message(
            f"Opened {Path(path).name} at step {len(game.history)}, turn {game.turn}"
            + (f" ({'; '.join(notes)})" if notes else "")
        )
        return True

    # -- the replay viewer ------------------------------------------------------------

    def watch_dialog(self) -> None:
        recent = self.recent_games()
        start = str(Path(recent[0]).parent) if recent else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Watch a game", start, GAME_FILTER)
        if path:
            self.watch_file(path)

    def watch_file(self, path: str | os.PathLike[str]) -> ReplayWindow | None:
        """Open a saved game in the replay viewer (the file is only read); None when it
        cannot be opened (the error is shown)."""
        try:
            loaded = load_game(path, strict=False)
        except (CrdeskError, OSError) as exc:
            self.window.show_error("Could not open the game", str(exc))
            return None
        viewer = self.watch_game(loaded.game, Path(path).name)
        if loaded.warnings:
            viewer.statusBar().showMessage("; ".join(loaded.warnings), MESSAGE_MS)
        return viewer

    def watch_this(self) -> ReplayWindow | None:
        """Game ▸ Watch This Game: the game on the table in the viewer, as a copy."""
        if self.session is None:
            return None
        game = self.session.game
        name = self.game_file.name if self.game_file is not None else game.scenario.title
        return self.watch_game(game.fork(), name or "this game")

    def watch_game(self, game: Game, title: str) -> ReplayWindow:
        """``game`` (the viewer's own) in a replay viewer window beside this one."""
        viewer = ReplayWindow(game, title, self.window)
        viewer.play_requested.connect(lambda forked: self.play_from(forked, title))
        self.viewers.append(viewer)
        viewer.destroyed.connect(lambda _obj=None, v=viewer: self._forget_viewer(v))
        viewer.show()
        viewer.raise_()
        return viewer

    def _forget_viewer(self, viewer: ReplayWindow) -> None:
        if viewer in self.viewers:
            self.viewers.remove(viewer)

    def play_from(self, game: Game, origin: str = "") -> bool:
        """Play on from a replay's step: ``game`` (forked there) is a new game on the
        table, seated as it says; the file it came from is not touched."""
        if not self.maybe_stop():
            return False
        self.game_file = None  # a new game: its first Save asks where
        self.enter(game, seated(game))
        where = f" of {origin}" if origin else ""
        self.show_message(
            f"Playing on from step {len(game.history)}{where}: a new game (Save asks where)"
        )
        self.window.raise_()
        self.window.activateWindow()
        return True

    def offer_recovery(self) -> bool:
        """A game a crash interrupted: offer to resume it.  True when it was resumed.

        The newest such game is asked about once: its autosave is removed whatever
        the answer (a resumed game is autosaved afresh from then on).
        """
        if self.active:
            return False
        entries = self.autosave_store.pending()
        if not entries:
            return False
        entry = entries[0]
        when = time.strftime("%d %b %H:%M", time.localtime(entry.saved_at))
        answer = QMessageBox.question(
            self.window,
            "Resume the interrupted game?",
            f"crdesk was not closed properly during a game of {entry.title or 'Untitled'} "
            f"(turn {entry.turn}, step {entry.steps}, autosaved {when}).\n\nResume it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self.autosave_store.discard(entry.key)
            return False
        try:
            loaded = entry.load()
        except (CrdeskError, OSError) as exc:
            self.window.show_error("Could not resume the game", str(exc))
            self.autosave_store.discard(entry.key)
            return False
        game = loaded.game
        self.enter(game, set(entry.program))  # seated as when it was autosaved
        self.autosave_store.discard(entry.key)
        self.show_message(
            f"Resumed the interrupted game at step {len(game.history)}, turn {game.turn} "
            "(not saved to a file yet)"
        )
        return True

    # -- playing -------------------------------------------------------------------------

    def choose(self, action: Action) -> None:
        """A person's choice from the decision dock."""
        self._send(action)

    def choose_text(self, text: str) -> None:
        if self._send(text):
            self.decision_dock.action_edit.clear()

    def _send(self, action: Action | str) -> bool:
        if self.session is None:
            return False
        reason = self.session.play(action)
        if reason is not None:
            self.show_message(f"Not played: {reason}")
            return False
        return True

    def play_default(self) -> None:
        decision = self.session.awaiting() if self.session is not None else None
        if decision is not None and decision.actor == CHANCE:
            if not self.dice_entry.send():
                self.show_message(f"{decision.prompt} Enter the faces in the dice panel (1-6).")
            return
        if not self.decision_dock.play_default():
            self.show_message("No option to play: drag a figure, or type an action")

    def undo(self) -> None:
        if self.session is None:
            return
        reason = self.session.undo()
        self.show_message(f"Cannot undo: {reason}" if reason else "Step taken back")

    def run_program(self) -> int:
        """Play every step the program has to play now (instead of one per timer tick),
        and show where they led at once."""
        played = self.session.run_pending() if self.session is not None else 0
        if self.animator is not None:
            self.animator.finish()
        return played

    def highlight(self, figures: tuple[str, ...]) -> None:
        """Ring the figures of the event selected in the log."""
        if self.scene is None:
            return
        wanted = set(figures)
        for item in self.scene.figure_items():
            item.set_highlighted(item.model_id in wanted)


def seated(game: Game) -> set[str]:
    """The sides the program plays in a game opened or forked from a saved one: as it
    was saved (its program sides, or none in hot seat), else as the scenario says."""
    if game.settings.program_sides or game.settings.hot_seat:
        return set(game.settings.program_sides)
    return default_program(game.scenario)


def deploy_mode_is_player(mode: str) -> bool:
    """Whether ``PlayMode.start(deploy=mode)`` lets the player deploy (else the program)."""
    if mode not in (PLAYER_DEPLOYS, PROGRAM_DEPLOYS):
        raise ValueError(f"deploy must be {PLAYER_DEPLOYS!r} or {PROGRAM_DEPLOYS!r}, not {mode!r}")
    return mode == PLAYER_DEPLOYS


def _copy(scenario: Scenario) -> Scenario:
    """The game's own scenario: a game never shares objects with the editor's document."""
    return scenario_io.from_document(scenario_io.to_document(scenario))


def _untouched_empty(window: MainWindow) -> bool:
    """Whether the editor holds a table nobody made: no file, no edit, no terrain, no
    figure (the empty window a game file opens in)."""
    doc = window.document
    if doc is None:
        return True
    bf = doc.battlefield
    return doc.path is None and not doc.is_modified and not bf.terrain and not bf.figure_ids()
