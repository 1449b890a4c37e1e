"""Rules Summary G.21 "Infinity" (rulings 1998-03-31 .. 1998-11-03): the ``summary-1998`` ruleset.

Each test is one small loop and pins one sentence of G.21 (or one reading the project takes where
the text is silent, which must then carry a note).  What sets G.21 apart from every later text: a
loop nobody controls is never a draw; it repeats the *larger* of the numbers the players pick.
"""

from __future__ import annotations

import re

from helpers import citing, noted, scenario_text, settle

from loopcompare.rulesets import Result

KEY = "summary-1998"

# G.21 numbers G.21.1-G.21.4, the rulings (G.21.Ruling.n) and the closing Note; nothing else may be cited.
CITATION = re.compile(r"(G\.21\.[1-4]|G\.21\.Ruling\.[1-4]|G\.21\.Note): ")
cited = citing(CITATION)


# Two triggers keep triggering each other: nobody controls anything in the loop.
TRIGGERS = """
    title = "Two triggers, nobody in control"
    players = ["Alice", "Bob"]
    [[step]]
    by = "Alice"
    does = "her artifact's trigger resolves"
    [[step]]
    by = "Bob"
    does = "his enchantment's trigger resolves and triggers the artifact again"
"""

# The same loop, and Bob could sacrifice Seal of Cleansing to destroy the artifact.
SEAL = TRIGGERS + """
    [[breaker]]
    by = "Bob"
    does = "sacrifices Seal of Cleansing to destroy the artifact"
"""

# Presence of Gond and Intruder Alarm: Alice alone controls the loop.
GOND = """
    title = "Presence of Gond and Intruder Alarm"
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
"""

# Gain flying (Alice) against lose flying (Bob): two players sustain the loop.
FLYING = scenario_text("flying")

# A mandatory drain: Alice's triggers make Bob lose 1 life each iteration.
DRAIN = """
    title = "Bob is drained by two triggers"
    players = ["Alice", "Bob"]
    [state]
    bob_life = 10
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
"""


# --- G.21.3: loops nobody controls -----------------------------------------------------------------


def test_uncontrolled_loop_nobody_breaks_is_no_draw():
    # G.21.3: each player picks a finite number, the loop repeats the larger: there is no draw
    outcome = cited(settle(KEY, SEAL))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 0
    assert outcome.deviates is None
    assert "G.21.3" in outcome.rules
    assert not [r for r in outcome.rules if r.startswith(("102.", "104.", "421."))]


def test_uncontrolled_loop_repeats_the_larger_number():
    # G.21.3: "the loop repeats for a number of times equal to the larger of the numbers chosen"
    outcome = cited(settle(KEY, TRIGGERS + """
        [intent]
        Alice = 2
        Bob = 5
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.deviates is None
    assert outcome.rules == ("G.21.3", "G.21.4")


def test_larger_number_wins_whoever_picks_it():
    # G.21.3: the larger number counts even when the active player, picking first, names it
    outcome = cited(settle(KEY, TRIGGERS + """
        [intent]
        Alice = 5
        Bob = 2
    """))
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.deviates is None


def test_active_player_picks_first():
    # G.21.3: "The active player picks first"
    outcome = cited(settle(KEY, TRIGGERS.replace('players = ["Alice", "Bob"]', 'players = ["Alice", "Bob"]\nactive = "Bob"') + """
        [intent]
        Alice = 2
        Bob = 5
    """))
    picks = [line for line in outcome.transcript if "picks a number" in line]
    assert [line.split(": ")[1].split(" ")[0] for line in picks] == ["Bob", "Alice"]
    assert outcome.value("iterations") == 5


def test_player_with_a_legal_action_stops_the_loop_sooner():
    # G.21.3: "If a player has a way to legally do something during the loop, they can stop the loop after any smaller number of times"
    outcome = cited(settle(KEY, SEAL + """
        [intent]
        Alice = "never"
        Bob = 2
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (2, 0)
    assert outcome.deviates == "Bob"
    assert "G.21.3" in outcome.rules


def test_a_smaller_number_without_a_legal_action_does_not_stop_the_loop():
    # G.21.3: only a player with a way to do something can stop it sooner; a mere number is outvoted
    outcome = cited(settle(KEY, SEAL + """
        [intent]
        Alice = 2
        Bob = 7
    """))
    assert (outcome.value("iterations"), outcome.steps) == (7, 0)
    assert outcome.deviates is None


# --- G.21.2: a loop one player controls ------------------------------------------------------------


def test_one_player_loop_repeats_the_stated_number():
    # G.21.2: "If the opponent does nothing to interfere, then the actions occur the stated number of times"
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 1000000
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1000000, 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.tokens") == 1000000
    assert outcome.rules == ("G.21.2",)


def test_any_player_may_interfere_after_a_smaller_number():
    # G.21.2: "Any player may say that after some smaller number of times they want to stop the loop"
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 1000000
        Carol = 8
    """))
    assert (outcome.value("iterations"), outcome.steps) == (8, 0)
    assert outcome.deviates == "Carol"
    assert outcome.value("state.tokens") == 8
    assert outcome.rules == ("G.21.2",)


# --- G.21 Ruling 4: loops that will end ------------------------------------------------------------


def test_a_loop_that_will_end_runs_to_completion():
    # G.21.Ruling.4: "If a loop will end, the game will run it to completion"
    outcome = cited(settle(KEY, DRAIN))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (9, 1)
    assert outcome.value("state.bob_life") == 0
    assert outcome.deviates is None
    assert outcome.rules == ("G.21.Ruling.4",)


def test_picked_numbers_do_not_cut_short_a_loop_that_will_end():
    # G.21.Ruling.4: the pick-a-number rule can't be used for a loop that will end: 2 and 3 are not used
    outcome = cited(settle(KEY, DRAIN + """
        [intent]
        Alice = 2
        Bob = 3
    """))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (9, 1)
    assert outcome.value("state.bob_life") == 0
    assert "G.21.3" not in outcome.rules


# --- the Note, and what G.21 does not cover ---------------------------------------------------------


RANDOM = """
    title = "Shuffle until the combo piece is on top"
    players = ["Alice", "Bob"]
    [state]
    shuffles = 0
    [[step]]
    by = "Alice"
    does = "activates an ability that shuffles her library"
    optional = true
    random = true
    add = { shuffles = 1 }
    [[step]]
    by = "Alice"
    does = "a trigger untaps the permanent"
    [intent]
    Alice = 4
"""


def test_randomness_is_left_to_the_judge():
    # G.21.Note: no ruling for loops with randomness: unspecified, cited to the Note
    outcome = cited(settle(KEY, RANDOM))
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.iterations is None
    assert outcome.rules == ("G.21.Note",)


def test_randomness_sets_judge():
    # G.21.Note: "the result will be up to the judge": judge = true
    outcome = settle(KEY, RANDOM)
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.judge is True


def test_loop_two_players_sustain_is_unspecified_with_a_note():
    # G.21.2 speaks of one player's combination: a loop two players sustain is not covered
    outcome = cited(settle(KEY, FLYING))
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.iterations is None
    assert outcome.deviates is None
    assert outcome.value("state.flying") is False
    noted(outcome, "does not settle", "2 players")


def test_independent_sets_of_two_players_are_unspecified_with_a_note():
    # G.21.2 has no rule for several players' sets of actions either
    outcome = cited(settle(KEY, FLYING + """
        [loop]
        independent = true
    """))
    assert outcome.result is Result.UNSPECIFIED
    noted(outcome, "does not settle")

# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_puts_the_loop_under_its_makers_control():
    # G.21.2 "completely under player control": with Bob's choice counted, two players: not covered (noted)
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.result is Result.UNSPECIFIED
    noted(outcome, "G.21.2", "Bob is in control of the loop")
