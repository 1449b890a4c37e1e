"""The driver's shared vocabulary and bookkeeping (rulesets/base.py), pinned one behaviour at a
time: mutation testing showed these were checked only through whole transcripts, if at all."""

from __future__ import annotations

from loopcompare import builtin
from loopcompare.rulesets import registry
from loopcompare.rulesets.base import Settlement, be, listing

# The two-player flying loop (comparator/library/flying.toml).
FLYING = builtin("flying").scenario


def test_listing_names_one_two_and_three_items_as_english_does():
    assert listing(["Alice"]) == "Alice"
    assert listing(["Alice", "Bob"]) == "Alice and Bob"
    assert listing(iter(["Alice", "Bob", "Carol"])) == "Alice, Bob and Carol"


def test_be_agrees_with_the_number_of_items():
    assert be(["x"]) == "is"
    assert be(["x", "y"]) == "are"


def test_rollback_forgets_each_record_since_its_own_mark():
    ctx = Settlement(registry().get("cr-2024"), FLYING)
    ctx.say("729.2a", "kept", quote="729.2a")
    ctx.note("kept note")
    mark = ctx.mark()
    ctx.say("729.2b", "dropped", quote="729.2c")
    ctx.note("dropped note")
    ctx.rollback(mark)
    assert ctx.transcript == ["729.2a: kept"]
    assert ctx.rules == ["729.2a"]
    assert ctx.quotes == ["729.2a"]
    assert ctx.notes == ["kept note"]


def test_rollback_keeps_notes_recorded_before_the_mark_even_when_other_lists_differ_in_length():
    # Two quotes and one note before the mark: each list is cut at its own length.
    ctx = Settlement(registry().get("cr-2024"), FLYING)
    ctx.say("729.2a", "one", quote=["729.2a", "729.2b"])
    ctx.note("first")
    mark = ctx.mark()
    assert mark == (1, 1, 2, 1)
    ctx.note("second")
    ctx.rollback(mark)
    assert ctx.notes == ["first"]
    assert ctx.quotes == ["729.2a", "729.2b"]
