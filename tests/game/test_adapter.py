"""The adapter's table queries for the play mode's previews: who a volley may include, and a
charge's circumstances, read the table as the controller does."""

from __future__ import annotations

from crdesk.game import Game, adapter, fire
from crdesk.model import BandType, Battlefield, Figure, Force, Scenario, Table, WeaponCode
from crdesk.odds import charge_odds
from crdesk.rules.melee import Approach
from crdesk.tables import ChargeResult

SEED_PLAYER_FIRST = 0
"""Seed 0: the Red Vipers roll higher but no Viper leads with Rep 6; Sgt. Mace decides."""


def skirmish() -> Scenario:
    """Sgt. Mace's team at the near edge, the Viper boss and Knuckles side by side 8" off
    (one 3" arc of fire), Dice far out on the right, Shiv 5" away (charge and grenade range)."""
    bf = Battlefield(
        Table(24, 24),
        forces=[
            Force(
                "p",
                "Mace's fire team",
                band=BandType.MILITARY,
                player=True,
                figures=[
                    Figure("p1", "Sgt. Mace", 5, x=12, y=20, facing=0),
                    Figure("p2", "Pvt. Lind", 4, x=14, y=21, facing=0),
                ],
            ),
            Force(
                "e",
                "Red Vipers",
                band=BandType.GANGER,
                colour="#b3261e",
                figures=[
                    Figure("e1", "Viper boss", 4, weapon=WeaponCode.SMG, x=11, y=11, facing=180),
                    Figure("e2", "Knuckles", 3, weapon=WeaponCode.P, x=13, y=11.5, facing=180),
                    Figure("e3", "Dice", 3, weapon=WeaponCode.P, x=21, y=4, facing=180),
                    Figure("e4", "Shiv", 3, weapon=WeaponCode.P, x=16.5, y=16, facing=200),
                ],
            ),
        ],
    )
    return Scenario(bf)


def started() -> Game:
    game = Game.new(skirmish(), seed=SEED_PLAYER_FIRST)
    game.play("activate p1")
    return game


def test_eligible_targets_are_the_controllers() -> None:
    game = started()
    figures = list(game.battlefield.figures())
    for fid in ("p1", "p2"):
        shooter = game.fig(fid)
        mine = adapter.eligible_targets(shooter, figures, game.sight(), game.rules)
        assert mine == fire.eligible_targets(game, shooter)  # the reference
    game.battlefield.update_figure("e2", out_of_ammo=True)  # still a target
    shooter = game.fig("p1")
    ids = [f.id for f in adapter.eligible_targets(shooter, figures, game.sight(), game.rules)]
    assert ids == ["e1", "e2", "e3", "e4"]


def test_a_volley_at_the_boss_may_include_knuckles_beside_him() -> None:
    game = started()
    figures = list(game.battlefield.figures())
    sight = game.sight()
    choice = adapter.fire_choice(game.fig("p1"), game.fig("e1"), figures, sight, game.rules)
    assert choice.dice == 3 and choice.targets == ("e1", "e2")
    assert choice.default == (("e1", 2), ("e2", 1))  # each once, then the first again (7.9.8)
    assert game.legal(f"fire p1 at {','.join(f'{t}:{n}' for t, n in choice.default)}") is None
    alone = adapter.fire_choice(game.fig("p1"), game.fig("e4"), figures, sight, game.rules)
    assert alone.targets == ("e4",) and alone.default == (("e4", 3),)
    # a figure the shooter cannot target keeps itself as the only "choice": the click refuses
    out = adapter.fire_choice(game.fig("p1"), game.fig("p2"), figures, sight, game.rules)
    assert out.targets == ("p2",)


def test_charge_spec_reads_reach_cover_and_approach() -> None:
    game = started()
    sight = game.sight()
    mace, shiv, dice = game.fig("p1"), game.fig("e4"), game.fig("e3")
    spec = adapter.charge_spec(mace, shiv, sight, game.rules, movement_left=8.0)
    assert spec.in_reach and spec.needed == 0.0 and not spec.in_cover
    assert spec.approach is Approach.FRONT and spec.target_dice == 2
    assert abs(spec.distance - 5.02) < 0.01
    assert game.legal("charge p1 at e4") is None
    far = adapter.charge_spec(mace, dice, sight, game.rules, movement_left=8.0)
    assert not far.in_reach and far.needed > 8.0 and "too far" in far.reach_text
    assert game.legal("charge p1 at e3") is not None
    # Shiv turned away: Mace comes at his back (starts and ends behind his front, 7.11.2)
    game.battlefield.update_figure("e4", facing=20)
    rear = adapter.charge_spec(
        game.fig("p1"), game.fig("e4"), game.sight(), game.rules, movement_left=8.0
    )
    assert rear.approach is Approach.REAR and rear.target_dice == 0
    odds = charge_odds(5, 3, in_cover=rear.in_cover, approach=rear.approach, options=game.rules)
    assert odds.chance(ChargeResult.TARGET_FIRES) == 0


def test_throw_spec_reads_reach_and_who_the_blast_circle_catches() -> None:
    game = started()
    mace = game.fig("p1")
    at_shiv = adapter.throw_spec(mace, (16.5, 16.0), game.battlefield, game.rules)
    assert at_shiv.in_range and abs(at_shiv.reach - (at_shiv_dist() - 0.5)) < 1e-9
    assert at_shiv.inside == ("e4",) and at_shiv.spot_in_los
    assert at_shiv.blast_radius == game.rules.blast_radius == 2.5
    assert (
        game.legal("throw p1 at 16.5,16")
        == "Sgt. Mace has no readied grenade: ready one first (7.10.1)"
    )
    # between Mace and Lind: the circle catches both friends
    close = adapter.throw_spec(mace, (13.0, 20.5), game.battlefield, game.rules)
    assert set(close.inside) == {"p1", "p2"}
    far = adapter.throw_spec(mace, (12.0, 11.0), game.battlefield, game.rules)
    assert not far.in_range and far.reach == 8.5 and far.inside == ("e1", "e2")


def at_shiv_dist() -> float:
    return float(((16.5 - 12) ** 2 + (16 - 20) ** 2) ** 0.5)
