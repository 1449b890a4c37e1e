"""Format 3, "The stack and priority", in each era's words: the rule each era cites where a point
moves (G.21.2, 421.2, 713.2a / 729.2a, and the CR rule the Tournament Rules read with), the
reading each gives, and every cited rule quoted from the era's own sources."""

from __future__ import annotations

import pytest

from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import Breaker, Intent, Scenario, Step, Unless

from helpers import noted

#: The rule each era cites where a point moves past a priority-free step (FORMAT item 23).
PRIORITY_RULE = {
    "summary-1998": "G.21.2",
    "cr-2004": "421.2",
    "cr-2005": "421.2",
    "cr-2008": "421.2",
    "cr-2009": "713.2a",
    "cr-2009-09": "713.2a",
    "mtr-2018": "CR 720.2a",
    "cr-2024": "729.2a",
    "mtr-current": "CR 729.2a",
}
#: Words of each era's reading note: the text it reads, and the rules on mana abilities it cites.
READING = {
    "summary-1998": ("which is legal at that time", "406.4 and 411.1 of 2004 and 2008"),
    "cr-2004": ("until the other player intervenes", "406.4 and 411.1 of 2004 and 2008", "408.2e"),
    "cr-2005": ("until another player intervenes", "406.4 and 411.1 of 2004 and 2008"),
    "cr-2008": ("until another player intervenes", "406.4 and 411.1 of 2004 and 2008"),
    "cr-2009": ("713.2a", "must be a place where a player has priority", "605.3b", "117.3c", "2009-07-11"),
    "cr-2009-09": ("713.2a", "605.3b", "117.3c", "2009-09-04"),
    "mtr-2018": ("CR 720.2a", "605.3b", "117.3c", "2018-07-13"),
    "cr-2024": ("729.2a", "605.3b", "117.3c", "2024-06-07"),
    "mtr-current": ("CR 729.2a", "605.3b", "117.3c"),
}
STACK_READING = {
    "summary-1998": "402.6 of 2004 and 2008",
    "cr-2004": "402.6 of 2004 and 2008",
    "cr-2005": "402.6 of 2004 and 2008",
    "cr-2008": "402.6 of 2004 and 2008",
    "cr-2009": "113.7a",
    "cr-2009-09": "113.7a",
    "mtr-2018": "113.7a",
    "cr-2024": "113.7a",
    "mtr-current": "113.7a",
}


def test_every_era_is_covered():
    assert set(PRIORITY_RULE) == {r.key for r in registry().rulesets}


def _moved_breaker() -> Scenario:
    """Alice taps a land (a mana ability), then activates an ability with it; Bob wrote his point
    right after the land: it moves to right after the activation (FORMAT item 23)."""
    return Scenario(
        "moved", ("Alice", "Bob"),
        (
            Step("Alice", "taps a land for mana", optional=True, priority=False),
            Step("Alice", "activates an ability with it: a token", optional=True, add={"tokens": 1}),
        ),
        state={"tokens": 0}, breakers=(Breaker("Bob", "destroys the creature"),),
        intents={"Alice": Intent(10), "Bob": Intent(3, 1)}, format=3,
    )


@pytest.mark.parametrize("key", sorted(PRIORITY_RULE))
def test_a_moved_point_is_the_cut_with_a_line_saying_where_it_was_written_and_where_it_moved(key):
    out = registry().get(key).settle(_moved_breaker())
    assert (out.result.value, out.iterations, out.steps, out.deviates) == ("shortcut", 4, 0, "Bob")
    assert out.state == {"tokens": 4}
    rule = PRIORITY_RULE[key]
    line = next(t for t in out.transcript if "it moves to" in t)
    assert line.startswith(f"{rule}: Bob's point, written after 3 iterations and 1 step, comes right after \u201ctaps a land for mana\u201d")
    assert "after 4 iterations" in line
    assert rule in out.rules
    quoted = dict(out.quotes)[rule]
    assert not quoted.startswith("(the sources of"), quoted
    noted(out, *READING[key])


@pytest.mark.parametrize("key", sorted(PRIORITY_RULE))
def test_a_point_that_can_only_come_after_the_loop_leaves_the_loops_own_cut(key):
    sc = Scenario(
        "mana", ("Alice", "Bob"),
        (
            Step("Alice", "taps Pili-Pala for Grand Architect's {2}", optional=True, priority=False, add={"m": 2}),
            Step("Alice", "Pili-Pala's {2}, {Q}: one mana", optional=True, priority=False, add={"m": -2, "mana": 1}),
        ),
        state={"m": 0, "mana": 0}, breakers=(Breaker("Bob", "bolts Pili-Pala"),),
        intents={"Alice": Intent(20), "Bob": Intent(5)}, format=3,
    )
    out = registry().get(key).settle(sc)
    assert (out.result.value, out.iterations, out.steps, out.deviates) == ("shortcut", 20, 0, "Alice")
    assert out.state == {"m": 0, "mana": 20}
    noted(out, "Bob's point, written after 5 iterations", "Bob acts after the loop")
    noted(out, *READING[key])
    assert not any("it moves to" in t for t in out.transcript)


@pytest.mark.parametrize("key", sorted(PRIORITY_RULE))
def test_steps_still_resolving_are_told_and_cited(key):
    sc = Scenario(
        "kiki", ("Alice", "Bob"),
        (
            Step("Alice", "activates Kiki-Jiki", optional=True, add={"tokens": 1}),
            Step("Alice", "Pestermite's trigger untaps it", optional=True),
        ),
        state={"tokens": 0}, breakers=(Breaker("Bob", "bolts Kiki-Jiki", still_resolves=1),),
        intents={"Alice": Intent(1000000), "Bob": Intent(5)}, format=3,
    )
    out = registry().get(key).settle(sc)
    assert (out.iterations, out.steps, out.deviates, out.last_action, out.after_cut) == (5, 0, "Bob", "Alice", 1)
    assert out.state == {"tokens": 6}
    line = next(t for t in out.transcript if "still resolves" in t)
    assert "\u201cactivates Kiki-Jiki\u201d" in line and "\u201cbolts Kiki-Jiki\u201d" in line
    noted(out, "FORMAT item 24", STACK_READING[key])


def test_without_still_resolves_the_response_resolves_nothing():
    sc = Scenario(
        "kiki", ("Alice", "Bob"),
        (Step("Alice", "activates Kiki-Jiki", optional=True, add={"tokens": 1}), Step("Alice", "untaps it", optional=True)),
        state={"tokens": 0}, breakers=(Breaker("Bob", "bolts Kiki-Jiki"),),
        intents={"Alice": Intent(1000000), "Bob": Intent(5)}, format=3,
    )
    out = registry().get("cr-2024").settle(sc)
    assert (out.after_cut, out.state) == (0, {"tokens": 5})
    assert not any("still resolve" in t for t in out.transcript)


def test_a_player_who_stops_at_their_own_step_leaves_nothing_on_the_stack():
    # Bob controls an optional step and a breaker with still_resolves; his point is his own step:
    # he stops by not taking it (nothing of his is on the stack), so nothing resolves after it.
    sc = Scenario(
        "own", ("Alice", "Bob"),
        (Step("Alice", "acts", optional=True, add={"n": 1}), Step("Bob", "answers", optional=True, add={"n": 10})),
        state={"n": 0}, breakers=(Breaker("Bob", "breaks it", still_resolves=2),),
        intents={"Alice": Intent(), "Bob": Intent(2)}, format=3,
    )
    out = registry().get("cr-2024").settle(sc)
    assert (out.iterations, out.steps, out.deviates, out.after_cut) == (2, 1, "Bob", 0)
    assert out.state == {"n": 23}


@pytest.mark.parametrize("key", sorted(PRIORITY_RULE))
def test_steps_after_a_paid_unless_are_those_after_its_step(key):
    sc = Scenario(
        "unless", ("Alice", "Bob"),
        (
            Step("Alice", "casts her spell", optional=True),
            Step("Alice", "draws", add={"cards": 1}, unless=Unless("Bob", "pays {1}", still_resolves=1)),
            Step("Alice", "a token", add={"tokens": 1}),
        ),
        state={"cards": 0, "tokens": 0}, intents={"Alice": Intent(), "Bob": Intent(2)}, format=3,
    )
    out = registry().get(key).settle(sc)
    if key == "summary-1998":
        assert out.result.value == "unspecified" and out.after_cut == 0  # G.21.2: one player's loop only
        return
    assert (out.iterations, out.steps, out.deviates, out.after_cut) == (2, 1, "Bob", 1)
    assert out.state == {"cards": 2, "tokens": 3}
    assert any("pays {1}" in t and "\u201ca token\u201d" in t for t in out.transcript)


def test_a_cut_the_procedure_computed_itself_moves_with_a_line():
    # CR 729.3: the state repeats (flying on, flying off); Alice, the active player, must make a
    # different choice at her next action from the repeat on: her step, which comes right after
    # Bob's priority-free step. The procedure's own cut moves on like a player's point.
    sc = Scenario(
        "fragmented", ("Alice", "Bob"),
        (
            Step("Bob", "taps a land for mana", optional=True, priority=False),
            Step("Alice", "gains flying", optional=True, set={"flying": True}),
            Step("Bob", "removes flying", optional=True, set={"flying": False}),
        ),
        state={"flying": False}, intents={"Alice": Intent(), "Bob": Intent()}, format=3,
    )
    out = registry().get("cr-2024").settle(sc)
    line = next(t for t in out.transcript if "it moves to" in t)
    assert line.startswith("729.2a: Alice's point, written after 1 iteration and 1 step, comes right after \u201ctaps a land for mana\u201d")
    assert (out.iterations, out.steps, out.deviates, out.stopped_by.value) == (1, 2, "Alice", "rule")
    # Without the priority-free step the forced stop stays where 729.3 puts it.
    plain = Scenario("fragmented", sc.players, (Step("Bob", "taps a land for mana", optional=True),) + sc.steps[1:],
                     state=sc.state, intents=sc.intents, format=3)
    out = registry().get("cr-2024").settle(plain)
    assert (out.iterations, out.steps, out.deviates) == (1, 1, "Alice")
