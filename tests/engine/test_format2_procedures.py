"""Format 2 and the eras' procedures: players who leave a multiplayer game during a loop they
help maintain (FORMAT item 6,
docs/READINGS.md "Format 2 review").

When the player a procedure relied on to stop the loop leaves the game before their point and
other involved players remain, the procedure is applied again among the players left: the
leaver's number no longer counts, the turn order skips them, and the loop goes on to the next
stop of a player still in the game.
"""

from __future__ import annotations

import pytest

import format2_fuzz
from helpers import scenario
from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import CutPoint
from loopcompare.rulesets.facts import facts_of

SHORTCUT_ERAS = ["cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "cr-2024", "mtr-2018", "mtr-current"]

# Alice drains Bob, Carol, Dave in turn; Bob (3 life) loses after 6 iterations and 1 step.
# Bob and Carol each keep the loop going with an optional step of their own.
TWO_MAINTAINERS = """
format = 2
title = "two maintainers, one leaves"
players = ["Alice", "Bob", "Carol", "Dave"]
[state]
life = {{ Alice = 20, Bob = 3, Carol = 100, Dave = 100 }}
[[step]]
by = "Alice"
does = "drain the next opponent"
target = {{ among = ["Bob", "Carol", "Dave"], order = "rotate" }}
add = {{ life = -1 }}
[[step]]
by = "Bob"
does = "Bob untaps the engine"
optional = true
[[step]]
by = "Carol"
does = "Carol untaps the engine"
optional = true
[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "that player loses the game"
loses = true
[intent]
Bob = {bob}
Carol = {carol}
"""


def settle(key: str, bob: object, carol: object):
    return registry().get(key).settle(scenario(TWO_MAINTAINERS.format(bob=bob, carol=carol)).scenario)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_the_procedure_is_applied_again_among_the_players_left_when_the_first_to_stop_leaves(key):
    out = settle(key, 10, 20)
    assert out.result.value == "shortcut"
    assert (out.deviates, out.iterations, out.steps) == ("Carol", 20, 2)
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 6, 1)]
    # Carol was hit on iterations 1, 4, ..., 19 (seven times) by the time she stops.
    assert out.to_json()["state"]["life"]["Carol"] == 91
    assert any("applied again among the players still in the game" in n for n in out.notes)
    assert any("procedure is applied again among them" in line for line in out.transcript)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_player_who_left_is_not_asked_again(key):
    out = settle(key, 10, 20)
    again = next(i for i, line in enumerate(out.transcript) if "applied again among them" in line)
    assert not any("Bob" in line for line in out.transcript[again + 1 :])


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_when_the_remaining_player_never_stops_the_loop_runs_until_the_opponents_are_gone(key):
    # Carol never stops: after Bob leaves, Alice drains Carol and Dave until one of them is out.
    out = settle(key, 10, '"never"')
    assert out.result.value == "ends"
    assert out.deviates is None
    # Before Bob leaves, Carol is hit on iterations 1 and 4, Dave on 2 and 5; then they alternate
    # from iteration 7 (Carol) and 8 (Dave): 98 more hits each.
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 6, 1), ("Carol", 201, 1), ("Dave", 202, 1)]
    assert (out.iterations, out.steps) == (202, 1)


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_leaver_who_stops_before_leaving_is_unaffected(key):
    # Bob stops after 2 iterations, long before he would lose: nobody leaves.
    out = settle(key, 2, 20)
    assert (out.deviates, out.iterations, out.steps) == ("Bob", 2, 1)
    assert out.eliminated == ()
    assert not any("applied again" in n for n in out.notes)


def test_the_facts_among_the_players_left_skip_the_leaver_and_keep_the_loop():
    sc = scenario(TWO_MAINTAINERS.format(bob=10, carol=20)).scenario
    facts = facts_of(sc)
    left = facts.among(frozenset({"Bob"}))
    assert left.turn_order == ("Alice", "Carol", "Dave")
    assert left.players_after("Alice") == ("Carol", "Dave")
    assert left.optional_controllers == ("Carol",)
    assert left.deviation_point("Bob") is None
    assert left.deviation_point("Carol") == CutPoint(20, 2)
    # The loop itself is shared: the same eliminations at the same positions.
    assert left.eliminations_until(CutPoint(30, 0)) == facts.eliminations_until(CutPoint(30, 0))
    # The original facts are untouched.
    assert facts.turn_order == ("Alice", "Bob", "Carol", "Dave")
    assert facts.optional_controllers == ("Bob", "Carol")


INDEPENDENT_PER_PLAYER = """
format = 2
title = "independent sets with per-player life"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 20, Bob = 5, Carol = 5 }
tokens = 0
[loop]
independent = true
[[step]]
by = "Alice"
does = "Alice pings Bob"
optional = true
target = { among = ["Bob"], order = "fixed" }
add = { life = -1 }
[[step]]
by = "Bob"
does = "Bob makes a token"
optional = true
add = { tokens = 1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[intent]
Alice = 10
Bob = 3
"""


@pytest.mark.parametrize(
    "key, iterations, steps, tokens",
    [
        # 2004/2005 text: the nonactive player may only agree or name a higher number, so both
        # sets are still running when Bob leaves: the whole loop's end, one cut point.
        ("cr-2005", 4, 1, 4),
        # 2008 text: each set its own number, higher, lower or the same (Bob's stopped at 3).
        ("cr-2008", {"Alice": 5, "Bob": 3}, 0, 3),
        # 2009 on: no state repeats any more (the loop ends instead), so each set runs its own number.
        ("cr-2009-09", {"Alice": 5, "Bob": 3}, 0, 3),
        ("cr-2024", {"Alice": 5, "Bob": 3}, 0, 3),
    ],
)
def test_sets_that_run_their_own_counts_follow_per_player_values_and_eliminations(key, iterations, steps, tokens):
    # Used to crash (format 1's arithmetic on a table of life totals). Alice's set pings Bob
    # (5 life) in each of its 10 iterations: Bob loses after 4 iterations and 1 step, and his
    # set (a token an iteration) stops with him if it has not stopped before. Alice's ping then
    # has nobody left to affect, so the loop ends there (FORMAT item 20, CR 800.4a).
    out = registry().get(key).settle(scenario(INDEPENDENT_PER_PLAYER).scenario)
    assert out.result.value == "ends"
    assert (out.iterations, out.steps) == (iterations, steps)
    assert out.ended_by == "that player loses the game"
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 4, 1)]
    assert out.to_json()["state"] == {"life": {"Alice": 20, "Bob": 0, "Carol": 5}, "tokens": tokens}
    assert any("Bob loses the game" in n and "after 4 iterations and 1 step" in n for n in out.notes)


@pytest.mark.parametrize("key", ["mtr-current"])
def test_eras_with_one_cut_settle_independent_format_2_loops(key):
    out = registry().get(key).settle(scenario(INDEPENDENT_PER_PLAYER).scenario)
    assert out.result.value == "shortcut"
    assert (out.deviates, out.steps) == ("Bob", 1)
    # Bob stops after 3 iterations and 1 step: Alice has pinged him 4 times.
    assert out.to_json()["state"]["life"]["Bob"] == 1


# A loop of mandatory actions that only Carol's breaker could stop; Carol (2 life) loses first.
BREAKER_LEAVES = """
format = 2
title = "the only one with a way out leaves"
players = ["Alice", "Bob", "Carol"]
[state]
life = { Alice = 20, Bob = 100, Carol = 2 }
[[step]]
by = "Alice"
does = "drain each opponent"
target = { among = ["Bob", "Carol"], order = "each" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
[[breaker]]
by = "Carol"
does = "destroys the engine"
[intent]
Carol = 10
"""


@pytest.mark.parametrize("key", SHORTCUT_ERAS)
def test_a_breaker_who_leaves_before_using_it_leaves_a_mandatory_loop_among_the_rest(key):
    # Used to raise ValueError (max() of no involved players) when the stop was a breaker's.
    out = registry().get(key).settle(scenario(BREAKER_LEAVES).scenario)
    assert out.deviates is None
    assert out.result.value == "ends"
    # Carol's second hit ends iteration 1 (counted as after 2 iterations, FORMAT item 4); Bob's 100th.
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Carol", 2, 0), ("Bob", 100, 0)]
    assert any("applied again among the players still in the game" in n for n in out.notes)


# --- independent sets run by the format 2 engine, against the step-by-step oracle ----------------


def _sets_document(rng, i):
    """A two- to four-player loop with independent sets and format 2 values."""
    players = format2_fuzz.PLAYERS[: rng.randint(2, 4)]
    steps = []
    for p in rng.sample(players, rng.randint(2, len(players))):
        steps.append({"by": p, "does": f"{p}'s action", "optional": True})
        for _ in range(rng.randint(0, 2)):
            kind = rng.random()
            step = {"by": rng.choice(players), "does": "a consequence"}
            if kind < 0.35:
                step["add"] = {"life": rng.choice([-1, -2, 1])}
                step["target"] = {"among": rng.sample(players, rng.randint(1, len(players))), "order": rng.choice(["rotate", "each", "fixed"])}
            elif kind < 0.55:
                step["mul"] = {"tokens": rng.choice([2, 3])}
            elif kind < 0.8:
                step["add"] = {"mana": rng.choice([-1, 1, 2])}
            else:
                step["add"] = {"tokens": rng.choice([-1, 1])}
            if rng.random() < 0.15:
                step["times"] = rng.choice([2, 3])
            steps.append(step)
    doc = {
        "format": 2,
        "title": f"sets {i}",
        "players": players,
        "state": {"tokens": 1, "mana": {"start": rng.randint(0, 5), "min": 0}, "life": {p: rng.randint(2, 15) for p in players}},
        "step": steps,
        "loop": {"independent": True},
        "end": [{"when": {"value": "life", "at_most": 0}, "effect": "that player loses the game", "loses": True}],
    }
    if rng.random() < 0.4:
        doc["end"].append({"when": {"value": "tokens", "at_least": rng.randint(20, 200)}, "effect": "enough tokens"})
    return doc


def test_independent_sets_with_format_2_values_agree_with_playing_them_out():
    import random

    from loopcompare.comparator.loader import ScenarioError, parse_document

    import oracle

    rng = random.Random(20261123)
    checked = 0
    for i in range(300):
        doc = _sets_document(rng, i)
        try:
            sc = parse_document(doc, "sets.toml", "sets").scenario
        except ScenarioError:
            continue
        facts = facts_of(sc)
        owners = sorted({s.by for s in sc.steps if s.optional})
        counts = {p: rng.randint(0, 12) for p in owners}
        limit = max(counts.values()) * len(sc.steps)
        played = oracle.play_format2(sc, limit, counts)
        hit = facts.end_with_counts(counts)
        run = facts.sets_run(counts)
        assert [(e.player, e.position) for e in run.eliminations] == played["eliminated"], doc
        if played["stop"] in (None, "elimination"):
            assert hit is None, doc
            assert facts.state_with_counts(counts) == played["state"], doc
        else:
            assert hit is not None, doc
            assert run.stop.kind == played["stop"] and run.stop.position == played["position"], doc
            assert hit[1] == played["state"], doc
        checked += 1
    assert checked >= 150


def test_sets_that_run_their_own_counts_end_when_the_last_opponent_loses():
    two = (
        INDEPENDENT_PER_PLAYER.replace('players = ["Alice", "Bob", "Carol"]', 'players = ["Alice", "Bob"]')
        .replace("life = { Alice = 20, Bob = 5, Carol = 5 }", "life = { Alice = 20, Bob = 3 }")
        .replace("Bob = 3\n", "Bob = 1\n")
    )
    out = registry().get("cr-2008").settle(scenario(two).scenario)
    # Alice's third ping (iteration 2, step 0) takes Bob to 0: he loses, the game is over. Her set
    # has acted in three iterations (0, 1, 2: the cut is after its action, as counts_at counts).
    assert out.result.value == "ends"
    assert out.ended_by == "that player loses the game"
    assert out.iterations == {"Alice": 3, "Bob": 1}
    assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Bob", 2, 1)]
    assert out.to_json()["state"] == {"life": {"Alice": 20, "Bob": 0}, "tokens": 1}
    assert any("while the independent sets run their own numbers, it ends by itself" in line for line in out.transcript)
