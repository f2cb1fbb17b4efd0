"""Hostile inputs, second round (issue 33) in the app: the shapes ``validate`` accepts open,
are checked and start a game (the game's table is the file's, repaired as it was read)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crdesk import scenario as io
from crdesk.shapes import ground
from tests.test_hostile_round2_shapes import ISSUE_4, SHAPES
from tests.ui.windows import open_window


@pytest.mark.parametrize("path", SHAPES, ids=lambda p: p.stem)
def test_the_app_opens_the_warned_about_shapes_and_plays_them_repaired(
    qtbot: Any, path: Path
) -> None:
    window = open_window(qtbot)
    assert window.open_file(path)
    terrain = window.document.battlefield.terrain
    assert window.scene is not None and len(window.scene.terrain_items()) == len(terrain)
    assert window.play.start(1, [])  # the game's table: the file's, as read (repaired)
    assert window.play.session is not None
    game_table = window.play.session.game.battlefield
    assert all(f.outline.is_valid or ground(f.outline).is_empty for f in game_table.terrain)
    assert game_table.terrain_digest() == io.load(path).battlefield.terrain_digest()
    window.play.stop()


def test_the_app_opens_the_issue_4_file(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "w.crdesk"
    path.write_text(json.dumps(ISSUE_4), encoding="utf-8")
    window = open_window(qtbot)
    assert window.open_file(path)
    assert [i.message for i in window.issues_dock.issues] == [
        "w: the outline encloses no ground (zero area)"
    ]


def test_the_issues_dock_says_what_opening_repaired_until_the_table_is_saved(
    qtbot: Any, tmp_path: Path
) -> None:
    """``crdesk validate`` warns that a crossing outline is played repaired; the app says
    it too, where the player looks for what is wrong with the table (the Issues dock, with
    the file's path), until a save writes the repaired outline."""
    from tests.test_hostile_round2_shapes import BOW_TIE

    copy = tmp_path / "bow.crdesk"
    copy.write_bytes(BOW_TIE.read_bytes())
    window = open_window(qtbot)
    assert window.open_file(copy)
    said = [(i.path, i.message) for i in window.issues_dock.issues]
    assert any(
        path == "terrain[2].outline" and "played as its largest valid part" in message
        for path, message in said
    ), said
    window.issues_dock.refresh()  # the checks run again after an edit: still there
    assert any(i.path == "terrain[2].outline" for i in window.issues_dock.issues)
    assert window.save_to(copy)
    window.issues_dock.refresh()
    assert not any(i.path == "terrain[2].outline" for i in window.issues_dock.issues)
