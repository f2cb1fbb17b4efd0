"""The chain reaction played back on the table, one event after the other.

A step of Chain Reaction can hold a whole chain: a move stopped by an In Sight,
the test, a volley, a Duck Back, a figure going down.  The controller has
already applied all of it when the step returns, so without help the table
jumps from before to after.  The :class:`Animator` shows the way there, in the
order of the step's events: In Sight interrupts flagged, moves walked along
their path, fire lines flashing from shooter to target, figures going prone,
Out of the Fight markers appearing.

What the program's side does is told as well, not only drawn: every event of
a step the program played that has no picture of its own (a group activating,
its orders, a reaction, a side with no group left) holds the table for a beat,
with the log's sentence along the table's bottom edge (:mod:`ui.play.pacing`);
so do the PEFs (walked from spot to spot) and whatever the game plays by itself
once a new turn begins, which opens with the turn card ("Turn 6").  A person's
own steps show only their chain reaction and what the other side did in it.

It is a view and nothing else: the model holds the final state all along, the
animator only draws figure items at interpolated spots and hides the markers a
figure earns later in the step, and at the end (or as soon as the player
touches the table or presses a key) it snaps every item back to the truth.  The
program's side waits for it (``PlaySession.pacer``), so the program plays at
the chosen speed.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from PySide6.QtCore import (
    QElapsedTimer,
    QEvent,
    QLineF,
    QObject,
    QPointF,
    QRectF,
    QSettings,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPen,
    QTransform,
)
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QLabel,
    QStyleOptionGraphicsItem,
    QToolBar,
    QWidget,
)

from crdesk.game import Event
from crdesk.game.actions import Move
from crdesk.geometry.measure import walked_to
from ui.play.markers import StatusMarkers
from ui.play.pacing import EventLine, TurnCard
from ui.play.session import PlayedStep, PlaySession
from ui.scene.layers import Layer
from ui.scene.scene import BattlefieldScene
from ui.scene.shapes import text_path
from ui.scene.view import BattlefieldView

SLOW, NORMAL, FAST, INSTANT = "slow", "normal", "fast", "instant"
SPEEDS = (SLOW, NORMAL, FAST, INSTANT)
STRETCH = {SLOW: 2.0, NORMAL: 1.0, FAST: 0.4, INSTANT: 0.0}
"""How long each event lasts, relative to the normal speed."""
PROGRAM_PAUSE_MS = {SLOW: 700, NORMAL: 400, FAST: 120, INSTANT: 0}
"""The program's pause between two of its steps, at each speed."""
SPEED_KEY = "play/animation_speed"
"""QSettings key: the speed the player chose last."""
FRAME_MS = 16

SIGHT, WALK, FIRE, PRONE, DOWN = "sight", "walk", "fire", "prone", "down"
TURN, TELL, PEF = "turn", "tell", "pef"
"""A new turn's card; an event told in words (its figures ringed); a PEF token's walk."""
BEAT_MS = {SIGHT: 800.0, FIRE: 650.0, PRONE: 450.0, DOWN: 600.0, TURN: 1600.0, TELL: 900.0}
"""Length of each kind of beat at the normal speed (a walk's depends on its length)."""
SILENT = frozenset({"turn_end", "in_sight_trigger"})
"""Events never told on their own: the turn card and the In Sight flag that follow say them."""
JOIN_MS = 350.0
"""A figure joining an In Sight already under way: a short flag of its own."""
FIRST_MOVER = frozenset(
    {"move", "duck_back", "charge", "charge_stopped", "contact", "leave", "exit"}
)
"""Events whose first figure is the one that moves.  A charger walks to 1" from its
target at its ``charge_move`` (7.11.2: the target's fire meets it there), and on into
contact at its ``contact``; a game without that event walks it in at its ``charge``."""
ALL_MOVE = frozenset({"np_move", "fast_move", "pef_move"})
"""Events where every figure named moves (a group, together)."""
FIRE_KINDS = frozenset({"fire", "melee"})
MODIFIER_KEYS = frozenset(
    {Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta, Qt.Key.Key_AltGr}
)
"""Keys that only begin a shortcut: pressed alone, they do not skip the show."""
ANIM_Z = Layer.OVERLAYS + 20


def walk_ms(length: float) -> float:
    """A walk's length at the normal speed: quick for a step, never a crawl for 12"."""
    return min(1100.0, max(300.0, 250.0 + 90.0 * length))


@dataclass(slots=True)
class Beat:
    """One event as the table shows it."""

    kind: str
    event: Event
    ms: float
    """Its length at the normal speed."""
    paths: dict[str, list[QPointF]] = field(default_factory=dict)
    """For a walk: each moving figure's way, from its spot before to its spot now (for a
    PEF's walk, the PEF's, by its id)."""
    figure: str | None = None
    targets: tuple[str, ...] = ()
    pef: str | None = None
    """A told PEF event: the PEF whose token is ringed."""
    items: list[QGraphicsItem] = field(default_factory=list)
    """What the beat drew on the table (removed when it ends)."""


class Animator(QObject):
    """Plays each step's events on the table at the chosen speed; see the module docstring.

    ``manual_clock`` (tests): no timer runs, the test calls :meth:`advance`.
    """

    started = Signal()
    finished = Signal()
    """The show is over and the table shows the truth (not when the next step's show
    replaces it: that one goes on)."""
    beat_changed = Signal()
    """The beat shown changed (or ended): the controls' caption follows."""
    speed_changed = Signal(str)
    paused_changed = Signal(bool)

    def __init__(
        self,
        view: BattlefieldView,
        scene: BattlefieldScene,
        session: PlaySession,
        markers: StatusMarkers | None = None,
        *,
        manual_clock: bool = False,
    ) -> None:
        super().__init__(view)
        self.view = view
        self.scene = scene
        self.session = session
        self.markers = markers
        self.manual_clock = manual_clock
        self.beats: list[Beat] = []
        self.index = 0
        """The beat being shown (== len(beats) when none is)."""
        self._t = 0.0
        """Time into the current beat, in normal-speed milliseconds."""
        self._paused = False
        self._speed = _saved_speed()
        self._final: dict[str, QPointF] = {}
        self._opacity: dict[str, float] = {}
        self._hidden: dict[str, int] = {}
        """Figures whose badges wait for a beat (its index) before they show."""
        self._homes: dict[int, tuple[QGraphicsItem, QPointF]] = {}
        """Markers moved along with a walking figure, and where they belong."""
        self._stand_ins: dict[str, StandIn] = {}
        """A figure that goes down later in the step, drawn as it was until then."""
        self._tokens: dict[str, QPointF] = {}
        """PEF tokens drawn away from their spot, and the spot the game has them at."""
        self._keys = False
        """Whether a key pressed anywhere in the window finishes the show (while it runs)."""
        self.turn_card = TurnCard(view.viewport())
        self.event_line = EventLine(view.viewport())
        self.beat_changed.connect(self._say)
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._frame)
        self._clock = QElapsedTimer()
        session.played.connect(self.play_step)
        session.rewound.connect(self.finish)
        session.pacer = self.running
        session.delay_ms = PROGRAM_PAUSE_MS[self._speed]
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)

    def detach(self) -> None:
        self.finish()
        self.beat_changed.disconnect(self._say)
        for note in (self.turn_card, self.event_line):
            note.hide()
            note.deleteLater()
        self.session.played.disconnect(self.play_step)
        self.session.rewound.disconnect(self.finish)
        self.session.pacer = None
        self.view.viewport().removeEventFilter(self)
        self.view.removeEventFilter(self)

    # -- state ----------------------------------------------------------------------

    def running(self) -> bool:
        """Whether the table is showing a step's events (not yet the final state)."""
        return self.index < len(self.beats)

    @property
    def speed(self) -> str:
        return self._speed

    @speed.setter
    def speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"unknown animation speed {speed!r}: one of {', '.join(SPEEDS)}")
        self._speed = speed
        QSettings().setValue(SPEED_KEY, speed)
        self.session.delay_ms = PROGRAM_PAUSE_MS[speed]
        if speed == INSTANT:
            self.finish()
        self.speed_changed.emit(speed)

    @property
    def paused(self) -> bool:
        return self._paused

    def set_paused(self, on: bool) -> None:
        """Pause (the table holds the current picture; the program waits) or go on."""
        if on == self._paused:
            return
        self._paused = on
        if self.running():
            if on:
                self._timer.stop()
            else:
                self._start_clock()
        self.paused_changed.emit(on)

    def toggle_pause(self) -> None:
        self.set_paused(not self._paused)

    def caption(self) -> str:
        """The event shown now, for the controls ("" when nothing plays)."""
        if not self.running():
            return ""
        return f"{self.index + 1}/{len(self.beats)} · {self.beats[self.index].event.text}"

    def current(self) -> Beat | None:
        return self.beats[self.index] if self.running() else None

    def shown_pos(self, fid: str) -> QPointF | None:
        """Where the figure is drawn now (tests)."""
        item = self.scene.figure_item(fid)
        return None if item is None else item.pos()

    # -- playing a step -----------------------------------------------------------------

    def play_step(self, played: PlayedStep) -> None:
        """Show a step that was just played (the one before is finished at once)."""
        self._wrap_up()
        if self._speed == INSTANT:
            return
        beats = self._beats(played)
        if not beats:
            return
        self.beats = beats
        self.index = 0
        self._t = 0.0
        self._prepare(played)
        self._listen_for_keys(True)
        self.started.emit()
        self._render()
        self.beat_changed.emit()
        if not self._paused:
            self._start_clock()

    def advance(self, ms: float) -> None:
        """Let ``ms`` of real time pass (the timer does it; tests call it directly)."""
        if not self.running() or self._paused:
            return
        stretch = STRETCH[self._speed]
        self._t += ms / stretch if stretch > 0 else math.inf
        while self.running() and self._t >= self.beats[self.index].ms:
            self._t -= self.beats[self.index].ms
            self._end_beat(self.index)
            self.index += 1
            if self.running():
                self.beat_changed.emit()
        if self.running():
            self._render()
        else:
            self.finish()

    def step(self) -> None:
        """Pause, and show the next event from its start (the current one is completed)."""
        if not self.running():
            return
        self.set_paused(True)
        self._end_beat(self.index)
        self.index += 1
        self._t = 0.0
        if self.running():
            self._render()
            self.beat_changed.emit()
        else:
            self.finish()

    def finish(self) -> None:
        """Show the truth at once: every item back on the model's spot and looks; the
        program, which waited for the show, goes on."""
        if self._wrap_up():
            self.finished.emit()
            self.session.resume()

    def _wrap_up(self) -> bool:
        """End the show under way, if any (True then): the table shows the truth."""
        self._timer.stop()
        self._listen_for_keys(False)
        if not self.beats:
            return False
        for k in range(self.index, len(self.beats)):
            self._end_beat(k)
        for fid in list(self._final) + list(self._opacity):
            item = self.scene.figure_item(fid)
            if item is not None:
                item.sync_from_model()
                item.setTransform(QTransform())
        for fid, opacity in self._opacity.items():
            item = self.scene.figure_item(fid)
            if item is not None:
                item.setOpacity(opacity)
        for fid in list(self._hidden):
            self._show_badges(fid)
        for fid in list(self._stand_ins):
            self._drop_stand_in(fid)
        self._restore_badges()
        self._restore_tokens()
        self.beats = []
        self.index = 0
        self._t = 0.0
        self._final = {}
        self._opacity = {}
        self._hidden = {}
        self._homes = {}
        self._tokens = {}
        self.beat_changed.emit()
        return True

    # -- input finishes the show ------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A press on the table, or a key anywhere in the application, finishes the show
        first, then goes on to whoever handles it (the move tool, the view, the decision
        panel): no click or key is lost.  A modifier alone (Ctrl of a shortcut) does not,
        nor does a shortcut (Pause, Step: the show's own controls)."""
        if not self.running():
            return False
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            if watched is self.view.viewport() or watched is self.view:
                self.finish()
        elif (
            kind == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() not in MODIFIER_KEYS
        ):
            self.finish()
        return False

    def _listen_for_keys(self, on: bool) -> None:
        """While a show runs, a key pressed anywhere (not only on the table) skips it."""
        app = QApplication.instance()
        if app is None or on == self._keys:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self._keys = on

    # -- building the beats -------------------------------------------------------------

    def _beats(self, played: PlayedStep) -> list[Beat]:
        bf = self.session.game.battlefield
        final: dict[str, QPointF] = {}
        for fid, (x, y) in played.before.items():
            try:
                figure = bf.figure(fid)
            except (KeyError, ValueError):
                continue
            if math.hypot(figure.x - x, figure.y - y) > 1e-6:
                final[fid] = QPointF(figure.x, figure.y)
        if played.by_hand and isinstance(played.action, Move):
            final.pop(played.action.figure, None)  # dragged there: seen already
        pending = dict(final)
        halfway: dict[str, QPointF] = {}  # chargers stopped 1" off their targets
        walks = self._token_walks(played)
        beats: list[Beat] = []
        joined = False
        new_turn = False
        for event in played.events:
            figs = event.figures
            made = len(beats)
            if event.kind == "activation_roll":
                beats.append(Beat(TURN, event, BEAT_MS[TURN]))
                new_turn = True  # from here on the game plays by itself: told too
                continue
            pef = _pef_of(event) if event.kind.startswith("pef") else None
            if event.kind == "pef_move" and pef is not None and pef in walks:
                path = walks.pop(pef)
                beats.append(Beat(PEF, event, walk_ms(_length(path)), paths={pef: path}))
            elif event.kind == "in_sight" and figs:
                ms = JOIN_MS if joined else BEAT_MS[SIGHT]
                beats.append(Beat(SIGHT, event, ms, figure=figs[0], targets=figs[1:]))
                joined = True
            elif event.kind == "charge_move" and figs and figs[0] in pending:
                fid, to = figs[0], event.data.get("to")
                if isinstance(to, list) and len(to) == 2:
                    spot = QPointF(float(to[0]), float(to[1]))
                    path = [self._start(played, fid, halfway), spot]
                    halfway[fid] = spot
                    beats.append(Beat(WALK, event, walk_ms(_length(path)), paths={fid: path}))
            elif event.kind == "charge" and figs and figs[0] in halfway:
                pass  # it walks on into contact at its "contact" (told below)
            elif event.kind in FIRST_MOVER | ALL_MOVE and figs:
                movers = figs if event.kind in ALL_MOVE else figs[:1]
                paths = {
                    fid: self._path(played, fid, pending.pop(fid), halfway.get(fid))
                    for fid in movers
                    if fid in pending
                }
                if paths:
                    longest = max(_length(p) for p in paths.values())
                    beats.append(Beat(WALK, event, walk_ms(longest), paths=paths))
            elif event.kind in FIRE_KINDS and len(figs) >= 2:
                beats.append(Beat(FIRE, event, BEAT_MS[FIRE], figure=figs[0], targets=figs[1:]))
            elif event.kind == "prone" and figs:
                beats.append(Beat(PRONE, event, BEAT_MS[PRONE], figure=figs[0]))
            elif event.kind == "casualty" and figs:
                beats.append(Beat(DOWN, event, BEAT_MS[DOWN], figure=figs[0]))
            if len(beats) == made and self._told(played, event, new_turn):
                first = figs[0] if figs else None
                beats.append(
                    Beat(TELL, event, BEAT_MS[TELL], figure=first, targets=figs[1:], pef=pef)
                )
        if pending:  # moved by something the events do not name a mover for: all at once
            last = played.events[-1] if played.events else None
            if last is not None:
                paths = {
                    fid: self._path(played, fid, end, halfway.get(fid))
                    for fid, end in pending.items()
                }
                longest = max(_length(p) for p in paths.values())
                beats.append(Beat(WALK, last, walk_ms(longest), paths=paths))
        self._final = final
        return beats

    def _told(self, played: PlayedStep, event: Event, new_turn: bool) -> bool:
        """Whether an event with no picture of its own is told in words, holding the table
        for a beat: every one of a step the program played; of a person's step, what the
        game played by itself once a new turn began, the PEFs' doings, and what befell the
        program's figures (their reactions to the person's fire)."""
        if event.kind in SILENT:
            return False
        if played.by_program or new_turn or event.kind.startswith("pef"):
            return True
        program = self.session.program
        if not event.figures or not program:
            return False
        bf = self.session.game.battlefield
        try:
            return all(bf.figure(fid).side in program for fid in event.figures)
        except (KeyError, ValueError):
            return False

    def _token_walks(self, played: PlayedStep) -> dict[str, list[QPointF]]:
        """The PEFs that moved in the step, each from its spot before to its spot now."""
        now = _pef_spots(self.session)
        walks: dict[str, list[QPointF]] = {}
        for pid, (x, y) in played.pefs.items():
            if pid in now and math.hypot(now[pid][0] - x, now[pid][1] - y) > 1e-6:
                walks[pid] = [QPointF(x, y), QPointF(*now[pid])]
        return walks

    @staticmethod
    def _start(played: PlayedStep, fid: str, halfway: dict[str, QPointF]) -> QPointF:
        if fid in halfway:
            return halfway[fid]
        x, y = played.before[fid]
        return QPointF(x, y)

    def _path(
        self, played: PlayedStep, fid: str, end: QPointF, start: QPointF | None = None
    ) -> list[QPointF]:
        """The way a figure went: the move's own path when the step was its move
        (cut where it stopped, e.g. at an In Sight), else straight; from ``start`` when
        it has walked part of the way already (a charger 1" off its target)."""
        if start is not None:
            return [start, end]
        x, y = played.before[fid]
        start = QPointF(x, y)
        action = played.action
        if isinstance(action, Move) and action.figure == fid and action.path:
            way = walked_to([(x, y), *action.path], (end.x(), end.y()))
            return [QPointF(px, py) for px, py in way]
        return [start, end]

    def _prepare(self, played: PlayedStep) -> None:
        """Put the figures (and PEFs) where they were before the step, with the looks
        they had."""
        for beat in self.beats:
            for fid, path in beat.paths.items():
                if beat.kind == PEF:
                    self._tokens.setdefault(fid, path[-1])
                    self._move_token(fid, path[0])
                else:
                    self._move_to(fid, path[0])
        for k, beat in enumerate(self.beats):
            if beat.figure is None or beat.kind not in (PRONE, DOWN):
                continue
            fid = beat.figure
            if fid not in self._hidden:
                self._hidden[fid] = k
                self._hide_badges(fid)
            if beat.kind == DOWN and (item := self.scene.figure_item(fid)) is not None:
                self._opacity.setdefault(fid, item.opacity())
                item.setOpacity(1.0)
                if fid not in self._stand_ins:
                    stand_in = self._stand_in(fid)
                    if stand_in is not None:
                        stand_in.setPos(item.pos())
                        self.scene.addItem(stand_in)
                        self._stand_ins[fid] = stand_in

    # -- drawing ------------------------------------------------------------------------

    def _start_clock(self) -> None:
        if self.manual_clock:
            return
        self._clock.start()
        self._timer.start()

    def _frame(self) -> None:
        ms = float(self._clock.restart())
        self.advance(ms)

    def _render(self) -> None:
        beat = self.beats[self.index]
        frac = max(0.0, min(1.0, self._t / beat.ms)) if beat.ms > 0 else 1.0
        if beat.kind == WALK:
            if not beat.items:
                self._draw_trails(beat)
            for fid, path in beat.paths.items():
                self._move_to(fid, _along(path, frac))
        elif beat.kind == PEF:
            if not beat.items:
                self._draw_trails(beat)
            for pid, path in beat.paths.items():
                self._move_token(pid, _along(path, frac))
        elif beat.kind == TELL:
            self._draw_tell(beat, frac)
        elif beat.kind == FIRE:
            self._draw_fire(beat, frac)
        elif beat.kind == SIGHT:
            self._draw_sight(beat, frac)
        elif beat.kind == PRONE:
            self._draw_prone(beat, frac)
        elif beat.kind == DOWN:
            self._draw_down(beat, frac)

    def _end_beat(self, k: int) -> None:
        beat = self.beats[k]
        for drawn in beat.items:
            if drawn.scene() is not None:
                drawn.scene().removeItem(drawn)
        beat.items = []
        for mover, path in beat.paths.items():
            if beat.kind == PEF:
                self._move_token(mover, path[-1])
            else:
                self._move_to(mover, path[-1])
        fid = beat.figure
        if fid is not None and (item := self.scene.figure_item(fid)) is not None:
            if beat.kind == PRONE:
                item.setTransform(QTransform())
            if beat.kind == DOWN and fid in self._opacity:
                item.setOpacity(self._opacity[fid])
            if beat.kind == DOWN:
                self._drop_stand_in(fid)
        for hid, at in list(self._hidden.items()):
            if at == k:
                self._show_badges(hid)
                del self._hidden[hid]

    def _move_to(self, fid: str, pos: QPointF) -> None:
        item = self.scene.figure_item(fid)
        if item is None:
            return
        delta = pos - item.pos()
        item.setPos(pos)
        if (stand_in := self._stand_ins.get(fid)) is not None:
            stand_in.setPos(pos)
        for thing in self._followers(fid):
            self._homes.setdefault(id(thing), (thing, thing.pos()))
            thing.setPos(thing.pos() + delta)

    def _token(self, pid: str) -> QGraphicsItem | None:
        """The PEF's token on the table (the status overlay's), if it is there."""
        layer = getattr(self.markers, "pefs", None)
        tokens = getattr(layer, "tokens", None)
        found = tokens().get(pid) if callable(tokens) else None
        return found if isinstance(found, QGraphicsItem) else None

    def _move_token(self, pid: str, pos: QPointF) -> None:
        token = self._token(pid)
        if token is not None:
            token.setPos(pos)

    def _restore_tokens(self) -> None:
        """The PEF tokens walked here back on the game's spots (as they are now: another
        step may have moved them since the show began)."""
        if not self._tokens:
            return
        spots = _pef_spots(self.session)
        for pid, shown in self._tokens.items():
            x, y = spots.get(pid, (shown.x(), shown.y()))
            self._move_token(pid, QPointF(x, y))

    def _followers(self, fid: str) -> list[QGraphicsItem]:
        """What the status overlay draws on a figure: its badges, and its group ring and
        Leader mark where the overlay has them."""
        if self.markers is None:
            return []
        things: list[QGraphicsItem] = list(self.markers.badges(fid))
        for query in ("ring", "leader_mark"):
            find = getattr(self.markers, query, None)
            found = find(fid) if callable(find) else None
            if isinstance(found, QGraphicsItem):
                things.append(found)
        return things

    def _stand_in(self, fid: str) -> StandIn | None:
        try:
            figure = self.session.game.battlefield.figure(fid)
        except (KeyError, ValueError):
            return None
        return StandIn(
            figure.radius, self._colour(fid), str(figure.rep), self.scene.table_style.font_family
        )

    def _drop_stand_in(self, fid: str) -> None:
        stand_in = self._stand_ins.pop(fid, None)
        if stand_in is not None and stand_in.scene() is not None:
            stand_in.scene().removeItem(stand_in)

    def stand_ins(self) -> list[str]:
        """Figures drawn standing until their beat (tests)."""
        return list(self._stand_ins)

    def _restore_badges(self) -> None:
        for thing, home in self._homes.values():
            if thing.scene() is not None:
                thing.setPos(home)

    def _hide_badges(self, fid: str) -> None:
        if self.markers is not None:
            for badge in self.markers.badges(fid):
                badge.setVisible(False)

    def _show_badges(self, fid: str) -> None:
        if self.markers is not None:
            for badge in self.markers.badges(fid):
                badge.setVisible(True)

    def _centre(self, fid: str) -> QPointF:
        item = self.scene.figure_item(fid)
        if item is not None:
            return item.pos()
        figure = self.session.game.battlefield.figure(fid)
        return QPointF(figure.x, figure.y)

    def _radius(self, fid: str) -> float:
        try:
            return float(self.session.game.battlefield.figure(fid).radius)
        except (KeyError, ValueError):
            return 0.5

    def _say(self) -> None:
        """The beat shown in words on the table: the turn card for a new turn, else the
        event's sentence along the bottom edge; nothing once the show is over."""
        beat = self.current()
        if beat is None:
            self.turn_card.hide()
            self.event_line.hide()
        elif beat.kind == TURN:
            self.event_line.hide()
            self.turn_card.show_turn(beat.event.text)
        else:
            self.turn_card.hide()
            count = f"{self.index + 1}/{len(self.beats)}"
            self.event_line.show_line(beat.event.text, count, self._beat_colour(beat))

    def _beat_colour(self, beat: Beat) -> QColor:
        """The colour of the side a beat is about: its figure's, a PEF's (the non-player
        side's), the side its sentence begins with ("Red Vipers: every group has acted ..."),
        else a neutral grey."""
        bf = self.session.game.battlefield
        fid = beat.figure or next(iter(beat.paths), None)
        if fid is not None and beat.kind != PEF:
            return self._colour(fid)
        forces = list(bf.forces)
        if beat.kind == PEF or beat.pef is not None or beat.event.kind.startswith("pef"):
            hidden = [f for f in forces if not f.player]
            if hidden:
                return QColor(hidden[0].colour)
        for force in forces:
            if beat.event.text.startswith(force.name):
                return QColor(force.colour)
        return QColor(45, 48, 56)

    def _colour(self, fid: str) -> QColor:
        bf = self.session.game.battlefield
        try:
            return QColor(bf.force(bf.figure(fid).side).colour)
        except (KeyError, ValueError):
            return QColor("#dddddd")

    def _add(self, beat: Beat, item: QGraphicsItem) -> None:
        item.setZValue(ANIM_Z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(item)
        beat.items.append(item)

    def _ring(self, beat: Beat, fid: str, colour: QColor, width: float) -> QGraphicsEllipseItem:
        ring = QGraphicsEllipseItem()
        pen = QPen(colour, 0)
        pen.setCosmetic(True)
        pen.setWidthF(width)
        ring.setPen(pen)
        ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self._add(beat, ring)
        ring.setData(0, fid)
        return ring

    def _label(self, beat: Beat, text: str, back: QColor, fore: QColor) -> Plate:
        plate = Plate(text, back, fore)
        self._add(beat, plate)
        return plate

    def _draw_trails(self, beat: Beat) -> None:
        """The way each walker goes, faint and dashed under it, so the eye can follow."""
        for fid, path in beat.paths.items():
            trail = QPainterPath(path[0])
            for point in path[1:]:
                trail.lineTo(point)
            item = QGraphicsPathItem(trail)
            pen = QPen(self._colour(fid).lighter(150), 0)
            pen.setCosmetic(True)
            pen.setWidthF(2.0)
            pen.setStyle(Qt.PenStyle.DashLine)
            item.setPen(pen)
            item.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            self._add(beat, item)
            item.setZValue(Layer.FIGURES - 1)  # under the figures, over the ground

    def _draw_fire(self, beat: Beat, frac: float) -> None:
        assert beat.figure is not None
        if not beat.items:
            colour = self._colour(beat.figure).lighter(140)
            for target in beat.targets:
                line = QGraphicsLineItem()
                pen = QPen(colour, 0)
                pen.setCosmetic(True)
                pen.setWidthF(3.5)
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                line.setPen(pen)
                line.setData(0, target)
                self._add(beat, line)
                self._ring(beat, target, QColor(255, 70, 40), 3.0)
        flash = 1.0 if int(frac * 6) % 2 == 0 else 0.3
        shooter = self._centre(beat.figure)
        for item in beat.items:
            fid = str(item.data(0))
            if isinstance(item, QGraphicsLineItem):
                item.setLine(QLineF(shooter, self._centre(fid)))
                item.setOpacity(flash)
            elif isinstance(item, QGraphicsEllipseItem):
                r = self._radius(fid) * (1.1 + 0.5 * frac)
                c = self._centre(fid)
                item.setRect(c.x() - r, c.y() - r, 2 * r, 2 * r)
                item.setOpacity(frac)

    def _draw_sight(self, beat: Beat, frac: float) -> None:
        assert beat.figure is not None
        gold = QColor(255, 214, 40)
        if not beat.items:
            for fid in (beat.figure, *beat.targets):
                self._ring(beat, fid, gold, 3.0)
            for target in beat.targets:
                line = QGraphicsLineItem()
                pen = QPen(QColor(255, 214, 40, 170), 0)
                pen.setCosmetic(True)
                pen.setWidthF(1.5)
                pen.setStyle(Qt.PenStyle.DashLine)
                line.setPen(pen)
                line.setData(0, target)
                self._add(beat, line)
            joins = "joins" in beat.event.text.split(":", 1)[0]
            words = "IN SIGHT!" if not joins else "joins the In Sight"
            label = self._label(beat, words, gold, QColor(30, 20, 0))
            label.setData(0, beat.figure)
        pulse = 0.5 + 0.5 * math.sin(frac * math.pi * 4)
        mover = self._centre(beat.figure)
        for item in beat.items:
            fid = str(item.data(0))
            if isinstance(item, QGraphicsEllipseItem):
                r = self._radius(fid) * (1.15 + 0.25 * pulse)
                c = self._centre(fid)
                item.setRect(c.x() - r, c.y() - r, 2 * r, 2 * r)
            elif isinstance(item, QGraphicsLineItem):
                item.setLine(QLineF(mover, self._centre(fid)))
            elif isinstance(item, Plate):
                c = self._centre(fid)
                item.setPos(c.x() + self._radius(fid) * 1.2, c.y() - self._radius(fid) * 1.6)
                item.setOpacity(min(1.0, 3 * frac) if frac < 0.8 else (1.0 - frac) * 5)

    def _draw_tell(self, beat: Beat, frac: float) -> None:
        """An event told in words: the figures it names ringed in their side's colour (a
        PEF's token for a PEF), so the eye finds whom the sentence is about."""
        if not beat.items:
            who = [f for f in (beat.figure, *beat.targets) if f is not None]
            for fid in who:
                if self.scene.figure_item(fid) is not None:
                    self._ring(beat, fid, self._colour(fid).lighter(160), 3.0)
            token = self._token(beat.pef) if beat.pef is not None else None
            if token is not None:
                ring = self._ring(beat, "", QColor(255, 214, 40), 3.0)
                ring.setData(1, beat.pef)
        pulse = 0.5 + 0.5 * math.sin(frac * math.pi * 3)
        for item in beat.items:
            if not isinstance(item, QGraphicsEllipseItem):
                continue
            pef = item.data(1)
            if pef:
                token = self._token(str(pef))
                if token is None:
                    continue
                c, r = token.pos(), 0.9 * (1.2 + 0.2 * pulse)
            else:
                fid = str(item.data(0))
                c, r = self._centre(fid), self._radius(fid) * (1.25 + 0.2 * pulse)
            item.setRect(c.x() - r, c.y() - r, 2 * r, 2 * r)
            item.setOpacity(1.0 if frac < 0.85 else 0.3 + (1.0 - frac) * 4.6)

    def _draw_prone(self, beat: Beat, frac: float) -> None:
        assert beat.figure is not None
        item = self.scene.figure_item(beat.figure)
        if item is not None:
            item.setTransform(QTransform.fromScale(1.0 + 0.25 * frac, 1.0 - 0.45 * frac))
        if not beat.items:
            label = self._label(beat, "goes prone", QColor(70, 70, 70), QColor("white"))
            label.setData(0, beat.figure)
        for thing in beat.items:
            c = self._centre(beat.figure)
            thing.setPos(c.x() + self._radius(beat.figure) * 1.2, c.y() - self._radius(beat.figure))

    def _draw_down(self, beat: Beat, frac: float) -> None:
        assert beat.figure is not None
        fid = beat.figure
        item = self.scene.figure_item(fid)
        final = self._opacity.get(fid, 1.0)
        if item is not None:
            item.setOpacity(1.0 + (final - 1.0) * frac)
        stand_in = self._stand_ins.get(fid)
        if stand_in is not None:
            stand_in.setOpacity(1.0 - frac)
        if not beat.items:
            self._ring(beat, fid, QColor(220, 30, 30), 4.0)
            words = "Obviously Dead" if "Dead" in beat.event.text else "Out of the Fight"
            self._label(beat, words, QColor(160, 20, 20), QColor("white")).setData(0, fid)
        c = self._centre(fid)
        for thing in beat.items:
            if isinstance(thing, QGraphicsEllipseItem):
                r = self._radius(fid) * (2.2 - 1.0 * frac)
                thing.setRect(c.x() - r, c.y() - r, 2 * r, 2 * r)
                thing.setOpacity(1.0 - 0.6 * frac)
            else:
                thing.setPos(c.x() + self._radius(fid) * 1.2, c.y() - self._radius(fid) * 1.6)


class Plate(QGraphicsItem):
    """A word on the table in screen pixels ("IN SIGHT!", "Out of the Fight"), on a
    coloured plate so it reads over any terrain at any zoom."""

    def __init__(self, text: str, back: QColor, fore: QColor) -> None:
        super().__init__()
        self.text = text
        self._back = back
        self._fore = fore
        self._font = QFont()
        self._font.setBold(True)
        self._font.setPixelSize(13)
        width = QFontMetricsF(self._font).horizontalAdvance(text) + 12.0
        self._rect = QRectF(0, -10, width, 20)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1.5))
        painter.setBrush(self._back)
        painter.drawRoundedRect(self._rect, 5, 5)
        painter.setFont(self._font)
        painter.setPen(self._fore)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class StandIn(QGraphicsItem):
    """A figure as it stood before it went down in this step: a plain base in its side's
    colour with its Rep, laid over the item (which already shows the model's verdict)
    until the beat that puts it out of the fight."""

    def __init__(self, radius: float, colour: QColor, rep: str, family: str) -> None:
        super().__init__()
        self._r = radius
        self._colour = colour
        self._rep = text_path(rep, radius * 0.84, family)
        self._text = QColor("#111111") if colour.lightnessF() > 0.62 else QColor("#ffffff")
        self.setZValue(Layer.FIGURES + 1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        r = self._r
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self._colour.darker(170), self._r * 0.1)
        painter.setPen(pen)
        painter.setBrush(self._colour)
        painter.drawEllipse(QPointF(0, 0), self._r * 0.95, self._r * 0.95)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._text)
        painter.drawPath(self._rep)


class AnimationBar(QToolBar):
    """The controls of the animation: pause, step, finish, the speed, and the event shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Chain reaction playback", parent)
        self.setObjectName("animationToolBar")
        self.animator: Animator | None = None
        self.action_pause = self._action(
            "Pause", "Ctrl+Space", "Pause the chain reaction on the table (the program waits)"
        )
        self.action_pause.setCheckable(True)
        self.action_pause.toggled.connect(self._pause)
        self.action_step = self._action(
            "Step", "Ctrl+.", "Show the next event of the chain reaction, then hold"
        )
        self.action_step.triggered.connect(self._step)
        self.action_finish = self._action(
            "Finish", "Ctrl+End", "Show the end of the chain reaction at once"
        )
        self.action_finish.triggered.connect(self._finish)
        self.addSeparator()
        self.addWidget(QLabel(" Speed: "))
        self.speed_group = QActionGroup(self)
        self.speed_actions: dict[str, QAction] = {}
        for n, speed in enumerate(SPEEDS, start=1):
            action = self._action(
                speed.capitalize(),
                f"Ctrl+Alt+{n}",
                f"Animate the chain reaction {speed}"
                if speed != INSTANT
                else "Show each step's result at once, without animation",
            )
            action.setCheckable(True)
            action.setData(speed)
            self.speed_group.addAction(action)
            action.triggered.connect(lambda _checked=False, s=speed: self._set_speed(s))
            self.speed_actions[speed] = action
        self.speed_actions[_saved_speed()].setChecked(True)
        self.addSeparator()
        self.caption = QLabel()
        self.caption.setObjectName("animationCaption")
        self.caption.setMinimumWidth(260)
        self.caption.setToolTip("The event of the chain reaction shown on the table now")
        self.addWidget(self.caption)
        self.set_animator(None)

    def _action(self, text: str, keys: str, tip: str) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        native = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{tip} ({native})")
        action.setStatusTip(tip)
        self.addAction(action)
        return action

    def menu_actions(self) -> list[QAction]:
        """For the Game menu: the same actions, with their shortcuts."""
        return [self.action_pause, self.action_step, self.action_finish]

    def set_animator(self, animator: Animator | None) -> None:
        if self.animator is not None:
            self.animator.beat_changed.disconnect(self._refresh)
            self.animator.paused_changed.disconnect(self._sync_pause)
        self.animator = animator
        if animator is not None:
            animator.beat_changed.connect(self._refresh)
            animator.paused_changed.connect(self._sync_pause)
            self.speed_actions[animator.speed].setChecked(True)
            self.action_pause.setChecked(animator.paused)
        for action in (self.action_pause, self.action_step, self.action_finish):
            action.setEnabled(animator is not None)
        for action in self.speed_actions.values():
            action.setEnabled(animator is not None)
        self._refresh()

    def _pause(self, on: bool) -> None:
        if self.animator is not None:
            self.animator.set_paused(on)
            self.action_pause.setText("Resume" if on else "Pause")

    def _sync_pause(self, on: bool) -> None:
        if self.action_pause.isChecked() != on:
            self.action_pause.setChecked(on)
        self.action_pause.setText("Resume" if on else "Pause")

    def _step(self) -> None:
        if self.animator is not None:
            self.animator.step()

    def _finish(self) -> None:
        if self.animator is not None:
            self.animator.finish()

    def _set_speed(self, speed: str) -> None:
        if self.animator is not None:
            self.animator.speed = speed

    def _refresh(self) -> None:
        animator = self.animator
        text = animator.caption() if animator is not None else ""
        if animator is not None and not text:
            text = "paused: the next step holds at its first event" if animator.paused else ""
        self.caption.setText(_elide(text, 110))
        self.caption.setToolTip(text or "The event of the chain reaction shown on the table now")
        running = animator is not None and animator.running()
        self.action_step.setEnabled(running)
        self.action_finish.setEnabled(running)


def _pef_spots(session: PlaySession) -> dict[str, tuple[float, float]]:
    """Where the game has each PEF not yet resolved, by id (none outside solo games)."""
    return session.pef_spots()


def _pef_of(event: Event) -> str | None:
    """The PEF a PEF event is about ("PEF 2" in its data is ``pef2``), if it names one."""
    who = event.data.get("who")
    if not isinstance(who, str) or not who.startswith("PEF "):
        return None
    return "pef" + who[4:].strip()


def _saved_speed() -> str:
    value = QSettings().value(SPEED_KEY, NORMAL)
    return str(value) if str(value) in SPEEDS else NORMAL


def _elide(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _length(path: list[QPointF]) -> float:
    return sum(QLineF(a, b).length() for a, b in itertools.pairwise(path))


def _along(path: list[QPointF], frac: float) -> QPointF:
    """The point ``frac`` of the way along a polyline (eased in and out)."""
    frac = 0.5 - 0.5 * math.cos(math.pi * max(0.0, min(1.0, frac)))
    total = _length(path)
    if total <= 1e-9:
        return QPointF(path[-1])
    want = total * frac
    for a, b in itertools.pairwise(path):
        seg = QLineF(a, b).length()
        if want <= seg and seg > 0:
            return a + (b - a) * (want / seg)
        want -= seg
    return QPointF(path[-1])
