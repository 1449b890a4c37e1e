"""Every valid format 3 document settles under every ruleset and renders, with no exception.

Random documents mixing the format 3 features with format 2's (tests/support/format3_fuzz.py) go
through the loader, the nine built-in rulesets and the three renderers. Each document either is
refused by the loader with a ScenarioError, or loads; then ``compare`` gives an outcome under
every ruleset (``unspecified`` with a note is an outcome) or refuses the file with a ScenarioError
(an engine limit of FORMAT items 28-30: exit 2 with a message), and the comparison renders to md,
HTML and JSON. Any other exception (a TypeError, an AssertionError, a RecursionError...) is a
defect: the failure prints the document as TOML, ready to paste into a regression test.

* a fixed run: the same 250 documents every run;
* a fresh run: 100 from the run's fresh seed (printed at the end of the run with the oracle's;
  ``LOOPCOMPARE_ORACLE_SEED=N`` replays it);
* ``pytest -m slow``: 10,000 from the fresh seed.

The crashes the fuzzer found are the named regression tests below, each a minimal file.
"""

from __future__ import annotations

import random
import textwrap

import pytest

import format3_fuzz
from loopcompare import compare, render
from loopcompare.comparator.api import loads
from loopcompare.comparator.loader import ScenarioError, parse_document
from loopcompare.rulesets import registry
from loopcompare.rulesets.outcome import Result
from tomlwrite import to_toml


def _check(loaded, rulesets) -> bool:
    """Settle and render one loaded file; False when ``compare`` refuses it (an engine limit)."""
    try:
        comparison = compare(loaded, rulesets)
    except ScenarioError as exc:
        assert str(exc).strip(), "a refusal says why"
        return False
    assert set(comparison.outcomes) == {r.key for r in rulesets}
    for outcome in comparison.outcomes.values():
        assert isinstance(outcome.result, Result)
        if outcome.result is Result.UNSPECIFIED:
            assert outcome.notes, "an unspecified outcome says why"
    for fmt in ("md", "html", "json"):
        assert render(comparison, fmt)
    return True


def _run(seed: int, count: int) -> tuple[int, int]:
    """(documents the loader accepts, documents that also settle) among ``count`` from ``seed``."""
    rng = random.Random(seed)
    rulesets = registry().rulesets
    loaded_count = settled = 0
    for i in range(count):
        doc = format3_fuzz.document(rng, i)
        try:
            loaded = parse_document(doc, f"generated-{i}.toml", f"generated-{i}")
        except ScenarioError:
            continue
        except Exception as exc:
            raise AssertionError(f"document {i} of seed {seed}: the loader raised {type(exc).__name__}: {exc}\n\n{to_toml(doc)}") from exc
        loaded_count += 1
        try:
            settled += _check(loaded, rulesets)
        except Exception as exc:  # report the document, whatever broke
            raise AssertionError(f"document {i} of seed {seed} broke: {type(exc).__name__}: {exc}\n\n{to_toml(doc)}") from exc
    return loaded_count, settled


def test_fixed_documents_all_settle_and_render():
    loaded, settled = _run(20261128, 250)
    assert loaded >= 60, "the generator should produce a fair share of valid documents"
    assert settled >= 50


def test_fresh_documents_all_settle_and_render(oracle_seed):
    _run(oracle_seed, 100)


@pytest.mark.slow
def test_many_fresh_documents_all_settle_and_render(oracle_seed, request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("long run: select it with -m slow")
    _run(oracle_seed, 10_000)


# --- the crashes found, each reduced to a minimal file ----------------------------------------------


def _file(toml: str):
    return loads(textwrap.dedent(toml), "regression.toml")


def test_a_loop_the_engine_cannot_settle_with_a_priority_free_step_loads_and_is_refused_by_compare():
    # Found by the fuzzer: the loader's item 23 warnings (where a point moves past a priority-free
    # step) asked the engine about the loop, and an engine limit (here amounts that read other
    # values together with a payment) escaped the loader as a traceback (joint.AmountLimit).
    # The file follows FORMAT: it loads; `compare` refuses it with the limit's message.
    loaded = _file(
        """
        format = 3
        title = "an amount, a payment and a mana ability"
        players = ["Alice", "Bob"]
        [state]
        mana = { start = 2, min = 0 }
        x = 1
        [[step]]
        by = "Alice"
        does = "doubles x"
        priority = false
        add = { x = "x" }
        [[step]]
        by = "Alice"
        does = "adds one mana"
        add = { mana = 1 }
        unless = { by = "Bob", does = "pays {1}", breaks = false, pay = { mana = -1 } }
        """
    )
    with pytest.raises(ScenarioError, match=r"regression\.toml: step 1 add\.x: .*not settled in closed form"):
        compare(loaded, registry().rulesets)


def test_an_amount_doubling_for_10_to_the_400_iterations_is_written_exactly():
    # Found by the fuzzer: the value after n = 10^400 doublings was checked for size with
    # n * log2(2) in floating point, and 10^400 has no float: OverflowError.
    loaded = _file(
        """
        format = 3
        title = "x doubles 10^400 times"
        players = ["Alice", "Bob"]
        [state]
        x = 1
        [[step]]
        by = "Alice"
        does = "doubles x"
        optional = true
        add = { x = "x" }
        [intent]
        Alice = "10^400"
        """
    )
    comparison = compare(loaded, registry().rulesets)
    for outcome in comparison.outcomes.values():
        assert outcome.iterations == 10**400
        assert outcome.to_json()["state"] == {"x": "2^(10^400)"}
