"""The Ruleset driver's shared wording and lookups (rulesets/base.py), pinned one by one.

The driver writes the sentences every era shares (a goal turned into a number of iterations)
and finds the document a cited rule is quoted from.  Each test names the behaviour it pins, so
that a changed operator in base.py fails a test that says what broke (README, "Mutation
testing"), not only a golden report.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

GOAL = """
format = 2
title = "a goal"
players = ["Alice", "Bob"]
[state]
tokens = 3
[[step]]
by = "Alice"
does = "copies every token"
optional = true
mul = {{ tokens = 2 }}
[intent]
Alice = {{ until = {{ value = "tokens", at_least = {bound} }} }}
"""


def goal_line(key: str, bound: int) -> str:
    out = registry().get(key).settle(scenario(GOAL.format(bound=bound)).scenario)
    (line,) = [t for t in out.transcript if "wants tokens at least" in t]
    return line


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current"])
def test_a_goal_reached_after_one_iteration_says_iteration_in_the_singular(key):
    line = goal_line(key, 6)  # 3 tokens doubled once: 6
    assert "holds first after 1 complete iteration, so Alice's number is 1." in line


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current"])
def test_a_goal_reached_after_several_iterations_says_iterations(key):
    line = goal_line(key, 12)  # 3, 6, 12: two doublings
    assert "holds first after 2 complete iterations, so Alice's number is 2." in line
    line = goal_line(key, 10**6)  # 3 * 2^19 = 1,572,864
    assert "after 19 complete iterations, so Alice's number is 19." in line


def test_a_rule_is_looked_up_in_the_document_that_has_it():
    r = registry().get("cr-2024")
    doc = r.source_of("729.1")
    assert doc is not None and doc.filename == "2024-06-07_cr_729.txt" and "729.1" in doc.ids()


def test_a_rule_no_source_has_is_not_found():
    assert registry().get("cr-2024").source_of("999.9z") is None


def test_the_draw_rule_is_found_in_the_draw_rules_document():
    doc = registry().get("cr-2024").source_of("104.4b")
    assert doc is not None and doc.filename.startswith("draw-rules") and "104.4b" in doc.ids()


def test_a_prefixed_source_is_looked_up_without_its_prefix():
    r = registry().get("mtr-current")
    prefixed = [s for s in r.sources if s.prefix]
    assert prefixed, "the MTR ruleset quotes the CR under a prefix"
    source = prefixed[0]
    rule = source.load().ids()[0]
    doc = r.source_of(f"{source.prefix}{rule}")
    assert doc is not None and rule in doc.ids() and doc.filename == source.load().filename
