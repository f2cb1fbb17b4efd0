"""Undo commands of the editor (the Tiled vocabulary: add…, remove…, move…, change…).

Commands change the **model** through its methods and never touch scene items;
the scene follows the model's change events.  A drag pushes one command on
release.  :class:`ChangeValueCommand` is the one generic, mergeable "set a
property" command the property panels use: continuous edits of the same
property merge into one undo step, and a step whose net change is nothing
makes itself obsolete and disappears from the stack.
"""

from __future__ import annotations

import copy
import dataclasses
import weakref
from typing import Any, cast

from PySide6.QtGui import QUndoCommand

from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind
from crdesk.model import (
    BandType,
    Battlefield,
    Figure,
    ForceState,
    GenerationRecord,
    Scenario,
    Table,
    TerrainFeature,
)
from ui.document import Document

_CHANGE_VALUE_ID = 1001
_NUDGE_ID = 1002


def item_label(battlefield: Battlefield, item_id: str) -> str:
    """The word for an item in undo texts: "Woods", "Building", or the figure's name."""
    for feature in battlefield.terrain:
        if feature.id == item_id:
            return feature.kind.label
    try:
        return battlefield.figure(item_id).name or "Figure"
    except ModelError:
        return "Figure"


_VALUE_LABELS = {
    "rep": "Rep",
    "out_of_ammo": "Out of Ammo",
    "star_power": "Star Power",
    "fast_moving": "Fast Move",
}
"""Words for the properties whose field names do not title-case well."""


def value_label(name: str) -> str:
    """The word for a property in undo texts: "Rep", "Weapon", "Out of Ammo"."""
    return _VALUE_LABELS.get(name, name.replace("_", " ").title())


def _change_text(who: str, name: str, value: Any) -> str:
    """The history entry of one property edit, naming the item: "Change Rep of Sgt. Mace".

    A name edit reads "Rename Cpl. Diaz to Sgt. Diaz" and a typed position
    "Move Sgt. Mace", like the same edits made on the table.
    """
    if name == "name":
        return f"Rename {who} to {value}" if value else f"Clear the Name of {who}"
    if name in ("x", "y"):
        return f"Move {who}"
    return f"Change {value_label(name)} of {who}"


def _items_label(battlefield: Battlefield, ids: list[str]) -> str:
    if len(ids) == 1:
        return item_label(battlefield, ids[0])
    return f"{len(ids)} Items"


def _held_weakly(document: Document) -> Document:
    """The document a command edits, held weakly.

    The document owns the undo stack that owns its commands, so it always
    outlives them; a strong reference back would put the document in a
    reference cycle, and see :func:`ui.document._weak_listener` for why it must
    never be in one.
    """
    return cast(Document, weakref.proxy(document))


class AddFeatureCommand(QUndoCommand):
    """Add a terrain feature (drawn, pasted, or generated)."""

    def __init__(self, document: Document, feature: TerrainFeature, index: int | None = None):
        super().__init__(f"Add {feature.kind.label}")
        self._doc = _held_weakly(document)
        self._feature = feature
        self._index = index

    def redo(self) -> None:
        self._doc.battlefield.add_feature(self._feature, self._index)

    def undo(self) -> None:
        self._doc.battlefield.remove_feature(self._feature.id)


class AddFigureCommand(QUndoCommand):
    """Place a new figure in a force."""

    def __init__(self, document: Document, force_id: str, figure: Figure):
        super().__init__(f"Add {figure.name or 'Figure'}")
        self._doc = _held_weakly(document)
        self._force_id = force_id
        self._figure = figure

    def redo(self) -> None:
        self._doc.battlefield.add_figure(self._force_id, self._figure)

    def undo(self) -> None:
        self._doc.battlefield.remove_figure(self._figure.id)


class RemoveItemsCommand(QUndoCommand):
    """Delete features and figures; undo puts each back at its old place in the order."""

    def __init__(self, document: Document, ids: list[str]):
        super().__init__(f"Delete {_items_label(document.battlefield, ids)}")
        self._doc = _held_weakly(document)
        self._ids = list(ids)
        self._removed: list[tuple[str, Any, int, str]] = []

    def redo(self) -> None:
        bf = self._doc.battlefield
        feature_ids = {f.id for f in bf.terrain}
        self._removed = []
        for item_id in self._ids:
            if item_id in feature_ids:
                feature, index = bf.remove_feature(item_id)
                self._removed.append(("feature", feature, index, ""))
            else:
                figure = bf.figure(item_id)
                side = figure.side
                figure, index = bf.remove_figure(item_id)
                self._removed.append(("figure", figure, index, side))

    def undo(self) -> None:
        bf = self._doc.battlefield
        for what, item, index, side in reversed(self._removed):
            if what == "feature":
                bf.add_feature(item, index)
            else:
                bf.add_figure(side, item, index)


class MoveItemsCommand(QUndoCommand):
    """Move features by an offset and figures to new spots, as one undo step."""

    def __init__(
        self,
        document: Document,
        feature_offsets: dict[str, tuple[float, float]] | None = None,
        figure_moves: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]
        | None = None,
        text: str | None = None,
    ):
        ids = [*(feature_offsets or {}), *(figure_moves or {})]
        super().__init__(text or f"Move {_items_label(document.battlefield, ids)}")
        self._doc = _held_weakly(document)
        self._offsets = dict(feature_offsets or {})
        self._moves = dict(figure_moves or {})
        self._before: dict[str, dict[str, Any]] = {}

    def redo(self) -> None:
        bf = self._doc.battlefield
        for fid, (dx, dy) in self._offsets.items():
            # Keep the exact old geometry: moving back by -dx is not exact in floats.
            feature = bf.feature(fid)
            self._before[fid] = {
                name: getattr(feature, name)
                for name in ("outline", "crest", "areas", "openings")
                if hasattr(feature, name)
            }
            bf.move_feature(fid, dx, dy)
        for fid, (_old, (x, y, facing)) in self._moves.items():
            bf.move_figure(fid, x, y, facing)

    def undo(self) -> None:
        bf = self._doc.battlefield
        for fid, values in self._before.items():
            bf.update_feature(fid, **values)
        for fid, ((x, y, facing), _new) in self._moves.items():
            bf.move_figure(fid, x, y, facing)


class ChangeValueCommand(QUndoCommand):
    """Set one property of a feature or figure; merges with the next edit of the same one."""

    def __init__(self, document: Document, item_id: str, name: str, value: Any, text: str = ""):
        bf = document.battlefield
        self._is_feature = any(f.id == item_id for f in bf.terrain)
        target: Any = bf.feature(item_id) if self._is_feature else bf.figure(item_id)
        self._who = item_label(bf, item_id)
        self._named = not text
        """The text is ours (it names the new name of a rename): kept up to date on merges."""
        super().__init__(text or _change_text(self._who, name, value))
        self._doc = _held_weakly(document)
        self._id = item_id
        self._name = name
        self._old = copy.deepcopy(getattr(target, name))
        self._new = value
        self._session = document.edit_session

    def id(self) -> int:
        return _CHANGE_VALUE_ID

    def _apply(self, value: Any) -> None:
        bf = self._doc.battlefield
        if self._is_feature:
            bf.update_feature(self._id, **{self._name: value})
        else:
            bf.update_figure(self._id, **{self._name: value})

    def redo(self) -> None:
        self._apply(self._new)
        self.setObsolete(_same_value(self._old, self._new))

    def undo(self) -> None:
        self._apply(self._old)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangeValueCommand):
            return False
        if (other._id, other._name, other._session) != (self._id, self._name, self._session):
            return False
        self._new = other._new
        if self._named and self._name == "name":
            self.setText(_change_text(self._who, self._name, self._new))
        self.setObsolete(_same_value(self._old, self._new))
        return True


def _same_value(a: Any, b: Any) -> bool:
    equals_exact = getattr(a, "equals_exact", None)
    if equals_exact is not None and type(a) is type(b):
        return bool(equals_exact(b, 0.0))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class ChangeFeatureCommand(QUndoCommand):
    """Set several properties of a feature at once (rotate, edit a vertex, redraw a crest).

    The old values are kept as they were, so undo is exact even where redoing
    the inverse edit would not be (rotations and float rounding).
    """

    def __init__(self, document: Document, feature_id: str, values: dict[str, Any], text: str):
        super().__init__(text)
        self._doc = _held_weakly(document)
        self._id = feature_id
        feature = document.battlefield.feature(feature_id)
        self._old = {name: copy.deepcopy(getattr(feature, name)) for name in values}
        self._new = dict(values)

    def redo(self) -> None:
        self._doc.battlefield.update_feature(self._id, **self._new)

    def undo(self) -> None:
        self._doc.battlefield.update_feature(self._id, **self._old)


class ReplaceTerrainCommand(QUndoCommand):
    """Put a whole new table of terrain down (Generate table…), keeping the forces."""

    def __init__(
        self,
        document: Document,
        table: Table,
        terrain: list[TerrainFeature],
        generation: GenerationRecord | None,
        text: str = "Generate Table",
    ):
        super().__init__(text)
        self._doc = _held_weakly(document)
        self._new = (table, list(terrain), generation)
        bf = document.battlefield
        self._old = (bf.table, bf.terrain, document.scenario.generation)

    def _apply(self, state: tuple[Table, list[TerrainFeature], GenerationRecord | None]) -> None:
        table, terrain, generation = state
        self._doc.scenario.generation = generation
        self._doc.battlefield.replace_terrain(table, terrain)

    def redo(self) -> None:
        self._apply(self._new)

    def undo(self) -> None:
        self._apply(self._old)


class ChangeForceCommand(QUndoCommand):
    """Move a figure to another force (it joins the end of that roster)."""

    def __init__(self, document: Document, figure_id: str, force_id: str):
        bf = document.battlefield
        super().__init__(f"Move {bf.figure(figure_id).name} to {bf.force(force_id).name}")
        self._doc = _held_weakly(document)
        self._id = figure_id
        self._to = force_id
        self._back: tuple[str, int] = (bf.figure(figure_id).side, 0)

    def redo(self) -> None:
        self._back = self._doc.battlefield.transfer_figure(self._id, self._to)

    def undo(self) -> None:
        force_id, index = self._back
        self._doc.battlefield.transfer_figure(self._id, force_id, index)


# -- forces -------------------------------------------------------------------


def _forces_now(document: Document) -> tuple[ForceState, ...]:
    return document.battlefield.snapshot().forces


def _put_forces(document: Document, forces: tuple[ForceState, ...]) -> None:
    """Set every force and roster by value, through the model's own restore.

    The snapshot is re-taken at each redo/undo so it names the terrain of the
    moment: terrain edits between two force edits never make it stale.
    """
    bf = document.battlefield
    bf.restore(dataclasses.replace(bf.snapshot(), forces=forces))


class ForcesCommand(QUndoCommand):
    """Add, rename, recolour, re-band or delete forces, or pick the player's force.

    It holds the forces before and after, by value; both directions go through
    :meth:`~crdesk.model.Battlefield.restore`, so a deleted force comes back with
    its figures where they stood.
    """

    def __init__(self, document: Document, forces: tuple[ForceState, ...], text: str):
        super().__init__(text)
        self._doc = _held_weakly(document)
        self._old = _forces_now(document)
        self._new = tuple(forces)

    def redo(self) -> None:
        _put_forces(self._doc, self._new)

    def undo(self) -> None:
        _put_forces(self._doc, self._old)


def add_force_command(document: Document, name: str, band: BandType, colour: str) -> ForcesCommand:
    """A new empty force, non-player unless it is the first."""
    forces = _forces_now(document)
    new_id = document.battlefield.new_id("force")
    state = ForceState(new_id, name, band, not forces, colour, ())
    return ForcesCommand(document, (*forces, state), f"Add Force {name}")


def change_force_command(document: Document, force_id: str, **values: Any) -> ForcesCommand:
    """Set a force's name, band, colour or player flag (one player force at a time)."""
    old = _forces_now(document)
    target = next(f for f in old if f.id == force_id)
    forces = []
    for state in old:
        if state.id == force_id:
            state = dataclasses.replace(state, **values)
        elif values.get("player"):
            state = dataclasses.replace(state, player=False)
        forces.append(state)
    if "name" in values:
        text = f"Rename {target.name} to {values['name']}"
    elif "player" in values:
        text = f"Player runs {target.name}" if values["player"] else f"Nobody runs {target.name}"
    elif "band" in values:
        text = f"{target.name}: {BandType(values['band']).value.title()} band"
    else:
        text = f"Recolour {target.name}"
    return ForcesCommand(document, tuple(forces), text)


def delete_force_command(document: Document, force_id: str) -> ForcesCommand:
    """Remove a force with all its figures (undo brings them back)."""
    old = _forces_now(document)
    target = next(f for f in old if f.id == force_id)
    forces = tuple(f for f in old if f.id != force_id)
    return ForcesCommand(document, forces, f"Delete Force {target.name}")


class ChangeFiguresCommand(QUndoCommand):
    """Set one property of several figures at once (a multi-selection edit), as one step."""

    def __init__(self, document: Document, ids: list[str], name: str, value: Any, text: str = ""):
        bf = document.battlefield
        who = item_label(bf, ids[0]) if len(ids) == 1 else f"{len(ids)} Figures"
        super().__init__(text or f"Change {value_label(name)} of {who}")
        self._doc = _held_weakly(document)
        self._old = {i: {name: copy.deepcopy(getattr(bf.figure(i), name))} for i in ids}
        self._new = {i: {name: value} for i in ids}

    def redo(self) -> None:
        self._doc.battlefield.update_figures(self._new)

    def undo(self) -> None:
        self._doc.battlefield.update_figures(self._old)


# -- scenario settings --------------------------------------------------------

SCENARIO_FIELDS = ("title", "description", "rules", "encounter")


def announce_scenario(document: Document) -> None:
    """Tell the views that the scenario's own settings changed (no battlefield change).

    The battlefield announces its own changes; title, description, rules and
    encounter live on the scenario, so the document's signal carries a
    ``"scenario"`` change for the window title, the checks and the sight lines.
    """
    rev = document.battlefield.revision
    document.model_changed.emit(Change(ChangeKind.CHANGED, "scenario", "", rev))


class ScenarioSettingsCommand(QUndoCommand):
    """Set the scenario's title, description, rules options and encounter as one step."""

    def __init__(self, document: Document, values: dict[str, Any], text: str = "Scenario Settings"):
        super().__init__(text)
        unknown = set(values) - set(SCENARIO_FIELDS)
        if unknown:
            raise ValueError(f"not a scenario setting: {sorted(unknown)}")
        self._doc = _held_weakly(document)
        self._old = {k: copy.deepcopy(getattr(document.scenario, k)) for k in values}
        self._new = dict(values)

    def _apply(self, values: dict[str, Any]) -> None:
        for key, value in values.items():
            setattr(self._doc.scenario, key, value)
        announce_scenario(self._doc)

    def redo(self) -> None:
        self._apply(self._new)
        self.setObsolete(self._old == self._new)

    def undo(self) -> None:
        self._apply(self._old)


class GenerateTableCommand(QUndoCommand):
    """Put a generated table down with the forces re-deployed, its encounter, title and text."""

    def __init__(
        self,
        document: Document,
        generated: Scenario,
        forces: tuple[ForceState, ...],
        text: str = "Generate Table",
    ):
        super().__init__(text)
        self._doc = _held_weakly(document)
        s = document.scenario
        bf = document.battlefield
        self._old = (bf.table, bf.terrain, _forces_now(document))
        self._old_fields = {k: getattr(s, k) for k in (*SCENARIO_FIELDS, "generation")}
        gbf = generated.battlefield
        self._new = (gbf.table, list(gbf.terrain), forces)
        self._new_fields = {
            "title": generated.title,
            "description": generated.description,
            "encounter": generated.encounter,
            "rules": dataclasses.replace(s.rules, scale=generated.rules.scale),
            "generation": generated.generation,
        }

    def _apply(self, state: tuple[Any, ...], fields: dict[str, Any]) -> None:
        table, terrain, forces = state
        for key, value in fields.items():
            setattr(self._doc.scenario, key, value)
        self._doc.battlefield.replace_terrain(table, list(terrain))
        _put_forces(self._doc, forces)
        announce_scenario(self._doc)

    def redo(self) -> None:
        self._apply(self._new, self._new_fields)

    def undo(self) -> None:
        self._apply(self._old, self._old_fields)


class NudgeCommand(MoveItemsCommand):
    """One arrow-key nudge; a run of nudges of the same items merges into one step."""

    def __init__(self, document: Document, ids: list[str], dx: float, dy: float, text: str):
        bf = document.battlefield
        feature_ids = {f.id for f in bf.terrain}
        offsets = {i: (dx, dy) for i in ids if i in feature_ids}
        moves = {}
        for i in ids:
            if i not in feature_ids:
                f = bf.figure(i)
                moves[i] = ((f.x, f.y, f.facing), (f.x + dx, f.y + dy, f.facing))
        super().__init__(document, offsets, moves, text)
        self._key = (tuple(ids), document.edit_session)
        self._runs: list[NudgeCommand] = []

    def id(self) -> int:
        return _NUDGE_ID

    def redo(self) -> None:
        super().redo()
        for run in self._runs:
            run.redo()

    def undo(self) -> None:
        for run in reversed(self._runs):
            run.undo()
        super().undo()

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, NudgeCommand) or other._key != self._key:
            return False
        self._runs.append(other)
        return True
