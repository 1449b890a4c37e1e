"""The loop-description interface's derived facts, each computed in closed form."""

from __future__ import annotations

import pytest

from loopcompare.rulesets import UNBOUNDED, CutPoint
from loopcompare.rulesets.scenario import higher

from helpers import scenario
from loopcompare.rulesets.facts import facts_of

TOGGLE = """
title = "toggle"
players = ["Alice", "Bob"]
[state]
flying = false
tokens = 0
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
"""

DRAIN = """
title = "drain"
players = ["Alice", "Bob"]
[state]
life = 7
[[step]]
by = "Alice"
does = "drains 2"
add = { life = -2 }
[[step]]
by = "Alice"
does = "retriggers"
[loop]
ends_when = { value = "life", at_most = 0 }
"""


def facts(toml):
    return facts_of(scenario(toml).scenario)


def test_state_at_a_cut_is_arithmetic_even_for_a_googol_of_iterations():
    f = facts(DRAIN.replace("[loop]\nends_when = { value = \"life\", at_most = 0 }\n", ""))
    assert f.value_at("life", CutPoint(10**100, 1)) == 7 - 2 * (10**100 + 1)
    assert f.value_at("life", CutPoint(UNBOUNDED, 0)) is UNBOUNDED


def test_toggled_booleans_take_the_last_assignment_before_the_cut():
    f = facts(TOGGLE)
    assert f.state_at(CutPoint(0, 0)) == {"flying": False, "tokens": 0}
    assert f.state_at(CutPoint(5, 1)) == {"flying": True, "tokens": 0}
    assert f.state_at(CutPoint(UNBOUNDED, 0)) == {"flying": False, "tokens": 0}


def test_a_toggling_loop_repeats_its_state_after_one_iteration():
    assert facts(TOGGLE).first_repeat == CutPoint(1, 0)


def test_a_growing_integer_means_the_state_never_repeats():
    grow = TOGGLE.replace('set = { flying = false }', 'set = { flying = false }\nadd = { tokens = 1 }')
    assert facts(grow).first_repeat is None


def test_an_assignment_that_first_changes_the_state_repeats_one_iteration_later():
    # flying starts true: (0,0) true, (1,0) false, (2,0) false again.
    assert facts(TOGGLE.replace("flying = false\ntokens", "flying = true\ntokens")).first_repeat == CutPoint(1, 1)


def test_a_loop_ends_right_after_the_step_that_reaches_the_bound():
    # 7 - 2 * 4 = -1 after the first step of the fourth iteration.
    assert facts(DRAIN).end == CutPoint(3, 1)


def test_a_bound_moving_away_is_never_reached():
    assert facts(DRAIN.replace("at_most = 0", "at_least = 100")).end is None


def test_a_bound_that_already_holds_ends_the_loop_at_once():
    assert facts(DRAIN.replace("life = 7", "life = 0")).end == CutPoint(0, 0)


def test_deviation_point_is_the_players_first_optional_step_of_the_next_iteration():
    f = facts(TOGGLE + '\n[intent]\nBob = 3\nAlice = { after = 2, step = 1 }\n')
    assert f.deviation_point("Bob") == CutPoint(3, 1)
    assert f.deviation_point("Alice") == CutPoint(2, 1)


def test_a_player_without_an_optional_step_deviates_at_the_start_of_the_next_iteration():
    f = facts(DRAIN + '\n[intent]\nBob = 2\n')
    assert f.deviation_point("Bob") == CutPoint(2, 0)


def test_independent_sets_run_their_own_number_of_times():
    f = facts(TOGGLE.replace('set = { flying = false }', 'add = { tokens = 1 }'))
    state = f.state_with_counts({"Alice": 10, "Bob": 3})
    assert state == {"flying": True, "tokens": 3}
    assert f.state_with_counts({"Alice": 1, "Bob": UNBOUNDED})["tokens"] is UNBOUNDED


def test_turn_order_starts_from_the_active_player():
    f = facts(TOGGLE.replace('players = ["Alice", "Bob"]', 'players = ["Alice", "Bob", "Carol"]\nactive = "Bob"'))
    assert f.turn_order == ("Bob", "Carol", "Alice")
    assert f.players_after("Carol") == ("Alice", "Bob")


THREE_SETS = """
title = "three sets, only Bob's lowers x"
players = ["Alice", "Bob", "Carol"]
[state]
x = 3
[loop]
independent = true
ends_when = { value = "x", at_most = 0 }
[[step]]
by = "Alice"
does = "makes a token"
optional = true
[[step]]
by = "Carol"
does = "gains 1 life"
optional = true
[[step]]
by = "Bob"
does = "drains 1"
optional = true
add = { x = -1 }
[[step]]
by = "Bob"
does = "his trigger draws a card"
"""


def test_independent_sets_cut_by_ends_when_count_each_players_own_actions():
    # Side by side: Alice, Carol, Bob (x 2); Alice has stopped: Carol, Bob (x 1); Carol, Bob (x 0),
    # the end, before Bob's trigger.  A running set counts the iteration once its player's first
    # choice point has had its turn: Carol 3, Bob 3; Alice keeps her 1.
    facts = facts_of(scenario(THREE_SETS).scenario)
    reached, state = facts.end_with_counts({"Alice": 1, "Bob": UNBOUNDED, "Carol": UNBOUNDED})
    assert reached == {"Alice": 1, "Bob": 3, "Carol": 3}
    assert state == {"x": 0}


def test_independent_sets_cut_by_ends_when_before_a_players_action_do_not_count_it():
    # Carol's action comes after Bob's: in the iteration where Bob reaches the bound, hers never came.
    reordered = """
title = "Bob before Carol"
players = ["Alice", "Bob", "Carol"]
[state]
x = 3
[loop]
independent = true
ends_when = { value = "x", at_most = 0 }
[[step]]
by = "Alice"
does = "makes a token"
optional = true
[[step]]
by = "Bob"
does = "drains 1"
optional = true
add = { x = -1 }
[[step]]
by = "Carol"
does = "gains 1 life"
optional = true
"""
    facts = facts_of(scenario(reordered).scenario)
    reached, state = facts.end_with_counts({"Alice": 1, "Bob": UNBOUNDED, "Carol": UNBOUNDED})
    assert reached == {"Alice": 1, "Bob": 3, "Carol": 2}
    assert state == {"x": 0}


def test_independent_sets_that_never_reach_the_bound_give_no_end():
    facts = facts_of(scenario(THREE_SETS.replace("x = 3", "x = 30")).scenario)
    assert facts.end_with_counts({"Alice": 1, "Bob": 5, "Carol": UNBOUNDED}) is None


def test_an_intent_describes_itself_in_plain_words():
    from loopcompare.rulesets.scenario import Intent

    assert Intent().describe() == "never"
    assert Intent(1).describe() == "after 1 iteration"
    assert Intent(3_000).describe() == "after 3,000 iterations"
    assert Intent(1, 0).describe() == "after 1 iteration, before step 1 of the next"


def test_a_cut_point_without_steps_is_at_the_end_of_its_iterations():
    assert CutPoint(3) == CutPoint(3, 0)
    assert CutPoint(3).describe() == "after 3 iterations"
    assert CutPoint(1, 2).describe() == "after 1 iteration and 2 steps"
    assert CutPoint(UNBOUNDED, 1).describe() == "after an unbounded number of iterations and 1 step"


def test_the_parts_of_a_scenario_are_immutable_values():
    # Frozen dataclasses: hashable, so outcomes and facts can be cached and compared safely.
    from dataclasses import FrozenInstanceError

    from loopcompare.rulesets.scenario import Breaker, EndsWhen, Intent, LoopFlags, Step, Unless

    for part in (Unless("Bob", "pays {1}"), Step("Alice", "acts"), EndsWhen("x", 0, True), LoopFlags(), Breaker("Bob", "breaks"), Intent(1), CutPoint(1)):
        with pytest.raises(FrozenInstanceError):
            part.__setattr__(next(iter(vars(part))), None)
    assert len({Unless("Bob", "pays {1}"), Unless("Bob", "pays {1}")}) == 1


def test_choosers_are_the_involved_players_with_a_choice_only_choosers_take_no_action():
    # DOMAIN.md section 6: who keeps the loop going by a choice, and who by nothing but choices
    toml = TOGGLE.replace('does = "loses flying"\noptional = true', 'does = "loses flying"\noptional = true\nchoice = true')
    facts = facts_of(scenario(toml).scenario)
    assert (facts.choosers, facts.only_choosers) == (("Bob",), ("Bob",))
    assert facts.choice_points("Bob") == (1,) and facts.choice_points("Alice") == ()
    acting = toml + '[[step]]\nby = "Bob"\ndoes = "pays 1 life"\noptional = true\n'
    facts = facts_of(scenario(acting).scenario)
    assert (facts.choosers, facts.only_choosers) == (("Bob",), ())
    assert facts_of(scenario(TOGGLE).scenario).choosers == ()


# --- which cut point comes first: the queries every ruleset asks instead of comparing positions ---


def test_an_unbounded_point_comes_after_every_finite_one_and_two_unbounded_points_tie():
    f = facts(TOGGLE)  # two steps an iteration
    far = CutPoint(10**100, 1)
    never = CutPoint(UNBOUNDED, 0)
    assert f.before(CutPoint(1, 1), CutPoint(2, 0)) and not f.before(CutPoint(2, 0), CutPoint(1, 1))
    assert f.before(far, never) and not f.before(never, far)
    assert not f.before(never, CutPoint(UNBOUNDED, 1)) and not f.before(CutPoint(UNBOUNDED, 1), never)
    assert not f.before(CutPoint(3, 1), CutPoint(3, 1))
    assert f.at_or_before(CutPoint(3, 1), CutPoint(3, 1)) and f.at_or_before(far, never)
    assert not f.at_or_before(never, far) and f.at_or_before(never, CutPoint(UNBOUNDED, 1))


def test_the_first_point_is_the_earliest_and_none_of_nothing():
    f = facts(TOGGLE)
    assert f.first_point([CutPoint(UNBOUNDED, 0), CutPoint(4, 1), CutPoint(5, 0), CutPoint(4, 0)]) == CutPoint(4, 0)
    assert f.first_point([]) is None


def test_same_iteration_compares_finite_iteration_counts_only():
    f = facts(TOGGLE)
    assert f.same_iteration(CutPoint(3, 0), CutPoint(3, 1))
    assert not f.same_iteration(CutPoint(3, 1), CutPoint(4, 0))
    assert not f.same_iteration(CutPoint(UNBOUNDED, 0), CutPoint(UNBOUNDED, 0))


def test_the_next_point_at_a_step_wraps_into_the_next_iteration():
    f = facts(TOGGLE)
    assert f.next_point(CutPoint(2, 1), [1]) == CutPoint(2, 1)
    assert f.next_point(CutPoint(2, 1), [0]) == CutPoint(3, 0)
    assert f.next_point(CutPoint(10**100, 0), [1]) == CutPoint(10**100, 1)
    assert f.next_point(CutPoint(2, 1), []) is None


def test_points_run_one_step_apart_and_steps_before_stop_at_the_loop_start():
    f = facts(TOGGLE)
    assert list(f.points_from(CutPoint(1, 1), 3)) == [CutPoint(1, 1), CutPoint(2, 0), CutPoint(2, 1)]
    assert f.steps_before(CutPoint(5, 0)) == (1, 0)
    assert f.steps_before(CutPoint(0, 1)) == (0,)
    assert f.steps_before(CutPoint(0, 0)) == ()


def test_unbounded_is_higher_than_any_number_and_not_than_itself():
    assert higher(UNBOUNDED, 10**100) and not higher(10**100, UNBOUNDED)
    assert not higher(UNBOUNDED, UNBOUNDED)
    assert higher(3, 2) and not higher(2, 2) and not higher(2, 3)
