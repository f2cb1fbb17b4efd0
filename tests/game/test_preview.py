"""Game.preview: what an action would do, worked out on the live game and taken back.

The demo scenario, Knuckles a group of his own (tests/demos.py), with seed 1: Sgt.
Mace's squad activates first; Cpl. Diaz walking north from (14.5, 31.5) to (18.5,
25.5) sees Knuckles and stops (7.6).
"""

from __future__ import annotations

import pytest

from crdesk.game import Game
from crdesk.game.actions import Activate, DiceFaces, Fire, Move, Pass, Prone
from crdesk.model import ChangeKind
from tests.demos import in_sight_demo

NORTH = Move("p2", ((18.5, 25.5),))
"""Cpl. Diaz's move that Knuckles interrupts."""
SHORT = Move("p4", ((12.0, 30.0),))
"""Pvt. Lind's 3" move that sees nobody new."""


@pytest.fixture(scope="module")
def demo():  # type: ignore[no-untyped-def]
    return in_sight_demo()


def activated(demo, dice: str = "seeded") -> Game:  # type: ignore[no-untyped-def]
    game = Game.new(demo, seed=1, dice=dice)
    if dice == "manual":
        while game.awaiting().actor == "chance":  # type: ignore[union-attr]
            game.play(DiceFaces((2, 1)))
    game.play(Activate("p1"))
    assert game.awaiting().kind == "act"  # type: ignore[union-attr]
    return game


def test_the_preview_stops_where_the_real_move_stops(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    before = game.state_hash()
    steps, dice, events = len(game.history), game.die_position, len(game.events)
    preview = game.preview(NORTH)
    assert preview.legal and preview.needs_dice is None
    assert preview.sightings and preview.sightings[0].seen_name in ("Knuckles", "Cpl. Diaz")
    assert preview.stopped is not None and preview.stopped.startswith("In Sight — ")
    assert "Knuckles" in preview.stopped and "Cpl. Diaz" in preview.stopped
    assert preview.next_frame == "free_move"
    # the live game is untouched: same state, history, dice and log
    assert game.state_hash() == before
    assert (len(game.history), game.die_position, len(game.events)) == (steps, dice, events)
    assert game.awaiting().kind == "act"  # type: ignore[union-attr]
    played = game.play(NORTH)
    diaz = game.fig("p2")
    assert preview.end == (diaz.x, diaz.y) != (18.5, 25.5)
    assert [e.text for e in preview.events] == [e.text for e in played]
    assert game.awaiting().kind == "free_move"  # type: ignore[union-attr]


def test_a_move_that_sees_nobody_goes_all_the_way(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    before = game.state_hash()
    preview = game.preview(str(SHORT))  # the text form is accepted too
    assert preview.legal and preview.stopped is None and not preview.sightings
    assert preview.end == pytest.approx((12.0, 30.0))
    assert preview.next_frame == "activation"
    assert game.state_hash() == before
    game.play(SHORT)
    assert (game.fig("p4").x, game.fig("p4").y) == pytest.approx(preview.end)


def test_a_refused_action_gives_the_controllers_reason(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    before = game.state_hash()
    far = Move("p3", ((19.5, 14.0),))
    preview = game.preview(far)
    assert preview.reason == game.legal(far) and "movement left" in preview.reason
    assert not preview.moved and preview.end is None
    assert game.preview("move nonsense").reason  # an unreadable action says why
    assert game.state_hash() == before


@pytest.mark.parametrize("dice", ["seeded", "manual"])
def test_a_preview_never_rolls_it_stops_for_the_test(demo, dice: str) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo, dice)
    game.play(NORTH)
    assert game.awaiting().kind == "free_move"  # type: ignore[union-attr]
    before, rolled = game.state_hash(), game.die_position
    preview = game.preview(Pass())  # passing takes the In Sight test: 7.6.3 dice
    assert preview.needs_dice is not None and "d6" in preview.needs_dice
    assert preview.stopped.startswith("a test is taken") and preview.next_frame is None
    assert game.state_hash() == before and game.die_position == rolled
    assert game.awaiting().kind == "free_move"  # type: ignore[union-attr]
    if dice == "manual":
        assert game.pending_step() is None  # no step waits for faces after a preview
        return
    events = game.play(Pass())
    assert any(e.kind == "in_sight" and e.dice for e in events)  # the real one rolls


def test_a_shot_is_previewed_up_to_its_dice(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    game.play(NORTH)
    decision = game.awaiting()
    while decision is not None and decision.kind != "act":  # the book's defaults, as Enter
        assert decision.default is not None
        game.play(decision.default)
        decision = game.awaiting()
    assert decision is not None
    shots = [o for o in decision.options if isinstance(o, Fire)]
    assert shots, "seed 1: a figure of the group has a shot after the In Sight"
    before, dice = game.state_hash(), game.die_position
    preview = game.preview(shots[0])
    assert preview.legal and preview.needs_dice is not None
    assert game.state_hash() == before and game.die_position == dice
    assert game.awaiting() == decision


def test_moves_previewed_in_turn_stop_at_the_interrupt(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    before = game.state_hash()
    chain = game.preview_all([SHORT, NORTH, Prone("p1")])
    assert [p.legal for p in chain] == [True, True]  # Mace's Prone is not reached
    assert chain[0].next_frame == "activation" and chain[1].next_frame == "free_move"
    assert game.state_hash() == before
    # a second move by the same figure is judged after the first (its movement is spent)
    again = game.preview_all([SHORT, Move("p4", ((12.0, 24.0),))])
    assert again[1].reason is not None and "movement left" in again[1].reason
    assert game.preview(Move("p4", ((12.0, 26.0),))).legal  # alone it is fine


def test_the_table_hears_nothing_of_a_preview(demo) -> None:  # type: ignore[no-untyped-def]
    game = activated(demo)
    heard: list[object] = []
    unsubscribe = game.battlefield.subscribe(heard.append)
    try:
        game.preview(NORTH)
        assert heard == []
        game.play(SHORT)
        assert any(c.kind is ChangeKind.CHANGED for c in heard)  # type: ignore[attr-defined]
    finally:
        unsubscribe()
