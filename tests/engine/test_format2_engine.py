"""Format 2's closed form (rulesets/dynamics.py) and the readings that use it (FORMAT.md "Format 2").

The engine is checked three ways: against numbers worked out by hand, against the naive
step-by-step player in tests/support/oracle.py on generated loops, and, for format 1 loops, against the
format 1 closed form in LoopFacts (two independent closed forms must agree).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from helpers import scenario
from loopcompare.rulesets import UNBOUNDED, CutPoint, registry
from loopcompare.rulesets.bignum import Huge, equal, parse, power_value
from loopcompare.rulesets.dynamics import Dynamics, first_block, Affine
from loopcompare.rulesets.outcome import OUTCOME_FIELDS, StoppedBy
from loopcompare.rulesets.scenario import End, Goal, Limits, LoopFlags, Scenario, Step, Target
from loopcompare.rulesets.facts import facts_of

ALL = [r.key for r in registry().rulesets]


def sc(toml: str) -> Scenario:
    return scenario(toml).scenario


def settle(key: str, toml: str):
    return registry().get(key).settle(sc(toml))


DOUBLING = """
format = 2
title = "doubling"
players = ["Alice", "Bob"]
[state]
tokens = 3
[[step]]
by = "Alice"
does = "copies every token"
optional = true
mul = {{ tokens = 2 }}
[[step]]
by = "Alice"
does = "untaps"
[intent]
Alice = {intent}
"""


# --- huge values ---------------------------------------------------------------------------------


def test_a_googol_of_doublings_is_an_exact_expression():
    out = settle("cr-2024", DOUBLING.format(intent='"10^100"'))
    assert out.iterations == 10**100
    assert out.to_json()["state"] == {"tokens": "3*2^(10^100)"}
    assert isinstance(out.state["tokens"], Huge)


def test_doubling_a_googol_times_costs_what_three_cost(monkeypatch):
    calls = []
    original = Dynamics._apply

    def counting(self, *args):
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(Dynamics, "_apply", counting)
    costs = {}
    for n in ("3", '"10^6"', '"10^100"'):
        calls.clear()
        for key in ALL:
            settle(key, DOUBLING.format(intent=n))
        costs[n] = len(calls)
    # Every size is settled by playing the same few blocks: the work does not grow with n.
    assert costs['"10^100"'] <= costs["3"] * 1.1 + 40
    assert costs['"10^6"'] <= costs["3"] * 1.1 + 40


def test_small_results_stay_integers_and_huge_ones_are_written_exactly():
    assert settle("mtr-current", DOUBLING.format(intent=10)).state["tokens"] == 3072
    assert power_value(3, 2, 3000) == 3 * 2**3000  # 904 digits: still an integer
    big = power_value(1, 2, 4000)
    assert isinstance(big, Huge) and big.plain() == "2^(4000)"
    assert power_value(1, 4, 10**100).plain() == "4^(10^100)"  # the shortest text of the power
    assert power_value(1, 2, 10**100, -1, 3).plain() == "(2^(10^100)-1)/3"
    assert power_value(-1, 2, 10**100, 5).plain() == "-2^(10^100)+5"


def test_huge_values_compare_numerically():
    assert equal(parse("3*4^(10^100)"), power_value(3, 2, 2 * 10**100))
    assert equal(parse("(6*2^(10^100)+6)/2"), parse("3*2^(10^100)+3"))
    assert not equal(parse("3*2^(10^100)"), parse("3*2^(10^100)+1"))
    assert parse("3*2^(10)") == 3072
    assert parse("tokens") is None


# --- closed form against the naive player ------------------------------------------------------------


def _random_scenario(rng: random.Random) -> Scenario:
    players = ("Alice", "Bob", "Carol", "Dana")[: rng.randint(2, 4)]
    opponents = players[1:]
    state = {"n": rng.randint(-3, 6), "mana": rng.randint(0, 8), "life": {p: rng.randint(1, 9) for p in opponents}}
    limits = {"mana": Limits(min=0, max=rng.choice([None, 9]))}
    steps = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        optional = rng.random() < 0.5
        step = dict(by=rng.choice(players), does="acts", optional=optional, times=rng.choice([1, 1, 2, 3]))
        if kind < 0.3:
            step["add"] = {"n": rng.choice([-2, -1, 1, 2])}
            if rng.random() < 0.3:
                step["mul"] = {"n": rng.choice([0, 2, 3])}
        elif kind < 0.6:
            step["add"] = {"mana": rng.choice([-3, -2, -1, 1, 2])}
            if rng.random() < 0.5:
                step["requires"] = {"mana": rng.randint(1, 3)}
                if optional and rng.random() < 0.5:
                    step["sustains"] = False
        else:
            step["add"] = {"life": rng.choice([-1, -2, 1])}
            step["target"] = Target(opponents, rng.choice(["rotate", "rotate", "each", "fixed"]))
        steps.append(Step(**step))
    ends = []
    if rng.random() < 0.8:
        # FORMAT item 21: sometimes a player who can't lose.
        exempt = (rng.choice(opponents),) if rng.random() < 0.2 else ()
        ends.append(End("life", 0, True, "that player loses the game", loses_each=True, exempt=exempt))
    if rng.random() < 0.3:
        ends.append(End("n", rng.choice([-8, 20]), rng.random() < 0.5, "n reaches its bound"))
    if rng.random() < 0.2:
        ends.append(End("mana", rng.choice([0, 9]), rng.random() < 0.5, "mana runs out", loses=rng.choice(players)))
    # Issue 22 item 3: sometimes a floor on one player's entry of a per-player value.
    entry_limits = {"life": {opponents[0]: Limits(min=0)}} if rng.random() < 0.2 else {}
    # FORMAT item 18: sometimes the repetition happens inside one resolution (nobody loses mid-way).
    loop = LoopFlags(within="resolution") if rng.random() < 0.15 else LoopFlags()
    sc = Scenario("generated", players, tuple(steps), state=state, format=2, limits=limits, ends=tuple(ends),
                  entry_limits=entry_limits, loop=loop)
    start = Dynamics(sc).initial().values
    for e in ends:  # a bound that already holds at the start is a loader error
        comps = [(e.value, p) for p in opponents] if e.value == "life" else [e.value]
        if any((start[c] <= e.bound) if e.at_most else (start[c] >= e.bound) for c in comps):
            return _random_scenario(rng)
    return sc


def _naive(sc: Scenario, limit: int) -> dict:
    return oracle.play_format2(sc, limit)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(0, 90))
def test_the_closed_form_agrees_with_playing_it_out(seed, steps):
    sc = _random_scenario(random.Random(seed))
    dyn = Dynamics(sc)
    limit = steps
    run = dyn.run(limit)
    naive = _naive(sc, limit)
    assert [(e.player, e.position) for e in run.eliminations] == naive["eliminated"]
    if naive["stop"] is None:
        assert run.stop is None and run.state == naive["state"]
    else:
        assert run.stop is not None
        assert (run.stop.kind, run.stop.position, run.stop.effect) == (naive["stop"], naive["position"], naive["effect"])
        assert run.state == naive["state"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_where_the_loop_stops_by_itself_agrees_with_playing_it_out(seed):
    sc = _random_scenario(random.Random(seed))
    natural = Dynamics(sc).natural
    naive = _naive(sc, 400 * len(sc.steps))
    if naive["stop"] is None:
        # Not within 400 iterations: the closed form may stop later, never sooner.
        assert natural.stop is None or natural.stop.position > 400 * len(sc.steps)
    else:
        assert natural.stop is not None
        assert (natural.stop.kind, natural.stop.position) == (naive["stop"], naive["position"])
        assert natural.state == naive["state"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_format_1_loops_get_the_same_numbers_from_both_closed_forms(seed):
    rng = random.Random(seed)
    players = ("Alice", "Bob", "Carol")[: rng.randint(2, 3)]
    steps = []
    for _ in range(rng.randint(1, 4)):
        s = {"by": rng.choice(players), "does": "acts", "optional": rng.random() < 0.5}
        if rng.random() < 0.6:
            s["add"] = {"n": rng.choice([-2, -1, 0, 1, 3])}
        if rng.random() < 0.3:
            s["set"] = {"flag": rng.random() < 0.5}
        if rng.random() < 0.2:
            s["set"] = dict(s.get("set", {}), n=rng.randint(-2, 2))
            s.pop("add", None)
        steps.append(Step(**s))
    one = Scenario("f1", players, tuple(steps), state={"n": rng.randint(-2, 2), "flag": False})
    dyn = Dynamics(one)
    for n in (0, 1, 2, 7, 10**30):
        for k in range(len(steps)):
            assert dyn.state_at(CutPoint(n, k)) == facts_of(one).state_at(CutPoint(n, k))
    for k in range(len(steps)):
        assert dyn.state_at(CutPoint(UNBOUNDED, k)) == facts_of(one).state_at(CutPoint(UNBOUNDED, k))
    assert dyn.first_repeat == facts_of(one).first_repeat


# --- the closed form by hand ------------------------------------------------------------------------

ROTATION = """
format = 2
title = "rotation and eliminations"
players = ["Alice", "Bob", "Carol", "Dave"]
[state]
life = { Bob = 3, Carol = 5, Dave = 2 }
mana = { start = 10, min = 0 }
[[step]]
by = "Alice"
does = "activates"
optional = true
add = { mana = -1 }
[[step]]
by = "Alice"
does = "the trigger pings the next opponent, twice"
times = 2
target = { among = ["Bob", "Carol", "Dave"], order = "rotate" }
add = { life = -1 }
[[end]]
when = { value = "life", at_most = 0 }
effect = "that player loses the game"
loses = true
"""


def test_rotation_skips_players_who_left_and_the_last_one_left_ends_the_game():
    # Pings: Bob, Carol | Dave, Bob | Carol, Dave(0: out after 3) | Bob(0: out after 4), Carol | Carol, Carol(0).
    for key in ("cr-2004", "cr-2024", "mtr-current"):
        out = settle(key, ROTATION)
        assert out.result.value == "ends"
        assert [(e.player, e.iterations, e.steps) for e in out.eliminated] == [("Dave", 3, 0), ("Bob", 4, 0), ("Carol", 5, 0)]
        assert out.to_json()["state"] == {"life": {"Bob": 0, "Carol": 0, "Dave": 0}, "mana": 5}
        assert out.ended_by == "that player loses the game"


def test_a_floor_holds_and_a_mandatory_requirement_ends_the_loop():
    toml = """
    format = 2
    title = "floor"
    players = ["Alice", "Bob"]
    [state]
    library = { start = 7, min = 0 }
    mana = 5
    [[step]]
    by = "Alice"
    does = "mills three"
    add = { library = -3 }
    [[step]]
    by = "Alice"
    does = "the trigger spends {2}"
    requires = { mana = 2 }
    add = { mana = -2 }
    """
    out = settle("cr-2024", toml)
    # mana 5 -> 3 -> 1: the third trigger can't be paid; the library was floored at 0 on the way.
    assert (out.result.value, out.iterations, out.steps) == ("ends", 2, 1)
    assert out.ended_by == "requires mana >= 2: the trigger spends {2}"
    assert out.state == {"library": 0, "mana": 1}
    assert out.stopped_by is None


def test_a_side_benefit_that_cant_be_paid_is_skipped():
    toml = """
    format = 2
    title = "every other iteration"
    players = ["Alice", "Bob"]
    [state]
    mana = 0
    tokens = 0
    [[step]]
    by = "Alice"
    does = "makes a token"
    optional = true
    add = { mana = 1 }
    [[step]]
    by = "Alice"
    does = "may pay {2} for a token"
    optional = true
    sustains = false
    requires = { mana = 2 }
    add = { mana = -2, tokens = 1 }
    [intent]
    Alice = "10^50"
    """
    out = settle("cr-2008", toml)
    # Paid every second iteration, for ever: closed form over a two-iteration block.
    assert out.iterations == 10**50
    assert out.state == {"mana": 0, "tokens": 10**50 // 2}
    assert out.deviates == "Alice" and out.stopped_by is StoppedBy.INTENT


def test_goals_are_exact_integer_logarithms():
    dyn = Dynamics(sc(DOUBLING.format(intent=1)))
    # 3 * 2^n >= 10^100 first at n = 331 (3 * 2^330 < 10^100)
    assert dyn.goal_iterations(Goal("tokens", 10**100, False)) == 331
    assert 3 * 2**330 < 10**100 <= 3 * 2**331
    assert dyn.goal_iterations(Goal("tokens", 3, False)) == 0
    assert dyn.goal_iterations(Goal("tokens", 0, True)) is None


def test_an_unreachable_goal_is_never_with_a_note():
    toml = DOUBLING.replace("mul = {{ tokens = 2 }}", "add = {{ tokens = -1 }}").format(
        intent='{ until = { value = "tokens", at_least = 50 } }'
    )
    out = settle("cr-2024", toml)
    assert out.iterations is UNBOUNDED
    assert any("never reached" in n for n in out.notes)


def test_the_goal_conversion_is_in_the_transcript():
    out = settle("cr-2004", DOUBLING.format(intent='{ until = { value = "tokens", at_least = 100 } }'))
    assert out.iterations == 6  # 3, 6, 12, 24, 48, 96, 192
    assert any("after 6 complete iterations" in line for line in out.transcript)


def test_first_block_solves_monotone_sequences_without_walking():
    # 1 + 3s >= 10^90 first at s = ceil((10^90 - 1) / 3)
    assert first_block(1, Affine(1, 3), Affine(), 10**90, False) == -(-(10**90 - 1) // 3)
    assert first_block(5, Affine(2, 0), Affine(), 10**30, False) == 98
    assert 5 * 2**97 < 10**30 <= 5 * 2**98
    assert first_block(5, Affine(2, 0), Affine(), 0, True) is None


# --- events --------------------------------------------------------------------------------------------

COIN = """
format = 2
title = "a coin that may end it"
players = ["Alice", "Bob"]
[[step]]
by = "Alice"
does = "flips a coin"
optional = {optional}
random = true
ends_loop = {{ when = "Alice loses a flip", chance = "1/2" }}
[[step]]
by = "Bob"
does = "a trigger"
{intent}
"""


def test_an_event_with_no_involved_player_ends_with_no_fixed_length_in_every_era():
    for key in ALL:
        out = settle(key, COIN.format(optional="false", intent=""))
        assert out.result.value == "ends" and out.iterations is None, key
        assert out.ends_early_if == "Alice loses a flip"
        # Event at the first of two steps with chance 1/2: expected iterations (1 - r) / r = 1.
        assert out.expected_iterations == Fraction(1)
        assert out.to_json()["expected_iterations"] == "1"


def test_events_by_era():
    toml = COIN.format(optional="true", intent="[intent]\nAlice = 3")
    old = settle("cr-2008", toml)
    assert old.result.value == "shortcut" and old.iterations == 3 and old.ends_early_if == "Alice loses a flip"
    # Up to 3 chances: sum_{i<3} (1/2)^(i+1) i + (1/8) 3 = 1/4 + 2/8 + 3/8
    assert old.expected_iterations == Fraction(7, 8)
    assert any("knows nothing of chance" in n for n in old.notes)
    new = settle("cr-2024", toml)
    assert new.result.value == "no_shortcut" and new.expected_iterations == Fraction(7, 8)
    assert "729.2a" in new.rules
    assert settle("mtr-current", toml).result.value == "no_shortcut"
    assert settle("summary-1998", toml).result.value == "unspecified"  # G.21's note on randomness


# --- other readings -------------------------------------------------------------------------------------

RESOLUTION_DRAW = """
format = 2
title = "repeat this process, forever"
players = ["Alice", "Bob"]
[state]
n = 0
[[step]]
by = "Alice"
does = "repeat this process"
add = { n = 1 }
[loop]
within = "resolution"
"""


@pytest.mark.parametrize(
    "key, rule",
    [("cr-2004", "102.6"), ("cr-2005", "102.4b"), ("cr-2008", "102.4b"), ("cr-2009", "104.4b"),
     ("cr-2024", "104.4b"), ("mtr-2018", "CR 104.4b"), ("mtr-current", "CR 104.4b")],
)
def test_a_resolution_that_never_ends_is_a_draw_under_the_draw_rule_of_the_date(key, rule):
    out = settle(key, RESOLUTION_DRAW)
    assert out.result.value == "draw"
    assert rule in out.rules


def test_a_chooser_inside_a_resolution_who_never_stops_is_made_to():
    toml = """
    format = 2
    title = "which replacement effect"
    players = ["Alice", "Bob"]
    [[step]]
    by = "Alice"
    does = "chooses which replacement effect applies"
    choice = true
    alternative = "the other one"
    [loop]
    within = "resolution"
    """
    for key in ALL:
        out = settle(key, toml)
        assert (out.result.value, out.iterations, out.deviates, out.stopped_by) == ("shortcut", UNBOUNDED, "Alice", StoppedBy.RULE), key
        assert any("Rules Tips" in n for n in out.notes)


def test_a_hidden_out_sets_judge_under_the_current_mtr_only():
    toml = """
    format = 2
    title = "hidden out"
    players = ["Alice", "Bob"]
    [[step]]
    by = "Alice"
    does = "a trigger"
    [[breaker]]
    by = "Bob"
    does = "casts the instant in hand"
    hidden = true
    """
    assert settle("mtr-current", toml).judge is True
    old = settle("mtr-2018", toml)
    assert old.judge is False and any("hidden" in n for n in old.notes)
    assert settle("cr-2024", toml).judge is False


def test_a_choice_in_a_mandatory_step_involves_its_controller():
    toml = """
    format = 2
    title = "Animate Dead"
    players = ["Alice", "Bob"]
    [[step]]
    by = "Alice"
    does = "returns the Dragon"
    choice = true
    alternative = "returns another creature card"
    [[step]]
    by = "Alice"
    does = "the Dragon's trigger"
    [intent]
    Alice = 4
    """
    out = settle("cr-2024", toml)
    assert (out.result.value, out.iterations, out.deviates) == ("shortcut", 4, "Alice")


def test_stopped_by_in_format_1():
    flying = registry().get("cr-2024").settle(scenario(FLYING).scenario)
    assert flying.stopped_by is StoppedBy.RULE  # 729.3: the active player must stop
    assert registry().get("mtr-current").settle(scenario(FLYING).scenario).stopped_by is StoppedBy.INTENT
    draw = registry().get("cr-2024").settle(scenario(FLYING.replace("optional = true", "optional = false")).scenario)
    assert draw.stopped_by is None


FLYING = """
title = "flying"
players = ["Alice", "Bob"]
[state]
flying = false
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


def test_the_outcome_fields_are_defined_once_in_the_documented_order():
    out = settle("cr-2004", DOUBLING.format(intent=2))
    assert list(out.to_json()) == [f.name for f in OUTCOME_FIELDS]
    assert list(out.to_json())[-10:-5] == ["ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations"]
    assert list(out.to_json())[-5:] == ["after_cut", "inner", "inner_results", "part", "parts"]


def test_the_loader_accepts_exactly_the_expectable_fields():
    # The loader keeps its own sets for now; they must name the same fields as the one definition.
    from loopcompare.comparator import loader
    from loopcompare.rulesets.outcome import EXPECT_KEYS_FORMAT_1, EXPECT_KEYS_FORMAT_2

    assert set(loader._EXPECT_KEYS_1) == EXPECT_KEYS_FORMAT_1
    assert set(loader._EXPECT_KEYS_2) == EXPECT_KEYS_FORMAT_2


def test_a_state_that_settles_on_a_floor_repeats_and_the_mtr_stops_a_random_loop_there():
    toml = """
    format = 2
    title = "draining to the floor"
    players = ["Alice", "Bob"]
    [state]
    mana = { start = 3, min = 0 }
    [[step]]
    by = "Alice"
    does = "shuffles and activates"
    optional = true
    random = true
    add = { mana = -1 }
    [[step]]
    by = "Bob"
    does = "a trigger"
    """
    loop = sc(toml)
    # mana 3 -> 2 -> 1 -> 0 -> 0: after Alice's fourth activation (3 iterations and 1 step) the
    # state is the one an iteration earlier; she next has a choice at the start of the fifth.
    assert facts_of(loop).first_repeat == CutPoint(3, 1)
    assert oracle.play_format2(loop, 7)["state"] == oracle.play_format2(loop, 5)["state"]
    assert oracle.play_format2(loop, 6)["state"] != oracle.play_format2(loop, 4)["state"]
    out = registry().get("mtr-current").settle(loop)
    assert (out.result.value, out.iterations, out.deviates, out.stopped_by) == ("no_shortcut", 4, "Alice", StoppedBy.RULE)
    assert out.state == {"mana": 0}


def test_a_loop_beyond_the_closed_form_is_unspecified_with_a_note(monkeypatch):
    import sys

    dynamics = sys.modules[Dynamics.__module__]
    # A side benefit paid every seventh iteration needs a seven-iteration block; with almost no
    # budget for playing blocks out, the engine gives up, and says so instead of failing.
    monkeypatch.setattr(dynamics, "PLAY_BUDGET", 10)
    toml = """
    format = 2
    title = "every seventh iteration"
    players = ["Alice", "Bob"]
    [state]
    mana = 0
    [[step]]
    by = "Alice"
    does = "makes mana"
    optional = true
    add = { mana = 1 }
    [[step]]
    by = "Alice"
    does = "may spend seven"
    optional = true
    sustains = false
    requires = { mana = 7 }
    add = { mana = -7 }
    """
    out = settle("cr-2024", toml)
    assert out.result.value == "unspecified"
    assert "closed form" in out.notes[0]
