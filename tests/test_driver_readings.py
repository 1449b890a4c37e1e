"""The readings the Ruleset driver (rulesets/base.py) takes where every era's text is silent,
each pinned by its own test: who is taken to sustain a repetition inside one resolution, and
how the rest of a loop is settled once every player who maintained it has left the game."""

from __future__ import annotations

import pytest

from conftest import scenario
from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import UNBOUNDED

RESOLUTION = """
format = 2
title = "a repetition inside one resolution"
players = ["Alice", "Bob"]
[loop]
within = "resolution"
[state]
x = 0
[[step]]
by = "{first}"
does = "chooses to repeat the process"
choice = true
optional = true
add = {{ x = 1 }}
[[step]]
by = "Bob"
does = "chooses again"
choice = true
optional = true
[intent]
Alice = "never"
Bob = "never"
"""


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_choices_of_two_players_in_one_resolution_are_sustained_by_the_first_in_turn_order(key):
    out = registry().get(key).settle(scenario(RESOLUTION.format(first="Alice")).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", "Alice", UNBOUNDED, 0)
    assert any(n.startswith("Choices of Alice, Bob sustain this resolution; reading taken: the first in turn order, Alice,") for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_one_players_choices_in_one_resolution_need_no_reading_of_who_sustains_it(key):
    out = registry().get(key).settle(scenario(RESOLUTION.format(first="Bob")).scenario)
    assert (out.result.value, out.deviates) == ("shortcut", "Bob")
    assert not any(n.startswith("Choices of") for n in out.notes)


# Alice alone maintains the loop and means to stop after 4 iterations; Bob's triggers drain her
# (2 life, hit in iterations 0 and 2): she leaves after 2 iterations and 2 steps, before her
# point. Carol can destroy the trigger's source and means to after 5 iterations.
LEAVER_THEN_BREAKER = """
format = 2
title = "the only involved player leaves, then a breaker ends the rest"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 2, Carol = 50 }
[[step]]
by = "Alice"
does = "Alice activates"
optional = true
[[step]]
by = "Bob"
does = "Bob's trigger: target player loses 1 life"
target = { among = ["Alice", "Carol"], order = "rotate" }
add = { life = -1 }
[[step]]
by = "Bob"
does = "Carol gains 1 life"
target = { among = ["Carol"], order = "fixed" }
add = { life = 1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses"
loses = true
[[breaker]]
by = "Carol"
does = "Carol destroys the trigger's source"
[intent]
Alice = 4
Carol = 5
"""


@pytest.mark.parametrize("key", ["cr-2004", "cr-2008", "cr-2024", "mtr-current"])
def test_a_breaker_ends_the_mandatory_rest_left_when_its_only_maintainer_leaves(key):
    out = registry().get(key).settle(scenario(LEAVER_THEN_BREAKER).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", "Carol", 5, 0)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Alice", 2, 2)]
    assert any("the rest is a mandatory loop among the players left" in n for n in out.notes)
    # Alice has left: her number plays no part in the rest, and no note weighs it.
    assert not any(n.startswith("Alice means to stop") for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_the_procedure_applied_again_names_only_the_players_who_left(key):
    from test_format2_procedures import TWO_MAINTAINERS

    # Bob (3 life) means to stop after 10 but leaves after 6 iterations and 1 step; Carol's 20 stands.
    out = registry().get(key).settle(scenario(TWO_MAINTAINERS.format(bob=10, carol=20)).scenario)
    (note,) = [n for n in out.notes if "applied again among the players still in the game" in n]
    assert "in the game, without Bob, whose numbers no longer count" in note
    assert (out.deviates, out.iterations) == ("Carol", 20)
