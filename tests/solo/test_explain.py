"""The "why" of a program-played move: its candidate spots ranked by its player's own
ranking, with the terms, on a game positioned just before the step (crdesk.ai.explain)."""

from __future__ import annotations

import math
from dataclasses import replace

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.explain import SOLO_ENEMY, TACTICAL, TOP, explain_move, explain_step, player_of
from crdesk.game.actions import Action, Move
from crdesk.game.records import Step
from tests.solo.kept import kept_game, moves_by


def _move(step: Step) -> Move:
    act = Action.parse(step.action)
    assert isinstance(act, Move)
    return act


def test_every_enemy_move_is_its_best_playable_spot_by_the_11_4_ranking() -> None:
    game = kept_game()
    for n in moves_by(game, "e"):
        _check_enemy_move(n)


def _check_enemy_move(n: int) -> None:
    game = kept_game()
    before = game.at_step(n - 1)
    untouched = before.state_hash()
    step = game.history[n - 1]
    why = explain_step(before, step)
    assert why is not None
    assert why.player == SOLO_ENEMY and why.order.startswith("11.4 NP Force Movement")
    assert why.agrees and why.note == ""
    move = _move(step)
    assert why.figure == move.figure and why.destination == move.path[-1]
    fig = before.fig(move.figure)
    assert why.start == (fig.x, fig.y)
    chosen = why.chosen
    assert chosen is not None and chosen.playable and not chosen.stays
    assert math.dist(chosen.spot, move.path[-1]) < 0.01
    # the best few, in rank order; every one ranked above the chosen was refused
    ranks = [c.rank for c in why.candidates]
    assert ranks == sorted(ranks) and ranks[0] == 1 and len(ranks) <= TOP + 1
    assert all(not c.playable for c in why.candidates if c.rank < chosen.rank)
    assert why.considered >= len(why.candidates)
    names = [t.name for t in chosen.terms]
    assert names[:6] == [
        "Cover from the closest group",
        "exposure",
        "return fire",
        "distance",
        "shot",
        "travel",
    ]
    travel = chosen.term("travel")
    assert travel is not None and travel.value > 0.5
    assert chosen.words and chosen.words in step.why  # the policy's own sentence for it
    assert "#" in chosen.tooltip() and "chosen" in chosen.tooltip()
    assert before.state_hash() == untouched  # asked, not played


def test_every_tactical_move_is_its_best_scored_spot() -> None:
    game = kept_game()
    for n in moves_by(game, "p"):
        _check_tactical_move(n)


def _check_tactical_move(n: int) -> None:
    game = kept_game()
    before = game.at_step(n - 1)
    step = game.history[n - 1]
    why = explain_step(before, step)
    assert why is not None and why.player == TACTICAL and why.agrees
    chosen = why.chosen
    assert chosen is not None and chosen.rank == min(
        c.rank for c in why.candidates if c.playable and not c.stays
    )
    scores = [c.term("score") for c in why.candidates]
    values = [t.value for t in scores if t is not None]
    assert len(values) == len(why.candidates)
    assert values == sorted(values, reverse=True)  # best score first
    assert {t.name for t in chosen.terms} >= {
        "score",
        "progress",
        "exposure",
        "shot",
        "Cover terrain",
        "cohesion",
        "travel",
    }
    assert chosen.words in step.why


def test_without_a_destination_the_ranking_says_where_the_policy_goes() -> None:
    game = kept_game()
    n = moves_by(game, "e")[0]
    before = game.at_step(n - 1)
    decision = before.awaiting()
    assert decision is not None
    action, _why = SoloEnemyPolicy().decide(before, decision)
    assert isinstance(action, Move)
    why = explain_move(before, action.figure)
    assert why is not None and why.agrees
    assert why.chosen is not None and math.dist(why.chosen.spot, action.path[-1]) < 0.01
    assert why.summary().startswith(f"{why.name} (solo enemy) chose its #")


def test_a_persons_move_and_other_steps_have_no_why() -> None:
    game = kept_game()
    n = moves_by(game, "e")[0]
    before = game.at_step(n - 1)
    step = game.history[n - 1]
    assert explain_step(before, replace(step, why="")) is None  # a person recorded no reason
    seated = replace(before.settings, program_sides=("p",))
    assert explain_step(before, step) is not None
    before.settings = seated  # the program played only the patrol: the Vipers were a person's
    assert explain_step(before, step) is None
    fire = next(k for k, s in enumerate(game.history, 1) if s.action.startswith("fire "))
    assert explain_step(game.at_step(fire - 1), game.history[fire - 1]) is None


def test_which_player_moves_a_figure() -> None:
    game = kept_game()
    assert player_of(game, "e1") == SOLO_ENEMY
    assert player_of(game, "p1") == TACTICAL
    hot = game.at_step(5)
    hot.settings = replace(hot.settings, solo=False)
    assert player_of(hot, "e1") is None  # the book's player: nothing ranked


def test_a_spot_the_ranking_would_not_choose_is_said_to_disagree() -> None:
    game = kept_game()
    n = moves_by(game, "e")[0]
    before = game.at_step(n - 1)
    move = _move(game.history[n - 1])
    why = explain_move(before, move.figure, (move.path[-1][0] + 40.0, move.path[-1][1]))
    assert why is not None and not why.agrees and why.chosen is None
    assert "not one of its candidates" in why.note
    assert why.summary().endswith("a spot not among its candidates")
