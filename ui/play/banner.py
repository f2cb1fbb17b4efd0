"""The hand-over banner over the table: "Red Vipers' activation" when the side changes.

At a real table the players say "your go"; on one screen shared by two people
(hot-seat) the banner says it.  It is shown when the active side changes or a new
turn begins, and in hot-seat also when the person who must decide is of the other
side (an In Sight or a reaction of the inactive side), in the side's colour.  When
the players were named at Start encounter it names the one to hand over to:
"Alice's turn" (Red Vipers' activation), "Bob (Sgt. Mace's squad) to decide" (and
what about: "Sgt. Mace takes Received Fire").  While the table still shows the step
that made the hand-over (:meth:`HandOverBanner.follow` the animator), it waits, so
the players first see what happened, then whose go it is.  It never
takes the mouse or the keyboard (transparent to mouse events; a click or a key
goes where it was going and hides the banner at once), it fades by itself after
:data:`HOLD_MS`, a game started or opened announces its side only in hot-seat
(against the program the turn panel says it).  In co-op (several people
sharing a side's groups, :mod:`crdesk.game.seats`) it also hands over when the
player changes within a side: "Bob (Red Vipers) to decide".  Only a hand-over
between people gets the big card (placed where it hides the fewest figures); otherwise (the
program's side, or the one person's side against it) it is a slim strip
along the top edge, so the moves on the table are never hidden behind it.

Nothing here decides a rule: the active side comes from
:meth:`~crdesk.game.Game.summary`, the decider from the awaited decision.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QEasingCurve,
    QEvent,
    QObject,
    QPointF,
    QPropertyAnimation,
    QRectF,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QApplication, QGraphicsOpacityEffect, QGraphicsView, QWidget

from crdesk.game import CHANCE, Decision
from crdesk.game.seats import seats_of
from ui.play.seating import seat_key, who
from ui.play.session import PlaySession

if TYPE_CHECKING:
    from ui.play.animator import Animator

HOLD_MS = 1500
"""How long the banner stays before it fades by itself."""
FADE_MS = 400
TOP_MARGIN = 8
BAND_PLACES = (0.38, 0.18, 0.6, 0.82)
"""Heights (fractions of the view) tried for a person's banner, the first that hides the
fewest figures chosen: a hand-over should not cover the very figures about to act."""


GIST_WORDS = 70
"""Characters of what a decision is about, in a hand-over's second line."""
NO_GIST = frozenset({"activate", "act"})
"""Decisions the first line says enough about (whose turn, whose group)."""
_CUT = re.compile(r":\s| \(")


def possessive(name: str) -> str:
    """ "Red Vipers'" and "Sgt. Mace's squad's": the side's name as owner."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def gist(decision: Decision) -> str:
    """What a decision handed over is about, from its prompt: "Sgt. Mace takes Received
    Fire", "Pvt. Lind won the In Sight test" ("" for an activation's own decisions)."""
    if decision.kind in NO_GIST:
        return ""
    text = decision.prompt.strip()
    cut = _CUT.search(text)
    text = (text[: cut.start()] if cut else text).rstrip(" .,;:")
    return text if len(text) <= GIST_WORDS else text[: GIST_WORDS - 1] + "…"


class HandOverBanner(QWidget):
    """A fading label over the view's viewport that says whose go it is."""

    def __init__(self, view: QGraphicsView, session: PlaySession) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.session = session
        self.hold_ms = HOLD_MS
        self.fade_ms = FADE_MS
        self.text = ""
        self.subtitle = ""
        self.side: str | None = None
        self.compact = False
        """Whether it is the slim strip along the top (no hand-over: the program's side,
        or the one person's side against the program); the big card is for hot-seat."""
        self.shown_count = 0
        """How many times a banner was shown (tests, and nobody else)."""
        self._colour = QColor("#555555")
        self._fading = False
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._effect = QGraphicsOpacityEffect(self)
        self._effect.setOpacity(1.0)
        self.setGraphicsEffect(self._effect)
        self._fade = QPropertyAnimation(self._effect, b"opacity", self)
        self._fade.setEasingCurve(QEasingCurve.Type.InQuad)
        self._fade.finished.connect(self._faded)
        self._hold = QTimer(self)
        self._hold.setSingleShot(True)
        self._hold.timeout.connect(self.dismiss)
        self._title_font = QFont()
        self._title_font.setBold(True)
        self._sub_font = QFont()
        self._filtering = False
        self.hide()
        self._active, self._person = self._now()
        self._turn = session.game.turn
        """The turn the banner last knew of (a later one is announced)."""
        self._animator: Animator | None = None
        self._in_step = False
        """A step is being told (``stepped`` came, ``played`` not yet): wait for its show."""
        self._due = False
        """A change came while the table was showing a step: looked at when it is over."""
        session.changed.connect(self._changed)
        view.viewport().installEventFilter(self)
        coop = self._person is not None and self.coop(self._person[0])
        if self._active is not None and (self.hot_seat() or coop):  # started or opened
            self.announce(self._active, activation=True)  # hand over now

    def follow(self, animator: Animator) -> None:
        """Wait for ``animator``'s show of each step before handing over (call it once the
        animator listens to the session: its ``played`` comes first)."""
        self._animator = animator
        self.session.stepped.connect(self._stepping)
        self.session.played.connect(self._played)
        animator.finished.connect(self.catch_up)

    def detach(self) -> None:
        if self._animator is not None:
            self.session.stepped.disconnect(self._stepping)
            self.session.played.disconnect(self._played)
            self._animator.finished.disconnect(self.catch_up)
            self._animator = None
        self.session.changed.disconnect(self._changed)
        self.view.viewport().removeEventFilter(self)
        self._stop_filtering()
        self._hold.stop()
        self._fade.stop()
        self.hide()
        self.deleteLater()

    # -- queries (tests) ---------------------------------------------------------------

    def is_showing(self) -> bool:
        """Whether the banner is up and not on its way out."""
        return self.isVisible() and not self._fading

    # -- when -------------------------------------------------------------------------

    def _now(self) -> tuple[str | None, tuple[str, tuple[str, ...]] | None]:
        """The active side, and the person who decides now: their side and, in co-op, their
        names (None: nobody, the program or the dice)."""
        session = self.session
        active = session.game.summary()["active_side"]
        decision = session.awaiting()
        person = None
        if decision is not None and decision.actor != CHANCE and not session.is_program_turn():
            person = (decision.actor, seat_key(session, decision))
        return (str(active) if active is not None else None), person

    def hot_seat(self) -> bool:
        """Whether people at this screen play more than one side."""
        return len([s for s in self.session.game.sides if s not in self.session.program]) > 1

    def coop(self, side: str) -> bool:
        """Whether several people at this screen share ``side``'s groups."""
        if side in self.session.program:
            return False
        return len([s for s in seats_of(self.session.game.settings) if s.side == side]) > 1

    def _showing(self) -> bool:
        """Whether the table is still showing a step (the animator followed)."""
        return self._animator is not None and self._animator.running()

    def _stepping(self, _events: object) -> None:
        self._in_step = True

    def _played(self, _played: object) -> None:
        """A step was told to the views, the animator first: hand over now, or once its
        show is over."""
        self._in_step = False
        self._changed()

    def catch_up(self) -> None:
        """The table has shown the step: the hand-over that waited for it, if any."""
        if self._due and not self._showing():
            self._changed()

    def _changed(self) -> None:
        if self.session.awaiting() is None:  # the encounter is over: nobody's go
            self._due = False
            self.dismiss(at_once=True)
            return
        if self._in_step or self._showing():
            self._due = True  # after the step's show
            return
        self._due = False
        active, person = self._now()
        before_active, before_person = self._active, self._person
        turn, before_turn = self.session.game.turn, self._turn
        self._active = active
        self._turn = turn
        if person is not None:
            self._person = person
        new_turn = turn if turn > before_turn else None
        if active is not None and (active != before_active or new_turn is not None):
            self.announce(active, activation=True, new_turn=new_turn)
        elif person is not None and before_person is not None and person != before_person:
            if person[0] != before_person[0] and self.hot_seat():
                self.announce(person[0], activation=False)  # the other side must decide
            elif person[0] == before_person[0] and self.coop(person[0]):
                self.announce(person[0], activation=False)  # another player of the side

    # -- showing ----------------------------------------------------------------------

    def announce(self, side: str, *, activation: bool, new_turn: int | None = None) -> None:
        """Show the banner for ``side``: its activation (in ``new_turn``, when one began),
        or that it must decide.  A player named at Start encounter is named: "Alice's
        turn", "Alice (Red Vipers) to decide", "hand over to Alice"."""
        session = self.session
        name = session.side_name(side)
        program = side in session.program
        decision = session.awaiting()
        ours = decision is not None and decision.actor == side
        players = seat_key(session, decision) if ours else ()
        coop = self.coop(side)
        handing = not program and (self.hot_seat() or coop)  # one person to another
        player = players[0] if len(players) == 1 and handing else None
        self.side = side
        self.compact = not handing
        if activation:
            self.text = f"{possessive(player)} turn" if player else f"{possessive(name)} activation"
        else:
            self.text = f"{who(session, decision) if players and decision else name} to decide"
        parts: list[str] = []
        if activation and player:
            parts.append(f"{possessive(name)} activation")
        if new_turn is not None:
            parts.append(f"turn {new_turn}")
        if program:
            parts.append("played by the program")
        elif players and handing:
            parts.append("hand over to " + " or ".join(players))
        elif self.hot_seat():
            parts.append(f"hand over to {possessive(name)} player")
        elif new_turn is None:
            parts.append(f"turn {session.game.turn}")
        if not activation and ours and decision is not None and not program:
            parts.append(gist(decision))
        self.subtitle = " · ".join(p for p in parts if p)
        try:
            self._colour = QColor(session.game.battlefield.force(side).colour)
        except ValueError:
            self._colour = QColor("#555555")
        self.setToolTip("")
        self._layout()
        self._fade.stop()
        self._fading = False
        self._effect.setOpacity(1.0)
        self.show()
        self.raise_()
        self.update()
        self.shown_count += 1
        self._hold.start(self.hold_ms)
        self._start_filtering()

    def dismiss(self, at_once: bool = False) -> None:
        """Fade out; ``at_once`` (a click or a key: the player has seen it) hides it now."""
        if not self.isVisible() or (self._fading and not at_once):
            return
        self._hold.stop()
        self._stop_filtering()
        if at_once:
            self._fade.stop()
            self._fading = False
            self.hide()
            return
        self._fading = True
        self._fade.stop()
        self._fade.setDuration(self.fade_ms)
        self._fade.setStartValue(self._effect.opacity())
        self._fade.setEndValue(0.0)
        self._fade.start()

    def _faded(self) -> None:
        if self._fading:
            self.hide()
            self._fading = False

    def _layout(self) -> None:
        area = self.parentWidget()
        width = area.width() if area is not None else 800
        height = area.height() if area is not None else 600
        title_px = 17 if self.compact else 30
        self._title_font.setPixelSize(title_px)
        self._sub_font.setPixelSize(12 if self.compact else 14)
        title = QFontMetricsF(self._title_font)
        sub = QFontMetricsF(self._sub_font)
        if self.compact:
            text_w = title.horizontalAdvance(self.text) + 12 + sub.horizontalAdvance(self.subtitle)
            w, h = text_w + 36, title.height() + 12
            x, y = (width - w) / 2, float(TOP_MARGIN)
        else:
            text_w = max(title.horizontalAdvance(self.text), sub.horizontalAdvance(self.subtitle))
            w, h = text_w + 64, title.height() + sub.height() + 30
            x = (width - w) / 2
            y = min(
                (height * f - h / 2 for f in BAND_PLACES),
                key=lambda top: self._covered(QRectF(x, top, w, h).adjusted(-24, -24, 24, 24)),
            )
        self.setGeometry(int(x), int(max(TOP_MARGIN, y)), int(w) + 1, int(h) + 1)

    def _covered(self, rect: QRectF) -> int:
        """How many figures a banner at ``rect`` (viewport pixels) would hide."""
        view = self.view
        return sum(
            1
            for f in self.session.game.battlefield.figures()
            if rect.contains(QPointF(view.mapFromScene(QPointF(f.x, f.y))))
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        fill = QColor(self._colour)
        fill.setAlpha(215 if self.compact else 238)
        painter.setPen(QPen(QColor(255, 255, 255, 230), 2.0))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 8, 8)
        light = fill.lightnessF() > 0.62
        ink = QColor(20, 20, 20) if light else QColor("white")
        soft = QColor(ink)
        soft.setAlpha(210)
        title = QFontMetricsF(self._title_font)
        if self.compact:
            painter.setFont(self._title_font)
            painter.setPen(ink)
            left = rect.adjusted(16, 0, 0, 0)
            painter.drawText(
                left, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.text
            )
            painter.setFont(self._sub_font)
            painter.setPen(soft)
            sub_rect = left.adjusted(title.horizontalAdvance(self.text) + 12, 0, 0, 0)
            painter.drawText(
                sub_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.subtitle
            )
        else:
            top = rect.adjusted(0, 12, 0, 0)
            top.setHeight(title.height())
            painter.setFont(self._title_font)
            painter.setPen(ink)
            painter.drawText(top, Qt.AlignmentFlag.AlignCenter, self.text)
            bottom = QRectF(
                rect.left(), top.bottom() + 2, rect.width(), rect.bottom() - top.bottom() - 8
            )
            painter.setFont(self._sub_font)
            painter.setPen(soft)
            painter.drawText(bottom, Qt.AlignmentFlag.AlignCenter, self.subtitle)
        painter.end()

    # -- a click or a key dismisses it; the event goes on to where it was going -------------

    def _start_filtering(self) -> None:
        app = QApplication.instance()
        if app is not None and not self._filtering:
            app.installEventFilter(self)
            self._filtering = True

    def _stop_filtering(self) -> None:
        app = QApplication.instance()
        if app is not None and self._filtering:
            app.removeEventFilter(self)
            self._filtering = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view.viewport() and kind == QEvent.Type.Resize and self.isVisible():
            self._layout()
        elif self._filtering and kind in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.KeyPress,
            QEvent.Type.Wheel,
        ):
            self.dismiss(at_once=True)
        return False  # never eats the event
