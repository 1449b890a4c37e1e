"""Format 2's closed-form arithmetic (rulesets/dynamics.py), pinned piece by piece.

The engine's building blocks are pure functions of small integers: affine maps and their
composition, a map applied s times in closed form (``power``), the exact integer logarithm, the
bound check (``holds``) and the first block where a monotone sequence crosses a bound
(``first_block``).  Each is checked here against the obvious step-by-step computation over a
grid of small cases, so that a changed operator fails a test named after what it computes
(README, "Mutation testing").  The whole file runs in about a second.
"""

from __future__ import annotations

import itertools

import pytest

from loopcompare.rulesets import UNBOUNDED
from loopcompare.rulesets.bignum import Huge, equal, power_value
from loopcompare.rulesets.dynamics import IDENTITY, Affine, EngineLimit, _compose, _log_exact, _same, first_block, holds, power

GOOGOL = 10**100
MAPS = [Affine(m, a) for m in (0, 1, 2, 3) for a in (-2, -1, 0, 1, 2)]


def naive(f: Affine, s: int, x):
    """``f`` applied ``s`` times, one application at a time."""
    for _ in range(s):
        x = f.m * x + f.a if f.m else f.a
    return x


# --- affine maps ------------------------------------------------------------------------------------


def test_identity_is_exactly_x_to_x():
    assert Affine().identity and IDENTITY.identity and Affine(1, 0).identity
    assert not Affine(0, 0).identity  # assigning 0 is not leaving the value alone
    assert not Affine(1, 1).identity and not Affine(2, 0).identity
    assert not Affine(0, False).identity and not Affine(1, False).identity  # a boolean assignment


def test_then_is_composition_in_order():
    for f, g in itertools.product(MAPS, repeat=2):
        h = f.then(g)
        for x in range(-3, 4):
            assert h.apply(x) == g.apply(f.apply(x)), (f, g, x)


def test_then_keeps_boolean_assignments():
    assert Affine(2, 1).then(Affine(0, True)) == Affine(0, True)
    assert Affine(0, True).then(IDENTITY) == Affine(0, True)
    assert IDENTITY.then(Affine(0, False)).apply(5) is False


def test_apply_leaves_unbounded_and_booleans_alone_unless_assigning():
    f = Affine(2, 3)
    assert f.apply(UNBOUNDED) is UNBOUNDED
    assert f.apply(True) is True
    assert Affine(0, 7).apply(UNBOUNDED) == 7
    assert Affine(0, False).apply(3) is False
    assert f.apply(4) == 11 and Affine(1, -2).apply(4) == 2


def test_apply_to_a_huge_value_scales_it_exactly():
    x = power_value(3, 2, GOOGOL)
    assert equal(Affine(2, 5).apply(x), power_value(6, 2, GOOGOL, 5))
    assert equal(Affine(1, -1).apply(x), power_value(3, 2, GOOGOL, -1))
    assert IDENTITY.apply(x) is x


def test_compose_of_a_list_applies_each_in_order():
    fs = [Affine(2, 1), Affine(1, -3), Affine(3, 0)]
    assert _compose(fs).apply(5) == ((5 * 2 + 1) - 3) * 3
    assert _compose([]) == IDENTITY


# --- a map applied s times, in closed form -------------------------------------------------------------


@pytest.mark.parametrize("f", MAPS)
def test_power_equals_applying_the_map_s_times(f):
    for x in range(-3, 4):
        for s in range(0, 7):
            assert power(f, s, x) == naive(f, s, x), (f, s, x)


def test_power_of_zero_times_is_the_value_itself_even_for_an_assignment():
    assert power(Affine(0, 4), 0, 9) == 9
    assert power(Affine(0, 0), 3, 9) == 0
    assert power(Affine(0, True), 2, 9) is True


def test_power_leaves_unbounded_and_booleans_alone():
    assert power(Affine(2, 1), 5, UNBOUNDED) is UNBOUNDED
    assert power(Affine(1, 1), 5, UNBOUNDED) is UNBOUNDED
    assert power(Affine(2, 1), 5, False) is False
    assert power(Affine(1, 3), 5, True) is True


def test_power_of_a_sum_map_on_a_huge_value_adds_s_times_a():
    x = power_value(3, 2, GOOGOL, 1)
    assert equal(power(Affine(1, 2), 10, x), power_value(3, 2, GOOGOL, 21))
    assert equal(power(Affine(1, -2), 10, x), power_value(3, 2, GOOGOL, -19))


def test_power_of_a_googol_doublings_is_an_exact_power():
    assert equal(power(Affine(2, 0), GOOGOL, 3), power_value(3, 2, GOOGOL))
    # x -> 2x + 1 from 0: 2^s - 1
    assert equal(power(Affine(2, 1), GOOGOL, 0), power_value(1, 2, GOOGOL, -1))
    # x -> 3x - 2 from 5: fixed point 1, so 4 * 3^s + 1
    assert equal(power(Affine(3, -2), GOOGOL, 5), power_value(4, 3, GOOGOL, 1))
    # x -> 2x - 4 from 2: 2 is the fixed point, so 2 forever
    assert power(Affine(2, -2), GOOGOL, 2) == 2


def test_power_on_a_huge_value_multiplies_its_power_of_the_same_base():
    x = power_value(3, 2, GOOGOL)
    assert equal(power(Affine(2, 0), 5, x), power_value(3, 2, GOOGOL + 5))
    assert equal(power(Affine(4, 0), 5, x), power_value(3, 2, GOOGOL + 10))
    assert equal(power(Affine(8, 0), 2, x), power_value(3, 2, GOOGOL + 6))
    # 2^E - 1 under x -> 2x + 1 (fixed point -1): 2^(E+s) - 1
    y = power_value(1, 2, GOOGOL, -1)
    assert equal(power(Affine(2, 1), 3, y), power_value(1, 2, GOOGOL + 3, -1))
    # (2^E + 2)/3 under x -> 4x - 2 (fixed point 2/3): (2^(E+2s) + 2)/3
    z = power_value(1, 2, GOOGOL, 2, 3)
    assert equal(power(Affine(4, -2), 3, z), power_value(1, 2, GOOGOL + 6, 2, 3))


def test_power_refuses_a_huge_value_it_cannot_write_as_one_power():
    x = power_value(3, 2, GOOGOL)
    with pytest.raises(EngineLimit, match="another base"):
        power(Affine(3, 0), 2, x)
    with pytest.raises(EngineLimit, match="another fixed point"):
        power(Affine(2, 1), 2, x)  # fixed point -1, but x has d = 0


@pytest.mark.parametrize(
    "m, root, j", [(1, 2, 0), (2, 2, 1), (4, 2, 2), (8, 2, 3), (1024, 2, 10), (9, 3, 2), (27, 3, 3), (6, 2, None),
                   (3, 2, None), (12, 2, None), (10, 3, None)],
)
def test_exact_logarithm(m, root, j):
    assert _log_exact(m, root) == j


# --- bounds -----------------------------------------------------------------------------------------


def test_holds_is_at_most_or_at_least_inclusive():
    assert holds(3, 3, True) and holds(2, 3, True) and not holds(4, 3, True)
    assert holds(3, 3, False) and holds(4, 3, False) and not holds(2, 3, False)
    assert not holds(UNBOUNDED, 3, True) and not holds(UNBOUNDED, 3, False)
    assert not holds(True, 0, False) and not holds(False, 5, True)
    big, neg = power_value(1, 2, GOOGOL), power_value(-1, 2, GOOGOL)
    assert holds(big, 10**9, False) and not holds(big, 10**9, True)
    assert holds(neg, -(10**9), True) and not holds(neg, -(10**9), False)


def brute_first_block(x0, f, q, bound, at_most, start, horizon=40):
    x = naive(f, start, x0)
    for s in range(start, horizon):
        if holds(q.apply(x), bound, at_most):
            return s
        x = f.apply(x)
    return None


QS = [Affine(m, a) for m in (0, 1, 2) for a in (-1, 0, 1)]


@pytest.mark.parametrize("f", MAPS)
def test_first_block_is_the_first_s_where_the_sequence_crosses_the_bound(f):
    for q, bound, at_most, x0, start in itertools.product(QS, (-5, 0, 3, 10), (True, False), (-3, 0, 2, 5), (0, 1, 2)):
        got = first_block(x0, f, q, bound, at_most, start)
        want = brute_first_block(x0, f, q, bound, at_most, start)
        assert got == want, dict(f=f, q=q, bound=bound, at_most=at_most, x0=x0, start=start)


def test_first_block_of_a_long_sum_is_a_division_not_a_walk():
    # 0, 1, 2, ...: 10^30 is first reached at s = 10^30.
    assert first_block(0, Affine(1, 1), IDENTITY, 10**30, False) == 10**30
    assert first_block(0, Affine(1, -3), IDENTITY, -(10**30), True) == -(-(10**30) // 3)
    # 2 * (5 + s) + 1 >= 10^30: s = ceil((10^30 - 11) / 2)
    assert first_block(5, Affine(1, 1), Affine(2, 1), 10**30, False) == -(-(10**30 - 11) // 2)
    assert first_block(5, Affine(1, 1), IDENTITY, 3, True) is None  # moving away


def test_first_block_of_a_product_is_an_exact_logarithm():
    # 3 * 2^s >= 10^30: s = ceil(log2(10^30 / 3)).
    s = first_block(3, Affine(2, 0), IDENTITY, 10**30, False)
    assert 3 * 2 ** (s - 1) < 10**30 <= 3 * 2**s
    # going down from below the fixed point: -1 * 2^s <= -10^20
    s = first_block(-1, Affine(2, 0), IDENTITY, -(10**20), True)
    assert -(2 ** (s - 1)) > -(10**20) >= -(2**s)
    assert first_block(1, Affine(2, -1), IDENTITY, 100, False) is None  # 1 is the fixed point
    assert first_block(3, Affine(2, 0), IDENTITY, -5, True) is None  # growing, never down


def test_first_block_of_a_huge_start_goes_by_its_sign():
    big = power_value(3, 2, GOOGOL)
    assert first_block(big, Affine(2, 0), IDENTITY, 10, False, start=1) == 1
    assert first_block(big, Affine(2, 0), IDENTITY, 10, True, start=1) is None
    with pytest.raises(EngineLimit, match="come back down"):
        first_block(big, Affine(1, -1), IDENTITY, 10, True, start=1)


def test_same_tells_unbounded_and_booleans_apart_from_numbers():
    assert _same(UNBOUNDED, UNBOUNDED) and not _same(UNBOUNDED, 1) and not _same(1, UNBOUNDED)
    assert _same(True, True) and not _same(True, 1) and not _same(1, True) and not _same(False, 0)
    assert _same(3, 3) and not _same(3, 4)
    assert isinstance(power_value(1, 2, GOOGOL), Huge)
    assert _same(power_value(1, 2, GOOGOL), power_value(1, 2, GOOGOL))


# --- the compiled loop: a few behaviours that only show on a whole scenario ------------------------


def engine(toml: str):
    from helpers import scenario
    from loopcompare.rulesets.dynamics import Dynamics

    return Dynamics(scenario(toml).scenario)


PINGS = """
format = 2
title = "pings"
players = ["Alice", "Bob", "Carol"]
[state]
life = {{ Bob = 3, Carol = 5 }}
[[step]]
by = "{by}"
does = "pings an opponent"
optional = true
target = {{ among = ["Bob", "Carol"], order = "rotate" }}
add = {{ life = -1 }}
times = {times}
[[end]]
when = {{ value = "life", at_most = 0 }}
effect = "{effect}"
{loses}
"""


def test_the_rotation_period_counts_the_targets_still_present_and_the_times_per_step():
    d = engine(PINGS.format(by="Alice", times=1, effect="that player loses", loses="loses = true"))
    assert d.period(("Alice", "Bob", "Carol")) == 2
    assert d.period(("Alice", "Bob")) == 1  # only Bob left to target
    assert d.period(("Bob", "Carol")) == 1  # the step's controller left: it no longer rotates
    d = engine(PINGS.format(by="Alice", times=2, effect="that player loses", loses="loses = true"))
    assert d.period(("Alice", "Bob", "Carol")) == 1  # two pings an iteration: back where it started


def test_an_end_on_a_per_player_value_without_loses_ends_the_loop_and_eliminates_nobody():
    d = engine(PINGS.format(by="Alice", times=1, effect="the loop ends", loses=""))
    run = d.natural
    assert run.stop is not None and run.stop.kind == "end" and run.stop.effect == "the loop ends"
    assert run.eliminations == []
    # Bob, Carol, Bob, Carol, Bob: Bob reaches 0 at the fifth ping.
    assert run.stop.position == 5 and run.state["life"] == {"Bob": 0, "Carol": 3}


def test_an_end_with_loses_true_eliminates_each_player_whose_value_reaches_it():
    d = engine(PINGS.format(by="Alice", times=1, effect="that player loses", loses="loses = true"))
    run = d.natural
    assert [(e.player, e.position) for e in run.eliminations] == [("Bob", 5), ("Carol", 8)]
    assert run.stop.kind == "gameover" and run.stop.player == "Alice"
