"""Format 2's engine on guards that flip periodically: the block it settles on, and its play budget.

A side benefit that costs ``p`` and is fed 1 an iteration is paid every ``p``-th iteration, so its
``requires`` guard flips with period ``p``.  The engine (rulesets/dynamics.py, module docstring)
plays blocks of 1, 2, 6, 12, 60, 420, 840 and 2520 iterations, lengthening the block each time the
very next block would already come out differently, until a block is a whole number of periods:
from there every block is the same and the loop goes on forever in closed form.  Each block it
plays costs its applications from a budget (``PLAY_BUDGET``), so a loop whose period divides no
tried length is given up with :class:`EngineLimit`, never iterated forever.

The expected figures below are worked out by hand from those lengths, not read off the engine.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import dynamics
from loopcompare.rulesets.dynamics import Dynamics, EngineLimit

#: The documented block lengths, in iterations (lcm(1..k) up to 2520, skipping the repeats).
LENGTHS = (1, 2, 6, 12, 60, 420, 840, 2520)

EVERY_PTH = """
format = 2
title = "a side benefit paid every {p}th iteration"
players = ["Alice", "Bob"]
[state]
mana = 0
seen = 0
[[step]]
by = "Alice"
does = "makes mana"
optional = true
add = {{ mana = 1 }}
[[step]]
by = "Alice"
does = "may spend {p}"
optional = true
sustains = false
requires = {{ mana = {p} }}
add = {{ mana = -{p} }}
{extra}
"""

#: A third step applied three times an iteration that no guard reads: it changes no block, but
#: every application of it is played, so each block costs three times its steps.
SCRY_THRICE = """
[[step]]
by = "Bob"
does = "scries three times"
add = { seen = 1 }
times = 3
"""


def loop(p: int, extra: str = "") -> Dynamics:
    return Dynamics(scenario(EVERY_PTH.format(p=p, extra=extra)).scenario)


def first_length_divisible_by(p: int) -> int:
    return next(n for n in LENGTHS if n % p == 0)


@pytest.mark.parametrize("p", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
def test_a_guard_with_period_p_is_settled_over_the_first_tried_block_that_p_divides(p):
    run = loop(p).natural
    assert run.forever and run.stop is None and run.regime is not None
    # The regime's block length is in steps: two steps an iteration.
    assert run.regime[4] == 2 * first_length_divisible_by(p)


def test_a_period_that_divides_no_tried_length_is_beyond_the_closed_form(monkeypatch):
    # 11 divides none of the lengths: every 2520-iteration block differs from the next, and the
    # budget runs out (a small one, to keep the test fast: the first 2520-block alone costs 5,040).
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", 20_000)
    with pytest.raises(EngineLimit, match=r"more than 20,000 step applications"):
        loop(11).natural


# Period 4, two steps an iteration.  Blocks played (iterations):
#   1 (mana 0 -> 1; the check first passes 3 blocks on: jump to iteration 4),
#   1 (iteration 4 pays; the next block differs: lengthen to 2),
#   2 (iterations 5-6; the next differs: lengthen to 6),
#   6 (iterations 7-12; the next differs: lengthen to 12),
#   12 (iterations 13-24: a whole number of periods, the same for ever).
# 1 + 1 + 2 + 6 + 12 = 22 iterations = 44 applications played one by one.
PERIOD_4_COST = (1 + 1 + 2 + 6 + 12) * 2


def test_a_run_that_needs_exactly_the_budget_is_settled(monkeypatch):
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", PERIOD_4_COST)
    run = loop(4).natural
    assert run.forever and run.regime is not None and run.regime[4] == 24


def test_a_run_that_needs_one_application_more_than_the_budget_is_given_up(monkeypatch):
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", PERIOD_4_COST - 1)
    with pytest.raises(EngineLimit, match=r"more than 43 step applications would have to be played one by one"):
        loop(4).natural


def test_a_period_2_run_costs_a_block_of_1_then_a_block_of_2(monkeypatch):
    # Iteration 1 can't pay (mana 1), iteration 2 can: the next block differs at once, so the
    # block is lengthened to 2 iterations (2 and 3), which repeats: (1 + 2) * 2 = 6 applications.
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", 6)
    assert loop(2).natural.forever
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", 5)
    with pytest.raises(EngineLimit):
        loop(2).natural


def test_a_step_applied_several_times_costs_each_application(monkeypatch):
    # The same 22 iterations, now of three steps each, the most of any step's ``times`` (3) per
    # step: 22 * 3 * 3 = 198.
    cost = (1 + 1 + 2 + 6 + 12) * 3 * 3
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", cost)
    run = loop(4, SCRY_THRICE).natural
    assert run.forever and run.regime is not None and run.regime[4] == 12 * 3
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", cost - 1)
    with pytest.raises(EngineLimit):
        loop(4, SCRY_THRICE).natural

