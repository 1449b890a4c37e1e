"""An adversarial review of format 2 (docs/FORMAT.md "Format 2 details"): each test pins one rule
that the engine got wrong at first, with the scenario worked out by hand from the spec."""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry
from loopcompare.rulesets.bignum import parse, power_value

KEYS = ["cr-2004", "cr-2008", "cr-2024", "mtr-current"]


def settle(key: str, toml: str):
    return registry().get(key).settle(scenario(toml).scenario)


BOTH_LOSE = """
format = 2
title = "everyone loses at once"
players = ["Alice", "Bob"]
[state]
life = { Alice = 3, Bob = 3 }
[[step]]
by = "Alice"
does = "activates"
optional = true
[[step]]
by = "Bob"
does = "each player loses 1 life"
target = { among = ["Alice", "Bob"], order = "each" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses"
loses = true
[intent]
Alice = "never"
"""


@pytest.mark.parametrize("key", KEYS)
def test_cr_104_4a_all_remaining_players_losing_at_once_is_a_draw(key):
    # FORMAT item 6: "All remaining players at once: the game is a draw (CR 104.4a)."
    out = settle(key, BOTH_LOSE)
    assert out.result.value == "draw"
    assert (out.iterations, out.steps) == (3, 0)
    assert [e.player for e in out.eliminated] == ["Alice", "Bob"]
    assert out.state["life"] == {"Alice": 0, "Bob": 0}
    assert out.ended_by == "that player loses"
    assert out.expected_iterations is None


TIMES_REQUIREMENT = """
format = 2
title = "a requirement failing inside a times step"
players = ["Alice", "Bob"]
[state]
mana = {{ start = 7, min = 0 }}
tokens = 0
[[step]]
by = "Alice"
does = "untaps a land"
add = {{ mana = 1 }}
[[step]]
by = "Alice"
does = "pays 2 for a token, three times"
times = 3
{optional}
requires = {{ mana = 2 }}
add = {{ mana = -2, tokens = 1 }}
[[step]]
by = "Alice"
does = "goes on"
optional = true
[intent]
Alice = "never"
"""


@pytest.mark.parametrize("optional", ["", "optional = true"])
def test_requirement_inside_times_keeps_the_applications_already_performed(optional):
    # FORMAT items 2 and 4: requires is checked per application; the stop is reported *at* the step
    # (steps = j) but the first application of iteration 1 was performed: 7+1-6 = 2, +1 = 3, -2 = 1.
    out = settle("cr-2024", TIMES_REQUIREMENT.format(optional=optional))
    assert (out.iterations, out.steps) == (1, 1)
    assert out.state == {"mana": 1, "tokens": 4}
    assert any("application 2 of 3" in line for line in out.transcript)


def test_huge_exponent_with_hundreds_of_digits_does_not_overflow():
    # FORMAT item 14: integers up to 1,000 digits anywhere, so an exponent of 3^1000 must work exactly.
    value = power_value(1, 2, 3**1000, -1)
    assert value.plain() == "2^(9^500)-1"
    assert parse(value.plain()) == value


@pytest.mark.parametrize(
    "args, text",
    [
        ((2, 2, 10**100), "2*2^(10^100)"),  # not 2^( a 101-digit exponent )
        ((1024, 2, 10**100), "1024*2^(10^100)"),
        ((3, 3, 10**100, -1, 2), "(3*3^(10^100)-1)/2"),
        ((3, 2, 10**100, -1), "3*2^(10^100)-1"),  # FORMAT's own example is unchanged
        ((1, 2, 2**64), "2^(2^64)"),  # 2^64 and 4^32 are equally short: the smallest A
        ((1, 2, 2**100), "2^(4^50)"),  # 4^50 is shorter than 2^100
    ],
)
def test_huge_values_are_written_with_the_shortest_exponent(args, text):
    # FORMAT item 14: E in its shortest exact form; C may keep powers of M when that makes E short.
    value = power_value(*args)
    assert value.plain() == text
    assert parse(text) == value


ONLY_INVOLVED_LEAVES = """
format = 2
title = "the only involved player leaves"
players = ["Alice", "Bob", "Carol"]
[state]
life = {{ Alice = 2, Carol = {carol} }}
[[step]]
by = "Alice"
does = "Alice activates"
optional = true
[[step]]
by = "Bob"
does = "Bob's trigger: target player loses 1 life"
target = {{ among = ["Alice", "Carol"], order = "rotate" }}
add = {{ life = -1 }}
[[step]]
by = "Bob"
does = "Carol gains {gain} life"
target = {{ among = ["Carol"], order = "fixed" }}
add = {{ life = {gain} }}
[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "that player loses"
loses = true
[intent]
Alice = "never"
"""


@pytest.mark.parametrize("key", KEYS)
def test_when_the_only_involved_player_leaves_the_rest_is_a_mandatory_loop(key):
    # FORMAT item 6: "if the leaver was the only involved player, the rest is a mandatory loop".
    # Alice (2 life) is hit in iterations 0 and 2 and leaves after Bob's step 1 of iteration 2; then
    # Carol loses 1 and gains 1 forever: only mandatory actions are left, so the game is a draw.
    out = settle(key, ONLY_INVOLVED_LEAVES.format(carol=50, gain=1))
    assert out.result.value == "draw"
    assert out.deviates is None
    assert (out.iterations, out.steps) == (2, 2)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Alice", 2, 2)]
    assert any("mandatory loop among the players left" in n for n in out.notes)


@pytest.mark.parametrize("key", KEYS)
def test_a_mandatory_rest_with_an_end_runs_to_it(key):
    # FORMAT item 6: after the only involved player leaves, the mandatory rest runs to its end:
    # Carol (5 life) loses 1 in iterations 1, 3, 4, 5 and 6 (at step 1): she leaves, Bob is the last player.
    out = settle(key, ONLY_INVOLVED_LEAVES.format(carol=5, gain=0))
    assert out.result.value == "ends"
    assert [e.player for e in out.eliminated] == ["Alice", "Carol"]
    assert (out.iterations, out.steps) == (6, 2)


def test_ended_by_for_a_failed_requirement_writes_n_as_in_the_file():
    # FORMAT item 8: ended_by is "requires NAME >= N: " + does; N plain (1000, not 1,000).
    toml = """
format = 2
title = "a big requirement"
players = ["Alice", "Bob"]
[state]
mana = { start = 2500, min = 0 }
[[step]]
by = "Alice"
does = "pays 1000"
requires = { mana = 1000 }
add = { mana = -1000 }
"""
    out = settle("cr-2024", toml)
    assert out.result.value == "ends"
    assert out.ended_by == "requires mana >= 1000: pays 1000"
    assert (out.iterations, out.steps, out.state["mana"]) == (2, 0, 500)
