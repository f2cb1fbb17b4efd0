"""Sharing a volley's dice among the enemies in the arc of fire (7.9.7-7.9.9), before it is fired.

A click on an enemy opens this small dialog when other enemies stand in the
arc beside it (the adapter's :func:`~crdesk.game.adapter.fire_choice` says
who).  It is not modal: the table stays in view and the dialog sits beside it.
Each row is one target with its dice; the rows are in the order the dice are
given out (the highest to the first row, 7.9.9).  The spin boxes start at the
book's share (each enemy once before any twice, 7.9.8), the odds beside each
target are :func:`crdesk.odds.fire_odds` for exactly the share shown, and
Fire (or Enter) sends the volley; Esc cancels.  Whether a share is legal is
the controller's verdict: a refusal is shown in the dialog in its words and
nothing is played.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable
from fractions import Fraction

from PySide6.QtCore import QEvent, QLineF, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPen, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGraphicsLineItem,
    QGraphicsScene,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import CrdeskError
from crdesk.game import adapter, firearms_view
from crdesk.game.actions import Fire
from crdesk.odds import FireOdds, fire_odds
from crdesk.rules.firearms.odds import FirearmsOdds
from crdesk.rules.firearms.tables import FireMode
from crdesk.tables import weapon_stats
from ui.play.fire_preview import pct as plain_pct
from ui.play.session import PlaySession
from ui.play.text import figure_names
from ui.scene.layers import Layer


def pct(p: Fraction) -> str:
    """:func:`ui.play.fire_preview.pct` for the dialog's rich text: "<1%" escaped, so a
    tiny chance (a Star's, with its Star Power) is shown, not read as a tag."""
    return html.escape(plain_pct(p))


REFUSED = "#b3261e"
FIRE_LINE = QColor(20, 120, 50)
IDLE_LINE = QColor(120, 120, 120, 200)


def _line_pen(firing: bool) -> QPen:
    pen = QPen(FIRE_LINE if firing else IDLE_LINE, 0)
    pen.setCosmetic(True)
    pen.setWidthF(2.5 if firing else 1.5)
    pen.setStyle(Qt.PenStyle.SolidLine if firing else Qt.PenStyle.DashLine)
    return pen


class FireDialog(QDialog):
    """The dice of one shooter's volley, per target, with the odds of each share."""

    fired = Signal(object)
    """The :class:`~crdesk.game.actions.Fire` played (the dialog then closes)."""

    def __init__(
        self,
        session: PlaySession,
        choice: adapter.FireChoice,
        parent: QWidget | None = None,
        scene: QGraphicsScene | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.scene = scene
        """Where the lines of fire to the rows' targets are drawn while the dialog is open."""
        self.lines: dict[str, QGraphicsLineItem] = {}
        self.choice = choice
        self.last_reason: str | None = None
        """The controller's refusal of the last Fire (None before one, or when it fired)."""
        self.odds: FireOdds | None = None
        """The exact odds of the share shown (None when the share is incomplete)."""
        self.detail_odds: FirearmsOdds | None = None
        """Firearms Detail: the exact odds per die of the firing shown (FD §11)."""
        self.panel = firearms_view.weapon_panel(session.game, choice.shooter)
        """Firearms Detail's weapon card and choices (None with the module off)."""
        self._playing = False
        game = session.game
        names = figure_names(game)
        self._name: Callable[[str], str] = names
        shooter = game.fig(choice.shooter)
        stats = weapon_stats(shooter.weapon, game.rules.old_school)
        self.setWindowTitle(f"{names(choice.shooter)} fires")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        layout = QVBoxLayout(self)
        self.head = QLabel(
            f"<b>{names(choice.shooter)}</b> (Rep {shooter.rep}, {stats.name}): share "
            f'<b>{choice.dice} dice</b> among the enemies in the {choice.dice}" arc of fire'
        )
        """What the volley does with its dice; with Firearms Detail, what the chosen mode
        does (a Full Auto volley's or a shell's dice are the rules' to give out)."""
        self.head.setWordWrap(True)
        layout.addWidget(self.head)
        self.hint = QLabel(
            "The highest dice go to the first row (7.9.9); every enemy in the arc is "
            "targeted once before any twice (7.9.8)."
        )
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(mid);")
        layout.addWidget(self.hint)
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        for col, title in enumerate(("Target", "Dice", "Odds")):
            label = QLabel(f"<b>{title}</b>")
            grid.addWidget(label, 0, col)
        sight = game.sight()
        default = dict(choice.default)
        self.spins: dict[str, QSpinBox] = {}
        self._share: dict[str, int] | None = None
        """The player's share, kept while a Firearms Detail mode gives the dice out itself
        (the greyed boxes then show the mode's dice per target, FD §5, §6)."""
        self.odds_labels: dict[str, QLabel] = {}
        for row, tid in enumerate(choice.targets, 1):
            target = game.fig(tid)
            cover = "in Cover" if sight.in_cover(choice.shooter, tid) else "in the open"
            where = f'{sight.distance(choice.shooter, tid):.1f}", {cover}'
            grid.addWidget(
                QLabel(f"{names(tid)} (Rep {target.rep})<br><small>{where}</small>"), row, 0
            )
            spin = QSpinBox()
            spin.setRange(0, choice.dice)
            spin.setValue(default.get(tid, 0))
            spin.setAccessibleName(f"Dice at {names(tid)}")
            spin.valueChanged.connect(self._update)
            grid.addWidget(spin, row, 1)
            self.spins[tid] = spin
            odds = QLabel()
            odds.setTextFormat(Qt.TextFormat.RichText)
            grid.addWidget(odds, row, 2)
            self.odds_labels[tid] = odds
        layout.addLayout(grid)
        if self.panel is not None:
            layout.addWidget(self._detail_box())
        self.total_label = QLabel()
        bold = QFont(self.total_label.font())
        bold.setBold(True)
        self.total_label.setFont(bold)
        layout.addWidget(self.total_label)
        self.reason_label = QLabel()
        self.reason_label.setWordWrap(True)
        self.reason_label.setStyleSheet(f"color: {REFUSED};")
        self.reason_label.hide()
        layout.addWidget(self.reason_label)
        buttons = QDialogButtonBox()
        self.fire_button: QPushButton = buttons.addButton(
            "Fire ⏎", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.fire_button.setDefault(True)
        cancel = buttons.addButton("Cancel (Esc)", QDialogButtonBox.ButtonRole.RejectRole)
        cancel.setAutoDefault(False)
        buttons.accepted.connect(self.fire)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        session.changed.connect(self._game_changed)
        self.finished.connect(self._disconnect)
        self._draw_lines()
        self._update()

    def event(self, event: QEvent) -> bool:
        """Enter and Esc are the dialog's: the play mode's Enter ("play the default") must not
        fire the book's shot instead of this one while the dialog has the keyboard."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)
        ):
            event.accept()
            return True
        return super().event(event)

    # -- the share -----------------------------------------------------------------

    def allocation(self) -> tuple[tuple[str, int], ...]:
        """The dice per target as the player shared them, in row order (while a mode gives
        the dice out itself, the share the boxes had before it)."""
        if self._share is not None:
            return tuple((tid, self._share.get(tid, 0)) for tid in self.spins)
        return tuple((tid, spin.value()) for tid, spin in self.spins.items())

    def action(self) -> Fire:
        """The volley the dialog would fire: the targets given at least one die (with
        Firearms Detail, the mode and options chosen; Full Auto and buckshot fire at the
        first target, bursts one die per target)."""
        shares = tuple((t, n) for t, n in self.allocation() if n > 0)
        if self.panel is None:
            return Fire(self.choice.shooter, shares)
        mode = self.mode()
        if mode is FireMode.FA or self.panel.card.buckshot:
            shares = ((self.choice.first, 0),)
        elif mode in (FireMode.RB2, FireMode.RB3):
            shares = tuple((t, 0) for t, _ in shares)
        elif sum(n for _, n in shares) == self.choice.dice:
            shares = tuple((t, 0) for t, _ in shares) if len(shares) == 1 else shares
        fa = mode is FireMode.FA
        return Fire(
            self.choice.shooter,
            shares,
            mode.value,
            aim=fa and self.aim_box.isChecked(),
            walk=self.walk_spin.value() if fa else 0,
            support=str(self.support_box.currentData() or ""),
        )

    # -- Firearms Detail (FD §5-§7, §11) ------------------------------------------

    def _detail_box(self) -> QGroupBox:
        """Mode, aim, walk and support, as the figure's card and situation allow."""
        panel = self.panel
        assert panel is not None
        box = QGroupBox(f"Firearms Detail — {panel.summary}")
        column = QVBoxLayout(box)
        row = QHBoxLayout()
        row.addWidget(QLabel("Mode"))
        self.mode_box = QComboBox()
        self.mode_box.setAccessibleName("Fire mode")
        model = self.mode_box.model()
        current = panel.state.current_mode
        chosen = -1
        for i, m in enumerate(panel.modes):
            self.mode_box.addItem(f"{m.label} ({m.dice} dice)" if m.dice else m.label, m.mode.value)
            if m.reason is not None:
                if isinstance(model, QStandardItemModel):
                    item = model.item(i)
                    item.setEnabled(False)
                    item.setToolTip(m.reason)
            elif chosen < 0 or m.mode is current:
                chosen = i
        self.mode_box.setCurrentIndex(max(chosen, 0))
        self.mode_box.currentIndexChanged.connect(self._update)
        row.addWidget(self.mode_box, 1)
        column.addLayout(row)
        row = QHBoxLayout()
        self.aim_box = QCheckBox("Aim (FD §5.1)")
        self.aim_box.setToolTip(panel.aim or "+2 steps on the first pair, then -1 per pair")
        self.aim_box.toggled.connect(self._update)
        row.addWidget(self.aim_box)
        row.addWidget(QLabel("Walk pairs"))
        self.walk_spin = QSpinBox()
        self.walk_spin.setRange(0, panel.walk_pairs)
        self.walk_spin.setAccessibleName("Pairs sacrificed to walk the target")
        self.walk_spin.setToolTip("+1 step per pair sacrificed on the primary's dice (FD §5.2)")
        self.walk_spin.valueChanged.connect(self._update)
        row.addWidget(self.walk_spin)
        row.addWidget(QLabel("Support"))
        self.support_box = QComboBox()
        self.support_box.setAccessibleName("Supported fire")
        for label, value in (("none", ""), ("braced +1", "braced"), ("bipod +1", "bipod")):
            self.support_box.addItem(label, value)
        self.support_box.addItem("tripod +3", "tripod")
        self.support_box.setEnabled(panel.support is None)
        self.support_box.setToolTip(panel.support or "Supported fire (FD §7)")
        self.support_box.currentIndexChanged.connect(self._update)
        row.addWidget(self.support_box)
        row.addStretch(1)
        column.addLayout(row)
        self.dice_odds_label = QLabel()
        self.dice_odds_label.setTextFormat(Qt.TextFormat.RichText)
        self.dice_odds_label.setWordWrap(True)
        column.addWidget(self.dice_odds_label)
        return box

    def mode(self) -> FireMode:
        """The fire mode chosen (Firearms Detail only)."""
        return FireMode(str(self.mode_box.currentData()))

    def _update_detail(self) -> None:
        panel = self.panel
        assert panel is not None
        fa = self.mode() is FireMode.FA
        # aiming and walking the target do not go together (FD §5.1)
        self.aim_box.setEnabled(fa and panel.aim is None and self.walk_spin.value() == 0)
        self.walk_spin.setEnabled(fa and not self.aim_box.isChecked())
        own_dice = fa or panel.card.buckshot or self.mode() in (FireMode.RB2, FireMode.RB3)
        if own_dice and self._share is None:
            self._share = {tid: spin.value() for tid, spin in self.spins.items()}
        elif not own_dice and self._share is not None:  # the player's share again
            kept, self._share = self._share, None
            self._show_dice(kept, self.choice.dice)
        for spin in self.spins.values():
            spin.setEnabled(not own_dice)
        self.hint.setVisible(not own_dice)  # the 7.9.8 share is the player's only then
        game = self.session.game
        shooter = game.fig(self.choice.shooter)
        try:
            plan = firearms_view.fire_plan(game, self.action())
        except CrdeskError as exc:
            plan = f"<i>{exc}</i>"
        self.head.setText(
            f"<b>{self._name(shooter.id)}</b> (Rep {shooter.rep}, {panel.card.name}): {plan}"
        )
        try:
            self.detail_odds = firearms_view.firearms_odds(self.session.game, self.action())
        except CrdeskError as exc:
            self.detail_odds = None
            self.dice_odds_label.setText(f"<i>No odds: {exc}</i>")
        if own_dice:  # the greyed boxes show what the mode does with its dice
            given: dict[str, int] = {}
            odds = self.detail_odds
            ids = {f.name: f.id for f in odds.figures} if odds is not None else {}
            for die in odds.dice if odds is not None else ():  # a die names its figure
                tid = ids.get(die.target)
                if tid is not None:
                    given[tid] = given.get(tid, 0) + 1
            self._show_dice(given, self.choice.dice)
            for tid, spin in self.spins.items():
                spin.setToolTip(
                    f"{self.mode().label} gives the dice out itself: {given.get(tid, 0)} here"
                )
        else:
            for spin in self.spins.values():
                spin.setToolTip("")
        shares = {f.id: f for f in self.detail_odds.figures} if self.detail_odds else {}
        for tid, label in self.odds_labels.items():
            f = shares.get(tid)
            label.setText(
                "not targeted"
                if f is None
                else f"hit <b>{pct(f.hit)}</b> · Out of the Fight <b>{pct(f.out_of_the_fight)}</b>"
                f" · Obviously Dead <b>{pct(f.obviously_dead)}</b>"
            )
        act = self.action()
        chosen = " ".join(
            (["aimed"] if act.aim else [])
            + ([f"walking {act.walk} pair(s)"] if act.walk else [])
            + ([f"supported ({act.support})"] if act.support else [])
        )
        aims = ", ".join(self._name(t) for t in act.target_ids)
        for tid, line in self.lines.items():
            line.setPen(_line_pen(tid in act.target_ids))
        self.total_label.setText(
            f"{self.mode().label}{' ' + chosen if chosen else ''} at {aims}"
            + (" (the others in the spread)" if self.mode() is FireMode.FA else "")
        )
        if self.detail_odds is None:
            return
        name = self._name
        rows = [
            f"Die {d.position} → {name(d.target) if d.target else 'nobody'}: <b>{pct(d.hit)}</b>"
            f" <small>({', '.join(s.explain() for s in d.steps) or 'no steps'})</small>"
            for d in self.detail_odds.dice
        ]
        rows += [
            f"{f.name} ({f.role}): hit <b>{pct(f.hit)}</b>, OOF {pct(f.out_of_the_fight)}, "
            f"OD {pct(f.obviously_dead)}"
            for f in self.detail_odds.figures
            if f.id not in self.odds_labels
        ]
        if game.rules.interpretations.fd_keep_tight_ammo:
            rows.append(
                f"Jam (two or more 1s empty the weapon, FD §3): <b>{pct(self.detail_odds.jam)}</b>"
            )
        self.dice_odds_label.setText("<br>".join(rows))

    def set_dice(self, target: str, dice: int) -> None:
        self.spins[target].setValue(dice)

    def _show_dice(self, dice: dict[str, int], most: int) -> None:
        """Put ``dice`` in the boxes without taking them for the player's share."""
        for tid, spin in self.spins.items():
            spin.blockSignals(True)
            n = dice.get(tid, 0)
            spin.setRange(0, max(most, n))
            spin.setValue(n)
            spin.blockSignals(False)

    def _update(self) -> None:
        total = sum(n for _, n in self.allocation())
        want = self.choice.dice
        colour = "" if total == want else f"color: {REFUSED};"
        self.total_label.setStyleSheet(colour)
        self.total_label.setText(f"{total} of {want} dice given out")
        self.reason_label.hide()
        if self.panel is not None:
            self._update_detail()
            self.adjustSize()  # the odds grow and shrink with the mode
            return
        self.odds = self._odds()
        shares = [t for t, n in self.allocation() if n > 0]
        for tid, line in self.lines.items():
            line.setPen(_line_pen(tid in shares))
        for tid, label in self.odds_labels.items():
            if self.odds is None or tid not in shares:
                label.setText("—" if tid in shares or self.odds is None else "not targeted")
                continue
            o = self.odds.targets[shares.index(tid)]
            label.setText(
                f"hit <b>{pct(o.hit)}</b> · Out of the Fight <b>{pct(o.out_of_the_fight)}</b>"
                f" · Obviously Dead <b>{pct(o.obviously_dead)}</b>"
            )

    def _odds(self) -> FireOdds | None:
        """The exact odds of the share shown, or None when it is not a whole share."""
        alloc = [(t, n) for t, n in self.allocation() if n > 0]
        if not alloc or sum(n for _, n in alloc) != self.choice.dice:
            return None
        game = self.session.game
        shooter = game.fig(self.choice.shooter)
        sight = game.sight()
        specs = [adapter.target_spec(game.fig(t), shooter, sight) for t, _ in alloc]
        try:
            return fire_odds(
                shooter.rep,
                shooter.weapon,
                specs,
                allocation=[n for _, n in alloc],
                fast_moving=shooter.fast_moving,
                options=game.rules,
                star_power=[adapter.star_power_dice(game.fig(t)) for t, _ in alloc],
            )
        except CrdeskError:
            return None

    # -- firing --------------------------------------------------------------------

    def fire(self) -> None:
        """Send the volley, or show the controller's refusal and keep the dialog open."""
        action = self.action()
        reason = self.session.legal(action) if action.targets else "give some dice out first"
        if reason is None:
            self._playing = True
            try:
                reason = self.session.play(action)
            finally:
                self._playing = False
        self.last_reason = reason
        if reason is not None:
            self.reason_label.setText(f"Not fired: {reason}")
            self.reason_label.show()
            return
        self.fired.emit(action)
        self.accept()

    def _game_changed(self) -> None:
        """Another step was played (or undone) meanwhile: the share no longer applies."""
        if not self._playing:
            self.reject()

    def _draw_lines(self) -> None:
        """A line of fire to every target in the rows: solid while it gets dice, else dashed."""
        if self.scene is None:
            return
        bf = self.session.game.battlefield
        a = bf.figure(self.choice.shooter)
        for tid in self.choice.targets:
            b = bf.figure(tid)
            line = QGraphicsLineItem(QLineF(a.x, a.y, b.x, b.y))
            line.setZValue(Layer.FIGURES - 1)  # under the bases: their Reps stay readable
            line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(line)
            self.lines[tid] = line

    def _disconnect(self, _result: int) -> None:
        for line in self.lines.values():
            if line.scene() is not None:
                line.scene().removeItem(line)
        self.lines = {}
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.changed.disconnect(self._game_changed)


def placement(size: QSize, area: QRect, aims: list[QPoint], figures: list[QPoint]) -> QPoint:
    """The dialog's top-left corner: right of, left of, below or above the targets
    (``aims``), whichever hides the fewest ``figures`` and then stays most inside ``area``,
    so the shooter and its targets stay in sight while the dice are shared."""
    pad = 30
    left = min(p.x() for p in aims) - pad
    right = max(p.x() for p in aims) + pad
    top = min(p.y() for p in aims) - pad
    bottom = max(p.y() for p in aims) + pad
    w, h = size.width(), size.height()
    mid_x, mid_y = (left + right - w) // 2, (top + bottom - h) // 2
    candidates = [
        QPoint(right, mid_y),
        QPoint(left - w, mid_y),
        QPoint(mid_x, bottom),
        QPoint(mid_x, top - h),
    ]

    def cost(corner: QPoint) -> tuple[int, int]:
        rect = QRect(corner, size)
        hidden = sum(1 for p in figures if rect.adjusted(-12, -12, 12, 12).contains(p))
        inside = rect.intersected(area)
        return (hidden, w * h - inside.width() * inside.height())

    return min(candidates, key=cost)
