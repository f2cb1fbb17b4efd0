"""The solo enemy's choice of targets: the volley that takes the most player figures out.

An active shooter chooses its targets freely (7.9.8): the first target fixes one end
of the arc of fire (7.9.7), every figure in the arc may be targeted, each once before
any twice, and the dice are given out highest first in the declared order (7.9.9).
The order matters on table 7.9.10: a total of 8 hits only the first target, and only
one in the open; 9 misses a target in Cover or the third.  The book's shot the
controller offers (:func:`crdesk.game.fire.auto_targets`) starts at the nearest enemy
whatever its Cover; a wargamer puts the best die on the figure in the open.

:func:`best_shot` weighs every legal first target (each end of its arc) by the exact
odds of the volley (:func:`crdesk.odds.fire_odds`, which reads the dice with the
rules' own functions: the rules stay in one place) and takes the one expected to take
the most figures Out of the Fight or Obviously Dead (7.9.11) -- a Star's after its
Star Power and Larger Than Life (5.2), which take a level off nearly every hit while
its dice last -- and on a tie, the book's shot.  Where the encounter gives the enemy
an objective that needs some figures out more than others
(:func:`crdesk.game.encounter.objective_figures`: the Defend's Grunts or the item's
guards, 12.3.6; the Raid's carrier, 12.2), the expected number of those comes first.
The odds of a volley depend only on the Reps, weapon and circumstances, so they are
remembered (:func:`_taken_out`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from crdesk.game import adapter, encounter, fire
from crdesk.game import wounded as wounds
from crdesk.game.actions import Fire
from crdesk.game.controller import Game
from crdesk.geometry.measure import arc_of_fire, base_distance
from crdesk.model import Figure
from crdesk.odds import fire_odds
from crdesk.options import RulesOptions
from crdesk.rules.shooting import TargetSpec, default_allocation
from crdesk.tables import weapon_stats

Spec = tuple[int, bool, bool, bool, int | None, int | None]
"""A target's Rep, Cover, prone, Fast Moving, the Rep of a wounded friend it carries and
its Star Power dice (None: no Star)."""


@lru_cache(maxsize=4096)
def _taken_out(
    rep: int,
    weapon: str,
    specs: tuple[Spec, ...],
    fast: bool,
    rush: bool,
    rules: RulesOptions,
) -> tuple[float, ...]:
    """Each target's chance to be taken out (Out of the Fight or Obviously Dead, 7.9.11)
    by a volley at ``specs`` in that order, the dice spread by 7.9.8's default."""
    targets = [
        TargetSpec(rep=r, in_cover=c, prone=p, fast_moving=f, carried_rep=w, id=str(k))
        for k, (r, c, p, f, w, _) in enumerate(specs)
    ]
    stars = [s[5] for s in specs]
    odds = fire_odds(
        rep, weapon, targets, fast_moving=fast, rush_shot=rush, options=rules, star_power=stars
    )
    return tuple(float(t.out_of_the_fight + t.obviously_dead) for t in odds.targets)


def volleys(game: Game, shooter: Figure) -> list[Fire]:
    """Every volley worth weighing: for each eligible enemy as the first target and each
    side of the arc it fixes, the others in that arc in the open first (then the
    nearest), as many as the weapon has Target dice (7.9.7-7.9.9)."""
    stats = weapon_stats(shooter.weapon, game.rules.old_school)
    eligible = fire.eligible_targets(game, shooter)
    sight = game.sight()
    dice = stats.target
    out: list[Fire] = []
    seen: set[tuple[str, ...]] = set()
    for first in sorted(eligible, key=lambda e: (base_distance(shooter, e), e.id)):
        for side in ("left", "right"):
            arc = arc_of_fire(shooter, first, eligible, float(dice), side)
            rest = sorted(
                (e for e in arc if e.id != first.id),
                key=lambda e: (
                    sight.in_cover(shooter.id, e.id),
                    e.prone,
                    base_distance(shooter, e),
                    e.id,
                ),
            )
            chosen = [first, *rest][:dice]
            ids = tuple(e.id for e in chosen)
            if ids in seen:
                continue
            seen.add(ids)
            alloc = default_allocation(dice, len(chosen))
            out.append(Fire(shooter.id, tuple(zip(ids, alloc, strict=True))))
    return out


def value(
    game: Game, shooter: Figure, shot: Fire, wanted: frozenset[str] | None = None
) -> tuple[float, float]:
    """Expected player figures the volley takes out (:func:`_taken_out`): of ``wanted``
    (the figures the enemy's objective needs out; all of them when None), and in all."""
    sight = game.sight()
    specs = tuple(
        (
            tgt.rep,
            sight.in_cover(shooter.id, tgt.id),
            tgt.prone,
            tgt.fast_moving,
            wounds.carried(game, tgt.id),
            adapter.star_power_dice(tgt),
        )
        for tgt in (game.fig(i) for i in shot.target_ids)
    )
    rush = shooter.id in game.state["carrying"]  # carriers fire a Rush Shot (7.12)
    outs = _taken_out(
        shooter.rep, shooter.weapon.value, specs, shooter.fast_moving, rush, game.rules
    )
    total = sum(outs)
    if wanted is None:
        return total, total
    return sum(o for o, t in zip(outs, shot.target_ids, strict=True) if t in wanted), total


@dataclass(frozen=True, slots=True)
class Choice:
    """The volley an enemy shooter chooses and what it is worth against the book's."""

    shot: Fire
    worth: float
    """Expected player figures it takes out."""
    plain: float
    """The same for the book's shot."""
    wanted: frozenset[str] | None = None
    """The figures the enemy's objective needs out (None: every figure alike)."""
    aim: float = 0.0
    """Expected figures of ``wanted`` it takes out."""
    plain_aim: float = 0.0


def best_shot(game: Game, shooter: Figure, book: Fire) -> Choice:
    """The legal volley expected to take out the most of the figures the enemy's
    objective needs (:func:`crdesk.game.encounter.objective_figures`), then the most
    figures in all; ``book`` itself when no other does better, or the weapon is a blast
    weapon or fires by the Firearms Detail cards, whose odds are not weighed here."""
    stats = weapon_stats(shooter.weapon, game.rules.old_school)
    if stats.blast or game.rules.firearms_detail or book.detailed or not adapter.can_fire(shooter):
        return Choice(book, 0.0, 0.0)
    wanted = encounter.objective_figures(game)
    mine = value(game, shooter, book, wanted)
    best, top = book, mine
    for shot in volleys(game, shooter):
        if shot == book:
            continue
        worth = value(game, shooter, shot, wanted)
        better = worth[0] > top[0] + 1e-9 or (worth[0] > top[0] - 1e-9 and worth[1] > top[1] + 1e-9)
        if better and game.legal(shot) is None:
            best, top = shot, worth
    return Choice(best, top[1], mine[1], wanted, top[0], mine[0])
