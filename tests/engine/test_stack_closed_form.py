"""Format 3, "The stack and priority" (docs/FORMAT.md items 23 and 24), checked in closed form
against the naive oracle (tests/oracle.py), which walks every step one at a time.

* Moved points (``priority = false``): generated loops of every kind the format-1 oracle plays,
  with some steps made priority-free, settle under the four oracle rulesets exactly as the
  oracle's step-by-step walk of the moved points says.
* Steps that still resolve (``still_resolves = N``): generated format 3 loops with a breaker that
  leaves N steps on the stack; whatever each era's cut is, the steps after it, their state, the
  players they eliminate and a game they end are those of playing the loop out step by step to
  the cut and N steps more (``oracle.play_format2``).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import oracle
from loopcompare.comparator.loader import parse_document
from loopcompare.rulesets import registry
from loopcompare.rulesets.facts import LoopFacts
from loopcompare.rulesets.outcome import plain
from loopcompare.rulesets.scenario import Breaker, End, Intent, Limits, Scenario, Step, Target
from loopcompare.rulesets.values import UNBOUNDED, CutPoint

from test_oracle import FIELDS, documents, product, to_toml

ALL = tuple(r.key for r in registry().rulesets)


# --- the arithmetic of moved points, pinned ---------------------------------------------------------


def _loop(*steps: Step, players=("Alice", "Bob")) -> LoopFacts:
    return LoopFacts(Scenario("t", players, steps, format=3))


def _free(by: str = "Alice") -> Step:
    return Step(by, "taps a mana ability", optional=True, priority=False)


def _open(by: str = "Alice") -> Step:
    return Step(by, "activates an ability that uses the stack", optional=True)


def test_a_point_right_after_another_players_priority_free_step_moves_to_the_next_place_with_priority():
    facts = _loop(_free(), _free(), _open())
    # (2, 1) is right after step 1 of iteration 3 (priority-free): the next step with priority is
    # step 3, so Bob can act right after it: (2, 3) = (3, 0).
    assert facts.moved(CutPoint(2, 1), "Bob") == CutPoint(3, 0)
    assert facts.moved(CutPoint(2, 2), "Bob") == CutPoint(3, 0)
    # Right after a step with priority: no move.
    assert facts.moved(CutPoint(3, 0), "Bob") == CutPoint(3, 0)


def test_the_controllers_own_points_and_the_start_never_move():
    facts = _loop(_free(), _open())
    assert facts.moved(CutPoint(4, 1), "Alice") == CutPoint(4, 1)
    assert facts.moved(CutPoint(4, 1), "Bob") == CutPoint(5, 0)
    # The point 0/0 is before any step: nothing was performed, so nothing moves it.
    assert facts.moved(CutPoint(0, 0), "Bob") == CutPoint(0, 0)
    # (1, 0) is right after the last step of iteration 1, which has priority.
    assert facts.moved(CutPoint(1, 0), "Bob") == CutPoint(1, 0)


def test_a_move_wraps_into_the_next_iteration_and_an_unbounded_point_stays_unbounded():
    facts = _loop(_open(), _free(), _free())
    assert facts.moved(CutPoint(0, 2), "Bob") == CutPoint(1, 1)
    assert facts.moved(CutPoint(UNBOUNDED, 2), "Bob") == CutPoint(UNBOUNDED, 1)
    assert facts.moved(CutPoint(UNBOUNDED, 0), "Bob") == CutPoint(UNBOUNDED, 1)


def test_with_every_step_priority_free_another_player_can_act_only_after_the_loop():
    facts = _loop(_free(), _free())
    assert facts.moved(CutPoint(3, 0), "Bob") is None
    assert facts.moved(CutPoint(3, 1), "Bob") is None
    assert facts.moved(CutPoint(3, 1), "Alice") == CutPoint(3, 1)


def test_a_loop_without_priority_free_steps_moves_nothing():
    facts = _loop(_open(), Step("Bob", "a trigger"))
    assert facts.priority_free == ()
    for point in (CutPoint(0, 1), CutPoint(7, 1), CutPoint(UNBOUNDED, 1)):
        assert facts.moved(point, "Bob") == point


def test_the_intent_is_written_where_the_file_says_and_meant_where_it_moves():
    sc = Scenario(
        "t", ("Alice", "Bob"), (_free(), _open()), breakers=(Breaker("Bob", "bolts"),),
        intents={"Bob": Intent(3, 1)}, format=3,
    )
    facts = LoopFacts(sc)
    assert facts.written_point("Bob") == CutPoint(3, 1)
    assert facts.meant_point("Bob") == CutPoint(4, 0)
    assert facts.deviation_point("Bob") == CutPoint(4, 0)
    assert facts.move_of("Bob") == (CutPoint(3, 1), CutPoint(4, 0))
    assert facts.move_of("Alice") is None


# --- moved points against the oracle, in the four rulesets it plays ----------------------------------


@st.composite
def priority_documents(draw):
    """A generated format-1 loop (tests/test_oracle.py) with some steps made priority-free."""
    doc = draw(documents())
    flags = [draw(st.integers(0, 99)) < 45 for _ in doc["step"]]
    return doc, flags


def _with_priority(doc: dict, flags: list[bool]) -> Scenario:
    sc = parse_document(doc, "generated.toml", "generated").scenario
    steps = tuple(
        # FORMAT item 23: a step whose "unless" breaks the loop can't be priority-free (loader error).
        dataclasses.replace(s, priority=not free or s.unless is not None)
        for s, free in zip(sc.steps, flags)
    )
    return dataclasses.replace(sc, steps=steps)


@pytest.mark.parametrize("key", oracle.RULESETS)
def test_moved_points_agree_with_the_oracles_walk(key):
    moved = 0

    @settings(max_examples=700, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(priority_documents())
    def run(case):
        nonlocal moved
        doc, flags = case
        sc = _with_priority(doc, flags)
        try:
            expected = oracle.settle(sc, key)
        except oracle.OracleLimit:
            assume(False)
            return
        got = product(sc, key)
        diff = {f: (got[f], expected[f]) for f in FIELDS if got[f] != expected[f]}
        assert not diff, f"{key}: {diff} (product, oracle); priority-free steps {flags}\n{to_toml(doc)}"
        facts = LoopFacts(sc)
        moved += any(facts.move_of(p) for p in sc.players)

    run()
    assert moved >= 100, "the generated loops must move points often enough to test it"


# --- steps that still resolve, against playing them out -------------------------------------------------


def _after_cut_scenario(rng: random.Random) -> Scenario:
    """A format 3 loop with per-player life, tokens, an optional floor, ends that make players
    lose, priority-free steps, and one breaker that leaves 1 to all of an iteration's steps on
    the stack."""
    players = ("Alice", "Bob", "Carol")[: rng.randint(2, 3)]
    opponents = players[1:]
    # One loop in four spends tokens it needs, so that a requirement fails among the steps after the cut.
    spending = rng.random() < 0.25
    steps = []
    for i in range(rng.randint(1, 4)):
        kind = rng.random()
        step: dict = {"by": "Alice", "does": f"step {i + 1}", "optional": rng.random() < 0.5}
        if step["optional"] and rng.random() < 0.3:
            step["by"] = rng.choice(players)
        if spending and i == 0:
            step["optional"] = False
            step["add"] = {"tokens": -1}
            step["requires"] = {"tokens": 1}
        elif kind < 0.35:
            step["add"] = {"tokens": rng.choice([1, 2, -1])}
            if rng.random() < 0.3:
                step["requires"] = {"tokens": rng.randint(1, 3)}
        elif kind < 0.5:
            step["mul"] = {"tokens": 2}
        else:
            step["add"] = {"life": rng.choice([-1, -2, -3])}
            step["target"] = Target(opponents, rng.choice(["rotate", "each", "fixed"]))
        if rng.random() < 0.4:
            step["times"] = rng.randint(1, 3)
        if rng.random() < 0.25:
            step["priority"] = False  # a mana ability: the response's point may move past it
        steps.append(Step(**step))
    ends = [End("life", 0, True, "that player loses the game", loses_each=True)]
    if rng.random() < 0.3:
        ends.append(End("tokens", rng.choice([9, 30]), False, "enough tokens"))
    life = {p: rng.randint(3, 14) for p in players}
    breaker_by = rng.choice(players[1:])
    count = rng.randint(1, len(steps))
    intents = {"Alice": Intent(rng.randint(0, 12)) if rng.random() < 0.5 else Intent(), breaker_by: Intent(rng.randint(0, 4 if spending else 10))}
    if spending or rng.random() < 0.3:
        intents[breaker_by] = Intent(rng.randint(0, 4 if spending else 10), rng.randint(0, len(steps) - 1))
    if rng.random() < 0.25:
        # Alice means to stop in the iteration of the response: her own point may fall among the
        # steps still resolving, which then stop there.
        intents["Alice"] = Intent(intents[breaker_by].after)
    return Scenario(
        "generated", players, tuple(steps), state={"tokens": rng.randint(1, 4) if spending else rng.randint(0, 3), "life": life},
        breakers=(Breaker(breaker_by, "responds", still_resolves=count),), intents=intents, format=3,
        limits={"tokens": Limits(min=0)} if rng.random() < 0.5 else {},
        ends=tuple(ends),
    )


def _naive_point(sc: Scenario, player: str) -> int | None:
    """A player's own point, found by walking: their first sustaining optional step or choice,
    at their intent's iteration (or the intent's step), moved on past priority-free steps."""
    intent = sc.intent(player)
    if intent.after is None:
        return None
    size = len(sc.steps)
    own = [i for i, s in enumerate(sc.steps) if s.by == player and ((s.optional and s.sustains) or s.choice)]
    k = intent.step if intent.step is not None else (own[0] if own else 0)
    run = oracle._Run(sc, "cr-2024", oracle.BIG)
    run.L = size
    return run.moved(intent.after * size + k, player)


@settings(max_examples=400, derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_steps_still_resolving_after_the_cut_agree_with_playing_them_out(seed):
    sc = _after_cut_scenario(random.Random(seed))
    (breaker,) = sc.breakers
    size = len(sc.steps)
    for key in ALL:
        out = registry().get(key).settle(sc)
        point = None if out.iterations in (None, UNBOUNDED) or isinstance(out.iterations, dict) else out.iterations * size + out.steps
        responding = (
            out.deviates == breaker.by and point is not None
            and not (out.steps < size and sc.steps[out.steps].by == breaker.by and sc.steps[out.steps].optional)
        )
        if not responding:
            assert out.after_cut == 0, key
            continue
        halts = frozenset(
            q for q in range(point, point + breaker.still_resolves)
            if sc.steps[q % size].optional and _naive_point(sc, sc.steps[q % size].by) == q
        )
        played = oracle.play_format2(sc, point + breaker.still_resolves, halts=halts)
        stop = played["stop"]
        if stop is None:
            performed = breaker.still_resolves
        elif stop in ("end", "gameover", "draw", "nosteps", "untargeted", "elimination"):
            performed = played["position"] - point
        else:  # a halt at a player's own point, a failed requirement: that step is not performed
            performed = played["position"] - point
        assert out.after_cut == performed, (key, seed)
        assert plain(out.state) == plain(played["state"]), (key, seed)
        after = [(p, at) for p, at in played["eliminated"] if at > point]
        assert [(e.player, e.iterations * size + e.steps) for e in out.eliminated if e.iterations * size + e.steps > point] == after, (key, seed)
        expected = {"gameover": "ends", "draw": "draw"}.get(stop or "", "shortcut")
        assert out.result.value == expected, (key, seed, stop)
        # The cut itself is the response's: the after-cut steps never move it.
        assert (out.iterations, out.steps, out.deviates) == divmod(point, size) + (breaker.by,)
