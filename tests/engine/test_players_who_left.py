"""A player who has left the game performs no more loop actions: their steps drop out (FORMAT
item 6).  So they can't be ``last_action`` (who performed the last loop action before the cut), and
their independent set's count (``iterations`` as ``{player: count}``, "complete iterations performed
before the cut") stops where they left.

Before this was pinned, the outcome named the controller of the step written just before the
cut, even when that player had left iterations earlier: a three-player loop where Bob pays life
each iteration until he loses, and Alice goes on alone, gave ``last_action = "Bob"`` after Bob was
gone.  The closed form (``LoopFacts.last_performed_before``) is checked against playing the loop
out position by position (tests/support/oracle.py's naive player) on generated loops.  The same
mistake counted a leaver's set on to the cut: Bob, gone after 6 iterations, had performed 13.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from helpers import scenario
from loopcompare.rulesets import UNBOUNDED, CutPoint, registry
from loopcompare.rulesets.facts import facts_of
from loopcompare.rulesets.scenario import End, Scenario, Step, Target

ALL = [r.key for r in registry().rulesets]

BOB_PAYS = """
format = 2
title = "Bob pays 1 life each iteration until he loses; Alice goes on"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 20, Bob = 3, Carol = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's optional trigger"
optional = true
add = {n = 1}

[[step]]
by = "Bob"
does = "Bob pays 1 life"
add = {life = -1}
target = {among = ["Bob"], order = "fixed"}

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = 10
"""


@pytest.mark.parametrize("key", ALL)
def test_a_player_who_left_has_not_acted_last(key):
    outcome = registry().get(key).settle(scenario(BOB_PAYS).scenario)
    # Bob leaves at (3, 0); Alice's cut after 10 iterations follows Bob's step only on paper.
    assert [e.player for e in outcome.eliminated] == ["Bob"]
    assert outcome.iterations == 10 and outcome.steps == 0
    assert outcome.last_action == "Alice"


def test_before_the_player_leaves_their_step_is_still_the_last():
    facts = facts_of(scenario(BOB_PAYS).scenario)
    assert facts.last_performed_before(CutPoint(2, 0)).by == "Bob"  # Bob is still in the game
    assert facts.last_performed_before(CutPoint(3, 0)).by == "Bob"  # his third payment made him lose
    assert facts.last_performed_before(CutPoint(4, 0)).by == "Alice"
    assert facts.last_performed_before(CutPoint(UNBOUNDED, 0)).by == "Alice"
    assert facts.last_performed_before(CutPoint(0, 0)) is None


def _generated(rng: random.Random) -> Scenario:
    """Steps by random players, some hurting their own controller or another player, with life
    ends that make players lose: players leave at various points, their steps dropping out."""
    players = ("A", "B", "C", "D")[: rng.randint(3, 4)]
    steps = []
    for i in range(rng.randint(2, 5)):
        by = rng.choice(players)
        if rng.random() < 0.6:
            # several targets, so that the step still has someone to affect once one has left
            among = tuple(rng.sample(players, rng.randint(2, len(players))))
            steps.append(Step(by, f"s{i}", optional=i == 0, add={"life": -rng.randint(1, 2)},
                              target=Target(among, rng.choice(("fixed", "each", "rotate"))), times=rng.choice((1, 1, 2))))
        else:
            steps.append(Step(by, f"s{i}", optional=i == 0, add={"n": 1}))
    state = {"n": 0, "life": {p: rng.randint(1, 9) for p in players}}
    ends = (End("life", 0, True, "loses", loses_each=True),)
    return Scenario("generated", players, tuple(steps), state=state, format=2, ends=ends)


def _naive_last(sc: Scenario, position: int) -> str | None:
    """Play to ``position``; then look back for the last step whose controller was still there."""
    left = dict(oracle.play_format2(sc, position)["eliminated"])  # player -> the position they left at
    for q in range(position - 1, -1, -1):
        step = sc.steps[q % len(sc.steps)]
        if step.by not in left or left[step.by] > q:
            return step.by
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_the_closed_form_agrees_with_playing_it_out(seed):
    sc = _generated(random.Random(seed))
    facts = facts_of(sc)
    stop = facts.dynamics.natural.stop
    last = stop.position if stop is not None else 40
    for position in range(min(last, 40) + 1):
        step = facts.last_performed_before(facts.point(position))
        assert (step.by if step else None) == _naive_last(sc, position), position


SETS = """
format = 2
title = "Three independent drains; Bob is drained out after 6 iterations"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 37, Bob = 10, Carol = 25}

[[step]]
by = "Alice"
does = "acts"
optional = true

[[step]]
by = "Alice"
does = "drains"
add = {life = -1}
target = {among = ["Bob", "Carol"], order = "rotate"}

[[step]]
by = "Bob"
does = "acts"
optional = true

[[step]]
by = "Bob"
does = "drains"
add = {life = -1}
target = {among = ["Alice", "Carol"], order = "rotate"}

[[step]]
by = "Carol"
does = "acts"
optional = true

[[step]]
by = "Carol"
does = "drains"
add = {life = -1}
target = {among = ["Alice", "Bob"], order = "each"}

[loop]
independent = true

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = "never"
Bob = 56
Carol = 12
"""


def _sets(key):
    return registry().get(key).settle(scenario(SETS).scenario)


def test_bob_leaves_after_six_iterations():
    # Bob, at 10: Carol's drain hits him every iteration, Alice's every other one (from the
    # first): 8, 7, 5, 4, 2, 1, then Alice's drain of iteration 6 (step 2 done) takes him to 0.
    outcome = _sets("mtr-current")
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Bob", 6, 2)]


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
def test_at_a_single_cut_a_leavers_set_counts_what_it_performed(key):
    # The lowest number, Carol's 12, cuts at Carol's point after 12 iterations (12, 4): Alice's
    # set has begun its 13th iteration, Carol's has run 12; Bob's ran 6 before he left, not 13.
    outcome = _sets(key)
    assert outcome.iterations == {"Alice": 13, "Bob": 6, "Carol": 12}
    assert outcome.last_action == "Alice"  # steps 3 and 4 are Bob's: he is gone


@pytest.mark.parametrize("key", ["cr-2008", "cr-2009", "cr-2024"])
def test_sets_that_run_their_own_counts_stop_counting_a_leaver(key):
    # Each set its own number: Carol's 12, Alice and Bob on; Carol is drained out at (25, 2) and
    # Alice alone is left.  Bob's set ran 6 iterations, not 25.
    outcome = _sets(key)
    assert outcome.result.value == "ends"
    assert outcome.iterations == {"Alice": 26, "Bob": 6, "Carol": 12}
