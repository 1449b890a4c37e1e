"""The loop-description interface every ruleset reads.

A :class:`Scenario` is one loop as the players describe it: who plays, in what turn order, whose
turn it is, one iteration of the loop as an ordered list of :class:`Step`, the values the loop
changes, the actions outside the loop that could break it, and what each player means to do
(:class:`Intent`).  Scenarios are plain frozen data; parsing files is the comparator's job.

Everything a ruleset needs to know about a scenario that is not written in it directly (who is
involved, where each player deviates, the state at any cut point, whether and where the game
state repeats, where the loop ends by itself) is derived here, in closed form: the cost of any
question is independent of how many iterations it is about.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from dataclasses import dataclass, field
from .linear import Amount
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Union


if TYPE_CHECKING:
    from .dynamics import Dynamics, Elimination, Event, Run
    from .outcome import StateValue


class Unbounded(enum.Enum):
    """The number a player names when they want a loop to go on: arbitrarily large, finite.

    "There's no such thing as infinity in Magic": a player who never deviates names some finite
    number larger than anything else in play.  Reports show it as ``unbounded``.  It has one
    member, :data:`UNBOUNDED`; test for it with ``is``.
    """

    UNBOUNDED = "unbounded"

    def __repr__(self) -> str:
        return "UNBOUNDED"

    def __str__(self) -> str:
        return "unbounded"


UNBOUNDED = Unbounded.UNBOUNDED
"""The single arbitrarily-large-but-finite value (see :class:`Unbounded`)."""

_Unbounded = Unbounded  # the name used before 0.2, kept for plugins that imported it

Count = Union[int, Unbounded]
Value = Union[bool, int, Unbounded]


def higher(a: Count, b: Count) -> bool:
    """True when the number ``a`` is higher than ``b``; :data:`UNBOUNDED` is higher than any other."""
    if a is UNBOUNDED:
        return b is not UNBOUNDED
    return b is not UNBOUNDED and a > b


@dataclass(frozen=True)
class Unless:
    """"[X] unless [Y]": the step's effect happens unless ``by`` performs ``does``."""

    by: str
    does: str


@dataclass(frozen=True)
class Step:
    """One action or choice of the loop, controlled by one player.

    ``optional`` steps may be declined by their controller; the others are mandatory (triggers,
    forced choices).  ``set`` assigns state values; ``add`` adds integer deltas (a step that does
    both to one value assigns first, then adds).
    """

    by: str
    does: str
    optional: bool = False
    choice: bool = False
    hidden: bool = False
    random: bool = False
    conditional: bool = False
    set: Mapping[str, Union[bool, int]] = field(default_factory=dict)
    add: Mapping[str, int] = field(default_factory=dict)
    unless: Unless | None = None
    # --- format 2 (docs/FORMAT.md "Format 2"); the defaults are format 1's meaning ---
    mul: Mapping[str, int] = field(default_factory=dict)
    """x -> x * m, applied before ``add`` and ``set`` in the same application (m >= 0)."""
    requires: Mapping[str, int] = field(default_factory=dict)
    """The step can be taken only while each named plain value is >= the number."""
    times: int = 1
    """How many times the step happens per iteration (each application checks requires and ends)."""
    target: "Target | None" = None
    """Whose per-player value the step's effects touch."""
    sustains: bool = True
    """False for a side benefit: declining it doesn't stop the loop, and it never makes its controller involved."""
    alternative: str = ""
    """For ``choice = true`` on a mandatory step (format 2): what its controller chooses instead."""
    ends_loop: "EndsLoop | None" = None
    """An event at this step that can end the loop (by chance or hidden information)."""
    turn: str = ""
    """Whose turn this step happens in; empty: the previous step's (the first step: the active player)."""
    amounts: "Mapping[str, Amount]" = field(default_factory=dict)
    """Format 3 (FORMAT item 28): amounts added that read other values (``add = { mana = "power" }``),
    evaluated at the start of each application; ``add`` keeps the constant ones."""


@dataclass(frozen=True)
class Target:
    """Which players a step's effects on per-player values apply to (docs/FORMAT.md "Format 2", item 5).

    ``order`` is ``"rotate"`` (one target per application, cycling through ``among``, skipping
    players who have left), ``"each"`` (all of them) or ``"fixed"`` (the first still in the game).
    """

    among: tuple[str, ...]
    order: str = "fixed"


@dataclass(frozen=True)
class EndsLoop:
    """An event at a step that may end the loop: ``when`` in words, ``chance`` if known."""

    when: str
    chance: Fraction | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Limits:
    """A plain integer's floor and ceiling: every effect is clamped to ``[min, max]``."""

    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class End:
    """One way the loop ends by itself (a ``[[end]]`` table; ``[loop].ends_when`` is the one-entry form).

    The end holds when integer ``value`` is <= ``bound`` (``at_most``) or >= it.  ``loses`` names
    the player who then loses the game (a plain value); ``loses_each`` makes each player whose
    own entry of a per-player value reaches the bound lose.
    """

    value: str
    bound: int
    at_most: bool
    effect: str = ""
    loses: str | None = None
    loses_each: bool = False
    exempt: tuple[str, ...] = ()
    """Players for whom the bound never holds (``except``, FORMAT item 21: "You can't lose the
    game"): their entries of a per-player value keep changing and they never leave by this end."""

    def binds(self, player: str | None) -> bool:
        """True when this end's bound applies to ``player``'s entry (None: a plain value)."""
        return player is None or player not in self.exempt

    @property
    def loses_someone(self) -> bool:
        """True when reaching the bound makes a player lose (``loses``), not end the loop."""
        return self.loses is not None or self.loses_each


@dataclass(frozen=True)
class EndsWhen:
    """The loop ends by itself when integer ``value`` reaches ``bound`` (``at_most`` or not)."""

    value: str
    bound: int
    at_most: bool


@dataclass(frozen=True)
class LoopFlags:
    """Facts about the loop as a whole (docs/FORMAT.md ``[loop]``)."""

    independent: bool = False
    spans_turns: bool = False
    meaningful_change: bool = False
    shortcut_before: bool = False
    ends_when: EndsWhen | None = None
    ends_with: str | None = None
    within: str = "priority"
    """``"resolution"`` for a repetition inside one spell's or ability's resolution (format 2)."""


@dataclass(frozen=True)
class Breaker:
    """An action outside the loop that would end it (Seal of Cleansing's sacrifice)."""

    by: str
    does: str
    hidden: bool = False
    """The out is hidden information (format 2): under the current MTR a judge may be needed."""


@dataclass(frozen=True)
class Goal:
    """An intent as a goal: keep the loop going until ``value`` (``player``'s entry, for a
    per-player value) is <= ``bound`` (``at_most``) or >= it; converted to a count in closed form."""

    value: str
    bound: int
    at_most: bool
    player: str | None = None


@dataclass(frozen=True)
class Intent:
    """When a player first does something different from keeping the loop going.

    ``after`` is None for "never".  ``step`` is None for a plain number of iterations (the
    player deviates at their own first choice point of the next iteration) or the exact step
    index of the next iteration before which they deviate.
    """

    after: int | None = None
    step: int | None = None
    until: Goal | None = None
    """A goal instead of a count (format 2); ``after`` is then None until the goal is converted."""

    @property
    def never(self) -> bool:
        """True when the player never deviates (no count and no goal)."""
        return self.after is None and self.until is None

    def describe(self) -> str:
        """Plain words for reports: "never", "after 3 iterations", "after 5 iterations and 1 step"."""
        if self.until is not None and self.after is None:
            goal = self.until
            whose = f"{goal.player}'s " if goal.player else ""
            return f"until {whose}{goal.value} is {'at most' if goal.at_most else 'at least'} {goal.bound:,}"
        if self.after is None:
            return "never"
        text = f"after {self.after:,} iteration{'s' if self.after != 1 else ''}"
        if self.step is not None:
            text += f", before step {self.step + 1} of the next"
        return text


NEVER = Intent()


@dataclass(frozen=True)
class CutPoint:
    """Where a shortcut stops: ``iterations`` complete iterations plus ``steps`` of the next.

    ``iterations`` may be :data:`UNBOUNDED` when a player's arbitrarily large number decides it.
    """

    iterations: Count
    steps: int = 0

    @property
    def unbounded(self) -> bool:
        """True when the iteration count is the arbitrarily large number of a "never" player."""
        return self.iterations is UNBOUNDED

    def describe(self) -> str:
        """Plain words for transcripts."""
        n = "an unbounded number of" if self.unbounded else f"{self.iterations:,}"
        plural = "" if self.iterations == 1 else "s"
        if self.steps == 0:
            return f"after {n} iteration{plural}"
        return f"after {n} iteration{plural} and {self.steps} step{'s' if self.steps != 1 else ''}"


@dataclass(frozen=True)
class OracleText:
    """A card the loop uses, with its Oracle text as read on ``date`` from ``source`` (descriptive)."""

    name: str
    text: str
    date: str
    """When the text was read (or was in force), ``YYYY-MM-DD``."""
    source: str
    """Where it was read: a public address, or a repository path and commit."""


@dataclass(frozen=True)
class Ruling:
    """A published ruling or article that decides the loop in some era (descriptive)."""

    source: str
    """Its address."""
    title: str
    date: str
    """``YYYY-MM-DD``."""
    quote: str
    """The sentence that decides it, quoted."""
    eras: tuple[str, ...]
    """The ruleset keys it speaks to."""
    author: str = ""


@dataclass(frozen=True)
class Scenario:
    """One loop: players in turn order, the active player, one iteration's steps, and intents."""

    title: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    active: str = ""
    state: Mapping[str, Union[bool, int, Mapping[str, int]]] = field(default_factory=dict)
    """Starting values: a boolean, an integer, or (format 2) one integer per player."""
    loop: LoopFlags = field(default_factory=LoopFlags)
    breakers: tuple[Breaker, ...] = ()
    intents: Mapping[str, Intent] = field(default_factory=dict)
    description: str = ""
    source: str = ""
    tags: tuple[str, ...] = ()
    # --- format 2 ---
    format: int = 1
    """The scenario format the file declared (1 or 2)."""
    limits: Mapping[str, Limits] = field(default_factory=dict)
    """Floors and ceilings of plain integers (``{start, min, max}`` in ``[state]``)."""
    entry_limits: Mapping[str, Mapping[str, Limits]] = field(default_factory=dict)
    """Floors and ceilings of per-player entries, by value then player
    (``library = { Bob = { start = 20, min = 0 } }``)."""
    ends: tuple[End, ...] = ()
    """The ``[[end]]`` tables, in file order (format 2)."""
    # --- descriptive metadata, in every format (the library's cards, rulings and simplifications) ---
    oracle: tuple[OracleText, ...] = ()
    """The ``[[oracle]]`` tables: the cards and their Oracle text, in file order."""
    rulings: tuple[Ruling, ...] = ()
    """The ``[[ruling]]`` tables, in file order."""
    simplified: str = ""
    """What the file had to simplify to say the loop in its format (empty: nothing)."""

    def __post_init__(self) -> None:
        if not self.active:
            object.__setattr__(self, "active", self.players[0])

    @property
    def per_player(self) -> tuple[str, ...]:
        """The names of per-player values (``life = { Bob = 12, Carol = 30 }``), in declaration order."""
        return tuple(name for name, value in self.state.items() if isinstance(value, Mapping))

    @property
    def end_conditions(self) -> tuple[End, ...]:
        """Every way the loop ends by itself: the ``[[end]]`` tables, or ``[loop].ends_when`` as one."""
        if self.ends:
            return self.ends
        when = self.loop.ends_when
        if when is None:
            return ()
        return (End(when.value, when.bound, when.at_most, self.loop.ends_with or ""),)

    def intent(self, player: str) -> Intent:
        """The player's intent; a player left out never deviates."""
        return self.intents.get(player, NEVER)

    @cached_property
    def facts(self) -> "LoopFacts":
        """The derived facts rulesets need, computed once."""
        return LoopFacts(self)

    def with_intents(self, intents: Mapping[str, Intent]) -> "Scenario":
        """The same loop with other intents, sharing the loop's derived facts (none of them
        depends on what the players intend), so the loop is not worked out again."""
        other = dataclasses.replace(self, intents=dict(intents))
        other.__dict__["facts"] = self.facts.for_scenario(other)
        return other


class LoopFacts:
    """Derived, closed-form facts about a scenario's loop.

    Positions are linear: cut point (n, k) is position ``n * len(steps) + k``.  Nothing here
    loops over iterations; costs grow with the number of steps and players only.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.size = len(scenario.steps)
        #: Every player at the loop's start, in seat order (the same in :meth:`among`'s views).
        self.seating: tuple[str, ...] = scenario.players
        # choice_steps, asked many times by every procedure; it depends on the steps only.
        self._choice_steps: dict[tuple[str, bool], tuple[int, ...]] = {}
        order = scenario.players
        start = order.index(scenario.active)
        self.turn_order: tuple[str, ...] = order[start:] + order[:start]
        # The closed form, picked once: format 2's meanings (growth, floors, targets,
        # requirements, several ends, players leaving) need the phase-by-phase engine; format 1's
        # additions and assignments have a cheaper one.  Both answer the same questions, so no
        # question below asks which it is.  (Imported here: the engines read this module's types;
        # the import goes when the facts leave the data module.)
        from .additive import Additive
        from .dynamics import Dynamics

        self.engine: Dynamics | Additive
        self.dynamics: Dynamics | None = None
        if scenario.format >= 2:
            self.engine = self.dynamics = Dynamics(scenario)
        else:
            self.engine = Additive(scenario)
        #: Independent sets with only format 1's features are run by format 1's closed form.
        self.sets_engine: Dynamics | Additive = self.engine
        if self.dynamics is not None and self.sets_beyond_closed_form is None:
            self.sets_engine = Additive(scenario)

    def for_scenario(self, scenario: Scenario) -> "LoopFacts":
        """These facts for ``scenario``, the same loop with other intents (:meth:`Scenario.with_intents`)."""
        view = copy.copy(self)
        view.scenario = scenario
        return view

    def among(self, gone: "frozenset[str]") -> "LoopFacts":
        """The same loop as the players still in the game see it once ``gone`` have left.

        Everything about the loop itself (its steps, values, eliminations and positions) is
        shared; only who takes part changes: the players who left are not seated, have no
        intent, and the turn order skips them (CR 800.4a).
        """
        scenario = self.scenario
        order = tuple(p for p in self.turn_order if p not in gone)
        view = self.for_scenario(
            dataclasses.replace(
                scenario,
                players=tuple(p for p in scenario.players if p not in gone),
                active=order[0] if order else scenario.active,
                intents={p: i for p, i in scenario.intents.items() if p not in gone},
            )
        )
        view.turn_order = order
        for name in ("optional_controllers", "unless_payers", "choosers", "only_choosers"):
            view.__dict__.pop(name, None)
        return view

    # --- who -----------------------------------------------------------------------------------

    def players_after(self, player: str) -> tuple[str, ...]:
        """The other players in turn order, starting after ``player`` (CR 729.2b); those who
        have left the game (:meth:`among`) are skipped."""
        order = self.seating
        i = order.index(player)
        seated = self.scenario.players
        return tuple(p for p in order[i + 1 :] + order[:i] if p in seated)

    def in_turn_order(self, players: Iterable[str]) -> tuple[str, ...]:
        """``players`` sorted in turn order starting from the active player."""
        wanted = set(players)
        return tuple(p for p in self.turn_order if p in wanted)

    @cached_property
    def optional_controllers(self) -> tuple[str, ...]:
        """Players who control at least one optional step, in turn order from the active player.

        In a format 2 file (docs/FORMAT.md "Format 2", item 7) these are the players with a point to
        deviate in an iteration other than an "unless": an optional step that sustains the loop
        (a side benefit, ``sustains = false``, doesn't), or a ``choice = true`` step (inside one
        resolution an optional step counts as a choice).
        """
        return self.in_turn_order(s.by for s in self.scenario.steps if self.sustaining(s))

    def sustaining(self, step: Step) -> bool:
        """True when declining ``step`` (or choosing otherwise there) stops the loop: an optional
        step, and in format 2 not a side benefit; or, in format 2, a choice in a mandatory step."""
        if self.scenario.format < 2:
            return step.optional
        if step.optional:
            return step.sustains
        return step.choice

    def points_to_deviate(self, player: str) -> tuple[int, ...]:
        """FORMAT item 7: the steps of an iteration where ``player`` could deviate (their
        sustaining optional steps, their choices, the "unless" costs they could pay)."""
        return self.choice_steps(player)

    def turn_at(self, point: CutPoint) -> str:
        """Whose turn it is at a cut point: the ``turn`` of the step about to be performed
        (the previous step's when not given; the first: the active player), FORMAT item 12."""
        current = self.scenario.active
        turns = []
        for step in self.scenario.steps:
            current = step.turn or current
            turns.append(current)
        return turns[point.steps] if self.size else current

    @cached_property
    def unless_payers(self) -> tuple[str, ...]:
        """Players who could perform some step's "unless" action, in turn order."""
        return self.in_turn_order(s.unless.by for s in self.scenario.steps if s.unless)

    def choice_steps(self, player: str, *, unless: bool = True) -> tuple[int, ...]:
        """Indexes where ``player`` can do something other than keep the loop going.

        Their optional steps and, with ``unless``, the steps whose "unless" cost they could pay.
        """
        key = (player, unless)
        found = self._choice_steps.get(key)
        if found is None:
            found = self._choice_steps[key] = tuple(
                i
                for i, s in enumerate(self.scenario.steps)
                if (self.sustaining(s) and s.by == player) or (unless and s.unless and s.unless.by == player)
            )
        return found

    def choice_points(self, player: str) -> tuple[int, ...]:
        """Indexes of the ``choice = true`` steps at which ``player`` could choose otherwise."""
        steps = self.scenario.steps
        return tuple(i for i in self.choice_steps(player, unless=False) if steps[i].choice)

    @cached_property
    def choosers(self) -> tuple[str, ...]:
        """Players among :attr:`optional_controllers` who keep the loop going by a choice
        (a ``choice = true`` step), in turn order (docs/DOMAIN.md section 6)."""
        return tuple(p for p in self.optional_controllers if self.choice_points(p))

    @cached_property
    def only_choosers(self) -> tuple[str, ...]:
        """The :attr:`choosers` who take no action in the loop: every point where they could
        stop keeping it going is a choice."""
        return tuple(
            p for p in self.choosers if len(self.choice_points(p)) == len(self.choice_steps(p, unless=False))
        )

    def first_choice(self, player: str) -> int | None:
        """The first step of an iteration at which ``player`` could deviate, if any."""
        steps = self.choice_steps(player)
        return steps[0] if steps else None

    def deviation_point(self, player: str) -> CutPoint | None:
        """docs/FORMAT.md's deviation point for the player's intent; None for "never".

        In format 2 a player whose optional step's ``requires`` fails stops there, as if that
        were their intent, when it comes before the point they meant (FORMAT item 8).
        """
        meant = self.meant_point(player)
        forced = self.forced_point(player)
        if forced is not None and (meant is None or self.position(forced) < self.position(meant)):
            return forced
        return meant

    def meant_point(self, player: str) -> CutPoint | None:
        """Where the player's intent says they deviate (None for "never"), before any forced stop."""
        intent = self.scenario.intent(player)
        if intent.never or intent.after is None:
            return None
        step = intent.step if intent.step is not None else self.first_choice(player) or 0
        return CutPoint(intent.after, step)

    def forced_point(self, player: str) -> CutPoint | None:
        """Where ``player`` must stop because their optional step's requirement fails, if anywhere."""
        stop = self.forced_stop
        if stop is None or stop.player != player:
            return None
        return self.point(stop.position)

    @cached_property
    def forced_stop(self) -> "Event | None":
        """The first optional step, left alone, whose ``requires`` fails (an engine Event), or None."""
        return self.engine.forced_stop

    @cached_property
    def stop_event(self) -> "Event | None":
        """How the loop, left alone, stops by itself (an engine Event), or None."""
        return self.engine.stop_event

    def eliminations_until(self, point: CutPoint | None) -> "list[Elimination]":
        """Players who left the game at or before a cut point (UNBOUNDED: ever), in order."""
        if point is None:
            return []
        return self.engine.eliminations_until(point)

    def losses_at(self, point: CutPoint) -> list[tuple[str, str]]:
        """FORMAT item 18: who loses, with the effect of their end, when a repetition inside one
        resolution stops at ``point`` (in turn order from the active player)."""
        return self.engine.losses_at(self.state_at(point), self.scenario.players, self.scenario.active)

    def repeat_stop(self, player: str) -> CutPoint | None:
        """Where ``player``, attempting a non-deterministic loop, must stop because the state
        repeats (MTR 4.4), or None when it never does."""
        repeat = self.first_repeat
        if repeat is None:
            return None
        own = self.own_point(player, self.engine.repeat_count(repeat))
        return self.engine.repeat_stop(own, self.next_point(repeat, self.choice_steps(player, unless=False)))

    def own_point(self, player: str, number: Count) -> CutPoint:
        """Where ``player`` deviates after ``number`` iterations (their first choice point)."""
        return CutPoint(number, self.first_choice(player) or 0)

    # --- where -----------------------------------------------------------------------------------

    def position(self, point: CutPoint) -> int:
        """The linear position of a finite cut point."""
        assert point.iterations is not UNBOUNDED
        return point.iterations * self.size + point.steps

    def point(self, position: int) -> CutPoint:
        """The cut point at a linear position."""
        n, k = divmod(position, self.size)
        return CutPoint(n, k)

    # --- which comes first: every ruleset asks these, none compares positions itself ---------------

    def before(self, a: CutPoint, b: CutPoint) -> bool:
        """True when cut point ``a`` comes strictly before ``b``.  An unbounded point comes after
        every finite one; of two unbounded points neither comes first."""
        if a.unbounded:
            return False
        return b.unbounded or self.position(a) < self.position(b)

    def at_or_before(self, a: CutPoint, b: CutPoint) -> bool:
        """True when cut point ``a`` comes no later than ``b`` (not :meth:`before` the other way)."""
        return not self.before(b, a)

    def first_point(self, points: Iterable[CutPoint]) -> CutPoint | None:
        """The earliest of ``points`` (the first given, at equal points), or None if there are none."""
        first = None
        for point in points:
            if first is None or self.before(point, first):
                first = point
        return first

    def same_iteration(self, a: CutPoint, b: CutPoint) -> bool:
        """True when two finite cut points fall after the same number of complete iterations."""
        return not a.unbounded and not b.unbounded and a.iterations == b.iterations

    def next_point(self, start: CutPoint, steps: Iterable[int]) -> CutPoint | None:
        """The first cut point at or after the finite ``start`` that falls at one of ``steps``
        (indexes within an iteration), or None when ``steps`` is empty."""
        wanted = set(steps)
        at = self.position(start)
        return next((self.point(at + offset) for offset in range(self.size) if (at + offset) % self.size in wanted), None)

    def points_from(self, start: CutPoint, count: int) -> Iterator[CutPoint]:
        """The ``count`` successive cut points from the finite ``start`` on, one step apart."""
        at = self.position(start)
        return (self.point(at + offset) for offset in range(count))

    def steps_before(self, point: CutPoint) -> tuple[int, ...]:
        """The indexes of the steps performed just before the finite ``point``, latest first,
        back at most one whole iteration (none before the loop's start)."""
        at = self.position(point)
        return tuple((at - back) % self.size for back in range(1, min(self.size, at) + 1))

    def last_step_before(self, point: CutPoint) -> Step | None:
        """The step performed just before the cut, or None if none was performed."""
        if point.steps:
            return self.scenario.steps[point.steps - 1]
        if point.iterations == 0:
            return None
        return self.scenario.steps[-1]

    # --- what ------------------------------------------------------------------------------------

    def value_at(self, name: str, point: CutPoint) -> "StateValue":
        """The value of ``name`` at a cut point, in closed form."""
        return self.engine.state_at(point)[name]

    def state_at(self, point: CutPoint) -> "dict[str, StateValue]":
        """Every tracked value at a cut point."""
        return self.engine.state_at(point)

    @cached_property
    def state_repeats(self) -> bool:
        """Whether the state ever repeats: every net change per iteration zero (format 1,
        docs/DOMAIN.md section 3), the composed map fixing the state (format 2, FORMAT item 9)."""
        return self.engine.state_repeats

    @cached_property
    def first_repeat(self) -> CutPoint | None:
        """The first point where the state equals the state one cycle earlier, or None."""
        return self.engine.first_repeat

    @cached_property
    def end(self) -> CutPoint | None:
        """Where the loop, left alone, ends by itself (its ``ends_when`` or an ``[[end]]``, the last
        player left, everyone losing at once, a mandatory step's failed requirement), or None."""
        return self.engine.end

    def goal_iterations(self, goal: "Goal") -> int | None:
        """The first number of complete iterations after which ``goal`` holds, or None (never)."""
        return self.engine.goal_iterations(goal)

    # --- independent sets ----------------------------------------------------------------------

    @cached_property
    def sets_beyond_closed_form(self) -> str | None:
        """What in this loop format 1's closed form of independent sets can't follow, or None.

        That closed form moves each value by additions and assignments; a loop with format 2's
        per-player values, growth, floors, ends, requirements, repetitions, targets or side
        benefits has its sets run by the format 2 engine instead (:meth:`sets_run`).
        """
        scenario = self.scenario
        if scenario.per_player:
            return "per-player values"
        if scenario.limits or scenario.entry_limits:
            return "floors and ceilings ([state] min/max)"
        if scenario.ends:
            return "[[end]] tables"
        for step in scenario.steps:
            for key, present in (
                ("mul", bool(step.mul)),
                ("requires", bool(step.requires)),
                ("times", step.times != 1),
                ("target", step.target is not None),
                ("sustains = false", not step.sustains),
                ("alternative", bool(step.alternative)),
            ):
                if present:
                    return f"a step with {key} ({step.does})"
        return None

    @cached_property
    def set_of_step(self) -> tuple[str | None, ...]:
        """Which involved player's set each step belongs to, for independent loops.

        An optional step belongs to its controller's set; a mandatory step belongs to the set of
        the nearest optional step before it (cyclically), since it is that action's consequence.
        """
        return set_owners(self.scenario.steps)

    def counts_at(self, point: CutPoint, players: Iterable[str]) -> dict[str, Count]:
        """How many times each player's set has been performed at a single cut point."""
        out: dict[str, Count] = {}
        for p in players:
            first = self.first_choice(p)
            extra = 1 if first is not None and first < point.steps else 0
            n = point.iterations
            out[p] = n if n is UNBOUNDED else n + extra
        return out

    @property
    def sets_by_engine(self) -> bool:
        """Whether independent sets with their own counts are run by the format 2 engine."""
        return self.sets_engine is self.dynamics

    def sets_run(self, counts: Mapping[str, Count]) -> "Run":
        """The format 2 engine's run of independent sets, each its own number of times (a
        dynamics Run: its stop, who left, the state), side by side as in format 1."""
        assert self.dynamics is not None
        return self.dynamics.sets_run(counts)

    def end_with_counts(self, counts: Mapping[str, Count]) -> "tuple[dict[str, Count], dict[str, StateValue]] | None":
        """Where the loop first stops by itself while independent sets run their own counts, if it
        does: (counts performed by then, state then).

        A set that had stopped keeps its count; a set still running counts the iteration of the
        stop once its player's first choice point has had its turn (as at a single cut,
        :meth:`counts_at`).
        """
        hit = self.sets_engine.sets_end(counts)
        if hit is None:
            return None
        n, k, state = hit
        reached: dict[str, Count] = {}
        for p, c in counts.items():
            if c is not UNBOUNDED and c <= n:
                reached[p] = c
            else:
                first = self.first_choice(p)
                reached[p] = n + (1 if first is not None and first < k else 0)
        return reached, state

    def state_with_counts(self, counts: Mapping[str, Count]) -> "dict[str, StateValue]":
        """The state when each independent set has run its own number of times, side by side."""
        return self.sets_engine.state_with_counts(counts)


def set_owners(steps: tuple[Step, ...]) -> tuple[str | None, ...]:
    """Which independent set each step belongs to (:attr:`LoopFacts.set_of_step`): an optional
    step to its controller's set, a mandatory one to the set of the nearest optional step before
    it, cyclically (it is that action's consequence).  A side benefit (``sustains = false``)
    defines no set: it belongs to the set it happens in."""
    owners: list[str | None] = [s.by if s.optional and s.sustains else None for s in steps]
    last = next((s.by for s in reversed(steps) if s.optional and s.sustains), None)
    for i, owner in enumerate(owners):
        if owner is None:
            owners[i] = last
        else:
            last = owner
    return tuple(owners)
