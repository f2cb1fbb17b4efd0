"""``crdesk resolve challenge``, ``recovery``, ``recruit``, ``new-recruits``, ``retrieve``,
``rep-change``, ``pef-move``, ``pef-resolve``, ``np-move``, ``terrain``, ``buildings``:
the campaign, PEF and table-making rolls (6, 7.12-7.14, 9, 11, 13)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from crdesk.cli.common import int_in
from crdesk.cli.resolve.engine import Batch, Job, OddsItem, ResolveError, main_flag, typed_dice
from crdesk.cli.resolve.flags import choice_of, count_type, dice_arg, rep_type, size_type
from crdesk.dice import DiceSource
from crdesk.model import BandType, Status
from crdesk.rules import campaign, pef, terrain
from crdesk.rules.common import plural
from crdesk.tables import TableType


def job_challenge(args: argparse.Namespace) -> Job:
    if args.very_easy and args.very_difficult:
        raise ResolveError("--very-difficult", "not allowed with --very-easy")
    return Job(
        dice={"--dice": typed_dice(args, "dice"), "--reroll-dice": typed_dice(args, "reroll_dice")},
        route=lambda table, _w: "--reroll-dice" if "reroll" in table else "--dice",
        fallback={"--reroll-dice": "--dice"},
        run=lambda d: campaign.challenge(
            d,
            args.rep,
            very_easy=args.very_easy,
            very_difficult=args.very_difficult,
            helpful_tool=args.helpful_tool,
            reroll=not args.give_up,
        ),
    )


def flags_challenge(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the challenger's Rep")
    p.add_argument("--very-easy", action="store_true", help="+1 to Rep")
    p.add_argument("--very-difficult", action="store_true", help="-1 to Rep")
    p.add_argument("--helpful-tool", action="store_true", help="+1 to Rep")
    p.add_argument("--give-up", action="store_true", help="on pass 1, give up instead of rerolling")
    dice_arg(p, "--dice", "2d6")
    dice_arg(p, "--reroll-dice", "2d6 of the reroll on pass 1 (default: read on from --dice)")


def job_recovery(args: argparse.Namespace) -> Job:
    typed = typed_dice(args, "dice")

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            campaign.recovery(
                dice, rep, left_battlefield=args.left_battlefield, who=_nth("figure", i, args.rep)
            )
            for i, rep in enumerate(args.rep, 1)
        )
        return Batch("7.13", items[0].result if len(items) == 1 else "recovery", items)

    def odds_items() -> list[OddsItem]:
        def one(rep: int) -> Callable[[DiceSource], Any]:
            return lambda d: campaign.recovery(d, rep, left_battlefield=args.left_battlefield)

        return [(f"Rep {rep}", one(rep), None) for rep in dict.fromkeys(args.rep)]

    return Job(dice={"--dice": typed}, route=main_flag, run=run, odds_items=odds_items)


def flags_recovery(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rep", type=rep_type, action="append", required=True, help="Rep of a figure (repeat)"
    )
    p.add_argument("--left-battlefield", action="store_true", help="it left the battlefield")
    dice_arg(p, "--dice", "2d6 per figure")


def _nth(what: str, i: int, items: Sequence[object]) -> str:
    return f"{what} {i}" if len(items) > 1 else what


def job_recruit(args: argparse.Namespace) -> Job:
    typed = typed_dice(args, "dice")
    count = len(typed) if typed is not None else args.count
    band = BandType(args.band)

    def run(dice: DiceSource) -> Batch:
        items = tuple(
            campaign.recruit(dice, band, star_rep=args.star_rep, who=f"recruit {i}")
            for i in range(1, count + 1)
        )
        return Batch("6.1.1", "recruit", items)

    def one(dice: DiceSource) -> Any:
        return campaign.recruit(dice, band, star_rep=args.star_rep, who="recruit")

    return Job(
        dice={"--dice": typed},
        route=main_flag,
        run=run,
        odds_items=lambda: [("each recruit", one, lambda r: f"Rep {r.value}")],
    )


def flags_recruit(p: argparse.ArgumentParser) -> None:
    p.add_argument("--band", type=choice_of(*(b.value for b in BandType)), required=True)
    p.add_argument("--star-rep", type=rep_type, help="the Star's Rep: recruits are capped at it")
    p.add_argument("--count", type=size_type, default=1, help="recruits when crdesk rolls")
    dice_arg(p, "--dice", "1d6 per recruit")


def job_new_recruits(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: campaign.new_recruits(d, args.star_rep, args.band_size),
    )


def flags_new_recruits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--star-rep", type=rep_type, required=True, help="the Star's Rep")
    p.add_argument(
        "--band-size", type=count_type, required=True, help="figures in the Band now, Star included"
    )
    dice_arg(p, "--dice", "2d6")


def job_pef_move(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: pef.pef_move(d, rep=args.rep),
    )


def flags_pef_move(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, default=4, help="the PEF's Rep (default 4)")
    dice_arg(p, "--dice", "2d6")


def job_pef_resolve(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice"), "--size-die": typed_dice(args, "size_die")},
        route=lambda table, _w: "--size-die" if table == "Contact Size" else "--dice",
        fallback={"--size-die": "--dice"},
        run=lambda d: pef.pef_resolve(
            d,
            player_group_size=args.player_group_size,
            lowest_two=args.lowest_two,
            last_pef=args.last_pef,
            enemy_contacted=args.enemy_contacted,
            rep=args.rep,
        ),
    )


def flags_pef_resolve(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--player-group-size", type=size_type, required=True, help="figures in the resolving group"
    )
    p.add_argument(
        "--lowest-two", action="store_true", help="after Something's out there: 3d6 lowest two"
    )
    p.add_argument("--last-pef", action="store_true", help="this is the last PEF")
    p.add_argument("--enemy-contacted", action="store_true", help="an enemy was contacted already")
    p.add_argument("--rep", type=rep_type, default=4, help="the PEF's Rep (default 4)")
    dice_arg(p, "--dice", "2d6 (3d6 with --lowest-two)")
    dice_arg(p, "--size-die", "the Contact size die (default: read on from --dice)")


def job_np_move(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice"), "--flank-die": typed_dice(args, "flank_die")},
        route=lambda table, _w: "--flank-die" if table == "Encircle Flank" else "--dice",
        fallback={"--flank-die": "--dice"},
        run=lambda d: pef.np_move(d, args.leader_rep, outnumbers=args.outnumbers),
    )


def flags_np_move(p: argparse.ArgumentParser) -> None:
    p.add_argument("--leader-rep", type=rep_type, required=True, help="the NP Leader's Rep")
    p.add_argument(
        "--outnumbers", action="store_true", help="the NP group outnumbers the player 2:1"
    )
    dice_arg(p, "--dice", "2d6")
    dice_arg(p, "--flank-die", "the encircling flank die (default: read on from --dice)")


_TABLE_TYPES = choice_of(*(t.value for t in TableType))


def job_terrain(args: argparse.Namespace) -> Job:
    sections: list[int] = args.section or list(range(1, 10))

    def run(dice: DiceSource) -> Batch:
        items: list[Any] = []
        if args.type is None:
            overall = terrain.overall_terrain(dice)
            items.append(overall)
            kind = TableType(overall.result)
        else:
            kind = TableType(args.type)
        for s in sections:
            items.append(terrain.section_terrain(dice, kind, s))
        return Batch("9.3.1", kind.value, tuple(items))

    def odds_items() -> list[OddsItem]:
        def one(section: int) -> Callable[[DiceSource], Any]:
            def run_one(dice: DiceSource) -> Any:
                kind = (
                    TableType(args.type)
                    if args.type is not None
                    else TableType(terrain.overall_terrain(dice).result)
                )
                return terrain.section_terrain(dice, kind, section)

            return run_one

        items: list[OddsItem] = []
        if args.type is None:
            items.append(("overall type", terrain.overall_terrain, None))
        return items + [(f"section {n}", one(n), None) for n in sections]

    return Job(
        dice={"--dice": typed_dice(args, "dice")}, route=main_flag, run=run, odds_items=odds_items
    )


def flags_terrain(p: argparse.ArgumentParser) -> None:
    p.add_argument("--type", type=_TABLE_TYPES, help="overall type (default: roll it on 9.2 first)")
    p.add_argument(
        "--section",
        type=int_in(1, 9, "section"),
        action="append",
        help="a section 1-9 (default all nine, in order)",
    )
    dice_arg(p, "--dice", "1d6 per section (after the 9.2 die without --type)")


def job_buildings(args: argparse.Namespace) -> Job:
    kind = TableType(args.type)

    def run(dice: DiceSource) -> Batch:
        count = terrain.buildings_in_section(dice, kind)
        assert count.value is not None
        items = [count] + [terrain.building_type(dice, kind) for _ in range(count.value)]
        return Batch("9.4.4", plural(count.value, "building"), tuple(items))

    def one_building(dice: DiceSource) -> Any:
        return terrain.building_type(dice, kind)

    def building_words(r: Any) -> str:
        floors = dict(r.extra).get("floors", 1)
        return f"{plural(r.value, 'area')}, {plural(floors, 'floor')}"

    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=run,
        odds_items=lambda: [
            (
                "buildings",
                lambda d: terrain.buildings_in_section(d, kind),
                lambda r: plural(r.value, "building"),
            ),
            ("each building", one_building, building_words),
        ],
    )


def flags_buildings(p: argparse.ArgumentParser) -> None:
    p.add_argument("--type", type=_TABLE_TYPES, required=True, help="the table's overall type")
    dice_arg(p, "--dice", "the count die, then 1d6 per building")


def job_retrieve(args: argparse.Namespace) -> Job:
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: campaign.retrieve_wounded(d, args.rep),
    )


def flags_retrieve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the Grunt's Rep")
    dice_arg(p, "--dice", "1d6")


def job_rep_change(args: argparse.Namespace) -> Job:
    status = {
        "carry-on": Status.CARRY_ON,
        "out-of-the-fight": Status.OUT_OF_THE_FIGHT,
        "left-the-battlefield": Status.LEAVE_THE_BATTLEFIELD,
    }[args.ended]
    record = campaign.EncounterRecord(
        scored_hit_or_meleed=args.scored_hit,
        end_status=status,
        left_oof_member_behind=args.left_wounded_behind,
    )
    return Job(
        dice={"--dice": typed_dice(args, "dice")},
        route=main_flag,
        run=lambda d: campaign.rep_change(d, args.rep, record),
    )


def flags_rep_change(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rep", type=rep_type, required=True, help="the character's Rep")
    p.add_argument("--scored-hit", action="store_true", help="it scored a hit or fought a melee")
    p.add_argument(
        "--ended",
        type=choice_of("carry-on", "out-of-the-fight", "left-the-battlefield"),
        default="carry-on",
        help="how it ended the encounter",
    )
    p.add_argument(
        "--left-wounded-behind", action="store_true", help="left an OOF Band member behind"
    )
    dice_arg(p, "--dice", "1d6")
