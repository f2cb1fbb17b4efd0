"""The solo enemy's choice of targets (issue 32): an active shooter chooses freely
(7.9.8), and the best die goes to the first target declared (7.9.9), so the enemy
starts its volley at the figure it is likeliest to take out, not at the nearest."""

from __future__ import annotations

from typing import Any

from crdesk.ai.baselines import PlainEnemyPolicy
from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.targets import best_shot, value, volleys
from crdesk.game import Game, encounter, fire
from crdesk.game.actions import Activate, DiceFaces, Fire
from crdesk.model import EncounterType
from tests.game.games import scenario

WOODS = [[8, 9.5], [13, 9.5], [13, 13], [8, 13]]
"""Woods whose near edge Pvt. Hale stands just inside: seen, and in Cover (7.9.5)."""


def table(woods: bool = True, star: bool = False, dice: int = 5) -> Any:
    """The Viper (AR) looks down the table at Hale in the woods' edge (or in the open),
    8" off, and at Cpl. Diaz in the open, a little farther (``star``: Hale is the
    player's Rep 5 Star with ``dice`` Star Power dice, Diaz a Rep 5 Grunt)."""
    hale: dict[str, Any] = {"id": "p1", "name": "Pvt. Hale", "at": [12, 10]}
    if star:
        hale.update(role="star", rep=5, star_power=dice)
    return scenario(
        {
            "table": [24, 24],
            "terrain": [{"kind": "woods", "outline": WOODS}] if woods else [],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        hale,
                        {"id": "p2", "name": "Cpl. Diaz", "at": [18, 10], "rep": 5 if star else 4},
                    ],
                },
                {
                    "id": "e",
                    "figures": [{"id": "e1", "name": "Viper", "at": [12, 2], "facing": 180}],
                },
            ],
        }
    )


def active_viper(doc: Any) -> tuple[Game, Fire]:
    """The game with the Viper's group active, and the book's shot (nearest first)."""
    game = Game.new(doc, dice="manual")
    game.play(DiceFaces((1, 4)))  # e activates first (7.1)
    game.play(Activate("e1"))
    frame = next(f for f in reversed(game.frames) if f.kind == "activation")
    [book] = fire.auto_targets(game, game.fig("e1"), active=True, frame=frame)
    return game, book


def test_the_book_shot_starts_at_the_nearest_in_cover() -> None:
    game, book = active_viper(table())
    sight = game.sight()
    assert sight.sees("e1", "p1") and sight.in_cover("e1", "p1")
    assert sight.sees("e1", "p2") and not sight.in_cover("e1", "p2")
    assert book.target_ids[0] == "p1"


def test_the_enemy_puts_its_best_die_on_the_figure_in_the_open() -> None:
    game, book = active_viper(table())
    viper = game.fig("e1")
    choice = best_shot(game, viper, book)
    shot, worth, plain = choice.shot, choice.worth, choice.plain
    assert shot.target_ids[0] == "p2"
    assert game.legal(shot) is None
    assert worth > plain == value(game, viper, book)[1]
    assert choice.wanted is None  # no encounter: every figure alike
    # every volley weighed is one the controller accepts
    assert all(game.legal(v) is None for v in volleys(game, viper))


def test_no_better_volley_keeps_the_book_shot() -> None:
    game, book = active_viper(table(woods=False))  # the nearest is in the open too
    choice = best_shot(game, game.fig("e1"), book)
    assert choice.shot == book and choice.worth == choice.plain > 0


def test_the_enemy_does_not_spend_its_best_die_on_a_star_with_star_power() -> None:
    """A Star hit rolls its Star Power dice (5.2): with five, nearly every hit loses a
    level, so the best die goes to the Grunt of the same Rep beside it, though the Star
    is nearer."""
    game, book = active_viper(table(woods=False, star=True))
    assert game.fig("p1").is_star and book.target_ids[0] == "p1"
    choice = best_shot(game, game.fig("e1"), book)
    assert choice.shot.target_ids[0] == "p2" and choice.worth > choice.plain
    # the same table with Hale a Grunt: the book's shot is as good as any
    game, book = active_viper(table(woods=False))
    assert best_shot(game, game.fig("e1"), book).shot == book


def defend(game: Game, code: str, item_with: str | None = None) -> None:
    """The game as a Defend whose enemy rolled ``code`` on 12.3.6 (the item, if any,
    placed with ``item_with``)."""
    game.state["encounter"] = encounter.initial_state(EncounterType.DEFEND, solo=True)
    game.state["encounter"]["their_objective"] = {"code": code, "die": 1 if item_with else 5}
    if item_with is not None:
        fig = game.fig(item_with)
        game.state["encounter"]["item"] = {"x": fig.x, "y": fig.y, "holder": fig.id}


def test_the_enemy_aims_first_at_the_figures_its_objective_needs_out() -> None:
    """A Defend's enemy that came for the Grunts (12.3.6: the Star does not count)
    starts at the Grunt; one that came for the item starts at the figure with it; a
    Raid's enemy at the raider carrying the objective (12.2)."""
    game, book = active_viper(table(woods=False, star=True, dice=0))
    viper = game.fig("e1")
    assert book.target_ids[0] == "p1"  # the Star, nearer
    # no objective: the Star without dice and the Grunt of its Rep are alike
    assert best_shot(game, viper, book).shot == book
    defend(game, "kill_or_capture")
    assert encounter.objective_figures(game) == {"p2"}
    choice = best_shot(game, viper, book)
    assert choice.shot.target_ids[0] == "p2" and choice.aim > choice.plain_aim
    shot, why = SoloEnemyPolicy().shoot(game, book, "11.4")
    assert shot == choice.shot and "objective" in why
    # the item with Diaz: Diaz; the item with Hale: Hale, as the book has it
    defend(game, "recover", item_with="p2")
    assert best_shot(game, viper, book).shot.target_ids[0] == "p2"
    defend(game, "recover", item_with="p1")
    assert encounter.objective_figures(game) == {"p1"}
    assert best_shot(game, viper, book).shot == book
    # a Raid: the raider carrying the objective (12.2); before it is taken, all alike
    game.state["encounter"] = encounter.initial_state(EncounterType.RAID, solo=True)
    assert encounter.objective_figures(game) is None
    game.state["encounter"]["objective"] = {"holder": "p2", "x": 18, "y": 10, "taken": True}
    assert encounter.objective_figures(game) == {"p2"}
    assert best_shot(game, viper, book).shot.target_ids[0] == "p2"
    game.state["encounter"]["objective"]["holder"] = "e1"  # the enemy holds it
    assert encounter.objective_figures(game) is None


def test_the_solo_enemy_says_why_and_the_plain_enemy_shoots_by_the_book() -> None:
    game, book = active_viper(table())
    head = "11.4"
    shot, why = SoloEnemyPolicy().shoot(game, book, head)
    assert isinstance(shot, Fire) and shot.target_ids[0] == "p2"
    assert "Cpl. Diaz" in why and "figures expected out" in why
    plain, words = PlainEnemyPolicy().shoot(game, book, head)
    assert plain == book and "nearest" in words
