"""Independent sets that an ``[[end]]`` stops: how many times each player's set was performed.

With format 2's ``[[end]]`` tables the sets are run by the engine (rulesets/scenario.py
``LoopFacts.end_with_counts``).  Where the loop stops at ``n`` whole iterations and ``k`` steps,
a set still running counts that last iteration once its player's first choice (a 0-based step
index) is among the ``k`` steps performed, as at a cut (docs/FORMAT.md, independent loops;
tests/engine/test_loop_facts_counts.py); a set that had already run its own count keeps that count.
Every figure below is counted by hand, step by step.
"""

from __future__ import annotations

from helpers import scenario
from loopcompare.rulesets import UNBOUNDED
from loopcompare.rulesets.facts import facts_of

TWO_SETS = """
format = 2
title = "two sets, one end"
players = ["Alice", "Bob"]
[state]
x = {x}
y = 0
[[step]]
by = "Alice"
does = "Alice's action"
optional = true
add = {{ x = -1 }}
[[step]]
by = "Bob"
does = "Bob's action"
optional = true
add = {{ y = 1 }}
[[end]]
when = {end}
effect = "the loop ends"
[loop]
independent = true
"""

ON_X = '{ value = "x", at_most = 0 }'
ON_Y = '{ value = "y", at_least = 2 }'


def facts(x: int = 2, end: str = ON_X):
    return facts_of(scenario(TWO_SETS.format(x=x, end=end)).scenario)


def test_the_sets_are_run_by_the_engine_with_alice_first_then_bob():
    f = facts()
    assert f.sets_by_engine
    assert f.first_choice("Alice") == 0 and f.first_choice("Bob") == 1


def test_an_end_right_before_bobs_step_counts_alices_last_iteration_but_not_bobs():
    # x 2 -> 1 (Alice), y 0 -> 1 (Bob), x 1 -> 0 (Alice): the end holds after 1 iteration and
    # 1 step.  Alice acted in the second iteration, Bob had not yet.
    assert facts().end_with_counts({"Alice": 5, "Bob": 5}) == ({"Alice": 2, "Bob": 1}, {"x": 0, "y": 1})


def test_an_end_two_iterations_in_counts_each_set_it_reached():
    # x = 3: Alice brings it to 0 in the third iteration, at step 1 (2 iterations, 1 step).
    assert facts(3).end_with_counts({"Alice": 9, "Bob": 9}) == ({"Alice": 3, "Bob": 2}, {"x": 0, "y": 2})


def test_a_set_that_ran_its_own_count_before_the_end_keeps_that_count():
    # Bob stops after one iteration; Alice goes on to bring x to 0 in the third (position 5).
    assert facts(3).end_with_counts({"Alice": 9, "Bob": 1}) == ({"Alice": 3, "Bob": 1}, {"x": 0, "y": 1})
    # Bob's count reached exactly at the end of his second action: still his own count, 2.
    assert facts(3).end_with_counts({"Alice": 9, "Bob": 2}) == ({"Alice": 3, "Bob": 2}, {"x": 0, "y": 2})


def test_an_unbounded_set_is_counted_where_the_end_holds():
    assert facts(3).end_with_counts({"Alice": UNBOUNDED, "Bob": UNBOUNDED}) == (
        {"Alice": 3, "Bob": 2},
        {"x": 0, "y": 2},
    )


def test_an_end_at_the_last_step_of_an_iteration_counts_whole_iterations():
    # y reaches 2 at Bob's second action: 2 whole iterations, 0 steps.  x 9 -> 7.
    assert facts(9, ON_Y).end_with_counts({"Alice": 5, "Bob": 5}) == ({"Alice": 2, "Bob": 2}, {"x": 7, "y": 2})


def test_no_end_before_the_sets_run_out_is_none():
    # Alice acts once: x 2 -> 1, never 0.
    assert facts().end_with_counts({"Alice": 1, "Bob": 5}) is None


def test_an_ends_when_bound_is_met_by_reaching_it_and_never_by_an_unbounded_value():
    # Format 1's ``ends_when`` check (rulesets/additive.py ``_holds``): inclusive at the bound,
    # either direction, and an unbounded value (the "never" of an arbitrarily large count) meets
    # no bound at all, not even "at least".
    from loopcompare.rulesets.additive import _holds
    from loopcompare.rulesets.scenario import EndsWhen

    at_most, at_least = _holds(EndsWhen("x", 0, True)), _holds(EndsWhen("x", 0, False))
    assert at_most(0) and at_most(-1) and not at_most(1)
    assert at_least(0) and at_least(1) and not at_least(-1)
    assert at_most(UNBOUNDED) is False and at_least(UNBOUNDED) is False
