"""Battlefield state for a game controller: snapshots, copies, canonical state and hashes,
validated typed edits, batch edits and richer change events."""

from __future__ import annotations

import copy
import json
import math
import pickle
from typing import Any

import numpy as np
import pytest
from shapely.geometry import box

from crdesk.cohesion import Cohesion, groups
from crdesk.errors import ModelError
from crdesk.events import Change, ChangeKind
from crdesk.model import (
    FIGURE_FIELDS,
    Battlefield,
    BattlefieldSnapshot,
    Figure,
    Force,
    MeleeWeapon,
    RemovedFeature,
    RemovedFigure,
    Role,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
    Transferred,
    WeaponCode,
    checked_figure_values,
)
from crdesk.options import RulesOptions
from crdesk.visibility import VisibilityService
from tests.model.geometry.random_tables import random_table

RULES = RulesOptions()


def _bf() -> Battlefield:
    woods = TerrainFeature("w1", TerrainKind.WOODS, "Wood", box(10, 10, 20, 20))
    red = Force(
        "red",
        "Red",
        player=True,
        figures=[
            Figure("r1", "Al", 5, role=Role.STAR, x=5, y=30, star_power=2),
            Figure("r2", "Bo", 4, x=8, y=30),
        ],
    )
    blue = Force("blue", "Blue", figures=[Figure("b1", "Cy", 4, x=15, y=5, facing=180)])
    return Battlefield(Table(36, 36), [woods], [red, blue])


def _events(bf: Battlefield) -> list[Change]:
    seen: list[Change] = []
    bf.subscribe(seen.append)
    return seen


def _state(bf: Battlefield) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Everything about the forces and figures, by value (for before/after comparisons)."""
    return [
        (
            f"{force.id}|{force.name}|{force.band}|{force.player}|{force.colour}",
            [
                (
                    fig.id,
                    fig.name,
                    fig.rep,
                    fig.role,
                    fig.weapon,
                    fig.melee,
                    fig.x,
                    fig.y,
                    fig.facing,
                    fig.base,
                    fig.status,
                    fig.star_power,
                    fig.out_of_ammo,
                    fig.prone,
                    fig.fast_moving,
                    fig.side,
                )
                for fig in force.figures
            ],
        )
        for force in bf.forces
    ]


# -- snapshot and restore -----------------------------------------------------


def test_restore_undoes_moves_and_edits_exactly() -> None:
    bf = _bf()
    before = _state(bf)
    snap = bf.snapshot()
    bf.move_figure("r1", 1.25, 2.5, facing=45)
    bf.update_figure("b1", status=Status.DUCK_BACK, prone=True, star_power=None)
    bf.update_figure("r2", name="Bob", rep=6, weapon=WeaponCode.SMG, out_of_ammo=True)
    assert _state(bf) != before
    bf.restore(snap)
    assert _state(bf) == before
    assert bf.figure("r1").position == (5.0, 30.0) and bf.figure("r1").star_power == 2


def test_restore_brings_back_removed_added_and_transferred_figures_and_order() -> None:
    bf = _bf()
    before = _state(bf)
    hash_before = bf.state_hash()
    snap = bf.snapshot()
    bf.remove_figure("r1")
    bf.add_figure("blue", Figure("b2", "Di", 3, x=3, y=3))
    bf.transfer_figure("r2", "blue", 0)
    bf.add_force(Force("green", "Green", figures=[Figure("g1", "Ed", 4)]))
    bf.restore(snap)
    assert _state(bf) == before
    assert [f.id for f in bf.figures()] == ["r1", "r2", "b1"]
    assert bf.figure_ids() == ["r1", "r2", "b1"]
    with pytest.raises(ModelError):
        bf.figure("b2")
    with pytest.raises(ModelError):
        bf.force("green")
    assert bf.figure("r2").side == "red"
    assert bf.state_hash() == hash_before
    # the restored battlefield accepts edits as before: ids of dropped figures are free again
    bf.add_figure("blue", Figure("b2", "Di", 3))
    assert bf.figure("b2").side == "blue"


def test_restore_brings_back_force_fields() -> None:
    bf = _bf()
    snap = bf.snapshot()
    red = bf.force("red")
    red.name, red.colour = "Crimson", "#ff0000"
    bf.restore(snap)
    assert (bf.force("red").name, bf.force("red").colour) == ("Red", "#1f5fbf")


def test_restore_keeps_figure_objects_that_still_exist() -> None:
    bf = _bf()
    r1 = bf.figure("r1")
    snap = bf.snapshot()
    bf.move_figure("r1", 2, 2)
    bf.restore(snap)
    assert bf.figure("r1") is r1 and r1.position == (5.0, 30.0)


def test_snapshot_is_immutable_and_unaffected_by_later_edits() -> None:
    bf = _bf()
    snap = bf.snapshot()
    bf.move_figure("r1", 2, 2)
    again = bf.snapshot()
    assert snap != again
    with pytest.raises(AttributeError):
        snap.revision = 5
    assert isinstance(snap.forces, tuple)
    assert all(isinstance(f.figures, tuple) for f in snap.forces)
    hash(snap)  # only immutable values inside
    bf.restore(snap)
    assert bf.snapshot() == snap  # equal states, equal snapshots (the revision is not compared)


def test_snapshot_records_the_revisions() -> None:
    bf = _bf()
    bf.move_figure("r1", 2, 2)
    snap = bf.snapshot()
    assert (snap.revision, snap.terrain_revision) == (bf.revision, bf.terrain_revision) == (1, 0)


def test_restore_emits_one_batch_event_naming_the_changed_figures() -> None:
    bf = _bf()
    snap = bf.snapshot()
    bf.move_figure("r1", 2, 2)
    bf.update_figure("b1", prone=True)
    seen = _events(bf)
    change = bf.restore(snap)
    assert seen == [change]
    assert (change.kind, change.what, change.id) == (ChangeKind.CHANGED, "figures", "")
    assert change.ids == ("r1", "b1")
    assert change.fields == ("x", "y", "prone")
    assert change.old == {"r1": {"x": 2.0, "y": 2.0}, "b1": {"prone": True}}
    assert change.new == {"r1": {"x": 5.0, "y": 30.0}, "b1": {"prone": False}}


def test_restore_after_roster_changes_emits_one_reset() -> None:
    bf = _bf()
    snap = bf.snapshot()
    bf.remove_figure("r2")
    seen = _events(bf)
    change = bf.restore(snap)
    assert seen == [change]
    assert (change.kind, change.what) == (ChangeKind.RESET, "figures")


def test_revision_stays_monotonic_across_restore() -> None:
    """Caches (the autosave, the sight matrix) key on the revision: a restore is a new one."""
    bf = _bf()
    snap = bf.snapshot()
    bf.move_figure("r1", 2, 2)
    rev = bf.revision
    change = bf.restore(snap)
    assert bf.revision == change.revision == rev + 1
    assert bf.terrain_revision == snap.terrain_revision


def test_restore_refuses_a_snapshot_of_other_terrain() -> None:
    bf = _bf()
    snap = bf.snapshot()
    bf.update_feature("w1", name="Big wood")
    with pytest.raises(ModelError, match="terrain"):
        bf.restore(snap)
    other = _bf()  # same terrain revision, but other terrain objects
    with pytest.raises(ModelError, match="terrain"):
        other.restore(_bf().snapshot())


def test_restore_accepts_a_snapshot_of_a_copy() -> None:
    bf = _bf()
    fork = bf.copy()
    fork.move_figure("r1", 3, 3)
    bf.restore(fork.snapshot())
    assert bf.figure("r1").position == (3.0, 3.0)
    assert bf.state_hash() == fork.state_hash()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_services_after_restore_agree_with_a_fresh_computation(seed: int) -> None:
    bf = random_table(seed, n_features=12, n_figures=10)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    service.matrix()
    cohesion.update()
    snap = bf.snapshot()
    ids = bf.figure_ids()
    # a few moves and a casualty: the incremental route
    bf.move_figure(ids[0], 12, 12, 90)
    bf.update_figure(ids[1], status=Status.OUT_OF_THE_FIGHT)
    service.matrix()
    cohesion.update()
    bf.restore(snap)
    fresh = VisibilityService(bf, RULES).matrix()
    assert service.matrix().same_as(fresh)
    cohesion.update()
    assert cohesion.groups(RULES) == groups(bf, fresh, RULES)
    # a roster change: the reset route
    bf.remove_figure(ids[2])
    bf.transfer_figure(ids[3], "red" if bf.figure(ids[3]).side == "blue" else "blue")
    service.matrix()
    cohesion.update()
    bf.restore(snap)
    fresh = VisibilityService(bf, RULES).matrix()
    assert service.matrix().same_as(fresh)
    cohesion.update()
    assert cohesion.groups(RULES) == groups(bf, fresh, RULES)


def test_a_batch_restore_keeps_the_sight_matrix_incremental() -> None:
    bf = random_table(4, n_features=12, n_figures=10)
    service = VisibilityService(bf, RULES)
    service.matrix()
    snap = bf.snapshot()
    bf.move_figure(bf.figure_ids()[0], 12, 12)
    service.matrix()
    bf.restore(snap)
    assert service.matrix().same_as(VisibilityService(bf, RULES).matrix())
    assert service.full_recomputes == 1


# -- copy -------------------------------------------------------------------------


def test_copy_is_independent_but_shares_the_terrain() -> None:
    bf = _bf()
    seen = _events(bf)
    VisibilityService(bf, RULES)
    fork = bf.copy()
    assert fork.terrain[0] is bf.terrain[0]
    assert fork.table == bf.table
    assert (fork.revision, fork.terrain_revision) == (bf.revision, bf.terrain_revision)
    assert fork._listeners == []
    assert _state(fork) == _state(bf) and fork.state_hash() == bf.state_hash()
    assert fork.figure("r1") is not bf.figure("r1")
    assert fork.force("red") is not bf.force("red")
    fork.move_figure("r1", 1, 1)
    fork.update_figure("b1", status="duck_back")
    fork.remove_figure("r2")
    fork.add_force(Force("green", "Green"))
    assert bf.figure("r1").position == (5.0, 30.0)
    assert bf.figure("b1").status is Status.CARRY_ON
    assert bf.figure_ids() == ["r1", "r2", "b1"]
    assert [f.id for f in bf.forces] == ["red", "blue"]
    assert seen == []  # the original heard nothing of the copy's edits


def test_terrain_edits_after_a_copy_do_not_leak_between_the_two() -> None:
    bf = _bf()
    fork = bf.copy()
    fork.update_feature("w1", name="Fork wood")
    assert bf.feature("w1").name == "Wood" and fork.feature("w1").name == "Fork wood"
    bf.move_feature("w1", 1, 1)
    assert fork.feature("w1").outline.bounds == (10, 10, 20, 20)
    assert fork.terrain_digest() != bf.terrain_digest()


def test_a_feature_held_outside_keeps_the_value_it_had_whether_or_not_a_copy_was_made() -> None:
    # undo commands hold the feature objects they put down (monkey seed 850: a generated
    # table's command saw its buildings moved in place, and once a copy had been made the
    # moves were copied instead, so redoing every edit moved a building twice)
    bf = _bf()
    held = bf.feature("w1")
    bf.move_feature("w1", 1, 1)
    assert held.outline.bounds == (10, 10, 20, 20)
    assert bf.feature("w1").outline.bounds == (11, 11, 21, 21)
    bf.copy()
    again = bf.feature("w1")
    bf.move_feature("w1", 1, 1)
    assert again.outline.bounds == (11, 11, 21, 21)
    assert bf.feature("w1").outline.bounds == (12, 12, 22, 22)


def test_deepcopy_and_pickle_leave_the_listeners_behind() -> None:
    bf = _bf()
    service = VisibilityService(bf, RULES)
    Cohesion(service)
    clone = copy.deepcopy(bf)
    assert clone._listeners == [] and len(bf._listeners) == 2
    back = pickle.loads(pickle.dumps(bf))
    assert back._listeners == []
    assert back.state_hash() == bf.state_hash()


# -- canonical state and hashes ----------------------------------------------------


def test_state_document_is_plain_json_with_every_field() -> None:
    bf = _bf()
    doc = bf.state_document()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["table"] == {"width": 36.0, "height": 36.0}
    assert doc["terrain_digest"] == bf.terrain_digest()
    assert [f["id"] for f in doc["forces"]] == ["red", "blue"]
    r1 = doc["forces"][0]["figures"][0]
    assert set(r1) == {
        "id",
        "name",
        "rep",
        "role",
        "weapon",
        "melee",
        "x",
        "y",
        "facing",
        "base",
        "status",
        "star_power",
        "out_of_ammo",
        "prone",
        "fast_moving",
        "side",
    }
    assert r1["role"] == "star" and r1["status"] == "carry_on" and r1["star_power"] == 2
    assert set(doc["forces"][0]) == {"id", "name", "band", "player", "colour", "figures"}
    assert "title" not in json.dumps(doc)


def test_state_document_rounds_floats_to_a_millionth() -> None:
    bf = _bf()
    bf.move_figure("r1", 1.00000012, -0.0000000001, facing=359.99999999)
    fig = bf.state_document()["forces"][0]["figures"][0]
    assert (fig["x"], fig["y"], fig["facing"]) == (1.0, 0.0, 0.0)
    assert math.copysign(1.0, fig["y"]) == 1.0  # no -0.0


def test_equal_states_give_equal_hashes() -> None:
    a, b = _bf(), _bf()
    assert a.state_hash() == b.state_hash()
    assert len(a.state_hash()) == 64 and int(a.state_hash(), 16) >= 0
    a.move_figure("r1", 7, 7)
    a.move_figure("r1", 5, 30)
    assert a.state_hash() == b.state_hash()  # the revision is not part of the state
    c = _bf()
    c.move_figure("r1", 5 + 1e-9, 30)
    assert c.state_hash() == b.state_hash()  # below the rounding


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("name", "Zed"),
        ("rep", 6),
        ("role", Role.GRUNT),
        ("weapon", WeaponCode.SMG),
        ("melee", MeleeWeapon.TWO_HAND),
        ("x", 5.1),
        ("y", 30.000002),
        ("facing", 10),
        ("base", 1.25),
        ("status", Status.DUCK_BACK),
        ("star_power", None),
        ("out_of_ammo", True),
        ("prone", True),
        ("fast_moving", True),
    ],
)
def test_any_figure_field_change_changes_the_hash(name: str, value: object) -> None:
    bf = _bf()
    before = bf.state_hash()
    bf.update_figure("r1", **{name: value})
    assert bf.state_hash() != before


def test_roster_order_force_fields_and_table_are_part_of_the_hash() -> None:
    bf = _bf()
    before = bf.state_hash()
    bf.transfer_figure("r1", "red")  # same force, now last
    assert bf.state_hash() != before
    other = _bf()
    other.force("blue").colour = "#000000"
    assert other.state_hash() != before
    wider = Battlefield(Table(48, 36), _bf().terrain, [])
    assert wider.state_hash() != Battlefield(Table(36, 36), _bf().terrain, []).state_hash()


def test_state_hash_is_sha256_of_the_sorted_compact_document() -> None:
    import hashlib

    bf = _bf()
    text = json.dumps(bf.state_document(), sort_keys=True, separators=(",", ":"))
    assert bf.state_hash() == hashlib.sha256(text.encode()).hexdigest()


def test_terrain_digest_follows_the_terrain_and_is_cached() -> None:
    bf = _bf()
    digest = bf.terrain_digest()
    assert digest == _bf().terrain_digest()  # same terrain, same digest
    assert bf.terrain_digest() is digest  # cached for the terrain revision
    bf.move_figure("r1", 1, 1)
    assert bf.terrain_digest() is digest  # figures do not touch it
    bf.update_feature("w1", outline=box(10, 10, 20, 21))
    assert bf.terrain_digest() != digest
    bf.update_feature("w1", outline=box(10, 10, 20, 20))
    assert bf.terrain_digest() == digest


# -- validated typed edits -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("status", "abc"),
        ("status", 3),
        ("status", WeaponCode.AR),
        ("status", "Carry On"),
        ("role", "Star"),
        ("weapon", "ar"),
        ("weapon", MeleeWeapon.NONE),  # the same value string, but another enum
        ("melee", None),
        ("x", "abc"),
        ("x", "1.5"),
        ("x", True),
        ("x", math.nan),
        ("y", math.inf),
        ("facing", -math.inf),
        ("base", 0),
        ("base", -1.0),
        ("base", None),
        ("prone", 1),
        ("prone", "yes"),
        ("out_of_ammo", None),
        ("fast_moving", np.bool_(True)),
        ("star_power", -1),
        ("star_power", 1.0),
        ("star_power", True),
        ("star_power", "2"),
        ("name", ""),
        ("name", "   "),
        ("name", 5),
        ("rep", "5"),
    ],
)
def test_update_figure_refuses_bad_values_naming_field_and_value(name: str, value: Any) -> None:
    bf = _bf()
    before = _state(bf)
    seen = _events(bf)
    with pytest.raises(ModelError) as err:
        bf.update_figure("r1", **{name: value})
    text = str(err.value)
    assert (name if name != "rep" else "Rep") in text and repr(value) in text
    assert _state(bf) == before and seen == [] and bf.revision == 0


def test_update_figure_is_all_or_nothing() -> None:
    bf = _bf()
    before = _state(bf)
    with pytest.raises(ModelError, match="prone"):
        bf.update_figure("r1", x=3.0, status=Status.DUCK_BACK, prone="no")
    assert _state(bf) == before


def test_update_figure_coerces_enum_values_and_numbers() -> None:
    bf = _bf()
    bf.update_figure(
        "r1",
        status="duck_back",
        role="grunt",
        weapon="SMG",
        melee=MeleeWeapon.ONE_HAND,
        x=3,
        y=np.float64(4.5),
        facing=-90,
        base=2,
    )
    fig = bf.figure("r1")
    assert fig.status is Status.DUCK_BACK and type(fig.status) is Status
    assert fig.role is Role.GRUNT and fig.weapon is WeaponCode.SMG
    assert fig.melee is MeleeWeapon.ONE_HAND
    assert (fig.x, fig.y, fig.facing, fig.base) == (3.0, 4.5, 270.0, 2.0)
    assert all(type(v) is float for v in (fig.x, fig.y, fig.facing, fig.base))


def test_id_and_side_are_not_edited_through_update_figure() -> None:
    bf = _bf()
    for name in ("id", "side"):
        with pytest.raises(ModelError, match="no property"):
            bf.update_figure("r1", **{name: "x"})


@pytest.mark.parametrize("facing", [360.0, 720.5, -0.0, -1e-20, -90.0, 1e6, 359.99999999999994])
def test_facing_is_normalised_everywhere(facing: float) -> None:
    expected = facing % 360.0
    if expected >= 360.0:
        expected = 0.0
    bf = _bf()
    bf.move_figure("r1", 1, 1, facing)
    bf.update_figure("r2", facing=facing)
    bf.add_figure("blue", Figure("b2", "Di", 4, facing=facing))
    built = Battlefield(forces=[Force("f", "F", figures=[Figure("z", "Z", 4, facing=facing)])])
    for fig in (bf.figure("r1"), bf.figure("r2"), bf.figure("b2"), built.figure("z")):
        assert 0.0 <= fig.facing < 360.0
        assert fig.facing == expected
        assert math.copysign(1.0, fig.facing) == 1.0


def test_move_figure_validates_its_numbers() -> None:
    bf = _bf()
    for args in (("a", 1.0), (1.0, math.nan), (1.0, 1.0, "north"), (True, 1.0)):
        with pytest.raises(ModelError):
            bf.move_figure("r1", *args)
    assert bf.figure("r1").position == (5.0, 30.0) and bf.revision == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"status": "dead"},
        {"x": "abc"},
        {"base": 0.0},
        {"prone": 0},
        {"star_power": -2},
        {"name": ""},
        {"rep": 21},
        {"weapon": "laser"},
    ],
)
def test_add_figure_validates_the_figure(bad: dict[str, Any]) -> None:
    bf = _bf()
    values: dict[str, Any] = {"id": "b2", "name": "Di", "rep": 4, **bad}
    with pytest.raises(ModelError):
        bf.add_figure("blue", Figure(**values))
    with pytest.raises(ModelError):
        bf.figure("b2")
    assert bf.figure_ids() == ["r1", "r2", "b1"] and bf.revision == 0


def test_add_figure_coerces_values() -> None:
    bf = _bf()
    fig = Figure("b2", "Di", 4, status="duck_back", x=2, facing=-10)
    bf.add_figure("blue", fig)
    assert fig.status is Status.DUCK_BACK and fig.x == 2.0 and fig.facing == 350.0


def test_construction_validates_figures_too() -> None:
    with pytest.raises(ModelError, match="status"):
        Battlefield(forces=[Force("f", "F", figures=[Figure("z", "Z", 4, status="x")])])
    bf = _bf()
    with pytest.raises(ModelError, match="'far'"):
        bf.add_force(Force("g", "G", figures=[Figure("g1", "G", 4, x="far")]))
    with pytest.raises(ModelError):
        bf.force("g")


def test_construction_names_an_unnamed_figure_by_its_id() -> None:
    """Older files may hold an empty figure name (the format allows it)."""
    bf = Battlefield(forces=[Force("f", "F", figures=[Figure("z1", "", 4)])])
    assert bf.figure("z1").name == "z1"


# -- batch edits and richer events -----------------------------------------------


def test_single_edits_report_fields_with_old_and_new_values() -> None:
    bf = _bf()
    seen = _events(bf)
    bf.update_figure("r1", status="duck_back", prone=True, rep=5)  # rep unchanged
    bf.move_figure("b1", 15, 6)
    bf.transfer_figure("r2", "blue")
    first, move, transfer = seen
    assert first.fields == ("status", "prone")
    assert first.old == {"status": Status.CARRY_ON, "prone": False}
    assert first.new == {"status": Status.DUCK_BACK, "prone": True}
    assert (move.fields, move.old, move.new) == (("y",), {"y": 5.0}, {"y": 6.0})
    assert transfer.fields == ("side",)
    assert (transfer.old, transfer.new) == ({"side": "red"}, {"side": "blue"})
    assert first.item_ids == ("r1",)
    with pytest.raises(TypeError):
        first.new["status"] = Status.CARRY_ON


def test_existing_positional_change_fields_still_work() -> None:
    change = Change(ChangeKind.CHANGED, "figure", "a1", 3)
    kind, what, item_id, revision = change.kind, change.what, change.id, change.revision
    assert (kind, what, item_id, revision) == (ChangeKind.CHANGED, "figure", "a1", 3)
    assert change.fields == () and change.old is None and change.new is None
    assert change.ids == () and change.item_ids == ("a1",)
    assert hash(change) == hash(Change(ChangeKind.CHANGED, "figure", "a1", 3))


def test_update_figures_applies_a_batch_in_one_event() -> None:
    bf = _bf()
    seen = _events(bf)
    change = bf.update_figures(
        {"r1": {"x": 6.0, "status": "duck_back"}, "b1": {"prone": True}, "r2": {"rep": 4}}
    )
    assert seen == [change] and bf.revision == 1
    assert (change.kind, change.what, change.id) == (ChangeKind.CHANGED, "figures", "")
    assert change.ids == ("r1", "b1")  # r2 already had Rep 4
    assert change.fields == ("x", "status", "prone")
    assert change.old == {"r1": {"x": 5.0, "status": Status.CARRY_ON}, "b1": {"prone": False}}
    assert change.new == {"r1": {"x": 6.0, "status": Status.DUCK_BACK}, "b1": {"prone": True}}
    assert bf.figure("r1").status is Status.DUCK_BACK and bf.figure("b1").prone


@pytest.mark.parametrize(
    "bad",
    [
        {"r1": {"x": 1.0}, "b1": {"status": "bogus"}},
        {"r1": {"x": 1.0}, "zz": {"x": 1.0}},
        {"r1": {"x": 1.0}, "b1": {"colour": "red"}},
    ],
)
def test_update_figures_is_all_or_nothing(bad: dict[str, dict[str, Any]]) -> None:
    bf = _bf()
    before = _state(bf)
    seen = _events(bf)
    with pytest.raises(ModelError):
        bf.update_figures(bad)
    assert _state(bf) == before and seen == [] and bf.revision == 0


def test_services_treat_a_batch_as_those_figures_changed() -> None:
    bf = random_table(5, n_features=12, n_figures=10)
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    service.matrix()
    cohesion.update()
    ids = bf.figure_ids()
    bf.update_figures({ids[0]: {"x": 11.0, "y": 13.0}, ids[1]: {"status": Status.OBVIOUSLY_DEAD}})
    assert service._dirty == {ids[0], ids[1]} and not service._full
    assert {ids[0], ids[1]} <= cohesion._dirty and not cohesion._stale
    fresh = VisibilityService(bf, RULES).matrix()
    assert service.matrix().same_as(fresh)
    assert service.full_recomputes == 1  # incremental
    cohesion.update()
    assert cohesion.groups(RULES) == groups(bf, fresh, RULES)


def test_removals_and_transfers_return_named_tuples() -> None:
    bf = _bf()
    removed = bf.remove_figure("r2")
    assert isinstance(removed, RemovedFigure) and removed.index == 1
    figure, index = removed
    assert figure.id == "r2" and index == 1
    gone = bf.remove_feature("w1")
    assert isinstance(gone, RemovedFeature) and gone.feature.id == "w1" and gone.index == 0
    back = bf.transfer_figure("r1", "blue")
    assert isinstance(back, Transferred) and back == ("red", 0)
    assert (back.force_id, back.index) == ("red", 0)


def test_snapshot_type_is_exported() -> None:
    assert isinstance(_bf().snapshot(), BattlefieldSnapshot)


def test_a_snapshot_can_be_read_by_field_name() -> None:
    bf = _bf()
    snap = bf.snapshot()
    bf.move_figure("r1", 2, 2)
    red = snap.forces[0]
    values = red.figure("r1")
    assert values is not None and (values["x"], values["y"], values["side"]) == (5.0, 30.0, "red")
    assert values["status"] is Status.CARRY_ON and red.figure("b1") is None
    assert tuple(values) == FIGURE_FIELDS


def test_checked_figure_values_is_the_one_check() -> None:
    assert checked_figure_values({"status": "duck_back", "x": 1}) == {
        "status": Status.DUCK_BACK,
        "x": 1.0,
    }
    with pytest.raises(ModelError, match="no property 'side'"):
        checked_figure_values({"side": "red"})
