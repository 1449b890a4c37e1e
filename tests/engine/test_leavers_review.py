"""A review of the places where a player who has left the game (FORMAT item 6: "When a player
leaves, their steps drop out") could still be treated as present, or a present player as gone.

Each test names the FORMAT item or rule that makes its expected value right.  The lead's first
two fixes of this kind (``last_action``, a leaver's set count) are pinned in
tests/engine/test_players_who_left.py; these are the others the review found.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

# --- 421.3's last word when the other involved player has left ------------------------------------

LAST_WORD = """
format = 2
title = "Alice and Bob each keep the loop going; Bob pays life for his part until he loses"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 20, Bob = 3, Carol = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's first optional action"
optional = true
add = {n = 1}

[[step]]
by = "Bob"
does = "Bob pays 1 life"
optional = true
add = {life = -1}
target = {among = ["Bob"], order = "fixed"}

[[step]]
by = "Alice"
does = "Alice's second optional action"
optional = true

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = 10
Bob = "never"
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_a_player_who_left_has_no_last_word(key):
    """421.3 (2005, 2008; "extended to all applicable players"): Alice names 10, Bob agrees, so
    the loop runs 10 times "plus whatever fraction is necessary for the second player to have the
    last word".  Bob leaves after his third payment (2, 2): from then on his steps drop out
    (FORMAT item 6), so no fraction can give him the last word.  Stopping at (10, 2), after
    Bob's step on paper, had Alice take her first optional action an 11th time (n = 11) for a
    last word nobody spoke, and the transcript said "Alice has acted last and Alice, next to act,
    does something different".  The fraction is zero: Alice stops at her own point (10, 0)."""
    outcome = registry().get(key).settle(scenario(LAST_WORD).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Bob", 2, 2)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (10, 0, "Alice")
    assert outcome.state["n"] == 10
    assert not any("Alice has acted last and Alice" in line for line in outcome.transcript)
    assert any("no fraction can give them the last word" in n for n in outcome.notes)


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_before_the_other_player_leaves_the_last_word_is_theirs(key):
    """The same loop, Alice naming 1: Bob is still in the game after one iteration, so the
    fraction gives him the last word, as before: Alice stops after his step, at (1, 2)."""
    outcome = registry().get(key).settle(scenario(LAST_WORD.replace("Alice = 10", "Alice = 1")).scenario)
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (1, 2, "Alice")
    assert outcome.last_action == "Bob"
    assert outcome.eliminated == ()


# --- a leaver's set in the MTR's per-player counts -------------------------------------------------

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
Bob = BOB
Carol = 12
"""


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
@pytest.mark.parametrize("bob", [8, 56])
def test_a_leavers_set_is_counted_whoever_then_has_the_lowest_number(key, bob):
    """FORMAT item 6 and the outcome's ``iterations`` as ``{player: count}`` (one entry per set,
    tests/engine/test_players_who_left.py): Bob's set ran 6 iterations before he left.  With
    Bob's number 8 his own point comes after he has left, so the procedure is applied again
    among Alice and Carol (docs/READINGS.md) and Carol's 12 cuts, exactly as with Bob's 56.  The
    play is the same, so the counts are: Bob's set was left out of them with 8."""
    outcome = registry().get(key).settle(scenario(SETS.replace("BOB", str(bob))).scenario)
    assert outcome.iterations == {"Alice": 13, "Bob": 6, "Carol": 12}
    assert (outcome.steps, outcome.deviates) == (4, "Carol")
