"""Firearms Detail in the game (``rules/firearms-detail.md`` §3-§11): the controller's
side of the module.

The rules are :mod:`crdesk.rules.firearms` (pure); this module reads the table
for them (who stands near a target, where a pushed figure may go) and writes
what they decide back into the game: rounds and magazines per figure in the
game state, knocked-down figures prone and pushed, hits and Received Fire
handed to the game's aftermath as the base game's fire does.  The controller
calls in here only when the scenario's ``firearms_detail`` switch is on, so
with it off nothing about play (nor a game's state hash) changes.

**Interpretations** (each could become a rules option):

* The weapon state of every armed figure is kept in the game state under
  ``"weapons"``: rounds, spare magazines, ready, the mode last used.  The base
  game's ``out_of_ammo`` flag is set when no mode of the card can fire with the
  rounds left, so everything that asks "can it fire" (return fire, the Reload
  choice, Outgunned) reads the module's ammunition; Tight Ammo's own roll is
  not used (FD §3 replaces it).
* A fire action that names no mode uses the mode last chosen, else the first
  of the card's modes that can fire with the rounds left (the book's automatic
  shots, reactions and return fire included); Full Auto and buckshot then fire
  at the first target only (the others are in the spread).
* The spread, burst misses and buckshot fall on every figure standing (able to
  act) other than the shooter, friend or foe, seen by the shooter or not,
  measured base edge to base edge from the target.  Their 7.9.10 Cover is the
  sight matrix's Cover from the shooter.
* A figure hit takes its damage.  Every figure of a Full Auto spread not put Out
  of the Fight or Obviously Dead takes Received Fire, hit or not (FD §5, §11: a
  figure ducking back from its hit cannot score better than Duck Back, 7.7.3);
  a missed target of the other modes takes it as in the base game.
* Reload swaps magazines whenever the weapon is not full and a spare is left
  (not only when empty), with 7.9.2's limits (not after firing this activation,
  normal movement only).
* Aiming (FD §5.1) needs an active shooter that has not moved this activation;
  supported fire (§7) a shooter that has not moved (a reacting figure did not).
* Full Auto's Outgunned Ranking +1 (FD §5) applies to the reaction tests the
  volley causes: the cause's weapon last fired on Full Auto.
* The knockdown push stops at the table edge, walls and impassable ground (what
  a move may not cross, :func:`crdesk.geometry.movement.path_cost`).
* Every explosion (a grenade, the drop of a readied one, a Rocket Launcher, a
  building collapse's blast) uses the rings of FD §9 instead of the 7.10.5
  circle, on every standing figure, friend or foe, measured from the burst
  point to the nearest edge of its base; Cover between and prone escape as
  7.10.6 (the same Cover test as the circle).  The figure that set it off rolls
  its damage in a ring like anyone but takes no Received Fire test from its own
  explosion.  A miss (7.10.3; a Rocket off target) does no damage, and everyone
  it would have reached (within 10") takes Received Fire.
* A blast weapon's shot spends one round of its card, so a launcher reloads from
  its spares (FD §3) like any weapon.
* Indirect fire (``indirect p1 at X,Y``, FD §10) is the active figure's fire for
  its activation, by a blast weapon (the RL category), within the weapon's range,
  at a spot the game's sight says it does not see (terrain, or behind its front
  arc).  The shot is at the spot (8 or more on 7.9.10 is on it), not at a figure
  there.  The spotter is the nearest friend able to act who sees the spot, within
  4" of the shooter base to base, or anywhere with the ``fd_spotter_by_radio``
  option.  A building area on the spot does not collapse (8.4 is for direct hits).
* Readying (``ready p1 weapon``, FD §4) costs 2" of the movement left this
  activation; it is offered only for an unready weapon.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from crdesk.errors import IllegalActionError
from crdesk.game import adapter, aftermath
from crdesk.game.actions import Action, Indirect, Ready
from crdesk.game.table import RulesModule
from crdesk.geometry import movement
from crdesk.geometry.measure import base_distance, distance_to_point
from crdesk.model import Figure
from crdesk.rules.common import plural
from crdesk.rules.firearms.ammo import (
    ReadinessResult,
    WeaponState,
    max_dice,
    ready_by_moving,
    reload,
    spend_rounds,
    start_of_activation,
)
from crdesk.rules.firearms.cards import WeaponCard, figure_card
from crdesk.rules.firearms.effects import RingFigure, RingsResult, explosive_rings, ring_class
from crdesk.rules.firearms.fire import (
    indirect_fire,
    indirect_steps,
)
from crdesk.rules.firearms.odds import (
    FigureOdds,
    die_hit_chance,
    rings_odds,
)
from crdesk.rules.firearms.tables import (
    EXPLOSIVE_RECEIVED_FIRE,
    EXPLOSIVE_RINGS,
    FA_RANK_BONUS,
    SPOTTER_REACH,
    DamageClass,
    FireMode,
    fd,
)
from crdesk.rules.shooting import TargetSpec, shot_circumstances
from crdesk.tables import weapon_stats

if TYPE_CHECKING:
    from crdesk.game.records import Frame
    from crdesk.game.table import Table

KEY = "weapons"
"""The game state's key for the figures' weapons (only with the module on)."""


def on(game: Table) -> bool:
    return bool(game.rules.firearms_detail)


def card_of(game: Table, fig: Figure) -> WeaponCard | None:
    """The card the figure fires with (the scenario's user weapon it names, else its
    category's default card), None when unarmed."""
    return figure_card(fig.weapon, fig.weapon_card, game.scenario.weapon_cards)


def _row(ws: WeaponState) -> dict[str, Any]:
    return {
        "rounds": ws.rounds,
        "spares": ws.spares,
        "ready": ws.ready,
        "mode": ws.mode.value if ws.mode is not None else None,
    }


def initial_state(game: Table) -> dict[str, dict[str, Any]]:
    """Every armed figure starts with a full magazine and its card's spares (FD §3)."""
    out: dict[str, dict[str, Any]] = {}
    for fig in game.battlefield.figures():
        card = card_of(game, fig)
        if card is not None:
            ws = WeaponState.loaded(card)
            if fig.out_of_ammo:  # set up empty in the scenario
                ws = replace(ws, rounds=0)
            out[fig.id] = _row(ws)
    return out


def _start(game: Table) -> None:
    game.state[KEY] = initial_state(game)  # rounds per figure, only then (hashes stay, FD §3)


MODULE = RulesModule(
    "Firearms Detail",
    plays=lambda settings, rules: bool(rules.firearms_detail),
    start=_start,
)
"""Firearms Detail as a plug-in: the weapons' state from the start of the game; its
rules hook into fire (7.9), blasts (7.10), reactions (7.8) and reloading through
the calls the procedures make when ``rules.firearms_detail`` is on."""


def weapon_state(game: Table, fig: Figure) -> WeaponState | None:
    """The figure's weapon now (FD §3, §4); None when unarmed or the module is off."""
    if not on(game):
        return None
    card = card_of(game, fig)
    if card is None:
        return None
    row = game.state.setdefault(KEY, {}).get(fig.id)
    if row is None:  # a figure that came later (a PEF's contact): a full magazine
        return WeaponState.loaded(card)
    mode = FireMode(row["mode"]) if row["mode"] is not None else None
    if mode is not None and mode not in card.modes:
        mode = None
    return WeaponState(card, int(row["rounds"]), int(row["spares"]), bool(row["ready"]), mode)


def can_fire_now(ws: WeaponState, old_school: bool = False) -> bool:
    """Some mode of the card can fire with the rounds left (FD §3)."""
    return any(max_dice(ws, m, old_school=old_school) > 0 for m in ws.card.modes)


def store(game: Table, fid: str, ws: WeaponState) -> None:
    """Write the figure's weapon state back into the game state (FD §3).  A weapon
    that runs dry during its own group's activation is reloaded at its next at the
    earliest (FD §3: "reloading is the figure's action as in 7.9.2")."""
    game.state.setdefault(KEY, {})[fid] = _row(ws)
    empty = not can_fire_now(ws, game.rules.old_school)
    if game.fig(fid).out_of_ammo != empty:
        game.battlefield.update_figure(fid, out_of_ammo=empty)
        if empty:
            adapter.note_emptied(game, fid)


# --------------------------------------------------------------------------
# What a figure may choose


@dataclass(frozen=True, slots=True)
class ModeChoice:
    """One fire mode of a figure's card and whether it can be used now (FD §2, §3)."""

    mode: FireMode
    label: str
    dice: int
    """Dice it would roll now (0: cannot fire)."""
    reason: str | None
    """None when usable, else why not."""


def modes(game: Table, fig: Figure) -> list[ModeChoice]:
    """The modes of the figure's card with the dice each rolls now, and why a mode cannot
    be used (FD §2, §3): what the fire dialog offers."""
    ws = weapon_state(game, fig)
    if ws is None:
        return []
    out = []
    for m in ws.card.modes:
        n = max_dice(ws, m, old_school=game.rules.old_school)
        why = None
        if n <= 0:
            need = 10 if m is FireMode.FA else 1
            why = (
                f"{ws.card.name} is empty: reload (FD §3)"
                if ws.empty
                else f"{ws.card.name} holds {plural(ws.rounds, 'round')}; {m.label} needs "
                f"at least {need} (FD §3)"
            )
        out.append(ModeChoice(m, m.label, n, why))
    return out


def activation_of(game: Table, fid: str) -> Frame | None:
    """The activation under way the figure acts in, if any."""
    for frame in reversed(game.frame_stack):
        if frame.kind == "activation" and fid in frame.data["members"]:
            return frame
    return None


def has_moved(game: Table, fig: Figure) -> bool:
    """Whether the figure moved in its activation or is fast moving: no aiming (FD §5.1)
    and no supported fire (FD §7)."""
    frame = activation_of(game, fig.id)
    moved = frame is not None and fig.id in frame.data["moved"]
    return moved or fig.fast_moving


# --------------------------------------------------------------------------
# Explosions (FD §9)


def spend_blast_round(game: Table, shooter: Figure) -> None:
    """A blast weapon's shot spends one round of its card (FD §3), so a launcher with
    spare rounds reloads from them as any weapon does."""
    ws = weapon_state(game, shooter)
    if ws is None or ws.rounds <= 0:
        return
    res = spend_rounds(ws, ws.current_mode, 1)
    store(game, shooter.id, res.after)
    game.emit(
        "magazine",
        f"{shooter.name}: {res.explain()}",
        result=res,
        section=fd(3),
        figures=[shooter.id],
    )


RING_RULES = {
    DamageClass.DEADLY: "damage roll at +1",
    DamageClass.SEVERE: "normal damage roll",
    DamageClass.WOUND: "Obviously Dead counts as Out of the Fight",
}
"""What each ring's damage class does on 7.9.11, for the events (FD §9)."""


def _rings_text() -> str:
    parts = [f'{r.damage.label} to {r.up_to:g}"' for r in EXPLOSIVE_RINGS]
    return ", ".join(parts) + f', Received Fire to {EXPLOSIVE_RECEIVED_FIRE:g}"'


def blast(
    game: Table,
    centre: tuple[float, float],
    cause: str,
    attacker_rep: int | None,
    weapon: str,
    missed: bool = False,
    exclude: tuple[str, ...] = (),
    *,
    label: str | None = None,
) -> None:
    """An explosion by the module's rings instead of the blast circle (FD §9, for 7.10.5).

    Every standing figure, friend or foe (the thrower too), within the Received Fire
    reach of the burst point is taken nearest first, measured to the edge of its base
    (as "wholly or partly inside" reads the circle); one event per ring says what it
    did to each figure in it.  Cover between or prone escapes damage (7.10.6).  The
    figure that set it off (thrower, shooter) takes no Received Fire test from its own
    explosion, though its damage in a ring it rolls like anyone's.  A miss
    (7.10.3, a Rocket or indirect shot off the spot) does no damage: every figure the
    explosion would have reached takes Received Fire.  The aftermath (damage, Man Down,
    Received Fire) is the base game's.
    """
    skip = set(exclude)
    where = f"({centre[0]:.1f}, {centre[1]:.1f})"
    what = label or weapon_stats(weapon, game.rules.old_school).name
    near = sorted(
        (
            (distance_to_point(f, centre), f)
            for f in game.battlefield.figures()
            if f.status.can_act and f.id not in skip
        ),
        key=lambda p: (p[0], p[1].id),
    )
    near = [(d, f) for d, f in near if d <= EXPLOSIVE_RECEIVED_FIRE]
    ids = [f.id for _, f in near]
    if not near:
        game.emit(
            "blast",
            f"The {what} bursts at {where} and reaches nobody (rings: {_rings_text()}, {fd(9)}).",
            section=fd(9),
        )
        return
    if missed:
        ids = [i for i in ids if i != cause]
        near = [(d, f) for d, f in near if f.id != cause]
        if not near:
            game.emit(
                "blast",
                f"The {what} misses the spot {where}: no damage, and nobody else is within "
                f'{EXPLOSIVE_RECEIVED_FIRE:g}" (7.10.3, {fd(9)}).',
                section=fd(9),
            )
            return
        names = ", ".join(f.name for _, f in near)
        game.emit(
            "blast",
            f"The {what} misses the spot {where}: no damage; {names} "
            f'{"is" if len(near) == 1 else "are"} within {EXPLOSIVE_RECEIVED_FIRE:g}" and '
            f"{'takes' if len(near) == 1 else 'take'} Received Fire (7.10.3, {fd(9)}).",
            section=fd(9),
            figures=ids,
        )
        aftermath.push_aftermath(game, cause, attacker_rep, {}, ids, blast=True)
        return
    specs = [
        RingFigure(f.name, f.rep, d, adapter.blast_covered(game, centre, f), f.prone, id=f.id)
        for d, f in near
    ]
    game.emit(
        "blast",
        f"The {what} bursts at {where}: damage by rings ({_rings_text()}) instead of "
        f"the blast circle ({fd(9)}).",
        section=fd(9),
        figures=ids,
    )
    impact = weapon_stats(weapon, True).impact if game.rules.old_school else None
    hits: dict[str, list[str]] = {}
    shaken: list[str] = []
    labels, inner = [], 0.0
    for r in EXPLOSIVE_RINGS:
        span = f'{inner:g}"-{r.up_to:g}"' if inner else f'up to {r.up_to:g}"'
        labels.append(f"{r.damage.label} ring ({span}, {RING_RULES[r.damage]})")
        inner = r.up_to
    labels.append(
        f'Outside the rings ({inner:g}"-{EXPLOSIVE_RECEIVED_FIRE:g}", Received Fire only)'
    )
    for n, label in enumerate(labels):
        cls = EXPLOSIVE_RINGS[n].damage if n < len(EXPLOSIVE_RINGS) else None
        ring = [s for s in specs if ring_class(s.distance) is cls]
        if not ring:
            continue
        res: RingsResult = explosive_rings(game.roll(), ring, options=game.rules, impact=impact)
        own = ""
        for v in res.figures:
            if v.damage is not None and v.damage.status is not None:
                hits[v.id] = [v.damage.status.value]
            elif v.received_fire and v.id == cause:
                own = f" But {v.name} set it off: no Received Fire test from its own explosion."
            elif v.received_fire:
                shaken.append(v.id)
        game.emit(
            "blast_ring",
            f"{label}: {res.explain()}{own}",
            result=res,
            section=fd(9),
            figures=[v.id for v in res.figures],
        )
    aftermath.push_aftermath(game, cause, attacker_rep, hits, shaken, blast=True)


# --------------------------------------------------------------------------
# The module's own actions: indirect fire (FD §10), readying a weapon (FD §4)


def accepts(game: Table) -> tuple[str, ...]:
    """The action words the module adds to an activation's choices."""
    return ("indirect",) if on(game) else ()


def handles(act: Action) -> bool:
    """Whether the action is the module's (the controller hands it here)."""
    return isinstance(act, Indirect) or (isinstance(act, Ready) and act.weapon)


def check_action(game: Table, frame: Frame, fig: Figure, act: Action) -> None:
    """Refuse an indirect fire or a weapon readying the rules do not allow, saying why."""
    if not on(game):
        what = (
            "Indirect fire (FD §10)" if isinstance(act, Indirect) else "Readying a weapon (FD §4)"
        )
        raise IllegalActionError(f"{what} is for the Firearms Detail rules, off in this scenario")
    if isinstance(act, Indirect):
        _check_indirect(game, frame, fig, act)
    else:
        _ready_weapon(game, frame, fig)


def apply_action(game: Table, frame: Frame, act: Action) -> None:
    """Carry out an action :func:`check_action` allowed."""
    fig = game.fig(act.who or "")
    if isinstance(act, Indirect):
        _indirect(game, frame, fig, act.point)
        return
    res = _ready_weapon(game, frame, fig)
    d = frame.data
    d["used"][fig.id] = float(d["used"][fig.id]) + res.movement_spent
    store(game, fig.id, res.after)
    game.emit(
        "ready_weapon", f"{fig.name}: {res.reason}", result=res, section=fd(4), figures=[fig.id]
    )


def activation_options(game: Table, frame: Frame, members: list[Figure]) -> list[Action]:
    """The module's choices an activation offers: readying an unready weapon (FD §4)."""
    out: list[Action] = []
    if not on(game):
        return out
    for f in members:
        ws = weapon_state(game, f)
        if ws is not None and not ws.ready:
            try:
                _ready_weapon(game, frame, f)
            except IllegalActionError:
                continue
            out.append(Ready(f.id, weapon=True))
    return out


def _ready_weapon(game: Table, frame: Frame, fig: Figure) -> ReadinessResult:
    ws = weapon_state(game, fig)
    if ws is None:
        raise IllegalActionError(f"{fig.name} has no weapon to ready")
    try:
        return ready_by_moving(ws, game.movement_left(frame, fig.id))
    except IllegalActionError as exc:
        raise IllegalActionError(f"{fig.name}: {exc}") from None


def _indirect_shooter_why(game: Table, frame: Frame, fig: Figure) -> str | None:
    """Why ``fig`` may fire indirectly at no spot at all now (None: some spot may do)."""
    d = frame.data
    if fig.id in d["fired"]:
        return f"{fig.name} has already fired this activation (7.2)"
    if fig.id in d["reloading"]:
        return f"{fig.name} is reloading and cannot fire (7.9.2)"
    if fig.status in adapter.STILL_REACTING:
        return f"{fig.name} ducked back and may not fire until next active (7.4.4)"
    ws = weapon_state(game, fig)
    if ws is None:
        return f"{fig.name} has no ranged weapon"
    if not ws.card.stats(game.rules.old_school).blast:
        return (
            f"{fig.name}'s {ws.card.name} counts as {ws.card.category}: only blast weapons "
            "(grenade launchers, mortars: the RL category) fire indirectly (FD §10)"
        )
    if ws.empty:
        return f"{fig.name}'s {ws.card.name} is empty: reload it first (FD §3)"
    return None


def _check_indirect(game: Table, frame: Frame, fig: Figure, act: Indirect) -> None:
    why = _indirect_shooter_why(game, frame, fig)
    if why is not None:
        raise IllegalActionError(why)
    ws = weapon_state(game, fig)
    assert ws is not None
    stats = ws.card.stats(game.rules.old_school)
    table = game.battlefield.table
    x, y = act.point
    if not (0 <= x <= table.width and 0 <= y <= table.height):
        raise IllegalActionError("the spot is off the table")
    reach = distance_to_point(fig, act.point)
    if reach > stats.range + 1e-9:
        raise IllegalActionError(
            f"the spot is {reach:.1f}\" from {fig.name}, beyond the {ws.card.name}'s range of "
            f'{stats.range:g}" (7.9)'
        )
    if movement.sees_point(game.battlefield, fig, act.point, game.rules, index=game.vis.index):
        raise IllegalActionError(
            f"{fig.name} sees the spot: indirect fire is at a spot the shooter cannot see "
            "(FD §10); fire at the figure there instead"
        )


def spotter(game: Table, shooter: Figure, spot: tuple[float, float]) -> Figure | None:
    """The friend who spots for an indirect shot (FD §10): able to act, seeing the spot,
    and within 4" of the shooter (any distance with the radio option); the nearest to
    the shooter when several could."""
    radio = game.rules.interpretations.fd_spotter_by_radio
    friends = sorted(
        (
            f
            for f in game.battlefield.figures()
            if f.side == shooter.side and f.id != shooter.id and f.status.can_act
        ),
        key=lambda f: (base_distance(shooter, f), f.id),
    )
    for f in friends:
        if not radio and base_distance(shooter, f) > SPOTTER_REACH:
            break
        if movement.sees_point(game.battlefield, f, spot, game.rules, index=game.vis.index):
            return f
    return None


def _indirect(game: Table, frame: Frame, fig: Figure, spot: tuple[float, float]) -> None:
    """Fire at the unseen spot (FD §10); on the spot it bursts in the rings (§9), off it
    those it would have reached take Received Fire."""
    frame.data["fired"].append(fig.id)
    game.state["volleys"] += 1
    ws = weapon_state(game, fig)
    assert ws is not None
    helper = spotter(game, fig, spot)
    res = indirect_fire(
        game.roll(),
        fig.rep,
        ws,
        spotter=helper is not None,
        fast_moving=fig.fast_moving,
        rush_shot=fig.id in game.state["carrying"],
        keep_tight_ammo=game.rules.interpretations.fd_keep_tight_ammo,
        options=game.rules,
        who=fig.name,
    )
    store(game, fig.id, res.ammo.after)
    where = f"({spot[0]:.1f}, {spot[1]:.1f})"
    if helper is None:
        radio = " or on the radio" if game.rules.interpretations.fd_spotter_by_radio else ""
        spotted = f'no friend within {SPOTTER_REACH:g}"{radio} sees the spot'
    else:
        away = base_distance(fig, helper)
        spotted = f'{helper.name} spots for it ({away:.1f}" away, sees the spot)'
    game.emit(
        "indirect",
        f"{fig.name} fires its {ws.card.name} at the unseen spot {where}; {spotted}: "
        + res.explain(),
        result=res,
        section=fd(10),
        figures=[fig.id] + ([helper.id] if helper is not None else []),
    )
    blast(game, spot, fig.id, fig.rep, "RL", not res.on_spot, label=ws.card.name)


@dataclass(frozen=True, slots=True)
class IndirectPlan:
    """An indirect shot at a spot as it would be fired now (FD §10), before it is:
    what the play mode's spot tool shows.  Legality is :meth:`Game.legal`'s."""

    shooter: str
    spot: tuple[float, float]
    weapon: str
    """The card's name (a Rocket Launcher, a mortar)."""
    range: float
    reach: float
    """From the edge of the shooter's base to the spot, inches."""
    spotter: str | None
    """The friend who would spot (the nearest who may, :func:`spotter`), or None."""
    steps: int
    """The steps the shot reads down (-3, or -2 spotted)."""
    on_spot: Fraction
    """The exact chance the one die lands it on the spot (7.9.10 with the steps)."""
    rings: tuple[tuple[str, str, float, bool], ...]
    """Every standing figure within the Received Fire reach, nearest first: id, the
    ring it stands in ("Deadly", "Severe", "Wound", or "Received Fire" beyond them),
    the distance to its base's edge and whether Cover or prone saves it (7.10.6)."""
    damage: tuple[FigureOdds, ...] = ()
    """The exact damage odds of each figure in a ring *if* the shot lands on the spot
    (:func:`~crdesk.rules.firearms.odds.rings_odds`); multiply by :attr:`on_spot`."""


def indirect_plan(game: Table, fig: Figure, spot: tuple[float, float]) -> IndirectPlan:
    """The plan of ``fig``'s indirect shot at ``spot`` (FD §9, §10); IllegalActionError
    with the module off or no weapon card."""
    ws = weapon_state(game, fig)
    if ws is None:
        raise IllegalActionError(f"{fig.name} has no weapon card (Firearms Detail off?)")
    helper = spotter(game, fig, spot)
    step = indirect_steps(helper is not None)
    rush = fig.id in game.state["carrying"] or not ws.ready
    circ = shot_circumstances(TargetSpec("spot"), 0, fast_moving=fig.fast_moving, rush_shot=rush)
    rings: list[tuple[str, str, float, bool]] = []
    caught: list[RingFigure] = []
    for f in game.battlefield.figures():
        if not f.status.can_act:
            continue
        d = distance_to_point(f, spot)
        if d > EXPLOSIVE_RECEIVED_FIRE:
            continue
        cls = ring_class(d)
        covered = cls is not None and adapter.blast_covered(game, spot, f)
        rings.append(
            (f.id, cls.label if cls is not None else "Received Fire", d, covered or f.prone)
        )
        if cls is not None:
            caught.append(RingFigure(f.name, f.rep, d, covered, f.prone, id=f.id))
    rings.sort(key=lambda r: (r[2], r[0]))
    impact = weapon_stats("RL", True).impact if game.rules.old_school else None
    damage = rings_odds(caught, options=game.rules, impact=impact)
    return IndirectPlan(
        shooter=fig.id,
        spot=spot,
        weapon=ws.card.name,
        range=ws.card.stats(game.rules.old_school).range,
        reach=distance_to_point(fig, spot),
        spotter=helper.id if helper is not None else None,
        steps=step.steps,
        on_spot=die_hit_chance(fig.rep, (step,), circ),
        rings=tuple(rings),
        damage=damage,
    )


def indirect_problem(game: Table, fig: Figure) -> str | None:
    """Why ``fig`` cannot fire indirectly at any spot now (None: some spot may do; the
    spot's own checks -- range, sight -- are :meth:`Game.legal`'s)."""
    if not on(game):
        return "Indirect fire (FD §10) is for the Firearms Detail rules, off in this scenario"
    frame = activation_of(game, fig.id)
    if frame is None:
        return f"{fig.name} is not in the active group"
    return _indirect_shooter_why(game, frame, fig)


# --------------------------------------------------------------------------
# Reloading and readiness


def may_reload(game: Table, fig: Figure) -> bool:
    """Whether a Reload may be offered (always with the module off)."""
    return not on(game) or reload_problem(game, fig) is None


def reload_problem(game: Table, fig: Figure) -> str | None:
    """Why the figure cannot swap magazines now (FD §3), or None."""
    ws = weapon_state(game, fig)
    if ws is None:
        return f"{fig.name} has no weapon to reload"
    if ws.spares <= 0:
        return f"{fig.name}'s {ws.card.name} has no spare magazine left (FD §3)"
    if ws.rounds >= ws.card.magazine:
        return f"{fig.name}'s {ws.card.name} is full ({ws.card.magazine} rounds) (FD §3)"
    return None


def do_reload(game: Table, fid: str) -> None:
    """One spare magazine into the weapon (FD §3, 7.9.2)."""
    fig = game.fig(fid)
    ws = weapon_state(game, fig)
    assert ws is not None
    res = reload(ws)
    store(game, fid, res.after)
    game.emit("magazine", f"{fig.name}: {res.reason}", result=res, section=fd(3), figures=[fid])


def start_activation(game: Table, members: list[str]) -> None:
    """Unready weapons are readied at the start of the owner's activation (FD §4)."""
    for fid in members:
        fig = game.fig(fid)
        ws = weapon_state(game, fig)
        if ws is None or ws.ready:
            continue
        res = start_of_activation(ws)
        store(game, fid, res.after)
        game.emit("ready_weapon", f"{fig.name}: {res.reason}", section=fd(4), figures=[fid])


__all__ = [
    "KEY",
    "MODULE",
    "IndirectPlan",
    "ModeChoice",
    "WeaponPanel",
    "accepts",
    "activation_of",
    "activation_options",
    "apply_action",
    "blast",
    "card_of",
    "check_action",
    "do_reload",
    "full_auto_rank",
    "handles",
    "has_moved",
    "indirect_plan",
    "indirect_problem",
    "initial_state",
    "may_reload",
    "modes",
    "on",
    "panel",
    "reload_problem",
    "spotter",
    "start_activation",
    "store",
    "weapon_state",
]


@dataclass(frozen=True, slots=True)
class WeaponPanel:
    """What the play mode shows and offers for a figure's weapon (FD §11)."""

    figure: str
    card: WeaponCard
    state: WeaponState
    modes: tuple[ModeChoice, ...]
    aim: str | None
    """None when the figure may aim now (FD §5.1), else why not."""
    support: str | None
    """None when the figure may use supported fire now (FD §7), else why not."""
    walk_pairs: int
    """The most pairs it may sacrifice to walk a Full Auto volley (FD §5.2); 0 without FA."""

    @property
    def rounds(self) -> int:
        return self.state.rounds

    @property
    def spares(self) -> int:
        return self.state.spares

    @property
    def summary(self) -> str:
        """The figure panel's line: card, mode, rounds left, spares."""
        return self.state.summary()


def panel(game: Table, fig: Figure) -> WeaponPanel | None:
    """The figure's weapon card, mode, rounds left and the choices it has now (FD §11);
    None with the module off or an unarmed figure."""
    ws = weapon_state(game, fig)
    if ws is None:
        return None
    moved = has_moved(game, fig)
    active = activation_of(game, fig.id) is not None
    aim = None
    if FireMode.FA not in ws.card.modes:
        aim = f"{ws.card.name} has no Full Auto: aiming is for Full Auto (FD §5.1)"
    elif not active:
        aim = f"{fig.name} may aim only when active (FD §5.1)"
    elif moved:
        aim = f"{fig.name} has moved this activation: no aiming (FD §5.1)"
    support = f"{fig.name} has moved this activation: no supported fire (FD §7)" if moved else None
    walk = 4 if FireMode.FA in ws.card.modes else 0
    return WeaponPanel(fig.id, ws.card, ws, tuple(modes(game, fig)), aim, support, walk)


def full_auto_rank(game: Table, cause: Figure) -> int | None:
    """The Outgunned Ranking a figure testing because of ``cause`` reads: one higher
    when the cause's weapon last fired on Full Auto (FD §5; the tests follow the volley
    that caused them), else None (the weapon's own, :func:`adapter.outgunned`)."""
    ws = weapon_state(game, cause)
    if ws is None or ws.mode is not FireMode.FA:
        return None
    return adapter.fired_rank(cause, game.rules) + FA_RANK_BONUS
