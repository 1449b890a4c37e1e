"""The ruleset driver (rulesets/base.py): loops that end by themselves, whatever the procedure.

"If a loop will end, the game will run it to completion" (Rules Summary G.21, 1998): every era
runs such a loop to its end when the end comes before the cut the procedure gives.  With
independent sets the readings are in README, "The rulesets": the sets run side by side, a set
drops out once it has run its own number of times, and the end is where the sets still running
first make the bound hold.
"""

from __future__ import annotations

import pytest

from helpers import noted, settle

ERAS_421 = ("cr-2004", "cr-2005", "cr-2008")


def fields(outcome) -> dict:
    return {name: outcome.value(name) for name in ("result", "iterations", "steps", "deviates", "last_action", "state")}


# The oracle's counterexample (tests/engine/test_oracle.py, BUG-4): with both sets running x goes 1, 2, 1,
# 2, ... and never reaches 0; but Alice's number is 0, so her set never runs, and Bob's first
# action takes x to 0.
ONLY_WITHOUT_ALICES_SET = """
title = "Bob's set alone reaches the bound"
players = ["Alice", "Bob"]
[state]
x = 1
[loop]
independent = true
ends_when = { value = "x", at_most = 0 }
[intent]
Alice = 0
[[step]]
by = "Alice"
does = "adds 1"
optional = true
add = { x = 1 }
[[step]]
by = "Bob"
does = "subtracts 1"
optional = true
add = { x = -1 }
"""


@pytest.mark.parametrize("key", ERAS_421)
def test_independent_sets_end_when_the_sets_still_running_reach_the_bound(key):
    # 421.5: each set its own number; Alice's is 0, Bob's unbounded.  The loop ends by itself at
    # Bob's first action, never "an unbounded number" of them.
    outcome = settle(key, ONLY_WITHOUT_ALICES_SET)
    assert fields(outcome) == {
        "result": "ends", "iterations": {"Alice": 0, "Bob": 1}, "steps": 0, "deviates": None,
        "last_action": None, "state": {"x": 0},
    }
    noted(outcome, "With every set running the loop would never end")
    noted(outcome, "side by side")
    # No 421 text has a rule for loops that end by themselves: the line cites 421.1, what a loop is.
    assert outcome.transcript[-1].startswith("421.1: the loop is not endless: while the independent sets run their own numbers, it ends by itself (x reaches its bound)")
    assert outcome.rules == ("421.1",)


def test_independent_sets_that_end_by_themselves_say_how_the_loop_ends():
    named = ONLY_WITHOUT_ALICES_SET.replace("[intent]", 'ends_with = "Bob loses the game"\n[intent]')
    outcome = settle("cr-2008", named)
    assert outcome.value("result") == "ends"
    assert "it ends by itself (Bob loses the game)" in outcome.transcript[-1]


@pytest.mark.parametrize("key", ERAS_421)
def test_independent_sets_that_never_reach_the_bound_keep_their_numbers(key):
    # The same loop with Alice's set running as long as Bob's: x never reaches 0.
    outcome = settle(key, ONLY_WITHOUT_ALICES_SET.replace("Alice = 0", 'Alice = "never"'))
    assert outcome.value("result") == "shortcut"
    assert outcome.value("iterations") == {"Alice": "unbounded", "Bob": "unbounded"}


# Three players, each with a set; only Bob's lowers x.  Alice stops after one iteration; in the
# third iteration Bob's action takes x to 0, before Carol's action of that iteration.
THREE_SETS = """
title = "Bob's set reaches the bound between the others' actions"
players = ["Alice", "Bob", "Carol"]
[state]
x = 3
[loop]
independent = true
ends_when = { value = "x", at_most = 0 }
[intent]
Alice = 1
[[step]]
by = "Alice"
does = "makes a token"
optional = true
[[step]]
by = "Bob"
does = "drains 1"
optional = true
add = { x = -1 }
[[step]]
by = "Carol"
does = "gains 1 life"
optional = true
"""


def test_independent_sets_ended_after_one_stopped_report_each_sets_own_count():
    # 421.5 (2008): each set its own number.  Played side by side: Alice, Bob (x 2), Carol; then
    # Alice has stopped: Bob (x 1), Carol; Bob (x 0): the end.  Alice acted once, Bob three
    # times, Carol twice (her third action never came).
    outcome = settle("cr-2008", THREE_SETS)
    assert outcome.value("result") == "ends"
    assert outcome.value("iterations") == {"Alice": 1, "Bob": 3, "Carol": 2}
    assert outcome.value("state") == {"x": 0}


def test_independent_sets_that_reach_the_bound_while_all_run_end_at_a_single_cut():
    # Alice stops only after 5 iterations; Bob's third action, in the third iteration, takes x
    # to 0 while every set still runs: the loop's own end, a single cut point.
    outcome = settle("cr-2008", THREE_SETS.replace("Alice = 1", "Alice = 5"))
    assert fields(outcome) == {
        "result": "ends", "iterations": 2, "steps": 2, "deviates": None, "last_action": "Bob", "state": {"x": 0},
    }


# --- a cut the end comes before ---------------------------------------------------------------------

DRAIN_BEFORE_BOB_STOPS = """
title = "Alice's trigger drains Bob, who means to stop after 5"
players = ["Alice", "Bob"]
[state]
bob_life = 2
[loop]
ends_when = { value = "bob_life", at_most = 0 }
ends_with = "Bob loses the game"
[intent]
Alice = 5
[[step]]
by = "Alice"
does = "activates her ability"
optional = true
[[step]]
by = "Alice"
does = "her trigger drains Bob for 1"
add = { bob_life = -1 }
"""


@pytest.mark.parametrize("key", ("cr-2004", "cr-2008", "cr-2024", "mtr-current"))
def test_a_loop_that_ends_before_its_cut_says_who_would_have_stopped_it_and_when(key):
    outcome = settle(key, DRAIN_BEFORE_BOB_STOPS)
    assert fields(outcome) == {
        "result": "ends", "iterations": 2, "steps": 0, "deviates": None, "last_action": "Alice", "state": {"bob_life": 0},
    }
    noted(outcome, "Had the loop not ended, Alice would have stopped it after 5 iterations")


@pytest.mark.parametrize("key", ("cr-2004", "cr-2008", "cr-2024", "mtr-current"))
def test_a_loop_that_ends_before_an_unbounded_cut_says_the_stop_would_have_come_later(key):
    outcome = settle(key, DRAIN_BEFORE_BOB_STOPS.replace("Alice = 5", 'Alice = "never"'))
    assert outcome.value("result") == "ends"
    noted(outcome, "Had the loop not ended, Alice would have stopped it")


def test_a_cut_before_the_end_stands():
    outcome = settle("cr-2024", DRAIN_BEFORE_BOB_STOPS.replace("Alice = 5", "Alice = 1").replace("bob_life = 2", "bob_life = 3"))
    assert outcome.value("result") == "shortcut"
    assert outcome.value("iterations") == 1 and outcome.value("state") == {"bob_life": 2}
    assert not any("Had the loop not ended" in note for note in outcome.notes)
