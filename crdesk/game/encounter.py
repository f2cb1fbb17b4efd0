"""The three encounters (12) as playable set-ups: deployment, objectives, outcome.

Deployment (:func:`deploy`, :func:`default_band`) is plain scenario work, used by
the CLI, the play mode and the batch simulator alike.  The objectives are
tracked by the game controller: a game whose :class:`~crdesk.game.GameSettings`
name an encounter (``encounter="patrol"``; solo games only, as enemies come only
from PEFs, 12) keeps its progress in ``Game.state["encounter"]`` -- part of the
state document, so replay, undo and the state hash stay exact -- and calls the
hooks here:

* :func:`initial_state` when the game is made;
* :func:`on_pef_resolved` after each PEF resolves (11.3): the Raid's 12.2.6 roll
  and the Defend's 12.3.6 roll, both recorded like every die;
* :func:`on_activation_end` when a group ends its activation: the Patrol's far
  edge sections (12.1);
* :func:`check_over` in place of free play's end check: the encounter ends when
  the player has achieved the objective, is destroyed, or has left the table;
  the :class:`~crdesk.game.records.Outcome` then says won or lost, why, and the
  next encounter by the table of 12;
* :func:`objectives` for ``Game.summary()["objectives"]``: the checklist the
  play mode shows (each item, done or not, where on the table).

Readings where the digest is silent (those naming an option are switchable):

* Raid: the objective is *with* the contacted group's Leader.  It drops where
  its holder stands once the holder is Out of the Fight, dead, captured or has
  fled; a player figure able to act within 1" of a dropped objective takes it
  (``raid_objective_taken_on_reach``: at once; else only when its group ends an
  activation).  A player figure that falls drops it too.  It is carried off when
  its carrier leaves by the player's edge.  If the enemy holder leaves the table
  with it, the Raid fails.  When the last PEF resolves without enemies and the
  objective was not found, it lies where that PEF stood (12.2.6).
* Defend 4-6: the item is placed at the spot of the player figure nearest a
  building in sections 7-9 (the Star when there is none) when the roll is made.
  ``defend_item_stays_put``: it stays there and a player figure able to act must
  be within 2" of it at all times; else it is carried by that figure and passes
  to a player figure within 2" when its carrier falls.  Either way the enemy has
  recovered it the moment no player figure is with it.
* Defend 1-3: the enemy has its objective when none of the player's Grunts can
  act any more (Out of the Fight or fled counting as killed or captured: an owner
  reading, no option yet).
* Patrol: a section counts when a figure of the player's group able to act ends
  the group's activation within 6" (base edge) of the far edge in it.  The
  Patrol is over once no player figure able to act is left on the table: won if
  all three sections were reached and a figure left by the entry edge after that
  ("then exit", 12.1: one that left before brought no recon back).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import shapely
from shapely.ops import unary_union

from crdesk.errors import IllegalActionError
from crdesk.game.table import RulesModule
from crdesk.model import (
    Building,
    EncounterType,
    Figure,
    Role,
)
from crdesk.rules import campaign
from crdesk.rules.pef import defend_objective, raid_objective
from crdesk.tables import PefResolution

if TYPE_CHECKING:
    from crdesk.game.table import Table

ENCOUNTERS: tuple[EncounterType, ...] = (
    EncounterType.PATROL,
    EncounterType.RAID,
    EncounterType.DEFEND,
)
"""The encounters whose objectives a game tracks (12)."""


PATROL_SECTIONS = (1, 2, 3)
PATROL_REACH = 6.0
"""Inches from the far edge a patrolling figure must end its activation within (12.1)."""
OBJECTIVE_REACH = 1.0
"""Inches (base edge to the objective) within which a player figure takes it (12.2)."""
ITEM_GUARD = 2.0
"""Inches (base edge to the item) within which a player figure is *with* it (12.3.6)."""

_NAMES = {
    EncounterType.PATROL: "Patrol",
    EncounterType.RAID: "Raid",
    EncounterType.DEFEND: "Defend",
    EncounterType.FREE: "Free play",
}
SECTION = {EncounterType.PATROL: "12.1", EncounterType.RAID: "12.2", EncounterType.DEFEND: "12.3"}
"""The book's section of each encounter."""


def encounter_name(kind: EncounterType | str) -> str:
    return _NAMES[EncounterType(kind)]


def next_encounter(kind: EncounterType | str, won: bool) -> EncounterType:
    """The next encounter by the outcome table of 12 (Patrol won -> Raid, ...)."""
    kind = EncounterType(kind)
    following = campaign.next_encounter(kind, won)
    if following is None:
        raise IllegalActionError(f"free play has no next encounter (12), got {kind.value!r}")
    return following


def parse_encounter(text: str, where: str = "the encounter") -> EncounterType:
    """An encounter type from its name, with an error naming what is wrong and where."""
    try:
        return EncounterType(str(text).strip().lower())
    except ValueError:
        allowed = ", ".join(e.value for e in EncounterType)
        raise IllegalActionError(f"{where} must be one of {allowed}, got {text!r}") from None


# ----------------------------------------------------------------------------
# Objectives: the controller's hooks


def tracked(settings: Any) -> EncounterType | None:
    """The encounter a game's settings ask it to track, or None for free play."""
    text = getattr(settings, "encounter", "") or ""
    if not text:
        return None
    kind = parse_encounter(text, "the game's encounter setting")
    return None if kind is EncounterType.FREE else kind


def initial_state(kind: EncounterType, *, solo: bool) -> dict[str, Any]:
    """The encounter's part of a new game's state (plain JSON data)."""
    if not solo:
        raise IllegalActionError(
            f"a {encounter_name(kind)}'s enemies come only from PEFs (12): play it solo"
        )
    state: dict[str, Any] = {"type": kind.value}
    if kind is EncounterType.PATROL:
        state["sections"] = []
    elif kind is EncounterType.RAID:
        # {"holder": figure id or None, "x", "y", "pef": id, "taken": bool} once found
        state["objective"] = None
        state["carried_off"] = False
    else:
        state["their_objective"] = None
        state["item"] = None  # {"x", "y", "holder": figure id or None} once placed
        state["item_lost"] = False
    return state


def _state(game: Table) -> dict[str, Any]:
    return game.state["encounter"]  # type: ignore[no-any-return]


def _kind(game: Table) -> EncounterType:
    return EncounterType(_state(game)["type"])


def on_pef_resolved(game: Table, pef: dict[str, Any], outcome: PefResolution) -> None:
    """12.2.6 and 12.3.6: rolled as PEFs resolve (the dice are the step's)."""
    st = _state(game)
    kind = _kind(game)
    pefs = game.state["pefs"]
    resolved = sum(1 for p in pefs if p["resolved"])
    last = all(p["resolved"] for p in pefs)
    contact = outcome is PefResolution.CONTACT
    if kind is EncounterType.RAID and st["objective"] is None:
        if contact:
            res = raid_objective(game.roll(), pefs_resolved=resolved, all_resolved=last)
            found = res.result == "objective_found"
            game.emit("raid_objective", res.explain(), result=res, section="12.2.6")
            if found:
                group = _pef_group(game, pef["id"])
                holder = max(group, key=lambda f: (f.rep, -group.index(f))) if group else None
                st["objective"] = {
                    "holder": holder.id if holder else None,
                    "x": round(holder.x if holder else pef["x"], 3),
                    "y": round(holder.y if holder else pef["y"], 3),
                    "pef": pef["id"],
                    "taken": False,
                }
                who = holder.name if holder else "no one"
                game.emit(
                    "objective",
                    f"Raid: the objective is with the enemies of PEF {pef['id'][3:]}, held by "
                    f"{who} (12.2.6).",
                    section="12.2.6",
                    figures=[holder.id] if holder else [],
                )
        elif last:
            st["objective"] = {
                "holder": None,
                "x": pef["x"],
                "y": pef["y"],
                "pef": pef["id"],
                "taken": False,
            }
            game.emit(
                "objective",
                f"Raid: every PEF is resolved without the objective; it lies where the last "
                f"one, PEF {pef['id'][3:]}, stood, at ({_num(pef['x'])}, {_num(pef['y'])}) "
                "(12.2.6).",
                section="12.2.6",
            )
    if kind is EncounterType.DEFEND and contact and st["their_objective"] is None:
        res = defend_objective(game.roll())
        st["their_objective"] = {"code": res.result, "die": res.faces[0]}
        game.emit("defend_objective", res.explain(), result=res, section="12.3.6")
        if res.result != "kill_or_capture":
            _place_item(game)


def _pef_group(game: Table, pid: str) -> list[Figure]:
    return [
        f for f in game.battlefield.figures() if f.id.startswith(pid + "-") and f.status.can_act
    ]


def _place_item(game: Table) -> None:
    st = _state(game)
    player = game.player_side()
    figs = [f for f in game.alive(player) if f.id not in game.state["exited"]]
    if not figs:
        return
    table = game.battlefield.table
    near = [
        b
        for b in game.battlefield.terrain
        if isinstance(b, Building) and b.outline.centroid.y >= table.height * 2 / 3
    ]
    if near:
        union = unary_union([b.outline for b in near])
        guard = min(figs, key=lambda f: union.distance(shapely.Point(f.x, f.y)))
    else:
        guard = next((f for f in figs if f.is_star), figs[0])
    st["item"] = {"x": round(guard.x, 3), "y": round(guard.y, 3), "holder": guard.id}
    game.emit(
        "objective",
        f"Defend: the item the enemy wants is placed with {guard.name} at "
        f"({_num(guard.x)}, {_num(guard.y)}); it must stay with at least one of the "
        "player's figures (12.3.6).",
        section="12.3.6",
        figures=[guard.id],
    )


def on_activation_end(game: Table, side: str, members: Sequence[str]) -> None:
    """12.1: a patrolling group ends its activation near the far edge; 12.2: a Raid
    objective is taken at an activation's end when taking needs one."""
    if side != game.player_side():
        return
    kind = _kind(game)
    st = _state(game)
    if kind is EncounterType.PATROL:
        table = game.battlefield.table
        for fid in members:
            fig = game.fig(fid)
            if not fig.status.can_act or fid in game.state["exited"]:
                continue
            if fig.y - fig.radius > PATROL_REACH + 1e-9:
                continue
            section = table.section_at(fig.x, fig.y)
            if section in PATROL_SECTIONS and section not in st["sections"]:
                st["sections"] = sorted([*st["sections"], section])
                left = [s for s in PATROL_SECTIONS if s not in st["sections"]]
                then = _sections(left) + " to go" if left else "now exit by the entry edge"
                early = [
                    f for f in game.battlefield.force(side).figures if f.id in game.state["exited"]
                ]
                if not left and early:
                    # "then exit by the edge the patrol entered" (12.1): who left before
                    # the far edge was reached brought no recon back (kept only when
                    # someone did, so other games' states stay as they were)
                    st["left_before"] = sorted(f.id for f in early)
                game.emit(
                    "objective",
                    f'Patrol: {fig.name} ends the activation within 6" of the far edge in '
                    f"section {section} ({then}) (12.1).",
                    section="12.1",
                    figures=[fid],
                )
    elif kind is EncounterType.RAID:
        _update_raid(game, members=members)


def _update_raid(game: Table, members: Sequence[str] | None = None) -> None:
    """Follow the objective: dropped when its holder falls, taken by a player figure
    within reach (any, or of the group ending its activation when ``members``)."""
    st = _state(game)
    obj = st["objective"]
    if obj is None or st["carried_off"]:
        return
    holder = game.fig(obj["holder"]) if obj["holder"] else None
    player = game.player_side()
    if holder is not None:
        exited = holder.id in game.state["exited"]
        if holder.status.can_act and holder.id not in game.state["captives"]:
            obj.update(x=round(holder.x, 3), y=round(holder.y, 3))
            return
        if exited:
            obj.update(x=round(holder.x, 3), y=round(holder.y, 3))
            if holder.side == player:
                st["carried_off"] = True
            return
        obj.update(holder=None, x=round(holder.x, 3), y=round(holder.y, 3))
        game.emit(
            "objective",
            f"Raid: {holder.name} drops the objective at ({_num(holder.x)}, {_num(holder.y)}) "
            "(12.2).",
            section="12.2",
            figures=[holder.id],
        )
    on_reach = game.rules.interpretations.raid_objective_taken_on_reach
    if members is None and not on_reach:
        return
    spot = (obj["x"], obj["y"])
    pool = [
        f
        for f in game.alive(player)
        if f.id not in game.state["exited"] and (members is None or f.id in members)
    ]
    near = [f for f in pool if _edge_gap(f, spot) <= OBJECTIVE_REACH + 1e-9]
    if not near:
        return
    taker = min(near, key=lambda f: _edge_gap(f, spot))
    obj.update(holder=taker.id, x=round(taker.x, 3), y=round(taker.y, 3), taken=True)
    game.emit(
        "objective",
        f"Raid: {taker.name} takes the objective; now carry it off by the entry edge (12.2).",
        section="12.2",
        figures=[taker.id],
    )


def _update_item(game: Table) -> None:
    st = _state(game)
    item = st["item"]
    if item is None or st["item_lost"]:
        return
    player = game.player_side()
    pool = [f for f in game.alive(player) if f.id not in game.state["exited"]]
    if not game.rules.interpretations.defend_item_stays_put:
        holder = game.fig(item["holder"]) if item["holder"] else None
        if holder is not None and holder.status.can_act and holder.id not in game.state["exited"]:
            item.update(x=round(holder.x, 3), y=round(holder.y, 3))
            return
        spot = (item["x"], item["y"])
        near = [f for f in pool if _edge_gap(f, spot) <= ITEM_GUARD + 1e-9]
        if near:
            taker = min(near, key=lambda f: _edge_gap(f, spot))
            item.update(holder=taker.id, x=round(taker.x, 3), y=round(taker.y, 3))
            return
        item["holder"] = None
        st["item_lost"] = True
        return
    spot = (item["x"], item["y"])
    if not any(_edge_gap(f, spot) <= ITEM_GUARD + 1e-9 for f in pool):
        st["item_lost"] = True


OBJECTIVE_WORDS = {
    EncounterType.RAID: "the objective's carrier (12.2)",
    EncounterType.DEFEND: "Grunts (its objective, 12.3.6)",
}
"""What :func:`objective_figures` are, for the enemy's reasons (the item's guards:
:data:`ITEM_WORDS`)."""
ITEM_WORDS = "with the item it wants (12.3.6)"


def objective_words(game: Table) -> str:
    """What :func:`objective_figures` are in this game, in words."""
    st = game.state.get("encounter") or {}
    kind = EncounterType(st.get("type", EncounterType.PATROL.value))
    their = st.get("their_objective") or {}
    if kind is EncounterType.DEFEND and their.get("code") != "kill_or_capture":
        return ITEM_WORDS
    return OBJECTIVE_WORDS.get(kind, "")


def carrier(game: Table, side: str) -> str | None:
    """The figure of ``side`` carrying the Raid's objective on the table and able to act,
    if any (12.2): the enemy aims at it first (:func:`objective_figures`); the tactical
    player's escorts leave after it -- the Raid is won the moment it carries the
    objective off, and lost if they walk off first and it falls alone with no raider
    left to pick the objective up."""
    obj = game.state.get("encounter", {}).get("objective")
    if not obj or not obj.get("holder"):
        return None
    holder = game.fig(obj["holder"])
    if holder.side != side or not holder.status.can_act:
        return None
    return None if holder.id in game.state.get("exited", ()) else holder.id


def objective_figures(game: Table) -> frozenset[str] | None:
    """The player's figures whose loss the enemy's objective needs, or None where every
    figure counts alike (a Patrol, a Defend before its 12.3.6 roll, free play): the
    Grunts when the Defend's enemy came to kill or capture them (12.3.6: the Star does
    not count); the figures with the item when it came to recover it (the item is lost
    the moment none is with it); the raider carrying the Raid's objective (12.2: it
    drops it when it falls).  What an enemy shooter aims at first
    (:mod:`crdesk.ai.targets`)."""
    st = game.state.get("encounter")
    if not st:
        return None
    player = game.player_side()
    kind = EncounterType(st["type"])
    if kind is EncounterType.RAID:
        held = carrier(game, player)
        return frozenset((held,)) if held is not None else None
    pool = [f for f in game.alive(player) if f.id not in game.state["exited"]]
    if kind is not EncounterType.DEFEND or st["their_objective"] is None:
        return None
    if st["their_objective"]["code"] == "kill_or_capture":
        return frozenset(f.id for f in pool if f.role is Role.GRUNT)
    item = st["item"]
    if item is None or st["item_lost"]:
        return None
    spot = (item["x"], item["y"])
    return frozenset(f.id for f in pool if _edge_gap(f, spot) <= ITEM_GUARD + 1e-9)


def check_over(game: Table) -> bool:
    """End the encounter when the player has achieved the objective, is destroyed or
    has left the table (12); True when it has ended."""
    kind = _kind(game)
    st = _state(game)
    player = game.player_side()
    np_side = game.np_side()
    on_table = [f for f in game.alive(player) if f.id not in game.state["exited"]]
    left = [f for f in game.battlefield.force(player).figures if f.id in game.state["exited"]]
    if kind is EncounterType.PATROL:
        done = all(s in st["sections"] for s in PATROL_SECTIONS)
        if on_table:
            return False
        early = set(st.get("left_before", ()))
        if done and any(f.id not in early for f in left):
            return _finish(
                game, True, "the patrol reached sections 1, 2 and 3 and left by the edge it entered"
            )
        if done and left:
            return _finish(
                game,
                False,
                "the patrol reached sections 1, 2 and 3, but no one left by the edge it "
                "entered after that (who left did so before: 12.1, 'then exit')",
            )
        if left:
            missing = [s for s in PATROL_SECTIONS if s not in st["sections"]]
            return _finish(
                game,
                False,
                "the patrol left the table before reaching the far edge in " + _sections(missing),
            )
        return _finish(game, False, "the patrol was destroyed")
    if kind is EncounterType.RAID:
        _update_raid(game)
        obj = st["objective"]
        if st["carried_off"]:
            carrier = game.fig(obj["holder"]).name
            return _finish(game, True, f"{carrier} carried the objective off the table")
        if obj is not None and obj["holder"]:
            holder = game.fig(obj["holder"])
            if holder.side == np_side and holder.id in game.state["exited"]:
                return _finish(game, False, f"{holder.name} carried the objective off the table")
        if on_table:
            return False
        if left:
            return _finish(game, False, "the raiders left the table without the objective")
        return _finish(game, False, "the raiders were destroyed")
    # Defend
    _update_item(game)
    their = st["their_objective"]
    if not on_table:
        if left:
            return _finish(game, False, "the defenders left the table")
        return _finish(game, False, "the defenders were destroyed")
    if st["item_lost"]:
        return _finish(
            game, False, "no player figure stayed with the item: the enemy has recovered it"
        )
    if their is not None and their["code"] == "kill_or_capture":
        grunts = [f for f in on_table if f.role is Role.GRUNT]
        if not grunts and any(f.role is Role.GRUNT for f in game.battlefield.force(player).figures):
            return _finish(game, False, "the enemy killed or captured every Grunt")
    if not game.alive(np_side) and not game.pefs_left(np_side):
        return _finish(game, True, "every enemy is beaten and no PEF is left")
    return False


def time_up(game: Table, turns: int) -> None:
    """The turn limit ends an encounter before its end: nobody has won, but the player
    has not achieved the objective, so the campaign goes on as after a loss (12)."""
    kind = _kind(game)
    following = next_encounter(kind, False)
    full = (
        f"{encounter_name(kind)} not won: {turns} turn{'' if turns == 1 else 's'} played, "
        "the turn limit, before the objective was achieved"
    )
    game.end(None, full)
    game.state["outcome"].update(encounter=kind.value, won=False, next_encounter=following.value)
    game.emit(
        "encounter_outcome",
        f"{full}; the next encounter is a {encounter_name(following)} (12).",
        section="12",
    )


def _finish(game: Table, won: bool, reason: str) -> bool:
    kind = _kind(game)
    player = game.player_side()
    winner = player if won else game.np_side()
    following = next_encounter(kind, won)
    full = f"{encounter_name(kind)} {'won' if won else 'lost'}: {reason}"
    game.end(winner, full)
    game.state["outcome"].update(encounter=kind.value, won=won, next_encounter=following.value)
    game.emit(
        "encounter_outcome",
        f"{full}; the next encounter is a {encounter_name(following)} (12).",
        section="12",
    )
    return True


# ----------------------------------------------------------------------------
# The checklist


def checklist(game: Table) -> dict[str, Any] | None:
    """:func:`objectives` of a game that plays an encounter, None in free play (cheap:
    what ``Game.summary()["objectives"]`` holds without the rest of the summary)."""
    return objectives(game) if "encounter" in game.state else None


def objectives(game: Table) -> dict[str, Any]:
    """The encounter's checklist for the play mode and the CLI: each item with its
    state ("done", "open" or "failed"), the rule, and where on the table it is
    (a point and/or a rectangle [x0, y0, x1, y1], or None)."""
    kind = _kind(game)
    st = _state(game)
    table = game.battlefield.table
    out = game.state["outcome"]
    over = out is not None
    items: list[dict[str, Any]] = []

    def item(
        iid: str,
        text: str,
        section: str,
        done: bool,
        *,
        failed: bool = False,
        at: tuple[float, float] | None = None,
        area: tuple[float, float, float, float] | None = None,
    ) -> None:
        state = "done" if done else ("failed" if failed else "open")
        items.append(
            {
                "id": iid,
                "text": text,
                "section": section,
                "state": state,
                "done": done,
                "at": None if at is None else [round(at[0], 3), round(at[1], 3)],
                "area": None if area is None else [round(v, 3) for v in area],
            }
        )

    lost = over and out.get("won") is False
    w3 = table.width / 3
    if kind is EncounterType.PATROL:
        for s in PATROL_SECTIONS:
            x0 = (s - 1) * w3
            item(
                f"section_{s}",
                f'Section {s}: end an activation within 6" of the far edge',
                "12.1",
                s in st["sections"],
                failed=lost,
                area=(x0, 0.0, x0 + w3, PATROL_REACH),
            )
        item(
            "exit",
            "Then leave by the near edge, the one the patrol entered",
            "12.1",
            bool(over and out.get("won")),
            failed=lost,
            area=(0.0, table.height - 1.0, table.width, table.height),
        )
    elif kind is EncounterType.RAID:
        obj = st["objective"]
        at = None
        if obj is not None:
            holder = game.fig(obj["holder"]) if obj["holder"] else None
            at = (holder.x, holder.y) if holder is not None else (obj["x"], obj["y"])
        item(
            "find",
            "Find the objective (12.2.6: rolled when a PEF resolves as enemies)"
            if obj is None
            else "Objective found",
            "12.2.6",
            obj is not None,
            failed=lost and obj is None,
            at=at,
        )
        taken = (
            obj is not None
            and bool(obj["holder"])
            and game.fig(obj["holder"]).side == (game.player_side())
        )
        holder_name = game.fig(obj["holder"]).name if obj and obj["holder"] else None
        item(
            "take",
            f"Take the objective (carried by {holder_name})"
            if taken
            else 'Take the objective (a figure within 1" once its holder is down)',
            "12.2",
            taken,
            failed=lost and not taken,
            at=at,
        )
        item(
            "carry_off",
            "Carry it off the table by the near edge",
            "12.2",
            bool(st["carried_off"]),
            failed=lost,
            area=(0.0, table.height - 1.0, table.width, table.height),
        )
    else:
        their = st["their_objective"]
        if their is None:
            item(
                "their_objective",
                "Their objective: rolled when the first PEF resolves as enemies (12.3.6)",
                "12.3.6",
                False,
            )
        else:
            words = (
                "kill or capture the player's Grunts"
                if their["code"] == "kill_or_capture"
                else "recover the item from the buildings"
            )
            item(
                "their_objective",
                f"Their objective ({their['die']}): {words}",
                "12.3.6",
                True,
            )
            if their["code"] == "kill_or_capture":
                item(
                    "keep_grunts",
                    "Keep at least one Grunt in the fight",
                    "12.3.6",
                    bool(over and out.get("won")),
                    failed=lost,
                )
            elif st["item"] is not None:
                it = st["item"]
                item(
                    "keep_item",
                    f'Keep a figure within {_num(ITEM_GUARD)}" of the item',
                    "12.3.6",
                    bool(over and out.get("won")),
                    failed=bool(st["item_lost"]) or lost,
                    at=(it["x"], it["y"]),
                )
        item(
            "beat_enemy",
            "Beat every enemy (every PEF resolved, no enemy able to fight)",
            "12.3",
            bool(over and out.get("won")),
            failed=lost,
        )
    result: dict[str, Any] = {"encounter": kind.value, "items": items}
    if over and "won" in out:
        result["won"] = out["won"]
        result["next_encounter"] = out["next_encounter"]
    return result


def _sections(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"section {numbers[0]}"
    return "sections " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def _edge_gap(fig: Figure, spot: tuple[float, float]) -> float:
    return max(0.0, math.hypot(fig.x - spot[0], fig.y - spot[1]) - fig.radius)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _start(game: Table) -> None:
    kind = tracked(game.settings)
    assert kind is not None
    game.state["encounter"] = initial_state(kind, solo=game.settings.solo)


MODULE = RulesModule(
    "the encounter's objectives",
    plays=lambda settings, rules: tracked(settings) is not None,
    start=_start,
    over=check_over,
    activation_end=on_activation_end,
    pef_resolved=on_pef_resolved,
    time_up=time_up,
)
"""The encounters of 12 (Patrol, Raid, Defend) as a plug-in: only games playing one
carry its objectives, and the encounter, not "a side has no figure left", says when
it is over."""
