"""Tests for the example plugin: run with ``pytest`` after ``pip install -e .`` here."""

from __future__ import annotations

from loopcompare.rulesets import registry
from loopcompare.comparator.library import load_builtin


def test_the_plugin_is_found_through_its_entry_point():
    assert registry().get("house-three").name == "House rule: three and done"


def test_a_loop_players_keep_going_stops_after_three():
    # H.1: Alice would make a million tokens; at this table she stops after three.
    outcome = registry().get("house-three").settle(load_builtin("gond-alarm").scenario)
    assert outcome.value("iterations") == 3
    assert outcome.value("state.tokens") == 3
    assert "H.1" in outcome.rules


def test_a_shorter_loop_is_left_alone():
    # H.1 only caps: Bob's intervention after 17 iterations... would come later; 2 stays 2.
    outcome = registry().get("house-three").settle(load_builtin("seal-used").scenario)
    assert outcome.value("iterations") == 2
