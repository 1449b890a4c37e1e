"""A scenario as its TOML document (comparator/loader.py ``to_document``), and back.

``to_document`` is the inverse of ``parse_document``: ``validate`` checks a scenario built in code
by writing its document and loading that as a file would be loaded.  So every field a scenario
can hold must be written, under the key FORMAT.md gives it, and defaults left out; the document
of a loaded scenario loads back into the same scenario.  Each expected document below is written
out by hand from the scenario text above it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes, parse_document, to_document, validate
from loopcompare.rulesets.scenario import Scenario, Step

EVERY_FIELD = """format = 2
title = "every field"
description = "a scenario that uses every key"
source = "written for the test"
tags = ["combo", "test"]
players = ["Alice", "Bob", "Carol", "Dave"]
active = "Bob"

[state]
life = { Alice = 20, Bob = 20, Carol = 20, Dave = 20 }
mana = { start = 7, min = 0 }
cap = { start = 2, max = 9 }
band = { start = 3, min = 1, max = 5 }
storm = 0
flag = false

[loop]
independent = true
meaningful_change = true
shortcut_before = true

[[step]]
by = "Bob"
does = "pays {2}: copies a spell"
optional = true
sustains = false
requires = { mana = 2 }
set = { flag = true }
add = { mana = -2, storm = 1 }
mul = { cap = 1 }
turn = "Bob"

[[step]]
by = "Carol"
does = "chooses a mode"
choice = true
hidden = true
alternative = "chooses the other mode"
turn = "Carol"

[[step]]
by = "Alice"
does = "the trigger: each opponent loses 1 life"
random = true
conditional = true
target = { among = ["Bob", "Carol"], order = "each" }
add = { life = -1 }
times = 3
ends_loop = { when = "the coin comes up tails", chance = "1/3" }
unless = { by = "Bob", does = "pays {1}" }

[[step]]
by = "Dave"
does = "looks at the top card"
optional = true
ends_loop = { when = "it is a land", hidden = true }

[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true

[[end]]
when = { value = "storm", at_least = 100 }
loses = "Alice"

[[end]]
when = { value = "band", at_least = 5 }
loses = false

[[breaker]]
by = "Carol"
does = "casts a hidden instant"
hidden = true

[[breaker]]
by = "Dave"
does = "destroys the engine"

[intent]
Alice = "never"
Bob = { after = 3, step = 1 }
Carol = { until = { value = "life", at_most = 5, player = "Bob" } }
Dave = 7
"""

EVERY_FIELD_DOCUMENT = {
    "format": 2,
    "title": "every field",
    "description": "a scenario that uses every key",
    "source": "written for the test",
    "tags": ["combo", "test"],
    "players": ["Alice", "Bob", "Carol", "Dave"],
    "active": "Bob",
    "state": {
        "life": {"Alice": 20, "Bob": 20, "Carol": 20, "Dave": 20},
        "mana": {"start": 7, "min": 0},
        "cap": {"start": 2, "max": 9},
        "band": {"start": 3, "min": 1, "max": 5},
        "storm": 0,
        "flag": False,
    },
    "step": [
        {
            "by": "Bob", "does": "pays {2}: copies a spell", "optional": True,
            "set": {"flag": True}, "add": {"mana": -2, "storm": 1}, "mul": {"cap": 1}, "requires": {"mana": 2},
            "sustains": False, "turn": "Bob",
        },
        {"by": "Carol", "does": "chooses a mode", "choice": True, "hidden": True, "alternative": "chooses the other mode", "turn": "Carol"},
        {
            "by": "Alice", "does": "the trigger: each opponent loses 1 life", "random": True, "conditional": True,
            "add": {"life": -1}, "times": 3, "target": {"among": ["Bob", "Carol"], "order": "each"},
            "ends_loop": {"when": "the coin comes up tails", "chance": "1/3"},
            "unless": {"by": "Bob", "does": "pays {1}"},
        },
        {"by": "Dave", "does": "looks at the top card", "optional": True, "ends_loop": {"when": "it is a land", "hidden": True}},
    ],
    # A 'turn' on any step makes the loop span turns (FORMAT.md): the flag is written out.
    "loop": {"independent": True, "spans_turns": True, "meaningful_change": True, "shortcut_before": True},
    "end": [
        {"when": {"value": "life", "at_most": 0}, "effect": "that player loses the game", "loses": True},
        {"when": {"value": "storm", "at_least": 100}, "loses": "Alice"},
        {"when": {"value": "band", "at_least": 5}},  # loses = false is the default: left out
    ],
    "breaker": [{"by": "Carol", "does": "casts a hidden instant", "hidden": True}, {"by": "Dave", "does": "destroys the engine"}],
    "intent": {
        "Alice": "never",
        "Bob": {"after": 3, "step": 1},
        "Carol": {"until": {"value": "life", "at_most": 5, "player": "Bob"}},
        "Dave": 7,
    },
}


def parse(text: str) -> Scenario:
    return parse_bytes(text.encode("utf-8"), "case.toml", "case").scenario


def test_every_field_of_a_format_2_scenario_is_written_under_its_key():
    scenario = parse(EVERY_FIELD)
    assert scenario.steps[2].ends_loop.chance == Fraction(1, 3)
    assert to_document(scenario) == EVERY_FIELD_DOCUMENT


def test_the_document_of_every_field_loads_back_into_the_same_scenario():
    scenario = parse(EVERY_FIELD)
    assert parse_document(to_document(scenario), "doc", "doc").scenario == scenario
    assert validate(scenario).scenario == scenario


FORMAT_1 = """title = "format 1, every loop key"
players = ["Alice", "Bob"]

[state]
counters = 10

[loop]
spans_turns = true
ends_when = { value = "counters", at_most = 0 }
ends_with = "the creature dies"

[[step]]
by = "Alice"
does = "removes a counter"
add = { counters = -1 }

[[step]]
by = "Bob"
does = "may pay 1"
optional = true

[intent]
Bob = 4
"""


def test_a_format_1_document_has_no_format_key_and_writes_its_loop_end():
    scenario = parse(FORMAT_1)
    assert to_document(scenario) == {
        "title": "format 1, every loop key",
        "players": ["Alice", "Bob"],
        "state": {"counters": 10},
        "step": [
            {"by": "Alice", "does": "removes a counter", "add": {"counters": -1}},
            {"by": "Bob", "does": "may pay 1", "optional": True},
        ],
        "loop": {"spans_turns": True, "ends_when": {"value": "counters", "at_most": 0}, "ends_with": "the creature dies"},
        "intent": {"Bob": 4},
    }
    assert validate(scenario).scenario == scenario


def test_an_at_least_bound_on_the_loop_is_written_as_at_least():
    scenario = parse(FORMAT_1.replace('at_most = 0', 'at_least = 20').replace("counters = -1", "counters = 1"))
    assert to_document(scenario)["loop"]["ends_when"] == {"value": "counters", "at_least": 20}
    assert validate(scenario).scenario == scenario


def test_a_loop_within_one_resolution_writes_within():
    text = """format = 2
title = "inside one resolution"
players = ["Alice", "Bob"]

[state]
x = 0

[loop]
within = "resolution"

[[step]]
by = "Alice"
does = "may repeat the effect"
optional = true
add = { x = 1 }
"""
    scenario = parse(text)
    assert scenario.loop.within == "resolution"
    assert to_document(scenario)["loop"] == {"within": "resolution"}
    assert validate(scenario).scenario == scenario


def test_defaults_are_left_out_of_the_document():
    # No state, no loop, no intents; the active player is the first; format 1.
    scenario = Scenario(title="bare", players=("Alice", "Bob"), steps=(Step(by="Alice", does="acts"),))
    assert to_document(scenario) == {"title": "bare", "players": ["Alice", "Bob"], "step": [{"by": "Alice", "does": "acts"}]}
    assert validate(scenario).scenario == scenario


def test_a_state_entry_with_an_empty_limit_is_written_as_a_plain_number():
    # Limits() bounds nothing: the entry is the plain number it starts at.
    from loopcompare.rulesets.scenario import Limits

    scenario = Scenario(
        title="limits", players=("Alice", "Bob"), steps=(Step(by="Alice", does="acts", optional=True),),
        state={"x": 4}, limits={"x": Limits()}, format=2,
    )
    assert to_document(scenario)["state"] == {"x": 4}


def test_validate_refuses_what_is_not_a_scenario():
    with pytest.raises(ScenarioError) as info:
        validate("a scenario", "built.py")  # type: ignore[arg-type]
    assert str(info.value) == "built.py: expected a loopcompare Scenario, got str"


def test_validate_refuses_a_scenario_whose_parts_are_of_the_wrong_kind():
    broken = Scenario(title="broken", players=("Alice", "Bob"), steps=None)  # type: ignore[arg-type]
    with pytest.raises(ScenarioError) as info:
        validate(broken, "built.py")
    assert str(info.value).startswith("built.py: is not a well-formed Scenario: ")
