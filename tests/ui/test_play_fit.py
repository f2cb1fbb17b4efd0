"""The play docks fit what they say at their default size: nothing is cut off unsaid.

Issue 31 ("Also found on the table"): a big roll pushed the dice tray's cards past
the dock's edge (every line clipped), the default decision button lost the end of
its label, and the Turn dock's group list scrolled with four groups.  Each test
drives the real window at the play tests' size (``windows.SIZE``), where the docks
have their default widths, and looks at the widgets as laid out.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QStyle,
    QStyleOptionButton,
    QWidget,
)

from crdesk.game import Event
from tests.ui.windows import SHOTS, activate, demo, open_window, start
from ui.main_window import MainWindow
from ui.play.decision_dock import OptionButton
from ui.play.dice_tray import DiceTrayDock, readings
from ui.play.dice_view import DiceRow


@pytest.fixture
def window(qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot)


def _inside(dock: DiceTrayDock) -> list[str]:
    """The visible widgets of a dock's body that reach past its viewport's right edge."""
    scroll = dock.body_scroll()
    assert scroll is not None
    viewport = scroll.viewport()
    out = []
    for widget in scroll.widget().findChildren(QWidget):
        if not widget.isVisibleTo(dock) or not isinstance(widget, QLabel | DiceRow):
            continue
        right = widget.mapTo(viewport, widget.rect().topRight()).x()
        if right >= viewport.width():
            text = widget.text() if isinstance(widget, QLabel) else f"{len(widget.dice)} dice"
            out.append(f"{type(widget).__name__} {text[:40]!r} ends at {right}")
    return out


# -- the dice tray --------------------------------------------------------------------------


MELEE_FACES = (5, 3, 5, 2, 4, 5, 4, 6, 1, 3) * 4
"""A melee's 40 dice in one event (seen in a solo game: one row of 40 dice, 1038 px)."""


def test_a_big_roll_and_long_captions_stay_inside_the_dice_tray(
    window: MainWindow,
    qtbot,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start(window)
    in_sight = Event(
        2,
        "in_sight",
        "7.6.3",
        "Dice (moving) rolled 5,2,6,4,5 (5d6): 1 success; needs more than Sgt. Mace 0: acts "
        "(7.6.3). Sgt. Mace (not moving) rolled 6,5,5,4,5 (5d6): 0 successes.",
        ("e3", "p1"),
        (5, 2, 6, 4, 5, 6, 5, 5, 4, 5),
        {
            "results": [
                {"name": "Dice", "faces": [5, 2, 6, 4, 5], "successes": 1, "result": "acts"},
                {
                    "name": "Sgt. Mace",
                    "faces": [6, 5, 5, 4, 5],
                    "successes": 0,
                    "result": "only_reacts",
                },
            ]
        },
    )
    melee = Event(
        2,
        "melee",
        "7.11.5",
        "Sgt. Mace (Rep 5) rolled 5,3,5,2,4: 2; Ganger 5-2 (Rep 5) rolled 5,4,6,1,3: 2: even, "
        "both roll again (7.11.5).",
        ("p1", "e1"),
        MELEE_FACES,
        {"result": "out_of_the_fight"},
    )
    # the rolls shown are these two (the tray reads them from the game: here, given)
    monkeypatch.setattr("ui.play.dice_tray.last_rolls", lambda _game: [in_sight, melee])
    activate(window, qtbot)  # a step: the tray refreshes
    QApplication.processEvents()
    tray = window.play.dice_tray
    assert [c.card.event.kind for c in tray.cards] == ["in_sight", "melee"]
    assert tray.width() <= 320, "the tray is at its default width"
    assert _inside(tray) == []
    scroll = tray.body_scroll()
    assert scroll is not None and scroll.widget().width() <= scroll.viewport().width()
    # every die is shown: the 40 wrap onto lines of their own
    assert tray.shown_faces()[-1] == MELEE_FACES
    big = tray.cards[1].rows[0]
    assert big.height() > 2 * big.die_size and big.width() <= scroll.viewport().width()
    # each caption reads in full, on as many lines as it needs
    for card in tray.cards:
        for caption, reading in zip(
            card.captions, readings(card.card.event, window.play.session.side_name), strict=True
        ):
            assert caption.text() == reading.caption, "a caption is cut short"
            assert caption.height() >= caption.heightForWidth(caption.width())
    # a long line (the controller's sentence) is shortened with "…" and said in full in
    # its tooltip, a paragraph (not a line as wide as the screen)
    sentence = tray.cards[1].text_label
    assert sentence.text().endswith("…") and "both roll again" in sentence.toolTip()
    assert sentence.toolTip().startswith("<table width=")
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert tray.grab().save(str(SHOTS / "play-tray-big-roll.png"))


# -- the decision dock ---------------------------------------------------------------------


def _lines_fit(button: QAbstractButton) -> list[str]:
    """The lines of a button's text wider than the room the style gives its label."""
    option = QStyleOptionButton()
    option.initFrom(button)
    room = (
        button.style()
        .subElementRect(QStyle.SubElement.SE_PushButtonContents, option, button)
        .width()
    )
    metrics = button.fontMetrics()
    return [
        f"{line!r}: {metrics.horizontalAdvance(line)} > {room}"
        for line in button.text().split("\n")
        if metrics.horizontalAdvance(line) > room
    ]


def test_the_default_option_reads_in_full_at_the_dock_s_width(qtbot) -> None:  # type: ignore[no-untyped-def]
    scenario = demo()
    scenario.battlefield.update_figure("p3", name="Pvt. Okafor-Lindqvist")
    scenario.battlefield.update_figure("e3", name="Dice the Younger")
    window = open_window(qtbot, scenario)
    start(window)
    activate(window, qtbot)
    window.play.play_default()  # Sgt. Mace fires; the Vipers react (the program's turn)
    window.play.run_program()  # ... and the squad decides again: a long default
    QApplication.processEvents()
    dock = window.play.decision_dock
    assert dock.width() <= 330, "the decision dock is at its default width"
    assert dock.default is not None
    default = dock.buttons[str(dock.default)]
    assert isinstance(default, OptionButton) and default.font().bold()
    assert default.full_text == "⏎  Pvt. Okafor-Lindqvist fires at Dice the Younger (4 dice)"
    assert default.text().replace("\n", " ") == default.full_text, "the default is cut short"
    for button in dock.buttons.values():
        if isinstance(button, OptionButton) and button.isVisible():
            assert _lines_fit(button) == [], button.full_text
            assert button.height() >= button.sizeHint().height()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert dock.grab().save(str(SHOTS / "play-decision-long-default.png"))


def test_a_button_turned_bold_fits_its_label_again(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The default is bold: a label laid out in the plain font, then made bold, is
    laid out again (it ran past the button's edge: "…nearest Co" cut off)."""
    holder = QWidget()
    qtbot.addWidget(holder)
    button = OptionButton("")
    button.setParent(holder)
    button.resize(304, 30)
    holder.show()
    qtbot.waitExposed(holder)
    text = "⏎  Pvt. Okafor ducks back to the nearest Cover behind the long stone wall"
    button.set_full_text(text)
    font = button.font()
    font.setBold(True)
    button.setFont(font)
    assert _lines_fit(button) == []
    assert "nearest" in button.text()


# -- the turn dock ---------------------------------------------------------------------------


def test_the_turn_dock_shows_every_group_without_scrolling(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    start(window)
    dock = window.play.turn_dock
    assert dock.group_states() == {"p1": "may"}  # one group listed: the dock is sized for it
    game = window.play.game
    # the Vipers spread out, each a group of its own (Rep 5: each may activate)
    for fid, x in (("e1", 3.0), ("e2", 10.0), ("e3", 17.0), ("e4", 24.0)):
        game.battlefield.update_figure(fid, x=x, y=3.0, rep=5)
    qtbot.mouseClick(dock.pass_button, Qt.MouseButton.LeftButton)  # the squad passes
    window.play.run_program()  # turn 2: the Vipers activate their four groups first
    QApplication.processEvents()  # the window lays the docks out again
    states = dock.group_states()
    assert states == {"e1": "done", "e2": "done", "e3": "done", "e4": "done", "p1": "may"}
    scroll = dock.body_scroll()
    assert scroll is not None
    assert not scroll.verticalScrollBar().isVisible(), "the group list scrolls"
    viewport = scroll.viewport()
    for label in dock.group_labels:
        bottom = label.mapTo(viewport, label.rect().bottomLeft()).y()
        assert 0 <= bottom < viewport.height(), label.text()
    # the log below keeps its room
    assert window.play.log_dock.height() > 150
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "play-turn-five-groups.png"))
