"""The loop rule's numbers (rulesets/history.py ``RULE_NUMBERS``): every number from 421 (1999) to
732 (2026) dated by the first archived release that has it (../shared/sources/rule-numbers.md),
and, should a dated number ever skip one, the numbers in between listed, not guessed."""

from __future__ import annotations

import re

import pytest

from loopcompare.rulesets import numbers
from loopcompare.rulesets.history import RULE_NUMBERS, numbering_on, numbers_in_words

from helpers import SHARED

RULE_NUMBERS_MD = SHARED / "sources" / "rule-numbers.md"


def test_every_number_is_dated_so_no_day_is_uncertain():
    # each number, with the day it came and what moved it; between two of them nothing is undated
    for entry in RULE_NUMBERS:
        numbering = numbering_on(entry.since)
        assert (numbering.number, numbering.since, numbering.certain, numbering.between) == (entry.number, entry.since, True, ())
        assert entry.cause
    assert [e.number for e in RULE_NUMBERS] == [
        "421", "713", "714", "715", "716", "718", "719", "720", "721", "722", "724", "725", "726",
        "727", "728", "727", "728", "729", "730", "731", "732",
    ]
    assert [e.since for e in RULE_NUMBERS] == sorted(e.since for e in RULE_NUMBERS)


@pytest.mark.skipif(not RULE_NUMBERS_MD.is_file(), reason="../shared/sources is not beside this checkout")
def test_the_numbers_are_those_of_rule_numbers_md():
    # the table of ../shared/sources/rule-numbers.md, row by row: number and first archived release
    rows = re.findall(r"^\| (\d{3})\b[^|]*\| (\d{4}-\d{2}-\d{2})", RULE_NUMBERS_MD.read_text(encoding="utf-8"), re.M)
    assert rows == [(e.number, e.since) for e in RULE_NUMBERS]


def test_a_gap_in_the_dates_would_be_listed_not_guessed(monkeypatch):
    # were 714 .. 719 undated (as before rule-numbers.md), the day between says so
    dated = (("1999-04-23", "421"), ("2009-07-11", "713"), ("2018-04-27", "720"))
    monkeypatch.setattr(numbers, "SHORTCUT_RULE_NUMBERS", dated)
    monkeypatch.setattr(numbers, "SHORTCUT_RULE_SEQUENCE", ("713", "714", "715", "716", "718", "719", "720"))
    numbering = numbering_on("2012-01-01")
    assert (numbering.number, numbering.certain, numbering.next) == ("713", False, ("2018-04-27", "720"))
    assert numbering.between == ("714", "715", "716", "718", "719")
    assert "on days the sources don't give" in numbering.describe()


def test_before_the_first_comprehensive_rules_there_is_no_number_and_nothing_uncertain():
    numbering = numbering_on("1998-01-01")
    assert (numbering.number, numbering.since, numbering.certain, numbering.between) == ("", "", True, ())
    assert numbering.describe() == "On 1998-01-01 there was no Comprehensive Rules loop rule yet"


def test_the_numbers_in_words_give_every_number_with_its_date():
    words = numbers_in_words()
    assert words.startswith("421 from 1999-04-23; 713 from 2009-07-11; 714 from 2010-04-23; ")
    assert "720 from 2018-04-27; " in words and "729 from 2024-03-08; " in words
    assert "727 from 2023-04-14; 728 from 2024-02-06; " in words
    assert words.endswith("732 from 2026-04-17. Today it is 732.")
    assert "don't give" not in words


def test_an_archived_text_counts_from_its_own_date():
    from loopcompare.rulesets.history import text_numbered

    assert text_numbered("732", "2026-04-17") == ("2026-04-17", "2026-04-17_cr_732.txt")
    assert text_numbered("732", "2026-04-16") is None
    assert text_numbered("729", "2030-01-01") == ("2024-06-07", "2024-06-07_cr_729.txt")
