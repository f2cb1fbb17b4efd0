"""Table 11.4 NP Force Movement: the row for each result, the outnumbering check, the split."""

from __future__ import annotations

import pytest

from crdesk.ai.enemy import (
    AI_SALT,
    AI_SEED_FACTOR,
    DICE_PER_ACTIVATION,
    ENCIRCLE,
    FIRE,
    HOLD,
    closest_group,
    outnumbers,
    table_dice,
    table_row,
)
from crdesk.dice import CounterDice, counter_face
from crdesk.game import Game
from crdesk.tables import NpMove
from tests.solo.tables import first_act, scripted, table

TWO = [("e1", 4, 17, 8), ("e2", 4, 19, 8)]
FOUR = [("e1", 5, 14, 8), ("e2", 4, 16, 8), ("e3", 4, 18, 8), ("e4", 4, 20, 8)]


@pytest.mark.parametrize(
    ("passed", "more", "row"),
    [
        (2, True, NpMove.SPLIT_AND_ENCIRCLE),
        (1, True, NpMove.MOVE_TO_FIRING_COVER),
        (0, True, NpMove.HOLD_OR_NEAREST_COVER),
        (2, False, NpMove.MOVE_TO_FIRING_COVER),
        (1, False, NpMove.HOLD_OR_NEAREST_COVER),
        (0, False, NpMove.HOLD_OR_NEAREST_COVER),
    ],
)
def test_table_rows(passed: int, more: bool, row: NpMove) -> None:
    assert table_row(passed, more) is row


@pytest.mark.parametrize(
    ("np", "player", "more"),
    [(4, 2, True), (3, 2, False), (2, 1, True), (1, 1, False), (5, 0, False)],
)
def test_outnumbering_is_two_to_one_or_more(np: int, player: int, more: bool) -> None:
    assert outnumbers(np, player) is more


@pytest.mark.parametrize(
    ("enemies", "faces", "passed", "more", "row", "flank"),
    [
        # 2 against 2: never outnumbering (Leader Rep 4)
        (TWO, (1, 2), 2, False, NpMove.MOVE_TO_FIRING_COVER, None),
        (TWO, (1, 6), 1, False, NpMove.HOLD_OR_NEAREST_COVER, None),
        (TWO, (6, 5), 0, False, NpMove.HOLD_OR_NEAREST_COVER, None),
        # 4 against 2: outnumbering 2:1 (Leader Rep 5)
        (FOUR, (1, 2, 3), 2, True, NpMove.SPLIT_AND_ENCIRCLE, "left"),
        (FOUR, (5, 5, 4), 2, True, NpMove.SPLIT_AND_ENCIRCLE, "right"),
        (FOUR, (1, 6), 1, True, NpMove.MOVE_TO_FIRING_COVER, None),
        (FOUR, (6, 6), 0, True, NpMove.HOLD_OR_NEAREST_COVER, None),
    ],
)
def test_orders_follow_the_table(
    enemies: list[tuple[str, int, float, float]],
    faces: tuple[int, ...],
    passed: int,
    more: bool,
    row: NpMove,
    flank: str | None,
) -> None:
    policy = scripted(faces)
    game = first_act(table(enemies), policy)
    orders = policy.orders(game)
    assert orders.passed == passed and orders.outnumbers is more and orders.move is row
    assert orders.flank == flank
    assert orders.roll.faces == faces
    assert orders.target_group == ("p1", "p2")
    members = [e[0] for e in enemies]
    assert orders.members == tuple(members)
    if row is NpMove.SPLIT_AND_ENCIRCLE:
        # two equal halves: the Leader's fires from Cover, the other encircles
        assert orders.tasks == {"e1": FIRE, "e2": FIRE, "e3": ENCIRCLE, "e4": ENCIRCLE}
    else:
        task = FIRE if row is NpMove.MOVE_TO_FIRING_COVER else HOLD
        assert orders.tasks == dict.fromkeys(members, task)
    headline = orders.headline(game)
    assert headline.startswith(f"11.4 NP Force Movement (Viper e1 rolled {faces[0]},{faces[1]}")
    assert f"passed {passed} — " in headline
    _action, why = policy.decide(game, game.awaiting())  # type: ignore[arg-type]
    assert why.startswith(headline)


def test_an_odd_group_splits_with_the_larger_half_on_the_leader() -> None:
    three = [("e1", 4, 16, 8), ("e2", 5, 18, 8), ("e3", 4, 20, 8)]
    policy = scripted((1, 1, 6))
    game = first_act(table(three, players=[("p1", 4, 18, 32)]), policy)
    orders = policy.orders(game)
    assert orders.leader == "e2" and orders.move is NpMove.SPLIT_AND_ENCIRCLE
    assert orders.tasks == {"e2": FIRE, "e1": FIRE, "e3": ENCIRCLE}


def test_the_closest_player_group_is_chosen() -> None:
    players = [("p1", 5, 4, 32), ("p2", 4, 6, 32), ("p3", 4, 30, 20)]
    game = Game.new(table(TWO, players=players))
    assert closest_group(game, ["e1", "e2"]) == ("p3",)
    assert closest_group(game, ["p3"]) == ("e1", "e2")


def test_the_stopgap_dice_are_derived_from_the_seed_and_the_activation() -> None:
    """Until the controller rolls for the AI: activation n uses dice 3n.. of a separate
    stream, so the same game gets the same 11.4 rolls, and they differ by activation."""
    game = Game.new(table(TWO), seed=7)
    dice = table_dice(game, 5)
    assert isinstance(dice, CounterDice)
    faces = dice.roll(3, section="11.4", table="NP Force Movement").faces
    stream = 7 * AI_SEED_FACTOR + AI_SALT
    assert faces == tuple(counter_face(stream, DICE_PER_ACTIVATION * 5 + k) for k in range(3))
    again = table_dice(game, 5).roll(3, section="11.4", table="NP Force Movement").faces
    assert again == faces
    rolls = {
        table_dice(game, n).roll(2, section="11.4", table="NP Force Movement").faces
        for n in range(1, 40)
    }
    assert len(rolls) > 10
