"""The one place that turns figures and the sight matrix into rules inputs, and back.

The rules functions (``crdesk.rules``) take plain records (:class:`TargetSpec`,
:class:`ReactingFigure`, ...); the controller holds figures on a battlefield
and a :class:`~crdesk.visibility.SightMatrix`.  Everything that reads Cover,
concealment, distance, Outgunned rankings and the like from the table to feed
a rule lives here, so the controller, the AI and the referee read the table the
same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crdesk.geometry import movement
from crdesk.geometry.measure import (
    Point2,
    arc_of_fire,
    blast_members,
    charge_direction,
    cover_from_blast,
)
from crdesk.geometry.terrain_index import TerrainIndex
from crdesk.model import Battlefield, Figure, MeleeWeapon, Status, WeaponCode
from crdesk.options import RulesOptions, Weather
from crdesk.rules.firearms.effects import KnockdownResult
from crdesk.rules.firearms.tables import fd
from crdesk.rules.grenades import GRENADE_RANGE
from crdesk.rules.melee import Approach, Fighter, can_declare_charge, target_charge_dice
from crdesk.rules.reaction import ReactingFigure, ReactionTest
from crdesk.rules.shooting import TargetSpec, default_allocation, is_outgunned, weapon_rank
from crdesk.tables import GRENADE, outgunned_rank, weapon_stats
from crdesk.visibility import SightMatrix

if TYPE_CHECKING:
    from crdesk.game.table import Table

STILL_REACTING = frozenset({Status.DUCK_BACK, Status.OUTGUNNED})
"""Reactions that bar a figure from firing until it is next active (7.4.4: "It may not
fire until next active or until a later reaction test tells it to")."""


def carrying_out(t: Table, fig: Figure) -> bool:
    """Whether the figure is still carrying out its Duck Back (or Outgunned, which behaves
    as one), so a new test cannot score better (7.7.3): one taken this turn -- a Duck Back
    "ends its turn" (7.4.4) -- or one still to be moved.  In a later turn the figure may
    still not fire until next active (:data:`STILL_REACTING`), but a reaction test reads
    as rolled and may tell it to (Return Fire, Rush Shot): capped for good, it never
    could (kept games: a Grunt passed 2 turns after its Duck Back and ducked back again)."""
    if fig.status not in STILL_REACTING:
        return False
    if fig.id in t.state["ducked"]:
        return True
    return any(f.kind == "duck_back" and f.data["figure"] == fig.id for f in t.frame_stack)


def own_activation(t: Table, fid: str) -> dict[str, Any] | None:
    """The data of the activation under way of the figure's own group (7.1), if any."""
    for frame in reversed(t.frame_stack):
        if frame.kind == "activation" and fid in frame.data["members"]:
            data: dict[str, Any] = frame.data
            return data
    return None


def reloading_now(t: Table, fid: str) -> bool:
    """Reloading takes the figure's activation, "during which it cannot fire" (7.9.2):
    no shot at all until its group's activation ends -- In Sight and reaction fire
    included, not only its own active fire."""
    d = own_activation(t, fid)
    return d is not None and fid in d["reloading"]


def note_emptied(t: Table, fid: str) -> None:
    """The figure's weapon ran out of ammo (7.9.2) during its own group's activation:
    it reloads at its next activation at the earliest, not later in this one."""
    d = own_activation(t, fid)
    if d is not None:
        emptied = d.setdefault("emptied", [])
        if fid not in emptied:
            emptied.append(fid)


@dataclass(slots=True)
class Sight:
    """A sight matrix with its ids indexed once (the matrix's own lookup is a list scan)."""

    matrix: SightMatrix
    pos: dict[str, int]

    @classmethod
    def of(cls, matrix: SightMatrix) -> Sight:
        return cls(matrix, {fid: k for k, fid in enumerate(matrix.ids)})

    def sees(self, viewer: str, target: str) -> bool:
        """``viewer`` has LOS to ``target`` (its front 180°, 7.9.4)."""
        return bool(self.matrix.visible[self.pos[viewer], self.pos[target]])

    def either(self, a: str, b: str) -> bool:
        """In sight either way (In Sight 7.6, cohesion 6.2, Man Down 7.7)."""
        i, j = self.pos[a], self.pos[b]
        vis = self.matrix.visible
        return bool(vis[i, j] or vis[j, i])

    def in_cover(self, viewer: str, target: str) -> bool:
        """``target`` is in Cover from ``viewer`` (only where the viewer sees it)."""
        return bool(self.matrix.cover[self.pos[viewer], self.pos[target]])

    def concealed(self, viewer: str, target: str) -> bool:
        return bool(self.matrix.concealed[self.pos[viewer], self.pos[target]])

    def distance(self, a: str, b: str) -> float:
        """Base to base, inches."""
        return float(self.matrix.distance[self.pos[a], self.pos[b]])


def can_fire(figure: Figure) -> bool:
    """Has a loaded ranged weapon (7.9.1: out of ammo or unarmed cannot return fire)."""
    return figure.weapon is not WeaponCode.NONE and not figure.out_of_ammo


def rank_of(figure: Figure, rules: RulesOptions) -> int:
    """Outgunned Ranking of the figure's weapon (7.9.1), 0 when it cannot fire."""
    return weapon_rank([figure.weapon], options=rules, can_fire=can_fire(figure))


def fired_rank(figure: Figure, rules: RulesOptions) -> int:
    """Outgunned Ranking of the weapon the figure has just fired on someone (7.9.1):
    its weapon's, loaded or not -- a volley that rolled two 1s and emptied it (7.9.2)
    was still fired with it, and its targets test against what fired on them."""
    return weapon_rank([figure.weapon], options=rules, can_fire=True)


BLAST_RANK = outgunned_rank(weapon_stats(GRENADE))
"""Outgunned Ranking of blast circle weapons (7.9.1): grenades, Rocket Launchers and
every explosion, whoever set it off and whatever else they carry."""


def can_shoot_back(target: Figure, cause: Figure, sight: Sight, rules: RulesOptions) -> bool:
    """Whether ``target`` could shoot at ``cause`` now: a loaded ranged weapon, LOS to
    it (its front 180°) and the cause in range (7.9.1 "cannot shoot back for any reason")."""
    return (
        can_fire(target)
        and sight.sees(target.id, cause.id)
        and sight.distance(target.id, cause.id) <= weapon_range(target, rules)
    )


def outgunned(
    target: Figure,
    cause: Figure,
    sight: Sight,
    rules: RulesOptions,
    *,
    cause_rank: int | None = None,
    shoots_back: bool | None = None,
) -> bool:
    """Is ``target`` Outgunned by what ``cause`` did to it (7.9.1)?  The one place that
    says who outguns whom, for every Received Fire test.  ``shoots_back``: whether it
    can shoot back, when the caller knows more than the table (a readied grenade).

    Outgunned when what fired on it ranks higher -- the cause's weapon, even when that
    volley emptied it (:func:`fired_rank`); ``cause_rank`` when that is not the cause's
    own weapon: a blast weapon's :data:`BLAST_RANK` (7.10), Full Auto's +1
    (FD §5) -- or when it cannot shoot back at the cause for any reason
    (:func:`can_shoot_back`; the ``outgunned_cannot_shoot_back`` option, else only a
    figure with no loaded weapon).  Stars never are (5.2.4).
    """
    if target.is_star:
        return False
    rank = fired_rank(cause, rules) if cause_rank is None else cause_rank
    if is_outgunned(rank, rank_of(target, rules)):
        return True
    if shoots_back is None:
        shoots_back = can_shoot_back(target, cause, sight, rules)
    return rules.interpretations.outgunned_cannot_shoot_back and not shoots_back


def weapon_range(figure: Figure, rules: RulesOptions) -> float:
    """The range of the figure's ranged weapon, 0 when unarmed (7.9, 16.0)."""
    if figure.weapon is WeaponCode.NONE:
        return 0.0
    return float(weapon_stats(figure.weapon, rules.old_school).range)


def target_dice(figure: Figure, rules: RulesOptions) -> int:
    """Target of the figure's weapon: the dice it rolls and the arc width (7.9)."""
    if figure.weapon is WeaponCode.NONE:
        return 0
    return int(weapon_stats(figure.weapon, rules.old_school).target)


def target_spec(
    target: Figure, shooter: Figure, sight: Sight, *, carrying: int | None = None
) -> TargetSpec:
    """A target of fire with its circumstances on 7.9.10 as the table shows them.

    ``carrying`` is the Rep of a wounded friend the target carries (7.12).
    """
    return TargetSpec(
        name=target.name,
        rep=target.rep,
        in_cover=sight.in_cover(shooter.id, target.id),
        prone=target.prone,
        fast_moving=target.fast_moving,
        carried_rep=carrying,
        id=target.id,
    )


def star_power_dice(figure: Figure) -> int | None:
    """The Star Power dice a Star would roll if hit now, None for a figure that is no
    Star: the fire odds take them (:func:`crdesk.odds.fire_odds`), as the game rolls
    them after the volley (5.2).  A Star not yet given its dice gets one per point of
    Rep when its first turn starts, so that is what it has."""
    if not figure.is_star:
        return None
    return figure.star_power if figure.star_power is not None else figure.rep


def reacting_figure(
    figure: Figure,
    cause: Figure | None,
    sight: Sight,
    rules: RulesOptions,
    *,
    free_will: int | None = None,
    cause_rank: int | None = None,
    shoots_back: bool | None = None,
    tests: tuple[ReactionTest, ...] = (),
    still: bool = True,
    counts_in_cover: bool = False,
) -> ReactingFigure:
    """A figure taking Received Fire / Man Down because of ``cause`` (7.7);
    ``cause_rank`` and ``shoots_back`` as for :func:`outgunned`; ``tests``: the tests
    it takes, when not all of the group's roll's; ``still``: it is still carrying out
    its Duck Back or Outgunned (:func:`carrying_out`); ``counts_in_cover``: in Cover
    whatever the sight says (a carrier fired on, 7.12)."""
    in_cover = counts_in_cover or (cause is not None and sight.in_cover(cause.id, figure.id))
    return ReactingFigure(
        name=figure.name,
        rep=figure.rep,
        in_cover=in_cover,
        outgunned=cause is not None
        and outgunned(figure, cause, sight, rules, cause_rank=cause_rank, shoots_back=shoots_back),
        is_star=figure.is_star,
        current=figure.status if still and figure.status in STILL_REACTING else None,
        free_will=free_will,
        id=figure.id,
        tests=tests,
    )


LONG_ARMS = frozenset({WeaponCode.AR, WeaponCode.BAR, WeaponCode.SAR, WeaponCode.SG})
"""The rifles and the shotgun of table 7.9: in melee each counts as a one-hand weapon
(7.11.1: "a rifle or shotgun without bayonet counts as one-hand; other ranged
weapons count as nothing")."""


def melee_weapon(figure: Figure) -> MeleeWeapon:
    """The weapon a figure fights a melee with (7.11.1): its own melee weapon, or its
    rifle or shotgun as a one-hand weapon when it has none (a bayonet, which would make
    the rifle two-hand, is the figure's own melee weapon in crdesk)."""
    if figure.melee is MeleeWeapon.NONE and figure.weapon in LONG_ARMS:
        return MeleeWeapon.ONE_HAND
    return figure.melee


def fighter(figure: Figure, opponent: Figure) -> Fighter:
    """A figure in melee (7.11.4) with its weapon (:func:`melee_weapon`), +1d6 when its
    opponent is prone."""
    return Fighter(
        name=figure.name,
        rep=figure.rep,
        weapon=melee_weapon(figure),
        opponent_prone=opponent.prone,
        id=figure.id,
    )


def eligible_targets(
    shooter: Figure, figures: Iterable[Figure], sight: Sight, rules: RulesOptions
) -> list[Figure]:
    """Enemies the shooter may fire at now: able to act, seen and in range (7.9.4, 7.9.8)."""
    if not can_fire(shooter):
        return []
    rng = weapon_range(shooter, rules)
    return [
        e
        for e in figures
        if e.side != shooter.side
        and e.status.can_act
        and sight.sees(shooter.id, e.id)
        and sight.distance(shooter.id, e.id) <= rng
    ]


@dataclass(frozen=True, slots=True)
class FireChoice:
    """Who a volley that starts at ``first`` may include, and the book's way to share the dice."""

    shooter: str
    first: str
    dice: int
    """The weapon's Target: the dice shared out and the arc's width in inches (7.9.7)."""
    targets: tuple[str, ...]
    """The first target, then every other eligible enemy in the arc to its left or right."""
    default: tuple[tuple[str, int], ...]
    """The book's volley: the fuller arc, each enemy in it once before any twice (7.9.8)."""


def fire_choice(
    shooter: Figure, first: Figure, figures: Iterable[Figure], sight: Sight, rules: RulesOptions
) -> FireChoice:
    """The targets a volley at ``first`` may share its dice among (7.9.7-7.9.9).

    The arc is one band ``dice`` inches wide on one side of the line to the
    first target; both sides are offered, the fuller first (the left on a tie,
    as the book's shot picks it).  Whether a given share is legal stays the
    controller's verdict (``Game.legal``).
    """
    dice = target_dice(shooter, rules)
    eligible = eligible_targets(shooter, figures, sight, rules)
    if dice <= 0 or first not in eligible:
        return FireChoice(shooter.id, first.id, dice, (first.id,), ((first.id, dice),))
    arcs = [arc_of_fire(shooter, first, eligible, float(dice), side) for side in ("left", "right")]
    best = max(arcs, key=len)  # max keeps the first of equals: the left
    other = arcs[1] if best is arcs[0] else arcs[0]
    ids = [f.id for f in best] + [f.id for f in other if f not in best]
    chosen = best[:dice]
    alloc = default_allocation(dice, len(chosen))
    return FireChoice(
        shooter.id,
        first.id,
        dice,
        tuple(ids),
        tuple((f.id, n) for f, n in zip(chosen, alloc, strict=True)),
    )


@dataclass(frozen=True, slots=True)
class ChargeSpec:
    """A Charge into Melee as the table shows it before it is declared (7.11.2)."""

    charger: str
    target: str
    distance: float
    """Base to base, inches."""
    needed: float
    """The movement the charge needs (the reach Interpretation, ``charge_reach_within_six``)."""
    movement_left: float
    in_reach: bool
    reach_text: str
    contact: Point2
    """Where the charger's base would touch the target's, on the line between them."""
    in_cover: bool
    approach: Approach
    target_dice: int


def charge_spec(
    charger: Figure,
    target: Figure,
    sight: Sight,
    rules: RulesOptions,
    *,
    movement_left: float,
    in_cover: bool | None = None,
    cost_of: Callable[[float], float] | None = None,
) -> ChargeSpec:
    """The circumstances the Charge into Melee test would be taken with (7.11.2).

    The contact spot is the one on the straight line between the two bases; the
    controller turns it round the target only when another base stands there,
    which can change a flank charge's reading at the edge of the front cone.
    ``in_cover``: the target's Cover as the test judges it, from the charger moved to
    1" from it (:func:`crdesk.game.melee.target_in_cover`); None: from where the
    charger stands.
    """
    distance = sight.distance(charger.id, target.id)
    decl = can_declare_charge(
        distance=distance,
        remaining_move=movement_left,
        has_los=sight.sees(charger.id, target.id),
        options=rules,
        cost_of=cost_of,
    )
    dx, dy = charger.x - target.x, charger.y - target.y
    norm = math.hypot(dx, dy) or 1.0
    reach = charger.radius + target.radius
    contact = (target.x + dx / norm * reach, target.y + dy / norm * reach)
    approach = Approach(charge_direction(target, (charger.x, charger.y), contact, rules).value)
    if in_cover is None:
        in_cover = sight.in_cover(charger.id, target.id)
    return ChargeSpec(
        charger=charger.id,
        target=target.id,
        distance=distance,
        needed=decl.reach_needed,
        movement_left=movement_left,
        in_reach=decl.allowed,
        reach_text=decl.reason,
        contact=contact,
        in_cover=in_cover,
        approach=approach,
        target_dice=target_charge_dice(in_cover=in_cover, approach=approach, options=rules),
    )


@dataclass(frozen=True, slots=True)
class ThrowSpec:
    """A grenade throw at a spot as the table shows it before it is thrown (7.10.3, 7.10.5)."""

    thrower: str
    point: Point2
    reach: float
    """From the edge of the thrower's base to the spot, inches."""
    range: float
    in_range: bool
    spot_in_los: bool
    """Whether the thrower sees the spot: one pass then lands on it, else misses (7.10.3)."""
    blast_radius: float
    inside: tuple[str, ...]
    """The figures standing (able to act) with their base in the blast circle (7.10.5)."""


def throw_spec(
    thrower: Figure,
    point: Point2,
    battlefield: Battlefield,
    rules: RulesOptions,
    *,
    index: TerrainIndex | None = None,
) -> ThrowSpec:
    """Reach, LOS to the spot and who the blast circle would catch, as the controller reads them."""
    reach = max(0.0, math.hypot(point[0] - thrower.x, point[1] - thrower.y) - thrower.radius)
    standing = [f for f in battlefield.figures() if f.status.can_act]
    return ThrowSpec(
        thrower=thrower.id,
        point=point,
        reach=reach,
        range=GRENADE_RANGE,
        in_range=reach <= GRENADE_RANGE + 1e-9,
        spot_in_los=movement.sees_point(battlefield, thrower, point, rules, index=index),
        blast_radius=rules.blast_radius,
        inside=tuple(f.id for f in blast_members(point, standing, rules)),
    )


def blast_covered(t: Table, centre: Point2, fig: Figure) -> bool:
    """Whether terrain shields the figure from a blast at ``centre`` (7.10.6), judged
    on the index of a clear day (darkness and weather hide, they do not shield)."""
    calm = not t.rules.night and t.rules.weather is Weather.CLEAR
    index = t.vis.index if calm else None
    return cover_from_blast(t.battlefield, centre, fig, t.rules, index=index).covered


def can_be_pushed(game: Table, fid: str, point: tuple[float, float]) -> bool:
    """May the pushed figure be moved straight from where it stands to ``point`` (a
    knockdown's push, FD §8)?"""
    fig = game.fig(fid)
    table = game.battlefield.table
    r = fig.radius
    x, y = point
    if not (r - 1e-9 <= x <= table.width - r + 1e-9 and r - 1e-9 <= y <= table.height - r + 1e-9):
        return False
    cost = movement.path_cost(
        game.battlefield, [(fig.x, fig.y), point], game.rules, index=game.vis.index, radius=r
    )
    return cost.allowed


def knock_down(t: Table, fid: str, kd: KnockdownResult) -> set[str] | None:
    """Lay a figure knocked down prone where its push ends, with the knockdown's event
    (FD §8).  Returns the enemies it had in sight before when the push moved it (its
    In Sight is the caller's, 7.6.2), else None."""
    fig = t.fig(fid)
    end = kd.push.end if kd.push is not None else (fig.x, fig.y)
    before = t.sighted_by(fid)
    t.battlefield.update_figure(fid, prone=True, x=end[0], y=end[1])
    t.emit("knockdown", kd.reason, result=kd, section=fd(8), figures=[fid])
    return before if (end[0], end[1]) != (fig.x, fig.y) else None
