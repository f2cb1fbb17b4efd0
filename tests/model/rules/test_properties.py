"""Properties that must hold for any dice: circumstances never help the wrong side."""

from hypothesis import given, settings
from hypothesis import strategies as st

from crdesk.dice import ScriptedDice
from crdesk.model import Status
from crdesk.odds import fire_odds, melee_odds
from crdesk.rules.melee import Fighter
from crdesk.rules.reaction import ReactingFigure, ReactionTest, reaction_test
from crdesk.rules.shooting import TargetSpec, fire
from crdesk.rules.stars import reduce_damage

faces = st.integers(1, 6)
reps = st.integers(2, 6)
RF, MD = ReactionTest.RECEIVED_FIRE, ReactionTest.MAN_DOWN


@settings(max_examples=150, deadline=None)
@given(st.lists(faces, min_size=12, max_size=12), st.integers(4, 6), st.booleans())
def test_cover_never_adds_hits(script, rep, prone):
    open_ = fire(ScriptedDice(script), rep, "SAW", [TargetSpec(prone=prone)])
    cover = fire(ScriptedDice(script), rep, "SAW", [TargetSpec(prone=prone, in_cover=True)])
    assert cover.targets[0].hits <= open_.targets[0].hits
    assert cover.out_of_ammo == open_.out_of_ammo


@settings(max_examples=150, deadline=None)
@given(st.lists(faces, min_size=4, max_size=4), reps, st.booleans(), st.booleans())
def test_outgunned_and_second_cause_never_improve_a_reaction(script, rep, cover, leader):
    kw = {"leader_rep": 5 if leader else None}

    def status(tests, outgunned=False):
        fig = ReactingFigure("A", rep, in_cover=cover, outgunned=outgunned)
        return reaction_test(ScriptedDice(script), [fig], tests, **kw).figures[0].status

    assert status((RF,), outgunned=True).rank >= status((RF,)).rank
    both = status((RF, MD))
    assert both.rank == max(status((RF,)).rank, status((MD,)).rank)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from([Status.OBVIOUSLY_DEAD, Status.OUT_OF_THE_FIGHT]), min_size=1),
    st.integers(0, 8),
)
def test_star_power_never_worsens_and_keeps_the_count(damage, n):
    after = reduce_damage(damage, n)
    assert len(after) == len(damage)
    assert sorted(s.rank for s in after) <= sorted(s.rank for s in damage)
    assert max(s.rank for s in after) <= max(s.rank for s in damage)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 6),
    st.sampled_from(["AR", "P", "SAR", "SAW", "SMG", "BAR", "MP"]),
    st.booleans(),
    st.booleans(),
    reps,
)
def test_fire_odds_partition(rep, weapon, cover, rush, target_rep):
    odds = fire_odds(rep, weapon, [TargetSpec("A", target_rep, in_cover=cover)], rush_shot=rush)
    t = odds.targets[0]
    assert t.miss + t.duck_back + t.out_of_the_fight + t.obviously_dead == 1
    assert 0 <= odds.out_of_ammo <= 1


@settings(max_examples=20, deadline=None)
@given(reps, reps)
def test_melee_odds_partition(ra, rb):
    odds = melee_odds(Fighter("A", ra), Fighter("B", rb))
    assert odds.a_wins + odds.b_wins == 1
    if ra > rb:
        assert odds.a_wins > odds.b_wins
