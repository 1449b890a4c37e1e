"""Independent sets counted at a cut point (rulesets/scenario.py ``LoopFacts.counts_at``).

A player's set has been performed once more than the cut's whole iterations when the cut comes
after that player's first choice in the iteration (docs/FORMAT.md, independent loops).  Pinned
here by name, so a changed count fails a test that says what broke (README, "Mutation testing").
"""

from __future__ import annotations

from helpers import scenario
from loopcompare.rulesets import UNBOUNDED, CutPoint
from loopcompare.rulesets.facts import facts_of

TWO_SETS = """
title = "two independent sets"
players = ["Alice", "Bob"]
[state]
a = 0
b = 0
[[step]]
by = "Alice"
does = "Alice's action"
optional = true
add = { a = 1 }
[[step]]
by = "Bob"
does = "Bob's action"
optional = true
add = { b = 1 }
[loop]
independent = true
"""


def facts():
    return facts_of(scenario(TWO_SETS).scenario)


def test_a_set_whose_first_choice_comes_before_the_cut_counts_that_iteration():
    f = facts()
    assert f.first_choice("Alice") == 0 and f.first_choice("Bob") == 1
    assert f.counts_at(CutPoint(3, 1), ["Alice", "Bob"]) == {"Alice": 4, "Bob": 3}


def test_a_cut_at_the_start_of_an_iteration_counts_whole_iterations_only():
    assert facts().counts_at(CutPoint(3, 0), ["Alice", "Bob"]) == {"Alice": 3, "Bob": 3}


def test_an_unbounded_cut_counts_unbounded():
    assert facts().counts_at(CutPoint(UNBOUNDED, 1), ["Alice", "Bob"]) == {"Alice": UNBOUNDED, "Bob": UNBOUNDED}
