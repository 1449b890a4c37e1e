"""Comparisons: one scenario settled under several rulesets, and where they differ."""

from __future__ import annotations

import copy
import math
import os
import queue
import sys
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence, TextIO

from loopcompare.rulesets import COMPARED_FIELDS, UNBOUNDED, Outcome, Result, Ruleset, Scenario, bignum
from loopcompare.rulesets.bignum import Huge
from loopcompare.rulesets.linear import HugeSum
from loopcompare.rulesets.outcome import Elimination, StoppedBy
from loopcompare.rulesets.registry import BUILTIN, registry
from loopcompare.rulesets.values import Unsettleable

from . import huge_values, metadata
from .controls import visible
from .loader import ScenarioError, ScenarioFile


@dataclass(frozen=True)
class Comparison:
    """A scenario, the rulesets it was settled under (in order), and their outcomes."""

    scenario: ScenarioFile
    rulesets: tuple[Ruleset, ...]
    outcomes: Mapping[str, Outcome]

    @property
    def fields(self) -> tuple[str, ...]:
        """Every compared field, with one ``state.NAME`` per tracked value (sorted by name) and
        one ``state.NAME.PLAYER`` per player of a per-player value (FORMAT item 15)."""
        out: list[str] = []
        state = self.scenario.scenario.state
        for name in COMPARED_FIELDS:
            if name == "state":
                for k in sorted(state):
                    value = state[k]
                    if isinstance(value, Mapping):
                        out += [f"state.{k}.{p}" for p in sorted(value)]
                    else:
                        out.append(f"state.{k}")
            else:
                out.append(name)
        return tuple(out)

    def values(self, field: str) -> tuple[Any, ...]:
        """The field's plain value under each ruleset, in column order."""
        return tuple(self.outcomes[r.key].value(field) for r in self.rulesets)

    @property
    def differences(self) -> tuple[str, ...]:
        """The fields whose values are not all the same (docs/FORMAT.md ``differences``).  An ``n/a``
        outcome (a loop that could not happen under that text) takes part with its result only:
        its other fields are neutral, not settled (FORMAT item 27)."""
        settled = [r.key for r in self.rulesets if self.outcomes[r.key].result is not Result.NOT_APPLICABLE]
        out = []
        for f in self.fields:
            keys = [r.key for r in self.rulesets] if f == "result" else settled
            if len({_hashable(self.outcomes[k].value(f)) for k in keys}) > 1:
                out.append(f)
        # FORMAT item 30: each part compared among the rulesets that reached it ("parts[K].FIELD", K from 0).
        deepest = max((len(self.outcomes[k].parts) for k in settled), default=0)
        for index in range(deepest):
            reached = [self.outcomes[k].parts[index] for k in settled if len(self.outcomes[k].parts) > index]
            for f in self.fields:
                if len({_hashable(o.value(f)) for o in reached}) > 1:
                    out.append(f"parts[{index}].{f}")
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """docs/FORMAT.md's comparison object."""
        return {
            "scenario": {"id": self.scenario.id, "title": self.scenario.scenario.title, "file": self.scenario.file, **metadata.to_json(self.scenario.scenario)},
            "rulesets": [{"key": r.key, "name": r.name, "effective": r.effective} for r in self.rulesets],
            "outcomes": {r.key: self.outcomes[r.key].to_json() for r in self.rulesets},
            "differences": list(self.differences),
        }


def compare(scenario: ScenarioFile, rulesets: Sequence[Ruleset]) -> Comparison:
    """Settle one scenario under each ruleset.

    A third-party ruleset can't take the comparison down: one that raises (even ``SystemExit``),
    returns something that is not a valid :class:`Outcome`, or runs past the time limit
    (:func:`plugin_time_limit`) gets an ``unspecified`` outcome whose note names the plugin and
    the problem, and what it prints goes to standard error, never into a report on standard
    output.  Each call gets its own copy of the scenario, and a plugin that has used up its time
    budget for the run (:func:`plugin_budget`) is marked slow and not asked again.  What only a
    worker process contains (``os._exit``, monkeypatching) is :mod:`.isolation`'s.  The built-in rulesets are trusted and run directly: an error there is a bug, and it
    propagates.
    """
    return Comparison(scenario, tuple(rulesets), {r.key: _settle(r, scenario) for r in rulesets})


# --- third-party rulesets ---------------------------------------------------------------------------

#: The default time a third-party ruleset may take to settle one scenario, in seconds.
PLUGIN_TIME_LIMIT = 5.0
#: The environment variable that sets it (the command line's ``--plugin-timeout`` sets it too).
PLUGIN_TIMEOUT_ENV = "LOOPCOMPARE_PLUGIN_TIMEOUT"
#: The default time a third-party ruleset may take over a whole run (every scenario, the atlas's
#: tens of thousands of loops included), in seconds; then it is marked slow and not asked again.
PLUGIN_BUDGET = 60.0
#: The environment variable that sets it (the command line's ``--plugin-budget`` sets it too).
PLUGIN_BUDGET_ENV = "LOOPCOMPARE_PLUGIN_BUDGET"

_time_limit: float | None = None
_budget: float | None = None
#: Seconds each plugin (by key) has spent settling in this process.
_spent: dict[str, float] = {}
#: Keys of plugins that ran out of time in this process: their thread may still be running, so
#: they are not asked again (each further scenario would cost the whole limit, and another thread).
_out_of_time: set[str] = set()
# Threads that run plugin code (what they print goes to standard error, see _PluginStdout), and
# those of them busy with a call now (an abandoned one stays busy).
_plugin_threads: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
_busy: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()


def set_plugin_time_limit(seconds: float | None) -> None:
    """Set the time a third-party ruleset may take per scenario (None: back to the default)."""
    global _time_limit
    if seconds is not None and not seconds > 0:
        raise ValueError(f"the plugin time limit must be more than 0 seconds, got {seconds!r}")
    _time_limit = seconds


def set_plugin_budget(seconds: float | None) -> None:
    """Set the time a third-party ruleset may take over the whole run (None: back to the default)."""
    global _budget
    if seconds is not None and not seconds > 0:
        raise ValueError(f"the plugin time budget must be more than 0 seconds, got {seconds!r}")
    _budget = seconds


def plugin_budget() -> float:
    """The time, in seconds, a third-party ruleset may take over the whole run.

    Set by :func:`set_plugin_budget`, else by ``LOOPCOMPARE_PLUGIN_BUDGET``, else 60 seconds.
    (The atlas gives each of its worker processes an equal share.)
    """
    if _budget is not None:
        return _budget
    try:
        value = float(os.environ.get(PLUGIN_BUDGET_ENV, ""))
    except ValueError:
        return PLUGIN_BUDGET
    return value if value > 0 and math.isfinite(value) else PLUGIN_BUDGET


def slow_plugins() -> dict[str, float]:
    """The plugins that used up their time budget in this process: key -> seconds spent."""
    budget = plugin_budget()
    return {key: spent for key, spent in sorted(_spent.items()) if spent >= budget}


def plugin_time_limit() -> float:
    """The time, in seconds, a third-party ruleset may take to settle one scenario.

    Set by :func:`set_plugin_time_limit`, else by the environment variable
    ``LOOPCOMPARE_PLUGIN_TIMEOUT`` (a positive number of seconds), else 5 seconds.
    """
    if _time_limit is not None:
        return _time_limit
    try:
        value = float(os.environ.get(PLUGIN_TIMEOUT_ENV, ""))
    except ValueError:
        return PLUGIN_TIME_LIMIT
    return value if value > 0 and math.isfinite(value) else PLUGIN_TIME_LIMIT


def trusted(ruleset: Ruleset) -> bool:
    """True for the built-in rulesets (their own classes, not subclasses or look-alikes)."""
    cls = type(ruleset)
    return BUILTIN.get(ruleset.key) == f"{cls.__module__}:{cls.__qualname__}"


def _settle(ruleset: Ruleset, scenario: ScenarioFile) -> Outcome:
    if trusted(ruleset):
        try:
            return ruleset.settle(scenario.scenario)
        except Unsettleable as exc:
            # FORMAT items 28-31: what the engine can't settle exactly is bad input (exit 2), naming the file and where.
            raise ScenarioError(scenario.file, exc.where, exc.message) from None
    return _settle_plugin(ruleset, scenario)


def _failed(ruleset: Ruleset, scenario: ScenarioFile, problem: str) -> Outcome:
    """The outcome a misbehaving plugin gets: unspecified, with a note naming it and the problem."""
    note = f"The ruleset plugin {ruleset.key!r} failed on this scenario: {problem}. The result is 'unspecified'."
    return Outcome(Result.UNSPECIFIED, notes=(note,), state=dict(scenario.scenario.state))


def _settle_plugin(ruleset: Ruleset, scenario: ScenarioFile) -> Outcome:
    """Settle under a third-party ruleset in its own thread, which can be abandoned.

    The thread is a daemon, so a plugin that never returns does not keep the process alive; it
    is abandoned after the time limit, and the plugin is not asked again in this process.
    """
    limit = plugin_time_limit()
    if ruleset.key in _out_of_time:
        return _failed(ruleset, scenario, f"it ran out of time (the limit is {limit:g} s) on an earlier scenario in this run, so it was not asked again")
    budget = plugin_budget()
    spent = _spent.get(ruleset.key, 0.0)
    if spent >= budget:
        return _failed(
            ruleset, scenario,
            f"it is slow: it used up its time budget for this run ({budget:g} s; --plugin-budget, {PLUGIN_BUDGET_ENV}), so it was not asked again",
        )
    # Its own copy: whatever the plugin does to the scenario (even through object.__setattr__
    # on the frozen dataclasses) reaches neither the built-in rulesets nor the report.
    own = copy.deepcopy(scenario.scenario)
    started = time.monotonic()
    with _PluginStdout.installed():
        answer = _PluginThread.of(ruleset).settle(own, min(limit, budget - spent))
    _spent[ruleset.key] = spent + (time.monotonic() - started)
    if answer is None:
        if budget - spent < limit:
            _spent[ruleset.key] = max(_spent[ruleset.key], budget)  # slow: not asked again
            return _failed(
                ruleset, scenario,
                f"it is slow: it used up its time budget for this run ({budget:g} s; --plugin-budget, {PLUGIN_BUDGET_ENV}) and was abandoned",
            )
        _out_of_time.add(ruleset.key)
        return _failed(ruleset, scenario, f"it did not finish within the time limit of {limit:g} s (--plugin-timeout, {PLUGIN_TIMEOUT_ENV}) and was abandoned")
    kind, value = answer
    if kind == "error":
        if isinstance(value, SystemExit):
            return _failed(ruleset, scenario, f"it called sys.exit({value.code!r})")
        return _failed(ruleset, scenario, f"{type(value).__name__}: {value}")
    problem = outcome_problem(value, scenario.scenario)
    return _failed(ruleset, scenario, problem) if problem else value


class _PluginThread:
    """A daemon thread that runs one plugin's ``settle`` calls, one at a time.

    One long-lived thread per plugin rather than one per call: the atlas settles tens of
    thousands of loops, and starting a thread each time would cost more than settling.
    """

    _by_ruleset: "weakref.WeakKeyDictionary[Ruleset, _PluginThread]" = weakref.WeakKeyDictionary()

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.requests: queue.SimpleQueue[Scenario] = queue.SimpleQueue()
        self.answers: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name=f"loopcompare plugin {ruleset.key}", daemon=True)
        _plugin_threads.add(self.thread)
        self.thread.start()

    @classmethod
    def of(cls, ruleset: Ruleset) -> "_PluginThread":
        runner = cls._by_ruleset.get(ruleset)
        if runner is None or not runner.thread.is_alive():  # (a forked child has no threads)
            runner = cls._by_ruleset[ruleset] = cls(ruleset)
        return runner

    def _serve(self) -> None:
        while True:
            scenario = self.requests.get()
            answer: tuple[str, Any]
            try:
                answer = ("outcome", self.ruleset.settle(scenario))
            except BaseException as exc:  # SystemExit and KeyboardInterrupt from a plugin included
                answer = ("error", exc)
            self.answers.put(answer)

    def settle(self, scenario: Scenario, limit: float) -> tuple[str, Any] | None:
        """("outcome", what settle returned) or ("error", what it raised); None after ``limit``
        seconds without an answer (the thread is then left to itself)."""
        _busy.add(self.thread)
        self.requests.put(scenario)
        try:
            answer = self.answers.get(timeout=limit)
        except queue.Empty:
            return None
        _busy.discard(self.thread)
        return answer


class _PluginStdout:
    """``sys.stdout`` while plugin code runs: what a plugin thread prints goes to standard error
    (its control characters shown as codes), so it never corrupts a report on standard output;
    every other thread writes through.  It stays in place while an abandoned plugin thread lives."""

    def __init__(self, stdout: TextIO) -> None:
        self._stdout = stdout

    def write(self, text: str) -> int:
        if threading.current_thread() in _plugin_threads:
            sys.stderr.write(visible(text))
            return len(text)
        return self._stdout.write(text)

    def flush(self) -> None:
        self._stdout.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stdout, name)

    @classmethod
    @contextmanager
    def installed(cls) -> Iterator[None]:
        if isinstance(sys.stdout, cls):
            yield
            return
        router = cls(sys.stdout)
        sys.stdout = router
        try:
            yield
        finally:
            if sys.stdout is router and not any(t.is_alive() for t in _busy):
                sys.stdout = router._stdout


#: Integers a report can print (Python refuses to print integers of more than 4,300 digits).
_PRINTABLE_INT = 10**4000


def _number(value: Any, *, negative: bool = False) -> bool:
    """A count or a state integer as the built-in rulesets give them: an int a report can print,
    UNBOUNDED, or an exact huge value (:class:`loopcompare.rulesets.bignum.Huge`)."""
    if value is UNBOUNDED or isinstance(value, (Huge, HugeSum)):
        return True
    return type(value) is int and (negative or value >= 0) and abs(value) < _PRINTABLE_INT


def outcome_problem(outcome: Any, scenario: Scenario) -> str | None:
    """What makes ``outcome`` unusable as this scenario's outcome, or None if it is fine.

    Checks what reports and JSON rely on: an :class:`Outcome` whose fields have the documented
    types, players that are the scenario's players, and a state with every tracked value (each
    of the declared kind: true or false, a number, or a number per player).
    """
    if not isinstance(outcome, Outcome):
        return f"settle returned {_a(outcome)}, not an Outcome"
    if not isinstance(outcome.result, Result):
        return f"its result is {_a(outcome.result)}, not a Result"
    players = scenario.players
    iterations = outcome.iterations
    if isinstance(iterations, Mapping):
        bad = next((p for p, v in iterations.items() if p not in players or not _number(v)), None)
        if bad is not None:
            return f"its iterations give {_a(iterations[bad])} for {bad!r}; expected a player's count"
    elif iterations is not None and not _number(iterations):
        return f"its iterations are {_a(iterations)}; expected a whole number of 0 or more, UNBOUNDED, None or a count per player"
    if type(outcome.steps) is not int or not 0 <= outcome.steps <= len(scenario.steps):
        return f"its steps are {_a(outcome.steps)}; expected a whole number from 0 to {len(scenario.steps)}"
    for name in ("deviates", "last_action"):
        who = getattr(outcome, name)
        if who is not None and (not isinstance(who, str) or who not in players):
            return f"its {name} is {_a(who)}, not one of the players"
    if not isinstance(outcome.state, Mapping) or set(outcome.state) != set(scenario.state):
        got = sorted(map(str, outcome.state)) if isinstance(outcome.state, Mapping) else _a(outcome.state)
        return f"its state has {got or 'no values'}; expected every tracked value ({', '.join(sorted(scenario.state)) or 'none'})"
    for name, value in outcome.state.items():
        declared = scenario.state[name]
        if isinstance(value, str) and value == "random":
            continue  # a part after a random stop: a value the random part changed (FORMAT item 30)
        if isinstance(declared, bool):
            fine, wanted = isinstance(value, bool), "true or false"
        elif isinstance(declared, Mapping):
            fine = isinstance(value, Mapping) and set(value) == set(declared) and all(_number(v, negative=True) for v in value.values())
            wanted = f"a whole number for each of {', '.join(declared)}"
        else:
            fine, wanted = _number(value, negative=True), "a whole number or UNBOUNDED"
        if not fine:
            return f"its state value {name!r} is {_a(value)}; expected {wanted}"
    if not isinstance(outcome.judge, bool):
        return f"its judge is {_a(outcome.judge)}, not true or false"
    for name in ("rules", "notes", "transcript"):
        texts = getattr(outcome, name)
        if not isinstance(texts, (tuple, list)) or not all(isinstance(t, str) for t in texts):
            return f"its {name} are {_a(texts)}; expected a tuple of strings"
    quotes = outcome.quotes
    if not isinstance(quotes, (tuple, list)) or not all(isinstance(q, tuple) and len(q) == 2 and all(isinstance(x, str) for x in q) for q in quotes):
        return f"its quotes are {_a(quotes)}; expected (rule id, text) pairs"
    # The fields format 2 added.
    for name in ("ended_by", "ends_early_if"):
        if getattr(outcome, name) is not None and not isinstance(getattr(outcome, name), str):
            return f"its {name} is {_a(getattr(outcome, name))}; expected a string or None"
    if outcome.stopped_by is not None and not isinstance(outcome.stopped_by, StoppedBy):
        return f"its stopped_by is {_a(outcome.stopped_by)}; expected a StoppedBy or None"
    eliminated = outcome.eliminated
    if not isinstance(eliminated, (tuple, list)) or not all(
        isinstance(e, Elimination) and e.player in players and _number(e.iterations) and type(e.steps) is int and e.steps >= 0 for e in eliminated
    ):
        return f"its eliminated are {_a(eliminated)}; expected Elimination entries naming players"
    expected = outcome.expected_iterations
    if expected is not None and not (isinstance(expected, Fraction) and expected >= 0 and abs(expected.numerator) < _PRINTABLE_INT and expected.denominator < _PRINTABLE_INT):
        return f"its expected_iterations are {_a(expected)}; expected a Fraction of 0 or more, or None"
    return None


def _a(value: Any) -> str:
    """A value in a message, briefly: its type, and its repr when short.

    Only plain data is shown (a plugin's own object could have a ``__repr__`` that raises or
    never returns); integers too long to print are described, not printed.
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    kind = type(value).__name__
    if not _plain(value):
        return f"a {kind}"
    text = repr(value)
    return f"{kind} {text}" if len(text) <= 40 else f"a {kind}"


def _plain(value: Any, depth: int = 0) -> bool:
    """Built-in scalars, and short built-in containers of them: safe and quick to repr."""
    if value is None or type(value) in (bool, float, str):
        return True
    if type(value) is int:
        return value.bit_length() < 1000
    if type(value) in (tuple, list, dict) and depth < 2 and len(value) <= 8:
        items = list(value.items()) if type(value) is dict else [(v, None) for v in value]
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in items)
    return False


def _hashable(value: object) -> tuple[object, ...]:
    """A plain value as something a set holds and ``==`` compares by content and type."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    # Distinguish True from 1 so a boolean never equals an integer.
    return (type(value).__name__, value)


@dataclass(frozen=True)
class Mismatch:
    """One expectation that an outcome did not meet."""

    scenario: str
    ruleset: str
    field: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.scenario}: {self.ruleset}: {self.field}: expected {_show(self.expected)}, got {_show(self.got)}"


def check(comparison: Comparison) -> list[Mismatch]:
    """Every ``[expect]`` field the comparison's outcomes do not meet.

    Only the fields given are checked; ``state`` checks the values it names; ``rules`` checks that
    each listed rule is cited.
    """
    problems: list[Mismatch] = []
    sf = comparison.scenario
    for key, fields in sf.expect.items():
        outcome = comparison.outcomes.get(key)
        if outcome is None:
            # An expected ruleset the comparison left out is settled here, so no expectation is skipped.
            outcome = _settle(registry().get(key), sf)
        for name, want in fields.items():
            if name == "state":
                for value_name, value in want.items():
                    if isinstance(value, Mapping):
                        # A per-player value: only the players given are checked (FORMAT item 15).
                        for player, entry in value.items():
                            got = outcome.value(f"state.{value_name}.{player}")
                            if not _same_value(got, entry):
                                problems.append(Mismatch(sf.file, key, f"state.{value_name}.{player}", entry, got))
                        continue
                    got = outcome.value(f"state.{value_name}")
                    if not _same_value(got, value):
                        problems.append(Mismatch(sf.file, key, f"state.{value_name}", value, got))
            elif name == "parts":
                # Each part's outcome is checked on the fields given for it (FORMAT item 30).
                got_parts = outcome.value("parts")
                assert isinstance(got_parts, list)
                if len(got_parts) != len(want) or not all(
                    isinstance(g, dict) and all(_same_subset(g.get(k), v) for k, v in w.items()) for g, w in zip(got_parts, want)
                ):
                    problems.append(Mismatch(sf.file, key, "parts", want, got_parts))
            elif name == "rules":
                missing = [r for r in want if r not in outcome.rules]
                if missing:
                    problems.append(Mismatch(sf.file, key, "rules", want, list(outcome.rules)))
            else:
                got = outcome.value(name)
                if not _same_value(got, want):
                    problems.append(Mismatch(sf.file, key, name, want, got))
    return problems


def _same_subset(got: object, want: object) -> bool:
    """Like :func:`_same_value`, but a table expected checks only the keys it names (a part's
    ``state``, its ``rules`` listed as cited)."""
    if isinstance(want, dict) and isinstance(got, dict):
        return all(_same_subset(got.get(k), v) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list) and all(isinstance(r, str) for r in want) and want and not all(isinstance(r, str) for r in got):
        return False
    return _same_value(got, want)


def _same_value(got: object, want: object) -> bool:
    """Equal as plain data; a huge value written as an expression compares numerically
    (FORMAT item 14), and so does an exact fraction written another way."""
    if _hashable(got) == _hashable(want):
        return True
    if isinstance(got, str) and isinstance(want, (str, int)) and not isinstance(want, bool):
        a = bignum.parse(got)
        b = bignum.parse(want) if isinstance(want, str) else want
        if a is not None and b is not None:
            return bignum.equal(a, b)
        x, y = _written(got), _written(want)
        if x is not None and y is not None:
            # a format 3 sum of powers (FORMAT item 28), in whatever order its author wrote it
            return huge_values.same(x, y)
        try:
            return Fraction(got) == Fraction(want)
        except (ValueError, ZeroDivisionError):
            return False
    if type(got) is int and isinstance(want, str):
        # a small computed value, expected as an expression ("2^(10)" is 1024)
        x, y = _written(got), _written(want)
        return x is not None and y is not None and huge_values.same(x, y)
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return all(_same_value(g, w) for g, w in zip(got, want))
    if isinstance(got, dict) and isinstance(want, dict) and got.keys() == want.keys():
        return all(_same_value(got[k], want[k]) for k in got)
    return False


def _written(value: str | int) -> huge_values.Written | None:
    """An exact value (an integer, or item 14 and 28's expressions), or None if it is not one."""
    if isinstance(value, int):
        return huge_values.Written((), value, 1)
    try:
        return huge_values.parse(value)
    except huge_values.HugeValueError:
        return None


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value)
    return str(value)
