"""Paired comparisons (issue 32): the statistics against a hand-computed case, the
settings of ``--compare``, and the command on a few small games."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from crdesk.cli import main
from crdesk.compare import (
    Setting,
    compare,
    games_to_settle,
    paired_difference,
    parse_pair,
    parse_setting,
)
from crdesk.resources import resource_root
from crdesk.simulate import (
    DRAW,
    ENEMY,
    PLAYER,
    GameResult,
    Setup,
    _scenario_for,
    default_band,
    game_seed,
    run_batch,
    summarize,
)

Capsys = pytest.CaptureFixture[str]

# t(0.975, df) from a printed table of Student's t
T975 = {4: 2.7764, 8: 2.3060, 9: 2.2622}


# -- the statistics, by hand --------------------------------------------------


def test_the_paired_interval_is_the_hand_computed_one() -> None:
    # wins under A and B in five paired games: differences 1, 0, 0, 1, 0
    a = [0.0, 0.0, 1.0, 0.0, 1.0]
    b = [1.0, 0.0, 1.0, 1.0, 1.0]
    d = paired_difference(a, b)
    # mean 2/5; sd: sqrt((2 * 0.6^2 + 3 * 0.4^2) / 4) = sqrt(0.3)
    sd = math.sqrt(0.3)
    assert d.games == 5 and d.mean == pytest.approx(0.4)
    assert (d.mean_a, d.mean_b) == (pytest.approx(0.4), pytest.approx(0.8))
    assert d.sd == pytest.approx(sd)
    half = T975[4] * sd / math.sqrt(5)  # 0.6801
    assert d.ci95 is not None
    assert d.ci95[0] == pytest.approx(0.4 - half, abs=1e-4)
    assert d.ci95[1] == pytest.approx(0.4 + half, abs=1e-4)
    assert not d.settled
    # settled at n when t(n - 1) * sd / sqrt(n) < 0.4: n = 9 gives 0.4217, n = 10 0.3918
    assert T975[8] * sd / 3 > 0.4 > T975[9] * sd / math.sqrt(10)
    assert d.needed == 10 and d.more == 5
    assert games_to_settle(0.4, sd) == 10


def test_a_clear_difference_is_settled_and_none_is_never() -> None:
    d = paired_difference([0.0] * 30, [1.0] * 25 + [0.0] * 5)
    assert d.settled and d.more == 0 and d.ci95 is not None and d.ci95[0] > 0
    same = paired_difference([1.0, 0.0, 2.0], [1.0, 0.0, 2.0])
    assert same.ci95 == (0.0, 0.0) and not same.settled and same.needed is None
    # differences that cancel out: no difference seen, nothing to settle
    even = paired_difference([0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0])
    assert even.mean == 0 and not even.settled and even.needed is None
    # a rate's interval stays within what a difference of rates can be
    two = paired_difference([0.0, 1.0], [1.0, 1.0], bounds=(-1.0, 1.0))
    assert two.ci95 is not None and two.ci95[0] >= -1.0 and two.ci95[1] <= 1.0
    assert paired_difference([1.0], [0.0]).ci95 is None  # one game: no spread to judge


def test_compare_pairs_the_games_by_index_and_leaves_out_failures() -> None:
    def row(i: int, winner: str, lost: int = 0, **kw: Any) -> GameResult:
        losses = {PLAYER: {"obviously_dead": lost}, ENEMY: {}}
        return GameResult(i, 100 + i, winner=winner, turns=4, losses=losses, **kw)

    a = [row(0, ENEMY, 2), row(1, DRAW), row(2, PLAYER), row(3, ENEMY, 1)]
    b = [row(0, PLAYER), row(1, DRAW), row(2, PLAYER), GameResult(3, 103, error="boom")]
    out = compare(a, b)
    assert out["games"] == 3 and out["dropped"] == 1 and out["differ"] == 1
    win = out["measures"]["player_win"]
    assert (win["a"], win["b"], win["difference"]) == (round(1 / 3, 4), round(2 / 3, 4), 0.3333)
    assert out["measures"]["player_casualties"]["difference"] == round(-2 / 3, 4)
    assert out["measures"]["turns"]["difference"] == 0.0


# -- the settings ---------------------------------------------------------------


def test_settings_change_one_thing_of_the_batch() -> None:
    base = Setup(terrain="clear", band=default_band())
    assert parse_setting("enemy=Plain").apply(base).enemy == "plain"
    assert parse_setting("player=random").apply(base).player == "random"
    police = parse_setting("band=police").apply(base)
    assert police.band_type == "police" and police.band == default_band("police")
    rule = parse_setting("charge_missed_charger_tests=true")
    assert rule == Setting("charge_missed_charger_tests", True, "charge_missed_charger_tests=true")
    ruled = rule.apply(base)
    assert ruled.rules == (("charge_missed_charger_tests", True),)
    # the option reaches every game's scenario
    scenario = _scenario_for(ruled, game_seed(1, 0))
    assert scenario.rules.interpretations.charge_missed_charger_tests is True
    night = parse_setting("night=yes").apply(ruled)
    assert dict(night.rules) == {"charge_missed_charger_tests": True, "night": True}
    assert parse_setting("flank_half_angle=60").text == "flank_half_angle=60"
    assert parse_setting("scale=15mm").value == "15mm"


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        ("enemy=solo", "player=book", "compare two settings of one KEY"),
        ("enemy=solo", "enemy=solo", "twice"),
        ("enemy=clever", "enemy=solo", "solo, plain, random"),
        ("enemy", "enemy=solo", "KEY=VALUE"),
        ("luck=1", "luck=2", "no setting 'luck'"),
        ("night=maybe", "night=true", "true or false"),
        ("flank_half_angle=wide", "flank_half_angle=60", "a number"),
        ("band=pirates", "band=police", "band type"),
    ],
)
def test_bad_pairs_say_what_is_wrong(a: str, b: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_pair(a, b)


# -- the command ------------------------------------------------------------------

SMALL = ["--generate", "clear", "--size", "24x24", "--games", "2", "--seed", "5"]
SMALL += ["--max-turns", "2"]


def test_compare_plays_the_same_games_under_both_settings(capsys: Capsys) -> None:
    argv = ["simulate", *SMALL, "--compare", "enemy=solo", "enemy=random", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["compare"] == {"key": "enemy", "a": "enemy=solo", "b": "enemy=random"}
    assert data["a"]["setup"]["enemy"] == "solo" and data["b"]["setup"]["enemy"] == "random"
    assert [g["seed"] for g in data["results"]] == [game_seed(5, i) for i in range(2)]
    paired = data["paired"]
    assert paired["games"] == 2 and "scipy.stats.t" in paired["method"]
    assert set(paired["measures"]) == {
        "player_win",
        "enemy_win",
        "draw",
        "player_casualties",
        "enemy_casualties",
        "turns",
    }
    # each side is the batch a plain run of that setting plays
    setup = Setup(terrain="clear", size=(24.0, 24.0), band=default_band(), max_turns=2)
    alone = json.loads(json.dumps(summarize(run_batch(setup, 2, 5))))
    assert {k: data["a"][k] for k in alone} == alone
    win = paired["measures"]["player_win"]
    assert win["a"] == alone["win_rates"]["player"]["rate"]


def test_compare_prints_the_differences(capsys: Capsys) -> None:
    argv = ["simulate", *SMALL, "--compare", "night=false", "night=true"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 paired games, seed 5: patrol on generated clear")
    assert lines[1:3] == ["  A: night=false", "  B: night=true"]
    table = next(i for i, line in enumerate(lines) if line.startswith("B - A over 2"))
    assert "95%" in lines[table] and "scipy.stats.t" in lines[table]
    rows = [line.strip() for line in lines[table + 2 : table + 8]]
    words = ("player win rate", "enemy win rate", "draws")
    words += ("player casualties", "enemy casualties", "turns")
    assert [row.startswith(w) for row, w in zip(rows, words, strict=True)] == [True] * 6
    assert all(" pts " in row for row in rows[:3])  # rates differ in points
    assert lines[-1].startswith("2 games under each setting in ")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--compare", "enemy=solo", "player=book"], "--compare: compare two settings"),
        (["--enemy", "plain", "--compare", "enemy=solo", "enemy=random"], "--enemy and"),
        (["--compare", "enemy=solo"], "expected 2 arguments"),
    ],
)
def test_bad_compare_arguments_are_one_line_errors(
    extra: list[str], words: str, capsys: Capsys
) -> None:
    assert main(["simulate", *SMALL, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and len(err.splitlines()) == 1


# -- two Bands' files, two scenarios, two kinds of table (Deliver 2) ------------------

DEMOS = [str(p) for p in sorted(resource_root().joinpath("scenarios").glob("demo-*.crdesk"))]


def new_band(capsys: Capsys, path: Path, name: str, kind: str) -> None:
    assert main(["band", "new", name, "--type", kind, "--seed", "3", "-o", str(path)]) == 0
    capsys.readouterr()


def test_two_band_files_are_compared_on_the_same_games(tmp_path: Path, capsys: Capsys) -> None:
    new_band(capsys, tmp_path / "a.crband", "Rock's Raiders", "military")
    new_band(capsys, tmp_path / "b.crband", "Blue Line", "police")
    a, b = f"band={tmp_path / 'a.crband'}", f"band={tmp_path / 'b.crband'}"
    assert main(["simulate", *SMALL, "--compare", a, b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["setup"]["band"]["name"] == "Rock's Raiders"
    assert data["b"]["setup"]["band"]["name"] == "Blue Line"
    assert data["b"]["setup"]["band"]["type"] == "police"
    assert [g["seed"] for g in data["results"]] == [game_seed(5, i) for i in range(2)]


def test_two_scenarios_are_compared_on_the_same_seeds(capsys: Capsys) -> None:
    argv = ["simulate", "--games", "2", "--seed", "5", "--max-turns", "1", "--compare"]
    assert main([*argv, f"scenario={DEMOS[0]}", f"scenario={DEMOS[1]}", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["setup"]["table"] == DEMOS[0] and data["b"]["setup"]["table"] == DEMOS[1]
    assert data["paired"]["games"] == 2


def test_two_kinds_of_generated_table_are_compared(capsys: Capsys) -> None:
    argv = ["simulate", "--size", "24x24", "--games", "2", "--seed", "5", "--max-turns", "1"]
    assert main([*argv, "--compare", "terrain=clear", "terrain=wooded", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["setup"]["table"] == 'generated clear, 24"x24"'
    assert data["b"]["setup"]["table"] == 'generated wooded, 24"x24"'


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--generate", "clear", "--compare", "terrain=clear", "terrain=urban"], "give no"),
        ([DEMOS[0], "--compare", f"scenario={DEMOS[0]}", f"scenario={DEMOS[1]}"], "give no"),
        (["--compare", "scenario=nowhere.crdesk", f"scenario={DEMOS[1]}"], "nowhere.crdesk"),
        (["--generate", "clear", "--compare", "band=gone.crband", "band=police"], "gone.crband"),
        (["--compare", "terrain=lunar", "terrain=clear"], "terrain is one of"),
        (["--generate", "clear", "--compare", "band=raiders.txt", "band=police"], ".crband"),
    ],
)
def test_bad_table_and_band_settings_are_one_line_errors(
    argv: list[str], words: str, capsys: Capsys
) -> None:
    assert main(["simulate", "--games", "1", "--seed", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and len(err.splitlines()) == 1, err
