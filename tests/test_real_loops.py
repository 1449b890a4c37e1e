"""Real loops written as a user would, with hand-checked outcomes (tests/real_loops/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopcompare import check, compare, load
from loopcompare.rulesets import registry

REAL_LOOPS = sorted((Path(__file__).parent / "real_loops").glob("*.toml"))


def test_the_corpus_is_there():
    assert len(REAL_LOOPS) >= 14


@pytest.mark.parametrize("path", REAL_LOOPS, ids=lambda p: p.stem)
def test_a_real_loop_settles_as_checked_by_hand(path):
    scenario = load(path)
    assert scenario.scenario.source, "a real loop cites its sources"
    keys = sorted(scenario.expect)
    assert keys, "a real loop pins its outcomes"
    problems = check(compare(scenario, [registry().get(k) for k in keys]))
    assert problems == [], "\n".join(map(str, problems))
