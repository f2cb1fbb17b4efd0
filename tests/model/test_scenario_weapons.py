"""User weapon cards in the scenario file (Firearms Detail, FD §2): an optional
``weapons`` list and a figure's ``weapon_card``, round trips, path-named errors,
hostile files."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from crdesk import scenario as io
from crdesk.errors import ModelError, ScenarioFormatError
from crdesk.model import Battlefield, Figure, Force, Scenario, Table, WeaponCode
from crdesk.rules.firearms.cards import WeaponCard, figure_card, parse_cards
from crdesk.rules.firearms.tables import AmmoType, FireMode

GLOCK = {"name": "Glock 17", "category": "P", "magazine": 17, "spare_magazines": 2}
REMINGTON = {
    "name": "Remington 870",
    "category": "SG",
    "modes": ["pump"],
    "magazine": 6,
    "ammo": "buckshot",
    "knockdown": 2,
}


def _doc(weapons: Any = None, **figure: Any) -> dict[str, Any]:
    fig = {"id": "a1", "rep": 4, "position": [5, 5], **figure}
    doc: dict[str, Any] = {
        "format_version": 1,
        "table": {"width": 24, "height": 24},
        "terrain": [],
        "forces": [{"id": "blue", "player": True, "figures": [fig]}],
    }
    if weapons is not None:
        doc["weapons"] = weapons
    return doc


def _problems(doc: dict[str, Any]) -> list[str]:
    return [str(p) for p in io.check_document(doc)]


def test_a_file_without_weapons_loads_and_saves_without_them() -> None:
    scenario = io.from_document(_doc())
    assert scenario.weapons == ()
    out = io.to_document(scenario)
    assert "weapons" not in out
    assert "weapon_card" not in out["forces"][0]["figures"][0]


def test_user_weapons_round_trip_with_the_figure_naming_one(tmp_path: Path) -> None:
    scenario = io.from_document(_doc([GLOCK, REMINGTON], weapon="P", weapon_card="Glock 17"))
    glock, remington = scenario.weapons
    assert glock == WeaponCard("Glock 17", "P", (FireMode.SEMI,), 17, spare_magazines=2)
    assert remington.ammo is AmmoType.BUCKSHOT and remington.knockdown == 2
    fig = scenario.battlefield.figure("a1")
    assert fig.weapon_card == "Glock 17"
    assert figure_card(fig.weapon, fig.weapon_card, scenario.weapon_cards) is glock
    path = tmp_path / "w.crdesk"
    io.save(scenario, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert [w["name"] for w in saved["weapons"]] == ["Glock 17", "Remington 870"]
    assert saved["weapons"][0]["magazine"] == 17
    assert saved["forces"][0]["figures"][0]["weapon_card"] == "Glock 17"
    again = io.load(path)
    assert again.weapons == scenario.weapons
    assert again.battlefield.figure("a1") == fig
    assert io.dumps(again) == io.dumps(scenario)


def test_a_figure_without_a_card_fires_its_categorys_default_card() -> None:
    scenario = io.from_document(_doc([GLOCK], weapon="P"))
    fig = scenario.battlefield.figure("a1")
    card = figure_card(fig.weapon, fig.weapon_card, scenario.weapon_cards)
    assert card is not None and card.name == "Pistol" and card.magazine == 15
    assert figure_card(WeaponCode.NONE, "", scenario.weapon_cards) is None


def test_a_user_weapon_named_like_a_category_replaces_its_default() -> None:
    scenario = io.from_document(_doc([{"name": "AR", "category": "AR", "magazine": 20}]))
    fig = scenario.battlefield.figure("a1")
    card = figure_card(fig.weapon, fig.weapon_card, scenario.weapon_cards)
    assert card is not None and card.magazine == 20


@pytest.mark.parametrize(
    ("weapons", "figure", "expected"),
    [
        (
            [{**GLOCK, "magazine": 0}],
            {},
            ["weapons[0].magazine: expected rounds per magazine: a whole number 1..1000, got 0"],
        ),
        (
            [{"name": "Glock 17"}],
            {},
            ["weapons[0].category: required field is missing"],
        ),
        (
            [{**GLOCK, "colour": "black"}],
            {},
            [
                "weapons[0].colour: unknown field (known fields: ammo, category, knockdown, "
                "magazine, modes, name, spare_magazines)"
            ],
        ),
        (
            [GLOCK, {**GLOCK, "name": "glock 17"}],
            {},
            ['weapons[1].name: "glock 17" is already the name of weapons[0]'],
        ),
        (
            [{"name": "M4", "category": "AR", "magazine": 5}],
            {},
            ["weapons[0].modes: Full Auto needs 10 rounds a firing, the magazine holds 5 (FD §3)"],
        ),
        (
            "Glock",
            {},
            ['weapons: expected a list of at most 200 weapon cards, got "Glock"'],
        ),
        (
            [GLOCK],
            {"weapon": "P", "weapon_card": "Glock 18"},
            [
                'forces[0].figures[0].weapon_card: no weapon "Glock 18" in the scenario\'s '
                'weapons (did you mean "Glock 17"?)'
            ],
        ),
        (
            [GLOCK],
            {"weapon": "P", "weapon_card": "glock 17"},
            [
                'forces[0].figures[0].weapon_card: no weapon "glock 17" in the scenario\'s '
                'weapons (did you mean "Glock 17"?)'
            ],
        ),
        (
            [GLOCK],
            {"weapon_card": "Glock 17"},
            [
                'forces[0].figures[0].weapon_card: "Glock 17" counts as P but the figure\'s '
                "weapon is AR: set the weapon to P (FD §2)"
            ],
        ),
        (
            None,
            {"weapon_card": "Glock 17"},
            [],  # checked below: no weapons list at all
        ),
    ],
)
def test_problems_are_named_by_their_path(
    weapons: Any, figure: dict[str, Any], expected: list[str]
) -> None:
    problems = _problems(_doc(weapons, **figure))
    if weapons is None:
        # a card named with no weapons list: the file cannot be read as it is meant
        assert problems == [
            'forces[0].figures[0].weapon_card: no weapon "Glock 17" in the scenario\'s '
            "weapons (the scenario has no weapons of its own)"
        ]
        return
    assert problems == expected


def test_load_refuses_bad_weapons_listing_every_problem() -> None:
    doc = _doc([{**GLOCK, "magazine": -1}, {"name": "", "category": "XX"}])
    with pytest.raises(ScenarioFormatError) as info:
        io.from_document(doc, "w.crdesk")
    paths = [p.path for p in info.value.problems]
    assert paths == ["weapons[0].magazine", "weapons[1].category", "weapons[1].name"]


def test_hostile_weapons_are_refused_with_a_message_not_a_traceback() -> None:
    big = [{"name": f"W{i}", "category": "P"} for i in range(5000)]
    assert _problems(_doc(big)) == [
        "weapons: 5,000 weapon cards; crdesk handles at most 200 in one scenario"
    ]
    nasty: list[Any] = [
        {"name": "\ud800", "category": "P"},  # a lone surrogate
        {"name": "x" * 65, "category": "P"},
        {"name": "Nested", "category": "P", "modes": [["FA"]]},
        {"name": "Float", "category": "P", "magazine": 1e400},
        {"name": "Bool", "category": "P", "knockdown": True},
        None,
    ]
    problems = _problems(_doc(nasty, weapon_card=["list"]))
    assert problems, "hostile items must be refused"
    assert all(p.split(":")[0].startswith(("weapons", "forces[0].figures[0]")) for p in problems)
    assert any(
        p.startswith("weapons[0].name: the text holds a lone UTF-16 surrogate") for p in problems
    )
    assert any(
        p.startswith("forces[0].figures[0].weapon_card: expected the name") for p in problems
    )
    with pytest.raises(ScenarioFormatError):
        io.from_document(copy.deepcopy(_doc(nasty)))


def test_an_unknown_card_on_a_figure_is_left_out_when_saving() -> None:
    """A figure pasted from another scenario may name a weapon this one does not hold:
    the file must still load, so the writer leaves the name out."""
    bf = Battlefield(Table(24, 24), [], [Force("b", "Blue", figures=[Figure("a1", "A", 4)])])
    scenario = Scenario(bf, weapons=tuple(parse_cards([GLOCK]).values()))
    bf.update_figure("a1", weapon_card="Glock 17")  # a Pistol's card on an AR
    out = io.to_document(scenario)
    assert "weapon_card" not in out["forces"][0]["figures"][0]
    io.from_document(out)
    # the clipboard form keeps it (the target scenario decides)
    assert io.figure_to_dict(bf.figure("a1"))["weapon_card"] == "Glock 17"


def test_the_model_checks_a_weapon_card_value() -> None:
    bf = Battlefield(Table(24, 24), [], [Force("b", "Blue", figures=[Figure("a1", "A", 4)])])
    with pytest.raises(ModelError, match="weapon_card must be a weapon name"):
        bf.update_figure("a1", weapon_card=17)
    with pytest.raises(ModelError, match="at most 64"):
        bf.update_figure("a1", weapon_card="x" * 65)
    bf.update_figure("a1", weapon_card="M4")
    assert bf.figure("a1").weapon_card == "M4"


def test_the_state_document_names_a_card_only_when_a_figure_has_one() -> None:
    """Saved games check their state hashes: a figure without a card hashes as before."""
    bf = Battlefield(Table(24, 24), [], [Force("b", "Blue", figures=[Figure("a1", "A", 4)])])
    before = bf.state_hash()
    assert "weapon_card" not in bf.state_document()["forces"][0]["figures"][0]
    bf.update_figure("a1", weapon_card="M4")
    assert bf.state_document()["forces"][0]["figures"][0]["weapon_card"] == "M4"
    bf.update_figure("a1", weapon_card="")
    assert bf.state_hash() == before
