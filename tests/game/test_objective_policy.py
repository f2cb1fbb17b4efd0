"""The tactical player of ``crdesk simulate``: Cover over open ground, the Patrol's goals in
order, leaving when they are done, and the same choices for the same game."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from crdesk import simulate
from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.navigation import rect_distance, way_to
from crdesk.ai.policy import play_policies
from crdesk.ai.tactical import (
    ENGAGE,
    Situation,
    TacticalPolicy,
    Target,
    next_target,
)
from crdesk.game import Game, GameSettings
from crdesk.game.actions import Exit, FastMove, Move
from crdesk.model import Status
from crdesk.simulate import Setup, default_band, game_seed, play_game
from tests.solo.tables import covered_from_all, sight_at, table

# a wall to the right front of the Band; the enemy straight ahead across open ground
SIDE_WALL = [
    {"kind": "cover", "outline": [[20, 17], [26, 17], [26, 17.5], [20, 17.5]], "cover_type": "wall"}
]
NORTH = Target((0.5, 0.5, 35.5, 6.0), "north to the far edge")


def _player_active(enemy_at: tuple[float, float], terrain: Sequence[dict[str, Any]]) -> Game:
    sc = table([("e1", 4, *enemy_at)], players=(("p1", 5, 18, 24),), terrain=terrain)
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")  # the player's side first
    game.play("activate p1")
    decision = game.awaiting()
    assert decision is not None and decision.kind == "act" and decision.actor == "p"
    return game


def test_a_figure_seen_by_an_enemy_takes_cover_behind_the_wall_over_open_ground() -> None:
    game = _player_active((18, 4), SIDE_WALL)
    policy = TacticalPolicy()
    choice = policy.plan(game, Situation(ENGAGE, NORTH, False, NORTH.words), "p1")
    assert choice.move is not None and game.legal(choice.move) is None
    end = choice.move.path[-1]
    # straight ahead would gain more ground (8") but in the open in front of e1
    assert 17.0 < end[1] < 19.0 and 20.0 <= end[0] <= 26.0, end  # at the wall
    assert covered_from_all(sight_at(game, choice.move, ["e1"]))
    assert (
        "in Cover from every enemy that sees it" in choice.why
        and "a shot at Viper e1" in choice.why
    )


def test_with_no_enemy_in_sight_it_takes_the_straight_way() -> None:
    game = _player_active((2, 2), [])  # out of its way, then out of the fight
    game.battlefield.update_figure("e1", status=Status.OBVIOUSLY_DEAD)
    choice = TacticalPolicy().plan(game, Situation("advance", NORTH, False, NORTH.words), "p1")
    assert choice.move is not None
    end = choice.move.path[-1]
    assert math.hypot(end[0] - 18, end[1] - 16) < 0.6, end  # a whole move straight on


def _patrol(index: int = 4) -> tuple[Game, dict[str, object]]:
    setup = Setup(terrain="clear", band=default_band(), max_turns=20)
    seed = game_seed(11, index)  # a table whose PEFs stay hidden at the start, the Band first
    sc = simulate._scenario_for(setup, seed)
    game = Game.new(sc, seed=seed, settings=GameSettings(solo=True, encounter="patrol"))
    return game, {"band": TacticalPolicy(), "enemy": SoloEnemyPolicy()}


def _to_the_bands_act(game: Game, policies: dict[str, object]) -> None:
    for _ in range(200):
        decision = game.awaiting()
        assert decision is not None
        if decision.actor == "band" and decision.kind == "act":
            return
        assert play_policies(game, policies, max_steps=1) == 1  # type: ignore[arg-type]
    raise AssertionError("the Band never got to act")


def test_the_band_heads_for_where_two_open_sections_meet_then_the_last() -> None:
    """Two open far-edge sections side by side are reached together: half the group on
    each side of the line between them, so one activation's end counts for both (12.1);
    then the one left."""
    game, policies = _patrol()
    _to_the_bands_act(game, policies)
    members = game.frames[-1].data["members"]
    target = next_target(game, members)
    assert target is not None and not target.leaving
    assert target.area[1] < 1.0 and target.area[3] <= 6.5  # within 6" of the far edge
    cx = sum(game.fig(m).x for m in members) / len(members)
    line = 12.0 if cx < 18.0 else 24.0  # the nearer line between two sections
    pair = (1, 2) if line == 12.0 else (2, 3)
    assert f"sections {pair[0]} and {pair[1]} meet" in target.words, target.words
    parts = dict(target.parts)
    assert sorted(parts) == sorted(members)
    sides = [area[2] <= line for area in parts.values()]  # left of the line, or right
    assert all(a[2] <= line or a[0] >= line for a in parts.values())
    assert 0 < sum(sides) < len(sides) and abs(2 * sum(sides) - len(sides)) <= 1  # halves
    assert all(a[3] <= 6.5 and abs((a[0] + a[2]) / 2 - line) < 4.0 for a in parts.values())
    start = {m: game.fig(m).y for m in members}
    policy = policies["band"]
    assert isinstance(policy, TacticalPolicy)
    action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
    assert isinstance(action, FastMove) and "Fast Moves" in why  # no enemy, the goal far
    game.play(action, why=why)
    action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
    assert isinstance(action, Move) and f"sections {pair[0]} and {pair[1]} meet" in why, why
    game.play(action, why=why)
    assert game.fig(action.figure).y < start[action.figure] - 6  # towards the far edge
    # with those two done the next is the one left
    game.state["encounter"]["sections"] = list(pair)
    after = next_target(game, members)
    last = ({1, 2, 3} - set(pair)).pop()
    assert after is not None and f"section {last} (12.1)" in after.words and not after.parts


def test_once_the_sections_are_done_the_band_leaves_by_the_entry_edge() -> None:
    game, policies = _patrol()
    _to_the_bands_act(game, policies)
    game.state["encounter"]["sections"] = [1, 2, 3]
    members = game.frames[-1].data["members"]
    target = next_target(game, members)
    assert target is not None and target.leaving
    policy = policies["band"]
    assert isinstance(policy, TacticalPolicy)
    left = []
    for _ in members:
        action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
        assert isinstance(action, Exit) and "leaves by the entry edge" in why, (action, why)
        game.play(action, why=why)
        left.append(action.figure)
        if game.outcome is not None:
            break
    assert sorted(left) == sorted(members)
    assert game.outcome is not None and game.outcome.won is True
    assert "reached sections 1, 2 and 3 and left by the edge it entered" in game.outcome.reason


def test_the_same_game_is_played_the_same_way() -> None:
    setup = Setup(terrain="roll", band=default_band(), max_turns=8)
    seed = game_seed(3, 1)
    first, again = play_game(setup, 1, seed), play_game(setup, 1, seed)
    assert first.error is None and first == again and first.steps > 20


def test_rock_in_the_way_is_gone_round() -> None:
    """Impassable ground straight ahead: the way to the goal runs round it (the grid),
    and the figure's move shortens that way, not the straight line into the rock."""
    rock = [{"kind": "impassable", "outline": [[10, 14], [30, 14], [30, 20], [10, 20]]}]
    game = _player_active((2, 2), rock)
    game.battlefield.update_figure("e1", status=Status.OBVIOUSLY_DEAD)
    here = np.array([[18.0, 24.0]])
    straight = float(rect_distance(here, NORTH.area)[0])
    around = float(way_to(game, NORTH.area, here)[0])
    assert around > straight + 4.0  # 18" straight; round the rock's end it is longer
    choice = TacticalPolicy().plan(game, Situation("advance", NORTH, False, NORTH.words), "p1")
    assert choice.move is not None and game.legal(choice.move) is None
    end = np.array([choice.move.path[-1]])
    assert float(way_to(game, NORTH.area, end)[0]) < around - 4.0
    assert end[0, 0] < 12.0 or end[0, 0] > 28.0 or end[0, 1] > 20.5, end  # not into the rock


def _fields(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The navigation field of a random grid (open, woods, buildings, impassable) by the
    compiled sweeps and by the numpy relaxation."""
    from crdesk.ai.navigation import NAV_CELL, _relax
    from crdesk.geometry import kernels

    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(3, 30)), int(rng.integers(3, 40))
    cost = rng.choice(np.array([1.0, 1.0, 1.0, 2.0, 6.0, np.inf]), size=(rows, cols))
    start = np.full((rows, cols), np.inf)
    goal = rng.integers(0, rows), slice(int(rng.integers(0, cols // 2)), cols)
    start[goal] = rng.random(start[goal].shape) * NAV_CELL
    start[~np.isfinite(cost)] = np.inf
    compiled = start.copy()
    assert kernels.usable()  # the suite warms the kernels up (conftest)
    kernels.nav_relax(compiled, cost, NAV_CELL)
    return compiled, _relax(start.copy(), cost)


def test_the_compiled_navigation_field_is_the_numpy_one_to_the_bit() -> None:
    """Both routes give the same travel (so a batch's choices cannot depend on whether a
    worker compiled its kernels), round walls of impassable ground and through woods."""
    reached = 0
    for seed in range(60):
        compiled, numpy_route = _fields(seed)
        assert np.array_equal(compiled, numpy_route), seed
        reached += int(np.isfinite(compiled).sum())
    assert reached > 1000


def test_the_navigation_field_goes_round_impassable_ground() -> None:
    from crdesk.geometry import kernels

    cost = np.ones((5, 5))
    cost[1, 0:4] = np.inf  # a wall across, open at the right
    field = np.full((5, 5), np.inf)
    field[0, 0] = 0.0
    kernels.nav_relax(field, cost, 1.0)
    # along the top, diagonally round the wall's open end and back along the bottom
    assert field[2, 0] == pytest.approx(6 + 2 * math.sqrt(2))
    assert np.isinf(field[1, 0])  # impassable ground is never reached


def test_a_pass_a_base_fits_through_is_no_detour_through_the_rock() -> None:
    """Two rocks 1.6" apart (a base is 1" across: it walks through, 7.4): the way to the
    goal from the pass runs down the pass, as far as the straight line, not round or
    through the rock at its cost.  The grid used to close any pass whose cells' centres
    all lay within half a base of rock, so a figure in the pass was a long way round
    (150" more in a kept Patrol: tuning seed 3, game 21)."""
    rocks = [
        {"kind": "impassable", "outline": [[0.5, 12], [17.2, 12], [17.2, 20], [0.5, 20]]},
        {"kind": "impassable", "outline": [[18.8, 12], [35.5, 12], [35.5, 20], [18.8, 20]]},
    ]
    game = _player_active((2, 2), rocks)
    game.battlefield.update_figure("e1", status=Status.OBVIOUSLY_DEAD)
    for x in (17.85, 18.0, 18.1):  # standing in the pass, anywhere across it
        here = np.array([[x, 16.0], [x, 22.0]])
        straight = rect_distance(here, NORTH.area)
        assert way_to(game, NORTH.area, here) == pytest.approx(straight, abs=1.5), x
    # a gap a base does not fit through is still closed: round the rocks' far ends
    shut = [
        {"kind": "impassable", "outline": [[0.5, 12], [17.6, 12], [17.6, 20], [0.5, 20]]},
        {"kind": "impassable", "outline": [[18.4, 12], [35.5, 12], [35.5, 20], [18.4, 20]]},
    ]
    game = _player_active((2, 2), shut)
    game.battlefield.update_figure("e1", status=Status.OBVIOUSLY_DEAD)
    above = np.array([[18.0, 22.0]])
    assert (
        float(way_to(game, NORTH.area, above)[0]) > float(rect_distance(above, NORTH.area)[0]) + 20
    )
