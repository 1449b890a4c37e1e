"""``loopcompare cite``: what a reader cites (:mod:`rulesets.citations` holds the records)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from loopcompare.rulesets import citations
from loopcompare.rulesets.registry import UnknownRuleset

from .compare import compare
from .stamp import compare_command, of

if TYPE_CHECKING:
    from loopcompare.rulesets import Ruleset
    from loopcompare.rulesets.registry import Registry

    from .loader import ScenarioFile


def _texts_of(rulesets: Sequence[Ruleset]) -> list[citations.Citation]:
    """The citation records of the texts these rulesets quote, oldest first."""
    found = {s.filename: citations.citation(s.filename) for r in rulesets for s in r.sources}
    return sorted((c for c in found.values() if c is not None), key=lambda c: (c.effective, c.id))


def citations_for(
    what: str | None,
    fmt: str,
    keys: Sequence[str],
    report_fmt: str,
    registry: Callable[[], Registry],
    rulesets: Callable[[Sequence[str]], tuple[Ruleset, ...]],
    scenarios: Callable[[Sequence[str]], list[ScenarioFile]],
) -> str:
    """The citations ``cite`` prints: no argument, every shipped text; a ruleset key or alias, its
    texts; anything else is read as scenarios, and their report is cited with the texts it quotes."""
    if what is None:
        every: list[citations.Citable] = [*sorted(citations.CITATIONS.values(), key=lambda c: (c.effective, c.id))]
        return citations.render(every, fmt)
    try:
        ruleset = registry().get(what)
    except UnknownRuleset:
        ruleset = None
    if ruleset is not None:
        return citations.render(_texts_of([ruleset]), fmt)
    chosen = rulesets(keys)
    files = scenarios([what])
    comparisons = [compare(sf, chosen) for sf in files]
    title = files[0].scenario.title if len(files) == 1 else f"{len(files)} loops compared"
    command = compare_command(comparisons, report_fmt)
    report = citations.ReportCitation(title, of(command), files[0].id if len(files) == 1 else "report")
    return citations.render([report, *_texts_of(chosen)], fmt)
