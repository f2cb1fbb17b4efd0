"""Firing under Firearms Detail (``rules/firearms-detail.md`` §5-§8, §11): the mode
a fire action uses, its targets with everyone standing near them, judging the
action and firing the volley (bursts, Full Auto's spread, buckshot, the knockdown
push), and what the fire dialog shows of it (the plan in words, the exact odds).

The module's Interpretations are :mod:`crdesk.game.firearms`'s; the weapon state
(rounds, magazines, the mode last used) is kept there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, aftermath, wounded
from crdesk.game.actions import Fire
from crdesk.game.firearms import activation_of, has_moved, modes, store, weapon_state
from crdesk.geometry.measure import base_distance
from crdesk.model import Figure, Status
from crdesk.rules.common import plural
from crdesk.rules.firearms.ammo import (
    WeaponState,
    max_dice,
)
from crdesk.rules.firearms.fire import (
    FigureFire,
    FireOptions,
    FireTarget,
    Nearby,
    PushGeometry,
    fire_weapon,
    firing_mode,
    spread_row,
)
from crdesk.rules.firearms.odds import (
    FirearmsOdds,
    fire_weapon_odds,
)
from crdesk.rules.firearms.tables import (
    BURST_MODES,
    FA_DICE,
    FA_ROUNDS,
    ROUNDS_PER_DIE,
    SINGLE_SHOT_MODES,
    FireMode,
    Support,
    buckshot_band,
    fd,
)

if TYPE_CHECKING:
    from crdesk.game.table import Table


def _choose_mode(game: Table, ws: WeaponState, act: Fire) -> FireMode:
    """The mode the action fires in: the named one, else the current, else the first
    that can fire (see the module's Interpretations)."""
    if act.mode:
        return FireMode(act.mode)
    old = game.rules.old_school
    if max_dice(ws, ws.current_mode, old_school=old) > 0:
        return ws.current_mode
    for m in ws.card.modes:
        if max_dice(ws, m, old_school=old) > 0:
            return m
    return ws.current_mode


def _one_target(ws: WeaponState, mode: FireMode) -> bool:
    return ws.card.buckshot or mode is FireMode.FA


def _targets_fired_at(ws: WeaponState, mode: FireMode, act: Fire) -> tuple[str, ...]:
    ids = act.target_ids
    if not act.mode and _one_target(ws, mode):
        return ids[:1]
    return ids


def _support(act: Fire) -> Support:
    return Support(act.support) if act.support else Support.NONE


def _fire_targets(game: Table, shooter: Figure, ids: tuple[str, ...]) -> list[FireTarget]:
    """Each target with its range and every other standing figure near it (friend or foe)."""
    sight = game.sight()
    standing = [f for f in game.battlefield.figures() if f.status.can_act and f.id != shooter.id]
    specs = {
        f.id: adapter.target_spec(f, shooter, sight, carrying=wounded.carried(game, f.id))
        for f in standing
    }
    out = []
    for tid in ids:
        t = game.fig(tid)
        spec = specs.get(tid) or adapter.target_spec(t, shooter, sight)
        nearby = tuple(Nearby(specs[o.id], base_distance(t, o)) for o in standing if o.id != tid)
        out.append(FireTarget(spec, sight.distance(shooter.id, tid), nearby))
    return out


def _options(
    game: Table,
    shooter: Figure,
    ws: WeaponState,
    act: Fire,
    mode: FireMode,
    *,
    rush: bool,
    with_geometry: bool,
) -> FireOptions:
    counts = [n for _, n in act.targets]
    one_round = mode in SINGLE_SHOT_MODES and not ws.card.buckshot
    allocation = tuple(counts) if one_round and any(counts) else None
    geometry = None
    if with_geometry:
        geometry = PushGeometry(
            (shooter.x, shooter.y),
            {f.id: (f.x, f.y) for f in game.battlefield.figures()},
            can_push=lambda key, point: adapter.can_be_pushed(game, key, point),
        )
    return FireOptions(
        mode=mode,
        aim=act.aim,
        walk_pairs=act.walk,
        support=_support(act),
        moved=has_moved(game, shooter),
        fast_moving=shooter.fast_moving,
        rush_shot=rush,
        keep_tight_ammo=game.rules.interpretations.fd_keep_tight_ammo,
        dice_count=sum(allocation) if allocation else None,
        allocation=allocation,
        options=game.rules,
        geometry=geometry,
        who=shooter.name,
    )


def later_knockdowns(
    game: Table,
    shooter: Figure,
    ws: WeaponState,
    figures: Sequence[FigureFire],
    hits: dict[str, list[str]],
) -> dict[str, dict[str, Any]]:
    """The Stars hit for Out of the Fight or worse who have Star Power to roll: their
    knockdown (FD §8: "hit but not put Out of the Fight") waits until Star Power has
    settled the damage (5.2.1), when a Duck Back left of it rolls it
    (:func:`crdesk.game.aftermath.late_knockdown`)."""
    down = _down(hits)
    return {
        f.id: {"number": ws.card.knockdown, "from": [shooter.x, shooter.y]}
        for f in figures
        if ws.card.knockdown
        and f.id in down
        and game.fig(f.id).is_star
        and game.fig(f.id).star_power
    }


# --------------------------------------------------------------------------
# Judging and firing


def check_fire(game: Table, shooter: Figure, act: Fire, *, reaction: bool) -> None:
    """Refuse a fire action the figure's card or ammunition does not allow, saying why
    (FD §2-§7); the base game's checks (sight, range, arc) follow in the controller."""
    ws = weapon_state(game, shooter)
    if ws is None:
        return
    card = ws.card
    if act.mode and FireMode(act.mode) not in card.modes:
        have = ", ".join(f"{m.label} ({m.value})" for m in card.modes)
        raise IllegalActionError(
            f"{shooter.name}'s {card.name} has no {FireMode(act.mode).label} mode; "
            f"its card has {have} (FD §2)"
        )
    mode = _choose_mode(game, ws, act)
    n = max_dice(ws, mode, old_school=game.rules.old_school)
    if n <= 0:
        for m in modes(game, shooter):
            if m.mode is mode and m.reason:
                raise IllegalActionError(f"{shooter.name}'s {m.reason}")
    if act.aim:
        if reaction or activation_of(game, shooter.id) is None:
            raise IllegalActionError(f"{shooter.name} may aim only when active (FD §5.1)")
        if has_moved(game, shooter):
            raise IllegalActionError(
                f"{shooter.name} has moved this activation: aiming needs a figure that does "
                "not move (FD §5.1)"
            )
    if act.support and has_moved(game, shooter):
        raise IllegalActionError(
            f"{shooter.name} has moved this activation: supported fire ({act.support}) needs "
            "a shooter that did not move (FD §7)"
        )
    if act.aim and act.walk:
        raise IllegalActionError("aiming is not allowed with walking fire (FD §5.1)")
    if act.walk and act.walk > 4:
        raise IllegalActionError("at most 4 pairs may be sacrificed to walk the target (FD §5.2)")
    counts = [n for _, n in act.targets]
    if any(counts) and (mode not in SINGLE_SHOT_MODES or card.buckshot):
        raise IllegalActionError(
            f"{mode.label} sets its own dice (FD §5, §6): name the targets without dice counts"
        )
    if any(counts) and sum(counts) > n:
        raise IllegalActionError(
            f"{card.name} on {mode.label} fires {plural(n, 'die', 'dice')} now "
            f"({plural(ws.rounds, 'round')} left), not {sum(counts)} (FD §3)"
        )
    ids = _targets_fired_at(ws, mode, act)
    placeholder = [FireTarget(adapter.target_spec(game.fig(t), shooter, game.sight())) for t in ids]
    choice = _options(game, shooter, ws, act, mode, rush=False, with_geometry=False)
    firing_mode(replace(ws, mode=mode), placeholder, choice)


def volley(
    game: Table,
    shooter: Figure,
    act: Fire,
    *,
    rush: bool,
    how: str,
    missed_carry_on: bool,
) -> None:
    """Fire by the weapon's card (FD §5-§8) and queue what follows as the base game's
    volley does: damage, then the Man Down and Received Fire tests."""
    ws = weapon_state(game, shooter)
    assert ws is not None
    mode = _choose_mode(game, ws, act)
    ids = _targets_fired_at(ws, mode, act)
    targets = _fire_targets(game, shooter, ids)
    choice = _options(game, shooter, ws, act, mode, rush=rush, with_geometry=True)
    res = fire_weapon(game.roll(), shooter.rep, replace(ws, mode=mode), targets, choice)
    store(game, shooter.id, res.ammo.after)
    names = ", ".join(game.fig(t).name for t in ids)
    chosen = ", ".join(
        (["aimed"] if act.aim else [])
        + ([f"walking {plural(act.walk, 'pair')}"] if act.walk else [])
        + ([f"supported ({act.support})"] if act.support else [])
    )
    said = res.explain()
    if missed_carry_on:
        said += " A missed charger takes no Reaction Test, the charge goes on (7.11.2)."
    involved = [shooter.id, *dict.fromkeys(f.id for f in res.figures)]
    game.emit(
        "fire",
        f"{shooter.name} {how} {names} with {ws.card.name} on {mode.label}"
        + (f" ({chosen})" if chosen else "")
        + f": {said}",
        result=res,
        section=res.section,
        figures=involved,
    )
    if res.ammo.after.empty:
        game.emit(
            "out_of_ammo",
            f"{shooter.name}'s {ws.card.name} is empty: "
            + (
                f"reload with one of {plural(res.ammo.after.spares, 'spare magazine')} (FD §3)."
                if res.ammo.after.spares
                else "no spare magazine is left (FD §3)."
            ),
            section=fd(3),
            figures=[shooter.id],
        )
    hits: dict[str, list[str]] = {}
    for f in res.figures:
        statuses = [d.status.value for d in f.damage if d.status is not None]
        if f.forced_status is not None:
            statuses.append(f.forced_status.value)
        if f.hits and statuses:
            hits.setdefault(f.id, []).extend(statuses)
    pushed: list[tuple[str, set[str]]] = []
    for f in res.figures:
        kd = f.knockdown
        if kd is None or not kd.knocked_down or f.id in _down(hits):
            continue
        before = adapter.knock_down(game, f.id, kd)
        if before is not None:
            pushed.append((f.id, before))
    for fid, before in pushed:  # pushed into an enemy's sight: In Sight after the fire (7.6.2)
        game.involuntary_in_sight(fid, before, "is pushed")
    missed: list[str] = []
    if not missed_carry_on:
        missed = list(dict.fromkeys(f.id for f in res.figures if f.received_fire))
        missed = [m for m in missed if m not in _down(hits)]
    if missed:
        names_rf = ", ".join(game.fig(m).name for m in missed)
        game.emit(
            "received_fire",
            f"{names_rf} {'is' if len(missed) == 1 else 'are'} in the line of fire and "
            f"{'takes' if len(missed) == 1 else 'take'} Received Fire ({fd(5)}, 7.7).",
            section=fd(5),
            figures=missed,
        )
    aftermath.push_aftermath(game, shooter.id, shooter.rep, hits, missed)
    later = later_knockdowns(game, shooter, ws, res.figures, hits)
    if later:  # only then, so the frames of other games stay as they were
        game.frame_stack[-1].data["knockdown"] = later


def _down(hits: dict[str, list[str]]) -> set[str]:
    worst = (Status.OUT_OF_THE_FIGHT.value, Status.OBVIOUSLY_DEAD.value)
    return {fid for fid, statuses in hits.items() if any(s in worst for s in statuses)}


# --------------------------------------------------------------------------
# What the play mode shows


def plan(game: Table, shooter: Figure, act: Fire) -> str:
    """How the firing's dice go, in one sentence (FD §5, §6): the fire dialog's header,
    which must not say "share N dice among the enemies" of a Full Auto volley or a
    buckshot shell, whose dice the rules give out."""
    ws = weapon_state(game, shooter)
    if ws is None:
        raise IllegalActionError(f"{shooter.name} has no weapon card (Firearms Detail is off)")
    mode = _choose_mode(game, ws, act)
    first = game.fig(act.target_ids[0])
    away = game.sight().distance(shooter.id, first.id)
    if ws.card.buckshot:
        band = buckshot_band(away)
        return (
            f'one buckshot shell (1 round) at {first.name} ({away:.1f}" away): '
            f"{plural(band.figures, 'figure')} in the spread, {band.words} (FD §6)"
        )
    n = max_dice(ws, mode, old_school=game.rules.old_school)
    if mode is FireMode.FA:
        _, row = spread_row(away, _support(act))
        rolled = FA_DICE - 2 * act.walk
        on_primary = min(row.primary_dice, rolled)
        walked = f", {2 * act.walk} sacrificed to walk the target" if act.walk else ""
        return (
            f"one Full Auto volley, {FA_DICE} dice ({FA_ROUNDS} rounds){walked}: {on_primary} "
            f'on {first.name} ({away:.1f}" away), the other {rolled - on_primary} on the '
            f'figures within {row.spread:g}" of {first.name}, friend or foe, nearest first '
            f"({fd(5)})"
        )
    if mode in BURST_MODES:
        per = ROUNDS_PER_DIE[mode]
        return (
            f"{mode.label}: up to {plural(n, 'burst')} ({per} rounds each), one per target; "
            f'a burst that misses may fall on the nearest figure within 1" ({fd(5)})'
        )
    return (
        f"{mode.label}: up to {plural(n, 'die', 'dice')}, one round each, shared among "
        f"the targets in the arc of fire (7.9.7-7.9.9, {fd(3)})"
    )


def odds(game: Table, shooter: Figure, act: Fire) -> FirearmsOdds:
    """The exact odds per die of this fire action (FD §11), as it would be fired now."""
    ws = weapon_state(game, shooter)
    if ws is None:
        raise IllegalActionError(f"{shooter.name} has no weapon card (Firearms Detail is off)")
    mode = _choose_mode(game, ws, act)
    ids = _targets_fired_at(ws, mode, act)
    targets = _fire_targets(game, shooter, ids)
    choice = _options(game, shooter, ws, act, mode, rush=False, with_geometry=False)
    return fire_weapon_odds(shooter.rep, replace(ws, mode=mode), targets, choice)
