"""CR 713 "Taking Shortcuts" of 2009: the ``cr-2009`` (2009-07-11) and ``cr-2009-09`` (2009-09-04) rulesets.

Each test is one small loop and pins one sentence of 713.1-713.6 (or one reading the project takes
where the text is silent, which must then carry a note).  The two texts differ in one rule: 713.3,
the fragmented loop, was written for two players in July and given its multiplayer wording in
September.  Both are rule 729 of 2024 under another number.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers import ACCEPTANCE, citing, noted, scenario_text, settle

from loopcompare.comparator.library import load_builtin, names
from loopcompare.comparator.loader import load
from loopcompare.rulesets import COMPARED_FIELDS, Result, registry

JULY = "cr-2009"
SEPTEMBER = "cr-2009-09"
BOTH = (JULY, SEPTEMBER)

# The 2009 texts number 713.1-713.6 (with letters) and cite 104.4b for the draw; never 729.x.
CITATION = re.compile(r"(713\.[1-6][a-c]?|104\.4b): ")
cited = citing(CITATION)


# Gain flying (Alice, the active player) against lose flying (Bob): the 713.3 example.
FLYING = scenario_text("flying")

# The same, in a three-player game: Carol takes no part.
FLYING_WITH_CAROL = FLYING.replace('players = ["Alice", "Bob"]', 'players = ["Alice", "Bob", "Carol"]')

# Alice and Carol fight over flying on Bob's turn: the active player takes no part.
FLYING_ON_BOBS_TURN = scenario_text("flying-on-bobs-turn")

SEAL = scenario_text("seal")

UNLESS = scenario_text("unless")


# --- citations: rule 713 ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", BOTH)
def test_cites_713_not_729(key):
    # 713.3 (2009): the rule is cited by the number it had in the document applied
    outcome = cited(settle(key, FLYING))
    assert outcome.rules == ("713.3", "713.2a", "713.2b", "713.2c")
    assert not [line for line in outcome.transcript if "729" in line]
    assert all(rule.startswith("713.") for rule, _ in outcome.quotes)


@pytest.mark.parametrize("key", BOTH)
def test_today_says_732(key):
    # 713 (2009) is the rule numbered 732 today (since the CR of 2026-04-17)
    text = registry().get(key).today()
    assert "713" in text
    assert "732" in text
    assert "731" not in text


def test_each_text_quotes_its_own_wording_of_713_3():
    # 713.3: July is "each player performs"; September "each player involved in the loop performs"
    july = dict(settle(JULY, FLYING).quotes)["713.3"]
    september = dict(settle(SEPTEMBER, FLYING).quotes)["713.3"]
    assert "each player performs an independent action" in july
    assert "each player involved in the loop performs" in september
    assert "if the active player is not involved in the loop" in september


# --- 713.3: fragmented loops -----------------------------------------------------------------------


@pytest.mark.parametrize("key", BOTH)
def test_fragmented_two_player_loop_active_player_stops(key):
    # 713.3 example: the active player must make a different choice at the first repeat: no flying
    outcome = cited(settle(key, FLYING + """
        [intent]
        Bob = 3
    """))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False
    assert outcome.rules[0] == "713.3"


def test_july_fragmented_loop_with_a_bystander_is_unspecified():
    # 713.3 (2009-07-11): written for a game in which "each player performs" an action; Carol takes none
    outcome = cited(settle(JULY, FLYING_WITH_CAROL))
    assert outcome.result is Result.UNSPECIFIED
    assert outcome.iterations is None
    assert outcome.deviates is None
    assert outcome.rules == ("713.3",)
    noted(outcome, "713.3", "Carol", "unspecified")


def test_september_fragmented_loop_with_a_bystander_active_player_stops():
    # 713.3 (2009-09-04): "each player involved in the loop": the active player stops at the first repeat
    outcome = cited(settle(SEPTEMBER, FLYING_WITH_CAROL))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1, 0)
    assert outcome.deviates == "Alice"
    assert outcome.last_action == "Bob"
    assert outcome.value("state.flying") is False
    assert outcome.rules[0] == "713.3"


def test_july_fragmented_loop_active_player_not_involved_is_unspecified():
    # 713.3 (2009-07-11) names only "the active player", who here takes no part
    outcome = cited(settle(JULY, FLYING_ON_BOBS_TURN))
    assert outcome.result is Result.UNSPECIFIED
    noted(outcome, "713.3", "Bob")


def test_september_fragmented_loop_first_involved_player_stops():
    # 713.3 (2009-09-04): "or, if the active player is not involved in the loop, the first player in turn order who is involved"
    outcome = cited(settle(SEPTEMBER, FLYING_ON_BOBS_TURN))
    # From Bob, turn order is Bob, Carol, Alice: Carol must stop, at her next action after the repeat.
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1, 1)
    assert outcome.deviates == "Carol"
    assert outcome.last_action == "Alice"
    assert outcome.value("state.flying") is True
    assert outcome.transcript[0].startswith("713.3:")
    assert "Carol, the first player in turn order who is involved" in outcome.transcript[0]
    noted(outcome, "Carol has no choice")


def test_july_fragmented_loop_of_all_three_players_active_player_stops():
    # 713.3 (2009-07-11): with every player performing an action, the two-player wording still applies
    outcome = cited(settle(JULY, """
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
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (1, 0)
    assert outcome.deviates == "Alice"
    assert outcome.value("state.carol_has_crown") is True


def test_july_loop_that_does_not_repeat_is_settled_by_713_2_with_a_bystander():
    # 713.2 (2009-07-11) is not two-player: a loop whose state never repeats is proposed and shortened
    outcome = cited(settle(JULY, """
        title = "Gain flying with a counter, Carol watching"
        players = ["Alice", "Bob", "Carol"]
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
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.counters") == 4
    assert "713.3" not in outcome.rules


# --- 713.4-713.6 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", BOTH)
def test_mandatory_loop_is_a_draw_citing_104_4b(key):
    # 713.4 (2009): a loop of only mandatory actions is a draw (see rule 104.4b); 713.5: nobody must use the Seal
    outcome = cited(settle(key, SEAL))
    assert outcome.result is Result.DRAW
    assert outcome.rules == ("713.5", "713.4", "104.4b")


@pytest.mark.parametrize("key", BOTH)
def test_unless_nobody_pays_is_a_draw(key):
    # 713.6 (2009): nobody can be forced to perform [B]; the loop continues as though [A] were mandatory
    outcome = cited(settle(key, UNLESS))
    assert outcome.result is Result.DRAW
    assert outcome.rules == ("713.6", "713.4", "104.4b")


# --- the same as CR 729 (2024) for two players, apart from the numbers ------------------------------


def _two_player_cases():
    files = [load(p) for p in sorted(ACCEPTANCE.glob("*.toml"))] if ACCEPTANCE.is_dir() else []
    files += [load_builtin(n) for n in names()]
    # A loop dated after 2009 (format 3, item 27) is n/a under the 2009 texts: it can't be compared with 2024.
    return [sf for sf in files if len(sf.scenario.players) == 2 and not (sf.scenario.exists_since > "2009-09-03")]


TWO_PLAYER = _two_player_cases()


def _renumbered(values):
    return json.loads(re.sub(r"\b729\.", "713.", json.dumps(values)))


@pytest.mark.parametrize("key", BOTH)
@pytest.mark.parametrize("sf", TWO_PLAYER, ids=[f"{sf.id}@{sf.file}" for sf in TWO_PLAYER])
def test_two_player_cases_agree_with_cr_2024_apart_from_rule_numbers(key, sf):
    # 713 (2009) and 729 (2024) are the same rule for two players: same outcome, same steps, 713 for 729
    old = registry().get(key).settle(sf.scenario).to_json()
    new = registry().get("cr-2024").settle(sf.scenario).to_json()
    for field in COMPARED_FIELDS:
        assert old[field] == new[field], field
    assert old["rules"] == _renumbered(new["rules"])
    assert old["transcript"] == _renumbered(new["transcript"])
    assert not [r for r in old["rules"] if r.startswith("729.")]


def test_two_player_cases_are_found():
    # Guards the parametrized comparison against running on nothing.
    assert len(TWO_PLAYER) >= 12

# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop ruled on under the 2018 Tournament Rules); both mean to go on forever.
ACTION_AND_CHOICE = scenario_text("action-and-choice")


@pytest.mark.parametrize("key", BOTH)
def test_a_choice_is_a_game_choice_so_its_maker_is_involved(key):
    # 713.2a "a sequence of game choices, for all players": Bob's choice makes him involved (713.3 applies)
    outcome = cited(settle(key, ACTION_AND_CHOICE))
    assert (outcome.result, outcome.deviates) == (Result.SHORTCUT, "Alice")
    assert "713.3" in outcome.rules
    noted(outcome, "game choices", "713.2a", "Bob is involved")
