"""Expected huge values in ``[expect]`` (docs/FORMAT.md items 14 and 28), read and checked exactly.

A format 3 amount can make a value that is a sum of powers, written ``"(3^(10^100)-2*2^(10^100)+81)/2"``
(linear.HugeSum).  An expected value written in that grammar is read by the loader (a malformed one is
an error naming the file and the field, exit 2) and ``check`` compares it with the computed one as a
number: the same value written in another order, with a factor of the base left in a coefficient, a
perfect power as base or a term split in two passes; any other value fails, naming the field.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from loopcompare.comparator.cli import main
from loopcompare.comparator.huge_values import HugeValueError, parse, same
from loopcompare.comparator.loader import ScenarioError, parse_bytes

GOOGOL = 10**100

# life after n iterations: 40 + sum_{i<n} (3^i - 2^i) = (3^n - 2*2^n + 81) / 2
SUM = """format = 3
title = "two growths: life gains the difference of a tripling and a doubling"
players = ["Alice", "Bob"]

[state]
w = 1
x = 1
life = 40

[[step]]
by = "Alice"
does = "doubles w, triples x, and gains life equal to x - w"
optional = true
mul = { w = 2, x = 3 }
add = { life = "x - w" }

[intent]
Alice = "10^100"

[expect.cr-2024]
result = "shortcut"
"""
#: The line of the first field written after SUM.
FIELD_LINE = SUM.count("\n") + 1
COMPUTED = "(3^(10^100)-2*2^(10^100)+81)/2"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def check(tmp_path, fields: str):
    path = tmp_path / "sum.toml"
    path.write_text(SUM + fields + "\n", encoding="utf-8")
    return run("check", str(path))


def refused(fields: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_bytes((SUM + fields + "\n").encode("utf-8"), "sum.toml", "sum")
    return str(info.value)


# --- the same number, however it is written -----------------------------------------------------------

SAME = [
    COMPUTED,  # as the engine writes it
    "(-2*2^(10^100)+3^(10^100)+81)/2",  # another order
    "(81+3^(10^100)-2^(10^100)-2^(10^100))/2",  # a term split in two, the constant first
    "(3^(10^100)-4*2^(9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999)+81)/2",  # a factor of the base in C
    "(3^(10^100)-2*4^(5000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000)+81)/2",  # a perfect power as base
    "(6*3^(10^100)-12*2^(10^100)+486)/12",  # another denominator
]


@pytest.mark.parametrize("written", SAME)
def test_every_writing_of_the_computed_sum_is_the_same_number(written):
    assert same(parse(written), parse(COMPUTED))


@pytest.mark.parametrize(
    "written",
    [
        "(3^(10^100)-2*2^(10^100)+83)/2",  # the constant off by one
        "(3^(10^100)-2^(10^100)+81)/2",  # a coefficient off
        "(3^(10^100)-2*2^(10^100)+81)/4",  # the denominator
        "3^(10^100)-2*2^(10^100)+81",  # no denominator
        "(3^(100)-2*2^(10^100)+81)/2",  # an exponent
        "(3^(10^100)+81)/2",  # a term left out
    ],
)
def test_any_other_number_is_not(written):
    assert not same(parse(written), parse(COMPUTED))


def test_powers_of_one_base_close_together_are_merged_and_small_ones_computed():
    assert same(parse("2^(10001)"), parse("2*2^(10000)"))
    assert same(parse("2^(5001)-2^(5000)+3^(6000)"), parse("3^(6000)+2^(5000)"))
    assert same(parse("2^(10)"), parse("1024"))
    assert same(parse("2^100+1"), parse(str(2**100 + 1)))  # item 14's input form, without parentheses
    assert same(parse("10^(1200)-2*10^(600)"), parse(str(10**1200 - 2 * 10**600)))
    assert not same(parse("2^(10^100)"), parse("2^(10^100)+1"))
    assert not same(parse("2^(10^100)"), parse("3^(10^100)"))
    assert not same(parse(f"2^({GOOGOL + 1})"), parse(f"2^({GOOGOL})"))


@pytest.mark.parametrize(
    "written, message",
    [
        ("((3)", "is not an exact value: at the start"),
        ("3^(10^100)--2", "is not an exact value: at '--2'"),
        ("+3^(10^100)", "is not an exact value: at the start"),
        ("3^(10^100)+", "is not an exact value: at '+'"),
        ("3^(10^100)2", "is not an exact value: at '2'"),
        ("(3^(10^100)+1)/0", "has a zero denominator"),
        ("1^(10^100)+1", "a power needs a base of at least 2"),
        ("0*2^(10^100)+1", "a coefficient other than 0"),
        ("2^(10^100000000000000000000000)", "too large to compare"),
    ],
)
def test_a_malformed_expression_says_what_is_wrong(written, message):
    with pytest.raises(HugeValueError, match=message.replace("(", r"\(").replace("^", r"\^").replace("+", r"\+")):
        parse(written)


# --- the loader -----------------------------------------------------------------------------------------


def test_an_expected_sum_is_read_and_kept_as_written():
    expect = parse_bytes((SUM + f'state = {{ life = "{SAME[1]}" }}\n').encode("utf-8"), "sum.toml", "sum").expect
    assert expect["cr-2024"]["state"] == {"life": SAME[1]}


@pytest.mark.parametrize("written", ["(3^(10^100)-2*2^(10^100)+81)/0", "3^(10^100)--2", "2^(5000)3", ")(", "^"])
def test_a_malformed_expected_sum_is_an_error_naming_the_file_and_the_field(written):
    message = refused(f'state = {{ life = "{written}" }}')
    assert message.startswith(f"sum.toml: line {FIELD_LINE}: [expect.cr-2024]: 'state.life': '{written}' ")
    assert "docs/FORMAT.md items 14 and 28" in message or "zero denominator" in message


# --- check ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", [COMPUTED, SAME[1], SAME[2], SAME[5]])
def test_check_passes_for_the_computed_sum_however_it_is_written(tmp_path, written):
    result = check(tmp_path, f'state = {{ life = "{written}", w = "2^(10^100)", x = "3^(10^100)" }}')
    assert result.exit_code == 0, result.output
    assert "ok   sum.toml" in result.stdout


def test_check_fails_for_another_sum_naming_the_field(tmp_path):
    result = check(tmp_path, 'state = { life = "(3^(10^100)-2*2^(10^100)+83)/2" }')
    assert result.exit_code == 1, result.output
    assert f"cr-2024: state.life: expected '(3^(10^100)-2*2^(10^100)+83)/2', got '{COMPUTED}'" in result.stdout


def test_check_compares_a_small_value_written_as_an_expression(tmp_path):
    toml = SUM.replace('Alice = "10^100"', "Alice = 10")
    path = tmp_path / "small.toml"
    # after 10 iterations: (3^10 - 2*2^10 + 81) / 2 = (59049 - 2048 + 81) / 2 = 28541
    path.write_text(toml + 'state = { life = "(3^(10)-2^(11)+81)/2", w = "2^(10)" }\n', encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 0, result.output
    path.write_text(toml + 'state = { life = "(3^(10)-2^(11)+83)/2" }\n', encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1, result.output
    assert "state.life: expected '(3^(10)-2^(11)+83)/2', got 28541" in result.stdout


def test_check_of_a_malformed_expected_sum_exits_2_naming_the_file_and_the_field(tmp_path):
    result = check(tmp_path, 'state = { life = "(3^(10^100)-2*2^(10^100)+81)/0" }')
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "sum.toml" in result.stderr and "[expect.cr-2024]: 'state.life'" in result.stderr
    assert "zero denominator" in result.stderr
    assert "Traceback" not in result.output
