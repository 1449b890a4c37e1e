"""A ``choice = true`` step is a choice point of its controller only (rulesets/scenario.py
``LoopFacts.choice_points``), even when another player could pay its "unless" cost: paying that
cost is a choice step of the payer (``choice_steps``), not a choice between the step's modes."""

from __future__ import annotations

from helpers import scenario
from loopcompare.rulesets.facts import facts_of

CHOICE_WITH_UNLESS = """
title = "a choice with an unless"
players = ["Alice", "Bob"]
[state]
x = 0
[[step]]
by = "Alice"
does = "chooses a mode"
optional = true
choice = true
unless = { by = "Bob", does = "pays 1" }
add = { x = 1 }
"""


def test_the_unless_payer_has_a_choice_step_but_no_choice_point_there():
    f = facts_of(scenario(CHOICE_WITH_UNLESS).scenario)
    assert f.choice_steps("Bob") == (0,) and f.choice_steps("Bob", unless=False) == ()
    assert f.choice_points("Alice") == (0,)
    assert f.choice_points("Bob") == ()
