"""Firearms Detail in the game controller (FD §3-§8, §11): the switch, legal(), undo and
the adapter queries the play mode asks.  Whole fights are data games
(``tests/data/games/firearms_*.json``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from crdesk.errors import IllegalActionError
from crdesk.game import Game, firearms, firearms_view
from crdesk.game.actions import DiceFaces
from crdesk.rules.firearms.tables import FireMode
from tests.game.games import scenario


def _compact(on: bool) -> dict[str, Any]:
    return {
        "table": [24, 24],
        "rules": {"firearms_detail": on},
        "forces": [
            {
                "id": "p",
                "player": True,
                "figures": [
                    {"id": "p1", "name": "Cpl. Diaz", "rep": 5, "at": [12, 20]},
                    {"id": "p2", "name": "Doc", "rep": 4, "weapon": "SG", "at": [14, 20]},
                ],
            },
            {
                "id": "e",
                "figures": [
                    {"id": "e1", "name": "Knuckles", "rep": 4, "at": [12, 4], "facing": 180}
                ],
            },
        ],
    }


def _game(on: bool) -> Game:
    game = Game.new(scenario(_compact(on)), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    return game


def test_with_the_switch_off_modes_are_refused_and_the_state_has_no_weapons() -> None:
    game = _game(False)
    why = game.legal("fire p1 at e1 mode FA")
    assert why is not None and "Firearms Detail rules, off in this scenario" in why
    assert "weapons" not in game.state_document()["game"]
    assert game.legal("fire p1 at e1") is None
    assert firearms_view.weapon_panel(game, "p1") is None
    assert firearms_view.rounds_left(game, "p1") is None


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("fire p2 at e1 mode semi", "Doc's Shotgun has no Semi mode; its card has Pump (pump)"),
        ("fire p1 at e1 mode FA walk 5", "at most 4 pairs"),
        ("fire p1 at e1 mode FA aim walk 1", "aiming is not allowed with walking fire"),
        ("fire p1 at e1,p2 mode FA", "Full Auto (FD §5) fires at one primary target"),
        ("fire p1 at e1 mode semi aim", "aiming is for Full Auto (FD §5.1), not Semi"),
        ("fire p1 at e1:2 mode FA", "Full Auto sets its own dice"),
    ],
)
def test_legal_refuses_what_the_card_does_not_allow(action: str, words: str) -> None:
    game = _game(True)
    why = game.legal(action)
    assert why is not None and words in why
    with pytest.raises(IllegalActionError, match=words.split("(")[0].strip()):
        game.play(action)


def test_aiming_and_support_need_a_shooter_that_did_not_move() -> None:
    game = _game(True)
    assert game.legal("fire p1 at e1 mode FA aim") is None
    game.play("move p1 12,19")
    assert "has moved this activation" in (game.legal("fire p1 at e1 mode FA aim") or "")
    assert "has moved this activation" in (game.legal("fire p1 at e1 support bipod") or "")
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None and panel.aim is not None and "moved" in panel.aim


def test_the_adapter_gives_the_card_modes_and_rounds_and_the_rounds_are_game_state() -> None:
    game = _game(True)
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None
    assert [m.mode for m in panel.modes] == [FireMode.SEMI, FireMode.RB3, FireMode.FA]
    assert [m.dice for m in panel.modes] == [3, 3, 10]
    assert panel.rounds == 30 and panel.spares == 3 and panel.aim is None
    assert panel.summary.startswith("Assault Rifle (AR), Semi: 30/30 rounds, 3 spare magazines")
    odds = firearms_view.firearms_odds(game, "fire p1 at e1 mode FA aim")
    assert odds.explain()
    before = game.state_hash()
    # ten fire dice all missing (1s), then Knuckles' Received Fire test
    game.play("fire p1 at e1 mode FA", faces=[1] * 10 + [6, 6])
    assert firearms_view.rounds_left(game, "p1") == 20
    modes = {m.mode: m for m in firearms_view.fire_modes(game, "p1")}
    assert modes[FireMode.FA].dice == 10
    # the rounds are game state: the game before the volley, replayed, holds them all
    back = Game.replay(game.scenario, game.history[:-1], dice="manual", settings=game.settings)
    assert back.state_hash() == before
    assert firearms_view.rounds_left(back, "p1") == 30


@pytest.mark.parametrize(
    ("mode", "dice", "outcome"),
    [("semi", 3, "Received Fire: Rush Shot"), ("FA", 10, "Received Fire (Outgunned): Outgunned")],
)
def test_full_auto_counts_outgunned_ranking_one_higher(mode: str, dice: int, outcome: str) -> None:
    """AR against AR is no Outgunning; on Full Auto the shooter's ranking is one higher
    (FD §5), so the same Received Fire roll (one pass) reads Duck Back, not Rush Shot."""
    game = _game(True)
    game.play(f"fire p1 at e1 mode {mode}", faces=[1] * dice + [2, 6])
    while (d := game.awaiting()) is not None and d.actor == "chance":
        game.play(DiceFaces((1,) * d.dice))  # Knuckles' Rush Shot misses, and so on
    reaction = next(e for e in game.events if e.kind == "reaction")
    assert "rolled 2,6 vs Rep 4: passed 1" in reaction.text and outcome in reaction.text


# --------------------------------------------------------------------------
# Blast weapons under the module: rings, the launcher's rounds (FD §3, §9)


def _rocket_game(on: bool = True) -> Game:
    compact = {
        "table": [36, 36],
        "rules": {"firearms_detail": on},
        "forces": [
            {
                "id": "p",
                "player": True,
                "figures": [
                    {"id": "p1", "name": "Gunner", "rep": 5, "weapon": "RL", "at": [18, 30]}
                ],
            },
            {
                "id": "e",
                "figures": [
                    {"id": "e1", "name": "Knuckles", "rep": 4, "at": [18, 10], "facing": 180},
                    {"id": "e2", "name": "Shiv", "rep": 4, "at": [21.5, 10], "facing": 180},
                    {"id": "e3", "name": "Tiny", "rep": 4, "at": [18, 1.5], "facing": 180},
                ],
            },
        ],
    }
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    return game


def test_a_rocket_on_target_bursts_in_rings_and_spends_the_launchers_round() -> None:
    game = _rocket_game()
    assert firearms_view.rounds_left(game, "p1") == 1
    # 4+5=9 on target; Knuckles (Deadly) 2+1=3 Duck Back, Shiv at 3" (Severe) 6 OD,
    # Tiny at 8" is outside the rings: Received Fire
    game.play("fire p1 at e1", faces=[4, 2, 6])
    rings = [e for e in game.events if e.kind == "blast_ring"]
    assert [e.figures for e in rings] == [("e1",), ("e2",), ("e3",)]
    assert "Deadly damage 2+1=3 vs Rep 4: Duck Back" in rings[0].text
    assert "Severe damage 6 vs Rep 4: Obviously Dead" in rings[1].text
    assert 'Tiny at 8"' in rings[2].text and "Received Fire" in rings[2].text
    assert game.fig("e2").status.value == "obviously_dead"
    assert firearms_view.rounds_left(game, "p1") == 0
    assert game.fig("p1").out_of_ammo
    assert not any(e.kind == "blast" and "blast circle (7.10.5)" in e.text for e in game.events)


def test_a_rocket_off_target_does_no_damage_and_shakes_everyone_within_ten_inches() -> None:
    game = _rocket_game()
    # 1+5=6: off the spot; Knuckles' and Shiv's Received Fire (passed 1, Outgunned by
    # the blast weapon's Rank 5, 7.9.1: Duck Back)
    game.play("fire p1 at e1", faces=[1, 3, 5])
    miss = next(e for e in game.events if e.kind == "blast")
    assert 'misses the spot (18.0, 10.0): no damage; Knuckles, Shiv, Tiny are within 10"' in (
        miss.text
    )
    assert set(miss.figures) == {"e1", "e2", "e3"}
    assert not any(e.kind == "blast_ring" for e in game.events)
    tested = [e.figures for e in game.events if e.kind == "reaction"]
    assert tested == [("e1", "e2")]
    d = game.awaiting()
    assert d is not None and d.kind == "duck_back" and d.figure == "e1"


def test_the_fired_launcher_may_be_reloaded_from_its_spares() -> None:
    """The rocket's round comes off the card's magazine (FD §3): a launcher that fired
    is empty, not "full", so it may take one of its 3 spare rounds (7.9.2)."""
    game = _rocket_game()
    assert firearms.reload_problem(game, game.fig("p1")) is not None  # full: 1/1
    game.play("fire p1 at e1", faces=[1, 3, 5])
    assert firearms.reload_problem(game, game.fig("p1")) is None
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None and panel.rounds == 0 and panel.spares == 3


# --------------------------------------------------------------------------
# The "keep Tight Ammo too" option (FD §3)


@pytest.mark.parametrize(("jams", "rounds"), [(False, 27), (True, 0)])
def test_keep_tight_ammo_too_makes_two_ones_jam_the_weapon(jams: bool, rounds: int) -> None:
    compact = _compact(True)
    compact["rules"]["interpretations"] = {"fd_keep_tight_ammo": jams}
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    # three Semi dice, two of them 1s, all missing; Knuckles' Received Fire 6,6
    game.play("fire p1 at e1 mode semi", faces=[1, 1, 2, 6, 6])
    fire = next(e for e in game.events if e.kind == "fire")
    assert ("Jammed: 2 ones rolled empty the weapon" in fire.text) is jams
    assert firearms_view.rounds_left(game, "p1") == rounds
    assert game.fig("p1").out_of_ammo is jams
    assert any(e.kind == "out_of_ammo" for e in game.events) is jams
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None and panel.spares == 3  # the magazines are not lost


def test_one_single_one_never_jams() -> None:
    compact = _compact(True)
    compact["rules"]["interpretations"] = {"fd_keep_tight_ammo": True}
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    game.play("fire p1 at e1 mode semi", faces=[1, 2, 2, 6, 6])
    assert firearms_view.rounds_left(game, "p1") == 27 and not game.fig("p1").out_of_ammo


# --------------------------------------------------------------------------
# Indirect fire (FD §10); the spotted case is data game firearms_indirect_spotter.json

DATA = Path(__file__).parents[1] / "data" / "games"


def _indirect_game(
    *, spotter_at: tuple[float, float] = (18.5, 20), radio: bool = False, on: bool = True
) -> Game:
    """The data game's table: a launcher south of a warehouse, the spot north-east of it."""
    compact = json.loads((DATA / "firearms_indirect_spotter.json").read_text())["scenario"]
    compact["rules"] = {
        "firearms_detail": on,
        "interpretations": {"fd_spotter_by_radio": radio},
    }
    compact["forces"][0]["figures"][1]["at"] = list(spotter_at)
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    return game


def test_without_a_spotter_indirect_fire_is_at_minus_three_and_a_miss_shakes_the_spot() -> None:
    game = _indirect_game(spotter_at=(26, 28))  # 12" away: no help without the radio
    # 5+5-3=7: off the spot; Knuckles' and Shiv's Received Fire 6,6
    game.play("indirect p1 at 22,10", faces=[5, 6, 6])
    shot = next(e for e in game.events if e.kind == "indirect")
    assert 'no friend within 4" sees the spot' in shot.text
    assert "5+5-3=7 [indirect fire, no spotter -3 (FD §10)]" in shot.text
    assert shot.figures == ("p1",)
    miss = next(e for e in game.events if e.kind == "blast")
    assert 'misses the spot (22.0, 10.0): no damage; Knuckles, Shiv are within 10"' in miss.text
    assert not any(e.kind == "blast_ring" for e in game.events)
    assert firearms_view.rounds_left(game, "p1") == 0


@pytest.mark.parametrize(
    ("radio", "steps"), [(False, "no spotter -3"), (True, "with a spotter -2")]
)
def test_the_radio_option_lets_a_distant_friend_spot(radio: bool, steps: str) -> None:
    game = _indirect_game(spotter_at=(26, 28), radio=radio)
    game.play("indirect p1 at 22,10", faces=[6, 1, 1])  # on the spot either way; 1s: Duck Back
    shot = next(e for e in game.events if e.kind == "indirect")
    assert steps in shot.text
    assert ("Pvt. Eyes spots for it" in shot.text) is radio


@pytest.mark.parametrize(
    ("action", "words", "on"),
    [
        ("indirect p1 at 22,10", "Indirect fire (FD §10) is for the Firearms Detail rules", False),
        ("indirect p1 at 26,16", "Cpl. Mortimer sees the spot", True),
        ("indirect p2 at 22,10", "only blast weapons (grenade launchers, mortars", True),
        ("indirect p1 at 37,10", "the spot is off the table", True),
        ("indirect e1 at 22,10", "e1 is not in the active group", True),
    ],
)
def test_legal_refuses_indirect_fire_the_rules_do_not_allow(
    action: str, words: str, on: bool
) -> None:
    game = _indirect_game(on=on)
    why = game.legal(action)
    assert why is not None and words in why
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match=re.escape(words)):
        game.play(action)
    assert game.state_hash() == before


def test_an_empty_launcher_cannot_fire_indirectly() -> None:
    compact = json.loads((DATA / "firearms_indirect_spotter.json").read_text())["scenario"]
    compact["forces"][0]["figures"][0]["out_of_ammo"] = True
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    why = game.legal("indirect p1 at 22,10")
    assert why is not None and "Rocket Launcher is empty: reload it first (FD §3)" in why


# --------------------------------------------------------------------------
# Readiness (FD §4): ready by giving up 2" of movement


def _bolt_action_fired(on: bool = True) -> Game:
    """Cpl. Diaz's Bolt Action Rifle has fired (and missed) this activation: unready."""
    compact = _compact(on)
    compact["forces"][0]["figures"][0]["weapon"] = "BAR"
    game = Game.new(scenario(compact), dice="manual")
    game.play(DiceFaces((4, 1)))
    game.play("activate p1")
    game.play("fire p1 at e1", faces=[1, 6, 6])  # a miss; Knuckles passes 0: Duck Back
    game.play("duckback e1 auto")
    return game


def test_an_unready_weapon_is_readied_by_giving_up_two_inches() -> None:
    game = _bolt_action_fired()
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None and not panel.state.ready
    decision = game.awaiting()
    assert decision is not None and "ready p1 weapon" in [str(o) for o in decision.options]
    assert game.legal("move p1 20,20") is None  # 8" of movement before
    game.play("ready p1 weapon")
    event = game.events[-1]
    assert event.kind == "ready_weapon" and event.section == "FD §4"
    assert 'Bolt Action Rifle readied by giving up 2" of movement (FD §4)' in event.text
    panel = firearms_view.weapon_panel(game, "p1")
    assert panel is not None and panel.state.ready
    assert game.legal("move p1 18,20") is None
    assert 'has 6.0" of movement left' in (game.legal("move p1 18.5,20") or "")
    assert "ready p1 weapon" not in [str(o) for o in game.awaiting().options]
    assert "is already ready (FD §4)" in (game.legal("ready p1 weapon") or "")


def test_readying_needs_two_inches_of_movement_left() -> None:
    game = _bolt_action_fired()
    game.play("move p1 12,13")  # 7" of 8
    why = game.legal("ready p1 weapon")
    assert why is not None and 'costs 2" of movement, 1" left (FD §4)' in why
    assert "ready p1 weapon" not in [str(o) for o in game.awaiting().options]


def test_a_ready_weapon_needs_no_readying_and_the_module_off_has_none() -> None:
    assert "Assault Rifle is already ready" in (_game(True).legal("ready p1 weapon") or "")
    why = _game(False).legal("ready p1 weapon")
    assert why is not None and "Readying a weapon (FD §4) is for the Firearms Detail" in why


# --------------------------------------------------------------------------
# What the fire dialog's header says the firing does (FD §5, §6)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("fire p1 at e1", "Semi: up to 3 dice, one round each, shared among the targets"),
        ("fire p1 at e1 mode 3RB", "3-round burst: up to 3 bursts (3 rounds each), one per target"),
        (
            "fire p1 at e1 mode FA",
            'one Full Auto volley, 10 dice (10 rounds): 4 on Knuckles (15.0" away), the other 6 '
            'on the figures within 2" of Knuckles, friend or foe, nearest first (FD §5)',
        ),
        (
            "fire p1 at e1 mode FA walk 2",
            "one Full Auto volley, 10 dice (10 rounds), 4 sacrificed to walk the target: "
            '4 on Knuckles (15.0" away), the other 2',
        ),
        (
            "fire p1 at e1 mode FA support bipod",
            '5 on Knuckles (15.0" away), the other 5 on the figures within 1"',
        ),
    ],
)
def test_the_plan_of_a_firing_says_how_its_dice_go(action: str, words: str) -> None:
    plan = firearms_view.fire_plan(_game(True), action)
    assert words in plan


def test_the_plan_of_buckshot_names_its_band() -> None:
    game = _game(True)
    game.play("move p2 14,12")
    plan = firearms_view.fire_plan(game, "fire p2 at e1")
    assert "one buckshot shell (1 round) at Knuckles" in plan and "(FD §6)" in plan
