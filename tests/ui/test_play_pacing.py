"""The program's turns at the pace the player chose (issue 31, "Also found on the table":
turns in which the program's side acted alone passed in under a second at Normal speed).

A solo game on the demo table, seed 178, the person playing the book's choices: at step
53 Sgt. Mace's group ends its activation, turn 3 ends, turn 4 begins with an activation
roll his squad cannot use (a 6), PEFs move; then the Red Vipers play turn 4 alone
(Ganger 5-2 activates, takes its orders, ends), and their last step begins turn 5.

The Red Vipers play the steps recorded in ``tests/data/saved/play_pacing.json``: the
pacing this test checks does not depend on how the enemy plays, so the enemy's later
changes do not move the game it follows.  The rules' do (a Duck Back, a walk): when
they change, the story is found again and recorded again (a seed and step where a
person's step begins a turn his side cannot use and the enemy plays it alone) by
``tools/stories.py pacing FIRST LAST`` and ``tools/stories.py pacing --record SEED``,
which prints this module's constants.

The animator runs on a manual clock (``manual_clock``: the test says how much time
passes), the program's pause between steps is nil, and every wait is a
``qtbot.waitUntil`` on what the table shows, never on how long it took.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from crdesk.ai.policy import BookPolicy
from crdesk.game import Game, GameSettings
from crdesk.game.actions import Action
from crdesk.game.records import Decision
from tests.ui.windows import SHOTS, open_window
from ui.main_window import MainWindow
from ui.play.animator import NORMAL, PEF, TELL, TURN, Animator
from ui.play.session import PlaySession

SEED = 178
TURN_SIX = 53
"""The person's step that ends turn 3 and begins turn 4 (the turn the program plays alone)."""
NEW_TURN = 4
LEADER = "Ganger 5-2 (Rep 4) activates"
BOOK = BookPolicy()
WAIT_MS = 15_000
"""How long a wait for the program may take on a loaded machine (it never should)."""


RECORDED = Path(__file__).parents[1] / "data" / "saved" / "play_pacing.json"


class Recorded:
    """The program's side playing the steps recorded for it, step by step."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = json.loads(RECORDED.read_text())["steps"]

    def decide(self, game: Game, decision: Decision) -> tuple[Action, str]:
        step = self.steps[len(game.history)]
        assert step["actor"] == decision.actor, f"step {len(game.history)} is not theirs"
        return Action.parse(step["action"]), "as recorded"


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def session_of(window: MainWindow) -> PlaySession:
    assert window.play.session is not None
    return window.play.session


def animator(window: MainWindow) -> Animator:
    assert window.play.animator is not None
    return window.play.animator


def before_turn_six(window: MainWindow) -> Animator:
    """The game up to the step before TURN_SIX, shown at once; then the table paced by
    hand and the program playing by itself, as in a game at Normal speed."""
    assert window.play.start(SEED, {"enemy"}, GameSettings(max_turns=12, solo=True))
    session = session_of(window)
    session.policies["enemy"] = Recorded()
    game = session.game
    while len(game.history) < TURN_SIX - 1:
        decision = session.awaiting()
        assert decision is not None
        if session.is_program_turn():
            assert session.run_program_step()
        else:
            assert session.play(BOOK.decide(game, decision)[0]) is None
    anim = animator(window)
    anim.finish()
    anim.manual_clock = True
    anim.speed = NORMAL
    session.delay_ms = 0
    assert window.play.banner is not None
    window.play.banner.dismiss(at_once=True)
    session.autoplay = True
    return anim


def person_plays(window: MainWindow) -> None:
    session = session_of(window)
    decision = session.awaiting()
    assert decision is not None and not session.is_program_turn()
    assert session.play(BOOK.decide(session.game, decision)[0]) is None


def advance_to(anim: Animator, kind: str, text: str = "") -> None:
    """Let the show run until a beat of ``kind`` (whose sentence holds ``text``) is shown."""
    for _ in range(len(anim.beats) + 1):
        beat = anim.current()
        assert beat is not None, f"no {kind} beat ({text!r}) in the step"
        if beat.kind == kind and text in beat.event.text:
            return
        anim.advance(beat.ms - anim._t + 1)
    raise AssertionError(f"no {kind} beat ({text!r})")


def held(window: MainWindow, steps: int) -> bool:
    """Whether the program holds still while the table shows its step."""
    session = session_of(window)
    for _ in range(5):
        QApplication.processEvents()
    return len(session.game.history) == steps and not session.program_pending()


def next_program_step(window: MainWindow, qtbot, steps: int) -> None:  # type: ignore[no-untyped-def]
    """The show is over: the program plays its next step, and the table shows it."""
    anim = animator(window)
    anim.advance(60_000)
    assert not anim.running()
    session = session_of(window)
    qtbot.waitUntil(lambda: len(session.game.history) == steps, timeout=WAIT_MS)
    qtbot.waitUntil(anim.running, timeout=WAIT_MS)


def test_a_new_turn_shows_its_card_and_the_game_s_own_moves_one_by_one(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    anim = before_turn_six(window)
    session = session_of(window)
    game = session.game
    tokens = window.play.markers.pefs.tokens()  # type: ignore[union-attr]
    person_plays(window)  # Sgt. Mace's group ends: turn 3 ends, turn 4 begins
    assert len(game.history) == TURN_SIX and game.turn == NEW_TURN
    kinds = [b.kind for b in anim.beats]
    assert TURN in kinds
    after = kinds[kinds.index(TURN) + 1 :]
    assert after[0] == TELL and PEF in after  # the squad cannot act; the PEFs move
    assert held(window, TURN_SIX)
    advance_to(anim, TURN)
    card, line = anim.turn_card, anim.event_line
    assert card.isVisible() and card.title == f"Turn {NEW_TURN}"
    roll = [e for e in game.events if e.kind == "activation_roll"][-1]  # the new turn's
    assert f"Red Vipers {roll.data['scores'][1]}" in card.subtitle and not line.isVisible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-pacing-turn.png"))
    advance_to(anim, TELL, "none of its groups")
    assert not card.isVisible() and line.isVisible()
    assert line.text.startswith(
        "Sgt. Mace's squad: none of its groups still to act has a Leader of Rep 6"
    )
    advance_to(anim, PEF)
    beat = anim.current()
    assert beat is not None
    ((pid, path),) = beat.paths.items()
    token = tokens[pid]
    anim.advance(beat.ms / 2)  # the PEF walks from its spot to where the game has it now
    half = token.pos()
    assert half != path[0] and half != path[-1]
    assert "PEF" in line.text and "moves" in line.text
    assert held(window, TURN_SIX)
    band = window.play.banner
    assert band is not None and not band.isVisible()  # the hand-over waits for the show
    # the Red Vipers play the turn alone: each of their steps is told, one after another
    next_program_step(window, qtbot, TURN_SIX + 1)
    assert band.shown_count and band.text == "Red Vipers' activation"
    assert band.subtitle == f"turn {NEW_TURN} · played by the program" and band.compact
    assert token.pos() == QPointF(*session.pef_spots()[pid])
    assert [b.kind for b in anim.beats] == [TELL]
    assert line.isVisible() and LEADER in line.text
    assert held(window, TURN_SIX + 1)
    assert window.grab().save(str(SHOTS / "play-pacing-tell.png"))
    next_program_step(window, qtbot, TURN_SIX + 2)  # its orders, by table 11.4
    assert [b.kind for b in anim.beats] == [TELL] and "(11.4)" in line.text
    assert held(window, TURN_SIX + 2)
    next_program_step(window, qtbot, TURN_SIX + 3)  # it ends, and so does the turn
    kinds = [b.kind for b in anim.beats]
    assert kinds[:2] == [TELL, TELL] and TURN in kinds
    assert "ends its activation" in anim.beats[0].event.text
    advance_to(anim, TURN)
    assert card.isVisible() and card.title == f"Turn {NEW_TURN + 1}"
    anim.advance(60_000)
    assert not card.isVisible() and not line.isVisible()


def test_a_key_or_a_click_skips_the_show_and_the_program_goes_on(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    anim = before_turn_six(window)
    session = session_of(window)
    person_plays(window)
    assert anim.running() and held(window, TURN_SIX)
    qtbot.keyClick(window.play.decision_dock, Qt.Key.Key_Space)  # a key, not on the table
    assert not anim.running()
    assert all_shown(window)
    qtbot.waitUntil(lambda: len(session.game.history) > TURN_SIX, timeout=WAIT_MS)
    qtbot.waitUntil(anim.running, timeout=WAIT_MS)  # the program's step, told
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=viewport.rect().bottomLeft())
    assert not anim.running() and not anim.event_line.isVisible()
    qtbot.keyClick(window.play.decision_dock, Qt.Key.Key_Control)  # a modifier alone: no
    assert not anim.running()


def all_shown(window: MainWindow) -> bool:
    """Every figure and PEF token where the game has it."""
    session = session_of(window)
    scene = window.play.scene
    assert scene is not None
    figures = all(
        item.pos() == QPointF(session.game.fig(item.model_id).x, session.game.fig(item.model_id).y)
        for item in scene.figure_items()
    )
    tokens = window.play.markers.pefs.tokens()  # type: ignore[union-attr]
    spots = session.pef_spots()
    return figures and all(tokens[p].pos() == QPointF(*spots[p]) for p in spots)


def test_the_program_alone_takes_its_time_by_the_clock_of_the_show(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    """The length of the show is the beats' (not a wall-clock measure): a turn the
    program plays alone lasts some seconds of show at Normal speed, not a blink."""
    anim = before_turn_six(window)
    session = session_of(window)
    person_plays(window)
    shown = sum(b.ms for b in anim.beats)
    for steps in (TURN_SIX + 1, TURN_SIX + 2, TURN_SIX + 3):
        next_program_step(window, qtbot, steps)
        shown += sum(b.ms for b in anim.beats)
    assert session.game.turn == NEW_TURN + 1
    assert shown >= 5000  # of show at Normal speed, each beat one after another
