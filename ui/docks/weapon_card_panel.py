"""The figure's weapon card, read-only (Firearms Detail, FD §11): what the figure panel
shows in play — the card, the mode chosen, rounds left and spare magazines.

:class:`WeaponCardView` draws one card; :class:`FigureCardDock` is the play mode's
panel of it for one figure, following the game (a :class:`~ui.play._dock.SessionDock`).
With Firearms Detail on, the rounds, spares, readiness and mode are the game
controller's (:func:`crdesk.game.firearms_view.weapon_panel`); with it off the card is
shown loaded, in its first mode (:func:`shown_state`), for reference.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from crdesk.errors import ModelError
from crdesk.game import firearms_view
from crdesk.model import Figure, Scenario
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import WeaponCard, figure_card
from crdesk.tables import weapon_stats
from ui.play._dock import SessionDock, set_text

if TYPE_CHECKING:
    from ui.play.session import PlaySession


def shown_state(scenario: Scenario, figure: Figure) -> WeaponState | None:
    """The weapon a figure carries as the panel shows it: its card, loaded (the rounds
    the controller will count later); None when it is unarmed."""
    card = figure_card(figure.weapon, figure.weapon_card, scenario.weapon_cards)
    return WeaponState.loaded(card) if card is not None else None


def card_lines(state: WeaponState) -> list[str]:
    """The card in words, line by line (the view's text, without markup)."""
    card: WeaponCard = state.card
    stats = weapon_stats(card.category, old_school=True)
    modes = " · ".join(f"[{m.label}]" if m is state.current_mode else m.label for m in card.modes)
    kd = f"knockdown {card.knockdown}" if card.knockdown else "no knockdown"
    lines = [
        f"{card.name} — counts as {card.category} ({stats.name})",
        f"Mode: {modes}",
        f"Rounds: {state.rounds}/{card.magazine} · spare magazines: {state.spares}",
        f"Ammo: {card.ammo.value} · {kd}",
    ]
    if not state.ready:
        lines.append("Unready: fires with the Rush Shot penalty (FD §4)")
    if state.empty:
        lines.append("Empty: reload with a spare magazine (FD §3)")
    return lines


class WeaponCardView(QFrame):
    """One weapon card, read-only: name and category, modes (the current one marked),
    rounds left of the magazine, spares, ammo and knockdown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("WeaponCardView")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        layout.addWidget(self.title)
        layout.addWidget(self.body)

    def show_state(self, state: WeaponState | None, *, module_on: bool = True) -> None:
        if state is None:
            set_text(self.title, "Unarmed")
            self.body.setText("No ranged weapon: no card.")
            return
        lines = card_lines(state)
        set_text(self.title, lines[0])
        rows = [html.escape(line) for line in lines[1:]]
        current = html.escape(f"[{state.current_mode.label}]")
        rows[0] = rows[0].replace(current, f"<b>{html.escape(state.current_mode.label)}</b>")
        if not module_on:
            rows.append(
                "<i>Firearms Detail is off in this scenario: the figure fires as its "
                f"category ({html.escape(state.card.category)}, 7.9).</i>"
            )
        self.body.setText("<br>".join(rows))

    def text(self) -> str:
        """The card as plain text (what a reader of the panel sees)."""
        return f"{self.title.text()}\n{self.body.text()}"


class FigureCardDock(SessionDock):
    """The play mode's weapon card panel of the selected figure."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Weapon card", "FigureCardDock", parent)
        self.figure_id: str | None = None
        self.name_label = QLabel()
        self.name_label.setWordWrap(True)
        self.view = WeaponCardView()
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(8, 8, 8, 8)
        column.addWidget(self.name_label)
        column.addWidget(self.view)
        column.addStretch(1)
        self._set_body(body, 220)

    def set_figure(self, figure_id: str | None) -> None:
        """Show another figure's card (None: no figure chosen)."""
        self.figure_id = figure_id
        self._token = None
        self.refresh()

    def refresh(self) -> None:
        session: PlaySession | None = self.session
        figure = None
        if session is not None and self.figure_id is not None:
            try:
                figure = session.game.battlefield.figure(self.figure_id)
            except ModelError:
                figure = None
        if session is None or figure is None:
            set_text(self.name_label, "Choose a figure on the table to see its weapon card.")
            self.view.hide()
            return
        scenario = session.game.scenario
        set_text(self.name_label, f"{figure.name} — Rep {figure.rep}")
        state = shown_state(scenario, figure)
        if scenario.rules.firearms_detail:  # the rounds the controller counts (FD §3, §11)
            panel = firearms_view.weapon_panel(session.game, figure.id)
            state = panel.state if panel is not None else None
        self.view.show_state(state, module_on=scenario.rules.firearms_detail)
        self.view.show()
