"""The Band between encounters: the .crband file, starting a Band (6.1, 6.1.1), what each
figure did in a game (13.2/13.3), and the after-the-battle (7.13, 13.1, 12's next
encounter), with scripted dice on games played in the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdesk.band import (
    GONE,
    KILLED,
    LEFT,
    MAX_FILE_BYTES,
    AfterBattleError,
    Band,
    BandFigure,
    BandFileError,
    after_battle,
    band_figures,
    dumps_band,
    encounter_reasons,
    encounter_records,
    encounter_tallies,
    load_band,
    loads_band,
    new_band,
    save_band,
)
from crdesk.dice import CounterDice, ScriptedDice
from crdesk.game.actions import DiceFaces
from crdesk.game.controller import Game
from crdesk.game.settings import GameSettings
from crdesk.model import BandType, EncounterType, Role, Status, WeaponCode
from crdesk.rules.campaign import EncounterRecord, next_encounter
from tests.game.games import scenario
from tests.game.test_game_data import play_case

GAMES = Path(__file__).parent / "data" / "games"

# --------------------------------------------------------------------------
# Two short games played with real (entered) dice


def _scenario():
    return scenario(
        {
            "table": [24, 24],
            "forces": [
                {
                    "id": "p",
                    "player": True,
                    "figures": [
                        {
                            "id": "star",
                            "name": "Sgt. Mace",
                            "rep": 5,
                            "role": "star",
                            "at": [12, 20],
                        },
                        {"id": "g1", "name": "Pvt. Hicks", "rep": 4, "at": [14, 20]},
                        {"id": "g2", "name": "Pvt. Vasquez", "rep": 4, "at": [2, 23]},
                    ],
                },
                {
                    "id": "e",
                    "figures": [
                        {"id": "e1", "name": "Knuckles", "rep": 5, "at": [14, 6], "facing": 180}
                    ],
                },
            ],
        }
    )


def _play(steps: list[tuple[str, list[int]]], max_turns: int = 1) -> Game:
    game = Game.new(_scenario(), seed=0, dice="manual", settings=GameSettings(max_turns=max_turns))
    for action, faces in steps:
        if action == "dice":
            game.play(DiceFaces(tuple(faces)))
        else:
            game.play(action, faces=faces)
    return game


def won_game() -> Game:
    """Hicks fires and misses; Knuckles ducks back; Mace's shot kills him: the Band wins."""
    return _play(
        [
            ("dice", [5, 1]),
            ("activate star", []),
            ("fire g1 at e1:3", [1, 1, 2, 6, 6]),
            ("duckback e1 auto", []),
            ("fire star at e1:3", [6, 1, 1, 6]),
        ]
    )


def lost_game() -> Game:
    """Knuckles puts Hicks Out of the Fight; Mace (Free Will 0) leaves the battlefield at
    the Man Down; Vasquez, out of reach, passes; the one turn ends: a draw."""
    return _play(
        [
            ("dice", [1, 5]),
            ("activate e1", []),
            ("fire e1 at g1:3", [6, 1, 1, 5]),
            ("freewill star 0", []),
            ("end", []),
            ("pass", []),
        ]
    )


@pytest.fixture(scope="module")
def won() -> Game:
    return won_game()


@pytest.fixture(scope="module")
def lost() -> Game:
    return lost_game()


def band_of(reps: dict[str, int], *, extra: int = 0) -> Band:
    """Mace's Band with the game's three figures (Reps as given) and ``extra`` more Grunts
    who stayed at home."""
    figures = [
        BandFigure("star", "Sgt. Mace", reps.get("star", 5), role=Role.STAR),
        BandFigure("g1", "Pvt. Hicks", reps.get("g1", 4)),
        BandFigure("g2", "Pvt. Vasquez", reps.get("g2", 4)),
    ]
    figures += [BandFigure(f"h{k}", f"Home {k}", 3, joined=k) for k in range(1, extra + 1)]
    return Band("Mace's Patrol", BandType.MILITARY, figures)


# --------------------------------------------------------------------------
# Starting a Band (6.1, 6.1.1)


@pytest.mark.parametrize(
    ("band_type", "faces", "reps", "weapons"),
    [
        (BandType.MILITARY, [1, 2, 5, 6], [3, 4, 5, 5], ["AR", "AR", "AR", "SAW", "AR"]),
        (BandType.GANGER, [1, 2, 3, 6], [3, 3, 4, 5], ["P", "SG", "P", "SG", "P"]),
        (BandType.POLICE, [2, 5, 1, 6], [4, 4, 3, 5], ["P", "SG", "SMG", "P", "SG"]),
        (BandType.MILITIA, [2, 3, 4, 5], [3, 4, 4, 4], ["AR", "BAR", "AR", "BAR", "AR"]),
        (BandType.GUERILLA, [6, 6, 6, 6], [5, 5, 5, 5], ["AR"] * 5),
    ],
)
def test_new_band_recruits_on_the_band_types_column(band_type, faces, reps, weapons):
    dice = ScriptedDice(faces)
    band, lines = new_band("B", band_type, dice, star_name="Sgt. Mace")
    assert dice.remaining == 0
    assert [f.rep for f in band.figures] == [5, *reps]
    assert [f.weapon.value for f in band.figures] == weapons
    assert band.star is not None and band.star.name == "Sgt. Mace" and band.size_limit == 5
    assert band.created["dice"] == faces
    assert f"Recruiting ({band_type.value}) rolled {faces[0]}: Rep {reps[0]}" in lines[1]


def test_new_band_size_is_up_to_the_stars_rep():
    band, _ = new_band("B", BandType.MILITARY, ScriptedDice([4, 4]), grunts=2)
    assert len(band.active) == 3
    with pytest.raises(ValueError, match="0-4 Grunts"):
        new_band("B", BandType.MILITARY, ScriptedDice([4] * 5), grunts=5)


def test_new_band_from_a_seed_is_reproducible():
    a, _ = new_band("B", BandType.POLICE, CounterDice(11), seed=11, date="2026-12-01", uid="a" * 32)
    b, _ = new_band("B", BandType.POLICE, CounterDice(11), seed=11, date="2026-12-01", uid="a" * 32)
    assert dumps_band(a) == dumps_band(b)
    replayed, _ = new_band("B", BandType.POLICE, ScriptedDice(a.created["dice"]), date="2026-12-01")
    assert [f.rep for f in replayed.figures] == [f.rep for f in a.figures]


def test_two_bands_made_alike_are_still_two_bands(tmp_path):
    """A game records its Band's identity (14): two Bands recruited with the same seed
    on the same day are different Bands, so each takes only its own games."""
    a, _ = new_band("B", BandType.POLICE, CounterDice(11), seed=11, date="2026-12-01")
    b, _ = new_band("B", BandType.POLICE, CounterDice(11), seed=11, date="2026-12-01")
    assert a.identity != b.identity
    save_band(a, tmp_path / "a.crband")
    assert load_band(tmp_path / "a.crband").identity == a.identity


def test_a_band_from_before_its_id_keeps_the_identity_of_its_making():
    """Files written before Bands had an id still know their games (the hash of how
    the Band was made, as those games recorded it)."""
    band = load_band(Path(__file__).parent / "data" / "bands" / "before-issue-30.crband")
    assert "id" not in band.created
    assert band.identity == "d4d2a4858e90864a"


def test_band_figures_for_deployment():
    band, _ = new_band("B", BandType.MILITARY, ScriptedDice([1, 2, 3, 6]))
    band.figures[2].status = KILLED
    figs = band_figures(band, "p")
    assert [f.id for f in figs] == ["star", "g1", "g3", "g4"]
    assert all(f.side == "p" for f in figs)
    assert figs[0].role is Role.STAR and figs[0].star_power == 5
    assert figs[1].star_power is None and figs[2].weapon is WeaponCode.SAW
    force = band.to_force("p")
    assert force.player and force.band is BandType.MILITARY and len(force.figures) == 4


# --------------------------------------------------------------------------
# The file


def test_save_and_load_round_trip(tmp_path):
    band, _ = new_band("Mace's Patrol", BandType.MILITARY, ScriptedDice([1, 2, 3, 6]))
    path = tmp_path / "mace.crband"
    save_band(band, path)
    again = load_band(path)
    assert again == band
    assert dumps_band(again) == path.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name != "mace.crband"]  # no temp left


def _doc() -> dict:
    band, _ = new_band("B", BandType.MILITARY, ScriptedDice([1, 2, 3, 6]))
    return json.loads(dumps_band(band))


def _refused(doc_or_bytes) -> str:
    raw = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes).encode()
    with pytest.raises(BandFileError) as err:
        loads_band(raw, source="x.crband")
    return str(err.value)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda d: d["figures"][2].update(rep=21),
            "figures[2].rep: expected a Rep, an integer 2..20, got 21",
        ),
        (
            lambda d: d["figures"][1].update(rep="five"),
            'figures[1].rep: expected a Rep, an integer 2..20, got "five"',
        ),
        (
            lambda d: d["figures"][1].update(weapon="laser"),
            "figures[1].weapon: expected a weapon: one of",
        ),
        (
            lambda d: d["figures"][3].update(repp=4),
            'figures[3].repp: unknown field (did you mean "rep"?)',
        ),
        (lambda d: d.update(band_type="pirates"), "band_type: expected a band type"),
        (lambda d: d.pop("name"), "name: required field is missing"),
        (lambda d: d.update(kind="crdesk-scenario"), 'kind: expected "crdesk-band"'),
        (
            lambda d: d["figures"][2].update(id="g1"),
            "figures[2].id: 'g1' is already used by figures[1]",
        ),
        (lambda d: d["figures"][1].update(role="star"), "figures[1].role: a Band has one Star"),
        (
            lambda d: d["figures"][0].update(role="grunt"),
            "figures: a Band has one Star (6.1); none found",
        ),
        (lambda d: d["figures"][0].update(rep=4), "figures[4].rep: 5 is above the Star's Rep 4"),
        (
            lambda d: d["figures"].append({**d["figures"][1], "id": "g9"}),
            "figures: 6 active members; a Band may be up to the Star's Rep (5)",
        ),
        (lambda d: d.update(format_version=7), "format_version: made by a newer crdesk"),
        (
            lambda d: d["figures"][1]["history"].append({"encounter": 1}),
            "figures[1].history[1].event: required",
        ),
    ],
)
def test_bad_fields_are_refused_with_their_path(edit, words):
    doc = _doc()
    edit(doc)
    assert words in _refused(doc)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\x00\x01binary", "a binary file"),
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b'{"name": "B", ', "not valid JSON at line 1"),
        (b'{"format_version": NaN}', "NaN is not allowed in a Band file"),
        (b"[1, 2]", "expected a JSON object (a crdesk Band), got a list"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested more than 16 levels"),
        (b"[" * 100_000 + b"]" * 100_000, "too deeply"),
    ],
)
def test_hostile_bytes_are_refused(raw, words):
    assert words in _refused(raw)


def test_a_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.crband"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(BandFileError, match="Band files over 2 MB are refused"):
        load_band(path)
    with pytest.raises(BandFileError, match="no such file"):
        load_band(tmp_path / "none.crband")


def test_a_band_crdesk_would_refuse_is_never_written(tmp_path):
    band, _ = new_band("B", BandType.MILITARY, ScriptedDice([1, 2, 3, 6]))
    path = tmp_path / "b.crband"
    save_band(band, path)
    before = path.read_bytes()
    band.figures[1].id = "star"
    with pytest.raises(BandFileError, match="already used"):
        save_band(band, path)
    assert path.read_bytes() == before


# --------------------------------------------------------------------------
# What each figure did (13.2/13.3), from real game logs


def test_records_of_a_won_game(won):
    assert won.outcome is not None and won.outcome.winner == "p"
    assert encounter_records(won) == {
        "star": EncounterRecord(scored_hit_or_meleed=True),  # fired and hit
        "g1": EncounterRecord(),  # fired and missed: neither
        "g2": EncounterRecord(),  # did nothing
    }
    assert encounter_records(won, "e") == {
        "e1": EncounterRecord(end_status=Status.OUT_OF_THE_FIGHT)
    }


def test_records_of_a_lost_game(lost):
    assert lost.outcome is not None and lost.outcome.winner is None
    assert encounter_records(lost) == {
        "star": EncounterRecord(end_status=Status.LEAVE_THE_BATTLEFIELD),
        "g1": EncounterRecord(end_status=Status.OUT_OF_THE_FIGHT),
        # Hicks lies Out of the Fight on the field the Band did not hold
        "g2": EncounterRecord(left_oof_member_behind=True),
    }
    assert encounter_records(lost, "e") == {"e1": EncounterRecord(scored_hit_or_meleed=True)}


def test_records_of_a_melee_and_a_grenade():
    melee = play_case(json.loads((GAMES / "charge_and_melee.json").read_text()))
    assert encounter_records(melee)["p1"].success
    assert encounter_records(melee, "e")["e1"] == EncounterRecord(
        scored_hit_or_meleed=True, end_status=Status.OUT_OF_THE_FIGHT
    )
    grenade = play_case(json.loads((GAMES / "grenade_blast.json").read_text()))
    assert encounter_records(grenade)["p1"] == EncounterRecord(scored_hit_or_meleed=True)


def test_reasons_say_what_each_did_and_when(won, lost):
    """13.2/13.3's verdict for each figure in words a player can check against the table."""
    said = encounter_reasons(won)
    enemy = won.battlefield.figure("e1").name
    assert said["star"] == (
        f"fired and hit {enemy} in turn 1; stayed in the fight; left no Band member behind "
        "→ success"
    )
    assert said["g1"].startswith("scored no hit and fought no melee;")
    assert said["g1"].endswith("→ neither")
    gone = encounter_reasons(lost)
    assert gone["star"].endswith("left the battlefield → failure")
    assert "went Out of the Fight" in gone["g1"]
    assert gone["g2"].endswith("left an Out of the Fight Band member behind → failure")
    melee = play_case(json.loads((GAMES / "charge_and_melee.json").read_text()))
    assert encounter_reasons(melee)["p1"].startswith("fought a melee in turn 1;")
    grenade = play_case(json.loads((GAMES / "grenade_blast.json").read_text()))
    assert encounter_reasons(grenade)["p1"].startswith("its blast hit ")


def test_tallies_count_hits_and_enemies_taken_out(won):
    assert encounter_tallies(won) == {"star": (1, 1), "g1": (0, 0), "g2": (0, 0)}
    ab = after_battle(band_of({"star": 5, "g1": 4, "g2": 4}), won, ScriptedDice([6] * 40))
    assert ab.entry["tally"] == {"star": [1, 1], "g1": [0, 0], "g2": [0, 0]}
    assert ab.band.tally("star") == (1, 1) and ab.band.tally("nobody") == (0, 0)
    again = loads_band(dumps_band(ab.band))  # the tally is in the file
    assert again.tally("star") == (1, 1)
    star = again.figure("star")
    assert star.rep_history()[-1] == star.rep


def test_rep_history_follows_each_change():
    band, _ = new_band("B", BandType.MILITARY, ScriptedDice([4, 4]), grunts=2)
    star = band.star
    assert star is not None and star.rep_history() == [5]  # joined at 5
    star.history.append({"encounter": 1, "event": "rep_increase", "text": "", "rep": 6})
    star.history.append({"encounter": 2, "event": "no_change", "text": "", "rep": 6})
    star.rep = 5
    assert star.rep_history() == [5, 6, 5]


def test_rep_change_lines_give_the_reason(won):
    ab = after_battle(band_of({"star": 5, "g1": 4, "g2": 4}), won, ScriptedDice([6] * 40))
    star = next(line for line in ab.lines if ": success" in line)
    assert "fired and hit" in star and "in turn 1" in star and "→ success" in star


# --------------------------------------------------------------------------
# After the battle


def test_after_the_won_game(won):
    band = band_of({})
    # 13.1: 1,2 vs Rep 5 passes 2: to full strength, two Grunts at 6 and 3 (Rep 5, 4);
    # Mace succeeded: 6 raises him to Rep 6.  Hicks and Vasquez neither: no roll.
    dice = ScriptedDice([1, 2, 6, 3, 6])
    ab = after_battle(band, won, dice, seed=None, game_name="won.crgame", date="2026-12-01")
    assert dice.remaining == 0
    new = ab.band
    assert [(f.id, f.rep, f.status) for f in new.figures] == [
        ("star", 6, "active"),
        ("g1", 4, "active"),
        ("g2", 4, "active"),
        ("g3", 5, "active"),
        ("g4", 4, "active"),
    ]
    assert new.figures[3].joined == 1 and new.figures[3].weapon is WeaponCode.SAW
    assert [f.encounters_played for f in new.figures] == [1, 1, 1, 0, 0]
    assert band.figures[0].rep == 5  # the Band given is not changed
    entry = new.encounters[0]
    assert entry["outcome"] == "won" and entry["number"] == 1 and entry["date"] == "2026-12-01"
    assert entry["dice"] == [1, 2, 6, 3, 6] and entry["game"] == "won.crgame"
    text = "\n".join(ab.lines)
    assert "New Recruits rolled 1,2 vs Rep 5 (6 fails): passed 2: recruit to full strength" in text
    assert "Sgt. Mace: success, rolled 6 vs Rep 5: Rep +1" in text
    assert "Pvt. Hicks: neither a success nor a failure" in text
    assert new.figures[0].history[-1]["event"] == "rep_increase"
    assert new.next_encounter is None  # free play
    assert loads_band(dumps_band(new)) == new


@pytest.mark.parametrize(
    ("faces", "joined"),
    [((1, 2), 2), ((1, 6), 1), ((6, 1), 1), ((5, 6), 1), ((6, 6), 0)],
)
def test_new_recruits_rows(won, faces, joined):
    dice = ScriptedDice([*faces, *[4] * joined, 1])
    ab = after_battle(band_of({}), won, dice)
    assert dice.remaining == 0
    assert len(ab.band.active) == 3 + joined


def test_no_recruits_beyond_the_size_limit(won):
    dice = ScriptedDice([1, 2, 1])  # full strength already: none join; Mace rolls 1
    ab = after_battle(band_of({}, extra=2), won, dice)
    assert len(ab.band.active) == 5 and dice.remaining == 0
    assert "0 join" in "\n".join(ab.lines)


@pytest.mark.parametrize(
    ("face", "rep", "new"),
    [(6, 5, 6), (5, 5, 5), (5, 4, 5), (4, 4, 4), (6, 6, 7), (6, 9, 10)],
)
def test_rep_change_on_success(won, face, rep, new):
    dice = ScriptedDice([6, 6, face])  # no recruits, then Mace's roll
    ab = after_battle(band_of({"star": rep}), won, dice)
    assert ab.band.figures[0].rep == new


@pytest.mark.parametrize(
    ("star_faces", "hicks_faces", "star_back", "hicks_back"),
    [
        ((1, 2), (1, 2), True, True),  # pass 2: both return
        ((1, 2), (1, 6), True, True),  # pass 1: Out of the Fight returns
        ((1, 2), (5, 6), True, False),  # pass 0: does not return
        ((1, 6), (1, 2), False, True),  # pass 1: who left the battlefield does not
        ((6, 6), (1, 2), False, True),
    ],
)
def test_recovery_rows(lost, star_faces, hicks_faces, star_back, hicks_back):
    band = band_of({})
    rest = [6, 6] if star_back else []  # New Recruits only when the Star is back
    # failures roll (a 2 keeps the Rep); a Band without its Star rolls nothing more
    changes = [2] * (int(hicks_back) + 2) if star_back else []
    dice = ScriptedDice([*star_faces, *hicks_faces, *rest, *changes])
    ab = after_battle(band, lost, dice)
    assert dice.remaining == 0
    statuses = {f.id: f.status for f in ab.band.figures}
    assert statuses["star"] == ("active" if star_back else GONE)
    assert statuses["g1"] == ("active" if hicks_back else GONE)
    assert ab.band.ended is (not star_back)
    text = "\n".join(ab.lines)
    assert (
        f"Sgt. Mace (left the battlefield) rolled {star_faces[0]},{star_faces[1]} vs Rep 5" in text
    )
    assert "Pvt. Hicks (went Out of the Fight) rolled" in text
    if not star_back:
        assert "the Band's story is over" in text
        with pytest.raises(AfterBattleError, match="story is over"):
            after_battle(ab.band, lost, ScriptedDice([]))


def test_failures_lose_rep_never_below_2_and_the_band_shrinks_with_its_star(lost):
    # Mace returns and fails (1: Rep 5 -> 4); Hicks returns and fails (1: 4 -> 3);
    # Vasquez left Hicks behind at Rep 2: the 1 leaves him at 2.  With a Rep 4 Star the
    # Band is 4 figures: Home 2, the last to join, leaves; Home 1 stays.
    band = band_of({"g2": 2}, extra=2)
    dice = ScriptedDice([1, 2, 1, 2, 1, 1, 1, 1, 1])
    ab = after_battle(band, lost, dice)
    assert dice.remaining == 0
    assert [(f.id, f.rep, f.status) for f in ab.band.figures] == [
        ("star", 4, "active"),
        ("g1", 3, "active"),
        ("g2", 2, "active"),
        ("h1", 3, "active"),
        ("h2", 3, LEFT),
    ]
    text = "\n".join(ab.lines)
    assert "Pvt. Vasquez: failure, rolled 1: no change (never below 2)" in text
    assert "left an Out of the Fight Band member behind" in text
    assert "Home 2, the last to join, leaves (6.1)" in text


def test_a_grunt_above_the_stars_new_rep_leaves(lost):
    band = band_of({"g2": 5})
    dice = ScriptedDice([1, 2, 1, 2, 6, 6, 1, 2, 2])  # Mace back, fails with a 1: Rep 4
    ab = after_battle(band, lost, dice)
    assert ab.band.figure("g2").status == LEFT
    assert "is above the Star's Rep 4 and leaves the Band" in "\n".join(ab.lines)


def test_killed_members_leave_the_roster_without_rolls():
    game = play_case(json.loads((GAMES / "charge_and_melee.json").read_text()))
    band = Band(
        "Knuckles' gang",
        BandType.GANGER,
        [BandFigure("e1", "Knuckles", 4, role=Role.STAR), BandFigure("e9", "Shiv", 3)],
    )
    ab = after_battle(band, game, ScriptedDice([]))
    assert ab.band.figure("e1").status == KILLED and ab.band.ended
    assert ab.band.figure("e9").status == "active"  # stayed at home: untouched


def test_next_encounter_table():
    table = {
        (EncounterType.PATROL, True): EncounterType.RAID,
        (EncounterType.PATROL, False): EncounterType.DEFEND,
        (EncounterType.RAID, True): EncounterType.RAID,
        (EncounterType.RAID, False): EncounterType.PATROL,
        (EncounterType.DEFEND, True): EncounterType.PATROL,
        (EncounterType.DEFEND, False): EncounterType.DEFEND,
    }
    for (played, won), following in table.items():
        assert next_encounter(played, won) is following
    assert next_encounter(EncounterType.FREE, True) is None


def test_the_history_entry_names_the_next_encounter():
    game = won_game()
    game.scenario.encounter.type = EncounterType.PATROL  # as if played as a Patrol
    ab = after_battle(band_of({}), game, ScriptedDice([6, 6, 2]))
    assert ab.entry["type"] == "patrol" and ab.entry["next"] == "raid"
    assert ab.band.next_encounter is EncounterType.RAID
    assert "Next encounter: Raid" in ab.lines[-1]


def test_after_battle_refuses_an_unfinished_game_or_a_stranger():
    game = _play([("dice", [5, 1])])
    with pytest.raises(AfterBattleError, match="not over"):
        after_battle(band_of({}), game, ScriptedDice([]))
    done = won_game()
    stranger = Band("X", BandType.POLICE, [BandFigure("zz", "Z", 5, role=Role.STAR)])
    with pytest.raises(AfterBattleError, match="none of X's members"):
        after_battle(stranger, done, ScriptedDice([]))


def test_after_battle_from_a_seed_is_reproducible(lost):
    a = after_battle(band_of({}), lost, CounterDice(5), seed=5, date="2026-12-01")
    b = after_battle(band_of({}), lost, CounterDice(5), seed=5, date="2026-12-01")
    assert dumps_band(a.band) == dumps_band(b.band)
    c = after_battle(band_of({}), lost, ScriptedDice(a.entry["dice"]), date="2026-12-01")
    assert [(f.rep, f.status) for f in c.band.figures] == [
        (f.rep, f.status) for f in a.band.figures
    ]


@pytest.mark.parametrize(
    ("name", "outcome", "following"),
    [("encounter_patrol_won", "won", "raid"), ("encounter_patrol_lost", "lost", "defend")],
)
def test_a_patrol_that_leaves_by_its_edge(name, outcome, following):
    """Walking off by the entry edge ends a Patrol: it is not leaving the battlefield
    (no Recovery, no failure), and the game's objective decides the next encounter."""
    game = play_case(json.loads((GAMES / f"{name}.json").read_text()))
    records = encounter_records(game)
    assert records and all(r == EncounterRecord() for r in records.values())
    band = Band(
        "Scouts",
        BandType.MILITARY,
        [
            BandFigure(fid, fid, 5 if n == 0 else 4, role=Role.STAR if n == 0 else Role.GRUNT)
            for n, fid in enumerate(records)
        ],
    )
    dice = ScriptedDice([6, 6])  # New Recruits only: nobody to recover, no Rep rolls
    ab = after_battle(band, game, dice)
    assert dice.remaining == 0
    assert ab.entry["type"] == "patrol" and ab.entry["outcome"] == outcome
    assert ab.entry["next"] == following and ab.band.next_encounter is EncounterType(following)


def test_a_pipe_or_device_is_refused_without_reading(tmp_path: Path) -> None:
    """A FIFO would block the open and /dev/zero never ends (issue 17, item 16)."""
    import os

    fifo = tmp_path / "band.crband"
    os.mkfifo(fifo)
    with pytest.raises(BandFileError, match="a device or pipe, not a Band file"):
        load_band(fifo)
    with pytest.raises(BandFileError, match="a device or pipe"):
        load_band("/dev/zero")


def test_a_star_who_cheated_death_is_safe_and_takes_no_recovery_test():
    """Cheating Death removes the Star "to safety" for one Rep (5.2): not a figure that
    left the battlefield, who may not return (7.13).  Dice that would have failed the
    Recovery test (6, 6) are the New Recruits' roll."""
    game = play_case(json.loads((GAMES / "cheat_death_removed_to_safety.json").read_text()))
    band = Band(
        "Mace's Patrol", BandType.MILITARY, [BandFigure("p1", "Sgt. Mace", 5, role=Role.STAR)]
    )
    dice = ScriptedDice([6, 6, 6])
    ab = after_battle(band, game, dice)
    star = ab.band.figure("p1")
    assert (star.status, star.rep) == ("active", 4)
    assert not ab.band.ended
    text = "\n".join(ab.lines)
    assert "Sgt. Mace cheated death: Rep now 4 (5.2)." in text
    assert "Sgt. Mace cheated death: removed to safety, no Recovery test (5.2, 7.13)." in text
    assert "(left the battlefield) rolled" not in text


@pytest.mark.parametrize("seed", [123_456_789, 2**31 - 2, 1_135_684_885_688_446_969])
def test_a_game_of_any_seed_goes_into_the_band(won, seed, tmp_path):
    """The game's seed is kept in the Band's story as the game file keeps it (a whole
    number below 2**63): the GUI's seeds run to 2**31 and ``crdesk simulate``'s to 2**63,
    and a Band file capped at a million refused nearly every game taken into it."""
    game = Game.replay(
        won.scenario, won.history, seed=seed, dice=won.dice_mode, settings=won.settings
    )
    ab = after_battle(band_of({}), game, ScriptedDice([6] * 40))
    path = tmp_path / "mace.crband"
    save_band(ab.band, path)
    assert load_band(path).encounters[0]["game_seed"] == seed
