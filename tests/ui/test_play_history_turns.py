"""The undo history lists each step under the turn it was played in (issue 31, "Also found
on the table": the steps of turn 9 were listed under "Turn 8" in a 12-turn solo game).

A turn in which no group may activate (both activation dice above every Leader's Rep,
the PEFs not moving) passes inside the step that ended the turn before: that one step
holds two "turn ends" and two activation rolls, and every later step's turn is one more
than a count of "steps after a turn end" says.  The truth a test holds the dock to is the
game's own turn just before each step was played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.policy import BookPolicy, Policy
from crdesk.game import GameSettings
from tests.ui.windows import SHOTS, open_window
from ui.main_window import MainWindow
from ui.play.history_dock import HistoryDock
from ui.play.session import PlaySession

BOOK = BookPolicy()


def session_of(window: MainWindow) -> PlaySession:
    assert window.play.session is not None
    return window.play.session


def dock_of(window: MainWindow) -> HistoryDock:
    dock = window.play.history_dock
    dock.raise_()  # in front of the log: it lists each step as it is played
    return dock


def play_out(window: MainWindow, person: Policy, turns: list[int], limit: int = 400) -> None:
    """Play to the end, the program's steps by the session and the person's by ``person``;
    ``turns`` gets the game's turn before each step (the turn the step is played in)."""
    session = session_of(window)
    game = session.game
    for _ in range(limit):
        decision = session.awaiting()
        if decision is None:
            return
        turns.append(game.turn)
        if session.is_program_turn():
            assert session.run_program_step()
        else:
            assert session.play(person.decide(game, decision)[0]) is None
    raise AssertionError(f"the game did not end within {limit} steps")


def listed_turns(dock: HistoryDock) -> list[int]:
    return [int(row.split(" · ", 1)[0].removeprefix("Turn ")) for row in dock.rows()]


def idle_turn_steps(window: MainWindow) -> list[int]:
    """The steps during which a whole turn passed with nothing to decide."""
    ends: dict[int, int] = {}
    for event in session_of(window).game.events:
        if event.kind == "turn_end":
            ends[event.step] = ends.get(event.step, 0) + 1
    return [step for step, count in ends.items() if count > 1]


@pytest.mark.parametrize(
    ("seed", "solo", "person"),
    [
        # solo, 12 turns: two turns pass with nobody able to activate (a rules change that
        # moves it: tools/stories.py history FIRST LAST finds another such seed)
        (26, True, BOOK),
        (3, False, BOOK),  # the Red Vipers by the program; turn 8 passes idle
    ],
    ids=["solo-pefs", "against-the-program"],
)
def test_each_step_is_listed_under_the_turn_it_was_played_in(
    qtbot,  # type: ignore[no-untyped-def]
    seed: int,
    solo: bool,
    person: Policy,
) -> None:
    window = open_window(qtbot)
    assert window.play.start(seed, {"enemy"}, GameSettings(max_turns=12, solo=solo))
    session = session_of(window)
    if solo:
        assert isinstance(session.policies["enemy"], SoloEnemyPolicy)
    dock = dock_of(window)
    turns = [1]  # the opening roll, played when the game was made
    play_out(window, person, turns)
    outcome = session.game.outcome
    assert outcome is not None and outcome.reason.startswith("12 turns played")
    assert idle_turn_steps(window), "the game should hold a turn in which nobody activates"
    assert listed_turns(dock) == turns  # listed as the steps were played
    dock.rebuild()
    assert listed_turns(dock) == turns  # and listed afresh (a rewind, a game opened)
    assert dock.rows()[-1].startswith("Turn 12 · ")
    for step in idle_turn_steps(window):  # the row says the turn that passed in it
        assert "with no activation" in dock.rows()[step - 1], dock.rows()[step - 1]
    idle = idle_turn_steps(window)[0]
    dock.list.setCurrentRow(idle)  # the first step of the turn after the idle one
    dock.list.scrollToItem(dock.list.item(idle))
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / f"play-history-turns-{'solo' if solo else 'duel'}.png"))


def test_a_game_opened_from_file_lists_its_steps_under_their_turns(
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    window = open_window(qtbot)
    assert window.play.start(39, {"enemy"}, GameSettings(max_turns=12, solo=True))
    turns = [1]
    play_out(window, BOOK, turns)
    path = tmp_path / "solo.crgame"
    assert window.play.save_to(path)
    assert window.play.open_file(path)
    assert listed_turns(dock_of(window)) == turns


def test_a_game_opened_from_its_snapshot_lists_new_steps_under_their_turns(
    qtbot,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """A file whose steps no longer replay opens from its snapshot, with none of the
    earlier steps' events: the steps played after it still say their own turn, and the
    earlier ones say no turn they cannot know."""
    window = open_window(qtbot)
    assert window.play.start(39, {"enemy"}, GameSettings(max_turns=12, solo=True))
    session = session_of(window)
    game = session.game
    while game.turn < 5:
        decision = session.awaiting()
        assert decision is not None
        if session.is_program_turn():
            assert session.run_program_step()
        else:
            assert session.play(BOOK.decide(game, decision)[0]) is None
    opened_at = len(game.history)
    path = tmp_path / "snapshot.crgame"
    assert window.play.save_to(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["steps"][2]["action"] = "activate nobody"  # no longer replays: opened from the snapshot
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.play.open_file(path)
    session = session_of(window)
    assert len(session.game.history) == opened_at and session.game.turn == 5
    assert not session.game.events  # nothing is known of the steps before the snapshot
    turns: list[int] = []
    play_out(window, BOOK, turns)
    rows = dock_of(window).rows()
    assert listed_turns_after(rows, opened_at) == turns
    assert all(row.startswith("Turn ≤5 · ") for row in rows[:opened_at]), rows[:3]


def listed_turns_after(rows: list[str], start: int) -> list[int]:
    return [int(row.split(" · ", 1)[0].removeprefix("Turn ")) for row in rows[start:]]
