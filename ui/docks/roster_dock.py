"""The roster dock: each force with its figures, and a palette of new-figure templates.

A player sets out forces by dragging a template ("Grunt, Rep 4, AR") from the
palette onto the table.  The drag carries plain JSON under
:data:`FIGURE_MIME` rather than a Python object, so the drop side
(:func:`figure_from_mime`, :func:`install_drop_target`) parses it defensively
like any outside data and the same drag could cross between two windows.
Dropping pushes one :class:`~ui.commands.AddFigureCommand`, so undo removes the
figure again.  Clicking a figure in the roster selects it in the document,
and the roster follows the document's selection back, with signals blocked.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QMimeData,
    QModelIndex,
    QObject,
    QPointF,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QDrag,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QColorDialog,
    QDockWidget,
    QGraphicsEllipseItem,
    QGraphicsView,
    QHeaderView,
    QInputDialog,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind
from crdesk.model import (
    REP_MAX,
    REP_MIN,
    BandType,
    Battlefield,
    Figure,
    Force,
    MeleeWeapon,
    Role,
    Status,
    WeaponCode,
)
from ui.commands import (
    AddFigureCommand,
    ChangeForceCommand,
    RemoveItemsCommand,
    add_force_command,
    change_force_command,
    delete_force_command,
)
from ui.docks._common import disconnect_quietly, figure_icon, signals_blocked, swatch_icon
from ui.document import Document
from ui.plain_text import plain_tooltip

FORCE_COLOURS = ("#1f5fbf", "#b8321f", "#2f8f3a", "#8a4fb5", "#c7861a", "#37474f")
"""Colours offered to new forces in turn (distinct from each other in both themes)."""

STATUS_MARKS: dict[Status, str] = {
    Status.DUCK_BACK: "Duck Back",
    Status.OUT_OF_THE_FIGHT: "OOF",
    Status.OBVIOUSLY_DEAD: "Dead",
}

FIGURE_MIME = "application/x-crdesk-figure"
"""MIME type of a figure template being dragged: JSON ``{"force": id, "template": {...}}``."""

BAND_WEAPONS: dict[BandType, WeaponCode] = {
    BandType.MILITARY: WeaponCode.AR,
    BandType.POLICE: WeaponCode.P,
    BandType.GANGER: WeaponCode.P,
    BandType.GUERILLA: WeaponCode.AR,
    BandType.MILITIA: WeaponCode.AR,
}
"""A new figure's weapon by band type (6.1: "a sensible default per band type")."""

TEMPLATE_REPS = (3, 4, 5)
"""Grunt Reps offered by the palette (5): average, reliable, veteran."""

STAR_REP = 5
"""The Star starts at Rep 5 (5)."""

GHOST_Z = 1_000_000.0
"""Above every layer of the scene while a template is dragged over the table."""

_KIND = Qt.ItemDataRole.UserRole
_ID = Qt.ItemDataRole.UserRole + 1
_TEMPLATE = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True, slots=True)
class FigureTemplate:
    """The stats a palette entry gives a new figure (5, 7.9, 7.11.1)."""

    name: str
    role: Role
    rep: int
    weapon: WeaponCode
    melee: MeleeWeapon = MeleeWeapon.NONE
    base: float = 1.0

    def to_json(self) -> dict[str, Any]:
        """The ``template`` part of the drag's JSON."""
        return {
            "name": self.name,
            "role": self.role.value,
            "rep": self.rep,
            "weapon": self.weapon.value,
            "melee": self.melee.value,
            "base": self.base,
        }

    @property
    def label(self) -> str:
        return f"New {self.name}"

    @property
    def details(self) -> str:
        return f"Rep {self.rep} · {_weapon_text(self.weapon)}"


def templates_for(force: Force) -> list[FigureTemplate]:
    """The palette of a force: a Star, then Grunts of Rep 3, 4 and 5 with the band's weapon."""
    weapon = BAND_WEAPONS.get(force.band, WeaponCode.AR)
    star = FigureTemplate("Star", Role.STAR, STAR_REP, weapon)
    grunts = [FigureTemplate("Grunt", Role.GRUNT, rep, weapon) for rep in TEMPLATE_REPS]
    return [star, *grunts]


def figure_mime(force_id: str, template: FigureTemplate | dict[str, Any]) -> QMimeData:
    """Drag data for placing a new figure of a template in a force."""
    body = template.to_json() if isinstance(template, FigureTemplate) else dict(template)
    mime = QMimeData()
    payload = json.dumps({"force": force_id, "template": body}).encode()
    mime.setData(FIGURE_MIME, QByteArray(payload))
    return mime


def _read_payload(mime_data: QMimeData) -> tuple[str, dict[str, Any]] | None:
    if not mime_data.hasFormat(FIGURE_MIME):
        return None
    try:
        data = json.loads(bytes(mime_data.data(FIGURE_MIME).data()).decode())
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    force, template = data.get("force"), data.get("template")
    if not isinstance(force, str) or not isinstance(template, dict):
        return None
    return force, template


def _unique_name(battlefield: Battlefield, name: str) -> str:
    """ "Grunt", then "Grunt 2", "Grunt 3": the roster stays readable without renaming."""
    used = {f.name for f in battlefield.figures()}
    if name not in used:
        return name
    n = 2
    while f"{name} {n}" in used:
        n += 1
    return f"{name} {n}"


def figure_from_mime(
    mime_data: QMimeData, battlefield: Battlefield, x: float, y: float
) -> tuple[str, Figure] | None:
    """A new figure (fresh id, unique name) from dragged template data, standing at x, y.

    Returns ``(force_id, figure)`` for :class:`~ui.commands.AddFigureCommand`, or
    None when the data is not a figure template, names a force this battlefield
    lacks, or holds a value the model would refuse (an unknown weapon, Rep out of
    range).  A figure without a facing faces the far edge for the player's force
    and the player's edge for the others (deployment, 12).
    """
    payload = _read_payload(mime_data)
    if payload is None:
        return None
    force_id, t = payload
    try:
        force = battlefield.force(force_id)
    except ModelError:
        return None
    try:
        rep = t.get("rep", 4)
        if isinstance(rep, bool) or not isinstance(rep, int) or not REP_MIN <= rep <= REP_MAX:
            return None
        role = Role(t.get("role", Role.GRUNT.value))
        weapon = WeaponCode(t.get("weapon", BAND_WEAPONS[force.band].value))
        melee = MeleeWeapon(t.get("melee", MeleeWeapon.NONE.value))
        base = float(t.get("base", 1.0))
        default_facing = 0.0 if force.player else 180.0
        facing = float(t.get("facing", default_facing)) % 360.0
        name = str(t.get("name") or ("Star" if role is Role.STAR else "Grunt"))
    except (ValueError, TypeError):
        return None
    if not (math.isfinite(base) and base > 0 and math.isfinite(facing)):
        return None
    figure = Figure(
        id=battlefield.new_id("figure"),
        name=_unique_name(battlefield, name),
        rep=rep,
        role=role,
        weapon=weapon,
        melee=melee,
        x=float(x),
        y=float(y),
        facing=facing,
        base=base,
    )
    return force.id, figure


def _weapon_text(code: WeaponCode) -> str:
    return "unarmed" if code is WeaponCode.NONE else code.value


# --------------------------------------------------------------------------
# The dock


class RosterTree(QTreeWidget):
    """The roster's tree: forces, their figures, and draggable templates."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setHeaderHidden(True)
        # the names get the room they need; the details column takes what is left
        # and is the one elided (its tooltip says it all) when the dock is narrow
        self.header().setStretchLastSection(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.setIndentation(14)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(False)
        self.setRootIsDecorated(True)

    def mimeTypes(self) -> list[str]:
        return [FIGURE_MIME]

    def mimeData(self, items: Any) -> QMimeData:
        """The first dragged template's data (only templates are draggable)."""
        for item in items:
            mime = template_mime(item)
            if mime is not None:
                return mime
        return QMimeData()

    def startDrag(self, supportedActions: Qt.DropAction) -> None:
        """Drag one template with its own figure icon, as a copy (the palette keeps it)."""
        item = self.currentItem()
        mime = template_mime(item) if item is not None else None
        if item is None or mime is None:
            return
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.setPixmap(item.icon(0).pixmap(32, 32))
        drag.exec(Qt.DropAction.CopyAction)


def template_mime(item: QTreeWidgetItem) -> QMimeData | None:
    """The drag data of a roster row, or None when the row is not a template."""
    if item.data(0, _KIND) != "template":
        return None
    return figure_mime(str(item.data(0, _ID)), json.loads(str(item.data(0, _TEMPLATE))))


class RosterDock(QDockWidget):
    """Forces and figures of the document, plus a palette of templates to drag onto the table."""

    figure_activated = Signal(str)
    """A figure row was double-clicked (or Enter pressed): e.g. centre the view on it."""

    def __init__(self, document: Document | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Roster", parent)
        self.setObjectName("RosterDock")
        self.tree = RosterTree()
        self.tree.setToolTip("")
        self.setWidget(self.tree)
        self._document: Document | None = None
        self._collapsed: set[str] = set()
        self.last_menu: QMenu | None = None
        self.tree.itemSelectionChanged.connect(self._on_tree_selection)
        self.tree.itemActivated.connect(self._on_activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._show_context_menu)
        self.tree.itemCollapsed.connect(lambda it: self._collapsed.add(str(it.data(0, _ID))))
        self.tree.itemExpanded.connect(lambda it: self._collapsed.discard(str(it.data(0, _ID))))
        self.set_document(document)

    # -- binding ----------------------------------------------------------------

    @property
    def document(self) -> Document | None:
        return self._document

    def set_document(self, document: Document | None) -> None:
        """Show another open document's forces (or none)."""
        if self._document is not None:
            disconnect_quietly(self._document, "model_changed", self._on_model_changed)
            disconnect_quietly(self._document, "selection_changed", self._follow_selection)
        self._document = document
        if document is not None:
            document.model_changed.connect(self._on_model_changed)
            document.selection_changed.connect(self._follow_selection)
        self.rebuild()

    # -- queries (also for tests) ---------------------------------------------------

    def force_item(self, force_id: str) -> QTreeWidgetItem | None:
        return next((t for t in self._forces() if t.data(0, _ID) == force_id), None)

    def _forces(self) -> list[QTreeWidgetItem]:
        tops = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [t for t in tops if t is not None]

    def figure_item(self, figure_id: str) -> QTreeWidgetItem | None:
        for item in self._rows("figure"):
            if item.data(0, _ID) == figure_id:
                return item
        return None

    def template_items(self, force_id: str) -> list[QTreeWidgetItem]:
        return [t for t in self._rows("template") if t.data(0, _ID) == force_id]

    def _rows(self, kind: str) -> list[QTreeWidgetItem]:
        rows = []
        for top in self._forces():
            for j in range(top.childCount()):
                child = top.child(j)
                if child is not None and child.data(0, _KIND) == kind:
                    rows.append(child)
        return rows

    # -- building the tree ----------------------------------------------------------

    def rebuild(self) -> None:
        """Re-create every row: forces or figures came or went."""
        with signals_blocked(self.tree):
            self.tree.clear()
            doc = self._document
            if doc is None:
                return
            for force in doc.battlefield.forces:
                self.tree.addTopLevelItem(self._force_row(force))
            for top in self._forces():
                top.setExpanded(str(top.data(0, _ID)) not in self._collapsed)
            # No focus frame on a row nobody picked.
            self.tree.setCurrentIndex(QModelIndex())
        self._follow_selection()

    def _force_row(self, force: Force) -> QTreeWidgetItem:
        row = QTreeWidgetItem([force.name or force.id, _force_details(force)])
        row.setData(0, _KIND, "force")
        row.setData(0, _ID, force.id)
        row.setIcon(0, swatch_icon(force.colour))
        font = QFont(self.tree.font())
        font.setBold(True)
        row.setFont(0, font)
        row.setForeground(1, self.tree.palette().placeholderText())
        tip = (
            f"{force.name}: {force.band.value.title()} band (6.1), "
            f"{'run by the player' if force.player else 'a non-player force'}."
        )
        row.setToolTip(0, plain_tooltip(tip))  # names are the user's text (issue 17)
        row.setToolTip(1, plain_tooltip(tip))
        row.setFlags(Qt.ItemFlag.ItemIsEnabled)
        for figure in force.figures:
            row.addChild(self._figure_row(force, figure))
        for template in templates_for(force):
            row.addChild(self._template_row(force, template))
        return row

    def _figure_row(self, force: Force, figure: Figure) -> QTreeWidgetItem:
        row = QTreeWidgetItem()
        row.setData(0, _KIND, "figure")
        row.setData(0, _ID, figure.id)
        row.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        self._sync_figure_row(row, force, figure)
        return row

    def _sync_figure_row(self, row: QTreeWidgetItem, force: Force, figure: Figure) -> None:
        row.setText(0, figure.name or figure.id)
        row.setText(1, _figure_details(figure))
        row.setIcon(0, figure_icon(force.colour, star=figure.is_star))
        state = figure.status.label
        tip = (
            f"{figure.name or figure.id}: {'Star' if figure.is_star else 'Grunt'}, "
            f"Rep {figure.rep}, {_weapon_text(figure.weapon)}; {state}.\n"
            "Click to select it on the table."
        )
        row.setToolTip(0, plain_tooltip(tip))  # names are the user's text (issue 17)
        row.setToolTip(1, plain_tooltip(tip))
        dim = not figure.status.can_act
        row.setForeground(0, self.tree.palette().placeholderText() if dim else QBrush())

    def _template_row(self, force: Force, template: FigureTemplate) -> QTreeWidgetItem:
        row = QTreeWidgetItem([template.label, template.details])
        row.setData(0, _KIND, "template")
        row.setData(0, _ID, force.id)
        row.setData(0, _TEMPLATE, json.dumps(template.to_json()))
        row.setIcon(0, figure_icon(force.colour, template=True))
        font = QFont(self.tree.font())
        font.setItalic(True)
        row.setFont(0, font)
        muted = self.tree.palette().placeholderText()
        row.setForeground(0, muted)
        row.setForeground(1, muted)
        tip = (
            f"Drag onto the table to add a {template.name} (Rep {template.rep}, "
            f"{_weapon_text(template.weapon)}) to {force.name}."
        )
        row.setToolTip(0, plain_tooltip(tip))  # names are the user's text (issue 17)
        row.setToolTip(1, plain_tooltip(tip))
        row.setFlags(
            Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
        )
        return row

    # -- model and selection ------------------------------------------------------

    def _on_model_changed(self, change: Change) -> None:
        if change.what in ("figure", "figures") and change.kind is ChangeKind.CHANGED:
            doc = self._document
            for figure_id in change.item_ids:  # one figure, or a batch of them
                row = self.figure_item(figure_id)
                if row is not None and doc is not None:
                    try:
                        figure = doc.battlefield.figure(figure_id)
                        force = doc.battlefield.force(figure.side)
                    except ModelError:
                        self.rebuild()
                        return
                    self._sync_figure_row(row, force, figure)
            return
        if change.what in ("figure", "force") or change.kind is ChangeKind.RESET:
            self.rebuild()

    def _on_tree_selection(self) -> None:
        """Select the clicked figures on the table; templates and forces leave it alone."""
        doc = self._document
        if doc is None:
            return
        ids = [
            str(item.data(0, _ID))
            for item in self.tree.selectedItems()
            if item.data(0, _KIND) == "figure"
        ]
        if ids:
            doc.set_selection(ids)

    def _follow_selection(self) -> None:
        """Mirror the document's selection, with the tree's signals blocked (no loop)."""
        doc = self._document
        selected = set(doc.selection) if doc is not None else set()
        with signals_blocked(self.tree):
            current: QTreeWidgetItem | None = None
            for row in self._rows("figure"):
                on = row.data(0, _ID) in selected
                row.setSelected(on)
                if on and current is None:
                    current = row
            for row in self._rows("template"):
                row.setSelected(False)
            if current is not None:
                self.tree.scrollToItem(current)

    # -- forces: context menu and edits ----------------------------------------------

    def _show_context_menu(self, pos: Any) -> None:
        menu = self.context_menu(self.tree.itemAt(pos))
        if menu is not None:
            self.last_menu = menu
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(self.tree.viewport().mapToGlobal(pos))

    def context_menu(self, item: QTreeWidgetItem | None) -> QMenu | None:
        """The menu for a roster row (a force, a figure) or for the empty roster."""
        doc = self._document
        if doc is None:
            return None
        menu = QMenu(self.tree)
        kind = item.data(0, _KIND) if item is not None else None
        if kind == "figure" and item is not None:
            figure_id = str(item.data(0, _ID))
            ids = [i for i in doc.selection if i in doc.battlefield.figure_ids()] or [figure_id]
            if figure_id not in ids:
                ids = [figure_id]
            move = menu.addMenu("Move to Force")
            for force in doc.battlefield.forces:
                action = move.addAction(force.name)
                action.setEnabled(any(doc.battlefield.figure(i).side != force.id for i in ids))
                action.triggered.connect(
                    lambda _c=False, f=force.id, i=tuple(ids): self.move_to_force(list(i), f)
                )
            delete = menu.addAction("Delete" if len(ids) == 1 else f"Delete {len(ids)} Figures")
            delete.triggered.connect(
                lambda _c=False, i=tuple(ids): doc.undo_stack.push(RemoveItemsCommand(doc, list(i)))
            )
            menu.addSeparator()
            item = item.parent()
            kind = "force"
        if kind in ("force", "template") and item is not None:
            top = item if kind == "force" else item.parent()
            assert top is not None
            force = doc.battlefield.force(str(top.data(0, _ID)))
            menu.addAction("Rename Force…").triggered.connect(
                lambda _c=False, f=force.id: self.ask_rename(f)
            )
            band = menu.addMenu("Band Type")
            for value in BandType:
                action = band.addAction(value.value.title())
                action.setCheckable(True)
                action.setChecked(value is force.band)
                action.triggered.connect(
                    lambda _c=False, f=force.id, b=value: self.set_force(f, band=b)
                )
            menu.addAction("Colour…").triggered.connect(
                lambda _c=False, f=force.id: self.ask_colour(f)
            )
            player = menu.addAction("Run by the Player")
            player.setCheckable(True)
            player.setChecked(force.player)
            player.setToolTip("The side the player runs; the others are the program's (6.1)")
            player.triggered.connect(
                lambda on=False, f=force.id: self.set_force(f, player=bool(on))
            )
            menu.addAction("Delete Force").triggered.connect(
                lambda _c=False, f=force.id: self.delete_force(f)
            )
            menu.addSeparator()
        menu.addAction("Add Force…").triggered.connect(lambda: self.ask_add_force())
        return menu

    def add_force(self, name: str, band: BandType = BandType.MILITARY) -> str:
        """Add an empty force (undoable); returns its id."""
        doc = self._document
        assert doc is not None
        colour = FORCE_COLOURS[len(doc.battlefield.forces) % len(FORCE_COLOURS)]
        command = add_force_command(doc, name, band, colour)
        doc.undo_stack.push(command)
        return doc.battlefield.forces[-1].id

    def ask_add_force(self) -> None:
        doc = self._document
        if doc is None:
            return
        n = len(doc.battlefield.forces) + 1
        name, ok = QInputDialog.getText(self, "Add force", "Name:", text=f"Force {n}")
        if ok and name.strip():
            self.add_force(name.strip())

    def ask_rename(self, force_id: str) -> None:
        doc = self._document
        if doc is None:
            return
        old = doc.battlefield.force(force_id).name
        name, ok = QInputDialog.getText(self, "Rename force", "Name:", text=old)
        if ok and name.strip() and name.strip() != old:
            self.set_force(force_id, name=name.strip())

    def ask_colour(self, force_id: str) -> None:
        doc = self._document
        if doc is None:
            return
        old = QColor(doc.battlefield.force(force_id).colour)
        colour = QColorDialog.getColor(old, self, "Force colour")
        if colour.isValid() and colour != old:
            self.set_force(force_id, colour=colour.name())

    def set_force(self, force_id: str, **values: Any) -> None:
        """Rename, re-band, recolour or hand a force to the player (undoable)."""
        if self._document is not None:
            self._document.undo_stack.push(change_force_command(self._document, force_id, **values))

    def delete_force(self, force_id: str) -> None:
        if self._document is not None:
            self._document.undo_stack.push(delete_force_command(self._document, force_id))

    def move_to_force(self, ids: list[str], force_id: str) -> None:
        doc = self._document
        if doc is None:
            return
        moving = [i for i in ids if doc.battlefield.figure(i).side != force_id]
        if not moving:
            return
        doc.undo_stack.beginMacro(
            f"Move {len(moving)} Figures to {doc.battlefield.force(force_id).name}"
            if len(moving) > 1
            else f"Move {doc.battlefield.figure(moving[0]).name} to "
            f"{doc.battlefield.force(force_id).name}"
        )
        for i in moving:
            doc.undo_stack.push(ChangeForceCommand(doc, i, force_id))
        doc.undo_stack.endMacro()

    def _on_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        if item.data(0, _KIND) == "figure":
            self.figure_activated.emit(str(item.data(0, _ID)))


def _figure_details(figure: Figure) -> str:
    """The roster's second column: Rep, weapon and what is wrong with the figure."""
    text = f"Rep {figure.rep} · {_weapon_text(figure.weapon)}"
    marks = [STATUS_MARKS[figure.status]] if figure.status in STATUS_MARKS else []
    if figure.status not in STATUS_MARKS and figure.status is not Status.CARRY_ON:
        marks.append(figure.status.label)
    if figure.prone:
        marks.append("Prone")
    if figure.out_of_ammo:
        marks.append("No ammo")
    return " · ".join([text, *marks])


def _force_details(force: Force) -> str:
    return f"{force.band.value.title()} · {'player' if force.player else 'non-player'}"


# --------------------------------------------------------------------------
# Dropping onto the table


class FigureDropTarget(QObject):
    """Accepts figure templates dropped on a view: a ghost base follows, the drop adds one.

    An event filter on the view's viewport, so the view and the scene need no
    knowledge of the roster; the lead installs it with :func:`install_drop_target`.
    """

    figure_dropped = Signal(str)
    """The id of the figure a drop just added."""

    def __init__(self, view: QGraphicsView, document: Document) -> None:
        super().__init__(view)
        self.view = view
        self.document = document
        self._ghost: QGraphicsEllipseItem | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragEnterEvent | QDragMoveEvent)
            return self._hover(event)
        if kind == QEvent.Type.DragLeave:
            self._remove_ghost()
            return False
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            return self._drop(event)
        return False

    def _scene_point(self, event: QDropEvent) -> QPointF:
        return self.view.mapToScene(event.position().toPoint())

    def _hover(self, event: QDropEvent) -> bool:
        point = self._scene_point(event)
        made = figure_from_mime(event.mimeData(), self.document.battlefield, point.x(), point.y())
        if made is None:
            self._remove_ghost()
            return False
        force_id, figure = made
        self._show_ghost(force_id, figure)
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        return True

    def _drop(self, event: QDropEvent) -> bool:
        self._remove_ghost()
        point = self._scene_point(event)
        made = figure_from_mime(event.mimeData(), self.document.battlefield, point.x(), point.y())
        if made is None:
            return False
        force_id, figure = made
        self.document.undo_stack.push(AddFigureCommand(self.document, force_id, figure))
        self.document.set_selection([figure.id])
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.figure_dropped.emit(figure.id)
        return True

    def _show_ghost(self, force_id: str, figure: Figure) -> None:
        scene = self.view.scene()
        if scene is None:
            return
        if self._ghost is None or self._ghost.scene() is not scene:
            self._ghost = QGraphicsEllipseItem()
            self._ghost.setZValue(GHOST_Z)
            self._ghost.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            scene.addItem(self._ghost)
        colour = QColor(self.document.battlefield.force(force_id).colour)
        # A light dashed rim reads on grass, woods and roofs alike; the fill is the force's.
        pen = QPen(QColor(255, 255, 255, 230), 0.09, Qt.PenStyle.DashLine)
        fill = QColor(colour)
        fill.setAlpha(170)
        r = figure.radius
        self._ghost.setRect(-r, -r, 2 * r, 2 * r)
        self._ghost.setPen(pen)
        self._ghost.setBrush(fill)
        self._ghost.setPos(figure.x, figure.y)

    def _remove_ghost(self) -> None:
        if self._ghost is not None:
            scene = self._ghost.scene()
            if scene is not None:
                scene.removeItem(self._ghost)
            self._ghost = None

    def has_ghost(self) -> bool:
        """Whether a drag preview is on the scene (for tests)."""
        return self._ghost is not None


def install_drop_target(view: QGraphicsView, document: Document) -> FigureDropTarget:
    """Let figure templates from the roster be dropped on a view showing the document.

    Positions map through ``view.mapToScene``; scene units are inches.  The
    returned filter is parented to the view and lives as long as it does.
    """
    target = FigureDropTarget(view, document)
    view.setAcceptDrops(True)
    view.viewport().setAcceptDrops(True)
    view.viewport().installEventFilter(target)
    return target
