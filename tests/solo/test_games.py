"""Whole games with the solo enemy on the demo tables: every action legal, every spot what
the order asks, and the same game for the same seed (the time a spot decision takes is
measured by benchmarks/bench_solo.py, not here)."""

from __future__ import annotations

import math
from collections.abc import Callable
from importlib.resources import as_file

import pytest

from crdesk.ai.enemy import FIRE, SoloEnemyPolicy, plan_move
from crdesk.ai.policy import BookPolicy, Policy
from crdesk.game import Decision, Game, GameSettings
from crdesk.game.actions import Action, Move, NpMove
from crdesk.model import Scenario
from crdesk.resources import resource_root
from crdesk.scenario import load
from tests.solo.tables import covered_from_all, sight_at

DEMOS = ("demo-urban", "demo-wooded")
TURNS = 5

_SCENARIOS: dict[str, Scenario] = {}


def demo(name: str) -> Scenario:
    if name not in _SCENARIOS:
        with as_file(resource_root() / "scenarios" / f"{name}.crdesk") as path:
            _SCENARIOS[name] = load(path)
    return _SCENARIOS[name]


Watch = Callable[[Game, Decision, Action, str, SoloEnemyPolicy], None]


def play(name: str, seed: int, watch: Watch | None = None) -> Game:
    game = Game.new(demo(name), seed=seed, settings=GameSettings(max_turns=TURNS))
    solo = SoloEnemyPolicy()
    book = BookPolicy()
    policies: dict[str, Policy] = {
        f.id: (book if f.player else solo) for f in game.battlefield.forces
    }
    enemy = next(f.id for f in game.battlefield.forces if not f.player)
    for _ in range(5000):
        decision = game.awaiting()
        if decision is None:
            return game
        action, why = policies[decision.actor].decide(game, decision)
        assert game.legal(action) is None, (str(action), why)
        if watch is not None and decision.actor == enemy:
            watch(game, decision, action, why, solo)
        game.play(action, why=why)
    raise AssertionError("the game did not end")


def check_spot(
    game: Game, decision: Decision, action: Action, why: str, solo: SoloEnemyPolicy
) -> str | None:
    """Each enemy move: what the plan says, within the movement left, and -- under
    "move to Cover that allows firing" -- in Cover from the closest player group with
    LOS to it, as the visibility service judges the spot; under the other orders, in
    Cover from (or out of sight of) every player figure when the plan says it found
    such a spot.  Returns the task checked, if any."""
    if decision.kind == "act":
        if isinstance(action, NpMove):  # the group's orders are rolled as a step first
            assert why.startswith("11.4 NP Force Movement: ")
            return None
        assert why.startswith("11.4 NP Force Movement (")
        assert "np_move" in game.frames[-1].data  # the orders come from the recorded roll
    if not isinstance(action, Move):
        return None
    frame = game.frames[-1]
    fid = action.figure
    left = frame.data["allow"][fid] - frame.data["used"][fid]
    fig = game.fig(fid)
    end = action.path[-1]
    assert math.hypot(end[0] - fig.x, end[1] - fig.y) <= left + 1e-6
    orders = solo.orders(game)
    plan = plan_move(game, orders, fid, left)
    assert plan.move == action  # a pure function of the table: the same spot again
    group = [g for g in orders.target_group if game.fig(g).status.can_act]
    if plan.task == FIRE and plan.good and group:
        sight = sight_at(game, action, group)
        assert any(sees for sees, _seen, _cover in sight.values()), (why, sight)
        assert all(cover or not seen for _sees, seen, cover in sight.values()), (why, sight)
        assert "Cover from" in why or "out of sight" in why
        return FIRE
    if plan.task != FIRE and plan.good:
        players = [f.id for f in game.battlefield.figures() if f.side != fig.side]
        players = [p for p in players if game.fig(p).status.can_act]
        assert covered_from_all(sight_at(game, action, players)), why
        return plan.task
    return None


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("name", DEMOS)
def test_whole_games_play_legally(name: str, seed: int) -> None:
    moves: list[str] = []

    def watch(game: Game, d: Decision, a: Action, why: str, solo: SoloEnemyPolicy) -> None:
        check_spot(game, d, a, why, solo)
        if isinstance(a, Move):
            moves.append(str(a))

    game = play(name, seed, watch)
    assert game.outcome is not None
    enemy_steps = [s for s in game.history if s.actor == "enemy"]
    assert enemy_steps and all(s.why for s in enemy_steps)


def test_the_spots_checked_are_many() -> None:
    """The checks above are not vacuous: the enemy moves, mostly to Cover with a shot."""
    checked: list[str | None] = []

    def watch(game: Game, d: Decision, a: Action, why: str, solo: SoloEnemyPolicy) -> None:
        if isinstance(a, Move):
            checked.append(check_spot(game, d, a, why, solo))

    for name in DEMOS:
        for seed in range(3):
            play(name, seed, watch)
    assert checked.count(FIRE) >= 5


@pytest.mark.parametrize("name", DEMOS)
def test_the_same_seed_plays_the_same_game(name: str) -> None:
    a, b = play(name, 11), play(name, 11)
    assert [(s.actor, s.action, s.why) for s in a.history] == [
        (s.actor, s.action, s.why) for s in b.history
    ]
    assert a.state_hash() == b.state_hash()
    replayed = Game.replay(a.scenario, a.history, seed=11, settings=a.settings)
    assert replayed.state_hash() == a.state_hash()


def test_a_resumed_game_gets_the_same_choices() -> None:
    """A fresh policy mid-activation (a game loaded from a file) settles the same 11.4
    orders -- from the table as the activation started -- and picks the same action."""
    checked: list[str] = []

    def watch(game: Game, d: Decision, a: Action, why: str, solo: SoloEnemyPolicy) -> None:
        frame = game.frames[-1]
        if d.kind != "act" or not frame.data["moved"] or len(checked) >= 3:
            return
        fresh = SoloEnemyPolicy()
        assert fresh.decide(game, d) == (a, why)
        assert fresh.orders(game) == solo.orders(game)
        checked.append(str(a))

    for seed in range(6):
        play("demo-wooded", seed, watch)
        if len(checked) >= 3:
            break
    assert checked
