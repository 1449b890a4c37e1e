"""Format 3 amounts (docs/FORMAT.md "Format 3", item 28): every ruleset against the naive oracle.

Random small format 3 files (seeded ``random``: the same files on every run) whose steps add amounts
that read other values (``add = { x = "2*y - x + 1" }``), with floors, ``mul``, ``times``,
requirements, ``[[end]]`` tables (some that make a player lose), a breaker, and intents of every kind
(a count, a count and a step, a goal, "never").  Each file is settled by every built-in ruleset and
by ``oracle.settle_amounts`` (tests/support/oracle.py), which plays it one application at a time;
every compared field must be equal.

A file the engine refuses (``Unsettleable``: "not monotone" and the other limits of item 28, exit 2
in the commands) counts as refused, never as agreement, and refusals must stay rare.  A file outside
the oracle's range (nothing stops it within the horizon) is skipped and counted.

The default run settles ``DEFAULT_FILES`` files; ``pytest -m slow`` ten times as many.
"""

from __future__ import annotations

import contextlib
import functools
import random
import signal
from typing import Any

import pytest

import oracle
from loopcompare.comparator.loader import ScenarioError, parse_document
from loopcompare.rulesets import registry
from loopcompare.rulesets.facts import facts_of
from loopcompare.rulesets.values import Unsettleable

FIELDS = ("result", "iterations", "steps", "deviates", "last_action", "state", "judge", "stopped_by", "ended_by", "eliminated")
DEFAULT_FILES = 500
SLOW_FILES = 10 * DEFAULT_FILES
#: The most refused (file, ruleset) pairs allowed, as a fraction of the settled ones.
MAX_REFUSED = 0.20


def _amount(rng: random.Random, names: list[str]) -> str:
    """An amount in item 28's grammar: small integer coefficients of some plain values, a constant."""
    terms = []
    for name in rng.sample(names, rng.randint(1, len(names))):
        c = rng.choice([-2, -1, 1, 1, 1, 1, 1, 2, 2])
        terms.append((c, name))
    constant = rng.choice([0, 0, -1, 1, 2, -3])
    text = ""
    for i, (c, name) in enumerate(terms):
        mag = "" if abs(c) == 1 else f"{abs(c)}*"
        sign = ("-" if c < 0 else "") if i == 0 else (" - " if c < 0 else " + ")
        text += f"{sign}{mag}{name}"
    if constant:
        text += f" {'-' if constant < 0 else '+'} {abs(constant)}"
    return text


def document(rng: random.Random, i: int) -> dict[str, Any]:
    """One random format 3 file with amounts (not necessarily valid: the loader may refuse it)."""
    names = ["x", "y", "z"][: rng.randint(1, 3)]
    state: dict[str, Any] = {}
    for name in names:
        start = rng.randint(0, 4)
        roll = rng.random()
        if roll < 0.35:
            state[name] = {"start": start, "min": 0}
        elif roll < 0.45:
            state[name] = {"start": start, "min": 0, "max": rng.randint(start + 1, 12)}
        else:
            state[name] = rng.randint(-2, 4)
    steps: list[dict[str, Any]] = []
    size = rng.randint(1, 3)
    for j in range(size):
        step: dict[str, Any] = {"by": "Alice", "does": f"action {j + 1}"}
        if rng.random() < 0.55:
            step["optional"] = True
        add: dict[str, Any] = {}
        for name in rng.sample(names, rng.randint(1, len(names))):
            add[name] = _amount(rng, names) if rng.random() < 0.7 else rng.choice([-2, -1, 1, 2, 3])
        step["add"] = add
        if rng.random() < 0.15:
            step["mul"] = {rng.choice(names): rng.choice([0, 2, 3])}
        if rng.random() < 0.25:
            step["requires"] = {rng.choice(names): rng.randint(0, 3)}
        if rng.random() < 0.15:
            step["times"] = rng.choice([2, 3])
        steps.append(step)
    if not any(s.get("optional") for s in steps) and rng.random() < 0.7:
        steps[rng.randrange(size)]["optional"] = True
    doc: dict[str, Any] = {"format": 3, "title": f"amounts {i}", "players": ["Alice", "Bob"], "state": state, "step": steps}
    ends = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        name = rng.choice(names)
        end: dict[str, Any] = {"effect": f"{name} reaches its bound"}
        if rng.random() < 0.5:
            end["when"] = {"value": name, "at_least": rng.randint(6, 60)}
        else:
            end["when"] = {"value": name, "at_most": rng.randint(-30, -1)}
        if rng.random() < 0.4:
            end["loses"] = rng.choice(["Alice", "Bob"])
            end["effect"] = f"{end['loses']} loses the game"
        ends.append(end)
    if ends:
        doc["end"] = ends
    intent: dict[str, Any] = {}
    if any(s.get("optional") for s in steps):
        roll = rng.random()
        if roll < 0.4:
            intent["Alice"] = rng.randint(0, 12)
        elif roll < 0.55:
            intent["Alice"] = {"after": rng.randint(0, 8), "step": rng.randrange(size)}
        elif roll < 0.8:
            goal = rng.choice(names)
            intent["Alice"] = {"until": {"value": goal, rng.choice(["at_least", "at_most"]): rng.randint(-10, 25)}}
        elif roll < 0.9:
            intent["Alice"] = "never"
    if rng.random() < 0.35:
        doc["breaker"] = [{"by": "Bob", "does": "destroys the engine"}]
        roll = rng.random()
        if roll < 0.5:
            intent["Bob"] = rng.randint(0, 10)
        elif roll < 0.8:
            intent["Bob"] = {"after": rng.randint(0, 8), "step": rng.randrange(size)}
    if intent:
        doc["intent"] = intent
    return doc


def to_toml(doc: dict[str, Any]) -> str:
    """A generated file as TOML, to paste into a regression case."""

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return "{ " + ", ".join(f"{k} = {val(x)}" for k, x in v.items()) + " }"

    lines = [f"{k} = {val(doc[k])}" for k in ("format", "title", "players", "active") if k in doc]
    for table in ("state", "loop", "intent"):
        if table in doc:
            lines.append(f"[{table}]")
            lines += [f"{k} = {val(v)}" for k, v in doc[table].items()]
    for array in ("step", "end", "breaker"):
        for item in doc.get(array, []):
            lines.append(f"[[{array}]]")
            lines += [f"{k} = {val(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


#: Seconds one ruleset may take on one generated file before the file counts as beyond the
#: engine (KNOWN_LIMIT below: a floor that keeps catching an oscillating value).
BUDGET = 5.0
#: The note of an outcome the engine gave up on (result "unspecified").
GAVE_UP = "outside what loopcompare can settle in closed form"


class OutOfTime(BaseException):
    """A ruleset ran past :data:`BUDGET` (a BaseException, so that no ``except Exception`` in the
    engine swallows it)."""


@contextlib.contextmanager
def budget(seconds: float):
    def expire(signum, frame):
        raise OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def settled(scenario, key: str):
    """The engine's outcome, or None when it gave up (its "unspecified" with the note that the loop
    is outside its closed form, or running past the budget)."""
    try:
        with budget(BUDGET):
            outcome = registry().get(key).settle(scenario)
    except OutOfTime:
        return None
    if outcome.result.value == "unspecified" and any(GAVE_UP in note for note in outcome.notes):
        return None
    return outcome


def product(scenario, key: str) -> dict[str, Any] | None:
    outcome = settled(scenario, key)
    return None if outcome is None else {name: outcome.value(name) for name in FIELDS}


def compare(doc: dict[str, Any], key: str) -> str:
    """``"agree"``, ``"refused"`` (by the engine: exit 2), ``"limit"`` (the engine gave up or ran
    out of time), ``"beyond"`` (the oracle's range), or a failure message."""
    scenario = parse_document(doc, "generated.toml", "generated").scenario
    try:
        expected = oracle.settle_amounts(scenario, key)
    except oracle.OracleLimit:
        return "beyond"
    try:
        got = product(scenario, key)
    except Unsettleable:
        return "refused"
    if got is None:
        return "limit"
    diff = {f: (got[f], expected[f]) for f in FIELDS if got[f] != expected[f]}
    if not diff:
        return "agree"
    return f"{key}: engine vs oracle differ on {diff} (engine, oracle)\n--- file ---\n{to_toml(doc)}"


def run(seed: int, files: int) -> dict[str, Any]:
    rng = random.Random(seed)
    counts: dict[str, Any] = {"agree": 0, "refused": 0, "limit": 0, "beyond": 0, "invalid": 0, "failures": []}
    for i in range(files):
        doc = document(rng, i)
        try:
            parse_document(doc, "generated.toml", "generated")
        except ScenarioError:
            counts["invalid"] += 1
            continue
        for key in oracle.ALL_RULESETS:
            verdict = compare(doc, key)
            if verdict in ("agree", "refused", "beyond"):
                counts[verdict] += 1
            elif verdict == "limit":
                counts["limit"] += 1
                if counts["limit"] == 1:
                    print(f"the engine gave up on (KNOWN_LIMIT):\n{to_toml(doc)}")
                break  # one ruleset's worth is enough: the others share the engine
            else:
                counts["failures"].append(verdict)
    return counts


def _assert_run(counts: dict[str, Any], files: int) -> None:
    assert not counts["failures"], f"{len(counts['failures'])} disagreements; the first:\n{counts['failures'][0]}"
    agreed = counts["agree"]
    # Enough files are valid, within the oracle's range and settled for the run to mean something.
    assert agreed >= 3 * files, counts
    # Refusals (exit 2: "not monotone") and files the engine gives up on stay rare.
    assert counts["refused"] + counts["limit"] <= MAX_REFUSED * agreed, counts


def test_every_ruleset_settles_random_amount_files_as_the_oracle_plays_them():
    counts = run(2026, DEFAULT_FILES)
    _assert_run(counts, DEFAULT_FILES)


@pytest.mark.slow
def test_every_ruleset_settles_many_random_amount_files_as_the_oracle_plays_them(request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")
    counts = run(29, SLOW_FILES)
    _assert_run(counts, SLOW_FILES)


# --- the eras' procedures over loops with amounts: several players, oracle.settle -------------------------
#
# The same amounts in loops of the kind tests/engine/test_oracle.py generates (several players with
# optional steps, "unless" payments, breakers, independent sets, loops across turns, chance and
# conditions), settled by the format 1 oracle (``oracle.settle``, which plays amounts too).  Only the
# effects that oracle plays are used: ``set``, ``add`` and amounts.

PROCEDURE_FIELDS = ("result", "iterations", "steps", "deviates", "last_action", "state", "judge")
PLAYERS = ["Alice", "Bob", "Carol"]


def procedure_document(rng: random.Random, i: int) -> dict[str, Any]:
    """One random format 3 file with amounts and several involved players (not necessarily valid)."""
    players = PLAYERS[: rng.randint(2, 3)]
    names = ["x", "y"][: rng.randint(1, 2)]
    state: dict[str, Any] = {name: rng.randint(-3, 4) for name in names}
    doc: dict[str, Any] = {"format": 3, "title": f"procedures {i}", "players": players, "state": state}
    if rng.random() < 0.4:
        doc["active"] = rng.choice(players)
    steps: list[dict[str, Any]] = []
    for j in range(rng.randint(1, 4)):
        step: dict[str, Any] = {"by": rng.choice(players), "does": f"action {j + 1}"}
        if rng.random() < 0.6:
            step["optional"] = True
        roll = rng.random()
        if roll < 0.06:
            step["random"] = True
        elif roll < 0.12:
            step["conditional"] = True
        elif roll < 0.16 and step.get("optional"):
            step["hidden"] = True
        name = rng.choice(names)
        roll = rng.random()
        if roll < 0.55:
            step["add"] = {name: _amount(rng, names)}
        elif roll < 0.75:
            step["add"] = {name: rng.choice([-2, -1, 1, 2])}
        elif roll < 0.85:
            step["set"] = {name: rng.randint(-2, 3)}
        if rng.random() < 0.15:
            payer = rng.choice([p for p in players if p != step["by"]])
            step["unless"] = {"by": payer, "does": "pays {1}"}
        steps.append(step)
    doc["step"] = steps
    loop: dict[str, Any] = {}
    for flag, chance in (("independent", 0.2), ("spans_turns", 0.15), ("meaningful_change", 0.15), ("shortcut_before", 0.05)):
        if rng.random() < chance:
            loop[flag] = True
    if loop:
        doc["loop"] = loop
    if rng.random() < 0.3:
        doc["breaker"] = [{"by": rng.choice(players), "does": "breaks it"}]
    intent: dict[str, Any] = {}
    for p in players:
        roll = rng.random()
        if roll < 0.45:
            intent[p] = rng.randint(0, 6)
        elif roll < 0.6:
            intent[p] = {"after": rng.randint(0, 6), "step": rng.randrange(len(steps))}
        elif roll < 0.75:
            intent[p] = "never"
    if intent:
        doc["intent"] = intent
    return doc


def procedure_verdict(doc: dict[str, Any], key: str) -> str:
    """As :func:`compare`, with ``oracle.settle`` and the format 1 fields."""
    try:
        scenario = parse_document(doc, "generated.toml", "generated").scenario
    except ScenarioError:
        return "invalid"
    try:
        expected = oracle.settle(scenario, key)
    except oracle.OracleLimit:
        return "beyond"
    try:
        outcome = settled(scenario, key)
    except Unsettleable:
        return "refused"
    if outcome is None:
        return "limit"
    got = {name: outcome.value(name) for name in PROCEDURE_FIELDS}
    diff = {f: (got[f], expected[f]) for f in PROCEDURE_FIELDS if got[f] != expected[f]}
    if not diff:
        return "agree"
    return f"{key}: engine vs oracle differ on {diff} (engine, oracle)\n--- file ---\n{to_toml(doc)}"


def known(doc: dict[str, Any], key: str) -> str | None:
    """Which of the two engine defects this file meets (see KNOWN_REPEAT and KNOWN_SETS below), if any.

    Only a disagreement is classified; the class is decided from the file and the engine's own
    repeated state, never from the outcome."""
    scenario = parse_document(doc, "generated.toml", "generated").scenario
    if scenario.loop.independent and any(s.amounts for s in scenario.steps):
        return "sets"
    mine = oracle._Run(scenario, key, oracle.BIG).repeat_position()
    theirs = facts_of(scenario).first_repeat
    at = None if theirs is None else theirs.iterations * len(scenario.steps) + theirs.steps
    if mine is not None and (at is None or at > mine):
        return "repeat"
    return None


@functools.lru_cache(maxsize=None)
def run_procedures(seed: int, files: int) -> dict[str, Any]:
    rng = random.Random(seed)
    counts: dict[str, Any] = {"agree": 0, "refused": 0, "limit": 0, "beyond": 0, "invalid": 0, "failures": [], "repeat": [], "sets": []}
    for i in range(files):
        doc = procedure_document(rng, i)
        for key in oracle.RULESETS:
            verdict = procedure_verdict(doc, key)
            if verdict in ("agree", "refused", "limit", "beyond", "invalid"):
                counts[verdict] += 1
            else:
                counts[known(doc, key) or "failures"].append(verdict)
    return counts


PROCEDURE_FILES = 600


def test_the_eras_procedures_over_random_amount_loops_agree_with_the_oracle():
    counts = run_procedures(2026, PROCEDURE_FILES)
    assert not counts["failures"], f"{len(counts['failures'])} disagreements; the first:\n{counts['failures'][0]}"
    assert counts["agree"] >= 3 * PROCEDURE_FILES, {k: v if isinstance(v, int) else len(v) for k, v in counts.items()}
    assert counts["refused"] + counts["limit"] <= MAX_REFUSED * counts["agree"]


def test_no_random_amount_loop_meets_the_repeated_state_defect():
    counts = run_procedures(2026, PROCEDURE_FILES)
    assert not counts["repeat"], f"{len(counts['repeat'])} disagreements; the first:\n{counts['repeat'][0]}"


def test_no_random_amount_loop_meets_the_independent_sets_defect():
    counts = run_procedures(2026, PROCEDURE_FILES)
    assert not counts["sets"], f"{len(counts['sets'])} disagreements; the first:\n{counts['sets'][0]}"


@pytest.mark.slow
def test_the_eras_procedures_over_many_random_amount_loops_agree_with_the_oracle(request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")
    counts = run_procedures(29, 10 * PROCEDURE_FILES)
    assert not counts["failures"], f"{len(counts['failures'])} disagreements; the first:\n{counts['failures'][0]}"
    assert counts["refused"] + counts["limit"] <= MAX_REFUSED * counts["agree"]


# --- the two engine defects the oracle found (fixed since), as minimal files: regression tests now ---
#
# KNOWN_REPEAT.  FORMAT item 28: "the repeated-state test work[s] as in format 2 (the state repeats iff
# the map fixes it)", and item 9: the state repeats when the per-iteration map "maps the state reached to
# itself".  Alice's step sets x to 1 by an amount (x + (1 - x)); from x = 5 the first iteration reaches
# x = 1 and the second comes back to it.  Written in format 2 (``mul = { x = 0 }, add = { x = 1 }``)
# the engine finds the repeat after 2 iterations and stops the fragmented loop there (729.3, and the
# MTR's non-deterministic loops stop at a previous game state); with the amount it finds no repeat
# (rulesets/joint.py asks linear.first_repeat for M^k(s) = s from the phase's start only, and x = 5 is
# never reached again), so the loop runs to the intents.
#
# KNOWN_SETS.  Independent sets (421.5, 729.2 of each set) whose steps add amounts: the eras that run
# each set its own number of times (every CR era) leave the amounts out altogether (y stays 0 where it
# must be 2 + 3 + 4 = 9); the MTR eras, which cut the loop once, settle it right.  LoopFacts'
# ``sets_beyond_closed_form`` sends format 2 features to the format 2 engine but not amounts, and the
# format 1 closed form of sets reads ``add`` only.

REPEAT = """
format = 3
title = "x becomes 1; Alice and Bob each keep the loop going"
players = ["Alice", "Bob"]
[state]
x = 5
[[step]]
by = "Alice"
does = "x becomes 1"
optional = true
FLAGS
EFFECT
[[step]]
by = "Bob"
does = "Bob keeps it going"
optional = true
[intent]
Alice = 6
Bob = 6
"""
AMOUNT = 'add = { x = "-x + 1" }'
FORMAT_2 = "mul = { x = 0 }\nadd = { x = 1 }"

SETS = """
format = 3
title = "independent sets: Bob's step adds Alice's x"
players = ["Alice", "Bob"]
[state]
x = 1
y = 0
[loop]
independent = true
[intent]
Alice = 3
Bob = 3
[[step]]
by = "Alice"
does = "x grows by 1"
optional = true
add = { x = 1 }
[[step]]
by = "Bob"
does = "y grows by x"
optional = true
add = { y = "x" }
"""


def _settled(key: str, toml: str) -> tuple:
    from helpers import scenario

    out = registry().get(key).settle(scenario(toml).scenario)
    return tuple(out.value(f) for f in ("result", "iterations", "steps", "deviates", "stopped_by", "state"))


FRAGMENTED = ("cr-2009", "cr-2009-09", "cr-2024")
NONDETERMINISTIC = ("mtr-2018", "mtr-current")


@pytest.mark.parametrize("key", FRAGMENTED)
def test_the_format_2_twin_of_the_repeat_case_stops_where_the_state_comes_back(key):
    assert _settled(key, REPEAT.replace("FLAGS\n", "").replace("EFFECT", FORMAT_2)) == ("shortcut", 2, 0, "Alice", "rule", {"x": 1})


@pytest.mark.parametrize("key", FRAGMENTED)
def test_a_state_reached_again_through_an_amount_stops_a_fragmented_loop(key):
    toml = REPEAT.replace("FLAGS\n", "").replace("EFFECT", AMOUNT)
    assert _settled(key, toml) == ("shortcut", 2, 0, "Alice", "rule", {"x": 1})


@pytest.mark.parametrize("key", NONDETERMINISTIC)
def test_the_format_2_twin_of_the_random_repeat_case_stops_where_the_state_comes_back(key):
    toml = REPEAT.replace("FLAGS", "random = true").replace("EFFECT", FORMAT_2)
    assert _settled(key, toml) == ("no_shortcut", 2, 0, "Alice", "rule", {"x": 1})


@pytest.mark.parametrize("key", NONDETERMINISTIC)
def test_a_state_reached_again_through_an_amount_stops_a_random_loop(key):
    toml = REPEAT.replace("FLAGS", "random = true").replace("EFFECT", AMOUNT)
    assert _settled(key, toml) == ("no_shortcut", 2, 0, "Alice", "rule", {"x": 1})


def parse(toml: str):
    from helpers import scenario

    return scenario(toml).scenario


def test_the_oracle_plays_both_cases_as_the_format_says():
    toml = REPEAT.replace("FLAGS\n", "").replace("EFFECT", AMOUNT)
    assert oracle.settle(parse(toml), "cr-2024")["iterations"] == 2
    toml = REPEAT.replace("FLAGS", "random = true").replace("EFFECT", AMOUNT)
    assert oracle.settle(parse(toml), "mtr-current")["iterations"] == 2
    for key in oracle.RULESETS:
        assert oracle.settle(parse(SETS), key)["state"] == {"x": 4, "y": 9}


@pytest.mark.parametrize("key", NONDETERMINISTIC)
def test_independent_sets_with_amounts_cut_once_add_the_amounts(key):
    assert _settled(key, SETS)[-1] == {"x": 4, "y": 9}


@pytest.mark.parametrize("key", ("cr-2004", "cr-2005", "cr-2008", "cr-2009", "cr-2009-09", "cr-2024"))
def test_independent_sets_that_run_their_own_counts_add_the_amounts(key):
    assert _settled(key, SETS)[-1] == {"x": 4, "y": 9}


# KNOWN_LIMIT.  Values that keep oscillating while a floor catches one of them every iteration
# (here y, pinned at 0 by its min, while x and z go round a cycle of six iterations): the engine
# plays 400,000 step applications (about 150 s a ruleset on the 2-core machine), then gives
# "unspecified" with a note that the loop is outside its closed form.  FORMAT item 28 asks for an
# exit-2 error where the engine can't settle a file, never another result; and here nothing needs
# settling: Alice's intent is 0, so she deviates before the first step (shortcut, 0 iterations,
# 0 steps, the starting state), as the oracle plays it.  The state repeats from the first
# iteration on (a cycle of six), which item 28's repeated-state test would also find.

OSCILLATING_UNDER_A_FLOOR = """
format = 3
title = "a floor that keeps catching an oscillating value"
players = ["Alice", "Bob"]
[state]
x = -2
y = { start = 2, min = 0 }
z = -2
[intent]
Alice = 0
[[step]]
by = "Alice"
does = "action 1"
optional = true
add = { x = "y + z - 3", y = "x + z", z = -2 }
[[step]]
by = "Alice"
does = "action 2"
add = { x = 3, z = "-x + y - 3", y = -1 }
"""


def test_the_oracle_stops_the_oscillating_loop_before_its_first_step():
    expected = oracle.settle_amounts(parse(OSCILLATING_UNDER_A_FLOOR), "cr-2024")
    assert (expected["result"], expected["iterations"], expected["steps"], expected["deviates"]) == ("shortcut", 0, 0, "Alice")
    assert expected["state"] == {"x": -2, "y": 2, "z": -2}


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="KNOWN_LIMIT: the engine gives up (after ~150 s) on a loop it has no need to play")
def test_a_loop_stopped_before_its_first_step_is_settled_whatever_its_values_do(request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run (about 150 s): select it with -m slow")
    assert _settled("cr-2024", OSCILLATING_UNDER_A_FLOOR) == ("shortcut", 0, 0, "Alice", "intent", {"x": -2, "y": 2, "z": -2})
