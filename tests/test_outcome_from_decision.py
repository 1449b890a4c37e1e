"""How the driver fills an outcome's format 2 fields from a procedure's decision
(``Settlement.outcome``, ``ended_by``, ``_event_fields`` in rulesets/base.py), pinned one field
at a time against values worked out by hand from FORMAT.md."""

from __future__ import annotations

import pytest

from conftest import scenario
from loopcompare.rulesets import registry

MISSION = ["cr-2004", "cr-2008", "cr-2024", "mtr-current"]

COUNTDOWN = """
title = "a countdown"
players = ["Alice", "Bob"]
[state]
x = {start}
[loop]
ends_when = {{ value = "x", {bound} }}
[[step]]
by = "Alice"
does = "moves x"
optional = true
add = {{ x = {step} }}
"""

MANA = """
format = 2
title = "a token loop that runs out of mana"
players = ["Alice", "Bob"]
[state]
mana = {{ start = 7, min = 0 }}
tokens = 0
[[step]]
by = "Alice"
does = "pays {{2}}: create a token"
optional = true
requires = {{ mana = 2 }}
add = {{ mana = -2, tokens = 1 }}
{intent}
"""


@pytest.mark.parametrize("key", MISSION)
def test_an_end_without_an_effect_is_named_by_its_value_and_bound(key):
    # x falls 3, 2, 1, 0: the loop ends by itself after 3 iterations.
    out = registry().get(key).settle(scenario(COUNTDOWN.format(start=3, bound="at_most = 0", step=-1)).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("ends", 3, "x at most 0")
    out = registry().get(key).settle(scenario(COUNTDOWN.format(start=0, bound="at_least = 4", step=2)).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("ends", 2, "x at least 4")


@pytest.mark.parametrize("key", MISSION)
def test_a_loop_with_no_end_has_no_ended_by(key):
    text = COUNTDOWN.format(start=3, bound="at_most = 0", step=-1).replace('[loop]\nends_when = { value = "x", at_most = 0 }\n', "")
    text += '[intent]\nAlice = 2\n'
    out = registry().get(key).settle(scenario(text).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("shortcut", 2, None)


@pytest.mark.parametrize("key", MISSION)
def test_a_player_who_stops_before_their_requirement_fails_stops_by_intent(key):
    # 7 mana pays for three tokens; Alice means to stop after two: her intent, not the requirement.
    out = registry().get(key).settle(scenario(MANA.format(intent="[intent]\nAlice = 2")).scenario)
    assert (out.result.value, out.iterations, out.deviates, out.stopped_by.value) == ("shortcut", 2, "Alice", "intent")
    assert out.state == {"mana": 3, "tokens": 2}


@pytest.mark.parametrize("key", MISSION)
def test_a_player_stopped_where_their_requirement_fails_stops_by_requirement(key):
    for intent in ("", "[intent]\nAlice = 3", "[intent]\nAlice = 5"):
        out = registry().get(key).settle(scenario(MANA.format(intent=intent)).scenario)
        assert (out.result.value, out.iterations, out.deviates, out.stopped_by.value) == ("shortcut", 3, "Alice", "requirement"), intent
        assert out.state == {"mana": 1, "tokens": 3}


def test_an_outcome_the_text_leaves_unspecified_has_no_expected_length():
    # The 1998 Rules Summary has no rule for this random loop: no ends_early_if, no expectation,
    # though an event could end it (FORMAT item 10 gives them only to outcomes with a stop).
    text = """
format = 2
title = "a random loop"
players = ["Alice", "Bob"]
[state]
tokens = 0
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
[[step]]
by = "Bob"
does = "flips"
random = true
ends_loop = { when = "she loses a flip", chance = "1/2" }
[intent]
Alice = 3
"""
    loop = scenario(text).scenario
    out = registry().get("summary-1998").settle(loop)
    assert out.result.value == "unspecified"
    assert out.ends_early_if is None and out.expected_iterations is None
    # The same loop where a text settles it does carry them.
    out = registry().get("cr-2008").settle(loop)
    assert out.result.value == "shortcut" and out.ends_early_if == "she loses a flip"
    assert out.expected_iterations is not None
