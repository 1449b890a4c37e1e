"""What the tests share: the repository's paths, scenarios from TOML text or from
``tests/scenarios/``, settling under a ruleset, and checks of an outcome's citations and notes.

``tests/support/`` is on ``sys.path`` (pyproject's ``[tool.pytest.ini_options] pythonpath``), so a
test module in any folder writes ``from helpers import scenario, settle``.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from loopcompare.comparator.loader import ScenarioFile, parse_bytes
from loopcompare.rulesets import Outcome, registry

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (the package ``loopcompare``)."""
TESTS = ROOT / "tests"
SCENARIOS = TESTS / "scenarios"
LIBRARY = ROOT / "comparator" / "library"
SHARED = ROOT.parent / "shared"
"""The specification beside the checkout; absent in a clone elsewhere (``needs_acceptance``)."""
ACCEPTANCE = SHARED / "spec" / "acceptance"
ACCEPTANCE_FORMAT2 = SHARED / "spec" / "acceptance-format2"

needs_acceptance = pytest.mark.skipif(
    not ACCEPTANCE.is_dir(), reason="../shared/spec/acceptance (the specification beside the checkout) is not there"
)
needs_acceptance_format2 = pytest.mark.skipif(
    not ACCEPTANCE_FORMAT2.is_dir(), reason="../shared/spec/acceptance-format2 (the specification beside the checkout) is not there"
)


def scenario_text(name: str) -> str:
    """The TOML text of ``tests/scenarios/NAME.toml``: a loop several test modules settle."""
    return (SCENARIOS / f"{name}.toml").read_text(encoding="utf-8")


def scenario(toml: str, name: str = "case") -> ScenarioFile:
    """A validated scenario from TOML text (dedented)."""
    return parse_bytes(textwrap.dedent(toml).encode("utf-8"), f"{name}.toml", name)


def settle(key: str, toml: str) -> Outcome:
    """The outcome of the TOML scenario under the ruleset ``key``."""
    return registry().get(key).settle(scenario(toml).scenario)


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
