"""The behaviour rates of ``crdesk simulate`` (issue 32, Deliver 3): a scripted game whose
rates are known by looking at the table, the batch's rates from the counts, the report."""

from __future__ import annotations

import json

import pytest

from crdesk.behaviour import Behaviour, rates
from crdesk.game import CHANCE, Game
from crdesk.game.actions import Action, Activate, DiceFaces, DuckBack, End, Fire, Move
from crdesk.simulate import Setup, default_band, run_batch, summarize
from tests.game.games import scenario

ROCK = [[10, 8], [14, 8], [14, 12], [10, 12]]
"""A rock between the Viper and the place Cpl. Diaz goes to: it hides him."""


def table() -> object:
    """The Viper looks down the table (facing 180) at Diaz and Lind in the open, 18" off,
    and the rock stands between it and (11, 17)."""
    return scenario(
        {
            "table": [24, 24],
            "terrain": [{"kind": "impassable", "outline": ROCK}],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "name": "Cpl. Diaz", "at": [4, 20]},
                        {"id": "p2", "name": "Pvt. Lind", "at": [6, 20]},
                    ],
                },
                {
                    "id": "e",
                    "figures": [{"id": "e1", "name": "Viper", "at": [12, 2], "facing": 180}],
                },
            ],
        }
    )


def play(game: Game, counter: Behaviour, action: Action) -> None:
    """Play ``action`` and every chance step after it with ones (every shot misses,
    every test passes 2d6), telling the counter each step as the simulator does."""
    decision = game.awaiting()
    assert decision is not None
    counter.step(decision, action, "", game.play(action))
    while (decision := game.awaiting()) is not None and decision.actor == CHANCE:
        faces = DiceFaces((1,) * decision.dice)
        counter.step(decision, faces, "", game.play(faces))


def test_a_scripted_activation_counts_what_the_table_shows() -> None:
    game = Game.new(table(), dice="manual")  # type: ignore[arg-type]
    counter = Behaviour(game)
    play(game, counter, DiceFaces((4, 1)))  # p activates first (7.1)
    sight = game.sight()
    assert sight.sees("e1", "p1") and sight.sees("e1", "p2") and sight.sees("p1", "e1")
    play(game, counter, Activate("p1"))  # both have a shot at the Viper: two chances
    play(game, counter, Move("p2", ((6.5, 20.0),)))  # half an inch, still seen: a shuffle
    play(game, counter, Move("p1", ((11.0, 17.0),)))  # behind the rock: unseen, safe
    assert not game.sight().sees("e1", "p1")
    play(game, counter, Fire("p2", (("e1", 3),)))  # Lind fires; the Viper returns fire
    play(game, counter, DuckBack("p2", None))  # an Outgunned Duck Back: not a move by choice
    play(game, counter, End())
    counts = counter.finish()
    assert counts["p"] == {
        "moves": 2,
        "contested": 2,  # the Viper was on the table for both
        "safe": 1,  # Diaz behind the rock; Lind in the open
        "exposure": 1,  # the Viper sees Lind after his move, not Diaz after his
        "shuffles": 1,  # Lind's half inch changed nothing
        "shots_possible": 2,  # both had a shot when the group activated
        "fired": 1,  # Lind fired; Diaz moved out of sight instead
        "objective": 0,  # the game is not over
    }
    assert counts["e"]["fired"] == 0  # the Viper's return fire was a reaction (7.7)
    assert counts["e"]["moves"] == 0


def test_a_move_into_woods_ends_in_cover() -> None:
    """Diaz steps into the woods in the Viper's sight: while his group's activation lasts
    he counts as moving, concealed but not yet in Cover (7.9.5); he is in Cover once he
    stops, and that is where the move put him: a safe move."""
    game = Game.new(
        scenario(
            {
                "table": [24, 24],
                "terrain": [{"kind": "woods", "outline": [[2, 14], [8, 14], [8, 18], [2, 18]]}],
                "forces": [
                    {"id": "p", "player": True, "figures": [{"id": "p1", "at": [11, 15]}]},
                    {"id": "e", "figures": [{"id": "e1", "at": [5, 2], "facing": 180}]},
                ],
            }
        ),
        dice="manual",
    )
    counter = Behaviour(game)
    play(game, counter, DiceFaces((4, 1)))
    play(game, counter, Activate("p1"))
    play(game, counter, Move("p1", ((7.0, 14.6),)))
    sight = game.sight()
    assert sight.sees("e1", "p1") and not sight.in_cover("e1", "p1")  # moving: concealed
    assert sight.concealed("e1", "p1")
    counts = counter.finish()
    assert counts["p"]["contested"] == 1 and counts["p"]["safe"] == 1


def test_a_shot_counts_only_when_the_figure_could_take_it() -> None:
    """Diaz steps out from behind the rock into the Viper's sight: his move stops there
    (7.6.2) with the Viper in his front arc and range, but the In Sight test comes
    first; the Viper wins it, fires, and Diaz ducks back (7.6.4, 7.4.4).  He never had
    a decision with a shot in it, so no shot was possible for him."""
    game = Game.new(
        scenario(
            {
                "table": [24, 24],
                "terrain": [{"kind": "impassable", "outline": ROCK}],
                "forces": [
                    {"id": "p", "player": True, "figures": [{"id": "p1", "at": [12, 16]}]},
                    {"id": "e", "figures": [{"id": "e1", "at": [12, 2], "facing": 180}]},
                ],
            }
        ),
        dice="manual",
    )
    counter = Behaviour(game)
    assert not game.sight().sees("e1", "p1")

    def step(action: Action) -> None:
        """Ones on every die (both In Sight rolls tie, the Viper's shot misses), but
        Diaz's Received Fire test fails (6,6): he ducks back (7.7)."""
        decision = game.awaiting()
        assert decision is not None
        counter.step(decision, action, "", game.play(action))
        while (decision := game.awaiting()) is not None and decision.actor == CHANCE:
            six = "Reaction Tests for p1" in decision.prompt
            faces = DiceFaces((6 if six else 1,) * decision.dice)
            counter.step(decision, faces, "", game.play(faces))

    step(DiceFaces((4, 1)))  # p activates first (7.1)
    step(Activate("p1"))
    step(Move("p1", ((17.0, 14.0),)))  # stops where the Viper comes in sight (7.6.2)
    assert game.frames[-1].kind != "activation"  # the In Sight test is still to come
    fig = game.fig("p1")
    assert game.sight().sees("p1", "e1") and fig.status.can_act  # a shot, were it his turn
    while (decision := game.awaiting()) is not None and decision.actor == "p":
        step(decision.default or decision.options[0])  # the free moves pass; he ducks back
    assert "p1" in game.state["ducked"]
    counts = counter.finish()
    assert counts["p"]["shots_possible"] == 0
    assert counts["p"]["fired"] == 0


def test_the_rates_are_shares_of_their_counts() -> None:
    one = {"moves": 4, "contested": 3, "safe": 2, "exposure": 3, "shuffles": 1}
    two = {"moves": 6, "contested": 5, "safe": 4, "exposure": 1, "shuffles": 0}
    shots = {"shots_possible": 4, "fired": 3, "objective": 1}
    out = rates([one | shots, two], games=2, lost=3, taken_out=6)
    assert out["moves"] == 10
    assert out["safe_moves"] == 0.75  # 6 of 8 contested moves
    assert out["exposure"] == 0.5  # 4 enemies seeing over 8 contested moves
    assert out["shuffles"] == 0.1
    assert out["fired_when_possible"] == 0.75
    assert out["objectives"] == 0.5
    assert out["losses_per_kill"] == 0.5
    nothing = rates([{}], games=1, lost=2, taken_out=0)
    assert nothing["safe_moves"] is None and nothing["losses_per_kill"] is None


@pytest.fixture(scope="module")
def batch() -> list:  # type: ignore[type-arg]
    setup = Setup(terrain="wooded", band=default_band(), max_turns=3)
    return run_batch(setup, 3, 7)


def test_every_simulated_game_counts_both_sides(batch: list) -> None:  # type: ignore[type-arg]
    for result in batch:
        assert result.error is None
        assert set(result.behaviour) == {"player", "enemy"}
        player = result.behaviour["player"]
        assert 0 <= player["safe"] <= player["contested"] <= player["moves"]
        assert 0 <= player["fired"] <= player["shots_possible"]
    report = summarize(batch)
    assert set(report["behaviour"]) == {"player", "enemy"}
    assert json.loads(json.dumps(report))["behaviour"] == report["behaviour"]


def test_the_plain_report_has_a_behaviour_table(batch: list) -> None:  # type: ignore[type-arg]
    from crdesk.cli.simulate import behaviour_lines

    lines = behaviour_lines([("", summarize(batch))])
    assert lines[0].startswith("How each side played")
    assert "player" in lines[1] and "enemy" in lines[1]
    assert any(line.strip().startswith("moves ending in Cover or unseen") for line in lines)
    both = behaviour_lines([("A", summarize(batch)), ("B", summarize(batch))])
    assert both[1].split() == ["player:", "A", "B"]
    assert both[1 + 1 + 6].split() == ["enemy:", "A", "B"]


def test_no_test_uses_a_held_out_seed() -> None:
    """The held-out seeds (910001-919999) judge the players on tables they were never
    fitted to: a test that used one would fit them (issue 32, Deliver 4)."""
    import re
    from pathlib import Path

    from crdesk.simulate import HELD_OUT_SEEDS

    here = Path(__file__).parent
    used = []
    for path in sorted(here.rglob("*.py")):
        if path.name == "test_behaviour.py":
            continue  # this test names the range
        for number in re.findall(r"(?<![\d.])9[1][\d_]{4,5}(?![\d.])", path.read_text()):
            if int(number.replace("_", "")) in HELD_OUT_SEEDS:
                used.append(f"{path.relative_to(here)}: {number}")
    assert not used, used
