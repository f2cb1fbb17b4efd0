"""The baselines an AI must beat (issue 32): a random player and a plain enemy.

A policy is only as good as what it is measured against.  The people who build
tabletop AIs judge them against baselines first (Bot Bowl makes every bot beat a
random player before anything else), and ``crdesk simulate --compare`` plays the
same games under two policies to measure the difference.  Both are
:class:`~crdesk.ai.policy.Policy` objects the controller asks like any other; their
choices are recorded as steps like any other.

:class:`RandomPolicy` (``--player random``, ``--enemy random``) chooses uniformly
among the legal choices of each decision, for either side.  The choices are the
decision's options (:attr:`Decision.options`) and, where the player has to make up
the action itself (a move to a point, fire at chosen targets, a charge: the
decision's ``accepts``), a few legal candidates drawn at random: up to
:data:`RANDOM_MOVES` moves in a random direction over a random part of the
figure's movement (7.4; 2" in a free move, 7.6), one shot at a random enemy
(7.9.8) and one charge at a random enemy (7.11.2), each kept only when
:meth:`Game.legal` accepts it.  Its randomness is its own: a :class:`random.Random`
seeded from the game's seed, the side and the step number, never the game's dice,
so a game it plays is a pure function of the seed (the same seed, the same steps)
and the dice stay the same as far as two games agree.

:class:`PlainEnemyPolicy` (``--enemy plain``) is the solo enemy without its spot
search: the same table 11.4 roll and orders (:class:`~crdesk.ai.enemy.SoloEnemyPolicy`
rolls them as the game's own ``npmove`` step and reads them back), carried out
plainly, figure by figure:

* "move to Cover that allows firing at the closest player group" (11.4): a figure
  that already sees a figure of that group within its weapon's range stays where
  it is; else it walks straight towards the group's nearest figure (stopping
  :data:`STAND_OFF` inches short of its base), Cover or not;
* "remain in Cover or move to the nearest Cover": the nearest spot within its
  movement in Cover from the group's nearest figure (Duck Back's search, 7.4.4:
  :func:`crdesk.geometry.movement.nearest_cover`); it stays when it is in Cover
  there already or no Cover is within reach;
* "encircle by a flank": straight towards the flank spot the solo enemy heads for
  (:func:`crdesk.ai.enemy.flank_goal`).

A straight move that the controller refuses (a wall, a building, too costly
ground) is tried shorter (3/4, 1/2, 1/4), then the figure stays.  Once the whole
group has moved it fires (the solo enemy fires each figure as soon as it is done
moving, :attr:`~crdesk.ai.enemy.SoloEnemyPolicy.fires_first`) and ends its activation
(the book's shot, 7.9.8); every other decision is the book's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from crdesk.ai.enemy import (
    ENCIRCLE,
    FIRE,
    HOLD,
    Orders,
    Plan,
    SoloEnemyPolicy,
    closest_group,
    flank_goal,
    names,
)
from crdesk.ai.spots import MIN_MOVE
from crdesk.errors import IllegalActionError
from crdesk.game import adapter
from crdesk.game.actions import Action, Charge, Fire, Move
from crdesk.game.controller import Game
from crdesk.game.moving import FREE_MOVE
from crdesk.game.records import Decision, Frame
from crdesk.geometry import kernels, movement
from crdesk.model import Figure
from crdesk.options import Weather

Point2 = tuple[float, float]

RANDOM_MOVES = 3
"""Random legal moves added to a decision's choices when it accepts a move."""
RANDOM_TRIES = 8
"""Random draws tried for those moves (a draw into a wall or off the table is refused)."""
RANDOM_SALT = "crdesk-random-policy"
"""Keeps the random player's stream apart from every other use of the game's seed."""
STAND_OFF = 1.0
"""Inches short of a target's base where the plain enemy's straight advance stops."""
FRACTIONS = (1.0, 0.75, 0.5, 0.25)
"""Parts of a straight move tried, longest first, until the controller accepts one."""


def _unique(actions: Iterable[Action]) -> list[Action]:
    seen: set[Action] = set()
    out: list[Action] = []
    for act in actions:
        if act not in seen:
            seen.add(act)
            out.append(act)
    return out


def _on_table(game: Game, fig: Figure, x: float, y: float) -> Point2:
    table = game.battlefield.table
    x = min(max(x, fig.radius), table.width - fig.radius)
    y = min(max(y, fig.radius), table.height - fig.radius)
    return (round(x, 3), round(y, 3))


def _bearing(a: Point2, b: Point2) -> float:
    """The facing from ``a`` towards ``b`` in degrees (0 is up the table, as ``Move``'s)."""
    return round(math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0, 1)


# --------------------------------------------------------------------------
# The random player


class RandomPolicy:
    """Uniformly among the legal choices, for either side (see the module's docstring).

    Stateless: the stream of each decision is seeded from the game's seed, the
    deciding side and the step, so the same game asks the same question at the same
    step and gets the same answer (a replay or a fork included).  ``salt`` gives two
    random players of one game different streams."""

    def __init__(self, salt: str = "") -> None:
        self.salt = salt

    def rng(self, game: Game, decision: Decision) -> random.Random:
        """This decision's own stream (a string seed: stable across runs and machines)."""
        return random.Random(
            f"{RANDOM_SALT}:{self.salt}:{game.seed}:{decision.actor}:{len(game.history)}"
        )

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        rng = self.rng(game, decision)
        choices = self.choices(game, decision, rng)
        if not choices:
            raise IllegalActionError(f"the random player has no choice in a {decision.kind}")
        act = choices[rng.randrange(len(choices))]
        return act, f"random: one of {len(choices)} legal choices"

    def choices(self, game: Game, decision: Decision, rng: random.Random) -> list[Action]:
        """The decision's options and the random candidates it accepts, each legal."""
        out: list[Action] = list(decision.options)
        frame = game.frames[-1] if game.frames else None
        if frame is not None and frame.kind in ("activation", "free_move", "in_sight"):
            movers = self._movers(game, frame, decision)
            if "move" in decision.accepts:
                out += self._moves(game, frame, movers, rng)
            if "fire" in decision.accepts:
                shooters = [decision.figure] if decision.figure else movers
                out += self._aimed(game, shooters, Fire, rng)
            if "charge" in decision.accepts and frame.kind == "activation":
                out += self._aimed(game, movers, Charge, rng)
        return _unique(out)

    @staticmethod
    def _movers(game: Game, frame: Frame, decision: Decision) -> list[str]:
        ids = frame.data.get("members") or frame.data.get("movers") or []
        if not ids and decision.figure:
            ids = [decision.figure]
        return [f for f in ids if game.fig(f).status.can_act]

    @staticmethod
    def _moves(game: Game, frame: Frame, movers: Sequence[str], rng: random.Random) -> list[Action]:
        """Up to :data:`RANDOM_MOVES` legal moves: a random figure, direction and length."""
        found: list[Action] = []
        if not movers:
            return found
        for _ in range(RANDOM_TRIES):
            fig = game.fig(movers[rng.randrange(len(movers))])
            left = FREE_MOVE if frame.kind == "free_move" else game.movement_left(frame, fig.id)
            angle = rng.uniform(0.0, 2 * math.pi)
            length = rng.uniform(0.0, left)
            if length < MIN_MOVE:
                continue
            x, y = fig.x + math.sin(angle) * length, fig.y - math.cos(angle) * length
            move = Move(fig.id, (_on_table(game, fig, x, y),))
            if move not in found and game.legal(move) is None:
                found.append(move)
                if len(found) >= RANDOM_MOVES:
                    break
        return found

    @staticmethod
    def _aimed(
        game: Game, who: Sequence[str], kind: type[Fire] | type[Charge], rng: random.Random
    ) -> list[Action]:
        """One legal shot (7.9.8) or charge (7.11.2) by a random figure at a random enemy."""
        if not who:
            return []
        side = game.fig(who[0]).side
        foes = [f.id for f in game.alive(game.enemy_of(side))]
        if not foes:
            return []
        for _ in range(RANDOM_TRIES):
            fid = who[rng.randrange(len(who))]
            foe = foes[rng.randrange(len(foes))]
            act: Action = Fire(fid, ((foe, 0),)) if kind is Fire else Charge(fid, foe)
            if game.legal(act) is None:
                return [act]
        return []


# --------------------------------------------------------------------------
# The plain enemy


class PlainEnemyPolicy(SoloEnemyPolicy):
    """Table 11.4's orders with the nearest Cover or the straight line, no spot scoring
    (see the module's docstring)."""

    fires_first = False
    """The group moves first, then fires (see the module's docstring)."""

    def plan(self, game: Game, orders: Orders, fid: str, allowance: float) -> Plan:
        fig = game.fig(fid)
        task = orders.tasks.get(fid, HOLD)
        group = [g for g in orders.target_group if game.fig(g).status.can_act]
        group = group or list(closest_group(game, [fid]))
        if not group:
            return Plan(fid, task, None, "no player figure is left to face", False)
        with kernels.pinned(game.sight_route):
            sight = game.sight()
            near = min(group, key=lambda g: (sight.distance(fid, g), g))
            if task == FIRE and self._has_shot(game, fig, group):
                return Plan(
                    fid, task, None, f"{fig.name} stays: it has a shot at the group already", True
                )
        target = game.fig(near)
        if task == HOLD:
            return self._to_cover(game, fig, target, allowance)
        if task == ENCIRCLE:
            goal = flank_goal(game, orders)
            flank = orders.flank or "left"
            why = f"straight towards the {flank} flank at ({goal[0]:.0f}, {goal[1]:.0f})"
            return self._straight(game, fig, task, goal, 0.0, allowance, why, (target.x, target.y))
        short = fig.radius + target.radius + STAND_OFF
        why = f"straight towards {target.name}"
        goal = (target.x, target.y)
        return self._straight(game, fig, task, goal, short, allowance, why, goal)

    def shoot(self, game: Game, book: Fire, head: str) -> tuple[Action, str]:
        """The book's shot, the nearest enemy first (7.9.8): no weighing of volleys."""
        return book, (
            f"{head}: {game.fig(book.figure).name} fires at {names(game, book.target_ids)} "
            "(the nearest enemy in sight and range first, 7.9.8)"
        )

    @staticmethod
    def _has_shot(game: Game, fig: Figure, group: Sequence[str]) -> bool:
        """Whether the figure sees a figure of the group within its weapon's range (7.9)."""
        if not adapter.can_fire(fig):
            return False
        reach = adapter.weapon_range(fig, game.rules)
        sight = game.sight()
        return any(sight.sees(fig.id, g) and sight.distance(fig.id, g) <= reach for g in group)

    @staticmethod
    def _straight(
        game: Game,
        fig: Figure,
        task: str,
        goal: Point2,
        short: float,
        allowance: float,
        why: str,
        face: Point2,
    ) -> Plan:
        """The longest legal straight move towards ``goal``, ``short`` inches before it."""
        dx, dy = goal[0] - fig.x, goal[1] - fig.y
        dist = math.hypot(dx, dy)
        room = min(allowance, dist - short)
        if room < MIN_MOVE:
            return Plan(fig.id, task, None, f"{fig.name} stays: close enough ({why})", False)
        for frac in FRACTIONS:
            step = room * frac
            if step < MIN_MOVE:
                break
            p = _on_table(game, fig, fig.x + dx / dist * step, fig.y + dy / dist * step)
            move = Move(fig.id, (p,), _bearing(p, face))
            if game.legal(move) is None:
                text = f'{fig.name} moves {step:.1f}" {why}'
                return Plan(fig.id, task, move, text, True)
        return Plan(fig.id, task, None, f"{fig.name} stays: no straight way ({why})", False)

    @staticmethod
    def _to_cover(game: Game, fig: Figure, threat: Figure, allowance: float) -> Plan:
        """Remain in Cover from ``threat`` or move to the nearest spot that is (7.4.4's
        search within the movement left)."""
        rules = game.rules
        calm = not rules.night and rules.weather is Weather.CLEAR
        with kernels.pinned(game.sight_route):
            spot = movement.nearest_cover(
                game.battlefield,
                fig,
                (threat.x, threat.y),
                rules,
                index=game.vis.index if calm else None,
                max_distance=allowance,
            )
        if spot.prone_in_place:
            return Plan(fig.id, HOLD, None, f"{fig.name} stays: no Cover within reach", False)
        if spot.distance < MIN_MOVE:
            return Plan(fig.id, HOLD, None, f"{fig.name} stays in Cover", True)
        p = (round(spot.point[0], 3), round(spot.point[1], 3))
        move = Move(fig.id, (p,), _bearing(p, (threat.x, threat.y)))
        if game.legal(move) is not None:
            why = f"{fig.name} stays: the nearest Cover is out of reach"
            return Plan(fig.id, HOLD, None, why, False)
        why = f'{fig.name} moves {spot.distance:.1f}" to the nearest Cover from {threat.name}'
        return Plan(fig.id, HOLD, move, why, True)
