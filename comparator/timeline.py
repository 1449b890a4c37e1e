"""Timelines: one scenario under every era in order, and when (and why) its outcome changed.

Each line of descent (the Comprehensive Rules, with the Rules Summary before them; the
Tournament Rules) is settled era by era.  Consecutive eras with the same outcome collapse into
one period; each period after the first names the text whose change caused it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loopcompare.rulesets import Outcome, Ruleset
from loopcompare.rulesets.history import end_in_words, is_cr_loop_rule, lines, numbers_in_words, start_in_words
from loopcompare.rulesets.outcome import FIELD_LABELS

from .compare import Comparison, compare
from .loader import ScenarioFile
from .report import summary_cell

LINE_NAMES = {"summary-1998": "Comprehensive Rules (and the Rules Summary before them)", "mtr-2018": "Tournament Rules"}


@dataclass(frozen=True)
class Period:
    """Consecutive eras of one line that settle the scenario the same way."""

    start: str
    end: str | None
    rulesets: tuple[Ruleset, ...]
    outcome: Outcome
    summary: str
    changed: tuple[str, ...]
    """The outcome fields that differ from the period before (empty for the first period)."""
    cause: str
    """The rule change that opened this period (empty for the first period)."""

    @property
    def span(self) -> str:
        """The period in words: "1999-04-23 to 2009-07-10", "since 2024-06-07", and where the
        sources don't date a change, the interval they give ("since a day after 2018-07-13, by
        2025-11-10")."""
        start = start_in_words(self.rulesets[0])
        end = end_in_words(self.rulesets[-1])
        return f"since {start}" if end is None else f"{start} to {end}"


@dataclass(frozen=True)
class Line:
    """One line of descent and its periods."""

    name: str
    periods: tuple[Period, ...]
    numbers: str = ""
    """For the Comprehensive Rules: the loop rule's numbers over time, to today's."""


@dataclass(frozen=True)
class Timeline:
    """A scenario's outcome through the eras."""

    scenario: ScenarioFile
    lines: tuple[Line, ...]
    comparison: Comparison


def build(scenario: ScenarioFile, rulesets: Sequence[Ruleset]) -> Timeline:
    """The timeline of a scenario under every era of ``rulesets`` (grouped into lines)."""
    comparison = compare(scenario, [r for line in lines(rulesets) for r in line])
    fields = comparison.fields
    out = []
    for line in lines(rulesets):
        periods: list[Period] = []
        group: list[Ruleset] = []
        previous: tuple[tuple[object, ...], ...] | None = None
        for ruleset in line:
            outcome = comparison.outcomes[ruleset.key]
            values = tuple(_key(outcome.value(f)) for f in fields)
            if previous is not None and values == previous:
                group.append(ruleset)
                continue
            if group:
                periods.append(_period(comparison, group, fields, periods))
            group, previous = [ruleset], values
        if group:
            periods.append(_period(comparison, group, fields, periods))
        numbers = numbers_in_words() if any(is_cr_loop_rule(r) for r in line) else ""
        out.append(Line(LINE_NAMES.get(line[0].key, f"Line of {line[0].name}"), tuple(periods), numbers))
    return Timeline(scenario, tuple(out), comparison)


def _period(comparison: Comparison, group: list[Ruleset], fields: Sequence[str], before: list[Period]) -> Period:
    first = group[0]
    outcome = comparison.outcomes[first.key]
    changed: tuple[str, ...] = ()
    cause = ""
    if before:
        last = before[-1].outcome
        changed = tuple(f for f in fields if _key(outcome.value(f)) != _key(last.value(f)))
        labels = ", ".join(_label(f) for f in changed)
        cause = f"{first.name}, {start_in_words(first)}: {first.summary} (changes: {labels}; rules applied: {', '.join(outcome.rules) or 'none'})"
    return Period(
        start=first.in_force[0],
        end=group[-1].in_force[1],
        rulesets=tuple(group),
        outcome=outcome,
        summary=summary_cell(comparison, first.key),
        changed=changed,
        cause=cause,
    )


def _label(field: str) -> str:
    if field.startswith("state."):
        return f"state of {field[len('state.'):]}"
    return FIELD_LABELS[field].lower()


def _key(value: object) -> tuple[object, ...]:
    """A compared value as something ``==`` compares by content and type (1 is not True)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def to_json(timeline: Timeline) -> dict[str, Any]:
    """The timeline as JSON-ready data (``loopcompare/timeline/1``)."""
    sf = timeline.scenario
    return {
        "scenario": {"id": sf.id, "title": sf.scenario.title, "file": sf.file},
        "lines": [
            {
                "name": line.name,
                "periods": [
                    {
                        "from": p.start,
                        "to": p.end,
                        "rulesets": [r.key for r in p.rulesets],
                        "outcome": p.outcome.to_json(),
                        "changed": list(p.changed),
                        "cause": p.cause or None,
                    }
                    for p in line.periods
                ],
            }
            for line in timeline.lines
        ],
    }

