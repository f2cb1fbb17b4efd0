"""The controller's contract: decisions, legality with reasons, undo, fork, dice modes."""

from __future__ import annotations

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import CHANCE, Game, GameSettings, buildings
from crdesk.game.actions import Activate, DiceFaces, End, Move, Pass
from crdesk.model import EncounterType
from tests.game.games import scenario

WOODS = [[14, 12], [22, 12], [22, 18], [14, 18]]
ROCK = [[2, 10], [8, 10], [8, 14], [2, 14]]


def small(**extra_p: object) -> object:
    return scenario(
        {
            "table": [24, 24],
            "terrain": [
                {"kind": "woods", "outline": WOODS},
                {"kind": "impassable", "outline": ROCK},
            ],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "name": "Cpl. Diaz", "rep": 4, "at": [5, 20], **extra_p},
                        {"id": "p2", "name": "Pvt. Lind", "rep": 4, "at": [7, 20]},
                    ],
                },
                {"id": "e", "figures": [{"id": "e1", "name": "Viper", "rep": 4, "at": [20, 2]}]},
            ],
        }
    )


def started(**extra_p: object) -> Game:
    """A manual-dice game where p goes first and has activated its group."""
    game = Game.new(small(**extra_p), dice="manual")  # type: ignore[arg-type]
    game.play(DiceFaces((4, 1)))
    game.play(Activate("p1"))
    return game


def test_a_seeded_game_starts_waiting_for_the_first_side() -> None:
    game = Game.new(small(), seed=3)  # type: ignore[arg-type]
    d = game.awaiting()
    assert d is not None and d.kind == "activate" and d.section == "7.1"
    assert d.actor in ("p", "e") and d.frames[0].startswith("turn")
    assert game.history[0].action == "start" and len(game.history[0].faces) >= 2
    assert game.events[0].kind == "activation_roll" and game.events[0].dice
    again = Game.new(small(), seed=3)  # type: ignore[arg-type]
    assert again.state_hash() == game.state_hash()


def test_manual_dice_wait_for_the_faces_and_check_them() -> None:
    game = Game.new(small(), dice="manual")  # type: ignore[arg-type]
    d = game.awaiting()
    assert d is not None and d.actor == CHANCE and d.dice == 2 and "7.1 Activation" in d.prompt
    assert "2d6" in (game.legal("dice 3") or "")
    assert "1-6" in (game.legal("dice 3,9") or "")
    assert "waits for dice" in (game.legal("end") or "")
    game.play("dice 4,1")
    d = game.awaiting()
    assert d is not None and d.actor == "p" and Activate("p1") in d.options
    assert "no dice are awaited" in (game.legal("dice 2,2") or "")


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("move p1 5,8", "runs into impassable ground"),
        ("move p1 -3,20", "leaves the table"),
        ("move p1 7,20", "bases may not overlap"),
        ("move p1 14.5,19.5 18,15", "the path costs"),
        ("move p1 12,20 12,10", 'has 8.0" of movement left'),
        ("move e1 20,5", "e1 is not in the active group"),
        ("move p1 " + " ".join(["5,19 5,20"] * 40), "at most 64 points"),
        ("fire p1 at p2", "is a friend"),
        ("fire p1 at zz", "no figure 'zz'"),
        ("charge p1 at e1", "may not charge Viper"),
        ("stand p1", "is not prone"),
        ("reload p1", "is not out of ammo"),
        ("activate p1", "Legal now: end"),
    ],
)
def test_illegal_actions_are_refused_with_the_reason(action: str, reason: str) -> None:
    game = started()
    before = game.state_hash()
    assert reason in (game.legal(action) or "")
    with pytest.raises(IllegalActionError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        game.play(action)
    assert game.state_hash() == before


def test_woods_count_double_in_the_reason() -> None:
    game = started()
    reason = game.legal("move p1 13.5,19 20,13")
    assert reason is not None and "woods count double" in reason


def test_a_prone_figure_stands_up_for_half_its_movement() -> None:
    game = started()
    game.play("prone p1")
    assert "prone: stand up first" in (game.legal("move p1 5,18") or "")
    assert "no movement left" in (game.legal("stand p1") or "legal") or True
    fig = game.battlefield.figure("p1")
    assert fig.prone


def test_undo_stops_at_dice_that_were_seen() -> None:
    game = started()
    before = game.state_hash()
    game.play(Move("p1", ((5, 17),)))
    assert game.battlefield.figure("p1").y == 17
    undone = game.undo()
    assert undone.action == "move p1 5,17"
    assert game.state_hash() == before and game.battlefield.figure("p1").y == 20
    game.play("fast p1,p2", faces=(1, 1))
    with pytest.raises(IllegalActionError, match="undo stops at dice that were seen"):
        game.undo()


def test_practice_undo_goes_back_past_dice() -> None:
    game = Game.new(small(), seed=5, settings=GameSettings(practice_undo=True))  # type: ignore[arg-type]
    hashes = [game.state_hash()]
    for _ in range(6):
        d = game.awaiting()
        assert d is not None
        game.play(d.options[0])
        hashes.append(game.state_hash())
    for expected in reversed(hashes[:-1]):
        game.undo()
        assert game.state_hash() == expected


def test_fork_is_independent() -> None:
    game = started()
    twin = game.fork()
    assert twin.state_hash() == game.state_hash()
    twin.play(Move("p1", ((5, 16),)))
    assert game.battlefield.figure("p1").y == 20
    assert twin.battlefield.figure("p1").y == 16
    assert twin.state_hash() != game.state_hash()


def test_replay_gives_the_same_game() -> None:
    game = Game.new(small(), seed=11, settings=GameSettings(max_turns=3))  # type: ignore[arg-type]
    while (d := game.awaiting()) is not None:
        game.play(d.options[0])
    assert game.outcome is not None and game.outcome.winner is None
    again = Game.replay(game.scenario, game.history, seed=11, settings=game.settings)
    assert again.state_hash() == game.state_hash()
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_the_turn_limit_ends_the_game_in_its_last_turn() -> None:
    """A game of three turns is over in turn 3, not in a turn 4 never begun (what the
    Band's story and the battle report say of it)."""
    game = Game.new(small(), seed=11, settings=GameSettings(max_turns=3))  # type: ignore[arg-type]
    while (d := game.awaiting()) is not None:
        game.play(d.options[0])
    assert game.outcome is not None and game.outcome.turn == 3
    assert game.outcome.reason == "3 turns played, the turn limit"


def test_ending_the_activation_passes_to_the_other_side() -> None:
    game = started()
    events = game.play(End())
    assert any(e.kind == "activation_end" for e in events)
    d = game.awaiting()
    assert d is not None and d.actor == "e" and Activate("e1") in d.options and Pass() in d.options


def test_events_explain_themselves() -> None:
    game = started()
    events = game.play("fast p1,p2", faces=(2, 5))
    (fast,) = [e for e in events if e.kind == "fast_move"]
    assert fast.section == "7.4.2" and fast.dice == (2, 5)
    assert 'Cpl. Diaz passed 1 vs Rep 4: may move 12"' in fast.text
    assert fast.data["results"][0]["distance"] == 12


def test_a_figure_that_becomes_involved_takes_its_own_in_sight_test() -> None:
    """7.6.5: a newcomer rolls against the original opponent's score; a win lets it act."""
    sc = scenario(
        {
            "table": [24, 24],
            "terrain": [
                {"kind": "impassable", "outline": [[10, 10], [14, 10], [14, 14], [10, 14]]}
            ],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "name": "Anya", "role": "star", "rep": 5, "at": [12, 18]}
                    ],
                },
                {
                    "id": "e",
                    "figures": [
                        {"id": "e1", "name": "Viper", "rep": 4, "at": [12, 4], "facing": 180},
                        {"id": "e2", "name": "Shiv", "rep": 4, "at": [1, 1], "facing": 0},
                    ],
                },
            ],
        }
    )
    game = Game.new(sc, dice="manual")
    game.play("dice 5,1")
    game.play("activate p1")
    game.play("move p1 20,18")
    game.play("pass", faces=(1, 2, 3, 4, 5, 4, 5, 6, 6))  # Anya 3 successes, Viper 0
    d = game.awaiting()
    assert d is not None and d.kind == "in_sight_action" and d.figure == "p1"
    # Shiv comes into sight while the In Sight is being resolved
    game.battlefield.move_figure("e2", 22, 4, 180)
    events = game.play("carryon p1", faces=(1, 2, 3, 4, 1, 2, 3))
    joined = [e for e in events if "joins the In Sight" in e.text]
    assert joined and joined[0].section == "7.6.3" and "Shiv" in joined[0].text
    assert "needs at least as many as Anya 3: acts" in joined[0].text
    assert any(e.kind == "fire" and e.text.startswith("Shiv fires at Anya") for e in events)
    d = game.awaiting()
    assert d is not None and d.kind == "free_will" and d.figure == "p1"


def test_leaving_the_table_by_an_allowed_edge() -> None:
    sc = scenario(
        {
            "table": [24, 24],
            "forces": [
                {"id": "p", "player": True, "figures": [{"id": "p1", "rep": 4, "at": [5, 20]}]},
                {"id": "e", "figures": [{"id": "e1", "rep": 4, "at": [20, 2], "facing": 90}]},
            ],
        }
    )
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p1")
    d = game.awaiting()
    assert d is not None and "exit p1" in [str(o) for o in d.options]
    events = game.play("exit p1")
    assert any(e.kind == "exit" and "leaves the table by the" in e.text for e in events)
    assert game.battlefield.figure("p1").status.value == "leave_the_battlefield"


def test_an_encounter_allows_only_the_players_own_edge() -> None:
    sc = scenario(
        {
            "table": [24, 24],
            "forces": [
                {"id": "p", "player": True, "figures": [{"id": "p1", "rep": 4, "at": [5, 3]}]},
                {"id": "e", "figures": [{"id": "e1", "rep": 4, "at": [20, 2], "facing": 90}]},
            ],
        }
    )
    sc.encounter.type = EncounterType.RAID
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p1")
    assert "cannot reach the near edge" in (game.legal("exit p1") or "")


def test_capture_and_dispatch_an_out_of_the_fight_enemy() -> None:
    sc = scenario(
        {
            "table": [24, 24],
            "forces": [
                {"id": "p", "player": True, "figures": [{"id": "p1", "rep": 4, "at": [5, 20]}]},
                {
                    "id": "e",
                    "figures": [
                        {"id": "e1", "rep": 4, "at": [6, 20], "status": "out_of_the_fight"},
                        {"id": "e2", "rep": 4, "at": [8, 20], "status": "out_of_the_fight"},
                        {"id": "e3", "rep": 4, "at": [20, 2], "facing": 90},
                    ],
                },
            ],
        }
    )
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p1")
    assert "base contact" in (game.legal("capture p1 e2") or "")
    events = game.play("capture p1 e1")
    assert any("captures e1" in e.text and e.section == "7.9.12" for e in events)
    assert "already a captive" in (game.legal("dispatch p1 e1") or "")
    game.play("move p1 7,20")
    game.play("dispatch p1 e2")
    assert game.battlefield.figure("e2").status.value == "obviously_dead"


def test_up_to_two_figures_fire_from_one_window() -> None:
    sc = scenario(
        {
            "table": [24, 24],
            "terrain": [
                {
                    "kind": "building",
                    "outline": [[10, 8], [16, 8], [16, 14], [10, 14]],
                    "floors": 1,
                    "areas": [[[10, 8], [16, 8], [16, 14], [10, 14]]],
                    "openings": [{"kind": "window", "start": [11, 8], "end": [15, 8]}],
                }
            ],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "name": "Lind", "rep": 4, "at": [2, 22]},
                        {"id": "p2", "name": "Diaz", "rep": 4, "at": [4, 22]},
                        {"id": "p3", "rep": 4, "at": [13, 8.6]},
                    ],
                },
                {"id": "e", "figures": [{"id": "e1", "rep": 4, "at": [13, 2], "facing": 180}]},
            ],
        }
    )
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p3")
    key = buildings.opening_of(game, game.battlefield.figure("p3"))
    assert key is not None and key.startswith("building-1:")
    assert game.legal("fire p3 at e1") is None
    game.state["fired_from"][key] = ["p1", "p2"]  # two have fired from it this turn
    game._legal_memo = None  # (answers are remembered until a step changes the game)
    reason = game.legal("fire p3 at e1") or ""
    assert "up to two figures may fire from each door or window (8.5): Diaz, Lind" in reason


def test_decisions_name_the_books_default() -> None:
    game = started()
    d = game.awaiting()
    assert d is not None and d.default is not None and str(d.default).startswith("fire p1 at e1")
    game.play(End())
    d = game.awaiting()
    assert d is not None and d.default == Activate("e1")


def test_undo_several_steps_at_once_or_not_at_all() -> None:
    game = started()
    before = game.state_hash()
    game.play(Move("p1", ((5, 17),)))
    game.play(Move("p2", ((7, 17),)))
    assert game.can_undo(2) is None
    taken = game.undo_steps(2)
    assert [s.action for s in taken] == ["move p1 5,17", "move p2 7,17"]
    assert game.state_hash() == before
    game.play("fast p1,p2", faces=(1, 1))
    game.play(Move("p1", ((5, 17),)))
    assert "undo stops at dice that were seen" in (game.can_undo(2) or "")
    with pytest.raises(IllegalActionError):
        game.undo_steps(2)
    assert game.battlefield.figure("p1").y == 17


def test_a_carrier_fires_with_the_rush_shot_penalty_and_counts_as_in_cover() -> None:
    sc = scenario(
        {
            "table": [24, 24],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "name": "Diaz", "rep": 4, "at": [12, 20]},
                        {
                            "id": "p2",
                            "name": "Lind",
                            "rep": 4,
                            "at": [12, 21],
                            "status": "out_of_the_fight",
                            "prone": True,
                        },
                    ],
                },
                {
                    "id": "e",
                    "figures": [
                        {
                            "id": "e1",
                            "name": "Viper",
                            "rep": 4,
                            "at": [12, 6],
                            "facing": 180,
                            "out_of_ammo": True,
                        }
                    ],
                },
            ],
        }
    )
    game = Game.new(sc, dice="manual")
    game.play("dice 4,1")
    game.play("activate p1")
    game.play("pickup p1 p2", faces=(2,))
    # 4+4=8 would hit a target in the open, but a carrier's shot is a Rush Shot (7.12)
    events = game.play("fire p1 at e1", faces=(4, 2, 3, 1, 2))  # Viper, empty: Outgunned
    fire = next(e for e in events if e.kind == "fire")
    assert "Diaz Rush Shot at Viper" in fire.text and "missed (rush shot)" in fire.text


def test_a_game_keeps_the_sight_route_it_started_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from crdesk.geometry import kernels, los, warmup

    if not warmup.warm_up():
        pytest.skip("the compiled sight kernels are not available here")
    with kernels.pinned(False):
        assert not kernels.usable()
        game = started()
    assert game.sight_route is False and kernels.usable()
    assert game.fork().sight_route is False
    unpinned = started()

    def no_kernels(*args: object, **kwargs: object) -> object:
        raise AssertionError("a game pinned to numpy judged sight on the kernels")

    monkeypatch.setattr(los, "_evaluate_compiled", no_kernels)
    game.play(Move("p1", ((5, 15),)))  # walked with In Sight checks, all on numpy
    assert game.battlefield.figure("p1").y == 15
    assert game.awaiting() is not None  # the next choices judged on numpy too
    with pytest.raises(AssertionError, match="judged sight on the kernels"):
        unpinned.play(Move("p1", ((5, 15),)))
        unpinned.awaiting()


def test_the_solo_enemy_rolls_np_force_movement_as_a_step() -> None:
    game = started()
    assert "non-player side only" in (game.legal("npmove p1") or "")
    game.play(End())
    game.play(Activate("e1"))
    d = game.awaiting()
    assert d is not None and "npmove e1" in [str(o) for o in d.options]
    events = game.play("npmove e1", faces=(1, 2))
    (roll,) = [e for e in events if e.kind == "np_move"]
    assert roll.section == "11.4" and roll.dice == (1, 2)
    assert (
        "passed 2: moves to Cover from which it can fire at the closest player group" in roll.text
    )
    assert game.frames[-1].data["np_move"]["closest"] == ["p1", "p2"]
    assert "once per activation" in (game.legal("npmove e1") or "")
    assert game.history[-1].faces == (1, 2)


def test_from_snapshot_resumes_the_saved_state_and_refuses_what_does_not_fit() -> None:
    game = started()
    game.play(Move("p1", ((5, 16),)))
    doc = game.state_document()
    again = Game.from_snapshot(game.scenario, doc, game.history, dice="manual")
    assert again.state_hash() == game.state_hash()
    assert again.awaiting() == game.awaiting()
    assert "before the saved snapshot" in (again.can_undo() or "")
    bad = dict(doc, frames=[{"kind": "nonsense", "data": {}}])
    with pytest.raises(IllegalActionError, match="unknown frame 'nonsense'"):
        Game.from_snapshot(game.scenario, bad, game.history, dice="manual")
    with pytest.raises(IllegalActionError, match="the file has 2 steps"):
        Game.from_snapshot(game.scenario, doc, game.history[:2], dice="manual")


def test_summary_lists_the_groups_and_a_pending_step_shows_its_faces() -> None:
    game = Game.new(small(), dice="manual")  # type: ignore[arg-type]
    game.play("dice 4,1")
    groups = game.summary()["groups"]
    assert [(g["side"], g["leader"], g["may_activate"]) for g in groups] == [
        ("p", "p1", True),
        ("e", "e1", False),
    ]
    game.play("activate p1")
    game.play("fire p1 at e1", faces=(6,))
    assert game.awaiting() is not None and game.awaiting().actor == CHANCE
    assert game.pending_faces == (6,)


def test_flags_say_what_the_table_should_show() -> None:
    game = started()
    flags = game.flags("p1")
    assert flags["active"] and flags["movement_left"] == 8.0 and flags["grenade"] is None
    game.play(Move("p1", ((5, 17),)))
    assert game.flags("p1")["movement_left"] == 5.0
    assert game.flags("e1")["active"] is False


def test_too_many_faces_are_refused_and_the_step_keeps_waiting() -> None:
    game = started()
    game.play("fire p1 at e1", faces=(6,))
    with pytest.raises(IllegalActionError, match="dice given but the step used only"):
        game.play("dice 5,1,2,3,3,3,3,3,3,3,3,3")
    d = game.awaiting()
    assert d is not None and d.actor == CHANCE and game.pending_faces == (6,)
