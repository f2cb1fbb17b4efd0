"""Rules options: the optional modules and every digest Interpretation, as data.

A scenario carries its rules settings so that a shared scenario plays the same
on another machine (digest 20).  Each Interpretation of the digest is one named
option here, defaulting to the reading the digest gives, so a group that reads
the book differently can switch it without touching code.  The rules functions
take a :class:`RulesOptions` argument; there are no global settings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Scale(StrEnum):
    """Figure scale (digest 1): changes blast circles and building area size."""

    MM28 = "28mm"
    MM15 = "15mm"


class Weather(StrEnum):
    """Weather (7.9.4): bad weather limits LOS to 12" by day, 6" at night."""

    CLEAR = "clear"
    BAD = "bad"


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """What a player needs to know about one option, for the settings dialog."""

    name: str
    section: str
    title: str
    default_reading: str
    other_reading: str


def _opt(default: Any, section: str, title: str, default_reading: str, other: str) -> Any:
    return field(
        default=default,
        metadata={
            "section": section,
            "title": title,
            "default_reading": default_reading,
            "other_reading": other,
        },
    )


@dataclass(frozen=True, slots=True)
class Interpretations:
    """Every **Interpretation** of the rules digest, each switchable.

    Boolean options are True for the digest's reading.  Numeric options hold the
    digest's number.
    """

    flank_is_outside_front_cone: bool = _opt(
        True,
        "1 / 7.11.2",
        "Flank charge",
        "A charge is to the flank when it starts outside the target's front 90° "
        "cone (±45° of facing) but not to the rear.",
        "Only front and rear exist; no charge counts as a flank charge.",
    )
    flank_half_angle: float = _opt(
        45.0,
        "1 / 7.11.2",
        "Front cone half-angle for flank charges (degrees)",
        "45° either side of the facing.",
        "Any other angle between 0 and 90.",
    )
    cohesion_chain: bool = _opt(
        True,
        "6.2",
        "Group cohesion as a chain",
        "Groups are connected components of the 'within 4\" and in LOS' graph, so "
        "a chain of figures is one group and splits when its middle goes down.",
        "Every figure must be within 4\" and in LOS of the group's Leader.",
    )
    leader_die_capped: bool = _opt(
        True,
        "6.3.2",
        "Leader Die capped at 2 passes",
        "The total passed after adding the Leader Die is still capped at 2.",
        "The Leader Die may lift a result above 2 passed (no cap).",
    )
    cover_die_mixed_group: bool = _opt(
        True,
        "7.7",
        "Cover die in a mixed group",
        "When some testers are in Cover and some are not, roll the extra die and "
        "ignore it for those not in Cover.",
        "Add the Cover die only when every figure taking the test is in Cover.",
    )
    man_down_compare_sides: bool = _opt(
        True,
        "7.7",
        "Man Down, pass 1: 'twice more friends down'",
        "Compare the figure's whole side's Out of the Fight / Obviously Dead count "
        "with the enemy side's: leave if at least twice as many (and at least 2).",
        "Compare only the figure's own group's losses with the enemy group's.",
    )
    ducked_back_unseen_while_in_cover: bool = _opt(
        True,
        "7.4.4 / 7.8",
        "How long a ducked-back figure stays unseen by the cause",
        "A figure that ducked back into Cover can neither see nor be seen by the cause "
        "of the test until it is next active or moves, or until the cause stands where "
        "the figure is no longer in Cover from it.",
        "It stays unseen until it is next active or moves, or until the cause moves at all.",
    )
    outgunned_cannot_shoot_back: bool = _opt(
        True,
        "7.9.1",
        'Outgunned when it "cannot shoot back for any reason"',
        "A figure that cannot shoot back at the cause of a Received Fire test -- no "
        "loaded weapon, no line of sight to it, or the cause beyond its weapon's range "
        "-- is Outgunned.",
        "Only a figure with no loaded ranged weapon (out of ammo, unarmed, melee only) "
        "counts as unable to shoot back.",
    )
    duck_back_interiors_count: bool = _opt(
        True,
        "7.4.4",
        "Duck Back into buildings",
        "Nearest Cover is the nearest reachable point in Cover from the cause of "
        "the test; building interiors count.",
        "Building interiors do not count as Cover for a Duck Back.",
    )
    impassable_blocks_los: bool = _opt(
        True,
        "9.4",
        "Impassable terrain blocks LOS",
        "Impassable ground (cliffs, rock) also blocks line of sight.",
        "Impassable ground blocks movement only.",
    )
    figures_block_los: bool = _opt(
        True,
        "7.9.4",
        "Figures block LOS",
        "Any figure other than the two ends whose base the line crosses blocks LOS.",
        "Figures never block LOS.",
    )
    downed_figures_block_los: bool = _opt(
        False,
        "7.9.4",
        "Downed figures block LOS",
        "Out of the Fight and dead figures do not block LOS.",
        "Out of the Fight figures block LOS like standing ones.",
    )
    cover_obstacle_distance: float = _opt(
        1.0,
        "7.9.5",
        "Behind a cover feature (inches)",
        "A figure is behind a wall or vehicle when the LOS crosses it and the figure "
        'is within 1" of it.',
        "Any other distance.",
    )
    blast_size_is_diameter: bool = _opt(
        True,
        "7.10.5",
        "Blast circle size is its diameter",
        '5" (3" at 15mm) is the blast circle\'s diameter.',
        '5" (3" at 15mm) is the blast circle\'s radius.',
    )
    charge_reach_within_six: bool = _opt(
        True,
        "7.11.2",
        "Charge reach",
        'The charger must be able to reach a spot within 6" of the target with its '
        "remaining movement.",
        "The charger must be able to reach base contact with its remaining movement.",
    )
    pef_buildings: bool = _opt(
        True,
        "11.1",
        "Buildings generate PEFs",
        'The first time a player group is within 12" and in LOS of a building, a PEF '
        "is resolved inside it; if it was no enemy, each area resolves one (3d6, "
        "lowest two) the first time the building is entered.",
        "Buildings never generate PEFs: only the placed PEFs hide enemies.",
    )
    pef_buildings_held_at_set_up: bool = _opt(
        True,
        "11.1 / 12.3",
        "Buildings the Band sets up in hold no PEF",
        "A building a player figure stands in when the PEFs are placed (a Defend sets "
        "up anywhere in sections 7-9) is held by the Band: 11.1 speaks of coming within "
        '12" of a building and entering it, so no PEF is generated in it.',
        'Such a building generates its PEF at once, as any building within 12" and '
        "sight does, and each of its areas one as it is first 'entered'.",
    )
    pef_cover_fan: float = _opt(
        30.0,
        "11.2",
        "How far aside a PEF may end its move in Cover (degrees)",
        "A PEF ends its move in Cover when a spot within its move and within 30° of "
        "the straight line to the player gives it (the one nearest where the "
        "straight move ends), else on the straight line.",
        "0: PEFs move only along the straight line; any other angle up to 90.",
    )
    pef_moves_on_any_die: bool = _opt(
        True,
        "11.2 / 7.1",
        "PEFs move whatever the activation die",
        "PEFs move every time the enemy side is active, whatever its activation die.",
        "PEFs are Rep 4: they move only when the enemy side's activation die is 4 or "
        "less, like the group of a Rep 4 Leader.",
    )
    pef_contact_in_sight: bool = _opt(
        True,
        "11.2 / 7.6",
        "A PEF found by moving into sight",
        "When a PEF moving on the enemy's turn is resolved as a contact, the enemy group "
        "has moved into sight: the In Sight test is taken at once, the contact as the "
        "moving side (7.6), before the next PEF moves.",
        "The contact is placed and acts only when its side next activates; no In Sight "
        "test is taken for its appearing.",
    )
    np_outnumbers_by_group: bool = _opt(
        True,
        "11.4",
        'Who counts for "NP outnumbers player 2+ to 1"',
        "The active NP group against the closest player group.",
        "The whole sides: every NP figure able to act against every player figure able to act.",
    )
    charge_missed_charger_tests: bool = _opt(
        False,
        "7.11.2",
        "Charger missed by the target's fire",
        "No Reaction Tests taken (the book's table): a missed charger goes on into "
        "melee without a Received Fire test; a charger hit takes its damage.",
        "House reading: a missed charger takes Received Fire and goes on only on "
        "Return Fire / Rush Shot / Carry On.",
    )
    raid_objective_taken_on_reach: bool = _opt(
        True,
        "12.2",
        "Raid: taking the objective",
        "Once the enemy holding it is Out of the Fight, dead, captured or gone, a player "
        'figure able to act within 1" of the objective takes it at once.',
        "Only a figure ending its group's activation within 1\" of it takes it.",
    )
    defend_item_stays_put: bool = _opt(
        True,
        "12.3.6",
        "Defend: the item stays with a player figure",
        "The item stays where it was placed (with the player figure nearest the "
        'buildings in sections 7-9); a player figure able to act must stay within 2" '
        "of it or the enemy has recovered it.",
        'The item is carried by that figure; when it falls, a player figure within 2" '
        "takes it, else the enemy has recovered it.",
    )
    fd_keep_tight_ammo: bool = _opt(
        False,
        "FD §3",
        "Firearms Detail: keep Tight Ammo too",
        "Counted rounds replace Tight Ammo (7.9.2): a weapon stops only when its "
        "magazine is empty.",
        "Keep Tight Ammo too: two or more 1s among the dice of one firing also empty "
        "the weapon (a jam; the rounds left are lost, the spare magazines are not).",
    )
    fd_spotter_by_radio: bool = _opt(
        False,
        "FD §10",
        "Firearms Detail: spotters in radio contact",
        'A spotter helps indirect fire only from within 4" of the shooter.',
        "Every friend is in radio contact: any friendly figure that sees the spot "
        "spots for the shooter, however far away.",
    )


LATER_OPTIONS: dict[str, bool | float] = {"pef_buildings_held_at_set_up": True}
"""Interpretations added after saved games began to carry their rules' hash, with their
defaults: the hash leaves each out while it holds its default, so a game saved before
the option existed opens without a "rules settings differ" warning (its replay's
state checks still say whether the option changes it)."""


@dataclass(frozen=True, slots=True)
class RulesOptions:
    """All rules settings of one scenario (digest 19, 20 and every Interpretation)."""

    scale: Scale = Scale.MM28
    old_school: bool = False
    firearms_detail: bool = False
    night: bool = False
    weather: Weather = Weather.CLEAR
    interpretations: Interpretations = Interpretations()

    @property
    def blast_size(self) -> float:
        """Blast circle size in inches: 5" at 28mm, 3" at 15mm (7.10.5)."""
        return 5.0 if self.scale is Scale.MM28 else 3.0

    @property
    def blast_radius(self) -> float:
        """Radius of the blast circle, as the blast-size interpretation reads it."""
        size = self.blast_size
        return size / 2 if self.interpretations.blast_size_is_diameter else size

    @property
    def building_area_size(self) -> float:
        """Nominal side of one building area: 6" at 28mm, 4" at 15mm (8.1)."""
        return 6.0 if self.scale is Scale.MM28 else 4.0

    @property
    def visibility_limit(self) -> float | None:
        """LOS limit in inches from night and weather (7.9.4), or None for none."""
        if self.night:
            return 6.0 if self.weather is Weather.BAD else 12.0
        return 12.0 if self.weather is Weather.BAD else None

    @property
    def woods_visibility(self) -> float:
        """How far figures inside woods see each other: 12" by day, 6" at night."""
        return 6.0 if self.night else 12.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form saved in a scenario's ``rules`` object."""
        return {
            "scale": self.scale.value,
            "old_school": self.old_school,
            "firearms_detail": self.firearms_detail,
            "night": self.night,
            "weather": self.weather.value,
            "interpretations": dataclasses.asdict(self.interpretations),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RulesOptions:
        """Build from an already schema-validated ``rules`` object."""
        defaults = cls()
        return cls(
            scale=Scale(data.get("scale", defaults.scale.value)),
            old_school=bool(data.get("old_school", defaults.old_school)),
            firearms_detail=bool(data.get("firearms_detail", defaults.firearms_detail)),
            night=bool(data.get("night", defaults.night)),
            weather=Weather(data.get("weather", defaults.weather.value)),
            interpretations=Interpretations(**data.get("interpretations", {})),
        )


def interpretation_info() -> list[OptionInfo]:
    """Describe every interpretation option, in declaration order."""
    return [
        OptionInfo(
            name=f.name,
            section=f.metadata["section"],
            title=f.metadata["title"],
            default_reading=f.metadata["default_reading"],
            other_reading=f.metadata["other_reading"],
        )
        for f in dataclasses.fields(Interpretations)
    ]
