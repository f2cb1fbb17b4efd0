"""Weapon cards FD §2: the default card per category, user weapons, the schema fragment."""

import pytest
from jsonschema import Draft202012Validator

from crdesk.errors import ScenarioFormatError
from crdesk.rules.firearms.cards import (
    DEFAULT_CARDS,
    REVOLVER,
    WeaponCard,
    card_for,
    card_problems,
    cards_schema,
    default_card,
    parse_cards,
)
from crdesk.rules.firearms.tables import AmmoType, FireMode

M = FireMode

# FD §2 "Default cards", row by row: category -> (modes, magazine, ammo)
DEFAULTS = [
    ("AR", (M.SEMI, M.RB3, M.FA), 30, AmmoType.FMJ),
    ("BAR", (M.BA,), 5, AmmoType.FMJ),
    ("MP", (M.SEMI, M.FA), 20, AmmoType.FMJ),
    ("P", (M.SEMI,), 15, AmmoType.FMJ),
    ("SAR", (M.SEMI,), 20, AmmoType.FMJ),
    ("SG", (M.PUMP,), 8, AmmoType.BUCKSHOT),
    ("SAW", (M.FA,), 100, AmmoType.FMJ),
    ("SMG", (M.SEMI, M.FA), 30, AmmoType.FMJ),
    ("RL", (M.SINGLE,), 1, AmmoType.HE),
    ("BAP", (M.SEMI,), 8, AmmoType.FMJ),
]


@pytest.mark.parametrize(("cat", "modes", "magazine", "ammo"), DEFAULTS)
def test_default_card_per_category(cat, modes, magazine, ammo):
    card = default_card(cat)
    assert (card.category, card.modes, card.magazine, card.ammo) == (cat, modes, magazine, ammo)
    assert card.spare_magazines == 3 and card.knockdown == 0


def test_every_category_has_a_card_and_the_revolver_variant():
    assert set(DEFAULT_CARDS) == {row[0] for row in DEFAULTS}
    assert (REVOLVER.category, REVOLVER.modes, REVOLVER.magazine) == ("P", (M.DA, M.SA), 6)
    assert DEFAULT_CARDS["BAP"].name == "Big-Ass Pistol"
    assert DEFAULT_CARDS["AR"].rank() == 3 and DEFAULT_CARDS["SAW"].rank() == 4
    with pytest.raises(KeyError, match="no weapon category 'XX'"):
        default_card("XX")


def test_a_user_weapon_takes_what_it_leaves_out_from_its_category():
    cards = parse_cards([{"name": "Glock 17", "category": "P", "magazine": 17, "ammo": "JHP"}])
    glock = cards["Glock 17"]
    assert glock == WeaponCard("Glock 17", "P", (M.SEMI,), 17, 3, AmmoType.JHP, 0)
    assert card_for("Glock 17", cards) is glock
    assert card_for("AR", cards) is DEFAULT_CARDS["AR"]
    assert "Glock 17 (counts as P): Semi, magazine 17, 3 spare, JHP" in glock.explain()


def test_a_full_card_round_trips_and_may_replace_a_default():
    item = {
        "name": "AR",
        "category": "AR",
        "modes": ["semi", "2RB", "FA"],
        "magazine": 20,
        "spare_magazines": 5,
        "ammo": "AP",
        "knockdown": 2,
    }
    card = parse_cards([item])["AR"]
    assert card.modes == (M.SEMI, M.RB2, M.FA) and card.knockdown == 2
    assert card.to_json() == item
    assert card_for("AR", {"AR": card}) is card


def test_the_schema_fragment_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(cards_schema())
    assert cards_schema()["items"]["required"] == ["name", "category"]


def test_problems_name_their_path_in_the_players_words():
    data = [
        {"name": "Glock 17", "category": "P", "magazine": "x"},
        {"name": "glock 17", "category": "Q", "modez": ["FA"]},
        {"name": "M4", "category": "AR", "modes": ["FA"], "magazine": 8},
        {"name": "Slugger", "category": "AR", "ammo": "buckshot"},
        {"name": "GLOCK 17", "category": "P"},
        {"category": "P", "knockdown": 7},
        {"name": "Twice", "category": "AR", "modes": ["FA", "FA"]},
    ]
    w = "rules.firearms.weapons"
    assert [str(p) for p in card_problems(data, w)] == [
        f'{w}[0].magazine: expected rounds per magazine: a whole number 1..1000, got "x"',
        f'{w}[1].modez: unknown field (did you mean "modes"?)',
        f"{w}[1].category: expected a weapon category: one of AR, BAR, MP, P, RL, SAR, SG, "
        'SAW, SMG, BAP, got "Q"',
        f"{w}[2].modes: Full Auto needs 10 rounds a firing, the magazine holds 8 (FD §3)",
        f"{w}[3].ammo: buckshot is for shotguns (category SG), Slugger counts as AR (FD §6)",
        f"{w}[5].name: required field is missing",
        f"{w}[5].knockdown: expected a knockdown number: a whole number 0..6, got 7",
        f"{w}[6].modes: a fire mode is listed twice",
    ]
    # item [0] is broken, so "GLOCK 17" at [4] repeats no card that was read


def test_a_repeated_name_ignores_case():
    problems = card_problems([{"name": "M4", "category": "AR"}, {"name": "m4", "category": "AR"}])
    assert [str(p) for p in problems] == ['weapons[1].name: "m4" is already the name of weapons[0]']


def test_parse_cards_raises_listing_every_problem():
    with pytest.raises(ScenarioFormatError) as err:
        parse_cards({"name": "not a list"}, "weapons")
    assert err.value.problems[0].path == "weapons"
    assert "a list of at most 200 weapon cards" in str(err.value)
    assert parse_cards([]) == {}
