"""An independent, deliberately naive oracle for the four built-in rulesets.

The product settles loops in closed form.  This module does the opposite: it plays the loop one
step at a time from the starting state and applies each ruleset's procedure literally, for the
small numbers a property test generates.  It shares nothing with the rulesets but the data model
(:class:`loopcompare.rulesets.scenario.Scenario` and its parts, read as plain data: no ``LoopFacts``).

The readings implemented are DOMAIN.md sections 3-4 and the team's decisions:

* a position is ``n * len(steps) + k``; ``last_action`` is the ``by`` of the last step performed
  before the cut; without a cut (draw, no_shortcut, no_restart, unspecified) the fields are empty
  and the state is the starting state;
* a player's deviation point for intent ``n`` is ``(n, their first step that is optional-by-them
  or whose "unless" they pay)`` or ``(n, 0)``; ``{after, step}`` is exactly ``(after, step)``;
  where a procedure wants a *number* (421.3, 421.5, independent sets) it is ``after``;
* involved players control optional steps (cr-2004: or pay an "unless"); a mandatory loop stops
  only at a breaker holder's or "unless" payer's point, else it is a draw; one involved player:
  the earliest of their own point and everyone else's (ties: the controller, then turn order from
  the active player, or from the player after the controller in cr-2024);
* 421.3: the first involved player names a number, each later one lowers it or agrees; the
  holder of the final number deviates at their first choice position at or after that many
  iterations that follows another involved player's choice (cr-2008: an earlier point of a player
  outside the loop wins); 421.5: each set its own count (cr-2004: the nonactive player's set
  gets the higher of the two numbers), the sets run side by side;
* cr-2024: the state repeats when state(p) == state(p - len) for some p >= len (never across
  turns with a meaningful change); then the first involved player in turn order must deviate at
  their first optional step from the first such p, unless their own point or (strictly) another
  player's point comes earlier; without a repeat, the 729.2 proposal/shortening, or (independent)
  each set its own count, a breaker outside the sets stopping every set still running at its
  point (a cut there when all still run);
* mtr-current: conditional/random, or across turns with a meaningful change: no_shortcut; a
  restart: no_restart; else the lowest point of every player (involved "never" players rank by
  naming order; across turns with every point unbounded: a draw); judge if a step is hidden;
* ``ends_when``: if the bound holds no later than the cut (or instead of a draw or an unbounded
  run), the loop "ends" at the first position where it holds (0 if it holds at the start).  For
  independent sets (no single cut) the sets are played side by side: a bound reached while every
  set is still running ends the loop at that linear position; a bound reached only after some set
  has stopped (or only because one has) ends it where no linear position describes: the result is
  "ends", ``iterations`` gives each set's count by then (a stopped set its own number, a running
  one the iterations it began, counting the current one once its player's first choice step has
  had its turn), the state is the state then, and, as for sets that are shortcut, there is no
  single cut: ``steps`` 0, no ``deviates``, no ``last_action``;
* "unbounded" numbers (a "never" player's number, 421.3's number when everyone agrees to it) are
  simulated with a large stand-in.  The whole procedure runs twice, with two different stand-ins;
  an iteration count or an integer that differs between the runs is reported as ``"unbounded"``.

Limits: the oracle is meant for small scenarios (intents up to a few dozen iterations, a few
steps).  :class:`OracleLimit` is raised when a scenario leaves that range.
"""

from __future__ import annotations

from typing import Any, Mapping

from loopcompare.rulesets.scenario import Scenario, Step

#: The stand-in for an arbitrarily large number; the second run uses BIG + 1.
BIG = 60

RULESETS = ("cr-2004", "cr-2008", "cr-2024", "mtr-current")


class OracleLimit(Exception):
    """The scenario is outside the range the naive oracle can settle faithfully."""


def settle(scenario: Scenario, key: str) -> dict[str, Any]:
    """The compared outcome fields of ``scenario`` under ruleset ``key``, as plain data."""
    a = _Run(scenario, key, BIG).outcome()
    b = _Run(scenario, key, BIG + 1).outcome()
    merged = _merge(a, b)
    if scenario.format >= 3:
        # Format 3 amounts can make a value periodic (a cycle of up to six iterations with small
        # coefficients): two stand-ins may agree on it by chance, six consecutive ones can't.
        for extra in range(2, 6):
            merged = _merge(merged, _Run(scenario, key, BIG + extra).outcome())
    return merged


def _merge(a: dict, b: dict) -> dict:
    """Two runs with different stand-ins: what differs depends on the stand-in: "unbounded"."""
    out = dict(a)
    for name in ("result", "steps", "deviates", "last_action", "judge"):
        if a[name] != b[name]:
            raise AssertionError(f"oracle: {name} depends on the stand-in: {a[name]!r} / {b[name]!r}")
    out["iterations"] = _merge_count(a["iterations"], b["iterations"])
    state = {}
    for name, value in a["state"].items():
        other = b["state"][name]
        if value == other:
            state[name] = value
        elif isinstance(value, bool):
            raise AssertionError(f"oracle: boolean {name} depends on the stand-in")
        else:
            state[name] = "unbounded"
    out["state"] = state
    return out


def _merge_count(x, y):
    if isinstance(x, dict):
        return {p: _merge_count(x[p], y[p]) for p in x}
    if x == y:
        if x is not None and x >= BIG - 10:
            raise OracleLimit("an iteration count came close to the stand-in for unbounded")
        return x
    return "unbounded"


class _Run:
    """One literal run of a ruleset's procedure with one stand-in ``big`` for unbounded."""

    def __init__(self, scenario: Scenario, key: str, big: int) -> None:
        if key not in RULESETS:
            raise ValueError(key)
        self.sc = scenario
        self.key = key
        self.big = big
        self.steps: tuple[Step, ...] = scenario.steps
        self.L = len(self.steps)
        players = scenario.players
        i = players.index(scenario.active)
        self.order = players[i:] + players[:i]  # turn order from the active player
        self._states: list[dict] = [dict(scenario.state)]

    # --- playing the loop step by step ----------------------------------------------------------

    def state_at(self, pos: int) -> dict:
        """The state after ``pos`` steps, played one at a time from the start."""
        if pos > 400 * self.L:
            raise OracleLimit("position too far to play out")
        while len(self._states) <= pos:
            s = dict(self._states[-1])
            step = self.steps[(len(self._states) - 1) % self.L]
            # Format 3 amounts (FORMAT item 28) read the values before this step, all at once.
            amounts = {name: amount.evaluate(s) for name, amount in step.amounts.items()}
            for name, value in step.set.items():
                s[name] = value
            for name, delta in step.add.items():
                s[name] = s[name] + delta
            for name, delta in amounts.items():
                s[name] = s[name] + delta
            self._states.append(s)
        return self._states[pos]

    def step_at(self, pos: int) -> Step:
        return self.steps[pos % self.L]

    def last_action(self, pos: int) -> str | None:
        return self.step_at(pos - 1).by if pos > 0 else None

    # --- who ------------------------------------------------------------------------------------

    def ordered(self, players) -> list[str]:
        wanted = set(players)
        return [p for p in self.order if p in wanted]

    def after(self, player: str) -> list[str]:
        """The other players in turn order starting after ``player`` (CR 729.2b)."""
        ps = self.sc.players
        i = ps.index(player)
        return list(ps[i + 1 :] + ps[:i])

    def involved(self) -> list[str]:
        s = {st.by for st in self.steps if st.optional}
        if self.key == "cr-2004":
            s |= {st.unless.by for st in self.steps if st.unless is not None}
        return self.ordered(s)

    def unless_payers(self) -> set[str]:
        return {st.unless.by for st in self.steps if st.unless is not None}

    def breaker_holders(self) -> set[str]:
        return {b.by for b in self.sc.breakers}

    # --- numbers and points ---------------------------------------------------------------------

    def first_choice(self, player: str) -> int:
        """Index of the player's first optional-by-them or unless-by-them step, else 0."""
        for i, st in enumerate(self.steps):
            if (st.optional and st.by == player) or (st.unless is not None and st.unless.by == player):
                return i
        return 0

    def count(self, player: str) -> int:
        """The number a player names: their intent's iterations, the stand-in for "never"."""
        intent = self.sc.intent(player)
        return self.big if intent.after is None else intent.after

    def point(self, player: str) -> int | None:
        """The player's deviation point as a position; None for "never" (or, format 3, for a
        point that can only come after the loop: :meth:`moved`)."""
        intent = self.sc.intent(player)
        if intent.after is None:
            return None
        if intent.after >= BIG - 10:
            raise OracleLimit("intent too large for the stand-in")
        k = intent.step if intent.step is not None else self.first_choice(player)
        return self.moved(intent.after * self.L + k, player)

    def moved(self, pos: int, player: str) -> int | None:
        """FORMAT item 23, walked one step at a time: a point right after another player's step
        with ``priority = false`` moves on until the step just performed is one after which
        players receive priority; None if no such step comes within an iteration."""
        if pos == 0:
            return pos
        if not self.step_at(pos - 1).priority and self.step_at(pos - 1).by == player:
            return pos  # the controller's own point doesn't move
        for q in range(pos, pos + self.L):
            if self.step_at(q - 1).priority:
                return q
        return None

    def own_point(self, player: str, big: int | None = None) -> int:
        """The player's point, or for "never" the stand-in iterations at their first choice."""
        p = self.point(player)
        if p is None:
            return (self.big if big is None else big) * self.L + self.first_choice(player)
        return p

    @staticmethod
    def earliest(cands: list[tuple[int, int, str]]) -> tuple[int, str]:
        """(position, tie rank, player): the earliest position, ties to the lowest rank."""
        pos, _, player = min(cands)
        return pos, player

    # --- outcomes -------------------------------------------------------------------------------

    def outcome(self) -> dict:
        loop = self.sc.loop
        if self.key == "cr-2024" and any(s.conditional for s in self.steps):
            return self.finish(("no_shortcut",))
        if self.key == "mtr-current":
            if any(s.conditional or s.random for s in self.steps):
                return self.finish(self.mtr_repeated_state())
            if loop.spans_turns and loop.meaningful_change:
                return self.finish(("no_shortcut",))
            if loop.shortcut_before:
                return self.finish(("no_restart",))
        inv = self.involved()
        if not inv:
            raw = self.mandatory()
        elif len(inv) == 1:
            raw = self.one_involved(inv[0])
        elif self.key in ("cr-2004", "cr-2008"):
            raw = self.rule_421(inv)
        elif self.key == "cr-2024":
            raw = self.cr2024(inv)
        else:
            raw = self.mtr(inv)
        return self.finish(raw)

    def mtr_repeated_state(self):
        """MTR: a non-deterministic loop must stop once a previous game state is reached again.

        Played naively: if every integer is the same after two iterations as after one, the first
        involved player stops after the first iteration (or earlier, at their own point).
        """
        inv = self.involved()
        if self.sc.format >= 3:
            return self.mtr_repeated_state_3(inv)
        ints = [n for n, v in self.sc.state.items() if not isinstance(v, bool)]
        once, twice = self.state_at(self.L), self.state_at(2 * self.L)
        if not inv or any(once[n] != twice[n] for n in ints):
            return ("no_shortcut",)
        p = inv[0]
        pos = self.L + self.first_choice(p)
        own = self.point(p)
        if own is not None and own < pos:
            pos = own
        return ("no_shortcut", pos, p)

    def mtr_repeated_state_3(self, inv: list[str]):
        """Format 2 and later (FORMAT item 9): the loop is played until a state is reached again,
        the first position whose state is a position's a whole number of iterations earlier;
        there the first involved player stops at their first optional step (or sooner, at their
        own point)."""
        rep = self.repeat_position()
        if not inv or rep is None:
            return ("no_shortcut",)
        p = inv[0]
        pos = next(q for q in range(rep, rep + self.L + 1) if self.step_at(q).optional and self.step_at(q).by == p)
        own = self.point(p)
        if own is not None and own < pos:
            pos = own
        return ("no_shortcut", pos, p)

    def mandatory(self):
        """Only players with a breaker or an "unless" payment can stop it; else a draw."""
        able = self.breaker_holders() | self.unless_payers()
        cands = []
        for rank, p in enumerate(self.order):
            if p in able and self.point(p) is not None:
                cands.append((self.point(p), rank, p))
        if not cands:
            return ("draw",)
        pos, who = self.earliest(cands)
        return ("cut", pos, who)

    def one_involved(self, controller: str):
        """421.2 / CR 729.2 / MTR: the controller's number, or an earlier other player's point."""
        cands = [(self.own_point(controller), -1, controller)]
        if self.key == "cr-2024":
            others = self.after(controller)
        else:
            others = [p for p in self.order if p != controller]
        for rank, p in enumerate(others):
            if self.point(p) is not None:
                cands.append((self.point(p), rank, p))
        pos, who = self.earliest(cands)
        return ("cut", pos, who)

    # 421 eras ------------------------------------------------------------------------------------

    def rule_421(self, inv: list[str]):
        if self.key == "cr-2004" and not (len(self.sc.players) == 2 and len(inv) == 2):
            return ("unspecified",)
        if self.sc.loop.independent:
            return self.rule_421_5(inv)
        return self.rule_421_3(inv)

    def rule_421_5(self, inv: list[str]):
        if self.key == "cr-2004":
            ap = self.sc.active
            n = self.count(ap)
            counts = {ap: n}
            for p in inv:
                if p != ap:
                    own = self.count(p)
                    counts[p] = own if own > n else n
        else:
            counts = {p: self.count(p) for p in inv}
        return ("sets", counts)

    def is_choice_421(self, st: Step) -> bool:
        return st.optional or (self.key == "cr-2004" and st.unless is not None)

    def includes_421(self, st: Step) -> set[str]:
        who = {st.by} if st.optional else set()
        if self.key == "cr-2004" and st.unless is not None:
            who.add(st.unless.by)
        return who

    def rule_421_3(self, inv: list[str]):
        first = inv[0]
        number, holder = self.count(first), first
        for p in inv[1:]:
            c = self.count(p)
            if c < number:
                number, holder = c, p
        d = holder
        cut = None
        start = number * self.L
        for pos in range(start, start + 3 * self.L + 1):
            if d not in self.includes_421(self.step_at(pos)):
                continue
            last = None
            for back in range(pos - 1, -1, -1):
                if self.is_choice_421(self.step_at(back)):
                    last = self.step_at(back)
                    break
            if last is not None and self.includes_421(last) - {d}:
                cut = pos
                break
        assert cut is not None, "oracle: 421.3 found no last-word position"
        who = d
        if self.key == "cr-2008":
            cands = []
            for rank, p in enumerate(self.order):
                if p not in inv and self.point(p) is not None and self.point(p) < cut:
                    cands.append((self.point(p), rank, p))
            if cands:
                cut, who = self.earliest(cands)
        return ("cut", cut, who)

    # CR 2024 -------------------------------------------------------------------------------------

    def first_repeat(self) -> int | None:
        loop = self.sc.loop
        if loop.spans_turns and loop.meaningful_change:
            return None
        return self.repeat_position()

    def repeat_position(self) -> int | None:
        """The first position whose state is the state one iteration earlier (format 3: a whole
        number of iterations earlier), or None."""
        if self.sc.format >= 3:
            # Format 3: with amounts the state may come back only after several iterations (a toggle
            # x -> 1 - x every second one, FORMAT item 28), or after a first iteration that leads
            # into a cycle (x -> 1): the first position whose state is that of a position a whole
            # number of iterations earlier.
            for p in range(self.L, 24 * self.L + 1):
                if any(self.state_at(p) == self.state_at(q) for q in range(p - self.L, -1, -self.L)):
                    return p
            return None
        for p in range(self.L, 4 * self.L + 1):
            if self.state_at(p) == self.state_at(p - self.L):
                return p
        return None

    def cr2024(self, inv: list[str]):
        a = inv[0]  # the active player if involved, else the first involved in turn order
        rep = self.first_repeat()
        if rep is not None:
            forced = next(
                q for q in range(rep, rep + self.L + 1) if self.step_at(q).optional and self.step_at(q).by == a
            )
            pos, who = forced, a
            own = self.point(a)
            if own is not None and own < pos:
                pos = own
        elif self.sc.loop.independent:
            counts = {p: self.count(p) for p in inv}
            # 729.2b: a breaker outside the sets shortens every proposal to where it breaks the
            # loop; a set that had already run its number keeps it
            stops = [(q, p) for p in self.ordered(self.breaker_holders() - set(inv)) for q in [self.point(p)] if q is not None]
            if not stops:
                return ("sets", counts)
            pos, who = min(stops, key=lambda stop: stop[0])  # the earliest; ties: turn order
            n, k = divmod(pos, self.L)
            began = {p: n + (1 if self.first_choice(p) < k else 0) for p in inv}
            if all(began[p] <= counts[p] for p in inv):
                return ("cut_sets", pos, who, inv)
            return ("sets", {p: min(counts[p], began[p]) for p in inv})
        else:
            pos, who = self.own_point(a), a
        for p in self.after(a):
            q = self.point(p)
            if q is not None and q < pos:
                pos, who = q, p
        if self.sc.loop.independent:
            return ("cut_sets", pos, who, inv)
        return ("cut", pos, who)

    # MTR -----------------------------------------------------------------------------------------

    def mtr(self, inv: list[str]):
        cands = []
        namer = 0
        finite = False
        for rank, p in enumerate(self.order):
            q = self.point(p)
            if p in inv:
                if q is None:
                    q = self.own_point(p, self.big + namer)
                    namer += 1
                else:
                    finite = True
                cands.append((q, rank, p))
            elif q is not None:
                finite = True
                cands.append((q, rank, p))
        if self.sc.loop.spans_turns and not finite:
            return ("draw",)
        pos, who = self.earliest(cands)
        if self.sc.loop.independent:
            return ("cut_sets", pos, who, inv)
        return ("cut", pos, who)

    # --- finishing: ends_when, state, fields ----------------------------------------------------

    def end_position(self) -> int | None:
        ends = self.sc.loop.ends_when
        if ends is None:
            return None

        def holds(v):
            return v <= ends.bound if ends.at_most else v >= ends.bound

        for pos in range((BIG - 10) * self.L):
            if holds(self.state_at(pos)[ends.value]):
                return pos
        for pos in range((BIG - 10) * self.L, (self.big + 8) * self.L):
            if holds(self.state_at(pos)[ends.value]):
                raise OracleLimit("the loop ends too late for the stand-in")
        return None

    def holds(self, state: dict) -> bool:
        ends = self.sc.loop.ends_when
        if ends is None:
            return False
        v = state[ends.value]
        return v <= ends.bound if ends.at_most else v >= ends.bound

    def run_sets(self, counts: dict[str, int]) -> tuple[dict, int | None, dict | None]:
        """421.5: the sets run side by side, each stopping after its own count.

        A mandatory step belongs to the set of the nearest optional step before it, cyclically.
        Played one step at a time; returns the final state, and where ``ends_when`` first holds:
        while every set is still running (so the steps performed are exactly the loop's first
        ``p`` steps), that linear position ``p``; after some set has stopped, each set's count
        then (the state returned is the state then).
        """
        owners = []
        for i in range(self.L):
            owner = None
            for back in range(self.L):
                st = self.steps[(i - back) % self.L]
                if st.optional:
                    owner = st.by
                    break
            owners.append(owner)
        if any(o is None or o not in counts for o in owners):
            raise OracleLimit("a step belongs to no counted set")
        s = dict(self.sc.state)
        if self.holds(s):
            return s, 0, None
        lockstep = min(counts.values())
        for r in range(max(counts.values(), default=0)):
            for i, st in enumerate(self.steps):
                if counts[owners[i]] > r:
                    amounts = {name: amount.evaluate(s) for name, amount in st.amounts.items()}
                    for name, value in st.set.items():
                        s[name] = value
                    for name, delta in st.add.items():
                        s[name] = s[name] + delta
                    for name, delta in amounts.items():
                        s[name] = s[name] + delta
                    if self.holds(s):
                        if r < lockstep:
                            return s, r * self.L + i + 1, None
                        reached = {
                            p: c if c <= r else r + (1 if self.first_choice(p) <= i else 0)
                            for p, c in counts.items()
                        }
                        return s, None, reached
        return s, None, None

    def finish(self, raw) -> dict:
        kind = raw[0]
        out = {
            "result": kind,
            "iterations": None,
            "steps": 0,
            "deviates": None,
            "last_action": None,
            "state": dict(self.sc.state),
        }
        end = self.end_position() if kind in ("draw", "cut", "cut_sets") else None
        if kind == "no_shortcut" and len(raw) > 1:
            # Played out, but the player must stop where a previous state is reached again.
            pos = raw[1]
            n, k = divmod(pos, self.L)
            out.update(iterations=n, steps=k, deviates=raw[2], last_action=self.last_action(pos), state=dict(self.state_at(pos)))
        if kind in ("cut", "cut_sets"):
            pos = raw[1]
            moved = self.moved(pos, raw[2])  # a cut no player can act at moves on (FORMAT item 23)
            pos = pos if moved is None else moved
            if end is not None and end <= pos:
                kind = "ends"
            else:
                n, k = divmod(pos, self.L)
                out.update(
                    result="shortcut",
                    steps=k,
                    deviates=raw[2],
                    last_action=self.last_action(pos),
                    state=dict(self.state_at(pos)),
                )
                if kind == "cut":
                    out["iterations"] = n
                else:
                    out["iterations"] = {p: n + (1 if self.first_choice(p) < k else 0) for p in raw[3]}
        elif kind == "draw" and end is not None:
            kind = "ends"
        elif kind == "sets":
            counts = raw[1]
            state, end, reached = self.run_sets(counts)
            if end is not None:
                kind = "ends"
            elif reached is not None:
                out.update(result="ends", iterations=reached, state=state)
            else:
                out.update(result="shortcut", iterations=dict(counts), state=state)
        if kind == "ends":
            n, k = divmod(end, self.L)
            out.update(
                result="ends",
                iterations=n,
                steps=k,
                deviates=None,
                last_action=self.last_action(end),
                state=dict(self.state_at(end)),
            )
        out["judge"] = (
            self.key == "mtr-current"
            and any(s.hidden for s in self.steps)
            and out["result"] in ("shortcut", "draw", "ends")
        )
        return out


# --- format 2: the loop's values, played one application at a time ----------------------------------
#
# The closed form (rulesets/dynamics.py) jumps over whole phases; this plays every application of
# every step from the start, literally as FORMAT.md "Format 2" items 2-6 describe it: requires,
# then mul, add, set, then clamp, then every end in file order; players who lose leave (their
# steps drop out, targets skip them, ends naming them drop out); the last player left, everyone
# at once (a draw), or no step left stops the loop.  It shares only the data model.


def play_format2(
    scenario: Scenario,
    limit: int,
    counts: Mapping[str, int] | None = None,
    halts: frozenset[int] = frozenset(),
    trace: list[dict] | None = None,
) -> dict[str, Any]:
    """Play ``limit`` steps (or until the loop stops): the stop, who left where, the state.

    With ``counts`` (independent sets): each player's set is played only in its first
    ``counts[player]`` iterations; a step belongs to the set of its controller if it sustains the
    loop (optional and not a side benefit, or a choice), else to that of the last such step before
    it (wrapping round).
    ``halts`` (format 3, FORMAT item 24): positions where play stops before the step there
    (``stop = "halt"``), as steps still resolving after a cut stop at their controller's own point.
    ``trace`` (format 3): if given, the state before each position played is appended to it.
    Format 3 amounts (FORMAT item 28) are evaluated on the values at the start of each
    application, all at once, before its ``mul``; each application of a ``times`` step anew.
    """
    steps = scenario.steps
    size = len(steps)
    owner: list[str | None] = []
    for j in range(size):
        back = [steps[(j - d) % size] for d in range(size)]
        # a set starts at a step that sustains the loop: optional (not a side benefit), or a choice
        owner.append(next((s.by for s in back if (s.sustains if s.optional else s.choice)), None))
    values: dict = {}
    for name, start in scenario.state.items():
        if isinstance(start, dict) or hasattr(start, "items"):
            for p, v in start.items():
                values[(name, p)] = v
        else:
            values[name] = start
    per_player = {n for n, v in scenario.state.items() if hasattr(v, "items")}
    resolution = scenario.loop.within == "resolution"
    present = list(scenario.players)
    pointers: dict[int, str] = {}
    left: list[tuple[str, int]] = []
    turn, turns = scenario.active, []
    for st in steps:
        turn = st.turn or turn
        turns.append(turn)

    def state():
        out = {}
        for name, start in scenario.state.items():
            out[name] = {p: values[(name, p)] for p in start} if name in per_player else values[name]
        return out

    def stop(kind, position, effect=""):
        return {"stop": kind, "position": position, "effect": effect, "eliminated": list(left), "state": state()}

    for position in range(limit):
        if trace is not None:
            trace.append(state())
        if position in halts:
            return stop("halt", position)
        j = position % size
        st = steps[j]
        if counts is not None and owner[j] in counts and position // size >= counts[owner[j]]:
            continue  # that set has run its own number of times
        for _ in range(st.times):
            if st.by not in present:
                break
            failed = [n for n, need in st.requires.items() if values[n] < need]
            if failed:
                if st.optional and not st.sustains:
                    continue
                return stop("forced" if st.optional else "requirement", position, f"requires {failed[0]} >= {st.requires[failed[0]]}: {st.does}")
            targets: list[str] = []
            if st.target is not None:
                among = [p for p in st.target.among if p in present]
                if among:
                    if st.target.order == "each":
                        targets = among
                    elif st.target.order == "fixed":
                        targets = among[:1]
                    else:
                        last = pointers.get(j)
                        if last is None:
                            pick = among[0]
                        else:
                            ring = list(st.target.among)
                            i = ring.index(last)
                            pick = next(ring[(i + d) % len(ring)] for d in range(1, len(ring) + 1) if ring[(i + d) % len(ring)] in present)
                        pointers[j] = pick
                        targets = [pick]
            touched = []
            # Format 3 amounts read the values at the start of this application, all at once.
            amounts = {name: amount.evaluate(values) for name, amount in st.amounts.items()}
            for name in set(st.mul) | set(st.add) | set(st.set) | set(amounts):
                comps = [(name, p) for p in targets] if name in per_player else [name]
                for c in comps:
                    x = values[c]
                    if name in st.mul:
                        x = x * st.mul[name]
                    if name in st.add:
                        x = x + st.add[name]
                    if name in amounts:
                        x = x + amounts[name]
                    if name in st.set:
                        x = st.set[name]
                    lim = scenario.limits.get(name) if not isinstance(c, tuple) else scenario.entry_limits.get(name, {}).get(c[1])
                    if lim is not None:
                        if lim.min is not None and x < lim.min:
                            x = lim.min
                        if lim.max is not None and x > lim.max:
                            x = lim.max
                    values[c] = x
                    touched.append(c)
            losers: list[tuple[str, str]] = []
            ended = None
            for end in scenario.end_conditions:
                if end.loses is not None and end.loses not in present:
                    continue
                if resolution and (end.loses is not None or end.loses_each):
                    continue  # nobody loses inside one resolution (FORMAT item 18)
                comps = [(end.value, p) for p in present if p not in end.exempt] if end.value in per_player else [end.value]
                for c in comps:
                    if c not in touched:
                        continue
                    v = values[c]
                    if not (v <= end.bound if end.at_most else v >= end.bound):
                        continue
                    if end.loses_each:
                        losers.append((c[1], end.effect))
                    elif end.loses is not None:
                        losers.append((end.loses, end.effect))
                    elif ended is None:
                        ended = end.effect
            if losers:
                order = list(scenario.players)
                i = order.index(turns[j])
                order = order[i:] + order[:i]
                gone = {p: e for p, e in reversed(losers)}
                for p in order:
                    if p in gone and p in present:
                        left.append((p, position + 1))
                present[:] = [p for p in present if p not in gone]
                effect = gone[left[-1][0]] if left and left[-1][0] in gone else ""
                if not present:
                    return stop("draw", position + 1, effect)
                if len(present) == 1:
                    return stop("gameover", position + 1, effect)
                if ended is None and not any(s.by in present for s in steps):
                    return stop("nosteps", position + 1, effect)
                if ended is None:
                    # FORMAT item 20: a step (not a side benefit) whose targets have all left.
                    for k, other in enumerate(steps):
                        if other.target is None or other.by not in present or (other.optional and not other.sustains):
                            continue
                        if counts is not None and owner[k] in counts and position // size >= counts[owner[k]]:
                            continue
                        if not any(p in present for p in other.target.among):
                            return stop("untargeted", position + 1, effect)
            if ended is not None:
                return stop("end", position + 1, ended)
    return {"stop": None, "position": limit, "effect": "", "eliminated": list(left), "state": state()}


# --- format 3 amounts: every ruleset's outcome, for a loop one player maintains ------------------------
#
# FORMAT.md "Format 3", item 28: an amount ``add = { mana = "power" }`` reads the values at the start of
# each application.  ``play_format2`` plays such a loop one application at a time (above); this gives
# the outcome each of the nine built-in rulesets must reach for the loops the amount property test
# generates (tests/format3/test_amount_oracle.py), read from the texts as follows:
#
# * one involved player (the controller of every optional step), or none; another player holds at most
#   a breaker.  Every era then lets the controller stop where they mean to (421.2, 713.2, 729.2, 732.2,
#   G.21, MTR 4.4) unless another player's point comes strictly earlier; a mandatory loop stops only
#   at a breaker holder's point;
# * the controller's point is their intent's ``after`` iterations at their first optional step (or the
#   intent's exact ``step``); a goal ``until`` is the first number of complete iterations after which
#   it holds (Format 2 item 13); an optional step whose ``requires`` fails is a deviation there
#   (item 8: ``stopped_by = "requirement"``);
# * a repeated game state stops nobody here: the CR's fragmented-loop rule (713.3, 729.3, 732.3) is
#   about loops in which several players each take an independent action, and the MTR's about
#   non-deterministic loops;
# * the loop ends by itself (an ``[[end]]``, a mandatory step's failed ``requires``, a player losing) at
#   the first such position no later than the cut: ``ends``;
# * played out to a horizon; anything that depends on what lies beyond (a "never" loop that does not
#   end, a goal not reached by then) raises :class:`OracleLimit`.

ALL_RULESETS = (
    "summary-1998", "cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "mtr-2018", "cr-2024", "mtr-current",
)
#: How many iterations :func:`settle_amounts` plays out.
AMOUNT_HORIZON = 40


def settle_amounts(scenario: Scenario, key: str, horizon: int = AMOUNT_HORIZON) -> dict[str, Any]:
    """The compared outcome fields of a small format 3 loop with amounts under ruleset ``key``."""
    if key not in ALL_RULESETS:
        raise ValueError(key)
    steps = scenario.steps
    size = len(steps)
    involved = sorted({s.by for s in steps if s.optional and s.sustains})
    if len(involved) > 1 or any(s.choice or s.unless is not None or s.target is not None for s in steps):
        raise OracleLimit("settle_amounts plays loops with at most one involved player and no choices, payments or targets")
    if scenario.loop.independent or scenario.loop.within != "priority" or any(s.random or s.conditional or s.hidden or not s.priority for s in steps):
        raise OracleLimit("settle_amounts plays deterministic loops at priority only")
    limit = horizon * size
    trace: list[dict] = []
    played = play_format2(scenario, limit, trace=trace)
    # states[p]: the state after p steps; where the loop stopped, the state it stopped in (with a
    # requirement that fails in a later application of a ``times`` step, the applications before it)
    states = trace + [played["state"]] if played["stop"] is None else trace[: played["position"]] + [played["state"]]

    def state_at(pos: int) -> dict:
        return states[pos]

    def last_action(pos: int) -> str | None:
        return steps[(pos - 1) % size].by if pos > 0 else None

    # (position, rank, player, stopped_by): the earliest wins; ties to the lowest rank (the controller)
    cands: list[tuple[int, int, str, str]] = []
    controller = involved[0] if involved else None
    if controller is not None:
        first = next(i for i, s in enumerate(steps) if s.by == controller and s.optional and s.sustains)
        intent = scenario.intent(controller)
        if intent.after is not None:
            k = intent.step if intent.step is not None else first
            cands.append((intent.after * size + k, 0, controller, "intent"))
        elif intent.until is not None:
            goal = intent.until
            for n in range(0, (len(states) - 1) // size + 1):
                v = state_at(n * size)[goal.value]
                if (v <= goal.bound) if goal.at_most else (v >= goal.bound):
                    cands.append((n * size + first, 0, controller, "intent"))
                    break
        if played["stop"] == "forced":
            # at the controller's own point too: that point is a failed requirement (item 8)
            cands.append((played["position"], -1, controller, "requirement"))
    for b in scenario.breakers:
        intent = scenario.intent(b.by)
        if b.by != controller and intent.after is not None:
            cands.append((intent.after * size + (intent.step or 0), 3, b.by, "intent"))
    cut = min(cands) if cands else None
    stop = played["stop"] if played["stop"] != "forced" else None
    out: dict[str, Any] = {
        "result": None, "iterations": None, "steps": 0, "deviates": None, "last_action": None,
        "state": dict(scenario.state), "judge": False, "stopped_by": None, "ended_by": None, "eliminated": [],
    }
    if stop is not None and (cut is None or played["position"] <= cut[0]):
        pos = played["position"]
        n, k = divmod(pos, size)
        # everyone losing at once is a draw (CR 104.4a, Format 2 item 6)
        result = "draw" if stop == "draw" else "ends"
        out.update(result=result, iterations=n, steps=k, last_action=last_action(pos), state=state_at(pos), ended_by=played["effect"])
        out["eliminated"] = [{"player": p, "iterations": q // size, "steps": q % size} for p, q in played["eliminated"]]
        return out
    if cut is None or cut[0] > len(states) - 1:
        raise OracleLimit("nothing stops the loop within the horizon")
    pos, _, who, why = cut
    n, k = divmod(pos, size)
    out.update(result="shortcut", iterations=n, steps=k, deviates=who, last_action=last_action(pos), state=state_at(pos), stopped_by=why)
    return out
