"""The player deploys (issue 30, Deliver 4, headless first): positions given figure by
figure are checked against the encounter's zone (12.1.4, 12.2: entering at the player's
edge of sections 7-9; 12.3: anywhere in sections 7-9) and refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdesk.band import BandType, new_band, save_band
from crdesk.cli import main
from crdesk.dice import CounterDice
from crdesk.game.deployment import ENTRY_STRIP, deploy_at, placement_problem
from crdesk.game.savefile import load_game
from crdesk.generator import generate
from crdesk.model import EncounterType, Figure

TABLE = generate(3, 36, 36, "clear", encounter="patrol")


def fig(fid: str = "a") -> Figure:
    return Figure(fid, fid, 4)


@pytest.mark.parametrize(
    ("kind", "spot", "words"),
    [
        (EncounterType.PATROL, (18.0, 35.0), None),
        (EncounterType.PATROL, (18.0, 36.0 - ENTRY_STRIP - 1.0), "within 3\" of the player's edge"),
        (EncounterType.PATROL, (18.0, 10.0), "sections 7-9"),
        (EncounterType.DEFEND, (18.0, 28.0), None),
        (EncounterType.DEFEND, (18.0, 20.0), "sections 7-9"),
        (EncounterType.RAID, (40.0, 35.0), "off the table"),
    ],
)
def test_a_spot_is_in_the_encounter_s_zone_or_says_why(
    kind: EncounterType, spot: tuple[float, float], words: str | None
) -> None:
    why = placement_problem(TABLE, kind, fig(), spot, [])
    assert why is None if words is None else (why is not None and words in why), why


def test_bases_may_not_overlap() -> None:
    why = placement_problem(TABLE, EncounterType.PATROL, fig("b"), (18.5, 35.0), [fig("a")])
    assert why is None  # the other is not placed yet (at 0, 0)
    placed = Figure("a", "a", 4, x=18.0, y=35.0)
    why = placement_problem(TABLE, EncounterType.PATROL, fig("b"), (18.5, 35.0), [placed])
    assert why is not None and "touches a" in why


def test_deploy_at_places_the_figures_or_refuses_with_every_reason() -> None:
    figures = [fig("a"), fig("b")]
    done = deploy_at(TABLE, figures, EncounterType.PATROL, {"a": (10, 35), "b": (12, 35)})
    places = {f.id: (f.x, f.y) for f in done.battlefield.figures() if f.id in ("a", "b")}
    assert places == {"a": (10.0, 35.0), "b": (12.0, 35.0)}
    with pytest.raises(ValueError, match=r"b: .*sections 7-9") as info:
        deploy_at(TABLE, figures, EncounterType.PATROL, {"a": (10, 35), "b": (12, 5)})
    assert "a:" not in str(info.value)
    with pytest.raises(ValueError, match="no place given for b"):
        deploy_at(TABLE, figures, EncounterType.PATROL, {"a": (10, 35)})


def test_game_new_deploys_the_band_where_the_file_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    band, _ = new_band("Raiders", BandType.MILITARY, CounterDice(1), seed=1)
    band_file = tmp_path / "r.crband"
    save_band(band, band_file)
    spots = {f.id: [6 + 2 * k, 35] for k, f in enumerate(band.active)}
    places = tmp_path / "places.json"
    places.write_text(json.dumps(spots), encoding="utf-8")
    game = tmp_path / "g.crgame"
    argv = ["game", "new", "--band", str(band_file), "--generate", "clear", "--seed", "2"]
    assert main([*argv, "--deploy", str(places), "-o", str(game)]) == 0, capsys.readouterr().err
    loaded = load_game(game).game
    got = {f.id: [f.x, f.y] for f in loaded.battlefield.figures() if f.id in spots}
    assert got == {k: [float(v[0]), float(v[1])] for k, v in spots.items()}
    spots[band.active[0].id] = [18, 5]
    places.write_text(json.dumps(spots), encoding="utf-8")
    capsys.readouterr()
    assert main([*argv, "--deploy", str(places), "-o", str(tmp_path / "h.crgame")]) == 2
    err = capsys.readouterr().err
    assert "sections 7-9" in err and not (tmp_path / "h.crgame").exists()
