"""A review of the places where a player who has left the game (FORMAT item 6: "When a player
leaves, their steps drop out") could still be treated as present, or a present player as gone.

Each test names the FORMAT item or rule that makes its expected value right.  The lead's first
two fixes of this kind (``last_action``, a leaver's set count) are pinned in
tests/engine/test_players_who_left.py; these are the others the review found.
"""

from __future__ import annotations

import pytest

from helpers import scenario
from loopcompare.rulesets import registry

# --- 421.3's last word when the other involved player has left ------------------------------------

LAST_WORD = """
format = 2
title = "Alice and Bob each keep the loop going; Bob pays life for his part until he loses"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 20, Bob = 3, Carol = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's first optional action"
optional = true
add = {n = 1}

[[step]]
by = "Bob"
does = "Bob pays 1 life"
optional = true
add = {life = -1}
target = {among = ["Bob"], order = "fixed"}

[[step]]
by = "Alice"
does = "Alice's second optional action"
optional = true

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = 10
Bob = "never"
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_a_player_who_left_has_no_last_word(key):
    """421.3 (2005, 2008; "extended to all applicable players"): Alice names 10, Bob agrees, so
    the loop runs 10 times "plus whatever fraction is necessary for the second player to have the
    last word".  Bob leaves after his third payment (2, 2): from then on his steps drop out
    (FORMAT item 6), so no fraction can give him the last word.  Stopping at (10, 2), after
    Bob's step on paper, had Alice take her first optional action an 11th time (n = 11) for a
    last word nobody spoke, and the transcript said "Alice has acted last and Alice, next to act,
    does something different".  The fraction is zero: Alice stops at her own point (10, 0)."""
    outcome = registry().get(key).settle(scenario(LAST_WORD).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Bob", 2, 2)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (10, 0, "Alice")
    assert outcome.state["n"] == 10
    assert not any("Alice has acted last and Alice" in line for line in outcome.transcript)
    assert any("no fraction can give them the last word" in n for n in outcome.notes)


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_before_the_other_player_leaves_the_last_word_is_theirs(key):
    """The same loop, Alice naming 1: Bob is still in the game after one iteration, so the
    fraction gives him the last word, as before: Alice stops after his step, at (1, 2)."""
    outcome = registry().get(key).settle(scenario(LAST_WORD.replace("Alice = 10", "Alice = 1")).scenario)
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (1, 2, "Alice")
    assert outcome.last_action == "Bob"
    assert outcome.eliminated == ()


# --- a leaver's set in the MTR's per-player counts -------------------------------------------------

SETS = """
format = 2
title = "Three independent drains; Bob is drained out after 6 iterations"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 37, Bob = 10, Carol = 25}

[[step]]
by = "Alice"
does = "acts"
optional = true

[[step]]
by = "Alice"
does = "drains"
add = {life = -1}
target = {among = ["Bob", "Carol"], order = "rotate"}

[[step]]
by = "Bob"
does = "acts"
optional = true

[[step]]
by = "Bob"
does = "drains"
add = {life = -1}
target = {among = ["Alice", "Carol"], order = "rotate"}

[[step]]
by = "Carol"
does = "acts"
optional = true

[[step]]
by = "Carol"
does = "drains"
add = {life = -1}
target = {among = ["Alice", "Bob"], order = "each"}

[loop]
independent = true

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = "never"
Bob = BOB
Carol = 12
"""


@pytest.mark.parametrize("key", ["mtr-2018", "mtr-current"])
@pytest.mark.parametrize("bob", [8, 56])
def test_a_leavers_set_is_counted_whoever_then_has_the_lowest_number(key, bob):
    """FORMAT item 6 and the outcome's ``iterations`` as ``{player: count}`` (one entry per set,
    tests/engine/test_players_who_left.py): Bob's set ran 6 iterations before he left.  With
    Bob's number 8 his own point comes after he has left, so the procedure is applied again
    among Alice and Carol (docs/READINGS.md) and Carol's 12 cuts, exactly as with Bob's 56.  The
    play is the same, so the counts are: Bob's set was left out of them with 8."""
    outcome = registry().get(key).settle(scenario(SETS.replace("BOB", str(bob))).scenario)
    assert outcome.iterations == {"Alice": 13, "Bob": 6, "Carol": 12}
    assert (outcome.steps, outcome.deviates) == (4, "Carol")


# --- a hidden choice of a player who has left (MTR current's judge) --------------------------------

HIDDEN = """
format = 2
title = "Bob's hidden optional payment; he pays until he loses"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 20, Bob = BOB, Carol = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's optional trigger"
optional = true
add = {n = 1}

[[step]]
by = "Bob"
does = "Bob may pay 1 life (his choice is hidden)"
optional = true
hidden = true
add = {life = -1}
target = {among = ["Bob"], order = "fixed"}

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = 10
Bob = "never"
"""


def test_a_hidden_choice_of_a_player_who_left_calls_for_no_judge():
    """FORMAT item 10 (a hidden sustaining choice sets ``judge`` under mtr-current) with item 6
    (a leaver's steps drop out): Bob's hidden step is gone with him at (3, 0), before Alice's cut
    at (10, 0), as a leaver's hidden breaker is (tests/library/test_real_loop_audit.py), so no
    judge is needed to learn whether he has a choice that won't continue the loop."""
    mtr = registry().get("mtr-current")
    gone = mtr.settle(scenario(HIDDEN.replace("BOB", "3")).scenario)
    assert [(e.player, e.iterations, e.steps) for e in gone.eliminated] == [("Bob", 3, 0)]
    assert gone.judge is False
    assert not any("Bob's choice involves hidden information" in line for line in gone.transcript)
    # While Bob is still in the game at the cut, his hidden choice does call for a judge.
    assert mtr.settle(scenario(HIDDEN.replace("BOB", "30")).scenario).judge is True


# --- steps that still resolve after the cut (FORMAT item 24) ---------------------------------------

AFTER_CUT = """
format = 3
title = "Bob responds after 5 iterations; Carol, whose step is the loop's second, left long before"
players = ["Alice", "Bob", "Carol", "Dave"]

[state]
life = {Alice = 20, Bob = 20, Carol = 2, Dave = 20}
n = 0
m = 0

[[step]]
by = "Alice"
does = "Alice's optional trigger"
optional = true
add = {n = 1}

[[step]]
by = "Carol"
does = "Carol pays 1 life"
add = {life = -1, m = 1}
target = {among = ["Carol"], order = "fixed"}

[[step]]
by = "Alice"
does = "Alice's last trigger"
add = {n = 10}

[[breaker]]
by = "Bob"
does = "Bob responds"
still_resolves = 3

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = "never"
Bob = 5
"""


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current"])
def test_a_leavers_step_is_not_said_to_resolve_after_the_cut(key):
    """FORMAT item 24 with item 6: the three steps after Bob's response are performed as in the
    loop, and Carol's dropped out when she left at (1, 2); the state shows it (m stays 2, n gains
    1 + 10).  The transcript named "Carol pays 1 life" among the steps that still resolve; it is
    said to drop out instead.  ``after_cut`` counts the positions passed (3), as the engine's
    AfterCut documents (FORMAT item 4: steps that dropped out keep their positions)."""
    outcome = registry().get(key).settle(scenario(AFTER_CUT).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Carol", 1, 2)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (5, 0, "Bob")
    assert outcome.state["m"] == 2 and outcome.state["n"] == 5 * 11 + 11
    line = next(t for t in outcome.transcript if "still resolve" in t)
    listed = line.split("after the cut: ", 1)[1].split(";")[0]  # the steps said to resolve
    assert "Alice's optional trigger" in listed and "Alice's last trigger" in listed
    assert "Carol pays 1 life" not in listed
    assert "“Carol pays 1 life” drops out, Carol having left the game" in line


# --- the departure of a player who pays an "unless" that no player maintains ------------------------

UNLESS = """
format = 2
title = "Bob would pay to stop Carol's trigger after 5 iterations; it kills him after 3"
players = ["Alice", "Bob", "Carol"]

[state]
life = {Alice = 20, Bob = 3, Carol = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's mandatory trigger"
add = {n = 1}

[[step]]
by = "Carol"
does = "Carol's trigger deals 1 damage to Bob unless Bob pays"
add = {life = -1}
target = {among = ["Bob", "Alice"], order = "fixed"}
unless = {by = "Bob", does = "pays 1"}

[[step]]
by = "Carol"
does = "Carol's other trigger"

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true
except = ["Alice"]

[intent]
Bob = 5
"""


@pytest.mark.parametrize("key", ["cr-2009", "cr-2024", "mtr-current"])
def test_a_payer_who_left_leaves_a_mandatory_loop_and_no_involved_player(key):
    """Bob, who alone could end the loop (729.6, the MTR's "unless"), leaves at (2, 2), before
    he pays at (5, 1); nobody maintains the loop (a payer is not involved under these texts), so
    the rest is a draw (FORMAT items 6 and 19).  The note said "while other players involved
    remain": there are none.  And the era's sentence on "unless" costs was said twice more, once
    by asking who is involved again after the departure."""
    outcome = registry().get(key).settle(scenario(UNLESS).scenario)
    assert outcome.result.value == "draw"
    assert (outcome.iterations, outcome.steps) == (2, 2)
    assert not any("other players involved remain" in n for n in outcome.notes)
    assert any("the loop, which no player maintains, goes on" in n for n in outcome.notes)
    said = [t for t in outcome.transcript if "no player can be forced to perform" in t or "nobody has to pay" in t]
    # once by the procedure, once by the procedure applied again among the players left
    assert len(said) <= 2


# --- moved points (FORMAT item 23) read the step performed last, not a leaver's ------------------

MOVED = """
format = 3
title = "Bob's Bolt, written right after a step of Carol's; Carol left long before"
players = ["Alice", "Bob", "Carol", "Dave"]

[state]
life = {Alice = 20, Bob = 20, Carol = 2, Dave = 20}
n = 0

[[step]]
by = "Alice"
does = "Alice's optional trigger"
optional = true
add = {n = 1}
STEPS
[[step]]
by = "Alice"
does = "Alice's last trigger"
add = {n = 10}

[[breaker]]
by = "Bob"
does = "Bob's Bolt"

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = "never"
Bob = { after = 5, step = AT }
"""

CAROLS_MANA = """
[[step]]
by = "Carol"
does = "Carol's mana ability: she pays 1 life"
priority = false
add = {life = -1}
target = {among = ["Carol"], order = "fixed"}
"""

DAVES_MANA_THEN_CAROL = """
[[step]]
by = "Dave"
does = "Dave's mana ability"
priority = false

[[step]]
by = "Carol"
does = "Carol's trigger: she pays 1 life"
add = {life = -1}
target = {among = ["Carol"], order = "fixed"}
"""


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current", "cr-2008"])
def test_a_point_after_a_leavers_priority_free_step_does_not_move(key):
    """FORMAT item 23: "A point is right after a step when that step is the last one performed
    before it."  Carol's mana ability (priority = false) is step 1; she leaves at (1, 2), so at
    Bob's written point (5, 2) the last step performed is Alice's optional trigger, after which
    players receive priority: Bob acts there.  The point was moved to (6, 0), past a step that
    was not performed, as if Carol were still there."""
    toml = MOVED.replace("STEPS", CAROLS_MANA).replace("AT", "2")
    outcome = registry().get(key).settle(scenario(toml).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Carol", 1, 2)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (5, 2, "Bob")
    assert outcome.state["n"] == 5 * 11 + 1
    # While Carol is still in the game, the same point does move (her mana ability is performed).
    early = registry().get(key).settle(scenario(toml.replace("after = 5", "after = 0")).scenario)
    assert (early.iterations, early.steps) == (1, 0)


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current"])
def test_a_point_after_a_leavers_step_follows_the_priority_free_step_before_it(key):
    """FORMAT item 23 the other way round: Bob's point (5, 3) is written right after Carol's
    trigger (a step with priority), but Carol left at (1, 3); the step performed last before it is
    Dave's mana ability (priority = false), after which only Dave can act.  So Bob's point moves
    to right after Alice's last trigger, (6, 0), and the transcript names Dave's mana ability as
    the step it came right after.  It stood at (5, 3), with ``last_action`` Dave."""
    toml = MOVED.replace("STEPS", DAVES_MANA_THEN_CAROL).replace("AT", "3")
    outcome = registry().get(key).settle(scenario(toml).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Carol", 1, 3)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (6, 0, "Bob")
    assert outcome.last_action == "Alice"
    assert any("comes right after “Dave's mana ability”" in line for line in outcome.transcript)


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current", "cr-2008"])
def test_a_leavers_own_point_does_not_halt_the_steps_after_the_cut(key):
    """FORMAT item 24: the steps after the cut stop where "its controller's own point falls".
    Carol's optional step is the second; her intent puts her point at (5, 1), but she loses at
    (2, 2) and has no point after that (item 6).  Bob's response at (5, 0) leaves three steps on
    the stack: Alice's two are performed (n gains 1 + 10), Carol's drops out.  Her point halted
    them at (5, 1), so Alice's last trigger was lost (n 56, after_cut 1)."""
    toml = (
        AFTER_CUT.replace('does = "Carol pays 1 life"', 'does = "Carol may pay 1 life"\noptional = true')
        .replace("Carol = 2,", "Carol = 3,")
        .replace("Bob = 5\n", "Bob = 5\nCarol = { after = 5, step = 1 }\n")
    )
    outcome = registry().get(key).settle(scenario(toml).scenario)
    assert [(e.player, e.iterations, e.steps) for e in outcome.eliminated] == [("Carol", 2, 2)]
    assert (outcome.iterations, outcome.steps, outcome.deviates) == (5, 0, "Bob")
    assert outcome.state["n"] == 5 * 11 + 11
    assert outcome.to_json()["after_cut"] == 3
    assert not any("is where its player's own point falls" in n for n in outcome.notes)


PRIORITY_NOTE = """
format = 3
title = "Dave's Bolt, written right after Alice's mana ability, would come after Alice's cut"
players = ["Alice", "Bob", "Carol", "Dave"]

[state]
life = {Alice = 20, Bob = 20, Carol = 20, Dave = DAVE}
n = 0

[[step]]
by = "Alice"
does = "Alice's optional trigger"
optional = true
add = {n = 1}

[[step]]
by = "Alice"
does = "Alice's mana ability"
priority = false

[[step]]
by = "Alice"
does = "Alice's second optional action"
optional = true

[[step]]
by = "Dave"
does = "Dave's trigger: he pays 1 life"
add = {life = -1}
target = {among = ["Dave"], order = "fixed"}

[[breaker]]
by = "Dave"
does = "Dave's Bolt"

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = { after = 5, step = 2 }
Dave = { after = 5, step = 2 }
"""


@pytest.mark.parametrize("key", ["cr-2024", "mtr-current"])
def test_a_player_who_left_does_not_act_after_the_loop(key):
    """FORMAT item 23: a moved point after the loop's own cut is not a cut, and "a note says the
    moved player acts after the loop".  Dave's point (5, 2) moves past Alice's cut there; with
    Dave at 50 life the note is right, but at 2 he loses at (2, 0) and has left the game by the
    cut (item 6): he acts neither in nor after the loop, and the note said he does."""
    here = registry().get(key).settle(scenario(PRIORITY_NOTE.replace("DAVE", "50")).scenario)
    assert (here.iterations, here.steps, here.deviates) == (5, 2, "Alice")
    assert any("Dave acts after the loop" in n for n in here.notes)
    gone = registry().get(key).settle(scenario(PRIORITY_NOTE.replace("DAVE", "2")).scenario)
    assert [(e.player, e.iterations, e.steps) for e in gone.eliminated] == [("Dave", 2, 0)]
    assert (gone.iterations, gone.steps, gone.deviates) == (5, 2, "Alice")
    assert not any("Dave acts after the loop" in n for n in gone.notes)


OUTSIDE_SETS = """
format = 2
title = "Alice's and Bob's independent sets; Dave, outside them, would Bolt after 10"
players = ["Alice", "Bob", "Carol", "Dave"]

[state]
life = {Alice = 20, Bob = 20, Carol = 20, Dave = DAVE}
n = 0

[[step]]
by = "Alice"
does = "Alice acts"
optional = true

[[step]]
by = "Alice"
does = "Alice drains Dave"
add = {life = -1}
target = {among = ["Dave", "Carol"], order = "fixed"}

[[step]]
by = "Bob"
does = "Bob acts"
optional = true
add = {n = 1}

[loop]
independent = true

[[breaker]]
by = "Dave"
does = "Dave's Bolt"

[[end]]
when = {value = "life", at_most = 0}
effect = "loses"
loses = true

[intent]
Alice = 20
Bob = 20
Dave = 10
"""


@pytest.mark.parametrize("key", ["cr-2005", "cr-2008"])
def test_a_player_outside_the_sets_who_left_is_not_said_to_act(key):
    """421.5 gives each set its own number; the reading note says a player outside the sets "acts
    when they get priority".  Dave at 3 life is drained out at (2, 2) while the sets run (FORMAT
    item 6), long before his point after 10 iterations: he doesn't act, and the note said he
    does.  At 50 life he is still there, and the note stands."""
    here = registry().get(key).settle(scenario(OUTSIDE_SETS.replace("DAVE", "50")).scenario)
    assert any("Dave acts when they get priority" in n for n in here.notes)
    gone = registry().get(key).settle(scenario(OUTSIDE_SETS.replace("DAVE", "3")).scenario)
    assert [(e.player, e.iterations, e.steps) for e in gone.eliminated] == [("Dave", 2, 2)]
    assert gone.iterations == {"Alice": 20, "Bob": 20}
    assert not any("Dave acts when they get priority" in n for n in gone.notes)
