"""Settling costs what the file's size allows, never what ``times``, a count or a goal names
(issue 30, item 1).

The work is counted, not timed: every composition and application of a step's map
(:class:`~loopcompare.rulesets.dynamics.Affine`) is counted, and a settling that passes the
budget stops at once with :class:`WorkExceeded` (so a regression fails in a second, not
after minutes).  A generous per-example deadline, set through hypothesis's settings, stops
the rest (a value so large that one multiplication takes seconds).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings

from limits_fuzz import limit_docs
from loopcompare.comparator.loader import MAX_TIMES, ScenarioError, parse_bytes
from loopcompare.rulesets import registry
from loopcompare.rulesets import dynamics
from test_hostile_input import to_toml

#: Compositions and applications of maps one settling may use: a loop at the loader's limits
#: plays at most dynamics.PLAY_BUDGET applications per run, and a ruleset asks a few runs.
WORK = 5_000_000


class WorkExceeded(Exception):
    """Settling did more work than :data:`WORK`."""


@pytest.fixture
def counted(monkeypatch):
    """Count every Affine.then and Affine.apply; raise WorkExceeded past the budget."""
    done = [0]
    then, apply = dynamics.Affine.then, dynamics.Affine.apply

    def tick() -> None:
        done[0] += 1
        if done[0] > WORK:
            raise WorkExceeded(f"more than {WORK:,} map compositions and applications")

    def counted_then(self, other):
        tick()
        return then(self, other)

    def counted_apply(self, x):
        tick()
        return apply(self, x)

    monkeypatch.setattr(dynamics.Affine, "then", counted_then)
    monkeypatch.setattr(dynamics.Affine, "apply", counted_apply)

    def reset() -> list[int]:
        done[0] = 0
        return done

    return reset


TIMES_WITH_AN_END = """\
format = 2
title = "a token {times} times a turn until a bound"
players = ["Alice", "Bob"]

[state]
tokens = 0

[[step]]
by = "Alice"
does = "makes a token"
optional = true
add = {{ tokens = 1 }}
times = {times}

[[end]]
when = {{ value = "tokens", at_least = 100000000 }}
effect = "enough tokens"
"""


def test_times_at_its_limit_with_an_end_settles_in_linear_work(counted):
    # The 300-byte file: times = 10,000 and an [[end]] stalled for minutes, because the
    # prefix of the block's maps was composed again for every guard (quadratic in times).
    work = {}
    for times in (MAX_TIMES // 10, MAX_TIMES):
        sf = parse_bytes(TIMES_WITH_AN_END.format(times=times).encode(), "times.toml", "times")
        done = counted()
        outcomes = [r.settle(sf.scenario) for r in registry().rulesets]
        work[times] = done[0]
        assert all(o.result.value == "ends" for o in outcomes), [o.result for o in outcomes]
    # Ten times the applications, about ten times the work (a quadratic engine does 100 times).
    assert work[MAX_TIMES] < 20 * work[MAX_TIMES // 10], work


def test_a_rotation_period_too_long_to_play_is_refused_at_once(counted):
    # Rotating targets among 64, 63, 61, ... players: a rotation cycle of about 10^18 iterations.
    # The engine played it application by application before charging its budget.
    players = [f"P{i}" for i in range(64)]
    steps = [
        {"by": "P0", "does": f"step {i}", "optional": True, "add": {"life": -1}, "target": {"among": players[:k], "order": "rotate"}}
        for i, k in enumerate([64, 63, 61, 59, 53, 47, 43, 41, 37, 31, 29])
    ]
    doc = {"format": 2, "title": "period", "players": players, "state": {"life": {p: 10**6 for p in players}}, "step": steps,
           "end": [{"when": {"value": "life", "at_most": 0}, "effect": "that player loses", "loses": True}]}
    sf = parse_bytes(to_toml(doc, tables=True).encode(), "period.toml", "period")
    counted()
    outcome = registry().get("cr-2024").settle(sf.scenario)
    assert outcome.result.value == "unspecified"
    assert "outside what loopcompare can settle" in outcome.notes[0]


def test_a_perfect_power_of_thousands_of_bits_is_found_quickly():
    # A multiplier composed over 9,999 applications of mul = 10^6: the old search tried every
    # exponent up to its 200,000 bits, each with a Newton root (cubic: minutes).
    from loopcompare.rulesets.bignum import _root

    assert _root(10**3000) == (10, 3000)
    assert _root((10**6) ** 9999) == (10, 59994)
    assert _root(3 * 2**9000 + 1) == (3 * 2**9000 + 1, 1)
    assert _root(39**27) == (39, 27)


@settings(
    max_examples=20,
    derandomize=True,
    database=None,
    deadline=timedelta(seconds=60),  # generous: the budget that matters is WORK, counted
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(limit_docs())
def test_files_at_the_loaders_limits_settle_within_a_bounded_amount_of_work(counted, doc):
    raw = to_toml(doc, tables=True).encode()
    try:
        sf = parse_bytes(raw, "limits.toml", "limits")
    except ScenarioError:
        return
    for ruleset in registry().select([]):
        counted()
        ruleset.settle(sf.scenario)


def test_timeout_refuses_a_file_that_takes_too_long_and_writes_nothing(monkeypatch, tmp_path):
    import time

    from click.testing import CliRunner

    from loopcompare.comparator import compare as comparisons
    from loopcompare.comparator.cli import main

    real = comparisons.compare

    def slow(sf, rulesets):
        if sf.id == "flying-relents":
            time.sleep(30)  # interrupted by the deadline
        return real(sf, rulesets)

    monkeypatch.setattr(comparisons, "compare", slow)
    target = tmp_path / "report.md"
    started = time.monotonic()
    result = CliRunner().invoke(main, ["compare", "flying", "flying-relents", "--timeout", "0.5", "-o", str(target)])
    assert time.monotonic() - started < 20
    assert result.exit_code == 2, result.output
    assert "flying-relents.toml: settling took more than 0.5 s (--timeout); nothing was written" in result.stderr
    assert not target.exists()
    checked = CliRunner().invoke(main, ["check", "flying-relents", "--timeout", "0.5"])
    assert checked.exit_code == 2 and "--timeout" in checked.stderr
    assert CliRunner().invoke(main, ["compare", "flying", "--timeout", "5"]).exit_code == 0
