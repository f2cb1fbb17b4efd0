"""The PEF and NP movement readings as rules options (11.2, 11.4): each switch changes play."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.game.test_game_data import play_case

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


def _case(name: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((GAMES / f"{name}.json").read_text())
    return case


def _with(case: dict[str, Any], **interpretations: Any) -> dict[str, Any]:
    out = copy.deepcopy(case)
    out["scenario"]["rules"] = {"interpretations": interpretations}
    out.pop("events", None)
    out.pop("final", None)
    return out


def test_pefs_move_whatever_the_die_unless_the_option_gates_them_by_rep_4() -> None:
    base = _case("pef_move_ends_in_cover")
    base["steps"][0]["dice"][1] = 5  # the enemy side's activation die: 5, above Rep 4
    moving = play_case(_with(base))
    assert [e.kind for e in moving.events].count("pef_move") == 3
    gated = _with(base, pef_moves_on_any_die=False)
    gated["steps"][0]["dice"] = gated["steps"][0]["dice"][:5]  # no PEF movement dice
    still = play_case(gated)
    texts = [e.text for e in still.events if e.kind == "pef_move"]
    assert texts == [
        "The PEFs do not move: the activation die 5 is above their Rep 4 (11.2, as the "
        "rules settings read it)."
    ]
    assert [p["x"] for p in still.state_document()["game"]["pefs"]] == [12.0, 4.0, 20.0]


def test_a_pef_keeps_to_the_straight_line_when_the_fan_is_zero() -> None:
    base = _case("pef_move_ends_in_cover")
    case = _with(base, pef_cover_fan=0)
    case["steps"][0]["dice"] += [6, 6]  # its resolution: False alarm
    straight = play_case(case)
    pef1 = straight.state_document()["game"]["pefs"][0]
    assert (pef1["x"], pef1["y"]) == (12.0, 20.0)
    assert pef1["resolved"]  # out in the open at (12, 20): p1 sees it at once


def test_buildings_generate_no_pefs_when_switched_off() -> None:
    base = _case("pef_building")
    off = _with(base, pef_buildings=False)
    off["steps"][2]["dice"] = []
    off["steps"][-1]["dice"] = []
    game = play_case(off)
    assert not [e for e in game.events if e.kind in ("pef_building", "pef_contact")]
    assert "buildings" not in game.state_document()["game"]["pef"]


def _np_case(**interpretations: Any) -> dict[str, Any]:
    return {
        "scenario": {
            "rules": {"interpretations": interpretations},
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {"id": "p1", "rep": 4, "at": [12, 22]},
                        {"id": "p2", "rep": 4, "at": [2, 22]},
                    ],
                },
                {
                    "id": "e",
                    "figures": [
                        {"id": "e1", "rep": 4, "at": [12, 4], "facing": 180},
                        {"id": "e2", "rep": 4, "at": [13.5, 4], "facing": 180},
                    ],
                },
            ],
        },
        "steps": [
            {"do": "start", "dice": [1, 4]},
            {"do": "activate e1"},
            {"do": "npmove e1", "dice": [3, 5]},
        ],
    }


def test_np_outnumbering_counts_the_closest_group_or_the_whole_sides() -> None:
    by_group = play_case(_np_case())
    assert by_group.frames[-1].data["np_move"]["outnumbers"] is True  # 2 against p1 alone
    by_sides = play_case(_np_case(np_outnumbers_by_group=False))
    assert by_sides.frames[-1].data["np_move"]["outnumbers"] is False  # 2 against 2


def _contact_on_the_enemy_turn(**interpretations: Any) -> dict[str, Any]:
    """PEF 1 moves 8" into p1's sight on the enemy's turn (the fan off, so it ends in
    the open) and is resolved as Contact: two enemies, Rep 4."""
    case = _with(_case("pef_move_ends_in_cover"), pef_cover_fan=0, **interpretations)
    case["steps"][0]["dice"] += [1, 1, 4, 3, 3]
    return case


def test_a_contact_found_by_a_moving_pef_takes_the_in_sight_test_at_once() -> None:
    game = play_case(_contact_on_the_enemy_turn())
    kinds = [e.kind for e in game.events]
    assert kinds[-3:] == ["pef_resolved", "pef_contact", "in_sight"]
    assert "moved into a player group's sight as PEF contact" in game.events[-1].text
    decision = game.awaiting()
    assert decision is not None and (decision.actor, decision.kind) == ("e", "free_move")
    assert decision.frames == ("turn", "side(e)", "free_move(e)")
    # the contact takes the test as the moving side: 3 successes each, and a tie goes
    # to the side not moving, so p1 acts
    game.play("pass", faces=[1, 2, 3, 4, 5, 6, 1, 2, 3])
    test = [e for e in game.events if e.kind == "in_sight"][-1]
    assert "Military 1-1 (moving)" in test.text and "p1 (not moving)" in test.text
    decision = game.awaiting()
    assert decision is not None and (decision.actor, decision.kind) == ("p", "in_sight_action")


def test_a_contact_waits_for_its_activation_when_the_option_is_off() -> None:
    game = play_case(_contact_on_the_enemy_turn(pef_contact_in_sight=False))
    assert [e.kind for e in game.events][-2:] == ["pef_resolved", "pef_contact"]
    decision = game.awaiting()
    assert decision is not None and decision.kind != "free_move"
