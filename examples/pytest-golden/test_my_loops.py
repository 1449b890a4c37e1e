"""An example of pinning loopcompare reports in your own tests.

Run with ``pytest`` from this folder (loopcompare and pytest-regressions installed).  The golden
files live in ``test_my_loops/``; ``pytest --force-regen`` rewrites them after a change you meant.
"""


def test_our_flying_loop(loop_report):
    comparison = loop_report("my-loop.toml", rulesets=["cr-2008", "cr-2024"])
    assert "state.flying" in comparison.differences


def test_a_built_in_loop_as_json(loop_report):
    loop_report("gond-alarm", rulesets=["mtr"], fmt="json")
