"""Property tests of the game controller: random legal games replay, undo, fork and
keep figures where figures may stand.

The games are random walks through the decisions: at each one a drawn choice
plays one of the decision's options, a random Move of a group member (up to a
few inches, or towards another figure, kept only when :meth:`Game.legal`
accepts it), a random Fire, Charge or grenade Throw at an enemy, a pick-up,
capture or dispatch of a figure that is down, a change of floor, a chosen Duck
Back spot (each likewise kept only if legal; a refused one must be refused by
:meth:`Game.play` too and change nothing), or the book policy's choice (which
keeps the game moving towards the enemy).
They run on the two demo tables and on small generated scenarios.

Everything is derandomized with no example database, so the runs are the same
on every machine and CI is not flaky.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from crdesk.ai.policy import BookPolicy
from crdesk.errors import IllegalActionError
from crdesk.game import Game
from crdesk.game.actions import (
    Action,
    Capture,
    ChangeFloor,
    Charge,
    Dispatch,
    DuckBack,
    End,
    Fire,
    Move,
    Pass,
    Pickup,
    Prone,
    Throw,
)
from crdesk.game.records import CHANCE, Decision
from crdesk.game.settings import MANUAL, GameSettings
from crdesk.model import Scenario, TerrainKind
from crdesk.resources import sample_scenarios
from crdesk.scenario import load
from tests.game.games import scenario

FAST = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure prints its draws
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

MAX_TURNS = 3
STEPS = 30

Draw = Callable[[st.SearchStrategy[Any]], Any]


# ----------------------------------------------------------------------------
# Scenarios


@cache
def demo(name: str) -> Scenario:
    for path in sample_scenarios():
        if path.name == f"demo-{name}.crdesk":
            return load(str(path))
    raise AssertionError(f"no demo table {name!r} among {[p.name for p in sample_scenarios()]}")


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


@st.composite
def small_scenarios(draw: Draw) -> dict[str, Any]:
    """A 24" table: a band of impassable ground across the middle (with a gap), woods
    and cover somewhere, and 1-3 figures a side within a few inches of either side of
    the band; or no band and the sides 2"-10" apart (close enough to charge)."""
    gap = draw(st.integers(0, 24))  # 19 and more: no band at all, the sides close
    woods_x = draw(st.integers(0, 18))
    woods_y = draw(st.integers(0, 18))
    cover_x = draw(st.integers(0, 20))
    cover_y = draw(st.integers(0, 20))
    terrain = [
        {"kind": "impassable", "outline": _rect(0, 11, gap, 13)} if 0 < gap <= 18 else None,
        {"kind": "impassable", "outline": _rect(gap + 5, 11, 24, 13)} if gap < 18 else None,
        {"kind": "woods", "outline": _rect(woods_x, woods_y, woods_x + 6, woods_y + 5)},
        {"kind": "cover", "outline": _rect(cover_x, cover_y, cover_x + 3, cover_y + 1)},
    ]
    weapons = st.sampled_from(["AR", "AR", "SMG", "SAW", "P", "SG", "BAR", "RL", "none"])

    def figures(prefix: str, half_ys: tuple[int, int], star: bool) -> list[dict[str, Any]]:
        xs = draw(st.lists(st.integers(1, 23), min_size=1, max_size=3, unique=True))
        out = []
        for n, x in enumerate(xs, 1):
            fig: dict[str, Any] = {
                "id": f"{prefix}{n}",
                "rep": draw(st.integers(3, 5)),
                "weapon": draw(weapons),
                "at": [x, draw(st.integers(*half_ys)) / 2],
                "facing": 0 if prefix == "p" else 180,
            }
            if star and n == 1:
                fig["role"] = "star"
            out.append(fig)
        return out

    player_ys, enemy_ys = ((27, 38), (10, 21)) if gap <= 18 else ((26, 34), (14, 22))
    return {
        "table": [24, 24],
        "terrain": [t for t in terrain if t is not None],
        "forces": [
            {"id": "p", "player": True, "figures": figures("p", player_ys, draw(st.booleans()))},
            {"id": "e", "figures": figures("e", enemy_ys, False)},
        ],
    }


TABLES = ["urban", "wooded", "generated"]


def table_and_seed(data: st.DataObject, table: str) -> tuple[Scenario, int]:
    if table == "generated":
        sc = scenario(data.draw(small_scenarios(), label="scenario"))
    else:
        sc = demo(table)
    return sc, data.draw(st.integers(0, 2**20), label="seed")


# ----------------------------------------------------------------------------
# Random legal play

BOOK = BookPolicy()


def _group(game: Game) -> list[str]:
    frame = game.frames[-1]
    if frame.kind == "activation":
        return list(frame.data["members"])
    if frame.kind == "free_move":
        return list(frame.data["movers"])
    return []


def _enemies(game: Game, fid: str) -> list[str]:
    side = game.fig(fid).side
    return [f.id for f in game.battlefield.figures() if f.side != side and f.status.can_act]


def _nearest_first(game: Game, fid: str, ids: list[str]) -> list[str]:
    fig = game.fig(fid)
    return sorted(ids, key=lambda o: (math.hypot(game.fig(o).x - fig.x, game.fig(o).y - fig.y), o))


def _pick_target(game: Game, fid: str, ids: list[str], draw: Draw) -> str:
    """The nearest of ``ids`` half the time (so charges and throws reach), else any."""
    if draw(st.booleans()):
        return _nearest_first(game, fid, ids)[0]
    return str(draw(st.sampled_from(ids)))


def _random_move(game: Game, draw: Draw) -> Move | None:
    movers = [m for m in _group(game) if game.fig(m).status.can_act]
    if not movers:
        return None
    fid = draw(st.sampled_from(movers))
    fig = game.fig(fid)
    how = draw(st.sampled_from(["near", "towards", "contact"]))
    if how == "near":  # anywhere within 4"
        x = fig.x + draw(st.integers(-16, 16)) / 4
        y = fig.y + draw(st.integers(-16, 16)) / 4
    else:  # up to 8" towards another figure (standing or down), or into base contact
        others = [f.id for f in game.battlefield.figures() if f.id != fid]
        if not others:
            return None
        other = game.fig(_pick_target(game, fid, others, draw))
        dist = math.hypot(other.x - fig.x, other.y - fig.y) or 1.0
        if how == "contact":
            step = max(0.0, dist - fig.radius - other.radius)
        else:
            step = draw(st.integers(1, 32)) / 4
        x = fig.x + (other.x - fig.x) / dist * step
        y = fig.y + (other.y - fig.y) / dist * step
    facing = draw(st.none() | st.integers(0, 359))
    return Move(fid, ((round(x, 3), round(y, 3)),), facing)


def _random_at_enemy(game: Game, decision: Decision, draw: Draw) -> Action | None:
    """A Fire, Charge or grenade Throw at an enemy, as far as the decision accepts them."""
    shooters = [decision.figure] if decision.figure else _group(game)
    shooters = [s for s in shooters if s and game.fig(s).status.can_act]
    if not shooters:
        return None
    fid = draw(st.sampled_from(shooters))
    foes = _enemies(game, fid)
    if not foes:
        return None
    target = _pick_target(game, fid, foes, draw)
    words = [w for w in ("fire", "charge", "throw") if w in decision.accepts]
    word = draw(st.sampled_from(words))
    if word == "charge":
        return Charge(fid, target)
    if word == "throw":
        foe = game.fig(target)
        x = foe.x + draw(st.integers(-4, 4)) / 4
        y = foe.y + draw(st.integers(-4, 4)) / 4
        return Throw(fid, (round(x, 3), round(y, 3)))
    return Fire(fid, ((target, 0),))


def _random_care(game: Game, decision: Decision, draw: Draw) -> Action | None:
    """Pick up a friend who is Out of the Fight, capture or dispatch such an enemy, or
    change floor."""
    members = [m for m in _group(game) if game.fig(m).status.can_act]
    if not members:
        return None
    fid = draw(st.sampled_from(members))
    side = game.fig(fid).side
    down = [f for f in game.battlefield.figures() if not f.status.can_act]
    words = [w for w in ("pickup", "capture", "dispatch", "floor") if w in decision.accepts]
    if not words:
        return None
    word = draw(st.sampled_from(words))
    if word == "floor":
        return ChangeFloor(fid, draw(st.integers(1, 3)))
    friends = word == "pickup"
    ids = [f.id for f in down if (f.side == side) == friends]
    if not ids:
        return None
    target = _nearest_first(game, fid, ids)[0]
    if word == "pickup":
        return Pickup(fid, target)
    return Capture(fid, target) if word == "capture" else Dispatch(fid, target)


def _random_duck_spot(game: Game, decision: Decision, draw: Draw) -> Action | None:
    assert decision.figure is not None
    fig = game.fig(decision.figure)
    x = fig.x + draw(st.integers(-24, 24)) / 4
    y = fig.y + draw(st.integers(-24, 24)) / 4
    return DuckBack(fig.id, (round(x, 3), round(y, 3)))


def random_action(game: Game, draw: Draw) -> Action:
    """A legal action for the decision the game awaits (a seeded game: no dice)."""
    decision = game.awaiting()
    assert decision is not None and decision.actor != CHANCE, decision
    kinds = ["option", "book", "book"]
    if "move" in decision.accepts:
        kinds += ["move", "move", "move", "move"]
    if {"fire", "charge", "throw"} & set(decision.accepts):
        kinds += ["enemy", "enemy"]
    if {"pickup", "capture", "dispatch", "floor"} & set(decision.accepts):
        kinds.append("care")
    if decision.kind == "duck_back":
        kinds.append("spot")
    kind = draw(st.sampled_from(kinds))
    act: Action | None = None
    if kind == "move":
        act = _random_move(game, draw)
    elif kind == "enemy":
        act = _random_at_enemy(game, decision, draw)
    elif kind == "care":
        act = _random_care(game, decision, draw)
    elif kind == "spot":
        act = _random_duck_spot(game, decision, draw)
    elif kind == "book":
        act = BOOK.decide(game, decision)[0]
    if act is not None:
        reason = game.legal(act)
        if reason is None:
            return act
        # a refused action is refused by play too, and changes nothing
        before = game.state_hash()
        with pytest.raises(IllegalActionError):
            game.play(act)
        assert game.state_hash() == before, f"refused {act} ({reason}) changed the game"
    assert decision.options, f"no options for {decision.kind}"
    options = decision.options
    busy = [o for o in options if not isinstance(o, End | Prone | Pass)]
    if busy and draw(st.booleans()):  # keep the game going more often than not
        options = tuple(busy)
    option: Action = draw(st.sampled_from(options))
    assert game.legal(option) is None, (option, game.legal(option))
    return option


def play_random(
    game: Game,
    draw: Draw,
    steps: int = STEPS,
    after: Callable[[Game, Action, str], None] | None = None,
) -> list[str]:
    """Play up to ``steps`` random legal actions; returns the state hash after each."""
    hashes: list[str] = []
    for _ in range(steps):
        if game.awaiting() is None:
            break
        act = random_action(game, draw)
        before = game.state_hash()
        game.play(act)
        hashes.append(game.state_hash())
        if after is not None:
            after(game, act, before)
    return hashes


def new_game(sc: Scenario, seed: int, *, practice_undo: bool = False) -> Game:
    return Game.new(
        sc, seed=seed, settings=GameSettings(practice_undo=practice_undo, max_turns=MAX_TURNS)
    )


# ----------------------------------------------------------------------------
# 1. Replays are exact


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_replay_gives_the_same_state_at_every_step(table: str, data: st.DataObject) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed)
    hashes = [game.state_hash(), *play_random(game, data.draw)]
    history = game.history
    assert len(hashes) == len(history)

    def check(n: int, replayed: Game) -> None:
        assert replayed.state_hash() == hashes[n - 1], f"step {n} {history[n - 1].action!r}"

    again = Game.replay(
        sc, history, seed=seed, settings=GameSettings(max_turns=MAX_TURNS), check=check
    )
    assert again.history == history
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    assert again.awaiting() == game.awaiting()


# ----------------------------------------------------------------------------
# 2. Undo


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_practice_undo_then_replaying_the_step_gives_the_same_state(
    table: str, data: st.DataObject
) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed, practice_undo=True)

    def undo_and_redo(game: Game, act: Action, before: str) -> None:
        if data.draw(st.integers(0, 3), label="undo?") != 0:
            return
        after = game.state_hash()
        step = game.history[-1]
        events = [e.to_dict() for e in game.events]
        assert game.undo() == step
        assert game.state_hash() == before, f"undo of {step.action!r}"
        game.play(step.action)
        assert game.history[-1] == step
        assert game.state_hash() == after, f"replaying {step.action!r} after undo"
        assert [e.to_dict() for e in game.events] == events

    play_random(game, data.draw, after=undo_and_redo)


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_undo_refuses_steps_that_rolled_dice(table: str, data: st.DataObject) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed)

    def try_undo(game: Game, act: Action, before: str) -> None:
        after = game.state_hash()
        step = game.history[-1]
        count = len(game.history)
        if step.faces:
            with pytest.raises(IllegalActionError, match="rolled dice"):
                game.undo()
            assert game.state_hash() == after
            assert len(game.history) == count
        elif data.draw(st.booleans(), label="undo?"):
            assert game.undo() == step
            assert game.state_hash() == before
            game.play(step.action)
            assert game.state_hash() == after

    # the opening step rolls the activation dice: it cannot be taken back
    start = game.state_hash()
    with pytest.raises(IllegalActionError, match="opening activation roll cannot be taken back"):
        game.undo()
    assert game.state_hash() == start
    play_random(game, data.draw, after=try_undo)


# ----------------------------------------------------------------------------
# 3. Fork


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_fork_is_independent(table: str, data: st.DataObject) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed, practice_undo=True)
    play_random(game, data.draw, steps=data.draw(st.integers(0, STEPS), label="prefix"))
    original = game.state_hash()
    history = game.history
    twin = game.fork()
    assert twin.state_hash() == original
    assert twin.history == history
    assert twin.awaiting() == game.awaiting()
    twin_hashes = play_random(twin, data.draw, steps=15)
    assert game.state_hash() == original, "playing on the fork changed the original"
    assert game.history == history
    # the same actions on the original give the same states as on the fork
    for step, want in zip(twin.history[len(history) :], twin_hashes, strict=True):
        game.play(step.action)
        assert game.state_hash() == want, step.action
    # and playing on the original now leaves the fork alone
    forked = twin.state_hash()
    play_random(game, data.draw, steps=5)
    assert twin.state_hash() == forked
    # the fork undoes (practice undo) back to where it was forked, step by step
    for want in reversed([original, *twin_hashes][:-1]):
        twin.undo()
        assert twin.state_hash() == want
    assert twin.history == history


# ----------------------------------------------------------------------------
# 4. Figures stand where figures may stand


def _steps(game: Game) -> str:
    return "; history: " + " | ".join(s.action for s in game.history)


def assert_figures_placed(game: Game, act: Action) -> None:
    """No figure that can act is off the table, in impassable ground or on another's base."""
    bf = game.battlefield
    width, height = bf.table.width, bf.table.height
    blocked = [t for t in bf.terrain if t.kind is TerrainKind.IMPASSABLE]
    active = [f for f in bf.figures() if f.status.can_act]
    for fig in active:
        r = fig.radius
        on_table = r - 1e-6 <= fig.x <= width - r + 1e-6 and r - 1e-6 <= fig.y <= height - r + 1e-6
        where = f"after {act}: {fig.id} at ({fig.x}, {fig.y})"
        assert on_table, f"{where} is off the table" + _steps(game)
        for t in blocked:
            assert not t.outline.contains(Point(fig.x, fig.y)), (
                f"{where} stands in impassable {t.id}" + _steps(game)
            )
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            gap = math.hypot(a.x - b.x, a.y - b.y)
            if gap >= a.radius + b.radius - 1e-6:
                continue
            raise AssertionError(
                f"after {act}: {a.id} ({a.x}, {a.y}) and {b.id} ({b.x}, {b.y}) overlap "
                f'(centres {gap:.3f}" apart)' + _steps(game)
            )


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_no_accepted_action_misplaces_a_figure(table: str, data: st.DataObject) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed)
    assert_figures_placed(game, Action.parse("start"))

    def check(game: Game, act: Action, before: str) -> None:
        assert_figures_placed(game, act)

    play_random(game, data.draw, after=check)


# ----------------------------------------------------------------------------
# 5. Manual dice reproduce a seeded game


@pytest.mark.parametrize("table", TABLES)
@FAST
@given(data=st.data())
def test_manual_dice_with_the_recorded_faces_reach_the_same_state(
    table: str, data: st.DataObject
) -> None:
    sc, seed = table_and_seed(data, table)
    game = new_game(sc, seed)
    hashes = [game.state_hash(), *play_random(game, data.draw)]
    history = game.history
    rules = GameSettings(max_turns=MAX_TURNS)

    # all of a step's faces at once
    manual = Game.replay(sc, history[:1], dice=MANUAL, settings=rules)
    assert manual.state_hash() == hashes[0]
    for step, want in zip(history[1:], hashes[1:], strict=True):
        manual.play(step.action, faces=step.faces)
        pending = manual.awaiting()
        assert pending is None or pending.actor != CHANCE, f"{step.action!r} wants more dice"
        assert manual.state_hash() == want, step.action
    assert manual.battlefield.state_document() == game.battlefield.state_document()
    assert manual.history == history

    # the faces entered at the chance decisions, as a player would
    typed = Game.replay(sc, history[:1], dice=MANUAL, settings=rules)
    for step in history[1:]:
        faces = list(step.faces)
        typed.play(step.action)
        while (pending := typed.awaiting()) is not None and pending.actor == CHANCE:
            assert faces, (
                f"{step.action!r} asks for {pending.dice} more dice ({pending.prompt}) than "
                f"the seeded game rolled: {step.faces}; seed {seed}" + _steps(game)
            )
            given_faces, faces = faces[: pending.dice], faces[pending.dice :]
            typed.play(Action.parse("dice " + ",".join(map(str, given_faces))))
        assert not faces, f"{step.action!r} left dice unused: {faces}"
    assert typed.battlefield.state_document() == game.battlefield.state_document()
    assert typed.state_hash() == game.state_hash()
    assert typed.history == history


def small_table(terrain: list[dict[str, Any]], **figures: list[float]) -> Scenario:
    """Figures named p* for the player's side and e* for the enemy, Rep 5 and 4."""
    forces: list[dict[str, Any]] = [
        {"id": "p", "player": True, "figures": []},
        {"id": "e", "figures": []},
    ]
    for fid, at in figures.items():
        force = forces[0] if fid.startswith("p") else forces[1]
        facing = 0 if fid.startswith("p") else 180
        force["figures"].append(
            {"id": fid, "rep": 5 if fid == "p1" else 4, "at": at, "facing": facing}
        )
    return scenario({"table": [24, 24], "terrain": terrain, "forces": forces})


def test_a_move_stopped_by_in_sight_does_not_end_on_a_friends_base() -> None:
    """Found by the placement property: only the path's end was checked against bases."""
    wall = {"kind": "impassable", "outline": _rect(0, 8, 8, 12)}
    sc = small_table([wall], p1=[10, 20], p2=[14.5, 20.6], e1=[4, 2])
    game = Game.new(sc, seed=0)
    game.play("activate p1")
    assert game.legal("move p1 18,20") is None
    events = game.play("move p1 18,20")
    assert any(e.kind == "move" and e.section == "7.6" for e in events)  # stopped: e1 in sight
    p1, p2 = game.fig("p1"), game.fig("p2")
    assert math.hypot(p1.x - p2.x, p1.y - p2.y) >= p1.radius + p2.radius - 1e-6, (
        f"p1 stopped at ({p1.x}, {p1.y}), on p2's base at ({p2.x}, {p2.y})"
    )


def test_undo_on_a_fork_goes_back_like_the_original() -> None:
    """Found by the fork property: the fork kept no checkpoint to go back from."""
    sc = small_table([], p1=[12, 20], e1=[12, 4])
    game = Game.new(sc, seed=0, settings=GameSettings(practice_undo=True))
    game.play(game.awaiting().options[0])  # type: ignore[union-attr]
    before = game.state_hash()
    twin = game.fork()
    game.undo()
    twin.undo()
    assert twin.state_hash() == game.state_hash() != before


def test_practice_undo_of_the_opening_step_leaves_a_playable_game() -> None:
    """Found by the undo property: undoing 'start' left a game with no decision."""
    sc = small_table([], p1=[12, 20], e1=[12, 4])
    game = Game.new(sc, seed=0, settings=GameSettings(practice_undo=True))
    start = game.state_hash()
    try:
        game.undo()
    except IllegalActionError:
        assert game.state_hash() == start  # refusing is fine too
        return
    game.awaiting()
    game.play("start")
    assert game.state_hash() == start
