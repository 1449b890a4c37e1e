"""The top of a scenario file: 'format', the players and the texts (FORMAT.md; README, "Limits").

Two to 64 players, pinned at both edges with the numbers written out; an unsupported 'format'
is an error, and the rest of the file is then read as format 2 only when the value equals 2
(so 2.0 gets one error, not one more for each format 2 key); texts are at most 10,000
characters, tags a list.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.loader import ScenarioError, parse_bytes


def text(players: list[str], top: str = "", step: str = "") -> str:
    names = ", ".join(f'"{p}"' for p in players)
    return f"""{top}
title = "header"
players = [{names}]

[[step]]
by = "{players[0] if players else 'Alice'}"
does = "acts"
optional = true
{step}
"""


def parse(source: str):
    return parse_bytes(source.encode("utf-8"), "case.toml", "case")


def refused(source: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(source)
    return info.value


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


def test_64_players_are_accepted_and_65_refused():
    assert len(parse(text(names(64))).scenario.players) == 64
    assert str(refused(text(names(65)))) == "case.toml: line 3: 'players': has 65 players; at most 64 are supported"


def test_two_players_are_accepted_and_one_refused():
    assert parse(text(names(2))).scenario.players == ("P1", "P2")
    assert str(refused(text(names(1)))) == "case.toml: line 3: 'players': needs two or more players, got 1"


def test_names_differing_only_by_case_are_refused_naming_the_first():
    assert str(refused(text(["Alice", "Bob", "alice"]))) == (
        "case.toml: line 3: 'players' item 3: 'alice' differs from 'Alice' only by case; names must be distinct"
    )


def test_a_name_with_spaces_around_it_is_refused():
    assert str(refused(text(["Alice", " Bob"]))) == "case.toml: line 3: 'players' item 2: ' Bob' has leading or trailing spaces"


def test_the_active_player_is_one_of_the_players():
    assert parse(text(["Alice", "Bob"], top='active = "Bob"')).scenario.active == "Bob"
    assert str(refused(text(["Alice", "Bob"], top='active = "Zed"'))) == (
        "case.toml: line 1: 'active': is 'Zed', who is not one of the players (Alice, Bob)"
    )


# --- format ---------------------------------------------------------------------------------------


def test_format_2_written_as_a_decimal_is_refused_once_and_read_as_format_2():
    error = refused(text(["Alice", "Bob"], top="format = 2.0", step="times = 2"))
    assert [e.one_line() for e in error.errors] == [
        "case.toml: line 1: 'format': unsupported format (a decimal number (2.0)); 1, 2 and 3 are the versions",
    ]


@pytest.mark.parametrize("value, kind", [("4", "the number 4"), ('"2"', "the string '2'"), ("true", "a boolean (true)")])
def test_another_unsupported_format_is_read_as_format_1(value, kind):
    error = refused(text(["Alice", "Bob"], top=f"format = {value}", step="times = 2"))
    assert [e.one_line() for e in error.errors] == [
        f"case.toml: line 1: 'format': unsupported format ({kind}); 1, 2 and 3 are the versions",
        "case.toml: line 9: step 1: 'times': 'times' is format 2: add 'format = 2' at the top of the file",
    ]


def test_format_1_and_2_are_read_as_written():
    assert parse(text(["Alice", "Bob"], top="format = 1")).scenario.format == 1
    assert parse(text(["Alice", "Bob"], top="format = 2", step="times = 2")).scenario.format == 2


# --- texts ------------------------------------------------------------------------------------------


def test_a_text_of_10000_characters_is_accepted_and_10001_refused():
    assert parse(text(["Alice", "Bob"], top=f'description = "{"d" * 10000}"')).scenario.description == "d" * 10000
    assert str(refused(text(["Alice", "Bob"], top=f'description = "{"d" * 10001}"'))) == (
        "case.toml: line 1: 'description': is 10,001 characters long; at most 10,000 are allowed"
    )


def test_an_optional_text_may_be_empty_and_a_required_one_not():
    assert parse(text(["Alice", "Bob"], top='source = ""')).scenario.source == ""
    assert str(refused(text(["Alice", "Bob"], step="").replace('does = "acts"', 'does = " "'))) == "case.toml: line 7: step 1: 'does': must not be empty"


def test_tags_are_a_list():
    assert parse(text(["Alice", "Bob"], top='tags = ["a", "b"]')).scenario.tags == ("a", "b")
    assert str(refused(text(["Alice", "Bob"], top='tags = "a"'))) == "case.toml: line 1: 'tags': expected a list of strings, got the string 'a'"
