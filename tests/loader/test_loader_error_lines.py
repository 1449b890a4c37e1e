"""The line an error points at (comparator/loader.py ``_Lines`` and ``line_of``).

tomllib gives no positions, so the loader scans the text for table headers and ``key =`` lines:
an error names the line of its key in the right table (the Nth ``[[step]]`` for "step N"), or
that table's header when the key is not written there; lines inside a multi-line array are
neither keys nor headers.  Every expected line is counted by hand in the text of its test.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import MAX_STEPS, ScenarioError, parse_bytes


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_bytes(text.encode("utf-8"), "case.toml", "case")
    return info.value


THREE_STEPS = """format = 2
title = "lines"
players = ["Alice", "Bob"]

[state]
tokens = 0

[[step]]
by = "Alice"
does = "first"
optional = true

[[step]]  # the second step
by = "Bob"
does = "second"

[[step]]
does = "third"
by = "Zed"
"""


def test_an_error_in_the_third_step_names_the_line_of_its_key():
    assert str(refused(THREE_STEPS)) == "case.toml: line 19: step 3: 'by': is 'Zed', who is not one of the players (Alice, Bob)"


def test_an_error_in_a_key_written_quoted_names_its_line():
    text = THREE_STEPS.replace('by = "Zed"', '"by" = "Zed"')
    assert str(refused(text)).startswith("case.toml: line 19: step 3: 'by': ")


def test_a_missing_key_points_at_its_tables_header():
    text = THREE_STEPS.replace('does = "second"\n', "")
    error = refused(text)
    assert error.errors[0].one_line() == "case.toml: line 13: step 2: 'does': is required"


def test_a_header_with_a_comment_is_still_a_header():
    text = THREE_STEPS.replace('by = "Bob"', 'by = "Quinn"')
    assert error_lines(text)[0] == (14, "step 2: 'by'")


def error_lines(text: str) -> list[tuple[int | None, str]]:
    return [(e.line, e.where) for e in refused(text).errors]


def test_a_multi_line_array_is_no_key_and_no_header():
    # The array's inner list ["b"] is not a [b] header: the key after the array is still top-level.
    text = THREE_STEPS.replace('players = ["Alice", "Bob"]', 'tags = [\n  "a",\n  ["b"]\n]\nplayers = "Alice"')
    assert error_lines(text) == [(3, "'tags' item 2"), (7, "'players'")]


def test_a_multi_line_array_in_a_table_keeps_the_tables_later_keys():
    text = THREE_STEPS.replace("tokens = 0", "tokens = 0\nmany = [\n  1,\n  [2]\n]\nbad = 1.5").replace('by = "Zed"', 'by = "Bob"')
    assert error_lines(text) == [(7, "[state]: 'many'"), (11, "[state]: 'bad'")]


def test_a_top_level_key_names_its_line():
    text = THREE_STEPS.replace('title = "lines"', "title = 3")
    assert str(refused(text)).startswith("case.toml: line 2: 'title': expected a string, got the number 3")


def test_too_many_steps_point_at_the_first_step():
    text = "title = \"many\"\nplayers = [\"Alice\", \"Bob\"]\n" + '\n[[step]]\nby = "Alice"\ndoes = "acts"\n' * (MAX_STEPS + 1)
    assert error_lines(text) == [(4, "'step'")]


def test_breakers_written_as_one_table_point_at_its_header():
    text = THREE_STEPS.replace('by = "Zed"', 'by = "Bob"') + '\n[breaker]\nby = "Bob"\ndoes = "x"\n'
    assert error_lines(text) == [(21, "'breaker'")]
    assert refused(text).errors[0].message == "expected [[breaker]] tables"


def test_a_loop_key_names_its_line_in_the_loop_table():
    text = THREE_STEPS.replace('by = "Zed"', 'by = "Bob"') + '\n[loop]\nindependent = true\nwithin = "stack"\n'
    assert error_lines(text) == [(23, "[loop]: 'within'")]
