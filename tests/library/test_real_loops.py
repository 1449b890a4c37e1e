"""Real loops written as a user would, with hand-checked outcomes (tests/library/real_loops/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopcompare import check, compare, load
from loopcompare.comparator.library import load_builtin, names
from loopcompare.rulesets import registry

#: The audit's loops (tests/library/real_loops/README.md), now built-in scenarios of the library.
REAL_LOOPS = (
    "ashnod-nim-wurmcoil",
    "bloodchief-mindcrank",
    "devoted-druid-vizier",
    "gravecrawler-zulaport",
    "helm-rest-in-peace",
    "isochron-dramatic-reversal",
    "ivory-gargoyle-aether-flash",
    "kiki-pestermite-tremors-bob-dies-first",
    "kiki-restoration-angel",
    "mikaeus-triskelion",
    "sanguine-bond-platinum-angel",
    "sanguine-three-players-bob-breaker-too-late",
    "thopter-sword",
    "time-sieve-thopter",
)


def test_the_corpus_is_there():
    assert len(REAL_LOOPS) >= 14
    assert set(REAL_LOOPS) <= set(names())


@pytest.mark.parametrize("name", REAL_LOOPS)
def test_a_real_loop_settles_as_checked_by_hand(name):
    scenario = load_builtin(name)
    assert scenario.scenario.source, "a real loop cites its sources"
    keys = sorted(scenario.expect)
    assert keys, "a real loop pins its outcomes"
    problems = check(compare(scenario, [registry().get(k) for k in keys]))
    assert problems == [], "\n".join(map(str, problems))


#: Real loops that showed FORMAT's "second round" wrong in every era (issue 22), kept here as
#: files beside this test: each pinned in all nine rulesets, each failing on the code before.
SECOND_ROUND = sorted((Path(__file__).parent / "real_loops").glob("*.toml"))


def test_the_second_round_files_are_there():
    assert len(SECOND_ROUND) >= 5


@pytest.mark.parametrize("path", SECOND_ROUND, ids=lambda p: p.stem)
def test_a_second_round_loop_settles_as_pinned_in_every_era(path):
    scenario = load(path)
    assert scenario.scenario.source, "a real loop cites its sources"
    assert len(scenario.expect) == len(registry().rulesets), "pinned in every era"
    problems = check(compare(scenario, [registry().get(k) for k in sorted(scenario.expect)]))
    assert problems == [], "\n".join(map(str, problems))
