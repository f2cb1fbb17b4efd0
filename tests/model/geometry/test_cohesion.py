"""Groups, cohesion and leaders (digest 5; book 6.2, 6.3)."""

from __future__ import annotations

from shapely.geometry import Polygon

from crdesk.cohesion import Cohesion, groups
from crdesk.model import (
    Battlefield,
    Figure,
    Force,
    Role,
    Status,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.options import Interpretations, RulesOptions
from crdesk.visibility import VisibilityService

RULES = RulesOptions()


def chain(reps: list[int], gap: float = 3.5, star: int | None = None) -> Battlefield:
    """Figures in a row along x, facing +x (each sees the next), ``gap`` apart centre to centre."""
    figs = [
        Figure(
            f"f{k}",
            f"f{k}",
            rep,
            role=Role.STAR if k == star else Role.GRUNT,
            x=4 + k * gap,
            y=18,
            facing=90,
        )
        for k, rep in enumerate(reps)
    ]
    return Battlefield(Table(36, 36), [], [Force("red", "red", figures=figs)])


def ids(bf: Battlefield, rules: RulesOptions = RULES) -> list[tuple[str, tuple[str, ...]]]:
    m = VisibilityService(bf, rules).matrix()
    return [(g.leader, g.members) for g in groups(bf, m, rules)]


def test_a_chain_within_4in_is_one_group() -> None:
    bf = chain([4, 4, 4, 4])
    assert ids(bf) == [("f0", ("f0", "f1", "f2", "f3"))]


def test_the_chain_splits_when_the_middle_goes_down() -> None:
    bf = chain([4, 5, 4, 3])
    bf.update_figure("f1", status=Status.OUT_OF_THE_FIGHT)
    assert ids(bf) == [("f0", ("f0",)), ("f2", ("f2", "f3"))]


def test_more_than_4in_apart_are_separate_groups() -> None:
    bf = chain([4, 4], gap=5.1)  # 4.1" base to base
    assert ids(bf) == [("f0", ("f0",)), ("f1", ("f1",))]


def test_leader_is_the_star_else_highest_rep_else_roster_order() -> None:
    assert ids(chain([4, 5, 3, 5]))[0][0] == "f1"
    assert ids(chain([4, 5, 3, 5], star=2))[0][0] == "f2"
    assert ids(chain([4, 4, 4]))[0][0] == "f0"
    bf = chain([4, 5, 3, 5], star=2)
    m = VisibilityService(bf, RULES).matrix()
    assert groups(bf, m, RULES)[0].star_led
    assert not groups(chain([4, 4]), VisibilityService(chain([4, 4]), RULES).matrix(), RULES)[
        0
    ].star_led


def test_no_los_no_link() -> None:
    wall = TerrainFeature(
        "rock", TerrainKind.IMPASSABLE, "rock", Polygon([(5.5, 10), (6, 10), (6, 26), (5.5, 26)])
    )
    bf = chain([4, 4], gap=3.5)
    bf.add_feature(wall)
    assert ids(bf) == [("f0", ("f0",)), ("f1", ("f1",))]


def test_sides_never_mix() -> None:
    a = Figure("a", "a", 4, x=10, y=10, facing=90)
    b = Figure("b", "b", 4, x=12, y=10, facing=270)
    bf = Battlefield(
        Table(36, 36), [], [Force("red", "red", figures=[a]), Force("blue", "blue", figures=[b])]
    )
    m = VisibilityService(bf, RULES).matrix()
    assert [g.members for g in groups(bf, m, RULES)] == [("a",), ("b",)]
    assert [g.members for g in groups(bf, m, RULES, side="blue")] == [("b",)]


def test_option_every_member_linked_to_the_leader() -> None:
    rules = RulesOptions(interpretations=Interpretations(cohesion_chain=False))
    bf = chain([5, 4, 4, 4])
    # f0 (Rep 5) links only to f1; f2-f3 form their own group
    assert ids(bf, rules) == [("f0", ("f0", "f1")), ("f2", ("f2", "f3"))]


def test_incremental_update_follows_moves_and_status() -> None:
    bf = chain([4, 4, 4, 4])
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    bf.move_figure("f3", 30, 30)
    cohesion.update(["f3"])
    assert [g.members for g in cohesion.groups(RULES)] == [("f0", "f1", "f2"), ("f3",)]
    bf.update_figure("f1", status=Status.OBVIOUSLY_DEAD)
    cohesion.update(["f1"])
    assert [g.members for g in cohesion.groups(RULES)] == [("f0",), ("f2",), ("f3",)]


def test_incremental_update_sees_changes_it_was_not_told_of() -> None:
    """The battlefield's change events count, not the caller's list (or its absence)."""
    bf = chain([4, 4, 4, 4])
    service = VisibilityService(bf, RULES)
    cohesion = Cohesion(service)
    bf.update_figure("f1", status=Status.OBVIOUSLY_DEAD)
    cohesion.update(["f3"])  # told of the wrong figure
    assert [g.members for g in cohesion.groups(RULES)] == [("f0",), ("f2", "f3")]
    bf.update_figure("f1", status=Status.CARRY_ON)
    bf.move_figure("f3", 30, 30)
    cohesion.update()
    assert [g.members for g in cohesion.groups(RULES)] == [("f0", "f1", "f2"), ("f3",)]
