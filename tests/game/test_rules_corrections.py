"""Both readings of the rules options the book's corrections brought (issue 28).

The book's cases themselves are data games (``tests/data/games/``): duck_back_into_sight,
duck_back_unseen*, grenade_miss_outguns, star_power_from_rep, reload_no_fast_move and
star_cheat_death_no_power.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.game.test_game_data import play_case

GAMES = Path(__file__).parents[1] / "data" / "games"


@pytest.mark.parametrize(
    ("cannot_shoot_back", "result"),
    [
        (True, "Received Fire (Outgunned): Outgunned, Duck Back"),
        (False, "Received Fire: Rush Shot"),
    ],
)
def test_a_figure_that_cannot_shoot_back_is_outgunned_by_the_option(
    cannot_shoot_back: bool, result: str
) -> None:
    """7.9.1 "or the target cannot shoot back for any reason": Pvt. Okafor faces away
    from the Viper that fires on him (no LOS back), so he is Outgunned and passed 1 is
    a Duck Back; under the other reading of ``outgunned_cannot_shoot_back`` only a
    figure without a loaded weapon is, and passed 1 is a Rush Shot (that he then cannot
    fire)."""
    case = copy.deepcopy(json.loads((GAMES / "in_sight_duck_back.json").read_text()))
    case["scenario"]["rules"] = {
        "interpretations": {"outgunned_cannot_shoot_back": cannot_shoot_back}
    }
    case["steps"] = case["steps"][:4]  # up to the Received Fire test
    game = play_case(case)
    reaction = next(e for e in game.events if e.kind == "reaction")
    assert "passed 1" in reaction.text and result in reaction.text


def test_a_blast_outguns_even_under_the_narrow_reading() -> None:
    """A grenade's Outgunned Rank 5 outguns an Assault Rifle whatever the reading of
    "cannot shoot back" (7.9.1, 7.10.3): Knuckles sees the thrower and could shoot."""
    case = copy.deepcopy(json.loads((GAMES / "grenade_miss_outguns.json").read_text()))
    case["scenario"]["rules"] = {"interpretations": {"outgunned_cannot_shoot_back": False}}
    game = play_case(case)
    assert any("Outgunned, Duck Back" in e.text for e in game.events if e.kind == "reaction")
