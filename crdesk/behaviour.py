"""How each side played, step by step: the behaviour rates of ``crdesk simulate``.

A win rate says who won; it does not say whether a side played the way a wargamer
would.  MegaMek's bot tests report what the bot *did* on a map it was never tuned
on ("woodline use nearly triples"); these are crdesk's rates, counted per side by
:class:`Behaviour` as the game is played (the simulator's ``on_step`` hook) and
summed over a batch by :func:`rates`:

* **moves** -- figures of the side that ended a step in which their side moved by
  choice (``move``, ``move group``, ``moveto``, Fast Move: 7.4, 7.5) away from
  where they stood.  A move is **contested** when an enemy figure that can act
  stands on the table (PEFs are not figures: a move with only PEFs about is
  counted, not judged).
* **safe** -- contested moves ending out of sight of every such enemy figure or in
  Cover from every one that sees it (7.9.4, 7.9.10: what a shot at it would be
  judged by), as it will stand once its activation is over: a figure that has just
  moved into woods or a building is only concealed while it counts as moving, and
  in Cover once it stops (7.9.5), so concealment there counts.  The share of
  contested moves.
* **exposure** -- enemy figures with LOS to the figure after its move (their front
  180°, 7.9.4), per contested move.
* **shuffles** -- moves under 1" that changed nothing: the same enemies see it and
  it is no safer or less safe than before.  The share of moves.
* **fired when possible** -- per figure activation (7.1): of the figures that, at
  some point in their group's activation, had a legal shot (the engine's book shot,
  7.9.7-7.9.8: a loaded weapon, an enemy in sight and in range, not fired yet),
  the share that fired or threw (7.9, 7.10) in that activation.  A shot is
  possible only where the figure could take it: at its group's own action decision,
  or at its In Sight action (7.6.4) -- not between a move and the In Sight test it
  triggers, which the enemy may win.  In Sight shots (7.6) in their own activation
  count; reactions in the other side's do not.
* **objectives** -- games in which the side reached its objective: the player's
  encounter won (12; in free play, the game won), the enemy's game won.
* **losses per kill** -- the side's figures lost per enemy figure it took out
  (from the batch's casualties, :func:`rates`).

Counting reads the game and never changes it: the results with and without it are
the same games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crdesk.game.actions import Action, FastMove, Fire, Move, MoveGroup, MoveTo
from crdesk.game.adapter import Sight
from crdesk.game.records import Decision, Event

if TYPE_CHECKING:
    from crdesk.game.controller import Game

COUNTS = (
    "moves",
    "contested",
    "safe",
    "exposure",
    "shuffles",
    "shots_possible",
    "fired",
    "objective",
)
"""What :class:`Behaviour` counts per side (see the module's text)."""

SHUFFLE = 1.0
"""A move shorter than this (inches) that changes nothing is a shuffle."""

_MOVES = (Move, MoveGroup, MoveTo, FastMove)
_SHOTS = frozenset({"fire", "throw"})


@dataclass(slots=True)
class _Activation:
    side: str
    members: frozenset[str]
    possible: set[str] = field(default_factory=set)
    fired: set[str] = field(default_factory=set)


class Behaviour:
    """Counts the behaviour rates of one game as it is played.

    Call :meth:`step` after every step (the arguments of
    :func:`crdesk.ai.policy.play_policies`' ``on_step``) and :meth:`finish` once the
    game is over; :attr:`counts` then holds, per side (force id), the numbers of
    :data:`COUNTS`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.counts: dict[str, dict[str, int]] = {
            side: dict.fromkeys(COUNTS, 0) for side in game.sides
        }
        self._where = self._positions()
        self._sight = game.sight()
        self._activation: _Activation | None = None

    def _positions(self) -> dict[str, tuple[float, float]]:
        return {f.id: (f.x, f.y) for f in self.game.battlefield.figures() if f.status.can_act}

    def _foes(self, side: str) -> list[str]:
        exited = set(self.game.state.get("exited", ()))
        return [f.id for f in self.game.alive(self.game.enemy_of(side)) if f.id not in exited]

    @staticmethod
    def _seen(sight: Sight, fid: str, foes: list[str]) -> tuple[int, bool] | None:
        """(enemies seeing ``fid``, whether it is safe from all of them) in ``sight``;
        None when the sight matrix does not hold every one of them."""
        if fid not in sight.pos or any(e not in sight.pos for e in foes):
            return None
        seen = [e for e in foes if sight.sees(e, fid)]
        return len(seen), all(sight.in_cover(e, fid) or sight.concealed(e, fid) for e in seen)

    def step(self, decision: Decision, action: Action, why: str, events: list[Event]) -> None:
        """Count what the step just played did (``decision`` and ``why`` unused: the
        signature is the simulator's hook's)."""
        del decision, why
        before, sight_before = self._where, self._sight
        self._where = self._positions()
        sight = self._sight = self.game.sight()
        for event in events:
            self._event(event)
        if isinstance(action, _MOVES):
            self._moves(before, sight_before, sight)
        self._chances()

    def _chances(self) -> None:
        """Note the figures of the active group that now have a shot to take: at the
        group's own action decision (its activation frame on top: no In Sight test,
        reaction or Duck Back pending), each figure with the book's shot; at an In
        Sight action (7.6.4), the figure deciding when a shot is among its options.  A
        figure that could shoot only between its move and an In Sight test it then
        lost never had the choice."""
        act = self._activation
        if act is None or not self.game.frames:
            return
        decision = self.game.awaiting()
        if decision is None:
            return
        if decision.kind == "in_sight_action":
            fid = decision.figure
            if fid in act.members and any(isinstance(o, Fire) for o in decision.options):
                act.possible.add(fid)
            return
        if decision.kind != "act" or self.game.frames[-1].kind != "activation":
            return
        # the decision offers each member that may fire now its book shot (7.9.7-7.9.8:
        # a loaded weapon, an enemy in sight and in range, not fired yet, not reloading,
        # not ducked back or outgunned): the engine's own, found once
        shooters = {o.figure for o in decision.options if isinstance(o, Fire)}
        act.possible |= shooters & act.members

    def _event(self, event: Event) -> None:
        if event.kind == "activate" and event.figures:
            self._close()
            side = self.game.fig(event.figures[0]).side
            self._activation = _Activation(side, frozenset(event.figures))
        elif event.kind in ("activation_end", "turn_end", "game_over"):
            self._close()
        elif event.kind in _SHOTS and event.figures and self._activation is not None:
            shooter = event.figures[0]
            if shooter in self._activation.members:
                self._activation.fired.add(shooter)
                self._activation.possible.add(shooter)

    def _close(self) -> None:
        act, self._activation = self._activation, None
        if act is not None:
            counts = self.counts[act.side]
            counts["shots_possible"] += len(act.possible)
            counts["fired"] += len(act.possible & act.fired)

    def _moves(
        self, before: dict[str, tuple[float, float]], sight_before: Sight, sight: Sight
    ) -> None:
        for fid, (x, y) in self._where.items():
            was = before.get(fid)
            if was is None or (x, y) == was:
                continue
            side = self.game.fig(fid).side
            counts = self.counts[side]
            counts["moves"] += 1
            foes = self._foes(side)
            after = self._seen(sight, fid, foes) if foes else None
            if after is not None:
                counts["contested"] += 1
                counts["exposure"] += after[0]
                counts["safe"] += int(after[1])
            if math.dist(was, (x, y)) < SHUFFLE:
                prior = self._seen(sight_before, fid, foes) if foes else None
                if prior == after:
                    counts["shuffles"] += 1

    def finish(self) -> dict[str, dict[str, int]]:
        """The counts, with each side's objective from the game's outcome."""
        self._close()
        outcome = self.game.outcome
        if outcome is not None:
            player = self.game.player_side()
            for side, counts in self.counts.items():
                if side == player and outcome.won is not None:
                    counts["objective"] = int(outcome.won)
                else:
                    counts["objective"] = int(outcome.winner == side)
        return self.counts


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def rates(counts: list[dict[str, int]], games: int, lost: int, taken_out: int) -> dict[str, Any]:
    """One side's behaviour rates over a batch: ``counts`` its :class:`Behaviour`
    counts of each game played, ``lost`` its figures lost and ``taken_out`` the enemy
    figures it took out, over the batch.  A rate with nothing to count is None."""
    total = dict.fromkeys(COUNTS, 0)
    for one in counts:
        for key in COUNTS:
            total[key] += one.get(key, 0)
    return {
        "moves": total["moves"],
        "safe_moves": _share(total["safe"], total["contested"]),
        "exposure": _share(total["exposure"], total["contested"]),
        "shuffles": _share(total["shuffles"], total["moves"]),
        "fired_when_possible": _share(total["fired"], total["shots_possible"]),
        "objectives": _share(total["objective"], games),
        "losses_per_kill": _share(lost, taken_out),
        "counts": total,
    }
