"""CR 729 "Taking Shortcuts", text of 2024-06-07: the ``cr-2024`` ruleset.

Each test is one small loop and pins one sentence of 729.1-729.6 (or one reading the project takes
where the text is silent, which must then carry a note).
"""

from __future__ import annotations

import re

import pytest
from helpers import citing, noted, scenario_text, settle

from loopcompare.rulesets import Result

KEY = "cr-2024"
GOOGOL = 10**100

# The 2024 text numbers 729.1-729.6 (with letters) and cites 104.4b for the draw.
CITATION = re.compile(r"(729\.[1-6][a-c]?|104\.4b): ")
cited = citing(CITATION)


# Gain flying (Alice, the active player) against lose flying (Bob): the 729.3 example.
FLYING = scenario_text("flying")

# Presence of Gond and Intruder Alarm: the 729.2a example.
GOND = scenario_text("gond")

# Two triggers that feed each other; Bob holds a Seal of Cleansing: the 729.5 example.
SEAL = """
    title = "A mandatory loop and a Seal of Cleansing"
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
"""


# --- 729.4, 729.5, 729.6: mandatory loops --------------------------------------------------------


def test_mandatory_loop_is_a_draw_and_nobody_is_forced_to_break_it():
    # 729.4 and 729.5: only mandatory actions is a draw; Bob is not forced to sacrifice the Seal
    outcome = cited(settle(KEY, SEAL))
    assert outcome.result is Result.DRAW
    assert outcome.deviates is None
    assert outcome.iterations is None
    assert {"729.4", "729.5", "104.4b"} <= set(outcome.rules)


def test_mandatory_loop_a_player_chooses_to_break():
    # 729.5: Bob may still choose to break it; the text says so, so no note is needed; Alice has no way out
    outcome = cited(settle(KEY, SEAL + """
        [intent]
        Alice = 1
        Bob = 2
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (2, 0)
    assert outcome.deviates == "Bob"
    assert "729.5" in outcome.rules
    noted(outcome, "Alice", "ignored")
    assert not [n for n in outcome.notes if "not forced" in n]


def test_unless_nobody_pays_is_a_draw():
    # 729.6: nobody can be forced to perform [B]; if nobody does, [A] is mandatory and 729.4 makes a draw
    outcome = cited(settle(KEY, """
        title = "An unless loop nobody pays to break"
        players = ["Alice", "Bob"]
        [[step]]
        by = "Alice"
        does = "her trigger resolves: its effect happens unless Bob pays {1}"
        unless = { by = "Bob", does = "pays {1}" }
        [[step]]
        by = "Bob"
        does = "the effect triggers Alice's ability again"
    """))
    assert outcome.result is Result.DRAW
    assert outcome.rules[:2] == ("729.6", "729.4")


def test_unless_payer_pays_at_the_unless_step():
    # 729.6: Bob may pay to break it, after 3 iterations at the step that offers the payment
    outcome = cited(settle(KEY, """
        title = "Bob pays after three rounds"
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
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.tokens") == 4
    assert [line for line in outcome.transcript if line.startswith("729.6:") and "Bob chooses" in line]


# --- 729.2: propose, accept or shorten ------------------------------------------------------------


def test_a_million_tokens():
    # 729.2a example: "I'll create a million tokens"
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 1000000
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == 1_000_000
    assert outcome.value("state.tokens") == 1_000_000
    assert outcome.deviates == "Alice"
    assert outcome.rules == ("729.2a", "729.2b", "729.2c")


def test_another_player_shortens_to_a_partial_iteration():
    # 729.2b: a player shortens the proposal to the place where they will make a different choice
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 1000000
        Bob = { after = 5, step = 1 }
    """))
    assert (outcome.value("iterations"), outcome.steps) == (5, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.tokens") == 6


def test_tie_goes_to_the_first_player_after_the_proposer():
    # 729.2b: in turn order after the proposer, Carol shortens first; Alice's same place only accepts (noted)
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
        Alice = 5
        Carol = 5
    """))
    assert outcome.value("iterations") == 5
    assert outcome.deviates == "Carol"
    noted(outcome, "Carol", "Alice", "same point")


def test_a_loop_one_player_controls_is_not_fragmented():
    # 729.3 needs "each player involved"; one player's loop with an unchanged state runs to their number
    outcome = cited(settle(KEY, """
        title = "Alice taps and untaps her own creature"
        players = ["Alice", "Bob"]
        [[step]]
        by = "Alice"
        does = "activates her creature's '{T}' ability"
        optional = true
        [[step]]
        by = "Alice"
        does = "her trigger untaps it"
        [intent]
        Alice = 5
    """))
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.deviates == "Alice"
    assert "729.3" not in outcome.rules


# --- 729.3: fragmented loops ----------------------------------------------------------------------


def test_fragmented_loop_active_player_stops_at_the_first_repeat():
    # 729.3 example: the state repeats after one iteration; the active player must stop: no flying
    outcome = cited(settle(KEY, FLYING))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False
    assert outcome.rules[0] == "729.3"


def test_fragmented_loop_ignores_what_the_nonactive_player_had_in_mind():
    # 729.3: whatever numbers anyone had in mind, the active player stops at the first repeat
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (1, 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.flying") is False


def test_nonactive_player_can_prevent_the_fragmented_loop():
    # 729.3 example: the nonactive player could simply not activate, and the creature would have flying
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 0
    """))
    assert (outcome.value("iterations"), outcome.steps) == (0, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_active_player_may_stop_before_the_state_repeats():
    # 729.3 / 729.2a: a proposer who stops sooner than the repeat just stops there
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Alice = 0
    """))
    assert (outcome.value("iterations"), outcome.steps) == (0, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action is None
    assert outcome.value("state.flying") is False


def test_fragmented_loop_first_involved_player_when_the_active_player_is_not_involved():
    # 729.3: "the first player in turn order who is involved" stops: Carol, after Bob (active)
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
    assert (outcome.value("iterations"), outcome.steps) == (1, 1)
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_fragmented_loop_repeat_found_part_way_through_an_iteration():
    # 729.3: flying from the start; the state first repeats after Alice's second activation; she stops at her next one
    outcome = cited(settle(KEY, """
        title = "Gain flying, lose flying, on a creature that already flies"
        players = ["Alice", "Bob"]
        [state]
        flying = true
        [[step]]
        by = "Alice"
        does = "activates '{0}: This creature gains flying'"
        optional = true
        set = { flying = true }
        [[step]]
        by = "Bob"
        does = "activates '{0}: Target creature loses flying'"
        optional = true
        set = { flying = false }
    """))
    assert (outcome.value("iterations"), outcome.steps) == (2, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False


def test_a_growing_value_means_no_repeated_state():
    # 729.3 does not apply when a counter grows every iteration; 729.2b: Bob shortens to after 3 and 1 step
    outcome = cited(settle(KEY, """
        title = "Gain flying with a counter each time"
        players = ["Alice", "Bob"]
        [state]
        flying = false
        counters = 0
        [[step]]
        by = "Alice"
        does = "activates '{0}: gains flying'; a trigger puts a +1/+1 counter on it"
        optional = true
        set = { flying = true }
        add = { counters = 1 }
        [[step]]
        by = "Bob"
        does = "activates '{0}: Target creature loses flying'"
        optional = true
        set = { flying = false }
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.flying") is True
    assert outcome.value("state.counters") == 4
    assert "729.3" not in outcome.rules


# --- independent sets -----------------------------------------------------------------------------


def test_independent_sets_each_player_shortcuts_their_own_loop():
    # 729 has no rule for independent sets; reading: each player proposes their own loop (noted)
    outcome = cited(settle(KEY, """
        title = "Tokens and life"
        players = ["Alice", "Bob"]
        [state]
        tokens = 0
        bob_life = 20
        [[step]]
        by = "Alice"
        does = "creates a token"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Bob"
        does = "gains 1 life"
        optional = true
        add = { bob_life = 1 }
        [loop]
        independent = true
        [intent]
        Alice = 10
        Bob = 3
    """))
    assert outcome.value("iterations") == {"Alice": 10, "Bob": 3}
    assert outcome.value("state.tokens") == 10
    assert outcome.value("state.bob_life") == 23
    noted(outcome, "independent")


def test_independent_sets_that_repeat_the_state_are_fragmented():
    # 729.3: "each player involved performs an independent action" and the state repeats: Alice stops
    outcome = cited(settle(KEY, """
        title = "Alice and Bob each tap and untap their own creature"
        players = ["Alice", "Bob"]
        [state]
        alice_tapped = false
        bob_tapped = false
        [[step]]
        by = "Alice"
        does = "taps her creature for its ability"
        optional = true
        set = { alice_tapped = true }
        [[step]]
        by = "Alice"
        does = "her trigger untaps it"
        set = { alice_tapped = false }
        [[step]]
        by = "Bob"
        does = "taps his creature for its ability"
        optional = true
        set = { bob_tapped = true }
        [[step]]
        by = "Bob"
        does = "his trigger untaps it"
        set = { bob_tapped = false }
        [loop]
        independent = true
        [intent]
        Alice = 10
        Bob = 3
    """))
    assert outcome.value("iterations") == {"Alice": 1, "Bob": 1}
    assert outcome.deviates == "Alice"
    assert outcome.rules[0] == "729.3"


# --- 729.2a: what a shortcut may include -------------------------------------------------------------


def test_conditional_actions_cannot_be_shortcut():
    # 729.2a: a shortcut "can't include conditional actions"
    outcome = cited(settle(KEY, """
        title = "Scry until a land"
        players = ["Alice", "Bob"]
        [state]
        scries = 0
        [[step]]
        by = "Alice"
        does = "activates '{T}: Scry 1', keeping a land on top and bottoming anything else"
        optional = true
        conditional = true
        add = { scries = 1 }
        [[step]]
        by = "Alice"
        does = "a trigger untaps the creature"
        [intent]
        Alice = 10
    """))
    assert outcome.result is Result.NO_SHORTCUT
    assert outcome.iterations is None
    assert outcome.value("state.scries") == 0
    assert outcome.rules == ("729.2a",)


@pytest.mark.parametrize(
    "step_flags, loop_flags, note_words",
    [
        ("random = true", "", ("729.2a", "randomness")),
        ("", "shortcut_before = true", ("restarting",)),
        ("choice = true\nhidden = true", "", ("hidden information",)),
    ],
)
def test_rule_729_does_not_forbid_what_it_does_not_mention(step_flags, loop_flags, note_words):
    # 729.2a forbids only conditional actions; randomness, restarts and hidden choices are allowed (noted)
    outcome = cited(settle(KEY, f"""
        title = "A loop rule 729 has nothing special to say about"
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
    noted(outcome, *note_words)


def test_a_shortcut_may_cross_turns_and_card_draws_break_the_repeat():
    # 729.2a: a shortcut "may even cross multiple turns"; cards drawn mean the state never repeats (729.3)
    outcome = cited(settle(KEY, """
        title = "A tug of war over an artifact while both keep drawing"
        players = ["Alice", "Bob"]
        [state]
        alice_has_dynamo = false
        alice_drawn = 0
        bob_drawn = 0
        [[step]]
        by = "Alice"
        does = "draws a card in her draw step"
        add = { alice_drawn = 1 }
        [[step]]
        by = "Alice"
        does = "activates Memnarch to gain control of the Thran Dynamo"
        optional = true
        set = { alice_has_dynamo = true }
        [[step]]
        by = "Bob"
        does = "draws a card in his draw step"
        add = { bob_drawn = 1 }
        [[step]]
        by = "Bob"
        does = "activates Memnarch to gain control of the Thran Dynamo again"
        optional = true
        set = { alice_has_dynamo = false }
        [loop]
        spans_turns = true
        meaningful_change = true
        [intent]
        Bob = 4
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (4, 3)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.alice_has_dynamo") is True
    assert outcome.value("state.alice_drawn") == 5
    assert "729.2a" in outcome.rules and "729.3" not in outcome.rules


# --- loops that end, numbers ----------------------------------------------------------------------

DRAIN = scenario_text("drain")


def test_a_loop_that_ends_by_itself_is_not_a_draw():
    # 729.1b: a loop that ends when Bob dies could not "be repeated indefinitely": no draw, even in the transcript
    outcome = cited(settle(KEY, DRAIN))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.last_action == "Alice"
    assert outcome.value("state.bob_life") == -1
    assert not [line for line in outcome.transcript if "draw" in line]
    assert "729.1b" in outcome.rules


def test_a_googol_of_lives_drains_in_closed_form():
    # 729.1b: a loop that ends after 10**100 iterations still ends, computed without iterating
    outcome = cited(settle(KEY, f"""
        title = "A googol life points"
        players = ["Alice", "Bob"]
        [state]
        bob_life = {GOOGOL}
        [[step]]
        by = "Alice"
        does = "her first trigger resolves: Bob loses 1 life"
        add = {{ bob_life = -1 }}
        [[step]]
        by = "Alice"
        does = "her second trigger resolves and triggers the first again"
        [loop]
        ends_when = {{ value = "bob_life", at_most = 0 }}
    """))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (GOOGOL - 1, 1)
    assert outcome.value("state.bob_life") == 0

# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_is_a_game_choice_so_its_maker_is_involved_and_the_fragmented_rule_applies():
    # 729.2a "a sequence of game choices, for all players"; 729.3: the active player stops at the repeat
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps, outcome.deviates) == (1, 0, "Alice")
    assert "729.3" in outcome.rules
    note = noted(outcome, "game choices", "729.2a", "Bob is involved")
    assert "729.1 glosses a game choice" in note


def test_no_choice_no_note_on_choices():
    # 729: the reading on choices is noted only where a choice keeps the loop going
    outcome = settle(KEY, ACTION_AND_CHOICE.replace("choice = true", ""))
    assert not [n for n in outcome.notes if "game choices" in n]
