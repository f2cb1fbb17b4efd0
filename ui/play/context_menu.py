"""The figure's and the table's context menu in play mode, and the keys of its entries.

A right-click on a figure of the active group lists what it might do -- Move,
Fast Move, Prone/Stand, Reload, Ready grenade, Drop wounded, Change floor, Exit
the table, Pick up wounded, Capture/Dispatch -- each judged by the controller
(:meth:`crdesk.game.Game.legal`) when the menu opens: the legal ones are
enabled, the refused ones are shown disabled with the controller's reason as
their tooltip.  Change floor and Exit are listed only where they can apply (in a
building; at the side's edge).  A right-click on the table offers the same for
the selected figure, with "Move here".  The menu's title names the figure beside its
group's colour, the ring it wears on the table.  Every entry has a key that acts on the
selected figure (Fast Move on the whole group); the keys already taken in play
mode are E (end activation), P (pass), Enter (the default), C (charge) and G
(throw), so grenades are readied with Shift+G.  With the Firearms Detail rules,
a figure with a blast weapon has "Indirect fire…" (I: the rings follow the mouse,
FD §10) and every armed figure "Ready weapon" (W, FD §4).

The menu holds no rules: it only builds actions and asks the controller.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import QMenu

from crdesk.game import firearms_view
from crdesk.game.actions import (
    Action,
    Capture,
    ChangeFloor,
    Dispatch,
    Drop,
    Exit,
    FastMove,
    Indirect,
    Move,
    MoveTo,
    Pickup,
    Prone,
    Ready,
    Reload,
    Stand,
)
from crdesk.model import Status
from ui.play.group_colours import group_colours, group_icon
from ui.play.text import figure_names

if TYPE_CHECKING:
    from ui.play.move_tool import MoveTool

KEYS: dict[str, str] = {
    "move": "M",
    "fast": "F",
    "prone": "Ctrl+P",
    "reload": "R",
    "ready": "Shift+G",
    "drop": "D",
    "floor_up": "PgUp",
    "floor_down": "PgDown",
    "exit": "X",
    "pickup": "U",
    "capture": "K",
    "dispatch": "Shift+K",
    "indirect": "I",
    "ready_weapon": "W",
}
"""The entry keys (the menu's shortcuts), by entry kind."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the menu: what it says, what it would play and why it may not."""

    kind: str
    """One of :data:`KEYS` (or ``"move_here"``): stable for tests and shortcuts."""
    text: str
    action: Action | None
    """What the entry plays; None for "Move…", "Charge…", "Throw grenade…" and
    "Indirect fire…", which wait for a click on the table."""
    reason: str | None = None
    """The controller's refusal (None: the entry is enabled)."""

    @property
    def enabled(self) -> bool:
        return self.reason is None


def figure_entries(legal: Callable[[Action], str | None], tool: MoveTool, fid: str) -> list[Entry]:
    """The menu of ``fid`` (a figure of the active group), judged by ``legal`` now."""
    game = tool.session.game
    fig = game.battlefield.figure(fid)
    name = figure_names(game)
    out: list[Entry] = []

    def add(kind: str, text: str, action: Action | None, reason: str | None = None) -> None:
        if action is not None and reason is None:
            reason = legal(action)
        out.append(Entry(kind, text, action, reason))

    here = Move(fid, ((fig.x, fig.y),))
    add("move", "Move…", None, legal(here))
    refused = tool.last_refused_plan  # a drop beyond reach: as far along its route as it gets
    if refused is not None and refused[0] == fid and refused[1].farthest is not None:
        x, y = refused[1].farthest
        spot = (round(x, 2), round(y, 2))
        add("farthest", f"Move as far as possible (to {x:.1f}, {y:.1f})", MoveTo(fid, spot))
    add("fast", "Fast Move (the group)", _fast_move(tool, fid))
    if fig.prone:
        add("prone", "Stand up", Stand(fid))
    else:
        add("prone", "Go prone", Prone(fid))
    add("reload", "Reload", Reload(fid))
    add("charge", "Charge…", None, tool.aim.may_act(fid, "charge"))
    add("ready", "Ready grenade", Ready(fid))
    if game.flags(fid).get("grenade") is not None:  # a readied grenade (7.10)
        add("throw", "Throw grenade…", None, tool.aim.may_act(fid, "throw"))
    panel = firearms_view.weapon_panel(game, fid)  # None: Firearms Detail off, or unarmed
    if panel is not None:
        add("ready_weapon", 'Ready weapon (2" of movement)', Ready(fid, weapon=True))
        if panel.card.stats(game.rules.old_school).blast:  # FD §10: the RL category
            why = tool.aim.may_act(fid, "indirect") or firearms_view.indirect_problem(game, fid)
            add("indirect", "Indirect fire…", None, why)
    add("drop", "Drop wounded", Drop(fid))
    floor = int(game.flags(fid).get("floor") or 1)
    up, down = ChangeFloor(fid, floor + 1), ChangeFloor(fid, floor - 1)
    up_why = legal(up)
    if floor > 1 or up_why is None:  # in a building
        add("floor_up", f"Up to floor {floor + 1}", up, up_why)
        if floor > 1:
            add("floor_down", f"Down to floor {floor - 1}", down)
    exit_why = legal(Exit(fid))
    if exit_why is None:
        add("exit", "Exit the table", Exit(fid))
    friends = _down(tool, fid, same_side=True)
    if not friends:
        add("pickup", "Pick up wounded", Pickup(fid, fid), "no friend is Out of the Fight")
    else:
        picks = [(w, legal(Pickup(fid, w))) for w in friends]
        for w, why in picks:
            if why is None:
                add("pickup", f"Pick up {name(w)}", Pickup(fid, w), None)
        if all(why is not None for _, why in picks):
            add("pickup", f"Pick up {name(picks[0][0])}", Pickup(fid, picks[0][0]), picks[0][1])
    enemies = _down(tool, fid, same_side=False)
    if not enemies:
        why = "no enemy is Out of the Fight"
        add("capture", "Capture", Capture(fid, fid), why)
        add("dispatch", "Dispatch", Dispatch(fid, fid), why)
    else:
        target = next((e for e in enemies if legal(Capture(fid, e)) is None), enemies[0])
        add("capture", f"Capture {name(target)}", Capture(fid, target))
        add("dispatch", f"Dispatch {name(target)}", Dispatch(fid, target))
    return out


def _fast_move(tool: MoveTool, fid: str) -> Action:
    """The group's Fast Move as the controller offers it (all who may), else ``fid``'s."""
    decision = tool.session.awaiting()
    for option in decision.options if decision is not None else ():
        if isinstance(option, FastMove):
            return option
    return FastMove((fid,))


def _down(tool: MoveTool, fid: str, *, same_side: bool) -> list[str]:
    """Friends (or enemies) Out of the Fight, nearest first: who might be carried or taken."""
    bf = tool.session.game.battlefield
    me = bf.figure(fid)
    found = [
        f
        for f in bf.figures()
        if f.id != fid and (f.side == me.side) == same_side and f.status is Status.OUT_OF_THE_FIGHT
    ]
    found.sort(key=lambda f: math.dist((f.x, f.y), (me.x, me.y)))
    return [f.id for f in found]


class ActionMenu(QObject):
    """The context menu and the keys, for the move tool's view."""

    def __init__(self, tool: MoveTool) -> None:
        super().__init__(tool)
        self.tool = tool
        self.menu: QMenu | None = None
        """The menu open last (kept for tests; a new right-click replaces it)."""
        self.entries: list[Entry] = []
        """The entries of that menu."""
        self.last_reason: str | None = None
        """Why the last entry or key played nothing (None when it played)."""
        window = tool.view.window()
        self.shortcuts: dict[str, QAction] = {}
        for kind, keys in KEYS.items():
            action = QAction(f"{kind} ({keys})", window)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _checked=False, k=kind: self.key(k))
            window.addAction(action)
            self.shortcuts[kind] = action

    def detach(self) -> None:
        window = self.tool.view.window()
        for action in self.shortcuts.values():
            window.removeAction(action)
            action.deleteLater()
        self.shortcuts = {}
        if self.menu is not None:
            self.menu.close()
            self.menu = None

    # -- building --------------------------------------------------------------------

    def entries_for(self, fid: str | None, spot: QPointF | None = None) -> list[Entry]:
        """A figure's entries; on the table (``fid`` None) the selected figure's, with
        "Move here" to ``spot`` first."""
        legal = self.tool.session.legal
        chosen = fid if fid is not None else self.tool.selected
        if chosen is None or chosen not in self.tool.movable():
            return []
        out = figure_entries(legal, self.tool, chosen)
        if fid is None and spot is not None:
            move = Move(chosen, ((round(spot.x(), 2), round(spot.y(), 2)),))
            name = figure_names(self.tool.session.game)(chosen)
            out.insert(0, Entry("move_here", f"Move {name} here", move, legal(move)))
        return out

    def popup(self, fid: str | None, spot: QPointF, global_pos: QPoint) -> QMenu | None:
        """Open the menu of ``fid`` (or of the table at ``spot``); None when it has nothing."""
        entries = self.entries_for(fid, spot)
        if not entries:
            self.tool.show_message(
                "Right-click a figure of the active group (or select one first) for its actions"
            )
            return None
        if fid is not None:
            self.tool.select(fid)
        if self.menu is not None:
            self.menu.close()
        game = self.tool.session.game
        menu = QMenu(self.tool.view)
        menu.setToolTipsVisible(True)
        _grey_when_disabled(menu)
        chosen = fid or self.tool.selected
        assert chosen is not None
        title = menu.addAction(figure_names(game)(chosen))
        title.setEnabled(False)
        ring = group_colours(game).of_figure(chosen)  # its group's colour, as on the table
        if ring is not None:
            side = QColor(game.battlefield.force(game.battlefield.figure(chosen).side).colour)
            title.setIcon(group_icon(side, ring))
            title.setData(ring.name())
        menu.addSeparator()
        for entry in entries:
            keys = KEYS.get(entry.kind)
            text = f"{entry.text}\t{QKeySequence(keys).toString()}" if keys else entry.text
            action = menu.addAction(text)
            action.setObjectName(entry.kind)
            action.setEnabled(entry.enabled)
            tip = entry.reason if entry.reason is not None else _tip(entry)
            action.setToolTip(tip)
            action.setStatusTip(tip)
            action.triggered.connect(lambda _checked=False, e=entry, f=chosen: self.run(e, f))
        self.menu = menu
        self.entries = entries
        menu.popup(global_pos)
        return menu

    # -- acting --------------------------------------------------------------------

    def run(self, entry: Entry, fid: str) -> None:
        """Play an entry (or start the click-to-move of "Move…")."""
        if entry.reason is not None:
            self.last_reason = entry.reason
            self.tool.show_message(f"{entry.text}: {entry.reason}")
            return
        if entry.action is None:
            self.last_reason = None
            if entry.kind == "charge":  # hover an enemy for the odds, click it (C)
                self.last_reason = self.tool.start_charge(fid)
            elif entry.kind == "throw":  # the blast circle follows the mouse (G)
                self.last_reason = self.tool.start_throw(fid)
            elif entry.kind == "indirect":  # the rings follow the mouse (I, FD §10)
                self.last_reason = self.tool.start_indirect(fid)
            else:
                self.tool.arm_move(fid)
            return
        reason = self.tool.session.play(entry.action)
        self.last_reason = reason
        if entry.kind == "farthest" and reason is None:
            self.tool.last_refused_plan = None
        if reason is not None:
            self.tool.show_message(f"{entry.text}: {reason}")
        else:
            self.tool.show_message(f"{figure_names(self.tool.session.game)(fid)}: {entry.text}")

    def key(self, kind: str) -> None:
        """A shortcut: the entry ``kind`` for the selected figure, judged now."""
        fid = self.tool.selected
        if fid is None or fid not in self.tool.movable():
            self.last_reason = "no figure of the active group is selected"
            self.tool.show_message(
                f"{QKeySequence(KEYS[kind]).toString()}: select a figure of the active group "
                "first (click it)"
            )
            return
        entries = figure_entries(self.tool.session.legal, self.tool, fid)
        entry = next((e for e in entries if e.kind == kind), None)
        if entry is None:  # an entry listed only where it applies: the controller's no
            floor = int(self.tool.session.game.flags(fid).get("floor") or 1)
            fig = self.tool.session.game.fig(fid)
            hidden: dict[str, Action] = {
                "exit": Exit(fid),
                "floor_up": ChangeFloor(fid, floor + 1),
                "floor_down": ChangeFloor(fid, floor - 1),
                "indirect": Indirect(fid, (fig.x, fig.y)),
                "ready_weapon": Ready(fid, weapon=True),
            }
            action = hidden.get(kind)
            why = self.tool.session.legal(action) if action is not None else None
            self.last_reason = why or "not possible here"
            self.tool.show_message(f"{QKeySequence(KEYS[kind]).toString()}: {self.last_reason}")
            return
        self.run(entry, fid)


def _grey_when_disabled(menu: QMenu) -> None:
    """Refused entries must look refused: the theme's palette sets one text colour for
    every colour group, so the disabled group gets a colour half way to the background."""
    palette = menu.palette()
    group = QPalette.ColorGroup
    back = palette.color(group.Active, QPalette.ColorRole.Window)
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        text = palette.color(group.Active, role)
        mid = QColor(
            (text.red() + back.red()) // 2,
            (text.green() + back.green()) // 2,
            (text.blue() + back.blue()) // 2,
        )
        palette.setColor(group.Disabled, role, mid)
    menu.setPalette(palette)


def _tip(entry: Entry) -> str:
    if entry.kind == "move":
        return "Then click where the figure should go (or just drag it)"
    if entry.kind == "fast":
        return "Roll the group's Fast Move before anyone moves (7.4.2)"
    if entry.kind == "indirect":
        return "Then click an unseen spot in range: the rings of FD §9 follow the mouse (FD §10)"
    return f"Legal now: {entry.action}" if entry.action is not None else ""
