"""Actions have a stable text form: ``Action.parse(str(a)) == a`` (like a chess move's UCI)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crdesk.errors import IllegalActionError
from crdesk.game.actions import (
    Action,
    Activate,
    CarryOn,
    Charge,
    CheatDeath,
    DiceFaces,
    Drop,
    DuckBack,
    End,
    Exit,
    FastMove,
    Fire,
    FreeWill,
    Indirect,
    Move,
    Pass,
    Prone,
    Ready,
    Reload,
    Stand,
    StarPower,
    Throw,
)

ids = st.from_regex(r"[a-z][a-z0-9\-]{0,6}", fullmatch=True)
nums = st.floats(min_value=-1000, max_value=1000, allow_nan=False, allow_infinity=False)
points = st.tuples(nums, nums)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.integers(0, 13))
    fid = draw(ids)
    if kind == 0:
        return Activate(fid)
    if kind == 1:
        return End()
    if kind == 2:
        facing = draw(st.none() | st.floats(0, 359.9))
        return Move(fid, tuple(draw(st.lists(points, min_size=1, max_size=4))), facing)
    if kind == 3:
        return FastMove(tuple(draw(st.lists(ids, min_size=1, max_size=4))))
    if kind == 4:
        targets = draw(st.lists(st.tuples(ids, st.integers(0, 4)), min_size=1, max_size=3))
        mode = draw(st.sampled_from(["", "semi", "SA", "DA", "pump", "BA", "2RB", "3RB", "FA"]))
        support = draw(st.sampled_from(["", "braced", "bipod", "tripod"]))
        return Fire(
            fid, tuple(targets), mode, draw(st.booleans()), draw(st.integers(0, 4)), support
        )
    if kind == 5:
        return Charge(fid, draw(ids), tuple(draw(st.lists(ids, max_size=2))))
    if kind == 6:
        return Throw(fid, draw(points))
    if kind == 7:
        return FreeWill(fid, draw(st.integers(0, 2)))
    if kind == 8:
        return DuckBack(fid, draw(st.none() | points))
    if kind == 9:
        return DiceFaces(tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=8))))
    if kind == 10:
        return CheatDeath(fid, draw(st.booleans()))
    if kind == 11:
        return Indirect(fid, draw(points))
    if kind == 12:
        return Ready(fid, weapon=True)
    one = draw(st.sampled_from([Prone, Stand, Reload, Ready, Drop, CarryOn, Exit]))
    return one(fid)


@given(actions())
def test_text_round_trips(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert str(Action.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("activate p1", Activate("p1")),
        ("end", End()),
        ("pass", Pass()),
        ("move p1 10,12 14,12.5 face 90", Move("p1", ((10, 12), (14, 12.5)), 90)),
        ("fire p1 at e1:2,e2:1", Fire("p1", (("e1", 2), ("e2", 1)))),
        ("fire p1 at e1", Fire("p1", (("e1", 0),))),
        ("fire p1 at e1 mode FA aim", Fire("p1", (("e1", 0),), "FA", aim=True)),
        ("fire p1 at e1 mode FA walk 2", Fire("p1", (("e1", 0),), "FA", walk=2)),
        (
            "fire p1 at e1,e2 mode 3RB support bipod",
            Fire("p1", (("e1", 0), ("e2", 0)), "3RB", support="bipod"),
        ),
        ("starpower p1 decline", StarPower("p1", False)),
        ("ready p1", Ready("p1")),
        ("ready p1 weapon", Ready("p1", weapon=True)),
        ("indirect p1 at 10,12.5", Indirect("p1", (10, 12.5))),
        ("duckback p2 auto", DuckBack("p2")),
        ("dice 3,5,1", DiceFaces((3, 5, 1))),
    ],
)
def test_the_documented_forms(text: str, action: Action) -> None:
    assert Action.parse(text) == action
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action"),
        ("jump p1", "unknown action 'jump'"),
        ("move p1", "at least one point"),
        ("move p1 10", "x,y"),
        ("move p1 a,3", "must be a number"),
        ("move p1 nan,3", "finite"),
        ("fire p1 e1", "fire ID at"),
        ("fire p1 at e1:x", "whole number"),
        ("fire p1 at e1 mode XX", "no fire mode 'XX'"),
        ("fire p1 at e1 mode", "'mode' needs a value"),
        ("fire p1 at e1 aim aim", "given twice"),
        ("fire p1 at e1 walk 0", "1 or more pairs"),
        ("fire p1 at e1 support sandbag", "support is one of"),
        ("fire p1 at e1 spray", "unknown fire option 'spray'"),
        ("dice 7", "1-6"),
        ("indirect p1 10,12", "'indirect' is written 'indirect ID at X,Y'"),
        ("ready p1 rifle", "or 'ready ID weapon'"),
        ("cheat p1 maybe", "'yes' or 'no'"),
        ("end now", "takes nothing after it"),
        ("activate p1;rm", "not a figure id"),
    ],
)
def test_bad_text_is_refused_with_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(IllegalActionError, match=words):
        Action.parse(text)


def test_move_facing_is_normalised() -> None:
    assert Move("p1", ((1, 1),), 450).facing == 90
