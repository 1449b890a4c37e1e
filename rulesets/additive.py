"""Format 1's closed form: every value moves by ``x -> (assign or x) + delta``.

A format 1 loop has plain values only, changed by assignments and additions.  Such maps compose
into the same shape, so a prefix of an iteration, a whole iteration and n iterations are each one
map: n iterations of "add d" is "add n*d"; n >= 1 iterations of an assignment is that assignment.
Nothing here loops over iterations.

:class:`Additive` answers the same questions as the format 2 engine (:class:`.dynamics.Dynamics`),
which covers format 1 too but costs more; :class:`.scenario.LoopFacts` picks one of the two when it
is built (:func:`engine_for`) and asks it, never branching per question.  The two closed forms are
checked against each other on generated format 1 loops (tests/test_format2_engine.py).
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping, NamedTuple, Union

from .dynamics import Elimination, Event
from .outcome import StateValue
from .scenario import EndsWhen, Goal, Scenario, Step, set_owners
from .values import UNBOUNDED, Count, CutPoint, Unbounded, Value, cached


class _Affine(NamedTuple):
    """x -> (assign if assigns else x) + delta (a named tuple: cheap to build, issue 27)."""

    assigns: bool = False
    assign: Union[bool, int] = 0
    delta: int = 0

    def then(self, other: "_Affine") -> "_Affine":
        """This map followed by ``other``."""
        if other.assigns:
            return other
        return _Affine(self.assigns, self.assign, self.delta + other.delta)

    def apply(self, x: Value) -> Value:
        """The map's value at ``x`` (which may be :data:`UNBOUNDED`)."""
        if self.assigns:
            base: Value = self.assign
        else:
            base = x
        if base is UNBOUNDED or isinstance(base, bool):
            return base
        return base + self.delta


_IDENTITY = _Affine()


def _step_map(step: Step, name: str) -> _Affine:
    assigns = name in step.set
    return _Affine(assigns, step.set.get(name, 0), step.add.get(name, 0))


class Additive:
    """The closed form of a loop whose values move by assignments and additions (format 1)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.size = len(scenario.steps)
        # prefix[name][k] is the map of the first k steps of an iteration.
        self._prefix: dict[str, list[_Affine]] = {}
        for name in scenario.state:
            last = _IDENTITY
            maps = [last]
            for step in scenario.steps:
                # last.then(_step_map(step, name)), inlined: an assignment replaces the prefix,
                # an addition adds to it, and a step that doesn't touch the value leaves it
                if name in step.set:
                    last = _Affine(True, step.set[name], step.add.get(name, 0))
                elif name in step.add:
                    last = _Affine(last.assigns, last.assign, last.delta + step.add[name])
                maps.append(last)
            self._prefix[name] = maps

    @cached
    def owners(self) -> tuple[str | None, ...]:
        """Which independent set each step belongs to (:func:`.scenario.set_owners`); only
        independent sets ask, so it is worked out when first asked for."""
        return set_owners(self.scenario.steps, self.scenario.format)

    # --- the engine's questions (the same as Dynamics answers) ------------------------------------

    stop_event: "Event | None" = None
    """Format 1 loops stop by themselves only at their ``ends_when`` (:attr:`end`)."""
    forced_stop: "Event | None" = None
    """Format 1 has no requirements: no optional step is ever forced to stop."""

    def eliminations_until(self, point: CutPoint) -> "list[Elimination]":
        """Nobody leaves a format 1 loop (its ends have no ``loses``)."""
        return []

    def losses_at(self, state: "Mapping[str, StateValue]", present: tuple[str, ...], active: str) -> list[tuple[str, str]]:
        """Nobody loses when a repetition stops: format 1 ends make nobody lose."""
        return []

    def stop_losses(self, state: "Mapping[str, StateValue]", present: tuple[str, ...], active: str) -> "tuple[list[tuple[str, str]], dict[str, StateValue], list[tuple[int, str | None]]]":
        """Nobody loses, nothing is replaced: format 1 has neither."""
        return [], dict(state), []

    def replacements_until(self, point: CutPoint) -> "list[tuple[CutPoint, int, str | None]]":
        """Format 1 ends replace nothing."""
        return []

    def state_at(self, point: CutPoint) -> "dict[str, StateValue]":
        """Every tracked value at a cut point."""
        return {name: self._prefix[name][point.steps].apply(self._iterated(name, point.iterations)) for name in self.scenario.state}

    def repeat_count(self, repeat: CutPoint) -> Count:
        """How many iterations a player attempting a non-deterministic loop may perform before the
        repeated state stops them: the first iteration already brings it back (DOMAIN section 6)."""
        return 1

    def repeat_stop(self, own: CutPoint, following: CutPoint | None) -> CutPoint:
        """Where that player stops: their own point after :meth:`repeat_count` iterations."""
        return own

    def goal_iterations(self, goal: Goal) -> int | None:
        """The first number of complete iterations after which a goal on a plain value holds."""
        if goal.player is not None:
            return None
        ends = EndsWhen(goal.value, goal.bound, goal.at_most)
        found = _first_n(_Affine(), self._prefix[goal.value][-1], self._start(goal.value), ends, _holds(ends))
        return found[0] if found else None

    @property
    def net_changes(self) -> dict[str, int]:
        """Each integer's net change over one iteration, once the loop is under way."""
        out = {}
        for name, start in self.scenario.state.items():
            whole = self._prefix[name][-1]
            if not isinstance(start, bool):
                out[name] = 0 if whole.assigns else whole.delta
        return out

    @property
    def state_repeats(self) -> bool:
        """True when every tracked integer's net change per iteration is zero (DOMAIN section 3)."""
        return not any(self.net_changes.values())

    @property
    def first_repeat(self) -> CutPoint | None:
        """The first point where the state equals the state one iteration earlier, or None.

        The state repeats iff every integer's net change per iteration is zero; each value is
        then periodic from the first iteration on, so the first repeat is at the second or third
        visit of some point of the loop (docs/DOMAIN.md section 3).
        """
        if not self.state_repeats:
            return None
        for k in range(self.size):
            if self.state_at(CutPoint(1, k)) == self.state_at(CutPoint(0, k)):
                return CutPoint(1, k)
        return CutPoint(2, 0)

    @property
    def end(self) -> CutPoint | None:
        """The first point at which ``ends_when`` holds, or None if it never does."""
        ends = self.scenario.loop.ends_when
        if ends is None:
            return None
        holds = _holds(ends)
        start = self._start(ends.value)
        if holds(start):
            return CutPoint(0, 0)
        maps = self._prefix[ends.value]
        whole = maps[-1]
        best: int | None = None
        for k in range(self.size):
            for n in _first_n(maps[k], whole, start, ends, holds):
                pos = n * self.size + k
                if pos > 0 and (best is None or pos < best):
                    best = pos
                break
        return None if best is None else CutPoint(*divmod(best, self.size))

    # --- independent sets ----------------------------------------------------------------------

    def sets_end(self, counts: Mapping[str, Count]) -> "tuple[int, int, dict[str, StateValue]] | None":
        """Where ``ends_when`` first holds while independent sets run their own counts, if it does:
        (the iteration, how many of its steps had their turn, the state then).

        Closed form, phase by phase: within a phase the running steps repeat like a smaller loop.
        """
        ends = self.scenario.loop.ends_when
        if ends is None:
            return None
        holds = _holds(ends)
        value: Value = self._start(ends.value)
        steps = self.scenario.steps
        for done, running, reps in self._phases(counts):
            if reps == 0 or not running:
                continue
            maps = [_Affine()]
            for i in running:
                maps.append(maps[-1].then(_step_map(steps[i], ends.value)))
            best = None
            for k in range(1, len(running) + 1):
                for n in _first_n(maps[k], maps[-1], value, ends, holds):
                    if (reps is UNBOUNDED or n < reps) and (best is None or (n, k) < best):
                        best = (n, k)
            if best is not None:
                n, k = best
                state: dict[str, StateValue] = {}
                for name in self.scenario.state:
                    m = _Affine()
                    for i in running[:k]:
                        m = m.then(_step_map(steps[i], name))
                    state[name] = m.apply(self._phase_value(name, counts, done + n))
                # Steps 0 .. running[k - 1] of iteration done + n have had their turn.
                return done + n, running[k - 1] + 1, state
            value = _power(maps[-1], reps, value)
        return None

    def state_with_counts(self, counts: Mapping[str, Count]) -> "dict[str, StateValue]":
        """The state when each independent set has run its own number of times.

        The sets are taken to run side by side, each stopping after its own count: phase by
        phase, the steps of the sets still running are repeated, one closed-form map a phase.
        """
        finite = sorted({c for c in counts.values() if c is not UNBOUNDED})
        bounds: list[Count] = list(finite) + ([UNBOUNDED] if UNBOUNDED in counts.values() else [])
        result: dict[str, StateValue] = {}
        for name in self.scenario.state:
            value: Value = self._start(name)
            done = 0
            for bound in bounds:
                running = [s for s, o in zip(self.scenario.steps, self.owners) if o is None or _reaches(counts.get(o, 0), bound)]
                whole = _Affine()
                for s in running:
                    whole = whole.then(_step_map(s, name))
                reps: Count = UNBOUNDED if bound is UNBOUNDED else bound - done
                value = _power(whole, reps, value)
                if bound is not UNBOUNDED:
                    done = bound
            result[name] = value
        return result

    # --- arithmetic --------------------------------------------------------------------------------

    def _iterated(self, name: str, n: Count) -> Value:
        """The value of ``name`` after ``n`` complete iterations."""
        start = self._start(name)
        whole = self._prefix[name][-1]
        if n == 0:
            return start
        if whole.assigns:
            return whole.apply(start)
        if whole.delta == 0 or isinstance(start, bool):
            return start
        if n is UNBOUNDED:
            return UNBOUNDED
        return start + n * whole.delta

    def _start(self, name: str) -> bool | int:
        """The starting value of a plain value (this closed form knows no other kind)."""
        start = self.scenario.state[name]
        assert type(start) is not dict, f"{name} is a per-player value"  # (the loader's dicts: not typing.Mapping, slow)
        return start  # type: ignore[return-value]

    def _phases(self, counts: Mapping[str, Count]) -> Iterator[tuple[int, tuple[int, ...], Count]]:
        """The side-by-side run of independent sets, phase by phase: (steps running, repetitions)."""
        finite = sorted({c for c in counts.values() if c is not UNBOUNDED})
        bounds: list[Count] = list(finite) + ([UNBOUNDED] if UNBOUNDED in counts.values() else [])
        done = 0
        for bound in bounds:
            running = tuple(i for i, o in enumerate(self.owners) if o is None or _reaches(counts.get(o, 0), bound))
            reps: Count = UNBOUNDED if bound is UNBOUNDED else bound - done
            yield done, running, reps
            if bound is not UNBOUNDED:
                done = bound

    def _phase_value(self, name: str, counts: Mapping[str, Count], upto: int) -> Value:
        """The value of ``name`` after the sets have run side by side for ``upto`` iterations."""
        capped = {p: (upto if c is UNBOUNDED or c > upto else c) for p, c in counts.items()}
        value = self.state_with_counts(capped)[name]
        assert isinstance(value, (bool, int, Unbounded)), "format 1's closed form has plain values only"
        return value


def _first_n(prefix: _Affine, whole: _Affine, start: Value, ends: EndsWhen, holds: Callable[[Value], bool]) -> list[int]:
    """The smallest n >= 0 with ``holds(prefix(whole^n(start)))``, as a 0- or 1-item list."""
    if holds(prefix.apply(start)):
        return [0]
    after_one = prefix.apply(whole.apply(start))
    if whole.assigns or prefix.assigns or whole.delta == 0:
        # From one iteration on the value no longer depends on n.
        return [1] if holds(after_one) else []
    # Linear: value(n) = after_one + (n - 1) * delta (an integer: only an assignment gives a boolean).
    assert isinstance(after_one, int)
    gap = ends.bound - after_one
    delta = whole.delta
    if ends.at_most:
        if delta >= 0:
            return [1] if after_one <= ends.bound else []
        return [1 + max(0, -(-gap // delta))] if gap < 0 else [1]
    if delta <= 0:
        return [1] if after_one >= ends.bound else []
    return [1 + max(0, -(-gap // delta))] if gap > 0 else [1]


def _holds(ends: EndsWhen) -> Callable[[Value], bool]:
    """Whether a plain value meets ``ends_when``'s bound (an unbounded value never does)."""

    def holds(value: Value) -> bool:
        if isinstance(value, Unbounded):
            return False
        return value <= ends.bound if ends.at_most else value >= ends.bound

    return holds


def _reaches(count: Count, bound: Count) -> bool:
    """True when a set with ``count`` repetitions is still running in the phase up to ``bound``."""
    if count is UNBOUNDED:
        return True
    return bound is not UNBOUNDED and count >= bound


def _power(whole: _Affine, reps: Count, value: Value) -> Value:
    """``whole`` applied ``reps`` times to ``value``, in closed form."""
    if reps == 0:
        return value
    if whole.assigns:
        return whole.apply(value)
    if whole.delta == 0 or value is UNBOUNDED or isinstance(value, bool):
        return value
    if reps is UNBOUNDED:
        return UNBOUNDED
    return value + reps * whole.delta
