"""Shared fixtures: build scenarios from TOML text and settle them under a ruleset."""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

import pytest

from loopcompare.comparator.loader import ScenarioFile, parse_bytes
from loopcompare.rulesets import Outcome, registry

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ACCEPTANCE = SHARED / "spec" / "acceptance"


def scenario(toml: str, name: str = "case") -> ScenarioFile:
    """A validated scenario from TOML text (dedented)."""
    return parse_bytes(textwrap.dedent(toml).encode("utf-8"), f"{name}.toml", name)


def settle(key: str, toml: str) -> Outcome:
    """The outcome of the TOML scenario under the ruleset ``key``."""
    return registry().get(key).settle(scenario(toml).scenario)


@pytest.fixture
def outcome():
    """``outcome(key, toml)``: settle a TOML scenario under one ruleset."""
    return settle


def citing(pattern):
    """A check that every transcript line starts with a rule id matching ``pattern`` (a compiled
    regex whose group 1 is the id) and that the id is listed in the outcome's rules."""

    def cited(outcome):
        for line in outcome.transcript:
            match = pattern.match(line)
            assert match, f"transcript line does not start with a rule id of this document: {line!r}"
            assert match.group(1) in outcome.rules
        return outcome

    return cited


def noted(outcome, *words: str) -> str:
    """The note that contains all ``words``; fails if there is none."""
    for note in outcome.notes:
        if all(w in note for w in words):
            return note
    raise AssertionError(f"no note contains {words!r}: {outcome.notes!r}")


def seated(toml: str, *players: str, active: str = "Alice") -> str:
    """The same loop with other players, in this turn order, on ``active``'s turn."""
    assert 'players = ["Alice", "Bob"]' in toml
    names = ", ".join(f'"{p}"' for p in players)
    return toml.replace('players = ["Alice", "Bob"]', f'players = [{names}]\nactive = "{active}"', 1)


# --- the oracle's fresh seed (tests/test_oracle.py) ---------------------------------------------

ORACLE_SEED_VARIABLE = "LOOPCOMPARE_ORACLE_SEED"
_oracle_seed_key = pytest.StashKey[int]()
_oracle_seed_used = pytest.StashKey[bool]()


def pytest_configure(config):
    """Draw the run's oracle seed once, or take it from LOOPCOMPARE_ORACLE_SEED to replay a run."""
    raw = os.environ.get(ORACLE_SEED_VARIABLE, "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise pytest.UsageError(f"{ORACLE_SEED_VARIABLE} must be a whole number, got {raw!r}") from None
    else:
        value = random.SystemRandom().randrange(2**32)
    config.stash[_oracle_seed_key] = value
    config.stash[_oracle_seed_used] = False


@pytest.fixture(scope="session")
def oracle_seed(request) -> int:
    """This run's seed for the oracle's fresh exploration (printed at the end of the run)."""
    request.config.stash[_oracle_seed_used] = True
    return request.config.stash[_oracle_seed_key]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say which seed the oracle explored with, and how to replay it."""
    if config.stash.get(_oracle_seed_used, False):
        value = config.stash[_oracle_seed_key]
        terminalreporter.write_line(
            f"oracle: fresh seed {value} (replay: {ORACLE_SEED_VARIABLE}={value} pytest tests/test_oracle.py -k fresh_seed)"
        )
