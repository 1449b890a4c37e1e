"""What a step does to [state] and how counts are written (FORMAT.md items 5, 6 and 14), with the
exact message for each thing refused.

'add' and 'mul' take whole numbers and apply to integers; a per-player value needs a 'target',
every one of whose players has an entry; a count (an intent, 'times') is a whole number of 0 or
more, never an infinity; an integer written as a string is refused before any arithmetic when
its text alone is too long, and after it when only the exact value is.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes

HEAD = """format = 2
title = "effects"
players = ["Alice", "Bob"]

[state]
tokens = 0
flag = false
life = { Alice = 20 }

[[step]]
by = "Alice"
does = "acts"
optional = true
"""
#: The line of the first key written after HEAD.
LINE = HEAD.count("\n") + 1


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return str(info.value)


# --- add and mul --------------------------------------------------------------------------------------


def test_only_integers_are_added_to_or_multiplied():
    assert refused(HEAD + "add = { flag = 1 }\n") == f"case.toml: line {LINE}: step 1: 'add.flag': 'flag' is a boolean; only integers can be added to"
    assert refused(HEAD + "mul = { flag = 2 }\n") == f"case.toml: line {LINE}: step 1: 'mul.flag': 'flag' is a boolean; only integers can be multiplied"


def test_an_amount_is_a_whole_number_not_a_boolean():
    assert refused(HEAD + "add = { tokens = true }\n") == (
        f"case.toml: line {LINE}: step 1: 'add.tokens': expected a whole number to add, got a boolean (true)"
    )
    assert refused(HEAD + "mul = { tokens = false }\n") == (
        f"case.toml: line {LINE}: step 1: 'mul.tokens': expected a whole number to multiply by, got a boolean (false)"
    )


def test_add_takes_negative_amounts_and_mul_does_not():
    assert parse(HEAD + "add = { tokens = -3 }\n").scenario.steps[0].add == {"tokens": -3}
    assert refused(HEAD + "mul = { tokens = -3 }\n") == f"case.toml: line {LINE}: step 1: 'mul.tokens': must be 0 or more, got -3"


def test_set_assigns_the_declared_type():
    assert parse(HEAD + 'set = { flag = true, tokens = "2^4" }\n').scenario.steps[0].set == {"flag": True, "tokens": 16}
    assert refused(HEAD + "set = { flag = 1 }\n") == (
        f"case.toml: line {LINE}: step 1: 'set.flag': 'flag' is declared as a boolean; expected true or false, got the number 1"
    )
    assert refused(HEAD + "set = { tokens = false }\n") == (
        f"case.toml: line {LINE}: step 1: 'set.tokens': 'tokens' is declared as an integer; expected a whole number, got a boolean (false)"
    )
    assert refused(HEAD + "set = { tokens = 1.5 }\n") == (
        f"case.toml: line {LINE}: step 1: 'set.tokens': 'tokens' is declared as an integer; expected a whole number, got a decimal number (1.5)"
    )


def test_a_per_player_value_needs_a_target():
    assert refused(HEAD + "add = { life = -1 }\n") == (
        f"case.toml: line {LINE}: step 1: 'add.life': 'life' is a per-player value: the step needs a 'target' saying whose"
    )


def test_every_player_a_step_can_target_has_an_entry():
    text = HEAD + 'target = { among = ["Alice", "Bob"] }\nadd = { life = -1 }\n'
    assert refused(text) == f"case.toml: line {LINE}: step 1: 'target.among': Bob can be targeted but has no entry in [state] life"
    ok = parse(HEAD + 'target = { among = ["Alice"] }\nadd = { life = -1 }\n').scenario.steps[0]
    assert ok.target.among == ("Alice",) and ok.target.order == "fixed" and ok.add == {"life": -1}


def test_a_target_names_one_or_more_players_in_a_known_order():
    assert refused(HEAD + "target = { among = [] }\n") == (
        f"case.toml: line {LINE}: step 1: 'target.among': expected a list of one or more players, got a list"
    )
    assert refused(HEAD + 'target = { among = ["Bob"], order = "random" }\n') == (
        f"case.toml: line {LINE}: step 1: 'target.order': expected one of rotate, each, fixed, got the string 'random'"
    )


# --- counts ------------------------------------------------------------------------------------------------


def intent(value: str) -> str:
    return HEAD + f"\n[intent]\nAlice = {value}\n"


INTENT_LINE = HEAD.count("\n") + 3


@pytest.mark.parametrize("value, after", [("0", 0), ("12", 12), ('"10^3"', 1000), ('"12"', 12)])
def test_an_intent_is_a_whole_number_of_0_or_more(value, after):
    assert parse(intent(value)).scenario.intents["Alice"].after == after


def test_a_negative_intent_is_refused():
    assert refused(intent("-1")) == f"case.toml: line {INTENT_LINE}: [intent]: 'Alice': must be 0 or more, got -1"


@pytest.mark.parametrize("value, shown", [('"forever"', "'forever'"), ('" Infinity "', "' Infinity '"), ("inf", "inf"), ("-inf", "-inf")])
def test_an_infinite_intent_is_refused_pointing_at_never(value, shown):
    assert refused(intent(value)) == (
        f"case.toml: line {INTENT_LINE}: [intent]: 'Alice': {shown} is not a number: there is no infinity in Magic; use \"never\" or a finite number"
    )


def test_a_decimal_intent_is_not_a_whole_number():
    assert refused(intent("1.5")) == f"case.toml: line {INTENT_LINE}: [intent]: 'Alice': expected a whole number, got a decimal number (1.5)"


def test_an_intent_in_words_is_refused_with_the_forms_it_can_take():
    assert refused(intent('"often"')) == (
        f"case.toml: line {INTENT_LINE}: [intent]: 'Alice': expected \"never\", a whole number, {{after, step}} or {{until = ...}}, got the string 'often'"
    )


def test_an_infinite_number_of_times_is_refused_with_its_own_hint():
    assert refused(HEAD + 'times = "forever"\n') == (
        f"case.toml: line {LINE}: step 1: 'times': 'forever' is not a number: there is no infinity in Magic; give how many times the step happens"
    )


# --- integers too long, before and after the arithmetic -----------------------------------------------------


@pytest.mark.parametrize("text", ["11^1000", "10*10^1000", "2^3322", "1*10^1001"])
def test_an_integer_whose_text_shows_it_too_long_is_refused_unread(text):
    # The estimate (the digits less at most one) is over 1,000: the value is never computed.
    assert refused(HEAD.replace("tokens = 0", f'tokens = "{text}"')) == (
        f"case.toml: line 6: [state]: 'tokens': '{text}' has more than 1,000 digits; numbers are limited to 1,000 digits"
    )


@pytest.mark.parametrize("text", ["10^1000", "10*10^999", "1*10^1000"])
def test_an_integer_just_over_1000_digits_is_computed_then_refused(text):
    # The estimate says 1,000 (10^1000 is a 1 and 1,000 zeros: 1,001 digits), so the exact value
    # is computed and refused by its size.
    assert refused(HEAD.replace("tokens = 0", f'tokens = "{text}"')) == (
        "case.toml: line 6: [state]: 'tokens': a number of more than 1,000 digits; numbers are limited to 1,000 digits"
    )


def test_a_power_estimated_just_under_the_bound_is_computed():
    # 2^3321 has 1,000 digits (log10(2) * 3321 = 999.7); 2^3322 has 1,001 (estimate 1000.02).
    assert parse(HEAD.replace("tokens = 0", 'tokens = "2^3321"')).scenario.state["tokens"] == 2**3321


# --- turns and loop ends -------------------------------------------------------------------------------------


def test_the_first_steps_turn_is_the_active_players():
    text = HEAD.replace('players = ["Alice", "Bob"]', 'players = ["Alice", "Bob"]\nactive = "Bob"') + 'turn = "Alice"\n'
    assert refused(text) == f"case.toml: line {LINE + 1}: step 1: 'turn': is Alice, but the loop starts in the active player's turn (Bob)"
    assert parse(text.replace('turn = "Alice"', 'turn = "Bob"')).scenario.loop.spans_turns


def test_a_loop_end_in_words_needs_its_bound():
    assert refused(HEAD + '\n[loop]\nends_with = "the game ends"\n') == (
        f"case.toml: line {LINE + 2}: [loop]: 'ends_with': describes how the loop ends, so it needs 'ends_when' too"
    )
