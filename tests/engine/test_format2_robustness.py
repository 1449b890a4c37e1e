"""Every valid format 2 document settles under every ruleset and renders, with no exception.

Random documents mixing every format 2 feature (tests/support/format2_fuzz.py) go through the loader,
the nine built-in rulesets and the three renderers. A valid document must give an outcome under
each ruleset (``unspecified`` with a note is an outcome; a traceback is not) and render to md,
HTML and JSON. This found a crash the targeted tests had missed (a breaker who leaves the game
before using it: tests/engine/test_format2_procedures.py).

* a fixed run: the same 400 documents every run;
* a fresh run: 200 from the run's fresh seed (printed at the end of the run with the oracle's;
  ``LOOPCOMPARE_ORACLE_SEED=N`` replays it);
* ``pytest -m slow``: 20,000 from the fresh seed.

A failure prints the document as TOML, ready to paste into a regression test.
"""

from __future__ import annotations

import random

import pytest

import format2_fuzz
from loopcompare import compare, render
from loopcompare.comparator.loader import ScenarioError, parse_document
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Result
from tomlwrite import to_toml


def _run(seed: int, count: int) -> int:
    rng = random.Random(seed)
    rulesets = registry().rulesets
    valid = 0
    for i in range(count):
        doc = format2_fuzz.document(rng, i)
        try:
            loaded = parse_document(doc, f"generated-{i}.toml", f"generated-{i}")
        except ScenarioError:
            continue
        valid += 1
        try:
            comparison = compare(loaded, rulesets)
            assert set(comparison.outcomes) == {r.key for r in rulesets}
            for outcome in comparison.outcomes.values():
                assert isinstance(outcome.result, Result)
                if outcome.result is Result.UNSPECIFIED:
                    assert outcome.notes, "an unspecified outcome says why"
            if i % 4 == 0:
                for fmt in ("md", "html", "json"):
                    assert render(comparison, fmt)
        except Exception as exc:  # report the document, whatever broke
            raise AssertionError(
                f"document {i} of seed {seed} broke: {type(exc).__name__}: {exc}\n\n{to_toml(doc)}"
            ) from exc
    return valid


def test_fixed_documents_all_settle_and_render():
    valid = _run(20261123, 400)
    assert valid >= 150, "the generator should mostly produce valid documents"


def test_fresh_documents_all_settle_and_render(oracle_seed):
    _run(oracle_seed, 200)


@pytest.mark.slow
def test_many_fresh_documents_all_settle_and_render(oracle_seed, request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")
    _run(oracle_seed, 20_000)
