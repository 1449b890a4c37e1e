"""CR 421 "Handling 'Infinite' Loops", two-player text of 2003-07-01: the ``cr-2004`` ruleset.

Each test is one small loop and pins one sentence of 421.1-421.5 (or one reading the project takes
where the text is silent, which must then carry a note).
"""

from __future__ import annotations

import re

import pytest
from helpers import citing, noted, scenario_text, seated, settle

from loopcompare.rulesets import Result

KEY = "cr-2004"
GOOGOL = 10**100

# The 2004 text numbers 421.1-421.5 and cites 102.6 for the draw; nothing else may be cited.
CITATION = re.compile(r"(421\.[1-5]|102\.6): ")
cited = citing(CITATION)


# Gain flying (active player Alice) against lose flying (Bob): the 421.3 example.
FLYING = scenario_text("flying")

# Alice makes a token at will; Bob gains 1 life at will; neither depends on the other.
INDEPENDENT = scenario_text("tokens-and-life")


# --- 421.4: mandatory loops ----------------------------------------------------------------------


def test_mandatory_loop_nobody_breaks_is_a_draw():
    # 421.4 (2004): a loop of only mandatory actions is a draw (rule 102.6)
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
    assert outcome.iterations is None
    assert outcome.deviates is None
    assert "421.4" in outcome.rules and "102.6" in outcome.rules


def test_breaker_may_end_a_mandatory_loop_with_a_note():
    # 421.4 (2004): no counterpart of 729.5; reading: a player with an out may use it, not forced to
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
        Bob = 2
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == 2
    assert outcome.steps == 0
    assert outcome.deviates == "Bob"
    noted(outcome, "421.4", "not forced")


def test_intent_without_a_way_out_is_ignored_in_a_mandatory_loop():
    # 421.4 (2004): wanting to stop is not enough; only a player with a breaker can end the loop
    outcome = cited(settle(KEY, """
        title = "Alice wants out but has nothing to break the loop"
        players = ["Alice", "Bob"]
        [[step]]
        by = "Alice"
        does = "her artifact's trigger resolves"
        [[step]]
        by = "Bob"
        does = "his enchantment's trigger resolves and triggers the artifact again"
        [intent]
        Alice = 1
    """))
    assert outcome.result is Result.DRAW
    assert outcome.deviates is None
    noted(outcome, "Alice", "ignored")


# --- 421.2: one player controls the optional actions ---------------------------------------------


def test_one_controller_chooses_the_number():
    # 421.2 (2004): the one player who controls the optional actions chooses a number
    outcome = cited(settle(KEY, """
        title = "Presence of Gond and Intruder Alarm: a million tokens"
        players = ["Alice", "Bob"]
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
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == 1_000_000
    assert outcome.value("state.tokens") == 1_000_000
    assert outcome.deviates == "Alice"
    assert outcome.rules == ("421.2",)


def test_the_other_player_intervenes_part_way_through_an_iteration():
    # 421.2 (2004): "or until the other player intervenes, whichever comes first" (a partial point)
    outcome = cited(settle(KEY, """
        title = "Bob steps in after the sixth token, before the untap"
        players = ["Alice", "Bob"]
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
        Alice = 100
        Bob = { after = 5, step = 1 }
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (5, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.tokens") == 6
    assert outcome.transcript[-1].startswith("421.2: Bob intervenes after 5 iterations and 1 step, before Alice's number")


def test_the_transcript_says_the_controller_stops_when_nobody_intervenes_sooner():
    # 421.2 (2004): the loop repeats the chosen number "or until the other player intervenes,
    # whichever comes first": here Bob's point comes later, so Alice's number stands.
    outcome = cited(settle(KEY, """
        title = "Bob would step in too late"
        players = ["Alice", "Bob"]
        [state]
        tokens = 0
        [[step]]
        by = "Alice"
        does = "creates a token"
        optional = true
        add = { tokens = 1 }
        [intent]
        Alice = 3
        Bob = 5
    """))
    assert outcome.deviates == "Alice" and outcome.value("iterations") == 3
    assert outcome.transcript[-1] == "421.2: nobody intervenes sooner: the loop repeats 3 times and Alice stops after 3 iterations."


def test_three_players_other_player_reading_and_tie():
    # 421.2 (2004) speaks of "the other player": with three, each may intervene; a tie needs a reading
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
    assert outcome.deviates == "Alice"
    assert outcome.value("state.tokens") == 5
    noted(outcome, "the other player")
    noted(outcome, "Alice", "Carol", "same point")


# --- 421.3: both players needed ------------------------------------------------------------------


def test_dependent_nonactive_player_has_the_last_word():
    # 421.3 (2004): the nonactive player agrees, so has the last word: the creature ends without flying
    outcome = cited(settle(KEY, FLYING))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 0
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False
    assert outcome.rules == ("421.3",)


def test_dependent_lower_number_gives_the_active_player_the_last_word():
    # 421.3 (2004): a lower number runs that many times plus the fraction for the active player's last word
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_dependent_nonactive_player_cannot_raise_the_number():
    # 421.3 (2004): the nonactive player may only lower or agree; a higher wish is agreement
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Alice = 2
        Bob = 5
    """))
    assert (outcome.value("iterations"), outcome.steps) == (2, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False


def test_dependent_on_the_other_players_turn_the_last_word_follows_the_turn():
    # 421.3 (2004): "regardless of which player initiated", the nonactive player (Alice) has the final choice
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", active="Bob")))
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 1
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_dependent_partial_intent_is_read_as_a_whole_number():
    # 421.3 (2004): players choose numbers; the fraction is fixed by the rule, not by a partial point (note)
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = { after = 3, step = 0 }
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.flying") is True
    noted(outcome, "whole numbers", "Bob")


def test_dependent_loop_in_a_three_player_game_is_unspecified():
    # 421.3 (2004) covers "each player" of a two-player game; two of three players involved: unspecified
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", "Carol", active="Carol")))
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.iterations is None
    assert outcome.deviates is None
    assert outcome.value("state.flying") is False
    noted(outcome, "421.3", "two-player")


# --- 421.5: independent actions ------------------------------------------------------------------


def test_independent_nonactive_player_may_choose_a_higher_number():
    # 421.5 (2004): the nonactive player may agree or choose a higher number
    outcome = cited(settle(KEY, INDEPENDENT + """
        [intent]
        Alice = 3
        Bob = 10
    """))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == {"Alice": 3, "Bob": 10}
    assert outcome.value("state.tokens") == 3
    assert outcome.value("state.bob_life") == 30
    assert outcome.rules == ("421.5",)


def test_independent_nonactive_player_may_never_choose_lower():
    # 421.5 (2004): never a lower number; Bob's wish for 3 is overruled by Alice's 10 (noted)
    outcome = cited(settle(KEY, INDEPENDENT + """
        [intent]
        Alice = 10
        Bob = 3
    """))
    assert outcome.value("iterations") == {"Alice": 10, "Bob": 10}
    assert outcome.value("state.tokens") == 10
    assert outcome.value("state.bob_life") == 30
    noted(outcome, "Bob", "higher")


def test_independent_sets_with_three_players_are_unspecified():
    # 421.5 (2004) speaks of "the active player" and "the nonactive player": three players are not covered
    outcome = cited(settle(KEY, """
        title = "Three independent loops"
        players = ["Alice", "Bob", "Carol"]
        [state]
        tokens = 0
        counters = 0
        [[step]]
        by = "Alice"
        does = "creates a token"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Bob"
        does = "gains 1 life"
        optional = true
        [[step]]
        by = "Carol"
        does = "puts a +1/+1 counter on her creature"
        optional = true
        add = { counters = 1 }
        [loop]
        independent = true
        [intent]
        Alice = 5
        Bob = 2
        Carol = 8
    """))
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.iterations is None
    assert outcome.value("state.tokens") == 0
    noted(outcome, "421.5", "3 players")


# --- "unless": no 421.6 yet ------------------------------------------------------------------------


def test_unless_loop_is_never_a_draw():
    # no 421.6 in 2004: reading: not paying is the payer's optional action, so 421.2 applies (noted)
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
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == "unbounded"
    assert outcome.deviates == "Bob"
    assert outcome.rules == ("421.2",)
    noted(outcome, "unless", "421.6")


def test_unless_payer_stops_the_loop_at_the_payment():
    # no 421.6 in 2004: the payer controls the loop (421.2) and pays at the unless step after 3 iterations
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
    assert outcome.last_action == "Alice"
    assert outcome.value("state.tokens") == 4


# --- loops that end, silences, numbers -----------------------------------------------------------

DRAIN = scenario_text("drain")


def test_a_loop_that_ends_by_itself_is_not_a_draw():
    # 421.1 (2004): a loop that ends when Bob dies could not "be repeated forever": no draw, even in the transcript
    outcome = cited(settle(KEY, DRAIN))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates is None
    assert outcome.last_action == "Alice"
    assert outcome.value("state.bob_life") == -1
    assert not [line for line in outcome.transcript if "draw" in line]
    assert "421.1" in outcome.rules


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
    # 421 (2004) is silent on randomness, conditions, turns, restarts, hidden choices: no restriction (noted)
    outcome = cited(settle(KEY, f"""
        title = "A loop the 2004 text says nothing special about"
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
    assert outcome.value("state.n") == 4
    assert outcome.judge is False
    noted(outcome, "says nothing about", silent_on)


def test_a_googol_iterations_is_just_a_number():
    # 421.2 (2004): the number chosen is any finite number, here 10**100, computed in closed form
    outcome = cited(settle(KEY, f"""
        title = "A googol tokens"
        players = ["Alice", "Bob"]
        [state]
        tokens = 0
        [[step]]
        by = "Alice"
        does = "activates '{{T}}: Create a 1/1 Elf Warrior token'"
        optional = true
        add = {{ tokens = 1 }}
        [[step]]
        by = "Bob"
        does = "Intruder Alarm untaps all creatures"
        [intent]
        Alice = {GOOGOL}
    """))
    assert outcome.value("iterations") == GOOGOL
    assert outcome.value("state.tokens") == GOOGOL

# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_counts_as_an_optional_action_by_the_judges_practice():
    # 421.3 (2004): Bob's choice read as his optional action (noted), so Bob agrees and has the last word
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.result is Result.SHORTCUT
    assert outcome.rules == ("421.3",)
    assert (outcome.value("iterations"), outcome.deviates, outcome.last_action) == ("unbounded", "Alice", "Bob")
    noted(outcome, "optional actions", "judges' practice", "Bob is involved", "Worldgorger Dragon")
