"""``crdesk band new|show|after-battle``: a round trip through files, one-line errors
(exit 2) that leave every file untouched."""

from __future__ import annotations

import json

import pytest

from crdesk.band import BandFigure, load_band, save_band
from crdesk.cli import main
from crdesk.game.savefile import save_game
from tests.test_band import band_of, lost_game, won_game


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    won, lost = folder / "won.crgame", folder / "lost.crgame"
    save_game(won_game(), won)
    save_game(lost_game(), lost)
    return won, lost


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_new_and_show(tmp_path, capsys):
    path = tmp_path / "mace.crband"
    status, out, err = run(
        capsys, "band", "new", "Mace's Patrol", "--type", "military", "--seed", 7,
        "--star", "Sgt. Mace", "-o", path,
    )  # fmt: skip
    assert status == 0, err
    assert "seed 7" in out and "Recruiting (military) rolled" in out
    band = load_band(path)
    assert band.created["seed"] == 7 and len(band.active) == 5
    status, out, _ = run(capsys, "band", "show", path)
    assert status == 0
    assert out.splitlines()[0].startswith("Mace's Patrol: a military Band, 5 of 5 figures")
    assert "Sgt. Mace" in out and "No encounters played yet." in out
    status, out, _ = run(capsys, "band", "show", path, "--json")
    data = json.loads(out)
    assert data["size_limit"] == 5 and data["star"] == "star" and data["next_encounter"] == "patrol"
    # the same seed makes the same Band
    again = tmp_path / "again.crband"
    run(capsys, "band", "new", "Mace's Patrol", "--type", "military", "--seed", 7,
        "--star", "Sgt. Mace", "-o", again)  # fmt: skip
    assert [f.rep for f in load_band(again).figures] == [f.rep for f in band.figures]


def test_new_with_entered_dice(tmp_path, capsys):
    path = tmp_path / "b.crband"
    status, out, err = run(
        capsys, "band", "new", "B", "--type", "police", "--grunts", 2, "--dice", "6,1", "-o", path
    )
    assert status == 0, err
    assert [f.rep for f in load_band(path).figures] == [5, 5, 3]
    assert "dice entered" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["new", "B", "--type", "pirates"], "--type: invalid choice: 'pirates'"),
        (["new", "B", "--type", "police", "--grunts", "5"], "the number of Grunts must be 0-4"),
        (["new", "B", "--type", "police", "--dice", "6,1"], "--dice: too few faces"),
        (["new", "B", "--type", "police", "--grunts", "1", "--dice", "6,1"], "1 face(s) left"),
        (["new", "B", "--type", "police", "--dice", "7,1,1,1"], "--dice: a d6 face is 1-6"),
        (["new", "B", "--type", "police", "--seed", "x"], "the seed must be a whole number"),
        (["new", " ", "--type", "police"], "NAME: give the Band a name"),
    ],
)
def test_new_refusals_write_nothing(tmp_path, capsys, argv, words):
    path = tmp_path / "b.crband"
    status, _, err = run(capsys, "band", *argv, "-o", path)
    assert status == 2
    assert words in err and len(err.strip().splitlines()) == 1
    assert not path.exists()


def test_new_does_not_overwrite_without_force(tmp_path, capsys):
    path = tmp_path / "b.crband"
    path.write_text("keep")
    status, _, err = run(capsys, "band", "new", "B", "--type", "police", "-o", path)
    assert status == 2 and "give --force" in err and path.read_text() == "keep"
    assert run(capsys, "band", "new", "B", "--type", "police", "-o", path, "--force")[0] == 0


def test_after_battle_round_trip(tmp_path, capsys, games):
    won, lost = games
    path = tmp_path / "mace.crband"
    save_band(band_of({}), path)
    before = path.read_bytes()
    # lost: Mace (left) 1,2 returns; Hicks (OOF) 1,6 returns; New Recruits 6,6 none;
    # Rep changes: Mace 1 -> Rep 4, Hicks 2, Vasquez (left Hicks behind) 2
    status, out, err = run(
        capsys, "band", "after-battle", path, "--game", lost, "--dice", "1,2,1,6,6,6,1,2,2"
    )
    assert status == 0, err
    assert "Sgt. Mace (left the battlefield) rolled 1,2 vs Rep 5: passed 2: returns" in out
    assert "Pvt. Hicks (went Out of the Fight) rolled 1,6 vs Rep 4: passed 1: returns" in out
    assert "New Recruits rolled 6,6 vs Rep 5 (6 fails): passed 0: no recruits" in out
    assert "Sgt. Mace: failure, rolled 1: Rep -1" in out
    band = load_band(path)
    assert band.star is not None and band.star.rep == 4 and band.size_limit == 4
    assert band.encounters[0]["outcome"] == "draw" and band.encounters[0]["game"] == "lost.crgame"
    assert (tmp_path / "mace.crband.bak").read_bytes() == before  # the Band as it went in
    # then the won game, from a seed, as JSON
    status, out, err = run(
        capsys, "band", "after-battle", path, "--game", won, "--seed", 3, "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["encounter"]["number"] == 2 and data["encounter"]["outcome"] == "won"
    assert data["records"]["star"]["success"] is True
    assert data["records"]["g1"] == {
        "scored_hit_or_meleed": False,
        "end_status": "carry_on",
        "left_oof_member_behind": False,
        "success": False,
        "failure": False,
    }
    assert data["seed"] == 3 and data["encounter"]["seed"] == 3
    assert data["rolls"][0]["section"] == "13.1"
    assert len(load_band(path).encounters) == 2
    status, out, _ = run(capsys, "band", "show", path)
    assert "Encounters:" in out and "1. " in out and "2. " in out


def test_after_battle_refusals_leave_the_band_untouched(tmp_path, capsys, games):
    won, _ = games
    path = tmp_path / "b.crband"
    save_band(band_of({}), path)
    before = path.read_bytes()
    bad_game = tmp_path / "bad.crgame"
    bad_game.write_text("{}")
    stranger = tmp_path / "x.crband"
    band = band_of({})
    band.figures = [BandFigure("zz", "Z", 5, role=band.figures[0].role)]
    save_band(band, stranger)
    cases = [
        ([path, "--game", bad_game], "bad.crgame"),
        ([path, "--game", tmp_path / "none.crgame"], "no such file"),
        ([path, "--game", won, "--dice", "1"], "--dice: too few faces"),
        ([path, "--game", won, "--dice", "6,6,1,1"], "1 face(s) left over"),
        ([stranger, "--game", won], "none of Mace's Patrol's members (zz)"),
        ([tmp_path / "none.crband", "--game", won], "none.crband: no such file"),
    ]
    for argv, words in cases:
        status, _, err = run(capsys, "band", "after-battle", *argv)
        assert status == 2, (argv, err)
        assert words in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == before


def test_show_refuses_a_hostile_file_with_its_path(tmp_path, capsys):
    path = tmp_path / "b.crband"
    save_band(band_of({}), path)
    doc = json.loads(path.read_text())
    doc["figures"][2]["rep"] = 21
    path.write_text(json.dumps(doc))
    status, _, err = run(capsys, "band", "show", path)
    assert status == 2
    assert "figures[2].rep: expected a Rep, an integer 2..20, got 21" in err
