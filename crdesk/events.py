"""Qt-free change events: the model announces what changed, observers refresh just that."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"
    RESET = "reset"


@dataclass(frozen=True, slots=True)
class Change:
    """One model change: what kind of thing (``feature``, ``figure``, ``force``), which id.

    ``what`` is ``"figures"`` for a batch of figure edits (one event for several
    figures, :meth:`~crdesk.model.Battlefield.update_figures`, or a
    :meth:`~crdesk.model.Battlefield.restore` that kept the rosters): then
    ``id`` is empty and ``ids`` names the figures that changed.  A RESET with
    ``what == "figures"`` means every figure and force may have changed (the
    terrain did not); a RESET of ``"battlefield"`` means the terrain did too.

    ``fields`` names the fields an edit actually changed, with their values
    before and after in ``old`` and ``new`` (read-only mappings, field name to
    value; for a batch, figure id to such a mapping).  Events that add, remove
    or reset things carry no fields and ``None`` for both.
    """

    kind: ChangeKind
    what: str
    id: str
    revision: int
    fields: tuple[str, ...] = ()
    old: Mapping[str, Any] | None = field(default=None, hash=False)
    new: Mapping[str, Any] | None = field(default=None, hash=False)
    ids: tuple[str, ...] = ()

    @property
    def item_ids(self) -> tuple[str, ...]:
        """The ids this change names: ``ids`` for a batch, else ``(id,)`` (none for a reset)."""
        if self.ids:
            return self.ids
        return (self.id,) if self.id else ()


Listener = Callable[[Change], None]


class Subject:
    """A minimal observable: the GUI subscribes; the core never knows who listens.

    Listeners belong to the object, not to its state: a pickled or deep-copied
    subject starts with none (the services listening to the original stay with
    the original, and a listener closure need not be picklable).
    """

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_listeners"] = []
        return state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns a function that removes it again."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)
