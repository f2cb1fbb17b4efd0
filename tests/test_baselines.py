"""The baselines (issue 32): the random player and the plain enemy play only legal
actions, are seeded and deterministic, and the plain enemy carries out table 11.4's
orders by the nearest Cover or the straight line."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pytest

from crdesk.ai.baselines import PlainEnemyPolicy, RandomPolicy
from crdesk.ai.enemy import flank_goal
from crdesk.ai.policy import Policy
from crdesk.dice import DiceSource, ScriptedDice
from crdesk.game import Game, GameSettings
from crdesk.game.actions import Action, Fire, Move, NpMove
from crdesk.game.records import Decision
from crdesk.simulate import Setup, _scenario_for, default_band, enemy_policy, game_seed
from tests.solo.tables import covered_from_all, first_act, sight_at, table

TWO = [("e1", 4, 17, 8), ("e2", 4, 19, 8)]
WALL_TERRAIN = [{"kind": "cover", "outline": [[12, 13], [26, 13], [26, 13.5], [12, 13.5]]}]
Steps = list[tuple[str, str, tuple[int, ...]]]


class Checked:
    """A policy that checks every choice of the policy it wraps: legal when chosen, and
    chosen without rolling the game's dice."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.decisions: list[tuple[Decision, Action]] = []

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        die = game.die_position
        action, why = self.policy.decide(game, decision)
        assert game.die_position == die, "a policy rolled the game's dice"
        assert game.legal(action) is None, (str(action), game.legal(action))
        self.decisions.append((decision, action))
        return action, why


def play(
    seed: int, player: Policy, enemy: Policy, *, turns: int = 3, size: float = 24.0
) -> tuple[Game, Mapping[str, Checked]]:
    """One solo Patrol of ``crdesk simulate`` on a small clear table, both sides checked."""
    setup = Setup(terrain="clear", size=(size, size), band=default_band(), max_turns=turns)
    scenario = _scenario_for(setup, seed)
    settings = GameSettings(max_turns=turns, solo=True, encounter="patrol")
    game = Game.new(scenario, seed=seed, settings=settings)
    sides = {f.id: Checked(player if f.player else enemy) for f in game.battlefield.forces}
    while (decision := game.awaiting()) is not None:
        assert decision.actor in sides, decision
        action, why = sides[decision.actor].decide(game, decision)
        game.play(action, why=why)
        assert len(game.history) < 3000
    return game, sides


def steps(game: Game) -> Steps:
    return [(s.actor, s.action, s.faces) for s in game.history]


# -- the random player ---------------------------------------------------------


def test_the_random_player_plays_legally_on_either_side_without_the_dice() -> None:
    game, sides = play(game_seed(1, 4), RandomPolicy("player"), RandomPolicy("enemy"), turns=6)
    assert game.outcome is not None
    band, enemy = sides["band"], sides["enemy"]
    assert len(band.decisions) > 15 and len(enemy.decisions) > 15
    kinds = {d.kind for d, _ in band.decisions}
    assert {"activate", "act"} <= kinds
    # it makes up moves and shots of its own, not only the decision's options
    made = [a for d, a in band.decisions + enemy.decisions if a not in d.options]
    assert any(isinstance(a, Move) for a in made)
    # every choice was among what it was offered
    for side in (band, enemy):
        for decision, action in side.decisions:
            assert action in decision.options or action.word in decision.accepts


def test_the_random_player_is_seeded_and_deterministic() -> None:
    seed = game_seed(1, 1)
    first, _ = play(seed, RandomPolicy("player"), RandomPolicy("enemy"), turns=2)
    again, _ = play(seed, RandomPolicy("player"), RandomPolicy("enemy"), turns=2)
    assert steps(first) == steps(again) and first.state_hash() == again.state_hash()
    # its stream is its own: another salt, other choices on the same table and dice
    other, _ = play(seed, RandomPolicy("other"), RandomPolicy("enemy"), turns=2)
    assert steps(other) != steps(first)
    assert steps(other)[0] == steps(first)[0]  # the same start: table, dice, deployment


def test_the_random_player_chooses_uniformly() -> None:
    game = Game.new(table(TWO), seed=3)
    decision = game.awaiting()
    assert decision is not None and decision.kind == "activate"
    picks = {str(RandomPolicy(str(k)).decide(game, decision)[0]) for k in range(40)}
    assert picks == {str(o) for o in decision.options}  # each option comes up
    one = RandomPolicy("x")
    assert one.decide(game, decision) == one.decide(game, decision)  # no hidden state


# -- the plain enemy -----------------------------------------------------------


def scripted(faces: tuple[int, ...]) -> PlainEnemyPolicy:
    def dice(game: Game, number: int) -> DiceSource:
        return ScriptedDice(faces)

    return PlainEnemyPolicy(dice=dice)


def _decide(game: Game, policy: Policy) -> tuple[Action, str]:
    decision = game.awaiting()
    assert decision is not None
    return policy.decide(game, decision)


def _on_line(move: Move, start: tuple[float, float], goal: tuple[float, float]) -> bool:
    """The move's end lies on the straight line from ``start`` towards ``goal``."""
    (x, y), (sx, sy), (gx, gy) = move.path[-1], start, goal
    cross = (x - sx) * (gy - sy) - (y - sy) * (gx - sx)
    return abs(cross) / math.hypot(gx - sx, gy - sy) < 0.01


def test_the_fire_order_walks_straight_at_the_group_when_it_has_no_shot() -> None:
    # 54" apart, out of range: passed 2, not outnumbering -> "move to Cover that
    # allows firing at the closest player group"; the plain enemy walks straight
    players = (("p1", 5, 18, 62), ("p2", 4, 20, 62))
    policy = scripted((1, 2))
    game = first_act(table(TWO, players=players, height=66), policy)
    action, why = _decide(game, policy)
    assert isinstance(action, Move) and action.figure == "e1"
    assert "straight towards Player p1" in why and why.startswith("11.4 NP Force Movement")
    end = action.path[-1]
    assert _on_line(action, (17, 8), (18, 62)) and end[1] > 8 + 5
    assert game.legal(action) is None


def test_the_fire_order_stays_and_fires_with_a_shot() -> None:
    policy = scripted((1, 2))
    game = first_act(table(TWO), policy)  # 24" apart on an open table: in range
    action, why = _decide(game, policy)
    assert isinstance(action, Fire) and action.figure == "e1" and "fires at" in why


def test_the_hold_order_goes_to_the_nearest_cover() -> None:
    # failed both dice: "remain in Cover or move to the nearest Cover"; the wall 5"
    # in front gives Cover from the players behind it
    policy = scripted((6, 5))
    game = first_act(table(TWO, terrain=WALL_TERRAIN), policy)
    action, why = _decide(game, policy)
    assert isinstance(action, Move) and "to the nearest Cover from Player p1" in why
    assert 11 < action.path[-1][1] < 13  # behind the wall, not past it
    assert covered_from_all(sight_at(game, action, ["p1", "p2"]))
    # behind the wall already: it stays, and fires
    behind = [("e1", 4, 17, 12.4), ("e2", 4, 19, 12.4)]
    game = first_act(table(behind, terrain=WALL_TERRAIN), policy)
    action, _ = _decide(game, policy)
    assert isinstance(action, Fire)


def test_the_encircling_half_heads_straight_for_the_flank() -> None:
    four = [("e1", 5, 14, 8), ("e2", 4, 16, 8), ("e3", 4, 18, 8), ("e4", 4, 20, 8)]
    policy = scripted((1, 1, 2))  # passed 2, outnumbering: split, left flank
    game = first_act(table(four), policy)
    orders = policy.orders(game)
    moves: list[Move] = []
    for _ in range(4):
        goal = flank_goal(game, orders)  # beside the player group, as the NP group faces it
        action, why = _decide(game, policy)
        if not isinstance(action, Move):
            break
        moves.append(action)
        start = (game.fig(action.figure).x, game.fig(action.figure).y)
        assert _on_line(action, start, goal) and "left flank" in why
        game.play(action, why=why)
    assert {m.figure for m in moves} == {"e3", "e4"}  # the other half has shots already


def test_the_plain_enemy_rolls_table_11_4_as_the_game_s_own_step() -> None:
    seed = game_seed(2, 3)
    game, sides = play(seed, RandomPolicy("player"), PlainEnemyPolicy(), turns=4, size=36.0)
    enemy = sides["enemy"]
    acts = [a for d, a in enemy.decisions if d.kind == "act"]
    assert any(isinstance(a, NpMove) for a in acts), "no NP group activated"
    # the first action of every NP activation is its 11.4 roll, through the game's dice
    history = game.history
    for k, step in enumerate(history[:-1]):
        if step.actor == "enemy" and step.action.startswith("activate "):
            assert history[k + 1].action.startswith("npmove ") and history[k + 1].faces
    again, _ = play(seed, RandomPolicy("player"), PlainEnemyPolicy(), turns=4, size=36.0)
    assert steps(again) == steps(game)


@pytest.mark.parametrize("name", ["plain", "random"])
def test_the_enemy_policies_by_name(name: str) -> None:
    kind = PlainEnemyPolicy if name == "plain" else RandomPolicy
    assert isinstance(enemy_policy(name), kind)
    with pytest.raises(ValueError, match="solo, plain, random"):
        enemy_policy("clever")


def test_a_figure_caught_in_its_own_blast_ducks_back_without_a_cause() -> None:
    """Found by the random enemy (it readies grenades): a figure in the blast of its own
    grenade (7.10.3) that must Duck Back (7.4.4) asked the sight engine about itself as
    the cause and the game crashed at step 88; it now ducks back to the nearest Cover.
    Game 82 of that batch no longer comes to it (the tactical player changed); game 341
    does, at step 90."""
    from crdesk import simulate

    setup = simulate.Setup(
        terrain="roll",
        size=(36.0, 36.0),
        encounter="patrol",
        band=simulate.default_band(),
        enemy="random",
    )
    result = simulate.play_game(setup, 341, simulate.game_seed(1, 341))
    assert result.error is None and result.steps > 90
