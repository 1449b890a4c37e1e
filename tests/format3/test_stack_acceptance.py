"""Format 3 acceptance cases of "The stack and priority" (tests/format3/scenarios/, tagged "stack"
or "priority"): each pins every field that matters in all nine rulesets ([expect.RULESET])."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from loopcompare.comparator.compare import check, compare
from loopcompare.comparator.loader import load
from loopcompare.rulesets import registry

HERE = Path(__file__).parent / "scenarios"
CASES = sorted(
    p for p in HERE.glob("*.toml") if {"stack", "priority"} & set(tomllib.loads(p.read_text(encoding="utf-8")).get("tags", []))
)


def test_the_cases_are_found():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_stack_case(path):
    sf = load(path)
    assert sf.scenario.format == 3
    assert set(sf.expect) == {r.key for r in registry().rulesets}, "pinned in every era"
    problems = check(compare(sf, [registry().get(k) for k in sf.expect]))
    assert not problems, "\n".join(str(p) for p in problems)
