"""A new scenario from a game's current position: Game ▸ Save Position as Scenario….

Players stop a game half-way and want to set it up again another evening, or to
try the same position with other choices: the table as it stands -- every
figure where it is now, with its Rep, status, prone, out of ammo, fast moving
and Star Power dice left, the figures contacted PEFs brought on -- is written
as an ordinary ``.crdesk`` scenario, which starts at turn 1 like any other.

What a scenario cannot hold is dropped and said (:attr:`Position.dropped`): the
turn and who has activated, a figure carried or held captive, a readied
grenade, a figure's floor in a building, PEFs not yet resolved, the encounter's
progress and buildings that fell in.  The game itself and the scenario it
started from are not touched: the new one is built from copies.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from crdesk import limits
from crdesk import scenario as scenario_io
from crdesk.game.controller import Game
from crdesk.model import Scenario


@dataclass(frozen=True, slots=True)
class Position:
    """The scenario of a game's position, and what it had to leave out (in words)."""

    scenario: Scenario
    dropped: tuple[str, ...] = ()

    def note(self) -> str:
        """One sentence for the status bar and the scenario's description."""
        if not self.dropped:
            return "Everything on the table is kept."
        return "Not kept (a scenario cannot hold it): " + "; ".join(self.dropped) + "."


def position_scenario(game: Game, *, title: str | None = None) -> Position:
    """The table of ``game`` as it stands, as a new scenario of its own."""
    names = {f.id: f.name for f in game.battlefield.figures()}
    dropped: list[str] = []
    if game.history:
        dropped.append(
            f"the turn ({game.turn}), the activation dice and who has activated: "
            "the scenario starts at turn 1"
        )
    carried: list[str] = []
    captives: list[str] = []
    grenades: list[str] = []
    floors: list[str] = []
    for fid, name in names.items():
        flags = game.flags(fid)
        if flags.get("carrying"):
            carried.append(f"{name} carrying {names.get(flags['carrying'], flags['carrying'])}")
        if flags.get("captive_of"):
            captives.append(f"{name} held by {names.get(flags['captive_of'], flags['captive_of'])}")
        if flags.get("grenade"):
            grenades.append(name)
        if int(flags.get("floor") or 1) > 1:
            floors.append(f"{name} (floor {flags['floor']})")
    if carried:
        dropped.append("wounded carried: " + ", ".join(carried))
    if captives:
        dropped.append("captives: " + ", ".join(captives))
    if grenades:
        dropped.append("readied grenades of " + ", ".join(grenades))
    if floors:
        dropped.append("upper floors (the figures stand on the ground floor): " + ", ".join(floors))
    summary = game.summary()
    pefs = summary.get("pefs") or []
    if pefs:
        count = len(pefs)
        dropped.append(f"{count} unresolved PEF{'s' if count != 1 else ''}")
    if summary.get("objectives"):
        dropped.append("the encounter's progress (its objectives start afresh)")
    collapsed = game.state_document()["game"].get("collapsed") or []
    if collapsed:
        dropped.append(f"{len(collapsed)} fallen-in building area(s) (standing again)")
    source = game.scenario
    position = Scenario(
        battlefield=game.battlefield,
        rules=source.rules,
        encounter=source.encounter,
        title=(title or f"{source.title} — turn {game.turn}")[: limits.NAME_CHARS],
        description=source.description,
        generation=None,
    )
    # through the file format: the copy shares nothing with the game, and holds exactly
    # what a saved scenario holds
    copy = scenario_io.from_document(scenario_io.to_document(position))
    result = Position(copy, tuple(dropped))
    story = f"Set up from a game of {source.title} at turn {game.turn}, step {len(game.history)}."
    told = f"{story} {result.note()}"
    room = limits.DESCRIPTION_CHARS - len(told) - 2
    kept = source.description[: max(0, room)]
    text = "\n\n".join(t for t in (kept, told) if t)[: limits.DESCRIPTION_CHARS]
    return replace(result, scenario=replace(copy, description=text))
