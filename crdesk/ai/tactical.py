"""The tactical player for the player's Band in batch simulation: the encounter's
objective, played.

:class:`TacticalPolicy` (``crdesk simulate --player tactical``, the default) plays
the Band the way a sensible wargamer would, so that a balance report measures the
rules rather than a clumsy player:

* **The objective first.**  Each activation the group heads for the encounter's
  next open goal (:func:`next_target`): the Patrol's far-edge sections (where two
  open ones meet, half the group on each side, so that one activation's end counts
  for both; else the open one nearest the group), then home by the entry edge; the
  Raid's objective (the nearest PEF until it is found, then its holder or where it
  lies), then home; the Defend's item (hold by it: the two figures nearest it never
  leave it, and a Defend is never left, 12.3.6).  A figure that can leave by
  the entry edge when leaving is the goal does so.
* **Cover to Cover.**  Each figure picks its spot from the same candidates the
  enemy AI uses (:func:`crdesk.ai.spots.spots_for`: rays within its movement,
  judged against every enemy figure by the game's sight engine) by a score:
  inches of progress towards the goal, plus a bonus for standing in terrain that
  gives Cover whatever the direction (woods, buildings, beside walls: what
  protects against a PEF that turns into enemies), plus a bonus for a shot in
  range when enemies are on the table, minus a heavy cost for every enemy that
  would see it in the open, minus a cost for straying from the group (cohesion,
  6.2).  So it does not walk into the open in front of enemies when Cover is
  near, it bypasses enemies where it can, and it holds in Cover with a shot
  rather than advance into the open.
* **The Star's Free Will** (5.2): on the Received Fire and Man Down tests the Star
  passes 2 by choice (Carry On, or Return Fire), the best result the test has; the
  book policy rolls, as the book does for Grunts.
* **Fire** whenever it has a shot (the controller's book target, 7.9.8), before
  moving: a stationary shooter, then the move to Cover.  Out of ammo: reload.
* **Tempo.**  Far from the goal with no enemy on the table the group Fast Moves
  (7.4.2).  When the turns left (the simulator's turn limit) are too few for
  what is still to do at a walking pace, the group *pushes*: an enemy seeing it
  in the open costs less, so stand-offs end.
* **Leaving.**  When the objective is done the group heads for the entry edge and
  leaves (12.1, 12.2); in a Raid the objective's carrier first, its escorts after
  it (left alone, it may fall with no raider left to take the objective up).  Never
  before, however few are left: the encounter is lost the moment the last figure
  walks off without the objective (12), so a Band cut down goes on for it (the turn
  limit or the enemy may end it; walking off surely does).

Deterministic: no randomness outside the game's dice; every choice is a pure
function of the game's state (ties broken by the candidates' stable order), and
every step carries its why.  The caches only save time.

:class:`crdesk.ai.objective.ObjectivePolicy` is the earlier, plainer player
(``--player objective``): the book policy, walking to the objective only when no
enemy is on the table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from crdesk.ai.navigation import blocked_way, nearest_in, rect_distance, way_to
from crdesk.ai.policy import BookPolicy
from crdesk.ai.spots import MIN_MOVE, RAYS, Spots, candidates, judge, move_there, spots_for
from crdesk.game import adapter, encounter
from crdesk.game.actions import (
    Action,
    End,
    Exit,
    FastMove,
    Fire,
    FreeWill,
    Move,
    Prone,
    Reload,
    Stand,
    StarPower,
)
from crdesk.game.controller import Game
from crdesk.game.records import Decision, Frame
from crdesk.geometry import movement
from crdesk.geometry.terrain_index import TerrainIndex
from crdesk.model import Figure, Status, TerrainKind
from crdesk.rules.common import words
from crdesk.rules.stars import damage_levels

Point2 = tuple[float, float]
Rect = tuple[float, float, float, float]
Floats = npt.NDArray[np.float64]


# --------------------------------------------------------------------------
# The tactical policy (--player tactical)

W_EXPOSED = 8.0
"""Inches of progress that one enemy seeing the spot in the open costs."""
W_EXPOSED_PUSH = 1.5
"""The same when the group must push on: leaving, or too few turns left for caution."""
W_SHOT = 3.0
"""Inches of progress a shot in range from the spot is worth while enemies are on the table."""
W_SHELTER = 1.5
"""Inches of progress that standing in Cover terrain (woods, a building, by a wall) is worth."""
W_ARRIVE = 4.0
"""Inches of progress that reaching the goal area is worth (more than Cover terrain beside it)."""
GUARD_OUTSIDE = 100.0
"""Cost of a spot outside the target area (and per inch from it) for the item's guard."""
W_COHESION = 2.0
"""Cost per inch a spot lies beyond cohesion distance of the nearest friend of the group."""
W_TRAVEL = 0.01
"""Cost per inch moved: of two equal spots, the nearer (staying put before all)."""
COHESION_REACH = 4.5
"""Centre to centre, inches: within 4" base to base of a friend with a margin (6.2)."""
WALL_SHELTER = 1.0
"""Inches beside a wall or other Cover obstacle that count as sheltered (7.9.5)."""
NORMAL_MOVE = 8.0
"""Inches of a normal move (7.4): the group's pace before any figure has moved."""
FAST_MOVE_BEYOND = 10.0
"""Inches to the goal beyond which a group with no enemy on the table Fast Moves."""
WALK_PER_TURN = 6.0
"""Inches a group is reckoned to cover a turn, for the tempo (8", not every turn active)."""
DETOUR_BELOW = 1.0
"""Inches of progress below which a figure far from its goal looks for a two-leg move."""
DETOUR_LEGS = 4
"""First legs (the rays ending nearest the goal) a two-leg search tries."""
DETOUR_GAIN = 1.0
"""How much better a two-leg move must score than the best straight one."""
JUDGE_FIRST = 48
"""Spots judged by the sight engine first (the best by what needs no sight)."""
LEGAL_TRIES = 8
"""Best spots offered to :meth:`Game.legal` before a figure stays where it is."""
GOAL_MARGIN = 0.25
"""Inches inside a goal area a figure aims for, so that it is inside, not on the line."""
MEET_REACH = 4.0
"""Inches either side of the line between two open Patrol sections within which the
group's halves aim, so that it ends one activation in both (12.1)."""
GUARDS = 2
"""Figures (the nearest the item) that never leave the Defend's item (12.3.6): one shot
down or ducking back does not lose it."""

ADVANCE = "advance"
ENGAGE = "engage"
LEAVE = "leave"


@dataclass(frozen=True, slots=True)
class Target:
    """Where the group is going and why (the area any point of which will do)."""

    area: Rect
    words: str
    leaving: bool = False
    """The goal is to leave by the entry edge (figures that can, exit)."""
    rest: float = 0.0
    """Inches still to go after this goal (the tempo's estimate)."""
    parts: tuple[tuple[str, Rect], ...] = ()
    """A figure's own part of ``area`` (figure id, area), where the group splits it: the
    Patrol's two sections where they meet, half the group on each side (12.1)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """The group's reading of the table this activation."""

    mode: str
    target: Target
    push: bool
    why: str
    guards: tuple[str, ...] = ()
    """The figures that must stay in the target area (the Defend's item, 12.3.6)."""
    nav: bool = False
    """Distances to the goal by the navigation grid (:func:`way_to`), not straight."""

    def of(self, fid: str) -> Situation:
        """The situation as figure ``fid`` plays it: its own part of the goal, if any."""
        for who, area in self.target.parts:
            if who == fid:
                return replace(self, target=replace(self.target, area=area, parts=()))
        return self


def _distance(game: Game, sit: Situation, points: Floats) -> Floats:
    """Inches from each point to the goal: straight, or by the navigation grid; from
    inside a building whose walls the straight line would cross, by its nearest way out
    (:func:`_out_of_buildings`)."""
    area = sit.target.area
    dist = way_to(game, area, points) if sit.nav else rect_distance(points, area)
    return _out_of_buildings(game, area, points, dist, sit.nav)


def _buildings(index: TerrainIndex) -> list[tuple[Any, Rect, Floats, Floats]]:
    """Each building's outline, its bounds, and its openings' middles with what passing
    each costs (8.2); cached per terrain index."""
    found = index.cache.get("tactical_buildings")
    if isinstance(found, list):
        return found
    out: list[tuple[Any, Rect, Floats, Floats]] = []
    for n, openings in sorted(index.building_openings.items()):
        if not openings:
            continue
        mids = np.array(
            [(seg.interpolate(0.5, normalized=True).coords[0]) for _, _, seg in openings],
            dtype=np.float64,
        )
        costs = np.array([movement.OPENING_COST[kind] for _, kind, _ in openings], np.float64)
        outline = index.outlines[n]
        shapely.prepare(outline)
        out.append((outline, outline.bounds, mids, costs))
    index.cache["tactical_buildings"] = out
    return out


def _out_of_buildings(game: Game, area: Rect, points: Floats, dist: Floats, nav: bool) -> Floats:
    """``dist`` where a point lies inside a building that does not reach the goal ``area``:
    the way out by the cheapest of its doors and windows -- to the opening, what passing
    it costs (8.2), on from there -- when that is longer.  A building's walls stop a
    figure (7.4): a figure inside, against the wall on its goal's side, is no nearer the
    goal than its way out, and a spot in a building is only as good as the building's
    exits."""
    buildings = _buildings(game.vis.index)
    if not buildings or not len(points):
        return dist
    out = dist
    for outline, (x0, y0, x1, y1), mids, costs in buildings:
        if area[0] <= x1 and area[2] >= x0 and area[1] <= y1 and area[3] >= y0:
            continue  # the goal reaches into the building: no way out needed
        near = (points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0) & (points[:, 1] < y1)
        if not near.any():
            continue
        rows = np.flatnonzero(near)
        inside = shapely.contains_xy(outline, points[rows, 0], points[rows, 1])
        rows = rows[inside]
        if not len(rows):
            continue
        beyond = way_to(game, area, mids) if nav else rect_distance(mids, area)
        to = np.hypot(
            points[rows, 0, None] - mids[None, :, 0], points[rows, 1, None] - mids[None, :, 1]
        )
        way = (to + costs[None, :] + beyond[None, :]).min(axis=1)
        if out is dist:
            out = dist.copy()
        out[rows] = np.maximum(out[rows], way)
    return out


def _point_area(x: float, y: float) -> Rect:
    return (x, y, x, y)


def _area_centre(area: Rect) -> Point2:
    return ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2)


def _home(game: Game, radius: float, words: str) -> Target:
    table = game.battlefield.table
    edge = table.height - radius
    return Target((radius, edge - GOAL_MARGIN, table.width - radius, edge), words, leaving=True)


def next_target(game: Game, members: Sequence[str]) -> Target | None:
    """The group's next goal from the encounter's checklist (None: nothing to go for,
    hold where it is)."""
    if "encounter" not in game.state:
        return None
    figs = [game.fig(m) for m in members]
    if not figs:
        return None
    cx = sum(f.x for f in figs) / len(figs)
    cy = sum(f.y for f in figs) / len(figs)
    r = max(f.radius for f in figs)
    table = game.battlefield.table
    kind = game.state["encounter"]["type"]
    checklist = encounter.objectives(game)
    items = {item["id"]: item for item in checklist["items"]}
    home = table.height
    if kind == "patrol":
        done = set(game.state["encounter"]["sections"])
        open_ = [s for s in encounter.PATROL_SECTIONS if s not in done]
        if not open_:
            return _home(game, r, "the patrol reached sections 1, 2 and 3: home by the entry edge")
        w3 = table.width / 3
        top = encounter.PATROL_REACH + r - GOAL_MARGIN

        def area(s: int) -> Rect:
            x0 = (s - 1) * w3
            return (x0 + r + GOAL_MARGIN, r, x0 + w3 - r - GOAL_MARGIN, top)

        here = np.array([[cx, cy]])
        # two open sections side by side: where they meet, half the group on each side,
        # so one activation's end counts for both (12.1)
        meets = [s for s in open_ if s + 1 in open_] if len(figs) >= 2 else []
        if meets:

            def meet(s: int) -> tuple[Rect, Rect]:
                x = s * w3
                return (
                    (x - MEET_REACH, r, x - r - GOAL_MARGIN, top),
                    (x + r + GOAL_MARGIN, r, x + MEET_REACH, top),
                )

            def strip(s: int) -> Rect:
                a, b = meet(s)
                return (a[0], a[1], b[2], b[3])

            s = min(meets, key=lambda s: (float(rect_distance(here, strip(s))[0]), s))
            left, right = meet(s)
            order = sorted(figs, key=lambda f: (f.x, f.id))
            half = len(order) // 2
            parts = tuple((f.id, left if k < half else right) for k, f in enumerate(order))
            rest = w3 * (len(open_) - 2) + home
            words = (
                f'to within 6" of the far edge where sections {s} and {s + 1} meet, '
                "half the group on each side (12.1)"
            )
            return Target(strip(s), words, rest=rest, parts=parts)
        s = min(open_, key=lambda s: (float(rect_distance(here, area(s))[0]), s))
        rest = w3 * (len(open_) - 1) + home
        return Target(area(s), f'to within 6" of the far edge in section {s} (12.1)', rest=rest)
    if kind == "raid":
        obj = game.state["encounter"]["objective"]
        if items.get("carry_off", {}).get("state") != "open":
            return None
        if obj is None:
            pefs = [p for p in game.state.get("pefs", []) if not p["resolved"]]
            if not pefs:
                return None
            p = min(pefs, key=lambda p: (math.hypot(p["x"] - cx, p["y"] - cy), p["id"]))
            return Target(
                _point_area(float(p["x"]), float(p["y"])),
                f"to find the objective: towards PEF {p['id'][3:]} (12.2.6)",
                rest=home,
            )
        holder = game.fig(obj["holder"]) if obj["holder"] else None
        if holder is not None and holder.side == figs[0].side:
            return _home(game, r, f"{holder.name} has the objective: home by the entry edge")
        at = (holder.x, holder.y) if holder is not None else (obj["x"], obj["y"])
        who = f"held by {holder.name}" if holder is not None else "where it lies"
        return Target(
            _point_area(float(at[0]), float(at[1])), f"to the objective, {who} (12.2)", rest=home
        )
    # Defend: hold by the item when there is one to keep; else hold where it stands
    item = game.state["encounter"].get("item")
    if item is not None:
        x, y = float(item["x"]), float(item["y"])
        reach = encounter.ITEM_GUARD - 0.5
        return Target(
            (x - reach, y - reach, x + reach, y + reach), "to keep with the item (12.3.6)"
        )
    return None


def _shelter(index: TerrainIndex) -> Any:
    """Where a figure stands in Cover whatever the direction of the threat: inside woods
    or a building, or beside a wall or other Cover obstacle (7.9.5); prepared once per
    terrain index.  What a figure looks for when the threat is a PEF, not a figure."""
    found = index.cache.get("tactical_shelter")
    if found is None:
        parts = [
            index.outlines[n]
            for n, kind in enumerate(index.kinds)
            if kind in (TerrainKind.WOODS, TerrainKind.WOODED_HILL, TerrainKind.BUILDING)
        ]
        parts += [index.outlines[n].buffer(WALL_SHELTER) for n in index.obstacle_ids]
        found = shapely.union_all(parts) if parts else shapely.Polygon()
        shapely.prepare(found)
        index.cache["tactical_shelter"] = found
    return found


def sheltered(game: Game, points: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """(P,) whether each point stands in :func:`_shelter`."""
    geom = _shelter(game.vis.index)
    if geom.is_empty or not len(points):
        return np.zeros(len(points), dtype=bool)
    return np.asarray(shapely.contains_xy(geom, points[:, 0], points[:, 1]), dtype=bool)


FREE_WILL_WHY = "uses Free Will: passes 2, the test's best result (5.2, 7.7)"
"""The tactical player's reason for its Star's Free Will."""
NO_POWER_WHY = (
    "declines Star Power: the hit is only {floor}, the least damage, so a roll can "
    "reduce nothing and each 6 would lose a die (5.2)"
)
"""The tactical player's reason for declining Star Power ({floor}: the least damage)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """Where one figure goes (None: it stays), and why."""

    move: Move | None
    why: str


class TacticalPolicy:
    """The player's Band played towards the objective, Cover to Cover (see the module)."""

    def __init__(self) -> None:
        self._book = BookPolicy(advance=False)
        self._choices: dict[tuple[object, ...], Choice] = {}

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        frame = game.frames[-1] if game.frames else None
        if decision.kind == "act" and frame is not None and frame.kind == "activation":
            return self._act(game, decision, frame)
        if decision.kind == "free_will" and decision.figure is not None:
            # pass 2 is the best row of either test (7.7), by 7.8's ranking: Carry On
            # on Man Down, Return Fire on Received Fire (a Star is never Outgunned);
            # a roll can only match it, and may make the Star Duck Back or leave
            return FreeWill(decision.figure, 2), FREE_WILL_WHY
        if decision.kind == "star_power" and decision.figure is not None and frame is not None:
            floor = damage_levels(bool(frame.data["melee"]))[0]
            hits = frame.data["hits"][decision.figure]
            if all(Status(s) is floor for s in hits):
                return StarPower(decision.figure, False), NO_POWER_WHY.format(floor=words(floor))
        return self._book.decide(game, decision)

    # -- reading the table -------------------------------------------------------

    def situation(self, game: Game, frame: Frame) -> Situation:
        """The active group's mode, goal and tempo (a pure function of the game)."""
        d = frame.data
        side = d["side"]
        members = [m for m in d["members"] if game.fig(m).status.can_act]
        exited = set(game.state.get("exited", ()))
        mine = [f for f in game.alive(side) if f.id not in exited]
        foes = game.alive(game.enemy_of(side))
        # no leaving before the objective is done, however few are left: a Patrol or Raid
        # left before it is lost for sure (12.1, 12.2), a Defend left is lost (12.3)
        target = next_target(game, members)
        defend = game.state.get("encounter", {}).get("type") == "defend"
        if target is None:
            figs = [game.fig(m) for m in members] or [game.fig(d["leader"])]
            cx = sum(f.x for f in figs) / len(figs)
            cy = sum(f.y for f in figs) / len(figs)
            target = Target((cx - 3.0, cy - 3.0, cx + 3.0, cy + 3.0), "holds where it stands")
        mode = LEAVE if target.leaving else (ENGAGE if foes else ADVANCE)
        push = False
        limit = game.settings.max_turns
        if limit is not None and mode != ADVANCE:
            pts = np.array([[game.fig(m).x, game.fig(m).y] for m in members] or [[0.0, 0.0]])
            togo = float(rect_distance(pts, target.area).min()) + target.rest
            turns_left = max(0, int(limit) - game.turn + 1)
            push = togo > 0.0 and (mode == LEAVE or turns_left * WALK_PER_TURN < togo)
        words = target.words + ("; pushes on" if push and mode != LEAVE else "")
        guards: tuple[str, ...] = ()
        item = game.state.get("encounter", {}).get("item") if defend else None
        if item is not None and mine:
            x, y = float(item["x"]), float(item["y"])
            near = sorted(mine, key=lambda f: (math.hypot(f.x - x, f.y - y), f.id))[:GUARDS]
            guards = tuple(f.id for f in near if f.id in members)
            if guards:
                names = " and ".join(game.fig(g).name for g in guards)
                words += f"; {names} stay{'s' if len(guards) == 1 else ''} with the item"
        return Situation(mode, target, push, words, guards)

    def plan(self, game: Game, situation: Situation, fid: str) -> Choice:
        """Where figure ``fid`` of the active group would go in ``situation`` (tests and
        tools ask this; :meth:`decide` asks it with :meth:`situation`'s answer)."""
        frame = game.frames[-1]
        return self._choice(game, frame, situation, fid, game.movement_left(frame, fid))

    # -- the active group ----------------------------------------------------------

    def _act(self, game: Game, decision: Decision, frame: Frame) -> tuple[Action, str]:
        d = frame.data
        sit = self.situation(game, frame)
        able = [o.figure for o in decision.options if isinstance(o, Prone | Stand) and o.figure]
        if sit.target.leaving:
            carrier = encounter.carrier(game, d["side"])
            for option in decision.options:
                if isinstance(option, Exit) and carrier in (None, option.figure):
                    name = game.fig(option.figure).name
                    return option, f"{name} leaves by the entry edge: {sit.why}"
        for option in decision.options:
            if isinstance(option, Reload):
                return option, f"{game.fig(option.figure).name} reloads (7.9.2)"
        for option in decision.options:
            if isinstance(option, Fire):
                names = ", ".join(game.fig(t).name for t in option.target_ids)
                return option, (
                    f"{game.fig(option.figure).name} fires at {names}: it has a shot "
                    "(the nearest enemy in sight and range first, 7.9.8)"
                )
        fast = self._fast_move(game, frame, decision, sit)
        if fast is not None:
            return fast
        for fid in able:
            fig = game.fig(fid)
            if fid in d["moved"]:
                continue
            left = game.movement_left(frame, fid)
            if fig.prone:
                stand = self._stand(game, frame, sit, fid, left)
                if stand is not None:
                    return stand
                continue
            if left < MIN_MOVE:
                continue
            choice = self._choice(game, frame, sit, fid, left)
            if choice.move is not None and game.legal(choice.move) is None:
                return choice.move, choice.why
        return End(), f"{sit.why}: every figure has moved or holds its spot; ends the activation"

    def _fast_move(
        self, game: Game, frame: Frame, decision: Decision, sit: Situation
    ) -> tuple[Action, str] | None:
        """Fast Move (7.4.2) when no enemy is on the table and the goal is far."""
        fast = next((o for o in decision.options if isinstance(o, FastMove)), None)
        if fast is None or game.alive(game.enemy_of(frame.data["side"])):
            return None
        pts = np.array([[game.fig(m).x, game.fig(m).y] for m in fast.figures], dtype=np.float64)
        if not len(pts) or float(np.median(rect_distance(pts, sit.target.area))) < (
            FAST_MOVE_BEYOND
        ):
            return None
        return fast, f"no enemy on the table and the goal is far: the group Fast Moves ({sit.why})"

    def _stand(
        self, game: Game, frame: Frame, sit: Situation, fid: str, left: float
    ) -> tuple[Action, str] | None:
        """A prone figure stands up (half its movement, 7.4.3) when the spot it can then
        reach is better than lying where it is."""
        after = left - float(frame.data["allow"].get(fid, 0.0)) / 2
        stand = Stand(fid)
        if after < MIN_MOVE or game.legal(stand) is not None:
            return None
        standing = game.fork()
        standing.play(stand)
        choice = self._choice(standing, standing.frames[-1], sit, fid, after)
        if choice.move is None:
            return None
        name = game.fig(fid).name
        return stand, f"{name} stands up (half its movement, 7.4.3) to move on: {choice.why}"

    def _choice(self, game: Game, frame: Frame, sit: Situation, fid: str, left: float) -> Choice:
        bf = game.battlefield
        key = (
            game.seed,
            int(frame.data["number"]),
            fid,
            round(left, 3),
            sit,
            bf.terrain_revision,
            tuple(frame.data["moved"]),
            tuple((f.id, f.x, f.y, f.status, f.prone) for f in bf.figures()),
        )
        found = self._choices.get(key)
        if found is None:
            found = self._choose(game, frame, sit, fid, left)
            if len(self._choices) > 512:
                self._choices.clear()
            self._choices[key] = found
        return found

    def _choose(self, game: Game, frame: Frame, sit: Situation, fid: str, left: float) -> Choice:
        fig = game.fig(fid)
        sit = sit.of(fid)
        if sit.mode == ENGAGE and not sit.push and fid not in sit.guards:
            own = spots_for(game, fig, 0.0)
            rng = adapter.weapon_range(fig, game.rules)
            if (
                len(own.targets)
                and own.exposed[0] == 0
                and rng > 0
                and bool((own.sees[0] & (own.distance[0] <= rng)).any())
            ):
                dist = rect_distance(own.points, sit.target.area)
                zero = np.zeros(1)
                rated = Rated(
                    own,
                    zero,
                    zero,
                    dist,
                    sheltered(game, own.points),
                    own.exposed,
                    np.ones(1, dtype=bool),
                    zero,
                )
                return Choice(
                    None,
                    f"{fig.name} holds its spot in Cover with a shot ({sit.why}): "
                    + rated.words(game, 0),
                )
        points, travel = candidates(game, fig, left)
        area = sit.target.area
        # the straight distance, unless impassable ground lies on the straight way; round
        # what is in the way (the navigation grid) also when the straight way is stuck
        for nav in (True,) if blocked_way(game, fig, area) else (False, True):
            sit = replace(sit, nav=nav)
            dist0 = float(_distance(game, sit, np.array(points[:1]))[0])
            rated, _rows = self._judged(game, frame, sit, fig, points, travel, dist0)
            spots = rated.spots
            ranked = np.lexsort((np.arange(len(spots)), spots.travel, -np.round(rated.score, 9)))
            best = int(ranked[0])
            if dist0 <= 1.0 or rated.progress[best] >= DETOUR_BELOW:
                break
        if dist0 > 1.0 and rated.progress[best] < DETOUR_BELOW:
            detour = self._detour(game, frame, sit, fig, points, travel, dist0, rated.score[best])
            if detour is not None:
                return detour
        for i in ranked[:LEGAL_TRIES]:
            i = int(i)
            if i == 0 or spots.travel[i] < MIN_MOVE:
                break  # staying is the best there is
            p = spots.point(i)
            facing = round(_bearing(p, _look_at(game, spots, i, area)), 1)
            move = move_there(game, fid, p, facing)  # straight, or its route (issue 31)
            if move is not None:
                return Choice(
                    move,
                    f'{fig.name} moves {spots.travel[i]:.1f}" to ({p[0]:.1f}, {p[1]:.1f}) '
                    f"{sit.why}: {rated.words(game, i)}",
                )
        return Choice(None, f"{fig.name} holds its spot ({sit.why}): {rated.words(game, 0)}")

    def _base(
        self,
        game: Game,
        frame: Frame,
        sit: Situation,
        fig: Figure,
        pts: npt.NDArray[np.float64],
        travel: npt.NDArray[np.float64],
        dist0: float,
    ) -> tuple[Floats, Floats, Floats, npt.NDArray[np.bool_], Floats]:
        """The part of each spot's score that needs no sight: (score, progress, distance
        to the goal, shelter, cohesion gap)."""
        dist = _distance(game, sit, pts)
        progress = dist0 - dist
        shelter = sheltered(game, pts)
        score = progress + W_SHELTER * shelter - W_TRAVEL * travel
        if dist0 > 1e-9:
            score = score + W_ARRIVE * (rect_distance(pts, sit.target.area) <= 1e-9)
        if fig.id in sit.guards:  # it must not leave the item (12.3.6)
            score = score - GUARD_OUTSIDE * (dist > 1e-9) - GUARD_OUTSIDE * dist
        gap = self._cohesion_gap(game, frame, fig.id, pts)
        return score - W_COHESION * gap, progress, dist, shelter, gap

    def rate(
        self, game: Game, frame: Frame, sit: Situation, fig: Figure, spots: Spots, dist0: float
    ) -> Rated:
        """Each of ``spots``' score and what it is made of, as :meth:`plan` rates them
        (``dist0``: the figure's distance to the goal now).  Public for
        :mod:`crdesk.ai.explain`."""
        return self._rate(game, frame, sit, fig, spots, dist0)

    def _rate(
        self, game: Game, frame: Frame, sit: Situation, fig: Figure, spots: Spots, dist0: float
    ) -> Rated:
        """Each spot's score (see the module) and what it is made of."""
        score, progress, dist, shelter, gap = self._base(
            game, frame, sit, fig, spots.points, spots.travel, dist0
        )
        exposed = np.zeros(len(spots), dtype=np.int64)
        shot = np.zeros(len(spots), dtype=bool)
        if len(spots.targets):
            exposed = spots.exposed
            rng = adapter.weapon_range(fig, game.rules)
            if rng > 0:
                shot = np.asarray((spots.sees & (spots.distance <= rng)).any(axis=1), bool)
            weight = W_EXPOSED_PUSH if sit.push else W_EXPOSED
            score = score - weight * exposed
            if sit.mode == ENGAGE:
                score = score + W_SHOT * shot
        return Rated(spots, score, progress, dist, shelter, exposed, shot, gap)

    def _judged(
        self,
        game: Game,
        frame: Frame,
        sit: Situation,
        fig: Figure,
        points: list[Point2],
        travel: list[float],
        dist0: float,
    ) -> tuple[Rated, list[int]]:
        """The spots judged by the sight engine and rated, the most promising first: only
        the :data:`JUDGE_FIRST` spots whose score could be the highest (sight can only add
        the shot's bonus) are judged, unless one not judged could still beat the best
        of them.  Row 0 (staying) is always judged.  The same best choice as judging all;
        also returns which of the given spots the rows are."""
        pts = np.array(points, dtype=np.float64).reshape(-1, 2)
        trav = np.array(travel, dtype=np.float64)
        n = len(points)
        every = list(range(n))
        if n <= JUDGE_FIRST or not game.alive(game.enemy_of(fig.side)):
            spots = judge(game, fig, points, travel)
            return self._rate(game, frame, sit, fig, spots, dist0), every
        bound = self._base(game, frame, sit, fig, pts, trav, dist0)[0]
        if sit.mode == ENGAGE:
            bound = bound + W_SHOT
        order = np.lexsort((np.arange(n), -np.round(bound, 9)))
        first = sorted({0, *order[: JUDGE_FIRST - 1].tolist()})
        some = judge(game, fig, [points[i] for i in first], [travel[i] for i in first])
        rated = self._rate(game, frame, sit, fig, some, dist0)
        rest = np.ones(n, dtype=bool)
        rest[first] = False
        if float(rated.score.max()) >= float(bound[rest].max()):
            return rated, first
        spots = judge(game, fig, points, travel)
        return self._rate(game, frame, sit, fig, spots, dist0), every

    def _detour(
        self,
        game: Game,
        frame: Frame,
        sit: Situation,
        fig: Figure,
        found: list[Point2],
        reach: list[float],
        dist0: float,
        to_beat: float,
    ) -> Choice | None:
        """Two straight legs where no straight move gets on (walls, a building's doors,
        impassable ground in the way): from the far end of the :data:`DETOUR_LEGS` rays
        that end nearest the goal, the best spot of a second ray set with what movement
        is left; played only when it scores better than the best straight move."""
        left = game.movement_left(frame, fig.id)
        pts = np.array(found, dtype=np.float64)
        far = np.array(reach, dtype=np.float64)
        ang = (
            np.round(
                np.arctan2(pts[:, 0] - fig.x, -(pts[:, 1] - fig.y)) / (2 * math.pi / RAYS)
            ).astype(np.int64)
            % RAYS
        )
        ends: dict[int, int] = {}
        for i in range(1, len(found)):
            k = int(ang[i])
            if k not in ends or far[i] > far[ends[k]]:
                ends[k] = i
        dist = _distance(game, sit, pts)
        firsts = sorted(
            (i for i in ends.values() if far[i] >= 2.0 and left - far[i] >= 1.0),
            key=lambda i: (float(dist[i]), i),
        )[:DETOUR_LEGS]
        legs: list[Point2] = []
        points: list[Point2] = []
        travels: list[float] = []
        for i in firsts:
            p1 = found[i]
            there = replace(fig, x=p1[0], y=p1[1])
            more, travel = candidates(game, there, left - float(far[i]))
            legs += [p1] * (len(more) - 1)
            points += more[1:]
            travels += [t + float(far[i]) for t in travel[1:]]
        if not points:
            return None
        # every second leg judged in one pass (a dummy row 0: where the figure stands)
        rated, rows = self._judged(
            game, frame, sit, fig, [found[0], *points], [0.0, *travels], dist0
        )
        score = np.round(rated.score, 9)
        score[0] = -np.inf  # not a detour
        j = int(np.lexsort((np.arange(len(score)), -score))[0])
        if j == 0 or score[j] <= to_beat + DETOUR_GAIN:
            return None
        p1, p2 = legs[rows[j] - 1], points[rows[j] - 1]
        move = Move(fig.id, (p1, p2), round(_bearing(p1, p2), 1))
        if game.legal(move) is not None:
            return None
        togo = float(_distance(game, sit, np.array([p2]))[0])
        return Choice(
            move,
            f"{fig.name} goes round by ({p1[0]:.1f}, {p1[1]:.1f}) to ({p2[0]:.1f}, {p2[1]:.1f}) "
            f'{sit.why}: no straight move gets on; {togo:.1f}" to go',
        )

    def _cohesion_gap(
        self, game: Game, frame: Frame, fid: str, pts: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """(P,) inches each spot lies beyond cohesion reach of the group's other figures
        (6.2): :data:`COHESION_REACH` of one that has moved (or cannot), that plus the
        group's pace (what it can follow) of one still to move."""
        d = frame.data
        others = []
        # the group's pace: as far as the farthest of those that have moved went (a whole
        # normal move before anyone has), so that no figure runs ahead on its own
        spent = [float(d["used"].get(m, 0.0)) for m in d["moved"] if m != fid]
        pace = max(spent) if spent else NORMAL_MOVE
        for m in d["members"]:
            if m == fid:
                continue
            o = game.fig(m)
            if not o.status.can_act or m in game.state.get("exited", ()):
                continue
            follow = 0.0
            if m not in d["moved"] and not o.prone:
                follow = min(game.movement_left(frame, m), pace)
            others.append((o.x, o.y, COHESION_REACH + follow))
        if not others:
            return np.zeros(len(pts))
        at = np.array(others, dtype=np.float64)
        reach = np.hypot(pts[:, None, 0] - at[None, :, 0], pts[:, None, 1] - at[None, :, 1])
        return np.maximum((reach - at[None, :, 2]).min(axis=1), 0.0)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Rated:
    """Candidate spots with their scores and what the scores are made of."""

    spots: Spots
    score: npt.NDArray[np.float64]
    progress: npt.NDArray[np.float64]
    dist: npt.NDArray[np.float64]
    shelter: npt.NDArray[np.bool_]
    exposed: npt.NDArray[np.int64]
    shot: npt.NDArray[np.bool_]
    gap: npt.NDArray[np.float64]

    def words(self, game: Game, i: int) -> str:
        return _spot_words(
            game, self.spots, i, self.dist, self.shelter, self.exposed, self.shot, self.gap
        )


def _bearing(a: Point2, b: Point2) -> float:
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0


def _look_at(game: Game, spots: Spots, i: int, area: Rect) -> Point2:
    """Where a figure faces on spot ``i``: the nearest enemy it sees there, else the
    nearest enemy, else the nearest unresolved PEF, else its goal."""
    if len(spots.targets):
        seen = [j for j in range(len(spots.targets)) if spots.sees[i, j]] or list(
            range(len(spots.targets))
        )
        j = min(seen, key=lambda j: (float(spots.distance[i, j]), spots.targets[j]))
        t = game.fig(spots.targets[j])
        return (t.x, t.y)
    p = spots.point(i)
    pefs = [q for q in game.state.get("pefs", []) if not q["resolved"]]
    if pefs:
        q = min(pefs, key=lambda q: (math.hypot(q["x"] - p[0], q["y"] - p[1]), q["id"]))
        return (float(q["x"]), float(q["y"]))
    goal = nearest_in(area, p)
    if math.hypot(goal[0] - p[0], goal[1] - p[1]) < 1e-6:
        return (p[0], p[1] - 1.0)
    return goal


def _spot_words(
    game: Game,
    spots: Spots,
    i: int,
    dist: npt.NDArray[np.float64],
    shelter: npt.NDArray[np.bool_],
    exposed: npt.NDArray[np.int64],
    shot: npt.NDArray[np.bool_],
    gap: npt.NDArray[np.float64],
) -> str:
    parts = [f'{dist[i]:.1f}" to go' if dist[i] > 0.05 else "there"]
    if len(spots.targets):
        n = int(exposed[i])
        if n:
            parts.append(f"seen in the open by {n} enem{'y' if n == 1 else 'ies'}")
        elif spots.seen[i].any():
            parts.append("in Cover from every enemy that sees it")
        else:
            parts.append("out of sight of every enemy")
        if shot[i]:
            js = [j for j in range(len(spots.targets)) if spots.sees[i, j]]
            j = min(js, key=lambda j: (float(spots.distance[i, j]), spots.targets[j]))
            parts.append(
                f'a shot at {game.fig(spots.targets[j]).name} {spots.distance[i, j]:.0f}" away'
            )
    if shelter[i]:
        parts.append("in Cover terrain")
    if gap[i] > 0.05:
        parts.append(f'{gap[i]:.1f}" beyond cohesion with the group')
    return ", ".join(parts)
