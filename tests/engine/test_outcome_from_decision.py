"""How the driver fills an outcome's format 2 fields from a procedure's decision
(``Settlement.outcome``, ``ended_by``, ``_event_fields`` in rulesets/base.py), pinned one field
at a time against values worked out by hand from FORMAT.md."""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

MISSION = ["cr-2004", "cr-2008", "cr-2024", "mtr-current"]

COUNTDOWN = """
title = "a countdown"
players = ["Alice", "Bob"]
[state]
x = {start}
[loop]
ends_when = {{ value = "x", {bound} }}
[[step]]
by = "Alice"
does = "moves x"
optional = true
add = {{ x = {step} }}
"""

MANA = """
format = 2
title = "a token loop that runs out of mana"
players = ["Alice", "Bob"]
[state]
mana = {{ start = 7, min = 0 }}
tokens = 0
[[step]]
by = "Alice"
does = "pays {{2}}: create a token"
optional = true
requires = {{ mana = 2 }}
add = {{ mana = -2, tokens = 1 }}
{intent}
"""


@pytest.mark.parametrize("key", MISSION)
def test_an_end_without_an_effect_is_named_by_its_value_and_bound(key):
    # x falls 3, 2, 1, 0: the loop ends by itself after 3 iterations.
    out = registry().get(key).settle(scenario(COUNTDOWN.format(start=3, bound="at_most = 0", step=-1)).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("ends", 3, "x at most 0")
    out = registry().get(key).settle(scenario(COUNTDOWN.format(start=0, bound="at_least = 4", step=2)).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("ends", 2, "x at least 4")


@pytest.mark.parametrize("key", MISSION)
def test_a_loop_with_no_end_has_no_ended_by(key):
    text = COUNTDOWN.format(start=3, bound="at_most = 0", step=-1).replace('[loop]\nends_when = { value = "x", at_most = 0 }\n', "")
    text += '[intent]\nAlice = 2\n'
    out = registry().get(key).settle(scenario(text).scenario)
    assert (out.result.value, out.iterations, out.ended_by) == ("shortcut", 2, None)


@pytest.mark.parametrize("key", MISSION)
def test_a_player_who_stops_before_their_requirement_fails_stops_by_intent(key):
    # 7 mana pays for three tokens; Alice means to stop after two: her intent, not the requirement.
    out = registry().get(key).settle(scenario(MANA.format(intent="[intent]\nAlice = 2")).scenario)
    assert (out.result.value, out.iterations, out.deviates, out.stopped_by.value) == ("shortcut", 2, "Alice", "intent")
    assert out.state == {"mana": 3, "tokens": 2}


@pytest.mark.parametrize("key", MISSION)
def test_a_player_stopped_where_their_requirement_fails_stops_by_requirement(key):
    for intent in ("", "[intent]\nAlice = 3", "[intent]\nAlice = 5"):
        out = registry().get(key).settle(scenario(MANA.format(intent=intent)).scenario)
        assert (out.result.value, out.iterations, out.deviates, out.stopped_by.value) == ("shortcut", 3, "Alice", "requirement"), intent
        assert out.state == {"mana": 1, "tokens": 3}


def test_an_outcome_the_text_leaves_unspecified_has_no_expected_length():
    # The 1998 Rules Summary has no rule for this random loop: no ends_early_if, no expectation,
    # though an event could end it (FORMAT item 10 gives them only to outcomes with a stop).
    text = """
format = 2
title = "a random loop"
players = ["Alice", "Bob"]
[state]
tokens = 0
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
[[step]]
by = "Bob"
does = "flips"
random = true
ends_loop = { when = "she loses a flip", chance = "1/2" }
[intent]
Alice = 3
"""
    loop = scenario(text).scenario
    out = registry().get("summary-1998").settle(loop)
    assert out.result.value == "unspecified"
    assert out.ends_early_if is None and out.expected_iterations is None
    # The same loop where a text settles it does carry them.
    out = registry().get("cr-2008").settle(loop)
    assert out.result.value == "shortcut" and out.ends_early_if == "she loses a flip"
    assert out.expected_iterations is not None


@pytest.mark.parametrize("key", MISSION)
def test_the_transcript_says_why_only_where_the_cut_is_the_failed_requirement(key):
    out = registry().get(key).settle(scenario(MANA.format(intent="")).scenario)
    assert sum("the requirement fails, so Alice stops sustaining the loop there" in line for line in out.transcript) == 1
    out = registry().get(key).settle(scenario(MANA.format(intent="[intent]\nAlice = 2")).scenario)
    assert not any("requirement fails" in line for line in out.transcript)


REPEATED_PAYMENT = """
format = 2
title = "two payments a step"
players = ["Alice", "Bob"]
[state]
mana = { start = 7, min = 0 }
tokens = 0
[[step]]
by = "Alice"
does = "pays {1}: create a token"
optional = true
times = 2
requires = { mana = 1 }
add = { mana = -1, tokens = 1 }
"""


@pytest.mark.parametrize("key", MISSION)
def test_a_requirement_failing_inside_a_repeated_step_names_its_application(key):
    # 7 mana, 2 payments an iteration: three iterations (6), then the 7th payment (application
    # 1 of iteration 3) and no mana for the 8th, application 2 of 2 (FORMAT items 2 and 4).
    out = registry().get(key).settle(scenario(REPEATED_PAYMENT).scenario)
    assert (out.result.value, out.iterations, out.steps, out.stopped_by.value) == ("shortcut", 3, 0, "requirement")
    assert out.state == {"mana": 0, "tokens": 7}
    (line,) = [t for t in out.transcript if "the requirement fails, so" in t]
    assert "after 3 iterations (application 2 of 2): the requirement fails" in line
    # A step performed once has no application to name.
    (line,) = [t for t in registry().get(key).settle(scenario(MANA.format(intent="")).scenario).transcript if "the requirement fails, so" in t]
    assert "(application" not in line


@pytest.mark.parametrize("key", ["cr-2004", "cr-2008"])
def test_a_cut_past_another_players_failed_requirement_is_moved_there_with_a_note(key):
    # Bob means to stop after 5, but Alice can pay for 3 iterations only: the loop stops there.
    # (421.3 gives Bob's lower number the cut; CR 729 and the MTR start from Alice's own point.)
    text = MANA.format(intent="[intent]\nBob = 5") + '[[step]]\nby = "Bob"\ndoes = "Bob untaps the engine"\noptional = true\n'
    out = registry().get(key).settle(scenario(text).scenario)
    assert (out.result.value, out.deviates, out.iterations, out.stopped_by.value) == ("shortcut", "Alice", 3, "requirement")
    assert any(n.startswith("The procedure would run the loop past after 3 iterations, where Alice can no longer take") for n in out.notes)
    # Alice's own cut moved to her failed requirement needs no such note.
    out = registry().get(key).settle(scenario(MANA.format(intent="")).scenario)
    assert not any(n.startswith("The procedure would run the loop past") for n in out.notes)


@pytest.mark.parametrize("key", ["summary-1998", "cr-2004", "cr-2008", "cr-2009", "cr-2024"])
def test_the_comprehensive_rules_never_call_for_a_judge(key):
    # Only the Tournament Rules speak of a judge (MTR 4.4); the rule books never do.
    for text in (MANA.format(intent=""), MANA.format(intent="[intent]\nAlice = 2")):
        assert registry().get(key).settle(scenario(text).scenario).judge is False


def test_an_unspecified_outcome_says_where_the_loop_would_end_by_itself():
    # The 1998 Rules Summary has no rule for two players' optional actions; x runs out anyway
    # after 2 iterations and 1 step (3, 2, 1, then 0 at Alice's step).
    text = COUNTDOWN.format(start=3, bound="at_most = 0", step=-1) + '[[step]]\nby = "Bob"\ndoes = "Bob untaps"\noptional = true\n'
    out = registry().get("summary-1998").settle(scenario(text).scenario)
    assert out.result.value == "unspecified"
    assert "Left alone, the loop would end by itself after 2 iterations and 1 step." in out.notes
    out = registry().get("cr-2024").settle(scenario(text).scenario)
    assert (out.result.value, out.iterations, out.steps) == ("ends", 2, 1)
    assert not any(n.startswith("Left alone") for n in out.notes)


def test_an_unspecified_outcome_with_a_failed_requirement_is_not_cut_there():
    # The 1998 Rules Summary has no rule for two players' optional actions: the outcome is
    # unspecified, and Alice's requirement failing after 3 does not turn it into a shortcut.
    text = MANA.format(intent="") + '[[step]]\nby = "Bob"\ndoes = "Bob untaps the engine"\noptional = true\n'
    out = registry().get("summary-1998").settle(scenario(text).scenario)
    assert (out.result.value, out.iterations, out.deviates, out.stopped_by) == ("unspecified", None, None, None)
    assert not any("the requirement fails" in line for line in out.transcript)
