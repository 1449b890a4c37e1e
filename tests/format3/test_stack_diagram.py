"""The loop diagram shows a cut with steps that still resolve after it (FORMAT item 24)."""

from __future__ import annotations

from loopcompare.comparator import diagram
from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import ScenarioFile
from loopcompare.rulesets import registry
from loopcompare.rulesets.scenario import Breaker, Intent, Scenario, Step


def _kiki(still: int) -> ScenarioFile:
    sc = Scenario(
        "Kiki-Jiki and a Bolt", ("Alice", "Bob"),
        (Step("Alice", "activates Kiki-Jiki", optional=True, add={"tokens": 1}), Step("Alice", "untaps it", optional=True)),
        state={"tokens": 0}, breakers=(Breaker("Bob", "bolts Kiki-Jiki", still_resolves=still),),
        intents={"Alice": Intent(100), "Bob": Intent(5)}, format=3,
    )
    return ScenarioFile("kiki", "kiki.toml", sc)


def test_the_cut_says_how_many_steps_still_resolve_in_every_drawing():
    picture = diagram.build(compare(_kiki(1), registry().rulesets))
    (cut,) = picture.cuts
    assert cut.after == 1
    assert cut.where == "5 it. + 0 steps, Bob deviates, then 1 step still resolves"
    assert "then 1 step still resolves" in diagram.describe(picture)
    assert "then 1 step still resolves" in diagram.mermaid(picture)
    assert "still resolves" in diagram.svg(picture, "k")


def test_two_steps_and_none():
    (cut,) = diagram.build(compare(_kiki(2), registry().rulesets)).cuts
    assert cut.where.endswith("Bob deviates, then 2 steps still resolve")
    (cut,) = diagram.build(compare(_kiki(0), registry().rulesets)).cuts
    assert cut.after == 0 and cut.where == "5 it. + 0 steps, Bob deviates"
