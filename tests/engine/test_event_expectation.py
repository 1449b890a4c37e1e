"""FORMAT item 10's ``expected_iterations``, against a sum written out term by term.

The product computes the expected number of complete iterations at the stop with a closed-form
geometric sum; here the same expectation is summed chance by chance, for events before and
after the cut's step, at the last step or not, with one or several applications per iteration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

LOOP = """
format = 2
title = "an event in a loop Alice maintains"
players = ["Alice", "Bob"]
[state]
tokens = 0
{steps}
[intent]
Alice = {n}
"""

OPTIONAL = '[[step]]\nby = "Alice"\ndoes = "makes a token"\noptional = true\nadd = { tokens = 1 }\n'
EVENT = '[[step]]\nby = "Alice"\ndoes = "flips a coin"\nrandom = true\ntimes = {times}\nends_loop = {{ when = "she loses a flip", chance = "{chance}" }}\n'


def by_hand(n: int, k: int, at: int, size: int, p: Fraction, times: int) -> Fraction:
    """The expectation, one chance at a time: the event can come in iteration i when its step
    is performed before the cut (n, k); it stops the loop right after that step."""
    r = 1 - (1 - p) ** times
    chances = [i for i in range(n + 1) if i < n or at < k]
    expected, still = Fraction(0), Fraction(1)
    for i in chances:
        counted = i + (1 if at == size - 1 else 0)
        expected += still * r * counted
        still *= 1 - r
    return expected + still * n


@pytest.mark.parametrize("event_first", [True, False], ids=["event-first", "event-last"])
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("chance, times", [("1/2", 1), ("1/3", 1), ("2/5", 2)])
def test_expected_iterations_is_the_sum_over_each_chance(event_first, n, chance, times):
    event = EVENT.format(times=times, chance=chance)
    steps = event + OPTIONAL if event_first else OPTIONAL + event
    at, k = (0, 1) if event_first else (1, 0)
    loop = scenario(LOOP.format(steps=steps, n=n)).scenario
    # CR 421 (2008) shortcuts it to Alice's point; CR 729 does not shortcut a random loop, and
    # it is played out to where Alice means to stop: the same expectation either way.
    shortcut = registry().get("cr-2008").settle(loop)
    played = registry().get("cr-2024").settle(loop)
    assert (shortcut.result.value, shortcut.iterations, shortcut.steps, shortcut.deviates) == ("shortcut", n, k, "Alice")
    assert played.result.value == "no_shortcut"
    for out in (shortcut, played):
        if n == 0 and at >= k:
            # The event's step is never reached before Alice stops.
            assert out.ends_early_if is None and out.expected_iterations is None
            continue
        assert out.ends_early_if == "she loses a flip"
        assert out.expected_iterations == by_hand(n, k, at, 2, Fraction(chance), times)


@pytest.mark.parametrize("n", [1, 3])
def test_a_cut_just_before_the_event_step_gives_that_iteration_no_chance(n):
    # Alice stops at the event's own step of iteration n (a partial intent): the flip of
    # iteration n never happens.
    steps = OPTIONAL + EVENT.format(times=1, chance="1/3")
    loop = scenario(LOOP.format(steps=steps, n=f"{{ after = {n}, step = 1 }}")).scenario
    out = registry().get("cr-2008").settle(loop)
    assert (out.result.value, out.iterations, out.steps) == ("shortcut", n, 1)
    assert out.expected_iterations == by_hand(n, 1, 1, 2, Fraction(1, 3), 1)


def test_a_cut_at_the_event_step_of_the_first_iteration_never_reaches_the_event():
    # Alice stops before the event's step is performed the first time: no flip ever happens,
    # so the loop can't end early and has no expected length to give.
    steps = OPTIONAL + EVENT.format(times=1, chance="1/3")
    loop = scenario(LOOP.format(steps=steps, n="{ after = 0, step = 1 }")).scenario
    out = registry().get("cr-2008").settle(loop)
    assert (out.result.value, out.iterations, out.steps) == ("shortcut", 0, 1)
    assert out.ends_early_if is None and out.expected_iterations is None
    # One step further (the flip performed once) it can.
    steps = OPTIONAL + EVENT.format(times=1, chance="1/3") + OPTIONAL
    loop = scenario(LOOP.format(steps=steps, n="{ after = 0, step = 2 }")).scenario
    out = registry().get("cr-2008").settle(loop)
    assert (out.iterations, out.steps) == (0, 2)
    assert out.ends_early_if == "she loses a flip"
    assert out.expected_iterations == by_hand(0, 2, 1, 3, Fraction(1, 3), 1)


@pytest.mark.parametrize("event_first, expected", [(True, 2), (False, 3)], ids=["event-first", "event-last"])
def test_an_unbounded_cut_expects_the_iterations_before_the_first_event(event_first, expected):
    # Alice never stops: the loop runs until the flip is lost, with chance r = 1/3 each
    # iteration. The number of iterations completed before it is geometric, mean (1 - r) / r = 2;
    # an event at the last step completes its own iteration too: 3.
    steps = EVENT.format(times=1, chance="1/3") + OPTIONAL if event_first else OPTIONAL + EVENT.format(times=1, chance="1/3")
    loop = scenario(LOOP.format(steps=steps, n='"never"')).scenario
    for key in ("cr-2008", "cr-2024"):
        out = registry().get(key).settle(loop)
        assert out.ends_early_if == "she loses a flip"
        assert out.expected_iterations == expected, key


def test_the_expectation_is_written_exactly_up_to_13000_bits_of_chances():
    # Chance 1/2 (2 bits a chance): 6,500 iterations before the cut are summed exactly, one more
    # and the expectation would be too long to write (null, with a note saying why). Python
    # writes at most 4,300 digits of an integer: the cap was 200,000 bits, and an outcome with
    # 2 - 1/2^99,999 could be settled but not rendered (a ValueError).
    steps = OPTIONAL + EVENT.format(times=1, chance="1/2")
    out = registry().get("cr-2008").settle(scenario(LOOP.format(steps=steps, n=6_500)).scenario)
    # Event at the last step: sum_{j=1..n} j / 2^j + n / 2^n = 2 - (n + 2) / 2^n + n / 2^n = 2 - 1 / 2^(n-1).
    assert out.expected_iterations == 2 - Fraction(1, 2**6_499)
    assert not any("too many digits" in n for n in out.notes)
    assert out.to_json()["expected_iterations"].endswith("/" + str(2**6_499))
    out = registry().get("cr-2008").settle(scenario(LOOP.format(steps=steps, n=6_501)).scenario)
    assert out.ends_early_if == "she loses a flip"
    assert out.expected_iterations is None
    assert any("too many digits" in n for n in out.notes)
