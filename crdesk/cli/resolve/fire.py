"""``crdesk resolve fire``, ``damage``, ``grenade-ready``, ``grenade-throw``, ``blast``:
ranged fire (7.9, Firearms Detail), its damage, grenades and blast circles (7.10)."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from crdesk import scenario as scenario_io
from crdesk.cli.common import int_in
from crdesk.cli.resolve.engine import (
    Batch,
    Job,
    OddsItem,
    PendingRoll,
    ResolveError,
    main_flag,
    rules_options,
    typed_dice,
    worst,
)
from crdesk.cli.resolve.flags import (
    NEAR_HELP,
    SPEC_HELP,
    FigureSpec,
    choice_of,
    dice_arg,
    figure_spec,
    int_list,
    range_inches,
    rep_type,
    size_type,
    weapon_choice,
)
from crdesk.dice import DiceSource
from crdesk.errors import ScenarioError
from crdesk.model import BandType
from crdesk.odds import fire_odds
from crdesk.rules import grenades
from crdesk.rules.common import faces_text, plural
from crdesk.rules.damage import roll_damage
from crdesk.rules.firearms.ammo import WeaponState
from crdesk.rules.firearms.cards import WeaponCard, default_card
from crdesk.rules.firearms.fire import (
    FirearmsFire,
    FireOptions,
    FireTarget,
    Nearby,
    fire_weapon,
)
from crdesk.rules.firearms.odds import fire_weapon_odds
from crdesk.rules.firearms.tables import WALK_MAX_STEPS, AmmoType, FireMode, Support
from crdesk.rules.shooting import FireResult, TargetSpec, fire
from crdesk.tables import GRENADE, weapon_stats

FIRE_WEAPONS = ("AR", "BAR", "MP", "P", "SAR", "SG", "SAW", "SMG", "RL", "BAP")
DAMAGE_WEAPONS = (*FIRE_WEAPONS, GRENADE)
_MODES_HELP = ", ".join(m.value for m in FireMode)


def _target_specs(specs: Sequence[FigureSpec]) -> list[TargetSpec]:
    many = len(specs) > 1
    return [
        TargetSpec(
            s.name or (f"target {i}" if many else "target"),
            s.rep,
            in_cover=s.cover,
            prone=s.prone,
            fast_moving=s.fast,
            carried_rep=s.carrying,
        )
        for i, s in enumerate(specs, 1)
    ]


# -- Firearms Detail (issue 14): the weapon's card, its modes, aim, walk, support, buckshot

_DETAIL_FLAGS = (
    "mode",
    "aim",
    "walk",
    "supported",
    "ammo",
    "card",
    "firearms_detail",
    "range",
    "near",
    "rounds",
    "moved",
    "keep_tight_ammo",
    "unready",
)


def _detail_wanted(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) not in (None, False, []) for name in _DETAIL_FLAGS)


def _detail_card(args: argparse.Namespace) -> WeaponCard:
    """The weapon's card: a scenario's user weapon (``--card`` with ``--scenario``), else
    the category's default card; ``--ammo`` loads other rounds (FD §2)."""
    if args.card is not None:
        if args.scenario is None:
            raise ResolveError("--card", "needs --scenario FILE (the file holding the weapon)")
        try:
            scenario = scenario_io.load(args.scenario)
        except ScenarioError as exc:
            raise ResolveError("--scenario", " ".join(str(exc).split())) from None
        cards = scenario.weapon_cards
        if args.card not in cards:
            known = ", ".join(cards) or "none"
            raise ResolveError("--card", f"no weapon {args.card!r} in {args.scenario} ({known})")
        card = cards[args.card]
        if args.weapon is not None and args.weapon != card.category:
            raise ResolveError(
                "--weapon", f"{card.name} counts as {card.category}, not {args.weapon} (FD §2)"
            )
    elif args.scenario is not None:
        raise ResolveError("--scenario", "only with --card NAME (the weapon to fire)")
    elif args.weapon is None:
        raise ResolveError("--weapon", "name the weapon (or --card NAME with --scenario FILE)")
    else:
        card = default_card(args.weapon)
    if args.ammo is not None:
        ammo = AmmoType(args.ammo)
        if ammo is AmmoType.BUCKSHOT and card.category != "SG":
            raise ResolveError(
                "--ammo",
                f"buckshot is for shotguns (SG); {card.name} counts as {card.category} (FD §6)",
            )
        card = dataclasses.replace(card, ammo=ammo)
    return card


def _detail_lines(r: FirearmsFire) -> list[str]:
    lines = [
        f"Rep {r.shooter_rep} {r.weapon} ({r.category}), {r.mode.label}: rolled "
        f"{faces_text(r.faces) if r.faces else 'no dice'} ({r.section}).",
        *r.notes,
    ]
    if r.dodge is not None:
        lines.append(r.dodge.reason)
    lines += [f.explain() for f in r.figures]
    if r.unused:
        lines.append(f"{plural(len(r.unused), 'die', 'dice')} hit nobody.")
    if r.received_fire:
        names = {f.id: f.name for f in r.figures}
        lines.append(
            "Received Fire (7.7): "
            + ", ".join(names[i] for i in dict.fromkeys(r.received_fire))
            + "."
        )
    lines.append(r.ammo.explain())
    return lines


def _job_fire_detail(args: argparse.Namespace) -> Job:
    """``crdesk resolve fire`` under Firearms Detail: the card's modes (FD §5), aimed and
    walked Full Auto (§5.1, §5.2), buckshot (§6), supported fire (§7)."""
    options = rules_options(args)
    card = _detail_card(args)
    if weapon_stats(card.category, options.old_school).blast:
        raise ResolveError(
            "--weapon",
            f"{card.name} is a blast weapon: fire it without Firearms Detail flags (7.10.5)",
        )
    specs: list[FigureSpec] = args.target
    for spec in specs:
        if spec.at is not None or spec.of is not None:
            raise ResolveError(
                "--target", "at= and of= are for --near; give the range with --range"
            )
    targets = _target_specs(specs)
    mode = FireMode(args.mode) if args.mode is not None else None
    chosen = mode or card.modes[0]
    if args.rounds is not None and args.rounds > card.magazine:
        raise ResolveError(
            "--rounds", f"{card.name} holds at most {card.magazine} rounds, not {args.rounds}"
        )
    # a mode the card lacks is the engine's to refuse, in its words, before any range
    needs_range = chosen in card.modes and (card.buckshot or chosen is FireMode.FA)
    if needs_range and args.range is None:
        what = "buckshot's band (FD §6)" if card.buckshot else "the Full Auto spread (FD §5)"
        raise ResolveError("--range", f"give the range to the target in inches for {what}")
    near: list[list[Nearby]] = [[] for _ in targets]
    for i, spec in enumerate(args.near or [], 1):
        if spec.at is None:
            raise ResolveError("--near", f"{spec.text()!r} needs at=INCHES from its target")
        of = spec.of or 1
        if of > len(targets):
            raise ResolveError(
                "--near",
                f"of={of}: there {'is' if len(targets) == 1 else 'are'} only "
                f"{plural(len(targets), 'target')}",
            )
        who = TargetSpec(
            spec.name or f"figure {i}",
            spec.rep,
            in_cover=spec.cover,
            prone=spec.prone,
            fast_moving=spec.fast,
        )
        near[of - 1].append(Nearby(who, spec.at))
    fire_targets = [
        FireTarget(t, args.range if k == 0 and args.range is not None else 0.0, tuple(near[k]))
        for k, t in enumerate(targets)
    ]
    weapon = WeaponState(
        card,
        card.magazine if args.rounds is None else args.rounds,
        card.spare_magazines,
        ready=not args.unready,
        mode=mode,
    )
    choice = FireOptions(
        mode=mode,
        aim=args.aim,
        walk_pairs=args.walk or 0,
        support=Support(args.supported) if args.supported else Support.NONE,
        moved=args.moved,
        fast_moving=args.fast_moving,
        rush_shot=args.rush_shot,
        keep_tight_ammo=args.keep_tight_ammo,
        allocation=tuple(args.allocate) if args.allocate is not None else None,
        options=options,
    )
    dice = {
        "--dice": typed_dice(args, "dice"),
        "--dodge-die": typed_dice(args, "dodge_die"),
        "--miss-dice": typed_dice(args, "miss_dice"),
        "--damage-dice": typed_dice(args, "damage_dice"),
        "--knockdown-dice": typed_dice(args, "knockdown_dice"),
    }

    def route(table: str, _who: str) -> str:
        if table.startswith("Dodge"):
            return "--dodge-die"
        if table.startswith("Burst miss"):
            return "--miss-dice"
        if "Damage" in table:
            return "--damage-dice"
        if table == "Knockdown":
            return "--knockdown-dice"
        return "--dice"

    def results(r: FirearmsFire) -> list[dict[str, Any]]:
        return [*(f.to_dict() for f in r.figures), r.ammo.to_dict()]

    return Job(
        dice=dice,
        route=route,
        fallback={flag: "--dice" for flag in dice if flag != "--dice"},
        run=lambda d: fire_weapon(d, args.rep, weapon, fire_targets, choice),
        odds=lambda: fire_weapon_odds(args.rep, weapon, fire_targets, choice),
        lines=_detail_lines,
        results=results,
        blame={"targets": "--target", "allocation": "--allocate"},
    )


def job_fire(args: argparse.Namespace) -> Job:
    if _detail_wanted(args):
        return _job_fire_detail(args)
    for flag in ("scenario", "dodge_die", "miss_dice", "knockdown_dice"):
        if getattr(args, flag, None) is not None:
            name = "--" + flag.replace("_", "-")
            raise ResolveError(name, "is for Firearms Detail fire (--mode, --card, ...)")
    if args.weapon is None:
        raise ResolveError("--weapon", "name the weapon (AR, P, SG, ...)")
    options = rules_options(args)
    stats = weapon_stats(args.weapon, options.old_school)
    targets = _target_specs(args.target)
    dice = {
        "--dice": typed_dice(args, "dice"),
        "--pitiful-dice": typed_dice(args, "pitiful_dice"),
        "--damage-dice": typed_dice(args, "damage_dice"),
    }

    def route(table: str, _who: str) -> str:
        if table == "Pitiful Shot":
            return "--pitiful-dice"
        return "--damage-dice" if "Damage" in table else "--dice"

    fallback = {"--pitiful-dice": "--dice", "--damage-dice": "--dice"}
    if stats.blast:
        if len(targets) > 1:
            raise ResolveError(
                "--target", f"a {stats.name} fires at one spot: give at most one --target"
            )
        if args.allocate is not None:
            raise ResolveError("--allocate", f"a {stats.name} has no Target dice to allocate")
        spot = targets[0] if targets else None
        return Job(
            dice=dice,
            route=route,
            fallback=fallback,
            run=lambda d: grenades.rocket_shot(
                d,
                args.rep,
                target=spot,
                fast_moving=args.fast_moving,
                rush_shot=args.rush_shot,
                who="shooter",
            ),
            tail=lambda r: [
                "Roll the blast with `crdesk resolve blast --weapon RL` (7.10.5)."
                if r.on_target
                else "Every figure in the blast circle takes Received Fire (7.10.5)."
            ],
        )
    # how many targets and how the dice are shared out are the rules' to refuse (7.9.7,
    # 7.9.9): shooting.fire says why, the blame names the flag
    allocation = tuple(args.allocate) if args.allocate is not None else None

    def steps(group: Sequence[PendingRoll]) -> list[tuple[str, str]]:
        """Damage still to roll: one ``crdesk resolve damage`` per target hit."""
        hits: dict[str, int] = {}
        for roll in group:
            if "Damage" not in roll.table:
                return []
            hits[roll.who] = hits.get(roll.who, 0) + roll.dice
        reps = {t.name: t.rep for t in targets}
        reps |= {f"wounded carried by {t.name}": t.carried_rep for t in targets if t.carried_rep}
        old = f" --old-school --weapon {stats.code}" if options.old_school else ""
        return [
            (
                f"{who}: {plural(n, 'hit')}, roll {n}d6 for damage",
                f"crdesk resolve damage --target-rep {reps[who]}{old} --dice " + ",".join("?" * n),
            )
            for who, n in hits.items()
            if who in reps
        ]

    def results(r: FireResult) -> list[dict[str, Any]]:
        """One object per target, and one for the shooter's weapon when it runs dry (7.9.2)."""
        out: list[dict[str, Any]] = list(r.to_dict()["results"])
        if r.out_of_ammo:
            out.append({"section": "7.9.2", "result": "out_of_ammo", "ones": r.ones})
        return out

    return Job(
        dice=dice,
        route=route,
        fallback=fallback,
        run=lambda d: fire(
            d,
            args.rep,
            stats.code,
            targets,
            allocation=allocation,
            fast_moving=args.fast_moving,
            rush_shot=args.rush_shot,
            options=options,
        ),
        odds=lambda: fire_odds(
            args.rep,
            stats.code,
            targets,
            allocation=allocation,
            fast_moving=args.fast_moving,
            rush_shot=args.rush_shot,
            options=options,
        ),
        lines=lambda r: r.explain_lines(),
        results=results,
        steps=steps,
        blame={"targets": "--target", "allocation": "--allocate"},
    )


def flags_fire(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the shooter's Rep")
    p.add_argument("--weapon", type=weapon_choice(FIRE_WEAPONS), help="/".join(FIRE_WEAPONS))
    p.add_argument("--fast-moving", action="store_true", help="the shooter is Fast Moving")
    p.add_argument("--rush-shot", action="store_true", help="the shooter fires a Rush Shot")
    p.add_argument(
        "--target",
        type=figure_spec,
        action="append",
        default=[],
        metavar="SPEC",
        help=f"a target, in order: {SPEC_HELP}",
    )
    p.add_argument(
        "--allocate", type=int_list, metavar="N,N", help="Target dice per target (7.9.9)"
    )
    p.add_argument("--old-school", action="store_true", help="Old School weapons/damage (16)")
    dice_arg(p, "--dice", "the fire dice (the shotgun rolls 6)")
    dice_arg(p, "--pitiful-dice", "Pitiful Shot dice (7.9.14; default: read on from --dice)")
    dice_arg(p, "--damage-dice", "one damage die per hit (default: read on from --dice)")
    fd_flags = p.add_argument_group(
        "Firearms Detail",
        "fire by the weapon's card (rules/firearms-detail.md); any of these flags turns it on",
    )
    fd_flags.add_argument(
        "--firearms-detail", action="store_true", help="fire by the card in its first mode"
    )
    fd_flags.add_argument(
        "--mode", type=choice_of(*(m.value for m in FireMode)), help=f"fire mode: {_MODES_HELP}"
    )
    fd_flags.add_argument("--aim", action="store_true", help="aimed Full Auto (FD 5.1)")
    fd_flags.add_argument(
        "--walk",
        type=int_in(0, WALK_MAX_STEPS, "pairs to sacrifice"),
        metavar="N",
        help="walk Full Auto onto the target: sacrifice N pairs of dice (FD 5.2)",
    )
    fd_flags.add_argument(
        "--supported",
        type=choice_of(*(s.value for s in Support if s is not Support.NONE)),
        metavar="HOW",
        help="supported fire, not moved (FD 7): braced (prone, wall, window), bipod, tripod",
    )
    fd_flags.add_argument(
        "--ammo", type=choice_of(*(a.value for a in AmmoType)), help="load other rounds (FD 2, 6)"
    )
    fd_flags.add_argument(
        "--range",
        type=range_inches,
        metavar="INCHES",
        help="to the first target (FA spread, buckshot)",
    )
    fd_flags.add_argument(
        "--near",
        type=figure_spec,
        action="append",
        metavar="SPEC",
        help=f"a figure near a target, friend or foe: {NEAR_HELP}",
    )
    fd_flags.add_argument(
        "--rounds", type=int_in(0, 1000, "rounds"), metavar="N", help="rounds left (default full)"
    )
    fd_flags.add_argument("--moved", action="store_true", help="the shooter moved this activation")
    fd_flags.add_argument("--unready", action="store_true", help="the weapon is unready (FD 4)")
    fd_flags.add_argument(
        "--keep-tight-ammo", action="store_true", help="two or more 1s also jam (FD 3)"
    )
    fd_flags.add_argument("--card", metavar="NAME", help="a user weapon of --scenario (FD 2)")
    fd_flags.add_argument("--scenario", metavar="FILE", help="the scenario holding --card")
    dice_arg(p, "--dodge-die", "the dodge die vs the shooter's Rep (FD 5)")
    dice_arg(p, "--miss-dice", "a missed burst's die on the nearest figure (FD 5)")
    dice_arg(p, "--knockdown-dice", "one knockdown die per figure hit (FD 8)")


def job_damage(args: argparse.Namespace) -> Job:
    options = rules_options(args)
    if options.old_school and args.weapon is None:
        raise ResolveError("--weapon", "Old School damage (16.1) needs the weapon for its Impact")
    typed = typed_dice(args, "dice")
    hits = len(typed) if typed is not None else args.hits

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            roll_damage(dice, args.target_rep, weapon=args.weapon, options=options, who="target")
            for _ in range(hits)
        )
        return Batch(items[0].section, worst([i.status for i in items]), items)

    def one_hit(dice: DiceSource) -> Any:
        return roll_damage(dice, args.target_rep, weapon=args.weapon, options=options)

    return Job(
        dice={"--dice": typed},
        route=main_flag,
        run=run,
        odds_items=lambda: [("each hit", one_hit, None)],
    )


def flags_damage(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target-rep", type=rep_type, required=True, help="the Rep of the figure hit")
    p.add_argument("--old-school", action="store_true", help="Old School damage vs Impact (16.1)")
    p.add_argument(
        "--weapon", type=weapon_choice(DAMAGE_WEAPONS), help="the weapon (for its Impact)"
    )
    p.add_argument("--hits", type=size_type, default=1, help="hits when crdesk rolls (default 1)")
    dice_arg(p, "--dice", "one die per hit")


def job_grenade_ready(args: argparse.Namespace) -> Job:
    band = BandType(args.band) if args.band is not None else None
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: grenades.ready_grenade(d, args.rep, band=band),
        blame="--band",
    )


def flags_grenade_ready(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the figure's Rep")
    p.add_argument(
        "--band", type=choice_of(*(b.value for b in BandType)), help="check the band has grenades"
    )
    dice_arg(p, "--dice", "1d6")


def job_grenade_throw(args: argparse.Namespace) -> Job:
    if args.distance is not None and not 0 <= args.distance <= grenades.GRENADE_RANGE:
        raise ResolveError(
            "--distance", f'a grenade is thrown up to 6", the spot is {args.distance:g}"'
        )
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: grenades.throw_grenade(
            d,
            args.rep,
            distance=args.distance if args.distance is not None else 0.0,
            spot_in_los=not args.spot_out_of_sight,
        ),
    )


def flags_grenade_throw(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the thrower's Rep")
    p.add_argument("--distance", type=float, help='inches to the spot (at most 6")')
    p.add_argument(
        "--spot-out-of-sight", action="store_true", help="the thrower has no LOS to the spot"
    )
    dice_arg(p, "--dice", "2d6")


def job_blast(args: argparse.Namespace) -> Job:
    options = rules_options(args)
    many = len(args.figure) > 1
    figures = [
        grenades.BlastFigure(
            s.name or (f"figure {i}" if many else "figure"),
            s.rep,
            cover_between=s.cover,
            prone=s.prone,
        )
        for i, s in enumerate(args.figure, 1)
    ]
    weapon = GRENADE if args.weapon == "G" else "RL"

    def odds_items() -> list[OddsItem]:
        def one(f: grenades.BlastFigure) -> Callable[[DiceSource], Any]:
            return lambda d: grenades.blast(d, [f], weapon=weapon, options=options)

        return [(f.name, one(f), lambda r: str(r.figures[0].result)) for f in figures]

    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: grenades.blast(d, figures, weapon=weapon, options=options),
        odds_items=odds_items,
    )


def flags_blast(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--figure",
        type=figure_spec,
        action="append",
        required=True,
        metavar="SPEC",
        help="a figure in the circle: rep=N[,cover][,prone][,name=X] (cover = Cover between)",
    )
    p.add_argument("--weapon", type=weapon_choice(("G", "RL")), default="G", help="G or RL")
    p.add_argument("--old-school", action="store_true", help="Old School damage (16.1)")
    dice_arg(p, "--dice", "one damage die per exposed figure")
