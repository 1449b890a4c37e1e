"""The readings the Ruleset driver (rulesets/base.py) takes where every era's text is silent,
each pinned by its own test: who is taken to sustain a repetition inside one resolution, and
how the rest of a loop is settled once every player who maintained it has left the game."""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import UNBOUNDED
from loopcompare.rulesets.facts import facts_of
from test_format2_review import ONLY_INVOLVED_LEAVES

RESOLUTION = """
format = 2
title = "a repetition inside one resolution"
players = ["Alice", "Bob"]
[loop]
within = "resolution"
[state]
x = 0
[[step]]
by = "{first}"
does = "chooses to repeat the process"
choice = true
optional = true
add = {{ x = 1 }}
[[step]]
by = "Bob"
does = "chooses again"
choice = true
optional = true
[intent]
Alice = "never"
Bob = "never"
"""


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_choices_of_two_players_in_one_resolution_are_sustained_by_the_first_in_turn_order(key):
    out = registry().get(key).settle(scenario(RESOLUTION.format(first="Alice")).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", "Alice", UNBOUNDED, 0)
    assert any(n.startswith("Choices of Alice, Bob sustain this resolution; reading taken: the first in turn order, Alice,") for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_one_players_choices_in_one_resolution_need_no_reading_of_who_sustains_it(key):
    out = registry().get(key).settle(scenario(RESOLUTION.format(first="Bob")).scenario)
    assert (out.result.value, out.deviates) == ("shortcut", "Bob")
    assert not any(n.startswith("Choices of") for n in out.notes)


# Alice alone maintains the loop and means to stop after 4 iterations; Bob's triggers drain her
# (2 life, hit in iterations 0 and 2): she leaves after 2 iterations and 2 steps, before her
# point. Carol can destroy the trigger's source and means to after 5 iterations.
LEAVER_THEN_BREAKER = (
    ONLY_INVOLVED_LEAVES.format(carol=50, gain=1).replace('Alice = "never"', "Alice = 4\nCarol = 5")
    + '[[breaker]]\nby = "Carol"\ndoes = "Carol destroys the trigger\'s source"\n'
)


@pytest.mark.parametrize("key", ["cr-2004", "cr-2008", "cr-2024", "mtr-current"])
def test_a_breaker_ends_the_mandatory_rest_left_when_its_only_maintainer_leaves(key):
    out = registry().get(key).settle(scenario(LEAVER_THEN_BREAKER).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", "Carol", 5, 0)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Alice", 2, 2)]
    assert any("the rest is a mandatory loop among the players left" in n for n in out.notes)
    # Alice has left: her number plays no part in the rest, and no note weighs it.
    assert not any(n.startswith("Alice means to stop") for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_the_procedure_applied_again_names_only_the_players_who_left(key):
    from test_format2_procedures import TWO_MAINTAINERS

    # Bob (3 life) means to stop after 10 but leaves after 6 iterations and 1 step; Carol's 20 stands.
    out = registry().get(key).settle(scenario(TWO_MAINTAINERS.format(bob=10, carol=20)).scenario)
    (note,) = [n for n in out.notes if "applied again among the players still in the game" in n]
    assert "in the game, without Bob, whose numbers no longer count" in note
    assert (out.deviates, out.iterations) == ("Carol", 20)


RESOLUTION_WITH_A_COST = """
format = 2
title = "a repetition inside one resolution that costs mana"
players = ["Alice", "Bob"]
[loop]
within = "resolution"
[state]
mana = { start = 7, min = 0 }
tokens = 0
[[step]]
by = "Alice"
does = "pays {2}: create a token"
optional = true
choice = true
requires = { mana = 2 }
add = { mana = -2, tokens = 1 }
"""


@pytest.mark.parametrize("key", ["summary-1998", "cr-2004", "cr-2008", "mtr-2018", "cr-2024", "mtr-current"])
def test_a_chooser_inside_one_resolution_stops_where_their_requirement_fails(key):
    # Alice would repeat the choice for ever, but 7 mana pays for three tokens only: she stops
    # after 3 because she must, not after "an unbounded number".
    out = registry().get(key).settle(scenario(RESOLUTION_WITH_A_COST).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", "Alice", 3, 0)
    assert out.stopped_by.value == "requirement"
    assert out.state == {"mana": 1, "tokens": 3}



INDEPENDENT_SETS_AND_MANA = """
format = 2
title = "independent sets in a loop that runs out of mana"
players = ["Alice", "Bob"]
[loop]
independent = true
[state]
mana = {{ start = 10, min = 0 }}
x = 0
[[step]]
by = "Alice"
does = "Alice's set"
optional = true
add = {{ x = 1 }}
[[step]]
by = "Bob"
does = "Bob's set"
optional = true
add = {{ x = 10 }}
[[step]]
by = "Bob"
does = "the engine spends two mana"
requires = {{ mana = 2 }}
add = {{ mana = -2 }}
[intent]
Alice = {alice}
Bob = {bob}
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008", "cr-2024"])
def test_independent_sets_run_their_own_counts_up_to_a_failed_mandatory_requirement(key):
    # Bob's set spends 2 of 10 mana an iteration: the loop would end at iteration 5, step 2.
    def settle(alice, bob):
        return registry().get(key).settle(scenario(INDEPENDENT_SETS_AND_MANA.format(alice=alice, bob=bob)).scenario)

    # Both sets stop first (2 and 3): 3 payments, x = 2 * 1 + 3 * 10.
    out = settle(2, 3)
    assert (out.result.value, out.iterations, out.state) == ("shortcut", {"Alice": 2, "Bob": 3}, {"mana": 4, "x": 32})
    # Both still run at the failure: the whole loop's end, after Alice's and Bob's 6th steps.
    out = settle(7, 8)
    assert (out.result.value, out.iterations, out.steps, out.state) == ("ends", 5, 2, {"mana": 0, "x": 66})
    assert out.ended_by == "requires mana >= 2: the engine spends two mana"
    # Alice's set stops after 2; Bob's runs on until the 6th payment fails: each set's own count.
    out = settle(2, 8)
    assert (out.result.value, out.iterations, out.state) == ("ends", {"Alice": 2, "Bob": 6}, {"mana": 0, "x": 62})
    assert out.ended_by == "requires mana >= 2: the engine spends two mana"


def _line(out, words: str) -> str:
    (line,) = [t for t in out.transcript if words in t]
    return line


@pytest.mark.parametrize("key, rule", [("cr-2005", "421.1"), ("cr-2008", "421.1"), ("cr-2024", "729.1b")])
def test_independent_sets_that_end_by_themselves_cite_the_loop_rule_and_say_what_ended_them(key, rule):
    # Format 2: Alice's set stops after 2, Bob's runs until the 6th payment fails.
    out = registry().get(key).settle(scenario(INDEPENDENT_SETS_AND_MANA.format(alice=2, bob=8)).scenario)
    line = _line(out, "while the independent sets run their own numbers")
    assert line == (
        f"{rule}: the loop is not endless: while the independent sets run their own numbers, it ends by itself "
        "(requires mana >= 2: the engine spends two mana)."
    )
    assert rule in out.rules and rule in dict(out.quotes)
    # The whole loop ends too (all sets running, at iteration 5): no note that it would not.
    assert not any(n.startswith("With every set running the loop would never end") for n in out.notes)


@pytest.mark.parametrize("key, rule", [("cr-2005", "421.1"), ("cr-2008", "421.1")])
def test_independent_sets_that_end_only_once_a_set_stopped_say_so(key, rule):
    from test_base import ONLY_WITHOUT_ALICES_SET

    # Format 1: with both sets running x goes 1, 2, 1, 2, ...; Alice's set never runs, and Bob's
    # first action takes x to 0.
    out = registry().get(key).settle(scenario(ONLY_WITHOUT_ALICES_SET).scenario)
    assert out.result.value == "ends"
    line = _line(out, "while the independent sets run their own numbers")
    assert line.startswith(f"{rule}: the loop is not endless: while the independent sets run their own numbers, it ends by itself (")
    assert any(n.startswith("With every set running the loop would never end; it ends because a set") for n in out.notes)
    assert rule in dict(out.quotes) and "" not in dict(out.quotes)


INDEPENDENT_COUNTER = """
title = "Alice's set counts, Bob's set waits"
players = ["Alice", "Bob"]
[state]
x = 0
[loop]
independent = true
ends_when = { value = "x", at_least = 4 }
[intent]
Alice = 3
Bob = 5
[[step]]
by = "Alice"
does = "adds 1"
optional = true
add = { x = 1 }
[[step]]
by = "Bob"
does = "waits"
optional = true
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_a_bound_the_whole_loop_reaches_only_after_a_set_stopped_is_never_reached(key):
    # All sets running, x would reach 4 at Alice's step of iteration 3; but Alice performs her
    # set 3 times only (x = 3), so the loop never ends and each set keeps its own number.
    out = registry().get(key).settle(scenario(INDEPENDENT_COUNTER).scenario)
    assert (out.result.value, out.iterations, out.state) == ("shortcut", {"Alice": 3, "Bob": 5}, {"x": 3})


def test_a_bound_that_holds_before_the_loop_starts_ends_it_at_once_with_a_note():
    text = 'title = "t"\nplayers = ["Alice", "Bob"]\n[state]\nx = 0\n[loop]\nends_when = { value = "x", at_most = 0 }\n'
    text += '[[step]]\nby = "Alice"\ndoes = "a"\noptional = true\nadd = { x = -1 }\n'
    out = registry().get("cr-2024").settle(scenario(text).scenario)
    assert (out.result.value, out.iterations, out.steps) == ("ends", 0, 0)
    assert "The bound already holds before the loop starts; the loop ends at once." in out.notes
    text = text.replace("x = 0\n", "x = 1\n")
    out = registry().get("cr-2024").settle(scenario(text).scenario)
    # x reaches 0 at the loop's only step: one complete iteration (FORMAT item 4).
    assert (out.result.value, out.iterations, out.steps) == ("ends", 1, 0)
    assert not any(n.startswith("The bound already holds") for n in out.notes)


@pytest.mark.parametrize("key", ["cr-2004", "cr-2024", "mtr-current"])
def test_each_player_who_loses_during_a_loop_that_ends_is_noted_leaving(key):
    out = registry().get(key).settle(scenario(ONLY_INVOLVED_LEAVES.format(carol=5, gain=0)).scenario)
    assert out.result.value == "ends"
    leaving = [n for n in out.notes if " loses the game " in n and "and leaves it" in n]
    assert [n.split(" ")[0] for n in leaving] == ["Alice", "Carol"]
    assert leaving[0].startswith("Alice loses the game after 2 iterations and 2 steps (that player loses) and leaves it")


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
def test_the_tournament_rules_quote_the_comprehensive_rules_draw_rule_they_cite(key):
    from loopcompare.rulesets.texts import draw_rule

    ruleset = registry().get(key)
    assert ruleset.quote("CR 104.4b") == draw_rule("104.4b", ruleset.cr_date or ruleset.effective)


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
def test_the_draw_rule_the_tournament_rules_cite_is_found_in_the_draw_rules_file(key):
    doc = registry().get(key).source_of("CR 104.4b")
    assert doc is not None and doc.filename.startswith("draw-rules_")


def test_the_mandatory_rest_left_by_its_only_maintainer_is_settled_by_its_own_rule_even_without_end():
    # Alice, who alone maintained the loop, leaves after 2 iterations and 2 steps; the rest is
    # mandatory. The 1998 Rules Summary has no draw for it: each player picks a number and the
    # loop repeats the larger, an unbounded one (G.21.3), ending where it would begin again
    # (G.21.4). That is the outcome, not Alice's own stop, which she never reaches.
    out = registry().get("summary-1998").settle(scenario(ONLY_INVOLVED_LEAVES.format(carol=50, gain=1)).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("shortcut", None, UNBOUNDED, 0)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Alice", 2, 2)]
    assert not any("would come before it starts" in n for n in out.notes)


def _two_maintainers(bob: int, carol_life: int):
    from test_format2_procedures import TWO_MAINTAINERS

    return scenario(TWO_MAINTAINERS.format(bob=bob, carol=20).replace("Carol = 100", f"Carol = {carol_life}")).scenario


# Alice drains Bob, Carol and Dave in turn. Bob (3 life) loses at his third hit, after 6
# iterations and 1 step; Carol (4 life) at her fourth, after 9 and 1 (the rotation skips Bob
# once he is gone); Dave (100 life) has taken 3 by then, then one an iteration: after 106 and 1.
LEAVES = [("Bob", 6, 1), ("Carol", 9, 1), ("Dave", 106, 1)]


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_when_every_maintainer_leaves_before_the_cut_the_note_gives_each_its_own_leaving_point(key):
    # Bob was to stop after 10; Carol after 20. Both are gone by iteration 10.
    out = registry().get(key).settle(_two_maintainers(10, 4))
    assert (out.result.value, out.iterations, out.steps) == ("ends", 106, 1)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == LEAVES
    (note,) = [n for n in out.notes if "nobody left in the game maintains the loop" in n]
    assert note.startswith(
        "Bob leaves the game after 6 iterations and 1 step, before the point where they were to deviate; "
        "Carol, the last who maintained it, leaves after 9 iterations and 1 step, and nobody left"
    )


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-current"])
def test_a_player_the_procedure_applied_again_relies_on_may_leave_too(key):
    # Bob was to stop after 7 and leaves first; among those left Carol's 20 stands, but she
    # leaves after 9: the rest is mandatory, and the loop runs until Dave is out.
    out = registry().get(key).settle(_two_maintainers(7, 4))
    assert (out.result.value, out.deviates, out.iterations, out.steps) == ("ends", None, 106, 1)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == LEAVES
    assert any(n.startswith("Carol leaves the game after 9 iterations and 1 step, before the point") for n in out.notes)


def test_a_mandatory_loop_that_ends_by_itself_names_no_one_who_would_have_stopped_it():
    from test_outcome_from_decision import COUNTDOWN

    # Only a mandatory step: nobody would have stopped it, so no "Had the loop not ended" note.
    text = COUNTDOWN.format(start=3, bound="at_most = 0", step=-1).replace("optional = true\n", "")
    for key in ("summary-1998", "cr-2004", "cr-2024", "mtr-current"):
        out = registry().get(key).settle(scenario(text).scenario)
        assert (out.result.value, out.iterations, out.steps) == ("ends", 3, 0)
        assert not any(n.startswith("Had the loop not ended") for n in out.notes), key


PLAIN_SETS = """
format = 2
title = "two independent sets"
players = ["Alice", "Bob"]
[loop]
independent = true
[state]
x = 0
[[step]]
by = "Alice"
does = "Alice's set"
optional = true
add = {{ x = 1 }}
{extra}
[[step]]
by = "Bob"
does = "Bob's set"
optional = true
"""


def test_only_format_2_features_send_independent_sets_to_the_format_2_engine():
    def beyond(extra: str):
        return facts_of(scenario(PLAIN_SETS.format(extra=extra)).scenario).sets_beyond_closed_form

    # Additions on plain values: format 1's closed form of independent sets follows them.
    assert beyond("") is None
    assert beyond("times = 1") is None
    assert beyond("times = 2") == "a step with times (Alice's set)"
    assert beyond("sustains = false") == "a step with sustains = false (Alice's set)"
