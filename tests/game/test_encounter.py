"""The three encounters (12): deployment, the default band, the objectives the controller
tracks, the outcome and the next encounter, and ``crdesk game --encounter``."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from importlib.resources import as_file
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point

from crdesk.cli import main
from crdesk.dice import CounterDice, ScriptedDice
from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.deployment import default_band, deploy
from crdesk.game.encounter import next_encounter
from crdesk.game.savefile import load_game, save_game
from crdesk.game.settings import GameSettings
from crdesk.model import BandType, EncounterType, Role, Status, WeaponCode
from crdesk.options import Interpretations, RulesOptions
from crdesk.resources import resource_root
from crdesk.rules.campaign import NEXT_ENCOUNTER
from crdesk.scenario import load
from tests.game.games import scenario
from tests.game.test_game_data import play_case

DATA = Path(__file__).parents[1] / "data" / "games"
CASES = sorted(DATA.glob("encounter_*.json"))
Capsys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def wooded() -> Iterator[str]:
    with as_file(resource_root() / "scenarios" / "demo-wooded.crdesk") as path:
        yield str(path)


# -- the data games: each objective reached and failed, the next encounter ---------


def test_every_encounter_and_outcome_has_a_data_game() -> None:
    seen = set()
    for path in CASES:
        case = json.loads(path.read_text())
        enc = case["final"]["encounter"]
        seen.add((case["settings"]["encounter"], enc["won"]))
    assert seen == {(k.value, won) for k in NEXT_ENCOUNTER for won in (True, False)}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_encounter_data_game(path: Path) -> None:
    case = json.loads(path.read_text())
    game = play_case(case)
    want = case["final"]["encounter"]
    out = game.outcome
    assert out is not None
    assert out.won is want["won"]
    assert out.next_encounter == want["next_encounter"]
    kind = EncounterType(case["settings"]["encounter"])
    assert out.next_encounter == next_encounter(kind, want["won"]).value
    assert out.to_dict()["next_encounter"] == want["next_encounter"]
    objectives = game.summary()["objectives"]
    assert objectives["encounter"] == kind.value
    assert {i["id"]: i["state"] for i in objectives["items"]} == want["items"]
    assert objectives["next_encounter"] == want["next_encounter"]
    # the progress is game state: replay rebuilds it exactly, undo takes it back
    doc = game.state_document()["game"]["encounter"]
    again = Game.replay(
        game.scenario, game.history, seed=game.seed, dice=game.dice_mode, settings=game.settings
    )
    assert again.state_document()["game"]["encounter"] == doc


@pytest.mark.parametrize(
    ("kind", "won", "following"),
    [
        ("patrol", True, "raid"),
        ("patrol", False, "defend"),
        ("raid", True, "raid"),
        ("raid", False, "patrol"),
        ("defend", True, "patrol"),
        ("defend", False, "defend"),
    ],
)
def test_the_outcome_table_of_12(kind: str, won: bool, following: str) -> None:
    assert next_encounter(kind, won) is EncounterType(following)


def test_free_play_has_no_next_encounter() -> None:
    with pytest.raises(IllegalActionError, match="free play has no next encounter"):
        next_encounter("free", True)


def test_the_turn_limit_is_no_win_and_the_campaign_goes_on_as_after_a_loss() -> None:
    from crdesk.ai.enemy import SoloEnemyPolicy
    from crdesk.ai.policy import BookPolicy, play_policies

    case = json.loads((DATA / "encounter_patrol_lost.json").read_text())
    settings = GameSettings(solo=True, encounter="patrol", max_turns=1)
    game = Game.new(scenario(case["scenario"]), seed=4, settings=settings)
    play_policies(game, {"p": BookPolicy(advance=False), "e": SoloEnemyPolicy()})
    out = game.outcome
    assert out is not None and out.winner is None and out.won is False
    assert out.reason.startswith("Patrol not won: 1 turn played, the turn limit")
    assert out.turn == 1
    assert out.next_encounter == next_encounter("patrol", False).value == "defend"
    last = [e for e in game.events if e.kind == "encounter_outcome"][-1]
    assert last.text.endswith("the next encounter is a Defend (12).")


# -- the readings switched -----------------------------------------------------


def _case(name: str, **interpretations: bool) -> dict[str, Any]:
    case = json.loads((DATA / f"{name}.json").read_text())
    case["scenario"]["rules"] = {"interpretations": interpretations}
    return case


def test_raid_objective_taken_only_at_the_end_of_the_activation() -> None:
    case = _case("encounter_raid_last_pef", raid_objective_taken_on_reach=False)
    case["steps"] = case["steps"][:3]  # start, activate, move next to the objective
    game = play_case(case)
    state = game.state_document()["game"]["encounter"]
    assert state["objective"]["holder"] is None  # reached, but not taken yet
    game.play("end")
    state = game.state_document()["game"]["encounter"]
    assert state["objective"]["holder"] == "p1"
    assert state["objective"]["taken"] is True
    assert game.outcome is None


def test_raid_objective_taken_at_once_by_default() -> None:
    case = _case("encounter_raid_last_pef")
    case["steps"] = case["steps"][:3]
    game = play_case(case)
    assert game.state_document()["game"]["encounter"]["objective"]["holder"] == "p1"
    take = next(i for i in game.summary()["objectives"]["items"] if i["id"] == "take")
    assert take["state"] == "done" and take["at"] == [2.0, 5.2]


def test_defend_item_carried_reading_follows_its_carrier() -> None:
    case = _case("encounter_defend_item", defend_item_stays_put=False)
    game = play_case(case)
    assert game.outcome is None  # the Star took the item along
    item = game.state_document()["game"]["encounter"]["item"]
    assert (item["holder"], item["x"], item["y"]) == ("p1", 2.0, 5.0)
    keep = next(i for i in game.summary()["objectives"]["items"] if i["id"] == "keep_item")
    assert keep["state"] == "open" and keep["at"] == [2.0, 5.0]


def test_defend_item_placed_by_the_figure_nearest_a_building() -> None:
    case = json.loads((DATA / "encounter_defend_item.json").read_text())
    case["scenario"]["rules"] = {"interpretations": {"pef_buildings": False}}
    if "pef_buildings" not in {f for f in Interpretations.__dataclass_fields__}:
        case["scenario"].pop("rules")
    outline = [[10, 6], [11.5, 6], [11.5, 7.2], [10, 7.2]]
    case["scenario"]["terrain"] = [
        {
            "kind": "building",
            "name": "Store",
            "outline": outline,
            "floors": 1,
            "areas": [outline],
            "openings": [],
        }
    ]
    case["steps"] = case["steps"][:1]
    # the Store hides PEF 2 from the player (11), so it is not resolved at once: its
    # two dice are not rolled
    case["steps"][0]["dice"] = case["steps"][0]["dice"][:12]
    game = play_case(case)
    item = game.state_document()["game"]["encounter"]["item"]
    assert (item["holder"], item["x"], item["y"]) == ("p2", 9.0, 8.0)


# -- free play and settings --------------------------------------------------------


def _solo_case() -> dict[str, Any]:
    return json.loads((DATA / "encounter_patrol_won.json").read_text())


def test_free_play_carries_no_objectives() -> None:
    case = _solo_case()
    case["settings"] = {"solo": True}
    game = play_case(case)
    assert "encounter" not in game.state_document()["game"]
    assert "objectives" not in game.summary()
    out = game.outcome  # free play's own end: the side with nobody left loses
    assert out is not None and out.reason == "p has no figure left that can fight"
    assert out.won is None and out.next_encounter is None and "won" not in out.to_dict()


def test_an_encounter_needs_solo_play() -> None:
    sc = scenario(_solo_case()["scenario"])
    with pytest.raises(IllegalActionError, match="come only from PEFs"):
        Game.new(sc, settings=GameSettings(encounter="raid"))
    with pytest.raises(IllegalActionError, match="encounter setting must be one of"):
        Game.new(sc, settings=GameSettings(solo=True, encounter="ambush"))


def test_settings_round_trip_and_a_saved_encounter_reopens(tmp_path: Path) -> None:
    settings = GameSettings(solo=True, encounter="patrol")
    assert GameSettings.from_dict(settings.to_dict()) == settings
    assert "encounter" not in GameSettings(solo=True).to_dict()
    game = play_case(_solo_case())
    save_game(game, tmp_path / "g.crgame")
    again = load_game(tmp_path / "g.crgame").game
    assert again.settings.encounter == "patrol"
    assert again.outcome == game.outcome
    assert again.state_hash() == game.state_hash()


# -- the default band and deployment -----------------------------------------------


def test_default_band_is_a_rep_5_star_and_four_rep_4_grunts() -> None:
    band = default_band(BandType.MILITARY)
    assert [(f.role, f.rep) for f in band] == [(Role.STAR, 5)] + [(Role.GRUNT, 4)] * 4
    assert [f.weapon for f in band[1:]] == [WeaponCode.AR] * 3 + [WeaponCode.SAW]
    assert band[0].star_power == 5
    assert len({f.id for f in band}) == 5
    gangers = default_band("ganger", prefix="x")
    assert {f.weapon for f in gangers} == {WeaponCode.P, WeaponCode.SG}
    assert all(f.id.startswith("x") for f in gangers)


def _table_with_obstacles() -> Any:
    return scenario(
        {
            "table": [36, 36],
            "terrain": [
                # rocks across the near edge of section 8, where a 3 or 4 would enter
                {"kind": "impassable", "outline": [[12, 33], [24, 33], [24, 36], [12, 36]]},
                {
                    "kind": "building",
                    "outline": [[25, 34], [28, 34], [28, 36], [25, 36]],
                    "floors": 1,
                    "areas": [[[25, 34], [28, 34], [28, 36], [25, 36]]],
                    "openings": [],
                },
            ],
            "forces": [
                {"id": "p", "player": True, "figures": []},
                {"id": "e", "figures": [{"id": "e1", "at": [18, 4]}]},
            ],
        }
    )


def _legal(sc: Any) -> None:
    bf = sc.battlefield
    table = bf.table
    solid = [f.outline for f in bf.terrain]
    figs = list(bf.player_force().figures)
    for f in figs:
        assert table.section_at(f.x, f.y) in (7, 8, 9), (f.id, f.x, f.y)
        assert f.radius <= f.x <= table.width - f.radius
        assert f.y + f.radius <= table.height + 1e-9
        foot = Point(f.x, f.y).buffer(f.radius)
        assert not any(s.intersects(foot) for s in solid), f.id
    for a in figs:
        for b in figs:
            if a.id < b.id:
                assert math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius


@pytest.mark.parametrize("kind", ["patrol", "raid"])
def test_patrol_and_raid_enter_from_the_near_edge(kind: str) -> None:
    sc = _table_with_obstacles()
    out = deploy(sc, default_band(), kind, ScriptedDice([3]))  # 3: section 8
    _legal(out)
    figs = out.battlefield.player_force().figures
    assert all(f.y == pytest.approx(36 - f.radius) for f in figs)  # on the edge
    assert out.encounter.type is EncounterType(kind)
    assert sc.battlefield.player_force().figures == []  # the scenario is not changed
    assert [f.id for f in out.battlefield.force("e").figures] == ["e1"]


def test_defend_sets_up_anywhere_in_sections_7_to_9() -> None:
    sc = _table_with_obstacles()
    out = deploy(sc, default_band(), "defend", ScriptedDice([6]))  # 6: section 9
    _legal(out)
    figs = out.battlefield.player_force().figures
    assert all(out.table.section_at(f.x, f.y) == 9 for f in figs)
    assert any(f.y < 36 - f.radius - 1 for f in figs)  # not strung along the edge


def test_deployment_is_the_same_for_the_same_dice() -> None:
    sc = _table_with_obstacles()
    a = deploy(sc, default_band(), "patrol", CounterDice(11))
    b = deploy(sc, default_band(), "patrol", CounterDice(11))
    assert [(f.x, f.y) for f in a.battlefield.figures()] == [
        (f.x, f.y) for f in b.battlefield.figures()
    ]
    rolls = {deploy(sc, default_band(), "patrol", ScriptedDice([d])).battlefield for d in (1, 5)}
    xs = [sorted(f.x for f in bf.player_force().figures) for bf in rolls]
    assert xs[0] != xs[1]  # the die chose the section


def test_deployment_refuses_what_does_not_fit() -> None:
    sc = _table_with_obstacles()
    with pytest.raises(IllegalActionError, match="already used by another force"):
        deploy(sc, [default_band()[0].__class__("e1", "Copy", 4)], "patrol", ScriptedDice([1]))
    rock = [[0, 15], [24, 15], [24, 24], [0, 24]]  # the whole near third is rock
    walled = scenario(
        {
            "terrain": [{"kind": "impassable", "outline": rock}],
            "forces": [{"id": "p", "player": True, "figures": []}, {"id": "e", "figures": []}],
        }
    )
    with pytest.raises(IllegalActionError, match="no room to deploy"):
        deploy(walled, default_band(), "patrol", ScriptedDice([1]))


def test_a_near_edge_lined_with_walls_deploys_just_inside_them() -> None:
    """A wall along the whole near edge: the patrol enters as near the edge as it can."""
    wall = [[0, 23.2], [24, 23.2], [24, 24], [0, 24]]
    sc = scenario(
        {
            "terrain": [{"kind": "cover", "outline": wall}],
            "forces": [{"id": "p", "player": True, "figures": []}, {"id": "e", "figures": []}],
        }
    )
    out = deploy(sc, default_band(), "patrol", ScriptedDice([3]))
    _legal(out)
    figs = out.battlefield.player_force().figures
    assert len(figs) == 5
    assert all(23.2 - 1.5 < f.y + f.radius <= 23.2 for f in figs)  # the first row inside


def test_a_deployed_default_band_plays_an_encounter_on_a_demo_table(wooded: str) -> None:
    sc = deploy(load(wooded), default_band(), "patrol", CounterDice(5))
    game = Game.new(sc, seed=5, settings=GameSettings(solo=True, encounter="patrol"))
    assert game.awaiting() is not None
    assert [i["state"] for i in game.summary()["objectives"]["items"]] == ["open"] * 4
    assert RulesOptions().interpretations.raid_objective_taken_on_reach


# -- the CLI ---------------------------------------------------------------------


def test_cli_new_with_an_encounter_shows_its_objectives(
    wooded: str, tmp_path: Path, capsys: Capsys
) -> None:
    out_file = tmp_path / "g.crgame"
    argv = ["game", "new", wooded, "--seed", "3", "--encounter", "raid", "--deploy"]
    assert main([*argv, "-o", str(out_file)]) == 0
    text = capsys.readouterr().out
    assert "Objectives (Raid):" in text
    assert "[ ] Carry it off the table by the near edge (12.2)" in text
    game = load_game(out_file).game
    assert game.settings.solo and game.settings.encounter == "raid"
    player = game.battlefield.player_force()
    assert all(game.battlefield.table.section_at(f.x, f.y) in (7, 8, 9) for f in player.figures)
    assert main(["game", "show", str(out_file), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["summary"]["objectives"]["encounter"] == "raid"
    default = shown["awaiting"]["default"]
    assert main(["game", "do", str(out_file), *default.split(), "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert [i["id"] for i in done["objectives"]["items"]] == ["find", "take", "carry_off"]


def test_cli_auto_reports_the_outcome_and_next_encounter(
    wooded: str, tmp_path: Path, capsys: Capsys
) -> None:
    argv = ["game", "auto", wooded, "--seed", "3", "--solo", "--deploy"]
    assert main([*argv, "--turns", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objectives"]["encounter"] == "patrol"  # the scenario's own encounter
    out = data["outcome"]
    # the turn limit is no win: the campaign goes on as after a loss (12)
    assert out["next_encounter"] == next_encounter("patrol", out["won"]).value
    if "the turn limit" in out["reason"]:
        assert out["won"] is False and out["winner"] is None
    assert main([*argv, "--turns", "1"]) == 0
    text = capsys.readouterr().out
    assert "Objectives (Patrol):" in text and "Outcome:" in text


def test_cli_auto_on_a_generated_table_deploys_the_default_band(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A generated table has no forces: --deploy sets up the default band (12.1) and the
    enemy comes from PEFs (11), as ``crdesk simulate`` plays it -- not "a game is played
    by two sides; this scenario has 1 forces"."""
    out_file = tmp_path / "g.crgame"
    argv = ["game", "auto", "--generate", "mountain", "--size", "24x24", "--seed", "2"]
    argv += ["--encounter", "patrol", "--deploy", "--turns", "2", "-o", str(out_file)]
    assert main(argv) == 0, capsys.readouterr().err
    game = load_game(out_file).game
    assert game.settings.solo and game.settings.encounter == "patrol"
    assert len(game.battlefield.player_force().figures) == 5
    assert len(game.battlefield.forces) == 2


def test_cli_refuses_deploy_without_an_encounter(wooded: str, capsys: Capsys) -> None:
    assert main(["game", "auto", wooded, "--seed", "1", "--deploy", "--turns", "1"]) == 2
    assert "--deploy needs an encounter" in capsys.readouterr().err


def test_a_saved_game_with_an_unknown_encounter_is_refused(tmp_path: Path) -> None:
    from crdesk.game.savefile import GameFileError

    path = tmp_path / "g.crgame"
    save_game(play_case(_solo_case()), path)
    data = json.loads(path.read_text())
    data["settings"]["encounter"] = "ambush"
    path.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=r"settings\.encounter.*patrol"):
        load_game(path)


def test_undo_takes_the_objectives_back() -> None:
    case = _solo_case()
    case["settings"]["practice_undo"] = True
    case["steps"] = case["steps"][:3]  # up to the end of the activation at the far edge
    game = play_case(case)
    assert game.state_document()["game"]["encounter"]["sections"] == [1, 2, 3]
    game.undo()  # back before "end": the activation is under way, nothing reached yet
    assert game.state_document()["game"]["encounter"]["sections"] == []
    assert [i["state"] for i in game.summary()["objectives"]["items"]] == ["open"] * 4


# -- the ends no data game reaches, judged on a game put into that state ----------------


def _ended(name: str, steps: int, **figures: Status) -> tuple[bool, str]:
    from crdesk.game import encounter

    case = json.loads((DATA / f"{name}.json").read_text())
    case["steps"] = case["steps"][:steps]
    game = play_case(case)
    for fid, status in figures.items():
        game.battlefield.update_figure(fid, status=status)
    if figures.get("pef2-1") is Status.LEAVE_THE_BATTLEFIELD:
        game.state["exited"].append("pef2-1")
    assert encounter.check_over(game)
    out = game.outcome
    assert out is not None and out.won is not None
    return out.won, out.reason


def test_defend_lost_when_every_grunt_is_down_on_a_1_to_3() -> None:
    won, reason = _ended("encounter_defend_won", 2, p2=Status.OUT_OF_THE_FIGHT)
    assert (won, reason) == (False, "Defend lost: the enemy killed or captured every Grunt")


def test_a_destroyed_patrol_loses() -> None:
    down = {"p1": Status.OBVIOUSLY_DEAD, "p2": Status.OUT_OF_THE_FIGHT, "p3": Status.OBVIOUSLY_DEAD}
    assert _ended("encounter_patrol_won", 2, **down) == (
        False,
        "Patrol lost: the patrol was destroyed",
    )


def test_a_raid_is_lost_when_the_enemy_carries_the_objective_off() -> None:
    won, reason = _ended("encounter_raid_found", 2, **{"pef2-1": Status.LEAVE_THE_BATTLEFIELD})
    assert (won, reason) == (False, "Raid lost: Military 2-1 carried the objective off the table")


def test_a_raid_objective_drops_where_its_holder_falls() -> None:
    from crdesk.game import encounter

    case = json.loads((DATA / "encounter_raid_found.json").read_text())
    case["steps"] = case["steps"][:2]
    game = play_case(case)
    game.battlefield.update_figure("pef2-1", status=Status.OUT_OF_THE_FIGHT)
    assert not encounter.check_over(game)
    obj = game.state_document()["game"]["encounter"]["objective"]
    assert (obj["holder"], obj["x"], obj["y"]) == (None, 10.0, 4.5)
    take = next(i for i in encounter.objectives(game)["items"] if i["id"] == "take")
    assert take["state"] == "open" and take["at"] == [10.0, 4.5]


def test_no_figure_is_deployed_into_a_corner_rock_seals_off() -> None:
    """Seen in simulated Patrols (tuning seed 3, games 4 and 40): rock ran 0.1-0.2" from
    both table edges round a corner of the near edge, the corner was the free spot
    nearest the section's middle, and the figure deployed there could go nowhere all
    game.  Such a pocket is no way onto the table (12.1): the figures enter elsewhere."""
    rock = [[12, 24], [12, 16], [23.9, 16], [23.9, 21.4], [21.4, 21.4], [21.4, 23.9]]
    rock += [[20, 23.9], [20, 24]]
    sc = scenario(
        {
            "terrain": [{"kind": "impassable", "outline": rock}],
            "forces": [{"id": "p", "player": True, "figures": []}, {"id": "e", "figures": []}],
        }
    )
    out = deploy(sc, default_band(), "patrol", ScriptedDice([6]))  # 6: section 9
    _legal(out)
    figs = out.battlefield.player_force().figures
    assert not [f.id for f in figs if f.x > 21.4 and f.y > 21.4], [(f.x, f.y) for f in figs]
