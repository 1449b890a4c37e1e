"""Defects found by writing real loops as a user would (an audit of 14 real loops and 8 probes
made from their cards): each test pins the behaviour that was wrong.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare import compare, render
from loopcompare.rulesets import registry

# Kiki-Jiki, Pestermite and Impact Tremors (Oracle, as comparator/library/kiki-pestermite-impact-tremors.toml),
# three players: Bob (3 life) holds a Lightning Bolt for after 5 tokens but is dead after 3.
KIKI_BOB_DIES_FIRST = """
format = 2
title = "Kiki-Jiki, Pestermite, Impact Tremors: Bob dies before his Bolt"
players = ["Alice", "Bob", "Carol"]
[state]
tokens = 0
life = { Bob = 3, Carol = 10 }
[[step]]
by = "Alice"
does = "taps Kiki-Jiki: a hasty Pestermite token"
optional = true
add = { tokens = 1 }
[[step]]
by = "Alice"
does = "Impact Tremors: 1 damage to each opponent"
target = { among = ["Bob", "Carol"], order = "each" }
add = { life = -1 }
[[step]]
by = "Alice"
does = "the token's trigger untaps Kiki-Jiki"
optional = true
[[breaker]]
by = "Bob"
does = "casts Lightning Bolt on Kiki-Jiki"
hidden = true
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[intent]
Alice = "never"
Bob = 5
"""


@pytest.mark.parametrize("key", ["cr-2008", "cr-2024", "mtr-2018", "mtr-current"])
def test_a_bystanders_breaker_is_gone_with_them_and_the_loop_runs_on_against_the_rest(key):
    out = registry().get(key).settle(scenario(KIKI_BOB_DIES_FIRST).scenario)
    assert out.result.value == "ends"
    assert out.deviates is None
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 2, 2), ("Carol", 9, 2)]
    assert out.to_json()["state"]["tokens"] == 10


def test_a_hidden_out_of_a_player_who_left_calls_for_no_judge():
    two = KIKI_BOB_DIES_FIRST.replace('players = ["Alice", "Bob", "Carol"]', 'players = ["Alice", "Bob"]')
    two = two.replace("life = { Bob = 3, Carol = 10 }", "life = { Bob = 3 }").replace('among = ["Bob", "Carol"]', 'among = ["Bob"]')
    out = registry().get("mtr-current").settle(scenario(two).scenario)
    assert out.result.value == "ends"
    assert out.judge is False
    # While Bob is still in the game at the cut, his hidden out does call for a judge.
    alive = two.replace("life = { Bob = 3 }", "life = { Bob = 30 }")
    assert registry().get("mtr-current").settle(scenario(alive).scenario).judge is True


# Mana Clash (Oracle: "... Repeat this process until both players' coins come up heads on the same flip.")
MANA_CLASH = """
format = 2
title = "Mana Clash"
players = ["Alice", "Bob"]
[state]
life = { Alice = 20, Bob = 2 }
[[step]]
by = "Alice"
does = "both flip a coin"
random = true
ends_loop = { when = "both coins come up heads", chance = "1/4" }
[loop]
within = "resolution"
"""


@pytest.mark.parametrize("key", [r.key for r in registry().rulesets])
def test_a_repetition_inside_one_resolution_until_an_event_says_no_loop_procedure_applies(key):
    out = registry().get(key).settle(scenario(MANA_CLASH).scenario)
    assert out.result.value == "ends"
    assert out.iterations is None
    assert any("Inside one resolution no player receives priority" in n for n in out.notes)


def test_values_of_an_outcome_with_no_cut_are_labelled_as_starting_values():
    comparison = compare(scenario(MANA_CLASH), registry().select(["cr-2024"]))
    md = render(comparison, "md")
    assert "| State: life.Bob" in md
    row = next(line for line in md.splitlines() if line.startswith("| State: life.Bob"))
    assert "2 (start)" in row
    html = render(comparison, "html")
    assert "2 (start)" in html
    # A cut that was reached shows its values plainly.
    reached = compare(scenario(KIKI_BOB_DIES_FIRST), registry().select(["cr-2024"]))
    row = next(line for line in render(reached, "md").splitlines() if line.startswith("| State: tokens"))
    assert "(start)" not in row and "10" in row


# Thopter Foundry and Sword of the Meek with 3 lands: each Thopter costs {1}; nobody chose 3.
THOPTER = """
format = 2
title = "Thopter Foundry and Sword of the Meek, three lands"
players = ["Alice", "Bob"]
[state]
mana = 3
[[step]]
by = "Alice"
does = "pays {{1}}, sacrifices the Sword: a Thopter"
optional = true
requires = {{ mana = 1 }}
add = {{ mana = -1 }}
[[step]]
by = "Alice"
does = "the Sword returns, attached to the Thopter"
[intent]
Alice = {alice}
"""


def test_the_mtr_says_a_stop_forced_by_a_requirement_is_nobodys_number():
    out = registry().get("mtr-current").settle(scenario(THOPTER.format(alice='"never"')).scenario)
    assert (out.iterations, out.steps, out.deviates) == (3, 0, "Alice")
    assert any("where Alice can no longer take their step (its requirement fails)" in line for line in out.transcript)
    assert not any("lowest number of iterations chosen" in line for line in out.transcript)
    # Had Alice chosen exactly that number, it is her number.
    chosen = registry().get("mtr-current").settle(scenario(THOPTER.format(alice=3)).scenario)
    assert any("lowest number of iterations chosen" in line for line in chosen.transcript)
