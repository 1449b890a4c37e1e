"""Notes one era's wording calls for and another's does not, pinned by era (rulesets/cr421.py)."""

from __future__ import annotations

from helpers import scenario
from loopcompare.rulesets import registry

ONE_CONTROLLER = """
title = "Alice's loop"
players = {players}
[state]
tokens = 0
[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = {{ tokens = 1 }}
[intent]
Alice = 3
"""

OTHER_PLAYER = "speaks of \u201cthe other player\u201d"


def notes(key: str, players: str) -> tuple[str, ...]:
    return registry().get(key).settle(scenario(ONE_CONTROLLER.format(players=players)).scenario).notes


def test_the_2004_text_of_421_2_is_read_for_each_other_player_only_beyond_two_players():
    three = notes("cr-2004", '["Alice", "Bob", "Carol"]')
    assert any(n.startswith("421.2 of CR 421 (2004) " + OTHER_PLAYER + "; with 3 players each other player") for n in three)
    assert not any(OTHER_PLAYER in n for n in notes("cr-2004", '["Alice", "Bob"]'))


def test_a_later_text_of_421_2_needs_no_such_reading():
    assert not any(OTHER_PLAYER in n for n in notes("cr-2008", '["Alice", "Bob", "Carol"]'))
