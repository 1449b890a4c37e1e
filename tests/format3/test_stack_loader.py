"""The loader for format 3's "The stack and priority" (docs/FORMAT.md items 23, 24 and 31): the
keys load, bad values are refused naming the file and the key (exit 2, nothing written), and the
probable mistakes are warnings (``validate --strict``: errors)."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.loader import ScenarioError, parse_bytes

BASE = textwrap.dedent(
    """\
    format = 3
    title = "Kiki-Jiki, a land, and a Bolt"
    players = ["Alice", "Bob"]

    [state]
    tokens = 0

    [[step]]
    by = "Alice"
    does = "taps a land for mana"
    optional = true
    priority = false

    [[step]]
    by = "Alice"
    does = "activates Kiki-Jiki"
    optional = true
    add = { tokens = 1 }

    [[breaker]]
    by = "Bob"
    does = "bolts Kiki-Jiki in response to its activation"
    still_resolves = 1

    [intent]
    Alice = 10
    Bob = 3
    """
)


def parse(text: str):
    return parse_bytes(text.encode("utf-8"), "case.toml", "case")


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    assert str(info.value).startswith("case.toml: ")
    return info.value


def test_the_keys_load():
    sf = parse(BASE)
    first, second = sf.scenario.steps
    assert first.priority is False and second.priority is True
    assert sf.scenario.breakers[0].still_resolves == 1
    assert sf.warnings == ()


def test_priority_and_still_resolves_need_format_3():
    error = refused(BASE.replace("format = 3", "format = 2"))
    text = str(error)
    assert "'priority'" in text and "format = 3" in text
    assert "'still_resolves'" in text


@pytest.mark.parametrize("value", ['"no"', "0", "[false]"])
def test_priority_must_be_a_boolean(value):
    error = refused(BASE.replace("priority = false", f"priority = {value}"))
    assert "step 1: 'priority'" in str(error)


@pytest.mark.parametrize("value", ["-1", '"one"', "true", "1.5"])
def test_still_resolves_must_be_a_whole_number(value):
    error = refused(BASE.replace("still_resolves = 1", f"still_resolves = {value}"))
    assert "breaker 1: 'still_resolves'" in str(error)


def test_a_priority_free_step_whose_unless_breaks_the_loop_is_an_error():
    text = BASE.replace(
        'priority = false\n', 'priority = false\nunless = { by = "Bob", does = "pays {1}" }\n'
    )
    error = refused(text)
    (one,) = [e for e in error.errors if "'priority'" in e.where]
    assert one.where == "step 1: 'priority'"
    assert "unless" in one.message and "breaks the loop" in one.message
    assert one.line == 12


def test_a_moved_intent_is_warned_about():
    sf = parse(BASE.replace("Bob = 3", "Bob = { after = 3, step = 1 }"))
    (warning,) = sf.warnings
    assert "[intent]: 'Bob'" in warning
    assert "after 3 iterations and 1 step" in warning and "\u201ctaps a land for mana\u201d" in warning
    assert "after 4 iterations" in warning


def test_a_point_with_nowhere_to_move_is_warned_about():
    text = BASE.replace('does = "activates Kiki-Jiki"\noptional = true\n', 'does = "activates Kiki-Jiki"\noptional = true\npriority = false\n')
    sf = parse(text.replace("still_resolves = 1\n", ""))
    (warning,) = [w for w in sf.warnings if "'Bob'" in w]
    assert "after the loop" in warning


def test_a_goal_whose_point_moves_is_warned_about():
    # The land comes last: a point at the start of an iteration is right after it. A goal's count
    # is worked out when the loop is settled, but where it falls in an iteration is known now.
    text = textwrap.dedent(
        """\
        format = 3
        title = "a goal after a mana ability"
        players = ["Alice", "Bob"]

        [state]
        tokens = 0

        [[step]]
        by = "Alice"
        does = "activates Kiki-Jiki"
        optional = true
        add = { tokens = 1 }

        [[step]]
        by = "Alice"
        does = "taps a land for mana"
        optional = true
        priority = false

        [[breaker]]
        by = "Bob"
        does = "bolts Kiki-Jiki"

        [intent]
        Bob = { until = { value = "tokens", at_least = 5 } }
        """
    )
    (warning,) = parse(text).warnings
    assert "[intent]: 'Bob'" in warning and "\u201ctaps a land for mana\u201d" in warning
    assert "before step 2 of the same iteration" in warning


def test_priority_inside_one_resolution_is_redundant():
    text = textwrap.dedent(
        """\
        format = 3
        title = "repeat this process"
        players = ["Alice", "Bob"]

        [state]
        n = 0

        [[step]]
        by = "Alice"
        does = "repeats"
        priority = false
        add = { n = 1 }

        [[end]]
        when = { value = "n", at_least = 5 }
        effect = "done"

        [loop]
        within = "resolution"
        """
    )
    (warning,) = parse(text).warnings
    assert "step 1: 'priority'" in warning and "redundant" in warning


def test_validate_refuses_with_exit_2_and_strict_refuses_the_warnings(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(BASE.replace("priority = false", 'priority = "no"'), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["validate", str(bad)])
    assert out.exit_code == 2 and "bad.toml" in out.stderr and "'priority'" in out.stderr
    assert "Traceback" not in out.output + out.stderr
    moved = tmp_path / "moved.toml"
    moved.write_text(BASE.replace("Bob = 3", "Bob = { after = 3, step = 1 }"), encoding="utf-8")
    assert runner.invoke(main, ["validate", str(moved)]).exit_code == 0
    strict = runner.invoke(main, ["validate", "--strict", str(moved)])
    assert strict.exit_code == 2 and "[intent]: 'Bob'" in strict.stderr


def test_compare_writes_nothing_for_a_bad_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(BASE.replace("still_resolves = 1", "still_resolves = -1"), encoding="utf-8")
    report = tmp_path / "report.md"
    out = CliRunner().invoke(main, ["compare", str(bad), "-o", str(report)])
    assert out.exit_code == 2 and "still_resolves" in out.stderr
    assert not report.exists()
