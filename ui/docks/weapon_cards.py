"""Weapon cards in the properties dock (Firearms Detail, FD §2).

Two parts: :class:`WeaponCardsEditor`, the scenario's own weapons ("Glock 17"
counting as a Pistol, its modes, magazine, spares, ammo and knockdown), and
:class:`FigureCardRow`, the card a figure carries.  Every edit is one
:class:`WeaponCardsCommand`, which sets the scenario's weapons and the figures'
``weapon``/``weapon_card`` together: renaming a card renames it on the figures
carrying it, a new category moves their weapon with it, a removed card leaves
them their category's default card.  That keeps the file loadable: the loader
refuses a figure naming a card it lacks, or one of another category.

The cards are checked by the rules' own :func:`~crdesk.rules.firearms.cards.parse_cards`
(the loader's checks), so the dock refuses exactly what a file would, in the
same words; a refused edit shows the reason and the fields go back.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from crdesk.errors import ModelError, ScenarioFormatError
from crdesk.events import Change, ChangeKind
from crdesk.model import WeaponCode
from crdesk.rules.firearms.cards import (
    CATEGORIES,
    MAX_KNOCKDOWN,
    MAX_MAGAZINE,
    MAX_SPARES,
    MAX_WEAPONS,
    NAME_CHARS,
    WeaponCard,
    default_card,
    figure_card,
    figure_card_problem,
    parse_cards,
)
from crdesk.rules.firearms.tables import AmmoType, FireMode
from crdesk.tables import weapon_stats
from ui.commands import (
    ChangeFiguresCommand,
    ChangeValueCommand,
    _held_weakly,
    announce_scenario,
)
from ui.docks._common import disconnect_quietly, signals_blocked
from ui.document import Document

TIPS = {
    "list": "The scenario's own weapons (FD §2). A figure carries one by its Weapon card.",
    "name": 'The weapon\'s name, as the figure panel and the dice log show it ("Glock 17").',
    "category": "The Chain Reaction weapon it counts as (7.9): its range, Target and "
    "Outgunned Ranking.",
    "modes": "Its fire modes (FD §2, §5): Semi, Single/Double Action, Pump, Bolt Action, "
    "2- and 3-round bursts, Full Auto.",
    "magazine": "Rounds per magazine, belt or tube (FD §3).",
    "spares": "Spare magazines carried; a reload uses one (FD §3).",
    "ammo": "Ammunition; buckshot (shotguns only) fires by range band (FD §6).",
    "knockdown": 'A hit figure rolling this or less is knocked prone and pushed 1" '
    "(FD §8); 0 = never.",
    "figure_card": "The weapon card the figure fires with under Firearms Detail (FD §2): "
    "its category's default card, or one of the scenario's weapons.",
}


def _category_label(code: str) -> str:
    return f"{code} — {weapon_stats(code, old_school=True).name}"


def _card_json(cards: tuple[WeaponCard, ...]) -> list[dict[str, Any]]:
    return [c.to_json() for c in cards]


def checked_cards(cards: list[dict[str, Any]]) -> tuple[WeaponCard, ...]:
    """The cards as the loader would read them; raise :class:`ScenarioFormatError`."""
    return tuple(parse_cards(cards).values())


class WeaponCardsCommand(QUndoCommand):
    """Set the scenario's weapons and some figures' weapon and card as one step."""

    def __init__(
        self,
        document: Document,
        weapons: tuple[WeaponCard, ...],
        figures: Mapping[str, Mapping[str, Any]] | None = None,
        text: str = "Change Weapon Cards",
    ) -> None:
        super().__init__(text)
        self._doc = _held_weakly(document)
        bf = document.battlefield
        self._old_weapons = document.scenario.weapons
        self._new_weapons = weapons
        figures = figures or {}
        self._old_figures = {
            fid: {k: copy.deepcopy(getattr(bf.figure(fid), k)) for k in values}
            for fid, values in figures.items()
        }
        self._new_figures = {fid: dict(values) for fid, values in figures.items()}

    def _apply(self, weapons: tuple[WeaponCard, ...], figures: dict[str, dict[str, Any]]) -> None:
        self._doc.scenario.weapons = weapons
        if figures:
            self._doc.battlefield.update_figures(figures)
        announce_scenario(self._doc)

    def redo(self) -> None:
        self._apply(self._new_weapons, self._new_figures)
        self.setObsolete(
            self._old_weapons == self._new_weapons and self._old_figures == self._new_figures
        )

    def undo(self) -> None:
        self._apply(self._old_weapons, self._old_figures)


def _unique_name(cards: tuple[WeaponCard, ...], base: str) -> str:
    taken = {c.name.casefold() for c in cards}
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base} {n}"
    return name


def add_card_command(document: Document, category: str = "AR") -> WeaponCardsCommand:
    """A new weapon, a copy of the category's default card under a free name."""
    cards = document.scenario.weapons
    base = dataclasses.replace(default_card(category), name=_unique_name(cards, "New weapon"))
    return WeaponCardsCommand(document, (*cards, base), text=f"Add Weapon {base.name}")


def remove_card_command(document: Document, index: int) -> WeaponCardsCommand:
    """Remove a weapon; the figures carrying it keep their category's default card."""
    cards = document.scenario.weapons
    gone = cards[index]
    figures = {
        f.id: {"weapon_card": ""}
        for f in document.battlefield.figures()
        if f.weapon_card == gone.name
    }
    rest = cards[:index] + cards[index + 1 :]
    return WeaponCardsCommand(document, rest, figures, f"Remove Weapon {gone.name}")


def change_card_command(document: Document, index: int, **values: Any) -> WeaponCardsCommand:
    """Change fields of one weapon (its file form's names: name, category, modes, ...).

    Raises :class:`ScenarioFormatError` with the loader's problems when the card
    would not load (a duplicate name, Full Auto from a 5-round magazine, ...).
    """
    cards = document.scenario.weapons
    old = cards[index]
    items = _card_json(cards)
    items[index] = {**items[index], **values}
    new_cards = checked_cards(items)
    new = new_cards[index]
    figures = {
        f.id: {"weapon_card": new.name, "weapon": WeaponCode(new.category)}
        for f in document.battlefield.figures()
        if f.weapon_card == old.name and (new.name != old.name or new.category != old.category)
    }
    label = next(iter(values), "card").replace("_", " ").title()
    return WeaponCardsCommand(document, new_cards, figures, f"Change {label} of {new.name}")


def carry_card_command(document: Document, figure_id: str, name: str) -> QUndoCommand:
    """A figure takes one of the scenario's weapons ("" = its category's default card);
    its weapon becomes the card's category in the same step."""
    figure = document.battlefield.figure(figure_id)
    values: dict[str, Any] = {"weapon_card": name}
    card = document.scenario.weapon_cards.get(name) if name else None
    if card is not None:
        values["weapon"] = WeaponCode(card.category)
    who = figure.name or figure.id
    text = f"{who} carries {name}" if name else f"{who} carries the default card"
    return WeaponCardsCommand(document, document.scenario.weapons, {figure_id: values}, text)


def set_weapon_command(document: Document, figure_id: str, weapon: WeaponCode) -> QUndoCommand:
    """A new category for a figure; a card it carried of another category is dropped."""
    figure = document.battlefield.figure(figure_id)
    cards = document.scenario.weapon_cards
    if figure.weapon_card and figure_card_problem(weapon, figure.weapon_card, cards) is not None:
        return WeaponCardsCommand(
            document,
            document.scenario.weapons,
            {figure_id: {"weapon": weapon, "weapon_card": ""}},
            "Change Weapon",
        )
    return ChangeValueCommand(document, figure_id, "weapon", weapon)


def set_weapons_command(
    document: Document, figure_ids: list[str], weapon: WeaponCode
) -> QUndoCommand:
    """A new category for several figures (a multi-selection edit), as one step; cards
    of another category are dropped as :func:`set_weapon_command` does for one."""
    bf = document.battlefield
    cards = document.scenario.weapon_cards
    changes: dict[str, dict[str, Any]] = {}
    for fid in figure_ids:
        figure = bf.figure(fid)
        values: dict[str, Any] = {"weapon": weapon}
        if figure.weapon_card and figure_card_problem(weapon, figure.weapon_card, cards):
            values["weapon_card"] = ""
        changes[fid] = values
    if all(len(v) == 1 for v in changes.values()):
        return ChangeFiguresCommand(document, figure_ids, "weapon", weapon)
    text = f"Change Weapon of {len(figure_ids)} Figures"
    return WeaponCardsCommand(document, document.scenario.weapons, changes, text)


# --------------------------------------------------------------------------
# The figure's card


class FigureCardRow(QWidget):
    """The figure's weapon card: a combo of its category's default and the scenario's
    weapons, with the card's summary under it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document: Document | None = None
        self.figure_id: str | None = None
        self.combo = QComboBox()
        self.combo.setToolTip(TIPS["figure_card"])
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.combo)
        layout.addWidget(self.summary)
        self.combo.activated.connect(self._chosen)

    def show_figure(self, document: Document, figure_id: str) -> None:
        self.document, self.figure_id = document, figure_id
        self.refresh()

    def refresh(self) -> None:
        doc, fid = self.document, self.figure_id
        if doc is None or fid is None:
            return
        figure = doc.battlefield.figure(fid)
        cards = doc.scenario.weapon_cards
        with signals_blocked(self.combo):
            self.combo.clear()
            if figure.weapon is WeaponCode.NONE:
                self.combo.addItem("No card (unarmed)", "")
            else:
                self.combo.addItem(f"Default card ({figure.weapon.value})", "")
            for card in doc.scenario.weapons:
                self.combo.addItem(f"{card.name} ({card.category})", card.name)
            index = self.combo.findData(figure.weapon_card)
            if figure.weapon_card and index < 0:  # a name the scenario lacks (pasted)
                self.combo.addItem(f"{figure.weapon_card} (not in this scenario)", "")
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(max(0, index))
        card = figure_card(figure.weapon, figure.weapon_card, cards)
        problem = figure_card_problem(figure.weapon, figure.weapon_card, cards)
        text = card.explain() if card is not None else "Unarmed: no weapon card."
        if problem is not None:
            text = f"{problem.message}. Fires as: {text}"
        self.summary.setText(text)

    def _chosen(self, index: int) -> None:
        doc, fid = self.document, self.figure_id
        if doc is None or fid is None:
            return
        name = str(self.combo.itemData(index) or "")
        if name == doc.battlefield.figure(fid).weapon_card:
            return
        doc.undo_stack.push(carry_card_command(doc, fid, name))


# --------------------------------------------------------------------------
# The scenario's weapons


def _mode_caption(mode: FireMode) -> str:
    """ "Semi", "Pump", "Single"; the chapter's abbreviations (SA, 3RB, FA) as they are."""
    text = mode.value
    return text if text.isupper() or text[0].isdigit() else text.title()


class WeaponCardsEditor(QWidget):
    """The scenario's user weapons: a list, Add/Remove, and the chosen card's fields."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("WeaponCardsEditor")
        self.box = QGroupBox("Weapon cards (Firearms Detail)")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 4, 8, 8)
        outer.addWidget(self.box)
        self._document: Document | None = None
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setToolTip(TIPS["list"])
        self.list.setMaximumHeight(80)
        self.add_button = QPushButton("Add")
        self.add_button.setToolTip("Add a weapon: a copy of the Assault Rifle's card to edit.")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip(
            "Remove the chosen weapon; figures carrying it keep their category's default card."
        )
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)

        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(NAME_CHARS)
        self.category_combo = QComboBox()
        for code in CATEGORIES:
            self.category_combo.addItem(_category_label(code), code)
        self.mode_checks: dict[FireMode, QCheckBox] = {}
        modes = QWidget()
        grid = QGridLayout(modes)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(0)
        for i, mode in enumerate(FireMode):
            check = QCheckBox(_mode_caption(mode))
            check.setToolTip(mode.label)
            self.mode_checks[mode] = check
            grid.addWidget(check, i // 3, i % 3)
        self.magazine_spin = QSpinBox()
        self.magazine_spin.setRange(1, MAX_MAGAZINE)
        self.spares_spin = QSpinBox()
        self.spares_spin.setRange(0, MAX_SPARES)
        self.ammo_combo = QComboBox()
        for ammo in AmmoType:
            self.ammo_combo.addItem(ammo.value, ammo.value)
        self.knockdown_spin = QSpinBox()
        self.knockdown_spin.setRange(0, MAX_KNOCKDOWN)
        self.knockdown_spin.setSpecialValueText("0 (never)")
        for spin in (self.magazine_spin, self.spares_spin, self.knockdown_spin):
            # a value counts once typed (Enter or leaving the field): "17" is not "1" first,
            # which a card with Full Auto would refuse
            spin.setKeyboardTracking(False)
        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet("color: #b3261e;")
        self.problem_label.hide()

        self.fields = QWidget()
        form = QFormLayout(self.fields)
        form.setContentsMargins(0, 4, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for label, widget, tip in (
            ("Name", self.name_edit, TIPS["name"]),
            ("Counts as", self.category_combo, TIPS["category"]),
            ("Modes", modes, TIPS["modes"]),
            ("Magazine", self.magazine_spin, TIPS["magazine"]),
            ("Spare mags", self.spares_spin, TIPS["spares"]),
            ("Ammo", self.ammo_combo, TIPS["ammo"]),
            ("Knockdown", self.knockdown_spin, TIPS["knockdown"]),
        ):
            widget.setToolTip(tip)
            caption = QLabel(label)
            caption.setToolTip(tip)
            caption.setBuddy(widget)
            form.addRow(caption, widget)

        layout = QVBoxLayout(self.box)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.intro)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.fields)
        layout.addWidget(self.problem_label)

        self.list.currentRowChanged.connect(lambda _row: self._show_card())
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.name_edit.editingFinished.connect(self._commit_name)
        self.category_combo.activated.connect(
            lambda i: self._change(category=str(self.category_combo.itemData(i)))
        )
        for mode, check in self.mode_checks.items():
            check.toggled.connect(lambda _on, m=mode: self._toggle_mode(m))
        self.magazine_spin.valueChanged.connect(lambda v: self._change(magazine=int(v)))
        self.spares_spin.valueChanged.connect(lambda v: self._change(spare_magazines=int(v)))
        self.ammo_combo.activated.connect(
            lambda i: self._change(ammo=str(self.ammo_combo.itemData(i)))
        )
        self.knockdown_spin.valueChanged.connect(lambda v: self._change(knockdown=int(v)))
        self.set_document(document)

    # -- binding ------------------------------------------------------------

    def set_document(self, document: Document | None) -> None:
        if self._document is not None:
            disconnect_quietly(self._document, "model_changed", self._on_model_changed)
        self._document = document
        if document is not None:
            document.model_changed.connect(self._on_model_changed)
        self.refresh()

    def _on_model_changed(self, change: Change) -> None:
        if change.what == "scenario" or change.kind is ChangeKind.RESET:
            self.refresh()

    def current_index(self) -> int:
        return self.list.currentRow()

    def refresh(self) -> None:
        """Write the scenario's cards into the widgets (signals blocked: no commands)."""
        doc = self._document
        cards = doc.scenario.weapons if doc is not None else ()
        self.setEnabled(doc is not None)
        on = doc is not None and doc.scenario.rules.firearms_detail
        state = "on" if on else "off: cards count only once it is switched on"
        self.intro.setText(f"Firearms Detail is {state} (Scenario Settings).")
        row = self.list.currentRow()
        with signals_blocked(self.list):
            self.list.clear()
            for card in cards:
                item = QListWidgetItem(f"{card.name} — counts as {card.category}")
                item.setToolTip(card.explain())
                self.list.addItem(item)
            if cards:
                self.list.setCurrentRow(min(max(row, 0), len(cards) - 1))
        self.add_button.setEnabled(doc is not None and len(cards) < MAX_WEAPONS)
        self._show_card()

    def _show_card(self) -> None:
        doc = self._document
        index = self.list.currentRow()
        cards = doc.scenario.weapons if doc is not None else ()
        has = 0 <= index < len(cards)
        self.remove_button.setEnabled(has)
        self.fields.setVisible(has)
        if not has:
            return
        card = cards[index]
        widgets = (
            self.name_edit,
            self.category_combo,
            self.magazine_spin,
            self.spares_spin,
            self.ammo_combo,
            self.knockdown_spin,
            *self.mode_checks.values(),
        )
        with signals_blocked(*widgets):
            if self.name_edit.text() != card.name:
                self.name_edit.setText(card.name)
            self.name_edit.setModified(False)
            self.category_combo.setCurrentIndex(self.category_combo.findData(card.category))
            for mode, check in self.mode_checks.items():
                check.setChecked(mode in card.modes)
            self.magazine_spin.setValue(card.magazine)
            self.spares_spin.setValue(card.spare_magazines)
            self.ammo_combo.setCurrentIndex(self.ammo_combo.findData(card.ammo.value))
            self.knockdown_spin.setValue(card.knockdown)

    # -- edits --------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.problem_label.setText(text)
        self.problem_label.setVisible(bool(text))

    def _push(self, command: QUndoCommand) -> None:
        assert self._document is not None
        self._say("")
        self._document.undo_stack.push(command)

    def _add(self) -> None:
        if self._document is None:
            return
        self._push(add_card_command(self._document))
        self.list.setCurrentRow(self.list.count() - 1)
        self.name_edit.setFocus()
        self.name_edit.selectAll()

    def _remove(self) -> None:
        index = self.list.currentRow()
        if self._document is None or index < 0:
            return
        self._push(remove_card_command(self._document, index))

    def _change(self, **values: Any) -> None:
        doc, index = self._document, self.list.currentRow()
        if doc is None or not 0 <= index < len(doc.scenario.weapons):
            return
        current = doc.scenario.weapons[index].to_json()
        if all(current.get(k) == v for k, v in values.items()):
            return
        try:
            command = change_card_command(doc, index, **values)
        except (ScenarioFormatError, ModelError) as exc:
            problems = getattr(exc, "problems", None)
            text = "; ".join(p.message for p in problems) if problems else str(exc)
            self._show_card()  # the fields go back to the card as it is
            self._say(f"Not changed: {text}.")
            return
        self._push(command)

    def _commit_name(self) -> None:
        if not self.name_edit.isModified():
            return
        self.name_edit.setModified(False)
        self._change(name=self.name_edit.text().strip())

    def _toggle_mode(self, _mode: FireMode) -> None:
        modes = [m.value for m, check in self.mode_checks.items() if check.isChecked()]
        if not modes:
            self._show_card()
            self._say("Not changed: a weapon needs at least one fire mode.")
            return
        self._change(modes=modes)

    def commit_pending(self) -> None:
        """Push a typed but unconfirmed name (the selection moved on by keyboard)."""
        self._commit_name()
