"""``crdesk simulate``: batches of automated encounters, the same whatever plays them."""

from __future__ import annotations

import json
import sys
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import pytest

from crdesk import simulate
from crdesk.ai.objective import ObjectivePolicy, next_goal
from crdesk.cli import main
from crdesk.cli.simulate import report_lines
from crdesk.dice import CounterDice
from crdesk.model import BandType
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
    play_game,
    run_batch,
    summarize,
    wilson,
)
from tests.simulated import break_game

Capsys = pytest.CaptureFixture[str]

FAST = ["--generate", "clear", "--games", "2", "--seed", "11", "--max-turns", "2"]


def _json(capsys: Capsys, argv: list[str], status: int = 0) -> dict[str, Any]:
    assert main(["simulate", *argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def serial() -> dict[str, Any]:
    """The reference batch, played in this process (one job)."""
    results = run_batch(_setup(), 2, 11)
    return {"results": results, "summary": summarize(results)}


def _setup() -> Setup:
    return Setup(terrain="clear", band=default_band(), max_turns=2)


# -- the statistics ---------------------------------------------------------


def test_wilson_interval_matches_the_formula() -> None:
    lo, hi = wilson(7, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)
    assert wilson(0, 20)[0] == 0.0 and 0.16 < wilson(0, 20)[1] < 0.17  # never below 0
    assert wilson(20, 20)[1] == 1.0 and 0.83 < wilson(20, 20)[0] < 0.84


def test_game_seeds_depend_only_on_the_batch_seed_and_the_index() -> None:
    seeds = [game_seed(5, i) for i in range(100)]
    assert len(set(seeds)) == 100 and seeds == [game_seed(5, i) for i in range(100)]
    assert game_seed(6, 0) != game_seed(5, 0) and all(0 <= s < 2**62 for s in seeds)


def _row(index: int, winner: str, sections: tuple[str, ...], **kw: Any) -> GameResult:
    return GameResult(
        index, index, winner=winner, reason=f"{winner} reason", sections=sections, **kw
    )


def test_summary_counts_wins_and_losses() -> None:
    # 7.11 came up in 6 games, the player won 5 of them; in the 6 without it won 1
    rows = [_row(i, PLAYER, ("7.1", "7.11")) for i in range(5)]
    rows.append(_row(5, ENEMY, ("7.1", "7.11")))
    rows += [_row(6 + i, ENEMY if i < 4 else DRAW, ("7.1",)) for i in range(5)]
    rows.append(_row(11, PLAYER, ("7.1",)))
    rows.append(
        GameResult(
            12,
            99,
            winner=PLAYER,
            losses={PLAYER: {"obviously_dead": 2}, ENEMY: {}},
            loss_rules=((PLAYER, "7.9.10"), (PLAYER, "7.9.10"), (PLAYER, "7.7")),
            sections=("7.1", "7.11"),
        )
    )
    rows.append(GameResult(13, 1234, reason="error", error="RuntimeError: boom"))
    report = summarize(rows)
    assert report["games"] == 14 and report["played"] == 13
    assert report["errors"] == [{"game": 13, "seed": 1234, "error": "RuntimeError: boom"}]
    wins = report["win_rates"]
    assert [wins[k]["games"] for k in (PLAYER, ENEMY, DRAW)] == [7, 5, 1]
    assert wins[PLAYER]["ci95"] == [round(x, 4) for x in wilson(7, 13)]
    # the rules that came up in won or lost games are no measure of what decides them:
    # that is a paired comparison's question (crdesk.compare)
    assert set(report["decisive_rules"]) == {"loss_rules"}
    losses = report["decisive_rules"]["loss_rules"][PLAYER]
    assert [(r["section"], r["losses"], r["share"]) for r in losses] == [
        ("7.9.10", 2, 1.0),
        ("7.7", 1, 0.5),
    ]
    assert report["casualties"][PLAYER]["total"] == {"obviously_dead": 2}


# -- whole games --------------------------------------------------------------


def test_games_are_played_to_an_end_with_their_losses(serial: dict[str, Any]) -> None:
    results: list[GameResult] = serial["results"]
    assert [r.index for r in results] == [0, 1]
    assert [r.seed for r in results] == [game_seed(11, i) for i in range(2)]
    assert all(r.error is None for r in results), [r.error for r in results]
    assert all(1 <= r.turns <= 2 and r.steps > 0 for r in results)
    for r in results:
        assert r.winner in (PLAYER, ENEMY, DRAW) and r.reason
        assert "11" in r.sections  # PEFs were placed: a solo Patrol
        lost = sum(sum(kinds.values()) for kinds in r.losses.values())
        assert (lost > 0) == bool(r.loss_rules)
    # one game again on its own: the same result (nothing carries over between games)
    again = play_game(_setup(), 1, results[1].seed)
    assert again == results[1]


def test_jobs_2_gives_the_same_report_as_jobs_1(serial: dict[str, Any], capsys: Capsys) -> None:
    two = _json(capsys, [*FAST, "--jobs", "2"])
    assert two["seed"] == 11 and two["games"] == 2
    expected = json.loads(json.dumps(serial["summary"]))
    assert {k: two[k] for k in expected} == expected
    assert [g["seed"] for g in two["results"]] == [r.seed for r in serial["results"]]


def test_a_failing_game_is_reported_with_its_seed(
    serial: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    bad = serial["results"][0].seed
    break_game(monkeypatch, bad)
    data = _json(capsys, FAST, status=1)
    assert data["played"] == 1 and len(data["errors"]) == 1
    err = data["errors"][0]
    assert err["game"] == 0 and err["seed"] == bad
    assert err["error"].startswith("ValueError: a table that cannot be played")
    assert data["results"][1]["winner"] == serial["results"][1].winner  # the others played on
    assert data["results"][0]["error"] == err["error"]


def test_the_plain_report(serial: dict[str, Any], capsys: Capsys) -> None:
    assert main(["simulate", *FAST]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == (
        # the tactical policy is the default player since it replaced the objective one
        '2 games, seed 11: patrol on generated clear, 36"x36", at most 2 turns, the tactical '
        "policy "
        "for the player"
    )
    assert lines[1].startswith("Band: Military Band (military): Star (Rep 5 star, AR), Grunt 1")
    wins = serial["summary"]["win_rates"]
    for label, key in (("player wins", PLAYER), ("enemy wins", ENEMY), ("draws", DRAW)):
        row = next(line for line in lines if line.strip().startswith(label))
        assert row.strip().removeprefix(label).split()[0] == str(wins[key]["games"])
    for heading in ("Casualties per game", "Turns: mean", "Why the games ended:"):
        assert any(line.startswith(heading) for line in lines), heading
    assert "Win edge" not in out
    assert lines[2] == (
        "Enemy: military (from PEFs, 11), played by the solo enemy (11.4; its spots chosen "
        "by Cover, range and exposure)"
    )
    assert "Rules that took figures out" in out and lines[-1].startswith("2 games in ")
    # a failed game's line names its number and seed
    failed = dict(serial["summary"], errors=[{"game": 4, "seed": 77, "error": "ValueError: x"}])
    text = report_lines(_setup(), 11, failed)
    assert text[-2:] == [
        "1 game(s) failed (not counted above):",
        "  game 4 (seed 77): ValueError: x",
    ]


def test_a_scenario_as_it_stands(capsys: Capsys) -> None:
    with as_file(resource_root() / "scenarios" / "demo-wooded.crdesk") as path:
        data = _json(capsys, [str(path), "--games", "1", "--seed", "3", "--max-turns", "1"])
    assert data["setup"]["table"].endswith("demo-wooded.crdesk") and not data["errors"]
    assert data["played"] == 1 and "band" not in data["setup"]


def test_generated_tables_take_the_size_asked_for(capsys: Capsys) -> None:
    argv = ["--generate", "clear", "--games", "1", "--seed", "2", "--max-turns", "1"]
    assert _json(capsys, argv)["setup"]["table"] == 'generated clear, 36"x36"'
    data = _json(capsys, [*argv, "--size", "72x48"])
    assert data["setup"]["table"] == 'generated clear, 72"x48"' and not data["errors"]
    setup = Setup(terrain="wooded", size=(72.0, 48.0), band=default_band(), max_turns=1)
    table = _scenario_for(setup, game_seed(2, 0)).table
    assert (table.width, table.height) == (72.0, 48.0)


def test_a_saved_band_is_deployed(tmp_path: Path, capsys: Capsys) -> None:
    from crdesk.band import new_band, save_band

    band, _ = new_band("Mace's Patrol", BandType.POLICE, CounterDice(4), grunts=2)
    path = tmp_path / "mace.crband"
    save_band(band, path)
    argv = ["--generate", "clear", "--games", "1", "--seed", "2", "--max-turns", "1"]
    data = _json(capsys, [*argv, "--band", str(path)])
    about = data["setup"]["band"]
    assert about["name"] == "Mace's Patrol" and about["type"] == "police"
    assert len(about["figures"]) == 3 and not data["errors"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--games", "2", "--seed", "1"], "SCENARIO file or --generate"),
        (["x.crdesk", *FAST], "SCENARIO file or --generate"),
        ([*FAST, "--band", "pirates"], "--band must be a band type"),
        ([*FAST, "--band", "missing.crband"], "--band"),
        ([*FAST, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs is for local"),
        (["--generate", "swamp", "--games", "1", "--seed", "1"], "swamp"),
        (["--generate", "clear", "--games", "0", "--seed", "1"], "number of games"),
        ([*FAST, "--size", "72"], "WxH"),
        ([*FAST, "--size", "-5x36"], "each table side"),
        (["x.crdesk", "--games", "1", "--seed", "1", "--size", "72x48"], "--size is for"),
    ],
)
def test_bad_arguments_are_one_line_errors(argv: list[str], words: str, capsys: Capsys) -> None:
    assert main(["simulate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and len(err.splitlines()) == 1


def test_scheduler_without_dask_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert main(["simulate", *FAST, "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'crdesk[cluster]'" in err and len(err.splitlines()) == 1


def test_a_dask_local_cluster_plays_the_same_games(serial: dict[str, Any], capsys: Capsys) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        data = _json(capsys, [*FAST, "--scheduler", cluster.scheduler_address])
    expected = json.loads(json.dumps(serial["summary"]))
    assert {k: data[k] for k in expected} == expected


def test_the_next_objective_is_the_first_open_one_with_a_place() -> None:
    checklist = {
        "items": [
            {"id": "section_1", "state": "done", "at": [6, 3], "text": "s1"},
            {"id": "find", "state": "open", "at": None, "area": None, "text": "find"},
            {"id": "section_2", "state": "open", "at": [18, 3], "text": "s2"},
            {"id": "exit", "state": "open", "area": [0, 35, 36, 36], "text": "exit"},
        ]
    }
    # an objective still to be found: to the nearest PEF, else hold (never on to the exit)
    assert next_goal(checklist, 36.0, (9.0, 8.0)) == (False, (9.0, 8.0), "find")
    assert next_goal(checklist, 36.0) is None
    checklist["items"][1]["state"] = "done"
    assert next_goal(checklist, 36.0) == (False, (18.0, 3.0), "s2")
    checklist["items"][2]["state"] = "done"
    assert next_goal(checklist, 36.0) == (True, (18.0, 36.0), "exit")
    checklist["items"][3]["state"] = "failed"
    assert next_goal(checklist, 36.0) is None


@pytest.mark.parametrize("player", ["objective", "book"])
def test_the_player_patrols_only_with_the_objective_policy(player: str) -> None:
    """With no enemy on the table the objective policy walks the Band towards the far
    edge; the book policy alone stays where it was deployed."""
    from crdesk.ai.policy import BookPolicy, Policy, play_policies
    from crdesk.game.controller import Game
    from crdesk.game.settings import GameSettings

    setup = Setup(terrain="clear", band=default_band(), max_turns=1, player=player)
    seed = game_seed(11, 4)  # a table whose PEFs stay hidden at the start, the Band first
    scenario = simulate._scenario_for(setup, seed)
    game = Game.new(scenario, seed=seed, settings=GameSettings(solo=True, encounter="patrol"))
    start = {f.id: f.y for f in game.battlefield.figures() if f.side == "band"}
    assert len(start) == 5 and len(list(game.battlefield.figures())) == 5
    mine: Policy = ObjectivePolicy() if player == "objective" else BookPolicy()
    policies = {"band": mine, "enemy": simulate.SoloEnemyPolicy()}
    while not any(f.side != "band" for f in game.battlefield.figures()) and game.turn == 1:
        if game.awaiting() is None or play_policies(game, policies, max_steps=1) == 0:
            break
    heads = [s for s in game.history if s.why.startswith("no enemy on the table: heads for")]
    moved = [f.id for f in game.battlefield.figures() if f.id in start and f.y < start[f.id] - 1]
    if player == "objective":
        assert heads and moved  # towards the far edge (smaller y)
    else:
        assert not heads and not moved


@pytest.mark.parametrize("index", [0, 2, 4, 7])
def test_quiet_walks_play_exactly_as_walking_every_step(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk's shortcut (steps on which nothing can happen judged in one pass) gives
    the same game, event for event, as an In Sight check after every step."""
    from crdesk.game import moving
    from crdesk.simulate import Setup, default_band, game_seed, play_game

    setup = Setup(terrain="roll", band=default_band(), max_turns=6)
    games: list[Any] = []
    result = simulate._result
    monkeypatch.setattr(simulate, "_result", lambda g, *a: games.append(g) or result(g, *a))
    fast = play_game(setup, index, game_seed(5, index))
    monkeypatch.setattr(moving, "QUIET_WALKS", False)
    slow = play_game(setup, index, game_seed(5, index))
    assert fast.error is None and fast == slow
    quick, stepwise = games
    assert [e.text for e in quick.events] == [e.text for e in stepwise.events]
    assert quick.state_hash() == stepwise.state_hash()
    assert sum(e.kind == "move" for e in quick.events) > 5
