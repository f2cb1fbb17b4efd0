"""Possible Enemy Forces (11): placement, PEF movement 11.2, resolution 11.3, enemy
generation, NP Force Movement 11.4, and the encounter objective rolls 12.2.6 / 12.3.6."""

from __future__ import annotations

from dataclasses import dataclass

from crdesk.dice import DiceSource, count_passes
from crdesk.errors import IllegalActionError
from crdesk.model import BandType
from crdesk.rules.common import RuleResult, TableRoll, check_rep, faces_text, pass_roll, plural
from crdesk.tables import (
    CONTACT_SIZE,
    DEFEND_OBJECTIVE,
    ENCIRCLE_LEFT,
    NP_FORCE_MOVEMENT,
    PEF_MOVEMENT,
    PEF_REP,
    PEF_RESOLUTION,
    NpMove,
    PefResolution,
    recruit_rep,
)


def place_pef(dice: DiceSource, *, who: str = "PEF") -> TableRoll:
    """PEF placement (11): 1d6 gives the section; 1-6, never the player's sections 7-9."""
    roll = dice.roll(1, section="11", table="PEF Placement", who=who)
    section = roll.faces[0]
    dice.note(roll, f"section {section}")
    return TableRoll(
        "11",
        "PEF Placement",
        who,
        roll.faces,
        None,
        None,
        "place",
        f"{who} placed in section {section} (11).",
        value=section,
    )


def pef_move(dice: DiceSource, *, rep: int = PEF_REP, who: str = "PEF") -> TableRoll:
    """PEF Movement 11.2: 2d6 vs Rep 4: 8", 4" or no move towards the player (in Cover)."""
    roll, passed = pass_roll(dice, 2, rep, section="11.2", table="PEF Movement", who=who)
    inches = PEF_MOVEMENT[passed]
    code = f"move_{inches}" if inches else "no_move"
    words = (
        f'moves {inches}" directly towards the player, ending in Cover if possible'
        if inches
        else "does not move"
    )
    dice.note(roll, words, passed=passed)
    return TableRoll(
        "11.2",
        "PEF Movement",
        who,
        roll.faces,
        rep,
        passed,
        code,
        f"{who} rolled {faces_text(roll.faces)} vs Rep {rep}: {words} (11.2).",
        value=inches,
    )


@dataclass(frozen=True, slots=True)
class PefResolved(RuleResult):
    """A resolved PEF (11.3)."""

    faces: tuple[int, ...]
    counted: tuple[int, ...]
    passed: int
    outcome: PefResolution
    size_die: int | None
    enemy_size: int
    next_lowest_two: bool
    """Resolve the next PEF with 3d6 counting the lowest two."""
    reason: str
    section: str = "11.3"

    @property
    def result(self) -> str:
        return self.outcome.value


def pef_resolve(
    dice: DiceSource,
    *,
    player_group_size: int,
    lowest_two: bool = False,
    last_pef: bool = False,
    enemy_contacted: bool = False,
    rep: int = PEF_REP,
    who: str = "PEF",
) -> PefResolved:
    """PEF Resolution 11.3: 2d6 vs Rep 4 (3d6 lowest two after "something's out there").

    Contact: 1d6 for the enemy's size relative to the player group that resolved
    it (never fewer than 1).  A false alarm on the last PEF when no enemy has been
    contacted counts as pass 2.
    """
    if player_group_size < 1:
        raise IllegalActionError("the resolving player group has at least one figure")
    count = 3 if lowest_two else 2
    roll = dice.roll(count, section="11.3", table="PEF Resolution", who=who, target=rep)
    counted = tuple(sorted(roll.faces)[:2])
    passed = count_passes(counted, rep)
    how = f"rolled {faces_text(roll.faces)}" + (
        f", counting the lowest two {faces_text(counted)}" if lowest_two else ""
    )
    outcome = PEF_RESOLUTION[passed]
    note = ""
    if outcome is PefResolution.FALSE_ALARM and last_pef and not enemy_contacted:
        outcome = PefResolution.CONTACT
        note = " (last PEF and no contact yet: counts as pass 2)"
    size_die: int | None = None
    size = 0
    if outcome is PefResolution.CONTACT:
        dice.note(roll, "Contact!" + note, passed=passed)
        sroll = dice.roll(1, section="11.3", table="Contact Size", who=who)
        size_die = sroll.faces[0]
        size = max(1, player_group_size + CONTACT_SIZE[size_die - 1])
        dice.note(sroll, f"{size} enemy figures")
        words = f"Contact! size die {size_die}: {size} enemies vs {player_group_size}"
    elif outcome is PefResolution.SOMETHINGS_OUT_THERE:
        dice.note(roll, "Something's out there!", passed=passed)
        words = "Something's out there! Resolve the next PEF with 3d6, lowest two"
    else:
        dice.note(roll, "False alarm", passed=passed)
        words = "False alarm"
    return PefResolved(
        roll.faces,
        counted,
        passed,
        outcome,
        size_die,
        size,
        outcome is PefResolution.SOMETHINGS_OUT_THERE,
        f"{who} {how} vs Rep {rep}: passed {passed}{note}: {words} (11.3).",
    )


def enemy_reps(dice: DiceSource, band: BandType, count: int) -> tuple[int, ...]:
    """Reps of a contacted enemy group: the Recruiting column of its type (11.3, 6.1.1)."""
    roll = dice.roll(count, section="6.1.1", table="Recruiting (enemy)", who=band.value)
    reps = tuple(recruit_rep(band, f) for f in roll.faces)
    dice.note(roll, "Reps " + ",".join(map(str, reps)))
    return reps


def np_move(
    dice: DiceSource, leader_rep: int, *, outnumbers: bool, who: str = "NP group"
) -> TableRoll:
    """NP Force Movement 11.4: 2d6 vs the Leader's Rep.  On a split, 1d6 picks the
    encircling flank: left on 1-3, right on 4-6 (``extra`` holds ``flank``)."""
    check_rep(leader_rep)
    roll, passed = pass_roll(
        dice, 2, leader_rep, section="11.4", table="NP Force Movement", who=who
    )
    move = NP_FORCE_MOVEMENT[passed][0 if outnumbers else 1]
    dice.note(roll, move.value.replace("_", " "), passed=passed)
    words = {
        NpMove.SPLIT_AND_ENCIRCLE: "splits in two: one half moves to Cover to fire at the "
        "closest player group, the other encircles",
        NpMove.MOVE_TO_FIRING_COVER: "moves to Cover from which it can fire at the closest "
        "player group",
        NpMove.HOLD_OR_NEAREST_COVER: "remains in Cover or moves to the nearest Cover, then may "
        "fire at an enemy in range",
    }[move]
    extra: tuple[tuple[str, int | str | bool], ...] = ()
    faces = roll.faces
    if move is NpMove.SPLIT_AND_ENCIRCLE:
        froll = dice.roll(1, section="11.4", table="Encircle Flank", who=who)
        lo, hi = ENCIRCLE_LEFT
        flank = "left" if lo <= froll.faces[0] <= hi else "right"
        dice.note(froll, f"by the {flank} flank")
        words += f" by the {flank} flank ({froll.faces[0]})"
        extra = (("flank", flank),)
        faces = faces + froll.faces
    ratio = "outnumbers 2:1" if outnumbers else "does not outnumber 2:1"
    return TableRoll(
        "11.4",
        "NP Force Movement",
        who,
        faces,
        leader_rep,
        passed,
        move.value,
        f"{who} ({ratio}) passed {passed}: {words} (11.4).",
        extra=extra,
    )


def raid_objective(
    dice: DiceSource, *, pefs_resolved: int, all_resolved: bool = False
) -> TableRoll:
    """Finding the objective 12.2.6: when a PEF resolves as enemies, 1d6 ≤ PEFs resolved
    so far means the objective is with them; the last PEF has it if no earlier one did."""
    if all_resolved:
        return TableRoll(
            "12.2.6",
            "Finding the Objective",
            "",
            (),
            pefs_resolved,
            None,
            "objective_found",
            "All PEFs resolved: the objective is with these enemies (12.2.6).",
        )
    roll = dice.roll(1, section="12.2.6", table="Finding the Objective", target=pefs_resolved)
    found = roll.faces[0] <= pefs_resolved
    code = "objective_found" if found else "objective_not_here"
    dice.note(roll, code.replace("_", " "))
    return TableRoll(
        "12.2.6",
        "Finding the Objective",
        "",
        roll.faces,
        pefs_resolved,
        int(found),
        code,
        f"Rolled {roll.faces[0]} vs {plural(pefs_resolved, 'PEF')} resolved: "
        + ("the objective is with these enemies" if found else "not with these enemies")
        + " (12.2.6).",
    )


def defend_objective(dice: DiceSource) -> TableRoll:
    """Their objective 12.3.6: 1-3 kill or capture the Grunts; 4-6 recover something."""
    roll = dice.roll(1, section="12.3.6", table="Their Objective")
    code = DEFEND_OBJECTIVE[roll.faces[0] - 1]
    dice.note(roll, code.value.replace("_", " "))
    words = (
        "kill or capture the player's Grunts"
        if code.value == "kill_or_capture"
        else "rescue or recover something from the buildings"
    )
    return TableRoll(
        "12.3.6",
        "Their Objective",
        "",
        roll.faces,
        None,
        None,
        code.value,
        f"Rolled {roll.faces[0]}: the enemy will {words} (12.3.6).",
    )
