"""CR 421 "Handling 'Infinite' Loops", multiplayer rewrite of 2005-08-01: the ``cr-2005`` ruleset.

Each test is one small loop and pins one sentence of 421.1-421.5 as worded in 2005 (or one reading
the project takes where the text is silent, which must then carry a note).  Where 2005 differs from
2004 (two-player) and 2008 (final), the test says so.
"""

from __future__ import annotations

import re

import pytest
from helpers import ACCEPTANCE, citing, noted, scenario_text, settle

from loopcompare.comparator.loader import load
from loopcompare.rulesets import Result, registry

KEY = "cr-2005"

# The 2005 text numbers 421.1-421.5 (no 421.6) and the draw rule is 102.4b; nothing else may be cited.
CITATION = re.compile(r"(421\.[1-5]|102\.4b): ")
cited = citing(CITATION)


# Gain flying (Alice, active) against lose flying (Bob): the 421.3 example.
FLYING = scenario_text("flying")

# The same fight between Alice and Carol, on Bob's turn: the active player takes no part.
FLYING_ON_BOBS_TURN = scenario_text("flying-on-bobs-turn")

# Three players each with a loop of their own, on Alice's turn.
THREE_INDEPENDENT = """
    title = "Tokens, life and counters"
    players = ["Alice", "Bob", "Carol"]
    [state]
    tokens = 0
    bob_life = 20
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
    add = { bob_life = 1 }
    [[step]]
    by = "Carol"
    does = "puts a +1/+1 counter on her creature"
    optional = true
    add = { counters = 1 }
    [loop]
    independent = true
    [intent]
    Alice = 5
    Bob = 3
    Carol = 8
"""

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
    [intent]
    Bob = "never"
"""

SEAL = scenario_text("seal")


# --- 421.2: "another player" ----------------------------------------------------------------------


def test_another_player_intervenes_without_a_two_player_note():
    # 421.2 (2005): "until another player intervenes": a third player needs no reading (2004 said "the other player")
    toml = """
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
    """
    outcome = cited(settle(KEY, toml))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (8, 0)
    assert outcome.deviates == "Carol"
    assert outcome.value("state.tokens") == 8
    assert outcome.rules == ("421.2",)
    assert outcome.notes == ()
    # The same loop under the two-player text of 2004 needs the reading.
    assert any("the other player" in n for n in settle("cr-2004", toml).notes)


# --- 421.3: dependent loops -----------------------------------------------------------------------


def test_dependent_nonactive_player_has_the_last_word():
    # 421.3 (2005) example: "the nonactive player will always have the final choice": no flying
    outcome = cited(settle(KEY, FLYING))
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 0
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False
    assert outcome.rules == ("421.3",)


def test_dependent_lower_number_with_active_player_involved_needs_no_reading():
    # 421.3 (2005): a lower number gives "the active player" the last word; here she is the first player
    outcome = cited(settle(KEY, FLYING + """
        [intent]
        Bob = 3
    """))
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True
    assert outcome.notes == ()


def test_dependent_started_by_first_involved_player_after_the_active_player():
    # 421.3 (2005): "the first player (or the first involved player after the active player in turn order) chooses"
    outcome = cited(settle(KEY, FLYING_ON_BOBS_TURN))
    assert outcome.transcript[0].startswith("421.3: Carol")
    # Carol chooses; Alice agrees and so has the last word: the creature keeps flying.
    assert outcome.value("iterations") == "unbounded"
    assert outcome.steps == 1
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True


def test_the_2005_slip_is_noted_when_the_active_player_is_not_involved():
    # 421.3 (2005): a lower number gives "the active player" the last word; Bob takes no part: the first player gets it (noted)
    outcome = cited(settle(KEY, FLYING_ON_BOBS_TURN + """
        [intent]
        Alice = 3
    """))
    # Alice lowers to 3: Carol, the first player, has the last word; Alice does something different.
    assert (outcome.value("iterations"), outcome.steps) == (3, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Carol"
    assert outcome.value("state.flying") is False
    noted(outcome, "the active player", "not involved", "2008")


def test_dependent_three_involved_players_extend_the_sequence():
    # 421.3 (2005): "This sequence of choices is extended to all applicable players" (reading noted)
    outcome = cited(settle(KEY, """
        title = "Three players pass a stolen Crown around"
        players = ["Alice", "Bob", "Carol"]
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


# --- 421.5: independent sets in APNAP order ---------------------------------------------------------


def test_independent_nonactive_players_in_apnap_order_agree_or_go_higher():
    # 421.5 (2005): "In APNAP order, the nonactive players can each either agree to that number or choose a higher number"
    outcome = cited(settle(KEY, THREE_INDEPENDENT))
    assert outcome.result is Result.SHORTCUT
    # Bob wanted 3 but may not go lower than Alice's 5; Carol goes higher, to 8.
    assert outcome.value("iterations") == {"Alice": 5, "Bob": 5, "Carol": 8}
    assert outcome.value("state.tokens") == 5
    assert outcome.value("state.bob_life") == 25
    assert outcome.value("state.counters") == 8
    assert [line.split(" ")[1].rstrip(",") for line in outcome.transcript] == ["Alice", "Bob", "Carol"]
    noted(outcome, "Bob wanted 3")


def test_independent_three_players_differ_from_2004_and_2008():
    # 421.5: 2004 is two-player (unspecified); 2008 lets each go lower; 2005 only agree or higher
    by_key = {key: settle(key, THREE_INDEPENDENT) for key in ("cr-2004", KEY, "cr-2008")}
    assert by_key["cr-2004"].result is Result.UNSPECIFIED
    assert by_key["cr-2008"].value("iterations") == {"Alice": 5, "Bob": 3, "Carol": 8}
    assert by_key[KEY].value("iterations") == {"Alice": 5, "Bob": 5, "Carol": 8}


# --- 421.4 and the missing 421.6 -------------------------------------------------------------------


def test_unless_loop_is_never_a_draw():
    # 421 (2005) has no 421.6: the choice not to pay is an optional action (421.2), as in 2004 (noted)
    outcome = cited(settle(KEY, UNLESS))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == "unbounded"
    assert outcome.deviates == "Bob"
    assert "421.6" not in outcome.rules
    noted(outcome, "421.6", "2008")
    assert settle("cr-2008", UNLESS).result is Result.DRAW


def test_mandatory_loop_is_a_draw_citing_102_4b_with_the_stale_reference_noted():
    # 421.4 (2005-08-01): "(See rule 102.6.)", but the draw rule was then 102.4b: 102.4b is cited (noted)
    outcome = cited(settle(KEY, SEAL))
    assert outcome.result is Result.DRAW
    assert outcome.deviates is None
    assert outcome.rules == ("421.4", "102.4b")
    noted(outcome, "102.6", "102.4b")
    quotes = dict(outcome.quotes)
    assert "(See rule 102.6.)" in quotes["421.4"]
    assert quotes["102.4b"].startswith("102.4b If the game somehow enters a \"loop,\"")


def test_the_2004_draw_cites_102_6_without_the_note():
    # 421.4 (2004) pointed at 102.6, which was then the draw rule: no note (contrast for the 2005 slip)
    outcome = settle("cr-2004", SEAL)
    assert outcome.rules == ("421.4", "102.6")
    assert not [n for n in outcome.notes if "102.4b" in n]


# --- two players: the 2005 text changes nothing -------------------------------------------------------

TWO_PLAYER_CASES = sorted(ACCEPTANCE.glob("*.toml")) if ACCEPTANCE.is_dir() else []


@pytest.mark.skipif(not TWO_PLAYER_CASES, reason="../shared/spec/acceptance is not beside this checkout")
@pytest.mark.parametrize("path", TWO_PLAYER_CASES, ids=[p.stem for p in TWO_PLAYER_CASES])
def test_two_player_acceptance_cases_settle_as_in_2004(path):
    # 421.2-421.5 (2005) read for two players say what 2004 said: the outcomes expected of cr-2004 hold
    sf = load(path)
    assert len(sf.scenario.players) == 2
    expected = sf.expect["cr-2004"]
    outcome = registry().get(KEY).settle(sf.scenario)
    cited(outcome)
    for field, want in expected.items():
        if field == "state":
            for name, value in want.items():
                assert outcome.value(f"state.{name}") == value, (field, name)
        elif field != "rules":
            assert outcome.value(field) == want, field


def test_independent_sets_on_the_turn_of_a_player_outside_them_start_with_the_first_involved_player():
    # 421.5 (2005) has "the active player" choose; Bob, active, takes no part: Carol, the first
    # involved player after him, chooses (noted), and Alice, in APNAP order, may only agree or go higher.
    outcome = cited(settle(KEY, """
        title = "Alice's tokens and Carol's life on Bob's turn"
        players = ["Alice", "Bob", "Carol"]
        active = "Bob"
        [state]
        tokens = 0
        life = 20
        [[step]]
        by = "Alice"
        does = "creates a token"
        optional = true
        add = { tokens = 1 }
        [[step]]
        by = "Carol"
        does = "gains 1 life"
        optional = true
        add = { life = 1 }
        [loop]
        independent = true
        [intent]
        Alice = 2
        Carol = 5
    """))
    assert outcome.value("iterations") == {"Alice": 5, "Carol": 5}
    noted(outcome, "Bob takes no part", "Carol, the first involved player after the active player, chooses it")


# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


def test_a_choice_counts_as_an_optional_action_by_the_judges_practice():
    # 421.3 (2005): Bob's choice read as his optional action (noted): a loop both players sustain
    outcome = cited(settle(KEY, ACTION_AND_CHOICE))
    assert outcome.rules == ("421.3",)
    assert (outcome.result, outcome.deviates) == (Result.SHORTCUT, "Alice")
    noted(outcome, "optional actions", "judges' practice", "Bob is involved")
