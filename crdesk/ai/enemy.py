"""The enemy's own moves by the book: table 11.4 NP Force Movement as a game :class:`Policy`.

:class:`SoloEnemyPolicy` plays the non-player side of an encounter whose enemy
is on the table.  When its side is asked to activate, it activates the groups
in the book's order (the highest Leader Rep first: the controller's first
option, 7.1).  When one of its groups is active, the group's 11.4 order is
settled once, at the start of the activation (:func:`settle_orders`):

* 2d6 against the Leader's Rep, and whether the group outnumbers the closest
  player group 2 to 1 or more, pick the row of table 11.4;
* "move to Cover that allows firing at the closest player group": each figure
  goes to the reachable spot in Cover from that group from which it sees one of
  its figures in range (or, failing that, out of range), seen by as few player
  figures as can be (the fewest that can fire back); without such a spot it
  closes on the group, ending in Cover or out of sight where it can;
* "remain in Cover or move to the nearest Cover": a figure in Cover (or out of
  sight) from every player figure stays; else it goes to the nearest spot that
  is, or failing that the nearest that leaves it seen by fewer;
* "split into two equal groups": the Leader's half (the larger when the count
  is odd) moves to Cover with fire as above; the other half encircles by the
  flank the extra 1d6 gave (1-3 left, 4-6 right, as the NP group faces the
  player group), moving towards a spot :data:`FLANK_OFFSET` inches beside the
  player group, staying in Cover if possible.

Spots come from :mod:`crdesk.ai.spots` (candidates on rays, judged by the
sight engine); each move is checked with :meth:`Game.legal` before it is
played.  A member with a shot fires as soon as it is done moving (at once when it
stays where it is), before the next member moves (7.2: a figure fires at any time
while active; its targets' Received Fire tests, 7.7, may send them out of sight of the
ground its friends cross); then the group ends its activation.  Each shooter
chooses its targets freely (7.9.8), the volley expected to take the most player
figures out (:mod:`crdesk.ai.targets`: the figure in the open gets the best die,
7.9.9), the book's shot (the nearest first) when none does better.  Every other
decision -- In Sight actions, Duck Back, reactions -- is the book's choice
(:attr:`Decision.default`), as for any Grunt.

**Dice.**  The 11.4 roll is the game's own ``npmove LEADER`` step: the
controller rolls it through the game's dice (seeded or typed in), logs it and
keeps the result on the activation frame, and the policy reads its orders from
there, so a replay never asks the policy again and a manual-dice player rolls
the enemy's table too.  Tests may give the policy dice of their own
(``SoloEnemyPolicy(dice=...)``); :func:`table_dice` is such a stream, derived
from the seed: activation ``n`` uses dice ``3n``, ``3n + 1`` and ``3n + 2`` of
``counter_face(seed * 1_000_003 + 114, k)``.

Interpretations (to become rules options):

* "Outnumbers 2 to 1" compares the NP group's figures with the closest player
  group's (:func:`outnumbers`), both as they stand when the activation starts.
* The closest player group is the one with the smallest base-to-base distance
  from any figure of the NP group.
* A prone figure stands up (half its movement, 7.4.3) only when the rest of its
  movement takes it to a spot that does what the order asks; otherwise it stays
  down where it is.  A figure whose move was cut short by In Sight (7.6) may
  finish it once with the movement it has left.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crdesk.ai.policy import BookPolicy
from crdesk.ai.spots import MIN_MOVE, Spots, move_there, spots_for
from crdesk.ai.targets import best_shot
from crdesk.cohesion import groups as cohesion_groups
from crdesk.dice import CounterDice, DiceSource, ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.game import adapter, encounter
from crdesk.game.actions import (
    Action,
    Activate,
    End,
    Fire,
    Move,
    Prone,
    Reload,
    Stand,
    fmt_num,
)
from crdesk.game.actions import NpMove as NpMoveAction
from crdesk.game.controller import Game
from crdesk.game.records import Decision, Frame
from crdesk.geometry import kernels
from crdesk.geometry.terrain_index import GRAZE
from crdesk.model import Figure
from crdesk.rules.common import TableRoll
from crdesk.rules.pef import np_move
from crdesk.tables import NP_FORCE_MOVEMENT, NpMove

Point2 = tuple[float, float]

AI_SEED_FACTOR = 1_000_003
"""The stopgap stream of the AI's table rolls is seeded ``seed * AI_SEED_FACTOR + AI_SALT``."""
AI_SALT = 114
DICE_PER_ACTIVATION = 3
"""Dice reserved per activation on the stopgap stream: 2d6 for 11.4 and the flank die."""
FLANK_OFFSET = 10.0
"""Inches beside the player group that an encircling half heads for (11.4)."""
LEGAL_TRIES = 8
"""Best candidate spots offered to :meth:`Game.legal` before a figure stays put."""

FIRE = "fire_cover"
"""Task: move to Cover that allows firing at the closest player group."""
HOLD = "hold"
"""Task: remain in Cover or move to the nearest Cover."""
ENCIRCLE = "encircle"
"""Task: encircle by a flank, staying in Cover if possible."""

ROW_WORDS = {
    NpMove.SPLIT_AND_ENCIRCLE: "split into two equal groups: one moves to Cover from which it "
    "can fire at the closest player group, the other encircles by the {flank} flank, staying "
    "in Cover if possible",
    NpMove.MOVE_TO_FIRING_COVER: "move to Cover that allows firing at the closest player group",
    NpMove.HOLD_OR_NEAREST_COVER: "remain in Cover or move to the nearest Cover; may fire at "
    "an enemy in range after reaching it",
}
"""Table 11.4's rows in the book's words."""

DiceFor = Callable[[Game, int], DiceSource]
"""Where the 11.4 dice of activation number ``n`` come from (tests script them)."""


def table_dice(game: Game, number: int) -> DiceSource:
    """The stopgap dice of activation ``number``: see the module's docstring."""
    return CounterDice(game.seed * AI_SEED_FACTOR + AI_SALT, position=DICE_PER_ACTIVATION * number)


def table_row(passed: int, outnumbers: bool) -> NpMove:
    """The row of table 11.4 for the passes and the outnumbering check (the rules' table)."""
    return NP_FORCE_MOVEMENT[passed][0 if outnumbers else 1]


def outnumbers(np_count: int, player_count: int) -> bool:
    """11.4: the NP group outnumbers the player group 2 to 1 or more."""
    return player_count > 0 and np_count >= 2 * player_count


@dataclass(frozen=True, slots=True)
class Orders:
    """An NP group's 11.4 order for one activation, and each figure's part in it."""

    number: int
    """The activation's number in the game (the activation frame's ``number``)."""
    leader: str
    members: tuple[str, ...]
    roll: TableRoll
    move: NpMove
    outnumbers: bool
    target_group: tuple[str, ...]
    """The closest player group when the activation started."""
    tasks: Mapping[str, str] = field(default_factory=dict)
    flank: str | None = None

    @property
    def passed(self) -> int:
        return int(self.roll.passed or 0)

    @property
    def row_words(self) -> str:
        return ROW_WORDS[self.move].format(flank=self.flank or "left")

    def headline(self, game: Game) -> str:
        """``11.4 NP Force Movement (Viper boss rolled 3,5 vs Rep 5): passed 1 — ...``."""
        leader = game.fig(self.leader)
        faces = ",".join(map(str, self.roll.faces[:2]))
        ratio = ", outnumbering the player 2:1" if self.outnumbers else ""
        flank = f", flank die {self.roll.faces[2]}" if len(self.roll.faces) > 2 else ""
        return (
            f"11.4 NP Force Movement ({leader.name} rolled {faces} vs Rep {self.roll.target}"
            f"{ratio}{flank}): passed {self.passed} — {self.row_words}"
        )


def player_groups(game: Game, side: str) -> list[tuple[str, ...]]:
    """The groups (6.2) of ``side``'s figures that can act, as the sight engine sees them."""
    with kernels.pinned(game.sight_route):
        matrix = game.vis.matrix()
    return [g.members for g in cohesion_groups(game.battlefield, matrix, game.rules, side)]


def _gap(a: Figure, b: Figure) -> float:
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)


def closest_group(game: Game, figures: Sequence[str]) -> tuple[str, ...]:
    """The enemy group nearest (base to base) to any of ``figures``; ties: roster order."""
    mine = [game.fig(f) for f in figures]
    if not mine:
        return ()
    side = game.enemy_of(mine[0].side)
    best: tuple[float, tuple[str, ...]] | None = None
    for grp in player_groups(game, side):
        d = min(_gap(m, game.fig(p)) for m in mine for p in grp)
        if best is None or d < best[0] - 1e-9:
            best = (d, grp)
    return best[1] if best else ()


def settle_orders(
    game: Game,
    frame: Frame,
    dice: DiceSource,
    *,
    target: tuple[str, ...] | None = None,
    more: bool | None = None,
) -> Orders:
    """Table 11.4 for the active NP group of ``frame``, from the table as it stands and
    the dice given (the policy calls this at the start of the activation); ``target``
    and ``more`` are the closest player group and the outnumbering check when the
    controller already recorded them with its 11.4 roll."""
    d = frame.data
    leader = game.fig(d["leader"])
    members = [m for m in d["members"] if game.fig(m).status.can_act]
    if target is None:
        target = closest_group(game, members)
    if more is None:
        more = outnumbers(len(members), len(target))
    roll = np_move(dice, leader.rep, outnumbers=more, who=leader.name)
    move = NpMove(roll.result)
    flank = roll.get("flank")
    tasks: dict[str, str] = {}
    if move is NpMove.SPLIT_AND_ENCIRCLE:
        # the Leader's half (the larger when odd) fires from Cover; the rest encircle
        order = [leader.id, *[m for m in members if m != leader.id]]
        half = (len(order) + 1) // 2
        for k, m in enumerate(order):
            tasks[m] = FIRE if k < half else ENCIRCLE
    else:
        task = FIRE if move is NpMove.MOVE_TO_FIRING_COVER else HOLD
        tasks = {m: task for m in members}
    return Orders(
        number=int(d["number"]),
        leader=leader.id,
        members=tuple(members),
        roll=roll,
        move=move,
        outnumbers=more,
        target_group=target,
        tasks=tasks,
        flank=str(flank) if flank is not None else None,
    )


# ----------------------------------------------------------------------------
# Choosing a spot


@dataclass(frozen=True, slots=True)
class Plan:
    """Where one figure goes (or that it stays), and why in the book's words."""

    figure: str
    task: str
    move: Move | None
    """None: the figure stays where it is."""
    why: str
    good: bool
    """The spot does what the order asks (Cover with a shot; Cover; Cover on the flank)."""


def _shot_after(game: Game, turn: Move) -> bool:
    """Whether the figure that makes ``turn`` is offered a shot once it has: a turn is
    made only for one (a figure between two targets too close to shoot turned from one
    to the other and back, 3,000 steps in a kept Raid)."""
    fork = game.fork()
    try:
        fork.play(turn)
    except IllegalActionError:
        return False
    after = fork.awaiting()
    return after is not None and any(
        isinstance(o, Fire) and o.figure == turn.figure for o in after.options
    )


def _bearing(a: Point2, b: Point2) -> float:
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0


def names(game: Game, ids: Sequence[str], limit: int = 3) -> str:
    """``A, B, C and 2 more``: the figures' names for the program's reasons."""
    got = [game.fig(i).name for i in ids[:limit]]
    more = len(ids) - limit
    return ", ".join(got) + (f" and {more} more" if more > 0 else "")


def _centroid(game: Game, ids: Sequence[str]) -> Point2:
    figs = [game.fig(i) for i in ids]
    return (sum(f.x for f in figs) / len(figs), sum(f.y for f in figs) / len(figs))


def flank_goal(game: Game, orders: Orders) -> Point2:
    """Where the encircling half heads: :data:`FLANK_OFFSET` inches to the left or right
    of the player group, as the NP group faces it (clamped to the table)."""
    alive = [m for m in orders.members if game.fig(m).status.can_act] or list(orders.members)
    target = _live(game, orders.target_group) or list(closest_group(game, alive))
    mx, my = _centroid(game, alive)
    cx, cy = _centroid(game, target) if target else (mx, my)
    dx, dy = cx - mx, cy - my
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    # facing along (dx, dy) with y towards the player's edge, the left hand is (dy, -dx)
    sx, sy = (dy, -dx) if orders.flank != "right" else (-dy, dx)
    table = game.battlefield.table
    x = min(max(cx + sx * FLANK_OFFSET, 1.0), table.width - 1.0)
    y = min(max(cy + sy * FLANK_OFFSET, 1.0), table.height - 1.0)
    return (x, y)


def _live(game: Game, ids: Sequence[str]) -> list[str]:
    return [i for i in ids if game.fig(i).status.can_act]


def plan_move(game: Game, orders: Orders, fid: str, allowance: float) -> Plan:
    """Choose the spot for figure ``fid`` under ``orders`` with ``allowance`` inches of
    movement: the best candidate that :meth:`Game.legal` accepts, or staying put."""
    fig = game.fig(fid)
    task = orders.tasks.get(fid, HOLD)
    group = _live(game, orders.target_group) or list(closest_group(game, [fid]))
    spots = spots_for(game, fig, 0.0 if task != ENCIRCLE else allowance)
    if not len(spots.targets):
        return Plan(fid, task, None, "no player figure is left to face", False)
    cols = spots.columns(frozenset(group))
    if not len(cols):
        cols = np.arange(len(spots.targets))
    if len(spots) < 2 and not _stays_put(game, fig, task, spots, cols):
        # the figure's own spot does not already do the best the order can ask: search
        spots = spots_for(game, fig, allowance)
    ranked, good, words = rank_spots(game, orders, fig, spots, cols)
    for i in ranked[:LEGAL_TRIES]:
        if i == 0 or spots.travel[i] < MIN_MOVE:
            break  # staying is the best there is
        p = spots.point(int(i))
        facing = round(_bearing(p, _face_towards(game, spots, int(i), cols)), 1)
        move = move_there(game, fid, p, facing)  # straight, or its route (issue 31)
        if move is not None:
            why = f'{fig.name} moves {spots.travel[i]:.1f}" to ({p[0]:.1f}, {p[1]:.1f}): ' + words(
                int(i)
            )
            return Plan(fid, task, move, why, bool(good[i]))
    return Plan(fid, task, None, f"{fig.name} stays where it is: " + words(0), bool(good[0]))


def rank_spots(
    game: Game, orders: Orders, fig: Figure, spots: Spots, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Callable[[int], str]]:
    """The ranking :func:`plan_move` chooses by, for ``fig``'s task under ``orders``: the
    candidate rows best first, which rows do what the order asks, and each row's words
    (``cols``: the closest player group's columns).  Public for :mod:`crdesk.ai.explain`."""
    task = orders.tasks.get(fig.id, HOLD)
    if task == FIRE:
        return _rank_fire(game, fig, spots, cols)
    if task == ENCIRCLE:
        return _rank_encircle(game, orders, spots)
    return _rank_hold(spots)


def _stays_put(game: Game, fig: Figure, task: str, own: Spots, cols: np.ndarray) -> bool:
    """Whether the figure's own spot (row 0, judged alone) already ranks first whatever
    the other candidates are, so the search can be skipped with the same plan: for the
    hold order, no player figure sees it in the open; for the fire order, Cover from the
    closest group with a shot in range and no one seeing it in the open (the best tier,
    the fewest exposed, and no move is shorter than staying)."""
    if own.exposed[0] != 0:
        return False
    if task == ENCIRCLE:
        return False
    if task != FIRE:
        return True
    rng = adapter.weapon_range(fig, game.rules)
    return bool(rng > 0 and (own.sees[0, cols] & (own.distance[0, cols] <= rng)).any())


def _face_towards(game: Game, spots: Spots, i: int, cols: np.ndarray) -> Point2:
    """Where the figure faces at spot ``i``: the nearest figure of the closest player group
    it sees there, else the nearest of the group (ties: the id)."""
    seen = [j for j in cols if spots.sees[i, j]] or list(cols)
    j = min(seen, key=lambda j: (float(spots.distance[i, j]), spots.targets[j]))
    target = game.fig(spots.targets[j])
    return (target.x, target.y)


def _cover_words(game: Game, spots: Spots, i: int, cols: np.ndarray) -> str:
    """ "Cover from A, B; out of sight of C; seen in the open by D" for spot ``i``."""
    covered = [spots.targets[j] for j in cols if spots.seen[i, j] and spots.cover[i, j]]
    hidden = [spots.targets[j] for j in cols if not spots.seen[i, j]]
    exposed = [spots.targets[j] for j in cols if spots.seen[i, j] and not spots.cover[i, j]]
    parts = []
    if covered:
        parts.append(f"Cover from {names(game, covered)}")
    if hidden:
        parts.append(f"out of sight of {names(game, hidden)}")
    if exposed:
        parts.append(f"seen in the open by {names(game, exposed)}")
    return "; ".join(parts)


def _rank_fire(
    game: Game, fig: Figure, spots: Spots, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, Callable[[int], str]]:
    """Cover from the closest player group with a shot at it: in range first, then out
    of range; the fewest player figures seeing it in the open; the fewest seeing it at
    all (the fewest that can fire back, in Cover or not); the shortest move.  A figure
    already in Cover with a shot that nobody sees in the open stays (:func:`_stays_put`)."""
    rng = adapter.weapon_range(fig, game.rules)
    sees = spots.sees[:, cols]
    dist = spots.distance[:, cols]
    in_range = (sees & (dist <= rng)).any(axis=1) if rng > 0 else np.zeros(len(spots), bool)
    sees_any = sees.any(axis=1)
    covered = ~(spots.seen[:, cols] & ~spots.cover[:, cols]).any(axis=1)
    tier = np.where(covered & in_range, 0, np.where(covered & sees_any, 1, 2))
    exposed = spots.exposed
    idx = np.arange(len(spots))
    # the player figures that could fire back at it there, in Cover or not
    seen_by = spots.seen.sum(axis=1)
    ranked = np.lexsort((idx, spots.travel, seen_by, exposed, tier))
    if tier[0] == 0 and exposed[0] == 0:
        # already in Cover with a shot and seen in the open by nobody: it stays
        ranked = np.concatenate(([0], ranked[ranked != 0]))
    good = tier <= 1
    if tier[ranked[0]] == 2:
        # no Cover with a shot within reach: close on the group, in Cover (or out of
        # sight) where it can, else as little in the open as possible
        tx, ty = _centroid(game, [spots.targets[j] for j in cols])
        towards = np.hypot(spots.points[:, 0] - tx, spots.points[:, 1] - ty)
        ranked = np.lexsort((idx, spots.travel, towards, exposed))
        if game.state.get("encounter", {}).get("type") == "defend":
            # the enemy attacks in a Defend (12.3: it "tries to destroy or drive the
            # player off"): it closes in even where no hidden way is left, rather than
            # wait out of sight while the defenders wait too (kept Defends drawn at the
            # turn limit, four against four 5" apart)
            closer = towards <= towards[0] - MIN_MOVE
            if closer.any():
                ranked = np.lexsort((idx, spots.travel, towards, exposed, ~closer))

    def words(i: int) -> str:
        if tier[i] <= 1:
            js = [j for j in cols if spots.sees[i, j]]
            j = min(js, key=lambda j: (spots.distance[i, j], spots.targets[j]))
            who = game.fig(spots.targets[j]).name
            d = spots.distance[i, j]
            shot = f'{who} {fmt_num(round(float(d)))}" away, ' + (
                "in range" if tier[i] == 0 else "out of range"
            )
            return f"{_cover_words(game, spots, i, cols)}; a shot at {shot}"
        what = _cover_words(game, spots, i, cols) or "out of sight of the closest player group"
        return f"no Cover with a shot within reach: closes on the closest player group ({what})"

    return ranked, good, words


def _rank_hold(spots: Spots) -> tuple[np.ndarray, np.ndarray, Callable[[int], str]]:
    """Stay if no player figure sees the figure in the open; else the nearest spot where
    none does (or the fewest)."""
    exposed = spots.exposed
    idx = np.arange(len(spots))
    if exposed[0] == 0:
        ranked = np.array([0])
    else:
        ranked = np.lexsort((idx, spots.travel, exposed))
        if exposed[ranked[0]] >= exposed[0]:
            ranked = np.array([0])
    good = exposed == 0

    def words(i: int) -> str:
        n = int(exposed[i])
        seen = int(spots.seen[i].sum())
        if n == 0:
            return "in Cover" if seen else "out of sight of every player figure"
        if i == 0:
            return f"no nearer Cover within reach (seen in the open by {n})"
        return f"the nearest Cover within reach (seen in the open by {n} instead of {exposed[0]})"

    return ranked, good, words


def _rank_encircle(
    game: Game, orders: Orders, spots: Spots
) -> tuple[np.ndarray, np.ndarray, Callable[[int], str]]:
    """Towards the flank spot: among the spots nearer to it (by at least MIN_MOVE), those
    in Cover or out of sight first, then the nearest to it."""
    gx, gy = flank_goal(game, orders)
    to_goal = np.hypot(spots.points[:, 0] - gx, spots.points[:, 1] - gy)
    exposed = spots.exposed
    idx = np.arange(len(spots))
    closer = to_goal <= to_goal[0] - MIN_MOVE
    closer[0] = True
    ranked = np.lexsort((idx, to_goal, exposed > 0, ~closer))
    ranked = ranked[closer[ranked]]
    good = exposed == 0

    def words(i: int) -> str:
        cover = "in Cover or out of sight" if exposed[i] == 0 else "no Cover on the way"
        return (
            f"encircles by the {orders.flank or 'left'} flank towards ({gx:.0f}, {gy:.0f}), "
            f'{to_goal[i]:.1f}" from it ({cover})'
        )

    return ranked, good, words


# ----------------------------------------------------------------------------
# The policy


def _left(d: Mapping[str, Any], fid: str) -> float:
    """The movement figure ``fid`` has left in this activation (its allowance less what
    it used, 7.2), from the activation frame's data."""
    return max(0.0, float(d["allow"].get(fid, 0.0)) - float(d["used"].get(fid, 0.0)))


class SoloEnemyPolicy:
    """The non-player side by table 11.4 (see the module's docstring).

    ``dice`` gives the 11.4 dice of an activation (default: the stopgap stream
    :func:`table_dice`).  The policy keeps no state that changes what it plays:
    orders and spots are pure functions of the game; the caches only save time.
    """

    fires_first = True
    """A member with a shot fires as soon as it is done moving (or at once when it stays
    where it is), before the next member moves (7.2: an active figure fires once at any
    time, before, during or after its move), so its targets take their Received Fire
    tests (7.7) -- Duck Back out of sight, or fire back at it in its Cover -- before its
    friends cross the ground; the plain enemy moves the whole group first, then fires
    (the simplest order the book allows)."""

    def __init__(self, dice: DiceFor | None = None) -> None:
        self.dice: DiceFor | None = dice
        """None (the default): the 11.4 roll is the game's own ``npmove`` step, rolled
        through its dice and recorded; tests may pass dice of their own."""
        self._book = BookPolicy(advance=False)
        self._orders: dict[tuple[int, int, int, int], Orders] = {}
        self._plans: dict[tuple[object, ...], Plan] = {}

    # -- the protocol -------------------------------------------------------

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        if decision.kind == "activate":
            act = decision.default or decision.options[0]
            if isinstance(act, Activate):
                return act, (
                    "the NP group with the highest Leader Rep activates first; it moves by "
                    "table 11.4 (7.1, 11.4)"
                )
            return act, "no NP group left to activate (7.1)"
        frame = game.frames[-1] if game.frames else None
        if decision.kind == "act" and frame is not None and frame.kind == "activation":
            return self._act(game, decision, frame)
        return self._book.decide(game, decision)

    # -- orders ---------------------------------------------------------------

    def orders(self, game: Game) -> Orders:
        """The 11.4 orders of the active NP group (settled as the activation started)."""
        frame = next((f for f in reversed(game.frames) if f.kind == "activation"), None)
        if frame is None:
            raise IllegalActionError("no group is active")
        return self._orders_for(game, frame)

    def _orders_for(self, game: Game, frame: Frame) -> Orders:
        recorded = frame.data.get("np_move")
        if self.dice is None and recorded is not None:
            return settle_orders(
                game,
                frame,
                ScriptedDice(recorded["faces"]),
                target=tuple(recorded["closest"]),
                more=bool(recorded["outnumbers"]),
            )
        dice_for = self.dice or table_dice
        history = game.history
        word = f"activate {frame.data['leader']}"
        start = next(
            (k for k in range(len(history) - 1, -1, -1) if history[k].action == word), None
        )
        if start is None:  # pragma: no cover - every activation starts with its step
            raise IllegalActionError("the active group's activation step is not in the history")
        prefix = hash(tuple(s.action for s in history[: start + 1]))
        number = int(frame.data["number"])
        key = (game.seed, number, start, prefix)
        found = self._orders.get(key)
        if found is not None:
            return found
        if len(history) == start + 1:
            orders = settle_orders(game, frame, dice_for(game, number))
        else:
            # resumed mid-activation: settle the orders on the table as it started
            then = Game.replay(
                game.scenario,
                history[: start + 1],
                seed=game.seed,
                dice=game.dice_mode,
                settings=game.settings,
            )
            orders = settle_orders(then, then.frames[-1], dice_for(then, number))
        if len(self._orders) > 256:
            self._orders.clear()
        self._orders[key] = orders
        return orders

    # -- the active group -----------------------------------------------------

    def _act(self, game: Game, decision: Decision, frame: Frame) -> tuple[Action, str]:
        if self.dice is None and "np_move" not in frame.data:
            roll = next((o for o in decision.options if isinstance(o, NpMoveAction)), None)
            if roll is not None:
                leader = game.fig(frame.data["leader"])
                return roll, f"11.4 NP Force Movement: {leader.name} rolls the group's orders"
        orders = self._orders_for(game, frame)
        head = orders.headline(game)
        for option in decision.options:
            if isinstance(option, Reload):
                name = game.fig(option.figure).name
                return option, f"{head}: {name} reloads first (7.9.2)"
        # the figures that may still act: the controller offers each of them prone/stand
        able = {o.figure for o in decision.options if isinstance(o, Prone | Stand)}
        if self.fires_first:
            first = self._fires_first(game, decision, frame, orders, able)
            if first is not None:
                return self.shoot(game, first, head)
            turn = self._turn_to_shoot(game, decision, frame, orders, able)
            if turn is not None:
                return turn[0], f"{head}: {turn[1]}"
        for fid in orders.members:
            step = self._next_move(game, frame, orders, fid, able)
            if step is not None:
                return step[0], f"{head}: {step[1]}"
        if not self.fires_first:
            turn = self._turn_to_shoot(game, decision, frame, orders, able)
            if turn is not None:
                return turn[0], f"{head}: {turn[1]}"
        fires = [o for o in decision.options if isinstance(o, Fire)]
        if fires:
            return self.shoot(game, fires[0], head)
        return End(), f"{head}: nothing more to do under this order; ends its activation"

    def _fires_first(
        self, game: Game, decision: Decision, frame: Frame, orders: Orders, able: set[str]
    ) -> Fire | None:
        """The shot of a member that has one and is done moving (it has moved, cannot
        move, or its plan is to stay), if any: it fires before the next member moves
        (:attr:`fires_first`)."""
        shots = {o.figure: o for o in decision.options if isinstance(o, Fire)}
        for fid in orders.members:
            shot = shots.get(fid)
            if shot is None or not game.fig(fid).status.can_act:
                continue
            if self._next_move(game, frame, orders, fid, able) is None:
                return shot
        return None

    def _turn_to_shoot(
        self, game: Game, decision: Decision, frame: Frame, orders: Orders, able: set[str]
    ) -> tuple[Move, str] | None:
        """A member done moving with no shot, but an enemy in range it would see facing
        it, turns to face the nearest such (a move of 0", "ending facing as desired",
        7.2; it stays stationary, 7.9.5) -- LOS is to the front only (7.9.4), and every
        order of 11.4 lets it fire.  It then has the shot and fires.  (60 Patrols, Raids
        and Defends on 48"x48" tables: 12 members ended activations with their backs to a
        target in range, most after a move that faced the closest group's nearest figure,
        which they did not see.)  It turns only where the turn gives it a shot (played on a
        fork): no shot for another reason (a window taken, 8.5; a target too close) is no
        reason to turn; a target that ducked back from it stays out of its sight (the
        hidden pairs, 7.4.4).  Only an enemy behind its front (out of its arc, as the
        sight engine's gate judges it) is one a turn could show: one in its arc that it
        does not see is hidden by terrain or a figure whichever way it faces (judging
        those too took a quarter of the solo enemy's time, for the same choices)."""
        d = frame.data
        shots = {o.figure for o in decision.options if isinstance(o, Fire)}
        sight = game.sight()
        for fid in orders.members:
            fig = game.fig(fid)
            if fid not in able or fid in shots or fid in d["fired"] or fid in d["reloading"]:
                continue
            if fig.prone or not fig.status.can_act or not adapter.can_fire(fig):
                continue
            reach = adapter.weapon_range(fig, game.rules)
            fx, fy = fig.facing_vector()
            foes = [
                e
                for e in game.alive(game.enemy_of(fig.side))
                if not sight.sees(fid, e.id)
                and math.hypot(e.x - fig.x, e.y - fig.y) <= reach + fig.radius + e.radius
                and fx * (e.x - fig.x) + fy * (e.y - fig.y) <= GRAZE - e.radius  # behind
            ]
            if not foes:
                continue
            here = spots_for(game, fig, 0.0)  # its own spot, all round, hidden pairs kept
            col = {t: j for j, t in enumerate(here.targets)}
            near = [
                (float(here.distance[0, col[e.id]]), e.id)
                for e in foes
                if e.id in col and here.sees[0, col[e.id]] and here.distance[0, col[e.id]] <= reach
            ]
            if not near or self._next_move(game, frame, orders, fid, able) is not None:
                continue
            for gap, tid in sorted(near):
                target = game.fig(tid)
                facing = round(_bearing((fig.x, fig.y), (target.x, target.y)), 1)
                turn = Move(fid, ((fig.x, fig.y),), facing)
                if game.legal(turn) is None and _shot_after(game, turn):
                    return turn, (
                        f'{fig.name} turns to face {target.name}, {gap:.1f}" away and in range, '
                        'to fire (a move of 0", ending facing as desired, 7.2)'
                    )
        return None

    def _next_move(
        self, game: Game, frame: Frame, orders: Orders, fid: str, able: set[str]
    ) -> tuple[Action, str] | None:
        """What member ``fid`` does next in its move, and why: a move, standing up to
        move on, or None when it is done moving (it has no movement left, may not move
        again, or its plan is to stay).  The move loop and :meth:`_fires_first` both ask
        this one question, so a figure fires first exactly when it will not move."""
        if fid not in able:
            return None
        fig = game.fig(fid)
        if not fig.status.can_act:
            return None
        d = frame.data
        left = _left(d, fid)
        if left < MIN_MOVE or not self._may_move(game, frame, fid):
            return None
        if fig.prone:
            # standing costs half the movement (7.4.3): worth it only for a spot that
            # does what the order asks; else it stays down where it is
            after = left - float(d["allow"].get(fid, 0.0)) / 2
            stand = Stand(fid)
            if after < MIN_MOVE or game.legal(stand) is not None:
                return None
            standing = game.fork()  # judged as it would stand, not lying down
            standing.play(stand)
            plan = self._plan(standing, orders, fid, after)
            if plan.move is not None and plan.good:
                return stand, (
                    f"{fig.name} stands up (half its movement, 7.4.3) to move on: {plan.why}"
                )
            return None
        plan = self._plan(game, orders, fid, left)
        if fid in d["moved"] and not plan.good:
            return None  # finishing a move cut short: only for a spot that does the job
        if plan.move is not None and game.legal(plan.move) is None:
            return plan.move, plan.why
        return None

    def shoot(self, game: Game, book: Fire, head: str) -> tuple[Action, str]:
        """The volley of ``book``'s shooter expected to take the most player figures out
        (an active shooter chooses freely, 7.9.8: :func:`crdesk.ai.targets.best_shot`);
        the hook :class:`~crdesk.ai.baselines.PlainEnemyPolicy` replaces with the book's
        shot, the nearest enemy first."""
        shooter = game.fig(book.figure)
        choice = best_shot(game, shooter, book)
        shot = choice.shot
        aim = ""
        if choice.wanted is not None:
            aim = f", {choice.aim:.2f} of them {encounter.objective_words(game)}"
        if shot == book:
            return shot, (
                f"{head}: {shooter.name} fires at {names(game, shot.target_ids)} (the nearest "
                f"enemy in sight and range first, 7.9.8; {choice.worth:.2f} figures expected "
                f"out{aim})"
            )
        first, *rest = shot.target_ids
        then = f", then {names(game, rest)}" if rest else ""
        against = f"{choice.plain:.2f}"
        if choice.wanted is not None:
            against += f" ({choice.plain_aim:.2f} of them)"
        return shot, (
            f"{head}: {shooter.name} fires at {game.fig(first).name} first{then}: the best "
            f"die where it counts most (7.9.8, 7.9.9), {choice.worth:.2f} figures expected "
            f"out{aim} against {against} starting at the nearest"
        )

    def _may_move(self, game: Game, frame: Frame, fid: str) -> bool:
        """Not moved yet this activation, or moved once and stopped short by In Sight."""
        if fid not in frame.data["moved"]:
            return True
        history = game.history
        word = f"activate {frame.data['leader']}"
        moves: list[Move] = []
        for step in reversed(history):
            if step.action == word:
                break
            if step.action.startswith(f"move {fid} "):
                act = Action.parse(step.action)
                assert isinstance(act, Move)
                moves.append(act)
        if len(moves) != 1:
            return False
        fig = game.fig(fid)
        end = moves[0].path[-1]
        return math.hypot(fig.x - end[0], fig.y - end[1]) > MIN_MOVE

    def plan(self, game: Game, orders: Orders, fid: str, allowance: float) -> Plan:
        """Where figure ``fid`` goes under ``orders`` (the spot search, :func:`plan_move`):
        the hook :class:`~crdesk.ai.baselines.PlainEnemyPolicy` replaces to carry out the
        same 11.4 orders without scoring spots."""
        return plan_move(game, orders, fid, allowance)

    def _plan(self, game: Game, orders: Orders, fid: str, left: float) -> Plan:
        bf = game.battlefield
        key = (
            game.seed,
            orders.number,
            orders.leader,
            fid,
            round(left, 3),
            bf.terrain_revision,
            tuple((f.id, f.x, f.y, f.status, f.prone) for f in bf.figures()),
        )
        plan = self._plans.get(key)
        if plan is None:
            plan = self.plan(game, orders, fid, left)
            if len(self._plans) > 512:
                self._plans.clear()
            self._plans[key] = plan
        return plan
