"""Worked-through encounters as data: scenario + scripted dice + actions in, events and
final state out (``tests/data/games/*.json``; the format is in ``games.py``).

Each file::

    {"about": "...", "scenario": {compact scenario}, "seed": 0 | "dice": "manual",
     "steps": [{"do": "start", "dice": [5, 2]}, {"do": "activate p1"}, ...,
               {"do": "move p1 30,2", "refused": "words of the reason"}],
     "events": [{"kind": "in_sight", "text": "substring", "figures": ["p1"]}, ...],
     "final": {"figures": {"e1": {"status": "duck_back", "prone": false}},
               "awaiting": {"actor": "p", "kind": "act"}, "turn": 1}}

A step may be ``{"policy": "solo", "dice": [...], "expect": "move e1", "why": "Cover"}``:
the program's policy takes that decision (the solo enemy by table 11.4, the book's
defaults, or the tactical player), its action and reason checked by substring.
``"fires_first": false`` keeps the solo enemy from firing between its figures' moves
(7.2), for a case of where they move (np_move_cover_with_fire is the case of both).

Optional: ``"settings"`` (GameSettings.to_dict(), e.g. ``{"solo": true}``) and, in
``final``, ``"pefs"``: the solo game's PEFs ({"id", "x", "y", "resolved"}), and
``"weapons"``: a Firearms Detail game's weapon state per figure ({"rounds", "spares",
"ready", "mode"}).  A compact scenario may carry ``"weapons"`` (user weapon cards) and
a figure ``"weapon_card"``.

Manual dice make the rules exact: the faces are the book's worked cases.  The
events listed must appear in that order (other events may come between).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import BookPolicy, Policy
from crdesk.ai.tactical import TacticalPolicy
from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.actions import DiceFaces
from crdesk.game.settings import GameSettings
from tests.game.games import scenario

CASES = sorted((Path(__file__).parents[1] / "data" / "games").glob("*.json"))


def play_case(case: dict[str, Any]) -> Game:
    mode = case.get("dice", "manual")
    settings = GameSettings.from_dict(case.get("settings", {}))
    game = Game.new(
        scenario(case["scenario"]), seed=case.get("seed", 0), dice=mode, settings=settings
    )
    policies: dict[str, Policy] = {}
    for n, step in enumerate(case["steps"], 1):
        faces = step.get("dice", [])
        if "refused" in step:
            before = game.state_hash()
            reason = game.legal(step["do"])
            assert reason is not None, f"step {n} {step['do']!r} was not refused"
            with pytest.raises(IllegalActionError, match=re.escape(step["refused"])):
                game.play(step["do"], faces=faces)
            assert game.state_hash() == before, f"step {n}: a refused action changed the game"
            continue
        if "policy" in step:
            _policy_step(game, n, step, policies)
            continue
        try:
            if step["do"] == "start":
                if mode == "manual":
                    game.play(DiceFaces(tuple(faces)))
            else:
                game.play(step["do"], faces=faces)
        except Exception as exc:
            raise AssertionError(f"step {n} {step['do']!r}: {exc}") from exc
        pending = game.awaiting()
        if step.get("more_dice") is None and pending is not None and pending.actor == "chance":
            raise AssertionError(f"step {n} {step['do']!r} wants more dice: {pending.prompt}")
    return game


_POLICIES: dict[str, Callable[[], Policy]] = {
    "solo": SoloEnemyPolicy,
    "book": BookPolicy,
    "tactical": TacticalPolicy,
}


def _policy_step(game: Game, n: int, step: dict[str, Any], policies: dict[str, Policy]) -> None:
    """A decision taken by a policy (``"policy": "solo" | "book" | "tactical"``), as the
    program would take it; ``"expect"`` and ``"why"`` are substrings of its action and
    reason."""
    name = step["policy"]
    policy = policies.setdefault(name, _POLICIES[name]())
    if "fires_first" in step:  # a case of where the figures move, not when they fire
        policy.fires_first = step["fires_first"]
    decision = game.awaiting()
    assert decision is not None, f"step {n}: no decision for the {name} policy"
    action, why = policy.decide(game, decision)
    assert step.get("expect", "") in str(action), f"step {n}: the {name} policy chose {action}"
    assert step.get("why", "") in why, f"step {n}: the {name} policy said {why!r}"
    game.play(action, faces=step.get("dice", []), why=why)


def matches(event: Any, want: dict[str, Any]) -> bool:
    if "kind" in want and event.kind != want["kind"]:
        return False
    if "text" in want and want["text"] not in event.text:
        return False
    if any(t not in event.text for t in want.get("texts", [])):
        return False
    if "section" in want and event.section != want["section"]:
        return False
    return all(f in event.figures for f in want.get("figures", []))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_game_case(path: Path) -> None:
    case = json.loads(path.read_text())
    game = play_case(case)
    events = list(game.events)
    pos = 0
    for want in case.get("events", []):
        while pos < len(events) and not matches(events[pos], want):
            pos += 1
        if pos == len(events):
            log = "\n".join(f"  {e.kind}: {e.text}" for e in events)
            raise AssertionError(f"no event {want} in order; the events were:\n{log}")
        pos += 1
    final = case.get("final", {})
    for fid, fields in final.get("figures", {}).items():
        fig = game.battlefield.figure(fid)
        for key, value in fields.items():
            got = getattr(fig, key)
            got = getattr(got, "value", got)
            if isinstance(value, float):
                assert got == pytest.approx(value, abs=0.01), f"{fid}.{key}"
            else:
                assert got == value, f"{fid}.{key}: {got!r} != {value!r}"
    if "awaiting" in final:
        d = game.awaiting()
        want = final["awaiting"]
        if want is None:
            assert d is None
        else:
            assert d is not None
            for key, value in want.items():
                assert getattr(d, key) == value, f"awaiting.{key}: {getattr(d, key)!r}"
    if "turn" in final:
        assert game.turn == final["turn"]
    if "weapons" in final:  # Firearms Detail: rounds, spares, mode per figure (FD §3)
        held = game.state_document()["game"]["weapons"]
        for fid, fields in final["weapons"].items():
            for key, value in fields.items():
                assert held[fid][key] == value, f"weapons.{fid}.{key}: {held[fid][key]!r}"
    if "pefs" in final:
        assert game.state_document()["game"]["pefs"] == final["pefs"]
    if "outcome" in final:
        out = game.outcome
        assert (out.winner if out else "none") == final["outcome"]
    # every data game replays to the same state
    again = Game.replay(
        game.scenario, game.history, seed=game.seed, dice=game.dice_mode, settings=game.settings
    )
    assert again.state_hash() == game.state_hash()
