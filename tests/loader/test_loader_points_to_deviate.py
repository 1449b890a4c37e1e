"""Who has a point to deviate (FORMAT.md item 7; comparator/loader.py ``has_point``).

An intent other than "never" needs a point where its player can deviate: an optional step that
sustains the loop (anyone's: every player receives priority between optional actions, CR 421.2,
729.2b), a choice (anyone's in format 2; in format 1 a mandatory choice keeps its format 1
meaning, so only the player's own), an 'unless' the player pays, or a breaker of the player's.
Without one: a warning in format 1, an error in format 2.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes

NO_POINT = (
    "[intent]: 'Bob': Bob has no point to deviate: in a loop of mandatory actions only a breaker, an 'unless' to pay "
    "or a choice of their own can stop it, and Bob has none"
)


def text(step1: str = "", step2: str = "", tail: str = "", *, format2: bool = False, intent: str = "Bob = 2") -> str:
    head = "format = 2\n" if format2 else ""
    return f"""{head}title = "points"
players = ["Alice", "Bob"]

[[step]]
by = "Alice"
does = "a trigger"
{step1}

[[step]]
by = "Bob"
does = "another trigger"
{step2}
{tail}
[intent]
{intent}
"""


def warnings(source: str) -> list[str]:
    return [w for w in parse_bytes(source.encode("utf-8"), "case.toml", "case").warnings if "no point to deviate" in w]


def error(source: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_bytes(source.encode("utf-8"), "case.toml", "case")
    return str(info.value)


def test_in_a_loop_of_mandatory_steps_an_intent_without_a_point_is_a_warning_in_format_1():
    (warning,) = warnings(text())
    assert warning.endswith(NO_POINT + " (a warning in format 1; an error with format = 2)")
    assert warning.startswith("line 15: ")


def test_in_format_2_it_is_an_error():
    assert error(text(format2=True)) == "case.toml: line 16: " + NO_POINT


def test_never_needs_no_point():
    assert warnings(text(intent='Bob = "never"')) == []


@pytest.mark.parametrize(
    "step1, step2, tail",
    [
        ("optional = true", "", ""),  # anyone's optional step: Bob receives priority around it
        ("", "optional = true", ""),
        ("", 'choice = true', ""),  # Bob's own choice, even on a mandatory step (format 1)
        ('unless = { by = "Bob", does = "pays 1" }', "", ""),  # an 'unless' Bob pays
        ("", "", '\n[[breaker]]\nby = "Bob"\ndoes = "kills the creature"\n'),  # Bob's breaker
    ],
)
def test_each_kind_of_point_gives_bob_one_in_format_1(step1, step2, tail):
    assert warnings(text(step1, step2, tail)) == []


@pytest.mark.parametrize(
    "step1, tail",
    [
        ("choice = true", ""),  # Alice's mandatory choice in format 1: no point for Bob
        ('unless = { by = "Alice", does = "pays 1" }', ""),  # an "unless" Alice pays is her means, not Bob's
        ("", '\n[[breaker]]\nby = "Alice"\ndoes = "kills the creature"\n'),  # Alice's breaker
    ],
)
def test_another_players_means_give_bob_no_point_in_format_1(step1, tail):
    assert len(warnings(text(step1, "", tail))) == 1


def test_in_format_2_anyones_choice_is_a_point():
    assert parse_bytes(text('choice = true\nalternative = "does nothing"', format2=True).encode("utf-8"), "case.toml", "case").scenario


def test_an_optional_side_benefit_is_no_point():
    # sustains = false: declining it does not stop the loop.
    assert error(text("optional = true\nsustains = false", format2=True)).endswith(NO_POINT)
    assert error(text("", "optional = true\nsustains = false", format2=True)).endswith(NO_POINT)
