"""Shared fixtures: build scenarios from TOML text and settle them under a ruleset."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from comparator.loader import ScenarioFile, parse_bytes
from rulesets import Outcome, registry

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
