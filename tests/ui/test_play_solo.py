"""A solo Patrol on the table (11, 12.1): PEF markers, a revealed enemy group, the NP
side moving by table 11.4 with the why of each move in the log -- as a player sees it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from crdesk.dice import CounterDice
from crdesk.game import GameSettings
from crdesk.game.deployment import default_band, deploy
from crdesk.generator import generate
from crdesk.model import BandType, Battlefield, Force
from crdesk.simulate import ObjectivePolicy
from tests.ui.windows import open_window
from ui.play.log_dock import WHY_ROLE

SHOTS = Path("/tmp/crdesk-shots")


def _patrol():  # type: ignore[no-untyped-def]
    sc = generate(11, 48, 48, "wooded", encounter="patrol")
    bf = sc.battlefield
    enemy = Force("enemy", "Red Vipers", BandType.GANGER, colour="#bf1f1f")
    sc = replace(sc, battlefield=Battlefield(bf.table, list(bf.terrain), [enemy]))
    band = Force(
        "band", "Sgt. Rock's patrol", player=True, colour="#1f5fbf", figures=default_band()
    )
    sc = deploy(sc, band, "patrol", CounterDice(11))
    return sc


def test_a_solo_patrol_mid_game(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(qtbot, _patrol())
    mode = window.play
    assert mode.start(2, settings=GameSettings(solo=True, encounter="patrol"))
    game = mode.game
    assert game is not None
    np_side = next(f.id for f in game.battlefield.forces if not f.player)
    assert mode.session is not None and np_side in mode.session.program
    book = ObjectivePolicy()
    for _ in range(400):
        contact = any(e.kind == "pef_contact" for e in game.events)
        np_moves = [s for s in game.history if s.actor == np_side and s.action.startswith("move")]
        hidden = [p for p in game.summary().get("pefs", []) if not p["resolved"]]
        if contact and np_moves and hidden:
            break
        if mode.run_program():
            continue
        d = game.awaiting()
        assert d is not None, game.outcome
        action, _why = book.decide(game, d)
        mode.choose(action)
    else:
        raise AssertionError("no contact and NP move within 400 steps")
    mode.banner.dismiss(at_once=True)
    assert not mode.banner.isVisible()
    assert mode.markers is not None
    qtbot.waitUntil(lambda: not mode.markers.stale())  # the table shows the last step
    SHOTS.mkdir(exist_ok=True)
    window.grab().save(str(SHOTS / "play-solo-patrol.png"))
    assert any(s.why.startswith("11.4 NP Force Movement") for s in np_moves)
    assert mode.markers is not None
    tokens = mode.markers.pefs.tokens()
    assert sorted(tokens) == sorted(p["id"] for p in hidden)
    for p in hidden:
        pos = tokens[p["id"]].pos()
        assert (pos.x(), pos.y()) == (p["x"], p["y"])
    contacts = [f for f in game.battlefield.figures() if f.id.startswith("pef")]
    assert contacts and all(window.play.scene.figure_item(f.id) is not None for f in contacts)
    # the log follows the game, and says why the enemy did what it did
    log = mode.log_dock.list
    qtbot.waitUntil(lambda: log.verticalScrollBar().value() == log.verticalScrollBar().maximum())
    whys = [log.item(r).data(WHY_ROLE) for r in range(log.count()) if log.item(r).data(WHY_ROLE)]
    assert any(w.startswith("11.4 NP Force Movement") and "moves" in w for w in whys)
