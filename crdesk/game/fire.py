"""Shooting (7.9): who may be fired at, the book's shot for a Grunt, judging an
active or reaction fire, and the volley itself -- Ranged Combat, damage, and the
aftermath it hands on (7.9.10, 7.9.11).  A Rocket Launcher's shot goes to the
grenades (7.10.5), a Firearms Detail weapon's to its module (FD §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crdesk.errors import CrdeskError, IllegalActionError
from crdesk.game import adapter, aftermath, buildings, duck_back, firearms_fire, grenades
from crdesk.game import wounded as wounds
from crdesk.game.actions import Fire, fmt_num
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.geometry.measure import arc_of_fire, base_distance
from crdesk.model import Figure, WeaponCode
from crdesk.rules.common import words
from crdesk.rules.shooting import SECTION as FIRE_SECTION
from crdesk.rules.shooting import default_allocation, fire
from crdesk.tables import weapon_stats


def eligible_targets(t: Table, shooter: Figure) -> list[Figure]:
    """Enemies the shooter sees, in range and able to be targeted (7.9.4, 7.9.8)."""
    if not adapter.can_fire(shooter):
        return []
    sight = t.sight()
    rng = adapter.weapon_range(shooter, t.rules)
    return [
        e
        for e in t.alive(t.enemy_of(shooter.side))
        if sight.sees(shooter.id, e.id) and sight.distance(shooter.id, e.id) <= rng
    ]


def opening_taken(t: Table, shooter: Figure) -> list[str]:
    """The two others that have fired this turn from the door or window ``shooter`` stands
    at, when they are two already (8.5: "up to two figures may fire from each door or
    window"); else none."""
    opening = buildings.opening_of(t, shooter)
    if opening is None:
        return []
    others = sorted(set(t.state["fired_from"].get(opening, [])) - {shooter.id})
    return others if len(others) >= 2 else []


def barred(t: Table, fig: Figure) -> bool:
    """Whether the figure may not fire at all now, whatever its target: at a door or
    window two others have fired from this turn (8.5), or reloading (7.9.2).  Such a
    figure "cannot shoot back" (7.9.1) as much as one with no loaded weapon."""
    return bool(opening_taken(t, fig)) or adapter.reloading_now(t, fig.id)


def auto_targets(t: Table, fig: Figure, *, active: bool, frame: Frame | None = None) -> list[Fire]:
    """The book's shot for a Grunt: the nearest enemy first, the arc towards the most
    others, each eligible enemy in it targeted once before any twice (7.9.7, 7.9.8).
    None for a figure at a door or window two others have fired from this turn (8.5):
    every shot the game offers or plays for a figure is one it may take."""
    if fig.status in adapter.STILL_REACTING:
        return []
    if barred(t, fig):
        return []
    if frame is not None and (fig.id in frame.data["fired"] or fig.id in frame.data["reloading"]):
        return []
    if fig.weapon is WeaponCode.NONE:
        return []
    targets = eligible_targets(t, fig)
    if not targets:
        return []
    first = min(targets, key=lambda e: (base_distance(fig, e), e.id))
    if weapon_stats(fig.weapon, t.rules.old_school).blast:
        return [Fire(fig.id, ((first.id, 0),))]
    dice = adapter.target_dice(fig, t.rules)
    best: list[Figure] = [first]
    for side in ("left", "right"):
        arc = arc_of_fire(fig, first, targets, float(dice), side)
        if len(arc) > len(best):
            best = arc
    best = best[:dice]
    alloc = default_allocation(dice, len(best))
    return [Fire(fig.id, tuple((tgt.id, n) for tgt, n in zip(best, alloc, strict=True)))]


def check_fire(t: Table, shooter: Figure, act: Fire, *, reaction: bool) -> None:
    if shooter.weapon is WeaponCode.NONE:
        raise IllegalActionError(f"{shooter.name} has no ranged weapon")
    stats = weapon_stats(shooter.weapon, t.rules.old_school)
    if act.detailed and not (t.rules.firearms_detail and not stats.blast):
        raise IllegalActionError(
            "fire modes and options are for the Firearms Detail rules"
            + (", not blast weapons" if stats.blast else ", off in this scenario")
            + " (FD §5)"
        )
    if t.rules.firearms_detail and not stats.blast:
        firearms_fire.check_fire(t, shooter, act, reaction=reaction)
    if stats.blast and len(act.targets) != 1:
        raise IllegalActionError(
            f"{stats.name} fires at the spot of one figure, with a blast circle (7.10.5)"
        )
    if shooter.out_of_ammo:
        raise IllegalActionError(f"{shooter.name} is out of ammo: reload first (7.9.2)")
    if adapter.reloading_now(t, shooter.id):
        raise IllegalActionError(
            f"{shooter.name} is reloading and cannot fire this activation (7.9.2)"
        )
    others = opening_taken(t, shooter)
    if others:
        raise IllegalActionError(
            "up to two figures may fire from each door or window (8.5): "
            + ", ".join(sorted(t.fig(o).name for o in others))
            + " already have"
        )
    if not reaction and shooter.status in adapter.STILL_REACTING:
        raise IllegalActionError(
            f"{shooter.name} ducked back and may not fire until next active (7.4.4)"
        )
    ids = act.target_ids
    if len(set(ids)) != len(ids):
        raise IllegalActionError("name each target once, with the dice it gets (7.9.9)")
    if len(ids) > stats.target:
        raise IllegalActionError(
            f"{stats.name} has Target {stats.target}: at most {stats.target} targets"
        )
    counts = [n for _, n in act.targets]
    if stats.blast:
        counts = [0]
    elif any(counts) and (
        0 in counts or (sum(counts) != stats.target and not t.rules.firearms_detail)
    ):
        raise IllegalActionError(
            f"give every target at least one die and {stats.target} dice in all (7.9.9), "
            f"got {counts}"
        )
    sight = t.sight()
    rng = adapter.weapon_range(shooter, t.rules)
    targets: list[Figure] = []
    for tid in ids:
        try:
            tgt = t.fig(tid)
        except CrdeskError:
            raise IllegalActionError(f"there is no figure {tid!r}") from None
        if tgt.side == shooter.side:
            raise IllegalActionError(f"{tgt.name} is a friend, not a target")
        if not tgt.status.can_act:
            raise IllegalActionError(f"{tgt.name} is {words(tgt.status)}: not a target")
        if not sight.sees(shooter.id, tgt.id) and t.vis.hides(tgt.id, shooter.id):
            # the pair (figure, cause): the figure ducked back from the cause
            ducked, cause = (
                (tgt, shooter)
                if (tgt.id, shooter.id) in duck_back.hidden_pairs(t)
                else (shooter, tgt)
            )
            raise IllegalActionError(
                f"{ducked.name} ducked back into Cover from {cause.name}: neither sees the "
                "other until it is next active or moves, or the Cover no longer holds "
                "(7.4.4)"
            )
        if not sight.sees(shooter.id, tgt.id) and t.vis.apart(shooter.id, tgt.id):
            raise IllegalActionError(
                f"{tgt.name} is on another floor of the building (8.1): {shooter.name} "
                "cannot see it through the floor (8.3)"
            )
        if not sight.sees(shooter.id, tgt.id):
            why = t.vis.explain(shooter.id, tgt.id)
            raise IllegalActionError(
                f"{shooter.name} has no line of sight to {tgt.name} ({_why_text(why)}) (7.9.4)"
            )
        dist = sight.distance(shooter.id, tgt.id)
        if dist > rng:
            raise IllegalActionError(
                f"{tgt.name} is {dist:.1f}\" away, beyond the {stats.name}'s range of "
                f'{fmt_num(rng)}" (7.9)'
            )
        targets.append(tgt)
    if reaction or stats.blast:
        return  # a reaction always fires at the figure that caused it (7.9.8)
    first = targets[0]
    eligible = eligible_targets(t, shooter)
    alloc = counts if any(counts) else list(default_allocation(stats.target, len(ids)))
    best_reason = ""
    for side in ("left", "right"):
        arc = arc_of_fire(shooter, first, eligible, float(stats.target), side)
        if not all(tgt in arc for tgt in targets):
            best_reason = best_reason or (
                f'the targets must stand within a {stats.target}" arc of fire starting at '
                f"{first.name} (7.9.7)"
            )
            continue
        if max(alloc) > 1 and len(targets) < min(len(arc), stats.target):
            left_out = [tgt.name for tgt in arc if tgt not in targets]
            best_reason = (
                "every eligible enemy in the arc must be targeted once before any is "
                f"targeted twice (7.9.8): {', '.join(left_out)}"
            )
            continue
        return
    raise IllegalActionError(best_reason)


def volley(
    t: Table,
    shooter: Figure,
    act: Fire,
    *,
    rush: bool,
    cause_of_reaction: str | None,
    verb: str = "",
    missed_carry_on: bool = False,
    rush_at: Sequence[bool] | None = None,
) -> None:
    """Fire one weapon (7.9.9-7.9.11) and queue what follows: damage, then the tests.

    ``missed_carry_on``: a target missed takes no Received Fire test (a charger the
    charged figure fired at, 7.11.2's "No Reaction Tests taken").  ``rush_at``: the
    Rush Shot penalty target by target (7.11.2, several chargers)."""
    t.state["volleys"] += 1
    opening = buildings.opening_of(t, shooter)
    if opening is not None:
        fired = t.state["fired_from"].setdefault(opening, [])
        if shooter.id not in fired:
            fired.append(shooter.id)
    sight = t.sight()
    targets = [t.fig(tgt) for tgt in act.target_ids]
    carrying = t.state["carrying"]
    rush = rush or shooter.id in carrying  # carriers fire with the Rush Shot penalty (7.12)
    if weapon_stats(shooter.weapon, t.rules.old_school).blast:
        grenades.rocket(t, shooter, targets[0], rush=rush)
        return
    if t.rules.firearms_detail:  # fire by the weapon's card (FD §5-§8)
        how = verb or ("Rush Shot" if rush else ("returns fire" if cause_of_reaction else "fires"))
        how = how if verb else f"{how} at"
        firearms_fire.volley(t, shooter, act, rush=rush, how=how, missed_carry_on=missed_carry_on)
        return
    specs = [
        adapter.target_spec(tgt, shooter, sight, carrying=wounds.carried(t, tgt.id))
        for tgt in targets
    ]
    counts = [n for _, n in act.targets]
    res = fire(
        t.roll(),
        shooter.rep,
        shooter.weapon,
        specs,
        allocation=counts if any(counts) else None,
        fast_moving=shooter.fast_moving,
        rush_shot=rush,
        rush_at=rush_at,
        options=t.rules,
        who=shooter.name,
    )
    names = ", ".join(tgt.name for tgt in targets)
    how = verb or ("Rush Shot" if rush else ("returns fire" if cause_of_reaction else "fires"))
    how = how if verb else f"{how} at"
    said = res.explain()
    if missed_carry_on:
        said = said.replace(
            f"Missed: takes Received Fire ({FIRE_SECTION}).",
            "Missed: no Reaction Test, the charge goes on (7.11.2).",
        )
    t.emit(
        "fire",
        f"{shooter.name} {how} {names}: {said}",
        result=res,
        figures=[shooter.id, *act.target_ids],
    )
    if res.out_of_ammo:
        t.battlefield.update_figure(shooter.id, out_of_ammo=True)
        adapter.note_emptied(t, shooter.id)
    hits: dict[str, list[str]] = {}
    missed: list[str] = []
    for tgt, tr in zip(targets, res.targets, strict=True):
        if tr.hits:
            hits[tgt.id] = [d.status.value for d in tr.damage]
        elif not missed_carry_on:
            missed.append(tgt.id)
        if tr.carried_damage and tgt.id in carrying:
            hits[carrying[tgt.id]] = [d.status.value for d in tr.carried_damage]
    aftermath.push_aftermath(t, shooter.id, shooter.rep, hits, missed)


def _why_text(result: Any) -> str:
    reason = getattr(result, "reason", None)
    text = getattr(reason, "value", None) or str(reason or "blocked")
    by = getattr(result, "blocker", None) or getattr(result, "feature_id", None)
    return f"{text.replace('_', ' ')}" + (f": {by}" if by else "")
