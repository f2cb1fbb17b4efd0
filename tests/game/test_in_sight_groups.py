"""7.6.2 by group: the figures counted as seen are the seen ones and their groups (6.2)."""

from __future__ import annotations

from crdesk.game import Game
from crdesk.game.in_sight import seen_groups
from crdesk.model import Status
from tests.game.games import scenario

FORCES = {
    "table": [36, 24],
    "forces": [
        {"id": "p", "player": True, "figures": [{"id": "p1", "at": [18, 22]}]},
        {
            "id": "e",
            "figures": [
                {"id": "e1", "at": [4, 4]},
                {"id": "e2", "at": [6, 4]},  # 1" from e1, base to base, in sight: one group
                {"id": "e3", "at": [9.5, 4]},  # 2.5" from e2 (4.5" from e1): by the chain
                {"id": "e4", "at": [30, 4]},  # far off: a group of its own
            ],
        },
    ],
}


def test_a_seen_figure_brings_its_whole_group_and_no_other() -> None:
    game = Game.new(scenario(FORCES), seed=1)
    assert seen_groups(game, {"e1"}, "e") == {"e1", "e2", "e3"}
    assert seen_groups(game, {"e4"}, "e") == {"e4"}
    assert seen_groups(game, set(), "e") == set()


def test_a_knocked_out_figure_breaks_the_chain() -> None:
    """The groups are judged as they stand: e2 out of the fight splits e1 from e3 (6.2)."""
    game = Game.new(scenario(FORCES), seed=1)
    game.battlefield.update_figure("e2", status=Status.OUT_OF_THE_FIGHT)
    assert seen_groups(game, {"e1"}, "e") == {"e1"}
