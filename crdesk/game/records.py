"""The plain records a game is made of: decisions, events, steps, frames and the outcome.

All of them are data (no closures): a frame stack of records can be saved in
the middle of a chain reaction and read back, and an event says everything a
player needs to check the program against the book.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from crdesk.game.actions import Action
from crdesk.model import EncounterResult

CHANCE = "chance"
"""The actor of a decision that waits for dice (OpenSpiel's chance player)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What the controller waits for: who decides, what about, and what is legal.

    ``options`` are the discrete legal actions; ``accepts`` names the action
    words that take parameters (``move`` to a point, ``fire`` at chosen
    targets, ...) and are judged by :meth:`Game.legal` when given.
    """

    step: int
    actor: str
    """A side (force id), or ``"chance"`` when dice are to be entered."""
    kind: str
    prompt: str
    section: str
    options: tuple[Action, ...] = ()
    accepts: tuple[str, ...] = ()
    frames: tuple[str, ...] = ()
    """The path of interrupt frames down to this decision, outermost first."""
    figure: str | None = None
    """The figure the decision is about, when there is one."""
    dice: int = 0
    """For a chance decision: how many d6 to roll."""
    default: Action | None = None
    """The book's choice (what a Grunt would do, 7.6.4; roll rather than Free Will;
    use Star Power): what one key plays in the GUI and what :class:`BookPolicy` picks."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "actor": self.actor,
            "kind": self.kind,
            "prompt": self.prompt,
            "section": self.section,
            "options": [str(o) for o in self.options],
            "accepts": list(self.accepts),
            "frames": list(self.frames),
            "figure": self.figure,
            "dice": self.dice,
            "default": None if self.default is None else str(self.default),
        }


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with its explanation (section, dice, the sentence)."""

    step: int
    kind: str
    section: str
    text: str
    figures: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    """The rules result as JSON data (target numbers, modifiers, table rows)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "kind": self.kind,
            "section": self.section,
            "text": self.text,
            "figures": list(self.figures),
            "dice": list(self.dice),
            "data": dict(self.data),
        }

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the history: who decided, the action's text, the dice it used."""

    actor: str
    action: str
    faces: tuple[int, ...] = ()
    why: str = ""
    """A policy's reason, kept for the log (replays never ask the policy again)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "action": self.action}
        if self.faces:
            out["faces"] = list(self.faces)
        if self.why:
            out["why"] = self.why
        return out


@dataclass(slots=True)
class Frame:
    """One level of the interrupt stack: turn, side, activation, In Sight, reaction, ...

    ``data`` holds only JSON values (str, int, float, bool, None, lists, dicts),
    so the stack can be saved and compared.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data}

    def label(self) -> str:
        who = self.data.get("figure") or self.data.get("side") or self.data.get("leader")
        return f"{self.kind}({who})" if who else self.kind


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the encounter ended."""

    winner: str | None
    """The side that won, or None for a draw."""
    reason: str
    turn: int
    won: bool | None = None
    """In an encounter (12): whether the player achieved the objective; else None."""
    next_encounter: str | None = None
    """In an encounter: the next one by the outcome table of 12 ("raid", ...)."""

    def result_for(self, side: str) -> EncounterResult:
        """The encounter's result for ``side`` (12): the objective decides when the game
        tracked one (an encounter the turn limit ended is not won), else the winner."""
        won = bool(self.won) if self.won is not None else self.winner == side
        if won:
            return EncounterResult.WON
        if self.winner is not None:
            return EncounterResult.LOST
        return EncounterResult.NOT_WON if self.won is not None else EncounterResult.DRAW

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "reason": self.reason, "turn": self.turn}
        if self.won is not None:
            out.update(won=self.won, next_encounter=self.next_encounter)
        return out


@dataclass(frozen=True, slots=True)
class Seat:
    """One person at the screen in a co-op game: who, on which side, and the figures
    whose groups are theirs (see :mod:`crdesk.game.seats`)."""

    name: str
    side: str
    figures: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "figures": list(self.figures)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            str(data.get("name", "")),
            str(data.get("side", "")),
            tuple(str(f) for f in data.get("figures", []) or []),
        )
