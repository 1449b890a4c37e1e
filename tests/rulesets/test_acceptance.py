"""Every scenario with [expect] blocks gets the outcomes its author expects.

The acceptance cases in ../shared/spec/acceptance are the floor every ruleset must meet; the
built-in library's scenarios carry expectations worked out by hand from the rule texts.
"""

from __future__ import annotations

import pytest

from loopcompare.comparator.compare import check, compare
from loopcompare.comparator.library import load_builtin, names
from loopcompare.comparator.loader import load
from loopcompare.rulesets import registry

from helpers import ACCEPTANCE
from library_known_wrong import KNOWN_WRONG

ACCEPTANCE_FORMAT2 = ACCEPTANCE.parent / "acceptance-format2"
ACCEPTANCE_FILES = sorted(ACCEPTANCE.glob("*.toml")) + sorted(ACCEPTANCE_FORMAT2.glob("*.toml"))


def _assert_expectations(sf) -> None:
    assert sf.expect, f"{sf.file} has no [expect] blocks"
    comparison = compare(sf, [registry().get(k) for k in sf.expect])
    problems = check(comparison)
    assert not problems, "\n".join(str(p) for p in problems)


@pytest.mark.skipif(not ACCEPTANCE.is_dir(), reason="../shared/spec/acceptance is not beside this checkout")
@pytest.mark.parametrize("path", ACCEPTANCE_FILES, ids=[p.stem for p in ACCEPTANCE_FILES])
def test_acceptance_case(path):
    _assert_expectations(load(path))


def test_acceptance_cases_are_found_when_shared_is_present():
    # Guards against the parametrized test silently running on nothing.
    if ACCEPTANCE.is_dir():
        assert len(ACCEPTANCE_FILES) >= 12 + (8 if ACCEPTANCE_FORMAT2.is_dir() else 0)


@pytest.mark.parametrize("name", [n if n not in KNOWN_WRONG else pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_WRONG[n], strict=True)) for n in names()])
def test_builtin_scenario_meets_its_expectations(name):
    sf = load_builtin(name)
    if not sf.expect and sf.scenario.oracle:
        # A real loop no published ruling decides pins nothing (docs/LIBRARY.md); its outcomes
        # are checked to settle by tests/library/test_library_entries.py.
        assert "computed" in sf.scenario.description
        return
    _assert_expectations(sf)


def test_library_includes_every_acceptance_case():
    missing = sorted({p.stem for p in ACCEPTANCE_FILES} - set(names()))
    assert not missing, f"acceptance cases missing from comparator/library: {missing}"
