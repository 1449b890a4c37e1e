"""Fixtures and hooks for every test folder; the shared functions are in ``tests/support/helpers.py``."""

from __future__ import annotations

import os
import random

import pytest
from helpers import settle


@pytest.fixture
def outcome():
    """``outcome(key, toml)``: settle a TOML scenario under one ruleset."""
    return settle


# --- the oracle's fresh seed (tests/engine/test_oracle.py) ---------------------------------------------

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
            f"oracle: fresh seed {value} (replay: {ORACLE_SEED_VARIABLE}={value} pytest tests/engine/test_oracle.py -k fresh_seed)"
        )
