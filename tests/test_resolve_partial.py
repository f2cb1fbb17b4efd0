"""Issue 16, items 1 and 3: the referee answers as far as the typed dice go, names
the exact next command, gives the odds of every rolling subcommand in the book's
words; the shared command-line parts exit alike and end quietly into a closed pipe.

Expected figures are worked by hand from the digest's tables; each case says why.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from crdesk.cli import app as cli
from crdesk.cli import common
from tests.test_resolve_cli import Capsys, as_json, run

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "scenarios" / "demo-urban.crdesk"


def fill(command: str, faces: list[int]) -> list[str]:
    """The printed ``crdesk resolve ...`` command with each ``?`` replaced by a face."""
    words = shlex.split(command)
    assert words[:2] == ["crdesk", "resolve"]
    out = []
    for word in words[2:]:
        while "?" in word:
            word = word.replace("?", str(faces.pop(0)), 1)
        out.append(word)
    assert not faces, "more faces than ? in the command"
    return out


def next_command(out: str) -> str:
    """The command after the last ' — ' of the plain output."""
    return out.strip().splitlines()[-1].rsplit(" — ", 1)[1]


# --------------------------------------------------------------------------
# As far as the dice go


def test_fire_to_hit_first_then_damage_step_by_step(capsys: Capsys) -> None:
    # AR at Rep 4: 6+4 and 5+4 hit a target in the open, 3+4=7 misses: 2 hits (7.9.10)
    code, out, err = run("fire --rep 4 --weapon AR --target rep=4 --dice 3,6,5", capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "7.9.10 Ranged Combat: shooter rolled 3,6,5: target: 2 hits." in out
    assert (
        "target: 2 hits, roll 2d6 for damage — crdesk resolve damage --target-rep 4 --dice ?,?"
        in lines
    )
    whole = next_command(out)
    assert whole == (
        "crdesk resolve fire --rep 4 --weapon AR --target rep=4 --dice 3,6,5 --damage-dice ?,?"
    )
    # the damage alone: 6 Obviously Dead, 2 < Rep 4 Duck Back (7.9.11)
    damage = lines[-2].rsplit(" — ", 1)[1]
    data = as_json(fill(damage, [6, 2]), capsys)
    assert [r["result"] for r in data["results"]] == ["obviously_dead", "duck_back"]
    # or the whole volley again with the damage dice: the same answer
    data = as_json(fill(whole, [6, 2]), capsys)
    assert data["results"][0]["result"] == "obviously_dead"
    assert data["results"][0]["hits"] == 2


def test_a_pending_step_in_json(capsys: Capsys) -> None:
    data = as_json("fire --rep 4 --weapon AR --target rep=4 --dice 3,6,5", capsys)
    assert data["result"] == "pending" and data["results"] == []
    assert [e["outcome"] for e in data["settled"]] == ["target: 2 hits"]
    pending = data["pending"]
    assert pending["table"] == "Ranged Combat Damage" and pending["section"] == "7.9.11"
    assert [(r["flag"], r["dice"], r["who"]) for r in pending["rolls"]] == [
        ("--damage-dice", 1, "target"),
        ("--damage-dice", 1, "target"),
    ]
    assert "--damage-dice ?,?" in pending["command"] and "--json" in pending["command"]
    assert pending["steps"] == [
        {
            "roll": "target: 2 hits, roll 2d6 for damage",
            "command": "crdesk resolve damage --target-rep 4 --dice ?,?",
        }
    ]


def test_a_two_round_melee_round_by_round(capsys: Capsys) -> None:
    # round 1: 1,2,4,5 is 2 successes, 3,4,5,6 is 1: the fighter wins by 1 (7.11.4)
    argv = "melee --rep 4 --dice 1,2,4,5 --vs-rep 4 --vs-dice 3,4,5,6"
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert "7.11.4 Melee Combat: opponent rolled 3,4,5,6: 1 success." in out
    assert out.splitlines()[-1].startswith("Next, Melee Damage (7.11.5): roll 1d6 for fighter — ")
    # damage 1+1=2 < Rep 4: -1 to Rep, fight another round at Rep 4 vs Rep 3 (7.11.5)
    code, out, _ = run(fill(next_command(out), [1]), capsys)
    assert code == 0
    assert "7.11.5 Melee Damage: fighter rolled 1: opponent: -1 to Rep." in out
    last = out.splitlines()[-1]
    assert last.startswith("Next, Melee Combat (7.11.4): roll 4d6 for fighter and 3d6 for opponent")
    command = next_command(out)
    assert "--dice 1,2,4,5,?,?,?,? --vs-rep 4 --vs-dice 3,4,5,6,?,?,? --damage-die 1" in command
    # round 2: 1,1,1,6 is 3 successes vs 4,5,6 none; damage 3+3=6: Obviously Dead
    code, out, _ = run([*fill(command, [1, 1, 1, 6, 4, 5, 6]), "--damage-die", "3"], capsys)
    assert code == 0
    assert out.splitlines()[-1].startswith("The fighter wins: the opponent is Obviously Dead")


PENDING = [
    # (argv, flag the next dice go to, dice, table)
    (
        "reaction --test received-fire --rep 4 --leader-rep 5 --dice 2,3",
        "--leader-die",
        1,
        "Leader Die",
    ),
    ("in-sight --mover-rep 4 --mover-dice 1,2,3,4 --other-rep 4", "--other-dice", 4, "In Sight"),
    ("in-sight --mover-rep 4 --other-rep 3 --other-dice 1,2,3", "--mover-dice", 4, "In Sight"),
    (
        "charge --charger-rep 4 --charger-dice 1,5 --target-rep 4",
        "--target-dice",
        2,
        "Charge into Melee",
    ),
    ("challenge --rep 4 --dice 1,6", "--reroll-dice", 2, "Challenge"),
    ("pef-resolve --player-group-size 4 --dice 1,2", "--size-die", 1, "Contact Size"),
    ("np-move --leader-rep 4 --outnumbers --dice 1,2", "--flank-die", 1, "Encircle Flank"),
    ("terrain --type urban --dice 1,2,3,4,5,6,1,2", "--dice", 1, "Terrain Generator"),
]


@pytest.mark.parametrize(
    ("argv", "flag", "count", "table"), PENDING, ids=[p[0].split()[0] for p in PENDING]
)
def test_every_subcommand_stops_where_the_dice_stop(
    argv: str, flag: str, count: int, table: str, capsys: Capsys
) -> None:
    data = as_json(argv, capsys)
    assert data["result"] == "pending"
    first = data["pending"]["rolls"][0]
    assert (first["flag"], first["dice"]) == (flag, count) and table in first["table"]
    assert f"{flag} " in data["pending"]["command"] and "?" in data["pending"]["command"]


def test_a_roll_typed_short_is_still_a_miscount(capsys: Capsys) -> None:
    code, out, err = run("fire --rep 4 --weapon AR --target rep=4 --dice 6,2", capsys)
    assert code == 2 and out == "" and "needs 3 d6 but 2 were given" in err


# --------------------------------------------------------------------------
# Odds on every rolling subcommand, in the book's words

ROLLING = [
    "reaction --test received-fire --rep 4 --dice 2,5",
    "fire --rep 4 --weapon P --target rep=4 --dice 2",
    "damage --target-rep 4 --dice 3",
    "star-power --rep 5 --damage obviously_dead --dice 1,2,3,4,5",
    "fast-move --rep 4 --rep 5 --dice 1,2",
    "in-sight --mover-rep 4 --mover-dice 1,1,1,1 --other-rep 4 --other-dice 2,2,2,2",
    "charge --charger-rep 4 --charger-dice 1,2 --target-rep 4 --target-dice 3,4",
    "melee --rep 1 --dice 1 --vs-rep 1 --vs-dice 4 --damage-die 6",
    "challenge --rep 4 --dice 1,2",
    "recovery --rep 4 --rep 3 --dice 1,2,3,4",
    "recruit --band ganger --dice 3",
    "new-recruits --star-rep 5 --band-size 3 --dice 1,2",
    "pef-move --dice 1,2",
    "pef-resolve --player-group-size 4 --dice 1,2,3",
    "np-move --leader-rep 4 --dice 1,2",
    "grenade-ready --rep 4 --dice 3",
    "grenade-throw --rep 4 --dice 1,2",
    "blast --figure rep=4 --figure rep=3,cover --dice 5",
    "terrain --type urban --section 2 --dice 3",
    "buildings --type urban --dice 1,2",
    "retrieve --rep 4 --dice 3",
    "rep-change --rep 4 --scored-hit --dice 6",
]


def _enumerated(odds: dict[str, Any]) -> list[dict[str, Any]]:
    """The odds objects worked out by enumerating a rule (the others have tests of their own)."""
    items = [odds] if "outcomes" in odds else odds.get("results", [])
    return [i for i in items if isinstance(i.get("outcomes"), dict)]


@pytest.mark.parametrize("argv", ROLLING, ids=[a.split()[0] for a in ROLLING])
def test_odds_on_every_rolling_subcommand(argv: str, capsys: Capsys) -> None:
    code, out, err = run(f"{argv} --odds", capsys)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("Odds: ") and "%" in first
    assert "_" not in first, "code names instead of the book's words"
    for item in _enumerated(as_json(f"{argv} --odds", capsys)["odds"]):
        assert sum(item["outcomes"].values()) == pytest.approx(1.0)


def test_enumerated_odds_are_exact(capsys: Capsys) -> None:
    # 2d6 vs Rep 4 (a 1-4 passes, 2/3 a die): pass 2 4/9, pass 1 4/9, pass 0 1/9 (11.2)
    data = as_json("pef-move --dice 1,2 --odds", capsys)
    assert data["odds"]["outcomes"] == pytest.approx(
        {"move_8": float(Fraction(4, 9)), "move_4": float(Fraction(4, 9)), "no_move": 1 / 9}
    )
    _, out, _ = run("pef-move --dice 1,2 --odds", capsys)
    assert out.startswith('Odds: moves 4" 44%, moves 8" 44%, no move 11% (11.2).')
    _, out, _ = run(
        "charge --charger-rep 4 --charger-dice 1,2 --target-rep 4 --target-dice 3,4 --odds", capsys
    )
    assert "target Rush Shots 41%" in out.splitlines()[0]


def test_activation_odds_say_who_goes_first_and_which_leaders_activate(capsys: Capsys) -> None:
    """Like every subcommand that rolls, activation takes --odds (7.1): who goes first,
    how often doubles are rolled again, which Leader Reps may activate."""
    code, out, _ = run("activation --dice 3,4 --odds", capsys)
    assert code == 0
    assert out.splitlines()[0] == (
        "Odds: Who goes first: player first 50%, enemy first 50% (the higher die; "
        "doubles, 17% of rolls, are rolled again). A group may activate when its Leader's "
        "Rep is at least its side's die: Rep 1 17%, Rep 2 33%, Rep 3 50%, Rep 4 67%, "
        "Rep 5 83%, Rep 6+ 100% (7.1)."
    )
    assert out.splitlines()[1].startswith("Activation: player 3, enemy 4")


# --------------------------------------------------------------------------
# Readings the referee prints (item 2)


def test_in_sight_says_the_mover_only_reacts_when_the_other_side_wins(capsys: Capsys) -> None:
    _, out, _ = run(
        "in-sight --mover-rep 4 --mover-dice 1,1,1,1 --other-rep 4 --other-dice 2,2,2,2", capsys
    )
    assert out.splitlines()[-1] == "Result: the other side acts; the mover only reacts (7.6.3)."


def test_plain_output_shows_the_damage_to_a_carried_wounded_figure(capsys: Capsys) -> None:
    # 5+4=9 misses the carrier only for its Cover: the wounded Rep 3 is hit; 4 ≥ 3: OOF
    code, out, _ = run(
        "fire --rep 4 --weapon P --target rep=4,carrying=3 --dice 5 --damage-dice 4", capsys
    )
    assert code == 0
    assert "The wounded figure carried: Damage 4: 4 ≥ Rep 3: Out of the Fight (7.9.11)." in out


def test_the_referee_takes_a_rep_above_9(capsys: Capsys) -> None:
    data = as_json("reaction --test received-fire --rep 10 --dice 5,6", capsys)
    assert data["results"][0]["passed"] == 2  # 5 and 6 are both ≤ Rep 10


# --------------------------------------------------------------------------
# The shared command-line parts (item 3)


def test_validate_names_a_newer_file_once(tmp_path: Path, capsys: Capsys) -> None:
    doc = json.loads(DEMO.read_text(encoding="utf-8"))
    doc["format_version"] = 99
    newer = tmp_path / "newer.crdesk"
    newer.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["validate", str(newer)]) == common.EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert out.count(str(newer)) == 1 and "newer crdesk" in out


def test_render_to_an_unwritable_path_exits_2_saying_why(tmp_path: Path, capsys: Capsys) -> None:
    target = tmp_path / "missing" / "map.png"
    assert cli.main(["render", str(DEMO), "-o", str(target)]) == common.EXIT_USAGE
    err = capsys.readouterr().err
    assert (
        err == f"error: cannot write {target}: the folder {str(target.parent)!r} does not exist\n"
    )
    assert common.output_problem(tmp_path) == "it is a folder"
    assert common.output_problem(tmp_path / "fine.png") is None


def test_a_closed_pipe_ends_quietly_in_process(capsys: Capsys) -> None:
    def handler(_args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    assert cli.run_quietly_into_a_pipe(handler, None) == common.EXIT_PIPE  # type: ignore[arg-type]


def test_a_closed_pipe_ends_quietly() -> None:
    # the real thing in a child process: output far past a pipe's buffer, the reader
    # gone (as `crdesk generate ... | head -1` leaves it); crdesk.cli only, to start fast
    code = (
        "import sys; from crdesk.cli import app as cli; "
        "sys.exit(cli.run_quietly_into_a_pipe(lambda a: print('x' * 200_000) or 0, None))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == common.EXIT_PIPE
    assert err == "", err


# --------------------------------------------------------------------------
# What the book's examples say (item 2)


def test_a_figure_still_carrying_out_a_reaction_scores_no_better(capsys: Capsys) -> None:
    # 1,2 vs Rep 4 passes 2: Return Fire, but a figure still ducking back stays so (7.7.3)
    argv = "reaction --test received-fire --rep 4 --dice 1,2"
    assert as_json(argv, capsys)["results"][0]["status"] == "return_fire"
    data = as_json(f"{argv} --current duck-back", capsys)
    assert data["results"][0]["status"] == "duck_back"
    assert "cannot score better (7.7.3): Duck Back" in data["results"][0]["reason"]


def test_cover_per_figure(capsys: Capsys) -> None:
    # 5,6 then the Cover die 1: only figure 2 is in Cover, so only it passes 1 (Rush Shot)
    data = as_json(
        "reaction --test received-fire --rep 4 --rep 4 --in-cover-figure 2 --dice 5,6,1", capsys
    )
    assert [r["status"] for r in data["results"]] == ["duck_back", "rush_shot"]
    bad = run("reaction --test received-fire --rep 4 --in-cover-figure 2 --dice 5,6", capsys)
    assert bad[0] == 2 and "--in-cover-figure" in bad[2]


def test_several_leaders_roll_the_highest_leader_die(capsys: Capsys) -> None:
    # Leaders Rep 5 and 6: the Rep 6 one's die counts (6.3.3); 6 passes against Rep 6 only
    data = as_json(
        "reaction --test received-fire --rep 4 --leader-rep 5 --leader-rep 6 --leader-die 6 "
        "--dice 5,6",
        capsys,
    )
    assert data["results"][0]["status"] == "rush_shot"  # 0 passed + the Leader's 1


def test_which_charger_a_single_shot_target_fires_at(capsys: Capsys) -> None:
    # target passes 2; charger 1 passed 2 (Rush Shot), charger 2 passed 0: fire at 2
    argv = (
        "charge --charger-rep 4 --charger-rep 4 --charger-dice 1,2,6,6 --target-rep 4 "
        "--target-dice 1,3 --single-shot"
    )
    _, out, _ = run(argv, capsys)
    assert out.splitlines()[-1] == "target fires at charger 2, who passed fewest (0) (7.11.2)."
    choice = as_json(f"{argv} --fires-at 1", capsys)["results"][-1]
    assert (choice["charger"], choice["result"]) == ("charger 1", "rush_shot")
    bad = run(argv.replace(" --single-shot", "") + " --fires-at 1", capsys)
    assert bad[0] == 2 and "--single-shot" in bad[2]
