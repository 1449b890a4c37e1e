"""Inner loops (docs/FORMAT.md item 29) against a naive player: random small nests, played step by
step here (every outer step, every inner step, every goal check), must give the engine's closed
form answers: where the loop ends by itself (an inner point included) and the state at any point,
between steps or inside a run.  The engine jumps whole phases of the outer loop; this player never
does, so an error in how a run's length or guards carry over from block to block shows here.
"""

from __future__ import annotations

import random

import pytest

from loopcompare.rulesets.dynamics import Dynamics, RunLimit, order_key
from loopcompare.rulesets.joint import AmountLimit
from loopcompare.rulesets.linear import parse_amount
from loopcompare.rulesets.scenario import End, Goal, InnerLoop, InnerRun, Limits, Scenario, Step
from loopcompare.rulesets.values import CutPoint

NAMES = ("a", "b", "c")
OUTER_ITERATIONS = 30


def _step(rng: random.Random, *, inner: bool) -> Step:
    add = {n: rng.randint(-2, 3) for n in rng.sample(NAMES, rng.randint(1, 2))}
    mul = {n: 2 for n in NAMES if rng.random() < 0.1 and n not in add} if not inner else {}
    requires = {n: rng.randint(0, 2) for n in NAMES if rng.random() < 0.1} if not inner else {}
    return Step(by="Alice", does="x", add=add, mul=mul, requires=requires, priority=rng.random() < 0.7)


def random_nest(rng: random.Random, with_amounts: bool = False) -> Scenario:
    inner_steps = tuple(_step(rng, inner=True) for _ in range(rng.randint(1, 2)))
    # the goal's value is raised by the inner loop, so the run always ends
    goal_name = next(iter(inner_steps[0].add))
    fixed = dict(inner_steps[0].add)
    fixed[goal_name] = rng.randint(1, 3)
    rest = tuple(Step(by="Alice", does="i", add={k: abs(v) if k == goal_name else v for k, v in t.add.items()}, priority=t.priority) for t in inner_steps[1:])
    inner_steps = (Step(by="Alice", does="i", add=fixed, priority=inner_steps[0].priority),) + rest
    if rng.random() < 0.5:
        run = InnerRun(InnerLoop("m", inner_steps), times=rng.randint(0, 3))
    else:
        run = InnerRun(InnerLoop("m", inner_steps), until=Goal(goal_name, rng.randint(0, 12), False))
    outer = [_step(rng, inner=False) for _ in range(rng.randint(0, 2))]
    own = _step(rng, inner=False)
    amounts = {}
    if with_amounts and rng.random() < 0.6:
        # FORMAT item 28: the run's step's own effect reads the values (after its run)
        amounts = {rng.choice(NAMES): parse_amount(rng.choice(["a", "b + 1", "a + c", "2*b", "c - 1"]))}
    run_step = Step(by="Alice", does="r", add=own.add, amounts=amounts, requires=own.requires, optional=True, run=run)
    steps = outer[: rng.randint(0, len(outer))] + [run_step] + outer
    state = {n: rng.randint(0, 5) for n in NAMES}
    limits = {n: Limits(min=0) for n in NAMES if rng.random() < 0.5}
    ends = ()
    if rng.random() < 0.7:
        n = rng.choice(NAMES)
        ends = (End(n, state[n] + rng.randint(5, 60), False, "enough"),)
    return Scenario(title="t", players=("Alice", "Bob"), steps=tuple(steps), state=state, format=3, limits=limits, ends=ends)


class Stop(Exception):
    def __init__(self, key, state):
        self.key, self.state = key, state


def naive(scenario: Scenario):
    """Every point's state in play order, and where the loop ended by itself (None: it didn't)."""
    values = dict(scenario.state)
    size = len(scenario.steps)
    seen: dict = {}

    def clamp(name, v):
        lim = scenario.limits.get(name)
        return v if lim is None or lim.min is None else max(lim.min, v)

    def apply(step, key_after, checked=False):
        for name, need in ({} if checked else step.requires).items():
            if values[name] < need:
                raise RunLimit("", "requirement") if key_after[1] == 1 else Stop(("req",) + key_after, dict(values))
        new = {}
        for name in set(step.mul) | set(step.add) | set(step.amounts):
            amount = step.amounts.get(name)
            v = values[name] * step.mul.get(name, 1) + step.add.get(name, 0) + (amount.evaluate(values) if amount else 0)
            new[name] = clamp(name, v)
        values.update(new)
        for end in scenario.ends:
            if end.value in new and values[end.value] >= end.bound:
                raise Stop(key_after, dict(values))

    try:
        for n in range(OUTER_ITERATIONS):
            for k, step in enumerate(scenario.steps):
                position = n * size + k
                seen[order_key(position, None)] = dict(values)
                if step.run is not None:
                    run = step.run
                    inner = run.loop.steps
                    done = 0
                    for name, need in step.requires.items():  # the step's requirements come before its run
                        if values[name] < need:
                            raise Stop(("req",) + order_key(position + 1, None), dict(values))
                    while True:
                        if run.until is not None:
                            if values[run.until.value] >= run.until.bound:
                                break
                            if done > 1_000:
                                raise AssertionError("the generator makes runs that end")
                        elif done >= run.times:
                            break
                        for t, s in enumerate(inner):
                            if done or t:
                                seen[order_key(position, (done, t))] = dict(values)
                            after = (done, t + 1) if t + 1 < len(inner) else (done + 1, 0)
                            apply(s, order_key(position, after))
                        done += 1
                apply(step, order_key(position + 1, None), checked=step.run is not None)
    except Stop as stop:
        return seen, stop.key, stop.state
    return seen, None, None


def _point(dyn: Dynamics, key) -> CutPoint:
    position, flag, m, t = key
    return dyn.point(position, (m, t) if flag else None)


@pytest.mark.parametrize("with_amounts", [False, True], ids=["adds", "amounts"])
@pytest.mark.parametrize("seed", range(300))
def test_a_random_nest_agrees_with_step_by_step_play(seed, with_amounts):
    # With amounts: the run's step may read other values after its run (this found the joint
    # trace reading that step's amount as the run's last inner step's effect).
    rng = random.Random(seed)
    scenario = random_nest(rng, with_amounts)
    try:
        seen, stop, stop_state = naive(scenario)
    except RunLimit:
        with pytest.raises(RunLimit):
            Dynamics(scenario).natural  # noqa: B018  the engine refuses it too
        return
    dyn = Dynamics(scenario)
    try:
        natural = dyn.natural
    except AmountLimit:
        assert with_amounts, seed  # an engine limit (FORMAT item 28, exit 2): refused, never a guess
        return
    if stop is not None and stop[0] == "req":
        # a failed requirement: the loop's (a mandatory step) or its controller's stop (optional)
        assert natural.stop is not None and natural.stop.kind in ("requirement", "forced"), seed
        assert natural.state == stop_state, seed
        return
    if stop is None:
        assert natural.stop is None or order_key(natural.stop.position, natural.stop.inner) >= order_key(OUTER_ITERATIONS * len(scenario.steps), None)
    else:
        assert natural.stop is not None, (seed, stop)
        assert order_key(natural.stop.position, natural.stop.inner) == stop, seed
        assert natural.state == stop_state, seed
    keys = sorted(seen)
    for key in rng.sample(keys, min(12, len(keys))):
        if stop is not None and key >= stop:
            continue
        assert dyn.state_at(_point(dyn, key)) == seen[key], (seed, key)
