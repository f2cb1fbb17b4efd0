"""The one place that turns figures and the sight matrix into rules inputs, and back.

The rules functions (``crdesk.rules``) take plain records (:class:`TargetSpec`,
:class:`ReactingFigure`, ...); the controller holds figures on a battlefield
and a :class:`~crdesk.visibility.SightMatrix`.  Everything that reads Cover,
concealment, distance, Outgunned rankings and the like from the table to feed
a rule lives here, so the controller, the AI and the referee read the table the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from crdesk.model import Figure, Status, WeaponCode
from crdesk.options import RulesOptions
from crdesk.rules.melee import Fighter
from crdesk.rules.reaction import ReactingFigure
from crdesk.rules.shooting import TargetSpec, is_outgunned, weapon_rank
from crdesk.tables import weapon_stats
from crdesk.visibility import SightMatrix

STILL_REACTING = frozenset({Status.DUCK_BACK, Status.OUTGUNNED})
"""Reactions a figure is still carrying out until it is next active (7.7.3)."""


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


def outgunned(target: Figure, shooter: Figure, rules: RulesOptions) -> bool:
    """Is ``target`` Outgunned by ``shooter`` (7.9.1)?  Stars never are (5.2)."""
    return is_outgunned(
        rank_of(shooter, rules), rank_of(target, rules), target_is_star=target.is_star
    )


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


def reacting_figure(
    figure: Figure,
    cause: Figure | None,
    sight: Sight,
    rules: RulesOptions,
    *,
    free_will: int | None = None,
) -> ReactingFigure:
    """A figure taking Received Fire / Man Down because of ``cause`` (7.7)."""
    in_cover = cause is not None and sight.in_cover(cause.id, figure.id)
    return ReactingFigure(
        name=figure.name,
        rep=figure.rep,
        in_cover=in_cover,
        outgunned=cause is not None and outgunned(figure, cause, rules),
        is_star=figure.is_star,
        current=figure.status if figure.status in STILL_REACTING else None,
        free_will=free_will,
        id=figure.id,
    )


def fighter(figure: Figure, opponent: Figure) -> Fighter:
    """A figure in melee (7.11.4), +1d6 when its opponent is prone."""
    return Fighter(
        name=figure.name,
        rep=figure.rep,
        weapon=figure.melee,
        opponent_prone=opponent.prone,
        id=figure.id,
    )
