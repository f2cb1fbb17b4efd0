"""Find the demo games two GUI tests follow, again, after a rules change moves them.

Two tests of the play mode follow a story that a seed of the demo table gives under
the rules of the day, and a change to how figures move, duck back or see can take
that story away (it did three times in session 22):

* ``tests/ui/test_play_pacing.py`` needs a solo game (the person playing the book's
  choices, the Red Vipers the solo enemy's) where, from turn 3 on, one of the person's
  steps ends a turn and begins the next with an activation roll his squad cannot use
  (no Leader of Rep 6 or more), at least one PEF moves in that step, and the Red Vipers
  then play that turn alone: their group activates, takes its orders (``npmove``) and
  ends, and the turn after begins with the person to decide (the recording ends
  there).  ``pacing FIRST LAST`` prints the seeds that give it; ``pacing --record
  SEED`` writes ``tests/data/saved/play_pacing.json`` (the steps the test replays for
  the Red Vipers) and prints the test's constants.
* ``tests/ui/test_play_history_turns.py`` needs a solo game of 12 turns, the person
  the book's choices, that reaches the turn limit and holds a turn in which nobody
  could activate (two "turn ends" in one step).  ``history FIRST LAST`` prints them.

Run from the repository's root::

    .venv/bin/python tools/stories.py pacing 400 500
    .venv/bin/python tools/stories.py pacing --record 178
    .venv/bin/python tools/stories.py history 20 40

Each game takes a second or two; a search over 100 seeds takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from crdesk.ai.enemy import SoloEnemyPolicy  # noqa: E402
from crdesk.ai.policy import BookPolicy  # noqa: E402
from crdesk.game import Game, GameSettings  # noqa: E402
from crdesk.game.records import Event  # noqa: E402
from crdesk.resources import demo_scenario  # noqa: E402
from crdesk.scenario import Scenario, load  # noqa: E402

RECORDED = ROOT / "tests" / "data" / "saved" / "play_pacing.json"
MAX_TURNS = 12
STEP_LIMIT = 400
NO_LEADER = "none of its groups still to act has a Leader of Rep 6"


def demo() -> Scenario:
    """The demo table the GUI tests open (``tests.ui.windows.demo``)."""
    return load(str(demo_scenario()))


@dataclass
class Played:
    actor: str
    action: str
    turn_before: int
    turn_after: int
    events: list[Event]


def play(seed: int, limit: int = STEP_LIMIT) -> tuple[Game, list[Played]]:
    """A solo game on the demo table: the book's choices for the person, the solo enemy's
    for the Red Vipers, up to ``limit`` steps or its end."""
    game = Game.new(demo(), seed=seed, settings=GameSettings(max_turns=MAX_TURNS, solo=True))
    book, solo = BookPolicy(), SoloEnemyPolicy()
    steps: list[Played] = []
    while (decision := game.awaiting()) is not None and len(game.history) < limit:
        policy = book if decision.actor == "player" else solo
        action, why = policy.decide(game, decision)
        before = game.turn
        events = game.play(action, why=why)
        steps.append(Played(decision.actor, str(action), before, game.turn, list(events)))
    return game, steps


def _a_pef_moves(events: list[Event]) -> bool:
    roll = max(k for k, e in enumerate(events) if e.kind == "activation_roll")
    for e in events[roll:]:
        found = re.search(r'It moves ([0-9.]+)"', e.text) if e.kind == "pef_move" else None
        if found and float(found.group(1)) > 0.05:
            return True
    return False


def pacing_story(seed: int) -> tuple[int, int, str] | None:
    """(the person's step that begins the turn -- the game's history is that long once it
    is played, the opening roll its first step --, that turn, the Red Vipers' activation
    text) for the first such story in ``seed``'s game, or None."""
    _game, steps = play(seed)
    for n, step in enumerate(steps):
        if step.actor != "player" or step.turn_after != step.turn_before + 1:
            continue
        if step.turn_before < 3 or n + 1 >= len(steps):
            continue
        if not any(NO_LEADER in e.text for e in step.events) or not _a_pef_moves(step.events):
            continue
        after = steps[n + 1]
        if after.actor != "enemy" or not after.action.startswith("activate"):
            continue
        # the Red Vipers' turn alone: activate, their orders, end -- the turn after begins
        game, _ = play(seed, limit=n + 2)  # the history holds the opening roll too
        shown = [e.text for e in game.play(after.action)]
        decision = game.awaiting()
        orders = "npmove " + after.action.split()[1]
        if decision is None or decision.actor != "enemy" or game.legal(orders) is not None:
            continue
        game.play(orders)
        if game.awaiting() is None or game.legal("end") is not None:
            continue
        game.play("end")
        if game.turn != step.turn_after + 1:
            continue
        then = game.awaiting()  # the recording ends here: the person decides next
        if then is not None and then.actor == "enemy":
            continue
        leader = next((t for t in shown if " activates" in t), "")
        return n + 2, step.turn_after, leader.split(" with ")[0]
    return None


def record_pacing(seed: int) -> None:
    found = pacing_story(seed)
    if found is None:
        raise SystemExit(f"seed {seed}: no pacing story under today's rules")
    step, turn, leader = found
    game, _ = play(seed, limit=step)
    solo = SoloEnemyPolicy()
    decision = game.awaiting()
    assert decision is not None
    action, _why = solo.decide(game, decision)
    game.play(action)
    game.play(f"npmove {str(action).split()[1]}")
    game.play("end")
    steps = [{"actor": s.actor, "action": s.action} for s in game.history]
    about = (
        f"The first {len(steps)} steps of a solo game on the demo table (Main Street), seed "
        f"{seed}, max {MAX_TURNS} turns, the enemy the program's: the person's steps are the "
        "book's choices (BookPolicy), the Red Vipers' the solo enemy's, and in turn "
        f"{turn} the Red Vipers' group activates, takes its orders and ends. "
        "tests/ui/test_play_pacing.py replays the Red Vipers' steps, so the pacing it "
        "checks does not move when the enemy's play does (tools/stories.py wrote it)."
    )
    RECORDED.write_text(
        json.dumps({"about": about, "seed": seed, "steps": steps}, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {RECORDED.relative_to(ROOT)} ({len(steps)} steps); in the test:")
    print(f'SEED = {seed}\nTURN_SIX = {step}\nNEW_TURN = {turn}\nLEADER = "{leader}"')


def history_story(seed: int) -> list[int] | None:
    """The steps in which a whole turn passed idle, when ``seed``'s game reaches the turn
    limit and has any, else None."""
    game, _ = play(seed)
    outcome = game.outcome
    if outcome is None or not outcome.reason.startswith(f"{MAX_TURNS} turns played"):
        return None
    ends: dict[int, int] = {}
    for event in game.events:
        if event.kind == "turn_end":
            ends[event.step] = ends.get(event.step, 0) + 1
    idle = [s for s, count in ends.items() if count > 1]
    return idle or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="story", required=True)
    p = sub.add_parser("pacing", help="seeds for tests/ui/test_play_pacing.py")
    p.add_argument("first", type=int, nargs="?")
    p.add_argument("last", type=int, nargs="?", help="the last seed, not searched")
    p.add_argument("--record", type=int, metavar="SEED", help="write the recording")
    h = sub.add_parser("history", help="seeds for tests/ui/test_play_history_turns.py")
    h.add_argument("first", type=int)
    h.add_argument("last", type=int, help="the last seed, not searched")
    args = parser.parse_args(argv)
    from crdesk.geometry import warmup

    warmup.warm_up()
    if args.story == "pacing" and args.record is not None:
        record_pacing(args.record)
        return 0
    if args.first is None or args.last is None:
        parser.error("give FIRST and LAST seeds, or --record SEED")
    found = 0
    for seed in range(args.first, args.last):
        if args.story == "pacing":
            story = pacing_story(seed)
            if story is not None:
                print(f"seed {seed}: step {story[0]} begins turn {story[1]}; {story[2]}")
        else:
            idle = history_story(seed)
            if idle is not None:
                print(f"seed {seed}: reaches turn {MAX_TURNS}, idle turns in steps {idle}")
            story = idle
        found += story is not None
        sys.stdout.flush()
    print(f"{found} of {args.last - args.first} seeds")
    return 0 if found else 1


if __name__ == "__main__":
    raise SystemExit(main())
