"""Group moves (issue 31, Deliver 4): the Leader to a spot, each member to its place in
the formation by its own route, one line per member, the In Sight stopping the group;
the same plan from `crdesk game do "move group LEADER to X,Y"` and from the table."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from crdesk.cli import main
from crdesk.cohesion import COHESION_DISTANCE
from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.actions import Action, MoveGroup
from crdesk.game.savefile import load_game, save_game
from tests.game.test_game_data import play_case

DATA = Path(__file__).parents[1] / "data" / "games"


def depot(name: str = "group_move_round_building.json") -> Game:
    case = json.loads((DATA / name).read_text())
    case["steps"] = case["steps"][:2]  # Sgt. Mace's group activated
    return play_case(case)


def test_the_text_form() -> None:
    assert Action.parse("move group p1 to 11,6.2") == MoveGroup("p1", (11.0, 6.2))
    assert str(MoveGroup("p1", (11.0, 6.2))) == "move group p1 to 11,6.2"
    with pytest.raises(IllegalActionError, match="move group LEADER to X,Y"):
        Action.parse("move group p1 11,6")


def test_one_line_per_member_and_everyone_kept_together() -> None:
    game = depot()
    plan = game.plan_group_move("p1", (11, 6.2))
    names = {f.id: f.name for f in game.battlefield.figures()}
    lines = plan.lines(names.__getitem__)
    assert len(lines) == 3
    for who in ("Sgt. Mace", "Pvt. Hale", "Pvt. Cole"):
        assert sum(line.startswith(who) for line in lines) == 1
    ends = {m.figure: m.end for m in plan.members}
    assert all(e is not None for e in ends.values())
    for fid, end in ends.items():
        assert end is not None
        gaps = [math.dist(end, e) - 1.0 for f, e in ends.items() if f != fid and e is not None]
        assert min(gaps) <= COHESION_DISTANCE  # within 4" of another (6.2), bases 1"
    hale = plan.by_figure()["p2"]
    assert hale.part_way and "no way" in (hale.refused or "")  # his place is in the Depot
    assert all(len(m.move.path) >= 1 for m in plan.members if m.move is not None)


def test_not_a_leader_of_the_moving_group() -> None:
    game = depot()
    with pytest.raises(IllegalActionError, match="does not lead"):
        game.plan_group_move("e1", (1, 1))
    assert "does not lead" in (game.legal("move group e1 to 1,1") or "")


def test_game_do_plays_a_group_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.crgame"
    save_game(depot(), path)
    assert main(["game", "do", str(path), "move", "group", "p1", "to", "11,6.2"]) == 0
    out = capsys.readouterr().out
    assert "Sgt. Mace moves" in out and "Pvt. Hale moves" in out and "Pvt. Cole moves" in out
    game = load_game(path).game
    assert [s.action.split()[1] for s in game.history[-3:]] == ["p1", "p2", "p3"]
    assert (game.fig("p1").x, game.fig("p1").y) == pytest.approx((11.0, 6.2))


def test_the_in_sight_stops_the_group() -> None:
    game = depot("group_move_in_sight_stop.json")
    plan = game.plan_group_move("p1", (11, 6.2))
    assert plan.stopper is not None and plan.stopper.figure == "p1"
    assert plan.waiting == ["p2", "p3"] or set(plan.waiting) == {"p2", "p3"}
    lines = plan.lines(lambda f: game.fig(f).name)
    assert lines[0].startswith("Sgt. Mace moves to") and "stops: In Sight" in lines[0]
    assert all("does not move" in line for line in lines[1:])
