"""Step keys that say nothing, or something other than the author meant (FORMAT.md; the loader's
``step_sense``): each combination with its exact message, and its neighbours that are fine.

'hidden' needs a hidden choice to make (an optional step, a choice, or an event); 'choice' on a
mandatory step needs 'alternative' in format 2; 'alternative' needs a choice; 'unless' is paid by
another player; 'sustains = false' is for optional steps; an event needs chance or hidden
information.  Errors in format 2; the format 1 ones are warnings.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes


def text(step: str, *, format2: bool = True) -> str:
    head = "format = 2\n" if format2 else ""
    return f"""{head}title = "sense"
players = ["Alice", "Bob"]

[[step]]
by = "Alice"
does = "acts"
{step}
"""


def loaded(step: str, *, format2: bool = True):
    return parse_bytes(text(step, format2=format2).encode("utf-8"), "case.toml", "case")


def refused(step: str) -> str:
    with pytest.raises(ScenarioError) as info:
        loaded(step)
    return str(info.value)


HIDDEN = "is on a step that is neither optional nor a choice: there is no hidden choice to make"


@pytest.mark.parametrize(
    "step",
    [
        "hidden = true\noptional = true",
        'hidden = true\nchoice = true\nalternative = "passes"',
        "hidden = true\nchoice = true\noptional = true",
        'hidden = true\nends_loop = { when = "a card is revealed" }',
    ],
)
def test_hidden_on_an_optional_step_a_choice_or_an_event_is_accepted(step):
    assert loaded(step).scenario.steps[0].hidden


def test_hidden_on_a_mandatory_step_without_a_choice_is_refused_in_format_2():
    assert refused("hidden = true") == f"case.toml: line 8: step 1: 'hidden': {HIDDEN}"


def test_hidden_on_a_mandatory_step_is_a_warning_in_format_1():
    assert loaded("hidden = true", format2=False).warnings == (
        f"line 7: step 1: 'hidden': {HIDDEN} (a warning in format 1; an error with format = 2)",
    )


def test_a_mandatory_choice_needs_an_alternative_in_format_2():
    assert refused("choice = true") == "case.toml: line 8: step 1: 'choice': on a mandatory step needs 'alternative': what its controller chooses instead"
    with_alternative = loaded('choice = true\nalternative = "passes"')
    assert with_alternative.scenario.steps[0].alternative == "passes" and with_alternative.warnings == ()
    assert loaded("choice = true\noptional = true").warnings == ()


def test_a_mandatory_choice_keeps_its_format_1_meaning_with_a_warning():
    assert loaded("choice = true", format2=False).warnings == (
        "line 7: step 1: 'choice': on a mandatory step keeps its format 1 meaning (the step stays mandatory and makes "
        "nobody involved); for a choice its controller could make otherwise, use format = 2 with 'alternative'",
    )
    assert loaded("choice = true\noptional = true", format2=False).warnings == ()


def test_an_alternative_needs_a_choice():
    assert refused('optional = true\nalternative = "passes"') == (
        "case.toml: line 9: step 1: 'alternative': describes the other choice of a 'choice = true' step; this step has no choice"
    )


def test_an_unless_is_paid_by_another_player():
    assert refused('unless = { by = "Alice", does = "pays 1" }') == (
        "case.toml: line 8: step 1: 'unless.by': is Alice, who controls the step itself; 'unless' is another player's way to stop the effect. "
        "A cost the step's own controller pays to keep the loop going is an optional step: write 'optional = true' on it (with 'requires' and 'add' for the cost)"
    )
    assert loaded('unless = { by = "Bob", does = "pays 1" }').scenario.steps[0].unless.by == "Bob"


def test_sustains_false_is_for_optional_steps():
    assert refused("sustains = false") == "case.toml: line 8: step 1: 'sustains': false marks an optional side benefit; this step is mandatory"
    assert loaded("sustains = false\noptional = true").scenario.steps[0].sustains is False


@pytest.mark.parametrize("extra", ["random = true", "hidden = true", 'ends_loop = { when = "x", hidden = true }'])
def test_an_event_needs_chance_or_hidden_information(extra):
    step = 'ends_loop = { when = "x" }\n' + extra if not extra.startswith("ends_loop") else extra
    assert loaded(step).scenario.steps[0].ends_loop.when == "x"


def test_an_event_without_chance_or_hidden_information_is_refused():
    assert refused('ends_loop = { when = "x" }') == (
        "case.toml: line 8: step 1: 'ends_loop': needs 'random = true' (chance) or hidden information ('hidden' on the step or the event) on its step"
    )


def test_an_unknown_key_is_hinted_with_the_closest_known_one():
    assert refused("optinal = true") == (
        "case.toml: line 8: step 1: 'optinal': unknown key (did you mean 'optional'?); expected one of add, alternative, by, choice, "
        "conditional, does, ends_loop, hidden, mul, optional, priority, random, requires, run, set, sustains, target, times, turn, unless"
    )


def test_the_parts_a_step_table_cannot_do_without():
    assert refused('random = true\nends_loop = { chance = "1/2" }') == "case.toml: line 9: step 1: 'ends_loop.when': is required: the event, in words"
    assert refused('unless = { by = "Bob" }') == "case.toml: line 8: step 1: 'unless.does': is required"
    assert refused('target = { order = "each" }') == "case.toml: line 8: step 1: 'target.among': is required: the players the step can target, in order"
    event = loaded('random = true\nends_loop = { when = "x", chance = "2/4" }').scenario.steps[0].ends_loop
    assert (event.when, event.chance, event.hidden) == ("x", Fraction(1, 2), False)
