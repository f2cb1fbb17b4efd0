"""Between and around encounters: retrieving wounded 7.12, Challenge 7.14, After the
Battle Recovery 7.13, Recruiting 6.1.1, New Recruits 13.1 and Rep changes 13.2/13.3."""

from __future__ import annotations

from dataclasses import dataclass

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import BandType, EncounterType, Status
from crdesk.rules.common import TableRoll, check_rep, faces_text, pass_roll
from crdesk.tables import (
    AFTER_BATTLE_RECOVERY,
    CHALLENGE,
    CHALLENGE_MODIFIERS,
    NEW_RECRUITS,
    REP_MIN,
    ChallengeRow,
    NewRecruits,
    Recovery,
    recruit_rep,
    rep_decrease,
    rep_increase,
)


def retrieve_wounded(
    dice: DiceSource, rep: int, *, is_star: bool = False, who: str = ""
) -> TableRoll:
    """Retrieving wounded 7.12: a Grunt rolls 1d6 vs Rep (pass: it will try); Stars choose."""
    check_rep(rep)
    if is_star:
        return TableRoll(
            "7.12",
            "Retrieving Wounded",
            who,
            (),
            rep,
            None,
            "may_retrieve",
            f"{who or 'The Star'} may choose to retrieve the wounded (7.12).",
        )
    roll, passed = pass_roll(dice, 1, rep, section="7.12", table="Retrieving Wounded", who=who)
    code = "will_retrieve" if passed else "will_not_retrieve"
    words = "will try to retrieve the wounded" if passed else "will not retrieve the wounded"
    dice.note(roll, words, passed=passed)
    return TableRoll(
        "7.12",
        "Retrieving Wounded",
        who,
        roll.faces,
        rep,
        passed,
        code,
        f"{who or 'Grunt'} rolled {faces_text(roll.faces)} vs Rep {rep}: {words} (7.12).",
    )


def challenge(
    dice: DiceSource,
    rep: int,
    *,
    very_easy: bool = False,
    very_difficult: bool = False,
    helpful_tool: bool = False,
    reroll: bool = True,
    who: str = "",
) -> TableRoll:
    """Challenge 7.14: 2d6 vs Rep (+1 very easy, -1 very difficult, +1 helpful tool);
    a 6 always fails.  Pass 1: reroll (``reroll=True``), where pass 1 now counts as
    pass 0, or give up.  Results ``success``, ``failure``, ``gave_up``."""
    check_rep(rep)
    if very_easy and very_difficult:
        raise IllegalActionError("a challenge cannot be both very easy and very difficult")
    target = rep + sum(
        CHALLENGE_MODIFIERS[k]
        for k, on in (
            ("very_easy", very_easy),
            ("very_difficult", very_difficult),
            ("helpful_tool", helpful_tool),
        )
        if on
    )
    roll, passed = pass_roll(
        dice, 2, target, section="7.14", table="Challenge", who=who, six_fails=True
    )
    row = CHALLENGE[passed]
    faces = roll.faces
    reason = f"{who or 'Challenger'} rolled {faces_text(faces)} vs {target}: passed {passed}"
    if row is ChallengeRow.MAY_REROLL:
        if not reroll:
            dice.note(roll, "gave up", passed=passed)
            return TableRoll(
                "7.14",
                "Challenge",
                who,
                faces,
                target,
                passed,
                "gave_up",
                reason + "; gives up, no further attempt (7.14).",
            )
        dice.note(roll, "may reroll: rerolls", passed=passed)
        roll2, passed2 = pass_roll(
            dice, 2, target, section="7.14", table="Challenge (reroll)", who=who, six_fails=True
        )
        faces = faces + roll2.faces
        ok = passed2 == 2
        dice.note(roll2, "success" if ok else "failure (pass 1 counts as 0)", passed=passed2)
        return TableRoll(
            "7.14",
            "Challenge",
            who,
            faces,
            target,
            passed2,
            "success" if ok else "failure",
            reason
            + f"; rerolled {faces_text(roll2.faces)}: passed {passed2}"
            + (
                ": success (7.14)."
                if ok
                else ", pass 1 counts as 0: fails with the consequences (7.14)."
            ),
        )
    code = row.value
    dice.note(roll, code, passed=passed)
    words = "success" if row is ChallengeRow.SUCCESS else "fails with the consequences"
    return TableRoll(
        "7.14", "Challenge", who, faces, target, passed, code, reason + f": {words} (7.14)."
    )


def recovery(
    dice: DiceSource, rep: int, *, left_battlefield: bool = False, who: str = ""
) -> TableRoll:
    """After the Battle Recovery 7.13 for a figure that went Out of the Fight or left."""
    check_rep(rep)
    roll, passed = pass_roll(
        dice, 2, rep, section="7.13", table="After the Battle Recovery", who=who
    )
    row = AFTER_BATTLE_RECOVERY[passed]
    returns = row is Recovery.RETURNS or (row is Recovery.OOF_RETURNS and not left_battlefield)
    why = "left the battlefield" if left_battlefield else "went Out of the Fight"
    code = "returns" if returns else "does_not_return"
    dice.note(roll, code.replace("_", " "), passed=passed)
    return TableRoll(
        "7.13",
        "After the Battle Recovery",
        who,
        roll.faces,
        rep,
        passed,
        code,
        f"{who or 'Figure'} ({why}) passed {passed}: "
        + ("returns to the Band" if returns else "does not return")
        + " (7.13).",
        extra=(("row", row.value),),
    )


def recruit(
    dice: DiceSource, band: BandType, *, star_rep: int | None = None, who: str = ""
) -> TableRoll:
    """Recruiting 6.1.1: 1d6 on the band's column; never above the Star's Rep."""
    roll = dice.roll(1, section="6.1.1", table="Recruiting", who=who)
    rep = recruit_rep(band, roll.faces[0])
    capped = star_rep is not None and rep > star_rep
    if star_rep is not None:
        rep = min(rep, star_rep)
    dice.note(roll, f"Rep {rep}")
    return TableRoll(
        "6.1.1",
        "Recruiting",
        who,
        roll.faces,
        None,
        None,
        "recruit",
        f"Recruiting ({band.value}) rolled {roll.faces[0]}: Rep {rep}"
        + (" (capped at the Star's Rep)" if capped else "")
        + " (6.1.1).",
        value=rep,
    )


def new_recruits(dice: DiceSource, star_rep: int, band_size: int) -> TableRoll:
    """New Recruits 13.1: 2d6 vs the Star's Rep, a 6 always fails.

    ``value`` is how many Grunts join: the Band may hold up to the Star's Rep
    figures, Star included (6.1).
    """
    check_rep(star_rep)
    room = max(0, star_rep - band_size)
    roll, passed = pass_roll(
        dice, 2, star_rep, section="13.1", table="New Recruits", who="Star", six_fails=True
    )
    row = NEW_RECRUITS[passed]
    count = {NewRecruits.FULL_STRENGTH: room, NewRecruits.ONE: min(1, room), NewRecruits.NONE: 0}[
        row
    ]
    dice.note(roll, f"{row.value}: {count}", passed=passed)
    return TableRoll(
        "13.1",
        "New Recruits",
        "Star",
        roll.faces,
        star_rep,
        passed,
        row.value,
        f"New Recruits rolled {faces_text(roll.faces)} vs Rep {star_rep} (6 fails): "
        f"passed {passed}: {row.value.replace('_', ' ')}, {count} join (13.1).",
        value=count,
    )


NEXT_ENCOUNTER: dict[EncounterType, tuple[EncounterType, EncounterType]] = {
    EncounterType.PATROL: (EncounterType.RAID, EncounterType.DEFEND),
    EncounterType.RAID: (EncounterType.RAID, EncounterType.PATROL),
    EncounterType.DEFEND: (EncounterType.PATROL, EncounterType.DEFEND),
}
"""The encounter the outcome leads to (12): ``NEXT_ENCOUNTER[played] = (won, lost)``."""


def next_encounter(played: EncounterType, won: bool) -> EncounterType | None:
    """The next encounter by the outcome table of 12; free play leads nowhere.

    Anything but a win (a draw when the turns ran out included) counts as lost:
    the objective was not achieved."""
    pair = NEXT_ENCOUNTER.get(played)
    if pair is None:
        return None
    return pair[0] if won else pair[1]


@dataclass(frozen=True, slots=True)
class EncounterRecord:
    """What a character did in an encounter, for Rep changes (13.2/13.3)."""

    scored_hit_or_meleed: bool = False
    end_status: Status = Status.CARRY_ON
    left_oof_member_behind: bool = False

    @property
    def failure(self) -> bool:
        return (
            self.end_status in (Status.OUT_OF_THE_FIGHT, Status.LEAVE_THE_BATTLEFIELD)
            or self.left_oof_member_behind
        )

    @property
    def success(self) -> bool:
        return self.scored_hit_or_meleed and not self.failure


def rep_change(dice: DiceSource, rep: int, record: EncounterRecord, *, who: str = "") -> TableRoll:
    """Rep changes 13.2/13.3: success → 1d6 higher than Rep or a 6: +1; failure → a 1:
    -1 (never below 2); neither: no roll, no change.  ``value`` is the new Rep."""
    check_rep(rep)
    if not (record.success or record.failure):
        return TableRoll(
            "13.2/13.3",
            "Rep Changes",
            who,
            (),
            rep,
            None,
            "no_change",
            f"{who or 'Figure'}: neither a success nor a failure: no change (13.2).",
            value=rep,
        )
    roll = dice.roll(1, section="13.2/13.3", table="Rep Changes", who=who)
    face = roll.faces[0]
    if record.success:
        up = rep_increase(face, rep)
        new, code = (rep + 1, "rep_increase") if up else (rep, "no_change")
        words = f"success, rolled {face} vs Rep {rep}: " + ("Rep +1" if up else "no change")
    else:
        down = rep_decrease(face, rep)
        new, code = (rep - 1, "rep_decrease") if down else (rep, "no_change")
        words = f"failure, rolled {face}: " + (
            "Rep -1"
            if down
            else ("no change" if face != 1 else f"no change (never below {REP_MIN})")
        )
    dice.note(roll, words)
    return TableRoll(
        "13.2/13.3",
        "Rep Changes",
        who,
        roll.faces,
        rep,
        None,
        code,
        f"{who or 'Figure'}: {words} (13.2/13.3).",
        value=new,
    )
