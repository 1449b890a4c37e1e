"""A step that both assigns and adds to the same value: the order differs between the formats.

Format 1 (README, "add = ...  # a step that does both assigns, then adds"): ``set`` first, then
``add``.  Format 2 (docs/FORMAT.md "Format 2 details", item 2: per application, ``mul``, ``add``,
``set``): the ``set`` comes last, so it decides the value.  The format 2 engine compiles each
step into one map per value (rulesets/dynamics.py ``Dynamics._step_maps``); both formats go
through it.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import CutPoint
from loopcompare.rulesets.dynamics import Affine, Dynamics
from loopcompare.rulesets.facts import facts_of

SET_AND_ADD = """
{format}
title = "sets and adds"
players = ["Alice", "Bob"]
[state]
x = 0
[[step]]
by = "Alice"
does = "sets x to 5 and adds 2"
optional = true
set = {{ x = 5 }}
add = {{ x = 2 }}
"""


@pytest.mark.parametrize(("header", "expected"), [("", 7), ("format = 2", 5)], ids=["format 1", "format 2"])
def test_set_and_add_on_one_value_follow_each_formats_order(header, expected):
    sc = scenario(SET_AND_ADD.format(format=header)).scenario
    assert Dynamics(sc)._step_maps(sc.steps[0]) == {"x": Affine(0, expected)}
    # After one iteration, and after three (an assignment doesn't accumulate).
    assert facts_of(sc).value_at("x", CutPoint(1, 0)) == expected
    assert facts_of(sc).value_at("x", CutPoint(3, 0)) == expected


def test_format_2_multiplies_then_adds_then_sets():
    sc = scenario("""
    format = 2
    title = "mul and add"
    players = ["Alice", "Bob"]
    [state]
    x = 3
    y = 1
    [[step]]
    by = "Alice"
    does = "doubles x and adds 1; y gets 4"
    optional = true
    mul = { x = 2, y = 3 }
    add = { x = 1 }
    set = { y = 4 }
    """).scenario
    # x -> 2x + 1 (mul before add), y -> 4 (set after mul): 3 -> 7 -> 15.
    assert Dynamics(sc)._step_maps(sc.steps[0]) == {"x": Affine(2, 1), "y": Affine(0, 4)}
    assert facts_of(sc).value_at("x", CutPoint(2, 0)) == 15 and facts_of(sc).value_at("y", CutPoint(2, 0)) == 4
