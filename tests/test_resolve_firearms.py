"""``crdesk resolve fire`` under Firearms Detail (issue 14, Deliver 3): the card's modes,
aimed and walked Full Auto, bursts, buckshot, supported fire, with scripted dice; options
that do not fit the weapon's card are refused before any die is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_resolve_cli import Capsys, as_json, bad, run

FA_15 = (
    "fire --rep 4 --weapon AR --mode FA --range 15 --target rep=4,name=Knuckles "
    "--near rep=4,at=1.5,name=Lind --near rep=4,at=3,name=Far"
)


def _by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in data["results"] if "name" in r}


def test_full_auto_at_15_inches_spreads_onto_a_friend_and_spends_ten_rounds(
    capsys: Capsys,
) -> None:
    # sorted 6,6,6,6 | 6,5,1,1,1,1: the primary's four dice at 0,0,-1,-1 steps all hit
    # (10,10,9,9); die 5 at -2 is 8 on Lind, 1.5" away (the spread at 15" is 2"); Far,
    # 3" away, is outside it; the other five dice hit nobody
    data = as_json(f"{FA_15} --dice 1,6,1,6,6,5,1,6,1,6 --damage-dice 6,1,1,1,1", capsys)
    figures = _by_name(data)
    assert set(figures) == {"Knuckles", "Lind"}
    knuckles, lind = figures["Knuckles"], figures["Lind"]
    assert (knuckles["role"], knuckles["hits"], knuckles["status"]) == (
        "primary",
        4,
        "obviously_dead",
    )
    assert [s["net_steps"] for s in knuckles["results"]] == [0, 0, -1, -1]
    assert (lind["role"], lind["hits"], lind["status"]) == ("spread", 1, "duck_back")
    assert lind["received_fire"] is True and knuckles["received_fire"] is False
    ammo = data["results"][-1]
    assert (ammo["spent"], ammo["after"]["rounds"]) == (10, 20)
    assert len(data["unused"]) == 5
    code, out, _ = run(f"{FA_15} --dice 1,6,1,6,6,5,1,6,1,6 --damage-dice 6,1,1,1,1", capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Rep 4 Assault Rifle (AR), Full Auto: rolled 1,6,1,6,6,5,1,6,1,6 (FD §5)."
    assert 'Range 15": spread 2", 4 dice on the primary, 6 on others (FD §5).' in lines
    assert "Received Fire (7.7): Lind." in lines
    assert lines[-1] == "Full Auto spent 10 rounds: 20 left (FD §3)."


def test_walking_sacrifices_pairs_before_rolling_and_aiming_refuses_a_moved_shooter(
    capsys: Capsys,
) -> None:
    walk = f"{FA_15} --walk 2"
    bad(f"{walk} --dice 1,1,1,1,1,1,1,1,1,1", capsys, "--dice", "only 6")
    data = as_json(f"{walk} --dice 3,3,3,3,1,1 --damage-dice 1,1,1,1", capsys)
    prim = _by_name(data)["Knuckles"]
    # 3 + 4 + the pair's 0/0/-1/-1 + 2 (walking 2 pairs): 9, 9, 8, 8, all hits
    assert [d["net_steps"] for d in prim["results"]] == [2, 2, 1, 1]
    assert prim["hits"] == 4
    assert sum(1 for d in data["unused"] if d["reason"] == "sacrificed to walk the target") == 4
    bad(f"{FA_15} --aim --moved", capsys, "", "only a figure that does not move may aim")
    bad(f"{FA_15} --aim --walk 1", capsys, "", "aiming is not allowed with walking fire")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ("--weapon P --mode FA", "Pistol has no Full Auto mode (it has Semi) (FD §2)"),
        ("--weapon AR --mode 2RB", "has no 2-round burst mode"),
        ("--weapon P --aim", "aiming is for Full Auto (FD §5.1), not Semi"),
        ("--weapon AR --mode 3RB --walk 1", "walking the target is for Full Auto"),
        ("--weapon AR --mode semi --rounds 0", "Assault Rifle is empty: reload it first (FD §3)"),
        ("--weapon AR --mode FA --range 5 --rounds 9", "holds 9 rounds; Full Auto"),
    ],
)
def test_options_that_do_not_fit_the_card_are_refused(
    argv: str, words: str, capsys: Capsys
) -> None:
    bad(f"fire --rep 4 {argv} --target rep=4 --dice 6", capsys, "", words)


@pytest.mark.parametrize(
    ("argv", "flag", "words"),
    [
        ("--weapon AR --ammo buckshot", "--ammo", "buckshot is for shotguns (SG)"),
        ("--weapon AR --mode FA", "--range", "the Full Auto spread"),
        ("--weapon SG --firearms-detail", "--range", "buckshot's band"),
        ("--weapon AR --mode semi --rounds 31", "--rounds", "at most 30 rounds"),
        ("--weapon AR --card 'Glock 17'", "--card", "needs --scenario"),
        ("--weapon RL --mode single", "--weapon", "blast weapon"),
        ("--weapon AR --mode semi --near rep=4", "--near", "needs at=INCHES"),
        ("--weapon AR --mode semi --near rep=4,at=1,of=2", "--near", "only 1 target"),
    ],
)
def test_flags_that_do_not_fit_are_refused_naming_the_flag(
    argv: str, flag: str, words: str, capsys: Capsys
) -> None:
    bad(f"fire --rep 4 {argv} --target rep=4 --dice 6", capsys, flag, words)


def test_a_burst_that_misses_rolls_again_on_the_nearest_figure(capsys: Capsys) -> None:
    # 1 + 4 + 3 (burst) = 8 misses A in Cover; B at 0.5" is nearer than C: 4 + 4 = 8 hits
    argv = (
        "fire --rep 4 --weapon AR --mode 3RB --target rep=4,cover,name=A "
        "--near rep=4,at=0.9,name=C --near rep=4,at=0.5,name=B --dice 1 --miss-dice 4 "
        "--damage-dice 2"
    )
    data = as_json(argv, capsys)
    figures = _by_name(data)
    assert figures["A"]["hits"] == 0 and figures["A"]["results"][0]["net_steps"] == 3
    assert (figures["B"]["role"], figures["B"]["hits"], figures["B"]["status"]) == (
        "burst_miss",
        1,
        "duck_back",
    )
    assert "C" not in figures
    assert data["dice_by_flag"] == {"--dice": [1], "--miss-dice": [4], "--damage-dice": [2]}
    assert data["results"][-1]["spent"] == 3


def test_buckshot_at_5_inches_hits_two_figures(capsys: Capsys) -> None:
    argv = (
        "fire --rep 4 --weapon SG --range 5 --target rep=4,name=A --near rep=4,at=0.8,name=B "
        "--near rep=4,at=3,name=Far --dice 6,3 --damage-dice 5,1"
    )
    data = as_json(argv, capsys)
    figures = _by_name(data)
    assert set(figures) == {"A", "B"}  # 2.5"-7.5": two figures, the second within 1"
    assert figures["A"]["results"][0]["total"] == 6 + 4 + 1  # +1 step in this band
    assert figures["B"]["results"][0]["total"] == 3 + 4 + 1
    assert (figures["A"]["status"], figures["B"]["status"]) == ("out_of_the_fight", "duck_back")
    assert data["band"]["figures"] == 2


def test_supported_fire_and_the_odds_per_die(capsys: Capsys) -> None:
    # braced: +1 step, so a Rep 4 Pistol hits an open Rep 4 on 3+ (total 8): 4 in 6
    data = as_json("fire --rep 4 --weapon P --supported braced --target rep=4 --odds", capsys)
    (die,) = data["odds"]["dice"]
    assert die["hit"] == pytest.approx(2 / 3, abs=1e-12)
    assert die["net_steps"] == 1
    code, out, _ = run(
        "fire --rep 4 --weapon P --supported tripod --target rep=4 --odds --dice 1 --damage-dice 1",
        capsys,
    )
    assert code == 0
    assert out.startswith("Odds: Die 1 on target (supported (tripod) +3 (FD §7)): 100.0% to hit.")
    bad("fire --rep 4 --weapon P --supported bipod --moved --target rep=4 --odds", capsys, "")


def test_full_auto_odds_come_with_the_spread(capsys: Capsys) -> None:
    data = as_json(f"{FA_15} --odds --dice 1,6,1,6,6,5,1,6,1,6 --damage-dice 6,1,1,1,1", capsys)
    odds = {f["name"]: f for f in data["odds"]["figures"]}
    assert set(odds) == {"Knuckles", "Lind"}
    assert [d["target"] for d in data["odds"]["dice"]][:5] == ["Knuckles"] * 4 + ["Lind"]
    assert odds["Knuckles"]["hit"] > odds["Lind"]["hit"] > 0


def test_keep_tight_ammo_jams_on_two_ones(capsys: Capsys) -> None:
    data = as_json(
        "fire --rep 4 --weapon AR --mode semi --keep-tight-ammo --target rep=4 "
        "--dice 1,1,6 --damage-dice 1",
        capsys,
    )
    ammo = data["results"][-1]
    assert ammo["result"] == "jammed" and ammo["after"]["rounds"] == 0


def test_a_user_weapon_from_a_scenario_file_with_knockdown(capsys: Capsys, tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[1] / "resources" / "scenarios" / "demo-urban.crdesk"
    doc = json.loads(demo.read_text(encoding="utf-8"))
    doc["weapons"] = [
        {"name": "Desert Eagle", "category": "P", "magazine": 7, "knockdown": 3},
    ]
    path = tmp_path / "armoury.crdesk"
    path.write_text(json.dumps(doc), encoding="utf-8")
    base = f"fire --rep 4 --card 'Desert Eagle' --scenario {path} --target rep=4,name=A"
    # 6 + 4 = 10 hits; damage 2 vs Rep 4: Duck Back; knockdown 3 <= 3: knocked prone
    data = as_json(f"{base} --dice 6 --damage-dice 2 --knockdown-dice 3", capsys)
    a = _by_name(data)["A"]
    assert a["status"] == "duck_back"
    assert a["knockdown"]["knocked_down"] is True
    assert data["results"][-1]["after"]["rounds"] == 6
    bad(f"{base} --weapon AR --dice 6", capsys, "--weapon", "Desert Eagle counts as P, not AR")
    bad(
        f"fire --rep 4 --card Glock --scenario {path} --target rep=4",
        capsys,
        "--card",
        "Desert Eagle",
    )
