"""The loader's limits and item numbers for format 2 input (comparator/loader.py), one test each.

README, "Limits": integers of at most 1,000 digits, at most 256 steps, 64 players, 10,000
characters a text, 10,000 applications a step.  FORMAT.md item 14: integers written as strings,
"INT", "INT^INT" or "INT*10^INT".  Each test pins one bound at its edge (the last value accepted,
the first refused) or one field's name in a message, so that a changed operator in the loader
fails a test that says what broke (README, "Mutation testing").
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import MAX_DIGITS, MAX_STEPS, MAX_TEXT, MAX_TIMES, ScenarioError, parse_bytes

PLAIN = """format = 2
title = "limits"
players = ["Alice", "Bob"]

[state]
tokens = 3

[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
"""


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return str(info.value)


def with_tokens(value: str) -> str:
    return PLAIN.replace("tokens = 3", f"tokens = {value}")


# --- integers written as strings (FORMAT item 14) -------------------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [('"12"', 12), ('"-12"', -12), ('"2^10"', 1024), ('"-2^3"', -8), ('"3*10^4"', 30000), ('"-3*10^4"', -30000),
     ('"0^5000"', 0), ('"1^5000"', 1), ('"-1^5001"', -1), ('"5*10^999"', 5 * 10**999), ('"9^1000"', 9**1000),
     ('"10^2"', 100), ('"99^500"', 99**500), ('"10^500"', 10**500)],
)
def test_an_integer_written_as_a_string_is_its_exact_value(text, value):
    assert parse(with_tokens(text)).scenario.state["tokens"] == value


@pytest.mark.parametrize("text", ['"10^1000"', '"10*10^999"', '"1*10^1000"', '"11^1000"', '"2^100000"', '"-10^1000"'])
def test_an_integer_string_of_more_than_1000_digits_is_refused(text):
    message = refused(with_tokens(text))
    assert "[state]" in message and "tokens" in message and f"more than {MAX_DIGITS:,} digits" in message


def test_an_integer_of_exactly_1000_digits_is_accepted_and_one_of_1001_refused():
    assert parse(with_tokens(str(10**MAX_DIGITS - 1))).scenario.state["tokens"] == 10**MAX_DIGITS - 1
    assert parse(with_tokens(f'"{10**MAX_DIGITS - 1}"')).scenario.state["tokens"] == 10**MAX_DIGITS - 1
    assert f"more than {MAX_DIGITS:,} digits" in refused(with_tokens(f'"{10**MAX_DIGITS}"'))
    assert f"more than {MAX_DIGITS:,} digits" in refused(with_tokens(f'"-{10**MAX_DIGITS}"'))


# Was a loader bug: 'INT^INT' was sized as len(INT) * exponent digits, so powers of under 1,000
# digits (2^3000 has 904, 10^999 has 1,000) were refused.
@pytest.mark.parametrize("text, value", [('"2^3000"', 2**3000), ('"10^999"', 10**999), ('"10^501"', 10**501)])
def test_a_power_of_at_most_1000_digits_is_accepted(text, value):
    assert parse(with_tokens(text)).scenario.state["tokens"] == value


@pytest.mark.parametrize("text", ['"1.5"', '"2^-3"', '"2 ^ 3"', '"10^"', '"abc"', '"3*10^x"', '"0x10"'])
def test_a_string_that_is_not_an_integer_form_is_refused(text):
    assert "expected a whole number" in refused(with_tokens(text))


def test_an_integer_string_in_format_1_is_refused_with_the_format_2_hint():
    message = refused(with_tokens('"10^100"').replace("format = 2\n", ""))
    assert "format 2" in message and "format = 2" in message and "[state]" in message


@pytest.mark.parametrize("value", ["true", "1.5", "[1]"])
def test_an_effect_amount_must_be_a_whole_number(value):
    message = refused(PLAIN.replace("add = { tokens = 1 }", f"add = {{ tokens = {value} }}"))
    assert "step 1" in message and "add.tokens" in message


def test_a_multiplier_of_zero_is_accepted_and_below_zero_refused():
    assert parse(PLAIN.replace("add = { tokens = 1 }", "mul = { tokens = 0 }")).scenario.steps[0].mul == {"tokens": 0}
    assert "0 or more, got -1" in refused(PLAIN.replace("add = { tokens = 1 }", "mul = { tokens = -1 }"))


def test_set_takes_the_declared_type():
    text = PLAIN.replace("tokens = 3", "tokens = 3\nflag = false")
    sc = parse(text.replace("add = { tokens = 1 }", 'set = { flag = true, tokens = "2^4" }')).scenario
    assert sc.steps[0].set == {"flag": True, "tokens": 16}
    message = refused(text.replace("add = { tokens = 1 }", "set = { flag = 1 }"))
    assert "set.flag" in message and "boolean" in message and "true or false" in message
    message = refused(text.replace("add = { tokens = 1 }", "set = { tokens = true }"))
    assert "set.tokens" in message and "an integer" in message and "a whole number" in message
    message = refused(text.replace("add = { tokens = 1 }", "set = { tokens = 1.5 }"))
    assert "set.tokens" in message and "a whole number" in message


# --- sizes: steps, times, texts ------------------------------------------------------------------------


def steps(n: int) -> str:
    one = '[[step]]\nby = "Alice"\ndoes = "x"\noptional = true\n'
    return PLAIN.split("[[step]]")[0] + one * n


def test_256_steps_are_accepted_and_257_refused():
    assert MAX_STEPS == 256
    assert len(parse(steps(MAX_STEPS)).scenario.steps) == MAX_STEPS
    message = refused(steps(MAX_STEPS + 1))
    assert f"has {MAX_STEPS + 1} steps; at most {MAX_STEPS}" in message


def test_a_step_happens_between_1_and_10000_times():
    assert parse(PLAIN + f"times = {MAX_TIMES}\n").scenario.steps[0].times == MAX_TIMES
    assert parse(PLAIN + "times = 1\n").scenario.steps[0].times == 1
    assert f"between 1 and {MAX_TIMES:,}, got {MAX_TIMES + 1}" in refused(PLAIN + f"times = {MAX_TIMES + 1}\n")
    assert "between 1 and" in refused(PLAIN + "times = 0\n")


def test_a_text_of_10000_characters_is_accepted_and_one_more_refused():
    ok = "x" * MAX_TEXT
    assert parse(PLAIN.replace('does = "makes a token"', f'does = "{ok}"')).scenario.steps[0].does == ok
    message = refused(PLAIN.replace('does = "makes a token"', f'does = "{ok}x"'))
    assert f"is {MAX_TEXT + 1:,} characters long; at most {MAX_TEXT:,}" in message and "step 1" in message


# --- item numbers and field names in messages ------------------------------------------------------


def test_a_target_names_its_item_number_and_refuses_a_player_twice():
    text = PLAIN.replace("tokens = 3", "tokens = 3\nlife = { Alice = 5, Bob = 5 }").replace(
        "add = { tokens = 1 }", 'add = { life = -1 }\ntarget = { among = ["Bob", "Zed"] }')
    message = refused(text)
    assert "target.among item 2" in message and "'Zed'" in message
    assert "names a player twice" in refused(text.replace('"Zed"', '"Bob"'))
    assert "target.among" in refused(text.replace('["Bob", "Zed"]', "[]"))
    assert "target.among" in refused(text.replace('among = ["Bob", "Zed"]', 'order = "each"'))
    sc = parse(text.replace('"Zed"', '"Alice"')).scenario
    assert sc.steps[0].target.order == "fixed"  # the default order


def test_an_end_and_a_breaker_name_their_number():
    two_ends = PLAIN + (
        '\n[[end]]\nwhen = { value = "tokens", at_least = 100 }\neffect = "enough"\n'
        '\n[[end]]\nwhen = { value = "tokens", at_least = 100 }\neffect = "enough"\nloses = "Zed"\n'
    )
    assert "end 2" in refused(two_ends) and "end 1" not in refused(two_ends)
    breakers = PLAIN + '\n[[breaker]]\nby = "Bob"\ndoes = "x"\n\n[[breaker]]\nby = "Zed"\ndoes = "y"\n'
    message = refused(breakers)
    assert "breaker 2" in message and "breaker 1" not in message


def test_loses_false_names_nobody():
    sc = parse(PLAIN + '\n[[end]]\nwhen = { value = "tokens", at_least = 100 }\neffect = "enough"\nloses = false\n').scenario
    (end,) = sc.ends
    assert end.loses is None and not end.loses_each


def test_a_hidden_event_needs_no_random_step():
    event = 'ends_loop = { when = "Bob reveals the card", hidden = true }\n'
    sc = parse(PLAIN + event).scenario
    assert sc.steps[0].ends_loop.hidden and not sc.steps[0].random
    assert "ends_loop" in refused(PLAIN + 'ends_loop = { when = "x", hidden = false }\n')
    assert "ends_loop.hidden" in refused(PLAIN + 'ends_loop = { when = "x", hidden = 1 }\n')
    assert "ends_loop.when" in refused(PLAIN + "random = true\nends_loop = { hidden = true }\n")


@pytest.mark.parametrize("chance, ok", [('"1/1"', True), ('"1/2"', True), ('"2/3"', True), ('"0/1"', False), ('"1/0"', False), ('"3/2"', False)])
def test_a_chance_is_in_zero_to_one(chance, ok):
    text = PLAIN + f'random = true\nends_loop = {{ when = "x", chance = {chance} }}\n'
    if ok:
        assert parse(text).scenario.steps[0].ends_loop.chance > 0
    else:
        assert "ends_loop.chance" in refused(text)


def test_an_intent_step_must_be_within_the_iteration():
    assert parse(PLAIN + "\n[intent]\nAlice = { after = 2, step = 0 }\n").scenario.intents["Alice"].step == 0
    message = refused(PLAIN + "\n[intent]\nAlice = { after = 2, step = 1 }\n")
    assert "Alice.step" in message and "less than the number of steps (1), got 1" in message


def test_expectations_of_eliminations_name_their_item():
    text = PLAIN + '\n[expect.cr-2024]\neliminated = [{ player = "Bob" }, { player = "Zed" }]\n'
    message = refused(text)
    assert "eliminated item 2" in message and "eliminated item 1" not in message
    message = refused(PLAIN + '\n[expect.cr-2024]\neliminated = [{ iterations = 1 }]\n')
    assert "eliminated item 1" in message and "needs 'player'" in message


def test_one_expect_block_per_ruleset():
    text = PLAIN + '\n[expect.cr-2024]\nresult = "shortcut"\n\n[expect.cr-2024-x]\nresult = "shortcut"\n'
    assert "cr-2024" in refused(text)
    sc = parse(PLAIN + '\n[expect.cr-2024]\nresult = "shortcut"\n\n[expect.mtr-current]\nresult = "shortcut"\n')
    assert set(sc.expect) == {"cr-2024", "mtr-current"}


def test_a_title_is_required():
    assert "'title'" in refused(PLAIN.replace('title = "limits"\n', ""))


def test_to_document_leaves_format_1_out_and_writes_format_2():
    from loopcompare.comparator.loader import to_document

    assert to_document(parse(PLAIN).scenario)["format"] == 2
    format_1 = PLAIN.replace("format = 2\n", "")
    assert "format" not in to_document(parse(format_1).scenario)


def test_to_document_keeps_hidden_breakers_and_hidden_events():
    from loopcompare.comparator.loader import to_document

    text = PLAIN + 'ends_loop = { when = "Bob reveals the card", hidden = true }\n'
    text += '\n[[breaker]]\nby = "Bob"\ndoes = "casts a hidden answer"\nhidden = true\n'
    text += '\n[[breaker]]\nby = "Bob"\ndoes = "casts an open answer"\n'
    doc = to_document(parse(text).scenario)
    assert doc["step"][0]["ends_loop"] == {"when": "Bob reveals the card", "hidden": True}
    assert doc["breaker"] == [{"by": "Bob", "does": "casts a hidden answer", "hidden": True},
                              {"by": "Bob", "does": "casts an open answer"}]


def test_a_player_that_is_not_a_name_is_named_by_its_item_number():
    message = refused(PLAIN.replace('players = ["Alice", "Bob"]', 'players = ["Alice", 7]'))
    assert "'players' item 2" in message and "'players' item 1" not in message


def test_a_state_entry_with_an_error_is_not_reported_again_as_undeclared():
    message = refused(with_tokens('"2^3322"'))
    assert "more than 1,000 digits" in message
    assert "not declared" not in message


@pytest.mark.parametrize("text", ['"7^' + "9" * 7 + '"', '"' + "9" * 1001 + '^2"', '"3*10^' + "9" * 5000 + '"'])
def test_a_number_too_long_to_compute_is_refused_before_any_arithmetic(text):
    assert "more than 1,000 digits" in refused(with_tokens(text))
