"""``crdesk resolve reaction``, ``star-power``, ``fast-move``, ``in-sight``, ``charge``,
``melee``, ``activation``: the tests of a turn on the table (7.1-7.11, 5.2)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from crdesk.cli.common import int_in
from crdesk.cli.resolve.engine import Batch, Job, OddsItem, ResolveError, main_flag, typed_dice
from crdesk.cli.resolve.flags import (
    choice_of,
    count_type,
    damage_results,
    dice_arg,
    rep_type,
    status_choice,
)
from crdesk.dice import DiceSource
from crdesk.model import MeleeWeapon, Status
from crdesk.odds import (
    activation_odds,
    charge_odds,
    in_sight_odds,
    melee_odds,
    reaction_odds,
)
from crdesk.options import RulesOptions
from crdesk.rules import activation, in_sight, melee, stars
from crdesk.rules.common import faces_text, words
from crdesk.rules.reaction import Losses, ReactingFigure, ReactionResult, ReactionTest
from crdesk.rules.reaction import reaction_test as run_reaction_test


def job_reaction(args: argparse.Namespace) -> Job:
    tests = tuple(dict.fromkeys(ReactionTest(t.replace("-", "_")) for t in args.test))
    if args.leader_die is not None and args.leader_rep is None:
        raise ResolveError("--leader-die", "needs --leader-rep (the Star Leader's Rep, 6.3.2)")
    names = (
        [f"figure {i}" for i in range(1, len(args.rep) + 1)] if len(args.rep) > 1 else ["figure"]
    )
    if args.star:
        names[0] = "Star"
    if args.free_will is not None and not args.star:
        raise ResolveError("--free-will", "only a Star has Free Will: add --star (5.2)")
    count = len(args.rep)
    currents: list[Status | None] = list(args.current or [None])
    if len(currents) == 1:
        currents *= count
    elif len(currents) != count:
        raise ResolveError(
            "--current",
            f"give it once (every figure) or once per --rep ({count}), got {len(currents)}",
        )
    covered = set(args.in_cover_figure or [])
    if any(n > count for n in covered):
        raise ResolveError("--in-cover-figure", f"there are only {count} figures (--rep)")
    leader: int | list[int] | None = args.leader_rep
    leader_shown = max(args.leader_rep) if args.leader_rep else None
    testers = [
        ReactingFigure(
            name,
            rep,
            in_cover=args.in_cover or i + 1 in covered,
            outgunned=args.outgunned,
            is_star=args.star and i == 0,
            current=currents[i],
            free_will=args.free_will if i == 0 else None,
        )
        for i, (name, rep) in enumerate(zip(names, args.rep, strict=True))
    ]
    losses = Losses(side_friends=args.friends_down or 0, side_enemies=args.enemies_down or 0)
    options = RulesOptions()

    def run(dice: DiceSource) -> ReactionResult:
        return run_reaction_test(
            dice, testers, tests, leader_rep=leader, losses=losses, options=options
        )

    def head(r: ReactionResult) -> list[str]:
        if r.leader_die is None:
            return []
        verdict = "passed: +1 passed d6 for every figure" if r.leader_passed else "failed"
        return [f"Leader Die {r.leader_die} vs Rep {leader_shown}: {verdict} (6.3.2)."]

    return Job(
        dice={"--dice": typed_dice(args, "dice"), "--leader-die": typed_dice(args, "leader_die")},
        route=lambda table, _who: "--leader-die" if table == "Leader Die" else "--dice",
        run=run,
        odds=lambda: reaction_odds(
            testers, tests, leader_rep=leader, losses=losses, options=options
        ),
        head=head,
    )


def flags_reaction(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--test",
        action="append",
        required=True,
        type=choice_of("received-fire", "man-down"),
        help="received-fire or man-down; give both for one event causing both (7.7.2)",
    )
    p.add_argument(
        "--rep",
        type=rep_type,
        action="append",
        required=True,
        help="Rep of a figure taking the test",
    )
    p.add_argument("--in-cover", action="store_true", help="the figures are in Cover: +1d6")
    p.add_argument(
        "--in-cover-figure",
        type=int_in(1, 99, "a figure number"),
        action="append",
        metavar="N",
        help="only figure N (the Nth --rep) is in Cover; repeat for others",
    )
    p.add_argument(
        "--leader-rep",
        type=rep_type,
        action="append",
        help="Rep of the group's Star Leader (6.3.2); repeat for several Leaders: the "
        "highest rolls (6.3.3)",
    )
    p.add_argument(
        "--current",
        type=status_choice,
        action="append",
        metavar="STATUS",
        help="a reaction the figure is still carrying out, e.g. duck-back: it scores no "
        "better (7.7.3); once for all, or once per --rep",
    )
    dice_arg(p, "--leader-die", "the Leader Die (Received Fire only)")
    p.add_argument("--outgunned", action="store_true", help="outgunned by the shooter (7.9.1)")
    p.add_argument(
        "--star", action="store_true", help="the first --rep is a Star: never Outgunned (5.2)"
    )
    p.add_argument(
        "--free-will",
        type=int_in(0, 2, "Free Will"),
        metavar="N",
        help="the Star chooses to pass N (0-2) instead of rolling (5.2)",
    )
    p.add_argument(
        "--friends-down", type=count_type, metavar="N", help="own side OOF/dead (Man Down)"
    )
    p.add_argument("--enemies-down", type=count_type, metavar="M", help="enemy side OOF/dead")
    dice_arg(p, "--dice", "2d6, then the Cover die")


def job_star_power(args: argparse.Namespace) -> Job:
    count = args.star_power if args.star_power is not None else args.rep

    def run(dice: DiceSource) -> Any:
        if args.attacker_rep is not None or args.cheat_death:
            return stars.star_takes_damage(
                dice,
                args.damage,
                star_rep=args.rep,
                star_power_dice=count,
                attacker_rep=args.attacker_rep,
                melee=args.melee,
                cheat_death=args.cheat_death,
            )
        return stars.star_power(dice, count, args.damage, melee=args.melee)

    def results(r: Any) -> list[dict[str, Any]]:
        if isinstance(r, stars.StarFate):
            return [r.to_dict()]
        return [
            {"section": r.section, "result": after.value, "before": before.value}
            for before, after in zip(r.before, r.after, strict=True)
        ]

    def lines(r: Any) -> list[str]:
        if isinstance(r, stars.StarFate):
            assert r.star_power is not None
            return [r.star_power.explain(), r.reason]
        return [r.explain()]

    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=run,
        results=results,
        lines=lines,
        blame="--damage",
    )


def flags_star_power(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the Star's Rep")
    p.add_argument(
        "--star-power", type=count_type, metavar="N", help="Star Power dice left (default: Rep)"
    )
    p.add_argument(
        "--damage",
        type=damage_results,
        required=True,
        metavar="LIST",
        help="damage taken, e.g. obviously_dead,out_of_the_fight",
    )
    p.add_argument("--melee", action="store_true", help="melee damage (floor -1 to Rep)")
    p.add_argument("--attacker-rep", type=rep_type, help="apply Larger Than Life vs this Rep")
    p.add_argument("--cheat-death", action="store_true", help="declare Cheating Death")
    dice_arg(p, "--dice", "all Star Power dice")


def job_fast_move(args: argparse.Namespace) -> Job:
    many = len(args.rep) > 1
    movers = [
        activation.FastMover(f"figure {i}" if many else "figure", rep, args.carrying_wounded)
        for i, rep in enumerate(args.rep, 1)
    ]

    def odds_items() -> list[OddsItem]:
        def one(rep: int) -> Callable[[DiceSource], Any]:
            mover = activation.FastMover("figure", rep, args.carrying_wounded)
            return lambda d: activation.fast_move(d, [mover])

        return [
            (f"Rep {rep}", one(rep), lambda r: str(r.figures[0].result))
            for rep in dict.fromkeys(args.rep)
        ]

    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: activation.fast_move(d, movers),
        odds_items=odds_items,
    )


def flags_fast_move(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rep", type=rep_type, action="append", required=True, help="a fast mover's Rep"
    )
    p.add_argument(
        "--carrying-wounded", action="store_true", help="carrying wounded: at most 1 pass (7.12)"
    )
    dice_arg(p, "--dice", "2d6 for the group")


def job_in_sight(args: argparse.Namespace) -> Job:
    groups = [
        in_sight.InSightGroup("mover", args.mover_rep, True, args.mover_sees_concealed),
        in_sight.InSightGroup("other", args.other_rep, False, args.other_sees_concealed),
    ]

    def tail(r: in_sight.InSightResult) -> list[str]:
        if r.result == "mover_acts":
            return ["Result: the mover acts; the other side only reacts (7.6.3)."]
        return ["Result: the other side acts; the mover only reacts (7.6.3)."]

    return Job(
        dice={
            "--mover-dice": typed_dice(args, "mover_dice"),
            "--other-dice": typed_dice(args, "other_dice"),
        },
        route=lambda _t, who: "--mover-dice" if who == "mover" else "--other-dice",
        run=lambda d: in_sight.in_sight(d, groups),
        odds=lambda: in_sight_odds(
            args.mover_rep,
            args.other_rep,
            mover_sees_concealed=args.mover_sees_concealed,
            other_sees_concealed=args.other_sees_concealed,
        ),
        tail=tail,
    )


def flags_in_sight(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mover-rep", type=rep_type, required=True, help="Rep of the moving Leader")
    dice_arg(p, "--mover-dice", "the mover's dice (Rep d6, -1 if concealed)")
    p.add_argument("--other-rep", type=rep_type, required=True, help="Rep of the other Leader")
    dice_arg(p, "--other-dice", "the other side's dice")
    p.add_argument(
        "--mover-sees-concealed", action="store_true", help="the other side is concealed: -1d6"
    )
    p.add_argument(
        "--other-sees-concealed", action="store_true", help="the mover is concealed: -1d6"
    )


def job_charge(args: argparse.Namespace) -> Job:
    reps: list[int] = args.charger_rep
    many = len(reps) > 1
    chargers = [(f"charger {i}" if many else "charger", rep) for i, rep in enumerate(reps, 1)]
    approach = (
        melee.Approach.REAR
        if args.rear
        else melee.Approach.FLANK
        if args.flank
        else melee.Approach.FRONT
    )
    options = RulesOptions()
    if args.fires_at is not None and not args.single_shot:
        raise ResolveError("--fires-at", "only with --single-shot (a weapon that fires once)")
    if args.fires_at is not None and args.fires_at > len(chargers):
        raise ResolveError("--fires-at", f"there are only {len(chargers)} chargers")
    chosen = chargers[args.fires_at - 1][0] if args.fires_at is not None else None

    def head(r: melee.ChargeTestResult) -> list[str]:
        return [
            f"The target rolled {faces_text(r.target_faces)} ({r.target_dice}d6) vs Rep "
            f"{r.target_rep}: passed {r.target_passed} (7.11.2)."
        ]

    def tail(r: melee.ChargeTestResult) -> list[str]:
        if not args.single_shot:
            return []
        return [melee.single_shot_target(r, chosen).explain()]

    def results(r: melee.ChargeTestResult) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = r.to_dict()["results"]
        if args.single_shot:
            out.append(melee.single_shot_target(r, chosen).to_dict())
        return out

    return Job(
        dice={
            "--charger-dice": typed_dice(args, "charger_dice"),
            "--target-dice": typed_dice(args, "target_dice"),
        },
        route=lambda _t, who: "--target-dice" if who == "target" else "--charger-dice",
        run=lambda d: melee.charge(
            d,
            chargers,
            ("target", args.target_rep),
            in_cover=args.target_in_cover,
            approach=approach,
            options=options,
        ),
        odds=lambda: Batch(
            "7.11.2",
            "odds",
            tuple(
                charge_odds(
                    rep,
                    args.target_rep,
                    in_cover=args.target_in_cover,
                    approach=approach,
                    options=options,
                )
                for _name, rep in chargers
            ),
        ),
        head=head,
        tail=tail,
        results=results,
        blame="--fires-at" if chosen is not None else "--charger-rep",
    )


def flags_charge(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--charger-rep", type=rep_type, action="append", required=True, help="a charger's Rep (1-3)"
    )
    dice_arg(p, "--charger-dice", "2d6 per charger, in order")
    p.add_argument("--target-rep", type=rep_type, required=True, help="the target's Rep")
    dice_arg(p, "--target-dice", "the target's dice (2, +1 Cover, -1 flank, -2 rear)")
    p.add_argument("--target-in-cover", action="store_true", help="target in Cover: +1d6")
    side = p.add_mutually_exclusive_group()
    side.add_argument("--flank", action="store_true", help="charged on the flank: -1d6")
    side.add_argument("--rear", action="store_true", help="charged from the rear: -2d6")
    p.add_argument(
        "--single-shot",
        action="store_true",
        help="the target's weapon fires one shot: which charger it fires at (7.11.2)",
    )
    p.add_argument(
        "--fires-at",
        type=int_in(1, 3, "a charger number"),
        metavar="N",
        help="with --single-shot: fire at the Nth charger instead (a Rush Shot)",
    )


_MELEE_WEAPONS = {
    "none": MeleeWeapon.NONE,
    "one-hand": MeleeWeapon.ONE_HAND,
    "two-hand": MeleeWeapon.TWO_HAND,
}


def job_melee(args: argparse.Namespace) -> Job:
    a = melee.Fighter("fighter", args.rep, _MELEE_WEAPONS[args.weapon], args.vs_prone)
    b = melee.Fighter("opponent", args.vs_rep, _MELEE_WEAPONS[args.vs_weapon], args.prone)

    def route(table: str, who: str) -> str:
        if table == "Melee Damage":
            return "--damage-die"
        return "--dice" if who == a.name else "--vs-dice"

    def tail(r: melee.MeleeResult) -> list[str]:
        lost = [f"{n} {k}" for n, k in r.rep_lost.items() if k]
        note = (
            f" Rep lost ({', '.join(lost)}) comes back after the turn's melees (7.8)."
            if lost
            else ""
        )
        return [f"The {r.winner} wins: the {r.loser} is {words(r.loser_status)} (7.11.5).{note}"]

    return Job(
        dice={
            "--dice": typed_dice(args, "dice"),
            "--vs-dice": typed_dice(args, "vs_dice"),
            "--damage-die": typed_dice(args, "damage_die"),
        },
        route=route,
        run=lambda d: melee.melee(d, a, b),
        odds=lambda: melee_odds(a, b),
        tail=tail,
        hint="; a tie or a -1 to Rep means another round: repeat --dice, --vs-dice "
        "and --damage-die for it",
    )


def flags_melee(p: argparse.ArgumentParser) -> None:
    weapons = choice_of("none", "one-hand", "two-hand")
    p.add_argument("--rep", type=rep_type, required=True, help="the fighter's Rep")
    p.add_argument("--weapon", type=weapons, default="none", help="none, one-hand or two-hand")
    p.add_argument("--vs-prone", action="store_true", help="the opponent is prone: +1d6")
    dice_arg(p, "--dice", "the fighter's dice, each round")
    p.add_argument("--vs-rep", type=rep_type, required=True, help="the opponent's Rep")
    p.add_argument("--vs-weapon", type=weapons, default="none", help="the opponent's weapon")
    p.add_argument("--prone", action="store_true", help="the fighter is prone: opponent +1d6")
    dice_arg(p, "--vs-dice", "the opponent's dice, each round")
    dice_arg(p, "--damage-die", "the winner's Melee Damage die, each decided round")


def job_activation(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: activation.roll_activation(d, ("player", "enemy")),
        odds=lambda: activation_odds(("player", "enemy")),
    )


def flags_activation(p: argparse.ArgumentParser) -> None:
    dice_arg(p, "--dice", "player's die, enemy's die (again after doubles)")
