"""Qt-free change events: the model announces what changed, observers refresh just that."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"
    RESET = "reset"


@dataclass(frozen=True, slots=True)
class Change:
    """One model change: what kind of thing (``feature``, ``figure``, ``force``), which id."""

    kind: ChangeKind
    what: str
    id: str
    revision: int


Listener = Callable[[Change], None]


class Subject:
    """A minimal observable: the GUI subscribes; the core never knows who listens."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

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
