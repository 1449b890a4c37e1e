"""The driver's shared vocabulary and bookkeeping (rulesets/base.py), pinned one behaviour at a
time: mutation testing showed these were checked only through whole transcripts, if at all."""

from __future__ import annotations

from loopcompare import builtin
from loopcompare.rulesets import registry
from loopcompare.rulesets.base import Settlement, Stop, be, earliest, listing, times
from loopcompare.rulesets.scenario import UNBOUNDED, CutPoint
from loopcompare.rulesets.dynamics import Event
from loopcompare.rulesets.facts import facts_of

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


def test_rollback_cuts_each_list_at_its_own_length_when_all_four_differ():
    # Before the mark: 3 transcript lines, 2 rules, 4 quotes, 1 note, so a list cut at another
    # list's length keeps too much or too little.
    ctx = Settlement(registry().get("cr-2024"), FLYING)
    ctx.say("729.2a", "one", quote=["729.2a", "729.2b"])
    ctx.say("729.2a", "two", quote="729.2c")
    ctx.say("729.2b", "three", quote="729.2d")
    ctx.note("kept")
    mark = ctx.mark()
    assert mark == (3, 2, 4, 1)
    ctx.say("729.2e", "four", quote=["729.2e", "729.3"])
    ctx.say("729.2f", "five")
    ctx.note("dropped one")
    ctx.note("dropped two")
    ctx.rollback(mark)
    assert ctx.transcript == ["729.2a: one", "729.2a: two", "729.2b: three"]
    assert ctx.rules == ["729.2a", "729.2b"]
    assert ctx.quotes == ["729.2a", "729.2b", "729.2c", "729.2d"]
    assert ctx.notes == ["kept"]


def test_absorb_adds_only_the_rules_and_quotes_not_recorded_yet():
    ruleset = registry().get("cr-2024")
    ctx = Settlement(ruleset, FLYING)
    ctx.say("729.2a", "mine", quote=["729.2a", "729.2b"])
    ctx.note("shared note")
    other = Settlement(ruleset, FLYING)
    other.say("729.2a", "theirs", quote=["729.2b", "729.2c"])
    other.say("729.2d", "new rule")
    other.note("shared note")
    other.note("their note")
    ctx.absorb(other)
    assert ctx.transcript == ["729.2a: mine", "729.2a: theirs", "729.2d: new rule"]
    assert ctx.rules == ["729.2a", "729.2d"]
    assert ctx.quotes == ["729.2a", "729.2b", "729.2c", "729.2d"]
    assert ctx.notes == ["shared note", "their note"]


def test_absorb_keeps_a_judge_called_by_either_settlement():
    ruleset = registry().get("mtr-current")
    for mine, theirs in ((True, False), (False, True), (True, True), (False, False)):
        ctx, other = Settlement(ruleset, FLYING), Settlement(ruleset, FLYING)
        ctx.judge, other.judge = mine, theirs
        ctx.absorb(other)
        assert ctx.judge is (mine or theirs)


def _stop(kind: str, *, application: int = 0, times: int = 1) -> Event:
    return Event(kind, position=4, effect="Alice's life reaches 0", player="Alice", step=1,
                 application=application, times=times)


def test_the_end_of_a_run_is_worded_by_its_kind():
    ctx = Settlement(registry().get("cr-2024"), FLYING)
    assert ctx.stop_words(_stop("draw")) == "every player left loses at the same time, so the game is a draw (CR 104.4a)"
    assert ctx.stop_words(_stop("nosteps")) == "Alice's life reaches 0; no step of the loop is left"
    assert ctx.stop_words(_stop("end")) == "Alice's life reaches 0"


def test_an_end_inside_a_repeated_step_names_its_application_counting_from_one():
    ctx = Settlement(registry().get("cr-2024"), FLYING)
    assert ctx.stop_words(_stop("end", application=0, times=2)) == "Alice's life reaches 0 (application 1 of 2)"
    assert ctx.stop_words(_stop("end", application=2, times=3)) == "Alice's life reaches 0 (application 3 of 3)"
    # A step applied once has no application to name.
    assert ctx.stop_words(_stop("end", application=0, times=1)) == "Alice's life reaches 0"


def test_times_says_once_for_one_and_counts_any_other_number():
    assert times(1) == "once"
    assert times(0) == "0 times"
    assert times(2) == "2 times"
    assert times(1_000_000) == "1,000,000 times"
    assert times(UNBOUNDED) == "an unbounded number of times"


def test_earliest_breaks_a_tie_at_one_point_by_the_order_given_not_the_order_listed():
    facts = facts_of(FLYING)
    point = CutPoint(2, 0)
    bob, alice = Stop("Bob", point), Stop("Alice", point)
    first, ties = earliest([bob, alice], facts, ["Alice", "Bob"])
    assert (first, ties) == (alice, [bob])
    first, ties = earliest([alice, bob], facts, ["Bob", "Alice"])
    assert (first, ties) == (bob, [alice])


def test_earliest_puts_a_finite_point_before_any_unbounded_one_and_ranks_the_unbounded():
    facts = facts_of(FLYING)
    late = Stop("Alice", CutPoint(UNBOUNDED, 0), rank=0)
    later = Stop("Bob", CutPoint(UNBOUNDED, 0), rank=1)
    soon = Stop("Bob", CutPoint(10**6, 0))
    assert earliest([later, late, soon], facts, ["Alice", "Bob"]) == (soon, [])
    # Among unbounded points the earlier namer (lower rank) comes first, whatever the turn order.
    assert earliest([later, late], facts, ["Bob", "Alice"]) == (late, [])
