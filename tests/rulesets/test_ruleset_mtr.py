"""Magic Tournament Rules 4.4 "Loops", current text: the ``mtr-current`` ruleset.

Each test is one small loop and pins one sentence of MTR 4.4 (or of CR 729 where the MTR leaves it
in force, or one reading the project takes where the text is silent, which must then carry a note).
"""

from __future__ import annotations

import re

import pytest
from helpers import citing, noted, scenario_text, seated, settle

from loopcompare.rulesets import Result, registry

KEY = "mtr-current"
GOOGOL = 10**100

# The MTR cites itself as "MTR 4.4" and the CR rules it leaves in force as "CR 729.x".
CITATION = re.compile(r"(MTR 4\.4|CR 729\.[1-6][a-c]?|CR 104\.4b): ")  # 104.4b: the draw rule, inside one resolution (FORMAT item 11)
cited = citing(CITATION)


# Gain flying (Alice) against lose flying (Bob).
FLYING = scenario_text("flying")

# Presence of Gond and Intruder Alarm: one player involved.
GOND = scenario_text("gond")

# A tug of war over an artifact, one activation on each player's turn.
TUG_OF_WAR = """
    title = "A tug of war over the Thran Dynamo"
    players = ["Alice", "Bob"]
    [state]
    alice_has_dynamo = false
    [[step]]
    by = "Alice"
    does = "on her turn, activates Memnarch to gain control of the Thran Dynamo"
    optional = true
    set = { alice_has_dynamo = true }
    [[step]]
    by = "Bob"
    does = "on his turn, activates Memnarch to gain control of the Thran Dynamo again"
    optional = true
    set = { alice_has_dynamo = false }
"""


# --- no players involved --------------------------------------------------------------------------


def test_mandatory_loop_all_choose_no_action_is_a_draw():
    # MTR 4.4: "If all players choose to take no action, the game is a draw"
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
    assert outcome.rules == ("MTR 4.4",)


def test_mandatory_loop_lowest_breaking_number_wins():
    # MTR 4.4: the game advances through the lowest number chosen and that player breaks the loop
    outcome = cited(settle(KEY, """
        title = "A mandatory loop with two ways out, and a player with none"
        players = ["Alice", "Bob", "Carol"]
        [state]
        tokens = 0
        alice_life = 20
        [[step]]
        by = "Alice"
        does = "her artifact's trigger: a Thopter token, and she loses 1 life"
        add = { tokens = 1, alice_life = -1 }
        [[step]]
        by = "Alice"
        does = "the Thopter triggers her second artifact, which triggers the first again"
        [loop]
        ends_when = { value = "alice_life", at_most = 0 }
        [[breaker]]
        by = "Bob"
        does = "sacrifices Seal of Cleansing to destroy an artifact"
        [[breaker]]
        by = "Carol"
        does = "casts Naturalize on an artifact"
        [intent]
        Alice = 1
        Bob = 6
        Carol = 4
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (4, 0)
    assert outcome.deviates == "Carol"
    assert outcome.value("state.tokens") == 4
    assert outcome.value("state.alice_life") == 16
    noted(outcome, "Alice", "ignored")


def test_unless_nobody_pays_is_a_draw_under_cr_729_6():
    # CR 729.6 stays in force (CR 729.1c: the MTR does not contradict it): an unpaid unless loop is a draw
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
    assert outcome.rules == ("CR 729.6", "MTR 4.4")
    noted(outcome, "CR 729.6", "729.1c")


# --- one player involved --------------------------------------------------------------------------


def test_one_player_involved_another_announces_a_lower_number():
    # MTR 4.4: the others agree or announce a lower number; the one who chose the lowest receives priority
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 1000000
        Bob = 17
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (17, 0)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.tokens") == 17


def test_intervention_part_way_through_an_iteration():
    # MTR 4.4: "the final iteration is only performed up to the chosen point"
    outcome = cited(settle(KEY, GOND + """
        [intent]
        Alice = 100
        Bob = { after = 5, step = 1 }
    """))
    assert (outcome.value("iterations"), outcome.steps) == (5, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.tokens") == 6
    assert [line for line in outcome.transcript if "partly performed" in line]


def test_one_player_involved_tie_goes_to_the_first_in_turn_order():
    # MTR 4.4: two players announce the same lower number; the first in turn order receives priority (noted)
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


# --- two or more players involved, within a turn --------------------------------------------------


def test_within_a_turn_players_who_never_stop_do_not_draw():
    # MTR 4.4: within a turn each names a number (no "indefinitely"): the first namer stops first
    outcome = cited(settle(KEY, FLYING))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == ("unbounded", 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False


def test_the_lowest_number_wins_and_that_player_receives_priority():
    # MTR 4.4: Bob's 3 is lowest; he stops sustaining the loop in the 4th iteration: flying stays
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_players_who_never_stop_the_earliest_namer_stops_first():
    # MTR 4.4: in turn order from Bob (active) Bob names first, so his "never" number is the lowest
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", active="Bob")))
    assert (outcome.value("iterations"), outcome.steps) == ("unbounded", 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_same_number_different_points_the_earlier_point_wins():
    # MTR 4.4 compares numbers of iterations; with the same number, Alice's point comes first (noted)
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", active="Bob") + """
        [intent]
        Alice = 3
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.flying") is False
    noted(outcome, "same number")


def test_three_involved_players_the_lowest_of_three_wins():
    # MTR 4.4: "each player in turn order chooses a number": Carol's 1 is lowest, she stops at her action
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
        Carol = 1
    """))
    assert (outcome.value("iterations"), outcome.steps) == (1, 2)
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.bob_has_crown") is True
    assert not [line for line in outcome.transcript if "Dave" in line]


def test_active_player_not_involved_and_not_intervening_takes_no_part():
    # MTR 4.4: only the players involved name numbers; Carol (active) neither sustains nor intervenes
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", "Carol", active="Carol")))
    assert (outcome.value("iterations"), outcome.steps) == ("unbounded", 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.flying") is False
    assert not [line for line in outcome.transcript if "Carol" in line]
    assert outcome.notes == ()


def test_a_player_outside_the_loop_may_intervene():
    # MTR 4.4 is silent on others when two are involved; reading: they may intervene as with one (noted)
    outcome = cited(settle(KEY, seated(FLYING, "Alice", "Bob", "Carol", active="Carol") + """
        [intent]
        Carol = 4
    """))
    assert (outcome.value("iterations"), outcome.steps) == (4, 0)
    assert outcome.deviates == "Carol"
    noted(outcome, "does not mention other players")


def test_independent_actions_read_literally_one_cut_for_every_set():
    # MTR 4.4 has no separate rule: the lowest number stops every set at one point (noted)
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
    # Bob stops at his action of the 4th iteration, after Alice's 4th token.
    assert outcome.value("iterations") == {"Alice": 4, "Bob": 3}
    assert outcome.steps == 1
    assert outcome.deviates == "Bob"
    assert outcome.value("state.tokens") == 4
    assert outcome.value("state.bob_life") == 23
    noted(outcome, "independent", "literally")


# --- across turns ---------------------------------------------------------------------------------


def test_across_turns_all_indefinitely_is_a_draw():
    # MTR 4.4: "If all players choose to continue indefinitely, the game is a draw"
    outcome = cited(settle(KEY, TUG_OF_WAR + """
        [loop]
        spans_turns = true
    """))
    assert outcome.result is Result.DRAW
    assert outcome.iterations is None
    assert outcome.value("state.alice_has_dynamo") is False


def test_across_turns_one_player_names_a_number():
    # MTR 4.4: the lowest number; that player receives priority where they stop sustaining the loop
    outcome = cited(settle(KEY, TUG_OF_WAR + """
        [loop]
        spans_turns = true
        [intent]
        Bob = 4
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (4, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.alice_has_dynamo") is True


def test_across_turns_a_meaningful_change_forbids_the_shortcut():
    # MTR 4.4: loops span turns only "if a game state is not meaningfully changing" (cards drawn are)
    outcome = cited(settle(KEY, TUG_OF_WAR + """
        [loop]
        spans_turns = true
        meaningful_change = true
        [intent]
        Bob = 4
    """))
    assert outcome.result is Result.NO_SHORTCUT
    assert outcome.iterations is None
    assert outcome.value("state.alice_has_dynamo") is False


def test_a_meaningful_change_within_a_turn_is_ignored():
    # MTR 4.4 limits only loops across turns; the flag is ignored for a loop within a turn (noted)
    outcome = cited(settle(KEY, TUG_OF_WAR + """
        [loop]
        meaningful_change = true
        [intent]
        Bob = 4
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (4, 1)
    noted(outcome, "meaningful_change", "within a turn")


# --- loops that may not be shortcut or restarted ---------------------------------------------------------


@pytest.mark.parametrize(
    "flag, paragraph",
    [
        ("random = true", "Non-deterministic"),
        ("conditional = true", "conditional actions"),
    ],
)
def test_non_deterministic_or_conditional_loops_may_not_be_shortcut(flag, paragraph):
    # MTR 4.4: no conditional actions; non-deterministic loops (probability, shuffling) may not be shortcut
    outcome = cited(settle(KEY, f"""
        title = "A loop that shuffles or decides"
        players = ["Alice", "Bob"]
        [state]
        n = 0
        [[step]]
        by = "Alice"
        does = "activates an ability that shuffles her library or scries"
        optional = true
        {flag}
        add = {{ n = 1 }}
        [[step]]
        by = "Alice"
        does = "a trigger untaps the permanent"
        [intent]
        Alice = 10
    """))
    assert outcome.result is Result.NO_SHORTCUT
    assert outcome.iterations is None
    assert outcome.value("state.n") == 0
    assert outcome.rules == ("MTR 4.4",)
    assert any(paragraph in text for _, text in outcome.quotes)


def test_a_loop_shortcut_before_may_not_be_restarted():
    # MTR 4.4: "Once a loop has been shortcut, it may not be restarted until the game has changed"
    outcome = cited(settle(KEY, FLYING + """
        [loop]
        shortcut_before = true
    """))
    assert outcome.result is Result.NO_RESTART
    assert outcome.iterations is None
    assert outcome.deviates is None
    assert outcome.value("state.flying") is False


# --- loops sustained by choices -------------------------------------------------------------------

HIDDEN_CHOICE = """
    title = "A loop sustained by a choice from a hidden hand"
    players = ["Alice", "Bob"]
    [state]
    bob_life = 20
    [[step]]
    by = "Bob"
    does = "chooses a card in his hand without revealing it, and picks a nonland card"
    optional = true
    choice = true
    hidden = true
    [[step]]
    by = "Alice"
    does = "her enchantment's trigger resolves: Bob gains 1 life, which triggers it again"
    add = { bob_life = 1 }
    [intent]
    Bob = 5
"""


def test_a_hidden_choice_may_need_a_judge():
    # MTR 4.4: "If the choice involves hidden information, a judge may be needed"
    outcome = cited(settle(KEY, HIDDEN_CHOICE))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.bob_life") == 25
    assert outcome.judge is True
    assert [line for line in outcome.transcript if "judge may be needed" in line]


def test_a_choice_loop_moves_to_the_point_of_the_different_choice():
    # MTR 4.4: "with the player making a different choice rather than ceasing to take an action"
    outcome = settle(KEY, HIDDEN_CHOICE)
    assert [line for line in outcome.transcript if "different choice" in line]


# --- loops that end, numbers ----------------------------------------------------------------------

DRAIN = scenario_text("drain")


def test_a_loop_that_ends_by_itself_is_not_a_draw():
    # MTR 4.4: a loop that ends when Bob dies is run to completion: no draw, even in the transcript
    outcome = cited(settle(KEY, DRAIN))
    assert outcome.result is Result.ENDS
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.last_action == "Alice"
    assert outcome.value("state.bob_life") == -1
    assert not [line for line in outcome.transcript if "draw" in line]


def test_a_googol_is_the_lowest_number():
    # MTR 4.4: any finite number may be chosen, here 10**100 against "never"
    outcome = cited(settle(KEY, f"""
        title = "A googol flying toggles with a counter each"
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
        Alice = {GOOGOL}
    """))
    assert (outcome.value("iterations"), outcome.steps) == (GOOGOL, 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.counters") == GOOGOL
    assert outcome.value("state.flying") is False


TOKENS_ALICE_CONTROLS = """
    title = "Alice makes tokens; Bob may step in"
    players = ["Alice", "Bob"]
    [state]
    tokens = 0
    [[step]]
    by = "Alice"
    does = "creates a token"
    optional = true
    add = { tokens = 1 }
    [intent]
    Alice = 5
"""


def test_one_player_involved_another_who_would_act_later_agrees():
    # MTR 4.4: "the other players agree or announce a lower number": Bob's 7 is not lower.
    outcome = settle(KEY, TOKENS_ALICE_CONTROLS + "    Bob = 7\n")
    assert outcome.deviates == "Alice" and outcome.value("iterations") == 5
    assert any(line.endswith("Bob agrees.") for line in outcome.transcript), outcome.transcript
    assert not any("announces a lower number" in line for line in outcome.transcript)


def test_one_player_involved_another_who_would_act_sooner_announces_a_lower_number():
    outcome = settle(KEY, TOKENS_ALICE_CONTROLS + "    Bob = 2\n")
    assert outcome.deviates == "Bob" and outcome.value("iterations") == 2
    assert any("Bob announces a lower number, intending to intervene after 2 iterations" in line for line in outcome.transcript)


def test_several_players_involved_an_outsider_with_the_lowest_number_receives_priority_where_they_intervene():
    # MTR 4.4: the lowest number wins; the player who chose it "receives priority" at their point:
    # for a player outside the loop that is where they intervene, not where they stop sustaining it.
    outcome = settle(KEY, """
        title = "Alice and Bob fight over flying; Carol steps in"
        players = ["Alice", "Bob", "Carol"]
        [state]
        flying = false
        [[step]]
        by = "Alice"
        does = "gains flying"
        optional = true
        set = { flying = true }
        [[step]]
        by = "Bob"
        does = "loses flying"
        optional = true
        set = { flying = false }
        [intent]
        Carol = 1
    """)
    assert outcome.deviates == "Carol"
    assert outcome.transcript[-1].endswith("Carol receives priority where they intervene: after 1 iteration.")
    inside = settle(KEY, """
        title = "Alice and Bob fight over flying; Bob stops"
        players = ["Alice", "Bob"]
        [state]
        flying = false
        [[step]]
        by = "Alice"
        does = "gains flying"
        optional = true
        set = { flying = true }
        [[step]]
        by = "Bob"
        does = "loses flying"
        optional = true
        set = { flying = false }
        [intent]
        Bob = 1
    """)
    assert inside.transcript[-1].endswith("Bob receives priority where they stop sustaining the loop: after 1 iteration and 1 step.")


# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_makes_its_maker_involved_so_the_loop_across_turns_is_a_draw():
    # MTR 4.4 "Some loops are sustained by choices"; "If all players choose to continue indefinitely": a draw
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.result is Result.DRAW
    involved = next(line for line in outcome.transcript if "sustained by a choice" in line)
    assert "Bob is involved in maintaining the loop" in involved
    assert "Bob announces their intent to continue indefinitely." in " ".join(outcome.transcript)
    assert not [n for n in outcome.notes if "Marshall" in n]


def test_teferi_and_nexus_of_the_library_is_a_draw():
    # MTR 4.4 (current): both players sustain the Teferi / Nexus of Fate loop across turns: a draw
    from loopcompare.comparator.library import load_builtin

    outcome = cited(registry().get(KEY).settle(load_builtin("teferi-nexus").scenario))
    assert outcome.result is Result.DRAW
    assert outcome.deviates is None
    assert outcome.judge is False
