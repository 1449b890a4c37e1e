"""The closed form of rulesets/linear.py equals stepping the map one iteration at a time.

Random small affine maps ``v -> A v + b`` (seeded ``random``: the same cases on every run), each
checked against a naive oracle that applies the map once per iteration: the value after n
iterations, the first iteration at which a bound holds (or that none does within the horizon),
and the repeated state.  The default run is a few hundred maps; ``-m slow`` runs thousands.
"""

from __future__ import annotations

import random

import pytest

from loopcompare.rulesets.linear import AffineMap, Functional, NotMonotone, first_reach, first_repeat, value_at

HORIZON = 120


def random_map(rng: random.Random, unipotent: bool = False, signs: bool = True) -> AffineMap:
    dim = rng.randint(1, 3)
    names = tuple("xyz"[:dim])
    rows = []
    for i in range(dim):
        if unipotent:
            # upper triangular with ones on the diagonal, in a random order of the values
            row = [0] * dim
            row[i] = 1
            for j in range(i + 1, dim):
                row[j] = rng.randint(-2, 2)
        else:
            row = [rng.choice([-1, 0, 0, 1, 1, 2]) if signs else rng.choice([0, 0, 1, 1, 2]) for _ in range(dim)]
        rows.append(row)
    if unipotent:
        perm = list(range(dim))
        rng.shuffle(perm)
        rows = [[rows[perm.index(i)][perm.index(j)] for j in range(dim)] for i in range(dim)]
    shift = tuple(rng.randint(-3, 3) for _ in range(dim))
    return AffineMap(names, tuple(tuple(r) for r in rows), shift)


def orbit(f: AffineMap, state: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    out = [state]
    for _ in range(n):
        out.append(f.apply(out[-1]))
    return out


def random_functional(rng: random.Random, dim: int) -> Functional:
    if rng.random() < 0.6:
        i = rng.randrange(dim)
        return Functional(tuple(int(j == i) for j in range(dim)))
    return Functional(tuple(rng.randint(-2, 2) for _ in range(dim)), rng.randint(-3, 3))


def check_map(rng: random.Random, f: AffineMap, counts: dict[str, int]) -> None:
    state = tuple(rng.randint(-4, 4) for _ in range(f.dim))
    fn = random_functional(rng, f.dim)
    seq = orbit(f, state, HORIZON)
    values = [fn(v) for v in seq]
    # the value after n iterations (ints only: the horizon keeps values small)
    for n in (0, 1, 2, 7, 30, HORIZON):
        assert value_at(f, state, fn, n) == values[n], (f, state, fn, n)
    # the first n >= start at which a bound holds
    start = rng.choice([0, 0, 1, 3])
    at_most = rng.random() < 0.5
    pick = rng.choice(values[start:])
    bound = pick + rng.randint(-2, 2) if rng.random() < 0.8 else rng.randint(-50, 50)
    expected = next((n for n in range(start, HORIZON + 1) if (values[n] <= bound if at_most else values[n] >= bound)), None)
    try:
        got = first_reach(f, state, fn, bound, at_most, start)
    except NotMonotone:
        assert not f.unipotent, "a unipotent map always has an exact answer"
        counts["refused"] += 1
        return
    counts["settled"] += 1
    if expected is not None:
        assert got == expected, (f, state, fn, bound, at_most, start)
    else:
        assert got is None or got > HORIZON, (f, state, fn, bound, at_most, start, got)
        if got is not None:
            v = value_at(f, state, fn, got)
            assert (v <= bound) if at_most else (v >= bound)
    # the repeated state: the first k >= 1 with f^k(s) = s
    naive_repeat = next((k for k in range(1, HORIZON + 1) if seq[k] == state), None)
    got_repeat = first_repeat(f, state)
    if naive_repeat is not None:
        assert got_repeat == naive_repeat, (f, state)
    else:
        assert got_repeat is None or (got_repeat > HORIZON and f.power(got_repeat).apply(state) == state)


def run(seed: int, cases: int) -> dict[str, int]:
    rng = random.Random(seed)
    counts = {"settled": 0, "refused": 0}
    for i in range(cases):
        kind = i % 3
        f = random_map(rng, unipotent=kind == 0, signs=kind != 2)
        check_map(rng, f, counts)
    return counts


def test_closed_form_equals_stepping_for_random_maps():
    counts = run(2026, 240)
    # most maps are settled exactly; only some oscillating ones are refused
    assert counts["settled"] > 3 * counts["refused"]


def test_unipotent_maps_are_always_settled_exactly():
    rng = random.Random(7)
    counts = {"settled": 0, "refused": 0}
    for _ in range(80):
        check_map(rng, random_map(rng, unipotent=True), counts)
    assert counts["refused"] == 0


def test_nonnegative_maps_are_always_monotone_where_the_increments_agree():
    # A >= 0 entrywise: the identity signs balance it, so refusals come only from increments of
    # mixed signs; with a nonnegative start and shift every increment stays >= 0 after one step.
    rng = random.Random(11)
    for _ in range(60):
        f = random_map(rng, signs=False)
        f = AffineMap(f.names, f.linear, tuple(abs(b) for b in f.shift))
        state = tuple(rng.randint(0, 4) for _ in range(f.dim))
        fn = Functional.of(f.names, f.names[0])
        values = [fn(v) for v in orbit(f, state, HORIZON)]
        bound = values[rng.randrange(HORIZON)] + 1
        expected = next((n for n, v in enumerate(values) if v >= bound), None)
        got = first_reach(f, state, fn, bound, False)
        assert got == expected or (expected is None and (got is None or got > HORIZON))


@pytest.mark.slow
def test_closed_form_equals_stepping_for_many_random_maps(request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")
    for seed in range(20):
        run(seed, 300)
