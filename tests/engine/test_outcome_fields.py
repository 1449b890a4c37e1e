"""The outcome's field table and plain values (rulesets/outcome.py), pinned field by field.

docs/FORMAT.md: rules, notes and transcript never count in a comparison; notes and transcript
can't be expected; format 2's fields that are usually empty are hidden when neutral; a fraction
is written "a/b", or "a" when whole.  README, "Mutation testing": a changed flag in the field
table fails a test that names the field.
"""

from __future__ import annotations

from fractions import Fraction

from loopcompare.rulesets.outcome import (
    COMPARED_FIELDS,
    EXPECT_KEYS_FORMAT_1,
    EXPECT_KEYS_FORMAT_2,
    FIELDS_BY_NAME,
    OutcomeField,
    plain,
)


def test_rules_notes_and_transcript_are_never_compared():
    assert not {"rules", "notes", "transcript"} & set(COMPARED_FIELDS)
    assert COMPARED_FIELDS[:7] == ("result", "iterations", "steps", "deviates", "last_action", "state", "judge")
    assert {"ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations"} <= set(COMPARED_FIELDS)


def test_notes_and_transcript_cannot_be_expected_and_rules_can():
    assert "rules" in EXPECT_KEYS_FORMAT_1
    assert not {"notes", "transcript"} & (EXPECT_KEYS_FORMAT_1 | EXPECT_KEYS_FORMAT_2)


def test_every_field_every_outcome_carries_is_expectable_in_format_1():
    # FORMAT item 22: only format 2's input keys need format = 2; its outcome fields don't.
    assert {"ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations"} <= EXPECT_KEYS_FORMAT_1
    assert EXPECT_KEYS_FORMAT_2 == frozenset()


def test_a_field_shows_its_neutral_value_unless_it_says_otherwise():
    plain_field = OutcomeField("x", "X")
    assert plain_field.compared and plain_field.expectable and plain_field.since_format == 1
    assert not plain_field.hide_neutral and plain_field.neutral is None
    assert not FIELDS_BY_NAME["result"].hide_neutral and not FIELDS_BY_NAME["stopped_by"].hide_neutral
    hidden = {f for f, spec in FIELDS_BY_NAME.items() if spec.hide_neutral}
    assert hidden == {"ended_by", "eliminated", "ends_early_if", "expected_iterations", "after_cut", "inner", "inner_results", "part", "parts"}
    assert FIELDS_BY_NAME["after_cut"].neutral == 0 and FIELDS_BY_NAME["parts"].neutral == [] and FIELDS_BY_NAME["inner_results"].neutral == {}
    assert FIELDS_BY_NAME["eliminated"].neutral == []


def test_a_fraction_is_written_a_over_b_or_a_when_whole():
    assert plain(Fraction(3)) == "3"
    assert plain(Fraction(6, 2)) == "3"
    assert plain(Fraction(1, 2)) == "1/2"
    assert plain(Fraction(-7, 3)) == "-7/3"
