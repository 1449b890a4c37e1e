"""The format 2 engine's blocks when amounts couple the values (docs/FORMAT.md "Format 3", item 28).

Format 2's engine (:mod:`.dynamics`) follows each value by its own map ``x -> m*x + a``.  An
amount that reads other values (``add = { mana = "power" }``) couples them: one application of
the step is an affine map of the whole integer state, ``v -> A v + b`` (:class:`~.linear.AffineMap`).
The engine still plays one block application by application; this module records, beside its
trace, the joint map of every application and, for every guard it checks (a requirement, a floor,
an end, a goal), the exact affine functional of the block's starting state that the guard read.
The jump to the first block where a guard's outcome changes is then :func:`~.linear.first_reach`
on the block's joint map, and the state there :func:`~.linear.value_at`: exact, in closed form.

Only the hooks in :mod:`.dynamics` call this; it imports :mod:`.linear` and :mod:`.bignum` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .bignum import Huge
from .linear import AffineMap, Amount, Functional, LinearLimit, NotMonotone, Value, first_reach, first_repeat, period, value_at
from .values import Unsettleable

Component = Any
"""A plain value's name, or (name, player) for one player's entry (as in :mod:`.dynamics`)."""


class AmountLimit(Unsettleable):
    """An engine limit met while settling amounts, with where it is: ``step N add.VALUE``
    (bad input for every command: exit 2, never a guess)."""


@dataclass(frozen=True)
class StepInfo:
    """What one application of a step does to each value it names (before targets and clamps)."""

    mul: Mapping[str, int]
    add: Mapping[str, int]
    amounts: Mapping[str, Amount]
    assign: Mapping[str, Any]


class Joint:
    """The coupled integer components of a loop with amounts, in a fixed order."""

    def __init__(self, components: Sequence[Component], steps: Sequence[StepInfo], where: str) -> None:
        self.components = tuple(components)
        self.index = {c: i for i, c in enumerate(self.components)}
        self.names = tuple(c if isinstance(c, str) else f"{c[0]}.{c[1]}" for c in self.components)
        self.steps = tuple(steps)
        #: Where an engine limit is reported: the first amount's step and key (``step N add.VALUE``).
        self.where = where

    def trace(self) -> "JointTrace":
        return JointTrace(self)

    def row(self, j: int, comp: Component, name: str) -> tuple[tuple[int, ...], int]:
        """The unclamped effect of one application of step ``j`` on ``comp``: its new value as
        an affine function of the values at the start of the application (FORMAT item 28)."""
        info = self.steps[j]
        size = len(self.components)
        row = [0] * size
        i = self.index[comp]
        if name in info.assign:
            return tuple(row), int(info.assign[name])
        row[i] = info.mul.get(name, 1)
        const = info.add.get(name, 0)
        amount = info.amounts.get(name)
        if amount is not None:
            for other, c in amount.coefficients:
                row[self.index[other]] += c
            const += amount.constant
        return tuple(row), const

    def evaluate(self, amount: Amount, values: Mapping[Component, Any]) -> int:
        """An amount on the values of this moment (plain integer values)."""
        total = amount.constant
        for name, c in amount.coefficients:
            v = values[name]
            if isinstance(v, Huge) or not isinstance(v, int):
                raise AmountLimit(self.where, f"the engine cannot settle this amount in closed form ({name} is too large to read exactly)")
            total += c * v
        return total

    def vector(self, values: Mapping[Component, Any]) -> tuple[int, ...]:
        out = []
        for comp in self.components:
            v = values[comp]
            if isinstance(v, Huge) or not isinstance(v, int):
                raise AmountLimit(self.where, "a value too large to follow exactly while amounts read it")
            out.append(v)
        return tuple(out)


@dataclass
class JointTrace:
    """The joint maps of one traced block: ``prefix`` is the map from the block's start to the
    last completed application; ``pending`` the rows of the application in progress."""

    joint: Joint
    prefix: AffineMap = field(init=False)
    pending: dict[int, tuple[tuple[int, ...], int]] = field(default_factory=dict)
    step: int = 0
    guards: list[tuple[Functional, int, bool, bool]] = field(default_factory=list)
    #: the functional of every component at each traced position (after each whole step)
    at_position: dict[int, AffineMap] = field(default_factory=dict)
    #: the traced block's starting state, once :meth:`flip` has read it
    origin: tuple[int, ...] = ()
    _states: list[tuple[int, ...]] = field(default_factory=list)
    _states_key: Any = None
    #: :meth:`still_at`'s answers for these states, by position (with the map traced there)
    _still: dict[int, tuple[AffineMap | None, dict[Component, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.prefix = AffineMap.identity(self.joint.names)

    @property
    def index(self) -> Mapping[Component, int]:
        """The coupled components (and their places in the joint state)."""
        return self.joint.index

    def _commit(self) -> None:
        if not self.pending:
            return
        m = self.prefix
        rows = [list(r) for r in m.linear]
        shift = list(m.shift)
        new_rows = list(rows)
        new_shift = list(shift)
        for i, (row, const) in self.pending.items():
            # the new value of i, over the block's start: row . (prefix v) + const
            new_rows[i] = [sum(row[k] * rows[k][c] for k in range(len(row))) for c in range(len(row))]
            new_shift[i] = sum(row[k] * shift[k] for k in range(len(row))) + const
        self.prefix = AffineMap(m.names, tuple(tuple(r) for r in new_rows), tuple(new_shift))
        self.pending = {}

    def begin(self, j: int) -> None:
        """An application of step ``j`` starts: the previous one is complete."""
        self._commit()
        self.step = j

    def mark(self, position: int) -> None:
        """A whole step ended at ``position``."""
        self._commit()
        self.at_position[position] = self.prefix

    def apply(self, comp: Component, clamp: Any) -> None:
        """``comp`` took its new value in this application: the step's own effect, or (``clamp``
        not None) the floor or ceiling it was clamped to."""
        i = self.joint.index.get(comp)
        if i is None:
            return
        if clamp is not None:
            self.pending[i] = ((0,) * len(self.joint.components), int(clamp))
        else:
            self.pending[i] = self.joint.row(self.step, comp, comp if isinstance(comp, str) else comp[0])

    def now(self, comp: Component, unclamped: bool) -> Functional | None:
        """The value of ``comp`` now (or, ``unclamped``, the step's effect on it before its clamp)
        as a functional of the block's starting state."""
        i = self.joint.index.get(comp)
        if i is None:
            return None
        if unclamped:
            row, const = self.joint.row(self.step, comp, comp if isinstance(comp, str) else comp[0])
        elif i in self.pending:
            row, const = self.pending[i]
        else:
            return Functional(self.prefix.linear[i], self.prefix.shift[i])
        p = self.prefix
        weights = tuple(sum(row[k] * p.linear[k][c] for k in range(len(row))) for c in range(len(row)))
        return Functional(weights, sum(row[k] * p.shift[k] for k in range(len(row))) + const)

    def guard(self, comp: Component, unclamped: bool, bound: int, at_most: bool, outcome: bool) -> None:
        fn = self.now(comp, unclamped)
        if fn is not None:
            self.guards.append((fn, bound, at_most, outcome))

    def block_map(self) -> AffineMap:
        self._commit()
        return self.prefix

    # --- the jump ------------------------------------------------------------------------------

    def flip(self, start: Mapping[Component, Any]) -> int | None:
        """The first block ``s >= 1`` in which some guard's outcome differs from the traced
        block's (block 0); None if none ever does."""
        f = self.block_map()
        x0 = self.origin = self.joint.vector(start)
        best: int | None = None
        for fn, bound, at_most, outcome in self.guards:
            # the first block whose check comes out the other way
            if at_most:
                b, most = (bound + 1, False) if outcome else (bound, True)
            else:
                b, most = (bound - 1, True) if outcome else (bound, False)
            try:
                s = first_reach(f, x0, fn, b, most, start=1)
            except NotMonotone as exc:
                raise AmountLimit(self.joint.where, str(exc)) from None
            except LinearLimit as exc:
                raise AmountLimit(self.joint.where, f"the engine cannot settle this amount in closed form ({exc})") from None
            if s is not None and (best is None or s < best):
                best = s
                if best == 1:
                    break
        return best

    def values_after(self, start: Mapping[Component, Any], blocks: int) -> dict[Component, Value]:
        """Every coupled component after ``blocks`` blocks from ``start``."""
        f = self.block_map()
        x0 = self.joint.vector(start)
        try:
            return {
                comp: value_at(f, x0, Functional.of(self.joint.names, name), blocks)
                for comp, name in zip(self.joint.components, self.joint.names)
            }
        except LinearLimit as exc:
            raise AmountLimit(self.joint.where, f"the engine cannot settle this amount in closed form ({exc})") from None

    def repeat(self) -> int | None:
        """The first ``k >= 1`` blocks after which the traced block's starting state comes back."""
        return first_repeat(self.block_map(), self.origin)

    def still_at(self, position: int) -> dict[Component, int]:
        """The components whose value at ``position`` of a block (a whole-step position of the
        traced one) is the same in every block after the traced one, with that value."""
        f = self.block_map()
        states = self._later_states(f)
        traced = self.at_position.get(position)
        kept = self._still.get(position)
        if kept is not None and kept[0] is traced:
            return dict(kept[1])
        inner = traced if traced is not None else AffineMap.identity(self.joint.names)
        out: dict[Component, int] = {}
        for i, comp in enumerate(self.joint.components):
            fn = Functional(inner.linear[i], inner.shift[i])
            seen = {fn(x) for x in states}
            if len(seen) == 1:
                out[comp] = seen.pop()
        self._still[position] = (traced, out)
        return dict(out)

    def _later_states(self, f: AffineMap) -> list[tuple[int, ...]]:
        """The block starts 1 to ``2 * dim + 2`` blocks after the traced one (a fixed number of
        applications of the block map, kept: every position's :meth:`still_at` reads them)."""
        key = (f, self.origin)
        if self._states_key != key:
            states, x = [], self.origin
            for _ in range(2 * len(self.origin) + 2):
                x = f.apply(x)
                states.append(x)
            self._states, self._states_key = states, key
            self._still = {}
        return self._states

    def drift(self, comp: Component) -> int:
        """+1 or -1 when ``comp`` grows without end in that direction, else 0."""
        f = self.block_map()
        x0 = self.origin
        fn = Functional.of(self.joint.names, self.joint.names[self.joint.index[comp]])
        values = [value_at(f, x0, fn, s) for s in range(2 * len(x0) + 2)]
        if len(set(values)) == 1:
            return 0
        far = value_at(f, x0, fn, 10**30 * _period(f, x0, fn))
        first = values[0]
        assert isinstance(first, int)
        if isinstance(far, int):
            return (far > first) - (far < first)
        return far.sign


def _period(f: AffineMap, x0: tuple[int, ...], fn: Functional) -> int:
    return period(f, x0, fn)


def info(step: Any) -> StepInfo:
    """The effects of a scenario step (its ``mul``, integer ``add``, ``amounts`` and ``set``)."""
    return StepInfo(dict(step.mul), dict(step.add), dict(getattr(step, "amounts", {}) or {}), dict(step.set))
