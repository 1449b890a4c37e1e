"""The report view-model: plain frozen dataclasses built from comparisons.

Every output format (markdown, HTML) reads this model and only formats it, so the formats never
disagree about what a report says.  All text here is plain (unescaped); each renderer escapes
for its own format.  Nothing here depends on time, paths or hash order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from loopcompare.rulesets import Result, Ruleset
from loopcompare.rulesets.citations import citation, md_escape
from loopcompare.rulesets.history import period_in_words
from loopcompare.rulesets.outcome import FIELD_LABELS, FIELDS_BY_NAME
from loopcompare.rulesets.scenario import Limits, LoopFlags, OracleText, Ruling, Scenario

from .compare import Comparison
from .diagram import Diagram
from .diagram import build as build_diagram
from .wording import show, step_kind, step_words


@dataclass(frozen=True)
class Column:
    """A ruleset as a column of the outcome table."""

    key: str
    name: str
    document: str
    effective: str
    in_force: str


@dataclass(frozen=True)
class Row:
    """One outcome field across the rulesets; ``differs`` marks the rows that disagree, and
    ``marked`` the cells that differ from the row's most common value (see :func:`odd_ones`)."""

    field: str
    label: str
    cells: tuple[str, ...]
    differs: bool
    compared: bool = True
    marked: tuple[bool, ...] = ()


@dataclass(frozen=True)
class StepView:
    """One step of the loop, as the scenario table shows it (an inner loop's step is numbered
    after the step that runs it: ``1.2``, FORMAT item 29)."""

    number: int | str
    by: str
    does: str
    kind: str
    effect: str


@dataclass(frozen=True)
class ScenarioView:
    """A scenario as a reader needs it: who, what, and what each player means to do."""

    id: str
    anchor: str
    file: str
    title: str
    description: str
    source: str
    tags: tuple[str, ...]
    players: str
    steps: tuple[StepView, ...]
    state: tuple[tuple[str, str], ...]
    intents: tuple[tuple[str, str], ...]
    breakers: tuple[tuple[str, str], ...]
    loop: tuple[str, ...]
    oracle: tuple[OracleText, ...] = ()
    """The cards and their Oracle text ([[oracle]]), as the file quotes them."""
    rulings: tuple[Ruling, ...] = ()
    """The rulings that decide the loop in some era ([[ruling]])."""
    simplified: str = ""
    """What the file had to simplify, if anything."""


@dataclass(frozen=True)
class Section:
    """How one ruleset settled the scenario: transcript, notes, and the rules quoted."""

    key: str
    anchor: str
    name: str
    document: str
    effective: str
    today: str
    result: str
    transcript: tuple[str, ...]
    notes: tuple[str, ...]
    quotes: tuple[tuple[str, tuple[str, ...]], ...]
    sources: tuple[tuple[str, str], ...] = ()
    """Each quoted document's citation, with links: (markdown, HTML)."""


@dataclass(frozen=True)
class PartView:
    """One part of a file of loops one after another (``[[then]]``, FORMAT item 30): its title and
    its own outcome table, the differences counted within the part."""

    number: int
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    steps: tuple[StepView, ...] = ()
    """A later part's own steps (the first part's are the file's)."""
    diagram: Diagram | None = None
    """A later part's own diagram, with the cuts of the rulesets that reached it."""


@dataclass(frozen=True)
class ComparisonView:
    """One scenario's side-by-side comparison."""

    scenario: ScenarioView
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    sections: tuple[Section, ...]
    differences: tuple[str, ...]
    diagram: Diagram
    parts: tuple[PartView, ...] = ()

    @property
    def agree(self) -> bool:
        """True when every ruleset gives the same outcome."""
        return not self.differences


@dataclass(frozen=True)
class SummaryRow:
    """A scenario in the summary matrix of a report on several scenarios."""

    id: str
    anchor: str
    title: str
    link: str
    cells: tuple[str, ...]
    differs: bool
    marked: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Report:
    """A whole report: one comparison, or several with an index and a summary matrix."""

    title: str
    comparisons: tuple[ComparisonView, ...]
    columns: tuple[Column, ...]
    summary: tuple[SummaryRow, ...]
    only_differences: bool
    see_also: tuple[tuple[str, str], ...] = ()
    """Further reading for a report on several scenarios: (text, link) pairs."""

    @property
    def several(self) -> bool:
        """True when the report has more than one scenario (and so an index and a summary)."""
        return len(self.comparisons) > 1 or not self.comparisons


# --- formatting plain values ----------------------------------------------------------------------


def in_force(ruleset: Ruleset) -> str:
    """A ruleset's period in force, in words (an undated change as the interval the sources give)."""
    return period_in_words(ruleset)


def columns(rulesets: Iterable[Ruleset]) -> tuple[Column, ...]:
    """The rulesets as table columns."""
    return tuple(Column(r.key, r.name, r.document, r.effective, in_force(r)) for r in rulesets)


# --- building the model ------------------------------------------------------------------------------


def scenario_view(comparison: Comparison, anchor: str) -> ScenarioView:
    """The scenario part of a comparison."""
    sf = comparison.scenario
    sc = sf.scenario
    players = ", ".join(f"{p} (active)" if p == sc.active else p for p in sc.players)
    steps = _step_rows(sc)
    state = tuple((k, show(sc.state[k])) for k in sorted(sc.state))
    intents = tuple(
        (p, sc.intent(p).describe() + ("" if p in sc.intents else " (not given)")) for p in sc.players
    )
    breakers = tuple((b.by, b.does + (" (hidden)" if b.hidden else "")) for b in sc.breakers)
    return ScenarioView(
        id=sf.id,
        anchor=anchor,
        file=sf.file,
        title=sc.title,
        description=sc.description,
        source=sc.source,
        tags=sc.tags,
        players=players,
        steps=steps,
        state=state,
        intents=intents,
        breakers=breakers,
        loop=_loop(sc.loop) + _ends(sc),
        oracle=sc.oracle,
        rulings=sc.rulings,
        simplified=sc.simplified,
    )


def _step_rows(sc: Scenario) -> tuple[StepView, ...]:
    """A loop's steps as the table shows them, each inner loop's steps (``1.1``, ``1.2``) under
    the first step that runs it (FORMAT item 29)."""
    rows: list[StepView] = []
    shown: set[str] = set()
    for i, s in enumerate(sc.steps):
        rows.append(StepView(i + 1, s.by, s.does, step_kind(s), step_words(s)))
        if s.run is not None and s.run.loop.id not in shown:
            shown.add(s.run.loop.id)
            loop = s.run.loop
            rows.extend(
                StepView(f"{i + 1}.{k + 1}", t.by, f"(inner loop {loop.id!r}) {t.does}", step_kind(t), step_words(t))
                for k, t in enumerate(loop.steps)
            )
    return tuple(rows)


def _loop(flags: LoopFlags) -> tuple[str, ...]:
    out = []
    if flags.independent:
        out.append("The involved players' actions are independent of one another.")
    if flags.spans_turns:
        change = "with" if flags.meaningful_change else "without"
        out.append(f"The loop continues across turns, {change} a meaningful change to the game state.")
    elif flags.meaningful_change:
        out.append("The game state changes meaningfully (relevant only across turns).")
    if flags.shortcut_before:
        out.append("This loop was shortcut before, and the game has not changed in a relevant way since.")
    if flags.within == "resolution":
        out.append("The repetition happens inside one resolution: nobody receives priority during it.")
    if flags.ends_when:
        sign = "\u2264" if flags.ends_when.at_most else "\u2265"
        end = f"The loop ends by itself when {flags.ends_when.value} {sign} {flags.ends_when.bound:,}"
        out.append(end + (f": {flags.ends_with}." if flags.ends_with else "."))
    return tuple(out)


def _ends(sc: Scenario) -> tuple[str, ...]:
    """Format 2's [[end]] tables and floors, in words."""
    out = []
    for end in sc.ends:
        sign = "\u2264" if end.at_most else "\u2265"
        who = f"; {end.loses} loses" if end.loses else "; that player loses" if end.loses_each else ""
        but = f" (never for {', '.join(end.exempt)})" if end.exempt else ""
        out.append(f"The loop ends by itself when {end.value} {sign} {show(end.bound)}{but}: {end.effect}{who}.")

    def stays(name: str, limit: Limits) -> str:
        bounds = [f"at least {show(limit.min)}" if limit.min is not None else "", f"at most {show(limit.max)}" if limit.max is not None else ""]
        return f"{name} stays {' and '.join(b for b in bounds if b)}."

    for name, limit in sc.limits.items():
        out.append(stays(name, limit))
    for name, entries in sc.entry_limits.items():
        for player, limit in entries.items():
            out.append(stays(f"{player}'s {name}", limit))
    return tuple(out)


def comparison_view(comparison: Comparison, anchor: str, *, only_differences: bool = False) -> ComparisonView:
    """The view of one comparison."""
    differences = comparison.differences
    rows = []
    for name in comparison.fields:
        differs = name in differences
        if only_differences and not differs:
            continue
        spec = FIELDS_BY_NAME.get(name)
        values = comparison.values(name)
        if spec is not None and spec.hide_neutral and all(v == spec.neutral for v in values):
            continue  # a format 2 field every ruleset leaves neutral says nothing here
        label = f"State: {name[len('state.'):]}" if name.startswith("state.") else FIELD_LABELS[name]
        cells = tuple(show(v) for v in values)
        if name.startswith("state."):
            # No cut (a draw, a loop of unknown length, an unsettled one): the values are the starting ones.
            cells = tuple(
                f"{cell} (start)" if comparison.outcomes[r.key].iterations is None else cell
                for cell, r in zip(cells, comparison.rulesets)
            )
        rows.append(Row(name, label, cells, differs, marked=odd_ones(cells) if differs else ()))
    if not only_differences:
        cells = tuple(show(list(comparison.outcomes[r.key].rules)) for r in comparison.rulesets)
        rows.append(Row("rules", FIELD_LABELS["rules"], cells, False, compared=False))
    sections = []
    for r in comparison.rulesets:
        out = comparison.outcomes[r.key]
        quotes = tuple((key, tuple(text.split("\n"))) for key, text in out.quotes)
        sections.append(
            Section(
                key=r.key,
                anchor=f"{anchor}-{r.key}",
                name=r.name,
                document=r.document,
                effective=r.effective,
                today=r.today(),
                result=out.result.value,
                transcript=out.transcript,
                notes=out.notes,
                quotes=quotes,
                sources=provenance(r, [key for key, _ in out.quotes]),
            )
        )
    return ComparisonView(
        scenario_view(comparison, anchor), columns(comparison.rulesets), tuple(rows), tuple(sections), differences,
        build_diagram(comparison), part_views(comparison, only_differences=only_differences),
    )


def part_views(comparison: Comparison, *, only_differences: bool = False) -> tuple[PartView, ...]:
    """One table per part of a file with ``[[then]]`` (FORMAT item 30): each reached part's
    outcome under each ruleset ("not reached" where a ruleset's game ended before it)."""
    sc = comparison.scenario.scenario
    if not sc.parts:
        return ()
    titles = (sc.title,) + tuple(p.title for p in sc.parts)
    differences = set(comparison.differences)
    out = []
    for index, title in enumerate(titles):
        reached = [comparison.outcomes[r.key].parts[index] if len(comparison.outcomes[r.key].parts) > index else None for r in comparison.rulesets]
        if not any(reached):
            continue
        rows = []
        for name in comparison.fields:
            differs = f"parts[{index}].{name}" in differences
            if only_differences and not differs:
                continue
            spec = FIELDS_BY_NAME.get(name)
            values = [o.value(name) if o is not None else None for o in reached]
            if spec is not None and spec.hide_neutral and all(v == spec.neutral for v, o in zip(values, reached) if o is not None):
                continue
            label = f"State: {name[len('state.'):]}" if name.startswith("state.") else FIELD_LABELS[name]
            cells = tuple(show(v) if o is not None else "not reached" for v, o in zip(values, reached))
            rows.append(Row(name, label, cells, differs, marked=odd_ones(cells) if differs else ()))
        later = sc.parts[index - 1] if index else None
        steps = _step_rows(later) if later is not None else ()
        diagram = build_diagram(comparison, index) if later is not None else None
        out.append(PartView(index + 1, title, columns(comparison.rulesets), tuple(rows), steps, diagram))
    return tuple(out)


def odd_ones(cells: Sequence[str]) -> tuple[bool, ...]:
    """Which cells differ from the row's most common value (the earliest such value on a tie).

    Marking those cells rather than whole rows keeps the marking informative when many rulesets
    are compared: under every era a differing row still shows which eras stand apart.
    """
    counts: dict[str, int] = {}
    for cell in cells:
        counts[cell] = counts.get(cell, 0) + 1
    common = max(counts, key=lambda c: counts[c])  # max keeps the first of equal counts
    return tuple(cell != common for cell in cells)


def provenance(ruleset: Ruleset, keys: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The documents the quoted rules come from, in order of first quote, each cited as markdown
    and as HTML, with links (:mod:`rulesets.citations`); a plugin's own text, which has no
    citation record, by the source line of its provenance header."""
    found: dict[str, tuple[str, str]] = {}
    for key in keys:
        doc = ruleset.source_of(key)
        if doc is None or doc.filename in found:
            continue
        record = citation(doc.filename)
        if record is not None:
            found[doc.filename] = (record.markdown(), record.html())
        else:
            line = doc.source_line() or "(the text gives no source)"
            found[doc.filename] = (md_escape(line), escape(line))
    return tuple(found.values())


def summary_cell(comparison: Comparison, key: str) -> str:
    """A scenario's outcome under one ruleset in a few words: result, iterations, state."""
    out = comparison.outcomes[key]
    text = out.result.value
    if out.result in (Result.SHORTCUT, Result.ENDS):
        text += f" \u00d7 {show(out.value('iterations'), compact=True)}"
        if out.steps:
            text += f" + {out.steps}"
    if out.deviates:
        text += f", {out.deviates} deviates"
    if out.judge:
        text += ", judge"
    state = "; ".join(f"{k} {show(out.value('state.' + k), compact=True)}" for k in sorted(out.state))
    return f"{text} ({state})" if state else text


def safe_id(text: str) -> str:
    """Text made safe for an HTML id or a markdown anchor: ASCII letters, digits, - and _ only."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in text)


def anchors(comparisons: Sequence[Comparison]) -> list[str]:
    """A unique, stable anchor for each comparison (``scenario-ID``, numbered when repeated)."""
    seen: dict[str, int] = {}
    out = []
    for c in comparisons:
        base = "scenario-" + safe_id(c.scenario.id)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def build(
    comparisons: Sequence[Comparison],
    *,
    title: str | None = None,
    only_differences: bool = False,
    links: Sequence[str] | None = None,
    see_also: Sequence[tuple[str, str]] = (),
) -> Report:
    """The report of one or several comparisons.

    ``links`` gives, per comparison, where its summary row links to (default: its own section).
    """
    names = anchors(comparisons)
    views = tuple(comparison_view(c, a, only_differences=only_differences) for c, a in zip(comparisons, names))
    all_rulesets: list[Ruleset] = []
    for c in comparisons:
        for r in c.rulesets:
            if r not in all_rulesets:
                all_rulesets.append(r)
    summary = []
    for i, (c, a) in enumerate(zip(comparisons, names)):
        cells = tuple(summary_cell(c, r.key) if r.key in c.outcomes else "\u2014" for r in all_rulesets)
        link = links[i] if links else f"#{a}"
        marked = odd_ones(cells) if c.differences else ()
        summary.append(SummaryRow(c.scenario.id, a, c.scenario.scenario.title, link, cells, bool(c.differences), marked))
    if title is None:
        title = comparisons[0].scenario.scenario.title if len(comparisons) == 1 else f"{len(comparisons)} loops compared"
    return Report(title, views, columns(all_rulesets), tuple(summary), only_differences, tuple(see_also))
