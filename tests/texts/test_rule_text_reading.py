"""How a rules document's provenance and special lines are read (rulesets/texts.py): the short
source line reports print, the Rules Summary's closing note, and a renumbered release's ids."""

from __future__ import annotations

from loopcompare.rulesets.texts import Document, parse


def source_line(*provenance: str) -> str:
    return Document("x.txt", provenance, ()).source_line()


def test_the_source_line_stops_at_its_first_parenthesised_remark():
    assert source_line("Source: GitHub owner/repo, path/cr.txt (fetched 2024-06-07; see notes)") == "GitHub owner/repo, path/cr.txt"
    # A remark right after a one-letter source is still cut off.
    assert source_line("Source: X (the only copy)") == "X"
    # With no remark the whole line stands, without trailing punctuation.
    assert source_line("Source: an archive of the Comprehensive Rules.") == "an archive of the Comprehensive Rules"


def test_the_source_line_is_read_from_the_source_header_wherever_it_is():
    assert source_line("Magic: The Gathering Comprehensive Rules", "Source: the archive (copied)") == "the archive"


def test_without_a_source_header_the_first_line_stands_in_and_without_any_header_nothing():
    assert source_line("Rules Summary, 1998 (scanned)", "another line") == "Rules Summary, 1998"
    assert source_line() == ""


def test_only_a_note_after_a_g21_rule_is_a_ruling_of_its_own():
    doc = parse("G.21.1 - A loop rule\nwrapped onto a second line.\nNote - Random loops are up to the judge.\n", "g21.txt")
    assert doc.ids() == ("G.21.1", "G.21.Note")
    assert doc.text("G.21.1") == "A loop rule wrapped onto a second line."
    # After any other rule a "Note - " line is part of that rule.
    doc = parse("421.1. A loop rule.\nNote - a remark.\n", "cr.txt")
    assert doc.ids() == ("421.1",)
    assert doc.text("421.1") == "A loop rule. Note - a remark."
    # And before any rule it is not a rule at all.
    assert parse("Note - a stray remark.\n", "cr.txt").ids() == ()


def test_a_renumbered_release_changes_the_rule_numbers_and_never_the_words():
    doc = parse("# Source: an archive\n729.1. First.\n729.2a Second.\n", "cr.txt").renumbered("732")
    assert doc.ids() == ("732.1", "732.2a")
    assert doc.text("732.2a") == "Second."
    assert doc.provenance == ("Source: an archive",)
    assert doc.filename == "cr.txt"


def test_wrapped_lines_and_notes_belong_to_the_rule_just_above_not_the_first():
    doc = parse("G.21.1 - First rule.\n421.1. Second rule,\nwrapped.\nNote - a remark.\n", "mixed.txt")
    assert doc.ids() == ("G.21.1", "421.1")
    assert doc.text("G.21.1") == "First rule."
    assert doc.text("421.1") == "Second rule, wrapped. Note - a remark."
    doc = parse("421.1. First rule.\nG.21.2 - Second rule\nwrapped.\nNote - random loops.\n", "mixed.txt")
    assert doc.ids() == ("421.1", "G.21.2", "G.21.Note")
    assert doc.text("G.21.2") == "Second rule wrapped."
