"""A game put back to an earlier step reads the groups the battlefield has then (6.2).

Kept games (urban Raids and wooded Patrols, tuning seeds): ``Game.at_step`` failed in 8
of 230 -- a reaction's Leader Die read the cohesion graph left by later positions after
a checkpoint was restored (``KeyError`` for a figure not yet on the table, or a step
replayed with other dice: "rolled 5,5 but the file recorded 5,5,3").  Undo, the replay
viewer and "Play from here" all go through the same restore."""

from __future__ import annotations

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.tactical import TacticalPolicy
from crdesk.game import Game, GameSettings
from crdesk.simulate import Setup, _scenario_for, default_band, game_seed


def test_every_step_of_a_kept_raid_is_shown_as_it_was_played() -> None:
    seed = game_seed(2, 25)  # urban Raid 48"x48", batch seed 2 (tuning), game 25
    setup = Setup(terrain="urban", size=(48, 48), encounter="raid", band=default_band())
    scenario = _scenario_for(setup, seed)
    settings = GameSettings(max_turns=20, solo=True, encounter="raid")
    game = Game.new(scenario, seed=seed, settings=settings)
    player, enemy = TacticalPolicy(), SoloEnemyPolicy()
    sides = {f.id: (player if f.player else enemy) for f in game.battlefield.forces}
    hashes = {1: game.state_hash()}
    while (decision := game.awaiting()) is not None and len(game.history) < 60:
        action, why = sides[decision.actor].decide(game, decision)
        game.play(action, why=why)
        hashes[len(game.history)] = game.state_hash()
    for n in range(1, len(game.history) + 1):
        assert game.at_step(n).state_hash() == hashes[n], f"step {n}"
