"""The loop rule's numbers between two dated points (rulesets/history.py ``numbering_on``): the
numbers the rule had in between, on days the sources don't give, are listed, none skipped."""

from __future__ import annotations

import pytest

from loopcompare.rulesets.history import numbering_on


@pytest.mark.parametrize(
    "date, between, next_dated",
    [
        # 713 (2009-07-11) and 720 (2018-07-13): 714 to 719 came in between (717 never existed).
        ("2009-08-01", ("714", "715", "716", "718", "719"), ("2018-07-13", "720")),
        # 720 and 729 (2024-06-07): the rule went back to 727 and 728 once on the way.
        ("2019-01-01", ("721", "722", "724", "725", "726", "727", "728", "727", "728"), ("2024-06-07", "729")),
        # 729 and 730 are consecutive: nothing in between.
        ("2024-12-01", (), ("2025-04-04", "730")),
    ],
)
def test_the_numbers_between_two_dated_ones_are_listed_in_order(date, between, next_dated):
    numbering = numbering_on(date)
    assert numbering.between == between
    assert numbering.next == next_dated
    assert numbering.certain is (between == ())


def test_before_the_first_comprehensive_rules_there_is_no_number_and_nothing_uncertain():
    numbering = numbering_on("1998-01-01")
    assert (numbering.number, numbering.since, numbering.certain, numbering.between) == ("", "", True, ())
    assert numbering.describe() == "On 1998-01-01 there was no Comprehensive Rules loop rule yet"


def test_the_numbers_in_words_give_each_dated_number_and_the_undated_ones_after_it():
    from loopcompare.rulesets.history import numbers_in_words

    assert numbers_in_words() == (
        "421 from 1999-04-23; "
        "713 from 2009-07-11 (then 714, 715, 716, 718, 719 on days the sources don't give); "
        "720 from 2018-07-13 (then 721, 722, 724, 725, 726, 727, 728, 727, 728 on days the sources don't give); "
        "729 from 2024-06-07; 730 from 2025-04-04; 731 from 2025-07-25; 732 from 2026-04-17. Today it is 732."
    )


def test_an_archived_text_counts_from_its_own_date():
    from loopcompare.rulesets.history import text_numbered

    assert text_numbered("732", "2026-04-17") == ("2026-04-17", "2026-04-17_cr_732.txt")
    assert text_numbered("732", "2026-04-16") is None
    assert text_numbered("729", "2030-01-01") == ("2024-06-07", "2024-06-07_cr_729.txt")
