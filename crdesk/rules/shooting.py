"""Ranged fire: weapons 7.9, Outgunned Rankings 7.9.1, Tight Ammo 7.9.2, target dice
7.9.9, the Ranged Combat table 7.9.10, Pitiful Shot 7.9.14 and two weapons 7.9.13.

The shooter rolls one d6 per point of Target (the shotgun rolls 6 and keeps the
best 3), sorts the dice high to low and gives them out in the declared order,
highest first to the first target.  Each die + Rep is read on 7.9.10 with the
circumstances of its target; hits roll damage (7.9.11 / 16.1), a target that
is not hit takes Received Fire.  Two or more 1s among all dice rolled means the
weapon is out of ammo; a rocket launcher always is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from crdesk.dice import DiceSource
from crdesk.errors import IllegalActionError
from crdesk.model import Status, WeaponCode
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, check_rep, faces_text, figure_id, plural
from crdesk.rules.damage import DamageResult, roll_damage
from crdesk.tables import Shot, WeaponStats, outgunned_rank, ranged_combat_row, weapon_stats

SECTION = "7.9.10"


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """A target of fire and its circumstances on 7.9.10."""

    name: str = "target"
    rep: int = 4
    in_cover: bool = False
    prone: bool = False
    fast_moving: bool = False
    carried_rep: int | None = None
    """Rep of a wounded figure this target is carrying (7.12): the carrier counts as in
    Cover, and a shot that misses only because of that Cover hits the wounded instead."""
    id: str = ""
    """The figure's id; defaults to the name when empty.  Results are keyed by it."""

    @property
    def key(self) -> str:
        """The id results are keyed by: ``id``, or the name when it is empty."""
        return figure_id(self.name, self.id)


def weapon_rank(
    weapons: Sequence[WeaponCode | str],
    *,
    options: RulesOptions | None = None,
    can_fire: bool = True,
) -> int:
    """Outgunned Ranking 7.9.1 of a figure: its weapon's OR; two weapons: better +1.

    A figure that cannot return fire (out of ammo, unarmed, melee only) ranks 0.
    """
    options = options or RulesOptions()
    usable = [w for w in weapons if str(w) not in ("none", WeaponCode.NONE.value)]
    if not can_fire or not usable:
        return 0
    best = max(outgunned_rank(weapon_stats(w, options.old_school)) for w in usable)
    return best + 1 if len(usable) >= 2 else best


def in_range(
    weapon: WeaponCode | str, distance: float, options: RulesOptions | None = None
) -> bool:
    """Whether a target ``distance`` inches away is within the weapon's range (7.9, 16.0)."""
    return distance <= weapon_stats(weapon, (options or RulesOptions()).old_school).range


def is_outgunned(
    shooter_rank: int,
    target_rank: int,
    *,
    target_is_star: bool = False,
) -> bool:
    """7.9.1: the target is Outgunned if the shooter's OR is higher or it cannot fire back.

    Stars are never Outgunned (5.2).
    """
    if target_is_star:
        return False
    return target_rank == 0 or shooter_rank > target_rank


def shot_circumstances(
    target: TargetSpec, target_index: int, *, fast_moving: bool, rush_shot: bool
) -> frozenset[Shot]:
    """The 7.9.10 circumstances of one die: the shooter's, the target's, its order."""
    circ: set[Shot] = set()
    if fast_moving:
        circ.add(Shot.FAST_MOVING)
    if rush_shot:
        circ.add(Shot.RUSH_SHOT)
    if target.in_cover or target.carried_rep is not None:
        circ.add(Shot.TARGET_IN_COVER)
    if target.prone:
        circ.add(Shot.TARGET_PRONE)
    if target.fast_moving:
        circ.add(Shot.TARGET_FAST_MOVING)
    if target_index >= 1:
        circ.add(Shot.SECOND_TARGET)
    if target_index >= 2:
        circ.add(Shot.THIRD_TARGET)
    return frozenset(circ)


def shot_hits(face: int, rep: int, circumstances: frozenset[Shot]) -> tuple[bool, str]:
    """Read one die on Ranged Combat 7.9.10: (hit, why)."""
    total = face + rep
    row = ranged_combat_row(total)
    if row.always_miss:
        return False, f"{face}+{rep}={total}: shooter missed"
    cause = row.miss_cause(circumstances)
    if cause is not None:
        return False, f"{face}+{rep}={total}: missed ({cause.value.replace('_', ' ')})"
    return True, f"{face}+{rep}={total}: hit"


def pitiful_shot_applies(face: int, rep: int, hit: bool) -> bool:
    """Pitiful Shot 7.9.14: Rep 3 or 2 rolled a 6 and still missed (not Rep 1)."""
    return not hit and face == 6 and 2 <= rep <= 3


@dataclass(frozen=True, slots=True)
class ShotResult(RuleResult):
    """One die of a volley: its face, total, target and whether it hit."""

    face: int
    total: int
    target: str
    target_index: int
    hit: bool
    reason: str
    pitiful_die: int | None = None
    hits_carried: bool = False
    """Missed the carrier only because of the Cover it gets from carrying: hits the
    wounded figure instead (7.12)."""
    section: str = SECTION
    target_id: str = ""
    """The target's id (its name when it was given none); ``target`` is its name."""

    @property
    def result(self) -> str:
        if self.hits_carried:
            return "hit_carried_wounded"
        return "hit" if self.hit else "miss"


@dataclass(frozen=True, slots=True)
class TargetResult(RuleResult):
    """What a volley did to one target (``id``: its id, or its name when it had none)."""

    PARTS: ClassVar[tuple[str, ...]] = ("shots",)

    name: str
    rep: int
    dice: tuple[int, ...]
    shots: tuple[ShotResult, ...]
    damage: tuple[DamageResult, ...]
    carried_damage: tuple[DamageResult, ...] = ()
    """Damage to the wounded figure the target carries (7.12)."""
    section: str = SECTION
    id: str = ""

    @property
    def hits(self) -> int:
        return sum(1 for s in self.shots if s.hit)

    @property
    def received_fire(self) -> bool:
        """A target shot at and not hit takes the Received Fire test (7.9.10)."""
        return self.hits == 0 and bool(self.shots)

    @property
    def carried_hits(self) -> int:
        """Shots that hit the wounded figure the target carries (7.12)."""
        return sum(1 for s in self.shots if s.hits_carried)

    @property
    def status(self) -> Status | None:
        """The worst damage taken, or None if not hit (or damage not rolled)."""
        if not self.damage:
            return None
        return max((d.status for d in self.damage), key=lambda s: s.rank)

    @property
    def result(self) -> str:
        if self.hits == 0:
            return "miss"
        status = self.status
        return status.value if status is not None else "hit"

    def explain(self) -> str:
        shots = "; ".join(s.reason for s in self.shots)
        carried = " ".join(
            f"The wounded figure carried: {d.explain()}" for d in self.carried_damage
        )
        if self.hits == 0:
            missed = f"{self.name}: {shots}. Missed: takes Received Fire ({SECTION})."
            return f"{missed} {carried}".strip()
        dmg = " ".join(d.explain() for d in self.damage)
        return f"{self.name}: {shots}. {plural(self.hits, 'hit')}. {dmg} {carried}".strip()

    def to_dict(self) -> dict[str, object]:
        d = RuleResult.to_dict(self)
        d.update(hits=self.hits, received_fire=self.received_fire)
        return d


@dataclass(frozen=True, slots=True)
class FireResult(RuleResult):
    """One figure firing one weapon: every die, every target, ammo."""

    PARTS: ClassVar[tuple[str, ...]] = ("targets",)

    shooter_rep: int
    weapon: str
    faces: tuple[int, ...]
    """All dice rolled (for Tight Ammo)."""
    kept: tuple[int, ...]
    """The dice applied, sorted high to low (the shotgun's best three)."""
    allocation: tuple[int, ...]
    targets: tuple[TargetResult, ...]
    out_of_ammo: bool
    ones: int
    rank: int
    circumstances: tuple[str, ...] = field(default=())
    section: str = SECTION

    @property
    def result(self) -> str:
        return "hit" if any(t.hits for t in self.targets) else "miss"

    def for_target(self, id_: str) -> TargetResult:
        """What the volley did to the target with this id (its name when it had no id)."""
        for t in self.targets:
            if figure_id(t.name, t.id) == id_:
                return t
        raise KeyError(id_)

    def explain(self) -> str:
        return " ".join(self.explain_lines())

    def explain_lines(self) -> list[str]:
        """The explanation as lines: the roll, each target, then the ammo (for a referee
        printing one line each)."""
        head = (
            f"Rep {self.shooter_rep} {self.weapon} rolled {faces_text(self.faces)}"
            + (f", kept {faces_text(self.kept)}" if self.kept != self.faces else "")
            + (f" ({', '.join(self.circumstances)})" if self.circumstances else "")
            + f" ({SECTION})."
        )
        lines = [head] + [t.explain() for t in self.targets]
        if self.out_of_ammo:
            why = "always after firing" if self.ones < 2 else f"{self.ones} ones rolled"
            lines.append(f"Out of ammo: {why} (7.9.2).")
        return lines


def default_allocation(dice: int, targets: int) -> tuple[int, ...]:
    """Spread dice one per target in order, then round again (7.9.8: each once first)."""
    alloc = [0] * targets
    for i in range(dice):
        alloc[i % targets] += 1
    return tuple(alloc)


def volley_allocation(
    stats: WeaponStats, targets: int, allocation: Sequence[int] | None
) -> tuple[int, ...]:
    """The Target dice each target gets (7.9.9), or why the targets or the allocation are
    refused (7.9.7): the one check of :func:`fire` and of its exact odds."""
    kept_count = stats.target
    if not targets:
        raise IllegalActionError(
            f"fire needs at least one target ({stats.name} has Target {kept_count})",
            about="targets",
        )
    if targets > kept_count:
        raise IllegalActionError(
            f"{stats.name} has Target {kept_count}: at most {kept_count} targets, "
            f"got {targets} (7.9.7)",
            about="targets",
        )
    alloc = tuple(allocation) if allocation is not None else default_allocation(kept_count, targets)
    if len(alloc) != targets or any(a < 1 for a in alloc) or sum(alloc) != kept_count:
        raise IllegalActionError(
            f"allocation {','.join(map(str, alloc))} must give each of the "
            f"{plural(targets, 'target')} at least one die and {kept_count} dice in all "
            "(7.9.9)",
            about="allocation",
        )
    return alloc


def fire(
    dice: DiceSource,
    shooter_rep: int,
    weapon: WeaponCode | str,
    targets: Sequence[TargetSpec],
    *,
    allocation: Sequence[int] | None = None,
    fast_moving: bool = False,
    rush_shot: bool = False,
    rush_at: Sequence[bool] | None = None,
    options: RulesOptions | None = None,
    roll_damage_dice: bool = True,
    who: str = "shooter",
) -> FireResult:
    """Fire one weapon at one or more targets (7.9.9, 7.9.10, 7.9.14, 7.9.2).

    ``allocation`` declares how many dice go to each target in order (7.9.9);
    by default each target gets one die in turn.  ``rush_at``: the Rush Shot penalty
    target by target (a charged figure "compares its result with each charger
    separately", 7.11.2: it may Rush Shot at one charger and fire at another), on
    top of ``rush_shot`` for all.  Blast weapons use
    :func:`crdesk.rules.grenades.rocket_shot` instead.
    """
    options = options or RulesOptions()
    check_rep(shooter_rep)
    stats = weapon_stats(weapon, options.old_school)
    if stats.blast:
        raise IllegalActionError(
            f"{stats.name} fires at a spot with a blast circle (7.10.5), not at targets"
        )
    kept_count = stats.target
    alloc = volley_allocation(stats, len(targets), allocation)
    for target in targets:
        check_rep(target.rep, "target Rep")
    ids = [t.key for t in targets]
    roll = dice.roll(
        stats.rolls, section=SECTION, table="Ranged Combat", who=who, figures=tuple(ids)
    )
    faces = roll.faces
    kept = tuple(sorted(faces, reverse=True)[:kept_count])
    ones = sum(1 for f in faces if f == 1)
    out_of_ammo = ones >= 2 or stats.always_out_of_ammo

    results: list[TargetResult] = []
    so_far: list[str] = []
    pos = 0
    for index, (target, n) in enumerate(zip(targets, alloc, strict=True)):
        tid = ids[index]
        rushed = rush_shot or (rush_at is not None and bool(rush_at[index]))
        circ = shot_circumstances(target, index, fast_moving=fast_moving, rush_shot=rushed)
        shots: list[ShotResult] = []
        for face in kept[pos : pos + n]:
            hit, why = shot_hits(face, shooter_rep, circ)
            pitiful: int | None = None
            carried = (
                not hit
                and target.carried_rep is not None
                and not target.in_cover
                and shot_hits(face, shooter_rep, circ - {Shot.TARGET_IN_COVER})[0]
            )
            if carried:
                why += "; missed only because of the carrier's Cover: hits the wounded (7.12)"
            elif pitiful_shot_applies(face, shooter_rep, hit):
                proll = dice.roll(
                    1,
                    section="7.9.14",
                    table="Pitiful Shot",
                    who=who,
                    target=shooter_rep,
                    figures=(tid,),
                )
                pitiful = proll.faces[0]
                hit = pitiful <= shooter_rep
                why += f"; Pitiful Shot {pitiful} vs Rep {shooter_rep}: " + (
                    "hit (7.9.14)" if hit else "still a miss (7.9.14)"
                )
                dice.note(proll, "hit" if hit else "miss", passed=int(hit))
            shots.append(
                ShotResult(
                    face,
                    face + shooter_rep,
                    target.name,
                    index,
                    hit,
                    why,
                    pitiful,
                    carried,
                    target_id=tid,
                )
            )
        pos += n
        # what the dice did so far, in the log before any damage die is rolled, so a
        # referee whose player has not rolled the damage yet can show it (issue 16)
        landed = sum(1 for s in shots if s.hit) + sum(1 for s in shots if s.hits_carried)
        so_far.append(f"{target.name}: {plural(landed, 'hit')}")
        dice.note(roll, "; ".join(so_far))
        damage: list[DamageResult] = []
        if roll_damage_dice:
            for _ in range(sum(1 for s in shots if s.hit)):
                damage.append(
                    roll_damage(
                        dice,
                        target.rep,
                        weapon=stats.code,
                        options=options,
                        who=target.name,
                        figures=(tid,),
                    )
                )
        carried_damage: list[DamageResult] = []
        if roll_damage_dice and target.carried_rep is not None:
            for _ in range(sum(1 for s in shots if s.hits_carried)):
                carried_damage.append(
                    roll_damage(
                        dice,
                        target.carried_rep,
                        weapon=stats.code,
                        options=options,
                        who=f"wounded carried by {target.name}",
                    )
                )
        results.append(
            TargetResult(
                target.name,
                target.rep,
                kept[pos - n : pos],
                tuple(shots),
                tuple(damage),
                tuple(carried_damage),
                id=tid,
            )
        )
    circ_words = tuple(
        w
        for w, on in (
            ("fast moving", fast_moving),
            ("rush shot", rush_shot),
            (
                "rush shot at "
                + ", ".join(t.name for t, r in zip(targets, rush_at or (), strict=False) if r),
                not rush_shot and rush_at is not None and any(rush_at),
            ),
        )
        if on
    )
    result = FireResult(
        shooter_rep=shooter_rep,
        weapon=stats.code,
        faces=faces,
        kept=kept,
        allocation=alloc,
        targets=tuple(results),
        out_of_ammo=out_of_ammo,
        ones=ones,
        rank=outgunned_rank(stats),
        circumstances=circ_words,
    )
    hits = sum(t.hits for t in results)
    dice.note(roll, plural(hits, "hit") + ("; out of ammo" if out_of_ammo else ""))
    return result


@dataclass(frozen=True, slots=True)
class TwoWeaponsResult(RuleResult):
    """Two weapons fired at once (7.9.13): each with the Rush Shot penalty."""

    PARTS: ClassVar[tuple[str, ...]] = ("volleys",)

    volleys: tuple[FireResult, ...]
    rank: int
    section: str = "7.9.13"

    @property
    def result(self) -> str:
        return "hit" if any(v.result == "hit" for v in self.volleys) else "miss"

    def explain(self) -> str:
        return (
            f"Two weapons, each with the Rush Shot penalty, Outgunned Ranking {self.rank} "
            f"(7.9.13): " + " ".join(v.explain() for v in self.volleys)
        )


def fire_two_weapons(
    dice: DiceSource,
    shooter_rep: int,
    volleys: Sequence[tuple[WeaponCode | str, Sequence[TargetSpec]]],
    *,
    fast_moving: bool = False,
    options: RulesOptions | None = None,
    who: str = "shooter",
) -> TwoWeaponsResult:
    """Fire two weapons at once (7.9.13): each counts Rush Shot; OR is the better +1."""
    options = options or RulesOptions()
    if len(volleys) != 2:
        raise IllegalActionError("two weapons means exactly two volleys")
    results = tuple(
        fire(
            dice,
            shooter_rep,
            w,
            t,
            fast_moving=fast_moving,
            rush_shot=True,
            options=options,
            who=who,
        )
        for w, t in volleys
    )
    rank = weapon_rank([w for w, _ in volleys], options=options)
    return TwoWeaponsResult(results, rank)
