"""What rulesets ask about a loop, in closed form: who is involved, where each player deviates,
which cut point comes first, the state at any point, where the loop ends by itself.

:class:`LoopFacts` sits above the loop's data (:mod:`.scenario`) and its two engines (format 1's
:mod:`.additive`, format 2's :mod:`.dynamics`), picks the engine once, and is the one place where
cut points are compared and converted: era classes ask it, never compute positions themselves.
:func:`facts_of` gives a scenario's facts, shared by equal loops whatever their intents.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from typing import Callable, Iterable, Iterator, Mapping

from .additive import Additive
from .dynamics import Dynamics, Elimination, Event, Run, order_key
from .outcome import StateValue
from .scenario import Breaker, EndsLoop, Goal, LoopFlags, Scenario, Step, set_owners, sustaining
from .bignum import TooLarge
from .values import UNBOUNDED, Count, CutPoint, Unsettleable, cached, higher

#: How many loops' facts are kept for equal loops to share (the atlas settles each loop shape
#: under many intent tables one after another; memory stays flat however many loops are settled).
SHARED = 256

_shared: "OrderedDict[tuple[tuple[str, ...], LoopFlags, tuple[Breaker, ...], str], LoopFacts]" = OrderedDict()


def facts_of(scenario: Scenario) -> "LoopFacts":
    """The facts of ``scenario``'s loop, worked out once per equal loop (:attr:`.Scenario.loop_key`)
    and viewed with this scenario's players' intents."""
    own = scenario.__dict__.get("_facts")
    if own is not None:
        return own  # type: ignore[no-any-return]
    key = scenario.loop_key
    base = _shared.get(key)
    if base is None:
        facts = LoopFacts(scenario)
        _shared[key] = facts
        if len(_shared) > SHARED:
            _shared.popitem(last=False)
    else:
        _shared.move_to_end(key)
        facts = base if base.scenario is scenario else base.for_scenario(scenario)
    scenario.__dict__["_facts"] = facts
    return facts


def acting_until(eliminations: Iterable[Elimination], *, ever: bool = False) -> dict[str, int]:
    """Each player who left: the first linear position whose step of theirs is not performed
    (FORMAT item 6: their steps drop out).  A player who left at point w performed none from w
    on; one who left inside the run of the step at w (an inner point) performed that step.
    With ``ever``, positions stand for ones an unbounded number of iterations in, where whoever
    ever leaves has left: 0 for each."""
    return {e.player: 0 if ever else e.position + (e.inner is not None) for e in eliminations}


def acting(until: Mapping[str, int], player: str, position: int) -> bool:
    """Whether ``player`` still performs their step at linear ``position`` (:func:`acting_until`)."""
    return position < until.get(player, position + 1)


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
        self._choice_steps: dict[tuple[str, bool] | tuple[()], tuple[int, ...]] = {}
        # deviation_point by player: it depends on the scenario's intents (a view has its own).
        self._deviation: dict[str, CutPoint | None] = {}
        order = scenario.players
        start = order.index(scenario.active)
        self.turn_order: tuple[str, ...] = order[start:] + order[:start]
        # The closed form, picked once: format 2's meanings (growth, floors, targets,
        # requirements, several ends, players leaving) need the phase-by-phase engine; format 1's
        # additions and assignments have a cheaper one.  Both answer the same questions, so no
        # question below asks which it is.
        self.engine: Dynamics | Additive
        self.dynamics: Dynamics | None = None
        if scenario.format >= 2:
            self.engine = self.dynamics = Dynamics(scenario)
        else:
            self.engine = Additive(scenario)

    def for_scenario(self, scenario: Scenario) -> "LoopFacts":
        """These facts for ``scenario``, the same loop with other intents (:meth:`.Scenario.with_intents`)."""
        view = object.__new__(type(self))  # copy.copy(self), without its __reduce_ex__ round trip
        view.__dict__.update(self.__dict__)
        view.scenario = scenario
        view._deviation = {}
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

    @cached
    def optional_controllers(self) -> tuple[str, ...]:
        """Players who control at least one optional step, in turn order from the active player.

        In a format 2 file (docs/FORMAT.md "Format 2", item 7) these are the players with a point to
        deviate in an iteration other than an "unless": an optional step that sustains the loop
        (a side benefit, ``sustains = false``, doesn't), or a ``choice = true`` step (inside one
        resolution an optional step counts as a choice).
        """
        fmt = self.scenario.format
        return self.in_turn_order(s.by for s in self.scenario.steps if sustaining(s, fmt))

    def sustaining(self, step: Step) -> bool:
        """True when declining ``step`` (or choosing otherwise there) stops the loop
        (:func:`.scenario.sustaining`, which the hot loops here call directly)."""
        return sustaining(step, self.scenario.format)

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

    @cached
    def unless_payers(self) -> tuple[str, ...]:
        """Players who could perform some step's "unless" action, in turn order."""
        return self.in_turn_order(s.unless.by for s in self.scenario.steps if s.unless and s.unless.breaks)

    def choice_steps(self, player: str, *, unless: bool = True) -> tuple[int, ...]:
        """Indexes where ``player`` can do something other than keep the loop going.

        Their optional steps and, with ``unless``, the steps whose "unless" cost they could pay.
        """
        table = self._choice_steps
        if not table:
            # every player's, worked out in one pass over the steps (the key () marks it done)
            fmt = self.scenario.format
            found: dict[tuple[str, bool], list[int]] = {}
            for i, s in enumerate(self.scenario.steps):
                own = s.by if sustaining(s, fmt) else None
                if own is not None:
                    found.setdefault((own, False), []).append(i)
                    found.setdefault((own, True), []).append(i)
                if s.unless and s.unless.breaks and s.unless.by != own:
                    found.setdefault((s.unless.by, True), []).append(i)
            table.update({key: tuple(steps) for key, steps in found.items()})
            table[()] = ()
        return table.get((player, unless), ())

    def choice_points(self, player: str) -> tuple[int, ...]:
        """Indexes of the ``choice = true`` steps at which ``player`` could choose otherwise."""
        steps = self.scenario.steps
        return tuple(i for i in self.choice_steps(player, unless=False) if steps[i].choice)

    @cached
    def choosers(self) -> tuple[str, ...]:
        """Players among :attr:`optional_controllers` who keep the loop going by a choice
        (a ``choice = true`` step), in turn order (docs/DOMAIN.md section 6)."""
        if not any(s.choice for s in self.scenario.steps):
            return ()
        return tuple(p for p in self.optional_controllers if self.choice_points(p))

    @cached
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
        memo = self._deviation
        if player in memo:
            return memo[player]
        meant = self.meant_point(player)
        forced = self.forced_point(player)
        found = forced if forced is not None and (meant is None or self.before(forced, meant)) else meant
        memo[player] = found
        return found

    def meant_point(self, player: str) -> CutPoint | None:
        """Where the player's intent says they deviate (None for "never"), before any forced stop.

        A point written right after another player's step with ``priority = false`` is where the
        player can first act (FORMAT item 23, :meth:`moved`); one with no such place before the
        loop repeats is None: the player acts only after the loop.
        """
        written = self.written_point(player)
        return None if written is None else self.moved(written, player)

    def written_point(self, player: str) -> CutPoint | None:
        """Where the player's intent puts their point, as written (None for "never")."""
        intent = self.scenario.intent(player)
        if intent.never or intent.after is None:
            return None
        step = intent.step if intent.step is not None else self.first_choice(player) or 0
        return CutPoint(intent.after, step, intent.inner)

    def forced_point(self, player: str) -> CutPoint | None:
        """Where ``player`` must stop because their optional step's requirement fails, if anywhere."""
        stop = self.forced_stop
        if stop is None or stop.player != player:
            return None
        return self.point(stop.position, stop.inner)

    @cached
    def forced_stop(self) -> "Event | None":
        """The first optional step, left alone, whose ``requires`` fails (an engine Event), or None."""
        return self.engine.forced_stop

    @cached
    def stop_event(self) -> "Event | None":
        """How the loop, left alone, stops by itself (an engine Event), or None."""
        return self.engine.stop_event

    def eliminations_until(self, point: CutPoint | None) -> "list[Elimination]":
        """Players who left the game at or before a cut point (UNBOUNDED: ever), in order."""
        if point is None or (point.inner is None and not self.may_lose):
            return []  # (a point inside a run is still checked: the engine refuses one past its end)
        return self.engine.eliminations_until(point)

    @cached
    def may_lose(self) -> bool:
        """Whether a player can leave the game mid-loop: a format 2 loop with an end that makes a
        player lose (format 1 has none)."""
        return self.dynamics is not None and self.dynamics.may_lose

    def losses_at(self, point: CutPoint) -> list[tuple[str, str]]:
        """FORMAT item 18: who loses, with the effect of their end, when a repetition inside one
        resolution stops at ``point`` (in turn order from the active player)."""
        return self.engine.losses_at(self.state_at(point), self.scenario.players, self.scenario.active)

    def replacements_until(self, point: CutPoint | None) -> "list[tuple[CutPoint, int, str | None]]":
        """Ends whose action was replaced once (``instead``, FORMAT item 26) up to a cut point
        (None: the loop left alone, wherever it stops)."""
        if not any(e.instead is not None for e in self.scenario.end_conditions):
            return []
        return self.engine.replacements_until(point if point is not None else CutPoint(UNBOUNDED))

    def stop_losses(self, point: CutPoint) -> "tuple[list[tuple[str, str]], dict[str, StateValue], list[tuple[int, str | None]]]":
        """:meth:`losses_at` with ends replaced once (FORMAT item 26): the losers, the state after
        any replacement, and the replacements made (end index, whose loss)."""
        return self.engine.stop_losses(self.state_at(point), self.scenario.players, self.scenario.active)

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

    def point(self, position: int, inner: "tuple[int, int] | None" = None) -> CutPoint:
        """The cut point at a linear position (``inner``: inside the run of the step there)."""
        n, k = divmod(position, self.size)
        return CutPoint(n, k, inner)

    def key(self, point: CutPoint) -> tuple[int, int, int, int]:
        """A finite point's place in play order (a point inside a run: after the point before
        its step, before the point after it; FORMAT item 29)."""
        return order_key(self.position(point), point.inner)

    # --- the stack and priority (FORMAT item 23) ---------------------------------------------------

    @cached
    def priority_free(self) -> tuple[int, ...]:
        """The indexes of the steps after which nobody but their controller can act
        (``priority = false``: mana abilities, special actions)."""
        return tuple(i for i, s in enumerate(self.scenario.steps) if not s.priority)

    @cached
    def moves_points(self) -> bool:
        """True when some step, of the loop or of an inner loop it runs, has ``priority = false``."""
        return bool(self.priority_free) or any(
            not t.priority for s in self.scenario.steps if s.run is not None for t in s.run.loop.steps
        )

    def moved_position(self, position: int, player: str, unbounded: bool = False) -> int | None:
        """Where ``player`` can act at the earliest, from linear ``position`` on (FORMAT item 23).

        A point is right after the last step performed before it.  Right after a priority-free
        step (``priority = false``) only that step's controller can act: another player's point
        there moves to right after the first later step whose ``priority`` is not false, within
        one iteration (None when every other step is priority-free too: the player can act only
        after the loop).  The point 0/0 never moves; the controller's own points don't move.
        """
        if position == 0 or not self.priority_free:
            return position
        steps = self.scenario.steps
        performed = self._performed(position, unbounded)
        # the last step performed before the point: a step of a player who had left by then
        # drops out (FORMAT item 6), and the point is right after the one before it
        last = next((q for q in range(position - 1, max(position - 1 - self.size, -1), -1) if performed(q)), None)
        if last is None:
            return position
        before = steps[last % self.size]
        if before.priority or before.by == player:
            return position
        for later in range(position, last + self.size):
            if performed(later) and steps[later % self.size].priority:
                return later + 1
        return None

    def _performed(self, position: int, unbounded: bool) -> Callable[[int], bool]:
        """Whether the step at a linear position near ``position`` is performed: not when its
        controller has left the game before it (FORMAT item 6: their steps drop out).  With
        ``unbounded``, the position stands for one an unbounded number of iterations in, when
        everyone who ever leaves has left."""
        steps, size = self.scenario.steps, self.size
        point = CutPoint(UNBOUNDED) if unbounded else self.point(position + size)
        until = acting_until(self.eliminations_until(point), ever=unbounded)
        if not until:
            return lambda q: True
        return lambda q: acting(until, steps[q % size].by, q)

    def moved(self, point: CutPoint, player: str) -> CutPoint | None:
        """``point`` where ``player`` can act at the earliest (:meth:`moved_position`); an
        unbounded point moves within its iteration's cycle (its iterations stay unbounded)."""
        if point.inner is not None:
            return self._moved_inside(point, player)
        if not self.priority_free:
            return point
        if point.unbounded:
            # Any iteration past the first has the same steps before it: read the move there.
            at = self.moved_position(self.size + point.steps, player, unbounded=True)
            return None if at is None else CutPoint(UNBOUNDED, at % self.size)
        position = self.position(point)
        into = self._moved_into_run(position, player)
        if into is not None:
            return into
        at = self.moved_position(position, player)
        return None if at is None else self.point(at)

    def _moved_into_run(self, position: int, player: str) -> CutPoint | None:
        """FORMAT items 23 and 29: a point right after another player's priority-free step moves
        into a later step's run when an inner step with priority comes first (right after it),
        if that run performs it; None when the point doesn't move into a run."""
        steps = self.scenario.steps
        if position == 0 or not any(s.run is not None for s in steps):
            return None
        before = (position - 1) % self.size
        if steps[before].priority or steps[before].by == player:
            return None
        for later in range(1, self.size + 1):
            step = steps[(before + later) % self.size]
            run = step.run
            if run is not None:
                inner = run.loop.steps
                first = next((t for t, s in enumerate(inner) if s.priority), None)
                if first is not None:
                    at = position + later - 1  # the position of the step that runs
                    m, t = divmod(first + 1, len(inner))
                    length = self.run_length(self.point(at))
                    if length is not None and (m, t) < (length, 0):
                        return self.point(at, (m, t))
            if step.priority:
                return None
        return None

    def _moved_inside(self, point: CutPoint, player: str) -> CutPoint | None:
        """A point inside a run (FORMAT items 23 and 29): right after another player's
        priority-free inner step it moves to right after the next inner step with priority; a
        priority-free run continues across its end, to the points after its step."""
        assert point.inner is not None
        run = self.scenario.steps[point.steps].run
        assert run is not None
        steps = run.loop.steps
        size = len(steps)
        m, t = point.inner
        before = steps[(t - 1) % size]
        if before.priority or before.by == player:
            return point
        at = m * size + t
        for later in range(1, size):
            if steps[(t - 1 + later) % size].priority:
                moved = divmod(at + later, size)
                length = self.run_length(point)
                if length is not None and moved >= (length, 0):
                    break
                return CutPoint(point.iterations, point.steps, (moved[0], moved[1]))
        # past the run's end: the point after the run's step (moved again from there)
        return self.moved(self.point(self.position(point) + 1), player)

    def run_length(self, point: CutPoint) -> int | None:
        """The number of inner iterations of the run at a finite point's step (None: unknown)."""
        if self.dynamics is None or point.unbounded:
            return None
        try:
            return self.dynamics.run_length(self.position(point))
        except (Unsettleable, TooLarge):
            return None  # the run can't be settled: settling the loop says so (exit 2), not this question

    def move_of(self, player: str) -> "tuple[CutPoint, CutPoint | None] | None":
        """(written, moved) when ``player``'s point as written falls where they can't act, else None."""
        written = self.written_point(player)
        if written is None or not self.moves_points:
            return None
        moved = self.moved(written, player)
        return None if moved == written else (written, moved)

    def halts_after_cut(self, start: CutPoint, count: int) -> frozenset[int]:
        """FORMAT item 24: the linear positions, among the ``count`` from the finite ``start`` on,
        where a step is a point of its controller's (an optional step that sustains the loop, a
        choice) and that controller's own point falls: the steps that still resolve stop there."""
        at = self.position(start)
        # a player who has left the game by then has no point there (FORMAT item 6)
        until = acting_until(self.eliminations_until(self.point(at + count)))
        out = set()
        for position in range(at, at + count):
            step = self.scenario.steps[position % self.size]
            owners = [step.by] if self.sustaining(step) else []
            if step.unless is not None and step.unless.breaks:
                owners.append(step.unless.by)  # a payment that would break it, as in the loop
            for player in owners:
                if not acting(until, player, position):
                    continue
                own = self.deviation_point(player)
                if own is not None and not own.unbounded and self.position(own) == position:
                    out.add(position)
        return frozenset(out)

    # --- which comes first: every ruleset asks these, none compares positions itself ---------------

    def before(self, a: CutPoint, b: CutPoint) -> bool:
        """True when cut point ``a`` comes strictly before ``b``.  An unbounded point comes after
        every finite one; of two unbounded points neither comes first."""
        if a.unbounded:
            return False
        if b.unbounded:
            return True
        if a.inner is None and b.inner is None:
            return self.position(a) < self.position(b)
        return self.key(a) < self.key(b)

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
        """The step performed just before the cut, or None if none was performed (inside a
        run: the inner step performed just before it)."""
        if point.inner is not None:
            run = self.scenario.steps[point.steps].run
            assert run is not None
            m, t = point.inner
            return run.loop.steps[t - 1] if t else run.loop.steps[-1]
        if point.steps:
            return self.scenario.steps[point.steps - 1]
        if point.iterations == 0:
            return None
        return self.scenario.steps[-1]

    def last_performed_before(self, point: CutPoint) -> Step | None:
        """The step performed last before the cut (its controller is the outcome's
        ``last_action``): :meth:`last_step_before`, passing over the steps of players who had
        left the game by then (FORMAT item 6: their steps drop out); None if none was performed.

        In closed form: for each player, the last of their steps before the cut or before they
        left, whichever comes first; the latest of those is the last step performed."""
        last = self.last_step_before(point)
        if last is None or point.inner is not None or not self.may_lose:
            return last  # (nobody ever leaves a format 1 loop, nor one where no end makes a player lose)
        gone = acting_until(self.eliminations_until(point))
        if last.by not in gone:
            return last
        size, steps = self.size, self.scenario.steps
        if point.unbounded:
            # Whoever left did so a bounded number of iterations in: an unbounded number later,
            # only the steps of those still in the game are performed.
            return next((steps[(point.steps - back) % size] for back in range(1, size + 1)
                         if steps[(point.steps - back) % size].by not in gone), None)
        cut = self.position(point)
        latest = -1
        for j, step in enumerate(steps):
            # the step's positions before ``until`` were performed (acting_until)
            until = min(cut, gone.get(step.by, cut))
            if until > j:
                latest = max(latest, until - 1 - (until - 1 - j) % size)
        return steps[latest % size] if latest >= 0 else None

    # --- what ------------------------------------------------------------------------------------

    def value_at(self, name: str, point: CutPoint) -> "StateValue":
        """The value of ``name`` at a cut point, in closed form."""
        return self.engine.state_at(point)[name]

    def state_at(self, point: CutPoint) -> "dict[str, StateValue]":
        """Every tracked value at a cut point."""
        return self.engine.state_at(point)

    @cached
    def state_repeats(self) -> bool:
        """Whether the state ever repeats: every net change per iteration zero (format 1,
        docs/DOMAIN.md section 3), the composed map fixing the state (format 2, FORMAT item 9)."""
        return self.engine.state_repeats

    @cached
    def first_repeat(self) -> CutPoint | None:
        """The first point where the state equals the state one cycle earlier, or None."""
        return self.engine.first_repeat

    @cached
    def end(self) -> CutPoint | None:
        """Where the loop, left alone, ends by itself (its ``ends_when`` or an ``[[end]]``, the last
        player left, everyone losing at once, a mandatory step's failed requirement), or None."""
        return self.engine.end

    def goal_iterations(self, goal: "Goal") -> int | None:
        """The first number of complete iterations after which ``goal`` holds, or None (never)."""
        return self.engine.goal_iterations(goal)

    # --- independent sets ----------------------------------------------------------------------

    @cached
    def step_flags(self) -> frozenset[str]:
        """Which of ``random``, ``conditional``, ``hidden``, ``ends_loop`` and ``run`` some step of
        the loop has (each era's restrictions ask; worked out once per loop)."""
        found: set[str] = set()
        for s in self.scenario.steps:
            if s.random:
                found.add("random")
            if s.conditional:
                found.add("conditional")
            if s.hidden:
                found.add("hidden")
            if s.ends_loop:
                found.add("ends_loop")
            if s.run is not None:
                found.add("run")
        return frozenset(found)

    @cached
    def event(self) -> "EndsLoop | None":
        """The first step's event that may end the loop (``ends_loop``, FORMAT item 10), or None."""
        return next((s.ends_loop for s in self.scenario.steps if s.ends_loop), None)

    @cached
    def offers_payments(self) -> bool:
        """True when some step, of the loop or of an inner loop, has an ``unless`` that is a payment."""
        return any(s.unless is not None and s.unless.payment for s in self.scenario.every_step)

    @cached
    def leaves_steps_on_stack(self) -> bool:
        """True when a player's way out leaves loop steps on the stack (``still_resolves``, FORMAT item 24)."""
        return any(s.unless is not None and s.unless.still_resolves for s in self.scenario.steps) or any(
            b.still_resolves for b in self.scenario.breakers
        )

    @cached
    def sets_engine(self) -> "Dynamics | Additive":
        """The engine that runs independent sets: format 1's closed form for a loop with only
        format 1's features (built when first asked for: only independent sets ask)."""
        if self.dynamics is not None and self.sets_beyond_closed_form is None:
            return Additive(self.scenario)
        return self.engine

    @cached
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
                ("amounts", bool(step.amounts)),
                ("a payment", step.unless is not None and not step.unless.breaks),
                ("run", step.run is not None),
            ):
                if present:
                    return f"a step with {key} ({step.does})"
        return None

    @cached
    def set_of_step(self) -> tuple[str | None, ...]:
        """Which involved player's set each step belongs to, for independent loops.

        An optional step belongs to its controller's set; a mandatory step belongs to the set of
        the nearest optional step before it (cyclically), since it is that action's consequence.
        """
        return set_owners(self.scenario.steps, self.scenario.format)

    def counts_at(self, point: CutPoint, players: Iterable[str]) -> dict[str, Count]:
        """How many times each player's set has been performed at a single cut point: the
        iterations it began, counting the current one once its player's first choice step has
        had its turn; for a player who left the game before the cut, those it began before they
        left (their steps drop out there, FORMAT item 6)."""
        gone = {e.player: self.point(e.position) for e in self.eliminations_until(point)}
        out: dict[str, Count] = {}
        for p in players:
            left = gone.get(p)
            out[p] = self._begun(p, left if left is not None and (point.unbounded or self.before(left, point)) else point)
        return out

    def _begun(self, player: str, point: CutPoint) -> Count:
        """The iterations of ``player``'s set begun at ``point``: the current one counts once
        their first choice step has had its turn."""
        n = point.iterations
        if n is UNBOUNDED:
            return n
        first = self.first_choice(player)
        return n + (1 if first is not None and first < point.steps else 0)

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
        return self.counts_performed(counts, CutPoint(n, k)), state

    def counts_performed(self, counts: Mapping[str, Count], stop: CutPoint | None = None) -> dict[str, Count]:
        """The iterations each independent set performed when the sets run their own ``counts``:
        its own count, or fewer when the loop stopped first (at ``stop``) or its player left the
        game first (FORMAT item 6: their steps drop out), each then counting the iterations it
        began (:meth:`_begun`)."""
        # a player who left performed their set's iterations only until then
        gone = {e.player: self.point(e.position) for e in self.sets_run(counts).eliminations} if self.sets_by_engine else {}
        out: dict[str, Count] = {}
        for p, c in counts.items():
            end = gone.get(p, stop)
            if end is None:
                out[p] = c
                continue
            began = self._begun(p, end)
            out[p] = c if c is not UNBOUNDED and not higher(c, began) else began
        return out

    def state_with_counts(self, counts: Mapping[str, Count]) -> "dict[str, StateValue]":
        """The state when each independent set has run its own number of times, side by side."""
        return self.sets_engine.state_with_counts(counts)
