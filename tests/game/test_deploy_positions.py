"""The player deploys (issue 30, Deliver 4, headless first): positions given figure by
figure are checked against the encounter's zone (12.1.4, 12.2: entering at the player's
edge of sections 7-9; 12.3: anywhere in sections 7-9) and refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import Point

from crdesk.band import BandType, new_band, save_band
from crdesk.cli import main
from crdesk.dice import CounterDice
from crdesk.game.deployment import ENTRY_STRIP, deploy_at, deployment_zone, placement_problem
from crdesk.game.savefile import load_game
from crdesk.generator import generate
from crdesk.model import Building, EncounterType, Figure

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


URBAN = generate(2, 36, 36, "urban", encounter="defend")
"""Building 15 stands in section 8 (x 15.5-20.5, y 27.1-32.9), with doors and windows."""


def _building(name: str) -> Building:
    return next(f for f in URBAN.battlefield.terrain if f.name == name)


def test_defend_sets_up_inside_buildings() -> None:
    """12.3: "set up anywhere in sections 7-9" -- a building's inside as well (8.1-8.3:
    figures stand in buildings); found refused by an outside check (hunt 3, F5)."""
    house = _building("Building 15")
    inside = (18.0, 30.0)
    assert Point(inside).buffer(fig().radius).within(house.outline)
    assert placement_problem(URBAN, EncounterType.DEFEND, fig(), inside, []) is None
    done = deploy_at(URBAN, [fig("a"), fig("b")], EncounterType.DEFEND,
                     {"a": inside, "b": (17.0, 29.0)})  # fmt: skip
    assert {(f.x, f.y) for f in done.battlefield.figures()} >= {inside, (17.0, 29.0)}
    zone = deployment_zone(URBAN, EncounterType.DEFEND)
    assert zone.contains(Point(inside)) and not zone.contains(Point(15.5, 30.0))


def test_a_base_may_not_straddle_a_building_s_wall() -> None:
    on_wall = (15.6, 30.0)  # the west wall runs along x = 15.5
    why = placement_problem(URBAN, EncounterType.DEFEND, fig(), on_wall, [])
    assert why is not None and "Building 15" in why and "wall" in why, why


def test_patrol_and_raid_enter_by_the_edge_so_start_outside_buildings() -> None:
    """12.1.4, 12.2: they enter by the player's edge -- a building's inside is not the edge."""
    table = generate(3, 36, 36, "urban", encounter="patrol")
    houses = [f for f in table.battlefield.terrain if isinstance(f, Building)]
    spot = (30.0, 34.6)  # inside a building on the player's edge
    assert any(Point(spot).buffer(fig().radius).within(h.outline) for h in houses)
    why = placement_problem(table, EncounterType.PATROL, fig(), spot, [])
    assert why is not None and "enters by the player's edge" in why, why
