"""The markdown reports, read back by a real CommonMark + GFM parser (markdown-it-py).

What the reader of a report on GitHub sees is what the parser makes of the text, so every
committed report (``reports/**/*.md``) is parsed and checked: tables are rectangular in the
source (markdown-it pads short rows and drops extra cells silently, so the source rows are
counted too), cells say what the JSON twin says, the only raw HTML is the renderer's own
``<a id="..."></a>`` anchors, headings nest without skipping a level under exactly one h1, and
links land somewhere.  Scenarios whose every text field carries markdown syntax show that user
text stays inert: the report has exactly the markup of the same report with plain words, and
the text reads back as typed.

Each checker returns a list of problems; the tests at the end feed each one a deliberate
breakage (ragged table, raw HTML, skipped heading, tampered JSON, ``md()`` replaced by the
identity) to show that it can fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import ROOT
from markdown_it import MarkdownIt
from markdown_it.token import Token

from loopcompare.comparator import render
from loopcompare.comparator.compare import compare
from loopcompare.comparator.loader import parse_bytes
from loopcompare.comparator.report import build
from loopcompare.comparator.timeline import build as build_timeline
from loopcompare.rulesets import registry
from loopcompare.rulesets.registry import BUILTIN

REPORTS = ROOT / "reports"
MARKDOWN_FILES = sorted(REPORTS.rglob("*.md"))
TWINS = sorted(p for p in REPORTS.glob("*.json") if p.stem not in ("atlas", "history"))

DIFFERS = "\u2260"
DASH = "\u2014"
MINUS = "\u2212"

ANCHOR = re.compile(r'<a id="([A-Za-z0-9_-]+)"></a>')
DELIMITER_ROW = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+\s*$")

# The renderer's own bold and italics (everything else bold or italic came from user text).
LABELS = {
    "result": "Result",
    "iterations": "Iterations",
    "steps": "Steps into the next iteration",
    "deviates": "Deviates",
    "last_action": "Last action (the last word)",
    "judge": "Judge may be needed",
    "rules": "Rules applied",
    "ended_by": "Ended by",
    "eliminated": "Eliminated",
    "stopped_by": "Stopped by",
    "ends_early_if": "Ends early if",
    "expected_iterations": "Expected iterations",
    "after_cut": "Steps resolved after the cut",
    "inner": "Cut inside the inner loop",
    "inner_results": "Inner loops",
    "part": "Part reached",
}
#: Format 2's fields (and format 3's after_cut) have a row only when some ruleset gives a value other than this one.
NEUTRAL = {"ended_by": None, "eliminated": [], "ends_early_if": None, "expected_iterations": None, "after_cut": 0, "inner": None, "inner_results": {}, "part": None}
FIXED_STRONG = {
    DIFFERS,
    "Players, in turn order:",
    "Starting state:",
    "Intents:",
    "Could break the loop:",
    "Notes (where the text is silent or ambiguous):",
    "Rules quoted:",
    "Sources:",
    "Cards (Oracle text):",
    "Rulings:",
    "Simplified:",
    "Where the texts are silent or ambiguous:",
} | {f"{DIFFERS} {label}" for label in LABELS.values()}
RULE_KEY = re.compile(r"(?:CR |MTR )?\d+(?:\.\d+[a-z]?)?(?: \u00b6\d+)?|G\.21(?:\.[A-Za-z0-9]+)*")
FIXED_EM = {"Scenario:", "Source:", "Tags:", "The loop rule's numbers:"}
DOCUMENT_LINE = re.compile(r"[A-Z][^*]*, text of [^*]*\.")


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def parse(text: str) -> list[Token]:
    return parser().parse(text)


def walk(tokens: list[Token]):
    """Every token, block and inline, in document order."""
    for t in tokens:
        yield t
        yield from t.children or ()


def plain(inline: Token) -> str:
    """The text a reader sees in an inline token: escapes resolved, markup dropped."""
    out = []
    for c in inline.children or ():
        if c.type in ("text", "text_special", "code_inline", "html_inline"):
            out.append(c.content)
        elif c.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return "".join(out)


# --- tables ----------------------------------------------------------------------------------------


def split_row(line: str) -> list[str]:
    """A GFM table row split into cells; a pipe after an odd run of backslashes is escaped."""
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    cells, start = [], 0
    for i, ch in enumerate(s):
        if ch == "|" and (i - len(s[:i].rstrip("\\"))) % 2 == 0:
            cells.append(s[start:i])
            start = i + 1
    if s[start:].strip():
        cells.append(s[start:])
    return cells


def tables(tokens: list[Token]) -> list[dict]:
    """Each table as {"header": [inline], "rows": [(line, [inline])], "lines": [line numbers]}."""
    out: list[dict] = []
    row: list[Token] | None = None
    in_cell = False
    for t in tokens:
        if t.type == "table_open":
            out.append({"header": None, "rows": [], "lines": [], "map": t.map})
        elif t.type == "tr_open":
            row = []
            out[-1]["lines"].append(t.map[0])
        elif t.type in ("th_open", "td_open"):
            in_cell = True
        elif t.type in ("th_close", "td_close"):
            in_cell = False
        elif t.type == "inline" and in_cell:
            row.append(t)
        elif t.type == "tr_close":
            if out[-1]["header"] is None:
                out[-1]["header"] = row
            else:
                out[-1]["rows"].append((out[-1]["lines"][-1], row))
    return out


def table_problems(text: str) -> list[str]:
    """Rows whose cell count (in the token stream or in the source) is not the header's."""
    problems = []
    tokens = parse(text)
    lines = text.split("\n")
    delimiters = [i for i, line in enumerate(lines) if DELIMITER_ROW.match(line)]
    found = tables(tokens)
    if len(found) != len(delimiters):
        problems.append(f"{len(delimiters)} delimiter rows in the source but {len(found)} tables parsed (header and delimiter disagree?)")
    # Token walk: the th of the header row, the td of every body row.
    header = cells = None
    for t in tokens:
        if t.type == "table_open":
            header = None
        elif t.type == "tr_open":
            cells = 0
        elif t.type in ("th_open", "td_open"):
            cells += 1
        elif t.type == "tr_close":
            if header is None:
                header = cells
            elif cells != header:
                problems.append(f"line {t.map[0] + 1 if t.map else '?'}: {cells} cells in the token stream, header {header}")
    # Source rows: markdown-it pads short rows and drops extra cells, so count them in the text.
    for table in found:
        width = len(table["header"])
        for n in table["lines"]:
            got = len(split_row(lines[n]))
            if got != width:
                problems.append(f"line {n + 1}: {got} cells, header has {width}: {lines[n][:120]!r}")
    return problems


# --- raw HTML --------------------------------------------------------------------------------------


#: Raw HTML the renderer itself writes: the history's word differences (<del>/<ins>), line breaks
#: in its old-beside-new cells, and the folded drawings of its classes (<details>).
RENDERER_INLINE_HTML = {"<del>", "</del>", "<ins>", "</ins>", "<br>"}
RENDERER_BLOCK_HTML = re.compile(r"<details><summary>The smallest example of each class, drawn \(\d+\)</summary>|</details>")


def html_problems(tokens: list[Token]) -> list[str]:
    """Raw HTML other than a paragraph that is exactly ``<a id="SAFE"></a>``; repeated anchors."""
    problems, seen = [], set()
    for t in tokens:
        if t.type == "html_block":
            m = ANCHOR.fullmatch(t.content.strip())
            if m:
                seen.add(m.group(1))
            elif not RENDERER_BLOCK_HTML.fullmatch(t.content.strip()):
                problems.append(f"html block: {t.content.strip()[:80]!r}")
        if t.type != "inline":
            continue
        # (the history's word differences and old-beside-new cells are the renderer's own HTML)
        raw = [c for c in t.children if c.type == "html_inline" and c.content not in RENDERER_INLINE_HTML]
        if not raw:
            continue
        m = ANCHOR.fullmatch(t.content.strip())
        if not m or any(c.type != "html_inline" for c in t.children):
            problems.append(f"inline html in {t.content[:80]!r}: {[c.content for c in raw]}")
            continue
        if m.group(1) in seen:
            problems.append(f"anchor {m.group(1)!r} twice")
        seen.add(m.group(1))
    return problems


def anchors(tokens: list[Token]) -> set[str]:
    return {m.group(1) for t in tokens if t.type in ("inline", "html_block") for m in [ANCHOR.fullmatch(t.content.strip())] if m}


# --- headings --------------------------------------------------------------------------------------


def heading_problems(tokens: list[Token]) -> list[str]:
    """Not exactly one h1, a first heading other than h1, or a level skipped going down."""
    levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
    problems = []
    if levels.count(1) != 1:
        problems.append(f"{levels.count(1)} h1 headings")
    if levels and levels[0] != 1:
        problems.append(f"the first heading is h{levels[0]}")
    for before, after in zip(levels, levels[1:]):
        if after > before + 1:
            problems.append(f"h{before} followed by h{after}")
    return problems


def headings(tokens: list[Token]) -> list[tuple[int, str]]:
    return [(int(t.tag[1]), plain(tokens[i + 1])) for i, t in enumerate(tokens) if t.type == "heading_open"]


# --- markup the renderer did not mean -------------------------------------------------------------


def markup_problems(tokens: list[Token], *, links: bool, state_names=None, mermaid: bool = False) -> list[str]:
    """Inline or block markup that only user text could have made (with ``mermaid``, the
    renderer's own Mermaid blocks are allowed: a fence whose info is ``mermaid`` and whose body is
    a flowchart)."""
    problems = list(html_problems(tokens))
    state = r"[a-z_]+" if state_names is None else "|".join(re.escape(n) for n in state_names)
    for t in walk(tokens):
        if mermaid and t.type == "fence" and t.info == "mermaid" and t.content.startswith("flowchart TD\n"):
            continue
        if t.type in ("code_inline", "code_block", "fence", "image", "s_open", "hr"):
            problems.append(f"{t.type}: {t.content[:60]!r}")
        if t.type == "heading_open" and t.markup != "#" * int(t.tag[1]):
            problems.append(f"setext heading {t.markup!r}")
        if t.type == "link_open" and not links:
            problems.append(f"link to {t.attrs.get('href')!r}")
    for before, t in zip([None, *tokens], tokens):
        if t.type != "inline":
            continue
        kids = [c.type for c in t.children if c.type != "text" or c.content.strip()]
        if before is not None and before.type == "td_open" and kids[:1] == ["strong_open"] and kids[-1:] == ["strong_close"] and kids.count("strong_open") == 1:
            continue  # a whole cell in bold: the renderer's mark of a cell that differs from its row
        stack: list[tuple[str, list[str]]] = []
        for c in t.children:
            if c.type in ("strong_open", "em_open"):
                stack.append((c.type, []))
            elif c.type in ("strong_close", "em_close") and stack:
                kind, parts = stack.pop()
                text = "".join(parts)
                if kind == "strong_open":
                    ok = text in FIXED_STRONG or RULE_KEY.fullmatch(text) or re.fullmatch(f"{DIFFERS} State: (?:{state})", text)
                else:
                    ok = text in FIXED_EM or DOCUMENT_LINE.fullmatch(text)
                if not ok:
                    problems.append(f"{kind[:-5]} the renderer never writes: {text[:60]!r}")
            elif c.type in ("text", "text_special") and stack:
                for _, parts in stack:
                    parts.append(c.content)
    return problems


def signature(tokens: list[Token]) -> list[tuple[str, str, str]]:
    """The document's markup with the words left out: what two reports must share when only
    their user text differs."""
    return [(t.type, t.tag, t.markup) for t in walk(tokens) if t.type not in ("text", "text_special")]


# --- the gallery -------------------------------------------------------------------------------------


def _id(path: Path) -> str:
    return str(path.relative_to(REPORTS))


def test_the_gallery_is_there():
    names = {_id(p) for p in MARKDOWN_FILES}
    assert {"index.md", "atlas.md", "flying-relents.md", "timelines/flying-relents.md"} <= names
    assert len(TWINS) >= 20


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=_id)
def test_tables_are_rectangular(path):
    text = path.read_text(encoding="utf-8")
    assert tables(parse(text)), "every report has at least one table"
    assert table_problems(text) == []


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=_id)
def test_only_anchor_html(path):
    tokens = parse(path.read_text(encoding="utf-8"))
    assert html_problems(tokens) == []


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=_id)
def test_headings_nest_under_one_h1(path):
    tokens = parse(path.read_text(encoding="utf-8"))
    assert heading_problems(tokens) == []


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=_id)
def test_only_the_renderers_markup(path):
    tokens = parse(path.read_text(encoding="utf-8"))
    # The history draws each smallest example as a Mermaid block (the compare report only on request).
    assert markup_problems(tokens, links=path.name in ("index.md", "atlas.md", "history.md", "README.md"), mermaid=path.name == "history.md") == []


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=_id)
def test_links_resolve(path):
    tokens = parse(path.read_text(encoding="utf-8"))
    targets = anchors(tokens)
    for t in walk(tokens):
        if t.type != "link_open":
            continue
        href = t.attrs["href"]
        if href.startswith("#"):
            assert href[1:] in targets, href
        else:
            assert re.fullmatch(r"[A-Za-z0-9_/-]+\.md", href), href
            assert (path.parent / href).is_file(), href


# --- cells against the JSON twins ------------------------------------------------------------------


def display(value, *, compact: bool = False) -> str:
    """How a cell shows a JSON value (written independently of comparator.report.show)."""
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "unbounded":
        return "unbounded"
    if isinstance(value, int):
        digits, sign = str(abs(value)), MINUS if value < 0 else ""
        if len(digits) > 15 and digits.rstrip("0") == "1":
            return f"{sign}10^{len(digits) - 1}"
        if len(digits) > 15 and compact:
            return f"{sign}\u2248{digits[0]}.{digits[1:3]}\u00d710^{len(digits) - 1}"
        return sign + f"{abs(value):,}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {display(v, compact=compact)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(display(v, compact=compact) for v in value)
    return str(value)


def expected_rows(comparison: dict) -> list[tuple[str, str, list[str]]]:
    """(field, label, cells) of the outcome table the JSON comparison calls for."""
    keys = [r["key"] for r in comparison["rulesets"]]
    outcomes = comparison["outcomes"]
    state = outcomes[keys[0]]["state"]
    names = []
    for k in sorted(state):
        names += [f"{k}.{p}" for p in sorted(state[k])] if isinstance(state[k], dict) else [k]
    extra = ["ended_by", "eliminated", "stopped_by", "ends_early_if", "expected_iterations", "after_cut", "inner", "inner_results", "part"]
    extra = [f for f in extra if f not in NEUTRAL or any(outcomes[k][f] != NEUTRAL[f] for k in keys)]
    fields = ["result", "iterations", "steps", "deviates", "last_action"] + [f"state.{k}" for k in names] + ["judge"] + extra + ["rules"]
    rows = []
    for f in fields:
        if f.startswith("state."):
            label = f"State: {f[6:]}"
            name, _, player = f[6:].partition(".")
            cells = [
                display(outcomes[k]["state"].get(name) if not player else (outcomes[k]["state"].get(name) or {}).get(player))
                # No cut (iterations null): the starting values, labelled so.
                + (" (start)" if outcomes[k]["iterations"] is None else "")
                for k in keys
            ]
        else:
            label = LABELS[f]
            cells = [display(outcomes[k][f]) for k in keys]
        rows.append((f, label, cells))
    return rows


def outcome_table_problems(table: dict, comparison: dict) -> list[str]:
    """The outcome table against its JSON comparison: columns, rows, cells and ≠ marks."""
    problems = []
    header = [plain(c) for c in table["header"]]
    names = [r["name"] for r in comparison["rulesets"]]
    if header != ["Outcome"] + names:
        problems.append(f"header {header} != {['Outcome'] + names}")
    want = expected_rows(comparison)
    got = []
    for _, cells in table["rows"]:
        label = plain(cells[0])
        bold = any(c.type == "strong_open" for c in cells[0].children)
        marked = label.startswith(f"{DIFFERS} ")
        if marked != bold:
            problems.append(f"{label!r}: the {DIFFERS} mark and the bold disagree")
        got.append((label.removeprefix(f"{DIFFERS} "), marked, [plain(c) for c in cells[1:]]))
    if [g[0] for g in got] != [w[1] for w in want]:
        problems.append(f"rows {[g[0] for g in got]} != {[w[1] for w in want]}")
        return problems
    for (field, label, cells), (_, marked, shown) in zip(want, got):
        if shown != cells:
            problems.append(f"{label}: cells {shown} != JSON {cells}")
        if marked != (field in comparison["differences"]):
            problems.append(f"{label}: marked {marked} but differences say {field in comparison['differences']}")
    return problems


def outcome_tables(tokens: list[Token]) -> list[dict]:
    return [t for t in tables(tokens) if t["header"] and plain(t["header"][0]) == "Outcome"]


def test_flying_relents_cells_by_hand():
    """The example from the brief, spelled out: what a reader sees in flying-relents.md."""
    tokens = parse((REPORTS / "flying-relents.md").read_text(encoding="utf-8"))
    (table,) = outcome_tables(tokens)
    rows = {plain(cells[0]).removeprefix(f"{DIFFERS} "): [plain(c) for c in cells[1:]] for _, cells in table["rows"]}
    doc = json.loads((REPORTS / "flying-relents.json").read_text(encoding="utf-8"))["comparisons"][0]
    keys = [r["key"] for r in doc["rulesets"]]
    out = doc["outcomes"]
    assert rows["Iterations"] == [str(out[k]["iterations"]) for k in keys] == ["3", "3", "1", "3"]
    assert rows["Deviates"] == [out[k]["deviates"] for k in keys] == ["Bob", "Bob", "Alice", "Bob"]
    assert rows["State: flying"] == [json.dumps(out[k]["state"]["flying"]) for k in keys] == ["true", "true", "false", "true"]
    assert rows["Judge may be needed"] == ["false"] * 4


@pytest.mark.parametrize("twin", TWINS, ids=lambda p: p.stem)
def test_outcome_cells_match_the_json_twin(twin):
    doc = json.loads(twin.read_text(encoding="utf-8"))
    (comparison,) = doc["comparisons"]
    tokens = parse(twin.with_suffix(".md").read_text(encoding="utf-8"))
    # A file of loops one after another ([[then]]) has one more table per part (FORMAT item 30).
    parts = max(len(out["parts"]) for out in comparison["outcomes"].values())
    table, *part_tables = outcome_tables(tokens)
    assert len(part_tables) == parts
    assert outcome_table_problems(table, comparison) == []
    heads = headings(tokens)
    assert heads[0] == (1, comparison["scenario"]["title"])
    how = heads.index((2, "How each ruleset settles it"))
    settled = [text for level, text in heads[how:] if level == 3]
    assert settled == [f"{r['name']}: {comparison['outcomes'][r['key']]['result']}" for r in comparison["rulesets"]]


def test_big_numbers_are_shown_as_the_json_has_them():
    """gond-googol: a googol is 10^100 in the cells, 1,000,000 stays with separators."""
    doc = json.loads((REPORTS / "gond-googol.json").read_text(encoding="utf-8"))["comparisons"][0]
    assert all(o["iterations"] == 10**100 for o in doc["outcomes"].values())
    (table,) = outcome_tables(parse((REPORTS / "gond-googol.md").read_text(encoding="utf-8")))
    rows = {plain(cells[0]).removeprefix(f"{DIFFERS} "): [plain(c) for c in cells[1:]] for _, cells in table["rows"]}
    assert set(rows["Iterations"]) == {"10^100"}


def summary_text(outcome: dict) -> str:
    """A summary cell (index.md): result × iterations (+ steps), who deviates, the state."""
    text = outcome["result"]
    if text in ("shortcut", "ends"):
        text += f" \u00d7 {display(outcome['iterations'], compact=True)}"
        if outcome["steps"]:
            text += f" + {outcome['steps']}"
    if outcome["deviates"]:
        text += f", {outcome['deviates']} deviates"
    if outcome["judge"]:
        text += ", judge"
    state = "; ".join(f"{k} {display(v, compact=True)}" for k, v in sorted(outcome["state"].items()))
    return f"{text} ({state})" if state else text


def test_index_summary_matches_the_json_twins():
    tokens = parse((REPORTS / "index.md").read_text(encoding="utf-8"))
    (summary,) = [t for t in tables(tokens) if plain(t["header"][0]) == "Loop"]
    twins = {p.stem: json.loads(p.read_text(encoding="utf-8"))["comparisons"][0] for p in TWINS}
    first = next(iter(twins.values()))
    assert [plain(c) for c in summary["header"]] == ["Loop"] + [r["name"] for r in first["rulesets"]] + [DIFFERS]
    seen = []
    for _, cells in summary["rows"]:
        (link,) = [c for c in cells[0].children if c.type == "link_open"]
        stem = link.attrs["href"].removesuffix(".md")
        comparison = twins[stem]
        seen.append(stem)
        assert plain(cells[0]) == comparison["scenario"]["title"]
        assert [plain(c) for c in cells[1:-1]] == [summary_text(comparison["outcomes"][r["key"]]) for r in comparison["rulesets"]], stem
        assert plain(cells[-1]) == (DIFFERS if comparison["differences"] else ""), stem
    assert sorted(seen) == sorted(twins)


def test_atlas_cells_match_atlas_json():
    doc = json.loads((REPORTS / "atlas.json").read_text(encoding="utf-8"))
    tokens = parse((REPORTS / "atlas.md").read_text(encoding="utf-8"))
    found = tables(tokens)

    def share(part, whole):
        # One decimal from 1%, two significant digits below it; none and all exactly.
        if part in (0, whole):
            return f"{100 * part // whole}%"
        pct = 100 * part / whole
        return f"{pct:.1f}%" if pct >= 1 else f"{pct:#.2g}%"

    def rows(header):
        (table,) = [t for t in found if [plain(c) for c in t["header"]] == header]
        return [[plain(c) for c in cells] for _, cells in table["rows"]]

    assert rows(["Players", "Loops", "All rulesets agree"]) == [
        [str(p["players"]), f"{p['total']:,}", f"{p['agreeing']:,} ({share(p['agreeing'], p['total'])})"] for p in doc["by_players"]
    ]
    names = {r["key"]: r["name"] for r in doc["rulesets"]}
    assert rows(["Rulesets", "Disagree", "Share"]) == [
        [f"{names[a]} / {names[b]}", f"{p['disagree']:,}", share(p["disagree"], doc["total"])] for p in doc["pairs"] for a, b in [p["rulesets"]]
    ]
    assert rows(["Class", "Loops", "Share", "What differs"]) == [
        [str(c["class"]), f"{c['count']:,}", share(c["count"], doc["total"]), c["sentence"]] for c in doc["classes"]
    ]
    pairs = [f"{names[a]} / {names[b]}" for a, b in (p["rulesets"] for p in doc["pairs"])]
    assert rows(["Kind of loop", "Loops"] + pairs)[0][1] == f"{doc['by_kind'][0]['total']:,}"
    for row, kind in zip(rows(["Kind of loop", "Loops"] + pairs), doc["by_kind"]):
        assert row[2:] == [share(p["disagree"], kind["total"]) for p in kind["pairs"]], kind["kind"]
    examples = outcome_tables(tokens)
    assert len(examples) == len(doc["classes"])
    for table, cls in zip(examples, doc["classes"]):
        assert outcome_table_problems(table, cls["example"]["comparison"]) == [], f"class {cls['class']}"


# --- user text with markdown syntax ------------------------------------------------------------------

MARKUP = ["*bold*", "_em_", "`code`", "[link](http://x)", "<b>x</b>", "# h", "| pipe |", "~~s~~", "---", "1. x", "> q"]
MORE = ["![img](http://x)", "<http://x>", "&amp; &#35;", "<!-- c -->", "\\*not\\*", "+ x", "= x", "***", "a__b__c", "1) x", "Loop #", "x\\"]

# Once bugs, now pinned: an ordered-list marker is escaped after the digits ("1\\. x", since a
# backslash before a digit would show), and a title's trailing "#"s are escaped (CommonMark would
# read " #" at the end of a heading as its closing sequence).


def q(text: str) -> str:
    """A TOML basic string (JSON string syntax is valid TOML for these texts)."""
    return json.dumps(text, ensure_ascii=False)


def texts(s: str | None) -> dict[str, str]:
    """Every user text field: the markup string in each, or plain words when ``s`` is None."""
    if s is None:
        return {"title": "Title", "description": "Description", "source": "Source", "tag": "tag", "a": "Alice", "b": "Bob", "does": "acts", "flag": "flag", "ends": "Bob loses", "id": "case"}
    return {"title": s, "description": s, "source": s, "tag": s, "a": s, "b": f"{s} B", "does": s, "flag": s, "ends": s, "id": s}


def hostile(kind: str, t: dict[str, str]):
    """A scenario of three shapes, every text field taken from ``t``."""
    head = f"""
title = {q(t['title'])}
description = {q(t['description'])}
source = {q(t['source'])}
tags = [{q(t['tag'])}, {q(t['tag'] + ' 2')}]
players = [{q(t['a'])}, {q(t['b'])}]
"""
    count = q(t["flag"] + " n")
    if kind == "fragmented":  # the flag and the counter differ between rulesets
        body = f"""
[state]
{q(t['flag'])} = false
{count} = 0

[[step]]
by = {q(t['a'])}
does = {q(t['does'])}
optional = true
set = {{ {q(t['flag'])} = true }}
add = {{ {count} = 1 }}

[[step]]
by = {q(t['b'])}
does = {q(t['does'] + ' again')}
optional = true
set = {{ {q(t['flag'])} = false }}

[[breaker]]
by = {q(t['b'])}
does = {q(t['does'])}

[intent]
{q(t['b'])} = 3
"""
    elif kind == "unless":
        body = f"""
[state]
{count} = 0

[[step]]
by = {q(t['a'])}
does = {q(t['does'])}
add = {{ {count} = 1 }}

[[step]]
by = {q(t['a'])}
does = {q(t['does'] + ' again')}
unless = {{ by = {q(t['b'])}, does = {q(t['does'])} }}

[intent]
{q(t['b'])} = 3
"""
    else:  # "ends": a mandatory loop that ends by itself
        body = f"""
[state]
{count} = 7

[[step]]
by = {q(t['a'])}
does = {q(t['does'])}
add = {{ {count} = -2 }}

[[step]]
by = {q(t['a'])}
does = {q(t['does'] + ' again')}

[loop]
ends_when = {{ value = {count}, at_most = 0 }}
ends_with = {q(t['ends'])}
"""
    raw = (head + body).encode("utf-8")
    return parse_bytes(raw, f"{t['id']}.toml", t["id"] + "-" + kind, file=f"{t['id']}.toml")


KINDS = ("fragmented", "unless", "ends")


def renders(s: str | None) -> dict[str, tuple[str, bool]]:
    """Every markdown the renderer makes of the scenarios: (text, links expected)."""
    t = texts(s)
    rulesets = registry().select([])
    eras = tuple(r for r in registry().rulesets if r.key in BUILTIN)
    scenarios = [hostile(k, t) for k in KINDS]
    comparisons = [compare(sf, rulesets) for sf in scenarios]
    out = {f"single-{k}": (render.markdown(build([c])), False) for k, c in zip(KINDS, comparisons)}
    out["several"] = (render.markdown(build(comparisons)), True)
    out["timeline"] = (render.timeline_markdown([build_timeline(scenarios[0], eras)]), False)
    out["timelines"] = (render.timeline_markdown([build_timeline(sf, eras) for sf in scenarios]), True)
    return out


def inert_problems(s: str) -> list[str]:
    """Markup in the reports of ``s`` that the same reports with plain words do not have."""
    t = texts(s)
    names = [t["flag"], t["flag"] + " n"]
    plain_words = renders(None)
    problems = []
    for name, (text, links) in renders(s).items():
        tokens = parse(text)
        problems += [f"{name}: {p}" for p in markup_problems(tokens, links=links, state_names=names)]
        problems += [f"{name}: {p}" for p in table_problems(text)]
        problems += [f"{name}: {p}" for p in heading_problems(tokens)]
        for tok in walk(tokens):
            if tok.type == "link_open" and not re.fullmatch(r"#[A-Za-z0-9_-]+", tok.attrs["href"]):
                problems.append(f"{name}: link to {tok.attrs['href']!r}")
        if signature(tokens) != signature(parse(plain_words[name][0])):
            problems.append(f"{name}: the markup differs from the same report with plain words")
    return problems


@pytest.mark.parametrize("s", MARKUP + MORE)
def test_user_markup_is_inert(s):
    assert inert_problems(s) == []


def _param(s: str, *marks):
    return pytest.param(s, marks=marks, id=s)


TITLE_CASES = [_param(s) for s in MARKUP + MORE]
TEXT_CASES = [_param(s) for s in MARKUP + MORE]


@pytest.mark.parametrize("s", TITLE_CASES)
def test_title_reads_as_typed(s):
    """The h1 (and the h2 and contents link of a report on several) is the title, verbatim."""
    out = renders(s)
    for kind in KINDS:
        heads = headings(parse(out[f"single-{kind}"][0]))
        assert heads[0] == (1, s)
    tokens = parse(out["several"][0])
    assert [text for level, text in headings(tokens) if level == 2 and text not in ("Contents", "Summary")] == [s] * len(KINDS)
    link_texts = [plain(t) for t in tokens if t.type == "inline" and any(c.type == "link_open" for c in t.children)]
    assert link_texts[:3] == [s] * 3  # the contents list
    assert headings(parse(out["timeline"][0]))[0] == (1, f"Timeline: {s}")


@pytest.mark.parametrize("s", TEXT_CASES)
def test_user_text_reads_as_typed(s):
    """Description, facts, players, steps and state names read back exactly as typed."""
    t = texts(s)
    text = render.markdown(build([compare(hostile("fragmented", t), registry().select([]))]))
    tokens = parse(text)
    paragraphs = [plain(tokens[i + 1]) for i, tok in enumerate(tokens) if tok.type == "paragraph_open"]
    assert paragraphs[0] == s  # the description
    assert paragraphs[1] == f"Scenario: {s}-fragmented ({s}.toml)\nSource: {s}\nTags: {s}, {s} 2"
    assert paragraphs[2] == f"Players, in turn order: {s} (active), {s} B"
    steps = next(tb for tb in tables(tokens) if plain(tb["header"][0]) == "#")
    assert [[plain(c) for c in cells[1:3]] for _, cells in steps["rows"]] == [[s, s], [f"{s} B", f"{s} again"]]
    (outcome,) = outcome_tables(tokens)
    labels = [plain(cells[0]).removeprefix(f"{DIFFERS} ") for _, cells in outcome["rows"]]
    assert f"State: {s}" in labels and f"State: {s} n" in labels
    deviates = next(cells for _, cells in outcome["rows"] if plain(cells[0]).endswith("Deviates"))
    assert {plain(c) for c in deviates[1:]} <= {s, f"{s} B"}


# --- the checkers can fail ---------------------------------------------------------------------------


def test_table_check_catches_ragged_rows():
    good = "| a | b |\n|:--|:--|\n| 1 | 2 |\n| x \\| y | z |\n"
    assert table_problems(good) == []
    short = "| a | b |\n|:--|:--|\n| 1 |\n"
    extra = "| a | b |\n|:--|:--|\n| 1 | 2 | 3 |\n"
    unescaped = "| a | b |\n|:--|:--|\n| x | y | z |\n"
    header_off = "| a | b | c |\n|:--|:--|\n| 1 | 2 |\n"
    for bad in (short, extra, unescaped, header_off):
        assert table_problems(bad), bad


def test_html_check_catches_raw_html():
    assert html_problems(parse('<a id="scenario-x_1"></a>\n\n# T\n')) == []
    for bad in ("<b>x</b>\n", 'a <a id="x"></a>\n', '<a id="x y"></a>\n', '<a id="x" onclick="y"></a>\n', "<div>\nx\n</div>\n", "<!-- c -->\n", '<a id="x"></a>\n\n<a id="x"></a>\n'):
        assert html_problems(parse(bad)), bad


def test_heading_check_catches_bad_outlines():
    assert heading_problems(parse("# a\n\n## b\n\n### c\n\n## d\n")) == []
    for bad in ("# a\n\n### b\n", "## a\n\n# b\n", "# a\n\n# b\n", "## a\n"):
        assert heading_problems(parse(bad)), bad


def test_markup_check_catches_user_markup():
    assert markup_problems(parse("**Intents:** x \\*y\\*\n"), links=False) == []
    for bad in ("**x**\n", "*x*\n", "`x`\n", "[x](y)\n", "~~x~~\n", "---\n", "x\n===\n", "    code\n"):
        assert markup_problems(parse(bad), links=False), bad


def test_cell_check_catches_a_wrong_value():
    doc = json.loads((REPORTS / "flying-relents.json").read_text(encoding="utf-8"))["comparisons"][0]
    (table,) = outcome_tables(parse((REPORTS / "flying-relents.md").read_text(encoding="utf-8")))
    assert outcome_table_problems(table, doc) == []
    tampered = json.loads(json.dumps(doc))
    tampered["outcomes"]["cr-2024"]["iterations"] = 2
    assert outcome_table_problems(table, tampered)
    tampered = json.loads(json.dumps(doc))
    tampered["differences"].remove("deviates")
    assert outcome_table_problems(table, tampered)


def test_inert_check_fails_without_escaping(monkeypatch):
    """With md() reduced to flattening whitespace, user markup becomes markup and is caught."""
    monkeypatch.setattr(render, "md", lambda text: " ".join(str(text).split()))
    for s in MARKUP:
        assert inert_problems(s), s
