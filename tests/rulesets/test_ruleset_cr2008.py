"""CR 421 "Handling 'Infinite' Loops", final multiplayer text of 2008-10-01: the ``cr-2008`` ruleset.

Each test is one small loop and pins one sentence of 421.1-421.6 (or one reading the project takes
where the text is silent, which must then carry a note).
"""

from __future__ import annotations

import re

import pytest
from helpers import citing, noted, scenario_text, seated, settle

from loopcompare.rulesets import Result

KEY = "cr-2008"
GOOGOL = 10**100

# The 2008 text numbers 421.1-421.6 and cites 102.4b for the draw; nothing else may be cited.
CITATION = re.compile(r"(421\.[1-6]|102\.4b): ")
cited = citing(CITATION)


# Gain flying (Alice) against lose flying (Bob): the 421.3 example.
FLYING = scenario_text("flying")

# Each iteration, Alice's trigger makes a token and triggers again unless Bob pays {1}.
UNLESS = """
    title = "An unless loop"
    players = ["Alice", "Bob"]
    [state]
    tokens = 0
    [[step]]
    by = "Alice"
    does = "her trigger creates a Thopter token"
    add = { tokens = 1 }
    [[step]]
    by = "Alice"
    does = "the Thopter triggers her other artifact, which triggers the first again unless Bob pays {1}"
    unless = { by = "Bob", does = "pays {1}" }
"""

# Alice makes a token at will; Bob gains 1 life at will; neither depends on the other.
INDEPENDENT = scenario_text("tokens-and-life")


# --- 421.4 and 421.6: mandatory loops ------------------------------------------------------------


def test_mandatory_loop_nobody_breaks_is_a_draw():
    # 421.4 (2008): a loop of only mandatory actions is a draw, now citing rule 102.4b
    outcome = cited(settle(KEY, """
        title = "Two triggers and an unused Seal"
        players = ["Alice", "Bob"]
        [[step]]
        by = "Alice"
        does = "her artifact's trigger resolves"
        [[step]]
        by = "Bob"
        does = "his enchantment's trigger resolves and triggers the artifact again"
        [[breaker]]
        by = "Bob"
        does = "sacrifices Seal of Cleansing to destroy the artifact"
    """))
    assert outcome.result is Result.DRAW
    assert outcome.deviates is None
    assert outcome.rules == ("421.4", "102.4b")


def test_breaker_may_end_a_mandatory_loop_with_a_note():
    # 421.4 (2008): still no counterpart of 729.5; reading: a player with an out may use it (noted)
    outcome = cited(settle(KEY, """
        title = "Bob sacrifices Seal of Cleansing after two iterations"
        players = ["Alice", "Bob"]
        [[step]]
        by = "Alice"
        does = "her artifact's trigger resolves"
        [[step]]
        by = "Bob"
        does = "his enchantment's trigger resolves and triggers the artifact again"
        [[breaker]]
        by = "Bob"
        does = "sacrifices Seal of Cleansing to destroy the artifact"
        [intent]
        Alice = 1
        Bob = 2
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (2, 0)
    assert outcome.deviates == "Bob"
    noted(outcome, "421.4", "not forced")
    noted(outcome, "Alice", "ignored")


def test_unless_nobody_pays_is_a_draw():
    # 421.6 (2008): nobody can be forced to perform [Y]; if nobody does, [X] is mandatory: 421.4 draw
    outcome = cited(settle(KEY, UNLESS + """
        [intent]
        Bob = "never"
    """))
    assert outcome.result is Result.DRAW
    assert outcome.iterations is None
    assert outcome.rules == ("421.6", "421.4", "102.4b")


def test_unless_payer_may_pay_to_break_the_loop():
    # 421.6 (2008): Bob is not forced to pay, but may: after 3 iterations, at the unless step
    outcome = cited(settle(KEY, UNLESS + """
        [intent]
        Bob = 3
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.tokens") == 4
    assert "421.6" in outcome.rules


def test_unless_payment_is_not_noted_as_a_silence():
    # 421.6 (2008): "no player can be forced to perform [Y]" answers the question the 421.4 note raises
    outcome = settle(KEY, UNLESS + """
        [intent]
        Bob = 3
    """)
    assert not [n for n in outcome.notes if "does not say whether" in n]
    assert any(line.startswith("421.6:") and "Bob" in line and "3 iterations" in line for line in outcome.transcript)


# --- 421.2: one player controls the optional actions ---------------------------------------------


def test_another_player_intervenes_without_a_two_player_note():
    # 421.2 (2008): "until another player intervenes": the multiplayer text needs no reading for a third player
    outcome = cited(settle(KEY, """
        title = "Carol steps in on a token loop"
        players = ["Alice", "Bob", "Carol"]
        [state]
        tokens = 0
        [[step]]
        by = "Alice"
        does = "activates '{T}: Create a 1/1 Elf Warrior token'"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Bob"
        does = "Intruder Alarm untaps all creatures"
        [intent]
        Alice = 1000000
        Carol = 8
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (8, 0)
    assert outcome.deviates == "Carol"
    assert outcome.value("state.tokens") == 8
    assert outcome.rules == ("421.2",)
    assert outcome.notes == ()


def test_two_players_intervening_at_the_same_point_need_a_reading():
    # 421.2 (2008): "whichever comes first" does not order a tie: the first in turn order (noted)
    outcome = cited(settle(KEY, """
        title = "Two bystanders step in at the same moment"
        players = ["Alice", "Bob", "Carol"]
        [state]
        tokens = 0
        [[step]]
        by = "Bob"
        does = "activates '{T}: Create a 1/1 Elf Warrior token'"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Bob"
        does = "Intruder Alarm untaps all creatures"
        [intent]
        Bob = 1000000
        Carol = 5
        Alice = 5
    """))
    assert outcome.value("iterations") == 5
    assert outcome.deviates == "Alice"
    noted(outcome, "Alice", "Carol", "same point")


# --- 421.3: players whose actions are all needed ----------------------------------------------------


def test_dependent_nonactive_player_has_the_last_word():
    # 421.3 (2008) example: the nonactive player will always have the final choice: no flying
    outcome = cited(settle(KEY, FLYING))
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 0
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False


def test_dependent_lower_number_gives_the_first_player_the_last_word():
    # 421.3 (2008): a lower number runs that many times plus the fraction for the first player's last word
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_dependent_active_player_not_involved_first_involved_after_them_chooses():
    # 421.3 (2008): if the active player is not involved, the first involved player after them chooses
    outcome = cited(settle(KEY, """
        title = "Alice and Carol fight over flying on Bob's turn"
        players = ["Alice", "Bob", "Carol"]
        active = "Bob"
        [state]
        flying = false
        [[step]]
        by = "Alice"
        does = "activates '{0}: This creature gains flying'"
        optional = true
        set = { flying = true }
        [[step]]
        by = "Carol"
        does = "activates '{0}: Target creature loses flying'"
        optional = true
        set = { flying = false }
    """))
    # Carol chooses, Alice agrees and so has the last word: the creature keeps flying.
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 1
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True
    assert outcome.transcript[0].startswith("421.3: Carol")


def test_dependent_three_involved_players_extend_the_sequence():
    # 421.3 (2008): "extended to all applicable players": lower or agree in turn order (reading noted)
    outcome = cited(settle(KEY, """
        title = "Three players pass a stolen Crown around on Dave's turn"
        players = ["Alice", "Bob", "Carol", "Dave"]
        active = "Dave"
        [state]
        alice_has_crown = false
        bob_has_crown = false
        carol_has_crown = true
        [[step]]
        by = "Alice"
        does = "takes the Crown from Carol"
        optional = true
        set = { alice_has_crown = true, carol_has_crown = false }
        [[step]]
        by = "Bob"
        does = "takes the Crown from Alice"
        optional = true
        set = { bob_has_crown = true, alice_has_crown = false }
        [[step]]
        by = "Carol"
        does = "takes the Crown from Bob"
        optional = true
        set = { carol_has_crown = true, bob_has_crown = false }
        [intent]
        Bob = 2
    """))
    assert (outcome.value("iterations"), outcome.steps) == (2, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.alice_has_crown") is True
    noted(outcome, "extended to all applicable players")


def test_dependent_player_outside_the_loop_may_intervene_mid_iteration():
    # 421.3 (2008) is silent on players outside the loop; reading: 421.2's intervention applies (noted)
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", "Carol") + """
        [intent]
        Carol = { after = 2, step = 1 }
    """))
    # Carol steps in after Alice's third activation, before Bob can answer it: flying stays.
    assert (outcome.value("iterations"), outcome.steps) == (2, 1)
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True
    noted(outcome, "outside the loop")


# --- 421.5: independent sets ----------------------------------------------------------------------


def test_independent_sets_each_run_their_own_number():
    # 421.5 (2008): each player chooses for their own set, "higher, lower, or the same"
    outcome = cited(settle(KEY, INDEPENDENT + """
        [intent]
        Alice = 10
        Bob = 3
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == {"Alice": 10, "Bob": 3}
    assert outcome.value("state.tokens") == 10
    assert outcome.value("state.bob_life") == 23
    assert outcome.deviates is None
    assert outcome.rules == ("421.5",)
    assert outcome.notes == ()


def test_independent_sets_of_three_players_start_after_the_active_player():
    # 421.5 (2008): the first involved player after a non-involved active player chooses first, then the rest
    outcome = cited(settle(KEY, """
        title = "Three independent loops on Bob's turn"
        players = ["Alice", "Bob", "Carol", "Dave"]
        active = "Bob"
        [state]
        tokens = 0
        dave_life = 20
        counters = 0
        [[step]]
        by = "Alice"
        does = "creates a token"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Carol"
        does = "puts a +1/+1 counter on her creature"
        optional = true
        add = { counters = 1 }
        [[step]]
        by = "Dave"
        does = "gains 1 life"
        optional = true
        add = { dave_life = 1 }
        [loop]
        independent = true
        [intent]
        Alice = 5
        Carol = 8
        Dave = 2
    """))
    assert outcome.value("iterations") == {"Alice": 5, "Carol": 8, "Dave": 2}
    assert outcome.value("state.tokens") == 5
    assert outcome.value("state.counters") == 8
    assert outcome.value("state.dave_life") == 22
    assert [line.split(" ")[1] for line in outcome.transcript[:3]] == ["Carol", "Dave", "Alice"]


def test_independent_sets_outside_player_note_names_the_rule_applied():
    # 421.5 (2008): "each set of actions occurs the appropriate number of times"; it is silent on
    # players outside the sets, so Carol's intent leaves the sets' numbers alone (noted, citing 421.5)
    outcome = settle(KEY, seated(INDEPENDENT, "Alice", "Bob", "Carol") + """
        [intent]
        Alice = 10
        Bob = 7
        Carol = 4
    """)
    assert outcome.value("iterations") == {"Alice": 10, "Bob": 7}
    assert outcome.deviates is None
    noted(outcome, "421.5", "outside")
    assert not [n for n in outcome.notes if "421.3" in n]


# --- loops that end, silences, numbers -----------------------------------------------------------

DRAIN_TOO_LATE = """
    title = "Bob dies before Carol's Seal"
    players = ["Alice", "Bob", "Carol"]
    [state]
    bob_life = 3
    [[step]]
    by = "Alice"
    does = "her first trigger resolves: Bob loses 1 life"
    add = { bob_life = -1 }
    [[step]]
    by = "Alice"
    does = "her second trigger resolves and triggers the first again"
    [loop]
    ends_when = { value = "bob_life", at_most = 0 }
    ends_with = "Bob loses the game"
    [[breaker]]
    by = "Carol"
    does = "sacrifices Seal of Cleansing"
    [intent]
    Carol = 5
"""


def test_a_loop_that_ends_before_anyone_breaks_it_runs_to_completion():
    # 421.1 (2008): a loop that ends is no endless loop; Bob dies before Carol's break after 5
    outcome = cited(settle(KEY, DRAIN_TOO_LATE))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (2, 1)
    assert outcome.deviates is None
    assert outcome.last_action == "Alice"
    assert outcome.value("state.bob_life") == 0
    assert "421.1" in outcome.rules
    assert not [line for line in outcome.transcript if "draw" in line]


def test_a_loop_that_ends_first_does_not_claim_the_later_break_in_the_transcript():
    # 421.1 / 421.4 (2008): the transcript must describe what happens: no break by Carol
    outcome = settle(KEY, DRAIN_TOO_LATE)
    assert outcome.result is Result.ENDS
    assert not [line for line in outcome.transcript if "breaks it" in line]


@pytest.mark.parametrize(
    "step_flags, loop_flags, silent_on",
    [
        ("random = true", "", "randomness"),
        ("conditional = true", "", "conditional actions"),
        ("", "spans_turns = true\nmeaningful_change = true", "across turns"),
        ("", "shortcut_before = true", "restarting"),
        ("choice = true\nhidden = true", "", "hidden information"),
    ],
)
def test_rule_421_restricts_nothing_it_does_not_mention(step_flags, loop_flags, silent_on):
    # 421 (2008) is silent on randomness, conditions, turns, restarts, hidden choices: no restriction (noted)
    outcome = cited(settle(KEY, f"""
        title = "A loop the 2008 text says nothing special about"
        players = ["Alice", "Bob"]
        [state]
        n = 0
        [[step]]
        by = "Alice"
        does = "activates her ability"
        optional = true
        {step_flags}
        add = {{ n = 1 }}
        [[step]]
        by = "Alice"
        does = "a trigger untaps the permanent"
        [loop]
        {loop_flags}
        [intent]
        Alice = 4
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == 4
    assert outcome.judge is False
    noted(outcome, "says nothing about", silent_on)


def test_a_googol_lowered_number_is_computed_in_closed_form():
    # 421.3 (2008): Bob lowers to 10**100; a counter each iteration plus the fraction: 10**100 + 1 counters
    outcome = cited(settle(KEY, f"""
        title = "Gain flying with a counter, a googol times"
        players = ["Alice", "Bob"]
        [state]
        flying = false
        counters = 0
        [[step]]
        by = "Alice"
        does = "activates '{{0}}: gains flying'; a trigger puts a +1/+1 counter on it"
        optional = true
        set = {{ flying = true }}
        add = {{ counters = 1 }}
        [[step]]
        by = "Bob"
        does = "activates '{{0}}: Target creature loses flying'"
        optional = true
        set = {{ flying = false }}
        [intent]
        Bob = {GOOGOL}
    """))
    assert (outcome.value("iterations"), outcome.steps) == (GOOGOL, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.counters") == GOOGOL + 1
    assert outcome.value("state.flying") is True


def test_a_lower_number_on_the_turn_of_an_uninvolved_player_needs_no_reading_in_2008():
    # 421.3 (2008) gives the last word after a lower number to "the first player", not "the active
    # player" as 2005 did: no note on that slip here.
    outcome = cited(settle(KEY, """
        title = "Alice and Carol fight over flying on Bob's turn"
        players = ["Alice", "Bob", "Carol"]
        active = "Bob"
        [state]
        flying = false
        [[step]]
        by = "Alice"
        does = "gains flying"
        optional = true
        set = { flying = true }
        [[step]]
        by = "Carol"
        does = "loses flying"
        optional = true
        set = { flying = false }
        [intent]
        Alice = 3
    """))
    assert (outcome.value("iterations"), outcome.deviates, outcome.last_action) == (3, "Alice", "Carol")
    assert not any("2005" in note for note in outcome.notes), outcome.notes


# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_counts_as_an_optional_action_by_the_judges_practice():
    # 421.3 (2008): Bob's choice read as his optional action (noted): a loop both players sustain
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.rules == ("421.3",)
    assert (outcome.result, outcome.deviates) == (Result.SHORTCUT, "Alice")
    noted(outcome, "optional actions", "judges' practice", "Bob is involved")
