"""The dice tray: the rolls of the last step that rolled, drawn as dice with what they meant.

Each event with dice gets a card: its section and kind, the controller's
sentence on one line (in full in the tooltip, a paragraph), and one row per reading -- the
activation dice in the sides' colours (rerolled doubles greyed), each die of a
volley green for a hit and red for a miss with its total in the die's tooltip,
the damage dice by the damage done, a test's dice with the Rep they were
rolled against and the result.  The readings come from the event data the
controller wrote (:func:`readings`); what is not recognised is shown as plain
dice, so a new kind of roll is never hidden.

Nothing in a card may widen the tray past its edge (the body does not scroll
sideways: whatever is wider is cut off unsaid).  A one-line text is shortened
with "…" and said in full in its tooltip; a caption wraps; the dice wrap onto
more lines, and a row of many dice has its caption under them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from crdesk.game import Event, Game
from ui.play._dock import SessionDock, session_token, set_text
from ui.play.dice_view import BAD, GOOD, MID, VERDICT_EDGE, DiceRow, Die
from ui.play.text import tip_paragraph

TRAY_DIE = 22
"""Side of a die in the tray, in pixels."""
ROW_GAP = 6
"""Pixels between a row's dice and its caption."""

ColourOf = Callable[[str], QColor | None]

_GOOD_STATUS = frozenset({"carry_on", "acts", "hit", "passed", "wins"})
_BAD_STATUS = frozenset({"obviously_dead", "out_of_the_fight", "miss", "reacts", "fails"})


@dataclass(frozen=True, slots=True)
class Reading:
    """One row of the tray: dice, and a caption saying what they meant."""

    dice: tuple[Die, ...]
    caption: str
    verdict: str | None = None
    """The whole row's verdict (colours the caption), when there is one."""
    side: str = ""


@dataclass(slots=True)
class Card:
    """One event's rolls."""

    event: Event
    readings: list[Reading] = field(default_factory=list)


def _words(value: object) -> str:
    return str(value).replace("_", " ")


def status_verdict(status: object) -> str | None:
    """A result's colour: good for carrying on or acting, bad for being put down, else amber."""
    text = str(status)
    if text in _GOOD_STATUS:
        return GOOD
    if text in _BAD_STATUS:
        return BAD
    return MID if text else None


def _faces(value: object) -> tuple[int, ...]:
    if isinstance(value, list | tuple) and all(isinstance(f, int) for f in value):
        return tuple(value)
    return ()


def _activation(event: Event, names: Callable[[str], str], colour_of: ColourOf) -> list[Reading]:
    data = event.data
    sides = [str(s) for s in data.get("sides", [])]
    scores = _faces(data.get("scores"))
    if len(sides) != len(scores):
        return []
    out: list[Reading] = []
    for k, roll in enumerate(data.get("rerolled", []) or []):
        faces = _faces(roll)
        out.append(
            Reading(
                tuple(
                    Die(f, colour_of(s), faded=True, tip="doubles: rerolled")
                    for f, s in zip(faces, sides, strict=False)
                ),
                f"doubles {'again ' if k else ''}rerolled",
            )
        )
    for side, score in zip(sides, scores, strict=True):
        leads = str(data.get("result", "")).startswith(f"{side}_")
        out.append(
            Reading(
                (Die(score, colour_of(side), tip=f"{names(side)}: {score}"),),
                f"{names(side)}" + ("  — activates first" if leads else ""),
                side=side,
            )
        )
    return out


def _fire_target(item: Mapping[str, Any]) -> list[Reading]:
    """A target of a volley: its to-hit dice, then its damage dice."""
    out: list[Reading] = []
    name = str(item.get("name", ""))
    shots = [r for r in item.get("results", []) or [] if isinstance(r, Mapping) and "face" in r]
    if shots:
        dice = tuple(
            Die(int(r["face"]), verdict=GOOD if r.get("hit") else BAD, tip=str(r.get("reason", "")))
            for r in shots
        )
        hits = sum(1 for r in shots if r.get("hit"))
        rep = item.get("rep")
        who = f"{name} (Rep {rep})" if rep is not None else name
        out.append(
            Reading(dice, f"{who}: {hits} hit{'s' if hits != 1 else ''}", GOOD if hits else BAD)
        )
    damage = [d for d in item.get("damage", []) or [] if isinstance(d, Mapping) and "face" in d]
    if damage:
        dice = tuple(
            Die(
                int(d["face"]),
                verdict=status_verdict(d.get("status")),
                tip=str(d.get("explain", "")),
            )
            for d in damage
        )
        worst = str(item.get("result", ""))
        out.append(
            Reading(dice, f"damage: {_words(worst)}" if worst else "damage", status_verdict(worst))
        )
    return out


def _rolled_item(item: Mapping[str, Any]) -> Reading | None:
    """A figure that rolled its own dice (In Sight and the like)."""
    faces = _faces(item.get("faces"))
    if not faces:
        return None
    name = str(item.get("name", ""))
    parts: list[str] = []
    if isinstance(item.get("successes"), int):
        n = item["successes"]
        parts.append(f"{n} success{'es' if n != 1 else ''}")
    elif isinstance(item.get("passed"), int):
        parts.append(f"passed {item['passed']}")
    result = item.get("result")
    if result:
        parts.append(_words(result))
    if isinstance(item.get("wins"), bool):
        verdict: str | None = GOOD if item["wins"] else BAD
    else:
        verdict = status_verdict(result) if result else None
    tip = str(item.get("explain", item.get("reason", "")))
    dice = tuple(Die(f, tip=tip) for f in faces)
    said = ", ".join(parts)
    return Reading(dice, f"{name}: {said}" if name and said else name or said, verdict)


def _tested_item(item: Mapping[str, Any]) -> Reading:
    """A figure that took a test on dice shared with others (a reaction test)."""
    name = str(item.get("name", ""))
    rep = item.get("rep")
    status = item.get("status", item.get("result", ""))
    text = f"{name}: vs Rep {rep}, passed {item.get('passed')} — {_words(status)}"
    return Reading((), text, status_verdict(status))


def readings(
    event: Event,
    names: Callable[[str], str] = str,
    colour_of: ColourOf = lambda _side: None,
) -> list[Reading]:
    """What the tray shows for an event: rows of dice with their meaning (no dice: none)."""
    if not event.dice:
        return []
    data = event.data
    if event.kind == "activation_roll":
        found = _activation(event, names, colour_of)
        if found:
            return found
    out: list[Reading] = []
    shared = _faces(data.get("faces"))
    items = [r for r in data.get("results", []) or [] if isinstance(r, Mapping)]
    fire_like = any(isinstance(r.get("results"), list) or "damage" in r for r in items)
    if fire_like:
        for item in items:
            out.extend(_fire_target(item))
    else:
        tested: list[Reading] = []
        for item in items:
            rolled = _rolled_item(item)
            if rolled is not None:
                out.append(rolled)
            elif "passed" in item or "status" in item:
                tested.append(_tested_item(item))
        if tested:
            extra = []
            for key, label in (("cover_die", "Cover die"), ("leader_die", "Leader Die")):
                if isinstance(data.get(key), int):
                    extra.append(f"{label} {data[key]}")
            dice = tuple(Die(f) for f in (shared or event.dice))
            tests = [_words(t).title() for t in data.get("tests", []) or []]
            caption = " and ".join(tests) or "rolled"
            caption += f" ({', '.join(extra)})" if extra else ""
            out.append(Reading(dice, caption))
            out.extend(tested)
    if not out:
        verdict = status_verdict(data.get("result")) if data.get("result") else None
        caption = _words(data.get("result", "")) if data.get("result") else ""
        out.append(Reading(tuple(Die(f) for f in event.dice), caption, verdict))
    return out


def last_rolls(game: Game) -> list[Event]:
    """The events with dice of the latest step that rolled any."""
    events = game.events
    for k in range(len(events) - 1, -1, -1):
        if events[k].dice:
            step = events[k].step
            return [e for e in events if e.step == step and e.dice]
    return []


# -- the dock --------------------------------------------------------------------------


class ElidedLabel(QLabel):
    """One line of text, shortened with "…" to fit; when it is, the full text is its
    tooltip (a paragraph, however long the text)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.full_text = ""
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        if text == self.full_text and self.text():
            return
        self.full_text = text
        self._elide()

    def _elide(self) -> None:
        room = max(20, self.width())
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, room)
        set_text(self, shown)
        tip = tip_paragraph(self.full_text) if shown != self.full_text else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # (a bold title is wider)
            self._elide()


class Caption(QLabel):
    """What a row of dice meant: wrapped onto as many lines as it needs, never cut."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)


class ReadingLine(QWidget):
    """One reading: its dice and, beside them when it fits on one line there, else
    under them, its caption."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.setSpacing(ROW_GAP)
        self.dice = DiceRow(TRAY_DIE, wrap=True)
        self.caption = Caption()
        self._row.addWidget(self.dice)
        self._row.addWidget(self.caption, 1)

    def set_reading(self, reading: Reading) -> None:
        if self.dice.dice != reading.dice:
            self.dice.set_dice(reading.dice)
        if self.dice.isHidden() == bool(reading.dice):
            self.dice.setVisible(bool(reading.dice))
        set_text(self.caption, reading.caption)
        if self.caption.isHidden() == bool(reading.caption):
            self.caption.setVisible(bool(reading.caption))
        self._arrange()

    def beside(self, width: int) -> bool:
        """Whether the caption goes beside the dice at ``width`` (on one line there)."""
        if not self.dice.dice or not self.caption.text():
            return True
        caption = self.caption.fontMetrics().horizontalAdvance(self.caption.text())
        return self.dice.sizeHint().width() + ROW_GAP + caption <= width

    def _arrange(self) -> None:
        direction = (
            QBoxLayout.Direction.LeftToRight
            if self.beside(self.width())
            else QBoxLayout.Direction.TopToBottom
        )
        if self._row.direction() != direction:
            self._row.setDirection(direction)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()


class CardWidget(QFrame):
    """One event's rolls in the tray; kept and given the next step's event
    (:meth:`set_card`), since a new card costs far more than filling one in."""

    def __init__(self, card: Card, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.card = card
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("diceCard")
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 5)
        layout.setSpacing(3)
        self.head = ElidedLabel()
        small = QFont(self.head.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.82))
        self.head.setFont(small)
        self.head.setEnabled(False)
        layout.addWidget(self.head)
        self.text_label = ElidedLabel()
        layout.addWidget(self.text_label)
        self.rows: list[DiceRow] = []
        """The rows of dice shown, one per reading."""
        self.captions: list[Caption] = []
        self._pool: list[ReadingLine] = []
        self._verdicts: dict[int, str | None] = {}
        self.set_card(card)

    def set_card(self, card: Card) -> None:
        """Show another event's rolls in this card."""
        self.card = card
        event = card.event
        head = "  ·  ".join(
            p for p in (f"§ {event.section}" if event.section else "", _words(event.kind)) if p
        )
        if self.head.full_text != head:
            self.head.set_full_text(head)
        if self.text_label.full_text != event.text:
            self.text_label.set_full_text(event.text)
        while len(self._pool) < len(card.readings):
            line = ReadingLine()
            self._layout.addWidget(line)
            self._pool.append(line)
        self.rows = []
        self.captions = []
        for k, (line, reading) in enumerate(zip(self._pool, card.readings, strict=False)):
            line.set_reading(reading)
            if self._verdicts.get(k, "") != reading.verdict:
                self._verdicts[k] = reading.verdict
                line.caption.setStyleSheet(
                    ""
                    if reading.verdict is None
                    else f"color: {VERDICT_EDGE[reading.verdict].name()};"
                )
            if line.isHidden():
                line.show()
            self.rows.append(line.dice)
            self.captions.append(line.caption)
        for line in self._pool[len(card.readings) :]:
            if not line.isHidden():
                line.hide()


class DiceTrayDock(SessionDock):
    """The last step's rolls, drawn as dice."""

    defer_while_hidden = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Dice tray", "DiceTrayDock", parent)
        self.cards: list[CardWidget] = []
        """The cards shown, one per event with dice."""
        self._card_pool: list[CardWidget] = []
        self._token: tuple[object, ...] | None = None
        body = self._body = QWidget()
        self._layout = QVBoxLayout(body)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.setSpacing(5)
        self.title = ElidedLabel()
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self._layout.addWidget(self.title)
        self._cards_box = QVBoxLayout()
        self._cards_box.setSpacing(5)
        self._layout.addLayout(self._cards_box)
        self._layout.addStretch(1)
        self._set_body(body, 300)
        self.refresh()

    def _colour_of(self, side: str) -> QColor | None:
        assert self.session is not None
        try:
            return QColor(self.session.game.battlefield.force(side).colour)
        except ValueError:
            return None

    def refresh(self) -> None:
        """Show the last rolls: the cards shown stay when the rolls are the same, new
        rolls of the same step are added, and another step's fill the cards in again."""
        session = self.session
        token = session_token(session)
        if token is not None and token == self._token:
            return
        self._token = token
        if session is None:
            self._show_events([])
            self.title.set_full_text("No game")
            return
        game = session.game
        events = last_rolls(game)
        if not events:
            self._show_events([])
            self.title.set_full_text("No dice rolled yet")
            return
        step = events[0].step
        ago = len(game.history) - step
        when = "the last step" if ago <= 0 else f"{ago} step{'s' if ago != 1 else ''} ago"
        self.title.set_full_text(f"Step {step} rolled ({when})")
        self._show_events(events)

    def _show_events(self, events: list[Event]) -> None:
        shown = [c.card.event for c in self.cards]
        if shown == events:
            return
        session = self.session
        keep = len(shown) if shown == events[: len(shown)] else 0
        for k in range(keep, len(events)):
            assert session is not None
            card = Card(events[k], readings(events[k], session.side_name, self._colour_of))
            if k < len(self._card_pool):
                widget = self._card_pool[k]
                widget.set_card(card)
            else:
                widget = CardWidget(card)
                self._cards_box.addWidget(widget)
                self._card_pool.append(widget)
            if widget.isHidden():
                widget.show()
        for widget in self._card_pool[len(events) :]:
            if not widget.isHidden():
                widget.hide()
        self.cards = self._card_pool[: len(events)]
        # lay the cards out now, not at the next turn of the event loop: what is shown
        # (and grabbed) right after a step is that step's dice
        # (twice: the first pass gives the rows their widths, and a row may then put its
        # caption under its dice and need more height)
        body = self._body
        layout = body.layout()
        for _pass in range(2):
            if layout is not None:
                layout.activate()
            need = (
                body.heightForWidth(body.width())
                if body.hasHeightForWidth()
                else body.minimumSizeHint().height()
            )
            if body.height() < need:
                body.resize(body.width(), need)

    def shown_faces(self) -> list[tuple[int, ...]]:
        """Every row's faces, card by card (for tests and the report)."""
        self.flush()
        return [row.faces() for card in self.cards for row in card.rows]


def side_dice(readings_: Sequence[Reading]) -> dict[str, tuple[int, ...]]:
    """The faces shown per side (activation rolls)."""
    return {r.side: tuple(d.face for d in r.dice) for r in readings_ if r.side}
