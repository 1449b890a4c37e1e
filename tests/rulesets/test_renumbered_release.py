"""A shortcut rule's later numbers (rulesets/shortcuts.py ``renumbered``), pinned sentence by sentence.

The same rule has been 713, 720, 729, 730, 731 and 732 (history.SHORTCUT_RULE_NUMBERS).  A
release renumbered after the text applied cites the new number everywhere and says how it came
to be so: one step ("numbered 730 from 2025-04-04"), several ("... and 731 from 2025-07-25"),
or a number the list does not know yet (its own date).  README, "Mutation testing": each test
says which of these a changed operator broke.
"""

from __future__ import annotations

from loopcompare.rulesets import registry


def cr2024():
    return registry().get("cr-2024")


def test_the_same_number_is_the_same_ruleset():
    r = cr2024()
    assert r.renumbered(r.number, "2030-01-01") is r


def test_a_release_renumbered_once_names_its_one_step():
    r = cr2024().renumbered("730", "2025-04-04")
    assert r.renumbering == (
        "The rule 729 of 2024-06-07, numbered 730 from 2025-04-04; no text numbered 730 is archived: "
        "quoted from the text of 2024-06-07, under the new numbers."
    )


def test_a_release_renumbered_twice_names_both_steps_joined_by_and():
    r = cr2024().renumbered("731", "2025-07-25")
    assert "numbered 730 from 2025-04-04 and 731 from 2025-07-25;" in r.renumbering


def test_a_release_renumbered_three_times_lists_the_first_steps_with_commas():
    r = cr2024().renumbered("732", "2026-04-17")
    assert "numbered 730 from 2025-04-04, 731 from 2025-07-25 and 732 from 2026-04-17;" in r.renumbering


def test_a_number_the_list_does_not_know_is_dated_by_its_release():
    r = cr2024().renumbered("799", "2024-07-01")
    assert "numbered 799 from 2024-07-01;" in r.renumbering


def test_a_renumbered_release_cites_the_new_number_everywhere():
    r = cr2024().renumbered("730", "2025-04-04")
    assert r.number == "730" and r.loop_rule.startswith("730.")
    assert r.rule_ids and all(rule.startswith("730.") for rule in r.rule_ids)
    assert r.name == "CR 730 (2025-04-04)"
    assert "rule 730" in r.citation and "the same rule as 729 of 2024-06-07" in r.citation
    assert r.effective == "2024-06-07"  # no archived text of 730: the text applied is 2024's


def test_a_renumbered_release_with_an_archived_text_quotes_that_text():
    r = cr2024().renumbered("730", "2025-04-04", ("2025-04-04", "2025-04-04_cr_730.txt"))
    assert "quoted from the text of 2025-04-04." in r.renumbering
    assert r.effective == "2025-04-04" and r.name == "CR 730 (2025-04-04)"
