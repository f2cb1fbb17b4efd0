"""The properties dock: the selected feature's or figure's properties, editable in place.

Every edit goes through the one generic mergeable :class:`~ui.commands.ChangeValueCommand`
(the Tiled pattern), so typing several Rep values in a row is a single undo
step.  The dock binds both ways: it listens to the document's ``model_changed``
and ``selection_changed`` and writes model values into its widgets with their
signals blocked, so a refresh can never push a command back (the napari
pattern, no feedback loop).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from crdesk import limits
from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind
from crdesk.limits import COORD_MARGIN
from crdesk.model import (
    REP_MAX,
    REP_MIN,
    Building,
    CoverObstacle,
    CoverType,
    Figure,
    MeleeWeapon,
    Role,
    Status,
    TerrainFeature,
    WeaponCode,
)
from crdesk.tables import weapon_stats
from ui.commands import ChangeFiguresCommand, ChangeForceCommand, ChangeValueCommand
from ui.docks._common import disconnect_quietly, signals_blocked
from ui.docks.weapon_cards import (
    FigureCardRow,
    WeaponCardsEditor,
    set_weapon_command,
    set_weapons_command,
)
from ui.document import Document

MAX_FLOORS = 9
"""Upper bound of the floors spin box; taller buildings are not a skirmish table."""

TOOLTIPS: dict[str, str] = {
    "kind": "What the feature is (terrain types, 9.4). Draw a new feature to change it.",
    "feature_name": "The feature's name, used in the issues list and in LOS reasons.",
    "floors": "Floors of the building (Buildings, 8.1): each floor above the ground adds areas.",
    "areas": (
        'Building areas, roughly 6" x 6" each at 28mm (8.1). '
        "Split or join them with the building tool (B, then A)."
    ),
    "cover_type": "What the obstacle is; all give Cover to a figure behind them (7.9.5).",
    "figure_name": "The figure's name, as the roster and the dice log show it.",
    "role": (
        "Star or Grunt (5): the Star is the player's figure and has the Star "
        "advantages (5.2); Grunts are driven by the reaction tests."
    ),
    "rep": (
        f"Reputation, 5: 5 veteran or elite, 4 reliable and trained, 3 unknown quality. "
        f"Never below 2 ({REP_MIN}..{REP_MAX} here)."
    ),
    "weapon": "Ranged weapon from the Weapons table (7.9): its range and Target.",
    "melee": "Melee weapon (7.11.1): one-hand +1d6, two-hand +2d6 in melee.",
    "status": "Status (7.8), best to worst: Carry On … Obviously Dead.",
    "facing": (
        "Facing in degrees, clockwise from the far edge (1). The front is the 180° "
        "half plane ahead of the figure; LOS is only to the front (7.9.4)."
    ),
    "prone": "Prone (7.4.3): movement ends until next active; standing up costs half a move.",
    "out_of_ammo": "Out of ammo (Tight Ammo, 7.9.2): the figure must reload before it fires.",
    "force": "The force (side) the figure belongs to (6.1); pick another to move it there.",
    "position": "Where the figure stands: inches from the far-left corner, and its section (1). "
    "Type x and y to move it, e.g. back onto the table.",
}

_MELEE_LABELS = {
    MeleeWeapon.NONE: "None",
    MeleeWeapon.ONE_HAND: "One-hand weapon",
    MeleeWeapon.TWO_HAND: "Two-hand weapon",
}


def _weapon_label(code: WeaponCode, old_school: bool) -> tuple[str, str]:
    """Combo text and tooltip for a weapon: "AR — Assault Rifle", "48", Target 3"."""
    if code is WeaponCode.NONE:
        return "Unarmed", "No ranged weapon: Outgunned Ranking 0 (7.9.1)."
    try:
        stats = weapon_stats(code, old_school)
    except KeyError:
        return code.value, ""
    label = f"{code.value} — {stats.name}"
    if code is WeaponCode.BAP and not old_school:
        label += " (Old School)"
    target = "blast" if stats.blast else f"Target {stats.target}"
    tip = f'{stats.name}: range {stats.range}", {target}'
    if stats.notes:
        tip += f". {stats.notes}"
    return label, tip


def _fill_combo(combo: QComboBox, items: list[tuple[str, Enum, str]]) -> None:
    combo.clear()
    for text, value, tip in items:
        combo.addItem(text, value)
        if tip:
            combo.setItemData(combo.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)


def _combo_value(combo: QComboBox, kind: type[Enum]) -> Enum:
    """The current item's enum member; Qt hands a StrEnum back as a plain str."""
    return kind(combo.currentData())


def _set_combo(combo: QComboBox, value: Any) -> None:
    index = combo.findData(value)
    if index != combo.currentIndex():
        combo.setCurrentIndex(index)


def _form() -> QFormLayout:
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    form.setContentsMargins(8, 8, 8, 8)
    form.setVerticalSpacing(6)
    return form


def _row(form: QFormLayout, label: str, widget: QWidget, tip: str) -> None:
    widget.setToolTip(tip)
    caption = QLabel(label)
    caption.setToolTip(tip)
    caption.setBuddy(widget)
    form.addRow(caption, widget)


class _Form(QWidget):
    """A form bound to one item of a document; subclasses fill in and read back fields."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document: Document | None = None
        self.item_id: str | None = None

    def show_item(self, document: Document, item_id: str) -> None:
        self.document = document
        self.item_id = item_id
        self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError

    def _push(self, name: str, value: Any) -> None:
        """Push one ChangeValueCommand, unless the model already holds that value."""
        doc, item_id = self.document, self.item_id
        if doc is None or item_id is None:
            return
        if getattr(self._model_item(), name) == value:
            return
        doc.undo_stack.push(ChangeValueCommand(doc, item_id, name, value))

    def _model_item(self) -> Any:
        raise NotImplementedError

    def _commit_name(self, edit: QLineEdit) -> None:
        # editingFinished fires on Enter and again on focus loss; _push ignores repeats.
        if self.item_id is not None:
            self._push("name", edit.text().strip())
        edit.setModified(False)

    def commit_pending(self) -> None:
        """Push a typed but unconfirmed name before the form moves to another item.

        Without this, a name typed and not yet confirmed with Enter would be lost
        when the selection changes by keyboard (focus never leaves the field).
        """
        edit = self.findChild(QLineEdit)
        if self.item_id is None or edit is None or not edit.isModified():
            return
        try:
            self._commit_name(edit)
        except ModelError:  # the item is gone: nothing left to rename
            edit.setModified(False)


class FeatureForm(_Form):
    """Kind, name, and the kind's own properties (building floors and areas, cover type)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = _form()
        self.setLayout(form)
        self.form = form
        self.kind_label = QLabel()
        self.kind_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(limits.NAME_CHARS)  # longer would not load again
        self.name_edit.setPlaceholderText("Unnamed")
        self.floors_spin = QSpinBox()
        self.floors_spin.setRange(1, MAX_FLOORS)
        self.areas_label = QLabel()
        self.cover_combo = QComboBox()
        _fill_combo(self.cover_combo, [(t.value.title(), t, "") for t in CoverType])
        _row(form, "Kind", self.kind_label, TOOLTIPS["kind"])
        _row(form, "Name", self.name_edit, TOOLTIPS["feature_name"])
        _row(form, "Floors", self.floors_spin, TOOLTIPS["floors"])
        _row(form, "Areas", self.areas_label, TOOLTIPS["areas"])
        _row(form, "Cover type", self.cover_combo, TOOLTIPS["cover_type"])
        self.name_edit.editingFinished.connect(lambda: self._commit_name(self.name_edit))
        self.floors_spin.valueChanged.connect(lambda v: self._push("floors", int(v)))
        self.cover_combo.currentIndexChanged.connect(
            lambda _i: self._push("cover_type", _combo_value(self.cover_combo, CoverType))
        )

    def _model_item(self) -> TerrainFeature:
        assert self.document is not None and self.item_id is not None
        return self.document.battlefield.feature(self.item_id)

    def refresh(self) -> None:
        feature = self._model_item()
        is_building = isinstance(feature, Building)
        is_cover = isinstance(feature, CoverObstacle)
        with signals_blocked(self.name_edit, self.floors_spin, self.cover_combo):
            self.kind_label.setText(feature.kind.label)
            if self.name_edit.text() != feature.name:
                self.name_edit.setText(feature.name)
            self.name_edit.setToolTip(f"{TOOLTIPS['feature_name']}\nId: {feature.id}")
            if isinstance(feature, Building):
                if self.floors_spin.value() != feature.floors:
                    self.floors_spin.setValue(feature.floors)
                count = len(feature.areas)
                self.areas_label.setText(f"{count} area{'s' if count != 1 else ''}")
            if isinstance(feature, CoverObstacle):
                _set_combo(self.cover_combo, feature.cover_type)
        self.form.setRowVisible(self.floors_spin, is_building)
        self.form.setRowVisible(self.areas_label, is_building)
        self.form.setRowVisible(self.cover_combo, is_cover)


class FigureForm(_Form):
    """A figure's stats (5, 7.9, 7.11.1), state (7.8, 7.4.3, 7.9.2), facing and force."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = _form()
        self.setLayout(form)
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(limits.NAME_CHARS)  # longer would not load again
        self.name_edit.setPlaceholderText("Unnamed")
        self.role_combo = QComboBox()
        _fill_combo(self.role_combo, [("Star", Role.STAR, ""), ("Grunt", Role.GRUNT, "")])
        self.rep_spin = QSpinBox()
        self.rep_spin.setRange(REP_MIN, REP_MAX)
        self.weapon_combo = QComboBox()
        self._weapons_old_school: bool | None = None
        self.melee_combo = QComboBox()
        _fill_combo(self.melee_combo, [(label, m, "") for m, label in _MELEE_LABELS.items()])
        self.status_combo = QComboBox()
        _fill_combo(self.status_combo, [(s.label, s, "") for s in Status])
        self.facing_spin = QDoubleSpinBox()
        self.facing_spin.setRange(0.0, 359.9)
        self.facing_spin.setDecimals(1)
        self.facing_spin.setSingleStep(5.0)
        self.facing_spin.setWrapping(True)
        self.facing_spin.setSuffix("°")
        self.facing_spin.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
        self.prone_check = QCheckBox("Prone")
        self.ammo_check = QCheckBox("Out of ammo")
        self.prone_check.setToolTip(TOOLTIPS["prone"])
        self.ammo_check.setToolTip(TOOLTIPS["out_of_ammo"])
        state = QWidget()
        state_row = QVBoxLayout(state)
        state_row.setContentsMargins(0, 0, 0, 0)
        state_row.setSpacing(2)
        state_row.addWidget(self.prone_check)
        state_row.addWidget(self.ammo_check)
        self.force_combo = QComboBox()
        self.force_combo.setToolTip(TOOLTIPS["force"])
        self.force_label = QLabel()
        self.force_label.setTextFormat(Qt.TextFormat.RichText)
        self.force_label.setWordWrap(True)
        force_box = QWidget()
        force_rows = QVBoxLayout(force_box)
        force_rows.setContentsMargins(0, 0, 0, 0)
        force_rows.setSpacing(2)
        force_rows.addWidget(self.force_combo)
        force_rows.addWidget(self.force_label)
        self.position_label = QLabel()
        self.x_spin, self.y_spin = _coordinate_spin("x"), _coordinate_spin("y")
        position_box = QWidget()
        position_rows = QGridLayout(position_box)  # x and y, the section below them
        position_rows.setContentsMargins(0, 0, 0, 0)
        position_rows.setSpacing(2)
        position_rows.addWidget(self.x_spin, 0, 0)
        position_rows.addWidget(self.y_spin, 0, 1)
        position_rows.addWidget(self.position_label, 1, 0, 1, 2)
        _row(form, "Name", self.name_edit, TOOLTIPS["figure_name"])
        _row(form, "Star / Grunt", self.role_combo, TOOLTIPS["role"])
        _row(form, "Rep", self.rep_spin, TOOLTIPS["rep"])
        _row(form, "Weapon", self.weapon_combo, TOOLTIPS["weapon"])
        self.card_row = FigureCardRow()
        _row(form, "Weapon card", self.card_row, self.card_row.combo.toolTip())
        _row(form, "Melee", self.melee_combo, TOOLTIPS["melee"])
        _row(form, "Status", self.status_combo, TOOLTIPS["status"])
        _row(form, "Facing", self.facing_spin, TOOLTIPS["facing"])
        form.addRow("", state)
        _row(form, "Force", force_box, TOOLTIPS["force"])
        self.force_combo.activated.connect(self._change_force)
        _row(form, "Position", position_box, TOOLTIPS["position"])
        for widget in (self.x_spin, self.y_spin, self.position_label):
            widget.setToolTip(TOOLTIPS["position"])

        self.name_edit.editingFinished.connect(lambda: self._commit_name(self.name_edit))
        self.rep_spin.valueChanged.connect(lambda v: self._push("rep", int(v)))
        self.facing_spin.valueChanged.connect(lambda v: self._push("facing", float(v)))
        self.prone_check.toggled.connect(lambda on: self._push("prone", bool(on)))
        self.ammo_check.toggled.connect(lambda on: self._push("out_of_ammo", bool(on)))
        self.x_spin.valueChanged.connect(lambda v: self._push("x", float(v)))
        self.y_spin.valueChanged.connect(lambda v: self._push("y", float(v)))
        combos: list[tuple[QComboBox, str, type[Enum]]] = [
            (self.role_combo, "role", Role),
            (self.melee_combo, "melee", MeleeWeapon),
            (self.status_combo, "status", Status),
        ]
        for combo, name, kind in combos:
            combo.currentIndexChanged.connect(self._combo_slot(combo, name, kind))
        # a new category drops a weapon card of another one (FD §2)
        self.weapon_combo.currentIndexChanged.connect(self._change_weapon)

    def _change_weapon(self, _index: int) -> None:
        doc, item_id = self.document, self.item_id
        weapon = _combo_value(self.weapon_combo, WeaponCode)
        if doc is None or item_id is None or self._model_item().weapon == weapon:
            return
        doc.undo_stack.push(set_weapon_command(doc, item_id, WeaponCode(weapon)))

    def _combo_slot(self, combo: QComboBox, name: str, kind: type[Enum]) -> Callable[[int], None]:
        def changed(_index: int) -> None:
            self._push(name, _combo_value(combo, kind))

        return changed

    def _model_item(self) -> Figure:
        assert self.document is not None and self.item_id is not None
        return self.document.battlefield.figure(self.item_id)

    def _commit_name(self, edit: QLineEdit) -> None:
        if self.item_id is not None and not edit.text().strip():
            # a figure must have a name (the model refuses an empty one): put it back
            edit.setText(self._model_item().name)
            edit.setModified(False)
            return
        super()._commit_name(edit)

    def _change_force(self, index: int) -> None:
        doc, item_id = self.document, self.item_id
        force_id = self.force_combo.itemData(index)
        if doc is None or item_id is None or force_id == self._model_item().side:
            return
        doc.undo_stack.push(ChangeForceCommand(doc, item_id, str(force_id)))

    def _fill_weapons(self, old_school: bool) -> None:
        """Label weapons from table 7.9, or 16.0 when the scenario plays Old School."""
        if self._weapons_old_school == old_school:
            return
        self._weapons_old_school = old_school
        items: list[tuple[str, Enum, str]] = []
        for code in WeaponCode:
            label, tip = _weapon_label(code, old_school)
            items.append((label, code, tip))
        _fill_combo(self.weapon_combo, items)

    def refresh(self) -> None:
        assert self.document is not None
        figure = self._model_item()
        doc = self.document
        widgets = (
            self.name_edit,
            self.role_combo,
            self.rep_spin,
            self.weapon_combo,
            self.melee_combo,
            self.status_combo,
            self.facing_spin,
            self.prone_check,
            self.ammo_check,
        )
        with signals_blocked(*widgets):
            self._fill_weapons(doc.scenario.rules.old_school)
            if self.name_edit.text() != figure.name:
                self.name_edit.setText(figure.name)
            self.name_edit.setToolTip(f"{TOOLTIPS['figure_name']}\nId: {figure.id}")
            _set_combo(self.role_combo, figure.role)
            if self.rep_spin.value() != figure.rep:
                self.rep_spin.setValue(figure.rep)
            _set_combo(self.weapon_combo, figure.weapon)
            _set_combo(self.melee_combo, figure.melee)
            _set_combo(self.status_combo, figure.status)
            if abs(self.facing_spin.value() - figure.facing) > 0.049:
                self.facing_spin.setValue(figure.facing)
            self.prone_check.setChecked(figure.prone)
            self.ammo_check.setChecked(figure.out_of_ammo)
        with signals_blocked(self.force_combo):
            self.force_combo.clear()
            for f in doc.battlefield.forces:
                self.force_combo.addItem(f.name, f.id)
            self.force_combo.setCurrentIndex(self.force_combo.findData(figure.side))
        try:
            force = doc.battlefield.force(figure.side)
        except ModelError:
            self.force_label.setText("—")
        else:
            who = "player" if force.player else "non-player"
            self.force_label.setText(
                f'<span style="color:{force.colour}">■</span> '
                f'<span style="color:{_muted(self)}">{force.band.value.title()}, {who}</span>'
            )
        self.card_row.show_figure(doc, figure.id)
        section = doc.battlefield.section_at(figure.x, figure.y)
        where = f"section {section}" if section else "off the table"
        self.position_label.setText(where)
        table = doc.battlefield.table
        with signals_blocked(self.x_spin, self.y_spin):
            for spin, value, size in (
                (self.x_spin, figure.x, table.width),
                (self.y_spin, figure.y, table.height),
            ):
                spin.setRange(-COORD_MARGIN, size + COORD_MARGIN)
                if abs(spin.value() - value) > 0.049:
                    spin.setValue(value)


def _coordinate_spin(axis: str) -> QDoubleSpinBox:
    """An x or y box in inches; the value is sent on Enter or an arrow step, not per key."""
    spin = QDoubleSpinBox()
    spin.setDecimals(1)
    spin.setSingleStep(0.5)
    spin.setPrefix(f"{axis} ")
    spin.setSuffix('"')
    spin.setKeyboardTracking(False)
    spin.setAccessibleName(f"Position {axis}")
    return spin


def _muted(widget: QWidget) -> str:
    """Text blended half into the background: secondary text in rich-text labels.

    Rich text drops a colour's alpha, so the placeholder colour (text at half
    alpha) cannot be used as is; this is the same shade, made opaque.
    """
    palette = widget.palette()
    text = palette.color(QPalette.ColorRole.WindowText)
    back = palette.color(QPalette.ColorRole.Window)
    r, g, b = ((x + y) // 2 for x, y in zip(_rgb(text), _rgb(back), strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _rgb(colour: QColor) -> tuple[int, int, int]:
    return colour.red(), colour.green(), colour.blue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


MIXED = "—"
"""What a multi-selection field shows while the selected figures differ."""


class MultiFigureForm(QWidget):
    """Rep, weapon, status and force for every selected figure at once (one undo step each)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document: Document | None = None
        self.ids: list[str] = []
        form = _form()
        self.setLayout(form)
        self.rep_combo = QComboBox()
        self.weapon_combo = QComboBox()
        self.status_combo = QComboBox()
        self.force_combo = QComboBox()
        _row(form, "Rep", self.rep_combo, TOOLTIPS["rep"])
        _row(form, "Weapon", self.weapon_combo, TOOLTIPS["weapon"])
        _row(form, "Status", self.status_combo, TOOLTIPS["status"])
        _row(form, "Force", self.force_combo, TOOLTIPS["force"])
        self.rep_combo.activated.connect(lambda i: self._set("rep", self.rep_combo.itemData(i)))
        self.weapon_combo.activated.connect(
            lambda i: self._set("weapon", self.weapon_combo.itemData(i))
        )
        self.status_combo.activated.connect(
            lambda i: self._set("status", self.status_combo.itemData(i))
        )
        self.force_combo.activated.connect(self._set_force)

    def show_figures(self, document: Document, ids: list[str]) -> None:
        self.document, self.ids = document, list(ids)
        self.refresh()

    def refresh(self) -> None:
        doc = self.document
        assert doc is not None
        bf = doc.battlefield
        figures = [bf.figure(i) for i in self.ids]
        old_school = doc.scenario.rules.old_school
        fill: list[tuple[QComboBox, list[tuple[str, Any]], set[Any]]] = [
            (
                self.rep_combo,
                [(str(r), r) for r in range(REP_MIN, REP_MAX + 1)],
                {f.rep for f in figures},
            ),
            (
                self.weapon_combo,
                [(_weapon_label(c, old_school)[0], c) for c in WeaponCode],
                {f.weapon for f in figures},
            ),
            (self.status_combo, [(s.label, s) for s in Status], {f.status for f in figures}),
            (
                self.force_combo,
                [(f.name, f.id) for f in bf.forces],
                {f.side for f in figures},
            ),
        ]
        for combo, items, values in fill:
            with signals_blocked(combo):
                combo.clear()
                for text, value in items:
                    combo.addItem(text, value)
                if len(values) == 1:
                    combo.setCurrentIndex(combo.findData(next(iter(values))))
                else:
                    combo.insertItem(0, MIXED, None)
                    combo.setCurrentIndex(0)

    def _set(self, name: str, value: Any) -> None:
        doc = self.document
        if doc is None or value is None:
            return
        bf = doc.battlefield
        ids = [i for i in self.ids if getattr(bf.figure(i), name) != value]
        if ids and name == "weapon":  # cards of another category go (FD §2)
            doc.undo_stack.push(set_weapons_command(doc, ids, WeaponCode(value)))
        elif ids:
            doc.undo_stack.push(ChangeFiguresCommand(doc, ids, name, value))

    def _set_force(self, index: int) -> None:
        doc, force_id = self.document, self.force_combo.itemData(index)
        if doc is None or force_id is None:
            return
        bf = doc.battlefield
        moving = [i for i in self.ids if bf.figure(i).side != force_id]
        if not moving:
            return
        doc.undo_stack.beginMacro(f"Move {len(moving)} Figures to {bf.force(force_id).name}")
        for i in moving:
            doc.undo_stack.push(ChangeForceCommand(doc, i, str(force_id)))
        doc.undo_stack.endMacro()


class PropertiesDock(QDockWidget):
    """The selection's properties: an editable form for one item, a summary otherwise."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Properties", parent)
        self.setObjectName("PropertiesDock")
        self._document: Document | None = None
        self._current: str | None = None
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary_label.setContentsMargins(10, 10, 10, 10)
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.feature_form = FeatureForm()
        self.figure_form = FigureForm()
        self.multi_form = MultiFigureForm()
        self.heading = QLabel()
        self.heading.setContentsMargins(10, 8, 10, 0)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.stack = QStackedWidget()
        for page in (self.summary_label, self.feature_form, self.figure_form):
            self.stack.addWidget(page)
        self.multi_form.hide()
        self.weapon_cards = WeaponCardsEditor()
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.heading)
        layout.addWidget(self.stack)
        layout.addWidget(self.multi_form)
        layout.addWidget(self.weapon_cards)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(scroll)
        self.set_document(document)

    # -- binding ----------------------------------------------------------------

    @property
    def document(self) -> Document | None:
        return self._document

    def set_document(self, document: Document | None) -> None:
        """Follow another open document (or none), e.g. when the window switches tabs."""
        if self._document is not None:
            disconnect_quietly(self._document, "model_changed", self._on_model_changed)
            disconnect_quietly(self._document, "selection_changed", self._show_selection)
        self._document = document
        if document is not None:
            document.model_changed.connect(self._on_model_changed)
            document.selection_changed.connect(self._show_selection)
        self.weapon_cards.set_document(document)
        self._show_selection()

    def current_id(self) -> str | None:
        """The id of the item the form edits, or None when the summary shows."""
        return self._current

    # -- refresh ----------------------------------------------------------------

    def _on_model_changed(self, change: Change) -> None:
        if self.multi_form.isVisibleTo(self) and change.what in ("figure", "figures", "force"):
            self._show_selection()
            return
        if self._current is None:
            if change.kind in (ChangeKind.ADDED, ChangeKind.REMOVED, ChangeKind.RESET):
                self._show_selection()
            return
        if change.kind in (ChangeKind.REMOVED, ChangeKind.RESET) or change.what in (
            "force",
            "scenario",  # rules settings: Old School renames the weapons (16)
        ):
            self._show_selection()
        elif self._current in change.item_ids:  # its own change, or a batch naming it
            self._refresh_form()

    def _refresh_form(self) -> None:
        doc, item_id = self._document, self._current
        assert doc is not None and item_id is not None
        page = self.stack.currentWidget()
        if isinstance(page, _Form):
            try:
                page.refresh()
            except ModelError:  # the item went away under us (a reset)
                self._show_selection()
                return
        name = self._item_name(item_id)
        self.heading.setText(name)

    def _item_name(self, item_id: str) -> str:
        assert self._document is not None
        bf = self._document.battlefield
        try:
            feature = bf.feature(item_id)
        except ModelError:
            figure = bf.figure(item_id)
            role = "Star" if figure.is_star else "Grunt"
            return f"{figure.name or figure.id} — {role}, Rep {figure.rep}"
        return f"{feature.name or feature.id} — {feature.kind.label}"

    def _show_selection(self) -> None:
        for page in (self.feature_form, self.figure_form):
            page.commit_pending()
        doc = self._document
        selection = doc.selection if doc is not None else []
        if doc is not None and len(selection) == 1:
            item_id = selection[0]
            bf = doc.battlefield
            form: _Form
            if any(f.id == item_id for f in bf.terrain):
                form = self.feature_form
            else:
                form = self.figure_form
            self._current = item_id
            self.stack.setCurrentWidget(form)
            form.show_item(doc, item_id)
            self.heading.setText(self._item_name(item_id))
            self.heading.show()
            self.multi_form.hide()
            return
        self._current = None
        self.feature_form.item_id = self.figure_form.item_id = None
        self.heading.hide()
        self.stack.setCurrentWidget(self.summary_label)
        self.summary_label.setText(self._summary(selection))
        figure_ids = set(doc.battlefield.figure_ids()) if doc is not None else set()
        if doc is not None and len(selection) > 1 and all(i in figure_ids for i in selection):
            self.multi_form.show_figures(doc, selection)
            self.multi_form.show()
        else:
            self.multi_form.hide()

    def _summary(self, selection: list[str]) -> str:
        """A few words on a multiple (or empty) selection; editing needs a single item."""
        doc = self._document
        if doc is None:
            return "No table is open."
        muted = _muted(self)
        bf = doc.battlefield
        if not selection:
            features, figures = len(bf.terrain), sum(1 for _ in bf.figures())
            return (
                "<b>Nothing selected.</b><br>Click a feature or a figure on the table, "
                f"or a figure in the Roster, to edit it.<br><br>"
                f"<span style='color:{muted}'>The table: "
                f'{bf.table.width:g}" × {bf.table.height:g}", '
                f"{_plural(features, 'feature')}, {_plural(figures, 'figure')}.</span>"
            )
        feature_ids = {f.id for f in bf.terrain}
        n_features = sum(1 for i in selection if i in feature_ids)
        n_figures = len(selection) - n_features
        parts = []
        if n_features:
            parts.append(_plural(n_features, "feature"))
        if n_figures:
            parts.append(_plural(n_figures, "figure"))
        names = [self._short_name(i) for i in selection[:6]]
        more = f", … (+{len(selection) - 6})" if len(selection) > 6 else ""
        return (
            f"<b>{len(selection)} items selected</b>: {' and '.join(parts)}.<br>"
            f"{_escape(', '.join(names))}{more}<br><br>"
            f"<span style='color:{muted}'>"
            + (
                "Set Rep, weapon, status or force for all of them below."
                if not n_features
                else "Select a single item, or only figures, to edit."
            )
            + "</span>"
        )

    def _short_name(self, item_id: str) -> str:
        assert self._document is not None
        bf = self._document.battlefield
        try:
            return bf.feature(item_id).name or item_id
        except ModelError:
            return bf.figure(item_id).name or item_id
