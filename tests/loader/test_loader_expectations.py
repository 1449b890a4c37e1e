"""The [expect.RULESET] blocks (FORMAT.md, "Expectations"): what each field takes, and the message
naming the file, the line, the block and the field when it is wrong.

Each test pins one field's check: the values accepted and what they are stored as, the first
value refused and the exact message, so that a changed operator in the loader's ``expected``
fails a test that says which field broke.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes

BASE = """format = 2
title = "expectations"
players = ["Alice", "Bob"]

[state]
tokens = 0
flag = false
life = { Alice = 20, Bob = 20 }

[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }

[expect.cr-2004]
"""
#: The line of the first field written after BASE.
FIELD_LINE = BASE.count("\n") + 1


def expect(fields: str):
    return parse_bytes((BASE + fields + "\n").encode("utf-8"), "case.toml", "case").expect["cr-2004"]


def refused(fields: str) -> str:
    with pytest.raises(ScenarioError) as info:
        expect(fields)
    return str(info.value)


# --- expected_iterations: an exact fraction, kept as its lowest terms ------------------------------


@pytest.mark.parametrize(
    "written, stored",
    [('"1/3"', "1/3"), ('"6/4"', "3/2"), ('"8/4"', "2"), ('"5"', "5"), ("5", "5"), ('"0"', "0"), ('"0/7"', "0"), ('"1/01"', "1")],
)
def test_expected_iterations_is_an_exact_fraction_in_lowest_terms(written, stored):
    assert expect(f"expected_iterations = {written}")["expected_iterations"] == stored


@pytest.mark.parametrize("written", ['"1/0"', '"10/0"', '"1/00"', '"0/0"'])
def test_expected_iterations_with_a_zero_denominator_is_refused(written):
    # "1/00" too: the denominator is read as a number, not as text ending in "/0".
    assert refused(f"expected_iterations = {written}") == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'expected_iterations': has a zero denominator"
    )


@pytest.mark.parametrize("written", ['"-1"', '"1.5"', '"1/3/5"', '"a/b"', "true", "1.5", '"1 / 3"'])
def test_expected_iterations_that_is_not_a_fraction_is_refused(written):
    assert "'expected_iterations': expected an exact number \"a/b\" or \"a\", got " in refused(f"expected_iterations = {written}")


def test_expected_iterations_of_1000_digits_is_accepted_and_1001_refused():
    # The same bound as every integer (README, "Limits"); past 4,300 digits Python's int() would
    # raise instead of the loader answering.
    thousand = "9" * 1000
    assert expect(f'expected_iterations = "{thousand}/1"')["expected_iterations"] == thousand
    assert expect(f'expected_iterations = "1/{thousand}"')["expected_iterations"] == f"1/{thousand}"
    assert expect(f'expected_iterations = "000{thousand}"')["expected_iterations"] == thousand  # leading zeros are not digits of the value
    # However many leading zeros: Python's 4,300-digit limit on int() counts them, the loader doesn't.
    zeros = "0" * 5000
    assert expect(f'expected_iterations = "{zeros}7/{zeros}2"')["expected_iterations"] == "7/2"
    assert refused(f'expected_iterations = "1/{zeros}"').endswith("'expected_iterations': has a zero denominator")
    for written in (f'"9{thousand}"', f'"1/9{thousand}"', f'"{"9" * 5000}"'):
        assert refused(f"expected_iterations = {written}") == (
            f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'expected_iterations': has more than 1,000 digits in a part; "
            "numbers are limited to 1,000 digits"
        )


# --- the other fields -------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["intent", "requirement", "rule"])
def test_stopped_by_takes_one_of_three_reasons(reason):
    assert expect(f'stopped_by = "{reason}"')["stopped_by"] == reason


def test_stopped_by_anything_else_is_refused():
    assert refused('stopped_by = "judge"') == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'stopped_by': expected one of intent, requirement, rule, got the string 'judge'"
    )


def test_eliminated_must_be_a_list_of_tables():
    assert refused('eliminated = "Bob"') == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'eliminated': expected a list of {{player, iterations, steps}} tables, got the string 'Bob'"
    )


def test_eliminated_entries_default_to_zero_iterations_and_steps():
    got = expect('eliminated = [{ player = "Bob" }, { player = "Alice", iterations = "unbounded", steps = 3 }]')["eliminated"]
    assert got == [{"player": "Bob", "iterations": 0, "steps": 0}, {"player": "Alice", "iterations": "unbounded", "steps": 3}]


def test_rules_must_be_a_list_of_rule_ids():
    assert expect('rules = ["421.3", "732.2a"]')["rules"] == ["421.3", "732.2a"]
    message = f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'rules': expected a list of rule ids"
    assert refused("rules = [421]") == message
    assert refused('rules = ["421.3", 5]') == message
    assert refused('rules = "421.3"') == message


def test_expect_must_be_a_table():
    text = BASE.replace("[expect.cr-2004]\n", "").replace("players = ", "expect = 3\nplayers = ")
    with pytest.raises(ScenarioError) as info:
        parse_bytes(text.encode("utf-8"), "case.toml", "case")
    assert str(info.value) == "case.toml: line 3: 'expect': expected a table, got the number 3"


# --- expected state ---------------------------------------------------------------------------------


def test_an_expected_state_takes_each_value_as_declared():
    got = expect('state = { tokens = "unbounded", flag = true, life = { Bob = -3, Alice = "2^10" } }')["state"]
    assert got == {"tokens": "unbounded", "flag": True, "life": {"Bob": -3, "Alice": 1024}}
    assert expect('state = { tokens = "2^100+1" }')["state"] == {"tokens": "2^100+1"}  # an exact expression, kept as written
    assert expect('state = { tokens = "10^3" }')["state"] == {"tokens": 1000}


def test_an_expected_state_of_a_player_without_an_entry_is_refused():
    assert refused('state = { life = { Carl = 3 } }') == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'state.life.Carl': 'Carl' has no entry in [state] life"
    )


@pytest.mark.parametrize("value, kind", [("1.5", "a decimal number (1.5)"), ("true", "a boolean (true)"), ('"many"', "the string 'many'")])
def test_an_expected_integer_of_another_kind_is_refused(value, kind):
    assert refused(f"state = {{ tokens = {value} }}") == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'state.tokens': 'tokens' is an integer; "
        f'expected a whole number, "unbounded" or an exact expression, got {kind}'
    )


def test_an_expected_boolean_of_another_kind_is_refused():
    assert refused("state = { flag = 1 }") == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'state.flag': 'flag' is a boolean; expected true or false, got the number 1"
    )


def test_an_expected_value_that_is_not_declared_is_refused():
    assert refused("state = { mana = 1 }") == f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'state.mana': 'mana' is not declared in [state]"


# --- counts, players, flags and texts ------------------------------------------------------------------------


def test_iterations_is_a_count_or_unbounded_for_all_or_per_player():
    assert expect("iterations = 3")["iterations"] == 3
    assert expect('iterations = "unbounded"')["iterations"] == "unbounded"
    assert expect('iterations = { Alice = 2, Bob = "unbounded" }')["iterations"] == {"Alice": 2, "Bob": "unbounded"}
    assert refused("iterations = { Zed = 2 }") == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'iterations.Zed': is 'Zed', who is not one of the players (Alice, Bob)"
    )
    assert refused('iterations = "forever"') == (
        f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'iterations': 'forever' is not a number: there is no infinity in Magic; "
        'write "unbounded" or a whole number'
    )


def test_steps_deviates_last_action_judge_and_texts():
    got = expect('steps = 4\ndeviates = "Bob"\nlast_action = "Alice"\njudge = true\nresult = "ends"')
    assert got == {"steps": 4, "deviates": "Bob", "last_action": "Alice", "judge": True, "result": "ends"}
    got = expect('ended_by = "the coin"\nends_early_if = "a land is revealed"')
    assert got == {"ended_by": "the coin", "ends_early_if": "a land is revealed"}
    assert refused("steps = -1") == f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'steps': must be 0 or more, got -1"
    assert refused("judge = 1") == f"case.toml: line {FIELD_LINE}: [expect.cr-2004]: 'judge': expected true or false, got the number 1"
    assert refused('deviates = "Zed"').endswith("'deviates': is 'Zed', who is not one of the players (Alice, Bob)")


def test_an_unknown_key_in_an_eliminated_entry_names_the_entry():
    # (The line is the block's header: a field named "... item N" is not looked up as a key.)
    assert refused('eliminated = [{ player = "Bob" }, { player = "Alice", step = 1 }]') == (
        f"case.toml: line {FIELD_LINE - 1}: [expect.cr-2004]: 'eliminated item 2.step': unknown key (did you mean 'steps'?); "
        "expected one of inner, iterations, player, steps"
    )
    assert refused("eliminated = [{ steps = 1 }]") == f"case.toml: line {FIELD_LINE - 1}: [expect.cr-2004]: 'eliminated item 1': needs 'player'"
