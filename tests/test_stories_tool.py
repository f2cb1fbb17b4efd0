"""tools/stories.py finds the stories the play mode's GUI tests follow (a rules change
that moves them is then a search, not an afternoon)."""

from __future__ import annotations

import json

from tests.ui import test_play_pacing as pacing
from tools import stories


def test_it_finds_the_pacing_story_the_test_follows() -> None:
    assert stories.pacing_story(pacing.SEED) == (pacing.TURN_SIX, pacing.NEW_TURN, pacing.LEADER)


def test_the_recording_is_the_one_it_would_write() -> None:
    recorded = json.loads(stories.RECORDED.read_text(encoding="utf-8"))
    assert recorded["seed"] == pacing.SEED
    game, _ = stories.play(pacing.SEED, limit=pacing.TURN_SIX)
    assert [s["action"] for s in recorded["steps"][: pacing.TURN_SIX]] == [
        s.action for s in game.history
    ]


def test_it_finds_the_history_story_the_test_follows() -> None:
    idle = stories.history_story(26)  # test_play_history_turns' solo seed
    assert idle is not None and len(idle) >= 1
