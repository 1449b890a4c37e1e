"""Renderers: markdown (tabulate pipe tables), HTML (jinja2) and JSON, all from the same model.

Output is deterministic by construction: no timestamps, no paths, stable ordering, ``\\n`` line
endings and exactly one final newline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

import tabulate
from markupsafe import Markup, escape

from . import atlas as atlases
from . import stamp
from .atlas import KINDS
from .charts import timeline_svg
from .compare import Comparison
from .controls import json_escaped, visible
from .diagram import Diagram, svg
from .diagram import mermaid as mermaid_text
from .report import ComparisonView, PartView, Report, ScenarioView, StepView, build, comparison_view, safe_id
from .timeline import Timeline, to_json

if TYPE_CHECKING:  # jinja2 is imported where used (HTML only), see environment()
    from jinja2 import Environment

    from loopcompare.rulesets.citations import Stamp

    from .atlas import Atlas

#: A heat-map row (:func:`heat_map`): the kind of loop in words, its size, and per pair of
#: rulesets (share, shade 0-5, the class of its smallest disagreeing loop or None).
HeatRow = tuple[str, str, list[tuple[str, int, int | None]]]

DIFFERS = "\u2260"  # "≠", the mark of a differing row (with bold and, in HTML, a class)

# --- markdown ------------------------------------------------------------------------------------

# Characters with a meaning in CommonMark/GFM inline text or tables; escaped with a backslash
# so user text renders as the characters typed and never as markup or raw HTML.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~])")


def md(text: str) -> str:
    """Escape text for a markdown paragraph or table cell: inert, on one line."""
    flat = " ".join(str(text).split())
    flat = _MD_SPECIAL.sub(r"\\\1", flat)
    # At the start of a line "#", "-", "+" or "=" would make a heading, a list or a rule, and
    # "1." or "1)" a numbered list: escape the mark (a backslash before a digit would show).
    # A heading's text may not end in "#"s either: CommonMark would read them as its closing sequence.
    flat = _MD_CLOSING.sub(lambda m: "\\#" * len(m.group(1)), flat)
    flat = _MD_LINE_MARK.sub(r"\\\1", flat)
    return _MD_NUMBERED.sub(r"\1\\\2", flat)


# md()'s patterns, compiled once (it runs for every cell of every report).
_MD_CLOSING = re.compile(r"(#+)$")
_MD_LINE_MARK = re.compile(r"^([#=+-])")
_MD_NUMBERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")


class Raw(str):
    """Markdown that the renderer wrote itself (already escaped): table cells keep it as is."""


ODD_CELLS = "In those rows, the cells in bold differ from the row's most common value."


def _odd_cells(cells: Sequence[str], marked: Sequence[bool]) -> list[str]:
    """Table cells with the marked ones in bold (escaped here, so kept as :class:`Raw`)."""
    return [Raw(f"**{md(c)}**") if marked and marked[i] and c.strip() else c for i, c in enumerate(cells)]


@contextmanager
def _narrow_tabulate() -> Iterator[Callable[..., str]]:
    """tabulate measures wide characters only when wcwidth happens to be installed; measure by
    code points always, so the same input gives the same bytes on every machine."""
    saved = tabulate.WIDE_CHARS_MODE
    tabulate.WIDE_CHARS_MODE = False
    try:
        yield tabulate.tabulate
    finally:
        tabulate.WIDE_CHARS_MODE = saved


def md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub pipe table; every cell escaped."""
    with _narrow_tabulate() as tabulate:
        return tabulate(
            [[c if isinstance(c, Raw) else md(c) for c in row] for row in rows],
            headers=[md(h) for h in headers],
            tablefmt="pipe",
            disable_numparse=True,
            stralign="left",
        )


def _steps_table(steps: Sequence[StepView]) -> str:
    """A loop's steps as a markdown table (the file's, or a later part's)."""
    return md_table(["#", "By", "Does", "Kind", "Effect"], [[str(s.number), s.by, s.does, s.kind, s.effect] for s in steps])


def _markdown_comparison(view: ComparisonView, level: int, out: list[str], *, anchor: bool, quotes: bool = True, mermaid: bool = False, heading: str | None = None) -> None:
    h = "#" * level
    sc = view.scenario
    if anchor:
        out.append(f'<a id="{sc.anchor}"></a>\n')
    out.append(f"{h} {md(heading or sc.title)}\n")
    if sc.description:
        out.append(md(sc.description) + "\n")
    facts = [f"*Scenario:* {md(sc.id)} ({md(sc.file)})"]
    if sc.source:
        facts.append(f"*Source:* {md(sc.source)}")
    if sc.tags:
        facts.append("*Tags:* " + ", ".join(md(t) for t in sc.tags))
    out.append("  \n".join(facts) + "\n")
    _markdown_cards_and_rulings(sc, h, out)

    out.append(f"{h}# The loop\n")
    out.append(f"**Players, in turn order:** {md(sc.players)}\n")
    if mermaid:

        out.append("```mermaid\n" + mermaid_text(view.diagram) + "\n```\n")
    out.append(_steps_table(sc.steps) + "\n")
    lines = []
    if sc.state:
        lines.append("**Starting state:** " + ", ".join(f"{md(k)} = {md(v)}" for k, v in sc.state))
    lines.append("**Intents:** " + "; ".join(f"{md(p)}: {md(i)}" for p, i in sc.intents))
    if sc.breakers:
        lines.append("**Could break the loop:** " + "; ".join(f"{md(p)}: {md(d)}" for p, d in sc.breakers))
    for flag in sc.loop:
        lines.append(md(flag))
    out.append("  \n".join(lines) + "\n")

    out.append(f"{h}# Outcomes side by side\n")
    if view.agree:
        out.append("Every ruleset gives the same outcome.\n")
    else:
        out.append(f"Rows marked **{DIFFERS}** differ between the rulesets: " + ", ".join(md(d) for d in view.differences) + f". {ODD_CELLS}\n")
    if view.rows:
        out.append(_outcome_table(view) + "\n")
    for part in view.parts:
        out.append(f"{h}## Part {part.number}: {md(part.title)}\n")
        if part.steps:
            if mermaid and part.diagram is not None:
                out.append("```mermaid\n" + mermaid_text(part.diagram) + "\n```\n")
            out.append(_steps_table(part.steps) + "\n")
        out.append((_outcome_table(part) if part.rows else "Every ruleset that reached it gives the same outcome.") + "\n")

    out.append(f"{h}# How each ruleset settles it\n")
    for section in view.sections:
        out.append(f"{h}## {md(section.name)}: {section.result}\n")
        today = f" {md(section.today)}" if section.today else ""
        out.append(f"*{md(section.document)}, text of {md(section.effective)}.{today}*\n")
        out.append("\n".join(f"{i}. {md(line)}" for i, line in enumerate(section.transcript, 1)) + "\n")
        if section.notes:
            out.append("**Notes (where the text is silent or ambiguous):**\n")
            out.append("\n".join(f"- {md(n)}" for n in section.notes) + "\n")
        if section.quotes and quotes:
            out.append("**Rules quoted:**\n")
            for key, paragraphs in section.quotes:
                body = "\n>\n".join(f"> {md(p)}" for p in paragraphs)
                out.append(f"> **{md(key)}**\n>\n{body}\n")
            if section.sources:
                out.append("**Sources:**\n")
                out.append("\n".join(f"- {cited}" for cited, _ in section.sources) + "\n")


def _markdown_cards_and_rulings(sc: ScenarioView, h: str, out: list[str]) -> None:
    """The file's [[oracle]], [[ruling]] and ``simplified``, briefly (every word escaped; only the
    renderer's own labels are in bold)."""
    if not (sc.oracle or sc.rulings or sc.simplified):
        return
    out.append(f"{h}# Cards and rulings\n")
    if sc.oracle:
        cards = "\n".join(f"- {md(o.name)}: {_md_lines(o.text)} (Oracle text read {md(o.date)}, {md(o.source)})" for o in sc.oracle)
        out.append("**Cards (Oracle text):**\n\n" + cards + "\n")
    if sc.rulings:
        lines = []
        for r in sc.rulings:
            by = f", {md(r.author)}" if r.author else ""
            lines.append(f"- {md(r.title)}{by}, {md(r.date)}, speaks to {md(', '.join(r.eras))}: \u201c{md(r.quote)}\u201d {md(r.source)}")
        out.append("**Rulings:**\n\n" + "\n".join(lines) + "\n")
    if sc.simplified:
        out.append(f"**Simplified:** {md(sc.simplified)}\n")


def _md_lines(text: str) -> str:
    """Text of several lines inside a list item: each line escaped, hard line breaks between."""
    return "  \n  ".join(md(line) for line in text.splitlines() if line.strip())


def markdown(report: Report, *, mermaid: bool = False) -> str:
    """The report as GitHub-flavoured markdown; with ``mermaid``, each loop also drawn as a
    Mermaid flowchart (GitHub renders it; off by default so pasted tables stay plain)."""
    out: list[str] = [f"# {md(report.title)}\n"]
    if report.several:
        out.append("## Contents\n")
        out.append("\n".join(f"- [{md(s.title)}]({s.link})" for s in report.summary) + "\n")
        if report.see_also:
            out.append("See also: " + "; ".join(f"[{md(text)}]({link})" for text, link in report.see_also) + ".\n")
        out.append("## Summary\n")
        out.append(
            f"Each cell: result \u00d7 iterations (+ steps), who deviates, and the state at the cut. **{DIFFERS}** marks the loops the rulesets disagree on; "
            "in those rows, the cells in bold differ from the row's most common outcome.\n"
        )
        headers = ["Loop"] + [c.name for c in report.columns] + [DIFFERS]
        rows = [[Raw(f"[{md(s.title)}]({s.link})")] + _odd_cells(s.cells, s.marked) + [DIFFERS if s.differs else ""] for s in report.summary]
        out.append(md_table(headers, rows) + "\n")
        for view in report.comparisons:
            _markdown_comparison(view, 2, out, anchor=True, mermaid=mermaid)
    else:
        view = report.comparisons[0]
        out = []
        _markdown_comparison(view, 1, out, anchor=False, mermaid=mermaid, heading=report.title)
    return finish("\n".join(out))


def _outcome_table(view: ComparisonView | PartView) -> str:
    headers = ["Outcome"] + [c.name for c in view.columns]
    rows = []
    for row in view.rows:
        label = Raw(f"**{DIFFERS} {md(row.label)}**") if row.differs else row.label
        rows.append([label] + _odd_cells(row.cells, row.marked))
    return md_table(headers, rows)


def tables_markdown(report: Report, *, title: str | None = None, note: Stamp | None = None) -> str:
    """Only the outcome tables (``compare --table-only``): for pasting into an article.  Several
    scenarios are each introduced by their title in bold; ``title`` adds a heading; ``note``
    adds a one-line source note under the tables (the tool, the texts, the command)."""
    out: list[str] = [f"# {md(title)}\n"] if title else []
    for view in report.comparisons:
        if report.several:
            out.append(f"**{md(view.scenario.title)}**\n")
        out.append((_outcome_table(view) if view.rows else "Every ruleset gives the same outcome.") + "\n")
    if note is not None:
        out.append(f"Source: {note.markdown()}\n")
    return finish("\n".join(out))


def tables_html(report: Report, *, title: str | None = None, note: Stamp | None = None) -> str:
    """Only the outcome tables, as an HTML fragment (no page, no style: the article's own applies);
    differing cells are in ``<strong>`` (kept when pasted without the stylesheet); ``note`` adds a
    one-line source note."""
    source = Markup(note.html().replace('<p class="stamp">', '<p class="stamp"><small>Source: ', 1).replace("</p>", "</small></p>")) if note else None
    return finish(environment().get_template("tables.html.j2").render(report=report, title=title, differs=DIFFERS, note=source))


def finish(text: str) -> str:
    """``\\n`` line endings, no trailing spaces except markdown line breaks, one final newline,
    and no control character: every markdown and HTML document passes here, so this is where
    untrusted text is neutralised (:func:`comparator.controls.visible`)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() if not line.endswith("  ") or not line.strip() else line for line in text.split("\n")]
    return visible("\n".join(lines).rstrip("\n") + "\n")


def document(text: str, fmt: str, made: Stamp) -> str:
    """A markdown (``md``) or HTML (``html``) report made whole: its stamp ``made`` added
    (:func:`comparator.stamp.stamped`) and the text finished (:func:`finish`).  Every report's
    markdown and HTML (comparisons, timelines, the atlas, the history) ends here, and every
    report's JSON in :func:`json_document`."""
    return finish(stamp.stamped(text, fmt, made))


def json_document(doc: object) -> str:
    """A JSON document: exact integers, UTF-8 text, and every control character as a ``\\u``
    escape (:func:`comparator.controls.json_escaped`); every JSON output passes here."""
    return json_escaped(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"


# --- HTML ------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The jinja2 environment every HTML page is rendered in: autoescaped, strict."""
    # Start-up: jinja2 costs tens of milliseconds; only HTML needs it, so it loads here.
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=PackageLoader("loopcompare.comparator", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["dates"] = _dates
    env.globals["loop_svg"] = _loop_svg
    env.globals["timeline_svg"] = _timeline_svg
    return env


_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _dates(text: object) -> Markup:
    """Text escaped for HTML with each ISO date kept on one line (a date never wraps at its hyphens)."""
    return Markup(_DATE.sub(lambda m: f'<span class="date">{m.group(0)}</span>', str(escape(text))))


def _timeline_svg(timeline: Timeline, id_prefix: str) -> Markup:
    """The timeline chart as inline SVG, trusted markup (:mod:`.charts` escapes every text in it)."""
    return Markup(timeline_svg(timeline, id_prefix))


def _loop_svg(diagram: Diagram, id_prefix: str) -> Markup:
    """The loop diagram as inline SVG, trusted markup (:mod:`.diagram` escapes every text in it)."""
    try:
        return Markup(_cached_svg(diagram, id_prefix))
    except TypeError:  # a diagram holding an unhashable value is drawn afresh
        return Markup(svg(diagram, id_prefix))


@lru_cache(maxsize=512)
def _cached_svg(diagram: Diagram, id_prefix: str) -> str:
    """:func:`.diagram.svg` once per equal diagram and prefix: the gallery and the site draw each
    loop on its own page and again in the index (drawing measures every character of its text)."""
    return svg(diagram, id_prefix)


def page(template: str, **context: object) -> str:
    """A self-contained HTML page: the template rendered with the stylesheet inlined."""
    css = resources.files("loopcompare.comparator").joinpath("templates", "report.css").read_text(encoding="utf-8")
    return finish(permalinks(environment().get_template(template).render(css=css, differs=DIFFERS, **context)))


_TOKEN = re.compile(r"<h([1-6])((?:\s[^>]*)?)>(.*?)</h\1>|<section((?:\s[^>]*)?)>|</section>", re.S)
_ID = re.compile(r'\sid="([^"]*)"')


def permalinks(page: str) -> str:
    """Every heading of a page with a stable id and a visible permalink to it: its own id, else
    one made from its words, prefixed by the id of the section it is in (so "The text" of each
    amendment is ``amendment-cr-2005-the-text``), numbered only where two would still be equal."""
    taken = set(_ID.findall(page))
    sections: list[str] = []
    out: list[str] = []
    at = 0
    for match in _TOKEN.finditer(page):
        out.append(page[at:match.start()])
        at = match.end()
        level, attrs, inner, section = match.groups()
        if level is None:
            if match.group(0).startswith("</"):
                sections.pop() if sections else None
            else:
                found = _ID.search(section or "")
                sections.append(found.group(1) if found else (sections[-1] if sections else ""))
            out.append(match.group(0))
            continue
        found = _ID.search(attrs)
        if found:
            anchor = found.group(1)
        else:
            words = re.sub(r"<[^>]+>|&[a-z]+;|&#\d+;", " ", inner).lower()
            base = "-".join(re.findall(r"[a-z0-9]+", words))[:60].strip("-") or "section"
            if sections and sections[-1]:
                base = f"{sections[-1]}-{base}"
            anchor, n = base, 1
            while anchor in taken:
                n += 1
                anchor = f"{base}-{n}"
            taken.add(anchor)
            attrs = f' id="{anchor}"' + attrs
        link = f'<a class="permalink" href="#{anchor}" aria-label="Permalink to this section">#</a>'
        out.append(f"<h{level}{attrs}>{inner} {link}</h{level}>")
    out.append(page[at:])
    return "".join(out)


def html(report: Report) -> str:
    """The report as one self-contained HTML page (inline CSS, no scripts, no network)."""
    return page("report.html.j2", report=report)


# --- any format ------------------------------------------------------------------------------------


def report(
    comparisons: Sequence[Comparison],
    fmt: str,
    *,
    only_differences: bool = False,
    title: str | None = None,
    links: Sequence[str] | None = None,
    see_also: Sequence[tuple[str, str]] = (),
    mermaid: bool = False,
    table_only: bool = False,
    command: str | None = None,
    source_note: bool = True,
) -> str:
    """A report of comparisons as ``md``, ``html`` or ``json``.

    ``mermaid`` draws each loop as a Mermaid flowchart (markdown); ``table_only`` keeps only the
    outcome tables (markdown, or an HTML fragment) with a one-line source note (unless
    ``source_note`` is False); JSON always has everything.  Every report carries its stamp
    (:mod:`.stamp`): ``command`` is the command that reproduces it (default: the ``compare``
    command that would).
    """
    if command is None:
        options = [o for o, on in (("--only-differences", only_differences), ("--table-only", table_only), ("--mermaid", mermaid)) if on]
        options += ["--title", title] if title else []
        command = stamp.compare_command(comparisons, fmt, *options)
    made = stamp.of(command)
    if fmt == "json":
        return json_report(comparisons, made)
    view = build(comparisons, title=title, only_differences=only_differences, links=links, see_also=see_also)
    if table_only:
        if fmt == "md":
            return tables_markdown(view, title=title, note=made if source_note else None)
        return tables_html(view, title=title, note=made if source_note else None)
    text = markdown(view, mermaid=mermaid) if fmt == "md" else html(view)
    return document(text, fmt, made)


# --- JSON ------------------------------------------------------------------------------------------


def json_report(comparisons: Sequence[Comparison], made: Stamp | None = None) -> str:
    """docs/FORMAT.md's JSON document: integers exact however large, keys in a stable order;
    with ``made``, its stamp under ``"stamp"``."""
    doc: dict[str, object] = {"format": "loopcompare/1", "comparisons": [c.to_json() for c in comparisons]}
    if made is not None:
        doc["stamp"] = made.json()
    return json_document(doc)


# --- timelines -------------------------------------------------------------------------------------


def timeline_command(timelines: Sequence[Timeline], fmt: str) -> str:
    """The ``timeline`` command that makes this report."""
    return stamp.command("loopcompare", "timeline", *(stamp.scenario_argument(t.scenario) for t in timelines), "-f", fmt)


def timeline_report(timelines: Sequence[Timeline], fmt: str, command: str | None = None) -> str:
    """Timelines in one format, stamped with ``command`` (default: the one that makes them)."""
    made = stamp.of(command or timeline_command(timelines, fmt))
    if fmt == "json":
        return timeline_json(timelines, made)
    text = timeline_markdown(timelines) if fmt == "md" else timeline_html(timelines)
    return document(text, fmt, made)


def timeline_markdown(timelines: Sequence[Timeline]) -> str:
    """Timelines as markdown: per line of descent, a table of periods and what changed."""
    several = len(timelines) > 1
    out: list[str] = []
    if several:
        out.append("# Timelines\n")
        out.append("\n".join(f"- [{md(t.scenario.scenario.title)}](#{_timeline_anchor(t)})" for t in timelines) + "\n")
    for t in timelines:
        h = "##" if several else "#"
        sc = t.scenario
        if several:
            out.append(f'<a id="{_timeline_anchor(t)}"></a>\n')
        out.append(f"{h} Timeline: {md(sc.scenario.title)}\n")
        if sc.scenario.description:
            out.append(md(sc.scenario.description) + "\n")
        out.append(f"*Scenario:* {md(sc.id)} ({md(sc.file)}). Consecutive eras that settle the loop the same way share a row.\n")
        for line in t.lines:
            out.append(f"{h}# {md(line.name)}\n")
            rows = []
            for period in line.periods:
                names = ", ".join(r.name for r in period.rulesets)
                rows.append([period.span, names, period.summary, period.cause or "\u2014 (the earliest text modelled)"])
            out.append(md_table(["Period", "Rules in force", "Outcome", "What changed"], rows) + "\n")
            if line.numbers:
                out.append(f"*The loop rule's numbers:* {md(line.numbers)}\n")
            notes = [(r.name, n) for p in line.periods for r in p.rulesets for n in t.comparison.outcomes[r.key].notes]
            if notes:
                out.append("**Where the texts are silent or ambiguous:**\n")
                out.append("\n".join(f"- {md(name)}: {md(note)}" for name, note in notes) + "\n")
    return finish("\n".join(out))


def _timeline_anchor(timeline: Timeline) -> str:
    """A safe anchor for a timeline section (letters, digits, - and _ only)."""
    return "timeline-" + safe_id(timeline.scenario.id)


def timeline_html(timelines: Sequence[Timeline]) -> str:
    """Timelines as one self-contained HTML page."""
    title = f"Timeline: {timelines[0].scenario.scenario.title}" if len(timelines) == 1 else "Timelines"
    items = [(t, _timeline_anchor(t)) for t in timelines]
    return page("timeline.html.j2", timelines=timelines, items=items, title=title)


def timeline_json(timelines: Sequence[Timeline], made: Stamp | None = None) -> str:
    """Timelines as JSON (``loopcompare/timeline/1``), with ``made`` under ``"stamp"``."""
    doc: dict[str, object] = {"format": "loopcompare/timeline/1", "timelines": [to_json(t) for t in timelines]}
    if made is not None:
        doc["stamp"] = made.json()
    return json_document(doc)


# --- the atlas -------------------------------------------------------------------------------------


def share(part: int, whole: int) -> str:
    """A share in per cent to a useful precision: one decimal from 1%, two significant digits
    below it (a class of one loop in 42,327 is "0.0024%", not "0.0%"), never rounded to 0 or 100."""
    if not whole:
        return "\u2014"
    if part in (0, whole):
        return f"{100 * part // whole}%"
    decimals = 1
    while 100 * part * 10**decimals < 10 * whole:  # fewer than two significant digits shown
        decimals += 1
    while f"{100 * part / whole:.{decimals}f}" == "100." + "0" * decimals:
        decimals += 1
    return f"{100 * part / whole:.{decimals}f}%"


def heat_level(part: int, whole: int) -> int:
    """A heat-map cell's shade, 0 (none disagree) to 5 (nearly all), by fifths."""
    return 0 if not part or not whole else min(5, 1 + 5 * part // (whole + 1))


def atlas_markdown(atlas: Atlas) -> str:
    """The divergence atlas as markdown: summary, pairwise figures, and every class with its
    smallest example (rules are cited in each transcript; the texts are quoted in the gallery)."""
    names = ", ".join(r.name for r in atlas.rulesets)
    out = [f"# Divergence atlas: {md(names)}\n"]
    out.append(
        f"{atlas.total:,} canonical small loops settled under each ruleset. In {atlas.agreeing:,} "
        f"({share(atlas.agreeing, atlas.total)}) every ruleset gives the same outcome; the other "
        f"{atlas.total - atlas.agreeing:,} fall into {len(atlas.classes)} classes of disagreement, listed by size. "
        "A class is a pattern: which rulesets give which result, and which of those that cut the loop agree "
        "on who deviates, who has the last word, the final state and the number of iterations.\n"
    )
    out.append("## By number of players\n")
    out.append(md_table(["Players", "Loops", "All rulesets agree"], [[str(n), f"{t:,}", f"{a:,} ({share(a, t)})"] for n, t, a in atlas.by_players]) + "\n")
    out.append("## How often each pair of rulesets disagrees\n")
    by_key = {r.key: r.name for r in atlas.rulesets}
    out.append(md_table(["Rulesets", "Disagree", "Share"], [[f"{by_key[a]} / {by_key[b]}", f"{n:,}", share(n, atlas.total)] for a, b, n in atlas.pairs]) + "\n")
    out.append("## Where each pair disagrees, by kind of loop\n")
    out.append("Each cell: the share of loops of that kind on which the two rulesets disagree, and the class of the smallest such loop.\n")
    out.append(md_table(["Kind of loop", "Loops"] + [f"{by_key[a]} / {by_key[b]}" for a, b, _ in atlas.pairs], [_heat_row(row, Raw) for row in heat_map(atlas)]) + "\n")
    out.append("## Classes of disagreement\n")
    rows = [[Raw(f"[{i}](#class-{i})"), f"{c.count:,}", share(c.count, atlas.total), atlases.sentence(atlas, c)] for i, c in enumerate(atlas.classes, 1)]
    out.append(md_table(["Class", "Loops", "Share", "What differs"], rows) + "\n")
    for i, (cls, comparison) in enumerate(zip(atlas.classes, atlas.example_comparisons), 1):
        out.append(f'<a id="class-{i}"></a>\n')
        out.append(f"## Class {i}: {cls.count:,} loops ({share(cls.count, atlas.total)})\n")
        out.append(md(atlases.sentence(atlas, cls)) + "\n")
        out.append("\n".join(f"- {md(side)}: {md(', '.join(rules) or 'no rule cited')}" for side, rules in atlases.sides(atlas, cls, comparison)) + "\n")
        out.append("Smallest example (fewest players, then fewest steps); saved as a scenario file it reproduces this class:\n")
        view = comparison_view(comparison, f"class-{i}-example")
        _markdown_comparison(view, 3, out, anchor=False, quotes=False)
    return finish("\n".join(out))


def heat_map(atlas: Atlas) -> list[HeatRow]:
    """The atlas's heat map: per kind of loop, its words, its size, and per pair of rulesets
    (share, shade 0-5, the class of its smallest disagreeing loop or None)."""

    words = dict(KINDS)
    return [
        (words[name], f"{total:,}", [(share(count, total), heat_level(count, total), number) for count, number in cells])
        for name, total, cells in atlas.by_kind
    ]


def _heat_row(row: HeatRow, raw: Callable[[str], str]) -> list[str]:
    words, total, cells = row
    return [words, total] + [raw(f"[{share}](#class-{number})") if number else share for share, _, number in cells]


def atlas_html(atlas: Atlas) -> str:
    """The divergence atlas as one self-contained HTML page."""
    by_key = {r.key: r.name for r in atlas.rulesets}
    classes = []
    for i, (cls, comparison) in enumerate(zip(atlas.classes, atlas.example_comparisons), 1):
        classes.append(
            {
                "number": i,
                "count": f"{cls.count:,}",
                "share": share(cls.count, atlas.total),
                "sentence": atlases.sentence(atlas, cls),
                "sides": atlases.sides(atlas, cls, comparison),
                "view": comparison_view(comparison, f"class-{i}-example"),
            }
        )
    return page(
        "atlas.html.j2",
        title="Divergence atlas: " + ", ".join(r.name for r in atlas.rulesets),
        atlas=atlas,
        classes=classes,
        pairs=[(f"{by_key[a]} / {by_key[b]}", f"{n:,}", share(n, atlas.total)) for a, b, n in atlas.pairs],
        players=[(n, f"{t:,}", f"{a:,} ({share(a, t)})") for n, t, a in atlas.by_players],
        agreeing=f"{atlas.agreeing:,} ({share(atlas.agreeing, atlas.total)})",
        heat=heat_map(atlas),
    )


def atlas_report(atlas: Atlas, fmt: str, command: str | None = None) -> str:
    """The atlas in one format, stamped with ``command`` (default: ``loopcompare atlas`` with its rulesets)."""
    made = stamp.of(command or stamp.command("loopcompare", "atlas", *stamp.ruleset_options(atlas.rulesets), "-f", fmt))
    if fmt == "json":
        return atlas_json(atlas, made)
    text = atlas_markdown(atlas) if fmt == "md" else atlas_html(atlas)
    return document(text, fmt, made)


def atlas_json(atlas: Atlas, made: Stamp | None = None) -> str:
    """The divergence atlas as JSON (``loopcompare/atlas/1``)."""
    classes = []
    for i, (cls, comparison) in enumerate(zip(atlas.classes, atlas.example_comparisons), 1):
        results, *parts = cls.signature
        classes.append(
            {
                "class": i,
                "count": cls.count,
                "sentence": atlases.sentence(atlas, cls),
                "results": list(results),
                "agreement": {f: list(p) for f, p in zip(atlas.fields, parts)},
                "sides": [{"rulesets": side, "rules": list(rules)} for side, rules in atlases.sides(atlas, cls, comparison)],
                "example": {"toml": atlases.to_toml(cls.example), "comparison": comparison.to_json()},
            }
        )
    doc = {
        "format": "loopcompare/atlas/1",
        "rulesets": [{"key": r.key, "name": r.name, "effective": r.effective} for r in atlas.rulesets],
        "total": atlas.total,
        "agreeing": atlas.agreeing,
        "by_players": [{"players": n, "total": t, "agreeing": a} for n, t, a in atlas.by_players],
        "pairs": [{"rulesets": [a, b], "disagree": n} for a, b, n in atlas.pairs],
        "by_kind": [
            {"kind": name, "total": total, "pairs": [{"rulesets": [a, b], "disagree": count, "smallest_class": number} for (a, b, _), (count, number) in zip(atlas.pairs, cells)]}
            for name, total, cells in atlas.by_kind
        ],
        "classes": classes,
    }
    if made is not None:
        doc["stamp"] = made.json()
    return json_document(doc)
