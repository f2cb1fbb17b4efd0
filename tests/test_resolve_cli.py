"""``crdesk resolve`` (issue 3, item 5): the referee for real dice.

Expected results are worked out by hand from the digest's tables
(/work/shared/rules/chain-reaction-2015.md); each case says why.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import shlex
import sys
from typing import Any

import pytest

from crdesk.cli import app as cli
from crdesk.cli import resolve as resolve_cli
from crdesk.cli.resolve import engine as resolve_engine

Capsys = pytest.CaptureFixture[str]


@functools.cache
def parser() -> argparse.ArgumentParser:
    """A ``crdesk`` parser with only ``resolve`` registered (argparse parsers are reusable)."""
    top = argparse.ArgumentParser(prog="crdesk")
    resolve_cli.register(top.add_subparsers())
    return top


def split(argv: list[str] | str) -> list[str]:
    return shlex.split(argv) if isinstance(argv, str) else argv


def run(argv: list[str] | str, capsys: Capsys) -> tuple[int, str, str]:
    """Parse ``crdesk resolve ARGV``, run the handler; (code, out, err)."""
    try:
        args = parser().parse_args(["resolve", *split(argv)])
        code = int(args.handler(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def as_json(argv: list[str] | str, capsys: Capsys) -> dict[str, Any]:
    code, out, err = run([*split(argv), "--json"], capsys)
    assert code == 0, err
    assert err == ""
    data: dict[str, Any] = json.loads(out)
    return data


def codes(data: dict[str, Any]) -> list[str]:
    return [r["result"] for r in data["results"]]


def bad(argv: list[str] | str, capsys: Capsys, flag: str, *words: str) -> str:
    """Exit 2 with one line on stderr naming ``flag``, no traceback, nothing on stdout."""
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {flag}"), lines[0]
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --------------------------------------------------------------------------
# JSON: section, dice, result codes, per scripted dice

JSON_CASES: list[tuple[str, str, list[int], list[str]]] = [
    # 7.7 Received Fire, Rep 4, 2 and 5: one passed → Rush Shot.
    ("reaction --test received-fire --rep 4 --dice 2,5", "7.7", [2, 5], ["rush_shot"]),
    # Both dice passed → Return Fire; none → Duck Back.
    ("reaction --test received-fire --rep 4 --dice 1,4", "7.7", [1, 4], ["return_fire"]),
    ("reaction --test received-fire --rep 3 --dice 4,6", "7.7", [4, 6], ["duck_back"]),
    # Outgunned: pass 2 → Outgunned (Duck Back); pass 0 → Leave the Battlefield.
    ("reaction --test received-fire --rep 4 --outgunned --dice 1,1", "7.7", [1, 1], ["outgunned"]),
    (
        "reaction --test received-fire --rep 4 --outgunned --dice 6,5",
        "7.7",
        [6, 5],
        ["leave_the_battlefield"],
    ),
    # Man Down: pass 2 Carry On, pass 1 Duck Back, pass 0 Leave.
    ("reaction --test man-down --rep 4 --dice 3,3", "7.7", [3, 3], ["carry_on"]),
    ("reaction --test man-down --rep 4 --dice 3,5", "7.7", [3, 5], ["duck_back"]),
    ("reaction --test man-down --rep 4 --dice 5,5", "7.7", [5, 5], ["leave_the_battlefield"]),
    # Man Down pass 1 with twice as many friends down (2 vs 1) → Leave the Battlefield.
    (
        "reaction --test man-down --rep 4 --friends-down 2 --enemies-down 1 --dice 3,5",
        "7.7",
        [3, 5],
        ["leave_the_battlefield"],
    ),
    # Both tests from one event: Rush Shot vs Duck Back, the worse applies (7.7.2).
    (
        "reaction --test received-fire --test man-down --rep 4 --dice 2,5",
        "7.7",
        [2, 5],
        ["duck_back"],
    ),
    # Cover die: 5,6 fail, cover die 2 passes → 1 → Rush Shot; Leader Die 6 fails vs Rep 5.
    (
        "reaction --test received-fire --rep 4 --rep 3 --in-cover --leader-rep 5 --leader-die 6 "
        "--dice 5,6,2",
        "7.7",
        [5, 6, 2, 6],
        ["rush_shot", "rush_shot"],
    ),
    # Leader Die 3 passes: +1 for each, capped at 2 → both Return Fire.
    (
        "reaction --test received-fire --rep 4 --rep 3 --leader-rep 5 --leader-die 3 --dice 2 5",
        "7.7",
        [2, 5, 3],
        ["return_fire", "return_fire"],
    ),
    # A Star is never Outgunned; with Free Will it does not roll (the Grunt still does).
    (
        "reaction --test received-fire --rep 5 --star --outgunned --dice 1,1",
        "7.7",
        [1, 1],
        ["return_fire"],
    ),
    (
        "reaction --test received-fire --rep 5 --rep 4 --star --free-will 2 --outgunned --dice 2,5",
        "7.7",
        [2, 5],
        ["return_fire", "outgunned"],
    ),
    ("reaction --test man-down --rep 5 --star --free-will 0", "7.7", [], ["leave_the_battlefield"]),
    # Fire, Rep 4 AR, dice sorted 6,3,1: 6+4=10 hits target 1, 3+4=7 misses it, 1+4=5 misses
    # target 2; damage 5 ≥ Rep 4 → Out of the Fight.
    (
        "fire --rep 4 --weapon AR --target rep=4 --target rep=4,cover --allocate 2,1 --dice 3,6,1 "
        "--damage-dice 5",
        "7.9.10",
        [3, 6, 1, 5],
        ["out_of_the_fight", "miss"],
    ),
    # Same with the damage die read on from --dice, in the engine's order.
    (
        "fire --rep 4 --weapon AR --target rep=4 --target rep=4,cover --allocate 2,1 --dice "
        "3,6,1,5",
        "7.9.10",
        [3, 6, 1, 5],
        ["out_of_the_fight", "miss"],
    ),
    # Rep 5, totals of 9 on three targets: first and second hit, third misses (7.9.10);
    # damage 6 Obviously Dead, 1 < Rep 4 Duck Back.
    (
        "fire --rep 5 --weapon AR --target rep=4 --target rep=4 --target rep=4 --dice 4,4,4 "
        "--damage-dice 6,1",
        "7.9.10",
        [4, 4, 4, 6, 1],
        ["obviously_dead", "duck_back", "miss"],
    ),
    # 8 on the first target: in Cover misses, prone misses, in the open hits.
    ("fire --rep 5 --weapon BAR --target rep=4,cover --dice 3", "7.9.10", [3], ["miss"]),
    ("fire --rep 5 --weapon BAR --target rep=4,prone --dice 3", "7.9.10", [3], ["miss"]),
    ("fire --rep 5 --weapon BAR --target rep=4 --dice 3 4", "7.9.10", [3, 4], ["out_of_the_fight"]),
    # 9 with a Rush Shot: the shooter missed.
    ("fire --rep 4 --weapon P --rush-shot --target rep=4 --dice 5", "7.9.10", [5], ["miss"]),
    # Pitiful Shot: Rep 3 rolls a 6 (9) vs Cover → miss, reroll 2 ≤ 3 → hit; damage 4 → OOF.
    (
        "fire --rep 3 --weapon P --target rep=4,cover --dice 6 --pitiful-dice 2 --damage-dice 4",
        "7.9.10",
        [6, 2, 4],
        ["out_of_the_fight"],
    ),
    # Shotgun: 6d6 keep best 3 (6,4,3): 10 and 8 hit, 7 misses; damage 6 → Obviously Dead.
    (
        "fire --rep 4 --weapon SG --target rep=4 --dice 6,1,1,2,3,4 --damage-dice 6,5",
        "7.9.10",
        [6, 1, 1, 2, 3, 4, 6, 5],
        ["obviously_dead", "out_of_ammo"],
    ),
    # Rocket Launcher: 4+4=8 on the figure at the spot → on target; always out of ammo.
    ("fire --rep 4 --weapon RL --target rep=4 --dice 4", "7.10.5", [4], ["hit"]),
    # Damage 7.9.11: 3 < Rep 4 Duck Back, 6 Obviously Dead; worst is Obviously Dead.
    ("damage --target-rep 4 --dice 3,6", "7.9.11", [3, 6], ["duck_back", "obviously_dead"]),
    ("damage --target-rep 4 --dice 4", "7.9.11", [4], ["out_of_the_fight"]),
    # Old School 16.1 vs AR Impact 3: 1 OD, 3 OOF, 4 Duck Back.
    (
        "damage --target-rep 4 --old-school --weapon AR --dice 1,3,4",
        "16.1",
        [1, 3, 4],
        ["obviously_dead", "out_of_the_fight", "duck_back"],
    ),
    # Star Power: two 1-3s, worst first: OD→OOF, then OOF→Duck Back on the first.
    (
        "star-power --rep 5 --damage obviously_dead,out_of_the_fight --dice 1,2,6,4,5",
        "5.2",
        [1, 2, 6, 4, 5],
        ["duck_back", "out_of_the_fight"],
    ),
    # Melee: OD → OOF → -1 to Rep; Larger Than Life does not matter any more.
    (
        "star-power --rep 5 --damage obviously_dead --melee --attacker-rep 4 --dice 1,2,6,4,5",
        "5.2",
        [1, 2, 6, 4, 5],
        ["minus_one_rep"],
    ),
    # No reductions; a Rep 4 attacker cannot kill a Rep 5 Star: Out of the Fight.
    (
        "star-power --rep 5 --damage obviously_dead --attacker-rep 4 --dice 6,6,6,4,5",
        "5.2",
        [6, 6, 6, 4, 5],
        ["out_of_the_fight"],
    ),
    (
        "star-power --rep 5 --damage obviously_dead --attacker-rep 5 --cheat-death --dice "
        "6,6,6,4,5",
        "5.2",
        [6, 6, 6, 4, 5],
        ["cheating_death"],
    ),
    # Fast Move: 5,2 vs Rep 4 → 1 passed (12"), vs Rep 5 → 2 passed (16").
    ("fast-move --rep 4 --rep 5 --dice 5,2", "7.4.2", [5, 2], ["move_12", "move_16"]),
    # In Sight: mover 2 successes beats 1 (the other, seeing concealed, rolls 3 dice).
    (
        "in-sight --mover-rep 4 --mover-dice 1,2,5,6 --other-rep 4 --other-sees-concealed "
        "--other-dice 1,4,6",
        "7.6.3",
        [1, 2, 5, 6, 1, 4, 6],
        ["acts", "reacts"],
    ),
    # Equal successes: the non-moving side wins.
    (
        "in-sight --mover-rep 3 --mover-dice 1,5,6 --other-rep 3 --other-dice 4,2,6",
        "7.6.3",
        [1, 5, 6, 4, 2, 6],
        ["reacts", "acts"],
    ),
    # Charge: charger 1 pass; target in Cover 3d6 2,3,6 → 2 passes: more → target fires.
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --target-in-cover --target-dice "
        "2,3,6",
        "7.11.2",
        [1, 5, 2, 3, 6],
        ["target_fires"],
    ),
    # Same passes → Rush Shot; from the flank the target rolls 1d6.
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --flank --target-dice 3",
        "7.11.2",
        [1, 5, 3],
        ["target_rush_shots"],
    ),
    # From the rear the target rolls no dice at all: passes 0 < 1 → charger moves in.
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --rear",
        "7.11.2",
        [1, 5],
        ["charger_moves_in"],
    ),
    # Two chargers, one target roll compared with each.
    (
        "charge --charger-rep 4 --charger-rep 3 --charger-dice 1,2 --charger-dice 4,5 "
        "--target-rep 4 --target-dice 1,6",
        "7.11.2",
        [1, 2, 4, 5, 1, 6],
        ["charger_moves_in", "target_fires"],
    ),
    # Melee: 2 successes vs 1, damage 3+1=4 ≥ Rep 4 → Out of the Fight.
    (
        "melee --rep 4 --dice 1,2,4,5 --vs-rep 4 --vs-dice 3,4,5,6 --damage-die 3",
        "7.11.5",
        [1, 2, 4, 5, 3, 4, 5, 6, 3],
        ["out_of_the_fight"],
    ),
    # A tie re-fights; then 3 vs 0, damage 3+3=6 → Obviously Dead.
    (
        "melee --rep 4 --dice 1,4,5,6 --dice 1,2,3,4 --vs-rep 4 --vs-dice 2,4,5,6 --vs-dice "
        "4,5,6,6 --damage-die 3",
        "7.11.5",
        [1, 4, 5, 6, 2, 4, 5, 6, 1, 2, 3, 4, 4, 5, 6, 6, 3],
        ["fight_again", "obviously_dead"],
    ),
    # Challenge: 1,2 vs 4 → success; 5,6 → failure; 1,6 then reroll 1,2 → success.
    ("challenge --rep 4 --dice 1,2", "7.14", [1, 2], ["success"]),
    ("challenge --rep 4 --dice 5,6", "7.14", [5, 6], ["failure"]),
    ("challenge --rep 4 --dice 1,6 --reroll-dice 1,2", "7.14", [1, 6, 1, 2], ["success"]),
    # The reroll passing 1 counts as 0: failure.
    ("challenge --rep 4 --dice 1,6,1,5", "7.14", [1, 6, 1, 5], ["failure"]),
    ("challenge --rep 4 --give-up --dice 1,6", "7.14", [1, 6], ["gave_up"]),
    # Very easy + tool: vs 6, but a 6 always fails.
    ("challenge --rep 4 --very-easy --helpful-tool --dice 6,6", "7.14", [6, 6], ["failure"]),
    # Recovery: pass 2 returns; pass 1 returns only if Out of the Fight.
    ("recovery --rep 4 --dice 1,2", "7.13", [1, 2], ["returns"]),
    ("recovery --rep 4 --dice 1,5", "7.13", [1, 5], ["returns"]),
    ("recovery --rep 4 --left-battlefield --dice 1,5", "7.13", [1, 5], ["does_not_return"]),
    (
        "recovery --rep 4 --rep 3 --dice 5,6,1,1",
        "7.13",
        [5, 6, 1, 1],
        ["does_not_return", "returns"],
    ),
    # Recruiting 6.1.1.
    ("recruit --band ganger --star-rep 5 --dice 6", "6.1.1", [6], ["recruit"]),
    # New Recruits 13.1: a 6 always fails.
    (
        "new-recruits --star-rep 5 --band-size 3 --dice 1,2",
        "13.1",
        [1, 2],
        ["recruit_to_full_strength"],
    ),
    ("new-recruits --star-rep 5 --band-size 3 --dice 1,6", "13.1", [1, 6], ["recruit_one"]),
    ("new-recruits --star-rep 6 --band-size 3 --dice 6,6", "13.1", [6, 6], ["no_recruits"]),
    # PEF Movement 11.2 vs Rep 4.
    ("pef-move --dice 1,2", "11.2", [1, 2], ["move_8"]),
    ("pef-move --dice 1,6", "11.2", [1, 6], ["move_4"]),
    ("pef-move --dice 5,6", "11.2", [5, 6], ["no_move"]),
    # PEF Resolution 11.3.
    ("pef-resolve --player-group-size 4 --dice 1,2 --size-die 5", "11.3", [1, 2, 5], ["contact"]),
    ("pef-resolve --player-group-size 4 --dice 1,6", "11.3", [1, 6], ["somethings_out_there"]),
    ("pef-resolve --player-group-size 4 --dice 5,6", "11.3", [5, 6], ["false_alarm"]),
    # Last PEF, no contact yet: false alarm counts as pass 2.
    ("pef-resolve --player-group-size 4 --last-pef --dice 5,6,1", "11.3", [5, 6, 1], ["contact"]),
    # 3d6 lowest two: 6,5,3 → 3,5 → one pass.
    (
        "pef-resolve --player-group-size 4 --lowest-two --dice 6,5,3",
        "11.3",
        [6, 5, 3],
        ["somethings_out_there"],
    ),
    # NP Force Movement 11.4.
    (
        "np-move --leader-rep 4 --outnumbers --dice 1,2 --flank-die 5",
        "11.4",
        [1, 2, 5],
        ["split_and_encircle"],
    ),
    ("np-move --leader-rep 4 --dice 1,2", "11.4", [1, 2], ["move_to_cover_to_fire"]),
    ("np-move --leader-rep 4 --dice 5,6", "11.4", [5, 6], ["remain_or_move_to_nearest_cover"]),
    # Grenades 7.10.1, 7.10.3.
    ("grenade-ready --rep 4 --dice 3", "7.10.1", [3], ["readied_throw_now"]),
    ("grenade-ready --rep 4 --band military --dice 5", "7.10.1", [5], ["readied_throw_later"]),
    ("grenade-throw --rep 4 --dice 1,2", "7.10.3", [1, 2], ["on_spot"]),
    ("grenade-throw --rep 4 --dice 1,6", "7.10.3", [1, 6], ["on_spot"]),
    ("grenade-throw --rep 4 --spot-out-of-sight --dice 1,6", "7.10.3", [1, 6], ["miss"]),
    ("grenade-throw --rep 4 --distance 6 --dice 5,6", "7.10.3", [5, 6], ["oops"]),
    # Blast: the exposed figure rolls damage; prone / Cover between escape.
    (
        "blast --figure rep=4 --figure rep=4,prone --figure rep=3,cover --dice 5",
        "7.10.5",
        [5],
        ["out_of_the_fight", "received_fire", "received_fire"],
    ),
    # Terrain 9.3.1 on an Urban table, sections 1-9.
    (
        "terrain --type urban --dice 1,2,3,4,5,6,1,2,3",
        "9.3.1",
        [1, 2, 3, 4, 5, 6, 1, 2, 3],
        ["clear", "clear", "clear", "clear", "hill", "woods", "clear", "clear", "clear"],
    ),
    # Without --type the 9.2 die comes first: 5 → wooded; section 2 rolls 6 → wooded hill.
    ("terrain --section 2 --dice 5,6", "9.3.1", [5, 6], ["wooded", "wooded_hill"]),
    # Buildings: urban 3 + 1/2d6 (1 → 1) = 4 buildings, then 4 Building Type dice.
    (
        "buildings --type urban --dice 1,1,3,5,6",
        "9.4.4",
        [1, 1, 3, 5, 6],
        ["buildings", "building", "building", "building", "building"],
    ),
    ("activation --dice 3,3,2,5", "7.1", [3, 3, 2, 5], ["enemy_activates_first"]),
    ("retrieve --rep 4 --dice 4", "7.12", [4], ["will_retrieve"]),
    ("rep-change --rep 4 --scored-hit --dice 5", "13.2/13.3", [5], ["rep_increase"]),
    ("rep-change --rep 4 --ended out-of-the-fight --dice 1", "13.2/13.3", [1], ["rep_decrease"]),
]


@pytest.mark.parametrize(
    ("argv", "section", "dice", "results"),
    JSON_CASES,
    ids=[f"{c[0].split()[0]}-{i}" for i, c in enumerate(JSON_CASES)],
)
def test_json_results(
    argv: str, section: str, dice: list[int], results: list[str], capsys: Capsys
) -> None:
    data = as_json(argv, capsys)
    assert data["section"] == section
    assert data["dice"] == dice
    assert codes(data) == results
    assert data["rolled_by"] == ("player" if dice else None)
    assert all("section" in r and "result" in r for r in data["results"])


# --------------------------------------------------------------------------
# The numbers behind the results


def test_reaction_numbers(capsys: Capsys) -> None:
    data = as_json(["reaction", "--test", "received-fire", "--rep", "4", "--dice", "2,5"], capsys)
    assert data["section"] == "7.7" and data["result"] == "rush_shot"
    (fig,) = data["results"]
    assert fig["passed"] == 1 and fig["rep"] == 4 and fig["section"] == "7.7"
    assert data["dice_by_flag"] == {"--dice": [2, 5]}
    assert data["rolls"][0]["table"] == "Reaction Tests"


def test_reaction_leader_die_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "reaction",
            "--test",
            "received-fire",
            "--rep",
            "4",
            "--leader-rep",
            "5",
            "--leader-die",
            "3",
            "--dice",
            "2,5",
        ],
        capsys,
    )
    assert data["leader_die"] == 3 and data["leader_passed"] is True
    assert data["results"][0]["passed"] == 2  # 1 + the Leader Die, capped at 2
    assert data["dice_by_flag"] == {"--dice": [2, 5], "--leader-die": [3]}


def test_fire_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "fire",
            "--rep",
            "4",
            "--weapon",
            "AR",
            "--target",
            "rep=4,name=Bob",
            "--target",
            "rep=4,cover",
            "--allocate",
            "2,1",
            "--dice",
            "6,3,1",
            "--damage-dice",
            "5",
        ],
        capsys,
    )
    bob, other = data["results"]
    assert bob["name"] == "Bob" and bob["hits"] == 1 and bob["received_fire"] is False
    assert [s["total"] for s in bob["results"]] == [10, 7]
    assert [s["result"] for s in bob["results"]] == ["hit", "miss"]
    assert bob["damage"][0]["result"] == "out_of_the_fight"
    assert other["name"] == "target 2" and other["received_fire"] is True
    assert other["results"][0]["total"] == 5
    assert data["out_of_ammo"] is False and data["allocation"] == [2, 1]


def test_fire_tight_ammo_and_shotgun(capsys: Capsys) -> None:
    data = as_json(
        [
            "fire",
            "--rep",
            "4",
            "--weapon",
            "SG",
            "--target",
            "rep=4",
            "--dice",
            "6,1,1,2,3,4",
            "--damage-dice",
            "6,5",
        ],
        capsys,
    )
    assert data["kept"] == [6, 4, 3] and data["ones"] == 2 and data["out_of_ammo"] is True
    assert [s["total"] for s in data["results"][0]["results"]] == [10, 8, 7]
    code, out, _ = run(
        [
            "fire",
            "--rep",
            "4",
            "--weapon",
            "SG",
            "--target",
            "rep=4",
            "--dice",
            "6,1,1,2,3,4",
            "--damage-dice",
            "6,5",
        ],
        capsys,
    )
    assert code == 0 and "Out of ammo: 2 ones rolled (7.9.2)." in out


def test_fire_pitiful_shot_and_rocket(capsys: Capsys) -> None:
    data = as_json(
        [
            "fire",
            "--rep",
            "3",
            "--weapon",
            "P",
            "--target",
            "rep=4,cover",
            "--dice",
            "6",
            "--pitiful-dice",
            "2",
            "--damage-dice",
            "4",
        ],
        capsys,
    )
    assert data["section"] == "7.9.10"
    shot = data["results"][0]["results"][0]
    assert shot["pitiful_die"] == 2 and shot["hit"] is True and shot["total"] == 9
    rl = as_json(["fire", "--rep", "4", "--weapon", "RL", "--dice", "3"], capsys)
    assert rl["result"] == "miss" and rl["out_of_ammo"] is True and rl["total"] == 7


def test_fast_move_numbers(capsys: Capsys) -> None:
    data = as_json(["fast-move", "--rep", "4", "--rep", "5", "--dice", "5,2"], capsys)
    assert [(r["passed"], r["distance"]) for r in data["results"]] == [(1, 12), (2, 16)]
    carry = as_json(["fast-move", "--rep", "5", "--carrying-wounded", "--dice", "1,1"], capsys)
    assert carry["results"][0]["distance"] == 12  # carriers pass at most 1d6 (7.12)


def test_in_sight_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "in-sight",
            "--mover-rep",
            "4",
            "--mover-dice",
            "1,2,5,6",
            "--other-rep",
            "4",
            "--other-sees-concealed",
            "--other-dice",
            "1,4,6",
        ],
        capsys,
    )
    assert data["result"] == "mover_acts" and data["order"] == ["mover"]
    assert [r["successes"] for r in data["results"]] == [2, 1]
    assert [r["dice"] for r in data["results"]] == [4, 3]


def test_charge_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "charge",
            "--charger-rep",
            "4",
            "--charger-dice",
            "1,5",
            "--target-rep",
            "4",
            "--target-in-cover",
            "--target-dice",
            "2,3,6",
        ],
        capsys,
    )
    (c,) = data["results"]
    assert c["passed"] == 1 and c["target_passed"] == 2 and data["target_dice"] == 3


def test_melee_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "melee",
            "--rep",
            "4",
            "--dice",
            "1,2,4,5",
            "--vs-rep",
            "4",
            "--vs-dice",
            "3,4,5,6",
            "--damage-die",
            "1",
            "--dice",
            "1,2,3,4",
            "--vs-dice",
            "4,5,6",
            "--damage-die",
            "6",
        ],
        capsys,
    )
    # Round 1: 2 vs 1, damage 1+1=2 < Rep 4 → -1 to Rep; round 2 the opponent rolls 3 dice.
    assert data["result"] == "obviously_dead" and data["winner"] == "fighter"
    first, second = data["results"]
    assert (first["a_successes"], first["b_successes"], first["score"]) == (2, 1, 2)
    assert first["damage"] == "minus_one_rep"
    assert second["b_rep"] == 3 and second["score"] == 9 and second["damage"] == "obviously_dead"
    assert data["rep_lost"] == {"fighter": 0, "opponent": 1}


def test_melee_weapons_and_prone_add_dice(capsys: Capsys) -> None:
    # Rep 4 + two-hand 2 + prone opponent 1 = 7 dice; the opponent Rep 3 one-hand = 4 dice.
    data = as_json(
        [
            "melee",
            "--rep",
            "4",
            "--weapon",
            "two-hand",
            "--vs-prone",
            "--dice",
            "1,4,4,4,4,4,4",
            "--vs-rep",
            "3",
            "--vs-weapon",
            "one_hand",
            "--vs-dice",
            "1,2,4,4",
            "--damage-die",
            "4",
        ],
        capsys,
    )
    # 1 vs 2: the opponent wins by 1, 4+1=5 ≥ Rep 4 → Out of the Fight.
    assert data["winner"] == "opponent" and data["result"] == "out_of_the_fight"


def test_star_power_numbers(capsys: Capsys) -> None:
    data = as_json(
        [
            "star-power",
            "--rep",
            "5",
            "--damage",
            "obviously-dead,out_of_the_fight",
            "--dice",
            "1,2,6,4,5",
        ],
        capsys,
    )
    assert data["reductions"] == 2 and data["lost"] == 1 and data["remaining"] == 4
    assert [r["before"] for r in data["results"]] == ["obviously_dead", "out_of_the_fight"]
    assert data["result"] == "out_of_the_fight"
    two = as_json(
        [
            "star-power",
            "--rep",
            "5",
            "--star-power",
            "2",
            "--damage",
            "out_of_the_fight",
            "--dice",
            "3,6",
        ],
        capsys,
    )
    assert two["result"] == "duck_back" and two["remaining"] == 1


def test_table_roll_values(capsys: Capsys) -> None:
    recruits = as_json(
        ["recruit", "--band", "military", "--star-rep", "4", "--dice", "6,1,5"], capsys
    )
    assert [r["value"] for r in recruits["results"]] == [4, 3, 4]  # capped at the Star's 4
    contact = as_json(["pef-resolve", "--player-group-size", "4", "--dice", "1,2,5"], capsys)
    assert contact["enemy_size"] == 6 and contact["size_die"] == 5  # 4 + 2 more
    small = as_json(["pef-resolve", "--player-group-size", "2", "--dice", "1,1,1"], capsys)
    assert small["enemy_size"] == 1  # never fewer than one
    np = as_json(["np-move", "--leader-rep", "4", "--outnumbers", "--dice", "1,2,5"], capsys)
    assert np["extra"] == [["flank", "right"]]
    full = as_json(["new-recruits", "--star-rep", "5", "--band-size", "3", "--dice", "1,2"], capsys)
    assert full["value"] == 2 and full["passed"] == 2
    moved = as_json(["pef-move", "--dice", "1,2"], capsys)
    assert moved["value"] == 8 and moved["passed"] == 2
    sections = as_json(["terrain", "--type", "urban", "--dice", "1,2,3,4,5,6,1,2,3"], capsys)
    assert [dict(r["extra"])["buildings"] for r in sections["results"]] == [
        False,
        False,
        True,
        True,
        True,
        False,
        False,
        False,
        True,
    ]


# --------------------------------------------------------------------------
# Plain output: one sentence per result, citing the section

PLAIN_CASES: list[tuple[str, list[str]]] = [
    (
        "reaction --test received-fire --rep 4 --dice 2,5",
        ["figure rolled 2,5 vs Rep 4: passed 1; Received Fire: Rush Shot (7.7)."],
    ),
    (
        "reaction --test received-fire --rep 4 --leader-rep 5 --leader-die 6 --dice 2,5",
        [
            "Leader Die 6 vs Rep 5: failed (6.3.2).",
            "figure rolled 2,5 vs Rep 4: passed 1; Received Fire: Rush Shot (7.7).",
        ],
    ),
    (
        "fire --rep 4 --weapon AR --target rep=4 --target rep=4,cover --allocate 2,1 --dice 6,3,1 "
        "--damage-dice 5",
        [
            "Rep 4 AR rolled 6,3,1 (7.9.10).",
            "target 1: 6+4=10: hit; 3+4=7: shooter missed. 1 hit. Damage 5: 5 ≥ Rep 4: Out of "
            "the Fight (7.9.11).",
            "target 2: 1+4=5: shooter missed. Missed: takes Received Fire (7.9.10).",
        ],
    ),
    ("damage --target-rep 4 --dice 5", ["Damage 5: 5 ≥ Rep 4: Out of the Fight (7.9.11)."]),
    (
        "star-power --rep 2 --damage obviously_dead --dice 1,6",
        [
            "Star Power rolled 1,6: 1 reduction, 1 die lost, 1 left; Obviously Dead → Out "
            "of the Fight (5.2)."
        ],
    ),
    (
        "fast-move --rep 4 --dice 5,2",
        ['figure passed 1 vs Rep 4: may move 12" and counts as Fast Moving (7.4.2).'],
    ),
    (
        "in-sight --mover-rep 1 --mover-dice 1 --other-rep 1 --other-dice 4",
        [
            "mover (moving) rolled 1 (1d6): 1 success; needs more than other 0: acts (7.6.3).",
            "other (not moving) rolled 4 (1d6): 0 successes; needs at least as many as mover 1: "
            "only reacts (7.6.3).",
            "Result: the mover acts; the other side only reacts (7.6.3).",
        ],
    ),
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --target-dice 6,6",
        [
            "The target rolled 6,6 (2d6) vs Rep 4: passed 0 (7.11.2).",
            "charger rolled 1,5 vs Rep 4: passed 1; target passed fewer: it may not fire; the "
            "charger moves into melee (7.11.2).",
        ],
    ),
    (
        "melee --rep 4 --dice 1,2,4,5 --vs-rep 4 --vs-dice 3,4,5,6 --damage-die 3",
        [
            "fighter (Rep 4) rolled 1,2,4,5: 2; opponent (Rep 4) rolled 3,4,5,6: 1: fighter wins "
            "by 1; damage 3+1=4 vs opponent's Rep 4: Out of the Fight (7.11.5).",
            "The fighter wins: the opponent is Out of the Fight (7.11.5).",
        ],
    ),
    ("challenge --rep 4 --dice 1,2", ["Challenger rolled 1,2 vs 4: passed 2: success (7.14)."]),
    (
        "recovery --rep 4 --dice 5,6",
        ["figure (went Out of the Fight) passed 0: does not return (7.13)."],
    ),
    (
        "recruit --band ganger --star-rep 5 --dice 6",
        ["Recruiting (ganger) rolled 6: Rep 5 (6.1.1)."],
    ),
    (
        "new-recruits --star-rep 5 --band-size 3 --dice 1,6",
        ["New Recruits rolled 1,6 vs Rep 5 (6 fails): passed 1: recruit one, 1 join (13.1)."],
    ),
    ("pef-move --dice 5,6", ["PEF rolled 5,6 vs Rep 4: does not move (11.2)."]),
    (
        "pef-resolve --player-group-size 4 --dice 5,6",
        ["PEF rolled 5,6 vs Rep 4: passed 0: False alarm (11.3)."],
    ),
    (
        "np-move --leader-rep 4 --dice 1,2",
        [
            "NP group (does not outnumber 2:1) passed 2: moves to Cover from which it can fire at "
            "the closest player group (11.4)."
        ],
    ),
    (
        "grenade-ready --rep 4 --dice 3",
        ["Figure rolled 3 vs Rep 4: readied; may be thrown immediately (7.10.1)."],
    ),
    (
        "grenade-throw --rep 4 --dice 5,6",
        ["Thrower passed 0: Oops! dropped at the thrower's feet: centre the blast on it (7.10.3)."],
    ),
    ("terrain --type mountain --section 1 --dice 1", ["Section 1 rolled 1: impassable (9.3.1)."]),
    (
        "blast --figure rep=4,prone,name=Al",
        ["Al escapes damage (prone) and takes Received Fire (7.10.6)."],
    ),
]


@pytest.mark.parametrize(
    ("argv", "lines"),
    PLAIN_CASES,
    ids=[f"{c[0].split()[0]}-{i}" for i, c in enumerate(PLAIN_CASES)],
)
def test_plain_output(argv: str, lines: list[str], capsys: Capsys) -> None:
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert out.splitlines() == lines


def test_space_separated_dice_equal_commas(capsys: Capsys) -> None:
    a = as_json(["fast-move", "--rep", "4", "--dice", "5", "2"], capsys)
    b = as_json(["fast-move", "--rep", "4", "--dice", "5,2"], capsys)
    assert a["dice"] == b["dice"] == [5, 2]


# --------------------------------------------------------------------------
# crdesk rolls when no dice are given, and the odds


@pytest.mark.parametrize(
    "argv",
    [
        ["reaction", "--test", "received-fire", "--rep", "4", "--leader-rep", "5"],
        ["fire", "--rep", "3", "--weapon", "SG", "--target", "rep=4,cover"],
        ["damage", "--target-rep", "4", "--hits", "2"],
        ["star-power", "--rep", "5", "--damage", "obviously_dead"],
        ["fast-move", "--rep", "4"],
        ["in-sight", "--mover-rep", "4", "--other-rep", "5"],
        ["charge", "--charger-rep", "4", "--target-rep", "4"],
        ["melee", "--rep", "4", "--vs-rep", "4"],
        ["challenge", "--rep", "4"],
        ["recovery", "--rep", "4"],
        ["recruit", "--band", "police", "--count", "3"],
        ["new-recruits", "--star-rep", "5", "--band-size", "1"],
        ["pef-move"],
        ["pef-resolve", "--player-group-size", "3"],
        ["np-move", "--leader-rep", "4", "--outnumbers"],
        ["grenade-ready", "--rep", "4"],
        ["grenade-throw", "--rep", "4"],
        ["terrain"],
        ["buildings", "--type", "clear"],
        ["activation"],
    ],
    ids=lambda a: a[0],
)
def test_crdesk_rolls_and_prints_the_faces(argv: list[str], capsys: Capsys) -> None:
    data = as_json([*argv, "--seed", "7"], capsys)
    assert data["rolled_by"] == "crdesk"
    assert data["dice"] and all(1 <= f <= 6 for f in data["dice"])
    assert sum(len(v) for v in data["dice_by_flag"].values()) == len(data["dice"])
    # The printed faces, typed back in, give the same result.
    again: list[str] = []
    for flag, faces in data["dice_by_flag"].items():
        again += [flag, ",".join(map(str, faces))]
    replay = as_json([*argv, *again], capsys)
    assert replay["results"] == data["results"]
    code, out, _ = run([*argv, "--seed", "7"], capsys)
    assert code == 0 and out.startswith("crdesk rolled: --")


def test_unseeded_roll(capsys: Capsys) -> None:
    code, out, _ = run(["reaction", "--test", "man-down", "--rep", "4"], capsys)
    assert code == 0 and out.startswith("crdesk rolled: --dice ")


@pytest.mark.parametrize(
    ("argv", "section", "words"),
    [
        (
            ["reaction", "--test", "received-fire", "--rep", "4", "--dice", "2,5"],
            "7.7",
            "Return Fire 44%, Rush Shot 44%, Duck Back 11%",
        ),
        (
            ["fire", "--rep", "4", "--weapon", "P", "--target", "rep=4", "--dice", "2"],
            "7.9.10",
            "target: 50% to hit, 17% Out of the Fight, 8% Obviously Dead",
        ),
        (
            [
                "in-sight",
                "--mover-rep",
                "1",
                "--mover-dice",
                "1",
                "--other-rep",
                "1",
                "--other-dice",
                "1",
            ],
            "7.6.3",
            "the mover acts 25%, the other side acts 75%",
        ),
        (
            [
                "charge",
                "--charger-rep",
                "4",
                "--charger-dice",
                "1,5",
                "--target-rep",
                "4",
                "--target-dice",
                "6,6",
            ],
            "7.11.2",
            "charger moves into melee",
        ),
        (
            [
                "melee",
                "--rep",
                "1",
                "--dice",
                "1",
                "--vs-rep",
                "1",
                "--vs-dice",
                "4",
                "--damage-die",
                "6",
            ],
            "7.11.4",
            "fighter wins 50%, opponent wins 50%",
        ),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else "",
)
def test_odds(argv: list[str], section: str, words: str, capsys: Capsys) -> None:
    code, out, err = run([*argv, "--odds"], capsys)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("Odds: ") and words in first
    data = as_json([*argv, "--odds"], capsys)
    assert data["odds"]["section"] == section


def test_odds_for_fire_in_json(capsys: Capsys) -> None:
    data = as_json(
        ["fire", "--rep", "4", "--weapon", "P", "--target", "rep=4", "--dice", "2", "--odds"],
        capsys,
    )
    target = data["odds"]["targets"][0]
    assert target["hit"] == pytest.approx(0.5)  # 4, 5, 6 + Rep 4 ≥ 8 in the open
    assert target["obviously_dead"] == pytest.approx(1 / 12)


# --------------------------------------------------------------------------
# Bad input: one line naming the flag, exit 2


BAD_CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("reaction --test received-fire --rep 4 --dice 2,7", "--dice", ("7 is not a die face (1-6)",)),
    ("reaction --test received-fire --rep 4 --dice 0,2", "--dice", ("0 is not a die face",)),
    ("reaction --test received-fire --rep 4 --dice 2,x", "--dice", ("'x' is not a die face",)),
    ("reaction --test received-fire --rep 4 --dice 2", "--dice", ("needs 2 d6 but 1 was given",)),
    (
        "reaction --test received-fire --rep 4 --dice 2,3,4",
        "--dice",
        ("3 dice given but only 2 were needed",),
    ),
    ("reaction --rep 4 --dice 2,3", "the following arguments are required", ("--test",)),
    ("reaction --test duck --rep 4 --dice 2,3", "--test", ("invalid choice",)),
    ("reaction --test received-fire --rep 21 --dice 2,3", "--rep", ("1-20",)),
    (
        "reaction --test received-fire --rep 4 --leader-die 3 --dice 2,3",
        "--leader-die",
        ("--leader-rep",),
    ),
    (
        "reaction --test man-down --rep 4 --leader-rep 5 --leader-die 2 --dice 2,3",
        "--leader-die",
        ("none was needed",),
    ),
    ("reaction --test received-fire --rep 5 --free-will 1", "--free-will", ("--star",)),
    (
        "reaction --test received-fire --rep 5 --star --free-will 1 --dice 1,2",
        "--dice",
        ("none was needed",),
    ),
    (
        "reaction --test received-fire --rep 4 --dice 2,3 --bogus",
        "unrecognized arguments",
        ("--bogus",),
    ),
    ("reaction --test received-fire --rep 4 --dice 2,3 --seed 1", "--seed", ()),
    ("fire --rep 4 --weapon XX --target rep=4 --dice 1,2,3", "--weapon", ("invalid choice",)),
    ("fire --rep 4 --weapon AR --target rep=4,bogus --dice 1,2,3", "--target", ("bogus",)),
    ("fire --rep 4 --weapon AR --target cover --dice 1,2,3", "--target", ("rep=N",)),
    ("fire --rep 4 --weapon AR --dice 1,2,3", "--target", ()),
    ("fire --rep 4 --weapon P --target rep=4 --target rep=4 --dice 1", "--target", ("at most 1",)),
    (
        "fire --rep 4 --weapon AR --target rep=4 --target rep=4 --allocate 1,1 --dice 1,2,3",
        "--allocate",
        ("3 dice in all",),
    ),
    ("fire --rep 4 --weapon AR --target rep=4 --allocate x --dice 1,2,3", "--allocate", ()),
    (
        "fire --rep 4 --weapon AR --target rep=4 --dice 6,2,3 --damage-dice 1,2",
        "--damage-dice",
        ("only 1 was needed",),
    ),
    (
        "fire --rep 4 --weapon AR --target rep=4 --dice 6,2",
        "--dice",
        ("needs 3 d6 but 2 were given",),
    ),
    ("fire --rep 4 --weapon RL --target rep=4 --target rep=4 --dice 6", "--target", ("one spot",)),
    ("damage --target-rep 4 --dice 7", "--dice", ("7 is not a die face",)),
    ("damage --target-rep 4 --old-school --dice 3", "--weapon", ("Impact",)),
    ("damage --dice 3", "the following arguments are required", ("--target-rep",)),
    ("star-power --rep 5 --damage bogus --dice 1,2,3,4,5", "--damage", ("not a damage result",)),
    ("star-power --rep 5 --damage minus_one_rep --dice 1,2,3,4,5", "--damage", ("-1 to Rep",)),
    (
        "star-power --rep 5 --damage obviously_dead --dice 1,2,3,4",
        "--dice",
        ("needs 5 d6 but 4 were given",),
    ),
    ("fast-move --rep 4 --dice 5", "--dice", ("needs 2 d6",)),
    ("fast-move --rep 4 --dice 5,2,3", "--dice", ("left over",)),
    ("fast-move --dice 5,2", "the following arguments are required", ("--rep",)),
    (
        "in-sight --mover-rep 4 --mover-dice 1,2,3,4 --other-rep 4 --other-dice 1,2,3",
        "--other-dice",
        ("needs 4 d6 but 3 were given",),
    ),
    (
        "in-sight --mover-rep 4 --mover-dice 1,2,3,9 --other-rep 4 --other-dice 1,2,3,4",
        "--mover-dice",
        ("9 is not a die face",),
    ),
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --flank --rear",
        "--rear",
        ("not allowed with",),
    ),
    (
        "charge --charger-rep 4 --charger-rep 4 --charger-rep 4 --charger-rep 4 --target-rep 4",
        "--charger-rep",
        ("at most 3",),
    ),
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4 --rear --target-dice 1,2",
        "--target-dice",
        ("none was needed",),
    ),
    ("melee --rep 4 --weapon sword --dice 1,2,4,5 --vs-rep 4", "--weapon", ("invalid choice",)),
    (
        "melee --rep 4 --dice 1,2,4,5 --vs-dice 1,2,5,6",
        "the following arguments are required",
        ("--vs-rep",),
    ),
    ("challenge --rep 4 --very-easy --very-difficult --dice 1,2", "--very-difficult", ()),
    ("recovery --dice 1,2", "the following arguments are required", ("--rep",)),
    ("recovery --rep 4 --dice 1,2,3", "--dice", ("left over",)),
    ("recruit --band pirates --dice 6", "--band", ("invalid choice",)),
    ("recruit --band ganger --dice 6,8", "--dice", ("8 is not a die face",)),
    (
        "new-recruits --star-rep 5 --dice 1,2",
        "the following arguments are required",
        ("--band-size",),
    ),
    ("pef-move --dice 1", "--dice", ("needs 2 d6",)),
    ("pef-resolve --player-group-size 0 --dice 1,2", "--player-group-size", ()),
    ("grenade-ready --rep 4 --band police --dice 3", "--band", ("no grenades",)),
    ("grenade-ready --rep 4 --dice 3,4", "--dice", ("left over",)),
    ("grenade-throw --rep 4 --distance 7 --dice 1,2", "--distance", ('up to 6"',)),
    ("blast --figure rep=4 --dice 1,2", "--dice", ("left over",)),
    ("terrain --type swamp --dice 1", "--type", ("invalid choice",)),
    ("terrain --section 10 --dice 1,2", "--section", ("1-9",)),
    ("bogus", "resolve", ("invalid choice",)),
    ("", "resolve", ("crdesk resolve reaction --help",)),
]


@pytest.mark.parametrize(
    ("argv", "flag", "words"),
    BAD_CASES,
    ids=[f"{(c[0] or 'none').split()[0]}-{i}" for i, c in enumerate(BAD_CASES)],
)
def test_bad_input(argv: str, flag: str, words: tuple[str, ...], capsys: Capsys) -> None:
    bad(argv, capsys, flag, *words)


def test_bad_input_with_json_is_still_one_line(capsys: Capsys) -> None:
    bad(["fast-move", "--rep", "4", "--dice", "5", "--json"], capsys, "--dice", "needs 2 d6")


# --------------------------------------------------------------------------
# Through the real `crdesk` entry point


def test_through_crdesk_main(monkeypatch: pytest.MonkeyPatch, capsys: Capsys) -> None:
    monkeypatch.setattr(cli, "_extensions", lambda: [resolve_cli.register])
    argv = ["resolve", "reaction", "--test", "received-fire", "--rep", "4", "--dice", "2,5"]
    assert cli.main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["section"] == "7.7" and data["dice"] == [2, 5]
    assert codes(data) == ["rush_shot"] and data["results"][0]["passed"] == 1
    assert cli.main([*argv[:-1], "2,7"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --dice: 7 is not a die face (1-6)\n"
    assert cli.main(["resolve", "reaction", "--rep", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--test" in err
    assert cli.main(["resolve"]) == 2
    assert capsys.readouterr().err.startswith("error: resolve:")


def test_help_lists_every_subcommand(capsys: Capsys) -> None:
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    for name in (
        "reaction",
        "fire",
        "damage",
        "star-power",
        "fast-move",
        "in-sight",
        "charge",
        "melee",
        "challenge",
        "recovery",
        "recruit",
        "new-recruits",
        "pef-move",
        "pef-resolve",
        "np-move",
        "grenade-ready",
        "grenade-throw",
        "terrain",
    ):
        assert name in out


def test_plain_output_survives_a_narrow_console(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252", newline="\n")
    monkeypatch.setattr(sys, "stdout", stream)
    resolve_engine.say("Damage 5: 5 ≥ Rep 4 → Out of the Fight (7.9.11).")
    stream.flush()
    assert raw.getvalue() == b"Damage 5: 5 >= Rep 4 -> Out of the Fight (7.9.11).\n"


def test_fire_json_lists_out_of_ammo_as_a_result(capsys: Capsys) -> None:
    argv = "fire --rep 4 --weapon AR --target rep=4 --dice 1,1,5 --damage-dice 6"
    data = as_json(argv.split(), capsys)
    assert [r["result"] for r in data["results"]] == ["obviously_dead", "out_of_ammo"]
    assert data["results"][-1] == {"section": "7.9.2", "result": "out_of_ammo", "ones": 2}
