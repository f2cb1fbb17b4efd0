"""Why a program-played figure moved where it did: its candidate spots, ranked by the
program's own ranking, with the terms that ranking weighed (issue 32, Deliver 5: the
"why" made visible in the replay viewer).

A replay never asks a policy again (the steps are recorded); this module does, at
viewing time, on a game positioned just before the step (:meth:`Game.at_step`).  It
scores nothing itself: the candidates are the spot search's
(:func:`crdesk.ai.spots.spots_for`, :func:`~crdesk.ai.spots.candidates`), the order
is the player's own ranking, and the terms are what that ranking reads:

* the **solo enemy** (11.4, :mod:`crdesk.ai.enemy`): the group's order settled as the
  activation started (:meth:`SoloEnemyPolicy.orders`) and its ranking
  (:func:`~crdesk.ai.enemy.rank_spots`, the one :func:`~crdesk.ai.enemy.plan_move`
  chooses by) -- Cover from the closest player group, seen in the open, the shot (in
  range or not), the move's length, and for an encircling half the way to the flank;
* the **tactical player** (:mod:`crdesk.ai.tactical`): the group's situation
  (:meth:`TacticalPolicy.situation`) and its rating (:meth:`TacticalPolicy.rate`) --
  the score and its terms: progress towards the goal, seen in the open, a shot,
  standing in Cover terrain, cohesion, the move's length.

Each candidate also says whether the controller accepts a move there (the players
skip a spot the rules refuse and take the next).  :attr:`Explanation.agrees` says
whether the ranking asked again picks the spot the figure went to -- it does not when
the game was played by another player or another version of the program, and the
viewer says so rather than draw a "why" that is not the one.

A person's step (no reason recorded) and a move by the book's player (which walks
straight at the nearest enemy: there is nothing to rank) have no explanation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from crdesk.ai.enemy import ENCIRCLE, HOLD, SoloEnemyPolicy, closest_group, flank_goal, rank_spots
from crdesk.ai.navigation import blocked_way, rect_distance, way_to
from crdesk.ai.spots import Spots, candidates, judge, move_there, spots_for
from crdesk.ai.tactical import DETOUR_BELOW, Rated, Situation, TacticalPolicy
from crdesk.errors import IllegalActionError
from crdesk.game import adapter
from crdesk.game.actions import Action, Move
from crdesk.game.controller import Game
from crdesk.game.records import Frame, Step
from crdesk.model import Figure

Point2 = tuple[float, float]

TOP = 5
"""Candidates an explanation lists (the chosen spot is added when it ranked lower)."""
SAME_SPOT = 2e-3
"""Inches within which the spot a move ended on is a candidate (both are rounded to
0.001")."""

SOLO_ENEMY = "solo enemy"
TACTICAL = "tactical player"


@dataclass(frozen=True, slots=True)
class Term:
    """One thing the ranking weighed for a spot: its name, in words, and as a number."""

    name: str
    text: str
    value: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """One spot the figure could have gone to, where the ranking put it, and why."""

    rank: int
    """1 for the best."""
    spot: Point2
    terms: tuple[Term, ...]
    words: str
    """The player's own sentence for the spot (what its log says when it goes there)."""
    good: bool
    """The spot does what the order asks (the enemy's), or scores above staying put."""
    playable: bool
    """The controller accepts a move there (a refused spot is skipped for the next)."""
    chosen: bool
    """The figure went there."""
    stays: bool = False
    """The figure's own spot: staying put."""

    def term(self, name: str) -> Term | None:
        return next((t for t in self.terms if t.name == name), None)

    def tooltip(self) -> str:
        """The candidate in a few lines: rank, the player's words, then each term."""
        head = f"#{self.rank}" + (" — chosen" if self.chosen else "")
        if self.stays:
            head += " (staying put)"
        elif not self.playable:
            head += " (the rules refuse a move there: skipped)"
        lines = [head, self.words, *(f"{t.name}: {t.text}" for t in self.terms)]
        return "\n".join(line for line in lines if line)


@dataclass(frozen=True, slots=True)
class Explanation:
    """A program-played figure's move, explained by its player's ranking."""

    figure: str
    name: str
    player: str
    """:data:`SOLO_ENEMY` or :data:`TACTICAL`."""
    order: str
    """What the figure was about: the enemy's 11.4 order, the tactical player's goal."""
    start: Point2
    destination: Point2
    candidates: tuple[Candidate, ...]
    """The best :data:`TOP` in rank order, then the chosen spot if it ranked lower."""
    considered: int
    """How many spots the ranking ranked."""
    agrees: bool
    """The best spot the rules accept is where the figure went."""
    note: str = ""
    """Why the explanation may not be the whole story ("" when it agrees)."""

    @property
    def chosen(self) -> Candidate | None:
        return next((c for c in self.candidates if c.chosen), None)

    def summary(self) -> str:
        """One line: who moved, by which player, and its how-manieth candidate it chose."""
        chosen = self.chosen
        if chosen is None:
            return f"{self.name} ({self.player}) went to a spot not among its candidates"
        return f"{self.name} ({self.player}) chose its #{chosen.rank} of {self.considered} spots"


def explain_step(game: Game, step: Step, *, top: int = TOP) -> Explanation | None:
    """Why the program moved a figure at ``step``, ``game`` being positioned just before
    it; None for a person's step (it records no reason, or its side is not one the
    program played), a step that is not a move, or a move no ranking chose."""
    if not step.why:
        return None
    seats = game.settings
    if (seats.program_sides or seats.hot_seat) and step.actor not in seats.program_sides:
        return None
    try:
        act = Action.parse(step.action)
    except IllegalActionError:
        return None
    if not isinstance(act, Move) or not act.path:
        return None
    return explain_move(game, act.figure, act.path[-1], top=top)


def player_of(game: Game, fid: str) -> str | None:
    """Which of the program's players moves ``fid`` in this game: the solo enemy for the
    non-player force of a solo game, the tactical player for the player's force of one
    (``crdesk simulate``'s player, and a campaign Band the program plays); None when
    the book's player does (games without solo play)."""
    if not game.settings.solo:
        return None
    try:
        fig = game.fig(fid)
        player = game.battlefield.force(fig.side).player
    except (KeyError, ValueError):
        return None
    return TACTICAL if player else SOLO_ENEMY


def explain_move(
    game: Game, fid: str, destination: Point2 | None = None, *, top: int = TOP
) -> Explanation | None:
    """Rank ``fid``'s candidate spots as its player does, ``game`` being where the
    player chose (the active group's activation awaits an action); ``destination`` is
    where the figure went (None: where the ranking sends it).  None when no ranking
    applies (see :func:`player_of`) or the figure cannot move now."""
    decision = game.awaiting()
    frame = game.frames[-1] if game.frames else None
    if decision is None or frame is None or frame.kind != "activation" or decision.kind != "act":
        return None
    if fid not in frame.data.get("members", ()):
        return None
    player = player_of(game, fid)
    fig = game.fig(fid)
    if player == SOLO_ENEMY:
        ranking = _enemy_ranking(game, frame, fig)
    elif player == TACTICAL:
        ranking = _tactical_ranking(game, frame, fig)
    else:
        return None
    if ranking is None:
        return None
    return _explained(game, fig, player, ranking, destination, top)


@dataclass(frozen=True, slots=True)
class _Ranking:
    """A player's ranking of one figure's spots, before it is cut to the best few."""

    order: str
    spots: Spots
    ranked: Sequence[int]
    good: Callable[[int], bool]
    words: Callable[[int], str]
    terms: Callable[[int], tuple[Term, ...]]


def _explained(
    game: Game,
    fig: Figure,
    player: str,
    ranking: _Ranking,
    destination: Point2 | None,
    top: int,
) -> Explanation:
    spots = ranking.spots
    ranked = [int(i) for i in ranking.ranked]

    judged: dict[int, bool] = {}

    def playable(i: int) -> bool:
        if i not in judged:
            judged[i] = i == 0 or move_there(game, fig.id, spots.point(i), fig.facing) is not None
        return judged[i]

    first = next((i for i in ranked if playable(i)), None)
    if destination is None:
        destination = spots.point(first) if first is not None else (fig.x, fig.y)
    near = [
        i
        for i in ranked
        if math.hypot(spots.points[i, 0] - destination[0], spots.points[i, 1] - destination[1])
        <= SAME_SPOT
    ]
    went = near[0] if near else None
    shown = ranked[:top]
    if went is not None and went not in shown:
        shown.append(went)
    out = tuple(
        Candidate(
            rank=ranked.index(i) + 1,
            spot=spots.point(i),
            terms=ranking.terms(i),
            words=ranking.words(i),
            good=ranking.good(i),
            playable=playable(i),
            chosen=i == went,
            stays=i == 0,
        )
        for i in shown
    )
    agrees = went is not None and went == first
    note = ""
    if went is None:
        note = (
            "the spot it went to is not one of its candidates (a way round what stood in "
            "the way, or a move another player chose)"
        )
    elif not agrees:
        note = (
            "asked again, the ranking prefers another spot: the game was played by "
            "another player or another version of the program"
        )
    return Explanation(
        figure=fig.id,
        name=fig.name,
        player=player,
        order=ranking.order,
        start=(fig.x, fig.y),
        destination=(float(destination[0]), float(destination[1])),
        candidates=out,
        considered=len(ranked),
        agrees=agrees,
        note=note,
    )


# ----------------------------------------------------------------------------
# The solo enemy (11.4)


def _enemy_ranking(game: Game, frame: Frame, fig: Figure) -> _Ranking | None:
    """The spots :func:`~crdesk.ai.enemy.plan_move` ranks for a figure that moves: every
    candidate within the movement it has left, by the order's ranking."""
    try:
        orders = SoloEnemyPolicy().orders(game)
    except IllegalActionError:
        return None
    task = orders.tasks.get(fig.id, HOLD)
    group = [i for i in orders.target_group if game.fig(i).status.can_act]
    group = group or list(closest_group(game, [fig.id]))
    d = frame.data
    left = max(0.0, float(d["allow"].get(fig.id, 0.0)) - float(d["used"].get(fig.id, 0.0)))
    spots = spots_for(game, fig, left)
    if not len(spots.targets):
        return None
    cols = spots.columns(frozenset(group))
    if not len(cols):
        cols = np.arange(len(spots.targets))
    ranked, good, words = rank_spots(game, orders, fig, spots, cols)
    rng = adapter.weapon_range(fig, game.rules)
    flank = flank_goal(game, orders) if task == ENCIRCLE else None

    def terms(i: int) -> tuple[Term, ...]:
        seen = spots.seen[i, cols]
        cover = spots.cover[i, cols]
        covered = int((seen & cover).sum())
        hidden = int((~seen).sum())
        bare = int((seen & ~cover).sum())
        out = [
            Term(
                "Cover from the closest group",
                f"in Cover from {covered}, out of sight of {hidden}, seen in the open by "
                f"{bare} (of {len(cols)})",
                float(covered + hidden),
            ),
            Term(
                "exposure",
                f"seen in the open by {int(spots.exposed[i])} player figure(s)",
                float(spots.exposed[i]),
            ),
            Term(
                "return fire",
                f"seen by {int(spots.seen[i].sum())} player figure(s), in Cover or not",
                float(spots.seen[i].sum()),
            ),
            Term(
                "distance",
                f'{float(spots.distance[i, cols].min()):.0f}" from the closest group',
                float(spots.distance[i, cols].min()),
            ),
            _shot_term(game, spots, i, [int(j) for j in cols], rng),
            Term("travel", f'{spots.travel[i]:.1f}"', float(spots.travel[i])),
        ]
        if flank is not None:
            gap = math.hypot(spots.points[i, 0] - flank[0], spots.points[i, 1] - flank[1])
            out.append(
                Term(
                    "flank", f'{gap:.1f}" from the flank spot ({flank[0]:.0f}, {flank[1]:.0f})', gap
                )
            )
        return tuple(out)

    return _Ranking(
        orders.headline(game),
        spots,
        [int(i) for i in ranked],
        lambda i: bool(good[i]),
        words,
        terms,
    )


def _shot_term(game: Game, spots: Spots, i: int, cols: Sequence[int], rng: float) -> Term:
    """The nearest figure of ``cols`` the figure would see from spot ``i``, and whether it
    is in the weapon's range."""
    seen = [j for j in cols if spots.sees[i, j]]
    if not seen:
        return Term("shot", "none: sees no one of the closest group", -1.0)
    j = min(seen, key=lambda j: (float(spots.distance[i, j]), spots.targets[j]))
    d = float(spots.distance[i, j])
    reach = "in range" if rng > 0 and d <= rng else "out of range"
    return Term("shot", f'at {game.fig(spots.targets[j]).name} {d:.0f}" away, {reach}', d)


# ----------------------------------------------------------------------------
# The tactical player


def _goal_distance(
    game: Game, sit: Situation, points: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Inches to the goal as the tactical player reckons them: round what is in the way
    when its situation says so, else straight."""
    if sit.nav:
        return way_to(game, sit.target.area, points)
    return rect_distance(points, sit.target.area)


def _tactical_ranking(game: Game, frame: Frame, fig: Figure) -> _Ranking | None:
    """The spots the tactical player rates for a figure that moves (every straight and
    routed candidate within its movement left), best score first, ties by the shorter
    move; the distance to the goal straight, or round what is in the way when the
    straight way is stuck or gets nowhere (as :meth:`TacticalPolicy.plan` reckons it)."""
    policy = TacticalPolicy()
    base = policy.situation(game, frame).of(fig.id)
    left = game.movement_left(frame, fig.id)
    points, travel = candidates(game, fig, left)
    spots = judge(game, fig, points, travel)
    idx = np.arange(len(spots))
    ways = (True,) if blocked_way(game, fig, base.target.area) else (False, True)
    rated: Rated | None = None
    ranked: npt.NDArray[np.int64] = idx
    sit = base
    for nav in ways:
        sit = replace(base, nav=nav)
        dist0 = float(_goal_distance(game, sit, spots.points[:1])[0])
        rated = policy.rate(game, frame, sit, fig, spots, dist0)
        ranked = np.lexsort((idx, spots.travel, -np.round(rated.score, 9)))
        if dist0 <= 1.0 or rated.progress[int(ranked[0])] >= DETOUR_BELOW:
            break
    assert rated is not None
    done = rated

    def terms(i: int) -> tuple[Term, ...]:
        n = int(done.exposed[i])
        gap = float(done.gap[i])
        return (
            Term("score", f"{done.score[i]:+.1f}", float(done.score[i])),
            Term(
                "progress",
                f'{done.progress[i]:+.1f}" towards the goal ({done.dist[i]:.1f}" to go)',
                float(done.progress[i]),
            ),
            Term("exposure", f"seen in the open by {n} enemy figure(s)", float(n)),
            Term("shot", "a shot in range" if done.shot[i] else "no shot", float(done.shot[i])),
            Term(
                "Cover terrain",
                "stands in woods, a building or by a wall" if done.shelter[i] else "no",
                float(done.shelter[i]),
            ),
            Term(
                "cohesion",
                f'{gap:.1f}" beyond the group' if gap > 0.05 else "with the group",
                gap,
            ),
            Term("travel", f'{spots.travel[i]:.1f}"', float(spots.travel[i])),
        )

    stay = float(done.score[0])
    return _Ranking(
        sit.why,
        spots,
        [int(i) for i in ranked],
        lambda i: float(done.score[i]) > stay or i == 0,
        lambda i: done.words(game, i),
        terms,
    )
