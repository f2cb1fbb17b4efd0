"""The spots the AI picks: in Cover from the closest player group with a shot at it, the
nearest Cover, the flank -- judged again with the visibility service, and legal."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from crdesk.ai import spots
from crdesk.ai.baselines import PlainEnemyPolicy
from crdesk.ai.enemy import FIRE, SoloEnemyPolicy, flank_goal, plan_move, rank_spots
from crdesk.ai.spots import Spots, spots_for
from crdesk.game import Game, duck_back
from crdesk.game.actions import End, Fire, Move
from crdesk.model import Scenario, WeaponCode
from tests.solo.tables import WALL, covered_from_all, first_act, scripted, sight_at, table

WALL_TERRAIN = [{"kind": "cover", "outline": WALL, "cover_type": "wall"}]


def next_action(game: Game, policy: SoloEnemyPolicy) -> tuple[object, str]:
    decision = game.awaiting()
    assert decision is not None and decision.actor == "e"
    return policy.decide(game, decision)


Check = Callable[[Game, Move], None]


def moves_of_the_group(
    game: Game, policy: SoloEnemyPolicy, check: Check | None = None
) -> list[Move]:
    """Play the enemy's moves (no dice needed) until it wants to fire or end; ``check``
    looks at each move on the table as it is just before the move is played."""
    moves = []
    for _ in range(12):
        action, why = next_action(game, policy)
        if not isinstance(action, Move):
            assert isinstance(action, Fire | End), action
            return moves
        assert game.legal(action) is None, why
        if check is not None:
            check(game, action)
        moves.append(action)
        game.play(action, why=why)
    raise AssertionError("the group never stopped moving")


def test_in_the_open_it_moves_behind_the_wall_with_a_shot() -> None:
    """Pass 2, not outnumbering: move to Cover that allows firing at the closest group."""
    policy = scripted((1, 2), fires_first=False)
    game = first_act(table([("e1", 4, 17, 8), ("e2", 4, 19, 8)], terrain=WALL_TERRAIN), policy)
    before = {f: (game.fig(f).x, game.fig(f).y) for f in ("e1", "e2")}
    action, why = next_action(game, policy)
    assert isinstance(action, Move) and action.figure == "e1"
    assert why.startswith(
        "11.4 NP Force Movement (Viper e1 rolled 1,2 vs Rep 4): passed 2 — move to Cover "
        "that allows firing at the closest player group: Viper e1 moves "
    )
    assert "Cover from Player p1, Player p2" in why and "in range" in why

    def behind_the_wall(game: Game, move: Move) -> None:
        end = move.path[-1]
        start = before[move.figure]
        assert math.hypot(end[0] - start[0], end[1] - start[1]) <= 8.0 + 1e-6
        assert 11.5 < end[1] < 13.0  # just behind the wall (within 1" of it)
        sight = sight_at(game, move, ["p1", "p2"])
        assert all(sees and cover for sees, _seen, cover in sight.values()), sight

    behind_the_wall(game, action)
    game.play(action, why=why)
    moves = [action, *moves_of_the_group(game, policy, behind_the_wall)]
    assert [m.figure for m in moves] == ["e1", "e2"]
    # behind the wall the group now fires (the book's shot), then ends
    action, why = next_action(game, policy)
    assert isinstance(action, Fire) and "fires at" in why


def test_a_figure_already_in_cover_with_a_shot_stays_and_fires() -> None:
    policy = scripted((1, 2))
    enemies = [("e1", 4, 17, 12.4), ("e2", 4, 19, 12.4)]
    game = first_act(table(enemies, terrain=WALL_TERRAIN), policy)
    action, why = next_action(game, policy)
    assert isinstance(action, Fire), why
    assert why.startswith("11.4 NP Force Movement") and "fires at" in why


def test_a_figure_in_cover_with_a_shot_fires_before_the_others_move() -> None:
    """7.2: a figure fires at any time while active.  The one that stays where it is
    (behind the wall with a shot) fires first, so its targets take their Received Fire
    test (7.7) before its friend crosses the open to the wall; the plain enemy keeps the
    book's order, the moves and then the shots."""

    def looking_away() -> Scenario:
        sc = table([("e1", 4, 17, 12.4), ("e2", 4, 19, 9.5)], terrain=WALL_TERRAIN)
        sc.battlefield.update_figure("e2", weapon=WeaponCode.P)  # 12": no shot in range
        return sc

    policy = scripted((1, 2))
    game = first_act(looking_away(), policy)
    action, why = next_action(game, policy)
    assert isinstance(action, Fire) and action.figure == "e1", why
    plain = PlainEnemyPolicy(dice=policy.dice)
    game = first_act(looking_away(), plain)
    action, why = next_action(game, plain)
    assert isinstance(action, Move) and action.figure == "e2", why


def test_each_figure_fires_once_it_has_moved_before_the_next_moves() -> None:
    """Both in the open: the first goes behind the wall and fires from there before the
    second leaves the open (fire and movement, 7.2)."""
    policy = scripted((1, 2))
    game = first_act(table([("e1", 4, 17, 8), ("e2", 4, 19, 8)], terrain=WALL_TERRAIN), policy)
    action, why = next_action(game, policy)
    assert isinstance(action, Move) and action.figure == "e1", why
    game.play(action, why=why)
    action, why = next_action(game, policy)
    assert isinstance(action, Fire) and action.figure == "e1", why


def _fire_spots(rows: list[tuple[float, list[tuple[bool, bool, bool]]]]) -> Spots:
    """Candidate spots against p1 and p2: per row its travel and, per target, (the
    figure there sees it, it sees the figure, the figure is in Cover from it)."""
    return Spots(
        figure="e1",
        points=np.array([[17.0, 8.0 + k] for k in range(len(rows))]),
        travel=np.array([t for t, _ in rows]),
        targets=("p1", "p2"),
        sees=np.array([[a for a, _, _ in cols] for _, cols in rows]),
        seen=np.array([[b for _, b, _ in cols] for _, cols in rows]),
        cover=np.array([[c for _, _, c in cols] for _, cols in rows]),
        distance=np.full((len(rows), 2), 20.0),
    )


def test_cover_with_a_shot_seen_by_the_fewest_ranks_first() -> None:
    """11.4 "move to Cover that allows firing": of the spots in Cover with a shot, the one
    the fewest player figures see (the fewest that can fire back at it) ranks before a
    shorter move; a figure already in Cover with a shot stays."""
    policy = scripted((1, 2))
    game = first_act(table([("e1", 4, 17, 8)]), policy)
    orders = policy.orders(game)
    fig = game.fig("e1")
    cols = np.array([0, 1])
    open_ = (True, True, False)
    both = (True, True, True)
    hidden = (False, False, False)
    spots = _fire_spots([(0.0, [open_, open_]), (2.0, [both, both]), (5.0, [both, hidden])])
    ranked, good, words = rank_spots(game, orders, fig, spots, cols)
    assert list(ranked[:3]) == [2, 1, 0] and good[2] and good[1]
    assert "out of sight of Player p2" in words(2)
    spots = _fire_spots([(0.0, [both, both]), (5.0, [both, hidden])])
    ranked, _good, _words = rank_spots(game, orders, fig, spots, cols)
    assert list(ranked) == [0, 1]


@pytest.mark.parametrize("faces", [(6, 5), (1, 6)])
def test_in_the_open_it_goes_to_the_nearest_cover(faces: tuple[int, int]) -> None:
    """Pass 0 (or 1 without outnumbering): remain in Cover or move to the nearest Cover."""
    policy = scripted(faces, fires_first=False)
    game = first_act(table([("e1", 4, 17, 10), ("e2", 4, 19, 10)], terrain=WALL_TERRAIN), policy)

    def nearest_cover(game: Game, move: Move) -> None:
        assert not covered_from_all(sight_at(game, Move(move.figure, ()), ["p1", "p2"]))
        assert covered_from_all(sight_at(game, move, ["p1", "p2"]))
        start = (17.0 if move.figure == "e1" else 19.0, 10.0)
        end = move.path[-1]
        assert math.hypot(end[0] - start[0], end[1] - start[1]) <= 3.5  # the nearest

    moves = moves_of_the_group(game, policy, nearest_cover)
    assert [m.figure for m in moves] == ["e1", "e2"]


def test_out_of_sight_it_remains_where_it_is() -> None:
    rock = [[10, 14], [28, 14], [28, 16], [10, 16]]
    terrain = [{"kind": "impassable", "outline": rock}]
    policy = scripted((6, 6))
    game = first_act(table([("e1", 4, 17, 10), ("e2", 4, 19, 10)], terrain=terrain), policy)
    action, why = next_action(game, policy)
    assert isinstance(action, End)
    assert "remain in Cover or move to the nearest Cover" in why


@pytest.mark.parametrize(
    ("faces", "flank", "sign"), [((1, 2, 3), "left", 1), ((2, 1, 6), "right", -1)]
)
def test_the_split_encircles_by_the_flank(faces: tuple[int, ...], flank: str, sign: int) -> None:
    """Pass 2 outnumbering 2:1: the Leader's half to Cover with fire, the other half by
    the left (1-3) or right (4-6) flank -- as the group faces the player (+y here), its
    left hand is +x."""
    enemies = [("e1", 5, 14, 8), ("e2", 4, 16, 8), ("e3", 4, 18, 8), ("e4", 4, 20, 8)]
    policy = scripted(faces, fires_first=False)
    game = first_act(table(enemies, terrain=WALL_TERRAIN), policy)
    orders = policy.orders(game)
    assert orders.flank == flank
    goal = flank_goal(game, orders)
    assert (goal[0] - 19.0) * sign > 5.0  # beside the player group, on that flank
    start = {f: (game.fig(f).x, game.fig(f).y) for f, *_ in enemies}

    def fires_from_cover(game: Game, move: Move) -> None:
        if move.figure in ("e1", "e2"):
            sight = sight_at(game, move, ["p1", "p2"])
            assert all(sees and cover for sees, _seen, cover in sight.values()), sight

    moves = {m.figure: m for m in moves_of_the_group(game, policy, fires_from_cover)}
    assert set(moves) == {"e1", "e2", "e3", "e4"}
    for fid in ("e3", "e4"):
        end = moves[fid].path[-1]
        before = math.hypot(start[fid][0] - goal[0], start[fid][1] - goal[1])
        after = math.hypot(end[0] - goal[0], end[1] - goal[1])
        assert after < before - 3.0
        assert (end[0] - start[fid][0]) * sign > 0


def test_spots_are_reachable_within_the_movement_left() -> None:
    woods = [[14, 9], [22, 9], [22, 12], [14, 12]]
    sc = table(
        [("e1", 4, 18, 8)],
        terrain=[{"kind": "woods", "outline": woods}, *WALL_TERRAIN],
    )
    game = first_act(sc, scripted((1, 2)))
    fig = game.fig("e1")
    spots = spots_for(game, fig, 8.0)
    assert spots.travel[0] == 0 and spots.point(0) == (fig.x, fig.y)
    assert len(spots) > 100
    # into the woods (double cost) the rays are shorter than in the open
    down = [i for i in range(len(spots)) if abs(spots.points[i, 0] - 18) < 1e-6]
    up = [i for i in down if spots.points[i, 1] < 8]
    into = [i for i in down if spots.points[i, 1] > 8]
    assert max(spots.travel[up]) >= 7.0 and max(spots.travel[into]) <= 5.5
    for i in range(0, len(spots), 7):
        p = spots.point(i)
        if i:
            assert game.legal(Move("e1", (p,))) is None, p


def test_the_plan_is_the_policys_move_and_is_legal() -> None:
    policy = scripted((1, 2))
    game = first_act(table([("e1", 4, 17, 8), ("e2", 4, 19, 8)], terrain=WALL_TERRAIN), policy)
    orders = policy.orders(game)
    plan = plan_move(game, orders, "e1", 8.0)
    action, _ = next_action(game, policy)
    assert plan.task == FIRE and plan.good and plan.move == action
    assert game.legal(action) is None  # type: ignore[arg-type]


def _prone(sc: Scenario, fid: str) -> Scenario:
    sc.battlefield.update_figure(fid, prone=True)
    return sc


def test_a_prone_figure_stands_up_to_reach_cover_with_a_shot() -> None:
    """Pass 2, in the open and prone: it stands (half its movement, 7.4.3), then moves
    the 4" left behind the wall, 5" away -- not reachable, so it must get closer first."""
    policy = scripted((1, 2), fires_first=False)
    sc = table([("e1", 4, 17, 10), ("e2", 4, 19, 10)], terrain=WALL_TERRAIN)
    game = first_act(_prone(sc, "e1"), policy)
    action, why = next_action(game, policy)
    assert str(action) == "stand e1" and "stands up (half its movement, 7.4.3)" in why
    game.play(action, why=why)
    assert not game.fig("e1").prone
    action, why = next_action(game, policy)
    assert isinstance(action, Move) and action.figure == "e1"
    end = action.path[-1]
    assert math.hypot(end[0] - 17, end[1] - 10) <= 4.0 + 1e-6
    assert 11.5 < end[1] < 13.0  # behind the wall


def test_a_prone_figure_with_a_shot_stands_and_moves_to_cover_before_it_fires() -> None:
    """Fires first (7.2) asks the same question as the move: what will this figure do
    next?  A prone figure that will stand to reach Cover with a shot (7.4.3) is not done
    moving, so it stands and moves behind the wall first, and fires from there -- not
    from the open, lying down, judged as if it stayed there with its whole movement."""
    policy = scripted((1, 2))
    sc = table([("e1", 4, 17, 10), ("e2", 4, 19, 10)], terrain=WALL_TERRAIN)
    game = first_act(_prone(sc, "e1"), policy)
    assert any(isinstance(o, Fire) and o.figure == "e1" for o in game.awaiting().options)
    action, why = next_action(game, policy)
    assert str(action) == "stand e1", why
    game.play(action, why=why)
    action, why = next_action(game, policy)
    assert isinstance(action, Move) and action.figure == "e1", why
    game.play(action, why=why)
    action, why = next_action(game, policy)
    assert isinstance(action, Fire) and action.figure == "e1", why


def test_a_prone_figure_with_nowhere_better_stays_down() -> None:
    """Out of sight behind rock there is nothing to gain: it stays prone."""
    rock = [[10, 14], [28, 14], [28, 16], [10, 16]]
    policy = scripted((6, 6))
    sc = table(
        [("e1", 4, 17, 10), ("e2", 4, 19, 10)], terrain=[{"kind": "impassable", "outline": rock}]
    )
    game = first_act(sc, policy)
    _prone(game, "e1")
    action, _why = next_action(game, policy)
    assert str(action) != "stand e1"
    assert game.fig("e1").prone


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_a_plain_ray_goes_as_far_as_the_full_movement_walk_says(seed: int) -> None:
    """The bulk shortcut for rays meeting no costly terrain gives what the walk gives."""
    from dataclasses import replace

    from crdesk.ai import spots
    from crdesk.game.settings import GameSettings
    from crdesk.generator import generate
    from crdesk.geometry import movement
    from crdesk.model import Battlefield, Figure, Force

    sc = generate(seed, terrain_type="urban" if seed == 3 else "wooded")
    bf = sc.battlefield
    pts = [(x, y) for x in (0.6, 5.0, 12.5, 18.0, 30.0, 35.4) for y in (0.6, 9.0, 22.0, 35.4)]
    figs = [Figure(f"f{k}", "F", 4, x=x, y=y) for k, (x, y) in enumerate(pts)]
    foe = Force("g", "G", figures=[Figure("g1", "G", 4, x=18.0, y=35.0)])
    bf = Battlefield(bf.table, list(bf.terrain), [Force("f", "F", figures=figs), foe])
    game = Game.new(replace(sc, battlefield=bf), seed=1, settings=GameSettings())
    bf = game.battlefield
    figs = [game.fig(f.id) for f in figs]
    checked = plain = 0
    for fig in figs:
        for allowance in (8.0, 3.5):
            ends = spots._ray_ends(fig, allowance)
            fast = spots._plain_rays(game, fig, allowance, ends)
            for k, got in enumerate(fast):
                if got is None:
                    continue
                plain += 1
                reach = movement.farthest_along(
                    bf,
                    [(fig.x, fig.y), ends[k]],
                    allowance,
                    game.rules,
                    index=game.vis.index,
                    radius=fig.radius,
                )
                walked = math.hypot(reach.point[0] - fig.x, reach.point[1] - fig.y)
                assert got == pytest.approx(walked, abs=1e-9), (fig.id, allowance, k)
                checked += 1
    assert plain > 100 and checked == plain


def test_candidates_are_rounded_exactly_as_python_rounds() -> None:
    """The spots are rounded to 0.001" in bulk; the result is Python's ``round(v, 3)``
    to the bit, half-way values included (where numpy's own rounding differs)."""
    rng = np.random.default_rng(7)
    values = np.concatenate(
        [
            rng.uniform(0, 72, 20_000),
            # values a hair from a half at the third decimal (numpy's np.round errs there)
            np.round(rng.uniform(0, 72, 2_000), 3) + 0.0005,
            np.array([30.6705, 29.1325, 12.0625, 0.0005, 2.675]),
        ]
    )
    assert spots._round3(values) == [round(float(v), 3) for v in values]
    # and the half-way values are a real test: numpy alone gets some of them wrong
    assert any(float(np.round(v, 3)) != round(float(v), 3) for v in values)


ROCK = [[14, 10], [22, 10], [22, 11], [14, 11]]
"""A rock ridge just south of the enemy figure at (18, 9)."""


def test_spots_round_a_corner_are_candidates_and_reached_by_their_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 31 (one engine): the candidates include the roadmap's spots reached only by
    bending the way (round the rock's end here), at the way's cost, and the figure moves
    there along that way; with ROUTED_SPOTS off only straight moves' spots are offered."""
    monkeypatch.setattr(spots, "ROUTED_SPOTS", True)
    rock = [{"kind": "impassable", "outline": ROCK}]
    game = first_act(table([("e1", 4, 18, 9)], terrain=rock), scripted((1, 2)))
    fig = game.fig("e1")
    points, travel = spots.candidates(game, fig, 8.0)
    behind = [(p, t) for p, t in zip(points, travel, strict=True) if p[1] > 11]
    assert behind  # south of the rock: no straight ray gets there
    for p, cost in behind:
        assert cost <= 8.0
        assert game.legal(Move("e1", (p,), 0.0)) is not None  # straight: into the rock
        move = spots.move_there(game, "e1", p, 180.0)
        assert move is not None and len(move.path) >= 2 and move.path[-1] == p
        assert game.legal(move) is None
    monkeypatch.setattr(spots, "ROUTED_SPOTS", False)
    again, _travel = spots.candidates(game, fig, 8.0)
    assert not [p for p in again if p[1] > 11]
    assert spots.move_there(game, "e1", behind[0][0], 180.0) is None


# rock between the enemy and the players, the enemy against it: every spot nearer the
# players is round its east end, in their sight in the open
ROCK_AHEAD = [{"kind": "impassable", "outline": [[10, 21], [20, 21], [20, 24], [10, 24]]}]


@pytest.mark.parametrize("defend", [False, True], ids=["patrol", "defend"])
def test_no_hidden_way_on_it_waits_unless_it_is_attacking_a_defend(defend: bool) -> None:
    """Pass 2: move to Cover that allows firing at the closest player group (11.4); none
    within reach, and every spot nearer the players is in their sight.  Out of sight it
    waits -- except in a Defend, where the enemy "tries to destroy or drive the player
    off" (12.3): it closes in, as little in the open as it can (kept Defends were drawn
    at the turn limit, enemy and defenders waiting 5" apart out of each other's sight)."""
    policy = scripted((1, 2), fires_first=False)
    game = first_act(table([("e1", 4, 19, 20.5)], terrain=ROCK_AHEAD), policy)
    if defend:
        game.state["encounter"] = {"type": "defend"}
    action, why = next_action(game, policy)
    if not defend:
        assert isinstance(action, End), why
        return
    assert isinstance(action, Move) and action.figure == "e1", why
    x, y = action.path[-1]
    assert math.hypot(x - 19, y - 32) < 11.5 - 0.5, why
    assert "closes on the closest player group" in why, why


def test_a_target_that_ducked_back_stays_unseen_from_spots_where_its_cover_holds() -> None:
    """7.4.4: a figure that ducked back into Cover from the cause is out of its sight,
    both ways, until the Cover no longer holds.  The spot search judges spots that way:
    from where the wall still covers the ducked-back figure there is no shot at it; from
    the side, past the wall's end, there is (kept Defends: enemies "in Cover with a shot"
    at a figure hidden from them ended their activations without firing)."""
    wall = [[14, 19], [22, 19], [22, 19.5], [14, 19.5]]
    game = Game.new(
        table(
            [("e1", 4, 18, 8)],
            players=(("p1", 5, 18, 20.5), ("p2", 4, 33, 34)),
            terrain=[{"kind": "cover", "outline": wall, "cover_type": "wall"}],
        ),
        seed=1,
    )
    e1 = game.fig("e1")
    points, travel = [(18.0, 8.0), (31.0, 19.0)], [0.0, 13.0]
    bare = spots.judge(game, e1, points, travel)
    j = bare.targets.index("p1")
    assert bare.sees[0, j] and bare.sees[1, j]  # the geometry alone: seen from both
    duck_back.set_hidden(game, [("p1", "e1")])  # p1 ducked back behind the wall from e1
    judged = spots.judge(game, e1, points, travel)
    assert not judged.sees[0, j] and not judged.seen[0, j]  # behind the wall: hidden
    assert judged.sees[1, j] and judged.seen[1, j]  # from the side the Cover is gone
