"""The tactical player plays for the encounter's objective to the end (12): it does not
leave a Patrol or a Raid before the objective is done, it keeps figures with the
Defend's item (12.3.6), and a patrol tags two far-edge sections at once where they meet
(12.1).

The situations are games of a ``crdesk simulate`` batch on tuning seeds (seed 1; the
held-out seeds from 910001 on are never used here), played by the solo enemy up to the
Band's first activation, before any choice of the tactical player."""

from __future__ import annotations

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import play_policies
from crdesk.ai.tactical import TacticalPolicy, next_target
from crdesk.game import Game, GameSettings
from crdesk.game.actions import Exit
from crdesk.model import Status
from crdesk.simulate import Setup, _scenario_for, default_band, game_seed


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
    """Turn 1 of this Patrol: four of five down, ten enemies on the table.  Leaving
    before the three sections are reached loses the Patrol for sure (12.1); it goes on."""
    game, policy = _first_act("patrol", 22)
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
