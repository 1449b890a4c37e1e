"""Format 2's closed form: how the loop's values move, when it ends, who leaves, what repeats.

Every value the loop tracks is a *component*: a plain value (``tokens``) or one player's entry of
a per-player value (``("life", "Bob")``).  Each application of a step changes each component by
an affine map ``x -> m*x + a`` (an assignment is ``m = 0``), and the components never read one
another: what couples them are the *guards* checked along the way (a requirement, a floor or
ceiling that starts or stops binding, an ``[[end]]`` bound, a goal) and the players who leave.

The engine runs the loop in *blocks*: a block is a whole number of rotation cycles (one cycle:
the iterations after which every rotating target is back where it started; one iteration when
nothing rotates).  It plays one block application by application, recording every guard's
outcome, so that each component's map over the block is one affine map ``F`` and its value at
any guard of block ``s`` is ``Q(F^s(x0))``: a monotone sequence in ``s`` (every multiplier is
>= 0).  The first block in which any guard's outcome would differ is then found by integer
arithmetic (a division for sums, an exact integer logarithm for products), and the loop jumps
there in closed form.  The block where something changes is played out, and the next *phase*
starts (docs/FORMAT.md "Format 2", item 3).  An elimination changes who is in the game and so starts
a new phase too.  The number of phases is bounded by the players, values and guards, never by
the number of iterations; where a guard flips back and forth periodically (a side benefit that
can be paid every other iteration), the block is lengthened to a multiple of that period.

Values too large to write (more than 1,000 digits) are kept as exact expressions
(:class:`~loopcompare.rulesets.bignum.Huge`), never computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, NamedTuple, Sequence, Union

from .joint import AmountLimit, Joint, JointTrace
from .linear import HugeSum, first_repeat
from .joint import info as _joint_info
from .bignum import Huge, TooLarge, compare, power_value
from .outcome import StateValue
from .scenario import End, Goal, Limits, Scenario, Step, set_owners
from .values import UNBOUNDED, Count, CutPoint, Unbounded, Unsettleable

Component = Union[str, tuple[str, str]]
"""A plain value's name, or (name, player) for one player's entry of a per-player value."""

Amount = Union[bool, int, Huge, HugeSum, Unbounded]
"""A component's value: a boolean, an integer (a :class:`Huge` expression when too large to
write; a :class:`~.linear.HugeSum` of several such powers when format 3 amounts made it, FORMAT
item 28), or UNBOUNDED (only in the state of a loop that goes on forever)."""

Guard = tuple[Component, int, "Affine", int, bool, bool]
"""One check in a traced block: the component, how many of its maps came before, the map
applied before the check, the bound, whether it is an upper bound, and the outcome it had."""

Regime = tuple["_State", int, dict[Component, "Affine"], "_Trace", int]
"""A loop that goes on forever: (the state at the start of a block from which every block is
the same, where the traced block began, each component's map over a block, that block's trace,
the block's length in steps)."""

#: Applications the engine may play one by one in a single run before giving up (see TooLarge).
PLAY_BUDGET = 400_000
#: Inner iterations one run may play (FORMAT item 29): a run is played step by step inside the
#: traced block (its length is state-dependent), so a longer one is refused (:class:`RunLimit`).
RUN_LIMIT = 10_000
#: Block lengths tried, in rotation cycles, when guards flip back and forth.
_BLOCK_LENGTHS = (1, 2, 6, 12, 60, 420, 840, 2520)


def _too_irregular() -> EngineLimit:
    """The refusal of a loop whose guards change too irregularly (the budget as it stands now)."""
    return EngineLimit(
        "its guards change too irregularly for the closed form (more than "
        f"{PLAY_BUDGET:,} step applications would have to be played one by one)"
    )


class EngineLimit(TooLarge):
    """The loop is outside what the closed form handles (the message says why)."""


# --- affine maps -----------------------------------------------------------------------------------


class Affine(NamedTuple):
    """``x -> m*x + a``; ``m = 0`` is an assignment (of an integer or a boolean).

    A named tuple, not a frozen dataclass: the engine makes one per step application it
    composes, and a tuple is built several times faster (issue 27)."""

    m: int = 1
    a: Union[int, bool] = 0

    @property
    def identity(self) -> bool:
        return self.m == 1 and self.a == 0 and type(self.a) is not bool

    # then() and apply() unpack the tuple and test identity inline: the engine calls them for
    # every application it composes (issue 27).

    def then(self, other: "Affine") -> "Affine":
        """This map followed by ``other``."""
        om, oa = other
        if om == 0:
            return other
        if om == 1 and oa == 0 and type(oa) is not bool:
            return self
        sm, sa = self
        if sm == 0:
            value = other.apply(sa)
            assert isinstance(value, int)  # a map of an int or a bool is one (bool is an int)
            return Affine(0, value)
        return Affine(sm * om, om * sa + oa)

    def apply(self, x: Amount) -> Amount:
        """The map's value at ``x`` (an int, a bool, a :class:`Huge` or UNBOUNDED)."""
        m, a = self
        if m == 0:
            return a
        if (m == 1 and a == 0 and type(a) is not bool) or x is UNBOUNDED or isinstance(x, bool):
            return x
        if isinstance(x, (Huge, HugeSum)):
            return x.scale(m, a)
        return m * x + a


IDENTITY = Affine()

#: Nobody (the players spared by a payment, when none pays).
_NOBODY: frozenset[str] = frozenset()

#: A per-player value's entry limits when it has none.
_NO_LIMITS: "Mapping[str, Limits]" = {}


def power(f: Affine, s: int, x: Amount) -> Amount:
    """``f`` applied ``s`` times to ``x``, in closed form (exact; huge values as expressions)."""
    if s == 0 or (f.m == 1 and f.a == 0 and type(f.a) is not bool):  # f.identity, inline
        return x
    if f.m == 0:
        return f.a
    if x is UNBOUNDED or isinstance(x, bool):
        return x
    if f.m == 1:
        if isinstance(x, (Huge, HugeSum)):
            return x.scale(1, s * f.a)
        return x + s * f.a
    m, a = f.m, f.a
    if isinstance(x, HugeSum):
        # a sum of powers of several bases (FORMAT item 28) multiplied again and again
        raise EngineLimit("a sum of astronomically large powers multiplied again and again can't be written exactly by this version")
    # f^s(x) = m^s * (x - p) + p with the fixed point p = -a / (m - 1).
    if isinstance(x, Huge):
        if Fraction(x.d, x.k) != Fraction(-a, m - 1):
            raise EngineLimit("a huge value multiplied by a map with another fixed point can't be written exactly")
        root = x.base
        j = _log_exact(m, root)
        if j is None:
            raise EngineLimit("a huge value multiplied by another base can't be written as one power")
        return power_value(x.c * (m - 1), root, x.exponent + j * s, -a * x.k, x.k * (m - 1))
    return power_value((m - 1) * x + a, m, s, -a, m - 1)


def _log_exact(m: int, root: int) -> int | None:
    j, v = 0, 1
    while v < m:
        v *= root
        j += 1
    return j if v == m else None


def holds(value: Amount, bound: int, at_most: bool) -> bool:
    """``value <= bound`` (at_most) or ``value >= bound``; huge values compare by sign."""
    if type(value) is int:  # the common case, first (a bool's type is bool, not int)
        return value <= bound if at_most else value >= bound
    if value is UNBOUNDED or isinstance(value, bool):
        return False
    # a sum of huge powers (FORMAT item 28) is astronomically far from any bound: its sign decides
    c = value.sign if isinstance(value, HugeSum) else compare(value, bound)
    return c <= 0 if at_most else c >= 0


def first_block(x0: Amount, f: Affine, q: Affine, bound: int, at_most: bool, start: int = 1) -> int | None:
    """The smallest ``s >= start`` with ``q(f^s(x0))`` <= or >= ``bound``; None if there is none.

    ``f`` and ``q`` have multipliers >= 0, so the sequence is monotone from ``s = 1`` on (from
    ``s = 0`` when ``f`` is not an assignment): a division for sums, an exact integer logarithm
    (exponential then binary search on ``s``, never a walk) for products.
    """
    if start == 0:
        if holds(q.apply(x0), bound, at_most):
            return 0
        start = 1
    if q.m == 0:
        return start if holds(q.a, bound, at_most) else None
    # q(y) <= bound  <=>  y <= floor((bound - q.a) / q.m);  q(y) >= bound  <=>  y >= ceil(...)
    if at_most:
        yb = (bound - q.a) // q.m
    else:
        yb = -((q.a - bound) // q.m)

    def ok(y: Amount) -> bool:
        return holds(y, yb, at_most)

    m, a = f.m, f.a
    if m == 0 or (m == 1 and a == 0 and type(a) is not bool):  # f.identity, inline
        return start if ok(power(f, start, x0)) else None
    y_start = power(f, start, x0)
    if ok(y_start):
        return start
    if isinstance(y_start, (bool, Unbounded)):
        return None  # a boolean or an unbounded value never meets an integer bound (holds)
    if m == 1:
        toward = (a < 0) if at_most else (a > 0)
        if not toward:
            return None
        if isinstance(y_start, (Huge, HugeSum)):
            raise EngineLimit("a huge value would take an astronomical number of iterations to come back down")
        gap = (y_start - yb) if at_most else (yb - y_start)
        return start + -(-gap // abs(a))
    # m >= 2: moves away from the fixed point p = -a/(m-1), geometrically.
    p = Fraction(-a, m - 1)
    if isinstance(y_start, (Huge, HugeSum)):
        up = y_start.sign > 0
    else:
        if y_start == p:
            return None
        up = y_start > p
    if up == at_most:
        return None
    hi = 1
    while not ok(power(f, start + hi, x0)):
        hi *= 2
        if hi > 1 << 20:
            raise EngineLimit("a bound too far to reach")
    lo = hi // 2  # ok fails at start + lo (lo = 0: y_start)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(power(f, start + mid, x0)):
            hi = mid
        else:
            lo = mid
    return start + hi


# --- the compiled loop -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """Something that happens to the loop at a position (steps performed, as cut points count).

    ``kind``: ``"end"`` (an ``[[end]]`` ended it), ``"gameover"`` (one player is left),
    ``"draw"`` (every remaining player lost at once, CR 104.4a), ``"nosteps"`` (every step
    dropped out with its controller), ``"requirement"`` (a mandatory step's ``requires``
    failed: the loop ends), ``"forced"`` (an optional step's ``requires`` failed: its
    controller stops), ``"goal"`` (a goal was reached at an iteration's end),
    ``"elimination"`` (a player left; the loop goes on), ``"untargeted"`` (a player left and
    a step's ``target`` has nobody left to affect, so the loop can't go through it: ``step`` is
    that step, FORMAT item 20).
    """

    kind: str
    position: int
    effect: str = ""
    player: str | None = None
    step: int | None = None
    application: int = 0
    times: int = 1
    state: "Mapping[str, StateValue] | None" = None
    inner: "tuple[int, int] | None" = None
    """Inside a run (FORMAT item 29): ``position`` is the run's step's own position (the steps
    before it) and this the inner iterations and steps performed when it happened."""


@dataclass(frozen=True)
class Elimination:
    """A player who left, and where (the position right after the step that made them lose;
    inside a run, the run's step's position and the inner point, as for :class:`Event`)."""

    player: str
    position: int
    effect: str
    inner: "tuple[int, int] | None" = None

    @property
    def key(self) -> tuple[int, int, int, int]:
        """Its place in the order of cut points (:func:`order_key`)."""
        return order_key(self.position, self.inner)


def order_key(position: int, inner: "tuple[int, int] | None") -> tuple[int, int, int, int]:
    """Where a point falls in play order: a point inside the run of the step at ``position``
    comes after the point before that step and before the point after it (FORMAT item 29)."""
    if inner is None:
        return (position, 0, 0, 0)
    return (position, 1, inner[0], inner[1])


class RunLimit(Unsettleable):
    """A run that can't be settled exactly (FORMAT item 29): it can't reach its goal, a
    requirement fails first, or it is too long to play: exit 2, naming the step's ``run``."""


@dataclass(frozen=True)
class Replacement:
    """An end's action replaced once (``instead``, FORMAT item 26): where (the position right after
    the step), which end (its index in file order), whose loss (None: the loop's end)."""

    position: int
    end: int
    player: str | None


@dataclass
class Run:
    """What happens from the start to a limit: the stop (if the loop stopped first), who left,
    and the state at the stop or the limit.  ``forever`` is set when the limit was unbounded and
    the loop never stops by itself."""

    stop: Event | None
    eliminations: list[Elimination]
    state: "dict[str, StateValue]"
    position: int | None
    forever: bool = False
    present: tuple[str, ...] = ()
    regime: Regime | None = None
    """When ``forever``: how every block from then on repeats (:data:`Regime`)."""
    replaced: tuple[Replacement, ...] = ()
    """The replacements (``instead``) made on the way, in order."""
    at: "_State | None" = None
    """When the run reached its limit: the engine's own state there (rotation pointers and all),
    from which steps after a cut are played (:meth:`Dynamics.after_cut`)."""


@dataclass(frozen=True)
class AfterCut:
    """FORMAT item 24: the loop steps performed after a cut because they were on the stack.

    ``performed`` counts the positions passed (a step whose controller has left is passed too);
    ``stop`` is the event that ended them early (an end, the game over, a failed requirement),
    ``halted`` is set when a step's controller's own point fell there (it and the rest are not
    performed); ``eliminations`` are the players who left among them; ``state`` the values after.
    """

    performed: int
    stop: Event | None
    halted: bool
    eliminations: tuple[Elimination, ...]
    state: "dict[str, StateValue]"


class _State:
    """Where play is: the values, each rotating step's last target, who is present, the position.

    A plain class with slots (not a dataclass): the engine makes one per block it plays."""

    __slots__ = ("values", "pointers", "present", "position", "retired", "replaced")

    def __init__(
        self,
        values: dict[Component, Amount],
        pointers: dict[int, str],
        present: tuple[str, ...],
        position: int,
        retired: frozenset[str | None] = frozenset(),
        replaced: tuple["Replacement", ...] = (),
    ) -> None:
        self.values = values
        self.pointers = pointers
        self.present = present
        self.position = position
        #: Independent sets that have run their own number of times: their steps are skipped.
        self.retired = retired
        #: The ends whose action was replaced once (``instead``, FORMAT item 26), in order.
        self.replaced = replaced

    def copy(self) -> "_State":
        return _State(dict(self.values), dict(self.pointers), self.present, self.position, self.retired, self.replaced)


class _Trace:
    """One block as played: each component's maps in order, and every guard's outcome there
    (a plain class with slots: one is made per block played)."""

    __slots__ = ("maps", "guards", "positions", "joint")

    def __init__(self, joint: JointTrace | None = None) -> None:
        self.maps: dict[Component, list[Affine]] = {}
        self.guards: list[Guard] = []
        #: For each component, the position (step) at which each of its maps was applied.
        self.positions: dict[Component, list[int]] = {}
        #: With format 3 amounts (FORMAT item 28): the joint maps of the block (:mod:`.joint`).
        self.joint = joint

    def apply(self, comp: Component, f: Affine, position: int, clamped: bool = False) -> None:
        self.maps.setdefault(comp, []).append(f)
        self.positions.setdefault(comp, []).append(position)
        if self.joint is not None:
            self.joint.apply(comp, f.a if clamped else None)

    def guard(self, comp: Component, extra: Affine, bound: int, at_most: bool, outcome: bool, unclamped: bool = False) -> None:
        """A check of ``extra(value of comp now)`` against a bound, with the outcome it had
        (``unclamped``: a floor or ceiling checked on the step's effect before its clamp)."""
        self.guards.append((comp, len(self.maps.get(comp, ())), extra, bound, at_most, outcome))
        if self.joint is not None:
            self.joint.guard(comp, unclamped, bound, at_most, outcome)


class Dynamics:
    """The closed-form run of a scenario's loop (format 2 meanings; format 1 files agree)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.steps: tuple[Step, ...] = scenario.steps
        self.size = len(scenario.steps)
        self.per_player = set(scenario.per_player)
        self.limits = scenario.limits
        self.entry_limits = scenario.entry_limits
        #: Inside one resolution nobody loses mid-way (FORMAT item 18): state-based actions wait
        #: for priority, so the ends that make a player lose are checked when the repetition stops.
        self.resolution = scenario.loop.within == "resolution"
        self.ends: tuple[End, ...] = scenario.end_conditions
        order = scenario.players
        i = order.index(scenario.active)
        self.turn_order = order[i:] + order[:i]
        self.turns = self._turns()
        #: Every step the engine applies: the loop's own, then each inner loop's (FORMAT item 29)
        #: from ``self.inner_base[id]`` on; an inner step plays in the turn of the step running it.
        table = list(self.steps)
        self.inner_base: dict[str, int] = {}
        turns = list(self.turns)
        for j, step in enumerate(self.steps):
            run = step.run
            if run is not None and run.loop.id not in self.inner_base:
                self.inner_base[run.loop.id] = len(table)
                table.extend(run.loop.steps)
                turns.extend([self.turns[j]] * len(run.loop.steps))
        self.table: tuple[Step, ...] = tuple(table)
        self.table_turns = tuple(turns)
        if self.inner_base and any(e.instead is not None for e in self.ends):
            j = next(j for j, s in enumerate(self.steps) if s.run is not None)
            raise RunLimit(f"step {j + 1} run", "inner loops together with a replaced end ('instead') are not settled by this version")
        #: Where play is inside a run: the inner iterations and steps performed before the
        #: application in progress (None between outer steps).
        self._inner_at: tuple[int, int] | None = None
        self._inner_size = 0
        self._inner_apps = 0
        self._reached = False
        self._counted = 0
        self._maps = [self._step_maps(s) for s in self.table]
        #: The ends (index in file order, end) each table step's application can meet: those on
        #: a value the step changes (its maps, or the costs of a payment it offers).
        self._every_end: tuple[tuple[int, End], ...] = tuple(enumerate(self.ends))
        #: Whether some end makes a player lose (else nobody ever leaves the game mid-loop).
        self.may_lose = any(e.loses_someone for e in self.ends)
        self._ends_at: tuple[tuple[tuple[int, End], ...], ...] = tuple(
            tuple((i, e) for i, e in self._every_end if e.value in changes) for changes in map(self._changes, range(len(self.table)))
        ) if self.ends else ((),) * len(self.table)
        #: The most applications one step makes (a step's ``times``): the play budget's unit.
        self._most_times = max(1, max((s.times for s in self.steps), default=1))
        self._periods: dict[tuple[frozenset[str], frozenset[str | None]], int] = {}
        #: The targets of a step whose ``target`` is ``each`` or ``fixed``, by the players present.
        self._still_targets: dict[tuple[int, tuple[str, ...]], tuple[str, ...]] = {}
        #: A rotating step's next target by the players present and its last target ("": nobody).
        self._next_target: dict[tuple[int, tuple[str, ...], str | None], str] = {}
        #: Format 3 amounts couple the values: the blocks then follow their joint map (:mod:`.joint`).
        self.joint = self._joint()
        #: Which independent set each step belongs to (see :func:`~.scenario.set_owners`).
        self.owners = set_owners(self.steps, scenario.format)
        self._runs: dict[tuple[Count, Goal | None, tuple[tuple[int, str], ...]], Run] = {}
        #: Where the loop left alone starts each phase: (position, the exact state there, who
        #: left before it), recorded by its run (:meth:`_run`).
        self._checkpoints: list[tuple[int, _State, tuple[Elimination, ...]]] = []
        self._natural: Run | None = None
        self._pending: list[Elimination] = []

    # --- compiling -----------------------------------------------------------------------------

    def _turns(self) -> tuple[str, ...]:
        out, current = [], self.scenario.active
        for step in self.steps:
            current = step.turn or current
            out.append(current)
        return tuple(out)

    def _joint(self) -> Joint | None:
        """The coupled values of a loop whose steps add amounts (FORMAT item 28), or None."""
        first = next(((j, name) for j, s in enumerate(self.table) for name in s.amounts), None)
        if first is None:
            return None
        if any(s.unless is not None and not s.unless.breaks for s in self.table) or any(e.instead is not None for e in self.ends):
            raise AmountLimit(
                f"step {first[0] + 1} add.{first[1]}",
                "amounts that read other values, together with payments ('breaks = false') or a replaced end "
                "('instead'), are not settled in closed form by this version",
            )
        comps = [c for c, v in self.initial().values.items() if not isinstance(v, bool)]
        return Joint(comps, [_joint_info(s) for s in self.table], f"{self.step_name(first[0])} add.{first[1]}")

    def step_name(self, j: int) -> str:
        """How errors name step ``j`` of the table: ``step N``, or ``inner K step N``."""
        if j < self.size:
            return f"step {j + 1}"
        base, loop_id = max((b, i) for i, b in self.inner_base.items() if b <= j)
        return f"inner loop {loop_id!r} step {j - base + 1}"

    def _changes(self, k: int) -> set[str]:
        """The names of the values an application of table step ``k`` may change."""
        names = set(self._maps[k])
        unless = self.table[k].unless
        if unless is not None and not unless.breaks:
            names.update(name for cost in unless.costs for name in cost)
        return names

    def _step_maps(self, step: Step) -> dict[str, Affine]:
        """Each value's map for one application of ``step`` (mul, add, set: FORMAT item 2); an
        amount (format 3) is added when the step is applied, on the values of that moment."""
        if not (step.mul or step.set or step.amounts):
            return {name: Affine(1, delta) for name, delta in step.add.items()}  # adds only: the common case
        names = set(step.mul) | set(step.add) | set(step.set) | set(step.amounts)
        out = {}
        for name in names:
            f = Affine(step.mul.get(name, 1), 0)
            if name in step.add:
                f = f.then(Affine(1, step.add[name]))
            if name in step.set:
                if self.scenario.format < 2 and name in step.add:
                    f = Affine(0, step.set[name] + step.add[name])  # format 1: assign, then add
                else:
                    f = Affine(0, step.set[name])
            out[name] = f
        return out

    def initial(self) -> _State:
        values: dict[Component, Amount] = {}
        for name, start in self.scenario.state.items():
            if name in self.per_player:  # isinstance(start, Mapping), cheaper
                for player, v in start.items():  # type: ignore[union-attr]
                    values[(name, player)] = v
            else:
                values[name] = start  # type: ignore[assignment]
        # An end replaced once (FORMAT item 26) has a flag: 0 until its replacement is used.
        for i, end in enumerate(self.ends):
            if end.instead is not None:
                values[_replaced_flag(i)] = 0
        # A payer who pays the first N times (FORMAT item 25) has a count of payments left: a
        # component of its own, so that running out is a guard like any other (a new phase).
        for j, step in enumerate(self.table):
            unless = step.unless
            if unless is None or unless.breaks:
                continue
            for payer in step.payers:
                policy = unless.pays_for(payer)
                if isinstance(policy, int):
                    values[_payments_left(j, payer)] = policy
        return _State(values, {}, tuple(self.scenario.players), 0)


    def state_of(self, values: Mapping[Component, Amount]) -> "dict[str, StateValue]":
        """Component values as a scenario state: ``{name: value}``, per-player as ``{player: value}``."""
        out: dict[str, StateValue] = {}
        for name, start in self.scenario.state.items():
            if name in self.per_player:  # isinstance(start, Mapping), cheaper
                out[name] = {p: _entry(values[(name, p)]) for p in start}  # type: ignore[union-attr]
            else:
                out[name] = values[name]
        return out

    # --- targets -----------------------------------------------------------------------------------

    def _targets(self, j: int, st: _State, *, advance: bool) -> tuple[str, ...]:
        """The players whose entries step ``j``'s next application touches (FORMAT item 5)."""
        target = self.table[j].target
        if target is None:
            return ()
        if target.order != "rotate":
            present = [p for p in target.among if p in st.present]
            if not present:
                return ()
            return tuple(present) if target.order == "each" else (present[0],)
        # rotate: the next target depends only on who is present and the last one (kept per step)
        last = st.pointers.get(j)
        key = (j, st.present, last)
        chosen = self._next_target.get(key)
        if chosen is None:
            chosen = self._next_target[key] = _rotate(target.among, st.present, last)
        if not chosen:
            return ()
        if advance:
            st.pointers[j] = chosen
        return (chosen,)

    def period(self, present: Iterable[str], retired: frozenset[str | None] = frozenset()) -> int:
        """Iterations after which every rotating target is back where it was (1 if none rotates)."""
        key = (frozenset(present), retired)
        found = self._periods.get(key)
        if found is None:
            found = self._periods[key] = self._period(key[0], retired)
        return found

    def _period(self, present: frozenset[str], retired: frozenset[str | None]) -> int:
        r = 1
        for step, owner in zip(self.steps, self.owners):
            if step.target is None or step.target.order != "rotate" or step.by not in present or owner in retired:
                continue
            k = sum(1 for p in step.target.among if p in present)
            if k:
                r = math.lcm(r, k // math.gcd(k, step.times))
        return r

    # --- playing step by step ---------------------------------------------------------------------

    def _play(self, st: _State, until: int, trace: _Trace | None, goal: Goal | None) -> Event | None:
        """Play whole steps from ``st.position`` to ``until``; stop after the first event.

        After an elimination the step in progress is finished (its controller may still be in
        the game, with targets that now skip the leaver) and the elimination is returned.
        """
        while st.position < until:
            j = st.position % self.size
            step = self.steps[j]
            left: Event | None = None
            for app in range(step.times):
                if step.by not in st.present or self.owners[j] in st.retired:
                    break
                event = self._apply(st, j, app, None if left else trace)
                if event is None:
                    continue
                if event.kind != "elimination":
                    return event
                left = event
            st.position += 1
            if trace is not None and trace.joint is not None:
                trace.joint.mark(st.position)
            if left is not None:
                return left
            if goal is not None and st.position % self.size == 0:
                comp = goal.value if goal.player is None else (goal.value, goal.player)
                reached = holds(st.values[comp], goal.bound, goal.at_most)
                if trace is not None:
                    trace.guard(comp, IDENTITY, goal.bound, goal.at_most, reached)
                if reached:
                    return Event("goal", st.position, state=self.state_of(st.values))
        return None

    def _irregular(self) -> Exception:
        """The refusal of a loop whose guards change too irregularly: with inner loops an engine
        limit of FORMAT item 29 (exit 2, naming the first step that runs), else :func:`_too_irregular`."""
        if not self.inner_base:
            return _too_irregular()
        j = next(j for j, s in enumerate(self.steps) if s.run is not None)
        return RunLimit(f"{self.step_name(j)} run", (
            "the runs' lengths change too irregularly from one outer iteration to the next for the closed form "
            f"(more than {PLAY_BUDGET:,} step applications would have to be played one by one)"
        ))

    def _autonomous(self, steps: Sequence[Step]) -> bool:
        """Whether each value of an inner loop moves by itself: adds only (no amounts, no ``mul`` or
        ``set``, no payments, no requirements), so one inner iteration's change repeats until a
        clamp binds (FORMAT item 29: a run that can't reach its goal is refused)."""
        if any(e.loses_someone for e in self.ends):
            return False  # a player may leave mid-run, and their inner steps with them
        return all(not (t.amounts or t.mul or t.set or t.unless or t.requires or t.target) for t in steps)

    def _perform_run(self, st: _State, j: int, trace: _Trace | None, stop_at: "tuple[int, int] | None" = None) -> Event | None:
        """Step ``j``'s run (FORMAT item 29): its inner loop's steps, complete inner iterations,
        ``times`` of them or until the goal holds (checked before each; none when it already
        holds), each application as the loop's own (requirements, payments, effects, clamps,
        ends after every inner step).  The goal's checks are guards of the traced block, so a
        run of another length in a later block starts a new phase: the outer loop stays in
        closed form.  A run is played step by step: one over :data:`RUN_LIMIT` inner iterations,
        one that can't reach its goal, or one whose requirement fails is refused (:class:`RunLimit`).

        ``stop_at``: stop before the inner point (iterations, steps) instead (a cut inside the run).
        After an elimination the run goes on (untraced, as a step in progress does) and the
        elimination is returned at its end."""
        run = self.steps[j].run
        assert run is not None
        loop = run.loop
        base = self.inner_base[loop.id]
        size = len(loop.steps)
        goal = run.until
        comp: Component | None = None
        if goal is not None:
            comp = goal.value if goal.player is None else (goal.value, goal.player)
        left: Event | None = None
        done = 0
        self._counted = 0
        self._inner_size = size
        try:
            while True:
                if goal is not None:
                    assert comp is not None
                    reached = holds(st.values[comp], goal.bound, goal.at_most)
                    if trace is not None and left is None:
                        trace.guard(comp, IDENTITY, goal.bound, goal.at_most, reached)
                    if reached:
                        break
                elif done >= (run.times or 0):
                    break
                if stop_at is not None and stop_at[0] == done and stop_at[1] == 0 and done:
                    # a point between two inner iterations: the run goes on after it (its end is no such point)
                    self._reached = True
                    return left
                if self.steps[j].by not in st.present:
                    return left  # the run's controller left mid-run: their step drops out (FORMAT item 6)
                if goal is not None and not done and not any(_touches(t, goal.value) for t in loop.steps):
                    raise RunLimit(f"{self.step_name(j)} run", (
                        f"inner loop {loop.id!r} can't reach its goal ({goal.value} {'<=' if goal.at_most else '>='} {goal.bound:,}): "
                        f"none of its steps changes {goal.value}"
                    ))
                if done >= RUN_LIMIT:
                    raise RunLimit(f"{self.step_name(j)} run", (
                        f"the run would take more than {RUN_LIMIT:,} inner iterations here; this version plays each run "
                        "step by step inside the outer loop's closed form, and refuses longer runs"
                    ))
                before = dict(st.values) if goal is not None else None
                for t in range(size):
                    if stop_at is not None and (done, t) == stop_at:
                        self._reached = True
                        return left
                    k = base + t
                    step = self.table[k]
                    self._inner_at = (done, t)
                    for app in range(step.times):
                        if step.by not in st.present:
                            break
                        self._inner_apps += 1
                        if self._inner_apps > PLAY_BUDGET:
                            raise self._irregular()
                        event = self._apply(st, k, app, None if left else trace)
                        if event is None:
                            continue
                        if event.kind != "elimination":
                            return event
                        left = event
                    self._inner_at = None
                done += 1
                self._counted = done
                if before is not None and comp is not None and goal is not None and self._autonomous(loop.steps) and _away(before[comp], st.values[comp], goal.at_most):
                    # The goal's value moves on its own (no amounts, payments or requirements in the
                    # loop): standing still or moving away, it never gets there.
                    raise RunLimit(f"{self.step_name(j)} run", (
                        f"inner loop {loop.id!r} can't reach its goal ({goal.value} {'<=' if goal.at_most else '>='} {goal.bound:,}): "
                        f"an inner iteration takes {goal.value} from {before[comp]} to {st.values[comp]}"
                    ))
                if before is not None and before == st.values:
                    assert goal is not None
                    raise RunLimit(f"{self.step_name(j)} run", (
                        f"inner loop {loop.id!r} can't reach its goal ({goal.value} {'<=' if goal.at_most else '>='} {goal.bound:,}): "
                        "an inner iteration leaves every value as it was"
                    ))
        finally:
            self._inner_at = None
        return left

    def _apply(self, st: _State, j: int, app: int, trace: _Trace | None) -> Event | None:
        step = self.table[j]
        if trace is not None and trace.joint is not None:
            trace.joint.begin(j)
        # 1. requirements (plain values, >=), before the application
        for name, need in step.requires.items() if step.requires else ():
            ok = holds(st.values[name], need, at_most=False)
            if trace is not None:
                trace.guard(name, IDENTITY, need, False, ok)
            if not ok:
                what = f"requires {name} >= {need}: {step.does}"
                if step.optional and not step.sustains:
                    return None  # a side benefit that can't be paid is skipped (FORMAT item 7)
                kind = "forced" if step.optional else "requirement"
                if self._inner_at is not None:
                    # FORMAT item 29: a run that fails a requirement before its end can't be settled
                    raise RunLimit(f"{self.step_name(st.position % self.size)} run", f"{self.step_name(j)}'s requirement fails inside the run ({what}), before the run ends")
                return Event(kind, st.position, what, step.by, j, app, step.times, self.state_of(st.values))
        # a step's run (FORMAT item 29): after its requirements, before its own effects
        run_left: Event | None = None
        if step.run is not None and j < self.size:
            event = self._perform_run(st, j, trace)
            if event is not None:
                if event.kind != "elimination":
                    return event
                run_left, trace = event, None  # the step is finished untraced, as after any elimination
            if trace is not None and trace.joint is not None:
                trace.joint.begin(j)  # the run's inner steps were the joint trace's last: this step's own effects follow
        # the maps of this application: amounts read the values at its start (FORMAT item 28)
        maps = self._maps[j]
        if step.amounts:
            # FORMAT item 28: every amount on the values at the start of the application
            assert self.joint is not None
            maps = {name: f if name in step.set or name not in step.amounts else f.then(Affine(1, self.joint.evaluate(step.amounts[name], st.values)))
                    for name, f in maps.items()}
        touched: list[Component] = []
        targets: tuple[str, ...] | None = None
        if step.target is not None:
            if step.target.order == "rotate":
                targets = self._targets(j, st, advance=True)
            else:  # "each" and "fixed" depend only on who is present: worked out once per step and table of players
                key = (j, st.present)
                targets = self._still_targets.get(key)
                if targets is None:
                    targets = self._still_targets[key] = self._targets(j, st, advance=False)
        # 2. payments that don't end the loop (FORMAT item 25): each payer decides, and a payment
        # prevents the effect (with by = "target", only the payer's share).
        spared: frozenset[str] = _NOBODY
        if step.unless is not None and not step.unless.breaks:
            paid = self._payments(st, j, targets, touched, trace)
            if paid and step.unless.by != "target":
                return self._check_ends(st, j, app, touched, trace) or run_left
            spared = frozenset(paid)
        # 3. mul, add, set; 4. clamp
        values = st.values
        position = st.position
        # the block's trace, kept inline (_Trace.apply without amounts): a call per application costs
        traced = trace if trace is not None and trace.joint is None else None
        for name, f in maps.items():
            comps: Sequence[Component]
            if name in self.per_player:
                comps = [(name, p) for p in (targets or ()) if p not in spared]
                entries: Mapping[str, Limits] | None = self.entry_limits.get(name, _NO_LIMITS)
                plain_limit = None
            else:
                comps = (name,)
                entries = None
                plain_limit = self.limits.get(name)
            for comp in comps:
                x = values[comp]
                limit = plain_limit if entries is None else entries.get(comp[1])
                # Affine.apply, inlined for a plain integer (the common case)
                y = (f.a if f.m == 0 else f.m * x + f.a) if type(x) is int else f.apply(x)
                g = f
                if limit is not None and not isinstance(y, bool):
                    if limit.min is not None:
                        below = holds(y, limit.min - 1, True)
                        if trace is not None:
                            trace.guard(comp, f, limit.min - 1, True, below, unclamped=True)
                        if below:
                            y, g = limit.min, Affine(0, limit.min)
                    if limit.max is not None and g is f:
                        above = holds(y, limit.max + 1, False)
                        if trace is not None:
                            trace.guard(comp, f, limit.max + 1, False, above, unclamped=True)
                        if above:
                            y, g = limit.max, Affine(0, limit.max)
                values[comp] = y
                if traced is not None:
                    fs = traced.maps.get(comp)
                    if fs is None:
                        traced.maps[comp] = [g]
                        traced.positions[comp] = [position]
                    else:
                        fs.append(g)
                        traced.positions[comp].append(position)
                elif trace is not None:
                    trace.apply(comp, g, position, clamped=g is not f)
                touched.append(comp)
        # 5. ends, in file order, on what changed
        return self._check_ends(st, j, app, touched, trace) or run_left

    def _payments(self, st: _State, j: int, targets: tuple[str, ...] | None, touched: list[Component], trace: _Trace | None) -> list[str]:
        """Each payer of step ``j``'s payment decides, in order: they pay when they can and their
        ``pays`` allows it (the first cost of ``pay_any`` they can pay).  A payment is possible when
        every value it changes stays at or above its ``min`` (0 without one).  Returns who paid."""
        step = self.table[j]
        unless = step.unless
        assert unless is not None
        payers = [p for p in (targets or ()) if p in st.present] if unless.by == "target" else [unless.by]
        paid: list[str] = []
        for payer in payers:
            if payer not in st.present:
                continue
            policy = unless.pays_for(payer)
            if policy == "never":
                continue
            counter = _payments_left(j, payer) if isinstance(policy, int) else None
            if counter is not None:
                left = holds(st.values[counter], 1, at_most=False)
                if trace is not None:
                    trace.guard(counter, IDENTITY, 1, False, left)
                if not left:
                    continue
            chosen: list[tuple[Component, Affine]] | None = [] if not unless.costs else None
            for cost in unless.costs:
                changes: list[tuple[Component, Affine]] = []
                for name, delta in cost.items():
                    comp: Component = (name, payer) if name in self.per_player else name
                    f = Affine(1, delta)
                    limit = self.limits.get(name) if isinstance(comp, str) else self.entry_limits.get(name, {}).get(payer)
                    floor = limit.min if limit is not None and limit.min is not None else 0
                    can = holds(f.apply(st.values[comp]), floor, at_most=False)
                    if trace is not None:
                        trace.guard(comp, f, floor, False, can)
                    if not can:
                        break
                    changes.append((comp, f))
                else:
                    chosen = changes
                    break
            if chosen is None:
                continue  # they can't pay: the effect happens
            for comp, f in chosen:
                st.values[comp] = f.apply(st.values[comp])
                if trace is not None:
                    trace.apply(comp, f, st.position)
                touched.append(comp)
            if counter is not None:
                st.values[counter] = Affine(1, -1).apply(st.values[counter])
                if trace is not None:
                    trace.apply(counter, Affine(1, -1), st.position)
            paid.append(payer)
        return paid

    def _check_ends(self, st: _State, j: int, app: int, touched: list[Component], trace: _Trace | None, every: bool = False) -> Event | None:
        """The ends, in file order, checked on the values ``touched`` by application ``app`` of
        step ``j``: only those on a value the step can change (:attr:`_ends_at`), or with
        ``every`` all of them (after a replacement, every value counts as touched)."""
        ends = self._every_end if every else self._ends_at[j]
        if not ends or not touched:
            return None
        # each value touched once, in the order touched (which of them an end checks first
        # doesn't matter: a block's jump takes the earliest flip of all its guards)
        once = touched if len(touched) == 1 else list(dict.fromkeys(touched))
        present = st.present
        values = st.values
        losers: list[tuple[str, str]] = []
        terminal: End | None = None
        replacing: list[tuple[int, str | None]] = []
        for index, end in ends:
            if end.loses is not None and end.loses not in present:
                continue  # an end that names a player who left drops out
            if self.resolution and end.loses_someone:
                continue  # nobody loses inside one resolution (FORMAT item 18): see losses_at
            name, bound, at_most = end.value, end.bound, end.at_most
            for comp in once:
                if type(comp) is tuple:
                    if comp[0] != name or comp[1] not in present or comp[1] in end.exempt:
                        continue
                elif comp != name:
                    continue
                value = values[comp]
                # holds(), inlined for a plain integer
                hit = (value <= bound if at_most else value >= bound) if type(value) is int else holds(value, bound, at_most)
                if trace is not None:
                    trace.guard(comp, IDENTITY, bound, at_most, hit)
                if not hit:
                    continue
                if end.instead is not None:
                    whose = comp[1] if end.loses_each and isinstance(comp, tuple) else end.loses
                    if not end.loses_each or whose == end.instead_player:
                        flag = _replaced_flag(index)
                        used = holds(st.values[flag], 1, at_most=False)
                        if trace is not None:
                            trace.guard(flag, IDENTITY, 1, False, used)
                        if not used:
                            replacing.append((index, whose))
                            continue
                if end.loses_each and isinstance(comp, tuple):
                    losers.append((comp[1], end.effect))
                elif end.loses is not None:
                    losers.append((end.loses, end.effect))
                elif terminal is None:
                    terminal = end
        if replacing:
            return self._replace(st, j, app, replacing, trace)
        if not losers and terminal is None:
            return None
        where, inner = self._where_after(st)
        state = None
        if losers:
            order = self._order_from(self.table_turns[j])
            seen: dict[str, str] = {}
            for player, effect in losers:
                seen.setdefault(player, effect)
            leaving = [p for p in order if p in seen and p in st.present]
            remaining = tuple(p for p in st.present if p not in seen)
            st.present = remaining
            state = self.state_of(st.values)
            elims = tuple(Elimination(p, where, seen[p], inner) for p in leaving)
            self._pending.extend(elims)
            last_effect = seen[leaving[-1]] if leaving else ""
            if not remaining:
                return Event("draw", where, last_effect, None, j, app, self.table[j].times, state, inner)
            if len(remaining) == 1:
                return Event("gameover", where, last_effect, remaining[0], j, app, self.table[j].times, state, inner)
            if terminal is None:
                if not any(s.by in remaining for s in self.steps):
                    return Event("nosteps", where, last_effect, None, j, app, self.table[j].times, state, inner)
                stranded = self._stranded(st)
                if stranded is not None:
                    # FORMAT item 20: a step with nobody left to affect can't happen, so the loop ends.
                    return Event("untargeted", where, last_effect, None, stranded, app, self.table[j].times, state, inner)
                return Event("elimination", where, last_effect, None, j, app, self.table[j].times, state, inner)
        state = state or self.state_of(st.values)
        assert terminal is not None
        return Event("end", where, terminal.effect, None, j, app, self.table[j].times, state, inner)

    def _where_after(self, st: _State) -> tuple[int, "tuple[int, int] | None"]:
        """The point right after the application in progress: the next position, or inside a
        run the run's step's position and the inner point after this inner step."""
        if self._inner_at is None:
            return st.position + 1, None
        m, t = self._inner_at
        t += 1
        if t == self._inner_size:
            m, t = m + 1, 0
        return st.position, (m, t)

    def _replace(self, st: _State, j: int, app: int, replacing: list[tuple[int, str | None]], trace: _Trace | None) -> Event | None:
        """FORMAT item 26: the first time an end with ``instead`` would act, its values are set
        instead (every loss of its player at this point is replaced), and every end is checked
        again at the same point."""
        for index, whose in replacing:
            end = self.ends[index]
            assert end.instead is not None
            flag = _replaced_flag(index)
            st.values[flag] = 1
            if trace is not None:
                trace.apply(flag, Affine(0, 1), st.position)
            for name, value in end.instead.items():
                comp: Component = (name, end.instead_player) if name in self.per_player and end.instead_player else name
                st.values[comp] = value
                if trace is not None:
                    trace.apply(comp, Affine(0, value), st.position)
            st.replaced = st.replaced + (Replacement(st.position + 1, index, whose),)
        again = [c for c in st.values if not _internal(c)]
        return self._check_ends(st, j, app, again, trace, every=True)

    def _stranded(self, st: _State) -> int | None:
        """The first step that still happens but whose ``target`` has nobody left to affect
        (CR 800.4a: it does nothing), if any: the loop can't go through it again (FORMAT item 20).
        A side benefit (``sustains = false``) is skipped instead, and doesn't count."""
        for j, step in enumerate(self.steps):
            if step.by not in st.present or self.owners[j] in st.retired:
                continue
            if step.run is not None and any(
                t.target is not None and t.by in st.present and not any(p in st.present for p in t.target.among)
                for t in step.run.loop.steps
            ):
                return j  # a step of its inner loop has nobody left to affect (FORMAT items 20 and 29)
            if step.target is None:
                continue
            if step.optional and not step.sustains:
                continue
            if not any(p in st.present for p in step.target.among):
                return j
        return None

    def losses_at(self, values: Mapping[str, "StateValue"], present: Iterable[str], active: str) -> list[tuple[str, str]]:
        """FORMAT item 18: the players who lose when a repetition inside one resolution stops,
        with the effect of the end that makes each lose, in turn order from ``active``.

        ``values`` is the state where it stopped (per-player values as ``{player: value}``).  A
        value that is UNBOUNDED there (the repetition went on an arbitrarily large number of
        times) meets a bound when it moves toward it without end (:meth:`drift`).
        """
        present = list(present)
        seen: dict[str, str] = {}

        def met(value: object, comp: Component, end: End) -> bool:
            if value is UNBOUNDED:
                drift = self.drift(comp)
                return drift < 0 if end.at_most else drift > 0
            return holds(value, end.bound, end.at_most)  # type: ignore[arg-type]

        for end in self.ends:
            if not end.loses_someone:
                continue
            if end.loses is not None:
                if end.loses in present and met(values[end.value], end.value, end):
                    seen.setdefault(end.loses, end.effect)
                continue
            entries = values[end.value]
            assert isinstance(entries, Mapping)
            for p in present:
                if p in entries and p not in end.exempt and met(entries[p], (end.value, p), end):
                    seen.setdefault(p, end.effect)
        return [(p, seen[p]) for p in self._order_from(active) if p in seen]

    def stop_losses(self, values: Mapping[str, "StateValue"], present: Iterable[str], active: str) -> "tuple[list[tuple[str, str]], dict[str, StateValue], list[tuple[int, str | None]]]":
        """:meth:`losses_at` with the ends replaced once (``instead``, FORMAT item 26): at the
        resolution's stop a loss an end would cause is replaced the first time (its values set,
        every loss of its player there replaced), and all ends are checked again.  Returns the
        losers, the state after the replacements, and the replacements (end index, whose)."""
        state: dict[str, StateValue] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in values.items()}
        present = list(present)
        replaced: list[tuple[int, str | None]] = []
        used: set[int] = set()
        while True:
            losers = self.losses_at(state, present, active)
            lost = {p for p, _ in losers}
            now = []
            for index, end in enumerate(self.ends):
                if end.instead is None or index in used or not end.loses_someone:
                    continue
                whose = end.instead_player if end.loses_each else end.loses
                if whose in lost and self._meets(state, end, whose):
                    now.append((index, whose))
            if not now:
                return losers, state, replaced
            for index, whose in now:
                end = self.ends[index]
                assert end.instead is not None
                used.add(index)
                replaced.append((index, whose))
                for name, value in end.instead.items():
                    entry = state.get(name)
                    if isinstance(entry, Mapping) and end.instead_player:
                        state[name] = {**entry, end.instead_player: value}
                    else:
                        state[name] = value

    def _meets(self, state: Mapping[str, "StateValue"], end: End, whose: str | None) -> bool:
        """Whether ``end``'s bound holds for ``whose`` in ``state`` (a stop's state)."""
        value = state[end.value]
        if isinstance(value, Mapping):
            if whose is None or whose not in value:
                return False
            value = value[whose]
        if value is UNBOUNDED:
            drift = self.drift(end.value if whose is None or end.loses is not None else (end.value, whose))
            return drift < 0 if end.at_most else drift > 0
        return holds(value, end.bound, end.at_most)

    def drift(self, comp: Component) -> int:
        """Which way a component moves without end in the loop left alone, once it goes on
        forever: +1 up, -1 down, 0 when it settles (read off the regime's block map)."""
        run = self.natural
        if not run.forever or run.regime is None:
            return 0
        start, _, maps, trace, _ = run.regime
        if trace.joint is not None and comp in trace.joint.index:
            return trace.joint.drift(comp)
        f = maps.get(comp, IDENTITY)
        x = start.values[comp]
        if f.m == 0 or f.identity or x is UNBOUNDED or isinstance(x, bool):
            return 0
        if f.m == 1:
            return (f.a > 0) - (f.a < 0)
        if isinstance(x, (Huge, HugeSum)):
            return x.sign
        p = Fraction(-f.a, f.m - 1)
        return (x > p) - (x < p)

    def _order_from(self, player: str) -> tuple[str, ...]:
        order = self.scenario.players
        i = order.index(player)
        return order[i:] + order[:i]

    # --- the run ---------------------------------------------------------------------------------------

    def run(self, limit: Count = UNBOUNDED, goal: Goal | None = None, counts: Mapping[str, Count] | None = None) -> Run:
        """Run the loop from the start to position ``limit`` (or unbounded), in closed form.

        With ``counts`` (independent sets, FORMAT item 3 and docs/READINGS.md): each player's set
        runs side by side with the others and stops after its own number of iterations; from
        then on its steps are skipped.  Sets not named run on.
        """
        retire: tuple[tuple[int, str], ...] = ()
        if counts is not None:
            retire = tuple(sorted((c * self.size, p) for p, c in counts.items() if c is not UNBOUNDED))
        key = (limit, goal, retire)
        found = self._runs.get(key)
        if found is None:
            found = self._runs[key] = self._run(limit, goal, list(retire))
            if limit is UNBOUNDED and goal is None and not retire:
                self._natural = found
        return found

    def _run(self, limit: Count, goal: Goal | None, retire: list[tuple[int, str]] | None = None) -> Run:
        retire = retire or []
        final = limit
        st = self.initial()
        self._pending = []
        self._inner_apps = 0
        eliminations: list[Elimination] = []
        # The loop left alone records where each of its phases starts (:attr:`_checkpoints`); a
        # run to a cut point then starts from the last phase start at or before it, not from the
        # loop's start: the play from an exact state is the same whichever way it was reached.
        natural = limit is UNBOUNDED and goal is None and not retire
        if natural:
            self._checkpoints = []
        elif goal is None and not retire and self._checkpoints:
            assert limit is not UNBOUNDED
            start_at = next((c for c in reversed(self._checkpoints) if c[0] <= limit), None)
            if start_at is not None:
                st, eliminations = start_at[1].copy(), list(start_at[2])
        budget = PLAY_BUDGET
        # A step's ``times`` applications are played one by one: the budget is charged for them
        # *before* a stretch is played, so a stretch too long to play is refused at once.
        most_times = self._most_times
        size = self.size
        length_index = 0
        if goal is not None:
            comp = goal.value if goal.player is None else (goal.value, goal.player)
            if holds(st.values[comp], goal.bound, goal.at_most):
                return Run(Event("goal", 0), [], self.state_of(st.values), 0, present=st.present)
        while True:
            while retire and st.position >= retire[0][0]:
                # A set has run its own number of times: a new phase without its steps.
                st.retired = st.retired | {retire.pop(0)[1]}
                length_index = 0
            if final is not UNBOUNDED and st.position >= final:
                return Run(None, eliminations, self.state_of(st.values), st.position, present=st.present, replaced=st.replaced, at=st.copy())
            # The next stop of the closed form: the limit, or the next set to stop before it (None: no stop).
            upto: int | None = None if final is UNBOUNDED else final
            if retire and (upto is None or retire[0][0] < upto):
                upto = retire[0][0]
            if st.position % size:
                end = (st.position // size + 1) * size
                event = self._play(st, end if upto is None else min(end, upto), None, goal)
                budget -= size
                if event is not None:
                    eliminations += self._take()
                    if event.kind != "elimination":
                        return self._stopped(event, eliminations, st)
                continue
            cycle = self.period(st.present, st.retired)
            block_len = cycle * _BLOCK_LENGTHS[length_index] * size
            if upto is not None and upto - st.position < block_len:
                budget -= (upto - st.position) * most_times
                if budget < 0:
                    raise self._irregular()
                event = self._play(st, upto, None, goal)
                if event is not None:
                    eliminations += self._take()
                    if event.kind != "elimination":
                        return self._stopped(event, eliminations, st)
                continue
            budget -= block_len * most_times
            if budget < 0:
                raise self._irregular()
            start = st.copy()
            trace = _Trace(joint=self.joint.trace() if self.joint is not None else None)
            event = self._play(st, start.position + block_len, trace, goal)
            if event is not None:
                eliminations += self._take()
                if event.kind != "elimination":
                    return self._stopped(event, eliminations, st)
                continue
            if st.pointers != start.pointers:
                continue  # a skipped rotating step moved the cycle: no jump from this block
            # Every prefix of each component's maps, composed once (a step's ``times`` applications
            # add one map each: composing each guard's prefix anew would be quadratic in ``times``).
            prefixes = {comp: _prefixes(fs) for comp, fs in trace.maps.items()}
            maps = {comp: p[-1] for comp, p in prefixes.items()}
            flip: int | None = None
            if trace.joint is not None:
                flip = trace.joint.flip(start.values)  # amounts couple the values (FORMAT item 28)
            for comp, index, extra, bound, at_most, outcome in [] if trace.joint is not None else trace.guards:
                f = maps.get(comp, IDENTITY)
                q = (prefixes[comp][index] if comp in prefixes else IDENTITY).then(extra)
                # the first block whose check comes out the other way
                if at_most:
                    s = first_block(start.values[comp], f, q, bound + 1 if outcome else bound, not outcome)
                else:
                    s = first_block(start.values[comp], f, q, bound - 1 if outcome else bound, outcome)
                if s is not None and (flip is None or s < flip):
                    flip = s
                    if flip == 1:
                        break
            if upto is None:
                target = flip
            else:
                whole = (upto - start.position) // block_len
                target = whole if flip is None else min(flip, whole)
            if target is None:
                # Nothing ever changes again: the loop goes on forever in this pattern.
                # From the block after the one played, every block is the same map of a settled state.
                return Run(None, eliminations, self.state_of(st.values), None, True, present=st.present,
                           regime=(st.copy(), start.position, maps, trace, block_len), replaced=st.replaced)
            if target <= 1:
                if flip == 1 and length_index + 1 < len(_BLOCK_LENGTHS):
                    length_index += 1
                continue  # st is already at the start of block 1
            values = {comp: (power(maps[comp], target, v) if comp in maps else v) for comp, v in start.values.items()}
            if trace.joint is not None:
                values.update(trace.joint.values_after(start.values, target))
            st = _State(
                values,
                dict(st.pointers),
                st.present,
                start.position + target * block_len,
                st.retired,
                st.replaced,
            )
            if natural:
                self._checkpoints.append((st.position, st.copy(), tuple(eliminations)))

    def _take(self) -> list[Elimination]:
        out, self._pending = list(self._pending), []
        return out

    def _stopped(self, event: Event, eliminations: list[Elimination], st: _State) -> Run:
        state = dict(event.state) if event.state is not None else self.state_of(st.values)
        return Run(event, eliminations, state, event.position, present=st.present, replaced=st.replaced)

    # --- questions the rulesets ask ------------------------------------------------------------

    def point(self, position: int, inner: "tuple[int, int] | None" = None) -> CutPoint:
        n, k = divmod(position, self.size)
        return CutPoint(n, k, inner)

    def stop_point(self, event: Event) -> CutPoint:
        """The cut point of an event (inside a run: with its inner point)."""
        return self.point(event.position, event.inner)

    def run_length(self, position: int) -> int | None:
        """How many complete inner iterations the run of the step at ``position`` performs
        (None: the loop stops before it, or the step has no run)."""
        j = position % self.size
        if self.steps[j].run is None:
            return None
        run = self.run(position)
        if run.at is None:
            return None
        st = run.at.copy()
        self._pending = []
        self._inner_apps = 0
        self._counted = 0
        event = self._perform_run(st, j, None)
        self._take()
        if event is not None and event.kind != "elimination":
            return None
        return self._counted

    def inside(self, point: CutPoint) -> "tuple[dict[str, StateValue], list[Elimination]]":
        """FORMAT item 29: the state at a point inside a run, and who left on the way there:
        the closed-form state before the run's step, then the run played to the inner point.
        The caller has made sure the loop doesn't stop before the point."""
        assert point.inner is not None and point.iterations is not UNBOUNDED
        position = point.iterations * self.size + point.steps
        run = self.run(position)
        if run.at is None:
            return dict(run.state), list(run.eliminations)
        st = run.at.copy()
        self._pending = []
        self._inner_apps = 0
        self._reached = False
        j = position % self.size
        step = self.steps[j]
        event = None
        if step.run is not None and step.by in st.present:
            event = self._perform_run(st, j, None, stop_at=point.inner)
        left = self._take()
        if not self._reached and (event is None or event.kind == "elimination"):
            raise RunLimit(f"{self.step_name(j)} run", (
                f"the point {point.describe()} is past the end of the run there: a point inside a run must come before its last inner step ends"
            ))
        if event is not None and event.kind != "elimination" and event.state is not None:
            return dict(event.state), list(run.eliminations) + left
        return self.state_of(st.values), list(run.eliminations) + left

    @property
    def natural(self) -> Run:
        """The loop left alone, nobody deviating: where (and how) it stops, if it does."""
        run = self._natural
        if run is None:
            run = self._natural = self.run(UNBOUNDED)
        return run

    def state_at(self, point: CutPoint) -> "dict[str, StateValue]":
        """Every tracked value at a cut point (a point past the loop's stop: the state there)."""
        if point.unbounded:
            run = self.natural
            if run.forever:
                return self._unbounded_state(run, point.steps)
            return run.state
        assert point.iterations is not UNBOUNDED
        position = point.iterations * self.size + point.steps
        stop = self.natural.stop
        if stop is not None and stop.kind != "goal" and order_key(stop.position, stop.inner) <= order_key(position, point.inner):
            # A requirement failing inside a ``times`` step is reported *at* that step, but the
            # applications before it were performed: the state is the one at the stop (FORMAT item 4).
            return dict(self.natural.state)
        if point.inner is not None:
            return self.inside(point)[0]
        run = self.run(position)
        return run.state

    def unbounded_state(self, run: Run) -> "dict[str, StateValue]":
        """The state after an unbounded number of iterations of a run that goes on forever."""
        return self._unbounded_state(run, 0)

    def _unbounded_state(self, run: Run, steps: int) -> "dict[str, StateValue]":
        """The state at (unbounded, ``steps``): each value that no longer changes from one cycle to
        the next, at that point of the iteration (the same in every iteration of the cycle), else
        UNBOUNDED; a value assigned before that point is known whatever came before."""
        assert run.regime is not None
        start, origin, maps, trace, block_len = run.regime
        iterations = block_len // self.size
        values = {}
        joint = trace.joint
        for comp, x in start.values.items():
            if joint is not None and comp in joint.index:
                seen: list[Amount] = [joint.still_at(origin + r * self.size + steps).get(comp, UNBOUNDED) for r in range(iterations)]
                values[comp] = seen[0] if all(_same(v, seen[0]) for v in seen) else UNBOUNDED
                continue
            fs = trace.maps.get(comp, [])
            at = trace.positions.get(comp, [])
            f = maps.get(comp, IDENTITY)
            fixed = x if _same(f.apply(x), x) else UNBOUNDED
            seen = []
            for r in range(iterations):
                cut = origin + r * self.size + steps
                v = fixed
                for g, where in zip(fs, at):
                    if where >= cut:
                        break
                    v = g.apply(v)
                seen.append(v)
            first = seen[0]
            values[comp] = first if all(_same(v, first) for v in seen) else UNBOUNDED
        return self.state_of(values)

    def replacements_until(self, point: CutPoint) -> "list[tuple[CutPoint, int, str | None]]":
        """The ends replaced once (``instead``) at or before a cut point (unbounded: ever): where,
        which end (index in file order), whose loss."""
        if point.unbounded or not any(e.instead is not None for e in self.ends):
            run = self.natural
        else:
            run = self.run(point.iterations * self.size + point.steps)  # type: ignore[operator]
        return [(self.point(r.position), r.end, r.player) for r in run.replaced]

    def eliminations_until(self, point: CutPoint) -> list[Elimination]:
        """Everyone who left at or before a cut point (an unbounded one: ever), in order."""
        if not self.may_lose and point.inner is None:
            return []  # no end makes a player lose: nobody ever leaves (a point inside a run is still checked)
        if point.unbounded:
            return list(self.natural.eliminations)
        assert point.iterations is not UNBOUNDED
        position = point.iterations * self.size + point.steps
        key = order_key(position, point.inner)
        if point.inner is not None:
            stop = self.natural.stop
            if stop is not None and stop.kind != "goal" and order_key(stop.position, stop.inner) <= key:
                return [e for e in self.natural.eliminations if e.key <= key]
            return self.inside(point)[1]
        # The play is the same up to ``position`` whether or not the run stops there, and an
        # elimination is recorded where it happens: the natural run, where it is already worked
        # out, answers without replaying the loop from the start.
        run = self._runs.get((position, None, ())) or self._natural or self.run(position)
        return [e for e in run.eliminations if e.key <= key]

    @property
    def stop_event(self) -> Event | None:
        """How the loop, left alone, stops by itself, or None (a forced stop is not the loop's)."""
        stop = self.natural.stop
        return stop if stop is not None and stop.kind not in ("forced", "goal") else None

    @property
    def forced_stop(self) -> Event | None:
        """The first optional step, left alone, whose ``requires`` fails, or None."""
        stop = self.natural.stop
        return stop if stop is not None and stop.kind == "forced" else None

    @property
    def end(self) -> CutPoint | None:
        """Where the loop, left alone, ends by itself (:attr:`stop_event`), or None."""
        stop = self.stop_event
        return None if stop is None else self.point(stop.position, stop.inner)

    @property
    def state_repeats(self) -> bool:
        """Whether the state ever repeats (FORMAT item 9)."""
        return self.first_repeat is not None

    def repeat_count(self, repeat: CutPoint) -> Count:
        """Iterations before the repeated state stops a non-deterministic loop: those up to it."""
        return 1 if repeat.iterations is UNBOUNDED else max(1, repeat.iterations)

    def repeat_stop(self, own: CutPoint, following: CutPoint | None) -> CutPoint:
        """Where the player stops at a repeated state: their first point to deviate at or after
        it (``following``), FORMAT item 9."""
        if following is None:
            raise AssertionError("an involved player has a choice every iteration")
        return following

    def after_cut(self, position: int, count: int, halts: frozenset[int] = frozenset(), *, paid: bool = False) -> AfterCut:
        """FORMAT item 24: perform the ``count`` loop steps that follow the cut at ``position``, in
        file order, as in the loop (requirements, effects, clamps, ends, players leaving), from the
        closed-form state at the cut: at most one iteration's steps, never one per iteration.

        A step at a position in ``halts`` is not performed, nor any after it (its controller's own
        point falls there); a failed requirement ends them too; an end, the game over or a draw
        ends them after the step that reached it.  ``paid``: the step at the cut is an "unless"
        its payer has paid: its effect doesn't happen, and the ``count`` steps are those after it.
        """
        run = self.run(position)
        if run.at is None:
            raise AssertionError("steps after a cut are played only from a cut the loop reaches")
        st = run.at.copy()
        if paid:
            st.position += 1
        self._pending = []
        left: list[Elimination] = []
        performed = 0
        stop: Event | None = None
        halted = False
        while performed < min(count, self.size):
            if st.position in halts:
                halted = True
                break
            event = self._play(st, st.position + 1, None, None)
            left += self._take()
            if event is None or event.kind == "elimination":
                performed += 1
                continue
            stop = event
            if event.kind not in ("requirement", "forced"):
                performed += 1  # the step that reached the end was performed
            break
        state = dict(stop.state) if stop is not None and stop.state is not None else self.state_of(st.values)
        return AfterCut(performed, stop, halted, tuple(left), state)

    # --- independent sets ----------------------------------------------------------------------

    def sets_run(self, counts: Mapping[str, Count]) -> Run:
        """The run of independent sets, each its own number of times, side by side."""
        finite = [c for c in counts.values() if c is not UNBOUNDED]
        limit: Count = UNBOUNDED if len(finite) < len(counts) else max(finite, default=0) * self.size
        run = self.run(limit, counts=counts)
        if run.stop is not None and run.stop.kind == "forced":
            raise EngineLimit(
                f"an optional step's requirement fails while the independent sets run their own numbers "
                f"({run.stop.effect}), and no reading for a set stopped that way is built"
            )
        return run

    def sets_end(self, counts: Mapping[str, Count]) -> "tuple[int, int, dict[str, StateValue]] | None":
        """Where the loop stops by itself while independent sets run their own counts, if it
        does: (the iteration, how many of its steps had their turn, the state then)."""
        run = self.sets_run(counts)
        stop = run.stop
        if stop is None:
            return None
        n, k = divmod(stop.position, self.size)
        return n, k, dict(stop.state) if stop.state is not None else dict(run.state)

    def state_with_counts(self, counts: Mapping[str, Count]) -> "dict[str, StateValue]":
        """The state when each independent set has run its own number of times."""
        run = self.sets_run(counts)
        if run.forever:
            return self.unbounded_state(run)
        return dict(run.state)

    def goal_iterations(self, goal: Goal) -> int | None:
        """The first number of complete iterations after which ``goal`` holds; None if never
        (including when the loop stops by itself first)."""
        run = self.run(UNBOUNDED, goal)
        if run.stop is not None and run.stop.kind == "goal":
            return run.stop.position // self.size
        return None

    @property
    def first_repeat(self) -> CutPoint | None:
        """The first point whose state equals the state one rotation cycle earlier (FORMAT item 9).

        The state repeats once the composed map over a cycle maps the state reached to itself;
        that happens, if at all, at the start of some phase's second block.  Positions are then
        compared one cycle apart from there, the first that agrees is the repeat.
        """
        return _first_repeat(self)


def _away(before: Amount, after: Amount, at_most: bool) -> bool:
    """True when a value stood still or moved away from a bound (up for ``at_most``)."""
    if not isinstance(before, int) or not isinstance(after, int) or isinstance(before, bool) or isinstance(after, bool):
        return False
    return after >= before if at_most else after <= before


def _touches(step: Step, name: str) -> bool:
    """Whether a step may change value ``name`` (its effects, or a payment's cost)."""
    if name in step.add or name in step.mul or name in step.set or name in step.amounts:
        return True
    return step.unless is not None and any(name in cost for cost in step.unless.costs)


def _rotate(among: tuple[str, ...], present: tuple[str, ...], last: str | None) -> str:
    """A rotating target's next player: the first of ``among`` present when there was none
    before, else the next one present after ``last``, cyclically; "" when nobody is present."""
    if not any(p in present for p in among):
        return ""
    if last is None:
        return next(p for p in among if p in present)
    i = among.index(last)
    return next(among[(i + d) % len(among)] for d in range(1, len(among) + 1) if among[(i + d) % len(among)] in present)


def _internal(comp: Component) -> bool:
    """True for the engine's own bookkeeping components (payments left, replacements used)."""
    return (comp if isinstance(comp, str) else comp[0]).startswith("#")


def _replaced_flag(i: int) -> Component:
    """The component that says whether end ``i``'s ``instead`` was used (0 or 1)."""
    return f"#end {i + 1} replaced"


def _payments_left(j: int, payer: str) -> Component:
    """The component that counts the payments ``payer`` has left at step ``j`` (``pays = N``)."""
    return (f"#payments of step {j + 1}", payer)


def _same(x: Amount, y: Amount) -> bool:
    if x is UNBOUNDED or y is UNBOUNDED:
        return x is y
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    return x == y


def _compose(fs: Sequence[Affine]) -> Affine:
    out = IDENTITY
    for f in fs:
        out = out.then(f)
    return out


def _prefixes(fs: Sequence[Affine]) -> list[Affine]:
    """``out[i]``: the first ``i`` maps of ``fs`` composed (``out[0]`` the identity), each from
    the one before: linear in ``len(fs)``."""
    out = [IDENTITY]
    for f in fs:
        out.append(out[-1].then(f))
    return out


def _entry(value: Amount) -> "int | Huge | HugeSum | Unbounded":
    """One player's entry of a per-player value (never a boolean: per-player values are integers)."""
    assert not isinstance(value, bool)
    return value


def _first_repeat(dyn: Dynamics) -> CutPoint | None:
    """A state reached again one cycle later means the loop is periodic from there on, so it
    never stops and every value is still: only a run that goes on forever with every value at a
    fixed point of its block's map repeats.  Its periodic regime begins at most two blocks
    before the block where the engine recognised it, so the first repeat is found by comparing
    positions one cycle apart from there (a bounded number of closed-form runs)."""
    run = dyn.natural
    if not run.forever:
        return None
    assert run.regime is not None
    start, _, maps, trace, block_len = run.regime
    span = dyn.period(run.present) * dyn.size
    if trace.joint is not None:
        # FORMAT item 28: the first k >= 1 with M^k(s) = s, in blocks, for the state s the loop
        # reaches (the regime's start, or up to as many blocks later as there are values: an affine
        # map's transient is no longer); then in cycles within them
        joint_comps = trace.joint.index
        if any(not _same(maps.get(c, IDENTITY).apply(x), x) for c, x in start.values.items() if c not in joint_comps):
            return None
        block = trace.joint.block_map()
        try:
            state = trace.joint.joint.vector(start.values)
        except AmountLimit:
            return None
        k = None
        for later in range(len(joint_comps) + 1):
            k = first_repeat(block, state)
            if k is not None:
                break
            state = block.apply(state)
        if k is None:
            return None
        origin = start.position + later * block_len
        span = next(c * span for c in range(1, k * block_len // span + 1) if dyn.run(origin + c * span).state == dyn.run(origin).state)
        start = _State(start.values, start.pointers, start.present, origin, start.retired, start.replaced)
    elif any(not _same(maps.get(c, IDENTITY).apply(x), x) for c, x in start.values.items()):
        return None
    first = max(span, start.position - 2 * block_len)
    for p in range(first, start.position + span + 1):
        a, b = dyn.run(p), dyn.run(p - span)
        if a.state == b.state and a.present == b.present and a.stop is None and b.stop is None:
            return dyn.point(p)
    return dyn.point(start.position + span)
