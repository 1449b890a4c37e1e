"""Magic Tournament Rules 4.4 "Loops", first text of 2018-07-13: the ``mtr-2018`` ruleset.

Each test is one small loop and pins one paragraph of MTR 4.4 as it stood in 2018 (or one reading
the project takes where the text is silent, which must then carry a note).  The 2018 text is the
current one without the paragraph "Some loops are sustained by choices rather than actions ...",
and it was read with the CR of its day, whose shortcut rule was 720.
"""

from __future__ import annotations

import re

import pytest
from helpers import ACCEPTANCE, citing, noted, scenario_text, settle

from loopcompare.comparator.library import load_builtin, names
from loopcompare.comparator.loader import load
from loopcompare.rulesets import COMPARED_FIELDS, Result, Ruleset, registry

KEY = "mtr-2018"
CURRENT = "mtr-current"

# The MTR cites itself as "MTR 4.4" and the CR rules it leaves in force as "CR 720.x" (CR of 2018-07-13).
CITATION = re.compile(r"(MTR 4\.4|CR 720\.[1-6][a-c]?|CR 104\.4b): ")  # 104.4b: the draw rule, inside one resolution (FORMAT item 11)
cited = citing(CITATION)


def quoted(outcome, words: str) -> bool:
    """Whether the outcome quotes a paragraph containing ``words``."""
    return any(words in text for _, text in outcome.quotes)


# Bob keeps a symmetrical trigger going by choosing a nonland card from his hand, and stops after 5.
CHOICE = """
    title = "A loop sustained by a choice"
    players = ["Alice", "Bob"]
    [state]
    bob_life = 20
    [[step]]
    by = "Bob"
    does = "chooses a card in his hand and picks a nonland card"
    optional = true
    choice = true
    {hidden}
    [[step]]
    by = "Alice"
    does = "her enchantment's trigger finishes resolving: Bob gains 1 life, which triggers it again"
    add = { bob_life = 1 }
    [intent]
    Bob = 5
"""

HIDDEN_CHOICE = CHOICE.replace("{hidden}", "hidden = true")
OPEN_CHOICE = CHOICE.replace("{hidden}", "")

UNLESS = scenario_text("unless")


# --- loops sustained by choices: the paragraph the 2018 text lacks, and the ruling made under it ---

# Alice keeps the loop going by an action on her turn, Bob by a choice on his (the Teferi / Nexus of
# Fate loop of the ruling, reduced to its bones); both mean to go on forever.
ACTION_AND_CHOICE = """
    title = "One player's action, another's choice, across turns"
    players = ["Alice", "Bob"]
    [[step]]
    by = "Alice"
    does = "activates Teferi's -3 targeting Teferi itself"
    optional = true
    [[step]]
    by = "Bob"
    does = "chooses Nexus of Fate as the card he discards to hand size"
    optional = true
    choice = true
    [loop]
    spans_turns = true
    [intent]
    Alice = "never"
    Bob = {bob}
"""


def test_the_declared_setting_a_choice_does_not_sustain_a_loop_in_2018_only():
    # MTR 4.4 (2018) vs current: the one reading that differs is declared on the class, not branched on
    rulesets = {r.key: r for r in registry().rulesets}
    assert Ruleset.choice_sustains is True
    assert rulesets[KEY].choice_sustains is False
    assert [k for k, r in rulesets.items() if not r.choice_sustains] == [KEY]


def test_a_player_who_only_chooses_is_not_involved_so_the_acting_player_must_stop():
    # MTR 4.4 (2018), "If one player is involved" + Marshall 2018-10-08: the chooser is not involved
    outcome = cited(settle(KEY, ACTION_AND_CHOICE.format(bob='"never"')))
    assert outcome.result is Result.SHORTCUT
    assert outcome.value("iterations") == "unbounded"
    assert outcome.deviates == "Alice"
    assert any("Alice (active player) is the one player involved" in line for line in outcome.transcript)
    note = noted(outcome, "Scott Marshall", "2018-10-08", "not a game action they're taking", "Bob is not involved")
    assert "an odd outcome" in note


def test_the_same_loop_is_a_draw_under_the_current_text():
    # MTR 4.4 (current): "Some loops are sustained by choices"; all continue indefinitely across turns: a draw
    outcome = settle(CURRENT, ACTION_AND_CHOICE.format(bob='"never"'))
    assert outcome.result is Result.DRAW
    assert quoted(outcome, "Some loops are sustained by choices rather than actions")
    assert not [n for n in outcome.notes if "Marshall" in n]


def test_the_chooser_may_still_take_their_way_out_where_their_intent_says():
    # MTR 4.4 (2018), "announce a lower number after which they intend to intervene": Bob chooses otherwise
    outcome = cited(settle(KEY, ACTION_AND_CHOICE.format(bob="3")))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (3, 1)
    assert outcome.deviates == "Bob"
    assert any("Bob announces a lower number" in line for line in outcome.transcript)


def test_a_chooser_who_also_acts_stays_involved_and_the_texts_agree():
    # MTR 4.4 (2018): only a player whose sole part is a choice is left out; actions still count
    both = ACTION_AND_CHOICE.format(bob='"never"') + """
    [[step]]
    by = "Bob"
    does = "activates his own Teferi's -3 targeting itself"
    optional = true
    """
    old, new = cited(settle(KEY, both)), settle(CURRENT, both)
    assert old.result is Result.DRAW
    for field in COMPARED_FIELDS:
        assert old.value(field) == new.value(field), field
    noted(old, "Scott Marshall", "Bob also takes actions in the loop and is involved through them")


def test_hidden_choice_2018_has_no_paragraph_on_choices_and_no_judge():
    # MTR 4.4 (2018) "If no players are involved": Bob's choice is his way out, taken after 5; no judge (noted)
    outcome = cited(settle(KEY, HIDDEN_CHOICE))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.deviates == "Bob"
    assert outcome.value("state.bob_life") == 25
    assert outcome.judge is False
    noted(outcome, "no paragraph on loops sustained by choices", "Bob is not involved")
    noted(outcome, "hidden information", "no judge")
    assert not quoted(outcome, "sustained by choices")
    assert any("break the loop (a different choice than" in line for line in outcome.transcript)


def test_a_loop_only_a_choice_sustains_is_a_draw_when_its_chooser_never_chooses_otherwise():
    # MTR 4.4 (2018) "If all players choose to take no action, the game is a draw"; current: Bob is involved
    never = OPEN_CHOICE.replace("Bob = 5", 'Bob = "never"')
    old, new = cited(settle(KEY, never)), settle(CURRENT, never)
    assert old.result is Result.DRAW
    assert any("no player is involved" in line for line in old.transcript)
    assert new.result is Result.SHORTCUT
    assert (new.value("iterations"), new.deviates) == ("unbounded", "Bob")


def test_hidden_choice_current_text_cites_the_choices_paragraph_and_sets_judge():
    # MTR 4.4 (current): "If the choice involves hidden information, a judge may be needed"
    outcome = settle(CURRENT, HIDDEN_CHOICE)
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (5, 0)
    assert outcome.judge is True
    assert quoted(outcome, "Some loops are sustained by choices rather than actions")
    assert any("hidden information" in line and "judge" in line for line in outcome.transcript)
    assert not [n for n in outcome.notes if "sustained by choices" in n]


def test_open_choice_2018_notes_the_ruling_current_cites_the_paragraph():
    # MTR 4.4: a choice with a number: the same cut, reached as a way out (2018) or as the one player involved
    old = cited(settle(KEY, OPEN_CHOICE))
    new = settle(CURRENT, OPEN_CHOICE)
    for field in COMPARED_FIELDS:
        assert old.value(field) == new.value(field), field
    assert old.judge is False and new.judge is False
    noted(old, "Scott Marshall")
    assert not quoted(old, "sustained by choices")
    assert quoted(new, "sustained by choices")
    assert any("sustained by Bob's choice" in line for line in new.transcript)


def test_hidden_choice_of_the_library_differs_only_in_judge():
    # MTR 4.4: the built-in hidden-choice scenario: 2018 and current agree on the cut, differ on judge
    sf = load_builtin("hidden-choice")
    old = registry().get(KEY).settle(sf.scenario)
    new = registry().get(CURRENT).settle(sf.scenario)
    differing = [f for f in COMPARED_FIELDS if old.value(f) != new.value(f)]
    assert differing == ["judge"]


def test_teferi_and_nexus_of_the_library_alice_must_stop_in_2018_a_draw_now():
    # MTR 4.4: the Teferi / Nexus of Fate ruling (2018-10-08): one of the outcome changes between the texts
    sf = load_builtin("teferi-nexus")
    old = cited(registry().get(KEY).settle(sf.scenario))
    new = registry().get(CURRENT).settle(sf.scenario)
    assert (old.result, old.deviates, old.value("iterations")) == (Result.SHORTCUT, "Alice", "unbounded")
    assert old.value("state.teferi_in_library") is False  # drawn and kept: her library is empty
    assert (new.result, new.deviates) == (Result.DRAW, None)
    noted(old, "Scott Marshall", "Bob is not involved")
    assert "Marshall" in sf.scenario.source and "Some loops are sustained by choices" in sf.scenario.source


# --- otherwise the same as the current text ----------------------------------------------------------

ACCEPTANCE_FILES = sorted(ACCEPTANCE.glob("*.toml")) if ACCEPTANCE.is_dir() else []


@pytest.mark.skipif(not ACCEPTANCE_FILES, reason="../shared/spec/acceptance is not beside this checkout")
@pytest.mark.parametrize("path", ACCEPTANCE_FILES, ids=[p.stem for p in ACCEPTANCE_FILES])
def test_acceptance_cases_give_what_is_expected_of_the_current_mtr(path):
    # MTR 4.4 (2018) = the current text on every acceptance case (none is sustained by a choice)
    sf = load(path)
    outcome = cited(registry().get(KEY).settle(sf.scenario))
    for field, want in sf.expect[CURRENT].items():
        if field == "state":
            for name, value in want.items():
                assert outcome.value(f"state.{name}") == value, (field, name)
        elif field != "rules":
            assert outcome.value(field) == want, field


CHOICELESS = [load_builtin(n) for n in names()]
# The choices paragraph also holds the hidden-information sentence ("If the choice involves hidden
# information, a judge may be needed"), which a hidden breaker sets under the current text only
# (FORMAT item 10): loops with one are left out too.
CHOICELESS = [sf for sf in CHOICELESS if not any(s.choice for s in sf.scenario.steps) and not any(b.hidden for b in sf.scenario.breakers)]


@pytest.mark.parametrize("sf", CHOICELESS, ids=[sf.id for sf in CHOICELESS])
def test_loops_without_choices_settle_as_under_the_current_text(sf):
    # MTR 4.4: the only change since 2018 is the choices paragraph: every other loop, the same outcome
    old = registry().get(KEY).settle(sf.scenario)
    new = registry().get(CURRENT).settle(sf.scenario)
    for field in COMPARED_FIELDS:
        assert old.value(field) == new.value(field), field
    cited(old)


# --- the CR it is read with: rule 720 of 2018 -------------------------------------------------------


def test_unless_effect_cites_cr_720_6():
    # CR 720.6 (2018-07-13), left in force by MTR 4.4 (CR 720.1c): nobody can be forced to pay: a draw
    outcome = cited(settle(KEY, UNLESS))
    assert outcome.result is Result.DRAW
    assert outcome.rules == ("CR 720.6", "MTR 4.4")
    assert not [r for r in outcome.rules if "729" in r]
    noted(outcome, "CR 720.6", "CR 720.1c")
    assert "no player can be forced to perform [B]" in dict(outcome.quotes)["CR 720.6"]


def test_current_text_cites_cr_729_6_for_the_same_loop():
    # CR 729.6 (2024-06-07) for the current MTR: the contrast with 720.6
    outcome = settle(CURRENT, UNLESS)
    assert outcome.result is Result.DRAW
    assert outcome.rules == ("CR 729.6", "MTR 4.4")


def test_unless_payer_may_still_break_the_loop():
    # MTR 4.4 "no players are involved": Bob chooses 3 iterations, then breaks it by paying (CR 720.6)
    outcome = cited(settle(KEY, UNLESS.replace('Bob = "never"', "Bob = 3")))
    assert outcome.result is Result.SHORTCUT
    assert (outcome.value("iterations"), outcome.steps) == (3, 0)
    assert outcome.deviates == "Bob"
    assert "CR 720.6" in outcome.rules


def test_today_names_the_cr_rule_of_2018_and_its_number_now():
    # The 2018 MTR overrode CR 720, which is rule 732 today (since 2026-04-17)
    text = registry().get(KEY).today()
    assert "720" in text
    assert "732" in text
    assert "731" not in text
