"""The loader's checks of format 2 fields (FORMAT.md, "Format 2"), one behaviour each, with the
exact message: the file, the line, the table and the key, and what was expected.

[state] tables ({start, min, max} and one integer per player), 'requires', the bounds of
'ends_when', [[end]] and goal intents, a loop within one resolution, and the warning about a
value that can go below zero.  Each accepted edge is pinned next to the first value refused.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes
from loopcompare.rulesets.scenario import End, Goal, Limits

HEAD = """format = 2
title = "checks"
players = ["Alice", "Bob"]

[state]
"""

STEP = """
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
"""


def scenario_text(state: str, tail: str = "", step: str = STEP) -> str:
    return HEAD + state + "\n" + step + tail


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return str(info.value)


# --- [state] entries { start, min, max } ---------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, start, limits",
    [
        ("{ start = 4 }", 4, Limits()),
        ("{ start = 4, min = 0 }", 4, Limits(0, None)),
        ("{ max = 9, start = 4 }", 4, Limits(None, 9)),
        ("{ start = 4, min = 4, max = 4 }", 4, Limits(4, 4)),  # start on both edges, min == max
        ("{ start = 1, min = 1, max = 5 }", 1, Limits(1, 5)),
        ("{ start = 5, min = 1, max = 5 }", 5, Limits(1, 5)),
        ("{ start = -5, max = -5 }", -5, Limits(None, -5)),
    ],
)
def test_a_start_within_its_min_and_max_is_accepted(entry, start, limits):
    sc = parse(scenario_text(f"tokens = {entry}")).scenario
    assert sc.state["tokens"] == start and sc.limits["tokens"] == limits


@pytest.mark.parametrize("entry", ["{ start = 0, min = 1 }", "{ start = 6, max = 5 }", "{ start = 0, min = 1, max = 5 }", "{ start = 6, min = 1, max = 5 }"])
def test_a_start_outside_its_min_and_max_is_refused(entry):
    start = entry.split("start = ")[1].split(",")[0]
    assert refused(scenario_text(f"tokens = {entry}")) == f"case.toml: line 6: [state]: 'tokens.start': {start} is outside [min, max]"


def test_a_min_greater_than_its_max_is_refused():
    assert refused(scenario_text("tokens = { start = 3, min = 4, max = 3 }")) == "case.toml: line 6: [state]: 'tokens': min (4) is greater than max (3)"


def test_a_min_or_max_without_a_start_is_refused():
    assert refused(scenario_text("tokens = { min = 0 }")) == "case.toml: line 6: [state]: 'tokens.start': is required: the starting value"
    assert refused(scenario_text("tokens = { max = 9 }")) == "case.toml: line 6: [state]: 'tokens.start': is required: the starting value"


def test_a_table_entry_is_format_2():
    text = scenario_text("tokens = { start = 1 }").replace("format = 2\n", "")
    assert "[state]: 'tokens': a table-valued [state] entry is format 2: add 'format = 2' at the top of the file" in refused(text)


# --- [state] entries, one integer per player --------------------------------------------------------------


def test_a_per_player_entry_takes_one_integer_per_player():
    sc = parse(scenario_text("tokens = 0\nlife = { Bob = 5, Alice = \"10^3\" }")).scenario
    assert sc.state["life"] == {"Bob": 5, "Alice": 1000}


def test_an_empty_per_player_entry_is_refused():
    assert refused(scenario_text("tokens = 0\nlife = {}")) == "case.toml: line 7: [state]: 'life': a per-player value needs one integer per player"


def test_a_per_player_entry_for_someone_not_playing_is_refused():
    assert refused(scenario_text("tokens = 0\nlife = { Bob = 5, Zed = 3 }")) == (
        "case.toml: line 7: [state]: 'life.Zed': 'Zed' is not one of the players (Alice, Bob); "
        "a table here is either {start, min, max} or one integer per player"
    )


def test_a_state_entry_of_another_kind_is_refused():
    assert refused(scenario_text("tokens = 1.5")) == "case.toml: line 6: [state]: 'tokens': expected true, false or a whole number, got a decimal number (1.5)"


# --- requires -------------------------------------------------------------------------------------------


def test_requires_reads_plain_integers_only():
    for state in ("tokens = 0\nflag = false", "tokens = 0\nflag = { Alice = 1, Bob = 1 }"):
        step = STEP.replace("add = ", "requires = { flag = 1 }\nadd = ")
        assert refused(scenario_text(state, step=step)).endswith(
            "step 1: 'requires.flag': 'flag' is not a plain integer; 'requires' reads plain integers only"
        )


def test_requires_of_an_undeclared_value_is_refused():
    step = STEP.replace("add = ", "requires = { mana = 1 }\nadd = ")
    assert refused(scenario_text("tokens = 0", step=step)) == "case.toml: line 12: step 1: 'requires.mana': 'mana' is not declared in [state] (declared: tokens)"


# --- bounds: [loop] ends_when -----------------------------------------------------------------------------


def loop_end(bound: str, state: str = "tokens = 0\nflag = false\nlife = { Alice = 3, Bob = 3 }") -> str:
    return refused(scenario_text(state, f"\n[loop]\nends_when = {bound}\n"))


def test_a_bound_names_its_value():
    assert loop_end("{ at_least = 3 }").endswith("[loop]: 'ends_when.value': is required: the name of an integer in [state]")
    assert loop_end("{ value = 3, at_least = 3 }").endswith("[loop]: 'ends_when.value': expected the name of an integer in [state], got the number 3")
    assert loop_end('{ value = "mana", at_least = 3 }').endswith("[loop]: 'ends_when.value': 'mana' is not declared in [state]")


def test_a_bound_is_on_an_integer():
    assert loop_end('{ value = "flag", at_least = 3 }').endswith("[loop]: 'ends_when.value': 'flag' is a boolean; ends_when needs an integer")
    assert loop_end('{ value = "life", at_most = 0 }').endswith("[loop]: 'ends_when.value': 'life' is a per-player value; use an [[end]] table for it")


def test_a_bound_has_exactly_one_of_at_most_and_at_least():
    for bound in ('{ value = "tokens" }', '{ value = "tokens", at_most = 0, at_least = 9 }'):
        assert loop_end(bound).endswith("[loop]: 'ends_when': needs exactly one of 'at_most' or 'at_least'")


# --- [[end]] tables -----------------------------------------------------------------------------------------


STATE = "tokens = 0\nlife = { Alice = 3, Bob = 3 }"


def test_end_must_be_tables():
    text = scenario_text(STATE).replace('title = "checks"', 'title = "checks"\nend = 3')
    assert refused(text) == "case.toml: line 3: 'end': expected [[end]] tables"


def test_an_end_needs_its_when():
    assert refused(scenario_text(STATE, '\n[[end]]\neffect = "x"\n')) == (
        "case.toml: line 15: end 1: 'when': is required: { value = NAME, at_most = N } or at_least"
    )


def test_ends_when_and_end_tables_do_not_mix():
    tail = '\n[loop]\nends_when = { value = "tokens", at_least = 5 }\n\n[[end]]\nwhen = { value = "tokens", at_least = 9 }\n'
    assert refused(scenario_text(STATE, tail)).endswith(
        "'end': [loop] ends_when and [[end]] tables don't mix: write every end as an [[end]] table"
    )


def test_loses_true_is_for_per_player_values_and_a_name_for_plain_ones():
    plain_true = '\n[[end]]\nwhen = { value = "tokens", at_least = 5 }\nloses = true\n'
    assert refused(scenario_text(STATE, plain_true)).endswith(
        "end 1: 'loses': true means 'the player whose own tokens it is', but 'tokens' is not a per-player value; name the player who loses"
    )
    per_named = '\n[[end]]\nwhen = { value = "life", at_most = 0 }\nloses = "Bob"\n'
    assert refused(scenario_text(STATE, per_named)).endswith(
        "end 1: 'loses': 'life' is a per-player value: write 'loses = true' (each player whose own value reaches the bound loses)"
    )
    ok = parse(scenario_text(STATE, '\n[[end]]\nwhen = { value = "tokens", at_least = 5 }\nloses = "Bob"\n')).scenario
    assert ok.ends == (End("tokens", 5, False, "", "Bob", False),)


@pytest.mark.parametrize(
    "when, start_text",
    [
        ('{ value = "tokens", at_least = 0 }', "0"),  # the bound reached exactly
        ('{ value = "tokens", at_most = 0 }', "0"),
        ('{ value = "tokens", at_most = 5 }', "0"),
        ('{ value = "life", at_most = 3 }', "Alice 3, Bob 3"),
        ('{ value = "life", at_least = 3 }', "Alice 3, Bob 3"),
    ],
)
def test_an_end_that_holds_before_the_first_step_is_refused(when, start_text):
    name = when.split('"')[1]
    assert refused(scenario_text(STATE, f"\n[[end]]\nwhen = {when}\n")) == (
        f"case.toml: line 16: end 1: 'when': already holds before the first step ({name} starts at {start_text}); the loop would never start"
    )


@pytest.mark.parametrize("when", ['{ value = "tokens", at_least = 1 }', '{ value = "tokens", at_most = -1 }', '{ value = "life", at_most = 2 }', '{ value = "life", at_least = 4 }'])
def test_an_end_one_past_the_start_is_accepted(when):
    assert len(parse(scenario_text(STATE, f"\n[[end]]\nwhen = {when}\n")).scenario.ends) == 1


def test_one_player_at_the_bound_is_enough_for_an_end_to_hold():
    state = "tokens = 0\nlife = { Alice = 3, Bob = 0 }"
    assert "already holds before the first step (life starts at Alice 3, Bob 0)" in refused(scenario_text(state, '\n[[end]]\nwhen = { value = "life", at_most = 0 }\n'))


# --- goal intents ---------------------------------------------------------------------------------------------


def goal(until: str) -> str:
    return scenario_text(STATE, f"\n[intent]\nAlice = {{ until = {until} }}\n")


def test_a_goal_on_a_per_player_value_says_whose():
    sc = parse(goal('{ value = "life", at_most = 1, player = "Bob" }')).scenario
    assert sc.intents["Alice"].until == Goal("life", 1, True, "Bob")
    assert refused(goal('{ value = "life", at_most = 1 }')) == (
        "case.toml: line 16: [intent]: 'Alice.until.player': 'life' is a per-player value: say whose ('player')"
    )


def test_a_goal_on_a_player_without_an_entry_is_refused():
    text = goal('{ value = "life", at_most = 1, player = "Bob" }').replace("life = { Alice = 3, Bob = 3 }", "life = { Alice = 3 }")
    assert refused(text).endswith("[intent]: 'Alice.until.player': Bob has no entry in [state] life")


def test_a_goal_on_a_plain_value_names_nobody():
    assert parse(goal('{ value = "tokens", at_least = 5 }')).scenario.intents["Alice"].until == Goal("tokens", 5, False, None)
    assert refused(goal('{ value = "tokens", at_least = 5, player = "Bob" }')).endswith(
        "[intent]: 'Alice.until.player': 'tokens' is not a per-player value"
    )


def test_a_goal_is_format_2():
    text = scenario_text("tokens = 0", '\n[intent]\nAlice = { until = { value = "tokens", at_least = 5 } }\n').replace("format = 2\n", "")
    assert "[intent]: 'Alice': a goal ('until') is format 2: add 'format = 2' at the top of the file" in refused(text)


# --- a loop within one resolution ------------------------------------------------------------------------------


def within(loop: str = "", step_extra: str = "", tail: str = "") -> str:
    return scenario_text("tokens = 0", f'\n[loop]\nwithin = "resolution"\n{loop}\n{tail}', step=STEP + step_extra)


def test_a_loop_within_one_resolution_spans_no_turns_and_takes_no_shortcut_before():
    for flag in ("spans_turns", "shortcut_before"):
        assert refused(within(f"{flag} = true")).endswith(
            f"[loop]: '{flag}': doesn't combine with within = \"resolution\": the repetition happens inside one resolution"
        )


def test_a_loop_within_one_resolution_has_no_turns_on_its_steps():
    assert refused(within(step_extra='turn = "Alice"\n')).endswith(
        "step 1: 'turn': doesn't combine with within = \"resolution\": nobody's turn changes inside one resolution"
    )


def test_a_loop_within_one_resolution_has_no_breakers():
    assert refused(within(tail='\n[[breaker]]\nby = "Bob"\ndoes = "responds"\n')).endswith(
        "breaker 1: no player receives priority inside one resolution, so nobody can act outside it mid-way: a breaker can't be used"
    )


def test_within_one_resolution_only_a_player_with_a_choice_has_an_intent():
    assert parse(within(tail="\n[intent]\nAlice = 3\nBob = \"never\"\n")).scenario.intents["Alice"].after == 3
    assert refused(within(tail="\n[intent]\nBob = 3\n")).endswith(
        "[intent]: 'Bob': Bob has no choice inside the resolution, so no intent but \"never\" can apply"
    )


def test_within_takes_priority_or_resolution():
    assert refused(within().replace('"resolution"', '"stack"')).endswith(
        "[loop]: 'within': expected \"priority\" or \"resolution\", got the string 'stack'"
    )


# --- a value that can go below zero --------------------------------------------------------------------------


def test_the_warning_about_a_value_going_below_zero_names_the_first_step_lowering_it():
    steps = STEP + '\n[[step]]\nby = "Bob"\ndoes = "spends mana"\nadd = { mana = -1 }\n' + '\n[[step]]\nby = "Bob"\ndoes = "spends more"\nadd = { mana = -2 }\n'
    warnings = parse(scenario_text("tokens = 0\nmana = 5", step=steps)).warnings
    assert warnings == (
        "line 18: step 2: 'add.mana': lowers 'mana', which has no 'min' and no end, so it can go below zero; a resource "
        "(mana, cards, counters) needs a floor: mana = { start = ..., min = 0 } (life may go negative)",
    )


def test_no_warning_for_a_value_with_a_floor_an_end_or_only_raised():
    steps = STEP + '\n[[step]]\nby = "Bob"\ndoes = "spends mana"\nadd = { mana = -1 }\n'
    assert parse(scenario_text("tokens = 0\nmana = { start = 5, min = 0 }", step=steps)).warnings == ()
    assert parse(scenario_text("tokens = 0\nmana = 5", '\n[[end]]\nwhen = { value = "mana", at_most = 0 }\n', step=steps)).warnings == ()
    assert parse(scenario_text("tokens = 0\nmana = { start = 5, max = 9 }", step=steps.replace("mana = -1", "mana = 1"))).warnings == ()
    assert parse(scenario_text("tokens = 0\nmana = 5", step=steps.replace("mana = -1", "mana = 0"))).warnings == ()  # adding 0 lowers nothing


def test_a_per_player_value_may_go_negative_without_a_warning():
    # Per-player values are life totals and the like (a player's life may go below zero).
    step = STEP + '\n[[step]]\nby = "Bob"\ndoes = "drains"\ntarget = { among = ["Alice"] }\nadd = { life = -1 }\n'
    assert parse(scenario_text("tokens = 0\nlife = { Alice = 3 }", step=step)).warnings == ()


def test_a_ceiling_is_no_floor():
    steps = STEP + '\n[[step]]\nby = "Bob"\ndoes = "spends mana"\nadd = { mana = -1 }\n'
    (warning,) = parse(scenario_text("tokens = 0\nmana = { start = 5, max = 9 }", step=steps)).warnings
    assert warning.startswith("line 18: step 2: 'add.mana': lowers 'mana', which has no 'min' and no end")


def test_only_a_goal_names_whose_value_it_bounds():
    # 'player' belongs to an intent's goal; a loop's end or an [[end]] bound names no player.
    assert loop_end('{ value = "tokens", at_least = 5, player = "Bob" }').endswith(
        "[loop]: 'ends_when.player': unknown key; expected one of at_least, at_most, value"
    )
    assert refused(scenario_text(STATE, '\n[[end]]\nwhen = { value = "life", at_most = 0, player = "Bob" }\n')).endswith(
        "end 1: 'when.player': unknown key; expected one of at_least, at_most, value"
    )


def test_a_file_without_steps_gets_no_follow_on_error_about_intent_steps():
    # With no step to count, an intent's step is checked against one step (index 0 is valid), so
    # the only error is the missing steps.
    text = HEAD + "tokens = 0\n\n[intent]\nAlice = { after = 1, step = 0 }\n"
    with pytest.raises(ScenarioError) as info:
        parse(text)
    assert [e.one_line() for e in info.value.errors] == ["case.toml: 'step': is required: one [[step]] table per step of an iteration"]
