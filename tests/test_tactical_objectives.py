"""The tactical player plays for the encounter's objective to the end (12): it does not
leave a Patrol or a Raid before the objective is done, it keeps figures with the
Defend's item (12.3.6), a patrol tags two far-edge sections at once where they meet
(12.1), and in a Raid the objective's carrier leaves before its escorts (12.2).

The situations are games of a ``crdesk simulate`` batch on tuning seeds (seed 1; the
held-out seeds, crdesk.simulate.HELD_OUT_SEEDS, are never used here), played by the
solo enemy up to the Band's first activation, before any choice of the tactical player."""

from __future__ import annotations

import math

import shapely

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import play_policies
from crdesk.ai.tactical import TacticalPolicy, next_target
from crdesk.game import Game, GameSettings
from crdesk.game.actions import Exit
from crdesk.model import Status
from crdesk.simulate import Setup, _scenario_for, default_band, game_seed
from tests.solo.tables import table


def _first_act(encounter: str, index: int, terrain: str = "urban") -> tuple[Game, TacticalPolicy]:
    """Game ``index`` of the 48"x48" batch seeded 1, at the Band's first ``act``."""
    setup = Setup(
        terrain=terrain,
        size=(48.0, 48.0),
        encounter=encounter,
        band=default_band(),
        max_turns=20,
    )
    seed = game_seed(1, index)
    game = Game.new(
        _scenario_for(setup, seed),
        seed=seed,
        settings=GameSettings(max_turns=20, solo=True, encounter=encounter),
    )
    policy = TacticalPolicy()
    side = next(f.id for f in game.battlefield.forces if f.player)
    policies = {f.id: (policy if f.player else SoloEnemyPolicy()) for f in game.battlefield.forces}
    for _ in range(500):
        decision = game.awaiting()
        assert decision is not None, "the game ended before the Band acted"
        if decision.actor == side and decision.kind == "act":
            return game, policy
        assert play_policies(game, policies, max_steps=1) == 1  # type: ignore[arg-type]
    raise AssertionError("the Band never got to act")


def test_a_patrol_cut_down_to_its_star_goes_on_for_the_far_edge() -> None:
    """Turn 3 of this Patrol: four of five down, nine enemies on the table.  Leaving
    before the three sections are reached loses the Patrol for sure (12.1); it goes on."""
    game, policy = _first_act("patrol", 20)
    band = next(f for f in game.battlefield.forces if f.player)
    assert [f.id for f in band.figures if f.status.can_act] == ["star"]
    assert len(game.alive(game.enemy_of(band.id))) >= 5
    sit = policy.situation(game, game.frames[-1])
    assert not sit.target.leaving and "far edge" in sit.why, sit.why
    action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
    assert not isinstance(action, Exit) and "too weak" not in why, why


def test_the_raid_group_does_not_head_home_before_the_objective_is_taken() -> None:
    """Three of the raiders down and outnumbered: the group still goes for the objective
    (12.2), since raiders who leave without it have lost."""
    game, policy = _first_act("raid", 48)
    band = next(f for f in game.battlefield.forces if f.player)
    for fid in ("g1", "g2", "g3"):
        game.battlefield.update_figure(fid, status=Status.OUT_OF_THE_FIGHT)
    assert len(game.alive(game.enemy_of(band.id))) >= 2
    members = [m for m in game.frames[-1].data["members"] if game.fig(m).status.can_act]
    target = next_target(game, members)
    assert target is not None and not target.leaving
    sit = policy.situation(game, game.frames[-1])
    assert not sit.target.leaving and "12.2" in sit.why, sit.why
    action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
    assert not isinstance(action, Exit) and "too weak" not in why, why


# a garden wall to the right front of the item; the enemy straight ahead across open ground
SIDE_WALL = [
    {"kind": "cover", "outline": [[20, 17], [26, 17], [26, 17.5], [20, 17.5]], "cover_type": "wall"}
]


def _defend_with_item(players: tuple[tuple[str, int, float, float], ...]) -> Game:
    """The player's group active in a Defend whose item lies at p1's spot (12.3.6)."""
    sc = table([("e1", 4, 18, 4)], players=players, terrain=SIDE_WALL)
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")  # the player's side first
    game.play("activate p1")
    game.state["encounter"] = {
        "type": "defend",
        "their_objective": {"code": "recover", "die": 5},
        "item": {"x": 18.0, "y": 24.0, "holder": "p1"},
        "item_lost": False,
    }
    return game


def test_in_a_defend_the_two_nearest_the_item_stay_with_it() -> None:
    """Seen in the open by the enemy, the second figure by the item would step out to the
    wall's Cover; then one hit on the first loses the item (12.3.6).  The two nearest
    the item are its guards: they stay within its reach, and the why says so."""
    game = _defend_with_item((("p1", 5, 18, 24), ("p2", 4, 19.5, 24), ("p3", 4, 21, 26)))
    policy = TacticalPolicy()
    sit = policy.situation(game, game.frames[-1])
    assert sit.guards == ("p1", "p2")
    assert "Player p1 and Player p2 stay with the item" in sit.why, sit.why
    x0, y0, x1, y1 = sit.target.area
    choice = policy.plan(game, sit, "p2")
    end = choice.move.path[-1] if choice.move is not None else (19.5, 24.0)
    assert x0 - 1e-6 <= end[0] <= x1 + 1e-6 and y0 - 1e-6 <= end[1] <= y1 + 1e-6, end
    # a figure that is not a guard is free to take the wall's Cover
    free = policy.plan(game, sit, "p3")
    assert free.move is not None and free.move.path[-1][1] < 19.0, free


def _raid_going_home(carrier_y: float) -> Game:
    """The player's group active in a Raid, heading home: p1 carries the objective (12.2),
    p2 is 7" from the entry edge."""
    sc = table([("e1", 4, 18, 4)], players=(("p1", 5, 18, carrier_y), ("p2", 4, 19.5, 28.5)))
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")  # the player's side first
    game.play("activate p1")
    game.state["encounter"] = {
        "type": "raid",
        "objective": {"holder": "p1", "x": 18.0, "y": carrier_y, "pef": "pef1", "taken": True},
        "carried_off": False,
    }
    return game


def test_raiders_do_not_leave_the_carrier_of_the_objective_behind() -> None:
    """Seen in a simulated urban Raid (tuning seed 1, game 3): the Star took the objective
    and the group headed home; the Grunts reached the edge first and walked off, the Star
    was charged alone and went Out of the Fight, and with no raider left to pick the
    objective up the Raid was lost (12.2: the raiders left without it).  Escorts leave
    after the carrier (whose leaving wins the Raid)."""
    game = _raid_going_home(26.0)
    decision = game.awaiting()
    assert decision is not None
    exits = {o.figure for o in decision.options if isinstance(o, Exit)}
    assert exits == {"p2"}, exits  # the carrier is beyond its 8" from the edge, the escort not
    policy = TacticalPolicy()
    sit = policy.situation(game, game.frames[-1])
    assert sit.target.leaving, sit.why
    action, why = policy.decide(game, decision)
    assert not isinstance(action, Exit), why
    # the carrier within reach of the edge leaves first (its leaving wins a tracked Raid)
    game = _raid_going_home(31.0)
    decision = game.awaiting()
    assert decision is not None
    action, why = TacticalPolicy().decide(game, decision)
    assert isinstance(action, Exit) and action.figure == "p1", why
    game.play(action)
    # then its escort
    decision = game.awaiting()
    assert decision is not None
    action, why = TacticalPolicy().decide(game, decision)
    assert isinstance(action, Exit) and action.figure == "p2", why


SHED = [
    {
        "kind": "building",
        "outline": [[12, 20], [24, 20], [24, 26], [12, 26]],
        "floors": 1,
        "areas": [[[12, 20], [24, 20], [24, 26], [12, 26]]],
        "openings": [{"kind": "door", "start": [21.5, 20], "end": [23.5, 20]}],
    }
]
"""A shed whose only door is in its north wall, away from the Band's entry edge."""


def test_a_figure_pressed_against_a_wall_walks_round_to_the_door() -> None:
    """Seen in four of the twelve drawn Patrols of a batch (48"x48", tuning seed 3): a
    figure inside a building, against the wall on its goal's side, held there to the
    turn limit: every move the rays offered led away from the goal, and the door's far
    side gained too little to beat the building's shelter.  The raider carrying the
    objective home stands against the shed's south wall, the door behind it: it walks
    the cheapest way out (7.4, 8.2), the door first, and gets out of the shed (the enemy
    in the far corner, the shed between them, does not see it go)."""
    sc = table([("e1", 4, 2, 34)], players=(("p1", 5, 14, 25.98),), terrain=SHED)
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p1")
    game.state["encounter"] = {
        "type": "raid",
        "objective": {"holder": "p1", "x": 14.0, "y": 25.98, "pef": "pef1", "taken": True},
        "carried_off": False,
    }
    door = (22.5, 20.0)
    policy = TacticalPolicy()
    sit = policy.situation(game, game.frames[-1])
    assert sit.target.leaving, sit.why
    choice = policy.plan(game, sit, "p1")
    assert choice.move is not None, choice.why
    end = choice.move.path[-1]
    assert math.dist(end, door) < math.dist((14, 25.98), door) - 4.0, choice.why
    # played on, the enemy passing: out of the shed by the door within three turns
    shed = shapely.Polygon(SHED[0]["outline"])
    for _ in range(300):
        decision = game.awaiting()
        assert decision is not None
        if decision.actor == "chance":  # the Band's side first
            game.play("dice 4,1" if decision.dice == 2 else "dice " + ",".join("4" * decision.dice))
        elif decision.actor == "e":
            game.play("pass")
        else:
            game.play(policy.decide(game, decision)[0])
        p1 = game.fig("p1")
        if not shed.contains(shapely.Point(p1.x, p1.y)):
            break
    else:
        raise AssertionError("still in the shed")
    assert game.turn <= 3 and p1.y < 20.0, (game.turn, p1.x, p1.y)  # out by the door
