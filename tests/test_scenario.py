"""The loop-description interface's derived facts, each computed in closed form."""

from __future__ import annotations

from loopcompare.rulesets import UNBOUNDED, CutPoint

from conftest import scenario

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
    return scenario(toml).scenario.facts


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


def test_choosers_are_the_involved_players_with_a_choice_only_choosers_take_no_action():
    # DOMAIN.md section 6: who keeps the loop going by a choice, and who by nothing but choices
    toml = TOGGLE.replace('does = "loses flying"\noptional = true', 'does = "loses flying"\noptional = true\nchoice = true')
    facts = scenario(toml).scenario.facts
    assert (facts.choosers, facts.only_choosers) == (("Bob",), ("Bob",))
    assert facts.choice_points("Bob") == (1,) and facts.choice_points("Alice") == ()
    acting = toml + '[[step]]\nby = "Bob"\ndoes = "pays 1 life"\noptional = true\n'
    facts = scenario(acting).scenario.facts
    assert (facts.choosers, facts.only_choosers) == (("Bob",), ())
    assert scenario(TOGGLE).scenario.facts.choosers == ()
