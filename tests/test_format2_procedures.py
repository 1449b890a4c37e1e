"""Format 2 and the eras' procedures: players who leave a multiplayer game during a loop they
help maintain (FORMAT item 6,
docs/READINGS.md "Format 2 review").

When the player a procedure relied on to stop the loop leaves the game before their point and
other involved players remain, the procedure is applied again among the players left: the
leaver's number no longer counts, the turn order skips them, and the loop goes on to the next
stop of a player still in the game.
"""

from __future__ import annotations

import pytest

from conftest import scenario
from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import CutPoint

SHORTCUT_ERAS = ["cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "cr-2024", "mtr-2018", "mtr-current"]

# Alice drains Bob, Carol, Dave in turn; Bob (3 life) loses after 6 iterations and 1 step.
# Bob and Carol each keep the loop going with an optional step of their own.
TWO_MAINTAINERS = """
format = 2
title = "two maintainers, one leaves"
players = ["Alice", "Bob", "Carol", "Dave"]
[state]
life = {{ Alice = 20, Bob = 3, Carol = 100, Dave = 100 }}
[[step]]
by = "Alice"
does = "drain the next opponent"
target = {{ among = ["Bob", "Carol", "Dave"], order = "rotate" }}
add = {{ life = -1 }}
[[step]]
by = "Bob"
does = "Bob untaps the engine"
optional = true
[[step]]
by = "Carol"
does = "Carol untaps the engine"
optional = true
[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "that player loses the game"
loses = true
[intent]
Bob = {bob}
Carol = {carol}
"""


def settle(key: str, bob: object, carol: object):
    return registry().get(key).settle(scenario(TWO_MAINTAINERS.format(bob=bob, carol=carol)).scenario)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_the_procedure_is_applied_again_among_the_players_left_when_the_first_to_stop_leaves(key):
    out = settle(key, 10, 20)
    assert out.result.value == "shortcut"
    assert (out.deviates, out.iterations, out.steps) == ("Carol", 20, 2)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 6, 1)]
    # Carol was hit on iterations 1, 4, ..., 19 (seven times) by the time she stops.
    assert out.to_json()["state"]["life"]["Carol"] == 91
    assert any("applied again among the players still in the game" in n for n in out.notes)
    assert any("procedure is applied again among them" in line for line in out.transcript)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_player_who_left_is_not_asked_again(key):
    out = settle(key, 10, 20)
    again = next(i for i, line in enumerate(out.transcript) if "applied again among them" in line)
    assert not any("Bob" in line for line in out.transcript[again + 1 :])


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_when_the_remaining_player_never_stops_the_loop_runs_until_the_opponents_are_gone(key):
    # Carol never stops: after Bob leaves, Alice drains Carol and Dave until one of them is out.
    out = settle(key, 10, '"never"')
    assert out.result.value == "ends"
    assert out.deviates is None
    # Before Bob leaves, Carol is hit on iterations 1 and 4, Dave on 2 and 5; then they alternate
    # from iteration 7 (Carol) and 8 (Dave): 98 more hits each.
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 6, 1), ("Carol", 201, 1), ("Dave", 202, 1)]
    assert (out.iterations, out.steps) == (202, 1)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_leaver_who_stops_before_leaving_is_unaffected(key):
    # Bob stops after 2 iterations, long before he would lose: nobody leaves.
    out = settle(key, 2, 20)
    assert (out.deviates, out.iterations, out.steps) == ("Bob", 2, 1)
    assert out.eliminated == ()
    assert not any("applied again" in n for n in out.notes)


def test_the_facts_among_the_players_left_skip_the_leaver_and_keep_the_loop():
    sc = scenario(TWO_MAINTAINERS.format(bob=10, carol=20)).scenario
    facts = sc.facts
    left = facts.among(frozenset({"Bob"}))
    assert left.turn_order == ("Alice", "Carol", "Dave")
    assert left.players_after("Alice") == ("Carol", "Dave")
    assert left.optional_controllers == ("Carol",)
    assert left.deviation_point("Bob") is None
    assert left.deviation_point("Carol") == CutPoint(20, 2)
    # The loop itself is shared: the same eliminations at the same positions.
    assert left.eliminations_until(CutPoint(30, 0)) == facts.eliminations_until(CutPoint(30, 0))
    # The original facts are untouched.
    assert facts.turn_order == ("Alice", "Bob", "Carol", "Dave")
    assert facts.optional_controllers == ("Bob", "Carol")


INDEPENDENT_PER_PLAYER = """
format = 2
title = "independent sets with per-player life"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 20, Bob = 5, Carol = 5 }
tokens = 0
[loop]
independent = true
[[step]]
by = "Alice"
does = "Alice pings Bob"
optional = true
target = { among = ["Bob"], order = "fixed" }
add = { life = -1 }
[[step]]
by = "Bob"
does = "Bob makes a token"
optional = true
add = { tokens = 1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[intent]
Alice = 10
Bob = 3
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_sets_run_their_own_counts_with_format_2_values_are_unspecified_not_a_crash(key):
    # These eras give each independent set its own number; with per-player values the closed
    # form for such sets is not built: an honest 'unspecified' with the reason, not a traceback
    # nor format 1's arithmetic applied to a table of life totals.
    out = registry().get(key).settle(scenario(INDEPENDENT_PER_PLAYER).scenario)
    assert out.result.value == "unspecified"
    assert any("per-player values" in n and "not built" in n for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2009-09", "cr-2024", "mtr-current"])
def test_eras_with_one_cut_settle_independent_format_2_loops(key):
    out = registry().get(key).settle(scenario(INDEPENDENT_PER_PLAYER).scenario)
    assert out.result.value == "shortcut"
    assert (out.deviates, out.steps) == ("Bob", 1)
    # Bob stops after 3 iterations and 1 step: Alice has pinged him 4 times.
    assert out.to_json()["state"]["life"]["Bob"] == 1


# A loop of mandatory actions that only Carol's breaker could stop; Carol (2 life) loses first.
BREAKER_LEAVES = """
format = 2
title = "the only one with a way out leaves"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 20, Bob = 100, Carol = 2 }
[[step]]
by = "Alice"
does = "drain each opponent"
target = { among = ["Bob", "Carol"], order = "each" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[[breaker]]
by = "Carol"
does = "destroys the engine"
[intent]
Carol = 10
"""


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_breaker_who_leaves_before_using_it_leaves_a_mandatory_loop_among_the_rest(key):
    # Used to raise ValueError (max() of no involved players) when the stop was a breaker's.
    out = registry().get(key).settle(scenario(BREAKER_LEAVES).scenario)
    assert out.deviates is None
    assert out.result.value == "ends"
    # Carol's second hit ends iteration 1 (counted as after 2 iterations, FORMAT item 4); Bob's 100th.
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Carol", 2, 0), ("Bob", 100, 0)]
    assert any("applied again among the players still in the game" in n for n in out.notes)
