"""The loader's bounds on what it reads, each at its edge (README, "Limits").

At most 1 MiB a file, never more read (so an endless stream is refused at once); keys of at
most 32 dotted parts, counted in the key only (a value's dots are text, a table header's are
key parts); at most 50 errors reported for one file; an exponent of at most six digits read
before any arithmetic.  The numbers are written out here, not taken from the loader's constants,
so that a changed constant fails a test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loopcompare.comparator.loader import ScenarioError, load
from test_loader_format2_limits import parse

PLAIN = """format = 2
title = "bounds"
players = ["Alice", "Bob"]

[state]
tokens = 3

[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = { tokens = 1 }
"""


def refused(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    return info.value


# --- the size of a file -----------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_refused_as_over_one_mib_without_being_read_whole():
    # /dev/zero reports a size of 0: only reading one byte past 1,048,576 shows it is too big.
    with pytest.raises(ScenarioError) as info:
        load("/dev/zero")
    assert str(info.value) == "/dev/zero: the file is over 1,048,576 bytes; scenario files are limited to 1,048,576 bytes"


# --- dotted keys ------------------------------------------------------------------------------------


def dotted(parts: int) -> str:
    return ".".join(["a"] * parts)


def test_a_key_of_32_dotted_parts_is_parsed_and_one_of_33_refused_before_parsing():
    # 32 parts reach the TOML parser (and are then an unknown key); 33 are refused by line.
    text = PLAIN.replace('title = "bounds"', f'title = "bounds"\n{dotted(32)} = 1')
    assert "dotted parts" not in str(refused(text))
    text = PLAIN.replace('title = "bounds"', f'title = "bounds"\n{dotted(33)} = 1')
    assert str(refused(text)) == "case.toml: line 3: a key with more than 32 dotted parts; scenario files never need that many"


def test_a_table_header_of_33_dotted_parts_is_refused_and_of_32_parsed():
    assert str(refused(PLAIN + f"\n[{dotted(33)}]\n")).endswith("line 14: a key with more than 32 dotted parts; scenario files never need that many")
    assert "dotted parts" not in str(refused(PLAIN + f"\n[{dotted(32)}]\n"))
    # A header with '=' in a quoted part: the whole header is the key, not what precedes '='.
    header = f'["x=y".{dotted(32)}]'
    assert "more than 32 dotted parts" in str(refused(PLAIN + f"\n{header}\n"))


def test_dots_in_a_value_are_not_key_parts():
    # An ellipsis of 40 dots in a text, and a decimal-looking title: only the key counts.
    text = PLAIN.replace('title = "bounds"', 'title = "bounds' + "." * 40 + '"')
    assert parse(text).scenario.title == "bounds" + "." * 40
    text = PLAIN.replace('does = "makes a token"', 'does = "' + ". " * 40 + 'makes a token"')
    assert parse(text).scenario.steps[0].does.startswith(". . .")


# --- how many errors are reported ---------------------------------------------------------------------


def with_bad_steps(count: int) -> str:
    step = '\n[[step]]\nby = "Zed"\ndoes = "acts"\n'
    return PLAIN + step * count


def test_at_most_50_errors_are_reported_for_one_file():
    error = refused(with_bad_steps(60))
    assert len(error.errors) == 51  # the 50 first, then how many more (issue 30)
    assert len(str(error).splitlines()) == 51
    assert error.errors[0].where == "step 2: 'by'" and error.errors[49].where == "step 51: 'by'"
    assert error.errors[-1].message == "and 10 more errors (only the first 50 are shown)"


def test_49_and_50_errors_are_all_reported():
    assert len(refused(with_bad_steps(49)).errors) == 49
    assert len(refused(with_bad_steps(50)).errors) == 50


# --- exponents read before any arithmetic ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [('"1^100000"', 1), ('"1^999999"', 1), ('"-1^999999"', -1), ('"-1^100000"', 1), ('"0^999999"', 0), ('"0*10^999999"', 0), ('"1^0000001"', 1)],
)
def test_an_exponent_of_six_digits_is_read_when_the_value_stays_small(text, value):
    # 1^N, (-1)^N and 0 stay one digit long whatever N; a leading zero is not a digit of N.
    assert parse(PLAIN.replace("tokens = 3", f"tokens = {text}")).scenario.state["tokens"] == value


ZEROS = "0" * 5000


@pytest.mark.parametrize(
    "text, value",
    [(f'"{ZEROS}7"', 7), (f'"-{ZEROS}7"', -7), (f'"{ZEROS}2^{ZEROS}10"', 1024), (f'"{ZEROS}3*10^{ZEROS}2"', 300), (f'"{ZEROS}"', 0)],
)
def test_leading_zeros_are_not_digits_however_many(text, value):
    # Python's int() refuses more than 4,300 characters of digits, zeros included; the loader
    # reads the number without them (it used to end in a traceback).
    assert parse(PLAIN.replace("tokens = 3", f"tokens = {text}")).scenario.state["tokens"] == value


@pytest.mark.parametrize("text", ['"1^1000000"', '"0*10^1000000"', '"2^1000000"'])
def test_an_exponent_of_seven_digits_is_refused_unread(text):
    error = refused(PLAIN.replace("tokens = 3", f"tokens = {text}"))
    assert str(error) == (
        f"case.toml: line 6: [state]: 'tokens': {text.strip(chr(34))!r} has more than 1,000 digits; numbers are limited to 1,000 digits"
    )


def test_a_file_that_cannot_be_read_is_refused_with_the_systems_reason(tmp_path):
    # The reason alone ("No such file or directory"), not Python's "[Errno 2] ..." with the path again.
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(ScenarioError) as info:
        load(missing)
    assert str(info.value) == f"{missing}: can't be read: No such file or directory"
    with pytest.raises(ScenarioError) as info:
        load(tmp_path)
    assert str(info.value) == f"{tmp_path}: can't be read: Is a directory"


def test_at_most_50_errors_even_from_one_table():
    # Every unknown key of a table is reported before the table is abandoned: the cap holds there too.
    keys = "".join(f"unknown{i} = 1\n" for i in range(60))
    error = refused(PLAIN + keys)
    assert len(error.errors) == 51
    # Sorted as text: unknown0, unknown1, unknown10..19, unknown2, ..., unknown5, unknown50..53 is 50.
    assert error.errors[49].where == "step 1: 'unknown53'"
    assert error.errors[-1].message.startswith("and ") and "more error" in error.errors[-1].message
